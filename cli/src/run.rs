//! `vksync run`: plan a trace, record it on a Vulkan device, run it, and
//! compare the bytes the host reads back with the CPU reference.
//!
//! The device side lives in the `vksync-runtime` crate, which does not
//! expose a device API yet; until it does, this subcommand reports that it
//! is unavailable (exit status 3) after validating and planning the trace,
//! so a malformed trace still gets its usual error and exit status 2.

use crate::input::Source;
use crate::Status;
use std::path::Path;
use vksync::plan::PlanOptions;

pub fn run(file: &Path, opts: PlanOptions) -> Status {
    let source = match Source::load(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return Status::BadInput;
        }
    };
    if let Err(e) = vksync::plan::plan(&source.trace.program, opts) {
        eprintln!(
            "{}",
            crate::input::program_error(&source.name, &source.text, &source.trace, e)
        );
        return Status::BadInput;
    }
    eprintln!(
        "{}: error: `vksync run` is not available yet: the vksync-runtime crate has no device API in this build",
        source.name
    );
    Status::NoDevice
}
