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
//! proportional to distinct histories.
//!
//! With [`Semantics::last_write_shortcut`] (the validation layer's history,
//! D12) an entry keeps only the last write and the reads since it, and a
//! write is checked against those reads alone when there are any.

use crate::ir::layout::{MemId, MemRange};
use crate::ir::program::ByteRange;
use crate::semantics::Semantics;
use crate::vk::scope::{Stage, StageAccess, StageAccessSet, StageSet};
/// How many write records an entry holds inline; more go to a spill list.
const INLINE_WRITES: usize = 2;

/// The writes an entry holds, in program order. Almost always one, so up
/// to [`INLINE_WRITES`] are stored inline and the whole entry state stays
/// `Copy` and small (range entries are split, merged and copied
/// constantly). A longer list (racing writes, in racy programs) lives in
/// the checker's [`Spills`], copied on write: a spill list is never changed
/// once stored, so entries that copied one keep seeing their own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Writes {
    items: [Rec; INLINE_WRITES],
    /// Up to [`INLINE_WRITES`]: the number of inline records; above it,
    /// `INLINE_WRITES + 1 +` the index of the list in [`Spills`].
    tag: u32,
}

/// Spilled write lists (see [`Writes`]). Lists are only ever added; a list
/// no entry refers to any more is garbage until the checker is dropped
/// (only racy programs spill).
type Spills = Vec<Vec<Rec>>;

impl Writes {
    const INLINE: u32 = INLINE_WRITES as u32;

    /// The spill list index, if the records are spilled.
    fn spilled(&self) -> Option<usize> {
        (self.tag > Self::INLINE).then(|| (self.tag - Self::INLINE - 1) as usize)
    }

    /// The records.
    fn get<'a>(&'a self, spills: &'a Spills) -> &'a [Rec] {
        match self.spilled() {
            None => &self.items[..self.tag as usize],
            Some(i) => &spills[i],
        }
    }

    /// Replaces the records.
    fn set(&mut self, recs: &[Rec], spills: &mut Spills) {
        if recs.len() <= INLINE_WRITES {
            *self = Writes::default();
            self.items[..recs.len()].copy_from_slice(recs);
            self.tag = recs.len() as u32;
        } else {
            spills.push(recs.to_vec());
            *self = Writes {
                items: [Rec::default(); INLINE_WRITES],
                tag: Self::INLINE + spills.len() as u32,
            };
        }
    }

    /// Keeps the records `keep` accepts and appends `rec`, without
    /// allocating when the result fits inline.
    fn retain_push(&mut self, spills: &mut Spills, mut keep: impl FnMut(&Rec) -> bool, rec: Rec) {
        // The common cases: no write yet, or one the new write replaces.
        if self.tag == 0 || (self.tag == 1 && !keep(&self.items[0])) {
            self.items[0] = rec;
            self.tag = 1;
            return;
        }
        if self.spilled().is_none() {
            let mut buf = [Rec::default(); INLINE_WRITES + 1];
            let mut n = 0;
            for r in &self.items[..self.tag as usize] {
                if keep(r) {
                    buf[n] = *r;
                    n += 1;
                }
            }
            buf[n] = rec;
            self.set(&buf[..=n], spills);
        } else {
            let mut v: Vec<Rec> = self.get(spills).iter().copied().filter(|r| keep(r)).collect();
            v.push(rec);
            self.set(&v, spills);
        }
    }

    /// Gives the records, in order, the node ids `ids` yields.
    fn renode(&mut self, spills: &mut Spills, ids: &mut impl Iterator<Item = u32>) {
        if self.spilled().is_none() {
            for w in self.items[..self.tag as usize].iter_mut() {
                w.node = ids.next().expect("one value per record");
            }
        } else {
            let v: Vec<Rec> = self
                .get(spills)
                .iter()
                .map(|w| Rec {
                    node: ids.next().expect("one value per record"),
                    ..*w
                })
                .collect();
            self.set(&v, spills);
        }
    }

    /// Canonicalizes inline node ids (spilled lists are compared by
    /// identity, which only ever keeps two equal entries apart).
    fn canonicalize(&mut self, nodes: &mut Nodes) {
        if self.spilled().is_none() {
            for w in self.items[..self.tag as usize].iter_mut() {
                w.node = nodes.find(w.node);
            }
        }
    }
}
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// One memory access of a command: a (stage, access) pair over a memory
/// range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Access {
    pub mem: MemId,
    pub range: ByteRange,
    pub sa: StageAccess,
}

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

/// The three hazards, named as the validation layer names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HazardKind {
    ReadAfterWrite,
    WriteAfterRead,
    WriteAfterWrite,
}

impl HazardKind {
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
    /// The prior access was submitted but not yet waited for when the
    /// current (device) access was recorded. The current command runs when
    /// its own batch is submitted: a fence wait before that submit orders
    /// the two, and the hazard disappears (see [`crate::hazard::check`]).
    pub prior_in_flight: bool,
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
const HOST_PAIRS: StageAccessSet =
    StageAccessSet((1 << StageAccess::HostRead as u16) | (1 << StageAccess::HostWrite as u16));

impl SyncVal {
    fn fresh(sa: StageAccess) -> Self {
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
    fn apply_each(self, effects: &[(ResolvedBarrier, Reach)]) -> Self {
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

/// A recorded access: the command that made it and its interned value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
struct Rec {
    cmd: u32,
    node: u32,
}

/// The reads since the last write, at most one per stage (so at most one
/// per concrete stage: seven), sorted by stage. Stored inline: range
/// entries are split, merged and copied constantly, and a heap allocation
/// per entry dominated the checker's time.
#[derive(Clone, Copy, Debug, Default)]
struct Reads {
    len: u8,
    /// D1 emulation only: the stages the layer's `read_execution_barriers`
    /// still holds from reads a newer read in their stage replaced (the
    /// layer ORs every read's barriers into it and clears it only at the
    /// next write). Always empty under the specification.
    replaced: StageSet,
    items: [Rec; Stage::ALL.len() - 1],
}

impl PartialEq for Reads {
    fn eq(&self, other: &Self) -> bool {
        self.replaced == other.replaced && self.as_slice() == other.as_slice()
    }
}

impl Eq for Reads {}

impl Reads {
    fn as_slice(&self) -> &[Rec] {
        &self.items[..self.len as usize]
    }
    fn iter(&self) -> std::slice::Iter<'_, Rec> {
        self.as_slice().iter()
    }
    fn iter_mut(&mut self) -> std::slice::IterMut<'_, Rec> {
        self.items[..self.len as usize].iter_mut()
    }
    fn is_empty(&self) -> bool {
        self.len == 0
    }
    fn clear(&mut self) {
        self.len = 0;
        self.replaced = StageSet::EMPTY;
    }
    /// Inserts at `i`, shifting later reads up. The caller keeps one read
    /// per stage, so the array never overflows.
    fn insert(&mut self, i: usize, rec: Rec) {
        let n = self.len as usize;
        self.items.copy_within(i..n, i + 1);
        self.items[i] = rec;
        self.len += 1;
    }
}

impl std::ops::Index<usize> for Reads {
    type Output = Rec;
    fn index(&self, i: usize) -> &Rec {
        &self.as_slice()[i]
    }
}

impl std::ops::IndexMut<usize> for Reads {
    fn index_mut(&mut self, i: usize) -> &mut Rec {
        &mut self.items[..self.len as usize][i]
    }
}

/// The state of a byte range: the earlier writes and reads that a later
/// access can still race with (see [`Checker`] for why these suffice), at
/// most one read per stage, sorted by stage. Writes are in program order;
/// almost always there is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct EntryState {
    writes: Writes,
    reads: Reads,
}

#[derive(Clone, Debug)]
struct Entry {
    end: u64,
    state: EntryState,
}

/// A multiplicative hasher for the small fixed-size keys of the interning
/// table. SipHash's protection against adversarial keys buys nothing here
/// and cost a sixth of the checker's time.
#[derive(Default, Clone, Copy)]
struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
    fn write_u16(&mut self, x: u16) {
        self.write_u64(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn write_isize(&mut self, x: isize) {
        self.write_u64(x as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<FastHasher>>;

/// Interned synchronization values with union-find redirects.
#[derive(Default, Clone, Debug)]
struct Nodes {
    vals: Vec<SyncVal>,
    parent: Vec<u32>,
    canonical: FastMap<SyncVal, u32>,
    /// The node of each (stage, access) pair's fresh value (nothing ordered
    /// after it yet), the value every new access starts with. Cleared when
    /// values change.
    fresh: [Option<u32>; StageAccess::ALL.len()],
}

impl Nodes {
    fn intern_fresh(&mut self, sa: StageAccess) -> u32 {
        if let Some(id) = self.fresh[sa as usize] {
            return id;
        }
        let id = self.intern(SyncVal::fresh(sa));
        self.fresh[sa as usize] = Some(id);
        id
    }

    fn intern(&mut self, v: SyncVal) -> u32 {
        if let Some(&id) = self.canonical.get(&v) {
            return id;
        }
        let id = self.vals.len() as u32;
        self.vals.push(v);
        self.parent.push(id);
        self.canonical.insert(v, id);
        id
    }

    fn find(&mut self, mut id: u32) -> u32 {
        let mut root = id;
        while self.parent[root as usize] != root {
            root = self.parent[root as usize];
        }
        while self.parent[id as usize] != root {
            let next = self.parent[id as usize];
            self.parent[id as usize] = root;
            id = next;
        }
        root
    }

    /// The value of a node without compressing paths (for readers that
    /// hold other borrows of the checker).
    fn peek(&self, mut id: u32) -> SyncVal {
        while self.parent[id as usize] != id {
            id = self.parent[id as usize];
        }
        self.vals[id as usize]
    }

    fn val(&mut self, id: u32) -> SyncVal {
        let r = self.find(id);
        self.vals[r as usize]
    }

    /// Maps every canonical value through `f`, merging nodes whose new
    /// values coincide.
    fn map_all(&mut self, f: impl Fn(SyncVal) -> SyncVal) {
        self.fresh = [None; StageAccess::ALL.len()];
        let old = std::mem::take(&mut self.canonical);
        let mut fresh: FastMap<SyncVal, u32> =
            FastMap::with_capacity_and_hasher(old.len(), Default::default());
        for (v, id) in old {
            let nv = f(v);
            self.vals[id as usize] = nv;
            match fresh.get(&nv) {
                Some(&other) => self.parent[id as usize] = other,
                None => {
                    fresh.insert(nv, id);
                }
            }
        }
        self.canonical = fresh;
    }

    fn len(&self) -> usize {
        self.canonical.len()
    }
}

/// The incremental checker.
#[derive(Clone, Debug, Default)]
pub struct Checker {
    mems: Vec<BTreeMap<u64, Entry>>,
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
}

impl Checker {
    /// A checker over `memories` memory objects, all never accessed.
    pub fn new(memories: usize) -> Self {
        Self::with_semantics(memories, Semantics::SPEC)
    }

    /// A checker with non-default semantics (see [`Semantics`]).
    pub fn with_semantics(memories: usize, sem: Semantics) -> Self {
        Checker {
            mems: vec![BTreeMap::new(); memories],
            nodes: Nodes::default(),
            sem,
            no_merge: false,
            open_host_barriers: Vec::new(),
            spills: Vec::new(),
        }
    }

    /// Turns range merging on or off. Merging is an optimization only; the
    /// laws suite checks that it never changes a verdict.
    pub fn set_merging(&mut self, on: bool) {
        self.no_merge = !on;
    }

    /// The number of range entries over all memory: a measure of how much
    /// distinct history the checker holds.
    pub fn entry_count(&self) -> usize {
        self.mems.iter().map(|m| m.len()).sum()
    }

    /// The number of distinct live synchronization values.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    fn grow(&mut self, mem: MemId) -> usize {
        let i = mem.0 as usize;
        if i >= self.mems.len() {
            self.mems.resize(i + 1, BTreeMap::new());
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
            let first = self.mems[m]
                .range(..=a.range.start)
                .next_back()
                .filter(|(_, e)| e.end > a.range.start)
                .map_or(a.range.start, |(&s, _)| s);
            for (&s, e) in self.mems[m].range(first..a.range.end) {
                let range = ByteRange::new(s.max(a.range.start), e.end.min(a.range.end));
                for h in self.hazards_in(cmd, a, &e.state) {
                    push_merged(
                        &mut out,
                        RawHazard {
                            mem: a.mem,
                            range,
                            ..h
                        },
                    );
                }
            }
        }
        out
    }

    /// Hazards of one access against one entry; `mem` and `range` are
    /// filled in by the caller. One hazard per earlier access still held
    /// that the access races with.
    fn hazards_in(&self, cmd: usize, a: &Access, state: &EntryState) -> Vec<RawHazard> {
        let mut found = Vec::new();
        let cur_device = a.sa.stage() != Stage::Host;
        let mk = |kind, prior: &Rec, pv: SyncVal, (needs_barrier, needs_wait)| RawHazard {
            kind,
            command: cmd,
            prior_command: prior.cmd as usize,
            mem: a.mem,
            range: a.range,
            current: a.sa,
            prior: pv.sa,
            needs_barrier,
            needs_wait,
            prior_in_flight: cur_device && pv.submitted && !pv.fenced,
        };
        let cur_host = a.sa.stage() == Stage::Host;
        if !a.sa.is_write() {
            // D1: the layer skips the check when a barrier already ordered
            // another read of this write before this read's stage.
            let shortcut = self.sem.raw_shortcut_after_ordered_read
                && (state.reads.replaced.contains(a.sa.stage())
                    || state
                        .reads
                        .iter()
                        .any(|r| self.nodes.peek(r.node).order.contains(a.sa.stage())));
            if shortcut {
                return found;
            }
            for w in state.writes.get(&self.spills) {
                let wv = self.nodes.peek(w.node);
                if let Some(needs) = write_conflict(wv, a.sa, self.sem.waw_needs_visibility) {
                    found.push(mk(HazardKind::ReadAfterWrite, w, wv, needs));
                }
            }
            return found;
        }
        for r in state.reads.iter() {
            let rv = self.nodes.peek(r.node);
            // A device command recorded after a host access is submitted
            // after it, and host accesses are ordered among themselves.
            if !read_satisfied(rv, a.sa) {
                // A host write after a device read needs only the wait;
                // a device write needs an execution dependency.
                found.push(mk(HazardKind::WriteAfterRead, r, rv, (!cur_host, cur_host)));
            }
        }
        // D12: the layer checks a write against the last write only when no
        // read came since, assuming the reads ordered it.
        if self.sem.last_write_shortcut && !state.reads.is_empty() {
            return found;
        }
        for w in state.writes.get(&self.spills) {
            let wv = self.nodes.peek(w.node);
            // D6: the 1.3.239 layer drops a write-after-write between two
            // storage writes of bound descriptors.
            let suppressed = self.sem.suppress_dispatch_waw
                && wv.sa == StageAccess::ComputeShaderStorageWrite
                && a.sa == StageAccess::ComputeShaderStorageWrite;
            if suppressed {
                continue;
            }
            if let Some(needs) = write_conflict(wv, a.sa, self.sem.waw_needs_visibility) {
                found.push(mk(HazardKind::WriteAfterWrite, w, wv, needs));
            }
        }
        found
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

    /// Detects, then records: the hazards of command `cmd`.
    pub fn access(&mut self, cmd: usize, accesses: &[Access]) -> Vec<RawHazard> {
        let h = self.detect(cmd, accesses);
        self.record(cmd, accesses);
        h
    }

    fn record_one(&mut self, cmd: usize, a: &Access) {
        // A host read races nothing later: device work recorded after it is
        // submitted after it, and the host's own accesses follow program
        // order. So reads are device reads, at most one per device stage.
        if a.sa == StageAccess::HostRead {
            return;
        }
        let node = self.nodes.intern_fresh(a.sa);
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
            ..
        } = self;
        let map = &mut mems[m];
        let (waw_vis, shortcut) = (sem.waw_needs_visibility, sem.last_write_shortcut);
        let keep_replaced = sem.raw_shortcut_after_ordered_read;
        update_range(map, a.range, |state| {
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
                let keep = |w: &Rec| {
                    let id = nodes.find(w.node);
                    id != rec.node && write_conflict(nodes.vals[id as usize], a.sa, waw_vis).is_some()
                };
                state.writes.retain_push(spills, keep, rec);
                // Reads stay: a read ordered before this write may still race
                // a later write that this one is not ordered before.
            } else {
                // One read per stage: a newer read in a stage replaces the
                // older one, since anything ordered after the newer read by
                // stage is ordered after the older read too.
                let pos = state
                    .reads
                    .iter()
                    .position(|r| nodes.val(r.node).sa.stage() >= stage);
                match pos {
                    Some(i) if nodes.val(state.reads[i].node).sa.stage() == stage => {
                        if keep_replaced {
                            let old = nodes.val(state.reads[i].node).order;
                            state.reads.replaced = state.reads.replaced.union(old);
                        }
                        state.reads[i] = rec
                    }
                    Some(i) => state.reads.insert(i, rec),
                    None => {
                        let n = state.reads.len as usize;
                        state.reads.insert(n, rec)
                    }
                }
            }
        });
        if !*no_merge {
            merge_around(map, a.range, nodes);
        }
    }

    /// Applies the barriers of one `vkCmdPipelineBarrier2`.
    pub fn apply(&mut self, barriers: &[ResolvedBarrier]) {
        if barriers.is_empty() {
            return;
        }
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
                split_at(&mut self.mems[m], r.start);
                split_at(&mut self.mems[m], r.end);
            }
            let mut keys: Vec<u64> = ranges
                .iter()
                .flat_map(|r| {
                    self.mems[m]
                        .range(r.start..r.end)
                        .map(|(&s, _)| s)
                        .collect::<Vec<_>>()
                })
                .collect();
            keys.sort_unstable();
            keys.dedup();
            for s in keys {
                let (end, recs) = {
                    let e = &self.mems[m][&s];
                    (
                        e.end,
                        e.state
                            .writes
                            .get(&self.spills)
                            .iter()
                            .chain(e.state.reads.iter())
                            .copied()
                            .collect::<Vec<_>>(),
                    )
                };
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
                    effects.push((*b, if inside { Reach::Full } else { outside }));
                }
                let vals = recs
                    .iter()
                    .map(|r| self.nodes.val(r.node).apply_each(&effects))
                    .collect();
                pending.push((m, s, vals));
            }
        }
        // The execution dependency (and a global barrier's memory
        // dependency) applies to every access, once per distinct value.
        effects.clear();
        effects.extend(globals.iter().map(|b| (*b, Reach::Full)));
        effects.extend(groups.iter().map(|(b, _)| (*b, outside)));
        self.nodes.map_all(|v| v.apply_each(&effects));
        for (m, s, vals) in pending {
            let ids: Vec<u32> = vals.into_iter().map(|v| self.nodes.intern(v)).collect();
            // Invariant: `s` is a key collected above and nothing removed it.
            let e = self.mems[m].get_mut(&s).expect("entry collected above");
            let mut it = ids.into_iter();
            e.state.writes.renode(&mut self.spills, &mut it);
            for r in e.state.reads.iter_mut() {
                r.node = it.next().expect("one value per record");
            }
        }
        if !self.no_merge {
            for (&m, ranges) in &by_mem {
                for r in ranges {
                    merge_around(&mut self.mems[m], *r, &mut self.nodes);
                }
            }
        }
    }

    /// The distinct values of the accesses `prior_cmd` made with `prior_sa`
    /// that are still the last write or a read since it over `range`.
    pub fn prior_values(
        &mut self,
        mem: MemId,
        range: ByteRange,
        prior_cmd: usize,
        prior_sa: StageAccess,
    ) -> Vec<SyncVal> {
        let m = self.grow(mem);
        let recs: Vec<Rec> = self.mems[m]
            .range(..range.end)
            .rev()
            .take_while(|(_, e)| e.end > range.start)
            .flat_map(|(_, e)| {
                e.state
                    .writes
                    .get(&self.spills)
                    .iter()
                    .chain(e.state.reads.iter())
                    .copied()
                    .collect::<Vec<_>>()
            })
            .filter(|r| r.cmd as usize == prior_cmd)
            .collect();
        let mut out: Vec<SyncVal> = Vec::new();
        for r in recs {
            let v = self.nodes.val(r.node);
            if v.sa == prior_sa && !out.contains(&v) {
                out.push(v);
            }
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

    /// `vkQueueSubmit`: everything recorded so far is submitted.
    pub fn submit(&mut self) {
        self.open_host_barriers.clear();
        self.nodes.map_all(|v| SyncVal {
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
        self.nodes.map_all(|v| {
            let fenced = v.fenced || v.submitted;
            SyncVal {
                fenced,
                order: if fenced { StageSet::ALL_DEVICE } else { v.order },
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
        split_at(&mut self.mems[m], r.range.start);
        split_at(&mut self.mems[m], r.range.end);
        let keys: Vec<u64> = self.mems[m]
            .range(r.range.start..r.range.end)
            .map(|(&k, _)| k)
            .collect();
        for k in keys {
            let writes = self.mems[m][&k].state.writes.get(&self.spills).to_vec();
            let mut new = writes.clone();
            for w in new.iter_mut() {
                let v = self.nodes.val(w.node);
                if completing(&v) {
                    w.node = self.nodes.intern(grant(v));
                }
            }
            if new != writes {
                // Invariant: `k` was listed above.
                let e = self.mems[m].get_mut(&k).expect("listed entry");
                e.state.writes.set(&new, &mut self.spills);
            }
        }
        if !self.no_merge {
            merge_around(&mut self.mems[m], r.range, &mut self.nodes);
        }
    }
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
            && last.range.end == h.range.start;
        if same {
            last.range.end = h.range.end;
            return;
        }
    }
    out.push(h);
}

/// Splits the entry that strictly contains `pos`, if any.
fn split_at(map: &mut BTreeMap<u64, Entry>, pos: u64) {
    let found = map
        .range_mut(..pos)
        .next_back()
        .filter(|(_, e)| e.end > pos)
        .map(|(&s, e)| (s, e.end, e.state));
    if let Some((s, end, state)) = found {
        map.get_mut(&s).expect("entry found above").end = pos;
        map.insert(pos, Entry { end, state });
        debug_assert!(s < pos);
    }
}

/// Applies `f` to the state of every byte of `range`, creating entries with
/// empty state for bytes never accessed.
fn update_range(map: &mut BTreeMap<u64, Entry>, range: ByteRange, mut f: impl FnMut(&mut EntryState)) {
    // Fast path: the range is exactly one entry (a buffer or blob accessed
    // whole again), the common case in real command streams.
    if let Some(e) = map.get_mut(&range.start) {
        if e.end == range.end {
            f(&mut e.state);
            return;
        }
    }
    split_at(map, range.start);
    split_at(map, range.end);
    let mut cursor = range.start;
    let keys: Vec<(u64, u64)> = map
        .range(range.start..range.end)
        .map(|(&s, e)| (s, e.end))
        .collect();
    let mut gaps = Vec::new();
    for (s, end) in keys {
        if s > cursor {
            gaps.push((cursor, s));
        }
        f(&mut map.get_mut(&s).expect("key listed above").state);
        cursor = end;
    }
    if cursor < range.end {
        gaps.push((cursor, range.end));
    }
    for (s, end) in gaps {
        let mut state = EntryState::default();
        f(&mut state);
        map.insert(s, Entry { end, state });
    }
}

/// Canonicalizes node ids in the entries around `range` and merges
/// adjacent entries with equal state.
fn merge_around(map: &mut BTreeMap<u64, Entry>, range: ByteRange, nodes: &mut Nodes) {
    // Canonicalize the node ids of the entries in and next to the range (one
    // pass), remembering their spans and states, then merge equal neighbours.
    let first = map
        .range(..range.start)
        .next_back()
        .map(|(&s, _)| s)
        .unwrap_or(range.start);
    let mut spans: Vec<(u64, u64, EntryState)> = Vec::with_capacity(4);
    for (&k, e) in map.range_mut(first..=range.end) {
        e.state.writes.canonicalize(nodes);
        for r in e.state.reads.iter_mut() {
            r.node = nodes.find(r.node);
        }
        spans.push((k, e.end, e.state));
    }
    // Merge runs of equal neighbours into their first entry.
    let mut i = 0;
    while i < spans.len() {
        let (k, mut end, state) = spans[i];
        let mut j = i + 1;
        while j < spans.len() && spans[j].0 == end && spans[j].2 == state {
            map.remove(&spans[j].0);
            end = spans[j].1;
            j += 1;
        }
        if j > i + 1 {
            // Invariant: `k` was listed in this pass and not removed.
            map.get_mut(&k).expect("key listed above").end = end;
        }
        i = j;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_update_merge_keep_ranges_disjoint() {
        let mut map = BTreeMap::new();
        let mut nodes = Nodes::default();
        let n = nodes.intern(SyncVal::fresh(StageAccess::CopyTransferWrite));
        let rec = |c| Rec { cmd: c, node: n };
        let one = |r| {
            let mut w = Writes::default();
            w.set(&[r], &mut Vec::new());
            w
        };
        update_range(&mut map, ByteRange::new(0, 100), |s| s.writes = one(rec(1)));
        update_range(&mut map, ByteRange::new(40, 60), |s| s.writes = one(rec(2)));
        let spans: Vec<_> = map.iter().map(|(&s, e)| (s, e.end)).collect();
        assert_eq!(spans, vec![(0, 40), (40, 60), (60, 100)]);
        update_range(&mut map, ByteRange::new(40, 60), |s| s.writes = one(rec(1)));
        merge_around(&mut map, ByteRange::new(40, 60), &mut nodes);
        let spans: Vec<_> = map.iter().map(|(&s, e)| (s, e.end)).collect();
        assert_eq!(spans, vec![(0, 100)]);
        update_range(&mut map, ByteRange::new(150, 160), |s| s.writes = one(rec(1)));
        merge_around(&mut map, ByteRange::new(150, 160), &mut nodes);
        let spans: Vec<_> = map.iter().map(|(&s, e)| (s, e.end)).collect();
        assert_eq!(spans, vec![(0, 100), (150, 160)], "a gap never merges");
    }
}
