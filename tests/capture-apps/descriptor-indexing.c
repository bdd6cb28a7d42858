/* Descriptor indexing (issue 23): a descriptor written after the dispatch
 * that uses it was recorded (VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT),
 * rewritten between two submissions of the same command buffer, and a
 * binding the shader uses only on a path it never takes, left unwritten
 * (VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT). The capture must read each
 * submission's descriptors at that submission.
 *
 * One command buffer, recorded once:
 *   dispatch: dst[i] = src[i] * 2 + 1 (extra[i] when src[i] >= 2^31: never)
 *   buffer barrier on `out`: COMPUTE_SHADER:SHADER_WRITE -> HOST:HOST_READ
 * Binding 1 (dst) is written `out` before recording; binding 0 (src) only
 * after it: `a` for the first submission, `b` for the second; binding 2
 * (extra) never. Each submission is waited for with a fence and `out`
 * checked on the host (wrong words are counted and printed; the exit
 * status is 0 either way).
 *
 * The argument:
 *   after   as above: no hazard (the default)
 *   race    before the second submission dst is rewritten too, to `out2`,
 *           which the host then reads: the barrier names `out` only, so
 *           the host's read of out2 races with the dispatch's write (a
 *           capture that read the descriptors at recording would see the
 *           write land in `out`, covered by the barrier, and miss it)
 *
 * The shader is GLSL compiled to SPIR-V by naga (the capture's
 * dev-dependency), kept here as words:
 *   #version 450
 *   layout(local_size_x = 64) in;
 *   layout(set = 0, binding = 0) readonly buffer Src { uint v[]; } src;
 *   layout(set = 0, binding = 1) buffer Dst { uint v[]; } dst;
 *   layout(set = 0, binding = 2) readonly buffer Extra { uint v[]; } extra;
 *   void main() {
 *       uint i = gl_GlobalInvocationID.x;
 *       uint x = src.v[i];
 *       if (x >= 0x80000000u) {
 *           x = extra.v[i];
 *       }
 *       dst.v[i] = x * 2u + 1u;
 *   }
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

static int wrong_words(const uint32_t *out, const uint32_t *src) {
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += out[i] != src[i] * 2u + 1u;
    return wrong;
}

int main(int argc, char **argv) {
    const char *how = argc > 1 ? argv[1] : "after";
    int race = !strcmp(how, "race");
    if (!race && strcmp(how, "after")) {
        fprintf(stderr, "descriptor-indexing: unknown way `%s`\n", how);
        return 2;
    }
    vks_load();
    {
        /* Lavapipe before Mesa 23 (Debian 12's) has no descriptor
         * indexing: say so with status 3 (tests/capture-apps/run.sh then
         * runs this application in the Debian 13 root). */
        VkInstance instance;
        VkPhysicalDevice physical = vks_probe(&instance);
        VkPhysicalDeviceVulkan12Features has = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
        VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        f2.pNext = &has;
        vkGetPhysicalDeviceFeatures2(physical, &f2);
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(physical, &props);
        vkDestroyInstance(instance, NULL);
        if (!has.descriptorBindingStorageBufferUpdateAfterBind || !has.descriptorBindingPartiallyBound) {
            printf("descriptor-indexing: unsupported: %s has no descriptorBindingStorageBufferUpdateAfterBind "
                   "or descriptorBindingPartiallyBound\n",
                   props.deviceName);
            return 3;
        }
    }
    VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    f12.descriptorBindingStorageBufferUpdateAfterBind = VK_TRUE;
    f12.descriptorBindingPartiallyBound = VK_TRUE;
    vks_device_next = &f12;
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

    void *a_map, *b_map, *out_map, *out2_map;
    VkBuffer a = vks_host_buffer_named(&v, N * 4, &a_map, "a", p_vkSetDebugUtilsObjectNameEXT);
    VkBuffer b = vks_host_buffer_named(&v, N * 4, &b_map, "b", p_vkSetDebugUtilsObjectNameEXT);
    VkBuffer out = vks_host_buffer_named(&v, N * 4, &out_map, "out", p_vkSetDebugUtilsObjectNameEXT);
    VkBuffer out2 = vks_host_buffer_named(&v, N * 4, &out2_map, "out2", p_vkSetDebugUtilsObjectNameEXT);
    for (int i = 0; i < N; i++) {
        ((uint32_t *)a_map)[i] = (uint32_t)i;
        ((uint32_t *)b_map)[i] = 1000u + (uint32_t)i;
    }

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
    VkDescriptorBindingFlags flags[3] = {
        VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT,
        VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT,
        VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT | VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT,
    };
    VkDescriptorSetLayoutBindingFlagsCreateInfo fi = {
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO};
    fi.bindingCount = 3;
    fi.pBindingFlags = flags;
    VkDescriptorSetLayoutCreateInfo li = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.pNext = &fi;
    li.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT;
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
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3};
    VkDescriptorPoolCreateInfo dpi = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.flags = VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT;
    dpi.maxSets = 1;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &ps;
    VkDescriptorPool pool;
    vks_check(p_vkCreateDescriptorPool(v.device, &dpi, NULL, &pool));
    VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dai.descriptorPool = pool;
    dai.descriptorSetCount = 1;
    dai.pSetLayouts = &set_layout;
    VkDescriptorSet set;
    vks_check(p_vkAllocateDescriptorSets(v.device, &dai, &set));
    /* Binding `binding` of the set: the whole of `buffer`. */
#define WRITE(binding_, buffer_)                                                                   \
    do {                                                                                           \
        VkDescriptorBufferInfo bi_ = {(buffer_), 0, VK_WHOLE_SIZE};                                \
        VkWriteDescriptorSet w_ = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};                        \
        w_.dstSet = set;                                                                           \
        w_.dstBinding = (binding_);                                                                \
        w_.descriptorCount = 1;                                                                    \
        w_.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;                                     \
        w_.pBufferInfo = &bi_;                                                                     \
        p_vkUpdateDescriptorSets(v.device, 1, &w_, 0, NULL);                                       \
    } while (0)
    WRITE(1, out);

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
    /* Submission 1: src written only now, after the recording. */
    WRITE(0, a);
    vks_submit(&v, cb, fence);
    vks_check(vkWaitForFences(v.device, 1, &fence, VK_TRUE, UINT64_MAX));
    int wrong1 = wrong_words(out_map, a_map);
    vks_check(vkResetFences(v.device, 1, &fence));
    /* Submission 2: src rewritten (and, racing, dst). */
    WRITE(0, b);
    if (race)
        WRITE(1, out2);
    vks_submit(&v, cb, fence);
    vks_check(vkWaitForFences(v.device, 1, &fence, VK_TRUE, UINT64_MAX));
    int wrong2 = wrong_words(race ? out2_map : out_map, b_map);
    printf("descriptor-indexing (%s): 2 submissions, %d and %d wrong words\n", how, wrong1, wrong2);
    vkDestroyDevice(v.device, NULL);
    vkDestroyInstance(v.instance, NULL);
    return 0;
}
