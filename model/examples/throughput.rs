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

#[path = "common/stream.rs"]
mod stream;

/// Default stream length of this example.
const DEFAULT_COMMANDS: usize = 1_000_000;
use stream::program;

fn main() {
    let stream::Size { commands, buffers } = clap::Parser::parse();
    let raw = program(commands, buffers);
    let layout = resolve(&raw).expect("generated program is valid");
    let access_count: usize = raw
        .commands()
        .iter()
        .map(|c| {
            accesses(c, &layout, Semantics::SPEC)
                .expect("its own layout")
                .len()
        })
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
            p.commands().len(),
            hazards,
        );
    }
}
