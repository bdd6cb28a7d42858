//! Runs a trace file as written (its own barriers) on the device chosen by
//! `VKSYNC_DEVICE`, and prints the device, the validation messages and each
//! host read compared with the CPU reference.
//!
//! `cargo run -p vksync-runtime --release --example run_trace -- FILE`

use std::process::ExitCode;
use vksync_runtime::{compare_with_reference, Device, DeviceOptions};

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: run_trace FILE");
        return ExitCode::from(2);
    };
    match run(&path) {
        Ok(clean) if clean => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(path: &str) -> Result<bool, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let trace = vksync::trace::parse(&text).map_err(|e| format!("{path}:{e}"))?;
    let line = |c: Option<usize>| c.and_then(|c| trace.command_lines.get(c).copied());
    // The example prints the device itself, on stdout.
    let mut device = Device::new(DeviceOptions {
        print_device: false,
        ..DeviceOptions::from_env()
    })?;
    println!("device: {}", device.info());
    let result = device.run(&trace.program)?;
    println!("queues: {}", result.queue_mapping);
    for s in &result.submissions {
        let ns = s.gpu_ns.map_or("n/a".to_string(), |n| format!("{n} ns"));
        match line(s.command) {
            Some(l) => println!("submission at line {l}: {} commands, GPU {ns}", s.recorded),
            None => println!("submission at end: {} commands, GPU {ns}", s.recorded),
        }
    }
    for n in &result.notes {
        println!("note: {n:?}");
    }
    if !result.validation {
        println!("validation: off");
    }
    for m in &result.messages {
        match line(m.command) {
            Some(l) => println!("line {l}: {:?} {}\n    {}", m.severity, m.id_name, m.text),
            None => println!("{:?} {}\n    {}", m.severity, m.id_name, m.text),
        }
    }
    println!("validation messages: {}", result.messages.len());
    let mut ok = result.is_clean();
    match compare_with_reference(&trace.program, &result) {
        Ok(cmp) => {
            for c in cmp {
                let l = line(Some(c.command)).unwrap_or(0);
                println!(
                    "host-read line {l}: {} bytes, {} undefined, {} mismatches{}",
                    c.len,
                    c.undefined,
                    c.mismatches.len(),
                    c.mismatches
                        .first()
                        .map_or(String::new(), |o| format!(" (first at byte {o})"))
                );
                ok &= c.mismatches.is_empty();
            }
        }
        Err(e) => println!("reference: not compared ({e})"),
    }
    Ok(ok)
}
