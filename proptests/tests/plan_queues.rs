//! Multi-queue planning (`vksync::plan::plan_queues`) on random programs
//! already assigned to three queues (two of family 0, one of family 1):
//! fills, copies and dispatches over four small buffers, submits to
//! random queues, now and then a host `wait`. Cases: `PROPTEST_CASES`
//! (default 64).
//!
//! * The plan checks hazard-free with the fast checker, and with the
//!   definitional semantics (`vksync::spec::races`, both readings) on
//!   programs of up to 12 commands.
//! * Every semaphore wait is necessary: dropping any one (with the signal
//!   it pairs with) brings a hazard back (judged on plans without
//!   ownership transfers: buffer `d` is exclusive, and a wait that only
//!   orders a release before its acquire answers no hazard).
//!
//! * On programs of up to six batches without ownership transfers, no
//!   set of fewer semaphore edges (any batch to any later batch of another
//!   queue, each its own binary semaphore, with the plan's barriers) is
//!   hazard-free: the greedy's wait count is the minimum there.
//!
//! * On the differential suite's programs rich in queues and semaphores
//!   (pools recycled, aliases, host accesses, timeline semaphores, host
//!   signals), the planner never panics: a plan that checks clean, or a
//!   typed refusal.
//!
//! Async compute (`vksync::plan::plan_async_compute`) on the same
//! programs with every submit to the first queue: the plan checks
//! hazard-free likewise.
//!
//! And split barriers (`vksync::plan::split_barriers`) on the planners'
//! random single-queue programs (pools recycled, host accesses): the
//! offline plan with its points split checks hazard-free with the fast
//! checker and, up to 14 commands, the definitional semantics.

use proptest::prelude::*;
use vksync::plan::{
    plan, plan_async_compute, plan_queues, split_barriers, PlanOptions, PlannerKind, QueuePlanOptions,
};
use vksync::spec::{races, Reading};
use vksync::{check, Command, Program, SemaphoreSignal, SemaphoreType, SemaphoreWait, Submission};

#[derive(Clone, Debug)]
enum Op {
    Fill(usize, u64, u64),
    Copy(usize, usize, u64, u64),
    Dispatch(usize, usize),
    Scale(usize),
    Submit(usize),
    Wait,
}

const BUFS: [&str; 4] = ["a", "b", "c", "d"];
const QUEUES: [&str; 3] = ["qa", "qb", "qc"];

fn range() -> impl Strategy<Value = (u64, u64)> {
    (0u64..4, 1u64..4).prop_map(|(lo, len)| (lo * 16, (lo + len).min(4) * 16))
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..4usize, range()).prop_map(|(b, (lo, hi))| Op::Fill(b, lo, hi)),
        3 => (0..4usize, 0..4usize, range()).prop_map(|(s, d, (lo, hi))| Op::Copy(s, d, lo, hi)),
        2 => (0..4usize, 0..4usize).prop_map(|(r, w)| Op::Dispatch(r, w)),
        1 => (0..4usize).prop_map(Op::Scale),
        4 => (0..3usize).prop_map(Op::Submit),
        1 => Just(Op::Wait),
    ]
}

fn build(ops: &[Op]) -> Program {
    let mut t = String::new();
    // `d` is exclusive: used by both families it gets ownership
    // transfers (which the checkers do not judge yet: the plans must stay
    // valid and hazard-free around them).
    for b in BUFS {
        let sharing = if b == "d" { " exclusive" } else { "" };
        t.push_str(&format!("buffer {b} 64{sharing}\n"));
    }
    t.push_str("queue qa family 0\nqueue qb family 0\nqueue qc family 1\n");
    for op in ops {
        t.push_str(&match op {
            Op::Fill(b, lo, hi) => format!("fill {}[{lo}..{hi}] 1\n", BUFS[*b]),
            // A copy within one buffer must not overlap itself: copy to
            // another buffer only.
            Op::Copy(s, d, lo, hi) if s != d => {
                format!("copy {}[{lo}..{hi}] -> {}[{lo}..{hi}]\n", BUFS[*s], BUFS[*d])
            }
            Op::Copy(..) => String::new(),
            Op::Dispatch(r, w) if r != w => {
                format!("dispatch scale_add(2,1) read {} write {}\n", BUFS[*r], BUFS[*w])
            }
            Op::Dispatch(..) => String::new(),
            Op::Scale(b) => format!("dispatch scale(3) rw {}\n", BUFS[*b]),
            Op::Submit(q) => format!("submit {}\n", QUEUES[*q]),
            Op::Wait => "wait\n".to_string(),
        });
    }
    vksync::trace::parse(&t)
        .unwrap_or_else(|e| panic!("{e}\n{t}"))
        .program
}

/// `p` without its `k`-th semaphore wait and the signal it pairs with.
fn without_wait(p: &Program, k: usize) -> Program {
    let mut q = p.clone();
    let mut seen = 0;
    for (i, c) in p.commands().iter().enumerate() {
        let Command::Submit(s) = c else { continue };
        if seen + s.waits.len() <= k {
            seen += s.waits.len();
            continue;
        }
        let mut s = s.clone();
        let w = s.waits.remove(k - seen);
        q.replace(i, Command::Submit(s)).unwrap();
        for j in (0..i).rev() {
            if let Command::Submit(t) = &p.commands()[j] {
                if let Some(x) = t.signals.iter().position(|g| g.semaphore == w.semaphore) {
                    let mut t = t.clone();
                    t.signals.remove(x);
                    q.replace(j, Command::Submit(t)).unwrap();
                    break;
                }
            }
        }
        break;
    }
    q
}

/// `p` with its semaphores replaced by one binary semaphore per edge
/// `(signalling submit, waiting submit)` (command indices), all
/// `ALL_COMMANDS`; `None` when the program is not valid that way.
fn with_edges(p: &Program, edges: &[(usize, usize)]) -> Option<Program> {
    let mut q = p.clone();
    let all = vksync::PipelineStageFlags2::ALL_COMMANDS;
    let mut subs: Vec<(usize, Submission)> = p
        .commands()
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match c {
            Command::Submit(s) => Some((
                i,
                Submission {
                    queue: s.queue,
                    ..Submission::default()
                },
            )),
            _ => None,
        })
        .collect();
    for (k, &(from, to)) in edges.iter().enumerate() {
        let sem = q.semaphore(&format!("edge{k}"), SemaphoreType::Binary).ok()?;
        for (i, s) in subs.iter_mut() {
            if *i == from {
                s.signals.push(SemaphoreSignal {
                    semaphore: sem,
                    value: None,
                    stages: all,
                });
            }
            if *i == to {
                s.waits.push(SemaphoreWait {
                    semaphore: sem,
                    value: None,
                    stages: all,
                });
            }
        }
    }
    for (i, s) in subs {
        q.replace(i, Command::Submit(s)).ok()?;
    }
    Some(q)
}

/// Whether some set of fewer than `waits` edges makes `p` hazard-free.
fn fewer_edges_suffice(p: &Program, waits: usize) -> bool {
    let submits: Vec<(usize, u32)> = p
        .commands()
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match c {
            Command::Submit(s) => Some((i, s.queue.0)),
            _ => None,
        })
        .collect();
    let mut candidates = Vec::new();
    for (a, &(i, qa)) in submits.iter().enumerate() {
        for &(j, qb) in &submits[a + 1..] {
            if qa != qb {
                candidates.push((i, j));
            }
        }
    }
    // Every subset of fewer than `waits` candidates, smallest first.
    fn subsets(
        n: usize,
        k: usize,
        start: usize,
        cur: &mut Vec<usize>,
        f: &mut dyn FnMut(&[usize]) -> bool,
    ) -> bool {
        if f(cur) {
            return true;
        }
        if cur.len() == k {
            return false;
        }
        for x in start..n {
            cur.push(x);
            if subsets(n, k, x + 1, cur, f) {
                return true;
            }
            cur.pop();
        }
        false
    }
    if waits == 0 {
        return false;
    }
    let mut test = |set: &[usize]| {
        let edges: Vec<(usize, usize)> = set.iter().map(|&k| candidates[k]).collect();
        with_edges(p, &edges).is_some_and(|q| check(&q).is_ok_and(|h| h.is_empty()))
    };
    subsets(candidates.len(), waits - 1, 0, &mut Vec::new(), &mut test)
}

proptest! {
    #![proptest_config(vksync_proptests::config(64))]

    #[test]
    fn planned_multi_queue_programs_are_race_free_with_necessary_waits(
        ops in proptest::collection::vec(op(), 1..24)
    ) {
        let p = build(&ops);
        let planned = plan_queues(&p, QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline)))
            .map_err(|e| TestCaseError::fail(format!("{e}\n{}", vksync::trace::print(&p))))?;
        let out = &planned.plan.program;
        let text = vksync::trace::print(out);
        let hazards = check(out).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert!(hazards.is_empty(), "fast checker: {hazards:?}\n{text}");
        // Exclusive objects used across families are transferred: no read
        // of undefined contents, no invalid release or acquire.
        let issues = vksync::check_ownership(out).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert!(issues.is_empty(), "ownership: {issues:?}\n{text}");
        if p.commands().len() <= 12 {
            for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
                let r = races(out, reading).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
                prop_assert!(r.is_empty(), "definitional semantics, {reading:?}: {r:?}\n{text}");
            }
        }
        // A wait that only orders a release before its acquire (two reads
        // from different families) answers no hazard: judged with no
        // ownership transfer only.
        for k in (0..planned.waits).filter(|_| planned.ownership_transfers == 0) {
            let q = without_wait(out, k);
            let h = check(&q).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert!(!h.is_empty(), "wait {k} is not needed:\n{text}");
        }
    }

    #[test]
    fn split_plans_are_race_free(g in vksync_proptests::programs(16)) {
        let p = plan(&g.program, PlanOptions::new(PlannerKind::Offline)).unwrap();
        let s = split_barriers(&p, Reading::VisibleToWrites)
            .map_err(|e| TestCaseError::fail(format!("{e}")))?;
        let text = vksync::trace::print(&s.plan.program);
        prop_assert!(check(&s.plan.program).unwrap().is_empty(), "{text}");
        if s.plan.program.commands().len() <= 14 {
            for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
                let r = races(&s.plan.program, reading).unwrap();
                prop_assert!(r.is_empty(), "{reading:?}: {r:?}\n{text}");
            }
        }
    }

    #[test]
    fn async_compute_plans_are_race_free(ops in proptest::collection::vec(op(), 1..24)) {
        let single: Vec<Op> = ops
            .into_iter()
            .map(|o| match o {
                Op::Submit(_) => Op::Submit(0),
                o => o,
            })
            .collect();
        let p = build(&single);
        let planned = plan_async_compute(&p, QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline)))
            .map_err(|e| TestCaseError::fail(format!("{e}\n{}", vksync::trace::print(&p))))?;
        let out = &planned.plan.program;
        let text = vksync::trace::print(out);
        prop_assert!(check(out).unwrap().is_empty(), "{text}");
        if p.commands().len() <= 12 {
            for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
                let r = races(out, reading).unwrap();
                prop_assert!(r.is_empty(), "{reading:?}: {r:?}\n{text}");
            }
        }
    }

    #[test]
    fn greedy_waits_are_the_fewest_on_small_programs(ops in proptest::collection::vec(op(), 8..18)) {
        let p = build(&ops);
        let submits = p.commands().iter().filter(|c| matches!(c, Command::Submit(_))).count();
        let planned = plan_queues(&p, QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline))).unwrap();
        let out = &planned.plan.program;
        if planned.ownership_transfers == 0 && submits <= 6 && planned.waits <= 4 {
            prop_assert!(!fewer_edges_suffice(out, planned.waits), "{} waits, fewer suffice:\n{}", planned.waits, vksync::trace::print(out));
        }
    }

    #[test]
    fn rich_multi_queue_programs_plan_or_are_refused(ops in vksync_proptests::sync::multi_queue_ops(24)) {
        let p = vksync_proptests::sync::build_sync(&ops);
        match plan_queues(&p, QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline))) {
            Ok(planned) => {
                let text = vksync::trace::print(&planned.plan.program);
                let h = check(&planned.plan.program).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
                prop_assert!(h.is_empty(), "{h:?}\n{text}");
            }
            Err(vksync::plan::QueuePlanError::HostBeforeSubmit { .. } | vksync::plan::QueuePlanError::NotPlanned { .. }) => {}
            Err(vksync::plan::QueuePlanError::Program(e)) if e.kind == vksync::ProgramErrorKind::TransitionNotPlanned => {}
            Err(e) => prop_assert!(false, "{e}\n{}", vksync::trace::print(&p)),
        }
    }
}
