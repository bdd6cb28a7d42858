//! The fast checker for programs with several queues and semaphores.
//!
//! Single-queue programs never come here ([`crate::hazard::check_with`]
//! sends them to [`super::checker::Checker`], unchanged). A program that
//! [`crate::Program::first_multi_queue_command`] flags is decided by
//! [`check_multi_queue`], which agrees with the definitional semantics
//! (`crate::spec`, module `order`) pair for pair; the differential suite
//! `proptests/tests/spec_differential.rs` checks it on random programs.
//!
//! # Execution order
//!
//! A command runs when its batch is submitted, on the batch's queue, and
//! with several queues the trace's order is not the execution's: the
//! definitional semantics calls a pair race-free when *either* access is
//! location-ordered before the other. The checker therefore walks the
//! program in a linear extension of happens-before: host commands in
//! place, each batch's commands at its `submit` (after the batch's
//! semaphore waits, before its signals), the commands recorded at the end
//! as a batch on the first queue. Binary waits pair with a signal earlier
//! in the trace, so the walk is a linear extension as long as every
//! timeline wait's candidate signals ("the signal value is greater than or
//! equal to the wait value" and not guaranteed to happen after it) are
//! known when the wait is reached: the checker decides timeline waits whose
//! candidates are all signalled earlier, or with one candidate that
//! dominates the others (below). Then an access processed later is never
//! ordered before one processed earlier, and a pair is reported at the
//! access processed later, which is also the later one in the trace (a
//! prior that comes later in the trace is a host access, and host
//! accesses race nothing processed after them: "Host Write Ordering
//! Guarantees").
//!
//! # Frontiers
//!
//! Each recorded device access `x` keeps *frontiers*: what is known to
//! happen after some operation, as future operations will ask it. A
//! [`Frontier`] holds, per queue, the stages whose later commands are
//! ordered after the operation (`stages`; barriers, semaphore waits and
//! signals chain through them at the level of stages, `ALL_COMMANDS`
//! included: "the intersection of ScopedOps2 in ExeDepA and ScopedOps1 in
//! ExeDepB"; `HOST` there also reaches a signal with `ALL_COMMANDS`),
//! whether any operation of the queue is (`touched`: its fence signal
//! follows), the
//! semaphore signal operations it reached (`sigs`), and whether the host's
//! current point is (`host`: then every later host operation and every
//! later submission, with all of its batch, is).
//!
//! * `e`: the operations `x` happens before (its execution dependency
//!   chains, across semaphores). A write after the read `x` needs only it.
//! * `a` (writes): the operations some availability operation of `x`
//!   happens before: a barrier with `x` in its first access scope, a fence
//!   signal of `x`'s queue, or a semaphore signal with `x` in its own first
//!   synchronization scope ("The first access scope includes all memory
//!   access performed by the device"; "Let AccessScope1st be the first
//!   access scope of the first command in the Sync chain": a chain into
//!   the signal orders `x` but makes nothing available). A later write
//!   needs it (memory model).
//! * `sv` (writes): the accesses in the own second synchronization scope
//!   of a semaphore *wait* after an availability of `x`: "The second
//!   access scope includes all memory access performed by the device", a
//!   visibility operation to each of them. It does not chain on ("Let
//!   AccessScope2nd be the second access scope of the last command in the
//!   Sync chain").
//! * `vis` (writes), per queue: the (stage, access) pairs a barrier of that
//!   queue, after an availability of `x`, made `x` visible to.
//! * `h` (writes): the operations after a barrier whose destination access
//!   mask holds `HOST_READ` or `HOST_WRITE` (the device-to-host domain
//!   operation) that follows an availability of `x`; the host reads or
//!   overwrites `x` once `h` reached it.
//!
//! A frontier reaches a semaphore wait when it reached every one of its
//! candidate signals: the wait is ordered after what every candidate is
//! ordered after, and for a write's availability (`a`) or domain
//! operation (`h`) after *some* such operation before each candidate,
//! not necessarily the same one, which is the definitional semantics'
//! reading (whichever signal the wait pairs with, one precedes it). Per
//! signal group the candidates keep the first one (below: the group's
//! later signals are reached with it). It keeps the signals
//! it reached as the first one per signal group (a queue and a first
//! synchronization scope, or the host): whether a signal is reached
//! depends only on its group and on fields that only grow, so the
//! group's later signals are reached too. Buffer
//! barriers restrict the memory side to their range, so a record whose
//! bytes lie partly inside is copied for the bytes inside.
//!
//! # Layout transitions
//!
//! Transitions of one queue are ordered among themselves (submission
//! order); a transition of another queue is ordered as any write is. An
//! `ALL_COMMANDS` first scope of a later barrier, event or semaphore
//! signal of its queue holds a transition directly (it is an operation of
//! its barrier command, in no stage: [`Val::directly_in`]; its write is
//! available at once, as a release's, so such a barrier makes it visible
//! whatever its access mask), and a transition after an
//! `ALL_COMMANDS` second scope of its queue (a barrier's or a semaphore
//! wait's) is ordered after what that scope is ([`PerQueue::all`]), as a
//! queue family ownership transfer is; `docs/semantics.md`, "Layout
//! transitions and `ALL_COMMANDS`".
//!
//! # What is refused
//!
//! With the typed error [`ProgramErrorKind::MultiQueueNotSupported`]:
//! a timeline wait (device or host) no signal earlier in the trace can
//! satisfy (wait-before-signal), or that a signal later in the walk may
//! satisfy besides an earlier one (leaving out the later ones that
//! [`super::candidates`] shows to happen after the wait, as in a timeline
//! chain where each batch waits for the value the one before signalled,
//! or a frame loop whose host waits for each frame's value), unless one
//! candidate dominates: the walk would process the wait before a signal
//! it may pair with; any layer emulation
//! switch (only the two readings of write-after-write are modelled); and
//! rendering (its implicit dependencies order one attachment's bytes,
//! execution included, which the records do not express); and a
//! `host-set-event` of an event whose device set or reset is recorded and
//! not yet submitted (the trace orders them as written, the walk by
//! execution). Binary waits always have one candidate and are decided.
//!
//! # Events
//!
//! A set and its wait run on one queue (validated, `crate::ir::event`), so
//! the walk reaches the set first. Each barrier of a `vkCmdSetEvent2` (and
//! each `vkCmdSetEvent`) is an event signal operation with a *slot*
//! number, handed out in walk order: the set applies the barriers' first
//! halves, and a frontier that reaches a first half gains its slot
//! ([`Frontier::events`]) where a pipeline barrier's would gain its second
//! scope; the wait applies the second halves from its sets' slots
//! (`Val::event_wait_effect`), so it reaches exactly what the set did,
//! and nothing recorded between them. A `vkCmdWaitEvents` barrier also
//! makes available the writes in its own first access scope that happened
//! before one of its signals. A set's layout transition is recorded with
//! its slot (before the signal only), after being decided against the
//! set's first half; a `vkCmdWaitEvents`'s against its signals
//! ([`Val::before_wait1_transition`]), and recorded as its second half
//! leaves it. A host set reaches nothing a record the
//! host is after does not reach already. Slots have no limit (the
//! single-queue checker's are the 64 bits of a value, so a single-queue
//! program needing more is walked here, [`crate::hazard::check_with`]); a
//! new set of an event removes its old slots from every live record
//! (through the log).
//!
//! The state is not summarized as much as the single-queue checker's:
//! each record holds its own value. An operation that changes every
//! record the same way (a barrier outside the ranges of its buffer
//! barriers, an event set or wait, a semaphore or fence operation) is
//! logged ([`LogOp`]) and applied to a record when it is next read
//! ([`State::sync`]), so a record costs the operations of its lifetime
//! only if it is read after them, and a frontier names only the queues it
//! reached ([`PerQueues`]): a chain through N queues is linear in N. What
//! a value becomes from a position of the log on depends on nothing else,
//! so at checkpoints of the log ([`Spacing`]) a record's value is looked up
//! where earlier walks left theirs, and records alike there share the
//! rest of the way: an operation costs the distinct values at a
//! checkpoint, not every record not read since (a value's first signals
//! reached are put in the form the waits still to come can tell apart,
//! [`State::canonical`], or each batch's records would differ forever);
//! operations a value cannot see are skipped ([`may_change`]). The
//! records no byte range holds any more are dropped between commands
//! ([`State::compact`], amortized), with the log's prefix every kept
//! record has seen, and the candidates are decided in one pass (linear in
//! the program times the number of distinct stage masks of semaphore
//! operations) (issues 25 and 27; `model/tests/multi_queue_scaling.rs`).

use super::candidates::{self, Op, Signal, Wait, WaitKind};
use crate::hazard::{lift, Hazard};
use crate::ir::access::{accesses, ownership_ops, transitions, Access, OwnershipRole};
use crate::ir::execution::Step;
use crate::ir::layout::{Layout, Location, ProgramError, ProgramErrorKind};
use crate::ir::program::{ByteRange, Command, Program};
use crate::ir::queue::{QueueId, WaitFor};
use crate::semantics::Semantics;
use crate::sync::checker::{HazardKind, RawHazard, ResolvedBarrier};
use crate::sync::value::{all_commands, available_at_once, performs_transition};
use crate::vk::scope::{exec_scope, Side, Stage, StageAccess, StageAccessSet, StageSet};
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;
use std::ops::Range;
use std::rc::Rc;

/// What one queue knows of an operation (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct PerQueue {
    stages: StageSet,
    touched: bool,
    /// An operation of the queue whose second synchronization scope holds
    /// every stage (`ALL_COMMANDS`) was reached: queue family acquire
    /// operations and layout transitions after it are ordered after (they
    /// are in no stage, so `stages` cannot say it; a union of narrower
    /// scopes does not).
    all: bool,
    /// An operation of the queue in no stage that a first half reached was
    /// reached: a queue family release operation, or a layout transition
    /// (of a pipeline barrier, a `vkCmdSetEvent2` or a `vkCmdWaitEvents`)
    /// whose barrier's first half the operation is before. Later
    /// operations of the queue whose first scope holds every stage follow
    /// it ("all operations performed by all commands supported on the
    /// queue"; the release's barrier has no second half to carry this, and
    /// a transition's may have an empty one).
    released: bool,
}

/// Per queue, a value that is `T::default()` for most queues: the entries
/// that differ, sorted by queue. A record's frontiers name only the
/// queues they reached; a vector with one entry per queue of the program
/// made every record cost the number of queues to create and to copy, and
/// a chain through N queues cubic (issue 27: 1,000 queues took 16.7 s).
/// Up to [`INLINE_QUEUES`] entries are held inline, more in a vector:
/// most frontiers reach one or two queues, and a vector per frontier made
/// the snapshot a barrier's replay takes ([`Val::only`]) and every copy
/// of a value allocate (a third of the two-queue walk's time, issue 25).
#[derive(Clone, Debug)]
struct PerQueues<T> {
    /// How many entries; up to [`INLINE_QUEUES`] they are `inline[..len]`,
    /// above, `spill` (and `inline` is unused).
    len: u32,
    inline: [(u32, T); INLINE_QUEUES],
    spill: Vec<(u32, T)>,
}

/// How many entries a [`PerQueues`] holds without allocating.
const INLINE_QUEUES: usize = 2;

impl<T: Copy + Default> Default for PerQueues<T> {
    fn default() -> Self {
        PerQueues {
            len: 0,
            inline: [(0, T::default()); INLINE_QUEUES],
            spill: Vec::new(),
        }
    }
}

impl<T: Copy + Default + PartialEq> PartialEq for PerQueues<T> {
    fn eq(&self, other: &Self) -> bool {
        self.entries() == other.entries()
    }
}

impl<T: Copy + Default + Eq> Eq for PerQueues<T> {}

impl<T: Copy + Default + std::hash::Hash> std::hash::Hash for PerQueues<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.entries().hash(state);
    }
}

impl<T: Copy + Default> PerQueues<T> {
    /// The entries, sorted by queue.
    fn entries(&self) -> &[(u32, T)] {
        if self.len as usize <= INLINE_QUEUES {
            &self.inline[..self.len as usize]
        } else {
            &self.spill
        }
    }

    fn entries_mut(&mut self) -> &mut [(u32, T)] {
        if self.len as usize <= INLINE_QUEUES {
            &mut self.inline[..self.len as usize]
        } else {
            &mut self.spill
        }
    }

    fn find(&self, q: usize) -> Result<usize, usize> {
        self.entries().binary_search_by_key(&(q as u32), |&(k, _)| k)
    }

    /// Whether queue `q` has an entry.
    fn has(&self, q: usize) -> bool {
        self.find(q).is_ok()
    }

    /// The value of queue `q`.
    fn get(&self, q: usize) -> T {
        match self.find(q) {
            Ok(i) => self.entries()[i].1,
            Err(_) => T::default(),
        }
    }

    /// The value of queue `q`, to change (queues are reached mostly in
    /// increasing order, so the insertion is mostly a push).
    fn get_mut(&mut self, q: usize) -> &mut T {
        let i = match self.find(q) {
            Ok(i) => i,
            Err(i) => {
                let (n, entry) = (self.len as usize, (q as u32, T::default()));
                if n < INLINE_QUEUES {
                    self.inline.copy_within(i..n, i + 1);
                    self.inline[i] = entry;
                } else {
                    if n == INLINE_QUEUES {
                        self.spill = self.inline.to_vec();
                    }
                    self.spill.insert(i, entry);
                }
                self.len += 1;
                i
            }
        };
        &mut self.entries_mut()[i].1
    }

    /// Only queue `q`'s entry (the part of a frontier that one barrier of
    /// `q` reads).
    fn only(&self, q: usize) -> Self {
        let mut out = PerQueues::default();
        if let Ok(i) = self.find(q) {
            out.inline[0] = self.entries()[i];
            out.len = 1;
        }
        out
    }

    fn values(&self) -> impl Iterator<Item = &T> {
        self.entries().iter().map(|(_, v)| v)
    }
}

/// The operations known to happen after some operation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Frontier {
    /// Per queue reached (the others: nothing reached).
    q: PerQueues<PerQueue>,
    /// The semaphore signal operations reached, as (signal group, first
    /// signal of the group reached), sorted by group: the group's signals
    /// from that one on. A group is a queue and a first synchronization
    /// scope (or the host): whether a signal is reached depends only on
    /// its group and on fields that only grow, so once one signal of a
    /// group is reached every later one is. A list of every signal
    /// reached would grow with the program for a record that lives long,
    /// and be searched and copied at every wait and barrier; sorted, a
    /// record that reached the groups of many queues is searched in
    /// logarithmic time (issue 27).
    sigs: Vec<(u32, u32)>,
    /// The event slots reached, ascending: a slot is the first half of one
    /// barrier of a `vkCmdSetEvent2` (its event signal operation), or the
    /// signal operation of a `vkCmdSetEvent`, numbered in walk order. A
    /// wait asks for the slots of its events' current sets only; the slots
    /// of an event's earlier set are removed when it is set again
    /// ([`State::forget_event`]), so the list holds at most the live
    /// sets' slots. Shared: the snapshot a call takes before applying its
    /// barriers ([`Val::only`]) copies a pointer, not a list that can hold
    /// thousands of slots (`events-reverse`).
    events: Slots,
    host: bool,
}

/// A sorted list of event slots ([`Frontier::events`]), shared between
/// copies, and empty without an allocation (most frontiers have none, and
/// an `Rc` of an empty list allocated at every snapshot and new record).
#[derive(Clone, Debug, Default)]
struct Slots(Option<Rc<Vec<u32>>>);

impl Slots {
    fn as_slice(&self) -> &[u32] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }

    fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }

    fn contains(&self, slot: u32) -> bool {
        self.as_slice().binary_search(&slot).is_ok()
    }

    /// Adds `slot` where it keeps the list sorted.
    fn insert(&mut self, slot: u32) {
        if let Err(at) = self.as_slice().binary_search(&slot) {
            Rc::make_mut(self.0.get_or_insert_with(Rc::default)).insert(at, slot);
        }
    }

    /// Keeps the slots `keep` accepts.
    fn retain(&mut self, keep: impl FnMut(&u32) -> bool) {
        if let Some(list) = self.0.as_mut() {
            Rc::make_mut(list).retain(keep);
            if list.is_empty() {
                self.0 = None;
            }
        }
    }
}

impl PartialEq for Slots {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Slots {}

impl std::hash::Hash for Slots {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl Frontier {
    /// What one barrier (or event set or wait) of queue `q` reads of this
    /// frontier: queue `q`, the events and the host, not the signals.
    fn only(&self, q: usize) -> Frontier {
        Frontier {
            q: self.q.only(q),
            sigs: Vec::new(),
            events: self.events.clone(),
            host: self.host,
        }
    }

    /// Whether event slot `slot` was reached.
    fn has_event(&self, slot: u32) -> bool {
        self.events.contains(slot)
    }

    /// Whether one of the event slots `slots` was reached.
    fn has_any_event(&self, slots: &[u32]) -> bool {
        !self.events.is_empty() && slots.iter().any(|&s| self.has_event(s))
    }

    /// Event slot `slot` reached (slots are handed out in walk order, so
    /// the list stays sorted by pushing; an older one may still be added
    /// by a later barrier of the same set).
    fn add_event(&mut self, slot: u32) {
        self.events.insert(slot);
    }

    /// Whether a pipeline barrier of queue `q` with first synchronization
    /// scope `first` happens after: a chain at the level of stages (from a
    /// barrier or a semaphore wait, `ALL_COMMANDS` included: a barrier
    /// whose first scope is `NONE` or `HOST` is not after the wait), or
    /// the host (the barrier's submit).
    fn reaches_dep(&self, q: usize, first: StageSet) -> bool {
        let p = self.q.get(q);
        // A barrier that performs a layout transition (its pseudo stage in
        // `first`) has its second half after the transition, which an
        // `ALL_COMMANDS` second scope reaches.
        self.host
            || p.stages.intersects(first)
            || (p.released && all_commands(first))
            || (p.all && first.contains(Stage::ImageLayoutTransition))
    }

    /// Whether barrier `b` of queue `q`, performing `role`, happens after:
    /// an acquire's barrier (its second half only) exactly when its
    /// acquire operation does.
    fn reaches_barrier(&self, q: usize, b: &ResolvedBarrier, role: Option<OwnershipRole>) -> bool {
        match role {
            Some(OwnershipRole::Acquire) => self.reaches_unstaged_op(q),
            _ => self.reaches_dep(q, b.src_exec),
        }
    }

    /// Barrier `b` of queue `q` reached: its second synchronization scope
    /// follows; for a release, its release operation and so whatever
    /// follows that.
    fn take_barrier(&mut self, q: usize, b: &ResolvedBarrier, role: Option<OwnershipRole>) {
        self.take_dep(q, b.dst_exec);
        if role == Some(OwnershipRole::Release) || performs_transition(b) {
            self.q.get_mut(q).released = true;
        }
    }

    /// The barrier reached: its second synchronization scope follows.
    fn take_dep(&mut self, q: usize, second: StageSet) {
        let p = self.q.get_mut(q);
        p.stages = p.stages.union(second);
        p.touched = true;
        p.all |= all_commands(second);
    }

    /// Whether an operation of queue `q` in no stage (a queue family
    /// acquire operation, a layout transition) happens after: an
    /// `ALL_COMMANDS` second scope of `q` reached ("all operations
    /// performed by all commands supported on the queue"), or the host.
    /// A transition's or release's own barrier's first half is asked
    /// separately ([`Val::before_first_half`]).
    fn reaches_unstaged_op(&self, q: usize) -> bool {
        self.host || self.q.get(q).all
    }

    /// Whether an access of queue `q` in `stage` happens after.
    fn reaches_access(&self, q: usize, stage: Stage) -> bool {
        self.host || self.q.get(q).stages.contains(stage)
    }

    /// Whether a semaphore signal operation of queue `q` (first scope
    /// `first`, `all` for `ALL_COMMANDS`) happens after: a stage chain
    /// into its first scope, or, with `ALL_COMMANDS`, a barrier whose
    /// second scope holds `HOST` (the definitional semantics' reading).
    fn reaches_signal(&self, q: usize, first: StageSet, all: bool) -> bool {
        let p = self.q.get(q);
        self.host || p.stages.intersects(first) || (all && (p.stages.contains(Stage::Host) || p.released))
    }

    /// Whether a semaphore wait with these candidate signals happens after:
    /// after every one of them (none: the wait orders nothing).
    fn reaches_wait(&self, candidates: &[u32], groups: &[u32]) -> bool {
        self.host || (!candidates.is_empty() && candidates.iter().all(|&c| self.reached(c, groups)))
    }

    /// Whether signal `c` was reached (see [`Frontier::sigs`]).
    fn reached(&self, c: u32, groups: &[u32]) -> bool {
        let g = groups[c as usize];
        match self.sigs.binary_search_by_key(&g, |&(sg, _)| sg) {
            Ok(i) => self.sigs[i].1 <= c,
            Err(_) => false,
        }
    }

    /// A semaphore wait of queue `r` reached: its second synchronization
    /// scope follows, and its queue's fences.
    fn import(&mut self, r: usize, second: StageSet) {
        let p = self.q.get_mut(r);
        p.stages = p.stages.union(second);
        p.touched = true;
        p.all |= all_commands(second);
    }

    /// Signal `id` (of `group`) reached; signals come in walk order, so
    /// the first one recorded per group is the earliest.
    fn add_sig(&mut self, id: u32, group: u32) {
        if let Err(at) = self.sigs.binary_search_by_key(&group, |&(g, _)| g) {
            self.sigs.insert(at, (group, id));
        }
    }
}

/// One recorded device access: its command, its value and how much of
/// the log that value has seen.
#[derive(Clone, Debug)]
struct Rec {
    cmd: usize,
    val: Val,
    /// The operations of [`State::log`] before this one are applied.
    synced: usize,
}

/// What a recorded access is, for every later question the walk asks of
/// it: its stage and access, its queue and its frontiers (see the module
/// docs). Hashed at the walk's checkpoints ([`State::sync`]), where
/// records alike share the rest of the way.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Val {
    sa: StageAccess,
    queue: usize,
    e: Frontier,
    a: Frontier,
    sv: Frontier,
    h: Frontier,
    vis: PerQueues<StageAccessSet>,
}

/// How often [`State::sync`] looks a value up: every `every`th log
/// position, a power of two from [`Spacing::MIN`] to [`Spacing::MAX`],
/// doubled while the lookups skip few operations (a hash of the value costs
/// about as much as replaying one or two) and halved while they skip many.
/// Where values are seldom alike (many queues and timelines, each record
/// its own) the lookups cost more than they save; where thousands of
/// records are alike they save nearly every replay. The positions of a
/// wider spacing are positions of the narrower, so what is cached stays
/// found. A program whose records become alike only after a long stretch
/// where they were not is slow to narrow again (a round is 1,024 lookups,
/// rare at a wide spacing): there the walk costs about what it did
/// without lookups.
#[derive(Debug)]
struct Spacing {
    every: usize,
    lookups: u32,
    skipped: u64,
}

impl Spacing {
    const MIN: usize = 8;
    const MAX: usize = 1 << 12;
    /// Lookups between two decisions.
    const ROUND: u32 = 1024;

    fn new() -> Spacing {
        Spacing {
            every: Spacing::MIN,
            lookups: 0,
            skipped: 0,
        }
    }

    /// A lookup that skipped `skipped` operations (0: a miss).
    fn looked_up(&mut self, skipped: usize) {
        self.lookups += 1;
        self.skipped += skipped as u64;
        if self.lookups == Spacing::ROUND {
            let per = self.skipped / u64::from(Spacing::ROUND);
            if per < 2 {
                self.every = (self.every * 2).min(Spacing::MAX);
            } else if per > 16 {
                self.every = (self.every / 2).max(Spacing::MIN);
            }
            self.lookups = 0;
            self.skipped = 0;
        }
    }
}

impl Val {
    /// A value of access `sa` that reached nothing (what a record holds
    /// while [`State::sync`] walks its value).
    fn empty(sa: StageAccess) -> Val {
        Val {
            sa,
            queue: 0,
            e: Frontier::default(),
            a: Frontier::default(),
            sv: Frontier::default(),
            h: Frontier::default(),
            vis: PerQueues::default(),
        }
    }

    /// Whether [`State::sync`] looks this value up: not when it holds
    /// event slots (a list as long as the sets in flight, which the walk
    /// would hash at every checkpoint).
    fn hashable(&self) -> bool {
        [&self.e, &self.a, &self.h].iter().all(|f| f.events.is_empty())
    }

    /// What a call of barriers (or an event set or wait) of queue `q`
    /// reads of this record's value before the call ([`State::apply_with`]):
    /// a copy of the whole record per live record and call was the
    /// walk's main cost with many queues (issue 27).
    fn only(&self, q: usize) -> Val {
        Val {
            sa: self.sa,
            queue: self.queue,
            e: self.e.only(q),
            a: self.a.only(q),
            sv: Frontier::default(),
            h: self.h.only(q),
            vis: PerQueues::default(),
        }
    }

    /// [`Val::only`] for `call`: without the event slots where the call
    /// reads none (only event waits do). A snapshot that shares the slots'
    /// list makes every slot the call adds copy it (`Rc::make_mut`): the
    /// fill before thousands of sets, each adding its slot, copied the
    /// list at each (`events-reverse` of `multi_queue_scaling`, quadratic).
    fn only_for(&self, q: usize, call: &Call) -> Val {
        if call.reads_events() {
            self.only(q)
        } else {
            self.only_without_events(q)
        }
    }

    /// [`Val::only`] without the event slots, for a call that reads none.
    fn only_without_events(&self, q: usize) -> Val {
        let mut old = self.only(q);
        for f in [&mut old.e, &mut old.a, &mut old.h] {
            f.events = Slots::default();
        }
        old
    }

    fn transition(&self) -> bool {
        self.sa.is_layout_transition()
    }

    /// Whether this record is ordered before the first half of barrier `b`
    /// of queue `q` as an operation of that barrier (a layout transition,
    /// a release) needs: a read in its first synchronization scope or
    /// chained into it; a write made available by it (in its first access
    /// scope; a release or acquire operation's writes and a layout
    /// transition's are available at once, so in its first synchronization
    /// scope) or before it.
    fn before_first_half(&self, q: usize, b: &ResolvedBarrier) -> bool {
        let direct = self.directly_in(q, b.src_exec);
        if !self.sa.is_write() {
            direct || self.e.reaches_dep(q, b.src_exec)
        } else if available_at_once(self.sa) {
            direct || self.a.reaches_dep(q, b.src_exec)
        } else {
            (direct && b.src_access.contains(self.sa)) || self.a.reaches_dep(q, b.src_exec)
        }
    }

    /// Whether this record is in the first synchronization scope `first`
    /// of a later operation of queue `q` itself (not through a chain): an
    /// access of `q` in one of its stages; a queue family release or
    /// acquire operation of `q` when the scope is `ALL_COMMANDS` ("the
    /// only valid stage to wait on or wait for these operations"), and a
    /// layout transition of `q` likewise ("all operations performed by all
    /// commands supported on the queue"; its own barrier's second half is
    /// its value when recorded).
    fn directly_in(&self, q: usize, first: StageSet) -> bool {
        if self.queue != q {
            false
        } else if self.sa.is_ownership_transfer() || self.transition() {
            all_commands(first)
        } else {
            first.contains(self.sa.stage())
        }
    }

    /// Races nothing processed later: a read ordered before the host's
    /// current point; a write available there and moved to the host.
    fn done(&self) -> bool {
        if self.sa.is_write() {
            self.a.host && self.h.host
        } else {
            self.e.host
        }
    }

    /// The effect of barrier `b` of queue `q` on this record, computed on
    /// the value before the call (barriers of one call do not chain);
    /// `in_range`: the record's bytes lie in `b`'s range.
    fn barrier_effect(
        &mut self,
        old: &Val,
        q: usize,
        b: &ResolvedBarrier,
        role: Option<OwnershipRole>,
        in_range: bool,
    ) {
        // Applied in place (a copy per record and barrier was most of the
        // walk's time): the conditions read `old` only.
        let new = self;
        let own = old.directly_in(q, b.src_exec);
        // Execution: "Let ScopedOps1 be the intersection of sets Ops1 and
        // Scope1st": x earlier on the queue with its stage in the first
        // synchronization scope, or a chain into it.
        if own || old.e.reaches_barrier(q, b, role) {
            new.e.take_barrier(q, b, role);
        }
        if !old.sa.is_write() {
            return;
        }
        // Availability: x in the first access scope (and range), or an
        // availability operation of x before the barrier; then the
        // barrier's visibility operation (in range) and, with a host
        // access in the destination access mask, its domain operation.
        // A release or acquire operation's writes, and a layout
        // transition's, are available at once: in the barrier's first
        // synchronization scope is enough.
        let direct = if available_at_once(old.sa) {
            own
        } else {
            own && in_range && b.src_access.contains(old.sa)
        };
        if direct || old.a.reaches_barrier(q, b, role) {
            new.a.take_barrier(q, b, role);
            if in_range {
                let v = new.vis.get_mut(q);
                *v = v.union(b.dst_access);
                if b.dst_access.0 & crate::sync::value::HOST_PAIRS.0 != 0 {
                    new.h.take_dep(q, b.dst_exec);
                }
            }
        }
        if old.h.reaches_barrier(q, b, role) {
            new.h.take_barrier(q, b, role);
        }
    }

    /// The first half of barrier `b` of a `vkCmdSetEvent2` on queue `q`,
    /// whose signal operation is slot `slot` (`docs/semantics.md`,
    /// "Events"): the barrier's first scopes, and as second scope only the
    /// signal operation, which no stage names. So the record's frontiers
    /// gain the slot where a pipeline barrier's would gain its second
    /// scope: `e` when the record is in the first synchronization scope or
    /// chained into it, `a` when the first access scope (and range) holds
    /// the write or an availability operation of it came before, `h` when
    /// its domain operation did. Computed on `old` (the value before the
    /// call).
    /// A barrier with a layout transition performs it at the set, after
    /// its first half and before the signal: its first scope has the
    /// transition's pseudo stage (an `ALL_COMMANDS` second scope reached
    /// reaches the signal through it), and what reaches the half is before
    /// the transition, which later `ALL_COMMANDS` first scopes of `q` hold
    /// ([`PerQueue::released`]).
    fn event_set_effect(&mut self, old: &Val, q: usize, b: &ResolvedBarrier, slot: u32, in_range: bool) {
        let own = old.directly_in(q, b.src_exec);
        let take = |f: &mut Frontier| {
            f.add_event(slot);
            if performs_transition(b) {
                f.q.get_mut(q).released = true;
            }
        };
        if own || old.e.reaches_dep(q, b.src_exec) {
            take(&mut self.e);
        }
        if !old.sa.is_write() {
            return;
        }
        let direct = if available_at_once(old.sa) {
            own
        } else {
            own && in_range && b.src_access.contains(old.sa)
        };
        if direct || old.a.reaches_dep(q, b.src_exec) {
            take(&mut self.a);
        }
        if old.h.reaches_dep(q, b.src_exec) {
            take(&mut self.h);
        }
    }

    /// A `vkCmdSetEvent` on queue `q` with first synchronization scope
    /// `first`, whose signal operation is slot `slot`: an execution
    /// dependency into the signal, with no access scope ("it does not
    /// define an access scope"), so a write gains the slot in `a` only
    /// through an earlier availability operation chained into it, or when
    /// it is available at once (a layout transition's or a release's)
    /// and in the scope.
    fn event_set1_effect(&mut self, old: &Val, q: usize, first: StageSet, slot: u32) {
        let direct = old.directly_in(q, first);
        if direct || old.e.reaches_dep(q, first) {
            self.e.add_event(slot);
        }
        if !old.sa.is_write() {
            return;
        }
        if old.a.reaches_dep(q, first) || (direct && available_at_once(old.sa)) {
            self.a.add_event(slot);
        }
        if old.h.reaches_dep(q, first) {
            self.h.add_event(slot);
        }
    }

    /// The second half of a wait barrier `b` on queue `q` whose first
    /// synchronization scope is the signal operations `slots` (one slot
    /// for a `vkCmdWaitEvents2` barrier, its set's barrier of the same
    /// index; every waited set's slot for a `vkCmdWaitEvents` one): its
    /// second scopes follow each frontier that reached one of them. A
    /// `vkCmdWaitEvents` barrier (`own_access`) also has a first access
    /// scope of its own, "limited to accesses in the pipeline stages
    /// determined by the source stage mask", holding the writes that
    /// happened before one of the signals: its availability operation.
    /// Such a barrier with a layout transition performs it between its
    /// halves, as a pipeline barrier does: what an `ALL_COMMANDS` second
    /// scope of `q` ordered is before the transition and so before the
    /// second half, and what the first half holds is before the
    /// transition, which later `ALL_COMMANDS` first scopes hold
    /// ([`PerQueue::released`]). (A `vkCmdWaitEvents2` barrier performs
    /// none: its set did.)
    fn event_wait_effect(
        &mut self,
        old: &Val,
        q: usize,
        b: &ResolvedBarrier,
        slots: &[u32],
        own_access: bool,
        in_range: bool,
    ) {
        let transition = own_access && performs_transition(b);
        let reaches = |f: &Frontier| f.has_any_event(slots) || (transition && f.reaches_unstaged_op(q));
        let take = |f: &mut Frontier| {
            f.take_dep(q, b.dst_exec);
            if transition {
                f.q.get_mut(q).released = true;
            }
        };
        let before = reaches(&old.e);
        if before {
            take(&mut self.e);
        }
        if !old.sa.is_write() {
            return;
        }
        let direct = own_access && old.e.has_any_event(slots) && in_range && b.src_access.contains(old.sa);
        if direct || reaches(&old.a) {
            take(&mut self.a);
            if in_range {
                let v = self.vis.get_mut(q);
                *v = v.union(b.dst_access);
                if b.dst_access.0 & crate::sync::value::HOST_PAIRS.0 != 0 {
                    self.h.take_dep(q, b.dst_exec);
                }
            }
        }
        if reaches(&old.h) {
            take(&mut self.h);
        }
    }

    /// Whether this record is ordered before the layout transition of a
    /// `vkCmdWaitEvents` barrier `b` of queue `q` waiting for the signal
    /// operations `slots`: a read whose chain reached one of them; a write
    /// made available before one of them, or in the barrier's first access
    /// scope after happening before one (made available at the wait; a
    /// transition's or an ownership operation's writes are available at
    /// once). What an `ALL_COMMANDS` second scope ordered is asked by the
    /// caller, as for any transition.
    fn before_wait1_transition(&self, b: &ResolvedBarrier, slots: &[u32]) -> bool {
        let signalled = self.e.has_any_event(slots);
        if !self.sa.is_write() {
            signalled
        } else {
            self.a.has_any_event(slots)
                || (signalled && (available_at_once(self.sa) || b.src_access.contains(self.sa)))
        }
    }
}

/// Barrier `b` as it orders on a queue where it performs `role`: a
/// release's destination masks and an acquire's source masks are ignored
/// ("the destination access mask is ignored for such a barrier";
/// "dstStageMask is also ignored"; the mirror image for an acquire).
fn ignored_masks(
    b: &crate::ir::program::Barrier,
    role: Option<OwnershipRole>,
) -> crate::ir::program::Barrier {
    use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
    match role {
        None => *b,
        Some(OwnershipRole::Release) => crate::ir::program::Barrier {
            dst_stage_mask: PipelineStageFlags2::NONE,
            dst_access_mask: AccessFlags2::NONE,
            ..*b
        },
        Some(OwnershipRole::Acquire) => crate::ir::program::Barrier {
            src_stage_mask: PipelineStageFlags2::NONE,
            src_access_mask: AccessFlags2::NONE,
            ..*b
        },
    }
}

/// Checks a program that uses several queues or semaphores (see the
/// module docs); `Err` for the corners it refuses.
pub(crate) fn check_multi_queue(
    program: &Program,
    layout: &Layout,
    sem: Semantics,
) -> Result<Vec<Hazard>, ProgramError> {
    let mut out = Vec::new();
    check_multi_queue_into(program, layout, sem, &mut |h| out.push(h))?;
    out.sort_by_key(|h| h.command);
    Ok(out)
}

/// [`check_multi_queue`], handing each hazard to `sink` as it is found
/// instead of keeping them: in walk order (each command's hazards
/// together, the commands in the order the walk runs them, not the
/// trace's), a hazard whose bytes continue the previous one's already
/// merged with it. A caller that groups them ([`crate::check_grouped`])
/// keeps memory linear in the program and its report where the pairs are
/// quadratic (every fill racing every earlier copy on another queue).
pub(crate) fn check_multi_queue_into(
    program: &Program,
    layout: &Layout,
    sem: Semantics,
    sink: &mut dyn FnMut(Hazard),
) -> Result<(), ProgramError> {
    let refuse = |at: usize, what: String| ProgramError {
        at: Location::Command(at),
        kind: ProgramErrorKind::MultiQueueNotSupported { what },
    };
    // Rendering with several queues: the implicit dependencies of an
    // instance order its attachment's bytes only, execution included,
    // which this walk's records do not express (the definitional
    // semantics decides them); one queue is (`crate::sync::checker`).
    if let Some(at) = program
        .commands
        .iter()
        .position(|c| matches!(c, Command::Render(_)))
    {
        let (kw, name) = (program.commands[at].keyword(), program.commands[at].vulkan_name());
        if program.first_multi_queue_command().is_none() {
            // One queue, here for its event sets (more than the one-queue
            // checker has slots for at once, `crate::hazard::refuse_events`):
            // say that, not "several queues".
            return Err(ProgramError {
                at: Location::Command(at),
                kind: ProgramErrorKind::EventsNotSupported {
                    what: format!(
                        "event sets with more than {} barriers at once, and rendering (`{kw}`, {name})",
                        crate::hazard::EVENT_SLOTS
                    ),
                },
            });
        }
        return Err(refuse(
            at,
            format!("`{kw}` ({name}, rendering) with several queues or semaphores"),
        ));
    }
    if sem != Semantics::for_reading(sem.reading()) {
        let (at, _) = program.first_multi_queue_command().unwrap_or((0, String::new()));
        return Err(refuse(
            at,
            "layer emulation (a `Semantics` switch other than the reading of write-after-write) with several queues or semaphores".into(),
        ));
    }
    // The walk: host commands in place, batches at their submit.
    let steps = crate::ir::execution::steps(program);
    // Every signal and wait operation in walk order (a submission's waits
    // in order, then its signals; host waits and signals in place), and
    // each wait's candidates, decided before any access is checked.
    let mut ops: Vec<Op> = Vec::new();
    {
        let mut known = 0u32;
        // Per semaphore: the pending binary signal.
        let mut pending: Vec<Option<u32>> = vec![None; program.semaphores.len()];
        for step in &steps {
            let (waits, sigs, at, queue) = match step {
                Step::Host(i) => match &program.commands[*i] {
                    Command::HostSignal { semaphore, value } => {
                        ops.push(Op::Signal(Signal {
                            sem: semaphore.0 as usize,
                            value: Some(*value),
                            queue: None,
                            first: StageSet::EMPTY,
                        }));
                        known += 1;
                        continue;
                    }
                    Command::HostWait { semaphore, value } => {
                        ops.push(Op::Wait(Wait {
                            sem: semaphore.0 as usize,
                            kind: WaitKind::Timeline(*value),
                            queue: None,
                            second: StageSet::EMPTY,
                            known,
                            at: *i,
                        }));
                        continue;
                    }
                    _ => continue,
                },
                Step::Batch {
                    submit: Some(s),
                    queue,
                    ..
                } => match &program.commands[*s] {
                    Command::Submit(sub) => (&sub.waits, &sub.signals, *s, *queue),
                    _ => continue,
                },
                Step::Batch { .. } => continue,
            };
            for w in waits {
                let sem_ix = w.semaphore.0 as usize;
                ops.push(Op::Wait(Wait {
                    sem: sem_ix,
                    kind: match w.value {
                        None => WaitKind::Binary(pending[sem_ix].take()),
                        Some(v) => WaitKind::Timeline(v),
                    },
                    queue: Some(queue),
                    second: exec_scope(w.stages, Side::Dst),
                    known,
                    at,
                }));
            }
            for s in sigs {
                let sem_ix = s.semaphore.0 as usize;
                if s.value.is_none() {
                    pending[sem_ix] = Some(known);
                }
                ops.push(Op::Signal(Signal {
                    sem: sem_ix,
                    value: s.value,
                    queue: Some(queue),
                    first: exec_scope(s.stages, Side::Src),
                }));
                known += 1;
            }
        }
    }
    let initial: Vec<u64> = program
        .semaphores
        .iter()
        .map(|s| s.kind.initial_value())
        .collect();
    let wait_candidates = candidates::decide(&ops, &initial).map_err(|r| {
        let name = &program.semaphores[r.sem].name;
        let v = r.value;
        // A candidate later in the walk than the wait (and none that
        // dominates): the walk would process the wait's batch, or the
        // host after it, before a signal it may pair with.
        refuse(
            r.at,
            if r.several == 0 {
                format!("a wait for `{name}` {v} before any signal that satisfies it")
            } else {
                format!(
                    "a wait for `{name}` {v} that {} signals may satisfy, one of them submitted after it",
                    r.several
                )
            },
        )
    })?;
    // Each signal's group (see `Frontier::sigs`): its queue and first
    // synchronization scope, or the host.
    let sig_groups: Vec<u32> = {
        let mut ids: BTreeMap<Option<(usize, u32)>, u32> = BTreeMap::new();
        ops.iter()
            .filter_map(|o| match o {
                Op::Signal(s) => Some(s.queue.map(|q| (q, s.first.0))),
                Op::Wait(_) => None,
            })
            .map(|k| {
                let n = ids.len() as u32;
                *ids.entry(k).or_insert(n)
            })
            .collect()
    };
    let asked = Asked::of(&wait_candidates, &sig_groups);
    let mut st = State {
        events: std::collections::HashMap::new(),
        next_slot: 0,
        sig_groups,
        recs: Vec::new(),
        vals: Vec::new(),
        val_ids: HashMap::default(),
        fwd: HashMap::default(),
        mems: vec![BTreeMap::new(); layout.memory_sizes.len()],
        reading_vis: sem.waw_needs_visibility,
        last: None,
        sink,
        kept: 0,
        kept_vals: 0,
        kept_fwd: 0,
        log: Vec::new(),
        log_base: 0,
        asked,
        spacing: Spacing::new(),
        waits_logged: 0,
        log_waits: Vec::new(),
        wait_candidates,
    };
    let mut next_wait = 0usize;
    let mut next_signal = 0u32;
    for step in &steps {
        st.compact();
        match step {
            Step::Host(i) => match &program.commands[*i] {
                Command::Wait(target) => {
                    let q = match target {
                        WaitFor::All => None,
                        WaitFor::Queue(q) => Some(q.0 as usize),
                    };
                    st.fence_wait(q);
                }
                Command::HostSignal { .. } => {
                    st.host_signal(next_signal);
                    next_signal += 1;
                }
                Command::HostWait { .. } => {
                    st.host_wait(next_wait);
                    next_wait += 1;
                }
                Command::HostSetEvent { event } => st.host_set_event(event.0),
                c => {
                    let acc = accesses(c, layout, sem);
                    st.host_accesses(*i, &acc);
                }
            },
            Step::Batch { cmds, queue, submit } => {
                let sub = submit.and_then(|s| match &program.commands[s] {
                    Command::Submit(sub) => Some(sub),
                    _ => None,
                });
                if let Some(sub) = sub {
                    for w in &sub.waits {
                        let second = exec_scope(w.stages, Side::Dst);
                        st.semaphore_wait(*queue, next_wait, second);
                        next_wait += 1;
                    }
                }
                for &ci in cmds {
                    st.compact();
                    match &program.commands[ci] {
                        Command::Barrier(dep) => {
                            // A release's destination masks and an
                            // acquire's source masks are ignored (module
                            // docs): the barrier orders as if they were
                            // NONE.
                            let family = program.queue_family(QueueId(*queue as u32));
                            let os = ownership_ops(dep, layout, family);
                            let roles: Vec<Option<OwnershipRole>> = (0..dep.barriers.len())
                                .map(|bi| os.iter().find(|o| o.0 == bi).map(|o| o.1))
                                .collect();
                            let rb: Rc<[ResolvedBarrier]> = dep
                                .barriers
                                .iter()
                                .zip(&roles)
                                .map(|(b, role)| ResolvedBarrier::of(&ignored_masks(b, *role), layout))
                                .collect();
                            let ts = transitions(dep, layout);
                            for (bi, a) in &ts {
                                st.detect_transition(ci, *queue, a, &rb[*bi], None);
                            }
                            for (bi, role, a) in &os {
                                st.detect_ownership(ci, *queue, a, *role, &rb[*bi]);
                            }
                            st.apply_with(*queue, rb.clone(), Call::Pipeline(roles.into()));
                            for (bi, a) in &ts {
                                st.record_transition(ci, *queue, a, &rb[*bi]);
                            }
                            for (bi, role, a) in &os {
                                st.record_ownership(ci, *queue, a, *role, &rb[*bi]);
                            }
                        }
                        // Events (`docs/semantics.md`, "Events"): a set's
                        // barriers are cut in two around its signal
                        // operation, a slot per barrier; the set applies
                        // their first halves, the wait their second halves
                        // from its sets' slots, so the wait reaches exactly
                        // what the set did, and nothing recorded between
                        // them. A set and its wait run on one queue
                        // (validated, `crate::ir::event`), so the set is
                        // walked first.
                        // A set's layout transitions are performed at the
                        // set, after their barriers' first halves and
                        // before the signal (`ResolvedBarrier::event_set`).
                        Command::SetEvent { event, dependency } => {
                            let rb: Rc<[ResolvedBarrier]> = dependency
                                .barriers
                                .iter()
                                .map(|b| ResolvedBarrier::of(b, layout))
                                .collect();
                            let ts = transitions(dependency, layout);
                            for (bi, a) in &ts {
                                st.detect_transition(ci, *queue, a, &rb[*bi], None);
                            }
                            let first = st.set_event(*queue, event.0, rb);
                            for (bi, a) in &ts {
                                st.record_set_transition(ci, *queue, a, first + *bi as u32);
                            }
                        }
                        Command::SetEvent1 { event, stage_mask } => {
                            st.set_event1(*queue, event.0, exec_scope(*stage_mask, Side::Src));
                        }
                        Command::WaitEvents { waits } => {
                            // Every wait's barriers apply together (one
                            // call), each from its own set's slot.
                            let mut rb: Vec<ResolvedBarrier> = Vec::new();
                            let mut slots: Vec<u32> = Vec::new();
                            for w in waits {
                                for (b, slot) in w.dependency.barriers.iter().zip(st.event_slots(w.event.0)) {
                                    rb.push(ResolvedBarrier::of(b, layout));
                                    slots.push(slot);
                                }
                            }
                            st.apply_with(*queue, rb.into(), Call::WaitEvents2(slots.into()));
                        }
                        // A wait's layout transitions are part of its
                        // memory dependency, as a pipeline barrier's.
                        Command::WaitEvents1 { events, dependency } => {
                            let slots: Vec<u32> = events.iter().flat_map(|e| st.event_slots(e.0)).collect();
                            let rb: Rc<[ResolvedBarrier]> = dependency
                                .barriers
                                .iter()
                                .map(|b| ResolvedBarrier::of(b, layout))
                                .collect();
                            let ts = transitions(dependency, layout);
                            for (bi, a) in &ts {
                                st.detect_transition(ci, *queue, a, &rb[*bi], Some(&slots));
                            }
                            st.apply_with(*queue, rb.clone(), Call::WaitEvents1(slots.into()));
                            for (bi, a) in &ts {
                                st.record_transition(ci, *queue, a, &rb[*bi]);
                            }
                        }
                        c => {
                            let acc = accesses(c, layout, sem);
                            st.device_accesses(ci, *queue, &acc);
                        }
                    }
                }
                if let Some(sub) = sub {
                    for s in &sub.signals {
                        let first = exec_scope(s.stages, Side::Src);
                        st.semaphore_signal(*queue, next_signal, first, all_commands(first));
                        next_signal += 1;
                    }
                }
            }
        }
    }
    if let Some(h) = st.last.take() {
        (st.sink)(h);
    }
    Ok(())
}

/// An event's current set (`None` in [`State::events`]: never set, or
/// only reset).
#[derive(Clone, Copy, Debug)]
enum EventSet {
    /// Set on the device: its slots `first..first + n`.
    Device { first: u32, n: u32 },
    /// Set by the host.
    Host,
}

/// What a call of barriers does to each record (the effects of
/// [`Val`]), by kind of call.
#[derive(Clone, Debug)]
enum Call {
    /// A `vkCmdPipelineBarrier2`, with each barrier's queue family
    /// ownership role on its queue.
    Pipeline(Rc<[Option<OwnershipRole>]>),
    /// A `vkCmdSetEvent2` whose barriers' signal operations are the slots
    /// from this one on.
    SetEvent(u32),
    /// A `vkCmdWaitEvents2`: each barrier from its set's slot.
    WaitEvents2(Rc<[u32]>),
    /// A `vkCmdWaitEvents`: every barrier from every waited set's slot.
    WaitEvents1(Rc<[u32]>),
}

impl Call {
    /// Whether its effects read the event slots a record reached (a wait
    /// asks for its sets' slots; a pipeline barrier or an event set adds
    /// at most).
    fn reads_events(&self) -> bool {
        matches!(self, Call::WaitEvents2(_) | Call::WaitEvents1(_))
    }

    /// Barrier `bi` (of `rb`, on queue `q`)'s effect on `new`, whose value
    /// before the call is `old` ([`Val::only`]).
    fn effect(&self, q: usize, rb: &[ResolvedBarrier], new: &mut Val, old: &Val, bi: usize, inside: bool) {
        match self {
            Call::Pipeline(roles) => new.barrier_effect(old, q, &rb[bi], roles[bi], inside),
            Call::SetEvent(first) => new.event_set_effect(old, q, &rb[bi], first + bi as u32, inside),
            Call::WaitEvents2(slots) => {
                new.event_wait_effect(old, q, &rb[bi], &slots[bi..=bi], false, inside)
            }
            Call::WaitEvents1(slots) => new.event_wait_effect(old, q, &rb[bi], slots, true, inside),
        }
    }
}

/// An operation that changes every live record the same way, whatever its
/// bytes: kept in [`State::log`] and applied to a record when it is next
/// read ([`State::sync`]). Applying each to every live record at once made
/// the walk cost the live records per operation: quadratic in a chain
/// through N queues, whose records of each queue's own buffer live to the
/// end and are never read again, and growing per command with the number
/// of live byte ranges (issues 25 and 27).
#[derive(Clone, Debug)]
enum LogOp {
    /// A call of barriers of queue `q` as it applies to every record (a
    /// buffer barrier as if outside its range: the records inside are
    /// copied at the call, [`State::apply_with`]).
    Barriers {
        q: usize,
        rb: Rc<[ResolvedBarrier]>,
        call: Call,
    },
    /// A `vkCmdSetEvent` of queue `q`: first scope, slot.
    SetEvent1 { q: usize, first: StageSet, slot: u32 },
    /// An event's set ended: its slots are forgotten.
    Forget(Range<u32>),
    /// A semaphore wait of queue `r`: its index among the waits (its
    /// candidates), second scope.
    SemaphoreWait { r: usize, wait: usize, second: StageSet },
    /// A semaphore signal of queue `q`: its id, first scope, whether that
    /// holds `ALL_COMMANDS`.
    SemaphoreSignal {
        q: usize,
        id: u32,
        first: StageSet,
        all: bool,
    },
    /// `vkSignalSemaphore`: the signal's id.
    HostSignal(u32),
    /// `vkWaitSemaphores`: the wait's index among the waits.
    HostWait(usize),
    /// A fence wait on every submission (`None`) or on one queue's.
    Fence(Option<usize>),
}

/// The walk's state: records, and per memory object the records each
/// byte range holds.
struct State<'s> {
    /// Per event, its current set.
    events: std::collections::HashMap<u32, EventSet>,
    /// The next event slot to hand out.
    next_slot: u32,
    /// Per signal (walk order), its group (see [`Frontier::sigs`]).
    sig_groups: Vec<u32>,
    recs: Vec<Rec>,
    /// The values `fwd` names, each once, and the index of each.
    vals: Vec<Val>,
    val_ids: HashMap<Val, u32>,
    /// What a value at a checkpoint of the log becomes at a later
    /// position, as learned by [`Self::sync`]: records alike at one
    /// checkpoint share the replay from there (path-compressed, so a long
    /// way is walked once). A cache: [`Self::compact_vals`] keeps the
    /// steps from positions the log still has.
    fwd: HashMap<(u32, usize), (u32, usize)>,
    mems: Vec<BTreeMap<u64, (u64, Vec<usize>)>>,
    reading_vis: bool,
    /// The latest hazard, held back while a next one may continue its
    /// bytes; then it goes to `sink`.
    last: Option<Hazard>,
    sink: &'s mut dyn FnMut(Hazard),
    /// How many records, values and steps [`Self::compact`] kept the
    /// last time.
    kept: usize,
    kept_vals: usize,
    kept_fwd: usize,
    /// The operations that change every record (see [`LogOp`]) from
    /// `log_base` on; a record has seen those before its
    /// [`Rec::synced`]. The prefix every held record has seen is dropped
    /// at [`Self::compact`].
    log: Vec<LogOp>,
    log_base: usize,
    /// Per semaphore wait (device and host, walk order), its candidates.
    wait_candidates: Vec<Rc<[u32]>>,
    /// Per signal group, what the waits still to come ask of it
    /// ([`Self::canonical`]).
    asked: Vec<Asked>,
    /// How often [`Self::sync`] looks values up.
    spacing: Spacing,
    /// How many waits the log holds, and before each of its operations.
    waits_logged: usize,
    log_waits: Vec<usize>,
}

/// The waits with a candidate in one signal group, in walk order: each
/// one's index and the least candidate of the group from it on (a suffix
/// minimum).
#[derive(Debug, Default)]
struct Asked {
    waits: Vec<(usize, u32)>,
}

impl Asked {
    /// Per group, the waits with a candidate in it.
    fn of(candidates: &[Rc<[u32]>], groups: &[u32]) -> Vec<Asked> {
        let n = groups.iter().map(|&g| g as usize + 1).max().unwrap_or(0);
        let mut asked: Vec<Asked> = (0..n).map(|_| Asked::default()).collect();
        for (w, cs) in candidates.iter().enumerate() {
            for &c in cs.iter() {
                let a = &mut asked[groups[c as usize] as usize];
                match a.waits.last_mut() {
                    Some((last, least)) if *last == w => *least = (*least).min(c),
                    _ => a.waits.push((w, c)),
                }
            }
        }
        for a in &mut asked {
            for i in (0..a.waits.len().saturating_sub(1)).rev() {
                a.waits[i].1 = a.waits[i].1.min(a.waits[i + 1].1);
            }
        }
        asked
    }

    /// The least candidate in the group of the waits from the `from`th
    /// on, if any.
    fn least_from(&self, from: usize) -> Option<u32> {
        let i = self.waits.partition_point(|&(w, _)| w < from);
        self.waits.get(i).map(|&(_, c)| c)
    }
}

impl State<'_> {
    /// The log's end: what a record made now has seen.
    fn now(&self) -> usize {
        self.log_base + self.log.len()
    }

    /// The index of value `v`, a new one if no value equal to it has one.
    fn intern(&mut self, v: &Val) -> u32 {
        if let Some(&i) = self.val_ids.get(v) {
            return i;
        }
        let i = self.vals.len() as u32;
        self.vals.push(v.clone());
        self.val_ids.insert(v.clone(), i);
        i
    }

    /// Makes `x`'s signals reached say only what the waits still to come
    /// ask ([`Frontier::reached`]), the waits from the `from`th on: a
    /// group none of them has a candidate in is left out, and the first
    /// signal reached of a group is 0 when it is at most each such
    /// candidate. Values that differ only in signals no later wait tells
    /// apart are then one (the records of each batch reach that batch's
    /// signals first: without this a frame loop's values grew with its
    /// frames and were never shared).
    fn canonical(&self, x: &mut Val, from: usize) {
        for f in [&mut x.e, &mut x.a, &mut x.h] {
            f.sigs
                .retain_mut(|(g, first)| match self.asked[*g as usize].least_from(from) {
                    None => false,
                    Some(least) => {
                        if *first <= least {
                            *first = 0;
                        }
                        true
                    }
                });
        }
    }

    /// Record `id`'s value (brought up to date by [`Self::sync`]).
    fn val(&self, id: usize) -> &Val {
        &self.recs[id].val
    }

    /// Appends `op` to the log.
    fn log_op(&mut self, op: LogOp) {
        self.log_waits.push(self.waits_logged);
        if let LogOp::SemaphoreWait { wait, .. } | LogOp::HostWait(wait) = op {
            self.waits_logged = wait + 1;
        }
        self.log.push(op);
    }

    /// How many waits the log holds before position `at`.
    fn waits_before(&self, at: usize) -> usize {
        self.log_waits
            .get(at - self.log_base)
            .copied()
            .unwrap_or(self.waits_logged)
    }

    /// Brings record `id` up to date: applies the logged operations it
    /// has not seen, as they would have applied when logged (a record
    /// that races nothing any more, [`Val::done`], is left as it is, as
    /// the operations themselves did).
    ///
    /// What a value at a log position becomes depends on nothing else, so
    /// at checkpoints ([`Spacing`]) the walk looks its value up
    /// ([`Self::fwd`]): a record that meets there a value some record had
    /// there before jumps to where that one went, and the positions it
    /// passed point at its end (path compression). Records alike share the
    /// rest of the way, and a log operation costs each distinct value at a
    /// checkpoint once, not each record that was not read since (issue 25:
    /// a trace of two queues over 4,096 live byte ranges replayed every
    /// barrier once per live record). Values are compared in the form
    /// [`Self::canonical`] gives; a value with event slots, which can be
    /// long, is not looked up (it is walked as before).
    fn sync(&mut self, id: usize) {
        let now = self.now();
        let mut at = self.recs[id].synced;
        if at >= now {
            return;
        }
        let sa = self.recs[id].val.sa;
        let mut x = std::mem::replace(&mut self.recs[id].val, Val::empty(sa));
        let mut path: Vec<(u32, usize)> = Vec::new();
        while at < now {
            if at.is_multiple_of(self.spacing.every) && x.hashable() {
                self.canonical(&mut x, self.waits_before(at));
                let key = self.intern(&x);
                path.push((key, at));
                let hit = self.fwd.get(&(key, at)).copied().filter(|&(_, to)| to > at);
                self.spacing.looked_up(hit.map_or(0, |(_, to)| to - at));
                if let Some((w, to)) = hit {
                    x = self.vals[w as usize].clone();
                    at = to;
                    continue;
                }
            }
            if x.done() {
                break;
            }
            let op = &self.log[at - self.log_base];
            if may_change(op, &x, &self.sig_groups, &self.wait_candidates) {
                replay(op, &mut x, &self.sig_groups, &self.wait_candidates);
            }
            at += 1;
        }
        if !path.is_empty() && x.hashable() {
            self.canonical(&mut x, self.waits_logged);
            let key = self.intern(&x);
            for step in path {
                self.fwd.insert(step, (key, now));
            }
        }
        self.recs[id].val = x;
        self.recs[id].synced = now;
    }

    /// The ids some entry holds, sorted.
    fn held(&self) -> Vec<usize> {
        let mut ids: Vec<usize> = self
            .mems
            .iter()
            .flat_map(|m| m.values().flat_map(|(_, ids)| ids.iter().copied()))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Drops the records no entry holds and renumbers the rest, once the
    /// records outnumber twice those kept last time (amortized linear):
    /// without it every record a barrier ever copied stays in memory, and
    /// memory grows with the program, not with its live state. Drops the
    /// log's prefix every record kept has seen. Then the values and the
    /// cache of steps likewise ([`Self::compact_vals`]). Called between
    /// commands only, when no id is held outside `mems`.
    fn compact(&mut self) {
        if self.recs.len() > 2 * self.kept + 1024 {
            let ids = self.held();
            let mut new_id = vec![usize::MAX; self.recs.len()];
            for (n, &i) in ids.iter().enumerate() {
                new_id[i] = n;
            }
            let recs: Vec<Rec> = std::mem::take(&mut self.recs)
                .into_iter()
                .zip(&new_id)
                .filter(|(_, &n)| n != usize::MAX)
                .map(|(r, _)| r)
                .collect();
            for m in &mut self.mems {
                for (_, held) in m.values_mut() {
                    for id in held.iter_mut() {
                        *id = new_id[*id];
                    }
                }
            }
            self.recs = recs;
            self.kept = self.recs.len();
            let seen = self.recs.iter().map(|r| r.synced).min().unwrap_or(self.now());
            self.log.drain(..seen - self.log_base);
            self.log_waits.drain(..seen - self.log_base);
            self.log_base = seen;
        }
        if self.vals.len() > 2 * self.kept_vals + 4096 || self.fwd.len() > 2 * self.kept_fwd + 65536 {
            self.compact_vals();
        }
    }

    /// Keeps the steps of [`Self::fwd`] from a position the log still
    /// has, and the values they name, renumbered.
    fn compact_vals(&mut self) {
        let base = self.log_base;
        let mut new_val = vec![u32::MAX; self.vals.len()];
        let mut vals: Vec<Val> = Vec::new();
        let mut renumber = |v: u32| {
            let n = &mut new_val[v as usize];
            if *n == u32::MAX {
                *n = vals.len() as u32;
                vals.push(self.vals[v as usize].clone());
            }
            *n
        };
        self.fwd = std::mem::take(&mut self.fwd)
            .into_iter()
            .filter(|&((_, at), _)| at >= base)
            .map(|((v, at), (w, to))| ((renumber(v), at), (renumber(w), to)))
            .collect();
        self.val_ids = vals.iter().cloned().zip(0..).collect();
        self.vals = vals;
        self.kept_vals = self.vals.len();
        self.kept_fwd = self.fwd.len();
    }

    fn split_at(&mut self, m: usize, pos: u64) {
        let map = &mut self.mems[m];
        let hit = map.range(..pos).next_back().map(|(&s, (e, _))| (s, *e));
        if let Some((s, e)) = hit {
            if s < pos && pos < e {
                let (_, recs) = map.get(&s).cloned().unwrap_or_default();
                map.insert(s, (pos, recs.clone()));
                map.insert(pos, (e, recs));
            }
        }
    }

    /// The entries over `range`, split at its ends, with gaps filled.
    fn entries(&mut self, m: usize, range: ByteRange) -> Vec<u64> {
        self.split_at(m, range.start);
        self.split_at(m, range.end);
        let mut keys = Vec::new();
        let mut at = range.start;
        let existing: Vec<(u64, u64)> = self.mems[m]
            .range(range.start..range.end)
            .map(|(&s, (e, _))| (s, *e))
            .collect();
        for (s, e) in existing {
            if at < s {
                self.mems[m].insert(at, (s, Vec::new()));
                keys.push(at);
            }
            keys.push(s);
            at = e;
        }
        if at < range.end {
            self.mems[m].insert(at, (range.end, Vec::new()));
            keys.push(at);
        }
        keys
    }

    /// The value of an access of `queue` just made.
    fn fresh(sa: StageAccess, queue: usize) -> Val {
        let mut e = Frontier::default();
        // Its own fence follows it.
        e.q.get_mut(queue).touched = true;
        Val {
            sa,
            queue,
            e,
            a: Frontier::default(),
            sv: Frontier::default(),
            h: Frontier::default(),
            vis: PerQueues::default(),
        }
    }

    /// Whether device access `sa` of queue `q` is ordered after prior
    /// record `x` (the memory model's location order), under the reading.
    fn ordered(&self, x: &Val, q: usize, sa: StageAccess) -> bool {
        // Transitions "execute in their entirety in submission order,
        // relative to other image layout transitions submitted to the same
        // queue": submission order is per queue, so a transition of
        // another queue is ordered as any write is.
        if x.transition() && sa.is_layout_transition() && x.queue == q {
            return true;
        }
        let stage = sa.stage();
        if !x.sa.is_write() {
            // "X is a read, and X (transitively) system-synchronizes with Y".
            return x.e.reaches_access(q, stage);
        }
        if sa.is_write() && !self.reading_vis {
            // "X->AV(A_X,R_X,D_X,L)->DOM(D_X,D_Y)->Y".
            return x.a.reaches_access(q, stage);
        }
        // "X->AV->DOM->VIS(A_Y,R_Y,D_Y,L)->Y": a barrier's visibility
        // operation on Y's queue, a semaphore wait's, or a submit's (after
        // an availability that reached the host).
        x.a.host || x.vis.get(q).contains(sa) || x.sv.reaches_access(q, stage)
    }

    /// A hazard of access `a` of command `cmd` with record `prior`'s
    /// access (`host`: a host access, which needs a wait too).
    fn push(&mut self, kind: HazardKind, cmd: usize, a: &Access, prior: usize, range: ByteRange, host: bool) {
        let (prior_command, prior_sa) = (self.recs[prior].cmd, self.val(prior).sa);
        let raw = RawHazard {
            kind,
            command: cmd,
            prior_command,
            mem: a.mem,
            range,
            current: a.sa,
            prior: prior_sa,
            needs_barrier: true,
            needs_wait: host,
            needs_visibility: kind.needs_visibility(self.reading_vis),
            prior_in_flight: false,
            pieces: None,
        };
        let h = lift(&raw, a);
        // Extend the previous hazard when it continues this one, on the
        // same object.
        if let Some(last) = self.last.as_mut() {
            if last.command == h.command
                && last.kind == h.kind
                && last.prior_command == h.prior_command
                && last.memory.mem == h.memory.mem
                && last.region.object == h.region.object
                && last.current == h.current
                && last.prior == h.prior
                && last.memory.range.end == h.memory.range.start
                && last.region.range.end == h.region.range.start
            {
                last.memory.range.end = h.memory.range.end;
                last.region.range.end = h.region.range.end;
                if let Some(b) = last.fix.barrier.as_mut() {
                    if let Some(r) = b.region.as_mut() {
                        r.range.end = h.region.range.end;
                    }
                }
                return;
            }
        }
        if let Some(done) = self.last.replace(h) {
            (self.sink)(done);
        }
    }

    fn kind(prior_write: bool, cur_write: bool) -> HazardKind {
        match (prior_write, cur_write) {
            (true, false) => HazardKind::ReadAfterWrite,
            (false, true) => HazardKind::WriteAfterRead,
            _ => HazardKind::WriteAfterWrite,
        }
    }

    fn device_accesses(&mut self, cmd: usize, q: usize, acc: &[Access]) {
        // Every access is checked against the state before the command.
        for a in acc {
            let m = a.mem.0 as usize;
            for k in self.entries(m, a.range) {
                let (end, ids) = self.mems[m][&k].clone();
                let range = ByteRange::new(k, end);
                for id in ids {
                    self.sync(id);
                    let x = self.val(id);
                    if !x.sa.is_write() && !a.sa.is_write() {
                        continue;
                    }
                    if !self.ordered(x, q, a.sa) {
                        let kind = Self::kind(x.sa.is_write(), a.sa.is_write());
                        self.push(kind, cmd, a, id, range, false);
                    }
                }
            }
        }
        for a in acc
            .iter()
            .filter(|a| !a.sa.is_write())
            .chain(acc.iter().filter(|a| a.sa.is_write()))
        {
            self.record(a, cmd, Self::fresh(a.sa, q));
        }
    }

    /// Records `rec` over `a`'s bytes, dropping the records it stands for:
    /// an older read of the same queue and stage (anything ordered after
    /// the newer read is ordered after it), an older write available
    /// before this write (every availability of the new write comes after
    /// it), and records that race nothing any more.
    fn record(&mut self, a: &Access, cmd: usize, rec: Val) {
        let id = self.recs.len();
        let (q, sa) = (rec.queue, rec.sa);
        let synced = self.now();
        self.recs.push(Rec {
            cmd,
            val: rec,
            synced,
        });
        let m = a.mem.0 as usize;
        for k in self.entries(m, a.range) {
            let ids = std::mem::take(&mut self.mems[m].get_mut(&k).expect("listed entry").1);
            for &i in &ids {
                self.sync(i);
            }
            let mut kept: Vec<usize> = ids
                .into_iter()
                .filter(|&i| {
                    let x = self.val(i);
                    if x.done() {
                        return false;
                    }
                    if sa.is_layout_transition() || sa.is_ownership_transfer() {
                        return true;
                    }
                    if !sa.is_write() {
                        return x.sa.is_write() || x.queue != q || x.sa.stage() != sa.stage();
                    }
                    !(x.sa.is_write() && x.a.reaches_access(q, sa.stage()))
                })
                .collect();
            kept.push(id);
            self.mems[m].get_mut(&k).expect("listed entry").1 = kept;
        }
    }

    fn host_accesses(&mut self, cmd: usize, acc: &[Access]) {
        // Host accesses race nothing processed after them, so they are
        // checked and not recorded.
        for a in acc {
            let m = a.mem.0 as usize;
            for k in self.entries(m, a.range) {
                let (end, ids) = self.mems[m][&k].clone();
                let range = ByteRange::new(k, end);
                for id in ids {
                    self.sync(id);
                    let x = self.val(id);
                    let race = if x.sa.is_write() {
                        // A device write reaches the host through a barrier's
                        // device-to-host domain operation after an
                        // availability of it, then a wait.
                        !x.h.host
                    } else {
                        a.sa.is_write() && !x.e.host
                    };
                    if race {
                        // A wait is missing unless the host already waited
                        // for the earlier access (its execution reached
                        // the host): then only the barrier into `HOST` is
                        // (review37: a timeline host wait after a barrier
                        // over part of the range got `submit; wait`, which
                        // fixed nothing).
                        let needs_wait = !x.e.host;
                        let kind = Self::kind(x.sa.is_write(), a.sa.is_write());
                        self.push(kind, cmd, a, id, range, needs_wait);
                    }
                }
            }
        }
    }

    /// The hazards of the layout transition that barrier `b` of command
    /// `cmd` performs on queue `q` (`a`: its write), against the state
    /// before the call: a pipeline barrier's or a `vkCmdSetEvent2`'s
    /// (`wait1`: `None`, ordered by `b`'s first half), or a
    /// `vkCmdWaitEvents` barrier's waiting for the signal operations
    /// `wait1` ([`Val::before_wait1_transition`]).
    fn detect_transition(
        &mut self,
        cmd: usize,
        q: usize,
        a: &Access,
        b: &ResolvedBarrier,
        wait1: Option<&[u32]>,
    ) {
        let m = a.mem.0 as usize;
        for k in self.entries(m, a.range) {
            let (end, ids) = self.mems[m][&k].clone();
            let range = ByteRange::new(k, end);
            for id in ids {
                self.sync(id);
                let x = self.val(id);
                // Transitions of one queue are ordered among themselves in
                // submission order, which is per queue ("relative to other
                // image layout transitions submitted to the same queue").
                if x.transition() && x.queue == q {
                    continue;
                }
                // The transition happens after its barrier's first half
                // ("Available memory is automatically made visible to a
                // layout transition"), and after an `ALL_COMMANDS` second
                // scope (a barrier's, a semaphore wait's) of its queue that
                // `x` (a write: its availability) reached.
                let f = if x.sa.is_write() { &x.a } else { &x.e };
                let first_half = match wait1 {
                    None => x.before_first_half(q, b),
                    Some(slots) => x.before_wait1_transition(b, slots),
                };
                if !first_half && !f.reaches_unstaged_op(q) {
                    self.push(Self::kind(x.sa.is_write(), true), cmd, a, id, range, false);
                }
            }
        }
    }

    /// The hazards of the queue family release or acquire operation that
    /// barrier `b` of command `cmd` performs on queue `q`, against the
    /// state before the call. "Available memory is automatically made
    /// visible" to it, so a prior write needs only an availability before
    /// it. Both happen after an `ALL_COMMANDS` second scope of their queue
    /// (a semaphore wait, usually) and the host; a release also after its
    /// barrier's first half, as a layout transition does; an acquire after
    /// nothing of its own barrier ("the first synchronization scope of the
    /// calling command does not apply to this operation").
    fn detect_ownership(
        &mut self,
        cmd: usize,
        q: usize,
        a: &Access,
        role: OwnershipRole,
        b: &ResolvedBarrier,
    ) {
        let m = a.mem.0 as usize;
        for k in self.entries(m, a.range) {
            let (end, ids) = self.mems[m][&k].clone();
            let range = ByteRange::new(k, end);
            for id in ids {
                self.sync(id);
                let x = self.val(id);
                let f = if x.sa.is_write() { &x.a } else { &x.e };
                let ordered =
                    f.reaches_unstaged_op(q) || (role == OwnershipRole::Release && x.before_first_half(q, b));
                if !ordered {
                    self.push(Self::kind(x.sa.is_write(), true), cmd, a, id, range, false);
                }
            }
        }
    }

    /// Records a queue family release or acquire operation: its writes
    /// available at once (`a` is `e`); a release with nothing after it
    /// but its queue's fence (its barrier's second half does not apply);
    /// an acquire as its barrier's second half leaves it.
    fn record_ownership(
        &mut self,
        cmd: usize,
        q: usize,
        a: &Access,
        role: OwnershipRole,
        b: &ResolvedBarrier,
    ) {
        let mut rec = Self::fresh(a.sa, q);
        if role == OwnershipRole::Acquire {
            rec.e.take_dep(q, b.dst_exec);
            *rec.vis.get_mut(q) = b.dst_access;
            if b.dst_access.0 & crate::sync::value::HOST_PAIRS.0 != 0 {
                rec.h.take_dep(q, b.dst_exec);
            }
        }
        rec.a = rec.e.clone();
        self.record(a, cmd, rec);
    }

    /// Records the transition of a `vkCmdSetEvent2`'s barrier, whose
    /// signal operation is slot `slot`: before the signal only (available
    /// at once, so in `a` too); the wait orders it and makes it visible.
    fn record_set_transition(&mut self, cmd: usize, q: usize, a: &Access, slot: u32) {
        let mut rec = Self::fresh(a.sa, q);
        rec.e.add_event(slot);
        rec.a.add_event(slot);
        self.record(a, cmd, rec);
    }

    fn record_transition(&mut self, cmd: usize, q: usize, a: &Access, b: &ResolvedBarrier) {
        // As the barrier's second half leaves it: available, its second
        // synchronization scope after it, visible to its second access
        // scope, moved to the host with a host access there.
        let mut rec = Self::fresh(a.sa, q);
        rec.e.take_dep(q, b.dst_exec);
        rec.a.take_dep(q, b.dst_exec);
        *rec.vis.get_mut(q) = b.dst_access;
        if b.dst_access.0 & crate::sync::value::HOST_PAIRS.0 != 0 {
            rec.h.take_dep(q, b.dst_exec);
        }
        self.record(a, cmd, rec);
    }

    /// Applies the barriers `barriers` of one call (a pipeline barrier, an
    /// event set or wait) of queue `q`: to the records over bytes inside a
    /// buffer barrier's range at once (a copy of each for those bytes),
    /// and to every record as outside every range through the log
    /// ([`LogOp::Barriers`]). Barriers of one call do not chain: each
    /// effect reads the record's value before the call.
    fn apply_with(&mut self, q: usize, barriers: Rc<[ResolvedBarrier]>, call: Call) {
        // Records over bytes inside a buffer barrier's range get the
        // barrier's memory dependency: a copy for those bytes, one per
        // record and set of barriers covering them.
        let ranged: Vec<usize> = (0..barriers.len())
            .filter(|&i| barriers[i].range.is_some())
            .collect();
        let n = self.recs.len();
        // The copies have seen this call (logged below).
        let after = self.now() + 1;
        let mut clones: BTreeMap<(usize, u64), usize> = BTreeMap::new();
        for &bi in &ranged {
            let r = barriers[bi].range.expect("ranged");
            let m = r.mem.0 as usize;
            self.split_at(m, r.range.start);
            self.split_at(m, r.range.end);
        }
        let mut mems: Vec<usize> = ranged
            .iter()
            .map(|&bi| barriers[bi].range.expect("ranged").mem.0 as usize)
            .collect();
        mems.sort_unstable();
        mems.dedup();
        for m in mems {
            // Only the entries inside some barrier's range (split at its
            // ends above) can be copied: the others are left as they are,
            // and visiting every entry of the object made each buffer
            // barrier cost the object's live ranges (issue 27).
            let mut keys: Vec<u64> = Vec::new();
            for &bi in &ranged {
                let r = barriers[bi].range.expect("ranged");
                if r.mem.0 as usize == m {
                    keys.extend(self.mems[m].range(r.range.start..r.range.end).map(|(&k, _)| k));
                }
            }
            keys.sort_unstable();
            keys.dedup();
            for k in keys {
                let (end, ids) = self.mems[m][&k].clone();
                let mut mask = 0u64;
                for &bi in &ranged {
                    let r = barriers[bi].range.expect("ranged");
                    if r.mem.0 as usize == m && r.range.start <= k && end <= r.range.end {
                        mask |= 1 << bi.min(63);
                    }
                }
                if mask == 0 {
                    continue;
                }
                let mut new_ids = Vec::with_capacity(ids.len());
                for id in ids {
                    if id >= n || !self.val(id).sa.is_write() {
                        new_ids.push(id);
                        continue;
                    }
                    let c = match clones.get(&(id, mask)) {
                        Some(&c) => c,
                        None => {
                            self.sync(id);
                            let mut new = self.recs[id].clone();
                            let old = new.val.only_for(q, &call);
                            for (bi, b) in barriers.iter().enumerate() {
                                let inside = b.range.is_none() || mask & (1 << bi.min(63)) != 0;
                                call.effect(q, &barriers, &mut new.val, &old, bi, inside);
                            }
                            new.synced = after;
                            self.recs.push(new);
                            clones.insert((id, mask), self.recs.len() - 1);
                            self.recs.len() - 1
                        }
                    };
                    new_ids.push(c);
                }
                self.mems[m].get_mut(&k).expect("listed").1 = new_ids;
            }
        }
        self.log_op(LogOp::Barriers {
            q,
            rb: barriers,
            call,
        });
    }

    /// Ends event `event`'s current set (it is set again, or set by the
    /// host): no later wait asks for its slots, which are removed from
    /// every live record so the frontiers hold the live sets' slots only.
    fn forget_event(&mut self, event: u32) {
        if let Some(EventSet::Device { first, n }) = self.events.remove(&event) {
            self.log_op(LogOp::Forget(first..first + n));
        }
    }

    /// A `vkCmdSetEvent2` of `event` on queue `q` with barriers `rb`: one
    /// slot per barrier, each its first half ([`Val::event_set_effect`]).
    /// Returns the first slot.
    fn set_event(&mut self, q: usize, event: u32, rb: Rc<[ResolvedBarrier]>) -> u32 {
        self.forget_event(event);
        let first = self.next_slot;
        let n = rb.len() as u32;
        self.next_slot += n;
        self.events.insert(event, EventSet::Device { first, n });
        self.apply_with(q, rb, Call::SetEvent(first));
        first
    }

    /// A `vkCmdSetEvent` of `event` on queue `q` with first
    /// synchronization scope `first`: one slot, its signal operation.
    fn set_event1(&mut self, q: usize, event: u32, first: StageSet) {
        self.forget_event(event);
        let slot = self.next_slot;
        self.next_slot += 1;
        self.events.insert(event, EventSet::Device { first: slot, n: 1 });
        self.log_op(LogOp::SetEvent1 { q, first, slot });
    }

    /// `vkSetEvent`: the event's device set ends. A host set reaches no
    /// device access through its wait: the wait's first scope holds host
    /// operations before the set, and a record the host is after
    /// (`Frontier::host`) is before every later submission already.
    fn host_set_event(&mut self, event: u32) {
        self.forget_event(event);
        self.events.insert(event, EventSet::Host);
    }

    /// The current device set's slots of `event` (none for a host set).
    fn event_slots(&self, event: u32) -> std::ops::Range<u32> {
        match self.events.get(&event) {
            Some(&EventSet::Device { first, n }) => first..first + n,
            _ => 0..0,
        }
    }

    /// A semaphore wait operation of queue `r` (second scope `second`),
    /// the `wait`th of the walk.
    fn semaphore_wait(&mut self, r: usize, wait: usize, second: StageSet) {
        self.log_op(LogOp::SemaphoreWait { r, wait, second });
    }

    /// A semaphore signal operation of queue `q`.
    fn semaphore_signal(&mut self, q: usize, id: u32, first: StageSet, all: bool) {
        self.log_op(LogOp::SemaphoreSignal { q, id, first, all });
    }

    /// `vkSignalSemaphore`: after whatever reached the host.
    fn host_signal(&mut self, id: u32) {
        self.log_op(LogOp::HostSignal(id));
    }

    /// `vkWaitSemaphores`, the `wait`th wait of the walk: later host
    /// operations after its candidates.
    fn host_wait(&mut self, wait: usize) {
        self.log_op(LogOp::HostWait(wait));
    }

    /// A fence wait on every submission so far (`None`) or on those of one
    /// queue (`vkQueueWaitIdle`).
    fn fence_wait(&mut self, q: Option<usize>) {
        self.log_op(LogOp::Fence(q));
    }
}

/// Whether logged operation `op` may change value `x` (`false` only
/// where [`replay`] certainly leaves it as it is): the walk skips the
/// copy and the replay of the operations a value does not see, most of
/// them with several queues (a barrier of one queue, for an access of
/// another that reached nothing of it).
fn may_change(op: &LogOp, x: &Val, groups: &[u32], candidates: &[Rc<[u32]>]) -> bool {
    let fronts = [&x.e, &x.a, &x.h];
    // A barrier, event set or wait of queue `q` reads a frontier's entry
    // of `q`, its host point and its event slots, and the access itself
    // when it is `q`'s.
    let sees = |q: usize| {
        x.queue == q
            || fronts
                .iter()
                .any(|f| f.host || !f.events.is_empty() || f.q.has(q))
    };
    match op {
        LogOp::Barriers { q, .. } | LogOp::SetEvent1 { q, .. } | LogOp::SemaphoreSignal { q, .. } => sees(*q),
        LogOp::Forget(_) => fronts.iter().any(|f| !f.events.is_empty()),
        LogOp::SemaphoreWait { wait, .. } | LogOp::HostWait(wait) => {
            fronts.iter().any(|f| f.reaches_wait(&candidates[*wait], groups))
        }
        LogOp::HostSignal(_) => fronts.iter().any(|f| f.host),
        LogOp::Fence(_) => true,
    }
}

/// Logged operation `op`'s effect on record `x` (see [`LogOp`]); `groups`
/// is each signal's group, `candidates` each wait's candidate signals.
fn replay(op: &LogOp, x: &mut Val, groups: &[u32], candidates: &[Rc<[u32]>]) {
    match op {
        LogOp::Barriers { q, rb, call } => {
            let old = x.only_for(*q, call);
            for (bi, b) in rb.iter().enumerate() {
                call.effect(*q, rb, x, &old, bi, b.range.is_none());
            }
        }
        LogOp::SetEvent1 { q, first, slot } => {
            // (A set reads no event slots.)
            let old = x.only_without_events(*q);
            x.event_set1_effect(&old, *q, *first, *slot);
        }
        LogOp::Forget(gone) => {
            for f in [&mut x.e, &mut x.a, &mut x.h] {
                if f.events.as_slice().iter().any(|s| gone.contains(s)) {
                    f.events.retain(|s| !gone.contains(s));
                }
            }
        }
        LogOp::SemaphoreWait { r, wait, second } => {
            let c = &candidates[*wait];
            let e = x.e.reaches_wait(c, groups);
            let av = x.a.reaches_wait(c, groups);
            let h = x.h.reaches_wait(c, groups);
            if e {
                x.e.import(*r, *second);
            }
            if av {
                x.a.import(*r, *second);
                // The wait's visibility operation, after an availability:
                // to the accesses in its own second scope only ("Let
                // AccessScope2nd be the second access scope of the last
                // command in the Sync chain"), so `sv` never chains on.
                x.sv.import(*r, *second);
            }
            if h {
                x.h.import(*r, *second);
            }
        }
        LogOp::SemaphoreSignal { q, id, first, all } => {
            let (q, id, first, all) = (*q, *id, *first, *all);
            let g = groups[id as usize];
            // A layout transition of the signal's queue is in its first
            // scope when that is `ALL_COMMANDS` ("all operations performed
            // by all commands supported on the queue"), as it is in a
            // fence signal's: a transition is an operation its barrier
            // command performs.
            let direct = x.directly_in(q, first) || (all && x.transition() && x.queue == q);
            let e = direct || x.e.reaches_signal(q, first, all);
            if e {
                x.e.add_sig(id, g);
            }
            // The signal's first access scope is all device accesses: an
            // availability operation of the writes in its own first
            // synchronization scope ("Let AccessScope1st be the first
            // access scope of the first command in the Sync chain"), not of
            // those only chained into it; after an earlier availability of
            // x, it is after one.
            if x.sa.is_write() && (direct || x.a.reaches_signal(q, first, all)) {
                x.a.add_sig(id, g);
                x.a.q.get_mut(q).touched = true;
            }
            if x.h.reaches_signal(q, first, all) {
                x.h.add_sig(id, g);
            }
        }
        LogOp::HostSignal(id) => {
            let g = groups[*id as usize];
            for f in [&mut x.e, &mut x.a, &mut x.h] {
                if f.host {
                    f.add_sig(*id, g);
                }
            }
        }
        LogOp::HostWait(wait) => {
            let c = &candidates[*wait];
            for f in [&mut x.e, &mut x.a, &mut x.h] {
                if !c.is_empty() && f.reaches_wait(c, groups) {
                    f.host = true;
                }
            }
        }
        // The fence signal is an availability operation of the writes in
        // its first synchronization scope: those of its own queue (every
        // one submitted so far), not those only chained into it from
        // another queue.
        LogOp::Fence(q) => {
            let hit = |f: &Frontier| match q {
                None => f.q.values().any(|p| p.touched),
                Some(q) => f.q.get(*q).touched,
            };
            if hit(&x.e) {
                x.e.host = true;
            }
            if x.sa.is_write() && q.is_none_or(|q| q == x.queue) {
                x.a.host = true;
            }
            for f in [&mut x.a, &mut x.h] {
                if hit(f) {
                    f.host = true;
                }
            }
        }
    }
}
