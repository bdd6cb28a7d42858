//! Small-scope exhaustive checking (`vksync_proptests::exhaustive`): every
//! program of up to K commands over the alphabet, on both memory layouts.
//!
//! * The fast checker and the definitional semantics find the same
//!   (command, kind, bytes), under both readings of write-after-write.
//! * Every barrier-free program planned by every safe planner (online,
//!   offline, conservative; global and buffer barriers; for each reading)
//!   is race-free under the definitional semantics with that reading.
//!
//! K is `VKSYNC_EXHAUSTIVE_K` (default 4, a few seconds in the test
//! profile); `docs/testing.md` records the release run with K = 5.

use rayon::prelude::*;
use vksync::plan::{
    plan, plan_async_compute, schedule, BarrierForm, PlanOptions, PlannerKind, QueuePlanOptions,
    ScheduleOptions,
};
use vksync::spec::{races, Reading};
use vksync_proptests::exhaustive::{
    for_each_sequence, race_free, text, text_of, ALPHABET, GRAPHICS_ALPHABET, GRAPHICS_HEADER,
    GRAPHICS_NON_BARRIERS, IMAGE_ALPHABET, IMAGE_HEADER, IMAGE_NON_BARRIERS, LAYOUTS, MULTI_QUEUE_ALPHABET,
    MULTI_QUEUE_HEADER, NON_BARRIERS,
};
use vksync_proptests::sync::{keys_of_hazards, keys_of_races, show_difference};

const READINGS: [Reading; 2] = [Reading::MemoryModel, Reading::VisibleToWrites];

fn k() -> usize {
    std::env::var("VKSYNC_EXHAUSTIVE_K")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4)
}

/// Whether a sequence ends in a command that accesses no memory (a
/// barrier without a layout transition, `submit`, `wait`): such a command
/// changes no verdict of the commands before it, so the sequence is its own
/// prefix, already checked.
fn ends_without_access(seq: &[usize]) -> bool {
    seq.last()
        .is_some_and(|&i| i >= NON_BARRIERS - 2 && !ALPHABET[i].ends_with(" transition"))
}

#[test]
fn every_small_program_checks_the_same_and_plans_race_free() {
    let k = k();
    let t = std::time::Instant::now();
    // One task per (layout, length, first command); each enumerates the rest.
    let tasks: Vec<(&str, usize, usize)> = LAYOUTS
        .iter()
        .flat_map(|l| (1..=k).flat_map(move |len| (0..ALPHABET.len()).map(move |first| (*l, len, first))))
        .collect();
    let (programs, planned) = tasks
        .par_iter()
        .map(|&(layout, len, first)| {
            let (mut programs, mut planned) = (0usize, 0usize);
            for_each_sequence(ALPHABET.len(), len - 1, |rest| {
                let seq: Vec<usize> = std::iter::once(first).chain(rest.iter().copied()).collect();
                if ends_without_access(&seq) {
                    return;
                }
                let seq = &seq[..];
                let src = text(layout, seq);
                let p = vksync::trace::parse(&src)
                    .unwrap_or_else(|e| panic!("{e}\n{src}"))
                    .program;
                for reading in READINGS {
                    let sem = vksync::Semantics::for_reading(reading);
                    let fast = keys_of_hazards(&vksync::check_with(&p, sem).unwrap());
                    let spec = keys_of_races(&races(&p, reading).unwrap());
                    assert!(
                        fast == spec,
                        "{reading:?}: {}\n{src}",
                        show_difference(&p, &fast, &spec)
                    );
                }
                programs += 1;
                if seq.iter().all(|&i| i < NON_BARRIERS) {
                    for planner in [
                        PlannerKind::Online,
                        PlannerKind::Offline,
                        PlannerKind::Conservative,
                    ] {
                        for form in [BarrierForm::Global, BarrierForm::Buffer] {
                            for reading in READINGS {
                                let opts = PlanOptions::new(planner).form(form).reading(reading);
                                let q = plan(&p, opts).unwrap().program;
                                assert!(
                                    race_free(&q, reading),
                                    "{planner:?}/{form:?}/{reading:?} plan races: {:?}\n{}",
                                    races(&q, reading).unwrap(),
                                    vksync::trace::print(&q)
                                );
                                planned += 1;
                            }
                        }
                    }
                }
            });
            (programs, planned)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    eprintln!(
        "exhaustive: K = {k}, {} commands in the alphabet, {} layouts: {programs} programs checked by both \
         (those ending in a command without memory access are their own prefixes and skipped), \
         {planned} plans race-free, {:.1} s",
        ALPHABET.len(),
        LAYOUTS.len(),
        t.elapsed().as_secs_f64()
    );
}

/// Every program of up to K commands over the multi-queue alphabet (two
/// queue families, semaphores, an ownership transfer): the fast checker
/// equals the definitional semantics under both readings, or refuses with
/// the typed error (a timeline wait before its signal); programs the parser
/// refuses (a binary wait with nothing to wait for) are skipped and counted.
#[test]
fn every_small_multi_queue_program_checks_the_same() {
    let k = k();
    let t = std::time::Instant::now();
    let n = MULTI_QUEUE_ALPHABET.len();
    let tasks: Vec<(usize, usize)> = (1..=k)
        .flat_map(|len| (0..n).map(move |first| (len, first)))
        .collect();
    let (checked, refused, invalid) = tasks
        .par_iter()
        .map(|&(len, first)| {
            let (mut checked, mut refused, mut invalid) = (0usize, 0usize, 0usize);
            for_each_sequence(n, len - 1, |rest| {
                let seq: Vec<usize> = std::iter::once(first).chain(rest.iter().copied()).collect();
                let src = text_of(MULTI_QUEUE_ALPHABET, MULTI_QUEUE_HEADER, &seq);
                let Ok(t) = vksync::trace::parse(&src) else {
                    invalid += 1;
                    return;
                };
                let p = t.program;
                for reading in READINGS {
                    let spec = keys_of_races(&races(&p, reading).unwrap_or_else(|e| panic!("{e}\n{src}")));
                    match vksync::check_with(&p, vksync::Semantics::for_reading(reading)) {
                        Ok(h) => {
                            let fast = keys_of_hazards(&h);
                            assert!(
                                fast == spec,
                                "{reading:?}: {}\n{src}",
                                show_difference(&p, &fast, &spec)
                            );
                            checked += 1;
                        }
                        Err(e) => {
                            assert!(
                                matches!(e.kind, vksync::ProgramErrorKind::MultiQueueNotSupported { .. }),
                                "{e}\n{src}"
                            );
                            refused += 1;
                        }
                    }
                }
            });
            (checked, refused, invalid)
        })
        .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    eprintln!(
        "exhaustive multi-queue: K = {k}, {n} commands in the alphabet: {checked} (program, reading) pairs \
         checked by both, {refused} refused by the fast checker, {invalid} programs invalid, {:.1} s",
        t.elapsed().as_secs_f64()
    );
    assert!(checked > refused * 10, "{checked} checked, {refused} refused");
}

/// Every program of up to K commands over the image alphabet (two images,
/// one linear aliasing a buffer; transitions, copies, blits, clears,
/// storage and sampled image dispatches): the fast checker equals the
/// definitional semantics under both readings, and every program prints
/// and parses back to itself.
#[test]
fn every_small_image_program_checks_the_same() {
    let k = k();
    let t = std::time::Instant::now();
    let n = IMAGE_ALPHABET.len();
    let tasks: Vec<(usize, usize)> = (1..=k)
        .flat_map(|len| (0..n).map(move |first| (len, first)))
        .collect();
    let (checked, hazardous) = tasks
        .par_iter()
        .map(|&(len, first)| {
            let (mut checked, mut hazardous) = (0usize, 0usize);
            for_each_sequence(n, len - 1, |rest| {
                let seq: Vec<usize> = std::iter::once(first).chain(rest.iter().copied()).collect();
                // A barrier that transitions nothing, or `submit`, last
                // changes no verdict: the sequence is its own prefix.
                if seq.last().is_some_and(|&i| {
                    i == IMAGE_NON_BARRIERS - 1
                        || (i >= IMAGE_NON_BARRIERS && !IMAGE_ALPHABET[i].contains("UNDEFINED"))
                }) {
                    return;
                }
                let src = text_of(IMAGE_ALPHABET, IMAGE_HEADER, &seq);
                let p = vksync::trace::parse(&src)
                    .unwrap_or_else(|e| panic!("{e}\n{src}"))
                    .program;
                let printed = vksync::trace::print(&p);
                assert_eq!(vksync::trace::parse(&printed).unwrap().program, p, "{printed}");
                for reading in READINGS {
                    let sem = vksync::Semantics::for_reading(reading);
                    let fast = keys_of_hazards(
                        &vksync::check_with(&p, sem).unwrap_or_else(|e| panic!("{e}\n{src}")),
                    );
                    let spec = keys_of_races(&races(&p, reading).unwrap());
                    assert!(
                        fast == spec,
                        "{reading:?}: {}\n{src}",
                        show_difference(&p, &fast, &spec)
                    );
                    hazardous += usize::from(!fast.is_empty());
                    checked += 1;
                }
            });
            (checked, hazardous)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    eprintln!(
        "exhaustive images: K = {k}, {n} commands in the alphabet: {checked} (program, reading) pairs checked by \
         both, {hazardous} with hazards, {:.1} s",
        t.elapsed().as_secs_f64()
    );
    assert!(hazardous > 0 && hazardous < checked, "{hazardous} of {checked}");
}

/// Every program of up to K entries (each a whole rendering instance or
/// one command outside one; K at most 3 unless `VKSYNC_EXHAUSTIVE_K` asks
/// for more, since an entry is up to four commands) of the graphics
/// alphabet: the fast checker equals the definitional semantics under both
/// readings; every barrier-free one is planned by the offline and online
/// planners and the conservative baseline into a race-free program, or
/// refused by all three alike with the typed error of a hazard inside one
/// rendering instance; and with `--async-compute` (offline and online
/// inside each queue) into a race-free plan, refused only where those
/// refuse.
#[test]
fn every_small_graphics_program_checks_the_same() {
    let k = std::env::var("VKSYNC_EXHAUSTIVE_K")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let t = std::time::Instant::now();
    let n = GRAPHICS_ALPHABET.len();
    let tasks: Vec<(usize, usize)> = (1..=k)
        .flat_map(|len| (0..n).map(move |first| (len, first)))
        .collect();
    let async_planned = std::sync::atomic::AtomicUsize::new(0);
    let async_refused = std::sync::atomic::AtomicUsize::new(0);
    let (checked, planned, refused, scheduled, schedule_refused) = tasks
        .par_iter()
        .map(|&(len, first)| {
            let (mut checked, mut planned, mut refused) = (0usize, 0usize, 0usize);
            let (mut scheduled, mut schedule_refused) = (0usize, 0usize);
            for_each_sequence(n, len - 1, |rest| {
                let seq: Vec<usize> = std::iter::once(first).chain(rest.iter().copied()).collect();
                if seq.last().is_some_and(|&i| i >= GRAPHICS_NON_BARRIERS - 1) {
                    return;
                }
                let src = text_of(GRAPHICS_ALPHABET, GRAPHICS_HEADER, &seq);
                let p = vksync::trace::parse(&src)
                    .unwrap_or_else(|e| panic!("{e}\n{src}"))
                    .program;
                for reading in READINGS {
                    let sem = vksync::Semantics::for_reading(reading);
                    let fast = keys_of_hazards(
                        &vksync::check_with(&p, sem).unwrap_or_else(|e| panic!("{e}\n{src}")),
                    );
                    let spec = keys_of_races(&races(&p, reading).unwrap());
                    assert!(
                        fast == spec,
                        "{reading:?}: {}\n{src}",
                        show_difference(&p, &fast, &spec)
                    );
                }
                checked += 1;
                if seq.iter().all(|&i| i < GRAPHICS_NON_BARRIERS) {
                    // The planners drop the barriers but the header's
                    // transitions (the images' layouts), and place every
                    // barrier an instance needs before its begin; a hazard
                    // inside one instance is refused, by each alike.
                    let mut refusals = Vec::new();
                    for planner in [
                        PlannerKind::Offline,
                        PlannerKind::Online,
                        PlannerKind::Conservative,
                    ] {
                        match plan(&p, PlanOptions::new(planner)) {
                            Ok(q) => {
                                assert!(
                                    race_free(&q.program, Reading::VisibleToWrites),
                                    "{planner:?} plan races\n{}",
                                    vksync::trace::print(&q.program)
                                );
                                // Under the fast checker too (a plan may
                                // amend the render pass declarations).
                                assert_eq!(
                                    vksync::check(&q.program).map(|h| h.len()),
                                    Ok(0),
                                    "{planner:?} plan races\n{}",
                                    vksync::trace::print(&q.program)
                                );
                                refusals.push(None);
                            }
                            Err(e) => {
                                // A hazard inside one instance, or (a render
                                // pass) an ordering only a subpass
                                // dependency gives.
                                assert!(
                                    matches!(&e.kind, vksync::ProgramErrorKind::Render(r)
                                        if matches!(**r, vksync::RenderError::HazardInsideInstance { .. }
                                            | vksync::RenderError::HazardInsideSubpass { .. }
                                            | vksync::RenderError::PlanNeedsSubpassDependency)),
                                    "{planner:?}: {e}\n{src}"
                                );
                                refusals.push(Some(e));
                            }
                        }
                    }
                    // The planners refuse alike: where the offline
                    // planner chains a barrier before a render pass into
                    // its dependency from `EXTERNAL` (or after one out of
                    // its dependency to `EXTERNAL`), the streaming
                    // planners do too (`vksync::plan`, `recordable`; once
                    // tests/open-defects/online-subpass-dependency.trace);
                    // and where the conservative baseline plans, so do
                    // they, adding the dependency from or to `EXTERNAL`
                    // that orders a transition against another instance's
                    // access (once
                    // tests/open-defects/planners-refuse-where-conservative-plans.trace).
                    assert!(refusals.windows(2).all(|w| w[0] == w[1]), "{refusals:?}\n{src}");
                    // Across queues (`--async-compute`), with the offline
                    // and the online planner inside each queue: race-free
                    // under both checkers, or refused where the planners
                    // above refuse (once
                    // tests/open-defects/async-compute-racy-plan.trace).
                    for planner in [PlannerKind::Offline, PlannerKind::Online] {
                        match plan_async_compute(&p, QueuePlanOptions::new(PlanOptions::new(planner))) {
                            Ok(q) => {
                                let shown = vksync::trace::print(&q.plan.program);
                                assert!(
                                    race_free(&q.plan.program, Reading::VisibleToWrites),
                                    "async {planner:?} plan races\n{src}\n{shown}"
                                );
                                assert_eq!(
                                    vksync::check(&q.plan.program).map(|h| h.len()),
                                    Ok(0),
                                    "async {planner:?} plan races\n{src}\n{shown}"
                                );
                                async_planned.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            }
                            Err(e) => {
                                assert!(refusals[0].is_some(), "async {planner:?} refused: {e}\n{src}");
                                async_refused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            }
                        }
                    }
                    if refusals[0].is_some() {
                        refused += 1;
                    } else {
                        planned += 1;
                    }
                    // The scheduler moves each rendering and render pass
                    // instance whole: it refuses what the planners refuse,
                    // with their error, and its schedules are race-free
                    // under both checkers, between the dependency bound
                    // and the plan of the program as given.
                    match schedule(&p, ScheduleOptions::default()) {
                        Ok(s) => {
                            let q = &s.plan.program;
                            let shown = vksync::trace::print(q);
                            assert!(
                                refusals[0].is_none(),
                                "scheduled what the planners refuse\n{src}\n{shown}"
                            );
                            for reading in READINGS {
                                assert!(
                                    race_free(q, reading),
                                    "{reading:?}: schedule races\n{src}\n{shown}"
                                );
                            }
                            assert!(
                                s.bound <= s.points && s.points <= s.program_order_points,
                                "bound {} points {} program order {}\n{src}\n{shown}",
                                s.bound,
                                s.points,
                                s.program_order_points
                            );
                            scheduled += 1;
                        }
                        Err(e) => {
                            assert_eq!(refusals[0].as_ref(), Some(&e), "--schedule refused\n{src}");
                            schedule_refused += 1;
                        }
                    }
                }
            });
            (checked, planned, refused, scheduled, schedule_refused)
        })
        .reduce(
            || (0, 0, 0, 0, 0),
            |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3, a.4 + b.4),
        );
    eprintln!(
        "exhaustive graphics: K = {k}, {n} entries: {checked} programs checked by both, {planned} planned race-free, \
         {refused} refused with a typed error by each planner alike; --async-compute (offline and online): {} plans \
         race-free, {} refused; scheduled: {scheduled} race-free, {schedule_refused} refused, {:.1} s",
        async_planned.load(std::sync::atomic::Ordering::Relaxed),
        async_refused.load(std::sync::atomic::Ordering::Relaxed),
        t.elapsed().as_secs_f64()
    );
    assert!(checked > 0);
}
