//! Suite 2: planned programs draw no validation-layer message, except the
//! hazards the model predicts for them under the device's layer profile
//! (`vksync::layer::Layer`; e.g. `Semantics::LAYER_1_3_239`)
//! (the layer's known differences from the spec, e.g. D5: a buffer-form
//! plan can draw a WRITE_AFTER_READ because the 1.3.239 layer limits a
//! synchronization2 buffer barrier's execution dependency to its range).
//!
//! Expected = the model's hazards under that profile as the layer sees
//! them (`vksync::layer::predict`: K1 per command buffer, K2 no host
//! accesses, K3 one report per access, K4 its recording gap); the layer's SYNC-HAZARD messages
//! must equal it by (command index, kind), and no other message may appear. Validation is required.
//! Cases: `PROPTEST_CASES` (default 64).

use proptest::prelude::*;
use rayon::prelude::*;
use std::cell::{Cell, RefCell};
use vksync::plan::{plan, PlanOptions};
use vksync_proptests::layer::{layer_of, observed, predict, show_keys, test_device, verdict, Verdict};
use vksync_proptests::{cases, programs, run_suite, SAFE_PLANS};
use vksync_runtime::ValidationMode;

#[test]
fn planned_programs_draw_only_predicted_messages() {
    let Some(device) = test_device(ValidationMode::Required) else {
        return;
    };
    let layer = layer_of(&device);
    let emulation = layer.emulation();
    let device = RefCell::new(device);
    let (runs, explained, messages, k4) = (
        Cell::new(0usize),
        Cell::new(0usize),
        Cell::new(0usize),
        Cell::new(0usize),
    );
    let n = cases(64);
    run_suite(n, file!(), programs(32), |g| {
        let prepared: Vec<_> = SAFE_PLANS
            .par_iter()
            .map(|&(planner, form)| {
                let p = plan(&g.program, PlanOptions::new(planner).form(form))
                    .expect("valid")
                    .program;
                let expected = predict(&p, &emulation);
                (planner, form, p, expected)
            })
            .collect();
        for (planner, form, p, expected) in prepared {
            let result = device
                .borrow_mut()
                .run(&p)
                .map_err(|e| TestCaseError::fail(format!("{planner:?}/{form:?}: runtime error {e}")))?;
            runs.set(runs.get() + 1);
            let (got, other) = observed(&result);
            prop_assert!(
                other.is_empty(),
                "{:?}/{:?}: unexpected messages: {:#?}\nplanned program:\n{}",
                planner,
                form,
                other,
                vksync::trace::print(&p)
            );
            let v = verdict(&p, &emulation, &got);
            k4.set(k4.get() + usize::from(v == Verdict::K4));
            prop_assert!(
                v != Verdict::Mismatch,
                "{:?}/{:?}: layer reported {} but the model under layer {} predicts {}\nplanned program:\n{}",
                planner,
                form,
                show_keys(&p, &got),
                layer.version(),
                show_keys(&p, &expected),
                vksync::trace::print(&p)
            );
            if !got.is_empty() {
                explained.set(explained.get() + 1);
                messages.set(messages.get() + result.messages.len());
            }
        }
        Ok(())
    });
    eprintln!(
        "device_validation: {n} programs, {} planned runs, {} runs with messages ({} messages), all predicted by layer {} \
         ({} of them where K4 changed the prediction)",
        runs.get(),
        explained.get(),
        messages.get(),
        layer.version(),
        k4.get()
    );
}
