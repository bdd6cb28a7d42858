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
//! * the host sets or resets an event only when no device set, reset or
//!   wait of it is recorded and not yet submitted: such a command runs at
//!   its submit, after the host's call, so the trace's order is not the
//!   execution's (refused, not reordered; a capture writes the host's
//!   calls before the commands of the next submission);
//! * the host sets or resets an event only when no submitted device set,
//!   reset or wait of it is pending (a device set or reset may execute
//!   after the host's operation; for a wait: "event must not be waited on by a command buffer
//!   in the pending state", VUID-vkSetEvent-event-09543; an execution
//!   dependency between `vkResetEvent` and the wait,
//!   VUID-vkResetEvent-event-03822 and -03821): a wait stops being
//!   pending when the host knows its batch complete. The host knows what
//!   a `wait` (everything), a `wait QUEUE` (that queue's submissions and
//!   what they waited for) or a `host-wait SEM V` (what the signal of
//!   value `V` waited for) shows complete, following semaphore chains
//!   across queues: module `completion` keeps that account;
//! * a set's source stage mask holds no `HOST`
//!   (VUID-vkCmdSetEvent2-srcStageMask-09391), and a wait for an event
//!   the host set has no layout transition in its dependency info (a
//!   `vkCmdSetEvent2` performs an event's transitions, and `vkSetEvent`
//!   defines none). A `vkCmdSetEvent2`'s transitions and a
//!   `vkCmdWaitEvents`'s are modelled (`docs/semantics.md`, "Events").
//!
//! What events *mean* is decided by the definitional semantics
//! (`crate::spec`, module `order`) and by the fast checkers
//! (`crate::sync::checker`, `crate::sync::queues`); the planners drop
//! them but for their layout transitions (`crate::plan::planning_input`),
//! and the tracker and the layer emulation refuse programs with events
//! ([`crate::Program::require_single_queue`]).

use super::completion::Completion;
use super::error::ProgramErrorKind;
use super::image::{ImageBarrier, ImageBarrierRef};
use super::program::{Barrier, Dependency};
use super::queue::QueueId;
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
    /// The queue of each submitted device set, by its command.
    set_queues: std::collections::HashMap<usize, QueueId>,
    /// Events of device waits (both generations, any set) not yet
    /// submitted, with the command's name (`wait-events`, `wait-events1`).
    unsubmitted_wait_events: Vec<(EventId, &'static str)>,
    /// Device waits recorded since the last submit, for the rule that a
    /// later device reset of the event executes after them: (event, the
    /// stages an execution dependency chain from the wait reaches so far:
    /// its `dstStageMask`, logically later stages, and the second scopes
    /// of the pipeline barriers recorded since whose first scope meets
    /// them; [`Self::note_command`]).
    /// Kept per distinct set of stages, with the events whose waits reach
    /// it: few sets whatever the number of waits and events, so a barrier
    /// costs the number of sets, not of waits (a million waits of one
    /// event, or of a million events, in one batch).
    reset_after: Vec<(crate::vk::scope::StageSet, std::collections::HashSet<EventId>)>,
    /// Submitted device waits: (event, queue, ordinal of the submit).
    /// Pending while the host does not know the submit complete
    /// ([`Completion::host_knows`]).
    pending_waits: Vec<(EventId, QueueId, usize)>,
    /// Device sets and resets not yet submitted: (event, the trace's name
    /// of the command).
    unsubmitted_ops: Vec<(EventId, &'static str)>,
    /// Submitted device sets and resets: (event, queue, ordinal of the
    /// submit, the command's name). Pending, as waits are.
    pending_ops: Vec<(EventId, QueueId, usize, &'static str)>,
    /// Events with a device command (set, reset or wait) recorded since
    /// the last submit, and the first such command's name: a host set or
    /// reset of one of them would run before it ([`Self::no_recorded_op`]).
    /// (What `unsubmitted_ops` and `unsubmitted_wait_events` hold, kept by
    /// event so that a host call does not scan a long batch.)
    recorded: std::collections::HashMap<EventId, &'static str>,
    /// Per event, per queue that ran a device command of it, the latest
    /// such submit (its ordinal) and command name: what a later batch of
    /// another queue must be ordered after ([`Self::cross_queue`]).
    last_submitted: std::collections::HashMap<EventId, Vec<(QueueId, usize, &'static str)>>,
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
        self.unsubmitted_ops.push((event, "set-event"));
        self.recorded.entry(event).or_insert("set-event");
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
        self.unsubmitted_ops.push((event, "set-event1"));
        self.recorded.entry(event).or_insert("set-event1");
        Ok(())
    }

    /// The host's access to `event` with no submitted device wait of it
    /// that the host does not know complete; otherwise `refused(its
    /// queue)`.
    fn no_pending_wait(
        &mut self,
        event: EventId,
        done: &Completion,
        refused: impl FnOnce(QueueId) -> ProgramErrorKind,
    ) -> Result<(), ProgramErrorKind> {
        self.pending_waits.retain(|&(_, q, at)| !done.host_knows(q, at));
        match self.pending_waits.iter().find(|&&(e, _, _)| e == event) {
            Some(&(_, queue, _)) => Err(refused(queue)),
            None => Ok(()),
        }
    }

    /// The host's access to `event` (`host_op`: "set", "reset") with no
    /// submitted device set or reset of it that the host does not know
    /// complete: the device may execute that command after the host's,
    /// and the event is then not in the state the program goes on with (a
    /// set of a signaled event "has no effect, no event signal operation
    /// occurs"; a reset after a host set leaves a host-set wait waiting).
    /// Review21 found both missed: a host reset while an earlier batch's
    /// set was pending let a later wait pair with the wrong set.
    fn no_pending_op(
        &mut self,
        event: EventId,
        done: &Completion,
        host_op: &'static str,
        name: &str,
        queue_name: &impl Fn(QueueId) -> String,
    ) -> Result<(), ProgramErrorKind> {
        self.pending_ops.retain(|&(_, q, at, _)| !done.host_knows(q, at));
        match self.pending_ops.iter().find(|&&(e, _, _, _)| e == event) {
            Some(&(_, queue, _, op)) => Err(ProgramErrorKind::HostEventDeviceOpPending {
                name: name.to_string(),
                host_op,
                device_op: op,
                queue: queue_name(queue),
            }),
            None => Ok(()),
        }
    }

    /// The host's `host_op` ("set", "reset") of `event` while no device
    /// command of it is recorded and not yet submitted. Such a command
    /// runs only at its submit, after the host's call, so the trace's
    /// order is not the execution's: a wait recorded after a host set and
    /// before a host reset that precedes its submit never ends (review48
    /// found such programs accepted, and a host reset between a recorded
    /// set and its wait refused as "not set"). Refused rather than
    /// modelled: a capture writes the host's calls before the commands
    /// the next submission carries.
    fn no_recorded_op(
        &self,
        event: EventId,
        host_op: &'static str,
        name: &str,
    ) -> Result<(), ProgramErrorKind> {
        match self.recorded.get(&event) {
            Some(&device_op) => Err(ProgramErrorKind::HostEventBeforeRecorded {
                name: name.to_string(),
                host_op,
                device_op,
            }),
            None => Ok(()),
        }
    }

    /// `vkSetEvent`, with what `done` says the host knows complete.
    pub(crate) fn host_set(
        &mut self,
        event: EventId,
        name: &str,
        queue_name: impl Fn(QueueId) -> String,
        done: &Completion,
    ) -> Result<(), ProgramErrorKind> {
        self.no_recorded_op(event, "set", name)?;
        self.no_pending_wait(event, done, |queue| ProgramErrorKind::HostSetEventWaitPending {
            name: name.to_string(),
            queue: queue_name(queue),
        })?;
        self.no_pending_op(event, done, "set", name, &queue_name)?;
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

    /// `vkResetEvent`, with what `done` says the host knows complete.
    pub(crate) fn host_reset(
        &mut self,
        event: EventId,
        name: &str,
        queue_name: impl Fn(QueueId) -> String,
        done: &Completion,
    ) -> Result<(), ProgramErrorKind> {
        self.no_recorded_op(event, "reset", name)?;
        self.no_pending_wait(event, done, |queue| ProgramErrorKind::HostResetEventWaitPending {
            name: name.to_string(),
            queue: queue_name(queue),
        })?;
        self.no_pending_op(event, done, "reset", name, &queue_name)?;
        self.reset(event);
        Ok(())
    }

    /// Follows a recorded command for the reset rule ([`Self::device_reset`]):
    /// a wait of events starts a chain from each in its `dstStageMask`; a
    /// pipeline barrier extends every chain whose stages meet its first
    /// scope by its second; a rendering command (a render pass's
    /// dependencies, which this does not follow) ends the check of every
    /// chain so far. Called by the parser and by `resolve` alike, after
    /// the command's own rules.
    pub(crate) fn note_command(&mut self, command: &super::program::Command) {
        use super::program::Command;
        use crate::vk::scope::{exec_scope, Side, StageSet};
        let dst_of = |dep: &super::program::Dependency| {
            dep.barriers.iter().fold(StageSet::default(), |s, b| {
                s.union(exec_scope(b.dst_stage_mask, Side::Dst))
            })
        };
        let mut add =
            |e: EventId, reached: StageSet| match self.reset_after.iter_mut().find(|(s, _)| *s == reached) {
                Some((_, events)) => {
                    events.insert(e);
                }
                None => self.reset_after.push((reached, [e].into_iter().collect())),
            };
        match command {
            Command::WaitEvents { waits } => {
                for w in waits {
                    add(w.event, dst_of(&w.dependency));
                }
            }
            Command::WaitEvents1 { events, dependency } => {
                let dst = dst_of(dependency);
                for &e in events {
                    add(e, dst);
                }
            }
            Command::Barrier(dep) => {
                let old = std::mem::take(&mut self.reset_after);
                for (mut reached, events) in old {
                    for b in &dep.barriers {
                        if exec_scope(b.src_stage_mask, Side::Src).intersects(reached) {
                            reached = reached.union(exec_scope(b.dst_stage_mask, Side::Dst));
                        }
                    }
                    match self.reset_after.iter_mut().find(|(s, _)| *s == reached) {
                        Some((_, into)) => into.extend(events),
                        None => self.reset_after.push((reached, events)),
                    }
                }
            }
            Command::Render(_) => self.reset_after.clear(),
            _ => {}
        }
    }

    /// `vkCmdResetEvent2` (or `vkCmdResetEvent`) recorded on the device,
    /// with `stageMask` `stages`. "There must be an execution dependency
    /// between vkCmdResetEvent2 and the execution of any earlier
    /// vkCmdWaitEvents2 in submission order that includes event"
    /// (VUID-vkCmdResetEvent2-event-03832): refused where the reset's first
    /// synchronization scope shares no stage with what a chain from a
    /// wait of the event recorded since the last submit reaches (its
    /// `dstStageMask`, and the pipeline barriers after it that chain: an
    /// empty scope, `NONE` or `TOP_OF_PIPE`, never does; the validation
    /// layer's `NegativeEvent.Reset2AfterWait2` refuses a reset in
    /// `TRANSFER` after a wait into `COMPUTE_SHADER`); a reset of every
    /// stage (`ALL_COMMANDS`, the default) holds the wait itself. (A reset after a
    /// wait submitted earlier and still pending is not checked, nor one
    /// after a rendering command, whose dependencies may chain.)
    pub(crate) fn device_reset(
        &mut self,
        event: EventId,
        stages: crate::vk::flags::PipelineStageFlags2,
        name: &str,
    ) -> Result<(), ProgramErrorKind> {
        use crate::vk::scope::{exec_scope, Side};
        let first = exec_scope(stages, Side::Src);
        // A first scope of every stage (`ALL_COMMANDS`, `BOTTOM_OF_PIPE`)
        // holds the wait itself, whatever its second scope.
        let all = first.union(crate::vk::scope::StageSet::ALL_DEVICE) == first;
        if let Some((reached, _)) = self
            .reset_after
            .iter()
            .find(|(reached, events)| !all && !reached.intersects(first) && events.contains(&event))
        {
            return Err(ProgramErrorKind::ResetEventAfterWaitUnordered {
                name: name.to_string(),
                stages: stages.to_string(),
                reached: if reached.iter().next().is_none() {
                    "no stage".to_string()
                } else {
                    reached.flags().to_string()
                },
            });
        }
        self.unsubmitted_ops.push((event, "reset-event"));
        self.recorded.entry(event).or_insert("reset-event");
        self.reset(event);
        Ok(())
    }

    /// Element `index` of the `vkCmdWaitEvents2` at `command`; `image`
    /// resolves an image barrier's reference in the program (the set's
    /// and the wait's image barriers are distinct entries of
    /// [`crate::Program::image_barriers`], equal by value).
    pub(crate) fn wait(
        &mut self,
        command: usize,
        index: usize,
        w: &EventWait,
        name: &str,
        image: impl Fn(ImageBarrierRef) -> Option<ImageBarrier>,
    ) -> Result<(), ProgramErrorKind> {
        let name = name.to_string();
        self.unsubmitted_wait_events.push((w.event, "wait-events"));
        self.recorded.entry(w.event).or_insert("wait-events");
        let Some(s) = self.state(w.event) else {
            return Ok(());
        };
        match s {
            None => Err(ProgramErrorKind::EventNotSet { name }),
            Some(SetBy::Device {
                command: set,
                dependency,
            }) => {
                if let Some(difference) = first_difference(dependency, &w.dependency, &image) {
                    return Err(ProgramErrorKind::EventDependencyMismatch { name, difference });
                }
                let set = *set;
                self.unsubmitted_waits.push((command, index, set));
                Ok(())
            }
            Some(SetBy::Device1 { .. }) => Err(ProgramErrorKind::EventSetBySync1 { name }),
            Some(SetBy::Host) => {
                // "must include only host operations in their first
                // synchronization scope": `HOST`, or no stage at all (an
                // empty first scope includes no other operation).
                if w.dependency
                    .barriers
                    .iter()
                    .any(|b| !PipelineStageFlags2::HOST.contains(b.src_stage_mask))
                {
                    return Err(ProgramErrorKind::HostEventWaitNotHost { name });
                }
                // An event's transitions are performed by its
                // `vkCmdSetEvent2` (its second scopes "include ... image
                // layout transitions defined by pDependencyInfo"); a host
                // set defines none, and the wait performs none.
                if let Some(index) = w.dependency.barriers.iter().position(|b| b.transition) {
                    return Err(ProgramErrorKind::EventTransition { name, index });
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
        for &e in events {
            self.unsubmitted_wait_events.push((e, "wait-events1"));
            self.recorded.entry(e).or_insert("wait-events1");
        }
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

    /// The queue rule across batches, at a submit to `queue` before
    /// [`Self::submit`]: a device set, reset or wait of an event in this
    /// batch needs every device command of that event submitted on another
    /// queue ordered before it (`Completion::ordered_before_queue`: the
    /// host knows that batch complete, or this queue's batches are ordered
    /// after it through semaphores), else the two may execute in either order: a
    /// set on one queue between a reset and a set on the other makes that
    /// set a no-op and its wait one on another queue's signal, which
    /// "must not" be ("vkCmdWaitEvents2 must not be used to wait on event
    /// signal operations occurring on other queues"; review48 found such a
    /// program accepted). The latest command per other queue stands for
    /// its earlier ones (a batch ordered after it is after them).
    pub(crate) fn cross_queue(
        &self,
        queue: QueueId,
        done: &Completion,
        program: &super::program::Program,
    ) -> Result<(), ProgramErrorKind> {
        if self.last_submitted.is_empty() {
            return Ok(());
        }
        let here = batch_commands(&self.unsubmitted_ops, &self.unsubmitted_wait_events);
        for (e, op) in here {
            let Some(others) = self.last_submitted.get(&e) else {
                continue;
            };
            let unordered = |&&(q, at, _): &&(QueueId, usize, &str)| {
                q != queue && !done.ordered_before_queue(queue, q, at)
            };
            if let Some(&(q, _, other_op)) = others.iter().find(unordered) {
                return Err(ProgramErrorKind::EventOnTwoQueues {
                    name: program.event_name(e).to_string(),
                    ops: (op, other_op),
                    queues: Box::new((
                        program.queue_name(queue).to_string(),
                        program.queue_name(q).to_string(),
                    )),
                });
            }
        }
        Ok(())
    }

    /// A submit to `queue` (the end of the program: the implicit one, to
    /// the first queue), of ordinal `at` ([`Completion::submit`]): the
    /// recorded sets and waits run on it. A wait whose set ran on another
    /// queue is an error. `mismatch(set command, set queue)` builds the
    /// error.
    pub(crate) fn submit(
        &mut self,
        queue: QueueId,
        at: usize,
        mismatch: impl Fn(usize, QueueId) -> ProgramErrorKind,
    ) -> Result<(), QueueMismatch> {
        let here = batch_commands(&self.unsubmitted_ops, &self.unsubmitted_wait_events);
        for (e, op) in here {
            let latest = self.last_submitted.entry(e).or_default();
            match latest.iter_mut().find(|(q, _, _)| *q == queue) {
                Some(entry) => *entry = (queue, at, op),
                None => latest.push((queue, at, op)),
            }
        }
        for (e, _) in self.unsubmitted_wait_events.drain(..) {
            self.pending_waits.push((e, queue, at));
        }
        self.reset_after.clear();
        self.recorded.clear();
        for (e, op) in self.unsubmitted_ops.drain(..) {
            self.pending_ops.push((e, queue, at, op));
        }
        for c in self.unsubmitted_sets.drain(..) {
            self.set_queues.insert(c, queue);
        }
        // A map, not a list searched per wait: a program whose waits come
        // long after their sets was quadratic here (issue 27).
        for (wait, index, set) in self.unsubmitted_waits.drain(..) {
            let q = self.set_queues.get(&set).copied().unwrap_or(queue);
            if q != queue {
                return Err((wait, index, mismatch(set, q)));
            }
        }
        Ok(())
    }
}

/// The device commands of events a batch not yet submitted holds, each
/// with its command's name: its sets and resets (`ops`), then its waits.
fn batch_commands<'a>(
    ops: &'a [(EventId, &'static str)],
    waits: &'a [(EventId, &'static str)],
) -> impl Iterator<Item = (EventId, &'static str)> + 'a {
    ops.iter().chain(waits).copied()
}

/// The stage mask of `vkCmdResetEvent2` when a trace gives none.
pub const DEFAULT_RESET_STAGES: PipelineStageFlags2 = PipelineStageFlags2::ALL_COMMANDS;

/// The first field in which a wait's `VkDependencyInfo` differs from the
/// set's, for VUID-vkCmdWaitEvents2-pEvents-10788's message: the barrier
/// count, or the first barrier's first differing member (the wait's
/// value, then the set's); `None` when they are equal. Equality is of the
/// values the application passed: an image barrier's subresource range
/// and layouts by value (`image` resolves a reference), a
/// `VK_REMAINING_*` count unequal to an explicit one.
fn first_difference(
    set: &Dependency,
    wait: &Dependency,
    image: &impl Fn(ImageBarrierRef) -> Option<ImageBarrier>,
) -> Option<String> {
    if set.barriers.len() != wait.barriers.len() {
        return Some(format!(
            "{} barriers where the set has {}",
            wait.barriers.len(),
            set.barriers.len()
        ));
    }
    let resolved = |b: &Barrier| b.image.and_then(image);
    let bare = |b: &Barrier| Barrier { image: None, ..*b };
    let (i, (s, w)) = set
        .barriers
        .iter()
        .zip(&wait.barriers)
        .enumerate()
        .find(|(_, (s, w))| bare(s) != bare(w) || resolved(s) != resolved(w))?;
    let field = if s.src_stage_mask != w.src_stage_mask {
        format!("srcStageMask {} (set: {})", w.src_stage_mask, s.src_stage_mask)
    } else if s.src_access_mask != w.src_access_mask {
        format!("srcAccessMask {} (set: {})", w.src_access_mask, s.src_access_mask)
    } else if s.dst_stage_mask != w.dst_stage_mask {
        format!("dstStageMask {} (set: {})", w.dst_stage_mask, s.dst_stage_mask)
    } else if s.dst_access_mask != w.dst_access_mask {
        format!("dstAccessMask {} (set: {})", w.dst_access_mask, s.dst_access_mask)
    } else if let (Some(si), Some(wi)) = (resolved(s), resolved(w)) {
        if si.range != wi.range {
            format!("subresourceRange {} (set: {})", wi.range, si.range)
        } else if si.old_layout != wi.old_layout {
            format!("oldLayout {} (set: {})", wi.old_layout, si.old_layout)
        } else if si.new_layout != wi.new_layout {
            format!("newLayout {} (set: {})", wi.new_layout, si.new_layout)
        } else {
            "the image (or the queue family ownership transfer)".into()
        }
    } else if s.region != w.region || s.image.is_some() != w.image.is_some() {
        "the buffer range (or a memory barrier where the set has a buffer or image barrier, or the reverse)"
            .into()
    } else {
        "the queue family ownership transfer".into()
    };
    Some(format!("barrier {i}: {field}"))
}
