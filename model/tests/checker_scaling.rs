//! The single-queue checker and the validation layer's prediction
//! (`vksync::layer::predict`, which `vksync check` runs for the installed
//! layer's notes) are linear in the program on long single-queue streams
//! (issue 25): ten times the lines take about ten times as long, not a
//! hundred.
//!
//! The case that was not: the layer's `CopyPagesInSmallChunks` pattern
//! (`vksync-bench checker --workload copy-pages`), a global barrier before
//! each 16-byte copy from one chunk of a buffer to the next, all in one
//! command buffer. The checker was linear there (a global barrier maps the
//! distinct interned values, a handful here, not the 65,535 range
//! entries), but the 1.3.239 layer's prediction scanned every range
//! recorded in the command buffer at each access (its K4 emulation), so
//! `vksync check` took 12.8 s at 65,535 pairs in release (0.62 s now); at
//! the sizes here the old prediction measured a ratio of 91 (release;
//! the checker 10.8), failing this test.
//!
//! One test runs the cases one after another, so that their timings do not
//! compete with each other for cores.

mod common;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// How many times as long ten times the lines may take (as in
/// `multi_queue_scaling.rs`): linear is about 10, quadratic about 100.
const BOUND: u32 = 40;

/// The copy-pages stream with `pairs` barrier + copy pairs over one buffer.
fn copy_pages(pairs: usize) -> String {
    let mut t = format!("buffer pages {}\n", (pairs + 1) * 16);
    for k in 0..pairs {
        let src = k * 16;
        let _ = writeln!(
            t,
            "barrier ALL_TRANSFER:TRANSFER_WRITE -> ALL_TRANSFER:TRANSFER_READ\ncopy pages[{src}..{}] -> pages[{}..{}]",
            src + 16,
            src + 16,
            src + 32
        );
    }
    t
}

/// Fills of 64-byte pieces over 16 buffers of 4 KiB, each made visible to
/// a copy by a buffer barrier ([`common::fill_copy_stream`], one queue).
fn pieces(lines: usize) -> String {
    common::fill_copy_stream(lines, 16, 1)
}

/// `chunks` 16-byte chunks of one buffer, each filled, then made visible
/// by buffer barriers to the (stage, access) pairs whose bit its index
/// has (so each chunk's write has its own value), then as many global
/// barriers that order none of them (`HOST` to `HOST`). Every barrier used
/// to map every distinct value (a full pass per barrier: 562 s at 16,384
/// chunks in release); now it visits the values changed since it last
/// applied (0.99 s).
fn distinct(chunks: usize) -> String {
    const PAIRS: [&str; 14] = [
        "COPY:TRANSFER_READ",
        "COPY:TRANSFER_WRITE",
        "CLEAR:TRANSFER_WRITE",
        "BLIT:TRANSFER_READ",
        "BLIT:TRANSFER_WRITE",
        "RESOLVE:TRANSFER_READ",
        "COMPUTE_SHADER:SHADER_STORAGE_READ",
        "COMPUTE_SHADER:SHADER_STORAGE_WRITE",
        "DRAW_INDIRECT:INDIRECT_COMMAND_READ",
        "VERTEX_SHADER:SHADER_STORAGE_READ",
        "FRAGMENT_SHADER:SHADER_STORAGE_READ",
        "RESOLVE:TRANSFER_WRITE",
        "VERTEX_SHADER:SHADER_STORAGE_WRITE",
        "FRAGMENT_SHADER:SHADER_STORAGE_WRITE",
    ];
    let mut t = format!("buffer a {}\n", chunks * 16);
    for i in 0..chunks {
        let _ = writeln!(t, "fill a[{}..{}] 1", i * 16, i * 16 + 16);
    }
    for i in 0..chunks {
        for (j, p) in PAIRS.iter().enumerate() {
            if i >> j & 1 == 1 {
                let _ = writeln!(
                    t,
                    "barrier CLEAR:TRANSFER_WRITE -> {p} a[{}..{}]",
                    i * 16,
                    i * 16 + 16
                );
            }
        }
    }
    for _ in 0..chunks {
        t.push_str("barrier HOST:NONE -> HOST:NONE\n");
    }
    t
}

/// `n` fills of distinct 64-byte pieces of one buffer, then `n` copies of
/// all of it, unordered: every copy races every fill (`n²` pairs, issue
/// 27's `pieces`), which a report names once per copy.
fn racing_pieces(n: usize) -> String {
    let mut t = format!("buffer a {}\nbuffer b {}\n", 64 * n, 64 * n);
    for i in 0..n {
        let _ = writeln!(t, "fill a[{}..{}] 1", 64 * i, 64 * i + 64);
    }
    for _ in 0..n {
        let _ = writeln!(t, "copy a[0..{}] -> b[0..{}]", 64 * n, 64 * n);
    }
    t
}

/// The fastest of `runs` runs of `f` (so one slow run on a busy machine
/// does not decide, for the small size above all, whose runs are short).
fn fastest(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        f();
        best = best.min(start.elapsed());
    }
    best
}

#[test]
fn a_report_of_racing_pieces_scales_linearly() {
    // The report (`check_report`, what `vksync check` prints) and the
    // layer prediction of `n²` racing pairs: a run of pieces is one hazard
    // per read (was: one per pair, 29 s for 10,000 lines in release).
    let layer = vksync::layer::Layer::for_version(1, 3, 239).emulation();
    let mut times = Vec::new();
    for n in [500, 5_000] {
        let program = vksync::trace::parse(&racing_pieces(n))
            .expect("a valid trace")
            .program;
        let report = fastest(3, || {
            let groups = vksync::check_report(&program, vksync::Semantics::default()).expect("one queue");
            // One read-after-write per copy, one write-after-write per
            // copy but the first, each read naming every fill.
            assert_eq!(groups.len(), 2 * n - 1, "at {n}");
            assert_eq!(1 + groups[0].also.len() + groups[0].more, n, "at {n}");
        });
        let predict = fastest(3, || {
            vksync::layer::predict(&program, &layer).expect("one queue");
        });
        times.push((report, predict));
    }
    let ratio = |a: Duration, b: Duration| b.as_secs_f64() / a.as_secs_f64().max(1e-6);
    let (report, predict) = (ratio(times[0].0, times[1].0), ratio(times[0].1, times[1].1));
    let said = format!(
        "report {:?} -> {:?} ({report:.1}x), predict {:?} -> {:?} ({predict:.1}x)",
        times[0].0, times[1].0, times[0].1, times[1].1
    );
    eprintln!("{said}");
    assert!(report < f64::from(BOUND) && predict < f64::from(BOUND), "{said}");
}

#[test]
fn single_queue_checks_and_layer_predictions_scale_linearly() {
    // (name, generator, small size in its unit, hazards expected)
    type Gen = fn(usize) -> String;
    let cases: &[(&str, Gen, usize, bool)] = &[
        ("copy-pages", copy_pages, 3_000, false),
        ("pieces", pieces, 3_000, true),
        ("distinct", distinct, 400, false),
    ];
    let layer = vksync::layer::Layer::for_version(1, 3, 239).emulation();
    let mut report = Vec::new();
    for &(name, generate, small, racy) in cases {
        let mut times = Vec::new();
        for n in [small, 10 * small] {
            let text = generate(n);
            let program = vksync::trace::parse(&text)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
                .program;
            let check = fastest(3, || {
                let found = vksync::check(&program).unwrap_or_else(|e| panic!("{name}: refused: {e}"));
                assert_eq!(!found.is_empty(), racy, "{name} at {n}: {} hazards", found.len());
            });
            let predict = fastest(3, || {
                vksync::layer::predict(&program, &layer).unwrap_or_else(|e| panic!("{name}: {e}"));
            });
            times.push((check, predict));
        }
        let ratio = |a: Duration, b: Duration| b.as_secs_f64() / a.as_secs_f64().max(1e-6);
        let check = ratio(times[0].0, times[1].0);
        let predict = ratio(times[0].1, times[1].1);
        report.push(format!(
            "{name}: check {:?} -> {:?} ({check:.1}x), predict {:?} -> {:?} ({predict:.1}x)",
            times[0].0, times[1].0, times[0].1, times[1].1
        ));
        for (what, r) in [("check", check), ("predict", predict)] {
            assert!(
                r < f64::from(BOUND),
                "{name}: {what} took {r:.1} times as long for ten times the lines\n{}",
                report.join("\n")
            );
        }
    }
    eprintln!("{}", report.join("\n"));
}
