/* Which host reads the capture assumes (docs/capture.md, "Host writes and
 * host reads: the approximation"). Six buffers in host-visible coherent
 * memory, each filled on the device in submission 1 (a barrier to HOST
 * after the fills of the buffers the host reads), then a fence wait:
 *   result        mapped; read by the host after the wait      -> host-read
 *   never-mapped  never mapped                                 -> none
 *   late-map      mapped only after the wait, then read         -> host-read
 *   intermediate  mapped; copied into `out` by submission 2
 *                 (no barrier to HOST: the host never reads it) -> none
 *   invalidated   mapped; vkInvalidateMappedMemoryRanges, then
 *                 read                                          -> host-read at the invalidate
 *   out           mapped; submission 2's copy, a barrier to HOST,
 *                 read after the second wait                    -> host-read
 * Submission 2 also writes two timestamps and copies them into `queries`
 * with vkCmdCopyQueryPoolResults (a `copy` from the pool's results object
 * in the trace; the values must arrive), then a barrier to HOST (barrier
 * 6). Exits 1 on wrong bytes. */
#include "vk.h"
#include <string.h>
#define SIZE 4096

static void to_host(VkCommandBuffer cb, VkBuffer b) {
    VkBufferMemoryBarrier mb = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    mb.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.buffer = b;
    mb.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1,
                         &mb, 0, NULL);
}

static int check(const char *what, const void *p, unsigned char want) {
    const unsigned char *bytes = p;
    for (int k = 0; k < SIZE; k++)
        if (bytes[k] != want) {
            fprintf(stderr, "host-reads: %s byte %d is %d, not %d\n", what, k, bytes[k], want);
            return 1;
        }
    return 0;
}

int main(void) {
    vks_load();
    vks_debug_utils = 1;
    struct vks v = vks_device();
    PFN_vkSetDebugUtilsObjectNameEXT set_name =
        (PFN_vkSetDebugUtilsObjectNameEXT)vkGetDeviceProcAddr(v.device, "vkSetDebugUtilsObjectNameEXT");
    void *result_map, *inter_map, *inv_map, *out_map, *late_map, *query_map;
    VkBuffer result = vks_host_buffer_named(&v, SIZE, &result_map, "result", set_name);
    VkBuffer never = vks_host_buffer_named(&v, SIZE, NULL, "never-mapped", set_name);
    VkBuffer late = vks_host_buffer_named(&v, SIZE, NULL, "late-map", set_name);
    VkDeviceMemory late_mem = vks_last_memory;
    VkBuffer inter = vks_host_buffer_named(&v, SIZE, &inter_map, "intermediate", set_name);
    VkBuffer inv = vks_host_buffer_named(&v, SIZE, &inv_map, "invalidated", set_name);
    VkDeviceMemory inv_mem = vks_last_memory;
    VkBuffer out = vks_host_buffer_named(&v, SIZE, &out_map, "out", set_name);
    VkBuffer queries = vks_host_buffer_named(&v, 16, &query_map, "queries", set_name);

    VkCommandBuffer cb = vks_begin(&v);
    vkCmdFillBuffer(cb, result, 0, SIZE, 0x01010101u);
    vkCmdFillBuffer(cb, never, 0, SIZE, 0x02020202u);
    vkCmdFillBuffer(cb, late, 0, SIZE, 0x03030303u);
    vkCmdFillBuffer(cb, inter, 0, SIZE, 0x04040404u);
    vkCmdFillBuffer(cb, inv, 0, SIZE, 0x05050505u);
    to_host(cb, result);
    to_host(cb, late);
    to_host(cb, inv);
    vks_check(vkEndCommandBuffer(cb));
    VkFence f = vks_fence(&v);
    vks_submit(&v, cb, f);
    vks_check(vkWaitForFences(v.device, 1, &f, VK_TRUE, UINT64_MAX));
    int bad = check("result", result_map, 1);

    /* Submission 2: intermediate -> out, timestamps -> queries. */
    VkQueryPoolCreateInfo qi = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = 2;
    VkQueryPool pool;
    vks_check(vkCreateQueryPool(v.device, &qi, NULL, &pool));
    VkCommandBuffer cb2 = vks_begin(&v);
    vkCmdResetQueryPool(cb2, pool, 0, 2);
    vkCmdWriteTimestamp(cb2, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
    VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(cb2, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb,
                         0, NULL, 0, NULL);
    VkBufferCopy region = {0, 0, SIZE};
    vkCmdCopyBuffer(cb2, inter, out, 1, &region);
    to_host(cb2, out);
    vkCmdWriteTimestamp(cb2, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
    vkCmdCopyQueryPoolResults(cb2, pool, 0, 2, queries, 0, 8,
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    to_host(cb2, queries);
    vks_check(vkEndCommandBuffer(cb2));
    vks_check(vkResetFences(v.device, 1, &f));
    vks_submit(&v, cb2, f);
    vks_check(vkWaitForFences(v.device, 1, &f, VK_TRUE, UINT64_MAX));
    bad |= check("out", out_map, 4);
    const uint64_t *ts = query_map;
    if (ts[0] == 0 || ts[1] < ts[0]) {
        fprintf(stderr, "host-reads: timestamps %llu %llu\n", (unsigned long long)ts[0],
                (unsigned long long)ts[1]);
        bad = 1;
    }

    /* After the last wait: invalidate and read `invalidated`, map and read
     * `late-map`. */
    VkMappedMemoryRange range = {VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
    range.memory = inv_mem;
    range.size = VK_WHOLE_SIZE;
    vks_check(vkInvalidateMappedMemoryRanges(v.device, 1, &range));
    bad |= check("invalidated", inv_map, 5);
    vks_check(vkMapMemory(v.device, late_mem, 0, VK_WHOLE_SIZE, 0, &late_map));
    bad |= check("late-map", late_map, 3);
    vkUnmapMemory(v.device, late_mem);
    printf("host-reads: result, out, invalidated, late-map read back; timestamps %s\n",
           ts[1] >= ts[0] ? "in order" : "out of order");
    vkDestroyDevice(v.device, NULL);
    vkDestroyInstance(v.instance, NULL);
    return bad;
}
