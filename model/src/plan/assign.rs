//! Async compute: assigning a single-queue program's commands to queues, so
//! that independent work can run concurrently, before planning it across
//! queues ([`super::plan_queues`]).
//!
//! This module owns only the assignment (which queue runs each device
//! command, and where batches end); it plans nothing itself. The rule is
//! a simple greedy over the data-dependency graph (each device command
//! depends on the earlier ones that access overlapping memory with one of
//! the two writing, as the checker's hazards do):
//!
//! * the *critical path*, the dependency chain with the most dispatches,
//!   stays on the program's queue (the "main" queue), and so does every
//!   command that depends on a command there;
//! * a copy, fill or update that depends only on transfer-queue work (or
//!   on nothing: uploads, initialisations) goes to a transfer queue;
//! * every other dispatch, and what depends on it, goes to a second
//!   compute queue: independent chains, and branches that join the
//!   critical path later (a residual block's skip branch).
//!
//! A program without dispatches stays on its queue.
//!
//! Image layout transitions stay on the program's queue, where they are,
//! and so does every device command that accesses their memory (the
//! simplest honest rule): a transition's scopes, and the layouts the
//! images are in, are then one queue's business, which the multi-queue
//! planner plans as it plans any queue's transitions, and no image changes
//! queue family (the multi-queue planner does not plan an image's
//! ownership transfer, whose release and acquire would each carry the
//! transition). Graphics work (draws, rendering, render passes) stays
//! there too: the new queues are a compute and a transfer queue.
//!
//! Invariants: the trace order of commands is kept (with the submits and
//! fence waits the single-queue planner inserts before host accesses); a batch ends (an
//! inserted `submit QUEUE`) wherever the next device command runs on
//! another queue, and at the input's own submits; `wait QUEUE` on the
//! program's queue becomes `wait` (every queue), so a host access still
//! waits for work that moved. The new queues are declared after the
//! program's own (families: one past the largest declared, then the next,
//! for the ones used),
//! so every exclusive object used by two of them gets an ownership
//! transfer from the planner.

use super::deps::{Earlier, Touch};
use super::queues::{plan_queues, QueuePlan, QueuePlanError, QueuePlanOptions};
use super::transitions::{is_transition, planning_input};
use super::{plan, PlanOptions, PlannerKind};
use crate::ir::access::{accesses, is_device_command};
use crate::ir::layout::resolve;
use crate::ir::program::{Command, Program};
use crate::ir::queue::{QueueId, Submission, WaitFor};
use crate::semantics::{Reading, Semantics};

/// Which queue each device command of `program` would run on, with the
/// queues declared: the single-queue program rewritten with the async
/// compute assignment (see the module documentation), its barriers
/// dropped but its layout transitions (with empty scopes), with the
/// submits and fence waits the single-queue planner puts before host
/// accesses. Refuses a program that already uses several queues,
/// semaphores or events.
///
/// ```
/// use vksync::plan::assign_async_compute;
/// let t = vksync::trace::parse(
///     "buffer a 256\nbuffer b 256\nbuffer c 256\nbuffer d 256\n\
///      update a 1\ndispatch scale(2) rw a\ndispatch scale(3) rw b\ndispatch scale(4) rw b\n",
/// )?;
/// let p = assign_async_compute(&t.program)?;
/// let text = vksync::trace::print(&p);
/// assert!(text.contains("update a[0..256] 1\nsubmit transfer\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn assign_async_compute(program: &Program) -> Result<Program, QueuePlanError> {
    // The single-queue planner's submits and fence waits before host
    // accesses (its barriers are dropped but the layout transitions, with
    // empty scopes, which the multi-queue planner gives what it needs):
    // the multi-queue planner plans around the waits a program has, and
    // inserts none.
    let input = planning_input(&plan(program, PlanOptions::new(PlannerKind::Offline))?.program);
    let layout = resolve(&input)?;
    let sem = Semantics::for_reading(Reading::VisibleToWrites);
    let device: Vec<usize> = (0..input.commands.len())
        .filter(|&i| is_device_command(&input.commands[i]))
        .collect();
    let touches: Vec<Vec<Touch>> = device
        .iter()
        .map(|&i| {
            accesses(&input.commands[i], &layout, sem)
                .iter()
                .map(|a| (a.mem, a.range, a.sa.is_write()))
                .collect()
        })
        .collect();
    // The memory of every layout transition: the device commands that
    // touch it stay on the main queue with the transitions.
    // (A barrier's, and a render pass's automatic ones.)
    let pinned: Vec<Touch> = input
        .commands
        .iter()
        .filter(|c| matches!(c, Command::Barrier(_) | Command::Render(_)))
        .flat_map(|c| accesses(c, &layout, sem))
        .filter(|a| a.sa.is_layout_transition())
        .map(|a| (a.mem, a.range, true))
        .collect();
    let stays = |k: usize| {
        matches!(input.commands[device[k]], Command::Render(_))
            || touches[k]
                .iter()
                .any(|t| pinned.iter().any(|p| p.0 == t.0 && p.1.overlaps(t.1)))
    };
    let n = device.len();
    let is_dispatch = |k: usize| matches!(input.commands[device[k]], Command::Dispatch { .. });
    // The critical path: the chain with the most dispatches (the earliest
    // predecessor and end on a tie). Each command's best predecessor is
    // the maximum, over the earlier commands it depends on, of (chain
    // length, earliest index); `deps` keeps that maximum per byte instead
    // of the dependency graph, which a long program of writes to one
    // buffer makes quadratic.
    let mut len = vec![0usize; n];
    let mut prev: Vec<Option<usize>> = vec![None; n];
    let mut earlier: Earlier<Option<(usize, usize)>> = Earlier::new();
    for j in 0..n {
        let best = earlier.before(&touches[j]).map(|(_, rev)| usize::MAX - rev);
        len[j] = best.map_or(0, |i| len[i]) + usize::from(is_dispatch(j));
        prev[j] = best;
        earlier.record(&touches[j], Some((len[j], usize::MAX - j)));
    }
    let mut on_path = vec![false; n];
    let end = (0..n)
        .filter(|&k| is_dispatch(k))
        .max_by_key(|&k| (len[k], usize::MAX - k));
    let mut cur = end;
    while let Some(k) = cur {
        on_path[k] = true;
        cur = prev[k];
    }
    const MAIN: usize = 0;
    const COMPUTE: usize = 1;
    const TRANSFER: usize = 2;
    let mut role = vec![MAIN; n];
    // The roles of the earlier commands each command depends on, as a set
    // of bits (1 << role).
    let mut earlier: Earlier<u8> = Earlier::new();
    for k in 0..n {
        let roles = earlier.before(&touches[k]);
        let after = |r: usize| roles & (1 << r) != 0;
        role[k] = if end.is_none() || stays(k) {
            // No dispatch: nothing to overlap with; or a layout
            // transition's memory, or graphics work.
            MAIN
        } else if !is_dispatch(k) && roles & !(1 << TRANSFER) == 0 {
            TRANSFER
        } else if (is_dispatch(k) && on_path[k]) || after(MAIN) {
            MAIN
        } else if is_dispatch(k) || after(COMPUTE) {
            COMPUTE
        } else {
            MAIN
        };
        earlier.record(&touches[k], 1 << role[k]);
    }
    // Declare the queues that are used.
    let mut out = input.with_commands(Vec::new());
    let declared = out.queues.len();
    if declared == 0 {
        out.queue("main", 0)?;
    }
    let base_family = out.queues.iter().map(|q| q.family).max().unwrap_or(0);
    let mut ids = [QueueId(0); 3];
    let mut family = base_family;
    for (name, role_id) in [("compute", COMPUTE), ("transfer", TRANSFER)] {
        if role.contains(&role_id) {
            family += 1;
            let mut name = name.to_string();
            while out.find_queue(&name).is_some() {
                name.push('_');
            }
            ids[role_id] = out.queue(&name, family)?;
        }
    }
    // The commands, with batches ended where the queue changes.
    let mut commands = Vec::with_capacity(input.commands.len() + n);
    let mut open: Option<QueueId> = None;
    let mut next_device = 0;
    for c in &input.commands {
        match c {
            Command::Submit(_) => {
                if let Some(q) = open.take() {
                    commands.push(Command::Submit(Submission {
                        queue: q,
                        ..Submission::default()
                    }));
                }
            }
            Command::Wait(WaitFor::Queue(_)) => commands.push(Command::Wait(WaitFor::All)),
            c if is_transition(c) || is_device_command(c) => {
                // A transition goes to the main queue, in the batch of the
                // commands around it there; a device command to its role's.
                let q = if is_transition(c) {
                    ids[MAIN]
                } else {
                    next_device += 1;
                    ids[role[next_device - 1]]
                };
                // Close the open batch of another queue first.
                if let Some(o) = open.filter(|&o| o != q) {
                    commands.push(Command::Submit(Submission {
                        queue: o,
                        ..Submission::default()
                    }));
                }
                open = Some(q);
                commands.push(c.clone());
            }
            c => commands.push(c.clone()),
        }
    }
    if let Some(q) = open {
        commands.push(Command::Submit(Submission {
            queue: q,
            ..Submission::default()
        }));
    }
    out.commands = commands;
    resolve(&out)?;
    Ok(out)
}

/// [`assign_async_compute`], then [`plan_queues`]; the plan's `origin`
/// and `answers` refer to the assigned program (without barriers), whose
/// commands are the input's in the same order with submits added.
pub fn plan_async_compute(program: &Program, opts: QueuePlanOptions) -> Result<QueuePlan, QueuePlanError> {
    plan_queues(&assign_async_compute(program)?, opts)
}
