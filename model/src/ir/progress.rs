//! Whether a program can run to its end: a program some of whose
//! semaphore waits can never be satisfied (a cycle of timeline waits
//! across queues, a batch waiting for a value only it or a later batch of
//! its queue signals, a host wait for a value only later work signals) is
//! refused, naming those waits ([`ProgramErrorKind::NeverCompletes`]).
//! No time limit makes such a program finish, so `vksync run` must not be
//! left to time out on it.
//!
//! This module owns that one decision. It follows the definitional
//! semantics' reading of what a signal waits for (`crate::spec`, module
//! `order`): a semaphore signal operation happens after a wait operation
//! of its own batch or an earlier batch of its queue when the wait's
//! second synchronization scope and the signal's first share a stage; a
//! fence waits for every wait of its queue's batches; the host does not
//! get past a `wait`, `wait QUEUE` or `host-wait` that nothing recorded
//! before it can satisfy, and then submits and signals nothing after it.
//! It assumes the host-order checks of module `queue` ran (each binary
//! wait has a pending signal, timeline values increase) and checks
//! nothing else. A fixpoint: what can happen grows until nothing changes;
//! whatever never happens is stuck.

use super::error::ProgramErrorKind;
use super::program::{Command, Program};
use super::queue::{QueueId, SemaphoreId, WaitFor};
use crate::vk::scope::{exec_scope, Side, StageSet};

/// One semaphore wait operation of a batch.
struct DeviceWait {
    /// The command (its `submit`).
    command: usize,
    sem: SemaphoreId,
    /// `None` for a binary wait.
    value: Option<u64>,
    /// For a binary wait: the signal it takes (index into `signals`).
    pairs_with: Option<usize>,
    second: StageSet,
    queue: QueueId,
    /// The batch's ordinal among the submits.
    batch: usize,
}

/// One semaphore signal operation, of a batch or of the host.
struct Signal {
    sem: SemaphoreId,
    /// `None` for a binary signal.
    value: Option<u64>,
    /// `None` for a host signal.
    first: Option<StageSet>,
    queue: QueueId,
    batch: usize,
    /// Where in the trace it was submitted (or signalled by the host).
    command: usize,
}

/// The first wait of `program` that can never be satisfied, if any: its
/// command and, for a timeline wait, its ordinal among the timeline waits
/// (device and host, in trace order, as module `queue` counts them), with
/// the error naming every stuck wait.
pub(crate) fn first_stuck(program: &Program) -> Option<(usize, Option<usize>, ProgramErrorKind)> {
    let initial = |s: SemaphoreId| {
        program
            .semaphores
            .get(s.0 as usize)
            .map_or(0, |x| x.kind.initial_value())
    };
    let mut waits: Vec<DeviceWait> = Vec::new();
    let mut signals: Vec<Signal> = Vec::new();
    // The pending binary signal of each semaphore, in host order.
    let mut pending: Vec<Option<usize>> = vec![None; program.semaphores.len()];
    let mut batches = 0usize;
    let mut timeline_ordinal = 0usize;
    // (command, timeline ordinal of a host-wait) of every timeline wait.
    let mut ordinals: Vec<(usize, usize)> = Vec::new();
    for (i, c) in program.commands.iter().enumerate() {
        match c {
            Command::Submit(s) => {
                let batch = batches;
                batches += 1;
                for w in &s.waits {
                    let slot = pending.get_mut(w.semaphore.0 as usize);
                    let pairs_with = if w.value.is_none() {
                        slot.and_then(|p| p.take())
                    } else {
                        ordinals.push((i, timeline_ordinal));
                        timeline_ordinal += 1;
                        None
                    };
                    waits.push(DeviceWait {
                        command: i,
                        sem: w.semaphore,
                        value: w.value,
                        pairs_with,
                        second: exec_scope(w.stages, Side::Dst),
                        queue: s.queue,
                        batch,
                    });
                }
                for g in &s.signals {
                    if g.value.is_none() {
                        if let Some(p) = pending.get_mut(g.semaphore.0 as usize) {
                            *p = Some(signals.len());
                        }
                    }
                    signals.push(Signal {
                        sem: g.semaphore,
                        value: g.value,
                        first: Some(exec_scope(g.stages, Side::Src)),
                        queue: s.queue,
                        batch,
                        command: i,
                    });
                }
            }
            Command::HostSignal { semaphore, value } => signals.push(Signal {
                sem: *semaphore,
                value: Some(*value),
                first: None,
                queue: QueueId(0),
                batch: usize::MAX,
                command: i,
            }),
            Command::HostWait { .. } => {
                ordinals.push((i, timeline_ordinal));
                timeline_ordinal += 1;
            }
            _ => {}
        }
    }
    if waits.is_empty()
        && !program
            .commands
            .iter()
            .any(|c| matches!(c, Command::HostWait { .. }))
    {
        return None;
    }
    // What happens, in trace order: a batch's waits then its signals, the
    // host's signals and its blocking waits in place.
    enum Event {
        Waits(std::ops::Range<usize>),
        Signals(std::ops::Range<usize>),
        Block(usize),
    }
    let mut events: Vec<Event> = Vec::new();
    {
        let (mut w, mut g) = (0usize, 0usize);
        for (i, c) in program.commands.iter().enumerate() {
            match c {
                Command::Submit(_) => {
                    let w0 = w;
                    while w < waits.len() && waits[w].command == i {
                        w += 1;
                    }
                    let g0 = g;
                    while g < signals.len() && signals[g].command == i {
                        g += 1;
                    }
                    events.push(Event::Waits(w0..w));
                    events.push(Event::Signals(g0..g));
                }
                Command::HostSignal { .. } => {
                    events.push(Event::Signals(g..g + 1));
                    g += 1;
                }
                Command::Wait(_) | Command::HostWait { .. } => events.push(Event::Block(i)),
                _ => {}
            }
        }
    }
    let queues = program.queue_count().max(1);
    let sems = program.semaphores.len();
    let mut ran = vec![false; signals.len()];
    let mut met = vec![false; waits.len()];
    // Per semaphore, the greatest timeline value a signal that ran set.
    let mut reached: Vec<u64> = (0..sems).map(|s| initial(SemaphoreId(s as u32))).collect();
    // Per queue, its unmet waits seen so far, by (batch, index): a signal
    // looks only at the first few (most masks are ALL_COMMANDS).
    let mut unmet: Vec<std::collections::BTreeSet<(usize, usize)>> = vec![Default::default(); queues];
    let mut listed = vec![false; waits.len()];
    // The host gets past every command before `reach`.
    let mut reach = program.commands.len();
    // Rounds until nothing changes: one round settles a program whose
    // signals come before their waits in the trace; each later round
    // follows the waits a later signal meets.
    loop {
        let mut changed = false;
        let mut blocked_at: Option<usize> = None;
        for e in &events {
            match e {
                Event::Waits(r) => {
                    for j in r.clone() {
                        let w = &waits[j];
                        if met[j] {
                            continue;
                        }
                        let ok = match w.value {
                            None => w.pairs_with.is_some_and(|p| ran[p]),
                            Some(v) => reached.get(w.sem.0 as usize).is_some_and(|&x| x >= v),
                        };
                        let q = w.queue.0 as usize % queues;
                        if ok {
                            met[j] = true;
                            changed = true;
                            if listed[j] {
                                unmet[q].remove(&(w.batch, j));
                            }
                        } else if !listed[j] {
                            listed[j] = true;
                            unmet[q].insert((w.batch, j));
                        }
                    }
                }
                Event::Signals(r) => {
                    for k in r.clone() {
                        let g = &signals[k];
                        if ran[k] {
                            continue;
                        }
                        let can = match g.first {
                            None => true,
                            Some(first) => !unmet[g.queue.0 as usize % queues]
                                .range(..(g.batch + 1, 0))
                                .any(|&(_, j)| waits[j].second.intersects(first)),
                        };
                        if can {
                            ran[k] = true;
                            changed = true;
                            if let (Some(v), Some(x)) = (g.value, reached.get_mut(g.sem.0 as usize)) {
                                *x = (*x).max(v);
                            }
                        }
                    }
                }
                Event::Block(at) => {
                    let ok = match &program.commands[*at] {
                        // Every wait submitted before it on its queues is
                        // met (each unmet list is sorted by batch).
                        Command::Wait(target) => unmet.iter().enumerate().all(|(q, set)| {
                            matches!(target, WaitFor::Queue(t) if t.0 as usize % queues != q)
                                || set.iter().next().is_none_or(|&(_, j)| waits[j].command > *at)
                        }),
                        Command::HostWait { semaphore, value } => {
                            reached.get(semaphore.0 as usize).is_some_and(|&x| x >= *value)
                        }
                        _ => true,
                    };
                    if !ok {
                        blocked_at = Some(*at);
                        break;
                    }
                }
            }
        }
        let new_reach = blocked_at.unwrap_or(program.commands.len());
        if new_reach != reach {
            changed = true;
            reach = new_reach;
        }
        if !changed {
            break;
        }
    }
    let stuck: Vec<&DeviceWait> = waits
        .iter()
        .zip(&met)
        .filter(|(w, &m)| !m && w.command < reach)
        .map(|(w, _)| w)
        .collect();
    let host_stuck = (reach < program.commands.len()).then_some(reach);
    if stuck.is_empty() && host_stuck.is_none() {
        return None;
    }
    let name = |w: &DeviceWait| {
        let value = w.value.map_or(String::new(), |v| format!(":{v}"));
        format!(
            "`{}{value}` on `{}`",
            program.semaphore_name(w.sem),
            program.queue_name(w.queue)
        )
    };
    let mut names: Vec<String> = stuck.iter().map(|w| name(w)).collect();
    if let Some(at) = host_stuck {
        names.push(match &program.commands[at] {
            Command::HostWait { semaphore, value } => {
                format!(
                    "the host's `host-wait {} {value}`",
                    program.semaphore_name(*semaphore)
                )
            }
            _ => "the host's fence wait".to_string(),
        });
    }
    let first = stuck
        .iter()
        .map(|w| w.command)
        .chain(host_stuck)
        .min()
        .unwrap_or(0);
    let ordinal = ordinals.iter().find(|(c, _)| *c == first).map(|&(_, o)| o);
    Some((
        first,
        ordinal,
        ProgramErrorKind::NeverCompletes {
            waits: names.join(", "),
        },
    ))
}
