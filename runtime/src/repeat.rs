//! Benchmarking paths: record once and submit many times, and record only.
//!
//! This module owns two ways of running programs that [`Device::run`] does
//! not offer, both for measurement:
//!
//! * [`Device::prepare`] records each of several programs once, over **one
//!   shared set of memory objects** (the programs must share one layout:
//!   the same program with different barriers, as the planners produce).
//!   A program is cut into **batches** at its `submit`s, as [`Device::run`]
//!   cuts it (the commands after the last `submit` are one more batch, on
//!   the first queue); each batch is recorded once into its own
//!   re-submittable command buffer, from the command pool of its queue's
//!   family, with a timestamp before and after it. Model queues map onto
//!   device queues as [`Device::run`] maps them ([`QueueMapping::new`]:
//!   compute-only family first, a transfer-only family for queues that
//!   only copy and fill; [`Prepared::queue_mapping`] reports it).
//!   [`Prepared::execute`] submits every batch of one program in program
//!   order, back to back (one `vkQueueSubmit2` each, with the batch's
//!   semaphore waits and signals and their stage masks), waits for all of
//!   them and returns the **GPU span** (the latest end timestamp minus the
//!   earliest start timestamp over the batches; for one batch, the time
//!   between its two timestamps) and the wall-clock time. Interleaving
//!   `execute(0)`, `execute(1)`, ... over repetitions compares plans under
//!   the same conditions.
//! * [`Device::time_recording`] records a program into a command buffer
//!   repeatedly, never submitting it, and times only the recording
//!   (`vkBeginCommandBuffer` to `vkEndCommandBuffer`, including the
//!   descriptor-set updates each dispatch needs). With and without the
//!   validation layer this isolates the layer's per-command cost. It takes
//!   device commands of one queue only.
//!
//! What a prepared program may hold: device commands, barriers, events
//! (`set-event`, `wait-events`, `reset-event`), `submit`s to any of its
//! queues with binary semaphore waits and signals, and `alloc`/`free`;
//! then, at its end only, `wait`s and `host-read`s ([`Prepared::execute`]
//! waits for everything; [`Prepared::readbacks`] performs the reads).
//! Anything else is a typed error before any Vulkan work:
//! [`RuntimeError::NotRepeatable`] (host writes, host semaphore and event
//! operations, a wait or read before device work, an ownership transfer,
//! which would leave the buffer with another family when the next
//! execution starts), [`RuntimeError::TimelineNotRepeatable`] and
//! [`RuntimeError::SemaphoreLeftSignalled`].
//!
//! Invariants that make a prepared program re-executable:
//!
//! * **Binary semaphores are balanced**: every signal is waited for later
//!   in the program (each semaphore is unsignalled when an execution
//!   ends). Where the device has timeline semaphores (Vulkan 1.2 core)
//!   each of a program's binary semaphores is created as a *timeline*
//!   semaphore and its k-th signal of execution n (from 0) signals value
//!   `n * K + k` (K: the program's signals of it per execution), its waits
//!   wait for the value of the signal they pair with: the same signal
//!   and wait operations, scopes and stage masks, but a wait may be
//!   submitted before its signal's batch can run (see the start gate).
//!   The program's own timeline semaphores are refused rather than offset
//!   ([`RuntimeError::TimelineNotRepeatable`]): their values are part of
//!   the program.
//! * **Events start unsignalled**: the events a program leaves set are
//!   reset on the host (`vkResetEvent`) before each execution, outside the
//!   timed interval (no command uses them then: the last execution was
//!   seen complete).
//! * **Timestamp queries are reset before each execution**: inside the
//!   batch's command buffer on a compute-capable family (as the
//!   single-batch path always did); on a transfer-only family, where
//!   `vkCmdResetQueryPool` is not allowed, on the host (`vkResetQueryPool`,
//!   needs [`DeviceInfo::host_query_reset`](crate::DeviceInfo)), and without
//!   it, or on a family with `timestampValidBits` 0, the batch is not timed
//!   ([`Execution::timed_batches`] says how many were).
//! * **At most one execution is in flight**: each model queue's last batch
//!   carries a fence (a fence signal covers every earlier submission to its
//!   `VkQueue`), and the next execution first waits for those fences. No
//!   command buffer is re-submitted, and no object freed, before they
//!   signal.
//!
//! **The start gate.** Submitting batch after batch from the host takes
//! time (microseconds per `vkQueueSubmit2`), and a GPU that finishes a
//! batch before the next is submitted idles: the span would then measure
//! the host. So when a program has more than one batch, the first batch
//! of each device queue it uses also waits (`ALL_COMMANDS`) for the
//! *gate*, a timeline semaphore of the runtime's own, at a value no
//! execution reached yet; the host signals that value
//! (`vkSignalSemaphore`) only after every batch is submitted: the GPU
//! starts with all the work queued, and the span is GPU time only. A
//! wait of a timeline value may be submitted before its signal ("When
//! using timeline semaphores, wait-before-signal behavior is
//! well-defined"); the gate is neither an event set by the host (a host
//! set of an event a pending command buffer waits on is invalid,
//! VUID-vkSetEvent-event-09543: "Events signaled by the host must be
//! signaled before the command buffer waits on those events") nor a
//! binary semaphore (a binary wait needs every signal its signal depends
//! on submitted, VUID-vkQueueSubmit2-semaphore-03873), and for the same
//! reason the program's binary semaphores become timeline ones (above).
//! Not gated: a program of one batch (submitted exactly as before the
//! gate existed), and every program on a device without timeline
//! semaphores. [`Prepared::gated`] says which programs are gated;
//! [`Prepared::set_gate`] turns the gate off (the batches then start as
//! they are submitted).
//!
//! Recording is the same code as [`Device::run`]'s (`Recorder::record`);
//! neither path adds barriers.

use crate::checks::{check_program, CheckError, CheckedDispatch, CheckedProgram};
use crate::device::{Device, RunParts};
use crate::error::{Result, RuntimeError, VkContext};
use crate::queues::QueueMapping;
use crate::recorder::{
    read_timestamps, semaphore_submit_info, timestamp_mask, with_mapped, DeviceReadback, MemoryObject,
    Recorder,
};
use crate::resources::{wait_all, Resources, Sharing};
use crate::validation::{Capture, ValidationMessage};
use ash::vk;
use std::time::{Duration, Instant};
use vksync::{Command, EventId, Layout, MemId, Program, QueueId, SemaphoreId, SemaphoreType};

/// One timed execution of a prepared program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Execution {
    /// GPU span: the latest end timestamp minus the earliest start
    /// timestamp over the batches that wrote timestamps (for one batch,
    /// the time between its two timestamps); `None` when none did. Across
    /// queues it assumes one time base, as
    /// [`RunResult::gpu_span_ns`](crate::RunResult::gpu_span_ns) does.
    pub gpu_ns: Option<u64>,
    /// Host time from the first `vkQueueSubmit2` to the fence wait
    /// returning (every submission, opening the gate, the execution).
    pub wall_ns: u64,
    /// Batches submitted (one `vkQueueSubmit2` each).
    pub batches: usize,
    /// How many of them wrote timestamps: `gpu_ns` covers only those.
    pub timed_batches: usize,
}

/// Programs recorded once, ready to be submitted repeatedly.
pub struct Prepared<'a> {
    res: Resources<'a>,
    capture: &'a Capture,
    programs: Vec<PreparedProgram>,
    /// The start gate (see the module documentation): a timeline
    /// semaphore, when the device has them and some program has more
    /// than one batch.
    gate: Option<vk::Semaphore>,
    /// The gate's last value signalled (or waited for: a failed
    /// execution's is signalled too, so it is never reused).
    gate_value: u64,
    /// Whether executions of programs with several batches wait for the
    /// gate.
    gated: bool,
    /// The execution submitted and not yet seen complete (its fence wait
    /// timed out or failed). While it is set, nothing is submitted and no
    /// command buffer is re-recorded or freed.
    pending: Option<Pending>,
    /// Set when a submission failed half way (or the gate could not be
    /// opened): the program and why. Nothing is submitted after that.
    unusable: Option<(usize, String)>,
    timestamp_period: f32,
    memory: Vec<MemoryObject>,
    /// Messages that arrived while recording each program, then those of
    /// each program's executions, by program index.
    messages: Vec<Vec<ValidationMessage>>,
    /// How long the host waits, after submitting a gated execution,
    /// before it opens the gate (tests only: the span must not include it).
    #[cfg(test)]
    gate_delay: Duration,
}

/// An execution whose fences have not been seen signalled.
struct Pending {
    program: usize,
    fences: Vec<vk::Fence>,
}

/// One program of a [`Prepared`].
struct PreparedProgram {
    batches: Vec<Batch>,
    /// Executions submitted so far (the program's semaphore values
    /// follow it).
    executions: u64,
    /// Events it leaves set: reset on the host before each execution.
    reset_events: Vec<vk::Event>,
    /// Its trailing host reads.
    reads: Vec<Read>,
    /// Program commands recorded (every batch).
    recorded: usize,
    mapping: QueueMapping,
}

/// One semaphore operation of a prepared batch: on the program's
/// semaphore that stands for a binary one, its `nth` signal (from 1) of
/// `per_execution` signals in each execution (see the module
/// documentation); the value is ignored where the semaphore is binary.
#[derive(Clone, Copy)]
struct SemOp {
    semaphore: vk::Semaphore,
    nth: u64,
    per_execution: u64,
    stages: vksync::PipelineStageFlags2,
}

impl SemOp {
    /// The operation of execution `n` (from 0).
    fn info(&self, n: u64) -> vk::SemaphoreSubmitInfo<'static> {
        let value = n * self.per_execution + self.nth;
        semaphore_submit_info(self.semaphore, Some(value), self.stages)
    }
}

/// One recorded batch: the commands up to and including a `submit`.
struct Batch {
    queue: vk::Queue,
    /// `None` for a batch of semaphore operations only.
    cb: Option<vk::CommandBuffer>,
    /// Its semaphore waits and signals.
    waits: Vec<SemOp>,
    signals: Vec<SemOp>,
    /// The first batch of its device queue in the program: it waits for
    /// the gate when the execution is gated.
    gate_wait: bool,
    /// Its model queue's fence when it is that queue's last batch, else
    /// null.
    fence: vk::Fence,
    timing: Option<Timing>,
}

/// Where a batch's two timestamps go.
#[derive(Clone, Copy)]
struct Timing {
    /// Queries `2 * slot` (start) and `2 * slot + 1` (end).
    slot: u32,
    /// The mask of its family's valid bits.
    mask: u64,
    /// Reset on the host before each execution (a transfer-only family)
    /// rather than in the command buffer.
    host_reset: bool,
}

/// Where one batch goes.
#[derive(Clone, Copy)]
struct BatchTarget {
    queue: vk::Queue,
    /// Its `queueFamilyIndex`.
    family: u32,
    timing: Option<Timing>,
}

/// A trailing `host-read`, placed.
struct Read {
    command: usize,
    mem: MemId,
    start: u64,
    end: u64,
}

/// A program cut into batches ([`split_batches`]).
struct Batches {
    batches: Vec<BatchPlan>,
    /// Trailing `host-read` commands.
    reads: Vec<usize>,
    /// Program commands recorded (every batch).
    recorded: usize,
    /// Events the program leaves set.
    left_set: Vec<EventId>,
}

/// The commands of one batch and where they go.
struct BatchPlan {
    /// The model queue.
    queue: QueueId,
    /// The recorded commands.
    commands: Vec<usize>,
    /// The `submit` that ends it; `None` for the commands after the last.
    submit: Option<usize>,
    /// Recorded into a command buffer (it has commands, or it is the only
    /// batch of a program without any).
    record: bool,
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

/// Why a host command is refused in the middle of a prepared program.
const HOST_IN_THE_MIDDLE: &str = "`wait` and `host-read` may only end a prepared program (after its last \
     device command and submit): its batches are submitted back to back";
/// Why the other host commands are refused in prepared programs.
const HOST_COMMAND: &str = "a prepared program runs on the device, and the host only waits for it and reads \
     back at its end (no host writes, host semaphore or host event operations)";
/// Why ownership transfers are refused in prepared programs.
const OWNERSHIP: &str = "a queue family ownership transfer leaves the buffer owned by another family than \
     the one the next execution starts on";
/// Why record-only timing refuses host and queue commands.
const RECORD_ONLY: &str =
    "record-only timing takes device commands of one queue only (no host accesses, submits or waits)";

/// Rejects commands that need the host or the queue mid-program (record-only
/// timing).
fn check_repeatable(program: &Program) -> Result<usize> {
    let mut recorded = 0;
    for (ci, c) in program.commands().iter().enumerate() {
        match c {
            Command::HostRead { .. } | Command::HostWrite { .. } | Command::Submit(_) | Command::Wait(_) => {
                return Err(RuntimeError::NotRepeatable {
                    command: ci,
                    keyword: c.keyword(),
                    reason: RECORD_ONLY,
                })
            }
            Command::Alloc { .. } | Command::Free { .. } => {}
            _ => recorded += 1,
        }
    }
    Ok(recorded)
}

/// Cuts a program into batches at its `submit`s (a plain `submit` with
/// nothing recorded before it is no batch, as in [`Device::run`]) and
/// checks that it can be executed again and again (see the module
/// documentation). Pure: no Vulkan call.
fn split_batches(program: &Program) -> Result<Batches> {
    if let Some((i, s)) = program
        .semaphores()
        .iter()
        .enumerate()
        .find(|(_, s)| matches!(s.kind, SemaphoreType::Timeline { .. }))
    {
        return Err(RuntimeError::TimelineNotRepeatable {
            semaphore: SemaphoreId(i as u32),
            name: s.name.clone(),
        });
    }
    let mut batches = Vec::new();
    let mut open = Vec::new();
    let mut reads = Vec::new();
    let mut recorded = 0;
    // The first `wait` or `host-read`: from there on only more of them.
    let mut tail: Option<(usize, &'static str)> = None;
    let in_the_middle = |(command, keyword): (usize, &'static str)| RuntimeError::NotRepeatable {
        command,
        keyword,
        reason: HOST_IN_THE_MIDDLE,
    };
    // Per binary semaphore, the submit whose signal is not waited for yet.
    let mut signalled: Vec<Option<usize>> = vec![None; program.semaphores().len()];
    let mut set = vec![false; program.events().len()];
    for (ci, c) in program.commands().iter().enumerate() {
        match c {
            Command::Alloc { .. } | Command::Free { .. } => {}
            Command::Wait(_) => {
                tail.get_or_insert((ci, c.keyword()));
            }
            Command::HostRead { .. } => {
                tail.get_or_insert((ci, c.keyword()));
                reads.push(ci);
            }
            Command::HostWrite { .. }
            | Command::HostSignal { .. }
            | Command::HostWait { .. }
            | Command::HostSetEvent { .. }
            | Command::HostResetEvent { .. } => {
                return Err(RuntimeError::NotRepeatable {
                    command: ci,
                    keyword: c.keyword(),
                    reason: HOST_COMMAND,
                })
            }
            Command::Submit(s) => {
                if let Some(t) = tail {
                    return Err(in_the_middle(t));
                }
                // Waits happen before the batch, signals after it.
                for w in &s.waits {
                    signalled[w.semaphore.0 as usize] = None;
                }
                for g in &s.signals {
                    signalled[g.semaphore.0 as usize] = Some(ci);
                }
                if open.is_empty() && s.waits.is_empty() && s.signals.is_empty() {
                    continue;
                }
                batches.push(BatchPlan {
                    queue: s.queue,
                    record: !open.is_empty(),
                    commands: std::mem::take(&mut open),
                    submit: Some(ci),
                });
            }
            Command::Barrier(d)
                if d.barriers.iter().any(|b| {
                    b.ownership
                        .is_some_and(|o| o.src_queue_family != o.dst_queue_family)
                }) =>
            {
                return Err(RuntimeError::NotRepeatable {
                    command: ci,
                    keyword: c.keyword(),
                    reason: OWNERSHIP,
                })
            }
            _ => {
                if let Some(t) = tail {
                    return Err(in_the_middle(t));
                }
                match c {
                    Command::SetEvent { event, .. } | Command::SetEvent1 { event, .. } => {
                        set[event.0 as usize] = true
                    }
                    Command::ResetEvent { event, .. } => set[event.0 as usize] = false,
                    _ => {}
                }
                open.push(ci);
                recorded += 1;
            }
        }
    }
    if let Some((i, command)) = signalled.iter().enumerate().find_map(|(i, s)| s.map(|c| (i, c))) {
        return Err(RuntimeError::SemaphoreLeftSignalled {
            command,
            semaphore: program.semaphore_name(SemaphoreId(i as u32)).to_string(),
        });
    }
    // Commands after the last submit go to the first queue, as in
    // `Device::run`; a program without any batch still gets one command
    // buffer, so that every program is timed (as the single-batch path
    // always did).
    if !open.is_empty() || batches.is_empty() {
        batches.push(BatchPlan {
            queue: QueueId(0),
            commands: open,
            submit: None,
            record: true,
        });
    }
    Ok(Batches {
        batches,
        reads,
        recorded,
        left_set: (0..set.len())
            .filter(|&e| set[e])
            .map(|e| EventId(e as u32))
            .collect(),
    })
}

/// Where a batch's timestamp queries are reset, when it can be timed at
/// all: `Some(false)` in its command buffer (a compute-capable family),
/// `Some(true)` on the host, `None`: not timed.
fn timing_kind(
    family: &crate::QueueFamily,
    host_query_reset: bool,
    host_reset_everywhere: bool,
) -> Option<bool> {
    if family.timestamp_valid_bits == 0 {
        None
    } else if (family.compute || family.graphics) && !host_reset_everywhere {
        Some(false)
    } else if host_query_reset {
        Some(true)
    } else {
        None
    }
}

impl Device {
    /// Records each program once, batch by batch, over one shared set of
    /// memory objects (all device-local except those a trailing
    /// `host-read` reads, each as large as the largest program needs it),
    /// with a timestamp before and after each batch. The programs must
    /// have the same memory objects (the same program with other barriers,
    /// or scheduled: blobs placed elsewhere in their pools) and be
    /// re-executable (see the module documentation).
    pub fn prepare(&mut self, programs: &[Program]) -> Result<Prepared<'_>> {
        self.prepare_with(programs, false)
    }

    /// [`Device::prepare`]; with `host_reset_everywhere`, every batch's
    /// queries are reset on the host (the transfer-only family's way),
    /// so that a device with one family tests that path too.
    pub(crate) fn prepare_with(
        &mut self,
        programs: &[Program],
        host_reset_everywhere: bool,
    ) -> Result<Prepared<'_>> {
        // Every check before any Vulkan work.
        let mut splits = Vec::with_capacity(programs.len());
        let mut checked: Vec<CheckedProgram> = Vec::with_capacity(programs.len());
        let mut mappings = Vec::with_capacity(programs.len());
        for (i, p) in programs.iter().enumerate() {
            splits.push(split_batches(p)?);
            let c = check_program(p, &self.info.limits)?;
            refuse_images(p)?;
            // One set of memory objects serves every program: the same
            // memory objects (a schedule may place blobs elsewhere in a
            // pool, and make the pool larger).
            if let Some(first) = checked.first() {
                if first.layout.memory_sizes.len() != c.layout.memory_sizes.len() {
                    return Err(RuntimeError::LayoutMismatch { program: i });
                }
            }
            checked.push(c);
            mappings.push(
                QueueMapping::new(p, &self.info.queue_families, self.info.queue_family)
                    .map_err(|(at, source)| RuntimeError::Check { at, source })?,
            );
        }

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
        let n_mem = checked.first().map_or(0, |c| c.layout.memory_sizes.len());
        // Each memory object as large as the largest program needs it,
        // host visible when a program reads it back.
        let mut sizes = vec![0u64; n_mem];
        let mut host_read = vec![false; n_mem];
        for c in &checked {
            for (m, &size) in c.layout.memory_sizes.iter().enumerate() {
                sizes[m] = sizes[m].max(size);
                host_read[m] |= c.host_read[m];
            }
        }
        // Concurrent over every device family some program uses, unless
        // the program declares the object exclusive (as `Device::run`).
        let mut families: Vec<u32> = Vec::new();
        for f in mappings.iter().flat_map(|m| m.used_families()) {
            if !families.contains(&f) {
                families.push(f);
            }
        }
        let exclusive: Vec<bool> = (0..n_mem)
            .map(|m| {
                families.len() < 2
                    || programs.iter().zip(&checked).any(|(p, c)| {
                        c.layout
                            .owner_object(MemId(m as u32))
                            .and_then(|o| p.object(o))
                            .is_some_and(|o| o.sharing == vksync::SharingMode::Exclusive)
                    })
            })
            .collect();
        let sharing = |m: usize| {
            if exclusive[m] {
                Sharing::Exclusive
            } else {
                Sharing::Concurrent(families.clone())
            }
        };
        let memory = match checked.first() {
            Some(c) => {
                let mut merged: Layout = c.layout.clone();
                merged.memory_sizes = sizes;
                res.create_shared_memory(&merged, &host_read, &vec![false; n_mem], &[], &sharing)?
            }
            None => Vec::new(),
        };

        // Per batch: its device queue, pool and timing; the queries they
        // need decide the query pool's size.
        let mut slots = 0u32;
        let mut plans = Vec::with_capacity(programs.len());
        for (split, mapping) in splits.iter().zip(&mappings) {
            let mut batch_plans = Vec::with_capacity(split.batches.len());
            for b in &split.batches {
                let dq = mapping.queues[b.queue.0 as usize];
                let family = &info.queue_families[dq.family];
                let timing = match timing_kind(family, info.host_query_reset, host_reset_everywhere) {
                    Some(host_reset) if b.record => {
                        slots += 1;
                        Some(Timing {
                            slot: slots - 1,
                            mask: timestamp_mask(family.timestamp_valid_bits),
                            host_reset,
                        })
                    }
                    _ => None,
                };
                batch_plans.push(BatchTarget {
                    queue: device_queues[dq.family][dq.index as usize],
                    family: family.index,
                    timing,
                });
            }
            plans.push(batch_plans);
        }
        res.create_pools(info.queue_family, vk::CommandPoolCreateFlags::empty(), 2 * slots)?;
        let mut pools = Vec::with_capacity(plans.len());
        for batch_plans in &plans {
            let mut p = Vec::with_capacity(batch_plans.len());
            for t in batch_plans {
                p.push(res.pool_for(t.family, info.queue_family)?);
            }
            pools.push(p);
        }
        // Each program's semaphores and events: `[first, end)` of the
        // shared lists. Binary semaphores become timeline ones where the
        // device has them (see the module documentation).
        let timelines = info.timeline_semaphores;
        let mut sync_ranges = Vec::with_capacity(programs.len());
        for p in programs {
            let (s0, e0) = (res.semaphores.len(), res.events.len());
            res.create_sync_objects(p, timelines)?;
            sync_ranges.push((s0..res.semaphores.len(), e0..res.events.len()));
        }
        // Timeline semaphores are enabled (`timelines`).
        let gate = if timelines && splits.iter().any(|s| s.batches.len() > 1) {
            Some(res.create_semaphore(Some(0))?)
        } else {
            None
        };

        let mut prepared_programs = Vec::with_capacity(programs.len());
        let mut messages = Vec::with_capacity(programs.len());
        for (pi, p) in programs.iter().enumerate() {
            let split = &splits[pi];
            let (sems, events) = &sync_ranges[pi];
            let semaphores = &res.semaphores[sems.clone()];
            let rec = Recorder {
                device,
                res: &res,
                events: &res.events[events.clone()],
                fence_timeout,
                timestamp_period: info.timestamp_period,
                quirks: &info.quirks,
                mapping: Some(&mappings[pi]),
                program: None,
            };
            let source = Source {
                program: p,
                layout: &checked[pi].layout,
                dispatches: &checked[pi].dispatches,
                kernels,
            };
            let layout = source.layout;
            // Each model queue's last batch carries its fence.
            let mut last_of_queue: Vec<Option<usize>> = vec![None; p.queue_count()];
            for (bi, b) in split.batches.iter().enumerate() {
                last_of_queue[b.queue.0 as usize] = Some(bi);
            }
            // Each semaphore's signals per execution; a wait pairs with
            // the semaphore's latest signal (a binary semaphore is signalled
            // again only after that signal was waited for).
            let mut signal_count = vec![0u64; p.semaphores().len()];
            for c in p.commands() {
                if let Command::Submit(s) = c {
                    for g in &s.signals {
                        signal_count[g.semaphore.0 as usize] += 1;
                    }
                }
            }
            let mut nth = vec![0u64; p.semaphores().len()];
            let mut queues_seen: Vec<vk::Queue> = Vec::new();
            let mut batches = Vec::with_capacity(split.batches.len());
            for (bi, b) in split.batches.iter().enumerate() {
                let BatchTarget { queue, timing, .. } = plans[pi][bi];
                let cb = if b.record {
                    Some(record_batch(
                        &rec,
                        capture,
                        pools[pi][bi],
                        timing,
                        &source,
                        &b.commands,
                    )?)
                } else {
                    None
                };
                let fence = if last_of_queue[b.queue.0 as usize] == Some(bi) {
                    // SAFETY: valid device.
                    let f = unsafe { device.create_fence(&vk::FenceCreateInfo::default(), None) }
                        .ctx("vkCreateFence")?;
                    res.fences.borrow_mut().push(f);
                    f
                } else {
                    vk::Fence::null()
                };
                let submit = b.submit.and_then(|ci| match &p.commands()[ci] {
                    Command::Submit(s) => Some(s),
                    _ => None,
                });
                let gate_wait = !queues_seen.contains(&queue);
                if gate_wait {
                    queues_seen.push(queue);
                }
                let (mut waits, mut signals) = (Vec::new(), Vec::new());
                if let Some(s) = submit {
                    for w in &s.waits {
                        let i = w.semaphore.0 as usize;
                        waits.push(SemOp {
                            semaphore: semaphores[i],
                            nth: nth[i],
                            per_execution: signal_count[i],
                            stages: w.stages,
                        });
                    }
                    for g in &s.signals {
                        let i = g.semaphore.0 as usize;
                        nth[i] += 1;
                        signals.push(SemOp {
                            semaphore: semaphores[i],
                            nth: nth[i],
                            per_execution: signal_count[i],
                            stages: g.stages,
                        });
                    }
                }
                batches.push(Batch {
                    queue,
                    cb,
                    waits,
                    signals,
                    gate_wait,
                    fence,
                    timing,
                });
            }
            messages.push(capture.take());
            let reads = split
                .reads
                .iter()
                .filter_map(|&ci| match &p.commands()[ci] {
                    Command::HostRead { src } => layout.locate(*src).map(|m| Read {
                        command: ci,
                        mem: m.mem,
                        start: m.range.start,
                        end: m.range.end,
                    }),
                    _ => None,
                })
                .collect();
            prepared_programs.push(PreparedProgram {
                batches,
                executions: 0,
                reset_events: split
                    .left_set
                    .iter()
                    .map(|e| res.events[events.start + e.0 as usize])
                    .collect(),
                reads,
                recorded: split.recorded,
                mapping: mappings[pi].clone(),
            });
        }
        if let Some(last) = messages.last_mut() {
            last.extend(capture.take());
        }
        Ok(Prepared {
            res,
            capture,
            programs: prepared_programs,
            gate,
            gate_value: 0,
            gated: true,
            pending: None,
            unusable: None,
            timestamp_period: info.timestamp_period,
            memory,
            messages,
            #[cfg(test)]
            gate_delay: Duration::ZERO,
        })
    }

    /// Records `program` `reps` times into a fresh command buffer each time
    /// and never submits it; times each recording. The program must hold
    /// device commands of one queue only.
    pub fn time_recording(&mut self, program: &Program, reps: usize) -> Result<RecordTiming> {
        let recorded = check_repeatable(program)?;
        program.require_single_queue()?;
        let checked = check_program(program, &self.info.limits)?;
        refuse_images(program)?;
        let (layout, dispatches) = (checked.layout, checked.dispatches);

        let RunParts {
            device,
            capture,
            allocator,
            kernels,
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
            events: &res.events,
            fence_timeout,
            timestamp_period: info.timestamp_period,
            quirks: &info.quirks,
            mapping: None,
            program: None,
        };
        let source = Source {
            program,
            layout: &layout,
            dispatches: &dispatches,
            kernels,
        };
        let commands: Vec<usize> = (0..program.commands().len())
            .filter(|&ci| {
                !matches!(
                    program.commands()[ci],
                    Command::Alloc { .. } | Command::Free { .. }
                )
            })
            .collect();
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
            source.record(&rec, capture, cb, &commands)?;
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

/// What recording a program's commands needs besides the recorder.
struct Source<'p> {
    program: &'p Program,
    layout: &'p Layout,
    dispatches: &'p [Option<CheckedDispatch>],
    kernels: &'p crate::kernels::Kernels,
}

impl Source<'_> {
    /// Records program commands `commands` into `cb` (recording state),
    /// stamping validation messages with the command index.
    fn record(
        &self,
        rec: &Recorder<'_>,
        capture: &Capture,
        cb: vk::CommandBuffer,
        commands: &[usize],
    ) -> Result<()> {
        for &ci in commands {
            capture.set_command(Some(ci));
            let c = &self.program.commands()[ci];
            rec.record(cb, c, ci, self.layout, self.dispatches[ci].as_ref(), self.kernels)?;
        }
        capture.set_command(None);
        Ok(())
    }
}

/// Records one batch into a new command buffer of `pool` (its queue's
/// family), between its two timestamps when it is timed; ended, ready to
/// be submitted any number of times (no `ONE_TIME_SUBMIT`).
fn record_batch(
    rec: &Recorder<'_>,
    capture: &Capture,
    pool: vk::CommandPool,
    timing: Option<Timing>,
    source: &Source<'_>,
    commands: &[usize],
) -> Result<vk::CommandBuffer> {
    let device = rec.device;
    let query_pool = rec.res.query_pool;
    // SAFETY: the pool is live and used only from this thread.
    let cb = unsafe {
        device.allocate_command_buffers(
            &vk::CommandBufferAllocateInfo::default()
                .command_pool(pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1),
        )
    }
    .ctx("vkAllocateCommandBuffers")?[0];
    // SAFETY: a freshly allocated command buffer; no ONE_TIME_SUBMIT, so it
    // can be submitted again once done.
    unsafe { device.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default()) }
        .ctx("vkBeginCommandBuffer")?;
    if let Some(t) = timing {
        let first = 2 * t.slot;
        // SAFETY: recording state; queries [first, first+2) exist and
        // belong to this command buffer only; `vkCmdResetQueryPool` only
        // on a compute-capable family (`timing_kind`), the others are
        // reset on the host before each execution.
        unsafe {
            if !t.host_reset {
                device.cmd_reset_query_pool(cb, query_pool, first, 2);
            }
            device.cmd_write_timestamp2(cb, vk::PipelineStageFlags2::TOP_OF_PIPE, query_pool, first);
        }
    }
    source.record(rec, capture, cb, commands)?;
    if let Some(t) = timing {
        // SAFETY: recording state; the query was reset (above, or on the
        // host before every submission).
        unsafe {
            device.cmd_write_timestamp2(
                cb,
                vk::PipelineStageFlags2::BOTTOM_OF_PIPE,
                query_pool,
                2 * t.slot + 1,
            )
        };
    }
    // SAFETY: recording state.
    unsafe { device.end_command_buffer(cb) }.ctx("vkEndCommandBuffer")?;
    Ok(cb)
}

impl Prepared<'_> {
    /// The number of prepared programs.
    pub fn len(&self) -> usize {
        self.programs.len()
    }

    /// Whether no program was prepared.
    pub fn is_empty(&self) -> bool {
        self.programs.is_empty()
    }

    /// Program commands recorded for program `index` (every batch).
    pub fn recorded(&self, index: usize) -> Option<usize> {
        self.programs.get(index).map(|p| p.recorded)
    }

    /// The batches program `index` submits per execution.
    pub fn batches(&self, index: usize) -> Option<usize> {
        self.programs.get(index).map(|p| p.batches.len())
    }

    /// Which device queue runs each of program `index`'s model queues.
    pub fn queue_mapping(&self, index: usize) -> Option<&QueueMapping> {
        self.programs.get(index).map(|p| &p.mapping)
    }

    /// The shared memory objects, indexed by `MemId`.
    pub fn memory(&self) -> &[MemoryObject] {
        &self.memory
    }

    /// Whether executions of program `index` start behind the start gate
    /// (see the module documentation): on by default for programs of
    /// several batches on a device with timeline semaphores.
    pub fn gated(&self, index: usize) -> Option<bool> {
        self.programs
            .get(index)
            .map(|p| self.gated && self.gate.is_some() && p.batches.len() > 1)
    }

    /// Turns the start gate on or off for later executions. Off, each
    /// batch may start as soon as it is submitted, so the span includes
    /// whatever the GPU waited for the host's next submission.
    pub fn set_gate(&mut self, on: bool) {
        self.gated = on;
    }

    /// Validation messages so far (recording and executions), by program
    /// index (command indices refer to that program); drains them.
    pub fn take_messages(&mut self) -> Vec<Vec<ValidationMessage>> {
        if let Some(last) = self.messages.last_mut() {
            last.extend(self.capture.take());
        }
        self.messages.iter_mut().map(std::mem::take).collect()
    }

    /// Submits every batch of program `index` in program order, waits for
    /// them (at most `timeout_ns`) and reads their timestamps.
    ///
    /// When the wait times out this is [`RuntimeError::ExecutionTimeout`]
    /// and the execution stays pending: the next call first waits for it
    /// (at most its own `timeout_ns`) and, if it is still running, fails
    /// with [`RuntimeError::StillRunning`] without submitting anything. A
    /// submission that fails half way is returned as its Vulkan error and
    /// makes every later call [`RuntimeError::PreparedUnusable`] (what was
    /// submitted is still waited for before anything is freed).
    pub fn execute(&mut self, index: usize, timeout_ns: u64) -> Result<Execution> {
        if index >= self.programs.len() {
            return Err(RuntimeError::NoSuchProgram {
                index,
                count: self.programs.len(),
            });
        }
        let timeout = Duration::from_nanos(timeout_ns);
        self.settle(timeout)?;
        if let Some((program, cause)) = &self.unusable {
            return Err(RuntimeError::PreparedUnusable {
                program: *program,
                cause: cause.clone(),
            });
        }
        let d = self.res.device;
        let query_pool = self.res.query_pool;
        let program = &self.programs[index];
        let gate = self.gate.filter(|_| self.gated && program.batches.len() > 1);
        // Before the clock starts: nothing uses the events or the queries
        // now (no execution is pending: `settle` saw the last complete).
        for &e in &program.reset_events {
            // SAFETY: a live event of this device, used by no pending
            // command buffer.
            unsafe { d.reset_event(e) }.ctx("vkResetEvent")?;
        }
        for t in program.batches.iter().filter_map(|b| b.timing) {
            if t.host_reset {
                // SAFETY: `hostQueryReset` is enabled (`timing_kind` picks
                // the host only then); the two queries exist and no pending
                // command buffer writes them.
                unsafe { d.reset_query_pool(query_pool, 2 * t.slot, 2) };
            }
        }
        let n = program.executions;
        self.programs[index].executions += 1;
        let gate_value = self.gate_value + 1;
        if gate.is_some() {
            self.gate_value = gate_value;
        }
        let program = &self.programs[index];
        let t = Instant::now();
        let mut submitted: Vec<vk::Queue> = Vec::new();
        let mut fences = Vec::new();
        let mut failed = None;
        for (bi, b) in program.batches.iter().enumerate() {
            let cb_info: Vec<_> =
                b.cb.iter()
                    .map(|&cb| vk::CommandBufferSubmitInfo::default().command_buffer(cb))
                    .collect();
            let mut waits: Vec<_> = b.waits.iter().map(|w| w.info(n)).collect();
            if let Some(g) = gate.filter(|_| b.gate_wait) {
                waits.push(semaphore_submit_info(
                    g,
                    Some(gate_value),
                    vksync::PipelineStageFlags2::ALL_COMMANDS,
                ));
            }
            let signals: Vec<_> = b.signals.iter().map(|g| g.info(n)).collect();
            let submit = [vk::SubmitInfo2::default()
                .command_buffer_infos(&cb_info)
                .wait_semaphore_infos(&waits)
                .signal_semaphore_infos(&signals)];
            // SAFETY: the command buffer (if any) is executable (ended in
            // `prepare`), from the pool of this queue's family, recorded
            // without ONE_TIME_SUBMIT, and not pending: `settle` saw the
            // last execution's fences signalled, and each queue's fence
            // covers every earlier submission to that queue. The fence (if
            // any) is unsignalled (created so, reset after each completed
            // execution) and unused. Timeline semaphores: every signal
            // value is greater than the semaphore's current value and
            // pending signals (execution `n`'s values are above execution
            // `n - 1`'s, signals go in program order, and the gate's value
            // grows each execution); a wait may precede its signal.
            // Binary semaphores (a device without timelines, never gated):
            // batches go in program order, so every wait's signal, and
            // every signal that one depends on, was submitted before it,
            // and each is unsignalled when an execution starts
            // (`split_batches` refuses unwaited signals).
            if let Err(result) = unsafe { d.queue_submit2(b.queue, &submit, b.fence) } {
                failed = Some((format!("batch {bi}"), result));
                break;
            }
            submitted.push(b.queue);
            if b.fence != vk::Fence::null() {
                self.res
                    .submitted(b.fence, format!("an execution of prepared program {index}"));
                fences.push(b.fence);
            }
        }
        let batches = program.batches.len();
        self.pending = Some(Pending {
            program: index,
            fences,
        });
        // The gate opens once everything is submitted (after a failed
        // submission too, so that what was submitted can complete).
        let mut opened = Ok(());
        #[cfg(test)]
        if gate.is_some() {
            std::thread::sleep(self.gate_delay);
        }
        if let Some(g) = gate {
            let info = vk::SemaphoreSignalInfo::default().semaphore(g).value(gate_value);
            // SAFETY: a live timeline semaphore of this device; the value
            // is greater than its current value (each execution's is one
            // more than the last one's, and only the host signals it).
            opened = unsafe { d.signal_semaphore(&info) }.ctx("vkSignalSemaphore");
        }
        if let Some((what, result)) = failed {
            self.abandon(index, &submitted, format!("{what}: vkQueueSubmit2: {result}"));
            return Err(RuntimeError::Vulkan {
                call: "vkQueueSubmit2",
                result,
            });
        }
        if let Err(e) = opened {
            // The submitted batches may wait for the gate for good.
            self.unusable = Some((index, e.to_string()));
            return Err(e);
        }
        let fences = self.pending.as_ref().map_or_else(Vec::new, |p| p.fences.clone());
        if !wait_all(d, &fences, timeout)? {
            return Err(RuntimeError::ExecutionTimeout {
                program: index,
                timeout,
            });
        }
        let wall_ns = t.elapsed().as_nanos() as u64;
        self.complete()?;
        let mut span: Option<(u64, u64)> = None;
        let mut timed_batches = 0;
        for t in self.programs[index].batches.iter().filter_map(|b| b.timing) {
            let ts = read_timestamps(d, query_pool, t.slot as usize, t.mask, self.timestamp_period)?;
            timed_batches += 1;
            span = Some(match span {
                None => (ts.start_ns, ts.end_ns),
                Some((s, e)) => (s.min(ts.start_ns), e.max(ts.end_ns)),
            });
        }
        self.messages[index].extend(self.capture.take());
        Ok(Execution {
            gpu_ns: span.map(|(s, e)| e.saturating_sub(s)),
            wall_ns,
            batches,
            timed_batches,
        })
    }

    /// The bytes program `index`'s trailing `host-read`s read, in program
    /// order, as the memory holds them now (after its last execution; the
    /// memory is shared, so after another program's execution it holds
    /// that one's results). [`RuntimeError::StillRunning`] while an
    /// execution is pending.
    pub fn readbacks(&mut self, index: usize) -> Result<Vec<DeviceReadback>> {
        if index >= self.programs.len() {
            return Err(RuntimeError::NoSuchProgram {
                index,
                count: self.programs.len(),
            });
        }
        self.settle(Duration::ZERO)?;
        let mut out = Vec::with_capacity(self.programs[index].reads.len());
        for r in &self.programs[index].reads {
            let read = |mapped: &mut [u8]| {
                let src = &mapped[r.start as usize..r.end as usize];
                let mut bytes = Vec::new();
                bytes.try_reserve_exact(src.len()).ok()?;
                bytes.extend_from_slice(src);
                Some(bytes)
            };
            let bytes = with_mapped(&self.res, r.mem, read)?.ok_or(RuntimeError::Check {
                at: vksync::Location::Command(r.command),
                source: CheckError::ReadbackTooLarge { len: r.end - r.start },
            })?;
            out.push(DeviceReadback {
                command: r.command,
                bytes,
            });
        }
        Ok(out)
    }

    /// After a submission of `program` failed (the gate, if any, was
    /// opened already): makes sure every `VkQueue` that took one of its
    /// submissions signals a fence after them (an empty submission with a
    /// fence of its own), adds those fences to the pending execution, so
    /// nothing they use is freed before they signal, and refuses later
    /// executions (a binary semaphore may be left signalled).
    fn abandon(&mut self, program: usize, queues: &[vk::Queue], cause: String) {
        let d = self.res.device;
        let mut flushed: Vec<vk::Queue> = Vec::new();
        for &q in queues {
            if flushed.contains(&q) {
                continue;
            }
            flushed.push(q);
            // SAFETY: valid device.
            let Ok(fence) = (unsafe { d.create_fence(&vk::FenceCreateInfo::default(), None) }) else {
                continue;
            };
            self.res.fences.borrow_mut().push(fence);
            // SAFETY: an empty batch; the fence is new, so unsignalled and
            // unused.
            if unsafe { d.queue_submit2(q, &[vk::SubmitInfo2::default()], fence) }.is_ok() {
                self.res.submitted(
                    fence,
                    format!("the batches of prepared program {program} submitted before a failure"),
                );
                if let Some(p) = self.pending.as_mut() {
                    p.fences.push(fence);
                }
            }
        }
        self.unusable = Some((program, cause));
    }

    /// Waits (at most `timeout`) for an execution left pending by an
    /// earlier call; an error if it is still running.
    fn settle(&mut self, timeout: Duration) -> Result<()> {
        let Some(pending) = &self.pending else {
            return Ok(());
        };
        if !wait_all(self.res.device, &pending.fences, timeout)? {
            return Err(RuntimeError::StillRunning {
                what: format!(
                    "an execution of prepared program {} that timed out",
                    pending.program
                ),
                waited: timeout,
            });
        }
        self.complete()
    }

    /// After the pending execution's fences were seen signalled: nothing is
    /// pending any more, and the fences are made ready for the next
    /// execution.
    fn complete(&mut self) -> Result<()> {
        let Some(pending) = self.pending.take() else {
            return Ok(());
        };
        for &f in &pending.fences {
            self.res.finished(f);
        }
        if pending.fences.is_empty() {
            return Ok(());
        }
        // SAFETY: the fences are signalled, so no queue operation uses them.
        unsafe { self.res.device.reset_fences(&pending.fences) }.ctx("vkResetFences")
    }
}

/// Prepared and record-only programs have buffers only: their memory
/// objects are shared across programs as `VkBuffer`s, which an image's own
/// memory is not ([`CheckError::ImagesNotPrepared`]).
fn refuse_images(program: &Program) -> Result<()> {
    match program.images().first() {
        Some(d) => Err(RuntimeError::Check {
            at: vksync::Location::Object(d.object),
            source: CheckError::ImagesNotPrepared,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{test_device, ValidationMode, TEST_DEVICE_HELP};

    fn program(text: &str) -> Program {
        vksync::trace::parse(text).expect("parses").program
    }

    /// `q0[0,1]@2 q1[3]@4 | reads 6 | set e` (batches: queue, recorded
    /// commands, submit), or the error's text.
    fn batches_of(text: &str) -> String {
        let p = program(text);
        match split_batches(&p) {
            Ok(b) => {
                let mut out: Vec<String> = b
                    .batches
                    .iter()
                    .map(|x| {
                        let cs: Vec<String> = x.commands.iter().map(|c| c.to_string()).collect();
                        let at = x.submit.map_or("end".to_string(), |c| c.to_string());
                        format!(
                            "q{}[{}]@{at}{}",
                            x.queue.0,
                            cs.join(","),
                            if x.record { "" } else { " empty" }
                        )
                    })
                    .collect();
                if !b.reads.is_empty() {
                    out.push(format!("| reads {:?}", b.reads));
                }
                if !b.left_set.is_empty() {
                    let names: Vec<&str> = b.left_set.iter().map(|&e| p.event_name(e)).collect();
                    out.push(format!("| set {}", names.join(",")));
                }
                out.join(" ")
            }
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn programs_are_cut_into_batches_at_their_submits() {
        let cases: &[(&str, &str)] = &[
            // No submit: one batch of everything, on the first queue.
            ("buffer x 64\nfill x 1\nfill x 2\n", "q0[0,1]@end"),
            // No command at all: still one (empty) command buffer to time.
            ("buffer x 64\n", "q0[]@end"),
            // A plain submit with nothing before it is no batch; the
            // commands after the last submit are one more.
            (
                "buffer x 64\nsubmit\nfill x 1\nsubmit\nfill x 2\n",
                "q0[1]@2 q0[3]@end",
            ),
            // Two queues, a semaphore-only batch, trailing wait and reads.
            (
                "queue a\nqueue b\nsemaphore s\nsemaphore t\nbuffer x 64\nfill x 1\n\
                 submit a signal s\nsubmit b wait s@ALL_COMMANDS signal t\n\
                 barrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit a wait t@ALL_COMMANDS\n\
                 wait\nhost-read x\n",
                "q0[0]@1 q1[]@2 empty q0[3]@4 | reads [6]",
            ),
            // An event set and never reset is reset before each execution;
            // one reset by the program is not.
            (
                "event e\nevent f\nbuffer x 64\n\
                 set-event e CLEAR:TRANSFER_WRITE -> CLEAR:TRANSFER_WRITE\n\
                 set-event f CLEAR:TRANSFER_WRITE -> CLEAR:TRANSFER_WRITE\n\
                 wait-events f CLEAR:TRANSFER_WRITE -> CLEAR:TRANSFER_WRITE\nreset-event f\n",
                "q0[0,1,2,3]@end | set e",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(&batches_of(text), want, "{text}");
        }
    }

    /// Every batch's queries reset on the host (the transfer-only
    /// family's way, which lavapipe's one family never takes otherwise):
    /// each batch is timed, on every execution, with no validation
    /// message; and a gated execution's span leaves out the time the
    /// host takes before it opens the gate, with and without semaphores
    /// (whose waits are then submitted before their signals can run).
    #[test]
    fn host_reset_queries_time_every_batch_and_the_gate_holds_the_start() {
        let Some(mut device) = test_device(ValidationMode::Required).expect(TEST_DEVICE_HELP) else {
            return;
        };
        let cases: &[(&str, usize)] = &[
            (
                "buffer a 1024\nbuffer b 1024\nfill a 3\n\
                 barrier CLEAR|COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\n\
                 dispatch scale_add(2,1) read a write b\nsubmit\n\
                 barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ|SHADER_STORAGE_WRITE\n\
                 dispatch scale(5) rw b\nsubmit\n",
                2,
            ),
            (
                "queue q0\nqueue q1\nsemaphore s\nsemaphore t\nbuffer a 1024\nfill a 3\n\
                 submit q0 signal s@CLEAR\n\
                 dispatch scale(2) rw a\nsubmit q1 wait s@COMPUTE_SHADER signal t@COMPUTE_SHADER\n\
                 dispatch scale(3) rw a\nsubmit q0 wait t@COMPUTE_SHADER\n",
                3,
            ),
        ];
        for &(text, batches) in cases {
            let p = program(text);
            let mut prepared = device
                .prepare_with(std::slice::from_ref(&p), true)
                .expect("prepares");
            assert_eq!(prepared.gated(0), Some(true), "{text}");
            let delay = Duration::from_millis(200);
            prepared.gate_delay = delay;
            for _ in 0..3 {
                let e = prepared.execute(0, 10_000_000_000).expect("executes");
                assert_eq!((e.batches, e.timed_batches), (batches, batches), "{text}");
                let span = e.gpu_ns.expect("timed");
                assert!(e.wall_ns >= delay.as_nanos() as u64, "{e:?}");
                assert!(
                    span < delay.as_nanos() as u64 / 2,
                    "the span includes the host's delay: {e:?}"
                );
            }
            let messages: Vec<ValidationMessage> = prepared.take_messages().into_iter().flatten().collect();
            assert_eq!(messages, vec![], "{text}");
        }
    }
}
