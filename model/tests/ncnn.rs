//! The ncnn report's scenario: the checker reports exactly the two hazards
//! the validation layer reported, over the logged ranges, and nothing once
//! the report's fix barrier is added.

use vksync::{check, trace, HazardKind};

const NCNN: &str = include_str!("../../examples/ncnn-batch-scale.trace");

fn summary(text: &str) -> Vec<String> {
    let t = trace::parse(text).expect("example parses");
    check(&t.program)
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
fn reports_exactly_the_two_logged_hazards() {
    assert_eq!(
        summary(NCNN),
        vec![
            "line 37: WRITE_AFTER_READ pool+24768..24832 prior line 32 (COPY:TRANSFER_READ then COPY:TRANSFER_WRITE)",
            "line 39: WRITE_AFTER_WRITE pool+24832..24848 prior line 26 (COPY:TRANSFER_WRITE then COPY:TRANSFER_WRITE)",
        ]
    );
    let t = trace::parse(NCNN).unwrap();
    let kinds: Vec<_> = check(&t.program).unwrap().iter().map(|h| h.kind).collect();
    assert_eq!(
        kinds,
        vec![HazardKind::WriteAfterRead, HazardKind::WriteAfterWrite]
    );
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
    assert_eq!(summary(&fixed), Vec::<String>::new());
}
