//! Prints the planner comparison table of `docs/planning.md`: barrier
//! points and stage/access bits for every planner over a fixed corpus of
//! random programs (the property suites' generator, fixed seed), plus how
//! many of the planned programs the checker still finds hazards in.
//!
//! `cargo run --release -p vksync-proptests --example planner_table -- [PROGRAMS] [MAX_OPS] [memory-model]`
//!
//! The planners plan under the reading of write-after-write given
//! (`visible-to-writes` by default, as `vksync plan`); the hazards left are
//! counted by `vksync check` (the memory model) either way.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use rayon::prelude::*;
use vksync::plan::{plan, stabbing_bound, BarrierForm, PlanOptions, PlannerKind};
use vksync_proptests::programs;

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let count = args.first().copied().unwrap_or(1000);
    let max_ops = args.get(1).copied().unwrap_or(60);
    let reading = if std::env::args().any(|a| a == "memory-model") {
        vksync::Reading::MemoryModel
    } else {
        vksync::Reading::VisibleToWrites
    };
    let seed = [7u8; 32];
    let mut runner =
        TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
    let strategy = programs(max_ops);
    let corpus: Vec<_> = (0..count)
        .map(|_| {
            strategy
                .new_tree(&mut runner)
                .expect("generator never rejects")
                .current()
                .program
        })
        .collect();
    let commands: usize = corpus.iter().map(|p| p.commands().len()).sum();
    println!(
        "corpus: {count} programs, {commands} commands (seed 7, up to {max_ops} operations each); planned under {reading:?}\n"
    );
    let bound: usize = corpus
        .par_iter()
        .map(|p| stabbing_bound(p, reading).expect("valid"))
        .sum();
    println!(
        "| planner | form | barrier points | stage/access bits | programs with hazards left | hazards left |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    for planner in PlannerKind::ALL {
        for form in [BarrierForm::Global, BarrierForm::Buffer] {
            if matches!(
                planner,
                PlannerKind::None | PlannerKind::Conservative | PlannerKind::PerObject
            ) && form == BarrierForm::Buffer
            {
                continue;
            }
            let rows: Vec<(usize, u64, usize)> = corpus
                .par_iter()
                .map(|p| {
                    let planned = plan(p, PlanOptions::new(planner).form(form).reading(reading))
                        .expect("valid")
                        .program;
                    let hazards = vksync::check(&planned).expect("valid").len();
                    (planned.barrier_points(), planned.barrier_bits(), hazards)
                })
                .collect();
            let points: usize = rows.iter().map(|r| r.0).sum();
            let bits: u64 = rows.iter().map(|r| r.1).sum();
            let dirty = rows.iter().filter(|r| r.2 > 0).count();
            let left: usize = rows.iter().map(|r| r.2).sum();
            let form_name = match (planner, form) {
                (PlannerKind::PerObject, _) => "buffer",
                (_, BarrierForm::Global) => "global",
                (_, BarrierForm::Buffer) => "buffer",
            };
            println!(
                "| {} | {form_name} | {points} | {bits} | {dirty} | {left} |",
                planner.name()
            );
        }
    }
    println!("\nstabbing lower bound (sum over the corpus): {bound} barrier points");
}
