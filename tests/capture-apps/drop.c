/* Fault injection's positive control (docs/capture.md, "Fault
 * injection"): one command buffer with three pipeline barriers, each with
 * a known role, the buffers named with vkSetDebugUtilsObjectNameEXT and
 * the copy inside a debug label:
 *   fill "src" with 0x11
 *   barrier 1: src TRANSFER_WRITE -> TRANSFER_READ      needed (the copy reads the fill)
 *   copy "src" -> "dst"   (inside the label "upload")
 *   barrier 2: "spare" TRANSFER -> TRANSFER             redundant (nothing touches spare)
 *   barrier 3: dst TRANSFER_WRITE -> HOST_READ          needed (the host reads dst)
 * then submits, waits for the fence, and counts the bytes of dst that are
 * not 0x11 (a dropped barrier may or may not show on the device: the
 * count is printed, and the exit status is 0 either way). */
#include "vk.h"
#include <string.h>
#define SIZE 4096

static void name(struct vks *v, PFN_vkSetDebugUtilsObjectNameEXT set, VkBuffer b, const char *n) {
    VkDebugUtilsObjectNameInfoEXT ni = {VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    ni.objectType = VK_OBJECT_TYPE_BUFFER;
    ni.objectHandle = (uint64_t)b;
    ni.pObjectName = n;
    vks_check(set(v->device, &ni));
}

static void barrier(VkCommandBuffer cb, VkBuffer b, VkAccessFlags src, VkAccessFlags dst,
                    VkPipelineStageFlags src_stage, VkPipelineStageFlags dst_stage) {
    VkBufferMemoryBarrier mb = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    mb.srcAccessMask = src;
    mb.dstAccessMask = dst;
    mb.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.buffer = b;
    mb.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 0, NULL, 1, &mb, 0, NULL);
}

int main(void) {
    vks_load();
    vks_debug_utils = 1;
    struct vks v = vks_device();
    PFN_vkSetDebugUtilsObjectNameEXT set_name =
        (PFN_vkSetDebugUtilsObjectNameEXT)vkGetDeviceProcAddr(v.device, "vkSetDebugUtilsObjectNameEXT");
    PFN_vkCmdBeginDebugUtilsLabelEXT begin_label =
        (PFN_vkCmdBeginDebugUtilsLabelEXT)vkGetDeviceProcAddr(v.device, "vkCmdBeginDebugUtilsLabelEXT");
    PFN_vkCmdEndDebugUtilsLabelEXT end_label =
        (PFN_vkCmdEndDebugUtilsLabelEXT)vkGetDeviceProcAddr(v.device, "vkCmdEndDebugUtilsLabelEXT");
    if (!set_name || !begin_label || !end_label) {
        fprintf(stderr, "drop: VK_EXT_debug_utils functions missing\n");
        return 92;
    }
    void *src_map, *dst_map, *spare_map;
    /* src is named before it is bound (the trace declares it under its
     * name); dst and spare after, as wgpu names its buffers (the layer
     * writes a rename comment, and `vksync capture` renames them in the
     * finished trace, so dst's race below says `dst`). */
    VkBuffer src = vks_host_buffer_named(&v, SIZE, &src_map, "src", set_name);
    VkBuffer dst = vks_host_buffer(&v, SIZE, &dst_map);
    name(&v, set_name, dst, "dst");
    VkBuffer spare = vks_host_buffer(&v, SIZE, &spare_map);
    name(&v, set_name, spare, "spare");
    VkCommandBuffer cb = vks_begin(&v);
    vkCmdFillBuffer(cb, src, 0, SIZE, 0x11111111u);
    barrier(cb, src, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    VkDebugUtilsLabelEXT label = {VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    label.pLabelName = "upload";
    begin_label(cb, &label);
    VkBufferCopy region = {0, 0, SIZE};
    vkCmdCopyBuffer(cb, src, dst, 1, &region);
    end_label(cb);
    barrier(cb, spare, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    barrier(cb, dst, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT,
            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT);
    vks_check(vkEndCommandBuffer(cb));
    VkFence f = vks_fence(&v);
    vks_submit(&v, cb, f);
    vks_check(vkWaitForFences(v.device, 1, &f, VK_TRUE, UINT64_MAX));
    const unsigned char *bytes = dst_map;
    int wrong = 0;
    for (int k = 0; k < SIZE; k++)
        wrong += bytes[k] != 0x11;
    printf("drop: %d of %d bytes of dst wrong\n", wrong, SIZE);
    vkDestroyDevice(v.device, NULL);
    vkDestroyInstance(v.instance, NULL);
    return 0;
}
