//! Which device queue runs each of the model's queues, and which device
//! queue family stands for each of the model's family numbers.
//!
//! This module is pure (no Vulkan call): it owns [`QueueFamily`] (what
//! [`crate::Device::new`] found and created), [`batch_queues`] (the queue
//! each recorded command is submitted to: the queue of the next `submit`)
//! and [`QueueMapping`], the one map from model queues and model family
//! numbers to device queues and families. The recorder uses the map for
//! submissions, command pools, buffer sharing modes and the family indices
//! of ownership-transfer barriers.
//!
//! The rules ([`QueueMapping::new`]):
//!
//! * model families, in order of first appearance (declared queues, then
//!   ownership transfers), each take the first device family not yet taken
//!   in the preference order *the family the device uses for single-queue
//!   programs* (its first compute family without graphics, else its first
//!   compute family), *other compute families without graphics*,
//!   *transfer-only families*, *compute families with graphics*, skipping
//!   families without `COMPUTE` for a model family one of whose queues
//!   needs compute ([`needs_compute`]); when none is left the model family
//!   shares the single-queue family;
//! * model queues of one device family take distinct device queues in
//!   declaration order while the family's created queues last; after that
//!   they share, round robin ([`QueueMapping::shared`] says so). Several
//!   model queues on one `VkQueue` still run correctly synchronized
//!   programs whose semaphore waits come after their signals in program
//!   order (every program the CPU reference can judge); a wait submitted
//!   before its signal on a shared queue would block the queue for good;
//! * a model queue that needs compute on a device family without it is
//!   [`CheckError::QueueFamilyWithoutCompute`] (the preference rule above
//!   avoids it; the check keeps the invariant explicit).
//!
//! On lavapipe (one family, one queue) every model queue is the one
//! `VkQueue`; on the H200 a compute-only family and a transfer-only family
//! give two model families two device families.

use crate::checks::CheckError;
use vksync::{Command, PipelineStageFlags2, Program, QueueId};

/// A device queue family the runtime created queues of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueFamily {
    /// `queueFamilyIndex`.
    pub index: u32,
    pub graphics: bool,
    pub compute: bool,
    pub transfer: bool,
    /// Queues created (at most [`MAX_QUEUES_PER_FAMILY`] and the family's
    /// `queueCount`).
    pub queues: u32,
    /// 0 when its queues cannot write timestamps.
    pub timestamp_valid_bits: u32,
}

impl QueueFamily {
    /// `COMPUTE`, or `TRANSFER` without graphics or compute.
    fn kind(&self) -> &'static str {
        match (self.graphics, self.compute, self.transfer) {
            (true, true, _) => "graphics+compute",
            (false, true, _) => "compute",
            (_, false, true) => "transfer",
            _ => "other",
        }
    }
}

impl std::fmt::Display for QueueFamily {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}, {} queue", self.index, self.kind(), self.queues)?;
        f.write_str(if self.queues == 1 { ")" } else { "s)" })
    }
}

/// The most queues created per family.
pub const MAX_QUEUES_PER_FAMILY: u32 = 8;

/// The device families in the order model families take them (see the
/// module documentation); `primary` is the single-queue family.
pub fn preference(families: &[QueueFamily], primary: u32) -> Vec<usize> {
    let rank = |f: &QueueFamily| -> Option<u8> {
        if f.index == primary {
            Some(0)
        } else if f.compute && !f.graphics {
            Some(1)
        } else if f.transfer && !f.compute && !f.graphics {
            Some(2)
        } else if f.compute {
            Some(3)
        } else {
            None
        }
    };
    let mut order: Vec<usize> = (0..families.len())
        .filter(|&i| families[i].queues > 0 && rank(&families[i]).is_some())
        .collect();
    order.sort_by_key(|&i| (rank(&families[i]), families[i].index));
    order
}

/// For each command, the queue whose batch it is recorded into: the
/// queue of the first `submit` at or after it; `QueueId(0)` after the last
/// submit (the runtime submits leftovers to the first queue).
pub fn batch_queues(program: &Program) -> Vec<QueueId> {
    let mut out = vec![QueueId(0); program.commands().len()];
    let mut next = QueueId(0);
    for (i, c) in program.commands().iter().enumerate().rev() {
        if let Command::Submit(s) = c {
            next = s.queue;
        }
        out[i] = next;
    }
    out
}

/// Stages a transfer-only queue supports (besides `HOST`, which a
/// barrier may name on any queue).
fn transfer_stages() -> PipelineStageFlags2 {
    type S = PipelineStageFlags2;
    S::TOP_OF_PIPE
        | S::BOTTOM_OF_PIPE
        | S::ALL_COMMANDS
        | S::HOST
        | S::COPY
        | S::CLEAR
        | S::BLIT
        | S::RESOLVE
        | S::ALL_TRANSFER
}

/// Per model queue: whether its work needs a `COMPUTE` family: a
/// dispatch, an event command (`vkCmdSetEvent2`, `vkCmdWaitEvents2`,
/// `vkCmdResetEvent2` and their synchronization-1 forms are not
/// transfer-queue commands), or a barrier or
/// semaphore stage mask naming a stage a transfer-only queue lacks.
pub fn needs_compute(program: &Program) -> Vec<bool> {
    let batch = batch_queues(program);
    let mut need = vec![false; program.queue_count()];
    let outside = |s: PipelineStageFlags2| !(s & !transfer_stages()).is_empty();
    for (i, c) in program.commands().iter().enumerate() {
        let q = batch[i].0 as usize;
        let needs = match c {
            Command::Dispatch { .. }
            | Command::SetEvent { .. }
            | Command::WaitEvents { .. }
            | Command::SetEvent1 { .. }
            | Command::WaitEvents1 { .. }
            | Command::ResetEvent { .. } => true,
            Command::Barrier(d) => d
                .barriers
                .iter()
                .any(|b| outside(b.src_stage_mask) || outside(b.dst_stage_mask)),
            Command::Submit(s) => {
                s.waits.iter().any(|w| outside(w.stages)) || s.signals.iter().any(|g| outside(g.stages))
            }
            _ => false,
        };
        if needs && q < need.len() {
            need[q] = true;
        }
    }
    need
}

/// One device queue: the family's position in the device's family list
/// and the queue's index in that family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceQueue {
    /// Index into the device's [`QueueFamily`] list.
    pub family: usize,
    /// Its `queueFamilyIndex`.
    pub queue_family: u32,
    /// `queueIndex` of `vkGetDeviceQueue`.
    pub index: u32,
}

/// Model queues and families mapped to device queues and families.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueMapping {
    /// Per model queue (indexed by `QueueId`).
    pub queues: Vec<DeviceQueue>,
    /// `(model family, device queueFamilyIndex)`, in order of first
    /// appearance.
    pub families: Vec<(u32, u32)>,
    /// Some distinct model queues share one device queue.
    pub shared: bool,
}

impl QueueMapping {
    /// Maps `program`'s queues and families onto `families` (see the
    /// module documentation); `primary` is the single-queue family's
    /// `queueFamilyIndex`.
    pub fn new(
        program: &Program,
        families: &[QueueFamily],
        primary: u32,
    ) -> Result<Self, (vksync::Location, CheckError)> {
        let order = preference(families, primary);
        let primary_pos = families.iter().position(|f| f.index == primary).unwrap_or(0);
        let need = needs_compute(program);
        // Model families in order of appearance, with whether any of their
        // queues needs compute.
        let mut model: Vec<(u32, bool)> = Vec::new();
        let queue_families: Vec<u32> = (0..program.queue_count())
            .map(|q| program.queues().get(q).map_or(0, |x| x.family))
            .collect();
        for (q, &f) in queue_families.iter().enumerate() {
            match model.iter_mut().find(|(m, _)| *m == f) {
                Some(entry) => entry.1 |= need[q],
                None => model.push((f, need[q])),
            }
        }
        for c in program.commands() {
            if let Command::Barrier(d) = c {
                for o in d.barriers.iter().filter_map(|b| b.ownership) {
                    for f in [o.src_queue_family, o.dst_queue_family] {
                        if !model.iter().any(|(m, _)| *m == f) {
                            model.push((f, false));
                        }
                    }
                }
            }
        }
        let mut taken = vec![false; families.len()];
        let mut family_pos: Vec<(u32, usize)> = Vec::new();
        for &(f, compute) in &model {
            let pick = order
                .iter()
                .copied()
                .find(|&i| !taken[i] && (!compute || families[i].compute))
                .unwrap_or(primary_pos);
            taken[pick] = true;
            family_pos.push((f, pick));
        }
        let mut used = vec![0u32; families.len()];
        let mut shared = false;
        let mut queues = Vec::with_capacity(queue_families.len());
        for (q, f) in queue_families.iter().enumerate() {
            let pos = family_pos
                .iter()
                .find(|(m, _)| m == f)
                .map_or(primary_pos, |&(_, p)| p);
            let fam = &families[pos];
            if need[q] && !fam.compute {
                return Err((
                    vksync::Location::Queue(QueueId(q as u32)),
                    CheckError::QueueFamilyWithoutCompute {
                        queue: program.queue_name(QueueId(q as u32)).to_string(),
                        family: fam.index,
                    },
                ));
            }
            let n = fam.queues.max(1);
            if used[pos] >= n {
                shared = true;
            }
            queues.push(DeviceQueue {
                family: pos,
                queue_family: fam.index,
                index: used[pos] % n,
            });
            used[pos] += 1;
        }
        Ok(QueueMapping {
            queues,
            families: family_pos.iter().map(|&(m, p)| (m, families[p].index)).collect(),
            shared,
        })
    }

    /// When model queues share a device queue, the device runs their
    /// batches in one submission order: a batch waiting for a signal that
    /// a later batch of another model queue makes, on the same device
    /// queue, never completes there, though the program is valid with
    /// one device queue per model queue. `Some` error naming the queues
    /// and the stuck waits, found by the model's own rule
    /// (`vksync::resolve` refuses a program that can never complete) on
    /// the program with each model queue replaced by the first one
    /// sharing its device queue.
    pub fn never_completes_shared(&self, program: &Program) -> Option<(vksync::Location, CheckError)> {
        if !self.shared {
            return None;
        }
        let rep = |q: QueueId| {
            let dq = self.queues.get(q.0 as usize)?;
            let first = self
                .queues
                .iter()
                .position(|o| o.family == dq.family && o.index == dq.index)?;
            Some(QueueId(first as u32))
        };
        let mut merged = program.clone();
        for (i, c) in program.commands().iter().enumerate() {
            let changed = match c {
                Command::Submit(s) => rep(s.queue).filter(|r| *r != s.queue).map(|r| {
                    let mut s = s.clone();
                    s.queue = r;
                    Command::Submit(s)
                }),
                Command::Wait(vksync::WaitFor::Queue(q)) => rep(*q)
                    .filter(|r| r != q)
                    .map(|r| Command::Wait(vksync::WaitFor::Queue(r))),
                _ => None,
            };
            if let Some(c) = changed {
                merged.replace(i, c).ok()?;
            }
        }
        let e = vksync::resolve(&merged).err()?;
        let vksync::ProgramErrorKind::NeverCompletes { waits } = e.kind else {
            return None;
        };
        let sharing: Vec<String> = (0..self.queues.len())
            .filter_map(|q| {
                let r = rep(QueueId(q as u32))?;
                (r.0 as usize != q).then(|| {
                    format!(
                        "`{}` shares `{}`'s",
                        program.queue_name(QueueId(q as u32)),
                        program.queue_name(r)
                    )
                })
            })
            .collect();
        Some((
            e.at,
            CheckError::SharedQueueNeverCompletes {
                sharing: sharing.join(", "),
                waits,
            },
        ))
    }

    /// The device `queueFamilyIndex` standing for model family `model`.
    pub fn device_family(&self, model: u32) -> Option<u32> {
        self.families.iter().find(|(m, _)| *m == model).map(|&(_, d)| d)
    }

    /// The distinct device families in use, in order of first use.
    pub fn used_families(&self) -> Vec<u32> {
        let mut out: Vec<u32> = Vec::new();
        for &(_, d) in &self.families {
            if !out.contains(&d) {
                out.push(d);
            }
        }
        out
    }
}

/// `queue 0: family 2 queue 0, queue 1: family 1 queue 0 (model family 0
/// -> 2, 1 -> 1)`, and `, shared` when model queues share a device queue.
impl std::fmt::Display for QueueMapping {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, q) in self.queues.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}queue {i}: family {} queue {}", q.queue_family, q.index)?;
        }
        let families: Vec<String> = self.families.iter().map(|(m, d)| format!("{m} -> {d}")).collect();
        write!(f, " (model family {})", families.join(", "))?;
        if self.shared {
            f.write_str(", shared")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fam(index: u32, g: bool, c: bool, t: bool, queues: u32) -> QueueFamily {
        QueueFamily {
            index,
            graphics: g,
            compute: c,
            transfer: t,
            queues,
            timestamp_valid_bits: 64,
        }
    }

    /// The families an NVIDIA H200 reports (graphics+compute with 16
    /// queues, transfer-only with 2, compute-only with 8), as created.
    fn h200() -> Vec<QueueFamily> {
        vec![
            fam(0, true, true, true, 8),
            fam(1, false, false, true, 2),
            fam(2, false, true, true, 8),
        ]
    }

    fn lavapipe() -> Vec<QueueFamily> {
        vec![fam(0, true, true, true, 1)]
    }

    /// `(mapping as text or error)` for a trace on a device.
    fn mapping(text: &str, families: &[QueueFamily], primary: u32) -> String {
        let program = vksync::trace::parse(text).expect("parses").program;
        match QueueMapping::new(&program, families, primary) {
            Ok(m) => {
                let qs: Vec<String> = m
                    .queues
                    .iter()
                    .map(|q| format!("{}.{}", families[q.family].index, q.index))
                    .collect();
                let fs: Vec<String> = m.families.iter().map(|(a, b)| format!("{a}->{b}")).collect();
                format!(
                    "queues {} families {}{}",
                    qs.join(" "),
                    fs.join(" "),
                    if m.shared { " shared" } else { "" }
                )
            }
            Err((_, e)) => e.to_string(),
        }
    }

    #[test]
    fn model_queues_map_to_device_queues() {
        const TWO_FAMILIES: &str = "buffer a 64\nqueue c family 0\nqueue t family 1\n\
            dispatch scale(2) rw a\nsubmit c\nfill a 1\nsubmit t\n";
        const TWO_COMPUTE: &str = "buffer a 64\nqueue c family 0\nqueue d family 1\n\
            dispatch scale(2) rw a\nsubmit c\ndispatch scale(2) rw a\nsubmit d\n";
        const NINE: &str =
            "queue q0\nqueue q1\nqueue q2\nqueue q3\nqueue q4\nqueue q5\nqueue q6\nqueue q7\nqueue q8\n";
        let cases: &[(&str, &[QueueFamily], u32, &str)] = &[
            // One implicit queue: the single-queue family.
            (
                "buffer a 64\nfill a 1\nsubmit\n",
                &h200(),
                2,
                "queues 2.0 families 0->2",
            ),
            // Two families: compute-only, then transfer-only.
            (TWO_FAMILIES, &h200(), 2, "queues 2.0 1.0 families 0->2 1->1"),
            // A second family that dispatches skips the transfer family.
            (TWO_COMPUTE, &h200(), 2, "queues 2.0 0.0 families 0->2 1->0"),
            // A transfer queue whose barrier names COMPUTE_SHADER needs compute.
            (
                "buffer a 64\nqueue c family 0\nqueue t family 1\nfill a 1\n\
                 barrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\nsubmit t\n",
                &h200(),
                2,
                "queues 2.0 0.0 families 0->2 1->0",
            ),
            // Nine queues of one family: eight distinct, the ninth shares.
            (
                NINE,
                &h200(),
                2,
                "queues 2.0 2.1 2.2 2.3 2.4 2.5 2.6 2.7 2.0 families 0->2 shared",
            ),
            // lavapipe: one queue for everything.
            (
                TWO_FAMILIES,
                &lavapipe(),
                0,
                "queues 0.0 0.0 families 0->0 1->0 shared",
            ),
            // A family named only by an ownership transfer is mapped too.
            (
                "buffer a 64 exclusive\nqueue c family 0\n\
                 barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> NONE:NONE a ownership 0->3\nsubmit c\n",
                &h200(),
                2,
                "queues 2.0 families 0->2 3->1",
            ),
        ];
        for (text, families, primary, want) in cases {
            assert_eq!(&mapping(text, families, *primary), want, "{text}");
        }
    }

    #[test]
    fn a_dispatch_on_a_transfer_only_device_family_is_refused() {
        // Only a transfer family: the model queue that dispatches cannot run.
        let families = [fam(5, false, false, true, 1)];
        assert_eq!(
            mapping("buffer a 64\ndispatch scale(2) rw a\nsubmit\n", &families, 5),
            "queue `queue` needs a compute-capable queue family (a dispatch, an event command or a compute stage in a barrier or semaphore), but maps to device family 5, which has no COMPUTE"
        );
    }

    #[test]
    fn commands_belong_to_the_batch_of_the_next_submit() {
        let p = vksync::trace::parse(
            "buffer a 64\nqueue x\nqueue y\nfill a 1\nsubmit y\nfill a 2\nsubmit x\nfill a 3\n",
        )
        .expect("parses")
        .program;
        let q = batch_queues(&p);
        assert_eq!(
            q,
            vec![QueueId(1), QueueId(1), QueueId(0), QueueId(0), QueueId(0)]
        );
    }

    /// A wait-before-signal across two model queues is valid, but on a
    /// device where they share one queue the waiting batch blocks the
    /// signalling one: refused before the run, with the queues and the
    /// waits named (issue 27: the run timed out advising a longer limit).
    #[test]
    fn a_shared_device_queue_that_can_never_complete_is_refused() {
        const BODY: &str = "queue qa\nqueue qb\nsemaphore t timeline\nbuffer a 64\nfill a 1\n\
            submit qa wait t:1@ALL_COMMANDS\nfill a 2\nsubmit qb signal t:1\nwait\n";
        // (trace, device, expected error or None)
        let cases: &[(&str, Vec<QueueFamily>, Option<&str>)] = &[
            (
                BODY,
                lavapipe(),
                Some("the device has fewer queues than the trace (`qb` shares `qa`'s device queue), and one device queue runs its batches in submission order: then `t:1` on `qa`, the host's fence wait can never be satisfied"),
            ),
            // One device queue per model queue: runs.
            (BODY, h200(), None),
            // Signalled first, then waited: fine on one device queue too.
            (
                "queue qa\nqueue qb\nsemaphore t timeline\nbuffer a 64\nfill a 1\n\
                 submit qb signal t:1\nfill a 2\nsubmit qa wait t:1@ALL_COMMANDS\nwait\n",
                lavapipe(),
                None,
            ),
        ];
        for (text, families, want) in cases {
            let program = vksync::trace::parse(text).expect("parses").program;
            let m = QueueMapping::new(&program, families, families[0].index).expect("maps");
            let got = m.never_completes_shared(&program).map(|(_, e)| e.to_string());
            match (got, want) {
                (None, None) => {}
                (Some(g), Some(w)) => assert!(g.starts_with(w), "{g}"),
                (g, w) => panic!("{text}: got {g:?}, want {w:?}"),
            }
        }
    }
}
