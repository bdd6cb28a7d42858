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
    // Plans are judged as the device records them (its workarounds
    // applied; recording that again changes nothing).
    let quirks = device.info().quirks.clone();
    let device = RefCell::new(device);
    let (runs, explained, messages, k4, d31) = (
        Cell::new(0usize),
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
                let p = vksync_runtime::quirks::recorded_program(&p, &quirks)
                    .expect("a valid recording")
                    .into_owned();
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
            d31.set(d31.get() + usize::from(v == Verdict::D31));
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
         ({} of them where K4 changed the prediction, {} within D31's bounds: a repeated barrier skipped)",
        runs.get(),
        explained.get(),
        messages.get(),
        layer.version(),
        k4.get(),
        d31.get()
    );
}

/// With a driver workaround forced on (the test switch
/// `Workarounds::Force`, so lavapipe records as the H200 does), the layer
/// judges the program as recorded: its report equals the prediction for
/// `vksync_proptests::layer::recorded`'s program, and differs from the
/// prediction for the program as given (which is what the differential
/// compared before, and why it failed on the H200). Cases: (trace, the
/// hazards predicted for the trace as given, as `(command, kind)`).
#[test]
fn a_forced_workaround_is_judged_as_recorded() {
    use vksync::HazardKind::*;
    use vksync_proptests::layer::recorded;
    use vksync_runtime::quirks::{Quirk, Workarounds};
    use vksync_runtime::{Device, DeviceOptions};
    if vksync_runtime::skip_device_test() {
        return;
    }
    let options = DeviceOptions {
        validation: ValidationMode::Required,
        print_device: false,
        workarounds: Workarounds::Force(vec![Quirk::AccessLessBarrierAfterFill]),
        ..DeviceOptions::try_from_env().expect("usable environment")
    };
    let mut device =
        Device::new(options).unwrap_or_else(|e| panic!("{}: {e}", vksync_runtime::TEST_DEVICE_HELP));
    let emulation = layer_of(&device).emulation();
    let head = "buffer a 256\nbuffer b 256\n";
    // D5 (layers before 1.4.326 limit a buffer barrier's execution
    // dependency to its range): the buffer-barrier case also predicts the
    // write-after-read on `a`; 1.4.363 fixed it.
    let d5 = !emulation.semantics.buffer_barrier_global_exec;
    let buffer_case: &[(usize, vksync::HazardKind)] = if d5 {
        &[(2, ReadAfterWrite), (2, WriteAfterRead)]
    } else {
        &[(2, ReadAfterWrite)]
    };
    let cases: [(&str, &[(usize, vksync::HazardKind)]); 3] = [
        // A copy's write made available but not visible to the dispatch's
        // read: MEMORY_READ at the destination makes it visible.
        (
            "copy a -> b\nbarrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:NONE\n\
             dispatch scale_add(2,1) read b write a\n",
            &[(2, ReadAfterWrite)],
        ),
        // The same as a buffer barrier. (Event pairs are recorded through
        // the same function, `vksync_runtime::quirks` tests that; the
        // layer emulation does not take events.)
        (
            "copy a -> b\nbarrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:NONE b\n\
             dispatch scale_add(2,1) read b write a\n",
            buffer_case,
        ),
        // After a fill, as in the defect: the copy reads what the fill wrote.
        (
            "fill a 7\nbarrier CLEAR|COPY:TRANSFER_WRITE -> COPY:NONE\ncopy a -> b\n",
            &[(2, ReadAfterWrite)],
        ),
    ];
    for (text, as_given) in cases {
        let text = format!("{head}{text}submit\nwait\n");
        let p = vksync::trace::parse(&text)
            .unwrap_or_else(|e| panic!("{e}\n{text}"))
            .program;
        let rec = recorded(&device, &p);
        assert_ne!(*rec, p, "the workaround changes a barrier of\n{text}");
        let result = device.run(&p).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let (got, other) = observed(&result);
        assert!(other.is_empty(), "{other:?}\n{text}");
        let given: std::collections::BTreeSet<_> = as_given.iter().copied().collect();
        assert_eq!(predict(&p, &emulation), given, "prediction as given\n{text}");
        assert_ne!(
            verdict(&rec, &emulation, &got),
            Verdict::Mismatch,
            "layer reported {} but the recorded program's prediction is {}\n{text}",
            show_keys(&rec, &got),
            show_keys(&rec, &predict(&rec, &emulation))
        );
        assert_eq!(
            verdict(&p, &emulation, &got),
            Verdict::Mismatch,
            "judged as given, the report {} would agree: the case shows nothing\n{text}",
            show_keys(&p, &got)
        );
    }
}
