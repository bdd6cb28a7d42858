/* Fault injection of a semaphore wait (docs/capture.md, "Fault
 * injection"): submission 1 fills `src` and signals a binary semaphore;
 * submission 2, on the same queue, waits for it at TRANSFER and copies
 * `src` into `dst` (the semaphore wait is the only dependency between the
 * fill and the copy: no barrier), then a barrier to HOST; a fence wait and
 * the host reads `dst`. Prints how many bytes of dst are wrong; exits 0. */
#include "vk.h"
#define SIZE 4096

int main(void) {
    vks_load();
    vks_debug_utils = 1;
    struct vks v = vks_device();
    PFN_vkSetDebugUtilsObjectNameEXT set_name =
        (PFN_vkSetDebugUtilsObjectNameEXT)vkGetDeviceProcAddr(v.device, "vkSetDebugUtilsObjectNameEXT");
    void *src_map, *dst_map;
    VkBuffer src = vks_host_buffer_named(&v, SIZE, &src_map, "src", set_name);
    VkBuffer dst = vks_host_buffer_named(&v, SIZE, &dst_map, "dst", set_name);
    VkSemaphoreCreateInfo sci = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore sem;
    vks_check(vkCreateSemaphore(v.device, &sci, NULL, &sem));

    VkCommandBuffer cb1 = vks_begin(&v);
    vkCmdFillBuffer(cb1, src, 0, SIZE, 0x22222222u);
    vks_check(vkEndCommandBuffer(cb1));
    VkSubmitInfo s1 = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    s1.commandBufferCount = 1;
    s1.pCommandBuffers = &cb1;
    s1.signalSemaphoreCount = 1;
    s1.pSignalSemaphores = &sem;
    vks_check(vkQueueSubmit(v.queue, 1, &s1, VK_NULL_HANDLE));

    VkCommandBuffer cb2 = vks_begin(&v);
    VkBufferCopy region = {0, 0, SIZE};
    vkCmdCopyBuffer(cb2, src, dst, 1, &region);
    VkBufferMemoryBarrier mb = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    mb.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.buffer = dst;
    mb.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cb2, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1,
                         &mb, 0, NULL);
    vks_check(vkEndCommandBuffer(cb2));
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo s2 = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    s2.waitSemaphoreCount = 1;
    s2.pWaitSemaphores = &sem;
    s2.pWaitDstStageMask = &stage;
    s2.commandBufferCount = 1;
    s2.pCommandBuffers = &cb2;
    VkFence f = vks_fence(&v);
    vks_check(vkQueueSubmit(v.queue, 1, &s2, f));
    vks_check(vkWaitForFences(v.device, 1, &f, VK_TRUE, UINT64_MAX));
    const unsigned char *bytes = dst_map;
    int wrong = 0;
    for (int k = 0; k < SIZE; k++)
        wrong += bytes[k] != 0x22;
    printf("semwait: %d of %d bytes of dst wrong\n", wrong, SIZE);
    vks_check(vkDeviceWaitIdle(v.device));
    vkDestroyDevice(v.device, NULL);
    vkDestroyInstance(v.instance, NULL);
    return 0;
}
