//! Suite 3: the model against synchronization validation on programs with
//! a hazard. A random program without submits, waits or host accesses in
//! the middle (one command buffer, see D8/D9) is planned by the offline
//! planner (global and buffer form); every weakening of the plan (one
//! barrier removed, or one stage or access bit of one barrier; only valid
//! programs) runs on the device with the layer, and the layer's hazards,
//! keyed by (command index, kind), are compared with the model's.
//!
//! * Against the device's layer profile (`vksync::layer::Layer`:
//!   1.3.239 or 1.4.309) agreement must be exact, after the emulation of
//!   `vksync::layer::predict` (K1 per command buffer, K2 no host accesses,
//!   K3 one report per access, K4 on 1.3.239); anything else fails the test
//!   and shrinks to a minimal program.
//! * Against `Semantics::SPEC` agreements are counted, and each
//!   disagreement is classified by the single layer toggle (D1-D6, D12)
//!   that explains it.
//!
//! Cases: `PROPTEST_CASES` (default 24).

use proptest::prelude::*;
use rayon::prelude::*;
use std::cell::RefCell;
use std::collections::BTreeMap;
use vksync::plan::{plan, BarrierForm, PlanOptions, PlannerKind};
use vksync::{check_with, Semantics};
use vksync_proptests::layer::{
    keys, layer_of, observed, predict, recorded, show_keys, single_toggles, test_device, verdict, Verdict,
};
use vksync_proptests::{cases, device_only_programs, run_suite, weakenings};
use vksync_runtime::ValidationMode;

#[derive(Default, Debug)]
struct Stats {
    programs: usize,
    comparisons: usize,
    with_hazards: usize,
    layer_agree: usize,
    used_k12: usize,
    used_k3: usize,
    used_k4: usize,
    spec_agree: usize,
    spec_explained: BTreeMap<String, usize>,
}

#[test]
fn model_agrees_with_syncval_on_weakened_plans() {
    let Some(device) = test_device(ValidationMode::Required) else {
        return;
    };
    let layer = layer_of(&device);
    let profile = || layer.emulation();
    let device = RefCell::new(device);
    let stats = RefCell::new(Stats::default());
    let n = cases(24);
    run_suite(n, file!(), device_only_programs(16), |g| {
        stats.borrow_mut().programs += 1;
        for form in [BarrierForm::Global, BarrierForm::Buffer] {
            let planned = plan(&g.program, PlanOptions::new(PlannerKind::Offline).form(form))
                .expect("valid")
                .program;
            let mut variants = vec![("the plan itself".to_string(), planned.clone())];
            variants.extend(weakenings(&planned));
            // Each variant as the device records it (its workarounds
            // applied; recording that again changes nothing): what the
            // layer judges, so what the model must predict for.
            let variants: Vec<(String, vksync::Program)> = variants
                .into_iter()
                .map(|(what, q)| {
                    let r = recorded(&device.borrow(), &q).into_owned();
                    (what, r)
                })
                .collect();
            // The model's side, for every variant, in parallel.
            let predicted: Vec<_> = variants
                .par_iter()
                .map(|(_, q)| {
                    let layer = profile();
                    let raw = keys(&check_with(q, layer.semantics).unwrap());
                    let mut e = layer.without_unrecorded_tail();
                    e.first_hazard_only = false;
                    let k12 = predict(q, &e);
                    let k3 = predict(q, &layer.without_unrecorded_tail());
                    let expected = predict(q, &layer);
                    (raw, k12, k3, expected)
                })
                .collect();
            for ((what, q), (raw, k12, k3, expected)) in variants.iter().zip(predicted) {
                let result = device
                    .borrow_mut()
                    .run(q)
                    .map_err(|e| TestCaseError::fail(format!("{what}: runtime error {e}")))?;
                let (got, other) = observed(&result);
                prop_assert!(
                    other.is_empty(),
                    "{:?} plan, {}: unexpected messages {:#?}\n{}",
                    form,
                    what,
                    other,
                    vksync::trace::print(q)
                );
                let v = verdict(q, &profile(), &got);
                prop_assert!(
                    v != Verdict::Mismatch,
                    "{:?} plan, {}: syncval reports {}, the model under layer {} predicts {}\nweakened program:\n{}",
                    form, what, show_keys(q, &got), layer.version(), show_keys(q, &expected), vksync::trace::print(q)
                );
                let mut s = stats.borrow_mut();
                s.comparisons += 1;
                s.layer_agree += 1;
                s.with_hazards += usize::from(!got.is_empty());
                s.used_k12 += usize::from(raw != k12);
                s.used_k3 += usize::from(k12 != k3);
                s.used_k4 += usize::from(v == Verdict::K4);
                // Under SPEC and single toggles, with K1..K4.
                let agrees = |sem| verdict(q, &profile().with_semantics(sem), &got) != Verdict::Mismatch;
                if agrees(Semantics::SPEC) {
                    s.spec_agree += 1;
                } else {
                    let names: Vec<String> = single_toggles()
                        .into_iter()
                        .filter(|(_, t)| agrees(*t))
                        .map(|(name, _)| name)
                        .collect();
                    let key = if names.is_empty() {
                        "several toggles together".to_string()
                    } else {
                        names.join(" | ")
                    };
                    *s.spec_explained.entry(key).or_default() += 1;
                }
            }
        }
        Ok(())
    });
    let s = stats.into_inner();
    eprintln!(
        "differential: {} programs, {} comparisons ({} with layer hazards); layer {} agrees on {}/{} \
         (K1/K2 changed the prediction {} times, K3 {}, K4 {}); SPEC agrees on {}/{}; SPEC disagreements by toggle: {:?}",
        s.programs, s.comparisons, s.with_hazards, layer.version(), s.layer_agree, s.comparisons, s.used_k12, s.used_k3, s.used_k4,
        s.spec_agree, s.comparisons, s.spec_explained
    );
}
