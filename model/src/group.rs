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
//! found, and an empty input gives an empty report. It takes one finding
//! at a time (`Grouping`, `RaceGrouping`, `HazardGrouping`), so a checker
//! that finds the pairs one by one (the multi-queue walk) keeps the
//! groups, not the pairs; [`group_hazards`] and [`group_races`] are the
//! same over a whole list. Invariants: groups come
//! in the order of their first member; a group stands for `1 + also.len() +
//! more` distinct earlier accesses, and `also` is nearest first.

use crate::hazard::{Fix, Hazard};
use crate::ir::layout::{Layout, MemId, MemRange};
use crate::ir::program::{ByteRange, ObjectId, Program, Region};
use crate::ir::queue::QueueId;
use crate::spec::Race;
use crate::sync::checker::HazardKind;
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
    let mut grouping = HazardGrouping::default();
    for h in hazards {
        grouping.add(h);
    }
    grouping.finish()
}

/// A hazard group's key: kind, the later access, the object it named, its
/// memory, a layout transition's fix apart, provisional apart.
pub(crate) type HazardKey = (HazardKind, StageAccess, u32, MemId, Option<bool>, bool);

/// The key of the group hazard `h` belongs to.
pub(crate) fn hazard_key(h: &Hazard) -> HazardKey {
    (
        h.kind,
        h.current,
        h.region.object.0,
        h.memory.mem,
        h.fix.barrier.map(|b| b.transition),
        h.provisional,
    )
}

/// [`group_hazards`] one hazard at a time, for a checker that finds them
/// one by one (the multi-queue walk, [`crate::check_report`]): it keeps the
/// groups and not the hazards. Each command's hazards must come together.
pub(crate) struct HazardGrouping {
    grouping: Grouping<HazardKey, HazardGroup>,
}

impl Default for HazardGrouping {
    fn default() -> Self {
        HazardGrouping {
            grouping: Grouping::new(),
        }
    }
}

impl HazardGrouping {
    /// Adds one hazard.
    ///
    /// A hazard summarizing the pieces of a run
    /// ([`crate::sync::state::RunSummary`]) must be alone in its group
    /// (`Checker::settle_pieces` sees to it): it starts the group with
    /// the pieces' commands named and counted as their pairs would be.
    pub(crate) fn add(&mut self, h: Hazard) {
        let key = hazard_key(&h);
        let pair = Pair {
            command: h.command,
            prior: Earlier {
                command: h.prior_command,
                access: h.prior,
            },
        };
        let new = |h: Hazard| match h.pieces {
            None => HazardGroup {
                hazard: h,
                also: Vec::new(),
                more: 0,
                earliest_prior: h.prior_command,
            },
            Some(s) => {
                // Every piece's pair has the hazard's kind, accesses and
                // fix over its bytes: the group of the pairs names the
                // latest commands, counts the others, and keeps the hull.
                let also: Vec<Earlier> = s.named[1..]
                    .iter()
                    .filter(|&&c| c != u32::MAX)
                    .map(|&c| Earlier {
                        command: c as usize,
                        access: h.prior,
                    })
                    .collect();
                HazardGroup {
                    hazard: Hazard { pieces: None, ..h },
                    more: s.distinct as usize - 1 - also.len(),
                    also,
                    earliest_prior: s.earliest as usize,
                }
            }
        };
        self.grouping.add(h, pair, key, new, merge_hazard);
    }

    /// The groups, in the order of each one's first hazard.
    pub(crate) fn finish(self) -> Vec<HazardGroup> {
        self.grouping.out
    }
}

/// A finding as the grouping sees it: its later command and its earlier
/// access.
struct Pair {
    command: usize,
    prior: Earlier,
}

/// The one grouping walk over a sequence of findings, one at a time
/// ([`Grouping::add`]), so that a caller that finds pairs one by one (the
/// multi-queue walk) keeps the groups and not the pairs: `key` tells the
/// groups of one command apart, `new` starts a group, `merge` adds an item
/// to one (told whether its earlier access is new to the group: pieces of
/// one earlier access, its bytes split by other accesses, are one access).
/// What it holds besides the groups is the current command's open groups
/// with the earlier accesses each has seen: at most the pairs of one
/// command.
struct Grouping<K, G> {
    out: Vec<G>,
    // Each key's group among those of the current command, with the
    // earlier accesses it holds.
    open: HashMap<K, (usize, HashSet<(usize, StageAccess)>)>,
    command: Option<usize>,
}

impl<K: std::hash::Hash + Eq, G> Grouping<K, G> {
    fn new() -> Self {
        Grouping {
            out: Vec::new(),
            open: HashMap::new(),
            command: None,
        }
    }

    /// Adds `item` (its `pair` and `key` computed by the caller); returns
    /// the index of its group.
    fn add<T>(
        &mut self,
        item: T,
        pair: Pair,
        key: K,
        new: impl FnOnce(T) -> G,
        merge: impl FnOnce(&mut G, T, Earlier, bool),
    ) -> usize {
        let Pair { command: c, prior } = pair;
        if self.command != Some(c) {
            self.open.clear();
            self.command = Some(c);
        }
        match self.open.get_mut(&key) {
            Some((i, seen)) => {
                let first = seen.insert((prior.command, prior.access));
                merge(&mut self.out[*i], item, prior, first);
                *i
            }
            None => {
                let i = self.out.len();
                self.open
                    .insert(key, (i, HashSet::from([(prior.command, prior.access)])));
                self.out.push(new(item));
                i
            }
        }
    }
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
    debug_assert!(h.pieces.is_none(), "a run's summary shares its group: {h:?}");
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
pub(crate) fn covering(a: Fix, b: Fix) -> Fix {
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
    let mut grouping = RaceGrouping::new(program);
    let of = races.iter().map(|r| grouping.add(*r)).collect();
    (grouping.finish(), of)
}

/// A race group's key: kind, the later access, its memory, the object the
/// later command named for these bytes, the earlier access's queue
/// (`None`: the host), and whether either access is a layout transition
/// (whose fix goes into the transition's own barrier: apart, as the fast
/// checker's groups keep it).
type RaceKey = (HazardKind, StageAccess, MemId, Option<u32>, Option<QueueId>, bool);

/// The object command `command` named for the bytes `memory` of its access
/// `current`, as a report names a group: its first access with that stage
/// and access whose memory holds them, else the first whose memory meets
/// them (a race the definitional semantics merged over two accesses of
/// one object, `write a[32..64] write a[0..32]`, held by neither:
/// review39 found it grouped apart, one hazard printed as two).
pub(crate) fn later_access_object(
    program: &Program,
    layout: &Layout,
    command: usize,
    current: StageAccess,
    memory: MemRange,
) -> Option<ObjectId> {
    let accesses = later_accesses(program, layout, command, current, memory.mem);
    accesses
        .iter()
        .find(|(_, m)| m.start <= memory.range.start && memory.range.end <= m.end)
        .or_else(|| accesses.iter().find(|(_, m)| m.overlaps(memory.range)))
        .map(|(o, _)| *o)
}

/// What a hazard is, besides its command, later access and kind: the
/// first object command `command` named with access `current` whose
/// memory meets the racing bytes `memory`. A report counts one hazard per
/// (command, access, kind, memory, this object), whichever checker found
/// it and however it split or merged the bytes into lines: the
/// single-queue checker prints an access racing through two aliases of
/// one memory as a line per alias and earlier writes of two submissions
/// apart, the definitional semantics merges the bytes of two accesses
/// (review39 counted 4 hazards against 2, and 2 against 1); the first
/// object meeting the bytes is the same for every line of one such
/// access, and one per access where the command's accesses are apart.
pub fn hazard_object(
    program: &Program,
    layout: &Layout,
    command: usize,
    current: StageAccess,
    memory: MemRange,
) -> Option<ObjectId> {
    later_accesses(program, layout, command, current, memory.mem)
        .into_iter()
        .find(|(_, m)| m.overlaps(memory.range))
        .map(|(o, _)| o)
}

/// The objects command `command` names with access `current` in memory
/// `mem`, in its order, with the bytes of `mem` each covers.
fn later_accesses(
    program: &Program,
    layout: &Layout,
    command: usize,
    current: StageAccess,
    mem: MemId,
) -> Vec<(ObjectId, ByteRange)> {
    let Some(command) = program.commands.get(command) else {
        return Vec::new();
    };
    crate::ir::access::region_accesses(command, crate::semantics::Semantics::SPEC)
        .into_iter()
        .filter(|(_, sa)| *sa == current)
        .filter_map(|(region, _)| {
            let m = layout.locate(region)?;
            // An image's footprint meets every byte of its bound range.
            let range = layout.footprint_of(region.object).map_or(m.range, |f| f.bound);
            (m.mem == mem).then_some((region.object, range))
        })
        .collect()
}

/// [`group_races`] one race at a time: what a checker that finds races one
/// by one feeds (the multi-queue walk, [`crate::check_grouped`]), so that
/// it keeps the groups and not the pairs. The races must come with each
/// command's together, in the order [`group_races`] would be given them;
/// then [`RaceGrouping::finish`] is [`group_races`] of them.
pub(crate) struct RaceGrouping<'p> {
    program: &'p Program,
    queues: Vec<QueueId>,
    layout: Option<Layout>,
    /// The objects found for the current command's races, by their later
    /// access and bytes: a command racing thousands of earlier accesses
    /// over the same bytes looks its access table up once.
    objects: HashMap<(StageAccess, MemId, ByteRange), Option<u32>>,
    objects_of: Option<usize>,
    grouping: Grouping<RaceKey, RaceGroup>,
}

impl<'p> RaceGrouping<'p> {
    pub(crate) fn new(program: &'p Program) -> Self {
        RaceGrouping {
            program,
            queues: program.command_queues(),
            // The object the later command named for these bytes, as the
            // fast checker's groups are keyed (two blobs of one pool are
            // two accesses).
            layout: crate::ir::layout::resolve(program).ok(),
            objects: HashMap::new(),
            objects_of: None,
            grouping: Grouping::new(),
        }
    }

    /// The object the later command of `r` named for its bytes: its first
    /// access with the race's stage and access whose memory holds them,
    /// else the first whose memory meets them (a race the definitional
    /// semantics merged over two accesses of one object, `write a[32..64]
    /// write a[0..32]`, held by neither: review39 found it grouped apart
    /// from the same command's other races, one hazard printed as two).
    fn object_of(&mut self, r: &Race) -> Option<u32> {
        if self.objects_of != Some(r.command) {
            self.objects.clear();
            self.objects_of = Some(r.command);
        }
        let (program, layout) = (self.program, self.layout.as_ref());
        *self
            .objects
            .entry((r.current, r.mem, r.range))
            .or_insert_with(|| {
                let memory = MemRange {
                    mem: r.mem,
                    range: r.range,
                };
                later_access_object(program, layout?, r.command, r.current, memory).map(|o| o.0)
            })
    }

    /// Adds one race; returns the index of its group.
    pub(crate) fn add(&mut self, r: Race) -> usize {
        let host = |sa: StageAccess| sa.stage().flag() == PipelineStageFlags2::HOST;
        let q: Option<QueueId> =
            (!host(r.prior)).then(|| self.queues.get(r.prior_command).copied().unwrap_or_default());
        let transition = r.current.is_layout_transition() || r.prior.is_layout_transition();
        let key = (r.kind, r.current, r.mem, self.object_of(&r), q, transition);
        let pair = Pair {
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
        self.grouping.add(r, pair, key, new, merge_race)
    }

    /// The groups, in the order of each one's first race.
    pub(crate) fn finish(self) -> Vec<RaceGroup> {
        self.grouping.out
    }
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
