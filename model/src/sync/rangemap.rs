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
#[derive(Clone, Debug)]
pub(crate) struct RangeMap<S> {
    map: BTreeMap<u64, Entry<S>>,
}

impl<S> Default for RangeMap<S> {
    fn default() -> Self {
        RangeMap { map: BTreeMap::new() }
    }
}

impl<S: Copy + Eq + Default> RangeMap<S> {
    /// Every entry that overlaps `range`, in address order, unclipped.
    pub(crate) fn overlapping(&self, range: ByteRange) -> impl Iterator<Item = (ByteRange, &S)> {
        // The entry that starts before `range` but reaches into it, if any,
        // then every entry starting inside it.
        let first = self
            .map
            .range(..=range.start)
            .next_back()
            .filter(|(_, e)| e.end > range.start)
            .map_or(range.start, |(&s, _)| s);
        self.map
            .range(first..range.end)
            .map(|(&s, e)| (ByteRange::new(s, e.end), &e.state))
    }

    /// The start of every entry that starts inside `range`.
    pub(crate) fn starts_in(&self, range: ByteRange) -> Vec<u64> {
        self.map.range(range.start..range.end).map(|(&s, _)| s).collect()
    }

    /// The entry starting at `start`: its end and state.
    pub(crate) fn get(&self, start: u64) -> Option<(u64, &S)> {
        self.map.get(&start).map(|e| (e.end, &e.state))
    }

    /// The state of the entry starting at `start`.
    pub(crate) fn get_mut(&mut self, start: u64) -> Option<&mut S> {
        self.map.get_mut(&start).map(|e| &mut e.state)
    }

    /// Splits the entry that strictly contains `pos`, if any, into two with
    /// the same state.
    pub(crate) fn split_at(&mut self, pos: u64) {
        let found = self
            .map
            .range_mut(..pos)
            .next_back()
            .filter(|(_, e)| e.end > pos)
            .map(|(&s, e)| {
                let end = e.end;
                e.end = pos;
                (s, end, e.state)
            });
        if let Some((_, end, state)) = found {
            self.map.insert(pos, Entry { end, state });
        }
    }

    /// Applies `f` to the state of every byte of `range`, creating entries
    /// with the default state for bytes never touched.
    pub(crate) fn update(&mut self, range: ByteRange, mut f: impl FnMut(&mut S)) {
        // Fast path: the range is exactly one entry (a buffer or blob
        // accessed whole again), the common case in real command streams.
        if let Some(e) = self.map.get_mut(&range.start) {
            if e.end == range.end {
                f(&mut e.state);
                return;
            }
        }
        self.split_at(range.start);
        self.split_at(range.end);
        let mut cursor = range.start;
        let mut gaps = Vec::new();
        for (&s, e) in self.map.range_mut(range.start..range.end) {
            if s > cursor {
                gaps.push((cursor, s));
            }
            f(&mut e.state);
            cursor = e.end;
        }
        if cursor < range.end {
            gaps.push((cursor, range.end));
        }
        for (s, end) in gaps {
            let mut state = S::default();
            f(&mut state);
            self.map.insert(s, Entry { end, state });
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
        let first = self
            .map
            .range(..range.start)
            .next_back()
            .map(|(&s, _)| s)
            .unwrap_or(range.start);
        let mut spans: Vec<(u64, u64, S)> = Vec::with_capacity(4);
        for (&k, e) in self.map.range_mut(first..=range.end) {
            canon(&mut e.state);
            spans.push((k, e.end, e.state));
        }
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
                self.map.remove(&s);
                end = e;
                j += 1;
            }
            if j > i + 1 {
                if let Some(e) = self.map.get_mut(&k) {
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
        for (&s, e) in &self.map {
            if let Some(parts) = f(ByteRange::new(s, e.end), &e.state) {
                replaced.push((s, parts));
            }
        }
        for (s, parts) in replaced {
            self.map.remove(&s);
            for (r, state) in parts {
                self.map.insert(r.start, Entry { end: r.end, state });
            }
        }
    }

    /// Every entry: its range and state (for tests).
    #[cfg(test)]
    pub(crate) fn spans(&self) -> Vec<(u64, u64, S)> {
        self.map.iter().map(|(&s, e)| (s, e.end, e.state)).collect()
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
