//! The loader–layer interface types of `vk_layer.h` that `ash` does not
//! have, defined by hand with the C layout the loader uses.
//!
//! This module owns only type definitions: the link structures the loader
//! chains into `VkInstanceCreateInfo`/`VkDeviceCreateInfo` (`sType`
//! `VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO` = 47 and
//! `..._LOADER_DEVICE_CREATE_INFO` = 48), and the negotiation structure of
//! `vkNegotiateLoaderLayerInterfaceVersion`. It does not read or write
//! them; `layer.rs` does, and only ever reads the union's first member
//! (`pLayerInfo`) and advances it, which is all a layer may do.
//!
//! Invariant: every struct is `#[repr(C)]` with the fields, in order, of
//! the loader's definition (the unions are declared with their largest
//! member so the sizes agree too).

use ash::vk;

/// `VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO`.
pub const LOADER_INSTANCE_CREATE_INFO: vk::StructureType = vk::StructureType::from_raw(47);
/// `VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO`.
pub const LOADER_DEVICE_CREATE_INFO: vk::StructureType = vk::StructureType::from_raw(48);
/// `VK_LAYER_LINK_INFO`: the create info's union holds the layer chain.
pub const LAYER_LINK_INFO: i32 = 0;
/// `LAYER_NEGOTIATE_INTERFACE_STRUCT`.
pub const LAYER_NEGOTIATE_INTERFACE_STRUCT: i32 = 1;
/// The loader–layer interface version this layer speaks.
pub const INTERFACE_VERSION: u32 = 2;

/// `VkLayerInstanceLink`: one element of the instance call chain.
#[repr(C)]
pub struct LayerInstanceLink {
    /// The next element (the layer below the next one).
    pub next: *mut LayerInstanceLink,
    /// `vkGetInstanceProcAddr` of the next layer or driver.
    pub next_get_instance_proc_addr: vk::PFN_vkGetInstanceProcAddr,
    /// `vk_layerGetPhysicalDeviceProcAddr` of the next one (may be null).
    pub next_get_physical_device_proc_addr: vk::PFN_vkVoidFunction,
}

/// `VkLayerInstanceCreateInfo`, found in `VkInstanceCreateInfo::pNext`.
#[repr(C)]
pub struct LayerInstanceCreateInfo {
    /// [`LOADER_INSTANCE_CREATE_INFO`].
    pub s_type: vk::StructureType,
    /// The rest of the chain.
    pub p_next: *const std::ffi::c_void,
    /// `VkLayerFunction`: [`LAYER_LINK_INFO`] for the chain.
    pub function: i32,
    /// The union; with [`LAYER_LINK_INFO`], `pLayerInfo`. The second word
    /// pads to the union's size (its largest member is two pointers).
    pub layer_info: *mut LayerInstanceLink,
    _union_rest: *const std::ffi::c_void,
}

/// `VkLayerDeviceLink`: one element of the device call chain.
#[repr(C)]
pub struct LayerDeviceLink {
    /// The next element.
    pub next: *mut LayerDeviceLink,
    /// `vkGetInstanceProcAddr` of the next layer or driver.
    pub next_get_instance_proc_addr: vk::PFN_vkGetInstanceProcAddr,
    /// `vkGetDeviceProcAddr` of the next layer or driver.
    pub next_get_device_proc_addr: vk::PFN_vkGetDeviceProcAddr,
}

/// `VkLayerDeviceCreateInfo`, found in `VkDeviceCreateInfo::pNext`.
#[repr(C)]
pub struct LayerDeviceCreateInfo {
    /// [`LOADER_DEVICE_CREATE_INFO`].
    pub s_type: vk::StructureType,
    /// The rest of the chain.
    pub p_next: *const std::ffi::c_void,
    /// `VkLayerFunction`: [`LAYER_LINK_INFO`] for the chain.
    pub function: i32,
    /// The union; with [`LAYER_LINK_INFO`], `pLayerInfo` (one pointer, the
    /// union's only size).
    pub layer_info: *mut LayerDeviceLink,
}

/// `VkNegotiateLayerInterface`.
#[repr(C)]
pub struct NegotiateLayerInterface {
    /// [`LAYER_NEGOTIATE_INTERFACE_STRUCT`].
    pub s_type: i32,
    /// Unused.
    pub p_next: *mut std::ffi::c_void,
    /// In: the loader's highest version; out: the one agreed.
    pub loader_layer_interface_version: u32,
    /// Out: the layer's `vkGetInstanceProcAddr`.
    pub get_instance_proc_addr: vk::PFN_vkGetInstanceProcAddr,
    /// Out: the layer's `vkGetDeviceProcAddr`.
    pub get_device_proc_addr: vk::PFN_vkGetDeviceProcAddr,
    /// Out: `vk_layerGetPhysicalDeviceProcAddr` (null: none).
    pub get_physical_device_proc_addr: vk::PFN_vkVoidFunction,
}
