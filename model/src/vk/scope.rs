//! Synchronization and access scopes: what a stage mask and an access mask
//! in a barrier actually cover.
//!
//! This module owns the interpretation of [`PipelineStageFlags2`] and
//! [`AccessFlags2`] (Vulkan spec, "Synchronization and Cache Control"):
//! meta-stage expansion (`ALL_COMMANDS`, `ALL_TRANSFER`), the
//! synchronization2 meaning of `TOP_OF_PIPE`/`BOTTOM_OF_PIPE` in each scope,
//! logically earlier/later expansion (applied to synchronization scopes
//! only, never to access scopes), meta-access expansion (`SHADER_READ`,
//! `SHADER_WRITE`, `MEMORY_READ`, `MEMORY_WRITE`) and the table of which
//! access each stage can perform. It does not know about memory, ranges or
//! commands; [`crate::sync::checker`] applies the scopes computed here.
//!
//! Scopes are computed into two small bit sets: [`StageSet`] over the
//! concrete stages (those of the compute, transfer and host pipelines, in
//! which the model's commands access memory, and those of the graphics
//! pipeline, which barriers and semaphores of real applications name and
//! execution dependency chains run through, but in which no command of the
//! model accesses memory yet), and [`StageAccessSet`] over the (stage,
//! access) pairs the model's commands make.
//!
//! One pair is not Vulkan's: [`StageAccess::ImageLayoutTransition`], the
//! write an image layout transition performs, in the pseudo stage
//! [`Stage::ImageLayoutTransition`] (named as the validation layer names
//! its `SYNC_IMAGE_LAYOUT_TRANSITION` usage). No stage or access mask names
//! it, so no scope computed here ever holds it: its own barrier orders a
//! transition, and other commands' scopes hold it only through
//! `ALL_COMMANDS`, which `crate::sync::value` adds (`docs/semantics.md`,
//! "Layout transitions and `ALL_COMMANDS`").

use crate::vk::flags::{AccessFlags2, PipelineStageFlags2 as S};
use std::fmt;

/// A concrete pipeline stage in which a buffer access can happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// `DRAW_INDIRECT`: reading indirect arguments.
    DrawIndirect = 0,
    /// `COMPUTE_SHADER`.
    ComputeShader = 1,
    /// `COPY`: `vkCmdCopyBuffer`.
    Copy = 2,
    /// `CLEAR`: `vkCmdFillBuffer`, `vkCmdUpdateBuffer`.
    Clear = 3,
    /// `BLIT`.
    Blit = 4,
    /// `RESOLVE`.
    Resolve = 5,
    /// `HOST`: host reads and writes of mapped memory.
    Host = 6,
    /// The pseudo stage of an image layout transition: not a Vulkan stage
    /// (no mask names it, [`Stage::flag`] is `NONE`), not in [`Stage::ALL`]
    /// and in no scope. Only [`StageAccess::ImageLayoutTransition`] is made
    /// in it.
    ImageLayoutTransition = 7,
    /// The pseudo stage of a queue family release or acquire operation
    /// (they "do not occur in a defined stage"): not in [`Stage::ALL`]; a
    /// scope holds it only through `ALL_COMMANDS` (module
    /// `crate::sync::queues`, `docs/semantics.md`).
    QueueFamilyOwnershipTransfer = 8,
    /// `INDEX_INPUT` (graphics).
    IndexInput = 9,
    /// `VERTEX_ATTRIBUTE_INPUT` (graphics).
    VertexAttributeInput = 10,
    /// `VERTEX_SHADER` (graphics).
    VertexShader = 11,
    /// `TESSELLATION_CONTROL_SHADER` (graphics).
    TessellationControlShader = 12,
    /// `TESSELLATION_EVALUATION_SHADER` (graphics).
    TessellationEvaluationShader = 13,
    /// `GEOMETRY_SHADER` (graphics).
    GeometryShader = 14,
    /// `EARLY_FRAGMENT_TESTS` (graphics).
    EarlyFragmentTests = 15,
    /// `FRAGMENT_SHADER` (graphics).
    FragmentShader = 16,
    /// `LATE_FRAGMENT_TESTS` (graphics).
    LateFragmentTests = 17,
    /// `COLOR_ATTACHMENT_OUTPUT` (graphics).
    ColorAttachmentOutput = 18,
}

impl Stage {
    /// The concrete stages of compute, transfer and host work, in bit
    /// order (the pseudo stages are not among them; the graphics stages,
    /// where draws and rendering instances access memory, are
    /// [`Stage::GRAPHICS`]).
    pub const ACCESSING: [Stage; 7] = [
        Stage::DrawIndirect,
        Stage::ComputeShader,
        Stage::Copy,
        Stage::Clear,
        Stage::Blit,
        Stage::Resolve,
        Stage::Host,
    ];

    /// The graphics pipeline's stages after `DRAW_INDIRECT`, in logical
    /// order (`<syncpipeline name="graphics primitive">` of `vk.xml`: the
    /// early fragment tests come before the fragment shader). The mesh
    /// pipeline's order (`DRAW_INDIRECT`, then the four fragment stages) is
    /// a subsequence of it, so this one order serves both.
    pub const GRAPHICS: [Stage; 10] = [
        Stage::IndexInput,
        Stage::VertexAttributeInput,
        Stage::VertexShader,
        Stage::TessellationControlShader,
        Stage::TessellationEvaluationShader,
        Stage::GeometryShader,
        Stage::EarlyFragmentTests,
        Stage::FragmentShader,
        Stage::LateFragmentTests,
        Stage::ColorAttachmentOutput,
    ];

    /// Every concrete stage: those of [`Stage::ACCESSING`], then those of
    /// [`Stage::GRAPHICS`].
    pub const ALL: [Stage; 17] = {
        let mut all = [Stage::DrawIndirect; 17];
        let mut i = 0;
        while i < all.len() {
            all[i] = if i < Self::ACCESSING.len() {
                Self::ACCESSING[i]
            } else {
                Self::GRAPHICS[i - Self::ACCESSING.len()]
            };
            i += 1;
        }
        all
    };

    /// The Vulkan flag for this stage (`NONE` for the pseudo stage
    /// [`Stage::ImageLayoutTransition`], which no mask can name).
    pub fn flag(self) -> S {
        match self {
            Stage::DrawIndirect => S::DRAW_INDIRECT,
            Stage::ComputeShader => S::COMPUTE_SHADER,
            Stage::Copy => S::COPY,
            Stage::Clear => S::CLEAR,
            Stage::Blit => S::BLIT,
            Stage::Resolve => S::RESOLVE,
            Stage::Host => S::HOST,
            Stage::IndexInput => S::INDEX_INPUT,
            Stage::VertexAttributeInput => S::VERTEX_ATTRIBUTE_INPUT,
            Stage::VertexShader => S::VERTEX_SHADER,
            Stage::TessellationControlShader => S::TESSELLATION_CONTROL_SHADER,
            Stage::TessellationEvaluationShader => S::TESSELLATION_EVALUATION_SHADER,
            Stage::GeometryShader => S::GEOMETRY_SHADER,
            Stage::EarlyFragmentTests => S::EARLY_FRAGMENT_TESTS,
            Stage::FragmentShader => S::FRAGMENT_SHADER,
            Stage::LateFragmentTests => S::LATE_FRAGMENT_TESTS,
            Stage::ColorAttachmentOutput => S::COLOR_ATTACHMENT_OUTPUT,
            Stage::ImageLayoutTransition | Stage::QueueFamilyOwnershipTransfer => S::NONE,
        }
    }

    pub(crate) fn bit(self) -> u32 {
        1 << (self as u8)
    }
}

/// A set of concrete stages: the form every synchronization scope takes
/// once meta stages and logically earlier/later stages are expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct StageSet(pub u32);

impl StageSet {
    pub const EMPTY: StageSet = StageSet(0);

    /// The stages of commands recorded into a command buffer on a queue
    /// with graphics, compute and transfer support: what `ALL_COMMANDS`
    /// means. `HOST` is not among them: it is not a stage of any command
    /// ("Pipeline Stages": `VK_PIPELINE_STAGE_2_HOST_BIT` "is not invoked by
    /// any commands recorded in a command buffer"). The graphics stages are
    /// (the model's queue is the universal family; see
    /// `crate::spec::scopes::QUEUE_CAPABILITIES`).
    pub const ALL_DEVICE: StageSet = StageSet(0b111_1111_1110_0011_1111);

    /// The graphics stages after `DRAW_INDIRECT` ([`Stage::GRAPHICS`]).
    pub const GRAPHICS: StageSet = StageSet(0b111_1111_1110_0000_0000);

    pub fn contains(self, stage: Stage) -> bool {
        self.0 & stage.bit() != 0
    }
    pub fn intersects(self, other: StageSet) -> bool {
        self.0 & other.0 != 0
    }
    pub fn union(self, other: StageSet) -> StageSet {
        StageSet(self.0 | other.0)
    }
    pub fn iter(self) -> impl Iterator<Item = Stage> {
        Stage::ALL.into_iter().filter(move |s| self.contains(*s))
    }
    /// The Vulkan flags of the stages in the set.
    pub fn flags(self) -> S {
        self.iter().fold(S::empty(), |acc, s| acc | s.flag())
    }
}

impl fmt::Display for StageSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.flags().fmt(f)
    }
}

/// A concrete (stage, access) pair: one kind of memory access a command can
/// make. Reads and writes are distinguished by [`StageAccess::is_write`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StageAccess {
    /// `DRAW_INDIRECT` / `INDIRECT_COMMAND_READ`.
    DrawIndirectIndirectCommandRead = 0,
    /// `COMPUTE_SHADER` / `UNIFORM_READ`.
    ComputeShaderUniformRead = 1,
    /// `COMPUTE_SHADER` / `SHADER_SAMPLED_READ`.
    ComputeShaderSampledRead = 2,
    /// `COMPUTE_SHADER` / `SHADER_STORAGE_READ`.
    ComputeShaderStorageRead = 3,
    /// `COMPUTE_SHADER` / `SHADER_STORAGE_WRITE`.
    ComputeShaderStorageWrite = 4,
    /// `COPY` / `TRANSFER_READ`.
    CopyTransferRead = 5,
    /// `COPY` / `TRANSFER_WRITE`.
    CopyTransferWrite = 6,
    /// `BLIT` / `TRANSFER_READ`.
    BlitTransferRead = 7,
    /// `BLIT` / `TRANSFER_WRITE`.
    BlitTransferWrite = 8,
    /// `RESOLVE` / `TRANSFER_READ`.
    ResolveTransferRead = 9,
    /// `RESOLVE` / `TRANSFER_WRITE`.
    ResolveTransferWrite = 10,
    /// `CLEAR` / `TRANSFER_WRITE`.
    ClearTransferWrite = 11,
    /// `HOST` / `HOST_READ`.
    HostRead = 12,
    /// `HOST` / `HOST_WRITE`.
    HostWrite = 13,
    /// The write of an image layout transition (`IMAGE_LAYOUT_TRANSITION`):
    /// made by a barrier with [`crate::Barrier::transition`] set, over its
    /// region. Not a Vulkan (stage, access) pair: no mask names it, it is
    /// in no access scope and not in [`StageAccess::ALL`].
    ImageLayoutTransition = 14,
    /// A queue family release or acquire operation
    /// (`QUEUE_FAMILY_OWNERSHIP_TRANSFER`), made by a barrier with
    /// [`crate::Barrier::ownership`] over its region: "Queue family
    /// ownership transfers may perform read and write accesses on all
    /// memory bound to the ... buffer range", so a write here (which
    /// covers the read). Not a Vulkan pair: no mask names it.
    QueueFamilyOwnershipTransfer = 15,
    /// `INDEX_INPUT` / `INDEX_READ`: a draw's index buffer.
    IndexInputIndexRead = 16,
    /// `VERTEX_ATTRIBUTE_INPUT` / `VERTEX_ATTRIBUTE_READ`: a draw's vertex
    /// buffers.
    VertexAttributeInputVertexAttributeRead = 17,
    /// `VERTEX_SHADER` / `UNIFORM_READ`.
    VertexShaderUniformRead = 18,
    /// `VERTEX_SHADER` / `SHADER_SAMPLED_READ`.
    VertexShaderSampledRead = 19,
    /// `VERTEX_SHADER` / `SHADER_STORAGE_READ`.
    VertexShaderStorageRead = 20,
    /// `VERTEX_SHADER` / `SHADER_STORAGE_WRITE`.
    VertexShaderStorageWrite = 21,
    /// `FRAGMENT_SHADER` / `UNIFORM_READ`.
    FragmentShaderUniformRead = 22,
    /// `FRAGMENT_SHADER` / `SHADER_SAMPLED_READ`.
    FragmentShaderSampledRead = 23,
    /// `FRAGMENT_SHADER` / `SHADER_STORAGE_READ`.
    FragmentShaderStorageRead = 24,
    /// `FRAGMENT_SHADER` / `SHADER_STORAGE_WRITE`.
    FragmentShaderStorageWrite = 25,
    /// `EARLY_FRAGMENT_TESTS` / `DEPTH_STENCIL_ATTACHMENT_READ`: the depth
    /// test's read, a depth/stencil `LOAD` operation.
    EarlyFragmentTestsDepthStencilRead = 26,
    /// `EARLY_FRAGMENT_TESTS` / `DEPTH_STENCIL_ATTACHMENT_WRITE`: a
    /// depth/stencil `CLEAR` or `DONT_CARE` load operation.
    EarlyFragmentTestsDepthStencilWrite = 27,
    /// `LATE_FRAGMENT_TESTS` / `DEPTH_STENCIL_ATTACHMENT_READ`.
    LateFragmentTestsDepthStencilRead = 28,
    /// `LATE_FRAGMENT_TESTS` / `DEPTH_STENCIL_ATTACHMENT_WRITE`: the depth
    /// write of a draw, a depth/stencil store operation.
    LateFragmentTestsDepthStencilWrite = 29,
    /// `COLOR_ATTACHMENT_OUTPUT` / `COLOR_ATTACHMENT_READ`: blending, a
    /// color `LOAD` operation, a resolve's read.
    ColorAttachmentOutputColorRead = 30,
    /// `COLOR_ATTACHMENT_OUTPUT` / `COLOR_ATTACHMENT_WRITE`: a draw's color
    /// write, a color `CLEAR`/`DONT_CARE` load and every color store
    /// operation, a resolve's write.
    ColorAttachmentOutputColorWrite = 31,
    /// `FRAGMENT_SHADER` / `INPUT_ATTACHMENT_READ`: a draw's read of the
    /// input attachments of its subpass (`vk.xml`'s `<syncsupport>` of
    /// `INPUT_ATTACHMENT_READ` names `FRAGMENT_SHADER` among the stages
    /// this model knows).
    FragmentShaderInputAttachmentRead = 32,
}

impl StageAccess {
    /// Every pair a command makes in a Vulkan stage (the pseudo pair
    /// [`StageAccess::ImageLayoutTransition`] is not one of them).
    pub const ALL: [StageAccess; 31] = [
        StageAccess::DrawIndirectIndirectCommandRead,
        StageAccess::ComputeShaderUniformRead,
        StageAccess::ComputeShaderSampledRead,
        StageAccess::ComputeShaderStorageRead,
        StageAccess::ComputeShaderStorageWrite,
        StageAccess::CopyTransferRead,
        StageAccess::CopyTransferWrite,
        StageAccess::BlitTransferRead,
        StageAccess::BlitTransferWrite,
        StageAccess::ResolveTransferRead,
        StageAccess::ResolveTransferWrite,
        StageAccess::ClearTransferWrite,
        StageAccess::HostRead,
        StageAccess::HostWrite,
        StageAccess::IndexInputIndexRead,
        StageAccess::VertexAttributeInputVertexAttributeRead,
        StageAccess::VertexShaderUniformRead,
        StageAccess::VertexShaderSampledRead,
        StageAccess::VertexShaderStorageRead,
        StageAccess::VertexShaderStorageWrite,
        StageAccess::FragmentShaderUniformRead,
        StageAccess::FragmentShaderSampledRead,
        StageAccess::FragmentShaderStorageRead,
        StageAccess::FragmentShaderStorageWrite,
        StageAccess::EarlyFragmentTestsDepthStencilRead,
        StageAccess::EarlyFragmentTestsDepthStencilWrite,
        StageAccess::LateFragmentTestsDepthStencilRead,
        StageAccess::LateFragmentTestsDepthStencilWrite,
        StageAccess::ColorAttachmentOutputColorRead,
        StageAccess::ColorAttachmentOutputColorWrite,
        StageAccess::FragmentShaderInputAttachmentRead,
    ];

    /// The number of pairs, the pseudo pairs included: the size of a table
    /// indexed by `sa as usize`.
    pub(crate) const COUNT: usize = 33;

    /// The pair a single stage flag and a single access flag name, if the
    /// model knows it (`COMPUTE_SHADER` + `SHADER_STORAGE_READ`, `COPY` +
    /// `TRANSFER_WRITE`, ...). Meta flags (`ALL_TRANSFER`,
    /// `SHADER_READ`, ...) name no single pair.
    pub fn from_flags(stage: S, access: AccessFlags2) -> Option<StageAccess> {
        StageAccess::ALL
            .into_iter()
            .find(|sa| sa.stage().flag() == stage && sa.access() == access)
    }

    /// The stage the access is made in.
    pub fn stage(self) -> Stage {
        use StageAccess::*;
        match self {
            DrawIndirectIndirectCommandRead => Stage::DrawIndirect,
            ComputeShaderUniformRead
            | ComputeShaderSampledRead
            | ComputeShaderStorageRead
            | ComputeShaderStorageWrite => Stage::ComputeShader,
            CopyTransferRead | CopyTransferWrite => Stage::Copy,
            BlitTransferRead | BlitTransferWrite => Stage::Blit,
            ResolveTransferRead | ResolveTransferWrite => Stage::Resolve,
            ClearTransferWrite => Stage::Clear,
            HostRead | HostWrite => Stage::Host,
            IndexInputIndexRead => Stage::IndexInput,
            VertexAttributeInputVertexAttributeRead => Stage::VertexAttributeInput,
            VertexShaderUniformRead
            | VertexShaderSampledRead
            | VertexShaderStorageRead
            | VertexShaderStorageWrite => Stage::VertexShader,
            FragmentShaderUniformRead
            | FragmentShaderSampledRead
            | FragmentShaderStorageRead
            | FragmentShaderStorageWrite
            | FragmentShaderInputAttachmentRead => Stage::FragmentShader,
            EarlyFragmentTestsDepthStencilRead | EarlyFragmentTestsDepthStencilWrite => {
                Stage::EarlyFragmentTests
            }
            LateFragmentTestsDepthStencilRead | LateFragmentTestsDepthStencilWrite => {
                Stage::LateFragmentTests
            }
            ColorAttachmentOutputColorRead | ColorAttachmentOutputColorWrite => Stage::ColorAttachmentOutput,
            ImageLayoutTransition => Stage::ImageLayoutTransition,
            QueueFamilyOwnershipTransfer => Stage::QueueFamilyOwnershipTransfer,
        }
    }

    /// The (non-meta) Vulkan access flag of the access (`NONE` for the
    /// pseudo pair [`StageAccess::ImageLayoutTransition`]).
    pub fn access(self) -> AccessFlags2 {
        use StageAccess::*;
        match self {
            DrawIndirectIndirectCommandRead => AccessFlags2::INDIRECT_COMMAND_READ,
            ComputeShaderUniformRead | VertexShaderUniformRead | FragmentShaderUniformRead => {
                AccessFlags2::UNIFORM_READ
            }
            ComputeShaderSampledRead | VertexShaderSampledRead | FragmentShaderSampledRead => {
                AccessFlags2::SHADER_SAMPLED_READ
            }
            ComputeShaderStorageRead | VertexShaderStorageRead | FragmentShaderStorageRead => {
                AccessFlags2::SHADER_STORAGE_READ
            }
            ComputeShaderStorageWrite | VertexShaderStorageWrite | FragmentShaderStorageWrite => {
                AccessFlags2::SHADER_STORAGE_WRITE
            }
            IndexInputIndexRead => AccessFlags2::INDEX_READ,
            FragmentShaderInputAttachmentRead => AccessFlags2::INPUT_ATTACHMENT_READ,
            VertexAttributeInputVertexAttributeRead => AccessFlags2::VERTEX_ATTRIBUTE_READ,
            EarlyFragmentTestsDepthStencilRead | LateFragmentTestsDepthStencilRead => {
                AccessFlags2::DEPTH_STENCIL_ATTACHMENT_READ
            }
            EarlyFragmentTestsDepthStencilWrite | LateFragmentTestsDepthStencilWrite => {
                AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE
            }
            ColorAttachmentOutputColorRead => AccessFlags2::COLOR_ATTACHMENT_READ,
            ColorAttachmentOutputColorWrite => AccessFlags2::COLOR_ATTACHMENT_WRITE,
            CopyTransferRead | BlitTransferRead | ResolveTransferRead => AccessFlags2::TRANSFER_READ,
            CopyTransferWrite | BlitTransferWrite | ResolveTransferWrite | ClearTransferWrite => {
                AccessFlags2::TRANSFER_WRITE
            }
            HostRead => AccessFlags2::HOST_READ,
            HostWrite => AccessFlags2::HOST_WRITE,
            ImageLayoutTransition | QueueFamilyOwnershipTransfer => AccessFlags2::NONE,
        }
    }

    /// Whether this is the write of an image layout transition.
    pub fn is_layout_transition(self) -> bool {
        self == StageAccess::ImageLayoutTransition
    }

    /// Whether this is a queue family release or acquire operation.
    pub fn is_ownership_transfer(self) -> bool {
        self == StageAccess::QueueFamilyOwnershipTransfer
    }

    /// Whether the access writes.
    pub fn is_write(self) -> bool {
        use StageAccess::*;
        matches!(
            self,
            ComputeShaderStorageWrite
                | CopyTransferWrite
                | BlitTransferWrite
                | ResolveTransferWrite
                | ClearTransferWrite
                | HostWrite
                | ImageLayoutTransition
                | QueueFamilyOwnershipTransfer
                | VertexShaderStorageWrite
                | FragmentShaderStorageWrite
                | EarlyFragmentTestsDepthStencilWrite
                | LateFragmentTestsDepthStencilWrite
                | ColorAttachmentOutputColorWrite
        )
    }

    fn bit(self) -> u64 {
        1 << (self as u8)
    }
}

impl fmt::Display for StageAccess {
    /// `STAGE:ACCESS`, or `IMAGE_LAYOUT_TRANSITION` for the pseudo pair
    /// (the validation layer's name for the usage).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_layout_transition() {
            return f.write_str("IMAGE_LAYOUT_TRANSITION");
        }
        if self.is_ownership_transfer() {
            return f.write_str("QUEUE_FAMILY_OWNERSHIP_TRANSFER");
        }
        write!(f, "{}:{}", self.stage().flag(), self.access())
    }
}

/// A set of (stage, access) pairs: the form every access scope takes.
/// One bit per [`StageAccess`] discriminant; 33 pairs (the pseudo pairs
/// included) need more than 32 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct StageAccessSet(pub u64);

impl StageAccessSet {
    pub const EMPTY: StageAccessSet = StageAccessSet(0);

    pub fn single(sa: StageAccess) -> Self {
        StageAccessSet(sa.bit())
    }
    pub fn contains(self, sa: StageAccess) -> bool {
        self.0 & sa.bit() != 0
    }
    pub fn union(self, other: Self) -> Self {
        StageAccessSet(self.0 | other.0)
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The pairs in the set (for tests).
    #[cfg(test)]
    pub fn iter(self) -> impl Iterator<Item = StageAccess> {
        StageAccess::ALL.into_iter().filter(move |s| self.contains(*s))
    }
    /// The union of the stages of the pairs (for tests).
    #[cfg(test)]
    pub fn stages(self) -> StageSet {
        self.iter()
            .fold(StageSet::EMPTY, |acc, sa| acc.union(StageSet(sa.stage().bit())))
    }
    /// The union of the access flags of the pairs (for tests).
    #[cfg(test)]
    pub fn accesses(self) -> AccessFlags2 {
        self.iter()
            .fold(AccessFlags2::empty(), |acc, sa| acc | sa.access())
    }
}

/// Which side of a dependency a mask is on. `TOP_OF_PIPE` and
/// `BOTTOM_OF_PIPE` mean different things on each side, and logically
/// earlier stages are added to the first scope, later ones to the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The first (source) scope.
    Src,
    /// The second (destination) scope.
    Dst,
}

/// An invalid stage/access combination, with the offending flag named.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScopeError {
    /// Refused with "{side} access `{access}` is not supported by any stage in `{stages}`; it needs one of {needs}".
    #[error("{side} access `{access}` is not supported by any stage in `{stages}`; it needs one of {needs}")]
    UnsupportedAccess {
        /// Source or destination.
        side: &'static str,
        /// The access mask given.
        access: AccessFlags2,
        /// The stage mask given.
        stages: S,
        /// What would support it.
        needs: String,
    },
    /// Refused with "{side} stage mask has bits {bits:#x} that this model does not know".
    #[error("{side} stage mask has bits {bits:#x} that this model does not know")]
    UnknownStageBits {
        /// Source or destination.
        side: &'static str,
        /// Detail of the error.
        bits: u64,
    },
    /// Refused with "{side} access mask has bits {bits:#x} that this model does not know".
    #[error("{side} access mask has bits {bits:#x} that this model does not know")]
    UnknownAccessBits {
        /// Source or destination.
        side: &'static str,
        /// Detail of the error.
        bits: u64,
    },
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Src => "source",
        Side::Dst => "destination",
    }
}

/// Stages named by a mask after meta-stage expansion, without logically
/// earlier/later stages: the stages whose accesses an access scope covers.
///
/// Synchronization2 ("Pipeline Stages"): `TOP_OF_PIPE` is `ALL_COMMANDS` with
/// no access in the second scope and `NONE` in the first; `BOTTOM_OF_PIPE`
/// is the mirror image. Since those `ALL_COMMANDS` carry no access, they are
/// returned separately as `exec_only` so the access scope can ignore them.
fn named_stages(mask: S, side: Side) -> (StageSet, StageSet) {
    let mut stages = StageSet::EMPTY;
    for s in Stage::ALL {
        if mask.contains(s.flag()) {
            stages = stages.union(StageSet(s.bit()));
        }
    }
    if mask.contains(S::ALL_TRANSFER) {
        stages = stages.union(StageSet(
            Stage::Copy.bit() | Stage::Clear.bit() | Stage::Blit.bit() | Stage::Resolve.bit(),
        ));
    }
    // The graphics meta stages ("Pipeline Stages"; `<syncequivalent>`).
    if mask.contains(S::VERTEX_INPUT) {
        stages = stages.union(StageSet(
            Stage::IndexInput.bit() | Stage::VertexAttributeInput.bit(),
        ));
    }
    if mask.contains(S::PRE_RASTERIZATION_SHADERS) {
        stages = stages.union(StageSet(
            Stage::VertexShader.bit()
                | Stage::TessellationControlShader.bit()
                | Stage::TessellationEvaluationShader.bit()
                | Stage::GeometryShader.bit(),
        ));
    }
    if mask.contains(S::ALL_GRAPHICS) {
        stages = stages
            .union(StageSet::GRAPHICS)
            .union(StageSet(Stage::DrawIndirect.bit()));
    }
    if mask.contains(S::ALL_COMMANDS) {
        stages = stages.union(StageSet::ALL_DEVICE);
    }
    let pseudo = match side {
        Side::Src => S::BOTTOM_OF_PIPE,
        Side::Dst => S::TOP_OF_PIPE,
    };
    let exec_only = if mask.contains(pseudo) {
        StageSet::ALL_DEVICE
    } else {
        StageSet::EMPTY
    };
    (stages, exec_only)
}

/// The stages a mask names, meta stages expanded, without the logically
/// earlier or later ones: the execution scope of an implicit dependency
/// that orders exactly the stages it names (the rendering instance's
/// attachment accesses, [`crate::ir::render`]).
pub(crate) fn exact_scope(mask: S) -> StageSet {
    named_stages(mask, Side::Src).0
}

/// The stages a mask names on one side, meta stages expanded and
/// `TOP`/`BOTTOM` per synchronization2, without the logically earlier or
/// later ones: what a framebuffer-space split of a dependency divides
/// (`crate::ir::renderpass`).
pub(crate) fn named_scope(mask: S, side: Side) -> StageSet {
    let (named, exec_only) = named_stages(mask, side);
    named.union(exec_only)
}

/// The synchronization (execution) scope of a stage mask on one side:
/// meta stages expanded, `TOP`/`BOTTOM` per synchronization2, then every
/// logically earlier stage added for the first scope and every logically
/// later stage for the second ("Pipeline Stages", "Synchronization Scopes").
///
/// The orderings among the concrete stages are the compute pipeline's
/// `DRAW_INDIRECT` → `COMPUTE_SHADER` and the graphics pipeline's
/// `DRAW_INDIRECT` → [`Stage::GRAPHICS`] in that order; the transfer stages
/// and `HOST` are each a pipeline of their own.
pub fn exec_scope(mask: S, side: Side) -> StageSet {
    let (named, exec_only) = named_stages(mask, side);
    let set = named.union(exec_only);
    let mut out = set;
    for after in PIPELINES {
        let pipeline = || std::iter::once(&Stage::DrawIndirect).chain(after.iter());
        let positions = pipeline().enumerate().filter(|(_, s)| set.contains(**s));
        // The first scope adds every stage before the latest one named;
        // the second every stage after the earliest one named.
        let bound = match side {
            Side::Src => positions.map(|(i, _)| i).max(),
            Side::Dst => positions.map(|(i, _)| i).min(),
        };
        if let Some(b) = bound {
            for (j, s) in pipeline().enumerate() {
                let include = match side {
                    Side::Src => j < b,
                    Side::Dst => j > b,
                };
                if include {
                    out = out.union(StageSet(s.bit()));
                }
            }
        }
    }
    out
}

/// The pipelines with more than one stage, each in logical order after
/// `DRAW_INDIRECT`, which comes first in both.
const PIPELINES: [&[Stage]; 2] = [&[Stage::ComputeShader], &Stage::GRAPHICS];

/// Expands meta accesses into the concrete access bits of this model.
/// `SHADER_READ` is `SHADER_SAMPLED_READ | SHADER_STORAGE_READ` and
/// `SHADER_WRITE` is `SHADER_STORAGE_WRITE` ("Access Types"; the
/// `<syncequivalent>` entries of `vk.xml`, which the validation layer uses
/// too). `UNIFORM_READ` is its own bit and not part of `SHADER_READ`.
/// `MEMORY_READ`/`MEMORY_WRITE` are handled per stage by [`access_scope`].
fn expand_access(access: AccessFlags2) -> AccessFlags2 {
    let mut a = access;
    if a.contains(AccessFlags2::SHADER_READ) {
        a |= AccessFlags2::SHADER_SAMPLED_READ | AccessFlags2::SHADER_STORAGE_READ;
    }
    if a.contains(AccessFlags2::SHADER_WRITE) {
        a |= AccessFlags2::SHADER_STORAGE_WRITE;
    }
    a
}

/// The access scope of a (stage mask, access mask) pair on one side: the
/// (stage, access) pairs made by the named stages (meta stages expanded,
/// never logically earlier or later ones) whose access is in the expanded
/// access mask. `MEMORY_READ` and `MEMORY_WRITE` cover every read or write
/// the named stages can make.
pub fn access_scope(stages: S, access: AccessFlags2, side: Side) -> StageAccessSet {
    let (named, _) = named_stages(stages, side);
    let expanded = expand_access(access);
    let mut set = StageAccessSet::EMPTY;
    for sa in StageAccess::ALL {
        if !named.contains(sa.stage()) {
            continue;
        }
        let covered = expanded.contains(sa.access())
            || (sa.is_write() && access.contains(AccessFlags2::MEMORY_WRITE))
            || (!sa.is_write() && access.contains(AccessFlags2::MEMORY_READ));
        if covered {
            set = set.union(StageAccessSet::single(sa));
        }
    }
    set
}

/// The stages that can perform each access flag, as the spec's valid-usage
/// statements for `VkMemoryBarrier2` list them ("Access Types", table of
/// supported access types), restricted to this model's stages.
/// `ALL_COMMANDS` supports everything and is handled by the caller;
/// `MEMORY_READ`/`MEMORY_WRITE` (`S::all()` here) are valid with any stage
/// mask, `NONE` included, and the caller skips them.
fn supporting_stages(access: AccessFlags2) -> S {
    let shaders = S::VERTEX_SHADER
        | S::TESSELLATION_CONTROL_SHADER
        | S::TESSELLATION_EVALUATION_SHADER
        | S::GEOMETRY_SHADER
        | S::FRAGMENT_SHADER
        | S::COMPUTE_SHADER;
    match access {
        a if a == AccessFlags2::INDIRECT_COMMAND_READ => S::DRAW_INDIRECT,
        a if a == AccessFlags2::INDEX_READ => S::INDEX_INPUT,
        a if a == AccessFlags2::VERTEX_ATTRIBUTE_READ => S::VERTEX_ATTRIBUTE_INPUT,
        a if a == AccessFlags2::INPUT_ATTACHMENT_READ => S::FRAGMENT_SHADER,
        a if a == AccessFlags2::COLOR_ATTACHMENT_READ => S::FRAGMENT_SHADER | S::COLOR_ATTACHMENT_OUTPUT,
        a if a == AccessFlags2::COLOR_ATTACHMENT_WRITE => S::COLOR_ATTACHMENT_OUTPUT,
        a if a == AccessFlags2::DEPTH_STENCIL_ATTACHMENT_READ => {
            S::FRAGMENT_SHADER | S::EARLY_FRAGMENT_TESTS | S::LATE_FRAGMENT_TESTS
        }
        a if a == AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE => {
            S::EARLY_FRAGMENT_TESTS | S::LATE_FRAGMENT_TESTS
        }
        a if a == AccessFlags2::UNIFORM_READ
            || a == AccessFlags2::SHADER_READ
            || a == AccessFlags2::SHADER_WRITE
            || a == AccessFlags2::SHADER_SAMPLED_READ
            || a == AccessFlags2::SHADER_STORAGE_READ
            || a == AccessFlags2::SHADER_STORAGE_WRITE =>
        {
            shaders
        }
        a if a == AccessFlags2::TRANSFER_READ => S::COPY | S::BLIT | S::RESOLVE | S::ALL_TRANSFER,
        a if a == AccessFlags2::TRANSFER_WRITE => S::COPY | S::BLIT | S::RESOLVE | S::CLEAR | S::ALL_TRANSFER,
        a if a == AccessFlags2::HOST_READ || a == AccessFlags2::HOST_WRITE => S::HOST,
        _ => S::all(),
    }
}

/// Checks that every access bit is supported by at least one stage in the
/// mask (after `ALL_TRANSFER` expansion; `ALL_COMMANDS` supports every
/// access), and that no unknown bit is set. The spec makes an unsupported
/// access invalid usage (VUID-VkMemoryBarrier2-srcAccessMask-03900 and
/// siblings); it is rejected here rather than silently dropped.
pub fn validate(stages: S, access: AccessFlags2, side: Side) -> Result<(), ScopeError> {
    let side_name = side_name(side);
    let unknown_stage = stages.bits() & !S::all().bits();
    if unknown_stage != 0 {
        return Err(ScopeError::UnknownStageBits {
            side: side_name,
            bits: unknown_stage,
        });
    }
    let unknown_access = access.bits() & !AccessFlags2::all().bits();
    if unknown_access != 0 {
        return Err(ScopeError::UnknownAccessBits {
            side: side_name,
            bits: unknown_access,
        });
    }
    let mut effective = stages;
    if stages.contains(S::ALL_TRANSFER) {
        effective |= S::COPY | S::CLEAR | S::BLIT | S::RESOLVE;
    }
    if stages.contains(S::VERTEX_INPUT) {
        effective |= S::INDEX_INPUT | S::VERTEX_ATTRIBUTE_INPUT;
    }
    if stages.contains(S::PRE_RASTERIZATION_SHADERS) {
        effective |= S::VERTEX_SHADER
            | S::TESSELLATION_CONTROL_SHADER
            | S::TESSELLATION_EVALUATION_SHADER
            | S::GEOMETRY_SHADER;
    }
    if stages.contains(S::ALL_GRAPHICS) {
        effective |= StageSet::GRAPHICS.flags() | S::DRAW_INDIRECT;
    }
    for bit in access.iter() {
        let needs = supporting_stages(bit);
        // "VK_ACCESS_2_MEMORY_READ_BIT ... is always valid in any access
        // mask" (and MEMORY_WRITE likewise): with any stage mask, NONE
        // included. (This table once refused them with NONE; the
        // registry's validator, `crate::spec::validate`, found it.)
        if needs == S::all() {
            continue;
        }
        // `ALL_COMMANDS` supports every device access, but not the host's:
        // HOST_READ and HOST_WRITE need HOST itself
        // (VUID-VkMemoryBarrier2-srcAccessMask-03916/03917).
        let host = needs == S::HOST;
        let all_commands = stages.contains(S::ALL_COMMANDS) && !host;
        if !all_commands && !effective.intersects(needs) {
            let list = needs.to_string().replace('|', "`, `");
            return Err(ScopeError::UnsupportedAccess {
                side: side_name,
                access: bit,
                stages,
                needs: if host {
                    format!("`{list}`")
                } else {
                    format!("`{list}` or `ALL_COMMANDS`")
                },
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stages(text: &str) -> S {
        S::parse(text).unwrap()
    }
    fn access(text: &str) -> AccessFlags2 {
        AccessFlags2::parse(text).unwrap()
    }

    fn check_exec(mask: &str, side: Side, expected: &str) {
        let got = exec_scope(stages(mask), side).to_string();
        assert_eq!(got, expected, "exec scope of {mask} on {side:?}");
    }

    /// Every stage of the universal queue, as a scope prints.
    const UNIVERSAL: &str = "DRAW_INDIRECT|INDEX_INPUT|VERTEX_ATTRIBUTE_INPUT|VERTEX_SHADER|TESSELLATION_CONTROL_SHADER|TESSELLATION_EVALUATION_SHADER|GEOMETRY_SHADER|EARLY_FRAGMENT_TESTS|FRAGMENT_SHADER|LATE_FRAGMENT_TESTS|COLOR_ATTACHMENT_OUTPUT|COMPUTE_SHADER|COPY|CLEAR|BLIT|RESOLVE";

    #[test]
    fn exec_scopes_expand_meta_and_order() {
        use Side::*;
        check_exec("NONE", Src, "NONE");
        check_exec("COMPUTE_SHADER", Src, "DRAW_INDIRECT|COMPUTE_SHADER");
        check_exec("COMPUTE_SHADER", Dst, "COMPUTE_SHADER");
        // DRAW_INDIRECT is logically earlier than the compute shader and
        // than every graphics stage.
        check_exec(
            "DRAW_INDIRECT",
            Dst,
            "DRAW_INDIRECT|INDEX_INPUT|VERTEX_ATTRIBUTE_INPUT|VERTEX_SHADER|TESSELLATION_CONTROL_SHADER|TESSELLATION_EVALUATION_SHADER|GEOMETRY_SHADER|EARLY_FRAGMENT_TESTS|FRAGMENT_SHADER|LATE_FRAGMENT_TESTS|COLOR_ATTACHMENT_OUTPUT|COMPUTE_SHADER",
        );
        check_exec("DRAW_INDIRECT", Src, "DRAW_INDIRECT");
        check_exec("COPY", Src, "COPY");
        check_exec("COPY", Dst, "COPY");
        check_exec("ALL_TRANSFER", Dst, "COPY|CLEAR|BLIT|RESOLVE");
        check_exec("TRANSFER", Src, "COPY|CLEAR|BLIT|RESOLVE");
        check_exec("ALL_COMMANDS", Src, UNIVERSAL);
        check_exec("HOST", Src, "HOST");
        check_exec("HOST", Dst, "HOST");
        // synchronization2: TOP_OF_PIPE is NONE in the first scope and
        // ALL_COMMANDS in the second; BOTTOM_OF_PIPE the reverse.
        check_exec("TOP_OF_PIPE", Src, "NONE");
        check_exec("TOP_OF_PIPE", Dst, UNIVERSAL);
        check_exec("BOTTOM_OF_PIPE", Src, UNIVERSAL);
        check_exec("BOTTOM_OF_PIPE", Dst, "NONE");
        check_exec("BOTTOM_OF_PIPE|COPY", Dst, "COPY");
        // The graphics pipeline: the early fragment tests come before the
        // fragment shader; meta stages expand.
        check_exec("COLOR_ATTACHMENT_OUTPUT", Dst, "COLOR_ATTACHMENT_OUTPUT");
        check_exec(
            "FRAGMENT_SHADER",
            Dst,
            "FRAGMENT_SHADER|LATE_FRAGMENT_TESTS|COLOR_ATTACHMENT_OUTPUT",
        );
        check_exec(
            "EARLY_FRAGMENT_TESTS",
            Src,
            "DRAW_INDIRECT|INDEX_INPUT|VERTEX_ATTRIBUTE_INPUT|VERTEX_SHADER|TESSELLATION_CONTROL_SHADER|TESSELLATION_EVALUATION_SHADER|GEOMETRY_SHADER|EARLY_FRAGMENT_TESTS",
        );
        check_exec(
            "VERTEX_INPUT",
            Src,
            "DRAW_INDIRECT|INDEX_INPUT|VERTEX_ATTRIBUTE_INPUT",
        );
        check_exec(
            "PRE_RASTERIZATION_SHADERS",
            Src,
            "DRAW_INDIRECT|INDEX_INPUT|VERTEX_ATTRIBUTE_INPUT|VERTEX_SHADER|TESSELLATION_CONTROL_SHADER|TESSELLATION_EVALUATION_SHADER|GEOMETRY_SHADER",
        );
        check_exec(
            "ALL_GRAPHICS",
            Src,
            "DRAW_INDIRECT|INDEX_INPUT|VERTEX_ATTRIBUTE_INPUT|VERTEX_SHADER|TESSELLATION_CONTROL_SHADER|TESSELLATION_EVALUATION_SHADER|GEOMETRY_SHADER|EARLY_FRAGMENT_TESTS|FRAGMENT_SHADER|LATE_FRAGMENT_TESTS|COLOR_ATTACHMENT_OUTPUT",
        );
    }

    #[test]
    fn stage_sets_name_their_stages() {
        let of = |stages: &[Stage]| {
            stages
                .iter()
                .fold(StageSet::EMPTY, |acc, s| acc.union(StageSet(s.bit())))
        };
        assert_eq!(StageSet::GRAPHICS, of(&Stage::GRAPHICS));
        let device: Vec<Stage> = Stage::ALL.into_iter().filter(|s| *s != Stage::Host).collect();
        assert_eq!(StageSet::ALL_DEVICE, of(&device));
        // Every pair of the model is made in a concrete stage, the host's
        // alone outside the device's (the read state holds one read per
        // device stage: `crate::sync::state::Reads`).
        assert!(StageAccess::ALL.iter().all(|sa| Stage::ALL.contains(&sa.stage())));
    }

    /// The graphics stages' access scopes hold the pairs draws and
    /// rendering instances make there, and only those of the stages named.
    #[test]
    fn graphics_stages_access_their_pairs() {
        use StageAccess::*;
        let all = access("MEMORY_READ|MEMORY_WRITE");
        let got: Vec<_> = access_scope(
            stages("COLOR_ATTACHMENT_OUTPUT|PRE_RASTERIZATION_SHADERS"),
            all,
            Side::Src,
        )
        .iter()
        .collect();
        assert_eq!(
            got,
            [
                VertexShaderUniformRead,
                VertexShaderSampledRead,
                VertexShaderStorageRead,
                VertexShaderStorageWrite,
                ColorAttachmentOutputColorRead,
                ColorAttachmentOutputColorWrite
            ]
        );
        let got: Vec<_> = access_scope(stages("FRAGMENT_SHADER"), access("SHADER_READ"), Side::Dst)
            .iter()
            .collect();
        assert_eq!(got, [FragmentShaderSampledRead, FragmentShaderStorageRead]);
        let got: Vec<_> = access_scope(stages("VERTEX_INPUT"), all, Side::Dst)
            .iter()
            .collect();
        assert_eq!(
            got,
            [IndexInputIndexRead, VertexAttributeInputVertexAttributeRead]
        );
    }

    fn check_access(st: &str, ac: &str, side: Side, expected: &[StageAccess]) {
        let got: Vec<_> = access_scope(stages(st), access(ac), side).iter().collect();
        assert_eq!(got, expected, "access scope of {st}:{ac} on {side:?}");
    }

    #[test]
    fn access_scopes_never_include_earlier_or_later_stages() {
        use Side::*;
        use StageAccess::*;
        check_access(
            "COMPUTE_SHADER",
            "SHADER_WRITE",
            Src,
            &[ComputeShaderStorageWrite],
        );
        check_access(
            "COMPUTE_SHADER",
            "SHADER_READ",
            Dst,
            &[ComputeShaderSampledRead, ComputeShaderStorageRead],
        );
        check_access("COMPUTE_SHADER", "UNIFORM_READ", Dst, &[ComputeShaderUniformRead]);
        // DRAW_INDIRECT is logically earlier than COMPUTE_SHADER, but its
        // accesses are not in the access scope of a COMPUTE_SHADER mask.
        check_access(
            "COMPUTE_SHADER",
            "MEMORY_READ",
            Src,
            &[
                ComputeShaderUniformRead,
                ComputeShaderSampledRead,
                ComputeShaderStorageRead,
            ],
        );
        check_access(
            "DRAW_INDIRECT",
            "MEMORY_READ",
            Dst,
            &[DrawIndirectIndirectCommandRead],
        );
        check_access("COPY", "TRANSFER_WRITE", Src, &[CopyTransferWrite]);
        check_access(
            "ALL_TRANSFER",
            "TRANSFER_WRITE",
            Src,
            &[
                CopyTransferWrite,
                BlitTransferWrite,
                ResolveTransferWrite,
                ClearTransferWrite,
            ],
        );
        check_access("CLEAR", "MEMORY_WRITE", Src, &[ClearTransferWrite]);
        check_access("HOST", "HOST_READ", Dst, &[HostRead]);
        check_access("ALL_COMMANDS", "HOST_READ", Dst, &[]);
        check_access(
            "COMPUTE_SHADER|COPY",
            "SHADER_WRITE|TRANSFER_WRITE",
            Src,
            &[ComputeShaderStorageWrite, CopyTransferWrite],
        );
        // TOP_OF_PIPE in the second scope is ALL_COMMANDS with no access.
        check_access("TOP_OF_PIPE", "MEMORY_READ", Dst, &[]);
        check_access("BOTTOM_OF_PIPE", "MEMORY_WRITE", Src, &[]);
        check_access("NONE", "MEMORY_WRITE", Src, &[]);
    }

    fn check_valid(st: &str, ac: &str, expected: Result<(), &str>) {
        let got = validate(stages(st), access(ac), Side::Src).map_err(|e| e.to_string());
        assert_eq!(
            got.as_ref().map(|_| ()).map_err(|s| s.as_str()),
            expected,
            "{st}:{ac}"
        );
    }

    #[test]
    fn unsupported_accesses_are_rejected_by_name() {
        check_valid("COMPUTE_SHADER", "SHADER_WRITE", Ok(()));
        check_valid("ALL_COMMANDS", "TRANSFER_READ|SHADER_WRITE|MEMORY_READ", Ok(()));
        check_valid("ALL_COMMANDS|HOST", "HOST_READ|TRANSFER_READ", Ok(()));
        check_valid(
            "ALL_COMMANDS",
            "HOST_READ",
            Err("source access `HOST_READ` is not supported by any stage in `ALL_COMMANDS`; it needs one of `HOST`"),
        );
        check_valid("ALL_TRANSFER", "TRANSFER_READ", Ok(()));
        check_valid("COPY", "MEMORY_READ|MEMORY_WRITE", Ok(()));
        check_valid("NONE", "NONE", Ok(()));
        check_valid("NONE", "MEMORY_READ|MEMORY_WRITE", Ok(()));
        check_valid("COMPUTE_SHADER|COPY", "TRANSFER_WRITE|SHADER_READ", Ok(()));
        check_valid(
            "COPY",
            "SHADER_WRITE",
            Err("source access `SHADER_WRITE` is not supported by any stage in `COPY`; it needs one of `VERTEX_SHADER`, `TESSELLATION_CONTROL_SHADER`, `TESSELLATION_EVALUATION_SHADER`, `GEOMETRY_SHADER`, `FRAGMENT_SHADER`, `COMPUTE_SHADER` or `ALL_COMMANDS`"),
        );
        check_valid(
            "CLEAR",
            "TRANSFER_READ",
            Err("source access `TRANSFER_READ` is not supported by any stage in `CLEAR`; it needs one of `ALL_TRANSFER`, `COPY`, `BLIT`, `RESOLVE` or `ALL_COMMANDS`"),
        );
        check_valid(
            "TOP_OF_PIPE",
            "SHADER_READ",
            Err("source access `SHADER_READ` is not supported by any stage in `TOP_OF_PIPE`; it needs one of `VERTEX_SHADER`, `TESSELLATION_CONTROL_SHADER`, `TESSELLATION_EVALUATION_SHADER`, `GEOMETRY_SHADER`, `FRAGMENT_SHADER`, `COMPUTE_SHADER` or `ALL_COMMANDS`"),
        );
        check_valid(
            "COMPUTE_SHADER",
            "HOST_WRITE",
            Err("source access `HOST_WRITE` is not supported by any stage in `COMPUTE_SHADER`; it needs one of `HOST`"),
        );
    }
}
