//! What the Khronos validation layer's synchronization validation reports,
//! as far as the model can reproduce it: the table of known differences
//! between the layer and the specification, and the explanation of a layer
//! message by the difference that predicts it.
//!
//! This module owns the D-list. `docs/semantics.md` prints the same table
//! (a test checks that every row here has its row there, with the same
//! title), `vksync run` names the row that explains a message, and the
//! property suites classify disagreements by it. Each difference the model
//! can reproduce has a [`Toggle`] on [`Semantics`]; [`Semantics::LAYER_1_3_239`]
//! turns every toggle on. The toggles apply to image layout transitions as
//! the layer treats a transition (a write checked against its barrier's
//! first scopes): D12 and D5 do, D2 does not at the transition (availability
//! is enough for the specification), D23 does only there (the 1.3.239
//! layer wants a write reached through a chain made visible to the
//! transition barrier's first access scope), D1 and D2 do after it; D14
//! (1.3.239: no `ALL_COMMANDS` first scope of another barrier holds a
//! transition) and D27 (1.3.239 too: no `ALL_COMMANDS` second scope of an
//! earlier barrier reaches one; the 1.4 layers order it) are the layer's readings of `ALL_COMMANDS`
//! at a transition, each a toggle, and so is D28 (every layer: a later
//! barrier makes a transition's write available only with `ALL_COMMANDS`
//! and `MEMORY_WRITE`, where the specification makes it available at
//! once); D13 is the layer's own way with sibling barriers, not
//! reproduced. D22
//! (no dynamic rendering before 1.3.271) is not a semantics but how much
//! of a program the layer sees: [`Emulation::dynamic_rendering`]. It does
//! not talk to a layer: the runtime captures messages, this module only
//! predicts and explains them.

use crate::hazard::check_with;
use crate::ir::program::Program;
pub(crate) mod emulate;
mod profile;

pub use emulate::{on_one_queue, predict, predict_most, recorded_range, without_repeated_barriers, OneQueue};
pub use profile::{Emulation, Layer, SemaphoreScopes, VertexReads};

use crate::semantics::{ClearStage, Semantics};
use crate::sync::checker::HazardKind;

/// A layer behaviour that the model reproduces by changing one field of
/// [`Semantics`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toggle {
    /// D1: [`Semantics::raw_shortcut_after_ordered_read`].
    RawShortcut,
    /// D2: [`Semantics::waw_needs_visibility`].
    WawVisibility,
    /// D3: [`Semantics::rw_binding_write_only`].
    RwBindingWriteOnly,
    /// D4: [`Semantics::clear_stage`] = [`ClearStage::Copy`].
    ClearInCopy,
    /// D5: [`Semantics::buffer_barrier_global_exec`] = `false`.
    BufferBarrierExecRange,
    /// D6: [`Semantics::suppress_dispatch_waw`].
    SuppressDispatchWaw,
    /// D12: [`Semantics::last_write_shortcut`].
    LastWriteShortcut,
    /// D23: [`Semantics::transition_needs_visibility`].
    TransitionVisibility,
    /// D14: [`Semantics::transition_outside_all_commands_first`].
    TransitionOutsideAllCommandsFirst,
    /// D27: [`Semantics::transition_outside_all_commands_second`].
    TransitionOutsideAllCommandsSecond,
    /// D28: [`Semantics::transition_write_needs_memory_write`].
    TransitionWriteNeedsMemoryWrite,
}

impl Toggle {
    /// `sem` with this layer behaviour turned on.
    pub fn apply(self, sem: Semantics) -> Semantics {
        match self {
            Toggle::RawShortcut => Semantics {
                raw_shortcut_after_ordered_read: true,
                ..sem
            },
            Toggle::WawVisibility => Semantics {
                waw_needs_visibility: true,
                ..sem
            },
            Toggle::RwBindingWriteOnly => Semantics {
                rw_binding_write_only: true,
                ..sem
            },
            Toggle::ClearInCopy => Semantics {
                clear_stage: ClearStage::Copy,
                ..sem
            },
            Toggle::BufferBarrierExecRange => Semantics {
                buffer_barrier_global_exec: false,
                ..sem
            },
            Toggle::SuppressDispatchWaw => Semantics {
                suppress_dispatch_waw: true,
                ..sem
            },
            Toggle::LastWriteShortcut => Semantics {
                last_write_shortcut: true,
                ..sem
            },
            Toggle::TransitionVisibility => Semantics {
                transition_needs_visibility: true,
                ..sem
            },
            Toggle::TransitionOutsideAllCommandsFirst => Semantics {
                transition_outside_all_commands_first: true,
                ..sem
            },
            Toggle::TransitionOutsideAllCommandsSecond => Semantics {
                transition_outside_all_commands_second: true,
                ..sem
            },
            Toggle::TransitionWriteNeedsMemoryWrite => Semantics {
                transition_write_needs_memory_write: true,
                ..sem
            },
        }
    }
}

/// One known difference between the specification and the layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difference {
    /// `D1`, `D2`, ...
    pub id: &'static str,
    /// One line, as the docs table's "difference" column starts.
    pub title: &'static str,
    /// How the model reproduces it, if it can.
    pub toggle: Option<Toggle>,
}

/// The known differences, in the order `docs/semantics.md` lists them.
pub const DIFFERENCES: &[Difference] = &[
    Difference {
        id: "D1",
        title: "read-after-write skipped after an ordered read",
        toggle: Some(Toggle::RawShortcut),
    },
    Difference {
        id: "D2",
        title: "write-after-write needs visibility",
        toggle: Some(Toggle::WawVisibility),
    },
    Difference {
        id: "D3",
        title: "a read-write binding is a write only",
        toggle: Some(Toggle::RwBindingWriteOnly),
    },
    Difference {
        id: "D4",
        title: "fill and update in COPY",
        toggle: Some(Toggle::ClearInCopy),
    },
    Difference {
        id: "D5",
        title: "buffer barrier execution dependency limited to its range",
        toggle: Some(Toggle::BufferBarrierExecRange),
    },
    Difference {
        id: "D6",
        title: "write-after-write between dispatch storage writes suppressed",
        toggle: Some(Toggle::SuppressDispatchWaw),
    },
    Difference {
        id: "D7",
        title: "no checks inside one command",
        toggle: None,
    },
    Difference {
        id: "D8",
        title: "hazards across command buffers not reported by default",
        toggle: None,
    },
    Difference {
        id: "D9",
        title: "host accesses not modelled",
        toggle: None,
    },
    Difference {
        id: "D10",
        title: "shader descriptor accesses skipped by default",
        toggle: None,
    },
    Difference {
        id: "D11",
        title: "TOP_OF_PIPE and BOTTOM_OF_PIPE chain as stages",
        toggle: None,
    },
    Difference {
        id: "D12",
        title: "a write is checked against the reads since the last write only",
        toggle: Some(Toggle::LastWriteShortcut),
    },
    Difference {
        id: "D13",
        title: "a sibling barrier orders a layout transition",
        toggle: None,
    },
    Difference {
        id: "D14",
        title: "ALL_COMMANDS with MEMORY_WRITE holds a layout transition only since 1.4",
        toggle: Some(Toggle::TransitionOutsideAllCommandsFirst),
    },
    Difference {
        id: "D15",
        title: "a batch's signal synchronizes one waiting batch",
        toggle: None,
    },
    Difference {
        id: "D16",
        title: "queue family ownership not validated",
        toggle: None,
    },
    Difference {
        id: "D17",
        title: "a host wait covers only the waited queue's own work",
        toggle: None,
    },
    Difference {
        id: "D18",
        title: "an event's first scope judged at the wait",
        toggle: None,
    },
    Difference {
        id: "D19",
        title: "a synchronization-1 wait's first access scope cut per event",
        toggle: None,
    },
    Difference {
        id: "D20",
        title: "a semaphore's access scopes limited to the stages in its mask",
        toggle: None,
    },
    Difference {
        id: "D21",
        title: "a chained read unordered once its write was made visible to the writer",
        toggle: None,
    },
    Difference {
        id: "D22",
        title: "dynamic rendering not validated",
        toggle: None,
    },
    Difference {
        id: "D23",
        title: "a layout transition after a chained write needs visibility",
        toggle: Some(Toggle::TransitionVisibility),
    },
    Difference {
        id: "D24",
        title: "a draw's vertex buffer range",
        toggle: None,
    },
    Difference {
        id: "D25",
        title: "a buffer-image copy's buffer side as one range",
        toggle: None,
    },
    Difference {
        id: "D26",
        title: "no read of an instance-rate vertex binding",
        toggle: None,
    },
    Difference {
        id: "D27",
        title: "an ALL_COMMANDS second scope does not reach a later layout transition",
        toggle: Some(Toggle::TransitionOutsideAllCommandsSecond),
    },
    Difference {
        id: "D28",
        title: "a layout transition's write is available to a later barrier only with MEMORY_WRITE",
        toggle: Some(Toggle::TransitionWriteNeedsMemoryWrite),
    },
    Difference {
        id: "D29",
        title: "an event's layout transition performed at the wait",
        toggle: None,
    },
    Difference {
        id: "D30",
        title: "a LINEAR or CUBIC_EXT blit reads its source region only",
        toggle: None,
    },
    Difference {
        id: "D31",
        title: "a repeated global memory barrier may be skipped",
        toggle: None,
    },
];

/// The known difference `id` of [`DIFFERENCES`] (an id this module names).
fn difference(id: &str) -> &'static Difference {
    DIFFERENCES
        .iter()
        .find(|d| d.id == id)
        .expect("an id of DIFFERENCES")
}

impl Semantics {
    /// The specification with one layer behaviour turned on.
    pub fn with(self, toggle: Toggle) -> Semantics {
        toggle.apply(self)
    }
}

/// Why the layer reported a hazard, according to the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Explanation {
    /// The specification predicts it: a real hazard, which vksync reports
    /// too.
    Spec,
    /// One known difference alone predicts it.
    Difference(&'static Difference),
    /// Only the layer's whole profile predicts it (several differences
    /// together, or how much of the program the layer looks at).
    Profile,
    /// Nothing the model knows predicts it.
    Unexplained,
}

/// Explains a layer report of `kind` at command `command` of `program`,
/// from a layer emulated by `emulation`: first the specification, then
/// each known difference of that layer's profile alone (one whose toggle
/// the profile has on: 1.4.309 has no D4, so a fill's report there is not
/// put down to D4), then the whole emulation ([`predict`]). For many
/// reports of one program, [`Explainer`] checks the program once per
/// reading instead of once per report.
pub fn explain(program: &Program, command: usize, kind: HazardKind, emulation: &Emulation) -> Explanation {
    Explainer::new(program, emulation).explain(command, kind)
}

/// [`explain`] for many reports of one program: each reading's hazards
/// (the specification's, each difference's alone, the profile's) are found
/// once, when a report first needs them, and kept as (command, kind)
/// sets. `vksync check`'s layer notes explain every predicted hazard the
/// checker does not report; one check per report per reading made that
/// quadratic (a 20,000-line stream took over two minutes instead of 0.1 s).
pub struct Explainer<'a> {
    program: &'a Program,
    emulation: &'a Emulation,
    /// The (command, kind) pairs each checked reading predicts, by reading.
    seen: Vec<(Semantics, std::collections::HashSet<(usize, HazardKind)>)>,
    /// The whole emulation's, once asked.
    profile: Option<std::collections::HashSet<(usize, HazardKind)>>,
    /// The whole emulation's without the barriers D31 may skip, once asked.
    without_repeats: Option<std::collections::HashSet<(usize, HazardKind)>>,
}

impl<'a> Explainer<'a> {
    /// An explainer of `program`'s reports from a layer emulated by
    /// `emulation`; nothing is checked yet.
    pub fn new(program: &'a Program, emulation: &'a Emulation) -> Explainer<'a> {
        Explainer {
            program,
            emulation,
            seen: Vec::new(),
            profile: None,
            without_repeats: None,
        }
    }

    fn predicts(&mut self, sem: Semantics, key: (usize, HazardKind)) -> bool {
        let i = match self.seen.iter().position(|(s, _)| *s == sem) {
            Some(i) => i,
            None => {
                let keys = check_with(self.program, sem)
                    .map(|hs| hs.iter().map(|h| (h.command, h.kind)).collect())
                    .unwrap_or_default();
                self.seen.push((sem, keys));
                self.seen.len() - 1
            }
        };
        self.seen[i].1.contains(&key)
    }

    /// Whether D31's bound ([`predict_most`]) holds `key`.
    fn without_repeats_predicts(&mut self, key: (usize, HazardKind)) -> bool {
        let (program, emulation) = (self.program, self.emulation);
        self.without_repeats
            .get_or_insert_with(|| {
                predict_most(program, emulation)
                    .map(|hs| hs.iter().map(|h| (h.command, h.kind)).collect())
                    .unwrap_or_default()
            })
            .contains(&key)
    }

    /// Why the layer reported a hazard of `kind` at `command` ([`explain`]).
    pub fn explain(&mut self, command: usize, kind: HazardKind) -> Explanation {
        let key = (command, kind);
        if self.predicts(Semantics::SPEC, key) {
            return Explanation::Spec;
        }
        for d in DIFFERENCES {
            if let Some(t) = d.toggle {
                let in_profile = self.emulation.semantics.with(t) == self.emulation.semantics;
                if in_profile && self.predicts(Semantics::SPEC.with(t), key) {
                    return Explanation::Difference(d);
                }
            }
        }
        let (program, emulation) = (self.program, self.emulation);
        let by_profile = self
            .profile
            .get_or_insert_with(|| {
                predict(program, emulation)
                    .map(|hs| hs.iter().map(|h| (h.command, h.kind)).collect())
                    .unwrap_or_default()
            })
            .contains(&key);
        if by_profile || self.predicts(emulation.semantics, key) {
            Explanation::Profile
        } else if emulation.repeated_barriers_skipped && self.without_repeats_predicts(key) {
            Explanation::Difference(difference("D31"))
        } else {
            Explanation::Unexplained
        }
    }
}

/// The program with the bits added that the 1.3.239 layer needs to see a
/// hazard-free plan as hazard-free: barriers naming `CLEAR` also name
/// `COPY` (D4: that layer models `vkCmdFillBuffer` and `vkCmdUpdateBuffer`
/// as copies), and a barrier that makes writes available also makes them
/// visible to every write of its destination stages (`MEMORY_WRITE`; D2:
/// the layer wants a write-after-write made visible), and an
/// `ALL_COMMANDS` first scope has `MEMORY_WRITE` (D28: the 1.4 layers
/// make an earlier layout transition's write available only so). Only
/// adds bits, so a
/// program without hazards stays without hazards; for benchmarks and for
/// runs where the layer's silence matters more than minimal barriers.
pub fn quiet_for_layer(p: &Program) -> Program {
    use crate::vk::flags::{AccessFlags2 as A, PipelineStageFlags2 as S};
    let mut out = p.clone();
    for c in &mut out.commands {
        if let crate::ir::program::Command::Barrier(dep) = c {
            for b in &mut dep.barriers {
                if b.src_stage_mask.contains(S::CLEAR) {
                    b.src_stage_mask |= S::COPY;
                }
                if b.src_stage_mask.contains(S::ALL_COMMANDS) {
                    b.src_access_mask |= A::MEMORY_WRITE;
                }
                if b.dst_stage_mask.contains(S::CLEAR) {
                    b.dst_stage_mask |= S::COPY;
                }
                let makes_available = b.src_access_mask.intersects(
                    A::MEMORY_WRITE
                        | A::SHADER_WRITE
                        | A::SHADER_STORAGE_WRITE
                        | A::TRANSFER_WRITE
                        | A::HOST_WRITE,
                );
                if makes_available && !b.dst_stage_mask.is_empty() {
                    b.dst_access_mask |= A::MEMORY_WRITE;
                }
            }
        }
    }
    out
}

/// The hazard kind of a `SYNC-HAZARD-*` message id.
pub fn kind_of_message(id_name: &str) -> Option<HazardKind> {
    [
        HazardKind::ReadAfterWrite,
        HazardKind::WriteAfterRead,
        HazardKind::WriteAfterWrite,
    ]
    .into_iter()
    .find(|k| k.message_id() == id_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_plans_are_clean_under_the_layer_profile() {
        let text = include_str!("../../../examples/ncnn-batch-scale.trace");
        let t = crate::trace::parse(text).unwrap();
        let plan = crate::plan::plan(
            &t.program,
            crate::plan::PlanOptions::new(crate::plan::PlannerKind::Offline)
                .reading(crate::semantics::Reading::MemoryModel),
        )
        .unwrap()
        .program;
        assert!(
            !check_with(&plan, Semantics::LAYER_1_3_239).unwrap().is_empty(),
            "D2 shows"
        );
        let quiet = quiet_for_layer(&plan);
        assert!(check_with(&quiet, Semantics::SPEC).unwrap().is_empty());
        assert!(check_with(&quiet, Semantics::LAYER_1_3_239).unwrap().is_empty());
    }

    #[test]
    fn the_profile_is_every_toggle() {
        let all = DIFFERENCES
            .iter()
            .filter_map(|d| d.toggle)
            .fold(Semantics::SPEC, Semantics::with);
        assert_eq!(all, Semantics::LAYER_1_3_239);
    }

    /// `docs/semantics.md`'s profile table names, for each profile, the
    /// differences [`Layer::differences`] gives it: the semantics column
    /// lists the switched ones (`D1-D3, D5, D6, D12`), the last column
    /// names D20 (or "no D20").
    #[test]
    fn the_docs_profile_table_matches_each_profile() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/semantics.md");
        let docs = std::fs::read_to_string(path).expect("docs/semantics.md");
        // "D1-D3, D5" -> [1, 2, 3, 5]
        let ids = |text: &str| -> Vec<u32> {
            let mut out = Vec::new();
            for part in text.split(',').map(str::trim) {
                let num = |t: &str| t.trim().trim_start_matches('D').parse::<u32>().ok();
                match part.split_once('-') {
                    Some((a, b)) => {
                        if let (Some(a), Some(b)) = (num(a), num(b)) {
                            out.extend(a..=b);
                        }
                    }
                    None => out.extend(num(part)),
                }
            }
            out
        };
        for &layer in Layer::ALL {
            let start = format!("| `Layer::{layer:?}` |");
            let row = docs
                .lines()
                .find(|l| l.starts_with(&start))
                .unwrap_or_else(|| panic!("docs/semantics.md has no profile row `{start}`"));
            let cols: Vec<&str> = row.split('|').map(str::trim).collect();
            // cols: "", profile, layer, semantics, how it looks, ""
            let switched = cols[3].split_once(": ").map_or("", |(_, r)| r);
            let switched = switched.split(" (").next().unwrap_or("");
            let want: Vec<u32> = layer
                .differences()
                .iter()
                .filter(|d| d.toggle.is_some())
                .filter_map(|d| d.id[1..].parse().ok())
                .collect();
            assert_eq!(ids(switched), want, "{row}");
            let d20 = layer.differences().iter().any(|d| d.id == "D20");
            assert_eq!(cols[4].contains("(D20"), d20, "{row}");
            assert_eq!(cols[4].contains("no D20"), !d20, "{row}");
        }
    }

    #[test]
    fn the_docs_table_has_every_row() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/semantics.md");
        let docs = std::fs::read_to_string(path).expect("docs/semantics.md");
        for d in DIFFERENCES {
            let row = format!("| {} | {}", d.id, d.title);
            assert!(
                docs.contains(&row),
                "docs/semantics.md has no row starting `{row}`"
            );
        }
    }
}
