//! Random programs rich in synchronization, for comparing the fast checker
//! with the definitional semantics (`vksync::spec`).
//!
//! Unlike [`crate::programs`] (barrier-free programs for the planners),
//! these programs carry their own barriers: one to three per call, global
//! or over a buffer range (a quarter of those performing an image layout
//! transition of their range), with stage and access masks drawn from an
//! alphabet that includes the pseudo stages (`TOP_OF_PIPE`,
//! `BOTTOM_OF_PIPE`, `ALL_COMMANDS`, `NONE`) and the meta accesses. Memory
//! is shared in every way the model knows: blobs recycled through pools, a
//! buffer aliasing another's memory, aliasing buffers over a pool. Dispatch
//! bindings are read, write or read-write, some dispatches are indirect,
//! fills and updates cover sub-ranges, the host reads and writes, and
//! submits and waits come anywhere. Every operation re-checks its
//! preconditions, so every subsequence is a valid program (shrinking stays
//! valid). The module also turns both checkers' answers into one
//! comparable form ([`keys_of_hazards`], [`keys_of_races`]).

use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use vksync::spec::Race;
use vksync::spec::{validate, Side};
use vksync::{
    resolve, AccessFlags2 as A, Barrier, Binding, BindingAccess, BlobAllocator, ByteRange, Command,
    Dependency, EventWait, Hazard, HazardKind, MemId, ObjectId, PipelineStageFlags2 as S, Program,
    SemaphoreSignal, SemaphoreType, SemaphoreWait, Submission, WaitFor,
};

/// Stage masks barriers draw from.
pub const STAGE_MASKS: [S; 14] = [
    S::NONE,
    S::TOP_OF_PIPE,
    S::BOTTOM_OF_PIPE,
    S::ALL_COMMANDS,
    S::ALL_TRANSFER,
    S::COPY,
    S::CLEAR,
    S::COMPUTE_SHADER,
    S::DRAW_INDIRECT,
    S::HOST,
    S::COPY.union(S::COMPUTE_SHADER),
    S::CLEAR.union(S::COPY),
    S::ALL_COMMANDS.union(S::HOST),
    S::DRAW_INDIRECT.union(S::COMPUTE_SHADER),
];

/// Stage masks of the synchronization-1 event commands (`set-event1`'s
/// stage mask, `wait-events1`'s `dstStageMask`): [`STAGE_MASKS`] in
/// 32-bit flags (`TRANSFER` for the transfer stages; a set holds no
/// `HOST`, and a wait's `HOST` comes only from a host set).
pub const STAGE_MASKS_1: [S; 9] = [
    S::NONE,
    S::TOP_OF_PIPE,
    S::BOTTOM_OF_PIPE,
    S::ALL_COMMANDS,
    S::ALL_TRANSFER,
    S::COMPUTE_SHADER,
    S::DRAW_INDIRECT,
    S::ALL_TRANSFER.union(S::COMPUTE_SHADER),
    S::DRAW_INDIRECT.union(S::COMPUTE_SHADER),
];

/// An access mask of [`ACCESS_MASKS`] in 32-bit (synchronization-1)
/// flags: the storage and sampled accesses become the shader accesses
/// that hold them.
fn sync1_access(a: A) -> A {
    let mut out = a & !(A::SHADER_STORAGE_READ | A::SHADER_SAMPLED_READ | A::SHADER_STORAGE_WRITE);
    if a.intersects(A::SHADER_STORAGE_READ | A::SHADER_SAMPLED_READ) {
        out |= A::SHADER_READ;
    }
    if a.intersects(A::SHADER_STORAGE_WRITE) {
        out |= A::SHADER_WRITE;
    }
    out
}

/// Access masks barriers draw from (unsupported bits are dropped for the
/// stage mask they meet, so every barrier is valid usage).
pub const ACCESS_MASKS: [A; 16] = [
    A::NONE,
    A::MEMORY_READ,
    A::MEMORY_WRITE,
    A::MEMORY_READ.union(A::MEMORY_WRITE),
    A::SHADER_READ,
    A::SHADER_WRITE,
    A::SHADER_STORAGE_READ,
    A::SHADER_STORAGE_WRITE,
    A::TRANSFER_READ,
    A::TRANSFER_WRITE,
    A::INDIRECT_COMMAND_READ,
    A::HOST_READ,
    A::HOST_WRITE,
    A::UNIFORM_READ,
    A::SHADER_SAMPLED_READ,
    A::SHADER_READ
        .union(A::SHADER_WRITE)
        .union(A::TRANSFER_READ)
        .union(A::TRANSFER_WRITE),
];

/// One barrier: indices into the mask alphabets, an optional range
/// (object pick, start word, words), and whether it performs a layout
/// transition of that range (ignored without one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BarrierOp {
    pub masks: [u8; 4],
    pub range: Option<(u8, u8, u8)>,
    pub transition: bool,
}

/// One abstract operation; indices pick among live objects modulo their
/// count, sizes and offsets are in 4-byte words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyncOp {
    Alloc {
        pool: u8,
        words: u8,
    },
    Free {
        which: u8,
    },
    Copy {
        src: u8,
        dst: u8,
        start: u8,
        words: u8,
    },
    Fill {
        dst: u8,
        start: u8,
        words: u8,
    },
    Update {
        dst: u8,
        start: u8,
        words: u8,
    },
    Dispatch {
        bindings: Vec<(u8, u8, u8, u8)>,
        indirect: Option<(u8, u8)>,
    },
    Barrier(Vec<BarrierOp>),
    HostWrite {
        dst: u8,
        start: u8,
        words: u8,
    },
    HostRead {
        src: u8,
        start: u8,
        words: u8,
    },
    Submit,
    Wait,
    /// A submit to queue `queue % 3` with semaphore waits and signals:
    /// (semaphore pick, stage mask pick, value pick) each. Binary waits
    /// need a pending signal and binary signals an unsignalled semaphore
    /// (else dropped); timeline signals raise the value, timeline waits
    /// wait for a value some earlier signal (or the initial value) reached,
    /// so no program deadlocks.
    SubmitTo {
        queue: u8,
        waits: Vec<(u8, u8, u8)>,
        signals: Vec<(u8, u8, u8)>,
    },
    /// `wait QUEUE` on queue `% 3`.
    WaitQueue(u8),
    /// `host-signal` of a timeline semaphore, above its value.
    HostSignal {
        sem: u8,
        step: u8,
    },
    /// `host-wait` of a timeline semaphore, for a value already signalled.
    HostWait {
        sem: u8,
        value: u8,
    },
    /// `set-event` of event `event % 3` with these barriers (`HOST`
    /// dropped from the stage masks; one over a range transitions it with
    /// [`BarrierOp::transition`], at the set); dropped when the event is
    /// already set.
    SetEvent {
        event: u8,
        barriers: Vec<BarrierOp>,
        /// The first barrier's masks are `ALL_COMMANDS:MEMORY_WRITE ->
        /// ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE` (random masks rarely
        /// order what a program needs, so without these most waits would
        /// decide nothing).
        full: bool,
    },
    /// `wait-events` of the events picked (`% 3`) that are set, each with
    /// its set's dependency info; dropped when none is.
    WaitEvents(Vec<u8>),
    /// `reset-event` of event `% 3`.
    ResetEvent(u8),
    /// `set-event1` (`vkCmdSetEvent`) of event `event % 3` with stage mask
    /// [`STAGE_MASKS_1`]`[stages]`, or `ALL_COMMANDS` with `full`; dropped
    /// when the event is already set.
    SetEvent1 {
        event: u8,
        stages: u8,
        full: bool,
    },
    /// `wait-events1` (`vkCmdWaitEvents`) of the events picked (`% 3`)
    /// that a `set-event1` or the host set, with `srcStageMask` the OR of
    /// their stage masks (and `HOST` for a host set), `dstStageMask`
    /// [`STAGE_MASKS_1`]`[dst]` and these barriers' access masks (valid for
    /// the stage masks) and ranges (one over a range transitions it with
    /// [`BarrierOp::transition`], at the wait); dropped when no picked
    /// event is set so. With `full`, `dstStageMask` is `ALL_COMMANDS` and
    /// the first barrier's accesses `MEMORY_WRITE -> MEMORY_READ|MEMORY_WRITE`.
    WaitEvents1 {
        picks: Vec<u8>,
        barriers: Vec<BarrierOp>,
        dst: u8,
        full: bool,
    },
    /// `host-set-event` of event `% 3`, when it is not set.
    HostSetEvent(u8),
    /// A barrier over a range of the exclusive buffer `buf0` transferring
    /// ownership from family `src % 3` to `dst % 3` (queues `qa`, `qb`,
    /// `qc` are of families 0, 1, 1: family 2 has none, so a barrier can
    /// release to a family no queue acquires on, or name neither of its
    /// queue's family). With `full`, the masks are those of the spec's
    /// pattern (`ALL_COMMANDS:MEMORY_WRITE -> NONE` for a release side,
    /// `NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE` for an acquire
    /// side, both given: each side ignores one half).
    Ownership {
        barrier: BarrierOp,
        src: u8,
        dst: u8,
        full: bool,
    },
}

fn barrier_op() -> impl Strategy<Value = BarrierOp> {
    (
        any::<[u8; 4]>(),
        prop::option::weighted(0.3, (any::<u8>(), any::<u8>(), 1u8..=32)),
        prop::bool::weighted(0.25),
    )
        .prop_map(|(masks, range, transition)| BarrierOp {
            masks,
            range,
            transition,
        })
}

/// A barrier of an event's dependency info: as [`barrier_op`], but over a
/// range and performing a layout transition of it more often (half the
/// time each), so that event transitions (at a `set-event`, at a
/// `wait-events1`) are common among the programs drawn.
fn event_barrier_op() -> impl Strategy<Value = BarrierOp> {
    (
        any::<[u8; 4]>(),
        prop::option::weighted(0.5, (any::<u8>(), any::<u8>(), 1u8..=32)),
        prop::bool::weighted(0.5),
    )
        .prop_map(|(masks, range, transition)| BarrierOp {
            masks,
            range,
            transition,
        })
}

fn sync_op() -> impl Strategy<Value = SyncOp> {
    let range = || (any::<u8>(), any::<u8>(), 1u8..=24);
    prop_oneof![
        2 => (0u8..2, 1u8..=24).prop_map(|(pool, words)| SyncOp::Alloc { pool, words }),
        1 => any::<u8>().prop_map(|which| SyncOp::Free { which }),
        3 => (any::<u8>(), any::<u8>(), any::<u8>(), 1u8..=16)
            .prop_map(|(src, dst, start, words)| SyncOp::Copy { src, dst, start, words }),
        1 => range().prop_map(|(dst, start, words)| SyncOp::Fill { dst, start, words }),
        1 => range().prop_map(|(dst, start, words)| SyncOp::Update { dst, start, words }),
        3 => (
            prop::collection::vec((any::<u8>(), 0u8..5, any::<u8>(), 1u8..=16), 1..=3),
            prop::option::weighted(0.2, (any::<u8>(), any::<u8>())),
        )
            .prop_map(|(bindings, indirect)| SyncOp::Dispatch { bindings, indirect }),
        4 => prop::collection::vec(barrier_op(), 1..=3).prop_map(SyncOp::Barrier),
        1 => range().prop_map(|(dst, start, words)| SyncOp::HostWrite { dst, start, words }),
        1 => range().prop_map(|(src, start, words)| SyncOp::HostRead { src, start, words }),
        1 => Just(SyncOp::Submit),
        1 => Just(SyncOp::Wait),
    ]
}

fn multi_queue_op() -> impl Strategy<Value = SyncOp> {
    let sem_ops = || prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 0..=2);
    prop_oneof![
        12 => sync_op(),
        4 => (0u8..3, sem_ops(), sem_ops())
            .prop_map(|(queue, waits, signals)| SyncOp::SubmitTo { queue, waits, signals }),
        1 => (0u8..3).prop_map(SyncOp::WaitQueue),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(sem, step)| SyncOp::HostSignal { sem, step }),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(sem, value)| SyncOp::HostWait { sem, value }),
    ]
}

fn ownership_op() -> impl Strategy<Value = SyncOp> {
    prop_oneof![
        8 => multi_queue_op(),
        // Semaphores with ALL_COMMANDS, which ownership transfers need, are
        // rare among random masks: a few more.
        2 => (0u8..3, any::<u8>(), any::<u8>()).prop_map(|(queue, w, s)| SyncOp::SubmitTo {
            queue,
            waits: vec![(w, 3, 0)],
            signals: vec![(s, 3, 0)],
        }),
        3 => (barrier_op(), 0u8..3, 0u8..3, prop::bool::weighted(0.5))
            .prop_map(|(barrier, src, dst, full)| SyncOp::Ownership { barrier, src, dst, full }),
    ]
}

/// Strategy for programs of [`multi_queue_ops`] whose queues are of
/// families 0, 1, 1, whose buffer `buf0` is `VK_SHARING_MODE_EXCLUSIVE`,
/// with queue family ownership transfers of ranges of it.
pub fn ownership_ops(max_ops: usize) -> impl Strategy<Value = Vec<SyncOp>> {
    prop::collection::vec(ownership_op(), 1..=max_ops)
}

/// Strategy for programs with three queues, two binary and two timeline
/// semaphores (one starting at 2), of up to `max_ops` operations: the
/// operations of [`sync_ops`] plus submits to any queue with semaphore
/// waits and signals (stage masks from [`STAGE_MASKS`]), `wait QUEUE`,
/// `host-signal` and `host-wait`.
pub fn multi_queue_ops(max_ops: usize) -> impl Strategy<Value = Vec<SyncOp>> {
    prop::collection::vec(multi_queue_op(), 1..=max_ops)
}

fn event_op() -> impl Strategy<Value = SyncOp> {
    prop_oneof![
        10 => sync_op(),
        3 => (any::<u8>(), prop::collection::vec(event_barrier_op(), 1..=2), prop::bool::weighted(0.5))
            .prop_map(|(event, barriers, full)| SyncOp::SetEvent { event, barriers, full }),
        3 => prop::collection::vec(any::<u8>(), 1..=2).prop_map(SyncOp::WaitEvents),
        1 => any::<u8>().prop_map(SyncOp::ResetEvent),
    ]
}

/// Strategy for single-queue programs with events (split barriers): the
/// operations of [`sync_ops`] plus `set-event`, `wait-events` and
/// `reset-event` of three events, with barriers as random as a pipeline
/// barrier's (global or over a range), so independent work lands between
/// a set and its wait.
pub fn event_ops(max_ops: usize) -> impl Strategy<Value = Vec<SyncOp>> {
    prop::collection::vec(event_op(), 1..=max_ops)
}

fn event1_op() -> impl Strategy<Value = SyncOp> {
    prop_oneof![
        10 => sync_op(),
        // A few synchronization-2 events beside, on the same three events.
        1 => (any::<u8>(), prop::collection::vec(event_barrier_op(), 1..=2), prop::bool::weighted(0.5))
            .prop_map(|(event, barriers, full)| SyncOp::SetEvent { event, barriers, full }),
        1 => prop::collection::vec(any::<u8>(), 1..=2).prop_map(SyncOp::WaitEvents),
        1 => any::<u8>().prop_map(SyncOp::ResetEvent),
        3 => (any::<u8>(), any::<u8>(), prop::bool::weighted(0.6))
            .prop_map(|(event, stages, full)| SyncOp::SetEvent1 { event, stages, full }),
        3 => (
            prop::collection::vec(any::<u8>(), 1..=3),
            prop::collection::vec(event_barrier_op(), 1..=2),
            any::<u8>(),
            prop::bool::weighted(0.6),
        )
            .prop_map(|(picks, barriers, dst, full)| SyncOp::WaitEvents1 { picks, barriers, dst, full }),
        1 => any::<u8>().prop_map(SyncOp::HostSetEvent),
    ]
}

/// Strategy for single-queue programs with synchronization-1 events: the
/// operations of [`event_ops`] (synchronization-2 events among them) plus
/// `set-event1`, `wait-events1` and `host-set-event` of the same three
/// events: a `set-event1` carries a stage mask only and each
/// `wait-events1` its own barriers, so one set may be waited by several
/// waits with different barriers, and one wait may wait for a device set
/// and a host set.
pub fn event1_ops(max_ops: usize) -> impl Strategy<Value = Vec<SyncOp>> {
    prop::collection::vec(event1_op(), 1..=max_ops)
}

fn multi_queue_event_op() -> impl Strategy<Value = SyncOp> {
    let sem_ops = || prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 0..=2);
    prop_oneof![
        12 => sync_op(),
        // Two queues of the three: more of each queue's batches follow
        // one another, so a wait often has accesses after it on its queue.
        3 => (0u8..2, sem_ops(), sem_ops())
            .prop_map(|(queue, waits, signals)| SyncOp::SubmitTo { queue, waits, signals }),
        1 => (0u8..3).prop_map(SyncOp::WaitQueue),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(sem, step)| SyncOp::HostSignal { sem, step }),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(sem, value)| SyncOp::HostWait { sem, value }),
        2 => (any::<u8>(), prop::collection::vec(event_barrier_op(), 1..=2), prop::bool::weighted(0.5))
            .prop_map(|(event, barriers, full)| SyncOp::SetEvent { event, barriers, full }),
        2 => prop::collection::vec(any::<u8>(), 1..=2).prop_map(SyncOp::WaitEvents),
        1 => any::<u8>().prop_map(SyncOp::ResetEvent),
        2 => (any::<u8>(), any::<u8>(), prop::bool::weighted(0.6))
            .prop_map(|(event, stages, full)| SyncOp::SetEvent1 { event, stages, full }),
        2 => (
            prop::collection::vec(any::<u8>(), 1..=3),
            prop::collection::vec(event_barrier_op(), 1..=2),
            any::<u8>(),
            prop::bool::weighted(0.6),
        )
            .prop_map(|(picks, barriers, dst, full)| SyncOp::WaitEvents1 { picks, barriers, dst, full }),
        1 => any::<u8>().prop_map(SyncOp::HostSetEvent),
    ]
}

/// Strategy for programs with several queues, semaphores and events of
/// both generations: the operations of [`multi_queue_ops`] and of
/// [`event1_ops`] mixed, so sets and waits land in batches of different
/// queues (a batch whose wait's set ran on another queue is refused at its
/// submit and its commands go with a later one), with submits, semaphore
/// operations and host sets between a set and its wait.
pub fn multi_queue_event_ops(max_ops: usize) -> impl Strategy<Value = Vec<SyncOp>> {
    prop::collection::vec(multi_queue_event_op(), 1..=max_ops)
}

/// Strategy for the operations of a program of up to `max_ops` operations.
pub fn sync_ops(max_ops: usize) -> impl Strategy<Value = Vec<SyncOp>> {
    prop::collection::vec(sync_op(), 1..=max_ops)
}

/// A sub-range of an object, in words, clamped to the object.
fn words_range(size: u64, start: u8, words: u8) -> (u64, u64) {
    let total = size / 4;
    let n = u64::from(words).clamp(1, total);
    let s = u64::from(start) % (total - n + 1);
    (s * 4, (s + n) * 4)
}

/// Drops the access bits no stage of `stages` supports, so the mask pair
/// is valid usage. Decided by the registry's rules (`vksync::spec::validate`),
/// not by the fast checker's table: a generator filtered through the
/// checker's own table would hide a wrong row from every differential.
fn valid_access(stages: S, access: A, side: Side) -> A {
    let mut out = A::NONE;
    for bit in access.iter() {
        if validate(stages, bit, side).is_ok() {
            out |= bit;
        }
    }
    out
}

/// Words `start..start + words` of object `o`, clamped to it
/// ([`words_range`]).
fn word_region(p: &Program, o: ObjectId, start: u8, words: u8) -> vksync::Region {
    let (s, e) = words_range(p.object(o).map_or(0, |o| o.size), start, words);
    p.region(o, s, e)
}

/// `barrier` over `b`'s range of a live object, if it has one, and then a
/// layout transition of that range with [`BarrierOp::transition`] (a
/// pipeline barrier's, an event set's or a `wait-events1`'s).
fn ranged(p: &Program, live: &[ObjectId], barrier: Barrier, b: &BarrierOp) -> Barrier {
    match b.range {
        Some((o, start, words)) => {
            let on = barrier.on(word_region(p, live[o as usize % live.len()], start, words));
            if b.transition {
                on.with_transition()
            } else {
                on
            }
        }
        None => barrier,
    }
}

/// Interprets operations into a valid program. Every program has two
/// pools of 1 KiB (blob alignment 64), two buffers of 256 bytes, a buffer
/// `alias0` over `buf0[64..192]` and a buffer `alias1` over `pool1[0..128]`.
pub fn build_sync(ops: &[SyncOp]) -> Program {
    let mut p = Program::new();
    // Fixed names and ids of this program: the builder cannot refuse them.
    let ok = "the generator names and ids are valid";
    let pools = [
        p.pool("pool0", 1024, 64).expect(ok),
        p.pool("pool1", 1024, 64).expect(ok),
    ];
    let bufs = [p.buffer("buf0", 256).expect(ok), p.buffer("buf1", 256).expect(ok)];
    let aliases = [
        p.alias("alias0", 128, bufs[0], 64).expect(ok),
        p.alias("alias1", 128, pools[1], 0).expect(ok),
    ];
    // The pools' allocators, mirrored (see `crate::build_with`).
    let mut allocators = [BlobAllocator::new(1024, 64), BlobAllocator::new(1024, 64)];
    let mut placed: std::collections::HashMap<ObjectId, (usize, u64)> = Default::default();
    let fixed: Vec<ObjectId> = bufs.iter().chain(&aliases).copied().collect();
    let mut live: Vec<ObjectId> = fixed.clone();
    let mut blobs = 0;
    let pick = |live: &[ObjectId], i: u8| live[i as usize % live.len()];
    // Queues and semaphores, declared only when an operation uses them
    // (single-queue programs print as before).
    let multi = ops.iter().any(|o| {
        matches!(
            o,
            SyncOp::SubmitTo { .. }
                | SyncOp::WaitQueue(_)
                | SyncOp::HostSignal { .. }
                | SyncOp::HostWait { .. }
                | SyncOp::Ownership { .. }
        )
    });
    let ownership = ops.iter().any(|o| matches!(o, SyncOp::Ownership { .. }));
    if ownership {
        p.set_sharing(bufs[0], vksync::SharingMode::Exclusive).expect(ok);
    }
    let mut queues = Vec::new();
    let mut sems = Vec::new();
    if multi {
        let families = if ownership { [0, 1, 1] } else { [0, 0, 0] };
        for (name, family) in ["qa", "qb", "qc"].into_iter().zip(families) {
            queues.push(p.queue(name, family).expect(ok));
        }
        sems.push(p.semaphore("s0", SemaphoreType::Binary).expect(ok));
        sems.push(p.semaphore("s1", SemaphoreType::Binary).expect(ok));
        sems.push(
            p.semaphore("t0", SemaphoreType::Timeline { initial: 0 })
                .expect(ok),
        );
        sems.push(
            p.semaphore("t1", SemaphoreType::Timeline { initial: 2 })
                .expect(ok),
        );
    }
    // Events, declared only when an operation uses them; per event, the
    // dependency info of its current set.
    let has_events = ops.iter().any(|o| {
        matches!(
            o,
            SyncOp::SetEvent { .. }
                | SyncOp::WaitEvents(_)
                | SyncOp::ResetEvent(_)
                | SyncOp::SetEvent1 { .. }
                | SyncOp::WaitEvents1 { .. }
                | SyncOp::HostSetEvent(_)
        )
    });
    let mut events = Vec::new();
    if has_events {
        for name in ["e0", "e1", "e2"] {
            events.push(p.event(name).expect(ok));
        }
    }
    let mut event_set: [EventSet; 3] = [EventSet::None, EventSet::None, EventSet::None];
    // Per semaphore: binary, a signal pending; timeline, the value reached.
    let mut pending = [false; 2];
    let mut value = [0u64, 2];
    for op in ops {
        let before = p.commands().len();
        let events_before = event_set.clone();
        let region = word_region;
        match op {
            SyncOp::Alloc { pool, words } => {
                let k = *pool as usize % 2;
                let size = u64::from(*words) * 4;
                if size == 0 {
                    continue;
                }
                let Some(offset) = allocators[k].alloc(size) else {
                    continue;
                };
                let id = p.alloc(&format!("blob{blobs}"), size, pools[k]).expect(ok);
                placed.insert(id, (k, offset));
                blobs += 1;
                live.push(id);
            }
            SyncOp::Free { which } => {
                let blob_ix: Vec<usize> = (0..live.len()).filter(|&i| !fixed.contains(&live[i])).collect();
                if blob_ix.is_empty() {
                    continue;
                }
                let blob = live.remove(blob_ix[*which as usize % blob_ix.len()]);
                if let (Some((k, offset)), Some(o)) = (placed.remove(&blob), p.object(blob)) {
                    assert!(allocators[k].free(offset, o.size), "a live blob frees");
                }
                p.push(Command::Free { blob }).expect(ok);
            }
            SyncOp::Copy {
                src,
                dst,
                start,
                words,
            } => {
                let (s, d) = (pick(&live, *src), pick(&live, *dst));
                let size = |o: ObjectId| p.object(o).map_or(0, |o| o.size);
                let n = u64::from(*words).min(size(s) / 4).min(size(d) / 4);
                let (so, se) = words_range(size(s), *start, n as u8);
                let src = p.region(s, so, se);
                let dst = p.region(d, 0, n * 4);
                p.push(Command::Copy { src, dst }).expect(ok);
            }
            SyncOp::Fill { dst, start, words } => {
                let dst = region(&p, pick(&live, *dst), *start, *words);
                p.push(Command::Fill { dst, value: 7 }).expect(ok);
            }
            SyncOp::Update { dst, start, words } => {
                let dst = region(&p, pick(&live, *dst), *start, *words);
                p.push(Command::Update { dst, value: 3 }).expect(ok);
            }
            SyncOp::HostWrite { dst, start, words } => {
                let dst = region(&p, pick(&live, *dst), *start, *words);
                p.push(Command::HostWrite { dst, value: 11 }).expect(ok);
            }
            SyncOp::HostRead { src, start, words } => {
                let src = region(&p, pick(&live, *src), *start, *words);
                p.push(Command::HostRead { src }).expect(ok);
            }
            SyncOp::Submit => {
                p.push(Command::SUBMIT).expect(ok);
            }
            SyncOp::Wait => {
                p.push(Command::WAIT).expect(ok);
            }
            SyncOp::SubmitTo {
                queue,
                waits,
                signals,
            } => {
                let stages = |m: u8| STAGE_MASKS[m as usize % STAGE_MASKS.len()];
                let (mut pend, mut val) = (pending, value);
                let mut sub = Submission {
                    queue: queues[*queue as usize % 3],
                    ..Submission::default()
                };
                for &(k, m, v) in waits {
                    let k = k as usize % 4;
                    let value = if k < 2 {
                        if !pend[k] {
                            continue;
                        }
                        pend[k] = false;
                        None
                    } else {
                        if val[k - 2] == 0 {
                            continue;
                        }
                        Some(1 + u64::from(v) % val[k - 2])
                    };
                    sub.waits.push(SemaphoreWait {
                        semaphore: sems[k],
                        value,
                        stages: stages(m),
                    });
                }
                for &(k, m, v) in signals {
                    let k = k as usize % 4;
                    if sub.signals.iter().any(|s| s.semaphore == sems[k]) {
                        continue;
                    }
                    let value = if k < 2 {
                        if pend[k] {
                            continue;
                        }
                        pend[k] = true;
                        None
                    } else {
                        val[k - 2] += 1 + u64::from(v) % 2;
                        Some(val[k - 2])
                    };
                    sub.signals.push(SemaphoreSignal {
                        semaphore: sems[k],
                        value,
                        stages: stages(m),
                    });
                }
                if p.push(Command::Submit(sub)).is_ok() {
                    (pending, value) = (pend, val);
                }
            }
            SyncOp::WaitQueue(q) => {
                p.push(Command::Wait(WaitFor::Queue(queues[*q as usize % 3])))
                    .expect(ok);
            }
            SyncOp::HostSignal { sem, step } => {
                let k = *sem as usize % 2;
                let v = value[k] + 1 + u64::from(*step) % 2;
                if p.push(Command::HostSignal {
                    semaphore: sems[2 + k],
                    value: v,
                })
                .is_ok()
                {
                    value[k] = v;
                }
            }
            SyncOp::HostWait { sem, value: v } => {
                let k = *sem as usize % 2;
                if value[k] == 0 {
                    continue;
                }
                let v = 1 + u64::from(*v) % value[k];
                let _ = p.push(Command::HostWait {
                    semaphore: sems[2 + k],
                    value: v,
                });
            }
            SyncOp::Dispatch { bindings, indirect } => {
                let bindings: Vec<Binding> = bindings
                    .iter()
                    .map(|(o, access, start, words)| Binding {
                        access: [
                            BindingAccess::Read,
                            BindingAccess::Write,
                            BindingAccess::ReadWrite,
                            BindingAccess::Uniform,
                            BindingAccess::Sampled,
                        ][*access as usize % 5],
                        region: region(&p, pick(&live, *o), *start, *words),
                    })
                    .collect();
                let indirect = indirect.map(|(o, start)| region(&p, pick(&live, o), start, 3));
                p.push(Command::Dispatch {
                    kernel: "k".into(),
                    params: vec![],
                    bindings,
                    indirect,
                })
                .expect(ok);
            }
            SyncOp::SetEvent {
                event,
                barriers,
                full,
            } => {
                let k = *event as usize % 3;
                if event_set[k] != EventSet::None {
                    continue;
                }
                let no_host = |m: S| m & !S::HOST;
                let barriers: Vec<Barrier> = barriers
                    .iter()
                    .enumerate()
                    .map(|(j, b)| {
                        let ss = no_host(STAGE_MASKS[b.masks[0] as usize % STAGE_MASKS.len()]);
                        let ds = no_host(STAGE_MASKS[b.masks[2] as usize % STAGE_MASKS.len()]);
                        let sa = valid_access(
                            ss,
                            ACCESS_MASKS[b.masks[1] as usize % ACCESS_MASKS.len()],
                            Side::First,
                        );
                        let da = valid_access(
                            ds,
                            ACCESS_MASKS[b.masks[3] as usize % ACCESS_MASKS.len()],
                            Side::Second,
                        );
                        let barrier = if *full && j == 0 {
                            Barrier::global(
                                S::ALL_COMMANDS,
                                A::MEMORY_WRITE,
                                S::ALL_COMMANDS,
                                A::MEMORY_READ | A::MEMORY_WRITE,
                            )
                        } else {
                            Barrier::global(ss, sa, ds, da)
                        };
                        ranged(&p, &live, barrier, b)
                    })
                    .collect();
                let dependency = Dependency { barriers };
                if p.push(Command::SetEvent {
                    event: events[k],
                    dependency: dependency.clone(),
                })
                .is_ok()
                {
                    event_set[k] = EventSet::Sync2(dependency);
                }
            }
            SyncOp::WaitEvents(picks) => {
                let mut waits = Vec::new();
                let mut seen = [false; 3];
                for k in picks.iter().map(|k| *k as usize % 3) {
                    if let (EventSet::Sync2(dep), false) = (&event_set[k], seen[k]) {
                        seen[k] = true;
                        waits.push(EventWait {
                            event: events[k],
                            dependency: dep.clone(),
                        });
                    }
                }
                if waits.is_empty() {
                    continue;
                }
                let _ = p.push(Command::WaitEvents { waits });
            }
            SyncOp::ResetEvent(k) => {
                let k = *k as usize % 3;
                if p.push(Command::ResetEvent {
                    event: events[k],
                    stages: S::ALL_COMMANDS,
                })
                .is_ok()
                {
                    event_set[k] = EventSet::None;
                }
            }
            SyncOp::SetEvent1 { event, stages, full } => {
                let k = *event as usize % 3;
                if event_set[k] != EventSet::None {
                    continue;
                }
                let stage_mask = if *full {
                    S::ALL_COMMANDS
                } else {
                    STAGE_MASKS_1[*stages as usize % STAGE_MASKS_1.len()]
                };
                if p.push(Command::SetEvent1 {
                    event: events[k],
                    stage_mask,
                })
                .is_ok()
                {
                    event_set[k] = EventSet::Sync1(stage_mask);
                }
            }
            SyncOp::HostSetEvent(k) => {
                let k = *k as usize % 3;
                if event_set[k] != EventSet::None {
                    continue;
                }
                if p.push(Command::HostSetEvent { event: events[k] }).is_ok() {
                    event_set[k] = EventSet::Host;
                }
            }
            SyncOp::WaitEvents1 {
                picks,
                barriers,
                dst,
                full,
            } => {
                // VUID-vkCmdWaitEvents-srcStageMask-01158: the OR of the
                // sets' stage masks, HOST for a host set.
                let mut waited = Vec::new();
                let mut src = S::NONE;
                for k in picks.iter().map(|k| *k as usize % 3) {
                    let stages = match event_set[k] {
                        EventSet::Sync1(s) => s,
                        EventSet::Host => S::HOST,
                        _ => continue,
                    };
                    if !waited.contains(&events[k]) {
                        waited.push(events[k]);
                        src |= stages;
                    }
                }
                if waited.is_empty() {
                    continue;
                }
                let dst = if *full {
                    S::ALL_COMMANDS
                } else {
                    STAGE_MASKS_1[*dst as usize % STAGE_MASKS_1.len()]
                };
                let barriers: Vec<Barrier> = barriers
                    .iter()
                    .enumerate()
                    .map(|(j, b)| {
                        let (sa, da) = if *full && j == 0 {
                            (A::MEMORY_WRITE, A::MEMORY_READ | A::MEMORY_WRITE)
                        } else {
                            (
                                sync1_access(ACCESS_MASKS[b.masks[1] as usize % ACCESS_MASKS.len()]),
                                sync1_access(ACCESS_MASKS[b.masks[3] as usize % ACCESS_MASKS.len()]),
                            )
                        };
                        let barrier = Barrier::global(
                            src,
                            valid_access(src, sa, Side::First),
                            dst,
                            valid_access(dst, da, Side::Second),
                        );
                        ranged(&p, &live, barrier, b)
                    })
                    .collect();
                let _ = p.push(Command::WaitEvents1 {
                    events: waited,
                    dependency: Dependency { barriers },
                });
            }
            SyncOp::Barrier(bs) => {
                let barriers = bs
                    .iter()
                    .map(|b| {
                        let ss = STAGE_MASKS[b.masks[0] as usize % STAGE_MASKS.len()];
                        let ds = STAGE_MASKS[b.masks[2] as usize % STAGE_MASKS.len()];
                        let sa = valid_access(
                            ss,
                            ACCESS_MASKS[b.masks[1] as usize % ACCESS_MASKS.len()],
                            Side::First,
                        );
                        let da = valid_access(
                            ds,
                            ACCESS_MASKS[b.masks[3] as usize % ACCESS_MASKS.len()],
                            Side::Second,
                        );
                        ranged(&p, &live, Barrier::global(ss, sa, ds, da), b)
                    })
                    .collect();
                p.push(Command::Barrier(Dependency { barriers })).expect(ok);
            }
            SyncOp::Ownership {
                barrier: b,
                src,
                dst,
                full,
            } => {
                let (ss, sa, ds, da) = if *full {
                    (
                        S::ALL_COMMANDS,
                        A::MEMORY_WRITE,
                        S::ALL_COMMANDS,
                        A::MEMORY_READ.union(A::MEMORY_WRITE),
                    )
                } else {
                    let ss = STAGE_MASKS[b.masks[0] as usize % STAGE_MASKS.len()];
                    let ds = STAGE_MASKS[b.masks[2] as usize % STAGE_MASKS.len()];
                    (
                        ss,
                        valid_access(
                            ss,
                            ACCESS_MASKS[b.masks[1] as usize % ACCESS_MASKS.len()],
                            Side::First,
                        ),
                        ds,
                        valid_access(
                            ds,
                            ACCESS_MASKS[b.masks[3] as usize % ACCESS_MASKS.len()],
                            Side::Second,
                        ),
                    )
                };
                let (_, start, words) = b.range.unwrap_or((0, 0, 64));
                let barrier = Barrier::global(ss, sa, ds, da)
                    .on(region(&p, bufs[0], start, words))
                    .with_ownership_transfer(u32::from(*src % 3), u32::from(*dst % 3));
                p.push(Command::Barrier(Dependency {
                    barriers: vec![barrier],
                }))
                .expect(ok);
            }
        }
        if p.commands().len() > before && resolve(&p).is_err() {
            // A wait of an event whose set was submitted to another queue
            // than the first is refused while the wait would run in the
            // commands recorded at the end (on the first queue): submitted
            // at once to the other queues, it may be valid there.
            let is_wait = matches!(op, SyncOp::WaitEvents(_) | SyncOp::WaitEvents1 { .. });
            let to_queue = (multi && is_wait)
                .then(|| {
                    queues[1..].iter().find(|&&q| {
                        let sub = Command::Submit(Submission {
                            queue: q,
                            ..Submission::default()
                        });
                        let len = p.commands().len();
                        if p.push(sub).is_ok() && resolve(&p).is_ok() {
                            return true;
                        }
                        p.truncate(len).expect("a step that adds no alloc");
                        false
                    })
                })
                .flatten();
            if to_queue.is_none() {
                // A command the model rejects (an overlapping copy, say) is
                // dropped, keeping the program valid.
                p.truncate(before).expect("a step that adds no alloc");
                event_set = events_before;
            }
        }
    }
    p
}

/// What set an event of [`build_sync`]'s program, as far as its waits
/// need to know: which wait may wait for it, and with what.
#[derive(Clone, Debug, PartialEq, Eq)]
enum EventSet {
    /// Not set (never, or reset since).
    None,
    /// `set-event`, with this dependency info (its waits repeat it).
    Sync2(Dependency),
    /// `set-event1`, with this stage mask (its waits' `srcStageMask`).
    Sync1(S),
    /// `host-set-event`.
    Host,
}

/// A comparable set of hazards: per (command, kind, memory object), the
/// bytes (maximal disjoint ranges).
pub type Keys = BTreeMap<(usize, HazardKind, MemId), Vec<ByteRange>>;

fn normalize(items: impl Iterator<Item = (usize, HazardKind, MemId, ByteRange)>) -> Keys {
    let mut sets: BTreeMap<(usize, HazardKind, MemId), BTreeSet<(u64, u64)>> = BTreeMap::new();
    for (c, k, m, r) in items {
        sets.entry((c, k, m)).or_default().insert((r.start, r.end));
    }
    sets.into_iter()
        .map(|(key, ranges)| {
            let mut merged: Vec<ByteRange> = Vec::new();
            for (s, e) in ranges {
                match merged.last_mut() {
                    Some(last) if s <= last.end => last.end = last.end.max(e),
                    _ => merged.push(ByteRange::new(s, e)),
                }
            }
            (key, merged)
        })
        .collect()
}

/// The fast checker's hazards as keys.
pub fn keys_of_hazards(hazards: &[Hazard]) -> Keys {
    normalize(
        hazards
            .iter()
            .map(|h| (h.command, h.kind, h.memory.mem, h.memory.range)),
    )
}

/// The definitional semantics' races as keys.
pub fn keys_of_races(races: &[Race]) -> Keys {
    normalize(races.iter().map(|r| (r.command, r.kind, r.mem, r.range)))
}

/// Renders the keys two checkers disagree on, with each command's text.
pub fn show_difference(program: &Program, fast: &Keys, spec: &Keys) -> String {
    let mut out = String::new();
    let all: BTreeSet<_> = fast.keys().chain(spec.keys()).collect();
    for key in all {
        let (f, s) = (fast.get(key), spec.get(key));
        if f != s {
            let (c, k, m) = key;
            out.push_str(&format!(
                "command {c} `{}`: {k} on mem{}: fast checker {:?}, definitional {:?}\n",
                vksync::trace::print_command(program, &program.commands()[*c]),
                m.0,
                f.map(|v| v.iter().map(|r| r.to_string()).collect::<Vec<_>>()),
                s.map(|v| v.iter().map(|r| r.to_string()).collect::<Vec<_>>()),
            ));
        }
    }
    out
}
