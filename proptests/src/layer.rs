//! What the validation layer is expected to report for a program, and what
//! it did report, in comparable terms: sets of (command index, hazard kind).
//!
//! The model's checker, run with a [`Semantics`], predicts hazards over the
//! whole program. The 1.3.239 layer sees less of it, in ways no semantics
//! toggle expresses; [`layer_view`] applies them:
//!
//! * **K1 (D8, per command buffer).** The 1.3.239 layer validates each
//!   command buffer alone, from an empty state, at record time
//!   (queue-submit validation is off by default). The runtime closes a
//!   command buffer at `submit` and before each host access (its implicit
//!   submit), so the checker starts afresh there.
//! * **K2 (D9, host accesses).** The layer records no host access, so host
//!   reads and writes are neither checked nor recorded.
//! * **K3 (one report per access).** The layer's range detection stops at
//!   the first hazard over an access's range (lowest address); the model
//!   reports every hazard. (A copy's source hazard does *not* hide its
//!   destination hazard here: the 239 code skips the destination only when
//!   `LogError` returns true, i.e. when the debug callback asks to abort
//!   the call, and the runtime's callback never does.)
//!
//! * **K4 (trailing gap sometimes not recorded).** Observed on the 1.3.239
//!   layer but not fully characterized, see [`recorded_range`]. It only
//!   ever *hides* hazards, so [`verdict`] accepts any report between the
//!   prediction with K4 (fewer hazards) and the one without it.
//!
//! K1..K3 are exact emulations, not tolerances; K4 is the one tolerance.

use std::collections::BTreeSet;
use vksync::access::accesses;
use vksync::checker::Checker;
use vksync::hazard::{access_regions, lift, step};
use vksync::scope::StageAccess;
use vksync::{resolve, ByteRange, Command, Hazard, HazardKind, MemRange, Program, ProgramError, Semantics};
use vksync_runtime::{Device, RunResult, ValidationMessage, ValidationMode};

/// A hazard as the layer reports it: the command being recorded and the kind.
pub type Key = (usize, HazardKind);

/// The model's hazards, under `sem`, as the 1.3.239 layer can see them
/// (K1: a fresh checker per command buffer; K2: no host accesses; K3: one
/// hazard per access; K4: the trailing gap of some accesses is not
/// recorded, see [`recorded_range`]).
pub fn layer_view(program: &Program, sem: Semantics) -> Result<Vec<Hazard>, ProgramError> {
    layer_view_with(program, sem, true, true)
}

/// [`layer_view`], with the K3 and K4 emulations on or off (K1 and K2
/// always apply).
pub fn layer_view_with(
    program: &Program,
    sem: Semantics,
    k3: bool,
    k4: bool,
) -> Result<Vec<Hazard>, ProgramError> {
    let layout = resolve(program)?;
    // D6 is a reporting filter in the layer (`SupressedBoundDescriptorWAW`),
    // applied after detection stopped at the first hazard of the range (K3):
    // a suppressed WAW at a lower address hides a WAR above it. So detect
    // without D6 and filter afterwards.
    let suppress = sem.suppress_dispatch_waw;
    let sem = Semantics {
        suppress_dispatch_waw: false,
        ..sem
    };
    let fresh = || Checker::with_semantics(layout.memory_sizes.len(), sem);
    let mut checker = fresh();
    // K4: the byte ranges the layer holds access state for, per memory
    // object, in the current command buffer.
    let mut entries: Vec<Vec<ByteRange>> = vec![Vec::new(); layout.memory_sizes.len()];
    let mut out = Vec::new();
    for (i, c) in program.commands.iter().enumerate() {
        match c {
            // The runtime submits the open command buffer at `submit` and
            // before a host access; the next device command opens a new one.
            Command::Submit | Command::HostRead { .. } | Command::HostWrite { .. } => {
                checker = fresh();
                entries.iter_mut().for_each(Vec::clear);
            }
            // Waiting does not close a command buffer.
            Command::Wait => {}
            Command::Barrier(_) => step(&mut checker, &layout, sem, i, c, &mut out),
            _ => {
                let mut acc = accesses(c, &layout, sem);
                let regions = access_regions(c, sem);
                for (a, r) in acc.iter().zip(&regions) {
                    let mut raw = checker.detect(i, std::slice::from_ref(a));
                    if k3 {
                        // The layer stops at the first hazard in the range.
                        raw.sort_by_key(|h| h.range.start);
                        raw.truncate(1);
                    }
                    if suppress {
                        raw.retain(|h| {
                            !(h.kind == HazardKind::WriteAfterWrite
                                && h.current == StageAccess::ComputeShaderStorageWrite
                                && h.prior == StageAccess::ComputeShaderStorageWrite)
                        });
                    }
                    let mem = MemRange {
                        mem: a.mem,
                        range: a.range,
                    };
                    out.extend(raw.iter().map(|h| lift(h, *r, mem)));
                }
                if !k4 {
                    checker.record(i, &acc);
                    continue;
                }
                for a in acc.iter_mut() {
                    a.range = recorded_range(&entries[a.mem.0 as usize], a.range);
                    entries[a.mem.0 as usize].push(a.range);
                }
                acc.retain(|a| !a.range.is_empty());
                checker.record(i, &acc);
            }
        }
    }
    Ok(out)
}

/// K4, observed on the 1.3.239 layer (see `docs/testing.md`, traces
/// there): an access whose range overlaps existing access state of its
/// buffer and extends past it is, in some sequences, recorded only up to
/// the end of the last existing entry it overlaps; a later access in that
/// trailing gap then draws no hazard. Leading and inner gaps are recorded.
/// Seen for `vkCmdFillBuffer` over a prior copy write, a copy source over a
/// prior write, a dispatch binding, and a copy destination over a prior
/// dispatch write; *not* seen for a fill over a prior read nor for a copy
/// destination over a prior copy write. This function is the upper bound
/// of the effect (it truncates every such access).
pub fn recorded_range(entries: &[ByteRange], range: ByteRange) -> ByteRange {
    let last_end = entries.iter().filter(|e| e.overlaps(range)).map(|e| e.end).max();
    match last_end {
        Some(end) if end < range.end => ByteRange::new(range.start, end),
        _ => range,
    }
}

/// All hazards, as keys, without any emulation.
pub fn keys(hazards: &[Hazard]) -> BTreeSet<Key> {
    hazards.iter().map(|h| (h.command, h.kind)).collect()
}

/// How a layer report compares with the model's prediction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Equal to the prediction with K1..K3 (K4 changed nothing or was not needed).
    Exact,
    /// Between the prediction with K4 and the one without: hazards in
    /// trailing gaps the layer did not record.
    K4,
    Mismatch,
}

/// Compares a report with the model under `sem` (K1..K3 exact, K4 tolerated).
pub fn verdict(program: &Program, sem: Semantics, got: &BTreeSet<Key>) -> Verdict {
    let full = keys(&layer_view_with(program, sem, true, false).expect("valid program"));
    if *got == full {
        return Verdict::Exact;
    }
    let lower = predict(program, sem);
    if lower.is_subset(got) && got.is_subset(&full) {
        Verdict::K4
    } else {
        Verdict::Mismatch
    }
}

/// The layer's prediction under `sem` with K4 at its upper bound (the
/// fewest hazards): the keys of [`layer_view`].
pub fn predict(program: &Program, sem: Semantics) -> BTreeSet<Key> {
    keys(&layer_view(program, sem).expect("valid program"))
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

/// The toggles of [`Semantics::LAYER_1_3_239`], one at a time: `SPEC`
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
                vksync::trace::print_command(program, &program.commands[*c])
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The device for a test suite, or `None` when `VKSYNC_SKIP_DEVICE_TESTS=1`.
/// Like the runtime's tests, it fails loudly when Vulkan, a device or
/// (with `ValidationMode::Required`) the validation layer is missing.
/// `VKSYNC_DEVICE` picks the device.
pub fn test_device(validation: ValidationMode) -> Option<Device> {
    vksync_runtime::test_device(validation)
        .unwrap_or_else(|e| panic!("{}: {e}", vksync_runtime::TEST_DEVICE_HELP))
}
