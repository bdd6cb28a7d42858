//! The online (streaming) planner: before each command, the barriers its
//! hazards need, from the state so far. It never looks ahead (but for a
//! rendering instance, whose barriers all go before its begin-rendering:
//! its commands are one unit), so it can need more barrier points than
//! the offline planner; what it places is minimal for what it knows
//! (`docs/planning.md`).

use super::emit::Emitter;
use super::points::{feed, live_requirements, place_point, point_with_transition, recordable, Req};
use super::BarrierForm;
use crate::hazard::{detect_accesses, Hazard};
use crate::ir::access::{accesses, Access};
use crate::ir::layout::Layout;
use crate::ir::program::{Barrier, Command, Dependency, Program};
use crate::ir::render::RenderOp;
use crate::semantics::Semantics;
use crate::sync::checker::Checker;
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
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
///
/// The tracker's own layout transitions: `transitions` (command
/// `index - 1`, their scopes set for what they need) go into the same
/// `vkCmdPipelineBarrier2` as the barriers placed here, which are only
/// what they leave open, and the call is applied as one
/// (`point_with_transition`: barriers of one call do not chain with each
/// other). `chain` gives the second-scope stages of an earlier such
/// transition (by its command), so that a later access of its bytes gets
/// a barrier that chains out of its second scope (its write is available
/// already, "Image layout transitions" in `docs/semantics.md`).
pub(crate) fn before(
    checker: &mut Checker,
    layout: &Layout,
    form: BarrierForm,
    program: Option<&Program>,
    tracked: Tracked<'_>,
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
        .map(|h| chain_out(h, tracked.chain))
        .filter_map(|h| recordable(program, h))
        .map(|hazard| Req::new(program, layout, hazard));
    let live = live_requirements(checker, reqs, false);
    let (barriers, answers) = match tracked.transitions {
        Some(dep) => {
            let (barriers, answers) = point_with_transition(checker, layout, live, form, dep);
            let mut call = dep.barriers.clone();
            call.extend(barriers.iter().copied());
            let mut found = Vec::new();
            crate::hazard::step(
                checker,
                layout,
                index - 1,
                &Command::Barrier(Dependency { barriers: call }),
                &mut found,
            );
            debug_assert!(
                found.is_empty(),
                "the transitions' scopes hold what they need: {found:?}"
            );
            (barriers, answers)
        }
        None => place_point(checker, layout, live, form),
    };
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

/// What the [`crate::Tracker`] adds to [`before`]: the layout transitions
/// it makes before the command, and the second-scope stages of the ones it
/// made earlier. `Tracked::default()` for a planner.
#[derive(Clone, Copy, Default)]
pub(crate) struct Tracked<'a> {
    pub(crate) transitions: Option<&'a Dependency>,
    pub(crate) chain: Option<&'a dyn Fn(usize) -> Option<PipelineStageFlags2>>,
}

/// Hazard `h` with the fix that chains out of the second scope of the
/// tracker's transition it follows (its prior), where `chain` knows it:
/// a barrier from those stages (no access: the transition's write is
/// available at once) to the later access. Any other hazard as it is.
fn chain_out(mut h: Hazard, chain: Option<&dyn Fn(usize) -> Option<PipelineStageFlags2>>) -> Hazard {
    let Some(chain) = chain else { return h };
    if !h.prior.is_layout_transition() || h.current.is_layout_transition() {
        return h;
    }
    let (Some(fix), Some(stages)) = (h.fix.barrier, chain(h.prior_command)) else {
        return h;
    };
    h.fix.barrier = Some(Barrier {
        transition: false,
        src_stage_mask: stages,
        src_access_mask: AccessFlags2::NONE,
        ..fix
    });
    h
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
            let b = before(
                &mut checker,
                layout,
                form,
                Some(input),
                Tracked::default(),
                i,
                &acc,
            );
            out.barrier(b.barriers, b.answers);
            if b.submit_wait {
                out.submit_wait();
            }
        }
        feed(out, &mut checker, layout, i, c);
    }
}
