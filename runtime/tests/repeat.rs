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
        common::assert_only_known_differences(plan, messages, &layer);
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

/// Programs of several batches, prepared: one queue, two queues of one
/// family with a binary semaphore between each pair of batches, two
/// families, events left set at the end, a batch of semaphore operations
/// only, and commands after the last submit. Each is hazard-free in the
/// model and ends with host reads after a `wait`.
const BATCHED: &[(&str, &str)] = &[
    (
        "three batches on one queue",
        "buffer a 1024\nbuffer b 1024\n\
         fill a 3\n\
         barrier CLEAR|COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\n\
         dispatch scale_add(2,1) read a write b\n\
         submit\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ|SHADER_STORAGE_WRITE\n\
         dispatch scale(5) rw b\n\
         submit\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\n\
         submit\n\
         wait\n\
         host-read b\n",
    ),
    (
        "dispatches alternate between two queues, a binary semaphore between each pair",
        "queue q0\nqueue q1\nsemaphore s0\nsemaphore s1\nsemaphore s2\nbuffer x 1024\n\
         fill x 1\n\
         barrier CLEAR|COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ|SHADER_STORAGE_WRITE\n\
         dispatch scale(2) rw x\n\
         submit q0 signal s0@COMPUTE_SHADER\n\
         dispatch scale(3) rw x\n\
         submit q1 wait s0@COMPUTE_SHADER signal s1@COMPUTE_SHADER\n\
         dispatch scale(5) rw x\n\
         submit q0 wait s1@COMPUTE_SHADER signal s2@COMPUTE_SHADER\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\n\
         submit q1 wait s2@COMPUTE_SHADER\n\
         wait\n\
         host-read x\n",
    ),
    (
        "a transfer queue uploads and reads back, a compute queue computes",
        "queue compute\nqueue transfer family 1\nsemaphore uploaded\nsemaphore done\n\
         buffer weights 4096\nbuffer input 4096\nbuffer mid 4096\nbuffer output 4096\n\
         update weights 7\n\
         submit transfer signal uploaded\n\
         fill input 1\n\
         barrier CLEAR|COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\n\
         dispatch add read input read weights write mid\n\
         submit compute wait uploaded@COMPUTE_SHADER signal done\n\
         copy mid -> output\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\n\
         submit transfer wait done@COPY\n\
         wait\n\
         host-read output\n",
    ),
    (
        "an event set in one batch and waited in the next, left set",
        "event ready\nbuffer input 1024\nbuffer act 1024\nbuffer other 1024\nbuffer out 1024\n\
         fill input 4\n\
         barrier CLEAR|COPY:TRANSFER_WRITE -> COMPUTE_SHADER|COPY:SHADER_STORAGE_READ|TRANSFER_READ\n\
         dispatch scale_add(2,1) read input write act\n\
         set-event ready COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ act\n\
         submit\n\
         copy input -> other\n\
         wait-events ready COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ act\n\
         dispatch scale_add(3,0) read act write out\n\
         barrier COMPUTE_SHADER|COPY:SHADER_STORAGE_WRITE|TRANSFER_WRITE -> HOST:HOST_READ\n\
         submit\n\
         wait\n\
         host-read out\n\
         host-read other\n",
    ),
    (
        "a batch of semaphore operations only",
        "queue a\nqueue b\nsemaphore s\nsemaphore t\nbuffer x 1024\n\
         fill x 6\n\
         submit a signal s\n\
         submit b wait s@ALL_COMMANDS signal t\n\
         dispatch scale(7) rw x\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\n\
         submit a wait t@COMPUTE_SHADER\n\
         wait\n\
         host-read x\n",
    ),
    (
        // (The model wants what the host reads submitted before the wait.)
        "commands after the last submit",
        "buffer x 1024\nbuffer y 1024\n\
         fill x 2\n\
         barrier CLEAR|COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ|SHADER_STORAGE_WRITE\n\
         dispatch scale(3) rw x\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\n\
         submit\n\
         fill y 3\n\
         wait\n\
         host-read x\n",
    ),
];

/// Prepares `text` and executes it twice with the start gate on and
/// twice with it off; after each execution the trailing reads must equal
/// the CPU reference's bytes (all defined), every batch with commands must
/// be timed and nothing but known layer differences may be reported.
/// Returns the batches and the timed batches of an execution, and the
/// queue mapping.
fn prepared_matches_reference(
    device: &mut vksync_runtime::Device,
    name: &str,
    text: &str,
) -> ((usize, usize), String) {
    let layer = common::layer(device);
    let program = common::parse(text).program;
    let hazards = vksync::check(&program).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(hazards.is_empty(), "{name}: the model finds {hazards:?}");
    // Programs of several batches are gated where the device has
    // timeline semaphores (see `vksync_runtime::repeat`).
    let timelines = device.info().timeline_semaphores;
    let mut prepared = device
        .prepare(std::slice::from_ref(&program))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let batches = prepared.batches(0).unwrap();
    let gated = batches > 1 && timelines;
    assert_eq!(prepared.gated(0), Some(gated), "{name}");
    let mut counts = Vec::new();
    for gate in [true, true, false, false] {
        prepared.set_gate(gate);
        let e = prepared
            .execute(0, 10_000_000_000)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(e.batches, batches, "{name}");
        assert!(e.gpu_ns.is_some(), "{name}");
        counts.push((e.batches, e.timed_batches));
        let reads = prepared.readbacks(0).unwrap();
        let cmp = vksync_runtime::compare_readbacks(&program, &reads).unwrap();
        assert!(!cmp.is_empty(), "{name}: the program has host reads");
        for c in cmp {
            assert_eq!(c.undefined, 0, "{name}: read at command {}", c.command);
            assert!(
                c.mismatches.is_empty(),
                "{name} (gate {gate}): read at command {} mismatches at {} bytes",
                c.command,
                c.mismatches.len()
            );
        }
    }
    let messages = prepared.take_messages();
    common::assert_only_known_differences(&program, &messages[0], &layer);
    counts.dedup();
    assert_eq!(counts.len(), 1, "{name}: {counts:?}");
    (counts[0], prepared.queue_mapping(0).unwrap().to_string())
}

#[test]
fn prepared_batches_and_queues_match_the_reference_on_every_execution() {
    let Some(mut device) = common::device() else {
        return;
    };
    // (batches, timed batches): a batch of semaphore operations only has
    // no command buffer to time.
    let expected = [(3, 3), (4, 4), (3, 3), (2, 2), (3, 2), (2, 2)];
    for ((name, text), want) in BATCHED.iter().zip(expected) {
        let (counts, mapping) = prepared_matches_reference(&mut device, name, text);
        assert_eq!(counts, want, "{name}");
        eprintln!("{name}: {counts:?} batches (timed); {mapping}");
    }
}

/// What a prepared program may not hold: each refusal is typed, names its
/// command (or semaphore) and comes before any Vulkan work.
#[test]
fn prepared_programs_refuse_what_cannot_be_repeated() {
    let Some(mut device) = common::device() else {
        return;
    };
    let cases: &[(&str, &str, Option<vksync::Location>, &str)] = &[
        (
            "a host write",
            "buffer x 64\nhost-write x 1\nfill x 2\n",
            Some(vksync::Location::Command(0)),
            "command 0 (`host-write`) cannot be recorded once",
        ),
        (
            "a wait between batches",
            "buffer x 64\nfill x 1\nsubmit\nwait\nfill x 2\nsubmit\n",
            Some(vksync::Location::Command(2)),
            "command 2 (`wait`) cannot be recorded once and submitted repeatedly: `wait` and `host-read` may only end",
        ),
        (
            "a host read before device work",
            "buffer x 64\nfill x 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ\nhost-read x\nfill x 2\n",
            Some(vksync::Location::Command(2)),
            "command 2 (`host-read`)",
        ),
        (
            "a host event operation",
            "event e\nbuffer x 64\nhost-set-event e\nwait-events e HOST:HOST_WRITE -> CLEAR:TRANSFER_WRITE\nfill x 1\n",
            Some(vksync::Location::Command(0)),
            "command 0 (`host-set-event`)",
        ),
        (
            "a timeline semaphore",
            "queue a\nsemaphore t timeline\nbuffer x 64\nfill x 1\nsubmit a signal t:1\n",
            Some(vksync::Location::Semaphore(vksync::SemaphoreId(0))),
            "semaphore `t` is a timeline semaphore",
        ),
        (
            "a binary semaphore signalled and never waited for",
            "queue a\nqueue b\nsemaphore s\nbuffer x 64\nfill x 1\nsubmit a signal s\nfill x 2\nsubmit b\n",
            Some(vksync::Location::Command(1)),
            "binary semaphore `s` is still signalled at the end of the program (signalled at command 1",
        ),
        (
            "an ownership transfer",
            "buffer a 64 exclusive\nqueue c\nbarrier COPY:TRANSFER_WRITE -> NONE:NONE a ownership 0->1\n",
            Some(vksync::Location::Command(0)),
            "ownership transfer",
        ),
    ];
    for (name, text, at, want) in cases {
        let p = common::parse(text).program;
        let e = device
            .prepare(std::slice::from_ref(&p))
            .err()
            .unwrap_or_else(|| panic!("{name}: prepared"));
        assert!(e.to_string().contains(want), "{name}: {e}");
        assert_eq!(e.location(), *at, "{name}: {e}");
    }
}
