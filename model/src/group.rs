//! Findings grouped per later access: what a report prints one line for.
//!
//! The checkers decide races pairwise, as the specification defines them:
//! a read of a range written piecewise by a thousand unordered fills races
//! each fill. A report that printed every pair would grow with the square
//! of such a program. This module owns the rule that keeps reports linear:
//! one [`HazardGroup`] (fast checker) or [`RaceGroup`] (definitional
//! semantics) per later access and kind — the command, its stage and
//! access, the memory it touched, and for races the queue (or host) the
//! earlier accesses ran on, since that decides the kind of fix. A group
//! names the [`NAMED`] *nearest* earlier accesses (the last in program
//! order), counts the others, and carries one fix that covers them all:
//! the union of the earlier accesses' stages and accesses, over the hull
//! of the bytes.
//!
//! It does not decide anything: grouping only merges what a checker
//! found, and an empty input gives an empty report. Invariants: groups come
//! in the order of their first member; a group stands for `1 + also.len() +
//! more` distinct earlier accesses, and `also` is nearest first.

use crate::hazard::{Fix, Hazard};
use crate::ir::layout::{MemId, MemRange};
use crate::ir::program::{ByteRange, Program, Region};
use crate::ir::queue::QueueId;
use crate::spec::Race;
use crate::sync::checker::HazardKind;
use crate::vk::flags::PipelineStageFlags2;
use crate::vk::scope::StageAccess;
use std::collections::{HashMap, HashSet};

/// How many earlier accesses a group names (the nearest); it counts the
/// rest.
pub const NAMED: usize = 3;

/// An earlier access a group names besides its nearest one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Earlier {
    /// The earlier command.
    pub command: usize,
    /// Its stage and access.
    pub access: StageAccess,
}

/// Every earlier access that races one later access with one kind, found
/// by the fast checker ([`crate::check_report`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HazardGroup {
    /// The pair with the nearest earlier access (the latest
    /// `prior_command`), except that `region` and `memory` are the hull of
    /// every pair's bytes and `fix` removes every pair of the group.
    pub hazard: Hazard,
    /// The next nearest earlier accesses, nearest first (at most
    /// [`NAMED`] `- 1`).
    pub also: Vec<Earlier>,
    /// How many further earlier accesses race the same later access with
    /// the same kind (beyond `hazard` and `also`).
    pub more: usize,
    /// The earliest of the group's earlier commands.
    pub earliest_prior: usize,
}

/// Every earlier access of one queue (or of the host) that races one later
/// access with one kind, found by the definitional semantics
/// ([`crate::spec::races`]) or the multi-queue checker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceGroup {
    /// The race with the nearest earlier access, its `range` the hull of
    /// every race's bytes.
    pub race: Race,
    /// The distinct (stage, access) pairs of the earlier accesses, in
    /// order of first appearance: the fix that covers the group has all
    /// of them in its first scopes. At most one per stage and access
    /// Vulkan defines, so this stays small.
    pub priors: Vec<StageAccess>,
    /// The next nearest earlier accesses, nearest first (at most
    /// [`NAMED`] `- 1`).
    pub also: Vec<Earlier>,
    /// How many further races the group holds (beyond `race` and `also`).
    pub more: usize,
    /// The earliest earlier command of the group.
    pub earliest_prior: usize,
}

/// The hazards grouped per later access and kind, in the order of each
/// group's first hazard. Hazards of one command come together in a
/// checker's output; a group never spans two commands.
pub fn group_hazards(hazards: impl IntoIterator<Item = Hazard>) -> Vec<HazardGroup> {
    type Key = (usize, HazardKind, StageAccess, u32, MemId, Option<bool>, bool);
    let key = |h: &Hazard| -> Key {
        (
            h.command,
            h.kind,
            h.current,
            h.region.object.0,
            h.memory.mem,
            h.fix.barrier.map(|b| b.transition),
            h.provisional,
        )
    };
    let mut out: Vec<HazardGroup> = Vec::new();
    // Each key's group among those of the current command, with the
    // earlier accesses it holds: pieces of one earlier access (its bytes
    // split by other accesses) are one access.
    let mut open: HashMap<Key, (usize, HashSet<(usize, StageAccess)>)> = HashMap::new();
    let mut command = None;
    for h in hazards {
        if command != Some(h.command) {
            open.clear();
            command = Some(h.command);
        }
        match open.get_mut(&key(&h)) {
            Some((i, seen)) => {
                let new = seen.insert((h.prior_command, h.prior));
                merge_hazard(&mut out[*i], h, new)
            }
            None => {
                open.insert(key(&h), (out.len(), HashSet::from([(h.prior_command, h.prior)])));
                out.push(HazardGroup {
                    hazard: h,
                    also: Vec::new(),
                    more: 0,
                    earliest_prior: h.prior_command,
                });
            }
        }
    }
    out
}

/// Adds an earlier access to a group's names: the nearest stays first
/// (swapped into `first` when `e` is nearer), `also` keeps the next
/// nearest, and what no longer fits is counted in `more`.
fn name(first: &mut Earlier, also: &mut Vec<Earlier>, more: &mut usize, e: Earlier) {
    let e = if e.command > first.command {
        std::mem::replace(first, e)
    } else {
        e
    };
    let at = also.partition_point(|x| x.command >= e.command);
    also.insert(at, e);
    if also.len() >= NAMED {
        also.pop();
        *more += 1;
    }
}

/// Merges `h` into `g`; `new`: its earlier access is not in `g` yet.
fn merge_hazard(g: &mut HazardGroup, h: Hazard, new: bool) {
    g.earliest_prior = g.earliest_prior.min(h.prior_command);
    if new {
        let mut first = Earlier {
            command: g.hazard.prior_command,
            access: g.hazard.prior,
        };
        name(
            &mut first,
            &mut g.also,
            &mut g.more,
            Earlier {
                command: h.prior_command,
                access: h.prior,
            },
        );
    }
    let fix = covering(g.hazard.fix, h.fix);
    let region = Region {
        object: g.hazard.region.object,
        range: hull(g.hazard.region.range, h.region.range),
    };
    let memory = MemRange {
        mem: g.hazard.memory.mem,
        range: hull(g.hazard.memory.range, h.memory.range),
    };
    if h.prior_command > g.hazard.prior_command {
        g.hazard = h;
    }
    g.hazard.fix = fix;
    g.hazard.region = region;
    g.hazard.memory = memory;
}

/// One fix that does what both do: the union of the barriers' masks over
/// the hull of their ranges (of one object; otherwise the whole memory,
/// globally), and a wait when either needs one.
fn covering(a: Fix, b: Fix) -> Fix {
    let barrier = match (a.barrier, b.barrier) {
        (Some(x), Some(y)) => {
            let mut m = x;
            m.src_stage_mask |= y.src_stage_mask;
            m.src_access_mask |= y.src_access_mask;
            m.dst_stage_mask |= y.dst_stage_mask;
            m.dst_access_mask |= y.dst_access_mask;
            m.region = match (x.region, y.region) {
                (Some(r), Some(s)) if r.object == s.object => Some(Region {
                    object: r.object,
                    range: hull(r.range, s.range),
                }),
                _ => None,
            };
            Some(m)
        }
        (x, y) => x.or(y),
    };
    Fix {
        barrier,
        wait: a.wait || b.wait,
    }
}

fn hull(a: ByteRange, b: ByteRange) -> ByteRange {
    ByteRange::new(a.start.min(b.start), a.end.max(b.end))
}

/// The races grouped per later access, kind, memory object and the queue
/// of the earlier access (the host counts as its own), in the order of
/// each group's first race.
pub fn group_races(program: &Program, races: &[Race]) -> Vec<RaceGroup> {
    let queues = program.command_queues();
    let host = |sa: StageAccess| sa.stage().flag() == PipelineStageFlags2::HOST;
    type Key = (usize, HazardKind, StageAccess, MemId, Option<QueueId>);
    let key = |r: &Race| -> Key {
        let q = (!host(r.prior)).then(|| queues.get(r.prior_command).copied().unwrap_or_default());
        (r.command, r.kind, r.current, r.mem, q)
    };
    let mut out: Vec<RaceGroup> = Vec::new();
    let mut open: HashMap<Key, (usize, HashSet<(usize, StageAccess)>)> = HashMap::new();
    let mut command = None;
    for r in races {
        if command != Some(r.command) {
            open.clear();
            command = Some(r.command);
        }
        match open.get_mut(&key(r)) {
            Some((i, seen)) => {
                let g = &mut out[*i];
                g.earliest_prior = g.earliest_prior.min(r.prior_command);
                if seen.insert((r.prior_command, r.prior)) {
                    let mut first = Earlier {
                        command: g.race.prior_command,
                        access: g.race.prior,
                    };
                    name(
                        &mut first,
                        &mut g.also,
                        &mut g.more,
                        Earlier {
                            command: r.prior_command,
                            access: r.prior,
                        },
                    );
                }
                if !g.priors.contains(&r.prior) {
                    g.priors.push(r.prior);
                }
                let range = hull(g.race.range, r.range);
                if r.prior_command > g.race.prior_command {
                    g.race = *r;
                }
                g.race.range = range;
            }
            None => {
                open.insert(key(r), (out.len(), HashSet::from([(r.prior_command, r.prior)])));
                out.push(RaceGroup {
                    race: *r,
                    priors: vec![r.prior],
                    also: Vec::new(),
                    more: 0,
                    earliest_prior: r.prior_command,
                });
            }
        }
    }
    out
}
