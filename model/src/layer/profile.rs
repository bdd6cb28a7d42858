//! The validation layer versions the model emulates, and what each one
//! does: its [`Semantics`] (which known differences it has) and its
//! [`Emulation`] (how much of a program it looks at).
//!
//! One profile per layer version whose behaviour was established by
//! experiment (`docs/testing.md`); a layer the model does not know is
//! mapped to the nearest profile by [`Layer::for_version`], with the
//! version printed by whoever reports it, so a wrong guess shows.

use crate::semantics::{ClearStage, Semantics};

/// A Khronos validation layer version with a profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Layer {
    /// 1.3.239, Debian 12's `vulkan-validationlayers`.
    V1_3_239,
    /// 1.4.309, Debian 13's `vulkan-validationlayers` (built from the tag
    /// `vulkan-sdk-1.4.309.0`), as `vksync-runtime` configures it: shader
    /// accesses validated, submit-time validation and the message limit
    /// off (`docs/testing.md`, "Layer 1.4.309").
    V1_4_309,
    /// 1.4.363, Debian forky's and sid's `vulkan-validationlayers`, as
    /// `vksync-runtime` configures it: shader accesses validated, full
    /// (submit-time) validation and the message limit off, record-time
    /// validation on (`docs/testing.md`, "Layer 1.4.363"). Against 1.4.309:
    /// D5 fixed (1.4.326), D6 gone, semaphore access scopes as the
    /// specification's (no D20).
    V1_4_363,
}

/// How a layer reads the access scopes of a semaphore signal or wait
/// operation whose stage mask holds `BOTTOM_OF_PIPE` or `TOP_OF_PIPE` (D20).
/// The layer applies them only with submit-time (full) validation, which
/// `vksync-runtime` turns off unless asked (`run --submit-validation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SemaphoreScopes {
    /// The specification: "The first access scope includes all memory
    /// access performed by the device" (signal), "The second access scope
    /// includes all memory access performed by the device" (wait), over
    /// the synchronization scope the stage mask gives (`TOP_OF_PIPE` in a
    /// wait's mask is every stage). vksync, and layer 1.4.363.
    Device,
    /// Only the accesses of the stages named in the mask, `TOP_OF_PIPE`
    /// and `BOTTOM_OF_PIPE` counting as `ALL_COMMANDS` with no access (as
    /// in a barrier): a wait at `TOP_OF_PIPE` makes nothing visible, a
    /// signal at `BOTTOM_OF_PIPE` makes nothing available. Layers 1.3.239
    /// and 1.4.309.
    MaskStages,
}

/// How a layer looks at a program, beyond what it considers ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Emulation {
    /// What orders what, for the layer (its known differences).
    pub semantics: Semantics,
    /// K3: only the first hazard (lowest address) of each access is
    /// reported.
    pub first_hazard_only: bool,
    /// K4: the 1.3.239 range-map bug ([`super::recorded_range`]).
    pub unrecorded_tail: bool,
    /// D10: whether the layer validates and records the storage buffers a
    /// dispatch binds. The 1.4 layers skip them unless their
    /// `syncval_shader_accesses_heuristic` setting is on (which
    /// `vksync-runtime` turns on); without them a dispatch keeps only its
    /// indirect read.
    pub shader_accesses: bool,
    /// D20: the access scopes of semaphore operations (applied by
    /// [`super::on_one_queue`], since [`super::predict`] models the layer
    /// as the runtime configures it, which validates each command buffer
    /// alone).
    pub semaphore_scopes: SemaphoreScopes,
    /// D22: whether the layer validates dynamic rendering. Before 1.3.271
    /// it does not: between `vkCmdBeginRendering` and `vkCmdEndRendering`
    /// it records no load, store or resolve operation and no draw's
    /// attachment access (a draw keeps its vertex, index, indirect and
    /// descriptor accesses), so the instance's implicit dependencies order
    /// nothing either. Render passes are validated by every profile.
    pub dynamic_rendering: bool,
    /// D24 and D26: the vertex buffer bytes a draw reads, as each layer
    /// records them ([`VertexReads`]).
    pub vertex_reads: VertexReads,
    /// D25: the buffer side of a buffer-image copy, as the layers record it
    /// (`MakeRange(bufferOffset, GetBufferSizeFromCopyImage(...))` in
    /// 1.3.239 and 1.4.309): one range from the region's first byte to its
    /// last, row padding (`bufferRowLength` beyond the width) included.
    /// The emulation takes the hull of each buffer side's (stage, access)
    /// over the command's regions (exact for one region, as the suites
    /// generate). `false`: the bytes the rows address.
    pub buffer_image_copy_hull: bool,
    /// D30: a blit's source as the layers record it, the source region's
    /// texels whatever the filter (not the texels beyond it that `LINEAR`
    /// and `CUBIC_EXT` may sample). `false`: what the filter may sample.
    pub blit_region_only: bool,
    /// D31: the layer may skip a pipeline barrier of exactly one global
    /// memory barrier equal to one recorded earlier in the same command
    /// buffer (1.4.338 and later: a barrier already applied to an access
    /// state's write or to one of its reads is not applied to that state
    /// again until the state is next touched, although the barriers between
    /// may have brought another of its reads into the barrier's first
    /// scope). Which states it skips depends on the layer's access states,
    /// which the emulation does not keep: its prediction is then the least
    /// the layer reports, and [`super::predict_most`] the most.
    pub repeated_barriers_skipped: bool,
}

/// The vertex buffer bytes a draw reads, as the model or a layer has them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexReads {
    /// The elements the draw fetches: the specification, the model's
    /// reading (for an instance-rate binding the instances
    /// `firstInstance..firstInstance + instanceCount`).
    Fetched,
    /// D24, the 1.3.239 layer (`RecordDrawVertex`, `GetBufferRange`):
    /// `vertexCount * stride` bytes from `firstVertex` for `vkCmdDraw`
    /// whatever the binding's input rate; for every other draw the binding
    /// from its offset to the buffer's end.
    Layer1_3_239,
    /// D26, the 1.4.309 and 1.4.363 layers: no read of an instance-rate
    /// binding at all (`RecordDrawVertex` skips bindings whose
    /// `inputRate` is not `VERTEX`: observed on lavapipe in both roots,
    /// `tests/layer-versions/d26.trace`) and no vertex read for an
    /// indirect draw; a vertex-rate binding as in D24 for `vkCmdDraw` and
    /// the indexed draws (from the source; the runtime's kernels have no
    /// vertex-rate binding, so this part has not run against the layer).
    Layer1_4,
}

impl Emulation {
    /// The layer's semantics with every reporting detail exact (K1-K4 on as
    /// the layer has them), as the differential suites compare.
    pub fn with_semantics(self, semantics: Semantics) -> Emulation {
        Emulation { semantics, ..self }
    }

    /// The same emulation with shader accesses validated or not (D10).
    pub fn with_shader_accesses(self, shader_accesses: bool) -> Emulation {
        Emulation {
            shader_accesses,
            ..self
        }
    }

    /// The same emulation without the K4 recording bug (to tell when K4
    /// changed a prediction).
    pub fn without_unrecorded_tail(self) -> Emulation {
        Emulation {
            unrecorded_tail: false,
            ..self
        }
    }
}

impl Semantics {
    /// The behaviour of the Khronos validation layer 1.3.239 (Debian 12's
    /// `vulkan-validationlayers`) with synchronization validation on, as
    /// far as a semantics can express it (every known difference with a
    /// toggle: D1-D6, D12, D14, D23, D27, D28).
    pub const LAYER_1_3_239: Semantics = Semantics {
        clear_stage: ClearStage::Copy,
        buffer_barrier_global_exec: false,
        rw_binding_write_only: true,
        raw_shortcut_after_ordered_read: true,
        suppress_dispatch_waw: true,
        waw_needs_visibility: true,
        last_write_shortcut: true,
        transition_needs_visibility: true,
        transition_outside_all_commands_first: true,
        transition_outside_all_commands_second: true,
        transition_write_needs_memory_write: true,
    };

    /// The behaviour of the Khronos validation layer 1.4.309 (Debian 13):
    /// 1.3.239's, except that fills and updates are in `CLEAR` (D4 was
    /// fixed in 1.3.279) and a transition takes an available write as
    /// visible (D23 was fixed in 1.3.269: known from the layer's source,
    /// `WriteState::IsWriteBarrierHazard`; `tests/layer-versions/d23.trace`
    /// draws nothing from 1.4.309 or 1.4.363, run on 2026-12-04), and an
    /// `ALL_COMMANDS` source scope holds a layout transition (D14: the
    /// layer's `SyncExecScope::MakeSrc` adds `SYNC_IMAGE_LAYOUT_TRANSITION`
    /// to an `ALL_COMMANDS` first access scope; from the source too, and
    /// `tests/layer-versions/d14.trace` draws nothing there), and an
    /// earlier `ALL_COMMANDS` second scope orders a later transition (no
    /// D27: `tests/layer-versions/d27-read.trace` and `d27.trace` draw
    /// nothing from 1.4.309 or 1.4.363, run in the Debian roots on
    /// 2026-12-04).
    pub const LAYER_1_4_309: Semantics = Semantics {
        clear_stage: ClearStage::Clear,
        transition_needs_visibility: false,
        transition_outside_all_commands_first: false,
        transition_outside_all_commands_second: false,
        ..Semantics::LAYER_1_3_239
    };

    /// The behaviour of the Khronos validation layer 1.4.363 (Debian forky
    /// and sid): 1.4.309's, except that a buffer barrier's execution
    /// dependency covers all memory (D5, fixed in 1.4.326) and a
    /// write-after-write between dispatch storage writes is reported (D6
    /// gone). Established by experiment (`docs/testing.md`, "Layer
    /// 1.4.363").
    pub const LAYER_1_4_363: Semantics = Semantics {
        buffer_barrier_global_exec: true,
        suppress_dispatch_waw: false,
        ..Semantics::LAYER_1_4_309
    };
}

impl Layer {
    /// Every profile, oldest first.
    pub const ALL: &'static [Layer] = &[Layer::V1_3_239, Layer::V1_4_309, Layer::V1_4_363];

    /// The version this profile was established on, as `MAJOR.MINOR.PATCH`.
    pub fn version(self) -> &'static str {
        match self {
            Layer::V1_3_239 => "1.3.239",
            Layer::V1_4_309 => "1.4.309",
            Layer::V1_4_363 => "1.4.363",
        }
    }

    /// What the layer considers ordered.
    pub fn semantics(self) -> Semantics {
        match self {
            Layer::V1_3_239 => Semantics::LAYER_1_3_239,
            Layer::V1_4_309 => Semantics::LAYER_1_4_309,
            Layer::V1_4_363 => Semantics::LAYER_1_4_363,
        }
    }

    /// How the layer looks at a program.
    pub fn emulation(self) -> Emulation {
        match self {
            Layer::V1_3_239 => Emulation {
                semantics: Semantics::LAYER_1_3_239,
                first_hazard_only: true,
                unrecorded_tail: true,
                shader_accesses: true,
                semaphore_scopes: SemaphoreScopes::MaskStages,
                dynamic_rendering: false,
                vertex_reads: VertexReads::Layer1_3_239,
                buffer_image_copy_hull: true,
                blit_region_only: true,
                repeated_barriers_skipped: false,
            },
            Layer::V1_4_309 => Emulation {
                semantics: Semantics::LAYER_1_4_309,
                first_hazard_only: true,
                unrecorded_tail: false,
                shader_accesses: true,
                semaphore_scopes: SemaphoreScopes::MaskStages,
                dynamic_rendering: true,
                vertex_reads: VertexReads::Layer1_4,
                buffer_image_copy_hull: true,
                blit_region_only: true,
                repeated_barriers_skipped: false,
            },
            // K3 holds still: behind the write-after-write that D6 no
            // longer suppresses, a write-after-read above it stays unreported
            // (`docs/testing.md`, trace d6war).
            Layer::V1_4_363 => Emulation {
                semantics: Semantics::LAYER_1_4_363,
                first_hazard_only: true,
                unrecorded_tail: false,
                shader_accesses: true,
                semaphore_scopes: SemaphoreScopes::Device,
                dynamic_rendering: true,
                vertex_reads: VertexReads::Layer1_4,
                buffer_image_copy_hull: true,
                blit_region_only: true,
                repeated_barriers_skipped: true,
            },
        }
    }

    /// The known differences this profile has, in the order of
    /// [`super::DIFFERENCES`]: those whose toggle its semantics has on, and
    /// D20 when its semaphore access scopes are the mask's stages. (The
    /// differences without a switch are not listed: whether a version has
    /// them is in `docs/semantics.md`'s table.)
    pub fn differences(self) -> Vec<&'static super::Difference> {
        let e = self.emulation();
        super::DIFFERENCES
            .iter()
            .filter(|d| match d.toggle {
                Some(t) => e.semantics.with(t) == e.semantics,
                None => d.id == "D20" && e.semaphore_scopes == SemaphoreScopes::MaskStages,
            })
            .collect()
    }

    /// The profile for a version written `MAJOR.MINOR.PATCH` (as
    /// `vksync check --layer` takes it), or `None` when it is not one.
    pub fn parse(version: &str) -> Option<Layer> {
        let mut it = version.trim().split('.').map(|x| x.parse::<u32>().ok());
        match (it.next(), it.next(), it.next(), it.next()) {
            (Some(Some(a)), Some(Some(b)), Some(Some(c)), None) => Some(Layer::for_version(a, b, c)),
            _ => None,
        }
    }

    /// The profile for a layer reporting `major.minor.patch`: the newest
    /// profile not newer than it (the oldest one for older layers).
    pub fn for_version(major: u32, minor: u32, patch: u32) -> Layer {
        let v = (major, minor, patch);
        let parse = |l: Layer| {
            let mut it = l.version().split('.').map(|x| x.parse::<u32>().unwrap_or(0));
            (
                it.next().unwrap_or(0),
                it.next().unwrap_or(0),
                it.next().unwrap_or(0),
            )
        };
        Layer::ALL
            .iter()
            .copied()
            .rfind(|&l| parse(l) <= v)
            .unwrap_or(Layer::V1_3_239)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_map_to_the_newest_profile_not_newer() {
        // (version, profile)
        let cases: &[(&str, Option<Layer>)] = &[
            ("1.3.204", Some(Layer::V1_3_239)),
            ("1.3.239", Some(Layer::V1_3_239)),
            ("1.4.304", Some(Layer::V1_3_239)),
            ("1.4.309", Some(Layer::V1_4_309)),
            ("1.4.326", Some(Layer::V1_4_309)),
            ("1.4.363", Some(Layer::V1_4_363)),
            ("1.5.0", Some(Layer::V1_4_363)),
            ("1.4", None),
            ("1.4.x", None),
            ("1.4.363.0", None),
        ];
        for &(text, want) in cases {
            assert_eq!(Layer::parse(text), want, "{text}");
        }
        for &l in Layer::ALL {
            assert_eq!(Layer::parse(l.version()), Some(l));
        }
    }

    /// What changed from one profile to the next, field by field: only
    /// the differences established by experiment (`docs/testing.md`).
    #[test]
    fn each_profile_differs_from_the_last_by_what_was_measured() {
        let a = Semantics::LAYER_1_3_239;
        let b = Semantics::LAYER_1_4_309;
        let c = Semantics::LAYER_1_4_363;
        assert_eq!(
            Semantics {
                clear_stage: a.clear_stage,
                transition_needs_visibility: a.transition_needs_visibility,
                transition_outside_all_commands_first: a.transition_outside_all_commands_first,
                transition_outside_all_commands_second: a.transition_outside_all_commands_second,
                ..b
            },
            a,
            "1.4.309: only D4, D14, D23 and D27 (measured)"
        );
        assert_eq!(
            Semantics {
                buffer_barrier_global_exec: b.buffer_barrier_global_exec,
                suppress_dispatch_waw: b.suppress_dispatch_waw,
                ..c
            },
            b,
            "1.4.363: only D5 and D6"
        );
        assert!(c.buffer_barrier_global_exec && !c.suppress_dispatch_waw);
        let scopes: Vec<SemaphoreScopes> = Layer::ALL
            .iter()
            .map(|l| l.emulation().semaphore_scopes)
            .collect();
        use SemaphoreScopes::*;
        assert_eq!(scopes, [MaskStages, MaskStages, Device]);
    }
}
