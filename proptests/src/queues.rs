//! Random multi-queue programs whose synchronization is correct by
//! construction, their variants with one semaphore wait removed, and the
//! one helper that runs both on a device against the CPU reference.
//!
//! A program ([`generate`]) has two or three queues: `c0` and `c1` of
//! model family 0 (compute work: dispatches of every kernel, copies,
//! fills) and `t` of model family 1 (copies and fills only, so that on a
//! device with a transfer-only family it runs there). Every buffer is
//! written by the host first; then batches, each on a random queue, each
//! ending in a `submit`. Synchronization is added as commands are drawn:
//!
//! * a conflicting access (write after anything, read after write) earlier
//!   on the same queue and not yet behind a barrier gets a full barrier
//!   (`ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE`)
//!   before the new command;
//! * one on another queue makes the new command's batch wait for the
//!   earlier batch: that batch signals its own timeline semaphore (value
//!   1, signalled once, so no wait is ambiguous) at `ALL_COMMANDS`, and the
//!   new batch waits for it at `ALL_COMMANDS` (unless it already waits for
//!   that queue's batch or a later one);
//! * up to [`QueueOptions::events`] of those barriers on `c0` and `c1`
//!   are split barriers instead: a fresh event is set right after the last
//!   conflicting command of the batch (at its start if that command was
//!   in an earlier batch) and waited for before the new command, with the
//!   same full dependency; what lies between is left unordered, so a split
//!   barrier does not count as a full barrier for later commands;
//! * [`QueueOptions::exclusive`] buffers are `exclusive` and used by `c0`
//!   and `t` only (one queue per model family): a use by the family that
//!   does not own one appends a release (`ALL_COMMANDS:MEMORY_WRITE ->
//!   NONE:NONE BUF ownership F->G`) to the owner queue's latest batch,
//!   makes the new batch wait for that batch, and acquires (`NONE:NONE ->
//!   ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE BUF ownership F->G`) before the
//!   use;
//! * a third of the batches (an RNG stream of their own) are followed by
//!   `wait QUEUE` and host reads of up to two buffers whose last write is
//!   on that queue, the batch ending with `ALL_COMMANDS:MEMORY_WRITE ->
//!   HOST:HOST_READ`;
//! * the last batch of each queue ends with `ALL_COMMANDS:MEMORY_WRITE ->
//!   HOST:HOST_READ`; then `wait` and a host read of every buffer.
//!
//! [`QueueCase::racy`] removes one wait whose removal makes the model
//! report a hazard (the fast checker, or the definitional semantics where
//! the fast checker refuses a corner): race evidence is the bytes such a
//! program gets wrong on a device that runs queues concurrently.
//!
//! Programs are text (traces), so a failing case prints as a trace that
//! `vksync check` and `vksync run` replay. The RNG is SplitMix64, seeded
//! per case, so a seed names the same program on every machine.

use std::fmt::Write as _;
use vksync::reference::{self, Readback};
use vksync::{Program, ProgramErrorKind, Reading};
use vksync_runtime::Device;

/// Sizes of generated programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueOptions {
    /// Bytes per buffer (a multiple of 4; every binding of a kernel must
    /// have one size).
    pub buffer_bytes: u64,
    /// Batches (submits) per program, before the final readback.
    pub batches: usize,
    /// Iterations of the `slow` kernel (longer kernels widen race windows).
    pub slow_iters: u32,
    /// Buffers created `exclusive` (besides 4 to 6 concurrent ones): only
    /// `c0` and `t` use them, and a use by the family that does not own
    /// one transfers its ownership (see the module documentation).
    pub exclusive: usize,
    /// At most this many of the full barriers on `c0` and `c1` become a
    /// split barrier (each with its own event): the set right after the
    /// last conflicting command of the batch, the wait before the command.
    pub events: usize,
}

impl Default for QueueOptions {
    fn default() -> Self {
        QueueOptions {
            buffer_bytes: 4096,
            batches: 8,
            slow_iters: 16,
            exclusive: 2,
            events: 4,
        }
    }
}

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// `n` distinct indices below `m` (`n <= m`).
    fn distinct(&mut self, n: usize, m: usize) -> Vec<usize> {
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let x = self.below(m);
            if !out.contains(&x) {
                out.push(x);
            }
        }
        out
    }
}

const QUEUES: [(&str, u32); 3] = [("c0", 0), ("c1", 0), ("t", 1)];
const FULL_BARRIER: &str = "barrier ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE";
const EVENT_DEPENDENCY: &str = "ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE";
const HOST_BARRIER: &str = "barrier ALL_COMMANDS:MEMORY_WRITE -> HOST:HOST_READ";

/// One batch: its queue, its lines (commands and barriers) and the
/// earlier batches it waits for.
#[derive(Clone, Debug)]
struct Batch {
    queue: usize,
    lines: Vec<String>,
    waits: Vec<usize>,
    /// Buffers the host reads after the submit, behind `wait QUEUE`.
    reads_after: Vec<usize>,
}

/// An access not yet superseded: the last write of a buffer and the reads
/// since.
#[derive(Clone, Copy, Debug)]
struct Prior {
    batch: usize,
    queue: usize,
    /// Position in its queue's command sequence.
    seq: usize,
    /// Index of its line in its batch.
    line: usize,
    write: bool,
}

/// A generated program: correct by construction, and the waits whose
/// removal gives a hazard.
#[derive(Clone, Debug)]
pub struct QueueCase {
    pub seed: u64,
    queues: usize,
    buffers: usize,
    /// Buffers `0..concurrent` are concurrent, the rest exclusive.
    concurrent: usize,
    /// Events `e0..eN`.
    events: usize,
    buffer_bytes: u64,
    batches: Vec<Batch>,
}

/// Generates the program of `seed`.
pub fn generate(seed: u64, opts: &QueueOptions) -> QueueCase {
    let mut rng = Rng(seed);
    let queues = 2 + rng.below(2);
    let concurrent = 4 + rng.below(3);
    let buffers = concurrent + opts.exclusive;
    let all: Vec<usize> = (0..buffers).collect();
    // The queue whose family owns each exclusive buffer (`c0` or `t`, the
    // only queues that use them); `None` before its first use.
    let mut owner: Vec<Option<usize>> = vec![None; buffers];
    let mut priors: Vec<Vec<Prior>> = vec![Vec::new(); buffers];
    let mut seq = vec![0usize; queues];
    let mut last_barrier = vec![0usize; queues];
    let mut batches: Vec<Batch> = Vec::new();
    let mut events = 0;
    // A stream of its own, so the programs' other choices do not depend
    // on the mid-program host reads.
    let mut host_rng = Rng(seed ^ 0x0b5e_55ed);
    for b in 0..opts.batches {
        let queue = rng.below(queues);
        let mut batch = Batch {
            queue,
            lines: Vec::new(),
            waits: Vec::new(),
            reads_after: Vec::new(),
        };
        let transfer = QUEUES[queue].1 == 1;
        for _ in 0..1 + rng.below(4) {
            // (line, reads, writes)
            // `c1` uses concurrent buffers only.
            let allowed = if queue == 1 { &all[..concurrent] } else { &all[..] };
            let (line, reads, writes) = op(&mut rng, allowed, transfer, opts.slow_iters);
            let mut barrier = false;
            // Where a split barrier's set would go: after the last
            // conflicting command of this batch.
            let mut set_at = 0;
            let accesses = reads
                .iter()
                .map(|&r| (r, false))
                .chain(writes.iter().map(|&w| (w, true)));
            for buf in reads.iter().chain(&writes).copied().filter(|&x| x >= concurrent) {
                match owner[buf] {
                    Some(r) if r != queue => {
                        // Release at the end of the owner's latest batch
                        // (after its every use so far), wait for that
                        // batch, acquire before this use.
                        let (from, to) = (QUEUES[r].1, QUEUES[queue].1);
                        let lb = batches
                            .iter()
                            .rposition(|x| x.queue == r)
                            .expect("the owner used it in a batch");
                        // Before the batch's barrier to HOST, if it has one:
                        // a host read after the batch must see the release
                        // operation's write too (it writes the buffer).
                        let release = format!(
                            "barrier ALL_COMMANDS:MEMORY_WRITE -> NONE:NONE b{buf} ownership {from}->{to}"
                        );
                        let lines = &mut batches[lb].lines;
                        match lines.iter().rposition(|l| l == HOST_BARRIER) {
                            Some(h) if h + 1 == lines.len() => lines.insert(h, release),
                            _ => lines.push(release),
                        }
                        if !batch.waits.iter().any(|&w| batches[w].queue == r && w >= lb) {
                            batch.waits.retain(|&w| batches[w].queue != r);
                            batch.waits.push(lb);
                        }
                        batch.lines.push(format!(
                            "barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE b{buf} ownership {from}->{to}"
                        ));
                        owner[buf] = Some(queue);
                    }
                    Some(_) => {}
                    None => owner[buf] = Some(queue),
                }
            }
            for (buf, write) in accesses.clone() {
                for p in &priors[buf] {
                    if !(write || p.write) {
                        continue;
                    }
                    if p.queue == queue {
                        if p.seq >= last_barrier[queue] {
                            barrier = true;
                            if p.batch == b {
                                set_at = set_at.max(p.line + 1);
                            }
                        }
                    } else {
                        let covered = batch
                            .waits
                            .iter()
                            .any(|&w| batches[w].queue == p.queue && w >= p.batch);
                        if !covered {
                            batch.waits.retain(|&w| batches[w].queue != p.queue);
                            batch.waits.push(p.batch);
                        }
                    }
                }
            }
            if barrier && QUEUES[queue].1 == 0 && events < opts.events && rng.below(2) == 0 {
                // A split barrier: it orders the conflicting commands
                // before the set with this one, and nothing between, so
                // it does not count as a full barrier later.
                let e = events;
                events += 1;
                batch
                    .lines
                    .insert(set_at, format!("set-event e{e} {EVENT_DEPENDENCY}"));
                for p in priors.iter_mut().flatten() {
                    if p.batch == b && p.line >= set_at {
                        p.line += 1;
                    }
                }
                batch.lines.push(format!("wait-events e{e} {EVENT_DEPENDENCY}"));
            } else if barrier {
                batch.lines.push(FULL_BARRIER.to_string());
                seq[queue] += 1;
                last_barrier[queue] = seq[queue];
            }
            let here = Prior {
                batch: b,
                queue,
                seq: seq[queue],
                line: batch.lines.len(),
                write: false,
            };
            for (buf, write) in accesses {
                if write {
                    priors[buf] = vec![Prior { write: true, ..here }];
                } else {
                    priors[buf].push(here);
                }
            }
            seq[queue] += 1;
            batch.lines.push(line);
        }
        // Now and then the host reads, mid-program, buffers whose last
        // write is on this queue: a barrier to the host ends the batch,
        // then `wait QUEUE` and the reads (the writes of other queues
        // they follow were waited for by this queue's batches).
        if host_rng.below(3) == 0 {
            let mine: Vec<usize> = (0..buffers)
                .filter(|&x| priors[x].first().is_some_and(|p| p.write && p.queue == queue))
                .collect();
            if !mine.is_empty() {
                batch.lines.push(HOST_BARRIER.to_string());
                batch.reads_after = mine.into_iter().take(2).collect();
            }
        }
        batches.push(batch);
    }
    for q in 0..queues {
        if let Some(last) = batches.iter_mut().rev().find(|b| b.queue == q) {
            last.lines.push(HOST_BARRIER.to_string());
        }
    }
    QueueCase {
        seed,
        queues,
        buffers,
        concurrent,
        buffer_bytes: opts.buffer_bytes,
        events,
        batches,
    }
}

/// One random command over the `allowed` buffers (at least 3): its line,
/// the buffers it reads and writes.
fn op(rng: &mut Rng, allowed: &[usize], transfer: bool, slow_iters: u32) -> (String, Vec<usize>, Vec<usize>) {
    let kind = if transfer { rng.below(2) } else { rng.below(6) };
    let v: Vec<usize> = rng
        .distinct(3, allowed.len())
        .into_iter()
        .map(|i| allowed[i])
        .collect();
    let (x, y, z) = (v[0], v[1], v[2]);
    match kind {
        0 => (format!("copy b{x} -> b{y}"), vec![x], vec![y]),
        1 => (format!("fill b{y} {}", rng.below(1000)), vec![], vec![y]),
        2 => {
            let (a, c) = (1 + rng.below(7), rng.below(100));
            (
                format!("dispatch scale_add({a},{c}) read b{x} write b{y}"),
                vec![x],
                vec![y],
            )
        }
        3 => (
            format!("dispatch add read b{x} read b{y} write b{z}"),
            vec![x, y],
            vec![z],
        ),
        4 => (
            format!("dispatch scale({}) rw b{x}", 1 + rng.below(7)),
            vec![x],
            vec![x],
        ),
        _ => (
            format!("dispatch slow({slow_iters}) read b{x} write b{y}"),
            vec![x],
            vec![y],
        ),
    }
}

impl QueueCase {
    /// The program's trace, without the wait `drop` names (batch, index
    /// in its waits).
    pub fn text(&self, drop: Option<(usize, usize)>) -> String {
        let mut t = String::new();
        let _ = writeln!(t, "# vksync_proptests::queues seed {}", self.seed);
        for &(name, family) in &QUEUES[..self.queues] {
            let _ = writeln!(t, "queue {name} family {family}");
        }
        let waited: Vec<bool> = (0..self.batches.len())
            .map(|i| self.batches.iter().any(|b| b.waits.contains(&i)))
            .collect();
        for (i, _) in waited.iter().enumerate().filter(|(_, w)| **w) {
            let _ = writeln!(t, "semaphore s{i} timeline");
        }
        for i in 0..self.events {
            let _ = writeln!(t, "event e{i}");
        }
        for i in 0..self.buffers {
            let exclusive = if i >= self.concurrent { " exclusive" } else { "" };
            let _ = writeln!(t, "buffer b{i} {}{exclusive}", self.buffer_bytes);
        }
        for i in 0..self.buffers {
            let _ = writeln!(t, "host-write b{i} {}", 1000 * (i + 1));
        }
        for (i, b) in self.batches.iter().enumerate() {
            for l in &b.lines {
                let _ = writeln!(t, "{l}");
            }
            let _ = write!(t, "submit {}", QUEUES[b.queue].0);
            for (k, w) in b.waits.iter().enumerate() {
                if drop != Some((i, k)) {
                    let _ = write!(t, " wait s{w}:1@ALL_COMMANDS");
                }
            }
            if waited[i] {
                let _ = write!(t, " signal s{i}:1@ALL_COMMANDS");
            }
            t.push('\n');
            if !b.reads_after.is_empty() {
                let _ = writeln!(t, "wait {}", QUEUES[b.queue].0);
                for x in &b.reads_after {
                    let _ = writeln!(t, "host-read b{x}");
                }
            }
        }
        t.push_str("wait\n");
        for i in 0..self.buffers {
            let _ = writeln!(t, "host-read b{i}");
        }
        t
    }

    /// The program, parsed.
    pub fn program(&self, drop: Option<(usize, usize)>) -> Program {
        let text = self.text(drop);
        vksync::trace::parse(&text)
            .unwrap_or_else(|e| panic!("generated trace does not parse: {e}\n{text}"))
            .program
    }

    /// Every semaphore wait, as (batch, index in its waits).
    pub fn waits(&self) -> Vec<(usize, usize)> {
        self.batches
            .iter()
            .enumerate()
            .flat_map(|(i, b)| (0..b.waits.len()).map(move |k| (i, k)))
            .collect()
    }

    /// The first wait (from a seed-chosen start) whose removal makes the
    /// model report a hazard, with the hazard count.
    pub fn racy(&self) -> Option<((usize, usize), usize)> {
        let waits = self.waits();
        if waits.is_empty() {
            return None;
        }
        let start = Rng(self.seed ^ 0x5eed).below(waits.len());
        (0..waits.len()).find_map(|k| {
            let w = waits[(start + k) % waits.len()];
            let n = hazards(&self.program(Some(w)));
            (n > 0).then_some((w, n))
        })
    }

    /// Semaphore waits in the program.
    pub fn wait_count(&self) -> usize {
        self.batches.iter().map(|b| b.waits.len()).sum()
    }
}

/// The model's hazards: the fast checker's, or, where it refuses a corner
/// of multi-queue programs, the definitional semantics' races under both
/// readings.
pub fn hazards(program: &Program) -> usize {
    // The fast checkers alone (`vksync::check` would fall back to one
    // reading of the definitional semantics itself): a refusal counts the
    // races of both readings.
    match vksync::check_with(program, vksync::Semantics::default()) {
        Ok(h) => h.len(),
        Err(e) if matches!(e.kind, ProgramErrorKind::MultiQueueNotSupported { .. }) => {
            [Reading::MemoryModel, Reading::VisibleToWrites]
                .iter()
                .map(|&r| vksync::spec::races(program, r).map_or(0, |v| v.len()))
                .sum()
        }
        Err(e) => panic!("generated program is invalid: {e}"),
    }
}

/// What one run of one program gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunOutcome {
    /// Defined bytes read back, and how many differ from the reference.
    pub bytes: usize,
    pub wrong: usize,
    /// Validation messages (0 with validation off).
    pub messages: usize,
    /// Of those, synchronization hazards (`SYNC-HAZARD-*`): what the
    /// layer's synchronization validation says of the program (between
    /// submissions only with queue-submit validation on:
    /// `VK_LAYER_ENABLES=VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT`
    /// for the 1.3.239 layer).
    pub hazard_messages: usize,
    /// The first few messages, as `command N: ID: text` (for reports).
    pub first_messages: Vec<String>,
    /// Which device queue ran each model queue
    /// (`vksync_runtime::QueueMapping`'s text).
    pub mapping: String,
}

/// Runs `program` on `device` and compares every host read with
/// `expected`, the reference's reads of it (computed once for all runs).
pub fn run_once(device: &mut Device, program: &Program, expected: &[Readback]) -> Result<RunOutcome, String> {
    let result = device.run(program).map_err(|e| format!("runtime error: {e}"))?;
    let mut out = RunOutcome {
        messages: result.messages.len(),
        hazard_messages: result.messages.iter().filter(|m| m.is_sync_hazard()).count(),
        first_messages: result
            .messages
            .iter()
            .take(3)
            .map(|m| format!("command {:?}: {}: {}", m.command, m.id_name, m.text))
            .collect(),
        mapping: result.queue_mapping.to_string(),
        ..RunOutcome::default()
    };
    for r in expected {
        let got = result.readback(r.command).unwrap_or(&[]);
        out.bytes += r.bytes.iter().filter(|b| b.is_some()).count();
        out.wrong += reference::mismatches(&r.bytes, got).len();
        out.wrong += (got.len()..r.bytes.len())
            .filter(|&i| r.bytes[i].is_some())
            .count();
    }
    Ok(out)
}

/// The reference's host reads of `program`.
pub fn expected(program: &Program) -> Result<Vec<Readback>, String> {
    reference::run(program).map_err(|e| format!("reference: {e}"))
}

/// One case of the suite: the correct program and (when one exists) its
/// racy variant, run `repeat` times.
#[derive(Clone, Debug, Default)]
pub struct CaseReport {
    pub seed: u64,
    pub commands: usize,
    pub waits: usize,
    pub correct: RunOutcome,
    /// The removed wait, the model's hazard count without it, and the
    /// runs' outcomes.
    pub racy: Option<((usize, usize), usize, Vec<RunOutcome>)>,
}

/// Generates case `seed`, asserts the model finds it hazard-free, runs it
/// and its racy variant (`repeat` times) on `device`.
pub fn run_case(
    device: &mut Device,
    seed: u64,
    opts: &QueueOptions,
    repeat: usize,
) -> Result<CaseReport, String> {
    let case = generate(seed, opts);
    let program = case.program(None);
    let h = hazards(&program);
    if h != 0 {
        return Err(format!(
            "seed {seed}: the model finds {h} hazards in a program correct by construction:\n{}",
            case.text(None)
        ));
    }
    let want = expected(&program)?;
    let correct =
        run_once(device, &program, &want).map_err(|e| format!("seed {seed}: {e}\n{}", case.text(None)))?;
    let racy = match case.racy() {
        Some((w, n)) => {
            let p = case.program(Some(w));
            // Removing a wait changes no command: the reference's bytes
            // are the correct program's.
            let runs = (0..repeat)
                .map(|_| run_once(device, &p, &want))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("seed {seed} without wait {w:?}: {e}"))?;
            Some((w, n, runs))
        }
        None => None,
    };
    Ok(CaseReport {
        seed,
        commands: program.commands().len(),
        waits: case.wait_count(),
        correct,
        racy,
    })
}

/// Totals over a suite.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuiteTotals {
    pub cases: usize,
    pub correct_bytes: usize,
    pub correct_wrong: usize,
    pub correct_messages: usize,
    /// Cases with a racy variant, its runs, and runs with a wrong byte.
    pub racy_cases: usize,
    pub racy_runs: usize,
    pub racy_runs_wrong: usize,
    pub racy_bytes: usize,
    pub racy_wrong: usize,
    /// Racy runs in which the validation layer reported a
    /// synchronization hazard (the model reports one in every racy
    /// variant), and correct programs in which it did (the model reports
    /// none): the layer differential at program level.
    pub racy_runs_flagged: usize,
    pub correct_flagged: usize,
}

impl SuiteTotals {
    /// Adds one case.
    pub fn add(&mut self, r: &CaseReport) {
        self.cases += 1;
        self.correct_bytes += r.correct.bytes;
        self.correct_wrong += r.correct.wrong;
        self.correct_messages += r.correct.messages;
        self.correct_flagged += usize::from(r.correct.hazard_messages > 0);
        if let Some((_, _, runs)) = &r.racy {
            self.racy_cases += 1;
            for o in runs {
                self.racy_runs += 1;
                self.racy_runs_wrong += usize::from(o.wrong > 0);
                self.racy_bytes += o.bytes;
                self.racy_wrong += o.wrong;
                self.racy_runs_flagged += usize::from(o.hazard_messages > 0);
            }
        }
    }
}

impl std::fmt::Display for SuiteTotals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} programs: correct ones {} wrong bytes of {} ({} validation messages, {} programs with a \
             SYNC-HAZARD); {} with a removable wait: {} of {} racy runs wrong, {} wrong bytes of {}, \
             {} of {} runs with a SYNC-HAZARD from the layer",
            self.cases,
            self.correct_wrong,
            self.correct_bytes,
            self.correct_messages,
            self.correct_flagged,
            self.racy_cases,
            self.racy_runs_wrong,
            self.racy_runs,
            self.racy_wrong,
            self.racy_bytes,
            self.racy_runs_flagged,
            self.racy_runs
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_programs_are_hazard_free_and_most_have_a_racy_variant() {
        let opts = QueueOptions::default();
        let mut racy = 0;
        for seed in 0..40 {
            let case = generate(seed, &opts);
            assert_eq!(hazards(&case.program(None)), 0, "{}", case.text(None));
            racy += usize::from(case.racy().is_some());
        }
        assert!(racy >= 20, "only {racy} of 40 programs have a racy variant");
    }
}
