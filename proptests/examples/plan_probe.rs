//! Prints the plan_queues plan of a generated queue program, with the fast
//! checker's and the definitional semantics' verdicts (a debugging aid for
//! `queue_races --planned`).
//!
//!     cargo run --release -p vksync-proptests --example plan_probe -- SEED [BYTES SLOW BATCHES]
use vksync::plan::{plan_queues, PlanOptions, PlannerKind, QueuePlanOptions};
use vksync_proptests::queues::{generate, QueueOptions};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers"))
        .collect();
    let mut opts = QueueOptions {
        events: 0,
        ..QueueOptions::default()
    };
    if args.len() >= 4 {
        opts.buffer_bytes = args[1];
        opts.slow_iters = args[2] as u32;
        opts.batches = args[3] as usize;
    }
    let program = generate(args[0], &opts).program(None);
    let plan = plan_queues(
        &program,
        QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline)),
    )
    .expect("planned");
    let p = &plan.plan.program;
    println!("{}", vksync::trace::print(p));
    for h in vksync::check(p).expect("valid") {
        println!("# fast: {}", h.describe(p));
    }
    for r in vksync::spec::races(p, vksync::Reading::MemoryModel).expect("valid") {
        println!("# spec: {:?} at {} after {}", r.kind, r.command, r.prior_command);
    }
    println!("# ownership: {:?}", vksync::check_ownership(p).expect("valid"));
}
