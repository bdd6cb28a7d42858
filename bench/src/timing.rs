//! How `vksync-bench gpu` and `vksync-bench primitives` time one execution
//! of a program: the one switch (`--method`) and the one timer both use.
//!
//! This module owns [`Method`] and [`Timer`]. A timer holds either the
//! programs prepared once ([`Device::prepare`], every plan and variant,
//! also those with several submits, queues, semaphores and events) or the
//! device and the programs for one [`Device::run`] per execution. Either
//! way an execution gives a GPU span (the latest end timestamp minus the
//! earliest start timestamp over its submissions) and a wall time, so
//! every program of a benchmark is timed the same way. It does not choose
//! programs or compute statistics.

use std::time::Instant;
use vksync::Program;
use vksync_runtime::{compare_readbacks, compare_with_reference, Device, Prepared, QueueMapping};

/// How each execution is timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// Every program recorded once (`Device::prepare`); each execution
    /// submits its batches back to back, behind the start gate where the
    /// runtime uses one, and waits for them: no host time between
    /// submissions.
    Prepared,
    /// One `Device::run` per execution: fresh memory, command buffers,
    /// events and semaphores, and each batch recorded and submitted from
    /// the host in turn (the host's gaps between submissions are in the
    /// span).
    Run,
}

/// The longest one execution may take.
const TIMEOUT_NS: u64 = 60_000_000_000;

/// Times executions of a fixed list of programs.
pub enum Timer<'a> {
    Prepared {
        prepared: Box<Prepared<'a>>,
        /// Programs of several batches the runtime cannot gate on this
        /// device (then the gate is off for all, so that every program is
        /// timed the same way).
        ungated: usize,
    },
    Run {
        device: &'a mut Device,
        programs: &'a [Program],
    },
}

impl<'a> Timer<'a> {
    /// Prepares `programs` (for [`Method::Prepared`], with the start gate
    /// on or off) or keeps them for runs. The gate is on only if every
    /// program of several batches can have it: a gated and an ungated
    /// program would not be timed alike.
    pub fn new(
        device: &'a mut Device,
        programs: &'a [Program],
        method: Method,
        gate: bool,
    ) -> Result<Self, String> {
        Ok(match method {
            Method::Prepared => {
                let mut prepared = device.prepare(programs).map_err(|e| e.to_string())?;
                let ungated = (0..prepared.len())
                    .filter(|&i| prepared.batches(i).unwrap_or(0) > 1 && prepared.gated(i) == Some(false))
                    .count();
                prepared.set_gate(gate && ungated == 0);
                Timer::Prepared {
                    prepared: Box::new(prepared),
                    ungated,
                }
            }
            Method::Run => Timer::Run { device, programs },
        })
    }

    /// Runs program `index` once: its GPU span (`None` without
    /// timestamps) and wall nanoseconds (prepared: submissions to the
    /// fences; run: the whole run, setup included).
    pub fn execute(&mut self, index: usize) -> Result<(Option<u64>, u64), String> {
        match self {
            Timer::Prepared { prepared, .. } => {
                let e = prepared.execute(index, TIMEOUT_NS).map_err(|e| e.to_string())?;
                Ok((e.gpu_ns, e.wall_ns))
            }
            Timer::Run { device, programs } => {
                let t = Instant::now();
                let r = device.run(&programs[index]).map_err(|e| e.to_string())?;
                Ok((r.gpu_span_ns(), t.elapsed().as_nanos() as u64))
            }
        }
    }

    /// One line on how executions are timed, for the output.
    pub fn describe(&self) -> String {
        match self {
            Timer::Prepared { prepared: p, ungated } => {
                let gated = (0..p.len()).filter(|&i| p.gated(i) == Some(true)).count();
                let several = (0..p.len()).filter(|&i| p.batches(i).unwrap_or(0) > 1).count();
                let gate = if several == 0 {
                    "every program is one command buffer".to_string()
                } else if *ungated > 0 {
                    format!(
                        "start gate off for all: {ungated} of {several} programs of several batches cannot be \
                         gated on this device"
                    )
                } else if gated == 0 {
                    "start gate off (--no-gate)".to_string()
                } else {
                    format!("{gated} of {several} programs of several batches behind the start gate")
                };
                format!(
                    "timing: --method prepared: every program recorded once, each execution submits its batches \
                     back to back ({gate}); gpu = latest end - earliest start timestamp over its batches, \
                     wall = first submit to fences"
                )
            }
            Timer::Run { .. } => {
                "timing: --method run: one Device::run per execution (each batch recorded and \
                 submitted in turn); gpu = latest end - earliest start timestamp over its submissions \
                 (transfer-queue submissions carry none), wall includes the run's setup"
                    .to_string()
            }
        }
    }

    /// How many validation messages the prepared programs drew (none are
    /// collected from runs); drains them.
    pub fn take_message_count(&mut self) -> usize {
        match self {
            Timer::Prepared { prepared, .. } => prepared.take_messages().iter().map(Vec::len).sum(),
            Timer::Run { .. } => 0,
        }
    }
}

/// Which device queue runs each model queue of `program` (what both
/// methods use: `QueueMapping::new` with the device's families).
pub fn mapping(device: &Device, program: &Program) -> Result<QueueMapping, String> {
    let info = device.info();
    QueueMapping::new(program, &info.queue_families, info.queue_family).map_err(|(_, e)| e.to_string())
}

/// Runs each of `programs` (ending with host reads) once by `method` and
/// counts the bytes that differ from the CPU reference, per program.
pub fn wrong_bytes(device: &mut Device, programs: &[Program], method: Method) -> Result<Vec<usize>, String> {
    let count = |cmp: Vec<vksync_runtime::ReadbackComparison>| cmp.iter().map(|c| c.mismatches.len()).sum();
    match method {
        Method::Prepared => {
            let mut prepared = device.prepare(programs).map_err(|e| e.to_string())?;
            let mut out = Vec::with_capacity(programs.len());
            for (i, p) in programs.iter().enumerate() {
                prepared.execute(i, TIMEOUT_NS).map_err(|e| e.to_string())?;
                let reads = prepared.readbacks(i).map_err(|e| e.to_string())?;
                out.push(count(compare_readbacks(p, &reads).map_err(|e| e.to_string())?));
            }
            Ok(out)
        }
        Method::Run => programs
            .iter()
            .map(|p| {
                let r = device.run(p).map_err(|e| e.to_string())?;
                Ok(count(compare_with_reference(p, &r).map_err(|e| e.to_string())?))
            })
            .collect(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use vksync_runtime::{test_device, ValidationMode, TEST_DEVICE_HELP};

    /// The device the benchmarks' device tests run on: validation off, as
    /// the benchmarks run; `None` when device tests are skipped.
    pub(crate) fn device() -> Option<Device> {
        test_device(ValidationMode::Off).expect(TEST_DEVICE_HELP)
    }

    /// Times every program twice by each method: every execution has a
    /// GPU span and a wall time.
    pub(crate) fn assert_timed_by_both_methods(device: &mut Device, programs: &[Program]) {
        for method in [Method::Prepared, Method::Run] {
            let mut timer =
                Timer::new(device, programs, method, true).unwrap_or_else(|e| panic!("{method:?}: {e}"));
            for i in 0..programs.len() {
                for _ in 0..2 {
                    let (gpu, wall) = timer
                        .execute(i)
                        .unwrap_or_else(|e| panic!("{method:?}, program {i}: {e}"));
                    assert!(gpu.is_some() && wall > 0, "{method:?}, program {i}");
                }
            }
        }
    }
}
