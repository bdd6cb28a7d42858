/* A linear image the host writes through its mapping (issue 23: a linear
 * image's bytes are where the driver's vkGetImageSubresourceLayout puts
 * them, rows `rowPitch` apart): a 5x4 R8_UNORM image of linear tiling,
 * created PREINITIALIZED, in host-visible memory of its own; the host
 * writes each texel (x, y) = y * 16 + x + 1 at offset + y * rowPitch + x,
 * then submits a layout transition (PREINITIALIZED -> GENERAL, HOST_WRITE
 * -> TRANSFER_READ and HOST_WRITE) and waits for it, then one command
 * buffer
 *   copy the image to "out" (vkCmdCopyImageToBuffer, GENERAL)
 *   barrier: out TRANSFER_WRITE -> HOST_READ
 * is submitted with a fence (the transition is a device write of the
 * image's bytes; with it in the same submission, the capture would take a
 * host write there for the device's). The argument:
 *   wait   the host waits for the fence, then writes row 1 again (no race)
 *   race   the host writes row 1 again before it waits, and submits an
 *          empty command buffer (where the capture sees the write): the
 *          copy may still be reading row 1 (a write-after-read race on
 *          exactly row 1's bytes, rowPitch..rowPitch+5)
 *   pad    the same with the bytes after row 0's texels, up to row 1: no
 *          texel's bytes, no race (with rows packed tightly they would be
 *          rows 1 to 12 of a 4-row image)
 * It prints the row pitch and the texels read back (exit status 0). */
#include "vk.h"
#include <string.h>
#define W 5
#define H 4
/* Device functions the common list lacks (by vkGetDeviceProcAddr, as in
 * the other applications). */
#define DEV(f) PFN_##f p_##f = (PFN_##f)vkGetDeviceProcAddr(v.device, #f)

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "wait";
    vks_load();
    struct vks v = vks_device();
    DEV(vkCreateImage);
    DEV(vkGetImageMemoryRequirements);
    DEV(vkBindImageMemory);
    DEV(vkGetImageSubresourceLayout);
    DEV(vkCmdCopyImageToBuffer);
    VkImageCreateInfo ii = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ii.imageType = VK_IMAGE_TYPE_2D;
    ii.format = VK_FORMAT_R8_UNORM;
    ii.extent.width = W;
    ii.extent.height = H;
    ii.extent.depth = 1;
    ii.mipLevels = 1;
    ii.arrayLayers = 1;
    ii.samples = VK_SAMPLE_COUNT_1_BIT;
    ii.tiling = VK_IMAGE_TILING_LINEAR;
    ii.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    ii.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    ii.initialLayout = VK_IMAGE_LAYOUT_PREINITIALIZED;
    VkImage img;
    vks_check(p_vkCreateImage(v.device, &ii, NULL, &img));
    VkMemoryRequirements req;
    p_vkGetImageMemoryRequirements(v.device, img, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(v.physical, &mp);
    const VkMemoryPropertyFlags want =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = mp.memoryTypeCount;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == mp.memoryTypeCount; i++)
        if ((req.memoryTypeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            type = i;
    if (type == mp.memoryTypeCount) {
        fprintf(stderr, "linear-image: no host-visible coherent memory for a linear image\n");
        return 92;
    }
    VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    VkDeviceMemory mem;
    vks_check(vkAllocateMemory(v.device, &ai, NULL, &mem));
    vks_check(p_vkBindImageMemory(v.device, img, mem, 0));
    VkImageSubresource sub = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
    VkSubresourceLayout lay;
    p_vkGetImageSubresourceLayout(v.device, img, &sub, &lay);
    unsigned char *texels;
    vks_check(vkMapMemory(v.device, mem, 0, VK_WHOLE_SIZE, 0, (void **)&texels));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            texels[lay.offset + y * lay.rowPitch + x] = (unsigned char)(y * 16 + x + 1);
    unsigned char *out;
    VkBuffer ob = vks_host_buffer(&v, 64, (void **)&out);
    memset(out, 0, 64);

    VkCommandBuffer tb = vks_begin(&v);
    VkImageMemoryBarrier ib = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    ib.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT;
    /* HOST_WRITE too: the host writes the image again later, over the
     * transition's write (which the fence alone does not make visible). */
    ib.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_WRITE_BIT;
    ib.oldLayout = VK_IMAGE_LAYOUT_PREINITIALIZED;
    ib.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    ib.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    ib.image = img;
    ib.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    ib.subresourceRange.levelCount = 1;
    ib.subresourceRange.layerCount = 1;
    vkCmdPipelineBarrier(tb, VK_PIPELINE_STAGE_HOST_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 0,
                         NULL, 1, &ib);
    vks_check(vkEndCommandBuffer(tb));
    VkFence first = vks_fence(&v);
    vks_submit(&v, tb, first);
    vks_check(vkWaitForFences(v.device, 1, &first, VK_TRUE, UINT64_MAX));

    VkCommandBuffer cb = vks_begin(&v);
    VkBufferImageCopy r = {0};
    r.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    r.imageSubresource.layerCount = 1;
    r.imageExtent.width = W;
    r.imageExtent.height = H;
    r.imageExtent.depth = 1;
    p_vkCmdCopyImageToBuffer(cb, img, VK_IMAGE_LAYOUT_GENERAL, ob, 1, &r);
    VkBufferMemoryBarrier mb = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    mb.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.buffer = ob;
    mb.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1,
                         &mb, 0, NULL);
    vks_check(vkEndCommandBuffer(cb));
    VkFence fence = vks_fence(&v);
    vks_submit(&v, cb, fence);
    if (strcmp(mode, "race") == 0)
        for (int x = 0; x < W; x++)
            texels[lay.offset + lay.rowPitch + x] = 0xee;
    if (strcmp(mode, "pad") == 0)
        for (VkDeviceSize b = W; b < lay.rowPitch; b++)
            texels[lay.offset + b] = 0xee;
    if (strcmp(mode, "wait") != 0) {
        VkCommandBuffer empty = vks_begin(&v);
        vks_check(vkEndCommandBuffer(empty));
        vks_submit(&v, empty, VK_NULL_HANDLE);
    }
    vks_check(vkWaitForFences(v.device, 1, &fence, VK_TRUE, UINT64_MAX));
    int wrong = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (out[y * W + x] != (unsigned char)(y * 16 + x + 1)) wrong++;
    if (strcmp(mode, "wait") == 0)
        for (int x = 0; x < W; x++)
            texels[lay.offset + lay.rowPitch + x] = 0xee;
    printf("linear-image (%s): rowPitch %llu, offset %llu, %d texels read back, %d wrong\n", mode,
           (unsigned long long)lay.rowPitch, (unsigned long long)lay.offset, W * H, wrong);
    vkDestroyDevice(v.device, NULL);
    return 0;
}
