//! The ncnn report's scenario. The validation layer reported a
//! write-after-read at line 37 and a write-after-write at line 39. The
//! checker reports the first, over the logged range, as a data race; the
//! second is the layer's stricter write-after-write rule (D2 in
//! `docs/semantics.md`): the copy at line 26 was made available by the
//! barrier at line 28, whose execution dependency chain through the barrier
//! at line 31 reaches the copy at line 39, which is all the memory model
//! asks. `Semantics::LAYER_1_3_239` reports both, over the logged ranges;
//! the report's fix removes every hazard under both.

use vksync::{check_with, trace, Semantics};

const NCNN: &str = include_str!("../../examples/ncnn-batch-scale.trace");

fn summary(text: &str, sem: Semantics) -> Vec<String> {
    let t = trace::parse(text).expect("example parses");
    check_with(&t.program, sem)
        .expect("example is well formed")
        .iter()
        .map(|h| {
            format!(
                "line {}: {} pool+{}..{} prior line {} ({} then {})",
                t.command_lines[h.command],
                h.kind,
                h.memory.range.start,
                h.memory.range.end,
                t.command_lines[h.prior_command],
                h.prior,
                h.current
            )
        })
        .collect()
}

#[test]
fn reports_the_logged_race_and_the_layer_reports_both() {
    let war = "line 37: WRITE_AFTER_READ pool+24768..24832 prior line 32 (COPY:TRANSFER_READ then COPY:TRANSFER_WRITE)";
    let waw = "line 39: WRITE_AFTER_WRITE pool+24832..24848 prior line 26 (COPY:TRANSFER_WRITE then COPY:TRANSFER_WRITE)";
    assert_eq!(summary(NCNN, Semantics::SPEC), vec![war]);
    assert_eq!(summary(NCNN, Semantics::LAYER_1_3_239), vec![war, waw]);
}

#[test]
fn the_reports_fix_removes_both() {
    // The report's fix: before record_clone writes its destination, a buffer
    // barrier from COMPUTE|TRANSFER:SHADER_WRITE|TRANSFER_WRITE to
    // TRANSFER:TRANSFER_WRITE over the destination.
    let fixed = NCNN
        .replace(
            "copy src_data2[0..64] -> data2[0..64]",
            "barrier COMPUTE_SHADER|TRANSFER:SHADER_WRITE|TRANSFER_WRITE -> TRANSFER:TRANSFER_WRITE data2[0..64]\n\
             copy src_data2[0..64] -> data2[0..64]",
        )
        .replace(
            "copy src_scale[0..16] -> scale2[0..16]",
            "barrier COMPUTE_SHADER|TRANSFER:SHADER_WRITE|TRANSFER_WRITE -> TRANSFER:TRANSFER_WRITE scale2[0..64]\n\
             copy src_scale[0..16] -> scale2[0..16]",
        );
    assert_eq!(summary(&fixed, Semantics::SPEC), Vec::<String>::new());
    assert_eq!(summary(&fixed, Semantics::LAYER_1_3_239), Vec::<String>::new());
}
