//! The scheduler (`vksync::plan::schedule`): scheduled programs compute the
//! same bytes as the original order (CPU reference), are race-free under
//! the fast checker and the definitional semantics, stay within the memory
//! budget, never need more barrier points than the offline plan of the
//! program as given, and never fewer than the dependency bound; and on
//! small programs a brute force over every order the data dependencies
//! allow finds no order with fewer points than the schedule.

use proptest::prelude::*;
use vksync::plan::{dependency_bound, plan, schedule, PlanOptions, PlannerKind, ScheduleOptions};
use vksync::spec::{races, Reading};
use vksync::{Command, Program};
use vksync_proptests::{device_only_programs, programs};

fn bytes_of(p: &Program) -> Vec<Vec<Option<u8>>> {
    vksync::reference::run(p)
        .expect("reference runs")
        .into_iter()
        .map(|r| r.bytes)
        .collect()
}

/// Whether `p` has a host access recorded after a command it runs before
/// (an order note). Such programs are left out of the schedule properties
/// for now: `plan` and the CPU reference run those host accesses first
/// (`ir::execution::host_accesses_first`), but not one after an allocator
/// call, and the scheduler's order does not follow the same rule yet
/// (docs/planning.md rule 3). The generators submit and wait before their
/// final reads, so few programs are left out (the tenth session counted
/// them: docs/planning.md).
fn has_order_notes(p: &Program) -> bool {
    !vksync::order_notes(p).expect("valid").is_empty()
}

fn check_schedule(p: &Program) -> Result<(), TestCaseError> {
    if has_order_notes(p) {
        return Ok(());
    }
    let opts = ScheduleOptions::default();
    let s = schedule(p, opts).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let q = &s.plan.program;
    let shown = vksync::trace::print(q);
    prop_assert!(vksync::check(q).unwrap().is_empty(), "hazards in\n{shown}");
    prop_assert!(
        races(q, Reading::MemoryModel).unwrap().is_empty(),
        "races in\n{shown}"
    );
    prop_assert_eq!(bytes_of(p), bytes_of(q), "bytes differ:\n{}", shown);
    prop_assert!(s.bound <= s.points && s.points <= s.program_order_points);
    prop_assert!(
        s.pool_peak as f64 <= s.program_order_peak as f64 * opts.budget_factor,
        "peak {} over budget of {}",
        s.pool_peak,
        s.program_order_peak
    );
    Ok(())
}

/// Schedules `p`, a barrier-free program of the graphics alphabet: the
/// scheduler refuses exactly what the offline planner refuses, with its
/// error; otherwise the schedule is race-free under the fast checker and
/// the definitional semantics (both readings), prints as a trace that
/// parses again, lies between the dependency bound and the plan of the
/// program as given, and keeps every rendering and render pass instance
/// whole: from its begin to its end only its own commands, consecutive in
/// the input, no barrier among them.
fn check_graphics_schedule(p: &Program, src: &str) -> Result<bool, TestCaseError> {
    use vksync::RenderOp;
    let planned = plan(p, PlanOptions::new(PlannerKind::Offline));
    let s = match schedule(p, ScheduleOptions::default()) {
        Ok(s) => s,
        Err(e) => {
            prop_assert_eq!(planned.err(), Some(e), "{}", src);
            return Ok(false);
        }
    };
    prop_assert!(planned.is_ok(), "scheduled what the planner refuses\n{}", src);
    let q = &s.plan.program;
    let shown = vksync::trace::print(q);
    prop_assert!(
        vksync::check(q).unwrap().is_empty(),
        "hazards in\n{}\nfrom\n{}",
        shown,
        src
    );
    for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
        prop_assert!(
            races(q, reading).unwrap().is_empty(),
            "{:?}: races in\n{}\nfrom\n{}",
            reading,
            shown,
            src
        );
    }
    prop_assert!(vksync::trace::parse(&shown).is_ok(), "does not parse:\n{}", shown);
    prop_assert!(
        s.bound <= s.points && s.points <= s.program_order_points,
        "bound {} points {} program order {}\n{}\nfrom\n{}",
        s.bound,
        s.points,
        s.program_order_points,
        shown,
        src
    );
    let mut inside: Option<usize> = None;
    for (c, o) in q.commands().iter().zip(&s.plan.origin) {
        let op = match c {
            Command::Render(rc) => Some(&rc.op),
            _ => None,
        };
        if let Some(prev) = inside {
            prop_assert!(
                op.is_some() && *o == Some(prev + 1),
                "an instance split:\n{}",
                shown
            );
        }
        inside = match op {
            Some(RenderOp::End | RenderOp::EndPass) => None,
            Some(_) => Some(o.expect("a rendering command is the input's")),
            None => None,
        };
    }
    Ok(true)
}

proptest! {
    #![proptest_config(vksync_proptests::config(256))]

    /// With rendering and render pass instances (the graphics alphabet
    /// without its barriers, `vksync_proptests::exhaustive`): each moves
    /// as one unit (`check_graphics_schedule`).
    #[test]
    fn scheduled_graphics_programs_keep_instances_whole(
        seq in prop::collection::vec(0..vksync_proptests::exhaustive::GRAPHICS_NON_BARRIERS, 1..=10)
    ) {
        use vksync_proptests::exhaustive::{text_of, GRAPHICS_ALPHABET, GRAPHICS_HEADER};
        let src = text_of(GRAPHICS_ALPHABET, GRAPHICS_HEADER, &seq);
        let p = vksync::trace::parse(&src).unwrap_or_else(|e| panic!("{e}\n{src}")).program;
        check_graphics_schedule(&p, &src)?;
    }

    #[test]
    fn scheduled_programs_are_race_free_equal_and_within_budget(g in programs(20)) {
        check_schedule(&g.program)?;
    }

    /// With layout transitions: each stays in place (the scheduler
    /// reorders the segments between them), and every law above holds.
    #[test]
    fn scheduled_programs_with_transitions_keep_them_in_place(
        g in vksync_proptests::transitions::programs_with_transitions(20)
    ) {
        check_schedule(&g.program)?;
        let s = schedule(&g.program, ScheduleOptions::default()).unwrap();
        let is_transition = |c: &Command| matches!(c, Command::Barrier(d) if d.barriers.iter().any(|b| b.transition));
        // Their origins, in order: the input's own positions.
        let kept: Vec<Option<usize>> = s.plan.program.commands().iter().zip(&s.plan.origin)
            .filter(|(c, _)| is_transition(c)).map(|(_, o)| *o).collect();
        let input = vksync::plan::planning_input(&g.program);
        let given: Vec<Option<usize>> = (0..input.commands().len())
            .filter(|&i| is_transition(&input.commands()[i])).map(Some).collect();
        prop_assert_eq!(kept, given, "{}", vksync::trace::print(&s.plan.program));
    }
}

/// Every order of `p`'s device commands (one segment, no host command but
/// the trailing reads) that keeps every pair of conflicting commands in
/// order, each blob allocated right before its first use and freed right
/// after its last or at the end: the fewest offline barrier points among
/// those whose pool peak fits `budget`, written independently of the
/// scheduler.
fn brute_force_min(p: &Program, budget: u64) -> Option<usize> {
    let input = p.without_barriers();
    let layout = vksync::resolve(&input).ok()?;
    let dev: Vec<usize> = (0..input.commands().len())
        .filter(|&i| vksync::is_device_command(&input.commands()[i]))
        .collect();
    // The host's part, in order: its reads, and the submits and waits that
    // decide what they see (without them a final read after unsubmitted
    // work would run before it, an order note, and need no barrier).
    let tail: Vec<usize> = (0..input.commands().len())
        .filter(|&i| {
            matches!(
                input.commands()[i],
                Command::HostRead { .. } | Command::Submit(_) | Command::Wait(_)
            )
        })
        .collect();
    if dev.len() > 7 {
        return None;
    }
    // Conflicts between device commands, on logical objects: the objects
    // named, and the bytes of each (blobs never share memory logically).
    let regions = |c: &Command| -> Vec<(vksync::ObjectId, u64, u64, bool)> {
        vksync::accesses(c, &layout, vksync::Semantics::SPEC)
            .expect("its own layout")
            .iter()
            .map(|a| {
                (
                    a.region.object,
                    a.region.range.start,
                    a.region.range.end,
                    a.sa.is_write(),
                )
            })
            .collect()
    };
    let acc: Vec<_> = dev.iter().map(|&i| regions(&input.commands()[i])).collect();
    let aliased = |x: vksync::ObjectId, y: vksync::ObjectId| {
        // Buffers bound to shared memory conflict through it.
        let (a, b) = (
            input.objects()[x.0 as usize].clone(),
            input.objects()[y.0 as usize].clone(),
        );
        x == y
            || (!matches!(a.kind, vksync::ObjectKind::Blob { .. })
                && !matches!(b.kind, vksync::ObjectKind::Blob { .. }))
    };
    let conflict = |i: usize, j: usize| {
        acc[i].iter().any(|&(o, s, e, w)| {
            acc[j].iter().any(|&(o2, s2, e2, w2)| {
                (w || w2) && if o == o2 { s < e2 && s2 < e } else { aliased(o, o2) && {
                    let (m1, m2) = (layout.locate(vksync::Region { object: o, range: vksync::ByteRange::new(s, e) }), layout.locate(vksync::Region { object: o2, range: vksync::ByteRange::new(s2, e2) }));
                    matches!((m1, m2), (Some(a), Some(b)) if a.mem == b.mem && a.range.start < b.range.end && b.range.start < a.range.end)
                } }
            })
        })
    };
    let n = dev.len();
    let mut best: Option<usize> = None;
    let mut order: Vec<usize> = Vec::new();
    let mut used = vec![false; n];
    fn rec(
        n: usize,
        order: &mut Vec<usize>,
        used: &mut Vec<bool>,
        ok: &dyn Fn(&[usize], usize) -> bool,
        visit: &mut dyn FnMut(&[usize]),
    ) {
        if order.len() == n {
            visit(order);
            return;
        }
        for k in 0..n {
            if !used[k] && ok(order, k) {
                used[k] = true;
                order.push(k);
                rec(n, order, used, ok, visit);
                order.pop();
                used[k] = false;
            }
        }
    }
    // k may come now if every earlier conflicting command is placed.
    let ok = |placed: &[usize], k: usize| (0..k).all(|j| !conflict(j, k) || placed.contains(&j));
    let mut visit = |ord: &[usize]| {
        let mut commands: Vec<Command> = Vec::new();
        let blobs: Vec<vksync::ObjectId> = input
            .commands()
            .iter()
            .filter_map(|c| match c {
                Command::Alloc { blob } => Some(*blob),
                _ => None,
            })
            .collect();
        let freed: Vec<vksync::ObjectId> = input
            .commands()
            .iter()
            .filter_map(|c| match c {
                Command::Free { blob } => Some(*blob),
                _ => None,
            })
            .collect();
        let mut allocated = vec![];
        let uses = |b: vksync::ObjectId, c: &Command| acc_of(&layout, c).contains(&b);
        for (pos, &k) in ord.iter().enumerate() {
            let c = &input.commands()[dev[k]];
            for &b in &blobs {
                if !allocated.contains(&b) && uses(b, c) {
                    commands.push(Command::Alloc { blob: b });
                    allocated.push(b);
                }
            }
            commands.push(c.clone());
            for &b in &freed {
                let later = ord[pos + 1..]
                    .iter()
                    .any(|&k2| uses(b, &input.commands()[dev[k2]]));
                let read_at_end = tail.iter().any(|&t| uses(b, &input.commands()[t]));
                if uses(b, c) && !later && !read_at_end {
                    commands.push(Command::Free { blob: b });
                }
            }
        }
        for &b in &blobs {
            if !allocated.contains(&b) {
                commands.push(Command::Alloc { blob: b });
                allocated.push(b);
            }
        }
        for &t in &tail {
            commands.push(input.commands()[t].clone());
        }
        let mut objects = input.objects().to_vec();
        for o in objects.iter_mut() {
            if matches!(o.kind, vksync::ObjectKind::Pool { .. }) {
                o.size = o.size.max(budget);
            }
        }
        let Ok(q) = Program::from_parts(objects, commands) else {
            return;
        };
        let Ok(l) = vksync::resolve(&q) else { return };
        let peak: u64 = q
            .objects()
            .iter()
            .enumerate()
            .filter(|(_, o)| matches!(o.kind, vksync::ObjectKind::Blob { .. }))
            .filter_map(|(i, o)| {
                l.place(vksync::ObjectId(i as u32))
                    .map(|(_, off)| off + o.size.div_ceil(64) * 64)
            })
            .max()
            .unwrap_or(0);
        if peak > budget {
            return;
        }
        let points = plan(&q, PlanOptions::new(PlannerKind::Offline))
            .unwrap()
            .program
            .barrier_points();
        best = Some(best.map_or(points, |b: usize| b.min(points)));
    };
    rec(n, &mut order, &mut used, &ok, &mut visit);
    best
}

fn acc_of(layout: &vksync::Layout, c: &Command) -> Vec<vksync::ObjectId> {
    vksync::accesses(c, layout, vksync::Semantics::SPEC)
        .expect("its own layout")
        .iter()
        .map(|a| a.region.object)
        .collect()
}

#[test]
fn small_programs_schedule_as_well_as_every_order() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut compared, mut at_bound, mut worse, mut better, mut noted) = (0, 0, 0, 0, 0);
    for _ in 0..300 {
        let g = device_only_programs(8).new_tree(&mut runner).unwrap().current();
        let p = &g.program;
        if has_order_notes(p) {
            noted += 1;
            continue;
        }
        let s = schedule(p, ScheduleOptions::default()).unwrap();
        let budget = (s.program_order_peak as f64 * 1.25) as u64;
        let Some(min) = brute_force_min(p, budget.max(1)) else {
            continue;
        };
        compared += 1;
        assert_eq!(s.bound, dependency_bound(p).unwrap());
        assert!(
            s.bound <= min,
            "bound {} above the brute force's {min}:\n{}",
            s.bound,
            vksync::trace::print(p)
        );
        if s.points == s.bound {
            at_bound += 1;
        }
        if s.points > min {
            worse += 1;
            eprintln!(
                "schedule {} > brute force {min}:\n{}",
                s.points,
                vksync::trace::print(p)
            );
        }
        if s.points < min {
            better += 1;
        }
    }
    eprintln!("{compared} programs compared: {at_bound} scheduled at the bound, {worse} worse than the brute force, {better} better (the brute force's placements are fewer); {noted} left out (order notes)");
    assert!(compared >= 100, "{compared}");
    assert_eq!(worse, 0);
}
