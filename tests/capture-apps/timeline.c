/* (f) A frame loop synchronized only with a timeline semaphore, as wgpu
 * does (issue 23): no fence, no vkDeviceWaitIdle until the end. One mapped
 * buffer holds two slots; frame f (1..FRAMES) writes slot f%2 on the host
 * (the upload), copies it to a work buffer, copies that back into the
 * other slot (so each slot is alternately the device's readback and the
 * host's next upload, as a recycled staging range is), with a barrier from
 * the copy to HOST after it, submits signalling t:f, waits for t >= f, and
 * reads the other slot back, checking it holds frame f's bytes.
 *
 * Argument 1, how the host waits:
 *   wait  vkWaitSemaphores(t >= f)
 *   poll  vkGetSemaphoreCounterValue until t >= f
 *   any   vkWaitSemaphores with VK_SEMAPHORE_WAIT_ANY_BIT on t >= f and on
 *         a second timeline semaphore that is never signalled
 * Argument 2 (optional): no-host-barrier leaves the barrier to HOST out
 * (the host read then races with the copy: a read-after-write). Exits 0
 * when every frame read back what it uploaded. */
#include "vk.h"
#include <string.h>

#define SLOT 4096
#define FRAMES 100

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "wait";
    int host_barrier = !(argc > 2 && strcmp(argv[2], "no-host-barrier") == 0);
    if (strcmp(mode, "wait") && strcmp(mode, "poll") && strcmp(mode, "any")) {
        fprintf(stderr, "timeline: mode is wait, poll or any, not %s\n", mode);
        return 2;
    }
    vks_load();
    struct vks v = vks_device_ex(1);
    unsigned char *ring, *work_mapped;
    VkBuffer ringbuf = vks_host_buffer(&v, 2 * SLOT, (void **)&ring);
    VkBuffer work = vks_host_buffer(&v, SLOT, (void **)&work_mapped);
    VkSemaphoreTypeCreateInfo ti = {VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    ti.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo sci = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    sci.pNext = &ti;
    VkSemaphore t, never;
    vks_check(vkCreateSemaphore(v.device, &sci, NULL, &t));
    vks_check(vkCreateSemaphore(v.device, &sci, NULL, &never));
    VkCommandBuffer cb = vks_begin(&v);
    vks_check(vkEndCommandBuffer(cb));
    unsigned polls = 0;
    for (uint64_t f = 1; f <= FRAMES; f++) {
        VkDeviceSize up = (f % 2) * SLOT, down = SLOT - up;
        memset(ring + up, (int)f, SLOT);
        VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        vks_check(vkBeginCommandBuffer(cb, &bi));
        VkBufferCopy c1 = {up, 0, SLOT};
        vkCmdCopyBuffer(cb, ringbuf, work, 1, &c1);
        VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                             &mb, 0, NULL, 0, NULL);
        VkBufferCopy c2 = {0, down, SLOT};
        vkCmdCopyBuffer(cb, work, ringbuf, 1, &c2);
        if (host_barrier) {
            VkBufferMemoryBarrier hb = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
            hb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            hb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
            hb.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
            hb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
            hb.buffer = ringbuf;
            hb.offset = down;
            hb.size = SLOT;
            vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                                 NULL, 1, &hb, 0, NULL);
        }
        vks_check(vkEndCommandBuffer(cb));
        VkTimelineSemaphoreSubmitInfo tsi = {VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
        tsi.signalSemaphoreValueCount = 1;
        tsi.pSignalSemaphoreValues = &f;
        VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.pNext = &tsi;
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cb;
        si.signalSemaphoreCount = 1;
        si.pSignalSemaphores = &t;
        vks_check(vkQueueSubmit(v.queue, 1, &si, VK_NULL_HANDLE));
        if (strcmp(mode, "poll") == 0) {
            uint64_t now = 0;
            do {
                vks_check(vkGetSemaphoreCounterValue(v.device, t, &now));
                polls++;
            } while (now < f);
        } else {
            VkSemaphore sems[2] = {t, never};
            uint64_t values[2] = {f, 1};
            VkSemaphoreWaitInfo wi = {VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
            wi.flags = strcmp(mode, "any") == 0 ? VK_SEMAPHORE_WAIT_ANY_BIT : 0;
            wi.semaphoreCount = strcmp(mode, "any") == 0 ? 2 : 1;
            wi.pSemaphores = sems;
            wi.pValues = values;
            vks_check(vkWaitSemaphores(v.device, &wi, UINT64_MAX));
        }
        for (int k = 0; k < SLOT; k++)
            if (ring[down + k] != (unsigned char)f) {
                fprintf(stderr, "timeline: frame %d: byte %d is %d\n", (int)f, k, ring[down + k]);
                return 1;
            }
    }
    vks_check(vkDeviceWaitIdle(v.device));
    vkDestroyDevice(v.device, NULL);
    vkDestroyInstance(v.instance, NULL);
    printf("timeline (%s): %d frames read back", mode, FRAMES);
    if (strcmp(mode, "poll") == 0)
        printf(" (%u polls)", polls);
    printf("\n");
    return 0;
}
