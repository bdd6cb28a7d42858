//! Building a plan's output: the [`Emitter`] that appends the input's
//! commands and the inserted barriers, submits and waits, remembering where
//! each command came from and which hazards each barrier answers; and the
//! [`Queue`] bookkeeping the planners share to know when a host access
//! needs a submit and a fence wait first.

use super::Plan;
use crate::hazard::Hazard;
use crate::ir::access::is_device_command;
use crate::ir::program::{Barrier, Command, Dependency, Program};

/// Builds the output program.
pub(crate) struct Emitter<'a> {
    input: &'a Program,
    commands: Vec<Command>,
    origin: Vec<Option<usize>>,
    answers: Vec<(usize, Vec<Hazard>)>,
}

impl<'a> Emitter<'a> {
    pub(crate) fn new(input: &'a Program) -> Self {
        Emitter {
            input,
            // Plans add a barrier every few commands: an eighth more
            // holds most (it grows where not), not twice the program.
            commands: Vec::with_capacity(input.commands.len() + input.commands.len() / 8),
            origin: Vec::with_capacity(input.commands.len() + input.commands.len() / 8),
            answers: Vec::new(),
        }
    }
    pub(crate) fn command(&mut self, i: usize, c: &Command) {
        self.command_from(Some(i), c);
    }
    pub(crate) fn command_from(&mut self, origin: Option<usize>, c: &Command) {
        self.commands.push(c.clone());
        self.origin.push(origin);
    }
    pub(crate) fn barrier(&mut self, barriers: Vec<Barrier>, answers: Vec<Hazard>) {
        if barriers.is_empty() {
            return;
        }
        if !answers.is_empty() {
            self.answers.push((self.commands.len(), answers));
        }
        self.commands.push(Command::Barrier(Dependency { barriers }));
        self.origin.push(None);
    }
    /// A barrier command of the input (`origin`) that a planned point
    /// joined: `answers` are the point's.
    pub(crate) fn merged_barrier(&mut self, origin: Option<usize>, c: Command, answers: Vec<Hazard>) {
        if !answers.is_empty() {
            self.answers.push((self.commands.len(), answers));
        }
        self.commands.push(c);
        self.origin.push(origin);
    }
    pub(crate) fn submit_wait(&mut self) {
        self.commands.push(Command::SUBMIT);
        self.origin.push(None);
        self.commands.push(Command::WAIT);
        self.origin.push(None);
    }
    pub(crate) fn finish(self) -> Plan {
        Plan {
            program: self.input.with_commands(self.commands),
            origin: self.origin,
            answers: self.answers,
        }
    }
}

/// Device work: a command that accesses memory on the device, or a
/// barrier that performs a layout transition (its write runs on the
/// device when the batch does, and a host access after it waits for it).
pub(crate) fn is_device(c: &Command) -> bool {
    is_device_command(c) || super::transitions::is_transition(c)
}

pub(crate) fn is_host(c: &Command) -> bool {
    matches!(c, Command::HostRead { .. } | Command::HostWrite { .. })
}

/// Tracks, for the baselines, whether device work is outstanding, so they
/// can submit and wait before host accesses.
#[derive(Default)]
pub(crate) struct Queue {
    recorded: bool,
    submitted: bool,
}

impl Queue {
    pub(crate) fn device(&mut self) {
        self.recorded = true;
    }
    pub(crate) fn observe(&mut self, c: &Command) {
        match c {
            Command::Submit(_) => {
                if self.recorded {
                    self.submitted = true;
                }
                self.recorded = false;
            }
            Command::Wait(_) if !self.recorded => self.submitted = false,
            _ => {}
        }
    }
    /// Device work not yet waited for: a host access needs submit + wait.
    pub(crate) fn outstanding(&self) -> bool {
        self.recorded || self.submitted
    }
    pub(crate) fn waited(&mut self) {
        self.recorded = false;
        self.submitted = false;
    }
}
