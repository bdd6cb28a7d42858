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
    /// toggle: D1-D6, D12).
    pub const LAYER_1_3_239: Semantics = Semantics {
        clear_stage: ClearStage::Copy,
        buffer_barrier_global_exec: false,
        rw_binding_write_only: true,
        raw_shortcut_after_ordered_read: true,
        suppress_dispatch_waw: true,
        waw_needs_visibility: true,
        last_write_shortcut: true,
    };

    /// The behaviour of the Khronos validation layer 1.4.309 (Debian 13):
    /// 1.3.239's, except that fills and updates are in `CLEAR` (D4 was
    /// fixed in 1.3.279).
    pub const LAYER_1_4_309: Semantics = Semantics {
        clear_stage: ClearStage::Clear,
        ..Semantics::LAYER_1_3_239
    };
}

impl Layer {
    /// Every profile, oldest first.
    pub const ALL: &'static [Layer] = &[Layer::V1_3_239, Layer::V1_4_309];

    /// The version this profile was established on, as `MAJOR.MINOR.PATCH`.
    pub fn version(self) -> &'static str {
        match self {
            Layer::V1_3_239 => "1.3.239",
            Layer::V1_4_309 => "1.4.309",
        }
    }

    /// What the layer considers ordered.
    pub fn semantics(self) -> Semantics {
        match self {
            Layer::V1_3_239 => Semantics::LAYER_1_3_239,
            Layer::V1_4_309 => Semantics::LAYER_1_4_309,
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
            },
            Layer::V1_4_309 => Emulation {
                semantics: Semantics::LAYER_1_4_309,
                first_hazard_only: true,
                unrecorded_tail: false,
                shader_accesses: true,
            },
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
