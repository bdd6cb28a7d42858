//! A runtime's view: the incremental `Tracker` fed a generated stream of
//! copies, fills and dispatches command by command (as ncnn or
//! ggml-vulkan would record them), against whole-program planning of the
//! same stream. The tracker must give exactly the online planner's
//! barriers; the example says how long each takes and fails if the counts
//! differ.
//!
//! ```text
//! cargo run --release -p vksync --example tracker_stream -- [COMMANDS [BUFFERS]]
//! ```
//! (defaults: 100000 commands over 10000 buffers of 4 KiB).

use std::time::Instant;
use vksync::plan::{plan, PlanOptions, PlannerKind};
use vksync::{accesses, resolve, Semantics, TrackedAccess, Tracker};

#[path = "common/stream.rs"]
mod stream;

/// Default stream length of this example.
const DEFAULT_COMMANDS: usize = 100_000;

fn main() {
    let stream::Size { commands, buffers } = clap::Parser::parse();
    let program = stream::program(commands, buffers);
    let layout = resolve(&program).expect("the generated stream is valid");
    // What the runtime knows per command: its accesses (resource, range,
    // stage, access). Built before timing, as a runtime has them at hand.
    let t = Instant::now();
    let mut tracker = Tracker::new();
    let ids: Vec<_> = program
        .objects()
        .iter()
        .map(|o| tracker.buffer(o.size).expect("sizes are valid"))
        .collect();
    let declared = t.elapsed().as_secs_f64();
    let per_command: Vec<Vec<TrackedAccess>> = program
        .commands()
        .iter()
        .map(|c| {
            accesses(c, &layout, Semantics::SPEC)
                .expect("its own layout")
                .iter()
                .map(|a| {
                    TrackedAccess::range(
                        ids[a.region.object.0 as usize],
                        a.region.range,
                        a.sa.stage().flag(),
                        a.sa.access(),
                    )
                })
                .collect()
        })
        .collect();

    let t = Instant::now();
    let (mut points, mut bits) = (0usize, 0u64);
    for acc in &per_command {
        let needs = tracker
            .command(acc)
            .expect("accesses of the stream's own buffers");
        if !needs.barriers.is_empty() {
            points += 1;
            bits += needs
                .barriers
                .iter()
                .map(|b| u64::from(b.bit_count()))
                .sum::<u64>();
        }
    }
    let tracked = declared + t.elapsed().as_secs_f64();

    let t = Instant::now();
    let online = plan(&program, PlanOptions::new(PlannerKind::Online)).expect("valid");
    let whole_online = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let offline = plan(&program, PlanOptions::new(PlannerKind::Offline)).expect("valid");
    let whole_offline = t.elapsed().as_secs_f64();

    let accesses: usize = per_command.iter().map(Vec::len).sum();
    println!("stream: {commands} commands over {buffers} buffers, {accesses} accesses");
    println!(
        "tracker, command by command    {:>7.3} s  {:>8.0} ns/command  barriers {points} bits {bits}",
        tracked,
        tracked * 1e9 / commands as f64
    );
    println!(
        "online planner, whole program  {:>7.3} s  {:>8.0} ns/command  barriers {} bits {}",
        whole_online,
        whole_online * 1e9 / commands as f64,
        online.program.barrier_points(),
        online.program.barrier_bits()
    );
    println!(
        "offline planner, whole program {:>7.3} s  {:>8.0} ns/command  barriers {} bits {}",
        whole_offline,
        whole_offline * 1e9 / commands as f64,
        offline.program.barrier_points(),
        offline.program.barrier_bits()
    );
    let same = points == online.program.barrier_points() && bits == online.program.barrier_bits();
    println!(
        "tracker = online planner: {}",
        if same { "yes, same barriers and bits" } else { "NO" }
    );
    if !same {
        std::process::exit(1);
    }
}
