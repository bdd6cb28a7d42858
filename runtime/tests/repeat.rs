//! The benchmarking paths: prepared programs submitted repeatedly, and
//! record-only timing.

mod common;

use std::time::Duration;
use vksync::plan::{plan, PlanOptions, PlannerKind};
use vksync_runtime::RuntimeError;

// No fill: the 1.3.239 layer models fills as COPY (a known difference).
const PROGRAM: &str = "pool p 1024 align 256\nbuffer out 256\nbuffer src 256\n\
    alloc x 256 from p\ncopy src -> x\nalloc y 256 from p\n\
    dispatch scale_add(3,1) read x write y\nfree x\nalloc z 256 from p\n\
    copy y -> z\ndispatch scale(5) rw z\ncopy z -> out\n";

#[test]
fn prepared_plans_share_memory_and_run_clean_repeatedly() {
    let Some(mut device) = common::device() else {
        return;
    };
    let layer = common::layer(&device);
    let raw = common::parse(PROGRAM).program;
    let plans: Vec<_> = [PlannerKind::Conservative, PlannerKind::Offline]
        .into_iter()
        .map(|k| plan(&raw, PlanOptions::new(k)).unwrap().program)
        .collect();
    let mut prepared = device.prepare(&plans).unwrap();
    assert_eq!(prepared.len(), 2);
    assert_eq!(prepared.memory().len(), 3, "one pool and two buffers, shared");
    for _ in 0..3 {
        for i in 0..2 {
            let e = prepared.execute(i, 10_000_000_000).unwrap();
            assert!(e.wall_ns > 0);
        }
    }
    assert!(matches!(
        prepared.execute(2, 1),
        Err(RuntimeError::NoSuchProgram { index: 2, count: 2 })
    ));
    let messages = prepared.take_messages();
    assert_eq!(messages.len(), plans.len());
    for (plan, messages) in plans.iter().zip(&messages) {
        common::assert_only_known_differences(plan, messages, layer);
    }
}

#[test]
fn record_only_timing_and_rejections() {
    let Some(mut device) = common::device() else {
        return;
    };
    let raw = common::parse(PROGRAM).program;
    let planned = plan(&raw, PlanOptions::new(PlannerKind::Offline))
        .unwrap()
        .program;
    let t = device.time_recording(&planned, 3).unwrap();
    assert_eq!(t.rep_ns.len(), 3);
    assert_eq!(
        t.recorded,
        planned
            .commands()
            .iter()
            .filter(|c| vksync::is_device_command(c) || matches!(c, vksync::Command::Barrier(_)))
            .count()
    );
    let with_host = common::parse(&format!("{PROGRAM}host-read out\n")).program;
    assert!(matches!(
        device.time_recording(&with_host, 1),
        Err(RuntimeError::NotRepeatable {
            keyword: "host-read",
            ..
        })
    ));
    let other = common::parse("buffer out 512\nfill out[0..512] 1\n").program;
    assert!(matches!(
        device.prepare(&[raw.clone(), other]),
        Err(RuntimeError::LayoutMismatch { program: 1 })
    ));
}

#[test]
fn a_timed_out_execution_is_waited_for_before_the_next_submission() {
    let Some(mut device) = common::device() else {
        return;
    };
    // Far over 1 ms and well under a second: on a CPU device (lavapipe)
    // the time grows with the 8,192 elements, and 65,535 iterations give
    // about 0.14 s (more would be a runaway on Mesa 25's lavapipe, which,
    // unlike Mesa 22's, does not stop loops at 65,535); on a GPU the
    // elements run in parallel and 10^8 iterations give a few tenths.
    let iters = if device.info().device_type == "CPU" {
        65_535
    } else {
        100_000_000
    };
    let slow = common::parse(&format!(
        "buffer a 32768\nbuffer b 32768\ndispatch slow({iters}) read a write b\n"
    ))
    .program;
    let mut prepared = device.prepare(&[slow]).unwrap();
    let ms = 1_000_000;
    // (timeout of the call, what it gives): the first times out and stays
    // pending; the second finds it still running and submits nothing; the
    // third waits for it, then runs again to completion.
    let cases: [(u64, &str); 3] = [(ms, "timeout"), (ms, "still running"), (60_000 * ms, "ok")];
    for (timeout_ns, expected) in cases {
        let got = match prepared.execute(0, timeout_ns) {
            Err(RuntimeError::ExecutionTimeout { program: 0, timeout }) => {
                assert_eq!(timeout, Duration::from_millis(1));
                "timeout"
            }
            Err(RuntimeError::StillRunning { what, .. }) => {
                assert!(what.contains("prepared program 0"), "{what}");
                "still running"
            }
            Ok(_) => "ok",
            Err(e) => panic!("{e}"),
        };
        assert_eq!(got, expected);
    }
}

#[test]
fn run_span_covers_every_submission_on_two_queues() {
    let Some(mut device) = common::device() else {
        return;
    };
    // Two queues of one family and a semaphore between them.
    let text = "queue a family 0\nqueue b family 0\nsemaphore s\nbuffer x 256\n\
        dispatch scale(2) rw x\nsubmit a signal s@COMPUTE_SHADER\n\
        dispatch scale(3) rw x\nsubmit b wait s@COMPUTE_SHADER\n\
        barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ|SHADER_STORAGE_WRITE\n\
        dispatch scale(5) rw x\nsubmit b\nwait\n";
    let program = common::parse(text).program;
    let hazards = vksync::check(&program).unwrap();
    assert!(hazards.is_empty(), "{hazards:?}");
    let result = device.run(&program).unwrap();
    assert_eq!(result.submissions.len(), 3);
    if result.submissions.iter().any(|s| s.gpu_ns.is_none()) {
        // No timestamps on this device: no span either.
        assert!(result.submissions.iter().all(|s| s.start_ns.is_none()));
        return;
    }
    let span = result.gpu_span_ns().unwrap();
    for s in &result.submissions {
        let (start, end) = (s.start_ns.unwrap(), s.end_ns.unwrap());
        assert!(end >= start);
        assert_eq!(end - start, s.gpu_ns.unwrap());
        assert!(span >= s.gpu_ns.unwrap());
    }
    // The semaphore orders b's first batch after a's.
    let (a, b) = (&result.submissions[0], &result.submissions[1]);
    assert!(b.end_ns.unwrap() >= a.start_ns.unwrap());
}
