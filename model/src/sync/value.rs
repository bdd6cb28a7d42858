//! The synchronization algebra: the value of one recorded access
//! ([`SyncVal`]), a barrier with its scopes computed ([`ResolvedBarrier`]),
//! the effect of the barriers of one `vkCmdPipelineBarrier2` on a value,
//! and the two questions every hazard rule asks of a value (is a later
//! write ordered after this read? does a later access conflict with this
//! write?).
//!
//! Values are plain `Copy` data with no identity: the checker interns them
//! ([`super::intern`]) and stores node ids. The laws the checker relies on
//! (applying a barrier never creates a hazard; barriers of one call do not
//! chain; merging equal values never changes a verdict) are tested in
//! `model/tests/laws.rs`. This module does not know about memory layout,
//! commands or programs, except [`ResolvedBarrier::of`], which locates a
//! program barrier's range.

use crate::ir::layout::{Layout, MemRange};
use crate::ir::program::Barrier;
use crate::vk::scope::{access_scope, exec_scope, Side, Stage, StageAccess, StageAccessSet, StageSet};

/// A barrier with its scopes computed by [`crate::vk::scope`]; `range` restricts
/// the access scopes (not the execution dependency) to a buffer range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResolvedBarrier {
    pub src_exec: StageSet,
    pub dst_exec: StageSet,
    pub src_access: StageAccessSet,
    pub dst_access: StageAccessSet,
    pub range: Option<MemRange>,
}

impl ResolvedBarrier {
    /// Computes a barrier's scopes and locates its range.
    pub fn of(b: &Barrier, layout: &Layout) -> ResolvedBarrier {
        ResolvedBarrier {
            src_exec: exec_scope(b.src_stage_mask, Side::Src),
            dst_exec: exec_scope(b.dst_stage_mask, Side::Dst),
            src_access: access_scope(b.src_stage_mask, b.src_access_mask, Side::Src),
            dst_access: access_scope(b.dst_stage_mask, b.dst_access_mask, Side::Dst),
            range: b.region.map(|r| layout.at(r)),
        }
    }
}

/// The synchronization value of one recorded access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SyncVal {
    /// The access itself.
    pub sa: StageAccess,
    /// For a read: the stages ordered after it (its execution-dependency
    /// chain). For a write: the stages ordered after an availability
    /// operation that included it; empty until some barrier's first access
    /// scope held the write.
    pub order: StageSet,
    /// For a write: the (stage, access) pairs it has been made visible to.
    /// Host pairs arrive here only once the barrier that made the write
    /// visible to the host has been submitted and waited for: the
    /// device-to-host domain operation happens when the barrier executes,
    /// and the host sees it only through a fence.
    pub visible: StageAccessSet,
    /// For a write: host pairs a barrier recorded since the last submit
    /// makes it visible to (not executed yet).
    pub host_pending: StageAccessSet,
    /// For a write: host pairs made visible by a submitted barrier not yet
    /// waited for.
    pub host_submitted: StageAccessSet,
    /// Submitted with `vkQueueSubmit`.
    pub submitted: bool,
    /// Submitted and then waited for with a fence.
    pub fenced: bool,
}

/// The host's (stage, access) pairs.
pub(crate) const HOST_PAIRS: StageAccessSet =
    StageAccessSet((1 << StageAccess::HostRead as u16) | (1 << StageAccess::HostWrite as u16));

impl SyncVal {
    pub(crate) fn fresh(sa: StageAccess) -> Self {
        SyncVal {
            sa,
            order: StageSet::EMPTY,
            visible: StageAccessSet::EMPTY,
            host_pending: StageAccessSet::EMPTY,
            host_submitted: StageAccessSet::EMPTY,
            submitted: false,
            fenced: false,
        }
    }

    /// The pairs a write is or will be visible to once the barriers already
    /// recorded have been submitted and waited for.
    pub fn granted(self) -> StageAccessSet {
        self.visible.union(self.host_pending).union(self.host_submitted)
    }

    /// The effect of one barrier on this value, `reach` telling whether the
    /// value's bytes lie in the barrier's (buffer) range.
    fn barrier_effect(self, b: &ResolvedBarrier, reach: Reach) -> (StageSet, StageAccessSet) {
        let in_range = match reach {
            Reach::Full => true,
            Reach::ExecOnly => false,
            Reach::Nothing => return (StageSet::EMPTY, StageAccessSet::EMPTY),
        };
        if self.sa.is_write() {
            // Chained: an earlier barrier already made the write available
            // and its second scope meets this barrier's first scope. Direct:
            // the write is in this barrier's first access scope (which
            // implies its stage is in the first synchronization scope).
            // A write completed by a fence wait is available in the device
            // domain before every barrier recorded after the wait (the wait,
            // then the barrier's submit), whatever its first scope.
            let chained = self.order.intersects(b.src_exec) || self.fenced;
            let direct = in_range && b.src_access.contains(self.sa);
            if chained || direct {
                let vis = if in_range {
                    b.dst_access
                } else {
                    StageAccessSet::EMPTY
                };
                return (b.dst_exec, vis);
            }
        } else {
            let in_scope = b.src_exec.contains(self.sa.stage()) || self.order.intersects(b.src_exec);
            if in_scope {
                return (b.dst_exec, StageAccessSet::EMPTY);
            }
        }
        (StageSet::EMPTY, StageAccessSet::EMPTY)
    }

    /// Applies the barriers of one dependency, each evaluated on the value
    /// before the dependency (barriers of one call do not chain).
    /// Applies barriers with their reach already decided.
    pub(crate) fn apply_each(self, effects: &[(ResolvedBarrier, Reach)]) -> Self {
        let mut order = self.order;
        let mut visible = self.visible;
        let mut host_pending = self.host_pending;
        for (b, reach) in effects {
            let (o, v) = self.barrier_effect(b, *reach);
            order = order.union(o);
            visible = visible.union(StageAccessSet(v.0 & !HOST_PAIRS.0));
            host_pending = host_pending.union(StageAccessSet(v.0 & HOST_PAIRS.0));
        }
        SyncVal {
            order,
            visible,
            host_pending,
            ..self
        }
    }

    pub fn apply(self, barriers: &[ResolvedBarrier], in_range: impl Fn(&ResolvedBarrier) -> Reach) -> Self {
        let effects: Vec<(ResolvedBarrier, Reach)> = barriers.iter().map(|b| (*b, in_range(b))).collect();
        self.apply_each(&effects)
    }
}

/// How much of a barrier applies to some bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// The bytes are in the barrier's range (or it is global): execution
    /// and memory dependency.
    Full,
    /// Outside a buffer barrier's range: its execution dependency only.
    ExecOnly,
    /// Nothing (the 1.3.239 layer's range-limited buffer barriers).
    Nothing,
}

/// Whether a write `cur` is ordered after a prior read of value `r`: the
/// read is a host read (device work recorded after it is submitted after
/// it; host accesses follow program order), or it was waited for, or (for a
/// device write) an execution dependency orders the write's stage after it.
pub fn read_satisfied(r: SyncVal, cur: StageAccess) -> bool {
    let prior_host = r.sa.stage() == Stage::Host;
    let cur_host = cur.stage() == Stage::Host;
    prior_host || r.fenced || (!cur_host && r.order.contains(cur.stage()))
}

/// Whether access `cur` (read or write) conflicts with a prior write of
/// value `w`; if so, `(needs_barrier, needs_wait)`. `waw_visibility` is
/// D2: whether a later write needs the earlier one *visible* to it (the
/// layer) or only *available* before it (the memory model: "X is a write
/// and Y is a write, and X->AV(A_X,R_X,D_X,L)->DOM(D_X,D_Y)->Y").
pub fn write_conflict(w: SyncVal, cur: StageAccess, waw_visibility: bool) -> Option<(bool, bool)> {
    if w.sa.stage() == Stage::Host {
        // Host writes before a submission are visible to every device
        // access of it ("Host Write Ordering Guarantees"); host accesses are
        // ordered among themselves by program order.
        return None;
    }
    let by_availability = cur.is_write() && !waw_visibility;
    if cur.stage() == Stage::Host {
        // The host sees a device write only after a barrier whose second
        // scope holds the host access (the device-to-host domain operation
        // and the visibility operation) and a fence wait ("Fence Waiting").
        let host_pairs = host_needs();
        let done = StageAccessSet(w.visible.0 & host_pairs.0);
        if w.fenced && !done.is_empty() {
            None
        } else {
            // A barrier already recorded (or submitted) for the host still
            // needs its submit and wait; without one, a barrier is needed,
            // placed before a submit that is waited for.
            let granted = w.granted().0 & host_pairs.0 != 0;
            Some((!granted, !w.fenced || granted))
        }
    } else if w.fenced {
        // A fence signal makes every device write available and the next
        // submission makes it visible to every device access.
        None
    } else if by_availability {
        // Available, and the availability operation's chain reaches the
        // write's stage.
        (!w.order.contains(cur.stage())).then_some((true, false))
    } else {
        (!w.visible.contains(cur)).then_some((true, false))
    }
}

/// The host (stage, access) pairs of which one must have been granted to
/// a device write (by a barrier that has been submitted and waited for)
/// before a host access is ordered after it: the device-to-host domain
/// operation, which either host access in a barrier's destination access
/// mask performs; on host-coherent memory, writes available to the host
/// domain are visible to the host ("Host Access Types"), for a read as for
/// a write.
pub(crate) const fn host_needs() -> StageAccessSet {
    HOST_PAIRS
}
