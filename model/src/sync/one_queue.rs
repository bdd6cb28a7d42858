//! The one-queue form of a program whose semaphores only chain each batch
//! of its one queue to the batch right before it, and whose host waits on
//! a timeline wait for the last batch submitted: the same program with
//! each semaphore wait a global barrier at the start of its batch and each
//! host wait a `wait`. The single-queue checker decides that form, where
//! the multi-queue walk refuses the program (rendering with semaphores:
//! every wgpu program that draws, which submits each command buffer
//! waiting on a binary semaphore the previous submission signalled, and
//! polls a timeline; the definitional semantics took 10.8 s for 20 of its
//! frames, `docs/capture.md`, "wgpu rendering").
//!
//! Why the two are the same program ("Semaphore Signaling", "Semaphore
//! Waiting"): a signal's first synchronization scope is every command of
//! its queue earlier in submission order in its stages, its first access
//! scope every memory access of the device; a wait's second
//! synchronization scope every command later in submission order in its
//! stages, its second access scope every memory access. With the signal in
//! the batch right before the waiting one on the same queue, no command
//! lies between them in submission order, so a pipeline barrier recorded
//! first in the waiting batch, `SIGNAL_STAGES:MEMORY_WRITE ->
//! WAIT_STAGES:MEMORY_READ|MEMORY_WRITE`, has those scopes ("the first
//! synchronization scope includes all commands that occur earlier in
//! submission order"), once its masks name the logically earlier
//! (signal) and later (wait) stages too: a barrier's access scopes hold
//! the stages its masks name only, a semaphore's every access of its
//! synchronization scopes. A host wait for the value a signal with
//! `ALL_COMMANDS` of the last batch submitted sets waits for every command
//! submitted, as a fence wait of that batch does (`wait`); one for a value
//! the semaphore already had waits for nothing; one for an older batch's
//! value followed by one for the last batch's, with no other host
//! operation between (wgpu's polls), orders nothing the second does not. Anything else (several
//! queues, a wait on an older batch's signal, a host signal, an ownership
//! transfer) has no such form: `None`, and the program goes where it went
//! before. `proptests/tests/spec_differential.rs`,
//! `fast_checker_equals_definitional_semantics_with_rendering_on_semaphores`,
//! holds what the single-queue checker finds in the form equal to what the
//! definitional semantics finds in the program, on random rendering
//! programs with semaphores and host waits of each kind.
//!
//! It owns the transformation and the map back to the program's command
//! indices; it does not check anything.

use crate::ir::program::{Barrier, Command, Dependency, Program};
use crate::ir::queue::QueueId;
use crate::ir::queue::{SemaphoreId, SemaphoreType, Submission, WaitFor};
use crate::vk::scope::{exec_scope, Side};
use crate::vk::{AccessFlags2, PipelineStageFlags2};

/// A program's one-queue form ([`one_queue_form`]).
pub(crate) struct OneQueueForm {
    /// The form.
    pub(crate) program: Program,
    /// For each command of the form, the program's command it stands for
    /// (`None`: a barrier made of a semaphore wait).
    pub(crate) origin: Vec<Option<usize>>,
}

impl OneQueueForm {
    /// The program's command index of the form's command `k`. Only the
    /// inserted barriers have none, and they access nothing, so no hazard
    /// names one; `k` is kept for them.
    pub(crate) fn back(&self, k: usize) -> usize {
        self.origin.get(k).copied().flatten().unwrap_or(k)
    }
}

/// The stages of `mask`'s synchronization scope on `side`, each named:
/// `ALL_COMMANDS` when that is all of them.
fn named(mask: PipelineStageFlags2, side: Side) -> PipelineStageFlags2 {
    let scope = exec_scope(mask, side);
    if scope == exec_scope(PipelineStageFlags2::ALL_COMMANDS, side) {
        PipelineStageFlags2::ALL_COMMANDS
    } else {
        scope.flags()
    }
}

/// The one-queue form of `program`, if it has one (see the module doc).
pub(crate) fn one_queue_form(program: &Program) -> Option<OneQueueForm> {
    let sems = program.semaphores.len();
    // Per binary semaphore: the batch and stages of its pending signal.
    let mut pending: Vec<Option<(usize, PipelineStageFlags2)>> = vec![None; sems];
    // Per timeline semaphore: every signal of the program (value, batch,
    // stages), in order, and how many of them the walk has passed.
    let mut timeline: Vec<Vec<(u64, usize, PipelineStageFlags2)>> = vec![Vec::new(); sems];
    let mut passed: Vec<usize> = vec![0; sems];
    let mut batches = 0usize;
    for c in &program.commands {
        if let Command::Submit(s) = c {
            for sig in &s.signals {
                if let (Some(list), Some(v)) = (timeline.get_mut(sig.semaphore.0 as usize), sig.value) {
                    list.push((v, batches, sig.stages));
                }
            }
            batches += 1;
        }
    }
    let initial = |s: SemaphoreId| match program.semaphores.get(s.0 as usize).map(|x| x.kind) {
        Some(SemaphoreType::Timeline { initial }) => Some(initial),
        _ => None,
    };
    // The signal a timeline wait for `v` of `s` pairs with, among the
    // first `end` signals of `s`: the first that reaches `v` (signals on
    // one queue happen in submission order, and a timeline's values
    // grow), if it dominates the later candidates up to `end`, each of
    // which has a first synchronization scope holding its own
    // (`crate::sync::candidates`: every candidate is then ordered after
    // what it is ordered after, which the definitional semantics' reading
    // of several candidates asks). Its batch and stages.
    let pairs_with = |s: SemaphoreId, v: u64, end: usize| -> Option<(usize, PipelineStageFlags2)> {
        let list = timeline.get(s.0 as usize)?;
        let end = end.min(list.len());
        let i = list[..end].iter().position(|(value, _, _)| *value >= v)?;
        let (_, b, stages) = list[i];
        let scope = exec_scope(stages, Side::Src);
        list[i + 1..end]
            .iter()
            .all(|(_, _, d)| {
                let d = exec_scope(*d, Side::Src);
                d.union(scope) == d
            })
            .then_some((b, stages))
    };
    let mut commands: Vec<Command> = Vec::with_capacity(program.commands.len());
    let mut origin: Vec<Option<usize>> = Vec::with_capacity(program.commands.len());
    // The batch being recorded, and where its commands start in the form.
    let mut batch = 0usize;
    let mut batch_start = 0usize;
    for (i, c) in program.commands.iter().enumerate() {
        match c {
            Command::Submit(s) => {
                if s.queue != QueueId(0) {
                    return None;
                }
                let mut barriers = Vec::new();
                for w in &s.waits {
                    let k = w.semaphore.0 as usize;
                    let signal_stages = match (initial(w.semaphore), w.value) {
                        (None, _) => {
                            let (b, stages) = pending.get_mut(k)?.take()?;
                            (b + 1 == batch).then_some(stages)?
                        }
                        (Some(init), Some(v)) if v <= init => continue,
                        (Some(_), Some(v)) => {
                            // Every signal of the program may be a
                            // candidate of a device wait.
                            let (b, stages) = pairs_with(w.semaphore, v, usize::MAX)?;
                            (b + 1 == batch).then_some(stages)?
                        }
                        (Some(_), None) => return None,
                    };
                    // The semaphore's access scopes are every access in
                    // its synchronization scopes, logically earlier and
                    // later stages included, where a barrier's covers the
                    // stages its masks name only: so it names them all.
                    barriers.push(Barrier::global(
                        named(signal_stages, Side::Src),
                        AccessFlags2::MEMORY_WRITE,
                        named(w.stages, Side::Dst),
                        AccessFlags2::MEMORY_READ | AccessFlags2::MEMORY_WRITE,
                    ));
                }
                for sig in &s.signals {
                    let k = sig.semaphore.0 as usize;
                    match (initial(sig.semaphore), sig.value) {
                        (None, _) => *pending.get_mut(k)? = Some((batch, sig.stages)),
                        (Some(_), Some(_)) => *passed.get_mut(k)? += 1,
                        (Some(_), None) => return None,
                    }
                }
                if !barriers.is_empty() {
                    // First in the batch: before its first recorded
                    // command (host commands in between run in place).
                    let at = (batch_start..commands.len())
                        .find(|&j| crate::ir::execution::recorded(&commands[j]))
                        .unwrap_or(commands.len());
                    commands.insert(at, Command::Barrier(Dependency { barriers }));
                    origin.insert(at, None);
                }
                commands.push(Command::Submit(Submission::default()));
                origin.push(Some(i));
                batch += 1;
                batch_start = commands.len();
            }
            Command::HostWait { semaphore, value } => {
                if initial(*semaphore).is_some_and(|init| *value <= init) {
                    // Satisfied already: it waits for nothing.
                    continue;
                }
                // A wait for the last batch submitted, as a fence wait.
                // (A host wait happens before every later submission:
                // only the signals passed are its candidates.)
                let full = |semaphore: SemaphoreId, value: u64| {
                    let end = passed.get(semaphore.0 as usize).copied().unwrap_or(0);
                    pairs_with(semaphore, value, end).is_some_and(|(b, stages)| {
                        b + 1 == batch && stages == PipelineStageFlags2::ALL_COMMANDS
                    })
                };
                if full(*semaphore, *value) {
                    commands.push(Command::Wait(WaitFor::All));
                    origin.push(Some(i));
                    continue;
                }
                // A wait for an older batch (a poll that saw an older
                // value) followed, before any other host operation, by a
                // wait for the last batch orders nothing that one does
                // not: dropped. (Recorded commands in between run at
                // their submit, after both.)
                let next = program.commands[i + 1..]
                    .iter()
                    .find(|c| !crate::ir::execution::recorded(c));
                let covered = match next {
                    Some(Command::Wait(WaitFor::All | WaitFor::Queue(QueueId(0)))) => true,
                    Some(Command::HostWait { semaphore, value }) => full(*semaphore, *value),
                    _ => false,
                };
                let reached = timeline.get(semaphore.0 as usize).is_some_and(|list| {
                    let end = passed
                        .get(semaphore.0 as usize)
                        .copied()
                        .unwrap_or(0)
                        .min(list.len());
                    list[..end].iter().any(|(v, _, _)| v >= value)
                });
                if !covered || !reached {
                    return None;
                }
            }
            Command::Wait(WaitFor::Queue(q)) if *q != QueueId(0) => return None,
            Command::HostSignal { .. } => return None,
            Command::Barrier(d) if d.barriers.iter().any(|b| b.transfer().is_some()) => return None,
            _ => {
                commands.push(c.clone());
                origin.push(Some(i));
            }
        }
    }
    let mut form = program.clone();
    form.commands = commands;
    if form.first_multi_queue_command().is_some() {
        return None;
    }
    Some(OneQueueForm {
        program: form,
        origin,
    })
}

#[cfg(test)]
mod tests {
    //! Each case: a program, and its one-queue form's commands (the
    //! declarations left out) or `None`.
    use super::one_queue_form;

    const HEAD: &str = "semaphore b0\nsemaphore b1\nsemaphore t timeline\nbuffer a 64\n";

    /// The form's command lines of `HEAD` + `body`, or `None`.
    fn form(body: &str) -> Option<Vec<String>> {
        let text = format!("{HEAD}{body}");
        let t = crate::trace::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let f = one_queue_form(&t.program)?;
        assert_eq!(f.origin.len(), f.program.commands.len());
        Some(
            f.program
                .commands
                .iter()
                .map(|c| crate::trace::print_command(&f.program, c))
                .collect(),
        )
    }

    #[test]
    fn semaphores_between_consecutive_batches_become_barriers() {
        let cases: &[(&str, &str, Option<&[&str]>)] = &[
            (
                "a binary wait for the batch before: a barrier first in the batch, naming the logically \
                 earlier and later stages",
                "dispatch k write a[0..64]\nsubmit signal b0@COMPUTE_SHADER\nhost-write a[0..4]\ncopy a[0..4] -> a[8..12]\nsubmit wait b0@FRAGMENT_SHADER\n",
                Some(&[
                    "dispatch k write a[0..64]",
                    "submit",
                    "host-write a[0..4] 0",
                    "barrier DRAW_INDIRECT|COMPUTE_SHADER:MEMORY_WRITE -> FRAGMENT_SHADER|LATE_FRAGMENT_TESTS|COLOR_ATTACHMENT_OUTPUT:MEMORY_READ|MEMORY_WRITE",
                    "copy a[0..4] -> a[8..12]",
                    "submit",
                ]),
            ),
            (
                "a wait for an older batch",
                "fill a[0..64] 1\nsubmit signal b0\nsubmit\nfill a[0..4] 2\nsubmit wait b0@COPY\n",
                None,
            ),
            (
                "a timeline wait for the batch before's value",
                "fill a[0..64] 1\nsubmit signal t:1\nfill a[0..4] 2\nsubmit wait t:1@CLEAR signal t:2\n",
                Some(&[
                    "fill a[0..64] 1",
                    "submit",
                    "barrier ALL_COMMANDS:MEMORY_WRITE -> CLEAR:MEMORY_READ|MEMORY_WRITE",
                    "fill a[0..4] 2",
                    "submit",
                ]),
            ),
            (
                "a timeline wait a later signal in fewer stages may satisfy too",
                "fill a[0..64] 1\nsubmit signal t:1\nfill a[0..4] 2\nsubmit wait t:1@CLEAR signal t:2@COPY\n",
                None,
            ),
            (
                "a host wait for the last batch: a fence wait; for an older one then the last: dropped; \
                 for the initial value: dropped",
                "fill a[0..64] 1\nsubmit signal t:1\nfill a[0..4] 2\nsubmit signal t:2\nhost-wait t 1\nhost-wait t 2\nhost-wait t 0\nhost-read a[0..4]\n",
                Some(&["fill a[0..64] 1", "submit", "fill a[0..4] 2", "submit", "wait", "host-read a[0..4]"]),
            ),
            (
                "a host wait for an older batch alone",
                "fill a[0..64] 1\nsubmit signal t:1\nfill a[0..4] 2\nsubmit signal t:2\nhost-wait t 1\nhost-read a[0..4]\n",
                None,
            ),
            (
                "a host wait for a signal in fewer stages than a fence wait",
                "fill a[0..64] 1\nsubmit signal t:1@CLEAR\nhost-wait t 1\n",
                None,
            ),
            ("a second queue", "queue q0\nqueue q1\nfill a[0..64] 1\nsubmit q1\n", None),
            ("a host signal", "host-signal t 1\nfill a[0..64] 1\nsubmit wait t:1@CLEAR\n", None),
        ];
        for (what, body, want) in cases {
            let got = form(body);
            let want: Option<Vec<String>> = want.map(|w| w.iter().map(|s| s.to_string()).collect());
            assert_eq!(got, want, "{what}");
        }
    }
}
