//! `vksync run`: plan a trace, record it on a Vulkan device, run it, and
//! compare the bytes the host reads back with the CPU reference.
//!
//! This module owns the subcommand's report: the device, the plan's size,
//! the validation layer's verdict (messages mapped back to trace lines) and
//! one line per host read. Recording, submission and validation capture are
//! the `vksync-runtime` crate's; the reference is the model's. A trace
//! without host reads gets one of every buffer and pool appended, so every
//! run compares something. Timings are left out on purpose: they vary from
//! run to run, and this output is part of the tested interface
//! (`vksync-bench` measures time).

use crate::input::Source;
use crate::Status;
use std::path::Path;
use vksync::layer::{self, Explanation};
use vksync::plan::{BarrierForm, PlanOptions};
use vksync::{Command, ObjectKind, Program, Semantics};
use vksync_runtime::{compare_with_reference, run_planned, Device, DeviceOptions, RuntimeError};

/// Appends a host read of every buffer and every blob still allocated at
/// the end when the program has no host read. Pools are not read: the
/// reference keeps each blob's bytes as its own, so a pool's bytes are
/// never defined there.
fn with_readback(program: &Program) -> (Program, bool) {
    let has_read = program
        .commands
        .iter()
        .any(|c| matches!(c, Command::HostRead { .. }));
    if has_read {
        return (program.clone(), false);
    }
    let mut live: Vec<bool> = program
        .objects
        .iter()
        .map(|o| matches!(o.kind, ObjectKind::Buffer { .. }))
        .collect();
    for c in &program.commands {
        match c {
            Command::Alloc { blob } => live[blob.0 as usize] = true,
            Command::Free { blob } => live[blob.0 as usize] = false,
            _ => {}
        }
    }
    let mut p = program.clone();
    for (i, alive) in live.iter().enumerate() {
        if *alive {
            let id = vksync::ObjectId(i as u32);
            p.commands.push(Command::HostRead { src: p.whole(id) });
        }
    }
    (p, true)
}

/// The known layer difference (`docs/semantics.md`, `vksync::layer`) that
/// makes the validation layer report `id_name` at `command` where the spec
/// sees no hazard. `None` when the spec itself predicts the message, or
/// nothing does.
fn explain(program: &Program, command: usize, id_name: &str) -> Option<&'static str> {
    let kind = layer::kind_of_message(id_name)?;
    match layer::explain(program, command, kind, Semantics::LAYER_1_3_239) {
        Explanation::Difference(d) => Some(d.id),
        Explanation::Profile => Some("of several known differences together"),
        Explanation::Spec | Explanation::Unexplained => None,
    }
}

pub fn run(file: &Path, opts: PlanOptions) -> Status {
    let source = match Source::load(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return Status::BadInput;
        }
    };
    let name = &source.name;
    let (program, appended) = with_readback(&source.trace.program);
    // Validate and plan before touching the device, so malformed input gets
    // its usual error and status whether or not Vulkan is installed.
    if let Err(e) = vksync::plan::plan(&program, opts) {
        eprintln!(
            "{}",
            crate::input::program_error(name, &source.text, &source.trace, e)
        );
        return Status::BadInput;
    }
    if let Err(e) = vksync::reference::run(&program) {
        eprintln!("{name}: error: {e}");
        return Status::BadInput;
    }
    let mut device = match Device::new(DeviceOptions {
        print_device: false,
        ..DeviceOptions::from_env()
    }) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{name}: error: no Vulkan device: {e}");
            eprintln!(
                "  install the loader, lavapipe and the validation layer: \
                 apt-get install -y libvulkan1 mesa-vulkan-drivers vulkan-validationlayers"
            );
            return Status::NoDevice;
        }
    };
    println!("device: {}", device.name());
    let (plan, result) = match run_planned(&mut device, &program, opts) {
        Ok(r) => r,
        Err(e @ (RuntimeError::Check { .. } | RuntimeError::Program { .. })) => {
            // The program is valid for the model but not runnable on this
            // device (an unknown kernel, a binding the device cannot bind):
            // the input's problem, reported as the runtime words it, with
            // command indices of the planned program.
            eprintln!("{name}: error: {e}");
            return Status::BadInput;
        }
        Err(e) => {
            eprintln!("{name}: error: {e}");
            return Status::NoDevice;
        }
    };
    // Map a command of the planned program to a line of the input: inserted
    // commands report the line of the next original command. Plan origins
    // index the input without its own barriers.
    let kept: Vec<usize> = (0..program.commands.len())
        .filter(|&i| !matches!(program.commands[i], Command::Barrier(_)))
        .collect();
    let input_line = |c: usize| -> String {
        let origin = plan.origin[c..].iter().flatten().next().map(|&i| kept[i]);
        match origin.and_then(|i| source.trace.command_lines.get(i)) {
            Some(l) if plan.origin[c].is_some() => format!("line {l}"),
            Some(l) => format!("planned command before line {l}"),
            None => "end of trace".to_string(),
        }
    };
    let form = match opts.form {
        BarrierForm::Global => "global memory barriers",
        BarrierForm::Buffer => "buffer memory barriers",
    };
    println!(
        "plan: {} ({form}), {} barrier points, {} stage/access bits",
        opts.planner.name(),
        plan.program.barrier_points(),
        plan.program.barrier_bits()
    );
    if appended {
        println!("no host-read in the trace: reading back every buffer and live blob at the end");
    }
    let mut clean = true;
    let mut unexplained = 0;
    if result.validation {
        for m in &result.messages {
            let at = m.command.map_or("setup".to_string(), input_line);
            let why = m.command.and_then(|c| explain(&plan.program, c, &m.id_name));
            match why {
                Some(d) => println!(
                    "validation: {at}: {} ({:?}): explained by known layer difference {d} (docs/semantics.md)",
                    m.id_name, m.severity
                ),
                None => {
                    unexplained += 1;
                    println!("validation: {at}: {} ({:?})", m.id_name, m.severity);
                    println!("    {}", m.text.lines().next().unwrap_or(""));
                }
            }
        }
        println!(
            "validation layer: {} messages, {} not explained by a known layer difference",
            result.messages.len(),
            unexplained
        );
        clean &= unexplained == 0;
    } else {
        println!(
            "validation layer: not enabled (install vulkan-validationlayers, or unset VKSYNC_VALIDATION=0)"
        );
    }
    match compare_with_reference(&plan.program, &result) {
        Ok(cmp) => {
            let mut total = 0;
            for c in &cmp {
                total += c.mismatches.len();
                let first = c
                    .mismatches
                    .first()
                    .map_or(String::new(), |o| format!(", first at byte {o}"));
                let what = match &plan.program.commands[c.command] {
                    Command::HostRead { src } => plan.program.show_region(*src),
                    _ => String::new(),
                };
                println!(
                    "host-read {what} at {}: {} bytes, {} compared, {} mismatches{first}",
                    input_line(c.command),
                    c.len,
                    c.len - c.undefined,
                    c.mismatches.len()
                );
            }
            clean &= total == 0;
            println!(
                "{name}: {} (reference: {} mismatching bytes; validation: {} unexplained messages)",
                if clean { "OK" } else { "FAILED" },
                total,
                unexplained
            );
        }
        Err(e) => {
            println!("{name}: FAILED: could not compare with the reference: {e}");
            clean = false;
        }
    }
    if clean {
        Status::Clean
    } else {
        Status::Findings
    }
}
