//! Measures the checker's and the planners' throughput on a large
//! generated program: `cargo run --release -p vksync --example throughput
//! -- [COMMANDS] [BUFFERS]` (defaults 1,000,000 and 10,000).
//!
//! The program is a deterministic mix of copies, fills and dispatches over
//! many buffers, with the offline plan's barriers, so the checker sees
//! realistic barrier traffic (global barriers every few commands). Numbers
//! go to `docs/semantics.md` and `docs/planning.md`.

use std::time::Instant;
use vksync::accesses;
use vksync::plan::{plan, PlanOptions, PlannerKind};
use vksync::Semantics;
use vksync::*;

fn program(commands: usize, buffers: usize) -> Program {
    let mut p = Program::new();
    let ids: Vec<ObjectId> = (0..buffers).map(|i| p.buffer(&format!("b{i}"), 4096)).collect();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for _ in 0..commands {
        // Work on a sliding window of buffers, as a network's layers do.
        let a = ids[next(buffers)];
        let b = ids[next(buffers)];
        let off = (next(16) * 256) as u64;
        let len = 256 * (1 + next(4)) as u64;
        let (off, len) = (off.min(4096 - len), len);
        let c = match next(4) {
            0 if a != b => Command::Copy {
                src: p.region(a, off, off + len),
                dst: p.region(b, off, off + len),
            },
            1 => Command::Fill {
                dst: p.region(a, off, off + len),
                value: 1,
            },
            _ => Command::Dispatch {
                kernel: "k".into(),
                params: vec![],
                bindings: vec![
                    Binding {
                        access: BindingAccess::Read,
                        region: p.region(a, off, off + len),
                    },
                    Binding {
                        access: BindingAccess::Write,
                        region: p.region(b, 0, len),
                    },
                ],
                indirect: None,
            },
        };
        let c = match c {
            Command::Dispatch { ref bindings, .. }
                if bindings[0].region.object == bindings[1].region.object =>
            {
                Command::Fill {
                    dst: p.region(a, off, off + len),
                    value: 2,
                }
            }
            other => other,
        };
        p.commands.push(c);
    }
    p
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.replace('_', "").parse().ok())
        .collect();
    let commands = args.first().copied().unwrap_or(1_000_000);
    let buffers = args.get(1).copied().unwrap_or(10_000);
    let raw = program(commands, buffers);
    let layout = resolve(&raw).expect("generated program is valid");
    let access_count: usize = raw
        .commands
        .iter()
        .map(|c| accesses(c, &layout, Semantics::SPEC).len())
        .sum();
    println!("program: {commands} commands over {buffers} buffers, {access_count} accesses");

    for planner in [PlannerKind::Online, PlannerKind::Offline] {
        let t = Instant::now();
        let planned = plan(&raw, PlanOptions::new(planner)).expect("valid");
        let secs = t.elapsed().as_secs_f64();
        println!(
            "plan {:<8} {:>8.2} s  {:>10.0} commands/s  points {} bits {}",
            planner.name(),
            secs,
            commands as f64 / secs,
            planned.program.barrier_points(),
            planned.program.barrier_bits()
        );
    }

    let planned = plan(&raw, PlanOptions::new(PlannerKind::Offline))
        .expect("valid")
        .program;
    for (label, p) in [("without barriers", &raw), ("offline plan", &planned)] {
        let t = Instant::now();
        let hazards = check(p).expect("valid").len();
        let secs = t.elapsed().as_secs_f64();
        println!(
            "check {:<17} {:>6.2} s  {:>10.0} accesses/s  {} commands, {} hazards",
            label,
            secs,
            access_count as f64 / secs,
            p.commands.len(),
            hazards,
        );
    }
}
