//! Barrier planners (filled in by the planner work; this is the interface).
use crate::hazard::Hazard;
use crate::layout::ProgramError;
use crate::program::Program;

/// Which planner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlannerKind {
    None,
    Conservative,
    PerObject,
    Online,
    Offline,
}

/// Global memory barriers or buffer-range barriers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BarrierForm {
    #[default]
    Global,
    Buffer,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlanOptions {
    pub planner: PlannerKind,
    pub form: BarrierForm,
}

/// A planned program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub program: Program,
    /// For each command of `program`: its index in the input program, or
    /// `None` for commands the planner inserted.
    pub origin: Vec<Option<usize>>,
    /// For each inserted barrier (index into `program.commands`), the
    /// hazards of the barrier-free input it answers.
    pub answers: Vec<(usize, Vec<Hazard>)>,
}

/// Plans barriers for `program` (whose own barriers are dropped first).
pub fn plan(program: &Program, opts: PlanOptions) -> Result<Plan, ProgramError> {
    let _ = opts;
    let p = program.without_barriers();
    crate::layout::resolve(&p)?;
    let origin = (0..p.commands.len()).map(Some).collect();
    Ok(Plan { program: p, origin, answers: vec![] })
}
