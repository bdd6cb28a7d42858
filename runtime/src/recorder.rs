//! Runs a [`Program`] on a [`Device`]: checks it, places its memory,
//! records its commands as written, submits, waits and reads back.
//!
//! This module owns the run-time resources of one run (one `VkBuffer` per
//! memory object of the model's [`Layout`], descriptor sets, command
//! buffers, fences, timestamp queries), the submission model, host accesses
//! through mapped memory, and the run's result. It records the barriers the
//! program carries and adds none: choosing barriers is the planner's job
//! ([`run_planned`] calls it first). Model-to-Vulkan barrier conversion is
//! `vksync::ash`.
//!
//! Submission model: commands recorded since the last `submit` go into one
//! command buffer, submitted with a fence at `submit`; `wait` waits for all
//! fences. Host accesses happen at their place in program order on the
//! host; so that they see (and are seen by) exactly the device commands
//! before them in program order, a host access with recorded but
//! unsubmitted commands before it submits them first, and one with
//! unwaited submissions waits first; both are reported as [`RunNote`]s. A
//! program that ends with unsubmitted or unwaited work is submitted and
//! waited for at the end.

use crate::checks::{
    check_program, check_reference_memory, host_memory_available, CheckError, CheckedDispatch, CheckedProgram,
};
use crate::device::{Device, RunParts};
use crate::error::{Result, RuntimeError, VkContext};
use crate::kernels::PUSH_CONSTANT_WORDS;
use crate::resources::{signalled, wait_all, Resources};
use crate::validation::ValidationMessage;
use ash::vk;
use std::time::Duration;
use vksync::plan::{plan, Plan, PlanOptions};
use vksync::reference::{self, pattern_bytes};
use vksync::{Command, Layout, MemId, Program};

/// What one host read saw on the device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceReadback {
    /// Index of the `host-read` command.
    pub command: usize,
    pub bytes: Vec<u8>,
}

/// One command buffer submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// The `submit` command, or the host access before which (or `None`:
    /// the program end at which) the runtime submitted implicitly.
    pub command: Option<usize>,
    /// Program commands recorded into it.
    pub recorded: usize,
    /// GPU time from the first to the last timestamp of the command buffer,
    /// when the queue supports timestamps.
    pub gpu_ns: Option<u64>,
}

/// Something the runtime did that the program did not spell out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunNote {
    /// Submitted recorded commands before a host access (or at the end).
    ImplicitSubmit { before: Option<usize> },
    /// Waited for submissions before a host access (or at the end).
    ImplicitWait { before: Option<usize> },
    /// A dispatch binding's offset was not a multiple of
    /// `minStorageBufferOffsetAlignment`: it is bound from `bound_offset`
    /// (rounded down) and the shader skips the difference, so validation
    /// sees a descriptor range wider than the binding's region.
    WidenedBinding {
        command: usize,
        binding: usize,
        offset: u64,
        bound_offset: u64,
    },
}

/// One memory object of the run: the `VkBuffer` behind `MemId(index)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryObject {
    pub size: u64,
    /// Host-visible (the program reads or writes it from the host).
    pub host_visible: bool,
}

/// The outcome of a run.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub device_name: String,
    /// Per `host-read` command, in program order.
    pub readbacks: Vec<DeviceReadback>,
    /// Validation messages captured during the run (empty with validation off).
    pub messages: Vec<ValidationMessage>,
    pub submissions: Vec<Submission>,
    pub notes: Vec<RunNote>,
    /// The model's placement of every object; `layout.place(blob)` says
    /// which memory object (and offset) each blob lived on.
    pub layout: Layout,
    /// Indexed by `MemId`.
    pub memory: Vec<MemoryObject>,
    /// Whether validation was on, so "no messages" means something.
    pub validation: bool,
}

impl RunResult {
    /// No validation message of any kind (sync hazards or core errors).
    pub fn is_clean(&self) -> bool {
        self.messages.is_empty()
    }

    /// Synchronization-validation hazard reports only.
    pub fn hazards(&self) -> impl Iterator<Item = &ValidationMessage> {
        self.messages.iter().filter(|m| m.is_sync_hazard())
    }

    /// Total GPU time over submissions, if every one has a timestamp.
    pub fn gpu_ns_total(&self) -> Option<u64> {
        self.submissions.iter().map(|s| s.gpu_ns).sum()
    }

    /// The readback of a `host-read` command.
    pub fn readback(&self, command: usize) -> Option<&[u8]> {
        self.readbacks
            .iter()
            .find(|r| r.command == command)
            .map(|r| r.bytes.as_slice())
    }
}

/// A device readback compared with the CPU reference's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadbackComparison {
    pub command: usize,
    pub len: usize,
    /// Bytes the reference leaves undefined (not compared).
    pub undefined: usize,
    /// Offsets within the read where device and reference differ.
    pub mismatches: Vec<usize>,
}

/// Runs the CPU reference on `program` and compares each host read.
///
/// The reference holds every object's bytes in host memory: a program too
/// large for the host is [`CheckError::HostMemory`](crate::CheckError)
/// (see [`check_reference_memory`]) rather than an abort.
pub fn compare_with_reference(program: &Program, result: &RunResult) -> Result<Vec<ReadbackComparison>> {
    check_reference_memory(program, host_memory_available())?;
    let expected = reference::run(program)?;
    Ok(expected
        .iter()
        .map(|r| {
            let device = result.readback(r.command).unwrap_or(&[]);
            let mut mismatches = reference::mismatches(&r.bytes, device);
            // A missing or short device read mismatches on every defined byte.
            mismatches.extend((device.len()..r.bytes.len()).filter(|&i| r.bytes[i].is_some()));
            ReadbackComparison {
                command: r.command,
                len: r.bytes.len(),
                undefined: r.bytes.iter().filter(|b| b.is_none()).count(),
                mismatches,
            }
        })
        .collect())
}

/// Plans `program`'s barriers with `opts` and runs the planned program.
/// Message and readback command indices refer to `plan.program`.
pub fn run_planned(device: &mut Device, program: &Program, opts: PlanOptions) -> Result<(Plan, RunResult)> {
    let planned = plan(program, opts)?;
    let result = device.run(&planned.program)?;
    Ok((planned, result))
}

/// The command buffer being recorded.
struct Open {
    cb: vk::CommandBuffer,
    /// Program commands recorded into it so far.
    recorded: usize,
    /// The first and last of them.
    first: usize,
    last: usize,
}

/// A submission not yet waited for.
struct Pending {
    fence: vk::Fence,
    /// Index into `Queue::submissions`.
    index: usize,
    /// The first and last program command of its command buffer.
    first: usize,
    last: usize,
}

/// Where the open command buffer and in-flight submissions stand.
struct Queue {
    open: Option<Open>,
    pending: Vec<Pending>,
    submissions: Vec<Submission>,
}

impl Device {
    /// Runs a program as written (its own barriers, no others).
    ///
    /// Bad programs are rejected before any Vulkan work by
    /// [`check_program`] with the device's limits: the model's
    /// [`vksync::resolve`] checks plus kernel arguments, binding alignment
    /// and sizes, and memory objects the device cannot hold.
    pub fn run(&mut self, program: &Program) -> Result<RunResult> {
        let CheckedProgram {
            layout,
            dispatches,
            host_read,
            host_write,
            mut notes,
        } = check_program(program, &self.info.limits)?;
        // Upper bound on command buffers: one per submit, per host access
        // and the final one.
        let max_cbs = program
            .commands()
            .iter()
            .filter(|c| {
                matches!(
                    c,
                    Command::Submit(_) | Command::HostRead { .. } | Command::HostWrite { .. }
                )
            })
            .count() as u32
            + 1;

        let RunParts {
            device,
            capture,
            allocator,
            kernels,
            queue: vk_queue,
            info,
            in_flight,
            fence_timeout,
        } = self.begin_run()?;

        let mut res = Resources::new(device, allocator, in_flight);
        let memory = res.create_memory(&layout, &host_read, &host_write)?;
        res.create_pools(
            info.queue_family,
            vk::CommandPoolCreateFlags::TRANSIENT,
            if info.timestamp_valid_bits > 0 {
                2 * max_cbs
            } else {
                0
            },
        )?;
        let timestamps = info.timestamp_valid_bits > 0;
        let mut q = Queue {
            open: None,
            pending: Vec::new(),
            submissions: Vec::new(),
        };
        let mut readbacks = Vec::new();
        let mut messages = Vec::new();

        let rec = Recorder {
            device,
            res: &res,
            queue: vk_queue,
            fence_timeout,
            timestamps,
            timestamp_period: info.timestamp_period,
            timestamp_mask: if info.timestamp_valid_bits >= 64 {
                u64::MAX
            } else {
                (1u64 << info.timestamp_valid_bits) - 1
            },
        };
        for (ci, c) in program.commands().iter().enumerate() {
            capture.set_command(Some(ci));
            match c {
                Command::Alloc { .. } | Command::Free { .. } => {}
                Command::Submit(_) => rec.submit(&mut q, Some(ci))?,
                Command::Wait(_) => rec.wait(&mut q)?,
                Command::HostWrite { dst, .. } => {
                    rec.settle(&mut q, Some(ci), &mut notes)?;
                    let m = layout.locate(*dst).expect("region of the resolved program");
                    let data = pattern_bytes(c, dst.range.len());
                    with_mapped(&res, m.mem, |mapped| {
                        mapped[m.range.start as usize..m.range.end as usize].copy_from_slice(&data)
                    })?;
                }
                Command::HostRead { src } => {
                    rec.settle(&mut q, Some(ci), &mut notes)?;
                    let m = layout.locate(*src).expect("region of the resolved program");
                    let read = |mapped: &mut [u8]| {
                        let src = &mapped[m.range.start as usize..m.range.end as usize];
                        let mut bytes = Vec::new();
                        bytes.try_reserve_exact(src.len()).ok()?;
                        bytes.extend_from_slice(src);
                        Some(bytes)
                    };
                    let bytes = with_mapped(&res, m.mem, read)?.ok_or(RuntimeError::Check {
                        at: vksync::Location::Command(ci),
                        source: CheckError::ReadbackTooLarge { len: m.range.len() },
                    })?;
                    readbacks.push(DeviceReadback { command: ci, bytes });
                }
                _ => {
                    let cb = rec.open(&mut q, ci)?;
                    rec.record(cb, c, ci, &layout, dispatches[ci].as_ref(), kernels)?;
                }
            }
            messages.extend(capture.take());
        }
        capture.set_command(None);
        rec.settle(&mut q, None, &mut notes)?;
        messages.extend(capture.take());
        drop(res);
        Ok(RunResult {
            device_name: info.name.clone(),
            readbacks,
            messages,
            submissions: q.submissions,
            notes,
            layout,
            memory,
            validation: info.validation,
        })
    }
}

/// Runs `f` on a memory object's mapped bytes (the whole `VkBuffer`).
/// The GPU time of the command buffer whose start and end timestamps are
/// queries `2 * index` and `2 * index + 1`, in nanoseconds. Call only after
/// that submission completed.
pub(crate) fn gpu_ns(
    d: &ash::Device,
    pool: vk::QueryPool,
    index: usize,
    mask: u64,
    period: f32,
) -> Result<u64> {
    let mut ticks = [0u64; 2];
    // SAFETY: both queries were written by a completed submission (the
    // caller waited for its fence), and `ticks` holds two 64-bit results.
    unsafe {
        d.get_query_pool_results(
            pool,
            2 * index as u32,
            &mut ticks,
            vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
        )
    }
    .ctx("vkGetQueryPoolResults")?;
    let delta = (ticks[1] & mask).wrapping_sub(ticks[0] & mask) & mask;
    Ok((delta as f64 * f64::from(period)) as u64)
}

fn with_mapped<T>(res: &Resources<'_>, mem: MemId, f: impl FnOnce(&mut [u8]) -> T) -> Result<T> {
    let mut allocations = res.allocations.borrow_mut();
    let slice = allocations
        .get_mut(mem.0 as usize)
        .and_then(|a| a.as_mut())
        .and_then(|a| a.mapped_slice_mut())
        .ok_or(RuntimeError::NotMapped {
            mem: mem.0,
            what: "host access".to_string(),
        })?;
    Ok(f(slice))
}

/// Recording helpers over one run's resources.
pub(crate) struct Recorder<'a> {
    pub(crate) device: &'a ash::Device,
    pub(crate) res: &'a Resources<'a>,
    pub(crate) queue: vk::Queue,
    /// How long a fence wait may take.
    pub(crate) fence_timeout: Duration,
    pub(crate) timestamps: bool,
    pub(crate) timestamp_period: f32,
    pub(crate) timestamp_mask: u64,
}

impl Recorder<'_> {
    fn buffer(&self, mem: MemId) -> vk::Buffer {
        self.res.buffers[mem.0 as usize]
    }

    /// The open command buffer, beginning a new one if needed, for
    /// recording program command `ci`.
    fn open(&self, q: &mut Queue, ci: usize) -> Result<vk::CommandBuffer> {
        if let Some(open) = q.open.as_mut() {
            open.recorded += 1;
            open.last = ci;
            return Ok(open.cb);
        }
        let d = self.device;
        // SAFETY: the pool is live and used only from this thread.
        let cbs = unsafe {
            d.allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(self.res.command_pool)
                    .level(vk::CommandBufferLevel::PRIMARY)
                    .command_buffer_count(1),
            )
        }
        .ctx("vkAllocateCommandBuffers")?;
        let cb = cbs[0];
        // SAFETY: a freshly allocated command buffer in the initial state.
        unsafe {
            d.begin_command_buffer(
                cb,
                &vk::CommandBufferBeginInfo::default().flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
            )
        }
        .ctx("vkBeginCommandBuffer")?;
        if self.timestamps {
            let first = 2 * q.submissions.len() as u32;
            // SAFETY: recording state; queries [first, first+2) exist
            // (the pool holds two per possible command buffer).
            unsafe {
                d.cmd_reset_query_pool(cb, self.res.query_pool, first, 2);
                d.cmd_write_timestamp2(
                    cb,
                    vk::PipelineStageFlags2::TOP_OF_PIPE,
                    self.res.query_pool,
                    first,
                );
            }
        }
        q.open = Some(Open {
            cb,
            recorded: 1,
            first: ci,
            last: ci,
        });
        Ok(cb)
    }

    /// Ends and submits the open command buffer, if any.
    fn submit(&self, q: &mut Queue, command: Option<usize>) -> Result<()> {
        let Some(Open {
            cb,
            recorded,
            first,
            last,
        }) = q.open.take()
        else {
            return Ok(());
        };
        let d = self.device;
        let index = q.submissions.len();
        if self.timestamps {
            // SAFETY: recording state; the query was reset in `open`.
            unsafe {
                d.cmd_write_timestamp2(
                    cb,
                    vk::PipelineStageFlags2::BOTTOM_OF_PIPE,
                    self.res.query_pool,
                    2 * index as u32 + 1,
                )
            };
        }
        // SAFETY: recording state.
        unsafe { d.end_command_buffer(cb) }.ctx("vkEndCommandBuffer")?;
        // SAFETY: valid device.
        let fence = unsafe { d.create_fence(&vk::FenceCreateInfo::default(), None) }.ctx("vkCreateFence")?;
        // Registered for destruction before anything else can fail.
        self.res.fences.borrow_mut().push(fence);
        q.submissions.push(Submission {
            command,
            recorded,
            gpu_ns: None,
        });
        let cb_info = [vk::CommandBufferSubmitInfo::default().command_buffer(cb)];
        let submit = [vk::SubmitInfo2::default().command_buffer_infos(&cb_info)];
        // SAFETY: the command buffer is executable (ended above) and was
        // never submitted (ONE_TIME_SUBMIT, one submission); the fence is
        // new, so unsignalled and unused.
        unsafe { d.queue_submit2(self.queue, &submit, fence) }.ctx("vkQueueSubmit2")?;
        // From here on the resources may not be freed before the fence
        // signals.
        let at = command.map_or("the end of the program".to_string(), |c| format!("command {c}"));
        self.res.submitted(
            fence,
            format!("the command buffer of commands {first}..={last} (submitted at {at})"),
        );
        q.pending.push(Pending {
            fence,
            index,
            first,
            last,
        });
        Ok(())
    }

    /// Waits (at most the fence timeout) for every pending submission and
    /// reads its timestamps.
    fn wait(&self, q: &mut Queue) -> Result<()> {
        if q.pending.is_empty() {
            return Ok(());
        }
        let d = self.device;
        let fences: Vec<vk::Fence> = q.pending.iter().map(|p| p.fence).collect();
        if !wait_all(d, &fences, self.fence_timeout)? {
            // One queue runs its submissions in order: the first that has
            // not signalled is the one that overran.
            let late = q
                .pending
                .iter()
                .find(|p| !signalled(d, p.fence))
                .unwrap_or(&q.pending[0]);
            return Err(RuntimeError::FenceTimeout {
                submitted_at: q.submissions[late.index].command,
                first: late.first,
                last: late.last,
                timeout: self.fence_timeout,
            });
        }
        for p in q.pending.drain(..) {
            self.res.finished(p.fence);
            if self.timestamps {
                let gpu_ns = gpu_ns(
                    d,
                    self.res.query_pool,
                    p.index,
                    self.timestamp_mask,
                    self.timestamp_period,
                )?;
                q.submissions[p.index].gpu_ns = Some(gpu_ns);
            }
        }
        Ok(())
    }

    /// Before a host access (or at the end): submits and waits for
    /// everything earlier in program order, noting what it added.
    fn settle(&self, q: &mut Queue, before: Option<usize>, notes: &mut Vec<RunNote>) -> Result<()> {
        if q.open.is_some() {
            notes.push(RunNote::ImplicitSubmit { before });
            self.submit(q, before)?;
        }
        if !q.pending.is_empty() {
            notes.push(RunNote::ImplicitWait { before });
            self.wait(q)?;
        }
        Ok(())
    }

    /// Records one device command.
    pub(crate) fn record(
        &self,
        cb: vk::CommandBuffer,
        c: &Command,
        ci: usize,
        layout: &Layout,
        dispatch: Option<&CheckedDispatch>,
        kernels: &crate::kernels::Kernels,
    ) -> Result<()> {
        let d = self.device;
        match c {
            // `check_program` refuses these before any recording.
            Command::CopyImage { kind, .. } => {
                return Err(crate::error::RuntimeError::Check {
                    at: vksync::Location::Command(ci),
                    source: crate::checks::CheckError::ImageCopy {
                        call: kind.vulkan_name(),
                    },
                })
            }
            Command::Copy { src, dst } => {
                let (s, t) = (
                    layout.locate(*src).expect("region of the resolved program"),
                    layout.locate(*dst).expect("region of the resolved program"),
                );
                let region = [vk::BufferCopy::default()
                    .src_offset(s.range.start)
                    .dst_offset(t.range.start)
                    .size(s.range.len())];
                // SAFETY: recording state; ranges are in bounds and do not
                // overlap (checked by `vksync::resolve`).
                unsafe { d.cmd_copy_buffer(cb, self.buffer(s.mem), self.buffer(t.mem), &region) };
            }
            Command::Fill { dst, value } => {
                let m = layout.locate(*dst).expect("region of the resolved program");
                // SAFETY: recording state; offset and size are in bounds and
                // multiples of 4 (checked by `vksync::resolve`).
                unsafe { d.cmd_fill_buffer(cb, self.buffer(m.mem), m.range.start, m.range.len(), *value) };
            }
            Command::Update { dst, .. } => {
                let m = layout.locate(*dst).expect("region of the resolved program");
                let data = pattern_bytes(c, dst.range.len());
                // SAFETY: as for fill, and at most 65536 bytes (checked).
                unsafe { d.cmd_update_buffer(cb, self.buffer(m.mem), m.range.start, &data) };
            }
            Command::Dispatch { indirect, .. } => {
                // Invariant: `check_program` checked every dispatch.
                let plan = dispatch.expect("every dispatch is checked");
                let pipeline = kernels.get(plan.kernel);
                let ranges: Vec<_> = plan
                    .bindings
                    .iter()
                    .map(|b| (self.buffer(b.mem), b.offset, b.range))
                    .collect();
                let set = self
                    .res
                    .descriptors
                    .borrow_mut()
                    .set_for(d, pipeline.set_layout, &ranges)?;
                let (a, b) = plan.kernel.params();
                let mut push = [0u32; PUSH_CONSTANT_WORDS];
                push[0] = a;
                push[1] = b;
                // Fits: `check_dispatch` rejects more than u32::MAX elements.
                push[2] = plan.elements as u32;
                // At most MAX_BINDINGS bindings (checked): words 3..6.
                for (k, b) in plan.bindings.iter().enumerate() {
                    push[3 + k] = b.first_element;
                }
                let push_bytes: Vec<u8> = push.iter().flat_map(|w| w.to_le_bytes()).collect();
                debug_assert_eq!(pipeline.bindings, plan.bindings.len());
                // SAFETY: recording state; the set, written once for these
                // ranges, lives until the run's resources go (after its
                // command buffers complete); the push constants fit the
                // layout's range.
                unsafe {
                    d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline.pipeline);
                    d.cmd_bind_descriptor_sets(
                        cb,
                        vk::PipelineBindPoint::COMPUTE,
                        pipeline.layout,
                        0,
                        &[set],
                        &[],
                    );
                    d.cmd_push_constants(cb, pipeline.layout, vk::ShaderStageFlags::COMPUTE, 0, &push_bytes);
                    match indirect {
                        Some(r) => {
                            let m = layout.locate(*r).expect("region of the resolved program");
                            d.cmd_dispatch_indirect(cb, self.buffer(m.mem), m.range.start);
                        }
                        None => d.cmd_dispatch(cb, plan.groups, 1, 1),
                    }
                }
            }
            Command::Barrier(dep) => {
                let mut globals = Vec::new();
                let mut buffers = Vec::new();
                for b in &dep.barriers {
                    match b.region {
                        None => globals.push(vksync::ash::memory_barrier2(b)),
                        Some(r) => {
                            let m = layout.locate(r).expect("region of the resolved program");
                            buffers.push(vksync::ash::buffer_memory_barrier2(
                                b,
                                self.buffer(m.mem),
                                m.range,
                            ));
                        }
                    }
                }
                let info = vk::DependencyInfo::default()
                    .memory_barriers(&globals)
                    .buffer_memory_barriers(&buffers);
                // SAFETY: recording state; flags were validated by
                // `vksync::resolve` and ranges are in bounds.
                unsafe { d.cmd_pipeline_barrier2(cb, &info) };
            }
            // Host, lifetime and queue commands are handled by `Device::run`.
            Command::Alloc { .. }
            | Command::Free { .. }
            | Command::HostWrite { .. }
            | Command::HostRead { .. }
            | Command::Submit(_)
            | Command::Wait(_) => {}
            // `check_program` refuses programs with semaphores, several
            // queues or events (`Program::require_single_queue`).
            Command::HostSignal { .. }
            | Command::HostWait { .. }
            | Command::SetEvent { .. }
            | Command::WaitEvents { .. }
            | Command::ResetEvent { .. }
            | Command::HostSetEvent { .. }
            | Command::HostResetEvent { .. } => {}
        }
        Ok(())
    }
}
