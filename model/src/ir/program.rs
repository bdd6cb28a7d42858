//! The program representation shared by the checker, the planners, the
//! runtime, the property suites and the trace format.
//!
//! A [`Program`] is a list of named objects (buffers with their own memory,
//! buffers aliasing another object's memory, pools, and blobs carved from
//! pools) and a sequence of [`Command`]s over byte regions of those objects.
//! Images come two ways: coarsely, as a buffer over the memory they are
//! bound to (an image memory barrier is then a [`Barrier`] over that
//! memory, and one that changes the layout has [`Barrier::transition`]
//! set), or exactly, declared with [`Program::image`]: a buffer-kind object
//! of the image's notional size with an [`ImageDesc`] beside it, whose
//! subresources, barriers ([`Barrier::image`]) and commands
//! ([`Command::Image`]) are `crate::ir::image`'s.
//! This module owns the types and their construction helpers; it does not
//! decide where blobs live (that is [`crate::ir::layout`]) nor what a command's
//! accesses are (that is [`crate::ir::access`]).

use super::error::{Location, ProgramError, ProgramErrorKind};
use super::event::{Event, EventId, EventWait};
use super::image::{ImageBarrier, ImageBarrierRef, ImageCommand, ImageDesc, Tiling};
use super::queue::{Queue, QueueId, Semaphore, SemaphoreId, SemaphoreType, Submission, WaitFor};
use super::render::RenderCommand;
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::image::{Format, ImageLayout};
use std::collections::HashMap;
use std::fmt;

/// Index of an object in [`Program::objects`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(pub u32);

/// A half-open byte range `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ByteRange {
    /// The first byte.
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
}

impl ByteRange {
    /// `[start, end)`.
    pub fn new(start: u64, end: u64) -> Self {
        ByteRange { start, end }
    }
    /// The number of bytes (0 for a reversed range).
    pub fn len(self) -> u64 {
        self.end.saturating_sub(self.start)
    }
    /// Whether the range holds no byte.
    pub fn is_empty(self) -> bool {
        self.end <= self.start
    }
    /// Whether the two ranges share a byte.
    pub fn overlaps(self, other: ByteRange) -> bool {
        self.start < other.end && other.start < self.end
    }
    /// The bytes both ranges hold (empty when they do not overlap).
    pub fn intersect(self, other: ByteRange) -> ByteRange {
        ByteRange::new(self.start.max(other.start), self.end.min(other.end))
    }
    /// The range moved `by` bytes up, each end saturating at `u64::MAX`
    /// (no panic on a range at the top of the address space; the model's
    /// programs never come near it: object sizes and offsets are checked
    /// when a program is built).
    ///
    /// ```
    /// use vksync::ByteRange;
    /// assert_eq!(ByteRange::new(4, 8).shift(16), ByteRange::new(20, 24));
    /// assert_eq!(ByteRange::new(10, u64::MAX).shift(10), ByteRange::new(20, u64::MAX));
    /// ```
    pub fn shift(self, by: u64) -> ByteRange {
        ByteRange::new(self.start.saturating_add(by), self.end.saturating_add(by))
    }
}

/// A barrier in the trace syntax, its region named by object index
/// (`object 3[0..1024]`), for users without the [`Program`] that names it
/// (a [`crate::Tracker`]'s [`crate::Needs`]; with a program,
/// [`Program::show_region`] gives the object's name).
///
/// ```
/// use vksync::{AccessFlags2 as A, Barrier, ByteRange, ObjectId, OwnershipTransfer, PipelineStageFlags2 as S, Region};
/// let b = Barrier::global(S::COPY, A::TRANSFER_WRITE, S::COMPUTE_SHADER, A::SHADER_STORAGE_READ);
/// assert_eq!(b.to_string(), "COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ");
/// let on = Barrier {
///     ownership: Some(OwnershipTransfer { src_queue_family: 1, dst_queue_family: 2 }),
///     ..b.on(Region { object: ObjectId(3), range: ByteRange::new(0, 1024) })
/// };
/// assert_eq!(
///     on.to_string(),
///     "COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ object 3[0..1024] ownership 1->2"
/// );
/// ```
impl fmt::Display for Barrier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text_with(|r| format!("object {}[{}]", r.object.0, r.range)))
    }
}

impl fmt::Display for ByteRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// What kind of object a name denotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// A buffer. With `alias: None` it is bound to memory of its own; with
    /// `alias: Some((other, offset))` it is bound to `other`'s memory at
    /// `offset` bytes past `other`'s own start, so the two share state.
    Buffer {
        /// The object whose memory it is bound to, and the offset there.
        alias: Option<(ObjectId, u64)>,
    },
    /// A memory block that blobs are allocated from, like ncnn's
    /// `VkBlobAllocator` block. Blob offsets are rounded up to `align`.
    Pool {
        /// The blob offset alignment (a power of two).
        align: u64,
    },
    /// A blob allocated from a pool by an [`Command::Alloc`].
    Blob {
        /// The pool it is allocated from.
        pool: ObjectId,
    },
}

/// `VkSharingMode` of a buffer or pool (a blob has its pool's).
///
/// The model's default is [`SharingMode::Concurrent`], not Vulkan's
/// (`VK_SHARING_MODE_EXCLUSIVE` is 0): with one queue family the two do
/// not differ, and a trace says `exclusive` where it matters, so traces
/// written before ownership was modelled keep their meaning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SharingMode {
    /// `VK_SHARING_MODE_CONCURRENT`: every queue family may access it.
    #[default]
    Concurrent,
    /// `VK_SHARING_MODE_EXCLUSIVE`: one queue family owns each range at a
    /// time; another family reads defined contents only after a queue
    /// family ownership transfer ([`Barrier::with_ownership_transfer`],
    /// checked by [`crate::check_ownership`]).
    Exclusive,
}

/// A named object: buffer, pool or blob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object {
    /// Its name in traces and messages.
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
    /// Buffer, pool or blob.
    pub kind: ObjectKind,
    /// Its sharing mode (a blob's is its pool's, whatever this says).
    pub sharing: SharingMode,
}

/// The queue family indices of a buffer memory barrier that transfers
/// ownership (`srcQueueFamilyIndex != dstQueueFamilyIndex`). Executed on a
/// queue of `src_queue_family` it is a *release* operation, on a queue of
/// `dst_queue_family` an *acquire* operation ("Queue Family Ownership
/// Transfer").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OwnershipTransfer {
    /// `srcQueueFamilyIndex`.
    pub src_queue_family: u32,
    /// `dstQueueFamilyIndex`.
    pub dst_queue_family: u32,
}

/// A byte range of an object, relative to the object's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    /// The object.
    pub object: ObjectId,
    /// The bytes, relative to the object's start.
    pub range: ByteRange,
}

/// How a dispatch uses a buffer binding: a storage buffer (or storage
/// texel buffer) read, written or both, a uniform buffer, or a uniform
/// texel buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BindingAccess {
    /// A storage buffer, `readonly` in the shader: `SHADER_STORAGE_READ`.
    Read,
    /// A storage buffer, `writeonly`: `SHADER_STORAGE_WRITE`.
    Write,
    /// A storage buffer read and written: both.
    ReadWrite,
    /// A uniform buffer (`VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER` or its
    /// dynamic form): `UNIFORM_READ`, which a barrier to
    /// `SHADER_STORAGE_READ` does not cover ("Access Types":
    /// `VK_ACCESS_2_UNIFORM_READ_BIT` "specifies read access to a uniform
    /// buffer in any shader pipeline stage").
    Uniform,
    /// A uniform texel buffer (`VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER`):
    /// `SHADER_SAMPLED_READ` ("Access Types": it "specifies read access to
    /// a uniform texel buffer or sampled image in any shader pipeline
    /// stage"), which neither `SHADER_STORAGE_READ` nor `UNIFORM_READ`
    /// covers. (A storage texel buffer is accessed as a storage buffer:
    /// `read`, `write`, `rw`.)
    Sampled,
    /// A storage image (`VK_DESCRIPTOR_TYPE_STORAGE_IMAGE`) the shader
    /// reads: `SHADER_STORAGE_READ` over the view's subresources, which
    /// must be in `GENERAL`.
    ImageRead,
    /// A storage image the shader writes: `SHADER_STORAGE_WRITE`.
    ImageWrite,
    /// A storage image read and written: both.
    ImageReadWrite,
    /// A sampled image or combined image sampler
    /// (`VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE`,
    /// `VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER`) whose descriptor names
    /// this `imageLayout`: `SHADER_SAMPLED_READ`.
    SampledImage(ImageLayout),
}

impl BindingAccess {
    /// The trace format's keyword: `read`, `write`, `rw`, `uniform` or
    /// `sampled`.
    pub fn keyword(self) -> &'static str {
        match self {
            BindingAccess::Read => "read",
            BindingAccess::Write => "write",
            BindingAccess::ReadWrite => "rw",
            BindingAccess::Uniform => "uniform",
            BindingAccess::Sampled => "sampled",
            BindingAccess::ImageRead => "image-read",
            BindingAccess::ImageWrite => "image-write",
            BindingAccess::ImageReadWrite => "image-rw",
            BindingAccess::SampledImage(_) => "sampled-image",
        }
    }

    /// Whether it is an image descriptor (its region is a view of an
    /// `image`-declared object).
    pub fn is_image(self) -> bool {
        matches!(
            self,
            BindingAccess::ImageRead
                | BindingAccess::ImageWrite
                | BindingAccess::ImageReadWrite
                | BindingAccess::SampledImage(_)
        )
    }

    /// The (stage, access) pairs a dispatch makes on a binding used so,
    /// reads first: the one home of this mapping (the accesses table and
    /// the layer emulation read it). With `rw_write_only` (D3, the layer's
    /// reading) a read-write binding is a write only.
    pub fn stage_accesses(self, rw_write_only: bool) -> &'static [crate::vk::scope::StageAccess] {
        use crate::vk::scope::StageAccess::{ComputeShaderStorageRead as R, ComputeShaderStorageWrite as W};
        match (self, rw_write_only) {
            (BindingAccess::Read | BindingAccess::ImageRead, _) => &[R],
            (BindingAccess::Write | BindingAccess::ImageWrite, _)
            | (BindingAccess::ReadWrite | BindingAccess::ImageReadWrite, true) => &[W],
            (BindingAccess::ReadWrite | BindingAccess::ImageReadWrite, false) => &[R, W],
            (BindingAccess::Uniform, _) => &[crate::vk::scope::StageAccess::ComputeShaderUniformRead],
            (BindingAccess::Sampled | BindingAccess::SampledImage(_), _) => {
                &[crate::vk::scope::StageAccess::ComputeShaderSampledRead]
            }
        }
    }
}

/// One storage-buffer binding of a dispatch. The whole bound range counts
/// as accessed, whatever the shader does with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Binding {
    /// How the shader uses it.
    pub access: BindingAccess,
    /// The bound bytes.
    pub region: Region,
}

/// One barrier of a `vkCmdPipelineBarrier2`: a `VkMemoryBarrier2` when
/// `region` is `None`, a `VkBufferMemoryBarrier2` over `region` otherwise,
/// or, with `transition` set, a `VkImageMemoryBarrier2` whose `oldLayout`
/// differs from its `newLayout`.
///
/// Images are modelled coarsely: an image is the memory range it is bound
/// to (in a trace, a `buffer NAME SIZE alias MEM OFFSET`), and an image
/// memory barrier is a barrier over that range. One that changes the
/// layout also performs a *layout transition*: a write of the whole
/// region ([`crate::StageAccess::ImageLayoutTransition`]) that happens
/// after the barrier's availability operations and before its visibility
/// operations, and is ordered by this barrier only (`docs/semantics.md`,
/// "Image layout transitions").
///
/// Build barriers with [`Barrier::global`], [`Barrier::on`] and
/// [`Barrier::with_transition`], or with a literal ending in
/// `..Default::default()` (the default is `NONE:NONE -> NONE:NONE`, global,
/// no transition), so that a field added later does not break it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Barrier {
    /// `srcStageMask`.
    pub src_stage_mask: PipelineStageFlags2,
    /// `srcAccessMask`.
    pub src_access_mask: AccessFlags2,
    /// `dstStageMask`.
    pub dst_stage_mask: PipelineStageFlags2,
    /// `dstAccessMask`.
    pub dst_access_mask: AccessFlags2,
    /// The buffer range of a buffer memory barrier (or the memory of an
    /// image); `None` for a global one.
    pub region: Option<Region>,
    /// The barrier performs an image layout transition of `region`
    /// (`oldLayout != newLayout`). Valid only with a region: the builders
    /// refuse a transition without one
    /// ([`crate::ProgramErrorKind::TransitionWithoutRegion`]).
    pub transition: bool,
    /// A queue family ownership transfer of `region` (a buffer memory
    /// barrier of an [`SharingMode::Exclusive`] buffer; not with a
    /// transition). `None`: both indices `VK_QUEUE_FAMILY_IGNORED`.
    pub ownership: Option<OwnershipTransfer>,
    /// For an image memory barrier of an `image`-declared object: its
    /// subresource range and layouts, in [`Program::image_barriers`]
    /// (`region` is one of the range's byte ranges:
    /// [`Program::image_barrier_part`]). `transition` is then
    /// `old_layout != new_layout` (outside an ownership transfer). `None`
    /// for every other barrier.
    pub image: Option<ImageBarrierRef>,
}

impl Barrier {
    /// A global memory barrier.
    pub fn global(
        src_stage_mask: PipelineStageFlags2,
        src_access_mask: AccessFlags2,
        dst_stage_mask: PipelineStageFlags2,
        dst_access_mask: AccessFlags2,
    ) -> Self {
        Barrier {
            src_stage_mask,
            src_access_mask,
            dst_stage_mask,
            dst_access_mask,
            ..Barrier::default()
        }
    }

    /// The same barrier restricted to a buffer region.
    pub fn on(self, region: Region) -> Self {
        Barrier {
            region: Some(region),
            ..self
        }
    }

    /// The same barrier performing an image layout transition of its
    /// region (give it one with [`Barrier::on`]).
    ///
    /// ```
    /// use vksync::{AccessFlags2 as A, Barrier, Command, Dependency, PipelineStageFlags2 as S, Program};
    /// let mut p = Program::new();
    /// let img = p.buffer("img", 4096)?;
    /// let b = Barrier::global(S::COMPUTE_SHADER, A::SHADER_WRITE, S::COPY, A::TRANSFER_READ);
    /// p.push(Command::Barrier(Dependency { barriers: vec![b.on(p.whole(img)).with_transition()] }))?;
    /// // Without a region there is nothing to transition.
    /// let err = p.push(Command::Barrier(Dependency { barriers: vec![b.with_transition()] })).unwrap_err();
    /// assert_eq!(err.to_string(), "command 1: barrier 0: a layout transition needs a region (the image's memory)");
    /// # Ok::<(), vksync::ProgramError>(())
    /// ```
    pub fn with_transition(self) -> Self {
        Barrier {
            transition: true,
            ..self
        }
    }

    /// The same barrier transferring ownership of its region from queue
    /// family `src` to `dst`: a release where a queue of `src` executes it
    /// (its destination masks are then ignored), an acquire where one of
    /// `dst` does (its source masks are then ignored).
    pub fn with_ownership_transfer(self, src: u32, dst: u32) -> Self {
        Barrier {
            ownership: Some(OwnershipTransfer {
                src_queue_family: src,
                dst_queue_family: dst,
            }),
            ..self
        }
    }

    /// The ownership transfer this barrier performs, if any: `None` also
    /// when both indices are equal ("no ownership transfer is performed").
    pub(crate) fn transfer(&self) -> Option<OwnershipTransfer> {
        self.ownership
            .filter(|o| o.src_queue_family != o.dst_queue_family)
    }

    /// `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION] [transition] [ownership S->D]`,
    /// the trace format's text of one barrier, naming `program`'s objects.
    pub fn describe(&self, program: &Program) -> String {
        let Some(ib) = self.image.and_then(|r| program.image_barrier(r)) else {
            return self.text_with(|r| program.show_region(r));
        };
        let name = program.object(ib.image).map_or("?", |o| o.name.as_str());
        let mut s = format!(
            "{}:{} -> {}:{} {name} {} {}->{}",
            self.src_stage_mask,
            self.src_access_mask,
            self.dst_stage_mask,
            self.dst_access_mask,
            ib.range,
            ib.old_layout,
            ib.new_layout
        );
        if let Some(o) = self.ownership {
            s.push_str(&format!(
                " ownership {}->{}",
                o.src_queue_family, o.dst_queue_family
            ));
        }
        s
    }

    /// `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION] [transition]
    /// [ownership S->D]` with the region written by `region` (the one
    /// rendering of a barrier's masks, [`Barrier::describe`]'s without an
    /// image barrier, `Display`'s and a tracker's
    /// [`crate::Needs::barrier_line`]'s).
    pub(crate) fn text_with(&self, region: impl Fn(Region) -> String) -> String {
        let mut s = format!(
            "{}:{} -> {}:{}",
            self.src_stage_mask, self.src_access_mask, self.dst_stage_mask, self.dst_access_mask
        );
        if let Some(r) = self.region {
            s.push(' ');
            s.push_str(&region(r));
        }
        if self.transition {
            s.push_str(" transition");
        }
        if let Some(o) = self.ownership {
            s.push_str(&format!(
                " ownership {}->{}",
                o.src_queue_family, o.dst_queue_family
            ));
        }
        s
    }

    /// The number of stage and access bits the barrier sets: the measure of
    /// "how much" a barrier synchronizes, used by the planner tables.
    pub fn bit_count(&self) -> u32 {
        self.src_stage_mask.bits().count_ones()
            + self.src_access_mask.bits().count_ones()
            + self.dst_stage_mask.bits().count_ones()
            + self.dst_access_mask.bits().count_ones()
    }
}

/// One `vkCmdPipelineBarrier2`: its barriers apply together and do not
/// chain with each other.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Dependency {
    /// Its barriers.
    pub barriers: Vec<Barrier>,
}

/// A command of the program, in recording order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Allocates a blob from its pool (no device work).
    Alloc {
        /// The blob.
        blob: ObjectId,
    },
    /// Returns a blob's memory to its pool (no device work). The memory may
    /// be handed out again by a later `Alloc` while earlier commands that
    /// used it have not executed yet: that is the ncnn report's bug.
    Free {
        /// The blob.
        blob: ObjectId,
    },
    /// `vkCmdCopyBuffer` with one region; `src` and `dst` have equal sizes.
    Copy {
        /// The bytes read.
        src: Region,
        /// The bytes written.
        dst: Region,
    },
    /// A copy with an image on one side or both (`vkCmdCopyBufferToImage`,
    /// `vkCmdCopyImageToBuffer`, `vkCmdCopyImage`), coarsely: an image is
    /// the memory it is bound to, and its side of the copy is all of it;
    /// the buffer side is the bytes the copy's regions name. It reads `src`
    /// and writes `dst` in `COPY`, as `Copy` does; the sides may differ in
    /// size, and may overlap (two subresources of one image). The CPU
    /// reference does not compute image layouts: `dst`'s bytes become
    /// undefined.
    CopyImage {
        /// Which Vulkan command.
        kind: ImageCopy,
        /// The bytes read.
        src: Region,
        /// The bytes written.
        dst: Region,
    },
    /// An image command on `image`-declared objects, exactly
    /// (`crate::ir::image`): buffer-image copies, image copies, blits,
    /// resolves and clears, each with the byte ranges of its regions.
    /// Build it with [`Program::image_command`].
    Image(Box<ImageCommand>),
    /// Dynamic rendering: `vkCmdBeginRendering`, `vkCmdEndRendering` and
    /// the draw commands (`crate::ir::render`), each with the accesses it
    /// makes and the implicit dependencies of its rendering instance.
    /// Build it with [`Program::render_command`].
    Render(Box<RenderCommand>),
    /// `vkCmdFillBuffer` with a 32-bit value.
    Fill {
        /// The bytes written.
        dst: Region,
        /// The word written.
        value: u32,
    },
    /// `vkCmdUpdateBuffer`: word `i` of the region becomes `value + i`.
    Update {
        /// The bytes written.
        dst: Region,
        /// The first word written.
        value: u32,
    },
    /// `vkCmdDispatch` (or `vkCmdDispatchIndirect` when `indirect` is set,
    /// the region holding the 12-byte `VkDispatchIndirectCommand`).
    Dispatch {
        /// The kernel's name (see [`crate::reference::Kernel`]).
        kernel: String,
        /// Its push-constant parameters.
        params: Vec<u32>,
        /// Its storage-buffer bindings, in binding order.
        bindings: Vec<Binding>,
        /// The indirect arguments, for `vkCmdDispatchIndirect`.
        indirect: Option<Region>,
    },
    /// The host writes a mapped region: word `i` becomes `value + i`.
    HostWrite {
        /// The bytes written.
        dst: Region,
        /// The first word written.
        value: u32,
    },
    /// The host reads a mapped region.
    HostRead {
        /// The bytes read.
        src: Region,
    },
    /// `vkCmdPipelineBarrier2`.
    Barrier(Dependency),
    /// `vkQueueSubmit` of everything recorded since the last submit, with a
    /// fence, to a queue, with semaphore waits and signals
    /// ([`Submission::default()`], also [`Command::SUBMIT`]: to the first
    /// queue, no semaphore).
    Submit(Submission),
    /// The host waits: `vkWaitForFences` on every submission so far
    /// ([`WaitFor::All`], also [`Command::WAIT`]), or `vkQueueWaitIdle` on
    /// one queue ([`WaitFor::Queue`]).
    Wait(WaitFor),
    /// `vkSignalSemaphore`: the host sets a timeline semaphore to `value`.
    HostSignal {
        /// The (timeline) semaphore.
        semaphore: SemaphoreId,
        /// The value set.
        value: u64,
    },
    /// `vkWaitSemaphores`: the host waits until a timeline semaphore
    /// reaches `value`.
    HostWait {
        /// The (timeline) semaphore.
        semaphore: SemaphoreId,
        /// The value waited for.
        value: u64,
    },
    /// `vkCmdSetEvent2`: the event signal operation, and the first half
    /// of the memory dependencies of `dependency` (its barriers' first
    /// scopes, applied to the commands before it on its queue), and the
    /// layout transitions its barriers define, performed at the set
    /// between the first half and the signal.
    SetEvent {
        /// The event.
        event: EventId,
        /// `pDependencyInfo`: at least one barrier.
        dependency: Dependency,
    },
    /// `vkCmdWaitEvents2`: waits for each event's signal, then applies the
    /// second half of each event's dependency info (its barriers' second
    /// scopes, to the commands after it). Accesses between the set and the
    /// wait are not ordered by the pair.
    WaitEvents {
        /// One per element of `pEvents`, with its `pDependencyInfos[i]`.
        waits: Vec<EventWait>,
    },
    /// `vkCmdSetEvent` (synchronization 1): the event signal operation.
    /// Its first synchronization scope is the commands before it on its
    /// queue, in `stage_mask`; it has no access scope ("it does not define
    /// an access scope"): the memory dependency is given by the wait, so
    /// two waits of one set may order different accesses.
    SetEvent1 {
        /// The event.
        event: EventId,
        /// `stageMask`: synchronization-1 bits only, no `HOST`.
        stage_mask: PipelineStageFlags2,
    },
    /// `vkCmdWaitEvents` (synchronization 1): waits for each event's
    /// signal, then applies one memory dependency per barrier, from what
    /// happened before the signals to the commands after it. Its first
    /// access scope is given here, at the wait ("vkCmdWaitEvents defines
    /// the first access scope for each event signal operation"), so a
    /// write before the set is made available at the wait. Accesses
    /// between the sets and the wait are not ordered by it.
    WaitEvents1 {
        /// `pEvents` (at least one), each set by [`Command::SetEvent1`] or
        /// by the host.
        events: Vec<EventId>,
        /// `srcStageMask`, `dstStageMask` and the memory, buffer memory and
        /// image memory barriers: every barrier carries the call's two
        /// stage masks (the call has one of each), and there is at least
        /// one (an execution-only wait, with no barrier in Vulkan, is one
        /// global barrier with no access: `SRC:NONE -> DST:NONE`). An image
        /// barrier's layout transition is performed by the wait, as part of
        /// its memory dependency. No ownership transfer,
        /// synchronization-1 flags only ([`Command::wait_stage_masks`]).
        dependency: Dependency,
    },
    /// `vkCmdResetEvent2` or `vkCmdResetEvent`: unsignals the event (orders
    /// no memory access in the model).
    ResetEvent {
        /// The event.
        event: EventId,
        /// `stageMask`.
        stages: PipelineStageFlags2,
    },
    /// `vkSetEvent`: the host signals the event.
    HostSetEvent {
        /// The event.
        event: EventId,
    },
    /// `vkResetEvent`: the host unsignals the event.
    HostResetEvent {
        /// The event.
        event: EventId,
    },
}

/// Which Vulkan command a [`Command::CopyImage`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageCopy {
    /// `vkCmdCopyBufferToImage`: `src` is a buffer range, `dst` an image.
    BufferToImage,
    /// `vkCmdCopyImageToBuffer`: `src` is an image, `dst` a buffer range.
    ImageToBuffer,
    /// `vkCmdCopyImage`: both are images.
    ImageToImage,
}

impl ImageCopy {
    /// Every kind, in declaration order.
    pub const ALL: [ImageCopy; 3] = [
        ImageCopy::BufferToImage,
        ImageCopy::ImageToBuffer,
        ImageCopy::ImageToImage,
    ];

    /// Its trace keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            ImageCopy::BufferToImage => "copy-buffer-to-image",
            ImageCopy::ImageToBuffer => "copy-image-to-buffer",
            ImageCopy::ImageToImage => "copy-image",
        }
    }

    /// The Vulkan command.
    pub fn vulkan_name(self) -> &'static str {
        match self {
            ImageCopy::BufferToImage => "vkCmdCopyBufferToImage",
            ImageCopy::ImageToBuffer => "vkCmdCopyImageToBuffer",
            ImageCopy::ImageToImage => "vkCmdCopyImage",
        }
    }
}

impl Command {
    /// Every region the command names (accessed, or in a barrier), each in
    /// place for `f` to rewrite: renaming objects (`plan::schedule`).
    /// `Program::push` validates the same regions with its own match, which
    /// also checks each command's other operands.
    pub(crate) fn for_each_region_mut(&mut self, mut f: impl FnMut(&mut Region)) {
        let barriers = |d: &mut Dependency, f: &mut dyn FnMut(&mut Region)| {
            for b in &mut d.barriers {
                if let Some(r) = b.region.as_mut() {
                    f(r);
                }
            }
        };
        match self {
            Command::Copy { src, dst } | Command::CopyImage { src, dst, .. } => {
                f(src);
                f(dst);
            }
            Command::Image(ic) => {
                for (r, _) in ic.accesses.iter_mut() {
                    f(r);
                }
            }
            Command::Render(rc) => {
                for (r, _) in rc.accesses.iter_mut() {
                    f(r);
                }
                for d in rc.implicit.iter_mut() {
                    f(&mut d.region);
                }
            }
            Command::Fill { dst, .. } | Command::Update { dst, .. } | Command::HostWrite { dst, .. } => {
                f(dst)
            }
            Command::HostRead { src } => f(src),
            Command::Dispatch {
                bindings, indirect, ..
            } => {
                for b in bindings.iter_mut() {
                    f(&mut b.region);
                }
                if let Some(i) = indirect.as_mut() {
                    f(i);
                }
            }
            Command::Barrier(dep)
            | Command::SetEvent { dependency: dep, .. }
            | Command::WaitEvents1 { dependency: dep, .. } => barriers(dep, &mut f),
            Command::WaitEvents { waits } => {
                for w in waits.iter_mut() {
                    barriers(&mut w.dependency, &mut f);
                }
            }
            Command::Alloc { .. }
            | Command::Free { .. }
            | Command::Submit(_)
            | Command::Wait(_)
            | Command::HostSignal { .. }
            | Command::HostWait { .. }
            | Command::SetEvent1 { .. }
            | Command::ResetEvent { .. }
            | Command::HostSetEvent { .. }
            | Command::HostResetEvent { .. } => {}
        }
    }

    /// The objects the command's regions name, in order
    /// ([`Command::for_each_region_mut`] on a copy: not for hot paths).
    pub(crate) fn objects(&self) -> Vec<ObjectId> {
        let mut out = Vec::new();
        self.clone().for_each_region_mut(|r| out.push(r.object));
        out
    }

    /// The single-queue `submit`: to the first queue, no semaphore.
    pub const SUBMIT: Command = Command::Submit(Submission {
        queue: QueueId(0),
        waits: Vec::new(),
        signals: Vec::new(),
    });
    /// The `wait` for every submission so far.
    pub const WAIT: Command = Command::Wait(WaitFor::All);

    /// The short name used in messages and in the trace format.
    pub fn keyword(&self) -> &'static str {
        match self {
            Command::Alloc { .. } => "alloc",
            Command::Free { .. } => "free",
            Command::Copy { .. } => "copy",
            Command::CopyImage { kind, .. } => kind.keyword(),
            Command::Image(ic) => ic.op.keyword(),
            Command::Render(rc) => rc.op.keyword(),
            Command::Fill { .. } => "fill",
            Command::Update { .. } => "update",
            Command::Dispatch { .. } => "dispatch",
            Command::HostWrite { .. } => "host-write",
            Command::HostRead { .. } => "host-read",
            Command::Barrier(_) => "barrier",
            Command::Submit(_) => "submit",
            Command::Wait(_) => "wait",
            Command::HostSignal { .. } => "host-signal",
            Command::HostWait { .. } => "host-wait",
            Command::SetEvent { .. } => "set-event",
            Command::WaitEvents { .. } => "wait-events",
            Command::SetEvent1 { .. } => "set-event1",
            Command::WaitEvents1 { .. } => "wait-events1",
            Command::ResetEvent { .. } => "reset-event",
            Command::HostSetEvent { .. } => "host-set-event",
            Command::HostResetEvent { .. } => "host-reset-event",
        }
    }

    /// The Vulkan call the command stands for, for messages.
    pub fn vulkan_name(&self) -> &'static str {
        match self {
            Command::Alloc { .. } => "alloc",
            Command::Free { .. } => "free",
            Command::Copy { .. } => "vkCmdCopyBuffer",
            Command::CopyImage { kind, .. } => kind.vulkan_name(),
            Command::Image(ic) => ic.op.vulkan_name(),
            Command::Render(rc) => rc.op.vulkan_name(),
            Command::Fill { .. } => "vkCmdFillBuffer",
            Command::Update { .. } => "vkCmdUpdateBuffer",
            Command::Dispatch {
                indirect: Some(_), ..
            } => "vkCmdDispatchIndirect",
            Command::Dispatch { .. } => "vkCmdDispatch",
            Command::HostWrite { .. } => "host write",
            Command::HostRead { .. } => "host read",
            Command::Barrier(_) => "vkCmdPipelineBarrier2",
            Command::Submit(_) => "vkQueueSubmit",
            Command::Wait(WaitFor::All) => "vkWaitForFences",
            Command::Wait(WaitFor::Queue(_)) => "vkQueueWaitIdle",
            Command::HostSignal { .. } => "vkSignalSemaphore",
            Command::HostWait { .. } => "vkWaitSemaphores",
            Command::SetEvent { .. } => "vkCmdSetEvent2",
            Command::WaitEvents { .. } => "vkCmdWaitEvents2",
            Command::SetEvent1 { .. } => "vkCmdSetEvent",
            Command::WaitEvents1 { .. } => "vkCmdWaitEvents",
            Command::ResetEvent { .. } => "vkCmdResetEvent2",
            Command::HostSetEvent { .. } => "vkSetEvent",
            Command::HostResetEvent { .. } => "vkResetEvent",
        }
    }

    /// The `srcStageMask` and `dstStageMask` of a [`Command::WaitEvents1`]
    /// (its barriers' common stage masks); `None` for any other command or
    /// a wait without barriers (which [`Program::push`] refuses).
    pub fn wait_stage_masks(&self) -> Option<(PipelineStageFlags2, PipelineStageFlags2)> {
        match self {
            Command::WaitEvents1 { dependency, .. } => dependency
                .barriers
                .first()
                .map(|b| (b.src_stage_mask, b.dst_stage_mask)),
            _ => None,
        }
    }
}

/// The first flag of a synchronization-1 command's masks that only
/// synchronization 2 has (`VkPipelineStageFlags` and `VkAccessFlags` are
/// 32 bits), with the synchronization-1 flag that covers it.
fn first_sync2_only_flag(
    stages: &[PipelineStageFlags2],
    accesses: &[AccessFlags2],
) -> Option<(&'static str, &'static str)> {
    stages
        .iter()
        .find_map(|s| s.first_sync2_only())
        .or_else(|| accesses.iter().find_map(|a| a.first_sync2_only()))
}

/// Every barrier's flags have names: bits without a name cannot be
/// printed, so a program with them would not parse back; and a transition
/// writes the image's memory: without a region there is nothing for it to
/// write.
fn check_dependency_flags(dep: &Dependency) -> Result<(), ProgramErrorKind> {
    for (index, b) in dep.barriers.iter().enumerate() {
        let unnamed = b.src_stage_mask.unnamed_bits()
            | b.dst_stage_mask.unnamed_bits()
            | b.src_access_mask.unnamed_bits()
            | b.dst_access_mask.unnamed_bits();
        if unnamed != 0 {
            return Err(ProgramErrorKind::UnnamedFlags { index, bits: unnamed });
        }
        if b.transition && b.region.is_none() {
            return Err(ProgramErrorKind::TransitionWithoutRegion { index });
        }
        if b.ownership.is_some() && b.region.is_none() {
            return Err(ProgramErrorKind::OwnershipWithoutRegion { index });
        }
        if b.transfer().is_some() && b.transition {
            return Err(ProgramErrorKind::OwnershipWithTransition { index });
        }
    }
    Ok(())
}

/// A synchronization-1 command's masks hold 32-bit flags only.
fn check_sync1_flags(
    call: &'static str,
    stages: &[PipelineStageFlags2],
    accesses: &[AccessFlags2],
) -> Result<(), ProgramErrorKind> {
    match first_sync2_only_flag(stages, accesses) {
        Some((flag, instead)) => Err(ProgramErrorKind::Sync2OnlyFlag { call, flag, instead }),
        None => Ok(()),
    }
}

/// The dependency of a `vkCmdWaitEvents`: flags with names, at least one
/// barrier (its stage masks are the call's), the same stage masks in
/// every barrier (the call has one `srcStageMask` and one
/// `dstStageMask`), synchronization-1 flags and no ownership transfer
/// (VUID-vkCmdWaitEvents-srcQueueFamilyIndex-02803). A layout transition
/// is part of the wait's memory dependency (`docs/semantics.md`, "Events").
fn check_wait1_dependency(dep: &Dependency) -> Result<(), ProgramErrorKind> {
    check_dependency_flags(dep)?;
    let Some(first) = dep.barriers.first() else {
        return Err(ProgramErrorKind::WaitEvents1WithoutBarriers);
    };
    for (index, b) in dep.barriers.iter().enumerate() {
        if (b.src_stage_mask, b.dst_stage_mask) != (first.src_stage_mask, first.dst_stage_mask) {
            return Err(ProgramErrorKind::WaitEvents1StageMasks { index });
        }
        check_sync1_flags(
            "vkCmdWaitEvents",
            &[b.src_stage_mask, b.dst_stage_mask],
            &[b.src_access_mask, b.dst_access_mask],
        )?;
        if b.ownership.is_some() {
            return Err(ProgramErrorKind::OwnershipInEvent { index });
        }
    }
    Ok(())
}

/// Whether `name` may name an object or a kernel: letters, digits, `_`,
/// `-` and `.`, starting with a letter or `_`. The trace printer writes
/// names verbatim, so this set must not include anything the trace lexer
/// splits on or that its grammar gives a meaning (`[`, `(`, `:`, `|`, `;`,
/// `#`, spaces). The one rule for the parser and the builder.
pub(crate) fn is_name(text: &str) -> bool {
    let mut bytes = text.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// The words that introduce a dispatch's bindings in the trace format; a
/// kernel may not be named like one (the grammar would read it as one).
pub(crate) const BINDING_KEYWORDS: [&str; 4] = ["read", "write", "rw", "indirect"];

/// The words of `submit` and `wait` that a queue or semaphore name would
/// make ambiguous.
pub(crate) const SYNC_KEYWORDS: [&str; 2] = ["wait", "signal"];

/// Whether `name` is reserved for queues and semaphores.
pub(crate) fn is_reserved_sync_name(text: &str) -> bool {
    SYNC_KEYWORDS.contains(&text)
}

/// Whether `name` may name a kernel: a name that is not a binding keyword.
pub(crate) fn is_kernel_name(text: &str) -> bool {
    is_name(text) && !BINDING_KEYWORDS.contains(&text)
}

/// A program: objects and the commands over them.
///
/// Built with [`Program::new`] and the declaring methods ([`Program::buffer`],
/// [`Program::pool`], [`Program::alloc`], ...) and [`Program::push`], or all
/// at once with [`Program::from_parts`], or parsed from a trace
/// ([`crate::trace::parse`]). Every way checks what does not need a memory
/// layout (names valid and unique, ids this program's, ranges not
/// reversed, blobs from pools, dispatches with bindings, barrier flags
/// with names) and returns a [`ProgramError`] naming the
/// object or command; [`crate::resolve`] checks the rest (bounds,
/// lifetimes, alignment). So [`crate::trace::print`] of any program built
/// here parses back to it.
///
/// ```
/// use vksync::{Command, Program};
/// let mut p = Program::new();
/// let a = p.buffer("a", 256)?;
/// let b = p.buffer("b", 256)?;
/// p.push(Command::Copy { src: p.whole(a), dst: p.whole(b) })?;
/// assert_eq!(p.commands().len(), 1);
/// assert_eq!(p.buffer("a", 16).unwrap_err().to_string(), "object 2: `a` is already declared");
/// # Ok::<(), vksync::ProgramError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Program {
    /// Shared between clones (copied on write): the crate's planners
    /// clone programs that differ in their commands only, once per try or
    /// per queue, and a copy of every declaration each time made planning
    /// N queues quadratic in N (issue 27).
    pub(crate) objects: std::sync::Arc<Vec<Object>>,
    pub(crate) commands: Vec<Command>,
    /// Object ids by name (derived from `objects`; shared as it is).
    names: std::sync::Arc<HashMap<String, ObjectId>>,
    /// Declared queues; empty: one implicit queue (family 0).
    pub(crate) queues: Vec<Queue>,
    /// Queue ids by name (derived from `queues`, which only
    /// [`Program::queue`] extends and `clear_queues_and_semaphores`
    /// empties): a scan per name made a trace of N queues quadratic.
    queue_names: HashMap<String, QueueId>,
    /// Declared semaphores.
    pub(crate) semaphores: Vec<Semaphore>,
    /// Semaphore ids by name (derived from `semaphores`, which only
    /// [`Program::semaphore`] extends): a trace of N semaphores looks each
    /// name up once per operand, which a scan made quadratic (issue 27).
    semaphore_names: HashMap<String, SemaphoreId>,
    /// Declared events.
    pub(crate) events: Vec<Event>,
    /// Event ids by name (derived from `events`, which only
    /// [`Program::event`] extends).
    event_names: HashMap<String, EventId>,
    /// The `image`-declared objects, in declaration order.
    pub(crate) images: Vec<ImageDesc>,
    /// The image memory barriers [`Barrier::image`] refers to.
    pub(crate) image_barriers: Vec<ImageBarrier>,
    /// Declared render passes (`crate::ir::renderpass`).
    pub(crate) render_passes: Vec<super::renderpass::RenderPass>,
    /// Image layouts are not followed (`check_layouts` accepts any): set on
    /// one queue's part of a multi-queue plan only (`plan::queues`), whose
    /// images change layout on other queues too.
    pub(crate) layouts_unchecked: bool,
}

impl Program {
    /// An empty program.
    pub fn new() -> Self {
        Self::default()
    }

    /// A program from its objects and commands, each checked as
    /// [`Program::declare`] and [`Program::push`] check, and in an order the
    /// trace format can write: objects are declared in id order, each blob
    /// by its one [`Command::Alloc`] (so blobs are allocated in id order,
    /// and an object declared after a blob is used only after that blob's
    /// `alloc`), and every blob is allocated. Objects come as buffers,
    /// pools and blobs only: an image (with its description, image
    /// barriers and image commands) is declared with
    /// [`Program::declare_image`] and built with the parser or
    /// [`Program::image_command`].
    pub fn from_parts(objects: Vec<Object>, commands: Vec<Command>) -> Result<Program, ProgramError> {
        let mut p = Program::new();
        let names: Vec<String> = objects.iter().map(|o| o.name.clone()).collect();
        let mut pending = objects.into_iter().peekable();
        // Declares every object up to the next blob (which waits for its
        // `alloc`).
        let ready = |p: &mut Program, pending: &mut std::iter::Peekable<std::vec::IntoIter<Object>>| {
            while let Some(o) = pending.next_if(|o| !matches!(o.kind, ObjectKind::Blob { .. })) {
                p.declare(o)?;
            }
            Ok::<(), ProgramError>(())
        };
        for (i, c) in commands.into_iter().enumerate() {
            ready(&mut p, &mut pending)?;
            if let Command::Alloc { blob } = c {
                let next = p.objects.len() as u32;
                match pending.peek() {
                    Some(o) if blob.0 == next => {
                        let ObjectKind::Blob { pool } = o.kind else {
                            unreachable!("`ready` stops at blobs only")
                        };
                        let (name, size) = (o.name.clone(), o.size);
                        pending.next();
                        p.alloc(&name, size, pool)?;
                        continue;
                    }
                    // Declared already: `push` says why not (allocated
                    // twice, or not a blob).
                    _ if blob.0 < next => {}
                    _ => {
                        return Err(ProgramError {
                            at: Location::Command(i),
                            kind: ProgramErrorKind::AllocOutOfOrder { id: blob.0, next },
                        })
                    }
                }
            }
            p.push(c).map_err(|e| match e.kind {
                // One of the given objects, not declared yet: it comes
                // after a blob that is allocated only later.
                ProgramErrorKind::UnknownObject { id, .. } if (id as usize) < names.len() => ProgramError {
                    kind: ProgramErrorKind::UsedBeforeDeclared {
                        name: names[id as usize].clone(),
                    },
                    ..e
                },
                _ => e,
            })?;
        }
        ready(&mut p, &mut pending)?;
        if let Some(o) = pending.next() {
            return Err(p.error_at_object(ProgramErrorKind::NeverAllocated { name: o.name }));
        }
        Ok(p)
    }

    /// The objects, in declaration order (an [`ObjectId`] is an index here).
    pub fn objects(&self) -> &[Object] {
        &self.objects
    }

    /// The commands, in recording order.
    pub fn commands(&self) -> &[Command] {
        &self.commands
    }

    /// The object `id` names, if it is one of this program's.
    pub fn object(&self, id: ObjectId) -> Option<&Object> {
        self.objects.get(id.0 as usize)
    }

    /// The object `id` names, for ids the program was checked to hold.
    pub(crate) fn obj(&self, id: ObjectId) -> &Object {
        &self.objects[id.0 as usize]
    }

    /// Finds an object by name.
    pub fn find(&self, name: &str) -> Option<ObjectId> {
        self.names.get(name).copied()
    }

    fn error_at_object(&self, kind: ProgramErrorKind) -> ProgramError {
        ProgramError {
            at: Location::Object(ObjectId(self.objects.len() as u32)),
            kind,
        }
    }

    fn check_id(&self, id: ObjectId, at: Location) -> Result<&Object, ProgramError> {
        self.object(id).ok_or(ProgramError {
            at,
            kind: ProgramErrorKind::UnknownObject {
                id: id.0,
                count: self.objects.len(),
            },
        })
    }

    /// Declares a buffer or a pool: its name must be valid and new, an
    /// alias's target an object declared before it. Blobs are declared by
    /// [`Program::alloc`], which also allocates them (so that the trace
    /// format, which declares a blob at its `alloc`, can write the program).
    pub fn declare(&mut self, object: Object) -> Result<ObjectId, ProgramError> {
        if let ObjectKind::Blob { .. } = object.kind {
            return Err(self.error_at_object(ProgramErrorKind::BlobWithoutAlloc { name: object.name }));
        }
        self.declare_any(object)
    }

    /// [`Program::declare`] for any kind of object (blobs: their `alloc`
    /// follows at once, from [`Program::alloc`] or the trace parser).
    pub(crate) fn declare_any(&mut self, object: Object) -> Result<ObjectId, ProgramError> {
        if !is_name(&object.name) {
            return Err(self.error_at_object(ProgramErrorKind::BadName { name: object.name }));
        }
        if self.names.contains_key(&object.name) {
            return Err(self.error_at_object(ProgramErrorKind::DuplicateName { name: object.name }));
        }
        let here = Location::Object(ObjectId(self.objects.len() as u32));
        match object.kind {
            ObjectKind::Buffer {
                alias: Some((other, _)),
            } => {
                self.check_id(other, here)?;
            }
            ObjectKind::Blob { pool } => {
                let p = self.check_id(pool, here)?;
                if !matches!(p.kind, ObjectKind::Pool { .. }) {
                    let name = p.name.clone();
                    return Err(self.error_at_object(ProgramErrorKind::NotAPool { name }));
                }
            }
            _ => {}
        }
        let Ok(index) = u32::try_from(self.objects.len()) else {
            return Err(self.error_at_object(ProgramErrorKind::TooManyObjects));
        };
        let id = ObjectId(index);
        std::sync::Arc::make_mut(&mut self.names).insert(object.name.clone(), id);
        std::sync::Arc::make_mut(&mut self.objects).push(object);
        Ok(id)
    }

    /// The image description of an `image`-declared object.
    pub fn image(&self, id: ObjectId) -> Option<&ImageDesc> {
        self.image_slot(id).map(|i| &self.images[i])
    }

    /// The index of `id`'s description in `images`: they are declared in
    /// object order ([`Program::declare_image`] alone adds them), so a
    /// binary search finds it (a scan per lookup made a program of N
    /// images quadratic).
    pub(crate) fn image_slot(&self, id: ObjectId) -> Option<usize> {
        self.images.binary_search_by_key(&id.0, |d| d.object.0).ok()
    }

    /// The `image`-declared objects.
    pub fn images(&self) -> &[ImageDesc] {
        &self.images
    }

    /// The image memory barriers the program's barriers refer to
    /// ([`Barrier::image`]).
    pub fn image_barriers(&self) -> &[ImageBarrier] {
        &self.image_barriers
    }

    /// The image memory barrier a model barrier is part of.
    pub fn image_barrier(&self, r: ImageBarrierRef) -> Option<&ImageBarrier> {
        self.image_barriers.get(r.index())
    }

    /// The image memory barrier `b` is part of, and which part: the
    /// position of `b`'s region among the byte ranges of its subresource
    /// range (0: the first part). `None` for any other barrier, or one
    /// whose region is none of those ranges.
    pub fn image_barrier_part(&self, b: &Barrier) -> Option<(&ImageBarrier, usize)> {
        let ib = self.image_barrier(b.image?)?;
        let region = b.region?;
        let bytes = self.image(ib.image)?.range_bytes(ib.range).ok()?;
        let part = bytes
            .iter()
            .position(|r| region.object == ib.image && *r == region.range)?;
        Some((ib, part))
    }

    /// Records an image memory barrier; give its reference, with each
    /// part's index, to the model barriers over its byte ranges
    /// ([`ImageDesc::range_bytes`]).
    /// `None` when there are already `u32::MAX` of them.
    pub fn add_image_barrier(&mut self, b: ImageBarrier) -> Option<ImageBarrierRef> {
        let r = ImageBarrierRef::new(self.image_barriers.len())?;
        self.image_barriers.push(b);
        Some(r)
    }

    /// Declares an image (`image NAME FORMAT WxHxD mips M layers L
    /// TILING`): an object of its notional size, bound to memory of its
    /// own, or to `alias`'s memory at an offset (which must hold the
    /// notional size).
    #[allow(clippy::too_many_arguments)]
    pub fn declare_image(
        &mut self,
        name: &str,
        format: Format,
        extent: [u32; 3],
        mips: u32,
        layers: u32,
        tiling: Tiling,
        alias: Option<(ObjectId, u64)>,
    ) -> Result<ObjectId, ProgramError> {
        let mut desc = ImageDesc {
            object: ObjectId(self.objects.len() as u32),
            format,
            extent,
            mips,
            layers,
            tiling,
            initial: ImageLayout::UNDEFINED,
            row_pitch: None,
        };
        desc.validate(name)
            .map_err(|e| self.error_at_object(ProgramErrorKind::Image(Box::new(e))))?;
        let size = desc.total_size().unwrap_or(0);
        let id = self.declare(Object {
            name: name.to_string(),
            size,
            kind: ObjectKind::Buffer { alias },
            sharing: SharingMode::Concurrent,
        })?;
        desc.object = id;
        self.images.push(desc);
        Ok(id)
    }

    /// An image barrier's region is byte range `part` of its subresource
    /// range, of an `image`-declared object (what the parser makes).
    /// Its `newLayout` is one an image can be transitioned to
    /// (VUID-VkImageMemoryBarrier2-newLayout-01198).
    pub(crate) fn check_image_barrier(
        &self,
        index: usize,
        b: &Barrier,
    ) -> Result<(), super::image::ImageError> {
        let Some(r) = b.image else { return Ok(()) };
        let Some(ib) = self.image_barrier(r) else {
            return Err(super::image::ImageError::NotAnImage {
                name: format!("image barrier {} (not one of this program's)", r.index()),
            });
        };
        let name = self.object(ib.image).map_or("?".to_string(), |o| o.name.clone());
        let desc = self
            .image(ib.image)
            .ok_or(super::image::ImageError::NotAnImage { name: name.clone() })?;
        let bad = |reason: String| super::image::ImageError::BadSubresource {
            call: "vkCmdPipelineBarrier2".into(),
            what: "subresourceRange".into(),
            image: name.clone(),
            reason,
        };
        desc.range_bytes(ib.range).map_err(bad)?;
        let transition_or_transfer = ib.old_layout != ib.new_layout || b.transfer().is_some();
        if transition_or_transfer
            && matches!(
                ib.new_layout,
                ImageLayout::UNDEFINED | ImageLayout::PREINITIALIZED
            )
        {
            return Err(super::image::ImageError::BadNewLayout {
                index,
                image: name,
                new: ib.new_layout,
            });
        }
        // A transition or transfer names both layouts for the image's
        // usage rules (VUID-VkImageMemoryBarrier2-oldLayout-01208 and its
        // siblings); the usage follows from the format here.
        if transition_or_transfer {
            for (which, layout) in [("oldLayout", ib.old_layout), ("newLayout", ib.new_layout)] {
                if let Some((needs, vuid)) = layout.barrier_format_mismatch(desc.format) {
                    return Err(super::image::ImageError::LayoutFormat {
                        what: format!("barrier {index}: {which}"),
                        layout,
                        image: name,
                        needs,
                        format: desc.format,
                        vuid,
                    });
                }
            }
        }
        // Unconditional: "If the aspectMask member of subresourceRange
        // includes VK_IMAGE_ASPECT_DEPTH_BIT, oldLayout and newLayout must
        // not be one of VK_IMAGE_LAYOUT_STENCIL_ATTACHMENT_OPTIMAL or
        // VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL", and the mirror rule.
        for (which, layout) in [("oldLayout", ib.old_layout), ("newLayout", ib.new_layout)] {
            use crate::vk::image::Aspect;
            let wrong = match layout {
                ImageLayout::STENCIL_ATTACHMENT_OPTIMAL | ImageLayout::STENCIL_READ_ONLY_OPTIMAL => ib
                    .range
                    .aspects
                    .has(Aspect::Depth)
                    .then_some(("stencil", "DEPTH", "VUID-VkImageMemoryBarrier2-aspectMask-08702")),
                ImageLayout::DEPTH_ATTACHMENT_OPTIMAL | ImageLayout::DEPTH_READ_ONLY_OPTIMAL => ib
                    .range
                    .aspects
                    .has(Aspect::Stencil)
                    .then_some(("depth", "STENCIL", "VUID-VkImageMemoryBarrier2-aspectMask-08703")),
                _ => None,
            };
            if let Some((only, aspect, vuid)) = wrong {
                return Err(super::image::ImageError::LayoutAspect {
                    index,
                    which,
                    layout,
                    image: name,
                    only,
                    aspect,
                    vuid,
                });
            }
        }
        if self.image_barrier_part(b).is_none() {
            return Err(bad(format!(
                "the barrier's region is none of the byte ranges of {} (build image barriers with the parser's form)",
                ib.range
            )));
        }
        Ok(())
    }

    /// An image command, checked against this program's images, with the
    /// byte ranges its regions address.
    pub fn image_command(&self, op: super::image::ImageOp) -> Result<Command, ProgramError> {
        ImageCommand::new(self, op)
            .map(|c| Command::Image(Box::new(c)))
            .map_err(|e| ProgramError {
                at: Location::Command(self.commands.len()),
                kind: ProgramErrorKind::Image(Box::new(e)),
            })
    }

    /// A rendering command (`vkCmdBeginRendering`, `vkCmdEndRendering`, a
    /// draw) to append next: checked against this program's objects and
    /// the rendering instance open at its end, with the accesses it makes.
    pub fn render_command(&self, op: super::render::RenderOp) -> Result<Command, ProgramError> {
        RenderCommand::new(self, self.commands.len(), op)
            .map(|c| Command::Render(Box::new(c)))
            .map_err(|e| ProgramError {
                at: Location::Command(self.commands.len()),
                kind: ProgramErrorKind::Render(Box::new(e)),
            })
    }

    /// Declares a buffer with memory of its own.
    pub fn buffer(&mut self, name: &str, size: u64) -> Result<ObjectId, ProgramError> {
        self.declare(Object {
            name: name.to_string(),
            size,
            kind: ObjectKind::Buffer { alias: None },
            sharing: SharingMode::Concurrent,
        })
    }

    /// Declares a buffer bound to `other`'s memory at `offset`.
    pub fn alias(
        &mut self,
        name: &str,
        size: u64,
        other: ObjectId,
        offset: u64,
    ) -> Result<ObjectId, ProgramError> {
        self.declare(Object {
            name: name.to_string(),
            size,
            kind: ObjectKind::Buffer {
                alias: Some((other, offset)),
            },
            sharing: SharingMode::Concurrent,
        })
    }

    /// Declares a pool that blobs are allocated from, at offsets aligned to
    /// `align`.
    pub fn pool(&mut self, name: &str, size: u64, align: u64) -> Result<ObjectId, ProgramError> {
        self.declare(Object {
            name: name.to_string(),
            size,
            kind: ObjectKind::Pool { align },
            sharing: SharingMode::Concurrent,
        })
    }

    /// Sets a buffer's or pool's `VkSharingMode` (a blob has its pool's:
    /// setting one is refused).
    pub fn set_sharing(&mut self, object: ObjectId, sharing: SharingMode) -> Result<(), ProgramError> {
        let o = self.check_id(object, Location::Object(object))?;
        if let ObjectKind::Blob { .. } = o.kind {
            let name = o.name.clone();
            return Err(self.error_at_object(ProgramErrorKind::SharingOfBlob { name }));
        }
        std::sync::Arc::make_mut(&mut self.objects)[object.0 as usize].sharing = sharing;
        Ok(())
    }

    /// Sets the row pitch of linear image `image`
    /// ([`ImageDesc::row_pitch`], `VkSubresourceLayout::rowPitch`), which
    /// moves its rows apart and grows its size; before any command uses
    /// it. Refused where [`ImageDesc::validate`] refuses the pitch.
    pub fn set_row_pitch(&mut self, image: ObjectId, row_pitch: u64) -> Result<(), ProgramError> {
        let o = self.check_id(image, Location::Object(image))?;
        let name = o.name.clone();
        let err = |kind| ProgramError {
            at: Location::Object(image),
            kind: ProgramErrorKind::Image(Box::new(kind)),
        };
        let used = self.commands.iter().any(|c| c.objects().contains(&image));
        let Some(d) = self.image_slot(image).map(|i| &mut self.images[i]) else {
            return Err(err(super::image::ImageError::NotAnImage { name }));
        };
        if used {
            return Err(err(super::image::ImageError::BadImage {
                name,
                reason: "its row pitch is given after a command used it (its bytes would move)".into(),
            }));
        }
        let mut pitched = d.clone();
        pitched.row_pitch = Some(row_pitch);
        pitched.validate(&name).map_err(err)?;
        let size = pitched.total_size().unwrap_or(0);
        *d = pitched;
        std::sync::Arc::make_mut(&mut self.objects)[image.0 as usize].size = size;
        Ok(())
    }

    /// Sets the layout every subresource of image `image` is in when the
    /// program begins ([`ImageDesc::initial`]; `UNDEFINED` unless set).
    /// `PREINITIALIZED` is the other `VkImageCreateInfo::initialLayout`
    /// (VUID-VkImageCreateInfo-initialLayout-00993); any other layout says
    /// that work before the program left the image there.
    pub fn set_initial_layout(&mut self, image: ObjectId, layout: ImageLayout) -> Result<(), ProgramError> {
        let o = self.check_id(image, Location::Object(image))?;
        let name = o.name.clone();
        let Some(d) = self.image_slot(image).map(|i| &mut self.images[i]) else {
            return Err(ProgramError {
                at: Location::Object(image),
                kind: ProgramErrorKind::Image(Box::new(super::image::ImageError::NotAnImage { name })),
            });
        };
        // Work before the program could have left the image in a layout
        // only through a barrier (or an attachment) that names it, so the
        // barrier's usage rule applies.
        if let Some((needs, vuid)) = layout.barrier_format_mismatch(d.format) {
            return Err(ProgramError {
                at: Location::Object(image),
                kind: ProgramErrorKind::Image(Box::new(super::image::ImageError::LayoutFormat {
                    what: "initial layout".into(),
                    layout,
                    image: name,
                    needs,
                    format: d.format,
                    vuid,
                })),
            });
        }
        d.initial = layout;
        Ok(())
    }

    /// An object's sharing mode: its own, or a blob's pool's (blobs are
    /// ranges of their pool's buffer).
    pub(crate) fn sharing_of(&self, object: ObjectId) -> SharingMode {
        match self.obj(object).kind {
            ObjectKind::Blob { pool } => self.obj(pool).sharing,
            _ => self.obj(object).sharing,
        }
    }

    /// Declares a blob of `pool` and appends the `Alloc` that creates it.
    pub fn alloc(&mut self, name: &str, size: u64, pool: ObjectId) -> Result<ObjectId, ProgramError> {
        let id = self.declare_any(Object {
            name: name.to_string(),
            size,
            kind: ObjectKind::Blob { pool },
            sharing: SharingMode::Concurrent,
        })?;
        self.commands.push(Command::Alloc { blob: id });
        Ok(id)
    }

    /// Appends a command, after checking that every object it names is one
    /// of this program's, that no range is reversed, that `alloc`/`free`
    /// name blobs and that a dispatch's kernel name is valid.
    pub fn push(&mut self, command: Command) -> Result<&mut Self, ProgramError> {
        self.check_command(self.commands.len(), &command)?;
        self.commands.push(command);
        Ok(self)
    }

    /// Replaces command `index` (checked as [`Program::push`] checks) and
    /// returns the one it replaces.
    pub fn replace(&mut self, index: usize, command: Command) -> Result<Command, ProgramError> {
        if index >= self.commands.len() {
            return Err(ProgramError {
                at: Location::Command(index),
                kind: ProgramErrorKind::NoSuchCommand {
                    index,
                    count: self.commands.len(),
                },
            });
        }
        self.check_command(index, &command)?;
        if let Command::Alloc { blob } = self.commands[index] {
            return Err(self.removes_alloc(index, blob));
        }
        Ok(std::mem::replace(&mut self.commands[index], command))
    }

    /// The error for removing or replacing the `Alloc` at `index`.
    fn removes_alloc(&self, index: usize, blob: ObjectId) -> ProgramError {
        ProgramError {
            at: Location::Command(index),
            kind: ProgramErrorKind::RemovesAlloc {
                name: self.obj(blob).name.clone(),
            },
        }
    }

    fn check_command(&self, index: usize, command: &Command) -> Result<(), ProgramError> {
        let at = Location::Command(index);
        let err = |kind| ProgramError { at, kind };
        let mut regions: Vec<Region> = Vec::new();
        match command {
            Command::Alloc { blob } => {
                // Every blob was allocated when it was declared.
                let o = self.check_id(*blob, at)?;
                let name = o.name.clone();
                return Err(err(match o.kind {
                    ObjectKind::Blob { .. } => ProgramErrorKind::AllocTwice { name },
                    _ => ProgramErrorKind::NotABlob { name },
                }));
            }
            Command::Free { blob } => {
                let o = self.check_id(*blob, at)?;
                if !matches!(o.kind, ObjectKind::Blob { .. }) {
                    return Err(err(ProgramErrorKind::NotABlob { name: o.name.clone() }));
                }
            }
            Command::Copy { src, dst } | Command::CopyImage { src, dst, .. } => regions.extend([*src, *dst]),
            Command::Image(ic) => {
                for id in ic.op.objects() {
                    self.check_id(id, at)?;
                }
                let again = ImageCommand::new(self, ic.op.clone())
                    .map_err(|e| err(ProgramErrorKind::Image(Box::new(e))))?;
                if again.accesses != ic.accesses {
                    return Err(err(ProgramErrorKind::Image(Box::new(super::image::ImageError::BadSubresource {
                        call: ic.op.vulkan_name().to_string(),
                        what: "its accesses".into(),
                        image: String::new(),
                        reason: "they are not the ones its regions address (build it with Program::image_command)"
                            .into(),
                    }))));
                }
                regions.extend(ic.accesses.iter().map(|(r, _)| *r));
            }
            Command::Render(rc) => {
                for id in rc.op.objects() {
                    self.check_id(id, at)?;
                }
                let again = RenderCommand::new(self, index, rc.op.clone())
                    .map_err(|e| err(ProgramErrorKind::Render(Box::new(e))))?;
                if again.accesses != rc.accesses || again.implicit != rc.implicit {
                    return Err(err(ProgramErrorKind::Render(Box::new(
                        super::render::RenderError::Bad {
                            call: rc.op.vulkan_name(),
                            reason:
                                "its accesses are not the ones its operands and its rendering instance give \
                                 (build it with Program::render_command)"
                                    .into(),
                        },
                    ))));
                }
                regions.extend(rc.accesses.iter().map(|(r, _)| *r));
            }
            Command::Fill { dst, .. } | Command::Update { dst, .. } | Command::HostWrite { dst, .. } => {
                regions.push(*dst)
            }
            Command::HostRead { src } => regions.push(*src),
            Command::Dispatch {
                kernel,
                bindings,
                indirect,
                ..
            } => {
                if !is_kernel_name(kernel) {
                    return Err(err(ProgramErrorKind::BadKernelName { name: kernel.clone() }));
                }
                if bindings.is_empty() {
                    return Err(err(ProgramErrorKind::NoBindings));
                }
                regions.extend(bindings.iter().map(|b| b.region));
                regions.extend(indirect.iter().copied());
            }
            Command::Barrier(dep) => {
                check_dependency_flags(dep).map_err(err)?;
                for (index, b) in dep.barriers.iter().enumerate() {
                    self.check_image_barrier(index, b)
                        .map_err(|e| err(ProgramErrorKind::Image(Box::new(e))))?;
                }
                regions.extend(dep.barriers.iter().filter_map(|b| b.region))
            }
            Command::SetEvent { event, dependency } => {
                let name = self.check_event(*event, at)?.name.clone();
                self.check_event_dependency(&name, dependency).map_err(err)?;
                for (index, b) in dependency.barriers.iter().enumerate() {
                    if (b.src_stage_mask | b.dst_stage_mask).contains(PipelineStageFlags2::HOST) {
                        return Err(err(ProgramErrorKind::EventSetHostStage { name, index }));
                    }
                    self.check_image_barrier(index, b)
                        .map_err(|e| err(ProgramErrorKind::Image(Box::new(e))))?;
                }
                regions.extend(dependency.barriers.iter().filter_map(|b| b.region))
            }
            Command::WaitEvents { waits } => {
                for w in waits {
                    let name = self.check_event(w.event, at)?.name.clone();
                    self.check_event_dependency(&name, &w.dependency).map_err(err)?;
                    for (index, b) in w.dependency.barriers.iter().enumerate() {
                        self.check_image_barrier(index, b)
                            .map_err(|e| err(ProgramErrorKind::Image(Box::new(e))))?;
                    }
                    regions.extend(w.dependency.barriers.iter().filter_map(|b| b.region))
                }
            }
            Command::SetEvent1 { event, stage_mask } => {
                let name = self.check_event(*event, at)?.name.clone();
                check_sync1_flags("vkCmdSetEvent", &[*stage_mask], &[]).map_err(err)?;
                let bits = stage_mask.unnamed_bits() | (*stage_mask & PipelineStageFlags2::HOST).bits();
                if bits != 0 {
                    return Err(err(ProgramErrorKind::EventSet1Stages { name, bits }));
                }
            }
            Command::WaitEvents1 { events, dependency } => {
                if events.is_empty() {
                    return Err(err(ProgramErrorKind::WaitEvents1WithoutEvents));
                }
                for e in events {
                    self.check_event(*e, at)?;
                }
                check_wait1_dependency(dependency).map_err(err)?;
                for (index, b) in dependency.barriers.iter().enumerate() {
                    self.check_image_barrier(index, b)
                        .map_err(|e| err(ProgramErrorKind::Image(Box::new(e))))?;
                }
                regions.extend(dependency.barriers.iter().filter_map(|b| b.region))
            }
            Command::ResetEvent { event, stages } => {
                let name = self.check_event(*event, at)?.name.clone();
                let bits = stages.unnamed_bits() | (*stages & PipelineStageFlags2::HOST).bits();
                if bits != 0 {
                    return Err(err(ProgramErrorKind::BadResetStages { name, bits }));
                }
            }
            Command::HostSetEvent { event } | Command::HostResetEvent { event } => {
                self.check_event(*event, at)?;
            }
            Command::Submit(s) => {
                self.check_queue(s.queue, at)?;
                for w in &s.waits {
                    self.check_semaphore_op(w.semaphore, w.value.is_some(), w.stages, at)?;
                }
                for sig in &s.signals {
                    self.check_semaphore_op(sig.semaphore, sig.value.is_some(), sig.stages, at)?;
                }
            }
            Command::Wait(WaitFor::All) => {}
            Command::Wait(WaitFor::Queue(q)) => self.check_queue(*q, at)?,
            Command::HostSignal { semaphore, .. } | Command::HostWait { semaphore, .. } => {
                let s = self.check_sem_id(*semaphore, at)?;
                if s.kind == SemaphoreType::Binary {
                    return Err(err(ProgramErrorKind::HostOpOnBinarySemaphore {
                        keyword: command.keyword(),
                        name: s.name.clone(),
                    }));
                }
            }
        }
        for r in regions {
            self.check_id(r.object, at)?;
            if r.range.start > r.range.end {
                return Err(err(ProgramErrorKind::ReversedRange { range: r.range }));
            }
        }
        Ok(())
    }

    fn check_event(&self, id: EventId, at: Location) -> Result<&Event, ProgramError> {
        self.events.get(id.0 as usize).ok_or(ProgramError {
            at,
            kind: ProgramErrorKind::UnknownEvent {
                id: id.0,
                count: self.events.len(),
            },
        })
    }

    /// An event's dependency info: named flags, at least one barrier. (A
    /// layout transition is performed at the set; a wait for a host set
    /// with one is refused by [`super::event::EventStates::wait`].)
    fn check_event_dependency(&self, name: &str, dep: &Dependency) -> Result<(), ProgramErrorKind> {
        check_dependency_flags(dep)?;
        if dep.barriers.is_empty() {
            return Err(ProgramErrorKind::EventWithoutBarriers {
                name: name.to_string(),
            });
        }
        Ok(())
    }

    fn check_queue(&self, q: QueueId, at: Location) -> Result<(), ProgramError> {
        if (q.0 as usize) < self.queue_count() {
            return Ok(());
        }
        Err(ProgramError {
            at,
            kind: ProgramErrorKind::UnknownQueue {
                id: q.0,
                count: self.queue_count(),
            },
        })
    }

    fn check_sem_id(&self, id: SemaphoreId, at: Location) -> Result<&Semaphore, ProgramError> {
        self.semaphores.get(id.0 as usize).ok_or(ProgramError {
            at,
            kind: ProgramErrorKind::UnknownSemaphore {
                id: id.0,
                count: self.semaphores.len(),
            },
        })
    }

    /// A semaphore wait or signal of a submission: a semaphore of this
    /// program, a value exactly when it is a timeline one, and a stage
    /// mask with names and without `HOST` (a queue operation's stage
    /// mask "must not include VK_PIPELINE_STAGE_HOST_BIT",
    /// VUID-VkSubmitInfo-pWaitDstStageMask-00078; the same for
    /// `VkSemaphoreSubmitInfo::stageMask`).
    fn check_semaphore_op(
        &self,
        id: SemaphoreId,
        has_value: bool,
        stages: PipelineStageFlags2,
        at: Location,
    ) -> Result<(), ProgramError> {
        let s = self.check_sem_id(id, at)?;
        let name = s.name.clone();
        let kind = match (s.kind, has_value) {
            (SemaphoreType::Binary, true) => Some(ProgramErrorKind::ValueOnBinarySemaphore { name }),
            (SemaphoreType::Timeline { .. }, false) => Some(ProgramErrorKind::TimelineValueMissing { name }),
            _ => {
                let bits = stages.unnamed_bits() | (stages & PipelineStageFlags2::HOST).bits();
                (bits != 0).then_some(ProgramErrorKind::BadSemaphoreStages { name, bits })
            }
        };
        match kind {
            Some(kind) => Err(ProgramError { at, kind }),
            None => Ok(()),
        }
    }

    /// The declared queues, in declaration order (a [`QueueId`] is an
    /// index here). Empty when the program declares none: then it has one
    /// implicit queue, `QueueId(0)`, of family 0.
    pub fn queues(&self) -> &[Queue] {
        &self.queues
    }

    /// The number of queues: the declared ones, or 1 (the implicit one).
    pub fn queue_count(&self) -> usize {
        self.queues.len().max(1)
    }

    /// The declared semaphores (a [`SemaphoreId`] is an index here).
    pub fn semaphores(&self) -> &[Semaphore] {
        &self.semaphores
    }

    /// A queue's name for messages: its declared name, or `queue` for the
    /// implicit one.
    pub fn queue_name(&self, q: QueueId) -> &str {
        self.queues.get(q.0 as usize).map_or("queue", |x| x.name.as_str())
    }

    /// A semaphore's name (`?` for an id that is not this program's).
    pub fn semaphore_name(&self, s: SemaphoreId) -> &str {
        self.semaphores.get(s.0 as usize).map_or("?", |x| x.name.as_str())
    }

    /// Finds a declared queue by name.
    pub fn find_queue(&self, name: &str) -> Option<QueueId> {
        self.queue_names.get(name).copied()
    }

    /// The declared events (an [`EventId`] is an index here).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The declared render passes, in declaration order.
    pub fn render_passes(&self) -> &[super::renderpass::RenderPass] {
        &self.render_passes
    }

    /// Declares a render pass, checked by
    /// [`super::renderpass::RenderPass::validate`] (and its name unique
    /// among render passes).
    pub fn render_pass(
        &mut self,
        rp: super::renderpass::RenderPass,
    ) -> Result<super::renderpass::RenderPassId, super::renderpass::RenderPassError> {
        if self.render_passes.iter().any(|r| r.name == rp.name) {
            return Err(super::renderpass::RenderPassError::Invalid {
                pass: rp.name,
                what: "the name is already declared".into(),
                vuid: "a render pass name is declared once",
            });
        }
        rp.validate()?;
        self.render_passes.push(rp);
        Ok(super::renderpass::RenderPassId(
            self.render_passes.len() as u32 - 1,
        ))
    }

    /// An event's name (`?` for an id that is not this program's).
    pub fn event_name(&self, e: EventId) -> &str {
        self.events.get(e.0 as usize).map_or("?", |x| x.name.as_str())
    }

    /// Finds an event by name.
    pub fn find_event(&self, name: &str) -> Option<EventId> {
        self.event_names.get(name).copied()
    }

    /// Declares an event (`event NAME`). Names follow the rules for queue
    /// names, unique among events.
    pub fn event(&mut self, name: &str) -> Result<EventId, ProgramError> {
        let id = EventId(self.events.len() as u32);
        let at = Location::Event(id);
        self.check_sync_name(name, self.find_event(name).is_some(), at)?;
        self.events.push(Event {
            name: name.to_string(),
        });
        self.event_names.insert(name.to_string(), id);
        Ok(id)
    }

    /// The index of the first command that uses an event (set, wait or
    /// reset, on the device or the host), and what it is.
    pub fn first_event_command(&self) -> Option<(usize, String)> {
        self.commands.iter().enumerate().find_map(|(i, c)| {
            matches!(
                c,
                Command::SetEvent { .. }
                    | Command::WaitEvents { .. }
                    | Command::SetEvent1 { .. }
                    | Command::WaitEvents1 { .. }
                    | Command::ResetEvent { .. }
                    | Command::HostSetEvent { .. }
                    | Command::HostResetEvent { .. }
            )
            .then(|| (i, format!("`{}` ({})", c.keyword(), c.vulkan_name())))
        })
    }

    /// Finds a semaphore by name.
    pub fn find_semaphore(&self, name: &str) -> Option<SemaphoreId> {
        self.semaphore_names.get(name).copied()
    }

    /// Declares a queue (`queue NAME family FAMILY`). The first declared
    /// queue is `QueueId(0)`, the queue a plain `submit` goes to. Names
    /// follow the rules for object names, are unique among queues, and may
    /// not be `wait` or `signal` (the keywords of `submit`).
    pub fn queue(&mut self, name: &str, family: u32) -> Result<QueueId, ProgramError> {
        let id = QueueId(self.queues.len() as u32);
        let at = Location::Queue(id);
        self.check_sync_name(name, self.find_queue(name).is_some(), at)?;
        self.queues.push(Queue {
            name: name.to_string(),
            family,
        });
        self.queue_names.insert(name.to_string(), id);
        Ok(id)
    }

    /// Declares a semaphore, binary or timeline (with its initial value).
    /// Names follow the rules for queue names, unique among semaphores.
    pub fn semaphore(&mut self, name: &str, kind: SemaphoreType) -> Result<SemaphoreId, ProgramError> {
        let id = SemaphoreId(self.semaphores.len() as u32);
        let at = Location::Semaphore(id);
        self.check_sync_name(name, self.find_semaphore(name).is_some(), at)?;
        self.semaphores.push(Semaphore {
            name: name.to_string(),
            kind,
        });
        self.semaphore_names.insert(name.to_string(), id);
        Ok(id)
    }

    /// Removes the declared queues and semaphores with their name maps (a
    /// planner's part that declares its own).
    pub(crate) fn clear_queues_and_semaphores(&mut self) {
        self.queues.clear();
        self.queue_names.clear();
        self.set_semaphores(Vec::new());
    }

    /// Replaces the declared semaphores (a planner that declares its own),
    /// keeping the name map derived from them.
    pub(crate) fn set_semaphores(&mut self, semaphores: Vec<Semaphore>) {
        self.semaphore_names = semaphores
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.clone(), SemaphoreId(i as u32)))
            .collect();
        self.semaphores = semaphores;
    }

    fn check_sync_name(&self, name: &str, taken: bool, at: Location) -> Result<(), ProgramError> {
        let name = name.to_string();
        let kind = if !is_name(&name) {
            ProgramErrorKind::BadName { name }
        } else if is_reserved_sync_name(&name) {
            ProgramErrorKind::ReservedName { name }
        } else if taken {
            ProgramErrorKind::DuplicateName { name }
        } else {
            return Ok(());
        };
        Err(ProgramError { at, kind })
    }

    /// The index of the first command that needs the multi-queue model
    /// (a submit to a queue other than the first, or with a semaphore; a
    /// `wait` on a queue other than the first; `host-signal`;
    /// `host-wait`; a barrier that transfers queue family ownership), and
    /// what it is. `wait QUEUE` on the first queue is
    /// modelled: before any submit to another queue it waits for the same
    /// submissions as `wait`.
    pub fn first_multi_queue_command(&self) -> Option<(usize, String)> {
        self.commands.iter().enumerate().find_map(|(i, c)| {
            let what = match c {
                Command::Submit(s) if s.queue != QueueId(0) => {
                    format!("a submit to queue `{}`", self.queue_name(s.queue))
                }
                Command::Submit(s) if !s.is_plain() => "a submit with semaphores".to_string(),
                Command::Wait(WaitFor::Queue(q)) if *q != QueueId(0) => {
                    format!("a wait for queue `{}`", self.queue_name(*q))
                }
                Command::HostSignal { .. } | Command::HostWait { .. } => {
                    format!("`{}` ({})", c.keyword(), c.vulkan_name())
                }
                Command::Barrier(d) if d.barriers.iter().any(|b| b.transfer().is_some()) => {
                    "a queue family ownership transfer".to_string()
                }
                _ => return None,
            };
            Some((i, what))
        })
    }

    /// The queue family of queue `q` (the implicit queue's is 0).
    pub fn queue_family(&self, q: QueueId) -> u32 {
        self.queues.get(q.0 as usize).map_or(0, |queue| queue.family)
    }

    /// The queue that executes each command: the queue of the next
    /// `submit` (the first queue for commands recorded after the last
    /// one). Host commands get one too; it means nothing for them.
    pub(crate) fn command_queues(&self) -> Vec<QueueId> {
        let mut out = vec![QueueId(0); self.commands.len()];
        let mut next = QueueId(0);
        for (i, c) in self.commands.iter().enumerate().rev() {
            if let Command::Submit(s) = c {
                next = s.queue;
            }
            out[i] = next;
        }
        out
    }

    /// Refuses a program that uses what the planners, the layer emulation,
    /// the tracker and the runtime do not model yet: several queues,
    /// semaphores ([`Program::first_multi_queue_command`], refused with
    /// [`ProgramErrorKind::MultiQueueNotSupported`] at that command), and
    /// events ([`Program::first_event_command`],
    /// [`ProgramErrorKind::EventsNotSupported`]). The definitional
    /// semantics ([`crate::spec::races`]) decides such programs, and
    /// [`crate::check`] all but a few corners.
    pub fn require_single_queue(&self) -> Result<(), ProgramError> {
        if let Some((i, what)) = self.first_multi_queue_command() {
            return Err(ProgramError {
                at: Location::Command(i),
                kind: ProgramErrorKind::MultiQueueNotSupported { what },
            });
        }
        match self.first_event_command() {
            Some((i, what)) => Err(ProgramError {
                at: Location::Command(i),
                kind: ProgramErrorKind::EventsNotSupported { what },
            }),
            None => Ok(()),
        }
    }

    /// Appends commands in order, each checked as [`Program::push`] does;
    /// stops at the first refused one.
    pub fn extend(&mut self, commands: impl IntoIterator<Item = Command>) -> Result<&mut Self, ProgramError> {
        for c in commands {
            self.push(c)?;
        }
        Ok(self)
    }

    /// Drops every command from index `len` on (objects stay declared).
    /// Refused, changing nothing, when one of them is a blob's `alloc`:
    /// that is the blob's declaration, and a blob without it could not be
    /// printed, allocated again or resolved.
    pub fn truncate(&mut self, len: usize) -> Result<(), ProgramError> {
        let first_alloc = self
            .commands
            .iter()
            .enumerate()
            .skip(len)
            .find_map(|(i, c)| match c {
                Command::Alloc { blob } => Some((i, *blob)),
                _ => None,
            });
        if let Some((i, blob)) = first_alloc {
            return Err(self.removes_alloc(i, blob));
        }
        self.commands.truncate(len);
        Ok(())
    }

    /// A region of an object.
    pub fn region(&self, object: ObjectId, start: u64, end: u64) -> Region {
        Region {
            object,
            range: ByteRange::new(start, end),
        }
    }

    /// The whole of an object (empty for an id that is not this
    /// program's, which [`Program::push`] then refuses).
    pub fn whole(&self, object: ObjectId) -> Region {
        Region {
            object,
            range: ByteRange::new(0, self.object(object).map_or(0, |o| o.size)),
        }
    }

    /// The object whose memory `region` is bound to and its bytes there,
    /// following aliases (`alias OTHER OFFSET`, an image's included);
    /// `None` for a blob (placed by the allocator: [`crate::resolve`]) or
    /// an object of another program.
    pub(crate) fn bound_range(&self, region: Region) -> Option<(ObjectId, ByteRange)> {
        let (mut at, mut offset) = (region.object, 0u64);
        // Aliases point at earlier objects: the chain ends.
        for _ in 0..self.objects.len() {
            match self.object(at)?.kind {
                ObjectKind::Buffer {
                    alias: Some((other, o)),
                } => {
                    offset = offset.checked_add(o)?;
                    at = other;
                }
                ObjectKind::Blob { .. } => return None,
                _ => {
                    let start = offset.checked_add(region.range.start)?;
                    let end = offset.checked_add(region.range.end)?;
                    return Some((at, ByteRange::new(start, end)));
                }
            }
        }
        None
    }

    /// Whether `object` is an image of optimal tiling.
    pub(crate) fn is_optimal_image(&self, object: ObjectId) -> bool {
        self.image(object)
            .is_some_and(|d| d.tiling == super::image::Tiling::Optimal)
    }

    /// `region` as a region of another object `other` meets it in memory:
    /// for an optimal image, the whole image ("Memory Aliasing": "When a
    /// non-linear ... image is bound to an aliased range, all image
    /// subresources of the image overlap the range"; its own regions meet
    /// at their notional bytes); otherwise `region`.
    pub(crate) fn against(&self, region: Region, other: ObjectId) -> Region {
        if region.object != other && self.is_optimal_image(region.object) {
            self.whole(region.object)
        } else {
            region
        }
    }

    /// Renders a region as `NAME[A..B]`.
    pub fn show_region(&self, region: Region) -> String {
        let name = self.object(region.object).map_or("?", |o| o.name.as_str());
        if let Some(d) = self.image(region.object) {
            // An image's notional bytes mean nothing to its author: name
            // the subresources.
            return format!("{name}[{}]", d.describe(region.range));
        }
        format!("{name}[{}]", region.range)
    }

    /// The index of the first command whose barriers perform an image
    /// layout transition, if any: what the planners and the runtime, which
    /// do not handle transitions, refuse.
    pub fn first_layout_transition(&self) -> Option<usize> {
        self.commands.iter().position(|c| match c {
            Command::Barrier(d) => d.barriers.iter().any(|b| b.transition),
            // A render pass's automatic layout transitions.
            Command::Render(rc) => rc.pre_barriers().iter().any(|b| b.transition),
            _ => false,
        })
    }

    /// The number of `Barrier` commands (barrier points).
    pub fn barrier_points(&self) -> usize {
        self.commands
            .iter()
            .filter(|c| matches!(c, Command::Barrier(d) if !d.barriers.is_empty()))
            .count()
    }

    /// The total number of stage and access bits over all barriers, an
    /// image memory barrier counted once (its parts over several byte
    /// ranges, [`Barrier::image`], are one `VkImageMemoryBarrier2`: the
    /// bits of the part with the most).
    pub fn barrier_bits(&self) -> u64 {
        self.commands
            .iter()
            .filter_map(|c| match c {
                Command::Barrier(d) => Some(d),
                _ => None,
            })
            .map(|d| {
                d.barriers
                    .iter()
                    .enumerate()
                    .filter(|(j, b)| {
                        b.image
                            .is_none_or(|r| !d.barriers[..*j].iter().any(|x| x.image == Some(r)))
                    })
                    .map(|(_, b)| match b.image {
                        None => u64::from(b.bit_count()),
                        Some(r) => d
                            .barriers
                            .iter()
                            .filter(|x| x.image == Some(r))
                            .map(|x| u64::from(x.bit_count()))
                            .max()
                            .unwrap_or(0),
                    })
                    .sum::<u64>()
            })
            .sum()
    }

    /// The program with every barrier removed.
    pub fn without_barriers(&self) -> Program {
        Program {
            objects: self.objects.clone(),
            commands: self
                .commands
                .iter()
                .filter(|c| !matches!(c, Command::Barrier(_)))
                .cloned()
                .collect(),
            names: self.names.clone(),
            queues: self.queues.clone(),
            queue_names: self.queue_names.clone(),
            semaphores: self.semaphores.clone(),
            semaphore_names: self.semaphore_names.clone(),
            events: self.events.clone(),
            event_names: self.event_names.clone(),
            images: self.images.clone(),
            image_barriers: self.image_barriers.clone(),
            render_passes: self.render_passes.clone(),
            layouts_unchecked: self.layouts_unchecked,
        }
    }

    /// The same objects with other commands (from the crate's own
    /// transformations of a checked program).
    pub(crate) fn with_commands(&self, commands: Vec<Command>) -> Program {
        Program {
            objects: self.objects.clone(),
            commands,
            names: self.names.clone(),
            queues: self.queues.clone(),
            queue_names: self.queue_names.clone(),
            semaphores: self.semaphores.clone(),
            semaphore_names: self.semaphore_names.clone(),
            events: self.events.clone(),
            event_names: self.event_names.clone(),
            images: self.images.clone(),
            image_barriers: self.image_barriers.clone(),
            render_passes: self.render_passes.clone(),
            layouts_unchecked: self.layouts_unchecked,
        }
    }
}
