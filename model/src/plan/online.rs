//! The online (streaming) planner: before each command, the barriers its
//! hazards need, from the state so far. It never looks ahead (but for a
//! rendering instance, whose barriers all go before its begin-rendering:
//! its commands are one unit), so it can need more barrier points than
//! the offline planner; what it places is minimal for what it knows
//! (`docs/planning.md`).

use super::emit::Emitter;
use super::points::{feed, live_requirements, place_point, Req};
use super::BarrierForm;
use crate::hazard::{detect_accesses, Hazard};
use crate::ir::access::{accesses, Access};
use crate::ir::layout::Layout;
use crate::ir::program::{Barrier, Command, Program};
use crate::semantics::Semantics;
use crate::sync::checker::Checker;
use crate::vk::scope::Stage;

/// What a command needs before it, as the online planner decides it.
pub(crate) struct Before {
    /// The barriers of one `vkCmdPipelineBarrier2` (empty: none).
    pub(crate) barriers: Vec<Barrier>,
    /// The hazards those barriers answer.
    pub(crate) answers: Vec<Hazard>,
    /// A submit and a fence wait after the barriers, before the command
    /// (a host access after device work).
    pub(crate) submit_wait: bool,
}

/// The per-command step of the online planner, shared with
/// [`crate::Tracker`]: the barriers (and the submit and wait) command
/// `index`, making accesses `acc`, needs before it, applied to the checker.
/// The caller records the accesses afterwards.
pub(crate) fn before(
    checker: &mut Checker,
    layout: &Layout,
    form: BarrierForm,
    index: usize,
    acc: &[Access],
) -> Before {
    let host = acc.iter().any(|a| a.sa.stage() == Stage::Host);
    let hazards = detect_accesses(checker, index, acc);
    let needs_wait = hazards.iter().any(|h| h.fix.wait);
    let with_barrier = hazards.into_iter().filter(|h| h.fix.barrier.is_some());
    let reqs = with_barrier.map(|hazard| Req { hazard });
    let live = live_requirements(checker, reqs, false);
    let (barriers, answers) = place_point(checker, layout, live, form);
    let submit_wait = needs_wait || (host && !barriers.is_empty());
    if submit_wait {
        checker.submit();
        checker.wait();
    }
    Before {
        barriers,
        answers,
        submit_wait,
    }
}

/// The barriers a whole rendering instance (commands `range`, its begin
/// first) needs before its begin, where they must go (none may be
/// recorded inside): the hazards of all its commands, found on a copy of
/// the checker, as one point. The one exception to "never looks ahead":
/// an instance is one unit for placement.
fn before_instance(
    checker: &mut Checker,
    layout: &Layout,
    form: BarrierForm,
    input: &Program,
    range: std::ops::RangeInclusive<usize>,
) -> (Vec<Barrier>, Vec<Hazard>) {
    let mut probe = checker.clone();
    let mut found = Vec::new();
    for k in range {
        crate::hazard::step(&mut probe, layout, k, &input.commands[k], &mut found);
    }
    let reqs = found
        .into_iter()
        .filter(|h| h.fix.barrier.is_some())
        .map(|hazard| Req { hazard });
    let live = live_requirements(checker, reqs, false);
    place_point(checker, layout, live, form)
}

pub(crate) fn online(input: &Program, layout: &Layout, form: BarrierForm, sem: Semantics, out: &mut Emitter) {
    let mut checker = Checker::with_semantics(layout.memory_sizes.len(), sem);
    let instances = crate::ir::render::instance_begins(&input.commands);
    for (i, c) in input.commands.iter().enumerate() {
        if instances[i] == Some(i) {
            let end = (i..input.commands.len())
                .take_while(|&k| instances[k] == Some(i))
                .last()
                .unwrap_or(i);
            let (barriers, answers) = before_instance(&mut checker, layout, form, input, i..=end);
            out.barrier(barriers, answers);
            feed(out, &mut checker, layout, i, c);
            continue;
        }
        // A layout transition's barrier orders its own write (its scopes
        // were set for it, `transitions`): it is fed as it is.
        let acc = if matches!(c, Command::Barrier(_)) {
            Vec::new()
        } else {
            accesses(c, layout, sem)
        };
        if !acc.is_empty() && instances[i].is_none() {
            let b = before(&mut checker, layout, form, i, &acc);
            out.barrier(b.barriers, b.answers);
            if b.submit_wait {
                out.submit_wait();
            }
        }
        feed(out, &mut checker, layout, i, c);
    }
}
