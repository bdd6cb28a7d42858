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
//! * **K4 (a trailing gap not recorded).** A recording bug of the 1.3.239
//!   range map: an access that overlaps recorded state, with nothing
//!   recorded above it in the command buffer's map, is recorded only up to
//!   the topmost entry; see [`recorded_range`]. Which map it meets depends
//!   on the layer's recording order within a command, so the emulation
//!   records in that order (`layer_slots`).
//!
//! K1..K4 are exact emulations, not tolerances: [`verdict`] requires the
//! layer's report to equal the prediction.

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
                // K4: what the layer records of each access, in its
                // recording order (which decides the map it records into).
                let (slots, slot_of) = layer_slots(c, &layout, sem);
                let mut recorded = Vec::with_capacity(slots.len());
                for s in &slots {
                    let m = s.mem.0 as usize;
                    let r = recorded_range(&entries, m, s.range);
                    entries[m].push(r);
                    recorded.push(r);
                }
                for (a, &s) in acc.iter_mut().zip(&slot_of) {
                    a.range = recorded[s];
                }
                checker.record(i, &acc);
            }
        }
    }
    Ok(out)
}

/// K4, a recording bug of the 1.3.239 layer (`UpdateMemoryAccessState`,
/// `synchronization_validation.cpp` lines 1754-1791 at v1.3.239; fixed by
/// "syncval: New generic range traversal", first in v1.3.256): a command
/// buffer keeps one range map over a fake address space in which memory
/// objects lie in allocation order (`MemId` order here). An access that
/// overlaps recorded state is filled in only up to the next entry above
/// it, so when nothing is recorded above it anywhere in the map, the part
/// past the topmost entry is never recorded, and a later access there draws
/// no hazard. Leading and inner gaps are recorded; detection has no such
/// gap. `recorded[m]`: what the layer recorded so far in this command
/// buffer in memory object `m`. Exact: it matches the layer on every
/// hand-written trace (`docs/testing.md`) and every random comparison.
pub fn recorded_range(recorded: &[Vec<ByteRange>], mem: usize, range: ByteRange) -> ByteRange {
    let here = &recorded[mem];
    if !here.iter().any(|e| e.overlaps(range)) || recorded[mem + 1..].iter().any(|v| !v.is_empty()) {
        return range;
    }
    // Invariant: an entry overlaps, so there is a topmost end.
    let top = here
        .iter()
        .map(|e| e.end)
        .max()
        .expect("an overlapping entry exists");
    ByteRange::new(range.start, range.end.min(top))
}

/// The order the 1.3.239 layer records a dispatch's storage bindings in:
/// the hash order of the shader's SPIR-V variable ids
/// (`shader_module.cpp`), measured for the runtime's kernels as naga
/// compiles them (traces c1-c8 of `docs/testing.md`).
fn binding_record_order(kernel: &str, n: usize) -> Vec<usize> {
    match kernel {
        "scale_add" | "slow" => vec![1, 0],
        _ => (0..n).collect(),
    }
}

/// The ranges the layer records for a command, in its order (a copy: its
/// source, then its destination; a dispatch: its bindings in
/// [`binding_record_order`], then the indirect buffer), and for each
/// access of `accesses(command)` the index of its range.
fn layer_slots(c: &Command, layout: &vksync::Layout, sem: Semantics) -> (Vec<MemRange>, Vec<usize>) {
    match c {
        Command::Copy { src, dst } => (vec![layout.locate(*src), layout.locate(*dst)], vec![0, 1]),
        Command::Fill { dst, .. } | Command::Update { dst, .. } => (vec![layout.locate(*dst)], vec![0]),
        Command::Dispatch {
            kernel,
            bindings,
            indirect,
            ..
        } => {
            let order = binding_record_order(kernel, bindings.len());
            let mut slots: Vec<MemRange> = order.iter().map(|&b| layout.locate(bindings[b].region)).collect();
            // Invariant: the order lists every binding once.
            let slot = |b: usize| order.iter().position(|&x| x == b).expect("every binding ordered");
            let mut of = Vec::new();
            // `accesses` lists the indirect read first, then per binding its
            // read and its write.
            if let Some(ind) = indirect {
                slots.push(layout.locate(*ind));
                of.push(slots.len() - 1);
            }
            for (i, b) in bindings.iter().enumerate() {
                let read = match b.access {
                    vksync::BindingAccess::Read => true,
                    vksync::BindingAccess::ReadWrite => !sem.rw_binding_write_only,
                    vksync::BindingAccess::Write => false,
                };
                if read {
                    of.push(slot(i));
                }
                if matches!(
                    b.access,
                    vksync::BindingAccess::Write | vksync::BindingAccess::ReadWrite
                ) {
                    of.push(slot(i));
                }
            }
            (slots, of)
        }
        _ => (vec![], vec![]),
    }
}

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
    Mismatch,
}

/// Compares a report with the model under `sem` (K1..K4 exact).
pub fn verdict(program: &Program, sem: Semantics, got: &BTreeSet<Key>) -> Verdict {
    if *got != predict(program, sem) {
        return Verdict::Mismatch;
    }
    let without_k4 = keys(&layer_view_with(program, sem, true, false).expect("valid program"));
    if *got == without_k4 {
        Verdict::Exact
    } else {
        Verdict::K4
    }
}

/// The layer's prediction under `sem`: the keys of [`layer_view`].
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
