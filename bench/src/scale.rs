//! `vksync-bench scale`: check time per command of generated traces at
//! several sizes, single-queue (sequential and sharded over `--jobs`
//! threads) and with two queues and semaphores (the multi-queue walk),
//! with the ratio of the sharded to the sequential check. The traces come
//! from one small deterministic generator ([`trace`]); `--print` writes one
//! to standard output for `vksync check`.

use crate::stats::median;
use std::fmt::Write as _;
use std::time::Instant;
use vksync::{Program, Semantics};

#[derive(clap::Args, Debug)]
pub struct ScaleArgs {
    /// Sizes in trace commands (approximately), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "10000,100000,1000000")]
    commands: Vec<usize>,
    /// Buffers (memory objects) the accesses spread over.
    #[arg(long, default_value_t = 64)]
    buffers: usize,
    /// Threads of the sharded check.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
    /// Timed repetitions of each check (medians).
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Print the trace of this many commands (single queue, or with
    /// `--queues 2` two queues) instead of timing.
    #[arg(long)]
    print: Option<usize>,
    /// Queues of the printed trace.
    #[arg(long, default_value_t = 1)]
    queues: usize,
    /// Time the single-queue checks only (the two-queue walk is the
    /// slowest column at a million commands).
    #[arg(long)]
    no_multi: bool,
}

/// A deterministic trace of about `n` commands over `buffers` buffers of
/// 4 KiB: per step a fill of 64 bytes, a buffer barrier, a copy of them to
/// another buffer; a global barrier every fourth step (so some hazards
/// remain between), a submit every 500 commands, a fence wait every 4,000.
/// With `queues` 2 the batches alternate between two queues, each waiting
/// for the batch before with a binary semaphore.
pub fn trace(n: usize, buffers: usize, queues: usize) -> String {
    let mut t = String::new();
    if queues > 1 {
        t.push_str("queue qa\nqueue qb\nsemaphore s0\nsemaphore s1\n");
    }
    for b in 0..buffers {
        writeln!(t, "buffer b{b} 4096").expect("a String");
    }
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut cmds, mut batch, mut step) = (0usize, 0usize, 0usize);
    while cmds < n {
        let b = (next() % buffers as u64) as usize;
        let c = (b + 1 + (next() % (buffers as u64 - 1).max(1)) as usize) % buffers;
        let off = (next() % 64) * 64;
        let r = format!("[{off}..{}]", off + 64);
        writeln!(
            t,
            "fill b{b}{r} 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ b{b}{r}\ncopy b{b}{r} -> b{c}{r}"
        )
        .expect("a String");
        cmds += 3;
        step += 1;
        if step % 4 == 0 {
            t.push_str("barrier ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE\n");
            cmds += 1;
        }
        if cmds / 500 > batch {
            if queues > 1 {
                let q = ["qa", "qb"][batch % 2];
                let wait = if batch > 0 {
                    format!(" wait s{}@ALL_COMMANDS", (batch - 1) % 2)
                } else {
                    String::new()
                };
                writeln!(t, "submit {q}{wait} signal s{}@ALL_COMMANDS", batch % 2).expect("a String");
            } else {
                t.push_str("submit\n");
            }
            batch += 1;
            cmds += 1;
            if batch % 8 == 0 {
                t.push_str("wait\n");
                cmds += 1;
            }
        }
    }
    t
}

fn time<T>(reps: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..reps {
        let t = Instant::now();
        last = Some(f());
        times.push(t.elapsed().as_secs_f64());
    }
    (median(&times), last.expect("at least one repetition"))
}

fn parse(text: &str) -> Result<Program, String> {
    vksync::trace::parse(text)
        .map(|t| t.program)
        .map_err(|e| e.to_string())
}

pub fn run(args: &ScaleArgs) -> Result<(), String> {
    if args.buffers < 2 || args.reps == 0 {
        return Err("buffers must be at least 2 and reps positive".into());
    }
    if let Some(n) = args.print {
        print!("{}", trace(n, args.buffers, args.queues));
        return Ok(());
    }
    let sem = Semantics::default();
    println!(
        "generated traces over {} buffers; check = resolve + check + grouping (`vksync check`'s work), median of {} runs; sharded over {} threads",
        args.buffers, args.reps, args.jobs
    );
    println!(
        "{:<8} {:>9} {:>11} {:>11} {:>11} {:>11} {:>8} {:>11} {:>11}",
        "queues", "commands", "hazards", "seq ms", "seq ns/cmd", "par ms", "seq/par", "multi ms", "ns/cmd"
    );
    for &n in &args.commands {
        let single = parse(&trace(n, args.buffers, 1))?;
        let len = single.commands().len();
        let (seq_s, seq) = time(args.reps, || vksync::check_report(&single, sem));
        let seq = seq.map_err(|e| e.to_string())?;
        let (par_s, par) = time(args.reps, || {
            vksync::check_report_parallel(&single, sem, args.jobs)
        });
        let par = par.map_err(|e| e.to_string())?;
        if par != seq {
            return Err(format!("{n}: the sharded check differs from the sequential one"));
        }
        let multi = if args.no_multi {
            None
        } else {
            let multi = parse(&trace(n, args.buffers, 2))?;
            let mlen = multi.commands().len();
            let (multi_s, found) = time(args.reps, || vksync::check_with(&multi, sem));
            found.map_err(|e| e.to_string())?;
            Some((multi_s * 1e3, multi_s * 1e9 / mlen as f64))
        };
        let (multi_ms, multi_ns) = multi.map_or(("-".into(), "-".into()), |(ms, ns)| {
            (format!("{ms:.1}"), format!("{ns:.1}"))
        });
        println!(
            "{:<8} {:>9} {:>11} {:>11.1} {:>11.1} {:>11.1} {:>8.2} {:>11} {:>11}",
            "1 | 2",
            len,
            seq.len(),
            seq_s * 1e3,
            seq_s * 1e9 / len as f64,
            par_s * 1e3,
            seq_s / par_s,
            multi_ms,
            multi_ns
        );
    }
    Ok(())
}
