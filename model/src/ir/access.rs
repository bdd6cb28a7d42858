//! Which memory each command accesses, in which stage and with which access.
//!
//! This module owns the mapping from [`Command`]s to [`Access`]es (Vulkan
//! spec, per command: `vkCmdCopyBuffer` and the image copies in `COPY`, `vkCmdFillBuffer` and
//! `vkCmdUpdateBuffer` in `CLEAR`, dispatches in `COMPUTE_SHADER` over each
//! whole bound range, indirect arguments in `DRAW_INDIRECT`, host accesses
//! in `HOST`, a barrier's image layout transitions as the pseudo write
//! `IMAGE_LAYOUT_TRANSITION` over the barrier's region). It does not decide
//! whether accesses conflict, nor how a transition is ordered; that is
//! [`crate::sync::checker`] (and [`crate::spec`]).

use crate::ir::layout::Layout;
use crate::ir::layout::MemId;
use crate::ir::program::{ByteRange, Command, Dependency, Region};
use crate::semantics::{ClearStage, Semantics};
use crate::vk::scope::{Stage, StageAccess};

/// One memory access of a command: a (stage, access) pair over a region of
/// an object, and the memory range behind that region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Access {
    /// The bytes in terms of the object the command names.
    pub region: Region,
    /// The memory object behind the region.
    pub mem: MemId,
    /// The bytes in terms of that memory object.
    pub range: ByteRange,
    /// The stage and access.
    pub sa: StageAccess,
}

/// The accesses of a command, in the order the command makes them: the one
/// table of which command accesses what, in which stage and with which
/// access (the checker, the hazard messages, the definitional semantics,
/// the layer emulation and the SVG timeline all read it).
///
/// A `vkCmdPipelineBarrier2` accesses memory only through its layout
/// transitions: one [`StageAccess::ImageLayoutTransition`] write over the
/// region of each barrier with [`crate::Barrier::transition`] set, in
/// barrier order. Those are
/// not checked and recorded like a command's accesses: each is ordered by
/// its own barrier only, after the barrier's availability operations and
/// before its visibility operations.
///
/// `Err` names the first region the layout does not place: an object of
/// another program (ids are indices, so one from another program may be
/// in range and still refer to a different object: the layout cannot tell;
/// use each program's own layout), a blob never allocated, or an object
/// id past the program's objects.
///
/// Exported as `vksync::accesses`; the crate's own callers use
/// `accesses`, for programs it validated.
///
/// ```
/// use vksync::{accesses, resolve, trace::parse, Semantics};
/// let one = parse("buffer a 16\nfill a 1\n")?.program;
/// let two = parse("buffer a 16\nbuffer b 16\nfill b 1\n")?.program;
/// let layout = resolve(&one)?;
/// let fill = accesses(&one.commands()[0], &layout, Semantics::SPEC)?;
/// assert_eq!((fill.len(), fill[0].range.end), (1, 16));
/// // `two`'s second buffer has no place in `one`'s layout: an error, not a panic.
/// let err = accesses(&two.commands()[0], &layout, Semantics::SPEC).unwrap_err();
/// assert_eq!(err.region.object.0, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn checked_accesses(
    command: &Command,
    layout: &Layout,
    sem: Semantics,
) -> Result<Vec<Access>, UnplacedRegion> {
    region_accesses(command, sem)
        .into_iter()
        .map(|(region, sa)| {
            let r = layout.locate(region).ok_or(UnplacedRegion { region })?;
            Ok(Access {
                region,
                mem: r.mem,
                range: r.range,
                sa,
            })
        })
        .collect()
}

/// [`checked_accesses`] of a command of the program `layout` was resolved
/// from (the crate's own callers, after validation: every region is
/// placed).
pub(crate) fn accesses(command: &Command, layout: &Layout, sem: Semantics) -> Vec<Access> {
    region_accesses(command, sem)
        .into_iter()
        .map(|(region, sa)| {
            let r = layout.at(region);
            Access {
                region,
                mem: r.mem,
                range: r.range,
                sa,
            }
        })
        .collect()
}

/// A region [`checked_accesses`] was asked about that its [`Layout`] does not
/// place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "object {} bytes {}..{}: the layout places no such region (an object id of another program, a blob never allocated, or a range past the object's memory)",
    region.object.0, region.range.start, region.range.end
)]
pub struct UnplacedRegion {
    /// The region, as the command names it.
    pub region: Region,
}

/// [`checked_accesses`] in terms of the regions the command names, without a
/// [`Layout`]: for tools that record a program as it grows (a capture
/// layer) and need to know what a command reads and writes before the
/// program is resolved.
pub fn region_accesses(command: &Command, sem: Semantics) -> Vec<(Region, StageAccess)> {
    let clear = match sem.clear_stage {
        ClearStage::Clear => StageAccess::ClearTransferWrite,
        ClearStage::Copy => StageAccess::CopyTransferWrite,
    };
    match command {
        Command::Copy { src, dst } => vec![
            (*src, StageAccess::CopyTransferRead),
            (*dst, StageAccess::CopyTransferWrite),
        ],
        // An image copy is a copy: the spec puts vkCmdCopyBufferToImage,
        // vkCmdCopyImageToBuffer and vkCmdCopyImage in COPY too.
        Command::CopyImage { src, dst, .. } => vec![
            (*src, StageAccess::CopyTransferRead),
            (*dst, StageAccess::CopyTransferWrite),
        ],
        // Exact image commands carry their accesses, computed from their
        // regions when built (`crate::ir::image`), in their Vulkan stage.
        Command::Image(ic) => ic.accesses().to_vec(),
        // Rendering commands carry theirs too (`crate::ir::render`): load
        // operations at the begin, a draw's buffers, bindings and
        // attachment operations, resolves and store operations at the end.
        Command::Render(rc) => rc.accesses().to_vec(),
        Command::Fill { dst, .. } | Command::Update { dst, .. } => vec![(*dst, clear)],
        Command::Dispatch {
            bindings, indirect, ..
        } => {
            let mut out = Vec::with_capacity(bindings.len() * 2 + 1);
            if let Some(ind) = indirect {
                out.push((*ind, StageAccess::DrawIndirectIndirectCommandRead));
            }
            for b in bindings {
                for &sa in b.access.stage_accesses(sem.rw_binding_write_only) {
                    out.push((b.region, sa));
                }
            }
            out
        }
        Command::HostWrite { dst, .. } => vec![(*dst, StageAccess::HostWrite)],
        Command::HostRead { src } => vec![(*src, StageAccess::HostRead)],
        Command::Barrier(dep) => dep
            .barriers
            .iter()
            .filter(|b| b.transition)
            // Invariant: the builders refuse a transition without a region.
            .filter_map(|b| b.region)
            .map(|r| (r, StageAccess::ImageLayoutTransition))
            .collect(),
        Command::Alloc { .. }
        | Command::Free { .. }
        | Command::Submit(_)
        | Command::Wait(_)
        | Command::HostSignal { .. }
        | Command::HostWait { .. }
        | Command::SetEvent { .. }
        | Command::WaitEvents { .. }
        | Command::SetEvent1 { .. }
        | Command::WaitEvents1 { .. }
        | Command::ResetEvent { .. }
        | Command::HostSetEvent { .. }
        | Command::HostResetEvent { .. } => vec![],
    }
}

/// The layout transitions of one `vkCmdPipelineBarrier2`: for each barrier
/// that performs one, its index in `dep.barriers` and the transition's
/// write over the barrier's region.
pub(crate) fn transitions(dep: &Dependency, layout: &Layout) -> Vec<(usize, Access)> {
    dep.barriers
        .iter()
        .enumerate()
        .filter(|(_, b)| b.transition)
        // Invariant: the builders refuse a transition without a region.
        .filter_map(|(i, b)| Some((i, b.region?)))
        .map(|(i, region)| {
            let r = layout.at(region);
            (
                i,
                Access {
                    region,
                    mem: r.mem,
                    range: r.range,
                    sa: StageAccess::ImageLayoutTransition,
                },
            )
        })
        .collect()
}

/// What a barrier with an ownership transfer is on the queue that
/// executes it ("Queue Family Ownership Transfer").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OwnershipRole {
    /// `srcQueueFamilyIndex` is the queue's family: the barrier's second
    /// synchronization scope does not apply to the operation, and its
    /// destination masks are ignored.
    Release,
    /// `dstQueueFamilyIndex` is the queue's family: its first scope does
    /// not apply, and its source masks are ignored.
    Acquire,
}

/// The role of barrier `b` executed on a queue of `family`: `None` when it
/// transfers nothing (no `ownership`, or equal indices) or when neither
/// index is the queue's family (invalid usage, reported by
/// [`crate::check_ownership`]; the checkers then take it as a plain
/// barrier).
pub(crate) fn ownership_role(b: &crate::ir::program::Barrier, family: u32) -> Option<OwnershipRole> {
    let o = b.transfer()?;
    if o.src_queue_family == family {
        Some(OwnershipRole::Release)
    } else if o.dst_queue_family == family {
        Some(OwnershipRole::Acquire)
    } else {
        None
    }
}

/// The queue family ownership transfer operations of one
/// `vkCmdPipelineBarrier2` executed on a queue of `family`: for each
/// barrier that releases or acquires, its index, its role and the
/// operation's access ([`StageAccess::QueueFamilyOwnershipTransfer`] over
/// the barrier's region). Not in [`accesses`]: which operation a barrier
/// performs depends on the queue that executes it.
pub(crate) fn ownership_ops(
    dep: &Dependency,
    layout: &Layout,
    family: u32,
) -> Vec<(usize, OwnershipRole, Access)> {
    dep.barriers
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            let role = ownership_role(b, family)?;
            // Invariant: validation refuses a transfer without a region.
            let region = b.region?;
            let r = layout.at(region);
            Some((
                i,
                role,
                Access {
                    region,
                    mem: r.mem,
                    range: r.range,
                    sa: StageAccess::QueueFamilyOwnershipTransfer,
                },
            ))
        })
        .collect()
}

/// Whether a command does device work that must be recorded (as opposed to
/// allocator bookkeeping, host accesses and queue operations).
pub fn is_device_command(command: &Command) -> bool {
    matches!(
        command,
        Command::Copy { .. }
            | Command::CopyImage { .. }
            | Command::Image(_)
            | Command::Render(_)
            | Command::Fill { .. }
            | Command::Update { .. }
            | Command::Dispatch { .. }
    )
}

/// Whether an access is made by the host.
pub fn is_host(sa: StageAccess) -> bool {
    sa.stage() == Stage::Host
}
