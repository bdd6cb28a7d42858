//! Events (split barriers): `vkCmdSetEvent2`, `vkCmdWaitEvents2`,
//! `vkCmdResetEvent2`, their synchronization-1 forms `vkCmdSetEvent`,
//! `vkCmdWaitEvents` and `vkCmdResetEvent`, and the host's `vkSetEvent`
//! and `vkResetEvent`.
//!
//! A [`Command::SetEvent`](super::program::Command::SetEvent) carries the
//! `VkDependencyInfo` of `vkCmdSetEvent2`; a
//! [`Command::WaitEvents`](super::program::Command::WaitEvents) one
//! [`EventWait`] per element of `pEvents`, each with its own dependency
//! info (`pDependencyInfos[i]`), which must equal the one its set was
//! recorded with (VUID-vkCmdWaitEvents2-pEvents-10788, and the pairing
//! rule of "Event Waiting": a signal is included only if its
//! `dependencyInfo` is "exactly equal to the element of pDependencyInfos
//! at index i").
//!
//! A [`Command::SetEvent1`](super::program::Command::SetEvent1)
//! (`vkCmdSetEvent`) carries only a stage mask; its
//! [`Command::WaitEvents1`](super::program::Command::WaitEvents1)
//! (`vkCmdWaitEvents`) carries the stage masks and the barriers, so one
//! set may be waited by two waits with different barriers. The two
//! generations do not mix: "Members of pEvents must not have been
//! signaled by vkCmdSetEvent" (VUID-vkCmdWaitEvents2-pEvents-03837) and
//! "Elements of pEvents must not have been signaled by vkCmdSetEvent2"
//! (VUID-vkCmdWaitEvents-pEvents-03847). A synchronization-1 wait's
//! `srcStageMask` "must be the bitwise OR of the stageMask parameter used
//! in previous calls to vkCmdSetEvent with any of the elements of pEvents
//! and VK_PIPELINE_STAGE_HOST_BIT if any of the elements of pEvents was
//! set using vkSetEvent" (VUID-vkCmdWaitEvents-srcStageMask-01158); the
//! previous call is the event's current set here (an event is set again
//! only after a reset).
//!
//! This module owns the types and the one state machine that decides which
//! programs with events are valid ([`EventStates`]), shared by
//! [`crate::resolve`] (programs built in code) and the trace parser (which
//! reports the same rules at a line and column). The rules, each a
//! [`ProgramErrorKind`]:
//!
//! * a wait needs its event set, earlier in the trace, with no reset since
//!   (otherwise the wait would never end; vksync does not model a host set
//!   after the wait is recorded);
//! * an event is set again only after a reset ("If event is already in the
//!   signaled state when vkCmdSetEvent2 is executed on the device, then
//!   vkCmdSetEvent2 has no effect, no event signal operation occurs, and no
//!   dependency is generated": refused rather than modelled as a no-op);
//! * a device wait's dependency info equals its set's; a wait of an event
//!   the host set has `HOST` as every barrier's source stage mask (its
//!   first synchronization scope "only includes host operations");
//! * a synchronization-1 wait waits only for synchronization-1 or host
//!   sets, a synchronization-2 wait only for synchronization-2 or host
//!   sets, and a synchronization-1 wait's `srcStageMask` is the OR above;
//! * a device set and its wait run on the same queue
//!   ("vkCmdWaitEvents2 must not be used to wait on event signal
//!   operations occurring on other queues", and the same sentence for
//!   `vkCmdWaitEvents`; a rule of the command's description, not a VUID);
//!   the queue of a command is known only at its `submit`, so this is
//!   checked there;
//! * the host sets or resets an event only when no submitted device wait
//!   of it is pending ("event must not be waited on by a command buffer
//!   in the pending state", VUID-vkSetEvent-event-09543; an execution
//!   dependency between `vkResetEvent` and the wait,
//!   VUID-vkResetEvent-event-03822 and -03821): a wait stops being
//!   pending when the host knows its batch complete. The host knows what
//!   a `wait` (everything), a `wait QUEUE` (that queue's submissions and
//!   what they waited for) or a `host-wait SEM V` (what the signal of
//!   value `V` waited for) shows complete, following semaphore chains
//!   across queues ([`Clock`]). A link of a chain counts only with
//!   `ALL_COMMANDS`: a signal's first scope then holds every earlier
//!   command of its queue, and a wait's second scope every later one;
//!   a narrower mask ends the chain there (conservative: more
//!   refusals). A queue's timeline wait follows the signal of exactly
//!   its value (values are unique, and that signal is the first to reach
//!   it); one met only by a greater value is not followed, since a host
//!   signal recorded later may reach the value first. A `host-wait`
//!   follows the smallest value at least its own recorded before it
//!   (nothing recorded later can run while the host waits);
//! * a set's or wait's barriers perform no image layout transition
//!   (Vulkan allows one at the set; vksync does not model it) and a set's
//!   source stage mask holds no `HOST` (VUID-vkCmdSetEvent2-srcStageMask-09391).
//!
//! What events *mean* is decided by the definitional semantics
//! (`crate::spec`, module `order`) and by the fast checker
//! (`crate::sync::checker`, single queue only); the planners, the tracker,
//! the layer emulation and the runtime refuse programs with events
//! ([`crate::Program::require_single_queue`]).

use super::error::ProgramErrorKind;
use super::program::Dependency;
use super::queue::{QueueId, SemaphoreId, SemaphoreSignal, SemaphoreWait, WaitFor};
use crate::vk::flags::PipelineStageFlags2;

/// Index of an event in [`crate::Program::events`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct EventId(pub u32);

/// A declared event (`event NAME`): a `VkEvent` created without
/// `VK_EVENT_CREATE_DEVICE_ONLY_BIT` (the host may set it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Its name in traces and messages.
    pub name: String,
}

/// One event of a `vkCmdWaitEvents2`: an element of `pEvents` and the
/// element of `pDependencyInfos` at the same index.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct EventWait {
    /// The event.
    pub event: EventId,
    /// Its dependency info: equal to the set's for a device set; `HOST`
    /// source stages for a host set.
    pub dependency: Dependency,
}

/// Where an event's current signal came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SetBy {
    /// `vkCmdSetEvent2` at this command, with this dependency info.
    Device { command: usize, dependency: Dependency },
    /// `vkCmdSetEvent` at this command, with this stage mask.
    Device1 {
        command: usize,
        stage_mask: PipelineStageFlags2,
    },
    /// `vkSetEvent` on the host.
    Host,
}

/// What each event's state is at a point of the program, in trace order,
/// and the queue rule's bookkeeping (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct EventStates {
    states: Vec<Option<SetBy>>,
    /// Device sets not yet submitted (command index).
    unsubmitted_sets: Vec<usize>,
    /// Device waits not yet submitted: (wait command, index in its waits,
    /// the set command it pairs with).
    unsubmitted_waits: Vec<(usize, usize, usize)>,
    /// The queue of each submitted device set: (command, queue).
    set_queues: Vec<(usize, QueueId)>,
    /// Events of device waits (both generations, any set) not yet
    /// submitted.
    unsubmitted_wait_events: Vec<EventId>,
    /// Submitted device waits: (event, queue, ordinal of the submit).
    /// Pending while [`Self::host`] does not cover the submit.
    pending_waits: Vec<(EventId, QueueId, usize)>,
    /// Per queue, what the completion of everything submitted to it shows
    /// complete (a fence of its last submission, `vkQueueWaitIdle`).
    queues: Vec<(QueueId, Clock)>,
    /// What the host knows complete.
    host: Clock,
    /// The clock each pending binary signal carries (empty when its stage
    /// mask is narrower than `ALL_COMMANDS`).
    binary_signals: Vec<(SemaphoreId, Clock)>,
    /// The clock each timeline signal carries: (semaphore, value, clock);
    /// a host signal's is empty.
    timeline_signals: Vec<(SemaphoreId, u64, Clock)>,
    /// Submits so far.
    submits: usize,
}

/// What the completion of a point of execution shows complete: per queue,
/// the ordinal (among all submits) of its latest submission whose every
/// command has completed. A prefix per queue: a fence, and a signal with
/// `ALL_COMMANDS`, wait for every command earlier in submission order on
/// their queue.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Clock(Vec<(QueueId, usize)>);

impl Clock {
    /// Whether the submit of ordinal `at` on `queue` is complete.
    fn covers(&self, queue: QueueId, at: usize) -> bool {
        self.0.iter().any(|&(q, n)| q == queue && n >= at)
    }

    /// Both: the later ordinal per queue.
    fn join(&mut self, other: &Clock) {
        for &(q, n) in &other.0 {
            self.advance(q, n);
        }
    }

    /// `queue`'s submissions up to ordinal `at` complete.
    fn advance(&mut self, queue: QueueId, at: usize) {
        match self.0.iter_mut().find(|(q, _)| *q == queue) {
            Some((_, n)) => *n = (*n).max(at),
            None => self.0.push((queue, at)),
        }
    }
}

/// A wait whose set ran on another queue, found at a submit: the wait's
/// command and index among its events, and the error.
pub(crate) type QueueMismatch = (usize, usize, ProgramErrorKind);

impl EventStates {
    /// States for `count` events, all unsignalled.
    pub(crate) fn new(count: usize) -> Self {
        EventStates {
            states: vec![None; count],
            ..EventStates::default()
        }
    }

    /// Adds an event declared after the states were made.
    pub(crate) fn declare(&mut self) {
        self.states.push(None);
    }

    fn state(&mut self, e: EventId) -> Option<&mut Option<SetBy>> {
        self.states.get_mut(e.0 as usize)
    }

    /// `vkCmdSetEvent2` at `command`.
    pub(crate) fn set(
        &mut self,
        command: usize,
        event: EventId,
        dependency: &Dependency,
        name: &str,
    ) -> Result<(), ProgramErrorKind> {
        let Some(s) = self.state(event) else { return Ok(()) };
        if s.is_some() {
            return Err(ProgramErrorKind::EventAlreadySet {
                name: name.to_string(),
            });
        }
        *s = Some(SetBy::Device {
            command,
            dependency: dependency.clone(),
        });
        self.unsubmitted_sets.push(command);
        Ok(())
    }

    /// `vkCmdSetEvent` at `command`.
    pub(crate) fn set1(
        &mut self,
        command: usize,
        event: EventId,
        stage_mask: PipelineStageFlags2,
        name: &str,
    ) -> Result<(), ProgramErrorKind> {
        let Some(s) = self.state(event) else { return Ok(()) };
        if s.is_some() {
            return Err(ProgramErrorKind::EventAlreadySet {
                name: name.to_string(),
            });
        }
        *s = Some(SetBy::Device1 { command, stage_mask });
        self.unsubmitted_sets.push(command);
        Ok(())
    }

    /// The host's access to `event` with no submitted device wait of it
    /// that the host does not know complete; otherwise `refused(its
    /// queue)`.
    fn no_pending_wait(
        &self,
        event: EventId,
        refused: impl FnOnce(QueueId) -> ProgramErrorKind,
    ) -> Result<(), ProgramErrorKind> {
        match self
            .pending_waits
            .iter()
            .find(|&&(e, q, at)| e == event && !self.host.covers(q, at))
        {
            Some(&(_, queue, _)) => Err(refused(queue)),
            None => Ok(()),
        }
    }

    /// `vkSetEvent`.
    pub(crate) fn host_set(
        &mut self,
        event: EventId,
        name: &str,
        queue_name: impl Fn(QueueId) -> String,
    ) -> Result<(), ProgramErrorKind> {
        self.no_pending_wait(event, |queue| ProgramErrorKind::HostSetEventWaitPending {
            name: name.to_string(),
            queue: queue_name(queue),
        })?;
        let Some(s) = self.state(event) else { return Ok(()) };
        if s.is_some() {
            return Err(ProgramErrorKind::EventAlreadySet {
                name: name.to_string(),
            });
        }
        *s = Some(SetBy::Host);
        Ok(())
    }

    /// `vkCmdResetEvent2` (or `vkCmdResetEvent`).
    pub(crate) fn reset(&mut self, event: EventId) {
        if let Some(s) = self.state(event) {
            *s = None;
        }
    }

    /// `vkResetEvent`.
    pub(crate) fn host_reset(
        &mut self,
        event: EventId,
        name: &str,
        queue_name: impl Fn(QueueId) -> String,
    ) -> Result<(), ProgramErrorKind> {
        self.no_pending_wait(event, |queue| ProgramErrorKind::HostResetEventWaitPending {
            name: name.to_string(),
            queue: queue_name(queue),
        })?;
        self.reset(event);
        Ok(())
    }

    /// The host waits: for every submission (`vkWaitForFences` on all of
    /// them, `vkDeviceWaitIdle`) or for one queue (`vkQueueWaitIdle`):
    /// what their completion shows complete, the device waits submitted
    /// there among it.
    pub(crate) fn host_waited(&mut self, target: WaitFor) {
        for (q, c) in &self.queues {
            if target == WaitFor::All || target == WaitFor::Queue(*q) {
                self.host.join(c);
            }
        }
        self.forget_complete();
    }

    /// Drops the device waits the host knows complete.
    fn forget_complete(&mut self) {
        let host = &self.host;
        self.pending_waits.retain(|&(_, q, at)| !host.covers(q, at));
    }

    /// `vkSignalSemaphore` of `value` on timeline `semaphore`: a signal
    /// that shows nothing complete (the host has done it).
    pub(crate) fn host_signal(&mut self, semaphore: SemaphoreId, value: u64) {
        self.timeline_signals.push((semaphore, value, Clock::default()));
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
        let first = self
            .timeline_signals
            .iter()
            .filter(|(s, v, _)| *s == semaphore && *v >= value)
            .min_by_key(|(_, v, _)| *v);
        if let Some((_, _, c)) = first {
            let c = c.clone();
            self.host.join(&c);
        }
        self.forget_complete();
    }

    /// The clock of the device signal of exactly `value` of timeline
    /// `semaphore`, if one is recorded.
    fn timeline_clock(&self, semaphore: SemaphoreId, value: u64) -> Option<Clock> {
        self.timeline_signals
            .iter()
            .find(|(s, v, _)| *s == semaphore && *v == value)
            .map(|(_, _, c)| c.clone())
    }

    /// Element `index` of the `vkCmdWaitEvents2` at `command`.
    pub(crate) fn wait(
        &mut self,
        command: usize,
        index: usize,
        w: &EventWait,
        name: &str,
    ) -> Result<(), ProgramErrorKind> {
        let name = name.to_string();
        self.unsubmitted_wait_events.push(w.event);
        let Some(s) = self.state(w.event) else {
            return Ok(());
        };
        match s {
            None => Err(ProgramErrorKind::EventNotSet { name }),
            Some(SetBy::Device {
                command: set,
                dependency,
            }) => {
                if *dependency != w.dependency {
                    return Err(ProgramErrorKind::EventDependencyMismatch { name });
                }
                let set = *set;
                self.unsubmitted_waits.push((command, index, set));
                Ok(())
            }
            Some(SetBy::Device1 { .. }) => Err(ProgramErrorKind::EventSetBySync1 { name }),
            Some(SetBy::Host) => {
                if w.dependency
                    .barriers
                    .iter()
                    .any(|b| b.src_stage_mask != PipelineStageFlags2::HOST)
                {
                    return Err(ProgramErrorKind::HostEventWaitNotHost { name });
                }
                Ok(())
            }
        }
    }

    /// The `vkCmdWaitEvents` at `command` of `events` (`name` names
    /// them) with `srcStageMask` `src`. An error names the index of the
    /// event in `events` it is about, or `None` for the stage mask.
    pub(crate) fn wait1<'a>(
        &mut self,
        command: usize,
        events: &[EventId],
        src: PipelineStageFlags2,
        name: impl Fn(EventId) -> &'a str,
    ) -> Result<(), (Option<usize>, ProgramErrorKind)> {
        self.unsubmitted_wait_events.extend_from_slice(events);
        let mut expected = PipelineStageFlags2::NONE;
        let mut pairs = Vec::new();
        for (k, &e) in events.iter().enumerate() {
            let name = name(e).to_string();
            let Some(s) = self.state(e) else { continue };
            match s {
                None => return Err((Some(k), ProgramErrorKind::Event1NotSet { name })),
                Some(SetBy::Device { .. }) => {
                    return Err((Some(k), ProgramErrorKind::EventSetBySync2 { name }))
                }
                Some(SetBy::Device1 {
                    command: set,
                    stage_mask,
                }) => {
                    expected |= *stage_mask;
                    pairs.push((command, k, *set));
                }
                Some(SetBy::Host) => expected |= PipelineStageFlags2::HOST,
            }
        }
        if src != expected {
            return Err((
                None,
                ProgramErrorKind::WaitEvents1SrcStageMask { given: src, expected },
            ));
        }
        self.unsubmitted_waits.extend(pairs);
        Ok(())
    }

    /// A submit to `queue` (the end of the program: the implicit one, to
    /// the first queue) waiting for `waits` and signalling `signals`: the
    /// recorded sets and waits run on it. A wait whose set ran on another
    /// queue is an error. `mismatch(set command, set queue)` builds the
    /// error. The semaphore operations must be valid (module `queue`
    /// checks them first: a binary wait has a pending signal).
    pub(crate) fn submit(
        &mut self,
        queue: QueueId,
        waits: &[SemaphoreWait],
        signals: &[SemaphoreSignal],
        mismatch: impl Fn(usize, QueueId) -> ProgramErrorKind,
    ) -> Result<(), QueueMismatch> {
        let at = self.submits;
        self.submits += 1;
        for e in self.unsubmitted_wait_events.drain(..) {
            self.pending_waits.push((e, queue, at));
        }
        let all = |stages: PipelineStageFlags2| stages.contains(PipelineStageFlags2::ALL_COMMANDS);
        // What the batch's waits carry (a binary wait consumes its pending
        // signal, whatever its mask).
        let mut clock = match self.queues.iter().find(|(q, _)| *q == queue) {
            Some((_, c)) => c.clone(),
            None => Clock::default(),
        };
        for w in waits {
            let carried = match w.value {
                None => self
                    .binary_signals
                    .iter()
                    .position(|(s, _)| *s == w.semaphore)
                    .map(|i| self.binary_signals.swap_remove(i).1),
                Some(v) => self.timeline_clock(w.semaphore, v),
            };
            if let Some(c) = carried.filter(|_| all(w.stages)) {
                clock.join(&c);
            }
        }
        clock.advance(queue, at);
        match self.queues.iter_mut().find(|(q, _)| *q == queue) {
            Some((_, c)) => *c = clock.clone(),
            None => self.queues.push((queue, clock.clone())),
        }
        for g in signals {
            let carried = if all(g.stages) {
                clock.clone()
            } else {
                Clock::default()
            };
            match g.value {
                None => self.binary_signals.push((g.semaphore, carried)),
                Some(v) => self.timeline_signals.push((g.semaphore, v, carried)),
            }
        }
        for c in self.unsubmitted_sets.drain(..) {
            self.set_queues.push((c, queue));
        }
        for (wait, index, set) in self.unsubmitted_waits.drain(..) {
            let q = self
                .set_queues
                .iter()
                .rev()
                .find(|(c, _)| *c == set)
                .map_or(queue, |(_, q)| *q);
            if q != queue {
                return Err((wait, index, mismatch(set, q)));
            }
        }
        Ok(())
    }
}

/// The stage mask of `vkCmdResetEvent2` when a trace gives none.
pub const DEFAULT_RESET_STAGES: PipelineStageFlags2 = PipelineStageFlags2::ALL_COMMANDS;
