//! Split barriers: turning a single-queue plan's barrier points into event
//! pairs, `set-event` right after the last command the point's hazards
//! start at and `wait-events` where the barrier was, so that the commands
//! recorded between them may overlap the producer.
//!
//! This module owns only that rewrite of a finished single-queue plan; it
//! decides no hazard and plans no barrier. Event semantics are the
//! checker's (`docs/semantics.md`, "Events"): the set's dependency applies
//! its first scopes to the commands before the set, the wait its second
//! scopes to the commands after the wait, and accesses between the two
//! are not ordered by the pair. So a point is split only when
//!
//! * it answers hazards of the barrier-free input (`Plan::answers`), whose
//!   latest producer lies before the point with at least one device
//!   command between them (otherwise a split gains nothing), and no submit
//!   or host command between (the pair stays inside one batch); a producer
//!   inside a rendering instance counts from the instance's end, where the
//!   set goes (none may be recorded inside one); and
//! * its barriers name no `HOST` stage (an event's dependency may not:
//!   VUID-vkCmdSetEvent2-srcStageMask-09391 and -dstStageMask-09392);
//!   and
//! * the program with that one point split still checks hazard-free: a
//!   later point may have relied on this barrier's second scope to chain
//!   the commands in between, which a split no longer orders.
//!
//! Points are tried from the last to the first, each against the program
//! with the later splits already made. Each split gets its own event
//! (`split0`, `split1`, ...; names the program uses are skipped), set once
//! and never reset, so the event rules (a wait needs its set earlier, a set
//! only on an unsignalled event, equal dependency infos) hold by
//! construction.

use super::Plan;
use crate::hazard::{check_with, Hazard};
use crate::ir::access::is_device_command;
use crate::ir::event::{EventId, EventWait};
use crate::ir::layout::ProgramError;
use crate::ir::program::Command;
use crate::semantics::{Reading, Semantics};

/// How many barrier points [`split_barriers`] turned into event pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitPlan {
    /// The plan with its split points (`origin` and `answers` follow the
    /// commands; an inserted `set-event` has no origin and no answers, the
    /// `wait-events` keeps the barrier's answers).
    pub plan: Plan,
    /// Barrier points turned into a `set-event`/`wait-events` pair.
    pub split: usize,
    /// Why the other points stayed barriers.
    pub kept: SplitKept,
}

/// Why [`split_barriers`] kept barrier points as barriers, one count per
/// reason (the module documentation's conditions, in the order they are
/// tested; a point counts once, for the first that holds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitKept {
    /// No device command between the point's latest producer and the
    /// point (a split would let nothing overlap), or the point answers
    /// no hazard of the input.
    pub adjacent: usize,
    /// A submit, wait or host access between them (an event pair stays
    /// inside one batch).
    pub across_batch: usize,
    /// The point performs a layout transition, or is a barrier of the
    /// input kept in place with no hazard to answer (a transition or an
    /// ownership transfer): an event wait performs neither here.
    pub transition: usize,
    /// Split, the program would race: a later point relied on this
    /// barrier to order the commands in between.
    pub would_race: usize,
    /// The point's barrier names `HOST` in a stage mask: an event's
    /// dependency may not (VUID-vkCmdSetEvent2-srcStageMask-09391,
    /// VUID-vkCmdSetEvent2-dstStageMask-09392, and the same of
    /// `vkCmdWaitEvents2`), and a host access is ordered after the device
    /// by a pipeline barrier before the submit anyway.
    pub host: usize,
}

impl SplitKept {
    /// Every point kept.
    pub fn total(&self) -> usize {
        self.adjacent + self.across_batch + self.transition + self.would_race + self.host
    }
}

/// Splits the barrier points of a single-queue `plan` (of a planner in
/// [`super::plan`]) into events where independent device commands lie
/// between a point's last producer and the point and the program stays
/// hazard-free under `reading` (see the module documentation).
///
/// ```
/// use vksync::plan::{plan, split_barriers, PlanOptions, PlannerKind};
/// use vksync::Reading;
/// let t = vksync::trace::parse(
///     "buffer a 256\nbuffer b 256\nbuffer c 256\nfill a 1\nfill c 2\ncopy a -> b\n",
/// )?;
/// let p = plan(&t.program, PlanOptions::new(PlannerKind::Offline))?;
/// let s = split_barriers(&p, Reading::VisibleToWrites)?;
/// assert_eq!(s.split, 1);
/// assert!(vksync::check(&s.plan.program)?.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn split_barriers(plan: &Plan, reading: Reading) -> Result<SplitPlan, ProgramError> {
    plan.program.require_single_queue()?;
    let sem = Semantics::for_reading(reading);
    let mut cur = plan.clone();
    let mut split = 0;
    let mut kept = SplitKept::default();
    let mut next_name = 0usize;
    let mut points: Vec<usize> = cur
        .answers
        .iter()
        .filter(|(i, _)| matches!(&cur.program.commands[*i], Command::Barrier(d) if !d.barriers.is_empty()))
        .map(|(i, _)| *i)
        .collect();
    for k in (0..points.len()).rev() {
        // (An earlier split's `set-event` may have moved this point.)
        let p = points[k];
        let answers: Vec<Hazard> = match cur.answers.iter().find(|(i, _)| *i == p) {
            Some((_, hs)) if !hs.is_empty() => hs.clone(),
            _ => {
                kept.adjacent += 1;
                continue;
            }
        };
        // The latest producer, as an index of the current program.
        let last = answers.iter().map(|h| h.prior_command).max().unwrap_or(0);
        let Some(mut lp) = cur.origin.iter().position(|o| *o == Some(last)) else {
            kept.adjacent += 1;
            continue;
        };
        // A producer inside a rendering instance (a draw, a load or store
        // operation): the set goes after the instance's end, since no
        // `vkCmdSetEvent2` may be recorded inside one
        // (VUID-vkCmdSetEvent2-renderpass; review36: the set went right
        // after the draw and the whole plan was refused).
        let inside = crate::ir::render::barrier_points(&cur.program.commands);
        if let Some(begin) = inside.get(lp).copied().flatten() {
            lp = (lp..cur.program.commands.len())
                .take_while(|&j| inside[j] == Some(begin))
                .last()
                .unwrap_or(lp);
        }
        if lp >= p {
            kept.adjacent += 1;
            continue;
        }
        let between = &cur.program.commands[lp + 1..p];
        let independent = between.iter().any(is_device_command);
        let same_batch = !between.iter().any(|c| {
            matches!(
                c,
                Command::Submit(_) | Command::Wait(_) | Command::HostRead { .. } | Command::HostWrite { .. }
            )
        });
        if !independent {
            kept.adjacent += 1;
            continue;
        }
        if !same_batch {
            kept.across_batch += 1;
            continue;
        }
        let Command::Barrier(dependency) = cur.program.commands[p].clone() else {
            continue;
        };
        // A point joined to a layout transition stays a barrier: an event
        // wait performs no transition here (the trace format refuses one).
        if dependency.barriers.iter().any(|b| b.transition) {
            kept.transition += 1;
            continue;
        }
        let host = |b: &crate::ir::program::Barrier| {
            (b.src_stage_mask | b.dst_stage_mask).intersects(crate::vk::flags::PipelineStageFlags2::HOST)
        };
        if dependency.barriers.iter().any(host) {
            kept.host += 1;
            continue;
        }
        let name = loop {
            let n = format!("split{next_name}");
            next_name += 1;
            if cur.program.find_event(&n).is_none() {
                break n;
            }
        };
        let mut next = cur.clone();
        let event = EventId(next.program.events.len() as u32);
        next.program.event(&name)?;
        next.program.commands[p] = Command::WaitEvents {
            waits: vec![EventWait {
                event,
                dependency: dependency.clone(),
            }],
        };
        next.program
            .commands
            .insert(lp + 1, Command::SetEvent { event, dependency });
        next.origin.insert(lp + 1, None);
        for (i, _) in next.answers.iter_mut() {
            if *i > lp {
                *i += 1;
            }
        }
        // A split the model refuses (a rule of events or rendering this
        // rewrite did not foresee) is kept a barrier, as one that races.
        if check_with(&next.program, sem).is_ok_and(|hs| hs.is_empty()) {
            cur = next;
            split += 1;
            // Points between the producer and this one (not yet tried)
            // moved with the inserted `set-event`.
            for q in points.iter_mut().filter(|q| **q > lp) {
                *q += 1;
            }
        } else {
            kept.would_race += 1;
        }
    }
    // Points the loop did not consider: the input's own transition and
    // ownership barriers, kept where they were.
    kept.transition += plan.program.barrier_points().saturating_sub(points.len());
    Ok(SplitPlan {
        plan: cur,
        split,
        kept,
    })
}
