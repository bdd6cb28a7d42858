//! The parallel checker (`vksync::check_parallel`, feature `parallel`:
//! the single-queue checker sharded by memory object) against the
//! sequential one: the same hazards and the same report groups, item for
//! item and in order, on random programs (synchronization-rich ones with
//! pools, aliases, host accesses, submits, waits and events of both
//! generations; exact images with layout transitions) for 2, 3 and 4
//! shards, and on every example trace. Cases: `PROPTEST_CASES` (default
//! 256).

use proptest::prelude::*;
use vksync::spec::Reading;
use vksync::{check_parallel, check_report, check_report_parallel, check_with, Program, Semantics};
use vksync_proptests::sync::{build_sync, event1_ops, sync_ops};

/// The one comparison: hazards and groups equal for every job count and
/// both readings; `what` names the program in a failure.
fn same(p: &Program, what: &str) -> Result<(), TestCaseError> {
    for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
        let sem = Semantics::for_reading(reading);
        let (seq, groups) = match (check_with(p, sem), check_report(p, sem)) {
            (Ok(h), Ok(g)) => (h, g),
            (Err(e), _) | (_, Err(e)) => {
                // Refused alike (the parallel entry points refuse what
                // the sequential ones do).
                prop_assert_eq!(
                    check_parallel(p, sem, 2).map_err(|e| e.to_string()),
                    Err(e.to_string())
                );
                continue;
            }
        };
        for jobs in [2, 3, 4] {
            let par =
                check_parallel(p, sem, jobs).map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
            prop_assert!(
                par == seq,
                "{what} ({reading:?}, {jobs} jobs): hazards differ\nsequential: {seq:#?}\nparallel: {par:#?}"
            );
            let pg = check_report_parallel(p, sem, jobs)
                .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
            prop_assert!(pg == groups, "{what} ({reading:?}, {jobs} jobs): groups differ");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(vksync_proptests::config(256))]

    #[test]
    fn parallel_equals_sequential_on_sync_programs(ops in sync_ops(40)) {
        let p = build_sync(&ops);
        same(&p, &vksync::trace::print(&p))?;
    }

    #[test]
    fn parallel_equals_sequential_with_events(ops in event1_ops(40)) {
        let p = build_sync(&ops);
        same(&p, &vksync::trace::print(&p))?;
    }

    #[test]
    fn parallel_equals_sequential_with_images(
        seq in proptest::collection::vec(0..vksync_proptests::exhaustive::IMAGE_ALPHABET.len(), 1..32)
    ) {
        use vksync_proptests::exhaustive::{text_of, IMAGE_ALPHABET, IMAGE_HEADER};
        let src = text_of(IMAGE_ALPHABET, IMAGE_HEADER, &seq);
        let p = vksync::trace::parse(&src).unwrap().program;
        same(&p, &src)?;
    }
}

/// Not vacuous: most random programs have hazards on two memory objects
/// or more (so two shards both find some), and some on one command.
#[test]
fn random_programs_spread_hazards_over_shards() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = sync_ops(40);
    let (mut spread, mut one_command) = (0, 0);
    for _ in 0..500 {
        let p = build_sync(&strategy.new_tree(&mut runner).expect("a program").current());
        let h = check_with(&p, Semantics::default()).expect("a valid program");
        let mems: std::collections::BTreeSet<u32> = h.iter().map(|h| h.memory.mem.0).collect();
        spread += usize::from(mems.len() > 1);
        one_command += usize::from(
            h.windows(2)
                .any(|w| w[0].command == w[1].command && w[0].memory.mem != w[1].memory.mem),
        );
    }
    eprintln!("of 500 programs: {spread} with hazards on several memory objects, {one_command} with one command's hazards on two");
    assert!(spread > 200 && one_command > 20, "{spread} {one_command}");
}

/// Every example trace: the same output on 1 to 4 shards.
#[test]
fn parallel_equals_sequential_on_the_examples() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("the examples directory") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "trace") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a readable example");
        let Ok(t) = vksync::trace::parse(&text) else {
            continue;
        };
        same(&t.program, &path.display().to_string()).unwrap_or_else(|e| panic!("{e}"));
        n += 1;
    }
    assert!(n > 30, "{n} examples");
}
