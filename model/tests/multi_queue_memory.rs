//! The multi-queue checker's memory on a timeline chain through N queues
//! (`queues-N` of `scripts/issue27-audit.sh`): deciding the timeline
//! candidates (`model/src/sync/candidates.rs`) kept, per class of device
//! wait (a queue and a second scope), a threshold per signal group (a
//! queue and a first scope) from the start of its reverse pass, N^2
//! thresholds: `vksync check` (release) peaked at 83 / 287 / 1,070 MB at
//! 4,000 / 8,000 / 16,000 queues. A class's thresholds now live only from
//! the first signal that folds into it to its first wait, one class at a
//! time in the chain (24 / 85 MB at 4,000 / 16,000 queues).
//!
//! The peak resident memory of this process (`VmHWM` of
//! `/proc/self/status`, Linux) is read before and after the check, in a
//! test binary of its own so that no other test's allocations count.

mod common;

/// Queues in the chain: the old thresholds alone took `4 * N * N` bytes
/// (64 MB here), touched as they were filled with `u32::MAX`.
const QUEUES: usize = 4_000;

/// The most the peak may grow during the check (a quarter of what the
/// old thresholds alone took; a few MB measured, the records and the
/// walk's logs included).
const MAX_GROWTH_KB: u64 = 16 * 1024;

/// This process's peak resident memory, in KB.
fn peak_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status (Linux)");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("a VmHWM line");
    line.split_whitespace()
        .nth(1)
        .and_then(|kb| kb.parse().ok())
        .expect("VmHWM in kB")
}

#[test]
fn checking_n_queues_is_not_quadratic_in_memory() {
    let program = vksync::trace::parse(&common::queue_chain(QUEUES))
        .expect("the chain parses")
        .program;
    let before = peak_kb();
    let start = std::time::Instant::now();
    let found = vksync::check(&program).expect("the chain is decided");
    let took = start.elapsed();
    let after = peak_kb();
    assert!(found.is_empty(), "{} hazards in a correct chain", found.len());
    let growth = after.saturating_sub(before);
    eprintln!("{QUEUES} queues: check {took:?}, peak {before} -> {after} KB (+{growth} KB)");
    assert!(
        growth < MAX_GROWTH_KB,
        "checking {QUEUES} queues raised the peak by {growth} KB (at most {MAX_GROWTH_KB} KB)"
    );
}
