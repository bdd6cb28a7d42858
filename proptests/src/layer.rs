//! What the validation layer is expected to report for a program, and what
//! it did report, in comparable terms: sets of (command index, hazard kind).
//!
//! The prediction is the model's ([`vksync::layer::predict`]): its checker
//! under a layer profile's semantics, with the layer's reporting details
//! (K1-K4 of `docs/testing.md`) emulated exactly. This module only turns
//! predictions and captured messages into comparable keys and judges them:
//! [`verdict`] requires the layer's report to equal the prediction, or,
//! where a layer may skip a repeated barrier (D31), to lie between the
//! prediction and the prediction without those barriers.
//!
//! The layer judges the program as the runtime *recorded* it: with a
//! driver workaround on (`vksync_runtime::quirks`), some barriers are
//! recorded stronger than given. Every prediction compared with a report
//! is therefore made on [`recorded`]'s program, never on the one given to
//! `Device::run` (`docs/testing.md`, "Driver workarounds and the
//! differential").

use std::collections::BTreeSet;
use vksync::layer::{Emulation, Layer};
use vksync::{Hazard, HazardKind, Program, Semantics};
use vksync_runtime::{Device, RunResult, ValidationMessage, ValidationMode};

/// A hazard as the layer reports it: the command being recorded and the kind.
pub type Key = (usize, HazardKind);

/// All hazards, as keys, without any emulation.
pub fn keys(hazards: &[Hazard]) -> BTreeSet<Key> {
    hazards.iter().map(|h| (h.command, h.kind)).collect()
}

/// How a layer report compares with the model's prediction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Equal to the prediction, which K4 did not change.
    Exact,
    /// Equal to the prediction, which K4 changed (a hazard in a trailing
    /// gap the layer did not record, or a different first hazard).
    K4,
    /// Not equal to the prediction, but within the bounds D31 leaves
    /// (`Emulation::repeated_barriers_skipped`, [`within_d31`]): every
    /// hazard it holds is predicted once the barriers the layer may skip
    /// are left out (`vksync::layer::without_repeated_barriers`).
    D31,
    Mismatch,
}

/// Compares a report with the prediction of `emulation`.
pub fn verdict(program: &Program, emulation: &Emulation, got: &BTreeSet<Key>) -> Verdict {
    let expected = predict(program, emulation);
    if *got != expected {
        if emulation.repeated_barriers_skipped && within_d31(program, emulation, &expected, got) {
            return Verdict::D31;
        }
        return Verdict::Mismatch;
    }
    if *got == predict(program, &emulation.without_unrecorded_tail()) {
        Verdict::Exact
    } else {
        Verdict::K4
    }
}

/// D31's bounds: every hazard of `got` is one the layer could report once
/// the barriers it may skip are left out (`vksync::layer::predict_most`),
/// and a predicted hazard is missing only where the command has another
/// hazard the prediction lacks (K3 named that one first).
fn within_d31(
    program: &Program,
    emulation: &Emulation,
    expected: &BTreeSet<Key>,
    got: &BTreeSet<Key>,
) -> bool {
    let most = keys(&vksync::layer::predict_most(program, emulation).expect("generated programs are valid"));
    got.is_subset(&most)
        && expected
            .difference(got)
            .all(|(c, _)| got.iter().any(|k| k.0 == *c && !expected.contains(k)))
}

/// The keys `emulation` predicts. The suites' programs are valid by
/// construction; an invalid one is a generator bug.
pub fn predict(program: &Program, emulation: &Emulation) -> BTreeSet<Key> {
    try_predict(program, emulation).expect("generated programs are valid")
}

/// The keys `emulation` predicts, or why there is no prediction: a
/// program the emulation does not model (several queues or semaphores,
/// `MultiQueueNotSupported`), or an invalid one. For input that is not
/// generated (`examples/layer_diff.rs` reads trace files).
pub fn try_predict(program: &Program, emulation: &Emulation) -> Result<BTreeSet<Key>, vksync::ProgramError> {
    vksync::layer::predict(program, emulation).map(|h| keys(&h))
}

/// What the layer said: its hazard reports as keys, and every other
/// message (core validation, racing hazards, messages at no command).
pub fn observed(result: &RunResult) -> (BTreeSet<Key>, Vec<ValidationMessage>) {
    let mut keys = BTreeSet::new();
    let mut other = Vec::new();
    for m in &result.messages {
        match (m.command, vksync::layer::kind_of_message(&m.id_name)) {
            (Some(c), Some(k)) => {
                keys.insert((c, k));
            }
            _ => other.push(m.clone()),
        }
    }
    (keys, other)
}

/// The toggles of a layer profile, one at a time: `SPEC`
/// with only that toggle set to the layer's value, named by the
/// difference's id and title (`vksync::layer::DIFFERENCES`).
pub fn single_toggles() -> Vec<(String, Semantics)> {
    vksync::layer::DIFFERENCES
        .iter()
        .filter_map(|d| {
            d.toggle
                .map(|t| (format!("{} {}", d.id, d.title), Semantics::SPEC.with(t)))
        })
        .collect()
}

/// Formats keys with the program's command text.
pub fn show_keys(program: &Program, keys: &BTreeSet<Key>) -> String {
    if keys.is_empty() {
        return "none".into();
    }
    keys.iter()
        .map(|(c, k)| {
            format!(
                "{k} at command {c} ({})",
                vksync::trace::print_command(program, &program.commands()[*c])
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The profile of a device's validation layer: the newest the model has
/// that is not newer than the layer's version (1.3.239 when the layer is
/// off or its version unknown).
pub fn layer_of(device: &Device) -> Layer {
    device
        .validation_layer_version()
        .map_or(Layer::V1_3_239, |(major, minor, patch)| {
            Layer::for_version(major, minor, patch)
        })
}

/// The program `device` records for `program` (its workarounds applied,
/// `vksync_runtime::Device::recorded`): what the layer judged when
/// `program` ran there, so what [`verdict`] and [`predict`] must be given.
/// Command indices are unchanged.
pub fn recorded<'a>(device: &Device, program: &'a Program) -> std::borrow::Cow<'a, Program> {
    device
        .recorded(program)
        .unwrap_or_else(|e| panic!("a workaround recorded an invalid program: {e}"))
}

/// The device for a test suite, or `None` when `VKSYNC_SKIP_DEVICE_TESTS=1`.
/// Like the runtime's tests, it fails loudly when Vulkan, a device or
/// (with `ValidationMode::Required`) the validation layer is missing.
/// `VKSYNC_DEVICE` picks the device.
pub fn test_device(validation: ValidationMode) -> Option<Device> {
    vksync_runtime::test_device(validation)
        .unwrap_or_else(|e| panic!("{}: {e}", vksync_runtime::TEST_DEVICE_HELP))
}

/// Where the device suites write each run whose layer report differs from
/// the prediction (`VKSYNC_LAYER_DIFFS=DIR`), or `None` when unset: one
/// trace per run, the program as the device recorded it, headed by
/// comments with the keys the layer reported and the keys predicted and
/// every hazard message's text. `vksync run --as-written FILE` reruns one;
/// the `layer_diff` example compares one again (`docs/testing.md`,
/// "Layer reports on planned programs").
pub fn diff_dir() -> Option<std::path::PathBuf> {
    std::env::var_os("VKSYNC_LAYER_DIFFS").map(std::path::PathBuf::from)
}

/// Writes one differing run as `DIR/NAME.trace` (see [`diff_dir`]).
/// Errors are printed, not raised: the dump is a diagnostic.
pub fn dump_difference(
    dir: &std::path::Path,
    name: &str,
    program: &Program,
    got: &BTreeSet<Key>,
    predicted: &BTreeSet<Key>,
    result: &RunResult,
) {
    let mut text = String::new();
    let line = |text: &mut String, s: &str| {
        for l in s.lines() {
            text.push_str("# ");
            text.push_str(l);
            text.push('\n');
        }
    };
    line(&mut text, &format!("layer reported: {}", show_keys(program, got)));
    line(
        &mut text,
        &format!("predicted: {}", show_keys(program, predicted)),
    );
    for m in result.messages.iter().filter(|m| m.is_sync_hazard()) {
        line(
            &mut text,
            &format!("message at command {:?}: {}", m.command, m.text),
        );
    }
    text.push_str(&vksync::trace::print(program));
    let path = dir.join(format!("{name}.trace"));
    if let Err(e) = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, text)) {
        eprintln!("cannot write {}: {e}", path.display());
    }
}
