//! The `Tracker`'s worst case (issue 25): one buffer written in `N`
//! 16-byte pieces by `N` commands, then read whole `N` times. Prints the
//! cost per piece write and per whole read.
//!
//! ```text
//! cargo run --release -p vksync --example tracker_pieces -- [N]
//! ```
//! (default 40,000).

use std::time::Instant;
use vksync::{AccessFlags2, ByteRange, PipelineStageFlags2, TrackedAccess, Tracker};

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(40_000);
    let mut tracker = Tracker::new();
    let buf = tracker.buffer(16 * n).expect("a valid size");
    let t = Instant::now();
    for i in 0..n {
        let w = TrackedAccess::range(
            buf,
            ByteRange::new(16 * i, 16 * i + 16),
            PipelineStageFlags2::COPY,
            AccessFlags2::TRANSFER_WRITE,
        );
        tracker.command(&[w]).expect("a valid access");
    }
    let writes = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut points = 0;
    for _ in 0..n {
        let r = TrackedAccess::range(
            buf,
            ByteRange::new(0, 16 * n),
            PipelineStageFlags2::COMPUTE_SHADER,
            AccessFlags2::SHADER_STORAGE_READ,
        );
        if !tracker.command(&[r]).expect("a valid access").barriers.is_empty() {
            points += 1;
        }
    }
    let reads = t.elapsed().as_secs_f64();
    println!(
        "{n} piece writes: {:.2} us each; {n} whole reads: {:.2} us each; barriers before reads: {points}",
        writes * 1e6 / n as f64,
        reads * 1e6 / n as f64
    );
}
