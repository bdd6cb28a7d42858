//! The multi-queue checker (`model/src/sync/queues.rs`, with the timeline
//! candidates of `model/src/sync/candidates.rs`) is linear in the program
//! on the programs of issue 27: ten times the lines take about ten times
//! as long, not a hundred. Before, a queue ping-pong with ownership
//! transfers took 0.05 s at 2,000 lines and 2.1 s at 20,000 (`vksync
//! check`, release: a ratio of 42), a frame loop with host waits and a
//! timeline chain with narrow wait masks were refused (several candidate
//! signals per wait), and a write read across a long chain kept every
//! signal it reached in a list searched at each wait.
//!
//! One test runs the cases one after another, so that their timings do not
//! compete with each other for cores. The programs are generated here (the
//! shapes of `/tmp/scale/gen.py` in `docs/testing.md`, "Multi-queue
//! checker scaling (issue 27)").

mod common;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// How many times as long ten times the lines may take. Linear: about 10
/// (from 6 to 20 measured on a quiet machine, 30.7 once beside a build; a
/// small program fits in the caches). Quadratic: about 100 (42 for
/// `ownership` at these sizes before, with its constant part).
const BOUND: u32 = 40;

/// The bound of the `queues` case, which is **not** linear yet: deciding
/// the timeline candidates (`model/src/sync/candidates.rs`) keeps, per class
/// of device wait (a queue and a second scope), a threshold per signal
/// group (a queue and a first scope), so N queues cost N^2 there (82x for
/// 10x measured in the test profile, 2026-12-03; `vksync check` in release
/// 0.22 s user at 2,000 queues and 0.46 s at 4,000, where parsing
/// dominates). The walk itself was cubic before (1,000x): this bound
/// catches that, and should become `BOUND` once the candidates are
/// linear in the queues.
const QUEUES_BOUND: u32 = 200;

/// The bound of the `wide-timeline` case: a timeline through N queues
/// keeps about 8 KB of state per queue (the candidates' classes and
/// groups, above), so its small size fits the caches and its large one
/// does not: 46x for 10x once under a whole-workspace test run on 2 cores
/// (2026-12-07), 32x in the test profile alone; in release `vksync check`
/// takes 0.15 / 2.13 / 8.50 s at 5,000 / 50,000 / 200,000 lines (linear
/// from there). Quadratic would be about 100.
const WIDE_TIMELINE_BOUND: u32 = 60;

/// Queues `qa`, `qb` (family 1), timeline `t`, an exclusive buffer passed
/// between them with ownership transfers, each batch waiting for the one
/// before with `wait` (a stage mask).
fn ownership(lines: usize, wait: &str) -> String {
    let mut t = String::from("queue qa\nqueue qb family 1\nsemaphore t timeline\nbuffer a 256 exclusive\n");
    let (mut v, mut n) = (0, 4);
    while n < lines {
        n += 8;
        t.push_str("fill a[0..256] 1\nbarrier CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..256] ownership 0->1\n");
        v += 1;
        if v > 1 {
            let _ = writeln!(t, "submit qa wait t:{}@{wait} signal t:{v}", v - 1);
        } else {
            let _ = writeln!(t, "submit qa signal t:{v}");
        }
        t.push_str("barrier NONE:NONE -> CLEAR:TRANSFER_WRITE a[0..256] ownership 0->1\nfill a[0..256] 2\n");
        t.push_str("barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..256] ownership 1->0\n");
        v += 1;
        let _ = writeln!(t, "submit qb wait t:{}@{wait} signal t:{v}", v - 1);
        t.push_str("barrier NONE:NONE -> CLEAR:TRANSFER_WRITE a[0..256] ownership 1->0\n");
    }
    t.push_str("submit qa\nwait\n");
    t
}

/// Two queues chained by a timeline semaphore with narrow wait masks.
fn timeline(lines: usize) -> String {
    let mut t = String::from("queue qa\nqueue qb\nsemaphore t timeline\nbuffer a 64\nbuffer b 64\n");
    let (mut v, mut n) = (0, 5);
    while n < lines {
        n += 4;
        t.push_str("fill a[0..64] 1\n");
        v += 1;
        if v > 1 {
            let _ = writeln!(t, "submit qa wait t:{}@CLEAR signal t:{v}", v - 1);
        } else {
            let _ = writeln!(t, "submit qa signal t:{v}");
        }
        t.push_str("copy a[0..64] -> b[0..64]\n");
        v += 1;
        let _ = writeln!(t, "submit qb wait t:{}@COPY signal t:{v}", v - 1);
    }
    let _ = writeln!(t, "host-wait t {v}");
    t
}

/// One queue, a frame loop: host write, device work, a timeline signal per
/// frame and a host wait for it, then a host read.
fn frames(lines: usize) -> String {
    let mut t = String::from(
        "queue qa\nsemaphore t timeline\nbuffer st 256\nbuffer w 256\nbuffer o 256\nbuffer rb 256\n",
    );
    let (mut v, mut n) = (0, 6);
    while n < lines {
        n += 10;
        t.push_str(
            "host-write st[0..256] 3\ncopy st[0..256] -> w[0..256]\n\
             barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\n\
             dispatch scale_add(2,1) read w[0..256] write o[0..256]\n\
             barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COPY:TRANSFER_READ\n\
             copy o[0..256] -> rb[0..256]\nbarrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\n",
        );
        v += 1;
        let _ = writeln!(t, "submit qa signal t:{v}\nhost-wait t {v}\nhost-read rb[0..256]");
    }
    t
}

/// A write made once and read by every batch of a long chain (its record
/// lives to the end and reaches every signal).
fn long_lived(lines: usize) -> String {
    let mut t = String::from(
        "queue qa\nqueue qb\nsemaphore t timeline\nbuffer a 64\nbuffer b 64\nbuffer c 64\n\
         fill a[0..64] 1\nsubmit qa signal t:1\n",
    );
    let (mut v, mut n) = (1, 8);
    while n < lines {
        n += 4;
        v += 1;
        let _ = writeln!(
            t,
            "copy a[0..64] -> b[0..64]\nsubmit qb wait t:{}@ALL_COMMANDS signal t:{v}",
            v - 1
        );
        v += 1;
        let _ = writeln!(
            t,
            "copy a[0..64] -> c[0..64]\nsubmit qa wait t:{}@ALL_COMMANDS signal t:{v}",
            v - 1
        );
    }
    let _ = writeln!(t, "host-wait t {v}");
    t
}

/// A timeline chain through one queue per batch (`queues-N` of
/// `scripts/issue27-audit.sh`): each queue fills its own buffer and copies
/// it into a shared one, waiting for the queue before. The records of each
/// queue's own buffer live to the end and reach every later queue: with a
/// frontier entry per queue of the program, every record applied at every
/// operation and completion clocks copied per batch, 250 / 500 / 1,000
/// queues took 0.46 / 2.84 / 16.7 s (`vksync check`, release), cubic.
fn queues(lines: usize) -> String {
    common::queue_chain(lines / 6)
}

/// Two queues chained by a timeline semaphore over 64 live 64-byte ranges
/// of two buffers (`ranges-256` of `scripts/issue27-audit.sh`, smaller):
/// fills and copies at pseudo-random ranges, a global barrier after each.
/// Every barrier visited every live record; now each record catches up
/// when it is next read, which costs the operations since then.
fn ranges(lines: usize) -> String {
    let mut t = String::from("queue qa\nqueue qb\nsemaphore t timeline\nbuffer a 4096\nbuffer b 4096\n");
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % 64
    };
    let (mut v, mut n) = (0, 5);
    while n < lines {
        n += 17;
        for _ in 0..8 {
            let (k, j) = (64 * next(), 64 * next());
            if next() < 32 {
                let _ = writeln!(t, "fill a[{k}..{}] 1", k + 64);
            } else {
                let _ = writeln!(t, "copy a[{k}..{}] -> b[{j}..{}]", k + 64, j + 64);
            }
            t.push_str("barrier COPY|CLEAR:TRANSFER_WRITE -> COPY|CLEAR:TRANSFER_READ|TRANSFER_WRITE\n");
        }
        let q = ["qa", "qb"][v % 2];
        if v > 0 {
            let _ = writeln!(t, "submit {q} wait t:{v}@ALL_COMMANDS signal t:{}", v + 1);
        } else {
            let _ = writeln!(t, "submit {q} signal t:1");
        }
        v += 1;
    }
    let _ = writeln!(t, "host-wait t {v}");
    t
}

/// A timeline that N queues signal once each, each after the one before
/// (a signal must execute after the previous value's:
/// VUID-VkSubmitInfo2-semaphore-03882; the order comes through a binary
/// semaphore per queue pair, so that the N queues add no timeline wait),
/// then a frame loop on the first: each frame signals the next value and
/// the host waits for the one before (review34). Every host wait has a
/// later candidate and one dominates; the candidate search visited every
/// queue's list per wait, and 20,000 queues took 26 s (`vksync check`,
/// release) where the dominance rule before took 0.19 s; now the lists
/// without a value that large are not visited.
fn wide_timeline(lines: usize) -> String {
    let n = (lines / 4).max(2);
    let mut t = String::from(
        "semaphore t timeline
buffer a 64
",
    );
    for i in 0..n {
        let _ = writeln!(t, "queue q{i}\nsemaphore b{i}");
    }
    let _ = writeln!(t, "submit q0 signal b1 signal t:1");
    for i in 2..=n {
        let _ = writeln!(
            t,
            "submit q{} wait b{}@ALL_COMMANDS signal b{} signal t:{i}",
            i - 1,
            i - 1,
            i % n
        );
    }
    let _ = writeln!(t, "submit q0 wait b0@ALL_COMMANDS signal t:{}", n + 1);
    for j in 2..=n {
        let _ = writeln!(t, "submit q0 signal t:{}\nhost-wait t {}", n + j, n + j - 1);
    }
    t
}

/// One queue, one event set, waited and reset around each copy, all in
/// one batch submitted at the end: `resolve` (which both checkers run)
/// looked up each wait's set in a list of every submitted set, from the
/// end, so waits far from the end of a long batch were quadratic (1M
/// lines: 35 s, now 2.4 s, release). At the sizes here the old code
/// measured a ratio of 36.9 in the test profile, under the bound: this
/// case keeps the walk linear from here on, it did not catch the defect.
fn events(lines: usize) -> String {
    let mut t = String::from("event e\nbuffer a 64\nbuffer b 64\n");
    let mut n = 3;
    while n < lines {
        n += 6;
        t.push_str(
            "fill a[0..64] 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\n\
             wait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\n\
             reset-event e COPY\nbarrier COPY:TRANSFER_READ|TRANSFER_WRITE -> ALL_TRANSFER:TRANSFER_WRITE\n",
        );
    }
    t.push_str("submit\n");
    t
}

/// One queue, a quarter of the lines events, all set after one write and
/// then waited in reverse order, each wait before a read: every set is
/// live at once, past the single-queue checker's 64 slots, so the
/// multi-queue walk decides it (before, the definitional semantics did:
/// 10,000 lines 0.34 s, 100,000 lines 21.6 s and 700 MB).
fn events_reverse(lines: usize) -> String {
    let m = lines / 3;
    let mut t = String::new();
    for i in 0..m {
        writeln!(t, "event e{i}").expect("a String");
    }
    t.push_str("buffer a 64\nfill a 1\n");
    for i in 0..m {
        writeln!(
            t,
            "set-event e{i} CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ"
        )
        .expect("a String");
    }
    for i in (0..m).rev() {
        writeln!(
            t,
            "wait-events e{i} CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\ndispatch k read a[0..64]"
        )
        .expect("a String");
    }
    t.push_str("submit\n");
    t
}

/// The fastest of up to `runs` checks of `text` (so one slow run on a busy
/// machine does not decide; no more once one is under `enough`), each of
/// which must be decided (not refused) with `hazards` hazards.
fn fastest(
    what: &str,
    text: &str,
    runs: usize,
    enough: Duration,
    hazards: impl Fn(usize) -> bool,
) -> Duration {
    let program = vksync::trace::parse(text)
        .unwrap_or_else(|e| panic!("{what}: {e}"))
        .program;
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        let found = vksync::check(&program);
        best = best.min(start.elapsed());
        let found = found.unwrap_or_else(|e| panic!("{what}: refused: {e}"));
        assert!(hazards(found.len()), "{what}: {} hazards", found.len());
        if best < enough {
            break;
        }
    }
    best
}

#[test]
fn multi_queue_checks_scale_linearly() {
    // (what, lines of the smaller program (the faster classes get more, so
    // that it takes milliseconds), generator, the hazards expected at n
    // lines)
    type Case = (&'static str, usize, fn(usize) -> String, fn(usize, usize) -> bool);
    let cases: [Case; 10] = [
        (
            "ownership",
            2_000,
            |n| ownership(n, "ALL_COMMANDS"),
            |_, h| h == 2,
        ),
        // A queue family acquire after a wait with a narrow mask is not
        // ordered after it: a hazard per transfer.
        (
            "ownership-bad",
            2_000,
            |n| ownership(n, "CLEAR"),
            |n, h| h > n / 20,
        ),
        ("timeline", 10_000, timeline, |_, h| h == 0),
        ("frames", 10_000, frames, |_, h| h == 0),
        ("long-lived", 10_000, long_lived, |_, h| h == 0),
        ("events", 100_000, events, |_, h| h == 0),
        ("events-reverse", 10_000, events_reverse, |_, h| h == 0),
        ("queues", 1_200, queues, |_, h| h == 0),
        ("ranges", 10_000, ranges, |_, h| h == 0),
        ("wide-timeline", 4_000, wide_timeline, |_, h| h == 0),
    ];
    for (what, n, generate, hazards) in cases {
        let small = generate(n);
        let large = generate(10 * n);
        let n_small = small.lines().count();
        let n_large = large.lines().count();
        let t_small = fastest(what, &small, 5, Duration::ZERO, |h| hazards(n_small, h));
        let bound = match what {
            "queues" => QUEUES_BOUND,
            "wide-timeline" => WIDE_TIMELINE_BOUND,
            _ => BOUND,
        };
        let t_large = fastest(what, &large, 3, t_small * bound, |h| hazards(n_large, h));
        let ratio = t_large.as_secs_f64() / t_small.as_secs_f64().max(1e-4);
        eprintln!("{what}: {n_small} lines {t_small:?}, {n_large} lines {t_large:?}, ratio {ratio:.1}");
        assert!(
            ratio < f64::from(bound),
            "{what}: ten times the lines took {ratio:.1} times as long ({t_small:?}, {t_large:?})"
        );
    }
}

/// A read costs the distinct values of the records since the range was
/// last read, not the records: the same program over 4,096 live ranges
/// (64 buffers) takes not much longer than over 256 (4 buffers). Each
/// record caught up with every operation since it was last read, one by
/// one, before records alike at a checkpoint of the log shared the way
/// (`State::sync`): this test failed on that code, 3.29 s against 25.92 s
/// in the test profile (7.9x); after, 0.28 s against 0.33 s. (At 10,000 / 20,000 / 30,000 lines
/// of 64 buffers it took 0.49 / 2.17 / 8.03 s then.) Some copies land on
/// bytes a fill of the same batch wrote and no global barrier has ordered
/// yet: real hazards ([`common::fill_copy_stream`], two queues).
#[test]
fn records_alike_share_their_replays() {
    let lines = 40_000;
    let few = common::fill_copy_stream(lines, 4, 2);
    let many = common::fill_copy_stream(lines, 64, 2);
    let hazards = |h: usize| h > 0 && h < lines / 10;
    let t_few = fastest("live ranges, 4 buffers", &few, 3, Duration::ZERO, hazards);
    let t_many = fastest("live ranges, 64 buffers", &many, 3, t_few * 2, hazards);
    let ratio = t_many.as_secs_f64() / t_few.as_secs_f64().max(1e-4);
    eprintln!("256 live ranges {t_few:?}, 4,096 live ranges {t_many:?}, ratio {ratio:.1}");
    assert!(
        ratio < 3.0,
        "16 times the live ranges took {ratio:.1} times as long ({t_few:?}, {t_many:?})"
    );
}
