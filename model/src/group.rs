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
//! names the three *nearest* earlier accesses (the last in program
//! order), counts the others, and carries one fix that covers them all:
//! the union of the earlier accesses' stages and accesses, over the hull
//! of the bytes.
//!
//! It does not decide anything: grouping only merges what a checker
//! found, and an empty input gives an empty report. Invariants: groups come
//! in the order of their first member; a group stands for `1 + also.len() +
//! more` distinct earlier accesses, and `also` is nearest first.

use crate::hazard::{Fix, Hazard};
use crate::ir::layout::MemRange;
use crate::ir::program::{ByteRange, Program, Region};
use crate::ir::queue::QueueId;
use crate::spec::Race;
use crate::vk::flags::PipelineStageFlags2;
use crate::vk::scope::StageAccess;
use std::collections::{HashMap, HashSet};

/// How many earlier accesses a group names (the nearest); it counts the
/// rest.
pub(crate) const NAMED: usize = 3;

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
    /// two: a group names three).
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
    /// two: a group names three).
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
    let key = |h: &Hazard| {
        (
            h.kind,
            h.current,
            h.region.object.0,
            h.memory.mem,
            h.fix.barrier.map(|b| b.transition),
            h.provisional,
        )
    };
    let pair = |h: &Hazard| Pair {
        command: h.command,
        prior: Earlier {
            command: h.prior_command,
            access: h.prior,
        },
    };
    let new = |h: Hazard| HazardGroup {
        hazard: h,
        also: Vec::new(),
        more: 0,
        earliest_prior: h.prior_command,
    };
    group(hazards, key, pair, new, merge_hazard).0
}

/// A finding as the grouping sees it: its later command and its earlier
/// access.
struct Pair {
    command: usize,
    prior: Earlier,
}

/// The one grouping walk: `key` tells the groups of one command apart,
/// `new` starts a group, `merge` adds an item to one (told whether its
/// earlier access is new to the group: pieces of one earlier access, its
/// bytes split by other accesses, are one access). Also returns each
/// item's group.
fn group<T, K: std::hash::Hash + Eq, G>(
    items: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> K,
    pair: impl Fn(&T) -> Pair,
    new: impl Fn(T) -> G,
    merge: impl Fn(&mut G, T, Earlier, bool),
) -> (Vec<G>, Vec<usize>) {
    let mut out: Vec<G> = Vec::new();
    let mut of: Vec<usize> = Vec::new();
    // Each key's group among those of the current command, with the
    // earlier accesses it holds.
    let mut open: HashMap<K, (usize, HashSet<(usize, StageAccess)>)> = HashMap::new();
    let mut command = None;
    for item in items {
        let Pair { command: c, prior } = pair(&item);
        if command != Some(c) {
            open.clear();
            command = Some(c);
        }
        match open.get_mut(&key(&item)) {
            Some((i, seen)) => {
                let first = seen.insert((prior.command, prior.access));
                of.push(*i);
                merge(&mut out[*i], item, prior, first);
            }
            None => {
                open.insert(
                    key(&item),
                    (out.len(), HashSet::from([(prior.command, prior.access)])),
                );
                of.push(out.len());
                out.push(new(item));
            }
        }
    }
    (out, of)
}

/// Adds earlier access `e` to a group's names, `nearest` being the one it
/// names first: the earliest line is kept, and when `e` is new to the
/// group, whichever of the two is not the nearest afterwards joins `also`
/// (nearest first); what no longer fits there is counted in `more`. The
/// caller makes `e` its nearest when it is later.
fn name(
    nearest: Earlier,
    also: &mut Vec<Earlier>,
    more: &mut usize,
    earliest: &mut usize,
    e: Earlier,
    new: bool,
) {
    *earliest = (*earliest).min(e.command);
    if !new {
        return;
    }
    let demoted = if e.command > nearest.command { nearest } else { e };
    let at = also.partition_point(|x| x.command >= demoted.command);
    also.insert(at, demoted);
    if also.len() >= NAMED {
        also.pop();
        *more += 1;
    }
}

/// Merges `h`, whose earlier access is `e`, into `g`; `new`: `e` is not
/// in `g` yet.
fn merge_hazard(g: &mut HazardGroup, h: Hazard, e: Earlier, new: bool) {
    let nearest = Earlier {
        command: g.hazard.prior_command,
        access: g.hazard.prior,
    };
    name(nearest, &mut g.also, &mut g.more, &mut g.earliest_prior, e, new);
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
        // Between the same two queues the union of the stages is the
        // barrier's. A group whose earlier accesses lie on several queues
        // keeps the first semaphore found: its fix then names that
        // semaphore and not the barrier the same-queue ones need (the
        // races of `group_races`, grouped per earlier queue, do not mix).
        semaphore: a.semaphore.or(b.semaphore),
    }
}

fn hull(a: ByteRange, b: ByteRange) -> ByteRange {
    ByteRange::new(a.start.min(b.start), a.end.max(b.end))
}

/// The races grouped per later access (the object the command named and
/// the memory), kind and the queue of the earlier access (the host counts
/// as its own), in the order of each group's first race.
pub fn group_races(program: &Program, races: &[Race]) -> Vec<RaceGroup> {
    group_races_indexed(program, races).0
}

/// [`group_races`], with the index of each race's group (a picture draws
/// every pair and labels it with its group, the line `check` prints).
pub fn group_races_indexed(program: &Program, races: &[Race]) -> (Vec<RaceGroup>, Vec<usize>) {
    let queues = program.command_queues();
    let host = |sa: StageAccess| sa.stage().flag() == PipelineStageFlags2::HOST;
    // The object the later command named for these bytes, as the fast
    // checker's groups are keyed (two blobs of one pool are two accesses).
    let layout = crate::ir::layout::resolve(program).ok();
    let object_of = |r: &Race| -> Option<u32> {
        let layout = layout.as_ref()?;
        let command = program.commands.get(r.command)?;
        crate::ir::access::region_accesses(command, crate::semantics::Semantics::SPEC)
            .into_iter()
            .find(|(region, sa)| {
                *sa == r.current
                    && layout.locate(*region).is_some_and(|m| {
                        m.mem == r.mem && m.range.start <= r.range.start && r.range.end <= m.range.end
                    })
            })
            .map(|(region, _)| region.object.0)
    };
    let key = |r: &Race| {
        let q: Option<QueueId> =
            (!host(r.prior)).then(|| queues.get(r.prior_command).copied().unwrap_or_default());
        (r.kind, r.current, r.mem, object_of(r), q)
    };
    let pair = |r: &Race| Pair {
        command: r.command,
        prior: Earlier {
            command: r.prior_command,
            access: r.prior,
        },
    };
    let new = |r: Race| RaceGroup {
        race: r,
        priors: vec![r.prior],
        also: Vec::new(),
        more: 0,
        earliest_prior: r.prior_command,
    };
    group(races.iter().copied(), key, pair, new, merge_race)
}

/// Merges `r`, whose earlier access is `e`, into `g`; `new`: `e` is not
/// in `g` yet.
fn merge_race(g: &mut RaceGroup, r: Race, e: Earlier, new: bool) {
    let nearest = Earlier {
        command: g.race.prior_command,
        access: g.race.prior,
    };
    name(nearest, &mut g.also, &mut g.more, &mut g.earliest_prior, e, new);
    if !g.priors.contains(&r.prior) {
        g.priors.push(r.prior);
    }
    let range = hull(g.race.range, r.range);
    if r.prior_command > g.race.prior_command {
        g.race = r;
    }
    g.race.range = range;
}
