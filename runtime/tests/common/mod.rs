//! Shared helpers for the device tests.
//!
//! Device tests run on whatever `VKSYNC_DEVICE` picks (lavapipe in CI) with
//! validation required. They fail loudly when Vulkan, a device or the
//! validation layer is missing, unless `VKSYNC_SKIP_DEVICE_TESTS=1`.

#![allow(dead_code)]

use vksync::Program;
use vksync_runtime::{compare_with_reference, Device, DeviceOptions, RunResult, ValidationMode};

/// A device with validation required, or `None` when device tests are
/// skipped on purpose.
pub fn device() -> Option<Device> {
    if std::env::var("VKSYNC_SKIP_DEVICE_TESTS").as_deref() == Ok("1") {
        eprintln!("VKSYNC_SKIP_DEVICE_TESTS=1: skipping a device test");
        return None;
    }
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        // Mesa's lavapipe warns without it; harmless but noisy.
        std::env::set_var("XDG_RUNTIME_DIR", "/tmp");
    }
    let options = DeviceOptions {
        validation: ValidationMode::Required,
        ..DeviceOptions::from_env()
    };
    match Device::new(options) {
        Ok(d) => Some(d),
        Err(e) => panic!(
            "device tests need Vulkan (libvulkan1, mesa-vulkan-drivers, vulkan-validationlayers); \
             set VKSYNC_SKIP_DEVICE_TESTS=1 to skip them: {e}"
        ),
    }
}

pub fn parse(text: &str) -> vksync::trace::Trace {
    vksync::trace::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Asserts no validation message, host reads equal to the reference, and
/// every read byte defined (so the comparison is not vacuous).
pub fn assert_matches_reference(program: &Program, result: &RunResult) {
    assert!(result.validation, "validation must be on");
    assert!(
        result.is_clean(),
        "validation messages:\n{}",
        result
            .messages
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let cmp = compare_with_reference(program, result).expect("reference runs");
    assert!(!cmp.is_empty(), "the program has host reads");
    for c in cmp {
        assert_eq!(
            c.undefined, 0,
            "read at command {} has undefined bytes",
            c.command
        );
        assert!(
            c.mismatches.is_empty(),
            "read at command {} mismatches at {:?}",
            c.command,
            c.mismatches
        );
    }
}
