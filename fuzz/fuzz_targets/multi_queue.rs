//! Fuzz target for programs with several queues, semaphores and host
//! synchronization (`vksync::trace` and the checkers behind it).
//!
//! The input bytes drive a small generator that writes a trace over three
//! queues (two of family 0, one of family 1), three buffers (one
//! exclusive), a binary and two timeline semaphores: copies, fills,
//! dispatches, barriers, host accesses, submits with waits and signals,
//! fence waits, host signals and host waits. It keeps timeline values
//! increasing and binary semaphores paired most of the time, so most
//! traces are valid, and lets the bytes break the rules now and then.
//!
//! Properties, for every input: nothing panics; a trace the parser accepts
//! prints to text that parses back to the same program, `resolve` accepts
//! it too (the parser and `resolve` share the validity rules), and
//! `order_notes`, `check` and `check_ownership` answer; when the fast
//! checker decides a small program, its hazards, projected on (later
//! command, kind, bytes), are exactly the definitional semantics' races;
//! no order note names a racing pair; and a multi-queue plan, when the
//! planner makes one, resolves and has no race.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::BTreeSet;
use vksync::spec::{races, Reading};
use vksync::trace::{parse, print};

include!("multi_queue_gen.rs");

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let text = generate(&mut bytes);
    let Ok(trace) = parse(&text) else {
        return;
    };
    let program = &trace.program;
    let printed = print(program);
    let again = parse(&printed).unwrap_or_else(|e| panic!("printed trace does not parse: {e}\n{printed}"));
    assert_eq!(&again.program, program, "round trip changed the program:\n{printed}");
    vksync::resolve(program).unwrap_or_else(|e| panic!("the parser accepted what resolve refuses: {e}\n{text}"));
    let notes = vksync::order_notes(program).expect("a valid program has its notes");
    let _ = vksync::check_ownership(program);
    let spec = races(program, Reading::MemoryModel).expect("a valid program is decided by definition");
    for n in &notes {
        assert!(
            !spec.iter().any(|r| (r.command, r.prior_command) == (n.host_command, n.command)
                || (r.command, r.prior_command) == (n.command, n.host_command)),
            "an order note names a racing pair: {n:?}\n{text}"
        );
    }
    if let Ok(hazards) = vksync::check(program) {
        let bytes = |c: usize, k: vksync::HazardKind, m: vksync::MemId, r: vksync::ByteRange| {
            (r.start..r.end).map(move |x| (c, k, m, x))
        };
        let fast: BTreeSet<_> = hazards
            .iter()
            .flat_map(|h| bytes(h.command, h.kind, h.memory.mem, h.memory.range))
            .collect();
        let by_definition: BTreeSet<_> = spec
            .iter()
            .flat_map(|r| bytes(r.command, r.kind, r.mem, r.range))
            .collect();
        assert_eq!(fast, by_definition, "the fast checker and the definitional semantics differ:\n{text}");
    }
    let opts = vksync::plan::QueuePlanOptions::new(vksync::plan::PlanOptions::new(vksync::plan::PlannerKind::Offline));
    if let Ok(planned) = vksync::plan::plan_queues(program, opts) {
        let p = &planned.plan.program;
        let shown = print(p);
        vksync::resolve(p).unwrap_or_else(|e| panic!("a plan is invalid: {e}\n{shown}"));
        let left = races(p, Reading::MemoryModel).expect("a plan is decided by definition");
        assert!(left.is_empty(), "a plan has races: {left:?}\n{shown}\nplanned from\n{text}");
    }
});
