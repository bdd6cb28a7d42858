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
    let names = ["a", "b", "c"];
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
            "a reset and a new set: the wait reaches only the new set's scope",
            "fill a 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nwait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\nreset-event e\nfill b 1\nset-event e COPY:NONE -> COPY:NONE\nwait-events e COPY:NONE -> COPY:NONE\ncopy b -> c\n",
            &["L13 READ_AFTER_WRITE b[0..256] after L10"],
        ),
    ];
    for (name, body, expected) in cases {
        case(name, body, expected);
    }
}

#[test]
fn invalid_event_programs_are_errors_at_their_token() {
    let cases: &[(&str, &str)] = &[
        ("wait-events g COPY:NONE -> COPY:NONE", "6:13: unknown event `g`"),
        ("wait-events e COPY:NONE -> COPY:NONE", "6:13: event `e` is waited on but not set (no set earlier in the trace, or a reset since): the wait would never end (VUID-vkCmdWaitEvents2-pEvents-03841)"),
        ("set-event e COPY:NONE -> COPY:NONE\nwait-events e CLEAR:NONE -> COPY:NONE", "7:13: the dependency info waited on for event `e` differs from the one it was set with (VUID-vkCmdWaitEvents2-pEvents-10788: exactly equal)"),
        ("set-event e COPY:NONE -> COPY:NONE a transition", "6:38: barrier 0 of event `e`: image layout transitions in an event's dependency info are not modelled (Vulkan performs them at the set)"),
        ("set-event e COPY:NONE -> COPY:NONE\nset-event e COPY:NONE -> COPY:NONE", "7:11: event `e` is already set: reset it first (a vkCmdSetEvent2 or vkSetEvent of a signaled event has no effect)"),
        ("set-event e HOST:NONE -> COPY:NONE", "6:11: barrier 0 of the set of event `e`: its stage masks may not include HOST (VUID-vkCmdSetEvent2-srcStageMask-09391, -dstStageMask-09392)"),
        ("host-set-event e\nwait-events e COPY:NONE -> COPY:NONE", "7:13: event `e` was set by the host: every barrier of its wait needs source stages exactly HOST (VUID-vkCmdWaitEvents2-pEvents-03839)"),
        ("set-event e COPY:NONE -> COPY:NONE\nreset-event e\nwait-events e COPY:NONE -> COPY:NONE", "8:13: event `e` is waited on but not set (no set earlier in the trace, or a reset since): the wait would never end (VUID-vkCmdWaitEvents2-pEvents-03841)"),
        ("set-event e", "6:12: expected the event's barriers: `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION] [; ...]`"),
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

#[test]
fn events_round_trip_and_are_refused_where_not_modelled() {
    let text = format!(
        "{HEADER}fill a 1\nset-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64]; COPY:NONE -> CLEAR:NONE\nset-event f COPY:NONE -> COPY:NONE\nwait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64]; COPY:NONE -> CLEAR:NONE, f COPY:NONE -> COPY:NONE\nreset-event e COPY\nhost-reset-event f\nhost-set-event f\nwait-events f HOST:HOST_WRITE -> COPY:TRANSFER_READ\n"
    );
    let t = trace::parse(&text).unwrap();
    let printed = trace::print(&t.program);
    assert_eq!(trace::parse(&printed).unwrap().program, t.program);
    let err = vksync::plan::stabbing_bound(&t.program, Reading::MemoryModel).unwrap_err();
    assert!(
        matches!(err.kind, vksync::ProgramErrorKind::EventsNotSupported { .. }),
        "{err}"
    );
    // With several queues the fast checker refuses events (the
    // definitional semantics decides them).
    let text = "buffer a 16\nqueue qa\nqueue qb\nevent e\nset-event e COPY:NONE -> COPY:NONE\nwait-events e COPY:NONE -> COPY:NONE\nsubmit qa\nsubmit qb\n";
    let t = trace::parse(text).unwrap();
    let err = vksync::check(&t.program).unwrap_err();
    assert!(
        matches!(err.kind, vksync::ProgramErrorKind::MultiQueueNotSupported { .. }),
        "{err}"
    );
    assert!(races(&t.program, Reading::MemoryModel).is_ok());
}
