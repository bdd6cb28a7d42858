//! Independent optimality: on every barrier-free, device-only program of up
//! to `VKSYNC_OPTIMALITY_K` commands (default 3) over the exhaustive
//! alphabet, both memory layouts, a brute-force search that knows nothing
//! of the planners (`vksync_proptests::exhaustive::{min_points, min_bits}`,
//! race freedom decided by the definitional semantics) gives the fewest
//! barrier points and, at that many points, the fewest stage and access
//! bits (concrete flags only; searched on programs whose plans need at
//! most two points). The offline planner (global barriers) must meet both,
//! for each reading of write-after-write (plan and search under the same
//! reading).

use vksync::plan::{plan, PlanOptions, PlannerKind};
use vksync::Reading;
use vksync_proptests::exhaustive::{for_each_sequence, min_bits, min_points, race_free, text, LAYOUTS};

fn k() -> usize {
    std::env::var("VKSYNC_OPTIMALITY_K")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

/// Device commands of the alphabet (indices below this).
const DEVICE: usize = 6;

/// The fewest bits are searched on programs whose plans need at most this
/// many points.
const MAX_POINTS_FOR_BITS: usize = 2;

// One test per reading, so that the two run in parallel.
#[test]
fn offline_meets_the_minimum_with_writes_made_visible() {
    offline_meets_the_brute_force_minimum(Reading::VisibleToWrites);
}

#[test]
fn offline_meets_the_minimum_under_the_memory_model() {
    offline_meets_the_brute_force_minimum(Reading::MemoryModel);
}

fn offline_meets_the_brute_force_minimum(reading: Reading) {
    let k = k();
    let started = std::time::Instant::now();
    let (mut programs, mut with_points, mut bits_checked) = (0usize, 0usize, 0usize);
    let mut worse = Vec::new();
    {
        for layout in LAYOUTS {
            for len in 1..=k {
                for_each_sequence(DEVICE, len, |seq| {
                    let src = text(layout, seq);
                    let p = vksync::trace::parse(&src).unwrap().program;
                    let q = plan(&p, PlanOptions::new(PlannerKind::Offline).reading(reading))
                        .unwrap()
                        .program;
                    assert!(race_free(&q, reading), "{reading:?}\n{src}");
                    let (points, _) = min_points(&p, reading).expect("full barriers everywhere suffice");
                    assert_eq!(q.barrier_points(), points, "barrier points\n{src}");
                    programs += 1;
                    with_points += usize::from(points > 0);
                    // The bit search grows with the product of the points'
                    // candidate barriers: programs with up to two points.
                    if points > MAX_POINTS_FOR_BITS {
                        return;
                    }
                    bits_checked += 1;
                    let bits =
                        min_bits(&p, q.barrier_bits() as usize, reading).expect("the plan is a witness");
                    if q.barrier_bits() as usize != bits {
                        worse.push(format!(
                            "{reading:?}: {} bits, brute force {bits}:\n{}",
                            q.barrier_bits(),
                            vksync::trace::print(&q)
                        ));
                    }
                });
            }
        }
    }
    eprintln!(
        "optimality: K = {k}, {reading:?}: {programs} programs ({with_points} need barriers); offline meets the fewest points on all, \
         the fewest bits on {} of the {bits_checked} with at most {MAX_POINTS_FOR_BITS} points ({:.1} s)",
        bits_checked - worse.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        worse.is_empty(),
        "{} programs where offline uses more bits:\n{}",
        worse.len(),
        worse.join("\n")
    );
}
