//! Queues and semaphores in the definitional semantics: one hazard case
//! and one no-hazard case per rule (`docs/semantics.md`, "Queues and
//! semaphores"), in the style of `rules.rs`.
//!
//! Each case is a small trace after the same header: buffers `a`, `b`,
//! `c` (256 bytes each), queues `qa`, `qb`, `qc`, binary semaphores `s`,
//! `s2` and a timeline semaphore `t` (lines 1-9), so a case's own lines
//! start at 10. The expectation lists the races as
//! `L<line> <KIND> <buffer>[<bytes>] after L<prior line>`. Every case is
//! checked with the fast checker, which must agree with the definitional
//! semantics under both readings.

mod common;

use vksync::{check, trace};

const HEADER: &str = "\
buffer a 256
buffer b 256
buffer c 256
queue qa
queue qb
queue qc
semaphore s
semaphore s2
semaphore t timeline
";

/// `Ok` if `text` parses, else the error as the CLI prints it (line and
/// column first): what a validity table compares.
fn parsed(text: &str) -> Result<(), String> {
    trace::parse(text).map(|_| ()).map_err(|e| e.to_string())
}

fn race_case(name: &str, body: &str, expected: &[&str]) {
    common::race_case(
        HEADER,
        &["a", "b", "c"],
        name,
        body,
        expected,
        REFUSED.contains(&name),
    );
}

/// The cases the fast checker refuses: a timeline wait submitted before the
/// signal that satisfies it, or that several signals may satisfy (the
/// corners `model/src/sync/queues.rs` documents).
const REFUSED: &[&str] = &[
    "wait for a value above the device signal",
    "a signal that waits for the waiting batch is no candidate",
    "host-signal then a device wait in the writer's stage",
    "the device wait misses the writer's stage",
    "p1: a submit to another queue after the host write",
    "p1 control: no submit after the host write",
    "p1: a submit of a later batch of the same queue after the host write",
    "p1: a submit to another queue after the device write's fence",
    "p1: the wait's stage mask misses the reader",
    "review18 F1: another queue's submit after the host write, its batch signalling the reader's wait",
    "p1 control: the reader's own submit after the device write's fence",
    "a narrow wait and a signal in another stage: two candidates",
];

#[test]
fn two_queues_without_a_semaphore_race() {
    race_case(
        "write on qa, read on qb",
        "fill a[0..64] 1\nsubmit qa\ncopy a[0..64] -> b[0..64]\nsubmit qb",
        &["L12 READ_AFTER_WRITE a[0..64] after L10"],
    );
    race_case(
        "write on qa, write on qb",
        "fill a[0..64] 1\nsubmit qa\nfill a[0..64] 2\nsubmit qb",
        &["L12 WRITE_AFTER_WRITE a[0..64] after L10"],
    );
    race_case(
        "same queue, two submissions: submission order and the submit's visibility",
        "fill a[0..64] 1\nsubmit qa\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\nsubmit qa",
        &[],
    );
}

#[test]
fn binary_semaphore_orders_signal_before_wait_in_the_wait_stages() {
    race_case(
        "signal, wait in the reader's stage",
        "fill a[0..64] 1\nsubmit qa signal s\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@COPY",
        &[],
    );
    race_case(
        "wait in ALL_COMMANDS",
        "dispatch k write a[0..64]\nsubmit qa signal s\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@ALL_COMMANDS",
        &[],
    );
    race_case(
        "wait stage misses the reader",
        "fill a[0..64] 1\nsubmit qa signal s\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@COMPUTE_SHADER",
        &["L12 READ_AFTER_WRITE a[0..64] after L10"],
    );
    race_case(
        "a write after a read: execution dependency only",
        "copy a[0..64] -> b[0..64]\nsubmit qa signal s\nfill a[0..64] 2\nsubmit qb wait s@CLEAR",
        &[],
    );
    // The wait makes the fill visible only to its own second scope
    // (CLEAR): an execution-only barrier chains the copy after it, but
    // its empty second access scope makes nothing visible.
    race_case(
        "a later execution-only barrier on the waiting queue: ordered, not visible",
        "fill a[0..64] 1\nsubmit qa signal s\nbarrier CLEAR:NONE -> COPY:NONE\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@CLEAR",
        &["L13 READ_AFTER_WRITE a[0..64] after L10"],
    );
    race_case(
        "a later barrier on the waiting queue chains from the wait stage and makes the write visible",
        "fill a[0..64] 1\nsubmit qa signal s\nbarrier CLEAR:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@CLEAR",
        &[],
    );
}

#[test]
fn the_signal_stage_mask_must_cover_the_writer() {
    race_case(
        "signal after COPY only, writer is a dispatch",
        "dispatch k write a[0..64]\nsubmit qa signal s@COPY\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@ALL_COMMANDS",
        &["L12 READ_AFTER_WRITE a[0..64] after L10"],
    );
    race_case(
        "signal after the compute shader",
        "dispatch k write a[0..64]\nsubmit qa signal s@COMPUTE_SHADER\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@COPY",
        &[],
    );
    // The signal makes available only the writes in its own first scope
    // (COPY): an execution-only barrier chains the dispatch into it, but
    // its empty first access scope makes nothing available.
    race_case(
        "an execution-only barrier chains the writer into the signal's stage: ordered, not available",
        "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:NONE -> COPY:NONE\nsubmit qa signal s@COPY\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@COPY",
        &["L13 READ_AFTER_WRITE a[0..64] after L10"],
    );
    race_case(
        "a barrier makes the writer available and chains it into the signal's stage",
        "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COPY:NONE\nsubmit qa signal s@COPY\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@COPY",
        &[],
    );
}

#[test]
fn timeline_waits_pair_with_signals_of_a_value_at_least_theirs() {
    race_case(
        "wait for a value below the signal",
        "fill a[0..64] 1\nsubmit qa signal t:5\ncopy a[0..64] -> b[0..64]\nsubmit qb wait t:3@COPY",
        &[],
    );
    race_case(
        "wait for the signalled value",
        "fill a[0..64] 1\nsubmit qa signal t:5\ncopy a[0..64] -> b[0..64]\nsubmit qb wait t:5@COPY",
        &[],
    );
    // Value 7 is reached only by the host's signal to 8. The host may
    // signal above the pending 5 only once it knows that signal complete
    // (VUID-VkSemaphoreSignalInfo-value-03259), so the host signal, and
    // the copy after it, follow the fill, whose signal made it available.
    race_case(
        "wait for a value above the device signal",
        "fill a[0..64] 1\nsubmit qa signal t:5\ncopy a[0..64] -> b[0..64]\nsubmit qb wait t:7@COPY\nhost-wait t 5\nhost-signal t 8",
        &[],
    );
    // Two signals reach 3, on two queues; the second must execute after
    // the first (VUID-VkSubmitInfo2-semaphore-03882: without qc's wait
    // the program is refused), so the first reaches 3 first and the wait
    // is after the fill.
    race_case(
        "two candidate signals on different queues, in value order",
        "fill a[0..64] 1\nsubmit qa signal t:4\nsubmit qc wait t:4@ALL_COMMANDS signal t:6\ncopy a[0..64] -> b[0..64]\nsubmit qb wait t:3@COPY",
        &[],
    );
    // Both candidates are after the fill and its availability (the
    // second through `s`): whichever the wait pairs with, the copy reads
    // a visible write.
    race_case(
        "two candidate signals on different queues, each after the write",
        "fill a[0..64] 1\nsubmit qa signal s signal t:4\nsubmit qc wait s@ALL_COMMANDS signal t:6\n\
         copy a[0..64] -> b[0..64]\nsubmit qb wait t:3@COPY",
        &[],
    );
    // Only one candidate is after the write: the wait may pair with the
    // other one.
    race_case(
        "two candidate signals on different queues, one after the write",
        "fill a[0..64] 1\nsubmit qa signal s\nsubmit qc signal t:4\nsubmit qa wait s@ALL_COMMANDS wait t:4@ALL_COMMANDS signal t:6\n\
         copy a[0..64] -> b[0..64]\nsubmit qb wait t:3@COPY",
        &["L14 READ_AFTER_WRITE a[0..64] after L10"],
    );
    // The wait for 1 on qb: qb's own 2 follows it (no candidate), qa's 3
    // is a later candidate on qa with `t:1`'s first scope: `t:1`
    // dominates. Dominance asks this of the candidates only (2026-12-06;
    // before, of every later signal of `t`, and qb's 2 stopped it).
    race_case(
        "a later signal of another queue after the wait does not stop dominance",
        "fill a[0..64] 1\nsubmit qa signal t:1\ncopy a[0..64] -> b[0..64]\n\
         submit qb wait t:1@COPY signal t:2@COPY\nfill c[0..64] 2\nsubmit qa wait t:2@ALL_COMMANDS signal t:3",
        &[],
    );
    // A host wait for 2, which qb's 2 and qa's 3 may satisfy: a domain
    // operation (a barrier to HOST) after the fill's availability comes
    // before each, a different one (qb's after the host wait for 1, qa's
    // after the fill in submission order): whichever pairs, the host read
    // sees the fill (found by the frame-loop differential when such waits
    // reached the fast checker).
    race_case(
        "a different device-to-host domain operation before each candidate of a host wait",
        "fill c[0..64] 0\nsubmit qa signal t:1\nhost-wait t 1\n\
         barrier ALL_TRANSFER:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit qb signal t:2\n\
         barrier ALL_TRANSFER:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit qa wait t:2@ALL_COMMANDS signal t:3\n\
         host-wait t 2\nhost-read c[0..64]",
        &[],
    );
    // Without qb's barrier only qa's candidate comes after a domain
    // operation: the read races.
    race_case(
        "a device-to-host domain operation before one candidate of a host wait only",
        "fill c[0..64] 0\nsubmit qa signal t:1\nhost-wait t 1\nsubmit qb signal t:2\n\
         barrier ALL_TRANSFER:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit qa wait t:2@ALL_COMMANDS signal t:3\n\
         host-wait t 2\nhost-read c[0..64]",
        &["L17 READ_AFTER_WRITE c[0..64] after L10"],
    );
    // The later signal of 4 waits (through `s`) for the batch that waits
    // for 3: it is guaranteed to happen after the wait, so it is no
    // candidate, and the host's signal of 3 is the only one. The read of
    // `a` in the waiting batch is then ordered before the write of `a` on
    // `qa` through `s`. (Found by the SVG work: counting the later signal
    // as a candidate closed a cycle and reported a write-after-read.)
    race_case(
        "a signal that waits for the waiting batch is no candidate",
        "copy a[0..64] -> b[0..64]\nsubmit qb wait t:3@COPY signal s\nhost-signal t 3\ncopy b[0..64] -> a[0..64]\nsubmit qa wait s@COPY signal t:4",
        &[],
    );
    // Both signals of `qa` reach 1, and each makes the fill available
    // (it is in each one's first scope): whichever the wait pairs with,
    // the copy sees the fill. (Found by the runtime work: the meet of the
    // two lost "each candidate made it available".)
    race_case(
        "each of two candidate signals makes the write available",
        "fill a[0..64] 1\nsubmit qa signal t:1\ncopy a[0..64] -> b[0..64]\nsubmit qb wait t:1@COPY\nfill c[0..64] 2\nsubmit qa signal t:2",
        &[],
    );
    // A frame loop (wgpu): one queue signals its timeline at every
    // submission and the host waits for a value after the next submission
    // was made. Both signals reach 1; the later one is on the same queue
    // with the same first scope, so it is ordered after everything the
    // first is: the wait pairs with the first (candidates.rs, dominance).
    race_case(
        "a frame loop: the host waits for a value after the next submission",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit qa signal t:1\n\
         fill b[0..64] 2\nsubmit qa signal t:2\nhost-wait t 1\nhost-read a[0..64]\nhost-read b[0..64]",
        &["L17 READ_AFTER_WRITE b[0..64] after L13"],
    );
    // The later signal's first scope (`COPY`) does not hold the first's
    // (`ALL_COMMANDS`): the fill is in the first one's scope only, so the
    // wait is ordered after it only if it pairs with the first; no
    // candidate dominates, both are earlier in the walk, and the wait is
    // after what both are after: the read races.
    race_case(
        "a later candidate with a narrower first scope does not dominate",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit qa signal t:1\n\
         copy c[0..64] -> b[0..64]\nsubmit qa signal t:2@COPY\nhost-wait t 1\nhost-read a[0..64]",
        &["L16 READ_AFTER_WRITE a[0..64] after L10"],
    );
    race_case(
        "the initial value satisfies the wait: nothing is ordered",
        "semaphore u timeline 9\nfill a[0..64] 1\nsubmit qa signal u:10\ncopy a[0..64] -> b[0..64]\nsubmit qb wait u:9@COPY",
        &["L13 READ_AFTER_WRITE a[0..64] after L11"],
    );
}

#[test]
fn host_signals_and_waits_of_timeline_semaphores() {
    // The batch waits for the host: the host's read of `b` before its
    // signal happens before the copy that overwrites `b`.
    race_case(
        "host-signal then a device wait in the writer's stage",
        "copy a[0..64] -> b[0..64]\nsubmit qb wait t:1@COPY\nhost-read b[0..64]\nhost-signal t 1",
        &[],
    );
    // A race is named in execution order: the host read runs first (the
    // copy's batch waits for the host signal after it), though the copy
    // comes first in the trace.
    race_case(
        "the device wait misses the writer's stage",
        "copy a[0..64] -> b[0..64]\nsubmit qb wait t:1@COMPUTE_SHADER\nhost-read b[0..64]\nhost-signal t 1",
        &["L10 WRITE_AFTER_READ b[0..64] after L12"],
    );
    race_case(
        "host-wait after a device signal, barrier to the host",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit qa signal t:1\nhost-wait t 1\nhost-read a[0..64]",
        &[],
    );
    race_case(
        "host-wait after a device signal, no barrier to HOST:HOST_READ",
        "fill a[0..64] 1\nsubmit qa signal t:1\nhost-wait t 1\nhost-read a[0..64]",
        &["L13 READ_AFTER_WRITE a[0..64] after L10"],
    );
    race_case(
        "host-read without any wait",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit qa signal t:1\nhost-read a[0..64]",
        &["L13 READ_AFTER_WRITE a[0..64] after L10"],
    );
}

#[test]
fn waiting_for_a_queue_orders_only_that_queues_submissions() {
    race_case(
        "wait for the writer's queue",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit qa\nwait qa\nhost-read a[0..64]",
        &[],
    );
    race_case(
        "wait for another queue",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit qa\nwait qb\nhost-read a[0..64]",
        &["L14 READ_AFTER_WRITE a[0..64] after L10"],
    );
    race_case(
        "wait for all",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit qa\nwait\nhost-read a[0..64]",
        &[],
    );
    race_case(
        "wait for a queue, then a submit to another: the fence made the write available",
        "fill a[0..64] 1\nsubmit qa\nwait qa\ncopy a[0..64] -> b[0..64]\nsubmit qb",
        &[],
    );
}

#[test]
fn a_pipeline_barrier_orders_only_its_own_queue() {
    race_case(
        "barrier on qb does not order qa's fill",
        "fill a[0..64] 1\nsubmit qa\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\nsubmit qb",
        &["L13 READ_AFTER_WRITE a[0..64] after L10"],
    );
    race_case(
        "the same barrier on qa",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\nsubmit qa\nsubmit qb",
        &[],
    );
}

#[test]
fn semaphores_chain_across_three_queues() {
    race_case(
        "qa -> qb -> qc",
        "fill a[0..64] 1\nsubmit qa signal s\nsubmit qb wait s@ALL_COMMANDS signal s2\ncopy a[0..64] -> b[0..64]\nsubmit qc wait s2@COPY",
        &[],
    );
    race_case(
        "qb's wait stage does not reach its signal's stage",
        "fill a[0..64] 1\nsubmit qa signal s\nsubmit qb wait s@COMPUTE_SHADER signal s2@COPY\ncopy a[0..64] -> b[0..64]\nsubmit qc wait s2@COPY",
        &["L13 READ_AFTER_WRITE a[0..64] after L10"],
    );
    race_case(
        "qa -> qc directly, qb unordered",
        "fill a[0..64] 1\nsubmit qa signal s\nfill a[0..64] 2\nsubmit qb\ncopy a[0..64] -> b[0..64]\nsubmit qc wait s@COPY",
        &[
            "L12 WRITE_AFTER_WRITE a[0..64] after L10",
            "L14 READ_AFTER_WRITE a[0..64] after L12",
        ],
    );
}

#[test]
fn single_queue_programs_with_a_declared_queue_still_check_fast() {
    // Naming the only queue changes nothing: the fast checker answers.
    let t =
        trace::parse("buffer a 64\nbuffer b 64\nqueue q\nfill a 1\nsubmit q\nwait q\ncopy a -> b\n").unwrap();
    let hazards = check(&t.program).unwrap();
    assert!(hazards.is_empty(), "{hazards:?}");
}

#[test]
fn queue_and_semaphore_lines_round_trip() {
    let text = "queue qa\nqueue qb family 2\nsemaphore s\nsemaphore t timeline 3\nbuffer a 64\n\
                fill a 1\nsubmit qa signal s signal t:4@CLEAR\nsubmit qb wait s@COPY wait t:4@ALL_COMMANDS\n\
                wait qb\nhost-signal t 5\nhost-wait t 5\nwait\n";
    let t = trace::parse(text).unwrap();
    let printed = trace::print(&t.program);
    let again = trace::parse(&printed).unwrap();
    assert_eq!(again.program, t.program);
    assert_eq!(trace::print(&again.program), printed);
    // A signal in ALL_COMMANDS prints without its stages.
    assert!(
        printed.contains("submit qa signal s signal t:4@CLEAR\n"),
        "{printed}"
    );
    assert!(
        printed.starts_with("queue qa\nqueue qb family 2\nsemaphore s\nsemaphore t timeline 3\n"),
        "{printed}"
    );
}

/// A binary wait whose pending signal's batch waits for a timeline value
/// that no signal submitted before the wait reaches: the deadlock of two
/// queues through a binary semaphore is refused by this rule, at the
/// binary wait.
#[test]
fn binary_waits_need_their_signals_dependencies_submitted() {
    let head = "queue qa\nqueue qb\nsemaphore s\nsemaphore u timeline\n";
    let body = "submit qa wait u:1@ALL_COMMANDS signal s\nsubmit qb wait s@ALL_COMMANDS signal u:1";
    // Transitively, the message names the value at the root (review38).
    let root = "semaphore v timeline\nqueue qc\nsubmit qa wait v:1@ALL_COMMANDS signal u:2\n\
                submit qb wait u:2@ALL_COMMANDS signal s\nsubmit qc wait s@ALL_COMMANDS";
    let got = parsed(&format!("{head}{root}"));
    assert_eq!(
        got,
        Err("9:16: binary semaphore `s` is waited on, but the batch of its pending signal waits for timeline `u` value 2, \
             which no signal submitted so far reaches (the signals of it wait in turn, down to `v` value 1, which none \
             reaches): every signal operation the pending signal depends on must have been submitted \
             (VUID-vkQueueSubmit2-semaphore-03873, VUID-vkQueueSubmit-pWaitSemaphores-03238)"
            .to_string())
    );
    let got = parsed(&format!("{head}{body}"));
    assert_eq!(
        got,
        Err("6:16: binary semaphore `s` is waited on, but the batch of its pending signal waits for timeline `u` value 1, \
             which no signal submitted so far reaches: every signal operation the pending signal depends on must have \
             been submitted (VUID-vkQueueSubmit2-semaphore-03873, VUID-vkQueueSubmit-pWaitSemaphores-03238)"
            .to_string())
    );
}

/// Timeline signals of one semaphore on two queues must execute in the
/// order of their values (VUID-VkSubmitInfo2-semaphore-03882: a signal's
/// value must be greater than the semaphore's value when it executes):
/// the later one is refused unless something orders it after the earlier
/// one: its queue, a wait it follows (sharing a stage with its first
/// scope, in its batch or an earlier one of its queue), a fence or host
/// wait before its submit.
#[test]
fn timeline_signals_of_two_queues_execute_in_value_order() {
    let head = "queue qa\nqueue qb\nsemaphore t timeline\n";
    let refused = |body: &str, at: &str, value: u64, previous: u64| {
        let got = parsed(&format!("{head}{body}"));
        assert_eq!(
            got,
            Err(format!(
                "{at}: timeline semaphore `t` is signalled with {value} on `qb`, but nothing orders this signal after the \
                 signal of {previous} on `qa`: if it executes first, that one finds a greater value (a signal's value must be \
                 greater than the semaphore's value when it executes: VUID-VkSubmitInfo2-semaphore-03882). Wait in \
                 this batch for a value `qa`'s signal reaches first, with a stage mask that shares a stage with this \
                 signal's, or wait for it on the host first, or signal from one queue"
            )),
            "for {body:?}"
        );
    };
    refused("submit qa signal t:1\nsubmit qb signal t:2", "5:18", 2, 1);
    // The wait and the signal share no stage.
    refused(
        "submit qa signal t:1\nsubmit qb wait t:1@COPY signal t:2@CLEAR",
        "5:32",
        2,
        1,
    );
    // A wait in a later batch does not order an earlier batch's signal.
    refused(
        "submit qa signal t:1\nsubmit qb signal t:2\nsubmit qb wait t:1@ALL_COMMANDS",
        "5:18",
        2,
        1,
    );
    // Two signals of one timeline in one batch are unordered ("Semaphore
    // signal operations defined by a single VkSubmitInfo2 ... are
    // unordered").
    let got = parsed(&format!("{head}submit qa signal t:1 signal t:2"));
    assert_eq!(
        got,
        Err("4:29: timeline semaphore `t` is signalled twice in one batch (1 and 2): the signal operations of one \
             batch are unordered, so 2 may execute first and 1 then finds a greater value \
             (VUID-VkSubmitInfo2-semaphore-03882); signal it once per batch"
            .to_string())
    );
    // A wait for a value whose only signal waits in turn for the host: not
    // settled (a later host signal may lie below it), refused.
    refused(
        "submit qa wait t:1@ALL_COMMANDS signal t:3\nsubmit qb wait t:2@ALL_COMMANDS signal t:4\nhost-signal t 1",
        "5:40",
        4,
        3,
    );
    // A host signal below a pending device signal does not stand for it.
    refused(
        "submit qa wait t:1@ALL_COMMANDS signal t:5\nhost-signal t 1\nsubmit qb signal t:6",
        "6:18",
        6,
        5,
    );
    for body in [
        "submit qa signal t:1\nsubmit qa signal t:2",
        "submit qa signal t:1\nsubmit qb wait t:1@ALL_COMMANDS signal t:2",
        "submit qa signal t:1@COPY\nsubmit qb wait t:1@COPY signal t:2@COPY",
        "submit qa signal t:1\nsubmit qb wait t:1@COPY\nsubmit qb signal t:2",
        "submit qa signal t:1\nwait qa\nsubmit qb signal t:2",
        "submit qa signal t:1@COPY\nhost-wait t 1\nsubmit qb signal t:2",
        "submit qa signal t:1\nhost-wait t 1\nhost-signal t 2\nsubmit qb signal t:3",
        // Transitively, through another queue's binary semaphore.
        "semaphore s\nsubmit qa signal t:1 signal s\nsubmit qb wait s@ALL_COMMANDS signal t:2",
        // review38: a wait for a value below the one signal reaching it
        // follows that signal (a later host signal cannot lie below it:
        // it can have run).
        "submit qa signal t:2\nsubmit qb wait t:1@ALL_COMMANDS signal t:3",
        // review38: a wait submitted before its signal follows it once the
        // signal is submitted, for the queue's later batches.
        "buffer b 16\nsubmit qb wait t:1@ALL_COMMANDS\nsubmit qa signal t:1\nfill b 1\nsubmit qb signal t:2",
        // review38: a fence of a queue covers its waits of every mask.
        "queue qc\nsubmit qa signal t:1\nsubmit qb wait t:1@COPY\nwait qb\nsubmit qc signal t:2",
    ] {
        trace::parse(&format!("{head}{body}")).unwrap_or_else(|e| panic!("{body:?}: {e}"));
    }
}

#[test]
fn queue_and_semaphore_errors_name_line_and_column() {
    let head = "queue qa\nsemaphore s\nsemaphore t timeline\n";
    let cases: &[(&str, &str)] = &[
        ("submit qx", "4:8: unknown queue `qx` (declared: qa)"),
        ("submit qa wait s@COPY", "4:16: binary semaphore `s` is waited on with no signal pending (VUID-vkQueueSubmit-pWaitSemaphores-03238)"),
        ("submit qa wait s", "4:17: a semaphore wait needs its stages: `wait SEMAPHORE[:VALUE]@STAGES` (pWaitDstStageMask)"),
        ("submit qa signal t", "4:18: `t` is a timeline semaphore: give a value (`t:VALUE`)"),
        ("submit qa signal s:1", "4:18: `s` is a binary semaphore: it takes no value"),
        ("host-signal s 1", "4:13: `host-signal` needs a timeline semaphore; `s` is binary"),
        ("submit qa signal s\nsubmit qa signal s", "5:18: binary semaphore `s` is signalled again before a wait unsignals it (VUID-vkQueueSubmit-pSignalSemaphores-00067)"),
        ("host-signal t 2\nsubmit qa signal t:2", "5:18: timeline semaphore `t` is signalled with 2, which is not greater than its value 2 (VUID-VkSemaphoreSignalInfo-value-03258)"),
        // A host signal below a device signal that can have run (its batch
        // waits for nothing): VUID-VkSemaphoreSignalInfo-value-03258.
        ("submit qa signal t:2\nhost-signal t 1", "5:15: timeline semaphore `t` is signalled with 1, which is not greater than its value 2 (VUID-VkSemaphoreSignalInfo-value-03258)"),
        // The same when the batch's wait is met by a host signal before it.
        ("host-signal t 1\nsubmit qa wait t:1@COPY signal t:3\nhost-signal t 2", "6:15: timeline semaphore `t` is signalled with 2, which is not greater than its value 3 (VUID-VkSemaphoreSignalInfo-value-03258)"),
        // A pending signal (its batch waits for the host) must be greater.
        ("submit qa wait t:1@COPY signal t:1\nhost-signal t 1", "5:15: timeline semaphore `t` is signalled by the host with 1, which is not less than the value 1 a submitted batch signals that the host does not know complete (wait for it first; VUID-VkSemaphoreSignalInfo-value-03259: the value must be less than that of any pending signal)"),
        ("submit qa wait t:1@COPY signal t:2\nhost-signal t 3", "5:15: timeline semaphore `t` is signalled by the host with 3, which is not less than the value 2 a submitted batch signals that the host does not know complete (wait for it first; VUID-VkSemaphoreSignalInfo-value-03259: the value must be less than that of any pending signal)"),
        // A device signal that can have run but that the host does not
        // know complete is still pending (issue 22, defect 5): above it,
        // refused; after a fence or a host wait that follows it, valid.
        ("submit qa signal t:2\nhost-signal t 3", "5:15: timeline semaphore `t` is signalled by the host with 3, which is not less than the value 2 a submitted batch signals that the host does not know complete (wait for it first; VUID-VkSemaphoreSignalInfo-value-03259: the value must be less than that of any pending signal)"),
        ("submit qa signal s\nsubmit qa wait s@ALL_COMMANDS signal t:2\nhost-signal t 3", "6:15: timeline semaphore `t` is signalled by the host with 3, which is not less than the value 2 a submitted batch signals that the host does not know complete (wait for it first; VUID-VkSemaphoreSignalInfo-value-03259: the value must be less than that of any pending signal)"),
        ("submit qa wait t:5@COPY\nhost-signal t 4", "4:16: timeline semaphore `t` is waited for value 5, but no signal of the program reaches it (its last value is 4): the wait would never complete"),
        // A binary wait whose pending signal's batch waits for a timeline
        // value nothing submitted reaches yet (the host signals it later):
        // VUID-vkQueueSubmit2-semaphore-03873 (review37).
        ("submit qa wait t:5@ALL_COMMANDS signal s\nsubmit qa wait s@ALL_COMMANDS\nhost-signal t 5", "5:16: binary semaphore `s` is waited on, but the batch of its pending signal waits for timeline `t` value 5, which no signal submitted so far reaches: every signal operation the pending signal depends on must have been submitted (VUID-vkQueueSubmit2-semaphore-03873, VUID-vkQueueSubmit-pWaitSemaphores-03238)"),
        // Transitively: the value is signalled by a batch that itself
        // waits for a value nothing submitted reaches.
        ("submit qa wait t:5@ALL_COMMANDS signal t:6\nsubmit qa wait t:6@ALL_COMMANDS signal s\nsubmit qa wait s@ALL_COMMANDS\nhost-signal t 5", "6:16: binary semaphore `s` is waited on, but the batch of its pending signal waits for timeline `t` value 6, which no signal submitted so far reaches (the signals of it wait in turn, down to `t` value 5, which none reaches): every signal operation the pending signal depends on must have been submitted (VUID-vkQueueSubmit2-semaphore-03873, VUID-vkQueueSubmit-pWaitSemaphores-03238)"),
        ("submit qa wait s@HOST", "4:18: a semaphore's stage mask may not include HOST (VUID-VkSubmitInfo-pWaitDstStageMask-00078)"),
        ("submit qa wait s@COPX", "4:18: unknown stage flag `COPX`"),
        ("submit qa frob", "4:11: expected `wait` or `signal`, found `frob`"),
        ("wait qz", "4:6: unknown queue `qz` (declared: qa)"),
        ("queue qa", "4:7: `qa` is already declared"),
        ("queue signal", "4:7: `signal` is a keyword of `submit` and `wait` and cannot name a queue or semaphore"),
        ("semaphore u timeline x", "4:22: expected an initial value, found `x`"),
        ("host-wait u 1", "4:11: unknown semaphore `u`"),
    ];
    for (body, expected) in cases {
        let got = parsed(&format!("{head}{body}"));
        assert_eq!(got, Err(expected.to_string()), "for {body:?}");
    }
    // Wait-before-signal on a timeline semaphore is valid.
    trace::parse(&format!("{head}submit qa wait t:1@COPY\nhost-signal t 1\n")).unwrap();
    // A binary wait whose pending signal depends on timeline values that
    // signals submitted before it reach (a host signal, or a device signal
    // that can run) is valid, even when they reach them after the wait is
    // submitted.
    for body in [
        "submit qa wait t:5@ALL_COMMANDS signal s\nhost-signal t 5\nsubmit qa wait s@ALL_COMMANDS\n",
        "submit qa signal t:2\nsubmit qa wait t:2@ALL_COMMANDS signal s\nsubmit qa wait s@ALL_COMMANDS\n",
        "submit qa wait t:1@ALL_COMMANDS signal t:2\nsubmit qa wait t:2@ALL_COMMANDS signal s\nhost-signal t 1\nsubmit qa wait s@ALL_COMMANDS\n",
    ] {
        trace::parse(&format!("{head}{body}")).unwrap_or_else(|e| panic!("{body:?}: {e}"));
    }
    // Above a device signal the host knows complete (a fence of its
    // queue, a host wait for its value or one above it, or a wait for
    // everything), a host signal is valid, both in the parser and in
    // `resolve`.
    for body in [
        "submit qa signal t:2\nwait qa\nhost-signal t 3\n",
        "submit qa signal t:2\nhost-wait t 2\nhost-signal t 3\n",
        "submit qa signal t:2\nsubmit qa signal t:4\nhost-wait t 3\nhost-signal t 5\n",
        "submit qa signal t:2\nwait\nhost-signal t 3\n",
    ] {
        let t = trace::parse(&format!("{head}{body}")).unwrap_or_else(|e| panic!("{body:?}: {e}"));
        vksync::resolve(&t.program).unwrap_or_else(|e| panic!("{body:?}: {e}"));
    }
    // The host unblocking a batch that signals a greater value, submitted
    // before the host signal (the specification's own pattern): 1 is
    // greater than the current value and less than the pending 2; the
    // same through a second semaphore; and a later device signal above
    // both.
    for body in [
        "submit qa wait t:1@COPY signal t:2\nhost-signal t 1\n",
        "semaphore u timeline\nsubmit qa wait u:1@COPY signal t:2\nhost-signal t 1\nhost-signal u 1\nsubmit qa signal t:3\n",
    ] {
        let t = trace::parse(&format!("{head}{body}")).unwrap_or_else(|e| panic!("{body:?}: {e}"));
        // The definitional semantics finds no race in it (the fast
        // checker refuses a wait submitted before its signal).
        for reading in [vksync::spec::Reading::MemoryModel, vksync::spec::Reading::VisibleToWrites] {
            assert!(vksync::spec::races(&t.program, reading).unwrap().is_empty(), "{body:?}");
        }
    }
}

#[test]
fn built_programs_are_validated_like_parsed_ones() {
    use vksync::{Command, Program, SemaphoreType, SemaphoreWait, Submission};
    let mut p = Program::new();
    let q = p.queue("q", 0).unwrap();
    let s = p.semaphore("s", SemaphoreType::Binary).unwrap();
    p.push(Command::Submit(Submission {
        queue: q,
        waits: vec![SemaphoreWait {
            semaphore: s,
            value: None,
            stages: vksync::PipelineStageFlags2::COPY,
        }],
        signals: vec![],
    }))
    .unwrap();
    let e = vksync::resolve(&p).unwrap_err();
    assert_eq!(
        e.to_string(),
        "command 0: binary semaphore `s` is waited on with no signal pending (VUID-vkQueueSubmit-pWaitSemaphores-03238)"
    );
    let e = p
        .push(Command::HostSignal {
            semaphore: s,
            value: 1,
        })
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "command 1: `host-signal` needs a timeline semaphore; `s` is binary"
    );
    assert!(p
        .push(Command::Wait(vksync::WaitFor::Queue(vksync::QueueId(3))))
        .is_err());
}

/// The spec review's traces (finding 1: a wait's visibility reaches its own
/// second scope only; 2: a signal's or fence's availability covers its own
/// first scope only; 3: `ALL_COMMANDS` orders barriers' own operations
/// only through a stage chain), with their controls.
#[test]
fn semaphore_and_fence_memory_dependencies_cover_their_own_scopes_only() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "f1: wait, then an execution-only barrier chain to the reader",
            "fill a[0..64] 1\nsubmit qa signal s\nbarrier COPY:NONE -> COMPUTE_SHADER:NONE\ndispatch k read a[0..64] write b[0..64]\nsubmit qb wait s@COPY",
            &["L13 READ_AFTER_WRITE a[0..64] after L10"],
        ),
        (
            "f1 control: the barrier's second access scope holds the reader",
            "fill a[0..64] 1\nsubmit qa signal s\nbarrier COPY:NONE -> COMPUTE_SHADER:SHADER_READ\ndispatch k read a[0..64] write b[0..64]\nsubmit qb wait s@COPY",
            &[],
        ),
        (
            "f2: an execution-only chain into the signal",
            "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:NONE -> COPY:NONE\nsubmit qa signal s@COPY\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@COPY",
            &["L13 READ_AFTER_WRITE a[0..64] after L10"],
        ),
        (
            "f2b: the write reaches the other queue's fence only through a chain",
            "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:NONE -> COPY:NONE\nsubmit qa signal s@COPY\nsubmit qb wait s@ALL_COMMANDS\nwait qb\ncopy a[0..64] -> b[0..64]\nsubmit qb",
            &["L15 READ_AFTER_WRITE a[0..64] after L10"],
        ),
        (
            "f2b control: the writer's own fence",
            "dispatch k write a[0..64]\nsubmit qa\nwait qa\ncopy a[0..64] -> b[0..64]\nsubmit qb",
            &[],
        ),
        (
            "war through an execution-only chain into the signal",
            "dispatch k read a[0..64] write b[0..64]\nbarrier COMPUTE_SHADER:NONE -> COPY:NONE\nsubmit qa signal s@COPY\nfill a[0..64] 2\nsubmit qb wait s@CLEAR",
            &[],
        ),
        (
            "f3: a wait in ALL_COMMANDS orders a transition whose barrier's first scope is NONE",
            "dispatch k write a[0..64]\nsubmit qa signal s\nbarrier NONE:NONE -> COMPUTE_SHADER:SHADER_READ a[0..64] transition\ndispatch k2 read a[0..64] write b[0..64]\nsubmit qb wait s@ALL_COMMANDS",
            &[],
        ),
        (
            "f3: a wait in COMPUTE_SHADER does not order a transition whose barrier's first scope is NONE",
            "dispatch k write a[0..64]\nsubmit qa signal s\nbarrier NONE:NONE -> COMPUTE_SHADER:SHADER_READ a[0..64] transition\ndispatch k2 read a[0..64] write b[0..64]\nsubmit qb wait s@COMPUTE_SHADER",
            &["L12 WRITE_AFTER_WRITE a[0..64] after L10"],
        ),
        (
            "f3: a wait in ALL_COMMANDS does not order a barrier's domain operation whose first scope is NONE",
            "fill a[0..64] 1\nsubmit qa signal s\nbarrier NONE:NONE -> HOST:HOST_READ\nsubmit qb wait s@ALL_COMMANDS\nwait qb\nhost-read a[0..64]",
            &["L15 READ_AFTER_WRITE a[0..64] after L10"],
        ),
        (
            "f3 control: the barrier chains from the wait's stage",
            "fill a[0..64] 1\nsubmit qa signal s\nbarrier CLEAR:NONE -> HOST:HOST_READ\nsubmit qb wait s@CLEAR\nwait qb\nhost-read a[0..64]",
            &[],
        ),
        (
            "f3: a signal in ALL_COMMANDS orders a transition whose barrier's second scope is NONE",
            "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..64] transition\nsubmit qa signal s\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@COPY",
            &[],
        ),
        (
            "f3: a signal in CLEAR does not order a transition whose barrier's second scope is NONE",
            "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..64] transition\nsubmit qa signal s@CLEAR\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@COPY",
            &["L13 READ_AFTER_WRITE a[0..64] after L11"],
        ),
    ];
    for (name, body, expected) in cases {
        race_case(name, body, expected);
    }
}

/// Layout transitions on two queues (review 9, tt3/tt5/D4a/D4b): they are
/// ordered among themselves "in submission order, relative to other image
/// layout transitions submitted to the same queue", and submission order
/// is per queue, so across queues they need a semaphore or a fence like
/// any two writes. A semaphore signal or wait with `ALL_COMMANDS` holds a
/// transition of its queue ("all operations performed by all commands
/// supported on the queue"), as a fence signal does; a narrower stage mask
/// does not (a transition is in no stage).
#[test]
fn layout_transitions_on_two_queues_need_a_semaphore() {
    let t = "barrier NONE:NONE -> NONE:NONE a[0..64] transition";
    let cases: Vec<(&str, String, &[&str])> = vec![
        (
            "two transitions on two queues, nothing between them",
            format!("{t}\nsubmit qa\n{t}\nsubmit qb"),
            &["L12 WRITE_AFTER_WRITE a[0..64] after L10"],
        ),
        (
            "two transitions on one queue, in two submissions",
            format!("{t}\nsubmit qa\n{t}\nsubmit qa"),
            &[],
        ),
        (
            "two transitions on two queues, a semaphore in ALL_COMMANDS",
            format!("{t}\nsubmit qa signal s\n{t}\nsubmit qb wait s@ALL_COMMANDS"),
            &[],
        ),
        (
            "two transitions on two queues, the signal in COPY only",
            format!("{t}\nsubmit qa signal s@COPY\n{t}\nsubmit qb wait s@ALL_COMMANDS"),
            &["L12 WRITE_AFTER_WRITE a[0..64] after L10"],
        ),
        (
            "two transitions on two queues, the wait in COPY only",
            format!("{t}\nsubmit qa signal s\n{t}\nsubmit qb wait s@COPY"),
            &["L12 WRITE_AFTER_WRITE a[0..64] after L10"],
        ),
        (
            "two transitions on two queues, a fence wait",
            format!("{t}\nsubmit qa\nwait qa\n{t}\nsubmit qb"),
            &[],
        ),
        (
            "a transition, then a fill on another queue",
            format!("{t}\nsubmit qa\nfill a[0..64] 1\nsubmit qb"),
            &["L12 WRITE_AFTER_WRITE a[0..64] after L10"],
        ),
        (
            "a fill, then a transition on another queue",
            format!("fill a[0..64] 1\nsubmit qa\n{t}\nsubmit qb"),
            &["L12 WRITE_AFTER_WRITE a[0..64] after L10"],
        ),
        (
            "D4a: a copy after an ALL_COMMANDS semaphore reads the transition",
            format!("{t}\nsubmit qa signal s\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@ALL_COMMANDS"),
            &[],
        ),
        (
            "D4b: a copy after a fence wait reads the transition",
            format!("{t}\nsubmit qa\nwait qa\ncopy a[0..64] -> b[0..64]\nsubmit qb"),
            &[],
        ),
        (
            "D4a with the signal in COPY: the transition is not in its scope",
            format!("{t}\nsubmit qa signal s@COPY\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@ALL_COMMANDS"),
            &["L12 READ_AFTER_WRITE a[0..64] after L10"],
        ),
        (
            "D4a on one queue: the semaphore orders the transition before the copy",
            format!("{t}\nsubmit qa signal s\ncopy a[0..64] -> b[0..64]\nsubmit qa wait s@ALL_COMMANDS"),
            &[],
        ),
        // One reading of ALL_COMMANDS: a pipeline barrier's first scope
        // holds the transition as the semaphore signal's does (its write
        // is available at once, so with any access mask), so D4a's narrow
        // signal is enough after it; a narrower barrier is not.
        (
            "D4a with the signal in COPY after an ALL_COMMANDS:MEMORY_WRITE barrier",
            format!(
                "{t}\nbarrier ALL_COMMANDS:MEMORY_WRITE -> COPY:NONE\nsubmit qa signal s@COPY\n\
                 copy a[0..64] -> b[0..64]\nsubmit qb wait s@ALL_COMMANDS"
            ),
            &[],
        ),
        (
            "...after an ALL_COMMANDS:NONE barrier",
            format!(
                "{t}\nbarrier ALL_COMMANDS:NONE -> COPY:NONE\nsubmit qa signal s@COPY\n\
                 copy a[0..64] -> b[0..64]\nsubmit qb wait s@ALL_COMMANDS"
            ),
            &[],
        ),
        (
            "...after a COMPUTE_SHADER:MEMORY_WRITE barrier",
            format!(
                "{t}\nbarrier COMPUTE_SHADER:MEMORY_WRITE -> COPY:NONE\nsubmit qa signal s@COPY\n\
                 copy a[0..64] -> b[0..64]\nsubmit qb wait s@ALL_COMMANDS"
            ),
            &["L13 READ_AFTER_WRITE a[0..64] after L10"],
        ),
        // And its second scope holds a later transition, as an
        // ALL_COMMANDS wait's does (and as either holds an acquire).
        (
            "a narrow wait, then an ALL_COMMANDS second scope before the transition",
            "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:NONE\nsubmit qa signal s@COPY\n\
             barrier COPY:NONE -> ALL_COMMANDS:NONE\nbarrier NONE:NONE -> NONE:NONE a[0..64] transition\nsubmit qb wait s@COPY"
                .to_string(),
            &[],
        ),
        (
            "...a narrower second scope",
            "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:NONE\nsubmit qa signal s@COPY\n\
             barrier COPY:NONE -> COMPUTE_SHADER:NONE\nbarrier NONE:NONE -> NONE:NONE a[0..64] transition\nsubmit qb wait s@COPY"
                .to_string(),
            &["L14 WRITE_AFTER_WRITE a[0..64] after L10"],
        ),
    ];
    for (name, body, expected) in &cases {
        race_case(name, body, expected);
    }
}

/// The spec review's finding p1: a vkQueueSubmit's memory dependency with
/// prior host operations ("Host Write Ordering Guarantees") makes host
/// writes visible only to the commands of its own submission and those
/// later in submission order on its queue, not to every device access it
/// happens before. It does make them available in the device domain
/// ("vkQueueSubmit performs a memory domain operation from host to
/// device"), so a later semaphore wait's visibility operation reaches an
/// access in its own second scope (review18, sixteenth session: the two
/// cases after a submit were races before).
#[test]
fn a_submit_makes_writes_visible_to_its_own_queue_from_its_batch_on() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "p1: a submit to another queue after the host write",
            "copy a[0..64] -> b[0..64]\nsubmit qa wait t:1@COPY\nhost-write a[0..64] 5\nsubmit qb\nhost-signal t 1",
            // qb's submit makes the write available in the device domain;
            // the host signal after it pairs with qa's wait, whose
            // visibility operation holds the copy (COPY).
            &[],
        ),
        (
            "p1 control: no submit after the host write",
            "copy a[0..64] -> b[0..64]\nsubmit qa wait t:1@COPY\nhost-write a[0..64] 5\nhost-signal t 1",
            &["L10 READ_AFTER_WRITE a[0..64] after L12"],
        ),
        (
            "p1: a submit of a later batch of the same queue after the host write",
            "copy a[0..64] -> b[0..64]\nsubmit qa wait t:1@COPY\nhost-write a[0..64] 5\nsubmit qa\nhost-signal t 1",
            // As above: the later batch's submit makes it available, the
            // earlier batch's wait visible to the copy.
            &[],
        ),
        (
            "p1: the wait's stage mask misses the reader",
            "copy a[0..64] -> b[0..64]\nsubmit qa wait t:1@CLEAR\nhost-write a[0..64] 5\nsubmit qb\nhost-signal t 1",
            // Available, but the wait's visibility operation holds CLEAR
            // accesses only.
            &["L10 READ_AFTER_WRITE a[0..64] after L12"],
        ),
        (
            "review18 F1: another queue's submit after the host write, its batch signalling the reader's wait",
            "copy a[0..64] -> b[0..64]\nsubmit qb wait t:1@ALL_COMMANDS\nhost-write a[0..64] 5\nfill c[0..64] 1\nsubmit qa signal t:1",
            &[],
        ),
        (
            "p1 control: the reader's own submit after the host write",
            "host-write a[0..64] 5\ncopy a[0..64] -> b[0..64]\nsubmit qb",
            &[],
        ),
        (
            "p1: a submit to another queue after the device write's fence",
            "fill a[0..64] 1\nsubmit qa\nbarrier CLEAR:NONE -> COPY:NONE\ncopy a[0..64] -> b[0..64]\nsubmit qb wait t:1@CLEAR\nwait qa\nsubmit qc\nhost-signal t 1",
            &["L13 READ_AFTER_WRITE a[0..64] after L10"],
        ),
        (
            "p1 control: the reader's own submit after the device write's fence",
            "fill a[0..64] 1\nsubmit qa\nwait qa\nbarrier CLEAR:NONE -> COPY:NONE\ncopy a[0..64] -> b[0..64]\nsubmit qb wait t:1@CLEAR\nhost-signal t 1",
            &[],
        ),
    ];
    for (name, body, expected) in cases {
        race_case(name, body, expected);
    }
}

/// A timeline chain through queues, each batch waiting for the value the
/// one before signalled and signalling the next: a later signal of the
/// chain satisfies a wait's value too, but happens after the wait (its
/// batch's own signal, with `ALL_COMMANDS` on both), so it is no candidate
/// and the fast checker decides the wait. With a narrower wait mask the
/// wait still happens before its batch's `ALL_COMMANDS` signal (the
/// scopes share a stage), and the fast checker decides that too.
#[test]
fn a_timeline_chain_through_queues_has_one_candidate_per_wait() {
    race_case(
        "a chain orders a later write after the read",
        "fill a[0..64] 1\nsubmit qa signal t:1\ncopy a[0..64] -> b[0..64]\n\
         submit qb wait t:1@ALL_COMMANDS signal t:2\nfill a[0..64] 2\nsubmit qa wait t:2@ALL_COMMANDS",
        &[],
    );
    race_case(
        "a write outside the chain races the read and the first write",
        "fill a[0..64] 1\nsubmit qa signal t:1\ncopy a[0..64] -> b[0..64]\n\
         submit qb wait t:1@ALL_COMMANDS signal t:2\nfill a[0..64] 2\nsubmit qc",
        &[
            "L14 WRITE_AFTER_READ a[0..64] after L12",
            "L14 WRITE_AFTER_WRITE a[0..64] after L10",
        ],
    );
    race_case(
        "a chain whose first wait has a narrower mask",
        "fill a[0..64] 1\nsubmit qa signal t:1\ncopy a[0..64] -> b[0..64]\n\
         submit qb wait t:1@COPY signal t:2\nfill a[0..64] 2\nsubmit qa wait t:2@ALL_COMMANDS",
        &[],
    );
}

/// A binary semaphore's wait on one queue must be known complete before
/// the next wait on another queue begins and before the next signal on
/// another queue runs (module `completion`: "exactly one semaphore signal
/// operation" meets a wait's criteria, no two queues wait at once,
/// VUID-vkQueueSubmit-pWaitSemaphores-00068, and a signal finds the
/// semaphore unsignalled when it executes,
/// VUID-vkQueueSubmit-pSignalSemaphores-00067). `Ok` cases are the ways
/// to order it; each refusal names the line and column of the operation.
#[test]
fn binary_semaphore_operations_are_ordered_on_the_device() {
    let head = "queue qa\nqueue qb\nqueue qc\nsemaphore s\nsemaphore u\nsemaphore t timeline\n";
    let overlap = |line_col: &str, queue: &str, other: &str| {
        format!(
            "{line_col}: binary semaphore `s` is waited on by queue `{queue}` while the wait of queue `{other}` on it \
             may still be pending: two queues may not wait on one binary semaphore at once \
             (VUID-vkQueueSubmit-pWaitSemaphores-00068, VUID-vkQueueSubmit2-semaphore-03871), and either wait may \
             take either signal; make the earlier wait known complete first (`wait {other}`, or a semaphore that queue \
             `{other}` signals after it (after a command in that wait's stages, if its mask lacks ALL_COMMANDS) and an earlier batch of \
             queue `{queue}` waits for, all with ALL_COMMANDS) or use a timeline semaphore"
        )
    };
    let early_signal = |line_col: &str, queue: &str, other: &str| {
        format!(
            "{line_col}: binary semaphore `s` is signalled on queue `{queue}` while the wait of queue `{other}` on \
             it may not have unsignalled it yet: a binary signal must find the semaphore unsignalled when it \
             executes (VUID-vkQueueSubmit-pSignalSemaphores-00067, VUID-vkQueueSubmit2-semaphore-03868); order \
             that wait before this signal (`wait {other}`, or a semaphore that queue \
             `{other}` signals after it (after a command in that wait's stages, if its mask lacks ALL_COMMANDS) and this batch or an earlier one of queue `{queue}` waits for, \
             all with ALL_COMMANDS) or use another semaphore"
        )
    };
    let w = "@ALL_COMMANDS";
    let cases: Vec<(String, Result<(), String>)> = vec![
        // qc's wait may take qa's first signal while qb still waits for
        // it (the H200 hang's pattern).
        (
            format!("submit qa signal s\nsubmit qb wait s{w}\nsubmit qb signal s\nsubmit qc wait s{w}\n"),
            Err(overlap("10:16", "qc", "qb")),
        ),
        // The host knows qb's wait complete first.
        (
            format!("submit qa signal s\nsubmit qb wait s{w}\nsubmit qb signal s\nwait qb\nsubmit qc wait s{w}\n"),
            Ok(()),
        ),
        // Both waits on one queue.
        (
            format!("submit qa signal s\nsubmit qb wait s{w}\nsubmit qa signal s\nsubmit qb wait s{w}\n"),
            Err(early_signal("9:18", "qa", "qb")),
        ),
        (
            format!("submit qa signal s\nsubmit qb wait s{w}\nsubmit qb signal s\nsubmit qb wait s{w}\n"),
            Ok(()),
        ),
        // An earlier batch of qc waits for what qb signals after its wait.
        (
            format!(
                "submit qa signal s\nsubmit qb wait s{w} signal u\nsubmit qc wait u{w}\nsubmit qb signal s\n\
                 submit qc wait s{w}\n"
            ),
            Ok(()),
        ),
        // ... with a narrower mask, that chain is not followed.
        (
            format!(
                "submit qa signal s\nsubmit qb wait s{w} signal u\nsubmit qc wait u@COPY\nsubmit qb signal s\n\
                 submit qc wait s{w}\n"
            ),
            Err(overlap("11:16", "qc", "qb")),
        ),
        // The signalling batch itself waits for what qb signals after its
        // wait; not when the signal's own mask is narrower.
        (
            format!("submit qa signal s\nsubmit qb wait s{w} signal u\nsubmit qa wait u{w} signal s\n"),
            Ok(()),
        ),
        (
            format!("submit qa signal s\nsubmit qb wait s{w} signal u\nsubmit qa wait u{w} signal s@COPY\n"),
            Err(early_signal("9:38", "qa", "qb")),
        ),
        // A batch that waits for the semaphore and signals it again.
        (
            format!("submit qa signal s\nsubmit qb wait s{w} signal s\nsubmit qb wait s{w}\n"),
            Ok(()),
        ),
        // A wait with a narrower mask is followed by no chain through
        // later commands that run in none of its stages (the review's
        // fa4, fa5): known complete only by a fence of its own queue...
        (
            format!("submit qa signal s\nsubmit qb wait s@COPY signal u\nsubmit qc wait u{w}\nsubmit qb signal s\nsubmit qc wait s{w}\n"),
            Err(overlap("11:16", "qc", "qb")),
        ),
        (
            format!("buffer a 64\nbuffer b 64\nsubmit qa signal s\nfill b 1\nsubmit qb wait s@COPY signal u\nsubmit qc wait u{w}\nsubmit qb signal s\nsubmit qc wait s{w}\n"),
            Err(overlap("14:16", "qc", "qb")),
        ),
        // ... but through a command in its stages, in its batch or a later
        // one before the ALL_COMMANDS signal (review37: a copy after a wait
        // to COPY orders it before the batch's signal, and so before the
        // other queue's re-signal).
        (
            format!("buffer a 64\nbuffer b 64\nsubmit qa signal s\ncopy a -> b\nsubmit qb wait s@COPY signal u\nsubmit qc wait u{w}\nsubmit qb signal s\nsubmit qc wait s{w}\n"),
            Ok(()),
        ),
        (
            format!("buffer a 64\nbuffer b 64\nsubmit qa signal s\ncopy a -> b\nsubmit qb wait s@COPY signal u\nsubmit qa wait u{w} signal s\nsubmit qb wait s{w}\n"),
            Ok(()),
        ),
        (
            format!("buffer a 64\nbuffer b 64\nsubmit qa signal s\nsubmit qb wait s@COPY\ncopy a -> b\nsubmit qb signal u\nsubmit qa wait u{w} signal s\nsubmit qb wait s{w}\n"),
            Ok(()),
        ),
        // A signal with a narrower mask still carries nothing.
        (
            format!("buffer a 64\nbuffer b 64\nsubmit qa signal s\ncopy a -> b\nsubmit qb wait s@COPY signal u@COPY\nsubmit qa wait u{w} signal s\n"),
            Err(early_signal("12:38", "qa", "qb")),
        ),
        (
            "submit qa signal s\nsubmit qb wait s@COPY signal t:1\nhost-wait t 1\nsubmit qa signal s\n".to_string(),
            Err(early_signal("10:18", "qa", "qb")),
        ),
        (
            "submit qa signal s\nsubmit qb wait s@COPY signal t:1\nwait qb\nsubmit qa signal s\n".to_string(),
            Ok(()),
        ),
        // A fence waits for every wait of its batch, whatever the mask:
        // `wait qc` shows qb's signal of u ran, after qb's wait of s (the
        // review's fr1).
        (
            format!("submit qa signal s\nsubmit qb wait s{w} signal u\nsubmit qc wait u@COPY\nwait qc\nsubmit qa signal s\nsubmit qa wait s@COPY\n"),
            Ok(()),
        ),
    ];
    for (body, expected) in &cases {
        let got = parsed(&format!("{head}{body}"));
        assert_eq!(&got, expected, "for {body:?}");
    }
    // The H200 hang's plan (planned before this rule): c1 waits for
    // `sem0` while `t` may still wait for it.
    let hang = include_str!("../../docs/h200/planned-hang-p100006.trace");
    let e = trace::parse(hang).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "58:16: binary semaphore `sem0` is waited on by queue `c1` while the wait of queue `t`"
        ),
        "{e}"
    );
}

/// A program some of whose waits can never be satisfied is refused, in the
/// parser and in `resolve` alike, at the first such wait, naming every one
/// (issue 27: a cycle of waits checked as "no hazards", and `run` then
/// timed out advising a longer limit). Valid wait-before-signal programs
/// stay valid.
#[test]
fn programs_that_can_never_complete_are_refused() {
    let head = "queue qa\nqueue qb\nsemaphore s\nsemaphore t timeline\nsemaphore u timeline\n";
    let never = "can never be satisfied (each needs a signal that can only happen after one of these waits; \
                 no time limit makes the program finish)";
    let cases: &[(&str, Option<&str>)] = &[
        // A cycle of timeline waits across two queues.
        (
            "submit qa wait t:1@ALL_COMMANDS signal u:1\nsubmit qb wait u:1@ALL_COMMANDS signal t:1",
            Some("6:16: the program can never complete: `t:1` on `qa`, `u:1` on `qb`"),
        ),
        // A batch waiting for a value only it signals.
        (
            "submit qa wait t:1@ALL_COMMANDS signal t:1",
            Some("6:16: the program can never complete: `t:1` on `qa`"),
        ),
        // ... or only a later batch of its own queue signals: the signal
        // waits for every earlier command in its stages.
        (
            "submit qa wait t:1@COPY\nsubmit qa signal t:1",
            Some("6:16: the program can never complete: `t:1` on `qa`"),
        ),
        // A host wait for a value only later work signals.
        (
            "host-wait t 1\nsubmit qa signal t:1",
            Some("6:11: the program can never complete: the host's `host-wait t 1`"),
        ),
        // A fence wait for a batch whose wait only a later host signal meets.
        (
            "submit qa wait t:1@COPY\nwait\nhost-signal t 1",
            Some("6:16: the program can never complete: `t:1` on `qa`, the host's fence wait"),
        ),
        // Through a binary semaphore: qb's batch takes qa's signal of `s`,
        // which waits for what qb signals after it; since the
        // binary wait's own rule (VUID-vkQueueSubmit2-semaphore-03873)
        // refuses it first, it is in `binary_waits_need_their_signals_dependencies_submitted`.
        // Valid: the host's signal unblocks the batch, then the fence.
        ("submit qa wait t:1@COPY signal u:1\nhost-signal t 1\nwait", None),
        // Valid: a later batch of another queue signals the value.
        ("submit qa wait t:1@COPY\nsubmit qb signal t:1\nwait", None),
        // Valid: `wait qb` does not wait for qa's blocked batch.
        ("submit qa wait t:1@COPY\nwait qb\nhost-signal t 1\nwait", None),
        // Valid, as the definitional semantics reads a signal's first
        // scope: a signal in CLEAR does not wait for a wait in COPY.
        ("submit qa wait t:1@COPY\nsubmit qa signal t:1@CLEAR", None),
    ];
    for (body, expected) in cases {
        let text = format!("{head}{body}");
        let parsed = trace::parse(&text).map_err(|e| e.to_string());
        match expected {
            Some(prefix) => {
                let e = parsed.err().unwrap_or_else(|| panic!("{body:?} was accepted"));
                assert_eq!(e, format!("{prefix} {never}"), "for {body:?}");
            }
            None => {
                let t = parsed.unwrap_or_else(|e| panic!("{body:?}: {e}"));
                vksync::resolve(&t.program).unwrap_or_else(|e| panic!("{body:?}: {e}"));
            }
        }
    }
    // `resolve` refuses what the parser refuses (a program built without
    // the parser): qb's batch replaced by one that closes the cycle.
    let mut a = trace::parse(&format!(
        "{head}submit qa wait t:1@ALL_COMMANDS signal u:1\nsubmit qb signal t:1\n"
    ))
    .unwrap()
    .program;
    let b = trace::parse(&format!(
        "{head}submit qa signal u:1\nsubmit qb wait u:1@ALL_COMMANDS signal t:1\n"
    ))
    .unwrap()
    .program;
    a.replace(1, b.commands()[1].clone()).unwrap();
    let e = vksync::resolve(&a).unwrap_err();
    assert_eq!(e.at, vksync::Location::Command(0));
    assert!(
        e.to_string()
            .contains("the program can never complete: `t:1` on `qa`, `u:1` on `qb`"),
        "{e}"
    );
}

/// Which later signals are no candidates of a timeline wait because they
/// are guaranteed to happen after it (`docs/semantics.md`, "Queues and
/// semaphores": "not guaranteed to happen-after the semaphore wait
/// operation"), one case per rule of `model/src/sync/candidates.rs`. The
/// fast checker must decide each (it refused them before issue 27) and
/// agree with the definitional semantics; the last case keeps a candidate
/// and stays refused.
#[test]
fn later_signals_after_the_wait_are_no_candidates() {
    // Host program order, then "the second synchronization scope includes
    // all commands submitted in the same queue submission": a host wait
    // happens before every later submission, so before its signals.
    race_case(
        "a host wait happens before the signals of later submissions",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit qa signal t:1\nhost-wait t 1\n\
         host-read a[0..64]\nfill a[0..64] 2\nsubmit qa signal t:2",
        &[],
    );
    // The same for a later `host-signal` (host program order).
    race_case(
        "a host wait happens before later host signals",
        "fill a[0..64] 1\nsubmit qa signal t:1\nhost-wait t 1\nhost-signal t 2\ncopy a[0..64] -> b[0..64]\n\
         submit qb wait t:2@COPY",
        &[],
    );
    // "includes every command in the same batch ... and all commands that
    // occur later in submission order. The scope is limited by the
    // stageMask": a wait in `COPY` and its batch's signal in
    // `ALL_COMMANDS` share the stage `COPY`.
    race_case(
        "a narrow wait happens before its batch's signal when the masks share a stage",
        "fill a[0..64] 1\nsubmit qa signal t:1\ncopy a[0..64] -> b[0..64]\nsubmit qb wait t:1@COPY signal t:2",
        &[],
    );
    // Through a host wait whose one candidate the device wait reaches:
    // the device wait on `qb` happens before `t:2`, the host wait for 2
    // after it, and the submit to `qc` after the host wait.
    race_case(
        "through a host wait the device wait reaches",
        "fill a[0..64] 1\nsubmit qa signal t:1\ncopy a[0..64] -> b[0..64]\nsubmit qb wait t:1@ALL_COMMANDS signal t:2\n\
         host-wait t 2\nfill c[0..64] 3\nsubmit qc signal t:3",
        &[],
    );
    // Masks that share no stage (`submit qb wait t:1@COPY signal
    // t:2@CLEAR`): the signal of `t:2` is not ordered after the wait, nor
    // after qa's `t:1`, and may execute first: refused
    // (VUID-VkSubmitInfo2-semaphore-03882,
    // `timeline_signals_of_two_queues_execute_in_value_order`). On qa, a
    // later signal stays a candidate, which the fast walk leaves to the
    // definitional semantics (`check_program.rs`).
}

/// The fix of a host access racing a device write names what the program
/// lacks, the barrier into `HOST`, the host's wait, or both, in both
/// checkers (the fast one's hazards, the definitional semantics' races as
/// the CLI's `--by-definition` prints them). review37: after a timeline
/// `host-wait`, and a barrier over another part of the buffer, both said
/// `submit; wait`, which, applied, left the race. Cases: the lines after
/// the declarations, the fix of the one hazard.
#[test]
fn host_access_fixes_name_what_is_missing() {
    let head = "queue qa\nsemaphore t timeline\nbuffer a 256\nfill a 1\n";
    let cases: &[(&str, &str)] = &[
        (
            "submit qa signal t:1\nhost-read a\n",
            "barrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ a[0..256]; submit; wait",
        ),
        // Submitted already: the wait alone (review46 said `submit qa;
        // wait qa`).
        ("barrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit qa signal t:1\nhost-read a\n", "wait"),
        (
            "submit qa signal t:1\nhost-wait t 1\nhost-read a\n",
            "barrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ a[0..256] before the submit the host waits on",
        ),
        // A later batch's ALL_COMMANDS signal follows every earlier
        // command of its queue (wgpu's polls see such values).
        (
            "submit qa signal t:1\nsubmit qa signal t:2\nhost-wait t 2\nhost-read a\n",
            "barrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ a[0..256] before the submit the host waits on",
        ),
        (
            "barrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ a[0..128]\nsubmit qa signal t:1\nhost-wait t 1\nhost-read a\n",
            "barrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ a[128..256] before the submit the host waits on",
        ),
        (
            "barrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ a[0..128]\nsubmit qa\nwait qa\nhost-read a\n",
            "barrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ a[128..256] before the submit the host waits on",
        ),
        // review39: a barrier into HOST that makes nothing available (no
        // source access) is no barrier for the write.
        (
            "barrier CLEAR:NONE -> HOST:HOST_READ\nsubmit qa\nwait\nhost-read a\n",
            "barrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ a[0..256] before the submit the host waits on",
        ),
    ];
    let reading = vksync::Reading::MemoryModel;
    for (body, want) in cases {
        let t = trace::parse(&format!("{head}{body}")).unwrap_or_else(|e| panic!("{body:?}: {e}"));
        let layout = vksync::resolve(&t.program).unwrap();
        let texts = |groups: &[vksync::RaceGroup]| -> Vec<String> {
            groups
                .iter()
                .map(|g| vksync::race_group_hazard(&t.program, &layout, g, reading).fix_text(&t.program))
                .collect()
        };
        // As `vksync check` prints them: the fast checker's pairs, grouped.
        let fast = vksync::check_grouped(&t.program, vksync::Semantics::for_reading(reading))
            .unwrap_or_else(|e| panic!("{body:?}: {e}"));
        assert_eq!(
            texts(&fast.groups),
            vec![want.to_string()],
            "fast checker, {body:?}"
        );
        // As `vksync check --by-definition` prints them.
        let races = vksync::spec::races(&t.program, reading).unwrap();
        let by_definition = vksync::group_races(&t.program, &races);
        assert_eq!(
            texts(&by_definition),
            vec![want.to_string()],
            "definitional semantics, {body:?}"
        );
        // The library's `check`, whose hazards need no grouping: the same
        // where the host waited (a missing barrier it names whenever it
        // names one).
        if body.contains("wait") {
            let hs = check(&t.program).unwrap_or_else(|e| panic!("{body:?}: {e}"));
            let lib: Vec<String> = hs.iter().map(|h| h.fix_text(&t.program)).collect();
            assert_eq!(lib, vec![want.to_string()], "check, {body:?}");
        }
    }
}

/// review48: the completion rules read a semaphore's stage mask as its
/// scope does. A signal with `BOTTOM_OF_PIPE` ("equivalent to
/// ALL_COMMANDS_BIT with VkAccessFlags2 set to 0 when specified in the
/// first synchronization scope") and a wait with `TOP_OF_PIPE` link a chain
/// as `ALL_COMMANDS` does; a narrower mask still does not. And after
/// `host-wait t 1` the signal of 1 has executed, so it is no pending
/// signal a later host signal must stay below
/// (VUID-VkSemaphoreSignalInfo-value-03259), even where its mask leaves
/// the rest of its batch running.
#[test]
fn pipe_ends_link_chains_and_a_host_wait_ends_a_pending_signal() {
    let head = "queue qa\nqueue qb\nsemaphore s\nsemaphore u\nsemaphore t timeline\nevent e\n";
    let link_u = |mask: &str| {
        format!("submit qa signal s\nsubmit qb wait s@ALL_COMMANDS signal u@{mask}\nsubmit qa wait u@ALL_COMMANDS signal s\n")
    };
    let host_reset_after = |signal: &str, wait: &str| {
        format!(
            "host-set-event e\nwait-events e HOST:NONE -> CLEAR:NONE\nsubmit qa signal t:1@{signal}\n\
             submit qb wait t:1@{wait} signal t:2@ALL_COMMANDS\nhost-wait t 2\nhost-reset-event e\n"
        )
    };
    let valid = [
        link_u("ALL_COMMANDS"),
        link_u("BOTTOM_OF_PIPE"),
        host_reset_after("ALL_COMMANDS", "ALL_COMMANDS"),
        host_reset_after("BOTTOM_OF_PIPE", "ALL_COMMANDS"),
        host_reset_after("ALL_COMMANDS", "TOP_OF_PIPE"),
        host_reset_after("BOTTOM_OF_PIPE", "TOP_OF_PIPE"),
        "submit qa signal t:1@COPY\nhost-wait t 1\nhost-signal t 2\n".to_string(),
        "submit qa signal t:1@COPY\nsubmit qa signal t:2@COPY\nhost-wait t 2\nhost-signal t 3\n".to_string(),
    ];
    for body in &valid {
        if let Err(e) = parsed(&format!("{head}{body}")) {
            panic!("{body:?} is valid: {e}");
        }
    }
    let refused = [
        (link_u("COPY"), "9:38: binary semaphore `s` is signalled on queue `qa` while the wait of queue `qb` on it may not have unsignalled it yet"),
        (host_reset_after("ALL_COMMANDS", "COPY"), "12:18: event `e` is reset by the host while a submitted wait-events on queue `qa` waits for it"),
        (host_reset_after("COPY", "ALL_COMMANDS"), "12:18: event `e` is reset by the host while a submitted wait-events on queue `qa` waits for it"),
        // review49: the signals of one batch are unordered among
        // themselves: `t`'s 1 executed, `u`'s 5 may not have.
        ("semaphore u2 timeline\nsubmit qa signal t:1@COPY signal u2:5\nhost-wait t 1\nhost-signal u2 6\n".to_string(), "10:16: timeline semaphore `u2` is signalled by the host with 6, which is not less than the value 5"),
        // Waited for 1 only: the signal of 2 is still pending.
        ("submit qa signal t:1@COPY\nsubmit qa signal t:2@COPY\nhost-wait t 1\nhost-signal t 3\n".to_string(), "10:15: timeline semaphore `t` is signalled by the host with 3, which is not less than the value 2"),
    ];
    for (body, want) in &refused {
        match parsed(&format!("{head}{body}")) {
            Ok(()) => panic!("{body:?} must be refused"),
            Err(e) => assert!(e.starts_with(want), "{body:?}: {e}"),
        }
    }
}
