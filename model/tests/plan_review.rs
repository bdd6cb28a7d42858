//! Plans a review broke with minimal traces (2026-12-02), one table per
//! boundary: each plan either parses back and checks clean, or is refused
//! with the reason named.

use vksync::plan::{
    assign_async_compute, plan, plan_async_compute, plan_queues, recorded_barriers, BarrierForm, PlanOptions,
    PlannerKind, QueuePlanOptions,
};
use vksync::{trace, Reading};

fn program(text: &str) -> vksync::Program {
    trace::parse(text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .program
}

/// A plan's printed program parses back and has no hazard.
fn checks_clean(planned: &vksync::Program) -> Result<(), String> {
    let printed = trace::print(planned);
    let back = trace::parse(&printed)
        .map_err(|e| format!("{e}\n{printed}"))?
        .program;
    let hazards = vksync::check_with(&back, vksync::Semantics::for_reading(Reading::MemoryModel))
        .map_err(|e| e.to_string())?;
    if hazards.is_empty() {
        Ok(())
    } else {
        Err(format!("{} hazards in\n{printed}", hazards.len()))
    }
}

/// A wait submitted before the signal that satisfies it: the planner
/// orders batches by submission, so it refuses (it planned the copy before
/// the fill the semaphore orders before it: other bytes, checked clean).
#[test]
fn waits_before_their_signal_are_refused() {
    let cases = [
        (
            "queue qa\nqueue qb\nsemaphore t timeline\nbuffer a 64\nbuffer b 64\nhost-write a 7\ncopy a -> b\n\
             submit qb wait t:1@ALL_COMMANDS\nfill a 1\nsubmit qa signal t:1\nwait\nhost-read b\n",
            Some("command 2: a wait for `t` 1 submitted before any signal that satisfies it"),
        ),
        (
            "queue qa\nqueue qb\nsemaphore t timeline\nbuffer a 64\nbuffer b 64\nhost-write a 7\nfill a 1\n\
             submit qa signal t:1\ncopy a -> b\nsubmit qb wait t:1@ALL_COMMANDS\nwait\nhost-read b\n",
            None,
        ),
    ];
    for (text, want) in cases {
        let got = plan_queues(
            &program(text),
            QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline)),
        );
        match (got, want) {
            (Err(e), Some(w)) => assert!(e.to_string().starts_with(w), "{e}"),
            (Ok(p), None) => checks_clean(&p.plan.program).unwrap(),
            (got, want) => panic!("{text}: got {:?}, want {want:?}", got.map(|_| "a plan")),
        }
    }
}

/// The async-compute assignment drops every barrier but the layout
/// transitions (it once dropped them silently, then refused them): each
/// stays, on the main queue, coarse and exact, and the plan across queues
/// checks clean.
#[test]
fn async_compute_keeps_transitions() {
    for text in [
        "buffer img 64\nbuffer d 64\nfill img 0\nbarrier NONE:NONE -> NONE:NONE img transition\ncopy img -> d\n",
        "buffer s 64\nimage img R32_UINT 4x4\nbarrier NONE:NONE -> NONE:NONE img COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL\n\
         copy-buffer-to-image s -> img TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=4,4,1\n",
    ] {
        let assigned = assign_async_compute(&program(text)).expect("assigned");
        let transitions = |p: &vksync::Program| {
            p.commands()
                .iter()
                .filter(|c| matches!(c, vksync::Command::Barrier(d) if d.barriers.iter().any(|b| b.transition)))
                .count()
        };
        assert_eq!(transitions(&assigned), 1, "{}", trace::print(&assigned));
        let planned = plan_async_compute(&program(text), QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline)))
            .expect("planned");
        assert_eq!(transitions(&planned.plan.program), 1);
        checks_clean(&planned.plan.program).unwrap();
    }
}

/// A planned barrier over an image's bytes (buffer form, per-object
/// baseline) is global: a buffer barrier over an image does not parse.
#[test]
fn planned_barriers_on_images_parse_back() {
    let text = "image img R32_UINT 4x4\nbuffer a 64\n\
        barrier NONE:NONE -> NONE:NONE img COLOR:0:0 UNDEFINED->GENERAL\n\
        dispatch k image-write img COLOR:0:0\n\
        copy-image-to-buffer img GENERAL -> a imageSubresource=COLOR:0:0 imageExtent=4,4,1\n";
    for (planner, form, clean) in [
        (PlannerKind::Offline, BarrierForm::Buffer, true),
        (PlannerKind::Online, BarrierForm::Buffer, true),
        (PlannerKind::PerObject, BarrierForm::Global, false),
    ] {
        let p = plan(&program(text), PlanOptions::new(planner).form(form)).expect("planned");
        let printed = trace::print(&p.program);
        trace::parse(&printed).unwrap_or_else(|e| panic!("{planner:?}: {e}\n{printed}"));
        if clean {
            checks_clean(&p.program).unwrap();
        }
    }
}

/// `--compare recorded`: a barrier that transfers ownership is needed even
/// when removing it brings no hazard back (the program would be invalid).
#[test]
fn ownership_transfers_are_never_redundant() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/ownership-fixed.trace"
    ))
    .expect("example");
    let recorded = recorded_barriers(&program(&text), Reading::VisibleToWrites).expect("judged");
    assert_eq!(recorded.len(), 2);
    for b in &recorded {
        assert!(b.transfers_ownership && !b.redundant(), "command {}", b.command);
    }
}
