//! Parallel checking (cargo feature `parallel`): the single-queue
//! checker's walk ([`crate::hazard`]) sharded by memory object, one
//! checker per shard on rayon's pool.
//!
//! A shard's checker takes the accesses (and image layout transitions) of
//! its memory objects only, and every barrier, submit, fence wait and
//! event of the program: the state of one memory object depends on its
//! own accesses and on those alone (the checker keeps no state across
//! objects but the interned values, which are compared by content, and
//! the event slots, which every shard hands out alike), so each shard
//! finds exactly the hazards the whole checker finds on its objects.
//! Each hazard carries the position of its access among its command's
//! accesses; the merge puts one command's hazards back in that order and
//! hands the commands, in walk order, to the same bookkeeping as the
//! sequential walk ([`crate::hazard::settle`]), so the output is the
//! sequential checker's, item for item.
//!
//! It does not own: which programs it applies to (the callers send
//! programs with several queues, semaphores or more than 64 event slots to
//! the multi-queue walk, which is sequential), nor what a hazard is.
//! Objects go to shards round-robin by memory id; a program with one
//! memory object gets no speed-up, and every shard pays for the broadcast
//! commands.

use crate::hazard::{step_shard, Hazard, Shard};
use crate::ir::layout::{Layout, MemId};
use crate::ir::program::Program;
use crate::semantics::Semantics;
use crate::sync::checker::Checker;
use rayon::prelude::*;

/// The hazards each command of `program` has, in walk order, each
/// command's in the order one checker finds them, found by `shards`
/// checkers in parallel (at most one per memory object).
/// `summaries`: runs of pieces as one hazard each where that keeps the
/// report groups (`PieceHazards::Summary`), for a report; otherwise
/// every pair.
pub(crate) fn detect_sharded(
    program: &Program,
    layout: &Layout,
    sem: Semantics,
    shards: usize,
    summaries: bool,
) -> Vec<(usize, Vec<Hazard>)> {
    let order: Vec<usize> = crate::ir::execution::order(program);
    let memories = layout.memory_sizes.len();
    let shards = shards.clamp(1, memories.max(1));
    // Per shard: (position in `order`, position of the access among the
    // command's, hazard), in the order found.
    let found: Vec<Vec<(u32, u32, Hazard)>> = (0..shards)
        .into_par_iter()
        .map(|shard| {
            let keep = |m: MemId| m.0 as usize % shards == shard;
            let mut checker = Checker::with_semantics(memories, sem);
            if summaries {
                checker.set_pieces(crate::sync::checker::PieceHazards::Summary);
            }
            let mut out = Vec::new();
            let (mut hazards, mut tags) = (Vec::new(), Vec::new());
            for (pos, &i) in order.iter().enumerate() {
                step_shard(
                    &mut checker,
                    layout,
                    i,
                    &program.commands[i],
                    &mut hazards,
                    Some(Shard {
                        keep: &keep,
                        tags: &mut tags,
                    }),
                );
                // A report group is of one memory, so of one shard.
                checker.settle_pieces(&mut hazards, Some(&mut tags));
                for (h, t) in hazards.drain(..).zip(tags.drain(..)) {
                    out.push((pos as u32, t, h));
                }
            }
            out
        })
        .collect();
    merge(&order, found)
}

/// Puts the shards' hazards back in one checker's order: per command in
/// walk order, by the position of their access (a position belongs to
/// one access, so to one shard; within a shard they come in order).
fn merge(order: &[usize], found: Vec<Vec<(u32, u32, Hazard)>>) -> Vec<(usize, Vec<Hazard>)> {
    let mut next = vec![0usize; found.len()];
    let mut out = Vec::with_capacity(order.len());
    for (pos, &i) in order.iter().enumerate() {
        let mut here: Vec<(u32, Hazard)> = Vec::new();
        for (s, list) in found.iter().enumerate() {
            while let Some(&(p, t, h)) = list.get(next[s]) {
                if p as usize != pos {
                    break;
                }
                here.push((t, h));
                next[s] += 1;
            }
        }
        here.sort_by_key(|&(t, _)| t);
        out.push((i, here.into_iter().map(|(_, h)| h).collect()));
    }
    out
}
