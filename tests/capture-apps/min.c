/* (a) Issue 27's minimal application: one vkCreateInstance, nothing else.
 * Linked with -lvulkan it never returned under vksync capture (the layer's
 * vkGetInstanceProcAddr bound to the loader's). Exits with the result. */
#include "vk.h"
int main(void) {
    vks_load();
    VkInstanceCreateInfo ci = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    VkInstance i;
    return vkCreateInstance(&ci, 0, &i);
}
