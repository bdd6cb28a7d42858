/* Descriptor updates that run on into the next binding (review36): one
 * VkWriteDescriptorSet, or one VkCopyDescriptorSet, of descriptorCount 3
 * from binding 0 of a set whose bindings 0, 1 and 2 hold one descriptor
 * each: "If the dstBinding has fewer than descriptorCount array elements
 * remaining starting from dstArrayElement, then the remainder will be
 * used to update the subsequent binding - dstBinding+1 starting at array
 * element zero." The capture must put each descriptor in its binding.
 *
 * One dispatch: dst[i] = src[i] * 2 + 1 (extra[i] when src[i] >= 2^31:
 * never), then a buffer barrier on `out` to HOST:HOST_READ, one
 * submission, a fence wait, `out` checked on the host (wrong words are
 * printed; the exit status is 0 either way).
 *
 * The argument:
 *   write   one write of {src, out, extra} at binding 0 (the default)
 *   copy    each written into a second set one by one, then one copy of
 *           three from its binding 0 into the dispatch's set
 *   race    as `write` with {src, out2, extra}: the barrier names `out`,
 *           so the host's read of out2 races with the dispatch (a capture
 *           that kept the run-on descriptors under binding 0 saw no write
 *           of out2: the dispatch was not modelled)
 *
 * The shader is descriptor-indexing.c's (GLSL in that file), kept here
 * as words.
 */
#include "vk.h"
#include <string.h>
#define N 64

static const uint32_t spirv[] = {
    0x07230203, 0x00010000, 0x0000001c, 0x00000041, 0x00000000, 0x00020011,
    0x00000001, 0x000b000a, 0x5f565053, 0x5f52484b, 0x726f7473, 0x5f656761,
    0x66667562, 0x735f7265, 0x61726f74, 0x635f6567, 0x7373616c, 0x00000000,
    0x0006000b, 0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000,
    0x0003000e, 0x00000000, 0x00000001, 0x0006000f, 0x00000005, 0x0000003e,
    0x6e69616d, 0x00000000, 0x0000003b, 0x00060010, 0x0000003e, 0x00000011,
    0x00000040, 0x00000001, 0x00000001, 0x00040047, 0x00000004, 0x00000006,
    0x00000004, 0x00050048, 0x00000005, 0x00000000, 0x00000023, 0x00000000,
    0x00030047, 0x00000005, 0x00000002, 0x00050048, 0x00000006, 0x00000000,
    0x00000023, 0x00000000, 0x00030047, 0x00000006, 0x00000002, 0x00050048,
    0x00000007, 0x00000000, 0x00000023, 0x00000000, 0x00030047, 0x00000007,
    0x00000002, 0x00030047, 0x0000000e, 0x00000018, 0x00040047, 0x0000000e,
    0x00000022, 0x00000000, 0x00040047, 0x0000000e, 0x00000021, 0x00000000,
    0x00040047, 0x00000010, 0x00000022, 0x00000000, 0x00040047, 0x00000010,
    0x00000021, 0x00000001, 0x00030047, 0x00000012, 0x00000018, 0x00040047,
    0x00000012, 0x00000022, 0x00000000, 0x00040047, 0x00000012, 0x00000021,
    0x00000002, 0x00040047, 0x0000003b, 0x0000000b, 0x0000001c, 0x00020013,
    0x00000002, 0x00040015, 0x00000003, 0x00000020, 0x00000000, 0x0003001d,
    0x00000004, 0x00000003, 0x0003001e, 0x00000005, 0x00000004, 0x0003001e,
    0x00000006, 0x00000004, 0x0003001e, 0x00000007, 0x00000004, 0x00040017,
    0x00000008, 0x00000003, 0x00000003, 0x00040015, 0x0000000a, 0x00000020,
    0x00000001, 0x0004002b, 0x0000000a, 0x00000009, 0x00000040, 0x0004002b,
    0x0000000a, 0x0000000b, 0x00000000, 0x0004002b, 0x0000000a, 0x0000000c,
    0x00000001, 0x0004002b, 0x0000000a, 0x0000000d, 0x00000002, 0x00040020,
    0x0000000f, 0x0000000c, 0x00000005, 0x0004003b, 0x0000000f, 0x0000000e,
    0x0000000c, 0x00040020, 0x00000011, 0x0000000c, 0x00000006, 0x0004003b,
    0x00000011, 0x00000010, 0x0000000c, 0x00040020, 0x00000013, 0x0000000c,
    0x00000007, 0x0004003b, 0x00000013, 0x00000012, 0x0000000c, 0x00040020,
    0x00000015, 0x00000006, 0x00000008, 0x0003002e, 0x00000008, 0x00000016,
    0x0005003b, 0x00000015, 0x00000014, 0x00000006, 0x00000016, 0x00030021,
    0x00000019, 0x00000002, 0x0004002b, 0x00000003, 0x0000001a, 0x80000000,
    0x0004002b, 0x00000003, 0x0000001b, 0x00000002, 0x0004002b, 0x00000003,
    0x0000001c, 0x00000001, 0x00040020, 0x0000001e, 0x00000007, 0x00000003,
    0x0003002e, 0x00000003, 0x0000001f, 0x0003002e, 0x00000003, 0x00000021,
    0x00040020, 0x00000026, 0x0000000c, 0x00000004, 0x00040020, 0x00000027,
    0x0000000c, 0x00000003, 0x0004002b, 0x00000003, 0x00000028, 0x00000000,
    0x00020014, 0x0000002c, 0x00040020, 0x0000003c, 0x00000001, 0x00000008,
    0x0004003b, 0x0000003c, 0x0000003b, 0x00000001, 0x00050036, 0x00000002,
    0x00000018, 0x00000000, 0x00000019, 0x000200f8, 0x00000017, 0x0005003b,
    0x0000001e, 0x0000001d, 0x00000007, 0x0000001f, 0x0005003b, 0x0000001e,
    0x00000020, 0x00000007, 0x00000021, 0x000200f9, 0x00000022, 0x000200f8,
    0x00000022, 0x0004003d, 0x00000008, 0x00000023, 0x00000014, 0x00050051,
    0x00000003, 0x00000024, 0x00000023, 0x00000000, 0x0003003e, 0x0000001d,
    0x00000024, 0x0004003d, 0x00000003, 0x00000025, 0x0000001d, 0x00060041,
    0x00000027, 0x00000029, 0x0000000e, 0x00000028, 0x00000025, 0x0004003d,
    0x00000003, 0x0000002a, 0x00000029, 0x0003003e, 0x00000020, 0x0000002a,
    0x0004003d, 0x00000003, 0x0000002b, 0x00000020, 0x000500ae, 0x0000002c,
    0x0000002d, 0x0000002b, 0x0000001a, 0x000300f7, 0x0000002e, 0x00000000,
    0x000400fa, 0x0000002d, 0x0000002f, 0x0000002e, 0x000200f8, 0x0000002f,
    0x000200f9, 0x00000030, 0x000200f8, 0x00000030, 0x0004003d, 0x00000003,
    0x00000032, 0x0000001d, 0x00060041, 0x00000027, 0x00000033, 0x00000012,
    0x00000028, 0x00000032, 0x0004003d, 0x00000003, 0x00000034, 0x00000033,
    0x0003003e, 0x00000020, 0x00000034, 0x000200f9, 0x00000031, 0x000200f8,
    0x00000031, 0x000200f9, 0x0000002e, 0x000200f8, 0x0000002e, 0x0004003d,
    0x00000003, 0x00000035, 0x0000001d, 0x0004003d, 0x00000003, 0x00000036,
    0x00000020, 0x00050084, 0x00000003, 0x00000037, 0x00000036, 0x0000001b,
    0x00050080, 0x00000003, 0x00000038, 0x00000037, 0x0000001c, 0x00060041,
    0x00000027, 0x00000039, 0x00000010, 0x00000028, 0x00000035, 0x0003003e,
    0x00000039, 0x00000038, 0x000100fd, 0x00010038, 0x00050036, 0x00000002,
    0x0000003e, 0x00000000, 0x00000019, 0x000200f8, 0x0000003a, 0x0004003d,
    0x00000008, 0x0000003d, 0x0000003b, 0x000200f9, 0x0000003f, 0x000200f8,
    0x0000003f, 0x0003003e, 0x00000014, 0x0000003d, 0x00040039, 0x00000002,
    0x00000040, 0x00000018, 0x000100fd, 0x00010038,
};

#define DEV(f) PFN_##f p_##f = (PFN_##f)vkGetDeviceProcAddr(v.device, #f)

int main(int argc, char **argv) {
    const char *how = argc > 1 ? argv[1] : "write";
    int copy = !strcmp(how, "copy"), race = !strcmp(how, "race");
    if (!copy && !race && strcmp(how, "write")) {
        fprintf(stderr, "consecutive: unknown way `%s`\n", how);
        return 2;
    }
    vks_load();
    vks_debug_utils = 1;
    vks_buffer_usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    struct vks v = vks_device_ex(1);
    DEV(vkSetDebugUtilsObjectNameEXT);
    DEV(vkCreateShaderModule);
    DEV(vkCreateDescriptorSetLayout);
    DEV(vkCreatePipelineLayout);
    DEV(vkCreateComputePipelines);
    DEV(vkCreateDescriptorPool);
    DEV(vkAllocateDescriptorSets);
    DEV(vkUpdateDescriptorSets);
    DEV(vkCmdBindPipeline);
    DEV(vkCmdBindDescriptorSets);
    DEV(vkCmdDispatch);

    void *src_map, *out_map, *out2_map, *extra_map;
    VkBuffer src = vks_host_buffer_named(&v, N * 4, &src_map, "src", p_vkSetDebugUtilsObjectNameEXT);
    VkBuffer out = vks_host_buffer_named(&v, N * 4, &out_map, "out", p_vkSetDebugUtilsObjectNameEXT);
    VkBuffer out2 = vks_host_buffer_named(&v, N * 4, &out2_map, "out2", p_vkSetDebugUtilsObjectNameEXT);
    VkBuffer extra = vks_host_buffer_named(&v, N * 4, &extra_map, "extra", p_vkSetDebugUtilsObjectNameEXT);
    for (int i = 0; i < N; i++)
        ((uint32_t *)src_map)[i] = (uint32_t)i;

    VkShaderModuleCreateInfo si = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    si.codeSize = sizeof spirv;
    si.pCode = spirv;
    VkShaderModule module;
    vks_check(p_vkCreateShaderModule(v.device, &si, NULL, &module));
    VkDescriptorSetLayoutBinding lb[3] = {{0}};
    for (uint32_t k = 0; k < 3; k++) {
        lb[k].binding = k;
        lb[k].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        lb[k].descriptorCount = 1;
        lb[k].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo li = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.bindingCount = 3;
    li.pBindings = lb;
    VkDescriptorSetLayout set_layout;
    vks_check(p_vkCreateDescriptorSetLayout(v.device, &li, NULL, &set_layout));
    VkPipelineLayoutCreateInfo pli = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &set_layout;
    VkPipelineLayout layout;
    vks_check(p_vkCreatePipelineLayout(v.device, &pli, NULL, &layout));
    VkComputePipelineCreateInfo ci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = module;
    ci.stage.pName = "main";
    ci.layout = layout;
    VkPipeline pipeline;
    vks_check(p_vkCreateComputePipelines(v.device, VK_NULL_HANDLE, 1, &ci, NULL, &pipeline));
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 6};
    VkDescriptorPoolCreateInfo dpi = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.maxSets = 2;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &ps;
    VkDescriptorPool pool;
    vks_check(p_vkCreateDescriptorPool(v.device, &dpi, NULL, &pool));
    VkDescriptorSetLayout layouts[2] = {set_layout, set_layout};
    VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dai.descriptorPool = pool;
    dai.descriptorSetCount = 2;
    dai.pSetLayouts = layouts;
    VkDescriptorSet sets[2];
    vks_check(p_vkAllocateDescriptorSets(v.device, &dai, sets));
    VkDescriptorSet set = sets[0], staging = sets[1];
    VkDescriptorBufferInfo bi[3] = {{src, 0, VK_WHOLE_SIZE}, {race ? out2 : out, 0, VK_WHOLE_SIZE},
                                    {extra, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    if (copy) {
        /* One write per binding into the staging set, then one copy of
         * three descriptors from its binding 0. */
        for (uint32_t k = 0; k < 3; k++) {
            w.dstSet = staging;
            w.dstBinding = k;
            w.descriptorCount = 1;
            w.pBufferInfo = &bi[k];
            p_vkUpdateDescriptorSets(v.device, 1, &w, 0, NULL);
        }
        VkCopyDescriptorSet c = {VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET};
        c.srcSet = staging;
        c.dstSet = set;
        c.descriptorCount = 3;
        p_vkUpdateDescriptorSets(v.device, 0, NULL, 1, &c);
    } else {
        w.dstSet = set;
        w.dstBinding = 0;
        w.descriptorCount = 3;
        w.pBufferInfo = bi;
        p_vkUpdateDescriptorSets(v.device, 1, &w, 0, NULL);
    }

    VkCommandBuffer cb = vks_begin(&v);
    p_vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    p_vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    p_vkCmdDispatch(cb, N / 64, 1, 1);
    VkBufferMemoryBarrier mb = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    mb.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.buffer = out;
    mb.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1,
                         &mb, 0, NULL);
    vks_check(vkEndCommandBuffer(cb));
    VkFence fence = vks_fence(&v);
    vks_submit(&v, cb, fence);
    vks_check(vkWaitForFences(v.device, 1, &fence, VK_TRUE, UINT64_MAX));
    const uint32_t *o = race ? out2_map : out_map;
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += o[i] != (uint32_t)i * 2u + 1u;
    printf("consecutive (%s): %d wrong words\n", how, wrong);
    vkDestroyDevice(v.device, NULL);
    vkDestroyInstance(v.instance, NULL);
    return 0;
}
