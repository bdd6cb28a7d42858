//! A map from disjoint byte ranges of one memory object to a state.
//!
//! Invariants: entries never overlap; an entry is never empty; bytes never
//! touched have no entry (a gap); two adjacent entries may hold equal
//! states until [`RangeMap::merge_around`] joins them, which changes no
//! byte's state. The map knows nothing of what the state means; the
//! checker decides what an update does, when states are equal (after
//! canonicalizing their node ids), and when two unequal neighbours may be
//! joined into one state that says per byte what both said
//! ([`RangeMap::merge_around_with`]: the checker's runs of pieces).

use crate::ir::program::ByteRange;
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
struct Entry<S> {
    end: u64,
    state: S,
}

/// Disjoint byte ranges, each with a state `S`.
///
/// Most maps hold a handful of entries (a buffer or blob accessed whole,
/// or in a few parts): those are a vector sorted by start, searched and
/// shifted in place; a map that grows past [`SMALL_MAX`] entries (a
/// buffer written in many pieces) moves to a B-tree for good. The B-tree's
/// range searches were the checker's largest single cost on programs of
/// many small buffers (issue 25, `docs/performance.md`).
#[derive(Clone, Debug)]
pub(crate) struct RangeMap<S> {
    repr: Repr<S>,
}

#[derive(Clone, Debug)]
enum Repr<S> {
    Small(Vec<(u64, Entry<S>)>),
    Big(BTreeMap<u64, Entry<S>>),
}

/// Entries a map keeps in its sorted vector before it moves to a B-tree.
const SMALL_MAX: usize = 32;

impl<S> Default for RangeMap<S> {
    fn default() -> Self {
        RangeMap {
            repr: Repr::Small(Vec::new()),
        }
    }
}

/// [`RangeMap::overlapping`]'s iterator, over either representation.
pub(crate) struct Overlapping<'a, S>(Over<'a, S>);

enum Over<'a, S> {
    Small(std::slice::Iter<'a, (u64, Entry<S>)>),
    Big(std::collections::btree_map::Range<'a, u64, Entry<S>>),
}

impl<'a, S> Iterator for Overlapping<'a, S> {
    type Item = (ByteRange, &'a S);

    fn next(&mut self) -> Option<Self::Item> {
        let (s, e) = match &mut self.0 {
            Over::Small(it) => it.next().map(|(s, e)| (s, e))?,
            Over::Big(it) => it.next()?,
        };
        Some((ByteRange::new(*s, e.end), &e.state))
    }
}

impl<S: Copy + Eq + Default> RangeMap<S> {
    /// Every entry that overlaps `range`, in address order, unclipped.
    pub(crate) fn overlapping(&self, range: ByteRange) -> Overlapping<'_, S> {
        match &self.repr {
            Repr::Small(v) => {
                // Ends grow with starts (entries are disjoint): the first
                // entry ending past the range's start, up to the first
                // starting at or past its end.
                let lo = v.partition_point(|(_, e)| e.end <= range.start);
                let hi = lo + v[lo..].partition_point(|(s, _)| *s < range.end);
                Overlapping(Over::Small(v[lo..hi].iter()))
            }
            Repr::Big(map) => {
                // The entry that starts before `range` but reaches into
                // it, if any, then every entry starting inside it.
                let first = map
                    .range(..=range.start)
                    .next_back()
                    .filter(|(_, e)| e.end > range.start)
                    .map_or(range.start, |(&s, _)| s);
                Overlapping(Over::Big(map.range(first..range.end)))
            }
        }
    }

    /// The start of every entry that starts inside `range`.
    pub(crate) fn starts_in(&self, range: ByteRange) -> Vec<u64> {
        match &self.repr {
            Repr::Small(v) => {
                let lo = v.partition_point(|(s, _)| *s < range.start);
                v[lo..]
                    .iter()
                    .take_while(|(s, _)| *s < range.end)
                    .map(|(s, _)| *s)
                    .collect()
            }
            Repr::Big(map) => map.range(range.start..range.end).map(|(&s, _)| s).collect(),
        }
    }

    /// The entry starting at `start`: its end and state.
    pub(crate) fn get(&self, start: u64) -> Option<(u64, &S)> {
        match &self.repr {
            Repr::Small(v) => v
                .binary_search_by_key(&start, |(s, _)| *s)
                .ok()
                .map(|i| (v[i].1.end, &v[i].1.state)),
            Repr::Big(map) => map.get(&start).map(|e| (e.end, &e.state)),
        }
    }

    /// The entry starting at `start`, to change.
    fn entry_mut(&mut self, start: u64) -> Option<&mut Entry<S>> {
        match &mut self.repr {
            Repr::Small(v) => match v.binary_search_by_key(&start, |(s, _)| *s) {
                Ok(i) => Some(&mut v[i].1),
                Err(_) => None,
            },
            Repr::Big(map) => map.get_mut(&start),
        }
    }

    /// The state of the entry starting at `start`.
    pub(crate) fn get_mut(&mut self, start: u64) -> Option<&mut S> {
        self.entry_mut(start).map(|e| &mut e.state)
    }

    /// Adds an entry at `start`, where none starts (the caller keeps the
    /// entries disjoint).
    fn insert(&mut self, start: u64, entry: Entry<S>) {
        match &mut self.repr {
            Repr::Small(v) => {
                let at = v.partition_point(|(s, _)| *s < start);
                v.insert(at, (start, entry));
                if v.len() > SMALL_MAX {
                    let map: BTreeMap<u64, Entry<S>> = std::mem::take(v).into_iter().collect();
                    self.repr = Repr::Big(map);
                }
            }
            Repr::Big(map) => {
                map.insert(start, entry);
            }
        }
    }

    /// Removes the entry starting at `start`.
    fn remove(&mut self, start: u64) {
        match &mut self.repr {
            Repr::Small(v) => {
                if let Ok(i) = v.binary_search_by_key(&start, |(s, _)| *s) {
                    v.remove(i);
                }
            }
            Repr::Big(map) => {
                map.remove(&start);
            }
        }
    }

    /// The start of the last entry starting before `pos`.
    fn last_before(&self, pos: u64) -> Option<u64> {
        match &self.repr {
            Repr::Small(v) => v[..v.partition_point(|(s, _)| *s < pos)].last().map(|(s, _)| *s),
            Repr::Big(map) => map.range(..pos).next_back().map(|(&s, _)| s),
        }
    }

    /// Applies `f` to every entry starting in `lo..hi` (`hi` included
    /// when `inclusive`), in address order.
    fn for_each_from(&mut self, lo: u64, hi: u64, inclusive: bool, mut f: impl FnMut(u64, &mut Entry<S>)) {
        let inside = |s: u64| s < hi || (inclusive && s == hi);
        match &mut self.repr {
            Repr::Small(v) => {
                let at = v.partition_point(|(s, _)| *s < lo);
                for (s, e) in v[at..].iter_mut().take_while(|(s, _)| inside(*s)) {
                    f(*s, e);
                }
            }
            Repr::Big(map) => {
                if lo > hi || (lo == hi && !inclusive) {
                    return;
                }
                let r = if inclusive {
                    map.range_mut(lo..=hi)
                } else {
                    map.range_mut(lo..hi)
                };
                for (&s, e) in r {
                    f(s, e);
                }
            }
        }
    }

    /// Splits the entry that strictly contains `pos`, if any, into two with
    /// the same state.
    pub(crate) fn split_at(&mut self, pos: u64) {
        let Some(s) = self.last_before(pos) else {
            return;
        };
        let e = self.entry_mut(s).expect("listed entry");
        if e.end > pos {
            let end = e.end;
            e.end = pos;
            let state = e.state;
            self.insert(pos, Entry { end, state });
        }
    }

    /// Applies `f` to the state of every byte of `range`, creating entries
    /// with the default state for bytes never touched.
    pub(crate) fn update(&mut self, range: ByteRange, mut f: impl FnMut(&mut S)) {
        // Fast path: the range is exactly one entry (a buffer or blob
        // accessed whole again), the common case in real command streams.
        if let Some(e) = self.entry_mut(range.start) {
            if e.end == range.end {
                f(&mut e.state);
                return;
            }
        }
        self.split_at(range.start);
        self.split_at(range.end);
        let mut cursor = range.start;
        let mut gaps = Vec::new();
        self.for_each_from(range.start, range.end, false, |s, e| {
            if s > cursor {
                gaps.push((cursor, s));
            }
            f(&mut e.state);
            cursor = e.end;
        });
        if cursor < range.end {
            gaps.push((cursor, range.end));
        }
        for (s, end) in gaps {
            let mut state = S::default();
            f(&mut state);
            self.insert(s, Entry { end, state });
        }
    }

    /// Canonicalizes (with `canon`) the states of the entries in and next
    /// to `range`, then joins adjacent entries with equal states.
    pub(crate) fn merge_around(&mut self, range: ByteRange, canon: impl FnMut(&mut S)) {
        self.merge_around_with(range, canon, |_, _, _, _| None);
    }

    /// [`RangeMap::merge_around`], also joining two adjacent entries with
    /// unequal states into the state `join` gives for them (`join(a, its
    /// range, b, its range)`, `b` right after `a`), when it gives one:
    /// the caller's state must then say per byte what the two said.
    pub(crate) fn merge_around_with(
        &mut self,
        range: ByteRange,
        mut canon: impl FnMut(&mut S),
        mut join: impl FnMut(&S, ByteRange, &S, ByteRange) -> Option<S>,
    ) {
        let first = self.last_before(range.start).unwrap_or(range.start);
        let mut spans: Vec<(u64, u64, S)> = Vec::with_capacity(4);
        self.for_each_from(first, range.end, true, |k, e| {
            canon(&mut e.state);
            spans.push((k, e.end, e.state));
        });
        // Merge runs of equal neighbours into their first entry.
        let mut i = 0;
        while i < spans.len() {
            let (k, mut end, mut state) = spans[i];
            let mut j = i + 1;
            while j < spans.len() && spans[j].0 == end {
                let (s, e, next) = spans[j];
                if next != state {
                    match join(&state, ByteRange::new(k, end), &next, ByteRange::new(s, e)) {
                        Some(joined) => state = joined,
                        None => break,
                    }
                }
                self.remove(s);
                end = e;
                j += 1;
            }
            if j > i + 1 {
                if let Some(e) = self.entry_mut(k) {
                    e.end = end;
                    e.state = state;
                }
            }
            i = j;
        }
    }

    /// Replaces each entry for which `f` gives entries (over its own
    /// bytes, disjoint) by them.
    pub(crate) fn expand(&mut self, mut f: impl FnMut(ByteRange, &S) -> Option<Vec<(ByteRange, S)>>) {
        let mut replaced: Vec<(u64, Vec<(ByteRange, S)>)> = Vec::new();
        for (r, state) in self.overlapping(ByteRange::new(0, u64::MAX)) {
            if let Some(parts) = f(r, state) {
                replaced.push((r.start, parts));
            }
        }
        for (s, parts) in replaced {
            self.remove(s);
            for (r, state) in parts {
                self.insert(r.start, Entry { end: r.end, state });
            }
        }
    }

    /// Every entry: its range and state (for tests).
    #[cfg(test)]
    pub(crate) fn spans(&self) -> Vec<(u64, u64, S)> {
        self.overlapping(ByteRange::new(0, u64::MAX))
            .map(|(r, s)| (r.start, r.end, *s))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Applies a list of updates (range, value) to a fresh map, merging
    /// after each, and returns the spans.
    fn after(updates: &[(u64, u64, u32)], merge: bool) -> Vec<(u64, u64, u32)> {
        let mut m: RangeMap<u32> = RangeMap::default();
        for &(s, e, v) in updates {
            let r = ByteRange::new(s, e);
            m.update(r, |x| *x = v);
            if merge {
                m.merge_around(r, |_| {});
            }
        }
        m.spans()
    }

    #[test]
    fn updates_split_fill_gaps_and_merge() {
        type Case = (&'static [(u64, u64, u32)], bool, &'static [(u64, u64, u32)]);
        let cases: &[Case] = &[
            (
                &[(0, 100, 1), (40, 60, 2)],
                false,
                &[(0, 40, 1), (40, 60, 2), (60, 100, 1)],
            ),
            (&[(0, 100, 1), (40, 60, 2), (40, 60, 1)], true, &[(0, 100, 1)]),
            // A gap never merges.
            (&[(0, 100, 1), (150, 160, 1)], true, &[(0, 100, 1), (150, 160, 1)]),
            // An update over a gap creates default entries, then applies.
            (
                &[(0, 10, 1), (20, 30, 1), (5, 25, 3)],
                false,
                &[(0, 5, 1), (5, 10, 3), (10, 20, 3), (20, 25, 3), (25, 30, 1)],
            ),
            (
                &[(0, 10, 1), (20, 30, 1), (5, 25, 3)],
                true,
                &[(0, 5, 1), (5, 25, 3), (25, 30, 1)],
            ),
        ];
        for (updates, merge, want) in cases {
            assert_eq!(after(updates, *merge), want.to_vec(), "{updates:?} merge={merge}");
        }
    }

    #[test]
    fn overlapping_lists_entries_reaching_into_the_range() {
        let mut m: RangeMap<u32> = RangeMap::default();
        m.update(ByteRange::new(0, 10), |x| *x = 1);
        m.update(ByteRange::new(10, 20), |x| *x = 2);
        m.update(ByteRange::new(30, 40), |x| *x = 3);
        let got: Vec<_> = m
            .overlapping(ByteRange::new(5, 35))
            .map(|(r, s)| (r.start, r.end, *s))
            .collect();
        assert_eq!(got, vec![(0, 10, 1), (10, 20, 2), (30, 40, 3)]);
        assert_eq!(m.overlapping(ByteRange::new(20, 30)).count(), 0);
    }
}
