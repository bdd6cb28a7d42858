//! The hazard checker: the fast oracle that says, for every byte a command
//! touches, whether every earlier conflicting access is ordered before it
//! as the memory model requires (a read after a write: the write available
//! and visible to it; a write after a write: the earlier one available
//! before it; a write after a read: an execution dependency).
//!
//! This module owns the per-address access state and the rules that update
//! it: recording reads and writes, applying the barriers of one
//! `vkCmdPipelineBarrier2` (with execution-dependency chaining and
//! availability-then-visibility chaining, and no chaining among barriers of
//! the same call), queue submission and fence waits. It works on memory
//! addresses ([`MemId`] plus byte offset), so aliasing buffers and recycled
//! blob memory share state. It does not know about objects, names or
//! commands' meanings: [`crate::ir::access`] turns commands into accesses and
//! barriers into [`ResolvedBarrier`]s, and [`check`] ties them together.
//! Its verdicts are compared with the definitional semantics
//! ([`crate::spec`]) by the differential suites: same (command, kind,
//! bytes) on every program they draw.
//!
//! # Representation
//!
//! Each memory object is a map of disjoint byte ranges to an [`EntryState`]:
//! the earlier accesses a later one can still race with, each a
//! `(command, node)` pair. That is every write not yet ordered before a
//! later write (a write ordered before a later one is ordered before
//! everything the later one will be: dropped), and the latest device read
//! of each stage (a newer read in a stage stands for the older: whatever
//! orders it orders the older), kept across writes (a read ordered before a
//! write may still race a later write that write is not ordered before).
//! Host reads are not kept: they race nothing later. A *node* is an
//! interned synchronization value ([`SyncVal`]): the access's (stage,
//! access) pair, the stages ordered after it, for a write the pairs it is
//! visible to, and whether it was submitted and waited for. Because the
//! value is interned, every access recorded with the same value shares one
//! node, and a global barrier is applied once per distinct value rather
//! than once per byte range: its cost is bounded by the number of distinct
//! synchronization values, not by the size of memory or the length of the
//! program. Nodes that become equal are merged through a union-find
//! redirect. Adjacent ranges with equal state are merged, so the maps stay
//! proportional to distinct histories; adjacent ranges whose states differ
//! only in which command made their one write are joined into a run
//! ([`super::state::Runs`]): one state, its pieces' commands kept for the
//! report, which [`Checker::detect`] expands piece by piece. Runs exist
//! only until the first rendering instance begins (its implicit
//! dependencies tell records apart by command).
//!
//! A rendering instance's implicit dependencies order that instance's
//! accesses only: what they order is kept apart in each value (its
//! `local_` fields, which only the current instance's accesses read,
//! [`Checker::enter_render`]); an access recorded before the instance
//! reaches them through recorded barriers only ([`Reach::Chain`]); and
//! inside an instance an older read of an attachment stage stays beside
//! the instance's (one per stage), and an equal-valued older write is not
//! dropped for one of the instance (`docs/semantics.md`, "Dynamic
//! rendering and draws").
//!
//! A render pass's subpass dependencies are scoped the same way
//! (`docs/semantics.md`, "Render passes", "Scopes of a dependency"): one
//! into the subpass a command begins adds to the `local_` fields; each
//! access made in a subpass is tagged with the subpass's slot
//! ([`SyncVal::tag`]), and when a subpass ends what its dependencies
//! ordered is kept apart in that slot ([`Checker::end_subpass`],
//! [`SyncVal::ended_order`]) until the render pass instance ends
//! ([`Checker::close_pass`]), so a dependency from any subpass holds that
//! subpass's accesses directly and others through chains from it only,
//! and one from `VK_SUBPASS_EXTERNAL` those made before the instance.
//! Inside a subpass an older read of any stage a draw accesses in stays
//! beside the subpass's own. A pipeline barrier recorded inside a subpass
//! (a self-dependency allows it) is scoped like a dependency into the
//! subpass on both sides: its first scopes hold the accesses tagged with
//! the open subpass's slot and chain through the `local_` fields, and what
//! it orders goes to them ([`Checker::subpass_dependency`]).
//!
//! With [`Semantics::last_write_shortcut`] (the validation layer's history,
//! D12) an entry keeps only the last write and the reads since it, and a
//! write is checked against those reads alone when there are any.
//!
//! # Events
//!
//! A `vkCmdSetEvent2` and its `vkCmdWaitEvents2` are one memory dependency
//! per barrier of their dependency info, cut at the event's signal
//! operation (`docs/semantics.md`, "Events"). The signal operation is a
//! pseudo stage per barrier of the dependency info, a *slot*
//! ([`SyncVal::events`]; one per barrier, since each barrier is its own
//! memory dependency and must not reach another's second scopes): the set
//! applies each barrier's first half (its first scopes to its slot), the
//! wait each second half (the slot to its second scopes), as ordinary
//! barriers ([`ResolvedBarrier::event_set`], [`ResolvedBarrier::event_wait`]).
//! An access recorded between them never gets a slot (no mask names one),
//! so the wait does not reach it, and no barrier between them chains with
//! either half. Setting the event again (after a reset) clears and frees
//! its slots first ([`Checker::set_event`]).
//!
//! A `vkCmdSetEvent` (synchronization 1) takes one slot and is an
//! execution dependency only ([`ResolvedBarrier::event_set1`]): its wait
//! gives the first access scope, so the set marks every access it
//! reaches with the slot, a write that an availability chain reached in
//! [`SyncVal::events`] (available before the signal, as for a
//! synchronization-2 set) and every write it reaches in
//! [`SyncVal::exec_events`] (executed before the signal). Each barrier of
//! the `vkCmdWaitEvents` then applies with the slots of all its events as
//! first synchronization scope and its own first access scope, which
//! holds a write only if that write is in `exec_events` for one of them
//! ([`ResolvedBarrier::event_wait1`]): the availability operation happens
//! at the wait, for writes before a set. Because the set's scope may be
//! reached through a chain that made nothing available, a write keeps its
//! execution chain too ([`SyncVal::exec`]).
//!
//! An event's layout transitions take the three steps below too, with the
//! barrier that performs them: a `vkCmdSetEvent2`'s first half (the
//! transition comes before the signal, so its write gets the slot and the
//! wait's half orders it; [`ResolvedBarrier::event_set`]), a
//! `vkCmdWaitEvents`'s barrier ([`ResolvedBarrier::event_wait1`]).
//!
//! # Image layout transitions
//!
//! A barrier with a layout transition splits into three steps
//! (`docs/semantics.md`, "Image layout transitions"): its first half
//! (first scopes to a pseudo stage only the transition is in), the
//! transition's write, and its second half (that pseudo stage to its second
//! scopes). The checker takes the three steps without the pseudo stage:
//! [`Checker::detect_transition`] decides the write against the state
//! before the call with [`ordered_before_transition`] (what the first half
//! makes available or orders), [`Checker::apply`] applies every barrier of
//! the call whole, together (for earlier accesses, a barrier's two halves
//! through a pseudo stage nothing else names are the barrier itself), and
//! [`Checker::record_transition`] then records the write with the value the
//! second half gives it ([`SyncVal::transition`]), which no barrier of the
//! call applies to: they all came before it.

use super::intern::{MapKey, Nodes};
use super::rangemap::RangeMap;
use super::state::{
    for_each_piece, for_each_piece_while, join_runs, latest_by_key, summarize, EntryState, Rec, RunSummary,
    Runs, Spills,
};
pub(crate) use super::value::host_needs;
use super::value::HOST_PAIRS;
pub use super::value::{
    ordered_before_transition, read_satisfied, write_conflict, Reach, ResolvedBarrier, SyncVal,
};
use crate::ir::access::Access;
use crate::ir::layout::MemId;
use crate::ir::program::ByteRange;
use crate::semantics::Semantics;
use crate::vk::scope::{Stage, StageAccess, StageAccessSet, StageSet};
use std::collections::BTreeMap;
use std::fmt;

/// The three hazards, named as the validation layer names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HazardKind {
    /// A read of bytes an earlier write is not ordered before.
    ReadAfterWrite,
    /// A write over bytes an earlier read is not ordered before.
    WriteAfterRead,
    /// A write over bytes an earlier write is not ordered before.
    WriteAfterWrite,
}

impl HazardKind {
    /// Whether fixing this hazard needs the earlier access made visible
    /// to the later one, not only ordered before it: always for a
    /// read-after-write, never for a write-after-read, for a
    /// write-after-write under the reading that asks it
    /// (`waw_needs_visibility`).
    pub(crate) fn needs_visibility(self, waw_needs_visibility: bool) -> bool {
        match self {
            HazardKind::ReadAfterWrite => true,
            HazardKind::WriteAfterWrite => waw_needs_visibility,
            HazardKind::WriteAfterRead => false,
        }
    }

    /// `READ_AFTER_WRITE` etc.
    pub fn name(self) -> &'static str {
        match self {
            HazardKind::ReadAfterWrite => "READ_AFTER_WRITE",
            HazardKind::WriteAfterRead => "WRITE_AFTER_READ",
            HazardKind::WriteAfterWrite => "WRITE_AFTER_WRITE",
        }
    }
    /// The validation layer's message id: `SYNC-HAZARD-READ-AFTER-WRITE`.
    pub fn message_id(self) -> &'static str {
        match self {
            HazardKind::ReadAfterWrite => "SYNC-HAZARD-READ-AFTER-WRITE",
            HazardKind::WriteAfterRead => "SYNC-HAZARD-WRITE-AFTER-READ",
            HazardKind::WriteAfterWrite => "SYNC-HAZARD-WRITE-AFTER-WRITE",
        }
    }
}

impl fmt::Display for HazardKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A hazard at the memory level: which access of which command conflicts
/// with which prior access, over which bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RawHazard {
    pub kind: HazardKind,
    pub command: usize,
    pub prior_command: usize,
    pub mem: MemId,
    pub range: ByteRange,
    pub current: StageAccess,
    pub prior: StageAccess,
    /// A barrier is part of the fix. Always true between device accesses;
    /// for a host access it is false when only a fence wait is missing.
    pub needs_barrier: bool,
    /// The prior access was not waited for with a fence, which the current
    /// (host) access needs besides any barrier.
    pub needs_wait: bool,
    /// The prior write must be made *visible* to the current access, not
    /// only available before it: always for a read after a write; for a
    /// write after a write when the semantics asks for it (D2,
    /// [`Semantics::waw_needs_visibility`]); never after a read.
    pub needs_visibility: bool,
    /// The prior access was submitted but not yet waited for when the
    /// current (device) access was recorded. The current command runs when
    /// its own batch is submitted: a fence wait before that submit orders
    /// the two, and the hazard disappears (see [`crate::hazard::check`]).
    pub prior_in_flight: bool,
    /// The hazard stands for every piece of a run the access touches, the
    /// nearest named ([`PieceHazards::Summary`]); `None`: for itself.
    pub(crate) pieces: Option<RunSummary>,
}

/// Whether a prior record is of the rendering instance begun at `begin`
/// (the current access's, if any). Two records with one value, one of
/// the instance and one before it, do not race the same accesses (the
/// instance's implicit dependencies will order the first only), so
/// neither stands for the other.
fn within(begin: Option<u32>, prior: &Rec) -> bool {
    begin.is_some_and(|b| prior.cmd >= b)
}

/// What the checker names for an access that races several pieces of one
/// run ([`super::state::Runs`]: pieces of memory written alike by
/// distinct commands, joined into one range entry).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum PieceHazards {
    /// One hazard per piece: every pair, as the definition decides them.
    #[default]
    Each,
    /// One hazard per run, naming the nearest piece's command, with a
    /// summary of the others ([`super::state::RunSummary`]): what
    /// [`crate::check_report`] asks, whose groups are then the pairs'
    /// at the cost of one hazard per run, not one per pair (issue 27's
    /// `pieces`). Its caller passes each command's hazards through
    /// [`Checker::settle_pieces`] before grouping them.
    Summary,
    /// One hazard per run, naming the nearest piece's command over the
    /// hull of the pieces' bytes, without a summary: what counting a
    /// planner's fewest points asks (`crate::plan::points`), since a point
    /// after the nearest piece and before the access is after every piece.
    Nearest,
    /// The hazard of the first piece in address order only: what a layer
    /// emulation that reports the first hazard of each range asks (K3,
    /// `crate::layer::emulate`), which drops the others anyway, and a
    /// walk that only asks whether there is a hazard and what its fix needs
    /// (every piece has the run's value) or drops the hazards.
    First,
}

/// The incremental checker.
#[derive(Clone, Debug, Default)]
pub struct Checker {
    mems: Vec<RangeMap<EntryState>>,
    nodes: Nodes,
    sem: Semantics,
    /// Merge adjacent ranges with equal state (on by default; off only to
    /// test that merging never changes a verdict).
    no_merge: bool,
    /// Barriers recorded since the last submit whose destination access
    /// holds a host access (see [`Checker::wait`]).
    open_host_barriers: Vec<ResolvedBarrier>,
    /// Write lists longer than an entry holds inline.
    spills: Spills,
    /// The runs of pieces joined entries' writes name
    /// ([`super::state::Runs`]).
    runs: Runs,
    /// No more runs: set when the first rendering instance begins, whose
    /// implicit dependencies tell records apart by command
    /// ([`Checker::enter_render`] expands the runs there).
    no_runs: bool,
    /// What the hazards of a run's pieces name ([`Checker::set_pieces`]).
    pieces: PieceHazards,
    /// The slots ([`SyncVal::events`] bits) of each event's current set,
    /// one per barrier of its dependency info.
    event_slots: Vec<(u32, Vec<u32>)>,
    /// The slots in use.
    used_slots: u64,
    /// The rendering command being checked and its instance's
    /// `vkCmdBeginRendering` (`(begin, command)`, [`Checker::enter_render`]):
    /// an access of that command sees what the instance's implicit
    /// dependencies ordered ([`SyncVal::within`]); every other access sees
    /// none of it.
    instance: Option<(u32, u32)>,
    /// That instance is a subpass of a render pass instance: its accesses
    /// are tagged with its slot ([`SyncVal::tag`], `slot`) for the
    /// subpass dependencies from it, and in every stage an older read
    /// stays beside its own (`record_one`).
    subpass: bool,
    /// The current (or last) subpass and its slot.
    subpass_k: usize,
    slot: u8,
    /// While a render pass instance is open ([`Checker::open_pass`] to
    /// [`Checker::close_pass`]): its framebuffer's attachment bytes, where a
    /// framebuffer-local pipeline barrier inside a subpass holds its memory
    /// dependency ([`Checker::subpass_dependency`]).
    pass: Option<crate::ir::renderpass::PassAttachments>,
}

impl Checker {
    /// A checker with non-default semantics (see [`Semantics`]).
    pub fn with_semantics(memories: usize, sem: Semantics) -> Self {
        Checker {
            mems: vec![RangeMap::default(); memories],
            nodes: Nodes::default(),
            sem,
            no_merge: false,
            open_host_barriers: Vec::new(),
            spills: Vec::new(),
            runs: Vec::new(),
            no_runs: false,
            pieces: PieceHazards::Each,
            event_slots: Vec::new(),
            used_slots: 0,
            instance: None,
            subpass: false,
            subpass_k: 0,
            slot: 0,
            pass: None,
        }
    }

    /// The semantics this checker follows.
    pub fn semantics(&self) -> Semantics {
        self.sem
    }

    /// Turns range merging on or off. Merging is an optimization only; the
    /// laws suite checks that it never changes a verdict.
    #[cfg(test)]
    pub fn set_merging(&mut self, on: bool) {
        self.no_merge = !on;
    }

    fn grow(&mut self, mem: MemId) -> usize {
        let i = mem.0 as usize;
        if i >= self.mems.len() {
            self.mems.resize(i + 1, RangeMap::default());
        }
        i
    }

    /// The hazards `accesses` (all made by command `cmd`) would have against
    /// the current state, without recording them. Each access is checked
    /// against the state before the command: accesses of one command never
    /// conflict with each other.
    pub fn detect(&mut self, cmd: usize, accesses: &[Access]) -> Vec<RawHazard> {
        let mut out: Vec<RawHazard> = Vec::new();
        for a in accesses {
            let m = self.grow(a.mem);
            for (r, state) in self.mems[m].overlapping(a.range) {
                let range = r.intersect(a.range);
                self.hazards_in(cmd, a, state, range, None, &mut |h| {
                    push_merged(&mut out, RawHazard { mem: a.mem, ..h })
                });
            }
        }
        out
    }

    /// The hazards of the layout transition that barrier `b` of command
    /// `cmd` performs (`a`: its write over `b`'s region) against the state
    /// before the call, without recording it: every earlier access it
    /// races with, that is, that is not ordered before it by `b`'s first
    /// half ([`ordered_before_transition`]).
    pub fn detect_transition(&mut self, cmd: usize, a: &Access, b: &ResolvedBarrier) -> Vec<RawHazard> {
        let mut out: Vec<RawHazard> = Vec::new();
        let m = self.grow(a.mem);
        for (r, state) in self.mems[m].overlapping(a.range) {
            let range = r.intersect(a.range);
            self.hazards_in(cmd, a, state, range, Some(b), &mut |h| {
                push_merged(&mut out, RawHazard { mem: a.mem, ..h })
            });
        }
        out
    }

    /// Records the layout transition that barrier `b` of command `cmd`
    /// performs (`a`: its write over `b`'s region), after [`Checker::apply`]
    /// applied the call's barriers: the write as `b`'s second half leaves
    /// it ([`SyncVal::transition`]). An earlier write is dropped only when
    /// the transition stands for it ([`SyncVal::covers`]: an earlier
    /// transition, or a write completed by a fence wait, at least as
    /// synchronized); any other stays, since a later transition is ordered
    /// after this one by submission order alone but after that write only
    /// by its own barrier. Reads stay, as for any write.
    pub fn record_transition(&mut self, cmd: usize, a: &Access, b: &ResolvedBarrier) {
        let value = SyncVal::transition(b);
        let node = self.nodes.intern(value);
        let rec = Rec {
            cmd: cmd as u32,
            node,
        };
        let m = self.grow(a.mem);
        let Checker {
            mems,
            nodes,
            no_merge,
            sem,
            spills,
            runs,
            no_runs,
            ..
        } = self;
        let map = &mut mems[m];
        let shortcut = sem.last_write_shortcut;
        map.update(a.range, |state| {
            if shortcut {
                // The layer's history: the transition is the last write,
                // and there is no read since.
                state.writes.set(&[rec], spills);
                state.reads.clear();
            } else {
                let keep = |w: &Rec| {
                    let id = nodes.find(w.node);
                    id != rec.node && !nodes.vals[id as usize].covers(value)
                };
                state.writes.retain_push(spills, keep, rec);
            }
        });
        if !*no_merge {
            merge(map, a.range, nodes, (!*no_runs).then_some(runs));
        }
    }

    /// The writes an entry holds, less those a later held write has the
    /// same value as (the later one races exactly what they race, and is
    /// the nearest to name; `record_one` drops them at the next write).
    /// Keyed by the value the access of command `cmd` sees, so a write of
    /// an earlier rendering instance is not hidden by an equal write of the
    /// current one.
    ///
    /// Each that `conflict` finds racing (asked once per write, not per
    /// piece: a run's pieces share its value) goes to `f` with what
    /// `conflict` gave and its bytes among `range` (the entry's, or part
    /// of them), in program order; a run goes piece by piece, in address
    /// order ([`for_each_piece`]). An entry almost always holds one write,
    /// which stands for no other: it goes without the keyed search and its
    /// allocation.
    fn distinct_writes<T: Copy>(
        &self,
        cmd: usize,
        state: &EntryState,
        range: ByteRange,
        conflict: impl Fn(SyncVal) -> Option<T>,
        mut f: impl FnMut(Rec, SyncVal, ByteRange, Option<RunSummary>, T),
    ) {
        let mut each = |w: Rec, v: SyncVal| {
            // Every piece of a run has the run's value: a write the access
            // is ordered after goes without visiting its pieces (a buffer
            // written in 40,000 pieces and then read whole after a barrier
            // cost the pieces per read, issue 25).
            let Some(t) = conflict(v) else {
                return;
            };
            match self.pieces {
                PieceHazards::Each => {
                    for_each_piece(w, &self.runs, range, |p, bytes| f(p, v, bytes, None, t))
                }
                PieceHazards::Summary | PieceHazards::Nearest => match summarize(w, &self.runs, range) {
                    Some((s, hull)) => {
                        let nearest = Rec {
                            cmd: s.named[0],
                            node: w.node,
                        };
                        let summary = (self.pieces == PieceHazards::Summary).then_some(s);
                        f(nearest, v, hull, summary, t);
                    }
                    None => for_each_piece(w, &self.runs, range, |p, bytes| f(p, v, bytes, None, t)),
                },
                // The first piece races what they all do.
                PieceHazards::First => for_each_piece_while(w, &self.runs, range, |p, bytes| {
                    f(p, v, bytes, None, t);
                    false
                }),
            }
        };
        let writes = state.writes.get(&self.spills);
        if let [w] = writes {
            each(*w, self.view(cmd, self.nodes.peek(w.node)));
            return;
        }
        let inst = self.instance_of(cmd);
        for (w, (v, _)) in latest_by_key(writes, |w| (self.nodes.peek(w.node), within(inst, w))) {
            each(w, self.view(cmd, v));
        }
    }

    /// What the hazards against the pieces of a run name
    /// ([`PieceHazards`]; [`PieceHazards::Each`] unless set).
    pub(crate) fn set_pieces(&mut self, pieces: PieceHazards) {
        self.pieces = pieces;
    }

    /// Replaces each summarized hazard among `found` (one command's
    /// hazards, in program terms) by its pieces' hazards, one per piece,
    /// where another hazard of `found` falls in the same report group: the
    /// group then counts each earlier command once, whichever hazards name
    /// it. `tags` (a parallel check's positions, one per hazard) follow.
    pub(crate) fn settle_pieces(
        &self,
        found: &mut Vec<crate::hazard::Hazard>,
        mut tags: Option<&mut Vec<u32>>,
    ) {
        if found.iter().all(|h| h.pieces.is_none()) {
            return;
        }
        let mut in_group: std::collections::HashMap<_, usize> = std::collections::HashMap::new();
        for h in found.iter() {
            *in_group.entry(crate::group::hazard_key(h)).or_default() += 1;
        }
        let old = std::mem::take(found);
        let old_tags = tags.as_deref_mut().map(std::mem::take);
        for (k, h) in old.into_iter().enumerate() {
            let tag = old_tags.as_ref().map(|t| t[k]);
            let mut push = |h: crate::hazard::Hazard| {
                found.push(h);
                if let (Some(t), Some(tag)) = (tags.as_deref_mut(), tag) {
                    t.push(tag);
                }
            };
            let Some(s) = h.pieces.filter(|_| in_group[&crate::group::hazard_key(&h)] > 1) else {
                push(h);
                continue;
            };
            // Object offset of the hazard's memory bytes.
            let base = h.memory.range.start - h.region.range.start;
            let pieces = &self.runs[s.run as usize].pieces[s.lo as usize..s.hi as usize];
            for p in pieces {
                let bytes = ByteRange::new(p.start.max(h.memory.range.start), p.end.min(h.memory.range.end));
                let region = crate::ir::program::Region {
                    object: h.region.object,
                    range: ByteRange::new(bytes.start - base, bytes.end - base),
                };
                let mut piece = h;
                piece.prior_command = p.cmd as usize;
                piece.memory.range = bytes;
                piece.region = region;
                piece.pieces = None;
                if let Some(b) = piece.fix.barrier.as_mut() {
                    b.region = Some(region);
                }
                push(piece);
            }
        }
    }

    /// Command `index` is a rendering command (`begin`: it begins an
    /// instance, `subpass`: a subpass of a render pass instance); returns
    /// the command index of its instance's begin, which its implicit
    /// dependencies carry ([`ResolvedBarrier::implicit`]). The instance
    /// before was closed first ([`Checker::close_instance`]).
    pub fn enter_render(&mut self, index: usize, begin: bool, subpass: bool) -> u32 {
        if !self.no_runs {
            self.expand_runs();
        }
        let at = index as u32;
        let first = match self.instance {
            Some((b, _)) if !begin => b,
            _ => at,
        };
        if begin {
            self.subpass = subpass;
        }
        self.instance = Some((first, at));
        first
    }

    /// A rendering instance ends for good (before the next begins, or at
    /// a render pass's end, before the barriers of either): what its
    /// implicit and subpass dependencies ordered is seen by no access
    /// any more ([`SyncVal::close_instance`]).
    pub fn close_instance(&mut self) {
        self.nodes.map_all(SyncVal::close_instance);
    }

    /// Subpass `k` of a render pass instance begins (before the barriers
    /// of the command that begins it): it takes slot k mod
    /// [`super::value::SUBPASS_SLOTS`], whose earlier subpass leaves every
    /// subpass scope ([`SyncVal::reuse_slot`]).
    pub(crate) fn begin_subpass(&mut self, k: usize) {
        let slot = (k % super::value::SUBPASS_SLOTS) as u8;
        self.subpass_k = k;
        self.slot = slot;
        if k >= super::value::SUBPASS_SLOTS {
            self.nodes.map_all(|v| v.reuse_slot(slot));
        }
    }

    /// The current (or last) subpass of the render pass instance.
    pub(crate) fn subpass_index(&self) -> usize {
        self.subpass_k
    }

    /// The current subpass ended (before the barriers of the command
    /// after it): what its dependencies ordered is kept in its slot
    /// ([`SyncVal::end_subpass`]).
    pub(crate) fn end_subpass(&mut self) {
        let slot = self.slot;
        self.nodes.map_all(|v| v.end_subpass(slot));
    }

    /// The render pass instance ended, after the barriers of its end
    /// ([`SyncVal::close_pass`]).
    pub(crate) fn close_pass(&mut self) {
        self.nodes.map_all(SyncVal::close_pass);
        self.pass = None;
    }

    /// A render pass instance begins, its framebuffer's views over
    /// `attachments` (`crate::ir::renderpass::pass_attachments`).
    pub(crate) fn open_pass(&mut self, attachments: crate::ir::renderpass::PassAttachments) {
        self.pass = Some(attachments);
    }

    /// A `vkCmdPipelineBarrier2` as this checker applies it where it is
    /// recorded: inside a subpass of an open render pass instance, the
    /// barriers of `crate::ir::renderpass::subpass_barrier_parts` (by-region
    /// ones framebuffer-local), each with the scopes of the open subpass
    /// ([`PreScopes::in_subpass`]); `None` outside one (as recorded, every
    /// earlier and every later command).
    pub(crate) fn subpass_dependency(
        &self,
        dep: &crate::ir::program::Dependency,
    ) -> Option<(crate::ir::program::Dependency, Vec<super::value::PreScopes>)> {
        let attachments = self.pass.as_ref()?;
        let parts = crate::ir::renderpass::subpass_barrier_parts(dep, attachments);
        let scopes = parts
            .iter()
            .map(|&(_, part)| super::value::PreScopes {
                chain_only: (part == crate::ir::renderpass::ViewPart::Chain).then_some(self.slot),
                before_only: part == crate::ir::renderpass::ViewPart::Before,
                ..super::value::PreScopes::in_subpass(self.slot)
            })
            .collect();
        let barriers = parts.into_iter().map(|(b, _)| b).collect();
        Some((crate::ir::program::Dependency { barriers }, scopes))
    }

    /// The begin of the instance whose accesses command `cmd` makes, when
    /// `cmd` is the rendering command being checked.
    fn instance_of(&self, cmd: usize) -> Option<u32> {
        self.instance
            .filter(|&(_, at)| at as usize == cmd)
            .map(|(b, _)| b)
    }

    /// A prior record's value as an access of command `cmd` sees it: an
    /// access of a rendering instance sees what that instance's implicit
    /// dependencies ordered (values hold the current instance's only,
    /// [`SyncVal::close_instance`]).
    fn view(&self, cmd: usize, v: SyncVal) -> SyncVal {
        if self.instance_of(cmd).is_some() {
            v.within()
        } else {
            v
        }
    }

    /// Hazards of one access against one entry, over `range` (the bytes
    /// of the entry the access touches; a run's pieces over theirs). One hazard per earlier access still held
    /// that the access races with. `transition`: the access is the layout
    /// transition this barrier performs, ordered by the barrier's first
    /// half only.
    fn hazards_in(
        &self,
        cmd: usize,
        a: &Access,
        state: &EntryState,
        range: ByteRange,
        transition: Option<&ResolvedBarrier>,
        found: &mut impl FnMut(RawHazard),
    ) {
        let cur_device = a.sa.stage() != Stage::Host;
        let waw_vis = self.sem.waw_needs_visibility;
        let mk = |kind, prior: &Rec, pv: SyncVal, range, (needs_barrier, needs_wait), pieces| RawHazard {
            kind,
            command: cmd,
            prior_command: prior.cmd as usize,
            mem: a.mem,
            range,
            current: a.sa,
            prior: pv.sa,
            needs_barrier,
            needs_wait,
            needs_visibility: kind.needs_visibility(waw_vis),
            prior_in_flight: cur_device && pv.submitted && !pv.fenced,
            pieces,
        };
        let cur_host = a.sa.stage() == Stage::Host;
        if !a.sa.is_write() {
            // D1: the layer skips the check when a barrier already ordered
            // another read of this write before this read's stage.
            let shortcut = self.sem.raw_shortcut_after_ordered_read
                && (state.reads.replaced.contains(a.sa.stage())
                    || state.reads.get(&self.spills).iter().any(|r| {
                        self.view(cmd, self.nodes.peek(r.node))
                            .order
                            .contains(a.sa.stage())
                    }));
            if shortcut {
                return;
            }
            self.distinct_writes(
                cmd,
                state,
                range,
                |wv| write_conflict(wv, a.sa, self.sem.waw_needs_visibility),
                |w, wv, bytes, pieces, needs| {
                    found(mk(HazardKind::ReadAfterWrite, &w, wv, bytes, needs, pieces))
                },
            );
            return;
        }
        if let Some(b) = transition {
            // D12 holds for a transition as for any write (the layer checks
            // it against the reads since the last write when there are
            // any); D2 does not: "available memory is automatically made
            // visible to a layout transition" (the layer too asks only that
            // the write be in the barrier's first access scope or chain).
            for r in state.reads.get(&self.spills) {
                let rv = self.nodes.peek(r.node);
                if !transition_ordered(rv, b, self.sem) {
                    found(mk(HazardKind::WriteAfterRead, r, rv, range, (true, false), None));
                }
            }
            if self.sem.last_write_shortcut && !state.reads.is_empty() {
                return;
            }
            self.distinct_writes(
                cmd,
                state,
                range,
                |wv| (!transition_ordered(wv, b, self.sem)).then_some(()),
                |w, wv, bytes, pieces, ()| {
                    let mut h = mk(HazardKind::WriteAfterWrite, &w, wv, bytes, (true, false), pieces);
                    h.needs_visibility = false;
                    found(h);
                },
            );
            return;
        }
        for r in state.reads.get(&self.spills) {
            let rv = self.view(cmd, self.nodes.peek(r.node));
            // A device command recorded after a host access is submitted
            // after it, and host accesses are ordered among themselves.
            if !read_satisfied(rv, a.sa) {
                // A host write after a device read needs only the wait;
                // a device write needs an execution dependency.
                found(mk(
                    HazardKind::WriteAfterRead,
                    r,
                    rv,
                    range,
                    (!cur_host, cur_host),
                    None,
                ));
            }
        }
        // D12: the layer checks a write against the last write only when no
        // read came since, assuming the reads ordered it.
        if self.sem.last_write_shortcut && !state.reads.is_empty() {
            return;
        }
        self.distinct_writes(
            cmd,
            state,
            range,
            |wv| {
                // D6: the 1.3.239 layer drops a write-after-write between
                // two storage writes of bound descriptors.
                let suppressed = self.sem.suppress_dispatch_waw
                    && wv.sa == StageAccess::ComputeShaderStorageWrite
                    && a.sa == StageAccess::ComputeShaderStorageWrite;
                if suppressed {
                    None
                } else {
                    write_conflict(wv, a.sa, self.sem.waw_needs_visibility)
                }
            },
            |w, wv, bytes, pieces, needs| {
                found(mk(HazardKind::WriteAfterWrite, &w, wv, bytes, needs, pieces))
            },
        );
    }

    /// Records the accesses of command `cmd`: reads first, then writes, so a
    /// read-write binding leaves the write as the range's last access.
    pub fn record(&mut self, cmd: usize, accesses: &[Access]) {
        for a in accesses.iter().filter(|a| !a.sa.is_write()) {
            self.record_one(cmd, a);
        }
        for a in accesses.iter().filter(|a| a.sa.is_write()) {
            self.record_one(cmd, a);
        }
    }

    fn record_one(&mut self, cmd: usize, a: &Access) {
        // A host read races nothing later: device work recorded after it is
        // submitted after it, and the host's own accesses follow program
        // order. So reads are device reads, at most one per device stage.
        if a.sa == StageAccess::HostRead {
            return;
        }
        let inst = self.instance_of(cmd);
        let in_subpass = inst.is_some() && self.subpass;
        let node = if in_subpass {
            self.nodes.intern(SyncVal::fresh_in_subpass(a.sa, self.slot))
        } else {
            self.nodes.intern_fresh(a.sa)
        };
        let rec = Rec {
            cmd: cmd as u32,
            node,
        };
        let m = self.grow(a.mem);
        let is_write = a.sa.is_write();
        let stage = a.sa.stage();
        let Checker {
            mems,
            nodes,
            no_merge,
            sem,
            spills,
            runs,
            no_runs,
            ..
        } = self;
        let map = &mut mems[m];
        let (waw_vis, shortcut) = (sem.waw_needs_visibility, sem.last_write_shortcut);
        let keep_replaced = sem.raw_shortcut_after_ordered_read;
        let local_stages = crate::vk::scope::exact_scope(crate::ir::render::implicit_stages());
        map.update(a.range, |state| {
            if is_write && shortcut {
                // The layer's history: the last write and the reads since.
                state.writes.set(&[rec], spills);
                state.reads.clear();
            } else if is_write {
                // An earlier write the new one is ordered after is ordered
                // before everything the new one will be ordered before (its
                // availability happened before the new write, which happens
                // before the new write's own availability operations): drop
                // it. So is one with the same value: it will race exactly
                // what the new one races. Writes the new one races stay.
                // `rec.node` is the canonical node of the fresh value.
                // Of earlier writes with one value, only the latest stays
                // (the reporting rule: it races exactly what they race, and
                // is the nearest to name). Without this, writes that only
                // become equal after they were recorded (each submitted in
                // its own batch, never waited for) pile up: a flood of
                // reports and a quadratic state (issue 27).
                // Inside a rendering instance, a write of an earlier one
                // with an equal value is seen differently (the instance's
                // implicit dependencies order only its own accesses): values
                // are compared, and ordering decided, as this access sees
                // them.
                let latest = latest_by_key(state.writes.get(spills), |w| {
                    (nodes.find(w.node), within(inst, w))
                });
                let keep = |w: &Rec| {
                    let id = nodes.find(w.node);
                    let mine = within(inst, w);
                    let v = nodes.vals[id as usize];
                    let seen = if inst.is_some() { v.within() } else { v };
                    (id != rec.node || mine != inst.is_some())
                        && latest.contains(&(*w, (id, mine)))
                        && write_conflict(seen, a.sa, waw_vis).is_some()
                };
                state.writes.retain_push(spills, keep, rec);
                // Reads stay: a read ordered before this write may still race
                // a later write that this one is not ordered before.
            } else {
                // One read per stage: a newer read in a stage replaces the
                // older one, since anything ordered after the newer read by
                // stage is ordered after the older read too. Except inside
                // a rendering instance, in a stage its implicit dependencies
                // name: they will order the newer read and not an older one
                // of an earlier instance or none, so one such older read
                // (the latest: the instances before have ended, and for
                // recorded barriers the newer read stands for the older)
                // stays beside at most one of this instance. In a subpass of
                // a render pass, in every stage: its subpass dependencies
                // too order only its own accesses. Of the older reads each
                // stays unless a later one that stays stands for it
                // (`SyncVal::read_covers`: a subpass dependency from an
                // earlier subpass may have ordered the later read only).
                let reads = state.reads.get(spills);
                let same: Vec<usize> = (0..reads.len())
                    .filter(|&i| nodes.val(reads[i].node).sa.stage() == stage)
                    .collect();
                let split = inst.filter(|_| in_subpass || local_stages.contains(stage));
                let (replace, older): (Option<usize>, Vec<usize>) = match split {
                    Some(b) => {
                        let (mine, older): (Vec<usize>, Vec<usize>) =
                            same.iter().partition(|&&i| reads[i].cmd >= b);
                        // Of the older ones, each stays unless one that
                        // stays stands for it (`SyncVal::read_covers`): a
                        // dependency from a subpass may have ordered one
                        // older read into one stage and another into an
                        // incomparable one (rp3's `2->EXTERNAL` into
                        // `COPY`, rp4's `0->1` into `FRAGMENT_SHADER`), and
                        // a later barrier naming both stages chains with
                        // both, which no single value says. The latest is
                        // tried first, so of equally ordered reads it
                        // stays (the reporting rule). None is folded into
                        // another it does not stand for: past the inline
                        // room the reads spill (`Reads`).
                        let mut kept: Vec<usize> = Vec::with_capacity(older.len());
                        for &i in older.iter().rev() {
                            let v = nodes.val(reads[i].node);
                            if !kept.iter().any(|&k| v.read_covers(nodes.val(reads[k].node))) {
                                kept.push(i);
                            }
                        }
                        let dropped = older.iter().copied().filter(|i| !kept.contains(i)).collect();
                        (mine.first().copied(), dropped)
                    }
                    None => (same.first().copied(), same.iter().skip(1).copied().collect()),
                };
                for &i in older.iter().rev() {
                    if keep_replaced {
                        let old = nodes.val(state.reads.get(spills)[i].node).order;
                        state.reads.replaced = state.reads.replaced.union(old);
                    }
                    state.reads.remove(i, spills);
                }
                let replace = replace.map(|i| i - older.iter().filter(|&&j| j < i).count());
                match replace {
                    Some(i) => {
                        if keep_replaced {
                            let old = nodes.val(state.reads.get(spills)[i].node).order;
                            state.reads.replaced = state.reads.replaced.union(old);
                        }
                        state.reads.put(i, rec, spills)
                    }
                    None => {
                        // After every read of a stage up to this one.
                        let reads = state.reads.get(spills);
                        let i = reads
                            .iter()
                            .position(|r| nodes.val(r.node).sa.stage() > stage)
                            .unwrap_or(reads.len());
                        state.reads.insert(i, rec, spills)
                    }
                }
            }
        });
        if !*no_merge {
            merge(map, a.range, nodes, (!*no_runs).then_some(runs));
        }
    }

    /// Applies the barriers of one `vkCmdPipelineBarrier2`.
    pub fn apply(&mut self, barriers: &[ResolvedBarrier]) {
        if barriers.is_empty() {
            return;
        }
        // D14: the 1.3.239 layer holds a layout transition in no first
        // access scope but its own barrier's second half; D28: the 1.4
        // layers only in an `ALL_COMMANDS:MEMORY_WRITE` one (not at once);
        // D27: no layer continues a chain through a transition into its
        // second half.
        let (d14, d27, d28) = (
            self.sem.transition_outside_all_commands_first,
            self.sem.transition_outside_all_commands_second,
            self.sem.transition_write_needs_memory_write,
        );
        let stripped: Vec<ResolvedBarrier>;
        let barriers = if d14 || d27 || d28 {
            stripped = barriers
                .iter()
                .map(|b| {
                    let b = if d14 {
                        b.without_transition_access()
                    } else if d28 {
                        b.without_transition_at_once()
                    } else {
                        *b
                    };
                    if d27 {
                        b.without_transition_chain()
                    } else {
                        b
                    }
                })
                .collect();
            &stripped[..]
        } else {
            barriers
        };
        self.open_host_barriers
            .extend(barriers.iter().filter(|b| b.dst_access.0 & HOST_PAIRS.0 != 0));
        // Barriers that differ only in their ranges have the same effect on
        // a value: group them, so the work per range entry is per distinct
        // barrier, not per range (one call may carry thousands of buffer
        // barriers).
        let mut groups: Vec<(ResolvedBarrier, BTreeMap<usize, Vec<ByteRange>>)> = Vec::new();
        for b in barriers.iter().filter(|b| b.range.is_some()) {
            let key = ResolvedBarrier { range: None, ..*b };
            // Invariant: filtered on `range.is_some()` above.
            let r = b.range.expect("ranged barrier");
            let m = self.grow(r.mem);
            let g = match groups.iter_mut().position(|(k, _)| *k == key) {
                Some(i) => &mut groups[i].1,
                None => {
                    groups.push((key, BTreeMap::new()));
                    &mut groups.last_mut().expect("just pushed").1
                }
            };
            g.entry(m).or_default().push(r.range);
        }
        for (_, per_mem) in groups.iter_mut() {
            for ranges in per_mem.values_mut() {
                ranges.sort_by_key(|r| r.start);
                let mut merged: Vec<ByteRange> = Vec::with_capacity(ranges.len());
                for r in ranges.drain(..) {
                    match merged.last_mut() {
                        Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                        _ => merged.push(r),
                    }
                }
                *ranges = merged;
            }
        }
        let globals: Vec<ResolvedBarrier> = barriers.iter().filter(|b| b.range.is_none()).copied().collect();
        let outside = self.outside_reach();
        // Ranged barriers: split entries at their boundaries and compute the
        // new values of the records inside from the values before this
        // dependency, before the global part changes those values.
        let mut pending: Vec<(usize, u64, Vec<SyncVal>)> = Vec::new();
        let mut by_mem: BTreeMap<usize, Vec<ByteRange>> = BTreeMap::new();
        for (_, per_mem) in &groups {
            for (&m, ranges) in per_mem {
                by_mem.entry(m).or_default().extend(ranges.iter().copied());
            }
        }
        let mut effects: Vec<(ResolvedBarrier, Reach)> = Vec::with_capacity(globals.len() + groups.len());
        for (&m, ranges) in &by_mem {
            for r in ranges {
                self.mems[m].split_at(r.start);
                self.mems[m].split_at(r.end);
            }
            let mut keys: Vec<u64> = ranges.iter().flat_map(|r| self.mems[m].starts_in(*r)).collect();
            keys.sort_unstable();
            keys.dedup();
            for s in keys {
                // Invariant: `s` was listed just above.
                let (end, state) = self.mems[m].get(s).expect("entry listed above");
                let recs = state.records(&self.spills);
                // Entries are split at every range boundary, so an entry is
                // either inside one of a group's (merged) ranges or outside
                // all of them.
                effects.clear();
                effects.extend(globals.iter().map(|b| (*b, Reach::Full)));
                for (b, per_mem) in &groups {
                    let inside = per_mem.get(&m).is_some_and(|rs| {
                        let i = rs.partition_point(|r| r.end <= s);
                        rs.get(i).is_some_and(|r| r.start <= s && end <= r.end)
                    });
                    let reach = match (inside, b.local) {
                        (true, _) => Reach::Full,
                        // An implicit dependency orders its own bytes only.
                        (false, Some(_)) => Reach::Nothing,
                        (false, None) => outside,
                    };
                    effects.push((*b, reach));
                }
                // An implicit dependency holds only accesses of its own
                // instance: one recorded before the instance's begin is
                // reached through a chain only.
                let before = |cmd: u32, (b, reach): &(ResolvedBarrier, Reach)| {
                    b.local.is_some_and(|begin| cmd < begin) && *reach == Reach::Full
                };
                let vals = recs
                    .iter()
                    .map(|r| {
                        let v = self.nodes.val(r.node);
                        if effects.iter().any(|e| before(r.cmd, e)) {
                            let mine: Vec<(ResolvedBarrier, Reach)> = effects
                                .iter()
                                .map(|e| if before(r.cmd, e) { (e.0, Reach::Chain) } else { *e })
                                .collect();
                            v.apply_each(&mine)
                        } else {
                            v.apply_each(&effects)
                        }
                    })
                    .collect();
                pending.push((m, s, vals));
            }
        }
        // The execution dependency (and a global barrier's memory
        // dependency) applies to every access, once per distinct value.
        effects.clear();
        effects.extend(globals.iter().map(|b| (*b, Reach::Full)));
        effects.extend(groups.iter().map(|(b, _)| {
            (
                *b,
                if b.local.is_some() {
                    Reach::Nothing
                } else {
                    outside
                },
            )
        }));
        let key = MapKey::Barriers(effects.iter().map(|&(b, r)| (b, r as u8)).collect());
        self.nodes.map_keyed(key, |v| v.apply_each(&effects));
        for (m, s, vals) in pending {
            let ids: Vec<u32> = vals.into_iter().map(|v| self.nodes.intern(v)).collect();
            // Invariant: `s` is a key collected above and nothing removed it.
            let e = self.mems[m].get_mut(s).expect("entry collected above");
            let mut it = ids.into_iter();
            e.writes.renode(&mut self.spills, &mut it);
            e.reads.renode(&mut self.spills, &mut it);
        }
        if !self.no_merge {
            for (&m, ranges) in &by_mem {
                for r in ranges {
                    self.merge(m, *r);
                }
            }
        }
    }

    /// [`merge`] over memory `m`.
    fn merge(&mut self, m: usize, range: ByteRange) {
        let runs = (!self.no_runs).then_some(&mut self.runs);
        merge(&mut self.mems[m], range, &mut self.nodes, runs);
    }

    /// Expands every run back into one entry per piece, and joins no more
    /// (a rendering instance begins: its implicit dependencies tell
    /// records apart by command, [`within`]).
    fn expand_runs(&mut self) {
        self.no_runs = true;
        if self.runs.is_empty() {
            return;
        }
        let Checker {
            mems, spills, runs, ..
        } = self;
        for map in mems.iter_mut() {
            map.expand(|range, state| {
                let recs = state.writes.get(spills).to_vec();
                let i = recs.iter().position(|w| w.run().is_some())?;
                let mut out = Vec::new();
                for_each_piece(recs[i], runs, range, |w, bytes| {
                    let mut piece = recs.clone();
                    piece[i] = w;
                    out.push((bytes, piece));
                });
                Some(
                    out.into_iter()
                        .map(|(bytes, recs)| {
                            let mut s = *state;
                            s.writes.set(&recs, spills);
                            (bytes, s)
                        })
                        .collect(),
                )
            });
        }
        runs.clear();
    }

    /// The distinct values of the accesses `prior_cmd` made with `prior_sa`
    /// that are still the last write or a read since it over `range`, each
    /// with the bytes of `range` that hold it (sorted, disjoint): a
    /// barrier point need satisfy a value only where it is.
    pub fn prior_values(
        &mut self,
        mem: MemId,
        range: ByteRange,
        prior_cmd: usize,
        prior_sa: StageAccess,
    ) -> Vec<(SyncVal, Vec<ByteRange>)> {
        let m = self.grow(mem);
        let mut recs: Vec<(Rec, ByteRange)> = Vec::new();
        for (entry, state) in self.mems[m].overlapping(range) {
            for r in state.records(&self.spills) {
                for_each_piece(r, &self.runs, entry.intersect(range), |p, bytes| {
                    if p.cmd as usize == prior_cmd {
                        recs.push((p, bytes));
                    }
                });
            }
        }
        // Each value with its bytes, sorted and joined where they touch or
        // overlap (two records of one entry may hold equal values).
        let mut out: Vec<(SyncVal, Vec<ByteRange>)> = Vec::new();
        for (r, bytes) in recs {
            let v = self.nodes.val(r.node);
            if v.sa != prior_sa {
                continue;
            }
            let ranges = match out.iter_mut().find(|(w, _)| *w == v) {
                Some((_, ranges)) => ranges,
                None => {
                    out.push((v, Vec::new()));
                    &mut out.last_mut().expect("just pushed").1
                }
            };
            ranges.push(bytes);
        }
        for (_, ranges) in &mut out {
            ranges.sort_unstable_by_key(|r| r.start);
            let mut joined: Vec<ByteRange> = Vec::with_capacity(ranges.len());
            for r in ranges.drain(..) {
                match joined.last_mut() {
                    Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                    _ => joined.push(r),
                }
            }
            *ranges = joined;
        }
        out
    }

    /// What a buffer barrier does to bytes outside its range.
    fn outside_reach(&self) -> Reach {
        if self.sem.buffer_barrier_global_exec {
            Reach::ExecOnly
        } else {
            Reach::Nothing
        }
    }

    /// Event `event` is set with `barriers` barriers: the slots of its
    /// previous set (which mark what that set reached) are cleared from
    /// every value and freed, and one fresh slot per barrier is handed out
    /// (each barrier of the dependency info is its own memory dependency,
    /// so each has its own signal-side pseudo stage). `None` when fewer
    /// than `barriers` slots are free (the callers refuse such programs
    /// first).
    pub fn set_event(&mut self, event: u32, barriers: usize) -> Option<Vec<u32>> {
        self.clear_event(event);
        let free: Vec<u32> = (0..64u32)
            .filter(|b| self.used_slots & (1 << b) == 0)
            .take(barriers)
            .collect();
        if free.len() < barriers {
            return None;
        }
        for b in &free {
            self.used_slots |= 1 << b;
        }
        self.event_slots.push((event, free.clone()));
        Some(free)
    }

    /// The slots of event `event`'s current set, one per barrier.
    pub fn event_slots(&self, event: u32) -> Option<&[u32]> {
        self.event_slots
            .iter()
            .find(|(e, _)| *e == event)
            .map(|(_, s)| s.as_slice())
    }

    /// Forgets event `event`'s current set (a new set, device or host): its
    /// slots are cleared from every value and freed.
    pub fn clear_event(&mut self, event: u32) {
        let Some(i) = self.event_slots.iter().position(|(e, _)| *e == event) else {
            return;
        };
        let (_, slots) = self.event_slots.swap_remove(i);
        let mask = slots.iter().fold(0u64, |m, b| m | (1 << b));
        self.used_slots &= !mask;
        self.nodes.map_all(|v| SyncVal {
            events: v.events & !mask,
            exec_events: v.exec_events & !mask,
            ..v
        });
    }

    /// `vkQueueSubmit`: everything recorded so far is submitted.
    pub fn submit(&mut self) {
        self.open_host_barriers.clear();
        self.nodes.map_keyed(MapKey::Submit, |v| SyncVal {
            submitted: true,
            host_submitted: v.host_submitted.union(v.host_pending),
            host_pending: StageAccessSet::EMPTY,
            ..v
        });
    }

    /// A fence wait on every submission so far: submitted accesses complete
    /// before later host operations and later submissions. The fence
    /// signal made every submitted write available, so from now on every
    /// later barrier's first scope continues its chain: its `order` becomes
    /// every device stage. Barriers recorded since the last submit run after
    /// this wait (their batch is submitted later), so those that move writes
    /// to the host domain reach the writes this wait completes.
    pub fn wait(&mut self) {
        for b in self.open_host_barriers.clone() {
            self.grant_to_completing(&b);
        }
        self.nodes.map_keyed(MapKey::Wait, |v| {
            let fenced = v.fenced || v.submitted;
            // A write's execution chain is at least its availability
            // chain (a read's stays empty: its `order` is its chain).
            let exec = if fenced && v.sa.is_write() {
                StageSet::ALL_DEVICE
            } else {
                v.exec
            };
            SyncVal {
                fenced,
                order: if fenced { StageSet::ALL_DEVICE } else { v.order },
                exec,
                visible: v.visible.union(v.host_submitted),
                host_submitted: StageAccessSet::EMPTY,
                ..v
            }
        });
    }

    /// Grants barrier `b`'s host pairs (as pending: `b` is not submitted
    /// yet) to the writes the current wait completes (submitted, not yet
    /// waited for), over `b`'s range.
    fn grant_to_completing(&mut self, b: &ResolvedBarrier) {
        let pairs = StageAccessSet(b.dst_access.0 & HOST_PAIRS.0);
        let completing = |v: &SyncVal| v.sa.is_write() && v.submitted && !v.fenced;
        let grant = |v: SyncVal| SyncVal {
            host_pending: v.host_pending.union(pairs),
            ..v
        };
        let Some(r) = b.range else {
            self.nodes.map_all(|v| if completing(&v) { grant(v) } else { v });
            return;
        };
        let m = self.grow(r.mem);
        self.mems[m].split_at(r.range.start);
        self.mems[m].split_at(r.range.end);
        for k in self.mems[m].starts_in(r.range) {
            // Invariant: `k` was just listed.
            let (_, state) = self.mems[m].get(k).expect("listed entry");
            let writes = state.writes.get(&self.spills).to_vec();
            let mut new = writes.clone();
            for w in new.iter_mut() {
                let v = self.nodes.val(w.node);
                if completing(&v) {
                    w.node = self.nodes.intern(grant(v));
                }
            }
            if new != writes {
                // Invariant: `k` was listed above.
                let e = self.mems[m].get_mut(k).expect("listed entry");
                e.writes.set(&new, &mut self.spills);
            }
        }
        if !self.no_merge {
            self.merge(m, r.range);
        }
    }
}

/// Merges the entries of `map` in and next to `range` with equal
/// (canonical) states, and while `runs` is given, joins pieces written
/// alike by distinct commands into runs ([`join_runs`]).
fn merge(map: &mut RangeMap<EntryState>, range: ByteRange, nodes: &mut Nodes, runs: Option<&mut Runs>) {
    match runs {
        Some(runs) => map.merge_around_with(
            range,
            |s| s.canonicalize(nodes),
            |a, ar, b, br| join_runs(runs, a, ar, b, br),
        ),
        None => map.merge_around(range, |s| s.canonicalize(nodes)),
    }
}

/// Appends a hazard, extending the previous one when it continues it.
fn push_merged(out: &mut Vec<RawHazard>, h: RawHazard) {
    if let Some(last) = out.last_mut() {
        let same = last.kind == h.kind
            && last.prior_command == h.prior_command
            && last.prior == h.prior
            && last.current == h.current
            && last.mem == h.mem
            && last.needs_wait == h.needs_wait
            && last.prior_in_flight == h.prior_in_flight
            && last.range.end == h.range.start
            && last.pieces.is_none()
            && h.pieces.is_none();
        if same {
            last.range.end = h.range.end;
            return;
        }
    }
    out.push(h);
}

/// Whether the earlier access `prior` is ordered before the layout
/// transition of barrier `b` under `sem` (no hazard of the transition
/// against it): [`ordered_before_transition`], and for a write under
/// D23 also [`layer_transition_sees`]. The one home of that decision: the
/// checker's transitions and the planners' barriers that chain into a
/// render pass's automatic transition (`crate::plan`) ask it.
pub(crate) fn transition_ordered(prior: SyncVal, b: &ResolvedBarrier, sem: Semantics) -> bool {
    // D27: the layers order it by its own barrier only.
    ordered_before_transition(prior, b, sem.transition_outside_all_commands_second)
        && (!prior.sa.is_write() || !sem.transition_needs_visibility || layer_transition_sees(prior, b))
}

/// D23: whether a layer before 1.3.269 takes the earlier device write
/// `prior` as ordered before the layout transition of barrier `b`
/// (`ResourceAccessState::IsWriteBarrierHazard` at 1.3.239): the write is
/// in `b`'s first access scope, or it is in the chain of `b`'s first
/// synchronization scope *and* an earlier barrier made it visible to some
/// (stage, access) of `b`'s first access scope. An earlier transition is
/// ordered by submission order there too; host accesses and fenced
/// writes are outside what that layer sees in one command buffer.
fn layer_transition_sees(prior: SyncVal, b: &ResolvedBarrier) -> bool {
    if prior.sa.stage() == Stage::Host || prior.sa.is_layout_transition() || prior.fenced {
        return true;
    }
    b.src_access.contains(prior.sa)
        || (prior.order.intersects(b.without_transition_chain().src_exec)
            && (prior.visible.0 & b.src_access.0) != 0)
}
