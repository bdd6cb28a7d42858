//! Random multi-queue programs on the device (`vksync_proptests::queues`):
//! programs synchronized by construction (the model finds no hazard) give
//! the CPU reference's bytes with no validation message; each program's
//! variant with one semaphore wait removed (the model finds a hazard) is
//! run too, and its wrong bytes are counted as race evidence, not
//! asserted (a device that runs every queue on one `VkQueue`, as lavapipe
//! does, serializes them).
//!
//! Cases: `VKSYNC_QUEUE_CASES` (default 16; a long run: e.g. 2000), runs
//! of each racy variant: `VKSYNC_QUEUE_REPEAT` (default 2).

use vksync_proptests::layer::test_device;
use vksync_proptests::queues::{run_case, QueueOptions, SuiteTotals};
use vksync_runtime::ValidationMode;

fn env_number(var: &str, default: usize) -> usize {
    match std::env::var(var) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{var}={v:?}: expected a whole number")),
        Err(_) => default,
    }
}

#[test]
fn synchronized_multi_queue_programs_match_the_reference() {
    let Some(mut device) = test_device(ValidationMode::Required) else {
        return;
    };
    let cases = env_number("VKSYNC_QUEUE_CASES", 16) as u64;
    let repeat = env_number("VKSYNC_QUEUE_REPEAT", 2);
    let opts = QueueOptions::default();
    let mut totals = SuiteTotals::default();
    for seed in 0..cases {
        let r = run_case(&mut device, seed, &opts, repeat).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            r.correct.wrong, 0,
            "seed {seed}: wrong bytes in a synchronized program"
        );
        assert_eq!(
            r.correct.messages, 0,
            "seed {seed}: validation messages in a synchronized program"
        );
        assert!(r.correct.bytes > 0, "seed {seed}: nothing compared");
        totals.add(&r);
    }
    assert!(totals.racy_cases > 0, "no program had a removable wait: {totals}");
    eprintln!("device_queues on {}: {totals}", device.name());
}
