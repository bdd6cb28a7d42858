//! Driver workarounds: the one table of driver behaviours that depart
//! from the Vulkan specification and that the runtime records around
//! ([`KNOWN`]), and the one function that changes what is recorded
//! ([`recorded`]).
//!
//! A workaround only ever *strengthens* what a program asks for, so a
//! program the model finds correct stays correct; it may hide from the
//! device a weakness of a program run as written (`vksync run
//! --as-written`), which is why every run says which workarounds were on
//! ([`crate::DeviceInfo::quirks`]) and `VKSYNC_DRIVER_WORKAROUNDS=0` (or
//! [`crate::DeviceOptions::workarounds`]) turns them off to see the
//! driver as it is. The model, the planners and the checkers know nothing
//! of this: they describe the specification.

use vksync::{AccessFlags2, Barrier, PipelineStageFlags2};

/// A driver defect the runtime works around.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Quirk {
    /// A pipeline barrier whose memory barrier has an empty source or
    /// destination access mask, recorded after a `vkCmdFillBuffer`, does
    /// not wait for an earlier dispatch (its execution dependency is
    /// dropped). Workaround: an empty access mask on a side whose stage
    /// mask is not empty gets `MEMORY_READ`, which makes no write
    /// available (source) and only makes visible to reads what is already
    /// available (destination).
    AccessLessBarrierAfterFill,
}

/// A known defect: which devices have it and where the evidence is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownQuirk {
    pub quirk: Quirk,
    /// `VkPhysicalDeviceProperties::vendorID` of the drivers that have it.
    pub vendor_id: u32,
    /// One line for run summaries.
    pub summary: &'static str,
    /// Where the measurements are.
    pub evidence: &'static str,
}

/// Every known defect (one home: the runtime, the CLI and the docs read
/// this table).
pub const KNOWN: &[KnownQuirk] = &[KnownQuirk {
    quirk: Quirk::AccessLessBarrierAfterFill,
    vendor_id: 0x10de,
    summary: "a barrier with an empty access mask after a fill gets MEMORY_READ there \
              (NVIDIA drops its execution dependency)",
    evidence: "docs/testing.md, \"A driver bug: an execution-only barrier after a fill\"; \
               docs/h200/fill-barrier-2026-12-01.txt",
}];

/// The defects of a device with `vendor_id`.
pub fn for_vendor(vendor_id: u32) -> Vec<Quirk> {
    KNOWN
        .iter()
        .filter(|k| k.vendor_id == vendor_id)
        .map(|k| k.quirk)
        .collect()
}

/// What is recorded for barrier `b` on a device with `quirks`.
pub(crate) fn recorded(b: &Barrier, quirks: &[Quirk]) -> Barrier {
    let mut b = *b;
    if quirks.contains(&Quirk::AccessLessBarrierAfterFill) {
        let fill = |stages: PipelineStageFlags2, access: &mut AccessFlags2| {
            if !stages.is_empty() && access.is_empty() {
                *access = AccessFlags2::MEMORY_READ;
            }
        };
        fill(b.src_stage_mask, &mut b.src_access_mask);
        fill(b.dst_stage_mask, &mut b.dst_access_mask);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use vksync::{AccessFlags2 as A, PipelineStageFlags2 as S};

    /// (barrier, quirks, recorded)
    #[test]
    fn only_empty_access_masks_of_named_stages_change() {
        let q = [Quirk::AccessLessBarrierAfterFill];
        let b = |ss, sa, ds, da| Barrier::global(ss, sa, ds, da);
        let cases = [
            // The planners' write-after-read barrier.
            (
                b(S::COMPUTE_SHADER, A::NONE, S::CLEAR, A::NONE),
                &q[..],
                b(S::COMPUTE_SHADER, A::MEMORY_READ, S::CLEAR, A::MEMORY_READ),
            ),
            // One side only.
            (
                b(S::COMPUTE_SHADER, A::SHADER_STORAGE_WRITE, S::CLEAR, A::NONE),
                &q[..],
                b(
                    S::COMPUTE_SHADER,
                    A::SHADER_STORAGE_WRITE,
                    S::CLEAR,
                    A::MEMORY_READ,
                ),
            ),
            // An ownership release's NONE destination stays NONE.
            (
                b(S::COPY, A::NONE, S::NONE, A::NONE),
                &q[..],
                b(S::COPY, A::MEMORY_READ, S::NONE, A::NONE),
            ),
            // Both masks given, or no quirk: as written.
            (
                b(
                    S::COMPUTE_SHADER,
                    A::SHADER_STORAGE_READ,
                    S::CLEAR,
                    A::TRANSFER_WRITE,
                ),
                &q[..],
                b(
                    S::COMPUTE_SHADER,
                    A::SHADER_STORAGE_READ,
                    S::CLEAR,
                    A::TRANSFER_WRITE,
                ),
            ),
            (
                b(S::COMPUTE_SHADER, A::NONE, S::CLEAR, A::NONE),
                &[][..],
                b(S::COMPUTE_SHADER, A::NONE, S::CLEAR, A::NONE),
            ),
        ];
        for (given, quirks, want) in cases {
            assert_eq!(recorded(&given, quirks), want, "{given:?} with {quirks:?}");
        }
        assert_eq!(for_vendor(0x10de), vec![Quirk::AccessLessBarrierAfterFill]);
        assert!(for_vendor(0x10005).is_empty(), "Mesa's lavapipe has none");
    }
}
