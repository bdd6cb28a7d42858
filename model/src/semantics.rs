//! The model's options: which reading of the specification, or which
//! validation layer's behaviour, the checker follows.
//!
//! This module owns [`Semantics`], plain data with no behaviour: the
//! defaults are the specification's semantics ([`Semantics::SPEC`]); each
//! field turns on one documented behaviour of the Khronos validation layer
//! (the D-table of [`crate::layer`], `docs/semantics.md`). The layer
//! profiles (`Semantics::LAYER_1_3_239`, ...) are defined beside that table.
//! The fields are read by the access table ([`crate::ir::access`]: D3, D4)
//! and the checker (the others); a checker holds the one `Semantics` it was
//! made with, and nothing passes a second one alongside it.

/// Which stage `vkCmdFillBuffer`/`vkCmdUpdateBuffer` are modelled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ClearStage {
    /// `CLEAR`, as the spec says (they are clear commands) and as the
    /// validation layer does since 1.3.279.
    #[default]
    Clear,
    /// `COPY`, as the validation layer did before 1.3.279 (Debian 12 ships
    /// 1.3.239). Only for comparing with such a layer.
    Copy,
}

/// Model options. The defaults are the spec's semantics; each alternative
/// reproduces one documented behaviour of the Khronos validation layer
/// (see `docs/semantics.md`, "Known differences") so the differential suite
/// can tell an explained disagreement from a bug. The planners always use
/// the spec's semantics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Semantics {
    /// D4: the stage of `vkCmdFillBuffer`/`vkCmdUpdateBuffer`.
    pub clear_stage: ClearStage,
    /// D5: a buffer barrier's execution dependency covers all memory (the
    /// spec; layers since 1.4.326). `false`: only the barrier's range, as
    /// the 1.3.239 layer applies synchronization2 buffer barriers.
    pub buffer_barrier_global_exec: bool,
    /// D3: a read-write storage binding is recorded as a read and a write
    /// (the spec). `true`: as a write only, as the layer does.
    pub rw_binding_write_only: bool,
    /// D1: `true` skips the read-after-write check for a read whose stage
    /// an earlier barrier already ordered after another read of the same
    /// write, as the layer's `read_execution_barriers` shortcut does.
    pub raw_shortcut_after_ordered_read: bool,
    /// D6: `true` drops a write-after-write between two storage-buffer
    /// writes of dispatches, as the 1.3.239 layer does
    /// (`SupressedBoundDescriptorWAW`).
    pub suppress_dispatch_waw: bool,
    /// D2: `true` asks that an earlier write be made *visible* to a later
    /// write's (stage, access), as the validation layer does; the memory
    /// model (and vksync) asks only that it be made *available* before it.
    pub waw_needs_visibility: bool,
    /// D12: `true` keeps, per byte, only the last write and the reads since
    /// it, and checks a write against those reads alone when there are any
    /// (the layer's shortcut); `false` keeps every earlier access that a
    /// later one can still race with, as the definitional semantics does.
    pub last_write_shortcut: bool,
    /// D23: `true` asks, at a layout transition, that an earlier write
    /// reached only through an execution dependency chain (not in the
    /// transition barrier's own first access scope) was also made
    /// *visible* to some (stage, access) of that first access scope, as
    /// layers before 1.3.269 do; the specification (and vksync) asks only
    /// that it was made available ("available memory is automatically made
    /// visible to a layout transition").
    pub transition_needs_visibility: bool,
    /// D14: `true`: no first scope of another command holds a layout
    /// transition, `ALL_COMMANDS` with `MEMORY_WRITE` included (only its
    /// own barrier's second half makes it available), as the 1.3.239
    /// layer has it. The specification (and vksync, and the layers since
    /// 1.4) holds it in an `ALL_COMMANDS` first synchronization scope ("all
    /// operations performed by all commands supported on the queue"), and
    /// its write with it (the layers: with `MEMORY_WRITE` only, D28).
    pub transition_outside_all_commands_first: bool,
    /// D27: `true`: no second scope of an earlier command orders an access
    /// before a later layout transition, `ALL_COMMANDS` included (only the
    /// transition's own barrier's first scopes do), as every layer has it.
    /// The specification (and vksync) holds the transition in an earlier
    /// `ALL_COMMANDS` second synchronization scope.
    pub transition_outside_all_commands_second: bool,
    /// D28: `true`: a later barrier makes a layout transition's write
    /// available (and visible) only when its first access scope holds the
    /// write, which takes `ALL_COMMANDS` with `MEMORY_WRITE`, as the layers
    /// since 1.4 have it (`ALL_COMMANDS:NONE` orders the transition but
    /// makes nothing visible). The specification (and vksync) makes the
    /// write available at the transition itself ("writes performed by a
    /// layout transition are automatically made available"), so any
    /// first synchronization scope that holds the transition is enough.
    pub transition_write_needs_memory_write: bool,
}

/// How a write after a write is decided. The memory model appendix defines
/// a data race and asks only that the earlier write be made *available*
/// before the later one; the synchronization chapter's wording, as the
/// validation layer reads it, also asks that it be made *visible* to the
/// later write's stage and access (`docs/semantics.md`, "Why
/// write-after-write asks for availability only";
/// KhronosGroup/Vulkan-Docs#2792). Ordering under
/// [`Reading::VisibleToWrites`] implies ordering under
/// [`Reading::MemoryModel`]: a visibility operation acts on available
/// values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Reading {
    /// The memory model appendix: the earlier write must be made available
    /// (and, across the host/device boundary, moved to the later write's
    /// domain) before the later write. What `vksync check` reports by
    /// default.
    #[default]
    MemoryModel,
    /// The validation layer's reading of the synchronization chapter: the
    /// earlier write must also be made visible to the later write's stage
    /// and access, as for a read. What the planners plan for by default, so
    /// that a plan is race-free under both readings and draws no
    /// write-after-write from any validation layer.
    VisibleToWrites,
}

impl Default for Semantics {
    fn default() -> Self {
        Semantics::SPEC
    }
}

impl Semantics {
    /// The Vulkan specification's semantics: what the checker and the
    /// planners use.
    pub const SPEC: Semantics = Semantics {
        clear_stage: ClearStage::Clear,
        buffer_barrier_global_exec: true,
        rw_binding_write_only: false,
        raw_shortcut_after_ordered_read: false,
        suppress_dispatch_waw: false,
        waw_needs_visibility: false,
        last_write_shortcut: false,
        transition_needs_visibility: false,
        transition_outside_all_commands_first: false,
        transition_outside_all_commands_second: false,
        transition_write_needs_memory_write: false,
    };

    /// The specification under `reading` (the checker's side of D2).
    pub const fn for_reading(reading: Reading) -> Semantics {
        Semantics {
            waw_needs_visibility: matches!(reading, Reading::VisibleToWrites),
            ..Semantics::SPEC
        }
    }

    /// Which reading of write-after-write this semantics follows.
    pub const fn reading(self) -> Reading {
        if self.waw_needs_visibility {
            Reading::VisibleToWrites
        } else {
            Reading::MemoryModel
        }
    }
}
