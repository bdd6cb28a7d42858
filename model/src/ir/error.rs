//! Why a program is not well formed, and where: one error type for every
//! way of building or validating a program (the builder methods of
//! [`super::program::Program`], `from_parts`, and [`super::layout::resolve`]).
//! The trace parser reports the same rules with the same wording, placed on
//! a line and column.

use super::event::EventId;
use super::program::{ByteRange, ObjectId};
use super::queue::{QueueId, SemaphoreId};
use crate::vk::scope::ScopeError;
use std::fmt;

/// Where an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// At the command with this index in [`crate::Program::commands`].
    Command(usize),
    /// At the declaration of this object.
    Object(ObjectId),
    /// At the declaration of this queue.
    Queue(QueueId),
    /// At the declaration of this semaphore.
    Semaphore(SemaphoreId),
    /// At the declaration of this event.
    Event(EventId),
}

/// Why a program is not well formed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProgramErrorKind {
    /// An image, image command or image barrier is not well formed, or
    /// breaks a layout rule (`crate::ir::image`).
    /// (Boxed: the image errors carry names and layouts, and every
    /// `Result` of the crate would grow with them.)
    #[error(transparent)]
    Image(Box<super::image::ImageError>),
    /// A rendering command malformed or out of place (boxed as
    /// [`ProgramErrorKind::Image`] is).
    #[error(transparent)]
    Render(Box<super::render::RenderError>),
    /// Refused with "`{name}` has size 0".
    #[error("`{name}` has size 0")]
    ZeroSizeObject {
        /// The name concerned.
        name: String,
    },
    /// Refused with "pool `{name}` alignment {align} is not a power of two".
    #[error("pool `{name}` alignment {align} is not a power of two")]
    BadAlign {
        /// The name concerned.
        name: String,
        /// The alignment given.
        align: u64,
    },
    /// Refused with "`{name}` aliases `{other}` at {offset}..{end}, past its size {size}".
    #[error("`{name}` aliases `{other}` at {offset}..{end}, past its size {size}")]
    AliasOutOfBounds {
        /// The name concerned.
        name: String,
        /// The other object's name.
        other: String,
        /// The offset in bytes.
        offset: u64,
        /// The end offset in bytes.
        end: u64,
        /// The size in bytes.
        size: u64,
    },
    /// Refused with "`{name}` must alias a buffer or a pool, not the blob `{other}`".
    #[error("`{name}` must alias a buffer or a pool, not the blob `{other}`")]
    AliasOfBlob {
        /// The name concerned.
        name: String,
        /// The other object's name.
        other: String,
    },
    /// Refused with "range {range} of `{name}` is empty".
    #[error("range {range} of `{name}` is empty")]
    EmptyRange {
        /// The name concerned.
        name: String,
        /// The byte range.
        range: ByteRange,
    },
    /// Refused with "range {range} is out of bounds of `{name}` (size {size})".
    #[error("range {range} is out of bounds of `{name}` (size {size})")]
    OutOfBounds {
        /// The name concerned.
        name: String,
        /// The byte range.
        range: ByteRange,
        /// The size in bytes.
        size: u64,
    },
    /// Refused with "`{name}` is used before it is allocated".
    #[error("`{name}` is used before it is allocated")]
    UseBeforeAlloc {
        /// The name concerned.
        name: String,
    },
    /// Refused with "`{name}` is used after it was freed".
    #[error("`{name}` is used after it was freed")]
    UseAfterFree {
        /// The name concerned.
        name: String,
    },
    /// Refused with "`{name}` is freed twice".
    #[error("`{name}` is freed twice")]
    DoubleFree {
        /// The name concerned.
        name: String,
    },
    /// Refused with "`{name}` is allocated twice; give each allocation its own name".
    #[error("`{name}` is allocated twice; give each allocation its own name")]
    AllocTwice {
        /// The name concerned.
        name: String,
    },
    /// Refused with "`{name}` is not a blob, so it cannot be allocated or freed".
    #[error("`{name}` is not a blob, so it cannot be allocated or freed")]
    NotABlob {
        /// The name concerned.
        name: String,
    },
    /// Refused with "pool `{pool}` has no free range of {size} bytes for `{name}`".
    #[error("pool `{pool}` has no free range of {size} bytes for `{name}`")]
    PoolExhausted {
        /// The pool's name.
        pool: String,
        /// The name concerned.
        name: String,
        /// The size in bytes.
        size: u64,
    },
    /// Refused with "copy sizes differ: source {src} bytes, destination {dst} bytes".
    #[error("copy sizes differ: source {src} bytes, destination {dst} bytes")]
    CopySizeMismatch {
        /// The source.
        src: u64,
        /// The destination.
        dst: u64,
    },
    /// Refused with "{call}: the source of region {src_region} ({src}) and the destination of region {dst_region} ({dst}) overlap in memory (VUID)", the VUID of `call`'s rule.
    #[error("{call}: the source of region {src_region} ({src}) and the destination of region {dst_region} ({dst}) overlap in memory ({})", super::layout::copy_overlap_vuid(.call))]
    CopyOverlap {
        /// The Vulkan command (`vkCmdCopyBuffer`, `vkCmdCopyImage`, ...);
        /// its rule's VUID follows from it (`copy_overlap_vuid`).
        call: &'static str,
        /// The index in `pRegions` of the region whose source overlaps
        /// (`u32`, as `regionCount`, keeps the error small).
        src_region: u32,
        /// The bytes of that source region (a row of an image region).
        src: String,
        /// The index of the region whose destination overlaps.
        dst_region: u32,
        /// The bytes of that destination region.
        dst: String,
    },
    /// Refused with "{call}: the destinations of region {first_region} ({first}) and region {second_region} ({second}) overlap in memory (VUID)", the VUID of `call`'s rule that each memory location is written by one destination region at most.
    #[error("{call}: the destinations of region {first_region} ({first}) and region {second_region} ({second}) overlap in memory ({})", super::layout::copy_destination_overlap_vuid(.call).unwrap_or("the command's pRegions destination overlap rule"))]
    CopyDestinationOverlap {
        /// The Vulkan command (`vkCmdCopyImage`, ...); its rule's VUID
        /// follows from it (`copy_destination_overlap_vuid`).
        call: &'static str,
        /// The lower index in `pRegions` of the two regions.
        first_region: u32,
        /// The bytes of its destination that overlap.
        first: String,
        /// The higher index.
        second_region: u32,
        /// The bytes of its destination.
        second: String,
    },
    /// Refused with "{what} {value} must be a multiple of 4".
    #[error("{what} {value} must be a multiple of 4")]
    Misaligned {
        /// What must be aligned.
        what: &'static str,
        /// The value given.
        value: u64,
    },
    /// Refused with "update of {size} bytes exceeds vkCmdUpdateBuffer's 65536-byte limit".
    #[error("update of {size} bytes exceeds vkCmdUpdateBuffer's 65536-byte limit")]
    UpdateTooLarge {
        /// The size in bytes.
        size: u64,
    },
    /// Refused with "indirect dispatch arguments must be exactly 12 bytes, got {size}".
    #[error("indirect dispatch arguments must be exactly 12 bytes, got {size}")]
    IndirectSize {
        /// The size in bytes.
        size: u64,
    },
    /// Refused with "dispatch has no storage binding".
    #[error("dispatch has no storage binding")]
    NoBindings,
    /// Refused with "`{keyword}` cannot be in a command buffer submitted again and again; it may hold device commands and barriers only".
    #[error("`{keyword}` cannot be in a command buffer submitted again and again; it may hold device commands and barriers only")]
    NotRepeatable {
        /// The command's keyword.
        keyword: &'static str,
    },
    /// Refused with "in the second submission of the command buffer (it starts from the layouts the first leaves): {source}". An error of a command buffer submitted again and again that only its second submission meets (a layout the first leaves), at the input's command.
    #[error("in the second submission of the command buffer (it starts from the layouts the first leaves): {source}")]
    InSecondSubmission {
        /// The error, as the second submission meets it.
        source: Box<ProgramErrorKind>,
    },
    /// Refused with "barrier {index}: {source}".
    #[error("barrier {index}: {source}")]
    BarrierScope {
        /// The index.
        index: usize,
        /// Why.
        source: ScopeError,
    },
    /// Refused with "invalid name `{name}`: use letters, digits, `_`, `-` and `.`, starting with a letter or `_`".
    #[error("invalid name `{name}`: use letters, digits, `_`, `-` and `.`, starting with a letter or `_`")]
    BadName {
        /// The name concerned.
        name: String,
    },
    /// Refused with "`{name}` is already declared".
    #[error("`{name}` is already declared")]
    DuplicateName {
        /// The name concerned.
        name: String,
    },
    /// Refused with "invalid kernel name `{name}`: use letters, digits, `_`, `-` and `.`, starting with a letter or `_`, and not `read`, `write`, `rw` or `indirect`".
    #[error("invalid kernel name `{name}`: use letters, digits, `_`, `-` and `.`, starting with a letter or `_`, and not `read`, `write`, `rw` or `indirect`")]
    BadKernelName {
        /// The name concerned.
        name: String,
    },
    /// Refused with "object id {id} is not one of this program's ({count} objects)".
    #[error("object id {id} is not one of this program's ({count} objects)")]
    UnknownObject {
        /// The object id given.
        id: u32,
        /// How many there are.
        count: usize,
    },
    /// Refused with "range {range} ends before it starts".
    #[error("range {range} ends before it starts")]
    ReversedRange {
        /// The byte range.
        range: ByteRange,
    },
    /// Refused with "`{name}` is a blob: declare it with `alloc`, which also allocates it".
    #[error("`{name}` is a blob: declare it with `alloc`, which also allocates it")]
    BlobWithoutAlloc {
        /// The name concerned.
        name: String,
    },
    /// Refused with "blob `{name}` is never allocated (a blob is declared by its `alloc`)".
    #[error("blob `{name}` is never allocated (a blob is declared by its `alloc`)")]
    NeverAllocated {
        /// The name concerned.
        name: String,
    },
    /// Refused with "`alloc` of object {id}, but objects are declared in id order and the next is {next} (a blob is declared by its `alloc`)".
    #[error("`alloc` of object {id}, but objects are declared in id order and the next is {next} (a blob is declared by its `alloc`)")]
    AllocOutOfOrder {
        /// The object id given.
        id: u32,
        /// The id the next declaration takes.
        next: u32,
    },
    /// Refused with "`{name}` is used before it is declared: objects are declared in id order, and a blob before it is allocated only later".
    #[error("`{name}` is used before it is declared: objects are declared in id order, and a blob before it is allocated only later")]
    UsedBeforeDeclared {
        /// The name concerned.
        name: String,
    },
    /// Refused with "too many objects (at most 4294967296)".
    #[error("too many objects (at most 4294967296)")]
    TooManyObjects,
    /// Refused with "`alloc` of `{name}` is its declaration: it cannot be removed or replaced".
    #[error("`alloc` of `{name}` is its declaration: it cannot be removed or replaced")]
    RemovesAlloc {
        /// The blob.
        name: String,
    },
    /// Refused with "barrier {index}: flag bits {bits:#x} have no name in vksync (stages and accesses of the model only)".
    #[error(
        "barrier {index}: flag bits {bits:#x} have no name in vksync (stages and accesses of the model only)"
    )]
    UnnamedFlags {
        /// The barrier's index in its command.
        index: usize,
        /// The bits.
        bits: u64,
    },
    /// Refused with "barrier {index}: a layout transition needs a region (the image's memory)".
    #[error("barrier {index}: a layout transition needs a region (the image's memory)")]
    TransitionWithoutRegion {
        /// The barrier's index in its command.
        index: usize,
    },
    /// Refused with "barrier {index}: an ownership transfer needs a region (a buffer memory barrier)".
    #[error("barrier {index}: an ownership transfer needs a region (a buffer memory barrier)")]
    OwnershipWithoutRegion {
        /// The barrier's index in its command.
        index: usize,
    },
    /// Refused with "barrier {index}: an ownership transfer with a layout transition is not modelled".
    #[error("barrier {index}: an ownership transfer with a layout transition is not modelled")]
    OwnershipWithTransition {
        /// The barrier's index in its command.
        index: usize,
    },
    /// Refused with "barrier {index}: `{name}` is VK_SHARING_MODE_CONCURRENT: its barriers transfer no ownership (VUID-VkBufferMemoryBarrier2-buffer-04088)".
    #[error(
        "barrier {index}: `{name}` is VK_SHARING_MODE_CONCURRENT: its barriers transfer no ownership \
         (VUID-VkBufferMemoryBarrier2-buffer-04088)"
    )]
    OwnershipOfConcurrent {
        /// The barrier's index in its command.
        index: usize,
        /// The buffer (or the blob's pool).
        name: String,
    },
    /// Refused with "barrier {index}: an event's dependency cannot transfer ownership (only vkCmdPipelineBarrier2 can)".
    #[error(
        "barrier {index}: an event's dependency cannot transfer ownership (only vkCmdPipelineBarrier2 can)"
    )]
    OwnershipInEvent {
        /// The barrier's index in its dependency info.
        index: usize,
    },
    /// Refused with "`{name}` is a blob: it has its pool's sharing mode".
    #[error("`{name}` is a blob: it has its pool's sharing mode")]
    SharingOfBlob {
        /// The blob.
        name: String,
    },
    /// Refused with "there is no command {index} (the program has {count})".
    #[error("there is no command {index} (the program has {count})")]
    NoSuchCommand {
        /// The index.
        index: usize,
        /// How many there are.
        count: usize,
    },
    /// Refused with "queue id {id} is not one of this program's ({count} queues)".
    #[error("queue id {id} is not one of this program's ({count} queues)")]
    UnknownQueue {
        /// The queue id given.
        id: u32,
        /// How many there are (1 when none is declared: the implicit queue).
        count: usize,
    },
    /// Refused with "semaphore id {id} is not one of this program's ({count} semaphores)".
    #[error("semaphore id {id} is not one of this program's ({count} semaphores)")]
    UnknownSemaphore {
        /// The semaphore id given.
        id: u32,
        /// How many there are.
        count: usize,
    },
    /// Refused with "`{name}` is a queue or semaphore keyword and cannot name one".
    #[error("`{name}` is a keyword of `submit` and `wait` and cannot name a queue or semaphore")]
    ReservedName {
        /// The name concerned.
        name: String,
    },
    /// Refused with "binary semaphore `{name}` is waited on with no signal pending (VUID-vkQueueSubmit-pWaitSemaphores-03238)".
    #[error("binary semaphore `{name}` is waited on with no signal pending (VUID-vkQueueSubmit-pWaitSemaphores-03238)")]
    BinaryWaitWithoutSignal {
        /// The semaphore.
        name: String,
    },
    /// Refused with "timeline semaphore `{name}` is signalled with {value} on `{queue}`, ...".
    #[error(
        "timeline semaphore `{name}` is signalled with {value} on `{}`, but nothing orders this signal after \
         the signal of {previous} on `{}`: if it executes first, that one finds a greater value (a signal's \
         value must be greater than the semaphore's value when it executes: VUID-VkSubmitInfo2-semaphore-03882). \
         Wait in this batch for a value `{}`'s signal reaches first, with a stage mask that shares a stage with this \
         signal's, or wait for it on the host first, or signal from one queue",
        .queues.0, .queues.1, .queues.1
    )]
    TimelineSignalsUnordered {
        /// The semaphore.
        name: String,
        /// The value of this signal.
        value: u64,
        /// The value of the previous signal.
        previous: u64,
        /// This signal's queue and the previous signal's (boxed: the
        /// error type stays small).
        queues: Box<(String, String)>,
    },
    /// Refused with "binary semaphore `{name}` is waited on, but the batch of its pending signal waits for timeline `{timeline}` value {value}, which no signal submitted so far reaches (...)".
    #[error(
        "binary semaphore `{name}` is waited on, but the batch of its pending signal waits for timeline `{}` \
         value {value}, which no signal submitted so far reaches{}: every signal operation the pending signal \
         depends on must have been submitted (VUID-vkQueueSubmit2-semaphore-03873, VUID-vkQueueSubmit-pWaitSemaphores-03238)",
        .timeline.0,
        .timeline.1.as_ref().map_or(String::new(), |r| format!(" (the signals of it wait in turn, down to {r}, which none reaches)"))
    )]
    BinaryWaitDependsOnUnsubmitted {
        /// The binary semaphore.
        name: String,
        /// The timeline semaphore its pending signal's batch waits on,
        /// and, when signals of that value are submitted but wait in turn
        /// for a value nothing submitted reaches, that value, named (boxed:
        /// the error type stays small).
        timeline: Box<(String, Option<String>)>,
        /// The value waited for.
        value: u64,
    },
    /// Refused with "timeline semaphore `{name}` is signalled twice in one batch ...".
    #[error(
        "timeline semaphore `{name}` is signalled twice in one batch ({first} and {second}): the signal operations of \
         one batch are unordered, so {second} may execute first and {first} then finds a greater value \
         (VUID-VkSubmitInfo2-semaphore-03882); signal it once per batch"
    )]
    TimelineSignalledTwiceInOneBatch {
        /// The semaphore.
        name: String,
        /// The first value.
        first: u64,
        /// The second value.
        second: u64,
    },
    /// Refused with "binary semaphore `{name}` is signalled again before a wait unsignals it (VUID-vkQueueSubmit-pSignalSemaphores-00067)".
    #[error("binary semaphore `{name}` is signalled again before a wait unsignals it (VUID-vkQueueSubmit-pSignalSemaphores-00067)")]
    BinarySignalledTwice {
        /// The semaphore.
        name: String,
    },
    /// Refused with "binary semaphore `{name}` is waited on by queue `{queue}` while the wait of queue `{other}` on it may still be pending: two queues may not wait on one binary semaphore at once (VUID-vkQueueSubmit-pWaitSemaphores-00068, VUID-vkQueueSubmit2-semaphore-03871), and either wait may take either signal; make the earlier wait known complete first (`wait {other}`, or a semaphore that queue `{other}` signals after it (after a command in that wait's stages, if its mask lacks ALL_COMMANDS) and an earlier batch of queue `{queue}` waits for, all with ALL_COMMANDS) or use a timeline semaphore".
    #[error("binary semaphore `{name}` is waited on by queue `{queue}` while the wait of queue `{other}` on it may still be pending: two queues may not wait on one binary semaphore at once (VUID-vkQueueSubmit-pWaitSemaphores-00068, VUID-vkQueueSubmit2-semaphore-03871), and either wait may take either signal; make the earlier wait known complete first (`wait {other}`, or a semaphore that queue `{other}` signals after it (after a command in that wait's stages, if its mask lacks ALL_COMMANDS) and an earlier batch of queue `{queue}` waits for, all with ALL_COMMANDS) or use a timeline semaphore")]
    BinaryWaitsOverlap {
        /// The semaphore.
        name: String,
        /// The queue of this wait.
        queue: String,
        /// The queue of the earlier wait.
        other: String,
    },
    /// Refused with "binary semaphore `{name}` is signalled on queue `{queue}` while the wait of queue `{other}` on it may not have unsignalled it yet: a binary signal must find the semaphore unsignalled when it executes (VUID-vkQueueSubmit-pSignalSemaphores-00067, VUID-vkQueueSubmit2-semaphore-03868); order that wait before this signal (`wait {other}`, or a semaphore that queue `{other}` signals after it (after a command in that wait's stages, if its mask lacks ALL_COMMANDS) and this batch or an earlier one of queue `{queue}` waits for, all with ALL_COMMANDS) or use another semaphore".
    #[error("binary semaphore `{name}` is signalled on queue `{queue}` while the wait of queue `{other}` on it may not have unsignalled it yet: a binary signal must find the semaphore unsignalled when it executes (VUID-vkQueueSubmit-pSignalSemaphores-00067, VUID-vkQueueSubmit2-semaphore-03868); order that wait before this signal (`wait {other}`, or a semaphore that queue `{other}` signals after it (after a command in that wait's stages, if its mask lacks ALL_COMMANDS) and this batch or an earlier one of queue `{queue}` waits for, all with ALL_COMMANDS) or use another semaphore")]
    BinarySignalBeforeWaitDone {
        /// The semaphore.
        name: String,
        /// The queue of this signal.
        queue: String,
        /// The queue of the earlier wait.
        other: String,
    },
    /// Refused with "timeline semaphore `{name}` is waited for value {value}, but no signal of the program reaches it (its last value is {current}): the wait would never complete".
    #[error("timeline semaphore `{name}` is waited for value {value}, but no signal of the program reaches it (its last value is {current}): the wait would never complete")]
    TimelineWaitNeverSignalled {
        /// The semaphore.
        name: String,
        /// The value waited for.
        value: u64,
        /// The greatest value the program signals (or the initial value).
        current: u64,
    },
    /// Refused with "the program can never complete: {waits} can never be satisfied (each needs a signal that can only happen after one of these waits; no time limit makes the program finish)".
    #[error("the program can never complete: {waits} can never be satisfied (each needs a signal that can only happen after one of these waits; no time limit makes the program finish)")]
    NeverCompletes {
        /// The waits that are never satisfied, named by semaphore, value
        /// and queue (and the host's blocked wait, if any).
        waits: String,
    },
    /// Refused with "timeline semaphore `{name}` is signalled with {value}, which is not greater than its value {current} (VUID-VkSemaphoreSignalInfo-value-03258)".
    #[error("timeline semaphore `{name}` is signalled with {value}, which is not greater than its value {current} (VUID-VkSemaphoreSignalInfo-value-03258)")]
    TimelineValueNotIncreasing {
        /// The semaphore.
        name: String,
        /// The value given.
        value: u64,
        /// The greatest value signalled before (or the initial value).
        current: u64,
    },
    /// Refused with "timeline semaphore `{name}` is signalled by the host with {value}, which is not less than the value {pending} a submitted batch signals that the host does not know complete (wait for it first; VUID-VkSemaphoreSignalInfo-value-03259: the value must be less than that of any pending signal)".
    #[error("timeline semaphore `{name}` is signalled by the host with {value}, which is not less than the value {pending} a submitted batch signals that the host does not know complete (wait for it first; VUID-VkSemaphoreSignalInfo-value-03259: the value must be less than that of any pending signal)")]
    TimelineHostSignalNotBelowPending {
        /// The semaphore.
        name: String,
        /// The host's value.
        value: u64,
        /// The least value of a pending signal.
        pending: u64,
    },
    /// Refused with "`{name}` is a binary semaphore: it takes no value".
    #[error("`{name}` is a binary semaphore: it takes no value")]
    ValueOnBinarySemaphore {
        /// The semaphore.
        name: String,
    },
    /// Refused with "`{name}` is a timeline semaphore: give a value (`{name}:VALUE`)".
    #[error("`{name}` is a timeline semaphore: give a value (`{name}:VALUE`)")]
    TimelineValueMissing {
        /// The semaphore.
        name: String,
    },
    /// Refused with "`{keyword}` needs a timeline semaphore; `{name}` is binary".
    #[error("`{keyword}` needs a timeline semaphore; `{name}` is binary")]
    HostOpOnBinarySemaphore {
        /// `host-signal` or `host-wait`.
        keyword: &'static str,
        /// The semaphore.
        name: String,
    },
    /// Refused with "the stage mask of semaphore `{name}` may not include HOST or unnamed bits {bits:#x} (VUID-VkSubmitInfo-pWaitDstStageMask-00078)".
    #[error("the stage mask of semaphore `{name}` may not include HOST or unnamed bits {bits:#x} (VUID-VkSubmitInfo-pWaitDstStageMask-00078)")]
    BadSemaphoreStages {
        /// The semaphore.
        name: String,
        /// The offending bits.
        bits: u64,
    },
    /// Refused with "event id {id} is not one of this program's ({count} events)".
    #[error("event id {id} is not one of this program's ({count} events)")]
    UnknownEvent {
        /// The event id given.
        id: u32,
        /// How many there are.
        count: usize,
    },
    /// Refused with "event `{name}` needs at least one barrier in its dependency info".
    #[error("event `{name}` needs at least one barrier in its dependency info")]
    EventWithoutBarriers {
        /// The event.
        name: String,
    },
    /// Refused with "barrier {index} of the wait for event `{name}`, which the host set: its image layout transition is performed by no command (vkCmdSetEvent2 performs an event's transitions, and vkSetEvent has no dependency info)".
    #[error("barrier {index} of the wait for event `{name}`, which the host set: its image layout transition is performed by no command (vkCmdSetEvent2 performs an event's transitions, and vkSetEvent has no dependency info)")]
    EventTransition {
        /// The event.
        name: String,
        /// The barrier's index in the dependency info.
        index: usize,
    },
    /// Refused with "barrier {index} of the set of event `{name}`: its stage masks may not include HOST (VUID-vkCmdSetEvent2-srcStageMask-09391, -dstStageMask-09392)".
    #[error("barrier {index} of the set of event `{name}`: its stage masks may not include HOST (VUID-vkCmdSetEvent2-srcStageMask-09391, -dstStageMask-09392)")]
    EventSetHostStage {
        /// The event.
        name: String,
        /// The barrier's index in the dependency info.
        index: usize,
    },
    /// Refused with "event `{name}` is reset with stageMask {stages} after
    /// a wait ...": a device reset whose first synchronization scope meets
    /// no stage a chain from a wait of the event earlier in submission
    /// order reaches (review39).
    #[error(
        "event `{name}` is reset with stageMask {stages} after a wait of it earlier in submission order whose \
         execution dependency chain reaches {reached}: there must be an execution dependency between the reset and \
         that wait (VUID-vkCmdResetEvent2-event-03832; after a vkCmdWaitEvents: -03831); give the reset a stage of \
         the wait's dstStageMask, or ALL_COMMANDS"
    )]
    ResetEventAfterWaitUnordered {
        /// The event.
        name: String,
        /// The reset's `stageMask` as written.
        stages: String,
        /// The stages a chain from the wait reaches (its `dstStageMask`
        /// and the barriers after it), or `no stage`.
        reached: String,
    },
    /// Refused with "event `{name}` is already set: reset it first (a vkCmdSetEvent2, vkCmdSetEvent or vkSetEvent of a signaled event has no effect)".
    #[error("event `{name}` is already set: reset it first (a vkCmdSetEvent2, vkCmdSetEvent or vkSetEvent of a signaled event has no effect)")]
    EventAlreadySet {
        /// The event.
        name: String,
    },
    /// Refused with "event `{name}` is waited on but not set (no set earlier in the trace, or a reset since): the wait would never end (VUID-vkCmdWaitEvents2-pEvents-03841)".
    #[error("event `{name}` is waited on but not set (no set earlier in the trace, or a reset since): the wait would never end (VUID-vkCmdWaitEvents2-pEvents-03841)")]
    EventNotSet {
        /// The event.
        name: String,
    },
    /// Refused with "the dependency info waited on for event `{name}` differs from the one it was set with in {difference} (VUID-vkCmdWaitEvents2-pEvents-10788: exactly equal)".
    #[error("the dependency info waited on for event `{name}` differs from the one it was set with in {difference} (VUID-vkCmdWaitEvents2-pEvents-10788: exactly equal)")]
    EventDependencyMismatch {
        /// The event.
        name: String,
        /// The first field that differs, e.g. `barrier 0: dstStageMask
        /// COPY (set: CLEAR)`.
        difference: String,
    },
    /// Refused with "event `{name}` was set by the host: every barrier of its wait may name only HOST in its source stages (VUID-vkCmdWaitEvents2-pEvents-03839)".
    #[error("event `{name}` was set by the host: every barrier of its wait may name only HOST in its source stages (VUID-vkCmdWaitEvents2-pEvents-03839)")]
    HostEventWaitNotHost {
        /// The event.
        name: String,
    },
    /// Refused with "event `{name}` is waited on queue `{wait_queue}` but was set on queue `{set_queue}`: events order commands of one queue only".
    #[error("event `{name}` is waited on queue `{wait_queue}` but was set on queue `{set_queue}`: events order commands of one queue only")]
    EventOtherQueue {
        /// The event.
        name: String,
        /// The queue of the set.
        set_queue: String,
        /// The queue of the wait.
        wait_queue: String,
    },
    /// Refused with "event `{name}` has a {} on queue `{}` while a {} of it on queue `{}` is not ordered before it (the host has not waited for that batch, and no semaphore chain with ALL_COMMANDS orders it before this one): the two may execute in either order, and events order commands of one queue only (a set of a signaled event has no effect, and a wait must not wait on another queue's set)".
    #[error("event `{name}` has a {} on queue `{}` while a {} of it on queue `{}` is not ordered before it (the host has not waited for that batch, and no semaphore chain with ALL_COMMANDS orders it before this one): the two may execute in either order, and events order commands of one queue only (a set of a signaled event has no effect, and a wait must not wait on another queue's set)", .ops.0, .queues.0, .ops.1, .queues.1)]
    EventOnTwoQueues {
        /// The event.
        name: String,
        /// The command of the batch being submitted (`set-event`,
        /// `set-event1`, `reset-event` or `wait-events`), and the latest
        /// such command submitted on the other queue.
        ops: (&'static str, &'static str),
        /// The two queues, in the same order.
        queues: Box<(String, String)>,
    },
    /// Refused with "event `{name}` is set by the host while a submitted wait-events on queue `{queue}` waits for it and the host has not waited for that wait's batch (`wait`, `wait {queue}`, or a `wait QUEUE` or host-wait that semaphores signalled and waited with ALL_COMMANDS order after it): an event a pending command buffer waits on must not be set by the host, which sets it before submitting the wait (VUID-vkSetEvent-event-09543)".
    #[error("event `{name}` is set by the host while a submitted wait-events on queue `{queue}` waits for it and the host has not waited for that wait's batch (`wait`, `wait {queue}`, or a `wait QUEUE` or host-wait that semaphores signalled and waited with ALL_COMMANDS order after it): an event a pending command buffer waits on must not be set by the host, which sets it before submitting the wait (VUID-vkSetEvent-event-09543)")]
    HostSetEventWaitPending {
        /// The event.
        name: String,
        /// The queue of the pending wait.
        queue: String,
    },
    /// Refused with "event `{name}` is reset by the host while a submitted wait-events on queue `{queue}` waits for it and the host has not waited for that wait's batch (`wait`, `wait {queue}`, or a `wait QUEUE` or host-wait that semaphores signalled and waited with ALL_COMMANDS order after it): vkResetEvent needs an execution dependency after the wait (VUID-vkResetEvent-event-03822, VUID-vkResetEvent-event-03821)".
    #[error("event `{name}` is reset by the host while a submitted wait-events on queue `{queue}` waits for it and the host has not waited for that wait's batch (`wait`, `wait {queue}`, or a `wait QUEUE` or host-wait that semaphores signalled and waited with ALL_COMMANDS order after it): vkResetEvent needs an execution dependency after the wait (VUID-vkResetEvent-event-03822, VUID-vkResetEvent-event-03821)")]
    HostResetEventWaitPending {
        /// The event.
        name: String,
        /// The queue of the pending wait.
        queue: String,
    },
    /// Refused with "event `{name}` is {host_op} by the host while a submitted {device_op} of it on queue `{queue}` may not have executed (the host has not waited for its batch: `wait`, `wait {queue}`, or a `wait QUEUE` or host-wait that semaphores signalled and waited with ALL_COMMANDS order after it): the device may execute it after the host's operation, and the event is then not in the state the program goes on with (a set of a signaled event has no effect)".
    #[error("event `{name}` is {host_op} by the host while a submitted {device_op} of it on queue `{queue}` may not have executed (the host has not waited for its batch: `wait`, `wait {queue}`, or a `wait QUEUE` or host-wait that semaphores signalled and waited with ALL_COMMANDS order after it): the device may execute it after the host's operation, and the event is then not in the state the program goes on with (a set of a signaled event has no effect)")]
    HostEventDeviceOpPending {
        /// The event.
        name: String,
        /// `set` or `reset`.
        host_op: &'static str,
        /// `set-event`, `set-event1` or `reset-event`.
        device_op: &'static str,
        /// The queue of the pending command.
        queue: String,
    },
    /// Refused with "event `{name}` is {host_op} by the host while a {device_op} of it is recorded and not yet submitted: the host's call runs before that command, which runs only once its batch is submitted, not where the trace writes it; vksync does not reorder them (write the host's call before the recording or after the submit, as `vksync capture` does)".
    #[error("event `{name}` is {host_op} by the host while a {device_op} of it is recorded and not yet submitted: the host's call runs before that command, which runs only once its batch is submitted, not where the trace writes it; vksync does not reorder them (write the host's call before the recording or after the submit, as `vksync capture` does)")]
    HostEventBeforeRecorded {
        /// The event.
        name: String,
        /// `set` or `reset`.
        host_op: &'static str,
        /// `set-event`, `set-event1`, `reset-event`, `wait-events` or
        /// `wait-events1`.
        device_op: &'static str,
    },
    /// Refused with "the stage mask of the vkCmdSetEvent of event `{name}` may not include HOST or unnamed bits {bits:#x} (VUID-vkCmdSetEvent-stageMask-01149)".
    #[error("the stage mask of the vkCmdSetEvent of event `{name}` may not include HOST or unnamed bits {bits:#x} (VUID-vkCmdSetEvent-stageMask-01149)")]
    EventSet1Stages {
        /// The event.
        name: String,
        /// The offending bits.
        bits: u64,
    },
    /// Refused with "`{flag}` is a synchronization-2 flag: {call} takes the 32-bit synchronization-1 flags (write `{instead}`)".
    #[error("`{flag}` is a synchronization-2 flag: {call} takes the 32-bit synchronization-1 flags (write `{instead}`)")]
    Sync2OnlyFlag {
        /// The synchronization-1 call: `vkCmdSetEvent` or `vkCmdWaitEvents`.
        call: &'static str,
        /// The flag's name.
        flag: &'static str,
        /// The synchronization-1 flag that covers it.
        instead: &'static str,
    },
    /// Refused with "vkCmdWaitEvents waits for no event (eventCount must be greater than 0)".
    #[error("vkCmdWaitEvents waits for no event (eventCount must be greater than 0)")]
    WaitEvents1WithoutEvents,
    /// Refused with "vkCmdWaitEvents needs its stage masks: at least one barrier (an execution-only wait is `SRC_STAGES:NONE -> DST_STAGES:NONE`)".
    #[error("vkCmdWaitEvents needs its stage masks: at least one barrier (an execution-only wait is `SRC_STAGES:NONE -> DST_STAGES:NONE`)")]
    WaitEvents1WithoutBarriers,
    /// Refused with "barrier {index} of vkCmdWaitEvents has other stage masks than barrier 0: the call has one srcStageMask and one dstStageMask".
    #[error("barrier {index} of vkCmdWaitEvents has other stage masks than barrier 0: the call has one srcStageMask and one dstStageMask")]
    WaitEvents1StageMasks {
        /// The barrier's index in the call.
        index: usize,
    },
    /// Refused with "event `{name}` was set by vkCmdSetEvent2: vkCmdWaitEvents cannot wait for it (VUID-vkCmdWaitEvents-pEvents-03847)".
    #[error("event `{name}` was set by vkCmdSetEvent2: vkCmdWaitEvents cannot wait for it (VUID-vkCmdWaitEvents-pEvents-03847)")]
    EventSetBySync2 {
        /// The event.
        name: String,
    },
    /// Refused with "event `{name}` was set by vkCmdSetEvent: vkCmdWaitEvents2 cannot wait for it (VUID-vkCmdWaitEvents2-pEvents-03837)".
    #[error("event `{name}` was set by vkCmdSetEvent: vkCmdWaitEvents2 cannot wait for it (VUID-vkCmdWaitEvents2-pEvents-03837)")]
    EventSetBySync1 {
        /// The event.
        name: String,
    },
    /// Refused with "event `{name}` is waited on by vkCmdWaitEvents but not set (no set earlier in the trace, or a reset since): the wait would never end".
    #[error("event `{name}` is waited on by vkCmdWaitEvents but not set (no set earlier in the trace, or a reset since): the wait would never end")]
    Event1NotSet {
        /// The event.
        name: String,
    },
    /// Refused with "srcStageMask {given} of vkCmdWaitEvents is not {expected}, the OR of the stage masks its events were set with (and HOST for an event the host set) (VUID-vkCmdWaitEvents-srcStageMask-01158)".
    #[error("srcStageMask {} of vkCmdWaitEvents is not {}, the OR of the stage masks its events were set with (and HOST for an event the host set) (VUID-vkCmdWaitEvents-srcStageMask-01158)", .given.sync1_names(), .expected.sync1_names())]
    WaitEvents1SrcStageMask {
        /// The wait's `srcStageMask`.
        given: crate::vk::flags::PipelineStageFlags2,
        /// What it must be.
        expected: crate::vk::flags::PipelineStageFlags2,
    },
    /// Refused with "the stage mask of a reset of event `{name}` may not include HOST or unnamed bits {bits:#x} (VUID-vkCmdResetEvent2-stageMask-03830)".
    #[error("the stage mask of a reset of event `{name}` may not include HOST or unnamed bits {bits:#x} (VUID-vkCmdResetEvent2-stageMask-03830)")]
    BadResetStages {
        /// The event.
        name: String,
        /// The offending bits.
        bits: u64,
    },
    /// Refused with "{what}: events (split barriers) are not modelled here; check this program with `vksync::check` or the definitional semantics (`vksync::spec::races`)". What the planners, the tracker, the layer emulation and the runtime refuse, and the fast checker with several queues.
    #[error("{what}: events (split barriers) are not modelled here; check this program with `vksync::check` or the definitional semantics (`vksync::spec::races`)")]
    EventsNotSupported {
        /// The first command it does not model, described.
        what: String,
    },
    /// Refused with "{what}: not kept apart by the fast checker; check this program with the definitional semantics (`vksync::spec::races`)". A render pass whose subpass dependency reaches further back than the fast checker keeps subpasses apart (`SUBPASS_SLOTS`).
    #[error("{what}: not kept apart by the fast checker; check this program with the definitional semantics (`vksync::spec::races`)")]
    RenderPassNotSupported {
        /// The render pass command and the dependency, described.
        what: String,
    },
    /// Refused with "{what}: the definitional semantics decides a render pass of several views as its per-view subpasses and cannot write this instance so (not modelled)". A render pass instance of several views whose per-view form (`vksync::spec`) the model cannot write: a command inside a subpass that is not a draw, a clear, a barrier or an event wait, more than 64 dependencies in the per-view declaration, or a per-view program that is not valid.
    #[error("{what}: the definitional semantics decides a render pass of several views as its per-view subpasses and cannot write this instance so (not modelled)")]
    PerViewNotModelled {
        /// The render pass instance and why, described.
        what: String,
    },
    /// Refused with "{what}: against the other objects bound to an optimal image's memory every subresource of it overlaps all of that memory (\"Memory Aliasing\"), which the fast checkers and the planners do not model: `vksync::check` decides such a program with the definitional semantics (`vksync::spec::races`), and it is not planned". An optimal image sharing its memory with another object the program names, and named in part somewhere (a subresource range or a region short of the whole image): the fast checkers and the planners refuse it, `vksync::check` decides it with the definitional semantics.
    #[error("{what}: against the other objects bound to an optimal image's memory every subresource of it overlaps all of that memory (\"Memory Aliasing\"), which the fast checkers and the planners do not model: `vksync::check` decides such a program with the definitional semantics (`vksync::spec::races`), and it is not planned")]
    AliasedImageNotSupported {
        /// The command naming part of the image, and the other object.
        what: String,
    },
    /// Refused with "{what}: not modelled here with several queues or semaphores; check this program with the definitional semantics (`vksync::spec::races`)". What the planners, the tracker, the layer emulation and the runtime refuse, and the corners of several queues and semaphores the fast checker refuses.
    #[error("{what}: not modelled here with several queues or semaphores; check this program with the definitional semantics (`vksync::spec::races`)")]
    MultiQueueNotSupported {
        /// The first command it does not model, described.
        what: String,
    },
    /// Refused with "`{name}` is not a pool, so blobs cannot be allocated from it".
    #[error("`{name}` is not a pool, so blobs cannot be allocated from it")]
    NotAPool {
        /// The name concerned.
        name: String,
    },
}

/// A program error with its location: shown as "command 3: ..." or
/// "object 2: ..." (the trace parser and the CLI place it on a line
/// instead, showing only [`ProgramError::kind`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{at}: {kind}")]
pub struct ProgramError {
    /// The command or object concerned.
    pub at: Location,
    /// What is wrong.
    pub kind: ProgramErrorKind,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Command(i) => write!(f, "command {i}"),
            Location::Object(id) => write!(f, "object {}", id.0),
            Location::Queue(id) => write!(f, "queue {}", id.0),
            Location::Semaphore(id) => write!(f, "semaphore {}", id.0),
            Location::Event(id) => write!(f, "event {}", id.0),
        }
    }
}
