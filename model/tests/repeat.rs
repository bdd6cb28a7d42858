//! A command buffer submitted again and again (the runtime's prepared
//! programs, the GPU benchmark): with a fence wait between submissions the
//! plan needs nothing more; back to back, the loop-carried dependencies need
//! one barrier at its start (`vksync::plan::for_repeated_submission`).

use vksync::plan::{for_repeated_submission, plan, repeated, PlanOptions, PlannerKind};
use vksync::spec::{races, Reading};
use vksync::{trace, Command};

// The runtime's repeat test program (runtime/tests/repeat.rs).
const PROGRAM: &str = "pool p 1024 align 256
buffer out 256
buffer src 256
alloc x 256 from p
copy src -> x
alloc y 256 from p
dispatch scale_add(3,1) read x write y
free x
alloc z 256 from p
copy y -> z
dispatch scale(5) rw z
copy z -> out
";

fn planned(reading: Reading) -> vksync::Program {
    let p = trace::parse(PROGRAM).unwrap().program;
    plan(&p, PlanOptions::new(PlannerKind::Offline).reading(reading))
        .unwrap()
        .program
}

/// The hazards of a program under `reading`.
fn check_under(p: &vksync::Program, reading: Reading) -> Vec<vksync::Hazard> {
    vksync::check_with(p, vksync::Semantics::for_reading(reading)).unwrap()
}

#[test]
fn a_fence_wait_between_submissions_orders_everything() {
    for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
        let once = repeated(&planned(reading), 1).unwrap();
        let mut waited = once.clone();
        waited.extend([Command::SUBMIT, Command::WAIT]).unwrap();
        waited.extend(once.commands().iter().cloned()).unwrap();
        assert!(check_under(&waited, reading).is_empty(), "{reading:?}");
        assert!(races(&waited, reading).unwrap().is_empty(), "{reading:?}");
    }
}

#[test]
fn back_to_back_submissions_need_the_loop_barrier() {
    // (reading, the loop barrier it needs)
    let cases = [
        // The last copy reads `z`; the next repetition's first copy writes
        // `x`, the same pool bytes: an execution dependency.
        (Reading::MemoryModel, "barrier COPY:NONE -> COPY:NONE"),
        // Also the dispatch's write of those bytes, made available by the
        // plan's last barrier (whose chain reaches `COPY`), must be made
        // visible to the copy's write.
        (
            Reading::VisibleToWrites,
            "barrier COPY:NONE -> COPY:TRANSFER_WRITE",
        ),
    ];
    for (reading, barrier) in cases {
        let p = planned(reading);
        let twice = check_under(&repeated(&p, 2).unwrap(), reading);
        let kinds: Vec<String> = twice.iter().map(|h| h.kind.to_string()).collect();
        assert!(!twice.is_empty(), "the second repetition races the first");
        let looped = for_repeated_submission(&p, reading).unwrap();
        assert_eq!(
            trace::print_command(&looped, &looped.commands()[0]),
            barrier,
            "{reading:?}: hazards without it: {kinds:?}"
        );
        assert!(races(&repeated(&looped, 3).unwrap(), reading).unwrap().is_empty());
    }
}

#[test]
fn host_and_queue_commands_cannot_repeat() {
    let p = trace::parse("buffer a 16\nfill a 1\nhost-read a\n")
        .unwrap()
        .program;
    let e = for_repeated_submission(&p, Reading::VisibleToWrites).unwrap_err();
    assert_eq!(e.at, vksync::Location::Command(1));
    assert_eq!(
        e.kind.to_string(),
        "`host-read` cannot be in a command buffer submitted again and again; it may hold device commands and barriers only"
    );
}
