//! The multi-queue planner (`model/src/plan/queues.rs`) on a timeline chain
//! through N queues (`queues-N` of `scripts/issue27-audit.sh`): each queue
//! fills its own buffer and copies it into a shared one, waiting for the
//! queue before. Each batch conflicts with every earlier queue (the shared
//! buffer), and its edge choice used to compare dense clocks of one entry
//! per queue, per candidate queue: `vksync plan` took 0.22 / 0.79 / 4.83 s
//! user at 250 / 500 / 1,000 queues (release), between quadratic and
//! cubic. With persistent clocks, parts that declare only the objects they
//! use and a greedy edge choice that stops counting early, the time at
//! four times the queues must stay well under the quadratic 16 (4.5
//! measured, test profile, loaded machine: 0.36 s and 1.62 s; the needs of
//! a batch are still listed, a quadratic term with a small constant;
//! `docs/testing.md`, "Multi-queue planner: N queues, parts").
//!
//! The plan itself is asserted too: one semaphore wait per batch after the
//! first (from the queue before, which covers every earlier one).

mod common;
use std::time::{Duration, Instant};
use vksync::plan::{plan_queues, PlanOptions, PlannerKind, QueuePlanOptions};

/// The most `time(4n) / time(n)` may be: linear gives about 4, quadratic
/// 16, cubic 64 (the planner before the first bound was worse than that).
const MAX_RATIO: f64 = 10.0;

fn queues(n: usize) -> vksync::Program {
    vksync::trace::parse(&common::queue_chain(n))
        .expect("generated trace parses")
        .program
}

/// The fastest of up to three plans of `n` queues (no more once one is
/// under `enough`).
fn fastest(n: usize, enough: Duration) -> Duration {
    let program = queues(n);
    let opts = QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline));
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        let plan = plan_queues(&program, opts).expect("the chain plans");
        best = best.min(start.elapsed());
        assert_eq!(
            plan.waits,
            n - 1,
            "{n} queues: one wait per batch after the first"
        );
        if best < enough {
            break;
        }
    }
    best
}

#[test]
fn planning_n_queues_is_not_cubic() {
    let n = 200;
    let small = fastest(n, Duration::ZERO);
    let large = fastest(4 * n, small.mul_f64(MAX_RATIO / 2.0));
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-4);
    eprintln!(
        "{n} queues {small:?}, {} queues {large:?}, ratio {ratio:.1}",
        4 * n
    );
    assert!(
        ratio < MAX_RATIO,
        "four times the queues took {ratio:.1} times as long ({small:?}, {large:?})"
    );
}
