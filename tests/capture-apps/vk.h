/* The Vulkan entry points of the capture test applications, reached one of
 * two ways, chosen at build time:
 *
 *   cc app.c -lvulkan                 linked: the application calls the
 *                                     loader's exported functions (the way
 *                                     most C and C++ programs do; the
 *                                     loader is then in the global symbol
 *                                     scope, which is what issue 27's hang
 *                                     needed);
 *   cc -DVKS_DLOPEN app.c -ldl        loaded: libvulkan.so.1 is dlopen'ed
 *                                     (RTLD_LOCAL) and each function taken
 *                                     with dlsym (vksync itself, ncnn).
 *
 * The applications call vkCreateInstance(...) the same way in both builds;
 * each lists the functions it uses in VKS_FUNCS and calls vks_load() first.
 * Helpers: vks_check (exit 90 + line on a failed call), vks_device (one
 * instance, the first physical device, one queue of a family with compute
 * or transfer; vks_device_ex(1): Vulkan 1.2 with timeline semaphores;
 * vks_device_ex(2): Vulkan 1.3 with dynamic rendering), vks_host_buffer (a buffer in HOST_VISIBLE|HOST_COHERENT
 * memory, mapped). */
#ifndef VKS_VK_H
#define VKS_VK_H
#ifdef VKS_DLOPEN
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef VKS_DLOPEN
#include <dlfcn.h>
#endif

#define VKS_COMMON_FUNCS(X)                                                   \
    X(vkCreateInstance) X(vkEnumeratePhysicalDevices)                         \
    X(vkGetPhysicalDeviceQueueFamilyProperties)                               \
    X(vkGetPhysicalDeviceMemoryProperties) X(vkCreateDevice)                  \
    X(vkGetDeviceQueue) X(vkCreateBuffer) X(vkGetBufferMemoryRequirements)    \
    X(vkAllocateMemory) X(vkBindBufferMemory) X(vkMapMemory)                  \
    X(vkCreateCommandPool) X(vkAllocateCommandBuffers)                        \
    X(vkBeginCommandBuffer) X(vkEndCommandBuffer) X(vkCmdFillBuffer)          \
    X(vkCmdPipelineBarrier) X(vkQueueSubmit) X(vkCreateFence)                 \
    X(vkWaitForFences) X(vkResetFences) X(vkDeviceWaitIdle)                   \
    X(vkQueueWaitIdle) X(vkCmdCopyBuffer) X(vkCreateSemaphore)                \
    X(vkWaitSemaphores) X(vkGetSemaphoreCounterValue)                         \
    X(vkDestroyDevice) X(vkDestroyInstance) X(vkGetDeviceProcAddr)            \
    X(vkUnmapMemory) X(vkInvalidateMappedMemoryRanges) X(vkCreateQueryPool)   \
    X(vkCmdResetQueryPool) X(vkCmdWriteTimestamp) X(vkCmdCopyQueryPoolResults)   \
    X(vkGetPhysicalDeviceFeatures2) X(vkGetPhysicalDeviceProperties)         \
    X(vkEnumerateDeviceExtensionProperties)

#ifdef VKS_DLOPEN
#define VKS_DECLARE(f) static PFN_##f f;
VKS_COMMON_FUNCS(VKS_DECLARE)
#define VKS_LOAD(f)                                                           \
    if (!(f = (PFN_##f)dlsym(lib, #f))) {                                     \
        fprintf(stderr, "vks: dlsym(%s) failed\n", #f);                       \
        exit(91);                                                             \
    }
static inline void vks_load(void) {
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "vks: dlopen(libvulkan.so.1) failed: %s\n", dlerror());
        exit(91);
    }
    VKS_COMMON_FUNCS(VKS_LOAD)
}
#else
static inline void vks_load(void) {}
#endif

#define vks_check(call)                                                       \
    do {                                                                      \
        VkResult r_ = (call);                                                 \
        if (r_ != VK_SUCCESS) {                                               \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__,     \
                    #call, (int)r_);                                          \
            exit(90);                                                         \
        }                                                                     \
    } while (0)

struct vks {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t family;
    VkCommandPool pool;
};

/* One device; with `timeline` 1, Vulkan 1.2 with the timelineSemaphore
 * feature enabled; with 2, Vulkan 1.3 with dynamicRendering enabled. */
/* Set before vks_device*: the instance enables VK_EXT_debug_utils (object
 * names and labels, fetched with vkGetDeviceProcAddr). */
static int vks_debug_utils = 0;
/* Set before vks_device*: up to two device extensions to enable (NULL:
 * none). */
static const char *vks_device_extension = NULL;
static const char *vks_device_extension2 = NULL;
/* Set before vks_device*: the VkDeviceCreateInfo's pNext chain (a
 * feature structure), in place of the one vks_device_ex chooses. */
static const void *vks_device_next = NULL;
/* Usage bits vks_host_buffer* add to TRANSFER_SRC and TRANSFER_DST. */
static VkBufferUsageFlags vks_buffer_usage = 0;

static inline struct vks vks_device_ex(int timeline) {
    struct vks v = {0};
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = timeline == 2 ? VK_API_VERSION_1_3 : timeline ? VK_API_VERSION_1_2 : VK_API_VERSION_1_1;
    VkInstanceCreateInfo ci = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    const char *debug_utils = "VK_EXT_debug_utils";
    if (vks_debug_utils) {
        ci.enabledExtensionCount = 1;
        ci.ppEnabledExtensionNames = &debug_utils;
    }
    vks_check(vkCreateInstance(&ci, NULL, &v.instance));
    uint32_t n = 1;
    VkResult r = vkEnumeratePhysicalDevices(v.instance, &n, &v.physical);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
        fprintf(stderr, "vks: no Vulkan device\n");
        exit(92);
    }
    VkQueueFamilyProperties fam[16];
    uint32_t nf = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(v.physical, &nf, fam);
    v.family = nf;
    for (uint32_t i = 0; i < nf && v.family == nf; i++)
        if (fam[i].queueFlags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT))
            v.family = i;
    if (v.family == nf) {
        fprintf(stderr, "vks: no compute or transfer queue\n");
        exit(92);
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueFamilyIndex = v.family;
    qi.queueCount = 1;
    qi.pQueuePriorities = &prio;
    VkPhysicalDeviceTimelineSemaphoreFeatures tf = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
    tf.timelineSemaphore = VK_TRUE;
    VkPhysicalDeviceVulkan13Features f13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    f13.dynamicRendering = VK_TRUE;
    VkDeviceCreateInfo di = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    di.pNext = timeline == 2 ? (void *)&f13 : timeline ? (void *)&tf : NULL;
    if (vks_device_next)
        di.pNext = vks_device_next;
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    const char *extensions[2] = {vks_device_extension, vks_device_extension2};
    if (vks_device_extension) {
        di.enabledExtensionCount = vks_device_extension2 ? 2 : 1;
        di.ppEnabledExtensionNames = extensions;
    }
    vks_check(vkCreateDevice(v.physical, &di, NULL, &v.device));
    vkGetDeviceQueue(v.device, v.family, 0, &v.queue);
    VkCommandPoolCreateInfo pi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pi.queueFamilyIndex = v.family;
    vks_check(vkCreateCommandPool(v.device, &pi, NULL, &v.pool));
    return v;
}

static inline struct vks vks_device(void) { return vks_device_ex(0); }

/* Whether the first device has device extension `name` (its name in
 * *device_name when not null); a throwaway instance, before vks_device*. */
/* A throwaway Vulkan 1.2 instance in *instance and its first device (for
 * questions asked before vks_device*; destroy the instance after). */
static inline VkPhysicalDevice vks_probe(VkInstance *instance) {
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ci = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    vks_check(vkCreateInstance(&ci, NULL, instance));
    uint32_t n = 1;
    VkPhysicalDevice physical;
    VkResult r = vkEnumeratePhysicalDevices(*instance, &n, &physical);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
        fprintf(stderr, "vks: no Vulkan device\n");
        exit(92);
    }
    return physical;
}

static inline int vks_has_extension(const char *name, char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE]) {
    VkInstance instance;
    VkPhysicalDevice physical = vks_probe(&instance);
    if (device_name) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(physical, &props);
        memcpy(device_name, props.deviceName, VK_MAX_PHYSICAL_DEVICE_NAME_SIZE);
    }
    uint32_t count = 0;
    vks_check(vkEnumerateDeviceExtensionProperties(physical, NULL, &count, NULL));
    VkExtensionProperties *all = calloc(count ? count : 1, sizeof *all);
    vks_check(vkEnumerateDeviceExtensionProperties(physical, NULL, &count, all));
    int found = 0;
    for (uint32_t i = 0; i < count; i++)
        found |= !strcmp(all[i].extensionName, name);
    free(all);
    vkDestroyInstance(instance, NULL);
    return found;
}

/* A `size`-byte transfer buffer in host-visible, coherent memory, mapped
 * at *mapped. */
/* The memory object of the last vks_host_buffer*. */
static VkDeviceMemory vks_last_memory = VK_NULL_HANDLE;

/* A buffer in host-visible coherent memory of its own, mapped (unless
 * `mapped` is null); named
 * `name` with `set_name` (vkSetDebugUtilsObjectNameEXT) between its
 * creation and its binding when both are given. */
static inline VkBuffer vks_host_buffer_named(struct vks *v, VkDeviceSize size, void **mapped,
                                             const char *name,
                                             PFN_vkSetDebugUtilsObjectNameEXT set_name) {
    VkBufferCreateInfo bi = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = size;
    bi.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | vks_buffer_usage;
    VkBuffer b;
    vks_check(vkCreateBuffer(v->device, &bi, NULL, &b));
    if (name && set_name) {
        VkDebugUtilsObjectNameInfoEXT ni = {VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
        ni.objectType = VK_OBJECT_TYPE_BUFFER;
        ni.objectHandle = (uint64_t)b;
        ni.pObjectName = name;
        vks_check(set_name(v->device, &ni));
    }
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(v->device, b, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(v->physical, &mp);
    const VkMemoryPropertyFlags want =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = mp.memoryTypeCount;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == mp.memoryTypeCount; i++)
        if ((req.memoryTypeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            type = i;
    if (type == mp.memoryTypeCount) {
        fprintf(stderr, "vks: no host-visible coherent memory\n");
        exit(92);
    }
    VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    VkDeviceMemory m;
    vks_check(vkAllocateMemory(v->device, &ai, NULL, &m));
    vks_last_memory = m;
    vks_check(vkBindBufferMemory(v->device, b, m, 0));
    if (mapped)
        vks_check(vkMapMemory(v->device, m, 0, VK_WHOLE_SIZE, 0, mapped));
    return b;
}

static inline VkBuffer vks_host_buffer(struct vks *v, VkDeviceSize size, void **mapped) {
    return vks_host_buffer_named(v, size, mapped, NULL, NULL);
}

/* A primary command buffer from the device's pool, begun. */
static inline VkCommandBuffer vks_begin(struct vks *v) {
    VkCommandBufferAllocateInfo ai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = v->pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cb;
    vks_check(vkAllocateCommandBuffers(v->device, &ai, &cb));
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vks_check(vkBeginCommandBuffer(cb, &bi));
    return cb;
}

/* `vkCmdFillBuffer(b, 0, size, value)`, then a buffer barrier from the
 * fill to host reads. */
static inline void vks_fill_to_host(VkCommandBuffer cb, VkBuffer b, VkDeviceSize size, uint32_t value) {
    vkCmdFillBuffer(cb, b, 0, size, value);
    VkBufferMemoryBarrier mb = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    mb.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    mb.buffer = b;
    mb.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL,
                         1, &mb, 0, NULL);
}

/* Submits one command buffer with `fence` (may be null). */
static inline void vks_submit(struct vks *v, VkCommandBuffer cb, VkFence fence) {
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    vks_check(vkQueueSubmit(v->queue, 1, &si, fence));
}

static inline VkFence vks_fence(struct vks *v) {
    VkFenceCreateInfo fi = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence f;
    vks_check(vkCreateFence(v->device, &fi, NULL, &f));
    return f;
}
#endif
