//! Traces that once broke the printer/parser round trip stay fixed.

use vksync::trace;

#[test]
fn fuzz_regressions_round_trip() {
    // Inputs the parser fuzz target once failed on (fuzz/regressions/).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).expect("fuzz/regressions exists") {
        let text = std::fs::read_to_string(entry.expect("readable entry").path()).expect("utf-8 trace");
        let t = trace::parse(&text).expect("regression parses");
        let again = trace::parse(&trace::print(&t.program)).expect("printed trace parses");
        assert_eq!(again.program, t.program);
        seen += 1;
    }
    assert!(seen > 0);
}
