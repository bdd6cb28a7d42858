//! The documented differences between the spec (what vksync checks and
//! plans) and the Khronos validation layer, each as a tiny program with
//! both verdicts. `Semantics::LAYER_1_3_239` reproduces the layer Debian 12
//! ships; the differential suite uses it to tell an explained disagreement
//! from a bug. The labels D1..D12 match `docs/semantics.md`.

use vksync::{check_with, trace, Semantics};

fn verdicts(body: &str, sem: Semantics) -> Vec<String> {
    let text = format!("buffer a 256\nbuffer b 256\nbuffer c 256\n{body}");
    let t = trace::parse(&text).unwrap();
    check_with(&t.program, sem)
        .unwrap()
        .iter()
        .map(|h| format!("L{} {}", t.command_lines[h.command], h.kind))
        .collect()
}

fn differs(label: &str, body: &str, spec: &[&str], layer: &[&str]) {
    assert_eq!(verdicts(body, Semantics::SPEC), spec, "{label}: spec verdict");
    assert_eq!(
        verdicts(body, Semantics::LAYER_1_3_239),
        layer,
        "{label}: layer verdict"
    );
}

#[test]
fn d1_survives_a_replaced_read() {
    // K5: the layer ORs every read's barriers into `read_execution_barriers`
    // and keeps them when a newer read in the same stage replaces the read.
    differs(
        "D1 (K5)",
        "copy c[0..64] -> a[0..64]\nbarrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\n\
         barrier COPY:NONE -> COMPUTE_SHADER:NONE\ncopy a[0..64] -> b[64..128]\ndispatch k read a[0..64] write c[64..128]",
        &["L9 READ_AFTER_WRITE"],
        &[],
    );
}

#[test]
fn d1_raw_shortcut_through_an_ordered_read() {
    differs(
        "D1",
        "fill c[0..12] 1\nbarrier ALL_TRANSFER:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy c[0..12] -> b[0..12]\n\
         barrier COPY:NONE -> DRAW_INDIRECT:NONE\ndispatch k indirect c[0..12] write a[0..64]",
        &["L8 READ_AFTER_WRITE"],
        &[],
    );
}

#[test]
fn d2_write_after_write_needs_visibility_in_the_layer() {
    differs(
        "D2 (available, not visible)",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> CLEAR:NONE\nfill a[0..64] 2",
        &[],
        &["L6 WRITE_AFTER_WRITE"],
    );
    differs(
        "D2 (a read-write binding: the read was made visible, the write only available)",
        "fill a[0..64] 1\nbarrier ALL_TRANSFER:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\ndispatch k rw a[0..64]",
        &[],
        &["L6 WRITE_AFTER_WRITE"],
    );
}

#[test]
fn d3_read_write_binding_is_a_write_to_the_layer() {
    differs(
        "D3 (spec RAW, layer clean)",
        "fill a[0..64] 1\nbarrier ALL_TRANSFER:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_WRITE\ndispatch k rw a[0..64]",
        &["L6 READ_AFTER_WRITE"],
        &[],
    );
}

#[test]
fn d4_fill_and_update_stage() {
    differs(
        "D4 (COPY source scope)",
        "fill a[0..64] 1\nbarrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
        &["L6 READ_AFTER_WRITE"],
        &[],
    );
    differs(
        "D4 (CLEAR source scope)",
        "update a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
        &[],
        &["L6 READ_AFTER_WRITE"],
    );
}

#[test]
fn d5_buffer_barrier_execution_dependency_range() {
    differs(
        "D5",
        "copy a[0..64] -> c[0..64]\nbarrier COPY:NONE -> CLEAR:NONE b[0..4]\nfill a[0..64] 2",
        &[],
        &["L6 WRITE_AFTER_READ"],
    );
}

#[test]
fn d6_dispatch_write_after_write_suppressed() {
    differs(
        "D6",
        "dispatch k read b[0..64] write a[0..64]\ndispatch k read c[0..64] write a[0..64]",
        &["L5 WRITE_AFTER_WRITE"],
        &[],
    );
}

#[test]
fn d12_a_write_is_checked_against_every_earlier_access() {
    differs(
        "D12 (a write after an unordered read of an earlier write)",
        "dispatch k write a[0..64]\ncopy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> COPY:NONE\ncopy c[0..64] -> a[0..64]",
        &["L5 READ_AFTER_WRITE", "L7 WRITE_AFTER_WRITE"],
        &["L5 READ_AFTER_WRITE"],
    );
}

#[test]
fn the_ncnn_report_the_layer_and_the_memory_model() {
    // The layer reported a write-after-read at line 37 and a
    // write-after-write at line 39. The first is a data race; the second
    // is not by the memory model: the copy at line 26 was made available by
    // the barrier at line 28, whose chain through the barrier at line 31
    // reaches the copy at line 39 (D2). The layer profile reproduces both.
    let ncnn = include_str!("../../examples/ncnn-batch-scale.trace");
    let t = trace::parse(ncnn).unwrap();
    let key = |h: &vksync::Hazard| (t.command_lines[h.command], h.kind);
    let spec: Vec<_> = check_with(&t.program, Semantics::SPEC)
        .unwrap()
        .iter()
        .map(key)
        .collect();
    let layer: Vec<_> = check_with(&t.program, Semantics::LAYER_1_3_239)
        .unwrap()
        .iter()
        .map(key)
        .collect();
    use vksync::HazardKind::*;
    assert_eq!(spec, vec![(37, WriteAfterRead)]);
    assert_eq!(layer, vec![(37, WriteAfterRead), (39, WriteAfterWrite)]);
}

#[test]
fn agreements_stay_agreements() {
    // Most hazards are seen the same way by both: the tutorial's
    // three-layer network without barriers.
    let text = include_str!("../../examples/three-layer.trace");
    let t = trace::parse(text).unwrap();
    let key = |h: &vksync::Hazard| (h.command, h.kind);
    let spec: Vec<_> = check_with(&t.program, Semantics::SPEC)
        .unwrap()
        .iter()
        .map(key)
        .collect();
    let layer: Vec<_> = check_with(&t.program, Semantics::LAYER_1_3_239)
        .unwrap()
        .iter()
        .map(key)
        .collect();
    assert!(!spec.is_empty());
    assert_eq!(spec, layer);
}

/// How the differences apply to an image layout transition (buffer `a`
/// plays the image): the layer checks a transition as a write against its
/// barrier's first scopes.
#[test]
fn differences_at_and_after_layout_transitions() {
    // D2 does not apply at a transition: "available memory is automatically
    // made visible to a layout transition". D23 does: the 1.3.239 layer
    // wants a write reached through the chain made visible to some access
    // of the transition barrier's first access scope (`tests/layer-versions/
    // d23.trace`); in that first access scope, it asks nothing more.
    differs(
        "D23 at a transition",
        "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:SHADER_WRITE -> COPY:NONE\n\
         barrier COPY:NONE -> COPY:NONE a[0..64] transition",
        &[],
        &["L6 WRITE_AFTER_WRITE"],
    );
    differs(
        "no D23 in the first access scope",
        "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:SHADER_WRITE -> COPY:NONE a[0..64] transition",
        &[],
        &[],
    );
    // ...but after one, as after any write: a later write must be made
    // visible by the transition's second scopes for the layer.
    differs(
        "D2 after a transition",
        "barrier NONE:NONE -> COPY:NONE a[0..64] transition\ncopy b[0..64] -> a[0..64]",
        &[],
        &["L5 WRITE_AFTER_WRITE"],
    );
    // D12: the layer checks the transition against the reads since the
    // last write only, as for any write.
    differs(
        "D12 at a transition",
        "dispatch k write a[0..64]\ncopy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> COPY:NONE a[0..64] transition",
        &["L5 READ_AFTER_WRITE", "L6 WRITE_AFTER_WRITE"],
        &["L5 READ_AFTER_WRITE"],
    );
    // D5: the transition's barrier orders nothing outside its range in the
    // 1.3.239 and 1.4.309 layers, as a buffer barrier.
    differs(
        "D5 beside a transition",
        "copy c[0..64] -> b[0..64]\nbarrier COPY:NONE -> COMPUTE_SHADER:NONE a[0..64] transition\ndispatch k write c[0..64]",
        &[],
        &["L6 WRITE_AFTER_READ"],
    );
    // D13 is not reproduced: the layer profile reports what the
    // specification does.
    differs(
        "D13 (not reproduced)",
        "barrier NONE:NONE -> COPY:NONE a[0..64] transition; COPY:NONE -> COMPUTE_SHADER:SHADER_READ\n\
         dispatch k read a[0..64] write b[0..64]",
        &["L5 READ_AFTER_WRITE"],
        &["L5 READ_AFTER_WRITE"],
    );
    // D14: an ALL_COMMANDS:MEMORY_WRITE first scope holds the transition
    // for vksync (and the 1.4 layers), not for 1.3.239; without
    // MEMORY_WRITE for vksync only (its write is available at once; D28,
    // every profile: `d14_d27_d28_each_profile`).
    differs(
        "D14",
        "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:MEMORY_WRITE -> COPY:TRANSFER_READ\n\
         copy a[0..64] -> b[0..64]",
        &[],
        &["L6 READ_AFTER_WRITE"],
    );
    differs(
        "D28 (and D14) without MEMORY_WRITE",
        "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\n\
         copy a[0..64] -> b[0..64]",
        &[],
        &["L6 READ_AFTER_WRITE"],
    );
    differs(
        "no D28 with a first scope that holds no transition",
        "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier COMPUTE_SHADER:NONE -> COPY:TRANSFER_READ\n\
         copy a[0..64] -> b[0..64]",
        &["L6 READ_AFTER_WRITE"],
        &["L6 READ_AFTER_WRITE"],
    );
    // D27: an earlier ALL_COMMANDS second scope holds the transition for
    // vksync and the 1.4 layers, not for 1.3.239.
    differs(
        "D27 (a write)",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> ALL_COMMANDS:NONE\nbarrier NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition",
        &[],
        &["L6 WRITE_AFTER_WRITE"],
    );
    differs(
        "D27 (a read)",
        "copy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> ALL_COMMANDS:NONE\nbarrier NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition",
        &[],
        &["L6 WRITE_AFTER_READ"],
    );
}

/// D14, D27 and D28 on the traces each layer ran as written on lavapipe
/// (1.3.239 on 2026-12-03; 1.4.309 and 1.4.363 in the Debian roots on
/// 2026-12-04, `docs/testing.md`): what each profile predicts,
/// `[1.3.239, 1.4.309, 1.4.363]`, which is what that layer reported. On
/// `d27.trace` 1.3.239's message is D23's as well; `d27-read.trace` (a
/// read, which needs no visibility) is D27 alone.
#[test]
fn d14_d27_d28_each_profile() {
    use vksync::layer::{predict, Layer};
    type Case = (&'static str, [&'static [&'static str]; 3]);
    let cases: &[Case] = &[
        (
            include_str!("../../tests/layer-versions/d14.trace"),
            [&["barrier->copy-image-to-buffer READ_AFTER_WRITE"], &[], &[]],
        ),
        (
            include_str!("../../tests/layer-versions/d28.trace"),
            [
                &["barrier->copy-image-to-buffer READ_AFTER_WRITE"],
                &["barrier->copy-image-to-buffer READ_AFTER_WRITE"],
                &["barrier->copy-image-to-buffer READ_AFTER_WRITE"],
            ],
        ),
        (
            include_str!("../../tests/layer-versions/d27.trace"),
            [&["copy-buffer-to-image->barrier WRITE_AFTER_WRITE"], &[], &[]],
        ),
        (
            include_str!("../../tests/layer-versions/d27-read.trace"),
            [&["copy-image-to-buffer->barrier WRITE_AFTER_READ"], &[], &[]],
        ),
    ];
    for (text, want) in cases {
        let t = trace::parse(text).unwrap();
        let show = |hs: &[vksync::Hazard]| -> Vec<String> {
            let kw = |i: usize| t.program.commands()[i].keyword();
            hs.iter()
                .map(|h| format!("{}->{} {}", kw(h.prior_command), kw(h.command), h.kind))
                .collect()
        };
        assert_eq!(
            show(&check_with(&t.program, Semantics::SPEC).unwrap()),
            Vec::<String>::new()
        );
        for (layer, want) in Layer::ALL.iter().zip(want) {
            let got = show(&predict(&t.program, &layer.emulation()).unwrap());
            assert_eq!(&got, want, "layer {}", layer.version());
        }
    }
}

/// What each layer version reported for the traces of
/// `tests/layer-versions/`, run as written on lavapipe in the three roots
/// (`docs/testing.md`, "Layer 1.4.363"), against what its profile
/// predicts (`vksync::layer::predict`): `[1.3.239, 1.4.309, 1.4.363]`.
#[test]
fn each_profile_predicts_what_its_layer_reported() {
    use vksync::layer::{predict, Layer};
    type Case = (&'static str, &'static str, [&'static [&'static str]; 3]);
    let cases: &[Case] = &[
        (
            "d5 (D5 fixed in 1.4.326)",
            include_str!("../../tests/layer-versions/d5.trace"),
            [
                &["copy->fill WRITE_AFTER_READ"],
                &["copy->fill WRITE_AFTER_READ"],
                &[],
            ],
        ),
        (
            "d6 (D6 gone in 1.4.363)",
            include_str!("../../tests/layer-versions/d6.trace"),
            [&[], &[], &["dispatch->dispatch WRITE_AFTER_WRITE"]],
        ),
        (
            "d6war (K3: the write-after-read behind it stays lost)",
            include_str!("../../tests/layer-versions/d6war.trace"),
            [&[], &[], &["dispatch->dispatch WRITE_AFTER_WRITE"]],
        ),
        (
            "d30 (D30: the layers read a LINEAR blit's source region only; all three run 2026-12-04)",
            include_str!("../../tests/layer-versions/d30.trace"),
            [&[], &[], &[]],
        ),
        (
            "d30-inside (a write inside the region: every layer)",
            include_str!("../../tests/layer-versions/d30-inside.trace"),
            [
                &["copy-buffer-to-image->blit-image READ_AFTER_WRITE"],
                &["copy-buffer-to-image->blit-image READ_AFTER_WRITE"],
                &["copy-buffer-to-image->blit-image READ_AFTER_WRITE"],
            ],
        ),
        (
            "the ncnn report (D2 in every version)",
            include_str!("../../examples/ncnn-batch-scale.trace"),
            [
                &["copy->copy WRITE_AFTER_READ", "copy->copy WRITE_AFTER_WRITE"],
                &["copy->copy WRITE_AFTER_READ", "copy->copy WRITE_AFTER_WRITE"],
                &["copy->copy WRITE_AFTER_READ", "copy->copy WRITE_AFTER_WRITE"],
            ],
        ),
    ];
    for (label, text, want) in cases {
        let t = trace::parse(text).unwrap();
        for (layer, want) in Layer::ALL.iter().zip(want) {
            let got: Vec<String> = predict(&t.program, &layer.emulation())
                .unwrap()
                .iter()
                .map(|h| {
                    let kw = |i: usize| t.program.commands()[i].keyword();
                    format!("{}->{} {}", kw(h.prior_command), kw(h.command), h.kind)
                })
                .collect();
            assert_eq!(&got, want, "{label}: layer {}", layer.version());
        }
    }
}

/// D31: the 1.4.363 layer may skip a pipeline barrier of one global memory
/// barrier that repeats an earlier one of the command buffer. Its
/// prediction stays the least it reports (what the specification orders);
/// the program without the barriers it may skip
/// (`vksync::layer::without_repeated_barriers`, every hazard of each access:
/// `predict_most`) gives the most, and a report
/// there is put down to D31, for 1.4.363 only. Cases: (label, trace, the
/// hazards the 1.4.363 profile predicts, the report D31 explains at
/// 1.4.363 and no profile predicts, as `(prior->command kind)`).
#[test]
fn d31_a_repeated_barrier_bounds_the_1_4_363_report() {
    use vksync::layer::{explain, predict, predict_most, without_repeated_barriers, Explanation, Layer};
    let cases: &[(&str, &str, &[&str], &str)] = &[
        (
            "d31 (minimized; 1.4.363 reports the last fill, 2026-12-05)",
            include_str!("../../tests/layer-versions/d31.trace"),
            &["fill->copy READ_AFTER_WRITE", "fill->copy WRITE_AFTER_WRITE"],
            "copy->fill WRITE_AFTER_READ",
        ),
        (
            "d31-planned (a planned program of device_validation)",
            include_str!("../../tests/layer-versions/d31-planned.trace"),
            &[],
            "copy->fill WRITE_AFTER_READ",
        ),
    ];
    for (label, text, least, most) in cases {
        let t = trace::parse(text).unwrap();
        let p = &t.program;
        let kw = |i: usize| p.commands()[i].keyword();
        let show = |hs: &[vksync::Hazard]| -> Vec<String> {
            hs.iter()
                .map(|h| format!("{}->{} {}", kw(h.prior_command), kw(h.command), h.kind))
                .collect()
        };
        let dropped = without_repeated_barriers(p);
        let changed: Vec<usize> = (0..p.commands().len())
            .filter(|&i| p.commands()[i] != dropped.commands()[i])
            .collect();
        assert_eq!(changed.len(), 1, "{label}: one repeated barrier: {changed:?}");
        assert_eq!(kw(changed[0]), "barrier", "{label}");
        let e = Layer::V1_4_363.emulation();
        assert_eq!(show(&predict(p, &e).unwrap()), *least, "{label}: layer 1.4.363");
        for layer in Layer::ALL {
            let e = layer.emulation();
            let predicted = show(&predict(p, &e).unwrap());
            assert!(
                !predicted.iter().any(|h| h == most),
                "{label}: layer {}: {predicted:?}",
                layer.version()
            );
            let reported = predict_most(p, &e).unwrap();
            let h = reported
                .iter()
                .find(|h| format!("{}->{} {}", kw(h.prior_command), kw(h.command), h.kind) == *most)
                .unwrap_or_else(|| panic!("{label}: {most} in {:?}", show(&reported)));
            let why = explain(p, h.command, h.kind, &e);
            // 1.3.239 and 1.4.309 keep no such list: their reports there
            // are what their other differences explain (D4 at 1.3.239).
            let d31 = matches!(why, Explanation::Difference(d) if d.id == "D31");
            assert_eq!(
                d31,
                *layer == Layer::V1_4_363,
                "{label}: layer {}: {why:?}",
                layer.version()
            );
        }
    }
}

/// D20 both ways: a semaphore wait at `TOP_OF_PIPE` and a signal at
/// `BOTTOM_OF_PIPE`, on one device queue, under the specification's access
/// scopes (vksync, layer 1.4.363) and under the stages named in the mask
/// (layers 1.3.239 and 1.4.309, with submit-time validation); and vksync's
/// own checker on the program with its queues, which must agree with the
/// first.
#[test]
fn d20_semaphore_access_scopes_both_ways() {
    use vksync::layer::{on_one_queue, Layer, SemaphoreScopes};
    // (trace, hazards with the specification's scopes, with the mask's stages)
    type Case = (&'static str, &'static [&'static str], &'static [&'static str]);
    let cases: &[Case] = &[
        (
            include_str!("../../tests/layer-versions/semwait-top.trace"),
            &[],
            &["L13 READ_AFTER_WRITE"],
        ),
        (
            include_str!("../../tests/layer-versions/semsignal-bottom.trace"),
            &[],
            &["L13 READ_AFTER_WRITE"],
        ),
        (
            include_str!("../../tests/layer-versions/semwait-copy.trace"),
            &[],
            &[],
        ),
    ];
    for (text, device, mask) in cases {
        let t = trace::parse(text).unwrap();
        let first = text.lines().next().unwrap_or("");
        let spec: Vec<String> = vksync::check(&t.program)
            .unwrap()
            .iter()
            .map(|h| format!("L{} {}", t.command_lines[h.command], h.kind))
            .collect();
        assert_eq!(&spec, device, "vksync on {first}");
        for layer in Layer::ALL {
            let emulation = layer.emulation();
            let one = on_one_queue(&t.program, emulation.semaphore_scopes).unwrap();
            let got: Vec<String> = check_with(&one.program, emulation.semantics)
                .unwrap()
                .iter()
                .map(|h| format!("L{} {}", t.command_lines[one.origin[h.command]], h.kind))
                .collect();
            let want = match emulation.semaphore_scopes {
                SemaphoreScopes::Device => device,
                SemaphoreScopes::MaskStages => mask,
            };
            assert_eq!(&got, want, "layer {} on {first}", layer.version());
        }
    }
}

/// D21 is not reproduced: layer 1.4.363 reported `WRITE_AFTER_READ` at the
/// last copy of `tests/layer-versions/d21.trace` (the earlier layers and
/// the specification: nothing); every profile predicts what the
/// specification does, as for D13 and D14.
#[test]
fn d21_not_reproduced() {
    use vksync::layer::{predict, Layer};
    let t = trace::parse(include_str!("../../tests/layer-versions/d21.trace")).unwrap();
    assert!(check_with(&t.program, Semantics::SPEC).unwrap().is_empty());
    for layer in Layer::ALL {
        let got = predict(&t.program, &layer.emulation()).unwrap();
        assert!(got.is_empty(), "layer {}: {got:?}", layer.version());
    }
}

/// D22, D23, D26, K3 with an image barrier of several mips, and K4 with a
/// buffer-image copy (and with a dispatch's storage images, and with draws'
/// vertex and index reads), from the traces of
/// `tests/layer-versions/` that the 1.3.239 layer ran as written on
/// lavapipe (`docs/testing.md`, "Layer reports on planned programs"): what
/// vksync reports, and what each profile predicts, `[1.3.239, 1.4.309,
/// 1.4.363]`. The 1.3.239 column is what that layer reported; the 1.4
/// columns come from the layers' source (dynamic rendering validated from
/// 1.3.271, D23 fixed in 1.3.269, K4 in 1.3.256), not from a run, except
/// for D26 and K3, which all three layers ran.
#[test]
fn d22_d23_d26_k3_k4_each_profile() {
    use vksync::layer::{predict, Layer};
    type Case = (
        &'static str,
        &'static [&'static str],
        [&'static [&'static str]; 3],
    );
    let cases: &[Case] = &[
        (
            include_str!("../../tests/layer-versions/d22.trace"),
            &["end-rendering->copy-image-to-buffer READ_AFTER_WRITE"],
            [
                &[],
                &["end-rendering->copy-image-to-buffer READ_AFTER_WRITE"],
                &["end-rendering->copy-image-to-buffer READ_AFTER_WRITE"],
            ],
        ),
        (
            include_str!("../../tests/layer-versions/d23.trace"),
            &[],
            [&["copy-buffer-to-image->barrier WRITE_AFTER_WRITE"], &[], &[]],
        ),
        (
            // K4 (fixed in 1.3.256) with a buffer-image copy's buffer side,
            // the class the H200's image suite found on 2026-12-02.
            include_str!("../../tests/layer-versions/k4-image-copy.trace"),
            &[
                "copy-buffer-to-image->fill WRITE_AFTER_READ",
                "fill->copy-buffer-to-image READ_AFTER_WRITE",
            ],
            [
                &["copy-buffer-to-image->fill WRITE_AFTER_READ"],
                &[
                    "copy-buffer-to-image->fill WRITE_AFTER_READ",
                    "fill->copy-buffer-to-image READ_AFTER_WRITE",
                ],
                &[
                    "copy-buffer-to-image->fill WRITE_AFTER_READ",
                    "fill->copy-buffer-to-image READ_AFTER_WRITE",
                ],
            ],
        ),
        (
            // K4 with a dispatch's storage images between the copy and the
            // fill: the images are in the layer's other address space, so
            // the fill is still cut at the copy's read (a fresh seed of the
            // image suite, 2026-12-03: the emulation had put the dispatch's
            // images above the buffer in the map).
            include_str!("../../tests/layer-versions/k4-dispatch-image.trace"),
            &[
                "copy-buffer-to-image->fill WRITE_AFTER_READ",
                "fill->copy-buffer-to-image READ_AFTER_WRITE",
            ],
            [
                &["copy-buffer-to-image->fill WRITE_AFTER_READ"],
                &[
                    "copy-buffer-to-image->fill WRITE_AFTER_READ",
                    "fill->copy-buffer-to-image READ_AFTER_WRITE",
                ],
                &[
                    "copy-buffer-to-image->fill WRITE_AFTER_READ",
                    "fill->copy-buffer-to-image READ_AFTER_WRITE",
                ],
            ],
        ),
        (
            // K4 with a draw's vertex read (D24's range): the second draw's
            // read is cut at the first draw's, so the barrier over that
            // range orders all the layer recorded (the H200's rendering
            // suite, 2026-12-03: the emulation had recorded draws whole).
            // The 1.4 layers record no instance-rate read (D26).
            include_str!("../../tests/layer-versions/k4-draw-vertex.trace"),
            &[],
            [&[], &[], &[]],
        ),
        (
            // ... and recorded whole when something lies above it in the
            // map.
            include_str!("../../tests/layer-versions/k4-draw-vertex-above.trace"),
            &[],
            [&["draw->dispatch WRITE_AFTER_READ"], &[], &[]],
        ),
        (
            // The index read is recorded before the vertex reads.
            include_str!("../../tests/layer-versions/k4-draw-indexed.trace"),
            &[],
            [&["draw-indexed->dispatch WRITE_AFTER_READ"], &[], &[]],
        ),
        (
            // K3 with one image barrier over two mips: the layer reports
            // the first hazard of its whole subresource range (the write
            // of mip 0), not one per mip (the image suite under 1.4.309,
            // 2026-12-06; all three columns run on lavapipe).
            include_str!("../../tests/layer-versions/k3-image-barrier.trace"),
            &[
                "copy-buffer-to-image->barrier WRITE_AFTER_WRITE",
                "copy-image-to-buffer->barrier WRITE_AFTER_READ",
            ],
            [
                &["copy-buffer-to-image->barrier WRITE_AFTER_WRITE"],
                &["copy-buffer-to-image->barrier WRITE_AFTER_WRITE"],
                &["copy-buffer-to-image->barrier WRITE_AFTER_WRITE"],
            ],
        ),
        (
            // D26: the 1.4 layers record no read of an instance-rate vertex
            // binding (all three columns run on lavapipe, 2026-12-03).
            include_str!("../../tests/layer-versions/d26.trace"),
            &["draw->update WRITE_AFTER_READ"],
            [&["draw->update WRITE_AFTER_READ"], &[], &[]],
        ),
    ];
    for (text, spec, want) in cases {
        let t = trace::parse(text).unwrap();
        let first = text.lines().next().unwrap_or("");
        let show = |hs: &[vksync::Hazard]| -> Vec<String> {
            let kw = |i: usize| t.program.commands()[i].keyword();
            hs.iter()
                .map(|h| format!("{}->{} {}", kw(h.prior_command), kw(h.command), h.kind))
                .collect()
        };
        assert_eq!(
            &show(&vksync::check(&t.program).unwrap()),
            spec,
            "vksync on {first}"
        );
        for (layer, want) in Layer::ALL.iter().zip(want) {
            let got = show(&predict(&t.program, &layer.emulation()).unwrap());
            assert_eq!(&got, want, "layer {} on {first}", layer.version());
        }
    }
}
