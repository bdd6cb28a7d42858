//! The application's own barriers judged: "how many of my barriers are
//! needed?" For each barrier command of a program as recorded (a capture),
//! whether removing it alone brings a hazard back, and which. A split
//! barrier (`set-event` ... `wait-events`) is a barrier the application
//! wrote too, judged at its wait, where its dependency takes effect:
//! removing the wait alone leaves a set that orders nothing.
//!
//! A barrier command is *redundant* when the program without it (every
//! other command kept) has no hazard the program has not already: the
//! checker decides it, one removal at a time, on the whole program.
//! Removal only takes ordering away, so the hazards of the program without
//! a barrier are those of the program plus the ones it was there for
//! (`Plan::answers` of [`recorded_plan`]). A command that performs a layout
//! transition is not removed whole: its transitions stay, with empty
//! scopes, and the rest of it goes (what a planner keeps of it,
//! [`super::planning_input`]); it is redundant when that brings no hazard
//! back, i.e. none of its synchronization is needed.
//!
//! This module does not plan and does not judge several barriers removed
//! together: two barriers that each stand in for the other are both
//! redundant alone and not together (the plan beside them says how many
//! points the program needs).
//!
//! Cost: one whole-program check per barrier command, so barriers times
//! commands (times the definitional semantics' cost, quadratic to cubic,
//! where the fast checkers refuse the program: rendering with several
//! queues or semaphores) (`docs/planning.md`, "How many of my barriers are needed?",
//! has the measurement).

use super::transitions::{is_planned_away, planning_input, transition_part};
use super::Plan;
use crate::hazard::{by_definition, check_with, Hazard};
use crate::ir::layout::{MemRange, ProgramError};
use crate::ir::program::{Command, Dependency, Program};
use crate::semantics::{Reading, Semantics};
use crate::sync::checker::HazardKind;
use std::collections::HashSet;

/// One barrier command of the program as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedBarrier {
    /// Its index in the program.
    pub command: usize,
    /// The hazards removing it alone brings back (indices of the program
    /// as recorded).
    pub answers: Vec<Hazard>,
    /// It performs a queue family ownership transfer (a release or an
    /// acquire): removing it leaves the program invalid (an acquire with
    /// no release, or bytes used by a family that does not own them),
    /// whatever the hazards say, so it is never redundant.
    pub transfers_ownership: bool,
    /// It is a `vkCmdWaitEvents2`/`vkCmdWaitEvents`: the second half of a
    /// split barrier, where its dependency takes effect. Removing it
    /// alone leaves its `set-event`, which orders nothing without a wait.
    pub split: bool,
}

impl RecordedBarrier {
    /// Removing it alone keeps the program's hazards what they are, and
    /// it transfers no ownership.
    pub fn redundant(&self) -> bool {
        self.answers.is_empty() && !self.transfers_ownership
    }
}

/// Each barrier command of `program` (every `vkCmdPipelineBarrier2`, and
/// every `vkCmdWaitEvents2`/`vkCmdWaitEvents`, the wait of a split
/// barrier) with the hazards removing it alone brings back, under
/// `reading`. Programs the fast checkers refuse and the definitional
/// semantics decides ([`crate::check_program`]) are decided by it, every
/// removal included (barriers times its cost); others
/// [`crate::check_program`] refuses are refused alike.
pub fn recorded_barriers(program: &Program, reading: Reading) -> Result<Vec<RecordedBarrier>, ProgramError> {
    let sem = Semantics::for_reading(reading);
    let key = |h: &Hazard| (h.kind, h.command, h.prior_command, h.memory);
    // A program the fast checkers refuse (rendering with several queues or
    // semaphores) is decided by the definitional semantics, as `vksync
    // check` decides it; then every removal is too, so that the hazards
    // compared are found the same way.
    let (base, refusal) = match check_with(program, sem) {
        Ok(h) => (h, None),
        Err(refusal) => (
            by_definition(program, sem, refusal.clone())?.hazards,
            Some(refusal),
        ),
    };
    let decide = |q: &Program| match &refusal {
        None => check_with(q, sem),
        Some(r) => by_definition(q, sem, r.clone()).map(|c| c.hazards),
    };
    let base: HashSet<(HazardKind, usize, usize, MemRange)> = base.iter().map(key).collect();
    let mut out = Vec::new();
    for (i, c) in program.commands.iter().enumerate() {
        // A pipeline barrier, or the wait of a split barrier (an event's
        // set and wait are a barrier the application wrote, judged where
        // its dependency takes effect).
        let (deps, split): (Vec<&Dependency>, bool) = match c {
            Command::Barrier(dep) => (vec![dep], false),
            Command::WaitEvents { waits } => (waits.iter().map(|w| &w.dependency).collect(), true),
            Command::WaitEvents1 { dependency, .. } => (vec![dependency], true),
            _ => continue,
        };
        let mut q = program.clone();
        // Without it: removed, or, for a transition (a pipeline barrier's,
        // a `vkCmdWaitEvents`'s), only its scopes and its other barriers,
        // as the planners' input keeps them (`planning_input`). A
        // `vkCmdWaitEvents2` goes whole: its transitions are its set's.
        let kept = transition_part(c);
        let removed = kept.is_none();
        match kept {
            Some(d) => q.commands[i] = Command::Barrier(d),
            None => {
                q.commands.remove(i);
            }
        }
        // Back to the recorded program's indices.
        let back = |k: usize| if removed && k >= i { k + 1 } else { k };
        let answers = decide(&q)?
            .into_iter()
            .map(|h| Hazard {
                command: back(h.command),
                prior_command: back(h.prior_command),
                ..h
            })
            .filter(|h| !base.contains(&key(h)))
            .collect();
        let transfers_ownership = deps.iter().flat_map(|d| d.barriers.iter()).any(|b| {
            b.ownership
                .is_some_and(|o| o.src_queue_family != o.dst_queue_family)
        });
        out.push(RecordedBarrier {
            command: i,
            answers,
            transfers_ownership,
            split,
        });
    }
    Ok(out)
}

/// The program as recorded, as a [`Plan`] of its own barrier-free form
/// ([`planning_input`]), so that it shows beside a planner's plan: its
/// barrier commands are the "inserted" ones (origin `None`; a command with
/// a layout transition keeps its origin, as planners keep it), each
/// answering the hazards removing it alone brings back
/// ([`recorded_barriers`]).
pub fn recorded_plan(
    program: &Program,
    reading: Reading,
) -> Result<(Plan, Vec<RecordedBarrier>), ProgramError> {
    let barriers = recorded_barriers(program, reading)?;
    // Index of each recorded command in `planning_input(program)`.
    let mut to_input = Vec::with_capacity(program.commands.len());
    let mut next = 0;
    for c in &program.commands {
        if is_planned_away(c) {
            to_input.push(None);
        } else {
            to_input.push(Some(next));
            next += 1;
        }
    }
    let input_index = |k: usize| to_input[k].unwrap_or(usize::MAX);
    let answers = barriers
        .iter()
        .filter(|b| !b.redundant())
        .map(|b| {
            let hs = b
                .answers
                .iter()
                .map(|h| Hazard {
                    command: input_index(h.command),
                    prior_command: input_index(h.prior_command),
                    ..*h
                })
                .collect();
            (b.command, hs)
        })
        .collect();
    let plan = Plan {
        program: program.clone(),
        origin: to_input,
        answers,
    };
    debug_assert_eq!(next, planning_input(program).commands.len());
    Ok((plan, barriers))
}
