/* A child made by fork() that calls exit() runs the parent's atexit
 * handlers, the capture layer's among them: it must not finish the
 * parent's trace (the same file). The parent creates its device, forks a
 * child that exits at once with exit(0), waits for it, then fills a
 * mapped buffer, submits with a fence, waits, checks the bytes and exits
 * WITHOUT vkDestroyDevice: the trace must end once, at the parent's exit,
 * after its wait. */
#include "vk.h"
#include <sys/wait.h>
#include <unistd.h>

#define SIZE 4096
int main(void) {
    vks_load();
    struct vks v = vks_device();
    void *mapped;
    VkBuffer b = vks_host_buffer(&v, SIZE, &mapped);
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 93;
    }
    if (child == 0)
        exit(0);
    int st;
    waitpid(child, &st, 0);
    VkCommandBuffer cb = vks_begin(&v);
    vks_fill_to_host(cb, b, SIZE, 0x2a2a2a2a);
    vks_check(vkEndCommandBuffer(cb));
    VkFence f = vks_fence(&v);
    vks_submit(&v, cb, f);
    vks_check(vkWaitForFences(v.device, 1, &f, VK_TRUE, UINT64_MAX));
    for (int k = 0; k < SIZE; k++)
        if (((unsigned char *)mapped)[k] != 0x2a) {
            fprintf(stderr, "fork: byte %d is wrong\n", k);
            return 1;
        }
    printf("fork: the child exited %d; %d bytes read back\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1, SIZE);
    return 0;
}
