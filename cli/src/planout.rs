//! Printing a plan as a trace: the planned program in the trace format, with
//! comments saying which hazards each inserted barrier answers.
//!
//! The output must parse back (so `vksync plan X | vksync check -` works),
//! so everything that is not the program is a `#` comment. Hazard lines are
//! given in the input file's numbering, since that is the file the user
//! has open; the planned program's own lines shift with every insertion.

use crate::input::Source;
use crate::report;
use vksync::plan::{BarrierForm, Plan, PlanOptions};
use vksync::trace::{print, print_command};
use vksync::{Command, Program};

/// Facts about a plan that the header and the summary report.
pub struct PlanStats {
    pub points: usize,
    pub bits: u64,
    pub bound: usize,
    /// Hazards `vksync check` finds in the planned program.
    pub remaining: Vec<vksync::Hazard>,
}

impl PlanStats {
    pub fn of(source: &Source, plan: &Plan) -> Result<PlanStats, vksync::ProgramError> {
        Ok(PlanStats {
            points: plan.program.barrier_points(),
            bits: plan.program.barrier_bits(),
            bound: vksync::plan::stabbing_bound(&source.trace.program)?,
            remaining: vksync::check(&plan.program)?,
        })
    }
}

/// The planned program as trace text.
pub fn render(source: &Source, plan: &Plan, opts: PlanOptions, stats: &PlanStats) -> String {
    let lines = source.barrier_free_lines();
    let line = |i: usize| lines.get(i).map_or_else(|| "?".to_string(), |l| l.to_string());
    let form = match opts.form {
        BarrierForm::Global => "global memory barriers",
        BarrierForm::Buffer => "buffer memory barriers",
    };
    let mut out = String::new();
    out.push_str(&format!(
        "# {} planned by vksync plan --planner {} ({form})\n",
        source.name,
        opts.planner.name()
    ));
    out.push_str(&format!(
        "# {} barrier point{} (stabbing bound {}), {} stage/access bits; vksync check: {}\n",
        stats.points,
        if stats.points == 1 { "" } else { "s" },
        stats.bound,
        stats.bits,
        report::summary(&stats.remaining)
    ));
    // The declarations, exactly as the model's printer writes them (blobs
    // are declared by their `alloc` commands).
    out.push_str(&print(&Program {
        objects: plan.program.objects.clone(),
        commands: Vec::new(),
    }));
    for (i, c) in plan.program.commands.iter().enumerate() {
        let inserted = plan.origin.get(i).copied().flatten().is_none();
        if inserted {
            match c {
                Command::Barrier(_) => {
                    let answered = plan.answers.iter().find(|(at, _)| *at == i);
                    for h in answered.map(|(_, hs)| hs.as_slice()).unwrap_or(&[]) {
                        out.push_str(&format!(
                            "# answers: {} on {}: line {} after line {}\n",
                            h.kind.message_id(),
                            plan.program.show_region(h.region),
                            line(h.command),
                            line(h.prior_command),
                        ));
                    }
                }
                Command::Submit => out.push_str("# inserted: the host access below waits for the device\n"),
                _ => {}
            }
        }
        out.push_str(&print_command(&plan.program, c));
        out.push('\n');
    }
    out
}
