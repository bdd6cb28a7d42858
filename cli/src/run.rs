//! `vksync run`: plan a trace, record it on a Vulkan device, run it, and
//! compare the bytes the host reads back with the CPU reference.
//!
//! This module owns the subcommand's report: the device and the
//! validation layer's version, the plan's size, the layer's verdict
//! (messages mapped back to trace lines) and one line per host read; and
//! its errors, each naming the input line it is about: the checks run on
//! the input as written (without a device, then with the device's limits)
//! before planning, and errors of the planned program's run (a fence
//! timeout) are mapped back through the plan's `origin`. The layer's
//! messages are judged on the program as the device recorded it
//! (`vksync_runtime::Device::recorded`: a driver workaround may record a
//! barrier stronger than given), and the report says where that differs
//! from the program given. Recording, submission and validation capture are
//! the `vksync-runtime` crate's; the reference is the model's. A trace
//! without host reads gets one of every buffer and pool appended, so every
//! run compares something. Timings are left out on purpose: they vary from
//! run to run, and this output is part of the tested interface
//! (`vksync-bench` measures time).

use crate::input::{self, Source};
use crate::output::{say, to_stderr, Out};
use crate::Status;
use std::path::Path;
use std::time::Duration;
use vksync::layer::{self, Explanation, Layer};
use vksync::plan::{BarrierForm, Plan, PlanOptions};
use vksync::reference::KernelError;
use vksync::{Command, Location, Program};
use vksync_runtime::{
    check_program, check_reference_memory, compare_with_reference, host_memory_available, Device,
    DeviceLimits, DeviceOptions, RuntimeError,
};

/// `vksync_runtime::with_readback`, and whether it added the reads.
fn with_readback(program: &Program) -> (Program, bool) {
    match vksync_runtime::with_readback(program) {
        Some(p) => (p, true),
        None => (program.clone(), false),
    }
}

/// How a validation message relates to the model, for the layer profile
/// `layer` (`docs/semantics.md`, `vksync::layer`).
enum Verdict {
    /// A hazard vksync reports too.
    Hazard,
    /// Explained by a known layer difference (its id, or the profile's).
    Explained(String),
    /// Nothing the model knows predicts it (or not a hazard message).
    Unexplained,
}

/// How a message at `command` relates to the model. In a multi-queue
/// program, a message nothing explains in the whole program is looked up
/// again in its command buffer alone ([`command_buffer_alone`]: the layer
/// emulation and the toggles take one queue), where only a known
/// difference or the profile counts (a hazard of the specification there
/// is one of the whole program, which vksync did not report).
fn judge(program: &Program, command: Option<usize>, id_name: &str, layer: Layer) -> Verdict {
    let (Some(command), Some(kind)) = (command, layer::kind_of_message(id_name)) else {
        return Verdict::Unexplained;
    };
    let verdict = |p: &Program, c: usize| match layer::explain(p, c, kind, &layer.emulation()) {
        Explanation::Spec => Verdict::Hazard,
        Explanation::Difference(d) => Verdict::Explained(format!("known layer difference {}", d.id)),
        Explanation::Profile => Verdict::Explained(format!("the layer {} profile", layer.version())),
        _ => Verdict::Unexplained,
    };
    match verdict(program, command) {
        Verdict::Unexplained if program.first_multi_queue_command().is_some() => {
            match command_buffer_alone(program, command).map(|(p, c)| verdict(&p, c)) {
                Some(v @ Verdict::Explained(_)) => v,
                _ => Verdict::Unexplained,
            }
        }
        v => v,
    }
}

/// The command buffer that holds device command `c`, alone, as a
/// single-queue program (every object of `program`, its `alloc`s and
/// `free`s up to the end of that command buffer and its later `alloc`s, so
/// that every blob is declared, and the command buffer's device commands
/// and pipeline barriers), and `c`'s index there. A
/// command buffer runs from the last `submit` or host access before `c`
/// to the next one, as the runtime records it (the layer emulation's K1).
/// This is all a layer validating at record time sees, so it is where the
/// known differences of a multi-queue trace are looked for (the checker
/// takes no layer toggle across queues). `None` when `c` is not a device
/// command, or the command buffer holds an event command, or the model
/// refuses the program alone (an ownership transfer, say).
fn command_buffer_alone(program: &Program, c: usize) -> Option<(Program, usize)> {
    let cmds = program.commands();
    if !vksync::is_device_command(cmds.get(c)?) {
        return None;
    }
    let cut = |x: &Command| {
        matches!(
            x,
            Command::Submit(_) | Command::HostRead { .. } | Command::HostWrite { .. }
        )
    };
    let start = cmds[..c].iter().rposition(cut).map_or(0, |i| i + 1);
    let end = cmds[c..].iter().position(cut).map_or(cmds.len(), |k| c + k);
    let mut alone = Vec::new();
    let mut at = None;
    for (i, x) in cmds[..end].iter().enumerate() {
        let keep = match x {
            Command::Alloc { .. } | Command::Free { .. } => true,
            Command::Barrier(_) => i >= start,
            x if vksync::is_device_command(x) => i >= start,
            // An event or queue command inside the command buffer: not
            // a single-queue program without it.
            _ if i >= start => return None,
            _ => false,
        };
        if keep {
            if i == c {
                at = Some(alone.len());
            }
            alone.push(x.clone());
        }
    }
    alone.extend(
        cmds[end..]
            .iter()
            .filter(|x| matches!(x, Command::Alloc { .. }))
            .cloned(),
    );
    let p = Program::from_parts(program.objects().to_vec(), alone).ok()?;
    Some((p, at?))
}

/// Up to three wrong words of the host read compared in `c`, one line
/// each: the device's word and the reference's, and which command of the
/// reference's history of that word (`vksync::reference::word_history`)
/// left each value, so that a stale value names the write it predates.
/// `line` names a command index.
fn wrong_words(
    program: &Program,
    result: &vksync_runtime::RunResult,
    c: &vksync_runtime::ReadbackComparison,
    line: impl Fn(usize) -> String,
) -> Vec<String> {
    let Some(device) = result.readback(c.command) else {
        return Vec::new();
    };
    let mut words: Vec<usize> = c.mismatches.iter().map(|&o| o / 4 * 4).collect();
    words.dedup();
    words
        .into_iter()
        .take(3)
        .filter_map(|off| {
            let d = u32::from_le_bytes(device.get(off..off + 4)?.try_into().ok()?);
            let history = vksync::reference::word_history(program, c.command, off as u64).ok()?;
            let want = history.last()?.value;
            let after = |v: Option<u32>| {
                history.iter().rev().find(|h| h.value == v).map_or(
                    "no value the reference gives it before the read".to_string(),
                    |h| {
                        h.command.map_or("its value before any command".to_string(), |a| {
                            format!("the value after {}", line(a))
                        })
                    },
                )
            };
            let want_text = want.map_or("undefined".to_string(), |w| format!("{w:#010x}"));
            Some(format!(
                "    word at byte {off}: device {d:#010x} ({}), reference {want_text} ({})",
                after(Some(d)),
                after(want)
            ))
        })
        .collect()
}

/// An error's location and its message without the location (which the
/// caller turns into a line of the input).
fn split(e: &RuntimeError) -> (Option<Location>, String) {
    match e {
        RuntimeError::Check { at, source } => (Some(*at), source.to_string()),
        RuntimeError::Program { at, source } => (Some(*at), source.to_string()),
        other => (other.location(), other.to_string()),
    }
}

/// A duration as the seconds `--timeout` takes: `0.05 s`, `10 s`.
fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// One host read compared with the reference, as `run` and
/// `run --as-written` print it: the bytes read, where (`at`), how many
/// the reference defines and how many differ, and the first that does.
fn readback_line(program: &Program, c: &vksync_runtime::ReadbackComparison, at: String) -> String {
    let first = c
        .mismatches
        .first()
        .map_or(String::new(), |o| format!(", first at byte {o}"));
    let what = match &program.commands()[c.command] {
        Command::HostRead { src } => format!("{} ", program.show_region(*src)),
        _ => String::new(),
    };
    format!(
        "host-read {what}at {at}: {} bytes, {} compared, {} mismatches{first}",
        c.len,
        c.len - c.undefined,
        c.mismatches.len()
    )
}

/// Where a command buffer was submitted, in words: `at line N` (`place(c)`
/// says `line N`) or `at the end of the trace`.
fn submitted_at(c: Option<usize>, place: impl Fn(usize) -> String) -> String {
    c.map_or("at the end of the trace".to_string(), |c| {
        format!("at {}", place(c))
    })
}

/// `FILE:LINE: error: ...` for a fence timeout, in lines: `line(c,
/// forward)` is the line of command `c` (or the nearest at or after it,
/// or at or before it), `at(submit)` where a command buffer was
/// submitted; `unknown` names a span with no line. The earlier command
/// buffer it may be stuck behind is named with its semaphore waits.
/// `None` for another error.
fn timeout_message(
    name: &str,
    e: &RuntimeError,
    program: &Program,
    line: impl Fn(usize, bool) -> Option<usize>,
    at: impl Fn(Option<usize>) -> String,
    unknown: &str,
) -> Option<String> {
    let RuntimeError::FenceTimeout {
        submitted_at,
        first,
        last,
        timeout,
        behind,
    } = e
    else {
        return None;
    };
    let span = |first: usize, last: usize| match (line(first, true), line(last, false)) {
        (Some(a), Some(b)) if a < b => format!("from line {a} to line {b}"),
        (Some(a), _) | (None, Some(a)) => format!("of line {a}"),
        (None, None) => unknown.to_string(),
    };
    let head = line(*first, true).map_or(format!("{name}:"), |l| format!("{name}:{l}:"));
    let before = behind.as_deref().map_or(String::new(), |b| {
        let waits: Vec<String> = b
            .waits
            .iter()
            .map(|(s, v)| {
                let sem = program.semaphores().get(s.0 as usize).map_or("?", |s| s.name.as_str());
                match v {
                    Some(v) => format!("`{sem}` {v}"),
                    None => format!("`{sem}`"),
                }
            })
            .collect();
        let waits = if waits.is_empty() {
            "waits for no semaphore".to_string()
        } else {
            format!("waits for {}", waits.join(", "))
        };
        format!(
            "; before it on its queue, the command buffer {} (submitted {}) has not completed either: its batch {waits}",
            span(b.first, b.last),
            at(b.submitted_at)
        )
    });
    Some(format!(
        "{head} error: the command buffer {} (submitted {}) did not complete within {}{before}; \
         raise the limit with --timeout SECONDS",
        span(*first, *last),
        at(*submitted_at),
        seconds(*timeout)
    ))
}

/// Where the commands of the run program (the input with host reads
/// appended) and of its plan are in the input file.
struct Lines<'a> {
    source: &'a Source,
    plan: &'a Plan,
    /// Input index of each command of the barrier-free input (plan
    /// origins index that).
    kept: Vec<usize>,
}

/// `FILE:LINE: error: MESSAGE` for an error about the run program (the
/// input with host reads appended), whose indices are the input's.
fn input_error(source: &Source, e: &RuntimeError) -> String {
    let name = &source.name;
    let (at, message) = split(e);
    match at.map(|a| (a, source.trace.line_of(a))) {
        Some((_, Some(l))) => format!("{name}:{l}: error: {message}"),
        Some((Location::Command(_), None)) => {
            format!("{name}: error: in the host reads appended at the end of the trace: {message}")
        }
        _ => format!("{name}: error: {message}"),
    }
}

impl Lines<'_> {
    /// The input line of the original command at or after (`forward`) or
    /// at or before planned command `c`.
    fn nearest_line(&self, c: usize, forward: bool) -> Option<usize> {
        let origin = if forward {
            self.plan.origin.get(c..)?.iter().flatten().next()
        } else {
            self.plan.origin.get(..=c)?.iter().flatten().next_back()
        };
        origin.and_then(|&i| self.source.trace.command_lines.get(self.kept[i]).copied())
    }

    /// Where planned command `c` is, in words: `line N`, `planned command
    /// before line N` (inserted by the planner), or `end of trace`.
    fn planned(&self, c: usize) -> String {
        match self.nearest_line(c, true) {
            Some(l) if self.plan.origin.get(c).copied().flatten().is_some() => format!("line {l}"),
            Some(l) => format!("planned command before line {l}"),
            None => "end of trace".to_string(),
        }
    }

    /// `FILE:LINE: error: MESSAGE` for an error about the planned program.
    fn planned_error(&self, e: &RuntimeError) -> String {
        let name = &self.source.name;
        if let Some(m) = timeout_message(
            name,
            e,
            &self.plan.program,
            |c, forward| self.nearest_line(c, forward),
            |c| submitted_at(c, |c| self.planned(c)),
            "of planned commands",
        ) {
            return m;
        }
        let (at, message) = split(e);
        match at {
            Some(Location::Command(c)) => match self.nearest_line(c, true) {
                Some(l) => format!(
                    "{name}:{l}: error: {} ({}): {message}",
                    "in the planned program",
                    self.planned(c)
                ),
                None => format!("{name}: error: {message}"),
            },
            // Objects, queues and semaphores are the same in the input and
            // its plan.
            Some(Location::Object(_) | Location::Queue(_) | Location::Semaphore(_) | Location::Event(_)) => {
                input_error(self.source, e)
            }
            None => format!("{name}: error: {message}"),
        }
    }
}

/// Checks that need no device: each dispatch's arguments against the
/// kernel table (the runtime's pure check, with no device limit), that the
/// reference can run every dispatch (not indirect ones), and that the
/// reference fits in host memory. Errors are about the run program.
fn check_without_device(program: &Program) -> Result<(), RuntimeError> {
    check_program(program, &DeviceLimits::UNLIMITED)?;
    for (i, c) in program.commands().iter().enumerate() {
        if let Command::Dispatch {
            kernel,
            indirect: Some(_),
            ..
        } = c
        {
            return Err(RuntimeError::Check {
                at: Location::Command(i),
                source: KernelError::Indirect {
                    kernel: kernel.clone(),
                }
                .into(),
            });
        }
    }
    check_reference_memory(program, host_memory_available())
}

pub fn run(file: &Path, opts: PlanOptions, timeout: Option<Duration>, out: &mut Out) -> Status {
    let source = match crate::load(file) {
        Ok(s) => s,
        Err(status) => return status,
    };
    let name = &source.name;
    let (program, appended) = with_readback(&source.trace.program);
    // Everything that can be checked is checked on the input as written
    // (so errors name its lines) before anything runs: `Source::load`
    // validated the program; what needs no device comes next, so bad input
    // gets its error and status whether or not Vulkan is installed.
    if let Err(e) = check_without_device(&program) {
        to_stderr!("{}", input_error(&source, &e));
        return Status::BadInput;
    }
    let mut device = match open_device(&source, &program, timeout, false) {
        Ok(d) => d,
        Err(status) => return status,
    };
    // A trace with several queues is planned across them, as `vksync
    // plan` does (semaphores, barriers inside each queue, ownership
    // transfers, fence waits before host accesses); the runtime runs each
    // model queue on a device queue (`queue_mapping` below).
    let across = program.first_multi_queue_command().is_some();
    let planned = if across {
        vksync::plan::plan_queues(&program, vksync::plan::QueuePlanOptions::new(opts))
            .map(|q| {
                let semaphores = format!(
                    ", {} across {}: {}, {}, {}",
                    counted(q.semaphores, "semaphore"),
                    counted(q.plan.program.queue_count(), "queue"),
                    counted(q.waits, "wait"),
                    counted(q.ownership_transfers, "ownership transfer"),
                    counted(q.host_waits, "host wait"),
                );
                (q.plan, semaphores)
            })
            .map_err(|e| crate::planout::queue_error_text(&source, e))
    } else {
        vksync::plan::plan(&program, opts)
            .map(|p| (p, String::new()))
            .map_err(|e| input::program_error(name, &source.text, &source.trace, e).to_string())
    };
    let (plan, across_queues) = match planned {
        Ok(p) => p,
        Err(e) => {
            to_stderr!("{e}");
            return Status::BadInput;
        }
    };
    let lines = Lines {
        source: &source,
        plan: &plan,
        // The planner keeps barriers with layout transitions
        // (`vksync::plan::planning_input`).
        kept: (0..program.commands().len())
            .filter(|&i| !vksync::plan::is_planned_away(&program.commands()[i]))
            .collect(),
    };
    say_device(&device, out);
    let result = match device.run(&plan.program) {
        Ok(r) => r,
        Err(e @ (RuntimeError::FenceTimeout { .. } | RuntimeError::StillRunning { .. })) => {
            to_stderr!("{}", lines.planned_error(&e));
            // The work is still executing and Vulkan cannot cancel it: the
            // device cannot be torn down now, and waiting for it is what the
            // timeout exists to avoid. The process ends right after this;
            // its exit releases the device.
            std::mem::forget(device);
            return Status::Timeout;
        }
        Err(e @ (RuntimeError::Check { .. } | RuntimeError::Program { .. })) => {
            // Checked on the input above; kept for completeness.
            to_stderr!("{}", lines.planned_error(&e));
            return Status::BadInput;
        }
        Err(e) => {
            to_stderr!("{}", lines.planned_error(&e));
            return Status::NoDevice;
        }
    };
    let form = match opts.form {
        BarrierForm::Global => "global memory barriers",
        BarrierForm::Buffer => "buffer memory barriers",
    };
    say!(
        out,
        "plan: {} ({form}), {}, {} stage/access bits{across_queues}",
        opts.planner.name(),
        counted(plan.program.barrier_points(), "barrier point"),
        plan.program.barrier_bits()
    );
    if across {
        say!(out, "queues: {}", result.queue_mapping);
    }
    if appended {
        say!(
            out,
            "no host-read in the trace: reading back every buffer and live blob at the end"
        );
    }
    // What the layer judged: the plan as recorded.
    let recorded = match recorded_or_report(&device, &plan.program, |e| lines.planned_error(e)) {
        Ok(r) => r,
        Err(status) => return status,
    };
    let changed = vksync_runtime::quirks::changed_commands(&plan.program, &recorded);
    if !changed.is_empty() {
        let places: Vec<String> = changed.iter().map(|&c| lines.planned(c)).collect();
        say!(
            out,
            "driver workaround: {} of the plan recorded stronger than planned ({}); \
             the layer's messages are judged on the plan as recorded",
            counted(changed.len(), "barrier command"),
            places.join(", ")
        );
    }
    let mut clean = true;
    let (mut hazards, mut explained, mut unexplained) = (0, 0, 0);
    if result.validation {
        let layer = layer_of(&device);
        for m in &result.messages {
            let at = m.command.map_or("setup".to_string(), |c| lines.planned(c));
            match judge(&recorded, m.command, &m.id_name, layer) {
                Verdict::Hazard => {
                    hazards += 1;
                    say!(
                        out,
                        "validation: {at}: {} ({:?}): a hazard vksync reports too",
                        m.id_name,
                        m.severity
                    );
                    say!(out, "    {}", m.summary());
                }
                Verdict::Explained(why) => {
                    explained += 1;
                    say!(
                        out,
                        "validation: {at}: {} ({:?}): explained by {why} (docs/semantics.md)",
                        m.id_name,
                        m.severity
                    );
                }
                Verdict::Unexplained => {
                    unexplained += 1;
                    say!(
                        out,
                        "validation: {at}: {} ({:?}): not predicted by vksync",
                        m.id_name,
                        m.severity
                    );
                    say!(out, "    {}", m.summary());
                }
            }
        }
        say!(
            out,
            "validation layer: {} ({} vksync reports too, {explained} explained by known layer differences, {unexplained} not predicted)",
            counted(result.messages.len(), "message"),
            counted(hazards, "hazard"),
        );
        clean &= hazards == 0 && unexplained == 0;
    } else {
        say!(
            out,
            "validation layer: not enabled (install vulkan-validationlayers, or unset VKSYNC_VALIDATION=0)"
        );
    }
    match compare_with_reference(&plan.program, &result) {
        Ok(cmp) => {
            let mut total = 0;
            for c in &cmp {
                total += c.mismatches.len();
                say!(
                    out,
                    "{}",
                    readback_line(&plan.program, c, lines.planned(c.command))
                );
                for w in wrong_words(&plan.program, &result, c, |x| lines.planned(x)) {
                    say!(out, "{w}");
                }
            }
            clean &= total == 0;
            say!(
                out,
                "{name}: {} (reference: {} mismatching {}; validation: {}, {} not predicted)",
                if clean { "OK" } else { "FAILED" },
                total,
                if total == 1 { "byte" } else { "bytes" },
                counted(hazards, "hazard"),
                unexplained
            );
        }
        Err(e) => {
            say!(out, "{name}: FAILED: could not compare with the reference: {e}");
            clean = false;
        }
    }
    if clean {
        Status::Clean
    } else {
        Status::Findings
    }
}

/// The layer profile of `device`'s validation layer (1.3.239's when the
/// version is unknown).
fn layer_of(device: &Device) -> Layer {
    device
        .validation_layer_version()
        .map_or(Layer::V1_3_239, |(a, b, c)| Layer::for_version(a, b, c))
}

/// The program `device` recorded for `program` (its driver workarounds
/// applied), or the status to return, already reported with `error`'s
/// wording (a workaround recording an invalid program is a bug of the
/// runtime, not of the input).
fn recorded_or_report<'a>(
    device: &Device,
    program: &'a Program,
    error: impl Fn(&RuntimeError) -> String,
) -> Result<std::borrow::Cow<'a, Program>, Status> {
    device.recorded(program).map_err(|e| {
        to_stderr!(
            "{} (a driver workaround recorded an invalid barrier: a vksync bug)",
            error(&e)
        );
        Status::NoDevice
    })
}

/// vksync's hazards of `program` as `(command, kind)` (`vksync::check`:
/// the fast checker, or the definitional semantics where it refuses a
/// corner).
fn hazards_of(program: &Program) -> Result<Vec<(usize, vksync::HazardKind)>, vksync::ProgramError> {
    vksync::check(program).map(|h| h.iter().map(|h| (h.command, h.kind)).collect())
}

/// `1 message`, `2 messages`.
fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The device for `run` (options from the environment, `timeout`, with
/// `submit_validation` the layer's validation between submissions), and
/// the program checked against its limits (binding alignment and ranges,
/// memory sizes) before anything is planned or recorded; the status to
/// return, already reported, when either fails.
fn open_device(
    source: &Source,
    program: &Program,
    timeout: Option<Duration>,
    submit_validation: bool,
) -> Result<Device, Status> {
    let name = &source.name;
    let mut options = DeviceOptions::try_from_env().map_err(|e| {
        to_stderr!("{name}: error: {e}");
        Status::BadInput
    })?;
    options.print_device = false;
    if let Some(t) = timeout {
        options.fence_timeout = t;
    }
    if submit_validation {
        // Before any other thread: it may set an environment variable.
        options = options.with_submit_validation();
    }
    let device = Device::new(options).map_err(|e| {
        to_stderr!("{name}: error: no Vulkan device: {e}");
        to_stderr!(
            "  install the loader, lavapipe and the validation layer: \
             apt-get install -y libvulkan1 mesa-vulkan-drivers vulkan-validationlayers"
        );
        Status::NoDevice
    })?;
    if let Err(e) = check_program(program, &device.info().limits) {
        to_stderr!("{}", input_error(source, &e));
        return Err(Status::BadInput);
    }
    Ok(device)
}

/// `device: NAME[; validation layer X.Y.Z]`.
fn say_device(device: &Device, out: &mut Out) {
    match device.validation_layer_version() {
        Some((major, minor, patch)) => say!(
            out,
            "device: {}; validation layer {major}.{minor}.{patch}",
            device.name()
        ),
        None => say!(out, "device: {}", device.name()),
    }
    // Driver workarounds on (vksync_runtime::quirks; off with
    // VKSYNC_DRIVER_WORKAROUNDS=0).
    for k in vksync_runtime::quirks::KNOWN {
        if device.info().quirks.contains(&k.quirk) {
            say!(out, "driver workaround: {} ({})", k.summary, k.evidence);
        }
    }
}

/// `vksync run --as-written`: the trace with its own barriers, semaphores
/// and events (no plan), on the device, against the CPU reference; each
/// synchronization hazard the validation layer reports is compared with
/// vksync's hazards of the trace: at the command it names, or, for a
/// hazard found at a submission (queue-submit validation), at a command of
/// that submission's batch. A message vksync does not report is then
/// explained, as `run` explains it, by a known layer difference or the
/// layer's profile (`vksync::layer::explain`), in a multi-queue trace
/// within the message's command buffer alone ([`command_buffer_alone`]:
/// the layer emulation takes one queue), or listed as not reported by
/// vksync.
///
/// The layer judges the trace as the device recorded it: where a driver
/// workaround recorded a barrier stronger than written, the messages are
/// judged against vksync's hazards of the trace as recorded, and the
/// report names those lines and the hazards of the trace as written that
/// the recorded barriers remove (still counted in the verdict: they are
/// the trace's).
pub fn run_as_written(
    file: &Path,
    timeout: Option<Duration>,
    submit_validation: bool,
    out: &mut Out,
) -> Status {
    let source = match crate::load(file) {
        Ok(s) => s,
        Err(status) => return status,
    };
    let name = &source.name;
    let (program, appended) = with_readback(&source.trace.program);
    if let Err(e) = check_without_device(&program) {
        to_stderr!("{}", input_error(&source, &e));
        return Status::BadInput;
    }
    // vksync's hazards of the trace as written (the definitional semantics
    // where the fast checker refuses a corner): without the appended
    // reads, which the runtime performs after waiting for every fence and
    // which the trace does not synchronize (their commands come after the
    // trace's, so the indices are the same).
    let written = &source.trace.program;
    let hazards = match hazards_of(written) {
        Ok(h) => h,
        Err(e) => {
            to_stderr!("{}", input::program_error(name, &source.text, &source.trace, e));
            return Status::BadInput;
        }
    };
    let mut device = match open_device(&source, &program, timeout, submit_validation) {
        Ok(d) => d,
        Err(status) => return status,
    };
    say_device(&device, out);
    let line = |c: usize| {
        source
            .trace
            .command_lines
            .get(c)
            .map_or_else(|| "the end".to_string(), |l| format!("line {l}"))
    };
    let result = match device.run(&program) {
        Ok(r) => r,
        Err(e @ (RuntimeError::FenceTimeout { .. } | RuntimeError::StillRunning { .. })) => {
            let lines = &source.trace.command_lines;
            let message = timeout_message(
                name,
                &e,
                &program,
                |c, _| lines.get(c).copied(),
                |c| submitted_at(c, line),
                "of the host reads appended at the end",
            )
            .unwrap_or_else(|| format!("{name}: error: {e}"));
            to_stderr!("{message}");
            // As for `run`: the work cannot be cancelled.
            std::mem::forget(device);
            return Status::Timeout;
        }
        Err(e) => {
            to_stderr!("{}", input_error(&source, &e));
            return Status::NoDevice;
        }
    };
    let ownership = vksync::check_ownership(&program).map_or(0, |i| i.len());
    say!(
        out,
        "as written: {} barrier points, {} queues ({}); vksync: {}, {}",
        program.barrier_points(),
        program.queue_count(),
        result.queue_mapping,
        counted(hazards.len(), "hazard"),
        counted(ownership, "ownership issue")
    );
    if appended {
        say!(
            out,
            "no host-read in the trace: reading back every buffer and live blob at the end"
        );
    }
    // What the layer judged: the trace as recorded (the appended reads
    // have no barrier, so only the trace's commands can differ).
    let recorded = match recorded_or_report(&device, written, |e| input_error(&source, e)) {
        Ok(r) => r,
        Err(status) => return status,
    };
    let changed = vksync_runtime::quirks::changed_commands(written, &recorded);
    let judged = if changed.is_empty() {
        hazards.clone()
    } else {
        let judged = match hazards_of(&recorded) {
            Ok(h) => h,
            Err(e) => {
                to_stderr!(
                    "{}: error: the trace as recorded with the driver workarounds: {e} (a vksync bug)",
                    name
                );
                return Status::NoDevice;
            }
        };
        let places: Vec<String> = changed.iter().map(|&c| line(c)).collect();
        say!(
            out,
            "driver workaround: {} recorded stronger than written ({}); vksync: {} in the trace as recorded, \
             which the layer's messages are judged against",
            counted(changed.len(), "barrier command"),
            places.join(", "),
            counted(judged.len(), "hazard")
        );
        for &(c, k) in hazards.iter().filter(|h| !judged.contains(h)) {
            say!(
                out,
                "    {}: {k} in the trace as written, removed by the recorded barriers (still a hazard of the trace)",
                line(c)
            );
        }
        judged
    };
    let layer = layer_of(&device);
    // The batch (its submit's index) of each recorded command.
    let submit_of = |c: usize| {
        program.commands()[c..]
            .iter()
            .position(|x| matches!(x, Command::Submit(_)))
            .map(|k| c + k)
    };
    let mut clean = hazards.is_empty() && ownership == 0;
    let (mut agreed, mut explained, mut unexplained) = (0, 0, 0);
    if result.validation {
        for m in &result.messages {
            let at = m.command.map_or("setup".to_string(), line);
            let kind = layer::kind_of_message(&m.id_name);
            let reported = m.command.is_some_and(|c| {
                judged
                    .iter()
                    .any(|&(h, k)| (h == c || submit_of(h) == Some(c)) && kind.is_none_or(|kind| kind == k))
            });
            // Not one of vksync's hazards: what `run` says of it.
            let verdict = if reported {
                Verdict::Hazard
            } else {
                judge(&recorded, m.command, &m.id_name, layer)
            };
            if let Verdict::Hazard = verdict {
                agreed += 1;
                say!(
                    out,
                    "validation: {at}: {} ({:?}): a hazard vksync reports too",
                    m.id_name,
                    m.severity
                );
            } else if let Verdict::Explained(why) = verdict {
                explained += 1;
                say!(
                    out,
                    "validation: {at}: {} ({:?}): explained by {why} (docs/semantics.md)",
                    m.id_name,
                    m.severity
                );
            } else {
                unexplained += 1;
                say!(
                    out,
                    "validation: {at}: {} ({:?}): not reported by vksync",
                    m.id_name,
                    m.severity
                );
                say!(out, "    {}", m.summary());
            }
        }
        say!(
            out,
            "validation layer: {} ({agreed} at hazards vksync reports, {explained} explained by known layer differences, {unexplained} not)",
            counted(result.messages.len(), "message"),
        );
        clean &= unexplained == 0;
    } else {
        say!(out, "validation layer: not enabled");
    }
    match compare_with_reference(&program, &result) {
        Ok(cmp) => {
            let total: usize = cmp.iter().map(|c| c.mismatches.len()).sum();
            for c in &cmp {
                say!(out, "{}", readback_line(&program, c, line(c.command)));
                for w in wrong_words(&program, &result, c, line) {
                    say!(out, "{w}");
                }
            }
            clean &= total == 0;
            say!(
                out,
                "{name}: {} (reference: {total} mismatching bytes; vksync: {}; validation: {unexplained} not reported by vksync)",
                if clean { "OK" } else { "FAILED" },
                counted(hazards.len(), "hazard"),
            );
        }
        Err(e) => {
            say!(out, "{name}: FAILED: could not compare with the reference: {e}");
            clean = false;
        }
    }
    if clean {
        Status::Clean
    } else {
        Status::Findings
    }
}

#[cfg(test)]
mod tests {
    use super::command_buffer_alone;

    /// The command buffer alone as a trace and the command's index there.
    type Alone = Option<(&'static str, usize)>;

    /// (trace, command index, [`Alone`], or `None`).
    #[test]
    fn a_command_buffer_alone() {
        let two = "queue q\nqueue r\nsemaphore s\nbuffer a 256\nbuffer b 256\n";
        let cases: [(String, usize, Alone); 5] = [
            (
                format!("{two}fill a 2\nsubmit r signal s\nfill a 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a -> b\nsubmit q wait s@ALL_COMMANDS\n"),
                4,
                Some(("buffer a 256\nbuffer b 256\nfill a 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a -> b\n", 2)),
            ),
            // A blob allocated after the command buffer is still declared.
            (
                format!("{two}pool p 1024 align 256\nalloc x 256 from p\nfill x 1\ncopy x -> a\nsubmit q signal s\nalloc y 256 from p\nfill y 2\nsubmit r wait s@ALL_COMMANDS\n"),
                2,
                Some(("buffer a 256\nbuffer b 256\npool p 1024 align 256\nalloc x 256 from p\nfill x 1\ncopy x -> a\nalloc y 256 from p\n", 2)),
            ),
            // Not a device command.
            (format!("{two}fill a 1\nsubmit q signal s\nsubmit r wait s@ALL_COMMANDS\n"), 1, None),
            // An event command in the command buffer.
            (
                format!("{two}event e\nfill a 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nwait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a -> b\nsubmit q signal s\nsubmit r wait s@ALL_COMMANDS\n"),
                3,
                None,
            ),
            // The cut at a host access.
            (
                format!("{two}fill a 1\nhost-read b\ncopy a -> b\nsubmit q signal s\nsubmit r wait s@ALL_COMMANDS\n"),
                2,
                Some(("buffer a 256\nbuffer b 256\ncopy a -> b\n", 0)),
            ),
        ];
        for (text, c, want) in cases {
            let p = vksync::trace::parse(&text)
                .unwrap_or_else(|e| panic!("{e}\n{text}"))
                .program;
            let got = command_buffer_alone(&p, c);
            match want {
                None => assert!(got.is_none(), "{text}"),
                Some((w, wc)) => {
                    let w = vksync::trace::parse(w)
                        .unwrap_or_else(|e| panic!("{e}\n{w}"))
                        .program;
                    let (g, gc) = got.unwrap_or_else(|| panic!("none for\n{text}"));
                    assert_eq!(
                        (vksync::trace::print(&g), gc),
                        (vksync::trace::print(&w), wc),
                        "{text}"
                    );
                }
            }
        }
    }
}
