//! The recording state of one device: what the application created and
//! recorded, turned into a vksync [`Program`] in submission order.
//!
//! This module owns [`Capture`]: the maps from Vulkan handles (as raw
//! `u64`) to what the trace needs (memory objects, buffers and where they
//! are bound, shaders with their reflection, descriptor set layouts,
//! pipeline layouts, compute pipelines, descriptor sets, descriptor update
//! templates (which buffer descriptors each writes, and where in the
//! application's data), per-command-buffer bound state with push
//! descriptor sets and recorded commands, fences), and the output file. It is
//! safe Rust and calls no Vulkan: `layer.rs` reads the application's
//! structures and mapped memory and hands plain values in.
//!
//! Invariants:
//!
//! - The program only grows, in submission order: a command buffer's
//!   commands are kept aside while it is recorded and appended at the
//!   `vkQueueSubmit` that submits it, followed by `submit`. The one
//!   `submit` the application did not make is a marker
//!   (`Capture::mark`): an empty batch signalling a fresh timeline
//!   semaphore `mkN`, so that a host wait that other threads' submissions
//!   overlapped (or a fence of an older submission) can be written where
//!   it returned as `host-wait mkN 1`, claiming exactly what it waited for.
//! - Every memory object is a trace `buffer mN SIZE`; every `VkBuffer`
//!   bound to it is `buffer bK SIZE alias mN OFFSET` (with `exclusive`
//!   where its sharing mode is), so buffers bound to overlapping memory
//!   share state, as aliasing does on the device.
//! - Nothing is dropped silently: a call that touches memory and that the
//!   model cannot express becomes a `not-modelled ...` line in
//!   its place and is counted ([`Capture::not_modelled`]); so does a
//!   command the model's builder rejects.
//! - Nothing here panics on unexpected input: unknown handles become
//!   not-modelled notes.

use crate::reflect::{Bindings, GraphicsStage, Kind, ReflectError, Reflection, Resource, Resources, Use};
use crate::sync1::{to_model, ModelMasks};
use ash::vk;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use vksync::trace::{Annotations, Writer};
use vksync::RenderOp;
use vksync::{
    region_accesses, Barrier, Binding, BindingAccess, ByteRange, Command, Dependency, EventId, EventWait,
    ImageCopy, ObjectId, PipelineStageFlags2, Program, QueueId, Region, Semantics, SemaphoreId,
    SemaphoreSignal, SemaphoreType, SemaphoreWait, SharingMode, Stage, StageAccess, Submission, WaitFor,
};

mod graphics;
pub use graphics::{
    Attachments, DrawCall, GraphicsInfo, RenderPassInfo, RenderingAttachment, RenderingInfo, SubpassInfo,
};
use graphics::{CbGraphics, GfxPipeline, RenderPass};

/// Why a trace could not be written.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// Writing or renaming the trace file failed.
    #[error("writing the trace {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// An entry recorded into a command buffer (or waiting for the next
/// submission): a command with its comment, or a comment line.
#[derive(Clone, Debug)]
enum Entry {
    Cmd(Command, String),
    /// A comment line.
    Note(String),
    /// A call the model cannot express, as `CALL #SEQ (WHY)`: a
    /// `not-modelled` line; the second string ends its comment (`in
    /// cb0, label a`, for one recorded in a command buffer).
    NotModelled(String, String),
    /// A rendering command (`begin-rendering`, `end-rendering`, a draw),
    /// made a [`Command`] when it is appended: whether it is well placed
    /// depends on the commands submitted before it.
    Render(RenderOp, String),
    /// A render pass line (`render-pass`, `begin-render-pass`,
    /// `next-subpass`, `end-render-pass`, `clear-attachments`) and its
    /// comment, written as text (`graphics.rs`, "Render passes").
    Raw(String, String),
    /// A dispatch or draw whose descriptors are read at the submission,
    /// and its comment (`CALL #SEQ in cb0`).
    Deferred(Box<Deferred>, String),
    /// A draw whose shaders read an input attachment descriptor
    /// (`subpassLoad`), and its comment: inside a render pass the
    /// subpass's input reference charges that read, and it is a draw
    /// line; elsewhere (dynamic rendering with
    /// `VK_KHR_dynamic_rendering_local_read`) a `not-modelled` line, not a
    /// draw that silently reads nothing. Which of the two is known only
    /// at the submission (`Capture::render_entry`).
    InputDraw(vksync::Draw, String),
}

struct Memory {
    obj: ObjectId,
    size: u64,
    /// Mapped range and the shadow copy of its bytes as last seen.
    map: Option<Mapping>,
}

struct Mapping {
    offset: u64,
    shadow: Vec<u8>,
}

struct Buffer {
    size: u64,
    /// `VK_SHARING_MODE_EXCLUSIVE`: its trace object says `exclusive`, and
    /// its ownership transfers are modelled.
    exclusive: bool,
    /// The trace object, once bound.
    obj: Option<ObjectId>,
}

/// What `vkCreateImage` said about an image: what the model's `image`
/// declaration needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageInfo {
    /// `format`.
    pub format: vk::Format,
    /// `imageType`.
    pub image_type: vk::ImageType,
    /// `extent` (width, height, depth).
    pub extent: [u32; 3],
    /// `mipLevels`.
    pub mips: u32,
    /// `arrayLayers`.
    pub layers: u32,
    /// `tiling`.
    pub tiling: vk::ImageTiling,
    /// `sharingMode` is `VK_SHARING_MODE_EXCLUSIVE`.
    pub exclusive: bool,
    /// `initialLayout` is `VK_IMAGE_LAYOUT_PREINITIALIZED` (its trace
    /// `image` says `initial PREINITIALIZED`, so a transition from it is
    /// valid); `UNDEFINED` otherwise.
    pub preinitialized: bool,
}

/// A `VkImage`: declared exactly (`image`) when the model knows its format
/// and its notional bytes fit where it is bound, coarsely (the memory range
/// it is bound to) otherwise.
struct Image {
    info: ImageInfo,
    /// The trace object, once bound.
    obj: Option<ObjectId>,
    /// The trace object is an `image` declaration (subresources and
    /// layouts), not a `buffer` over its memory.
    exact: bool,
    /// A linear image's subresources' `VkSubresourceLayout`s, which the
    /// layer asks the driver for before the bind
    /// ([`Capture::linear_layout`]).
    linear: Option<Vec<SubLayout>>,
}

/// What `vkGetImageSubresourceLayout` says of one subresource of a linear
/// image: the subresource (aspect, mip, layer) and its layout, in the
/// model's type (compared with [`vksync::ImageDesc::subresource_layout`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubLayout {
    /// The aspect (one bit), mip level and array layer.
    pub subresource: (u32, u32, u32),
    /// `VkSubresourceLayout`.
    pub layout: vksync::SubresourceLayout,
}

/// The most subresources of a linear image the capture asks the layouts
/// of (past it the image is declared coarsely).
pub const MAX_LINEAR_SUBRESOURCES: usize = 4096;

struct Shader {
    index: usize,
    reflection: Result<Reflection, String>,
    /// Every descriptor binding each entry point uses, by kind
    /// ([`crate::reflect::reflect_resources`]).
    resources: BTreeMap<String, BTreeMap<(u32, u32), Resource>>,
    /// The same for each graphics entry point, by stage and name.
    graphics: BTreeMap<(GraphicsStage, String), Bindings>,
}

#[derive(Clone)]
struct LayoutBinding {
    binding: u32,
    ty: vk::DescriptorType,
    count: u32,
    /// `VkDescriptorSetLayoutBindingFlagsCreateInfo`'s flags for it
    /// (descriptor indexing): `UPDATE_AFTER_BIND` makes the commands that
    /// use it read it at the submission, `PARTIALLY_BOUND` lets any of
    /// its elements stay unwritten.
    flags: vk::DescriptorBindingFlags,
}

struct Pipeline {
    kernel: String,
    /// Uses by `(set, binding)`.
    uses: BTreeMap<(u32, u32), Use>,
    note: Option<String>,
    /// Bindings its entry point uses that are neither buffers, images
    /// nor texel buffers (not modelled).
    images: usize,
    /// Its texel-buffer bindings and how it uses each.
    texel_uses: BTreeMap<(u32, u32), Use>,
    /// Its image bindings and how it uses each, by `(set, binding)`.
    image_uses: BTreeMap<(u32, u32), Use>,
    /// Its descriptor arrays indexed with constants only, with those
    /// elements (one bit each; [`crate::reflect::Resource::elements`]):
    /// the other elements are not accessed, whatever they hold.
    elements: BTreeMap<(u32, u32), u64>,
}

#[derive(Clone, Copy)]
struct Desc {
    obj: ObjectId,
    buffer_size: u64,
    offset: u64,
    range: u64,
}

#[derive(Clone)]
struct Set {
    layout: u64,
    /// Buffer descriptors by `(binding, element)`, ordered so that one
    /// binding's written elements are a range (a bindless array of 2^20
    /// elements with a few written is walked over those few).
    descs: BTreeMap<(u32, u32), Desc>,
    /// Image descriptors (storage, sampled, combined image sampler): the
    /// `VkImageView` and `imageLayout`, by `(binding, element)`.
    images: BTreeMap<(u32, u32), (u64, vk::ImageLayout)>,
    /// Texel buffer descriptors (uniform, storage): the `VkBufferView`, by
    /// `(binding, element)`.
    texels: BTreeMap<(u32, u32), u64>,
}

/// A dispatch or draw that uses a binding of a set whose layout gives it
/// `VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT`: the application may
/// write that binding's descriptors after the command is recorded, up to
/// the submission ("the descriptors ... may be updated between recording
/// the command buffer and executing it"), so the command is made from
/// the sets as they are at each submission (`Capture::submitted_entries`),
/// with the bind state it was recorded with: the bound sets and their
/// dynamic offsets, the push descriptors, the pipeline.
#[derive(Clone)]
enum Deferred {
    Dispatch {
        pipeline: Option<u64>,
        sets: HashMap<u32, BoundSet>,
        push: HashMap<u32, Set>,
        indirect: Option<(u64, u64)>,
    },
    Draw {
        gfx: Box<CbGraphics>,
        call: DrawCall,
    },
}

impl std::fmt::Debug for Deferred {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Deferred::Dispatch { pipeline, .. } => write!(f, "Deferred::Dispatch({pipeline:?})"),
            Deferred::Draw { call, .. } => write!(f, "Deferred::Draw({call:?})"),
        }
    }
}

/// A `VkQueryPool` as `vkCmdCopyQueryPoolResults` needs it: the trace
/// object `qpN` that stands for its results (a buffer of `queryCount`
/// times the most bytes a query's results take, which only these copies
/// read: the queries' own writes are not modelled, and "vkCmdCopyQueryPoolResults
/// is guaranteed to see the effect of previous uses of vkCmdResetQueryPool
/// in the same queue, without any additional synchronization"), and how
/// many values one query has (`None`: a query type the layer does not
/// size).
struct QueryPool {
    obj: Option<ObjectId>,
    count: u32,
    values: Option<u32>,
}

/// A `VkImageView`: its image and subresource range (raw, as
/// [`BarrierTarget::Image`] keeps one).
#[derive(Clone, Copy)]
struct View {
    image: u64,
    range: [u32; 5],
}

/// A bound descriptor set and its dynamic offsets by `(binding, element)`.
/// The set handle [`PUSHED`] stands for the command buffer's push
/// descriptor set of that number.
type BoundSet = (u64, HashMap<(u32, u32), u64>);

/// What [`Capture::bound_binding`] finds: the set, its dynamic offsets,
/// the layout binding, the element count, and whether it is partially
/// bound.
type BoundBinding<'a> = (
    &'a Set,
    &'a HashMap<(u32, u32), u64>,
    Option<&'a LayoutBinding>,
    u32,
    bool,
);

/// The bound-set handle of a push descriptor set (no `VkDescriptorSet` is
/// null).
const PUSHED: u64 = 0;

/// One descriptor that a descriptor update template writes: where it goes
/// (binding, array element), what it is, and where its
/// `VkDescriptorBufferInfo`, `VkDescriptorImageInfo` or `VkBufferView`
/// lies in the application's data (`offset + k * stride` of the entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TemplateSlot {
    /// What the data holds there.
    pub kind: SlotKind,
    /// `dstBinding` of the entry.
    pub binding: u32,
    /// `dstArrayElement` of the entry plus the descriptor's index in it.
    pub element: u32,
    /// Byte offset of the descriptor's info in `pData`.
    pub offset: usize,
}

/// One batch of a queue submission (a `VkSubmitInfo` or `VkSubmitInfo2`),
/// as the layer reads it. Semaphore operations are `(VkSemaphore, value,
/// synchronization-2 stage mask)`; the value is ignored for a binary
/// semaphore.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Batch {
    /// The command buffers, in order.
    pub cbs: Vec<u64>,
    /// Semaphore waits, with `pWaitDstStageMask` (or `stageMask`).
    pub waits: Vec<(u64, u64, u64)>,
    /// Semaphore signals (`ALL_COMMANDS` for `vkQueueSubmit`).
    pub signals: Vec<(u64, u64, u64)>,
}

/// What a host wait waits for.
#[derive(Clone, Copy, Debug)]
pub enum WaitOn<'a> {
    /// `vkWaitForFences` (all of them) or `vkGetFenceStatus` returning
    /// `VK_SUCCESS`.
    Fences(&'a [u64]),
    /// `vkQueueWaitIdle`.
    Queue(u64),
    /// `vkDeviceWaitIdle`.
    Device,
}

/// The submissions a host wait covers, per queue: the latest of each
/// queue it waits for, as of when it was called ([`Capture::begin_wait`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WaitScope(HashMap<QueueId, usize>);

/// A host wait in flight: [`Capture::begin_wait`] hands it out when the
/// wait is called, [`Capture::end_wait`] takes it back when it returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaitToken(u64);

/// One buffer or image memory barrier of a pipeline barrier, as the layer
/// reads it (synchronization-2 masks: src stages, src access, dst stages,
/// dst access).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceBarrier {
    /// The masks, raw.
    pub masks: [u64; 4],
    /// What it covers.
    pub target: BarrierTarget,
    /// `(srcQueueFamilyIndex, dstQueueFamilyIndex)` where they differ: a
    /// queue family ownership transfer (see [`queue_families`]).
    pub queue_families: Option<(u32, u32)>,
}

/// A memory barrier's queue family indices as a [`ResourceBarrier`] keeps
/// them: `None` where they are equal (no ownership transfer).
pub fn queue_families(src: u32, dst: u32) -> Option<(u32, u32)> {
    (src != dst).then_some((src, dst))
}

/// A queue family index that names a family of this device (not
/// `VK_QUEUE_FAMILY_IGNORED`, `_EXTERNAL` or `_FOREIGN_EXT`).
fn device_family(family: u32) -> bool {
    ![
        vk::QUEUE_FAMILY_IGNORED,
        vk::QUEUE_FAMILY_EXTERNAL,
        vk::QUEUE_FAMILY_FOREIGN_EXT,
    ]
    .contains(&family)
}

/// The resource of a [`ResourceBarrier`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierTarget {
    /// A buffer range (offset, size; `VK_WHOLE_SIZE` allowed).
    Buffer {
        /// The `VkBuffer`.
        buffer: u64,
        /// `offset`.
        offset: u64,
        /// `size`.
        size: u64,
    },
    /// An image memory barrier: over its subresource range of an image
    /// declared exactly, over all of its memory of a coarse one.
    Image {
        /// The `VkImage`.
        image: u64,
        /// `subresourceRange`, raw: aspect mask, base mip, mip count, base
        /// layer, layer count (`VK_REMAINING_*` as Vulkan's value).
        range: [u32; 5],
        /// `oldLayout`.
        old_layout: vk::ImageLayout,
        /// `newLayout`.
        new_layout: vk::ImageLayout,
    },
}

impl BarrierTarget {
    /// An image barrier that changes the layout.
    fn transition(&self) -> bool {
        matches!(self, BarrierTarget::Image { old_layout, new_layout, .. } if old_layout != new_layout)
    }
}

/// The model's subresource range of a raw one ([`BarrierTarget::Image`]'s
/// order; `VK_REMAINING_*` becomes `None`).
pub fn model_range(r: [u32; 5]) -> vksync::SubresourceRange {
    let count = |n: u32| (n != vk::REMAINING_MIP_LEVELS).then_some(n);
    vksync::SubresourceRange {
        aspects: vksync::AspectMask(r[0]),
        base_mip: r[1],
        mip_count: count(r[2]),
        base_layer: r[3],
        layer_count: count(r[4]),
    }
}

/// One buffer descriptor of a write, a push or a template: binding, array
/// element, buffer handle, offset, range.
pub type BufferWrite = (u32, u32, u64, u64, u64);

/// One image descriptor (storage image, sampled image, combined image
/// sampler) of a write, a push or a template: binding, array element,
/// `VkImageView`, `imageLayout`.
pub type ImageWrite = (u32, u32, u64, vk::ImageLayout);

/// One texel buffer descriptor (uniform, storage) of a write, a push or a
/// template: binding, array element, `VkBufferView`.
pub type TexelWrite = (u32, u32, u64);

/// The descriptors one call writes into one set, by kind: what
/// `vkUpdateDescriptorSets` (per set), `vkUpdateDescriptorSetWithTemplate`,
/// `vkCmdPushDescriptorSet*` and `vkCmdPushDescriptorSetWithTemplate*` all
/// come down to, so that each kind is kept the same way whichever call
/// wrote it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Writes {
    /// Buffer descriptors.
    pub buffers: Vec<BufferWrite>,
    /// Image descriptors.
    pub images: Vec<ImageWrite>,
    /// Texel buffer descriptors.
    pub texels: Vec<TexelWrite>,
}

impl Writes {
    /// Buffer descriptors only.
    pub fn buffers(buffers: &[BufferWrite]) -> Writes {
        Writes {
            buffers: buffers.to_vec(),
            ..Writes::default()
        }
    }
}

/// What a descriptor of a template entry is, as the layer reads it from
/// the application's data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// A `VkDescriptorBufferInfo` (storage or uniform buffer, dynamic or not).
    Buffer,
    /// A `VkDescriptorImageInfo` (storage image, sampled image, combined
    /// image sampler).
    Image,
    /// A `VkBufferView` (uniform or storage texel buffer).
    Texel,
}

impl SlotKind {
    /// The kind of a descriptor type the model sees, or `None` (samplers,
    /// input attachments, inline uniform blocks, acceleration structures...).
    pub fn of(ty: vk::DescriptorType) -> Option<SlotKind> {
        if is_buffer(ty) {
            Some(SlotKind::Buffer)
        } else if is_image(ty) {
            Some(SlotKind::Image)
        } else if matches!(
            ty,
            vk::DescriptorType::UNIFORM_TEXEL_BUFFER | vk::DescriptorType::STORAGE_TEXEL_BUFFER
        ) {
            Some(SlotKind::Texel)
        } else {
            None
        }
    }
}

#[derive(Default)]
struct CommandBuffer {
    pool: u64,
    pipeline: Option<u64>,
    /// Bound sets by set number: the set and its dynamic offsets by
    /// `(binding, element)`.
    sets: HashMap<u32, BoundSet>,
    /// Push descriptor sets by set number (`vkCmdPushDescriptorSetKHR`).
    push: HashMap<u32, Set>,
    entries: Vec<Entry>,
    /// The open debug label regions (`vkCmdBeginDebugUtilsLabelEXT`),
    /// outermost first.
    labels: Vec<String>,
    /// The graphics bind point's state: pipeline, sets, vertex and index
    /// buffers, dynamic state.
    gfx: CbGraphics,
}

/// One device's capture.
pub struct Capture {
    seq: u64,
    program: Program,
    notes: Annotations,
    not_modelled: u64,
    path: PathBuf,
    memories: HashMap<u64, Memory>,
    buffers: HashMap<u64, Buffer>,
    images: HashMap<u64, Image>,
    image_count: usize,
    /// `vkCreateImageView`.
    views: HashMap<u64, View>,
    /// `vkCreateBufferView`: buffer, offset, range.
    buffer_views: HashMap<u64, (u64, u64, u64)>,
    /// `vkCreateQueryPool`: each pool's results object and the most bytes
    /// one query's results take ([`QueryPool`]).
    query_pools: HashMap<u64, QueryPool>,
    query_pool_count: usize,
    /// Debug names the application gave objects
    /// (`vkSetDebugUtilsObjectNameEXT`), by handle, as given.
    debug_names: HashMap<u64, String>,
    /// The trace names taken by debug names (made unique).
    names_taken: HashSet<String>,
    /// The last debug name given to each declared object, by the name it
    /// was declared under: a late name equal to it renames nothing.
    given: HashMap<String, String>,
    /// Each command buffer's name in comments: `cbN` in allocation order,
    /// or its debug name.
    cb_names: HashMap<u64, String>,
    cb_count: usize,
    /// Where each buffer object lives: memory handle, offset, size.
    placement: HashMap<ObjectId, (u64, u64, u64)>,
    /// Trace objects of destroyed buffers and images: host writes are no
    /// longer written on them.
    destroyed: HashSet<ObjectId>,
    buffer_count: usize,
    memory_count: usize,
    shaders: HashMap<u64, Shader>,
    shader_count: usize,
    set_layouts: HashMap<u64, Vec<LayoutBinding>>,
    pipeline_layouts: HashMap<u64, Vec<u64>>,
    pipelines: HashMap<u64, Pipeline>,
    sets: HashMap<u64, Set>,
    /// Descriptor update templates: the buffer descriptors each writes.
    templates: HashMap<u64, Vec<TemplateSlot>>,
    cbs: HashMap<u64, CommandBuffer>,
    fences: HashMap<u64, usize>,
    submissions: usize,
    /// The queue of each submission (batch), by submission number - 1.
    sub_queue: Vec<QueueId>,
    /// The thread that made each submission, by submission number - 1
    /// (`None` for a marker).
    sub_thread: Vec<Option<std::thread::ThreadId>>,
    /// The latest submission number of each queue.
    latest: HashMap<QueueId, usize>,
    /// The trace queue of each `VkQueue` submitted to (the first one is the
    /// implicit queue until a second one appears; then both are declared).
    queues: HashMap<u64, QueueId>,
    /// `vkGetDeviceQueue(2)`: each `VkQueue`'s family.
    queue_families: HashMap<u64, u32>,
    /// The latest submission of each queue that the trace already knows
    /// complete through a `wait QUEUE` or a `host-wait` (a full `wait` is
    /// [`Capture::waited`]).
    queue_waited: HashMap<QueueId, usize>,
    /// Host waits in flight (called, not returned) and what each covers.
    open_waits: HashMap<u64, WaitScope>,
    /// The next [`WaitToken`].
    wait_tokens: u64,
    /// Marker submissions (see `Capture::mark`), per queue: the latest
    /// application submission each follows, and its semaphore.
    markers: HashMap<QueueId, Vec<(usize, SemaphoreId)>>,
    /// Every timeline signal written, per trace semaphore: the value, and
    /// the submission whose batch signals it when that signal waits for
    /// all its queue's earlier work (`ALL_COMMANDS`); `None` for a host
    /// signal or a narrower stage mask.
    timeline_signals: HashMap<SemaphoreId, Vec<(u64, Option<usize>)>>,
    /// The value of each timeline semaphore the trace already proves the
    /// host saw reached (its initial value, a `host-wait`, a `host-signal`,
    /// every signal before a full `wait`).
    timeline_known: HashMap<SemaphoreId, u64>,
    /// `vkCreateEvent`: the trace event once one is declared.
    events: HashMap<u64, Option<EventId>>,
    /// The trace events whose current signal, in trace order (as the
    /// entries are appended at their submission), is the host's
    /// `vkSetEvent`: a `host-set-event` with no set or reset of the event
    /// appended since ([`Capture::host_set_transition`]).
    host_set_events: HashSet<EventId>,
    /// `vkCreateSemaphore`: timeline semaphores' initial value (`None`:
    /// binary), and the trace semaphore once one is declared.
    semaphores: HashMap<u64, (Option<u64>, Option<SemaphoreId>)>,
    /// Submissions covered by the last `wait` written.
    waited: usize,
    pending: Vec<Entry>,
    /// Device writes submitted and not yet covered by a wait that assumes
    /// host reads: the command's ordinal, its submission, the region.
    device_writes: Vec<(usize, usize, Region)>,
    /// Device reads submitted since the oldest of those writes, with the
    /// command's ordinal.
    device_reads: Vec<(usize, Region)>,
    /// The ordinal of the next device command appended.
    device_ord: usize,
    /// Memory ranges (memory handle, start, end) written by submitted
    /// device commands and not yet waited for: changes there are the
    /// device's, not host writes.
    dirty: Vec<(u64, u64, u64, usize)>,
    /// Host reads assumed after a `wait`, not yet placed (see
    /// [`Capture::wait`]).
    pending_reads: Vec<Region>,
    /// Final results a wait covered that no host read is assumed of yet,
    /// because the host could not read them then: their memory was not
    /// mapped (a read is assumed if it is mapped before they are touched
    /// again), or is not `HOST_COHERENT` (a read is assumed of what
    /// `vkInvalidateMappedMemoryRanges` covers). Dropped when the device
    /// or the host touches their bytes again.
    unread: Vec<Region>,
    /// Trace objects of images with `VK_IMAGE_TILING_OPTIMAL`: their
    /// texels are laid out as the implementation chooses (the spec gives a
    /// subresource layout, `vkGetImageSubresourceLayout`, for linear
    /// tiling only), so the host cannot read them through a mapping and no
    /// host read of them is assumed (a copy to a buffer reads them).
    opaque: HashSet<ObjectId>,
    /// Memory objects that are not `HOST_COHERENT`.
    non_coherent: HashSet<u64>,
    /// What of the program the trace file has (see [`Capture::flush`]).
    writer: Writer,
    /// The trace file was created (later flushes append).
    created: bool,
    /// `vkCreateGraphicsPipelines`: what each pipeline's draws carry.
    gfx_pipelines: HashMap<u64, GfxPipeline>,
    /// `vkCreateRenderPass(2)`: each render pass's trace name and subpasses.
    render_passes: HashMap<u64, RenderPass>,
    render_pass_count: usize,
    /// `vkCreateFramebuffer`: the views, in attachment order (`None`:
    /// imageless, the views come with `vkCmdBeginRenderPass`).
    framebuffers: HashMap<u64, Option<Vec<u64>>>,
    /// A `begin-render-pass` was appended and its `end-render-pass` not
    /// yet: draws are written as render pass lines.
    in_render_pass: bool,
    /// The trace was finished: nothing more is written to it.
    finished: bool,
}

/// How the comment that renames an object begins: `# rename OLD -> NEW
/// (why)`, written when the application names a buffer, image or memory
/// object after it was declared. `vksync capture` (`cli/src/capture.rs`,
/// which keeps the same text) reads these from the finished trace and
/// renames `OLD` to `NEW` on every other line; the last one for an `OLD`
/// wins, as the object's last debug name is its name. `NEW` is already in
/// the trace's name syntax and unique.
pub const RENAME: &str = "rename ";

fn name_ok(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.'
}

/// `size` resolved against `VK_WHOLE_SIZE` for a range starting at
/// `offset` of an object of `total` bytes.
fn whole(size: u64, offset: u64, total: u64) -> u64 {
    if size == vk::WHOLE_SIZE {
        total.saturating_sub(offset)
    } else {
        size
    }
}

impl Capture {
    /// A capture writing to `path`; `header` lines open the trace.
    pub fn new(path: PathBuf, header: Vec<String>) -> Self {
        let mut notes = Annotations::new();
        for h in &header {
            notes.header(h);
        }
        Capture {
            seq: 0,
            program: Program::new(),
            notes,
            not_modelled: 0,
            path,
            memories: HashMap::default(),
            buffers: HashMap::default(),
            images: HashMap::default(),
            image_count: 0,
            views: HashMap::default(),
            buffer_views: HashMap::default(),
            query_pools: HashMap::default(),
            query_pool_count: 0,
            debug_names: HashMap::default(),
            names_taken: HashSet::default(),
            given: HashMap::default(),
            cb_names: HashMap::default(),
            cb_count: 0,
            placement: HashMap::default(),
            destroyed: HashSet::default(),
            buffer_count: 0,
            memory_count: 0,
            shaders: HashMap::default(),
            shader_count: 0,
            set_layouts: HashMap::default(),
            pipeline_layouts: HashMap::default(),
            pipelines: HashMap::default(),
            sets: HashMap::default(),
            templates: HashMap::default(),
            cbs: HashMap::default(),
            fences: HashMap::default(),
            sub_queue: Vec::new(),
            sub_thread: Vec::new(),
            latest: HashMap::default(),
            queues: HashMap::default(),
            queue_families: HashMap::default(),
            queue_waited: HashMap::default(),
            open_waits: HashMap::default(),
            wait_tokens: 0,
            markers: HashMap::default(),
            timeline_signals: HashMap::default(),
            timeline_known: HashMap::default(),
            semaphores: HashMap::default(),
            events: HashMap::default(),
            host_set_events: HashSet::default(),
            submissions: 0,
            waited: 0,
            pending: Vec::new(),
            device_writes: Vec::new(),
            device_reads: Vec::new(),
            device_ord: 0,
            dirty: Vec::new(),
            pending_reads: Vec::new(),
            opaque: HashSet::default(),
            unread: Vec::new(),
            non_coherent: HashSet::default(),
            writer: Writer::new(),
            created: false,
            finished: false,
            gfx_pipelines: HashMap::default(),
            render_passes: HashMap::default(),
            render_pass_count: 0,
            framebuffers: HashMap::default(),
            in_render_pass: false,
        }
    }

    /// The next call's sequence number (from 1, per device).
    pub fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// The program recorded so far.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Calls written as "not modelled" so far.
    pub fn not_modelled_count(&self) -> u64 {
        self.not_modelled
    }

    /// The output file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    // ---- memory and buffers ----

    /// `vkAllocateMemory`.
    pub fn allocate_memory(&mut self, seq: u64, memory: u64, size: u64) {
        let name = format!("m{}", self.memory_count);
        self.memory_count += 1;
        match self.program.buffer(&name, size) {
            Ok(obj) => {
                self.memories.insert(memory, Memory { obj, size, map: None });
            }
            Err(e) => self.skip(None, format!("vkAllocateMemory #{seq} of {size} bytes ({e})")),
        }
    }

    /// `vkFreeMemory`. Its buffers stay in the trace (their names are never
    /// reused); a later allocation is a new memory object.
    pub fn free_memory(&mut self, memory: u64) {
        self.memories.remove(&memory);
    }

    /// `vkMapMemory`: `bytes` are the mapped range's contents now.
    pub fn map_memory(&mut self, memory: u64, offset: u64, bytes: &[u8]) {
        self.map_memory_owned(memory, offset, bytes.to_vec());
    }

    /// [`Capture::map_memory`] with the snapshot already copied (the
    /// layer copies mapped memory its own way, `layer::snapshot`).
    pub fn map_memory_owned(&mut self, memory: u64, offset: u64, bytes: Vec<u8>) {
        let len = bytes.len() as u64;
        if let Some(m) = self.memories.get_mut(&memory) {
            m.map = Some(Mapping {
                offset,
                shadow: bytes,
            });
        }
        // Results a wait covered while this memory was not mapped: the
        // host maps it now to read them (placed as late as they can be).
        if !self.non_coherent.contains(&memory) {
            let end = offset.saturating_add(len);
            self.assume_unread(|m, s, e| m == memory && s < end && offset < e, false);
        }
    }

    /// Memory `memory` is not `HOST_COHERENT`: the host sees the device's
    /// writes there only through `vkInvalidateMappedMemoryRanges`.
    pub fn set_non_coherent(&mut self, memory: u64) {
        self.non_coherent.insert(memory);
    }

    /// `vkInvalidateMappedMemoryRanges` of `[start, end)` of `memory`
    /// (offsets in the memory object): the host is about to read there, so
    /// the final results a wait covered in those bytes are read now (a
    /// `host-read` in the trace's current place), coherent or not.
    pub fn invalidate(&mut self, seq: u64, call: &str, memory: u64, start: u64, end: u64) {
        let hit = |r: &Region, c: &Capture| {
            c.mem_range(*r)
                .is_some_and(|(m, s, e)| m == memory && s < end && start < e)
        };
        let (now_unread, unread): (Vec<Region>, Vec<Region>) = std::mem::take(&mut self.unread)
            .into_iter()
            .partition(|r| hit(r, self));
        let (now_pending, pending): (Vec<Region>, Vec<Region>) = std::mem::take(&mut self.pending_reads)
            .into_iter()
            .partition(|r| hit(r, self));
        self.unread = unread;
        self.pending_reads = pending;
        // In the trace now: after the waits so far, before anything the
        // device or the host does later.
        for src in now_unread.into_iter().chain(now_pending) {
            self.append(Entry::Cmd(
                Command::HostRead { src },
                format!("host read assumed at {call} #{seq} (written by the device, invalidated)"),
            ));
        }
    }

    /// Moves the `unread` results in bytes `hit` selects (memory, start,
    /// end) to the pending host reads (`false`) or drops them (`true`).
    fn assume_unread(&mut self, hit: impl Fn(u64, u64, u64) -> bool, drop: bool) {
        let unread = std::mem::take(&mut self.unread);
        for r in unread {
            let selected = self.mem_range(r).is_some_and(|(m, s, e)| hit(m, s, e));
            if !selected {
                self.unread.push(r);
            } else if !drop {
                self.pending_reads.push(r);
            }
        }
    }

    /// The size to map for `vkMapMemory(memory, offset, size)`, or `None`
    /// for unknown memory.
    pub fn map_len(&self, memory: u64, offset: u64, size: u64) -> Option<u64> {
        self.memories.get(&memory).map(|m| whole(size, offset, m.size))
    }

    /// The allocation order of memory object `memory` on this device (its
    /// trace object's index), if the capture knows it.
    pub fn memory_index(&self, memory: u64) -> Option<usize> {
        self.memories.get(&memory).map(|m| m.obj.0 as usize)
    }

    /// Where the mapped range of `memory` starts in it, if it is mapped.
    pub fn map_offset(&self, memory: u64) -> Option<u64> {
        self.memories.get(&memory)?.map.as_ref().map(|m| m.offset)
    }

    /// `vkUnmapMemory` (after [`Capture::host_writes`] on its last bytes).
    pub fn unmap_memory(&mut self, memory: u64) {
        if let Some(m) = self.memories.get_mut(&memory) {
            m.map = None;
        }
    }

    /// The mapped memory objects with the mapped length.
    pub fn mapped(&self) -> Vec<(u64, u64)> {
        self.memories
            .iter()
            .filter_map(|(h, m)| m.map.as_ref().map(|mp| (*h, mp.shadow.len() as u64)))
            .collect()
    }

    /// Compares windows of the mapped bytes of `memory` with their shadow
    /// copy and queues a `host-write` of each changed span of each buffer
    /// bound there, for the next submission. Each window is `(offset in
    /// the mapped range, its bytes now)`: the whole range, or only the
    /// pages the page guard saw written. Spans closer than 64 bytes are
    /// merged, and so are spans of one buffer whose bytes between no
    /// device access still in flight touches (see the body). Returns the
    /// changed spans as found, `[start, end)` offsets in the mapped range
    /// (before device writes are told apart): how much of the range the
    /// host changed, which the layer's page guard policy asks.
    pub fn host_writes(
        &mut self,
        seq: u64,
        call: &str,
        memory: u64,
        windows: &[(usize, &[u8])],
    ) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        let Some(m) = self.memories.get_mut(&memory) else {
            return found;
        };
        let Some(map) = m.map.as_mut() else { return found };
        let mut spans: Vec<(u64, u64)> = Vec::new();
        for &(at, current) in windows {
            let Some(shadow) = map.shadow.get_mut(at..at + current.len()) else {
                continue;
            };
            for (s, e) in take_changed_spans(shadow, current) {
                found.push((at + s, at + e));
                spans.push((map.offset + (at + s) as u64, map.offset + (at + e) as u64));
            }
        }
        // Bytes that submitted device commands write and that no wait has
        // covered yet change because of the device: not host writes (a host
        // write racing with them cannot be told apart, and is missed).
        for &(mem, ds, de, _) in &self.dirty {
            if mem != memory {
                continue;
            }
            spans = spans
                .into_iter()
                .flat_map(|(s, e)| {
                    if de <= s || e <= ds {
                        vec![(s, e)]
                    } else {
                        [(s, ds.max(s)), (de.min(e), e)]
                            .into_iter()
                            .filter(|(a, b)| a < b)
                            .collect()
                    }
                })
                .collect();
        }
        if spans.is_empty() {
            return found;
        }
        // On every live buffer or image bound there (a destroyed one's
        // placement is kept for the accesses already recorded, but the
        // host no longer writes through it: wgpu binds a new buffer at the
        // same offset of recycled staging memory each frame); bytes that
        // no live object covers are written on the memory object.
        let mut writes = Vec::new();
        let mut uncovered = spans.clone();
        for (obj, &(mem, off, size)) in &self.placement {
            // An image declared exactly has no bytes the trace's host
            // accesses can name (its subresources are not bytes): the
            // host writes its memory, which the memory object says.
            if mem != memory || self.destroyed.contains(obj) || self.program.image(*obj).is_some() {
                continue;
            }
            for &(s, e) in &spans {
                let (s, e) = (s.max(off), e.min(off + size));
                if s < e {
                    writes.push(Region {
                        object: *obj,
                        range: ByteRange::new(s - off, e - off),
                    });
                }
            }
            uncovered = uncovered
                .into_iter()
                .flat_map(|(s, e)| {
                    [(s, e.min(off)), (s.max(off + size), e)]
                        .into_iter()
                        .filter(|(a, b)| a < b)
                })
                .collect();
        }
        let whole = self.memories.get(&memory).map(|m| m.obj);
        for (s, e) in uncovered {
            if let Some(object) = whole {
                writes.push(Region {
                    object,
                    range: ByteRange::new(s, e),
                });
            }
        }
        writes.sort_by_key(|r| (r.object.0, r.range.start));
        // One line per buffer where nothing can tell the difference: the
        // host's writes before a submission are ordered before every
        // device access submitted after it (the submission's guarantee),
        // so a host write can race only with device accesses already
        // submitted and not yet waited for. Two spans of one buffer are
        // merged over the bytes between them when none of those accesses
        // touches them: no hazard is added or lost. A thread writing every
        // 256th byte of a mapped buffer while another submits wrote 4,096
        // lines per submission (issue 27: 30x slower, 270k lines).
        let in_flight: Vec<(u64, u64)> = self
            .dirty
            .iter()
            .filter(|d| d.0 == memory)
            .map(|d| (d.1, d.2))
            .chain(
                self.device_reads
                    .iter()
                    .map(|&(_, r)| r)
                    .chain(self.device_writes.iter().map(|&(_, _, r)| r))
                    .filter_map(|r| self.mem_range(r))
                    .filter(|r| r.0 == memory)
                    .map(|r| (r.1, r.2)),
            )
            .collect();
        let mut merged: Vec<Region> = Vec::with_capacity(writes.len());
        let mut offset = None;
        for r in writes {
            if let Some(last) = merged.last_mut().filter(|l| l.object == r.object) {
                // The gap in memory terms (the buffer's offset looked up once).
                let off = *offset.get_or_insert_with(|| self.placement.get(&r.object).map_or(0, |p| p.1));
                let (gs, ge) = (off + last.range.end.min(r.range.start), off + r.range.start);
                if !in_flight.iter().any(|&(s, e)| s < ge && gs < e) {
                    last.range = ByteRange::new(last.range.start, last.range.end.max(r.range.end));
                    continue;
                }
            } else {
                offset = None;
            }
            merged.push(r);
        }
        for dst in merged {
            self.pending.push(Entry::Cmd(
                Command::HostWrite { dst, value: 0 },
                format!("host write seen at {call} #{seq}"),
            ));
        }
        found
    }

    /// `vkCreateBuffer`, with its `sharingMode`.
    pub fn create_buffer(&mut self, buffer: u64, size: u64, sharing: vk::SharingMode) {
        let exclusive = sharing == vk::SharingMode::EXCLUSIVE;
        self.buffers.insert(
            buffer,
            Buffer {
                size,
                exclusive,
                obj: None,
            },
        );
    }

    /// `vkDestroyBuffer`.
    pub fn destroy_buffer(&mut self, buffer: u64) {
        if let Some(obj) = self.buffers.remove(&buffer).and_then(|b| b.obj) {
            self.destroyed.insert(obj);
        }
    }

    /// `vkBindBufferMemory` (one bind of `vkBindBufferMemory2`).
    pub fn bind_buffer(&mut self, seq: u64, call: &str, buffer: u64, memory: u64, offset: u64) {
        let Some((size, exclusive)) = self.buffers.get(&buffer).map(|b| (b.size, b.exclusive)) else {
            self.skip(None, format!("{call} #{seq} of an unknown buffer"));
            return;
        };
        let name = self
            .object_name(buffer, "VkBuffer", seq, call)
            .unwrap_or_else(|| {
                self.buffer_count += 1;
                format!("b{}", self.buffer_count - 1)
            });
        if let Some(obj) = self.bind_object(seq, call, &name, size, memory, offset) {
            if exclusive {
                if let Err(e) = self.program.set_sharing(obj, SharingMode::Exclusive) {
                    self.skip(None, format!("{call} #{seq} (exclusive: {e})"));
                }
            }
            if let Some(b) = self.buffers.get_mut(&buffer) {
                b.obj = Some(obj);
            }
        }
    }

    /// A trace buffer `name` of `size` bytes at `offset` in `memory`.
    fn bind_object(
        &mut self,
        seq: u64,
        call: &str,
        name: &str,
        size: u64,
        memory: u64,
        offset: u64,
    ) -> Option<ObjectId> {
        let Some(mem_obj) = self.memories.get(&memory).map(|m| m.obj) else {
            self.skip(None, format!("{call} #{seq} to an unknown memory object"));
            return None;
        };
        match self.program.alias(name, size, mem_obj, offset) {
            Ok(obj) => {
                self.placement.insert(obj, (memory, offset, size));
                Some(obj)
            }
            Err(e) => {
                self.skip(None, format!("{call} #{seq} ({e})"));
                None
            }
        }
    }

    /// `vkCreateImage`.
    pub fn create_image(&mut self, image: u64, info: ImageInfo) {
        self.images.insert(
            image,
            Image {
                info,
                obj: None,
                exact: false,
                linear: None,
            },
        );
    }

    /// The subresources (aspect bit, mip, layer) whose layouts the layer
    /// asks for a linear image (`vkGetImageSubresourceLayout`, for linear
    /// tiling only); empty for an image that is not linear, unknown, of a
    /// format the model does not know, or of more than
    /// [`MAX_LINEAR_SUBRESOURCES`] subresources.
    pub fn linear_subresources(&self, image: u64) -> Vec<(u32, u32, u32)> {
        let Some(i) = self.images.get(&image) else {
            return Vec::new();
        };
        let Some(format) = model_format(i.info.format) else {
            return Vec::new();
        };
        let aspects = format.aspect_mask();
        let n = aspects.count() as usize * i.info.mips as usize * i.info.layers as usize;
        if i.info.tiling != vk::ImageTiling::LINEAR || n > MAX_LINEAR_SUBRESOURCES {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(n);
        for a in aspects.aspects() {
            for m in 0..i.info.mips {
                for l in 0..i.info.layers {
                    out.push((a.bit(), m, l));
                }
            }
        }
        out
    }

    /// What the driver says of linear image `image`'s subresources: the
    /// bind places the image's bytes at the first one's offset, and a row
    /// pitch wider than the texels of a one-subresource image becomes the
    /// declaration's `rowPitch=`; an image of several subresources laid out
    /// otherwise than the model packs them is declared coarsely
    /// ([`exact_image`]).
    pub fn linear_layout(&mut self, image: u64, layouts: Vec<SubLayout>) {
        if let Some(i) = self.images.get_mut(&image) {
            i.linear = Some(layouts);
        }
    }

    /// `vkDestroyImage`.
    pub fn destroy_image(&mut self, image: u64) {
        if let Some(obj) = self.images.remove(&image).and_then(|i| i.obj) {
            self.destroyed.insert(obj);
        }
    }

    /// `vkBindImageMemory` (one bind of `vkBindImageMemory2`): the image
    /// becomes a trace `image` aliasing `memory` at `offset` when
    /// `exact_image` allows it, a trace buffer `iK` over the `size` bytes
    /// its memory requirements ask for otherwise (with a comment saying
    /// why).
    pub fn bind_image(&mut self, seq: u64, call: &str, image: u64, memory: u64, offset: u64, size: u64) {
        let Some(info) = self.images.get(&image).map(|i| i.info) else {
            self.skip(None, format!("{call} #{seq} of an unknown image"));
            return;
        };
        let name = self.object_name(image, "VkImage", seq, call).unwrap_or_else(|| {
            self.image_count += 1;
            format!("i{}", self.image_count - 1)
        });
        // A linear image's texels start at its subresource's offset in the
        // binding, and its rows are its row pitch apart.
        let linear = self.images.get(&image).and_then(|i| i.linear.clone());
        // A one-subresource linear image's texels start at its offset
        // (an image of several is compared with the model's packed layout
        // from the binding on, `exact_image`).
        let single = linear.as_ref().filter(|v| v.len() == 1).map(|v| v[0]);
        let offset = offset + single.map_or(0, |l| l.layout.offset);
        let left = self
            .memories
            .get(&memory)
            .map_or(0, |m| m.size.saturating_sub(offset));
        let why = match exact_image(&info, size, left, linear.as_deref()) {
            Ok(ExactImage {
                format,
                extent,
                tiling,
                notional,
                row_pitch: pitch,
            }) => {
                let Some(mem_obj) = self.memories.get(&memory).map(|m| m.obj) else {
                    self.skip(None, format!("{call} #{seq} to an unknown memory object"));
                    return;
                };
                match self.program.declare_image(
                    &name,
                    format,
                    extent,
                    info.mips,
                    info.layers,
                    tiling,
                    Some((mem_obj, offset)),
                ) {
                    Ok(obj) => {
                        if let Some(p) = pitch {
                            if let Err(e) = self.program.set_row_pitch(obj, p) {
                                self.skip(None, format!("{call} #{seq} (rowPitch: {e})"));
                            }
                        }
                        self.placement.insert(obj, (memory, offset, notional));
                        if info.exclusive {
                            if let Err(e) = self.program.set_sharing(obj, SharingMode::Exclusive) {
                                self.skip(None, format!("{call} #{seq} (exclusive: {e})"));
                            }
                        }
                        if info.preinitialized {
                            if let Err(e) = self
                                .program
                                .set_initial_layout(obj, vksync::ImageLayout::PREINITIALIZED)
                            {
                                self.skip(None, format!("{call} #{seq} (initialLayout: {e})"));
                            }
                        }
                        self.notes.before(
                            self.program.commands().len(),
                            &format!(
                                "{name} is VkImage {image:#x} ({call} #{seq}), {size} bytes in memory; \
                                 its {notional} notional bytes (the model's layout) stand at offset {offset}"
                            ),
                        );
                        if let Some(i) = self.images.get_mut(&image) {
                            i.obj = Some(obj);
                            i.exact = true;
                        }
                        if info.tiling == vk::ImageTiling::OPTIMAL {
                            self.opaque.insert(obj);
                        }
                        return;
                    }
                    Err(e) => e.to_string(),
                }
            }
            Err(why) => why,
        };
        if let Some(obj) = self.bind_object(seq, call, &name, size, memory, offset) {
            self.notes.before(
                self.program.commands().len(),
                &format!(
                    "{name} is VkImage {image:#x} ({call} #{seq}), {size} bytes: an image is its memory range ({why})"
                ),
            );
            if let Some(i) = self.images.get_mut(&image) {
                i.obj = Some(obj);
            }
            if info.tiling == vk::ImageTiling::OPTIMAL {
                self.opaque.insert(obj);
            }
        }
    }

    /// The whole of an image, as a region of its trace buffer, and its
    /// format.
    fn image_region(&self, image: u64) -> Result<(Region, vk::Format), String> {
        let i = self.images.get(&image).ok_or("an unknown image")?;
        let obj = i.obj.ok_or("an image without memory")?;
        let size = self.placement.get(&obj).map_or(0, |p| p.2);
        Ok((
            Region {
                object: obj,
                range: ByteRange::new(0, size),
            },
            i.info.format,
        ))
    }

    fn region(&self, buffer: u64, offset: u64, size: u64) -> Result<Region, String> {
        let b = self.buffers.get(&buffer).ok_or("an unknown buffer")?;
        let obj = b.obj.ok_or("a buffer without memory")?;
        let len = whole(size, offset, b.size);
        let end = offset.checked_add(len).ok_or("a range past 2^64")?;
        Ok(Region {
            object: obj,
            range: ByteRange::new(offset, end),
        })
    }

    // ---- shaders, layouts, pipelines, descriptors ----

    /// `vkCreateShaderModule`.
    pub fn create_shader(&mut self, module: u64, reflection: Result<Reflection, ReflectError>) {
        let index = self.shader_count;
        self.shader_count += 1;
        self.shaders.insert(
            module,
            Shader {
                index,
                reflection: reflection.map_err(|e| e.to_string()),
                resources: BTreeMap::new(),
                graphics: BTreeMap::new(),
            },
        );
    }

    /// Every descriptor binding each entry point of `module` uses (from
    /// [`crate::reflect::reflect_resources`]).
    pub fn shader_resources(&mut self, module: u64, resources: Resources) {
        if let Some(s) = self.shaders.get_mut(&module) {
            s.resources = resources.entry_points;
            s.graphics = resources.graphics;
        }
    }

    /// `vkCreateDescriptorSetLayout`: `(binding, type, count)` each.
    pub fn create_set_layout(&mut self, layout: u64, bindings: Vec<(u32, vk::DescriptorType, u32)>) {
        let mut v: Vec<LayoutBinding> = bindings
            .into_iter()
            .map(|(binding, ty, count)| LayoutBinding {
                binding,
                ty,
                count,
                flags: vk::DescriptorBindingFlags::empty(),
            })
            .collect();
        v.sort_by_key(|b| b.binding);
        self.set_layouts.insert(layout, v);
    }

    /// The `VkDescriptorSetLayoutBindingFlagsCreateInfo` of set layout
    /// `layout` (after [`Capture::create_set_layout`]): each binding's
    /// flags, by binding number.
    pub fn set_binding_flags(&mut self, layout: u64, flags: &[(u32, vk::DescriptorBindingFlags)]) {
        if let Some(bindings) = self.set_layouts.get_mut(&layout) {
            for &(binding, f) in flags {
                if let Some(b) = bindings.iter_mut().find(|b| b.binding == binding) {
                    b.flags = f;
                }
            }
        }
    }

    /// `vkCreatePipelineLayout`.
    pub fn create_pipeline_layout(&mut self, layout: u64, set_layouts: Vec<u64>) {
        self.pipeline_layouts.insert(layout, set_layouts);
    }

    /// One pipeline of `vkCreateComputePipelines`.
    pub fn create_compute_pipeline(&mut self, pipeline: u64, module: u64, entry: &str, layout: u64) {
        let clean: String = entry.chars().map(|c| if name_ok(c) { c } else { '_' }).collect();
        let (kernel, uses, note) = match self.shaders.get(&module) {
            Some(sh) => {
                let kernel = format!("s{}_{}", sh.index, clean);
                match &sh.reflection {
                    Ok(r) => match r.entry_points.get(entry) {
                        Some(ep) => (
                            kernel,
                            ep.bindings.clone(),
                            (!r.exact).then(|| {
                                "a buffer use reflection did not understand: that buffer is counted read-write".to_string()
                            }),
                        ),
                        None => (kernel, self.all_rw(layout), Some(format!("no compute entry point `{clean}` found by reflection: every storage binding counted read-write"))),
                    },
                    Err(e) => (kernel, self.all_rw(layout), Some(format!("reflection failed ({e}): every storage binding counted read-write"))),
                }
            }
            None => (
                format!("unknown_{clean}"),
                self.all_rw(layout),
                Some("unknown shader module: every storage binding counted read-write".to_string()),
            ),
        };
        let resources = self.shaders.get(&module).and_then(|s| s.resources.get(entry));
        let images = resources.map_or(0, |r| r.values().filter(|r| r.kind == Kind::Other).count());
        let texel_uses = resources
            .into_iter()
            .flatten()
            .filter(|(_, r)| r.kind == Kind::TexelBuffer)
            .map(|(k, r)| (*k, r.used))
            .collect();
        let image_uses = resources
            .into_iter()
            .flatten()
            .filter(|(_, r)| r.kind == Kind::Image)
            .map(|(k, r)| (*k, r.used))
            .collect();
        // Buffers from the reflection `uses` came from, images and texel
        // buffers from the resources.
        let mut elements: BTreeMap<(u32, u32), u64> = self
            .shaders
            .get(&module)
            .and_then(|sh| sh.reflection.as_ref().ok())
            .and_then(|r| r.entry_points.get(entry))
            .map(|ep| ep.elements.clone())
            .unwrap_or_default();
        elements.extend(
            resources
                .into_iter()
                .flatten()
                .filter(|(_, r)| matches!(r.kind, Kind::Image | Kind::TexelBuffer))
                .filter_map(|(k, r)| Some((*k, r.elements?))),
        );
        self.pipelines.insert(
            pipeline,
            Pipeline {
                kernel,
                uses,
                note,
                images,
                image_uses,
                texel_uses,
                elements,
            },
        );
    }

    fn all_rw(&self, layout: u64) -> BTreeMap<(u32, u32), Use> {
        let mut out = BTreeMap::new();
        for (set, sl) in self
            .pipeline_layouts
            .get(&layout)
            .into_iter()
            .flatten()
            .enumerate()
        {
            for b in self.set_layouts.get(sl).into_iter().flatten() {
                if is_buffer(b.ty) {
                    out.insert(
                        (set as u32, b.binding),
                        Use {
                            read: true,
                            write: true,
                        },
                    );
                }
            }
        }
        out
    }

    /// `vkAllocateDescriptorSets`.
    pub fn allocate_sets(&mut self, sets: &[(u64, u64)]) {
        for &(set, layout) in sets {
            self.sets.insert(
                set,
                Set {
                    layout,
                    descs: BTreeMap::new(),
                    images: BTreeMap::new(),
                    texels: BTreeMap::new(),
                },
            );
        }
    }

    /// What a descriptor of `buffer` from `offset` over `range` holds, or
    /// `None` for an unknown buffer or one without memory (a dispatch
    /// using it then says its binding was never written).
    fn desc(&self, buffer: u64, offset: u64, range: u64) -> Option<Desc> {
        let b = self.buffers.get(&buffer)?;
        Some(Desc {
            obj: b.obj?,
            buffer_size: b.size,
            offset,
            range: whole(range, offset, b.size),
        })
    }

    /// Where descriptor `element` of `binding` lands in a set of layout
    /// `layout`: past the binding's count, in the next binding of the
    /// layout ("If the dstBinding has fewer than descriptorCount array
    /// elements remaining starting from dstArrayElement, then the
    /// remainder will be used to update the subsequent binding -
    /// dstBinding+1 starting at array element zero. If a binding has a
    /// descriptorCount of zero, it is skipped", for writes, copies and
    /// template entries alike). Unchanged for an unknown layout or binding,
    /// or past the last binding (invalid usage). Before review36 a write
    /// running on was kept under its first binding, where no command reads
    /// it: the next binding's command became `not-modelled`, or named the
    /// buffer that binding held before.
    fn slot(&self, layout: u64, binding: u32, element: u32) -> (u32, u32) {
        let Some(bs) = self.set_layouts.get(&layout) else {
            return (binding, element);
        };
        let Some(mut i) = bs.iter().position(|b| b.binding == binding) else {
            return (binding, element);
        };
        let mut e = element;
        loop {
            if e < bs[i].count {
                return (bs[i].binding, e);
            }
            e -= bs[i].count;
            i += 1;
            if i == bs.len() {
                return (binding, element);
            }
        }
    }

    /// [`Capture::slot`] in set `set`.
    fn set_slot(&self, set: u64, binding: u32, element: u32) -> (u32, u32) {
        match self.sets.get(&set) {
            Some(s) => self.slot(s.layout, binding, element),
            None => (binding, element),
        }
    }

    /// One buffer descriptor of a `VkWriteDescriptorSet` (or of a
    /// `vkUpdateDescriptorSetWithTemplate`, decoded).
    pub fn write_descriptor(
        &mut self,
        set: u64,
        binding: u32,
        element: u32,
        buffer: u64,
        offset: u64,
        range: u64,
    ) {
        let Some(desc) = self.desc(buffer, offset, range) else {
            return;
        };
        let at = self.set_slot(set, binding, element);
        if let Some(s) = self.sets.get_mut(&set) {
            s.descs.insert(at, desc);
        }
    }

    /// Every descriptor of `writes` into set `set` (one set's part of a
    /// `vkUpdateDescriptorSets`, or a `vkUpdateDescriptorSetWithTemplate`
    /// decoded): the one way each kind is kept in a set.
    pub fn write_descriptors(&mut self, set: u64, writes: &Writes) {
        for &(binding, element, buffer, offset, range) in &writes.buffers {
            self.write_descriptor(set, binding, element, buffer, offset, range);
        }
        for &(binding, element, view, layout) in &writes.images {
            self.write_image_descriptor(set, binding, element, view, layout);
        }
        for &(binding, element, view) in &writes.texels {
            self.write_texel_descriptor(set, binding, element, view);
        }
    }

    /// `vkCreateDescriptorUpdateTemplate(KHR)`: keeps, per buffer, image
    /// or texel buffer descriptor the template writes, its kind, binding,
    /// element and offset in the data (entries of other descriptor types
    /// write nothing the model sees). An entry whose count runs past its
    /// binding into the next (consecutive binding updates) is kept as
    /// elements of its first binding here and lands in the next binding
    /// when the set's layout is known, as a write's does
    /// ([`Capture::slot`]); an offset past `usize` drops the descriptor.
    pub fn create_update_template(&mut self, template: u64, entries: &[vk::DescriptorUpdateTemplateEntry]) {
        let mut slots = Vec::new();
        for e in entries {
            let Some(kind) = SlotKind::of(e.descriptor_type) else {
                continue;
            };
            for k in 0..e.descriptor_count {
                let offset = (k as usize)
                    .checked_mul(e.stride)
                    .and_then(|o| o.checked_add(e.offset));
                if let Some(offset) = offset {
                    slots.push(TemplateSlot {
                        kind,
                        binding: e.dst_binding,
                        element: e.dst_array_element.saturating_add(k),
                        offset,
                    });
                }
            }
        }
        self.templates.insert(template, slots);
    }

    /// `vkDestroyDescriptorUpdateTemplate(KHR)`.
    pub fn destroy_update_template(&mut self, template: u64) {
        self.templates.remove(&template);
    }

    /// The descriptors template `template` writes, or `None` for an
    /// unknown template.
    pub fn template_slots(&self, template: u64) -> Option<&[TemplateSlot]> {
        self.templates.get(&template).map(Vec::as_slice)
    }

    /// `vkCmdPushDescriptorSet(2)(KHR)` or
    /// `vkCmdPushDescriptorSetWithTemplate(2)(KHR)` (decoded) on the compute
    /// bind point (the graphics one with `graphics`): the descriptors of set number `set` of pipeline layout
    /// `layout` (buffers, images and texel buffers, kept as
    /// [`Capture::write_descriptors`] keeps them in a set), bound to command
    /// buffer `cb` from now on. Descriptors pushed earlier for the same set
    /// (with the same set layout) and not written again are kept.
    #[allow(clippy::too_many_arguments)]
    pub fn push_descriptors(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        graphics: bool,
        layout: u64,
        set: u32,
        writes: &Writes,
    ) {
        let set_layout = self
            .pipeline_layouts
            .get(&layout)
            .and_then(|sets| sets.get(set as usize))
            .copied();
        let Some(set_layout) = set_layout else {
            self.not_modelled(
                Some(cb),
                seq,
                call,
                &format!("set {set} of an unknown pipeline layout"),
            );
            return;
        };
        let descs: Vec<((u32, u32), Desc)> = writes
            .buffers
            .iter()
            .filter_map(|&(binding, element, buffer, offset, range)| {
                self.desc(buffer, offset, range)
                    .map(|d| (self.slot(set_layout, binding, element), d))
            })
            .collect();
        let images: Vec<((u32, u32), (u64, vk::ImageLayout))> = writes
            .images
            .iter()
            .map(|&(b, e, view, layout)| (self.slot(set_layout, b, e), (view, layout)))
            .collect();
        let texels: Vec<((u32, u32), u64)> = writes
            .texels
            .iter()
            .map(|&(b, e, view)| (self.slot(set_layout, b, e), view))
            .collect();
        let state = self.cbs.entry(cb).or_default();
        let (push, sets) = if graphics {
            (&mut state.gfx.push, &mut state.gfx.sets)
        } else {
            (&mut state.push, &mut state.sets)
        };
        let pushed = push.entry(set).or_insert_with(|| Set {
            layout: set_layout,
            descs: BTreeMap::new(),
            images: BTreeMap::new(),
            texels: BTreeMap::new(),
        });
        if pushed.layout != set_layout {
            *pushed = Set {
                layout: set_layout,
                descs: BTreeMap::new(),
                images: BTreeMap::new(),
                texels: BTreeMap::new(),
            };
        }
        pushed.descs.extend(descs);
        pushed.images.extend(images);
        pushed.texels.extend(texels);
        sets.insert(set, (PUSHED, HashMap::default()));
    }

    /// One `VkCopyDescriptorSet`.
    #[allow(clippy::too_many_arguments)]
    pub fn copy_descriptors(
        &mut self,
        src: u64,
        src_binding: u32,
        src_elem: u32,
        dst: u64,
        dst_binding: u32,
        dst_elem: u32,
        count: u32,
    ) {
        for k in 0..count {
            // Both sides run on into their next bindings as writes do
            // ("in a manner similar to VkWriteDescriptorSet").
            let from = self.set_slot(src, src_binding, src_elem.saturating_add(k));
            let to = self.set_slot(dst, dst_binding, dst_elem.saturating_add(k));
            let d = self.sets.get(&src).and_then(|s| s.descs.get(&from).copied());
            if let (Some(d), Some(s)) = (d, self.sets.get_mut(&dst)) {
                s.descs.insert(to, d);
            }
            let i = self.sets.get(&src).and_then(|s| s.images.get(&from).copied());
            if let (Some(i), Some(s)) = (i, self.sets.get_mut(&dst)) {
                s.images.insert(to, i);
            }
            let t = self.sets.get(&src).and_then(|s| s.texels.get(&from).copied());
            if let (Some(t), Some(s)) = (t, self.sets.get_mut(&dst)) {
                s.texels.insert(to, t);
            }
        }
    }

    /// `vkCreateBufferView`: its buffer, offset and range
    /// (`VK_WHOLE_SIZE` allowed).
    pub fn create_buffer_view(&mut self, view: u64, buffer: u64, offset: u64, range: u64) {
        self.buffer_views.insert(view, (buffer, offset, range));
    }

    /// `vkDestroyBufferView`.
    pub fn destroy_buffer_view(&mut self, view: u64) {
        self.buffer_views.remove(&view);
    }

    /// One texel buffer descriptor of a `VkWriteDescriptorSet`.
    pub fn write_texel_descriptor(&mut self, set: u64, binding: u32, element: u32, view: u64) {
        let at = self.set_slot(set, binding, element);
        if let Some(s) = self.sets.get_mut(&set) {
            s.texels.insert(at, view);
        }
    }

    /// `vkCreateImageView`: its image and subresource range.
    pub fn create_image_view(&mut self, view: u64, image: u64, range: [u32; 5]) {
        self.views.insert(view, View { image, range });
    }

    /// `vkDestroyImageView`.
    pub fn destroy_image_view(&mut self, view: u64) {
        self.views.remove(&view);
    }

    /// One image descriptor (storage image, sampled image or combined
    /// image sampler) of a `VkWriteDescriptorSet`: its view and
    /// `imageLayout`.
    pub fn write_image_descriptor(
        &mut self,
        set: u64,
        binding: u32,
        element: u32,
        view: u64,
        layout: vk::ImageLayout,
    ) {
        let at = self.set_slot(set, binding, element);
        if let Some(s) = self.sets.get_mut(&set) {
            s.images.insert(at, (view, layout));
        }
    }

    // ---- command buffers ----

    /// `vkAllocateCommandBuffers`.
    pub fn allocate_command_buffers(&mut self, pool: u64, cbs: &[u64]) {
        for &cb in cbs {
            self.cbs.insert(
                cb,
                CommandBuffer {
                    pool,
                    ..Default::default()
                },
            );
            self.cb_names.insert(cb, format!("cb{}", self.cb_count));
            self.cb_count += 1;
        }
    }

    // ---- names a person knows ----

    /// `vkSetDebugUtilsObjectNameEXT` (and `vkDebugMarkerSetObjectNameEXT`)
    /// of object `handle` of type `ty`: a buffer or image bound later is
    /// declared under the name (sanitized, made unique); a command buffer's
    /// commands say it in their comments; a buffer, image or memory object
    /// already declared gets a [`RENAME`] comment, which `vksync capture`
    /// applies to the finished trace (the model's `Program` cannot rename
    /// an object whose lines are already written, and wgpu names objects
    /// after binding them); anything else is not in the trace.
    pub fn set_object_name(&mut self, seq: u64, call: &str, ty: vk::ObjectType, handle: u64, name: &str) {
        let declared = match ty {
            vk::ObjectType::BUFFER => self.buffers.get(&handle).and_then(|b| b.obj),
            vk::ObjectType::IMAGE => self.images.get(&handle).and_then(|i| i.obj),
            vk::ObjectType::DEVICE_MEMORY => self.memories.get(&handle).map(|m| m.obj),
            vk::ObjectType::COMMAND_BUFFER => {
                let unique = self.unique_name(name);
                self.cb_names.insert(handle, unique);
                return;
            }
            _ => None,
        };
        if let Some(obj) = declared {
            let Some(declared_as) = self.program.object(obj).map(|o| o.name.clone()) else {
                return;
            };
            // The same name again renames nothing (a second `.2` name would
            // only confuse); an empty one is not a name to take.
            if name.is_empty() || self.given.get(&declared_as).is_some_and(|g| g == name) {
                return;
            }
            self.given.insert(declared_as.clone(), name.to_string());
            let new = self.unique_name(name);
            // In place, not before the next submitted command: a name given
            // after the last submission still reaches the file.
            self.notes.before(
                self.program.commands().len(),
                &format!(
                    "{RENAME}{declared_as} -> {new} (named `{}` by the application at {call} #{seq}, after it was declared; \
                     `vksync capture` renames it throughout)",
                    printable(name)
                ),
            );
        } else if matches!(ty, vk::ObjectType::BUFFER | vk::ObjectType::IMAGE) {
            self.debug_names.insert(handle, name.to_string());
        }
    }

    /// The trace name of object `handle` from its debug name, if it has
    /// one, with a comment naming the handle.
    fn object_name(&mut self, handle: u64, what: &str, seq: u64, call: &str) -> Option<String> {
        let given = self.debug_names.remove(&handle)?;
        let name = self.unique_name(&given);
        self.given.insert(name.clone(), given.clone());
        self.notes.before(
            self.program.commands().len(),
            &format!(
                "{name} is {what} {handle:#x}, named `{}` by the application (bound at {call} #{seq})",
                printable(&given)
            ),
        );
        Some(name)
    }

    /// A debug name in the trace's name syntax (letters, digits, `_`, `-`,
    /// `.`, starting with a letter or `_`; other characters become `_`),
    /// never one the layer's counters make (`b3`, `m0`, `cb2`...: those
    /// get a `_` appended) nor a keyword, and unique (`.2`, `.3`... appended).
    fn unique_name(&mut self, given: &str) -> String {
        let mut base: String = given
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if !base.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            base.insert(0, '_');
        }
        let counter_like = {
            let letters = base.trim_end_matches(|c: char| c.is_ascii_digit());
            letters.len() < base.len() && ["b", "m", "i", "s", "e", "q", "mk", "cb"].contains(&letters)
        };
        const KEYWORDS: &[&str] = &[
            "alias",
            "exclusive",
            "read",
            "write",
            "rw",
            "uniform",
            "indirect",
            "wait",
            "signal",
            "transition",
            "ownership",
            "family",
            "timeline",
            "align",
            // Dispatch binding words of image views and descriptors.
            "image-read",
            "image-write",
            "image-rw",
            "sampled-image",
            "sampled",
            "input-attachment",
        ];
        if counter_like || KEYWORDS.contains(&base.as_str()) {
            base.push('_');
        }
        let mut name = base.clone();
        let mut k = 2;
        while !self.names_taken.insert(name.clone()) {
            name = format!("{base}.{k}");
            k += 1;
        }
        name
    }

    /// `vkCmdBeginDebugUtilsLabelEXT` (`begin`), `vkCmdEndDebugUtilsLabelEXT`
    /// (`end`) and `vkCmdInsertDebugUtilsLabelEXT` (neither; and the debug
    /// marker calls alike): later commands of `cb` name the open regions in
    /// their comments, and each call leaves a comment in its place.
    pub fn debug_label(&mut self, cb: u64, seq: u64, call: &str, label: Option<&str>, begin: bool) {
        let here = self.cb_name(cb);
        let text = match (label, begin) {
            (Some(l), true) => {
                let l = printable(l);
                self.cbs.entry(cb).or_default().labels.push(l.clone());
                format!("label `{l}` begins ({call} #{seq} in {here})")
            }
            (None, _) => {
                let closed = self.cbs.entry(cb).or_default().labels.pop();
                match closed {
                    Some(l) => format!("label `{l}` ends ({call} #{seq} in {here})"),
                    None => format!("{call} #{seq} in {here} ends no open label"),
                }
            }
            (Some(l), false) => format!("label `{}` ({call} #{seq} in {here})", printable(l)),
        };
        self.note(Some(cb), text);
    }

    /// The name of command buffer `cb` in comments.
    fn cb_name(&mut self, cb: u64) -> String {
        if let Some(n) = self.cb_names.get(&cb) {
            return n.clone();
        }
        let n = format!("cb{}", self.cb_count);
        self.cb_count += 1;
        self.cb_names.insert(cb, n.clone());
        n
    }

    /// `vkCmdExecuteCommands`: the secondary command buffers' entries, as
    /// recorded now, go into `primary` in order (a secondary re-recorded
    /// later invalidates the primary, so "now" is what runs). Nothing is
    /// inherited from the primary: a secondary binds its own pipeline and
    /// descriptor sets, as Vulkan requires.
    pub fn execute_commands(&mut self, primary: u64, seq: u64, secondaries: &[u64]) {
        for (k, s) in secondaries.iter().enumerate() {
            let Some(entries) = self.cbs.get(s).map(|c| c.entries.clone()) else {
                self.not_modelled(
                    Some(primary),
                    seq,
                    "vkCmdExecuteCommands",
                    &format!("secondary command buffer {k} was never allocated on this device"),
                );
                continue;
            };
            self.note(
                Some(primary),
                format!(
                    "vkCmdExecuteCommands #{seq}: secondary command buffer {k} ({} entries)",
                    entries.len()
                ),
            );
            // As recorded in the secondary (its comments already name it).
            self.cbs.entry(primary).or_default().entries.extend(entries);
        }
    }

    /// `vkFreeCommandBuffers`.
    pub fn free_command_buffers(&mut self, cbs: &[u64]) {
        for cb in cbs {
            self.cbs.remove(cb);
        }
    }

    /// `vkBeginCommandBuffer` / `vkResetCommandBuffer`: starts it afresh.
    pub fn reset_command_buffer(&mut self, cb: u64) {
        let e = self.cbs.entry(cb).or_default();
        let pool = e.pool;
        *e = CommandBuffer {
            pool,
            ..Default::default()
        };
    }

    /// `vkResetCommandPool`.
    pub fn reset_command_pool(&mut self, pool: u64) {
        for c in self.cbs.values_mut() {
            if c.pool == pool {
                *c = CommandBuffer {
                    pool,
                    ..Default::default()
                };
            }
        }
    }

    /// Appends an entry recorded in `cb`: a command's comment also names
    /// the command buffer and the open debug labels (`in cb0, label
    /// a/b`), so that a report's line leads to where the application
    /// recorded it.
    fn push(&mut self, cb: u64, e: Entry) {
        let here = self.cb_name(cb);
        let labels = self.cbs.get(&cb).map(|c| c.labels.join("/")).unwrap_or_default();
        let here = if labels.is_empty() {
            format!(" in {here}")
        } else {
            format!(" in {here}, label {labels}")
        };
        let e = match e {
            Entry::Cmd(c, comment) => Entry::Cmd(c, format!("{comment}{here}")),
            Entry::Render(op, comment) => Entry::Render(op, format!("{comment}{here}")),
            Entry::InputDraw(d, comment) => Entry::InputDraw(d, format!("{comment}{here}")),
            Entry::Raw(text, comment) => Entry::Raw(text, format!("{comment}{here}")),
            Entry::Deferred(d, comment) => Entry::Deferred(d, format!("{comment}{here}")),
            Entry::NotModelled(text, _) => Entry::NotModelled(text, here),
            e => e,
        };
        self.cbs.entry(cb).or_default().entries.push(e);
    }

    /// Records a `not-modelled` line in a command buffer (or, with
    /// `None`, before the next submitted command).
    pub fn not_modelled(&mut self, cb: Option<u64>, seq: u64, call: &str, what: &str) {
        let text = if what.is_empty() {
            format!("{call} #{seq}")
        } else {
            format!("{call} #{seq} ({what})")
        };
        self.skip(cb, text);
    }

    /// A `not-modelled` line (`CALL #SEQ (WHY)`) in a command buffer (or,
    /// with `None`, before the next submitted command).
    fn skip(&mut self, cb: Option<u64>, text: String) {
        self.entry(cb, Entry::NotModelled(text, String::new()));
    }

    /// A comment line, placed as [`Capture::skip`] places its line.
    pub(crate) fn note(&mut self, cb: Option<u64>, text: String) {
        self.entry(cb, Entry::Note(text));
    }

    fn entry(&mut self, cb: Option<u64>, e: Entry) {
        match cb {
            Some(cb) => self.push(cb, e),
            None => self.pending.push(e),
        }
    }

    /// `vkCmdBindPipeline` (compute and graphics bind points).
    pub fn bind_pipeline(&mut self, cb: u64, bind_point: vk::PipelineBindPoint, pipeline: u64) {
        if bind_point == vk::PipelineBindPoint::COMPUTE {
            self.cbs.entry(cb).or_default().pipeline = Some(pipeline);
        } else if bind_point == vk::PipelineBindPoint::GRAPHICS {
            self.cbs.entry(cb).or_default().gfx.pipeline = Some(pipeline);
        }
    }

    /// `vkCmdBindDescriptorSets` (compute or graphics: `graphics`): dynamic
    /// offsets are consumed in set order, then binding order, then element
    /// order.
    pub fn bind_sets(
        &mut self,
        cb: u64,
        seq: u64,
        graphics: bool,
        first_set: u32,
        sets: &[u64],
        dynamic_offsets: &[u32],
    ) {
        let mut dyn_iter = dynamic_offsets.iter();
        let mut bound = Vec::new();
        for (k, &set) in sets.iter().enumerate() {
            let mut offsets = HashMap::default();
            let layout = self.sets.get(&set).map(|s| s.layout);
            for b in layout
                .and_then(|l| self.set_layouts.get(&l))
                .into_iter()
                .flatten()
            {
                if matches!(
                    b.ty,
                    vk::DescriptorType::STORAGE_BUFFER_DYNAMIC | vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC
                ) {
                    for e in 0..b.count {
                        match dyn_iter.next() {
                            Some(&o) => {
                                offsets.insert((b.binding, e), u64::from(o));
                            }
                            None => {
                                bound.push(Err(format!(
                                    "too few dynamic offsets in vkCmdBindDescriptorSets #{seq}"
                                )));
                            }
                        }
                    }
                }
            }
            bound.push(Ok((first_set + k as u32, set, offsets)));
        }
        for b in bound {
            match b {
                Ok((n, set, offsets)) => {
                    let state = self.cbs.entry(cb).or_default();
                    let sets = if graphics {
                        &mut state.gfx.sets
                    } else {
                        &mut state.sets
                    };
                    sets.insert(n, (set, offsets));
                }
                Err(e) => self.skip(Some(cb), e),
            }
        }
    }

    /// `vkCmdDispatch` (`indirect: None`) or `vkCmdDispatchIndirect`.
    pub fn dispatch(&mut self, cb: u64, seq: u64, call: &str, indirect: Option<(u64, u64)>) {
        let images = self
            .cbs
            .get(&cb)
            .and_then(|s| s.pipeline)
            .and_then(|p| self.pipelines.get(&p))
            .map_or(0, |p| p.images);
        if images > 0 {
            self.not_modelled(
                Some(cb),
                seq,
                call,
                &format!(
                    "{images} binding(s) of the dispatch that are neither buffers, images nor texel buffers; those are recorded"
                ),
            );
        }
        if let Some(state) = self.cbs.get(&cb) {
            let pipeline = state.pipeline.and_then(|p| self.pipelines.get(&p));
            if let Some(p) = pipeline.filter(|p| {
                self.after_bind(
                    &state.sets,
                    p.uses
                        .keys()
                        .chain(p.image_uses.keys())
                        .chain(p.texel_uses.keys()),
                )
            }) {
                let note = p.note.clone();
                let d = Deferred::Dispatch {
                    pipeline: state.pipeline,
                    sets: state.sets.clone(),
                    push: state.push.clone(),
                    indirect,
                };
                if let Some(n) = note {
                    self.note(Some(cb), format!("{call} #{seq}: {n}"));
                }
                self.push(cb, Entry::Deferred(Box::new(d), format!("{call} #{seq}")));
                return;
            }
        }
        match self.dispatch_command(cb, indirect) {
            Ok((c, note)) => {
                if let Some(n) = note {
                    self.note(Some(cb), format!("{call} #{seq}: {n}"));
                }
                self.push(cb, Entry::Cmd(c, format!("{call} #{seq}")));
            }
            Err(e) => self.not_modelled(Some(cb), seq, call, &e),
        }
    }

    fn dispatch_command(
        &self,
        cb: u64,
        indirect: Option<(u64, u64)>,
    ) -> Result<(Command, Option<String>), String> {
        let state = self.cbs.get(&cb).ok_or("an unknown command buffer")?;
        self.dispatch_with(state.pipeline, &state.sets, &state.push, indirect)
    }

    /// A dispatch with the compute bind state `pipeline`, `sets`, `push`.
    fn dispatch_with(
        &self,
        pipeline: Option<u64>,
        sets: &HashMap<u32, BoundSet>,
        push: &HashMap<u32, Set>,
        indirect: Option<(u64, u64)>,
    ) -> Result<(Command, Option<String>), String> {
        let p = pipeline.ok_or("no compute pipeline bound")?;
        let pipeline = self.pipelines.get(&p).ok_or("an unknown pipeline")?;
        // An input attachment in a dispatch is invalid (no compute stage
        // reads one); nothing to record for it.
        let (bindings, _) = self.descriptor_bindings(
            sets,
            push,
            &pipeline.uses,
            &pipeline.image_uses,
            &pipeline.texel_uses,
            &pipeline.elements,
        )?;
        if bindings.is_empty() {
            return Err("a dispatch that uses no buffer or image".to_string());
        }
        let indirect = match indirect {
            Some((buf, off)) => Some(self.region(buf, off, 12)?),
            None => None,
        };
        Ok((
            Command::Dispatch {
                kernel: pipeline.kernel.clone(),
                params: Vec::new(),
                bindings,
                indirect,
            },
            pipeline.note.clone(),
        ))
    }

    /// Whether image view `view` still reaches an image bound to memory
    /// (none of the three destroyed).
    fn live_view(&self, view: u64) -> bool {
        self.views
            .get(&view)
            .and_then(|v| self.images.get(&v.image))
            .and_then(|i| i.obj)
            .is_some_and(|o| !self.destroyed.contains(&o))
    }

    /// Whether buffer view `view` still reaches a buffer bound to memory.
    fn live_buffer_view(&self, view: u64) -> bool {
        self.buffer_views
            .get(&view)
            .and_then(|(buffer, _, _)| self.buffers.get(buffer))
            .is_some_and(|b| b.obj.is_some())
    }

    /// Whether one of the `(set, binding)`s `used` is, in the sets bound
    /// `sets`, a binding with `VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT`
    /// (a command using it is [`Deferred`]).
    fn after_bind<'a>(
        &self,
        sets: &HashMap<u32, BoundSet>,
        mut used: impl Iterator<Item = &'a (u32, u32)>,
    ) -> bool {
        used.any(|&(set, binding)| {
            sets.get(&set)
                .filter(|(handle, _)| *handle != PUSHED)
                .and_then(|(handle, _)| self.sets.get(handle))
                .and_then(|s| self.set_layouts.get(&s.layout))
                .and_then(|l| l.iter().find(|b| b.binding == binding))
                .is_some_and(|b| b.flags.contains(vk::DescriptorBindingFlags::UPDATE_AFTER_BIND))
        })
    }

    /// A [`Deferred`] command made from the descriptor sets as they are
    /// now (at its submission): a command, or a `not-modelled` line saying
    /// why not.
    fn resolve_deferred(&self, d: &Deferred, comment: String) -> Entry {
        let made = match d {
            Deferred::Dispatch {
                pipeline,
                sets,
                push,
                indirect,
            } => self
                .dispatch_with(*pipeline, sets, push, *indirect)
                .map(|(c, _)| Entry::Cmd(c, comment.clone())),
            Deferred::Draw { gfx, call } => self.draw_with(gfx, *call).map(|m| m.entry(comment.clone())),
        };
        made.unwrap_or_else(|why| {
            let (call, here) = comment
                .find(" in ")
                .map_or((comment.as_str(), ""), |i| comment.split_at(i));
            Entry::NotModelled(
                format!("{call} ({why}; made at the submission: it uses UPDATE_AFTER_BIND descriptors)"),
                here.to_string(),
            )
        })
    }

    /// The entries command buffer `cb` runs if submitted now: its
    /// [`Deferred`] commands made from the descriptor sets as they are.
    fn submitted_entries(&self, cb: u64) -> Vec<Entry> {
        let Some(c) = self.cbs.get(&cb) else {
            return Vec::new();
        };
        c.entries
            .iter()
            .map(|e| match e {
                Entry::Deferred(d, comment) => self.resolve_deferred(d, comment.clone()),
                e => e.clone(),
            })
            .collect()
    }

    /// Binding `binding` of set `set` as bound at one bind point (`sets`,
    /// pushed sets `push`): the set, its dynamic offsets, the layout
    /// binding, its element count and whether it is partially bound. The
    /// one lookup of a bound binding, for buffers, images and texel
    /// buffers alike.
    fn bound_binding<'a>(
        &'a self,
        sets: &'a HashMap<u32, BoundSet>,
        push: &'a HashMap<u32, Set>,
        set: u32,
        binding: u32,
    ) -> Result<BoundBinding<'a>, String> {
        let (set_handle, offsets) = sets.get(&set).ok_or_else(|| format!("set {set} not bound"))?;
        let s = if *set_handle == PUSHED {
            push.get(&set)
                .ok_or_else(|| format!("push descriptor set {set} never pushed"))?
        } else {
            self.sets.get(set_handle).ok_or("an unknown descriptor set")?
        };
        let layout_binding = self
            .set_layouts
            .get(&s.layout)
            .and_then(|l| l.iter().find(|b| b.binding == binding));
        let count = layout_binding.map_or(1, |b| b.count.max(1));
        Ok((s, offsets, layout_binding, count, partially_bound(layout_binding)))
    }

    /// The bindings of the descriptors a pipeline uses (`uses`: buffers,
    /// `image_uses`: images, `texel_uses`: texel buffers, each by `(set,
    /// binding)`), read from the sets bound at one bind point (`sets`,
    /// with the push descriptor sets `push`): the one reading of bound
    /// descriptors, for dispatches and for each stage of a draw. With
    /// them, whether an input attachment descriptor is among the uses (its
    /// read is not a binding: see below).
    #[allow(clippy::too_many_arguments)]
    fn descriptor_bindings(
        &self,
        sets: &HashMap<u32, BoundSet>,
        push: &HashMap<u32, Set>,
        uses: &BTreeMap<(u32, u32), Use>,
        image_uses: &BTreeMap<(u32, u32), Use>,
        texel_uses: &BTreeMap<(u32, u32), Use>,
        elements: &BTreeMap<(u32, u32), u64>,
    ) -> Result<(Vec<Binding>, bool), String> {
        // Of a descriptor array the shader indexes with constants only,
        // the elements it names: a descriptor written at another element
        // is never accessed through this binding.
        let named = |set: u32, binding: u32, e: u32| {
            elements
                .get(&(set, binding))
                .is_none_or(|m| e < 64 && m >> e & 1 == 1)
        };
        let mut bindings = Vec::new();
        let mut input_attachments = false;
        for (&(set, binding), u) in uses {
            let (s, offsets, layout_binding, count, partial) =
                self.bound_binding(sets, push, set, binding)?;
            // A uniform buffer is read as UNIFORM_READ, whatever the
            // reflection says: a barrier to SHADER_STORAGE_READ does not
            // cover it (issue 23: wgpu's correct `-> UNIFORM_READ` barrier
            // drew a false read-after-write when it was recorded as a
            // storage read).
            let uniform = layout_binding.is_some_and(|b| {
                matches!(
                    b.ty,
                    vk::DescriptorType::UNIFORM_BUFFER | vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC
                )
            });
            if !partial && !s.descs.contains_key(&(binding, 0)) {
                return Err(format!("set {set} binding {binding} never written"));
            }
            for (e, d) in written(&s.descs, binding, count).filter(|(e, _)| named(set, binding, *e)) {
                // A partially bound element whose buffer is gone is one the
                // shader does not use (else the program is invalid).
                if partial && self.destroyed.contains(&d.obj) {
                    continue;
                }
                let start = d.offset + offsets.get(&(binding, e)).copied().unwrap_or(0);
                let end = start.checked_add(d.range).ok_or("a range past 2^64")?;
                if end > d.buffer_size {
                    return Err(format!("set {set} binding {binding} past the buffer's end"));
                }
                let access = match (u.read, u.write) {
                    _ if uniform => BindingAccess::Uniform,
                    (true, true) => BindingAccess::ReadWrite,
                    (false, true) => BindingAccess::Write,
                    _ => BindingAccess::Read,
                };
                bindings.push(Binding {
                    access,
                    region: Region {
                        object: d.obj,
                        range: ByteRange::new(start, end),
                    },
                });
            }
        }
        for (&(set, binding), u) in image_uses {
            let (s, _, layout_binding, count, partial) = self.bound_binding(sets, push, set, binding)?;
            let ty = layout_binding.map_or(vk::DescriptorType::STORAGE_IMAGE, |b| b.ty);
            // An input attachment (`subpassLoad`) is read through the
            // subpass's input reference, which the render pass line
            // names (`subpass input N LAYOUT`): the model charges every
            // draw of the subpass its INPUT_ATTACHMENT_READ there. Its
            // descriptor adds nothing (review36: the draw was
            // `not-modelled`, "never written", since these writes are not
            // kept).
            if ty == vk::DescriptorType::INPUT_ATTACHMENT {
                input_attachments = true;
                continue;
            }
            if !partial && !s.images.contains_key(&(binding, 0)) {
                return Err(format!("set {set} binding {binding} (an image) never written"));
            }
            for (_, &(view, layout)) in
                written(&s.images, binding, count).filter(|(e, _)| named(set, binding, *e))
            {
                if partial && !self.live_view(view) {
                    continue;
                }
                let b = self
                    .image_binding(view, layout, ty, *u)
                    .map_err(|e| format!("set {set} binding {binding}: {e}"))?;
                bindings.push(b);
            }
        }
        for (&(set, binding), u) in texel_uses {
            let (s, _, layout_binding, count, partial) = self.bound_binding(sets, push, set, binding)?;
            // A uniform texel buffer is SHADER_SAMPLED_READ; a storage one
            // is accessed as a storage buffer (docs/trace-format.md).
            let uniform = layout_binding.is_some_and(|b| b.ty == vk::DescriptorType::UNIFORM_TEXEL_BUFFER);
            if !partial && !s.texels.contains_key(&(binding, 0)) {
                return Err(format!(
                    "set {set} binding {binding} (a texel buffer) never written"
                ));
            }
            for (_, view) in written(&s.texels, binding, count).filter(|(e, _)| named(set, binding, *e)) {
                if partial && !self.live_buffer_view(*view) {
                    continue;
                }
                let &(buffer, offset, range) = self
                    .buffer_views
                    .get(view)
                    .ok_or_else(|| format!("set {set} binding {binding}: an unknown buffer view"))?;
                let region = self
                    .region(buffer, offset, range)
                    .map_err(|e| format!("set {set} binding {binding}: {e}"))?;
                let access = match (u.read, u.write) {
                    _ if uniform => BindingAccess::Sampled,
                    (true, true) => BindingAccess::ReadWrite,
                    (false, true) => BindingAccess::Write,
                    _ => BindingAccess::Read,
                };
                bindings.push(Binding { access, region });
            }
        }
        Ok((bindings, input_attachments))
    }

    /// A dispatch's binding of an image descriptor of type `ty` over
    /// `view`, which the shader uses as `u`: for an image declared exactly,
    /// `image-read`/`-write`/`-rw` (a storage image, by reflection) or
    /// `sampled-image` with the descriptor's layout, over the view's one
    /// byte range; for a coarse image, `read`/`write`/`rw` or `sampled`
    /// over all of its memory (the same accesses, without layouts).
    fn image_binding(
        &self,
        view: u64,
        layout: vk::ImageLayout,
        ty: vk::DescriptorType,
        u: Use,
    ) -> Result<Binding, String> {
        let storage = match ty {
            vk::DescriptorType::STORAGE_IMAGE => true,
            vk::DescriptorType::SAMPLED_IMAGE | vk::DescriptorType::COMBINED_IMAGE_SAMPLER => false,
            other => return Err(format!("descriptor type {other:?} is not modelled")),
        };
        let v = self.views.get(&view).ok_or("an unknown image view")?;
        let i = self.images.get(&v.image).ok_or("a view of an unknown image")?;
        let obj = i.obj.ok_or("a view of an image without memory")?;
        let storage_access = |exact: bool| match (u.read, u.write, exact) {
            (true, true, true) => BindingAccess::ImageReadWrite,
            (false, true, true) => BindingAccess::ImageWrite,
            (_, _, true) => BindingAccess::ImageRead,
            (true, true, false) => BindingAccess::ReadWrite,
            (false, true, false) => BindingAccess::Write,
            (_, _, false) => BindingAccess::Read,
        };
        if !i.exact {
            let (region, _) = self.image_region(v.image)?;
            let access = if storage {
                storage_access(false)
            } else {
                BindingAccess::Sampled
            };
            return Ok(Binding { access, region });
        }
        let desc = self.program.image(obj).ok_or("not an image of the trace")?;
        let range = model_range(v.range);
        let bytes = desc
            .range_bytes(range)
            .map_err(|e| format!("the view's subresource range {range}: {e}"))?;
        // The model's view binding is one byte range: one aspect, and one
        // mip level or all array layers.
        let [range_bytes] = bytes[..] else {
            return Err(format!(
                "the view's subresource range {range} is {} byte ranges of the model's layout",
                bytes.len()
            ));
        };
        if range.aspects.count() != 1 {
            return Err(format!(
                "the view's subresource range {range} has several aspects"
            ));
        }
        let access = if storage {
            storage_access(true)
        } else {
            let l = model_layout(layout).ok_or_else(|| format!("layout {layout:?} is not in the model"))?;
            BindingAccess::SampledImage(l)
        };
        Ok(Binding {
            access,
            region: Region {
                object: obj,
                range: range_bytes,
            },
        })
    }

    /// `vkCmdCopyBuffer`: one `copy` per region.
    pub fn copy_buffer(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        src: u64,
        dst: u64,
        regions: &[vk::BufferCopy],
    ) {
        for (k, r) in regions.iter().enumerate() {
            let call = if regions.len() > 1 {
                format!("{call} #{seq} region {k}")
            } else {
                format!("{call} #{seq}")
            };
            match (
                self.region(src, r.src_offset, r.size),
                self.region(dst, r.dst_offset, r.size),
            ) {
                (Ok(s), Ok(d)) => self.push(cb, Entry::Cmd(Command::Copy { src: s, dst: d }, call)),
                (Err(e), _) | (_, Err(e)) => self.skip(Some(cb), format!("{call} ({e})")),
            }
        }
    }

    /// `vkCmdCopyBufferToImage(2)` (`buffer` is the source) or
    /// `vkCmdCopyImageToBuffer(2)` (`buffer` the destination): one
    /// `copy-buffer-to-image` or `copy-image-to-buffer` per region, the
    /// image side all of the image's memory, the buffer side the bytes the
    /// region touches (from `bufferOffset` to the end of the buffer when
    /// the format's texel size is unknown, with a comment).
    #[allow(clippy::too_many_arguments)]
    #[allow(clippy::too_many_arguments)]
    pub fn copy_buffer_image(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        kind: ImageCopy,
        buffer: u64,
        image: u64,
        layout: vk::ImageLayout,
        regions: &[vk::BufferImageCopy],
    ) {
        if self.images.get(&image).is_some_and(|i| i.exact) {
            let op = self.buffer_image_op(kind, buffer, image, layout, regions);
            return self.push_image_op(cb, seq, call, op);
        }
        let (img, format) = match self.image_region(image) {
            Ok(i) => i,
            Err(e) => return self.skip(Some(cb), format!("{call} #{seq} ({e})")),
        };
        for (k, r) in regions.iter().enumerate() {
            let name = if regions.len() > 1 {
                format!("{call} #{seq} region {k}")
            } else {
                format!("{call} #{seq}")
            };
            let side = match buffer_image_bytes(format, r) {
                Some((start, end)) => self.region(buffer, start, end - start),
                None => {
                    self.note(
                        Some(cb),
                        format!("{name}: texel size of {format:?} unknown: the buffer from bufferOffset to its end"),
                    );
                    self.region(buffer, r.buffer_offset, vk::WHOLE_SIZE)
                }
            };
            let side = match side {
                Ok(s) => s,
                Err(e) => {
                    self.skip(Some(cb), format!("{name} ({e})"));
                    continue;
                }
            };
            let (src, dst) = match kind {
                ImageCopy::ImageToBuffer => (img, side),
                _ => (side, img),
            };
            self.push(cb, Entry::Cmd(Command::CopyImage { kind, src, dst }, name));
        }
    }

    /// The exact form of a buffer-image copy of an image declared exactly:
    /// every region with its buffer layout and subresource, and the
    /// image's layout.
    fn buffer_image_op(
        &self,
        kind: ImageCopy,
        buffer: u64,
        image: u64,
        layout: vk::ImageLayout,
        regions: &[vk::BufferImageCopy],
    ) -> Result<vksync::ImageOp, String> {
        let b = self.buffers.get(&buffer).ok_or("an unknown buffer")?;
        let buffer = b.obj.ok_or("a buffer without memory")?;
        let image = self.exact_obj(image)?;
        let layout = model_layout(layout).ok_or_else(|| format!("layout {layout:?} is not in the model"))?;
        let regions = regions
            .iter()
            .map(|r| {
                Ok(vksync::BufferImageCopy {
                    buffer_offset: r.buffer_offset,
                    row_length: r.buffer_row_length,
                    image_height: r.buffer_image_height,
                    subresource: model_layers(r.image_subresource),
                    offset: offset3(r.image_offset)?,
                    extent: [r.image_extent.width, r.image_extent.height, r.image_extent.depth],
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(match kind {
            ImageCopy::ImageToBuffer => vksync::ImageOp::CopyImageToBuffer {
                image,
                layout,
                buffer,
                regions,
            },
            _ => vksync::ImageOp::CopyBufferToImage {
                buffer,
                image,
                layout,
                regions,
            },
        })
    }

    /// The trace object of an image declared exactly.
    fn exact_obj(&self, image: u64) -> Result<ObjectId, String> {
        let i = self.images.get(&image).ok_or("an unknown image")?;
        let obj = i.obj.ok_or("an image without memory")?;
        if !i.exact {
            return Err("an image declared coarsely".into());
        }
        Ok(obj)
    }

    /// Pushes an exact image command (the model checks it against its
    /// images: a region outside the image, a layout the command does not
    /// allow), or a `not-modelled` line saying why not.
    fn push_image_op(&mut self, cb: u64, seq: u64, call: &str, op: Result<vksync::ImageOp, String>) {
        match op.and_then(|op| self.program.image_command(op).map_err(|e| e.to_string())) {
            Ok(c) => self.push(cb, Entry::Cmd(c, format!("{call} #{seq}"))),
            Err(e) => self.not_modelled(Some(cb), seq, call, &e),
        }
    }

    /// `vkCmdCopyImage(2)`: between two images declared exactly, a
    /// `copy-image` with every region and both layouts; otherwise one
    /// `copy-image` of all of one image's memory to all of the other's,
    /// whatever the regions.
    #[allow(clippy::too_many_arguments)]
    pub fn copy_image(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        src: (u64, vk::ImageLayout),
        dst: (u64, vk::ImageLayout),
        regions: &[vk::ImageCopy],
    ) {
        let exact = |c: &Self, i: u64| c.images.get(&i).is_some_and(|i| i.exact);
        if exact(self, src.0) && exact(self, dst.0) {
            let op = (|| {
                let side = |(i, l): (u64, vk::ImageLayout)| -> Result<_, String> {
                    Ok((
                        self.exact_obj(i)?,
                        model_layout(l).ok_or_else(|| format!("layout {l:?} is not in the model"))?,
                    ))
                };
                let regions = regions
                    .iter()
                    .map(|r| {
                        Ok(vksync::ImageCopyRegion {
                            src_subresource: model_layers(r.src_subresource),
                            src_offset: offset3(r.src_offset)?,
                            dst_subresource: model_layers(r.dst_subresource),
                            dst_offset: offset3(r.dst_offset)?,
                            extent: [r.extent.width, r.extent.height, r.extent.depth],
                        })
                    })
                    .collect::<Result<Vec<_>, String>>()?;
                Ok(vksync::ImageOp::CopyImage {
                    src: side(src)?,
                    dst: side(dst)?,
                    regions,
                })
            })();
            return self.push_image_op(cb, seq, call, op);
        }
        match (self.image_region(src.0), self.image_region(dst.0)) {
            (Ok((s, _)), Ok((d, _))) => self.push(
                cb,
                Entry::Cmd(
                    Command::CopyImage {
                        kind: ImageCopy::ImageToImage,
                        src: s,
                        dst: d,
                    },
                    format!("{call} #{seq}"),
                ),
            ),
            (Err(e), _) | (_, Err(e)) => self.skip(Some(cb), format!("{call} #{seq} ({e})")),
        }
    }

    /// The trace object and model layout of one side of an image command,
    /// of an image declared exactly (a coarse image's blits, resolves and
    /// clears are not modelled: their stages are not a copy's, and a coarse
    /// image has no layouts).
    fn exact_side(
        &self,
        (image, layout): (u64, vk::ImageLayout),
    ) -> Result<(ObjectId, vksync::ImageLayout), String> {
        Ok((
            self.exact_obj(image)?,
            model_layout(layout).ok_or_else(|| format!("layout {layout:?} is not in the model"))?,
        ))
    }

    /// `vkCmdClearColorImage` (`depth_stencil: false`) or
    /// `vkCmdClearDepthStencilImage`: `clear-color-image` /
    /// `clear-depth-stencil-image` with every range, of an image declared
    /// exactly.
    pub fn clear_image(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        depth_stencil: bool,
        image: (u64, vk::ImageLayout),
        ranges: &[[u32; 5]],
    ) {
        let op = self.exact_side(image).map(|(image, layout)| {
            let ranges = ranges.iter().map(|r| model_range(*r)).collect();
            if depth_stencil {
                vksync::ImageOp::ClearDepthStencilImage {
                    image,
                    layout,
                    ranges,
                }
            } else {
                vksync::ImageOp::ClearColorImage {
                    image,
                    layout,
                    ranges,
                }
            }
        });
        self.push_image_op(cb, seq, call, op);
    }

    /// `vkCmdBlitImage(2)`: `blit-image` with every region, both layouts
    /// and the filter, between images declared exactly.
    #[allow(clippy::too_many_arguments)]
    pub fn blit_image(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        src: (u64, vk::ImageLayout),
        dst: (u64, vk::ImageLayout),
        regions: &[vk::ImageBlit],
        filter: vk::Filter,
    ) {
        let op = (|| {
            let filter = vksync::Filter::from_raw(filter.as_raw())
                .ok_or_else(|| format!("filter {} is not one the model knows", filter.as_raw()))?;
            let corners = |o: [vk::Offset3D; 2]| -> Result<[[u32; 3]; 2], String> {
                Ok([offset3(o[0])?, offset3(o[1])?])
            };
            let regions = regions
                .iter()
                .map(|r| {
                    Ok(vksync::ImageBlitRegion {
                        src_subresource: model_layers(r.src_subresource),
                        src_offsets: corners(r.src_offsets)?,
                        dst_subresource: model_layers(r.dst_subresource),
                        dst_offsets: corners(r.dst_offsets)?,
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(vksync::ImageOp::BlitImage {
                src: self.exact_side(src)?,
                dst: self.exact_side(dst)?,
                regions,
                filter,
            })
        })();
        self.push_image_op(cb, seq, call, op);
    }

    /// `vkCmdResolveImage(2)`: `resolve-image` with every region and both
    /// layouts, between images declared exactly.
    pub fn resolve_image(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        src: (u64, vk::ImageLayout),
        dst: (u64, vk::ImageLayout),
        regions: &[vk::ImageResolve],
    ) {
        let op = (|| {
            let regions = regions
                .iter()
                .map(|r| {
                    Ok(vksync::ImageCopyRegion {
                        src_subresource: model_layers(r.src_subresource),
                        src_offset: offset3(r.src_offset)?,
                        dst_subresource: model_layers(r.dst_subresource),
                        dst_offset: offset3(r.dst_offset)?,
                        extent: [r.extent.width, r.extent.height, r.extent.depth],
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(vksync::ImageOp::ResolveImage {
                src: self.exact_side(src)?,
                dst: self.exact_side(dst)?,
                regions,
            })
        })();
        self.push_image_op(cb, seq, call, op);
    }

    /// `vkCmdFillBuffer`; a `VK_WHOLE_SIZE` fill stops at the last whole
    /// word, as Vulkan defines.
    pub fn fill_buffer(&mut self, cb: u64, seq: u64, dst: u64, offset: u64, size: u64, value: u32) {
        let size = if size == vk::WHOLE_SIZE {
            self.buffers
                .get(&dst)
                .map_or(0, |b| b.size.saturating_sub(offset) / 4 * 4)
        } else {
            size
        };
        match self.region(dst, offset, size) {
            Ok(r) => self.push(
                cb,
                Entry::Cmd(Command::Fill { dst: r, value }, format!("vkCmdFillBuffer #{seq}")),
            ),
            Err(e) => self.not_modelled(Some(cb), seq, "vkCmdFillBuffer", &e),
        }
    }

    /// `vkCreateQueryPool`: a trace object `qpN` for its results, sized for
    /// the widest copy (64-bit values and an availability or status word).
    pub fn create_query_pool(
        &mut self,
        seq: u64,
        pool: u64,
        ty: vk::QueryType,
        count: u32,
        statistics: vk::QueryPipelineStatisticFlags,
    ) {
        let values = match ty {
            vk::QueryType::OCCLUSION
            | vk::QueryType::TIMESTAMP
            | vk::QueryType::PRIMITIVES_GENERATED_EXT
            | vk::QueryType::MESH_PRIMITIVES_GENERATED_EXT => Some(1),
            vk::QueryType::PIPELINE_STATISTICS => Some(statistics.as_raw().count_ones()),
            vk::QueryType::TRANSFORM_FEEDBACK_STREAM_EXT => Some(2),
            _ => None,
        };
        let name = format!("qp{}", self.query_pool_count);
        self.query_pool_count += 1;
        let size = u64::from(count) * 8 * (u64::from(values.unwrap_or(0)) + 1);
        let obj = match values {
            Some(_) if size > 0 => match self.program.buffer(&name, size) {
                Ok(obj) => {
                    self.notes.before(
                        self.program.commands().len(),
                        &format!(
                            "{name} stands for the results of VkQueryPool {pool:#x} (vkCreateQueryPool #{seq}, {ty:?}, {count} queries): what vkCmdCopyQueryPoolResults copies from"
                        ),
                    );
                    Some(obj)
                }
                Err(_) => None,
            },
            _ => None,
        };
        self.query_pools.insert(pool, QueryPool { obj, count, values });
    }

    /// `vkDestroyQueryPool`.
    pub fn destroy_query_pool(&mut self, pool: u64) {
        self.query_pools.remove(&pool);
    }

    /// `vkCmdCopyQueryPoolResults`: a `copy` (COPY:TRANSFER_WRITE, as the
    /// spec puts it among the copy commands) from the pool's results
    /// object into each query's bytes of `dst`: one `copy` where the
    /// results are packed (`stride` the size of one query's results),
    /// else one per query (up to 256; past that, one over their hull,
    /// gaps included, with a comment).
    #[allow(clippy::too_many_arguments)]
    pub fn copy_query_results(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        pool: u64,
        first: u32,
        count: u32,
        dst: u64,
        offset: u64,
        stride: u64,
        flags: vk::QueryResultFlags,
    ) {
        let made = self.query_copies(pool, first, count, dst, offset, stride, flags);
        match made {
            Ok((copies, note)) => {
                if let Some(n) = note {
                    self.note(Some(cb), format!("{call} #{seq}: {n}"));
                }
                let n = copies.len();
                for (k, c) in copies.into_iter().enumerate() {
                    let name = if n > 1 {
                        format!("{call} #{seq} query {k}")
                    } else {
                        format!("{call} #{seq}")
                    };
                    self.push(cb, Entry::Cmd(c, name));
                }
            }
            Err(e) => self.not_modelled(Some(cb), seq, call, &e),
        }
    }

    /// The `copy` commands of a `vkCmdCopyQueryPoolResults`, and a comment
    /// when they cover more than the results' bytes.
    #[allow(clippy::too_many_arguments)]
    fn query_copies(
        &self,
        pool: u64,
        first: u32,
        count: u32,
        dst: u64,
        offset: u64,
        stride: u64,
        flags: vk::QueryResultFlags,
    ) -> Result<(Vec<Command>, Option<String>), String> {
        let p = self
            .query_pools
            .get(&pool)
            .ok_or("a query pool the layer did not see created")?;
        let values = p
            .values
            .ok_or("a query type whose results' size the layer does not know")?;
        let src_obj = p.obj.ok_or("a query pool of no queries")?;
        if count == 0 {
            return Ok((Vec::new(), None));
        }
        if u64::from(first) + u64::from(count) > u64::from(p.count) {
            return Err(format!(
                "queries {first}..{} of a pool of {}",
                u64::from(first) + u64::from(count),
                p.count
            ));
        }
        let word = if flags.contains(vk::QueryResultFlags::TYPE_64) {
            8
        } else {
            4
        };
        let extra = u64::from(
            flags.intersects(vk::QueryResultFlags::WITH_AVAILABILITY | vk::QueryResultFlags::WITH_STATUS_KHR),
        );
        let size = word * (u64::from(values) + extra);
        let buffer = self.buffers.get(&dst).ok_or("an unknown buffer")?;
        let dst_obj = buffer.obj.ok_or("a buffer without memory")?;
        let src = |q: u64, len: u64| Region {
            object: src_obj,
            range: ByteRange::new(q * size, q * size + len),
        };
        let at = |k: u64| offset.checked_add(k.checked_mul(stride)?);
        let total = at(u64::from(count) - 1)
            .and_then(|o| o.checked_add(size))
            .filter(|&end| end <= buffer.size)
            .ok_or("results past the buffer's end")?;
        let copy = |q: u64, start: u64, len: u64| Command::Copy {
            src: src(q, len),
            dst: Region {
                object: dst_obj,
                range: ByteRange::new(start, start + len),
            },
        };
        let first = u64::from(first);
        if stride == size || count == 1 {
            return Ok((vec![copy(first, offset, total - offset)], None));
        }
        if count > 256 {
            // The hull, read from the results object at the same length.
            let len = total - offset;
            if first * size + len > u64::from(p.count) * 8 * (u64::from(values) + 1) {
                return Err(format!(
                    "{count} queries {stride} bytes apart: more than the layer writes as copies"
                ));
            }
            return Ok((
                vec![copy(first, offset, len)],
                Some(format!(
                    "{count} queries {stride} bytes apart, {size} bytes each: one copy over their hull (the bytes between them counted written)"
                )),
            ));
        }
        let copies = (0..u64::from(count))
            .map(|k| copy(first + k, at(k).unwrap_or(offset), size))
            .collect();
        Ok((copies, None))
    }

    /// `vkCmdUpdateBuffer` (the data itself is not kept).
    pub fn update_buffer(&mut self, cb: u64, seq: u64, dst: u64, offset: u64, size: u64) {
        match self.region(dst, offset, size) {
            Ok(r) => self.push(
                cb,
                Entry::Cmd(
                    Command::Update { dst: r, value: 0 },
                    format!("vkCmdUpdateBuffer #{seq}"),
                ),
            ),
            Err(e) => self.not_modelled(Some(cb), seq, "vkCmdUpdateBuffer", &e),
        }
    }

    /// `vkCmdPipelineBarrier2` or `vkCmdPipelineBarrier` (masks already in
    /// synchronization-2 terms): global barriers, then buffer barriers
    /// `(masks, buffer, offset, size)`. Image barriers are counted by the
    /// caller in `images` and written as not modelled.
    pub fn barrier(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        globals: &[[u64; 4]],
        resources: &[ResourceBarrier],
    ) {
        let dep = self.dependency(cb, seq, call, globals, resources, false);
        if !dep.barriers.is_empty() {
            self.push(cb, Entry::Cmd(Command::Barrier(dep), format!("{call} #{seq}")));
        }
    }

    /// `vkCreateEvent`.
    pub fn create_event(&mut self, event: u64) {
        self.events.insert(event, None);
    }

    /// `vkDestroyEvent`. Its trace event stays declared.
    pub fn destroy_event(&mut self, event: u64) {
        self.events.remove(&event);
    }

    /// The trace event of `VkEvent` `event`, declared at its first use;
    /// `None` for one the layer did not see created.
    fn event_id(&mut self, event: u64) -> Option<EventId> {
        let id = *self.events.get(&event)?;
        if let Some(id) = id {
            return Some(id);
        }
        let name = format!("e{}", self.program.events().len());
        let id = self.program.event(&name).ok()?;
        self.events.insert(event, Some(id));
        Some(id)
    }

    /// `vkCmdSetEvent2`.
    pub fn set_event(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        event: u64,
        globals: &[[u64; 4]],
        resources: &[ResourceBarrier],
    ) {
        let dependency = self.dependency(cb, seq, call, globals, resources, true);
        match self.event_id(event) {
            Some(event) => self.push(
                cb,
                Entry::Cmd(Command::SetEvent { event, dependency }, format!("{call} #{seq}")),
            ),
            None => self.not_modelled(Some(cb), seq, call, "an event the layer did not see created"),
        }
    }

    /// `vkCmdWaitEvents2`: each event with its dependency info (global
    /// barriers, resource barriers).
    #[allow(clippy::type_complexity)]
    pub fn wait_events(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        waits: &[(u64, Vec<[u64; 4]>, Vec<ResourceBarrier>)],
    ) {
        let mut out = Vec::new();
        for (event, globals, resources) in waits {
            let dependency = self.dependency(cb, seq, call, globals, resources, true);
            match self.event_id(*event) {
                Some(event) => out.push(EventWait { event, dependency }),
                None => {
                    return self.not_modelled(Some(cb), seq, call, "an event the layer did not see created")
                }
            }
        }
        self.push(
            cb,
            Entry::Cmd(Command::WaitEvents { waits: out }, format!("{call} #{seq}")),
        );
    }

    /// `vkCmdSetEvent`, its stage mask already in synchronization-2 terms.
    /// Bits outside the model are dropped with a note, as from a barrier's
    /// masks: the wait's `srcStageMask` drops the same ones, so the two
    /// still agree (VUID-vkCmdWaitEvents-srcStageMask-01158).
    pub fn set_event1(&mut self, cb: u64, seq: u64, call: &str, event: u64, stages: u64) {
        let s = vk::PipelineStageFlags2::from_raw(stages);
        let m = to_model(s, vk::AccessFlags2::NONE, s, vk::AccessFlags2::NONE);
        if m.dropped_stages != 0 {
            self.note(
                Some(cb),
                format!(
                    "{call} #{seq}: stages outside the model dropped ({:#x}): less ordering, never more",
                    m.dropped_stages
                ),
            );
        }
        match self.event_id(event) {
            Some(event) => self.push(
                cb,
                Entry::Cmd(
                    Command::SetEvent1 {
                        event,
                        stage_mask: m.src_stages,
                    },
                    format!("{call} #{seq}"),
                ),
            ),
            None => self.not_modelled(Some(cb), seq, call, "an event the layer did not see created"),
        }
    }

    /// `vkCmdWaitEvents`: its events, its `[srcStageMask, dstStageMask]`
    /// and its barriers (each with those stage masks), already in
    /// synchronization-2 terms. A wait with no barrier left (none given,
    /// or each one's resource unknown) is an execution dependency: one
    /// global barrier with no access.
    #[allow(clippy::too_many_arguments)]
    pub fn wait_events1(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        events: &[u64],
        stages: [u64; 2],
        globals: &[[u64; 4]],
        resources: &[ResourceBarrier],
    ) {
        let mut dependency = self.dependency(cb, seq, call, globals, resources, true);
        if dependency.barriers.is_empty() {
            let m = to_model(
                vk::PipelineStageFlags2::from_raw(stages[0]),
                vk::AccessFlags2::NONE,
                vk::PipelineStageFlags2::from_raw(stages[1]),
                vk::AccessFlags2::NONE,
            );
            dependency.barriers.push(Barrier::global(
                m.src_stages,
                m.src_access,
                m.dst_stages,
                m.dst_access,
            ));
        }
        let mut out = Vec::with_capacity(events.len());
        for e in events {
            match self.event_id(*e) {
                Some(event) => out.push(event),
                None => {
                    return self.not_modelled(Some(cb), seq, call, "an event the layer did not see created")
                }
            }
        }
        self.push(
            cb,
            Entry::Cmd(
                Command::WaitEvents1 {
                    events: out,
                    dependency,
                },
                format!("{call} #{seq}"),
            ),
        );
    }

    /// `vkCmdResetEvent2` or `vkCmdResetEvent`.
    pub fn reset_event(&mut self, cb: u64, seq: u64, call: &str, event: u64, stages: u64) {
        let all = vk::PipelineStageFlags2::from_raw(stages);
        let m = to_model(all, vk::AccessFlags2::NONE, all, vk::AccessFlags2::NONE);
        match self.event_id(event) {
            Some(event) => self.push(
                cb,
                Entry::Cmd(
                    Command::ResetEvent {
                        event,
                        stages: m.src_stages,
                    },
                    format!("{call} #{seq}"),
                ),
            ),
            None => self.not_modelled(Some(cb), seq, call, "an event the layer did not see created"),
        }
    }

    /// `vkSetEvent` (`set`) or `vkResetEvent`: host operations, placed
    /// before the next submission's commands like host writes.
    pub fn host_event(&mut self, seq: u64, call: &str, event: u64, set: bool) {
        let Some(event) = self.event_id(event) else {
            return self.not_modelled(None, seq, call, "an event the layer did not see created");
        };
        let c = if set {
            Command::HostSetEvent { event }
        } else {
            Command::HostResetEvent { event }
        };
        self.pending.push(Entry::Cmd(c, format!("{call} #{seq}")));
    }

    /// A `VkDependencyInfo` (or a synchronization-1 barrier's masks) in the
    /// model's terms: its global, buffer and image barriers, with comments
    /// and `not-modelled` lines for what it cannot say. `event`: the
    /// dependency of an event (set or wait), where the model has no
    /// ownership transfers.
    fn dependency(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        globals: &[[u64; 4]],
        resources: &[ResourceBarrier],
        event: bool,
    ) -> Dependency {
        let mut dep = Dependency::default();
        let mut dropped = (0u64, 0u64);
        let model = |m: &[u64; 4], dropped: &mut (u64, u64)| -> ModelMasks {
            let mm = to_model(
                vk::PipelineStageFlags2::from_raw(m[0]),
                vk::AccessFlags2::from_raw(m[1]),
                vk::PipelineStageFlags2::from_raw(m[2]),
                vk::AccessFlags2::from_raw(m[3]),
            );
            dropped.0 |= mm.dropped_stages;
            dropped.1 |= mm.dropped_access;
            mm
        };
        for g in globals {
            let m = model(g, &mut dropped);
            dep.barriers.push(Barrier::global(
                m.src_stages,
                m.src_access,
                m.dst_stages,
                m.dst_access,
            ));
        }
        let mut transfers = 0;
        for (k, rb) in resources.iter().enumerate() {
            // A buffer ownership transfer between two families of the
            // device, of an exclusive buffer, outside events, is the
            // model's. Any other (an image's, to or from an external or
            // foreign family, of a concurrent buffer (invalid), in an
            // event) orders only one side, so its scopes are left out
            // (keeping them could hide a hazard; leaving them out can only
            // add one). A layout transition it performs is still a write:
            // kept, with empty scopes, so it is ordered with nothing.
            let modelled = |families: (u32, u32)| {
                let exclusive = match rb.target {
                    BarrierTarget::Buffer { buffer, .. } => {
                        self.buffers.get(&buffer).is_some_and(|b| b.exclusive)
                    }
                    // An exact image's transfer is the model's too (with
                    // its layout transition between release and acquire).
                    BarrierTarget::Image { image, .. } => self
                        .images
                        .get(&image)
                        .is_some_and(|i| i.exact && i.info.exclusive),
                };
                !event && device_family(families.0) && device_family(families.1) && exclusive
            };
            let b = match rb.queue_families {
                Some(f) if !modelled(f) => {
                    transfers += 1;
                    if !rb.target.transition() {
                        continue;
                    }
                    Barrier::default()
                }
                families => {
                    let m = model(&rb.masks, &mut dropped);
                    let b = Barrier::global(m.src_stages, m.src_access, m.dst_stages, m.dst_access);
                    match families {
                        Some((src, dst)) => b.with_ownership_transfer(src, dst),
                        None => b,
                    }
                }
            };
            let barriers = match rb.target {
                BarrierTarget::Buffer { buffer, offset, size } => {
                    self.region(buffer, offset, size).map(|r| vec![b.on(r)])
                }
                BarrierTarget::Image {
                    image,
                    range,
                    old_layout,
                    new_layout,
                } => self.image_barrier(b, image, range, old_layout, new_layout),
            };
            match barriers {
                Ok(bs) => dep.barriers.extend(bs),
                Err(e) => self.skip(Some(cb), format!("{call} #{seq} (barrier {k}: {e})")),
            }
        }
        if transfers > 0 {
            self.not_modelled(
                Some(cb),
                seq,
                call,
                &format!(
                    "{transfers} queue family ownership transfer barrier(s): their scopes left out, their layout transitions kept unordered"
                ),
            );
        }
        if dropped != (0, 0) {
            self.note(
                Some(cb),
                format!(
                    "{call} #{seq}: bits outside the model dropped (stages {:#x}, accesses {:#x}): less ordering, never more",
                    dropped.0, dropped.1
                ),
            );
        }
        dep
    }

    /// One image memory barrier with scopes `b`: for an image declared
    /// exactly, one model barrier per byte range of its subresource range,
    /// all naming one [`vksync::ImageBarrier`] with its layouts (a same
    /// layout barrier orders without a transition; inside an ownership
    /// transfer the transfer stands for the transition, as the parser has
    /// it); for a coarse image, one barrier over all of its memory.
    fn image_barrier(
        &mut self,
        b: Barrier,
        image: u64,
        range: [u32; 5],
        old: vk::ImageLayout,
        new: vk::ImageLayout,
    ) -> Result<Vec<Barrier>, String> {
        let i = self.images.get(&image).ok_or("an unknown image")?;
        let obj = i.obj.ok_or("an image without memory")?;
        if !i.exact {
            let (r, _) = self.image_region(image)?;
            let b = b.on(r);
            return Ok(vec![if old != new { b.with_transition() } else { b }]);
        }
        let (Some(old_layout), Some(new_layout)) = (model_layout(old), model_layout(new)) else {
            return Err(format!("layouts {old:?} -> {new:?}: one is not in the model"));
        };
        let range = model_range(range);
        let desc = self.program.image(obj).ok_or("not an image of the trace")?;
        let bytes = desc
            .range_bytes(range)
            .map_err(|e| format!("subresource range {range}: {e}"))?;
        let r = self
            .program
            .add_image_barrier(vksync::ImageBarrier {
                image: obj,
                range,
                old_layout,
                new_layout,
            })
            .ok_or("too many image barriers")?;
        let transition = old != new && b.ownership.is_none();
        Ok(bytes
            .into_iter()
            .map(|range_bytes| Barrier {
                region: Some(Region {
                    object: obj,
                    range: range_bytes,
                }),
                transition,
                image: Some(r),
                ..b
            })
            .collect())
    }

    // ---- submission and host ----

    /// `vkQueueSubmit`/`vkQueueSubmit2` of `cbs` in submission order (after
    /// [`Capture::host_writes`] on every mapped range).
    pub fn submit(&mut self, seq: u64, call: &str, queue: u64, batches: &[Batch], fence: u64) {
        if !batches.is_empty() {
            let q = self.queue_id(queue);
            self.mark(q, seq, call);
        }
        // What each command buffer runs, in submission order (its deferred
        // commands made from the descriptor sets as they are now).
        let submitted: Vec<Vec<Entry>> = batches
            .iter()
            .flat_map(|b| b.cbs.iter())
            .map(|&cb| self.submitted_entries(cb))
            .collect();
        // Host reads assumed earlier happen before the host or the device
        // writes those bytes again.
        let mut rewritten: Vec<(u64, u64, u64)> = Vec::new();
        for e in &self.pending {
            if let Entry::Cmd(c, _) = e {
                rewritten.extend(
                    host_write_regions(c)
                        .into_iter()
                        .filter_map(|r| self.mem_range(r)),
                );
            }
        }
        // Bytes this submission's device commands read: an assumed read of
        // bytes the device consumes next (and does not rewrite) is of an
        // intermediate, not of a result, and is dropped. Draws are still
        // rendering entries here (made commands when appended): their
        // buffer bytes, widely (review32).
        let mut consumed: Vec<(u64, u64, u64)> = Vec::new();
        for e in submitted.iter().flatten() {
            let (reads, writes) = match e {
                Entry::Cmd(c, _) => (device_reads(c), device_writes(c)),
                Entry::Render(RenderOp::Draw(d), _) | Entry::InputDraw(d, _) => self.draw_regions(d),
                _ => continue,
            };
            rewritten.extend(writes.into_iter().filter_map(|r| self.mem_range(r)));
            consumed.extend(reads.into_iter().filter_map(|r| self.mem_range(r)));
        }
        let touches = |set: &[(u64, u64, u64)], r: Option<(u64, u64, u64)>| {
            r.is_some_and(|(m, s, e)| set.iter().any(|&(m2, s2, e2)| m == m2 && s < e2 && s2 < e))
        };
        let (now, later): (Vec<Region>, Vec<Region>) = std::mem::take(&mut self.pending_reads)
            .into_iter()
            .partition(|r| touches(&rewritten, self.mem_range(*r)));
        self.pending_reads = later
            .into_iter()
            .filter(|r| !touches(&consumed, self.mem_range(*r)))
            .collect();
        let unread = std::mem::take(&mut self.unread);
        self.unread = unread
            .into_iter()
            .filter(|r| {
                let m = self.mem_range(*r);
                !touches(&rewritten, m) && !touches(&consumed, m)
            })
            .collect();
        for src in now {
            self.append(Entry::Cmd(
                Command::HostRead { src },
                format!("host read assumed before {call} #{seq} (bytes rewritten)"),
            ));
        }
        let pending = std::mem::take(&mut self.pending);
        for e in pending {
            self.append(e);
        }
        let q = self.queue_id(queue);
        let mut submitted = submitted.into_iter();
        for (k, batch) in batches.iter().enumerate() {
            let name = if batches.len() > 1 {
                format!("{call} #{seq} batch {k}")
            } else {
                format!("{call} #{seq}")
            };
            for _ in &batch.cbs {
                for e in submitted.next().unwrap_or_default() {
                    self.append(e);
                }
            }
            let mut sub = Submission {
                queue: q,
                ..Submission::default()
            };
            let mut dropped = 0u64;
            let mut stages = |raw: u64, dst: bool| {
                let all = vk::PipelineStageFlags2::from_raw(raw);
                let none = vk::AccessFlags2::NONE;
                let m = to_model(all, none, all, none);
                dropped |= m.dropped_stages;
                if dst {
                    m.dst_stages
                } else {
                    m.src_stages
                }
            };
            let mut unknown = Vec::new();
            for &(sem, value, mask) in &batch.waits {
                match self.semaphore_id(sem) {
                    Some((id, timeline)) => sub.waits.push(SemaphoreWait {
                        semaphore: id,
                        value: timeline.then_some(value),
                        stages: stages(mask, true),
                    }),
                    None => unknown.push(sem),
                }
            }
            let mut timeline_signals = Vec::new();
            for &(sem, value, mask) in &batch.signals {
                match self.semaphore_id(sem) {
                    Some((id, timeline)) => {
                        let stages = stages(mask, false);
                        if timeline {
                            timeline_signals.push((
                                id,
                                value,
                                stages.contains(PipelineStageFlags2::ALL_COMMANDS),
                            ));
                        }
                        sub.signals.push(SemaphoreSignal {
                            semaphore: id,
                            value: timeline.then_some(value),
                            stages,
                        })
                    }
                    None => unknown.push(sem),
                }
            }
            if !unknown.is_empty() {
                self.append(Entry::NotModelled(
                    format!(
                        "{name} ({} semaphore operation(s) on semaphores the layer did not see created)",
                        unknown.len()
                    ),
                    String::new(),
                ));
            }
            if dropped != 0 {
                self.append(Entry::Note(format!(
                    "{name}: semaphore stage bits outside the model dropped ({dropped:#x}): less ordering, never more"
                )));
            }
            self.append(Entry::Cmd(Command::Submit(sub), name));
            self.submissions += 1;
            self.sub_queue.push(q);
            self.sub_thread.push(Some(std::thread::current().id()));
            self.latest.insert(q, self.submissions);
            for (id, value, all) in timeline_signals {
                let sub = all.then_some(self.submissions);
                self.timeline_signals.entry(id).or_default().push((value, sub));
            }
        }
        if fence != 0 {
            // The fence signals after this queue's submissions so far (a
            // submit of no batch signals it after the earlier ones): the
            // latest submission of this queue, never another queue's.
            match self.latest.get(&q) {
                Some(&n) => {
                    self.fences.insert(fence, n);
                }
                None => {
                    self.fences.remove(&fence);
                }
            }
        }
    }

    /// `vkGetDeviceQueue(2)`: `queue` is of family `family`.
    pub fn queue_family(&mut self, queue: u64, family: u32) {
        self.queue_families.insert(queue, family);
    }

    /// The trace queue of `VkQueue` `queue`: the first queue submitted to is
    /// the implicit queue, so that a program on one queue is traced as
    /// before; when a second one appears both are declared (`q0`, `q1`:
    /// the first declared queue is the implicit one, so earlier `submit`
    /// lines keep their meaning).
    fn queue_id(&mut self, queue: u64) -> QueueId {
        if let Some(&q) = self.queues.get(&queue) {
            return q;
        }
        let family = |c: &Self, h: u64| c.queue_families.get(&h).copied().unwrap_or(0);
        if self.queues.is_empty() {
            self.queues.insert(queue, QueueId(0));
            return QueueId(0);
        }
        if self.program.queues().is_empty() {
            let first = self.queues.keys().copied().next().unwrap_or(0);
            let f = family(self, first);
            if self.program.queue("q0", f).is_err() {
                return QueueId(0);
            }
        }
        let n = self.program.queues().len();
        let f = family(self, queue);
        match self.program.queue(&format!("q{n}"), f) {
            Ok(q) => {
                self.queues.insert(queue, q);
                q
            }
            Err(_) => QueueId(0),
        }
    }

    /// `vkCreateSemaphore`: `timeline` is the initial value of a timeline
    /// semaphore, `None` for a binary one.
    pub fn create_semaphore(&mut self, semaphore: u64, timeline: Option<u64>) {
        self.semaphores.insert(semaphore, (timeline, None));
    }

    /// `vkDestroySemaphore`. Its trace semaphore stays declared (names are
    /// never reused); a later semaphore with the same handle is new.
    pub fn destroy_semaphore(&mut self, semaphore: u64) {
        self.semaphores.remove(&semaphore);
    }

    /// The trace semaphore of `VkSemaphore` `semaphore` (declared at its
    /// first use) and whether it is a timeline one; `None` for one the
    /// layer did not see created.
    fn semaphore_id(&mut self, semaphore: u64) -> Option<(SemaphoreId, bool)> {
        let &(timeline, id) = self.semaphores.get(&semaphore)?;
        if let Some(id) = id {
            return Some((id, timeline.is_some()));
        }
        let name = format!("s{}", self.program.semaphores().len());
        let kind = match timeline {
            Some(initial) => SemaphoreType::Timeline { initial },
            None => SemaphoreType::Binary,
        };
        let id = self.program.semaphore(&name, kind).ok()?;
        self.semaphores.insert(semaphore, (timeline, Some(id)));
        Some((id, timeline.is_some()))
    }

    /// `vkSignalSemaphore`: a host signal of a timeline semaphore.
    pub fn host_signal(&mut self, seq: u64, call: &str, semaphore: u64, value: u64) {
        match self.semaphore_id(semaphore) {
            Some((id, true)) => {
                self.append(Entry::Cmd(
                    Command::HostSignal { semaphore: id, value },
                    format!("{call} #{seq}"),
                ));
                self.timeline_signals.entry(id).or_default().push((value, None));
                let known = self.timeline_known.entry(id).or_insert(0);
                *known = (*known).max(value);
            }
            _ => self.append(Entry::NotModelled(
                format!("{call} #{seq} (a semaphore the layer did not see created as a timeline)"),
                String::new(),
            )),
        }
    }

    /// A host wait on timeline semaphores that returned: `reached` holds,
    /// per `VkSemaphore`, a value the call proves the semaphore reached
    /// (`vkWaitSemaphores` waiting for all: each value waited for;
    /// `vkGetSemaphoreCounterValue`: the value read).
    ///
    /// Written as `host-wait sN V` only where it proves more than the trace
    /// already knows (so polling writes one line per value signalled, not
    /// one per poll). `V` is the greatest value of the trace (the initial
    /// value, a signal written, a host signal) not above the value proven,
    /// so the wait is one the trace can satisfy (a signal another thread
    /// submitted and has not yet been recorded is not claimed). The
    /// submissions whose `ALL_COMMANDS` signals reach at most `V` are then
    /// complete, with every earlier submission of their queues: their
    /// device writes are taken as in [`Capture::wait_in_scope`] (no longer
    /// the device's, so later host writes there are seen; assumed read by
    /// the host).
    pub fn host_wait(&mut self, seq: u64, call: &str, reached: &[(u64, u64)], mapped: &[(u64, &[u8])]) {
        let mut covered: HashMap<QueueId, usize> = HashMap::default();
        for &(semaphore, proven) in reached {
            let id = match self.semaphore_id(semaphore) {
                Some((id, true)) => id,
                _ => {
                    self.append(Entry::NotModelled(
                        format!("{call} #{seq} (a semaphore the layer did not see created as a timeline)"),
                        String::new(),
                    ));
                    continue;
                }
            };
            let initial = match self.program.semaphores().get(id.0 as usize).map(|s| s.kind) {
                Some(SemaphoreType::Timeline { initial }) => initial,
                _ => 0,
            };
            let known = self.timeline_known.get(&id).copied().unwrap_or(initial);
            if proven <= known {
                // The common poll: nothing new.
                continue;
            }
            let signals = self
                .timeline_signals
                .get(&id)
                .map(Vec::as_slice)
                .unwrap_or_default();
            let value = signals
                .iter()
                .map(|&(v, _)| v)
                .filter(|&v| v <= proven)
                .fold(initial, u64::max);
            if value <= known {
                continue;
            }
            for &(v, sub) in signals {
                if let Some(sub) = sub.filter(|_| v <= value) {
                    if let Some(&q) = self.sub_queue.get(sub - 1) {
                        let c = covered.entry(q).or_insert(0);
                        *c = (*c).max(sub);
                    }
                }
            }
            self.timeline_known.insert(id, value);
            // Signals the trace now knows reached decide nothing more (a
            // long run keeps only those still pending).
            if let Some(signals) = self.timeline_signals.get_mut(&id) {
                signals.retain(|&(v, _)| v > value);
            }
            self.append(Entry::Cmd(
                Command::HostWait { semaphore: id, value },
                format!("{call} #{seq}"),
            ));
        }
        self.complete(&covered, mapped, None);
    }

    /// A successful wait: `vkWaitForFences` on `fences` (or, with `None`,
    /// `vkQueueWaitIdle`/`vkDeviceWaitIdle`), called and returned with
    /// nothing recorded in between (see [`Capture::begin_wait`]).
    pub fn wait(&mut self, seq: u64, call: &str, on: WaitOn<'_>, mapped: &[(u64, &[u8])]) {
        let token = self.begin_wait(on);
        let scope = self.end_wait(token);
        self.wait_in_scope(seq, call, &scope, mapped);
    }

    /// A host wait on `on` is called: what it covers is taken now, before
    /// it goes down the chain, and it stays open until
    /// [`Capture::end_wait`]. A `vkDeviceWaitIdle` covers what was
    /// submitted when it was called, not what another thread submitted
    /// while it waited (taking that too let a wait record the device's
    /// bytes of a still running submission as final, and the rest of its
    /// writes then read as host writes: issue 27). A submission recorded
    /// while it is open is preceded by a marker (`Capture::mark`), so
    /// that the trace can still say exactly what the wait waited for.
    pub fn begin_wait(&mut self, on: WaitOn<'_>) -> WaitToken {
        let scope = self.wait_scope(on);
        self.wait_tokens += 1;
        self.open_waits.insert(self.wait_tokens, scope);
        WaitToken(self.wait_tokens)
    }

    /// The wait `token` returned (successfully or not): its scope.
    pub fn end_wait(&mut self, token: WaitToken) -> WaitScope {
        self.open_waits.remove(&token.0).unwrap_or_default()
    }

    /// What a wait on `on` covers if it is called now: the latest
    /// submission of each queue it waits for (a fence signal comes after
    /// every earlier submission of its queue; other queues' work it may
    /// follow through semaphores is not counted: fewer waits, never more).
    fn wait_scope(&self, on: WaitOn<'_>) -> WaitScope {
        let covered: HashMap<QueueId, usize> = match on {
            WaitOn::Device => self.latest.clone(),
            WaitOn::Queue(h) => self
                .queues
                .get(&h)
                .and_then(|q| self.latest.get(q).map(|&n| (*q, n)))
                .into_iter()
                .collect(),
            WaitOn::Fences(fs) => {
                let mut c = HashMap::default();
                for sub in fs.iter().filter_map(|f| self.fences.get(f)).copied() {
                    if let Some(&q) = self.sub_queue.get(sub.wrapping_sub(1)) {
                        let e = c.entry(q).or_insert(0);
                        *e = (*e).max(sub);
                    }
                }
                c
            }
        };
        WaitScope(covered)
    }

    /// Whether the trace already knows submission `sub` of queue `q`
    /// complete.
    fn known_complete(&self, q: QueueId, sub: usize) -> bool {
        sub <= self.waited || self.queue_waited.get(&q).is_some_and(|&w| sub <= w)
    }

    /// Before a submission to queue `q`: when something may later wait for
    /// exactly the work submitted to `q` so far (a host wait in flight
    /// that covers it, or a fence its latest submission signals that no
    /// wait covered yet, submitted by another thread), a marker goes first: `submit Q signal mK:1`, an
    /// empty batch the application did not submit, whose signal of a fresh
    /// timeline semaphore `mK` follows every earlier submission of `q` and
    /// precedes this one. A wait that covers the work before the marker
    /// and not this submission is then `host-wait mK 1`, written where the
    /// wait returned: it claims exactly what the wait proves. A `wait`
    /// there would claim this submission too, and one written earlier
    /// would order before the wait what other threads did while it waited.
    /// The marker adds no ordering between the application's submissions
    /// (nothing waits for it on the device).
    fn mark(&mut self, q: QueueId, seq: u64, call: &str) {
        let Some(&latest) = self.latest.get(&q) else {
            return;
        };
        if self.known_complete(q, latest)
            || self
                .markers
                .get(&q)
                .and_then(|m| m.last())
                .is_some_and(|&(s, _)| s == latest)
        {
            return;
        }
        let waiting = self.open_waits.values().any(|w| w.0.get(&q) == Some(&latest));
        // A fence of the latest submission, from another thread: one thread
        // submitting again before it waits (frames in flight) waits for
        // what it submitted, the later submissions too, in its own order.
        let fenced = self.fences.values().any(|&s| s == latest)
            && self.sub_thread.get(latest - 1) != Some(&Some(std::thread::current().id()));
        if !waiting && !fenced {
            return;
        }
        let name = format!("mk{}", self.markers.values().map(Vec::len).sum::<usize>());
        let Ok(id) = self
            .program
            .semaphore(&name, SemaphoreType::Timeline { initial: 0 })
        else {
            return;
        };
        let why = if waiting {
            "a host wait in flight"
        } else {
            "a fence not yet waited for"
        };
        let sub = Submission {
            queue: q,
            signals: vec![SemaphoreSignal {
                semaphore: id,
                value: Some(1),
                stages: PipelineStageFlags2::ALL_COMMANDS,
            }],
            ..Submission::default()
        };
        self.append(Entry::Cmd(
            Command::Submit(sub),
            format!(
                "marker before {call} #{seq}, not an application submission: what {why} covers on this queue"
            ),
        ));
        self.submissions += 1;
        self.sub_queue.push(q);
        self.sub_thread.push(None);
        self.latest.insert(q, self.submissions);
        self.markers.entry(q).or_default().push((latest, id));
    }

    /// A successful wait whose scope [`Capture::begin_wait`] took when it
    /// was called. Written as `wait` when it covers the latest submission
    /// of every queue; otherwise, per queue, `wait QUEUE` where it covers
    /// that queue's latest submission (when queues are declared) and
    /// `host-wait mK 1` where a marker (`Capture::mark`) follows the
    /// submission it covers; otherwise a comment. Then the host reads of
    /// what the device wrote in the submissions a `wait` or `host-wait`
    /// covers (the host-read approximation of `docs/capture.md`).
    pub fn wait_in_scope(&mut self, seq: u64, call: &str, scope: &WaitScope, mapped: &[(u64, &[u8])]) {
        if self.submissions == 0 {
            return;
        }
        let latest = self.latest.clone();
        let covered = &scope.0;
        let all = latest
            .iter()
            .all(|(q, &n)| covered.get(q).is_some_and(|&c| c >= n));
        if all {
            self.complete(covered, mapped, Some(format!("{call} #{seq}")));
            return;
        }
        // The device's results of what the wait covers are done, written
        // in the trace or not (an application that keeps frames in flight
        // never waits for its latest submission).
        self.take_results(covered, mapped);
        let mut qs: Vec<(QueueId, usize)> = covered.iter().map(|(q, c)| (*q, *c)).collect();
        qs.sort();
        let mut named = false;
        let mut claimed: HashMap<QueueId, usize> = HashMap::default();
        for (q, c) in qs {
            if self.known_complete(q, c) {
                named = true;
                continue;
            }
            if latest.get(&q) == Some(&c) {
                // `wait QUEUE`, when the trace has declared queues to name.
                if !self.program.queues().is_empty() {
                    self.queue_waited.insert(q, c);
                    self.append(Entry::Cmd(
                        Command::Wait(WaitFor::Queue(q)),
                        format!("{call} #{seq}"),
                    ));
                    named = true;
                }
                continue;
            }
            let marker = self
                .markers
                .get(&q)
                .and_then(|m| m.iter().rev().find(|&&(s, _)| s <= c))
                .copied()
                .filter(|&(s, _)| !self.known_complete(q, s));
            if let Some((s, id)) = marker {
                self.queue_waited.insert(q, s);
                self.timeline_known.insert(id, 1);
                self.append(Entry::Cmd(
                    Command::HostWait {
                        semaphore: id,
                        value: 1,
                    },
                    format!("{call} #{seq} (waits for this queue's submissions before the marker)"),
                ));
                claimed.insert(q, s);
                named = true;
            }
        }
        if !named {
            self.append(Entry::Note(format!(
                "{call} #{seq} waits for part of the submitted work, not for the latest submission of any queue: not a `wait`"
            )));
        }
        if !claimed.is_empty() {
            self.assume_reads(&claimed);
        }
    }

    /// The submissions `covered` (per queue, the latest) are complete and
    /// the trace says so: a `host-wait` was just written, or, when every
    /// queue's latest submission is covered and `wait` names the call, a
    /// `wait` is written here.
    fn complete(&mut self, covered: &HashMap<QueueId, usize>, mapped: &[(u64, &[u8])], wait: Option<String>) {
        if covered.is_empty() {
            return;
        }
        self.take_results(covered, mapped);
        let all = self
            .latest
            .iter()
            .all(|(q, &n)| covered.get(q).is_some_and(|&c| c >= n));
        if all {
            if self.waited >= self.submissions {
                // Nothing submitted since the last `wait`.
                return;
            }
            self.waited = self.submissions;
            if let Some(comment) = wait {
                self.append(Entry::Cmd(Command::WAIT, comment));
            }
            // Every signal written so far has run.
            for (id, signals) in &self.timeline_signals {
                let top = signals.iter().filter(|s| s.1.is_some()).map(|s| s.0).max();
                if let Some(top) = top {
                    let known = self.timeline_known.entry(*id).or_insert(0);
                    *known = (*known).max(top);
                }
            }
        } else {
            for (&q, &c) in covered {
                let w = self.queue_waited.entry(q).or_insert(0);
                *w = (*w).max(c);
            }
        }
        self.assume_reads(covered);
    }

    /// The device's writes of the submissions `covered` (per queue, the
    /// latest) are done: they are taken into the shadow copies, and
    /// changes there stop counting as the device's.
    fn take_results(&mut self, covered: &HashMap<QueueId, usize>, mapped: &[(u64, &[u8])]) {
        let covers = |sub: usize| {
            self.sub_queue
                .get(sub.wrapping_sub(1))
                .and_then(|q| covered.get(q))
                .is_some_and(|&c| sub <= c)
        };
        for &(memory, current) in mapped {
            let Some(map) = self.memories.get_mut(&memory).and_then(|m| m.map.as_mut()) else {
                continue;
            };
            if map.shadow.len() != current.len() {
                continue;
            }
            for &(mem, s, e, sub) in &self.dirty {
                if mem != memory || !covers(sub) {
                    continue;
                }
                let (s, e) = (s.max(map.offset), e.min(map.offset + current.len() as u64));
                if s < e {
                    let (a, b) = ((s - map.offset) as usize, (e - map.offset) as usize);
                    map.shadow[a..b].copy_from_slice(&current[a..b]);
                }
            }
        }
        self.dirty.retain(|d| !covers(d.3));
    }

    /// The host reads assumed after a wait the trace writes for the
    /// submissions `covered`: every mapped range those submissions' device
    /// commands wrote that no later device command read (a final result,
    /// not an intermediate). They are placed as late as they can be
    /// ([`Capture::submit`], [`Capture::finish`]).
    fn assume_reads(&mut self, covered: &HashMap<QueueId, usize>) {
        let covers = |sub: usize| {
            self.sub_queue
                .get(sub.wrapping_sub(1))
                .and_then(|q| covered.get(q))
                .is_some_and(|&c| sub <= c)
        };
        let (done, running): (Vec<_>, Vec<_>) = std::mem::take(&mut self.device_writes)
            .into_iter()
            .partition(|&(_, sub, _)| covers(sub));
        let mut reads = std::mem::take(&mut self.pending_reads);
        for &(ord, _, r) in &done {
            if self.opaque.contains(&r.object) {
                continue;
            }
            let Some((m, s, e)) = self.mem_range(r) else {
                continue;
            };
            let read_later = self.device_reads.iter().any(|&(k, rr)| {
                k > ord
                    && self
                        .mem_range(rr)
                        .is_some_and(|(m2, s2, e2)| m == m2 && s < e2 && s2 < e)
            });
            if read_later {
                continue;
            }
            let Some(&(mem, off, _)) = self.placement.get(&r.object) else {
                continue;
            };
            // A linear image's bytes are read as its memory object's.
            let host = self.host_region(r);
            let (r, off) = if host == r { (r, off) } else { (host, 0) };
            // Not mapped now, or not coherent: the host cannot read it yet
            // (a later vkMapMemory or vkInvalidateMappedMemoryRanges of
            // these bytes assumes the read then).
            let mapped = self.memories.get(&mem).and_then(|m| m.map.as_ref());
            let Some(map) = mapped.filter(|_| !self.non_coherent.contains(&mem)) else {
                self.unread.push(r);
                continue;
            };
            let (ms, me) = (map.offset, map.offset + map.shadow.len() as u64);
            let (s, e) = ((off + r.range.start).max(ms), (off + r.range.end).min(me));
            if s < e {
                reads.push(Region {
                    object: r.object,
                    range: ByteRange::new(s - off, e - off),
                });
            }
        }
        // Reads older than every write still running decide nothing more.
        let oldest = running.iter().map(|w| w.0).min().unwrap_or(usize::MAX);
        self.device_reads.retain(|&(k, _)| k > oldest);
        self.device_writes = running;
        reads.sort_by_key(|r| (r.object.0, r.range.start));
        let mut merged: Vec<Region> = Vec::new();
        for r in reads {
            match merged.last_mut() {
                Some(m) if m.object == r.object && r.range.start < m.range.end => {
                    m.range = ByteRange::new(m.range.start, m.range.end.max(r.range.end));
                }
                _ => merged.push(r),
            }
        }
        self.pending_reads = merged;
    }

    /// A region's bytes in memory terms: (memory handle, start, end).
    fn mem_range(&self, r: Region) -> Option<(u64, u64, u64)> {
        match self.placement.get(&r.object) {
            Some(&(mem, off, _)) => Some((mem, off + r.range.start, off + r.range.end)),
            // A memory object's own bytes.
            None => self
                .memories
                .iter()
                .find(|(_, m)| m.obj == r.object)
                .map(|(&mem, _)| (mem, r.range.start, r.range.end)),
        }
    }

    /// `r` as a host access can name it: a region of an image declared
    /// exactly (whose subresources are not bytes to the trace) becomes the
    /// same bytes of its memory object, which aliases it; any other region
    /// is itself.
    fn host_region(&self, r: Region) -> Region {
        if self.program.image(r.object).is_none() {
            return r;
        }
        let Some(&(mem, off, _)) = self.placement.get(&r.object) else {
            return r;
        };
        match self.memories.get(&mem) {
            Some(m) => Region {
                object: m.obj,
                range: ByteRange::new(off + r.range.start, off + r.range.end),
            },
            None => r,
        }
    }

    fn append(&mut self, e: Entry) {
        let e = match e {
            Entry::Deferred(d, comment) => self.resolve_deferred(&d, comment),
            e => e,
        };
        let e = match e {
            Entry::Render(op, comment) => match self.render_entry(op, comment, false) {
                Some(e) => e,
                None => return,
            },
            Entry::InputDraw(d, comment) => match self.render_entry(RenderOp::Draw(d), comment, true) {
                Some(e) => e,
                None => return,
            },
            e => e,
        };
        match e {
            // Made into what they stand for above.
            Entry::Render(..) | Entry::InputDraw(..) | Entry::Deferred(..) => {}
            Entry::Raw(text, comment) => self.raw_line(&text, &comment),
            Entry::Note(text) => {
                self.notes.before(self.program.commands().len(), &text);
            }
            Entry::NotModelled(text, here) => {
                self.not_modelled += 1;
                self.not_modelled_line(self.program.commands().len(), &text, &here);
            }
            Entry::Cmd(c, comment) => {
                if let Some((why, kept)) = self.host_set_transition(&c) {
                    // The model refuses this wait (a `vksync check` of the
                    // whole trace would stop at it): a `not-modelled` line
                    // instead, and its layout transitions kept with empty
                    // scopes, as a pipeline barrier in its place, so that
                    // the image's layout afterwards is the one the
                    // application's later commands name. Ordered with
                    // nothing (no command is known to perform them),
                    // they can add a hazard, never hide one: the practice
                    // of the ownership transfers the model does not take
                    // (`Capture::dependency`).
                    let (call, here) = comment
                        .find(" in ")
                        .map_or((comment.as_str(), ""), |i| comment.split_at(i));
                    self.not_modelled += 1;
                    let at = self.program.commands().len();
                    self.not_modelled_line(
                        at,
                        &format!(
                            "{call} (the model rejects it: {why}; the wait left out, its layout transitions kept after nothing, before its second scopes)"
                        ),
                        here,
                    );
                    return self.append(Entry::Cmd(
                        Command::Barrier(Dependency { barriers: kept }),
                        comment,
                    ));
                }
                let writes = device_writes(&c);
                let reads = device_reads(&c);
                let index = self.program.commands().len();
                let signal = event_signal(&c);
                match self.program.push(c) {
                    Ok(_) => {
                        if let Some((event, host)) = signal {
                            if host {
                                self.host_set_events.insert(event);
                            } else {
                                self.host_set_events.remove(&event);
                            }
                        }
                        self.notes.trailing(index, &comment);
                        // Entries are appended at the submission that
                        // runs them, before it is counted.
                        let sub = self.submissions + 1;
                        let dirty: Vec<_> = writes
                            .iter()
                            .filter_map(|r| self.mem_range(*r))
                            .map(|(m, s, e)| (m, s, e, sub))
                            .collect();
                        self.dirty.extend(dirty);
                        let ord = self.device_ord;
                        self.device_ord += 1;
                        self.device_reads.extend(reads.into_iter().map(|r| (ord, r)));
                        self.device_writes
                            .extend(writes.into_iter().map(|r| (ord, sub, r)));
                    }
                    Err(e) => {
                        self.not_modelled += 1;
                        // The comment's command buffer and labels (`push`)
                        // end the line's comment, not its reason.
                        let (call, here) = comment
                            .find(" in ")
                            .map_or((comment.as_str(), ""), |i| comment.split_at(i));
                        self.not_modelled_line(index, &format!("{call} (the model rejects it: {e})"), here);
                    }
                }
            }
        }
    }

    /// A `vkCmdWaitEvents2` the model refuses because it waits for an
    /// event the host set and its dependency info for that event has a
    /// layout transition ([`vksync::ProgramErrorKind::EventTransition`]:
    /// `vkCmdSetEvent2` performs an event's transitions, `vkSetEvent`
    /// defines none, and the wait performs none, so no command performs
    /// it): the model's reason, and those transitions as barriers with an
    /// empty first scope and the wait's second scopes. Decided as the model decides it (`EventStates::wait`
    /// in `model/src/ir/event.rs`): a barrier of a host-set event's wait
    /// with [`Barrier::transition`] (set by [`Capture::image_barrier`]:
    /// `oldLayout != newLayout` outside an ownership transfer), once every
    /// barrier of that wait has only `HOST` (or no stage) as its source stages (otherwise the
    /// model refuses the wait as invalid usage,
    /// VUID-vkCmdWaitEvents2-pEvents-03839, and so does the trace).
    ///
    /// Whether the host set the event is known only here, where the
    /// command buffer's entries are appended at its submission, not when
    /// the wait was recorded: the application may call `vkSetEvent` after
    /// recording the wait and before submitting it (Vulkan allows it until
    /// the submit). A `vkSetEvent` is written as a `host-set-event` line
    /// before the next submission's commands ([`Capture::host_event`]), so
    /// the state here, in append order, is the one the trace's parser sees
    /// at the wait's line. A synchronization-1 wait
    /// (`vkCmdWaitEvents`) is not one: the model performs its transitions
    /// at the wait, for a host set as for a device one.
    fn host_set_transition(&self, c: &Command) -> Option<(String, Vec<Barrier>)> {
        let Command::WaitEvents { waits } = c else {
            return None;
        };
        let mut why = None;
        let mut kept = Vec::new();
        for w in waits {
            let barriers = &w.dependency.barriers;
            if !self.host_set_events.contains(&w.event)
                || barriers
                    .iter()
                    .any(|b| !PipelineStageFlags2::HOST.contains(b.src_stage_mask))
            {
                continue;
            }
            for (index, b) in barriers.iter().enumerate().filter(|(_, b)| b.transition) {
                why.get_or_insert_with(|| {
                    vksync::ProgramErrorKind::EventTransition {
                        name: self.program.event_name(w.event).to_string(),
                        index,
                    }
                    .to_string()
                });
                // The wait's second scopes follow the transition (it is in
                // the wait's memory dependency, before its visibility
                // operations, whoever performs it); nothing orders earlier
                // device work before it (the host's set orders none).
                kept.push(Barrier {
                    region: b.region,
                    transition: true,
                    image: b.image,
                    dst_stage_mask: b.dst_stage_mask,
                    dst_access_mask: b.dst_access_mask,
                    ..Barrier::default()
                });
            }
        }
        why.map(|why| (why, kept))
    }

    /// `fences` are destroyed.
    pub fn destroy_fence(&mut self, fence: u64) {
        self.fences.remove(&fence);
    }

    /// A `not-modelled` line before command `at` from a note's text
    /// (usually `vkCmdXxx #SEQ (WHY)`): the first Vulkan call it names, the
    /// rest as words, and the call with its sequence number as the trailing
    /// comment.
    fn not_modelled_line(&mut self, at: usize, text: &str, here: &str) {
        let call = text
            .split_whitespace()
            .find(|w| w.starts_with("vk"))
            .unwrap_or("unknown-call");
        let seq = text.split_whitespace().find(|w| w.starts_with('#'));
        let words: Vec<&str> = text
            .split_whitespace()
            .filter(|w| *w != call && !w.starts_with('#'))
            .collect();
        let comment = seq.map_or_else(|| call.to_string(), |s| format!("{call} {s}{here}"));
        self.notes.not_modelled(at, call, &words.join(" "), &comment);
    }

    /// The summary line that ends a finished trace.
    fn summary(&self) -> String {
        format!(
            "{} commands, {} submissions, {} calls not modelled (see the `not-modelled` lines)",
            self.program.commands().len(),
            self.submissions,
            self.not_modelled
        )
    }

    /// Places the host reads still assumed after the last wait (at the end
    /// of the capture, when the device is destroyed, nothing follows them).
    fn place_pending_reads(&mut self) {
        for src in std::mem::take(&mut self.pending_reads) {
            let i = self.program.commands().len();
            if self.program.push(Command::HostRead { src }).is_ok() {
                self.notes.trailing(
                    i,
                    "host read assumed after the last wait (written by the device, mapped)",
                );
            }
        }
    }

    /// The whole trace as [`Capture::finish`] would leave it, without
    /// changing the capture (for tests and tools that keep no file).
    pub fn text(&self) -> String {
        let mut c = Capture {
            writer: Writer::new(),
            ..self.shallow_clone()
        };
        c.place_pending_reads();
        c.notes.before(c.program.commands().len(), &c.summary());
        let mut w = Writer::new();
        graphics::unraw(&w.finish(&c.program, &c.notes))
    }

    /// The state [`Capture::text`] needs.
    fn shallow_clone(&self) -> Capture {
        let mut c = Capture::new(self.path.clone(), Vec::new());
        c.program = self.program.clone();
        c.notes = self.notes.clone();
        c.pending_reads = self.pending_reads.clone();
        c.submissions = self.submissions;
        c.not_modelled = self.not_modelled;
        c
    }

    /// Appends what was recorded since the last flush to the trace file
    /// (the first flush creates or truncates it). Appending keeps a flush
    /// at every submission cheap however long the run; a reader may see
    /// a trace that ends mid-line while one is written.
    pub fn flush(&mut self) -> Result<(), CaptureError> {
        if self.finished {
            return Ok(());
        }
        // The writer advances only once its piece is written: a failed
        // write is retried whole at the next flush.
        let mut w = self.writer.clone();
        let text = w.append(&self.program, &self.notes);
        self.write(&text)?;
        self.writer = w;
        Ok(())
    }

    /// Ends the trace: the host reads assumed after the last wait, the
    /// remaining comments, and the summary line.
    pub fn finish(&mut self) -> Result<(), CaptureError> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        self.place_pending_reads();
        let end = self.program.commands().len();
        let summary = self.summary();
        self.notes.before(end, &summary);
        let mut w = self.writer.clone();
        let text = w.finish(&self.program, &self.notes);
        self.write(&text)?;
        self.writer = w;
        Ok(())
    }

    /// Ends the trace of a device the application never destroyed, as the
    /// process exits: as [`Capture::finish`], with a line saying so.
    pub fn finish_at_exit(&mut self) -> Result<(), CaptureError> {
        if !self.finished {
            self.append(Entry::Note(
                "the application exited without vkDestroyDevice: the trace was finished at process exit"
                    .to_string(),
            ));
        }
        self.finish()
    }

    fn write(&mut self, text: &str) -> Result<(), CaptureError> {
        use std::io::Write as _;
        let err = |source| CaptureError::Write {
            path: self.path.clone(),
            source,
        };
        let mut options = std::fs::OpenOptions::new();
        if self.created {
            options.append(true);
        } else {
            options.write(true).create(true).truncate(true);
        }
        let mut file = options.open(&self.path).map_err(err)?;
        self.created = true;
        file.write_all(graphics::unraw(text).as_bytes()).map_err(err)
    }
}

/// The spans `[start, end)` where `now` differs from `shadow` (same
/// length), spans closer than 64 bytes merged; `shadow` takes the bytes
/// compared. `now` is mapped memory another thread may be writing: each
/// 64-byte block of it is read once, into a local copy that is both
/// compared and stored, so a write landing during the scan is either in
/// this result or still a difference at the next one, never stored in the
/// shadow unreported (comparing `now` and then copying it whole lost such
/// writes). A whole equal 4 KiB run is skipped with one comparison (a
/// range mostly clean costs a memcmp), and blocks are compared as eight
/// 64-bit words, not by a call per block: a thread writing every 256th
/// byte of a 1 MiB buffer changes a quarter of its blocks each time
/// (issue 27).
fn take_changed_spans(shadow: &mut [u8], now: &[u8]) -> Vec<(usize, usize)> {
    const BLOCK: usize = 64;
    const RUN: usize = 4096;
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let n = shadow.len().min(now.len());
    let mut block = [0u8; BLOCK];
    let mut i = 0;
    while i < n {
        let run_end = (i + RUN).min(n);
        // Equal now: nothing written there before this read (a later write
        // stays a difference from the shadow, seen next time).
        if shadow[i..run_end] == now[i..run_end] {
            i = run_end;
            continue;
        }
        while i < run_end {
            let e = (i + BLOCK).min(run_end);
            let cur = &mut block[..e - i];
            cur.copy_from_slice(&now[i..e]);
            let old = &mut shadow[i..e];
            if blocks_differ(old, cur) {
                // The block's changed bytes are less than BLOCK apart, so
                // they all join one span: only its first and last changed
                // bytes matter.
                let (first, last) = first_last_difference(old, cur);
                let (f, l) = (i + first, i + last);
                match spans.last_mut() {
                    Some(span) if f < span.1 + BLOCK => span.1 = l + 1,
                    _ => spans.push((f, l + 1)),
                }
                old.copy_from_slice(cur);
            }
            i = e;
        }
    }
    spans
}

/// Whether two blocks of one length differ: a whole 64-byte block as eight
/// words folded with xor and or (no branch per word, no call), a shorter
/// one as slices.
fn blocks_differ(a: &[u8], b: &[u8]) -> bool {
    match (<&[u8; 64]>::try_from(a), <&[u8; 64]>::try_from(b)) {
        (Ok(a), Ok(b)) => {
            let word = |s: &[u8; 64], k: usize| {
                let mut w = [0u8; 8];
                w.copy_from_slice(&s[8 * k..8 * k + 8]);
                u64::from_ne_bytes(w)
            };
            (0..8).fold(0u64, |acc, k| acc | (word(a, k) ^ word(b, k))) != 0
        }
        _ => a != b,
    }
}

/// The offsets of the first and the last byte where `a` and `b` (same
/// length, not equal) differ.
fn first_last_difference(a: &[u8], b: &[u8]) -> (usize, usize) {
    let words = a.len() / 8;
    let word = |s: &[u8], k: usize| u64::from_le_bytes(s[8 * k..8 * k + 8].try_into().unwrap_or([0; 8]));
    let differs = |k: usize| word(a, k) ^ word(b, k);
    let bytes_first = || (0..a.len()).find(|&j| a[j] != b[j]).unwrap_or(0);
    let bytes_last = || (0..a.len()).rev().find(|&j| a[j] != b[j]).unwrap_or(0);
    // Each word is read once: `a` is mapped memory another thread may be
    // writing, so a second read of a word found to differ may find it
    // equal (and a zero difference has 64 leading zeros: `7 - 8` overflowed).
    let differing = |k: usize| {
        let d = differs(k);
        (d != 0).then_some((k, d))
    };
    let first = match (0..words).find_map(differing) {
        Some((k, d)) => 8 * k + (d.trailing_zeros() / 8) as usize,
        None => (8 * words..a.len())
            .find(|&j| a[j] != b[j])
            .unwrap_or_else(bytes_first),
    };
    let last = match (8 * words..a.len()).rev().find(|&j| a[j] != b[j]) {
        Some(j) => j,
        None => match (0..words).rev().find_map(differing) {
            Some((k, d)) => 8 * k + 7 - (d.leading_zeros() / 8) as usize,
            None => bytes_last(),
        },
    };
    (first, last)
}

/// Bytes per texel of an uncompressed single-plane color format, or of a
/// depth-only or stencil-only one; `None` for the rest (block-compressed,
/// combined depth/stencil, multi-planar, extension formats), whose copies
/// touch a buffer in ways this coarse model does not compute.
fn texel_size(format: vk::Format) -> Option<u64> {
    // Core formats are numbered in groups of one size (vk.xml's order).
    let size = match format.as_raw() {
        1 | 9..=15 | 127 => 1,
        2..=8 | 16..=22 | 70..=76 | 124 => 2,
        23..=36 => 3,
        37..=69 | 77..=83 | 98..=100 | 122 | 123 | 125 | 126 => 4,
        84..=90 => 6,
        91..=97 | 101..=103 | 110..=112 => 8,
        104..=106 => 12,
        107..=109 | 113..=115 => 16,
        116..=118 => 24,
        119..=121 => 32,
        _ => return None,
    };
    Some(size)
}

/// The model's format of a Vulkan one, by name (`vksync::vk::image::FORMATS`
/// is the one table of formats; ash prints a known format by its name
/// without `VK_FORMAT_`).
fn model_format(f: vk::Format) -> Option<vksync::Format> {
    vksync::Format::parse(&format!("{f:?}"))
}

/// The model's layout of a Vulkan one (the model's discriminants are
/// Vulkan's values).
fn model_layout(l: vk::ImageLayout) -> Option<vksync::ImageLayout> {
    vksync::ImageLayout::ALL
        .iter()
        .copied()
        .find(|m| *m as i32 == l.as_raw())
}

/// The model's `VkImageSubresourceLayers`.
fn model_layers(l: vk::ImageSubresourceLayers) -> vksync::SubresourceLayers {
    vksync::SubresourceLayers {
        aspects: vksync::AspectMask(l.aspect_mask.as_raw()),
        mip: l.mip_level,
        base_layer: l.base_array_layer,
        layer_count: (l.layer_count != vk::REMAINING_ARRAY_LAYERS).then_some(l.layer_count),
    }
}

/// A `VkOffset3D` (signed) as the model's texel offset; a negative
/// coordinate is outside every image.
fn offset3(o: vk::Offset3D) -> Result<[u32; 3], String> {
    let c = |v: i32| u32::try_from(v).map_err(|_| format!("a negative image offset {v}"));
    Ok([c(o.x)?, c(o.y)?, c(o.z)?])
}

/// Whether an image is declared exactly: its format is in the model's
/// table, it is 1D, 2D or 3D, and its notional size (the model's tight
/// layout) fits both in what its memory requirements ask for (`size`:
/// past that, the notional bytes would reach a neighbour's memory and
/// raise false alarms) and in the memory left after its offset (`left`:
/// the model refuses an alias past its memory). The format, extent,
/// tiling and notional size; otherwise why not, for the comment on the
/// coarse declaration.
/// An image the capture declares exactly: what [`exact_image`] found.
struct ExactImage {
    format: vksync::Format,
    extent: [u32; 3],
    tiling: vksync::Tiling,
    /// Its size in the model's layout.
    notional: u64,
    /// A linear image's row pitch, where wider than its texels.
    row_pitch: Option<u64>,
}

/// `linear`: a linear image's subresources' layouts (the driver's): one
/// subresource's row pitch is kept where it is wider than the texels; an
/// image of several must be laid out as the model packs them (else it is
/// declared coarsely, with the first difference as the reason).
fn exact_image(
    info: &ImageInfo,
    size: u64,
    left: u64,
    linear: Option<&[SubLayout]>,
) -> Result<ExactImage, String> {
    let format = model_format(info.format)
        .ok_or_else(|| format!("format {:?} is not in the model's table", info.format))?;
    let [w, h, d] = info.extent;
    let extent = match info.image_type {
        vk::ImageType::TYPE_1D => [w, 1, 1],
        vk::ImageType::TYPE_2D => [w, h, 1],
        vk::ImageType::TYPE_3D => [w, h, d],
        other => return Err(format!("image type {other:?}")),
    };
    let tiling = match info.tiling {
        vk::ImageTiling::OPTIMAL => vksync::Tiling::Optimal,
        vk::ImageTiling::LINEAR => vksync::Tiling::Linear,
        other => return Err(format!("tiling {other:?}")),
    };
    let desc = vksync::ImageDesc {
        object: ObjectId(0),
        format,
        extent,
        mips: info.mips,
        layers: info.layers,
        tiling,
        initial: vksync::ImageLayout::UNDEFINED,
        row_pitch: None,
    };
    desc.validate("image").map_err(|e| e.to_string())?;
    // The driver's pitch, where its rows are further apart than their
    // texels; a linear image of several subresources with one is not
    // declared exactly (the model has the pitch of one subresource only).
    let mut desc = desc;
    match linear {
        Some([one]) => {
            let p = one.layout.row_pitch;
            let a = desc
                .format
                .aspect_mask()
                .aspects()
                .next()
                .unwrap_or(vksync::Aspect::Color);
            let texels = desc.subresource_layout(a, 0, 0).row_pitch;
            if p != texels && (extent[1] > 1 || extent[2] > 1) {
                desc.row_pitch = Some(p);
                desc.validate("image").map_err(|e| {
                    format!(
                        "its rows are {p} bytes apart (rowPitch), which the model's layout cannot hold: {e}"
                    )
                })?;
            }
        }
        Some(all) => packed_as_the_model(&desc, all)?,
        None => {}
    }
    let pitch = desc.row_pitch;
    let notional = desc.total_size().ok_or("its notional size overflows")?;
    if notional > size {
        return Err(format!(
            "its notional size {notional} is larger than the {size} bytes its memory requirements ask for"
        ));
    }
    if notional > left {
        return Err(format!(
            "its notional size {notional} is larger than the {left} bytes of memory after its offset"
        ));
    }
    Ok(ExactImage {
        format,
        extent,
        tiling,
        notional,
        row_pitch: pitch,
    })
}

/// Checks that the driver lays linear image `desc`'s subresources out as
/// the model packs them (offset from the image's start, row, array and
/// depth pitches where they mean something); the first difference is the
/// error (review31: a 2-mip image whose mip 1 rows are padded, and layers
/// further apart, were declared packed and races in them missed).
fn packed_as_the_model(desc: &vksync::ImageDesc, all: &[SubLayout]) -> Result<(), String> {
    for l in all {
        let (bit, mip, layer) = l.subresource;
        let Some(a) = vksync::Aspect::ALL.iter().copied().find(|a| a.bit() == bit) else {
            continue;
        };
        let e = desc.mip_extent(mip);
        let m = desc.subresource_layout(a, mip, layer);
        // Each field where it means something: rows with more than one
        // row, layers with more than one layer, slices in 3D.
        let fields = [
            ("offset", true, l.layout.offset, m.offset),
            ("rowPitch", e[1] > 1 || e[2] > 1, l.layout.row_pitch, m.row_pitch),
            ("arrayPitch", desc.layers > 1, l.layout.array_pitch, m.array_pitch),
            ("depthPitch", e[2] > 1, l.layout.depth_pitch, m.depth_pitch),
        ];
        if let Some((what, _, got, model)) = fields
            .into_iter()
            .find(|&(_, applies, got, model)| applies && got != model)
        {
            return Err(format!(
                "the driver lays its {} mip {mip} layer {layer} out with {what} {got}, the model's packed layout with {model}",
                a.name()
            ));
        }
    }
    Ok(())
}

/// The bytes of a buffer that one `VkBufferImageCopy` region reads or
/// writes, `[start, end)`: from `bufferOffset` to the last texel of the
/// last row of the last layer, with rows `bufferRowLength` texels and
/// layers `bufferImageHeight` rows apart (0: tightly packed). `None` when
/// the format's texel size is unknown (see [`texel_size`]).
fn buffer_image_bytes(format: vk::Format, r: &vk::BufferImageCopy) -> Option<(u64, u64)> {
    let texel = texel_size(format)?;
    let e = r.image_extent;
    if e.width == 0 || e.height == 0 || e.depth == 0 || r.image_subresource.layer_count == 0 {
        return Some((r.buffer_offset, r.buffer_offset));
    }
    let row = u64::from(if r.buffer_row_length == 0 {
        e.width
    } else {
        r.buffer_row_length
    });
    let height = u64::from(if r.buffer_image_height == 0 {
        e.height
    } else {
        r.buffer_image_height
    });
    // Slices: depth for a 3D image, layers for an array (one of them is
    // 1). VK_REMAINING_ARRAY_LAYERS needs the image's layer count, which is
    // not kept: unknown.
    if r.image_subresource.layer_count == vk::REMAINING_ARRAY_LAYERS {
        return None;
    }
    let layers = u64::from(r.image_subresource.layer_count);
    let slices = u64::from(e.depth).checked_mul(layers)?;
    let texels = row
        .checked_mul(height)?
        .checked_mul(slices - 1)?
        .checked_add(row.checked_mul(u64::from(e.height) - 1)?)?
        .checked_add(u64::from(e.width))?;
    let end = r.buffer_offset.checked_add(texels.checked_mul(texel)?)?;
    Some((r.buffer_offset, end))
}

/// The regions `c` accesses with accesses `which` picks, from the model's
/// one table of which command accesses what ([`vksync::region_accesses`]).
fn regions(c: &Command, which: impl Fn(StageAccess) -> bool) -> Vec<Region> {
    region_accesses(c, Semantics::SPEC)
        .into_iter()
        .filter(|(_, sa)| which(*sa))
        .map(|(r, _)| r)
        .collect()
}

/// What a device command writes (layout transitions included).
fn device_writes(c: &Command) -> Vec<Region> {
    regions(c, |sa| sa.is_write() && sa.stage() != Stage::Host)
}

/// The event a command signals (`true`: the host's `vkSetEvent`) or
/// unsignals (`false`: a device set, or a reset, either side): what
/// [`Capture::host_set_events`] follows.
fn event_signal(c: &Command) -> Option<(EventId, bool)> {
    match c {
        Command::HostSetEvent { event } => Some((*event, true)),
        Command::SetEvent { event, .. }
        | Command::SetEvent1 { event, .. }
        | Command::ResetEvent { event, .. }
        | Command::HostResetEvent { event } => Some((*event, false)),
        _ => None,
    }
}

/// What a device command reads.
fn device_reads(c: &Command) -> Vec<Region> {
    regions(c, |sa| !sa.is_write() && sa.stage() != Stage::Host)
}

/// What a host write writes.
fn host_write_regions(c: &Command) -> Vec<Region> {
    regions(c, |sa| sa == StageAccess::HostWrite)
}

fn is_image(ty: vk::DescriptorType) -> bool {
    matches!(
        ty,
        vk::DescriptorType::STORAGE_IMAGE
            | vk::DescriptorType::SAMPLED_IMAGE
            | vk::DescriptorType::COMBINED_IMAGE_SAMPLER
    )
}

fn is_buffer(ty: vk::DescriptorType) -> bool {
    matches!(
        ty,
        vk::DescriptorType::STORAGE_BUFFER
            | vk::DescriptorType::STORAGE_BUFFER_DYNAMIC
            | vk::DescriptorType::UNIFORM_BUFFER
            | vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC
    )
}

/// The written elements of `binding` below `count` in one of a set's
/// descriptor maps, in element order: the written ones only, however large
/// the array.
fn written<V>(map: &BTreeMap<(u32, u32), V>, binding: u32, count: u32) -> impl Iterator<Item = (u32, &V)> {
    map.range((binding, 0)..(binding, count))
        .map(|(&(_, e), v)| (e, v))
}

/// Whether a layout binding has `VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT`:
/// then none of its descriptors need be valid ("descriptors ... that are
/// not dynamically used need not contain valid descriptors"): an unwritten
/// one, or one whose buffer, image, view or buffer view was destroyed
/// since, is not accessed by a valid program, and adds no binding to a
/// command. Without it the first element must be written (element 0 of
/// every array the shader uses; later unwritten elements are left out all
/// the same).
fn partially_bound(b: Option<&LayoutBinding>) -> bool {
    b.is_some_and(|b| b.flags.contains(vk::DescriptorBindingFlags::PARTIALLY_BOUND))
}

/// An application's string in a comment: one line, at most 80 characters.
fn printable(text: &str) -> String {
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    match one_line.char_indices().nth(80) {
        Some((i, _)) => format!("{}...", &one_line[..i]),
        None => one_line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reflect::{EntryPoint, Reflection, Use};

    const READ: Use = Use {
        read: true,
        write: false,
    };
    const WRITE: Use = Use {
        read: false,
        write: true,
    };

    /// A device with one 4096-byte buffer (handle 10) over one allocation,
    /// a set layout (20) with two storage bindings, a pipeline layout (30)
    /// whose set 0 is it, and a pipeline (50) reading binding 0 and
    /// writing binding 1.
    fn device() -> Capture {
        let mut c = Capture::new(PathBuf::from("unused.trace"), Vec::new());
        c.allocate_memory(1, 1, 4096);
        c.create_buffer(10, 4096, vk::SharingMode::CONCURRENT);
        c.bind_buffer(2, "vkBindBufferMemory", 10, 1, 0);
        c.create_set_layout(
            20,
            vec![
                (0, vk::DescriptorType::STORAGE_BUFFER, 1),
                (1, vk::DescriptorType::STORAGE_BUFFER, 1),
            ],
        );
        c.create_pipeline_layout(30, vec![20]);
        let mut bindings = BTreeMap::new();
        bindings.insert((0, 0), READ);
        bindings.insert((0, 1), WRITE);
        let mut entry_points = BTreeMap::new();
        entry_points.insert(
            "main".to_string(),
            EntryPoint {
                bindings,
                elements: BTreeMap::new(),
            },
        );
        c.create_shader(
            40,
            Ok(Reflection {
                entry_points,
                exact: true,
            }),
        );
        c.create_compute_pipeline(50, 40, "main", 30);
        c.allocate_command_buffers(60, &[70]);
        c.bind_pipeline(70, vk::PipelineBindPoint::COMPUTE, 50);
        c
    }

    #[test]
    fn a_buffer_image_copy_touches_the_rows_it_names() {
        let region = |offset, row, height, w, h, d, layers| vk::BufferImageCopy {
            buffer_offset: offset,
            buffer_row_length: row,
            buffer_image_height: height,
            image_subresource: vk::ImageSubresourceLayers {
                layer_count: layers,
                ..Default::default()
            },
            image_extent: vk::Extent3D {
                width: w,
                height: h,
                depth: d,
            },
            ..Default::default()
        };
        type Case<'a> = (&'a str, vk::Format, vk::BufferImageCopy, Option<(u64, u64)>);
        let cases: &[Case] = &[
            (
                "8x8 R32_UINT packed",
                vk::Format::R32_UINT,
                region(0, 0, 0, 8, 8, 1, 1),
                Some((0, 256)),
            ),
            (
                "offset",
                vk::Format::R8G8B8A8_UNORM,
                region(100, 0, 0, 4, 2, 1, 1),
                Some((100, 132)),
            ),
            // Rows 16 texels apart: the last row ends after its 4 texels.
            (
                "row length",
                vk::Format::R8_UNORM,
                region(0, 16, 0, 4, 3, 1, 1),
                Some((0, 36)),
            ),
            (
                "two layers",
                vk::Format::R16_SFLOAT,
                region(0, 0, 4, 2, 2, 1, 2),
                Some((0, 2 * (8 + 2 + 2))),
            ),
            (
                "3D",
                vk::Format::R32G32B32A32_SFLOAT,
                region(0, 0, 0, 2, 2, 2, 1),
                Some((0, 16 * 8)),
            ),
            (
                "empty",
                vk::Format::R32_UINT,
                region(8, 0, 0, 0, 8, 1, 1),
                Some((8, 8)),
            ),
            (
                "compressed",
                vk::Format::BC1_RGB_UNORM_BLOCK,
                region(0, 0, 0, 8, 8, 1, 1),
                None,
            ),
            (
                "depth/stencil",
                vk::Format::D24_UNORM_S8_UINT,
                region(0, 0, 0, 8, 8, 1, 1),
                None,
            ),
            (
                "past 2^64",
                vk::Format::R32_UINT,
                region(u64::MAX - 4, 0, 0, 8, 8, 1, 1),
                None,
            ),
            // The image's layer count is not kept.
            (
                "all remaining layers",
                vk::Format::R32_UINT,
                region(0, 0, 0, 8, 8, 1, vk::REMAINING_ARRAY_LAYERS),
                None,
            ),
        ];
        for (name, format, r, want) in cases {
            assert_eq!(buffer_image_bytes(*format, r), *want, "{name}");
        }
        // The size table's groups, at their edges.
        for (format, size) in [
            (vk::Format::R4G4_UNORM_PACK8, 1),
            (vk::Format::A1R5G5B5_UNORM_PACK16, 2),
            (vk::Format::B8G8R8_SRGB, 3),
            (vk::Format::A2B10G10R10_SINT_PACK32, 4),
            (vk::Format::R16G16B16_SFLOAT, 6),
            (vk::Format::R64_SFLOAT, 8),
            (vk::Format::R32G32B32_SFLOAT, 12),
            (vk::Format::R64G64_UINT, 16),
            (vk::Format::R64G64B64_SINT, 24),
            (vk::Format::R64G64B64A64_SFLOAT, 32),
            (vk::Format::E5B9G9R9_UFLOAT_PACK32, 4),
            (vk::Format::S8_UINT, 1),
        ] {
            assert_eq!(texel_size(format), Some(size), "{format:?}");
        }
    }

    /// Barriers as the layer hands them in, and the trace line each
    /// pipeline barrier becomes (or the `not-modelled` / comment line):
    /// image barriers cover all of the image's memory, a layout change is a
    /// transition, and an ownership transfer is left out and said so.
    #[test]
    fn image_and_ownership_barriers() {
        let masks = [
            vk::PipelineStageFlags2::COPY.as_raw(),
            vk::AccessFlags2::TRANSFER_WRITE.as_raw(),
            vk::PipelineStageFlags2::COMPUTE_SHADER.as_raw(),
            vk::AccessFlags2::SHADER_STORAGE_READ.as_raw(),
        ];
        let image = |image, old: vk::ImageLayout, new: vk::ImageLayout| BarrierTarget::Image {
            image,
            range: [
                vk::ImageAspectFlags::COLOR.as_raw(),
                0,
                1,
                0,
                vk::REMAINING_ARRAY_LAYERS,
            ],
            old_layout: old,
            new_layout: new,
        };
        let (undefined, general) = (vk::ImageLayout::UNDEFINED, vk::ImageLayout::GENERAL);
        let buffer = BarrierTarget::Buffer {
            buffer: 10,
            offset: 0,
            size: vk::WHOLE_SIZE,
        };
        let rb = |target, transfer: bool| ResourceBarrier {
            masks,
            target,
            queue_families: transfer.then_some((0, 1)),
        };
        // Image 80 is R32_UINT 16x16, 1024 notional bytes: declared
        // exactly; image 81 has a format outside the model's table:
        // coarsely, as its memory range.
        let cases: Vec<(&str, Vec<ResourceBarrier>, &str)> =
            vec![
            (
                "an exact layout transition names the subresources and layouts",
                vec![rb(image(80, undefined, general), false)],
                "barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ i0 COLOR:0:0.. UNDEFINED->GENERAL",
            ),
            (
                "same layout, exactly: a barrier that orders without a transition",
                vec![rb(image(80, general, general), false)],
                "barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ i0 COLOR:0:0.. GENERAL->GENERAL",
            ),
            (
                "a coarse layout transition",
                vec![rb(image(81, undefined, general), false)],
                "barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ i1[0..1024] transition",
            ),
            (
                "same layout, coarsely: a barrier over the image's memory",
                vec![rb(image(81, general, general), false)],
                "barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ i1[0..1024]",
            ),
            (
                "an ownership transfer is left out",
                vec![rb(buffer, true), rb(image(81, undefined, general), false)],
                "not-modelled vkCmdPipelineBarrier2 (1 queue family ownership transfer barrier(s): their scopes left out, their layout transitions kept unordered)",
            ),
            (
                "the layout transition of a left-out ownership transfer is kept, ordered with nothing",
                vec![rb(image(81, undefined, general), true)],
                "barrier NONE:NONE -> NONE:NONE i1[0..1024] transition",
            ),
            (
                "an unknown image is skipped, with the reason",
                vec![rb(image(99, undefined, general), false)],
                "not-modelled vkCmdPipelineBarrier2 (barrier 0: an unknown image)",
            ),
        ];
        for (name, barriers, want) in cases {
            let mut c = device();
            c.create_image(80, image_info(vk::Format::R32_UINT, [16, 16, 1]));
            c.bind_image(3, "vkBindImageMemory", 80, 1, 2048, 1024);
            c.create_image(81, image_info(vk::Format::R16_UINT, [16, 16, 1]));
            c.bind_image(4, "vkBindImageMemory", 81, 1, 3072, 1024);
            c.barrier(70, 7, "vkCmdPipelineBarrier2", &[], &barriers);
            let text = submitted(c);
            assert!(
                text.lines()
                    .any(|l| l.split("  # ").next() == Some(want) || l.starts_with(want)),
                "{name}: no `{want}` in\n{text}"
            );
        }
    }

    /// An event's image barrier with a layout change is captured as the
    /// transition it is (at the set for `vkCmdSetEvent2`, at the wait for
    /// `vkCmdWaitEvents`), and the captured trace parses and checks.
    #[test]
    fn event_layout_transitions_are_captured_and_check() {
        let image = |old: vk::ImageLayout, new: vk::ImageLayout| ResourceBarrier {
            masks: [
                vk::PipelineStageFlags2::ALL_TRANSFER.as_raw(),
                vk::AccessFlags2::TRANSFER_WRITE.as_raw(),
                vk::PipelineStageFlags2::ALL_TRANSFER.as_raw(),
                vk::AccessFlags2::TRANSFER_READ.as_raw(),
            ],
            target: BarrierTarget::Image {
                image: 80,
                range: [vk::ImageAspectFlags::COLOR.as_raw(), 0, 1, 0, 1],
                old_layout: old,
                new_layout: new,
            },
            queue_families: None,
        };
        let (undefined, general, src) = (
            vk::ImageLayout::UNDEFINED,
            vk::ImageLayout::GENERAL,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
        );
        let mut c = device();
        c.create_image(80, image_info(vk::Format::R32_UINT, [16, 16, 1]));
        c.bind_image(3, "vkBindImageMemory", 80, 1, 2048, 1024);
        c.create_event(500);
        c.create_event(501);
        c.set_event(70, 7, "vkCmdSetEvent2", 500, &[], &[image(undefined, general)]);
        c.wait_events(
            70,
            8,
            "vkCmdWaitEvents2",
            &[(500, vec![], vec![image(undefined, general)])],
        );
        let transfer = vk::PipelineStageFlags2::ALL_TRANSFER.as_raw();
        c.set_event1(70, 9, "vkCmdSetEvent", 501, transfer);
        c.wait_events1(
            70,
            10,
            "vkCmdWaitEvents",
            &[501],
            [transfer, transfer],
            &[],
            &[image(general, src)],
        );
        let text = submitted(c);
        for want in [
            "set-event e0 ALL_TRANSFER:TRANSFER_WRITE -> ALL_TRANSFER:TRANSFER_READ i0 COLOR:0:0 UNDEFINED->GENERAL",
            "wait-events1 e1 ALL_TRANSFER:TRANSFER_WRITE -> ALL_TRANSFER:TRANSFER_READ i0 COLOR:0:0 GENERAL->TRANSFER_SRC_OPTIMAL",
        ] {
            assert!(
                text.lines().any(|l| l.split("  # ").next() == Some(want)),
                "no `{want}` in\n{text}"
            );
        }
        let t = vksync::trace::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        vksync::check(&t.program).unwrap_or_else(|e| panic!("{e}\n{text}"));
    }

    /// A `vkCmdWaitEvents2` of an event the host set, whose dependency
    /// info transitions an image, is refused by the model (no command
    /// performs the transition): the capture writes a `not-modelled` line
    /// with the model's reason instead, keeps the transition unordered
    /// (empty scopes) so that the image's layout after it is the one later
    /// commands name, and the trace checks. The host's `vkSetEvent` comes
    /// after the wait is recorded and before the submit: it counts. The
    /// same wait of an event a `vkCmdSetEvent2` set, one with no
    /// transition, and a synchronization-1 wait of a host-set event with a
    /// transition (performed at the wait) are the model's lines.
    #[test]
    fn a_host_set_events_wait_with_a_transition_is_not_modelled() {
        let (host, copy, transfer) = (
            vk::PipelineStageFlags2::HOST.as_raw(),
            vk::PipelineStageFlags2::COPY.as_raw(),
            vk::PipelineStageFlags2::ALL_TRANSFER.as_raw(),
        );
        let image = |src: u64, old: vk::ImageLayout, new: vk::ImageLayout| ResourceBarrier {
            masks: [src, 0, copy, vk::AccessFlags2::TRANSFER_READ.as_raw()],
            target: BarrierTarget::Image {
                image: 80,
                range: [vk::ImageAspectFlags::COLOR.as_raw(), 0, 1, 0, 1],
                old_layout: old,
                new_layout: new,
            },
            queue_families: None,
        };
        let (undefined, general, src) = (
            vk::ImageLayout::UNDEFINED,
            vk::ImageLayout::GENERAL,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
        );
        let mut c = device();
        c.create_image(80, image_info(vk::Format::R32_UINT, [16, 16, 1]));
        c.bind_image(3, "vkBindImageMemory", 80, 1, 2048, 1024);
        for e in [500, 501, 502] {
            c.create_event(e);
        }
        c.wait_events(
            70,
            7,
            "vkCmdWaitEvents2",
            &[(500, vec![], vec![image(host, undefined, general)])],
        );
        // The same layouts: no transition, the model's line.
        c.wait_events(
            70,
            8,
            "vkCmdWaitEvents2",
            &[(500, vec![], vec![image(host, general, general)])],
        );
        c.wait_events1(
            70,
            9,
            "vkCmdWaitEvents",
            &[501],
            [host, transfer],
            &[],
            &[ResourceBarrier {
                masks: [host, 0, transfer, vk::AccessFlags2::TRANSFER_READ.as_raw()],
                ..image(host, general, src)
            }],
        );
        c.set_event(70, 10, "vkCmdSetEvent2", 502, &[], &[image(copy, src, general)]);
        c.wait_events(
            70,
            11,
            "vkCmdWaitEvents2",
            &[(502, vec![], vec![image(copy, src, general)])],
        );
        // Set by the host after the waits are recorded, before the submit.
        c.host_event(12, "vkSetEvent", 500, true);
        c.host_event(13, "vkSetEvent", 501, true);
        let text = submitted(c);
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with("host-set-event e0"))
            .unwrap_or_else(|| panic!("{text}"));
        assert_eq!(
            &lines[at..at + 9],
            [
                "host-set-event e0  # vkSetEvent #12",
                "host-set-event e1  # vkSetEvent #13",
                "not-modelled vkCmdWaitEvents2 (the model rejects it: barrier 0 of the wait for event `e0`, \
                 which the host set: its image layout transition is performed by no command (vkCmdSetEvent2 \
                 performs an event's transitions, and vkSetEvent has no dependency info); the wait left out, \
                 its layout transitions kept after nothing, before its second scopes)  # vkCmdWaitEvents2 #7 in cb0",
                "barrier NONE:NONE -> COPY:TRANSFER_READ i0 COLOR:0:0 UNDEFINED->GENERAL  # vkCmdWaitEvents2 #7 in cb0",
                "wait-events e0 HOST:NONE -> COPY:TRANSFER_READ i0 COLOR:0:0 GENERAL->GENERAL  # vkCmdWaitEvents2 #8 in cb0",
                "wait-events1 e1 HOST:NONE -> ALL_TRANSFER:TRANSFER_READ i0 COLOR:0:0 GENERAL->TRANSFER_SRC_OPTIMAL  # vkCmdWaitEvents #9 in cb0",
                "set-event e2 COPY:NONE -> COPY:TRANSFER_READ i0 COLOR:0:0 TRANSFER_SRC_OPTIMAL->GENERAL  # vkCmdSetEvent2 #10 in cb0",
                "wait-events e2 COPY:NONE -> COPY:TRANSFER_READ i0 COLOR:0:0 TRANSFER_SRC_OPTIMAL->GENERAL  # vkCmdWaitEvents2 #11 in cb0",
                "submit  # vkQueueSubmit #100",
            ],
            "{text}"
        );
        assert!(text.contains("1 calls not modelled"), "{text}");
        let t = vksync::trace::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(t.not_modelled.len(), 1, "{text}");
        vksync::check(&t.program).unwrap_or_else(|e| panic!("{e}\n{text}"));
    }

    /// Blits, resolves and clears of images declared exactly are the
    /// model's commands, with every region and the layouts; of a coarse
    /// image they are not modelled, saying why.
    #[test]
    fn blits_resolves_and_clears() {
        let (dst, src, general) = (
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            vk::ImageLayout::GENERAL,
        );
        let layers = vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: 0,
            base_array_layer: 0,
            layer_count: 1,
        };
        let corner = |x, y| vk::Offset3D { x, y, z: 0 };
        let blit = vk::ImageBlit {
            src_subresource: layers,
            src_offsets: [corner(0, 0), vk::Offset3D { x: 16, y: 16, z: 1 }],
            dst_subresource: layers,
            dst_offsets: [corner(0, 0), vk::Offset3D { x: 8, y: 8, z: 1 }],
        };
        let resolve = vk::ImageResolve {
            src_subresource: layers,
            src_offset: corner(0, 0),
            dst_subresource: layers,
            dst_offset: corner(4, 4),
            extent: vk::Extent3D {
                width: 4,
                height: 4,
                depth: 1,
            },
        };
        let color = [vk::ImageAspectFlags::COLOR.as_raw(), 0, 1, 0, 1];
        type Op = Box<dyn Fn(&mut Capture)>;
        let cases: Vec<(&str, Op, &str)> = vec![
            (
                "a clear",
                Box::new(move |c: &mut Capture| c.clear_image(70, 7, "vkCmdClearColorImage", false, (80, dst), &[color])),
                "clear-color-image i0 TRANSFER_DST_OPTIMAL COLOR:0:0  # vkCmdClearColorImage #7 in cb0",
            ),
            (
                "a blit",
                Box::new(move |c: &mut Capture| c.blit_image(70, 7, "vkCmdBlitImage", (80, src), (82, general), &[blit], vk::Filter::LINEAR)),
                "blit-image i0 TRANSFER_SRC_OPTIMAL -> i2 GENERAL filter=LINEAR srcSubresource=COLOR:0:0 srcOffsets=0,0,0:16,16,1 dstSubresource=COLOR:0:0 dstOffsets=0,0,0:8,8,1  # vkCmdBlitImage #7",
            ),
            (
                "a resolve",
                Box::new(move |c: &mut Capture| c.resolve_image(70, 7, "vkCmdResolveImage", (80, src), (82, dst), &[resolve])),
                "resolve-image i0 TRANSFER_SRC_OPTIMAL -> i2 TRANSFER_DST_OPTIMAL",
            ),
            (
                "a coarse image's clear is not modelled",
                Box::new(move |c: &mut Capture| c.clear_image(70, 7, "vkCmdClearColorImage", false, (81, dst), &[color])),
                "not-modelled vkCmdClearColorImage (an image declared coarsely)",
            ),
            (
                "a negative offset is not modelled",
                Box::new(move |c: &mut Capture| {
                    let mut r = resolve;
                    r.src_offset.x = -1;
                    c.resolve_image(70, 7, "vkCmdResolveImage", (80, src), (82, dst), &[r])
                }),
                "not-modelled vkCmdResolveImage (a negative image offset -1)",
            ),
        ];
        for (name, op, want) in cases {
            let mut c = device();
            c.create_image(80, image_info(vk::Format::R32_UINT, [16, 16, 1]));
            c.bind_image(3, "vkBindImageMemory", 80, 1, 2048, 1024);
            c.create_image(81, image_info(vk::Format::R16_UINT, [16, 16, 1]));
            c.bind_image(4, "vkBindImageMemory", 81, 1, 3072, 512);
            c.create_image(82, image_info(vk::Format::R32_UINT, [8, 8, 1]));
            c.bind_image(5, "vkBindImageMemory", 82, 1, 3584, 256);
            op(&mut c);
            let text = submitted(c);
            assert!(
                text.lines().any(|l| l.starts_with(want)),
                "{name}: no `{want}` in\n{text}"
            );
        }
    }

    /// Descriptor indexing (issue 23): a binding with `UPDATE_AFTER_BIND`
    /// is read at each submission, so a descriptor written after the
    /// dispatch was recorded (or rewritten between two submissions) is the
    /// one the trace names; without the flag the dispatch is made when it
    /// is recorded. `PARTIALLY_BOUND` lets every element of an array stay
    /// unwritten; without it element 0 must be written.
    #[test]
    fn descriptor_indexing_update_after_bind_and_partially_bound() {
        use vk::DescriptorBindingFlags as F;
        const UAB: F = F::UPDATE_AFTER_BIND;
        const PART: F = F::PARTIALLY_BOUND;
        // A descriptor of binding `b` element `e` over b0[lo..hi].
        type Write = (u32, u32, u64, u64);
        // (name, flags of binding 0, array count of binding 0, writes
        // before the dispatch, writes after it, writes after the first
        // submission, the lines each submission must write, in order).
        type Case<'a> = (
            &'a str,
            F,
            u32,
            &'a [Write],
            &'a [Write],
            &'a [Write],
            [&'a str; 2],
        );
        let cases: &[Case] = &[
            (
                "written before, no flag: made when recorded",
                F::empty(),
                1,
                &[(0, 0, 0, 64), (1, 0, 1024, 1088)],
                &[],
                &[],
                ["dispatch s0_main read b0[0..64] write b0[1024..1088]", "dispatch s0_main read b0[0..64] write"],
            ),
            (
                "written after the dispatch, no flag: not modelled",
                F::empty(),
                1,
                &[(1, 0, 1024, 1088)],
                &[(0, 0, 0, 64)],
                &[],
                [
                    "not-modelled vkCmdDispatch (set 0 binding 0 never written)",
                    "not-modelled vkCmdDispatch (set 0 binding 0 never written)",
                ],
            ),
            (
                "written after the dispatch, UPDATE_AFTER_BIND: the written one",
                UAB,
                1,
                &[(1, 0, 1024, 1088)],
                &[(0, 0, 0, 64)],
                &[],
                ["dispatch s0_main read b0[0..64] write b0[1024..1088]", "dispatch s0_main read b0[0..64] write"],
            ),
            (
                "rewritten between submissions, UPDATE_AFTER_BIND: each submission's",
                UAB,
                1,
                &[(0, 0, 0, 64), (1, 0, 1024, 1088)],
                &[(0, 0, 128, 192)],
                &[(0, 0, 256, 320)],
                ["dispatch s0_main read b0[128..192] write", "dispatch s0_main read b0[256..320] write"],
            ),
            (
                "never written by the submission, UPDATE_AFTER_BIND: not modelled, saying when it was read",
                UAB,
                1,
                &[(1, 0, 1024, 1088)],
                &[],
                &[],
                [
                    "not-modelled vkCmdDispatch (set 0 binding 0 never written; made at the submission: it uses UPDATE_AFTER_BIND descriptors)",
                    "not-modelled vkCmdDispatch (set 0 binding 0 never written; made at the submission",
                ],
            ),
            (
                "an array with element 2 written, PARTIALLY_BOUND: that element",
                PART,
                4,
                &[(0, 2, 512, 576), (1, 0, 1024, 1088)],
                &[],
                &[],
                ["dispatch s0_main read b0[512..576] write b0[1024..1088]", "dispatch s0_main read b0[512..576] write"],
            ),
            (
                "an array with element 2 written, no flag: element 0 must be",
                F::empty(),
                4,
                &[(0, 2, 512, 576), (1, 0, 1024, 1088)],
                &[],
                &[],
                [
                    "not-modelled vkCmdDispatch (set 0 binding 0 never written)",
                    "not-modelled vkCmdDispatch (set 0 binding 0 never written)",
                ],
            ),
            (
                "both flags, written after the dispatch, elements 1 and 3",
                UAB | PART,
                4,
                &[(1, 0, 1024, 1088)],
                &[(0, 3, 768, 832), (0, 1, 384, 448)],
                &[],
                [
                    "dispatch s0_main read b0[384..448] read b0[768..832] write b0[1024..1088]",
                    "dispatch s0_main read b0[384..448] read b0[768..832] write",
                ],
            ),
        ];
        for &(name, flags, count, before, after, between, want) in cases {
            let mut c = device();
            c.create_set_layout(
                22,
                vec![
                    (0, vk::DescriptorType::STORAGE_BUFFER, count),
                    (1, vk::DescriptorType::STORAGE_BUFFER, 1),
                ],
            );
            c.set_binding_flags(22, &[(0, flags), (1, flags & UAB)]);
            c.create_pipeline_layout(32, vec![22]);
            c.create_compute_pipeline(52, 40, "main", 32);
            c.allocate_sets(&[(82, 22)]);
            let write = |c: &mut Capture, ws: &[Write]| {
                for &(b, e, lo, hi) in ws {
                    c.write_descriptor(82, b, e, 10, lo, hi - lo);
                }
            };
            write(&mut c, before);
            c.bind_pipeline(70, vk::PipelineBindPoint::COMPUTE, 52);
            c.bind_sets(70, 6, false, 0, &[82], &[]);
            c.dispatch(70, 7, "vkCmdDispatch", None);
            write(&mut c, after);
            c.submit(100, "vkQueueSubmit", 1, &[batch(70)], 0);
            write(&mut c, between);
            c.submit(101, "vkQueueSubmit", 1, &[batch(70)], 0);
            let text = c.text();
            let lines: Vec<&str> = text
                .lines()
                .filter(|l| l.starts_with("dispatch") || l.starts_with("not-modelled"))
                .collect();
            assert_eq!(lines.len(), 2, "{name}: two submissions, two lines in\n{text}");
            for (k, (line, want)) in lines.iter().zip(want).enumerate() {
                assert!(
                    line.starts_with(want),
                    "{name}: submission {k}: `{line}`, not `{want}...`"
                );
            }
        }
    }

    /// A device ([`device`]) with set layout 22 of `layout`'s bindings,
    /// pipeline layout 32 over it, a shader module 41 whose `main` uses
    /// `bindings` (the descriptor arrays indexed with constants only at
    /// `elements`), compute pipeline 52 of it and set 82 of layout 22.
    fn pipeline_over(
        layout: Vec<(u32, vk::DescriptorType, u32)>,
        bindings: &[((u32, u32), Use)],
        elements: BTreeMap<(u32, u32), u64>,
    ) -> Capture {
        let mut c = device();
        c.create_set_layout(22, layout);
        c.create_pipeline_layout(32, vec![22]);
        let mut entry_points = BTreeMap::new();
        entry_points.insert(
            "main".to_string(),
            EntryPoint {
                bindings: bindings.iter().copied().collect(),
                elements,
            },
        );
        c.create_shader(
            41,
            Ok(Reflection {
                entry_points,
                exact: true,
            }),
        );
        c.create_compute_pipeline(52, 41, "main", 32);
        c.allocate_sets(&[(82, 22)]);
        c
    }

    /// The dispatch (or `not-modelled`) line a dispatch on command buffer
    /// 70, bound as it is, writes when submitted.
    fn dispatch_line(mut c: Capture, case: &str) -> String {
        c.dispatch(70, 7, "vkCmdDispatch", None);
        c.submit(100, "vkQueueSubmit", 1, &[batch(70)], 0);
        let text = c.text();
        text.lines()
            .find(|l| l.starts_with("dispatch") || l.starts_with("not-modelled"))
            .unwrap_or_else(|| panic!("{case}: no dispatch in\n{text}"))
            .to_string()
    }

    /// review36: a write, copy or push whose count runs past its binding
    /// updates the next binding from element 0 ("the remainder will be
    /// used to update the subsequent binding"; a binding of count 0 is
    /// skipped). Before, the descriptor was kept under the first binding:
    /// the dispatch of the next binding was `not-modelled` ("never
    /// written"), or named the buffer that binding held before. Layout:
    /// binding 0 (count 3), binding 1 (count 0), binding 2, binding 3; the
    /// pipeline reads binding 2 and writes binding 3. Cases: how the
    /// descriptors are written, the dispatch line.
    #[test]
    fn descriptors_past_a_binding_update_the_next_one() {
        type Setup = fn(&mut Capture);
        let cases: &[(&str, Setup, &str)] = &[
            (
                "one write of two from binding 2 (binding 2, then 3)",
                |c| {
                    c.write_descriptor(82, 0, 0, 10, 0, 64);
                    c.write_descriptors(82, &Writes::buffers(&[(2, 0, 10, 256, 64), (2, 1, 10, 512, 64)]));
                },
                "dispatch s1_main read b0[256..320] write b0[512..576]",
            ),
            (
                "one write of five from binding 0 element 0 (0:0..3, skips 1, then 2 and 3)",
                |c| {
                    c.write_descriptors(
                        82,
                        &Writes::buffers(&[
                            (0, 0, 10, 0, 64),
                            (0, 1, 10, 64, 64),
                            (0, 2, 10, 128, 64),
                            (0, 3, 10, 256, 64),
                            (0, 4, 10, 512, 64),
                        ]),
                    );
                },
                "dispatch s1_main read b0[256..320] write b0[512..576]",
            ),
            (
                "binding 3 written first, then overwritten by a write running on",
                |c| {
                    c.write_descriptor(82, 0, 0, 10, 0, 64);
                    c.write_descriptor(82, 3, 0, 10, 0, 64);
                    c.write_descriptors(82, &Writes::buffers(&[(2, 0, 10, 256, 64), (2, 1, 10, 512, 64)]));
                },
                "dispatch s1_main read b0[256..320] write b0[512..576]",
            ),
            (
                "a copy of two from another set's binding 2 into binding 2",
                |c| {
                    c.allocate_sets(&[(83, 22)]);
                    c.write_descriptor(82, 0, 0, 10, 0, 64);
                    c.write_descriptor(83, 2, 0, 10, 256, 64);
                    c.write_descriptor(83, 3, 0, 10, 512, 64);
                    c.copy_descriptors(83, 2, 0, 82, 2, 0, 2);
                },
                "dispatch s1_main read b0[256..320] write b0[512..576]",
            ),
            (
                "pushed: two from binding 2 (vkCmdPushDescriptorSetKHR, below)",
                |_| {},
                "dispatch s1_main read b0[256..320] write b0[512..576]",
            ),
        ];
        for &(name, setup, want) in cases {
            let mut c = pipeline_over(
                vec![
                    (0, vk::DescriptorType::STORAGE_BUFFER, 3),
                    (1, vk::DescriptorType::STORAGE_BUFFER, 0),
                    (2, vk::DescriptorType::STORAGE_BUFFER, 1),
                    (3, vk::DescriptorType::STORAGE_BUFFER, 1),
                ],
                &[((0, 2), READ), ((0, 3), WRITE)],
                BTreeMap::new(),
            );
            setup(&mut c);
            c.bind_pipeline(70, vk::PipelineBindPoint::COMPUTE, 52);
            if name.starts_with("pushed") {
                c.push_descriptors(
                    70,
                    6,
                    "vkCmdPushDescriptorSetKHR",
                    false,
                    32,
                    0,
                    &Writes::buffers(&[(2, 0, 10, 256, 64), (2, 1, 10, 512, 64)]),
                );
            } else {
                c.bind_sets(70, 6, false, 0, &[82], &[]);
            }
            let line = dispatch_line(c, name);
            assert!(line.starts_with(want), "{name}: `{line}`, not `{want}...`");
        }
    }

    /// A descriptor array the shader indexes with constants only (issue
    /// 23, bindless): the dispatch accesses the elements reflection names,
    /// not every written one; an array indexed at run time keeps every
    /// written element (which one the shader picks is data). Cases: the
    /// elements reflection gives binding 0 (`None`: any), the dispatch
    /// line.
    #[test]
    fn a_constant_indexed_array_accesses_the_elements_it_names() {
        let cases: &[(Option<u64>, &str)] = &[
            (
                Some(0b100),
                "dispatch s1_main read b0[512..576] write b0[1024..1088]",
            ),
            (
                Some(0b101),
                "dispatch s1_main read b0[0..64] read b0[512..576] write b0[1024..1088]",
            ),
            (
                None,
                "dispatch s1_main read b0[0..64] read b0[256..320] read b0[512..576] write b0[1024..1088]",
            ),
        ];
        for &(elements, want) in cases {
            let mut c = pipeline_over(
                vec![
                    (0, vk::DescriptorType::STORAGE_BUFFER, 3),
                    (1, vk::DescriptorType::STORAGE_BUFFER, 1),
                ],
                &[((0, 0), READ), ((0, 1), WRITE)],
                elements.map(|m| ((0, 0), m)).into_iter().collect(),
            );
            for (e, lo) in [(0, 0), (1, 256), (2, 512)] {
                c.write_descriptor(82, 0, e, 10, lo, 64);
            }
            c.write_descriptor(82, 1, 0, 10, 1024, 64);
            c.bind_pipeline(70, vk::PipelineBindPoint::COMPUTE, 52);
            c.bind_sets(70, 6, false, 0, &[82], &[]);
            let line = dispatch_line(c, &format!("{elements:?}"));
            assert!(line.starts_with(want), "{elements:?}: `{line}`, not `{want}...`");
        }
    }

    /// A partially bound array may keep descriptors of resources destroyed
    /// since (review32): such an element is not used by a valid program,
    /// so it adds no binding, whether the resource went before the
    /// recording (made at once) or after it (UPDATE_AFTER_BIND, made at
    /// the submission); before, it dropped the whole command (an image or
    /// a buffer view) or kept a read of dead bytes that raced with the
    /// memory's next buffer (a buffer). Without PARTIALLY_BOUND the
    /// descriptor is kept as written, as before.
    #[test]
    fn stale_elements_of_a_partially_bound_array_are_left_out() {
        use vk::DescriptorBindingFlags as F;
        const LIVE: &str = "dispatch s1_main write b0[1024..1088]";
        // (what element 1 of the array holds, the flags, destroyed after
        // recording, the dispatch line must start with).
        type Case<'a> = (&'a str, F, bool, String);
        let cases: &[Case] = &[
            (
                "a buffer",
                F::PARTIALLY_BOUND,
                false,
                format!("{LIVE} read b0[0..256]  #"),
            ),
            (
                "a buffer",
                F::PARTIALLY_BOUND | F::UPDATE_AFTER_BIND,
                true,
                format!("{LIVE} read b0[0..256]  #"),
            ),
            (
                "a buffer view",
                F::PARTIALLY_BOUND,
                false,
                format!("{LIVE} sampled b0[0..256]  #"),
            ),
            (
                "a buffer view",
                F::PARTIALLY_BOUND | F::UPDATE_AFTER_BIND,
                true,
                format!("{LIVE} sampled b0[0..256]  #"),
            ),
            ("an image view", F::PARTIALLY_BOUND, false, format!("{LIVE}  #")),
            (
                "an image view",
                F::PARTIALLY_BOUND | F::UPDATE_AFTER_BIND,
                true,
                format!("{LIVE}  #"),
            ),
            (
                "an image",
                F::PARTIALLY_BOUND | F::UPDATE_AFTER_BIND,
                true,
                format!("{LIVE}  #"),
            ),
            (
                "a buffer view",
                F::empty(),
                false,
                "not-modelled vkCmdDispatch (set 0 binding 0: an unknown buffer view)".to_string(),
            ),
        ];
        for (what, flags, after, want) in cases {
            let mut c = device();
            c.create_buffer(11, 256, vk::SharingMode::CONCURRENT);
            c.bind_buffer(3, "vkBindBufferMemory", 11, 1, 2048);
            c.create_image(80, image_info(vk::Format::R32_UINT, [8, 8, 1]));
            c.bind_image(4, "vkBindImageMemory", 80, 1, 3072, 256);
            c.create_image_view(95, 80, [vk::ImageAspectFlags::COLOR.as_raw(), 0, 1, 0, 1]);
            c.create_buffer_view(91, 10, 0, 256);
            c.create_buffer_view(92, 11, 0, 256);
            // Binding 0: 4 uniform texel buffers; 1: a storage buffer
            // written; 2: 4 storage buffers; 3: 4 sampled images. The
            // shader uses binding 1 and the array of `what`.
            c.create_set_layout(
                21,
                vec![
                    (0, vk::DescriptorType::UNIFORM_TEXEL_BUFFER, 4),
                    (1, vk::DescriptorType::STORAGE_BUFFER, 1),
                    (2, vk::DescriptorType::STORAGE_BUFFER, 4),
                    (3, vk::DescriptorType::SAMPLED_IMAGE, 4),
                ],
            );
            let uab = *flags & F::UPDATE_AFTER_BIND;
            c.set_binding_flags(21, &[(0, *flags), (1, uab), (2, *flags), (3, *flags)]);
            c.create_pipeline_layout(31, vec![21]);
            let mut buffers = BTreeMap::new();
            buffers.insert((0, 1), WRITE);
            if *what == "a buffer" {
                buffers.insert((0, 2), READ);
            }
            let mut entry_points = BTreeMap::new();
            entry_points.insert(
                "main".to_string(),
                EntryPoint {
                    bindings: buffers,
                    elements: BTreeMap::new(),
                },
            );
            c.create_shader(
                41,
                Ok(Reflection {
                    entry_points,
                    exact: true,
                }),
            );
            let mut resources = BTreeMap::new();
            let resource = |kind, used| Resource {
                kind,
                used,
                exact: true,
                elements: None,
            };
            match *what {
                "a buffer view" => resources.insert((0, 0), resource(Kind::TexelBuffer, READ)),
                "an image view" | "an image" => resources.insert((0, 3), resource(Kind::Image, READ)),
                _ => None,
            };
            main_resources(&mut c, 41, resources);
            c.create_compute_pipeline(51, 41, "main", 31);
            c.allocate_sets(&[(81, 21)]);
            c.write_descriptor(81, 1, 0, 10, 1024, 64);
            c.write_texel_descriptor(81, 0, 0, 91);
            c.write_texel_descriptor(81, 0, 1, 92);
            c.write_descriptor(81, 2, 0, 10, 0, 256);
            c.write_descriptor(81, 2, 1, 11, 0, 256);
            c.write_image_descriptor(81, 3, 1, 95, vk::ImageLayout::GENERAL);
            let destroy = |c: &mut Capture| match *what {
                "a buffer" => c.destroy_buffer(11),
                "an image view" => c.destroy_image_view(95),
                "an image" => c.destroy_image(80),
                _ => c.destroy_buffer_view(92),
            };
            if !after {
                destroy(&mut c);
            }
            c.bind_pipeline(70, vk::PipelineBindPoint::COMPUTE, 51);
            c.bind_sets(70, 6, false, 0, &[81], &[]);
            c.dispatch(70, 7, "vkCmdDispatch", None);
            if *after {
                destroy(&mut c);
            }
            let text = submitted(c);
            let line = text
                .lines()
                .find(|l| l.starts_with("dispatch") || l.starts_with("not-modelled"))
                .unwrap_or_default()
                .to_string();
            assert!(
                line.starts_with(want.as_str()),
                "{what} {flags:?}: `{line}`, not `{want}...`\n{text}"
            );
        }
    }

    /// A bindless binding of 2^20 elements with one written, used by 50
    /// deferred dispatches submitted 10 times: its written elements are
    /// walked, not its count (review32: 1.8 s before, element by element).
    #[test]
    fn a_large_update_after_bind_array_costs_its_written_elements() {
        use vk::DescriptorBindingFlags as F;
        let mut c = device();
        c.create_set_layout(
            22,
            vec![
                (0, vk::DescriptorType::STORAGE_BUFFER, 1 << 20),
                (1, vk::DescriptorType::STORAGE_BUFFER, 1),
            ],
        );
        c.set_binding_flags(
            22,
            &[
                (0, F::UPDATE_AFTER_BIND | F::PARTIALLY_BOUND),
                (1, F::UPDATE_AFTER_BIND),
            ],
        );
        c.create_pipeline_layout(32, vec![22]);
        c.create_compute_pipeline(52, 40, "main", 32);
        c.allocate_sets(&[(82, 22)]);
        c.write_descriptor(82, 0, 77_777, 10, 0, 64);
        c.write_descriptor(82, 1, 0, 10, 1024, 64);
        c.bind_pipeline(70, vk::PipelineBindPoint::COMPUTE, 52);
        c.bind_sets(70, 6, false, 0, &[82], &[]);
        let t = std::time::Instant::now();
        for k in 0..50 {
            c.dispatch(70, 7 + k, "vkCmdDispatch", None);
        }
        for s in 0..10 {
            c.submit(100 + s, "vkQueueSubmit", 1, &[batch(70)], 0);
        }
        let took = t.elapsed();
        let text = c.text();
        let n = text
            .lines()
            .filter(|l| l.starts_with("dispatch s0_main read b0[0..64] write b0[1024..1088]"))
            .count();
        assert_eq!(n, 500, "50 dispatches x 10 submissions\n{text}");
        assert!(
            took < std::time::Duration::from_millis(500),
            "{took:?} for 500 dispatch lines"
        );
    }

    /// `vkCmdCopyQueryPoolResults` is a `copy` from the pool's results
    /// object into each query's bytes of the buffer: the result size from
    /// the query type, `VK_QUERY_RESULT_64_BIT` and an availability or
    /// status word; packed results in one copy, strided ones one per query;
    /// what the layer cannot size is `not-modelled` with the reason.
    #[test]
    fn query_results_are_copies_into_the_bytes_they_fill() {
        use vk::QueryResultFlags as Q;
        // (name, query type, pipeline statistics, first, count, offset,
        // stride, flags, the lines the command makes).
        type Case<'a> = (&'a str, vk::QueryType, u32, u32, u32, u64, u64, Q, &'a [&'a str]);
        let cases: &[Case] = &[
            (
                "two packed 64-bit timestamps",
                vk::QueryType::TIMESTAMP, 0, 0, 2, 0, 8, Q::TYPE_64,
                &["copy qp0[0..16] -> b0[0..16]  # vkCmdCopyQueryPoolResults #7 in cb0"],
            ),
            (
                "32-bit with availability, packed, from query 1",
                vk::QueryType::OCCLUSION, 0, 1, 2, 64, 8, Q::WITH_AVAILABILITY,
                &["copy qp0[8..24] -> b0[64..80]"],
            ),
            (
                "strided: one copy per query",
                vk::QueryType::TIMESTAMP, 0, 0, 3, 256, 64, Q::TYPE_64,
                &[
                    "copy qp0[0..8] -> b0[256..264]  # vkCmdCopyQueryPoolResults #7 query 0 in cb0",
                    "copy qp0[8..16] -> b0[320..328]  # vkCmdCopyQueryPoolResults #7 query 1 in cb0",
                    "copy qp0[16..24] -> b0[384..392]  # vkCmdCopyQueryPoolResults #7 query 2 in cb0",
                ],
            ),
            (
                "pipeline statistics: one value per bit",
                vk::QueryType::PIPELINE_STATISTICS, 0b101, 0, 1, 0, 0, Q::TYPE_64,
                &["copy qp0[0..16] -> b0[0..16]"],
            ),
            (
                "a query type the layer does not size",
                vk::QueryType::PERFORMANCE_QUERY_KHR, 0, 0, 1, 0, 8, Q::empty(),
                &["not-modelled vkCmdCopyQueryPoolResults (a query type whose results' size the layer does not know)"],
            ),
            (
                "past the pool's queries",
                vk::QueryType::TIMESTAMP, 0, 3, 2, 0, 8, Q::TYPE_64,
                &["not-modelled vkCmdCopyQueryPoolResults (queries 3..5 of a pool of 4)"],
            ),
            (
                "past the buffer's end",
                vk::QueryType::TIMESTAMP, 0, 0, 2, 4090, 8, Q::TYPE_64,
                &["not-modelled vkCmdCopyQueryPoolResults (results past the buffer's end)"],
            ),
        ];
        for &(name, ty, stats, first, count, offset, stride, flags, want) in cases {
            let mut c = device();
            c.create_query_pool(3, 90, ty, 4, vk::QueryPipelineStatisticFlags::from_raw(stats));
            c.copy_query_results(
                70,
                7,
                "vkCmdCopyQueryPoolResults",
                90,
                first,
                count,
                10,
                offset,
                stride,
                flags,
            );
            let text = submitted(c);
            let got: Vec<&str> = text
                .lines()
                .filter(|l| l.starts_with("copy") || l.starts_with("not-modelled"))
                .collect();
            assert_eq!(got.len(), want.len(), "{name}:\n{text}");
            for (g, w) in got.iter().zip(want.iter()) {
                assert!(g.starts_with(w), "{name}: `{g}`, not `{w}...`");
            }
            let h = hazards(&text);
            assert!(h.is_empty(), "{name}: {h:?}");
        }
    }

    /// Texel buffers in a dispatch, through their buffer views: a uniform
    /// texel buffer is `sampled`, a storage one `read`/`write`/`rw` by
    /// reflection, each over its view's range; a storage image through its
    /// view's subresources; the same whether written to a set or pushed.
    #[test]
    fn texel_buffers_and_images_in_a_dispatch_however_written() {
        // (how the descriptors were written) -> the same dispatch line: a
        // texel buffer or image descriptor pushed (or decoded from a
        // template, which `layer.rs` turns into the same `Writes`) is kept
        // exactly as `vkUpdateDescriptorSets` keeps it (issue 23).
        for how in ["vkUpdateDescriptorSets", "vkCmdPushDescriptorSetKHR"] {
            let mut c = device();
            c.create_set_layout(
                21,
                vec![
                    (0, vk::DescriptorType::UNIFORM_TEXEL_BUFFER, 1),
                    (1, vk::DescriptorType::STORAGE_TEXEL_BUFFER, 1),
                    (2, vk::DescriptorType::STORAGE_IMAGE, 1),
                ],
            );
            c.create_pipeline_layout(31, vec![21]);
            c.create_shader(41, Ok(Reflection::default()));
            let resource = |kind, used| Resource {
                kind,
                used,
                exact: true,
                elements: None,
            };
            let mut bindings = BTreeMap::new();
            bindings.insert((0, 0), resource(Kind::TexelBuffer, READ));
            bindings.insert((0, 1), resource(Kind::TexelBuffer, WRITE));
            bindings.insert((0, 2), resource(Kind::Image, WRITE));
            main_resources(&mut c, 41, bindings);
            c.create_compute_pipeline(51, 41, "main", 31);
            c.create_image(80, image_info(vk::Format::R32_UINT, [16, 16, 1]));
            c.bind_image(3, "vkBindImageMemory", 80, 1, 2048, 1024);
            c.create_image_view(95, 80, [vk::ImageAspectFlags::COLOR.as_raw(), 0, 1, 0, 1]);
            c.create_buffer_view(91, 10, 0, 256);
            c.create_buffer_view(92, 10, 256, vk::WHOLE_SIZE);
            let writes = Writes {
                buffers: Vec::new(),
                images: vec![(2, 0, 95, vk::ImageLayout::GENERAL)],
                texels: vec![(0, 0, 91), (1, 0, 92)],
            };
            c.bind_pipeline(70, vk::PipelineBindPoint::COMPUTE, 51);
            if how == "vkUpdateDescriptorSets" {
                c.allocate_sets(&[(81, 21)]);
                c.write_descriptors(81, &writes);
                c.bind_sets(70, 6, false, 0, &[81], &[]);
            } else {
                c.push_descriptors(70, 6, how, false, 31, 0, &writes);
            }
            c.dispatch(70, 7, "vkCmdDispatch", None);
            let text = submitted(c);
            let want =
                "dispatch s1_main image-write i0 COLOR:0:0 sampled b0[0..256] write b0[256..4096]  # vkCmdDispatch #7";
            assert!(
                text.lines().any(|l| l.starts_with(want)),
                "{how}: no `{want}` in\n{text}"
            );
            assert!(
                !text.lines().any(|l| l.starts_with("not-modelled")),
                "{how}: {text}"
            );
        }
    }

    /// A 2D optimal exclusive image of one mip and one layer.
    fn image_info(format: vk::Format, extent: [u32; 3]) -> ImageInfo {
        ImageInfo {
            format,
            image_type: vk::ImageType::TYPE_2D,
            extent,
            mips: 1,
            layers: 1,
            tiling: vk::ImageTiling::OPTIMAL,
            exclusive: false,
            preinitialized: false,
        }
    }

    /// An image is declared exactly only where the model can hold it: a
    /// known format and type, notional bytes within its memory
    /// requirements and within the memory after its offset; otherwise
    /// coarsely, saying why.
    #[test]
    fn images_are_declared_exactly_where_the_model_holds_them() {
        let info = image_info(vk::Format::R32_UINT, [16, 16, 1]);
        let cases: Vec<(&str, ImageInfo, u64, u64, &str)> = vec![
            ("exact", info, 0, 1024, "image i0 R32_UINT 16x16 alias m0 0"),
            (
                "exact at an offset",
                info,
                3072,
                1024,
                "image i0 R32_UINT 16x16 alias m0 3072",
            ),
            (
                "requirements larger than notional: exact",
                info,
                0,
                2048,
                "image i0 R32_UINT 16x16 alias m0 0",
            ),
            (
                "notional larger than the requirements",
                info,
                0,
                512,
                "buffer i0 512 alias m0 0",
            ),
            (
                // The model takes a coarse alias past its memory's end
                // (its bytes are only compared), not an image's.
                "notional larger than the memory left",
                image_info(vk::Format::R32_UINT, [32, 16, 1]),
                3072,
                2048,
                "# i0 is VkImage 0x50 (vkBindImageMemory #3), 2048 bytes: an image is its memory range \
                 (its notional size 2048 is larger than the 1024 bytes of memory after its offset)",
            ),
            (
                "a format outside the table",
                image_info(vk::Format::R16_UINT, [16, 16, 1]),
                0,
                1024,
                "buffer i0 1024 alias m0 0",
            ),
            (
                "a 3D image keeps its depth",
                ImageInfo {
                    image_type: vk::ImageType::TYPE_3D,
                    ..image_info(vk::Format::R8_UNORM, [8, 8, 4])
                },
                0,
                256,
                "image i0 R8_UNORM 8x8x4 alias m0 0",
            ),
            (
                // A transition from PREINITIALIZED is then valid.
                "initialLayout PREINITIALIZED is kept",
                ImageInfo {
                    tiling: vk::ImageTiling::LINEAR,
                    preinitialized: true,
                    ..info
                },
                0,
                1024,
                "image i0 R32_UINT 16x16 linear initial PREINITIALIZED alias m0 0",
            ),
        ];
        for (name, info, offset, size, want) in cases {
            let mut c = device();
            c.create_image(80, info);
            c.bind_image(3, "vkBindImageMemory", 80, 1, offset, size);
            let text = submitted(c);
            assert!(
                text.lines().any(|l| l.starts_with(want)),
                "{name}: no `{want}` in\n{text}"
            );
        }
    }

    /// Host writes are compared in the windows the layer hands in (the
    /// guard's dirty pages), and bytes the device is writing are not
    /// reported as the host's.
    #[test]
    fn host_writes_in_windows() {
        let mut c = device();
        c.map_memory(1, 0, &[0u8; 4096]);
        let mut now = vec![0u8; 4096];
        now[100] = 1;
        now[3000] = 2;
        // Only the first page is compared: the write at 3000 is not seen.
        c.host_writes(5, "vkQueueSubmit", 1, &[(0, &now[..1024])]);
        let text = submitted(c);
        assert!(text.contains("host-write b0[100..101] 0"), "{text}");
        assert!(!text.contains("3000"), "{text}");
        // A byte a submitted dispatch writes, not yet waited for, is the
        // device's.
        let mut c = device();
        c.map_memory(1, 0, &[0u8; 4096]);
        c.fill_buffer(70, 6, 10, 0, 64, 7);
        c.submit(8, "vkQueueSubmit", 1, &[batch(70)], 0);
        let mut now = vec![0u8; 4096];
        now[8] = 7;
        now[200] = 1;
        c.host_writes(9, "vkQueueSubmit", 1, &[(0, &now)]);
        let text = submitted(c);
        assert!(text.contains("host-write b0[200..201] 0"), "{text}");
        assert!(!text.contains("host-write b0[8..9]"), "{text}");
    }

    /// Changed spans: exact to the byte, spans closer than 64 bytes merged,
    /// whatever the alignment of the changes in their 8-byte words.
    #[test]
    fn changed_spans_are_exact_and_merged_within_64_bytes() {
        /// Name, length, changed offsets, the spans.
        type Case<'a> = (&'a str, usize, &'a [usize], &'a [(usize, usize)]);
        let cases: &[Case] = &[
            ("none", 256, &[], &[]),
            ("one byte", 256, &[77], &[(77, 78)]),
            ("first and last", 256, &[0, 255], &[(0, 1), (255, 256)]),
            ("one block, apart", 256, &[65, 70, 127], &[(65, 128)]),
            ("across blocks, close", 256, &[60, 70], &[(60, 71)]),
            (
                "every 256th byte",
                1024,
                &[0, 256, 512, 768],
                &[(0, 1), (256, 257), (512, 513), (768, 769)],
            ),
            ("a short tail", 70, &[66, 69], &[(66, 70)]),
            ("shorter than a word", 5, &[1, 3], &[(1, 4)]),
            // Equal 4 KiB runs are skipped whole; spans still merge across
            // a run's end.
            ("across a 4 KiB run", 8192, &[4090, 4100], &[(4090, 4101)]),
            (
                "clean runs between",
                3 * 4096 + 10,
                &[5, 3 * 4096 + 9],
                &[(5, 6), (3 * 4096 + 9, 3 * 4096 + 10)],
            ),
            ("a run's last block", 4096, &[4095], &[(4095, 4096)]),
        ];
        for (name, len, at, want) in cases {
            let mut shadow = vec![0u8; *len];
            let mut now = shadow.clone();
            for &k in *at {
                now[k] = 1;
            }
            assert_eq!(take_changed_spans(&mut shadow, &now), *want, "{name}");
            // The shadow took the bytes compared: nothing changed since.
            assert_eq!(shadow, now, "{name}: the shadow");
            assert_eq!(take_changed_spans(&mut shadow, &now), [], "{name}: taken twice");
        }
    }

    /// The host-write lines of one submission, after a fill of
    /// `fill = (offset, size)` submitted (and waited for when `waited`), and
    /// host writes of one byte at each offset of `at`.
    fn host_write_lines(fill: Option<(u64, u64)>, waited: bool, at: &[usize]) -> Vec<String> {
        let mut c = device();
        c.map_memory(1, 0, &[0u8; 4096]);
        let mut mem = vec![0u8; 4096];
        if let Some((offset, size)) = fill {
            c.fill_buffer(70, 6, 10, offset, size, 0);
            c.submit(8, "vkQueueSubmit", 1, &[batch(70)], 0);
            c.reset_command_buffer(70);
            if waited {
                c.wait(9, "vkDeviceWaitIdle", WaitOn::Device, &[(1, &mem)]);
            }
        }
        for &k in at {
            mem[k] = 1;
        }
        c.host_writes(10, "vkQueueSubmit", 1, &[(0, &mem)]);
        c.submit(11, "vkQueueSubmit", 1, &[batch(70)], 0);
        c.text()
            .lines()
            .filter(|l| l.starts_with("host-write"))
            .map(|l| l.split("  # ").next().unwrap_or(l).to_string())
            .collect()
    }

    /// Spans of one buffer seen at one submission are one `host-write`
    /// unless a device access still running touches the bytes between
    /// them (only such an access can race with the host's write).
    #[test]
    fn host_write_spans_merge_where_no_running_device_access_lies_between() {
        type Case<'a> = (&'a str, Option<(u64, u64)>, bool, &'a [usize], &'a [&'a str]);
        let cases: &[Case] = &[
            (
                "no device work",
                None,
                false,
                &[100, 1000, 3000],
                &["host-write b0[100..3001] 0"],
            ),
            (
                "a running fill between them",
                Some((500, 64)),
                false,
                &[100, 1000],
                &["host-write b0[100..101] 0", "host-write b0[1000..1001] 0"],
            ),
            (
                "a running fill elsewhere",
                Some((2048, 64)),
                false,
                &[100, 1000],
                &["host-write b0[100..1001] 0"],
            ),
            (
                "a fill waited for",
                Some((500, 64)),
                true,
                &[100, 1000],
                &["host-write b0[100..1001] 0"],
            ),
            ("one span", None, false, &[7], &["host-write b0[7..8] 0"]),
        ];
        for (name, fill, waited, at, want) in cases {
            assert_eq!(host_write_lines(*fill, *waited, at), *want, "{name}");
        }
    }

    /// A buffer barrier from fills of `b0[offset..offset + size]` to host
    /// reads in command buffer `cb`.
    pub(super) fn fill_to_host(c: &mut Capture, cb: u64, seq: u64, offset: u64, size: u64) {
        let b = ResourceBarrier {
            masks: [
                vk::PipelineStageFlags2::CLEAR.as_raw(),
                vk::AccessFlags2::TRANSFER_WRITE.as_raw(),
                vk::PipelineStageFlags2::HOST.as_raw(),
                vk::AccessFlags2::HOST_READ.as_raw(),
            ],
            target: BarrierTarget::Buffer {
                buffer: 10,
                offset,
                size,
            },
            queue_families: None,
        };
        c.barrier(cb, seq, "vkCmdPipelineBarrier2", &[], &[b]);
    }

    /// A host write is written on the live buffers bound where it lands,
    /// not on destroyed ones bound there before (wgpu binds a new buffer
    /// at the same offset of recycled staging memory each frame: each
    /// write was repeated on every buffer ever bound there), and on the
    /// memory object where no live buffer is bound.
    #[test]
    fn host_writes_go_to_live_buffers() {
        let mut c = device();
        c.map_memory(1, 0, &[0u8; 4096]);
        c.create_buffer(11, 256, vk::SharingMode::EXCLUSIVE);
        c.bind_buffer(3, "vkBindBufferMemory", 11, 1, 1024);
        c.destroy_buffer(11);
        c.create_buffer(12, 256, vk::SharingMode::EXCLUSIVE);
        c.bind_buffer(4, "vkBindBufferMemory", 12, 1, 1024);
        c.destroy_buffer(10);
        let mut mem = vec![0u8; 4096];
        mem[1030] = 1;
        mem[3000] = 1;
        c.host_writes(5, "vkQueueSubmit", 1, &[(0, &mem)]);
        c.submit(5, "vkQueueSubmit", 1, &[batch(70)], 0);
        let text = c.text();
        let writes: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("host-write"))
            .map(|l| l.split("  #").next().unwrap_or(l))
            .collect();
        assert_eq!(
            writes,
            ["host-write m0[3000..3001] 0", "host-write b2[6..7] 0"],
            "{text}"
        );
    }

    /// The hazards `vksync check` finds in a capture's trace, as text: the
    /// fast checker's, or, for a program it leaves to the definitional
    /// semantics (a timeline wait that a later signal may satisfy too), the
    /// races that semantics finds (as `vksync check` does).
    fn hazards(text: &str) -> Vec<String> {
        let t = vksync::trace::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        match vksync::check(&t.program) {
            Ok(hazards) => hazards.iter().map(|h| format!("{h:?}")).collect(),
            Err(_) => vksync::spec::races(&t.program, vksync::Reading::MemoryModel)
                .unwrap_or_else(|e| panic!("{e}\n{text}"))
                .iter()
                .map(|r| format!("{r:?}"))
                .collect(),
        }
    }

    /// A wait's scope is what was submitted when it was called: a
    /// submission made while it waited (another thread's) stays the
    /// device's, so its bytes changing later are not host writes; a marker
    /// precedes it, and the wait is `host-wait mK 1` where it returned, so
    /// that the waiting thread's next fill of its bytes is ordered after
    /// its previous one (issue 27, two threads in `vkDeviceWaitIdle`: with
    /// no wait written, a false write-after-write).
    /// Debug names in the trace's name syntax, never a counter's name nor
    /// a keyword, unique: (given, in order; trace name).
    #[test]
    fn debug_names_are_sanitized_and_unique() {
        let cases = [
            ("src", "src"),
            ("src", "src.2"),
            ("src.2", "src.2.2"),
            ("my buffer!", "my_buffer_"),
            ("3d", "_3d"),
            ("", "_"),
            ("b3", "b3_"),
            ("cb0", "cb0_"),
            ("mk12", "mk12_"),
            ("wait", "wait_"),
            ("weights-0.f16", "weights-0.f16"),
        ];
        let mut c = Capture::new(PathBuf::from("unused.trace"), Vec::new());
        for (given, want) in cases {
            assert_eq!(c.unique_name(given), want, "{given:?}");
        }
    }

    /// A buffer named before it is bound is declared under its name; one
    /// named after keeps its counter name and gets a rename comment; a command
    /// buffer's debug name and its open labels end each command's comment.
    #[test]
    fn names_and_labels_in_the_trace() {
        let mut c = Capture::new(PathBuf::from("unused.trace"), Vec::new());
        c.allocate_memory(1, 1, 8192);
        c.create_buffer(10, 4096, vk::SharingMode::CONCURRENT);
        c.set_object_name(
            2,
            "vkSetDebugUtilsObjectNameEXT",
            vk::ObjectType::BUFFER,
            10,
            "weights",
        );
        c.bind_buffer(3, "vkBindBufferMemory", 10, 1, 0);
        c.create_buffer(11, 4096, vk::SharingMode::CONCURRENT);
        c.bind_buffer(4, "vkBindBufferMemory", 11, 1, 4096);
        c.set_object_name(
            5,
            "vkSetDebugUtilsObjectNameEXT",
            vk::ObjectType::BUFFER,
            11,
            "late",
        );
        c.allocate_command_buffers(60, &[70]);
        c.set_object_name(
            6,
            "vkSetDebugUtilsObjectNameEXT",
            vk::ObjectType::COMMAND_BUFFER,
            70,
            "frame cmd",
        );
        c.debug_label(70, 7, "vkCmdBeginDebugUtilsLabelEXT", Some("outer"), true);
        c.debug_label(70, 8, "vkCmdBeginDebugUtilsLabelEXT", Some("inner"), true);
        c.fill_buffer(70, 9, 10, 0, 64, 7);
        c.debug_label(70, 10, "vkCmdEndDebugUtilsLabelEXT", None, false);
        c.fill_buffer(70, 11, 11, 0, 64, 8);
        c.debug_label(70, 12, "vkCmdEndDebugUtilsLabelEXT", None, false);
        c.debug_label(70, 13, "vkCmdEndDebugUtilsLabelEXT", None, false);
        c.submit(14, "vkQueueSubmit", 1, &[batch(70)], 0);
        let text = c.text();
        for want in [
            "buffer weights 4096 alias m0 0",
            "buffer b0 4096 alias m0 4096",
            "# weights is VkBuffer 0xa, named `weights` by the application (bound at vkBindBufferMemory #3)",
            "# rename b0 -> late (named `late` by the application at vkSetDebugUtilsObjectNameEXT #5, after it was declared; `vksync capture` renames it throughout)",
            "# label `outer` begins (vkCmdBeginDebugUtilsLabelEXT #7 in frame_cmd)",
            "fill weights[0..64] 7  # vkCmdFillBuffer #9 in frame_cmd, label outer/inner",
            "# label `inner` ends (vkCmdEndDebugUtilsLabelEXT #10 in frame_cmd)",
            "fill b0[0..64] 8  # vkCmdFillBuffer #11 in frame_cmd, label outer",
            "# vkCmdEndDebugUtilsLabelEXT #13 in frame_cmd ends no open label",
        ] {
            assert!(text.lines().any(|l| l == want), "no line `{want}`:\n{text}");
        }
        vksync::trace::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    }

    /// Names given after declaration: (names given to buffer 10 before its
    /// bind, then after; the rename comments written, in order). The same
    /// name again, or an empty one, renames nothing; a second late name
    /// renames again (the last wins in `vksync capture`).
    #[test]
    fn late_names_are_rename_comments() {
        let cases: &[(&[&str], &[&str], &[&str])] = &[
            (&[], &["staging"], &["b0 -> staging"]),
            (&[], &["staging", "staging"], &["b0 -> staging"]),
            (&[], &["a", "b"], &["b0 -> a", "b0 -> b"]),
            (&[], &[""], &[]),
            (&["w"], &["w"], &[]),
            (&["w"], &["x y"], &["w -> x_y"]),
            (&[], &["b1"], &["b0 -> b1_"]),
            // A late name taken by another object's earlier one is made unique.
            (&[], &["other"], &["b0 -> other.2"]),
        ];
        for &(before, after, want) in cases {
            let mut c = Capture::new(PathBuf::from("unused.trace"), Vec::new());
            c.allocate_memory(1, 1, 8192);
            c.create_buffer(11, 64, vk::SharingMode::CONCURRENT);
            c.set_object_name(
                2,
                "vkSetDebugUtilsObjectNameEXT",
                vk::ObjectType::BUFFER,
                11,
                "other",
            );
            c.bind_buffer(3, "vkBindBufferMemory", 11, 1, 4096);
            c.create_buffer(10, 4096, vk::SharingMode::CONCURRENT);
            for name in before {
                c.set_object_name(
                    4,
                    "vkSetDebugUtilsObjectNameEXT",
                    vk::ObjectType::BUFFER,
                    10,
                    name,
                );
            }
            c.bind_buffer(5, "vkBindBufferMemory", 10, 1, 0);
            for name in after {
                c.set_object_name(
                    6,
                    "vkSetDebugUtilsObjectNameEXT",
                    vk::ObjectType::BUFFER,
                    10,
                    name,
                );
            }
            let text = c.text();
            let got: Vec<&str> = text
                .lines()
                .filter_map(|l| l.strip_prefix("# ")?.strip_prefix(RENAME))
                .map(|l| l.split(" (").next().unwrap_or(l))
                .collect();
            assert_eq!(got, want, "{before:?} then {after:?}:\n{text}");
        }
    }

    /// Which host reads a wait makes the capture assume, one case per rule
    /// (docs/capture.md, "Host reads"): memory b0 (4 KiB, memory object 1)
    /// filled with a barrier to HOST, submitted, waited for; then what the
    /// case does; the host reads the trace has.
    #[test]
    fn assumed_host_reads() {
        type Step = fn(&mut Capture);
        let none: Step = |_| {};
        let cases: &[(&str, bool, bool, Step, &[&str])] = &[
            // (what, mapped at the wait, coherent, after the wait, host reads)
            (
                "mapped coherent result",
                true,
                true,
                none,
                &["host-read b0[0..64]"],
            ),
            ("never mapped", false, true, none, &[]),
            (
                "mapped after the wait",
                false,
                true,
                |c| c.map_memory(1, 0, &[7u8; 4096]),
                &["host-read b0[0..64]"],
            ),
            (
                "mapped after the wait, other bytes",
                false,
                true,
                |c| c.map_memory(1, 1024, &[0u8; 1024]),
                &[],
            ),
            ("non-coherent, not invalidated", true, false, none, &[]),
            (
                "non-coherent, invalidated",
                true,
                false,
                |c| c.invalidate(20, "vkInvalidateMappedMemoryRanges", 1, 0, 4096),
                &["host-read b0[0..64]"],
            ),
            (
                "non-coherent, other bytes invalidated",
                true,
                false,
                |c| c.invalidate(20, "vkInvalidateMappedMemoryRanges", 1, 1024, 2048),
                &[],
            ),
            (
                "coherent, invalidated: read there",
                true,
                true,
                |c| c.invalidate(20, "vkInvalidateMappedMemoryRanges", 1, 0, u64::MAX),
                &["host-read b0[0..64]"],
            ),
            (
                "consumed by the device next: an intermediate",
                true,
                true,
                |c| {
                    c.reset_command_buffer(70);
                    c.copy_buffer(
                        70,
                        21,
                        "vkCmdCopyBuffer",
                        10,
                        10,
                        &[vk::BufferCopy {
                            src_offset: 0,
                            dst_offset: 2048,
                            size: 64,
                        }],
                    );
                    c.submit(22, "vkQueueSubmit", 1, &[batch(70)], 0);
                },
                &[],
            ),
        ];
        for &(what, mapped, coherent, after, want) in cases {
            let mut c = device();
            if !coherent {
                c.set_non_coherent(1);
            }
            if mapped {
                c.map_memory(1, 0, &[0u8; 4096]);
            }
            c.fill_buffer(70, 6, 10, 0, 64, 7);
            fill_to_host(&mut c, 70, 6, 0, 64);
            c.submit(7, "vkQueueSubmit", 1, &[batch(70)], 0);
            let mut mem = vec![0u8; 4096];
            mem[..64].fill(7);
            let shown: &[(u64, &[u8])] = if mapped { &[(1, &mem)] } else { &[] };
            c.wait(8, "vkDeviceWaitIdle", WaitOn::Device, shown);
            after(&mut c);
            assert_eq!(host_reads(&c, what), want, "{what}:\n{}", c.text());
        }
    }

    /// The `host-read` lines of `c`'s trace (comments left out), which
    /// must parse.
    pub(super) fn host_reads(c: &Capture, what: &str) -> Vec<String> {
        let text = c.text();
        vksync::trace::parse(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        text.lines()
            .filter(|l| l.starts_with("host-read"))
            .map(|l| l.split("  #").next().unwrap_or(l).to_string())
            .collect()
    }

    /// The host cannot read an optimal-tiled image through a mapping (its
    /// texel layout is the implementation's), so a device write of one is
    /// no candidate for an assumed host read; a linear one's is.
    #[test]
    fn no_host_read_is_assumed_of_an_optimal_image() {
        let color = [vk::ImageAspectFlags::COLOR.as_raw(), 0, 1, 0, 1];
        for (tiling, want) in [
            (vk::ImageTiling::OPTIMAL, &[][..]),
            // A linear image's bytes, named by its memory object (the trace
            // names an image's subresources, not its bytes).
            (vk::ImageTiling::LINEAR, &["host-read m0[2048..3072]"][..]),
        ] {
            let mut c = device();
            c.map_memory(1, 0, &[0u8; 4096]);
            let info = ImageInfo {
                tiling,
                ..image_info(vk::Format::R32_UINT, [16, 16, 1])
            };
            c.create_image(80, info);
            c.bind_image(3, "vkBindImageMemory", 80, 1, 2048, 1024);
            c.clear_image(
                70,
                7,
                "vkCmdClearColorImage",
                false,
                (80, vk::ImageLayout::GENERAL),
                &[color],
            );
            c.submit(8, "vkQueueSubmit", 1, &[batch(70)], 0);
            c.wait(9, "vkDeviceWaitIdle", WaitOn::Device, &[(1, &[0u8; 4096])]);
            let what = format!("{tiling:?}");
            assert_eq!(host_reads(&c, &what), want, "{what}:\n{}", c.text());
        }
    }

    #[test]
    fn a_wait_covers_what_was_submitted_when_it_was_called() {
        let mut c = device();
        c.map_memory(1, 0, &[0u8; 4096]);
        c.allocate_command_buffers(60, &[71]);
        c.fill_buffer(70, 6, 10, 0, 64, 7);
        fill_to_host(&mut c, 70, 6, 0, 64);
        c.submit(7, "vkQueueSubmit", 1, &[batch(70)], 0);
        let token = c.begin_wait(WaitOn::Device);
        // Another thread submits a fill of b0[1024..1088] during the wait.
        c.fill_buffer(71, 8, 10, 1024, 64, 9);
        fill_to_host(&mut c, 71, 8, 1024, 64);
        c.submit(9, "vkQueueSubmit", 1, &[batch(71)], 0);
        let mut mem = vec![0u8; 4096];
        mem[..64].fill(7);
        let scope = c.end_wait(token);
        c.wait_in_scope(10, "vkDeviceWaitIdle", &scope, &[(1, &mem)]);
        // The second fill lands after the wait returned.
        mem[1024..1088].fill(9);
        c.host_writes(11, "vkQueueSubmit", 1, &[(0, &mem)]);
        c.reset_command_buffer(70);
        c.fill_buffer(70, 12, 10, 0, 64, 8);
        c.submit(13, "vkQueueSubmit", 1, &[batch(70)], 0);
        let text = c.text();
        assert!(!text.contains("host-write"), "{text}");
        assert!(!text.lines().any(|l| l.starts_with("wait")), "{text}");
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split("  #").next().unwrap_or(l))
            .collect();
        let at = |want: &str| {
            lines
                .iter()
                .position(|l| *l == want)
                .unwrap_or_else(|| panic!("no `{want}`:\n{text}"))
        };
        // The marker comes between the two threads' submissions, the wait
        // after the other thread's, before the next fill.
        assert!(at("fill b0[0..64] 7") < at("submit signal mk0:1"), "{text}");
        assert!(at("submit signal mk0:1") < at("fill b0[1024..1088] 9"), "{text}");
        assert!(at("fill b0[1024..1088] 9") < at("host-wait mk0 1"), "{text}");
        assert!(at("host-wait mk0 1") < at("fill b0[0..64] 8"), "{text}");
        assert_eq!(hazards(&text), Vec::<String>::new(), "{text}");
    }

    /// With no wait in flight and no fence, a submission gets no marker.
    #[test]
    fn no_marker_without_a_wait_in_flight() {
        let mut c = device();
        c.allocate_command_buffers(60, &[71]);
        c.fill_buffer(70, 6, 10, 0, 64, 7);
        c.submit(7, "vkQueueSubmit", 1, &[batch(70)], 0);
        c.fill_buffer(71, 8, 10, 1024, 64, 9);
        c.submit(9, "vkQueueSubmit", 1, &[batch(71)], 0);
        c.wait(10, "vkDeviceWaitIdle", WaitOn::Device, &[]);
        let text = c.text();
        assert!(!text.contains("mk0"), "{text}");
        assert!(
            text.lines()
                .any(|l| l.starts_with("wait  # vkDeviceWaitIdle #10")),
            "{text}"
        );
    }

    /// Two threads, each waiting for its own fence (valid: the queue is
    /// used under a lock): a thread's fence covers its submission, which
    /// is not the latest when the other thread submitted after it. The
    /// other thread's submission gets a marker before it (a fence not yet
    /// waited for), and the fence wait is `host-wait mK 1`. One thread
    /// submitting again before it waits gets none.
    #[test]
    fn a_fence_of_an_older_submission_is_waited_for_through_its_marker() {
        let mut c = device();
        c.allocate_command_buffers(60, &[71]);
        c.fill_buffer(70, 6, 10, 0, 64, 7);
        c.submit(7, "vkQueueSubmit", 1, &[batch(70)], 500);
        c.fill_buffer(71, 8, 10, 1024, 64, 9);
        std::thread::scope(|s| {
            s.spawn(|| c.submit(9, "vkQueueSubmit", 1, &[batch(71)], 501));
        });
        c.wait(10, "vkWaitForFences", WaitOn::Fences(&[500]), &[]);
        c.reset_command_buffer(70);
        c.fill_buffer(70, 11, 10, 0, 64, 8);
        c.submit(12, "vkQueueSubmit", 1, &[batch(70)], 500);
        std::thread::scope(|s| {
            s.spawn(|| c.wait(13, "vkWaitForFences", WaitOn::Fences(&[501]), &[]));
        });
        c.reset_command_buffer(71);
        c.fill_buffer(71, 14, 10, 1024, 64, 10);
        std::thread::scope(|s| {
            s.spawn(|| c.submit(15, "vkQueueSubmit", 1, &[batch(71)], 501));
        });
        // One thread submitting twice before it waits: no marker between
        // (mk3 follows the other thread's fenced submission).
        c.reset_command_buffer(70);
        c.fill_buffer(70, 16, 10, 2048, 64, 1);
        c.submit(17, "vkQueueSubmit", 1, &[batch(70)], 502);
        c.reset_command_buffer(70);
        c.fill_buffer(70, 18, 10, 3072, 64, 2);
        c.submit(19, "vkQueueSubmit", 1, &[batch(70)], 503);
        let text = c.text();
        assert!(
            text.contains("mk3:1  # marker before vkQueueSubmit #17"),
            "{text}"
        );
        assert!(!text.contains("mk4"), "{text}");
        assert!(
            text.contains("\nsubmit signal mk0:1  # marker before vkQueueSubmit #9"),
            "{text}"
        );
        assert!(
            text.contains("\nhost-wait mk0 1  # vkWaitForFences #10"),
            "{text}"
        );
        assert!(
            text.contains("\nhost-wait mk1 1  # vkWaitForFences #13"),
            "{text}"
        );
        assert_eq!(hazards(&text), Vec::<String>::new(), "{text}");
    }

    /// Timeline host waits: `vkWaitSemaphores` and polls of the counter
    /// write a `host-wait` only when they prove a value the trace does not
    /// know yet; what the signalling submission wrote is then the host's
    /// to read (assumed, `host-read`), and the host's later writes there
    /// are seen (not taken for the device's). Without the barrier to HOST
    /// the read is a read-after-write hazard.
    #[test]
    fn timeline_host_waits_are_exact_and_do_not_flood() {
        for barrier in [true, false] {
            let mut c = device();
            c.map_memory(1, 0, &[0u8; 4096]);
            c.create_semaphore(800, Some(0));
            let mut mem = vec![0u8; 4096];
            for frame in 1..=3u64 {
                // The host writes the staging half, the device fills the
                // other half, the host reads it after the wait.
                mem[..64].fill(frame as u8);
                c.host_writes(10 * frame, "vkQueueSubmit", 1, &[(0, &mem)]);
                c.reset_command_buffer(70);
                c.fill_buffer(70, 10 * frame + 1, 10, 2048, 64, frame as u32);
                if barrier {
                    fill_to_host(&mut c, 70, 10 * frame + 2, 2048, 64);
                }
                let signal = Batch {
                    cbs: vec![70],
                    signals: vec![(800, frame, vk::PipelineStageFlags2::ALL_COMMANDS.as_raw())],
                    ..Batch::default()
                };
                c.submit(10 * frame + 3, "vkQueueSubmit", 1, &[signal], 0);
                mem[2048..2112].fill(frame as u8);
                // A poll that proves nothing new, the wait, polls after it.
                c.host_wait(
                    10 * frame + 4,
                    "vkGetSemaphoreCounterValue",
                    &[(800, frame - 1)],
                    &[(1, &mem)],
                );
                c.host_wait(10 * frame + 5, "vkWaitSemaphores", &[(800, frame)], &[(1, &mem)]);
                for k in 6..9 {
                    c.host_wait(
                        10 * frame + k,
                        "vkGetSemaphoreCounterValue",
                        &[(800, frame)],
                        &[(1, &mem)],
                    );
                }
            }
            let text = c.text();
            let count = |p: &str| text.lines().filter(|l| l.starts_with(p)).count();
            assert_eq!(count("host-wait s0 "), 3, "{text}");
            assert_eq!(count("host-write b0[0..64]"), 3, "{text}");
            assert_eq!(count("host-read b0[2048..2112]"), 3, "{text}");
            assert_eq!(count("not-modelled"), 0, "{text}");
            let found = hazards(&text);
            if barrier {
                assert_eq!(found, Vec::<String>::new(), "{text}");
            } else {
                // Each frame's host read races with the fills.
                assert!(found.iter().all(|h| h.contains("ReadAfterWrite")), "{found:?}");
                // The later command of each (both the fast checker's
                // `Hazard` and a `Race` print `command: N`).
                let reads: std::collections::BTreeSet<&str> = found
                    .iter()
                    .filter_map(|h| h.split(" command: ").nth(1)?.split(',').next())
                    .collect();
                assert_eq!(reads.len(), 3, "{text}\n{found:?}");
            }
        }
    }

    /// A finished capture writes nothing more; one finished at process
    /// exit says so once.
    #[test]
    fn a_trace_is_finished_once() {
        let dir = std::env::temp_dir().join(format!("vksync-capture-finish-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let path = dir.join("t.trace");
        let mut c = Capture::new(path.clone(), vec!["header".into()]);
        c.allocate_memory(1, 1, 4096);
        c.create_buffer(10, 4096, vk::SharingMode::CONCURRENT);
        c.bind_buffer(2, "vkBindBufferMemory", 10, 1, 0);
        c.allocate_command_buffers(60, &[70]);
        c.fill_buffer(70, 3, 10, 0, 64, 7);
        c.submit(4, "vkQueueSubmit", 1, &[batch(70)], 0);
        c.finish_at_exit().expect("written");
        c.finish_at_exit().expect("nothing to write");
        c.finish().expect("nothing to write");
        c.flush().expect("nothing to write");
        let text = std::fs::read_to_string(&path).expect("the trace");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(text.matches(" calls not modelled").count(), 1, "{text}");
        assert_eq!(
            text.matches("exited without vkDestroyDevice").count(),
            1,
            "{text}"
        );
        assert!(
            text.trim_end().ends_with("(see the `not-modelled` lines)"),
            "{text}"
        );
    }

    /// An application that keeps a frame in flight waits for the previous
    /// frame's fence, never for the latest submission: the device's writes
    /// stop counting as the device's once their own submission is waited
    /// for, and later host writes there are seen.
    #[test]
    fn pipelined_fences_keep_host_writes() {
        let mut c = device();
        c.map_memory(1, 0, &[0u8; 4096]);
        c.allocate_command_buffers(60, &[71]);
        let mut mem = vec![0u8; 4096];
        let mut seq = 100;
        for frame in 0..6u64 {
            let cb = if frame % 2 == 0 { 70 } else { 71 };
            c.reset_command_buffer(cb);
            if frame == 0 {
                // The device writes b0[0..64] once.
                c.fill_buffer(cb, seq, 10, 0, 64, 7);
                mem[..64].copy_from_slice(&[7, 0, 0, 0].repeat(16));
            } else {
                c.fill_buffer(cb, seq, 10, 1024, 64, 1);
            }
            if frame >= 2 {
                // Frame 0 was waited for at frame 1: the host writes b0[0].
                mem[0] = 100 + frame as u8;
                c.host_writes(seq + 1, "vkQueueSubmit", 1, &[(0, &mem)]);
            }
            c.submit(seq + 2, "vkQueueSubmit", 1, &[batch(cb)], 500 + frame);
            if frame > 0 {
                c.wait(
                    seq + 3,
                    "vkWaitForFences",
                    WaitOn::Fences(&[500 + frame - 1]),
                    &[(1, &mem)],
                );
            }
            seq += 10;
        }
        let text = c.text();
        assert_eq!(
            text.lines()
                .filter(|l| l.starts_with("host-write b0[0..1]"))
                .count(),
            4,
            "{text}"
        );
        // Only the last frame's write is still in flight.
        assert_eq!(c.dirty.len(), 1);
    }

    /// A flush that cannot write (a missing directory) is retried whole at
    /// the next one: the trace still parses to the whole program.
    #[test]
    fn a_failed_flush_is_retried_whole() {
        let dir = std::env::temp_dir().join(format!("vksync-capture-flush-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("t.trace");
        let mut c = Capture::new(path.clone(), vec!["header".into()]);
        c.allocate_memory(1, 1, 4096);
        c.create_buffer(10, 4096, vk::SharingMode::CONCURRENT);
        c.bind_buffer(2, "vkBindBufferMemory", 10, 1, 0);
        assert!(c.flush().is_err(), "the directory does not exist yet");
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        c.allocate_command_buffers(60, &[70]);
        c.fill_buffer(70, 3, 10, 0, 64, 7);
        c.submit(4, "vkQueueSubmit", 1, &[batch(70)], 0);
        c.flush().expect("written");
        c.finish().expect("written");
        let text = std::fs::read_to_string(&path).expect("the trace");
        let _ = std::fs::remove_dir_all(&dir);
        let parsed = vksync::trace::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(&parsed.program, c.program(), "{text}");
        assert_eq!(text.matches("# header").count(), 1, "{text}");
    }

    /// Two queues and a binary semaphore: the first queue's earlier
    /// submission stays a plain `submit`, both queues are declared when the
    /// second appears, the semaphore at its first use; the trace parses and
    /// the definitional semantics finds the race only without the wait.
    #[test]
    fn queues_and_semaphores() {
        let (a, b) = (900u64, 901u64);
        let copy = |c: &mut Capture| {
            c.allocate_command_buffers(60, &[71, 72]);
            c.fill_buffer(70, 5, 10, 0, 64, 7);
            c.copy_buffer(
                71,
                6,
                "vkCmdCopyBuffer",
                10,
                10,
                &[vk::BufferCopy {
                    src_offset: 0,
                    dst_offset: 64,
                    size: 64,
                }],
            );
        };
        let cases: &[(&str, bool, usize)] = &[("waited", true, 0), ("not waited", false, 1)];
        for &(name, waited, races) in cases {
            let mut c = device();
            c.queue_family(a, 0);
            c.queue_family(b, 1);
            c.create_semaphore(800, None);
            c.create_semaphore(801, Some(3));
            copy(&mut c);
            // An earlier submission on queue a, with nothing to do with it.
            c.allocate_command_buffers(60, &[73]);
            c.submit(4, "vkQueueSubmit", a, &[batch(73)], 0);
            let signal = Batch {
                cbs: vec![70],
                signals: vec![(800, 0, vk::PipelineStageFlags2::ALL_COMMANDS.as_raw())],
                ..Batch::default()
            };
            c.submit(7, "vkQueueSubmit", a, &[signal], 0);
            let wait = Batch {
                cbs: vec![71],
                waits: if waited {
                    vec![(800, 0, vk::PipelineStageFlags2::COPY.as_raw())]
                } else {
                    Vec::new()
                },
                ..Batch::default()
            };
            c.submit(8, "vkQueueSubmit", b, &[wait], 0);
            c.host_signal(9, "vkSignalSemaphore", 801, 5);
            c.wait(10, "vkQueueWaitIdle", WaitOn::Queue(b), &[]);
            let text = c.text();
            for line in ["queue q0", "queue q1 family 1", "semaphore s0"] {
                assert!(text.lines().any(|l| l == line), "{name}: no `{line}` in\n{text}");
            }
            let submits: Vec<&str> = text
                .lines()
                .filter(|l| l.starts_with("submit"))
                .map(|l| l.split("  #").next().unwrap_or(l))
                .collect();
            let second = if waited {
                "submit q1 wait s0@COPY"
            } else {
                "submit q1"
            };
            // (`text` prints the whole program once: the first submit names
            // its queue; a trace file appended to before the second queue
            // appeared has a plain `submit` there, which means the same.)
            assert_eq!(
                submits,
                ["submit q0", "submit q0 signal s0", second],
                "{name}:\n{text}"
            );
            assert!(text.contains("host-signal s1 5"), "{name}:\n{text}");
            assert!(text.lines().any(|l| l.starts_with("wait q1")), "{name}:\n{text}");
            let t = vksync::trace::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
            let found = vksync::spec::races(&t.program, vksync::Reading::MemoryModel).expect("valid");
            assert_eq!(found.len(), races, "{name}: {found:?}\n{text}");
        }
    }

    /// A buffer filled on a queue of family 0 and copied from on a queue of
    /// family 1, after a semaphore: with a release/acquire pair on an
    /// exclusive buffer the barriers are the model's (`ownership 0->1`) and
    /// neither checker finds anything; without it, the read is one
    /// `ReadWithoutTransfer`; on a concurrent buffer the transfer is invalid
    /// and stays not modelled (and there is nothing to check).
    #[test]
    fn buffer_ownership_transfers() {
        let (a, b) = (900u64, 901u64);
        let all = vk::PipelineStageFlags2::ALL_COMMANDS.as_raw();
        let transfer = |masks| ResourceBarrier {
            masks,
            target: BarrierTarget::Buffer {
                buffer: 10,
                offset: 0,
                size: vk::WHOLE_SIZE,
            },
            queue_families: queue_families(0, 1),
        };
        // (`vkCmdFillBuffer` is a clear: `TRANSFER` covers it.)
        let release = transfer([
            vk::PipelineStageFlags2::TRANSFER.as_raw(),
            vk::AccessFlags2::TRANSFER_WRITE.as_raw(),
            0,
            0,
        ]);
        let acquire = transfer([
            0,
            0,
            vk::PipelineStageFlags2::COPY.as_raw(),
            vk::AccessFlags2::TRANSFER_READ.as_raw(),
        ]);
        let run = |sharing, transfers: bool| {
            let mut c = Capture::new(PathBuf::from("unused.trace"), Vec::new());
            c.allocate_memory(1, 1, 4096);
            c.create_buffer(10, 256, sharing);
            c.bind_buffer(2, "vkBindBufferMemory", 10, 1, 0);
            c.create_buffer(11, 256, vk::SharingMode::CONCURRENT);
            c.bind_buffer(3, "vkBindBufferMemory", 11, 1, 256);
            c.queue_family(a, 0);
            c.queue_family(b, 1);
            c.create_semaphore(800, None);
            c.allocate_command_buffers(60, &[70, 71]);
            c.fill_buffer(70, 4, 10, 0, vk::WHOLE_SIZE, 7);
            if transfers {
                c.barrier(70, 5, "vkCmdPipelineBarrier2", &[], &[release]);
                c.barrier(71, 6, "vkCmdPipelineBarrier2", &[], &[acquire]);
            }
            c.copy_buffer(
                71,
                7,
                "vkCmdCopyBuffer",
                10,
                11,
                &[vk::BufferCopy {
                    src_offset: 0,
                    dst_offset: 0,
                    size: 256,
                }],
            );
            let signal = Batch {
                cbs: vec![70],
                signals: vec![(800, 0, all)],
                ..Batch::default()
            };
            c.submit(8, "vkQueueSubmit", a, &[signal], 0);
            let wait = Batch {
                cbs: vec![71],
                waits: vec![(800, 0, all)],
                ..Batch::default()
            };
            c.submit(9, "vkQueueSubmit", b, &[wait], 0);
            let text = c.text();
            let lines: Vec<String> = text
                .lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .map(|l| l.split("  #").next().unwrap_or(l).to_string())
                .collect();
            let t = vksync::trace::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let hazards = vksync::check(&t.program).expect("valid");
            let issues = vksync::check_ownership(&t.program).expect("valid");
            (lines, text, hazards, issues)
        };

        let (lines, text, hazards, issues) = run(vk::SharingMode::EXCLUSIVE, true);
        assert_eq!(
            lines,
            [
                "queue q0",
                "queue q1 family 1",
                "semaphore s0",
                "buffer m0 4096",
                "buffer b0 256 alias m0 0 exclusive",
                "buffer b1 256 alias m0 256",
                "fill b0[0..256] 7",
                "barrier ALL_TRANSFER:TRANSFER_WRITE -> NONE:NONE b0[0..256] ownership 0->1",
                "submit q0 signal s0",
                "barrier NONE:NONE -> COPY:TRANSFER_READ b0[0..256] ownership 0->1",
                "copy b0[0..256] -> b1[0..256]",
                "submit q1 wait s0@ALL_COMMANDS",
            ],
            "{text}"
        );
        assert!(hazards.is_empty(), "{hazards:?}\n{text}");
        assert!(issues.is_empty(), "{issues:?}\n{text}");

        let (_, text, _, issues) = run(vk::SharingMode::EXCLUSIVE, false);
        assert_eq!(issues.len(), 1, "{issues:?}\n{text}");
        assert!(
            matches!(
                issues[0].kind,
                vksync::OwnershipIssueKind::ReadWithoutTransfer { owner: 0 }
            ),
            "{issues:?}\n{text}"
        );

        let (lines, text, _, issues) = run(vk::SharingMode::CONCURRENT, true);
        assert!(lines.iter().any(|l| l == "buffer b0 256 alias m0 0"), "{text}");
        assert!(
            !text.contains("exclusive") && !text.contains("ownership 0->1"),
            "{text}"
        );
        let not_modelled = "not-modelled vkCmdPipelineBarrier2 (1 queue family ownership transfer barrier(s): their scopes left out, their layout transitions kept unordered)";
        assert_eq!(lines.iter().filter(|l| *l == not_modelled).count(), 2, "{text}");
        assert!(issues.is_empty(), "{issues:?}\n{text}");
    }

    /// Ownership transfers of an exclusive buffer the model does not take
    /// stay not modelled: to or from an external family, and in an event's
    /// dependency.
    #[test]
    fn external_and_event_ownership_transfers_stay_not_modelled() {
        let rb = |families| ResourceBarrier {
            masks: [vk::PipelineStageFlags2::COPY.as_raw(), 0, 0, 0],
            target: BarrierTarget::Buffer {
                buffer: 12,
                offset: 0,
                size: vk::WHOLE_SIZE,
            },
            queue_families: families,
        };
        let want = "not-modelled vkCmdPipelineBarrier2 (1 queue family ownership transfer barrier(s): their scopes left out, their layout transitions kept unordered)";
        for (name, event, families) in [
            ("external", false, queue_families(0, vk::QUEUE_FAMILY_EXTERNAL)),
            ("foreign", false, queue_families(vk::QUEUE_FAMILY_FOREIGN_EXT, 0)),
            ("event", true, queue_families(0, 1)),
        ] {
            let mut c = device();
            c.create_buffer(12, 256, vk::SharingMode::EXCLUSIVE);
            c.bind_buffer(3, "vkBindBufferMemory", 12, 1, 0);
            if event {
                c.create_event(500);
                c.set_event(70, 7, "vkCmdPipelineBarrier2", 500, &[], &[rb(families)]);
            } else {
                c.barrier(70, 7, "vkCmdPipelineBarrier2", &[], &[rb(families)]);
            }
            let text = submitted(c);
            assert!(text.contains("alias m0 0 exclusive"), "{name}:\n{text}");
            assert!(!text.contains("ownership 0->"), "{name}:\n{text}");
            assert!(
                text.lines().any(|l| l.split("  # ").next() == Some(want)),
                "{name}: no `{want}` in\n{text}"
            );
        }
    }

    /// A fence given to a submit of no batch signals after that queue's
    /// earlier submissions only: waiting for it is `wait` on that queue,
    /// never on the queue submitted to last.
    #[test]
    fn a_fence_of_an_empty_submit_waits_for_its_own_queue() {
        let (a, b) = (900u64, 901u64);
        let mut c = device();
        c.allocate_command_buffers(60, &[71]);
        c.fill_buffer(70, 5, 10, 0, 64, 7);
        c.fill_buffer(71, 6, 10, 64, 64, 7);
        c.submit(7, "vkQueueSubmit", a, &[batch(70)], 0);
        c.submit(8, "vkQueueSubmit", b, &[batch(71)], 0);
        c.submit(9, "vkQueueSubmit", a, &[], 555);
        c.wait(10, "vkWaitForFences", WaitOn::Fences(&[555]), &[]);
        let text = c.text();
        let waits: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("wait"))
            .map(|l| l.split("  #").next().unwrap_or(l))
            .collect();
        assert_eq!(waits, ["wait q0"], "{text}");
    }

    /// A batch of one command buffer, no semaphores.
    pub(super) fn batch(cb: u64) -> Batch {
        Batch {
            cbs: vec![cb],
            ..Batch::default()
        }
    }

    /// Shader module `module`'s entry point `main` uses the descriptor
    /// `resources` (as `reflect_resources` finds them).
    fn main_resources(c: &mut Capture, module: u64, resources: BTreeMap<(u32, u32), Resource>) {
        let mut entry_points = BTreeMap::new();
        entry_points.insert("main".to_string(), resources);
        c.shader_resources(
            module,
            Resources {
                entry_points,
                ..Resources::default()
            },
        );
    }

    fn submitted(mut c: Capture) -> String {
        c.submit(100, "vkQueueSubmit", 1, &[batch(70)], 0);
        c.text()
    }

    /// Two entries as ncnn's templates have them: one buffer info each,
    /// 24 bytes apart (`sizeof(VkDescriptorBufferInfo)`), plus an image
    /// entry between them.
    fn entries() -> Vec<vk::DescriptorUpdateTemplateEntry> {
        vec![
            vk::DescriptorUpdateTemplateEntry {
                dst_binding: 0,
                dst_array_element: 0,
                descriptor_count: 1,
                descriptor_type: vk::DescriptorType::STORAGE_BUFFER,
                offset: 0,
                stride: 24,
            },
            vk::DescriptorUpdateTemplateEntry {
                dst_binding: 2,
                dst_array_element: 0,
                descriptor_count: 1,
                descriptor_type: vk::DescriptorType::STORAGE_IMAGE,
                offset: 24,
                stride: 24,
            },
            vk::DescriptorUpdateTemplateEntry {
                dst_binding: 1,
                dst_array_element: 0,
                descriptor_count: 2,
                descriptor_type: vk::DescriptorType::STORAGE_BUFFER,
                offset: 48,
                stride: 32,
            },
        ]
    }

    #[test]
    fn a_template_keeps_each_buffer_descriptor_and_where_its_info_lies() {
        let mut c = device();
        c.create_update_template(80, &entries());
        let slot = |kind, binding, element, offset| TemplateSlot {
            kind,
            binding,
            element,
            offset,
        };
        assert_eq!(
            c.template_slots(80),
            Some(
                &[
                    slot(SlotKind::Buffer, 0, 0, 0),
                    slot(SlotKind::Image, 2, 0, 24),
                    slot(SlotKind::Buffer, 1, 0, 48),
                    slot(SlotKind::Buffer, 1, 1, 80)
                ][..]
            )
        );
        c.destroy_update_template(80);
        assert_eq!(c.template_slots(80), None);
    }

    /// A uniform buffer binding (static or dynamic) is recorded as
    /// `uniform` (UNIFORM_READ), whatever the reflection says: a storage
    /// read would draw a false read-after-write after a correct barrier to
    /// `UNIFORM_READ` (issue 23).
    #[test]
    fn uniform_buffer_bindings_are_recorded_as_uniform_reads() {
        for ty in [
            vk::DescriptorType::UNIFORM_BUFFER,
            vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
        ] {
            let mut c = device();
            c.create_set_layout(21, vec![(0, ty, 1), (1, vk::DescriptorType::STORAGE_BUFFER, 1)]);
            c.allocate_sets(&[(91, 21)]);
            c.write_descriptor(91, 0, 0, 10, 0, 256);
            c.write_descriptor(91, 1, 0, 10, 1024, vk::WHOLE_SIZE);
            let dynamic = ty == vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC;
            c.bind_sets(70, 3, false, 0, &[91], if dynamic { &[512] } else { &[] });
            c.dispatch(70, 4, "vkCmdDispatch", None);
            let t = submitted(c);
            let want = if dynamic {
                "dispatch s0_main uniform b0[512..768] write b0[1024..4096]  # vkCmdDispatch #4"
            } else {
                "dispatch s0_main uniform b0[0..256] write b0[1024..4096]  # vkCmdDispatch #4"
            };
            assert!(t.contains(want), "{ty:?}:\n{t}");
        }
    }

    #[test]
    fn template_updates_of_a_set_reach_the_dispatch() {
        let mut c = device();
        c.allocate_sets(&[(90, 20)]);
        // What layer.rs decodes from the template's data.
        c.write_descriptor(90, 0, 0, 10, 0, 256);
        c.write_descriptor(90, 1, 0, 10, 1024, vk::WHOLE_SIZE);
        c.bind_sets(70, 3, false, 0, &[90], &[]);
        c.dispatch(70, 4, "vkCmdDispatch", None);
        let t = submitted(c);
        assert!(
            t.contains("dispatch s0_main read b0[0..256] write b0[1024..4096]  # vkCmdDispatch #4"),
            "{t}"
        );
    }

    #[test]
    fn push_descriptors_bind_to_the_layouts_set_and_accumulate() {
        let mut c = device();
        c.push_descriptors(
            70,
            3,
            "vkCmdPushDescriptorSetWithTemplateKHR",
            false,
            30,
            0,
            &Writes::buffers(&[(0, 0, 10, 0, 64), (1, 0, 10, 64, 64)]),
        );
        c.dispatch(70, 4, "vkCmdDispatch", None);
        // A later push of binding 1 only keeps binding 0.
        c.push_descriptors(
            70,
            5,
            "vkCmdPushDescriptorSetKHR",
            false,
            30,
            0,
            &Writes::buffers(&[(1, 0, 10, 128, 64)]),
        );
        c.dispatch(70, 6, "vkCmdDispatch", None);
        // An unknown pipeline layout is written as not modelled.
        c.push_descriptors(
            70,
            7,
            "vkCmdPushDescriptorSetKHR",
            false,
            31,
            0,
            &Writes::default(),
        );
        let t = submitted(c);
        assert!(t.contains("1 calls not modelled"), "{t}");
        assert!(
            t.contains("dispatch s0_main read b0[0..64] write b0[64..128]  # vkCmdDispatch #4"),
            "{t}"
        );
        assert!(
            t.contains("dispatch s0_main read b0[0..64] write b0[128..192]  # vkCmdDispatch #6"),
            "{t}"
        );
        assert!(
            t.contains(
                "not-modelled vkCmdPushDescriptorSetKHR (set 0 of an unknown pipeline layout)  # vkCmdPushDescriptorSetKHR #7"
            ),
            "{t}"
        );
    }

    #[test]
    fn a_bound_set_replaces_a_pushed_one_and_a_reset_forgets_pushes() {
        let mut c = device();
        c.push_descriptors(
            70,
            3,
            "vkCmdPushDescriptorSetKHR",
            false,
            30,
            0,
            &Writes::buffers(&[(0, 0, 10, 0, 64), (1, 0, 10, 64, 64)]),
        );
        c.allocate_sets(&[(90, 20)]);
        c.write_descriptor(90, 0, 0, 10, 512, 64);
        c.write_descriptor(90, 1, 0, 10, 576, 64);
        c.bind_sets(70, 4, false, 0, &[90], &[]);
        c.dispatch(70, 5, "vkCmdDispatch", None);
        c.submit(6, "vkQueueSubmit", 1, &[batch(70)], 0);
        c.reset_command_buffer(70);
        c.bind_pipeline(70, vk::PipelineBindPoint::COMPUTE, 50);
        c.dispatch(70, 6, "vkCmdDispatch", None);
        let t = submitted(c);
        assert!(
            t.contains("read b0[512..576] write b0[576..640]  # vkCmdDispatch #5"),
            "{t}"
        );
        assert!(
            t.contains("not-modelled vkCmdDispatch (set 0 not bound)  # vkCmdDispatch #6"),
            "{t}"
        );
    }
}
