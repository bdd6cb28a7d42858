//! When each command of a program executes: the one statement of the rule
//! "a command recorded in a command buffer runs when its batch is
//! submitted; a host operation runs where it stands in the trace".
//!
//! This module owns the walk both fast checkers take ([`steps`],
//! [`order`]) and the notes on order ([`order_notes`]): a host access
//! between recording a command and submitting it happens before that
//! command ("Host Write Ordering Guarantees": the first synchronization
//! scope of `vkQueueSubmit` holds everything that happened before it on
//! the host), so the pair is ordered, the other way round from the trace.
//! That is no race; it is reported as a note, because the trace's author
//! may not expect the copy to read the host's new value, or the host to
//! read before the fill runs. It does not decide races (the checkers and
//! the definitional semantics do, over this order) and does not validate
//! the program (`resolve` does).
//!
//! Invariants: [`order`] is a permutation of the command indices; inside
//! it, the commands of one batch keep their trace order and come right
//! before their `submit`; host operations keep their trace order and
//! their place relative to every `submit`. It is a linear extension of
//! happens-before for the orders the walks decide (the multi-queue walk's
//! own refusals cover the timeline waits it is not, `crate::sync::queues`).

use crate::ir::access::{accesses, is_host, Access};
use crate::ir::layout::{resolve, Layout, MemRange, ProgramError};
use crate::ir::program::{ByteRange, Command, Program, Region};
use crate::semantics::Semantics;
use crate::vk::scope::StageAccess;

/// One step of the execution walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A host operation (or an allocator call, which is no Vulkan command
    /// and touches no memory), in place.
    Host(usize),
    /// A batch: its commands in trace order, its queue, its `submit`
    /// (`None` for the commands still recorded at the end of the trace,
    /// which are taken as submitted then, to the first queue).
    Batch {
        cmds: Vec<usize>,
        queue: usize,
        submit: Option<usize>,
    },
}

/// Whether `c` is recorded into a command buffer (and so runs at its
/// batch's submit) rather than executed by the host where it stands.
pub(crate) fn recorded(c: &Command) -> bool {
    match c {
        Command::Alloc { .. }
        | Command::Free { .. }
        | Command::HostWrite { .. }
        | Command::HostRead { .. }
        | Command::Submit(_)
        | Command::Wait(_)
        | Command::HostSignal { .. }
        | Command::HostWait { .. } => false,
        // The host's event operations keep their trace position among the
        // recorded commands: the event rules (module `event`) and the
        // definitional semantics pair a wait with the set before it in the
        // trace, and moving a host set ahead of a device set and reset of
        // the same batch would pair it otherwise.
        Command::HostSetEvent { .. } | Command::HostResetEvent { .. } => true,
        Command::Copy { .. }
        | Command::CopyImage { .. }
        | Command::Image(_)
        | Command::Render(_)
        | Command::Fill { .. }
        | Command::Update { .. }
        | Command::Dispatch { .. }
        | Command::Barrier(_)
        | Command::SetEvent { .. }
        | Command::WaitEvents { .. }
        | Command::SetEvent1 { .. }
        | Command::WaitEvents1 { .. }
        | Command::ResetEvent { .. } => true,
    }
}

/// The program as it executes: host operations in place, each batch at
/// its `submit`.
pub(crate) fn steps(program: &Program) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut batch: Vec<usize> = Vec::new();
    for (i, c) in program.commands.iter().enumerate() {
        match c {
            Command::Submit(s) => steps.push(Step::Batch {
                cmds: std::mem::take(&mut batch),
                queue: s.queue.0 as usize,
                submit: Some(i),
            }),
            _ if recorded(c) => batch.push(i),
            _ => steps.push(Step::Host(i)),
        }
    }
    if !batch.is_empty() {
        steps.push(Step::Batch {
            cmds: batch,
            queue: 0,
            submit: None,
        });
    }
    steps
}

/// [`steps`] flattened: every command index once, each batch's commands
/// right before their `submit`.
pub(crate) fn order(program: &Program) -> Vec<usize> {
    flatten(program, steps(program))
}

/// [`steps_after_signals`] flattened: the order the image layout rules
/// follow (`crate::ir::image`).
pub(crate) fn order_after_signals(program: &Program) -> Vec<usize> {
    flatten(program, steps_after_signals(program))
}

/// One semaphore wait of a batch, as [`steps_after_signals`] needs it.
enum Needs {
    /// A timeline wait: the semaphore reaches the value.
    Value(usize, u64),
    /// A binary wait: the step whose batch holds the signal it pairs with
    /// (the pending one in trace order, VUID-vkQueueSubmit-pWaitSemaphores-03238).
    Step(usize),
}

/// [`steps`] with each batch moved after the steps its semaphore waits
/// wait for: a batch whose timeline wait no earlier step satisfies (a
/// wait submitted before its signal, which "Semaphore Waiting" allows for
/// timeline semaphores) runs after the step that first reaches the value,
/// and so does every later batch of its queue (kept in submission order,
/// a conservative choice: a later batch may depend on the waiting one
/// through the wait's second synchronization scope). Host steps keep their
/// place. On a program with no wait-before-signal this is [`steps`]
/// itself, the walk of the multi-queue fast checker, which refuses the
/// others (`crate::sync::queues`); on those it extends that linear
/// extension of happens-before to the batch order their waits guarantee.
///
/// A batch still blocked at the end (a wait met only by a later batch of
/// its own queue whose signal's first scope shares no stage with the
/// wait's second, which `crate::ir::progress` lets complete) is placed at
/// the end in submission order: the order is then submission order for it,
/// as before this function existed.
pub(crate) fn steps_after_signals(program: &Program) -> Vec<Step> {
    let steps = steps(program);
    let sems = program.semaphores.len();
    let mut pending: Vec<Option<usize>> = vec![None; sems];
    let mut needs: Vec<Vec<Needs>> = Vec::with_capacity(steps.len());
    for (k, step) in steps.iter().enumerate() {
        let mut n = Vec::new();
        if let Step::Batch { submit: Some(at), .. } = step {
            if let Command::Submit(sub) = &program.commands[*at] {
                for w in &sub.waits {
                    let sem = w.semaphore.0 as usize;
                    match w.value {
                        Some(v) => n.push(Needs::Value(sem, v)),
                        None => n.extend(pending.get_mut(sem).and_then(Option::take).map(Needs::Step)),
                    }
                }
                for g in sub.signals.iter().filter(|g| g.value.is_none()) {
                    if let Some(p) = pending.get_mut(g.semaphore.0 as usize) {
                        *p = Some(k);
                    }
                }
            }
        }
        needs.push(n);
    }
    if needs.iter().all(Vec::is_empty) {
        return steps;
    }
    let mut reached: Vec<u64> = program
        .semaphores
        .iter()
        .map(|s| s.kind.initial_value())
        .collect();
    let mut emitted = vec![false; steps.len()];
    let queues = steps
        .iter()
        .filter_map(|s| match s {
            Step::Batch { queue, .. } => Some(*queue + 1),
            Step::Host(_) => None,
        })
        .max()
        .unwrap_or(0);
    let mut deferred: Vec<std::collections::VecDeque<usize>> = vec![Default::default(); queues];
    let mut out: Vec<usize> = Vec::with_capacity(steps.len());
    let ready = |k: usize, reached: &[u64], emitted: &[bool]| {
        needs[k].iter().all(|n| match *n {
            Needs::Value(sem, v) => reached.get(sem).is_some_and(|&x| x >= v),
            Needs::Step(j) => emitted[j],
        })
    };
    let mut emit = |k: usize, reached: &mut Vec<u64>, emitted: &mut Vec<bool>| {
        emitted[k] = true;
        out.push(k);
        for (sem, v) in timeline_ops(program, &steps[k], Side::Signal) {
            if let Some(x) = reached.get_mut(sem) {
                *x = (*x).max(v);
            }
        }
    };
    for (k, step) in steps.iter().enumerate() {
        match step {
            Step::Host(_) => emit(k, &mut reached, &mut emitted),
            Step::Batch { queue, .. } => {
                if deferred[*queue].is_empty() && ready(k, &reached, &emitted) {
                    emit(k, &mut reached, &mut emitted);
                } else {
                    deferred[*queue].push_back(k);
                    continue;
                }
            }
        }
        // What this step signalled may release deferred batches, and what
        // they signal others: until nothing moves.
        loop {
            let mut moved = false;
            for q in deferred.iter_mut() {
                while let Some(&h) = q.front() {
                    if !ready(h, &reached, &emitted) {
                        break;
                    }
                    q.pop_front();
                    emit(h, &mut reached, &mut emitted);
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
    }
    let mut rest: Vec<usize> = deferred.into_iter().flatten().collect();
    rest.sort_unstable();
    out.extend(rest);
    let mut steps: Vec<Option<Step>> = steps.into_iter().map(Some).collect();
    out.into_iter().filter_map(|k| steps[k].take()).collect()
}

/// Whether the step (batch or host operation) holding command `a` may
/// happen before the one holding command `b`: an over-approximation of
/// happens-before between batches, for naming an unordered pair, never for
/// accepting a program. Edges: host program order (a host operation
/// happens before every later submission); the batches of one queue in
/// submission order (within a queue the checkers decide the finer order);
/// a batch's wait after every step that signals its semaphore (any value
/// at least the wait's, or the binary signal it pairs with); `wait`,
/// `wait QUEUE` and `host-wait` after the batches they wait for.
pub(crate) fn may_happen_before(program: &Program, a: usize, b: usize) -> bool {
    let steps = steps(program);
    let mut step_of = vec![usize::MAX; program.commands.len()];
    for (k, s) in steps.iter().enumerate() {
        match s {
            Step::Host(i) => step_of[*i] = k,
            Step::Batch { cmds, submit, .. } => {
                for &i in cmds.iter().chain(submit) {
                    step_of[i] = k;
                }
            }
        }
    }
    let (Some(&from), Some(&to)) = (step_of.get(a), step_of.get(b)) else {
        return false;
    };
    // Per semaphore, the steps that signal it, with their value (`None`
    // for a binary signal).
    let mut signals: Vec<Vec<(usize, Option<u64>)>> = vec![Vec::new(); program.semaphores.len()];
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); steps.len()];
    let mut pending: Vec<Option<usize>> = vec![None; program.semaphores.len()];
    let mut last_host: Option<usize> = None;
    let mut last_of_queue: std::collections::HashMap<usize, usize> = Default::default();
    let mut batches: Vec<(usize, usize)> = Vec::new();
    for (k, s) in steps.iter().enumerate() {
        preds[k].extend(last_host);
        match s {
            Step::Host(i) => {
                match &program.commands[*i] {
                    Command::HostSignal { semaphore, value } => {
                        if let Some(v) = signals.get_mut(semaphore.0 as usize) {
                            v.push((k, Some(*value)));
                        }
                    }
                    Command::Wait(w) => preds[k].extend(
                        batches
                            .iter()
                            .filter(|(_, q)| match w {
                                crate::ir::queue::WaitFor::All => true,
                                crate::ir::queue::WaitFor::Queue(t) => t.0 as usize == *q,
                            })
                            .map(|&(j, _)| j),
                    ),
                    _ => {}
                }
                last_host = Some(k);
            }
            Step::Batch { queue, submit, .. } => {
                preds[k].extend(last_of_queue.insert(*queue, k));
                batches.push((k, *queue));
                if let Some(Command::Submit(sub)) = submit.map(|at| &program.commands[at]) {
                    for w in sub.waits.iter().filter(|w| w.value.is_none()) {
                        preds[k].extend(pending.get_mut(w.semaphore.0 as usize).and_then(Option::take));
                    }
                    for g in &sub.signals {
                        if let Some(v) = signals.get_mut(g.semaphore.0 as usize) {
                            v.push((k, g.value));
                        }
                        if g.value.is_none() {
                            if let Some(p) = pending.get_mut(g.semaphore.0 as usize) {
                                *p = Some(k);
                            }
                        }
                    }
                }
            }
        }
    }
    // Timeline waits, device and host, after every signal of a value at
    // least theirs, wherever it stands in the trace.
    let at_least = |sem: usize, v: u64| -> Vec<usize> {
        signals
            .get(sem)
            .map(|g| {
                g.iter()
                    .filter(|(_, x)| x.is_some_and(|x| x >= v))
                    .map(|&(k, _)| k)
                    .collect()
            })
            .unwrap_or_default()
    };
    for (k, s) in steps.iter().enumerate() {
        for (sem, v) in timeline_ops(program, s, Side::Wait) {
            let from_signals = at_least(sem, v);
            preds[k].extend(from_signals);
        }
    }
    // Backwards from `to`: is `from` an ancestor?
    let mut seen = vec![false; steps.len()];
    let mut stack = vec![to];
    while let Some(k) = stack.pop() {
        if k == from {
            return true;
        }
        if std::mem::replace(&mut seen[k], true) {
            continue;
        }
        stack.extend(preds[k].iter().copied().filter(|&j| !seen[j]));
    }
    false
}

/// Which semaphore operations [`timeline_ops`] lists.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Signal,
    Wait,
}

/// The timeline signal (or wait) operations of one step, `(semaphore,
/// value)`: a batch's, or the host's `host-signal` (`host-wait`).
fn timeline_ops(program: &Program, step: &Step, side: Side) -> Vec<(usize, u64)> {
    match step {
        Step::Host(i) => match (&program.commands[*i], side) {
            (Command::HostSignal { semaphore, value }, Side::Signal)
            | (Command::HostWait { semaphore, value }, Side::Wait) => vec![(semaphore.0 as usize, *value)],
            _ => Vec::new(),
        },
        Step::Batch { submit: Some(at), .. } => match &program.commands[*at] {
            // Waits and signals are two types with the same two fields.
            Command::Submit(sub) if side == Side::Signal => sub
                .signals
                .iter()
                .filter_map(|o| Some((o.semaphore.0 as usize, o.value?)))
                .collect(),
            Command::Submit(sub) => sub
                .waits
                .iter()
                .filter_map(|o| Some((o.semaphore.0 as usize, o.value?)))
                .collect(),
            _ => Vec::new(),
        },
        Step::Batch { .. } => Vec::new(),
    }
}

/// Every command index of `steps` once, each batch's commands right
/// before their `submit`.
fn flatten(program: &Program, steps: Vec<Step>) -> Vec<usize> {
    let mut out = Vec::with_capacity(program.commands.len());
    for s in steps {
        match s {
            Step::Host(i) => out.push(i),
            Step::Batch { cmds, submit, .. } => {
                out.extend(cmds);
                out.extend(submit);
            }
        }
    }
    out
}

/// A host access made after a command was recorded and before that
/// command's batch was submitted, to bytes the command also accesses, one
/// of the two a write: the host access happens first, the other way round
/// from the trace. Not a race (the submit orders the pair); a note on the
/// order, so the author can check it is the one meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OrderNote {
    /// The host access (`host-write` or `host-read`).
    pub host_command: usize,
    /// The recorded command, earlier in the trace, that runs after it.
    pub command: usize,
    /// The `submit` that runs `command`, after the host access; `None`
    /// when the command is still recorded at the end of the trace.
    pub submit: Option<usize>,
    /// The bytes both touch, in terms of the object the host access named.
    pub region: Region,
    /// The same bytes in memory.
    pub memory: MemRange,
    /// The host access's stage and access.
    pub host: StageAccess,
    /// The recorded command's stage and access on those bytes.
    pub device: StageAccess,
}

/// Every [`OrderNote`] of a program, ordered by host access, then by
/// recorded command. One per (host access, recorded access) pair, over
/// the bytes they share.
pub fn order_notes(program: &Program) -> Result<Vec<OrderNote>, ProgramError> {
    let layout = resolve(program)?;
    Ok(order_notes_resolved(program, &layout))
}

/// [`order_notes`] for a program already validated into `layout`.
pub(crate) fn order_notes_resolved(program: &Program, layout: &Layout) -> Vec<OrderNote> {
    let sem = Semantics::default();
    let mut out = Vec::new();
    // Device accesses recorded since the last submit, with their command.
    let mut batch: Vec<(usize, Access)> = Vec::new();
    // Notes waiting for their batch's submit.
    let mut open: Vec<OrderNote> = Vec::new();
    for (i, c) in program.commands.iter().enumerate() {
        match c {
            Command::Submit(_) => {
                batch.clear();
                out.extend(open.drain(..).map(|n| OrderNote { submit: Some(i), ..n }));
            }
            Command::HostWrite { .. } | Command::HostRead { .. } if !batch.is_empty() => {
                for h in accesses(c, layout, sem).into_iter().filter(|a| is_host(a.sa)) {
                    for (cmd, d) in &batch {
                        if d.mem != h.mem || (!d.sa.is_write() && !h.sa.is_write()) {
                            continue;
                        }
                        let start = d.range.start.max(h.range.start);
                        let end = d.range.end.min(h.range.end);
                        if start >= end {
                            continue;
                        }
                        let base = h.range.start - h.region.range.start;
                        open.push(OrderNote {
                            host_command: i,
                            command: *cmd,
                            submit: None,
                            region: Region {
                                object: h.region.object,
                                range: ByteRange::new(start - base, end - base),
                            },
                            memory: MemRange {
                                mem: h.mem,
                                range: ByteRange::new(start, end),
                            },
                            host: h.sa,
                            device: d.sa,
                        });
                    }
                }
            }
            _ if recorded(c) => {
                batch.extend(
                    accesses(c, layout, sem)
                        .into_iter()
                        .filter(|a| !is_host(a.sa))
                        .map(|a| (i, a)),
                );
            }
            _ => {}
        }
    }
    out.extend(open);
    out
}

/// `program` with its commands in [`host_accesses_first`]'s order, and
/// that order (the index in `program` of each command), or `None` when it
/// is the program's own: the one place the planners, the transition
/// bound and the schedule bound apply it.
pub(crate) fn with_host_accesses_first(program: &Program, layout: &Layout) -> Option<(Program, Vec<usize>)> {
    let perm = host_accesses_first(program, layout)?;
    let moved = program.with_commands(perm.iter().map(|&i| program.commands[i].clone()).collect());
    Some((moved, perm))
}

/// A permutation of `program`'s commands (the new order, as indices of
/// `program`) with the same execution order ([`order`]) in which no host
/// access follows a recorded command it runs before, or `None` when the
/// program has no [`OrderNote`] (the identity does).
///
/// The planners walk a program in trace order and insert submits and fence
/// waits before host accesses; on a host access recorded after a command
/// of a batch not yet submitted they would take the command to run first
/// and submit it before the access, so the command would read (or
/// overwrite) other bytes than the program's ("the first synchronization
/// scope [of `vkQueueSubmit`] includes execution of vkQueueSubmit on the
/// host and anything that happened-before it": the access runs first). So
/// between two commands that are neither recorded nor host accesses (a
/// submit, a wait, an allocator call, a host semaphore operation), when a
/// host access there has a note, every host access there moves, in its
/// order, ahead of the recorded commands there: host operations keep their
/// order and their place relative to every submit, and each batch its
/// commands' order, so [`order`] is the same. A host access after an
/// allocator call that follows the command it notes keeps its note (an
/// allocator call keeps its place among the recorded commands, whose
/// objects it decides).
pub(crate) fn host_accesses_first(program: &Program, layout: &Layout) -> Option<Vec<usize>> {
    let notes = order_notes_resolved(program, layout);
    if notes.is_empty() {
        return None;
    }
    let noted: std::collections::HashSet<usize> = notes.iter().map(|n| n.host_command).collect();
    let is_host_access = |c: &Command| matches!(c, Command::HostWrite { .. } | Command::HostRead { .. });
    let mut out = Vec::with_capacity(program.commands.len());
    let mut segment: Vec<usize> = Vec::new();
    let flush = |segment: &mut Vec<usize>, out: &mut Vec<usize>| {
        if segment.iter().any(|i| noted.contains(i)) {
            let (host, rest): (Vec<usize>, Vec<usize>) = segment
                .iter()
                .partition(|&&i| is_host_access(&program.commands[i]));
            out.extend(host);
            out.extend(rest);
        } else {
            out.append(segment);
        }
        segment.clear();
    };
    for (i, c) in program.commands.iter().enumerate() {
        if is_host_access(c) || recorded(c) {
            segment.push(i);
        } else {
            flush(&mut segment, &mut out);
            out.push(i);
        }
    }
    flush(&mut segment, &mut out);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `submit` lines (1-based) of `trace`'s batches in the order of
    /// [`steps_after_signals`], and whether [`steps`] gives the same.
    fn batch_lines(trace: &str) -> (Vec<usize>, bool) {
        let t = crate::trace::parse(trace).unwrap_or_else(|e| panic!("{e}"));
        let p = &t.program;
        let lines = |steps: &[Step]| -> Vec<usize> {
            steps
                .iter()
                .filter_map(|s| match s {
                    Step::Batch { submit: Some(at), .. } => Some(t.command_lines[*at]),
                    _ => None,
                })
                .collect()
        };
        let after = steps_after_signals(p);
        let same = after == steps(p);
        assert_eq!(
            flatten(p, after.clone())
                .iter()
                .copied()
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            p.commands.len(),
            "a permutation"
        );
        (lines(&after), same)
    }

    #[test]
    fn batches_run_after_the_signals_they_wait_for() {
        let head = "queue qa\nqueue qb\nqueue qc\nsemaphore s\nsemaphore t timeline\nsemaphore u timeline\nbuffer a 64\n";
        let cases: &[(&str, &str, &[usize], bool)] = &[
            ("no semaphore: submission order", "fill a 1\nsubmit qa\nfill a 2\nsubmit qb", &[9, 11], true),
            ("signal first: unchanged", "submit qa signal t:1\nsubmit qb wait t:1@ALL_COMMANDS", &[8, 9], true),
            ("wait first: after its signal", "submit qb wait t:1@ALL_COMMANDS\nsubmit qa signal t:1", &[9, 8], false),
            (
                "a later batch of the waiting queue waits too; another queue's does not",
                "submit qb wait t:1@ALL_COMMANDS\nsubmit qb\nsubmit qc\nsubmit qa signal t:1",
                &[10, 11, 8, 9],
                false,
            ),
            (
                "a chain through two timelines",
                "submit qc wait u:1@ALL_COMMANDS\nsubmit qb wait t:1@ALL_COMMANDS signal u:1\nsubmit qa signal t:1",
                &[10, 9, 8],
                false,
            ),
            (
                "a host signal releases the batch where it stands",
                "submit qa wait t:2@ALL_COMMANDS\nsubmit qb\nhost-signal t 2\nsubmit qc",
                &[9, 8, 11],
                false,
            ),
            // The binary wait comes after the signal its pending signal
            // depends on is submitted (VUID-vkQueueSubmit2-semaphore-03873).
            (
                "a binary wait after a released signal",
                "submit qa wait t:1@ALL_COMMANDS signal s\nsubmit qc signal t:1\nsubmit qb wait s@ALL_COMMANDS",
                &[9, 8, 10],
                false,
            ),
        ];
        for (name, body, want, same) in cases {
            assert_eq!(
                batch_lines(&format!("{head}{body}\n")),
                (want.to_vec(), *same),
                "case `{name}`"
            );
        }
    }
}
