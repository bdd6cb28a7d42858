/* (d) Two threads, each with its own command pool, repeatedly fill their
 * half of one mapped buffer on the device (a barrier to HOST after it),
 * submit under a mutex, and call vkDeviceWaitIdle outside it, so that one
 * thread's vkDeviceWaitIdle overlaps the other's submission (invalid usage:
 * vkDeviceWaitIdle needs every queue externally synchronized; it happens).
 * The host never writes the buffer: the trace must have no `host-write`.
 * Checks the bytes at the end, destroys the device, exits 0. */
#include "vk.h"
#include <pthread.h>

#define SIZE 65536
#define ROUNDS 150
static struct vks v;
static VkBuffer buf;
static unsigned char *mapped;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    uintptr_t t = (uintptr_t)arg;
    VkCommandPoolCreateInfo pi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pi.queueFamilyIndex = v.family;
    VkCommandPool pool;
    vks_check(vkCreateCommandPool(v.device, &pi, NULL, &pool));
    VkCommandBufferAllocateInfo ai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cb;
    vks_check(vkAllocateCommandBuffers(v.device, &ai, &cb));
    for (int round = 0; round < ROUNDS; round++) {
        VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        vks_check(vkBeginCommandBuffer(cb, &bi));
        uint32_t value = (uint32_t)(round + 1) * 0x01010101u;
        vkCmdFillBuffer(cb, buf, t * (SIZE / 2), SIZE / 2, value);
        VkBufferMemoryBarrier mb = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        mb.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        mb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        mb.buffer = buf;
        mb.offset = t * (SIZE / 2);
        mb.size = SIZE / 2;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                             NULL, 1, &mb, 0, NULL);
        vks_check(vkEndCommandBuffer(cb));
        pthread_mutex_lock(&lock);
        VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cb;
        vks_check(vkQueueSubmit(v.queue, 1, &si, VK_NULL_HANDLE));
        pthread_mutex_unlock(&lock);
        vks_check(vkDeviceWaitIdle(v.device));
    }
    return NULL;
}

int main(void) {
    vks_load();
    v = vks_device();
    buf = vks_host_buffer(&v, SIZE, (void **)&mapped);
    pthread_t th[2];
    for (uintptr_t t = 0; t < 2; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    vks_check(vkDeviceWaitIdle(v.device));
    for (int k = 0; k < SIZE; k++)
        if (mapped[k] != ROUNDS) {
            fprintf(stderr, "wait-idle: byte %d is %d, not %d\n", k, mapped[k], ROUNDS);
            return 1;
        }
    vkDestroyDevice(v.device, NULL);
    vkDestroyInstance(v.instance, NULL);
    printf("wait-idle: 2 threads x %d rounds, bytes read back\n", ROUNDS);
    return 0;
}
