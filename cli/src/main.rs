//! `vksync`: check, plan and run Vulkan buffer command streams written as
//! trace files (see `docs/trace-format.md` and `docs/cli.md`).
//!
//! This file owns the argument grammar and the exit statuses; each
//! subcommand's work is in its own module. Exit statuses are part of the
//! interface, so scripts and CI can branch on them:
//! 0 clean, 1 hazards found (or, for `run`, a mismatch or validation
//! message), 2 unusable input or arguments (or output that cannot be
//! written), 3 no device or runtime, 4 (`run`) the device did not finish a
//! submission in time.

// The command line needs no `unsafe`: Vulkan lives in vksync-runtime.
#![forbid(unsafe_code)]

mod capture;
mod input;
mod layernotes;
mod output;
mod planout;
mod report;
mod run;
mod svg;

use clap::{Parser, Subcommand, ValueEnum};
use input::Source;
use output::{say, to_stderr, Out, Written};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
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
    /// Stop with exit status 5 and a message when vksync's own heap would
    /// exceed SIZE (bytes, or a number with K, M, G or T). Default: 3/4 of
    /// the smallest of the address-space limit (`ulimit -v`), the machine's
    /// memory and the control group's.
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_max_memory)]
    max_memory: Option<u64>,
    /// Stop with exit status 5 and a message after SECONDS of wall-clock
    /// time (no limit by default).
    #[arg(long, global = true, value_name = "SECONDS", value_parser = parse_time_limit)]
    time_limit: Option<f64>,
}

/// Every allocation of the process counted against `--max-memory`, so that
/// reaching it ends with a message and status 5, never an allocation
/// failure (`vksync_runtime::limits`).
#[global_allocator]
static ALLOC: vksync_runtime::limits::LimitedAlloc = vksync_runtime::limits::LimitedAlloc;

fn parse_max_memory(text: &str) -> Result<u64, String> {
    vksync_runtime::limits::parse_size(text)
}

fn parse_time_limit(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() && s < 1e9 => Ok(s),
        _ => Err(format!("`{text}` is not a number of seconds greater than 0")),
    }
}

/// Installs the memory limit and starts the time limit's watchdog: on
/// expiry it prints one line and ends the process with [`Status::Limit`].
fn set_limits(cli: &Cli) {
    use vksync_runtime::limits::{default_memory_limit, set_memory_limit, LimitSource};
    let memory = match cli.max_memory {
        Some(bytes) => Some((bytes, LimitSource::Option)),
        None => default_memory_limit(),
    };
    if let Some((bytes, source)) = memory {
        set_memory_limit(bytes, Status::Limit as i32, source);
    }
    if let Some(seconds) = cli.time_limit {
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs_f64(seconds));
            to_stderr!(
                "vksync: error: time limit reached: {seconds} s (--time-limit); output printed so far is incomplete"
            );
            std::process::exit(Status::Limit as i32);
        });
    }
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Report every hazard of a trace, one per line, with the barrier that fixes it.
    Check {
        /// Trace file (`-` for standard input).
        file: PathBuf,
        /// Which reading of write-after-write to check: the memory model's
        /// (the earlier write made available; the default) or the
        /// synchronization chapter's as the validation layer reads it
        /// (also made visible to the later write).
        #[arg(long, value_enum, default_value_t = ReadingArg::MemoryModel)]
        reading: ReadingArg,
        /// Also draw the trace as an SVG timeline into this file: one lane
        /// per queue and one for the host, with semaphores, events,
        /// ownership transfers and the hazards found (any trace, also one
        /// with several queues).
        #[arg(long, value_name = "OUT")]
        svg: Option<PathBuf>,
        /// Check with the definitional semantics (`vksync::spec`: every
        /// pair of accesses decided from the specification's definitions,
        /// with stage and access tables from the registry's vk.xml) instead
        /// of the fast checker. Same output; quadratic to cubic in the
        /// trace's size.
        #[arg(long, conflicts_with = "svg")]
        by_definition: bool,
        /// Also print, as `layer:` notes, the hazards this validation layer
        /// version reports and vksync does not (its profile's prediction,
        /// the layer as `vksync run` configures it), each with its known
        /// difference and the barrier that satisfies both; `none`: no
        /// notes. Default: the installed layer (none with
        /// VKSYNC_VALIDATION=0). Single-queue traces without events.
        #[arg(long, value_name = "VERSION")]
        layer: Option<String>,
        /// Check on N threads: the single-queue checker sharded by memory
        /// object (each shard takes its objects' accesses and every
        /// barrier, submit, wait and event), the output identical to one
        /// thread's. 0: one per core. Traces with several queues or
        /// semaphores are checked on one thread. Default 1: the speed-up
        /// depends on how the accesses spread over memory objects
        /// (docs/performance.md, "Parallel checking").
        #[arg(long, value_name = "N", default_value_t = 1)]
        jobs: usize,
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
        /// the chosen planner's (right) side by side; `recorded`: the
        /// trace's own barriers, each marked `# redundant` when removing it
        /// alone brings no hazard back, and a summary line.
        #[arg(long, value_enum, value_name = "PLANNER")]
        compare: Option<Compared>,
        /// Plan a command buffer that is submitted again and again with no
        /// fence wait between: add at its start the barrier its
        /// loop-carried dependencies need (device commands only).
        #[arg(long)]
        repeat: bool,
        /// Reorder commands (within their data dependencies) and delay blob
        /// reuse (within 1.25 times the program order's pool peak) for the
        /// fewest barrier points, then plan with the offline planner.
        #[arg(long, conflicts_with_all = ["compare", "repeat", "split_barriers", "async_compute", "svg"])]
        schedule: bool,
        /// Single queue: turn barrier points with independent commands
        /// before them into `set-event` (after the last producer) and
        /// `wait-events` (before the consumer) where that stays hazard-free.
        #[arg(long)]
        split_barriers: bool,
        /// Single queue: move independent dispatch chains to a second
        /// compute queue and uploads to a transfer queue, then plan
        /// semaphores and barriers across the queues.
        #[arg(long, conflicts_with = "split_barriers")]
        async_compute: bool,
    },
    /// Plan, record and run on a Vulkan device; compare with the CPU reference.
    Run {
        /// Trace file (`-` for standard input).
        file: PathBuf,
        #[command(flatten)]
        planning: Planning,
        /// Fail (exit status 4) when one submission takes longer than this
        /// many seconds (decimals allowed; default: VKSYNC_FENCE_TIMEOUT_MS,
        /// else 10).
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        timeout: Option<Duration>,
        /// Run the trace with its own barriers, semaphores and events, not
        /// a plan (any trace, several queues included); the validation
        /// layer's hazards are compared with vksync's hazards of the trace.
        #[arg(long, conflicts_with_all = ["planner", "buffer_barriers"])]
        as_written: bool,
        /// With --as-written: also validate synchronization between
        /// submissions and queues (the layer's submit-time validation:
        /// `syncval_submit_time_validation` for 1.4 layers,
        /// `VK_LAYER_ENABLES=VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT`
        /// for 1.3.239).
        #[arg(long, requires = "as_written")]
        submit_validation: bool,
    },
    /// Run a command with the capture layer (VK_LAYER_VKSYNC_capture) enabled,
    /// then check each trace it recorded (one per Vulkan device).
    Capture {
        /// Where the trace goes (the second device's gets `.1` before the
        /// extension, and so on).
        #[arg(short, long, value_name = "FILE", default_value = "vksync-capture.trace")]
        output: PathBuf,
        /// Which reading of write-after-write to check the traces under.
        #[arg(long, value_enum, default_value_t = ReadingArg::MemoryModel)]
        reading: ReadingArg,
        /// Fault injection, off by default (a positive control): drop the
        /// application's N-th pipeline barrier call (from 1, per device) on
        /// its way to the device; the trace is what ran, with a comment
        /// where the barrier was.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        drop_barrier: Option<u64>,
        /// Fault injection, off by default (a positive control): drop the
        /// application's N-th semaphore wait of a queue submission (from 1,
        /// per device, over batches and waits in order).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "drop_barrier")]
        drop_wait: Option<u64>,
        /// The command and its arguments (after `--`).
        #[arg(last = true, required = true, value_name = "COMMAND")]
        command: Vec<std::ffi::OsString>,
    },
}

/// A positive, finite number of seconds, at least a microsecond.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    let d = Duration::try_from_secs_f64(seconds)
        .map_err(|_| format!("`{text}` is not a usable number of seconds"))?;
    if d < Duration::from_micros(1) {
        return Err(format!("`{text}`: the timeout must be at least a microsecond"));
    }
    Ok(d)
}

#[derive(clap::Args, Debug)]
struct Planning {
    /// Which planner inserts the barriers.
    #[arg(long, value_enum, default_value_t = Planner::Offline)]
    planner: Planner,
    /// Emit buffer memory barriers (with byte ranges) instead of global memory barriers.
    #[arg(long)]
    buffer_barriers: bool,
    /// Which reading of write-after-write the plan must satisfy: both
    /// (`visible-to-writes`, the default: the earlier write is made visible
    /// to the later one, which no validation layer reports) or only the
    /// memory model's (`memory-model`: the fewest bits).
    #[arg(long, value_enum, default_value_t = ReadingArg::VisibleToWrites)]
    reading: ReadingArg,
}

impl Planning {
    fn options(&self) -> PlanOptions {
        PlanOptions::new(self.planner.kind())
            .form(if self.buffer_barriers {
                BarrierForm::Buffer
            } else {
                BarrierForm::Global
            })
            .reading(self.reading.reading())
    }
}

/// `vksync::Reading` by its command-line name.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ReadingArg {
    /// The memory model appendix: a write-after-write needs the earlier
    /// write made available.
    MemoryModel,
    /// The synchronization chapter as the validation layer reads it: also
    /// made visible to the later write.
    VisibleToWrites,
}

impl ReadingArg {
    fn reading(self) -> vksync::Reading {
        match self {
            ReadingArg::MemoryModel => vksync::Reading::MemoryModel,
            ReadingArg::VisibleToWrites => vksync::Reading::VisibleToWrites,
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

/// What `plan --compare` shows on the left: a planner's plan, or the
/// trace's own barriers.
#[derive(ValueEnum, Clone, Copy, Debug)]
enum Compared {
    /// The trace's own barriers, each judged: needed, or redundant alone.
    Recorded,
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

impl Compared {
    /// The planner, or `None` for the recorded barriers.
    fn planner(self) -> Option<Planner> {
        match self {
            Compared::Recorded => None,
            Compared::Offline => Some(Planner::Offline),
            Compared::Online => Some(Planner::Online),
            Compared::Conservative => Some(Planner::Conservative),
            Compared::PerObject => Some(Planner::PerObject),
            Compared::None => Some(Planner::None),
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
    Timeout = 4,
    Limit = 5,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout, usage errors to stderr; either
            // failing to print is reported like any other output failure.
            let printed = e.print();
            let status = match printed {
                Err(p) if p.kind() != std::io::ErrorKind::BrokenPipe => {
                    to_stderr!("vksync: error: cannot write to standard output: {p}");
                    Status::BadInput as i32
                }
                _ => e.exit_code(),
            };
            return ExitCode::from(status as u8);
        }
    };
    set_limits(&cli);
    let mut out = Out::stdout();
    let status = match cli.command {
        Cmd::Check {
            file,
            reading,
            svg,
            by_definition,
            layer,
            jobs,
        } => {
            let layer = layernotes::LayerChoice::from_arg(layer.as_deref());
            let jobs = match jobs {
                0 => std::thread::available_parallelism().map_or(1, usize::from),
                n => n,
            };
            match layernotes::validate(&layer) {
                Ok(()) => check_drawing(
                    &file,
                    reading.reading(),
                    svg.as_deref(),
                    by_definition,
                    &layer,
                    jobs,
                    &mut out,
                ),
                Err(e) => {
                    to_stderr!("{e}");
                    Status::BadInput
                }
            }
        }
        Cmd::Plan {
            file,
            planning,
            schedule: true,
            ..
        } => plan_scheduled(&file, &planning, &mut out),
        Cmd::Plan {
            file,
            planning,
            svg,
            compare,
            repeat,
            schedule: false,
            split_barriers,
            async_compute,
        } => {
            let multi = planout::Multi {
                split_barriers,
                async_compute,
            };
            plan(&file, &planning, svg.as_deref(), compare, repeat, multi, &mut out)
        }
        Cmd::Run {
            file,
            timeout,
            as_written: true,
            submit_validation,
            ..
        } => run::run_as_written(&file, timeout, submit_validation, &mut out),
        Cmd::Run {
            file,
            planning,
            timeout,
            as_written: false,
            ..
        } => run::run(&file, planning.options(), timeout, &mut out),
        Cmd::Capture {
            output,
            reading,
            drop_barrier,
            drop_wait,
            command,
        } => {
            let fault = drop_barrier
                .map(|n| ("barrier", n))
                .or(drop_wait.map(|n| ("wait", n)));
            capture::capture(&output, &command, reading.reading(), fault, &mut out)
        }
    };
    ExitCode::from(finished(out, status) as u8)
}

/// The status once the output is written: a reader that went away leaves
/// the command's status; any other write failure is reported and is 2.
fn finished(out: Out, status: Status) -> Status {
    match out.finish() {
        Written::All | Written::Closed => status,
        Written::Failed(e) => {
            to_stderr!("vksync: error: cannot write to standard output: {e}");
            Status::BadInput
        }
    }
}

/// Loads a trace; its `not-modelled` lines (what a capture saw and the
/// model cannot express) are noted on stderr, whatever the subcommand, so
/// they are never dropped silently.
pub(crate) fn load(file: &std::path::Path) -> Result<Source, Status> {
    let source = Source::load(file).map_err(|e| {
        to_stderr!("{e}");
        Status::BadInput
    })?;
    for note in source.not_modelled_notes() {
        to_stderr!("{note}");
    }
    Ok(source)
}

/// After `vksync check`'s hazards (`status`): the queue family ownership
/// issues (`vksync::check_ownership`), which a race-free program can still
/// have.
fn ownership(source: &Source, status: Status, out: &mut Out) -> Status {
    let issues = match vksync::check_ownership(&source.trace.program) {
        Ok(i) => i,
        Err(e) => {
            to_stderr!(
                "{}",
                input::program_error(&source.name, &source.text, &source.trace, e)
            );
            return Status::BadInput;
        }
    };
    for i in &issues {
        if out.stopped() {
            break;
        }
        let line = source.trace.command_lines.get(i.command).copied().unwrap_or(0);
        say!(
            out,
            "{}:{line}: ownership: {}",
            source.name,
            i.describe(&source.trace.program)
        );
    }
    match issues.len() {
        0 => status,
        n => {
            let s = if n == 1 { "" } else { "s" };
            to_stderr!(
                "{}: {n} queue family ownership issue{s} (contents undefined or an invalid transfer)",
                source.name
            );
            Status::Findings
        }
    }
}

/// The picture `--svg` asked for, or the status of the refusal (reported
/// here): a program error at its line, a timeline too large at the file.
fn picture(source: &Source, drawn: Option<Result<String, svg::SvgError>>) -> Result<Option<String>, Status> {
    match drawn {
        None => Ok(None),
        Some(Ok(picture)) => Ok(Some(picture)),
        Some(Err(svg::SvgError::Program(e))) => {
            to_stderr!(
                "{}",
                input::program_error(&source.name, &source.text, &source.trace, e)
            );
            Err(Status::BadInput)
        }
        Some(Err(e)) => {
            to_stderr!("{}: error: {e}", source.name);
            Err(Status::BadInput)
        }
    }
}

/// Writes a picture drawn by `--svg`; `status` unless that fails.
fn write_picture(path: Option<&std::path::Path>, picture: Option<String>, status: Status) -> Status {
    if let (Some(path), Some(picture)) = (path, picture) {
        if let Err(e) = std::fs::write(path, picture) {
            to_stderr!("{}: error: cannot write: {e}", path.display());
            return Status::BadInput;
        }
    }
    status
}

/// `vksync check FILE` (also run by `capture` on each trace it records):
/// the hazards, then the ownership issues.
fn check(file: &std::path::Path, reading: vksync::Reading, out: &mut Out) -> Status {
    check_drawing(file, reading, None, false, &layernotes::LayerChoice::None, 1, out)
}

/// `vksync check FILE [--svg OUT | --by-definition]`.
fn check_drawing(
    file: &std::path::Path,
    reading: vksync::Reading,
    svg_out: Option<&std::path::Path>,
    by_definition: bool,
    layer: &layernotes::LayerChoice,
    jobs: usize,
    out: &mut Out,
) -> Status {
    let source = match load(file) {
        Ok(s) => s,
        Err(st) => return st,
    };
    // The picture first: a trace too large to draw is refused before
    // anything is printed.
    let drawn = match picture(&source, svg_out.map(|_| svg::render_trace(&source, reading))) {
        Ok(d) => d,
        Err(st) => return st,
    };
    let checked = if by_definition {
        check_by_spec(&source, reading, "--by-definition", out)
    } else {
        check_source(&source, reading, layer, jobs, out)
    };
    match checked {
        Status::BadInput => Status::BadInput,
        status => {
            order_notes(&source, out);
            let status = ownership(&source, status, out);
            write_picture(svg_out, drawn, status)
        }
    }
}

fn check_source(
    source: &Source,
    reading: vksync::Reading,
    layer: &layernotes::LayerChoice,
    jobs: usize,
    out: &mut Out,
) -> Status {
    let program = &source.trace.program;
    let sem = vksync::Semantics::for_reading(reading);
    // One queue: the hazards grouped as they are found (memory linear in
    // the lines printed), on `jobs` threads. A program that path refuses,
    // and every program with several queues (the fix may be a semaphore,
    // which the race format names), goes to `vksync::check_program`, which
    // falls back to the definitional semantics itself; its pairs are
    // grouped as races (`print_races`).
    let multi = program.first_multi_queue_command().is_some();
    let grouped = if multi {
        None
    } else {
        vksync::check_report_parallel(program, sem, jobs).ok()
    };
    let Some(groups) = grouped else {
        // Grouped as the walk finds them (`vksync::check_grouped`): memory
        // linear in the program and the lines printed, however many pairs
        // race.
        let checked = match vksync::check_grouped(program, sem) {
            Ok(c) => c,
            Err(e) => {
                // `load` resolved the program already; a failure here
                // would be a model inconsistency, still reported as an
                // input error.
                to_stderr!(
                    "{}",
                    input::program_error(&source.name, &source.text, &source.trace, e)
                );
                return Status::BadInput;
            }
        };
        if let vksync::DecidedBy::Definition { command, why } = &checked.decided_by {
            // On the line where the fast checker stopped: which wait, event
            // or render pass sent the trace to the slow one.
            let at = source
                .trace
                .line_of(vksync::Location::Command(*command))
                .map_or_else(|| source.name.clone(), |l| format!("{}:{l}", source.name));
            spec_note_at(&at, &format!("{why}: the fast checker does not model it"));
        }
        return match vksync::resolve(program) {
            Ok(layout) => print_race_groups(source, &layout, &checked.groups, reading, out),
            Err(e) => {
                to_stderr!(
                    "{}",
                    input::program_error(&source.name, &source.text, &source.trace, e)
                );
                Status::BadInput
            }
        };
    };
    let at =
        report::Placement::new(&source.trace.program, &source.trace.command_lines).with_calls(&source.text);
    for g in &groups {
        if out.stopped() {
            break;
        }
        let line = report::hazard_line(&source.name, &source.trace.program, &at, g);
        say!(out, "{line}");
    }
    // What a capture saw and the model cannot express (noted by `load`),
    // counted in the summary.
    let not_modelled = not_modelled_suffix(source);
    to_stderr!(
        "{}: {}{not_modelled}",
        source.name,
        report::summary_groups(program, &groups)
    );
    layernotes::print_layer_notes(source, &groups, layer, out);
    if groups.is_empty() {
        Status::Clean
    } else {
        Status::Findings
    }
}

/// The order notes of a checked trace (`vksync::order_notes`): host
/// accesses between recording a command and submitting it, which run
/// first. They are no hazards and do not change the exit status.
fn order_notes(source: &Source, out: &mut Out) {
    let Ok(notes) = vksync::order_notes(&source.trace.program) else {
        return;
    };
    let at =
        report::Placement::new(&source.trace.program, &source.trace.command_lines).with_calls(&source.text);
    for n in &notes {
        if out.stopped() {
            break;
        }
        let line = report::order_note_line(&source.name, &source.trace.program, &at, n);
        say!(out, "{line}");
    }
    match notes.len() {
        0 => {}
        1 => to_stderr!("{}: 1 order note (not a hazard)", source.name),
        k => to_stderr!("{}: {k} order notes (not hazards)", source.name),
    }
}

/// What a capture saw and the model cannot express (noted by `load`), as
/// the check summary's suffix.
fn not_modelled_suffix(source: &Source) -> String {
    match source.trace.not_modelled.len() {
        0 => String::new(),
        1 => "; 1 call not modelled, not checked".to_string(),
        n => format!("; {n} calls not modelled, not checked"),
    }
}

/// `vksync check --by-definition`: the races of the definitional
/// semantics, in the hazard lines' format; `why` says why it decides.
fn check_by_spec(source: &input::Source, reading: vksync::Reading, why: &str, out: &mut Out) -> Status {
    spec_note(source, why);
    let program = &source.trace.program;
    let races = match vksync::spec::races(program, reading) {
        Ok(r) => r,
        Err(e) => {
            to_stderr!(
                "{}",
                input::program_error(&source.name, &source.text, &source.trace, e)
            );
            return Status::BadInput;
        }
    };
    let layout = match vksync::resolve(program) {
        Ok(l) => l,
        Err(e) => {
            to_stderr!(
                "{}",
                input::program_error(&source.name, &source.text, &source.trace, e)
            );
            return Status::BadInput;
        }
    };
    print_races(source, &layout, &races, reading, out)
}

/// The note that the definitional semantics decided a trace, and `why`.
fn spec_note(source: &input::Source, why: &str) {
    spec_note_at(&source.name, why);
}

/// [`spec_note`] at `at` (the file, or the file and a line).
fn spec_note_at(at: &str, why: &str) {
    to_stderr!(
        "{at}: note: checked by the definitional semantics ({why}); it is quadratic to cubic in the \
         program's size"
    );
}

/// Prints races in the hazard format (the fix names a semaphore between
/// queues) and the summary.
fn print_races(
    source: &input::Source,
    layout: &vksync::Layout,
    races: &[vksync::spec::Race],
    reading: vksync::Reading,
    out: &mut Out,
) -> Status {
    let groups = vksync::group_races(&source.trace.program, races);
    print_race_groups(source, layout, &groups, reading, out)
}

/// Prints grouped races ([`print_races`]) and the summary.
fn print_race_groups(
    source: &input::Source,
    layout: &vksync::Layout,
    groups: &[vksync::RaceGroup],
    reading: vksync::Reading,
    out: &mut Out,
) -> Status {
    let program = &source.trace.program;
    let at = report::Placement::new(program, &source.trace.command_lines).with_calls(&source.text);
    for g in groups {
        if out.stopped() {
            break;
        }
        let line = report::race_line(&source.name, program, layout, &at, g, reading);
        say!(out, "{line}");
    }
    let not_modelled = not_modelled_suffix(source);
    // Every pair: the definitional semantics' and the multi-queue walk's.
    to_stderr!(
        "{}: {}{not_modelled}",
        source.name,
        report::summary_race_groups(program, groups, true)
    );
    // Every race is in a group: no group, no race.
    if groups.is_empty() {
        Status::Clean
    } else {
        Status::Findings
    }
}

/// The plan with the barrier its loop-carried dependencies need put first
/// (`vksync::plan::for_repeated_submission`), indices kept attached.
fn with_loop_barrier(
    mut plan: vksync::plan::Plan,
    opts: PlanOptions,
) -> Result<vksync::plan::Plan, vksync::ProgramError> {
    let looped = vksync::plan::for_repeated_submission(&plan.program, opts.reading)?;
    if looped.commands().len() > plan.program.commands().len() {
        plan.origin.insert(0, None);
        for (idx, _) in plan.answers.iter_mut() {
            *idx += 1;
        }
    }
    plan.program = looped;
    Ok(plan)
}

/// `vksync plan --schedule`: the schedule's plan, with a header that gives
/// its barrier points against the dependency bound and the pool peak
/// against program order's.
fn plan_scheduled(file: &std::path::Path, planning: &Planning, out: &mut Out) -> Status {
    let source = match load(file) {
        Ok(s) => s,
        Err(st) => return st,
    };
    if !matches!(planning.planner, Planner::Offline) {
        to_stderr!(
            "{}: error: --schedule plans with the offline planner",
            source.name
        );
        return Status::BadInput;
    }
    // The schedule reorders the commands of one queue; a trace with
    // several queues is planned across them without it (the library's
    // refusal names the definitional semantics, which plans nothing).
    if source.trace.program.first_multi_queue_command().is_some() {
        to_stderr!(
            "{}: error: --schedule is not available with a plan across several queues (it reorders the commands of one queue; plan without it)",
            source.name
        );
        return Status::BadInput;
    }
    let opts = planning.options();
    let sopts = vksync::plan::ScheduleOptions {
        reading: opts.reading,
        form: opts.form,
        ..Default::default()
    };
    let done = vksync::plan::schedule(&source.trace.program, sopts)
        .and_then(|s| planout::PlanStats::of(&source, &s.plan, opts).map(|st| (s, st)));
    let (s, stats) = match done {
        Ok(x) => x,
        Err(e) => {
            to_stderr!(
                "{}",
                input::program_error(&source.name, &source.text, &source.trace, e)
            );
            return Status::BadInput;
        }
    };
    let body = planout::render(&source, &s.plan, opts, &stats, false);
    let body: String = body.lines().skip(2).map(|l| format!("{l}\n")).collect();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    out.text(&format!(
        "# {} scheduled by vksync plan --schedule ({}), then planned offline\n\
         # {} barrier point{} (dependency bound {}), {} stage/access bits; pool peak {} bytes; \
         program order: {} point{}, pool peak {} bytes; vksync check: {}\n{body}",
        source.name,
        s.kind.name(),
        s.points,
        plural(s.points),
        s.bound,
        stats.bits,
        s.pool_peak,
        s.program_order_points,
        plural(s.program_order_points),
        s.program_order_peak,
        report::summary(&stats.remaining),
    ));
    Status::Clean
}

fn plan(
    file: &std::path::Path,
    planning: &Planning,
    svg_out: Option<&std::path::Path>,
    compare: Option<Compared>,
    repeat: bool,
    multi: planout::Multi,
    out: &mut Out,
) -> Status {
    let source = match load(file) {
        Ok(s) => s,
        Err(st) => return st,
    };
    let opts = planning.options();
    let several_queues = source.trace.program.first_multi_queue_command().is_some();
    if several_queues || multi.split_barriers || multi.async_compute {
        // The trace's own barriers judged beside the plan across queues.
        let recorded = matches!(compare, Some(Compared::Recorded)) && several_queues && !multi.async_compute;
        let other = [
            (svg_out.is_some(), "--svg"),
            (compare.is_some() && !recorded, "--compare"),
            (repeat, "--repeat"),
            // (`--split-barriers` with `--async-compute`: refused by clap.)
            (multi.split_barriers && several_queues, "--split-barriers"),
        ];
        if let Some((_, flag)) = other.iter().find(|(on, _)| *on) {
            let what = if several_queues || multi.async_compute {
                "a plan across several queues"
            } else {
                "--split-barriers"
            };
            to_stderr!("{}: error: {flag} is not available with {what}", source.name);
            return Status::BadInput;
        }
        if several_queues && multi.async_compute {
            to_stderr!(
                "{}: error: --async-compute assigns a single-queue trace to queues; this trace already uses several (plan it without the flag)",
                source.name
            );
            return Status::BadInput;
        }
        let text = if recorded {
            planout::recorded_multi(&source, opts)
        } else {
            planout::plan_multi(&source, opts, multi)
        };
        return match text {
            Ok(text) => {
                out.text(&text);
                Status::Clean
            }
            Err(e) => {
                to_stderr!("{e}");
                Status::BadInput
            }
        };
    }
    // A repeated command buffer holds device commands only: say so on the
    // input's line before planning inserts submits and waits.
    // (So are layouts a second submission does not accept, on the line
    // of the command that would find the wrong one.)
    let repeatable = if repeat {
        vksync::plan::repeated(&source.trace.program, 1).map(|_| ())
    } else {
        Ok(())
    };
    let planned = repeatable
        .and_then(|()| vksync::plan::plan(&source.trace.program, opts))
        .and_then(|p| if repeat { with_loop_barrier(p, opts) } else { Ok(p) })
        .and_then(|p| planout::PlanStats::of(&source, &p, opts).map(|s| (p, s)));
    let (planned, stats) = match planned {
        Ok(x) => x,
        Err(e) => {
            to_stderr!(
                "{}",
                input::program_error(&source.name, &source.text, &source.trace, e)
            );
            return Status::BadInput;
        }
    };
    // A plan that races is a defect of the planner, never a plan to print
    // with exit status 0 (review23: a render pass's transition before a
    // dispatch after the instance got no barrier, and the header said
    // "race-free" beside "vksync check: 1 hazard"), as across queues
    // (`planout::plan_multi`). The baselines promise no race-free plan.
    if let (Some(h), false) = (
        stats.remaining.first(),
        matches!(
            opts.planner,
            vksync::plan::PlannerKind::None | vksync::plan::PlannerKind::PerObject
        ),
    ) {
        to_stderr!(
            "{}: error: the plan is not race-free (vksync check: {}; the first at command {} of the plan, {}): a defect of vksync's planner, not of the trace; please report it with this trace",
            source.name,
            report::summary(&stats.remaining),
            h.command,
            h.kind.message_id()
        );
        return Status::BadInput;
    }
    // The picture first: a trace too large to draw is refused before
    // anything is printed.
    let drawn = match picture(
        &source,
        svg_out.map(|_| svg::render(&source, &planned, opts, &stats)),
    ) {
        Ok(d) => d,
        Err(st) => return st,
    };
    let text = match compare.map(Compared::planner) {
        None => planout::render(&source, &planned, opts, &stats, repeat),
        Some(None) => match vksync::plan::recorded_plan(&source.trace.program, opts.reading) {
            Ok((recorded, barriers)) => {
                planout::recorded_side_by_side(&source, &recorded, &barriers, (opts.planner.name(), &planned))
            }
            Err(e) => {
                to_stderr!(
                    "{}",
                    input::program_error(&source.name, &source.text, &source.trace, e)
                );
                return Status::BadInput;
            }
        },
        Some(Some(other)) => {
            let other_opts = PlanOptions::new(other.kind())
                .form(opts.form)
                .reading(opts.reading);
            // The other planner may refuse what this one planned (a plan
            // that would need a barrier inside a rendering instance: the
            // streaming planners place one there where the offline one
            // does not): its refusal, as for the first.
            let other_plan = match vksync::plan::plan(&source.trace.program, other_opts) {
                Ok(p) => p,
                Err(e) => {
                    to_stderr!(
                        "{}",
                        input::program_error(&source.name, &source.text, &source.trace, e)
                    );
                    return Status::BadInput;
                }
            };
            planout::side_by_side(
                &source,
                (other_opts.planner.name(), &other_plan),
                (opts.planner.name(), &planned),
            )
        }
    };
    out.text(&text);
    write_picture(svg_out, drawn, Status::Clean)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--timeout` values: (text, accepted as).
    #[test]
    fn timeouts_are_positive_seconds() {
        let cases: &[(&str, Option<Duration>)] = &[
            ("10", Some(Duration::from_secs(10))),
            ("0.05", Some(Duration::from_millis(50))),
            (" 2.5 ", Some(Duration::from_millis(2500))),
            ("1e-3", Some(Duration::from_millis(1))),
            ("0", None),
            ("0.0000001", None),
            ("-1", None),
            ("inf", None),
            ("NaN", None),
            ("ten", None),
            ("1e30", None),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_seconds(text).ok(), *expected, "{text:?}");
        }
    }
}
