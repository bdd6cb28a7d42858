//! Suite: random rendering programs (`vksync_proptests::rendering`:
//! rectangle records from `update` and a compute kernel, rendering
//! instances of `draw`, `draw-indexed` and `draw-indirect` with the
//! runtime's `rect` and `flat` kernels, attachment copies) run on the
//! device against the CPU reference's rasterization.
//!
//! Each program is planned by the offline planner (global and buffer
//! barrier forms; the online planner refuses them: [`PLANS`]), and each
//! plan runs once: every byte
//! the reference defines must match (asserted), and with validation on no
//! core validation message may come (asserted); the layer's hazard
//! reports must equal the model's prediction under the layer's profile
//! (asserted: on layer 1.3.239 that takes D22, no dynamic rendering, and
//! D24, its vertex buffer ranges; on the 1.4 layers D26, no instance-rate
//! vertex reads; `VKSYNC_LAYER_DIFFS=DIR` writes each
//! differing run there as a trace). The program without
//! barriers (its transitions kept with empty scopes: the generated
//! program itself) runs `VKSYNC_RENDER_REPEAT` times (default 1); its
//! wrong bytes are counted and reported, not asserted (lavapipe runs
//! commands in order and rarely shows any).
//!
//! Knobs: `PROPTEST_CASES` (default 32), `VKSYNC_RENDER_SIZE` (square
//! attachments, default 16, at most 256), `VKSYNC_RENDER_OPS` (operations
//! per program, default 16), `VKSYNC_RENDER_REPEAT`,
//! `VKSYNC_RENDER_SECONDS` (no case starts after that many seconds),
//! `VKSYNC_VALIDATION=0` (validation off; default: required),
//! `VKSYNC_DEVICE`.

use proptest::test_runner::{TestCaseError, TestError};
use std::cell::{Cell, RefCell};
use std::time::Instant;
use vksync::plan::{plan, BarrierForm, PlanOptions, PlannerKind};
use vksync::reference;
use vksync_proptests::layer::{
    diff_dir, dump_difference, layer_of, observed, predict, recorded, show_keys, test_device,
};
use vksync_proptests::rendering::rendering_programs;
use vksync_proptests::{cases, runner};
use vksync_runtime::ValidationMode;

/// The plans every program runs with. Not the online planner: it refuses
/// these programs (it would place the barrier a rendering instance needs
/// at the command that needs it, inside the instance, and planning inside
/// instances is not done: `docs/trace-format.md`, "Dynamic rendering and
/// draws").
const PLANS: [(PlannerKind, BarrierForm); 2] = [
    (PlannerKind::Offline, BarrierForm::Global),
    (PlannerKind::Offline, BarrierForm::Buffer),
];

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Wrong bytes of a run against the reference (a missing or short read
/// counts every defined byte it lacks), and the defined bytes compared.
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
fn planned_rendering_programs_match_the_reference() {
    let validation = if std::env::var("VKSYNC_VALIDATION").as_deref() == Ok("0") {
        ValidationMode::Off
    } else {
        ValidationMode::Required
    };
    let Some(device) = test_device(validation) else {
        return;
    };
    eprintln!("device_rendering: device {}", device.info());
    let validated = device.info().validation;
    let device = RefCell::new(device);
    let (n, max_ops, repeat, size) = (
        cases(32),
        env_usize("VKSYNC_RENDER_OPS", 16),
        env_usize("VKSYNC_RENDER_REPEAT", 1),
        env_usize("VKSYNC_RENDER_SIZE", 16).clamp(1, 256) as u32,
    );
    let budget = std::env::var("VKSYNC_RENDER_SECONDS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .map(std::time::Duration::from_secs_f64);
    let layer = layer_of(&device.borrow());
    let emulation = layer.emulation();
    let (ran, planned_runs, compared, drawn, reports, layer_differs) = (
        Cell::new(0usize),
        Cell::new(0usize),
        Cell::new(0usize),
        Cell::new(0usize),
        Cell::new(0usize),
        Cell::new(0usize),
    );
    let (racy_runs, racy_bad_runs, racy_wrong, racy_compared) = (
        Cell::new(0usize),
        Cell::new(0usize),
        Cell::new(0usize),
        Cell::new(0usize),
    );
    let start = Instant::now();
    let mut runner = runner(n, file!());
    let outcome = runner.run(&rendering_programs(max_ops, size), |g| {
        if budget.is_some_and(|b| start.elapsed() > b) {
            return Ok(());
        }
        ran.set(ran.get() + 1);
        let expected = reference::run(&g.program).map_err(|e| TestCaseError::fail(format!("reference: {e}")))?;
        // Not vacuous: count the nonzero defined color and depth words.
        drawn.set(
            drawn.get()
                + expected
                    .iter()
                    .flat_map(|r| r.bytes.chunks(4))
                    .filter(|w| w.iter().all(|b| b.is_some()) && w.iter().any(|b| *b != Some(0)))
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
            let (got, findings) = observed(&result);
            if !findings.is_empty() {
                return Err(TestCaseError::fail(format!(
                    "{planner:?}/{form:?}: validation messages on a planned program: {findings:#?}\nplanned program:\n{}",
                    vksync::trace::print(&p)
                )));
            }
            let recorded = recorded(&device.borrow(), &p).into_owned();
            let predicted = predict(&recorded, &emulation);
            reports.set(reports.get() + got.len());
            if got != predicted {
                layer_differs.set(layer_differs.get() + 1);
                if let Some(dir) = diff_dir() {
                    let name = format!("rendering-{:04}-{planner:?}-{form:?}", ran.get());
                    dump_difference(&dir, &name, &recorded, &got, &predicted, &result);
                }
                // Asserted under every layer: each class of difference
                // seen on these programs is a known difference its profile
                // emulates (D22, D24 on 1.3.239; D26 on the 1.4 layers;
                // `docs/testing.md`, "Layer reports on planned programs").
                return Err(TestCaseError::fail(format!(
                    "{planner:?}/{form:?}: the layer reported {} where the model predicts {}\nplanned program as recorded:\n{}",
                    show_keys(&recorded, &got),
                    show_keys(&recorded, &predicted),
                    vksync::trace::print(&recorded)
                )));
            }
        }
        // Without barriers: the transitions stay, with empty scopes.
        for _ in 0..repeat {
            let result = device
                .borrow_mut()
                .run(&g.program)
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
    assert!(ran.get() == 0 || drawn.get() > 0, "no program drew anything");
    eprintln!(
        "device_rendering: {} programs ({size}x{size} R32_UINT + D32_SFLOAT, up to {max_ops} operations), {} planned runs{}, \
         {} defined bytes compared, 0 mismatches; {} nonzero words in the reference's readbacks",
        ran.get(),
        planned_runs.get(),
        if validated {
            format!(
                ", validation: no message but {} hazard reports ({} runs where they differ from the model's prediction under the layer's profile)",
                reports.get(),
                layer_differs.get()
            )
        } else {
            " (validation off)".to_string()
        },
        compared.get(),
        drawn.get(),
    );
    eprintln!(
        "device_rendering: without barriers: {} runs, {} with wrong bytes, {} wrong bytes of {} defined; {:.1} s",
        racy_runs.get(),
        racy_bad_runs.get(),
        racy_wrong.get(),
        racy_compared.get(),
        start.elapsed().as_secs_f64()
    );
}
