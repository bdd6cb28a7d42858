//! Suite: random programs with exact images (`vksync_proptests::images`:
//! uploads with padded rows, storage-image dispatches and sampled-image
//! ones (`image_sampled_scale_add`), image copies,
//! equal-size blits, clears, downloads, layout transitions) run on the
//! device against the CPU reference.
//!
//! Each program is planned by the offline planner (global and buffer
//! barrier forms) and the online one, and each plan runs once: every byte
//! the reference defines must match (asserted), and with validation on no
//! core validation message may come (asserted); the layer's hazard reports
//! must equal the model's prediction under its profile (asserted under
//! every layer: every class seen is emulated, D23, D25 and K4 with a
//! buffer-image copy; `docs/testing.md`, "Layer reports on planned
//! programs"); `VKSYNC_LAYER_DIFFS=DIR` writes each differing run there as
//! a trace.
//! The same program without barriers (its
//! layout transitions kept with empty scopes: `planning_input`, which is
//! the generated program itself) runs `VKSYNC_IMAGE_REPEAT` times (default
//! 1); its wrong bytes are counted and reported, not asserted (on lavapipe
//! usually none; a GPU shows them).
//!
//! Knobs: `PROPTEST_CASES` (default 48), `VKSYNC_IMAGE_SIZE` (square
//! images, default 16), `VKSYNC_IMAGE_SLOW` (`image_slow`'s rounds,
//! default 64), `VKSYNC_IMAGE_OPS` (operations per program, default 24),
//! `VKSYNC_IMAGE_REPEAT`, `VKSYNC_IMAGE_SECONDS` (no case starts after
//! that many seconds; the summary counts those that ran),
//! `VKSYNC_VALIDATION=0` (validation off; default: required),
//! `VKSYNC_DEVICE`.

use proptest::test_runner::{TestCaseError, TestError};
use std::cell::{Cell, RefCell};
use std::time::Instant;
use vksync::plan::{plan, planning_input, BarrierForm, PlanOptions, PlannerKind};
use vksync::reference;
use vksync_proptests::images::{image_programs, ImageShape};
use vksync_proptests::layer::{
    diff_dir, dump_difference, layer_of, observed, predict, recorded, show_keys, test_device,
};
use vksync_proptests::{cases, runner};
use vksync_runtime::ValidationMode;

/// The plans every program runs with.
const PLANS: [(PlannerKind, BarrierForm); 3] = [
    (PlannerKind::Offline, BarrierForm::Global),
    (PlannerKind::Offline, BarrierForm::Buffer),
    (PlannerKind::Online, BarrierForm::Global),
];

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Wrong bytes of a run against the reference (each host read compared;
/// a missing or short read counts every defined byte it lacks), and the
/// defined bytes compared.
fn wrong_bytes(expected: &[reference::Readback], result: &vksync_runtime::RunResult) -> (usize, usize) {
    let (mut wrong, mut compared) = (0, 0);
    for r in expected {
        let got = result.readback(r.command).unwrap_or(&[]);
        wrong += reference::mismatches(&r.bytes, got).len();
        wrong += (got.len()..r.bytes.len())
            .filter(|&i| r.bytes[i].is_some())
            .count();
        compared += r.bytes.iter().filter(|b| b.is_some()).count();
    }
    (wrong, compared)
}

#[test]
fn planned_image_programs_match_the_reference() {
    let validation = if std::env::var("VKSYNC_VALIDATION").as_deref() == Ok("0") {
        ValidationMode::Off
    } else {
        ValidationMode::Required
    };
    let Some(device) = test_device(validation) else {
        return;
    };
    eprintln!("device_images: device {}", device.info());
    let validated = device.info().validation;
    let device = RefCell::new(device);
    let mut shape = ImageShape::from_env();
    // A blit needs a queue family with graphics; the runtime refuses one on
    // a compute-only family (the H200's dedicated one).
    shape.blits = device
        .borrow()
        .info()
        .queue_families
        .iter()
        .any(|f| f.index == device.borrow().info().queue_family && f.graphics);
    eprintln!(
        "device_images: blits {}",
        if shape.blits {
            "generated"
        } else {
            "left out (the queue family has no graphics)"
        }
    );
    let (n, max_ops, repeat) = (
        cases(48),
        env_usize("VKSYNC_IMAGE_OPS", 24),
        env_usize("VKSYNC_IMAGE_REPEAT", 1),
    );
    let (planned_runs, compared, reports, layer_differs) = (
        Cell::new(0usize),
        Cell::new(0usize),
        Cell::new(0usize),
        Cell::new(0usize),
    );
    let emulation = layer_of(&device.borrow()).emulation();
    let (racy_runs, racy_wrong, racy_bad_runs, racy_compared) = (
        Cell::new(0usize),
        Cell::new(0usize),
        Cell::new(0usize),
        Cell::new(0usize),
    );
    let start = Instant::now();
    // A time budget (for a device call of bounded length): no case starts
    // after it, and the summary counts the cases that ran.
    let budget = std::env::var("VKSYNC_IMAGE_SECONDS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .map(std::time::Duration::from_secs_f64);
    let ran = Cell::new(0usize);
    // Dispatches reading a sampled image (`image_sampled_scale_add`).
    let sampled = Cell::new(0usize);
    let mut runner = runner(n, file!());
    let outcome = runner.run(&image_programs(max_ops, shape), |g| {
        if budget.is_some_and(|b| start.elapsed() > b) {
            return Ok(());
        }
        ran.set(ran.get() + 1);
        sampled.set(
            sampled.get()
                + g.program
                    .commands()
                    .iter()
                    .filter(|c| {
                        matches!(c, vksync::Command::Dispatch { bindings, .. }
                            if bindings.iter().any(|b| matches!(b.access, vksync::BindingAccess::SampledImage(_))))
                    })
                    .count(),
        );
        for (planner, form) in PLANS {
            let p = plan(&g.program, PlanOptions::new(planner).form(form))
                .map_err(|e| TestCaseError::fail(format!("{planner:?}/{form:?}: cannot plan: {e}")))?
                .program;
            let expected = reference::run(&p).map_err(|e| TestCaseError::fail(format!("reference: {e}")))?;
            let result = device
                .borrow_mut()
                .run(&p)
                .map_err(|e| TestCaseError::fail(format!("{planner:?}/{form:?}: runtime error {e}")))?;
            planned_runs.set(planned_runs.get() + 1);
            let (wrong, defined) = wrong_bytes(&expected, &result);
            compared.set(compared.get() + defined);
            if wrong > 0 {
                return Err(TestCaseError::fail(format!(
                    "{planner:?}/{form:?}: {wrong} of {defined} defined bytes differ from the reference\nplanned program:\n{}",
                    vksync::trace::print(&p)
                )));
            }
            if !validated {
                continue;
            }
            // No message but hazard reports; those are compared with the
            // model's prediction under the layer's profile (D5: the layer
            // limits an image barrier's execution dependency to its
            // subresources, as it does a buffer barrier's).
            let (got, findings) = observed(&result);
            if !findings.is_empty() {
                return Err(TestCaseError::fail(format!(
                    "{planner:?}/{form:?}: validation messages on a planned program: {findings:#?}\nplanned program:\n{}",
                    vksync::trace::print(&p)
                )));
            }
            let recorded = recorded(&device.borrow(), &p).into_owned();
            let expected = predict(&recorded, &emulation);
            reports.set(reports.get() + got.len());
            let unpredicted: std::collections::BTreeSet<_> = got.difference(&expected).copied().collect();
            let missed: std::collections::BTreeSet<_> = expected.difference(&got).copied().collect();
            if !unpredicted.is_empty() || !missed.is_empty() {
                layer_differs.set(layer_differs.get() + 1);
                if let Some(dir) = diff_dir() {
                    let name = format!("images-{:04}-{planner:?}-{form:?}", ran.get());
                    dump_difference(&dir, &name, &recorded, &got, &expected, &result);
                }
                // Asserted under every layer: each class of difference
                // seen on these programs is one its profile emulates (D23,
                // D25, K4 with a buffer-image copy's buffer side;
                // `docs/testing.md`, "Layer reports on planned programs").
                return Err(TestCaseError::fail(format!(
                    "{planner:?}/{form:?}: the layer reported {} where the model predicts {}\nplanned program as recorded:\n{}",
                    show_keys(&recorded, &got),
                    show_keys(&recorded, &expected),
                    vksync::trace::print(&recorded)
                )));
            }
        }
        // Without barriers: the transitions stay, with empty scopes.
        let bare = planning_input(&g.program);
        let expected = reference::run(&bare).map_err(|e| TestCaseError::fail(format!("reference: {e}")))?;
        for _ in 0..repeat {
            let result = device
                .borrow_mut()
                .run(&bare)
                .map_err(|e| TestCaseError::fail(format!("without barriers: runtime error {e}")))?;
            let (wrong, defined) = wrong_bytes(&expected, &result);
            racy_runs.set(racy_runs.get() + 1);
            racy_compared.set(racy_compared.get() + defined);
            racy_wrong.set(racy_wrong.get() + wrong);
            if wrong > 0 {
                racy_bad_runs.set(racy_bad_runs.get() + 1);
            }
        }
        Ok(())
    });
    match outcome {
        Ok(()) => {}
        Err(TestError::Fail(reason, g)) => panic!("{reason}\nminimal failing case, {g:?}"),
        Err(e) => panic!("{e}"),
    }
    eprintln!(
        "device_images: {} programs ({}x{} R32_UINT, {} mips, {} layers, image_slow({}), up to {max_ops} operations; \
         {} dispatches read a sampled image), {} planned runs{}, {} defined bytes compared, 0 mismatches",
        ran.get(),
        shape.width,
        shape.height,
        shape.mips,
        shape.layers,
        shape.slow_iters,
        sampled.get(),
        planned_runs.get(),
        if validated {
            format!(
                ", validation: no message but {} hazard reports ({} runs where they differ from the model's prediction under the layer's profile)",
                reports.get(),
                layer_differs.get(),
            )
        } else {
            " (validation off)".to_string()
        },
        compared.get(),
    );
    eprintln!(
        "device_images: without barriers: {} runs, {} with wrong bytes, {} wrong bytes of {} defined; {:.1} s",
        racy_runs.get(),
        racy_bad_runs.get(),
        racy_wrong.get(),
        racy_compared.get(),
        start.elapsed().as_secs_f64()
    );
}
