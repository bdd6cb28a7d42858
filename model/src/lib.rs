//! vksync: a formal model of Vulkan synchronization for buffers and images.
//!
//! The crate is pure Rust with no I/O, no Vulkan and no global state. What
//! it offers, from the crate root and its public modules:
//!
//! - **Programs**: [`Program`] (objects and [`Command`]s, built through
//!   checked methods that return [`ProgramError`]), [`resolve`] to a
//!   memory [`Layout`], and [`accesses`], the one table of which memory
//!   each command touches at which stage. Images come coarse (the memory
//!   they are bound to; a barrier can perform a layout transition of it,
//!   [`Barrier::with_transition`]) or exact ([`Program::declare_image`]:
//!   subresources with layouts, image barriers over subresource ranges,
//!   [`ImageOp`] commands, storage and sampled image bindings; see
//!   [`ImageDesc`]). Checking handles both; planning refuses transitions.
//!   Render passes ([`RenderPass`], declared with [`Program::render_pass`];
//!   their commands are [`RenderOp`]s too).
//!   Dynamic rendering and draws ([`RenderOp`], built with
//!   [`Program::render_command`]): attachments with load, store and
//!   resolve operations, the five draw commands with the bytes they read.
//! - **Checking**: [`check`] / [`check_program`] give the [`Hazard`]s of
//!   any program, each with its minimal [`Fix`] (a barrier, a fence wait,
//!   a semaphore between queues), under a [`Semantics`] (the
//!   specification's, by default, with a [`Reading`] of write-after-write),
//!   and say which checker decided ([`DecidedBy`]): the fast ones, or for
//!   the corners they refuse [`spec`], the slow, definitional oracle.
//!   [`check_with`] / [`check_streaming`] are the fast checkers alone.
//!   These return every racing pair; a report prints one line per later
//!   access and kind ([`group_hazards`], [`group_races`]), and
//!   [`check_report`] (one queue) and [`check_grouped`] (every program)
//!   give those groups directly, grouping as the checkers find the pairs
//!   where they can, so that memory stays linear in the program and the
//!   report when the pairs are quadratic.
//!   [`check_ownership`] reports reads of `VK_SHARING_MODE_EXCLUSIVE`
//!   buffers whose contents a missing queue family ownership transfer left
//!   undefined, and invalid releases and acquires.
//! - **Incremental planning**: [`Tracker`] takes a runtime's commands as
//!   they are recorded and answers the barrier to record before each;
//!   [`barrier_between`] is its stateless special case.
//! - **Whole-program planning**: [`plan`] (online, offline, baselines,
//!   repeated submission; across queues with semaphores, async compute,
//!   split barriers).
//! - **Text**: [`trace`] parses and prints the trace format.
//! - **The CPU reference**: [`vksync::reference`](mod@crate::reference) computes what a program writes.
//! - **The validation layer**: [`layer`] reproduces what a given version of
//!   the Khronos layer reports, with the table of known differences.
//! - **Vulkan's vocabulary**: [`vk`] (stage and access flags with Vulkan's
//!   names and bit values) and, with the `ash` feature, `ash` (the one
//!   conversion to `ash::vk` barriers).
//!
//! Talking to a device is the `vksync-runtime` crate's job. How the modules
//! depend on each other is in `docs/architecture.md`.
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
mod group;
mod hazard;
mod ir;
pub mod layer;
mod ownership;
pub mod plan;
pub mod reference;
mod semantics;
pub mod spec;
mod sync;
pub mod trace;
mod tracker;
pub mod vk;

pub use group::{
    group_hazards, group_races, group_races_indexed, hazard_object, Earlier, HazardGroup, RaceGroup,
};
pub use hazard::race_group_hazard;
pub use hazard::{
    check, check_grouped, check_program, check_report, check_streaming, check_with, Checked, CheckedGroups,
    DecidedBy, Fix, Hazard, SemaphoreFix, Submits,
};
#[cfg(feature = "parallel")]
pub use hazard::{check_parallel, check_report_parallel};
pub use ir::access::{
    checked_accesses as accesses, is_device_command, region_accesses, Access, UnplacedRegion,
};
pub use ir::event::{Event, EventId, EventWait};
pub use ir::execution::{order_notes, OrderNote};
pub use ir::image::{
    buffer_ranges, BufferImageCopy, Filter, ImageBarrier, ImageBarrierRef, ImageBlitRegion, ImageCommand,
    ImageCopyRegion, ImageDesc, ImageError, ImageOp, SubresourceLayers, SubresourceLayout, SubresourceRange,
    Tiling, MAX_RANGES,
};
pub use ir::layout::{
    resolve, BlobAllocator, Layout, Location, MemId, MemRange, ProgramError, ProgramErrorKind,
};
pub use ir::program::{
    Barrier, Binding, BindingAccess, ByteRange, Command, Dependency, ImageCopy, Object, ObjectId, ObjectKind,
    OwnershipTransfer, Program, Region, SharingMode,
};
pub use ir::queue::{
    Queue, QueueId, Semaphore, SemaphoreId, SemaphoreSignal, SemaphoreType, SemaphoreWait, Submission,
    WaitFor,
};
pub use ir::render::{
    Attachment, Draw, DrawKind, ImplicitDependency, IndexBuffer, IndexType, InputAttachment, LoadOp,
    RenderCommand, RenderError, RenderOp, Rendering, ShaderBinding, ShaderStage, StoreOp, VertexBuffer,
    VertexRate,
};
pub use ir::renderpass::{
    same_subpass_fix, subpasses_between, transition_dependency, AttachmentDescription, AttachmentReference,
    ClearAttachments, ColorReference, PassBegin, RenderPass, RenderPassError, RenderPassId,
    SubpassDependency, SubpassDescription, SubpassIndex,
};
pub use ownership::{check_ownership, OwnershipIssue, OwnershipIssueKind};
pub use semantics::{ClearStage, Reading, Semantics};
pub use sync::checker::HazardKind;
pub use tracker::{
    barrier_between, ImageUse, NeededWait, Needs, QueueNeeds, SubmitNeeds, TrackedAccess, TrackedId,
    TrackedImageBarrier, TrackedImageInfo, Tracker, TrackerError,
};
pub use vk::flags::{AccessFlags2, PipelineStageFlags2, UnknownFlag};
pub use vk::image::{Aspect, AspectMask, Format, ImageLayout, ImageUsage};
pub use vk::scope::{Stage, StageAccess};
