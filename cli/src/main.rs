//! `vksync`: check, plan and run Vulkan buffer command streams written as
//! trace files (see `docs/trace-format.md` and `docs/cli.md`).
//!
//! This file owns the argument grammar and the exit statuses; each
//! subcommand's work is in its own module. Exit statuses are part of the
//! interface, so scripts and CI can branch on them:
//! 0 clean, 1 hazards found (or, for `run`, a mismatch or validation
//! message), 2 unusable input or arguments, 3 no device or runtime.

// The command line needs no `unsafe`: Vulkan lives in vksync-runtime.
#![forbid(unsafe_code)]

mod input;
mod planout;
mod report;
mod run;
mod svg;

use clap::{Parser, Subcommand, ValueEnum};
use input::Source;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use vksync::plan::{BarrierForm, PlanOptions, PlannerKind};

#[derive(Parser, Debug)]
#[command(
    name = "vksync",
    version,
    about = "Find Vulkan buffer synchronization hazards and plan minimal pipeline barriers"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Report every hazard of a trace, one per line, with the barrier that fixes it.
    Check {
        /// Trace file (`-` for standard input).
        file: PathBuf,
    },
    /// Print the trace with barriers planned (the input's own barriers are dropped first).
    Plan {
        /// Trace file (`-` for standard input).
        file: PathBuf,
        #[command(flatten)]
        planning: Planning,
        /// Also draw the plan as an SVG timeline into this file.
        #[arg(long, value_name = "OUT")]
        svg: Option<PathBuf>,
        /// Instead of the planned trace, show this planner's plan (left) and
        /// the chosen planner's (right) side by side.
        #[arg(long, value_enum, value_name = "PLANNER")]
        compare: Option<Planner>,
        /// Plan a command buffer that is submitted again and again with no
        /// fence wait between: add at its start the barrier its
        /// loop-carried dependencies need (device commands only).
        #[arg(long)]
        repeat: bool,
    },
    /// Plan, record and run on a Vulkan device; compare with the CPU reference.
    Run {
        /// Trace file (`-` for standard input).
        file: PathBuf,
        #[command(flatten)]
        planning: Planning,
    },
}

#[derive(clap::Args, Debug)]
struct Planning {
    /// Which planner inserts the barriers.
    #[arg(long, value_enum, default_value_t = Planner::Offline)]
    planner: Planner,
    /// Emit buffer memory barriers (with byte ranges) instead of global memory barriers.
    #[arg(long)]
    buffer_barriers: bool,
}

impl Planning {
    fn options(&self) -> PlanOptions {
        PlanOptions {
            planner: self.planner.kind(),
            form: if self.buffer_barriers {
                BarrierForm::Buffer
            } else {
                BarrierForm::Global
            },
        }
    }
}

/// The planners by their command-line names (the model's `PlannerKind`
/// names, mirrored here so clap can list and complete them).
#[derive(ValueEnum, Clone, Copy, Debug)]
enum Planner {
    /// Whole program: the fewest barrier points (minimum stabbing set).
    Offline,
    /// Streaming: before each command, the barriers its hazards need.
    Online,
    /// A full barrier between every two device commands (baseline).
    Conservative,
    /// ncnn's per-object last-access tracking (baseline; can be unsafe).
    PerObject,
    /// No barriers at all (the unsafe speed limit).
    None,
}

impl Planner {
    fn kind(self) -> PlannerKind {
        match self {
            Planner::Offline => PlannerKind::Offline,
            Planner::Online => PlannerKind::Online,
            Planner::Conservative => PlannerKind::Conservative,
            Planner::PerObject => PlannerKind::PerObject,
            Planner::None => PlannerKind::None,
        }
    }
}

/// Exit statuses, documented in `docs/cli.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Clean = 0,
    Findings = 1,
    BadInput = 2,
    NoDevice = 3,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let status = match cli.command {
        Cmd::Check { file } => check(&file),
        Cmd::Plan {
            file,
            planning,
            svg,
            compare,
            repeat,
        } => plan(&file, &planning, svg.as_deref(), compare, repeat),
        Cmd::Run { file, planning } => run::run(&file, planning.options()),
    };
    ExitCode::from(status as u8)
}

fn load(file: &std::path::Path) -> Result<Source, Status> {
    Source::load(file).map_err(|e| {
        eprintln!("{e}");
        Status::BadInput
    })
}

fn check(file: &std::path::Path) -> Status {
    let source = match load(file) {
        Ok(s) => s,
        Err(st) => return st,
    };
    let hazards = match vksync::check(&source.trace.program) {
        Ok(h) => h,
        Err(e) => {
            // `load` resolved the program already; a failure here would be
            // a model inconsistency, still reported as an input error.
            eprintln!(
                "{}",
                input::program_error(&source.name, &source.text, &source.trace, e)
            );
            return Status::BadInput;
        }
    };
    let mut out = std::io::stdout().lock();
    for h in &hazards {
        let line = report::hazard_line(
            &source.name,
            &source.trace.program,
            &source.trace.command_lines,
            h,
        );
        // A closed pipe (e.g. `| head`) is not an error worth a panic.
        if writeln!(out, "{line}").is_err() {
            break;
        }
    }
    eprintln!("{}: {}", source.name, report::summary(&hazards));
    if hazards.is_empty() {
        Status::Clean
    } else {
        Status::Findings
    }
}

/// The plan with the barrier its loop-carried dependencies need put first
/// (`vksync::plan::for_repeated_submission`), indices kept attached.
fn with_loop_barrier(mut plan: vksync::plan::Plan) -> Result<vksync::plan::Plan, vksync::ProgramError> {
    let looped = vksync::plan::for_repeated_submission(&plan.program)?;
    if looped.commands.len() > plan.program.commands.len() {
        plan.origin.insert(0, None);
        for (idx, _) in plan.answers.iter_mut() {
            *idx += 1;
        }
    }
    plan.program = looped;
    Ok(plan)
}

fn plan(
    file: &std::path::Path,
    planning: &Planning,
    svg_out: Option<&std::path::Path>,
    compare: Option<Planner>,
    repeat: bool,
) -> Status {
    let source = match load(file) {
        Ok(s) => s,
        Err(st) => return st,
    };
    let opts = planning.options();
    // A repeated command buffer holds device commands only: say so on the
    // input's line before planning inserts submits and waits.
    let repeatable = if repeat {
        vksync::plan::repeated(&source.trace.program, 1).map(|_| ())
    } else {
        Ok(())
    };
    let planned = repeatable
        .and_then(|()| vksync::plan::plan(&source.trace.program, opts))
        .and_then(|p| if repeat { with_loop_barrier(p) } else { Ok(p) })
        .and_then(|p| planout::PlanStats::of(&source, &p).map(|s| (p, s)));
    let (planned, stats) = match planned {
        Ok(x) => x,
        Err(e) => {
            eprintln!(
                "{}",
                input::program_error(&source.name, &source.text, &source.trace, e)
            );
            return Status::BadInput;
        }
    };
    let text = match compare {
        None => planout::render(&source, &planned, opts, &stats, repeat),
        Some(other) => {
            let other_opts = PlanOptions {
                planner: other.kind(),
                ..opts
            };
            // Invariant: the same program planned fine just above, and every
            // planner accepts every valid program.
            let other_plan =
                vksync::plan::plan(&source.trace.program, other_opts).expect("valid program plans");
            planout::side_by_side(
                &source,
                (other_opts.planner.name(), &other_plan),
                (opts.planner.name(), &planned),
            )
        }
    };
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    if let Some(out) = svg_out {
        let picture = match svg::render(&source, &planned, opts, &stats) {
            Ok(s) => s,
            Err(e) => {
                eprintln!(
                    "{}",
                    input::program_error(&source.name, &source.text, &source.trace, e)
                );
                return Status::BadInput;
            }
        };
        if let Err(e) = std::fs::write(out, picture) {
            eprintln!("{}: error: cannot write: {e}", out.display());
            return Status::BadInput;
        }
    }
    Status::Clean
}
