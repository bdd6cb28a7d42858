/* (e) A correct application whose host thread writes mapped memory while
 * the main thread submits: a writer thread stores a counter into every
 * 256th byte of a 1 MiB mapped buffer the device never touches (a new
 * value each round), while the main thread fills another mapped buffer on the
 * device ROUNDS times (fill, barrier to HOST, submit with a fence, wait,
 * check), each time after the writer completed another round. The writer stops when the main thread is done. Prints the wall
 * time of the submitting loop and how many rounds the writer did, and the
 * threads' CPU time per submission (submit and wait) and per writer round
 * (which a loaded machine does not change as it changes wall time), so a
 * run under capture can be compared with a plain one; exits 1 on wrong
 * bytes.
 * argv[1]: ROUNDS (default 200). */
#include "vk.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#define HOST_SIZE (1 << 20)
#define DEV_SIZE 65536
static unsigned char *host_mem;
static atomic_int stop;
static atomic_long writer_rounds;

static double clock_s(clockid_t c) {
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
static double now(void) { return clock_s(CLOCK_MONOTONIC); }
/* CPU time of the calling thread: what the capture costs it, whatever
 * else the machine runs. */
static double cpu(void) { return clock_s(CLOCK_THREAD_CPUTIME_ID); }
static double writer_cpu;

static void *writer(void *arg) {
    (void)arg;
    double c0 = cpu();
    while (!atomic_load(&stop)) {
        long r = atomic_load(&writer_rounds) + 1;
        for (int k = 0; k < HOST_SIZE; k += 256)
            ((volatile unsigned char *)host_mem)[k] = (unsigned char)(r + k / 256);
        atomic_store(&writer_rounds, r);
    }
    writer_cpu = cpu() - c0;
    return NULL;
}


int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 200;
    vks_load();
    struct vks v = vks_device();
    unsigned char *dev_mem;
    VkBuffer hb = vks_host_buffer(&v, HOST_SIZE, (void **)&host_mem);
    VkBuffer db = vks_host_buffer(&v, DEV_SIZE, (void **)&dev_mem);
    (void)hb;
    VkFence f = vks_fence(&v);
    VkCommandBuffer cb = vks_begin(&v);
    vks_check(vkEndCommandBuffer(cb));
    pthread_t th;
    pthread_create(&th, NULL, writer, NULL);
    double t0 = now(), submit_cpu = 0;
    for (int r = 0; r < rounds; r++) {
        /* At least one whole round of host writes in every interval
         * between submissions (on a loaded machine the writer could
         * otherwise sleep through many). */
        long seen = atomic_load(&writer_rounds);
        while (atomic_load(&writer_rounds) < seen + 2)
            sched_yield();
        VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        vks_check(vkBeginCommandBuffer(cb, &bi));
        vks_fill_to_host(cb, db, DEV_SIZE, (uint32_t)(r & 0xff) * 0x01010101u);
        vks_check(vkEndCommandBuffer(cb));
        double c0 = cpu();
        vks_submit(&v, cb, f);
        vks_check(vkWaitForFences(v.device, 1, &f, VK_TRUE, UINT64_MAX));
        submit_cpu += cpu() - c0;
        vks_check(vkResetFences(v.device, 1, &f));
        if (dev_mem[r % DEV_SIZE] != (r & 0xff)) {
            fprintf(stderr, "host-writer: round %d: byte %d is %d\n", r, r % DEV_SIZE, dev_mem[r % DEV_SIZE]);
            return 1;
        }
    }
    double t1 = now();
    atomic_store(&stop, 1);
    pthread_join(th, NULL);
    vkDestroyDevice(v.device, NULL);
    vkDestroyInstance(v.instance, NULL);
    long wr = atomic_load(&writer_rounds);
    printf("host-writer: %d submissions in %.3f s; the writer did %ld rounds\n", rounds, t1 - t0, wr);
    printf("host-writer: CPU time: %.1f us per submission (submit and wait), %.1f us per writer round\n",
           submit_cpu * 1e6 / rounds, writer_cpu * 1e6 / (wr ? wr : 1));
    return 0;
}
