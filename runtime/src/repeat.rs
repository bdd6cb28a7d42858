//! Benchmarking paths: record once and submit many times, and record only.
//!
//! This module owns two ways of running programs that [`Device::run`] does
//! not offer, both for measurement:
//!
//! * [`Device::prepare`] records each of several programs once, into its own
//!   re-submittable command buffer, over **one shared set of memory
//!   objects** (the programs must share one layout: the same program with
//!   different barriers, as the planners produce). [`Prepared::execute`]
//!   submits one of them, waits for its fence and returns its GPU time (two
//!   timestamps around the whole command buffer) and wall-clock time (submit
//!   to fence signalled). Interleaving `execute(0)`, `execute(1)`, ... over
//!   repetitions compares plans under the same conditions.
//! * [`Device::time_recording`] records a program into a command buffer
//!   repeatedly, never submitting it, and times only the recording
//!   (`vkBeginCommandBuffer` to `vkEndCommandBuffer`, including the
//!   descriptor-set updates each dispatch needs). With and without the
//!   validation layer this isolates the layer's per-command cost.
//!
//! Both accept device commands only (copies, fills, updates, dispatches,
//! barriers, and the no-op `alloc`/`free`): host accesses, submits and waits
//! are [`RuntimeError::NotRepeatable`]. Recording is the same code as
//! [`Device::run`]'s (`Recorder::record`); neither path adds barriers.

use crate::checks::{check_program, CheckedDispatch};
use crate::device::{Device, RunParts};
use crate::error::{Result, RuntimeError, VkContext};
use crate::recorder::{gpu_ns, timestamp_mask, MemoryObject, Recorder};
use crate::resources::{wait_all, Resources};
use crate::validation::{Capture, ValidationMessage};
use ash::vk;
use std::time::{Duration, Instant};
use vksync::{Command, Layout, Program};

/// One timed execution of a prepared command buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Execution {
    /// GPU time between the command buffer's first and last timestamps;
    /// `None` when the queue has no timestamps.
    pub gpu_ns: Option<u64>,
    /// Host time from `vkQueueSubmit2` to the fence wait returning.
    pub wall_ns: u64,
}

/// Programs recorded once, ready to be submitted repeatedly.
pub struct Prepared<'a> {
    res: Resources<'a>,
    queue: vk::Queue,
    capture: &'a Capture,
    cbs: Vec<vk::CommandBuffer>,
    /// Signalled by each execution; unsignalled whenever `pending` is
    /// `None`.
    fence: vk::Fence,
    /// The program whose execution was submitted and not yet seen
    /// complete (its fence wait timed out or failed). While it is set, no
    /// command buffer may be submitted (the fence is in use) and the one it
    /// names may not be re-recorded or freed.
    pending: Option<usize>,
    timestamps: bool,
    timestamp_period: f32,
    timestamp_mask: u64,
    recorded: Vec<usize>,
    memory: Vec<MemoryObject>,
    /// Messages that arrived while recording each program, then those of
    /// each program's executions, by program index.
    messages: Vec<Vec<ValidationMessage>>,
}

/// What [`Device::time_recording`] measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordTiming {
    /// Per repetition: nanoseconds from `vkBeginCommandBuffer` to the return
    /// of `vkEndCommandBuffer`.
    pub rep_ns: Vec<u64>,
    /// Program commands recorded per repetition (device commands and
    /// barriers; `alloc`/`free` excluded).
    pub recorded: usize,
    /// Validation messages that arrived while recording (all repetitions).
    pub messages: Vec<ValidationMessage>,
}

/// Rejects commands that need the host or the queue mid-program.
fn check_repeatable(program: &Program) -> Result<usize> {
    let mut recorded = 0;
    for (ci, c) in program.commands().iter().enumerate() {
        match c {
            Command::HostRead { .. } | Command::HostWrite { .. } | Command::Submit(_) | Command::Wait(_) => {
                return Err(RuntimeError::NotRepeatable {
                    command: ci,
                    keyword: c.keyword(),
                })
            }
            Command::Alloc { .. } | Command::Free { .. } => {}
            _ => recorded += 1,
        }
    }
    Ok(recorded)
}

/// Records every command of `program` into `cb` (recording state), stamping
/// validation messages with the command index.
fn record_all(
    rec: &Recorder<'_>,
    capture: &Capture,
    cb: vk::CommandBuffer,
    program: &Program,
    layout: &Layout,
    dispatches: &[Option<CheckedDispatch>],
    kernels: &crate::kernels::Kernels,
) -> Result<()> {
    for (ci, c) in program.commands().iter().enumerate() {
        if matches!(c, Command::Alloc { .. } | Command::Free { .. }) {
            continue;
        }
        capture.set_command(Some(ci));
        rec.record(cb, c, ci, layout, dispatches[ci].as_ref(), kernels)?;
    }
    capture.set_command(None);
    Ok(())
}

impl Device {
    /// Records each program once, into its own command buffer, over one
    /// shared set of memory objects (all device-local, each as large as the
    /// largest program needs it), with a timestamp before and after. The
    /// programs must have the same memory objects (the same program with
    /// other barriers, or scheduled: blobs placed elsewhere in their pools)
    /// and only device commands.
    pub fn prepare(&mut self, programs: &[Program]) -> Result<Prepared<'_>> {
        let mut layouts = Vec::with_capacity(programs.len());
        let mut plans = Vec::with_capacity(programs.len());
        let mut recorded = Vec::with_capacity(programs.len());
        for (i, p) in programs.iter().enumerate() {
            recorded.push(check_repeatable(p)?);
            p.require_single_queue()?;
            let checked = check_program(p, &self.info.limits)?;
            // One set of memory objects serves every program: the same
            // memory objects (a schedule may place blobs elsewhere in a
            // pool, and make the pool larger).
            if let Some(first) = layouts.first() {
                let first: &vksync::Layout = first;
                if first.memory_sizes.len() != checked.layout.memory_sizes.len() {
                    return Err(RuntimeError::LayoutMismatch { program: i });
                }
            }
            plans.push(checked.dispatches);
            layouts.push(checked.layout);
        }

        let RunParts {
            device,
            capture,
            allocator,
            kernels,
            queue,
            queues: _,
            info,
            in_flight,
            fence_timeout,
        } = self.begin_run()?;

        let mut res = Resources::new(device, allocator, in_flight);
        let n_mem = layouts.first().map_or(0, |l| l.memory_sizes.len());
        // Each memory object as large as the largest program needs it.
        let merged = layouts.first().map(|l| {
            let mut m: vksync::Layout = l.clone();
            for other in &layouts[1..] {
                for (size, &o) in m.memory_sizes.iter_mut().zip(&other.memory_sizes) {
                    *size = (*size).max(o);
                }
            }
            m
        });
        let memory = match &merged {
            Some(l) => res.create_memory(l, &vec![false; n_mem], &vec![false; n_mem])?,
            None => Vec::new(),
        };
        let timestamps = info.timestamp_valid_bits > 0;
        res.create_pools(
            info.queue_family,
            vk::CommandPoolCreateFlags::empty(),
            if timestamps { 2 * programs.len() as u32 } else { 0 },
        )?;
        // SAFETY: valid device.
        let fence =
            unsafe { device.create_fence(&vk::FenceCreateInfo::default(), None) }.ctx("vkCreateFence")?;
        res.fences.borrow_mut().push(fence);

        let mut cbs = Vec::with_capacity(programs.len());
        let mut messages = Vec::with_capacity(programs.len());
        {
            let rec = Recorder {
                device,
                res: &res,
                fence_timeout,
                timestamp_period: info.timestamp_period,
                mapping: None,
            };
            for (i, p) in programs.iter().enumerate() {
                // SAFETY: the pool is live and used only from this thread.
                let cb = unsafe {
                    device.allocate_command_buffers(
                        &vk::CommandBufferAllocateInfo::default()
                            .command_pool(res.command_pool)
                            .level(vk::CommandBufferLevel::PRIMARY)
                            .command_buffer_count(1),
                    )
                }
                .ctx("vkAllocateCommandBuffers")?[0];
                cbs.push(cb);
                // SAFETY: a freshly allocated command buffer; no
                // ONE_TIME_SUBMIT, so it can be submitted again once done.
                unsafe { device.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default()) }
                    .ctx("vkBeginCommandBuffer")?;
                let first = 2 * i as u32;
                if timestamps {
                    // SAFETY: recording state; queries [first, first+2)
                    // exist and belong to this command buffer only.
                    unsafe {
                        device.cmd_reset_query_pool(cb, res.query_pool, first, 2);
                        device.cmd_write_timestamp2(
                            cb,
                            vk::PipelineStageFlags2::TOP_OF_PIPE,
                            res.query_pool,
                            first,
                        );
                    }
                }
                record_all(&rec, capture, cb, p, &layouts[i], &plans[i], kernels)?;
                messages.push(capture.take());
                if timestamps {
                    // SAFETY: recording state; the query was reset above.
                    unsafe {
                        device.cmd_write_timestamp2(
                            cb,
                            vk::PipelineStageFlags2::BOTTOM_OF_PIPE,
                            res.query_pool,
                            first + 1,
                        )
                    };
                }
                // SAFETY: recording state.
                unsafe { device.end_command_buffer(cb) }.ctx("vkEndCommandBuffer")?;
            }
        }
        if let Some(last) = messages.last_mut() {
            last.extend(capture.take());
        }
        Ok(Prepared {
            res,
            queue,
            capture,
            cbs,
            fence,
            pending: None,
            timestamps,
            timestamp_period: info.timestamp_period,
            timestamp_mask: timestamp_mask(info.timestamp_valid_bits),
            recorded,
            memory,
            messages,
        })
    }

    /// Records `program` `reps` times into a fresh command buffer each time
    /// and never submits it; times each recording. The program must hold
    /// device commands only.
    pub fn time_recording(&mut self, program: &Program, reps: usize) -> Result<RecordTiming> {
        let recorded = check_repeatable(program)?;
        program.require_single_queue()?;
        let checked = check_program(program, &self.info.limits)?;
        let (layout, dispatches) = (checked.layout, checked.dispatches);

        let RunParts {
            device,
            capture,
            allocator,
            kernels,
            queue: _,
            queues: _,
            info,
            in_flight,
            fence_timeout,
        } = self.begin_run()?;

        let mut res = Resources::new(device, allocator, in_flight);
        let n_mem = layout.memory_sizes.len();
        res.create_memory(&layout, &vec![false; n_mem], &vec![false; n_mem])?;
        res.create_pools(info.queue_family, vk::CommandPoolCreateFlags::TRANSIENT, 0)?;
        let rec = Recorder {
            device,
            res: &res,
            fence_timeout,
            timestamp_period: info.timestamp_period,
            mapping: None,
        };
        let mut rep_ns = Vec::with_capacity(reps);
        let mut messages = Vec::new();
        for _ in 0..reps {
            // SAFETY: the pool is live and used only from this thread.
            let cb = unsafe {
                device.allocate_command_buffers(
                    &vk::CommandBufferAllocateInfo::default()
                        .command_pool(res.command_pool)
                        .level(vk::CommandBufferLevel::PRIMARY)
                        .command_buffer_count(1),
                )
            }
            .ctx("vkAllocateCommandBuffers")?[0];
            let t = Instant::now();
            // SAFETY: a freshly allocated command buffer in the initial state.
            unsafe {
                device.begin_command_buffer(
                    cb,
                    &vk::CommandBufferBeginInfo::default()
                        .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
                )
            }
            .ctx("vkBeginCommandBuffer")?;
            record_all(&rec, capture, cb, program, &layout, &dispatches, kernels)?;
            // SAFETY: recording state.
            unsafe { device.end_command_buffer(cb) }.ctx("vkEndCommandBuffer")?;
            rep_ns.push(t.elapsed().as_nanos() as u64);
            messages.extend(capture.take());
            // SAFETY: the command buffer was never submitted, so neither it
            // nor the descriptor sets it references are in use.
            unsafe {
                device.free_command_buffers(res.command_pool, &[cb]);
                device.reset_command_pool(res.command_pool, vk::CommandPoolResetFlags::RELEASE_RESOURCES)
            }
            .ctx("vkResetCommandPool")?;
            // No set is in use: the command buffer that used them was
            // never submitted and is freed.
            res.descriptors.borrow_mut().reset(device)?;
        }
        messages.extend(capture.take());
        Ok(RecordTiming {
            rep_ns,
            recorded,
            messages,
        })
    }
}

impl Prepared<'_> {
    /// The number of prepared programs.
    pub fn len(&self) -> usize {
        self.cbs.len()
    }

    /// Whether no program was prepared.
    pub fn is_empty(&self) -> bool {
        self.cbs.is_empty()
    }

    /// Program commands recorded into program `index`'s command buffer.
    pub fn recorded(&self, index: usize) -> Option<usize> {
        self.recorded.get(index).copied()
    }

    /// The shared memory objects, indexed by `MemId`.
    pub fn memory(&self) -> &[MemoryObject] {
        &self.memory
    }

    /// Validation messages so far (recording and executions), by program
    /// index (command indices refer to that program); drains them.
    pub fn take_messages(&mut self) -> Vec<Vec<ValidationMessage>> {
        if let Some(last) = self.messages.last_mut() {
            last.extend(self.capture.take());
        }
        self.messages.iter_mut().map(std::mem::take).collect()
    }

    /// Submits program `index`'s command buffer, waits for it (at most
    /// `timeout_ns`) and reads its timestamps.
    ///
    /// When the wait times out this is [`RuntimeError::ExecutionTimeout`]
    /// and the execution stays pending: the next call first waits for it
    /// (at most its own `timeout_ns`) and, if it is still running, fails
    /// with [`RuntimeError::StillRunning`] without submitting anything.
    pub fn execute(&mut self, index: usize, timeout_ns: u64) -> Result<Execution> {
        let Some(&cb) = self.cbs.get(index) else {
            return Err(RuntimeError::NoSuchProgram {
                index,
                count: self.cbs.len(),
            });
        };
        let timeout = Duration::from_nanos(timeout_ns);
        self.settle(timeout)?;
        let d = self.res.device;
        let cb_info = [vk::CommandBufferSubmitInfo::default().command_buffer(cb)];
        let submit = [vk::SubmitInfo2::default().command_buffer_infos(&cb_info)];
        let t = Instant::now();
        // SAFETY: the command buffer is executable (ended in `prepare`) and
        // not pending: `settle` saw the last execution's fence signalled
        // (executions are one at a time, all on this fence), and it was
        // recorded without ONE_TIME_SUBMIT. The fence is unsignalled
        // (created so, reset after each completed execution) and unused.
        unsafe { d.queue_submit2(self.queue, &submit, self.fence) }.ctx("vkQueueSubmit2")?;
        self.pending = Some(index);
        self.res
            .submitted(self.fence, format!("an execution of prepared program {index}"));
        if !wait_all(d, &[self.fence], timeout)? {
            return Err(RuntimeError::ExecutionTimeout {
                program: index,
                timeout,
            });
        }
        let wall_ns = t.elapsed().as_nanos() as u64;
        self.complete()?;
        let gpu_ns = if self.timestamps {
            Some(gpu_ns(
                d,
                self.res.query_pool,
                index,
                self.timestamp_mask,
                self.timestamp_period,
            )?)
        } else {
            None
        };
        self.messages[index].extend(self.capture.take());
        Ok(Execution { gpu_ns, wall_ns })
    }

    /// Waits (at most `timeout`) for an execution left pending by an
    /// earlier call; an error if it is still running.
    fn settle(&mut self, timeout: Duration) -> Result<()> {
        let Some(program) = self.pending else {
            return Ok(());
        };
        if !wait_all(self.res.device, &[self.fence], timeout)? {
            return Err(RuntimeError::StillRunning {
                what: format!("an execution of prepared program {program} that timed out"),
                waited: timeout,
            });
        }
        self.complete()
    }

    /// After the fence was seen signalled: nothing is pending any more, and
    /// the fence is made ready for the next execution.
    fn complete(&mut self) -> Result<()> {
        self.pending = None;
        self.res.finished(self.fence);
        // SAFETY: the fence is signalled, so no queue operation uses it.
        unsafe { self.res.device.reset_fences(&[self.fence]) }.ctx("vkResetFences")
    }
}
