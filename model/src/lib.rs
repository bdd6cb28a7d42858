//! vksync: a formal model of Vulkan synchronization for buffers.
//!
//! The crate is pure Rust with no I/O, no Vulkan and no global state. It
//! owns the stage and access flag types (Vulkan's names and bit values), the
//! meaning of synchronization and access scopes, a program representation
//! shared by every other part of the project, the deterministic blob
//! allocator, the per-address hazard checker, and (in later modules) the
//! barrier planners and the CPU reference. Talking to a device is the
//! `vksync-runtime` crate's job; parsing trace files is the CLI's.
//!
//! ```
//! use vksync::{check, Command, HazardKind, Program};
//! let mut p = Program::new();
//! let b = p.buffer("b", 256)?;
//! let c = p.buffer("c", 256)?;
//! p.push(Command::Fill { dst: p.whole(b), value: 7 })?;
//! p.push(Command::Copy { src: p.whole(b), dst: p.whole(c) })?;
//! let hazards = check(&p)?;
//! assert_eq!(hazards.len(), 1);
//! assert_eq!(hazards[0].kind, HazardKind::ReadAfterWrite);
//! # Ok::<(), vksync::ProgramError>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The README's examples are doctests too.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

#[cfg(feature = "ash")]
pub mod ash;
mod hazard;
mod ir;
pub mod layer;
pub mod plan;
pub mod reference;
mod semantics;
pub mod spec;
mod sync;
pub mod trace;
mod tracker;
pub mod vk;

pub use hazard::{check, check_streaming, check_with, Fix, Hazard};
pub use ir::access::{accesses, is_device_command, Access};
pub use ir::layout::{
    resolve, BlobAllocator, Layout, Location, MemId, MemRange, ProgramError, ProgramErrorKind,
};
pub use ir::program::{
    Barrier, Binding, BindingAccess, ByteRange, Command, Dependency, Object, ObjectId, ObjectKind, Program,
    Region,
};
pub use semantics::{ClearStage, Reading, Semantics};
pub use sync::checker::HazardKind;
pub use tracker::{barrier_between, Needs, TrackedAccess, Tracker, TrackerError};
pub use vk::flags::{AccessFlags2, PipelineStageFlags2, UnknownFlag};
pub use vk::scope::{Stage, StageAccess};
