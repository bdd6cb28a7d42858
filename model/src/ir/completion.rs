//! What is known complete, and when: the one account of which submitted
//! batches have completed at a point of the program, as seen by the host
//! (after its fence, queue and timeline waits) and by each queue (after
//! its earlier batches and the semaphore waits they made), following
//! semaphore chains across queues.
//!
//! Two kinds of rule read it:
//!
//! * the host's event rules ([`super::event`]): the host sets or resets an
//!   event only when no submitted device wait of it is pending;
//! * the order of a binary semaphore's operations on the device, checked
//!   here at each submit. Host order alone (module `queue`: a wait has a
//!   pending signal, a signal finds the semaphore unsignalled) does not
//!   say which signal a wait takes on the device. "Semaphore Waiting"
//!   includes in a wait's first scope a signal that no other wait is
//!   *known* to come between, and "applications must ensure that exactly
//!   one semaphore signal operation meets these criteria"; the valid
//!   usage says the same from the queues' side: "there must be no other
//!   queues waiting on the same semaphore" when a binary wait executes
//!   (VUID-vkQueueSubmit-pWaitSemaphores-00068,
//!   VUID-vkQueueSubmit2-semaphore-03871), and a binary signal finds the
//!   semaphore unsignalled when it *executes*
//!   (VUID-vkQueueSubmit-pSignalSemaphores-00067,
//!   VUID-vkQueueSubmit2-semaphore-03868). So a binary semaphore's wait
//!   on one queue must be known complete before the next wait on another
//!   queue can begin (the host knew it complete before submitting that
//!   wait, or an earlier batch of that queue waited for it), and before
//!   the next signal on another queue runs (the same, or a wait of the
//!   signalling batch itself). Operations on one queue are taken in
//!   submission order. A wait whose stage mask lacks `ALL_COMMANDS` is
//!   followed by a chain only through an operation in its stages: once a
//!   batch of its queue (its own or a later one) runs a command in a stage
//!   of its second scope, an `ALL_COMMANDS` signal of that batch or a later
//!   one comes after it ([`Completion::link`]; a command's stages are
//!   those of the accesses it makes, [`batch_stages`]); before that, and
//!   always for the `Tracker`, which gives no stages, it is known complete
//!   only when the host waited on a fence of its own queue, which waits
//!   for every operation of the batch. NVIDIA's driver (580.159.04, H200) pairs the
//!   waits the other way round when this fails
//!   (`docs/h200/planned-hang-p100006.trace`: hangs, wrong bytes).
//!
//! Knowledge is a [`Clock`]: per queue, the latest submission known
//! complete, a prefix since a fence, and a semaphore signal with
//! `ALL_COMMANDS`, waits for every command earlier in submission order on
//! its queue. A link of a chain counts only with `ALL_COMMANDS` (a
//! signal's first scope then holds every earlier command of its queue, a
//! wait's second scope every later one); a narrower mask ends the chain
//! (conservative: more refusals). A queue's timeline wait follows the
//! signal of exactly its value (values are unique, and that signal is the
//! first to reach it); one met only by a greater value is not followed,
//! since a host signal recorded later may reach the value first. A host
//! wait for a timeline value follows the smallest value at least its own
//! recorded before it (nothing recorded later can run while the host
//! waits). A fence (`wait`, `wait QUEUE`) waits for every operation of its
//! queue's batches, so it follows what *every* wait of them carried,
//! whatever its mask.
//!
//! It does not decide what a program *means* (the definitional semantics,
//! `crate::spec`) and checks nothing about host order (module `queue`);
//! it assumes those checks ran first (each binary wait has a pending
//! signal, timeline values increase).

use super::error::ProgramErrorKind;
use super::program::Command;
use super::queue::{QueueId, SemOperand, SemaphoreId, SemaphoreSignal, SemaphoreWait, WaitFor};
use crate::vk::flags::PipelineStageFlags2;
use crate::vk::scope::{exec_scope, Side, Stage, StageSet};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::rc::Rc;

/// What the completion of a point of execution shows complete: per queue,
/// the ordinal (among all submits) of its latest submission whose every
/// command has completed. A persistent balanced tree by queue: a clone is
/// a pointer copy and advancing one queue copies one path, so the clock
/// each batch and signal keeps shares what it has in common with the one
/// it came from. Along a chain through N queues each clock holds up to N
/// entries; copied per batch (and searched per entry), that was cubic in
/// time and quadratic in memory (issue 27).
#[derive(Clone, Debug, Default)]
pub(crate) struct Clock {
    root: Link,
    len: usize,
}

type Link = Option<Rc<Node>>;

#[derive(Debug)]
struct Node {
    queue: QueueId,
    at: usize,
    height: u8,
    left: Link,
    right: Link,
}

fn height(l: &Link) -> u8 {
    l.as_ref().map_or(0, |n| n.height)
}

fn node(queue: QueueId, at: usize, left: Link, right: Link) -> Rc<Node> {
    let height = 1 + height(&left).max(height(&right));
    Rc::new(Node {
        queue,
        at,
        height,
        left,
        right,
    })
}

/// A node with these parts, rotated back into AVL balance (the subtrees'
/// heights differ by at most two after one insertion).
fn balanced(queue: QueueId, at: usize, left: Link, right: Link) -> Rc<Node> {
    let (hl, hr) = (height(&left), height(&right));
    if hl > hr + 1 {
        let l = left.expect("the higher side");
        if height(&l.left) >= height(&l.right) {
            node(
                l.queue,
                l.at,
                l.left.clone(),
                Some(node(queue, at, l.right.clone(), right)),
            )
        } else {
            let lr = l.right.clone().expect("the higher side");
            let a = node(l.queue, l.at, l.left.clone(), lr.left.clone());
            let b = node(queue, at, lr.right.clone(), right);
            node(lr.queue, lr.at, Some(a), Some(b))
        }
    } else if hr > hl + 1 {
        let r = right.expect("the higher side");
        if height(&r.right) >= height(&r.left) {
            node(
                r.queue,
                r.at,
                Some(node(queue, at, left, r.left.clone())),
                r.right.clone(),
            )
        } else {
            let rl = r.left.clone().expect("the higher side");
            let a = node(queue, at, left, rl.left.clone());
            let b = node(r.queue, r.at, rl.right.clone(), r.right.clone());
            node(rl.queue, rl.at, Some(a), Some(b))
        }
    } else {
        node(queue, at, left, right)
    }
}

/// `t` with `queue` at `at` (replacing its entry); whether it was new.
fn insert(t: &Link, queue: QueueId, at: usize) -> (Rc<Node>, bool) {
    match t {
        None => (node(queue, at, None, None), true),
        Some(n) if queue < n.queue => {
            let (l, new) = insert(&n.left, queue, at);
            (balanced(n.queue, n.at, Some(l), n.right.clone()), new)
        }
        Some(n) if queue > n.queue => {
            let (r, new) = insert(&n.right, queue, at);
            (balanced(n.queue, n.at, n.left.clone(), Some(r)), new)
        }
        Some(n) => (node(queue, at, n.left.clone(), n.right.clone()), false),
    }
}

/// `a` and `b` joined node by node (the later ordinal of each queue) when
/// they have the same shape: the same queue at every node and the same
/// heights, as clocks of one lineage have (advancing a queue that has an
/// entry replaces it in place, so the shape only changes when a queue is
/// added). A subtree of one that is pointwise at least the other's is
/// returned as it is, shared; `None` where the shapes differ. Linear in
/// the nodes visited, and allocation-free where one side covers the other:
/// along a chain through N queues every batch's clock covers the last one
/// of its queue, which the insertion of each entry (`Clock::advance`) paid
/// for with a path copy per queue (issue 27's `rr4-N`).
fn zip(a: &Link, b: &Link) -> Option<Link> {
    match (a, b) {
        (None, None) => Some(None),
        (Some(x), Some(y)) if Rc::ptr_eq(x, y) => Some(a.clone()),
        (Some(x), Some(y)) if x.queue == y.queue && x.height == y.height => {
            let left = zip(&x.left, &y.left)?;
            let right = zip(&x.right, &y.right)?;
            let same = |l: &Link, r: &Link| match (l, r) {
                (None, None) => true,
                (Some(l), Some(r)) => Rc::ptr_eq(l, r),
                _ => false,
            };
            for (n, link) in [(x, a), (y, b)] {
                if n.at >= x.at.max(y.at) && same(&left, &n.left) && same(&right, &n.right) {
                    return Some(link.clone());
                }
            }
            Some(Some(Rc::new(Node {
                queue: x.queue,
                at: x.at.max(y.at),
                height: x.height,
                left,
                right,
            })))
        }
        _ => None,
    }
}

/// The entries of `t`, pushed onto `out`.
fn entries(t: &Link, out: &mut Vec<(QueueId, usize)>) {
    if let Some(n) = t {
        entries(&n.left, out);
        out.push((n.queue, n.at));
        entries(&n.right, out);
    }
}

impl Clock {
    /// How many queues have an entry.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Every entry, by queue.
    pub(crate) fn entries(&self) -> Vec<(QueueId, usize)> {
        let mut out = Vec::with_capacity(self.len);
        entries(&self.root, &mut out);
        out
    }

    /// Whether the submit of ordinal `at` on `queue` is complete.
    pub(crate) fn covers(&self, queue: QueueId, at: usize) -> bool {
        self.get(queue).is_some_and(|n| n >= at)
    }

    /// The latest ordinal of `queue` known complete.
    pub(crate) fn get(&self, queue: QueueId) -> Option<usize> {
        let mut t = &self.root;
        while let Some(n) = t {
            if queue < n.queue {
                t = &n.left;
            } else if queue > n.queue {
                t = &n.right;
            } else {
                return Some(n.at);
            }
        }
        None
    }

    /// Both: the later ordinal per queue (the smaller clock's entries
    /// advanced in the larger one).
    pub(crate) fn join(&mut self, other: &Clock) {
        let same = match (&self.root, &other.root) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (_, None) => true,
            (None, Some(_)) => false,
        };
        if same {
            return;
        }
        if self.len == other.len {
            if let Some(root) = zip(&self.root, &other.root) {
                self.root = root;
                return;
            }
        }
        let (mut big, small) = if other.len > self.len {
            (other.clone(), &*self)
        } else {
            (std::mem::take(self), other)
        };
        let mut es = Vec::with_capacity(small.len);
        entries(&small.root, &mut es);
        for (q, n) in es {
            big.advance(q, n);
        }
        *self = big;
    }

    /// `queue`'s submissions up to ordinal `at` complete.
    pub(crate) fn advance(&mut self, queue: QueueId, at: usize) {
        if self.get(queue).is_some_and(|n| n >= at) {
            return;
        }
        let (root, new) = insert(&self.root, queue, at);
        self.root = Some(root);
        self.len += usize::from(new);
    }
}

/// The account (see the module docs), updated in trace order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Completion {
    /// Per queue, what a later batch of it, or its `ALL_COMMANDS`
    /// signal, is ordered after: its batches' commands, and what their
    /// `ALL_COMMANDS` waits carried.
    queues: Vec<Clock>,
    /// Per queue, what a fence of its latest submission (or
    /// `vkQueueWaitIdle`) shows complete: also what waits with a narrower
    /// mask carried, since a fence waits for every operation of the batch,
    /// semaphore waits included.
    fenced: Vec<Clock>,
    /// What the host knows complete (commands, and waits with
    /// `ALL_COMMANDS`).
    host: Clock,
    /// Per queue, the batches the host knows complete with *every*
    /// semaphore wait in them (a fence of that queue): a wait with a
    /// narrower mask than `ALL_COMMANDS` is known complete only so, since
    /// a chain through later commands does not follow it.
    host_fenced: Clock,
    /// The clock each pending binary signal carries (empty when its stage
    /// mask is narrower than `ALL_COMMANDS`).
    /// Per semaphore, in signal order (a valid program has at most one
    /// pending); maps, not lists scanned per wait: a chain of N binary
    /// semaphores was quadratic (issue 27).
    binary_signals: HashMap<SemaphoreId, VecDeque<Signalled>>,
    /// Per binary semaphore waited on so far, its latest wait: queue,
    /// submit ordinal, and the ordinal of the batch of its queue from
    /// which an `ALL_COMMANDS` signal comes after it ([`Self::link`]):
    /// its own with `ALL_COMMANDS`; with a narrower mask, the first at or
    /// after it whose commands run in a stage of its second scope; `None`
    /// while none has.
    binary_waits: HashMap<SemaphoreId, (QueueId, usize, Option<usize>)>,
    /// Binary waits with a narrower mask not linked yet, by queue and by
    /// each stage of their second scope (semaphore, ordinal): a batch
    /// running in a stage links those of its list, each taken once.
    unlinked: HashMap<(QueueId, Stage), Vec<(SemaphoreId, usize)>>,
    /// The clock each timeline signal carries, by (semaphore, value), the
    /// first one recorded of each; a host signal's is empty. A map, not a
    /// list scanned per wait: a long timeline chain would make resolving
    /// it quadratic (issue 27).
    timeline_signals: BTreeMap<(SemaphoreId, u64), Signalled>,
    /// Per queue, the batches whose signal operations a signal of a later
    /// batch of the queue is known to execute after
    /// ([`Signalled::executed`]): its own earlier batches ("signal
    /// operation order"), and what its `ALL_COMMANDS` waits followed.
    executed: Vec<Clock>,
    /// The same for waits with a narrower mask, by queue and by each stage
    /// of their second scope: a later signal of the queue follows those
    /// that share a stage with its first scope (the stage-level reading of
    /// `super::progress`).
    executed_by_stage: HashMap<(QueueId, Stage), Clock>,
    /// The queues with an entry in `executed_by_stage`.
    narrow_queues: std::collections::HashSet<QueueId>,
    /// Per queue, what a fence of it shows executed: `executed` and what
    /// its narrower waits took (a fence waits for every wait).
    executed_fenced: Vec<Clock>,
    /// Per timeline semaphore, its device waits whose first signal was
    /// not settled at their submit ([`Self::resolve`]).
    unresolved: HashMap<SemaphoreId, Vec<Unresolved>>,
    /// The batches whose signal operations the host knows executed: a
    /// fence of their queue (ordered after every semaphore signal of its
    /// submission), or a host wait for a value they set.
    host_executed: Clock,
    /// Per timeline semaphore, the greatest value a host wait for it
    /// returned at (beyond its initial value).
    host_seen: HashMap<SemaphoreId, u64>,
    /// Per timeline semaphore, the signal of the greatest value recorded
    /// (a host signal may lie below a pending device one): its value, and
    /// `Some((queue, ordinal))` for a device signal, `None` for a host one.
    last_timeline: HashMap<SemaphoreId, (u64, Option<(QueueId, usize)>)>,
    /// Submits so far.
    submits: usize,
}

/// For a timeline semaphore and a value, the value of the signal that
/// first reaches it, when that is settled
/// (`super::queue::SemaphoreStates::first_reaching`).
pub(crate) type FirstReaching<'a> = &'a dyn Fn(SemaphoreId, u64) -> Option<u64>;

/// A timeline wait whose first signal was not settled when it was
/// submitted: its queue, value and second scope, and whether its mask
/// holds `ALL_COMMANDS` ([`Completion::resolve`]).
#[derive(Clone, Debug)]
struct Unresolved {
    queue: QueueId,
    value: u64,
    second: StageSet,
    all: bool,
}

/// What a semaphore signal operation shows a wait that takes it.
#[derive(Clone, Debug, Default)]
struct Signalled {
    /// The batches known complete when it executes: empty when its stage
    /// mask is narrower than `ALL_COMMANDS` (module docs).
    carried: Clock,
    /// The batches whose signal operations executed before it, its own
    /// included, whatever its mask: a wait for it completes only after it
    /// executed. Signal operations of one batch are taken together (the
    /// specification leaves them unordered among themselves; a chain from
    /// one of them is read as following the others).
    executed: Clock,
}

/// The clock of `queue` in `clocks`, indexed by queue (empty if none).
fn clock_of(clocks: &[Clock], queue: QueueId) -> Clock {
    clocks.get(queue.0 as usize).cloned().unwrap_or_default()
}

/// Sets the clock of `queue` in `clocks`, indexed by queue.
fn set_clock(clocks: &mut Vec<Clock>, queue: QueueId, clock: Clock) {
    let i = queue.0 as usize;
    if clocks.len() <= i {
        clocks.resize(i + 1, Clock::default());
    }
    clocks[i] = clock;
}

/// The stages `commands` (a batch) run in, as the accesses they make say:
/// the operations a wait with a narrower mask than `ALL_COMMANDS` chains
/// through ([`Completion::link`]). A command that accesses nothing is in
/// none (conservative: a chain only through it is not followed).
pub(crate) fn batch_stages<'a>(commands: impl IntoIterator<Item = &'a Command>) -> StageSet {
    commands
        .into_iter()
        .filter(|c| super::access::is_device_command(c))
        .flat_map(|c| super::access::region_accesses(c, crate::Semantics::default()))
        .fold(StageSet::EMPTY, |set, (_, sa)| {
            set.union(StageSet(sa.stage().bit()))
        })
}

/// Whether a semaphore signal's stage mask links a chain: its first
/// synchronization scope holds every device stage (`ALL_COMMANDS`,
/// `BOTTOM_OF_PIPE`, which "is equivalent to ALL_COMMANDS_BIT with
/// VkAccessFlags2 set to 0 when specified in the first synchronization
/// scope", or every stage named). The definitional semantics' test too
/// (`crate::spec`, a scope holding every command's); review48 found
/// `BOTTOM_OF_PIPE` refused here.
fn all_first(stages: PipelineStageFlags2) -> bool {
    holds_every_stage(stages, crate::vk::scope::Side::Src)
}

/// Whether a semaphore wait's stage mask links a chain: its second
/// synchronization scope holds every device stage (`ALL_COMMANDS`,
/// `TOP_OF_PIPE`, or every stage named).
fn all_second(stages: PipelineStageFlags2) -> bool {
    holds_every_stage(stages, crate::vk::scope::Side::Dst)
}

fn holds_every_stage(stages: PipelineStageFlags2, side: crate::vk::scope::Side) -> bool {
    let scope = crate::vk::scope::exec_scope(stages, side);
    scope.union(StageSet::ALL_DEVICE) == scope
}

impl Completion {
    /// The ordinal the next submit gets (the one numbering of batches that
    /// the host-signal rule of module `queue` also uses).
    pub(crate) fn next_ordinal(&self) -> usize {
        self.submits
    }

    /// Whether the host knows the submit of ordinal `at` on `queue`
    /// complete.
    pub(crate) fn host_knows(&self, queue: QueueId, at: usize) -> bool {
        self.host.covers(queue, at)
    }

    /// Whether the batch of ordinal `at` on queue `q` is known complete
    /// before the commands of `queue`'s latest batch: the host knows it
    /// complete, or `queue`'s batches are ordered after it (its own
    /// batches, and what `ALL_COMMANDS` waits carried).
    pub(crate) fn ordered_before_queue(&self, queue: QueueId, q: QueueId, at: usize) -> bool {
        self.host_knows(q, at) || self.queue_clock(queue).covers(q, at)
    }

    /// Whether the host knows that the signal of `value` of timeline
    /// `semaphore`, made by the submit of ordinal `at` on `queue`, has
    /// executed: its batch is known complete, or a host wait for the
    /// semaphore returned at that value or a greater one. (A signal of it
    /// not executed then would find a value at least its own, which
    /// VUID-VkSubmitInfo2-semaphore-03882 forbids.) Not through the other
    /// signals of its batch, which are unordered among themselves
    /// (review49: `submit signal t:1@COPY signal u:5` / `host-wait t 1`
    /// leaves `u`'s 5 pending).
    pub(crate) fn host_knows_signalled(
        &self,
        semaphore: SemaphoreId,
        value: u64,
        queue: QueueId,
        at: usize,
    ) -> bool {
        self.host.covers(queue, at) || self.host_seen.get(&semaphore).is_some_and(|&v| value <= v)
    }

    fn queue_clock(&self, queue: QueueId) -> Clock {
        clock_of(&self.queues, queue)
    }

    /// The latest wait of binary `semaphore`, if any: queue, ordinal, and
    /// the batch it is linked at ([`Self::binary_waits`]).
    fn last_wait(&self, semaphore: SemaphoreId) -> Option<(QueueId, usize, Option<usize>)> {
        self.binary_waits.get(&semaphore).copied()
    }

    /// A submit to `queue` waiting for `waits` and signalling `signals`;
    /// returns its ordinal. Refuses a binary wait or signal that the
    /// latest wait of its semaphore, on another queue, is not known to
    /// precede (see the module docs), or a timeline signal that may
    /// execute before the previous one, recording nothing. `sem_name` and
    /// `queue_name` name them in the error; `first` settles which signal
    /// first reaches a timeline value ([`FirstReaching`]).
    pub(crate) fn submit(
        &mut self,
        queue: QueueId,
        (waits, signals): (&[SemaphoreWait], &[SemaphoreSignal]),
        stages: StageSet,
        sem_name: impl Fn(SemaphoreId) -> String,
        queue_name: impl Fn(QueueId) -> String,
        first: FirstReaching,
    ) -> Result<usize, (SemOperand, ProgramErrorKind)> {
        let (before, chain, fence) = self.batch_clocks(queue, waits);
        // (semaphore, this queue, the earlier wait's queue), named.
        let names = |sem, other| (sem_name(sem), queue_name(queue), queue_name(other));
        for (i, w) in waits.iter().enumerate().filter(|(_, w)| w.value.is_none()) {
            if let Some(last) = self.last_wait(w.semaphore) {
                if last.0 != queue && !self.known_done(last, &before) {
                    let (name, queue, other) = names(w.semaphore, last.0);
                    let kind = ProgramErrorKind::BinaryWaitsOverlap { name, queue, other };
                    return Err((SemOperand::Wait(i), kind));
                }
            }
        }
        for (i, g) in signals.iter().enumerate().filter(|(_, g)| g.value.is_none()) {
            // The latest wait: an earlier submit's, or this batch's own
            // (same queue, so ordered before its signal). The signal
            // follows a chain only with `ALL_COMMANDS`; `chain` holds what
            // the host knew at the submit.
            let own = waits
                .iter()
                .any(|w| w.value.is_none() && w.semaphore == g.semaphore);
            let by = if all_first(g.stages) { &chain } else { &self.host };
            if let (Some(last), false) = (self.last_wait(g.semaphore), own) {
                if last.0 != queue && !self.known_done(last, by) {
                    let (name, queue, other) = names(g.semaphore, last.0);
                    let kind = ProgramErrorKind::BinarySignalBeforeWaitDone { name, queue, other };
                    return Err((SemOperand::Signal(i), kind));
                }
            }
        }
        self.check_timeline_order(queue, waits, signals, &sem_name, &queue_name, first)?;
        Ok(self.record(queue, waits, signals, stages, (chain, fence), first))
    }

    /// What a batch of `queue` waiting for `waits` would be ordered after
    /// (its commands and its `ALL_COMMANDS` signals), recording nothing:
    /// the `Tracker` asks it before each submit (`crate::tracker`).
    pub(crate) fn ordered_after(&self, queue: QueueId, waits: &[SemaphoreWait]) -> Clock {
        self.batch_clocks(queue, waits).1
    }

    /// A submit to `queue` with no semaphore (the implicit one of the
    /// commands recorded at the end, to the first queue): nothing to
    /// refuse. Returns its ordinal.
    pub(crate) fn submit_plain(&mut self, queue: QueueId, stages: StageSet) -> usize {
        let (_, chain, fence) = self.batch_clocks(queue, &[]);
        self.record(queue, &[], &[], stages, (chain, fence), &|_, _| None)
    }

    /// For a batch of `queue` waiting for `waits`: what is complete before
    /// its waits begin (what the host knew at the submit, and what the
    /// queue's earlier batches showed), what its commands and
    /// `ALL_COMMANDS` signals are ordered after (that, and what its
    /// `ALL_COMMANDS` waits carried; a binary wait takes its pending
    /// signal, whatever its mask), and what a fence of it shows
    /// (everything its waits carried, whatever their masks).
    fn batch_clocks(&self, queue: QueueId, waits: &[SemaphoreWait]) -> (Clock, Clock, Clock) {
        let mut before = self.queue_clock(queue);
        before.join(&self.host);
        let (mut chain, mut fence) = (before.clone(), before.clone());
        for w in waits {
            let carried = match w.value {
                None => self
                    .binary_signals
                    .get(&w.semaphore)
                    .and_then(|p| p.front())
                    .map(|g| g.carried.clone()),
                Some(v) => self.timeline_signal(w.semaphore, v).map(|g| g.carried.clone()),
            };
            if let Some(c) = carried {
                fence.join(&c);
                if all_second(w.stages) {
                    chain.join(&c);
                }
            }
        }
        (before, chain, fence)
    }

    /// Whether binary wait `last` (queue, ordinal, the batch it is linked
    /// at) is known complete where `chain` shows what is: `chain` covers
    /// the batch it is linked at (it came through an `ALL_COMMANDS` signal
    /// of that batch or a later one of its queue, which comes after the
    /// wait), or a fence of its queue followed it.
    fn known_done(&self, (q, at, linked): (QueueId, usize, Option<usize>), chain: &Clock) -> bool {
        linked.is_some_and(|m| chain.covers(q, m)) || self.host_fenced.covers(q, at)
    }

    /// Links the binary waits of `queue` this batch (ordinal `at`, whose
    /// commands run in `stages`) comes after by an execution dependency
    /// chain: "an execution dependency chain exists if the intersection of
    /// ScopedOps2 in ExeDepA and ScopedOps1 in ExeDepB is not an empty
    /// set". A wait with a mask narrower than `ALL_COMMANDS` has in its
    /// second scope only operations in its stages (and logically later
    /// ones) of its batch and later; an `ALL_COMMANDS` signal of this
    /// batch or a later one holds this batch's commands in its first: so
    /// the chain exists once a batch runs an operation in such a stage
    /// (review37: a wait to `COPY` followed by a copy and an
    /// `ALL_COMMANDS` signal another queue waited for before re-signalling
    /// the semaphore was refused; without the copy the chain has no
    /// operation and the refusal stands).
    fn link(&mut self, queue: QueueId, at: usize, stages: StageSet) {
        for stage in stages.iter() {
            let Some(list) = self.unlinked.remove(&(queue, stage)) else {
                continue;
            };
            for (sem, ordinal) in list {
                if let Some(w) = self.binary_waits.get_mut(&sem) {
                    if w.0 == queue && w.1 == ordinal && w.2.is_none() {
                        w.2 = Some(at);
                    }
                }
            }
        }
    }

    /// Records a valid batch (its clocks from [`Self::batch_clocks`]);
    /// returns its ordinal.
    fn record(
        &mut self,
        queue: QueueId,
        waits: &[SemaphoreWait],
        signals: &[SemaphoreSignal],
        stages: StageSet,
        (mut chain, mut fence): (Clock, Clock),
        first: FirstReaching,
    ) -> usize {
        let at = self.submits;
        self.submits += 1;
        // Before the binary waits take their pending signals below
        // (`waited` reads them). What a later signal of this queue
        // follows: the queue's, and what the `ALL_COMMANDS` waits took.
        let mut later = clock_of(&self.executed, queue);
        let mut narrow: Vec<(StageSet, Clock)> = Vec::new();
        let mut unresolved = Vec::new();
        for w in waits {
            match self.waited(w, first) {
                Some(t) if all_second(w.stages) => later.join(&t.executed),
                Some(t) => narrow.push((exec_scope(w.stages, Side::Dst), t.executed.clone())),
                None => {
                    if let Some(value) = w.value {
                        let second = exec_scope(w.stages, Side::Dst);
                        let all = all_second(w.stages);
                        unresolved.push((
                            w.semaphore,
                            Unresolved {
                                queue,
                                value,
                                second,
                                all,
                            },
                        ));
                    }
                }
            }
        }
        for (sem, u) in unresolved {
            self.unresolved.entry(sem).or_default().push(u);
        }
        // One rule, `executed_before`: for an `ALL_COMMANDS` signal of a
        // queue with no narrower wait in this batch or before it, that is
        // `later` (the queue's clock and every wait of the batch), so the
        // signals share it instead of a copy each.
        let plain = narrow.is_empty() && !self.narrow_queues.contains(&queue);
        let mut after = later.clone();
        after.advance(queue, at);
        let before = |g: &SemaphoreSignal| {
            let mut c = self.executed_before(queue, waits, g, first);
            c.advance(queue, at);
            c
        };
        let executed: Vec<Clock> = signals
            .iter()
            .map(|g| {
                // (Not asserted equal to `before(g)` even in debug builds:
                // that copy per signal is what the shortcut avoids; with it
                // a timeline through many queues checked quadratically.)
                if plain && all_first(g.stages) {
                    return after.clone();
                }
                before(g)
            })
            .collect();
        let mut fenced = clock_of(&self.executed_fenced, queue);
        fenced.join(&after);
        for (_, e) in &narrow {
            fenced.join(e);
        }
        set_clock(&mut self.executed_fenced, queue, fenced);
        for (stages, e) in narrow {
            self.narrow_queues.insert(queue);
            for stage in stages.iter() {
                self.executed_by_stage.entry((queue, stage)).or_default().join(&e);
            }
        }
        set_clock(&mut self.executed, queue, after);
        for w in waits.iter().filter(|w| w.value.is_none()) {
            if let Some(pending) = self.binary_signals.get_mut(&w.semaphore) {
                pending.pop_front();
                if pending.is_empty() {
                    self.binary_signals.remove(&w.semaphore);
                }
            }
            let linked = all_second(w.stages).then_some(at);
            self.binary_waits.insert(w.semaphore, (queue, at, linked));
            if linked.is_none() {
                for stage in exec_scope(w.stages, Side::Dst).iter() {
                    self.unlinked
                        .entry((queue, stage))
                        .or_default()
                        .push((w.semaphore, at));
                }
            }
        }
        self.link(queue, at, stages);
        chain.advance(queue, at);
        // `fence` holds `chain` before this advance ([`Self::batch_clocks`]):
        // the same as joining `chain`, without a walk over both.
        fence.advance(queue, at);
        fence.join(&clock_of(&self.fenced, queue));
        set_clock(&mut self.queues, queue, chain.clone());
        set_clock(&mut self.fenced, queue, fence);
        for (g, executed) in signals.iter().zip(executed) {
            let carried = if all_first(g.stages) {
                chain.clone()
            } else {
                Clock::default()
            };
            match g.value {
                None => self
                    .binary_signals
                    .entry(g.semaphore)
                    .or_default()
                    .push_back(Signalled { carried, executed }),
                Some(v) => {
                    self.resolve(g.semaphore, v, queue, &executed, first);
                    self.timeline_signals
                        .entry((g.semaphore, v))
                        .or_insert(Signalled { carried, executed });
                    self.raise_timeline(g.semaphore, v, Some((queue, at)));
                }
            }
        }
        at
    }

    /// What signal `g` of a batch of `queue` waiting for `waits` executes
    /// after (the batches whose signal operations come before it): what a
    /// later signal of its queue does, and what each wait of the batch, or
    /// of an earlier batch of its queue, that it follows took (a wait whose
    /// second scope shares a stage with the signal's first, as the
    /// definitional semantics and `super::progress` read a chain). Without
    /// its own batch, and without what the host knows executed at the
    /// submit (`host_executed`, which the check adds): whoever later takes
    /// this signal knows that much or more, and a clock per signal that
    /// held it made a host wait per queue quadratic.
    fn executed_before(
        &self,
        queue: QueueId,
        waits: &[SemaphoreWait],
        g: &SemaphoreSignal,
        first: FirstReaching,
    ) -> Clock {
        let mut c = clock_of(&self.executed, queue);
        let scope = exec_scope(g.stages, Side::Src);
        if !self.executed_by_stage.is_empty() {
            for stage in scope.iter() {
                if let Some(e) = self.executed_by_stage.get(&(queue, stage)) {
                    c.join(e);
                }
            }
        }
        for w in waits
            .iter()
            .filter(|w| exec_scope(w.stages, Side::Dst).intersects(scope))
        {
            if let Some(t) = self.waited(w, first) {
                c.join(&t.executed);
            }
        }
        c
    }

    /// The signal wait `w` takes, as the order of signal operations reads
    /// it: a binary wait its pending signal; a timeline wait the signal of
    /// exactly its value, or else the one `first` settles as the first to
    /// reach it (review38: a wait for 1 met by the only signal, of 2).
    fn waited(&self, w: &SemaphoreWait, first: FirstReaching) -> Option<&Signalled> {
        match w.value {
            None => self.binary_signals.get(&w.semaphore).and_then(|p| p.front()),
            Some(v) => self
                .timeline_signal(w.semaphore, v)
                .or_else(|| first(w.semaphore, v).and_then(|f| self.timeline_signal(w.semaphore, f))),
        }
    }

    /// Timeline signal `g` of `queue`, of value `value`, with what it
    /// executes after: the device waits of other queues submitted before
    /// any signal settled their first one, which `first` now settles as
    /// this one, follow it from here on (review38: a wait submitted
    /// before its signal never linked).
    fn resolve(
        &mut self,
        sem: SemaphoreId,
        value: u64,
        queue: QueueId,
        executed: &Clock,
        first: FirstReaching,
    ) {
        let Some(list) = self.unresolved.get_mut(&sem) else {
            return;
        };
        let mut settled = Vec::new();
        list.retain(|u| {
            let this = u.queue != queue && u.value <= value && first(sem, u.value) == Some(value);
            if this {
                settled.push(u.clone());
            }
            !this
        });
        for u in settled {
            if u.all {
                let mut e = clock_of(&self.executed, u.queue);
                e.join(executed);
                set_clock(&mut self.executed, u.queue, e);
            } else {
                self.narrow_queues.insert(u.queue);
                for stage in u.second.iter() {
                    self.executed_by_stage
                        .entry((u.queue, stage))
                        .or_default()
                        .join(executed);
                }
            }
            let mut f = clock_of(&self.executed_fenced, u.queue);
            f.join(executed);
            set_clock(&mut self.executed_fenced, u.queue, f);
        }
    }

    /// Refuses a timeline signal of this batch that may execute before
    /// the previous signal of its semaphore, recorded on another queue:
    /// "the value ... must have a value greater than the current value of
    /// the semaphore when the semaphore signal operation is executed"
    /// (VUID-VkSubmitInfo2-semaphore-03882, VUID-VkSubmitInfo-pSignalSemaphores-03242).
    /// Values increase in host order (module `queue`), so the previous
    /// signal must execute first: it is on the same queue (signal
    /// operation order), the host's (done before this submit), or known
    /// executed ([`Self::executed_before`]). The previous one is the one of
    /// the greatest value recorded: a host signal below a pending device
    /// signal does not stand for it. Checking it suffices: it was checked
    /// against its own previous one.
    fn check_timeline_order(
        &self,
        queue: QueueId,
        waits: &[SemaphoreWait],
        signals: &[SemaphoreSignal],
        sem_name: &impl Fn(SemaphoreId) -> String,
        queue_name: &impl Fn(QueueId) -> String,
        first: FirstReaching,
    ) -> Result<(), (SemOperand, ProgramErrorKind)> {
        for (i, g) in signals.iter().enumerate() {
            let Some(value) = g.value else { continue };
            let Some(&(previous, Some((q, at)))) = self.last_timeline.get(&g.semaphore) else {
                continue;
            };
            if q == queue
                || self.host_executed.covers(q, at)
                || self.executed_before(queue, waits, g, first).covers(q, at)
            {
                continue;
            }
            return Err((
                SemOperand::Signal(i),
                ProgramErrorKind::TimelineSignalsUnordered {
                    name: sem_name(g.semaphore),
                    value,
                    previous,
                    queues: Box::new((queue_name(queue), queue_name(q))),
                },
            ));
        }
        Ok(())
    }

    /// The host waits: for every submission (`vkWaitForFences` on all of
    /// them, `vkDeviceWaitIdle`) or for one queue (`vkQueueWaitIdle`):
    /// what their completion shows complete.
    pub(crate) fn host_waited(&mut self, target: WaitFor) {
        for (i, c) in self.fenced.iter().enumerate() {
            let q = QueueId(i as u32);
            if target == WaitFor::All || target == WaitFor::Queue(q) {
                self.host.join(c);
                self.host_executed.join(&clock_of(&self.executed_fenced, q));
                // The queue's own batches, every wait in them.
                if let Some(n) = c.get(q) {
                    self.host_fenced.advance(q, n);
                }
            }
        }
    }

    /// `vkSignalSemaphore` of `value` on timeline `semaphore`: a signal
    /// that shows nothing complete (the host has done it).
    pub(crate) fn host_signal(&mut self, semaphore: SemaphoreId, value: u64) {
        self.timeline_signals.entry((semaphore, value)).or_default();
        self.raise_timeline(semaphore, value, None);
    }

    /// Records a signal of `value` of timeline `semaphore` (by `by`) as
    /// the greatest if it is.
    fn raise_timeline(&mut self, semaphore: SemaphoreId, value: u64, by: Option<(QueueId, usize)>) {
        let slot = self.last_timeline.entry(semaphore).or_insert((value, by));
        if value >= slot.0 {
            *slot = (value, by);
        }
    }

    /// `vkWaitSemaphores` for `value` of timeline `semaphore`: what the
    /// signal that first reached it showed complete. Only signals recorded
    /// before can have run (the host is blocked), and values increase in
    /// execution order, so that is the smallest recorded value `>= value`
    /// (nothing when the semaphore's `initial` value reaches it, or a
    /// host signal).
    pub(crate) fn host_waited_value(&mut self, semaphore: SemaphoreId, value: u64, initial: u64) {
        if initial >= value {
            return;
        }
        let seen = self.host_seen.entry(semaphore).or_insert(value);
        *seen = (*seen).max(value);
        let first = self
            .timeline_signals
            .range((semaphore, value)..=(semaphore, u64::MAX))
            .next();
        if let Some((_, g)) = first {
            let g = g.clone();
            self.host.join(&g.carried);
            self.host_executed.join(&g.executed);
        }
    }

    /// The device or host signal of exactly `value` of timeline
    /// `semaphore`, if one is recorded.
    fn timeline_signal(&self, semaphore: SemaphoreId, value: u64) -> Option<&Signalled> {
        self.timeline_signals.get(&(semaphore, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The persistent clock agrees with a plain map under random advances
    /// and joins, clones left behind included (a clone must not see later
    /// changes of the one it came from), and stays balanced.
    #[test]
    fn clock_is_a_map_of_latest_ordinals() {
        // 300 queues: mostly clocks of different queue sets; 8: most
        // clocks hold every queue, so joins take `zip` too.
        for queues in [300u64, 8] {
            let mut rng: u64 = 0x2545_f491_4f6c_dd1d;
            let mut next = move |m: u64| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng % m
            };
            let mut clocks: Vec<(Clock, BTreeMap<QueueId, usize>)> = vec![Default::default()];
            for _ in 0..4000 {
                let i = next(clocks.len() as u64) as usize;
                let (mut c, mut m) = clocks[i].clone();
                if next(4) == 0 {
                    let (o, om) = &clocks[next(clocks.len() as u64) as usize];
                    c.join(o);
                    for (&q, &n) in om {
                        let e = m.entry(q).or_insert(n);
                        *e = (*e).max(n);
                    }
                } else {
                    let (q, n) = (QueueId(next(queues) as u32), next(1000) as usize);
                    c.advance(q, n);
                    let e = m.entry(q).or_insert(n);
                    *e = (*e).max(n);
                }
                clocks.push((c, m));
            }
            for (c, m) in &clocks {
                let mut es = Vec::new();
                entries(&c.root, &mut es);
                let want: Vec<(QueueId, usize)> = m.iter().map(|(&q, &n)| (q, n)).collect();
                assert_eq!(es, want);
                assert_eq!(c.len, m.len());
                // AVL: height at most 1.45 log2(n + 2).
                let bound = 1.45 * ((m.len() + 2) as f64).log2();
                assert!(
                    f64::from(height(&c.root)) <= bound.ceil(),
                    "height {}",
                    height(&c.root)
                );
                for q in 0..queues as u32 {
                    let q = QueueId(q);
                    assert_eq!(c.get(q), m.get(&q).copied());
                    assert_eq!(c.covers(q, 500), m.get(&q).is_some_and(|&n| n >= 500));
                }
            }
        }
    }

    /// Clocks of one lineage join node by node: a clock that covers the
    /// other is the join, shared (no node allocated), and otherwise the
    /// join keeps the later ordinal of each queue.
    #[test]
    fn clocks_of_one_lineage_zip() {
        let mut base = Clock::default();
        for q in 0..64 {
            base.advance(QueueId(q), 1);
        }
        let mut later = base.clone();
        for q in 0..64 {
            later.advance(QueueId(q), 2 + q as usize);
        }
        let mut joined = base.clone();
        joined.join(&later);
        assert!(Rc::ptr_eq(
            joined.root.as_ref().expect("a root"),
            later.root.as_ref().expect("a root")
        ));
        let mut a = base.clone();
        a.advance(QueueId(3), 9);
        let mut b = base;
        b.advance(QueueId(40), 7);
        assert!(zip(&a.root, &b.root).is_some());
        a.join(&b);
        assert_eq!(
            (a.get(QueueId(3)), a.get(QueueId(40)), a.get(QueueId(5))),
            (Some(9), Some(7), Some(1))
        );
        assert_eq!(a.len(), 64);
    }
}
