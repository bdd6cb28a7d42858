//! Incremental planning for a runtime that records commands as it goes
//! ([`Tracker`]), and its stateless special case ([`barrier_between`]).
//!
//! **What it covers**: buffers, aliases, pools and the blobs carved from
//! them; images with their subresources and layouts (module `images`:
//! each use names its subresources and the layout it needs, and the
//! tracker answers with the layout transitions, [`Needs::image_barriers`]);
//! copies, clears, dispatches (storage, uniform, sampled and indirect
//! reads) and host reads and writes; submits and host waits (fences,
//! `vkQueueWaitIdle`, timeline values); and several queues of several
//! families, with binary and timeline semaphores and queue family
//! ownership transfers of exclusive buffers (module `queues`). **Not
//! covered** (use a whole [`crate::Program`] and [`crate::check`] or
//! [`crate::plan`]): rendering, events, images aliasing other memory or
//! shared with ownership transfers (an image is concurrent or used by one
//! family), linear images the host maps, and the layer emulation
//! switches.
//!
//! A runtime (ncnn, ggml-vulkan and Kompute record this way) declares its
//! buffers, pools and blobs as it creates them, and before recording each
//! command hands the tracker that command's accesses (resource, byte range,
//! stage, access). The tracker answers with the barrier to record before
//! the command (or none), with the fewest bits for what the command needs,
//! and whether a host access needs a submit and a fence wait first; it then
//! counts the command as recorded. It is the online planner
//! ([`crate::plan::PlannerKind::Online`]) run one command at a time, on the
//! same code: over a program, the two give the same barriers.
//!
//! With several queues ([`Tracker::queue`]), each command names its queue
//! ([`Tracker::command_on`]) and gets the barrier it needs *on that queue*
//! (each queue is planned by its own online planner, as the multi-queue
//! planner plans each queue as a single-queue part); each submit
//! ([`Tracker::submit_on`]) gets what it must wait for: a semaphore wait on
//! a pending binary signal of the queue whose submitted work it conflicts
//! with, or, where no such signal is pending, a host wait for that queue
//! before the submit ([`SubmitNeeds`]). Semaphore operations are validated
//! by the model's own rules (`crate::ir::queue`, `crate::ir::completion`),
//! and what a submit is ordered after is the account of
//! `crate::ir::completion` (one home for both).
//!
//! Every call is validated and fails with a [`TrackerError`] naming the
//! call and the reason; nothing panics on bad input. A resource id
//! ([`TrackedId`]) carries its tracker's identity and a generation, both
//! checked on every call (in debug and release): an id of another tracker
//! ([`TrackerError::ForeignResource`]) or of a freed blob
//! ([`TrackerError::Freed`]) is refused. The identity is a 64-bit value
//! drawn when the tracker is made (from the standard library's
//! `RandomState`, whose keys are random per thread and move on with each
//! use, so two trackers of one thread never share one; the crate keeps no
//! state of its own), plus the owner tag the caller may give
//! ([`Tracker::with_owner`], 0 by default), which is what messages print.
//! A clone of a tracker keeps its identity: the two accept each other's
//! ids, which is the limit of the scheme.
//!
//! Each access costs
//! O(log n + k): a lookup among the n distinct byte ranges the tracker
//! holds, then a step for each of the k ranges the access overlaps. Ranges
//! do not merge while they hold different writers (each remembers its
//! writing command), so a buffer written in many small pieces and then
//! accessed whole costs one step per piece, every time: 40,000 16-byte
//! writes followed by 40,000 whole reads take about 0.9 ms per read.
//! With several queues, each access also joins its batch's list of
//! touched ranges, and a submit compares that list with the batches of
//! other queues that the host does not know complete (linear in them; a
//! host wait drops the batches it completes). A tracker with one queue
//! keeps no such list and pays nothing for it.
//! Resources are never forgotten: every `alloc` keeps a few dozen bytes
//! (about 84) until the tracker is dropped, so a runtime that allocates
//! millions of blobs should start a new tracker at a quiet point (after a
//! fence wait, when nothing is in flight).
//! The tracker assumes the runtime records exactly the barriers it returns
//! (no others) and submits and waits when told; [`Tracker::submit`] and
//! [`Tracker::wait`] tell it about the runtime's own submits and waits.
//!
//! **Images.** A use of an image in another layout than its
//! subresources are in gets an image memory barrier per run of
//! subresources of one old layout ([`TrackedImageBarrier`], every aspect
//! of the format), in the command's `vkCmdPipelineBarrier2` beside its
//! other barriers. Its first scope is what the transition's write needs
//! (every earlier access of those subresources not ordered before it yet,
//! thinned bit by bit: no stage or access in it can go), its second scope
//! the command's accesses of them; a later access by another stage gets a
//! barrier that chains out of that second scope (the transition's write
//! is available at once, `docs/semantics.md`, "Image layout
//! transitions"). The layouts are the tracker's to change: a runtime that
//! records image barriers of its own should not track that image.
//! Layouts the image's format cannot be in, and the layouts of one depth or
//! stencil aspect alone, are refused ([`TrackerError::LayoutForFormat`]).
//! With [`BarrierForm::Buffer`], a barrier over an image's bytes is a
//! global one (no `VkBuffer` holds them). With several queues, the tracker
//! decides layouts in recording order while batches execute in submission
//! order: a command that relies on a transition another queue recorded
//! and has not submitted, or that transitions what another queue's
//! unsubmitted batch uses, is refused ([`TrackerError::QueueOrder`], naming
//! the queue to submit first). Not minimal everywhere: a barrier the
//! command needs beside its transitions is placed when the transitions do
//! not meet its requirement as a whole, though they may piece by piece
//! (one earlier write ordered differently on two subresources: review30).
//! `model/tests/tracker_images.rs` records what the tracker asks for as a
//! trace and checks it with the model's layout rules, the fast checker and
//! the definitional semantics, and every stage of every first scope
//! needed.

mod images;
mod queues;

pub use images::{ImageUse, TrackedImageBarrier, TrackedImageInfo};
pub use queues::{NeededWait, QueueNeeds, SubmitNeeds};

use crate::ir::access::Access;
use crate::ir::image::SubresourceRange;
use crate::ir::layout::{BlobAllocator, Layout, MemId, ProgramErrorKind};
use crate::ir::program::{Barrier, ByteRange, Dependency, ObjectId, Region};
use crate::ir::queue::{QueueId, SemaphoreId, SemaphoreType, Submission};
use crate::plan::BarrierForm;
use crate::semantics::{Reading, Semantics};
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::image::{Format, ImageLayout};
use crate::vk::scope::{Stage, StageAccess};
use std::fmt;

/// A resource (buffer, alias, pool, blob or image) as a [`Tracker`]
/// handed it out: its index, the tracker's identity and owner tag, and the
/// resource's generation (a freed blob's generation moves on, so its old
/// id is refused).
/// Barriers name the resource by [`TrackedId::object`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TrackedId {
    index: u32,
    owner: u32,
    generation: u32,
    /// The handing tracker's identity (not printed: it differs run to run).
    instance: u64,
}

impl TrackedId {
    /// The object id the tracker's barriers name in their regions
    /// ([`Barrier::region`]), for buffer barriers.
    pub fn object(self) -> ObjectId {
        ObjectId(self.index)
    }

    /// The owner tag of the tracker that handed it out.
    pub fn owner(self) -> u32 {
        self.owner
    }

    /// The generation of the resource it was handed out at.
    pub fn generation(self) -> u32 {
        self.generation
    }
}

impl fmt::Display for TrackedId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "resource {} (tracker {}, generation {})",
            self.index, self.owner, self.generation
        )
    }
}

/// One access of a command, as a runtime describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrackedAccess {
    /// The buffer, pool or blob (as the tracker returned it).
    pub resource: TrackedId,
    /// The bytes, relative to the resource's start; `None` for all of it.
    pub range: Option<ByteRange>,
    /// One stage flag: `COPY`, `CLEAR`, `BLIT`, `RESOLVE`,
    /// `COMPUTE_SHADER`, `DRAW_INDIRECT` or `HOST`.
    pub stage: PipelineStageFlags2,
    /// One access flag the stage makes (`TRANSFER_READ`,
    /// `SHADER_STORAGE_WRITE`, `INDIRECT_COMMAND_READ`, `HOST_WRITE`, ...).
    pub access: AccessFlags2,
    /// For an image ([`Tracker::image`]): the subresources and the layout
    /// the command needs them in (`range` is then `None`); `None` for a
    /// buffer, pool or blob.
    pub image: Option<ImageUse>,
}

impl TrackedAccess {
    /// `stage`/`access` over all of `resource`.
    pub fn whole(resource: TrackedId, stage: PipelineStageFlags2, access: AccessFlags2) -> Self {
        TrackedAccess {
            resource,
            range: None,
            stage,
            access,
            image: None,
        }
    }

    /// `stage`/`access` over `range` of `resource`.
    pub fn range(
        resource: TrackedId,
        range: ByteRange,
        stage: PipelineStageFlags2,
        access: AccessFlags2,
    ) -> Self {
        TrackedAccess {
            resource,
            range: Some(range),
            stage,
            access,
            image: None,
        }
    }

    /// `stage`/`access` of `subresources` of image `resource`, which the
    /// command needs in `layout`: a transfer command's source
    /// (`TRANSFER_SRC_OPTIMAL` or `GENERAL`) or destination
    /// (`TRANSFER_DST_OPTIMAL` or `GENERAL`), a storage image (`GENERAL`),
    /// a sampled image (`GENERAL` or a read-only layout).
    pub fn image(
        resource: TrackedId,
        subresources: SubresourceRange,
        layout: ImageLayout,
        stage: PipelineStageFlags2,
        access: AccessFlags2,
    ) -> Self {
        TrackedAccess {
            resource,
            range: None,
            stage,
            access,
            image: Some(ImageUse { subresources, layout }),
        }
    }
}

/// What to record before a command.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Needs {
    /// The barriers of one `vkCmdPipelineBarrier2` on the command's queue
    /// (a host command on a tracker with one queue: on that queue); empty:
    /// no barrier. An ownership acquire comes first among them.
    pub barriers: Vec<Barrier>,
    /// The image memory barriers of the same `vkCmdPipelineBarrier2`:
    /// the layout transitions the command's image uses need.
    pub image_barriers: Vec<TrackedImageBarrier>,
    /// Submit what was recorded and wait for it on a fence after the
    /// barriers, before the command (a host access after device work, on
    /// a tracker with one queue).
    pub submit_and_wait: bool,
    /// What other queues need first, in order: for a host command on a
    /// tracker with several queues, per queue the barrier to record, the
    /// submit (with what it waits for) and the fence wait the host access
    /// needs; for a device command that takes an exclusive resource from
    /// another queue family, the release barrier to record on the queue
    /// that last used it, which must be submitted before this command's
    /// queue is.
    pub queues: Vec<QueueNeeds>,
}

impl Needs {
    /// The trace format's `barrier` line for [`Needs::barriers`] and
    /// [`Needs::image_barriers`] (one `vkCmdPipelineBarrier2`), each
    /// resource named by `name`; `None` when there is no barrier. A
    /// tracker's user can log it, or write what it records as a trace for
    /// `vksync check` (`model/examples/tracker_images.rs` does).
    ///
    /// ```
    /// use vksync::{AccessFlags2 as A, PipelineStageFlags2 as S, TrackedAccess, Tracker};
    /// let mut t = Tracker::new();
    /// let buf = t.buffer(256)?;
    /// t.command(&[TrackedAccess::whole(buf, S::COPY, A::TRANSFER_WRITE)])?;
    /// let needs = t.command(&[TrackedAccess::whole(buf, S::COMPUTE_SHADER, A::SHADER_STORAGE_READ)])?;
    /// let line = needs.barrier_line(|_| "weights".to_string());
    /// assert_eq!(line.as_deref(), Some("barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ"));
    /// # Ok::<(), vksync::TrackerError>(())
    /// ```
    pub fn barrier_line(&self, name: impl Fn(ObjectId) -> String) -> Option<String> {
        let mut parts: Vec<String> = self
            .barriers
            .iter()
            .map(|b| b.text_with(|r| format!("{}[{}]", name(r.object), r.range)))
            .collect();
        parts.extend(
            self.image_barriers
                .iter()
                .map(|b| b.describe(&name(b.image.object()))),
        );
        (!parts.is_empty()).then(|| format!("barrier {}", parts.join("; ")))
    }

    /// Whether nothing is needed.
    pub fn is_empty(&self) -> bool {
        self.barriers.is_empty()
            && self.image_barriers.is_empty()
            && !self.submit_and_wait
            && self.queues.is_empty()
    }
}

/// Why a tracker call was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TrackerError {
    /// A size of 0.
    #[error("{what}: size 0")]
    ZeroSize {
        /// The call.
        what: &'static str,
    },
    /// A pool alignment that is not a power of two.
    #[error("pool: alignment {align} is not a power of two")]
    BadAlign {
        /// The alignment given.
        align: u64,
    },
    /// A resource index this tracker did not hand out (with its tag).
    #[error("{what}: {id} is not one of this tracker's ({count} so far)")]
    UnknownResource {
        /// The call.
        what: &'static str,
        /// The id given.
        id: TrackedId,
        /// How many resources the tracker has.
        count: usize,
    },
    /// A resource another tracker handed out (another identity, or another
    /// owner tag).
    #[error("{what}: {id} belongs to another tracker (this one is tracker {owner})")]
    ForeignResource {
        /// The call.
        what: &'static str,
        /// The id given.
        id: TrackedId,
        /// This tracker's owner tag.
        owner: u32,
    },
    /// `alloc` from something that is not a pool.
    #[error("alloc: {id} is not a pool")]
    NotAPool {
        /// The id given.
        id: TrackedId,
    },
    /// `free` or `offset` of something that is not a blob.
    #[error(
        "{what}: {id} is not a blob (only a blob allocated from a pool has an offset in it and is freed)"
    )]
    NotABlob {
        /// The call.
        what: &'static str,
        /// The id given.
        id: TrackedId,
    },
    /// An alias past the end of what it aliases.
    #[error("alias: {offset}..{offset}+{size} is past the end of {of} (size {of_size})")]
    AliasOutOfBounds {
        /// The resource aliased.
        of: TrackedId,
        /// The alias's offset in it.
        offset: u64,
        /// The alias's size.
        size: u64,
        /// The aliased resource's size.
        of_size: u64,
    },
    /// An alias of a blob (alias the pool instead: a blob's memory changes
    /// hands).
    #[error("alias: {of} is a blob; alias its pool at the blob's offset instead")]
    AliasOfBlob {
        /// The blob given.
        of: TrackedId,
    },
    /// An alias of an image (the tracker keeps an image's memory its own).
    #[error("alias: {of} is an image; the tracker does not alias images with buffers")]
    AliasOfImage {
        /// The image given.
        of: TrackedId,
    },
    /// An image description `VkImageCreateInfo` would refuse.
    #[error("image: {reason}")]
    BadImage {
        /// Why (the rule and its VUID).
        reason: String,
    },
    /// An image use ([`TrackedAccess::image`]) of something that is not an
    /// image.
    #[error("command: access {index}: {id} is not an image, so it has no subresources or layout: give a byte range (TrackedAccess::range or whole)")]
    NotAnImage {
        /// The access's index in the command.
        index: usize,
        /// The resource.
        id: TrackedId,
    },
    /// An access of an image without its subresources and layout.
    #[error("command: access {index}: {id} is an image: name its subresources and the layout the command needs them in (TrackedAccess::image)")]
    ImageWithoutUse {
        /// The access's index in the command.
        index: usize,
        /// The image.
        id: TrackedId,
    },
    /// A subresource range outside the image, or a byte range beside it.
    #[error("command: access {index}: {id}: {reason}")]
    BadSubresources {
        /// The access's index in the command.
        index: usize,
        /// The image.
        id: TrackedId,
        /// What is wrong with the range.
        reason: String,
    },
    /// A layout the access cannot be made in.
    #[error("command: access {index}: {stage}:{access} of {id} in {layout}: it must be in {allowed}")]
    LayoutNotAllowed {
        /// The access's index in the command.
        index: usize,
        /// The image.
        id: TrackedId,
        /// The layout given.
        layout: ImageLayout,
        /// The access's stage.
        stage: PipelineStageFlags2,
        /// The access.
        access: AccessFlags2,
        /// The layouts it may be in.
        allowed: &'static str,
    },
    /// A layout the image's format cannot be in (a depth/stencil layout
    /// for a color format, or the reverse), or a layout of one depth or
    /// stencil aspect alone (the tracker changes an image's aspects'
    /// layouts together, as without `separateDepthStencilLayouts`).
    #[error("{what}: {layout} for {image} ({format}): {reason}")]
    LayoutForFormat {
        /// The call and operand (`image: initial layout`, `command:
        /// access 2`).
        what: String,
        /// The image (`image` before it has an id).
        image: String,
        /// The layout given.
        layout: ImageLayout,
        /// The image's format.
        format: Format,
        /// Why, with the rule.
        reason: String,
    },
    /// An image use on one queue that depends on the order of another
    /// queue's unsubmitted batch (see [`Tracker::command_on`]).
    #[error("command_on: access {index}: mip {mip}, layer {layer} of {id} on queue {queue}: queue {other}'s batch, not submitted yet, {what}; submit queue {other} first (the tracker decides layouts in recording order, and batches execute in submission order)")]
    QueueOrder {
        /// The access's index in the command.
        index: usize,
        /// The image.
        id: TrackedId,
        /// The mip level.
        mip: u32,
        /// The array layer.
        layer: u32,
        /// The command's queue.
        queue: u32,
        /// The queue whose batch must be submitted first.
        other: u32,
        /// What that batch does with the subresource.
        what: &'static str,
    },
    /// `image_layout` of something that is not a subresource of an image.
    #[error("image_layout: {id}: {reason}")]
    NoSuchSubresource {
        /// The resource given.
        id: TrackedId,
        /// Why.
        reason: String,
    },
    /// A host access of an image (the tracker's images are optimal-tiled:
    /// the host reaches them through a copy).
    #[error("command: access {index}: {id} is an image of optimal tiling, which the host does not access; copy it to or from a buffer")]
    ImageOnHost {
        /// The access's index in the command.
        index: usize,
        /// The image.
        id: TrackedId,
    },
    /// Two accesses of one command need one subresource in two layouts
    /// (an image subresource has one layout when the command executes).
    #[error("command: accesses {first_index} and {index} need mip {mip}, layer {layer} of {id} in {first} and in {second}; a subresource is in one layout while a command executes")]
    TwoLayouts {
        /// The earlier access's index.
        first_index: usize,
        /// The later access's index.
        index: usize,
        /// The image.
        id: TrackedId,
        /// The mip level.
        mip: u32,
        /// The array layer.
        layer: u32,
        /// The earlier access's layout.
        first: ImageLayout,
        /// The later access's layout.
        second: ImageLayout,
    },
    /// The pool has no free range large enough.
    #[error("alloc: pool {pool} has no free range of {size} bytes")]
    PoolExhausted {
        /// The pool.
        pool: TrackedId,
        /// The size asked for.
        size: u64,
    },
    /// A blob used or freed after it was freed (its generation moved on).
    #[error("{what}: {id} was freed (its generation is now {current})")]
    Freed {
        /// The call.
        what: &'static str,
        /// The id given.
        id: TrackedId,
        /// The resource's generation now.
        current: u32,
    },
    /// A range that is empty, reversed or past the resource's end.
    #[error("command: access {index}: range {start}..{end} of {id} (size {size}) is empty or out of bounds")]
    BadRange {
        /// The access's index in the command.
        index: usize,
        /// The resource.
        id: TrackedId,
        /// The range given.
        start: u64,
        /// The range given.
        end: u64,
        /// The resource's size.
        size: u64,
    },
    /// A stage and access pair the model does not know (several flags, a
    /// meta flag, a graphics stage, or an access the stage cannot make).
    #[error("command: access {index}: {stage}:{access} is not one stage and one access the model knows (COPY, CLEAR, BLIT, RESOLVE, COMPUTE_SHADER, DRAW_INDIRECT or HOST with an access that stage makes){hint}")]
    UnsupportedAccess {
        /// The access's index in the command.
        index: usize,
        /// The stage given.
        stage: PipelineStageFlags2,
        /// The access given.
        access: AccessFlags2,
        /// What to write instead, after `; ` (empty when nothing better
        /// than the list can be said): the synchronization-2 names of a
        /// synchronization-1 flag, or one entry per access.
        hint: &'static str,
    },
    /// A queue this tracker did not declare.
    #[error("{what}: queue {queue} is not one of this tracker's ({count} declared, the first implicit)")]
    UnknownQueue {
        /// The call.
        what: &'static str,
        /// The queue given.
        queue: u32,
        /// How many queues the tracker has.
        count: usize,
    },
    /// A semaphore this tracker did not declare.
    #[error("{what}: semaphore {semaphore} is not one of this tracker's ({count} declared)")]
    UnknownSemaphore {
        /// The call.
        what: &'static str,
        /// The semaphore given.
        semaphore: u32,
        /// How many semaphores the tracker has.
        count: usize,
    },
    /// A queue declared after the first command (the batches recorded
    /// before it were not kept for comparing with its work).
    #[error("queue: declare queues before the first command ({commands} recorded)")]
    QueueAfterCommands {
        /// Commands recorded so far.
        commands: usize,
    },
    /// A command with both host and device accesses.
    #[error("command: access {index} is a host access and access 0 is not (or the reverse): a command is a host command or a device command")]
    MixedHostDevice {
        /// The first access of the other kind.
        index: usize,
    },
    /// A host command given a queue other than the first on a tracker
    /// with several queues (host commands run on no queue: use
    /// [`Tracker::command`]).
    #[error("command_on: a host command runs on no queue; give it to `command`")]
    HostOnQueue,
    /// `exclusive` of a resource already used, or of a blob or alias (mark
    /// the buffer or pool they are carved from).
    #[error("exclusive: {id} {reason}")]
    BadExclusive {
        /// The id given.
        id: TrackedId,
        /// Why.
        reason: &'static str,
    },
    /// A submit of a queue that takes an exclusive resource while the
    /// release of it, recorded on another queue, is not submitted yet.
    #[error("submit: queue {queue} acquires what queue {from} releases, and that release is not submitted yet: submit queue {from} first")]
    ReleaseNotSubmitted {
        /// The acquiring queue.
        queue: u32,
        /// The releasing queue.
        from: u32,
    },
    /// A semaphore operation the model's rules refuse (the same rules as
    /// a trace's: `crate::ir::queue`, `crate::ir::completion`).
    #[error("{what}: {operand}: {kind}")]
    Semaphore {
        /// The call.
        what: &'static str,
        /// Which wait or signal (`wait 0`, `signal 1`, `host`).
        operand: String,
        /// The rule broken.
        kind: ProgramErrorKind,
    },
}

/// What to name instead of a stage and access pair the tracker refuses
/// (for [`TrackerError::UnsupportedAccess`]): a `TrackedAccess` is the
/// access a command *makes*, so a synchronization-1 or meta flag (which a
/// barrier may name) gets the synchronization-2 flag for it.
fn access_hint(stage: PipelineStageFlags2, access: AccessFlags2) -> &'static str {
    type S = PipelineStageFlags2;
    type A = AccessFlags2;
    if stage.bits().count_ones() > 1 || access.bits().count_ones() > 1 {
        "; give each stage and access of a command as its own TrackedAccess"
    } else if access == A::SHADER_READ {
        "; SHADER_READ is the synchronization-1 access: name SHADER_STORAGE_READ (a storage buffer), UNIFORM_READ (a uniform buffer) or SHADER_SAMPLED_READ"
    } else if access == A::SHADER_WRITE {
        "; SHADER_WRITE is the synchronization-1 access: name SHADER_STORAGE_WRITE"
    } else if access == A::MEMORY_READ || access == A::MEMORY_WRITE {
        "; MEMORY_READ and MEMORY_WRITE stand for every access of their kind in a barrier: name the one the command makes (TRANSFER_READ, SHADER_STORAGE_WRITE, HOST_READ, ...)"
    } else if stage == S::ALL_TRANSFER {
        "; ALL_TRANSFER (TRANSFER in synchronization 1) stands for every transfer stage: name the one the command runs in, COPY (vkCmdCopyBuffer), CLEAR (vkCmdFillBuffer, vkCmdUpdateBuffer), BLIT or RESOLVE"
    } else if stage == S::ALL_COMMANDS
        || stage == S::ALL_GRAPHICS
        || stage == S::TOP_OF_PIPE
        || stage == S::BOTTOM_OF_PIPE
    {
        "; that stage orders others in a barrier but runs no access: name the stage the command runs in"
    } else {
        ""
    }
}

#[derive(Clone, Debug)]
enum Kind {
    /// A buffer with memory of its own.
    Buffer,
    /// A second buffer over the memory of `root` (a buffer or a pool).
    Alias {
        root: u32,
    },
    Pool(BlobAllocator),
    Blob {
        pool: u32,
        offset: u64,
    },
    /// An image with memory of its own: its description and layouts.
    Image(Box<images::ImageState>),
}

#[derive(Clone, Debug)]
struct Resource {
    size: u64,
    kind: Kind,
    /// Moves on when a blob is freed: ids of the old generation are
    /// refused. Slots are never reused (the checker's records name them).
    generation: u32,
    /// Created `VK_SHARING_MODE_EXCLUSIVE` (buffers and pools; a blob or
    /// an alias has its root's mode).
    exclusive: bool,
    /// An access named it (or an alias or blob of it): too late to make
    /// it exclusive.
    used: bool,
}

/// The incremental planner; see the module documentation.
///
/// ```
/// use vksync::{AccessFlags2 as A, PipelineStageFlags2 as S, TrackedAccess, Tracker};
/// let mut t = Tracker::new();
/// let buf = t.buffer(256)?;
/// // A copy writes the buffer, then a dispatch reads it.
/// let fill = t.command(&[TrackedAccess::whole(buf, S::COPY, A::TRANSFER_WRITE)])?;
/// assert!(fill.is_empty());
/// let read = t.command(&[TrackedAccess::whole(buf, S::COMPUTE_SHADER, A::SHADER_STORAGE_READ)])?;
/// let b = &read.barriers[0];
/// assert_eq!((b.src_stage_mask, b.src_access_mask), (S::COPY, A::TRANSFER_WRITE));
/// assert_eq!((b.dst_stage_mask, b.dst_access_mask), (S::COMPUTE_SHADER, A::SHADER_STORAGE_READ));
/// # Ok::<(), vksync::TrackerError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Tracker {
    owner: u32,
    /// Drawn when made (see the module documentation); kept by clones.
    instance: u64,
    layout: Layout,
    resources: Vec<Resource>,
    form: BarrierForm,
    commands: usize,
    /// The checkers' command numbers handed out: one per command, one
    /// more before it for its layout transitions.
    slots: usize,
    queues: queues::Queues,
}

/// A tracker's identity: a hash of nothing under a fresh `RandomState`
/// (keys random per thread, moved on by each `RandomState::new`).
fn instance() -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(())
}

impl Default for Tracker {
    fn default() -> Self {
        Tracker::new()
    }
}

impl Tracker {
    /// A tracker giving global memory barriers, planned for both readings
    /// of write-after-write ([`Reading::VisibleToWrites`]), with owner tag
    /// 0 and one queue (family 0).
    pub fn new() -> Tracker {
        Tracker::with_options(BarrierForm::Global, Reading::VisibleToWrites)
    }

    /// A tracker giving barriers of `form`, race-free under `reading`.
    pub fn with_options(form: BarrierForm, reading: Reading) -> Tracker {
        Tracker {
            owner: 0,
            instance: instance(),
            layout: Layout::empty(),
            resources: Vec::new(),
            form,
            commands: 0,
            slots: 0,
            queues: queues::Queues::new(Semantics::for_reading(reading)),
        }
    }

    /// The same tracker with owner tag `owner`: the ids it hands out from
    /// now on carry it, and ids with another tag are refused
    /// ([`TrackerError::ForeignResource`]). Ids of another tracker are
    /// refused whatever the tags (each tracker has an identity of its
    /// own); the tag names the tracker in messages.
    ///
    /// ```
    /// use vksync::{AccessFlags2 as A, PipelineStageFlags2 as S, TrackedAccess, Tracker, TrackerError};
    /// let mut one = Tracker::new().with_owner(1);
    /// let mut two = Tracker::new().with_owner(2);
    /// let a = one.buffer(64)?;
    /// two.buffer(64)?;
    /// let err = two.command(&[TrackedAccess::whole(a, S::COPY, A::TRANSFER_WRITE)]).unwrap_err();
    /// assert!(matches!(err, TrackerError::ForeignResource { owner: 2, .. }));
    /// # Ok::<(), TrackerError>(())
    /// ```
    pub fn with_owner(mut self, owner: u32) -> Tracker {
        self.owner = owner;
        self
    }

    /// This tracker's owner tag.
    pub fn owner(&self) -> u32 {
        self.owner
    }

    fn add(&mut self, size: u64, kind: Kind) -> TrackedId {
        self.resources.push(Resource {
            size,
            kind,
            generation: 0,
            exclusive: false,
            used: false,
        });
        self.id(self.resources.len() - 1)
    }

    fn id(&self, index: usize) -> TrackedId {
        TrackedId {
            index: index as u32,
            owner: self.owner,
            generation: self.resources[index].generation,
            instance: self.instance,
        }
    }

    /// The resource `id` names, checked: this tracker's tag, in range, of
    /// the current generation.
    fn get(&self, what: &'static str, id: TrackedId) -> Result<&Resource, TrackerError> {
        if id.owner != self.owner || id.instance != self.instance {
            return Err(TrackerError::ForeignResource {
                what,
                id,
                owner: self.owner,
            });
        }
        let r = self
            .resources
            .get(id.index as usize)
            .ok_or(TrackerError::UnknownResource {
                what,
                id,
                count: self.resources.len(),
            })?;
        if r.generation != id.generation {
            return Err(TrackerError::Freed {
                what,
                id,
                current: r.generation,
            });
        }
        Ok(r)
    }

    /// The buffer or pool whose memory `index` is (itself for those).
    fn root(&self, index: u32) -> u32 {
        match self.resources[index as usize].kind {
            Kind::Alias { root } | Kind::Blob { pool: root, .. } => root,
            Kind::Buffer | Kind::Pool(_) | Kind::Image(_) => index,
        }
    }

    /// Declares a buffer with memory of its own (a `VkBuffer` bound to its
    /// own allocation).
    pub fn buffer(&mut self, size: u64) -> Result<TrackedId, TrackerError> {
        if size == 0 {
            return Err(TrackerError::ZeroSize { what: "buffer" });
        }
        let id = self.add(size, Kind::Buffer);
        self.layout.add_memory(id.object(), size);
        Ok(id)
    }

    /// Declares a buffer of `size` bytes over the memory of `of` (a buffer,
    /// an alias, or a pool) from `offset`: a second `VkBuffer` bound to the
    /// same `VkDeviceMemory`. Accesses through either are ordered against
    /// accesses through the other where their bytes overlap.
    pub fn alias(&mut self, of: TrackedId, offset: u64, size: u64) -> Result<TrackedId, TrackerError> {
        if size == 0 {
            return Err(TrackerError::ZeroSize { what: "alias" });
        }
        let target = self.get("alias", of)?;
        if matches!(target.kind, Kind::Blob { .. }) {
            return Err(TrackerError::AliasOfBlob { of });
        }
        if matches!(target.kind, Kind::Image(_)) {
            return Err(TrackerError::AliasOfImage { of });
        }
        let of_size = target.size;
        match offset.checked_add(size) {
            Some(end) if end <= of_size => {}
            _ => {
                return Err(TrackerError::AliasOutOfBounds {
                    of,
                    offset,
                    size,
                    of_size,
                })
            }
        }
        // Invariant: buffers and pools are placed when declared.
        let (mem, base) = self
            .layout
            .place(of.object())
            .expect("buffers and pools are placed");
        let root = self.root(of.index);
        let id = self.add(size, Kind::Alias { root });
        self.layout.set_place(id.object(), Some((mem, base + offset)));
        Ok(id)
    }

    /// Declares a pool of `size` bytes that [`Tracker::alloc`] carves blobs
    /// from, at offsets aligned to `align` (a power of two), first fit, as
    /// ncnn's blob allocator does.
    pub fn pool(&mut self, size: u64, align: u64) -> Result<TrackedId, TrackerError> {
        if size == 0 {
            return Err(TrackerError::ZeroSize { what: "pool" });
        }
        if !align.is_power_of_two() {
            return Err(TrackerError::BadAlign { align });
        }
        let id = self.add(size, Kind::Pool(BlobAllocator::new(size, align)));
        self.layout.add_memory(id.object(), size);
        Ok(id)
    }

    /// Declares an image with memory of its own (a `VkImage` bound to its
    /// own allocation, optimal tiling, `VK_SHARING_MODE_CONCURRENT` or used
    /// by one queue family): its accesses name subresources and a layout
    /// ([`TrackedAccess::image`]), and a command that needs subresources in
    /// another layout than they are in gets the transition
    /// ([`Needs::image_barriers`]).
    pub fn image(&mut self, info: TrackedImageInfo) -> Result<TrackedId, TrackerError> {
        let object = ObjectId(self.resources.len() as u32);
        let desc = info.desc(object);
        desc.validate("image").map_err(|e| TrackerError::BadImage {
            reason: e.to_string(),
        })?;
        if u64::from(desc.mips) * u64::from(desc.layers) > MAX_SUBRESOURCES {
            return Err(TrackerError::BadImage {
                reason: format!(
                    "{} mips x {} layers: the tracker keeps a layout per mip level and layer, at most {MAX_SUBRESOURCES} of them (maxImageArrayLayers is 2048 on common devices)",
                    desc.mips, desc.layers
                ),
            });
        }
        layout_for_format("image: initial layout", "image", info.initial, info.format)?;
        // Invariant: a validated description's size fits in 64 bits.
        let size = desc.total_size().unwrap_or(0);
        let id = self.add(size, Kind::Image(Box::new(images::ImageState::new(desc))));
        self.layout.add_memory(id.object(), size);
        Ok(id)
    }

    /// The layout subresource (`mip`, `layer`) of image `image` is in now
    /// (every aspect of it: the tracker transitions them together).
    pub fn image_layout(&self, image: TrackedId, mip: u32, layer: u32) -> Result<ImageLayout, TrackerError> {
        match &self.get("image_layout", image)?.kind {
            Kind::Image(st) if mip < st.desc.mips && layer < st.desc.layers => Ok(st.layout(mip, layer)),
            Kind::Image(st) => Err(TrackerError::NoSuchSubresource {
                id: image,
                reason: format!(
                    "mip {mip}, layer {layer} is not a subresource of an image of {} mips and {} layers",
                    st.desc.mips, st.desc.layers
                ),
            }),
            _ => Err(TrackerError::NoSuchSubresource {
                id: image,
                reason: "not an image".into(),
            }),
        }
    }

    /// Marks a buffer or pool (not yet used) as created with
    /// `VK_SHARING_MODE_EXCLUSIVE`: one queue family owns it at a time, and
    /// a command on a queue of another family than the last one to use it
    /// gets the ownership transfer ([`Needs::queues`] holds the release on
    /// the old queue, [`Needs::barriers`] starts with the acquire). Its
    /// aliases and blobs share its mode. Every change of family gets a
    /// transfer (the multi-queue planner leaves out those whose contents
    /// nobody reads, which needs the future).
    pub fn exclusive(&mut self, id: TrackedId) -> Result<(), TrackerError> {
        let r = self.get("exclusive", id)?;
        let reason = match r.kind {
            Kind::Alias { .. } => Some("is an alias: mark the buffer or pool whose memory it is"),
            Kind::Blob { .. } => Some("is a blob: mark its pool"),
            Kind::Image(_) => Some(
                "is an image: the tracker keeps images concurrent (an image's ownership transfer carries its layouts, which it does not plan)",
            ),
            Kind::Buffer | Kind::Pool(_) if r.used => Some("was already used"),
            Kind::Buffer | Kind::Pool(_) => None,
        };
        if let Some(reason) = reason {
            return Err(TrackerError::BadExclusive { id, reason });
        }
        self.resources[id.index as usize].exclusive = true;
        Ok(())
    }

    /// Allocates a blob of `size` bytes from `pool`. Its memory may have
    /// been another blob's: accesses to it are ordered against that blob's
    /// earlier accesses, which is the point.
    pub fn alloc(&mut self, pool: TrackedId, size: u64) -> Result<TrackedId, TrackerError> {
        if size == 0 {
            return Err(TrackerError::ZeroSize { what: "alloc" });
        }
        self.get("alloc", pool)?;
        let Kind::Pool(allocator) = &mut self.resources[pool.index as usize].kind else {
            return Err(TrackerError::NotAPool { id: pool });
        };
        let offset = allocator
            .alloc(size)
            .ok_or(TrackerError::PoolExhausted { pool, size })?;
        let id = self.add(
            size,
            Kind::Blob {
                pool: pool.index,
                offset,
            },
        );
        let (mem, base) = self.layout.place(pool.object()).unwrap_or((MemId(0), 0));
        self.layout.set_place(id.object(), Some((mem, base + offset)));
        Ok(id)
    }

    /// The offset of a blob in its pool.
    pub fn offset(&self, blob: TrackedId) -> Result<u64, TrackerError> {
        match self.get("offset", blob)?.kind {
            Kind::Blob { offset, .. } => Ok(offset),
            _ => Err(TrackerError::NotABlob {
                what: "offset",
                id: blob,
            }),
        }
    }

    /// Returns a blob's memory to its pool; the blob's id (and every copy
    /// of it) is refused from now on.
    pub fn free(&mut self, blob: TrackedId) -> Result<(), TrackerError> {
        let r = self.get("free", blob)?;
        let size = r.size;
        let Kind::Blob { pool, offset } = r.kind else {
            return Err(TrackerError::NotABlob {
                what: "free",
                id: blob,
            });
        };
        if let Kind::Pool(allocator) = &mut self.resources[pool as usize].kind {
            // Invariant: the live blob's allocation came from this pool's
            // allocator, so it frees.
            let freed = allocator.free(offset, size);
            debug_assert!(freed, "a live blob frees");
        }
        self.resources[blob.index as usize].generation += 1;
        Ok(())
    }

    /// Declares another queue, of queue family `family` (the first queue,
    /// [`QueueId`]`(0)`, exists from the start, of family 0). Queues are
    /// declared before the first command.
    pub fn queue(&mut self, family: u32) -> Result<QueueId, TrackerError> {
        if self.commands > 0 {
            return Err(TrackerError::QueueAfterCommands {
                commands: self.commands,
            });
        }
        Ok(self.queues.add_queue(family))
    }

    /// Declares a semaphore, binary or timeline, for [`Tracker::submit_on`],
    /// [`Tracker::wait_semaphore`] and [`Tracker::host_signal`].
    pub fn semaphore(&mut self, kind: SemaphoreType) -> SemaphoreId {
        self.queues.add_semaphore(kind)
    }

    /// The next command's accesses, on the first queue (or a host command):
    /// returns what to record before it, and counts it as recorded. A
    /// command without accesses needs nothing.
    pub fn command(&mut self, accesses: &[TrackedAccess]) -> Result<Needs, TrackerError> {
        self.record("command", None, accesses)
    }

    /// The next command's accesses, recorded on `queue` (a device command):
    /// returns what to record before it on that queue (and, for an
    /// exclusive resource another family used last, the release on that
    /// family's queue), and counts it as recorded. An image use that
    /// depends on another queue's unsubmitted batch for its layout is
    /// refused ([`TrackerError::QueueOrder`]: submit that queue first).
    pub fn command_on(&mut self, queue: QueueId, accesses: &[TrackedAccess]) -> Result<Needs, TrackerError> {
        self.queues.check_queue("command_on", queue)?;
        self.record("command_on", Some(queue), accesses)
    }

    fn record(
        &mut self,
        what: &'static str,
        queue: Option<QueueId>,
        accesses: &[TrackedAccess],
    ) -> Result<Needs, TrackerError> {
        let Located { acc, roots, uses } = self.located(what, accesses)?;
        let is_host = |t: &TrackedAccess| t.stage == PipelineStageFlags2::HOST;
        let host = accesses.first().is_some_and(is_host);
        if let Some(index) = accesses.iter().position(|t| is_host(t) != host) {
            return Err(TrackerError::MixedHostDevice { index });
        }
        if host && queue.is_some_and(|q| q != QueueId(0)) {
            return Err(TrackerError::HostOnQueue);
        }
        check_one_layout(&uses)?;
        if !host && self.queues.count() > 1 {
            self.check_queue_order(queue.unwrap_or_default(), &uses)?;
        }
        self.commands += 1;
        for &r in &roots {
            self.resources[r as usize].used = true;
        }
        if acc.is_empty() {
            self.slots += 1;
            return Ok(Needs::default());
        }
        if host && self.queues.count() > 1 {
            let index = self.slots;
            self.slots += 1;
            return self.queues.host_command(&self.layout, self.form, index, &acc);
        }
        let q = queue.unwrap_or_default();
        let (image_barriers, parts) = self.transitions(q, &uses);
        let transitions = if parts.is_empty() {
            None
        } else {
            // The transitions are command `slot`, the command `slot + 1`.
            self.slots += 1;
            let sources =
                self.queues
                    .transition_sources(&self.layout, q, self.slots - 1, &parts, image_barriers.len());
            Some(self.with_sources(image_barriers, parts, sources))
        };
        let index = self.slots;
        self.slots += 1;
        let transfers = self.exclusive_roots(&acc, &roots);
        let (image_barriers, transitions) = transitions.unzip();
        let prelude = queues::Prelude {
            transfers,
            transitions,
        };
        let mut needs = self
            .queues
            .device_command(&self.layout, self.form, q, index, &acc, prelude);
        needs.image_barriers = image_barriers.unwrap_or_default();
        // A buffer barrier cannot name an image's bytes (there is no
        // `VkBuffer` over them), and an image memory barrier would have to
        // name its layouts: one over an image is a global barrier (wider).
        for b in &mut needs.barriers {
            if b.region.is_some_and(|r| {
                matches!(
                    self.resources.get(r.object.0 as usize).map(|x| &x.kind),
                    Some(Kind::Image(_))
                )
            }) {
                b.region = None;
            }
        }
        Ok(needs)
    }

    /// The layout transitions a command's image uses need, as image
    /// barriers (first scopes empty, second scopes the command's accesses
    /// of the subresources) and as the model barriers over their bytes
    /// (with the index of the image barrier each is part of); the layouts
    /// are set to what the command needs.
    fn transitions(&mut self, q: QueueId, uses: &[Use]) -> (Vec<TrackedImageBarrier>, Vec<(usize, Barrier)>) {
        let mut out = Vec::new();
        let mut parts = Vec::new();
        let Tracker {
            resources, queues, ..
        } = self;
        let several = queues.count() > 1;
        let batch = (q, queues.open_batch(q));
        let done = |(p, n): images::BatchOf| queues.open_batch(p) > n;
        for u in uses {
            let Kind::Image(st) = &mut resources[u.id.index as usize].kind else {
                continue;
            };
            for c in st.changes(u.mips, u.layers, u.layout) {
                // The command's accesses of these subresources.
                let (stages, access) = uses
                    .iter()
                    .filter(|v| v.id == u.id && overlaps(v.mips, c.mips) && overlaps(v.layers, c.layers))
                    .fold(
                        (PipelineStageFlags2::empty(), AccessFlags2::empty()),
                        |(s, a), v| (s | v.stage, a | v.access),
                    );
                let range = c.range(&st.desc);
                let b = TrackedImageBarrier {
                    image: u.id,
                    subresources: range,
                    old_layout: c.old,
                    new_layout: u.layout,
                    src_stage_mask: PipelineStageFlags2::NONE,
                    src_access_mask: AccessFlags2::NONE,
                    dst_stage_mask: stages,
                    dst_access_mask: access,
                };
                // Invariant: the range is the image's (a use's, closed).
                for bytes in st.desc.range_bytes(range).unwrap_or_default() {
                    let region = Region {
                        object: u.id.object(),
                        range: bytes,
                    };
                    let part = Barrier::global(PipelineStageFlags2::NONE, AccessFlags2::NONE, stages, access)
                        .on(region)
                        .with_transition();
                    parts.push((out.len(), part));
                }
                if several {
                    st.transitioned(c.mips, c.layers, batch);
                }
                out.push(b);
            }
            st.set(u.mips, u.layers, u.layout);
            if several {
                st.used(u.mips, u.layers, batch, done);
            }
        }
        (out, parts)
    }

    /// With several queues, refuses image uses whose layouts the tracker
    /// cannot decide in recording order: the tracker gives each
    /// subresource the layout the commands recorded so far leave it in,
    /// but batches execute in submission order. So a command on `q` may
    /// not rely on a transition recorded on another queue that is not
    /// submitted yet (it would execute after the command if that queue were
    /// submitted later), nor transition a subresource that another queue's
    /// unsubmitted batch uses in its current layout
    /// ([`TrackerError::QueueOrder`]); the runtime submits that queue first.
    fn check_queue_order(&self, q: QueueId, uses: &[Use]) -> Result<(), TrackerError> {
        let open = |(p, n): images::BatchOf| p != q && self.queues.open_batch(p) <= n;
        for u in uses {
            let Kind::Image(st) = &self.resources[u.id.index as usize].kind else {
                continue;
            };
            for m in u.mips.0..u.mips.1 {
                for l in u.layers.0..u.layers.1 {
                    let (set_by, users) = st.history(m, l);
                    let transition = st.layout(m, l) != u.layout;
                    let other = set_by
                        .filter(|&b| open(b))
                        .map(|b| (b, "transitioned it to its current layout"))
                        .or_else(|| {
                            users
                                .iter()
                                .copied()
                                .find(|&b| transition && open(b))
                                .map(|b| (b, "uses it in its current layout, which this command changes"))
                        });
                    if let Some(((p, _), what)) = other {
                        return Err(TrackerError::QueueOrder {
                            index: u.index,
                            id: u.id,
                            mip: m,
                            layer: l,
                            queue: q.0,
                            other: p.0,
                            what,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// The image barriers and their model parts with the first scopes
    /// `sources` (one per image barrier: a `VkImageMemoryBarrier2` has one
    /// set of masks) asks for.
    fn with_sources(
        &self,
        mut barriers: Vec<TrackedImageBarrier>,
        parts: Vec<(usize, Barrier)>,
        sources: Vec<(PipelineStageFlags2, AccessFlags2)>,
    ) -> (Vec<TrackedImageBarrier>, Dependency) {
        for (b, (stages, access)) in barriers.iter_mut().zip(sources) {
            b.src_stage_mask = stages;
            b.src_access_mask = access;
        }
        let parts = parts
            .into_iter()
            .map(|(i, mut b)| {
                b.src_stage_mask = barriers[i].src_stage_mask;
                b.src_access_mask = barriers[i].src_access_mask;
                b
            })
            .collect();
        (barriers, Dependency { barriers: parts })
    }

    /// The exclusive roots a command touches, each once, with the stages
    /// and writes of its accesses of it.
    fn exclusive_roots(&self, acc: &[Access], roots: &[u32]) -> Vec<queues::Transfer> {
        let mut out: Vec<queues::Transfer> = Vec::new();
        for (a, &root) in acc.iter().zip(roots) {
            let r = &self.resources[root as usize];
            if !r.exclusive {
                continue;
            }
            let i = match out.iter().position(|t| t.root == root) {
                Some(i) => i,
                None => {
                    out.push(queues::Transfer {
                        root,
                        region: Region {
                            object: ObjectId(root),
                            range: ByteRange::new(0, r.size),
                        },
                        stages: PipelineStageFlags2::empty(),
                        writes: AccessFlags2::empty(),
                    });
                    out.len() - 1
                }
            };
            out[i].stages |= a.sa.stage().flag();
            if a.sa.is_write() {
                out[i].writes |= a.sa.access();
            }
        }
        out
    }

    /// The runtime submitted everything recorded so far on the first queue
    /// (`vkQueueSubmit`, no semaphore). With one queue nothing is ever
    /// needed; with several, the answer says what the submit must wait
    /// for, as [`Tracker::submit_on`]'s.
    pub fn submit(&mut self) -> Result<SubmitNeeds, TrackerError> {
        self.submit_on(&Submission::default())
    }

    /// The runtime is about to submit everything recorded on
    /// `submission.queue` since its last submit, waiting for and
    /// signalling `submission`'s semaphores: returns what else it must wait
    /// for (semaphore waits to add to the submission, host waits to make
    /// before it), which the tracker counts as done. See [`SubmitNeeds`].
    pub fn submit_on(&mut self, submission: &Submission) -> Result<SubmitNeeds, TrackerError> {
        self.queues.submit("submit_on", submission)
    }

    /// The runtime waited for every submission so far on a fence.
    pub fn wait(&mut self) {
        self.queues.host_wait_all();
    }

    /// The runtime waited for every submission so far to `queue`
    /// (`vkQueueWaitIdle`, or the fences of its submits).
    pub fn wait_queue(&mut self, queue: QueueId) -> Result<(), TrackerError> {
        self.queues.check_queue("wait_queue", queue)?;
        self.queues.host_wait_queue(queue);
        Ok(())
    }

    /// The runtime waited on the host until timeline `semaphore` reached
    /// `value` (`vkWaitSemaphores`).
    pub fn wait_semaphore(&mut self, semaphore: SemaphoreId, value: u64) -> Result<(), TrackerError> {
        self.queues.host_wait_value("wait_semaphore", semaphore, value)
    }

    /// The runtime set timeline `semaphore` to `value` on the host
    /// (`vkSignalSemaphore`).
    pub fn host_signal(&mut self, semaphore: SemaphoreId, value: u64) -> Result<(), TrackerError> {
        self.queues.host_signal("host_signal", semaphore, value)
    }

    /// How many commands the tracker has seen.
    pub fn commands(&self) -> usize {
        self.commands
    }

    /// How many queues the tracker has (the first one included).
    pub fn queue_count(&self) -> usize {
        self.queues.count()
    }

    /// The accesses located (an image use becomes one per byte range of
    /// its subresources), per located access the root resource (the
    /// buffer, pool or image whose memory it is), and the image uses.
    fn located(&self, what: &'static str, accesses: &[TrackedAccess]) -> Result<Located, TrackerError> {
        let mut out = Vec::with_capacity(accesses.len());
        let mut roots = Vec::with_capacity(accesses.len());
        let mut uses = Vec::new();
        for (index, t) in accesses.iter().enumerate() {
            let r = self.get(what, t.resource)?;
            let sa = StageAccess::from_flags(t.stage, t.access).ok_or(TrackerError::UnsupportedAccess {
                index,
                stage: t.stage,
                access: t.access,
                hint: access_hint(t.stage, t.access),
            })?;
            let mut push = |range: ByteRange| {
                let region = Region {
                    object: t.resource.object(),
                    range,
                };
                let m = self.layout.at(region);
                out.push(Access {
                    region,
                    mem: m.mem,
                    range: m.range,
                    sa,
                });
                roots.push(self.root(t.resource.index));
            };
            match (&r.kind, t.image) {
                (Kind::Image(st), Some(u)) => {
                    let u = image_use(index, t, sa, st, u)?;
                    // Invariant: `image_use` checked the range.
                    for bytes in st.desc.range_bytes(u.1).unwrap_or_default() {
                        push(bytes);
                    }
                    uses.push(u.0);
                }
                (Kind::Image(_), None) => {
                    return Err(TrackerError::ImageWithoutUse {
                        index,
                        id: t.resource,
                    })
                }
                (_, Some(_)) => {
                    return Err(TrackerError::NotAnImage {
                        index,
                        id: t.resource,
                    })
                }
                (_, None) => {
                    let range = t.range.unwrap_or(ByteRange::new(0, r.size));
                    if range.is_empty() || range.end > r.size {
                        return Err(TrackerError::BadRange {
                            index,
                            id: t.resource,
                            start: range.start,
                            end: range.end,
                            size: r.size,
                        });
                    }
                    push(range);
                }
            }
        }
        Ok(Located {
            acc: out,
            roots,
            uses,
        })
    }
}

/// A command's accesses located ([`Tracker::located`]): per byte range
/// the access, per access its root resource's index, and the image uses.
struct Located {
    acc: Vec<Access>,
    roots: Vec<u32>,
    uses: Vec<Use>,
}

/// One access of an image by a command, checked: the image, the
/// access's index, the mips and layers it uses (closed), the layout it
/// needs them in, its stage and access.
#[derive(Clone, Copy, Debug)]
struct Use {
    id: TrackedId,
    index: usize,
    mips: (u32, u32),
    layers: (u32, u32),
    layout: ImageLayout,
    stage: PipelineStageFlags2,
    access: AccessFlags2,
}

/// Access `index` (`t`, of stage and access `sa`) of image `st` with use
/// `u`, checked (no byte range, a device access, subresources of the
/// image, a layout the access may be made in), and the subresource range
/// of its bytes (the aspects it names).
fn image_use(
    index: usize,
    t: &TrackedAccess,
    sa: StageAccess,
    st: &images::ImageState,
    u: ImageUse,
) -> Result<(Use, SubresourceRange), TrackerError> {
    let id = t.resource;
    if t.range.is_some() {
        return Err(TrackerError::BadSubresources {
            index,
            id,
            reason: "an image access names subresources, not a byte range (give `range: None`)".into(),
        });
    }
    if sa.stage() == Stage::Host {
        return Err(TrackerError::ImageOnHost { index, id });
    }
    let (aspects, m0, m1, l0, l1) = st
        .desc
        .resolve_range(u.subresources)
        .map_err(|reason| TrackerError::BadSubresources { index, id, reason })?;
    let Some((ok, allowed)) = crate::ir::image::access_layouts(sa) else {
        return Err(TrackerError::UnsupportedAccess {
            index,
            stage: t.stage,
            access: t.access,
            hint: "; an image is accessed by a transfer command (TRANSFER_READ, TRANSFER_WRITE) or a shader (SHADER_STORAGE_READ, SHADER_STORAGE_WRITE, SHADER_SAMPLED_READ)",
        });
    };
    if !ok(u.layout) {
        return Err(TrackerError::LayoutNotAllowed {
            index,
            id,
            layout: u.layout,
            stage: t.stage,
            access: t.access,
            allowed,
        });
    }
    layout_for_format(
        &format!("command: access {index}"),
        &id.to_string(),
        u.layout,
        st.desc.format,
    )?;
    let range = SubresourceRange {
        aspects,
        base_mip: m0,
        mip_count: Some(m1 - m0),
        base_layer: l0,
        layer_count: Some(l1 - l0),
    };
    let one = Use {
        id,
        index,
        mips: (m0, m1),
        layers: (l0, l1),
        layout: u.layout,
        stage: t.stage,
        access: t.access,
    };
    Ok((one, range))
}

/// The most mip levels times array layers of one tracked image (the
/// tracker keeps a layout for each).
const MAX_SUBRESOURCES: u64 = 1 << 16;

/// Refuses a layout image format `format` cannot be in (the layout's
/// format rule, VUID-VkImageMemoryBarrier2-oldLayout-01208 and its
/// siblings), and the layouts of one depth or stencil aspect alone (they
/// need `separateDepthStencilLayouts`, and the tracker changes an image's
/// aspects' layouts together).
fn layout_for_format(
    what: &str,
    image: &str,
    layout: ImageLayout,
    format: Format,
) -> Result<(), TrackerError> {
    type L = ImageLayout;
    let err = |reason: String| {
        Err(TrackerError::LayoutForFormat {
            what: what.to_string(),
            image: image.to_string(),
            layout,
            format,
            reason,
        })
    };
    if matches!(
        layout,
        L::DEPTH_ATTACHMENT_OPTIMAL
            | L::DEPTH_READ_ONLY_OPTIMAL
            | L::STENCIL_ATTACHMENT_OPTIMAL
            | L::STENCIL_READ_ONLY_OPTIMAL
    ) {
        return err("a layout of one depth or stencil aspect needs separateDepthStencilLayouts, and the tracker transitions an image's aspects together: name a layout of both (DEPTH_STENCIL_READ_ONLY_OPTIMAL, ...) or GENERAL".into());
    }
    // The model's own rule for a barrier or an initial layout (the
    // single-aspect layouts, whose rule accepts a usage either kind of
    // format can have, are refused above).
    if let Some((needs, vuid)) = layout.barrier_format_mismatch(format) {
        return err(format!("the layout needs a {needs} format ({vuid})"));
    }
    Ok(())
}

fn overlaps(a: (u32, u32), b: (u32, u32)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

/// Refuses a command whose image uses need one subresource in two
/// layouts ([`TrackerError::TwoLayouts`]).
fn check_one_layout(uses: &[Use]) -> Result<(), TrackerError> {
    for (j, v) in uses.iter().enumerate() {
        for u in &uses[..j] {
            if u.id == v.id
                && u.layout != v.layout
                && overlaps(u.mips, v.mips)
                && overlaps(u.layers, v.layers)
            {
                return Err(TrackerError::TwoLayouts {
                    first_index: u.index,
                    index: v.index,
                    id: v.id,
                    mip: u.mips.0.max(v.mips.0),
                    layer: u.layers.0.max(v.layers.0),
                    first: u.layout,
                    second: v.layout,
                });
            }
        }
    }
    Ok(())
}

/// What orders a resource's `next` accesses after its `previous` ones
/// (each a stage and an access, as in [`TrackedAccess`]): the barrier with
/// the fewest bits, none for reads after reads, and, for a host access
/// after device work, a submit and fence wait ([`Needs::submit_and_wait`];
/// after device writes with the barrier that makes them available to the
/// host). The stateless case of [`Tracker`], in the spirit of vk-sync's
/// `GlobalBarrier { previous_accesses, next_accesses }`.
///
/// ```
/// use vksync::{barrier_between, AccessFlags2 as A, PipelineStageFlags2 as S};
/// let needs = barrier_between(
///     &[(S::COMPUTE_SHADER, A::SHADER_STORAGE_WRITE)],
///     &[(S::COPY, A::TRANSFER_READ)],
/// )?;
/// assert_eq!(needs.barriers[0].src_access_mask, A::SHADER_STORAGE_WRITE);
/// assert_eq!(needs.barriers[0].dst_access_mask, A::TRANSFER_READ);
/// assert!(barrier_between(&[(S::COPY, A::TRANSFER_READ)], &[(S::COPY, A::TRANSFER_READ)])?.is_empty());
/// // The host writes what the device still reads: no barrier, a fence wait.
/// let host = barrier_between(&[(S::COPY, A::TRANSFER_READ)], &[(S::HOST, A::HOST_WRITE)])?;
/// assert!(host.barriers.is_empty() && host.submit_and_wait);
/// # Ok::<(), vksync::TrackerError>(())
/// ```
pub fn barrier_between(
    previous: &[(PipelineStageFlags2, AccessFlags2)],
    next: &[(PipelineStageFlags2, AccessFlags2)],
) -> Result<Needs, TrackerError> {
    let mut t = Tracker::new();
    let r = t.buffer(1)?;
    let whole =
        |&(stage, access): &(PipelineStageFlags2, AccessFlags2)| TrackedAccess::whole(r, stage, access);
    t.command(&previous.iter().map(whole).collect::<Vec<_>>())?;
    t.command(&next.iter().map(whole).collect::<Vec<_>>())
}
