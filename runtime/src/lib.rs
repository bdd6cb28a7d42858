//! vksync-runtime: runs [`vksync::Program`]s on a Vulkan device through
//! `ash` and `gpu-allocator`, and captures what the Khronos validation layer
//! (with synchronization validation) says about them.
//!
//! The crate owns device creation and teardown ([`device`]), the checks a
//! program passes before any Vulkan work ([`checks`], pure: usable without
//! a device), the kernels' pipelines ([`kernels`], shaders in `shaders/`
//! compiled by `build.rs` with naga), recording and submission
//! ([`recorder`]), the map from the model's queues and queue families to
//! the device's ([`queues`]), descriptor pools (`descriptors`), the lifetime of a
//! run's Vulkan objects and of work that outlives a run (`resources`),
//! validation capture ([`validation`]) and the benchmarking paths ([`repeat`]: record once
//! and submit many times; record-only timing). Model barriers become
//! `ash::vk` barriers in one place, the model's `vksync::ash` (feature
//! `ash`). It does not plan barriers
//! (the model's planners do) and does not parse trace files (the model's
//! `trace` module does).
//!
//! No wait is unbounded: every fence wait has a timeout
//! ([`DeviceOptions::fence_timeout`]), and nothing submitted work may use
//! is freed or resubmitted before its fence is seen signalled.
//!
//! Memory: one `VkBuffer` per memory object of the model's
//! [`vksync::Layout`] (each buffer with memory of its own and each pool),
//! sized `layout.memory_sizes[i]`; aliases and blobs are ranges of their
//! owner's buffer at the layout's offsets, so the device uses exactly the
//! addresses the model reasons about. An `image`-declared object is a
//! `VkImage` with memory of its own, sized by the implementation's
//! requirements (its memory object in the layout gets no buffer); its
//! views, barriers and commands name subresources, as the model's do.
//!
//! ```no_run
//! use vksync_runtime::{Device, DeviceOptions};
//! let text = "buffer a 16\nbuffer b 16\nhost-write a 1\ndispatch scale_add(2,1) read a write b\n\
//!             barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read b\n";
//! let program = vksync::trace::parse(text).unwrap().program;
//! let mut device = Device::new(DeviceOptions::from_env()).unwrap();
//! let result = device.run(&program).unwrap();
//! assert!(result.is_clean());
//! ```

// Every `unsafe` block says why it is sound, in a `// SAFETY:` comment.
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod checks;
mod descriptors;
pub mod device;
pub mod error;
pub mod kernels;
pub mod limits;
pub mod queues;
pub mod quirks;
pub mod recorder;
pub mod repeat;
mod resources;
pub mod validation;

pub use checks::{
    check_dispatch, check_image_formats, check_program, check_reference_memory, host_memory_available,
    reference_host_bytes, BoundRange, CheckError, CheckedDispatch, CheckedProgram, DeviceLimits,
};
pub use device::{
    installed_validation_layer, layer_settings, skip_device_test, skipped_device_tests, test_device, Device,
    DeviceInfo, DeviceOptions, LayerSettings, ValidationMode, DEFAULT_FENCE_TIMEOUT, TEST_DEVICE_HELP,
};
pub use error::{Behind, Result, RuntimeError};
pub use queues::{QueueFamily, QueueMapping};
pub use quirks::{Quirk, Workarounds};
pub use recorder::{
    compare_readbacks, compare_with_reference, run_planned, with_readback, DeviceReadback, MemoryObject,
    ReadbackComparison, RunNote, RunResult, Submission,
};
pub use repeat::{Execution, Prepared, RecordTiming};
pub use validation::{Severity, ValidationMessage};
