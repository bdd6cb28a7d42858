/* A storage image written by a compute dispatch and read back (issue 23,
 * images in dispatches): a 16x16 R32_UINT image, declared exactly by the
 * capture (`image ... alias MEM OFFSET`), with three pipeline barriers,
 * each with a known role:
 *   barrier 1: image UNDEFINED -> GENERAL, TOP_OF_PIPE -> COMPUTE_SHADER:SHADER_WRITE
 *   dispatch: imageStore of texel (x, y) = y * 16 + x + 1 (a writeonly uimage2D)
 *   barrier 2: image GENERAL -> GENERAL, COMPUTE_SHADER:SHADER_WRITE -> COPY:TRANSFER_READ
 *              needed (the copy reads the dispatch's writes; no layout change, so
 *              dropping it leaves a race, not a layout error)
 *   copy the image to "out" (vkCmdCopyImageToBuffer, GENERAL)
 *   barrier 3: out TRANSFER_WRITE -> HOST_READ      needed
 * then submits, waits for the fence, and counts wrong texels (printed; the
 * exit status is 0 either way, a dropped barrier may not show on the
 * device). The argument says how the image descriptor reaches the
 * dispatch (the capture must keep it the same way each time):
 *   set            vkUpdateDescriptorSets, vkCmdBindDescriptorSets (the default)
 *   template       vkUpdateDescriptorSetWithTemplate (the image info 8 bytes
 *                  into the data), vkCmdBindDescriptorSets
 *   push           vkCmdPushDescriptorSetKHR (VK_KHR_push_descriptor)
 *   push-template  vkCmdPushDescriptorSetWithTemplateKHR
 *   push2          vkCmdPushDescriptorSet2KHR (VK_KHR_maintenance6)
 *   push-template2 vkCmdPushDescriptorSetWithTemplate2KHR
 *   set2           vkUpdateDescriptorSets, vkCmdBindDescriptorSets2KHR
 *                  (VK_KHR_maintenance6)
 * (the `2` forms exit with status 3, `unsupported:`, on a device without
 * VK_KHR_maintenance6, as Debian 12's lavapipe)
 * The shader is GLSL compiled to SPIR-V by naga (the capture's
 * dev-dependency), kept here as words:
 *   #version 450
 *   layout(local_size_x = 8, local_size_y = 8) in;
 *   layout(set = 0, binding = 0, r32ui) uniform writeonly uimage2D img;
 *   void main() {
 *       ivec2 p = ivec2(gl_GlobalInvocationID.xy);
 *       imageStore(img, p, uvec4(uint(p.y * 16 + p.x) + 1u));
 *   } */
#include "vk.h"
#include <string.h>
#define N 16

/* VK_KHR_maintenance6's push structures (Vulkan headers before 1.3.278,
 * as Debian 12's, lack them; the values are vk.xml's). */
#ifndef VK_KHR_maintenance6
typedef struct VkPushDescriptorSetInfoKHR {
    VkStructureType sType;
    const void *pNext;
    VkShaderStageFlags stageFlags;
    VkPipelineLayout layout;
    uint32_t set;
    uint32_t descriptorWriteCount;
    const VkWriteDescriptorSet *pDescriptorWrites;
} VkPushDescriptorSetInfoKHR;
typedef struct VkPushDescriptorSetWithTemplateInfoKHR {
    VkStructureType sType;
    const void *pNext;
    VkDescriptorUpdateTemplate descriptorUpdateTemplate;
    VkPipelineLayout layout;
    uint32_t set;
    const void *pData;
} VkPushDescriptorSetWithTemplateInfoKHR;
typedef struct VkBindDescriptorSetsInfoKHR {
    VkStructureType sType;
    const void *pNext;
    VkShaderStageFlags stageFlags;
    VkPipelineLayout layout;
    uint32_t firstSet;
    uint32_t descriptorSetCount;
    const VkDescriptorSet *pDescriptorSets;
    uint32_t dynamicOffsetCount;
    const uint32_t *pDynamicOffsets;
} VkBindDescriptorSetsInfoKHR;
typedef void(VKAPI_PTR *PFN_vkCmdBindDescriptorSets2KHR)(VkCommandBuffer, const VkBindDescriptorSetsInfoKHR *);
typedef void(VKAPI_PTR *PFN_vkCmdPushDescriptorSet2KHR)(VkCommandBuffer, const VkPushDescriptorSetInfoKHR *);
typedef void(VKAPI_PTR *PFN_vkCmdPushDescriptorSetWithTemplate2KHR)(VkCommandBuffer,
                                                                    const VkPushDescriptorSetWithTemplateInfoKHR *);
#define VK_STRUCTURE_TYPE_BIND_DESCRIPTOR_SETS_INFO_KHR ((VkStructureType)1000545003)
#define VK_STRUCTURE_TYPE_PUSH_DESCRIPTOR_SET_INFO_KHR ((VkStructureType)1000545005)
#define VK_STRUCTURE_TYPE_PUSH_DESCRIPTOR_SET_WITH_TEMPLATE_INFO_KHR ((VkStructureType)1000545006)
#endif

static const uint32_t spirv[] = {
    0x07230203, 0x00010000, 0x0000001c, 0x00000044, 0x00000000, 0x00020011,
    0x00000001, 0x00020011, 0x00000031, 0x00020011, 0x0000002c, 0x0006000b,
    0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000, 0x0003000e,
    0x00000000, 0x00000001, 0x0006000f, 0x00000005, 0x00000040, 0x6e69616d,
    0x00000000, 0x0000003d, 0x00060010, 0x00000040, 0x00000011, 0x00000008,
    0x00000008, 0x00000001, 0x00030047, 0x0000001f, 0x00000019, 0x00040047,
    0x0000001f, 0x00000022, 0x00000000, 0x00040047, 0x0000001f, 0x00000021,
    0x00000000, 0x00040047, 0x0000003d, 0x0000000b, 0x0000001c, 0x00020013,
    0x00000002, 0x00040015, 0x00000004, 0x00000020, 0x00000000, 0x00090019,
    0x00000003, 0x00000004, 0x00000001, 0x00000000, 0x00000000, 0x00000000,
    0x00000002, 0x00000027, 0x00090019, 0x00000005, 0x00000004, 0x00000001,
    0x00000000, 0x00000000, 0x00000000, 0x00000002, 0x00000021, 0x00040015,
    0x00000007, 0x00000020, 0x00000001, 0x00040017, 0x00000006, 0x00000007,
    0x00000002, 0x00040017, 0x00000008, 0x00000004, 0x00000003, 0x00040017,
    0x00000009, 0x00000004, 0x00000004, 0x00030016, 0x0000000b, 0x00000020,
    0x00090019, 0x0000000a, 0x0000000b, 0x00000000, 0x00000000, 0x00000000,
    0x00000000, 0x00000002, 0x00000009, 0x00040017, 0x0000000c, 0x0000000b,
    0x00000004, 0x00090019, 0x0000000d, 0x0000000b, 0x00000000, 0x00000000,
    0x00000001, 0x00000000, 0x00000002, 0x00000009, 0x00090019, 0x0000000e,
    0x0000000b, 0x00000001, 0x00000000, 0x00000000, 0x00000000, 0x00000002,
    0x00000009, 0x00090019, 0x0000000f, 0x0000000b, 0x00000001, 0x00000000,
    0x00000001, 0x00000000, 0x00000002, 0x00000009, 0x00040017, 0x00000010,
    0x00000007, 0x00000003, 0x00090019, 0x00000011, 0x0000000b, 0x00000002,
    0x00000000, 0x00000000, 0x00000000, 0x00000002, 0x00000009, 0x00090019,
    0x00000012, 0x00000004, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    0x00000002, 0x00000026, 0x00090019, 0x00000013, 0x00000004, 0x00000000,
    0x00000000, 0x00000001, 0x00000000, 0x00000002, 0x00000026, 0x00090019,
    0x00000014, 0x00000004, 0x00000001, 0x00000000, 0x00000000, 0x00000000,
    0x00000002, 0x00000026, 0x00090019, 0x00000015, 0x00000004, 0x00000001,
    0x00000000, 0x00000001, 0x00000000, 0x00000002, 0x00000026, 0x00090019,
    0x00000016, 0x00000004, 0x00000002, 0x00000000, 0x00000000, 0x00000000,
    0x00000002, 0x00000026, 0x00090019, 0x00000017, 0x00000007, 0x00000000,
    0x00000000, 0x00000000, 0x00000000, 0x00000002, 0x0000001c, 0x00040017,
    0x00000018, 0x00000007, 0x00000004, 0x00090019, 0x00000019, 0x00000007,
    0x00000000, 0x00000000, 0x00000001, 0x00000000, 0x00000002, 0x0000001c,
    0x00090019, 0x0000001a, 0x00000007, 0x00000001, 0x00000000, 0x00000000,
    0x00000000, 0x00000002, 0x0000001c, 0x00090019, 0x0000001b, 0x00000007,
    0x00000001, 0x00000000, 0x00000001, 0x00000000, 0x00000002, 0x0000001c,
    0x00090019, 0x0000001c, 0x00000007, 0x00000002, 0x00000000, 0x00000000,
    0x00000000, 0x00000002, 0x0000001c, 0x0004002b, 0x00000007, 0x0000001d,
    0x00000008, 0x0004002b, 0x00000007, 0x0000001e, 0x00000000, 0x00040020,
    0x00000020, 0x00000000, 0x00000005, 0x0004003b, 0x00000020, 0x0000001f,
    0x00000000, 0x00040020, 0x00000022, 0x00000006, 0x00000008, 0x0003002e,
    0x00000008, 0x00000023, 0x0005003b, 0x00000022, 0x00000021, 0x00000006,
    0x00000023, 0x00030021, 0x00000026, 0x00000002, 0x0004002b, 0x00000007,
    0x00000028, 0x00000010, 0x0004002b, 0x00000004, 0x00000029, 0x00000001,
    0x00040020, 0x0000002b, 0x00000007, 0x00000006, 0x0003002e, 0x00000006,
    0x0000002c, 0x00040017, 0x0000002f, 0x00000004, 0x00000002, 0x00040020,
    0x0000003e, 0x00000001, 0x00000008, 0x0004003b, 0x0000003e, 0x0000003d,
    0x00000001, 0x00050036, 0x00000002, 0x00000025, 0x00000000, 0x00000026,
    0x000200f8, 0x00000024, 0x0005003b, 0x0000002b, 0x0000002a, 0x00000007,
    0x0000002c, 0x0004003d, 0x00000005, 0x00000027, 0x0000001f, 0x000200f9,
    0x0000002d, 0x000200f8, 0x0000002d, 0x0004003d, 0x00000008, 0x0000002e,
    0x00000021, 0x0007004f, 0x0000002f, 0x00000030, 0x0000002e, 0x0000002e,
    0x00000000, 0x00000001, 0x0004007c, 0x00000006, 0x00000031, 0x00000030,
    0x0003003e, 0x0000002a, 0x00000031, 0x0004003d, 0x00000006, 0x00000032,
    0x0000002a, 0x0004003d, 0x00000006, 0x00000033, 0x0000002a, 0x00050051,
    0x00000007, 0x00000034, 0x00000033, 0x00000001, 0x00050084, 0x00000007,
    0x00000035, 0x00000034, 0x00000028, 0x0004003d, 0x00000006, 0x00000036,
    0x0000002a, 0x00050051, 0x00000007, 0x00000037, 0x00000036, 0x00000000,
    0x00050080, 0x00000007, 0x00000038, 0x00000035, 0x00000037, 0x0004007c,
    0x00000004, 0x00000039, 0x00000038, 0x00050080, 0x00000004, 0x0000003a,
    0x00000039, 0x00000029, 0x00070050, 0x00000009, 0x0000003b, 0x0000003a,
    0x0000003a, 0x0000003a, 0x0000003a, 0x00040063, 0x00000027, 0x00000032,
    0x0000003b, 0x000100fd, 0x00010038, 0x00050036, 0x00000002, 0x00000040,
    0x00000000, 0x00000026, 0x000200f8, 0x0000003c, 0x0004003d, 0x00000008,
    0x0000003f, 0x0000003d, 0x0004003d, 0x00000005, 0x00000041, 0x0000001f,
    0x000200f9, 0x00000042, 0x000200f8, 0x00000042, 0x0003003e, 0x00000021,
    0x0000003f, 0x00040039, 0x00000002, 0x00000043, 0x00000025, 0x000100fd,
    0x00010038,
};

/* A device function, through vkGetDeviceProcAddr (both builds). */
#define DEV(f) PFN_##f p_##f = (PFN_##f)vkGetDeviceProcAddr(v.device, #f)

int main(int argc, char **argv) {
    const char *how = argc > 1 ? argv[1] : "set";
    int set2 = !strcmp(how, "set2");
    int two = set2 || !strcmp(how, "push2") || !strcmp(how, "push-template2");
    int push = (two && !set2) || !strcmp(how, "push") || !strcmp(how, "push-template");
    int template = !strcmp(how, "template") || !strcmp(how, "push-template") || !strcmp(how, "push-template2");
    if (!push && !template && !set2 && strcmp(how, "set")) {
        fprintf(stderr, "storage-image: unknown way `%s`\n", how);
        return 2;
    }
    vks_load();
    if (push)
        vks_device_extension = "VK_KHR_push_descriptor";
    if (set2)
        vks_device_extension = "VK_KHR_maintenance6";
    else if (two)
        vks_device_extension2 = "VK_KHR_maintenance6";
    if (two) {
        char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
        if (!vks_has_extension("VK_KHR_maintenance6", name)) {
            printf("storage-image: unsupported: %s has no VK_KHR_maintenance6\n", name);
            return 3;
        }
    }
    struct vks v = vks_device();
    DEV(vkCreateImage);
    DEV(vkGetImageMemoryRequirements);
    DEV(vkBindImageMemory);
    DEV(vkCreateImageView);
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
    DEV(vkCmdCopyImageToBuffer);
    DEV(vkCreateDescriptorUpdateTemplate);
    DEV(vkUpdateDescriptorSetWithTemplate);
    DEV(vkCmdPushDescriptorSetKHR);
    DEV(vkCmdPushDescriptorSetWithTemplateKHR);
    DEV(vkCmdPushDescriptorSet2KHR);
    DEV(vkCmdBindDescriptorSets2KHR);
    DEV(vkCmdPushDescriptorSetWithTemplate2KHR);

    VkImageCreateInfo ii = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ii.imageType = VK_IMAGE_TYPE_2D;
    ii.format = VK_FORMAT_R32_UINT;
    ii.extent.width = N;
    ii.extent.height = N;
    ii.extent.depth = 1;
    ii.mipLevels = 1;
    ii.arrayLayers = 1;
    ii.samples = VK_SAMPLE_COUNT_1_BIT;
    ii.tiling = VK_IMAGE_TILING_OPTIMAL;
    ii.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    ii.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImage image;
    vks_check(p_vkCreateImage(v.device, &ii, NULL, &image));
    VkMemoryRequirements req;
    p_vkGetImageMemoryRequirements(v.device, image, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(v.physical, &mp);
    uint32_t type = 0;
    while (type < mp.memoryTypeCount && !(req.memoryTypeBits & (1u << type)))
        type++;
    VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    VkDeviceMemory mem;
    vks_check(vkAllocateMemory(v.device, &ai, NULL, &mem));
    vks_check(p_vkBindImageMemory(v.device, image, mem, 0));
    VkImageViewCreateInfo vi = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = image;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = VK_FORMAT_R32_UINT;
    vi.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    vi.subresourceRange.levelCount = 1;
    vi.subresourceRange.layerCount = 1;
    VkImageView view;
    vks_check(p_vkCreateImageView(v.device, &vi, NULL, &view));

    VkShaderModuleCreateInfo si = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    si.codeSize = sizeof spirv;
    si.pCode = spirv;
    VkShaderModule module;
    vks_check(p_vkCreateShaderModule(v.device, &si, NULL, &module));
    VkDescriptorSetLayoutBinding lb = {0};
    lb.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    lb.descriptorCount = 1;
    lb.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    VkDescriptorSetLayoutCreateInfo li = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.bindingCount = 1;
    li.pBindings = &lb;
    if (push)
        li.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
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
    VkDescriptorImageInfo dii = {VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL};
    /* A template's data: the image info 8 bytes in. */
    unsigned char data[64] = {0};
    memcpy(data + 8, &dii, sizeof dii);
    VkDescriptorUpdateTemplate tmpl = VK_NULL_HANDLE;
    if (template) {
        VkDescriptorUpdateTemplateEntry e = {0};
        e.descriptorCount = 1;
        e.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        e.offset = 8;
        e.stride = sizeof dii;
        VkDescriptorUpdateTemplateCreateInfo ti = {VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
        ti.descriptorUpdateEntryCount = 1;
        ti.pDescriptorUpdateEntries = &e;
        ti.templateType = push ? VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR
                               : VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
        ti.descriptorSetLayout = set_layout;
        ti.pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
        ti.pipelineLayout = layout;
        ti.set = 0;
        vks_check(p_vkCreateDescriptorUpdateTemplate(v.device, &ti, NULL, &tmpl));
    }
    VkWriteDescriptorSet w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    w.pImageInfo = &dii;
    VkDescriptorSet set = VK_NULL_HANDLE;
    if (!push) {
        VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1};
        VkDescriptorPoolCreateInfo dpi = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        dpi.maxSets = 1;
        dpi.poolSizeCount = 1;
        dpi.pPoolSizes = &ps;
        VkDescriptorPool pool;
        vks_check(p_vkCreateDescriptorPool(v.device, &dpi, NULL, &pool));
        VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        dai.descriptorPool = pool;
        dai.descriptorSetCount = 1;
        dai.pSetLayouts = &set_layout;
        vks_check(p_vkAllocateDescriptorSets(v.device, &dai, &set));
        w.dstSet = set;
        if (template)
            p_vkUpdateDescriptorSetWithTemplate(v.device, set, tmpl, data);
        else
            p_vkUpdateDescriptorSets(v.device, 1, &w, 0, NULL);
    }

    void *out_map;
    VkBuffer out = vks_host_buffer(&v, N * N * 4, &out_map);
    memset(out_map, 0, N * N * 4);

    VkCommandBuffer cb = vks_begin(&v);
    VkImageMemoryBarrier ib = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    ib.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    ib.image = image;
    ib.subresourceRange = vi.subresourceRange;
    ib.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    ib.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    ib.dstAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                         0, NULL, 0, NULL, 1, &ib);
    p_vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    if (set2) {
        VkBindDescriptorSetsInfoKHR bi = {VK_STRUCTURE_TYPE_BIND_DESCRIPTOR_SETS_INFO_KHR};
        bi.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        bi.layout = layout;
        bi.firstSet = 0;
        bi.descriptorSetCount = 1;
        bi.pDescriptorSets = &set;
        p_vkCmdBindDescriptorSets2KHR(cb, &bi);
    } else if (two && template) {
        VkPushDescriptorSetWithTemplateInfoKHR pi = {VK_STRUCTURE_TYPE_PUSH_DESCRIPTOR_SET_WITH_TEMPLATE_INFO_KHR};
        pi.descriptorUpdateTemplate = tmpl;
        pi.layout = layout;
        pi.set = 0;
        pi.pData = data;
        p_vkCmdPushDescriptorSetWithTemplate2KHR(cb, &pi);
    } else if (two) {
        VkPushDescriptorSetInfoKHR pi = {VK_STRUCTURE_TYPE_PUSH_DESCRIPTOR_SET_INFO_KHR};
        pi.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        pi.layout = layout;
        pi.set = 0;
        pi.descriptorWriteCount = 1;
        pi.pDescriptorWrites = &w;
        p_vkCmdPushDescriptorSet2KHR(cb, &pi);
    } else if (push && template)
        p_vkCmdPushDescriptorSetWithTemplateKHR(cb, tmpl, layout, 0, data);
    else if (push)
        p_vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &w);
    else
        p_vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    p_vkCmdDispatch(cb, N / 8, N / 8, 1);
    ib.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
    ib.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    ib.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                         NULL, 0, NULL, 1, &ib);
    VkBufferImageCopy region = {0};
    region.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    region.imageSubresource.layerCount = 1;
    region.imageExtent.width = N;
    region.imageExtent.height = N;
    region.imageExtent.depth = 1;
    p_vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_GENERAL, out, 1, &region);
    VkBufferMemoryBarrier mb = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    mb.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.buffer = out;
    mb.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1,
                         &mb, 0, NULL);
    vks_check(vkEndCommandBuffer(cb));
    VkFence fence = vks_fence(&v);
    vks_submit(&v, cb, fence);
    vks_check(vkWaitForFences(v.device, 1, &fence, VK_TRUE, UINT64_MAX));
    const uint32_t *texels = out_map;
    int wrong = 0;
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++)
            wrong += texels[y * N + x] != (uint32_t)(y * N + x + 1);
    printf("storage-image: %d texels read back, %d wrong\n", N * N, wrong);
    vkDestroyDevice(v.device, NULL);
    vkDestroyInstance(v.instance, NULL);
    return 0;
}
