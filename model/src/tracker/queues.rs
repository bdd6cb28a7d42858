//! The [`super::Tracker`]'s queues: one online planner (a single-queue
//! [`Checker`]) per queue for the barriers inside it, and the cross-queue
//! account that says what a submit must wait for.
//!
//! It owns the per-queue checkers, each open batch's touched memory, the
//! submitted batches the host does not know complete, the pending binary
//! signals, and which queue holds each exclusive resource. What a submit
//! is ordered after is [`Completion`]'s (the same account `resolve` and
//! the checkers use); which semaphore operations are valid is
//! [`SemaphoreStates`]' (the trace's rules). Neither is copied here.
//!
//! Invariants:
//! * a cross-queue conflict (two accesses of overlapping bytes on two
//!   queues, one a write, or an ownership release or acquire, which
//!   writes) is answered at the later batch's submit, in submission order,
//!   by a semaphore wait with `ALL_COMMANDS` on a pending binary signal
//!   with `ALL_COMMANDS` of a batch at or after the earlier one (the
//!   multi-queue planner's rule, `crate::plan::queues`: such a pair makes
//!   every earlier write of the signalling queue available and visible to
//!   every later access of the waiting queue, and chains through queues),
//!   or, with no such signal pending, by a host wait for that queue before
//!   the submit (a fence orders its whole queue before later submits);
//!   timeline signals are not offered (a wait for a value may pair with a
//!   later signal of it, which the model refuses or orders less);
//! * a host command runs through every queue's checker (it may conflict
//!   with any queue's work) and gets, per queue, that queue's barrier to
//!   `HOST`, submit and fence wait;
//! * with one queue none of the cross-queue lists is kept (no cost).

use super::{Needs, TrackerError};
use crate::ir::access::Access;
use crate::ir::completion::Completion;
use crate::ir::layout::{Layout, MemId, ProgramErrorKind};
use crate::ir::program::{Barrier, ByteRange, Dependency, Region};
use crate::ir::queue::{
    Queue, QueueId, SemOperand, Semaphore, SemaphoreId, SemaphoreStates, SemaphoreType, SemaphoreWait,
    Submission, WaitFor,
};
use crate::plan::{online, BarrierForm};
use crate::semantics::Semantics;
use crate::sync::checker::Checker;
use crate::sync::value::ResolvedBarrier;
use crate::vk::flags::{AccessFlags2 as A, PipelineStageFlags2 as S};
use crate::vk::scope::StageSet;

/// A semaphore wait a submit must add, and what it answers.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct NeededWait {
    /// The wait to add to the submission (`ALL_COMMANDS`, on a pending
    /// binary signal).
    pub wait: SemaphoreWait,
    /// The queue whose work it waits for.
    pub queue: QueueId,
    /// The number (among all submits, from 0) of the batch of `queue` the
    /// submit conflicts with last.
    pub batch: usize,
}

/// What a submit must wait for, beyond what the runtime gave.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct SubmitNeeds {
    /// Semaphore waits to add to the submission.
    pub waits: Vec<NeededWait>,
    /// Queues the host must wait idle for (`vkQueueWaitIdle`, or their
    /// fences) before the submit: another queue's work this batch
    /// conflicts with, with no signal pending to wait for.
    pub host_waits: Vec<QueueId>,
}

impl SubmitNeeds {
    /// Whether nothing is needed.
    pub fn is_empty(&self) -> bool {
        self.waits.is_empty() && self.host_waits.is_empty()
    }
}

/// What one queue needs before a command: barriers to record on it, then
/// (when `submit` is set) a submit with what that needs, and a fence wait
/// of the queue.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct QueueNeeds {
    /// The queue.
    pub queue: QueueId,
    /// The barriers of one `vkCmdPipelineBarrier2` on it (a release:
    /// the ownership transfer's first half).
    pub barriers: Vec<Barrier>,
    /// Submit the queue (with these waits) and wait for it on a fence
    /// after the barriers (a host command's need); `None`: record only.
    pub submit_and_wait: Option<SubmitNeeds>,
}

/// An exclusive resource a device command touches: its root's index, the
/// whole root as a region, and the stages and writes of the command's
/// accesses of it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Transfer {
    pub(super) root: u32,
    pub(super) region: Region,
    pub(super) stages: S,
    pub(super) writes: A,
}

/// What a device command needs before its own barriers: the ownership
/// transfers of the exclusive resources it takes from another family, and
/// the layout transitions its image uses need (command `index - 1`, their
/// scopes set: [`Queues::transition_sources`]).
#[derive(Clone, Debug, Default)]
pub(super) struct Prelude {
    pub(super) transfers: Vec<Transfer>,
    pub(super) transitions: Option<Dependency>,
}

/// Bytes of memory a batch touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Touch {
    mem: MemId,
    range: ByteRange,
    write: bool,
}

impl Touch {
    fn conflicts(self, other: Touch) -> bool {
        self.mem == other.mem && self.range.overlaps(other.range) && (self.write || other.write)
    }
}

/// A submitted batch the host does not know complete.
#[derive(Clone, Debug)]
struct Batch {
    queue: QueueId,
    ordinal: usize,
    touches: Vec<Touch>,
}

/// A binary signal no wait took yet.
#[derive(Clone, Copy, Debug)]
struct Pending {
    semaphore: SemaphoreId,
    queue: QueueId,
    ordinal: usize,
    all: bool,
}

/// Which queue holds an exclusive root, and what its accesses were since
/// it took it (the release's first scope).
#[derive(Clone, Copy, Debug)]
struct Holder {
    root: u32,
    queue: QueueId,
    stages: S,
    writes: A,
}

#[derive(Clone, Debug)]
pub(super) struct Queues {
    queues: Vec<Queue>,
    checkers: Vec<Checker>,
    semaphores: Vec<Semaphore>,
    states: SemaphoreStates,
    completion: Completion,
    open: Vec<Vec<Touch>>,
    batches: Vec<Batch>,
    pending: Vec<Pending>,
    /// Per queue, the number of its latest submit.
    last: Vec<Option<usize>>,
    /// Per queue, how many batches it submitted: its open batch's number
    /// among its own.
    submitted: Vec<usize>,
    holders: Vec<Holder>,
    /// Releases recorded and not submitted: (releasing, acquiring) queue.
    releases: Vec<(QueueId, QueueId)>,
    /// The second-scope stages of the layout transitions of each command
    /// (its number) that made some: a later barrier chains out of them.
    transition_dst: std::collections::HashMap<usize, S>,
}

fn queue_name(q: QueueId) -> String {
    format!("queue {}", q.0)
}

fn semaphore_name(s: SemaphoreId) -> String {
    format!("semaphore {}", s.0)
}

fn operand(o: SemOperand) -> String {
    match o {
        SemOperand::Wait(i) => format!("wait {i}"),
        SemOperand::Signal(i) => format!("signal {i}"),
    }
}

impl Queues {
    pub(super) fn new(sem: Semantics) -> Queues {
        Queues {
            queues: vec![Queue {
                name: queue_name(QueueId(0)),
                family: 0,
            }],
            checkers: vec![Checker::with_semantics(0, sem)],
            semaphores: Vec::new(),
            states: SemaphoreStates::new(&[]),
            completion: Completion::default(),
            open: vec![Vec::new()],
            batches: Vec::new(),
            pending: Vec::new(),
            last: vec![None],
            submitted: vec![0],
            holders: Vec::new(),
            releases: Vec::new(),
            transition_dst: std::collections::HashMap::new(),
        }
    }

    /// The number (among `q`'s own) of `q`'s open batch: batch `n` of `q`
    /// is submitted once this is past `n`.
    pub(super) fn open_batch(&self, q: QueueId) -> usize {
        self.submitted[q.0 as usize]
    }

    pub(super) fn count(&self) -> usize {
        self.queues.len()
    }

    pub(super) fn add_queue(&mut self, family: u32) -> QueueId {
        let q = QueueId(self.queues.len() as u32);
        self.queues.push(Queue {
            name: queue_name(q),
            family,
        });
        self.checkers
            .push(Checker::with_semantics(0, self.checkers[0].semantics()));
        self.open.push(Vec::new());
        self.last.push(None);
        self.submitted.push(0);
        q
    }

    pub(super) fn add_semaphore(&mut self, kind: SemaphoreType) -> SemaphoreId {
        let s = SemaphoreId(self.semaphores.len() as u32);
        let semaphore = Semaphore {
            name: semaphore_name(s),
            kind,
        };
        self.states.declare(&semaphore);
        self.semaphores.push(semaphore);
        s
    }

    pub(super) fn check_queue(&self, what: &'static str, q: QueueId) -> Result<(), TrackerError> {
        if (q.0 as usize) < self.queues.len() {
            Ok(())
        } else {
            Err(TrackerError::UnknownQueue {
                what,
                queue: q.0,
                count: self.queues.len(),
            })
        }
    }

    fn check_semaphore(&self, what: &'static str, s: SemaphoreId) -> Result<(), TrackerError> {
        if (s.0 as usize) < self.semaphores.len() {
            Ok(())
        } else {
            Err(TrackerError::UnknownSemaphore {
                what,
                semaphore: s.0,
                count: self.semaphores.len(),
            })
        }
    }

    fn family(&self, q: QueueId) -> u32 {
        self.queues[q.0 as usize].family
    }

    /// Adds `acc` to `q`'s open batch (with several queues only).
    fn touch(&mut self, q: QueueId, t: Touch) {
        if self.queues.len() > 1 && self.open[q.0 as usize].last() != Some(&t) {
            self.open[q.0 as usize].push(t);
        }
    }

    /// A device command on `q`: the ownership transfers it needs, then its
    /// barrier on `q` (the online planner on `q`'s checker).
    pub(super) fn device_command(
        &mut self,
        layout: &Layout,
        form: BarrierForm,
        q: QueueId,
        index: usize,
        acc: &[Access],
        prelude: Prelude,
    ) -> Needs {
        let Prelude {
            transfers,
            transitions,
        } = prelude;
        let mut needs = Needs::default();
        for t in transfers {
            let at = layout.at(t.region);
            let whole = Touch {
                mem: at.mem,
                range: at.range,
                write: true,
            };
            let i = match self.holders.iter().position(|h| h.root == t.root) {
                Some(i) => i,
                None => {
                    self.holders.push(Holder {
                        root: t.root,
                        queue: q,
                        stages: S::empty(),
                        writes: A::empty(),
                    });
                    self.holders.len() - 1
                }
            };
            let h = self.holders[i];
            let (from, to) = (self.family(h.queue), self.family(q));
            if from != to {
                // The release: the holder's accesses since it took the
                // resource, ordered before the transfer (a read needs only
                // the execution dependency).
                let release = Barrier::global(h.stages, h.writes, S::NONE, A::NONE)
                    .on(t.region)
                    .with_ownership_transfer(from, to);
                self.checkers[h.queue.0 as usize].apply(&[ResolvedBarrier::of(&release, layout)]);
                self.touch(h.queue, whole);
                needs.queues.push(QueueNeeds {
                    queue: h.queue,
                    barriers: vec![release],
                    submit_and_wait: None,
                });
                self.releases.push((h.queue, q));
                // The acquire writes the resource: every later use on `q`
                // follows it.
                let acquire = Barrier::global(
                    S::NONE,
                    A::NONE,
                    S::ALL_COMMANDS,
                    A::MEMORY_READ | A::MEMORY_WRITE,
                )
                .on(t.region)
                .with_ownership_transfer(from, to);
                self.checkers[q.0 as usize].apply(&[ResolvedBarrier::of(&acquire, layout)]);
                self.touch(q, whole);
                needs.barriers.push(acquire);
                self.holders[i].stages = S::empty();
                self.holders[i].writes = A::empty();
            }
            let h = &mut self.holders[i];
            h.queue = q;
            h.stages |= t.stages;
            h.writes |= t.writes;
        }
        // The layout transitions are command `index - 1`, in the same
        // `vkCmdPipelineBarrier2` as the barriers placed for the command.
        let Queues {
            checkers,
            transition_dst,
            ..
        } = self;
        let checker = &mut checkers[q.0 as usize];
        let chain = |k: usize| transition_dst.get(&k).copied();
        let tracked = online::Tracked {
            transitions: transitions.as_ref(),
            chain: Some(&chain),
        };
        let b = online::before(checker, layout, form, None, tracked, index, acc);
        checker.record(index, acc);
        needs.barriers.extend(b.barriers);
        needs.submit_and_wait = b.submit_wait;
        if let Some(dep) = &transitions {
            let stages = dep.barriers.iter().fold(S::empty(), |s, b| s | b.dst_stage_mask);
            self.transition_dst.insert(index - 1, stages);
            for b in &dep.barriers {
                // Invariant: the tracker's transitions are over a region.
                let Some(region) = b.region else { continue };
                let at = layout.at(region);
                self.touch(
                    q,
                    Touch {
                        mem: at.mem,
                        range: at.range,
                        write: true,
                    },
                );
            }
        }
        for a in acc {
            self.touch(
                q,
                Touch {
                    mem: a.mem,
                    range: a.range,
                    write: a.sa.is_write(),
                },
            );
        }
        needs
    }

    /// The first scopes the layout transitions `parts` (command `index`
    /// on `q`, each with an empty first scope and the index of the image
    /// barrier it is part of, `groups` of them) need against `q`'s state,
    /// per image barrier: the union of the fixes of its parts' hazards
    /// (every earlier access of their bytes not ordered before them yet),
    /// then thinned bit by bit while no part has a hazard. The union is
    /// not minimal: each fix is found alone, and one prior may be ordered
    /// through another's bits (a write ordered before an earlier
    /// transition that a later read followed is ordered by the read's
    /// stage).
    pub(super) fn transition_sources(
        &mut self,
        layout: &Layout,
        q: QueueId,
        index: usize,
        parts: &[(usize, Barrier)],
        groups: usize,
    ) -> Vec<(S, A)> {
        let checker = &mut self.checkers[q.0 as usize];
        // Each part's write, found once (it does not depend on the masks
        // being thinned): the one home of a transition's access.
        let call = Dependency {
            barriers: parts.iter().map(|&(_, b)| b).collect(),
        };
        let writes = crate::ir::access::transitions(&call, layout);
        let mut src = vec![(S::empty(), A::empty()); groups];
        // Each image barrier's parts with their writes (an image of many
        // layers in alternating layouts has as many barriers as parts).
        let mut of_group: Vec<Vec<(&Barrier, &Access)>> = vec![Vec::new(); groups];
        for (i, w) in &writes {
            let (g, b) = &parts[*i];
            of_group[*g].push((b, w));
            for raw in checker.detect_transition(index, w, &ResolvedBarrier::of(b, layout)) {
                if let Some(fix) = crate::hazard::lift(&raw, w).fix.barrier {
                    src[*g].0 |= fix.src_stage_mask;
                    src[*g].1 |= fix.src_access_mask;
                }
            }
        }
        for (g, masks) in src.iter_mut().enumerate() {
            let mut clean = |m: (S, A)| {
                of_group[g].iter().all(|&(b, w)| {
                    let b = Barrier {
                        src_stage_mask: m.0,
                        src_access_mask: if m.0.is_empty() { A::NONE } else { m.1 },
                        ..*b
                    };
                    checker
                        .detect_transition(index, w, &ResolvedBarrier::of(&b, layout))
                        .is_empty()
                })
            };
            // A stage goes with the accesses no other stage left makes.
            let supported = |stages: S, access: A| {
                access
                    .iter()
                    .filter(|&a| crate::vk::scope::validate(stages, a, crate::vk::scope::Side::Src).is_ok())
                    .fold(A::empty(), |x, a| x | a)
            };
            for bit in masks.0.iter() {
                let stages = masks.0 & !bit;
                let fewer = (stages, supported(stages, masks.1));
                if clean(fewer) {
                    *masks = fewer;
                }
            }
            for bit in masks.1.iter() {
                let fewer = (masks.0, masks.1 & !bit);
                if clean(fewer) {
                    *masks = fewer;
                }
            }
            if masks.0.is_empty() {
                masks.1 = A::NONE;
            }
        }
        src
    }

    /// A host command on a tracker with several queues: each queue's
    /// barrier to `HOST`, submit and fence wait, as its checker needs.
    pub(super) fn host_command(
        &mut self,
        layout: &Layout,
        form: BarrierForm,
        index: usize,
        acc: &[Access],
    ) -> Result<Needs, TrackerError> {
        let mut needs = Needs::default();
        for i in 0..self.queues.len() {
            let Queues {
                checkers,
                transition_dst,
                ..
            } = &mut *self;
            let chain = |k: usize| transition_dst.get(&k).copied();
            let tracked = online::Tracked {
                transitions: None,
                chain: Some(&chain),
            };
            let b = online::before(&mut checkers[i], layout, form, None, tracked, index, acc);
            self.checkers[i].record(index, acc);
            if b.barriers.is_empty() && !b.submit_wait {
                continue;
            }
            let q = QueueId(i as u32);
            let submit_and_wait = if b.submit_wait {
                // A release this queue acquires goes first: its queue is
                // submitted (and waited for) before this one.
                while let Some(&(from, _)) = self.releases.iter().find(|(from, to)| *to == q && *from != q) {
                    let plain = Submission {
                        queue: from,
                        ..Submission::default()
                    };
                    let s = self.submit_inner("command", &plain, true)?;
                    self.host_wait_queue(from);
                    needs.queues.push(QueueNeeds {
                        queue: from,
                        barriers: Vec::new(),
                        submit_and_wait: Some(s),
                    });
                }
                let s = self.submit_inner(
                    "command",
                    &Submission {
                        queue: q,
                        ..Submission::default()
                    },
                    false,
                )?;
                self.host_wait_queue(q);
                Some(s)
            } else {
                None
            };
            needs.queues.push(QueueNeeds {
                queue: q,
                barriers: b.barriers,
                submit_and_wait,
            });
        }
        Ok(needs)
    }

    pub(super) fn submit(&mut self, what: &'static str, s: &Submission) -> Result<SubmitNeeds, TrackerError> {
        self.submit_inner(what, s, true)
    }

    fn sem_error(what: &'static str, (o, kind): (SemOperand, ProgramErrorKind)) -> TrackerError {
        TrackerError::Semaphore {
            what,
            operand: operand(o),
            kind,
        }
    }

    /// A submit to `s.queue`: validated, what it must wait for found and
    /// applied, then recorded. `own` says whether `q`'s checker is still to
    /// be told (a host command's planner told it already).
    fn submit_inner(
        &mut self,
        what: &'static str,
        s: &Submission,
        own: bool,
    ) -> Result<SubmitNeeds, TrackerError> {
        let q = s.queue;
        self.check_queue(what, q)?;
        for w in &s.waits {
            self.check_semaphore(what, w.semaphore)?;
        }
        for g in &s.signals {
            self.check_semaphore(what, g.semaphore)?;
        }
        if let Some(&(from, _)) = self.releases.iter().find(|(from, to)| *to == q && *from != q) {
            return Err(TrackerError::ReleaseNotSubmitted {
                queue: q.0,
                from: from.0,
            });
        }
        // The runtime's own semaphores first, on copies: nothing changes
        // when they are refused. The batch's stages are not given
        // (`StageSet::EMPTY`): a binary wait with a mask narrower than
        // `ALL_COMMANDS` is then known complete by a fence only, as the
        // module `completion` took every such wait before review37
        // (conservative: a refusal the trace parser would not make).
        let ordinal = self.completion.next_ordinal();
        let mut states = self.states.clone();
        states
            .submit(&self.semaphores, s, ordinal)
            .map_err(|e| Self::sem_error(what, e))?;
        self.completion
            .clone()
            .submit(
                q,
                (&s.waits, &s.signals),
                StageSet::EMPTY,
                semaphore_name,
                queue_name,
                &|x, v| states.first_reaching(x, v),
            )
            .map_err(|e| Self::sem_error(what, e))?;
        let mut full = s.clone();
        let needs = self.cross_needs(&mut full);
        self.states
            .submit(&self.semaphores, &full, ordinal)
            .map_err(|e| Self::sem_error(what, e))?;
        let ordinal = self
            .completion
            .submit(
                q,
                (&full.waits, &full.signals),
                StageSet::EMPTY,
                semaphore_name,
                queue_name,
                &|x, v| self.states.first_reaching(x, v),
            )
            .map_err(|e| Self::sem_error(what, e))?;
        for w in full.waits.iter().filter(|w| w.value.is_none()) {
            if let Some(i) = self.pending.iter().position(|p| p.semaphore == w.semaphore) {
                self.pending.remove(i);
            }
        }
        for g in full.signals.iter().filter(|g| g.value.is_none()) {
            self.pending.push(Pending {
                semaphore: g.semaphore,
                queue: q,
                ordinal,
                all: g.stages.contains(S::ALL_COMMANDS),
            });
        }
        let touches = std::mem::take(&mut self.open[q.0 as usize]);
        if !touches.is_empty() {
            self.batches.push(Batch {
                queue: q,
                ordinal,
                touches,
            });
        }
        self.last[q.0 as usize] = Some(ordinal);
        self.submitted[q.0 as usize] += 1;
        self.releases.retain(|(from, _)| *from != q);
        if own {
            self.checkers[q.0 as usize].submit();
        }
        Ok(needs)
    }

    /// What the batch `full` describes must wait for beyond its own
    /// waits: added to `full.waits` (semaphores) or done (host waits).
    fn cross_needs(&mut self, full: &mut Submission) -> SubmitNeeds {
        let mut needs = SubmitNeeds::default();
        let q = full.queue;
        let open = &self.open[q.0 as usize];
        // Per other queue, the latest batch this one conflicts with.
        let mut need: Vec<(QueueId, usize)> = Vec::new();
        for b in self.batches.iter().filter(|b| b.queue != q) {
            let conflicts = b.touches.iter().any(|&x| open.iter().any(|&y| x.conflicts(y)));
            if !conflicts {
                continue;
            }
            match need.iter_mut().find(|(p, _)| *p == b.queue) {
                Some((_, k)) => *k = (*k).max(b.ordinal),
                None => need.push((b.queue, b.ordinal)),
            }
        }
        need.sort();
        for (p, k) in need {
            if self.completion.ordered_after(q, &full.waits).covers(p, k) {
                continue;
            }
            let candidate = self
                .pending
                .iter()
                .filter(|s| s.queue == p && s.ordinal >= k && s.all)
                .filter(|s| !full.waits.iter().any(|w| w.semaphore == s.semaphore))
                .map(|s| SemaphoreWait {
                    semaphore: s.semaphore,
                    value: None,
                    stages: S::ALL_COMMANDS,
                })
                .find(|w| {
                    let mut waits = full.waits.clone();
                    waits.push(*w);
                    self.completion
                        .clone()
                        .submit(
                            q,
                            (&waits, &full.signals),
                            StageSet::EMPTY,
                            semaphore_name,
                            queue_name,
                            &|x, v| self.states.first_reaching(x, v),
                        )
                        .is_ok()
                });
            match candidate {
                Some(wait) => {
                    full.waits.push(wait);
                    needs.waits.push(NeededWait {
                        wait,
                        queue: p,
                        batch: k,
                    });
                }
                None => {
                    self.host_wait_queue(p);
                    needs.host_waits.push(p);
                }
            }
        }
        needs
    }

    /// After a host wait: each queue whose every submit the host now knows
    /// complete had its fence waited for, and batches the host knows
    /// complete conflict with nothing later.
    fn after_host_wait(&mut self) {
        for (i, last) in self.last.iter().enumerate() {
            if let Some(k) = *last {
                if self.completion.host_knows(QueueId(i as u32), k) {
                    self.checkers[i].wait();
                }
            }
        }
        let completion = &self.completion;
        self.batches
            .retain(|b| !completion.host_knows(b.queue, b.ordinal));
    }

    pub(super) fn host_wait_all(&mut self) {
        self.completion.host_waited(WaitFor::All);
        for c in &mut self.checkers {
            c.wait();
        }
        self.batches.clear();
    }

    pub(super) fn host_wait_queue(&mut self, q: QueueId) {
        self.completion.host_waited(WaitFor::Queue(q));
        self.after_host_wait();
    }

    pub(super) fn host_wait_value(
        &mut self,
        what: &'static str,
        sem: SemaphoreId,
        value: u64,
    ) -> Result<(), TrackerError> {
        self.check_semaphore(what, sem)?;
        let semaphores = &self.semaphores;
        self.states
            .wait(semaphores, sem, Some(value))
            .map_err(host_operand(what))?;
        let initial = semaphores[sem.0 as usize].kind.initial_value();
        self.completion.host_waited_value(sem, value, initial);
        self.after_host_wait();
        Ok(())
    }

    pub(super) fn host_signal(
        &mut self,
        what: &'static str,
        sem: SemaphoreId,
        value: u64,
    ) -> Result<(), TrackerError> {
        self.check_semaphore(what, sem)?;
        let completion = &self.completion;
        self.states
            .host_signal(&self.semaphores, sem, value, completion)
            .map_err(host_operand(what))?;
        if matches!(
            self.semaphores[sem.0 as usize].kind,
            SemaphoreType::Timeline { .. }
        ) {
            self.completion.host_signal(sem, value);
        }
        Ok(())
    }
}

/// The error of a host wait or signal that breaks a semaphore rule, for
/// `map_err` (the operand is the host).
fn host_operand(what: &'static str) -> impl FnOnce(ProgramErrorKind) -> TrackerError {
    move |kind| TrackerError::Semaphore {
        what,
        operand: "host".to_string(),
        kind,
    }
}
