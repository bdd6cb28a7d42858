//! Multi-queue planning: given a program whose commands are already
//! assigned to queues (each `submit QUEUE` ends a batch on that queue), drop
//! its barriers and semaphores and plan the fewest semaphore waits plus the
//! barriers each queue needs on its own.
//!
//! This module owns the cross-queue part only. What a hazard is stays the
//! checker's business, and where the barriers inside one queue go is the
//! single-queue planners' (each queue's batches are planned as one
//! single-queue program with [`super::plan`], and the barriers are put back
//! in place, with the host accesses that conflict with the queue's work
//! and the host waits that cover it). Host accesses are planned when the
//! input already waits for the device work they need: one that needs a
//! fence wait the input lacks is refused ([`QueuePlanError::HostNotWaited`];
//! inserting a wait would change the batches), as are host semaphore
//! operations and events ([`QueuePlanError::NotPlanned`]) and layout
//! transitions.
//!
//! # Invariants
//!
//! * Batches are numbered in submission order (the trace order of their
//!   `submit`; commands recorded after the last submit form a batch of the
//!   first queue, which gets an inserted `submit`). Every semaphore edge
//!   goes from an earlier batch to a later one, so a binary wait always
//!   has its signal earlier in the trace and no cycle of waits exists.
//! * Every signal and wait has stage mask `ALL_COMMANDS`: a signal then
//!   makes available every write earlier on its queue, a wait makes
//!   writes visible to every later access of its queue, execution chains
//!   pass through intermediate queues, and an ownership release/acquire
//!   (which happens in no pipeline stage) is ordered. Narrower masks would
//!   have to cover every chain that passes through the edge, not only the
//!   hazards of the two batches it joins.
//! * A cross-queue hazard between batch `a` (earlier) and batch `b` is
//!   covered when a path of queue order and semaphore edges leads from `a`
//!   to `b` (or a host `wait` for `a`'s queue lies between). Edges are
//!   chosen per consumer batch, in submission order: the batch's uncovered
//!   needs, per producing queue, are covered by the fewest edges, each from
//!   the *latest* batch of its queue submitted before the consumer (which
//!   covers everything an earlier one would). The subset is a minimum one
//!   (among those, the one covering most of what later batches need,
//!   which they may inherit; then the one with the fewest edges from
//!   queues the batch needs nothing of, which would order it after
//!   unrelated work; then the one after which the most is ordered), so
//!   removing any wait uncovers a hazard
//!   of its consumer batch: every wait is necessary. The total is the
//!   fewest for each consumer in turn, not a global minimum over all edge
//!   sets (an earlier consumer's choice can cost a later one a wait).
//! * Semaphores are binary, each reused once its wait has been submitted
//!   (interval colouring: the fewest binary objects for the chosen
//!   edges). Not one timeline per signalling queue with rising values: a
//!   wait for value `v` may then pair with any later signal `>= v` of that
//!   queue, the fast checker refuses such a wait, and the definitional
//!   semantics orders it only after what one availability operation
//!   before *every* candidate makes available, which is nothing when each
//!   candidate is its own availability operation (`fill a` / `signal t:1`
//!   / `wait t:1` / `copy a` with a later `signal t:2` on the same queue
//!   is a race in the model). A binary wait has exactly one signal.
//! * Exclusive objects: when a batch of family F uses an exclusive object
//!   last used by family G, the last batch of G that used it ends with a
//!   release (`<its stages>:<its writes> -> NONE:NONE REGION ownership
//!   G->F`), the batch starts with the matching acquire (same region, the
//!   whole object; `NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE`,
//!   since the acquire operation writes the object and every later use on
//!   the queue, which the per-queue plans do not see, must follow it), and
//!   the batch must be ordered after the releasing
//!   batch (a need like a hazard's); other queues of family G that used
//!   it are ordered before the release, and other queues of family F that
//!   use it later after the acquire.
//!   A change of family gets a transfer only when the bytes' contents are
//!   wanted: when the input without any transfer reads, on the new family
//!   (before the next change), bytes another family last had
//!   ([`crate::check_ownership`] on the stripped input). A family whose
//!   first use overwrites what it later reads takes ownership without a
//!   transfer ("the contents ... are undefined", and nothing reads them).
//!   If the plan then shows an ownership issue after all (a later release
//!   of bytes that family never took), it is planned again with a transfer
//!   at every change.

use super::{plan, Plan, PlanOptions};
use crate::hazard::Hazard;
use crate::ir::access::{accesses, is_device_command, Access};
use crate::ir::layout::{resolve, Location, ProgramError, ProgramErrorKind};
use crate::ir::program::{Barrier, Command, Dependency, ObjectId, Program, SharingMode};
use crate::ir::queue::{
    QueueId, Semaphore, SemaphoreId, SemaphoreSignal, SemaphoreType, SemaphoreWait, Submission, WaitFor,
};
use crate::semantics::Semantics;
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use std::collections::{BTreeMap, BTreeSet};

/// How to plan a multi-queue program: the single-queue options used for
/// each queue's barriers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct QueuePlanOptions {
    /// The planner, barrier form and reading used inside each queue.
    pub plan: PlanOptions,
}

impl QueuePlanOptions {
    /// Barriers inside each queue as `plan` says.
    pub fn new(plan: PlanOptions) -> Self {
        QueuePlanOptions { plan }
    }
}

/// A planned multi-queue program and what it costs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuePlan {
    /// The planned program; `origin` and `answers` refer to the input
    /// without its barriers (its submits keep their places, stripped of
    /// their semaphores).
    pub plan: Plan,
    /// Semaphore objects declared.
    pub semaphores: usize,
    /// Semaphore wait operations (each with its signal).
    pub waits: usize,
    /// Semaphore signal operations.
    pub signals: usize,
    /// Pipeline barrier commands inside queues, ownership transfers
    /// included.
    pub barrier_points: usize,
    /// Queue family ownership transfers (release/acquire pairs).
    pub ownership_transfers: usize,
}

/// Why a program cannot be planned across queues.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QueuePlanError {
    /// The program is invalid, or a single-queue rule refuses it.
    #[error(transparent)]
    Program(#[from] ProgramError),
    /// A host access that needs a fence wait (`wait` or `wait QUEUE`) for
    /// device work of some queue, which the input does not have before it.
    #[error("command {at}: the host access needs a `wait` for the device work before it (the multi-queue planner does not insert fence waits)")]
    HostNotWaited {
        /// The host access's index in the input.
        at: usize,
    },
    /// A command this planner does not plan around.
    #[error("command {at}: {what} is not planned across queues (plan programs without host semaphore operations or events)")]
    NotPlanned {
        /// The command's index in the input.
        at: usize,
        /// What it is.
        what: String,
    },
}

/// One batch: its queue, its device commands and its `submit` (input
/// indices; `None` for the commands recorded after the last submit).
#[derive(Clone, Debug)]
pub(crate) struct Batch {
    pub(crate) queue: usize,
    pub(crate) cmds: Vec<usize>,
    pub(crate) submit: Option<usize>,
}

/// The batches of a program, in submission order.
pub(crate) fn batches(program: &Program) -> Vec<Batch> {
    let mut out = Vec::new();
    let mut open = Vec::new();
    for (i, c) in program.commands.iter().enumerate() {
        match c {
            Command::Submit(s) => out.push(Batch {
                queue: s.queue.0 as usize,
                cmds: std::mem::take(&mut open),
                submit: Some(i),
            }),
            c if is_device_command(c) => open.push(i),
            _ => {}
        }
    }
    if !open.is_empty() {
        out.push(Batch {
            queue: 0,
            cmds: open,
            submit: None,
        });
    }
    out
}

/// The input with its barriers dropped and its submits stripped of
/// semaphores (indices are those of `program.without_barriers()`), or
/// the first command that is not planned.
fn strip(program: &Program) -> Result<Program, QueuePlanError> {
    if let Some(i) = program.first_layout_transition() {
        return Err(ProgramError {
            at: Location::Command(i),
            kind: ProgramErrorKind::TransitionNotPlanned,
        }
        .into());
    }
    let input = program.without_barriers();
    let mut commands = Vec::with_capacity(input.commands.len());
    for (i, c) in input.commands.iter().enumerate() {
        let refused = matches!(
            c,
            Command::HostSignal { .. }
                | Command::HostWait { .. }
                | Command::SetEvent { .. }
                | Command::WaitEvents { .. }
                | Command::SetEvent1 { .. }
                | Command::WaitEvents1 { .. }
                | Command::ResetEvent { .. }
                | Command::HostSetEvent { .. }
                | Command::HostResetEvent { .. }
        );
        if refused {
            return Err(QueuePlanError::NotPlanned {
                at: i,
                what: format!("`{}` ({})", c.keyword(), c.vulkan_name()),
            });
        }
        commands.push(match c {
            Command::Submit(s) => Command::Submit(Submission {
                queue: s.queue,
                ..Submission::default()
            }),
            c => c.clone(),
        });
    }
    let mut stripped = input.with_commands(commands);
    stripped.semaphores.clear();
    Ok(stripped)
}

/// Whether two access lists conflict: overlapping bytes of one memory
/// object, one of them a write.
fn conflict(x: &[Access], y: &[Access]) -> bool {
    x.iter().any(|a| {
        y.iter()
            .any(|b| a.mem == b.mem && a.range.overlaps(b.range) && (a.sa.is_write() || b.sa.is_write()))
    })
}

/// Per-batch vector clocks: entry `q` is the latest batch ordinal of queue
/// `q` ordered before (−1: none).
type Clock = Vec<i64>;

fn join(a: &mut Clock, b: &Clock) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = (*x).max(*y);
    }
}

/// The fewest of `candidates` (clocks after candidate batches; `direct[k]`:
/// candidate `k`'s queue has a need of its own) whose join with `base`
/// reaches `need` everywhere: exhaustive over subsets by size for a few
/// candidates, greedy beyond. `future` is what later batches need (per
/// queue, the latest batch), which decides among the smallest subsets.
fn fewest_edges(
    base: &Clock,
    need: &Clock,
    future: &Clock,
    candidates: &[(usize, Clock)],
    direct: &[bool],
) -> Vec<usize> {
    let covers = |set: &[usize]| {
        let mut c = base.clone();
        for &k in set {
            join(&mut c, &candidates[k].1);
        }
        c.iter().zip(need).all(|(x, n)| x >= n)
    };
    if covers(&[]) {
        return Vec::new();
    }
    let n = candidates.len();
    if n <= 12 {
        // The smallest subsets first. Among those of the smallest size
        // that cover: the one that covers the most of what later batches
        // need (they may inherit this batch's clock), then the fewest
        // edges from a queue with no need of its own (such an edge orders
        // the consumer after that queue's unrelated work too, which async
        // compute wants to overlap), then the one after which the most is
        // known (the greatest sum of the joined clock).
        let mut masks: Vec<u32> = (1..(1u32 << n)).collect();
        masks.sort_by_key(|m| (m.count_ones(), *m));
        // The best key and subset so far (all of the smallest size).
        type Key = (i64, usize, i64);
        let mut best: Option<(Key, Vec<usize>)> = None;
        for m in masks {
            if best
                .as_ref()
                .is_some_and(|(_, set)| m.count_ones() as usize > set.len())
            {
                break;
            }
            let set: Vec<usize> = (0..n).filter(|k| m & (1 << k) != 0).collect();
            if covers(&set) {
                let mut c = base.clone();
                for &k in &set {
                    join(&mut c, &candidates[k].1);
                }
                let indirect = set.iter().filter(|&&k| !direct[k]).count();
                let useful: i64 = c.iter().zip(future).map(|(x, f)| (*x).min(*f)).sum();
                let key = (-useful, indirect, -c.iter().sum::<i64>());
                if best.as_ref().is_none_or(|(b, _)| key < *b) {
                    best = Some((key, set));
                }
            }
        }
        if let Some((_, set)) = best {
            return set;
        }
    }
    // Greedy: the candidate that covers the most still-unmet queues.
    let mut chosen = Vec::new();
    let mut c = base.clone();
    while !c.iter().zip(need).all(|(x, n)| x >= n) {
        let gain = |k: usize| {
            let mut d = c.clone();
            join(&mut d, &candidates[k].1);
            d.iter().zip(need).filter(|(x, n)| x >= n).count()
        };
        let Some(best) = (0..n)
            .filter(|k| !chosen.contains(k))
            .max_by_key(|&k| (gain(k), usize::MAX - k))
        else {
            break;
        };
        join(&mut c, &candidates[best].1);
        chosen.push(best);
    }
    chosen.sort_unstable();
    chosen
}

fn family(program: &Program, q: usize) -> u32 {
    program.queues.get(q).map_or(0, |x| x.family)
}

/// The stage mask and access mask of accesses (writes only for `writes`).
fn masks<'a>(
    accs: impl Iterator<Item = &'a Access>,
    writes_only: bool,
) -> (PipelineStageFlags2, AccessFlags2) {
    let mut stages = PipelineStageFlags2::NONE;
    let mut access = AccessFlags2::NONE;
    for a in accs {
        stages |= a.sa.stage().flag();
        if !writes_only || a.sa.is_write() {
            access |= a.sa.access();
        }
    }
    (stages, access)
}

/// Plans semaphores, ownership transfers and barriers for a program whose
/// commands are assigned to queues; its own barriers and semaphores are
/// dropped first. Refuses host semaphore operations, events, layout
/// transitions, and host accesses the input does not wait for.
///
/// ```
/// use vksync::plan::{plan_queues, PlanOptions, PlannerKind, QueuePlanOptions};
/// let t = vksync::trace::parse(
///     "queue gfx family 0\nqueue xfer family 1\nbuffer a 256\nbuffer b 256\n\
///      fill a 1\nsubmit xfer\ncopy a -> b\nsubmit gfx\n",
/// )?;
/// let p = plan_queues(&t.program, QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline)))?;
/// assert_eq!((p.semaphores, p.waits), (1, 1));
/// assert!(vksync::check(&p.plan.program)?.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn plan_queues(program: &Program, opts: QueuePlanOptions) -> Result<QueuePlan, QueuePlanError> {
    let input = strip(program)?;
    let needed = needed_transfers(&input)?;
    let plan = plan_stripped(&input, opts, Some(&needed))?;
    // Transfers left out where no read wants the contents: if the plan
    // still has an ownership issue (bytes a family overwrote in part and
    // later released whole), every change of family gets its transfer.
    if !crate::ownership::check_ownership(&plan.plan.program)?.is_empty() {
        return plan_stripped(&input, opts, None);
    }
    Ok(plan)
}

/// Each exclusive object's changes of queue family, batch by batch in
/// submission order: `(object, batch)` for every batch whose family
/// differs from the family of the object's previous user, with the
/// change that governs each later batch of the same family.
fn family_changes(
    input: &Program,
    batches: &[Batch],
    accs: &[Vec<Access>],
) -> BTreeMap<(ObjectId, usize), usize> {
    let mut last: BTreeMap<ObjectId, (u32, usize)> = BTreeMap::new();
    let mut governs = BTreeMap::new();
    for (b, batch) in batches.iter().enumerate() {
        let fam = family(input, batch.queue);
        for a in &accs[b] {
            let o = a.region.object;
            if input.sharing_of(o) != SharingMode::Exclusive {
                continue;
            }
            let e = last.entry(o).or_insert((fam, usize::MAX));
            if e.0 != fam {
                *e = (fam, b);
            }
            governs.insert((o, b), e.1);
        }
    }
    governs
}

/// The changes of family `(object, batch)` whose contents some read wants:
/// the ownership issues of the stripped input (no transfer anywhere), each
/// charged to the change that governs its batch.
fn needed_transfers(input: &Program) -> Result<BTreeSet<(ObjectId, usize)>, QueuePlanError> {
    let layout = resolve(input)?;
    let batches = batches(input);
    let accs = batch_accesses(input, &batches, &layout, Semantics::SPEC);
    let governs = family_changes(input, &batches, &accs);
    let batch_of: BTreeMap<usize, usize> = batches
        .iter()
        .enumerate()
        .flat_map(|(b, batch)| batch.cmds.iter().map(move |&i| (i, b)))
        .collect();
    let mut needed = BTreeSet::new();
    for issue in crate::ownership::check_ownership(input)? {
        if let Some(&change) = batch_of
            .get(&issue.command)
            .and_then(|b| governs.get(&(issue.region.object, *b)))
        {
            if change != usize::MAX {
                needed.insert((issue.region.object, change));
            }
        }
    }
    Ok(needed)
}

/// Each batch's accesses.
fn batch_accesses(
    input: &Program,
    batches: &[Batch],
    layout: &crate::ir::layout::Layout,
    sem: Semantics,
) -> Vec<Vec<Access>> {
    batches
        .iter()
        .map(|bt| {
            bt.cmds
                .iter()
                .flat_map(|&i| accesses(&input.commands[i], layout, sem))
                .collect()
        })
        .collect()
}

/// [`plan_queues`] on a stripped input; `needed`: the changes of family
/// that get a transfer (`None`: every one).
fn plan_stripped(
    input: &Program,
    opts: QueuePlanOptions,
    needed: Option<&BTreeSet<(ObjectId, usize)>>,
) -> Result<QueuePlan, QueuePlanError> {
    let input = input.clone();
    let layout = resolve(&input)?;
    let sem = Semantics::for_reading(opts.plan.reading);
    let batches = batches(&input);
    let nq = input.queue_count();
    let nb = batches.len();
    // Each batch's ordinal on its queue, and per queue its batches.
    let mut ord = vec![0i64; nb];
    let mut per_queue: Vec<Vec<usize>> = vec![Vec::new(); nq];
    for (b, batch) in batches.iter().enumerate() {
        ord[b] = per_queue[batch.queue].len() as i64;
        per_queue[batch.queue].push(b);
    }
    let accs = batch_accesses(&input, &batches, &layout, sem);
    // Needs: per consumer batch, per queue, the latest batch ordinal it
    // must be ordered after.
    let mut need: Vec<Clock> = vec![vec![-1; nq]; nb];
    for b in 0..nb {
        for a in 0..b {
            let qa = batches[a].queue;
            if qa != batches[b].queue && conflict(&accs[a], &accs[b]) {
                need[b][qa] = need[b][qa].max(ord[a]);
            }
        }
    }
    // Ownership transfers of exclusive objects.
    let mut releases: BTreeMap<usize, Vec<Barrier>> = BTreeMap::new();
    let mut acquires: BTreeMap<usize, Vec<Barrier>> = BTreeMap::new();
    // Per exclusive object: the owning family, its batches that used the
    // object since it took ownership, and the batch that acquired it.
    let mut owners: BTreeMap<ObjectId, (u32, Vec<usize>, Option<usize>)> = BTreeMap::new();
    let mut transfers = 0;
    for b in 0..nb {
        let fam = family(&input, batches[b].queue);
        let mut objects: Vec<ObjectId> = accs[b].iter().map(|a| a.region.object).collect();
        objects.sort_unstable();
        objects.dedup();
        for o in objects {
            if input.sharing_of(o) != SharingMode::Exclusive {
                continue;
            }
            let entry = owners.entry(o).or_insert((fam, Vec::new(), None));
            if entry.0 != fam && needed.is_some_and(|n| !n.contains(&(o, b))) {
                // Nothing reads the contents the other family left: this
                // family takes ownership by using it. Its uses conflict
                // with the other family's through the needs above, and
                // with that family's acquire (a write of the whole object
                // the input does not show) through this one.
                if let Some(acq) = entry.2 {
                    let qa = batches[acq].queue;
                    if qa != batches[b].queue {
                        need[b][qa] = need[b][qa].max(ord[acq]);
                    }
                }
                *entry = (fam, Vec::new(), None);
            } else if entry.0 != fam {
                let users = std::mem::take(&mut entry.1);
                let last = *users.last().expect("an owner has used the object");
                let ql = batches[last].queue;
                let region = input.whole(o);
                let on_o = |x: usize| accs[x].iter().filter(move |a| a.region.object == o);
                let (src_stages, src_access) = masks(
                    users
                        .iter()
                        .filter(|&&x| batches[x].queue == ql)
                        .flat_map(|&x| on_o(x)),
                    true,
                );
                // The acquire operation writes the whole object: every
                // later use on this queue, in this batch or a later one,
                // must see it, and the per-queue plans do not know it.
                let (dst_stages, dst_access) = (
                    PipelineStageFlags2::ALL_COMMANDS,
                    AccessFlags2::MEMORY_READ | AccessFlags2::MEMORY_WRITE,
                );
                let g = entry.0;
                releases.entry(last).or_default().push(
                    Barrier::global(
                        src_stages,
                        src_access,
                        PipelineStageFlags2::NONE,
                        AccessFlags2::NONE,
                    )
                    .on(region)
                    .with_ownership_transfer(g, fam),
                );
                acquires.entry(b).or_default().push(
                    Barrier::global(
                        PipelineStageFlags2::NONE,
                        AccessFlags2::NONE,
                        dst_stages,
                        dst_access,
                    )
                    .on(region)
                    .with_ownership_transfer(g, fam),
                );
                transfers += 1;
                need[b][ql] = need[b][ql].max(ord[last]);
                for &x in &users {
                    let qx = batches[x].queue;
                    if qx != ql {
                        need[last][qx] = need[last][qx].max(ord[x]);
                    }
                }
                *entry = (fam, Vec::new(), Some(b));
            } else if let Some(acq) = entry.2 {
                // Another queue of the new owner's family uses it only
                // after the acquire.
                let qa = batches[acq].queue;
                if qa != batches[b].queue {
                    need[b][qa] = need[b][qa].max(ord[acq]);
                }
            }
            entry.1.push(b);
        }
    }
    // What the batches after each one need, per queue (from other queues).
    let mut future: Vec<Clock> = vec![vec![-1; nq]; nb + 1];
    for b in (0..nb).rev() {
        let mut f = future[b + 1].clone();
        join(&mut f, &need[b]);
        future[b] = f;
    }
    let future = &future[1..];
    // Edges, consumer by consumer in submission order, with host waits.
    let mut clock_in: Vec<Clock> = vec![vec![-1; nq]; nb];
    let mut host: Clock = vec![-1; nq];
    let mut last_on: Vec<Option<usize>> = vec![None; nq];
    let mut edges: Vec<(usize, usize)> = Vec::new();
    let clock_out = |clock_in: &[Clock], b: usize| {
        let mut c = clock_in[b].clone();
        let q = batches[b].queue;
        c[q] = c[q].max(ord[b]);
        c
    };
    let submit_of: BTreeMap<usize, usize> = batches
        .iter()
        .enumerate()
        .filter_map(|(b, bt)| bt.submit.map(|s| (s, b)))
        .collect();
    let mut decide = |b: usize, clock_in: &mut Vec<Clock>, host: &Clock, last_on: &mut Vec<Option<usize>>| {
        let q = batches[b].queue;
        let mut base = host.clone();
        if let Some(p) = last_on[q] {
            join(&mut base, &clock_in[p]);
        }
        let candidates: Vec<(usize, Clock)> = (0..nq)
            .filter(|&r| r != q)
            .filter_map(|r| last_on[r])
            .map(|p| (p, clock_out(clock_in, p)))
            .collect();
        let mut n = need[b].clone();
        n[q] = -1;
        let direct: Vec<bool> = candidates
            .iter()
            .map(|(p, _)| n[batches[*p].queue] > base[batches[*p].queue])
            .collect();
        for k in fewest_edges(&base, &n, &future[b], &candidates, &direct) {
            let (p, c) = &candidates[k];
            join(&mut base, c);
            edges.push((*p, b));
        }
        clock_in[b] = base;
        last_on[q] = Some(b);
    };
    for (i, c) in input.commands.iter().enumerate() {
        match c {
            Command::Submit(_) => decide(submit_of[&i], &mut clock_in, &host, &mut last_on),
            Command::Wait(w) => {
                for (r, last) in last_on.iter().enumerate() {
                    let waited = match w {
                        WaitFor::All => true,
                        WaitFor::Queue(QueueId(x)) => *x as usize == r,
                    };
                    if let (true, Some(p)) = (waited, last) {
                        let c = clock_out(&clock_in, *p);
                        join(&mut host, &c);
                    }
                }
            }
            _ => {}
        }
    }
    if batches.last().is_some_and(|b| b.submit.is_none()) {
        decide(nb - 1, &mut clock_in, &host, &mut last_on);
    }
    // Semaphores for the edges.
    let mut semaphores: Vec<Semaphore> = Vec::new();
    let mut waits: Vec<Vec<SemaphoreWait>> = vec![Vec::new(); nb];
    let mut signals: Vec<Vec<SemaphoreSignal>> = vec![Vec::new(); nb];
    let all = PipelineStageFlags2::ALL_COMMANDS;
    edges.sort_unstable();
    // Each semaphore is busy from its signal's batch to its
    // wait's; greedy colouring by signal batch. A batch does not signal a
    // binary semaphore it waits for: valid (the wait unsignals it first),
    // but NVIDIA's driver 580.159.04 on the H200 drops the wait of such a
    // batch (`docs/h200/planned-wrong-bytes-p100010.trace`: a whole
    // buffer wrong on every run, right with a second semaphore).
    let mut busy_until: Vec<usize> = Vec::new();
    for &(p, b) in &edges {
        let s = match busy_until.iter().position(|&u| u < p) {
            Some(s) => s,
            None => {
                busy_until.push(0);
                semaphores.push(Semaphore {
                    name: format!("sem{}", semaphores.len()),
                    kind: SemaphoreType::Binary,
                });
                busy_until.len() - 1
            }
        };
        busy_until[s] = b;
        let id = SemaphoreId(s as u32);
        signals[p].push(SemaphoreSignal {
            semaphore: id,
            value: None,
            stages: all,
        });
        waits[b].push(SemaphoreWait {
            semaphore: id,
            value: None,
            stages: all,
        });
    }
    // Barriers inside each queue, from the single-queue planner.
    let mut before: Vec<Vec<(Command, Option<Vec<Hazard>>)>> = vec![Vec::new(); input.commands.len() + 1];
    for (q, bs) in per_queue.iter().enumerate() {
        if bs.is_empty() {
            continue;
        }
        let queue_accs: Vec<Access> = bs.iter().flat_map(|&b| accs[b].iter().copied()).collect();
        let mut map = Vec::new();
        let mut cmds = Vec::new();
        let mut in_q = vec![false; input.commands.len()];
        for &b in bs {
            for &i in &batches[b].cmds {
                in_q[i] = true;
            }
            if let Some(s) = batches[b].submit {
                in_q[s] = true;
            }
        }
        for (i, c) in input.commands.iter().enumerate() {
            // A host access takes part in the plan of each queue whose
            // work it conflicts with (the barriers to `HOST`), and host
            // waits for every queue in every queue's plan (what a fence
            // wait already orders); a wait for one queue only in that
            // queue's. A host access that conflicts with nothing of a
            // queue stays out of its plan, so a planner that submits and
            // waits before every host access does not do so there.
            let host = matches!(c, Command::HostRead { .. } | Command::HostWrite { .. });
            let keep = in_q[i]
                || (host && conflict(&accesses(c, &layout, sem), &queue_accs))
                || matches!(
                    c,
                    Command::Alloc { .. } | Command::Free { .. } | Command::Wait(WaitFor::All)
                )
                || matches!(c, Command::Wait(WaitFor::Queue(QueueId(x))) if *x as usize == q);
            if keep {
                map.push(i);
                cmds.push(match c {
                    Command::Submit(_) => Command::SUBMIT,
                    Command::Wait(_) => Command::WAIT,
                    c => c.clone(),
                });
            }
        }
        let mut sub = input.with_commands(cmds);
        sub.queues.clear();
        sub.semaphores.clear();
        let planned = plan(&sub, opts.plan)?;
        let mut pending: Vec<(Command, Option<Vec<Hazard>>)> = Vec::new();
        let answers: BTreeMap<usize, &Vec<Hazard>> = planned.answers.iter().map(|(k, v)| (*k, v)).collect();
        for (k, c) in planned.program.commands.iter().enumerate() {
            match planned.origin[k] {
                Some(j) => before[map[j]].append(&mut pending),
                None if matches!(c, Command::Barrier(_)) => {
                    let hs = answers.get(&k).map(|hs| {
                        hs.iter()
                            .map(|h| Hazard {
                                command: map[h.command],
                                prior_command: map[h.prior_command],
                                ..*h
                            })
                            .collect()
                    });
                    pending.push((c.clone(), hs));
                }
                // A submit and fence wait the single-queue planner had to
                // insert before a host access: the input does not wait
                // for this queue's work there.
                None => {
                    let at = planned.origin[k + 1..]
                        .iter()
                        .find_map(|o| *o)
                        .map_or(input.commands.len(), |j| map[j]);
                    return Err(QueuePlanError::HostNotWaited { at });
                }
            }
        }
        let n = input.commands.len();
        before[n].append(&mut pending);
    }
    // Assemble.
    let first_cmd: BTreeMap<usize, usize> = batches
        .iter()
        .enumerate()
        .filter_map(|(b, bt)| bt.cmds.first().map(|&i| (i, b)))
        .collect();
    let mut commands = Vec::new();
    let mut origin = Vec::new();
    let mut answers = Vec::new();
    let push_barrier = |commands: &mut Vec<Command>, origin: &mut Vec<Option<usize>>, b: Barrier| {
        commands.push(Command::Barrier(Dependency { barriers: vec![b] }));
        origin.push(None);
    };
    let submission = |b: usize| Submission {
        queue: QueueId(batches[b].queue as u32),
        waits: waits[b].clone(),
        signals: signals[b].clone(),
    };
    for (i, c) in input.commands.iter().enumerate() {
        if let Some(b) = first_cmd.get(&i) {
            for a in acquires.remove(b).unwrap_or_default() {
                push_barrier(&mut commands, &mut origin, a);
            }
        }
        for (c, hs) in std::mem::take(&mut before[i]) {
            if let Some(hs) = hs {
                answers.push((commands.len(), hs));
            }
            commands.push(c);
            origin.push(None);
        }
        match c {
            Command::Submit(_) => {
                let b = submit_of[&i];
                for r in releases.remove(&b).unwrap_or_default() {
                    let region = r.region;
                    push_barrier(&mut commands, &mut origin, r);
                    // The release operation writes the object, after the
                    // batch's barrier to HOST: a later host access of it
                    // needs its own domain operation (only ALL_COMMANDS
                    // holds the release operation).
                    let host_later = region.is_some_and(|reg| {
                        input.commands[i + 1..].iter().any(|x| match x {
                            Command::HostRead { src } => src.object == reg.object,
                            Command::HostWrite { dst, .. } => dst.object == reg.object,
                            _ => false,
                        })
                    });
                    if let (true, Some(reg)) = (host_later, region) {
                        let to_host = Barrier::global(
                            PipelineStageFlags2::ALL_COMMANDS,
                            AccessFlags2::NONE,
                            PipelineStageFlags2::HOST,
                            AccessFlags2::HOST_READ | AccessFlags2::HOST_WRITE,
                        )
                        .on(reg);
                        push_barrier(&mut commands, &mut origin, to_host);
                    }
                }
                commands.push(Command::Submit(submission(b)));
            }
            c => commands.push(c.clone()),
        }
        origin.push(Some(i));
    }
    if batches.last().is_some_and(|b| b.submit.is_none()) {
        commands.push(Command::Submit(submission(nb - 1)));
        origin.push(None);
    }
    let mut out = input.with_commands(commands);
    out.semaphores = semaphores;
    // The plan is valid by construction; resolving checks the semaphore
    // order rules once more.
    resolve(&out)?;
    let plan = Plan {
        program: out,
        origin,
        answers,
    };
    Ok(QueuePlan {
        semaphores: plan.program.semaphores.len(),
        waits: edges.len(),
        signals: signals.iter().map(Vec::len).sum(),
        barrier_points: plan.program.barrier_points(),
        ownership_transfers: transfers,
        plan,
    })
}
