//! Runs N random multi-queue programs (`vksync_proptests::queues`) on the
//! current Vulkan device: each correct by construction (checked
//! hazard-free by the model, then run and compared with the CPU
//! reference: every byte must match), and its variant with one semaphore
//! wait removed (the model reports a hazard), run R times to measure how
//! often the device actually gets bytes wrong.
//!
//! ```text
//! cargo run --release -p vksync-proptests --example queue_races -- \
//!     [--cases N] [--seed S] [--repeat R] [--bytes B] [--batches K] [--slow-iters I] \
//!     [--seconds T] [--print-first] [--print-messages] [--submit-validation]
//!     [--planned [--drop-ownership] [--without-fence-waits]]
//! ```
//!
//! `--planned --drop-ownership`: for each planned program with a queue
//! family ownership transfer, two variants of the plan, each run R times:
//! the transfers of one buffer turned into plain barriers (its release and
//! acquire keep their masks, `ownership S->D` dropped: the buffer is used
//! on another family without a transfer, contents undefined), and its
//! release and acquire barriers removed. The model's ownership issues and
//! hazards of each are printed with the wrong bytes: the race evidence for
//! a missing ownership transfer.
//!
//! `--planned --without-fence-waits`: each program loses its `wait` and
//! `wait QUEUE` lines before it is planned, so the planner inserts the
//! fence waits its host reads need (counted as host waits inserted); the
//! bytes must still be the reference's.
//!
//! `--print-first` prints the first program, or with `--planned` its
//! plan (to run one seed's plan alone: `--cases 1 --seed S`).
//!
//! `--seconds T` starts no new case after T seconds (the totals then say
//! how many ran), so a run under a time limit still ends with its totals.
//!
//! One line per case, then the totals; `VKSYNC_DEVICE` picks the device,
//! `VKSYNC_VALIDATION=0` turns the layer off. Exit status 1 when a correct
//! program gives a wrong byte or a case fails to run.

use vksync::plan::{plan_queues, PlanOptions, PlannerKind, QueuePlanOptions};
use vksync::{AccessFlags2 as A, Barrier, Command, Dependency, PipelineStageFlags2 as S, Program};
use vksync_proptests::queues::{expected, generate, hazards, run_case, run_once, QueueOptions, SuiteTotals};
use vksync_runtime::{Device, DeviceOptions};

fn main() {
    let mut cases = 20usize;
    let mut seed = 1u64;
    let mut repeat = 3usize;
    let mut print_first = false;
    let mut print_messages = false;
    let mut submit_validation = false;
    let mut planned = false;
    let mut drop_ownership = false;
    let mut without_fence_waits = false;
    let mut seconds = f64::INFINITY;
    let mut opts = QueueOptions::default();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = |i: usize| -> u64 {
            args.get(i + 1)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{} needs a number", args[i]))
        };
        match args[i].as_str() {
            "--cases" => cases = value(i) as usize,
            "--seed" => seed = value(i),
            "--repeat" => repeat = value(i) as usize,
            "--bytes" => opts.buffer_bytes = value(i),
            "--batches" => opts.batches = value(i) as usize,
            "--slow-iters" => opts.slow_iters = value(i) as u32,
            "--seconds" => seconds = value(i) as f64,
            "--planned" => {
                planned = true;
                i += 1;
                continue;
            }
            "--drop-ownership" => {
                drop_ownership = true;
                i += 1;
                continue;
            }
            "--without-fence-waits" => {
                without_fence_waits = true;
                i += 1;
                continue;
            }
            "--submit-validation" => {
                submit_validation = true;
                i += 1;
                continue;
            }
            "--print-messages" => {
                print_messages = true;
                i += 1;
                continue;
            }
            "--print-first" => {
                print_first = true;
                i += 1;
                continue;
            }
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    let mut options = DeviceOptions::from_env();
    if submit_validation {
        // Hazards between submissions and queues (no other thread yet).
        options = options.with_submit_validation();
    }
    let mut device = Device::new(options).unwrap_or_else(|e| panic!("{e}"));
    println!(
        "device: {}; queue families: {}",
        device.info(),
        device
            .info()
            .queue_families
            .iter()
            .map(|f| f.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "options: cases {cases}, seed {seed}, repeat {repeat}, {} bytes per buffer, {} batches, slow({})",
        opts.buffer_bytes, opts.batches, opts.slow_iters
    );
    if print_first && !planned {
        println!("first program:\n{}", generate(seed, &opts).text(None));
    }
    if planned {
        std::process::exit(run_planned(
            &mut device,
            seed,
            cases,
            seconds,
            opts,
            PlannedFlags {
                drop_ownership: drop_ownership.then_some(repeat),
                without_fence_waits,
                print_first,
            },
        ));
    }
    let mut totals = SuiteTotals::default();
    let mut failed = false;
    let start = std::time::Instant::now();
    for s in seed..seed + cases as u64 {
        if start.elapsed().as_secs_f64() > seconds {
            println!("stopped after {seconds} s: {} of {cases} cases ran", s - seed);
            break;
        }
        match run_case(&mut device, s, &opts, repeat) {
            Ok(r) => {
                let racy = match &r.racy {
                    Some((w, n, runs)) => format!(
                        "without wait {w:?}: {n} model hazards, wrong bytes per run {:?}",
                        runs.iter().map(|o| o.wrong).collect::<Vec<_>>()
                    ),
                    None => "no wait whose removal the model flags".to_string(),
                };
                if s == seed {
                    println!("queues of seed {s}: {}", r.correct.mapping);
                }
                println!(
                    "seed {s}: {} commands, {} waits, correct: {} wrong of {} ({} messages); {racy}",
                    r.commands, r.waits, r.correct.wrong, r.correct.bytes, r.correct.messages
                );
                if r.correct.messages > 0 && print_messages {
                    // What the layer said of a program the model calls
                    // race-free: the program and the messages.
                    println!("{}", generate(s, &opts).text(None));
                    for m in &r.correct.first_messages {
                        println!("  message: {m}");
                    }
                }
                failed |= r.correct.wrong > 0;
                totals.add(&r);
            }
            Err(e) => {
                println!("FAILED {e}");
                failed = true;
            }
        }
    }
    println!("totals: {totals} ({:.1} s)", start.elapsed().as_secs_f64());
    std::process::exit(i32::from(failed));
}

/// `--planned`: each generated program (without events, which the
/// multi-queue planner does not plan) with its barriers, semaphores and
/// ownership transfers dropped and planned again by
/// `vksync::plan::plan_queues` (offline inside each queue); the plan must
/// check hazard-free with no ownership issue and give the reference's bytes.
/// With `drop_ownership = Some(R)`, also runs the variants without one
/// buffer's ownership transfer R times each; with `without_fence_waits`,
/// plans each program without its fence waits (see the module docs).
/// Returns the exit status.
/// `--planned`'s options: `--drop-ownership` (its repeat count),
/// `--without-fence-waits`, and `--print-first` (print the first plan).
struct PlannedFlags {
    drop_ownership: Option<usize>,
    without_fence_waits: bool,
    print_first: bool,
}

fn run_planned(
    device: &mut Device,
    seed: u64,
    cases: usize,
    seconds: f64,
    mut opts: QueueOptions,
    flags: PlannedFlags,
) -> i32 {
    let PlannedFlags {
        drop_ownership,
        without_fence_waits,
        print_first,
    } = flags;
    opts.events = 0;
    let start = std::time::Instant::now();
    let (mut ran, mut bytes, mut wrong, mut messages, mut waits, mut failed) = (0, 0, 0, 0, 0, false);
    let (mut refused, mut host_waits) = (0, 0);
    let mut dropped = DroppedTotals::default();
    for s in seed..seed + cases as u64 {
        if start.elapsed().as_secs_f64() > seconds {
            println!("stopped after {seconds} s: {} of {cases} cases ran", s - seed);
            break;
        }
        let program = if without_fence_waits {
            let text: String = generate(s, &opts)
                .text(None)
                .lines()
                .filter(|l| !(*l == "wait" || l.starts_with("wait ")))
                .map(|l| format!("{l}\n"))
                .collect();
            vksync::trace::parse(&text)
                .unwrap_or_else(|e| panic!("seed {s} without its fence waits: {e}\n{text}"))
                .program
        } else {
            generate(s, &opts).program(None)
        };
        let plan = match plan_queues(
            &program,
            QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline)),
        ) {
            Ok(p) => p,
            // The planner's documented refusals (a host access after
            // conflicting device work recorded before it and submitted
            // after it, which these programs do not have): counted, not
            // run.
            Err(e) => {
                println!("seed {s}: not planned: {e}");
                refused += 1;
                continue;
            }
        };
        let p = &plan.plan.program;
        if print_first && s == seed {
            println!("first plan:\n{}", vksync::trace::print(p));
        }
        let h = hazards(p);
        let own = vksync::check_ownership(p).map_or(usize::MAX, |i| i.len());
        if h != 0 || own != 0 {
            println!("FAILED seed {s}: the plan has {h} hazards and {own} ownership issues");
            failed = true;
            continue;
        }
        let outcome = expected(p).and_then(|want| run_once(device, p, &want));
        match outcome {
            Ok(o) => {
                for m in o.first_messages.iter().take(1) {
                    println!("  message: {m}");
                }
                println!(
                    "seed {s}: planned with {} semaphore waits, {} barrier points, {} ownership transfers, {} host waits inserted: {} wrong of {} ({} messages)",
                    plan.waits, plan.barrier_points, plan.ownership_transfers, plan.host_waits, o.wrong, o.bytes, o.messages
                );
                ran += 1;
                bytes += o.bytes;
                wrong += o.wrong;
                messages += o.messages;
                waits += plan.waits;
                host_waits += plan.host_waits;
                failed |= o.wrong > 0;
                if let Some(repeat) = drop_ownership {
                    match expected(p).and_then(|want| run_without_transfer(device, p, &want, repeat)) {
                        Ok(Some(r)) => {
                            println!("seed {s}: {}", r.line);
                            dropped.add(&r);
                        }
                        Ok(None) => {}
                        Err(e) => {
                            println!("FAILED seed {s} without an ownership transfer: {e}");
                            failed = true;
                        }
                    }
                }
            }
            Err(e) => {
                println!("FAILED seed {s}: {e}");
                failed = true;
            }
        }
    }
    println!(
        "planned totals: {ran} programs planned by plan_queues and run, {refused} refused by it, {waits} semaphore waits, {host_waits} host waits inserted: {wrong} wrong bytes of {bytes} ({messages} validation messages) ({:.1} s)",
        start.elapsed().as_secs_f64()
    );
    if drop_ownership.is_some() {
        println!("without an ownership transfer: {dropped}");
    }
    i32::from(failed)
}

/// The two variants of a plan without one buffer's ownership transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Drop {
    /// Release and acquire kept as plain barriers (`ownership` dropped).
    Transfer,
    /// Release and acquire barriers removed.
    Barriers,
}

/// One variant's runs.
#[derive(Default)]
struct VariantRuns {
    /// Model: ownership issues, hazards.
    issues: usize,
    hazards: usize,
    runs: usize,
    runs_wrong: usize,
    bytes: usize,
    wrong: usize,
}

/// Both variants of one case, and its report line.
struct DroppedCase {
    variants: [VariantRuns; 2],
    line: String,
}

/// Totals of both variants over the suite.
#[derive(Default)]
struct DroppedTotals {
    cases: usize,
    variants: [VariantRuns; 2],
}

impl DroppedTotals {
    fn add(&mut self, c: &DroppedCase) {
        self.cases += 1;
        for (t, v) in self.variants.iter_mut().zip(&c.variants) {
            t.issues += usize::from(v.issues > 0);
            t.hazards += usize::from(v.hazards > 0);
            t.runs += v.runs;
            t.runs_wrong += v.runs_wrong;
            t.bytes += v.bytes;
            t.wrong += v.wrong;
        }
    }
}

impl std::fmt::Display for DroppedTotals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} programs", self.cases)?;
        for (name, v) in ["transfer dropped (barriers kept)", "release and acquire removed"]
            .iter()
            .zip(&self.variants)
        {
            write!(
                f,
                "; {name}: model reports an ownership issue in {} and a hazard in {}, {} of {} runs wrong, {} wrong bytes of {}",
                v.issues, v.hazards, v.runs_wrong, v.runs, v.wrong, v.bytes
            )?;
        }
        Ok(())
    }
}

/// `plan` with the ownership transfers of one buffer (the first that has
/// any) dropped as `how` says; `None` when the plan has none.
fn without_transfer(plan: &Program, how: Drop) -> Option<Program> {
    let object = plan.commands().iter().find_map(|c| match c {
        Command::Barrier(d) => d
            .barriers
            .iter()
            .find(|b| b.ownership.is_some())
            .and_then(|b| b.region.map(|r| r.object)),
        _ => None,
    })?;
    let mut p = plan.clone();
    for (i, c) in plan.commands().iter().enumerate() {
        let Command::Barrier(d) = c else { continue };
        let mine = |b: &Barrier| b.ownership.is_some() && b.region.is_some_and(|r| r.object == object);
        if !d.barriers.iter().any(mine) {
            continue;
        }
        let barriers: Vec<Barrier> = match how {
            Drop::Transfer => d
                .barriers
                .iter()
                .map(|b| {
                    if mine(b) {
                        Barrier {
                            ownership: None,
                            ..*b
                        }
                    } else {
                        *b
                    }
                })
                .collect(),
            Drop::Barriers => d.barriers.iter().filter(|b| !mine(b)).copied().collect(),
        };
        // A dependency with no barrier left stays as an empty
        // `vkCmdPipelineBarrier2`'s place: a no-op global barrier.
        let barriers = if barriers.is_empty() {
            vec![Barrier::global(S::NONE, A::NONE, S::NONE, A::NONE)]
        } else {
            barriers
        };
        p.replace(i, Command::Barrier(Dependency { barriers }))
            .expect("the plan's own barriers, with less in them");
    }
    Some(p)
}

/// Runs both variants of `plan` without an ownership transfer `repeat`
/// times each; `None` when the plan has no transfer.
fn run_without_transfer(
    device: &mut Device,
    plan: &Program,
    want: &[vksync::reference::Readback],
    repeat: usize,
) -> Result<Option<DroppedCase>, String> {
    let mut case = DroppedCase {
        variants: Default::default(),
        line: String::new(),
    };
    for (k, how) in [Drop::Transfer, Drop::Barriers].into_iter().enumerate() {
        let Some(p) = without_transfer(plan, how) else {
            return Ok(None);
        };
        let v = &mut case.variants[k];
        v.issues = vksync::check_ownership(&p).map_err(|e| e.to_string())?.len();
        v.hazards = hazards(&p);
        for _ in 0..repeat {
            let o = run_once(device, &p, want)?;
            v.runs += 1;
            v.runs_wrong += usize::from(o.wrong > 0);
            v.bytes += o.bytes;
            v.wrong += o.wrong;
        }
        case.line.push_str(&format!(
            "{}{how:?} dropped: {} ownership issues, {} hazards, {} wrong bytes in {} runs",
            if k == 0 { "" } else { "; " },
            v.issues,
            v.hazards,
            v.wrong,
            v.runs
        ));
    }
    Ok(Some(case))
}
