//! `vksync-bench primitives`: what one synchronization primitive costs on
//! the GPU, measured with timestamps.
//!
//! Each variant is a chain of `n` dispatches of `scale(1)` over one buffer
//! region (`rw`), so every dispatch depends on the previous one, with the
//! same thing between each pair (`n - 1` primitives):
//!
//! | variant          | between dispatch i and i+1                                   | submits |
//! |------------------|--------------------------------------------------------------|---------|
//! | `none`           | nothing (racy: the timing baseline)                           | 1       |
//! | `global`         | a global barrier `COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\|SHADER_STORAGE_WRITE` | 1 |
//! | `buffer`         | the same barrier on the buffer's region                       | 1       |
//! | `event`          | `set-event` right after dispatch i, `wait-events` right before dispatch i+1, the global barrier's dependency; 8 events in turn, each reset (`reset-event COMPUTE_SHADER`) right before its next set (the checker models at most 64 events), so from pair 8 on a reset is part of the cost | 1 |
//! | `submit-none`    | a submit after every dispatch, one queue, nothing else (racy) | n       |
//! | `submit-barrier` | a submit after every dispatch, one queue, the global barrier  | n       |
//! | `semaphore`      | dispatches alternate between two queues of one family, one submit each; submit i signals binary semaphore `s{i}` (`COMPUTE_SHADER`), submit i+1 waits for it (`COMPUTE_SHADER`) | n |
//!
//! Every variant is built with the model IR and checked with
//! [`vksync::check`]: the synchronized ones are hazard-free, `none` and
//! `submit-none` are not. Executions are timed by `--method`
//! ([`crate::timing`]): `prepared` (the default) records every variant once
//! ([`vksync_runtime::Device::prepare`]: one command buffer per submit) and
//! submits an execution's batches back to back, behind the runtime's start
//! gate (unless `--no-gate`), so the GPU runs the chain with every batch
//! already queued and no host time between submissions is measured; `run`
//! is one [`vksync_runtime::Device::run`] per execution (fresh memory,
//! events and semaphores; each batch recorded and submitted from the host
//! in turn, so the per-submit variants measure mostly the host). The GPU
//! time is the span: the latest end minus the earliest start timestamp
//! over the execution's batches (for the semaphore variant across two
//! queues: that assumes the queues share a time base). Variants run
//! interleaved, rotating which goes first.
//!
//! Cost per primitive = (span - median span of the baseline) / (n - 1):
//! the baseline is `none` for the single-command-buffer variants and
//! `submit-none` for the per-submit ones, so the cost of a submission
//! boundary cancels; `semaphore` is also shown against `submit-barrier`
//! (what a semaphore between queues costs over a barrier between submits
//! on one queue).

use crate::stats::{bytes, median, parse_size, quantile};
use crate::timing::{self, Method, Timer};
use std::time::Instant;
use vksync::{
    AccessFlags2 as A, Barrier, Binding, BindingAccess, Command, Dependency, EventWait,
    PipelineStageFlags2 as S, Program, ProgramError, SemaphoreSignal, SemaphoreType, SemaphoreWait,
    Submission,
};
use vksync_runtime::Device;

#[derive(clap::Args, Debug)]
pub struct PrimitivesArgs {
    /// Bytes each dispatch reads and writes, comma-separated (suffixes
    /// k/KiB, M/MiB; multiples of 4).
    #[arg(long, value_delimiter = ',', default_value = "256,1MiB")]
    sizes: Vec<String>,
    /// Dispatches per chain (n - 1 primitives between them).
    #[arg(long, default_value_t = 256)]
    n: usize,
    /// Variants, comma-separated (see `vksync-bench primitives --help`).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "none,global,buffer,event,submit-none,submit-barrier,semaphore"
    )]
    variants: Vec<String>,
    /// Rounds (each round runs every variant once, in rotating order).
    #[arg(long, default_value_t = 50)]
    reps: usize,
    /// Untimed rounds first.
    #[arg(long, default_value_t = 3)]
    warmup: usize,
    /// Cap on timed seconds per size: fewer rounds when a round is slow.
    #[arg(long, default_value_t = 30.0)]
    seconds_per_size: f64,
    /// Device name substring (default: VKSYNC_DEVICE, else the first device).
    #[arg(long)]
    device: Option<String>,
    /// How each execution is timed: `prepared` (recorded once, batches
    /// submitted back to back) or `run` (one `Device::run` each).
    #[arg(long, value_enum, default_value_t = Method::Prepared)]
    method: Method,
    /// With `--method prepared`: let each batch start as soon as it is
    /// submitted instead of holding the GPU until every batch is.
    #[arg(long)]
    no_gate: bool,
}

/// What lies between two dispatches of the chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    None,
    Global,
    Buffer,
    Event,
    SubmitNone,
    SubmitBarrier,
    Semaphore,
}

impl Variant {
    pub const ALL: [Variant; 7] = [
        Variant::None,
        Variant::Global,
        Variant::Buffer,
        Variant::Event,
        Variant::SubmitNone,
        Variant::SubmitBarrier,
        Variant::Semaphore,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Variant::None => "none",
            Variant::Global => "global",
            Variant::Buffer => "buffer",
            Variant::Event => "event",
            Variant::SubmitNone => "submit-none",
            Variant::SubmitBarrier => "submit-barrier",
            Variant::Semaphore => "semaphore",
        }
    }

    fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// One submit per dispatch.
    fn per_submit(self) -> bool {
        matches!(
            self,
            Variant::SubmitNone | Variant::SubmitBarrier | Variant::Semaphore
        )
    }

    /// The racy variant whose time this one is compared with.
    fn baseline(self) -> Variant {
        if self.per_submit() {
            Variant::SubmitNone
        } else {
            Variant::None
        }
    }
}

/// Events the `event` variant cycles through.
const EVENTS: usize = 8;

/// The barrier between two dispatches: the producer's shader writes made
/// available and visible to the consumer's shader reads and writes.
fn dependency() -> Barrier {
    Barrier::global(
        S::COMPUTE_SHADER,
        A::SHADER_STORAGE_WRITE,
        S::COMPUTE_SHADER,
        A::SHADER_STORAGE_READ | A::SHADER_STORAGE_WRITE,
    )
}

/// The chain of `n` dispatches over one `size`-byte buffer with `variant`
/// between each pair.
pub fn program(variant: Variant, n: usize, size: u64) -> Result<Program, ProgramError> {
    let mut p = Program::new();
    let buf = p.buffer("buf", size)?;
    let region = p.whole(buf);
    let queues = if variant == Variant::Semaphore {
        vec![p.queue("q0", 0)?, p.queue("q1", 0)?]
    } else {
        Vec::new()
    };
    let mut previous = None;
    let mut events = Vec::new();
    let global = Dependency {
        barriers: vec![dependency()],
    };
    for i in 0..n {
        p.push(Command::Dispatch {
            kernel: "scale".to_string(),
            params: vec![1],
            bindings: vec![Binding {
                access: BindingAccess::ReadWrite,
                region,
            }],
            indirect: None,
        })?;
        let between = i + 1 < n;
        match variant {
            Variant::None => {}
            Variant::Global if between => {
                p.push(Command::Barrier(global.clone()))?;
            }
            Variant::Buffer if between => {
                p.push(Command::Barrier(Dependency {
                    barriers: vec![dependency().on(region)],
                }))?;
            }
            Variant::Event if between => {
                // EVENTS events in turn (the checker models at most 64):
                // each is reset right before it is set again, `EVENTS`
                // pairs after its wait.
                let event = if i < EVENTS {
                    let e = p.event(&format!("e{i}"))?;
                    events.push(e);
                    e
                } else {
                    let e = events[i % EVENTS];
                    p.push(Command::ResetEvent {
                        event: e,
                        stages: S::COMPUTE_SHADER,
                    })?;
                    e
                };
                p.push(Command::SetEvent {
                    event,
                    dependency: global.clone(),
                })?;
                p.push(Command::WaitEvents {
                    waits: vec![EventWait {
                        event,
                        dependency: global.clone(),
                    }],
                })?;
            }
            Variant::SubmitNone => {
                p.push(Command::Submit(Submission::default()))?;
            }
            Variant::SubmitBarrier => {
                if between {
                    p.push(Command::Barrier(global.clone()))?;
                }
                p.push(Command::Submit(Submission::default()))?;
            }
            Variant::Semaphore => {
                // Submit i waits for binary semaphore s{i-1} (signalled by
                // submit i-1) and signals s{i}.
                let waits = match previous {
                    Some(s) => vec![SemaphoreWait {
                        semaphore: s,
                        value: None,
                        stages: S::COMPUTE_SHADER,
                    }],
                    None => Vec::new(),
                };
                let signals = if between {
                    let s = p.semaphore(&format!("s{i}"), SemaphoreType::Binary)?;
                    previous = Some(s);
                    vec![SemaphoreSignal {
                        semaphore: s,
                        value: None,
                        stages: S::COMPUTE_SHADER,
                    }]
                } else {
                    Vec::new()
                };
                p.push(Command::Submit(Submission {
                    queue: queues[i % 2],
                    waits,
                    signals,
                }))?;
            }
            Variant::Global | Variant::Buffer | Variant::Event => {}
        }
    }
    Ok(p)
}

struct Row {
    variant: Variant,
    submits: usize,
    hazards: usize,
    span_us: Vec<f64>,
}

pub fn run(args: &PrimitivesArgs) -> Result<(), String> {
    let sizes: Vec<u64> = args
        .sizes
        .iter()
        .map(|s| parse_size(s))
        .collect::<Result<_, _>>()?;
    if let Some(s) = sizes.iter().find(|&&s| s == 0 || s % 4 != 0) {
        return Err(format!("size {s} is not a positive multiple of 4"));
    }
    let variants: Vec<Variant> = args
        .variants
        .iter()
        .map(|n| Variant::from_name(n).ok_or(format!("unknown variant `{n}`")))
        .collect::<Result<_, _>>()?;
    if args.n < 2 || args.reps == 0 {
        return Err("n must be at least 2 and reps positive".into());
    }
    let mut device = crate::gpu::timing_device(args.device.as_deref())?;
    let info = device.info().clone();
    println!(
        "chains of {} scale(1) dispatches (rw one buffer), {} primitives each; {} rounds max, {} warm-up, {:.0} s max per size",
        args.n,
        args.n - 1,
        args.reps,
        args.warmup,
        args.seconds_per_size
    );
    if info.timestamp_valid_bits == 0 {
        println!("note: the queue has no timestamps; spans are wall-clock time");
    }
    let mut summary = Vec::new();
    for &size in &sizes {
        let rows = bench_size(&mut device, &variants, args, size)?;
        summary.push((size, rows));
    }
    print_summary(&summary, args.n - 1);
    Ok(())
}

fn bench_size(
    device: &mut Device,
    variants: &[Variant],
    args: &PrimitivesArgs,
    size: u64,
) -> Result<Vec<Row>, String> {
    let mut programs = Vec::new();
    let mut rows = Vec::new();
    for &v in variants {
        let p = program(v, args.n, size).map_err(|e| e.to_string())?;
        let hazards = vksync::check(&p).map_err(|e| e.to_string())?.len();
        rows.push(Row {
            variant: v,
            submits: p
                .commands()
                .iter()
                .filter(|c| matches!(c, Command::Submit(_)))
                .count()
                .max(1),
            hazards,
            span_us: Vec::new(),
        });
        programs.push(p);
    }
    let mapping = match programs.iter().find(|p| p.queue_count() > 1) {
        Some(p) => Some(timing::mapping(device, p)?),
        None => None,
    };
    let mut timer = Timer::new(device, &programs, args.method, !args.no_gate)?;
    let mut once = |i: usize| -> Result<f64, String> {
        let (gpu, wall) = timer.execute(i)?;
        Ok(gpu.unwrap_or(wall) as f64 / 1e3)
    };
    let n = programs.len();
    let mut round_wall = Vec::new();
    for _ in 0..args.warmup.max(1) {
        let t = Instant::now();
        for i in 0..n {
            once(i)?;
        }
        round_wall.push(t.elapsed().as_secs_f64());
    }
    let per_round = median(&round_wall).max(1e-9);
    let rounds = args
        .reps
        .min(((args.seconds_per_size / per_round) as usize).max(5));
    for r in 0..rounds {
        for j in 0..n {
            let i = (r + j) % n;
            let us = once(i)?;
            rows[i].span_us.push(us);
        }
    }
    let method_line = timer.describe();
    let messages = timer.take_message_count();

    let prims = (args.n - 1) as f64;
    let med_of = |v: Variant| rows.iter().find(|r| r.variant == v).map(|r| median(&r.span_us));
    println!();
    println!("== size {}: {} rounds of {} variants", bytes(size), rounds, n);
    println!("{method_line}");
    if let Some(m) = mapping {
        println!("semaphore variant's queues: {m}");
    }
    if messages > 0 {
        println!("note: {messages} validation messages (validation should be off)");
    }
    println!(
        "{:<15} {:>7} {:>8} {:>12} {:>21} {:>10} {:>14} {:>21}",
        "variant",
        "submits",
        "hazards",
        "span med us",
        "span p10..p90 us",
        "vs",
        "ns/primitive",
        "ns p10..p90"
    );
    for r in &rows {
        let m = median(&r.span_us);
        let base = r.variant.baseline();
        let (vs, cost) = match med_of(base) {
            Some(b) if base != r.variant => {
                let costs: Vec<f64> = r.span_us.iter().map(|x| (x - b) * 1e3 / prims).collect();
                (
                    base.name(),
                    Some((median(&costs), quantile(&costs, 0.1), quantile(&costs, 0.9))),
                )
            }
            _ => ("-", None),
        };
        println!(
            "{:<15} {:>7} {:>8} {:>12.1} {:>10.1}..{:<10.1} {:>10} {:>14} {:>21}",
            r.variant.name(),
            r.submits,
            r.hazards,
            m,
            quantile(&r.span_us, 0.1),
            quantile(&r.span_us, 0.9),
            vs,
            cost.map_or("-".to_string(), |c| format!("{:.0}", c.0)),
            cost.map_or("-".to_string(), |c| format!("{:.0}..{:.0}", c.1, c.2)),
        );
    }
    Ok(rows)
}

fn print_summary(summary: &[(u64, Vec<Row>)], prims: usize) {
    let prims = prims as f64;
    println!();
    println!("== summary: median ns per primitive (span - baseline span) / {prims}");
    println!(
        "{:<8} {:>10} {:>10} {:>10} {:>16} {:>12} {:>21}",
        "size", "global", "buffer", "event", "submit-barrier", "semaphore", "semaphore-submit+bar"
    );
    for (size, rows) in summary {
        let med = |v: Variant| rows.iter().find(|r| r.variant == v).map(|r| median(&r.span_us));
        let cost = |v: Variant, base: Variant| match (med(v), med(base)) {
            (Some(a), Some(b)) => format!("{:.0}", (a - b) * 1e3 / prims),
            _ => "-".to_string(),
        };
        println!(
            "{:<8} {:>10} {:>10} {:>10} {:>16} {:>12} {:>21}",
            bytes(*size),
            cost(Variant::Global, Variant::None),
            cost(Variant::Buffer, Variant::None),
            cost(Variant::Event, Variant::None),
            cost(Variant::SubmitBarrier, Variant::SubmitNone),
            cost(Variant::Semaphore, Variant::SubmitNone),
            cost(Variant::Semaphore, Variant::SubmitBarrier),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synchronized_variants_are_hazard_free_and_baselines_are_not() {
        for v in Variant::ALL {
            // Long enough for the event variant to reset and reuse events.
            let p = program(v, 3 * EVENTS, 256).unwrap();
            let hazards = vksync::check(&p).unwrap();
            match v {
                Variant::None | Variant::SubmitNone => {
                    assert!(!hazards.is_empty(), "{} should race", v.name())
                }
                _ => assert!(hazards.is_empty(), "{}: {hazards:?}", v.name()),
            }
        }
    }

    /// Every variant runs through both timing methods (the prepared one
    /// records the per-submit variants batch by batch, semaphores and
    /// events included), long enough for the event variant to reuse its
    /// events.
    #[test]
    fn every_variant_is_timed_by_both_methods() {
        let Some(mut device) = crate::timing::tests::device() else {
            return;
        };
        let programs: Vec<Program> = Variant::ALL
            .iter()
            .map(|&v| program(v, 2 * EVENTS + 2, 256).unwrap())
            .collect();
        crate::timing::tests::assert_timed_by_both_methods(&mut device, &programs);
    }

    #[test]
    fn variants_have_the_primitives_they_name() {
        let n = 2 * EVENTS + 3;
        let count = |v: Variant, f: fn(&Command) -> bool| {
            program(v, n, 256)
                .unwrap()
                .commands()
                .iter()
                .filter(|c| f(c))
                .count()
        };
        let barrier = |c: &Command| matches!(c, Command::Barrier(_));
        let submit = |c: &Command| matches!(c, Command::Submit(_));
        assert_eq!(count(Variant::Global, barrier), n - 1);
        assert_eq!(count(Variant::Buffer, barrier), n - 1);
        assert_eq!(
            count(Variant::Event, |c| matches!(c, Command::SetEvent { .. })),
            n - 1
        );
        assert_eq!(
            count(Variant::Event, |c| matches!(c, Command::WaitEvents { .. })),
            n - 1
        );
        assert_eq!(count(Variant::SubmitBarrier, barrier), n - 1);
        assert_eq!(count(Variant::SubmitBarrier, submit), n);
        assert_eq!(count(Variant::Semaphore, submit), n);
        assert_eq!(count(Variant::Semaphore, barrier), 0);
        assert_eq!(program(Variant::Semaphore, n, 256).unwrap().queue_count(), 2);
        for v in Variant::ALL {
            let dispatches = count(v, |c| matches!(c, Command::Dispatch { .. }));
            assert_eq!(dispatches, n, "{}", v.name());
        }
    }
}
