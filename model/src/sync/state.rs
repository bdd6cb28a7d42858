//! What the checker stores per byte range: the earlier writes and reads a
//! later access can still race with ([`EntryState`]), as `(command, node)`
//! records ([`Rec`]). Both lists are stored inline so that the state is
//! `Copy` and small: range entries are split, merged and copied constantly,
//! and a heap allocation per entry dominated the checker's time. Which
//! records to keep is the checker's decision; this module only stores them.

use super::intern::Nodes;
use crate::vk::scope::{Stage, StageSet};

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Rec {
    pub(crate) cmd: u32,
    pub(crate) node: u32,
}

/// The reads since the last write, at most one per stage (so at most one
/// per concrete device stage: sixteen, the graphics stages included), but
/// two in a stage a rendering instance's implicit dependencies name, or in
/// any stage a draw accesses in a subpass of a render pass (an older one
/// and one of the current instance: `Checker::record_one`), sorted by
/// stage. Stored inline: range
/// entries are split, merged and copied constantly, and a heap allocation
/// per entry dominated the checker's time.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Reads {
    pub(crate) len: u8,
    /// D1 emulation only: the stages the layer's `read_execution_barriers`
    /// still holds from reads a newer read in their stage replaced (the
    /// layer ORs every read's barriers into it and clears it only at the
    /// next write). Always empty under the specification.
    pub(crate) replaced: StageSet,
    items: [Rec; Reads::ROOM],
}

/// How many stages a rendering instance's implicit dependencies name
/// (`COLOR_ATTACHMENT_OUTPUT`, `EARLY_FRAGMENT_TESTS`,
/// `LATE_FRAGMENT_TESTS`; tested against `crate::ir::render::implicit_stages`).
#[cfg(test)]
const IMPLICIT_STAGES: usize = 3;

/// How many stages a draw may access in (`DRAW_INDIRECT` and the graphics
/// stages after it), which include the implicit dependencies' (tested).
const DRAW_STAGES: usize = 1 + Stage::GRAPHICS.len();

impl PartialEq for Reads {
    fn eq(&self, other: &Self) -> bool {
        self.replaced == other.replaced && self.as_slice() == other.as_slice()
    }
}

impl Eq for Reads {}

impl Reads {
    /// Room for one read per device stage and a second in each stage a
    /// draw accesses in (`Checker::record_one` keeps no more).
    const ROOM: usize = Stage::ALL.len() - 1 + DRAW_STAGES;

    pub(crate) fn as_slice(&self) -> &[Rec] {
        &self.items[..self.len as usize]
    }
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, Rec> {
        self.as_slice().iter()
    }
    pub(crate) fn iter_mut(&mut self) -> std::slice::IterMut<'_, Rec> {
        self.items[..self.len as usize].iter_mut()
    }
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.replaced = StageSet::EMPTY;
    }
    /// Removes the read at `i`, shifting later reads down.
    pub(crate) fn remove(&mut self, i: usize) {
        let n = self.len as usize;
        self.items.copy_within(i + 1..n, i);
        self.len -= 1;
    }
    /// Inserts at `i`, shifting later reads up. The caller keeps one read
    /// per stage, so the array never overflows.
    pub(crate) fn insert(&mut self, i: usize, rec: Rec) {
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
/// access can still race with (see [`super::checker::Checker`] for why these suffice), at
/// most one read per stage, sorted by stage. Writes are in program order;
/// almost always there is one.
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
            .chain(self.reads.iter())
            .copied()
            .collect()
    }

    /// Replaces every node id by its canonical node, so that equal states
    /// compare equal.
    pub(crate) fn canonicalize(&mut self, nodes: &mut Nodes) {
        self.writes.canonicalize(nodes);
        for r in self.reads.iter_mut() {
            r.node = nodes.find(r.node);
        }
    }
}

#[cfg(test)]
mod tests {
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
