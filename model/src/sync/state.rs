//! What the checker stores per byte range: the earlier writes and reads a
//! later access can still race with ([`EntryState`]), as `(command, node)`
//! records ([`Rec`]). Both lists are stored inline so that the state is
//! `Copy` and small: range entries are split, merged and copied constantly,
//! and a heap allocation per entry dominated the checker's time. Which
//! records to keep is the checker's decision; this module only stores them,
//! and joins neighbours written alike by distinct commands into a run of
//! pieces ([`Runs`]), whose state is one while its pieces keep their
//! commands for the report.

use super::intern::Nodes;
use crate::ir::program::ByteRange;
use crate::vk::scope::StageSet;
use std::collections::BTreeSet;

/// How many write records an entry holds inline; more go to a spill list.
pub(crate) const INLINE_WRITES: usize = 2;

/// The writes an entry holds, in program order. Almost always one, so up
/// to [`INLINE_WRITES`] are stored inline and the whole entry state stays
/// `Copy` and small (range entries are split, merged and copied
/// constantly). A longer list (racing writes, in racy programs) lives in
/// the checker's [`Spills`], copied on write: a spill list is never changed
/// once stored, so entries that copied one keep seeing their own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Writes {
    items: [Rec; INLINE_WRITES],
    /// Up to [`INLINE_WRITES`]: the number of inline records; above it,
    /// `INLINE_WRITES + 1 +` the index of the list in [`Spills`].
    tag: u32,
}

/// Spilled write lists (see [`Writes`]). Lists are only ever added; a list
/// no entry refers to any more is garbage until the checker is dropped
/// (only racy programs spill).
pub(crate) type Spills = Vec<Vec<Rec>>;

impl Writes {
    const INLINE: u32 = INLINE_WRITES as u32;

    /// The spill list index, if the records are spilled.
    pub(crate) fn spilled(&self) -> Option<usize> {
        (self.tag > Self::INLINE).then(|| (self.tag - Self::INLINE - 1) as usize)
    }

    /// The records.
    pub(crate) fn get<'a>(&'a self, spills: &'a Spills) -> &'a [Rec] {
        match self.spilled() {
            None => &self.items[..self.tag as usize],
            Some(i) => &spills[i],
        }
    }

    /// Replaces the records.
    pub(crate) fn set(&mut self, recs: &[Rec], spills: &mut Spills) {
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
    pub(crate) fn retain_push(&mut self, spills: &mut Spills, mut keep: impl FnMut(&Rec) -> bool, rec: Rec) {
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
    pub(crate) fn renode(&mut self, spills: &mut Spills, ids: &mut impl Iterator<Item = u32>) {
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

    /// The one write, when there is exactly one and it is inline.
    pub(crate) fn single(&self) -> Option<Rec> {
        (self.tag == 1).then_some(self.items[0])
    }

    /// Exactly `rec`.
    pub(crate) fn one(rec: Rec) -> Writes {
        let mut w = Writes::default();
        w.items[0] = rec;
        w.tag = 1;
        w
    }

    /// Canonicalizes inline node ids (spilled lists are compared by
    /// identity, which only ever keeps two equal entries apart).
    pub(crate) fn canonicalize(&mut self, nodes: &mut Nodes) {
        if self.spilled().is_none() {
            for w in self.items[..self.tag as usize].iter_mut() {
                w.node = nodes.find(w.node);
            }
        }
    }
}
/// The records of `recs` whose key no later record shares, in order, each
/// with its key: of records with one synchronization value, the latest
/// stands for the rest (the reporting rule, `docs/semantics.md`).
pub(crate) fn latest_by_key<K: PartialEq>(recs: &[Rec], mut key: impl FnMut(&Rec) -> K) -> Vec<(Rec, K)> {
    let mut out: Vec<(Rec, K)> = Vec::with_capacity(recs.len());
    for r in recs.iter().rev() {
        let k = key(r);
        if !out.iter().any(|(_, u)| *u == k) {
            out.push((*r, k));
        }
    }
    out.reverse();
    out
}

/// A recorded access: the command that made it and its interned value.
/// A write's `cmd` with [`RUN`] set names a run of pieces instead
/// ([`Runs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Rec {
    pub(crate) cmd: u32,
    pub(crate) node: u32,
}

/// The bit of [`Rec::cmd`] that makes it the index of a run in [`Runs`].
const RUN: u32 = 1 << 31;

/// Adjacent range entries whose states differ only in the command of
/// their one write (one value, the same reads: many pieces of a buffer
/// written by distinct commands alike, issue 27's `pieces`) are joined
/// into one entry whose write names a run: the pieces' byte ranges (of
/// memory, in address order, disjoint) and each one's command. The
/// entry's state is then one, so a later access of the whole buffer
/// updates one entry, not one per piece; only the report expands the run
/// ([`for_each_piece`]). An entry naming a run holds the pieces inside
/// its own range (a split entry shares the run; a piece of bytes since
/// written by another access lies outside every entry naming the run).
/// A run only grows at its end ([`join_runs`]), so joining costs O(1);
/// runs no entry names any more are garbage until the checker is
/// dropped, as [`Spills`] are.
pub(crate) type Runs = Vec<Run>;

/// A run: its pieces in address order, and the distinct commands that
/// wrote them, so that an access over the whole run is summarized in
/// O(log n) ([`summarize`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Run {
    pub(crate) pieces: Vec<Piece>,
    cmds: BTreeSet<u32>,
}

impl Run {
    fn push(&mut self, p: Piece) {
        self.cmds.insert(p.cmd);
        self.pieces.push(p);
    }
}

/// The pieces of one run an access touches, as the report needs them: a
/// checker that summarizes ([`crate::sync::checker::PieceHazards::Summary`])
/// names one hazard per run and access, its earlier command the nearest
/// piece's, with this summary of the others, instead of one hazard per
/// piece (issue 27's `pieces`: a copy of a buffer written in `n` pieces
/// would otherwise cost `n` per copy in the report). What the grouping
/// needs of the pairs the pieces stand for is here; a group that also
/// holds other hazards gets the pieces one by one instead
/// ([`crate::sync::checker::Checker::settle_pieces`]), so that commands two
/// of its hazards share are counted once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RunSummary {
    /// The run, and its pieces `lo..hi` the access touches.
    pub(crate) run: u32,
    pub(crate) lo: u32,
    pub(crate) hi: u32,
    /// How many distinct commands wrote those pieces.
    pub(crate) distinct: u32,
    /// The latest three of them, latest first (`u32::MAX`: none).
    pub(crate) named: [u32; 3],
    /// The earliest of them.
    pub(crate) earliest: u32,
}

/// The summary of `rec`'s run over `range` (inside the range of an entry
/// holding `rec`) and the hull of the bytes its pieces there cover, when
/// `rec` names a run of which at least two pieces lie in `range`.
pub(crate) fn summarize(rec: Rec, runs: &Runs, range: ByteRange) -> Option<(RunSummary, ByteRange)> {
    let i = rec.run()?;
    let run = &runs[i];
    let lo = run.pieces.partition_point(|p| p.end <= range.start);
    let hi = lo + run.pieces[lo..].partition_point(|p| p.start < range.end);
    if hi - lo < 2 {
        return None;
    }
    let mut named = [u32::MAX; 3];
    let (distinct, earliest) = if lo == 0 && hi == run.pieces.len() {
        for (n, c) in named.iter_mut().zip(run.cmds.iter().rev()) {
            *n = *c;
        }
        (run.cmds.len(), *run.cmds.first()?)
    } else {
        let mut cmds: Vec<u32> = run.pieces[lo..hi].iter().map(|p| p.cmd).collect();
        cmds.sort_unstable();
        cmds.dedup();
        for (n, c) in named.iter_mut().zip(cmds.iter().rev()) {
            *n = *c;
        }
        (cmds.len(), cmds[0])
    };
    let hull = ByteRange::new(
        run.pieces[lo].start.max(range.start),
        run.pieces[hi - 1].end.min(range.end),
    );
    let summary = RunSummary {
        run: i as u32,
        lo: lo as u32,
        hi: hi as u32,
        distinct: distinct as u32,
        named,
        earliest,
    };
    Some((summary, hull))
}

/// One piece of a run: its bytes and the command that wrote them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    pub(crate) start: u64,
    pub(crate) end: u64,
    pub(crate) cmd: u32,
}

impl Rec {
    /// The index of the run this record names, if it names one.
    pub(crate) fn run(&self) -> Option<usize> {
        (self.cmd & RUN != 0).then_some((self.cmd & !RUN) as usize)
    }
}

/// Calls `f` with the command and bytes of each piece of `rec` over
/// `range` (inside the range of an entry holding `rec`), in address
/// order: `rec` itself over all of `range` when it names no run.
pub(crate) fn for_each_piece(rec: Rec, runs: &Runs, range: ByteRange, mut f: impl FnMut(Rec, ByteRange)) {
    for_each_piece_while(rec, runs, range, |r, bytes| {
        f(r, bytes);
        true
    });
}

/// [`for_each_piece`] while `f` returns `true`.
pub(crate) fn for_each_piece_while(
    rec: Rec,
    runs: &Runs,
    range: ByteRange,
    mut f: impl FnMut(Rec, ByteRange) -> bool,
) {
    let Some(i) = rec.run() else {
        f(rec, range);
        return;
    };
    let pieces = &runs[i].pieces;
    let first = pieces.partition_point(|p| p.end <= range.start);
    for p in pieces[first..].iter().take_while(|p| p.start < range.end) {
        let bytes = ByteRange::new(p.start.max(range.start), p.end.min(range.end));
        let more = f(
            Rec {
                cmd: p.cmd,
                node: rec.node,
            },
            bytes,
        );
        if !more {
            return;
        }
    }
}

/// The state of two adjacent entries, `a` over `ar` and `b` over `br`
/// right after it, as one entry whose write names a run, when they differ
/// only in the command of their one inline write (both canonical) and
/// `b`'s names no run; `None` otherwise. `a`'s run grows in place when
/// its last piece ends where `b` starts (no entry holds bytes of the run
/// past that); a run elsewhere is left alone (joining it would copy it).
pub(crate) fn join_runs(
    runs: &mut Runs,
    a: &EntryState,
    ar: ByteRange,
    b: &EntryState,
    br: ByteRange,
) -> Option<EntryState> {
    let (wa, wb) = (a.writes.single()?, b.writes.single()?);
    if wa.node != wb.node || a.reads != b.reads || wb.run().is_some() || wa.cmd == wb.cmd {
        return None;
    }
    let next = Piece {
        start: br.start,
        end: br.end,
        cmd: wb.cmd,
    };
    let i = match wa.run() {
        Some(i) => {
            let last = runs[i].pieces.last_mut()?;
            if last.end != br.start {
                return None;
            }
            if last.cmd == next.cmd {
                last.end = next.end;
            } else {
                runs[i].push(next);
            }
            i
        }
        None => {
            let first = Piece {
                start: ar.start,
                end: ar.end,
                cmd: wa.cmd,
            };
            let mut run = Run::default();
            run.push(first);
            run.push(next);
            runs.push(run);
            runs.len() - 1
        }
    };
    let mut joined = *a;
    joined.writes = Writes::one(Rec {
        cmd: RUN | i as u32,
        node: wa.node,
    });
    Some(joined)
}

/// The reads since the last write, at most one per stage (so at most one
/// per concrete device stage: sixteen, the graphics stages included), but
/// more in a stage a rendering instance's implicit dependencies name, or in
/// any stage a draw accesses in a subpass of a render pass (older ones no
/// other stands for, and one of the current instance:
/// `Checker::record_one`), sorted by stage, and in program order within a
/// stage. Up to [`Reads::ROOM`] are stored inline: range entries are
/// split, merged and copied constantly, and a heap allocation per entry
/// dominated the checker's time. More (older reads of many earlier render
/// pass or rendering instances, ordered into incomparable stages, none
/// standing for another) go to the checker's [`Spills`], copied on write
/// as [`Writes`]' do: no two of them are folded into one, since no one
/// value says what each of them is ordered before (a later barrier may
/// chain with one and not the other), and a fold would find races the
/// definition does not (review10's `fold-false-alarm`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Reads {
    /// Up to [`Reads::ROOM`]: the number of inline records; [`SPILLED`]:
    /// the records are the spill list whose index `items[0].node` holds.
    len: u8,
    /// D1 emulation only: the stages the layer's `read_execution_barriers`
    /// still holds from reads a newer read in their stage replaced (the
    /// layer ORs every read's barriers into it and clears it only at the
    /// next write). Always empty under the specification.
    pub(crate) replaced: StageSet,
    items: [Rec; Reads::ROOM],
}

/// [`Reads::len`] of reads stored in [`Spills`].
const SPILLED: u8 = u8::MAX;

/// How many stages a rendering instance's implicit dependencies name
/// (`COLOR_ATTACHMENT_OUTPUT`, `EARLY_FRAGMENT_TESTS`,
/// `LATE_FRAGMENT_TESTS`; tested against `crate::ir::render::implicit_stages`).
#[cfg(test)]
const IMPLICIT_STAGES: usize = 3;

/// Spilled lists are compared by identity (as [`Writes`]' are), which
/// only ever keeps two equal entries apart.
impl PartialEq for Reads {
    fn eq(&self, other: &Self) -> bool {
        let n = if self.len == SPILLED { 1 } else { self.len as usize };
        self.replaced == other.replaced && self.len == other.len && self.items[..n] == other.items[..n]
    }
}

impl Eq for Reads {}

impl Reads {
    /// Inline room for one read per stage compute and transfer work reads
    /// in (the shares of [`Stage::ACCESSING`], [`Reads::share`]: all but
    /// `CLEAR`, which only writes, and the host, whose reads are not kept),
    /// so a compute program never spills. Reads of draws (a stage a draw
    /// accesses in may keep two) spill past it. The room was every
    /// stage's share until the sixteenth session: 27 records inline made
    /// a range entry 256 bytes, which every split, merge and B-tree move
    /// copied (docs/performance.md, "The ratio on 2026-12-05").
    pub(crate) const ROOM: usize = 6;

    /// The spill list index, if the records are spilled.
    fn spilled(&self) -> Option<usize> {
        (self.len == SPILLED).then_some(self.items[0].node as usize)
    }

    /// The records.
    pub(crate) fn get<'a>(&'a self, spills: &'a Spills) -> &'a [Rec] {
        match self.spilled() {
            None => &self.items[..self.len as usize],
            Some(i) => &spills[i],
        }
    }

    /// Replaces the records (`replaced` stays).
    fn set(&mut self, recs: &[Rec], spills: &mut Spills) {
        if recs.len() <= Reads::ROOM {
            self.items[..recs.len()].copy_from_slice(recs);
            self.len = recs.len() as u8;
        } else {
            spills.push(recs.to_vec());
            self.items[0] = Rec {
                cmd: 0,
                node: (spills.len() - 1) as u32,
            };
            self.len = SPILLED;
        }
    }

    /// Applies `f` to a copy of spilled records and stores the result.
    fn edit_spilled(&mut self, spills: &mut Spills, f: impl FnOnce(&mut Vec<Rec>)) {
        let mut v = self.get(spills).to_vec();
        f(&mut v);
        self.set(&v, spills);
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.replaced = StageSet::EMPTY;
    }
    /// Removes the read at `i`, shifting later reads down.
    pub(crate) fn remove(&mut self, i: usize, spills: &mut Spills) {
        if self.spilled().is_some() {
            return self.edit_spilled(spills, |v| {
                v.remove(i);
            });
        }
        let n = self.len as usize;
        self.items.copy_within(i + 1..n, i);
        self.len -= 1;
    }
    /// Replaces the read at `i` by `rec`.
    pub(crate) fn put(&mut self, i: usize, rec: Rec, spills: &mut Spills) {
        if self.spilled().is_some() {
            return self.edit_spilled(spills, |v| v[i] = rec);
        }
        self.items[..self.len as usize][i] = rec;
    }
    /// A stage's share of reads: one read for a device stage, two for one
    /// a draw accesses in (an older one and one of the current instance),
    /// none for the host (host reads are not kept). The shares of the
    /// stages compute and transfer work reads in add up to
    /// [`Reads::ROOM`]; draws' stages spill.
    #[cfg(test)]
    pub(crate) fn share(s: crate::vk::scope::Stage) -> usize {
        use crate::vk::scope::Stage;
        let draw = s == Stage::DrawIndirect || Stage::GRAPHICS.contains(&s);
        usize::from(s != Stage::Host) + usize::from(draw)
    }

    /// Inserts at `i`, shifting later reads up; spills when the inline
    /// room is full.
    pub(crate) fn insert(&mut self, i: usize, rec: Rec, spills: &mut Spills) {
        let n = self.len as usize;
        if self.spilled().is_some() || n == Reads::ROOM {
            return self.edit_spilled(spills, |v| v.insert(i, rec));
        }
        self.items.copy_within(i..n, i + 1);
        self.items[i] = rec;
        self.len += 1;
    }

    /// Gives the records, in order, the node ids `ids` yields.
    pub(crate) fn renode(&mut self, spills: &mut Spills, ids: &mut impl Iterator<Item = u32>) {
        let next = |r: &mut Rec| r.node = ids.next().expect("one value per record");
        if self.spilled().is_some() {
            return self.edit_spilled(spills, |v| v.iter_mut().for_each(next));
        }
        self.items[..self.len as usize].iter_mut().for_each(next);
    }

    /// Canonicalizes inline node ids (spilled lists are compared by
    /// identity).
    fn canonicalize(&mut self, nodes: &mut Nodes) {
        if self.spilled().is_none() {
            for r in self.items[..self.len as usize].iter_mut() {
                r.node = nodes.find(r.node);
            }
        }
    }
}

/// The state of a byte range: the earlier writes and reads that a later
/// access can still race with (see [`super::checker::Checker`] for why these suffice):
/// reads sorted by stage ([`Reads`]), writes in program order; almost
/// always there is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct EntryState {
    pub(crate) writes: Writes,
    pub(crate) reads: Reads,
}

impl EntryState {
    /// Every record, writes first (in program order), then reads (by stage).
    pub(crate) fn records(&self, spills: &Spills) -> Vec<Rec> {
        self.writes
            .get(spills)
            .iter()
            .chain(self.reads.get(spills))
            .copied()
            .collect()
    }

    /// Replaces every node id by its canonical node, so that equal states
    /// compare equal.
    pub(crate) fn canonicalize(&mut self, nodes: &mut Nodes) {
        self.writes.canonicalize(nodes);
        self.reads.canonicalize(nodes);
    }
}

#[cfg(test)]
mod tests {
    /// The room is the shares of the stages compute and transfer work
    /// reads in (the stages before the graphics ones, less `CLEAR`).
    #[test]
    fn room_is_the_compute_and_transfer_shares() {
        use crate::vk::scope::Stage;
        let shares: usize = Stage::ACCESSING
            .iter()
            .filter(|&&s| s != Stage::Clear)
            .map(|&s| super::Reads::share(s))
            .sum();
        assert_eq!(shares, super::Reads::ROOM);
    }

    /// Past the room reads spill, and every operation on a spilled list
    /// keeps the records in order.
    #[test]
    fn reads_spill_past_the_room_and_come_back() {
        use super::{Reads, Rec, Spills};
        let mut spills: Spills = Vec::new();
        let mut r = Reads::default();
        let rec = |i: u32| Rec {
            cmd: i,
            node: 100 + i,
        };
        for i in 0..Reads::ROOM as u32 + 3 {
            r.insert(i as usize, rec(i), &mut spills);
        }
        let want: Vec<Rec> = (0..Reads::ROOM as u32 + 3).map(rec).collect();
        assert_eq!(r.get(&spills), &want[..]);
        r.remove(0, &mut spills);
        r.put(0, rec(42), &mut spills);
        let mut want = want[1..].to_vec();
        want[0] = rec(42);
        assert_eq!(r.get(&spills), &want[..]);
        // Back under the room: inline again.
        while r.get(&spills).len() > Reads::ROOM - 1 {
            r.remove(0, &mut spills);
        }
        r.insert(0, rec(7), &mut spills);
        let n = r.get(&spills).len();
        assert_eq!(n, Reads::ROOM);
        assert_eq!(r.get(&spills)[0], rec(7));
    }

    /// The reads' inline room for one older read per stage an implicit
    /// dependency names is that many stages.
    #[test]
    fn room_for_the_implicit_dependencies_stages() {
        let stages = crate::vk::scope::exact_scope(crate::ir::render::implicit_stages());
        assert_eq!(stages.iter().count(), super::IMPLICIT_STAGES);
        assert!(stages
            .iter()
            .all(|s| s == crate::vk::scope::Stage::DrawIndirect
                || crate::vk::scope::Stage::GRAPHICS.contains(&s)));
    }
}
