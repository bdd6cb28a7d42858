/* (b) Fills a mapped buffer with 0x2a2a2a2a, a barrier from the fill to
 * HOST, submits with a fence, waits for it, reads the mapped bytes back,
 * and returns from main WITHOUT vkDestroyDevice (or vkDestroyInstance):
 * the capture must still finish the trace at process exit, with the fence
 * wait and the host read. Exits 1 if the bytes are wrong. */
#include "vk.h"
#define SIZE 4096
int main(void) {
    vks_load();
    struct vks v = vks_device();
    void *mapped;
    VkBuffer b = vks_host_buffer(&v, SIZE, &mapped);
    VkCommandBuffer cb = vks_begin(&v);
    vks_fill_to_host(cb, b, SIZE, 0x2a2a2a2a);
    vks_check(vkEndCommandBuffer(cb));
    VkFence f = vks_fence(&v);
    vks_submit(&v, cb, f);
    vks_check(vkWaitForFences(v.device, 1, &f, VK_TRUE, UINT64_MAX));
    const unsigned char *bytes = mapped;
    for (int k = 0; k < SIZE; k++)
        if (bytes[k] != 0x2a) {
            fprintf(stderr, "no-destroy: byte %d is %d, not 42\n", k, bytes[k]);
            return 1;
        }
    printf("no-destroy: %d bytes read back, all 42\n", SIZE);
    return 0;
}
