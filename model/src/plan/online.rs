//! The online (streaming) planner: before each command, the barriers its
//! hazards need, from the state so far. It never looks ahead (but for a
//! rendering instance, whose barriers all go before its begin-rendering:
//! its commands are one unit), so it can need more barrier points than
//! the offline planner; what it places is minimal for what it knows
//! (`docs/planning.md`).

use super::emit::Emitter;
use super::points::{feed, live_requirements, place_point, recordable, Req};
use super::BarrierForm;
use crate::hazard::{detect_accesses, Hazard};
use crate::ir::access::{accesses, Access};
use crate::ir::layout::Layout;
use crate::ir::program::{Barrier, Command, Program};
use crate::ir::render::RenderOp;
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
/// The caller records the accesses afterwards. `program`: the program
/// being planned, whose render pass commands say which barrier chains with
/// a render pass's automatic layout transition ([`recordable`]; the
/// tracker has none).
pub(crate) fn before(
    checker: &mut Checker,
    layout: &Layout,
    form: BarrierForm,
    program: Option<&Program>,
    index: usize,
    acc: &[Access],
) -> Before {
    let host = acc.iter().any(|a| a.sa.stage() == Stage::Host);
    let hazards = detect_accesses(checker, index, acc);
    let needs_wait = hazards.iter().any(|h| h.fix.wait);
    // Only a barrier to record (`recordable`): a recorded transition's
    // scopes were planned for it (`transitions`), and a render pass's
    // automatic one that no barrier chains with only its subpass
    // dependencies order (the plan is refused,
    // `ir::renderpass::refuse_hazard_inside`).
    let reqs = hazards
        .into_iter()
        .filter_map(|h| recordable(program, h))
        .map(|hazard| Req::new(program, layout, hazard));
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
    let start = *range.start();
    let mut probe = checker.clone();
    let mut found = Vec::new();
    for k in range {
        crate::hazard::step(&mut probe, layout, k, &input.commands[k], &mut found);
    }
    // Only what a barrier before the unit can fix: a hazard whose earlier
    // access precedes the unit and whose fix is a barrier to record (its
    // own, or one that chains with the render pass's dependency from
    // `EXTERNAL` into its automatic layout transition at the begin,
    // `recordable`). The rest is refused once the plan is checked
    // (`ir::renderpass::refuse_hazard_inside`).
    let reqs = found
        .into_iter()
        .filter(|h| h.prior_command < start)
        .filter_map(|h| recordable(Some(input), h))
        .map(|hazard| Req::new(Some(input), layout, hazard));
    let live = live_requirements(checker, reqs, false);
    place_point(checker, layout, live, form)
}

pub(crate) fn online(input: &Program, layout: &Layout, form: BarrierForm, sem: Semantics, out: &mut Emitter) {
    let mut checker = Checker::with_semantics(layout.memory_sizes.len(), sem);
    let instances = crate::ir::render::instance_begins(&input.commands);
    for (i, c) in input.commands.iter().enumerate() {
        // A render pass is one unit with all its subpasses (a barrier may go
        // only before its begin): a `next-subpass` starts no unit.
        let render_op = |k: usize| match &input.commands[k] {
            Command::Render(rc) => Some(&rc.op),
            _ => None,
        };
        if instances[i] == Some(i) && !matches!(render_op(i), Some(RenderOp::NextSubpass)) {
            let end = if matches!(render_op(i), Some(RenderOp::BeginPass(_))) {
                (i..input.commands.len())
                    .find(|&k| matches!(render_op(k), Some(RenderOp::EndPass)))
                    .unwrap_or(i)
            } else {
                (i..input.commands.len())
                    .take_while(|&k| instances[k] == Some(i))
                    .last()
                    .unwrap_or(i)
            };
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
            let b = before(&mut checker, layout, form, Some(input), i, &acc);
            out.barrier(b.barriers, b.answers);
            if b.submit_wait {
                out.submit_wait();
            }
        }
        feed(out, &mut checker, layout, i, c);
    }
}
