//! Programs without barriers, planned by the model's safe planners and run
//! through `run_planned`: the reference's bytes, and no validation message
//! that a known layer difference does not explain.

mod common;

use vksync::plan::{BarrierForm, PlanOptions, PlannerKind};

const PROGRAM: &str = "pool arena 8192\nbuffer input 1024\nbuffer output 1024\n\
    host-write input 3\nalloc t1 1024 from arena\n\
    dispatch scale_add(3,1) read input write t1\ndispatch slow(4) read t1 write output\nfree t1\n\
    alloc t2 1024 from arena\ncopy output -> t2\ndispatch scale(5) rw t2\n\
    submit\nwait\nhost-read output\nhost-read t2\n";

#[test]
fn planned_programs_run_clean() {
    let Some(mut device) = common::device() else {
        return;
    };
    let program = common::parse(PROGRAM).program;
    for planner in [
        PlannerKind::Conservative,
        PlannerKind::Online,
        PlannerKind::Offline,
    ] {
        for form in [BarrierForm::Global, BarrierForm::Buffer] {
            let (plan, result) =
                vksync_runtime::run_planned(&mut device, &program, PlanOptions::new(planner).form(form))
                    .unwrap_or_else(|e| panic!("{planner:?}/{form:?}: {e}"));
            eprintln!(
                "{planner:?}/{form:?}: {} barrier points",
                plan.program.barrier_points()
            );
            // Messages are allowed only where a known layer difference
            // predicts them (the 1.3.239 layer limits a buffer barrier's
            // execution dependency to its range, D5, and wants a
            // write-after-write made visible, D2).
            common::assert_matches_reference(&plan.program, &result, &common::layer(&device));
        }
    }
}
