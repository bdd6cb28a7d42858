//! Events (split barriers): one case per rule (`docs/semantics.md`,
//! "Events"), in the style of `queues.rs`. Each case is a trace after the
//! same header (buffers `a`, `b`, `c` of 256 bytes, events `e`, `f`: lines
//! 1-5, so a case's own lines start at 6). The expectation lists the races
//! of the definitional semantics as `L<line> <KIND> <buffer>[<bytes>] after
//! L<prior line>`; the fast checker must agree under both readings.

use vksync::spec::{races, Reading};
use vksync::{check_with, trace, Semantics};

const HEADER: &str = "\
buffer a 256
buffer b 256
buffer c 256
event e
event f
";

fn case(name: &str, body: &str, expected: &[&str]) {
    let text = format!("{HEADER}{body}");
    let t = trace::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    // A case may declare image `im` on its first line (memory object 3).
    let names = ["a", "b", "c", "im"];
    for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
        let found = races(&t.program, reading).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut got: Vec<String> = found
            .iter()
            .map(|r| {
                format!(
                    "L{} {} {}[{}] after L{}",
                    t.command_lines[r.command],
                    r.kind,
                    names[r.mem.0 as usize],
                    r.range,
                    t.command_lines[r.prior_command]
                )
            })
            .collect();
        got.sort();
        if reading == Reading::MemoryModel {
            assert_eq!(got, expected, "case `{name}`:\n{body}");
        }
        let fast =
            check_with(&t.program, Semantics::for_reading(reading)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut fast: Vec<(usize, String, u32, u64, u64)> = fast
            .iter()
            .map(|h| {
                (
                    h.command,
                    h.kind.to_string(),
                    h.memory.mem.0,
                    h.memory.range.start,
                    h.memory.range.end,
                )
            })
            .collect();
        let mut spec: Vec<(usize, String, u32, u64, u64)> = found
            .iter()
            .map(|r| (r.command, r.kind.to_string(), r.mem.0, r.range.start, r.range.end))
            .collect();
        fast.sort();
        fast.dedup();
        spec.sort();
        spec.dedup();
        assert_eq!(
            fast, spec,
            "case `{name}` ({reading:?}): fast checker and definitional semantics differ"
        );
    }
}

#[test]
fn events_order_what_precedes_the_set_before_what_follows_the_wait() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "access before the set is ordered",
            "fill a 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nwait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a -> b\n",
            &[],
        ),
        (
            "access between the set and the wait is not ordered",
            "set-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nfill a 1\nwait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a -> b\n",
            &["L9 READ_AFTER_WRITE a[0..256] after L7"],
        ),
        (
            "wrong source stage",
            "fill a 1\nset-event e COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ\nwait-events e COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a -> b\n",
            &["L9 READ_AFTER_WRITE a[0..256] after L6"],
        ),
        (
            "wrong destination stage",
            "fill a 1\nset-event e CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_READ\nwait-events e CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_READ\ncopy a -> b\n",
            &["L9 READ_AFTER_WRITE a[0..256] after L6"],
        ),
        (
            "a buffer-range event covers its range only",
            "fill a 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64]\nwait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64]\ncopy a -> b\n",
            &["L9 READ_AFTER_WRITE a[64..256] after L6"],
        ),
        (
            "a chain from an earlier barrier into the set",
            "fill a 1\nbarrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:NONE\nset-event e COMPUTE_SHADER:NONE -> COPY:TRANSFER_READ\nwait-events e COMPUTE_SHADER:NONE -> COPY:TRANSFER_READ\ncopy a -> b\n",
            &[],
        ),
        (
            "no chain from a barrier between the set and the wait",
            "fill a 1\nset-event e COMPUTE_SHADER:NONE -> COPY:TRANSFER_READ\nbarrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:NONE\nwait-events e COMPUTE_SHADER:NONE -> COPY:TRANSFER_READ\ncopy a -> b\n",
            &["L10 READ_AFTER_WRITE a[0..256] after L6"],
        ),
        (
            "two events waited by one wait",
            "fill a 1\ncopy c -> b\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nset-event f COPY:NONE -> CLEAR:NONE\nwait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ, f COPY:NONE -> CLEAR:NONE\ncopy a[0..128] -> b[0..128]\nfill c 2\n",
            &["L11 WRITE_AFTER_WRITE b[0..128] after L7"],
        ),
        (
            "each barrier of a dependency info is its own dependency",
            "copy c -> a\nset-event e ALL_COMMANDS:TRANSFER_WRITE -> COPY:NONE; CLEAR:NONE -> TOP_OF_PIPE:NONE\nwait-events e ALL_COMMANDS:TRANSFER_WRITE -> COPY:NONE; CLEAR:NONE -> TOP_OF_PIPE:NONE\nfill a 3\n",
            &["L9 WRITE_AFTER_WRITE a[0..256] after L6"],
        ),
        (
            "a host-set event's wait with no source stage (\"only host operations\": none) orders no write",
            "fill a 1\nhost-set-event e\nwait-events e NONE:NONE -> COPY:TRANSFER_READ\ncopy a -> b\n",
            &["L9 READ_AFTER_WRITE a[0..256] after L6"],
        ),
        (
            "a host-set event's wait with no source stage, after a barrier that made the write visible",
            "fill a 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nhost-set-event e\nwait-events e NONE:NONE -> COPY:TRANSFER_READ\ncopy a -> b\n",
            &[],
        ),
        (
            "a reset and a new set: the wait reaches only the new set's scope",
            "fill a 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nwait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nreset-event e\nfill b 1\nset-event e COPY:NONE -> COPY:NONE\nwait-events e COPY:NONE -> COPY:NONE\ncopy b -> c\n",
            &["L13 READ_AFTER_WRITE b[0..256] after L10"],
        ),
    ];
    for (name, body, expected) in cases {
        case(name, body, expected);
    }
}

/// An image memory barrier in an event's dependency info: the set's and the
/// wait's are compared by value (subresource range, layouts), not by the
/// entry each barrier has in the program's image barriers, and a
/// `REMAINING` count equals only `REMAINING` ("exactly equal",
/// VUID-vkCmdWaitEvents2-pEvents-10788). `im` is 2 mips x 2 layers of
/// 8x8 R32_UINT: mip 0 layer 0 is im[0..256].
#[test]
fn image_barriers_in_events_are_compared_by_value() {
    const IM: &str = "image im R32_UINT 8x8 mips 2 layers 2\nbarrier NONE:NONE -> CLEAR:TRANSFER_WRITE im COLOR:0..:0.. UNDEFINED->GENERAL\nclear-color-image im GENERAL COLOR:0..:0..\n";
    let rows: &[(&str, &str, &str, &[&str])] = &[
        ("one subresource", "im COLOR:0:0 GENERAL->GENERAL", "im COLOR:0:0 GENERAL->GENERAL", &[]),
        (
            "every subresource, REMAINING",
            "im COLOR:0..:0.. GENERAL->GENERAL",
            "im COLOR:0..:0.. GENERAL->GENERAL",
            &[],
        ),
        (
            "a range of several byte ranges (mip 0..2, layer 1)",
            "im COLOR:0..2:1 GENERAL->GENERAL",
            "im COLOR:0..2:1 GENERAL->GENERAL",
            &["L11 READ_AFTER_WRITE im[0..256] after L7", "L11 READ_AFTER_WRITE im[0..256] after L8"],
        ),
        (
            "two image barriers and a buffer barrier",
            "im COLOR:0:0 GENERAL->GENERAL; CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ im COLOR:1:0.. GENERAL->GENERAL; NONE:NONE -> NONE:NONE a[0..16]",
            "im COLOR:0:0 GENERAL->GENERAL; CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ im COLOR:1:0.. GENERAL->GENERAL; NONE:NONE -> NONE:NONE a[0..16]",
            &[],
        ),
    ];
    for (name, set, wait, expected) in rows {
        let body = format!(
            "{IM}set-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ {set}\nwait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ {wait}\ncopy-image-to-buffer im GENERAL -> a imageSubresource=COLOR:0:0 imageExtent=8,8,1\n"
        );
        case(name, &body, expected);
    }
    // Refused: what differs is named.
    let refused: &[(&str, &str, &str)] = &[
        ("im COLOR:0:0 GENERAL->GENERAL", "im COLOR:0:1 GENERAL->GENERAL", "barrier 0: subresourceRange COLOR:0:1 (set: COLOR:0:0)"),
        ("im COLOR:0..:0 GENERAL->GENERAL", "im COLOR:0..2:0 GENERAL->GENERAL", "barrier 0: subresourceRange COLOR:0..2:0 (set: COLOR:0..:0)"),
        ("im COLOR:0:0 GENERAL->GENERAL", "a[0..16]", "barrier 0: the buffer range (or a memory barrier where the set has a buffer or image barrier, or the reverse)"),
        ("im COLOR:0:0 GENERAL->GENERAL", "", "barrier 0: the buffer range (or a memory barrier where the set has a buffer or image barrier, or the reverse)"),
    ];
    for (set, wait, difference) in refused {
        let body = format!(
            "{HEADER}{IM}set-event e COPY:NONE -> COPY:NONE {set}\nwait-events e COPY:NONE -> COPY:NONE {wait}\n"
        );
        let err = trace::parse(&body).expect_err(&body).to_string();
        assert_eq!(
            err,
            format!("10:13: the dependency info waited on for event `e` differs from the one it was set with in {difference} (VUID-vkCmdWaitEvents2-pEvents-10788: exactly equal)"),
            "{body}"
        );
    }
    // With a transition (oldLayout != newLayout), the layouts are compared
    // as the rest.
    let body = format!(
        "{HEADER}{IM}set-event e COPY:NONE -> COPY:NONE im COLOR:0:0 GENERAL->TRANSFER_SRC_OPTIMAL\nwait-events e COPY:NONE -> COPY:NONE im COLOR:0:0 GENERAL->TRANSFER_DST_OPTIMAL\n"
    );
    let err = trace::parse(&body).expect_err(&body).to_string();
    assert!(
        err.contains("newLayout TRANSFER_DST_OPTIMAL (set: TRANSFER_SRC_OPTIMAL)"),
        "{err}"
    );
}

/// Synchronization-1 events (`docs/semantics.md`, "Events"): the set is an
/// execution dependency to its signal, the wait gives the memory
/// dependency, so availability happens at the wait for the writes before
/// the set.
#[test]
fn sync1_events_make_writes_before_the_set_available_at_the_wait() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "a write before the set is made available and visible at the wait",
            "fill a 1\nset-event1 e TRANSFER\nwait-events1 e TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ\ncopy a -> b\n",
            &[],
        ),
        (
            "the wait's source access mask decides: without it nothing is available",
            "fill a 1\nset-event1 e TRANSFER\nwait-events1 e TRANSFER:NONE -> TRANSFER:TRANSFER_READ\ncopy a -> b\n",
            &["L9 READ_AFTER_WRITE a[0..256] after L6"],
        ),
        (
            "a write between the set and the wait still races",
            "set-event1 e TRANSFER\nfill a 1\nwait-events1 e TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ\ncopy a -> b\n",
            &["L9 READ_AFTER_WRITE a[0..256] after L7"],
        ),
        (
            "a read between the set and the wait is not ordered before a later write",
            "set-event1 e TRANSFER\ncopy a -> b\nwait-events1 e TRANSFER:NONE -> TRANSFER:NONE\nfill a 1\n",
            &["L9 WRITE_AFTER_READ a[0..256] after L7"],
        ),
        (
            "one set waited by two waits with different barriers: the execution-only one makes nothing available, the other does",
            "fill a 1\nset-event1 e TRANSFER\nwait-events1 e TRANSFER:NONE -> COMPUTE_SHADER:NONE\ndispatch k read a write c\nwait-events1 e TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ\ncopy a -> b\n",
            &["L9 READ_AFTER_WRITE a[0..256] after L6"],
        ),
        (
            "one set waited by two waits: each barrier's range and destination are its own",
            "fill a 1\nset-event1 e TRANSFER\nwait-events1 e TRANSFER:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_READ a[0..64]\ndispatch k read a[0..64] write c[0..64]\nwait-events1 e TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ a[0..128]\ncopy a -> b\n",
            &["L11 READ_AFTER_WRITE a[128..256] after L6"],
        ),
        (
            "a buffer barrier of the wait makes its range available only",
            "fill a 1\nset-event1 e TRANSFER\nwait-events1 e TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ a[0..64]\ncopy a -> b\n",
            &["L9 READ_AFTER_WRITE a[64..256] after L6"],
        ),
        (
            "a chain through an earlier barrier into the set's stage mask: a write made available there is made visible at the wait",
            "fill a 1\nbarrier TRANSFER:TRANSFER_WRITE -> COMPUTE_SHADER:NONE\nset-event1 e COMPUTE_SHADER\nwait-events1 e COMPUTE_SHADER:NONE -> TRANSFER:TRANSFER_READ\ncopy a -> b\n",
            &[],
        ),
        (
            "an execution-only chain into the set orders a read before a later write",
            "copy a -> b\nbarrier TRANSFER:NONE -> COMPUTE_SHADER:NONE\nset-event1 e COMPUTE_SHADER\nwait-events1 e COMPUTE_SHADER:NONE -> TRANSFER:NONE\nfill a 1\n",
            &[],
        ),
        (
            "an execution-only chain into the set does not put the write in the wait's access scope (srcStageMask's stages)",
            "fill a 1\nbarrier TRANSFER:NONE -> COMPUTE_SHADER:NONE\nset-event1 e COMPUTE_SHADER\nwait-events1 e COMPUTE_SHADER:SHADER_WRITE -> TRANSFER:TRANSFER_READ\ncopy a -> b\n",
            &["L10 READ_AFTER_WRITE a[0..256] after L6"],
        ),
        (
            "no chain from a barrier between the set and the wait",
            "fill a 1\nset-event1 e COMPUTE_SHADER\nbarrier TRANSFER:TRANSFER_WRITE -> COMPUTE_SHADER:NONE\nwait-events1 e COMPUTE_SHADER:NONE -> TRANSFER:TRANSFER_READ\ncopy a -> b\n",
            &["L10 READ_AFTER_WRITE a[0..256] after L6"],
        ),
        (
            "a chain out of the wait: available at the wait, visible through a later barrier",
            "fill a 1\nset-event1 e TRANSFER\nwait-events1 e TRANSFER:TRANSFER_WRITE -> COMPUTE_SHADER:NONE\nbarrier COMPUTE_SHADER:NONE -> TRANSFER:TRANSFER_READ\ncopy a -> b\n",
            &[],
        ),
        (
            "two events in one wait: a write that happened before either signal is in the first access scope of srcStageMask",
            "set-event1 f TRANSFER\nfill a 1\nbarrier TRANSFER:NONE -> COMPUTE_SHADER:NONE\nset-event1 e COMPUTE_SHADER\nwait-events1 e f TRANSFER|COMPUTE_SHADER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ\ncopy a -> b\n",
            &[],
        ),
        (
            "a host-set event with HOST in srcStageMask, beside a device set",
            "fill a 1\nset-event1 e TRANSFER\nhost-set-event f\nwait-events1 e f TRANSFER|HOST:TRANSFER_WRITE|HOST_WRITE -> TRANSFER:TRANSFER_READ\ncopy a -> b\n",
            &[],
        ),
        (
            "a host set orders no device work before it",
            "fill a 1\nhost-set-event e\nwait-events1 e HOST:HOST_WRITE -> TRANSFER:TRANSFER_READ\ncopy a -> b\n",
            &["L9 READ_AFTER_WRITE a[0..256] after L6"],
        ),
        (
            "a synchronization-1 and a synchronization-2 pair side by side",
            "fill a 1\ncopy c -> b\nset-event1 e TRANSFER\nset-event f COPY:NONE -> CLEAR:NONE\nwait-events1 e TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ a[0..128]\nwait-events f COPY:NONE -> CLEAR:NONE\ncopy a[0..128] -> b[0..128]\nfill c 2\n",
            &["L12 WRITE_AFTER_WRITE b[0..128] after L7"],
        ),
        (
            "a reset and a new set: the wait pairs with the new set only",
            "set-event1 e TRANSFER\nfill a 1\nreset-event e\nset-event1 e COMPUTE_SHADER\nwait-events1 e COMPUTE_SHADER:NONE -> TRANSFER:TRANSFER_READ\ncopy a -> b\n",
            &["L11 READ_AFTER_WRITE a[0..256] after L7"],
        ),
    ];
    for (name, body, expected) in cases {
        case(name, body, expected);
    }
}

/// Events with several queues (the multi-queue walk): a set and its wait
/// run on one queue ("vkCmdWaitEvents2 must not be used to wait on event
/// signal operations occurring on other queues"), and order what precedes
/// the set there, including what a semaphore wait chained into it, before
/// what follows the wait there; nothing on another queue.
#[test]
fn events_with_several_queues_order_their_own_queue() {
    const Q: &str = "queue qa\nqueue qb\nsemaphore s\n";
    let cases: Vec<(&str, String, &[&str])> = vec![
        (
            "set and wait in two batches of the second queue",
            format!("{Q}fill a 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nsubmit qb\nwait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a -> b\nsubmit qb\n"),
            &[],
        ),
        (
            "an access between them is not ordered",
            format!("{Q}set-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nfill a 1\nsubmit qb\nwait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a -> b\nsubmit qb\n"),
            &["L13 READ_AFTER_WRITE a[0..256] after L10"],
        ),
        (
            "the wait orders nothing on another queue",
            format!("{Q}fill a 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nwait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nsubmit qb\ncopy a -> b\nsubmit qa\n"),
            &["L13 READ_AFTER_WRITE a[0..256] after L9"],
        ),
        (
            "a semaphore wait chained into the set (sync 2)",
            format!("{Q}fill a 1\nsubmit qa signal s@CLEAR\nset-event e CLEAR:NONE -> COPY:TRANSFER_READ\nsubmit qb wait s@CLEAR\nwait-events e CLEAR:NONE -> COPY:TRANSFER_READ\ncopy a -> b\nsubmit qb\n"),
            &[],
        ),
        (
            "the same semaphore wait without the event",
            format!("{Q}fill a 1\nsubmit qa signal s@CLEAR\nsubmit qb wait s@CLEAR\ncopy a -> b\nsubmit qb\n"),
            &["L12 READ_AFTER_WRITE a[0..256] after L9"],
        ),
        (
            "a semaphore wait chained into the set (sync 1)",
            format!("{Q}fill a 1\nsubmit qa signal s@CLEAR\nset-event1 e TRANSFER\nsubmit qb wait s@CLEAR\nwait-events1 e TRANSFER:NONE -> TRANSFER:TRANSFER_READ\ncopy a -> b\nsubmit qb\n"),
            &[],
        ),
        (
            "sync 1: the wait's own first access scope makes the write available",
            format!("{Q}fill a 1\nset-event1 e TRANSFER\nsubmit qb\nwait-events1 e TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ\ncopy a -> b\nsubmit qb\n"),
            &[],
        ),
        (
            "sync 1: the wait's first access scope holds another queue's write before the set (review18 F2)",
            // "The first synchronization scope only includes event signal
            // operations ..., and the operations that happened-before the
            // event signal operations": qb's dispatch, before the semaphore
            // qa's set waits for (an execution-only barrier chains it into
            // the signal); the wait's SHADER_WRITE makes it available.
            format!("{Q}dispatch k write a\nbarrier COMPUTE_SHADER:NONE -> COPY:NONE\nsubmit qb signal s@COPY\nset-event1 f TRANSFER|COMPUTE_SHADER\nwait-events1 f TRANSFER|COMPUTE_SHADER:SHADER_WRITE -> COMPUTE_SHADER:SHADER_READ\ndispatch k read a write b\nsubmit qa wait s@COPY\n"),
            &[],
        ),
        (
            "...without SHADER_WRITE in its source access mask the write is not available",
            format!("{Q}dispatch k write a\nbarrier COMPUTE_SHADER:NONE -> COPY:NONE\nsubmit qb signal s@COPY\nset-event1 f TRANSFER|COMPUTE_SHADER\nwait-events1 f TRANSFER|COMPUTE_SHADER:NONE -> COMPUTE_SHADER:SHADER_READ\ndispatch k read a write b\nsubmit qa wait s@COPY\n"),
            &["L14 READ_AFTER_WRITE a[0..256] after L9"],
        ),
        (
            "sync 1: without it the write is not available",
            format!("{Q}fill a 1\nset-event1 e TRANSFER\nsubmit qb\nwait-events1 e TRANSFER:NONE -> TRANSFER:TRANSFER_READ\ncopy a -> b\nsubmit qb\n"),
            &["L13 READ_AFTER_WRITE a[0..256] after L9"],
        ),
        (
            "a set's transition in one batch, its wait in a later one",
            format!("{Q}set-event e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\nsubmit qb\nwait-events e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]\nsubmit qb\n"),
            &[],
        ),
        (
            "a set's transition, then an ALL_COMMANDS semaphore signal: another queue sees it",
            format!("{Q}set-event e NONE:NONE -> NONE:NONE a[0..64] transition\nsubmit qa signal s\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@COPY\nwait-events e NONE:NONE -> NONE:NONE a[0..64] transition\nsubmit qa\n"),
            &[],
        ),
        (
            "...a narrower signal does not hold it",
            format!("{Q}set-event e NONE:NONE -> NONE:NONE a[0..64] transition\nsubmit qa signal s@COPY\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@COPY\nwait-events e NONE:NONE -> NONE:NONE a[0..64] transition\nsubmit qa\n"),
            &["L11 READ_AFTER_WRITE a[0..64] after L9"],
        ),
        (
            "sync 1: the wait's transition, then a semaphore to another queue",
            format!("{Q}set-event1 e TRANSFER\nwait-events1 e TRANSFER:NONE -> TRANSFER:NONE a[0..64] transition\nsubmit qa signal s\ncopy a[0..64] -> b[0..64]\nsubmit qb wait s@COPY\n"),
            &[],
        ),
    ];
    for (name, body, expected) in &cases {
        case(name, body, expected);
    }
}

/// More than 64 event sets at once on one queue (the single-queue
/// checker's slots): the multi-queue walk decides them, as the
/// definitional semantics does.
#[test]
fn more_than_64_live_event_sets_are_checked() {
    let n = 70;
    let mut decl = String::new();
    let mut sets = String::new();
    for i in 0..n {
        decl.push_str(&format!("event x{i}\n"));
        sets.push_str(&format!(
            "set-event x{i} CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\n"
        ));
    }
    // Lines 6.. hold the declarations, then the sets; the case's
    // commands follow.
    let first = 6 + 2 * n;
    let ordered = format!(
        "{decl}fill a 1\n{sets}wait-events x0 CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a -> b\n"
    );
    case("ordered by the first of 70 sets", &ordered, &[]);
    let unordered = format!(
        "{decl}{sets}fill a 1\nwait-events x69 CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a -> b\n"
    );
    let want = format!("L{} READ_AFTER_WRITE a[0..256] after L{first}", first + 2);
    case("a write after the 70th set", &unordered, &[want.as_str()]);
    // A layout transition's write is available at once, so a
    // `vkCmdSetEvent` in ALL_COMMANDS (which holds the transition) takes
    // it to the wait, which makes it visible (a fresh spec_differential
    // seed: the walk took a write to the signal only through an earlier
    // availability operation).
    let transition = format!(
        "{decl}event t\n{sets}barrier NONE:NONE -> HOST:NONE a[0..64] transition\nset-event1 t ALL_COMMANDS\n\
         wait-events1 t ALL_COMMANDS:SHADER_READ -> ALL_COMMANDS:SHADER_READ\ndispatch k read a[0..64] write b[0..64]\n"
    );
    case(
        "a transition's write through a sync-1 set in ALL_COMMANDS",
        &transition,
        &[],
    );
    let narrower = transition
        .replace("set-event1 t ALL_COMMANDS", "set-event1 t COMPUTE_SHADER")
        .replace("t ALL_COMMANDS:SHADER_READ ->", "t COMPUTE_SHADER:SHADER_READ ->");
    let want = format!("L{} READ_AFTER_WRITE a[0..64] after L{}", first + 4, first + 1);
    case("...not in a narrower one", &narrower, &[want.as_str()]);
}

#[test]
fn invalid_event_programs_are_errors_at_their_token() {
    let cases: &[(&str, &str)] = &[
        ("wait-events g COPY:NONE -> COPY:NONE", "6:13: unknown event `g`"),
        ("wait-events e COPY:NONE -> COPY:NONE", "6:13: event `e` is waited on but not set (no set earlier in the trace, or a reset since): the wait would never end (VUID-vkCmdWaitEvents2-pEvents-03841)"),
        ("set-event e COPY:NONE -> COPY:NONE\nwait-events e CLEAR:NONE -> COPY:NONE", "7:13: the dependency info waited on for event `e` differs from the one it was set with in barrier 0: srcStageMask CLEAR (set: COPY) (VUID-vkCmdWaitEvents2-pEvents-10788: exactly equal)"),
        ("set-event e COPY:NONE -> COPY:NONE\nwait-events e COPY:NONE -> COPY:NONE ; COPY:NONE -> CLEAR:NONE", "7:13: the dependency info waited on for event `e` differs from the one it was set with in 2 barriers where the set has 1 (VUID-vkCmdWaitEvents2-pEvents-10788: exactly equal)"),
        ("set-event e COPY:TRANSFER_WRITE -> COPY:NONE\nwait-events e COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ", "7:13: the dependency info waited on for event `e` differs from the one it was set with in barrier 0: dstAccessMask TRANSFER_READ (set: NONE) (VUID-vkCmdWaitEvents2-pEvents-10788: exactly equal)"),
        ("host-set-event e\nwait-events e HOST:NONE -> COPY:NONE a[0..16] transition", "7:13: barrier 0 of the wait for event `e`, which the host set: its image layout transition is performed by no command (vkCmdSetEvent2 performs an event's transitions, and vkSetEvent has no dependency info)"),
        ("set-event e COPY:NONE -> COPY:NONE\nset-event e COPY:NONE -> COPY:NONE", "7:11: event `e` is already set: reset it first (a vkCmdSetEvent2, vkCmdSetEvent or vkSetEvent of a signaled event has no effect)"),
        ("set-event e HOST:NONE -> COPY:NONE", "6:11: barrier 0 of the set of event `e`: its stage masks may not include HOST (VUID-vkCmdSetEvent2-srcStageMask-09391, -dstStageMask-09392)"),
        ("host-set-event e\nwait-events e COPY:NONE -> COPY:NONE", "7:13: event `e` was set by the host: every barrier of its wait may name only HOST in its source stages (VUID-vkCmdWaitEvents2-pEvents-03839)"),
        ("host-set-event e\nwait-events e HOST|COPY:NONE -> COPY:NONE", "7:13: event `e` was set by the host: every barrier of its wait may name only HOST in its source stages (VUID-vkCmdWaitEvents2-pEvents-03839)"),
        ("host-set-event e\nwait-events e NONE:NONE -> COPY:NONE ; ALL_COMMANDS:NONE -> COPY:NONE", "7:13: event `e` was set by the host: every barrier of its wait may name only HOST in its source stages (VUID-vkCmdWaitEvents2-pEvents-03839)"),
        ("set-event e COPY:NONE -> COPY:NONE\nreset-event e\nwait-events e COPY:NONE -> COPY:NONE", "8:13: event `e` is waited on but not set (no set earlier in the trace, or a reset since): the wait would never end (VUID-vkCmdWaitEvents2-pEvents-03841)"),
        // review48: a host set or reset of an event with a device command of
        // it recorded and not yet submitted runs before that command, not in
        // trace order: refused. The first two never end (the host's set
        // runs before the recorded reset; the host's reset before the
        // recorded wait); the third is valid in Vulkan (the host's reset
        // runs first, then the set and the wait), refused all the same.
        ("reset-event e\nhost-set-event e\nwait-events e HOST:NONE -> COPY:NONE", "7:16: event `e` is set by the host while a reset-event of it is recorded and not yet submitted: the host's call runs before that command, which runs only once its batch is submitted, not where the trace writes it; vksync does not reorder them (write the host's call before the recording or after the submit, as `vksync capture` does)"),
        ("host-set-event e\nwait-events e HOST:NONE -> COPY:NONE\nhost-reset-event e", "8:18: event `e` is reset by the host while a wait-events of it is recorded and not yet submitted: the host's call runs before that command, which runs only once its batch is submitted, not where the trace writes it; vksync does not reorder them (write the host's call before the recording or after the submit, as `vksync capture` does)"),
        ("set-event e COPY:NONE -> COPY:NONE\nhost-reset-event e\nwait-events e COPY:NONE -> COPY:NONE", "7:18: event `e` is reset by the host while a set-event of it is recorded and not yet submitted: the host's call runs before that command, which runs only once its batch is submitted, not where the trace writes it; vksync does not reorder them (write the host's call before the recording or after the submit, as `vksync capture` does)"),
        ("set-event1 f TRANSFER\nhost-set-event f", "7:16: event `f` is set by the host while a set-event1 of it is recorded and not yet submitted: the host's call runs before that command, which runs only once its batch is submitted, not where the trace writes it; vksync does not reorder them (write the host's call before the recording or after the submit, as `vksync capture` does)"),
        ("set-event e", "6:12: expected the event's barriers: `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION] [; ...]`"),
        // review39: a reset whose first scope meets no stage a chain from an
        // earlier wait of the event reaches (VUID-vkCmdResetEvent2-event-03832):
        // an empty one, one of other stages (the validation layer's
        // NegativeEvent.Reset2AfterWait2); a barrier that chains, or a reset
        // of every stage, makes it valid (the next case's error is another).
        ("set-event e COPY:NONE -> COPY:NONE\nwait-events e COPY:NONE -> COPY:NONE\nreset-event e NONE", "8:13: event `e` is reset with stageMask NONE after a wait of it earlier in submission order whose execution dependency chain reaches COPY: there must be an execution dependency between the reset and that wait (VUID-vkCmdResetEvent2-event-03832; after a vkCmdWaitEvents: -03831); give the reset a stage of the wait's dstStageMask, or ALL_COMMANDS"),
        ("set-event e COPY:NONE -> COPY:NONE\nwait-events e COPY:NONE -> COPY:NONE\nreset-event e COMPUTE_SHADER", "8:13: event `e` is reset with stageMask COMPUTE_SHADER after a wait of it earlier in submission order whose execution dependency chain reaches COPY: there must be an execution dependency between the reset and that wait (VUID-vkCmdResetEvent2-event-03832; after a vkCmdWaitEvents: -03831); give the reset a stage of the wait's dstStageMask, or ALL_COMMANDS"),
        ("set-event1 f TRANSFER\nwait-events1 f TRANSFER:NONE -> TRANSFER:NONE\nreset-event f COMPUTE_SHADER", "8:13: event `f` is reset with stageMask COMPUTE_SHADER after a wait of it earlier in submission order whose execution dependency chain reaches COPY|CLEAR|BLIT|RESOLVE: there must be an execution dependency between the reset and that wait (VUID-vkCmdResetEvent2-event-03832; after a vkCmdWaitEvents: -03831); give the reset a stage of the wait's dstStageMask, or ALL_COMMANDS"),
        ("set-event e COPY:NONE -> COPY:NONE\nwait-events e COPY:NONE -> COPY:NONE\nbarrier COPY:NONE -> COMPUTE_SHADER:NONE\nreset-event e COMPUTE_SHADER\nreset-event e\nwait-events f NONE:NONE -> NONE:NONE", "11:13: event `f` is waited on but not set (no set earlier in the trace, or a reset since): the wait would never end (VUID-vkCmdWaitEvents2-pEvents-03841)"),
    ];
    for (body, want) in cases {
        let err = trace::parse(&format!("{HEADER}{body}\n")).expect_err(body);
        assert_eq!(err.to_string(), *want, "{body}");
    }
    // Events are per queue.
    let text = "buffer a 16\nqueue qa\nqueue qb\nevent e\nset-event e COPY:NONE -> COPY:NONE\nsubmit qa\nwait-events e COPY:NONE -> COPY:NONE\nsubmit qb\n";
    assert_eq!(
        trace::parse(text).unwrap_err().to_string(),
        "7:13: event `e` is waited on queue `qb` but was set on queue `qa`: events order commands of one queue only"
    );
}

/// Synchronization-1 events (`set-event1`, `wait-events1`): the rules of
/// `vkCmdSetEvent`/`vkCmdWaitEvents`, each an error at its token.
#[test]
fn invalid_sync1_event_programs_are_errors_at_their_token() {
    const SET: &str = "set-event1 e TRANSFER\n";
    let cases: &[(&str, &str)] = &[
        ("wait-events1 g TRANSFER:NONE -> TRANSFER:NONE", "6:14: unknown event `g`"),
        ("wait-events1 TRANSFER:NONE -> TRANSFER:NONE", "6:14: expected an event name"),
        ("wait-events1 e", "6:15: expected the wait's barriers: `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION] [; ...]`, each with the call's srcStageMask and dstStageMask"),
        ("set-event1 e", "6:13: expected the stage mask, found end of line"),
        ("set-event1 e TRANSFER COPY", "6:23: unexpected `COPY`"),
        ("wait-events1 e TRANSFER:NONE -> TRANSFER:NONE", "6:14: event `e` is waited on by vkCmdWaitEvents but not set (no set earlier in the trace, or a reset since): the wait would never end"),
        ("set-event1 e COMPUTE_SHADER|COPY", "6:29: `COPY` is a synchronization-2 flag: vkCmdSetEvent takes the 32-bit synchronization-1 flags (write `TRANSFER`)"),
        ("set-event1 e COMPUTE_SHADER|HOST", "6:29: the stage mask of the vkCmdSetEvent of event `e` may not include HOST or unnamed bits 0x4000 (VUID-vkCmdSetEvent-stageMask-01149)"),
        ("set-event1 e TRANSFER\nset-event1 e TRANSFER", "7:12: event `e` is already set: reset it first (a vkCmdSetEvent2, vkCmdSetEvent or vkSetEvent of a signaled event has no effect)"),
        (&format!("{SET}wait-events1 e TRANSFER:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ"), "7:58: `SHADER_STORAGE_READ` is a synchronization-2 flag: vkCmdWaitEvents takes the 32-bit synchronization-1 flags (write `SHADER_READ`)"),
        (&format!("{SET}wait-events1 e CLEAR:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ"), "7:16: `CLEAR` is a synchronization-2 flag: vkCmdWaitEvents takes the 32-bit synchronization-1 flags (write `TRANSFER`)"),
        // VUID-vkCmdWaitEvents-srcStageMask-01158: exactly the OR, neither
        // smaller nor larger.
        (&format!("{SET}wait-events1 e COMPUTE_SHADER:NONE -> TRANSFER:NONE"), "7:16: srcStageMask COMPUTE_SHADER of vkCmdWaitEvents is not TRANSFER, the OR of the stage masks its events were set with (and HOST for an event the host set) (VUID-vkCmdWaitEvents-srcStageMask-01158)"),
        ("set-event1 e COMPUTE_SHADER|TRANSFER\nwait-events1 e TRANSFER:NONE -> TRANSFER:NONE", "7:16: srcStageMask TRANSFER of vkCmdWaitEvents is not COMPUTE_SHADER|TRANSFER, the OR of the stage masks its events were set with (and HOST for an event the host set) (VUID-vkCmdWaitEvents-srcStageMask-01158)"),
        (&format!("{SET}wait-events1 e TRANSFER|COMPUTE_SHADER:NONE -> TRANSFER:NONE"), "7:16: srcStageMask COMPUTE_SHADER|TRANSFER of vkCmdWaitEvents is not TRANSFER, the OR of the stage masks its events were set with (and HOST for an event the host set) (VUID-vkCmdWaitEvents-srcStageMask-01158)"),
        (&format!("{SET}host-set-event f\nwait-events1 e f TRANSFER:NONE -> TRANSFER:NONE"), "8:18: srcStageMask TRANSFER of vkCmdWaitEvents is not TRANSFER|HOST, the OR of the stage masks its events were set with (and HOST for an event the host set) (VUID-vkCmdWaitEvents-srcStageMask-01158)"),
        (&format!("{SET}wait-events1 e TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ; COMPUTE_SHADER:NONE -> TRANSFER:NONE"), "7:67: barrier 1 of vkCmdWaitEvents has other stage masks than barrier 0: the call has one srcStageMask and one dstStageMask"),
        (&format!("{SET}wait-events1 e TRANSFER:NONE -> TRANSFER:NONE; TRANSFER:NONE -> HOST:HOST_READ"), "7:65: barrier 1 of vkCmdWaitEvents has other stage masks than barrier 0: the call has one srcStageMask and one dstStageMask"),
        // The two generations do not mix.
        ("set-event e COPY:NONE -> COPY:NONE\nwait-events1 e TRANSFER:NONE -> TRANSFER:NONE", "7:14: event `e` was set by vkCmdSetEvent2: vkCmdWaitEvents cannot wait for it (VUID-vkCmdWaitEvents-pEvents-03847)"),
        (&format!("{SET}wait-events e COPY:NONE -> COPY:NONE"), "7:13: event `e` was set by vkCmdSetEvent: vkCmdWaitEvents2 cannot wait for it (VUID-vkCmdWaitEvents2-pEvents-03837)"),
        (&format!("{SET}reset-event e\nwait-events1 e TRANSFER:NONE -> TRANSFER:NONE"), "8:14: event `e` is waited on by vkCmdWaitEvents but not set (no set earlier in the trace, or a reset since): the wait would never end"),
    ];
    for (body, want) in cases {
        let err = trace::parse(&format!("{HEADER}{body}\n")).expect_err(body);
        assert_eq!(err.to_string(), *want, "{body}");
    }
    // Events are per queue.
    let text = "buffer a 16\nqueue qa\nqueue qb\nevent e\nset-event1 e TRANSFER\nsubmit qa\nwait-events1 e TRANSFER:NONE -> TRANSFER:NONE\nsubmit qb\n";
    assert_eq!(
        trace::parse(text).unwrap_err().to_string(),
        "7:14: event `e` is waited on queue `qb` but was set on queue `qa`: events order commands of one queue only"
    );
}

/// The builder refuses what the parser refuses, with the same wording.
#[test]
fn sync1_events_built_in_code_are_checked_as_parsed() {
    use vksync::{AccessFlags2 as A, Barrier, Command, Dependency, PipelineStageFlags2 as S, Program};
    let wait = |src, dst, access| Command::WaitEvents1 {
        events: vec![vksync::EventId(0)],
        dependency: Dependency {
            barriers: vec![Barrier::global(src, A::NONE, dst, access)],
        },
    };
    let cases: Vec<(Vec<Command>, &str)> = vec![
        (
            vec![Command::SetEvent1 {
                event: vksync::EventId(0),
                stage_mask: S::CLEAR,
            }],
            "command 0: `CLEAR` is a synchronization-2 flag: vkCmdSetEvent takes the 32-bit synchronization-1 flags (write `TRANSFER`)",
        ),
        (
            vec![wait(S::TRANSFER, S::COMPUTE_SHADER, A::SHADER_STORAGE_READ)],
            "command 0: `SHADER_STORAGE_READ` is a synchronization-2 flag: vkCmdWaitEvents takes the 32-bit synchronization-1 flags (write `SHADER_READ`)",
        ),
        (
            vec![Command::WaitEvents1 {
                events: vec![vksync::EventId(0)],
                dependency: Dependency::default(),
            }],
            "command 0: vkCmdWaitEvents needs its stage masks: at least one barrier (an execution-only wait is `SRC_STAGES:NONE -> DST_STAGES:NONE`)",
        ),
        (
            vec![Command::WaitEvents1 {
                events: vec![],
                dependency: Dependency {
                    barriers: vec![Barrier::default()],
                },
            }],
            "command 0: vkCmdWaitEvents waits for no event (eventCount must be greater than 0)",
        ),
    ];
    for (commands, want) in cases {
        let mut p = Program::new();
        p.buffer("a", 64).unwrap();
        p.event("e").unwrap();
        let err = p.extend(commands).unwrap_err();
        assert_eq!(err.to_string(), want);
    }
    // What needs the program's order is checked by `resolve`.
    let mut p = Program::new();
    p.buffer("a", 64).unwrap();
    p.event("e").unwrap();
    p.extend([
        Command::SetEvent1 {
            event: vksync::EventId(0),
            stage_mask: S::TRANSFER,
        },
        wait(S::COMPUTE_SHADER, S::TRANSFER, A::NONE),
    ])
    .unwrap();
    assert_eq!(
        vksync::resolve(&p).unwrap_err().to_string(),
        "command 1: srcStageMask COMPUTE_SHADER of vkCmdWaitEvents is not TRANSFER, the OR of the stage masks its events were set with (and HOST for an event the host set) (VUID-vkCmdWaitEvents-srcStageMask-01158)"
    );
}

#[test]
fn events_round_trip_and_planners_replan_them() {
    let text = format!(
        "{HEADER}host-reset-event f\nhost-set-event f\nfill a 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64]; COPY:NONE -> CLEAR:NONE\nwait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64]; COPY:NONE -> CLEAR:NONE, f HOST:HOST_WRITE -> COPY:TRANSFER_READ\nreset-event e COPY\nset-event1 e TRANSFER|COMPUTE_SHADER\nwait-events1 e f COMPUTE_SHADER|TRANSFER|HOST:SHADER_WRITE|HOST_WRITE -> TRANSFER:TRANSFER_READ a[0..64]; COMPUTE_SHADER|TRANSFER|HOST:NONE -> TRANSFER:NONE\nwait-events1 e f ALL_TRANSFER|COMPUTE_SHADER|HOST:NONE -> HOST:HOST_READ\nreset-event e ALL_COMMANDS\n"

    );
    let t = trace::parse(&text).unwrap();
    let printed = trace::print(&t.program);
    assert_eq!(trace::parse(&printed).unwrap().program, t.program);
    // The planners drop events with the other synchronization and plan
    // anew: the bound is the barrier-free program's.
    let plain = trace::parse(
        &text
            .lines()
            .filter(|l| !l.contains("event"))
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    )
    .unwrap();
    assert_eq!(
        vksync::plan::stabbing_bound(&t.program, Reading::MemoryModel),
        vksync::plan::stabbing_bound(&plain.program, Reading::MemoryModel)
    );
}

/// A host set or reset of an event that a submitted wait-events waits
/// for, before the host knows that wait complete: `vkSetEvent` "event
/// must not be waited on by a command buffer in the pending state"
/// (VUID-vkSetEvent-event-09543) and `vkResetEvent` needs an execution
/// dependency after the wait (VUID-vkResetEvent-event-03822, -03821).
/// The host knows a wait complete after `wait`, `wait QUEUE` of its
/// queue, or a `host-wait` for a value its queue signals, with
/// `ALL_COMMANDS`, at or after the wait's submit. Each body is parsed
/// (error at its token) and the parsed program is resolved again (the
/// same rule for programs built in code).
#[test]
fn the_host_sets_or_resets_an_event_only_when_no_pending_wait_waits_for_it() {
    const WAITED: &str =
        "host-set-event e\nwait-events e HOST:HOST_WRITE -> CLEAR:TRANSFER_WRITE\nfill a 1\n";
    const SET: &str = "set-event1 e TRANSFER\nwait-events1 e TRANSFER:NONE -> TRANSFER:NONE\n";
    let header = "buffer a 256\nqueue q0\nqueue q1\nsemaphore t timeline\nsemaphore s\nevent e\n";
    let reset = |line: usize, col: usize, q: &str| {
        format!("{line}:{col}: event `e` is reset by the host while a submitted wait-events on queue `{q}` waits for it and the host has not waited for that wait's batch (`wait`, `wait {q}`, or a `wait QUEUE` or host-wait that semaphores signalled and waited with ALL_COMMANDS order after it): vkResetEvent needs an execution dependency after the wait (VUID-vkResetEvent-event-03822, VUID-vkResetEvent-event-03821)")
    };
    let set = |line: usize, col: usize, q: &str| {
        format!("{line}:{col}: event `e` is set by the host while a submitted wait-events on queue `{q}` waits for it and the host has not waited for that wait's batch (`wait`, `wait {q}`, or a `wait QUEUE` or host-wait that semaphores signalled and waited with ALL_COMMANDS order after it): an event a pending command buffer waits on must not be set by the host, which sets it before submitting the wait (VUID-vkSetEvent-event-09543)")
    };
    let op = |line: usize, col: usize, host: &str, device: &str, q: &str| {
        format!("{line}:{col}: event `e` is {host} by the host while a submitted {device} of it on queue `{q}` may not have executed (the host has not waited for its batch: `wait`, `wait {q}`, or a `wait QUEUE` or host-wait that semaphores signalled and waited with ALL_COMMANDS order after it): the device may execute it after the host's operation, and the event is then not in the state the program goes on with (a set of a signaled event has no effect)")
    };
    let cases: Vec<(String, Option<String>)> = vec![
        // A submitted device set or reset is pending too (review21): it
        // may execute after the host's reset or set.
        (
            "set-event1 e TRANSFER\nsubmit q0\nhost-reset-event e\n".into(),
            Some(op(9, 18, "reset", "set-event1", "q0")),
        ),
        (
            "set-event e CLEAR:NONE -> COPY:NONE\nreset-event e\nsubmit q0\nhost-set-event e\n".into(),
            Some(op(10, 16, "set", "set-event", "q0")),
        ),
        (
            "set-event1 e TRANSFER\nsubmit q0\nwait q0\nhost-reset-event e\nset-event1 e TRANSFER\n".into(),
            None,
        ),
        // Pending: refused.
        (
            format!("{WAITED}submit q0\nhost-reset-event e\n"),
            Some(reset(11, 18, "q0")),
        ),
        (
            format!("{WAITED}submit q0\nhost-reset-event e\nhost-set-event e\n"),
            Some(reset(11, 18, "q0")),
        ),
        (
            format!("{SET}submit q1\nhost-reset-event e\n"),
            Some(reset(10, 18, "q1")),
        ),
        (
            format!("{WAITED}submit q0\nwait q1\nhost-reset-event e\n"),
            Some(reset(12, 18, "q0")),
        ),
        // A device reset after the wait: the host set is still refused.
        (
            format!("{WAITED}reset-event e\nsubmit q0\nhost-set-event e\n"),
            Some(set(12, 16, "q0")),
        ),
        // The signal is submitted before the wait, or has fewer stages,
        // or is another value: not followed.
        (
            format!("submit q0 signal t:1\n{WAITED}submit q0\nhost-wait t 1\nhost-reset-event e\n"),
            Some(reset(13, 18, "q0")),
        ),
        (
            format!("{WAITED}submit q0 signal t:1@CLEAR\nhost-wait t 1\nhost-reset-event e\n"),
            Some(reset(12, 18, "q0")),
        ),
        (
            format!("{WAITED}submit q0 signal t:1\nhost-wait t 2\nhost-reset-event e\n"),
            Some(reset(12, 18, "q0")),
        ),
        // A fence waits for every operation of its queue's batches, the
        // semaphore waits too, whatever their masks: `wait q1` shows q0's
        // signal ran (until 2026-12-01 this was refused, a false refusal
        // found in review). A chain through another queue's later
        // commands with a narrower wait mask is still not followed.
        (
            format!("{WAITED}submit q0 signal s\nsubmit q1 wait s@COPY\nwait q1\nhost-reset-event e\n"),
            None,
        ),
        (
            format!("{WAITED}submit q0 signal s\nsubmit q1 wait s@COPY signal t:1\nhost-wait t 1\nhost-reset-event e\n"),
            Some(reset(13, 18, "q0")),
        ),
        // The host wait returns at the first signal to reach 1: q1's, not
        // q0's later 3 (which waits for it: VUID-VkSubmitInfo2-semaphore-03882).
        (
            format!("{WAITED}submit q0\nsubmit q1 signal t:1\nsubmit q0 wait t:1@ALL_COMMANDS signal t:3\nhost-wait t 1\nhost-reset-event e\n"),
            Some(reset(14, 18, "q0")),
        ),
        // The host's own signal reaches 1 while q0's batch (which waits
        // for it) has not run.
        (
            format!("{WAITED}submit q0 wait t:1@ALL_COMMANDS signal t:2\nhost-signal t 1\nhost-wait t 1\nhost-reset-event e\n"),
            Some(reset(13, 18, "q0")),
        ),
        // The initial value already meets the host wait: it shows nothing
        // of q0's batch, which signals a greater value.
        (
            format!("semaphore u timeline 5\n{WAITED}submit q0 signal u:6\nhost-wait u 3\nhost-reset-event e\n"),
            Some(reset(13, 18, "q0")),
        ),
        // A queue's timeline wait met only by a greater value is not
        // followed (conservative: a later host signal could meet it).
        (
            format!("{WAITED}submit q0 signal t:2\nsubmit q1 wait t:1@ALL_COMMANDS\nwait q1\nhost-reset-event e\n"),
            Some(reset(13, 18, "q0")),
        ),
        // Complete: accepted.
        // Through semaphores to another queue the host waits for: a
        // binary one with `wait q1`, a timeline one with a host-wait.
        (
            format!("{WAITED}submit q0 signal s\nsubmit q1 wait s@ALL_COMMANDS\nwait q1\nhost-reset-event e\n"),
            None,
        ),
        (
            format!("{WAITED}submit q0 signal t:1\nsubmit q1 wait t:1@ALL_COMMANDS signal t:2\nhost-wait t 2\nhost-reset-event e\n"),
            None,
        ),
        (
            format!("{WAITED}submit q0\nwait\nhost-reset-event e\nhost-set-event e\n"),
            None,
        ),
        (format!("{WAITED}submit q0\nwait q0\nhost-reset-event e\n"), None),
        (
            format!("{WAITED}submit q0 signal t:2\nhost-wait t 1\nhost-reset-event e\n"),
            None,
        ),
        (
            format!("{WAITED}submit q0\nsubmit q0 signal t:1\nhost-wait t 1\nhost-reset-event e\n"),
            None,
        ),
        // Not submitted yet: no pending command buffer, but the host's
        // reset runs before the recorded wait, which then never ends
        // (review48; accepted before).
        (
            format!("{WAITED}host-reset-event e\nsubmit q0\n"),
            Some("10:18: event `e` is reset by the host while a wait-events of it is recorded and not yet submitted: the host's call runs before that command, which runs only once its batch is submitted, not where the trace writes it; vksync does not reorder them (write the host's call before the recording or after the submit, as `vksync capture` does)".to_string()),
        ),
        // A device reset, then a host set before the wait's submit: the
        // host's set runs first, and the recorded set-event1 then finds the
        // event set (accepted before).
        (
            format!("{SET}reset-event e\nhost-set-event e\nsubmit q1\n"),
            Some("10:16: event `e` is set by the host while a set-event1 of it is recorded and not yet submitted: the host's call runs before that command, which runs only once its batch is submitted, not where the trace writes it; vksync does not reorder them (write the host's call before the recording or after the submit, as `vksync capture` does)".to_string()),
        ),
    ];
    for (body, want) in cases {
        let text = format!("{header}{body}");
        match (trace::parse(&text), &want) {
            (Ok(t), None) => {
                vksync::resolve(&t.program).unwrap_or_else(|e| panic!("{body}: resolve: {e}"));
            }
            (Err(e), Some(w)) => assert_eq!(&e.to_string(), w, "{body}"),
            (got, _) => panic!("{body}: got {:?}, want {want:?}", got.map(|_| ())),
        }
    }
    // The same rule for programs built in code: the last refused case
    // above, parsed without the host reset, then built on.
    let t = trace::parse(&format!("{header}{WAITED}submit q0\n")).unwrap();
    let mut p = t.program;
    p.extend([vksync::Command::HostResetEvent {
        event: vksync::EventId(0),
    }])
    .unwrap();
    let err = vksync::resolve(&p).unwrap_err().to_string();
    assert!(
        err.starts_with(
            "command 4: event `e` is reset by the host while a submitted wait-events on queue `q0`"
        ),
        "{err}"
    );
}

/// One row of [`layout_transitions_in_events`]: the definitional
/// semantics' races must be `expected` (as in [`case`]), and each fast
/// checker must find the same (command, kind, bytes) under both readings:
/// the single-queue checker on the trace as written, the multi-queue walk
/// on the same trace with a second queue (`queue qa`, `queue qb` before
/// it, its commands submitted to `qa`, an empty batch to `qb` after them;
/// the races are the same, two lines later).
fn transition_case(name: &str, body: &str, expected: &[&str]) {
    use vksync::{check_program, DecidedBy};
    for (prefix, suffix, shift, decider) in [
        ("", "", 0usize, DecidedBy::SingleQueue),
        (
            "queue qa\nqueue qb\n",
            "submit qa\nsubmit qb\n",
            2,
            DecidedBy::MultiQueueWalk,
        ),
    ] {
        let text = format!("{prefix}{HEADER}{body}{suffix}");
        let t = trace::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let names = ["a", "b", "c", "im"];
        let line = |c: usize| t.command_lines[c] - shift;
        for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
            let found = races(&t.program, reading).unwrap_or_else(|e| panic!("{name}: {e}"));
            if reading == Reading::MemoryModel {
                let mut got: Vec<String> = found
                    .iter()
                    .map(|r| {
                        format!(
                            "L{} {} {}[{}] after L{}",
                            line(r.command),
                            r.kind,
                            names[r.mem.0 as usize],
                            r.range,
                            line(r.prior_command)
                        )
                    })
                    .collect();
                got.sort();
                got.dedup();
                assert_eq!(got, expected, "case `{name}` ({decider:?}):\n{body}");
            }
            let checked = check_program(&t.program, Semantics::for_reading(reading))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(checked.decided_by, decider, "case `{name}`");
            let key = |c: usize, k: String, m: u32, s: u64, e: u64| (line(c), k, m, s, e);
            let mut fast: Vec<_> = checked
                .hazards
                .iter()
                .map(|h| {
                    key(
                        h.command,
                        h.kind.to_string(),
                        h.memory.mem.0,
                        h.memory.range.start,
                        h.memory.range.end,
                    )
                })
                .collect();
            let mut spec: Vec<_> = found
                .iter()
                .map(|r| key(r.command, r.kind.to_string(), r.mem.0, r.range.start, r.range.end))
                .collect();
            fast.sort();
            fast.dedup();
            spec.sort();
            spec.dedup();
            assert_eq!(
                fast, spec,
                "case `{name}` ({reading:?}, {decider:?}): fast checker and definitional semantics differ"
            );
        }
    }
}

/// Image layout transitions in events (`docs/semantics.md`, "Events"):
/// a `vkCmdSetEvent2` performs its barriers' transitions at the set,
/// after their first halves and before the signal, so the wait orders
/// them before its second scopes and nothing between the set and the
/// wait is ordered after them; a `vkCmdWaitEvents` performs them as part
/// of its own memory dependency. `a[0..64]` plays the image (the coarse
/// form: no layouts); lines as in [`case`].
#[test]
fn layout_transitions_in_events() {
    let rows: &[(&str, &str, &[&str])] = &[
        // vkCmdSetEvent2 / vkCmdWaitEvents2.
        (
            "a read before the set, in the set's first scope, is ordered before the transition",
            "copy a -> b\nset-event e COPY:NONE -> COPY:TRANSFER_READ a[0..64] transition\nwait-events e COPY:NONE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a -> c\n",
            &[],
        ),
        (
            "a read before the set, not in its first scope, races the transition",
            "copy a -> b\nset-event e CLEAR:NONE -> COPY:TRANSFER_READ a[0..64] transition\nwait-events e CLEAR:NONE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a -> c\n",
            &["L7 WRITE_AFTER_READ a[0..64] after L6"],
        ),
        (
            "a write before the set, in its first access scope, is available before the transition",
            "fill a 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64] transition\nwait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]\n",
            &[],
        ),
        (
            "a write before the set, not in its first access scope, races the transition (and the copy)",
            "fill a 1\nset-event e CLEAR:NONE -> COPY:TRANSFER_READ a[0..64] transition\nwait-events e CLEAR:NONE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]\n",
            &["L7 WRITE_AFTER_WRITE a[0..64] after L6", "L9 READ_AFTER_WRITE a[0..64] after L6"],
        ),
        (
            "the wait's second scopes see the transition's write",
            "set-event e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\nwait-events e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]\n",
            &[],
        ),
        (
            "a narrower second synchronization scope does not",
            "set-event e NONE:NONE -> CLEAR:NONE a[0..64] transition\nwait-events e NONE:NONE -> CLEAR:NONE a[0..64] transition\ncopy a[0..64] -> b[0..64]\n",
            &["L8 READ_AFTER_WRITE a[0..64] after L6"],
        ),
        (
            "nor a second access scope without the read's access",
            "set-event e NONE:NONE -> COPY:NONE a[0..64] transition\nwait-events e NONE:NONE -> COPY:NONE a[0..64] transition\ncopy a[0..64] -> b[0..64]\n",
            &["L8 READ_AFTER_WRITE a[0..64] after L6"],
        ),
        (
            "a write after the wait needs the order only (memory model)",
            "set-event e NONE:NONE -> CLEAR:NONE a[0..64] transition\nwait-events e NONE:NONE -> CLEAR:NONE a[0..64] transition\nfill a[0..64] 1\n",
            &[],
        ),
        (
            "a read between the set and the wait races the transition",
            "set-event e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]\nwait-events e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\n",
            &["L7 READ_AFTER_WRITE a[0..64] after L6"],
        ),
        (
            "a write between the set and the wait races it, and is not ordered by the wait",
            "set-event e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\nfill a[0..64] 1\nwait-events e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]\n",
            &["L7 WRITE_AFTER_WRITE a[0..64] after L6", "L9 READ_AFTER_WRITE a[0..64] after L7"],
        ),
        (
            "an ALL_COMMANDS first scope between the set and the wait holds the transition",
            "set-event e NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\nwait-events e NONE:NONE -> NONE:NONE a[0..64] transition\n",
            &[],
        ),
        (
            "a narrower first scope there does not",
            "set-event e NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier COPY:MEMORY_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\nwait-events e NONE:NONE -> NONE:NONE a[0..64] transition\n",
            &["L8 READ_AFTER_WRITE a[0..64] after L6"],
        ),
        (
            "an ALL_COMMANDS first scope after the set holds what the set made available before its transition",
            "fill a 1\nset-event e CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\nwait-events e CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..64] transition\n",
            &[],
        ),
        (
            "...which a set without the transition does not order before it",
            "fill a 1\nset-event e CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..64]\nbarrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\nwait-events e CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..64]\n",
            &["L9 READ_AFTER_WRITE a[0..64] after L6"],
        ),
        (
            "an ALL_COMMANDS second scope before the set orders a read before the transition",
            "copy a -> b\nbarrier COPY:NONE -> ALL_COMMANDS:NONE\nset-event e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\nwait-events e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\n",
            &[],
        ),
        (
            "...a narrower one does not",
            "copy a -> b\nbarrier COPY:NONE -> CLEAR:NONE\nset-event e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\nwait-events e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\n",
            &["L8 WRITE_AFTER_READ a[0..64] after L6"],
        ),
        (
            "only its own barrier orders a transition: another barrier of the set does not",
            "fill a 1\nset-event e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition; CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nwait-events e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition; CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\n",
            &["L7 WRITE_AFTER_WRITE a[0..64] after L6"],
        ),
        (
            "an ALL_COMMANDS set holds an earlier transition",
            "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nset-event e ALL_COMMANDS:NONE -> COPY:TRANSFER_READ a[0..64] transition\nwait-events e ALL_COMMANDS:NONE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]\n",
            &[],
        ),
        // vkCmdSetEvent / vkCmdWaitEvents.
        (
            "sync 1: a write before the set is made available at the wait, before its transition",
            "fill a 1\nset-event1 e TRANSFER\nwait-events1 e TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]\n",
            &[],
        ),
        (
            "sync 1: without the wait's first access scope it races the transition",
            "fill a 1\nset-event1 e TRANSFER\nwait-events1 e TRANSFER:NONE -> TRANSFER:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]\n",
            &["L8 WRITE_AFTER_WRITE a[0..64] after L6", "L9 READ_AFTER_WRITE a[0..64] after L6"],
        ),
        (
            "sync 1: a write between the set and the wait races the transition",
            "set-event1 e TRANSFER\nfill a 1\nwait-events1 e TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]\n",
            &["L8 WRITE_AFTER_WRITE a[0..64] after L7", "L9 READ_AFTER_WRITE a[0..64] after L7"],
        ),
        (
            "sync 1: a read that reached the set is ordered before the transition",
            "copy a -> c\nbarrier TRANSFER:NONE -> COMPUTE_SHADER:NONE\nset-event1 e COMPUTE_SHADER\nwait-events1 e COMPUTE_SHADER:NONE -> TRANSFER:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]\n",
            &[],
        ),
        (
            "sync 1: the transition is visible to the wait's second scopes only",
            "set-event1 e TRANSFER\nwait-events1 e TRANSFER:NONE -> COMPUTE_SHADER:NONE a[0..64] transition\ncopy a[0..64] -> b[0..64]\n",
            &["L8 READ_AFTER_WRITE a[0..64] after L7"],
        ),
        (
            "sync 1: an ALL_COMMANDS second scope between the set and the wait orders a read before the wait's transition",
            "set-event1 e TRANSFER\ncopy a -> b\nbarrier COPY:NONE -> ALL_COMMANDS:NONE\nwait-events1 e TRANSFER:NONE -> TRANSFER:NONE a[0..64] transition\n",
            &[],
        ),
        (
            "sync 1: ...a narrower one does not",
            "set-event1 e TRANSFER\ncopy a -> b\nbarrier COPY:NONE -> CLEAR:NONE\nwait-events1 e TRANSFER:NONE -> TRANSFER:NONE a[0..64] transition\n",
            &["L9 WRITE_AFTER_READ a[0..64] after L7"],
        ),
        (
            "sync 1: a later ALL_COMMANDS first scope holds the wait's transition",
            "set-event1 e TRANSFER\nwait-events1 e TRANSFER:NONE -> TRANSFER:NONE a[0..64] transition\nbarrier ALL_COMMANDS:NONE -> TRANSFER:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\n",
            &[],
        ),
        (
            "sync 1: ...and what the wait made available before it",
            "fill a 1\nset-event1 e TRANSFER\nwait-events1 e TRANSFER:TRANSFER_WRITE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:NONE -> TRANSFER:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\n",
            &[],
        ),
    ];
    for (name, body, expected) in rows {
        transition_case(name, body, expected);
    }
}

/// Layouts along execution order with event transitions (`image`
/// declarations; `docs/semantics.md`, "Image layouts in execution
/// order"): a `vkCmdSetEvent2`'s transition sets `newLayout` at the set
/// (its wait changes nothing), a `vkCmdWaitEvents`'s at the wait. Between
/// the set and the wait a use in `newLayout` is the hazard checkers'
/// question (it races the transition unless ordered after it), a use in
/// another layout an error naming the set's event.
#[test]
fn event_transitions_change_layouts_where_they_are_performed() {
    const IM: &str = "image im R8G8B8A8_UNORM 8x8\nbarrier NONE:NONE -> COPY:TRANSFER_WRITE im COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL\ncopy-buffer-to-image a -> im TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=8,8,1\n";
    const SET: &str = "set-event e COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ im COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL\n";
    const WAIT: &str = "wait-events e COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ im COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL\n";
    const SRC: &str =
        "copy-image-to-buffer im TRANSFER_SRC_OPTIMAL -> b imageSubresource=COLOR:0:0 imageExtent=8,8,1\n";
    const DST: &str =
        "copy-buffer-to-image a -> im TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=8,8,1\n";
    const SET1: &str = "set-event1 e TRANSFER\n";
    const WAIT1: &str = "wait-events1 e TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ im COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL\n";
    transition_case(
        "the copy after the wait reads the transitioned image",
        &format!("{IM}{SET}{WAIT}{SRC}"),
        &[],
    );
    transition_case(
        "a copy in newLayout between the set and the wait races the transition",
        &format!("{IM}{SET}{SRC}{WAIT}"),
        &[
            "L10 READ_AFTER_WRITE im[0..256] after L7",
            "L10 READ_AFTER_WRITE im[0..256] after L8",
            "L10 READ_AFTER_WRITE im[0..256] after L9",
        ],
    );
    transition_case(
        "...unless an ALL_COMMANDS barrier after the set orders it",
        &format!("{IM}{SET}barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\n{SRC}{WAIT}"),
        &[],
    );
    transition_case(
        "another transition between the set and the wait sees newLayout (transitions keep submission order)",
        &format!(
            "{IM}{SET}barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ im COLOR:0:0 TRANSFER_SRC_OPTIMAL->GENERAL\n{WAIT}copy-image-to-buffer im GENERAL -> b imageSubresource=COLOR:0:0 imageExtent=8,8,1\n"
        ),
        &[],
    );
    transition_case(
        "sync 1: the wait transitions",
        &format!("{IM}{SET1}{WAIT1}{SRC}"),
        &[],
    );
    let refused: &[(&str, String, &str)] = &[
        (
            "a copy in oldLayout between the set and the wait",
            format!("{IM}{SET}{DST}{WAIT}"),
            "10:1: vkCmdCopyBufferToImage uses image `im` subresource COLOR mip 0 layer 0 in layout TRANSFER_DST_OPTIMAL between the vkCmdSetEvent2 of event `e` and its wait: the set performs the layout transition TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL of that subresource (its second synchronization scope includes \"image layout transitions defined by pDependencyInfo\"), unordered with what is recorded between the set and the wait, so the layout there is TRANSFER_SRC_OPTIMAL where that transition has happened and undetermined where it may not have; never TRANSFER_DST_OPTIMAL (\"Image Layout Transitions\")",
        ),
        (
            "a copy in oldLayout after the wait",
            format!("{IM}{SET}{WAIT}{DST}"),
            "11:1: vkCmdCopyBufferToImage uses image `im` subresource COLOR mip 0 layer 0 in layout TRANSFER_DST_OPTIMAL, but its layout is TRANSFER_SRC_OPTIMAL at that point (VUID-vkCmdCopyBufferToImage-dstImageLayout-00180)",
        ),
        (
            "sync 1: a copy in newLayout between the set and the wait (the wait transitions)",
            format!("{IM}{SET1}{SRC}{WAIT1}"),
            "10:1: vkCmdCopyImageToBuffer uses image `im` subresource COLOR mip 0 layer 0 in layout TRANSFER_SRC_OPTIMAL, but its layout is TRANSFER_DST_OPTIMAL at that point (VUID-vkCmdCopyImageToBuffer-srcImageLayout-00189)",
        ),
        (
            "sync 1: the wait's oldLayout is the layout at the wait",
            format!("{IM}barrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ im COLOR:0:0 TRANSFER_DST_OPTIMAL->GENERAL\n{SET1}{WAIT1}"),
            "11:1: barrier 0: oldLayout TRANSFER_DST_OPTIMAL of image `im` subresource COLOR mip 0 layer 0 is neither UNDEFINED nor its current layout GENERAL (VUID-VkImageMemoryBarrier2-oldLayout-01197)",
        ),
    ];
    for (name, body, want) in refused {
        let text = format!("{HEADER}{body}");
        let t = trace::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let err = vksync::check(&t.program).expect_err(name);
        let vksync::Location::Command(c) = err.at else {
            panic!("{name}: {err}");
        };
        assert_eq!(format!("{}:1: {}", t.command_lines[c], err.kind), *want, "{name}");
    }
}

/// Two false alarms of the fast checkers on pipeline barriers, found while
/// adding event transitions (the definitional semantics reported neither):
/// a write made available by a barrier with a transition and an empty
/// second scope is ordered, through that transition, before a later
/// `ALL_COMMANDS` first scope, and so before that barrier's own
/// transition (the single-queue checker reported a write-after-write
/// there) and visible to its second access scope (the multi-queue walk
/// reported a read-after-write).
#[test]
fn an_all_commands_first_scope_holds_what_an_earlier_transition_followed() {
    transition_case(
        "a later transition",
        "fill a 1\nbarrier CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:NONE -> NONE:NONE a[0..64] transition\n",
        &[],
    );
    transition_case(
        "a later read",
        "fill a 1\nbarrier CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\n",
        &[],
    );
    transition_case(
        "a narrower first scope holds neither",
        "fill a 1\nbarrier CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..64] transition\nbarrier COPY:NONE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]\n",
        &[
            "L8 WRITE_AFTER_WRITE a[0..64] after L6",
            "L9 READ_AFTER_WRITE a[0..64] after L6",
            "L9 READ_AFTER_WRITE a[0..64] after L7",
        ],
    );
}

/// The planners drop events but keep the layout transitions an event
/// performs, as a pipeline barrier with the scopes the program needs at
/// the place it performs them: a `set-event`'s at the set, a
/// `wait-events1`'s at the wait (a `wait-events` performs none). Every
/// planner's plan then checks clean and keeps the layouts valid (the
/// layout rules run in `check`), and the transitions are where the input
/// had them.
#[test]
fn planners_keep_an_events_transitions_where_it_performs_them() {
    use vksync::plan::{plan, PlanOptions, PlannerKind};
    use vksync::Command;
    const IM: &str = "image im R8G8B8A8_UNORM 8x8\nbarrier NONE:NONE -> COPY:TRANSFER_WRITE im COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL\ncopy-buffer-to-image a -> im TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=8,8,1\n";
    const SRC: &str =
        "copy-image-to-buffer im TRANSFER_SRC_OPTIMAL -> b imageSubresource=COLOR:0:0 imageExtent=8,8,1\n";
    let sync2 = format!(
        "{IM}set-event e COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ im COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL\nfill c 1\nwait-events e COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ im COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL\n{SRC}"
    );
    let sync1 = format!(
        "{IM}set-event1 e TRANSFER\nfill c 1\nwait-events1 e TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ im COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL\n{SRC}"
    );
    // (body, the input's index of the command performing the transition)
    for (body, at) in [(sync2, 2usize), (sync1, 4)] {
        let t = trace::parse(&format!("{HEADER}{body}")).unwrap();
        let input = vksync::plan::planning_input(&t.program);
        // The barrier-free input: the first transition, the copy, the
        // event's transition in place of its command, the fill, the copy.
        let transitions: Vec<usize> = input
            .commands()
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(c, Command::Barrier(d) if d.barriers.iter().any(|b| b.transition)))
            .map(|(i, _)| i)
            .collect();
        let kept = if at == 2 { 2 } else { 3 };
        assert_eq!(transitions, [0, kept], "{body}\n{}", trace::print(&input));
        assert_eq!(input.commands().len(), 5, "{}", trace::print(&input));
        for kind in [
            PlannerKind::Conservative,
            PlannerKind::Online,
            PlannerKind::Offline,
        ] {
            let p = plan(&t.program, PlanOptions::new(kind)).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
            let hazards = vksync::check(&p.program).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
            assert!(hazards.is_empty(), "{kind:?}:\n{}", trace::print(&p.program));
            // The event's transition kept its origin.
            assert!(
                p.origin.iter().enumerate().any(|(k, o)| *o == Some(kept)
                    && matches!(&p.program.commands()[k], Command::Barrier(d) if d.barriers.iter().any(|b| b.transition))),
                "{kind:?}:\n{}",
                trace::print(&p.program)
            );
        }
    }
}

/// A hazard between an event's transition and a command its own scopes
/// cannot reach gets a fix that can: a command between a set and its wait
/// after the set's transition, a command between the sets and a
/// `wait-events1` before the wait's transition. The fix applied, the
/// program checks clean.
#[test]
fn fixes_of_event_transitions_name_an_all_commands_barrier() {
    let rows: &[(&str, &str, &str, &str)] = &[
        (
            "set-event e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]\nwait-events e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\n",
            "record `barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ` after line 6 (its first scope holds the layout transition of the set-event of `e`, after which nothing recorded before the event's wait is ordered otherwise), or move the command after the wait",
            "set-event e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\n",
            "barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\n",
        ),
        (
            "set-event1 e TRANSFER\ncopy a[0..64] -> b[0..64]\nwait-events1 e TRANSFER:NONE -> TRANSFER:NONE a[0..64] transition\n",
            "record `barrier COPY:NONE -> ALL_COMMANDS:NONE` after line 7 (its second scope holds the layout transition of the wait-events1, whose own first scope holds only what precedes the sets it waits for), or move the command before the sets",
            "copy a[0..64] -> b[0..64]\n",
            "barrier COPY:NONE -> ALL_COMMANDS:NONE\n",
        ),
    ];
    for (body, want, after, fix) in rows {
        let t = trace::parse(&format!("{HEADER}{body}")).unwrap();
        let hazards = vksync::check(&t.program).unwrap();
        assert_eq!(hazards.len(), 1, "{body}");
        assert_eq!(
            hazards[0].fix_text_at(&t.program, &t.command_lines),
            *want,
            "{body}"
        );
        let fixed = body.replacen(after, &format!("{after}{fix}"), 1);
        let t = trace::parse(&format!("{HEADER}{fixed}")).unwrap();
        assert_eq!(vksync::check(&t.program).unwrap(), [], "{fixed}");
        let spec = races(&t.program, Reading::MemoryModel).unwrap();
        assert!(spec.is_empty(), "{fixed}: {spec:?}");
    }
}

/// Event transitions print and parse back (coarse and exact images, both
/// generations).
#[test]
fn event_transitions_round_trip() {
    let text = format!(
        "{HEADER}image im R8G8B8A8_UNORM 8x8 mips 2\nbarrier NONE:NONE -> NONE:NONE im COLOR:0..:0 UNDEFINED->GENERAL\n\
         set-event e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition; CLEAR:NONE -> NONE:NONE im COLOR:0..:0 GENERAL->TRANSFER_SRC_OPTIMAL\n\
         wait-events e NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition; CLEAR:NONE -> NONE:NONE im COLOR:0..:0 GENERAL->TRANSFER_SRC_OPTIMAL\n\
         set-event1 f TRANSFER\nwait-events1 f TRANSFER:NONE -> TRANSFER:NONE im COLOR:1:0 TRANSFER_SRC_OPTIMAL->GENERAL; TRANSFER:NONE -> TRANSFER:NONE b[0..16] transition\n"
    );
    let t = trace::parse(&text).unwrap();
    let printed = trace::print(&t.program);
    assert_eq!(trace::parse(&printed).unwrap().program, t.program, "{printed}");
    vksync::check(&t.program).unwrap();
}

/// A host-set event in a frame loop: each frame the host writes, sets the
/// event, and a batch waits for it; after a fence wait the host resets it
/// for the next frame. A valid program sets an event on the host only
/// while no submitted wait of it is pending, so no batch submitted before
/// a host set waits for it, and the planners drop the events with the
/// other synchronization (they refused the second frame's set, "a batch
/// submitted before it waits for", until 2026-12-07). Both planners plan
/// it, and the plans check clean under both checkers.
#[test]
fn a_host_set_event_in_a_frame_loop_is_planned() {
    let frame = "host-write a\nhost-set-event e\nwait-events e HOST:HOST_WRITE -> COPY:TRANSFER_READ\ncopy a -> b\nsubmit\nwait\n";
    let text = format!(
        "buffer a 64\nbuffer b 64\nevent e\n{frame}host-reset-event e\n{frame}host-reset-event e\n{frame}"
    );
    use vksync::plan::{plan, PlanOptions, PlannerKind};
    let program = trace::parse(&text).unwrap().program;
    for planner in [PlannerKind::Online, PlannerKind::Offline] {
        let planned = plan(&program, PlanOptions::new(planner))
            .unwrap_or_else(|e| panic!("{planner:?}: {e}"))
            .program;
        assert!(vksync::check(&planned).unwrap().is_empty(), "{planner:?}");
        for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
            assert!(
                races(&planned, reading).unwrap().is_empty(),
                "{planner:?} {reading:?}"
            );
        }
    }
}

/// review48: device commands of one event on two queues must be ordered:
/// a set on `qa` not ordered before `qb`'s reset, set and wait may run
/// between them, making `qb`'s set a no-op and its wait one on `qa`'s
/// signal ("vkCmdWaitEvents2 must not be used to wait on event signal
/// operations occurring on other queues"). Ordered by a semaphore with
/// `ALL_COMMANDS`, or by the host's wait for `qa`, it is valid; a
/// narrower wait mask is not followed (conservative: a refusal).
#[test]
fn an_event_on_two_queues_needs_its_commands_ordered() {
    let program = |signal: &str, between: &str, wait: &str| {
        format!(
            "queue qa\nqueue qb\nevent e\nsemaphore s\nbuffer a 64\nbuffer b 64\n\
             set-event e COPY:NONE -> COPY:NONE\nsubmit qa{signal}\n{between}\
             fill a 1\nreset-event e\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\n\
             wait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a -> b\nsubmit qb{wait}\n"
        )
    };
    let refused = |line: usize, mask: &str| {
        format!(
            "{line}:1: event `e` has a reset-event on queue `qb` while a set-event of it on queue `qa` is not ordered before it (the host has not waited for that batch, and no semaphore chain with ALL_COMMANDS orders it before this one): the two may execute in either order, and events order commands of one queue only (a set of a signaled event has no effect, and a wait must not wait on another queue's set){mask}"
        )
    };
    let cases: &[(String, Option<String>)] = &[
        (program("", "", ""), Some(refused(14, ""))),
        (program(" signal s", "", " wait s@COPY"), Some(refused(14, ""))),
        (program(" signal s", "", " wait s@ALL_COMMANDS"), None),
        (program(" signal s", "", " wait s@TOP_OF_PIPE"), None),
        (program("", "wait qa\n", ""), None),
        (program("", "wait\n", ""), None),
    ];
    for (text, want) in cases {
        match (trace::parse(text), want) {
            (Ok(t), None) => {
                vksync::resolve(&t.program).unwrap_or_else(|e| panic!("{text}: resolve: {e}"));
                assert!(vksync::check(&t.program).unwrap().is_empty(), "{text}");
            }
            (Err(e), Some(w)) => {
                assert_eq!(&e.to_string(), w, "{text}");
            }
            (got, _) => panic!("{text}: got {:?}, want {want:?}", got.map(|_| ())),
        }
    }
    // Synchronization-1 commands are named as such.
    let text = "queue qa\nqueue qb\nevent f\nset-event1 f TRANSFER\nwait-events1 f TRANSFER:NONE -> TRANSFER:NONE\nreset-event f\nsubmit qa\nset-event1 f TRANSFER\nsubmit qb\n";
    let e = trace::parse(text).unwrap_err().to_string();
    assert!(
        e.starts_with("9:1: event `f` has a set-event1 on queue `qb` while a wait-events1 of it on queue `qa` is not ordered before it"),
        "{e}"
    );
    // Built in code, the same rule at the submit.
    let text = program("", "", "");
    let mut p = trace::parse(&text.replace("submit qb\n", "")).unwrap().program;
    let submit = trace::parse("queue qa\nqueue qb\nsubmit qb\n")
        .unwrap()
        .program
        .commands()[0]
        .clone();
    p.push(submit).unwrap();
    let e = vksync::resolve(&p).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("command 7: event `e` has a reset-event on queue `qb`"),
        "{e}"
    );
}
