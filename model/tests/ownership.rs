//! Queue family ownership transfers: one hazard case and one no-hazard
//! case per rule (`docs/semantics.md`, "Queue family ownership
//! transfers"), checked by both checkers under both readings
//! (`common::race_case`), and the ownership diagnostic
//! ([`vksync::check_ownership`]).
//!
//! Header: exclusive buffers `a`, `b`, a concurrent buffer `c` (256 bytes
//! each), queues `t` and `u` of family 1 and `g` of family 2, binary
//! semaphores `s`, `s2` (lines 1-8); a case's own lines start at 9.

mod common;

const HEADER: &str = "\
buffer a 256 exclusive
buffer b 256 exclusive
buffer c 256
queue t family 1
queue u family 1
queue g family 2
semaphore s
semaphore s2
";

fn case(name: &str, body: &str, expected: &[&str]) {
    common::race_case(HEADER, &["a", "b", "c"], name, body, expected, false);
}

#[test]
fn release_and_acquire_order_through_all_commands_only() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "the spec's pattern: release, signal and wait with ALL_COMMANDS, acquire",
            "fill a[0..256] 7
barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a ownership 1->2
submit t signal s@ALL_COMMANDS
barrier NONE:NONE -> COPY:TRANSFER_READ a ownership 1->2
copy a -> c
submit g wait s@ALL_COMMANDS
",
            &[],
        ),
        (
            "a signal in the writer's stage does not wait for the release",
            "fill a[0..256] 7
barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a ownership 1->2
submit t signal s@CLEAR
barrier NONE:NONE -> COPY:TRANSFER_READ a ownership 1->2
copy a -> c
submit g wait s@ALL_COMMANDS
",
            &[
                "L12 WRITE_AFTER_WRITE a[0..256] after L10",
                "L13 READ_AFTER_WRITE a[0..256] after L10",
            ],
        ),
        (
            "a wait in the reader's stage does not hold the acquire",
            "fill a[0..256] 7
barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a ownership 1->2
submit t signal s@ALL_COMMANDS
barrier NONE:NONE -> COPY:TRANSFER_READ a ownership 1->2
copy a -> c
submit g wait s@COPY
",
            &[
                "L12 WRITE_AFTER_WRITE a[0..256] after L9",
                "L12 WRITE_AFTER_WRITE a[0..256] after L10",
            ],
        ),
        (
            "the release's first scope misses the writer (the signal still makes it available)",
            "fill a[0..256] 7
barrier COPY:TRANSFER_WRITE -> NONE:NONE a ownership 1->2
submit t signal s@ALL_COMMANDS
barrier NONE:NONE -> COPY:TRANSFER_READ a ownership 1->2
copy a -> c
submit g wait s@ALL_COMMANDS
",
            &["L10 WRITE_AFTER_WRITE a[0..256] after L9"],
        ),
        (
            "the acquire's second scope misses the reader",
            "fill a[0..256] 7
barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a ownership 1->2
submit t signal s@ALL_COMMANDS
barrier NONE:NONE -> COMPUTE_SHADER:SHADER_STORAGE_READ a ownership 1->2
copy a -> c
submit g wait s@ALL_COMMANDS
",
            &["L13 READ_AFTER_WRITE a[0..256] after L12"],
        ),
        (
            "a release's destination scope is ignored: a later use on its queue races it",
            "fill a[0..256] 7
barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a ownership 1->2
copy a -> c
submit t
",
            &[
                "L11 READ_AFTER_WRITE a[0..256] after L9",
                "L11 READ_AFTER_WRITE a[0..256] after L10",
            ],
        ),
        (
            "an acquire's source scope is ignored: an earlier use on its queue races it",
            "fill a[0..256] 7
barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a ownership 2->1
submit g signal s@ALL_COMMANDS
copy a -> c
barrier COPY:TRANSFER_READ -> COPY:TRANSFER_READ a ownership 2->1
copy a -> c
submit t wait s@COPY
",
            &[
                "L13 WRITE_AFTER_READ a[0..256] after L12",
                "L13 WRITE_AFTER_WRITE a[0..256] after L9",
                "L13 WRITE_AFTER_WRITE a[0..256] after L10",
                "L14 WRITE_AFTER_WRITE c[0..256] after L12",
            ],
        ),
        (
            "a barrier with ALL_COMMANDS after the release orders it on its own queue",
            "fill a[0..256] 7
barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a ownership 1->2
barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ
copy a -> c
submit t
",
            &[],
        ),
        (
            "buffer barriers of other ranges leave the transfer's bytes alone",
            "fill a[0..256] 7
barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..128] ownership 1->2
submit t signal s@ALL_COMMANDS
barrier NONE:NONE -> COPY:TRANSFER_READ a[0..128] ownership 1->2
copy a[0..256] -> c[0..256]
submit g wait s@ALL_COMMANDS
",
            &[],
        ),
        (
            // "If the values of srcQueueFamilyIndex and dstQueueFamilyIndex
            // are equal, no ownership transfer is performed" (review41:
            // refused as "an ownership transfer with a layout transition").
            "equal families: a plain image barrier with its transition",
            "image im R32_UINT 4x4 exclusive
barrier NONE:NONE -> CLEAR:TRANSFER_WRITE im COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL
clear-color-image im TRANSFER_DST_OPTIMAL COLOR:0:0
barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ im COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL ownership 1->1
copy-image-to-buffer im TRANSFER_SRC_OPTIMAL -> c imageSubresource=COLOR:0:0 imageExtent=4,4,1
submit t
",
            &[],
        ),
    ];
    for (name, body, expected) in cases {
        case(name, body, expected);
    }
}

/// `check_ownership` on `HEADER` + `body`: each issue as
/// `L<line> <kind> <region> on <family>`.
fn ownership_case(name: &str, body: &str, expected: &[&str]) {
    let text = format!("{HEADER}{body}");
    let t = vksync::trace::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let issues = vksync::check_ownership(&t.program).unwrap_or_else(|e| panic!("{name}: {e}"));
    let got: Vec<String> = issues
        .iter()
        .map(|i| {
            let kind = format!("{:?}", i.kind);
            let kind = kind.split([' ', '{']).next().unwrap_or_default().to_string();
            format!(
                "L{} {kind} {} on {}",
                t.command_lines[i.command],
                t.program.show_region(i.region),
                i.family
            )
        })
        .collect();
    assert_eq!(got, expected, "case `{name}`:\n{body}");
}

#[test]
fn reads_without_a_transfer_and_invalid_transfers_are_reported() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "the spec's pattern",
            "fill a[0..256] 7
barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a ownership 1->2
submit t signal s@ALL_COMMANDS
barrier NONE:NONE -> COPY:TRANSFER_READ a ownership 1->2
copy a -> c
submit g wait s@ALL_COMMANDS
",
            &[],
        ),
        (
            "an acquire submitted before its release, waiting for it (review18 F3a)",
            // The order the waits guarantee, not the trace's: the acquire's
            // batch waits for the release's signal.
            "semaphore tl timeline
barrier NONE:NONE -> COPY:TRANSFER_READ a ownership 1->2
copy a -> c
submit g wait tl:1@ALL_COMMANDS
fill a[0..256] 1
barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a ownership 1->2
submit t signal tl:1
wait
",
            &[],
        ),
        (
            "a read submitted before the other family's write, waiting for it (review18 F3b)",
            "semaphore tl timeline
copy a -> c
submit g wait tl:1@ALL_COMMANDS
fill a[0..256] 1
submit t signal tl:1
wait
",
            &["L10 ReadWithoutTransfer a[0..256] on 2"],
        ),
        (
            "a read on another family without a transfer",
            "fill a[0..256] 7
submit t signal s@ALL_COMMANDS
copy a -> c
submit g wait s@ALL_COMMANDS
",
            &["L11 ReadWithoutTransfer a[0..256] on 2"],
        ),
        (
            "only the bytes the other family defined",
            "fill a[0..128] 7
submit t signal s@ALL_COMMANDS
copy a -> c
submit g wait s@ALL_COMMANDS
",
            &["L11 ReadWithoutTransfer a[0..128] on 2"],
        ),
        (
            "a concurrent buffer needs no transfer",
            "fill c[0..256] 7
submit t signal s@ALL_COMMANDS
copy c -> b
submit g wait s@ALL_COMMANDS
",
            &[],
        ),
        (
            "another queue of the same family needs no transfer",
            "fill a[0..256] 7
submit t signal s@ALL_COMMANDS
copy a -> c
submit u wait s@ALL_COMMANDS
",
            &[],
        ),
        (
            "overwriting on the new family needs no transfer (the old contents are not read)",
            "fill a[0..256] 7
submit t signal s@ALL_COMMANDS
fill a[0..256] 8
copy a -> c
submit g wait s@ALL_COMMANDS
",
            &[],
        ),
        (
            "the first use by a family takes a new buffer",
            "copy a -> c
submit g
",
            &[],
        ),
        (
            "a read after the release and before the acquire",
            "fill a[0..256] 7
barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a ownership 1->2
barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ
copy a -> c
submit t
",
            &["L12 ReadAfterRelease a[0..256] on 1"],
        ),
        (
            "an acquire of another range than the release's",
            "fill a[0..256] 7
barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a ownership 1->2
submit t signal s@ALL_COMMANDS
barrier NONE:NONE -> COPY:TRANSFER_READ a[0..128] ownership 1->2
copy a[0..128] -> c[0..128]
submit g wait s@ALL_COMMANDS
",
            &["L12 AcquireWithoutRelease a[0..128] on 2"],
        ),
        (
            "an acquire with no release",
            "barrier NONE:NONE -> COPY:TRANSFER_READ a ownership 1->2
copy a -> c
submit g
",
            &["L9 AcquireWithoutRelease a[0..256] on 2"],
        ),
        (
            "a release by a family that does not own the bytes",
            "fill a[0..256] 7
submit g
barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a ownership 1->2
submit t
",
            &["L11 ReleaseByNonOwner a[0..256] on 1"],
        ),
        (
            "a transfer on a queue of neither family",
            "barrier NONE:NONE -> NONE:NONE a ownership 2->3
submit t
",
            &["L9 NotOnEitherFamily a[0..256] on 1"],
        ),
        (
            // review41: a transition on the other family took the image
            // over silently; one from a defined layout keeps (reads) the
            // contents family 1 wrote.
            "an exclusive image moved to family 2 by a layout transition from GENERAL, no transfer",
            "image im R32_UINT 4x4 exclusive
barrier NONE:NONE -> CLEAR:TRANSFER_WRITE im COLOR:0:0 UNDEFINED->GENERAL
clear-color-image im GENERAL COLOR:0:0
submit t signal s@ALL_COMMANDS
barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ im COLOR:0:0 GENERAL->TRANSFER_SRC_OPTIMAL
copy-image-to-buffer im TRANSFER_SRC_OPTIMAL -> c imageSubresource=COLOR:0:0 imageExtent=4,4,1
submit g wait s@ALL_COMMANDS
",
            &["L13 ReadWithoutTransfer im[COLOR:0:0] on 2"],
        ),
        (
            "the same from UNDEFINED: the contents are discarded, nothing is read",
            "image im R32_UINT 4x4 exclusive
barrier NONE:NONE -> CLEAR:TRANSFER_WRITE im COLOR:0:0 UNDEFINED->GENERAL
clear-color-image im GENERAL COLOR:0:0
submit t signal s@ALL_COMMANDS
barrier ALL_COMMANDS:NONE -> CLEAR:TRANSFER_WRITE im COLOR:0:0 UNDEFINED->GENERAL
clear-color-image im GENERAL COLOR:0:0
submit g wait s@ALL_COMMANDS
",
            &[],
        ),
    ];
    for (name, body, expected) in cases {
        ownership_case(name, body, expected);
    }
}

#[test]
fn ownership_lines_round_trip_and_errors_name_the_column() {
    let text =
        format!("{HEADER}barrier COPY:TRANSFER_WRITE -> NONE:NONE a[0..64] ownership 1->2\nsubmit t\n");
    let t = vksync::trace::parse(&text).expect("valid");
    let printed = vksync::trace::print(&t.program);
    assert!(printed.contains("buffer a 256 exclusive\n"), "{printed}");
    assert!(printed.contains("a[0..64] ownership 1->2\n"), "{printed}");
    assert_eq!(
        vksync::trace::parse(&printed).expect("reparses").program,
        t.program
    );
    let errors = [
        ("barrier NONE:NONE -> NONE:NONE ownership 1->2", "9:32: an ownership transfer needs a region (a buffer memory barrier): `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS REGION ownership SRC->DST`"),
        ("barrier NONE:NONE -> NONE:NONE a ownership 1-2", "9:44: expected `SRC_FAMILY->DST_FAMILY` (queue family indices), found `1-2`"),
        ("barrier NONE:NONE -> NONE:NONE a ownership", "9:43: expected `SRC_FAMILY->DST_FAMILY` after `ownership`"),
        ("barrier NONE:NONE -> NONE:NONE c ownership 1->2", "9:34: `c` is VK_SHARING_MODE_CONCURRENT: its barriers transfer no ownership (VUID-VkBufferMemoryBarrier2-buffer-04088); declare it `exclusive`"),
        ("buffer d 16 shared", "9:13: expected `alias` or `exclusive`, found `shared`"),
    ];
    for (line, want) in errors {
        let err = vksync::trace::parse(&format!("{HEADER}{line}\n")).unwrap_err();
        assert_eq!(err.to_string(), want, "{line}");
    }
}
