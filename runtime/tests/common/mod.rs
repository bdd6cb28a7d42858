//! Shared helpers for the device tests.
//!
//! Device tests run on whatever `VKSYNC_DEVICE` picks (lavapipe in CI) with
//! validation required. They fail loudly when Vulkan, a device or the
//! validation layer is missing, unless `VKSYNC_SKIP_DEVICE_TESTS=1`, which
//! makes each one print a `SKIPPED` line on stderr and return.

#![allow(dead_code)]

use vksync::layer::{explain, Explanation, Layer};
use vksync::Program;
use vksync_runtime::{compare_with_reference, Device, RunResult, ValidationMessage, ValidationMode};

/// A device with validation required, or `None` when device tests are
/// skipped on purpose.
pub fn device() -> Option<Device> {
    vksync_runtime::test_device(ValidationMode::Required)
        .unwrap_or_else(|e| panic!("{}: {e}", vksync_runtime::TEST_DEVICE_HELP))
}

/// What judges a device's validation messages: the model's profile of its
/// layer, and the workarounds it records with (the layer judges the
/// program as recorded, `vksync_runtime::quirks::recorded_program`).
#[derive(Clone, Debug)]
pub struct Judge {
    pub layer: Layer,
    pub quirks: Vec<vksync_runtime::Quirk>,
}

/// The judge of `device`'s messages.
pub fn layer(device: &Device) -> Judge {
    Judge {
        layer: device
            .validation_layer_version()
            .map_or(Layer::V1_3_239, |(a, b, c)| Layer::for_version(a, b, c)),
        quirks: device.info().quirks.clone(),
    }
}

pub fn parse(text: &str) -> vksync::trace::Trace {
    vksync::trace::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Asserts that every validation message on a planned (hazard-free)
/// program is a synchronization hazard that a known layer difference
/// explains (`vksync::layer`): the spec must not predict it, and nothing
/// else may arrive.
pub fn assert_only_known_differences(program: &Program, messages: &[ValidationMessage], judge: &Judge) {
    let program =
        vksync_runtime::quirks::recorded_program(program, &judge.quirks).expect("a valid recording");
    let (program, layer) = (&*program, judge.layer);
    let bad: Vec<String> = messages
        .iter()
        .filter(|m| {
            let why = match (m.command, vksync::layer::kind_of_message(&m.id_name)) {
                (Some(c), Some(k)) => explain(program, c, k, &layer.emulation()),
                _ => Explanation::Unexplained,
            };
            !matches!(why, Explanation::Difference(_) | Explanation::Profile)
        })
        .map(|m| m.to_string())
        .collect();
    assert!(
        bad.is_empty(),
        "validation messages no known layer difference explains:\n{}",
        bad.join("\n")
    );
}

/// Asserts no validation message but those known layer differences
/// explain, host reads equal to the reference, and every read byte defined
/// (so the comparison is not vacuous).
pub fn assert_matches_reference(program: &Program, result: &RunResult, judge: &Judge) {
    assert!(result.validation, "validation must be on");
    assert_only_known_differences(program, &result.messages, judge);
    let cmp = compare_with_reference(program, result).expect("reference runs");
    assert!(!cmp.is_empty(), "the program has host reads");
    for c in cmp {
        assert_eq!(
            c.undefined, 0,
            "read at command {} has undefined bytes",
            c.command
        );
        assert!(
            c.mismatches.is_empty(),
            "read at command {} mismatches at {:?}",
            c.command,
            c.mismatches
        );
    }
}
