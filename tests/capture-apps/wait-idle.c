/* (d) THREADS threads (default 2), each with its own command pool,
 * repeatedly fill their part of one mapped buffer on the device (a barrier
 * to HOST after it), submit under a mutex, and wait outside it, so that one
 * thread's wait overlaps another's submission. How they wait (argument 1):
 *   device  vkDeviceWaitIdle (invalid usage: it needs every queue
 *           externally synchronized; it happens),
 *   queue   vkQueueWaitIdle (invalid usage the same way),
 *   fence   vkWaitForFences on the thread's own fence, then vkResetFences
 *           (valid: the queue is used under the mutex).
 * The host never writes the buffer: the trace must have no `host-write`,
 * and each thread's next fill of its part comes after its wait. Checks the
 * bytes at the end, destroys the device, exits 0. */
#include "vk.h"
#include <pthread.h>
#include <string.h>

#define SIZE 65536
#define ROUNDS 150
#define MAX_THREADS 8
static struct vks v;
static VkBuffer buf;
static unsigned char *mapped;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const char *mode = "device";
static int threads = 2;

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
    VkFence fence = vks_fence(&v);
    VkDeviceSize part = SIZE / threads;
    for (int round = 0; round < ROUNDS; round++) {
        VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        vks_check(vkBeginCommandBuffer(cb, &bi));
        uint32_t value = (uint32_t)(round + 1) * 0x01010101u;
        vkCmdFillBuffer(cb, buf, t * part, part, value);
        VkBufferMemoryBarrier mb = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        mb.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        mb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        mb.buffer = buf;
        mb.offset = t * part;
        mb.size = part;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                             NULL, 1, &mb, 0, NULL);
        vks_check(vkEndCommandBuffer(cb));
        pthread_mutex_lock(&lock);
        VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cb;
        int fenced = strcmp(mode, "fence") == 0;
        vks_check(vkQueueSubmit(v.queue, 1, &si, fenced ? fence : VK_NULL_HANDLE));
        pthread_mutex_unlock(&lock);
        if (fenced) {
            vks_check(vkWaitForFences(v.device, 1, &fence, VK_TRUE, UINT64_MAX));
            vks_check(vkResetFences(v.device, 1, &fence));
        } else if (strcmp(mode, "queue") == 0) {
            vks_check(vkQueueWaitIdle(v.queue));
        } else {
            vks_check(vkDeviceWaitIdle(v.device));
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc > 1)
        mode = argv[1];
    if (argc > 2)
        threads = atoi(argv[2]);
    if (strcmp(mode, "device") && strcmp(mode, "queue") && strcmp(mode, "fence")) {
        fprintf(stderr, "wait-idle: mode is device, queue or fence, not %s\n", mode);
        return 2;
    }
    if (threads < 1 || threads > MAX_THREADS || SIZE % threads) {
        fprintf(stderr, "wait-idle: 1 to %d threads dividing %d\n", MAX_THREADS, SIZE);
        return 2;
    }
    vks_load();
    v = vks_device();
    buf = vks_host_buffer(&v, SIZE, (void **)&mapped);
    pthread_t th[MAX_THREADS];
    for (uintptr_t t = 0; t < (uintptr_t)threads; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < threads; t++)
        pthread_join(th[t], NULL);
    vks_check(vkDeviceWaitIdle(v.device));
    for (int k = 0; k < SIZE; k++)
        if (mapped[k] != ROUNDS) {
            fprintf(stderr, "wait-idle: byte %d is %d, not %d\n", k, mapped[k], ROUNDS);
            return 1;
        }
    vkDestroyDevice(v.device, NULL);
    vkDestroyInstance(v.instance, NULL);
    printf("wait-idle (%s): %d threads x %d rounds, bytes read back\n", mode, threads, ROUNDS);
    return 0;
}
