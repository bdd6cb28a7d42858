//! The fast checker against the definitional semantics on random programs
//! rich in synchronization (`vksync_proptests::sync`): the set of
//! (command, kind, bytes) must be equal.
//!
//! Cases: `PROPTEST_CASES` (default 512).

use proptest::prelude::*;
use proptest::test_runner::Config;
use vksync::spec::{races, Reading};
use vksync_proptests::cases;
use vksync_proptests::sync::{build_sync, keys_of_hazards, keys_of_races, show_difference, sync_ops};

proptest! {
    #![proptest_config(Config { cases: cases(512), ..Config::default() })]

    #[test]
    fn fast_checker_equals_definitional_semantics(ops in sync_ops(24)) {
        let p = build_sync(&ops);
        let fast = keys_of_hazards(&vksync::check(&p).unwrap());
        let spec = keys_of_races(&races(&p, Reading::MemoryModel).unwrap());
        prop_assert!(fast == spec, "{}\nprogram:\n{}", show_difference(&p, &fast, &spec), vksync::trace::print(&p));
    }
}
