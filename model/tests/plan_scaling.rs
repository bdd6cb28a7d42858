//! The planners are linear in the length of a program (issue 27): planning
//! a program eight times as long takes about eight times as long, for the
//! shapes that used to be quadratic:
//!
//! * `--schedule` on a program that submits after every command (the level
//!   order scanned the whole program once per segment), and on one long
//!   segment (levels and the dependency bound compared every two commands
//!   of a segment);
//! * `--async-compute` (the assignment built the whole dependency graph:
//!   n²/2 edges, 10 GB for 50,000 fills of one buffer);
//! * several queues with ownership transfers (every batch compared with
//!   every earlier one);
//! * the `Tracker` (the online planner, command by command) on a buffer
//!   written in `n` 16-byte pieces, then read whole `n` times (each read
//!   visited every piece's write, even once one barrier had ordered them
//!   all: 158 us per read at 40,000 pieces in release, 1.3 us now;
//!   `model/examples/tracker_pieces.rs`, issue 25).
//!
//! Each case times a program of `n` and of `8n` commands, the fastest of
//! three runs each, and asserts a ratio well under the quadratic 64 (but
//! far enough above the linear 8 for a loaded machine). The buffer-barrier
//! point that was cubic is counted exactly instead, by a unit test of
//! `plan::points` (`thinning_a_point_is_quadratic_not_cubic`).
//!
//! One test runs the cases one after another, so that their timings do not
//! compete with each other for cores.

use std::time::{Duration, Instant};
use vksync::plan::{
    plan_async_compute, plan_queues, schedule, PlanOptions, PlannerKind, QueuePlanOptions, ScheduleOptions,
};
use vksync::trace::parse;
use vksync::{AccessFlags2, ByteRange, PipelineStageFlags2, Program, TrackedAccess, Tracker};

/// The most `time(8n) / time(n)` may be: linear gives about 8.
const MAX_RATIO: f64 = 20.0;

fn program(text: &str) -> Program {
    parse(text).expect("generated trace parses").program
}

/// `fill a; submit`, `n` times: a segment per command.
fn flood(n: usize) -> Program {
    let mut s = String::from("buffer a 64\n");
    for _ in 0..n {
        s.push_str("fill a[0..64] 1\nsubmit\n");
    }
    program(&s)
}

/// One segment: a chain of dispatches over two buffers, `n` commands,
/// every one depending on the one before.
fn chain(n: usize) -> Program {
    let mut s = String::from("buffer a 256\nbuffer b 256\nfill a 1\n");
    for k in 0..n {
        let (from, to) = if k % 2 == 0 { ("a", "b") } else { ("b", "a") };
        s.push_str(&format!(
            "dispatch scale_add(2,1) read {from}[0..256] write {to}[0..256]\n"
        ));
    }
    s.push_str("submit\n");
    program(&s)
}

/// An exclusive buffer filled on two queues of two families in turn,
/// ordered by a timeline semaphore: an ownership transfer per batch.
fn ownership(n: usize) -> Program {
    let mut s = String::from("queue qa\nqueue qb family 1\nsemaphore t timeline\nbuffer a 256 exclusive\n");
    let mut v = 0;
    for _ in 0..n / 2 {
        s.push_str("fill a[0..256] 1\n");
        v += 1;
        if v > 1 {
            s.push_str(&format!("submit qa wait t:{}@ALL_COMMANDS signal t:{v}\n", v - 1));
        } else {
            s.push_str(&format!("submit qa signal t:{v}\n"));
        }
        s.push_str("fill a[0..256] 2\n");
        v += 1;
        s.push_str(&format!("submit qb wait t:{}@ALL_COMMANDS signal t:{v}\n", v - 1));
    }
    s.push_str("wait\n");
    program(&s)
}

/// A `Tracker` over a buffer written in `n` pieces, then read whole `n`
/// times: the barriers it asked for before the reads (one orders every
/// piece).
fn pieces_then_whole_reads(n: u64) -> usize {
    let mut tracker = Tracker::new();
    let buf = tracker.buffer(16 * n).expect("a valid size");
    for i in 0..n {
        let w = TrackedAccess::range(
            buf,
            ByteRange::new(16 * i, 16 * i + 16),
            PipelineStageFlags2::COPY,
            AccessFlags2::TRANSFER_WRITE,
        );
        assert!(
            tracker.command(&[w]).expect("a valid access").barriers.is_empty(),
            "pieces are disjoint"
        );
    }
    let read = TrackedAccess::range(
        buf,
        ByteRange::new(0, 16 * n),
        PipelineStageFlags2::COMPUTE_SHADER,
        AccessFlags2::SHADER_STORAGE_READ,
    );
    (0..n)
        .filter(|_| {
            !tracker
                .command(&[read])
                .expect("a valid access")
                .barriers
                .is_empty()
        })
        .count()
}

/// The fastest of three runs of `f`.
fn fastest(f: &dyn Fn()) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .expect("three runs")
}

#[test]
fn planning_time_grows_linearly() {
    let offline = PlanOptions::new(PlannerKind::Offline);
    type Case = (&'static str, fn(usize) -> Program, usize, Box<dyn Fn(&Program)>);
    let cases: Vec<Case> = vec![
        (
            "schedule, a submit per command",
            flood,
            2000,
            Box::new(|p| {
                schedule(p, ScheduleOptions::default()).unwrap();
            }),
        ),
        (
            "schedule, one long segment",
            chain,
            500,
            Box::new(|p| {
                schedule(p, ScheduleOptions::default()).unwrap();
            }),
        ),
        (
            "async compute, a submit per command",
            flood,
            2000,
            Box::new(move |p| {
                plan_async_compute(p, QueuePlanOptions::new(offline)).unwrap();
            }),
        ),
        (
            "async compute, one long segment",
            chain,
            1000,
            Box::new(move |p| {
                plan_async_compute(p, QueuePlanOptions::new(offline)).unwrap();
            }),
        ),
        (
            "ownership transfers on two queues",
            ownership,
            2000,
            Box::new(move |p| {
                plan_queues(p, QueuePlanOptions::new(offline)).unwrap();
            }),
        ),
    ];
    let mut report = Vec::new();
    let mut slow = Vec::new();
    for (what, make, n, run) in &cases {
        let (small, large) = (make(*n), make(8 * *n));
        let t1 = fastest(&|| run(&small));
        let t8 = fastest(&|| run(&large));
        let ratio = t8.as_secs_f64() / t1.as_secs_f64().max(1e-6);
        report.push(format!(
            "{what}: {n} commands {t1:?}, {} commands {t8:?}, ratio {ratio:.1}",
            8 * n
        ));
        if ratio >= MAX_RATIO {
            slow.push(*what);
        }
    }
    // The Tracker, in its own unit: pieces and whole reads.
    let what = "Tracker, whole reads of a buffer written in pieces";
    let n = 1_000;
    let t1 = fastest(&|| assert_eq!(pieces_then_whole_reads(n), 1, "at {n} pieces"));
    let t8 = fastest(&|| assert_eq!(pieces_then_whole_reads(8 * n), 1, "at {} pieces", 8 * n));
    let ratio = t8.as_secs_f64() / t1.as_secs_f64().max(1e-6);
    report.push(format!(
        "{what}: {n} pieces {t1:?}, {} pieces {t8:?}, ratio {ratio:.1}",
        8 * n
    ));
    if ratio >= MAX_RATIO {
        slow.push(what);
    }
    eprintln!("{}", report.join("\n"));
    assert!(
        slow.is_empty(),
        "not linear (ratio at least {MAX_RATIO}, linear is about 8): {slow:?}\n{}",
        report.join("\n")
    );
}
