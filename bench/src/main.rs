//! `vksync-bench`: planned barriers vs baselines on a device, and vksync's
//! checker vs the Khronos validation layer. See `docs/performance.md`.
//!
//! * `vksync-bench gpu` records the batched-inference workload
//!   ([`workload`]) with every planner into command buffers over one shared
//!   set of buffers, then submits them round-robin (rotating which plan goes
//!   first) and reports median GPU (timestamp span) and wall-clock time per
//!   plan; `--method run` times one `Device::run` per execution instead
//!   ([`timing`]).
//! * `vksync-bench primitives` times chains of dependent dispatches with a
//!   global barrier, a buffer barrier, an event pair or a semaphore between
//!   queues between each pair, against racy baselines ([`primitives`]).
//! * `vksync-bench checker` checks one long planned command stream with
//!   vksync and records it under no layer, the layer with core validation
//!   only, and the layer with synchronization validation, interleaved.

mod checker;
mod gpu;
mod primitives;
mod scale;
mod stats;
mod timing;
mod workload;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "vksync-bench", about = "Benchmarks for vksync's planners and checker")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// GPU time of the workload under each planner (validation off).
    Gpu(gpu::GpuArgs),
    /// GPU cost of one barrier, buffer barrier, event pair or semaphore.
    Primitives(primitives::PrimitivesArgs),
    /// vksync's checker vs the validation layer's recording cost.
    Checker(checker::CheckerArgs),
    /// Check time per command of generated traces at several sizes, one
    /// queue (sequential and sharded) and two queues.
    Scale(scale::ScaleArgs),
    /// Print the workload as a trace file (for `vksync check` / `vksync plan`).
    Trace {
        #[arg(long, default_value_t = 4)]
        batch: usize,
        #[arg(long, default_value_t = 2)]
        layers: usize,
        #[arg(long, default_value_t = 256)]
        size: u64,
        #[arg(long, default_value_t = 16)]
        slow_iters: u32,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Gpu(args) => gpu::run(&args),
        Cmd::Primitives(args) => primitives::run(&args),
        Cmd::Checker(args) => checker::run(&args),
        Cmd::Scale(args) => scale::run(&args),
        Cmd::Trace {
            batch,
            layers,
            size,
            slow_iters,
        } => workload::program(
            workload::Shape {
                batch,
                layers,
                size,
                slow_iters,
                reuse: true,
            },
            false,
        )
        .map(|p| print!("{}", vksync::trace::print(&p)))
        .map_err(|e| e.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vksync-bench: error: {e}");
            ExitCode::FAILURE
        }
    }
}
