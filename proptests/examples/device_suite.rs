//! Runs N random programs on the current Vulkan device with every planner
//! and prints a plain-text table: byte mismatches against the CPU
//! reference, validation messages, and (with the validation layer) the
//! model-vs-syncval differential on weakened offline plans.
//!
//! ```text
//! cargo run --release -p vksync-proptests --example device_suite -- \
//!     --cases N --seed S [--max-ops M] [--slow-iters K] [--repeat R] [--diff-max D] [--out FILE] [--failures FILE]
//! ```
//!
//! `VKSYNC_DEVICE` picks the device, `VKSYNC_VALIDATION=0` turns the layer
//! off (then no message or differential columns). Programs come from
//! `vksync_proptests::programs_ops` with a ChaCha RNG seeded by `--seed`, so
//! the same seed gives the same programs on every machine; `--slow-iters`
//! sets the `slow` kernel's iterations (longer kernels widen race windows
//! on a GPU); `--repeat` runs the `none` and `per-object` plans R times
//! each (races are probabilistic). Exit status 1 when a safe planner
//! (conservative, online, offline) gives wrong bytes or an unexplained
//! message, or a differential comparison fails.
//!
//! Every prediction is made on the program as the device recorded it
//! (`vksync_proptests::layer::recorded`: a driver workaround may strengthen
//! barriers), since that is what the layer judged; the report says which
//! workarounds were on, how many runs they changed, and how many of those
//! would have failed had the model judged the program as given.
//! `VKSYNC_DRIVER_WORKAROUNDS=force:NAME` forces a workaround on any device
//! (a test switch: lavapipe then records as the H200 does).

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use vksync::plan::{plan, BarrierForm, PlanOptions, PlannerKind};
use vksync::{reference, Program, Semantics};
use vksync_proptests::layer::{layer_of, observed, predict, recorded, show_keys, verdict, Verdict};
use vksync_proptests::{build_with, ops_strategy, weakenings};
use vksync_runtime::{Device, DeviceOptions};

struct Args {
    cases: usize,
    seed: u64,
    max_ops: usize,
    slow_iters: u32,
    repeat: usize,
    diff_max: usize,
    out: Option<String>,
    failures: Option<String>,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        cases: 50,
        seed: 1,
        max_ops: 32,
        slow_iters: vksync_proptests::SLOW_ITERS,
        repeat: 1,
        diff_max: 8,
        out: None,
        failures: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = || it.next().ok_or(format!("{k} needs a value"));
        let num = |s: String| s.parse::<u64>().map_err(|e| format!("{k}: {e}"));
        match k.as_str() {
            "--cases" => a.cases = num(v()?)? as usize,
            "--seed" => a.seed = num(v()?)?,
            "--max-ops" => a.max_ops = num(v()?)? as usize,
            "--slow-iters" => a.slow_iters = num(v()?)? as u32,
            "--repeat" => a.repeat = num(v()?)?.max(1) as usize,
            "--diff-max" => a.diff_max = num(v()?)? as usize,
            "--out" => a.out = Some(v()?),
            "--failures" => a.failures = Some(v()?),
            _ => return Err(format!("unknown argument {k}")),
        }
    }
    Ok(a)
}

#[derive(Default)]
struct Row {
    runs: usize,
    programs_wrong: usize,
    bytes_wrong: usize,
    errors: usize,
    runs_with_messages: usize,
    messages: usize,
    unexplained: usize,
}

const ROWS: [(PlannerKind, BarrierForm, bool); 7] = [
    (PlannerKind::None, BarrierForm::Global, false),
    (PlannerKind::PerObject, BarrierForm::Global, false),
    (PlannerKind::Conservative, BarrierForm::Global, true),
    (PlannerKind::Online, BarrierForm::Global, true),
    (PlannerKind::Online, BarrierForm::Buffer, true),
    (PlannerKind::Offline, BarrierForm::Global, true),
    (PlannerKind::Offline, BarrierForm::Buffer, true),
];

fn wrong_bytes(p: &Program, result: &vksync_runtime::RunResult) -> usize {
    let Ok(expected) = reference::run(p) else { return 0 };
    expected
        .iter()
        .map(|r| {
            let got = result.readback(r.command).unwrap_or(&[]);
            reference::mismatches(&r.bytes, got).len()
                + (got.len()..r.bytes.len())
                    .filter(|&i| r.bytes[i].is_some())
                    .count()
        })
        .sum()
}

fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("device_suite: {e}");
            std::process::exit(2);
        }
    };
    let mut device = match Device::new(DeviceOptions {
        print_device: false,
        ..DeviceOptions::from_env()
    }) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("device_suite: no device: {e}");
            std::process::exit(2);
        }
    };
    let info = device.info().clone();
    let validation = info.validation;

    // Deterministic programs: the same seed gives the same programs.
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&a.seed.to_le_bytes());
    let mut runner =
        TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
    let strategy = ops_strategy(a.max_ops);
    let programs: Vec<Program> = (0..a.cases)
        .map(|_| {
            build_with(
                &strategy.new_tree(&mut runner).expect("strategy").current(),
                a.slow_iters,
            )
        })
        .collect();

    let layer = layer_of(&device);
    let emulation = layer.emulation();
    let mut rows: Vec<Row> = ROWS.iter().map(|_| Row::default()).collect();
    let (mut comparisons, mut agree_exact, mut agree_k4, mut diff_fail, mut spec_agree) = (0, 0, 0, 0, 0);
    let mut first_failure: Option<String> = None;
    // Runs whose recorded program differs from the given one (a workaround
    // changed a barrier), and of those, the ones the recorded program's
    // prediction explains but the given program's would not.
    let (mut changed_runs, mut as_given_fail) = (0usize, 0usize);
    // Every failure, with what the layer said and what the model predicted.
    let mut failures: Vec<String> = Vec::new();
    // `p` is the program as recorded (what the layer judged).
    let describe = |what: &str, index: usize, p: &Program, result: &vksync_runtime::RunResult| {
        let (got, other) = observed(result);
        let mut t = format!("== program {index}: {what} (the program as recorded below)\n");
        t += &format!("layer reported: {}\n", show_keys(p, &got));
        t += &format!(
            "layer {} predicts: {}\n",
            layer.version(),
            show_keys(p, &predict(p, &emulation))
        );
        t += &format!(
            "SPEC predicts: {}\n",
            show_keys(p, &predict(p, &emulation.with_semantics(Semantics::SPEC)))
        );
        for m in &result.messages {
            t += &format!("message: {}\n", m.text.lines().next().unwrap_or(""));
        }
        for m in other {
            t += &format!("other message: {m}\n");
        }
        t += &vksync::trace::print(p);
        t
    };
    let started = std::time::Instant::now();
    let mut gpu_ns: u64 = 0;
    for (index, prog) in programs.iter().enumerate() {
        for (ri, &(planner, form, safe)) in ROWS.iter().enumerate() {
            let Ok(planned) = plan(prog, PlanOptions::new(planner).form(form)) else {
                rows[ri].errors += 1;
                continue;
            };
            let p = planned.program;
            let rec = recorded(&device, &p);
            let reps = if safe { 1 } else { a.repeat };
            let mut wrong_any = false;
            for _ in 0..reps {
                let r = catch_unwind(AssertUnwindSafe(|| device.run(&p)));
                let result = match r {
                    Ok(Ok(r)) => r,
                    _ => {
                        rows[ri].errors += 1;
                        continue;
                    }
                };
                gpu_ns += result.gpu_ns_total().unwrap_or(0);
                let row = &mut rows[ri];
                row.runs += 1;
                let wb = wrong_bytes(&p, &result);
                row.bytes_wrong += wb;
                wrong_any |= wb > 0;
                if validation {
                    row.messages += result.messages.len();
                    row.runs_with_messages += usize::from(!result.messages.is_empty());
                    let (got, other) = observed(&result);
                    let v = verdict(&rec, &emulation, &got);
                    if !other.is_empty() || v == Verdict::Mismatch {
                        row.unexplained += 1;
                        let what = format!("unexplained message on the {}/{:?} plan", planner.name(), form);
                        failures.push(describe(&what, index, &rec, &result));
                        if safe && first_failure.is_none() {
                            first_failure = Some(vksync::trace::print(&rec));
                        }
                    } else if *rec != p {
                        as_given_fail += usize::from(verdict(&p, &emulation, &got) == Verdict::Mismatch);
                    }
                    changed_runs += usize::from(*rec != p);
                }
                if safe && wb > 0 && first_failure.is_none() {
                    first_failure = Some(vksync::trace::print(&p));
                }
            }
            rows[ri].programs_wrong += usize::from(wrong_any);
        }
        if validation && a.diff_max > 0 {
            let Ok(planned) = plan(prog, PlanOptions::new(PlannerKind::Offline)) else {
                continue;
            };
            let w = weakenings(&planned.program);
            let step = w.len().div_ceil(a.diff_max).max(1);
            for (_, q) in w.iter().step_by(step) {
                let rec = recorded(&device, q);
                let Ok(Ok(result)) = catch_unwind(AssertUnwindSafe(|| device.run(q))) else {
                    diff_fail += 1;
                    continue;
                };
                comparisons += 1;
                let changed = *rec != *q;
                changed_runs += usize::from(changed);
                let (got, other) = observed(&result);
                match (other.is_empty(), verdict(&rec, &emulation, &got)) {
                    (true, v @ (Verdict::Exact | Verdict::K4 | Verdict::D31)) => {
                        if v == Verdict::K4 {
                            agree_k4 += 1;
                        } else {
                            // D31's bounds (1.4.363): counted with the exact ones.
                            agree_exact += 1;
                        }
                        if changed {
                            as_given_fail += usize::from(verdict(q, &emulation, &got) == Verdict::Mismatch);
                        }
                    }
                    _ => {
                        diff_fail += 1;
                        failures.push(describe(
                            "differential mismatch on a weakened offline plan",
                            index,
                            &rec,
                            &result,
                        ));
                        if first_failure.is_none() {
                            first_failure = Some(vksync::trace::print(&rec));
                        }
                    }
                }
                spec_agree += usize::from(
                    verdict(&rec, &emulation.with_semantics(Semantics::SPEC), &got) != Verdict::Mismatch,
                );
            }
        }
    }

    let mut out = String::new();
    let _ = writeln!(out, "device: {info}");
    let names: Vec<&str> = vksync_runtime::quirks::KNOWN
        .iter()
        .filter(|k| info.quirks.contains(&k.quirk))
        .map(|k| k.name)
        .collect();
    let _ = writeln!(
        out,
        "driver workarounds: {}",
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    );
    let _ = writeln!(
        out,
        "programs: {} (seed {}, up to {} ops, slow kernel {} iterations, none/per-object repeated {}x), wall {:.1} s, GPU {:.1} ms",
        a.cases, a.seed, a.max_ops, a.slow_iters, a.repeat, started.elapsed().as_secs_f64(), gpu_ns as f64 / 1e6
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<22} {:>6} {:>15} {:>12} {:>7} {:>14} {:>9} {:>12}",
        "planner/form",
        "runs",
        "programs wrong",
        "bytes wrong",
        "errors",
        "runs w/ msgs",
        "messages",
        "unexplained"
    );
    for ((planner, form, _), r) in ROWS.iter().zip(&rows) {
        let name = format!(
            "{}/{}",
            planner.name(),
            if *form == BarrierForm::Global {
                "global"
            } else {
                "buffer"
            }
        );
        let (m1, m2, m3) = if validation {
            (
                r.runs_with_messages.to_string(),
                r.messages.to_string(),
                r.unexplained.to_string(),
            )
        } else {
            ("-".into(), "-".into(), "-".into())
        };
        let _ = writeln!(
            out,
            "{:<22} {:>6} {:>15} {:>12} {:>7} {:>14} {:>9} {:>12}",
            name, r.runs, r.programs_wrong, r.bytes_wrong, r.errors, m1, m2, m3
        );
    }
    let _ = writeln!(out);
    if validation {
        let _ = writeln!(
            out,
            "differential (offline/global plans, up to {} weakenings each): {} comparisons; layer {} agrees on {} \
             ({} where K4 did not change the prediction, {} where it did), {} failures; SPEC agrees on {}",
            a.diff_max, comparisons, layer.version(), agree_exact + agree_k4, agree_exact, agree_k4, diff_fail, spec_agree
        );
        let _ = writeln!(
            out,
            "messages on safe plans are expected when the layer {} profile predicts them; \"unexplained\" counts the rest",
            layer.version()
        );
        let _ = writeln!(
            out,
            "predictions made on the programs as recorded: workarounds changed the barriers of {changed_runs} runs; \
             judged on the programs as given, {as_given_fail} of them would have failed"
        );
    } else {
        let _ = writeln!(out, "validation off: no message or differential figures");
    }
    let safe_bad: usize = ROWS
        .iter()
        .zip(&rows)
        .filter(|((_, _, safe), _)| *safe)
        .map(|(_, r)| r.programs_wrong + r.errors + r.unexplained)
        .sum();
    let ok = safe_bad == 0 && diff_fail == 0;
    let _ = writeln!(out, "verdict: {}", if ok { "PASS" } else { "FAIL" });
    if let Some(f) = &first_failure {
        let _ = writeln!(out, "\nfirst failing program:\n{f}");
    }
    print!("{out}");
    if let Some(path) = &a.failures {
        if let Err(e) = std::fs::write(path, failures.join("\n")) {
            eprintln!("device_suite: cannot write {path}: {e}");
        }
    }
    if let Some(path) = &a.out {
        if let Err(e) = std::fs::write(path, &out) {
            eprintln!("device_suite: cannot write {path}: {e}");
        }
    }
    std::process::exit(if ok { 0 } else { 1 });
}
