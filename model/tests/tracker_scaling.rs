//! The `Tracker` answers each command in time independent of how many
//! pieces a buffer was written in (issue 25): a buffer written in `n`
//! 16-byte pieces and then read whole `n` times takes about eight times as
//! long at `8n`, not 64 times. Every whole read visited every piece's
//! write, even once a barrier had ordered them all (158 us per read at
//! 40,000 pieces in release; 1.3 us now, `model/examples/tracker_pieces.rs`
//! and `docs/performance.md`).

use std::time::{Duration, Instant};
use vksync::{AccessFlags2, ByteRange, PipelineStageFlags2, TrackedAccess, Tracker};

/// The most `time(8n) / time(n)` may be: linear gives about 8, quadratic
/// 64 (as in `plan_scaling.rs`).
const MAX_RATIO: f64 = 20.0;

/// Writes a buffer in `n` pieces, then reads it whole `n` times; the
/// barriers the tracker asked for before the reads.
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

/// The fastest of three runs.
fn fastest(mut f: impl FnMut()) -> Duration {
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
fn whole_reads_after_many_pieces_cost_the_same_at_any_count() {
    let mut times = Vec::new();
    for n in [1_000, 8_000] {
        times.push(fastest(|| {
            // One barrier, before the first read, orders every piece.
            assert_eq!(pieces_then_whole_reads(n), 1, "at {n} pieces");
        }));
    }
    let ratio = times[1].as_secs_f64() / times[0].as_secs_f64().max(1e-6);
    let said = format!(
        "{:?} -> {:?} ({ratio:.1}x for 8x the pieces and reads)",
        times[0], times[1]
    );
    eprintln!("{said}");
    assert!(ratio < MAX_RATIO, "{said}");
}
