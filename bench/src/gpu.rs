//! `vksync-bench gpu`: the workload under every planner, timed side by side.
//!
//! Every plan is timed the same way, by `--method` ([`crate::timing`]):
//! `prepared` (the default) records every plan once with
//! [`Device::prepare`] over one shared set of buffers, the `split` plan
//! (events) and the `async` plan (several queues, semaphores) included, and
//! each execution submits the plan's batches back to back
//! ([`vksync_runtime::Prepared::execute`]; behind the runtime's start gate
//! unless `--no-gate`), so a plan of several submissions is timed without
//! the host's gaps between them; `run` times one [`Device::run`] per
//! execution (fresh memory, command buffers, events and semaphores each
//! time; each batch recorded and submitted in turn). GPU time is the span:
//! the latest end minus the earliest start timestamp over the execution's
//! batches (for one command buffer, its two timestamps). The output says
//! which method was used. `--verify` checks each plan's bytes against the
//! CPU reference through the same method.

use crate::stats::{bytes, median, parse_size, quantile};
use crate::timing::{self, Method, Timer};
use crate::workload::{self, Shape};
use std::time::Instant;
use vksync::plan::{
    plan, plan_async_compute, schedule, split_barriers, BarrierForm, PlanOptions, PlannerKind,
    QueuePlanOptions, ScheduleOptions,
};
use vksync_runtime::{Device, DeviceOptions, ValidationMode};

#[derive(clap::Args, Debug)]
pub struct GpuArgs {
    /// Bytes per activation buffer, comma-separated (suffixes k/KiB, M/MiB).
    #[arg(long, value_delimiter = ',', default_value = "256,4KiB,64KiB,1MiB,4MiB,16MiB")]
    sizes: Vec<String>,
    /// Independent chains (batch items).
    #[arg(long, default_value_t = 8)]
    batch: usize,
    /// Residual blocks per chain.
    #[arg(long, default_value_t = 8)]
    layers: usize,
    /// Iterations per element of the `slow` kernel in each block.
    #[arg(long, default_value_t = 16)]
    slow_iters: u32,
    /// Rounds (each round runs every plan once, in rotating order).
    #[arg(long, default_value_t = 200)]
    reps: usize,
    /// Untimed rounds first.
    #[arg(long, default_value_t = 5)]
    warmup: usize,
    /// Cap on timed seconds per size: fewer rounds when a round is slow.
    #[arg(long, default_value_t = 40.0)]
    seconds_per_size: f64,
    /// Planners, comma-separated; `scheduled` is the offline plan of the
    /// program as `vksync plan --schedule` reorders it; `split` the offline
    /// plan with barriers split into events (`vksync plan --split-barriers`);
    /// `async` the offline plan across a second compute queue and a transfer
    /// queue (`vksync plan --async-compute`).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "none,conservative,per-object,online,offline,scheduled"
    )]
    planners: Vec<String>,
    /// Barrier form of the online and offline plans: global or buffer.
    #[arg(long, default_value = "global")]
    form: String,
    /// Device name substring (default: VKSYNC_DEVICE, else the first device).
    #[arg(long)]
    device: Option<String>,
    /// Also run each plan once with a host read of the outputs, by the
    /// same method, and compare the bytes with the CPU reference (sizes up
    /// to 1 MiB).
    #[arg(long)]
    verify: bool,
    /// How each execution is timed: `prepared` (recorded once, batches
    /// submitted back to back) or `run` (one `Device::run` each).
    #[arg(long, value_enum, default_value_t = Method::Prepared)]
    method: Method,
    /// With `--method prepared`: let each batch start as soon as it is
    /// submitted instead of holding the GPU until every batch is.
    #[arg(long)]
    no_gate: bool,
    /// Give every blob fresh memory (no `free`): only data dependencies
    /// remain, which isolates what memory recycling costs in barriers.
    #[arg(long)]
    no_reuse: bool,
    /// Preset: sizes 256,64KiB,4MiB; 60 rounds; 15 s per size (< 2 min on a GPU).
    #[arg(long)]
    quick: bool,
}

/// A plan the benchmark times: a planner on the program as given, or the
/// offline planner on its schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bench {
    Planner(PlannerKind),
    Scheduled,
    /// The offline plan, barrier points split into event pairs.
    Split,
    /// The offline plan across queues: async compute and transfer.
    Async,
}

impl Bench {
    fn from_name(name: &str) -> Option<Bench> {
        match name {
            "scheduled" => Some(Bench::Scheduled),
            "split" => Some(Bench::Split),
            "async" => Some(Bench::Async),
            n => PlannerKind::from_name(n).map(Bench::Planner),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Bench::Planner(k) => k.name(),
            Bench::Scheduled => "scheduled",
            Bench::Split => "split",
            Bench::Async => "async",
        }
    }

    /// The planned program.
    fn plan(self, program: &vksync::Program, form: BarrierForm) -> Result<vksync::Program, String> {
        self.plan_with_detail(program, form).map(|(p, _)| p)
    }

    /// The planned program, and for `split` and `async` a line on what the
    /// planner did.
    fn plan_with_detail(
        self,
        program: &vksync::Program,
        form: BarrierForm,
    ) -> Result<(vksync::Program, Option<String>), String> {
        let p = match self {
            Bench::Planner(k) => plan(program, PlanOptions::new(k).form(form)).map(|p| (p.program, None)),
            Bench::Scheduled => {
                let opts = ScheduleOptions {
                    form,
                    reading: PlanOptions::new(PlannerKind::Offline).reading,
                    ..ScheduleOptions::default()
                };
                schedule(program, opts).map(|s| (s.plan.program, None))
            }
            Bench::Split => {
                let opts = PlanOptions::new(PlannerKind::Offline).form(form);
                let offline = plan(program, opts).map_err(|e| e.to_string())?;
                return split_barriers(&offline, opts.reading)
                    .map(|s| {
                        let line = format!(
                            "split: {} of the offline plan's {} barrier points became set-event/wait-events pairs",
                            s.split,
                            offline.program.barrier_points()
                        );
                        (s.plan.program, Some(line))
                    })
                    .map_err(|e| e.to_string());
            }
            Bench::Async => {
                let opts = QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline).form(form));
                return plan_async_compute(program, opts)
                    .map(|q| {
                        let line = format!(
                            "async: {} queues, {} semaphores, {} semaphore waits, {} barrier points, {} ownership transfers",
                            q.plan.program.queue_count(),
                            q.semaphores,
                            q.waits,
                            q.barrier_points,
                            q.ownership_transfers
                        );
                        (q.plan.program, Some(line))
                    })
                    .map_err(|e| e.to_string());
            }
        };
        p.map_err(|e| e.to_string())
    }
}

struct PlanRow {
    name: &'static str,
    points: usize,
    hazards: usize,
    gpu: Vec<f64>,
    wall: Vec<f64>,
    verify: Option<usize>,
}

/// The device timings run on: `device` (a name substring) or
/// `VKSYNC_DEVICE`, validation off; its description printed.
pub fn timing_device(device: Option<&str>) -> Result<Device, String> {
    let mut options = DeviceOptions::from_env();
    if let Some(d) = device {
        options.device = Some(d.to_string());
    }
    options.validation = ValidationMode::Off;
    options.print_device = false;
    let device = Device::new(options).map_err(|e| e.to_string())?;
    println!("device: {}", device.info());
    Ok(device)
}

pub fn run(args: &GpuArgs) -> Result<(), String> {
    let (sizes, reps, budget) = if args.quick {
        (vec!["256".to_string(), "64KiB".into(), "4MiB".into()], 60, 15.0)
    } else {
        (args.sizes.clone(), args.reps, args.seconds_per_size)
    };
    let sizes: Vec<u64> = sizes.iter().map(|s| parse_size(s)).collect::<Result<_, _>>()?;
    let planners: Vec<Bench> = args
        .planners
        .iter()
        .map(|n| Bench::from_name(n).ok_or(format!("unknown planner `{n}`")))
        .collect::<Result<_, _>>()?;
    let form = match args.form.as_str() {
        "global" => BarrierForm::Global,
        "buffer" => BarrierForm::Buffer,
        f => return Err(format!("unknown barrier form `{f}` (global or buffer)")),
    };
    if args.batch == 0 || args.layers == 0 || reps == 0 {
        return Err("batch, layers and reps must be positive".into());
    }
    let mut device = timing_device(args.device.as_deref())?;
    let info = device.info().clone();
    println!(
        "workload: {} chains x {} residual blocks, slow({}) kernels, blobs {}, {} barriers, {} rounds max, {} warm-up, {:.0} s max per size",
        args.batch,
        args.layers,
        args.slow_iters,
        if args.no_reuse { "never recycled" } else { "recycled through one pool" },
        match form {
            BarrierForm::Global => "global",
            BarrierForm::Buffer => "buffer",
        },
        reps,
        args.warmup,
        budget
    );
    if info.timestamp_valid_bits == 0 {
        println!("note: the queue has no timestamps; GPU columns show wall-clock time");
    }
    let mut summary = Vec::new();
    for &size in &sizes {
        let shape = Shape {
            batch: args.batch,
            layers: args.layers,
            size,
            slow_iters: args.slow_iters,
            reuse: !args.no_reuse,
        };
        let rounds = Rounds {
            reps,
            warmup: args.warmup,
            budget,
        };
        let rows = bench_size(&mut device, shape, &planners, form, rounds, args)?;
        summary.push((size, rows));
    }
    print_summary(&summary);
    Ok(())
}

/// How many rounds to time: at most `reps`, and fewer when they would
/// take more than `budget` seconds; `warmup` untimed rounds first.
#[derive(Clone, Copy)]
struct Rounds {
    reps: usize,
    warmup: usize,
    budget: f64,
}

fn bench_size(
    device: &mut Device,
    shape: Shape,
    planners: &[Bench],
    form: BarrierForm,
    rounds: Rounds,
    args: &GpuArgs,
) -> Result<Vec<PlanRow>, String> {
    let program = workload::program(shape, false).map_err(|e| e.to_string())?;
    let mut programs = Vec::new();
    let mut rows = Vec::new();
    let mut details = Vec::new();
    for &k in planners {
        let (planned, detail) = k.plan_with_detail(&program, form)?;
        details.extend(detail);
        let hazards = vksync::check(&planned).map_err(|e| e.to_string())?.len();
        rows.push(PlanRow {
            name: k.name(),
            points: planned.barrier_points(),
            hazards,
            gpu: Vec::new(),
            wall: Vec::new(),
            verify: None,
        });
        programs.push(planned);
    }
    let pool = program.objects().first().map_or(0, |o| o.size);
    let commands = workload::device_commands(&program);
    // Where the multi-queue plans run.
    let mut mappings = Vec::new();
    for (row, p) in rows.iter().zip(&programs) {
        if p.queue_count() > 1 {
            mappings.push(format!("{} queues: {}", row.name, timing::mapping(device, p)?));
        }
    }
    let t_setup = Instant::now();
    let mut timer = Timer::new(device, &programs, args.method, !args.no_gate)?;
    let setup = t_setup.elapsed().as_secs_f64();
    let n = programs.len();
    // Warm-up, and an estimate of one round's time for the budget.
    let mut round_wall = Vec::new();
    for _ in 0..rounds.warmup.max(1) {
        let t = Instant::now();
        for i in 0..n {
            timer.execute(i)?;
        }
        round_wall.push(t.elapsed().as_secs_f64());
    }
    let per_round = median(&round_wall).max(1e-9);
    let timed_rounds = rounds.reps.min(((rounds.budget / per_round) as usize).max(5));
    for r in 0..timed_rounds {
        for j in 0..n {
            // Rotate which plan goes first so no plan always follows another.
            let i = (r + j) % n;
            let (gpu_ns, wall_ns) = timer.execute(i)?;
            let wall = wall_ns as f64 / 1e3;
            rows[i].gpu.push(gpu_ns.map_or(wall, |g| g as f64 / 1e3));
            rows[i].wall.push(wall);
        }
    }
    let messages = timer.take_message_count();
    let method_line = timer.describe();
    drop(timer);

    if args.verify && shape.size <= 1 << 20 {
        let checked = workload::program(shape, true).map_err(|e| e.to_string())?;
        let planned: Vec<vksync::Program> = planners
            .iter()
            .map(|k| k.plan(&checked, form))
            .collect::<Result<_, _>>()?;
        let wrong = timing::wrong_bytes(device, &planned, args.method)?;
        for (row, w) in rows.iter_mut().zip(wrong) {
            row.verify = Some(w);
        }
    }

    println!();
    println!(
        "== size {}: {} device commands (no barriers), pool {}; {} rounds of {} plans (setup {:.1} s)",
        bytes(shape.size),
        commands,
        bytes(pool),
        timed_rounds,
        n,
        setup
    );
    for line in details.iter().chain(&mappings) {
        println!("{line}");
    }
    println!("{method_line}");
    if messages > 0 {
        println!("note: {messages} validation messages (validation should be off)");
    }
    let med =
        |name: &str, f: fn(&PlanRow) -> &Vec<f64>| rows.iter().find(|r| r.name == name).map(|r| median(f(r)));
    let none_gpu = med("none", |r| &r.gpu);
    let cons_gpu = med("conservative", |r| &r.gpu);
    let none_wall = med("none", |r| &r.wall);
    println!(
        "{:<13} {:>7} {:>8} {:>12} {:>21} {:>8} {:>10} {:>12} {:>8}{}",
        "plan",
        "points",
        "hazards",
        "gpu med us",
        "gpu p10..p90 us",
        "/none",
        "cons/plan",
        "wall med us",
        "/none",
        if args.verify { "  wrong bytes" } else { "" }
    );
    for r in &rows {
        let g = median(&r.gpu);
        let w = median(&r.wall);
        let ratio = |x: f64, base: Option<f64>| base.map_or("-".to_string(), |b| format!("{:.3}", x / b));
        let speedup = cons_gpu.map_or("-".to_string(), |c| format!("{:.2}x", c / g));
        println!(
            "{:<13} {:>7} {:>8} {:>12.1} {:>10.1}..{:<10.1} {:>8} {:>10} {:>12.1} {:>8}{}",
            r.name,
            r.points,
            r.hazards,
            g,
            quantile(&r.gpu, 0.1),
            quantile(&r.gpu, 0.9),
            ratio(g, none_gpu),
            speedup,
            w,
            ratio(w, none_wall),
            match r.verify {
                Some(v) => format!("  {v:>11}"),
                None if args.verify => "  (not run)".to_string(),
                None => String::new(),
            }
        );
    }
    Ok(rows)
}

fn print_summary(summary: &[(u64, Vec<PlanRow>)]) {
    let get = |rows: &[PlanRow], name: &str| rows.iter().find(|r| r.name == name).map(|r| median(&r.gpu));
    println!();
    println!("== summary (median GPU time; targets: offline/none <= 1.05, conservative/offline >= 1.5, scheduled/none <= 1.4 on launch-bound sizes)");
    println!(
        "{:<8} {:>12} {:>12} {:>12} {:>13} {:>14} {:>13} {:>15} {:>14} {:>14}",
        "size",
        "none us",
        "offline us",
        "cons us",
        "offline/none",
        "cons/offline",
        "online/none",
        "scheduled/none",
        "split/offline",
        "async/offline"
    );
    for (size, rows) in summary {
        let (none, off, cons, on, sched, split, asy) = (
            get(rows, "none"),
            get(rows, "offline"),
            get(rows, "conservative"),
            get(rows, "online"),
            get(rows, "scheduled"),
            get(rows, "split"),
            get(rows, "async"),
        );
        let f = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.1}"));
        let r = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) if b > 0.0 => format!("{:.3}", a / b),
            _ => "-".to_string(),
        };
        println!(
            "{:<8} {:>12} {:>12} {:>12} {:>13} {:>14} {:>13} {:>15} {:>14} {:>14}",
            bytes(*size),
            f(none),
            f(off),
            f(cons),
            r(off, none),
            r(cons, off),
            r(on, none),
            r(sched, none),
            r(split, off),
            r(asy, off)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timing::tests::{assert_timed_by_both_methods, device};

    /// Every kind of plan (one command buffer, events, several queues with
    /// semaphores) is timed by both methods, and `--verify` finds the
    /// synchronized plans' bytes right by both.
    #[test]
    fn every_plan_is_timed_and_verified_by_both_methods() {
        let Some(mut device) = device() else {
            return;
        };
        let shape = Shape {
            batch: 2,
            layers: 2,
            size: 256,
            slow_iters: 4,
            reuse: true,
        };
        let planners =
            ["none", "offline", "scheduled", "split", "async"].map(|n| Bench::from_name(n).unwrap());
        let plans = |host_read: bool| -> Vec<vksync::Program> {
            let program = workload::program(shape, host_read).unwrap();
            planners
                .iter()
                .map(|k| k.plan(&program, BarrierForm::Global).unwrap())
                .collect()
        };
        assert_timed_by_both_methods(&mut device, &plans(false));
        let checked = plans(true);
        for method in [Method::Prepared, Method::Run] {
            let wrong = timing::wrong_bytes(&mut device, &checked, method).unwrap();
            // `none` has no barriers: only the synchronized plans must be right.
            assert_eq!(wrong[1..], [0, 0, 0, 0], "{method:?}");
        }
    }
}
