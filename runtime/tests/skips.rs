//! `VKSYNC_SKIP_DEVICE_TESTS=1` must never pass a device test silently:
//! each skip is announced on stderr with the test's name and counted.
//!
//! The environment is not changed in this process (other test threads may
//! read it): the test binary runs itself again, filtered to `probe`, with
//! the variable set in the child's environment only.

use std::process::Command;

/// A stand-in device test: skips when told to, otherwise says it ran.
#[test]
fn probe() {
    if vksync_runtime::skip_device_test() {
        return;
    }
    eprintln!("probe ran");
}

#[test]
fn skips_are_announced_with_the_test_name_and_counted() {
    let skipped =
        "SKIPPED (no Vulkan device, VKSYNC_SKIP_DEVICE_TESTS=1): probe (1 device test skipped so far)\n";
    // (VKSYNC_SKIP_DEVICE_TESTS, what the child's stderr must hold)
    let cases = [
        (Some("1"), skipped),
        (Some("0"), "probe ran\n"),
        (Some("yes"), "probe ran\n"),
        (None, "probe ran\n"),
    ];
    // `current_exe` needs /proc; a chroot may lack it, and argv[0] works
    // there as well.
    let exe = std::env::current_exe()
        .ok()
        .or_else(|| std::env::args_os().next().map(Into::into))
        .expect("the test binary's path");
    for (value, expected) in cases {
        let mut child = Command::new(&exe);
        child.args(["--exact", "probe", "--nocapture", "--test-threads=1"]);
        match value {
            Some(v) => child.env("VKSYNC_SKIP_DEVICE_TESTS", v),
            None => child.env_remove("VKSYNC_SKIP_DEVICE_TESTS"),
        };
        let out = child.output().expect("run the test binary");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{value:?}: {stderr}");
        assert_eq!(stderr, expected, "{value:?}");
    }
}
