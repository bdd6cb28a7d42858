/* (c) An application with its own SIGSEGV handler, which it relies on: it
 * keeps a PROT_NONE "trap" page and touches it on purpose; its handler
 * makes the page accessible, counts the fault and returns, so the touch
 * goes on. Any other fault is unexpected: the handler prints it and exits
 * with status 77. The capture's page guard (which makes mapped memory
 * read-only between submissions) must pass the trap faults on to this
 * handler, and must not let its own faults reach it.
 *
 * argv[1] says when the handler is installed:
 *   before      before vkCreateInstance;
 *   after       after vkCreateInstance, before mapping memory;
 *   after-map   after vkMapMemory, then an empty submission waited for
 *               before the first write to mapped memory (a handler
 *               installed after mapping is seen at the next Vulkan call
 *               the layer intercepts; a write before any such call would
 *               still reach this handler: docs/capture.md);
 *   die         before vkCreateInstance; after the wait the application
 *               faults at an address it does not expect (status 77
 *               through its handler), without vkDestroyDevice: the
 *               capture must report status 77 and an unfinished trace.
 *
 * In all but `die` it writes mapped memory, traps, fills the buffer on
 * the device with a barrier to HOST, waits on a fence, checks the bytes,
 * writes again, traps again, destroys the device and exits 0. */
#define _GNU_SOURCE
#include "vk.h"
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SIZE 65536
static char *trap;
static long page;
static volatile sig_atomic_t trapped;

static void on_segv(int sig, siginfo_t *info, void *ctx) {
    (void)sig;
    (void)ctx;
    char *a = info->si_addr;
    if (trap && a >= trap && a < trap + page) {
        mprotect(trap, page, PROT_READ | PROT_WRITE);
        trapped++;
        return;
    }
    static const char msg[] = "segv: unexpected SIGSEGV, exiting with status 77\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(77);
}

static void install(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, NULL) != 0) {
        perror("sigaction");
        exit(93);
    }
}

static void touch_trap(void) {
    mprotect(trap, page, PROT_NONE);
    ((volatile char *)trap)[1] = 1; /* faults; the handler lets it through */
}

int main(int argc, char **argv) {
    const char *when = argc > 1 ? argv[1] : "before";
    page = sysconf(_SC_PAGESIZE);
    trap = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (trap == MAP_FAILED) {
        perror("mmap");
        return 93;
    }
    vks_load();
    int die = strcmp(when, "die") == 0;
    if (die || strcmp(when, "before") == 0)
        install();
    struct vks v = vks_device();
    if (strcmp(when, "after") == 0)
        install();
    unsigned char *mapped;
    VkBuffer b = vks_host_buffer(&v, SIZE, (void **)&mapped);
    VkFence f = vks_fence(&v);
    if (strcmp(when, "after-map") == 0) {
        install();
        /* An empty submission, waited for: a Vulkan call between the new
         * handler and the first write to mapped memory. */
        vks_check(vkQueueSubmit(v.queue, 0, NULL, f));
        vks_check(vkWaitForFences(v.device, 1, &f, VK_TRUE, UINT64_MAX));
        vks_check(vkResetFences(v.device, 1, &f));
    }
    memset(mapped, 7, SIZE / 2); /* a host write the capture must see */
    touch_trap();
    VkCommandBuffer cb = vks_begin(&v);
    vks_fill_to_host(cb, b, SIZE, 0x2a2a2a2a);
    vks_check(vkEndCommandBuffer(cb));
    vks_submit(&v, cb, f);
    vks_check(vkWaitForFences(v.device, 1, &f, VK_TRUE, UINT64_MAX));
    for (int k = 0; k < SIZE; k++)
        if (mapped[k] != 0x2a) {
            fprintf(stderr, "segv: byte %d is %d, not 42\n", k, mapped[k]);
            return 1;
        }
    if (die) {
        fflush(stdout);
        *(volatile int *)16 = 1; /* unexpected: the handler exits 77 */
    }
    memset(mapped, 9, 16);
    touch_trap();
    vkDestroyDevice(v.device, NULL);
    vkDestroyInstance(v.instance, NULL);
    if (trapped != 2) {
        fprintf(stderr, "segv: the handler saw %d trap faults, not 2\n", (int)trapped);
        return 1;
    }
    printf("segv (%s): 2 trap faults handled, bytes read back\n", when);
    return 0;
}
