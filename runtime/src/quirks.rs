//! Driver workarounds: the one table of driver behaviours that depart
//! from the Vulkan specification and that the runtime records around
//! ([`KNOWN`]), the one function that changes what is recorded
//! ([`recorded`], per barrier), and the program as recorded
//! ([`recorded_program`]): what every prediction of what the validation
//! layer reports must judge, since the layer sees the recorded barriers,
//! not the program's.
//!
//! A workaround only ever *strengthens* what a program asks for, so a
//! program the model finds correct stays correct; it may hide from the
//! device a weakness of a program run as written (`vksync run
//! --as-written`), which is why every run says which workarounds were on
//! ([`crate::DeviceInfo::quirks`]) and `VKSYNC_DRIVER_WORKAROUNDS=0` (or
//! [`crate::DeviceOptions::workarounds`]) turns them off to see the
//! driver as it is. The model, the planners and the checkers know nothing
//! of this: they describe the specification; whoever compares them with a
//! layer's report on a device asks [`recorded_program`] (or
//! [`crate::Device::recorded`]) for the program the layer saw.
//!
//! Invariant: [`recorded_dependency`] is the only path from a model
//! dependency to what the recorder records (the recorder calls it for
//! `vkCmdPipelineBarrier2`, `vkCmdSetEvent2` and `vkCmdWaitEvents2`, and
//! [`recorded_program`] calls it for the same three commands), so the
//! program as recorded and the recording cannot drift apart. Synchronization-1
//! event waits (`vkCmdWaitEvents`) are recorded bit for bit, without
//! workarounds: the defect was measured on `vkCmdPipelineBarrier2` only.

use std::borrow::Cow;
use vksync::{
    AccessFlags2, Barrier, Command, Dependency, ObjectId, PipelineStageFlags2, Program, ProgramError,
};

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
    /// Its name in `VKSYNC_DRIVER_WORKAROUNDS=force:NAME,...`.
    pub name: &'static str,
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
    name: "access-less-barrier-after-fill",
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

/// Which workarounds a device records with ([`crate::DeviceOptions::workarounds`]).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Workarounds {
    /// The chosen device's known defects ([`for_vendor`]); the default.
    #[default]
    Known,
    /// None: barriers are recorded as given (`VKSYNC_DRIVER_WORKAROUNDS=0`).
    Off,
    /// Exactly these, whatever the device: a **test switch**
    /// (`VKSYNC_DRIVER_WORKAROUNDS=force:NAME[,NAME...]`), so that the path
    /// from a workaround to the layer's report and the model's prediction
    /// can be exercised on a device without the defect (lavapipe).
    Force(Vec<Quirk>),
}

impl Workarounds {
    /// The value of `VKSYNC_DRIVER_WORKAROUNDS`: unset or empty: `Known`;
    /// `0`: `Off`; `force:NAME,...` with names of [`KNOWN`]: `Force`
    /// (`force:` alone forces none). `None` for anything else.
    pub fn parse(value: Option<&str>) -> Option<Workarounds> {
        match value {
            None | Some("") => Some(Workarounds::Known),
            Some("0") => Some(Workarounds::Off),
            Some(v) => {
                let names = v.strip_prefix("force:")?;
                names
                    .split(',')
                    .filter(|n| !n.is_empty())
                    .map(|n| KNOWN.iter().find(|k| k.name == n).map(|k| k.quirk))
                    .collect::<Option<Vec<_>>>()
                    .map(Workarounds::Force)
            }
        }
    }

    /// The defects recorded around on a device with `vendor_id`.
    pub fn quirks(&self, vendor_id: u32) -> Vec<Quirk> {
        match self {
            Workarounds::Known => for_vendor(vendor_id),
            Workarounds::Off => Vec::new(),
            Workarounds::Force(q) => q.clone(),
        }
    }
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

/// What is recorded for dependency `dep` on a device with `quirks`: each
/// barrier through [`recorded`], and a barrier over bytes of an image
/// (`is_image` of its object) that is not an image barrier (a planner's
/// barrier in buffer form) as a global one: an image has no `VkBuffer`
/// and a `VkImageMemoryBarrier2` would have to name its layout, while a
/// memory barrier orders at least as much. The recorder's one path from a
/// model dependency to Vulkan barriers, and [`recorded_program`]'s.
pub(crate) fn recorded_dependency<'a>(
    dep: &'a Dependency,
    quirks: &[Quirk],
    is_image: &dyn Fn(ObjectId) -> bool,
) -> Cow<'a, Dependency> {
    let barriers: Vec<Barrier> = dep
        .barriers
        .iter()
        .map(|b| {
            let mut b = recorded(b, quirks);
            if b.image.is_none() && b.region.is_some_and(|r| is_image(r.object)) {
                b.region = None;
            }
            b
        })
        .collect();
    if barriers == dep.barriers {
        Cow::Borrowed(dep)
    } else {
        Cow::Owned(Dependency { barriers })
    }
}

/// The program the runtime records for `program` on a device with
/// `quirks`: every dependency of `vkCmdPipelineBarrier2`,
/// `vkCmdSetEvent2` and `vkCmdWaitEvents2` through
/// [`recorded_dependency`], every other command as given, command indices
/// unchanged. This is the program the validation layer judges, so every
/// prediction of its report must be made on it. Borrowed when no
/// workaround changes anything (always, with no quirk).
///
/// An error only if the model refuses a recorded command, which would be
/// a workaround recording something invalid (a bug of this module).
pub fn recorded_program<'a>(
    program: &'a Program,
    quirks: &[Quirk],
) -> Result<Cow<'a, Program>, ProgramError> {
    if quirks.is_empty() && program.images().is_empty() {
        return Ok(Cow::Borrowed(program));
    }
    let is_image = |o: ObjectId| program.image(o).is_some();
    let mut out: Option<Program> = None;
    for (i, c) in program.commands().iter().enumerate() {
        let changed = match c {
            Command::Barrier(dep) => match recorded_dependency(dep, quirks, &is_image) {
                Cow::Owned(d) => Some(Command::Barrier(d)),
                Cow::Borrowed(_) => None,
            },
            Command::SetEvent { event, dependency } => {
                match recorded_dependency(dependency, quirks, &is_image) {
                    Cow::Owned(d) => Some(Command::SetEvent {
                        event: *event,
                        dependency: d,
                    }),
                    Cow::Borrowed(_) => None,
                }
            }
            Command::WaitEvents { waits } => {
                let new: Vec<_> = waits
                    .iter()
                    .map(|w| {
                        let mut w = w.clone();
                        w.dependency = recorded_dependency(&w.dependency, quirks, &is_image).into_owned();
                        w
                    })
                    .collect();
                (new != *waits).then_some(Command::WaitEvents { waits: new })
            }
            _ => None,
        };
        if let Some(c) = changed {
            // A set's dependency is checked against the program's earlier
            // commands only, and its waits are replaced after it with the
            // same function, so each replacement sees a matching set.
            out.get_or_insert_with(|| program.clone()).replace(i, c)?;
        }
    }
    Ok(out.map_or(Cow::Borrowed(program), Cow::Owned))
}

/// The indices of the commands that differ between `program` and
/// `recorded` ([`recorded_program`] of it): where a workaround changed
/// what the device was given.
pub fn changed_commands(program: &Program, recorded: &Program) -> Vec<usize> {
    program
        .commands()
        .iter()
        .zip(recorded.commands())
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, _)| i)
        .collect()
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
        assert_eq!(
            Workarounds::Force(q.to_vec()).quirks(0x10005),
            q.to_vec(),
            "forced on any device"
        );
        assert!(for_vendor(0x10005).is_empty(), "Mesa's lavapipe has none");
    }

    /// (trace, the trace as recorded with the quirk, or `None`: unchanged).
    /// Every kind of dependency the recorder applies workarounds to
    /// changes, with the same function; a synchronization-1 wait does not.
    #[test]
    fn the_program_as_recorded() {
        let head = "buffer a 256\nbuffer b 256\nevent e\nevent f\n";
        let cases: [(&str, Option<&str>); 5] = [
            (
                "fill a 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:NONE\ncopy a -> b\n",
                Some("fill a 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:MEMORY_READ\ncopy a -> b\n"),
            ),
            (
                "fill a 1\nset-event e CLEAR:NONE -> COPY:NONE a\nwait-events e CLEAR:NONE -> COPY:NONE a\ncopy a -> b\n",
                Some(
                    "fill a 1\nset-event e CLEAR:MEMORY_READ -> COPY:MEMORY_READ a\n\
                     wait-events e CLEAR:MEMORY_READ -> COPY:MEMORY_READ a\ncopy a -> b\n",
                ),
            ),
            (
                "fill a 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nset-event f CLEAR:NONE -> COPY:NONE\n\
                 wait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ, f CLEAR:NONE -> COPY:NONE\ncopy a -> b\n",
                Some(
                    "fill a 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\n\
                     set-event f CLEAR:MEMORY_READ -> COPY:MEMORY_READ\n\
                     wait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ, f CLEAR:MEMORY_READ -> COPY:MEMORY_READ\n\
                     copy a -> b\n",
                ),
            ),
            // vkCmdWaitEvents (synchronization 1) is recorded bit for bit.
            (
                "fill a 1\nset-event1 e TRANSFER\nwait-events1 e TRANSFER:NONE -> TRANSFER:NONE\ncopy a -> b\n",
                None,
            ),
            (
                "fill a 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a -> b\n",
                None,
            ),
        ];
        let parse = |t: &str| {
            vksync::trace::parse(&format!("{head}{t}"))
                .unwrap_or_else(|e| panic!("{e}\n{t}"))
                .program
        };
        let q = [Quirk::AccessLessBarrierAfterFill];
        for (given, want) in cases {
            let p = parse(given);
            let got = recorded_program(&p, &q).unwrap_or_else(|e| panic!("{e}\n{given}"));
            match want {
                Some(w) => {
                    let w = parse(w);
                    assert_eq!(*got, w, "{given}");
                    assert!(matches!(got, Cow::Owned(_)), "{given}");
                    let changed: Vec<usize> = p
                        .commands()
                        .iter()
                        .zip(w.commands())
                        .enumerate()
                        .filter(|(_, (a, b))| a != b)
                        .map(|(i, _)| i)
                        .collect();
                    assert!(!changed.is_empty(), "{given}");
                    assert_eq!(changed_commands(&p, &got), changed, "{given}");
                }
                None => assert!(matches!(got, Cow::Borrowed(_)), "{given}: {got:?}"),
            }
            // Recording the recorded program changes nothing (so a suite
            // may run the program as recorded).
            assert!(
                matches!(recorded_program(&got, &q).unwrap(), Cow::Borrowed(_)),
                "{given}"
            );
            // No quirk: always the program itself.
            assert!(
                matches!(recorded_program(&p, &[]).unwrap(), Cow::Borrowed(_)),
                "{given}"
            );
        }
    }

    /// `VKSYNC_DRIVER_WORKAROUNDS` values.
    #[test]
    fn workaround_settings() {
        let cases: [(Option<&str>, Option<Workarounds>); 7] = [
            (None, Some(Workarounds::Known)),
            (Some(""), Some(Workarounds::Known)),
            (Some("0"), Some(Workarounds::Off)),
            (
                Some("force:access-less-barrier-after-fill"),
                Some(Workarounds::Force(vec![Quirk::AccessLessBarrierAfterFill])),
            ),
            (Some("force:"), Some(Workarounds::Force(Vec::new()))),
            (Some("force:no-such-thing"), None),
            (Some("1"), None),
        ];
        for (value, want) in cases {
            assert_eq!(Workarounds::parse(value), want, "{value:?}");
        }
    }
}
