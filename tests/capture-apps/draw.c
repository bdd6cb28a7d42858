/* The graphics pipeline under the capture (docs/capture.md, "Graphics"): a
 * compute dispatch writes a vertex buffer (a triangle covering the 16x16
 * target), then a draw reads it through an index buffer (three u16
 * indices the host wrote) into a color image (R8G8B8A8_UNORM, cleared to
 * black, drawn red) and a depth image (D32_SFLOAT, cleared to 1, depth
 * test and write on), and the color image is copied to a buffer and read
 * back. The argument picks how the draw is rendered:
 *   dynamic      (the default) vkCmdBeginRendering / vkCmdEndRendering
 *                (Vulkan 1.3), with the pipeline barriers:
 *                  barrier 1: vertices COMPUTE_SHADER:SHADER_WRITE ->
 *                             VERTEX_INPUT:VERTEX_ATTRIBUTE_READ   needed
 *                  barrier 2: both images UNDEFINED -> attachment layouts
 *                  barrier 3: color COLOR_ATTACHMENT_OPTIMAL -> TRANSFER_SRC_OPTIMAL
 *                  barrier 4: out TRANSFER_WRITE -> HOST_READ
 *   render-pass  vkCreateRenderPass / vkCmdBeginRenderPass with one subpass
 *                and two dependencies: EXTERNAL->0 (the dispatch's writes
 *                to vertex attribute reads) and 0->EXTERNAL (the color
 *                writes to the copy); the render pass transitions both
 *                images (UNDEFINED -> ... -> TRANSFER_SRC_OPTIMAL), then
 *                barrier 1: out TRANSFER_WRITE -> HOST_READ
 *   render-pass-input  the same render pass with a second subpass that
 *                reads the depth image as an input attachment
 *                (pInputAttachments, DEPTH_STENCIL_READ_ONLY_OPTIMAL, the
 *                image created with INPUT_ATTACHMENT usage too), no draw in
 *                it, and a third dependency 0->1 (the depth writes to the
 *                input attachment reads, by region); the depth image ends
 *                in DEPTH_STENCIL_READ_ONLY_OPTIMAL
 *   render-pass-multiview  render-pass-input with multiview: both
 *                images with two layers (2D array views of both), every
 *                subpass's view mask 0b11 (VkRenderPassMultiviewCreateInfo,
 *                the multiview feature enabled), the 0->1 dependency
 *                view-local as well as by region; the copy reads layer 0
 *   suspend      dynamic rendering, the instance begun SUSPENDING and
 *                ended with nothing drawn at the end of a first command
 *                buffer, resumed (RESUMING, the same VkRenderingInfo) at
 *                the start of a second that draws and copies; both in one
 *                VkSubmitInfo
 * It prints the pixels read back and how many are not red; the exit status
 * is 0 either way. The shaders are GLSL compiled to SPIR-V by naga
 * (`naga --input-kind glsl --shader-stage STAGE FILE OUT.spv`), kept here
 * as words:
 *   compute:  layout(local_size_x = 1) in;
 *             layout(set = 0, binding = 0, std430) buffer Verts { vec4 pos[]; } verts;
 *             void main() { uint i = gl_GlobalInvocationID.x;
 *                 float x = i == 1u ? 3.0 : -1.0; float y = i == 2u ? 3.0 : -1.0;
 *                 verts.pos[i] = vec4(x, y, 0.5, 1.0); }
 *   vertex:   layout(location = 0) in vec4 pos; void main() { gl_Position = pos; }
 *   fragment: layout(location = 0) out vec4 color;
 *             void main() { color = vec4(1.0, 0.0, 0.0, 1.0); } */
#include "vk.h"
#include <string.h>
#define W 16

static const uint32_t comp_spirv[] = {
    0x07230203, 0x00010000, 0x0000001c, 0x00000045, 0x00000000, 0x00020011,
    0x00000001, 0x000b000a, 0x5f565053, 0x5f52484b, 0x726f7473, 0x5f656761,
    0x66667562, 0x735f7265, 0x61726f74, 0x635f6567, 0x7373616c, 0x00000000,
    0x0006000b, 0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000,
    0x0003000e, 0x00000000, 0x00000001, 0x0006000f, 0x00000005, 0x00000042,
    0x6e69616d, 0x00000000, 0x0000003f, 0x00060010, 0x00000042, 0x00000011,
    0x00000001, 0x00000001, 0x00000001, 0x00040047, 0x00000005, 0x00000006,
    0x00000010, 0x00050048, 0x00000006, 0x00000000, 0x00000023, 0x00000000,
    0x00030047, 0x00000006, 0x00000002, 0x00040047, 0x0000000c, 0x00000022,
    0x00000000, 0x00040047, 0x0000000c, 0x00000021, 0x00000000, 0x00040047,
    0x0000003f, 0x0000000b, 0x0000001c, 0x00020013, 0x00000002, 0x00030016,
    0x00000004, 0x00000020, 0x00040017, 0x00000003, 0x00000004, 0x00000004,
    0x0003001d, 0x00000005, 0x00000003, 0x0003001e, 0x00000006, 0x00000005,
    0x00040015, 0x00000007, 0x00000020, 0x00000000, 0x00040017, 0x00000008,
    0x00000007, 0x00000003, 0x00040015, 0x0000000a, 0x00000020, 0x00000001,
    0x0004002b, 0x0000000a, 0x00000009, 0x00000001, 0x0004002b, 0x0000000a,
    0x0000000b, 0x00000000, 0x00040020, 0x0000000d, 0x0000000c, 0x00000006,
    0x0004003b, 0x0000000d, 0x0000000c, 0x0000000c, 0x00040020, 0x0000000f,
    0x00000006, 0x00000008, 0x0003002e, 0x00000008, 0x00000010, 0x0005003b,
    0x0000000f, 0x0000000e, 0x00000006, 0x00000010, 0x00030021, 0x00000013,
    0x00000002, 0x0004002b, 0x00000007, 0x00000014, 0x00000001, 0x0004002b,
    0x00000004, 0x00000015, 0x40400000, 0x0004002b, 0x00000004, 0x00000016,
    0xbf800000, 0x0004002b, 0x00000007, 0x00000017, 0x00000002, 0x0004002b,
    0x00000004, 0x00000018, 0x3f000000, 0x0004002b, 0x00000004, 0x00000019,
    0x3f800000, 0x00040020, 0x0000001b, 0x00000007, 0x00000007, 0x0003002e,
    0x00000007, 0x0000001c, 0x00040020, 0x0000001e, 0x00000007, 0x00000004,
    0x0003002e, 0x00000004, 0x0000001f, 0x0003002e, 0x00000004, 0x00000021,
    0x0003002e, 0x00000004, 0x00000023, 0x0003002e, 0x00000004, 0x00000025,
    0x00020014, 0x0000002a, 0x00040020, 0x00000037, 0x0000000c, 0x00000005,
    0x00040020, 0x00000038, 0x0000000c, 0x00000003, 0x0004002b, 0x00000007,
    0x0000003c, 0x00000000, 0x00040020, 0x00000040, 0x00000001, 0x00000008,
    0x0004003b, 0x00000040, 0x0000003f, 0x00000001, 0x00050036, 0x00000002,
    0x00000012, 0x00000000, 0x00000013, 0x000200f8, 0x00000011, 0x0005003b,
    0x0000001e, 0x00000024, 0x00000007, 0x00000025, 0x0005003b, 0x0000001e,
    0x0000001d, 0x00000007, 0x0000001f, 0x0005003b, 0x0000001e, 0x00000022,
    0x00000007, 0x00000023, 0x0005003b, 0x0000001b, 0x0000001a, 0x00000007,
    0x0000001c, 0x0005003b, 0x0000001e, 0x00000020, 0x00000007, 0x00000021,
    0x000200f9, 0x00000026, 0x000200f8, 0x00000026, 0x0004003d, 0x00000008,
    0x00000027, 0x0000000e, 0x00050051, 0x00000007, 0x00000028, 0x00000027,
    0x00000000, 0x0003003e, 0x0000001a, 0x00000028, 0x0004003d, 0x00000007,
    0x00000029, 0x0000001a, 0x000500aa, 0x0000002a, 0x0000002b, 0x00000029,
    0x00000014, 0x000300f7, 0x0000002c, 0x00000000, 0x000400fa, 0x0000002b,
    0x0000002d, 0x0000002e, 0x000200f8, 0x0000002d, 0x0003003e, 0x0000001d,
    0x00000015, 0x000200f9, 0x0000002c, 0x000200f8, 0x0000002e, 0x0003003e,
    0x0000001d, 0x00000016, 0x000200f9, 0x0000002c, 0x000200f8, 0x0000002c,
    0x0004003d, 0x00000004, 0x0000002f, 0x0000001d, 0x0003003e, 0x00000020,
    0x0000002f, 0x0004003d, 0x00000007, 0x00000030, 0x0000001a, 0x000500aa,
    0x0000002a, 0x00000031, 0x00000030, 0x00000017, 0x000300f7, 0x00000032,
    0x00000000, 0x000400fa, 0x00000031, 0x00000033, 0x00000034, 0x000200f8,
    0x00000033, 0x0003003e, 0x00000022, 0x00000015, 0x000200f9, 0x00000032,
    0x000200f8, 0x00000034, 0x0003003e, 0x00000022, 0x00000016, 0x000200f9,
    0x00000032, 0x000200f8, 0x00000032, 0x0004003d, 0x00000004, 0x00000035,
    0x00000022, 0x0003003e, 0x00000024, 0x00000035, 0x0004003d, 0x00000007,
    0x00000036, 0x0000001a, 0x0004003d, 0x00000004, 0x00000039, 0x00000020,
    0x0004003d, 0x00000004, 0x0000003a, 0x00000024, 0x00070050, 0x00000003,
    0x0000003b, 0x00000039, 0x0000003a, 0x00000018, 0x00000019, 0x00060041,
    0x00000038, 0x0000003d, 0x0000000c, 0x0000003c, 0x00000036, 0x0003003e,
    0x0000003d, 0x0000003b, 0x000100fd, 0x00010038, 0x00050036, 0x00000002,
    0x00000042, 0x00000000, 0x00000013, 0x000200f8, 0x0000003e, 0x0004003d,
    0x00000008, 0x00000041, 0x0000003f, 0x000200f9, 0x00000043, 0x000200f8,
    0x00000043, 0x0003003e, 0x0000000e, 0x00000041, 0x00040039, 0x00000002,
    0x00000044, 0x00000012, 0x000100fd, 0x00010038,
};
static const uint32_t vert_spirv[] = {
    0x07230203, 0x00010000, 0x0000001c, 0x00000023, 0x00000000, 0x00020011,
    0x00000001, 0x0006000b, 0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e,
    0x00000000, 0x0003000e, 0x00000000, 0x00000001, 0x0007000f, 0x00000000,
    0x00000017, 0x6e69616d, 0x00000000, 0x00000012, 0x00000015, 0x00050048,
    0x00000005, 0x00000000, 0x00000023, 0x00000000, 0x00040047, 0x00000012,
    0x0000001e, 0x00000000, 0x00040047, 0x00000015, 0x0000000b, 0x00000000,
    0x00020013, 0x00000002, 0x00030016, 0x00000004, 0x00000020, 0x00040017,
    0x00000003, 0x00000004, 0x00000004, 0x0003001e, 0x00000005, 0x00000003,
    0x00040015, 0x00000007, 0x00000020, 0x00000001, 0x0004002b, 0x00000007,
    0x00000006, 0x00000000, 0x00040020, 0x00000009, 0x00000006, 0x00000003,
    0x0003002e, 0x00000003, 0x0000000a, 0x0005003b, 0x00000009, 0x00000008,
    0x00000006, 0x0000000a, 0x0005003b, 0x00000009, 0x0000000b, 0x00000006,
    0x0000000a, 0x00030021, 0x0000000e, 0x00000002, 0x00040020, 0x00000013,
    0x00000001, 0x00000003, 0x0004003b, 0x00000013, 0x00000012, 0x00000001,
    0x00040020, 0x00000016, 0x00000003, 0x00000003, 0x0004003b, 0x00000016,
    0x00000015, 0x00000003, 0x00040020, 0x0000001d, 0x00000003, 0x00000004,
    0x00040015, 0x0000001f, 0x00000020, 0x00000000, 0x0004002b, 0x0000001f,
    0x0000001e, 0x00000001, 0x00050036, 0x00000002, 0x0000000d, 0x00000000,
    0x0000000e, 0x000200f8, 0x0000000c, 0x000200f9, 0x0000000f, 0x000200f8,
    0x0000000f, 0x0004003d, 0x00000003, 0x00000010, 0x00000008, 0x0003003e,
    0x0000000b, 0x00000010, 0x000100fd, 0x00010038, 0x00050036, 0x00000002,
    0x00000017, 0x00000000, 0x0000000e, 0x000200f8, 0x00000011, 0x0004003d,
    0x00000003, 0x00000014, 0x00000012, 0x000200f9, 0x00000018, 0x000200f8,
    0x00000018, 0x0003003e, 0x00000008, 0x00000014, 0x00040039, 0x00000002,
    0x00000019, 0x0000000d, 0x0004003d, 0x00000003, 0x0000001a, 0x0000000b,
    0x00040050, 0x00000005, 0x0000001b, 0x0000001a, 0x00050051, 0x00000003,
    0x0000001c, 0x0000001b, 0x00000000, 0x0003003e, 0x00000015, 0x0000001c,
    0x00050041, 0x0000001d, 0x00000020, 0x00000015, 0x0000001e, 0x0004003d,
    0x00000004, 0x00000021, 0x00000020, 0x0004007f, 0x00000004, 0x00000022,
    0x00000021, 0x0003003e, 0x00000020, 0x00000022, 0x000100fd, 0x00010038,
};
static const uint32_t frag_spirv[] = {
    0x07230203, 0x00010000, 0x0000001c, 0x0000001b, 0x00000000, 0x00020011,
    0x00000001, 0x0006000b, 0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e,
    0x00000000, 0x0003000e, 0x00000000, 0x00000001, 0x0006000f, 0x00000004,
    0x00000015, 0x6e69616d, 0x00000000, 0x00000013, 0x00030010, 0x00000015,
    0x00000007, 0x00050048, 0x00000005, 0x00000000, 0x00000023, 0x00000000,
    0x00040047, 0x00000013, 0x0000001e, 0x00000000, 0x00020013, 0x00000002,
    0x00030016, 0x00000004, 0x00000020, 0x00040017, 0x00000003, 0x00000004,
    0x00000004, 0x0003001e, 0x00000005, 0x00000003, 0x00040015, 0x00000007,
    0x00000020, 0x00000001, 0x0004002b, 0x00000007, 0x00000006, 0x00000000,
    0x00040020, 0x00000009, 0x00000006, 0x00000003, 0x0003002e, 0x00000003,
    0x0000000a, 0x0005003b, 0x00000009, 0x00000008, 0x00000006, 0x0000000a,
    0x00030021, 0x0000000d, 0x00000002, 0x0004002b, 0x00000004, 0x0000000e,
    0x3f800000, 0x0004002b, 0x00000004, 0x0000000f, 0x00000000, 0x0007002c,
    0x00000003, 0x00000010, 0x0000000e, 0x0000000f, 0x0000000f, 0x0000000e,
    0x00040020, 0x00000014, 0x00000003, 0x00000003, 0x0004003b, 0x00000014,
    0x00000013, 0x00000003, 0x00050036, 0x00000002, 0x0000000c, 0x00000000,
    0x0000000d, 0x000200f8, 0x0000000b, 0x000200f9, 0x00000011, 0x000200f8,
    0x00000011, 0x0003003e, 0x00000008, 0x00000010, 0x000100fd, 0x00010038,
    0x00050036, 0x00000002, 0x00000015, 0x00000000, 0x0000000d, 0x000200f8,
    0x00000012, 0x000200f9, 0x00000016, 0x000200f8, 0x00000016, 0x00040039,
    0x00000002, 0x00000017, 0x0000000c, 0x0004003d, 0x00000003, 0x00000018,
    0x00000008, 0x00040050, 0x00000005, 0x00000019, 0x00000018, 0x00050051,
    0x00000003, 0x0000001a, 0x00000019, 0x00000000, 0x0003003e, 0x00000013,
    0x0000001a, 0x000100fd, 0x00010038,
};

/* A device function, through vkGetDeviceProcAddr (both builds). */
#define DEV(f) PFN_##f p_##f = (PFN_##f)vkGetDeviceProcAddr(v.device, #f)

/* A buffer of `usage` in host-visible coherent memory of its own, mapped. */
static VkBuffer buffer(struct vks *v, VkDeviceSize size, VkBufferUsageFlags usage, void **mapped) {
    VkBufferCreateInfo bi = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = size;
    bi.usage = usage;
    VkBuffer b;
    vks_check(vkCreateBuffer(v->device, &bi, NULL, &b));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(v->device, b, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(v->physical, &mp);
    const VkMemoryPropertyFlags want =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = 0;
    while (type < mp.memoryTypeCount &&
           !((req.memoryTypeBits & (1u << type)) && (mp.memoryTypes[type].propertyFlags & want) == want))
        type++;
    VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    VkDeviceMemory m;
    vks_check(vkAllocateMemory(v->device, &ai, NULL, &m));
    vks_check(vkBindBufferMemory(v->device, b, m, 0));
    vks_check(vkMapMemory(v->device, m, 0, VK_WHOLE_SIZE, 0, mapped));
    return b;
}

static VkBufferMemoryBarrier buffer_barrier(VkBuffer b, VkAccessFlags src, VkAccessFlags dst) {
    VkBufferMemoryBarrier mb = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    mb.srcAccessMask = src;
    mb.dstAccessMask = dst;
    mb.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.buffer = b;
    mb.size = VK_WHOLE_SIZE;
    return mb;
}

static VkImageMemoryBarrier image_barrier(VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
                                          VkImageLayout to, VkAccessFlags src, VkAccessFlags dst) {
    VkImageMemoryBarrier ib = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    ib.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    ib.image = image;
    ib.subresourceRange.aspectMask = aspect;
    ib.subresourceRange.levelCount = 1;
    ib.subresourceRange.layerCount = 1;
    ib.oldLayout = from;
    ib.newLayout = to;
    ib.srcAccessMask = src;
    ib.dstAccessMask = dst;
    return ib;
}

int main(int argc, char **argv) {
    const char *how = argc > 1 ? argv[1] : "dynamic";
    int multiview = !strcmp(how, "render-pass-multiview");
    int input = multiview || !strcmp(how, "render-pass-input");
    int rp = input || !strcmp(how, "render-pass");
    int suspend = !strcmp(how, "suspend");
    if (!rp && !suspend && strcmp(how, "dynamic")) {
        fprintf(stderr, "draw: unknown way `%s`\n", how);
        return 2;
    }
    vks_load();
    /* multiview: the Vulkan 1.1 multiview feature, before the 1.3 ones
     * vks_device_ex would chain. */
    VkPhysicalDeviceVulkan13Features f13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    f13.dynamicRendering = VK_TRUE;
    VkPhysicalDeviceVulkan11Features f11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    f11.multiview = VK_TRUE;
    f11.pNext = &f13;
    if (multiview)
        vks_device_next = &f11;
    struct vks v = vks_device_ex(2);
    const uint32_t layers = multiview ? 2 : 1;
    DEV(vkCreateImage);
    DEV(vkGetImageMemoryRequirements);
    DEV(vkBindImageMemory);
    DEV(vkCreateImageView);
    DEV(vkCreateShaderModule);
    DEV(vkCreateDescriptorSetLayout);
    DEV(vkCreatePipelineLayout);
    DEV(vkCreateComputePipelines);
    DEV(vkCreateGraphicsPipelines);
    DEV(vkCreateDescriptorPool);
    DEV(vkAllocateDescriptorSets);
    DEV(vkUpdateDescriptorSets);
    DEV(vkCreateRenderPass);
    DEV(vkCreateFramebuffer);
    DEV(vkCmdBindPipeline);
    DEV(vkCmdBindDescriptorSets);
    DEV(vkCmdBindVertexBuffers);
    DEV(vkCmdBindIndexBuffer);
    DEV(vkCmdDispatch);
    DEV(vkCmdBeginRendering);
    DEV(vkCmdEndRendering);
    DEV(vkCmdBeginRenderPass);
    DEV(vkCmdNextSubpass);
    DEV(vkCmdEndRenderPass);
    DEV(vkCmdDrawIndexed);
    DEV(vkCmdCopyImageToBuffer);

    /* The color and depth images, in device memory of their own. */
    const VkFormat formats[2] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D32_SFLOAT};
    const VkImageUsageFlags usages[2] = {
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
        VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | (input ? VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT : 0)};
    const VkImageAspectFlags aspects[2] = {VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_ASPECT_DEPTH_BIT};
    VkImage images[2];
    VkImageView views[2];
    for (int k = 0; k < 2; k++) {
        VkImageCreateInfo ii = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
        ii.imageType = VK_IMAGE_TYPE_2D;
        ii.format = formats[k];
        ii.extent.width = W;
        ii.extent.height = W;
        ii.extent.depth = 1;
        ii.mipLevels = 1;
        ii.arrayLayers = layers;
        ii.samples = VK_SAMPLE_COUNT_1_BIT;
        ii.tiling = VK_IMAGE_TILING_OPTIMAL;
        ii.usage = usages[k];
        ii.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        vks_check(p_vkCreateImage(v.device, &ii, NULL, &images[k]));
        VkMemoryRequirements req;
        p_vkGetImageMemoryRequirements(v.device, images[k], &req);
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
        vks_check(p_vkBindImageMemory(v.device, images[k], mem, 0));
        VkImageViewCreateInfo vi = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vi.image = images[k];
        vi.viewType = multiview ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
        vi.format = formats[k];
        vi.subresourceRange.aspectMask = aspects[k];
        vi.subresourceRange.levelCount = 1;
        vi.subresourceRange.layerCount = layers;
        vks_check(p_vkCreateImageView(v.device, &vi, NULL, &views[k]));
    }
    void *verts_map, *index_map, *out_map;
    VkBuffer verts = buffer(&v, 48, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                            &verts_map);
    VkBuffer index = buffer(&v, 8, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &index_map);
    VkBuffer out = buffer(&v, W * W * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &out_map);
    const uint16_t indices[4] = {0, 1, 2, 0};
    memcpy(index_map, indices, sizeof indices);
    memset(out_map, 0, W * W * 4);

    /* The compute pipeline and its set: the vertex buffer as storage. */
    VkShaderModuleCreateInfo si = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    si.codeSize = sizeof comp_spirv;
    si.pCode = comp_spirv;
    VkShaderModule comp, vert, frag;
    vks_check(p_vkCreateShaderModule(v.device, &si, NULL, &comp));
    si.codeSize = sizeof vert_spirv;
    si.pCode = vert_spirv;
    vks_check(p_vkCreateShaderModule(v.device, &si, NULL, &vert));
    si.codeSize = sizeof frag_spirv;
    si.pCode = frag_spirv;
    vks_check(p_vkCreateShaderModule(v.device, &si, NULL, &frag));
    VkDescriptorSetLayoutBinding lb = {0};
    lb.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    lb.descriptorCount = 1;
    lb.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    VkDescriptorSetLayoutCreateInfo li = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.bindingCount = 1;
    li.pBindings = &lb;
    VkDescriptorSetLayout set_layout;
    vks_check(p_vkCreateDescriptorSetLayout(v.device, &li, NULL, &set_layout));
    VkPipelineLayoutCreateInfo pli = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &set_layout;
    VkPipelineLayout comp_layout, draw_layout;
    vks_check(p_vkCreatePipelineLayout(v.device, &pli, NULL, &comp_layout));
    pli.setLayoutCount = 0;
    vks_check(p_vkCreatePipelineLayout(v.device, &pli, NULL, &draw_layout));
    VkComputePipelineCreateInfo ci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = comp;
    ci.stage.pName = "main";
    ci.layout = comp_layout;
    VkPipeline comp_pipeline, draw_pipeline;
    vks_check(p_vkCreateComputePipelines(v.device, VK_NULL_HANDLE, 1, &ci, NULL, &comp_pipeline));
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
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
    VkDescriptorSet set;
    vks_check(p_vkAllocateDescriptorSets(v.device, &dai, &set));
    VkDescriptorBufferInfo dbi = {verts, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = &dbi;
    p_vkUpdateDescriptorSets(v.device, 1, &w, 0, NULL);

    /* The render pass (render-pass only): one subpass, two dependencies
     * (render-pass-input: two subpasses, three dependencies). */
    VkRenderPass render_pass = VK_NULL_HANDLE;
    VkFramebuffer framebuffer = VK_NULL_HANDLE;
    if (rp) {
        VkAttachmentDescription ad[2] = {{0}, {0}};
        for (int k = 0; k < 2; k++) {
            ad[k].format = formats[k];
            ad[k].samples = VK_SAMPLE_COUNT_1_BIT;
            ad[k].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
            ad[k].storeOp = k == 0 ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE;
            ad[k].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
            ad[k].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
            ad[k].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        }
        ad[0].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        ad[1].finalLayout =
            input ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
        VkAttachmentReference color_ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
        VkAttachmentReference depth_ref = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
        VkAttachmentReference input_ref = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
        VkSubpassDescription sd[2] = {{0}, {0}};
        sd[0].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
        sd[0].colorAttachmentCount = 1;
        sd[0].pColorAttachments = &color_ref;
        sd[0].pDepthStencilAttachment = &depth_ref;
        sd[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
        sd[1].inputAttachmentCount = 1;
        sd[1].pInputAttachments = &input_ref;
        VkSubpassDependency dep[3] = {{0}, {0}, {0}};
        dep[0].srcSubpass = VK_SUBPASS_EXTERNAL;
        dep[0].dstSubpass = 0;
        dep[0].srcStageMask = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
        dep[0].srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        dep[0].dstStageMask = VK_PIPELINE_STAGE_VERTEX_INPUT_BIT;
        dep[0].dstAccessMask = VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT;
        dep[1].srcSubpass = 0;
        dep[1].dstSubpass = VK_SUBPASS_EXTERNAL;
        dep[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        dep[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        dep[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
        dep[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        dep[2].srcSubpass = 0;
        dep[2].dstSubpass = 1;
        dep[2].srcStageMask = VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
        dep[2].srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
        dep[2].dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
        dep[2].dstAccessMask = VK_ACCESS_INPUT_ATTACHMENT_READ_BIT;
        dep[2].dependencyFlags = VK_DEPENDENCY_BY_REGION_BIT | (multiview ? VK_DEPENDENCY_VIEW_LOCAL_BIT : 0);
        const uint32_t view_masks[2] = {3, 3};
        const int32_t view_offsets[3] = {0, 0, 0};
        VkRenderPassMultiviewCreateInfo mvi = {VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO};
        mvi.subpassCount = 2;
        mvi.pViewMasks = view_masks;
        mvi.dependencyCount = 3;
        mvi.pViewOffsets = view_offsets;
        VkRenderPassCreateInfo rpi = {VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
        rpi.pNext = multiview ? &mvi : NULL;
        rpi.attachmentCount = 2;
        rpi.pAttachments = ad;
        rpi.subpassCount = input ? 2 : 1;
        rpi.pSubpasses = sd;
        rpi.dependencyCount = input ? 3 : 2;
        rpi.pDependencies = dep;
        vks_check(p_vkCreateRenderPass(v.device, &rpi, NULL, &render_pass));
        VkFramebufferCreateInfo fi = {VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
        fi.renderPass = render_pass;
        fi.attachmentCount = 2;
        fi.pAttachments = views;
        fi.width = W;
        fi.height = W;
        fi.layers = 1;
        vks_check(p_vkCreateFramebuffer(v.device, &fi, NULL, &framebuffer));
    }

    /* The graphics pipeline: one vertex binding (vec4, 16 bytes), depth
     * test and write, color writes without blending. */
    VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                                 {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vert;
    stages[0].pName = "main";
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = frag;
    stages[1].pName = "main";
    VkVertexInputBindingDescription vb = {0, 16, VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription va = {0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0};
    VkPipelineVertexInputStateCreateInfo vis = {VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vis.vertexBindingDescriptionCount = 1;
    vis.pVertexBindingDescriptions = &vb;
    vis.vertexAttributeDescriptionCount = 1;
    vis.pVertexAttributeDescriptions = &va;
    VkPipelineInputAssemblyStateCreateInfo ias = {VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ias.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkViewport viewport = {0, 0, W, W, 0, 1};
    VkRect2D scissor = {{0, 0}, {W, W}};
    VkPipelineViewportStateCreateInfo vps = {VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    vps.viewportCount = 1;
    vps.pViewports = &viewport;
    vps.scissorCount = 1;
    vps.pScissors = &scissor;
    VkPipelineRasterizationStateCreateInfo rs = {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = VK_CULL_MODE_NONE;
    rs.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo ms = {VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo ds = {VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    ds.depthTestEnable = VK_TRUE;
    ds.depthWriteEnable = VK_TRUE;
    ds.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    VkPipelineColorBlendAttachmentState cba = {0};
    cba.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                         VK_COLOR_COMPONENT_A_BIT;
    VkPipelineColorBlendStateCreateInfo cbs = {VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cbs.attachmentCount = 1;
    cbs.pAttachments = &cba;
    VkPipelineRenderingCreateInfo pri = {VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    pri.colorAttachmentCount = 1;
    pri.pColorAttachmentFormats = &formats[0];
    pri.depthAttachmentFormat = formats[1];
    VkGraphicsPipelineCreateInfo gi = {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    gi.pNext = rp ? NULL : &pri;
    gi.stageCount = 2;
    gi.pStages = stages;
    gi.pVertexInputState = &vis;
    gi.pInputAssemblyState = &ias;
    gi.pViewportState = &vps;
    gi.pRasterizationState = &rs;
    gi.pMultisampleState = &ms;
    gi.pDepthStencilState = &ds;
    gi.pColorBlendState = &cbs;
    gi.layout = draw_layout;
    gi.renderPass = render_pass;
    vks_check(p_vkCreateGraphicsPipelines(v.device, VK_NULL_HANDLE, 1, &gi, NULL, &draw_pipeline));

    VkCommandBuffer cb = vks_begin(&v);
    VkCommandBuffer first = VK_NULL_HANDLE; /* suspend: the first of two */
    p_vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, comp_pipeline);
    p_vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, comp_layout, 0, 1, &set, 0, NULL);
    p_vkCmdDispatch(cb, 3, 1, 1);
    VkClearValue clears[2];
    memset(clears, 0, sizeof clears);
    clears[1].depthStencil.depth = 1.0f;
    if (!rp) {
        VkBufferMemoryBarrier mb = buffer_barrier(verts, VK_ACCESS_SHADER_WRITE_BIT,
                                                  VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT);
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_VERTEX_INPUT_BIT, 0, 0,
                             NULL, 1, &mb, 0, NULL);
        VkImageMemoryBarrier ib[2] = {
            image_barrier(images[0], aspects[0], VK_IMAGE_LAYOUT_UNDEFINED,
                          VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT),
            image_barrier(images[1], aspects[1], VK_IMAGE_LAYOUT_UNDEFINED,
                          VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, 0,
                          VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                              VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT)};
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                             VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                 VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                 VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                             0, 0, NULL, 0, NULL, 2, ib);
        VkRenderingAttachmentInfo color = {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
        color.imageView = views[0];
        color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        color.clearValue = clears[0];
        VkRenderingAttachmentInfo depth = color;
        depth.imageView = views[1];
        depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
        depth.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        depth.clearValue = clears[1];
        VkRenderingInfo ri = {VK_STRUCTURE_TYPE_RENDERING_INFO};
        ri.renderArea.extent.width = W;
        ri.renderArea.extent.height = W;
        ri.layerCount = 1;
        ri.colorAttachmentCount = 1;
        ri.pColorAttachments = &color;
        ri.pDepthAttachment = &depth;
        if (suspend) {
            ri.flags = VK_RENDERING_SUSPENDING_BIT;
            p_vkCmdBeginRendering(cb, &ri);
            p_vkCmdEndRendering(cb);
            vks_check(vkEndCommandBuffer(cb));
            first = cb;
            cb = vks_begin(&v);
            ri.flags = VK_RENDERING_RESUMING_BIT;
        }
        p_vkCmdBeginRendering(cb, &ri);
    } else {
        VkRenderPassBeginInfo bi = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
        bi.renderPass = render_pass;
        bi.framebuffer = framebuffer;
        bi.renderArea.extent.width = W;
        bi.renderArea.extent.height = W;
        bi.clearValueCount = 2;
        bi.pClearValues = clears;
        p_vkCmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
    }
    p_vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, draw_pipeline);
    VkDeviceSize zero = 0;
    p_vkCmdBindVertexBuffers(cb, 0, 1, &verts, &zero);
    p_vkCmdBindIndexBuffer(cb, index, 0, VK_INDEX_TYPE_UINT16);
    p_vkCmdDrawIndexed(cb, 3, 1, 0, 0, 0);
    if (!rp) {
        p_vkCmdEndRendering(cb);
        VkImageMemoryBarrier ib = image_barrier(
            images[0], aspects[0], VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
            VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                             0, NULL, 0, NULL, 1, &ib);
    } else {
        if (input)
            p_vkCmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);
        p_vkCmdEndRenderPass(cb);
    }
    VkBufferImageCopy region = {0};
    region.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    region.imageSubresource.layerCount = 1;
    region.imageExtent.width = W;
    region.imageExtent.height = W;
    region.imageExtent.depth = 1;
    p_vkCmdCopyImageToBuffer(cb, images[0], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out, 1, &region);
    VkBufferMemoryBarrier mb = buffer_barrier(out, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT);
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1, &mb, 0,
                         NULL);
    vks_check(vkEndCommandBuffer(cb));
    VkFence fence = vks_fence(&v);
    if (suspend) {
        VkCommandBuffer both[2] = {first, cb};
        VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 2;
        si.pCommandBuffers = both;
        vks_check(vkQueueSubmit(v.queue, 1, &si, fence));
    } else {
        vks_submit(&v, cb, fence);
    }
    vks_check(vkWaitForFences(v.device, 1, &fence, VK_TRUE, UINT64_MAX));
    const uint32_t *pixels = out_map;
    int wrong = 0;
    for (int k = 0; k < W * W; k++)
        wrong += pixels[k] != 0xff0000ffu;
    printf("draw (%s): %d pixels read back, %d not red\n", how, W * W, wrong);
    vkDestroyDevice(v.device, NULL);
    vkDestroyInstance(v.instance, NULL);
    return 0;
}
