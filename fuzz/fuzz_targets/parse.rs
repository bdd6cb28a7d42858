//! Fuzz target for the trace parser (`vksync::trace`).
//!
//! Properties: `parse` never panics on any input, and a trace that parses
//! prints to text that parses back to the same program (so `vksync plan`
//! output, which is printed, always reads back as what was planned). A
//! parsed program is also resolved and checked, since the CLI does that to
//! every trace it reads and neither may panic on any parsed input, and a
//! valid one is planned offline: the plan must check clean (a program with
//! several queues, semaphores or events is refused instead, and only such
//! a program).
#![no_main]

use libfuzzer_sys::fuzz_target;
use vksync::trace::{parse, print};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(trace) = parse(text) else {
        return;
    };
    let printed = print(&trace.program);
    let again = parse(&printed).unwrap_or_else(|e| panic!("printed trace does not parse: {e}\n{printed}"));
    assert_eq!(again.program, trace.program, "round trip changed the program:\n{printed}");
    if vksync::resolve(&trace.program).is_ok() {
        let _ = vksync::check(&trace.program);
        // Planning a valid program fails only on what the single-queue
        // planners refuse (several queues, semaphores, events), and its
        // plan (layout transitions kept in place) checks clean.
        let opts = vksync::plan::PlanOptions::new(vksync::plan::PlannerKind::Offline);
        let planned = match vksync::plan::plan(&trace.program, opts) {
            Ok(planned) => planned,
            Err(e) => {
                assert!(
                    trace.program.require_single_queue().is_err(),
                    "a valid single-queue program plans: {e}"
                );
                return;
            }
        };
        let hazards = vksync::check(&planned.program).expect("a plan is valid");
        assert!(hazards.is_empty(), "offline plan has hazards:\n{}", print(&planned.program));
    }
});
