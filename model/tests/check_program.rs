//! `vksync::check_program`, the one check that answers for every program:
//! a table of programs, each decided by the checker it names (the
//! single-queue checker, the multi-queue walk, or the definitional
//! semantics for a corner the fast checkers refuse), whose hazards equal
//! the definitional semantics' races pair for pair under both readings and
//! each carry a fix (a barrier on one queue, a semaphore between two, a
//! fence wait before a host access).
//!
//! Each case is a trace after the same header: buffers `a`, `b` (256
//! bytes), queues `qa`, `qb`, `qc`, a binary semaphore `s` and a timeline
//! semaphore `t`; the case's own lines follow.

use std::collections::{BTreeMap, BTreeSet};
use vksync::spec::{races, Race};
use vksync::{
    check, check_program, trace, DecidedBy, Hazard, HazardKind, ProgramErrorKind, Reading, Semantics,
    StageAccess,
};

const HEADER: &str = "\
buffer a 256
buffer b 256
queue qa
queue qb
queue qc
semaphore s
semaphore t timeline
";

/// A color image made `GENERAL`, cleared and stored by a rendering
/// instance.
const RENDER: &str = "image c R8_UNORM 2x2
barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE c COLOR:0:0 UNDEFINED->GENERAL
begin-rendering color c COLOR:0:0 GENERAL CLEAR STORE
draw vertexCount=3
end-rendering
";

/// `c` copied to `a`.
const COPY_BACK: &str =
    "copy-image-to-buffer c GENERAL -> a bufferOffset=0 imageSubresource=COLOR:0:0 imageExtent=2,2,1\n";

/// Which checker a case expects to decide it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum By {
    SingleQueue,
    Walk,
    OneQueueForm,
    Definition,
}

/// `count` events set and never waited, first: more event barriers at once
/// than the single-queue checker has slots (64).
fn padded(count: usize, body: &str) -> String {
    let mut text = String::new();
    for i in 0..count {
        text.push_str(&format!("event pad{i}\n"));
    }
    for i in 0..count {
        text.push_str(&format!(
            "set-event pad{i} COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ\n"
        ));
    }
    text.push_str(body);
    text
}

/// (name, body after the header, who decides, how many races under the
/// memory model's reading).
fn cases() -> Vec<(&'static str, String, By, usize)> {
    vec![
        (
            "one queue: a fill read by a copy",
            "fill a[0..64] 1\ncopy a[0..64] -> b[0..64]".into(),
            By::SingleQueue,
            1,
        ),
        (
            "one queue: a split barrier orders the pair",
            "event e\nfill a[0..64] 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\n\
             wait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]"
                .into(),
            By::SingleQueue,
            0,
        ),
        (
            "one queue: a device write read by the host without a wait",
            "fill a[0..64] 1\nsubmit qa\nhost-read a[0..64]".into(),
            By::SingleQueue,
            1,
        ),
        (
            "two queues without a semaphore",
            "fill a[0..64] 1\nsubmit qa\ncopy a[0..64] -> b[0..64]\nsubmit qb".into(),
            By::Walk,
            1,
        ),
        (
            "two queues and a semaphore",
            "fill a[0..64] 1\nsubmit qa signal s\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@COPY".into(),
            By::Walk,
            0,
        ),
        (
            "two queues with events: a split barrier on each, no semaphore",
            "event e\nevent f\nfill a[0..64] 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\n\
             wait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\nsubmit qa\n\
             fill b[0..64] 2\nset-event f CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\n\
             wait-events f CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy b[0..64] -> a[0..64]\nsubmit qb"
                .into(),
            By::Walk,
            4,
        ),
        // Two signals of one timeline on two queues execute in value order
        // (VUID-VkSubmitInfo2-semaphore-03882: qc's waits for qa's), so
        // the wait pairs with the first, whose COPY mask does not carry
        // the fill.
        (
            "a timeline wait two earlier signals on two queues may satisfy: the first one's scope",
            "fill a[0..64] 1\nsubmit qa signal t:4@COPY\nsubmit qc wait t:4@ALL_COMMANDS signal t:6\n\
             copy a[0..64] -> b[0..64]\nsubmit qb wait t:3@COPY"
                .into(),
            By::Walk,
            1,
        ),
        (
            "a narrow timeline wait and a later signal of the first queue in another stage: two candidates",
            "fill a[0..64] 1\nsubmit qa signal t:1@COPY\ncopy a[0..64] -> b[0..64]\nsubmit qb wait t:1@COPY\n\
             submit qa signal t:2@CLEAR"
                .into(),
            By::Definition,
            1,
        ),
        (
            "rendering on one queue, each batch waiting on the one before, a host wait for the last: \
             the one-queue form (a host read without a barrier to HOST)",
            format!("{RENDER}submit qa signal s\n{COPY_BACK}submit qa wait s@COPY signal t:1\nhost-wait t 1\nhost-read a[0..4]"),
            By::OneQueueForm,
            1,
        ),
        (
            "rendering on one queue, a wait on the batch before the last: no one-queue form",
            format!("{RENDER}submit qa signal s\nsubmit qa\n{COPY_BACK}submit qa wait s@COPY"),
            By::Definition,
            0,
        ),
        (
            "rendering on one queue, a wait too narrow for the load: the one-queue form finds its races \
             (the load's read-after-write, the store's write-after-write and write-after-read)",
            // (One write before the load: the single-queue checker names
            // the last write of a range, the definitional semantics each.)
            format!(
                "{}submit qa signal s\nbegin-rendering color c COLOR:0:0 GENERAL LOAD STORE\nend-rendering\n\
                 submit qa wait s@COPY",
                RENDER.replace("CLEAR STORE\ndraw vertexCount=3\n", "LOAD STORE\n")
            ),
            By::OneQueueForm,
            3,
        ),
        (
            "rendering on one queue chained by a semaphore, past 64 event slots: the form's refusal \
             goes to the definitional semantics (review25: `vksync check` stopped at it)",
            padded(
                65,
                &format!("{}submit qa signal s\nbegin-rendering color c COLOR:0:0 GENERAL LOAD STORE\nend-rendering\nsubmit qa wait s@ALL_COMMANDS",
                    RENDER.replace("CLEAR STORE\ndraw vertexCount=3\n", "LOAD STORE\n")),
            ),
            By::Definition,
            0,
        ),
        (
            "past 64 event slots on one queue: a write-after-read",
            padded(65, "copy a[0..64] -> b[0..64]\nfill a[0..64] 2"),
            By::Walk,
            1,
        ),
    ]
}

/// A pair of accesses as both answers name it: later and earlier command,
/// kind, memory, both stage/accesses; its bytes merged into maximal ranges.
type Key = (usize, usize, HazardKind, u32, StageAccess, StageAccess);

fn merged(items: impl Iterator<Item = (Key, (u64, u64))>) -> BTreeMap<Key, Vec<(u64, u64)>> {
    let mut sets: BTreeMap<Key, BTreeSet<(u64, u64)>> = BTreeMap::new();
    for (k, r) in items {
        sets.entry(k).or_default().insert(r);
    }
    sets.into_iter()
        .map(|(k, rs)| {
            let mut out: Vec<(u64, u64)> = Vec::new();
            for (s, e) in rs {
                match out.last_mut() {
                    Some(last) if s <= last.1 => last.1 = last.1.max(e),
                    _ => out.push((s, e)),
                }
            }
            (k, out)
        })
        .collect()
}

fn of_hazards(hs: &[Hazard]) -> BTreeMap<Key, Vec<(u64, u64)>> {
    merged(hs.iter().map(|h| {
        (
            (
                h.command,
                h.prior_command,
                h.kind,
                h.memory.mem.0,
                h.current,
                h.prior,
            ),
            (h.memory.range.start, h.memory.range.end),
        )
    }))
}

fn of_races(rs: &[Race]) -> BTreeMap<Key, Vec<(u64, u64)>> {
    merged(rs.iter().map(|r| {
        (
            (r.command, r.prior_command, r.kind, r.mem.0, r.current, r.prior),
            (r.range.start, r.range.end),
        )
    }))
}

#[test]
fn check_program_equals_the_definitional_semantics_with_a_fix() {
    for (name, body, by, count) in cases() {
        let text = format!("{HEADER}{body}\n");
        let t = trace::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let p = &t.program;
        let queues_of = |i: usize| -> Option<String> {
            // The queue of the next submit (the first queue without one).
            if matches!(
                p.commands()[i],
                vksync::Command::HostRead { .. } | vksync::Command::HostWrite { .. }
            ) {
                return None;
            }
            let q = p.commands()[i..]
                .iter()
                .find_map(|c| match c {
                    vksync::Command::Submit(s) => Some(s.queue),
                    _ => None,
                })
                .unwrap_or_default();
            Some(p.queue_name(q).to_string())
        };
        for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
            let checked =
                check_program(p, Semantics::for_reading(reading)).unwrap_or_else(|e| panic!("{name}: {e}"));
            let decided = match &checked.decided_by {
                DecidedBy::SingleQueue => By::SingleQueue,
                DecidedBy::MultiQueueWalk => By::Walk,
                DecidedBy::OneQueueForm => By::OneQueueForm,
                DecidedBy::Definition { why, .. } => {
                    assert!(!why.is_empty(), "{name}: a definitional answer says why");
                    By::Definition
                }
            };
            assert_eq!(decided, by, "case `{name}` ({reading:?}): decided by");
            // What `vksync check` prints from: the same pairs, grouped, by
            // the same checker.
            let grouped = vksync::check_grouped(p, Semantics::for_reading(reading))
                .unwrap_or_else(|e| panic!("{name}: check_grouped: {e}"));
            let pairs: Vec<Race> = checked.hazards.iter().map(Race::from).collect();
            assert_eq!(
                grouped,
                vksync::CheckedGroups {
                    groups: vksync::group_races(p, &pairs),
                    decided_by: checked.decided_by.clone(),
                },
                "case `{name}` ({reading:?}): check_grouped"
            );
            let spec = races(p, reading).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                of_hazards(&checked.hazards),
                of_races(&spec),
                "case `{name}` ({reading:?}): check_program and the definitional semantics differ"
            );
            if reading == Reading::MemoryModel {
                assert_eq!(spec.len(), count, "case `{name}`: races");
            }
            for h in &checked.hazards {
                let text = h.describe(p);
                // Names the object the later command accessed, not `?`.
                assert!(
                    text.contains(&p.show_region(h.region)) && !p.show_region(h.region).starts_with('?'),
                    "case `{name}`: {text}"
                );
                assert!(
                    h.fix.barrier.is_some() || h.fix.wait,
                    "case `{name}`: a hazard without a fix: {text}"
                );
                let (qp, qc) = (queues_of(h.prior_command), queues_of(h.command));
                match (&qp, &qc, h.fix.semaphore) {
                    (Some(x), Some(y), Some(sem)) if x != y => {
                        assert_eq!(
                            (p.queue_name(sem.signal_queue), p.queue_name(sem.wait_queue)),
                            (x.as_str(), y.as_str()),
                            "case `{name}`: {text}"
                        );
                        assert!(text.contains("signal a semaphore"), "case `{name}`: {text}");
                    }
                    (Some(x), Some(y), None) if x != y => {
                        panic!("case `{name}`: a race between queues fixed by a barrier: {text}")
                    }
                    (_, _, None) => assert!(!text.contains("semaphore"), "case `{name}`: {text}"),
                    (_, _, Some(_)) => panic!("case `{name}`: a semaphore on one queue: {text}"),
                }
            }
        }
        // `check` is `check_program` under the default semantics.
        assert_eq!(
            check(p).unwrap_or_else(|e| panic!("{name}: {e}")),
            check_program(p, Semantics::default()).unwrap().hazards,
            "case `{name}`"
        );
    }
}

/// The fast checkers' refusals stay refusals where the definitional
/// semantics cannot stand in: a layer emulation switch, which it does not
/// model.
#[test]
fn layer_emulation_keeps_the_refusal() {
    let text = format!(
        "{HEADER}{}\n",
        padded(65, "copy a[0..64] -> b[0..64]\nfill a[0..64] 2")
    );
    let t = trace::parse(&text).unwrap();
    let e = check_program(&t.program, Semantics::LAYER_1_3_239).unwrap_err();
    assert!(
        matches!(e.kind, ProgramErrorKind::EventsNotSupported { .. }),
        "{e}"
    );
}

/// A one-queue program past the event slots that also renders: the walk
/// that takes such programs does not model rendering, so the definitional
/// semantics decides, and the reason names the event sets, not "several
/// queues" (the program has one).
#[test]
fn events_past_the_slots_with_rendering_say_why() {
    let body = "image color R32_UINT 4x4\n\
                barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE color COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
                begin-rendering color color COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n\
                copy a[0..64] -> b[0..64]\nfill a[0..64] 2";
    let text = format!("buffer a 64\nbuffer b 64\n{}\n", padded(65, body));
    let t = trace::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    let checked = check_program(&t.program, Semantics::default()).unwrap();
    match &checked.decided_by {
        DecidedBy::Definition { why, .. } => {
            assert!(why.contains("event sets with more than 64"), "{why}");
            assert!(!why.contains("several queues"), "{why}");
        }
        other => panic!("decided by {other:?}"),
    }
    assert_eq!(
        checked.hazards.len(),
        races(&t.program, Reading::MemoryModel).unwrap().len()
    );
}
