//! Rule cases for the definitional semantics: each a short trace and the
//! races expected under each reading. Lines count from 1; the buffers `a`,
//! `b`, `c` (256 bytes each) are declared on lines 1-3, so a case's own
//! lines start at 4. A race prints as `L<line> KIND [A..B] after L<line>`
//! (bytes of the memory of the later access's first-named object).

use super::*;
use crate::trace;

fn races_of(body: &str, reading: Reading) -> Vec<String> {
    let text = format!("buffer a 256\nbuffer b 256\nbuffer c 256\n{body}");
    let t = trace::parse(&text).unwrap_or_else(|e| panic!("{e}\n{body}"));
    races(&t.program, reading)
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "L{} {} [{}] after L{}",
                t.command_lines[r.command], r.kind, r.range, t.command_lines[r.prior_command]
            )
        })
        .collect()
}

/// A case: name, trace body, races under the memory model reading, and
/// (when they differ) under the validation layer's reading.
struct Case {
    name: &'static str,
    body: &'static str,
    model: &'static [&'static str],
    layer: Option<&'static [&'static str]>,
}

fn run(cases: &[Case]) {
    for c in cases {
        assert_eq!(
            races_of(c.body, Reading::MemoryModel),
            c.model,
            "case `{}` (memory model):\n{}",
            c.name,
            c.body
        );
        let layer = c.layer.unwrap_or(c.model);
        assert_eq!(
            races_of(c.body, Reading::VisibleToWrites),
            layer,
            "case `{}` (visible to writes):\n{}",
            c.name,
            c.body
        );
    }
}

#[test]
fn reads_after_writes_need_availability_and_visibility() {
    run(&[
        Case {
            name: "no barrier",
            body: "fill a[0..64] 1\ncopy a[0..64] -> b[0..64]",
            model: &["L5 READ_AFTER_WRITE [0..64] after L4"],
            layer: None,
        },
        Case {
            name: "exact barrier",
            body: "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
            model: &[],
            layer: None,
        },
        Case {
            name: "execution only",
            body: "fill a[0..64] 1\nbarrier CLEAR:NONE -> COPY:NONE\ncopy a[0..64] -> b[0..64]",
            model: &["L6 READ_AFTER_WRITE [0..64] after L4"],
            layer: None,
        },
        Case {
            name: "visibility through a chain",
            body: "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:NONE\n\
                   barrier COMPUTE_SHADER:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
            model: &[],
            layer: None,
        },
        Case {
            name: "one call's barriers do not chain",
            body: "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:NONE; \
                   COMPUTE_SHADER:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
            model: &["L6 READ_AFTER_WRITE [0..64] after L4"],
            layer: None,
        },
        Case {
            name: "a buffer barrier makes only its range available",
            body: "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..32]\ncopy a[0..64] -> b[0..64]",
            model: &["L6 READ_AFTER_WRITE [32..64] after L4"],
            layer: None,
        },
        Case {
            name: "access scopes are not expanded to logically earlier stages",
            body: "dispatch k indirect a[0..12] write b[0..16]\nfill a[0..64] 1\n\
                   barrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:MEMORY_READ\n\
                   dispatch k indirect a[0..12] write c[0..16]",
            model: &["L5 WRITE_AFTER_READ [0..12] after L4", "L7 READ_AFTER_WRITE [0..12] after L5"],
            layer: None,
        },
    ]);
}

#[test]
fn writes_after_writes_need_availability_only_under_the_memory_model() {
    run(&[
        Case {
            name: "no barrier",
            body: "fill a[0..64] 1\nfill a[0..64] 2",
            model: &["L5 WRITE_AFTER_WRITE [0..64] after L4"],
            layer: None,
        },
        Case {
            name: "available, not visible",
            body: "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> CLEAR:NONE\nfill a[0..64] 2",
            model: &[],
            layer: Some(&["L6 WRITE_AFTER_WRITE [0..64] after L4"]),
        },
        Case {
            name: "execution only",
            body: "fill a[0..64] 1\nbarrier CLEAR:NONE -> CLEAR:NONE\nfill a[0..64] 2",
            model: &["L6 WRITE_AFTER_WRITE [0..64] after L4"],
            layer: None,
        },
        Case {
            // The case: the second write follows an unordered read of
            // the first; the read is ordered before it, the first write not.
            name: "a write after an unordered read of an earlier write",
            body: "dispatch k write a[0..64]\ncopy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> CLEAR:NONE\nfill a[0..64] 2",
            model: &["L5 READ_AFTER_WRITE [0..64] after L4", "L7 WRITE_AFTER_WRITE [0..64] after L4"],
            layer: None,
        },
        Case {
            name: "ping-pong: the read's barrier made the write available",
            body: "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:SHADER_WRITE -> COMPUTE_SHADER:SHADER_READ\n\
                   dispatch k read a[0..64] write b[0..64]\nbarrier COMPUTE_SHADER:NONE -> COMPUTE_SHADER:NONE\n\
                   dispatch k write a[0..64]",
            model: &[],
            layer: Some(&["L8 WRITE_AFTER_WRITE [0..64] after L4"]),
        },
        Case {
            name: "a racing older write stays live behind a newer one",
            body: "dispatch k write a[0..64]\ncopy b[0..64] -> a[0..64]\nbarrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ\n\
                   copy a[0..64] -> c[0..64]",
            model: &["L5 WRITE_AFTER_WRITE [0..64] after L4", "L7 READ_AFTER_WRITE [0..64] after L4"],
            layer: None,
        },
    ]);
}

#[test]
fn writes_after_reads_need_an_execution_dependency() {
    run(&[
        Case {
            name: "no barrier",
            body: "copy a[0..64] -> b[0..64]\nfill a[0..64] 1",
            model: &["L5 WRITE_AFTER_READ [0..64] after L4"],
            layer: None,
        },
        Case {
            name: "execution dependency",
            body: "copy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> CLEAR:NONE\nfill a[0..64] 1",
            model: &[],
            layer: None,
        },
        Case {
            name: "a buffer barrier's execution dependency covers all memory",
            body: "copy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> CLEAR:NONE c[0..4]\nfill a[0..64] 1",
            model: &[],
            layer: None,
        },
        Case {
            name: "an older read stays live behind a write",
            body: "dispatch k read a[0..64] write b[0..64]\nbarrier COMPUTE_SHADER:NONE -> COPY:NONE\n\
                   copy c[0..64] -> a[0..64]\nfill a[0..64] 1",
            model: &["L7 WRITE_AFTER_READ [0..64] after L4", "L7 WRITE_AFTER_WRITE [0..64] after L6"],
            layer: None,
        },
        Case {
            name: "reads never race",
            body: "copy a[0..64] -> b[0..64]\ncopy a[0..64] -> c[0..64]\ndispatch k read a[0..64] write b[64..128]",
            model: &[],
            layer: None,
        },
    ]);
}

#[test]
fn top_and_bottom_of_pipe_are_none_on_their_far_side() {
    run(&[
        Case {
            name: "BOTTOM_OF_PIPE as destination does not chain (D11)",
            body: "copy c[0..64] -> a[0..64]\nbarrier COPY:TRANSFER_WRITE -> BOTTOM_OF_PIPE:NONE\n\
                   barrier BOTTOM_OF_PIPE:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
            model: &["L7 READ_AFTER_WRITE [0..64] after L4"],
            layer: None,
        },
        Case {
            name: "BOTTOM_OF_PIPE as source is every stage",
            body: "copy a[0..64] -> b[0..64]\nbarrier BOTTOM_OF_PIPE:NONE -> CLEAR:NONE\nfill a[0..64] 1",
            model: &[],
            layer: None,
        },
        Case {
            name: "TOP_OF_PIPE as destination is every stage",
            body: "copy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> TOP_OF_PIPE:NONE\nfill a[0..64] 1",
            model: &[],
            layer: None,
        },
        Case {
            name: "ALL_COMMANDS chains",
            body: "copy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> ALL_COMMANDS:NONE\n\
                   barrier ALL_COMMANDS:NONE -> CLEAR:NONE\nfill a[0..64] 1",
            model: &[],
            layer: None,
        },
    ]);
}

#[test]
fn queue_and_host() {
    run(&[
        Case {
            name: "submission order is no dependency",
            body: "fill a[0..64] 1\nsubmit\ncopy a[0..64] -> b[0..64]",
            model: &["L6 READ_AFTER_WRITE [0..64] after L4"],
            layer: None,
        },
        Case {
            name: "a fence wait and the next submit order and make visible",
            body: "fill a[0..64] 1\nsubmit\nwait\ncopy a[0..64] -> b[0..64]\nfill a[0..64] 2",
            model: &["L8 WRITE_AFTER_READ [0..64] after L7"],
            layer: None,
        },
        Case {
            name: "a command recorded before the wait runs at its own submit",
            body: "fill a[0..64] 1\nsubmit\ncopy a[0..64] -> b[0..64]\nwait\nsubmit",
            model: &[],
            layer: None,
        },
        Case {
            name: "host write before the submit",
            body: "host-write a[0..64] 1\ncopy a[0..64] -> b[0..64]\nsubmit",
            model: &[],
            layer: None,
        },
        Case {
            // The copy runs at the submit, after the host write ("Host
            // Write Ordering Guarantees"): ordered the other way round from
            // the trace, an `OrderNote`, no race.
            name: "host write after recording, before submitting, a read",
            body: "copy a[0..64] -> b[0..64]\nhost-write a[0..64] 1\nsubmit",
            model: &[],
            layer: None,
        },
        Case {
            name: "host read after recording a fill, before submitting it",
            body: "fill a[0..64] 1\nhost-read a[0..64]\nsubmit\nwait",
            model: &[],
            layer: None,
        },
        Case {
            name: "host write after recording a write, before submitting it",
            body: "fill a[0..64] 1\nhost-write a[0..32] 2\nsubmit\nwait\nhost-read a[0..64]",
            model: &["L8 READ_AFTER_WRITE [0..64] after L4"],
            layer: None,
        },
        Case {
            // Without the submit in between, the host write comes before
            // the fill of the first batch only if that batch is not
            // submitted yet: here it is, and the host write races it.
            name: "host write after a submitted, unwaited fill",
            body: "fill a[0..64] 1\nsubmit\nhost-write a[0..64] 2\nsubmit\nwait",
            model: &["L6 WRITE_AFTER_WRITE [0..64] after L4"],
            layer: None,
        },
        // A host write after the batch's submit, before the host signal
        // its wait pairs with: a barrier with HOST:HOST_WRITE in its
        // source scopes performs the host-to-device domain operation
        // (issue 22, defect 3). Lines: 4 semaphore, 5 barrier, 6 copy,
        // 7 submit, 8 host-write, 9 host-signal.
        Case {
            name: "host write before the host signal: HOST:HOST_WRITE barrier in the waiting batch",
            body: "semaphore t timeline\nbarrier HOST:HOST_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\n\
                   submit wait t:1@ALL_COMMANDS\nhost-write a[0..64] 5\nhost-signal t 1\nwait",
            model: &[],
            layer: None,
        },
        Case {
            name: "host write before the host signal: no barrier, only the submit before it",
            body: "semaphore t timeline\ncopy a[0..64] -> b[0..64]\n\
                   submit wait t:1@ALL_COMMANDS\nhost-write a[0..64] 5\nhost-signal t 1\nwait",
            model: &["L5 READ_AFTER_WRITE [0..64] after L7"],
            layer: None,
        },
        Case {
            name: "host write before the host signal: the barrier's range misses it",
            body: "semaphore t timeline\nbarrier HOST:HOST_WRITE -> COPY:TRANSFER_READ a[64..128]\ncopy a[0..64] -> b[0..64]\n\
                   submit wait t:1@ALL_COMMANDS\nhost-write a[0..64] 5\nhost-signal t 1\nwait",
            model: &["L6 READ_AFTER_WRITE [0..64] after L8"],
            layer: None,
        },
        Case {
            // Without ALL_COMMANDS the wait does not hold the barrier (a
            // chain at the level of stages; HOST is no device stage):
            // conservative, as for a signal.
            name: "host write before the host signal: a wait in COPY only does not reach the barrier",
            body: "semaphore t timeline\nbarrier HOST:HOST_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\n\
                   submit wait t:1@COPY\nhost-write a[0..64] 5\nhost-signal t 1\nwait",
            model: &["L6 READ_AFTER_WRITE [0..64] after L8"],
            layer: None,
        },
        Case {
            // A later device write after the domain operation needs only
            // the write available there (memory model).
            name: "host write before the host signal: HOST:HOST_WRITE barrier, then a device write",
            body: "semaphore t timeline\nbarrier HOST:HOST_WRITE -> CLEAR:NONE\nfill a[0..64] 1\n\
                   submit wait t:1@ALL_COMMANDS\nhost-write a[0..64] 5\nhost-signal t 1\nwait",
            model: &[],
            layer: Some(&["L6 WRITE_AFTER_WRITE [0..64] after L8"]),
        },
        Case {
            name: "host read: barrier to HOST_READ, submit, wait",
            body: "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read a[0..64]",
            model: &[],
            layer: None,
        },
        Case {
            name: "host read: the fence alone makes nothing visible to the host",
            body: "fill a[0..64] 1\nsubmit\nwait\nhost-read a[0..64]",
            model: &["L7 READ_AFTER_WRITE [0..64] after L4"],
            layer: None,
        },
        Case {
            name: "host read: HOST_WRITE also performs the domain operation (coherent memory)",
            body: "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:HOST_WRITE\nsubmit\nwait\nhost-read a[0..64]",
            model: &[],
            layer: None,
        },
        Case {
            name: "host read: a device write the host overwrote still needs the domain operation",
            body: "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:HOST_WRITE a[0..32]\nsubmit\nwait\n\
                   host-write a[0..32] 2\nhost-read a[0..64]",
            model: &["L9 READ_AFTER_WRITE [32..64] after L4"],
            layer: None,
        },
        Case {
            name: "host read: barrier recorded after the wait",
            body: "fill a[0..64] 1\nsubmit\nwait\nbarrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ\nhost-read a[0..64]",
            model: &["L8 READ_AFTER_WRITE [0..64] after L4"],
            layer: None,
        },
        Case {
            name: "host write after a device write: the domain operation suffices",
            body: "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-write a[0..64] 2",
            model: &[],
            layer: None,
        },
        Case {
            name: "host write after a device read needs the wait",
            body: "copy a[0..64] -> b[0..64]\nsubmit\nhost-write a[0..64] 2",
            model: &["L6 WRITE_AFTER_READ [0..64] after L4"],
            layer: None,
        },
    ]);
}

/// Three queues, one timeline each: `q0`'s wait for `t1:4` may pair with
/// `t1:5`, which happens after it only through `q1`'s wait for `t2:2`
/// pairing with `t2:3` (itself after `q0`'s wait): no candidate fixpoint
/// drops it, and the happens-before graph has a cycle through those two
/// pairings. Lines 4-14; each case goes on from line 15.
const CYCLE_OF_PAIRINGS: &str = "queue q0\nqueue q1\nqueue q2\n\
    semaphore t0 timeline\nsemaphore t1 timeline\nsemaphore t2 timeline\n\
    submit q1 signal t1:4\nsubmit q0 wait t1:4@COMPUTE_SHADER\nsubmit q2 signal t2:2@COPY\n\
    submit q1 wait t2:2@ALL_COMMANDS signal t1:5\nsubmit q0 signal t0:4\n";

/// Operations after a cycle of conservative pairings get every ancestor
/// (the least fixpoint of `order::reachability`), those on it no more
/// than a real pairing gives them.
#[test]
fn host_order_after_a_cycle_of_conservative_pairings() {
    let cases = [
        // The review's trace (tests/open-defects, 2026-12-03): the fill's
        // batch is submitted after the host read; the semantics saw a
        // WRITE_AFTER_READ, as everything after the host wait (line 17)
        // lost its ancestors.
        (
            "a host read before a later batch's submit, after a host wait",
            "host-read a[0..128]\nsubmit q2 wait t0:4@COPY signal t2:3\nhost-wait t2 3\nfill a 0\nsubmit q0\n",
            &[][..],
        ),
        (
            "a device write submitted, not waited for, then a host read: still a race",
            "submit q2 wait t0:4@COPY signal t2:3\nhost-wait t2 3\nfill a 0\nsubmit q0\nhost-read a[0..128]\n",
            &["L19 READ_AFTER_WRITE [0..128] after L17"][..],
        ),
    ];
    for (name, tail, model) in cases {
        let body = format!("{CYCLE_OF_PAIRINGS}{tail}");
        assert_eq!(
            races_of(&body, Reading::MemoryModel),
            model,
            "case `{name}`:\n{body}"
        );
        assert_eq!(
            races_of(&body, Reading::VisibleToWrites),
            model,
            "case `{name}`:\n{body}"
        );
    }
    run(&[
        Case {
            // On the cycle: the copy's batch may take t2:2, which nothing
            // orders after the fill (line 11), and the host waits
            // for t2:3 only, so the copy races both fills.
            name: "accesses on the cycle stay unordered",
            body: "queue q0\nqueue q1\nqueue q2\n\
                   semaphore t0 timeline\nsemaphore t1 timeline\nsemaphore t2 timeline\n\
                   submit q1 signal t1:4\nfill a 1\nsubmit q0 wait t1:4@COMPUTE_SHADER\n\
                   submit q2 signal t2:2@COPY\ncopy a[0..64] -> b[0..64]\n\
                   submit q1 wait t2:2@ALL_COMMANDS signal t1:5\nsubmit q0 signal t0:4\n\
                   submit q2 wait t0:4@COPY signal t2:3\nhost-wait t2 3\nfill a 0\nsubmit q0",
            model: &[
                "L14 READ_AFTER_WRITE [0..64] after L11",
                "L19 WRITE_AFTER_READ [0..64] after L14",
            ],
            layer: None,
        },
        Case {
            // The review's second trace: `wait q0` (line 29) completes the
            // dispatch that reads a (line 24); the later dispatch (line 30)
            // is submitted after the wait. Its ancestors were left
            // incomplete, as in the first trace.
            name: "a queue wait idle after the cycle orders what it waited for",
            body: "queue q0 family 2\nqueue q1 family 1\nqueue q2 family 1\n\
                   semaphore t0 timeline\nsemaphore t1 timeline\nsemaphore t2 timeline\n\
                   semaphore s0\nsemaphore s1\nsemaphore s2\nsemaphore s3\nsemaphore s4\nsemaphore s5\n\
                   buffer d 256\n\
                   submit q2 signal t2:1\nsubmit q0 signal s0\n\
                   submit q0 wait t2:1@COMPUTE_SHADER signal t0:1@ALL_COMMANDS\n\
                   submit q2 wait t0:1@ALL_COMMANDS signal t2:2\nsubmit q0 signal s1\n\
                   submit q1 wait t2:2@ALL_COMMANDS signal t1:1@COMPUTE_SHADER signal s2@COPY\n\
                   host-wait t1 1\ndispatch k read a write d\n\
                   submit q0 wait t2:2@CLEAR signal t0:3@COPY\n\
                   submit q1 wait s1@COPY signal t1:2@ALL_COMMANDS signal s3@COPY\n\
                   submit q1 wait t0:3@COPY wait s0@ALL_COMMANDS signal t1:3@ALL_COMMANDS signal s4@COMPUTE_SHADER\n\
                   submit q2 wait t1:3@COMPUTE_SHADER wait s3@COPY|COMPUTE_SHADER signal t2:4\n\
                   wait q0\ndispatch k rw a[128..192]\n\
                   submit q1 wait t0:3@ALL_COMMANDS signal t1:4@ALL_COMMANDS signal s5",
            model: &[],
            layer: None,
        },
    ]);
}

/// Layout transitions on two queues (review 9): submission order, and so
/// the order of transitions among themselves, is per queue; a semaphore
/// signal or wait with ALL_COMMANDS holds a transition, a narrower one
/// does not.
#[test]
fn layout_transitions_on_two_queues() {
    const Q: &str = "queue q0\nqueue q1\nsemaphore s\n";
    let t = "barrier NONE:NONE -> NONE:NONE a[0..64] transition";
    let cases: Vec<(&str, String, &[&str])> = vec![
        (
            "tt5: transitions of two aliases on two queues race",
            format!("{Q}buffer d 64 alias a 0\n{t}\nsubmit q0\nbarrier NONE:NONE -> NONE:NONE d transition\nsubmit q1"),
            &["L10 WRITE_AFTER_WRITE [0..64] after L8"],
        ),
        (
            "tt3: two transitions of one range on two queues race",
            format!("{Q}{t}\nsubmit q0\n{t}\nsubmit q1"),
            &["L9 WRITE_AFTER_WRITE [0..64] after L7"],
        ),
        ("two transitions on one queue are ordered", format!("{Q}{t}\nsubmit q0\n{t}\nsubmit q0"), &[]),
        (
            "an ALL_COMMANDS semaphore orders them",
            format!("{Q}{t}\nsubmit q0 signal s\n{t}\nsubmit q1 wait s@ALL_COMMANDS"),
            &[],
        ),
        (
            "a COPY signal does not hold the transition",
            format!("{Q}{t}\nsubmit q0 signal s@COPY\n{t}\nsubmit q1 wait s@ALL_COMMANDS"),
            &["L9 WRITE_AFTER_WRITE [0..64] after L7"],
        ),
        (
            "a COPY wait does not hold the transition",
            format!("{Q}{t}\nsubmit q0 signal s\n{t}\nsubmit q1 wait s@COPY"),
            &["L9 WRITE_AFTER_WRITE [0..64] after L7"],
        ),
        (
            "D4a: a copy after an ALL_COMMANDS semaphore",
            format!("{Q}{t}\nsubmit q0 signal s\ncopy a[0..64] -> b[0..64]\nsubmit q1 wait s@ALL_COMMANDS"),
            &[],
        ),
        (
            "D4b: a copy after a fence wait",
            format!("{Q}{t}\nsubmit q0\nwait q0\ncopy a[0..64] -> b[0..64]\nsubmit q1"),
            &[],
        ),
    ];
    for (name, body, want) in &cases {
        for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
            assert_eq!(
                &races_of(body, reading),
                want,
                "case `{name}` ({reading:?}):\n{body}"
            );
        }
    }
}

#[test]
fn aliases_and_recycled_blobs_share_bytes() {
    run(&[Case {
        name: "blob recycled inside one command buffer",
        body: "pool p 128 align 64\nalloc x 64 from p\ncopy a[0..64] -> x[0..64]\nfree x\nalloc y 64 from p\ncopy b[0..64] -> y[0..64]",
        model: &["L9 WRITE_AFTER_WRITE [0..64] after L6"],
        layer: None,
    }]);
}

/// `races` validates every barrier's masks by the registry's rules
/// ([`validate`]) before anything else: the refusal is the registry's (its
/// list of supporting stages is in registry order, `RESOLVE` before
/// `BLIT`, where the fast checker's follows its flag order), at the
/// command and barrier index, in pipeline barriers and event dependencies
/// alike; `MEMORY_WRITE` with a `NONE` stage mask is valid usage.
#[test]
fn barrier_masks_are_validated_by_the_registry() {
    use crate::ir::program::Barrier;
    use crate::vk::flags::{AccessFlags2 as A, PipelineStageFlags2 as S};
    let clear_read = "barrier 0: source access `TRANSFER_READ` is not supported by any stage in `CLEAR`; \
                      it needs one of `ALL_TRANSFER`, `COPY`, `RESOLVE`, `BLIT` or `ALL_COMMANDS`";
    let host_on_queue = "barrier 1: destination access `HOST_READ` is not supported by any stage in \
                         `ALL_COMMANDS`; it needs one of `HOST`";
    let ok = Barrier::global(S::COPY, A::TRANSFER_WRITE, S::COPY, A::TRANSFER_READ);
    // (name, the barriers of command 1, Ok or the command and message)
    type MaskCase = (&'static str, Vec<Barrier>, Result<(), (usize, &'static str)>);
    let cases: &[MaskCase] = &[
        ("valid", vec![ok], Ok(())),
        (
            "NONE:MEMORY_WRITE",
            vec![Barrier::global(S::NONE, A::MEMORY_WRITE, S::NONE, A::MEMORY_READ)],
            Ok(()),
        ),
        (
            "CLEAR does not read",
            vec![Barrier::global(S::CLEAR, A::TRANSFER_READ, S::COPY, A::NONE)],
            Err((1, clear_read)),
        ),
        (
            "ALL_COMMANDS is no host stage",
            vec![
                ok,
                Barrier::global(S::COPY, A::NONE, S::ALL_COMMANDS, A::HOST_READ),
            ],
            Err((1, host_on_queue)),
        ),
    ];
    for (name, barriers, want) in cases {
        for in_event in [false, true] {
            let mut p = Program::new();
            let a = p.buffer("a", 256).expect("a valid buffer");
            let dst = p.region(a, 0, 64);
            p.push(Command::Fill { dst, value: 1 }).expect("a valid fill");
            let dependency = Dependency {
                barriers: barriers.clone(),
            };
            let command = if in_event {
                let event = p.event("e").expect("a valid event");
                Command::SetEvent { event, dependency }
            } else {
                Command::Barrier(dependency)
            };
            p.push(command).expect("the builder leaves masks to validation");
            let got = races(&p, Reading::MemoryModel).map(|_| ()).map_err(|e| {
                let Location::Command(at) = e.at else {
                    panic!("{name}: {e:?}")
                };
                (at, e.kind.to_string())
            });
            let want = want.map_err(|(at, msg)| (at, msg.to_string()));
            assert_eq!(got, want, "{name} (in an event: {in_event})");
        }
    }
}

/// Moves the accesses and barrier ranges of the image of `private` (`a`
/// of [`footprints_only_add_races`]: mip 0 at notional bytes 0..64, mip 1
/// at 64..80) from its own memory to the shared one, mip 1 at byte
/// `16 * k` of its range and mip 0 in the rest, in order (split around
/// mip 1): a concrete placement of its subresources.
fn place(o: &mut order::Order, private: &[(MemId, crate::ir::layout::Footprint)], k: u64) {
    let [(own, f)] = private else {
        assert!(private.is_empty(), "one image with a footprint");
        return;
    };
    let base = f.bound.start;
    let m1 = 16 * k;
    let pieces = |r: ByteRange| -> Vec<ByteRange> {
        let (s, e) = (r.start - base, r.end - base);
        let out: Vec<(u64, u64)> = if (s, e) == (0, 80) {
            vec![(0, 80)]
        } else if e <= 64 {
            [(s, e.min(m1)), (s.max(m1) + 16, e + 16)]
                .into_iter()
                .filter(|(a, b)| a < b)
                .collect()
        } else if s >= 64 {
            vec![(s - 64 + m1, e - 64 + m1)]
        } else {
            panic!("a range across the mips: {r}")
        };
        out.into_iter()
            .map(|(a, b)| ByteRange::new(base + a, base + b))
            .collect()
    };
    let accesses = std::mem::take(&mut o.accesses);
    for a in accesses {
        if a.mem != *own {
            o.accesses.push(a);
            continue;
        }
        for r in pieces(a.range) {
            o.accesses.push(order::AccessOp {
                mem: f.mem,
                range: r,
                ..a.clone()
            });
        }
    }
    for d in o.deps.iter_mut() {
        let Some(r) = d.range.filter(|r| r.mem == *own) else {
            continue;
        };
        let mut ranges = pieces(r.range)
            .into_iter()
            .map(|range| crate::ir::layout::MemRange { mem: f.mem, range });
        d.range = ranges.next();
        let rest: Vec<_> = ranges.collect();
        if !rest.is_empty() {
            d.footprint = Some(order::DepFootprint::Images(rest));
        }
    }
}

/// Footprints (`crate::ir::layout::Footprint`) only add overlap and take
/// away what a barrier over part of an image was taken to hold, so every
/// sequence of up to three commands over an optimal image `a` aliased in
/// part (two mips; `b`, `mem` over it) races at least the pairs the
/// notional bytes alone give (the reading before footprints), and exactly
/// the pairs that race with the mips at some concrete place in the
/// image's memory (mip 1 at any 16-byte step, mip 0 around it: "all
/// image subresources of the image overlap the range" as the union over
/// placements, since an optimal image's bytes may lie anywhere in it);
/// the fast checker
/// refuses exactly the programs with a footprint, and agrees byte for
/// byte with the definitional semantics on the others.
#[test]
fn footprints_only_add_races() {
    const HEAD: &str = "buffer mem 256
buffer out 64
buffer src 64
image a R32_UINT 4x4 mips 2 alias mem 0
image b R32_UINT 4x4 alias mem 0
barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE a COLOR:0..:0 UNDEFINED->GENERAL
barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE b COLOR:0:0 UNDEFINED->GENERAL
";
    const ALPHABET: [&str; 12] = [
        "fill mem[0..4] 1",
        "fill mem[64..80] 1",
        "copy mem[0..16] -> out[0..16]",
        "copy-image-to-buffer a GENERAL -> out imageSubresource=COLOR:1:0 imageExtent=2,2,1",
        "copy-image-to-buffer a GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1",
        "copy-buffer-to-image src -> a GENERAL imageSubresource=COLOR:0:0 imageExtent=4,4,1",
        "copy-buffer-to-image src -> a GENERAL imageSubresource=COLOR:1:0 imageExtent=2,2,1",
        "clear-color-image b GENERAL COLOR:0:0",
        "barrier ALL_TRANSFER:TRANSFER_WRITE -> ALL_TRANSFER:TRANSFER_READ|TRANSFER_WRITE a COLOR:0:0 GENERAL->GENERAL",
        "barrier ALL_TRANSFER:TRANSFER_WRITE -> ALL_TRANSFER:TRANSFER_READ|TRANSFER_WRITE a COLOR:1:0 GENERAL->GENERAL",
        "barrier ALL_TRANSFER:TRANSFER_WRITE -> ALL_TRANSFER:TRANSFER_READ|TRANSFER_WRITE mem[0..16]",
        "barrier ALL_TRANSFER:TRANSFER_WRITE -> ALL_TRANSFER:TRANSFER_READ|TRANSFER_WRITE mem[0..256]",
    ];
    let pairs = |rs: &[Race]| -> BTreeSet<(usize, usize, HazardKind)> {
        rs.iter().map(|r| (r.command, r.prior_command, r.kind)).collect()
    };
    let bytes = |v: Vec<(usize, HazardKind, MemId, ByteRange)>| -> BTreeSet<(usize, HazardKind, MemId, u64)> {
        v.into_iter()
            .flat_map(|(c, k, m, r)| (r.start..r.end).map(move |b| (c, k, m, b)))
            .collect()
    };
    let n = ALPHABET.len();
    let mut programs = 0;
    let mut with_footprint = 0;
    let mut more = 0;
    for len in 1..=3u32 {
        for code in 0..n.pow(len) {
            let mut text = HEAD.to_string();
            let mut k = code;
            for _ in 0..len {
                text.push_str(ALPHABET[k % n]);
                text.push('\n');
                k /= n;
            }
            let p = trace::parse(&text)
                .unwrap_or_else(|e| panic!("{e}\n{text}"))
                .program;
            let layout = resolve(&p).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let new = races_resolved(&p, &layout, Reading::MemoryModel);
            let old = races_resolved(&p, &layout.without_footprints(), Reading::MemoryModel);
            let (new_pairs, old_pairs) = (pairs(&new), pairs(&old));
            assert!(
                old_pairs.is_subset(&new_pairs),
                "lost {:?}\n{text}",
                old_pairs.difference(&new_pairs).collect::<Vec<_>>()
            );
            // An independent reading: `a`'s subresources at concrete
            // places (mip 1 at each 16-byte step of its range, mip 0 in
            // the rest), the image exact everywhere; a race is one some
            // placement has.
            let (view, private) = layout.with_private_images();
            let mut placed: BTreeSet<(usize, usize, HazardKind)> = BTreeSet::new();
            for k in 0..=4 {
                let mut o = order::Order::build(&p, &view);
                place(&mut o, &private, k);
                placed.extend(pairs(&races_in(&p, &o, Reading::MemoryModel, |m| m)));
            }
            assert_eq!(new_pairs, placed, "footprints against placements\n{text}");
            more += usize::from(new_pairs.len() > old_pairs.len());
            programs += 1;
            let fast = crate::hazard::check_with(&p, crate::Semantics::default());
            if layout.footprints().is_empty() {
                let fast = fast.unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(
                    bytes(
                        fast.iter()
                            .map(|h| (h.command, h.kind, h.memory.mem, h.memory.range))
                            .collect()
                    ),
                    bytes(new.iter().map(|r| (r.command, r.kind, r.mem, r.range)).collect()),
                    "{text}"
                );
            } else {
                with_footprint += 1;
                let refusal = fast.expect_err(&text);
                assert!(
                    matches!(refusal.kind, ProgramErrorKind::AliasedImageNotSupported { .. }),
                    "{refusal}\n{text}"
                );
            }
        }
    }
    // The alphabet reaches both kinds of program, and races footprints
    // add.
    assert_eq!(programs, 12 + 144 + 1728);
    eprintln!("footprints: {programs} programs, {with_footprint} with a footprint, {more} with more races");
    assert!(
        with_footprint > programs / 2 && more > 100,
        "{with_footprint} {more}"
    );
}
