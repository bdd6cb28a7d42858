//! Suite 1: planned programs run on the device give the CPU reference's
//! bytes, byte for byte (bytes the reference leaves undefined are skipped).
//!
//! Random programs (pools with alloc/free recycling, copies, fills,
//! updates, dispatches of every kernel, host writes and reads, submits and
//! waits) are planned by the online and offline planners in both barrier
//! forms and by the conservative planner, and scheduled
//! (`vksync::plan::schedule`, then offline), and run on one device
//! (`VKSYNC_DEVICE`; validation off here, the validation suite checks
//! messages). The reference runs on rayon threads while the device is busy
//! with the previous plan. Cases: `PROPTEST_CASES` (default 64).

use proptest::prelude::*;
use rayon::prelude::*;
use std::cell::{Cell, RefCell};
use vksync::plan::{plan, schedule, PlanOptions, ScheduleOptions};
use vksync::reference;
use vksync_proptests::layer::test_device;
use vksync_proptests::{cases, programs, run_suite, SAFE_PLANS};
use vksync_runtime::ValidationMode;

#[test]
fn planned_programs_match_the_reference() {
    let Some(device) = test_device(ValidationMode::Off) else {
        return;
    };
    let device = RefCell::new(device);
    let (runs, bytes) = (Cell::new(0usize), Cell::new(0usize));
    let n = cases(64);
    run_suite(n, file!(), programs(32), |g| {
        // Plans and reference readbacks, computed in parallel.
        // The safe plans, and the offline plan of the schedule (commands
        // reordered, blob reuse delayed: `vksync::plan::schedule`).
        let mut prepared: Vec<_> = SAFE_PLANS
            .par_iter()
            .map(|&(planner, form)| {
                let p = plan(&g.program, PlanOptions::new(planner).form(form))
                    .expect("valid")
                    .program;
                let expected = reference::run(&p).expect("reference runs");
                (format!("{planner:?}"), format!("{form:?}"), p, expected)
            })
            .collect();
        let scheduled = schedule(&g.program, ScheduleOptions::default())
            .expect("valid")
            .plan
            .program;
        let expected = reference::run(&scheduled).expect("reference runs");
        prepared.push(("Scheduled".to_string(), "Global".to_string(), scheduled, expected));
        for (planner, form, p, expected) in prepared {
            let result = device
                .borrow_mut()
                .run(&p)
                .map_err(|e| TestCaseError::fail(format!("{planner}/{form}: runtime error {e}")))?;
            runs.set(runs.get() + 1);
            for r in &expected {
                let got = result.readback(r.command).unwrap_or(&[]);
                prop_assert_eq!(
                    got.len(),
                    r.bytes.len(),
                    "{}/{}: read at command {} length",
                    planner,
                    form,
                    r.command
                );
                let bad = reference::mismatches(&r.bytes, got);
                bytes.set(bytes.get() + r.bytes.iter().filter(|b| b.is_some()).count());
                prop_assert!(
                    bad.is_empty(),
                    "{}/{}: host read at command {} differs from the reference at byte offsets {:?}\nplanned program:\n{}",
                    planner, form, r.command, bad, vksync::trace::print(&p)
                );
            }
        }
        Ok(())
    });
    eprintln!(
        "device_reference: {n} programs, {} planned runs, {} defined bytes compared, 0 mismatches",
        runs.get(),
        bytes.get()
    );
}
