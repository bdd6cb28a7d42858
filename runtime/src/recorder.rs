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
//! command buffer, from the command pool of the family of the queue that
//! `submit` names, and are submitted there with the submit's semaphore
//! waits and signals (`vkQueueSubmit2`, `VkSemaphoreSubmitInfo` with
//! timeline values) and a fence of their own; `wait` waits for every
//! fence, `wait QUEUE` for that queue's. `host-signal` and `host-wait` are
//! `vkSignalSemaphore` and `vkWaitSemaphores` (at most the fence timeout);
//! events are `vkCmdSetEvent2`, `vkCmdWaitEvents2`, `vkCmdResetEvent2`,
//! `vkSetEvent` and `vkResetEvent`, and `set-event1`/`wait-events1` are
//! the synchronization-1 `vkCmdSetEvent`/`vkCmdWaitEvents` (a
//! `reset-event` is always `vkCmdResetEvent2`: the two resets mean the
//! same). Which device queue runs a model queue,
//! and which device family a model family number stands for (also in
//! ownership-transfer barriers), is [`crate::queues`]' map.
//!
//! Host accesses happen at their place in program order on the host; so
//! that they see (and are seen by) the device commands before them in
//! program order, a host access with recorded but unsubmitted commands
//! before it submits them first (to their batch's queue, without
//! semaphores), and one with unwaited submissions waits first; both are
//! reported as [`RunNote`]s. In a program with several queues or
//! semaphores only commands and submissions that access the host access's
//! memory object count, and submissions a `host-wait` showed complete do
//! not (so `wait QUEUE` and host semaphore waits keep their meaning, and a
//! submission blocked on a later `host-signal` is not waited for). A
//! program that ends with unsubmitted or unwaited work is submitted and
//! waited for at the end.

use crate::checks::{
    check_image_formats, check_program, check_queue_capabilities, check_reference_memory,
    host_memory_available, CheckError, CheckedDispatch, CheckedProgram,
};
use crate::device::{Device, RunParts};
use crate::error::{Behind, Result, RuntimeError, VkContext};
use crate::kernels::{GraphicsKey, PUSH_CONSTANT_WORDS};
use crate::queues::{batch_queues, QueueMapping};
use crate::resources::{signalled, wait_all, Resources, Sharing};
use crate::validation::ValidationMessage;
use ash::vk;
use std::time::Duration;
use vksync::plan::{plan, Plan, PlanOptions};
use vksync::reference::{self, pattern_bytes};
use vksync::{Command, Layout, MemId, Program, QueueId, SemaphoreId, WaitFor};

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
    /// The command buffer's first and last timestamps as absolute times in
    /// nanoseconds (ticks masked to the family's valid bits, times the
    /// device's timestamp period), when its queue writes timestamps. Their
    /// time base is the device's: comparable across submissions, and across
    /// queues on the assumption [`RunResult::gpu_span_ns`] states.
    pub start_ns: Option<u64>,
    pub end_ns: Option<u64>,
    /// The model queue it went to.
    pub queue: QueueId,
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
    /// Which device queue ran each model queue.
    pub queue_mapping: QueueMapping,
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

    /// GPU time of the whole run: the latest end timestamp minus the
    /// earliest start timestamp over the submissions that wrote
    /// timestamps; `None` when none did.
    ///
    /// Assumption: the queues of one device share one timestamp time base
    /// (true in practice on desktop drivers; the spec only promises it
    /// within a queue unless `VK_KHR_calibrated_timestamps` says so), and
    /// timestamps do not wrap during the run (the family's valid bits
    /// times the period; 64 bits at 1 ns is centuries). Submissions to a
    /// queue without timestamps (a transfer-only family, where
    /// `vkCmdResetQueryPool` is not allowed) are not covered: on a
    /// multi-queue run the span covers the compute queues only.
    pub fn gpu_span_ns(&self) -> Option<u64> {
        let start = self.submissions.iter().filter_map(|s| s.start_ns).min()?;
        let end = self.submissions.iter().filter_map(|s| s.end_ns).max()?;
        Some(end.saturating_sub(start))
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
    compare_readbacks(program, &result.readbacks)
}

/// Runs the CPU reference on `program` and compares each of its host
/// reads with the device's readback of the same command in `readbacks`
/// (a missing one mismatches on every defined byte): the comparison of
/// [`compare_with_reference`], for readbacks from any path (a
/// [`crate::Prepared`] program's too).
pub fn compare_readbacks(program: &Program, readbacks: &[DeviceReadback]) -> Result<Vec<ReadbackComparison>> {
    check_reference_memory(program, host_memory_available())?;
    let expected = reference::run(program)?;
    Ok(expected
        .iter()
        .map(|r| {
            let device = readbacks
                .iter()
                .find(|d| d.command == r.command)
                .map_or(&[][..], |d| d.bytes.as_slice());
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
    /// The model queue whose batch it is.
    queue: QueueId,
    /// The timestamp mask of its family, when it writes timestamps.
    timed: Option<u64>,
    /// Program commands recorded into it so far.
    recorded: usize,
    /// The first and last of them.
    first: usize,
    last: usize,
    /// The memory objects its commands access.
    mems: Vec<MemId>,
}

/// A submission not yet waited for.
struct Pending {
    fence: vk::Fence,
    /// Index into `Queue::submissions`.
    index: usize,
    /// The model queue it went to.
    queue: QueueId,
    /// The timestamp mask of its family, when its command buffer wrote
    /// timestamps.
    timed: Option<u64>,
    /// The first and last program command of its command buffer (the
    /// submit command itself for an empty batch).
    first: usize,
    last: usize,
    /// The memory objects its commands access.
    mems: Vec<MemId>,
    /// Its semaphore waits and signals (semaphore, value).
    waits: Vec<(SemaphoreId, Option<u64>)>,
    signals: Vec<(SemaphoreId, Option<u64>)>,
    /// Known complete on the device (a host wait saw one of its signals,
    /// or one of a later submission's that depends on it): a host access
    /// needs no implicit wait for it. Its fence is still waited for
    /// before its resources go.
    settled: bool,
}

/// Where the open command buffer and in-flight submissions stand.
struct Queue {
    open: Option<Open>,
    pending: Vec<Pending>,
    submissions: Vec<Submission>,
}

/// The device queue behind one model queue, with its family's command
/// pool.
pub(crate) struct Target {
    queue: vk::Queue,
    pool: vk::CommandPool,
    /// The timestamp mask of its family; `None`: no timestamps (a family
    /// without them, or a transfer-only one, where `vkCmdResetQueryPool`
    /// is not allowed).
    timestamp_mask: Option<u64>,
}

impl Device {
    /// Runs a program as written (its own barriers, no others).
    ///
    /// Bad programs are rejected before any Vulkan work by
    /// [`check_program`] with the device's limits: the model's
    /// [`vksync::resolve`] checks plus kernel arguments, binding alignment
    /// and sizes, and memory objects the device cannot hold. Model queues
    /// are mapped onto device queues by [`QueueMapping::new`].
    pub fn run(&mut self, program: &Program) -> Result<RunResult> {
        let CheckedProgram {
            layout,
            dispatches,
            host_read,
            host_write,
            mut notes,
        } = check_program(program, &self.info.limits)?;
        check_image_formats(program, &|format, tiling| {
            self.info.format_features(format, tiling)
        })?;
        // A program that renders runs on a family with graphics (and
        // compute) where the device's preferred one has none (the H200's
        // dedicated compute family); blits alone keep the preferred family.
        let renders = program.commands().iter().any(|c| matches!(c, Command::Render(_)));
        let primary = if renders {
            self.info
                .queue_families
                .iter()
                .filter(|f| f.graphics && f.compute)
                .map(|f| f.index)
                .find(|&i| i == self.info.queue_family)
                .or_else(|| {
                    self.info
                        .queue_families
                        .iter()
                        .find(|f| f.graphics && f.compute)
                        .map(|f| f.index)
                })
                .unwrap_or(self.info.queue_family)
        } else {
            self.info.queue_family
        };
        let graphics = self
            .info
            .queue_families
            .iter()
            .any(|f| f.index == primary && f.graphics);
        check_queue_capabilities(program, primary, graphics)?;
        let mapping = QueueMapping::new(program, &self.info.queue_families, primary)
            .map_err(|(at, source)| RuntimeError::Check { at, source })?;
        if let Some((at, source)) = mapping.never_completes_shared(program) {
            return Err(RuntimeError::Check { at, source });
        }
        if !self.info.timeline_semaphores {
            if let Some(s) = program
                .semaphores()
                .iter()
                .find(|s| matches!(s.kind, vksync::SemaphoreType::Timeline { .. }))
            {
                return Err(RuntimeError::NoTimelineSemaphores {
                    device: self.info.name.clone(),
                    semaphore: s.name.clone(),
                });
            }
        }
        let batch = batch_queues(program);
        // Several queues or semaphores: implicit waits before host
        // accesses are narrowed to the memory they access (`settle`).
        let multi = program.first_multi_queue_command().is_some();
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
            queues: device_queues,
            info,
            in_flight,
            fence_timeout,
        } = self.begin_run()?;

        let mut res = Resources::new(device, allocator, in_flight);
        let used = mapping.used_families();
        let sharing = |mem: usize| {
            let exclusive = layout
                .owner_object(MemId(mem as u32))
                .and_then(|o| program.object(o))
                .is_some_and(|o| o.sharing == vksync::SharingMode::Exclusive);
            if exclusive || used.len() < 2 {
                Sharing::Exclusive
            } else {
                Sharing::Concurrent(used.clone())
            }
        };
        // Images' own memory objects get no buffer: the image has memory
        // of the size the implementation asks for.
        let image_memory: Vec<bool> = (0..layout.memory_sizes.len())
            .map(|m| {
                layout
                    .owner_object(MemId(m as u32))
                    .is_some_and(|o| program.image(o).is_some())
            })
            .collect();
        res.create_images(program, &layout, &sharing)?;
        let memory = res.create_shared_memory(&layout, &host_read, &host_write, &image_memory, &sharing)?;
        res.create_pools(
            info.queue_family,
            vk::CommandPoolCreateFlags::TRANSIENT,
            if info.timestamp_valid_bits > 0 {
                2 * max_cbs
            } else {
                0
            },
        )?;
        res.create_sync_objects(program, false)?;
        let timestamps = info.timestamp_valid_bits > 0;
        let mut targets = Vec::with_capacity(mapping.queues.len());
        for dq in &mapping.queues {
            let fam = &info.queue_families[dq.family];
            targets.push(Target {
                queue: device_queues[dq.family][dq.index as usize],
                pool: res.pool_for(fam.index, info.queue_family)?,
                timestamp_mask: (timestamps && fam.compute && fam.timestamp_valid_bits > 0)
                    .then(|| timestamp_mask(fam.timestamp_valid_bits)),
            });
        }
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
            events: &res.events,
            fence_timeout,
            timestamp_period: info.timestamp_period,
            quirks: &info.quirks,
            mapping: Some(&mapping),
            program: Some(program),
        };
        rec.enter_initial_layouts(&targets)?;
        // On an error, work may be blocked on a timeline value the rest of
        // the program would have signalled: `unblock` signals it, so the
        // run's resources can be reclaimed instead of waiting forever.
        let mut body = || -> Result<()> {
            for (ci, c) in program.commands().iter().enumerate() {
                capture.set_command(Some(ci));
                match c {
                    Command::Alloc { .. } | Command::Free { .. } => {}
                    Command::Submit(s) => rec.submit(&mut q, Some(ci), Some(s), &targets)?,
                    Command::Wait(WaitFor::All) => rec.wait(&mut q, None)?,
                    Command::Wait(WaitFor::Queue(id)) => rec.wait(&mut q, Some(*id))?,
                    Command::HostWrite { dst, .. } => {
                        let m = layout.locate(*dst).expect("region of the resolved program");
                        rec.settle(&mut q, Some(ci), multi.then_some(m.mem), &mut notes, &targets)?;
                        let data = pattern_bytes(c, dst.range.len());
                        with_mapped(&res, m.mem, |mapped| {
                            mapped[m.range.start as usize..m.range.end as usize].copy_from_slice(&data)
                        })?;
                    }
                    Command::HostRead { src } => {
                        let m = layout.locate(*src).expect("region of the resolved program");
                        rec.settle(&mut q, Some(ci), multi.then_some(m.mem), &mut notes, &targets)?;
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
                    Command::HostSignal { semaphore, value } => rec.host_signal(*semaphore, *value)?,
                    Command::HostWait { semaphore, value } => {
                        let name = program.semaphore_name(*semaphore);
                        rec.host_wait(ci, *semaphore, name, *value)?;
                        settle_signalled(&mut q, *semaphore, Some(*value));
                    }
                    Command::HostSetEvent { event } => {
                        let e = res.events[event.0 as usize];
                        // SAFETY: a live, host-settable event of this device.
                        unsafe { device.set_event(e) }.ctx("vkSetEvent")?;
                    }
                    Command::HostResetEvent { event } => {
                        let e = res.events[event.0 as usize];
                        // SAFETY: a live event; the model refuses a reset
                        // while a wait of it may still be pending (a wait
                        // needs a set with no reset since).
                        unsafe { device.reset_event(e) }.ctx("vkResetEvent")?;
                    }
                    _ => {
                        let cb = rec.open(&mut q, ci, batch[ci], &targets)?;
                        rec.record(cb, c, ci, &layout, dispatches[ci].as_ref(), kernels)?;
                        if let Some(open) = q.open.as_mut() {
                            // Invariant: `layout` was resolved from this program.
                            let accs = vksync::accesses(c, &layout, vksync::Semantics::default())
                                .expect("the program's own layout");
                            for a in accs {
                                if !open.mems.contains(&a.mem) {
                                    open.mems.push(a.mem);
                                }
                            }
                        }
                    }
                }
                messages.extend(capture.take());
            }
            capture.set_command(None);
            rec.settle(&mut q, None, None, &mut notes, &targets)?;
            // Submissions a host wait showed complete: their fences (and
            // timestamps) are still to be seen, without a note.
            rec.wait(&mut q, None)
        };
        if let Err(e) = body() {
            capture.set_command(None);
            rec.unblock(program);
            return Err(e);
        }
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
            queue_mapping: mapping,
        })
    }
}

/// After a host wait saw `semaphore` reach `value`: the pending
/// submission that signals exactly that value has completed (a valid
/// program signals a timeline value only while the semaphore is below
/// it), and with it every earlier submission to its queue and, through
/// their semaphore waits, every submission whose signal they waited for.
/// Marks them settled, so a host access after the wait does not wait
/// for them again.
fn settle_signalled(q: &mut Queue, semaphore: SemaphoreId, value: Option<u64>) {
    let mut work: Vec<usize> = q
        .pending
        .iter()
        .enumerate()
        .filter(|(_, p)| p.signals.contains(&(semaphore, value)))
        .map(|(i, _)| i)
        .collect();
    while let Some(i) = work.pop() {
        if q.pending[i].settled {
            continue;
        }
        q.pending[i].settled = true;
        let (queue, index) = (q.pending[i].queue, q.pending[i].index);
        let waits = q.pending[i].waits.clone();
        for (j, p) in q.pending.iter().enumerate() {
            let before = p.index < index;
            // For a binary wait: the latest earlier signal of it.
            let signalled_for = waits.iter().any(|&(s, v)| {
                before
                    && p.signals.contains(&(s, v))
                    && (v.is_some()
                        || !q
                            .pending
                            .iter()
                            .any(|r| r.index > p.index && r.index < index && r.signals.contains(&(s, None))))
            });
            if !p.settled && ((p.queue == queue && before) || signalled_for) {
                work.push(j);
            }
        }
    }
}

/// The mask of a timestamp with `bits` valid bits.
pub(crate) fn timestamp_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The two timestamps of one command buffer, in nanoseconds.
pub(crate) struct Timestamps {
    /// End minus start (modulo the valid bits).
    pub(crate) delta_ns: u64,
    /// Absolute: masked ticks times the timestamp period.
    pub(crate) start_ns: u64,
    pub(crate) end_ns: u64,
}

/// The timestamps of the command buffer whose start and end timestamps are
/// queries `2 * index` and `2 * index + 1`. Call only after that
/// submission completed.
pub(crate) fn read_timestamps(
    d: &ash::Device,
    pool: vk::QueryPool,
    index: usize,
    mask: u64,
    period: f32,
) -> Result<Timestamps> {
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
    let period = f64::from(period);
    let delta = (ticks[1] & mask).wrapping_sub(ticks[0] & mask) & mask;
    let start_ns = ((ticks[0] & mask) as f64 * period) as u64;
    let delta_ns = (delta as f64 * period) as u64;
    Ok(Timestamps {
        delta_ns,
        start_ns,
        // From the wrapped delta, so a wrap inside one command buffer
        // still gives end >= start.
        end_ns: start_ns.saturating_add(delta_ns),
    })
}

/// The program with a host read of every buffer and every blob still
/// allocated at the end, or `None` when it has a host read already (what
/// `vksync run` reads back). Pools are not read: the reference keeps each
/// blob's bytes as its own, so a pool's bytes are never defined there.
/// Images are not read either: their memory is not host visible (it is
/// the image's own, in an implementation's tiling), and reading one needs
/// a copy to a buffer. The reads come after the device work: a host read
/// recorded after commands not yet submitted would run before them (an
/// order note, which the planners and the reference keep), so work still
/// recorded at the end is submitted and waited for first.
pub fn with_readback(program: &Program) -> Option<Program> {
    if program
        .commands()
        .iter()
        .any(|c| matches!(c, Command::HostRead { .. }))
    {
        return None;
    }
    let mut live: Vec<bool> = program
        .objects()
        .iter()
        .enumerate()
        .map(|(i, o)| {
            matches!(o.kind, vksync::ObjectKind::Buffer { .. })
                && program.image(vksync::ObjectId(i as u32)).is_none()
        })
        .collect();
    for c in program.commands() {
        match c {
            Command::Alloc { blob } => live[blob.0 as usize] = true,
            Command::Free { blob } => live[blob.0 as usize] = false,
            _ => {}
        }
    }
    let last_submit = program
        .commands()
        .iter()
        .rposition(|c| matches!(c, Command::Submit(_)));
    let recorded_after = program.commands()[last_submit.map_or(0, |i| i + 1)..]
        .iter()
        .any(|c| {
            !matches!(
                c,
                Command::Alloc { .. }
                    | Command::Free { .. }
                    | Command::HostWrite { .. }
                    | Command::HostRead { .. }
                    | Command::Wait(_)
                    | Command::HostSignal { .. }
                    | Command::HostWait { .. }
            )
        });
    let mut p = program.clone();
    if recorded_after {
        // Invariant: a submit and a wait of the default queue are valid
        // after any program.
        p.push(Command::SUBMIT).expect("a submit");
        p.push(Command::WAIT).expect("a wait");
    }
    for (i, alive) in live.iter().enumerate() {
        if *alive {
            // Invariant: `i` is one of the program's objects, and a whole
            // region is never reversed, so `push` accepts it.
            let src = p.whole(vksync::ObjectId(i as u32));
            p.push(Command::HostRead { src })
                .expect("a read of one of the program's objects");
        }
    }
    Some(p)
}

/// Runs `f` on a memory object's mapped bytes (the whole `VkBuffer`).
pub(crate) fn with_mapped<T>(res: &Resources<'_>, mem: MemId, f: impl FnOnce(&mut [u8]) -> T) -> Result<T> {
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

/// A model semaphore operation as a `VkSemaphoreSubmitInfo` (the value is
/// ignored for a binary semaphore).
pub(crate) fn semaphore_submit_info(
    semaphore: vk::Semaphore,
    value: Option<u64>,
    stages: vksync::PipelineStageFlags2,
) -> vk::SemaphoreSubmitInfo<'static> {
    vk::SemaphoreSubmitInfo::default()
        .semaphore(semaphore)
        .value(value.unwrap_or(0))
        .stage_mask(vksync::ash::stage_mask(stages))
}

/// The barriers of one `VkDependencyInfo`, converted.
type DependencyParts = (
    Vec<vk::MemoryBarrier2<'static>>,
    Vec<vk::BufferMemoryBarrier2<'static>>,
    Vec<vk::ImageMemoryBarrier2<'static>>,
);

/// Recording helpers over one run's resources.
pub(crate) struct Recorder<'a> {
    pub(crate) device: &'a ash::Device,
    pub(crate) res: &'a Resources<'a>,
    /// The recorded program's events, by `EventId` (a slice of
    /// `res.events`: several prepared programs share one `Resources`).
    pub(crate) events: &'a [vk::Event],
    /// How long a fence wait may take.
    pub(crate) fence_timeout: Duration,
    pub(crate) timestamp_period: f32,
    /// Model queues and families on the device; `None` on paths that
    /// refuse multi-queue programs (ownership transfers then have no
    /// device families).
    pub(crate) mapping: Option<&'a QueueMapping>,
    /// The driver defects to record around (`crate::quirks`).
    pub(crate) quirks: &'a [crate::quirks::Quirk],
    /// The program being recorded, where it may have images (its image
    /// barriers' layouts and subresource ranges); `None` on the paths that
    /// refuse images.
    pub(crate) program: Option<&'a Program>,
}

impl Recorder<'_> {
    fn buffer(&self, mem: MemId) -> vk::Buffer {
        self.res.buffers[mem.0 as usize]
    }

    /// Puts every image declared with an initial layout other than
    /// `UNDEFINED` and `PREINITIALIZED` (the layout work before the trace
    /// left it in, `vksync::ImageDesc::initial`) into that layout before
    /// the program's first command: one barrier per image from
    /// `UNDEFINED` (its contents are undefined, as the CPU reference says),
    /// submitted to the first model queue's device queue and waited for
    /// with a fence, so the program's first access is ordered after it.
    /// (`PREINITIALIZED` is the image's `initialLayout` at creation.)
    fn enter_initial_layouts(&self, targets: &[Target]) -> Result<()> {
        let Some(program) = self.program else {
            return Ok(());
        };
        let barriers: Vec<vk::ImageMemoryBarrier2> = program
            .images()
            .iter()
            .filter(|d| {
                !matches!(
                    d.initial,
                    vksync::ImageLayout::UNDEFINED | vksync::ImageLayout::PREINITIALIZED
                )
            })
            .map(|d| {
                let all = vksync::SubresourceRange {
                    aspects: d.format.aspect_mask(),
                    base_mip: 0,
                    mip_count: None,
                    base_layer: 0,
                    layer_count: None,
                };
                vk::ImageMemoryBarrier2::default()
                    .dst_stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)
                    .dst_access_mask(vk::AccessFlags2::MEMORY_READ | vk::AccessFlags2::MEMORY_WRITE)
                    .old_layout(vk::ImageLayout::UNDEFINED)
                    .new_layout(vk::ImageLayout::from_raw(d.initial as i32))
                    .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                    .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                    .image(self.image(d.object))
                    .subresource_range(vksync::ash::subresource_range(all))
            })
            .collect();
        let Some(target) = targets.first() else {
            return Ok(());
        };
        if barriers.is_empty() {
            return Ok(());
        }
        let d = self.device;
        // SAFETY: the pool is live and used only from this thread.
        let cb = unsafe {
            d.allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(target.pool)
                    .level(vk::CommandBufferLevel::PRIMARY)
                    .command_buffer_count(1),
            )
        }
        .ctx("vkAllocateCommandBuffers")?[0];
        // SAFETY: a freshly allocated command buffer; the barriers name live
        // images of this run, whole, from UNDEFINED to a layout their
        // declaration allows (`vksync::resolve` checked the program).
        unsafe {
            d.begin_command_buffer(
                cb,
                &vk::CommandBufferBeginInfo::default().flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
            )
            .ctx("vkBeginCommandBuffer")?;
            d.cmd_pipeline_barrier2(
                cb,
                &vk::DependencyInfo::default().image_memory_barriers(&barriers),
            );
            d.end_command_buffer(cb).ctx("vkEndCommandBuffer")?;
        }
        // SAFETY: valid device.
        let fence = unsafe { d.create_fence(&vk::FenceCreateInfo::default(), None) }.ctx("vkCreateFence")?;
        // Registered for destruction before anything else can fail.
        self.res.fences.borrow_mut().push(fence);
        let cbs = [vk::CommandBufferSubmitInfo::default().command_buffer(cb)];
        // SAFETY: the command buffer is executable, the queue belongs to
        // this device, the fence is unsignalled.
        unsafe {
            d.queue_submit2(
                target.queue,
                &[vk::SubmitInfo2::default().command_buffer_infos(&cbs)],
                fence,
            )
        }
        .ctx("vkQueueSubmit2")?;
        if !wait_all(d, &[fence], self.fence_timeout)? {
            return Err(RuntimeError::Vulkan {
                call: "vkWaitForFences (the images' initial layouts)",
                result: vk::Result::TIMEOUT,
            });
        }
        Ok(())
    }

    /// The open command buffer, beginning a new one from the pool of the
    /// family of `queue` (the batch's queue) if needed, for recording
    /// program command `ci`.
    fn open(
        &self,
        q: &mut Queue,
        ci: usize,
        queue: QueueId,
        targets: &[Target],
    ) -> Result<vk::CommandBuffer> {
        if let Some(open) = q.open.as_mut() {
            open.recorded += 1;
            open.last = ci;
            return Ok(open.cb);
        }
        let target = &targets[queue.0 as usize];
        let d = self.device;
        // SAFETY: the pool is live and used only from this thread.
        let cbs = unsafe {
            d.allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(target.pool)
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
        let timed = target.timestamp_mask;
        if timed.is_some() {
            let first = 2 * q.submissions.len() as u32;
            // SAFETY: recording state on a compute-capable family;
            // queries [first, first+2) exist (the pool holds two per
            // possible submission).
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
            queue,
            timed,
            recorded: 1,
            first: ci,
            last: ci,
            mems: Vec::new(),
        });
        Ok(cb)
    }

    /// Ends and submits the open command buffer, if any, with `sub`'s
    /// semaphore waits and signals, to `sub`'s queue (or, for an implicit
    /// submit, the open batch's queue, without semaphores). A submit with
    /// semaphores and nothing recorded is an empty batch; a plain one with
    /// nothing recorded does nothing.
    fn submit(
        &self,
        q: &mut Queue,
        command: Option<usize>,
        sub: Option<&vksync::Submission>,
        targets: &[Target],
    ) -> Result<()> {
        let open = q.open.take();
        let queue = match (sub, &open) {
            (Some(s), _) => s.queue,
            (None, Some(o)) => o.queue,
            (None, None) => return Ok(()),
        };
        let semaphores = sub.is_some_and(|s| !s.waits.is_empty() || !s.signals.is_empty());
        if open.is_none() && !semaphores {
            return Ok(());
        }
        let d = self.device;
        let index = q.submissions.len();
        let (cb, recorded, first, last, timed, mems) = match open {
            Some(o) => (Some(o.cb), o.recorded, o.first, o.last, o.timed, o.mems),
            None => (
                None,
                0,
                command.unwrap_or(0),
                command.unwrap_or(0),
                None,
                Vec::new(),
            ),
        };
        if let Some(cb) = cb {
            if timed.is_some() {
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
        }
        // SAFETY: valid device.
        let fence = unsafe { d.create_fence(&vk::FenceCreateInfo::default(), None) }.ctx("vkCreateFence")?;
        // Registered for destruction before anything else can fail.
        self.res.fences.borrow_mut().push(fence);
        q.submissions.push(Submission {
            command,
            recorded,
            gpu_ns: None,
            start_ns: None,
            end_ns: None,
            queue,
        });
        let cb_info: Vec<_> = cb
            .iter()
            .map(|&cb| vk::CommandBufferSubmitInfo::default().command_buffer(cb))
            .collect();
        let (waits, signals): (Vec<_>, Vec<_>) = match sub {
            Some(s) => (
                s.waits
                    .iter()
                    .map(|w| {
                        semaphore_submit_info(self.res.semaphores[w.semaphore.0 as usize], w.value, w.stages)
                    })
                    .collect(),
                s.signals
                    .iter()
                    .map(|g| {
                        semaphore_submit_info(self.res.semaphores[g.semaphore.0 as usize], g.value, g.stages)
                    })
                    .collect(),
            ),
            None => (Vec::new(), Vec::new()),
        };
        let submit = [vk::SubmitInfo2::default()
            .command_buffer_infos(&cb_info)
            .wait_semaphore_infos(&waits)
            .signal_semaphore_infos(&signals)];
        // SAFETY: the command buffer (if any) is executable (ended above),
        // from the pool of the target queue's family, and was never
        // submitted (ONE_TIME_SUBMIT, one submission); the fence is new,
        // so unsignalled and unused; the semaphores are live, and
        // `vksync::resolve` checked the order of their operations (a
        // binary wait has a pending signal, timeline values increase).
        unsafe { d.queue_submit2(targets[queue.0 as usize].queue, &submit, fence) }.ctx("vkQueueSubmit2")?;
        // From here on the resources may not be freed before the fence
        // signals.
        let at = command.map_or("the end of the program".to_string(), |c| format!("command {c}"));
        self.res.submitted(
            fence,
            format!("the command buffer of commands {first}..={last} (submitted at {at})"),
        );
        let ops = |v: &mut dyn Iterator<Item = (SemaphoreId, Option<u64>)>| v.collect::<Vec<_>>();
        q.pending.push(Pending {
            fence,
            index,
            queue,
            timed,
            first,
            last,
            mems,
            waits: sub.map_or_else(Vec::new, |s| {
                ops(&mut s.waits.iter().map(|w| (w.semaphore, w.value)))
            }),
            signals: sub.map_or_else(Vec::new, |s| {
                ops(&mut s.signals.iter().map(|g| (g.semaphore, g.value)))
            }),
            settled: false,
        });
        Ok(())
    }

    /// Waits (at most the fence timeout) for every pending submission to
    /// `only` (or to every queue) and reads its timestamps.
    fn wait(&self, q: &mut Queue, only: Option<QueueId>) -> Result<()> {
        self.wait_for(q, &|p: &Pending| only.is_none_or(|id| p.queue == id))
    }

    /// Waits (at most the fence timeout) for the pending submissions
    /// `wanted` picks and reads their timestamps.
    fn wait_for(&self, q: &mut Queue, wanted: &dyn Fn(&Pending) -> bool) -> Result<()> {
        let d = self.device;
        let fences: Vec<vk::Fence> = q.pending.iter().filter(|p| wanted(p)).map(|p| p.fence).collect();
        if fences.is_empty() {
            return Ok(());
        }
        if !wait_all(d, &fences, self.fence_timeout)? {
            // A queue runs its submissions in order: the first that has
            // not signalled is the one that overran (or waits forever).
            let late = q
                .pending
                .iter()
                .filter(|p| wanted(p))
                .find(|p| !signalled(d, p.fence))
                .unwrap_or(&q.pending[0]);
            // What it may be stuck behind: the earliest unfinished
            // submission of its queue, wanted or not (a host access waits
            // only for the submissions touching its memory).
            let behind = q
                .pending
                .iter()
                .filter(|p| p.queue == late.queue && p.index < late.index)
                .find(|p| !signalled(d, p.fence))
                .map(|p| {
                    Box::new(Behind {
                        submitted_at: q.submissions[p.index].command,
                        first: p.first,
                        last: p.last,
                        waits: p.waits.clone(),
                    })
                });
            return Err(RuntimeError::FenceTimeout {
                submitted_at: q.submissions[late.index].command,
                first: late.first,
                last: late.last,
                timeout: self.fence_timeout,
                behind,
            });
        }
        let (done, rest): (Vec<Pending>, Vec<Pending>) = q.pending.drain(..).partition(|p| wanted(p));
        q.pending = rest;
        for p in done {
            self.res.finished(p.fence);
            if let Some(mask) = p.timed {
                let t = read_timestamps(d, self.res.query_pool, p.index, mask, self.timestamp_period)?;
                let s = &mut q.submissions[p.index];
                s.gpu_ns = Some(t.delta_ns);
                s.start_ns = Some(t.start_ns);
                s.end_ns = Some(t.end_ns);
            }
        }
        Ok(())
    }

    /// Before a host access (or at the end): submits what is recorded (to
    /// its batch's queue, without semaphores) and waits for every
    /// submission not known complete, noting what it added. With `mem`
    /// (a host access in a multi-queue program), only recorded commands
    /// and submissions that access that memory object count: the others
    /// are left to the program's own waits, so that `wait QUEUE`, host
    /// semaphore waits and submissions blocked on a later host signal
    /// keep their meaning.
    fn settle(
        &self,
        q: &mut Queue,
        before: Option<usize>,
        mem: Option<MemId>,
        notes: &mut Vec<RunNote>,
        targets: &[Target],
    ) -> Result<()> {
        let touches = |mems: &[MemId]| mem.is_none_or(|m| mems.contains(&m));
        if q.open.as_ref().is_some_and(|o| touches(&o.mems)) {
            notes.push(RunNote::ImplicitSubmit { before });
            self.submit(q, before, None, targets)?;
        }
        let wanted = |p: &Pending| !p.settled && touches(&p.mems);
        if q.pending.iter().any(wanted) {
            notes.push(RunNote::ImplicitWait { before });
            self.wait_for(q, &wanted)?;
        }
        Ok(())
    }

    /// After an error: sets every timeline semaphore below the greatest
    /// value the program waits for to that value, so that no submitted
    /// batch stays blocked on a signal the rest of the program would have
    /// made. Errors are ignored (the run is failing already).
    fn unblock(&self, program: &Program) {
        for (i, s) in program.semaphores().iter().enumerate() {
            if !matches!(s.kind, vksync::SemaphoreType::Timeline { .. }) {
                continue;
            }
            let id = SemaphoreId(i as u32);
            let wanted = program
                .commands()
                .iter()
                .flat_map(|c| match c {
                    Command::Submit(sub) => sub
                        .waits
                        .iter()
                        .filter(|w| w.semaphore == id)
                        .filter_map(|w| w.value)
                        .collect::<Vec<_>>(),
                    Command::HostWait { semaphore, value } if *semaphore == id => vec![*value],
                    _ => Vec::new(),
                })
                .max();
            let sem = self.res.semaphores[i];
            // SAFETY: a live timeline semaphore of this device.
            let current = unsafe { self.device.get_semaphore_counter_value(sem) };
            if let (Some(v), Ok(c)) = (wanted, current) {
                if c < v {
                    // Ignored on failure: nothing more can be done.
                    let _ = self.host_signal(id, v);
                }
            }
        }
    }

    /// `vkSignalSemaphore`.
    fn host_signal(&self, semaphore: SemaphoreId, value: u64) -> Result<()> {
        let s = self.res.semaphores[semaphore.0 as usize];
        // SAFETY: a live timeline semaphore (the trace format and
        // `vksync::resolve` refuse a binary one here) and a value greater
        // than its current one (checked by `vksync::resolve`).
        unsafe {
            self.device
                .signal_semaphore(&vk::SemaphoreSignalInfo::default().semaphore(s).value(value))
        }
        .ctx("vkSignalSemaphore")
    }

    /// `vkWaitSemaphores`, at most the fence timeout.
    fn host_wait(&self, command: usize, semaphore: SemaphoreId, name: &str, value: u64) -> Result<()> {
        let s = [self.res.semaphores[semaphore.0 as usize]];
        let v = [value];
        let ns = u64::try_from(self.fence_timeout.as_nanos()).unwrap_or(u64::MAX);
        // SAFETY: a live timeline semaphore; the arrays outlive the call.
        match unsafe {
            self.device
                .wait_semaphores(&vk::SemaphoreWaitInfo::default().semaphores(&s).values(&v), ns)
        } {
            Ok(()) => Ok(()),
            Err(vk::Result::TIMEOUT) => Err(RuntimeError::SemaphoreTimeout {
                command,
                semaphore: name.to_string(),
                value,
                timeout: self.fence_timeout,
            }),
            Err(result) => Err(RuntimeError::Vulkan {
                call: "vkWaitSemaphores",
                result,
            }),
        }
    }

    /// A model dependency's barriers as Vulkan ones, through the model's
    /// glue (`vksync::ash::dependency2`, the one conversion): global
    /// barriers as `VkMemoryBarrier2`, regions as `VkBufferMemoryBarrier2`
    /// over their memory object's `VkBuffer`, exact image barriers as one
    /// `VkImageMemoryBarrier2` each (the union of its parts' masks), and a
    /// region of an image without an image barrier (a planner's barrier in
    /// buffer form) as a `VkMemoryBarrier2`
    /// (`crate::quirks::recorded_dependency`, so that the program as
    /// recorded says so too); an ownership transfer's model families become
    /// device families through the queue mapping, and one whose two
    /// families map to one device family is recorded without a transfer
    /// (`VK_QUEUE_FAMILY_IGNORED` on both sides).
    fn dependency_parts(&self, dep: &vksync::Dependency, layout: &Layout) -> DependencyParts {
        self.dependency_parts_with(dep, layout, self.quirks)
    }

    /// [`Self::dependency_parts`] with workarounds `quirks` (none for a
    /// `vkCmdWaitEvents`, recorded bit for bit).
    fn dependency_parts_with(
        &self,
        dep: &vksync::Dependency,
        layout: &Layout,
        quirks: &[crate::quirks::Quirk],
    ) -> DependencyParts {
        let dep = crate::quirks::recorded_dependency(dep, quirks, &|o| self.res.image(o).is_some());
        let target = |r: vksync::Region| match self.res.image(r.object) {
            Some(image) => Some(vksync::ash::Target::Image(image)),
            None => {
                let m = layout.locate(r)?;
                Some(vksync::ash::Target::Buffer(self.buffer(m.mem), m.range))
            }
        };
        // Invariant: every region of a resolved program is a buffer's or
        // blob's (located) or an image's, and `recorded_dependency` made
        // each region over an image's bytes without an image barrier
        // global, so the glue has a target for each and refuses none.
        // A coarse transition (an image declared as a `buffer`, which the
        // runtime makes a `VkBuffer`) has no Vulkan form: its barrier is a
        // buffer barrier, as the model orders it.
        let barriers: Vec<vksync::Barrier> = dep
            .barriers
            .iter()
            .map(|b| vksync::Barrier {
                transition: b.transition && b.image.is_some(),
                ..*b
            })
            .collect();
        let mut parts = vksync::ash::dependency2(&barriers, self.program, target)
            .expect("a barrier of the recorded program has a Vulkan target");
        parts.remap_queue_families(|src, dst| {
            let map = self.mapping?;
            let pair = (map.device_family(src)?, map.device_family(dst)?);
            (src != dst && pair.0 != pair.1).then_some(pair)
        });
        (parts.memory, parts.buffers, parts.images)
    }

    /// The `VkImage` of an image object of the run.
    fn image(&self, object: vksync::ObjectId) -> vk::Image {
        // Invariant: `create_images` made one for every image of the program.
        self.res.image(object).expect("an image of the run")
    }

    /// A region of a buffer or blob as (its memory object's `VkBuffer`,
    /// the object's first byte there).
    fn buffer_base(&self, layout: &Layout, object: vksync::ObjectId) -> (vk::Buffer, u64) {
        let (mem, base) = layout.place(object).expect("an object of the resolved program");
        (self.buffer(mem), base)
    }

    /// Records an exact image command (`check_program` refused the ones
    /// the runtime does not record). Clears clear to zero: the trace
    /// format carries no clear value (`vksync::reference` clears to zero
    /// too).
    fn record_image(&self, cb: vk::CommandBuffer, op: &vksync::ImageOp, layout: &Layout) {
        use vksync::ImageOp;
        let d = self.device;
        let program = self
            .program
            .expect("images are recorded with the program at hand");
        let layers = |image: vksync::ObjectId, s: vksync::SubresourceLayers| {
            let total = program.image(image).map_or(1, |d| d.layers);
            vk::ImageSubresourceLayers::default()
                .aspect_mask(vk::ImageAspectFlags::from_raw(s.aspects.0))
                .mip_level(s.mip)
                .base_array_layer(s.base_layer)
                .layer_count(s.layer_count.unwrap_or(total - s.base_layer))
        };
        let offset = |o: [u32; 3]| vk::Offset3D {
            x: o[0] as i32,
            y: o[1] as i32,
            z: o[2] as i32,
        };
        let extent = |e: [u32; 3]| vk::Extent3D {
            width: e[0],
            height: e[1],
            depth: e[2],
        };
        let vk_layout = |l: vksync::ImageLayout| vk::ImageLayout::from_raw(l as i32);
        let buffer_regions = |image: vksync::ObjectId, base: u64, regions: &[vksync::BufferImageCopy]| {
            regions
                .iter()
                .map(|r| {
                    vk::BufferImageCopy::default()
                        .buffer_offset(base + r.buffer_offset)
                        .buffer_row_length(r.row_length)
                        .buffer_image_height(r.image_height)
                        .image_subresource(layers(image, r.subresource))
                        .image_offset(offset(r.offset))
                        .image_extent(extent(r.extent))
                })
                .collect::<Vec<_>>()
        };
        match op {
            ImageOp::CopyBufferToImage {
                buffer,
                image,
                layout: l,
                regions,
            } => {
                let (buf, base) = self.buffer_base(layout, *buffer);
                let regions = buffer_regions(*image, base, regions);
                // SAFETY: recording state; the regions are inside the
                // buffer and the image (`vksync::resolve`), buffer offsets
                // aligned (`check_program`), the layout the subresources'
                // current one (`vksync::resolve`).
                unsafe { d.cmd_copy_buffer_to_image(cb, buf, self.image(*image), vk_layout(*l), &regions) };
            }
            ImageOp::CopyImageToBuffer {
                image,
                layout: l,
                buffer,
                regions,
            } => {
                let (buf, base) = self.buffer_base(layout, *buffer);
                let regions = buffer_regions(*image, base, regions);
                // SAFETY: as for the copy to an image.
                unsafe { d.cmd_copy_image_to_buffer(cb, self.image(*image), vk_layout(*l), buf, &regions) };
            }
            ImageOp::CopyImage { src, dst, regions } => {
                let regions: Vec<vk::ImageCopy> = regions
                    .iter()
                    .map(|r| {
                        vk::ImageCopy::default()
                            .src_subresource(layers(src.0, r.src_subresource))
                            .src_offset(offset(r.src_offset))
                            .dst_subresource(layers(dst.0, r.dst_subresource))
                            .dst_offset(offset(r.dst_offset))
                            .extent(extent(r.extent))
                    })
                    .collect();
                // SAFETY: recording state; regions inside both images and
                // layouts current (`vksync::resolve`).
                unsafe {
                    d.cmd_copy_image(
                        cb,
                        self.image(src.0),
                        vk_layout(src.1),
                        self.image(dst.0),
                        vk_layout(dst.1),
                        &regions,
                    )
                };
            }
            ImageOp::BlitImage {
                src,
                dst,
                regions,
                filter,
            } => {
                let regions: Vec<vk::ImageBlit> = regions
                    .iter()
                    .map(|r| {
                        vk::ImageBlit::default()
                            .src_subresource(layers(src.0, r.src_subresource))
                            .src_offsets([offset(r.src_offsets[0]), offset(r.src_offsets[1])])
                            .dst_subresource(layers(dst.0, r.dst_subresource))
                            .dst_offsets([offset(r.dst_offsets[0]), offset(r.dst_offsets[1])])
                    })
                    .collect();
                // SAFETY: recording state; regions inside both images and
                // layouts current (`vksync::resolve`); the formats have
                // BLIT_SRC/BLIT_DST and the filter's sampling feature
                // (`check_image_formats`, `image_features`).
                unsafe {
                    d.cmd_blit_image(
                        cb,
                        self.image(src.0),
                        vk_layout(src.1),
                        self.image(dst.0),
                        vk_layout(dst.1),
                        &regions,
                        vk::Filter::from_raw(filter.raw()),
                    )
                };
            }
            ImageOp::ClearColorImage {
                image,
                layout: l,
                ranges,
            } => {
                let ranges: Vec<_> = ranges
                    .iter()
                    .map(|r| vksync::ash::subresource_range(*r))
                    .collect();
                // SAFETY: recording state; color ranges inside the image
                // and the layout current (`vksync::resolve`).
                unsafe {
                    d.cmd_clear_color_image(
                        cb,
                        self.image(*image),
                        vk_layout(*l),
                        &vk::ClearColorValue { uint32: [0; 4] },
                        &ranges,
                    )
                };
            }
            ImageOp::ClearDepthStencilImage {
                image,
                layout: l,
                ranges,
            } => {
                let ranges: Vec<_> = ranges
                    .iter()
                    .map(|r| vksync::ash::subresource_range(*r))
                    .collect();
                // SAFETY: as for a color clear (`check_program` refuses
                // depth/stencil images today, so this is not reached).
                unsafe {
                    d.cmd_clear_depth_stencil_image(
                        cb,
                        self.image(*image),
                        vk_layout(*l),
                        &vk::ClearDepthStencilValue {
                            depth: 0.0,
                            stencil: 0,
                        },
                        &ranges,
                    )
                };
            }
            // `check_program` refuses resolves.
            ImageOp::ResolveImage { .. } => {}
        }
    }

    /// Records a rendering command with the rect and flat kernels
    /// (`check_program` refused what they do not draw): the whole render
    /// area, clears to zero (color and depth: `vksync::reference` clears
    /// to zero too), one graphics pipeline per [`GraphicsKey`], viewport
    /// and scissor the render area.
    fn record_render(
        &self,
        cb: vk::CommandBuffer,
        op: &vksync::RenderOp,
        ci: usize,
        layout: &Layout,
        kernels: &crate::kernels::Kernels,
    ) -> Result<()> {
        use vksync::reference::{rect_draw, rect_target};
        use vksync::{DrawKind, LoadOp, RenderOp, StoreOp};
        let d = self.device;
        let program = self
            .program
            .expect("rendering is recorded with the program at hand");
        // Invariant: `check_program` accepted every rendering command.
        let target = |r| rect_target(program, r).expect("a checked rendering instance");
        let load = |o: LoadOp| match o {
            LoadOp::Load => vk::AttachmentLoadOp::LOAD,
            LoadOp::Clear => vk::AttachmentLoadOp::CLEAR,
            LoadOp::DontCare => vk::AttachmentLoadOp::DONT_CARE,
            LoadOp::None => vk::AttachmentLoadOp::NONE_KHR,
        };
        let store = |o: StoreOp| match o {
            StoreOp::Store => vk::AttachmentStoreOp::STORE,
            StoreOp::DontCare => vk::AttachmentStoreOp::DONT_CARE,
            StoreOp::None => vk::AttachmentStoreOp::NONE,
        };
        match op {
            RenderOp::Begin(r) => {
                let t = target(r);
                let mut colors = Vec::with_capacity(t.colors.len());
                for (a, ra) in r.colors.iter().zip(&t.colors) {
                    colors.push(
                        vk::RenderingAttachmentInfo::default()
                            .image_view(self.res.view_of(&ra.view, vk::ImageAspectFlags::COLOR)?)
                            .image_layout(vk::ImageLayout::from_raw(a.layout as i32))
                            .load_op(load(a.load))
                            .store_op(store(a.store))
                            .clear_value(vk::ClearValue {
                                color: vk::ClearColorValue { uint32: [0; 4] },
                            }),
                    );
                }
                let depth = match (&r.depth, &t.depth) {
                    (Some(a), Some(ra)) => Some(
                        vk::RenderingAttachmentInfo::default()
                            .image_view(self.res.view_of(&ra.view, vk::ImageAspectFlags::DEPTH)?)
                            .image_layout(vk::ImageLayout::from_raw(a.layout as i32))
                            .load_op(load(a.load))
                            .store_op(store(a.store))
                            .clear_value(vk::ClearValue {
                                depth_stencil: vk::ClearDepthStencilValue {
                                    depth: 0.0,
                                    stencil: 0,
                                },
                            }),
                    ),
                    _ => None,
                };
                let [w, h] = t.extent;
                let mut flags = vk::RenderingFlags::empty();
                if r.resuming {
                    flags |= vk::RenderingFlags::RESUMING;
                }
                if r.suspending {
                    flags |= vk::RenderingFlags::SUSPENDING;
                }
                let mut info = vk::RenderingInfo::default()
                    .flags(flags)
                    .render_area(vk::Rect2D {
                        offset: vk::Offset2D { x: 0, y: 0 },
                        extent: vk::Extent2D { width: w, height: h },
                    })
                    .layer_count(1)
                    .color_attachments(&colors);
                if let Some(depth) = depth.as_ref() {
                    info = info.depth_attachment(depth);
                }
                // SAFETY: recording state on a graphics queue's command
                // buffer (`Device::run` maps rendering programs there);
                // views of images with attachment usage, in the layouts
                // the model checked; the info outlives the call.
                unsafe { d.cmd_begin_rendering(cb, &info) };
            }
            // SAFETY: recording state inside the instance begun above
            // (`vksync::resolve` checked the nesting).
            RenderOp::End => unsafe { d.cmd_end_rendering(cb) },
            // `check_program` refuses render passes and attachment clears
            // (`CheckError::RenderPass`).
            RenderOp::BeginPass(_)
            | RenderOp::NextSubpass
            | RenderOp::EndSubpass { .. }
            | RenderOp::EndPass
            | RenderOp::Clear(_) => {}
            RenderOp::Draw(draw) => {
                let r =
                    crate::checks::open_rendering(program, ci).expect("a draw inside a rendering instance");
                let t = target(r);
                let vb = rect_draw(draw).expect("a checked draw");
                let (pipeline, pipeline_layout) = kernels.graphics(GraphicsKey {
                    colors: t.colors.len(),
                    depth: t.depth.is_some(),
                    depth_test: draw.depth_test,
                    depth_write: draw.depth_write,
                    color_write: draw.color_write,
                    // Fits: a stride past u32 is past every buffer the
                    // runtime makes (`maxVertexInputBindingStride` is far
                    // smaller; the validation layer reports it).
                    stride: vb.stride as u32,
                })?;
                let [w, h] = t.extent;
                let size: Vec<u8> = [w as f32, h as f32]
                    .iter()
                    .flat_map(|f| f.to_le_bytes())
                    .collect();
                let (vbuf, vbase) = self.buffer_base(layout, vb.buffer);
                // SAFETY: recording state inside a rendering instance whose
                // attachments match the pipeline's formats (the key); the
                // buffers have vertex, index and indirect usage; ranges
                // were checked by `vksync::resolve`.
                unsafe {
                    d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
                    d.cmd_push_constants(cb, pipeline_layout, vk::ShaderStageFlags::VERTEX, 0, &size);
                    d.cmd_set_viewport(
                        cb,
                        0,
                        &[vk::Viewport {
                            x: 0.0,
                            y: 0.0,
                            width: w as f32,
                            height: h as f32,
                            min_depth: 0.0,
                            max_depth: 1.0,
                        }],
                    );
                    d.cmd_set_scissor(
                        cb,
                        0,
                        &[vk::Rect2D {
                            offset: vk::Offset2D { x: 0, y: 0 },
                            extent: vk::Extent2D { width: w, height: h },
                        }],
                    );
                    d.cmd_bind_vertex_buffers(cb, 0, &[vbuf], &[vbase + vb.offset]);
                    if let Some(ib) = draw.index {
                        let (ibuf, ibase) = self.buffer_base(layout, ib.buffer);
                        let index_type = match ib.index_type {
                            vksync::IndexType::U16 => vk::IndexType::UINT16,
                            vksync::IndexType::U32 => vk::IndexType::UINT32,
                            // Refused by `rect_draw`.
                            vksync::IndexType::U8 => vk::IndexType::UINT8_EXT,
                        };
                        d.cmd_bind_index_buffer(cb, ibuf, ibase + ib.offset, index_type);
                    }
                    match draw.kind {
                        DrawKind::Draw {
                            vertex_count,
                            instance_count,
                            first_vertex,
                            first_instance,
                        } => d.cmd_draw(cb, vertex_count, instance_count, first_vertex, first_instance),
                        DrawKind::DrawIndexed {
                            index_count,
                            instance_count,
                            first_index,
                            first_instance,
                        } => d.cmd_draw_indexed(
                            cb,
                            index_count,
                            instance_count,
                            first_index,
                            0,
                            first_instance,
                        ),
                        DrawKind::Indirect {
                            indexed,
                            buffer,
                            offset,
                            draw_count,
                            stride,
                        } => {
                            let (buf, base) = self.buffer_base(layout, buffer);
                            if indexed {
                                d.cmd_draw_indexed_indirect(cb, buf, base + offset, draw_count, stride);
                            } else {
                                d.cmd_draw_indirect(cb, buf, base + offset, draw_count, stride);
                            }
                        }
                        // Refused by `rect_draw`.
                        DrawKind::IndirectCount { .. } => {}
                    }
                }
            }
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
            Command::Image(ic) => self.record_image(cb, &ic.op, layout),
            Command::Render(rc) => self.record_render(cb, &rc.op, ci, layout, kernels)?,
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
                let set = if pipeline.images {
                    let Command::Dispatch { bindings, .. } = c else {
                        unreachable!("a dispatch")
                    };
                    // A storage image is in GENERAL; a sampled image in
                    // the layout its binding names (checked by the model).
                    let views = plan
                        .views
                        .iter()
                        .zip(bindings)
                        .zip(&pipeline.types)
                        .map(|((v, b), &ty)| {
                            let layout = match b.access {
                                vksync::BindingAccess::SampledImage(l) => vk::ImageLayout::from_raw(l as i32),
                                _ => vk::ImageLayout::GENERAL,
                            };
                            Ok((self.res.view(v)?, ty, layout))
                        })
                        .collect::<Result<Vec<_>>>()?;
                    self.res
                        .descriptors
                        .borrow_mut()
                        .set_for_images(d, pipeline.set_layout, &views)?
                } else {
                    let ranges: Vec<_> = plan
                        .bindings
                        .iter()
                        .map(|b| (self.buffer(b.mem), b.offset, b.range))
                        .collect();
                    self.res
                        .descriptors
                        .borrow_mut()
                        .set_for(d, pipeline.set_layout, &ranges)?
                };
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
                debug_assert_eq!(pipeline.bindings, plan.bindings.len() + plan.views.len());
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
                        None => d.cmd_dispatch(cb, plan.groups[0], plan.groups[1], plan.groups[2]),
                    }
                }
            }
            Command::Barrier(dep) => {
                let (globals, buffers, images) = self.dependency_parts(dep, layout);
                let info = vk::DependencyInfo::default()
                    .memory_barriers(&globals)
                    .buffer_memory_barriers(&buffers)
                    .image_memory_barriers(&images);
                // SAFETY: recording state; flags were validated by
                // `vksync::resolve` and ranges are in bounds.
                unsafe { d.cmd_pipeline_barrier2(cb, &info) };
            }
            Command::SetEvent { event, dependency } => {
                let (globals, buffers, images) = self.dependency_parts(dependency, layout);
                let info = vk::DependencyInfo::default()
                    .memory_barriers(&globals)
                    .buffer_memory_barriers(&buffers)
                    .image_memory_barriers(&images);
                // SAFETY: recording state on a compute-capable family
                // (`crate::queues`); a live event; flags validated by
                // `vksync::resolve` (no HOST source stage), ranges in
                // bounds.
                unsafe { d.cmd_set_event2(cb, self.events[event.0 as usize], &info) };
            }
            Command::WaitEvents { waits } => {
                let parts: Vec<DependencyParts> = waits
                    .iter()
                    .map(|w| self.dependency_parts(&w.dependency, layout))
                    .collect();
                let infos: Vec<vk::DependencyInfo> = parts
                    .iter()
                    .map(|(g, b, i)| {
                        vk::DependencyInfo::default()
                            .memory_barriers(g)
                            .buffer_memory_barriers(b)
                            .image_memory_barriers(i)
                    })
                    .collect();
                let events: Vec<vk::Event> = waits.iter().map(|w| self.events[w.event.0 as usize]).collect();
                // SAFETY: recording state on a compute-capable family;
                // live events, each set earlier (on this queue or by the
                // host) with no reset since and with an equal dependency
                // info (checked by `vksync::resolve`).
                unsafe { d.cmd_wait_events2(cb, &events, &infos) };
            }
            Command::SetEvent1 { event, stage_mask } => {
                // SAFETY: recording state on a compute-capable family
                // (`crate::queues`); a live event; a synchronization-1
                // stage mask without HOST (checked by `vksync::resolve`).
                unsafe {
                    d.cmd_set_event(
                        cb,
                        self.res.events[event.0 as usize],
                        vksync::ash::stage_mask1(*stage_mask),
                    )
                };
            }
            Command::WaitEvents1 { events, dependency } => {
                // One srcStageMask and one dstStageMask for the call: every
                // barrier carries them (checked by `vksync::Program`).
                let (src, dst) = c
                    .wait_stage_masks()
                    .expect("a vkCmdWaitEvents has at least one barrier");
                // The barriers as a pipeline barrier's (buffer ranges,
                // image barriers with their layouts: a transition is part
                // of the wait's dependency; a buffer-form barrier over an
                // image's bytes global), downgraded to synchronization 1,
                // with no workaround: the flags are synchronization-1
                // ones, kept bit for bit. Events carry no ownership
                // transfer.
                let (memory, buffers, images) = self.dependency_parts_with(dependency, layout, &[]);
                let d1 = vksync::ash::Dependency2 {
                    memory,
                    buffers,
                    images,
                }
                .to_sync1();
                let events: Vec<vk::Event> = events.iter().map(|e| self.res.events[e.0 as usize]).collect();
                // SAFETY: recording state on a compute-capable family;
                // live events, each set earlier by vkCmdSetEvent on this
                // queue or by the host, with no reset since, and a
                // srcStageMask that is the OR of their stage masks (and
                // HOST for a host set) (checked by `vksync::resolve`);
                // synchronization-1 flags, kept bit for bit,
                // ranges in bounds, no ownership transfer; image barriers
                // of live images, their layouts the model's at the wait
                // (checked by `vksync::resolve`'s layout rules).
                unsafe {
                    d.cmd_wait_events(
                        cb,
                        &events,
                        vksync::ash::stage_mask1(src),
                        vksync::ash::stage_mask1(dst),
                        &d1.memory,
                        &d1.buffers,
                        &d1.images,
                    )
                };
            }
            Command::ResetEvent { event, stages } => {
                // SAFETY: recording state on a compute-capable family; a
                // live event; a stage mask without HOST (checked).
                unsafe {
                    d.cmd_reset_event2(
                        cb,
                        self.events[event.0 as usize],
                        vksync::ash::stage_mask(*stages),
                    )
                };
            }
            // Host, lifetime and queue commands are handled by `Device::run`.
            Command::Alloc { .. }
            | Command::Free { .. }
            | Command::HostWrite { .. }
            | Command::HostRead { .. }
            | Command::Submit(_)
            | Command::Wait(_)
            | Command::HostSignal { .. }
            | Command::HostWait { .. }
            | Command::HostSetEvent { .. }
            | Command::HostResetEvent { .. } => {}
        }
        Ok(())
    }
}
