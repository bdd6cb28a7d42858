//! `vksync::trace::print` of a program built with the API (the suites'
//! generators build every program through `Program`'s checked builder
//! methods, blobs by `alloc`) parses back to the same program, object ids
//! included. The fuzz target and `model/tests/trace_roundtrip.rs` check the
//! same for parsed programs. Case count: `PROPTEST_CASES` (default 256).

use proptest::prelude::*;
use vksync_proptests::programs;
use vksync_proptests::sync::{build_sync, sync_ops};

fn assert_round_trip(p: &vksync::Program) -> Result<(), TestCaseError> {
    let text = vksync::trace::print(p);
    let back = vksync::trace::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert!(back.program == *p, "printed:\n{text}");
    Ok(())
}

proptest! {
    #![proptest_config(vksync_proptests::config(256))]

    #[test]
    fn planner_generator_programs_print_and_parse_back(g in programs(40)) {
        assert_round_trip(&g.program)?;
    }

    #[test]
    fn synchronization_generator_programs_print_and_parse_back(ops in sync_ops(24)) {
        assert_round_trip(&build_sync(&ops))?;
    }
}
