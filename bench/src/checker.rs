//! `vksync-bench checker`: one long planned command stream checked by
//! vksync, and recorded (never submitted) without the validation layer, with
//! the layer's core validation only, and with synchronization validation.

use crate::stats::{bytes, median, parse_size};
use crate::workload::{self, Shape};
use std::time::Instant;
use vksync::accesses;
use vksync::plan::{plan, PlanOptions, PlannerKind};
use vksync::Semantics;
use vksync_runtime::{Device, DeviceOptions, ValidationMode};

#[derive(clap::Args, Debug)]
pub struct CheckerArgs {
    /// Device commands (before planning) at least; layers are added until
    /// the workload has this many.
    #[arg(long, default_value_t = 100_000)]
    commands: usize,
    /// Independent chains (batch items).
    #[arg(long, default_value_t = 16)]
    batch: usize,
    /// Bytes per activation buffer.
    #[arg(long, default_value = "256")]
    size: String,
    /// Timed repetitions of each measurement (interleaved).
    #[arg(long, default_value_t = 5)]
    reps: usize,
    /// Device name substring (default: VKSYNC_DEVICE, else the first device).
    #[arg(long)]
    device: Option<String>,
    /// The stream: `resnet` (the planned residual-block workload above) or
    /// `copy-pages` (the validation layer's `CopyPagesInSmallChunks` stress
    /// pattern: a global ALL_TRANSFER:TRANSFER_WRITE -> ALL_TRANSFER:TRANSFER_READ
    /// barrier before each 16-byte copy from one chunk of a buffer to the
    /// next, over `--pages` pages of 64 KiB: 4,096 pairs a page).
    #[arg(long, default_value = "resnet")]
    workload: String,
    /// Pages of the copy-pages stream (16: 65,535 copy + barrier pairs).
    #[arg(long, default_value_t = 16)]
    pages: usize,
    /// Also time the sharded check on this many threads (0: none).
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// Time vksync's check only, with no device and no layer (for
    /// profiling it, e.g. under `perf record`, and on machines without
    /// Vulkan).
    #[arg(long)]
    check_only: bool,
    /// Also write the planned stream, as checked, to this trace file (to
    /// time or profile other builds of `vksync check` on it).
    #[arg(long, value_name = "FILE")]
    write_stream: Option<std::path::PathBuf>,
}

/// The copy-pages stream (see [`CheckerArgs::workload`]): as the layer's
/// test records it, the first page starting at its second chunk.
fn copy_pages(pages: usize) -> Result<vksync::Program, String> {
    use std::fmt::Write as _;
    let size = pages * 65536;
    let mut t = format!("buffer pages {size}\n");
    for k in 0..size / 16 - 1 {
        let src = k * 16;
        writeln!(
            t,
            "barrier ALL_TRANSFER:TRANSFER_WRITE -> ALL_TRANSFER:TRANSFER_READ\ncopy pages[{src}..{}] -> pages[{}..{}]",
            src + 16,
            src + 16,
            src + 32
        )
        .expect("a String");
    }
    vksync::trace::parse(&t)
        .map(|t| t.program)
        .map_err(|e| e.to_string())
}

pub fn run(args: &CheckerArgs) -> Result<(), String> {
    let size = parse_size(&args.size)?;
    if args.batch == 0 || args.reps == 0 {
        return Err("batch and reps must be positive".into());
    }
    // Five device commands per item and block, plus a fill and a copy per item.
    let layers = args
        .commands
        .saturating_sub(2 * args.batch)
        .div_ceil(5 * args.batch)
        .max(1);
    let shape = Shape {
        batch: args.batch,
        layers,
        size,
        slow_iters: 16,
        reuse: true,
    };
    let copy = match args.workload.as_str() {
        "resnet" => false,
        "copy-pages" => true,
        w => return Err(format!("unknown workload `{w}` (resnet, copy-pages)")),
    };
    let raw = if copy {
        copy_pages(args.pages)?
    } else {
        workload::program(shape, false).map_err(|e| e.to_string())?
    };
    let t = Instant::now();
    let planned = if copy {
        // Recorded as the layer's test records it: its own barriers.
        raw.clone()
    } else {
        plan(&raw, PlanOptions::new(PlannerKind::Offline))
            .map_err(|e| e.to_string())?
            .program
    };
    let plan_s = t.elapsed().as_secs_f64();
    // The stream both sides see, with the bits the 1.3.239 layer needs to
    // report nothing (D2, D4): a reported hazard costs the layer time.
    let planned = if copy {
        planned
    } else {
        vksync::layer::quiet_for_layer(&planned)
    };
    let recorded = workload::device_commands(&planned);
    let layout = vksync::resolve(&planned).map_err(|e| e.to_string())?;
    let n_accesses: usize = planned
        .commands()
        .iter()
        .map(|c| {
            accesses(c, &layout, Semantics::SPEC)
                .expect("its own layout")
                .len()
        })
        .sum();
    if copy {
        println!(
            "stream: copy-pages, {} pages of 64 KiB in one buffer; {} copies + {} barriers = {} recorded commands; {} accesses",
            args.pages,
            workload::device_commands(&raw) - planned.barrier_points(),
            planned.barrier_points(),
            recorded,
            n_accesses
        );
    } else {
        println!(
            "stream: {} chains x {} residual blocks, {} buffers; {} device commands + {} barriers (offline plan, global, made quiet for the 1.3.239 layer: D2, D4) = {} recorded commands; {} program commands with alloc/free; {} accesses",
            args.batch,
            layers,
            bytes(size),
            workload::device_commands(&raw),
            planned.barrier_points(),
            recorded,
            planned.commands().len(),
            n_accesses
        );
    }

    if let Some(path) = &args.write_stream {
        std::fs::write(path, vksync::trace::print(&planned))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    // One timed `vksync::check` of the stream: seconds and hazards.
    let timed_check = || -> Result<(f64, Vec<vksync::Hazard>), String> {
        let t = Instant::now();
        let h = vksync::check(&planned).map_err(|e| e.to_string())?;
        Ok((t.elapsed().as_secs_f64(), h))
    };
    if args.check_only {
        let mut check_s = Vec::new();
        let mut hazards = 0;
        for _ in 0..args.reps {
            let (s, h) = timed_check()?;
            check_s.push(s);
            hazards = h.len();
        }
        let s = median(&check_s);
        println!(
            "vksync check (resolve + check), median of {}: {:.1} ms, {:.1} ns/command, {:.3e} accesses/s, {} hazards",
            args.reps,
            s * 1e3,
            s * 1e9 / recorded as f64,
            n_accesses as f64 / s,
            hazards
        );
        return Ok(());
    }
    let mut options = DeviceOptions::from_env();
    if args.device.is_some() {
        options.device = args.device.clone();
    }
    options.print_device = false;
    let mut devices = Vec::new();
    for (label, mode) in [
        ("no layer", ValidationMode::Off),
        ("layer, core validation only", ValidationMode::CoreOnly),
        ("layer + synchronization validation", ValidationMode::Required),
    ] {
        options.validation = mode;
        let d = Device::new(options.clone()).map_err(|e| format!("{label}: {e}"))?;
        println!("device ({label}): {}", d.info());
        devices.push((label, d, Vec::new(), Vec::new()));
    }

    let mut check_s = Vec::new();
    let mut par_s = Vec::new();
    let mut hazards = 0;
    for _ in 0..args.reps {
        let (s, h) = timed_check()?;
        check_s.push(s);
        hazards = h.len();
        if args.jobs > 0 {
            let t = Instant::now();
            let p = vksync::check_parallel(&planned, Semantics::default(), args.jobs)
                .map_err(|e| e.to_string())?;
            par_s.push(t.elapsed().as_secs_f64());
            if p != h {
                return Err("the sharded check differs from the sequential one".into());
            }
        }
        for (label, d, times, messages) in devices.iter_mut() {
            let timing = d
                .time_recording(&planned, 1)
                .map_err(|e| format!("{label}: {e}"))?;
            times.extend(timing.rep_ns.iter().map(|&n| n as f64 / 1e9));
            messages.extend(timing.messages);
        }
    }

    let per_cmd_ns = |s: f64| s * 1e9 / recorded as f64;
    let vk_s = median(&check_s);
    let vk_cmd = per_cmd_ns(vk_s);
    println!();
    println!(
        "== checker vs validation layer ({} repetitions each, interleaved; medians)",
        args.reps
    );
    println!(
        "{:<38} {:>10} {:>12} {:>14} {:>9}",
        "what", "total ms", "ns/command", "accesses/s", "messages"
    );
    println!(
        "{:<38} {:>10.1} {:>12.1} {:>14.3e} {:>9}",
        "vksync check (resolve + check)",
        vk_s * 1e3,
        vk_cmd,
        n_accesses as f64 / vk_s,
        hazards
    );
    if args.jobs > 0 {
        let s = median(&par_s);
        println!(
            "{:<38} {:>10.1} {:>12.1} {:>14.3e} {:>9}",
            format!("vksync check, sharded, {} threads", args.jobs),
            s * 1e3,
            per_cmd_ns(s),
            n_accesses as f64 / s,
            hazards
        );
    }
    println!(
        "{:<38} {:>10.1} {:>12.1} {:>14} {:>9}",
        "vksync offline plan (once, for scale)",
        plan_s * 1e3,
        per_cmd_ns(plan_s),
        "",
        ""
    );
    let rec: Vec<f64> = devices.iter().map(|(_, _, t, _)| median(t)).collect();
    for ((label, _, _, m), &s) in devices.iter().zip(&rec) {
        println!(
            "{:<38} {:>10.1} {:>12.1} {:>14} {:>9}",
            format!("record: {label}"),
            s * 1e3,
            per_cmd_ns(s),
            "",
            m.len()
        );
    }
    let mut ids: std::collections::BTreeMap<&str, (usize, &str)> = Default::default();
    for (_, _, _, m) in &devices {
        for msg in m {
            let e = ids.entry(msg.id_name.as_str()).or_insert((0, msg.text.as_str()));
            e.0 += 1;
        }
    }
    for (id, (n, text)) in &ids {
        println!(
            "  message {id} x{n}, e.g.: {}",
            text.chars().take(400).collect::<String>()
        );
    }
    let layer = per_cmd_ns(rec[2] - rec[0]);
    let syncval = per_cmd_ns(rec[2] - rec[1]);
    println!();
    println!("layer cost per recorded command (sync validation - no layer): {layer:.1} ns");
    println!("syncval's own cost per command (sync validation - core only):  {syncval:.1} ns");
    println!("vksync check cost per command:                                 {vk_cmd:.1} ns");
    println!(
        "ratio layer / vksync: {:.1}x   syncval-only / vksync: {:.1}x   (target: >= 20x)",
        layer / vk_cmd,
        syncval / vk_cmd
    );
    Ok(())
}
