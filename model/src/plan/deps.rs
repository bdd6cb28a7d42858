//! Data dependencies without the pairwise graph: for each command in
//! program order, a summary (a join, such as a maximum or a union) over
//! the earlier commands it depends on, i.e. those that access a byte it
//! accesses, one of the two writing. The scheduler's levels and the async
//! compute assignment need only such summaries, never the edges
//! themselves, so they stay linear in the accesses where the graph has up
//! to n²/2 edges (a program that writes one buffer n times).
//!
//! Per memory object, a [`RangeMap`] keeps for every byte the join of the
//! summaries of the earlier reads of it and that of the earlier writes; a
//! read looks at the writes of its bytes, a write at both. Joins are
//! idempotent, so a command counted through several bytes or accesses is
//! counted once, as in the graph.

use crate::ir::layout::MemId;
use crate::ir::program::ByteRange;
use crate::sync::rangemap::RangeMap;
use std::collections::HashMap;

/// A summary of earlier commands: `Default` is the summary of none, `join`
/// is associative, commutative and idempotent.
pub(crate) trait Join: Copy + Eq + Default {
    fn join(self, other: Self) -> Self;
}

/// The greatest of the values seen (`None`: none seen).
impl<T: Copy + Ord> Join for Option<T> {
    fn join(self, other: Self) -> Self {
        self.max(other)
    }
}

/// The union of bit sets.
impl Join for u8 {
    fn join(self, other: Self) -> Self {
        self | other
    }
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Slot<A> {
    reads: A,
    writes: A,
}

/// One access: memory, bytes, whether it writes.
pub(crate) type Touch = (MemId, ByteRange, bool);

/// The summaries of the commands seen so far, by the bytes they accessed.
pub(crate) struct Earlier<A> {
    mems: HashMap<MemId, RangeMap<Slot<A>>>,
}

impl<A: Join> Earlier<A> {
    pub(crate) fn new() -> Self {
        Earlier { mems: HashMap::new() }
    }

    /// The join of the summaries of every command seen so far that a
    /// command making `touches` depends on.
    pub(crate) fn before(&self, touches: &[Touch]) -> A {
        let mut out = A::default();
        for &(mem, range, write) in touches {
            let Some(map) = self.mems.get(&mem) else {
                continue;
            };
            for (piece, slot) in map.overlapping(range) {
                if !piece.overlaps(range) {
                    continue;
                }
                out = out.join(slot.writes);
                if write {
                    out = out.join(slot.reads);
                }
            }
        }
        out
    }

    /// Records a command making `touches`, summarized by `value`.
    pub(crate) fn record(&mut self, touches: &[Touch], value: A) {
        for &(mem, range, write) in touches {
            if range.is_empty() {
                continue;
            }
            let map = self.mems.entry(mem).or_default();
            map.update(range, |slot| {
                if write {
                    slot.writes = slot.writes.join(value);
                } else {
                    slot.reads = slot.reads.join(value);
                }
            });
            // Neighbours that now hold the same summaries become one entry,
            // so that repeated accesses of one range do not fragment it.
            map.merge_around(range, |_| {});
        }
    }
}
