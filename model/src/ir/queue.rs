//! Queues, semaphores and the queue-level commands that use them
//! (`vkQueueSubmit` with semaphore waits and signals, `vkQueueWaitIdle`,
//! `vkSignalSemaphore`, `vkWaitSemaphores`).
//!
//! A program with no declared queue has one implicit queue (family 0):
//! [`QueueId`]`(0)` always names a queue, and a [`Submission`] or
//! [`WaitFor`] built with `Default` is today's single-queue `submit` or
//! `wait`. So the common single-queue case costs nothing: a plain submit
//! carries two empty vectors, which do not allocate.
//!
//! This module owns the types and the one state machine that validates the
//! order of semaphore operations ([`SemaphoreStates`]), shared by
//! [`crate::resolve`] (for programs built in code) and the trace parser
//! (which reports the same rules at a line and column). What the
//! operations *mean* is decided by the definitional semantics
//! (`crate::spec`) and by the fast checker's multi-queue walk
//! (`crate::sync::queues`); the planners, the layer emulation and the
//! runtime refuse programs that use them
//! ([`super::program::Program::require_single_queue`]).

use super::error::ProgramErrorKind;
use crate::vk::flags::PipelineStageFlags2;

/// Index of a queue in [`crate::Program::queues`]; `QueueId(0)` is the
/// first declared queue, or the implicit one when none is declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct QueueId(pub u32);

/// Index of a semaphore in [`crate::Program::semaphores`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SemaphoreId(pub u32);

/// A declared queue (`queue NAME [family N]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queue {
    /// Its name in traces and messages.
    pub name: String,
    /// Its queue family index (informational: every queue of the model
    /// supports compute and transfer work).
    pub family: u32,
}

/// Binary or timeline (`VkSemaphoreType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SemaphoreType {
    /// `VK_SEMAPHORE_TYPE_BINARY`: signalled, then unsignalled by one wait.
    Binary,
    /// `VK_SEMAPHORE_TYPE_TIMELINE` with its initial value.
    Timeline {
        /// `VkSemaphoreTypeCreateInfo::initialValue`.
        initial: u64,
    },
}

impl SemaphoreType {
    /// The value before any signal: a timeline semaphore's initial value,
    /// 0 for a binary one (which no value-based rule asks about).
    pub(crate) fn initial_value(self) -> u64 {
        match self {
            SemaphoreType::Timeline { initial } => initial,
            SemaphoreType::Binary => 0,
        }
    }
}

/// A declared semaphore (`semaphore NAME [timeline [INITIAL]]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Semaphore {
    /// Its name in traces and messages.
    pub name: String,
    /// Binary or timeline.
    pub kind: SemaphoreType,
}

/// One semaphore wait of a submission (`wait SEM[:VALUE]@STAGES`): a
/// `VkSemaphoreSubmitInfo` in `pWaitSemaphoreInfos`, or an element of
/// `pWaitSemaphores` with its `pWaitDstStageMask`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SemaphoreWait {
    /// The semaphore.
    pub semaphore: SemaphoreId,
    /// The value waited for: required for a timeline semaphore, `None` for
    /// a binary one.
    pub value: Option<u64>,
    /// The stages that wait (the second synchronization scope's stages).
    pub stages: PipelineStageFlags2,
}

/// One semaphore signal of a submission (`signal SEM[:VALUE][@STAGES]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SemaphoreSignal {
    /// The semaphore.
    pub semaphore: SemaphoreId,
    /// The value set: required for a timeline semaphore, `None` for a
    /// binary one.
    pub value: Option<u64>,
    /// The stages whose work it waits for (the first synchronization
    /// scope's stages): `ALL_COMMANDS` for `vkQueueSubmit`, the
    /// `VkSemaphoreSubmitInfo::stageMask` of `vkQueueSubmit2`.
    pub stages: PipelineStageFlags2,
}

/// A `vkQueueSubmit` of everything recorded since the previous submit, to
/// `queue`, waiting on `waits` before and signalling `signals` after, with
/// a fence. `Submission::default()` is the single-queue `submit`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Submission {
    /// The queue.
    pub queue: QueueId,
    /// Semaphore wait operations, in order.
    pub waits: Vec<SemaphoreWait>,
    /// Semaphore signal operations, in order.
    pub signals: Vec<SemaphoreSignal>,
}

impl Submission {
    /// Whether this is a submit the single-queue model describes: to the
    /// first queue, with no semaphore.
    pub fn is_plain(&self) -> bool {
        self.queue == QueueId(0) && self.waits.is_empty() && self.signals.is_empty()
    }
}

/// What a host `wait` waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum WaitFor {
    /// Every submission so far, to any queue (`vkWaitForFences` on all of
    /// them, or `vkDeviceWaitIdle`): the trace's `wait`.
    #[default]
    All,
    /// Every submission so far to one queue (`vkQueueWaitIdle`): `wait QUEUE`.
    Queue(QueueId),
}

/// Which operand of a command a semaphore error is about, so that the
/// parser can point at its token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SemOperand {
    /// The `i`-th wait of a submission.
    Wait(usize),
    /// The `i`-th signal of a submission.
    Signal(usize),
}

/// What each semaphore's state is at a point of the program, in host
/// order: the rules about the order of semaphore operations that Vulkan's
/// valid usage states and the model relies on (each binary wait has a
/// signal to pair with earlier in the trace; each timeline wait a signal
/// somewhere in the program).
#[derive(Clone, Debug)]
pub(crate) struct SemaphoreStates {
    /// Per semaphore: for a binary one, whether a signal is pending; for a
    /// timeline one, the greatest value signalled so far (or the initial
    /// value).
    states: Vec<State>,
    /// Timeline waits for a value not reached when they were made:
    /// semaphore, value, and the wait's ordinal among timeline waits.
    unsatisfied: Vec<(SemaphoreId, u64, usize)>,
    /// Timeline waits so far.
    timeline_waits: usize,
    /// Every timeline signal so far, for a host signal below the greatest
    /// value ([`Self::host_signal`]).
    signals: Vec<SignalRecord>,
    /// Which of `signals` can have happened with only the signals recorded
    /// so far ([`Possible`]).
    possible: Possible,
    /// Every timeline signal so far by (semaphore, value): the index in
    /// `signals` of the first recorded of each value.
    by_value: std::collections::BTreeMap<(SemaphoreId, u64), usize>,
    /// Per binary semaphore with a pending signal: the timeline waits of
    /// the signalling batch, which a binary wait needs submitted
    /// (VUID-vkQueueSubmit2-semaphore-03873).
    pending_waits: Vec<Vec<(SemaphoreId, u64)>>,
}

/// Which timeline signals can have happened with only the signals
/// recorded so far: a host signal has, and a device signal can when every
/// timeline wait of its batch is met by the initial value or by a signal
/// that can have happened (binary waits are taken as met: each was
/// checked when its batch was submitted). Grows as signals are recorded,
/// never shrinks: kept incrementally, each signal looked at once per wait
/// it has, so a long program is not quadratic (a fixpoint from scratch at
/// each host signal was).
#[derive(Clone, Debug, Default)]
struct Possible {
    /// Per signal (index into `SemaphoreStates::signals`).
    ran: Vec<bool>,
    /// Per semaphore, the greatest value a signal that can have happened
    /// set (from the initial value).
    reach: Vec<u64>,
    /// Signals not known possible yet, by the (semaphore, value) of a wait
    /// of theirs not met yet.
    blocked: std::collections::BTreeMap<(SemaphoreId, u64), Vec<usize>>,
}

impl Possible {
    fn reaches(&self, sem: SemaphoreId, value: u64) -> bool {
        self.reach.get(sem.0 as usize).is_some_and(|&r| r >= value)
    }

    /// Adds signal `i` of `signals`, and whatever it unblocks.
    fn add(&mut self, signals: &[SignalRecord], i: usize) {
        self.ran.push(false);
        let mut work = vec![i];
        while let Some(k) = work.pop() {
            let r = &signals[k];
            if let Some(&(x, w)) = r.waits.iter().find(|&&(x, w)| !self.reaches(x, w)) {
                self.blocked.entry((x, w)).or_default().push(k);
                continue;
            }
            self.ran[k] = true;
            let slot = r.sem.0 as usize;
            if self.reach.len() <= slot {
                self.reach.resize(slot + 1, 0);
            }
            if r.value > self.reach[slot] {
                self.reach[slot] = r.value;
                let met: Vec<(SemaphoreId, u64)> = self
                    .blocked
                    .range((r.sem, 0)..=(r.sem, r.value))
                    .map(|(&key, _)| key)
                    .collect();
                for key in met {
                    work.extend(self.blocked.remove(&key).unwrap_or_default());
                }
            }
        }
    }
}

/// A timeline signal: its semaphore and value, and the timeline waits of
/// its batch (none for a host signal, which has happened when the host
/// goes on).
#[derive(Clone, Debug)]
struct SignalRecord {
    sem: SemaphoreId,
    value: u64,
    waits: Vec<(SemaphoreId, u64)>,
    /// The signalling batch (queue, submit ordinal); `None` for a host
    /// signal.
    batch: Option<(QueueId, usize)>,
}

#[derive(Clone, Copy, Debug)]
enum State {
    Binary { pending: bool },
    Timeline { value: u64 },
}

impl SemaphoreStates {
    /// The initial states of `semaphores`.
    pub(crate) fn new(semaphores: &[Semaphore]) -> Self {
        SemaphoreStates {
            states: semaphores
                .iter()
                .map(|s| match s.kind {
                    SemaphoreType::Binary => State::Binary { pending: false },
                    SemaphoreType::Timeline { initial } => State::Timeline { value: initial },
                })
                .collect(),
            unsatisfied: Vec::new(),
            timeline_waits: 0,
            signals: Vec::new(),
            possible: Possible {
                reach: semaphores.iter().map(|s| s.kind.initial_value()).collect(),
                ..Possible::default()
            },
            pending_waits: vec![Vec::new(); semaphores.len()],
            by_value: std::collections::BTreeMap::new(),
        }
    }

    /// Records timeline signal `r`.
    fn record(&mut self, r: SignalRecord) {
        self.by_value
            .entry((r.sem, r.value))
            .or_insert(self.signals.len());
        self.signals.push(r);
        self.possible.add(&self.signals, self.signals.len() - 1);
    }

    /// The value of the signal that first reaches `value` on timeline
    /// `sem`, when that is settled: the smallest value at least `value`
    /// recorded so far, if its signal can have happened ([`Possible`]).
    /// Then no later signal lies below it: a later host signal must exceed
    /// every value a signal that can have happened set
    /// (VUID-VkSemaphoreSignalInfo-value-03258), and device values
    /// increase in the trace. `None` while it may still be another
    /// (a later host signal below a pending one).
    pub(crate) fn first_reaching(&self, sem: SemaphoreId, value: u64) -> Option<u64> {
        let (&(_, v), &i) = self.by_value.range((sem, value)..=(sem, u64::MAX)).next()?;
        self.possible.ran.get(i).copied().unwrap_or(false).then_some(v)
    }

    /// For a timeline value `(x, w)` that no signal that can have happened
    /// reaches, the value at the root of it: following the smallest
    /// recorded signal reaching it to a wait of its batch not met yet,
    /// until a value no recorded signal reaches at all.
    fn unreached_root(&self, (x, w): (SemaphoreId, u64)) -> (SemaphoreId, u64) {
        let mut at = (x, w);
        for _ in 0..=self.signals.len() {
            let Some((_, &i)) = self.by_value.range(at..=(at.0, u64::MAX)).next() else {
                return at;
            };
            match self.signals[i]
                .waits
                .iter()
                .find(|&&(y, v)| !self.possible.reaches(y, v))
            {
                Some(&next) => at = next,
                None => return at,
            }
        }
        at
    }

    /// At the end of the program: the first timeline wait that no signal
    /// of the whole program satisfies (it would wait forever), as its
    /// ordinal among the timeline waits ([`Self::wait`] counts them) and
    /// the error.
    pub(crate) fn finish(&self, semaphores: &[Semaphore]) -> Option<(usize, ProgramErrorKind)> {
        self.unsatisfied.iter().find_map(|&(sem, v, ordinal)| {
            let State::Timeline { value: current } = self.states[sem.0 as usize] else {
                return None;
            };
            (v > current).then(|| {
                (
                    ordinal,
                    ProgramErrorKind::TimelineWaitNeverSignalled {
                        name: semaphores[sem.0 as usize].name.clone(),
                        value: v,
                        current,
                    },
                )
            })
        })
    }

    /// Adds a semaphore declared after the states were made (the parser
    /// declares as it reads).
    pub(crate) fn declare(&mut self, s: &Semaphore) {
        self.pending_waits.push(Vec::new());
        let slot = self.states.len();
        if self.possible.reach.len() <= slot {
            self.possible.reach.resize(slot + 1, 0);
        }
        self.possible.reach[slot] = s.kind.initial_value();
        self.states.push(match s.kind {
            SemaphoreType::Binary => State::Binary { pending: false },
            SemaphoreType::Timeline { initial } => State::Timeline { value: initial },
        });
    }

    /// Applies a submission's waits, then its signals (a batch waits
    /// before it runs and signals after); `ordinal` is the batch's number
    /// among the submits (`Completion::next_ordinal`), kept with its
    /// timeline signals for the host-signal rule.
    ///
    /// * a binary wait needs a pending signal (VUID-vkQueueSubmit-pWaitSemaphores-03238:
    ///   "must reference a semaphore signal operation that has been
    ///   submitted for execution"), and consumes it;
    /// * a binary signal needs the semaphore unsignalled
    ///   (VUID-vkQueueSubmit-pSignalSemaphores-00067);
    /// * a timeline wait for `N` needs a signal of a value `>= N` somewhere
    ///   in the program, or an initial value `>= N` (checked by
    ///   [`Self::finish`]: the signal may come later, wait-before-signal);
    /// * a timeline signal's value must be greater than every value
    ///   signalled before it (VUID-VkSemaphoreSignalInfo-value-03258 and
    ///   the submission's "must have a value greater than the current
    ///   value of the semaphore").
    pub(crate) fn submit(
        &mut self,
        semaphores: &[Semaphore],
        s: &Submission,
        ordinal: usize,
    ) -> Result<(), (SemOperand, ProgramErrorKind)> {
        for (i, w) in s.waits.iter().enumerate() {
            if w.value.is_none() {
                self.check_pending_depends(semaphores, w.semaphore)
                    .map_err(|k| (SemOperand::Wait(i), k))?;
            }
            self.wait(semaphores, w.semaphore, w.value)
                .map_err(|k| (SemOperand::Wait(i), k))?;
        }
        for (i, sig) in s.signals.iter().enumerate() {
            // "Semaphore signal operations defined by a single
            // VkSubmitInfo2 ... are unordered with respect to other
            // semaphore signal operations defined within the same
            // structure": two of one timeline may execute greater first.
            if let Some(first) = s.signals[..i]
                .iter()
                .find(|o| o.semaphore == sig.semaphore && o.value.is_some())
            {
                return Err((
                    SemOperand::Signal(i),
                    ProgramErrorKind::TimelineSignalledTwiceInOneBatch {
                        name: semaphores[sig.semaphore.0 as usize].name.clone(),
                        first: first.value.unwrap_or(0),
                        second: sig.value.unwrap_or(0),
                    },
                ));
            }
            self.signal(semaphores, sig.semaphore, sig.value)
                .map_err(|k| (SemOperand::Signal(i), k))?;
        }
        let waits: Vec<(SemaphoreId, u64)> = s
            .waits
            .iter()
            .filter_map(|w| w.value.map(|v| (w.semaphore, v)))
            .collect();
        let batch = Some((s.queue, ordinal));
        for sig in &s.signals {
            match sig.value {
                Some(value) => self.record(SignalRecord {
                    sem: sig.semaphore,
                    value,
                    waits: waits.clone(),
                    batch,
                }),
                None => {
                    if let Some(slot) = self.pending_waits.get_mut(sig.semaphore.0 as usize) {
                        slot.clone_from(&waits);
                    }
                }
            }
        }
        Ok(())
    }

    /// A binary wait of `sem`: "any semaphore signal operations on which
    /// the pending binary semaphore signal operation depends must also be
    /// completed or pending execution" (VUID-vkQueueSubmit2-semaphore-03873,
    /// VUID-vkQueueSubmit-pWaitSemaphores-03238): each timeline value the
    /// signalling batch waits for is reached by a signal recorded so far
    /// that can itself happen ([`Possible`]; a host signal recorded later
    /// does not count).
    fn check_pending_depends(
        &self,
        semaphores: &[Semaphore],
        sem: SemaphoreId,
    ) -> Result<(), ProgramErrorKind> {
        let Some(waits) = self.pending_waits.get(sem.0 as usize) else {
            return Ok(());
        };
        if !matches!(
            self.states.get(sem.0 as usize),
            Some(State::Binary { pending: true })
        ) {
            return Ok(());
        }
        match waits.iter().find(|&&(x, w)| !self.possible.reaches(x, w)) {
            None => Ok(()),
            Some(&(x, w)) => {
                let (y, v) = self.unreached_root((x, w));
                Err(ProgramErrorKind::BinaryWaitDependsOnUnsubmitted {
                    name: semaphores[sem.0 as usize].name.clone(),
                    timeline: Box::new((
                        semaphores[x.0 as usize].name.clone(),
                        ((y, v) != (x, w)).then(|| format!("`{}` value {v}", semaphores[y.0 as usize].name)),
                    )),
                    value: w,
                })
            }
        }
    }

    /// `vkSignalSemaphore`: the host sets timeline `sem` to `value`. The
    /// value "must have a value greater than the current value of the
    /// semaphore" (VUID-VkSemaphoreSignalInfo-value-03258) and "must be
    /// less than the value of any pending semaphore signal operations"
    /// (VUID-VkSemaphoreSignalInfo-value-03259): it may lie below a value
    /// a device batch signals earlier in the trace when that batch cannot
    /// have run yet (it waits for a value only a later host signal
    /// reaches, as in the specification's own example of a host signal
    /// unblocking a queue), and then the pending value must be greater.
    /// Which signals can have happened is a fixpoint: a host signal has,
    /// and a device signal can when every timeline wait of its batch is
    /// met by the initial value or by a signal that can have happened
    /// (binary waits are taken as met: conservative, more refusals).
    pub(crate) fn host_signal(
        &mut self,
        semaphores: &[Semaphore],
        sem: SemaphoreId,
        value: u64,
        done: &super::completion::Completion,
    ) -> Result<(), ProgramErrorKind> {
        let State::Timeline { value: greatest } = self.states[sem.0 as usize] else {
            return self.signal(semaphores, sem, Some(value));
        };
        let initial = |x: SemaphoreId| semaphores[x.0 as usize].kind.initial_value();
        let ran = &self.possible.ran;
        // The current value at the host signal may be any value that a
        // signal that can have happened set; a pending one must be greater.
        let mine = self.signals.iter().zip(ran).filter(|(r, _)| r.sem == sem);
        let reached = mine
            .clone()
            .filter(|(_, &done)| done)
            .map(|(r, _)| r.value)
            .chain([initial(sem)])
            .max()
            .unwrap_or(0);
        let name = || semaphores[sem.0 as usize].name.clone();
        if value <= reached {
            return Err(ProgramErrorKind::TimelineValueNotIncreasing {
                name: name(),
                value,
                current: reached,
            });
        }
        // Pending: every device signal the host does not know executed
        // (its batch complete through a fence, or a host wait that
        // returned at its value or a greater one: after `host-wait t 1`
        // the signal of 1 has run even where its batch's other commands
        // may not have, review48), whether or not it can have run: "can
        // have" is not "has".
        let pending = mine
            .filter(|(r, _)| {
                r.batch
                    .is_some_and(|(q, at)| !done.host_knows_signalled(sem, r.value, q, at))
            })
            .map(|(r, _)| r.value)
            .min();
        if let Some(pending) = pending {
            if value >= pending {
                return Err(ProgramErrorKind::TimelineHostSignalNotBelowPending {
                    name: name(),
                    value,
                    pending,
                });
            }
        }
        if value > greatest {
            self.states[sem.0 as usize] = State::Timeline { value };
        }
        self.record(SignalRecord {
            sem,
            value,
            waits: Vec::new(),
            batch: None,
        });
        Ok(())
    }

    /// A host or device wait of `sem` (for `value`, on a timeline).
    pub(crate) fn wait(
        &mut self,
        semaphores: &[Semaphore],
        sem: SemaphoreId,
        value: Option<u64>,
    ) -> Result<(), ProgramErrorKind> {
        let name = || semaphores[sem.0 as usize].name.clone();
        match (&mut self.states[sem.0 as usize], value) {
            (State::Binary { pending }, None) => {
                if !*pending {
                    return Err(ProgramErrorKind::BinaryWaitWithoutSignal { name: name() });
                }
                *pending = false;
            }
            (State::Timeline { value: current }, Some(v)) => {
                // A timeline wait may come before the signal that
                // satisfies it (wait-before-signal); whether some signal
                // ever does is decided at the end ([`Self::finish`]).
                if v > *current {
                    self.unsatisfied.push((sem, v, self.timeline_waits));
                }
                self.timeline_waits += 1;
            }
            (State::Binary { .. }, Some(_)) => {
                return Err(ProgramErrorKind::ValueOnBinarySemaphore { name: name() })
            }
            (State::Timeline { .. }, None) => {
                return Err(ProgramErrorKind::TimelineValueMissing { name: name() })
            }
        }
        Ok(())
    }

    /// A host or device signal of `sem` (to `value`, on a timeline).
    pub(crate) fn signal(
        &mut self,
        semaphores: &[Semaphore],
        sem: SemaphoreId,
        value: Option<u64>,
    ) -> Result<(), ProgramErrorKind> {
        let name = || semaphores[sem.0 as usize].name.clone();
        match (&mut self.states[sem.0 as usize], value) {
            (State::Binary { pending }, None) => {
                if *pending {
                    return Err(ProgramErrorKind::BinarySignalledTwice { name: name() });
                }
                *pending = true;
            }
            (State::Timeline { value: current }, Some(v)) => {
                if v <= *current {
                    return Err(ProgramErrorKind::TimelineValueNotIncreasing {
                        name: name(),
                        value: v,
                        current: *current,
                    });
                }
                *current = v;
            }
            (State::Binary { .. }, Some(_)) => {
                return Err(ProgramErrorKind::ValueOnBinarySemaphore { name: name() })
            }
            (State::Timeline { .. }, None) => {
                return Err(ProgramErrorKind::TimelineValueMissing { name: name() })
            }
        }
        Ok(())
    }
}
