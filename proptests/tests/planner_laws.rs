//! Model-only laws of the planners, on random programs (no device needed),
//! for both readings of write-after-write (each plan judged under the
//! reading it was planned for): plans check clean; every barrier and every
//! bit of a plan is necessary; the offline planner meets the stabbing lower
//! bound; online needs at least as many points as offline; no plan holds
//! an invalid stage/access pair. The same laws hold on programs with image
//! layout transitions, which every plan keeps in place. Case count:
//! `PROPTEST_CASES` (default 256).

use proptest::prelude::*;
use vksync::check_streaming;
use vksync::plan::{plan, stabbing_bound, BarrierForm, PlanOptions, PlannerKind};
use vksync::{check_with, resolve, Command, Hazard, Program, Reading, Semantics};
use vksync_proptests::images::{image_programs, ImageShape};
use vksync_proptests::transitions::programs_with_transitions;
use vksync_proptests::{programs, weakenings, weakenings_at, Generated};

const FORMS: [BarrierForm; 2] = [BarrierForm::Global, BarrierForm::Buffer];
const READINGS: [Reading; 2] = [Reading::VisibleToWrites, Reading::MemoryModel];

/// The plan as `vksync plan` prints it, parsed back: the program a user
/// of the plan runs, which the laws judge (a plan whose printed text said
/// other than the plan, an image barrier over several byte ranges printed
/// with one range's masks, checked clean and raced as printed).
fn as_printed(p: &Program) -> Program {
    vksync::trace::parse(&vksync::trace::print(p))
        .expect("a plan parses")
        .program
}

/// What each host read of `p` sees, in order, by the CPU reference: a
/// plan computes what its input computes (it may not move a host access
/// across a submit the program had, which changes what the device reads).
/// The reference runs commands in trace order; a host access recorded
/// after a command it runs before (an order note) is compared as it runs:
/// the `none` planner's output is the input without its barriers, in
/// execution order (`expected`).
fn values(p: &Program) -> Vec<Vec<Option<u8>>> {
    vksync::reference::run(p)
        .expect("the reference runs valid programs")
        .into_iter()
        .map(|r| r.bytes)
        .collect()
}

/// [`values`] of `input` as it runs: the `none` planner's plan of it.
fn expected(input: &Program) -> Vec<Vec<Option<u8>>> {
    values(
        &plan(input, PlanOptions::new(PlannerKind::None))
            .expect("valid")
            .program,
    )
}

fn planned(g: &Generated, planner: PlannerKind, form: BarrierForm, reading: Reading) -> Program {
    plan(&g.program, PlanOptions::new(planner).form(form).reading(reading))
        .expect("generated programs are valid")
        .program
}

/// The hazards of `p` under `reading`.
fn check(p: &Program, reading: Reading) -> Vec<Hazard> {
    check_with(p, Semantics::for_reading(reading)).expect("valid program")
}

proptest! {
    #![proptest_config(vksync_proptests::config(256))]

    #[test]
    fn plans_check_clean_and_are_valid(g in programs(40)) {
        for (planner, form, reading) in all(&[PlannerKind::Online, PlannerKind::Offline, PlannerKind::Conservative]) {
            {
                let p = planned(&g, planner, form, reading);
                prop_assert!(resolve(&p).is_ok(), "{planner:?}/{form:?} produced an invalid program");
                let p = as_printed(&p);
                let hazards = check(&p, reading);
                prop_assert!(hazards.is_empty(), "{planner:?}/{form:?} plan has hazards: {:?}\n{}",
                    hazards.iter().map(|h| h.describe(&p)).collect::<Vec<_>>(), vksync::trace::print(&p));
                prop_assert_eq!(values(&p), expected(&g.program), "{:?}/{:?}: the plan computes other values\n{}",
                    planner, form, vksync::trace::print(&p));
            }
        }
    }

    #[test]
    fn every_barrier_and_bit_is_necessary(g in programs(24)) {
        for (planner, form, reading) in all(&[PlannerKind::Online, PlannerKind::Offline]) {
            {
                let p = planned(&g, planner, form, reading);
                // A streaming planner cannot know, when it records a command
                // against work submitted but not waited for, whether the
                // program will wait before submitting that command; it places
                // the barrier anyway. Online plans are minimal with respect to
                // what the planner can know: the streaming check.
                let check_as = |q: &Program| match planner {
                    PlannerKind::Online => check_streaming(q, Semantics::for_reading(reading)).unwrap(),
                    _ => check(q, reading),
                };
                for (what, q) in weakenings(&p) {
                    let hazards = check_as(&q);
                    prop_assert!(!hazards.is_empty(), "{planner:?}/{form:?}/{reading:?}: {what} leaves the plan clean:\n{}",
                        vksync::trace::print(&p));
                }
            }
        }
    }

    #[test]
    fn offline_meets_the_stabbing_bound(g in programs(60)) {
        let waits = |p: &Program| p.commands().iter().filter(|c| matches!(c, Command::Wait(_))).count();
        for (_, form, reading) in all(&[PlannerKind::Offline]) {
            let bound = stabbing_bound(&g.program, reading).unwrap();
            let offline = planned(&g, PlannerKind::Offline, form, reading);
            let online = planned(&g, PlannerKind::Online, form, reading);
            prop_assert_eq!(offline.barrier_points(), bound, "offline {:?} {:?} points vs bound", form, reading);
            // Online cannot move a barrier back before a submit the program
            // already waited for; it records it afterwards and waits again,
            // and that extra wait can spare it a later barrier point. Count
            // each extra wait as the synchronization point it is.
            let extra_waits = waits(&online).saturating_sub(waits(&offline));
            prop_assert!(online.barrier_points() + extra_waits >= offline.barrier_points(),
                "online {} (+{} waits) < offline {}", online.barrier_points(), extra_waits, offline.barrier_points());
        }
    }
}

/// The layout transitions of `p` (command index, barrier), in order.
fn transitions_of(p: &Program) -> Vec<vksync::Barrier> {
    p.commands()
        .iter()
        .filter_map(|c| match c {
            Command::Barrier(d) => Some(
                d.barriers
                    .iter()
                    .filter(|b| b.transition)
                    .copied()
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        })
        .flatten()
        .collect()
}

proptest! {
    #![proptest_config(vksync_proptests::config(256))]

    /// Programs with layout transitions: every safe plan keeps each
    /// transition (same region and ownership, in the same order), checks
    /// clean, and every barrier and bit it holds is needed (a transition
    /// itself is not a weakening: dropping it drops a write); the offline
    /// planner meets the stabbing bound, each transition counting as a
    /// point.
    #[test]
    fn plans_around_transitions_keep_them_and_are_minimal(g in programs_with_transitions(24)) {
        let before: Vec<_> = transitions_of(&g.program).iter().map(|b| (b.region, b.ownership)).collect();
        for (planner, form, reading) in all(&[PlannerKind::Online, PlannerKind::Offline, PlannerKind::Conservative]) {
            let p = planned(&g, planner, form, reading);
            let after: Vec<_> = transitions_of(&p).iter().map(|b| (b.region, b.ownership)).collect();
            prop_assert_eq!(&after, &before, "{:?}/{:?} moved or dropped a transition", planner, form);
            prop_assert_eq!(&as_printed(&p), &p, "{:?}/{:?}: the plan prints as another program", planner, form);
            let hazards = check(&p, reading);
            prop_assert!(hazards.is_empty(), "{planner:?}/{form:?} plan has hazards: {:?}\n{}",
                hazards.iter().map(|h| h.describe(&p)).collect::<Vec<_>>(), vksync::trace::print(&p));
            if planner == PlannerKind::Conservative {
                continue;
            }
            let check_as = |q: &Program| match planner {
                PlannerKind::Online => check_streaming(q, Semantics::for_reading(reading)).unwrap(),
                _ => check(q, reading),
            };
            for (what, q) in weakenings(&p) {
                if transitions_of(&q).len() < after.len() {
                    continue;
                }
                prop_assert!(!check_as(&q).is_empty(), "{planner:?}/{form:?}/{reading:?}: {what} leaves the plan clean:\n{}",
                    vksync::trace::print(&p));
            }
            if planner == PlannerKind::Offline {
                let bound = stabbing_bound(&g.program, reading).unwrap();
                prop_assert_eq!(p.barrier_points(), bound, "offline {:?} {:?} points vs bound\n{}", form, reading,
                    vksync::trace::print(&p));
            }
        }
    }
}

proptest! {
    #![proptest_config(vksync_proptests::config(256))]

    /// The answers the offline planner gives a transition's command are
    /// the command's: each names a consumer at which removing the
    /// command's synchronization (its transitions kept, with empty scopes)
    /// brings a hazard of that kind back. (The bits of a transition's
    /// command are thinned after the plan is built; a planned barrier that
    /// joined it can go, and its answers named it after it was gone.)
    #[test]
    fn answers_at_transitions_are_the_commands_own(g in programs_with_transitions(24)) {
        for form in FORMS {
            for reading in READINGS {
                let p = plan(&g.program, PlanOptions::new(PlannerKind::Offline).form(form).reading(reading)).unwrap();
                for (i, hs) in &p.answers {
                    let Command::Barrier(d) = &p.program.commands()[*i] else {
                        prop_assert!(false, "answers at command {i}, which is no barrier");
                        unreachable!()
                    };
                    if !d.barriers.iter().any(|b| b.transition) {
                        continue;
                    }
                    let mut e = d.clone();
                    e.barriers.retain(|b| b.transition);
                    for b in &mut e.barriers {
                        b.src_stage_mask = vksync::PipelineStageFlags2::NONE;
                        b.src_access_mask = vksync::AccessFlags2::NONE;
                        b.dst_stage_mask = vksync::PipelineStageFlags2::NONE;
                        b.dst_access_mask = vksync::AccessFlags2::NONE;
                    }
                    let mut q = p.program.clone();
                    q.replace(*i, Command::Barrier(e)).unwrap();
                    let back = check(&q, reading);
                    for h in hs {
                        let found = back.iter().any(|x| x.kind == h.kind && p.origin[x.command] == Some(h.command));
                        prop_assert!(found, "{form:?}/{reading:?}: command {i} answers {:?} at input command {} but removing its synchronization brings none back:\n{}",
                            h.kind, h.command, vksync::trace::print(&p.program));
                    }
                }
            }
        }
    }

    /// A command buffer submitted back to back, without a fence wait
    /// between: `for_repeated_submission` adds the barrier its loop-carried
    /// dependencies need, and three repetitions are race-free under the
    /// definitional semantics; every bit of that barrier is needed.
    #[test]
    fn repeated_submission_plans_loop_carried_dependencies(g in vksync_proptests::device_only_programs(16)) {
        use vksync::plan::{for_repeated_submission, repeated};
        use vksync::spec::races;
        // The generator ends programs with a submit, a wait and host
        // reads; a prepared command buffer holds device commands only.
        let kept: Vec<Command> = g.program.commands().iter()
            .filter(|c| !matches!(c, Command::HostRead { .. } | Command::Submit(_) | Command::Wait(_)))
            .cloned().collect();
        let p = Program::from_parts(g.program.objects().to_vec(), kept).unwrap();
        let g = Generated { ops: g.ops.clone(), program: p };
        for reading in READINGS {
        let planned = planned(&g, PlannerKind::Offline, BarrierForm::Global, reading);
        let looped = for_repeated_submission(&planned, reading).unwrap();
        let thrice = repeated(&looped, 3).unwrap();
        let r = races(&thrice, reading).unwrap();
        prop_assert!(r.is_empty(), "races across repetitions: {r:?}\n{}", vksync::trace::print(&looped));
        if looped.commands().len() > planned.commands().len() {
            prop_assert!(!check(&repeated(&planned, 2).unwrap(), reading).is_empty(), "a loop barrier without a loop hazard");
            // The loop barrier is command 0: each of its weakenings.
            for (_, what, q) in weakenings_at(&looped).into_iter().filter(|(ci, _, _)| *ci == 0) {
                prop_assert!(!check(&repeated(&q, 2).unwrap(), reading).is_empty(),
                    "loop barrier {what} still clean:\n{}", vksync::trace::print(&looped));
            }
        }
        // With a fence wait between submissions, the plan needs nothing more.
        let once = repeated(&planned, 1).unwrap();
        let mut waited = once.clone();
        waited.extend([Command::SUBMIT, Command::WAIT]).unwrap();
        waited.extend(once.commands().iter().cloned()).unwrap();
        prop_assert!(check(&waited, reading).is_empty(), "hazards across a fence wait:\n{}", vksync::trace::print(&waited));
        prop_assert!(races(&waited, reading).unwrap().is_empty());
        }
    }

    /// The same with image layout transitions (random programs with
    /// transitions, host accesses, submits and waits dropped): each
    /// transition runs again in each submission, and what it needs of the
    /// previous one goes into its own scopes. Three repetitions are
    /// race-free under the definitional semantics, the plan's own bits of
    /// each transition stay, and every bit the loop adds (to the loop
    /// barrier or to a transition) is needed.
    #[test]
    fn repeated_submission_plans_transitions(g in programs_with_transitions(16)) {
        use vksync::plan::{for_repeated_submission, repeated};
        use vksync::spec::races;
        let kept: Vec<Command> = g.program.commands().iter()
            .filter(|c| !matches!(c, Command::HostRead { .. } | Command::HostWrite { .. } | Command::Submit(_) | Command::Wait(_)))
            .cloned().collect();
        let p = Program::from_parts(g.program.objects().to_vec(), kept);
        prop_assume!(p.as_ref().is_ok_and(|p| repeated(p, 1).is_ok()));
        let p = p.unwrap();
        let is_transition = |c: &Command| matches!(c, Command::Barrier(d) if d.barriers.iter().any(|b| b.transition));
        for reading in READINGS {
            let planned = plan(&p, PlanOptions::new(PlannerKind::Offline).reading(reading)).unwrap().program;
            let looped = for_repeated_submission(&planned, reading).unwrap();
            let text = vksync::trace::print(&looped);
            let r = races(&repeated(&looped, 3).unwrap(), reading).unwrap();
            prop_assert!(r.is_empty(), "{reading:?}: races across repetitions: {r:?}\n{text}");
            let shift = looped.commands().len() - planned.commands().len();
            prop_assert!(shift <= 1);
            // The plan's own bits stay: each transition's barriers contain the plan's.
            let within = |w: &vksync::Barrier, o: &vksync::Barrier| {
                w.src_stage_mask.contains(o.src_stage_mask)
                    && w.src_access_mask.contains(o.src_access_mask)
                    && w.dst_stage_mask.contains(o.dst_stage_mask)
                    && w.dst_access_mask.contains(o.dst_access_mask)
            };
            let covers = |q: &Program, ci: usize| match (&q.commands()[ci], &planned.commands()[ci - shift]) {
                (Command::Barrier(w), Command::Barrier(o)) => {
                    w.barriers.len() == o.barriers.len() && w.barriers.iter().zip(&o.barriers).all(|(w, o)| within(w, o))
                }
                _ => false,
            };
            for ci in shift..looped.commands().len() {
                if is_transition(&looped.commands()[ci]) {
                    prop_assert!(covers(&looped, ci), "{reading:?}: command {ci} lost a bit of the plan\n{text}");
                }
            }
            for (ci, what, q) in weakenings_at(&looped) {
                let added = (shift == 1 && ci == 0)
                    || (ci >= shift && is_transition(&looped.commands()[ci]) && covers(&q, ci));
                if added {
                    prop_assert!(!check(&repeated(&q, 2).unwrap(), reading).is_empty(),
                        "{reading:?}: {what}: a bit the loop added is not needed\n{text}");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(vksync_proptests::config(64))]

    /// Image programs whose layout transitions cover several mips of one
    /// layer (image barriers over several byte ranges), host accesses,
    /// submits and waits: every safe plan, as printed and parsed back, is
    /// race-free under the fast checker and the definitional semantics, and
    /// computes the input's values.
    #[test]
    fn image_plans_are_race_free_as_printed(g in image_programs(12, ImageShape::SMALL)) {
        let before = expected(&g.program);
        for (planner, form, reading) in all(&[PlannerKind::Online, PlannerKind::Offline, PlannerKind::Conservative]) {
            let p = plan(&g.program, PlanOptions::new(planner).form(form).reading(reading)).unwrap().program;
            let printed = as_printed(&p);
            let text = vksync::trace::print(&printed);
            let hazards = check(&printed, reading);
            prop_assert!(hazards.is_empty(), "{planner:?}/{form:?}/{reading:?}: the printed plan has hazards: {:?}\n{text}",
                hazards.iter().map(|h| h.describe(&printed)).collect::<Vec<_>>());
            let races = vksync::spec::races(&printed, reading).unwrap();
            prop_assert!(races.is_empty(), "{planner:?}/{form:?}/{reading:?}: the printed plan races by definition: {races:?}\n{text}");
            prop_assert_eq!(values(&printed), before.clone(), "{:?}/{:?}: the plan computes other values\n{}", planner, form, text);
        }
    }
}

/// Every (planner, form, reading) combination for `planners`.
fn all(planners: &[PlannerKind]) -> Vec<(PlannerKind, BarrierForm, Reading)> {
    planners
        .iter()
        .flat_map(|&p| {
            FORMS
                .iter()
                .flat_map(move |&f| READINGS.iter().map(move |&r| (p, f, r)))
        })
        .collect()
}
