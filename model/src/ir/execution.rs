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
    let mut out = Vec::with_capacity(program.commands.len());
    for s in steps(program) {
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
