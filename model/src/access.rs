//! Which memory each command accesses, in which stage and with which access.
//!
//! This module owns the mapping from [`Command`]s to [`Access`]es (Vulkan
//! spec, per command: `vkCmdCopyBuffer` in `COPY`, `vkCmdFillBuffer` and
//! `vkCmdUpdateBuffer` in `CLEAR`, dispatches in `COMPUTE_SHADER` over each
//! whole bound range, indirect arguments in `DRAW_INDIRECT`, host accesses
//! in `HOST`) and from [`Barrier`]s to [`ResolvedBarrier`]s. It does not
//! decide whether accesses conflict; that is [`crate::checker`].

use crate::checker::{Access, ResolvedBarrier};
use crate::layout::Layout;
use crate::program::{Barrier, BindingAccess, Command};
use crate::scope::{access_scope, exec_scope, Side, Stage, StageAccess};

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
    };

    /// The behaviour of the Khronos validation layer 1.3.239 (Debian 12's
    /// `vulkan-validationlayers`) with synchronization validation on, as
    /// far as this model can reproduce it.
    pub const LAYER_1_3_239: Semantics = Semantics {
        clear_stage: ClearStage::Copy,
        buffer_barrier_global_exec: false,
        rw_binding_write_only: true,
        raw_shortcut_after_ordered_read: true,
        suppress_dispatch_waw: true,
        waw_needs_visibility: true,
        last_write_shortcut: true,
    };
}

/// The accesses of a command, in the order the command makes them.
pub fn accesses(command: &Command, layout: &Layout, sem: Semantics) -> Vec<Access> {
    let at = |region, sa| {
        let r = layout.locate(region);
        Access {
            mem: r.mem,
            range: r.range,
            sa,
        }
    };
    let clear = match sem.clear_stage {
        ClearStage::Clear => StageAccess::ClearTransferWrite,
        ClearStage::Copy => StageAccess::CopyTransferWrite,
    };
    match command {
        Command::Copy { src, dst } => vec![
            at(*src, StageAccess::CopyTransferRead),
            at(*dst, StageAccess::CopyTransferWrite),
        ],
        Command::Fill { dst, .. } | Command::Update { dst, .. } => vec![at(*dst, clear)],
        Command::Dispatch {
            bindings, indirect, ..
        } => {
            let mut out = Vec::with_capacity(bindings.len() * 2 + 1);
            if let Some(ind) = indirect {
                out.push(at(*ind, StageAccess::DrawIndirectIndirectCommandRead));
            }
            for b in bindings {
                let read = match b.access {
                    BindingAccess::Read => true,
                    BindingAccess::ReadWrite => !sem.rw_binding_write_only,
                    BindingAccess::Write => false,
                };
                if read {
                    out.push(at(b.region, StageAccess::ComputeShaderStorageRead));
                }
                if matches!(b.access, BindingAccess::Write | BindingAccess::ReadWrite) {
                    out.push(at(b.region, StageAccess::ComputeShaderStorageWrite));
                }
            }
            out
        }
        Command::HostWrite { dst, .. } => vec![at(*dst, StageAccess::HostWrite)],
        Command::HostRead { src } => vec![at(*src, StageAccess::HostRead)],
        Command::Alloc { .. }
        | Command::Free { .. }
        | Command::Barrier(_)
        | Command::Submit
        | Command::Wait => vec![],
    }
}

/// Computes a barrier's scopes and locates its range.
pub fn resolve_barrier(b: &Barrier, layout: &Layout) -> ResolvedBarrier {
    ResolvedBarrier {
        src_exec: exec_scope(b.src_stage_mask, Side::Src),
        dst_exec: exec_scope(b.dst_stage_mask, Side::Dst),
        src_access: access_scope(b.src_stage_mask, b.src_access_mask, Side::Src),
        dst_access: access_scope(b.dst_stage_mask, b.dst_access_mask, Side::Dst),
        range: b.region.map(|r| layout.locate(r)),
    }
}

/// Whether a command does device work that must be recorded (as opposed to
/// allocator bookkeeping, host accesses and queue operations).
pub fn is_device_command(command: &Command) -> bool {
    matches!(
        command,
        Command::Copy { .. } | Command::Fill { .. } | Command::Update { .. } | Command::Dispatch { .. }
    )
}

/// Whether an access is made by the host.
pub fn is_host(sa: StageAccess) -> bool {
    sa.stage() == Stage::Host
}
