//! `VK_LAYER_VKSYNC_capture`: a Vulkan layer that records what an
//! unmodified application does with buffers (memory, buffers, compute
//! pipelines, descriptors written directly, through update templates or
//! pushed, copies, fills, updates, dispatches, barriers,
//! submissions, fence and timeline semaphore waits, host writes to mapped
//! memory) and writes it as
//! a vksync trace that `vksync check` judges.
//!
//! This crate owns the layer (`layer.rs`: the exported entry points, the
//! call chains, the intercepts and all of the `unsafe`; `layer/table.rs`:
//! which command is recorded, not modelled or passed through, and why), the loader
//! interface types `ash` lacks (`abi.rs`), the recording state of a device
//! ([`record::Capture`], safe), the SPIR-V reflection of storage bindings
//! ([`reflect`]) and the one conversion of barrier masks into the model's
//! terms ([`sync1`]). It does not judge anything: the trace goes to the
//! model (`vksync::check`) like any other, and the syntax of the trace is
//! the model's printer's (`vksync::trace::print_annotated`).
//!
//! Invariants: the layer never changes what the application does (every
//! call goes down the chain unchanged, once); it never unwinds into the
//! application (panics are caught and reported on stderr); and nothing
//! that touches memory is dropped silently: what the model cannot express
//! is written as a `not-modelled` line (which `vksync check` reports) and
//! counted. How to use it,
//! and what it approximates: `docs/capture.md`.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod abi;
mod guard;
mod layer;
pub mod record;
pub mod reflect;
pub mod sync1;

/// The layer's name, as in its manifest and `VK_INSTANCE_LAYERS`.
pub const LAYER_NAME: &str = "VK_LAYER_VKSYNC_capture";

/// The environment variable naming the output trace (one file per device:
/// the second device's trace gets `.1` before the extension, and so on).
/// Unset: `vksync-capture-PID.trace` in the working directory. The layer
/// manifest that `vksync capture` writes is in `cli/src/capture.rs`.
pub const OUTPUT_ENV: &str = "VKSYNC_CAPTURE_OUTPUT";
