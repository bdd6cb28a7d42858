//! Dynamic rendering and draws: `vkCmdBeginRendering` with its color and
//! depth/stencil attachments, their load, store and resolve operations,
//! `vkCmdEndRendering`, and the five draw commands with the bytes they
//! read (vertex, instance, index, indirect and count buffers), their
//! descriptor bindings per shader stage and their attachment accesses.
//!
//! This module owns the rendering commands' types, the accesses each one
//! makes ([`RenderCommand::new`], computed once when the command is built
//! and compared again by [`crate::Program::push`], as image commands are),
//! the *implicit dependencies* of a rendering instance, and the rules of
//! where rendering commands may be recorded ([`check_instances`]). It does
//! not decide races: both checkers read [`RenderCommand::implicit`] and
//! resolve its masks with their own tables.
//!
//! **Implicit dependencies.** "The load operation for each sample in an
//! attachment happens-before any recorded command which accesses the
//! sample", the store operation "happens-after" every such command, and
//! within one instance the color writes, blending and depth/stencil tests
//! of successive draws are done in rasterization order ("Rasterization
//! Order"). The model expresses the three guarantees as memory
//! dependencies among the attachment accesses of the instance, placed
//! before each draw's accesses and before the end's resolve and store
//! accesses: one per attachment byte range, from the attachment's stages
//! and accesses to the same, with *exact* scopes (the stages named, never
//! the logically earlier or later ones). So two draws writing one color
//! attachment are ordered (no false alarm), and an access of the
//! attachment's bytes in another stage (a fragment shader reading an
//! aliasing buffer) is not. Their scopes hold only accesses of their own
//! instance ([`instance_begins`] says which commands those are): nothing
//! orders one instance's accesses before the next's without a barrier.
//! A later barrier whose first scope names an attachment stage continues
//! them, as it would any dependency; a barrier before the instance
//! continues into them. A barrier is never recorded inside a dynamic
//! rendering instance; inside a subpass of a render pass instance only
//! one a self-dependency allows (`crate::ir::renderpass`), and the
//! planners place none there: they place what a draw or an end needs
//! before its begin, and refuse a hazard between two commands of one
//! instance ([`refuse_hazard_inside`]).
//!
//! Invariants: a [`RenderCommand`]'s accesses and implicit dependencies
//! are a pure function of its [`RenderOp`], the program's images and the
//! rendering instance open where it is recorded; a draw or an end is
//! recorded inside an instance, nothing else that does device work is
//! ([`check_instances`]).

use super::error::{Location, ProgramError, ProgramErrorKind};
use super::image::{SubresourceLayers, SubresourceRange};
use super::program::{Barrier, Binding, BindingAccess, ByteRange, Command, ObjectId, Program, Region};
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::image::{Aspect, AspectMask, Format, ImageLayout};
use crate::vk::scope::StageAccess;

/// `VkAttachmentLoadOp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoadOp {
    /// `VK_ATTACHMENT_LOAD_OP_LOAD`: a read (`COLOR_ATTACHMENT_READ`,
    /// `DEPTH_STENCIL_ATTACHMENT_READ`).
    Load,
    /// `VK_ATTACHMENT_LOAD_OP_CLEAR`: a write.
    Clear,
    /// `VK_ATTACHMENT_LOAD_OP_DONT_CARE`: a write (the contents become
    /// undefined; the spec gives it the write access).
    DontCare,
    /// `VK_ATTACHMENT_LOAD_OP_NONE`: no access.
    None,
}

/// `VkAttachmentStoreOp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StoreOp {
    /// `VK_ATTACHMENT_STORE_OP_STORE`: a write.
    Store,
    /// `VK_ATTACHMENT_STORE_OP_DONT_CARE`: a write.
    DontCare,
    /// `VK_ATTACHMENT_STORE_OP_NONE`: no access.
    None,
}

impl LoadOp {
    /// Every load op, in declaration order.
    pub const ALL: [LoadOp; 4] = [LoadOp::Load, LoadOp::Clear, LoadOp::DontCare, LoadOp::None];
    /// The trace keyword (Vulkan's name without the prefix).
    pub fn keyword(self) -> &'static str {
        match self {
            LoadOp::Load => "LOAD",
            LoadOp::Clear => "CLEAR",
            LoadOp::DontCare => "DONT_CARE",
            LoadOp::None => "NONE",
        }
    }
    /// The op of a keyword.
    pub fn parse(text: &str) -> Option<LoadOp> {
        LoadOp::ALL.into_iter().find(|o| o.keyword() == text)
    }
}

impl StoreOp {
    /// Every store op, in declaration order.
    pub const ALL: [StoreOp; 3] = [StoreOp::Store, StoreOp::DontCare, StoreOp::None];
    /// The trace keyword (Vulkan's name without the prefix).
    pub fn keyword(self) -> &'static str {
        match self {
            StoreOp::Store => "STORE",
            StoreOp::DontCare => "DONT_CARE",
            StoreOp::None => "NONE",
        }
    }
    /// The op of a keyword.
    pub fn parse(text: &str) -> Option<StoreOp> {
        StoreOp::ALL.into_iter().find(|o| o.keyword() == text)
    }
}

/// A `VkRenderingAttachmentInfo`: an image view (one mip level, a layer
/// range), its layout, its load and store operations and, for a color
/// attachment, an optional resolve target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Attachment {
    /// The image of `imageView`.
    pub image: ObjectId,
    /// The view's subresource range (one mip level).
    pub range: SubresourceRange,
    /// `imageLayout`.
    pub layout: ImageLayout,
    /// `loadOp`.
    pub load: LoadOp,
    /// `storeOp`.
    pub store: StoreOp,
    /// `resolveImageView` (its image and range) and `resolveImageLayout`.
    pub resolve: Option<(ObjectId, SubresourceRange, ImageLayout)>,
}

/// A `VkRenderingInfo`. The trace names no render area: the model takes
/// the rectangle from the origin that every view holds (`render_area`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Rendering {
    /// `pColorAttachments`.
    pub colors: Vec<Attachment>,
    /// `pDepthAttachment` / `pStencilAttachment`, as one view of the
    /// aspects it names (the same ops for both aspects).
    pub depth: Option<Attachment>,
    /// The input attachments of a render pass subpass (`pInputAttachments`,
    /// deduplicated): every draw of the subpass reads all their bytes in
    /// `FRAGMENT_SHADER` / `INPUT_ATTACHMENT_READ`. Always empty for
    /// dynamic rendering (the model does not know
    /// `VK_KHR_dynamic_rendering_local_read`).
    pub inputs: Vec<InputAttachment>,
    /// The render area's width and height from the origin where the
    /// instance fixes it: a render pass subpass takes its framebuffer's
    /// (every view). `None` for dynamic rendering: the rectangle its color
    /// and depth/stencil views all hold (VUID-VkRenderingInfo-pNext-06079,
    /// -06080 bound it by those, not by resolve views).
    pub area: Option<[u32; 2]>,
    /// `renderArea` as the trace gives it (`renderArea=X,Y,W,H`: offset and
    /// extent); `None`: the rectangle from the origin every color and
    /// depth/stencil view holds ([`Rendering::area`] for a subpass).
    /// Load, store and resolve operations, draws and clears touch only it.
    /// Always `None` for a render pass subpass.
    pub render_area: Option<[u32; 4]>,
    /// `layerCount` (when `viewMask` is 0) as the trace gives it; `None`:
    /// every layer of each view. The layers rendered are the first this
    /// many of each view.
    pub layer_count: Option<u32>,
    /// `viewMask`: when not 0, multiview: the layers rendered are those
    /// whose index (from each view's first layer) is a bit of the mask
    /// ("the view mask indicating the indices of attachment layers that
    /// will be rendered"); each draw is broadcast to every view, which
    /// orders nothing differently here.
    pub view_mask: u32,
    /// `VK_RENDERING_RESUMING_BIT`: this `vkCmdBeginRendering` resumes the
    /// instance suspended by the `vkCmdEndRendering` right before it ("this
    /// render pass is resumed from a render pass instance that has been
    /// suspended earlier in submission order"): one instance, so no load
    /// operations here and the instance's implicit dependencies go on.
    /// Always `false` for a render pass subpass.
    pub resuming: bool,
    /// `VK_RENDERING_SUSPENDING_BIT`: the `vkCmdEndRendering` of this
    /// begin suspends the instance ("this render pass is suspended and
    /// will be resumed later"): no resolve or store operations there.
    pub suspending: bool,
}

impl Rendering {
    /// Whether `other` describes the same instance but for the
    /// suspending and resuming flags: "The contents of pRenderingInfo must
    /// match between suspended render pass instances and the render pass
    /// instances that resume them, other than the presence or absence of
    /// the VK_RENDERING_RESUMING_BIT, VK_RENDERING_SUSPENDING_BIT, and
    /// VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT flags".
    pub fn matches_but_flags(&self, other: &Rendering) -> bool {
        self.colors == other.colors
            && self.depth == other.depth
            && self.inputs == other.inputs
            && self.area == other.area
            && self.render_area == other.render_area
            && self.layer_count == other.layer_count
            && self.view_mask == other.view_mask
    }
}

/// An input attachment of a subpass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InputAttachment {
    /// The image of the framebuffer's view.
    pub image: ObjectId,
    /// The view's subresource range.
    pub range: SubresourceRange,
    /// This subpass is the attachment's first use and its load operation
    /// writes (`CLEAR`, `DONT_CARE`): the draws' reads must see that write.
    pub load_writes: bool,
}

/// How a vertex buffer binding advances (`VkVertexInputRate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexRate {
    /// `VK_VERTEX_INPUT_RATE_VERTEX`.
    Vertex,
    /// `VK_VERTEX_INPUT_RATE_INSTANCE`.
    Instance,
}

/// A vertex buffer binding (`vkCmdBindVertexBuffers` with the pipeline's
/// `VkVertexInputBindingDescription`): `stride` bytes per vertex or
/// instance from `offset`; the model takes each element's attributes to be
/// the whole stride.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VertexBuffer {
    /// The buffer.
    pub buffer: ObjectId,
    /// `pOffsets[i]`.
    pub offset: u64,
    /// `stride` (at least 1).
    pub stride: u64,
    /// `inputRate`.
    pub rate: VertexRate,
}

/// `VkIndexType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexType {
    /// `VK_INDEX_TYPE_UINT8`.
    U8,
    /// `VK_INDEX_TYPE_UINT16`.
    U16,
    /// `VK_INDEX_TYPE_UINT32`.
    U32,
}

impl IndexType {
    /// The bytes of one index.
    pub fn size(self) -> u64 {
        match self {
            IndexType::U8 => 1,
            IndexType::U16 => 2,
            IndexType::U32 => 4,
        }
    }
    /// The trace keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            IndexType::U8 => "u8",
            IndexType::U16 => "u16",
            IndexType::U32 => "u32",
        }
    }
    /// The type of a keyword.
    pub fn parse(text: &str) -> Option<IndexType> {
        [IndexType::U8, IndexType::U16, IndexType::U32]
            .into_iter()
            .find(|t| t.keyword() == text)
    }
}

/// The bound index buffer (`vkCmdBindIndexBuffer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IndexBuffer {
    /// The buffer.
    pub buffer: ObjectId,
    /// `offset`.
    pub offset: u64,
    /// `indexType`.
    pub index_type: IndexType,
}

/// A shader stage of the graphics pipeline that a descriptor binding is
/// used in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderStage {
    /// `VK_SHADER_STAGE_VERTEX_BIT`.
    Vertex,
    /// `VK_SHADER_STAGE_FRAGMENT_BIT`.
    Fragment,
}

impl ShaderStage {
    /// The trace keyword: `vs` or `fs`.
    pub fn keyword(self) -> &'static str {
        match self {
            ShaderStage::Vertex => "vs",
            ShaderStage::Fragment => "fs",
        }
    }

    /// The (stage, access) pairs a binding used so makes in this stage,
    /// reads first: the graphics twin of [`BindingAccess::stage_accesses`]
    /// (the same accesses, in this shader's stage; a storage image as a
    /// storage buffer, a sampled image as a uniform texel buffer).
    pub fn stage_accesses(self, access: BindingAccess) -> &'static [StageAccess] {
        use StageAccess::*;
        // Per stage: its storage read and write (a read-write binding is
        // both, reads first), its uniform read, its sampled read.
        static VERTEX: [StageAccess; 4] = [
            VertexShaderStorageRead,
            VertexShaderStorageWrite,
            VertexShaderUniformRead,
            VertexShaderSampledRead,
        ];
        static FRAGMENT: [StageAccess; 4] = [
            FragmentShaderStorageRead,
            FragmentShaderStorageWrite,
            FragmentShaderUniformRead,
            FragmentShaderSampledRead,
        ];
        let t = match self {
            ShaderStage::Vertex => &VERTEX,
            ShaderStage::Fragment => &FRAGMENT,
        };
        match access {
            BindingAccess::Read | BindingAccess::ImageRead => &t[0..1],
            BindingAccess::Write | BindingAccess::ImageWrite => &t[1..2],
            BindingAccess::ReadWrite | BindingAccess::ImageReadWrite => &t[0..2],
            BindingAccess::Uniform => &t[2..3],
            BindingAccess::Sampled | BindingAccess::SampledImage(_) => &t[3..4],
        }
    }
}

/// A descriptor binding of a draw, with the shader stage that uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShaderBinding {
    /// The stage.
    pub stage: ShaderStage,
    /// How and which bytes (a buffer range, or an image view's one byte
    /// range, as a dispatch's).
    pub binding: Binding,
}

/// Which draw command, with its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawKind {
    /// `vkCmdDraw`.
    Draw {
        /// `vertexCount`.
        vertex_count: u32,
        /// `instanceCount`.
        instance_count: u32,
        /// `firstVertex`.
        first_vertex: u32,
        /// `firstInstance`.
        first_instance: u32,
    },
    /// `vkCmdDrawIndexed`.
    DrawIndexed {
        /// `indexCount`.
        index_count: u32,
        /// `instanceCount`.
        instance_count: u32,
        /// `firstIndex`.
        first_index: u32,
        /// `firstInstance`.
        first_instance: u32,
    },
    /// `vkCmdDrawIndirect` (`indexed: false`) or `vkCmdDrawIndexedIndirect`.
    Indirect {
        /// The indexed form.
        indexed: bool,
        /// `buffer`.
        buffer: ObjectId,
        /// `offset`.
        offset: u64,
        /// `drawCount`.
        draw_count: u32,
        /// `stride`.
        stride: u32,
    },
    /// `vkCmdDrawIndirectCount` or `vkCmdDrawIndexedIndirectCount`: the
    /// count is read from `count_buffer`; the model assumes the most,
    /// `maxDrawCount` records.
    IndirectCount {
        /// The indexed form.
        indexed: bool,
        /// `buffer`.
        buffer: ObjectId,
        /// `offset`.
        offset: u64,
        /// `countBuffer`.
        count_buffer: ObjectId,
        /// `countBufferOffset`.
        count_offset: u64,
        /// `maxDrawCount`.
        max_draw_count: u32,
        /// `stride`.
        stride: u32,
    },
}

impl DrawKind {
    /// Whether it reads the index buffer.
    pub fn indexed(self) -> bool {
        match self {
            DrawKind::Draw { .. } => false,
            DrawKind::DrawIndexed { .. } => true,
            DrawKind::Indirect { indexed, .. } | DrawKind::IndirectCount { indexed, .. } => indexed,
        }
    }
}

/// A draw: its parameters, the state it draws with (vertex and index
/// buffers, descriptor bindings, which attachment operations the pipeline
/// enables).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draw {
    /// Which command.
    pub kind: DrawKind,
    /// The bound vertex buffers the pipeline reads.
    pub vertex: Vec<VertexBuffer>,
    /// The bound index buffer (indexed draws need one).
    pub index: Option<IndexBuffer>,
    /// Descriptor bindings, per shader stage.
    pub bindings: Vec<ShaderBinding>,
    /// The pipeline writes the color attachments (a nonzero
    /// `colorWriteMask`).
    pub color_write: bool,
    /// Blending reads the color attachments.
    pub blend: bool,
    /// The depth (and stencil) test reads the depth/stencil attachment.
    pub depth_test: bool,
    /// The depth (and stencil) test writes it (`depthWriteEnable`).
    pub depth_write: bool,
}

/// A rendering command as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderOp {
    /// `vkCmdBeginRendering`.
    Begin(Rendering),
    /// `vkCmdEndRendering`.
    End,
    /// A draw command.
    Draw(Draw),
    /// `vkCmdBeginRenderPass` (`crate::ir::renderpass`).
    BeginPass(super::renderpass::PassBegin),
    /// `vkCmdNextSubpass`.
    NextSubpass,
    /// The end of a subpass (its resolves and store operations): recorded
    /// right before each [`RenderOp::NextSubpass`] and
    /// [`RenderOp::EndPass`], as part of the same trace line.
    EndSubpass {
        /// The last subpass's end (before `vkCmdEndRenderPass`).
        last: bool,
    },
    /// `vkCmdEndRenderPass`.
    EndPass,
    /// `vkCmdClearAttachments`.
    Clear(super::renderpass::ClearAttachments),
}

impl RenderOp {
    /// Whether this command starts a rendering instance, whose implicit
    /// dependencies order only its own accesses (`instance_begins`):
    /// `vkCmdBeginRendering`, and the `vkCmdBeginRenderPass` and
    /// `vkCmdNextSubpass` that start a subpass (each subpass is one).
    /// A `vkCmdBeginRendering` that resumes a suspended instance
    /// ([`Rendering::resuming`]) continues it: it begins none.
    pub fn begins_instance(&self) -> bool {
        match self {
            RenderOp::Begin(r) => !r.resuming,
            RenderOp::BeginPass(_) | RenderOp::NextSubpass => true,
            _ => false,
        }
    }

    /// The trace keyword.
    pub fn keyword(&self) -> &'static str {
        match self {
            RenderOp::Begin(_) => "begin-rendering",
            RenderOp::End => "end-rendering",
            RenderOp::BeginPass(_) => "begin-render-pass",
            RenderOp::NextSubpass => "next-subpass",
            RenderOp::EndSubpass { .. } => "end-subpass",
            RenderOp::EndPass => "end-render-pass",
            RenderOp::Clear(_) => "clear-attachments",
            RenderOp::Draw(d) => match d.kind {
                DrawKind::Draw { .. } => "draw",
                DrawKind::DrawIndexed { .. } => "draw-indexed",
                DrawKind::Indirect { indexed: false, .. } => "draw-indirect",
                DrawKind::Indirect { indexed: true, .. } => "draw-indexed-indirect",
                DrawKind::IndirectCount { .. } => "draw-indirect-count",
            },
        }
    }

    /// The Vulkan command.
    pub fn vulkan_name(&self) -> &'static str {
        match self {
            RenderOp::Begin(_) => "vkCmdBeginRendering",
            RenderOp::End => "vkCmdEndRendering",
            RenderOp::BeginPass(_) => "vkCmdBeginRenderPass",
            RenderOp::NextSubpass | RenderOp::EndSubpass { last: false } => "vkCmdNextSubpass",
            RenderOp::EndSubpass { last: true } => "vkCmdEndRenderPass",
            RenderOp::EndPass => "vkCmdEndRenderPass",
            RenderOp::Clear(_) => "vkCmdClearAttachments",
            RenderOp::Draw(d) => match d.kind {
                DrawKind::Draw { .. } => "vkCmdDraw",
                DrawKind::DrawIndexed { .. } => "vkCmdDrawIndexed",
                DrawKind::Indirect { indexed: false, .. } => "vkCmdDrawIndirect",
                DrawKind::Indirect { indexed: true, .. } => "vkCmdDrawIndexedIndirect",
                DrawKind::IndirectCount { indexed: false, .. } => "vkCmdDrawIndirectCount",
                DrawKind::IndirectCount { indexed: true, .. } => "vkCmdDrawIndexedIndirectCount",
            },
        }
    }

    /// Every object it names.
    pub fn objects(&self) -> Vec<ObjectId> {
        match self {
            RenderOp::Begin(r) => r
                .colors
                .iter()
                .chain(r.depth.iter())
                .flat_map(|a| std::iter::once(a.image).chain(a.resolve.map(|r| r.0)))
                .collect(),
            RenderOp::BeginPass(b) => b.views.iter().map(|v| v.0).collect(),
            RenderOp::End
            | RenderOp::NextSubpass
            | RenderOp::EndSubpass { .. }
            | RenderOp::EndPass
            | RenderOp::Clear(_) => Vec::new(),
            RenderOp::Draw(d) => {
                let mut out: Vec<ObjectId> = d.vertex.iter().map(|v| v.buffer).collect();
                out.extend(d.index.map(|i| i.buffer));
                out.extend(d.bindings.iter().map(|b| b.binding.region.object));
                match d.kind {
                    DrawKind::Indirect { buffer, .. } => out.push(buffer),
                    DrawKind::IndirectCount {
                        buffer, count_buffer, ..
                    } => out.extend([buffer, count_buffer]),
                    _ => {}
                }
                out
            }
        }
    }
}

/// The scopes of one barrier before a render pass command
/// ([`RenderCommand::pre_barriers`]: a subpass dependency or an automatic
/// layout transition) beyond its masks ("Subpass Dependencies": the first
/// synchronization scope of a dependency holds the commands of
/// `srcSubpass`, with its load, store and resolve operations, or those
/// before the begin for `VK_SUBPASS_EXTERNAL`; the second those of
/// `dstSubpass`, or those after the end). For a layout transition, the
/// subpasses of the two uses it lies between (`EXTERNAL` for
/// `initialLayout` and `finalLayout`). A barrier is placed at the boundary
/// where its `dst` begins (the end for `EXTERNAL`), so `dst` is the
/// subpass the command begins or, at the end, `EXTERNAL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PassScope {
    /// `srcSubpass`.
    pub src: super::renderpass::SubpassIndex,
    /// `dstSubpass`.
    pub dst: super::renderpass::SubpassIndex,
    /// A subpass dependency: its index in the render pass's
    /// `pDependencies`. `None` for a layout transition.
    pub dependency: Option<u32>,
    /// A layout transition: the dependencies (bits of their indices)
    /// whose availability operations it happens after, placed at its
    /// boundary (`RenderPass::transition_follows`). 0 for a dependency.
    pub follows: u64,
    /// A layout transition: the declared dependencies of its second set
    /// (bits of their indices, the first 64), all placed at its boundary,
    /// whose visibility operations it happens before ("Automatic layout
    /// transitions into the layout used in a subpass happen-before the
    /// visibility operations for all dependencies with that subpass as the
    /// dstSubpass"). 0 for a dependency.
    pub precedes: u64,

    /// A dependency whose availability operations layout transitions at
    /// its boundary happen after (its bit in their `follows`): the
    /// destination stages of those transitions' second halves. What its
    /// first scopes hold is ordered before those transitions, so before
    /// their second scopes, and before a later first synchronization scope
    /// holding every stage outside the instance. `None` for every other
    /// dependency and for a layout transition.
    pub then_dst: Option<crate::vk::flags::PipelineStageFlags2>,
    /// The chain part of a view-local dependency between subpasses of more
    /// than one view (`crate::ir::renderpass::boundary_barriers`): no
    /// access of `dst` is in its second scope directly (view v of `dst`
    /// depends on view v of `src` only, and an access there that is no
    /// one view's, a storage buffer's, is not ordered after the other
    /// views'); what its first scopes hold is ordered before the
    /// dependencies from `dst` that chain from it (each view's part
    /// reaches them through that view's operations of `dst`), not before
    /// barriers or implicit dependencies inside `dst`, which are
    /// view-local too. The same for the chain part of a pipeline barrier
    /// inside such a subpass (`crate::ir::renderpass::subpass_barrier_parts`).
    pub chain_only: bool,
    /// The part of a view-local dependency (or barrier) of a subpass of
    /// more than one view that holds the accesses made before the render
    /// pass instance only (`crate::ir::renderpass::ViewPart::Before`):
    /// with its whole masks, since such an access is ordered before every
    /// view of `src` alike, so each view's dependency orders it before
    /// that view of `dst`.
    pub before_only: bool,
}

/// One implicit dependency of a rendering instance over one attachment
/// byte range: `stages`/`access` to the same, with exact scopes (module
/// docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImplicitDependency {
    /// The attachment's stages (both scopes, not expanded).
    pub stages: PipelineStageFlags2,
    /// The attachment's accesses (both access scopes).
    pub access: AccessFlags2,
    /// The attachment's bytes.
    pub region: Region,
}

/// A rendering command with the accesses it makes and the implicit
/// dependencies that come before them ([`Command::Render`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderCommand {
    /// What was recorded.
    pub op: RenderOp,
    /// Its accesses, in terms of the objects they name.
    pub(crate) accesses: Vec<(Region, StageAccess)>,
    /// The implicit dependencies applied before its accesses.
    pub(crate) implicit: Vec<ImplicitDependency>,
    /// The barriers applied before its implicit dependencies: a render
    /// pass's subpass dependencies and layout transitions
    /// (`crate::ir::renderpass`); empty for every other command.
    pub(crate) pre: Vec<super::program::Barrier>,
    /// The scopes of each of `pre`.
    pub(crate) pre_scopes: Vec<PassScope>,
    /// For each of `pre` that is a layout transition, its first and second
    /// sets of dependencies' masks (`crate::ir::renderpass::DependencySets`).
    pub(crate) pre_sets: Vec<super::renderpass::DependencySets>,
    /// The subpass a render pass command starts, as a rendering instance.
    pub(crate) subpass: Option<Rendering>,
    /// For a `vkCmdBeginRenderPass`: every byte range of its framebuffer's
    /// views, where a framebuffer-local dependency inside the instance
    /// holds its memory dependency
    /// (`crate::ir::renderpass::subpass_barrier_parts`); empty otherwise.
    pub(crate) pass_attachments: super::renderpass::PassAttachments,
}

/// Why a rendering command is not well formed or not where it may be
/// (wrapped in [`ProgramErrorKind::Render`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// A draw or `vkCmdEndRendering` outside a rendering instance.
    #[error("{call} outside a rendering instance: it must be recorded between begin-rendering and end-rendering ({vuid})")]
    OutsideInstance {
        /// The Vulkan command.
        call: &'static str,
        /// The valid-usage id.
        vuid: &'static str,
    },
    /// A render pass command (`next-subpass`, `end-render-pass`) outside
    /// a render pass instance, or `clear-attachments` outside any.
    #[error("{call} outside {within} ({vuid})")]
    OutsidePass {
        /// The Vulkan command.
        call: &'static str,
        /// Where it must be recorded.
        within: &'static str,
        /// The valid-usage id.
        vuid: &'static str,
    },
    /// A submit or the end of the program with a render pass instance
    /// open (reported at its begin).
    #[error("{ends} while this render pass instance is open: end-render-pass must come first (VUID-vkEndCommandBuffer-commandBuffer-00060)")]
    PassNotEnded {
        /// What ends the command buffer.
        ends: String,
    },
    /// A command that must be recorded outside a render pass instance
    /// (`vkCmdBeginRendering`, dispatches, copies, clears, ...) inside one.
    #[error("{call} inside the rendering instance begun at command {begin}: it must be recorded outside one ({vuid})")]
    InsideInstance {
        /// The Vulkan command.
        call: &'static str,
        /// The index of the `vkCmdBeginRendering`.
        begin: usize,
        /// The valid-usage id.
        vuid: String,
    },
    /// A pipeline barrier inside a rendering instance.
    #[error(
        "a pipeline barrier inside the rendering instance begun at command {begin} is not modelled \
         (without VK_KHR_dynamic_rendering_local_read it is invalid: VUID-vkCmdPipelineBarrier2-None-06191)"
    )]
    BarrierInsideInstance {
        /// The index of the `vkCmdBeginRendering`.
        begin: usize,
    },
    /// A pipeline barrier inside a subpass of a render pass instance that
    /// breaks the valid usage of one there
    /// (`crate::ir::renderpass::check_subpass_barrier`).
    #[error("a pipeline barrier inside subpass {subpass}: barrier {barrier}: {what} ({vuid})")]
    SubpassBarrier {
        /// The subpass.
        subpass: usize,
        /// The barrier of the call (from 0).
        barrier: usize,
        /// What is wrong, naming the field.
        what: String,
        /// The valid-usage id.
        vuid: &'static str,
    },
    /// A `vkCmdWaitEvents2` or `vkCmdWaitEvents` inside a rendering
    /// instance that breaks the valid usage of one there: it may wait
    /// there (`renderpass="both"` in `vk.xml`), but with no `HOST` source
    /// stage, no layout transition and no ownership transfer
    /// (`check_wait_inside_instance` in this module).
    #[error(
        "{call} inside the rendering instance begun at command {begin}: barrier {barrier}: {what} ({vuid})"
    )]
    WaitInsideInstance {
        /// The Vulkan command.
        call: &'static str,
        /// The index of the begin of the instance.
        begin: usize,
        /// The barrier of the call (from 0, over all its events' barriers).
        barrier: usize,
        /// What is wrong, naming the field.
        what: String,
        /// The valid-usage id.
        vuid: &'static str,
    },
    /// A suspended rendering instance not resumed right after its
    /// suspending `vkCmdEndRendering`, or a resuming `vkCmdBeginRendering`
    /// with no instance suspended right before it or with other contents
    /// ([`Rendering::resuming`]).
    #[error("{what} ({vuid})")]
    Suspension {
        /// What is wrong, naming the commands.
        what: String,
        /// The valid-usage id, or the spec's sentence where none states it.
        vuid: &'static str,
    },
    /// A submit (the end of the command buffer) or the end of the program
    /// with a rendering instance open (reported at its begin).
    #[error("{ends} while this rendering instance is open: end-rendering must come first (VUID-vkEndCommandBuffer-commandBuffer-00060)")]
    NotEnded {
        /// What ends the command buffer: `the submit at command N` or `the trace's end`.
        ends: String,
    },
    /// A plan that would need a barrier inside a rendering instance
    /// (reported at the instance's begin in the planner's input).
    #[error(
        "planning needs a barrier inside this rendering instance, and barriers inside an instance are not planned \
         (a hazard between two of its commands, or between an earlier command and one of its draws): \
         place a barrier before begin-rendering or split the instance"
    )]
    PlanNeedsBarrierInside,
    /// A hazard between two commands of one rendering instance (this one
    /// and command `prior`): no barrier may be recorded between them, so
    /// no plan removes it. (Displayed with `prior` as a command index;
    /// [`RenderError::describe`] names its line.)
    #[error(
        "this command races {what} {}, and no barrier can order them \
         (a pipeline barrier inside an instance is invalid without VK_KHR_dynamic_rendering_local_read: \
         VUID-vkCmdPipelineBarrier2-None-06191): end the instance between them",
        place(*.prior, None)
    )]
    HazardInsideInstance {
        /// The earlier command, of the same instance.
        prior: usize,
        /// What made the earlier access (`the earlier draw of the same
        /// rendering instance`, `the load operations of this instance at
        /// its begin-rendering`).
        what: String,
    },
    /// A hazard between this command and command `prior` of one subpass
    /// of an instance of a render pass of several views that no subpass
    /// dependency orders: a draw's access of an attachment's image other
    /// than as an attachment (every view's) and a layout transition, load
    /// or store operation (one view's own). `fix` says what orders them
    /// (`crate::ir::renderpass::per_view_unorderable_fix`). (Displayed
    /// with `prior` as a command index; [`RenderError::describe`] names
    /// its line.)
    #[error("this command races the command {}: {fix}", place(*.prior, None))]
    HazardAcrossViews {
        /// The earlier command, of the same subpass.
        prior: usize,
        /// What orders them.
        fix: String,
    },
    /// A hazard between two commands of one subpass of a render pass
    /// instance (this one and command `prior`): no barrier may be recorded
    /// there, and only a subpass dependency orders them (`fix` says which).
    /// (Displayed with `prior` as a command index;
    /// [`RenderError::describe`] names its line.)
    #[error(
        "this command races {what} {}, and the planner does not place a barrier there (a \
         pipeline barrier inside a subpass needs a self-dependency of the subpass in the render-pass declaration, \
         VUID-vkCmdPipelineBarrier2-None-07889; the planner adds dependencies between subpasses, not \
         self-dependencies): {fix}",
        place(*.prior, None)
    )]
    HazardInsideSubpass {
        /// The earlier command, of the same subpass.
        prior: usize,
        /// What made the earlier access (`the earlier draw of the same
        /// subpass`, `the layout transition into this subpass at its
        /// next-subpass`, `the load operations of this subpass at its
        /// begin-render-pass`).
        what: String,
        /// What orders them: a subpass dependency into the subpass (named
        /// with its masks) when the earlier one is the subpass's start (its
        /// layout transition or load operation), else two subpasses.
        fix: String,
    },
    /// The same inside a render pass instance: the ordering needed falls
    /// inside a subpass or between two, where only the render pass's own
    /// subpass dependencies can give it.
    #[error(
        "planning needs an ordering inside this render pass instance (between two of its subpasses, or between an \
         earlier command and one of its draws), which only a subpass dependency of the render pass can give, and \
         none that the planner adds to the declaration gives it: add the dependency to the render-pass declaration"
    )]
    PlanNeedsSubpassDependency,
    /// `vkCmdNextSubpass` past the last subpass, or `vkCmdEndRenderPass`
    /// before it.
    #[error("{call} in subpass {current} of a render pass with {subpasses} subpass(es): next-subpass must be recorded subpass count - 1 times before end-render-pass ({vuid})")]
    SubpassCount {
        /// The Vulkan command.
        call: &'static str,
        /// The render pass's subpass count.
        subpasses: usize,
        /// The current subpass.
        current: usize,
        /// The valid-usage id.
        vuid: &'static str,
    },
    /// A draw's descriptor binding over the memory of an attachment of
    /// its own instance (`check_feedback_loops`).
    #[error(
        "{call}: binding {binding} {what}; without a feedback loop (VK_EXT_attachment_feedback_loop_layout, \
         not modelled) that is invalid ({vuid})"
    )]
    FeedbackLoop {
        /// The Vulkan command.
        call: &'static str,
        /// The binding's index in the draw.
        binding: usize,
        /// How it accesses which bytes of which attachment, and what
        /// writes the attachment (for a read).
        what: String,
        /// The valid-usage id.
        vuid: String,
    },
    /// A malformed operand.
    #[error("{call}: {reason}")]
    Bad {
        /// The Vulkan command.
        call: &'static str,
        /// What is wrong.
        reason: String,
    },
}

/// Whether a command of the rendering or render pass instance begun at
/// command `begin`, recorded before command `index`, or one of `own` (the
/// accesses command `index` makes before its stores: its resolves), writes
/// bytes of `regions` (an attachment's): a load operation that writes, a
/// draw, a clear, a resolve into it. What decides whether its `NONE` store
/// operation accesses it ([`Kind::store`]). A layout transition writes no
/// values and is not an access of the command.
pub(crate) fn written_in_instance(
    program: &Program,
    (begin, index): (usize, usize),
    own: &[(Region, StageAccess)],
    regions: &[Region],
) -> bool {
    let commands = &program.commands[begin.min(index)..index.min(program.commands.len())];
    let earlier = commands.iter().flat_map(|c| match c {
        Command::Render(rc) => rc.accesses(),
        _ => &[],
    });
    earlier.chain(own).any(|(r, sa)| {
        sa.is_write()
            && regions
                .iter()
                .any(|x| x.object == r.object && x.range.overlaps(r.range))
    })
}

/// `deps`, the implicit dependencies of command `index` of an open
/// instance (or subpass), less those over bytes no earlier command of it
/// accessed. Such a dependency's first synchronization scope holds no
/// operation, so nothing chains into it: "Because load operations always
/// happen first, external synchronization with attachment access only
/// needs to synchronize the load operations with previous commands; not
/// the operations within the render pass instance. This does not apply
/// when using VK_ATTACHMENT_LOAD_OP_NONE" (renderpass chapter, "Load
/// Operations"). With a load operation that accesses the bytes (the
/// begin's own access), every dependency stays; with `NONE` (or an
/// attachment a later subpass uses again, which loads nothing), a barrier
/// before the instance must hold the first draw's accesses itself. Before
/// the sixteenth session it chained into that draw's dependency and made
/// its accesses visible (review19: missed races in both checkers, and plans
/// the planners called clean).
pub(crate) fn after_an_access(
    program: &Program,
    index: usize,
    deps: Vec<ImplicitDependency>,
) -> Vec<ImplicitDependency> {
    let Some((begin, _)) = open_instance(&program.commands, index) else {
        return deps;
    };
    let earlier = &program.commands[begin..index.min(program.commands.len())];
    deps.into_iter()
        .filter(|d| {
            earlier.iter().any(|c| {
                matches!(c, Command::Render(rc) if rc.accesses().iter().any(|(r, _)| {
                    r.object == d.region.object && r.range.overlaps(d.region.range)
                }))
            })
        })
        .collect()
}

/// The command that begins the rendering instance command `index` is
/// recorded in: a dynamic instance's first `begin-rendering` (`index`
/// itself for one that does not resume), or a render pass's
/// `begin-render-pass` ([`super::renderpass::subpass_at`]); `None` outside
/// every instance.
pub(crate) fn instance_begin(commands: &[Command], index: usize) -> Option<usize> {
    if let Some(Command::Render(rc)) = commands.get(index) {
        if matches!(&rc.op, RenderOp::Begin(r) if !r.resuming) {
            return Some(index);
        }
    }
    // `open_instance` finds a render pass's subpass as a segment (its
    // `vkCmdNextSubpass` for a later subpass: review38, a fix "before the
    // next-subpass", inside the pass): the pass's begin is asked of
    // `subpass_at`.
    match open_instance(commands, index) {
        Some((b, _)) if !matches!(&commands[b], Command::Render(rc) if matches!(rc.op, RenderOp::NextSubpass | RenderOp::BeginPass(_))) => {
            Some(b)
        }
        _ => super::renderpass::subpass_at(commands, index).map(|(b, _)| b),
    }
}

/// The `vkCmdBeginRendering` of the instance open just before command
/// `index` (its index and op), if one is: the nearest begin with no end
/// after it; for an instance suspended and resumed, the begin that began
/// it (back through each resuming begin and the suspending end right
/// before it, [`Rendering::resuming`]).
pub(crate) fn open_instance(commands: &[Command], index: usize) -> Option<(usize, &Rendering)> {
    let mut at = index;
    loop {
        let (b, r) = open_segment(commands, at)?;
        let suspended = b > 0
            && matches!(&commands[b - 1], Command::Render(rc) if matches!(rc.op, RenderOp::End))
            && open_segment(commands, b - 1).is_some_and(|(_, s)| s.suspending);
        if !(r.resuming && suspended) {
            return Some((b, r));
        }
        at = b - 1;
    }
}

/// The `vkCmdBeginRendering` (resuming or not) whose segment of an
/// instance is open just before command `index`: the nearest begin with
/// no end after it.
fn open_segment(commands: &[Command], index: usize) -> Option<(usize, &Rendering)> {
    for (i, c) in commands[..index.min(commands.len())].iter().enumerate().rev() {
        match c {
            Command::Render(rc) => match &rc.op {
                RenderOp::Begin(r) => return Some((i, r)),
                // A subpass of a render pass instance.
                RenderOp::BeginPass(_) | RenderOp::NextSubpass => return rc.subpass.as_ref().map(|r| (i, r)),
                RenderOp::End | RenderOp::EndSubpass { .. } | RenderOp::EndPass => return None,
                RenderOp::Draw(_) | RenderOp::Clear(_) => {}
            },
            Command::Submit(_) => return None,
            _ => {}
        }
    }
    None
}

/// For each command of `commands`, the rendering instance it belongs to:
/// the command index of that instance's begin ([`RenderOp::begins_instance`]:
/// a `vkCmdBeginRendering`, or the `vkCmdBeginRenderPass` or
/// `vkCmdNextSubpass` that starts a subpass) for the begin itself, its
/// draws and clears and its end (`vkCmdEndRendering`, or the subpass's
/// end); `None` for every other command.
/// The implicit dependencies of an instance order that instance's accesses
/// only (module docs), so both checkers ask this of a prior access.
/// Computed from the recording order, not stored in the commands: a
/// planner inserting barriers moves the indices.
pub(crate) fn instance_begins(commands: &[Command]) -> Vec<Option<usize>> {
    let mut open = None;
    // The instance a suspending end left open for the resuming begin
    // right after it.
    let mut suspended = None;
    let mut suspends = false;
    commands
        .iter()
        .enumerate()
        .map(|(i, c)| match c {
            Command::Render(rc) if rc.op.begins_instance() => {
                open = Some(i);
                suspended = None;
                suspends = matches!(&rc.op, RenderOp::Begin(r) if r.suspending);
                open
            }
            Command::Render(rc) => match &rc.op {
                RenderOp::Begin(r) => {
                    // Resuming: the suspended instance goes on.
                    open = suspended.take();
                    suspends = r.suspending;
                    open
                }
                RenderOp::Draw(_) | RenderOp::Clear(_) => open,
                RenderOp::End if suspends => {
                    suspended = open;
                    open.take()
                }
                RenderOp::End | RenderOp::EndSubpass { .. } => open.take(),
                // (After its last subpass's end: no instance is open.)
                _ => None,
            },
            Command::Submit(_) => {
                open = None;
                None
            }
            _ => None,
        })
        .collect()
}

/// [`instance_begins`], with every command of a render pass instance (its
/// subpasses, its next-subpass and end commands) mapped to the pass's
/// `vkCmdBeginRenderPass`: where a barrier for any of them must go, since
/// none may be recorded inside the pass (and one between two subpasses
/// would not be a subpass dependency).
pub(crate) fn barrier_points(commands: &[Command]) -> Vec<Option<usize>> {
    let mut out = instance_begins(commands);
    let mut pass = None;
    for (i, c) in commands.iter().enumerate() {
        match c {
            Command::Render(rc) => {
                if matches!(rc.op, RenderOp::BeginPass(_)) {
                    pass = Some(i);
                }
                if pass.is_some() {
                    out[i] = pass;
                }
                if matches!(rc.op, RenderOp::EndPass) {
                    pass = None;
                }
            }
            Command::Submit(_) => pass = None,
            _ => {}
        }
    }
    out
}

/// Every stage an implicit dependency of a rendering instance names (both
/// attachment kinds').
pub(crate) fn implicit_stages() -> PipelineStageFlags2 {
    Kind::Color.stages() | Kind::Depth.stages()
}

/// An attachment's kind: the stage and access pairs of its load ops, of
/// its store ops, of a draw's reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Color,
    Depth,
}

impl Kind {
    /// The kind an image's format gives it: an input attachment's load
    /// and store operations run in its format's stages ("Load operations
    /// for attachments with a depth/stencil format execute in ...").
    pub(crate) fn of_format(program: &Program, image: ObjectId) -> Kind {
        match program.image(image) {
            Some(d) if d.format.aspect_mask() != AspectMask::of(Aspect::Color) => Kind::Depth,
            _ => Kind::Color,
        }
    }
    fn stages(self) -> PipelineStageFlags2 {
        match self {
            Kind::Color => PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT,
            Kind::Depth => {
                PipelineStageFlags2::EARLY_FRAGMENT_TESTS | PipelineStageFlags2::LATE_FRAGMENT_TESTS
            }
        }
    }
    fn access(self) -> AccessFlags2 {
        match self {
            Kind::Color => AccessFlags2::COLOR_ATTACHMENT_READ | AccessFlags2::COLOR_ATTACHMENT_WRITE,
            Kind::Depth => {
                AccessFlags2::DEPTH_STENCIL_ATTACHMENT_READ | AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE
            }
        }
    }
    /// "Load operations for attachments with a depth/stencil format
    /// execute in the VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT pipeline
    /// stage. Load operations for attachments with a color format execute
    /// in the VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT pipeline
    /// stage"; `LOAD` reads, `CLEAR` and `DONT_CARE` write, `NONE` does
    /// not access.
    pub(crate) fn load(self, op: LoadOp) -> Option<StageAccess> {
        use StageAccess::*;
        match (self, op) {
            (_, LoadOp::None) => None,
            (Kind::Color, LoadOp::Load) => Some(ColorAttachmentOutputColorRead),
            (Kind::Color, _) => Some(ColorAttachmentOutputColorWrite),
            (Kind::Depth, LoadOp::Load) => Some(EarlyFragmentTestsDepthStencilRead),
            (Kind::Depth, _) => Some(EarlyFragmentTestsDepthStencilWrite),
        }
    }
    /// Store operations "for attachments with a depth/stencil format
    /// execute in the VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT pipeline
    /// stage", for color ones in `COLOR_ATTACHMENT_OUTPUT`; `STORE` and
    /// `DONT_CARE` write. `NONE` does not access the attachment "as long as
    /// no values are written to the attachment during the render pass. If
    /// values are written during the render pass, this behaves identically
    /// to VK_ATTACHMENT_STORE_OP_DONT_CARE and with matching access
    /// semantics" (`VkAttachmentStoreOp`): `written` says whether a command
    /// of the instance wrote it ([`written_in_instance`]).
    pub(crate) fn store(self, op: StoreOp, written: bool) -> Option<StageAccess> {
        match (self, op) {
            (_, StoreOp::None) if !written => None,
            (Kind::Color, _) => Some(StageAccess::ColorAttachmentOutputColorWrite),
            (Kind::Depth, _) => Some(StageAccess::LateFragmentTestsDepthStencilWrite),
        }
    }
}

/// Whether an attachment's image format fits its role in
/// `VkRenderingInfo`: a color attachment needs `COLOR_ATTACHMENT` usage
/// (VUID-VkRenderingInfo-colorAttachmentCount-06087), a depth or stencil
/// one `DEPTH_STENCIL_ATTACHMENT` (-pDepthAttachment-06088,
/// -pStencilAttachment-06089), usages only formats of one kind can have
/// (`crate::vk::image::LAYOUT_RULES`, the one table of that fact, read
/// through the role's attachment layout); and a depth (stencil) view's
/// format includes a depth (stencil) aspect (-pDepthAttachment-06547,
/// -pStencilAttachment-06548). The model's depth attachment is both
/// `pDepthAttachment` and `pStencilAttachment`, one per aspect it names.
fn role_format(kind: Kind, what: &str, a: &Attachment, format: Format, image: &str) -> Result<(), String> {
    let (layout, usage, vuid) = match kind {
        Kind::Color => (
            ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            "COLOR_ATTACHMENT",
            "VUID-VkRenderingInfo-colorAttachmentCount-06087",
        ),
        Kind::Depth if a.range.aspects.has(Aspect::Depth) => (
            ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
            "DEPTH_STENCIL_ATTACHMENT",
            "VUID-VkRenderingInfo-pDepthAttachment-06088",
        ),
        Kind::Depth => (
            ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
            "DEPTH_STENCIL_ATTACHMENT",
            "VUID-VkRenderingInfo-pStencilAttachment-06089",
        ),
    };
    if let Some(rule) = layout.format_rule() {
        if !rule.fits(format) {
            return Err(format!(
                "{what}: image `{image}` is {format}, not a {} format, so it cannot have the {usage} usage \
                 the attachment needs ({vuid})",
                rule.needs()
            ));
        }
    }
    if kind == Kind::Depth {
        for (aspect, which, vuid) in [
            (
                Aspect::Depth,
                "pDepthAttachment",
                "VUID-VkRenderingInfo-pDepthAttachment-06547",
            ),
            (
                Aspect::Stencil,
                "pStencilAttachment",
                "VUID-VkRenderingInfo-pStencilAttachment-06548",
            ),
        ] {
            if a.range.aspects.has(aspect) && !format.aspect_mask().has(aspect) {
                return Err(format!(
                    "{what}: as {which}, image `{image}` needs a format with a {} aspect, and {format} has none ({vuid})",
                    aspect.name()
                ));
            }
        }
    }
    Ok(())
}

/// The feedback-loop rules of a draw at command `index` (`draw_common`'s
/// valid usage, "Render Pass" chapter, "Common Render Pass Data Races"):
/// its descriptor bindings must not write memory backing an attachment of
/// its instance (VUID-{call}-None-06537), nor read an attachment that the
/// instance's load, store or resolve operations or an earlier draw of the
/// instance write (-None-10795/-10796/-10797 for the color, depth and
/// stencil aspects), nor read one that this draw writes as an attachment
/// (-None-12338/-12339/-12340). The model has no feedback-loop layout or
/// pipeline flag (VK_EXT_attachment_feedback_loop_layout), the rules'
/// only exception. Decided in memory (`places`: each object's memory and
/// offset), so a buffer aliasing an attachment's image counts; only the
/// descriptor bindings are tested, since they are the draw's exact
/// non-attachment accesses as the model defines them (the whole bound
/// range), while an indexed draw's vertex reads are widened to the
/// buffer's end and could refuse a valid draw. Attachments are a
/// subpass's own (a render pass's other attachments are not tested).
pub(crate) fn check_feedback_loops(
    program: &Program,
    places: &[Option<(super::layout::MemId, u64)>],
    index: usize,
    d: &Draw,
) -> Result<(), RenderError> {
    let Some((begin, r)) = open_instance(&program.commands, index) else {
        return Ok(());
    };
    let call = program
        .commands
        .get(index)
        .map_or("vkCmdDraw", Command::vulkan_name);
    let at = |reg: Region| {
        let (mem, base) = places.get(reg.object.0 as usize).copied().flatten()?;
        Some((mem, reg.range.shift(base)))
    };
    // An optimal image meets another object over its whole bound range.
    let meets =
        |a: Region, b: Region| match (at(program.against(a, b.object)), at(program.against(b, a.object))) {
            (Some((m, x)), Some((n, y))) => m == n && x.start < y.end && y.start < x.end,
            _ => false,
        };
    // (attachment bytes, what writes them through the operations): each
    // view whole, not its render area (the rules speak of "memory backing
    // image subresources used as attachments", "the attachment's memory";
    // review28 found a write outside a `renderArea` let through).
    let mut atts: Vec<(Region, Option<&'static str>)> = Vec::new();
    let push = |atts: &mut Vec<_>, image, range, why| {
        for bytes in area_bytes(program, image, range, Area::default()).unwrap_or_default() {
            atts.push((
                Region {
                    object: image,
                    range: bytes,
                },
                why,
            ));
        }
    };
    for (_, a) in attachments(r) {
        let why = if matches!(a.load, LoadOp::Clear | LoadOp::DontCare) {
            Some("its load operation writes")
        } else if a.store != StoreOp::None {
            Some("its store operation writes")
        } else {
            None
        };
        push(&mut atts, a.image, a.range, why);
        if let Some((ri, rr, _)) = a.resolve {
            push(&mut atts, ri, rr, Some("its resolve operation writes"));
        }
    }
    for i in &r.inputs {
        push(
            &mut atts,
            i.image,
            i.range,
            i.load_writes.then_some("its load operation writes"),
        );
    }
    let written_by = |att: Region, commands: &[Command]| {
        commands.iter().any(|c| match c {
            Command::Render(rc) if matches!(rc.op, RenderOp::Draw(_)) => rc
                .accesses()
                .iter()
                .any(|(reg, sa)| sa.is_write() && is_attachment_access(*sa) && meets(*reg, att)),
            _ => false,
        })
    };
    let here = program.commands.get(index);
    for (bi, b) in d.bindings.iter().enumerate() {
        let writes = matches!(b.binding.access, BindingAccess::Write | BindingAccess::ReadWrite);
        for &(att, ops) in &atts {
            if !meets(b.binding.region, att) {
                continue;
            }
            let aspect = program
                .image(att.object)
                .and_then(|desc| desc.subresource_at(att.range.start))
                .map_or(Aspect::Color, |(a, _, _)| a);
            let per_aspect = |color: &str, depth: &str, stencil: &str| {
                let n = match aspect {
                    Aspect::Color => color,
                    Aspect::Depth => depth,
                    Aspect::Stencil => stencil,
                };
                format!("VUID-{call}-None-{n}")
            };
            let (verb, why, vuid) = if writes {
                ("writes", String::new(), format!("VUID-{call}-None-06537"))
            } else if let Some(w) = ops {
                (
                    "reads",
                    format!(", which {w}"),
                    per_aspect("10795", "10796", "10797"),
                )
            } else if written_by(
                att,
                &program.commands[begin + 1..index.min(program.commands.len())],
            ) {
                (
                    "reads",
                    ", which an earlier draw of the instance writes".to_string(),
                    per_aspect("10795", "10796", "10797"),
                )
            } else if written_by(att, here.map(std::slice::from_ref).unwrap_or_default()) {
                (
                    "reads",
                    ", which this draw writes as an attachment".to_string(),
                    per_aspect("12338", "12339", "12340"),
                )
            } else {
                continue;
            };
            return Err(RenderError::FeedbackLoop {
                call,
                binding: bi,
                what: format!(
                    "{verb} {}, memory of attachment {} of this instance{why}",
                    program.show_region(b.binding.region),
                    program.show_region(att)
                ),
                vuid,
            });
        }
    }
    Ok(())
}

/// Whether an access is an attachment access of a draw (color output,
/// depth/stencil tests, input attachment reads).
fn is_attachment_access(sa: StageAccess) -> bool {
    matches!(
        sa,
        StageAccess::ColorAttachmentOutputColorRead
            | StageAccess::ColorAttachmentOutputColorWrite
            | StageAccess::EarlyFragmentTestsDepthStencilRead
            | StageAccess::EarlyFragmentTestsDepthStencilWrite
            | StageAccess::LateFragmentTestsDepthStencilRead
            | StageAccess::LateFragmentTestsDepthStencilWrite
            | StageAccess::FragmentShaderInputAttachmentRead
    )
}

/// The attachments of an instance: (kind, attachment)./// The attachments of an instance: (kind, attachment).
fn attachments(r: &Rendering) -> impl Iterator<Item = (Kind, &Attachment)> {
    r.colors
        .iter()
        .map(|a| (Kind::Color, a))
        .chain(r.depth.iter().map(|a| (Kind::Depth, a)))
}

/// The render area the model takes for an instance whose attachment
/// views are `views` (the trace names none): from the origin, the largest
/// width and height every view holds, since the render area lies within
/// each view (VUID-VkRenderingInfo-pNext-06079, -06080; a framebuffer is no
/// larger than its attachments and holds the render area). `None` when a
/// view is not an image or a 3D image's (no clipping then: the whole view).
pub(crate) fn render_area(
    program: &Program,
    views: impl IntoIterator<Item = (ObjectId, SubresourceRange)>,
) -> Option<[u32; 2]> {
    let mut area: Option<[u32; 2]> = None;
    for (image, range) in views {
        let d = program.image(image)?;
        let [w, h, depth] = d.mip_extent(range.base_mip);
        if depth > 1 {
            return None;
        }
        area = Some(match area {
            Some([aw, ah]) => [aw.min(w), ah.min(h)],
            None => [w, h],
        });
    }
    area
}

/// The render area and the layers a `vkCmdBeginRendering` names against
/// its color and depth/stencil views ([`Rendering::render_area`],
/// [`Rendering::layer_count`], [`Rendering::view_mask`]): a nonzero
/// extent (VUID-VkRenderingInfo-None-08994, -08995), inside every view
/// (VUID-VkRenderingInfo-pNext-06079, -06080), a nonzero `layerCount`
/// (VUID-VkRenderingInfo-viewMask-06069), and the layers rendered present
/// in every view ("layerCount is the number of layers rendered to in each
/// attachment", "the view mask indicating the indices of attachment layers
/// that will be rendered").
fn check_area_and_views(program: &Program, r: &Rendering) -> Result<(), String> {
    if let Some([x, y, w, h]) = r.render_area {
        if w == 0 || h == 0 {
            return Err(format!(
                "renderArea {x},{y},{w},{h}: its extent must not be 0 (VUID-VkRenderingInfo-None-08994, -08995)"
            ));
        }
    }
    if r.view_mask == 0 && r.layer_count == Some(0) {
        return Err("layerCount 0 with viewMask 0 (VUID-VkRenderingInfo-viewMask-06069)".into());
    }
    // Each color and depth/stencil view, and each resolve view (for the
    // layers only: the area does not bound a resolve view, 06079/06080).
    let views = attachments(r).enumerate().flat_map(|(i, (kind, a))| {
        let what = match kind {
            Kind::Color => format!("pColorAttachments[{i}]"),
            Kind::Depth => "pDepthAttachment".to_string(),
        };
        let resolve = a
            .resolve
            .map(|(ri, rr, _)| (format!("{what}'s resolve target"), ri, rr, false));
        std::iter::once((what, a.image, a.range, true)).chain(resolve)
    });
    for (what, image, range, bounds_area) in views {
        let Some(d) = program.image(image) else {
            continue;
        };
        let [vw, vh, _] = d.mip_extent(range.base_mip);
        if let Some([x, y, w, h]) = r.render_area.filter(|_| bounds_area) {
            let vuids = [
                "VUID-VkRenderingInfo-pNext-06079",
                "VUID-VkRenderingInfo-pNext-06080",
            ];
            if let Some((axis, end, size, vuid)) = area_past([x, y, w, h], [vw, vh], vuids) {
                return Err(format!(
                    "renderArea {x},{y},{w},{h} ends at {end}, past the {axis} {size} of {what} `{}` ({vuid})",
                    name(program, image)
                ));
            }
        }
        if r.view_mask != 0 && d.extent[2] > 1 {
            return Err(format!(
                "{what} `{}` is a 3D image: multiview over its depth slices (a 2D array view of them, view v its \
                 slice v) is not modelled",
                name(program, image)
            ));
        }
        let Ok((_, _, _, l0, l1)) = d.resolve_range(range) else {
            continue;
        };
        let layers = l1 - l0;
        let needed = if r.view_mask != 0 {
            32 - r.view_mask.leading_zeros()
        } else {
            r.layer_count.unwrap_or(0)
        };
        if needed > layers {
            let which = if r.view_mask != 0 {
                format!(
                    "viewMask {:#b} renders layer {} of each view",
                    r.view_mask,
                    needed - 1
                )
            } else {
                format!("layerCount {needed} renders {needed} layers of each view")
            };
            return Err(format!(
                "{which}, and {what} `{}` has {layers} layer(s) (the layers rendered must be in every attachment view)",
                name(program, image)
            ));
        }
    }
    Ok(())
}

/// `renderArea` `area` (x, y, width, height) against `extent` (the width
/// and height it must lie in), with the VUID of each axis: the first axis
/// it passes, as (axis, where the area ends, the extent's size, VUID);
/// `None` when it lies inside. Summed in 64 bits, so no offset and extent
/// overflow.
pub(crate) fn area_past(
    area: [u32; 4],
    extent: [u32; 2],
    vuids: [&'static str; 2],
) -> Option<(&'static str, u64, u32, &'static str)> {
    let [x, y, w, h] = area;
    [("width", x, w), ("height", y, h)]
        .into_iter()
        .zip(extent.into_iter().zip(vuids))
        .map(|((axis, offset, size), (limit, vuid))| (axis, u64::from(offset) + u64::from(size), limit, vuid))
        .find(|&(_, end, limit, _)| end > u64::from(limit))
}

/// Where the operations of a rendering instance act in each attachment
/// view: a rectangle (offset and extent; `None`: the whole view) and the
/// layers (bits of their indices from the view's first layer; `None`:
/// every layer of the view).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Area {
    pub(crate) rect: Option<[u32; 4]>,
    pub(crate) layers: Layers,
}

/// The layers of each view an instance renders.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Layers {
    /// Every layer of the view.
    #[default]
    All,
    /// The first N (`layerCount`; more than 32 is common: review28 found
    /// a 32-bit mask dropping layers 32 and up).
    First(u32),
    /// Those whose index from the view's first layer is a bit of the
    /// mask (`viewMask`).
    Mask(u32),
}

impl Layers {
    /// Whether layer `k` of a view (from its first) is rendered.
    pub(crate) fn has(self, k: u32) -> bool {
        match self {
            Layers::All => true,
            Layers::First(n) => k < n,
            Layers::Mask(m) => k < 32 && m & (1 << k) != 0,
        }
    }
}

/// A render pass's area: the rectangle from the origin, every layer.
impl From<Option<[u32; 2]>> for Area {
    fn from(extent: Option<[u32; 2]>) -> Area {
        Area {
            rect: extent.map(|[w, h]| [0, 0, w, h]),
            layers: Layers::All,
        }
    }
}

/// The byte ranges of view `image`/`range` within `area`: the whole view
/// when the area covers it, else the rows of the area's rectangle in each
/// aspect and layer it renders. What load, store and resolve operations,
/// draws and clears touch: they act "within the render area" (a layout
/// transition covers the whole subresource, and does not come here).
pub(crate) fn area_bytes(
    program: &Program,
    image: ObjectId,
    range: SubresourceRange,
    area: impl Into<Area>,
) -> Result<Vec<ByteRange>, String> {
    let area: Area = area.into();
    let d = program.image(image).ok_or_else(|| {
        format!(
            "`{}` is not an image (declare it with `image`)",
            name(program, image)
        )
    })?;
    // A 3D image's view renders every depth slice ("the render area
    // extends to all layers of the framebuffer"; review29: only slice 0
    // was touched).
    let [w, h, depth] = d.mip_extent(range.base_mip);
    let (aspects, m0, _, l0, l1) = d.resolve_range(range)?;
    // A view smaller than the area (a resolve view, which does not bound
    // it) is touched as far as it goes.
    let [x, y, aw, ah] = area.rect.unwrap_or([0, 0, w, h]);
    let (x, y) = (x.min(w), y.min(h));
    let (aw, ah) = (aw.min(w - x), ah.min(h - y));
    let rendered = |k: u32| area.layers.has(k);
    // Each aspect's bytes apart, even where one aspect's end meets the
    // next's start (the depth of all layers, then the stencil): an
    // implicit dependency of a rendering instance is per attachment range
    // and is kept only after an access of its range
    // (`crate::ir::render::after_an_access`), so one range over both
    // aspects kept the stencil's after a depth-only load, and chained a
    // layout transition into the stencil reads through it (a race of a
    // view of several layers missed that a view of one layer reported;
    // found by the per-view expansion of multiview render passes,
    // `proptests/tests/roundtrip.rs`).
    let full = [x, y, aw, ah] == [0, 0, w, h] && (0..l1 - l0).all(rendered);
    let mut out = Vec::new();
    if full {
        for a in aspects.aspects() {
            out.extend(d.range_bytes(SubresourceRange {
                aspects: AspectMask::of(a),
                ..range
            })?);
        }
        return Ok(out);
    }
    if aw == 0 || ah == 0 {
        return Ok(out);
    }
    for a in aspects.aspects() {
        let first = out.len();
        for l in (l0..l1).filter(|l| rendered(l - l0)) {
            let s = SubresourceLayers {
                aspects: AspectMask::of(a),
                mip: m0,
                base_layer: l,
                layer_count: Some(1),
            };
            for r in d.rect_ranges(s, [x, y, 0], [aw, ah, depth.max(1)])? {
                // Whole consecutive layers (multiview's adjacent views)
                // are one range.
                match out[first..].last_mut() {
                    Some(last) if last.end == r.start => *last = ByteRange::new(last.start, r.end),
                    _ => out.push(r),
                }
            }
        }
    }
    Ok(out)
}

/// The render area of a rendering instance (or a render pass subpass):
/// [`Rendering::area`] when set, else [`render_area`] of its color and
/// depth/stencil views (not the resolve views: VUID-VkRenderingInfo-pNext-
/// 06079 and -06080 name those two kinds; review24 found the resolve view
/// bounding the operations but not the clears).
///
/// With `renderArea`, `layerCount` or `viewMask` in the trace
/// ([`Rendering::render_area`]), the rectangle and layers they give.
pub(crate) fn instance_area(program: &Program, r: &Rendering) -> Area {
    let extent = r.area.or_else(|| {
        let views = r.colors.iter().chain(&r.depth).map(|a| (a.image, a.range));
        render_area(program, views)
    });
    Area {
        rect: r.render_area.or(extent.map(|[w, h]| [0, 0, w, h])),
        layers: if r.view_mask != 0 {
            Layers::Mask(r.view_mask)
        } else {
            r.layer_count.map_or(Layers::All, Layers::First)
        },
    }
}

fn name(program: &Program, id: ObjectId) -> String {
    program.object(id).map_or("?".to_string(), |o| o.name.clone())
}

/// Every attachment byte range of an instance with its kind, resolve
/// targets as color.
fn instance_regions(program: &Program, r: &Rendering) -> Vec<(Kind, Region)> {
    let mut out = Vec::new();
    let area = instance_area(program, r);
    for (kind, a) in attachments(r) {
        let views = std::iter::once((a.image, a.range)).chain(a.resolve.map(|(i, s, _)| (i, s)));
        for (image, range) in views {
            for bytes in area_bytes(program, image, range, area).unwrap_or_default() {
                out.push((
                    kind,
                    Region {
                        object: image,
                        range: bytes,
                    },
                ));
            }
        }
    }
    out
}

pub(crate) fn implicit_of(program: &Program, r: &Rendering) -> Vec<ImplicitDependency> {
    let mut out: Vec<ImplicitDependency> = instance_regions(program, r)
        .into_iter()
        .map(|(kind, region)| ImplicitDependency {
            stages: kind.stages(),
            access: kind.access(),
            region,
        })
        .collect();
    // An input attachment's load operation (in its format's stages, when
    // its first use is this subpass) "happens-before any recorded command
    // which accesses the sample" in the subpass, the draws' input reads
    // among them, and its store operation (when its last use is this
    // subpass) happens after them: the attachment's stages with the
    // fragment shader's, both scopes exact. The input read is in the
    // access scopes only where the load writes (a read-after-write needs
    // it visible); the read before the store is a write-after-read, which
    // the execution dependency orders. Keeping the read out otherwise
    // keeps a subpass dependency that made the earlier subpass's write
    // available, but visible to other accesses only, from reaching the
    // read through this dependency. The subpass's draws do not write the
    // attachment (a feedback loop is refused by `RenderPass::validate`).
    let area = instance_area(program, r);
    for input in &r.inputs {
        let (image, range) = (input.image, input.range);
        let kind = Kind::of_format(program, image);
        let read = if input.load_writes {
            AccessFlags2::INPUT_ATTACHMENT_READ
        } else {
            AccessFlags2::NONE
        };
        for bytes in area_bytes(program, image, range, area).unwrap_or_default() {
            out.push(ImplicitDependency {
                stages: kind.stages() | PipelineStageFlags2::FRAGMENT_SHADER,
                access: kind.access() | read,
                region: Region {
                    object: image,
                    range: bytes,
                },
            });
        }
    }
    out
}

/// `[offset + first * size, offset + (first + count) * size)` of `buffer`,
/// checked against its size.
#[allow(clippy::too_many_arguments)]
fn elements(
    program: &Program,
    call: &'static str,
    what: &str,
    buffer: ObjectId,
    offset: u64,
    first: u64,
    count: u64,
    size: u64,
) -> Result<Option<Region>, RenderError> {
    if count == 0 {
        return Ok(None);
    }
    let bad = || RenderError::Bad {
        call,
        reason: format!("{what} of `{}` overflows 64 bits", name(program, buffer)),
    };
    let start = first
        .checked_mul(size)
        .and_then(|x| x.checked_add(offset))
        .ok_or_else(bad)?;
    let end = count
        .checked_mul(size)
        .and_then(|x| x.checked_add(start))
        .ok_or_else(bad)?;
    let total = program.object(buffer).map_or(0, |o| o.size);
    if end > total {
        return Err(RenderError::Bad {
            call,
            reason: format!(
                "{what}: bytes {start}..{end} of `{}`, past its size {total}",
                name(program, buffer)
            ),
        });
    }
    Ok(Some(Region {
        object: buffer,
        range: ByteRange::new(start, end),
    }))
}

/// From `offset` to the end of `buffer`: what a binding whose element
/// range the model cannot know (indexed or indirect draws) may read.
fn to_end(program: &Program, buffer: ObjectId, offset: u64) -> Option<Region> {
    let total = program.object(buffer).map_or(0, |o| o.size);
    (offset < total).then_some(Region {
        object: buffer,
        range: ByteRange::new(offset, total),
    })
}

impl RenderCommand {
    /// Builds the command recorded at `index` of `program` (the rendering
    /// instance open there gives a draw's and an end's attachments): its
    /// operands checked against the program's objects, its accesses and
    /// implicit dependencies computed.
    pub fn new(program: &Program, index: usize, op: RenderOp) -> Result<RenderCommand, RenderError> {
        let call = op.vulkan_name();
        let bad = |reason: String| RenderError::Bad { call, reason };
        let mut accesses: Vec<(Region, StageAccess)> = Vec::new();
        let mut implicit = Vec::new();
        let mut pre = Vec::new();
        let mut pre_scopes = Vec::new();
        let mut pre_sets = Vec::new();
        let mut subpass = None;
        let mut pass_attachments = super::renderpass::PassAttachments::default();
        match &op {
            RenderOp::BeginPass(_)
            | RenderOp::NextSubpass
            | RenderOp::EndSubpass { .. }
            | RenderOp::EndPass
            | RenderOp::Clear(_) => {
                let l = super::renderpass::lower(program, index, &op)?;
                for (b, scope, sets) in l.pre {
                    pre.push(b);
                    pre_scopes.push(scope);
                    pre_sets.push(sets);
                }
                implicit = l.implicit;
                accesses = l.accesses;
                subpass = l.subpass;
                pass_attachments = l.attachments;
            }
            RenderOp::Begin(r) => {
                if r.colors.is_empty() && r.depth.is_none() {
                    return Err(bad("a rendering instance needs at least one attachment".into()));
                }
                check_area_and_views(program, r).map_err(&bad)?;
                let area = instance_area(program, r);
                for (i, (kind, a)) in attachments(r).enumerate() {
                    let what = match kind {
                        Kind::Color => format!("pColorAttachments[{i}]"),
                        Kind::Depth => "pDepthAttachment".to_string(),
                    };
                    let d = program.image(a.image).ok_or_else(|| {
                        bad(format!(
                            "{what}: `{}` is not an image (declare it with `image`)",
                            name(program, a.image)
                        ))
                    })?;
                    role_format(kind, &what, a, d.format, &name(program, a.image)).map_err(&bad)?;
                    let (aspects, m0, m1, _, _) = d
                        .resolve_range(a.range)
                        .map_err(|e| bad(format!("{what}: {e}")))?;
                    if m1 - m0 != 1 {
                        return Err(bad(format!(
                            "{what}: an attachment view has one mip level (a color or depth/stencil \
                             attachment's view has a levelCount of 1); {} has {}",
                            a.range,
                            m1 - m0
                        )));
                    }
                    let color = aspects == AspectMask::of(Aspect::Color);
                    if color != (kind == Kind::Color) {
                        return Err(bad(format!(
                            "{what}: {} is {} aspect{}; a color attachment names COLOR, a depth/stencil one DEPTH and/or STENCIL",
                            a.range,
                            aspects,
                            if aspects.count() == 1 { "" } else { "s" }
                        )));
                    }
                    if let Some((ri, rr, _)) = a.resolve {
                        if kind == Kind::Depth {
                            return Err(bad(
                                "a depth/stencil resolve is not modelled (only color attachments resolve here)".into(),
                            ));
                        }
                        let rd = program.image(ri).ok_or_else(|| {
                            bad(format!(
                                "{what}: resolve target `{}` is not an image",
                                name(program, ri)
                            ))
                        })?;
                        rd.resolve_range(rr)
                            .map_err(|e| bad(format!("{what} resolve: {e}")))?;
                        if !rd.format.view_compatible(d.format) && !d.format.view_compatible(rd.format) {
                            return Err(bad(format!(
                                "{what}: resolve target `{}` is {} and the attachment `{}` is {}, of another size \
                                 compatibility class: no views of them have the same format \
                                 (VUID-VkRenderingAttachmentInfo-imageView-06865)",
                                name(program, ri),
                                rd.format,
                                name(program, a.image),
                                d.format
                            )));
                        }
                    }
                    for bytes in area_bytes(program, a.image, a.range, area).map_err(&bad)? {
                        // A resumed instance performed its load operations
                        // when it began.
                        if let Some(sa) = kind.load(a.load).filter(|_| !r.resuming) {
                            accesses.push((
                                Region {
                                    object: a.image,
                                    range: bytes,
                                },
                                sa,
                            ));
                        }
                    }
                }
            }
            RenderOp::End => {
                let Some((b, r)) = open_instance(&program.commands, index) else {
                    return Err(RenderError::OutsideInstance {
                        call,
                        vuid: "VUID-vkCmdEndRendering-renderpass",
                    });
                };
                if !matches!(&program.commands[b], Command::Render(rc) if matches!(rc.op, RenderOp::Begin(_)))
                {
                    return Err(bad(
                        "inside a render pass instance: end it with end-render-pass (VUID-vkCmdEndRendering-None-06161)"
                            .into(),
                    ));
                }
                // A suspended instance resolves and stores when it ends for
                // good, after it is resumed: this end makes no access.
                let suspends = open_segment(&program.commands, index).is_some_and(|(_, s)| s.suspending);
                if !suspends {
                    implicit = after_an_access(program, index, implicit_of(program, r));
                }
                // "Multisample resolve operations for attachments execute in
                // the VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT pipeline
                // stage", reading the attachment (COLOR_ATTACHMENT_READ) and
                // writing the resolve target (COLOR_ATTACHMENT_WRITE); then
                // the store operations.
                let area = instance_area(program, r);
                for (kind, a) in attachments(r).filter(|_| !suspends) {
                    let own = area_bytes(program, a.image, a.range, area).unwrap_or_default();
                    if let Some((ri, rr, _)) = a.resolve {
                        for bytes in &own {
                            accesses.push((
                                Region {
                                    object: a.image,
                                    range: *bytes,
                                },
                                StageAccess::ColorAttachmentOutputColorRead,
                            ));
                        }
                        for bytes in area_bytes(program, ri, rr, area).unwrap_or_default() {
                            accesses.push((
                                Region {
                                    object: ri,
                                    range: bytes,
                                },
                                StageAccess::ColorAttachmentOutputColorWrite,
                            ));
                        }
                    }
                    // Only a NONE store asks what the instance wrote.
                    let written = a.store == StoreOp::None && {
                        let own_regions: Vec<Region> = own
                            .iter()
                            .map(|&range| Region {
                                object: a.image,
                                range,
                            })
                            .collect();
                        written_in_instance(program, (b, index), &[], &own_regions)
                    };
                    if let Some(sa) = kind.store(a.store, written) {
                        for bytes in &own {
                            accesses.push((
                                Region {
                                    object: a.image,
                                    range: *bytes,
                                },
                                sa,
                            ));
                        }
                    }
                }
            }
            RenderOp::Draw(d) => {
                let Some((_, r)) = open_instance(&program.commands, index) else {
                    let cmd = call.trim_start_matches("vkCmd");
                    return Err(RenderError::OutsideInstance {
                        call,
                        vuid: match cmd {
                            "Draw" => "VUID-vkCmdDraw-renderpass",
                            "DrawIndexed" => "VUID-vkCmdDrawIndexed-renderpass",
                            "DrawIndirect" => "VUID-vkCmdDrawIndirect-renderpass",
                            "DrawIndexedIndirect" => "VUID-vkCmdDrawIndexedIndirect-renderpass",
                            "DrawIndirectCount" => "VUID-vkCmdDrawIndirectCount-renderpass",
                            _ => "VUID-vkCmdDrawIndexedIndirectCount-renderpass",
                        },
                    });
                };
                implicit = after_an_access(program, index, implicit_of(program, r));
                accesses = draw_accesses(program, call, d, r)?;
            }
        }
        Ok(RenderCommand {
            op,
            accesses,
            implicit,
            pre,
            pre_scopes,
            pre_sets,
            subpass,
            pass_attachments,
        })
    }

    /// For a `vkCmdBeginRenderPass`: its framebuffer's attachment bytes
    /// (`crate::ir::renderpass::pass_attachments`).
    pub(crate) fn pass_attachments(&self) -> &super::renderpass::PassAttachments {
        &self.pass_attachments
    }

    /// Its accesses, in order.
    pub fn accesses(&self) -> &[(Region, StageAccess)] {
        &self.accesses
    }

    /// The implicit dependencies applied before its accesses (module
    /// docs).
    pub fn implicit(&self) -> &[ImplicitDependency] {
        &self.implicit
    }

    /// The barriers applied before its implicit dependencies and accesses
    /// (a render pass's subpass dependencies and automatic layout
    /// transitions, `crate::ir::renderpass`): as a `barrier` recorded
    /// just before it.
    pub fn pre_barriers(&self) -> &[super::program::Barrier] {
        &self.pre
    }

    /// The scopes of each of [`RenderCommand::pre_barriers`].
    pub(crate) fn pre_scopes(&self) -> &[PassScope] {
        &self.pre_scopes
    }

    /// The masks of each layout transition's first and second sets of
    /// dependencies among [`RenderCommand::pre_barriers`] (empty for a
    /// dependency): `crate::ir::renderpass::DependencySets`.
    pub(crate) fn pre_sets(&self) -> &[super::renderpass::DependencySets] {
        &self.pre_sets
    }
}

/// The most indirect records read as separate ranges; more are read as
/// their hull (wider: it may report a write between records).
const MAX_SEPARATE_RECORDS: u32 = 256;

/// The reads of `count` indirect records `stride` apart from `offset`
/// (`VkDrawIndirectCommand` is 16 bytes, `VkDrawIndexedIndirectCommand`
/// 20): each record's own bytes, not the gaps between them ("parameters
/// taken from buffer starting at offset and increasing by stride bytes
/// for each successive draw"; a review found the hull reported a write to
/// a gap as a race). Past [`MAX_SEPARATE_RECORDS`] records, their hull.
#[allow(clippy::too_many_arguments)]
fn record_reads(
    program: &Program,
    call: &'static str,
    out: &mut Vec<(Region, StageAccess)>,
    indexed: bool,
    buffer: ObjectId,
    offset: u64,
    count: u32,
    stride: u32,
) -> Result<(), RenderError> {
    if count == 0 {
        return Ok(());
    }
    let size: u64 = if indexed { 20 } else { 16 };
    let stride = u64::from(stride);
    if stride <= size || count > MAX_SEPARATE_RECORDS {
        let n = u64::from(count - 1) * stride + size;
        if let Some(reg) = elements(program, call, "the indirect records", buffer, offset, 0, n, 1)? {
            out.push((reg, StageAccess::DrawIndirectIndirectCommandRead));
        }
        return Ok(());
    }
    for k in 0..u64::from(count) {
        let at = k
            .checked_mul(stride)
            .and_then(|x| x.checked_add(offset))
            .ok_or_else(|| RenderError::Bad {
                call,
                reason: format!(
                    "the indirect records of `{}` overflow 64 bits",
                    name(program, buffer)
                ),
            })?;
        if let Some(reg) = elements(program, call, "the indirect records", buffer, at, 0, size, 1)? {
            out.push((reg, StageAccess::DrawIndirectIndirectCommandRead));
        }
    }
    Ok(())
}

/// A draw's accesses: indirect and count buffers (`DRAW_INDIRECT`), the
/// index buffer (`INDEX_INPUT`), vertex buffers (`VERTEX_ATTRIBUTE_INPUT`),
/// descriptor bindings (their shader stage), the depth/stencil tests,
/// blending and color writes.
fn draw_accesses(
    program: &Program,
    call: &'static str,
    d: &Draw,
    r: &Rendering,
) -> Result<Vec<(Region, StageAccess)>, RenderError> {
    let bad = |reason: String| RenderError::Bad { call, reason };
    // "If drawCount is greater than 1, stride must be a multiple of 4 and
    // must be greater than or equal to sizeof(VkDrawIndirectCommand)" (16;
    // sizeof(VkDrawIndexedIndirectCommand), 20, for an indexed draw); the
    // count variants ask it whatever the count.
    let stride_ok = |indexed: bool, stride: u32, vuid: &str| {
        let size = if indexed { 20 } else { 16 };
        if !stride.is_multiple_of(4) || stride < size {
            Err(bad(format!(
                "stride {stride} must be a multiple of 4 and at least {size}, the size of one {} ({vuid})",
                if indexed {
                    "VkDrawIndexedIndirectCommand"
                } else {
                    "VkDrawIndirectCommand"
                }
            )))
        } else {
            Ok(())
        }
    };
    match d.kind {
        DrawKind::Indirect {
            indexed,
            draw_count,
            stride,
            ..
        } if draw_count > 1 => stride_ok(
            indexed,
            stride,
            if indexed {
                "VUID-vkCmdDrawIndexedIndirect-drawCount-00528"
            } else {
                "VUID-vkCmdDrawIndirect-drawCount-00476"
            },
        )?,
        DrawKind::IndirectCount { indexed, stride, .. } => stride_ok(
            indexed,
            stride,
            if indexed {
                "VUID-vkCmdDrawIndexedIndirectCount-stride-03142"
            } else {
                "VUID-vkCmdDrawIndirectCount-stride-03110"
            },
        )?,
        _ => {}
    }
    if let Some(ib) = d.index {
        let size = ib.index_type.size();
        if !ib.offset.is_multiple_of(size) {
            // "The sum of offset and the base address of the range of
            // VkDeviceMemory object that is backing buffer, must be a
            // multiple of the size of the type indicated by indexType"
            // (the model's buffers start at such a multiple).
            return Err(bad(format!(
                "the index buffer's offset {} is not a multiple of {size}, the size of its index type \
                 (VUID-vkCmdBindIndexBuffer-offset-08783)",
                ib.offset
            )));
        }
    }
    // A bound offset lies inside its buffer, whatever the draw reads
    // (review37: offsets past the end were accepted wherever the draw read
    // no element there, an indexed, indirect or empty draw).
    let size_of = |b: ObjectId| program.object(b).map_or(0, |o| o.size);
    if let Some(ib) = d.index.filter(|ib| ib.offset >= size_of(ib.buffer)) {
        return Err(bad(format!(
            "the index buffer's offset {} is not less than the size {} of `{}` (VUID-vkCmdBindIndexBuffer-offset-08782)",
            ib.offset,
            size_of(ib.buffer),
            name(program, ib.buffer)
        )));
    }
    for (i, v) in d.vertex.iter().enumerate() {
        if v.offset >= size_of(v.buffer) {
            return Err(bad(format!(
                "vertex binding {i}: the offset {} is not less than the size {} of `{}` \
                 (VUID-vkCmdBindVertexBuffers-pOffsets-00626)",
                v.offset,
                size_of(v.buffer),
                name(program, v.buffer)
            )));
        }
    }
    let mut out = Vec::new();
    match d.kind {
        DrawKind::Indirect {
            indexed,
            buffer,
            offset,
            draw_count,
            stride,
        } => {
            record_reads(
                program, call, &mut out, indexed, buffer, offset, draw_count, stride,
            )?;
        }
        DrawKind::IndirectCount {
            indexed,
            buffer,
            offset,
            count_buffer,
            count_offset,
            max_draw_count,
            stride,
        } => {
            if let Some(reg) = elements(program, call, "the count", count_buffer, count_offset, 0, 4, 1)? {
                out.push((reg, StageAccess::DrawIndirectIndirectCommandRead));
            }
            record_reads(
                program,
                call,
                &mut out,
                indexed,
                buffer,
                offset,
                max_draw_count,
                stride,
            )?;
        }
        _ => {}
    }
    // A draw of no vertices, indices or instances (or no indirect draws)
    // assembles no primitive: no shader invocation, no fragment operation,
    // no vertex or index fetch. Only its indirect parameters are read
    // (above); the rest below is still built, for its valid usage, and
    // dropped at the end. Its attachments are not written, so a `NONE`
    // store after it makes no access either (review19: such draws raised
    // false write-after-writes).
    let indirect_reads = out.len();
    let empty = match d.kind {
        DrawKind::Draw {
            vertex_count,
            instance_count,
            ..
        } => vertex_count == 0 || instance_count == 0,
        DrawKind::DrawIndexed {
            index_count,
            instance_count,
            ..
        } => index_count == 0 || instance_count == 0,
        DrawKind::Indirect { draw_count, .. } => draw_count == 0,
        DrawKind::IndirectCount { max_draw_count, .. } => max_draw_count == 0,
    };
    if d.kind.indexed() {
        let Some(ib) = d.index else {
            return Err(bad("an indexed draw needs an `index` buffer".into()));
        };
        let reg = match d.kind {
            DrawKind::DrawIndexed {
                index_count,
                first_index,
                ..
            } => elements(
                program,
                call,
                "the indices",
                ib.buffer,
                ib.offset,
                u64::from(first_index),
                u64::from(index_count),
                ib.index_type.size(),
            )?,
            // The records are data: any index from the bound offset on.
            _ => to_end(program, ib.buffer, ib.offset),
        };
        if let Some(reg) = reg {
            out.push((reg, StageAccess::IndexInputIndexRead));
        }
    } else if d.index.is_some() {
        return Err(bad(
            "a non-indexed draw reads no index buffer: drop `index`".into()
        ));
    }
    for (i, v) in d.vertex.iter().enumerate() {
        if v.stride == 0 {
            return Err(bad(format!("vertex binding {i}: a stride of 0 is not modelled")));
        }
        let what = format!("vertex binding {i}");
        // The elements a binding's rate reads: vertices of a plain draw,
        // instances of either draw.
        let read = match (d.kind, v.rate) {
            (
                DrawKind::Draw {
                    vertex_count,
                    first_vertex,
                    ..
                },
                VertexRate::Vertex,
            ) => Some((first_vertex, vertex_count)),
            (
                DrawKind::Draw {
                    instance_count,
                    first_instance,
                    ..
                }
                | DrawKind::DrawIndexed {
                    instance_count,
                    first_instance,
                    ..
                },
                VertexRate::Instance,
            ) => Some((first_instance, instance_count)),
            _ => None,
        };
        let reg = match read {
            Some((first, count)) => elements(
                program,
                call,
                &what,
                v.buffer,
                v.offset,
                u64::from(first),
                u64::from(count),
                v.stride,
            )?,
            // Indexed vertices and indirect parameters are data the model
            // does not read: the binding from its offset to the buffer's
            // end (wider is sound: it only finds more conflicts).
            None => to_end(program, v.buffer, v.offset),
        };
        if let Some(reg) = reg {
            out.push((reg, StageAccess::VertexAttributeInputVertexAttributeRead));
        }
    }
    for b in &d.bindings {
        for &sa in b.stage.stage_accesses(b.binding.access) {
            out.push((b.binding.region, sa));
        }
    }
    for (kind, region) in instance_regions(program, r) {
        // Resolve targets are written at the end only.
        let is_resolve = r
            .colors
            .iter()
            .any(|a| a.resolve.is_some_and(|x| x.0 == region.object))
            && !r.colors.iter().any(|a| a.image == region.object);
        if is_resolve {
            continue;
        }
        match kind {
            Kind::Depth => {
                if d.depth_test || d.depth_write {
                    out.push((region, StageAccess::EarlyFragmentTestsDepthStencilRead));
                }
                if d.depth_write {
                    out.push((region, StageAccess::LateFragmentTestsDepthStencilWrite));
                }
            }
            Kind::Color => {
                if d.blend {
                    out.push((region, StageAccess::ColorAttachmentOutputColorRead));
                }
                if d.color_write {
                    out.push((region, StageAccess::ColorAttachmentOutputColorWrite));
                }
            }
        }
    }
    // The subpass's input attachments: the fragment shader may read any
    // pixel's own sample of each, so a draw reads all their bytes (as it
    // writes all of its color attachments'), whether or not its shader
    // declares the attachment (the trace does not say).
    let area = instance_area(program, r);
    for &InputAttachment { image, range, .. } in &r.inputs {
        for bytes in area_bytes(program, image, range, area).map_err(&bad)? {
            out.push((
                Region {
                    object: image,
                    range: bytes,
                },
                StageAccess::FragmentShaderInputAttachmentRead,
            ));
        }
    }
    if empty {
        out.truncate(indirect_reads);
    }
    Ok(out)
}

/// Why `vkCmdBeginRendering` may not name `l` as the `imageLayout` of an
/// attachment whose view has `aspects` (`resolve`: as its
/// `resolveImageLayout`): the VUID that forbids it, from
/// `VkRenderingAttachmentInfo` (every attachment) and `VkRenderingInfo`
/// (by role; the model's depth attachment is `pDepthAttachment` for its
/// depth aspect and `pStencilAttachment` for its stencil one, and the
/// first of the two that forbids the layout is named). `None` where the
/// layout is valid and the model takes it. The one layout no VUID forbids
/// and the model does not take, a color attachment in
/// `READ_ONLY_OPTIMAL` ("Image Layouts": a read-only layout, and a color
/// attachment is written), is named as such, not given a VUID.
pub(crate) fn rendering_layout_refusal(
    aspects: AspectMask,
    l: ImageLayout,
    resolve: bool,
) -> Option<&'static str> {
    use ImageLayout as L;
    let color = aspects == AspectMask::of(Aspect::Color);
    let (depth, stencil) = (aspects.has(Aspect::Depth), aspects.has(Aspect::Stencil));
    // Every attachment (VkRenderingAttachmentInfo), then by role; a
    // resolve target is written, so its rules also refuse the read-only
    // layouts.
    let vuid = match (l, resolve) {
        (
            L::UNDEFINED
            | L::SHADER_READ_ONLY_OPTIMAL
            | L::TRANSFER_SRC_OPTIMAL
            | L::TRANSFER_DST_OPTIMAL
            | L::PREINITIALIZED,
            false,
        ) => "VUID-VkRenderingAttachmentInfo-imageView-06135",
        (
            L::UNDEFINED
            | L::DEPTH_STENCIL_READ_ONLY_OPTIMAL
            | L::SHADER_READ_ONLY_OPTIMAL
            | L::TRANSFER_SRC_OPTIMAL
            | L::TRANSFER_DST_OPTIMAL
            | L::PREINITIALIZED,
            true,
        ) => "VUID-VkRenderingAttachmentInfo-imageView-06136",
        (L::DEPTH_READ_ONLY_OPTIMAL | L::STENCIL_READ_ONLY_OPTIMAL, true) => {
            "VUID-VkRenderingAttachmentInfo-imageView-06137"
        }
        (L::READ_ONLY_OPTIMAL, true) => "VUID-VkRenderingAttachmentInfo-imageView-06142",
        (L::PRESENT_SRC_KHR, false) => "VUID-VkRenderingAttachmentInfo-imageView-06145",
        (L::PRESENT_SRC_KHR, true) => "VUID-VkRenderingAttachmentInfo-imageView-06146",
        (L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL | L::DEPTH_STENCIL_READ_ONLY_OPTIMAL, _) if color => {
            if resolve {
                "VUID-VkRenderingInfo-colorAttachmentCount-06091"
            } else {
                "VUID-VkRenderingInfo-colorAttachmentCount-06090"
            }
        }
        (
            L::DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL | L::DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL,
            _,
        ) if color => {
            if resolve {
                "VUID-VkRenderingInfo-colorAttachmentCount-06097"
            } else {
                "VUID-VkRenderingInfo-colorAttachmentCount-06096"
            }
        }
        (
            L::DEPTH_ATTACHMENT_OPTIMAL
            | L::DEPTH_READ_ONLY_OPTIMAL
            | L::STENCIL_ATTACHMENT_OPTIMAL
            | L::STENCIL_READ_ONLY_OPTIMAL,
            _,
        ) if color => {
            if resolve {
                "VUID-VkRenderingInfo-colorAttachmentCount-06101"
            } else {
                "VUID-VkRenderingInfo-colorAttachmentCount-06100"
            }
        }
        (L::READ_ONLY_OPTIMAL, false) if color => {
            "no valid usage forbids it, but the model does not take a color attachment in a read-only layout"
        }
        (L::COLOR_ATTACHMENT_OPTIMAL, false) if depth => "VUID-VkRenderingInfo-pDepthAttachment-06092",
        (L::COLOR_ATTACHMENT_OPTIMAL, true) if depth => "VUID-VkRenderingInfo-pDepthAttachment-06093",
        (L::COLOR_ATTACHMENT_OPTIMAL, false) if stencil => "VUID-VkRenderingInfo-pStencilAttachment-06094",
        (L::COLOR_ATTACHMENT_OPTIMAL, true) if stencil => "VUID-VkRenderingInfo-pStencilAttachment-06095",
        (L::DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL, true) if depth => {
            "VUID-VkRenderingInfo-pDepthAttachment-06098"
        }
        (L::DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL, true) if stencil => {
            "VUID-VkRenderingInfo-pStencilAttachment-06099"
        }
        (L::STENCIL_ATTACHMENT_OPTIMAL | L::STENCIL_READ_ONLY_OPTIMAL, false) if depth => {
            "VUID-VkRenderingInfo-pDepthAttachment-07732"
        }
        (L::STENCIL_ATTACHMENT_OPTIMAL, true) if depth => "VUID-VkRenderingInfo-pDepthAttachment-07733",
        (L::DEPTH_ATTACHMENT_OPTIMAL | L::DEPTH_READ_ONLY_OPTIMAL, false) if stencil => {
            "VUID-VkRenderingInfo-pStencilAttachment-07734"
        }
        (L::DEPTH_ATTACHMENT_OPTIMAL, true) if stencil => "VUID-VkRenderingInfo-pStencilAttachment-07735",
        _ => return None,
    };
    Some(vuid)
}

/// The subresources an instance uses with the layouts it names, for the
/// layout rules: (image, range, layout, whether it is a resolve target) of
/// each attachment and resolve target.
pub(crate) fn layout_uses(r: &Rendering) -> Vec<(ObjectId, SubresourceRange, ImageLayout, bool)> {
    let mut out = Vec::new();
    for (_, a) in attachments(r) {
        out.push((a.image, a.range, a.layout, false));
        if let Some((image, range, layout)) = a.resolve {
            out.push((image, range, layout, true));
        }
    }
    out
}

/// Where rendering commands may be recorded, in recording order: a draw
/// or an end only inside an instance (checked when built), a begin only
/// outside one (VUID-vkCmdBeginRendering-renderpass), no device command
/// but draws inside one (each command's `-renderpass` VUID: "This command
/// must only be called outside of a render pass instance"), no pipeline
/// barrier inside a dynamic one (refused, see
/// [`RenderError::BarrierInsideInstance`]) and inside a render pass
/// instance only one its valid usage allows
/// (`crate::ir::renderpass::check_subpass_barrier`), and every instance ended before its command buffer is submitted or the
/// program ends.
pub(crate) fn check_instances(program: &Program) -> Result<(), ProgramError> {
    let mut open: Option<usize> = None;
    // The begin of the segment a suspending end just closed.
    let mut suspended: Option<usize> = None;
    let is_pass = |begin: usize| matches!(&program.commands[begin], Command::Render(rc) if matches!(rc.op, RenderOp::BeginPass(_)));
    let not_ended = |begin: usize, ends: String| {
        if is_pass(begin) {
            RenderError::PassNotEnded { ends }
        } else {
            RenderError::NotEnded { ends }
        }
    };
    let err = |at: usize, e: RenderError| ProgramError {
        at: Location::Command(at),
        kind: ProgramErrorKind::Render(Box::new(e)),
    };
    for (i, c) in program.commands.iter().enumerate() {
        if let Some(seg) = suspended.take() {
            check_resumed(program, seg, i).map_err(|e| err(i, e))?;
        } else if let Command::Render(rc) = c {
            if matches!(&rc.op, RenderOp::Begin(r) if r.resuming) {
                return Err(err(
                    i,
                    RenderError::Suspension {
                        what:
                            "vkCmdBeginRendering resumes a rendering instance (`resuming`), but the command \
                               before it is no end-rendering of an instance begun `suspending`"
                                .into(),
                        vuid: "VUID-VkSubmitInfo2-commandBuffer-06192",
                    },
                ));
            }
        }
        match (c, open) {
            (Command::Render(rc), _) => match rc.op {
                RenderOp::Begin(_) | RenderOp::BeginPass(_) => {
                    if let Some(begin) = open {
                        let call = rc.op.vulkan_name();
                        return Err(err(
                            i,
                            RenderError::InsideInstance {
                                call,
                                begin,
                                vuid: format!("VUID-{call}-renderpass"),
                            },
                        ));
                    }
                    open = Some(i);
                }
                RenderOp::NextSubpass | RenderOp::EndSubpass { .. } | RenderOp::Clear(_) => {}
                RenderOp::EndPass => open = None,
                RenderOp::End => {
                    if open.is_none() {
                        return Err(err(
                            i,
                            RenderError::OutsideInstance {
                                call: "vkCmdEndRendering",
                                vuid: "VUID-vkCmdEndRendering-renderpass",
                            },
                        ));
                    }
                    let seg = open.take();
                    suspended = seg.filter(|&b| {
                        matches!(&program.commands[b], Command::Render(rc) if matches!(&rc.op, RenderOp::Begin(r) if r.suspending))
                    });
                }
                RenderOp::Draw(_) => {
                    if open.is_none() {
                        return Err(err(
                            i,
                            RenderError::OutsideInstance {
                                call: rc.op.vulkan_name(),
                                vuid: "VUID-vkCmdDraw-renderpass",
                            },
                        ));
                    }
                }
            },
            // Inside a render pass instance a barrier is valid in a
            // subpass with a self-dependency that covers it; inside a
            // dynamic rendering instance it is refused.
            (Command::Barrier(d), Some(begin)) if !d.barriers.is_empty() && is_pass(begin) => {
                super::renderpass::check_subpass_barrier(program, i, d).map_err(|e| err(i, e))?;
            }
            (Command::Barrier(d), Some(begin)) if !d.barriers.is_empty() => {
                return Err(err(i, RenderError::BarrierInsideInstance { begin }));
            }
            (Command::Submit(_), Some(begin)) => {
                return Err(err(
                    begin,
                    not_ended(begin, format!("the command buffer is submitted (command {i})")),
                ))
            }
            // An event wait may be recorded inside an instance (unlike
            // the set and the reset): its second scope is every later
            // command, as outside one.
            (Command::WaitEvents { .. } | Command::WaitEvents1 { .. }, Some(begin)) => {
                check_wait_inside_instance(program, c, begin).map_err(|e| err(i, e))?;
            }
            (c, Some(begin)) if super::access::is_device_command(c) || is_event_command(c) => {
                let call = c.vulkan_name();
                return Err(err(
                    i,
                    RenderError::InsideInstance {
                        call,
                        begin,
                        vuid: format!("VUID-{call}-renderpass"),
                    },
                ));
            }
            _ => {}
        }
    }
    if let Some(seg) = suspended {
        return Err(err(
            seg,
            RenderError::Suspension {
                what: "this rendering instance is begun `suspending`, and the trace ends after its end-rendering: \
                       a resuming begin-rendering must follow in the same submission"
                    .into(),
                vuid: "VUID-VkSubmitInfo2-commandBuffer-06010",
            },
        ));
    }
    match open {
        Some(begin) => Err(err(begin, not_ended(begin, "the trace ends".into()))),
        None => Ok(()),
    }
}

/// Command `i` comes right after the end of a segment begun `suspending`
/// at command `seg` ([`Rendering::suspending`]): it must be the
/// `vkCmdBeginRendering` that resumes the instance, with the same
/// contents ("No action or synchronization commands, or other render pass
/// instances, are allowed between suspending and resuming render pass
/// instances").
fn check_resumed(program: &Program, seg: usize, i: usize) -> Result<(), RenderError> {
    let Command::Render(rc) = &program.commands[seg] else {
        return Ok(());
    };
    let RenderOp::Begin(before) = &rc.op else {
        return Ok(());
    };
    let (what, vuid) = match &program.commands[i] {
        Command::Render(rc) => match &rc.op {
            RenderOp::Begin(r) if r.resuming => {
                if r.matches_but_flags(before) {
                    return Ok(());
                }
                (
                    format!(
                        "vkCmdBeginRendering resumes the instance suspended after command {seg} with other \
                         attachments, layouts or operations: the contents of pRenderingInfo must match but for \
                         the flags"
                    ),
                    "VkRenderingFlagBits",
                )
            }
            RenderOp::Begin(_) | RenderOp::BeginPass(_) => (
                format!(
                    "{} begins another render pass instance while the one begun at command {seg} is suspended",
                    rc.op.vulkan_name()
                ),
                "VUID-VkSubmitInfo2-commandBuffer-06012",
            ),
            _ => (
                format!(
                    "{} comes between the suspending end of the instance begun at command {seg} and the \
                     begin-rendering that resumes it",
                    rc.op.vulkan_name()
                ),
                "VUID-VkSubmitInfo2-commandBuffer-06011",
            ),
        },
        Command::Submit(_) => (
            format!(
                "the command buffer is submitted while the instance begun at command {seg} is suspended: it must \
                 be resumed in the same submission"
            ),
            "VUID-VkSubmitInfo2-commandBuffer-06010",
        ),
        c => (
            format!(
                "{} comes between the suspending end of the instance begun at command {seg} and the begin-rendering \
                 that resumes it",
                c.vulkan_name()
            ),
            "VUID-VkSubmitInfo2-commandBuffer-06011",
        ),
    };
    Err(RenderError::Suspension { what, vuid })
}

/// Refuses a plan of `input` whose program has a barrier inside a
/// rendering instance ([`RenderError::PlanNeedsBarrierInside`], at that
/// instance's `vkCmdBeginRendering` in `input`: the k-th begin of one is
/// the k-th of the other, since planners insert barriers, waits and
/// submits only). The planners place every barrier an instance needs
/// before its begin (`plan::points::Deadlines::device`) and refuse a
/// hazard inside one first ([`refuse_hazard_inside`]): this is the net
/// for a baseline that places one inside all the same (per-object).
pub(crate) fn refuse_barrier_inside(input: &Program, planned: &Program) -> Result<(), ProgramError> {
    let begins = |p: &Program| -> Vec<usize> {
        p.commands
            .iter()
            .enumerate()
            .filter(|(_, c)| {
                matches!(c, Command::Render(rc) if matches!(rc.op, RenderOp::Begin(_) | RenderOp::BeginPass(_)))
            })
            .map(|(i, _)| i)
            .collect()
    };
    let ours = begins(input);
    let mut k = 0usize;
    let mut inside: Option<(usize, bool)> = None;
    for c in &planned.commands {
        match c {
            Command::Render(rc) if matches!(rc.op, RenderOp::Begin(_) | RenderOp::BeginPass(_)) => {
                inside = Some((k, matches!(rc.op, RenderOp::BeginPass(_))));
                k += 1;
            }
            Command::Render(rc) if matches!(rc.op, RenderOp::End | RenderOp::EndPass) => inside = None,
            Command::Barrier(d) if !d.barriers.is_empty() => {
                if let Some((j, pass)) = inside {
                    return Err(ProgramError {
                        at: Location::Command(ours.get(j).copied().unwrap_or(0)),
                        kind: ProgramErrorKind::Render(Box::new(if pass {
                            RenderError::PlanNeedsSubpassDependency
                        } else {
                            RenderError::PlanNeedsBarrierInside
                        })),
                    });
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Where command `prior` is, for a message: `on line L` when `line_of`
/// knows its line, else `(command N)`.
fn place(prior: usize, line_of: Option<&dyn Fn(usize) -> Option<usize>>) -> String {
    match line_of.and_then(|f| f(prior)) {
        Some(line) => format!("on line {line}"),
        None => format!("(command {prior})"),
    }
}

impl RenderError {
    /// The message, with the earlier command of a hazard inside an
    /// instance named by its line where `line_of` (command index to
    /// 1-based line) knows it, as every other message names a line: what
    /// `vksync plan` prints. `Display` names the command's index.
    pub fn describe(&self, line_of: &dyn Fn(usize) -> Option<usize>) -> String {
        let full = self.to_string();
        match self {
            RenderError::HazardInsideInstance { prior, .. }
            | RenderError::HazardInsideSubpass { prior, .. }
            | RenderError::HazardAcrossViews { prior, .. } => {
                // The index form occurs once, right after `what` (the
                // format above); the rest of the text is the same.
                full.replacen(&place(*prior, None), &place(*prior, Some(line_of)), 1)
            }
            _ => full,
        }
    }
}

/// What command `prior` of `program` did to race (`h`'s earlier access),
/// as a noun phrase its place follows: for the start of the subpass (of
/// the instance, `subpass` `None`), its layout transition or its load
/// operations, which the start's line records; else the earlier command.
fn prior_what(program: &Program, h: &crate::Hazard, subpass: Option<usize>) -> String {
    let within = if subpass.is_some() { "subpass" } else { "instance" };
    let Some(Command::Render(rc)) = program.commands.get(h.prior_command) else {
        return format!("an earlier command of the same {within}");
    };
    let keyword = rc.op.keyword();
    let starts = matches!(
        rc.op,
        RenderOp::Begin(_) | RenderOp::BeginPass(_) | RenderOp::NextSubpass
    );
    match starts {
        true if h.prior.is_layout_transition() => {
            format!("the layout transition into this {within} at its {keyword}")
        }
        true => format!("the load operations of this {within} at its {keyword}"),
        false if subpass.is_some() => format!("the earlier {keyword} of the same subpass"),
        false => format!("the earlier {keyword} of the same rendering instance"),
    }
}

/// Refuses to plan a program one of whose `hazards` (indices into
/// `program`) has both ends inside one rendering instance
/// ([`RenderError::HazardInsideInstance`], or `HazardInsideSubpass` in a
/// render pass, at the later command): a barrier can only go before the
/// instance's begin, which orders neither end after the other. Then, the
/// same for both ends in two subpasses of one render pass instance
/// ([`RenderError::PlanNeedsSubpassDependency`]): the only place for a
/// barrier is before the pass's begin (the planners' deadline for every
/// subpass, `plan::points::Deadlines`, would otherwise fall at or before
/// the earlier end).
pub(crate) fn refuse_hazard_inside(program: &Program, hazards: &[crate::Hazard]) -> Result<(), ProgramError> {
    // Both ends under one place: an instance's begin, or (for the
    // barrier points) a render pass's, which every subpass shares.
    let under_one = |places: &[Option<usize>]| {
        let of = |i: usize| places.get(i).copied().flatten();
        hazards
            .iter()
            .find(|h| of(h.command).is_some() && of(h.command) == of(h.prior_command))
    };
    let (h, kind) = if let Some(h) = under_one(&instance_begins(&program.commands)) {
        let kind = match subpass_of(program, h.command) {
            Some(k) => RenderError::HazardInsideSubpass {
                prior: h.prior_command,
                what: prior_what(program, h, Some(k)),
                fix: subpass_fix(program, h, k),
            },
            None => RenderError::HazardInsideInstance {
                prior: h.prior_command,
                what: prior_what(program, h, None),
            },
        };
        (h, kind)
    } else if let Some(h) = under_one(&barrier_points(&program.commands)) {
        // One no subpass dependency orders (a view's own operation against
        // every view's read of its layer) says so and what does.
        let kind = match super::renderpass::per_view_unorderable_fix(
            program,
            (h.prior_command, h.prior),
            (h.command, h.current),
        ) {
            Some(fix) => RenderError::HazardAcrossViews {
                prior: h.prior_command,
                fix,
            },
            None => RenderError::PlanNeedsSubpassDependency,
        };
        (h, kind)
    } else {
        return Ok(());
    };
    Err(ProgramError {
        at: Location::Command(h.command),
        kind: ProgramErrorKind::Render(Box::new(kind)),
    })
}

/// The subpass index of command `index` when it is recorded in a render
/// pass instance (its `vkCmdBeginRenderPass` or `vkCmdNextSubpass`
/// included).
fn subpass_of(program: &Program, index: usize) -> Option<usize> {
    super::renderpass::subpass_at(&program.commands, index).map(|(_, s)| s)
}

/// The fix for hazard `h` inside subpass `k`: when the earlier access is
/// the layout transition into the subpass, a dependency into it whose
/// destination scope holds the later access (the transition "happen-before the visibility operations for all
/// dependencies with that subpass as the dstSubpass"); else the two
/// commands in two subpasses with a dependency between them.
fn subpass_fix(program: &Program, h: &crate::Hazard, k: usize) -> String {
    let starts = matches!(program.commands.get(h.prior_command),
        Some(Command::Render(rc)) if matches!(rc.op, RenderOp::BeginPass(_) | RenderOp::NextSubpass));
    if starts && h.prior.is_layout_transition() {
        let src = if k == 0 {
            "EXTERNAL".to_string()
        } else {
            (k - 1).to_string()
        };
        format!(
            "add `dependency {src}->{k} NONE:NONE -> {}:{}` (or add those masks to the destination of one) to the \
             render-pass declaration: the layout transition into subpass {k} happens-before the visibility operations of \
             the dependencies into it",
            h.current.stage().flag(),
            if h.kind == crate::HazardKind::WriteAfterRead {
                "NONE".to_string()
            } else {
                h.current.access().to_string()
            },
        )
    } else {
        h.fix
            .barrier
            .and_then(|b| super::renderpass::same_subpass_fix(program, h.prior_command, h.command, &b))
            .unwrap_or_else(|| {
                format!(
                    "record them in two subpasses with a dependency {k}->{} between them",
                    k + 1
                )
            })
    }
}

/// Checks an event wait `c` recorded inside the rendering instance begun
/// at `begin` against the valid usage of one there (the synchronization
/// chapter's common render pass rules of `vkCmdWaitEvents2` and
/// `vkCmdWaitEvents`): no `HOST` source stage (VUID-vkCmdWaitEvents2-dependencyFlags-03844,
/// VUID-vkCmdWaitEvents-srcStageMask-07308), image barriers with equal
/// layouts (-oldLayout-01181) and no queue family ownership transfer
/// (-srcQueueFamilyIndex-01182). Unlike a pipeline barrier there, nothing
/// limits its scopes to the subpass: its first scope is its set's, its
/// second every later command.
fn check_wait_inside_instance(program: &Program, c: &Command, begin: usize) -> Result<(), RenderError> {
    // Each barrier with its place: (the element of pDependencyInfos, for
    // a vkCmdWaitEvents2 of several events; its index there).
    type Placed<'a> = Vec<(Option<usize>, usize, &'a Barrier)>;
    let (call, v2, barriers): (&'static str, bool, Placed) = match c {
        Command::WaitEvents { waits } => (
            "vkCmdWaitEvents2",
            true,
            waits
                .iter()
                .enumerate()
                .flat_map(|(k, w)| {
                    let k = (waits.len() > 1).then_some(k);
                    w.dependency
                        .barriers
                        .iter()
                        .enumerate()
                        .map(move |(j, b)| (k, j, b))
                })
                .collect(),
        ),
        Command::WaitEvents1 { dependency, .. } => (
            "vkCmdWaitEvents",
            false,
            dependency
                .barriers
                .iter()
                .enumerate()
                .map(|(j, b)| (None, j, b))
                .collect(),
        ),
        _ => return Ok(()),
    };
    for &(k, i, b) in &barriers {
        let err = |what: String, vuid: &'static str| RenderError::WaitInsideInstance {
            call,
            begin,
            barrier: i,
            what: match k {
                Some(k) => format!("(of pDependencyInfos[{k}]) {what}"),
                None => what,
            },
            vuid,
        };
        if b.src_stage_mask.contains(PipelineStageFlags2::HOST) {
            let vuid = if v2 {
                "VUID-vkCmdWaitEvents2-dependencyFlags-03844"
            } else {
                "VUID-vkCmdWaitEvents-srcStageMask-07308"
            };
            let what =
                "srcStageMask includes HOST (wait for an event the host sets outside a render pass instance)";
            return Err(err(what.into(), vuid));
        }
        if let Some(o) = b.ownership {
            return Err(err(
                format!(
                    "a queue family ownership transfer (srcQueueFamilyIndex {} != dstQueueFamilyIndex {})",
                    o.src_queue_family, o.dst_queue_family
                ),
                if v2 {
                    "VUID-vkCmdWaitEvents2-srcQueueFamilyIndex-01182"
                } else {
                    "VUID-vkCmdWaitEvents-srcQueueFamilyIndex-01182"
                },
            ));
        }
        if let Some(ib) = b.image.and_then(|r| program.image_barrier(r)) {
            if ib.old_layout != ib.new_layout {
                return Err(err(
                    format!(
                        "a layout transition (oldLayout {} != newLayout {})",
                        ib.old_layout, ib.new_layout
                    ),
                    if v2 {
                        "VUID-vkCmdWaitEvents2-oldLayout-01181"
                    } else {
                        "VUID-vkCmdWaitEvents-oldLayout-01181"
                    },
                ));
            }
        }
    }
    Ok(())
}

pub(crate) fn is_event_command(c: &Command) -> bool {
    matches!(
        c,
        Command::SetEvent { .. }
            | Command::WaitEvents { .. }
            | Command::SetEvent1 { .. }
            | Command::WaitEvents1 { .. }
            | Command::ResetEvent { .. }
    )
}
