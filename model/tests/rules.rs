//! One hazard case and one no-hazard case per synchronization rule.
//!
//! Each case is a small trace; the expectation lists the hazards as
//! `L<line> <KIND> <region> after L<prior line>`. Lines count from 1 and
//! the three buffers `a`, `b`, `c` (256 bytes each) are declared on lines
//! 1-3 of every case, so the case's own lines start at 4. Every case is
//! also decided by the definitional semantics (`vksync::spec`), which must
//! find the same (command, kind, bytes).

use std::collections::BTreeSet;
use vksync::spec::{races, Reading};
use vksync::{check, trace};

fn check_case(name: &str, body: &str, expected: &[&str]) {
    let text = format!("buffer a 256\nbuffer b 256\nbuffer c 256\n{body}");
    let t = trace::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let hazards = check(&t.program).unwrap_or_else(|e| panic!("{name}: {e}"));
    let bytes = |c: usize, k, m, r: vksync::ByteRange| (r.start..r.end).map(move |b| (c, k, m, b));
    let fast: BTreeSet<_> = hazards
        .iter()
        .flat_map(|h| bytes(h.command, h.kind, h.memory.mem, h.memory.range))
        .collect();
    let spec: BTreeSet<_> = races(&t.program, Reading::MemoryModel)
        .unwrap()
        .iter()
        .flat_map(|r| bytes(r.command, r.kind, r.mem, r.range))
        .collect();
    assert_eq!(
        fast, spec,
        "case `{name}`: the checker and the definitional semantics differ:\n{body}"
    );
    let got: Vec<String> = hazards
        .iter()
        .map(|h| {
            format!(
                "L{} {} {} after L{}",
                t.command_lines[h.command],
                h.kind,
                t.program.show_region(h.region),
                t.command_lines[h.prior_command]
            )
        })
        .collect();
    assert_eq!(got, expected, "case `{name}`:\n{body}");
}

#[test]
fn read_after_write_needs_visibility_to_the_readers_stage_and_access() {
    check_case(
        "no barrier",
        "fill a[0..64] 1\ncopy a[0..64] -> b[0..64]",
        &["L5 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "exact barrier",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
        &[],
    );
    check_case(
        "fill is a CLEAR command, so a COPY source scope misses it",
        "fill a[0..64] 1\nbarrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
        &["L6 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "execution dependency without access",
        "fill a[0..64] 1\nbarrier CLEAR:NONE -> COPY:NONE\ncopy a[0..64] -> b[0..64]",
        &["L6 READ_AFTER_WRITE a[0..64] after L4"],
    );
}

#[test]
fn meta_stages_and_accesses_expand() {
    check_case(
        "ALL_TRANSFER covers CLEAR",
        "fill a[0..64] 1\nbarrier ALL_TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
        &[],
    );
    check_case(
        "ALL_COMMANDS with MEMORY_* covers everything",
        "fill a[0..64] 1\nbarrier ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ\ndispatch k read a[0..64] write b[0..64]",
        &[],
    );
    check_case(
        "SHADER_WRITE covers storage writes, SHADER_READ storage reads",
        "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:SHADER_WRITE -> COMPUTE_SHADER:SHADER_READ\ndispatch k read a[0..64] write b[0..64]",
        &[],
    );
    check_case(
        "MEMORY_READ for the wrong stage",
        "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:MEMORY_WRITE -> COPY:MEMORY_READ\ndispatch k read a[0..64] write b[0..64]",
        &["L6 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "SHADER_WRITE is not visibility for SHADER_READ",
        "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:SHADER_WRITE -> COMPUTE_SHADER:SHADER_WRITE\ndispatch k read a[0..64] write b[0..64]",
        &["L6 READ_AFTER_WRITE a[0..64] after L4"],
    );
}

#[test]
fn access_scopes_are_not_expanded_to_logically_later_stages() {
    // DRAW_INDIRECT's synchronization scope includes COMPUTE_SHADER, but
    // its access scope holds only DRAW_INDIRECT accesses.
    check_case(
        "later stage, no access",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> DRAW_INDIRECT:MEMORY_READ\ndispatch k read a[0..64] write b[0..64]",
        &["L6 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "later stage for execution only (write-after-read)",
        "dispatch k read a[0..64] write b[0..64]\nbarrier COMPUTE_SHADER:NONE -> DRAW_INDIRECT:NONE\ndispatch k write a[0..64]",
        &[],
    );
    check_case(
        "earlier stage in the first scope: COMPUTE_SHADER covers indirect reads",
        "fill c[0..12] 1\nbarrier CLEAR:TRANSFER_WRITE -> DRAW_INDIRECT:INDIRECT_COMMAND_READ\n\
         dispatch k indirect c[0..12] write b[0..64]\nbarrier COMPUTE_SHADER:NONE -> CLEAR:NONE\nfill c[0..12] 2",
        &[],
    );
    check_case(
        "indirect arguments need INDIRECT_COMMAND_READ visibility",
        "fill c[0..12] 1\nbarrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_READ\ndispatch k indirect c[0..12] write b[0..64]",
        &["L6 READ_AFTER_WRITE c[0..12] after L4"],
    );
}

#[test]
fn top_and_bottom_of_pipe_mean_different_things_in_each_scope() {
    let war = |barrier: &str| format!("copy a[0..64] -> b[0..64]\nbarrier {barrier}\nfill a[0..64] 2");
    check_case(
        "TOP_OF_PIPE as source is NONE",
        &war("TOP_OF_PIPE:NONE -> CLEAR:NONE"),
        &["L6 WRITE_AFTER_READ a[0..64] after L4"],
    );
    check_case(
        "TOP_OF_PIPE as destination is ALL_COMMANDS",
        &war("COPY:NONE -> TOP_OF_PIPE:NONE"),
        &[],
    );
    check_case(
        "BOTTOM_OF_PIPE as source is ALL_COMMANDS",
        &war("BOTTOM_OF_PIPE:NONE -> CLEAR:NONE"),
        &[],
    );
    check_case(
        "BOTTOM_OF_PIPE as destination is NONE",
        &war("COPY:NONE -> BOTTOM_OF_PIPE:NONE"),
        &["L6 WRITE_AFTER_READ a[0..64] after L4"],
    );
    check_case(
        "TOP_OF_PIPE as destination carries no access",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> TOP_OF_PIPE:NONE\ncopy a[0..64] -> b[0..64]",
        &["L6 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "...but chains into a later barrier that does",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> TOP_OF_PIPE:NONE\nbarrier COPY:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
        &[],
    );
}

#[test]
fn execution_dependencies_chain() {
    check_case(
        "write-after-read through an execution-only chain",
        "copy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> COMPUTE_SHADER:NONE\nbarrier COMPUTE_SHADER:NONE -> CLEAR:NONE\nfill a[0..64] 2",
        &[],
    );
    check_case(
        "chain broken by disjoint stages",
        "copy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> COMPUTE_SHADER:NONE\nbarrier CLEAR:NONE -> CLEAR:NONE\nfill a[0..64] 2",
        &["L7 WRITE_AFTER_READ a[0..64] after L4"],
    );
    check_case(
        "availability then visibility through a chain",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:NONE\nbarrier COMPUTE_SHADER:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
        &[],
    );
    check_case(
        "visibility chain broken by disjoint stages",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:NONE\nbarrier COPY:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
        &["L7 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "an execution-only first link makes nothing available",
        "fill a[0..64] 1\nbarrier CLEAR:NONE -> COMPUTE_SHADER:NONE\nbarrier COMPUTE_SHADER:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
        &["L7 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "barriers of one vkCmdPipelineBarrier2 do not chain",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:NONE; COMPUTE_SHADER:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
        &["L6 READ_AFTER_WRITE a[0..64] after L4"],
    );
}

#[test]
fn visibility_is_per_stage_and_access() {
    check_case(
        "visible to COPY reads, not to compute reads",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\ndispatch k read a[0..64] write c[0..64]",
        &["L7 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "visible to both",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY|COMPUTE_SHADER:TRANSFER_READ|SHADER_READ\ncopy a[0..64] -> b[0..64]\ndispatch k read a[0..64] write c[0..64]",
        &[],
    );
    check_case(
        "a read-write binding needs visibility for its read too",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_WRITE\ndispatch k rw a[0..64]",
        &["L6 READ_AFTER_WRITE a[0..64] after L4"],
    );
}

#[test]
fn buffer_barriers_cover_their_range_only() {
    check_case(
        "wrong range",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[64..128]\ncopy a[0..64] -> b[0..64]",
        &["L6 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "half the range",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..32]\ncopy a[0..64] -> b[0..64]",
        &["L6 READ_AFTER_WRITE a[32..64] after L4"],
    );
    check_case(
        "right range",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64]\ncopy a[0..64] -> b[0..64]",
        &[],
    );
    check_case(
        "a buffer barrier's execution dependency is not limited to its range",
        "copy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> CLEAR:NONE c[0..4]\nfill a[0..64] 2",
        &[],
    );
    check_case(
        "a buffer barrier elsewhere extends the chain but makes nothing visible",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:NONE\nbarrier COMPUTE_SHADER:NONE -> COPY:TRANSFER_READ c[0..4]\ncopy a[0..64] -> b[0..64]",
        &["L7 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "...while a global barrier after it completes the chain",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:NONE\nbarrier COMPUTE_SHADER:NONE -> COPY:NONE c[0..4]\nbarrier COPY:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
        &[],
    );
}

#[test]
fn overlap_is_per_byte() {
    check_case(
        "one byte overlaps",
        "copy a[0..64] -> b[0..64]\ncopy c[0..1] -> a[63..64]",
        &["L5 WRITE_AFTER_READ a[63..64] after L4"],
    );
    check_case(
        "adjacent ranges do not",
        "copy a[0..64] -> b[0..64]\ncopy c[0..1] -> a[64..65]",
        &[],
    );
    check_case(
        "a hazard covers only the overlap",
        "fill a[0..128] 1\ncopy a[96..160] -> b[0..64]",
        &["L5 READ_AFTER_WRITE a[96..128] after L4"],
    );
}

#[test]
fn writes_after_reads_need_every_reader() {
    check_case(
        "one reader left out",
        "copy a[0..64] -> b[0..64]\ndispatch k read a[0..64] write c[0..64]\nbarrier COPY:NONE -> CLEAR:NONE\nfill a[0..64] 2",
        &["L7 WRITE_AFTER_READ a[0..64] after L5"],
    );
    check_case(
        "every reader",
        "copy a[0..64] -> b[0..64]\ndispatch k read a[0..64] write c[0..64]\nbarrier COPY|COMPUTE_SHADER:NONE -> CLEAR:NONE\nfill a[0..64] 2",
        &[],
    );
    check_case(
        "a write after an ordered read: the read's barrier made the earlier write available",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> CLEAR:NONE\nfill a[0..64] 2",
        &[],
    );
    check_case(
        "a read before a write stays: the next write must be ordered after it too",
        "dispatch k read a[0..64] write b[0..64]\nbarrier COMPUTE_SHADER:NONE -> COPY:NONE\ncopy c[0..64] -> a[0..64]\nfill a[0..64] 1",
        &["L7 WRITE_AFTER_READ a[0..64] after L4", "L7 WRITE_AFTER_WRITE a[0..64] after L6"],
    );
    check_case(
        "a read-write binding's read and write both precede the next write",
        "dispatch k rw a[0..64]\ndispatch k write a[0..64]",
        &[
            "L5 WRITE_AFTER_READ a[0..64] after L4",
            "L5 WRITE_AFTER_WRITE a[0..64] after L4",
        ],
    );
}

#[test]
fn writes_after_writes_need_the_earlier_write_available() {
    check_case(
        "no barrier",
        "fill a[0..64] 1\nfill a[0..64] 2",
        &["L5 WRITE_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "available, in a chain that reaches the writer: ordered (the layer also wants visibility, D2)",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> CLEAR:NONE\nfill a[0..64] 2",
        &[],
    );
    check_case(
        "an execution dependency alone makes nothing available",
        "fill a[0..64] 1\nbarrier CLEAR:NONE -> CLEAR:NONE\nfill a[0..64] 2",
        &["L6 WRITE_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "available, but the chain does not reach the writer's stage",
        "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:NONE\ndispatch k write a[0..64]",
        &["L6 WRITE_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "ping-pong: the read's barrier made the write available, the read's chain reaches the writer",
        "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:SHADER_WRITE -> COMPUTE_SHADER:SHADER_READ\n\
         dispatch k read a[0..64] write b[0..64]\nbarrier COMPUTE_SHADER:NONE -> COMPUTE_SHADER:NONE\n\
         dispatch k write a[0..64]",
        &[],
    );
}

/// The gaps the definitional semantics found in the checker of the first
/// version, which kept only the last write and the reads since it (the
/// validation layer's shortcut). Each is the shrunk program of the
/// differential suite, reduced by hand.
#[test]
fn soundness_gaps_of_the_last_write_shortcut() {
    check_case(
        "G1: a write after an unordered read of an earlier write (the layer misses it too)",
        "dispatch k write a[0..64]\ncopy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> CLEAR:NONE\nfill a[0..64] 2",
        &["L5 READ_AFTER_WRITE a[0..64] after L4", "L7 WRITE_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "G2: a read of an older racing write behind a newer ordered one",
        "dispatch k write a[0..64]\ncopy b[0..64] -> a[0..64]\nbarrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> c[0..64]",
        &["L5 WRITE_AFTER_WRITE a[0..64] after L4", "L7 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "G3: a read-write binding's read, hidden by its own write (the old checker saw only the WAW)",
        "dispatch k rw a[0..64]\ncopy b[0..64] -> a[0..64]",
        &[
            "L5 WRITE_AFTER_READ a[0..64] after L4",
            "L5 WRITE_AFTER_WRITE a[0..64] after L4",
        ],
    );
    check_case(
        "G4: a host write hides an older device write from a later read",
        "fill a[0..64] 1\nsubmit\nhost-write a[32..64] 5\ncopy a[0..64] -> b[0..64]",
        &[
            "L6 WRITE_AFTER_WRITE a[32..64] after L4",
            "L7 READ_AFTER_WRITE a[0..64] after L4",
        ],
    );
}

/// Hazards the first version reported that no definition supports (it
/// made a fence-completed write reach a later host barrier only through an
/// execution dependency chain).
#[test]
fn precision_gaps_of_the_first_version() {
    check_case(
        "G5: a write completed by a fence is available to a later host barrier with no source scope",
        "fill a[0..64] 1\nsubmit\nwait\nbarrier NONE:NONE -> HOST:HOST_READ\nsubmit\nwait\nhost-read a[0..64]",
        &[],
    );
    check_case(
        "G6: a host barrier recorded before the wait that precedes its submit runs after that wait",
        "fill a[0..64] 1\nsubmit\nbarrier NONE:NONE -> HOST:HOST_READ\nwait\nsubmit\nwait\nhost-read a[0..64]",
        &[],
    );
    check_case(
        "...but not one submitted before the wait",
        "fill a[0..64] 1\nsubmit\nbarrier NONE:NONE -> HOST:HOST_READ\nsubmit\nwait\nhost-read a[0..64]",
        &["L9 READ_AFTER_WRITE a[0..64] after L4"],
    );
}

#[test]
fn reads_never_conflict() {
    check_case(
        "many readers, no barrier",
        "copy a[0..64] -> b[0..64]\ncopy a[0..64] -> c[0..64]\ndispatch k read a[0..64] read a[0..64] write c[64..128]",
        &[],
    );
}

#[test]
fn aliases_share_state_by_address() {
    let decl = "buffer m 256\nbuffer v 64 alias m 64\n";
    check_case(
        "overlapping alias",
        &format!("{decl}fill m[64..128] 1\ncopy v[0..64] -> b[0..64]"),
        &["L7 READ_AFTER_WRITE v[0..64] after L6"],
    );
    check_case(
        "disjoint part of the same memory",
        &format!("{decl}fill m[0..64] 1\ncopy v[0..64] -> b[0..64]"),
        &[],
    );
    check_case(
        "recycled blob memory",
        "pool p 1024\nalloc x 64 from p\ncopy x[0..64] -> b[0..64]\nfree x\nalloc y 64 from p\nfill y[0..64] 1",
        &["L9 WRITE_AFTER_READ y[0..64] after L6"],
    );
    check_case(
        "fresh blob memory",
        "pool p 1024\nalloc x 64 from p\ncopy x[0..64] -> b[0..64]\nalloc y 64 from p\nfill y[0..64] 1",
        &[],
    );
}

#[test]
fn submissions_and_the_host() {
    check_case(
        "submission order is not a dependency",
        "fill a[0..64] 1\nsubmit\ncopy a[0..64] -> b[0..64]",
        &["L6 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "a fence wait orders and makes visible",
        "fill a[0..64] 1\nsubmit\nwait\ncopy a[0..64] -> b[0..64]",
        &[],
    );
    check_case(
        "a command runs when its batch is submitted: a wait before that submit orders it",
        "fill a[0..64] 1\nsubmit\ncopy a[0..64] -> b[0..64]\nwait\nsubmit",
        &[],
    );
    check_case(
        "...and without that wait it races",
        "fill a[0..64] 1\nsubmit\ncopy a[0..64] -> b[0..64]\nsubmit\nwait",
        &["L6 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "...also at the end of the program",
        "copy a[0..64] -> b[0..64]\nsubmit\nfill a[0..64] 1",
        &["L6 WRITE_AFTER_READ a[0..64] after L4"],
    );
    check_case(
        "host read without a HOST barrier",
        "dispatch k write a[0..64]\nsubmit\nwait\nhost-read a[0..64]",
        &["L7 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "host read with a HOST barrier but no wait",
        "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:SHADER_WRITE -> HOST:HOST_READ\nsubmit\nhost-read a[0..64]",
        &["L7 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "host read done right",
        "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:SHADER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read a[0..64]",
        &[],
    );
    check_case(
        "a HOST barrier recorded after the wait has not executed yet",
        "dispatch k write a[0..64]\nsubmit\nwait\nbarrier COMPUTE_SHADER:SHADER_WRITE -> HOST:HOST_READ\nhost-read a[0..64]",
        &["L8 READ_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "...until it is submitted and waited for",
        "dispatch k write a[0..64]\nsubmit\nwait\nbarrier COMPUTE_SHADER:SHADER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read a[0..64]",
        &[],
    );
    check_case(
        "host write while the device may still read",
        "copy a[0..64] -> b[0..64]\nsubmit\nhost-write a[0..64] 5",
        &["L6 WRITE_AFTER_READ a[0..64] after L4"],
    );
    check_case(
        // The copy runs at the submit, after the host write: ordered the
        // other way round from the trace (an order note, no race).
        "host write before the commands that read it are submitted",
        "copy a[0..64] -> b[0..64]\nhost-write a[0..64] 5\nsubmit",
        &[],
    );
    check_case(
        "host read before the fill it follows in the trace is submitted",
        "fill a[0..64] 1\nhost-read a[0..64]\nsubmit",
        &[],
    );
    check_case(
        "a wait between recording and submitting still orders the batch",
        "fill a[0..64] 1\nsubmit\ncopy a[0..64] -> b[0..64]\nwait\nsubmit",
        &[],
    );
    check_case(
        "a host write before the submit of a batch races an earlier, unwaited batch",
        "fill a[0..64] 1\nsubmit\ncopy b[0..64] -> c[0..64]\nhost-write a[0..64] 2\nsubmit",
        &["L7 WRITE_AFTER_WRITE a[0..64] after L4"],
    );
    check_case(
        "host writes are visible to the next submission",
        "host-write a[0..64] 5\ncopy a[0..64] -> b[0..64]\nsubmit\nwait\nhost-write a[0..64] 6",
        &[],
    );
}

/// A case decided under both readings of write-after-write: the fast
/// checker and the definitional semantics must find the same (command,
/// kind, bytes) under each, and the hazards must be `model` under the
/// memory model and `layer` (when given; else `model`) under the layer's
/// reading.
fn check_both_readings(name: &str, body: &str, model: &[&str], layer: Option<&[&str]>) {
    let text = format!("buffer a 256\nbuffer b 256\nbuffer c 256\n{body}");
    let t = trace::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    for (reading, expected) in [
        (Reading::MemoryModel, model),
        (Reading::VisibleToWrites, layer.unwrap_or(model)),
    ] {
        let hazards = vksync::check_with(&t.program, vksync::Semantics::for_reading(reading))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let bytes = |c: usize, k, m, r: vksync::ByteRange| (r.start..r.end).map(move |b| (c, k, m, b));
        let fast: BTreeSet<_> = hazards
            .iter()
            .flat_map(|h| bytes(h.command, h.kind, h.memory.mem, h.memory.range))
            .collect();
        let spec: BTreeSet<_> = races(&t.program, reading)
            .unwrap()
            .iter()
            .flat_map(|r| bytes(r.command, r.kind, r.mem, r.range))
            .collect();
        assert_eq!(
            fast, spec,
            "case `{name}` ({reading:?}): the checker and the definitional semantics differ:\n{body}"
        );
        let got: Vec<String> = hazards
            .iter()
            .map(|h| {
                format!(
                    "L{} {} {} after L{}",
                    t.command_lines[h.command],
                    h.kind,
                    t.program.show_region(h.region),
                    t.command_lines[h.prior_command]
                )
            })
            .collect();
        assert_eq!(got, expected, "case `{name}` ({reading:?}):\n{body}");
    }
}

/// A case of [`check_both_readings`]: name, trace body, hazards under the
/// memory model, under the layer's reading when they differ.
type ReadingsCase<'a> = (&'a str, &'a str, &'a [&'a str], Option<&'a [&'a str]>);

/// Image layout transitions ("Image Layout Transitions"): a barrier with
/// `transition` writes its whole region after its availability operations
/// and before its visibility operations, ordered by that barrier only.
/// Each case: (name, trace body, hazards under the memory model, under the
/// layer's reading when they differ). Buffer `a` plays the image.
#[test]
fn image_layout_transitions() {
    #[rustfmt::skip]
    let cases: &[ReadingsCase] = &[
        // Before the transition: its barrier's first scopes.
        ("prior write in the first scopes: made available, so visible to the transition",
         "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:SHADER_WRITE -> COPY:TRANSFER_READ a[0..64] transition",
         &[], None),
        ("prior write not in the first synchronization scope",
         "dispatch k write a[0..64]\nbarrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64] transition",
         &["L5 WRITE_AFTER_WRITE a[0..64] after L4"], None),
        ("prior write in the stage, not the access scope: not available (either reading)",
         "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:NONE -> COPY:TRANSFER_READ a[0..64] transition",
         &["L5 WRITE_AFTER_WRITE a[0..64] after L4"], None),
        ("prior write made available earlier, its chain continued by the first scope",
         "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:NONE\nbarrier COMPUTE_SHADER:NONE -> COPY:NONE a[0..64] transition",
         &[], None),
        ("an execution-only chain makes nothing available",
         "fill a[0..64] 1\nbarrier CLEAR:NONE -> COMPUTE_SHADER:NONE\nbarrier COMPUTE_SHADER:NONE -> COPY:NONE a[0..64] transition",
         &["L6 WRITE_AFTER_WRITE a[0..64] after L4"], None),
        ("prior read in the first synchronization scope",
         "copy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> COMPUTE_SHADER:NONE a[0..64] transition",
         &[], None),
        ("prior read not in it: write-after-read at the transition",
         "copy a[0..64] -> b[0..64]\nbarrier CLEAR:NONE -> COMPUTE_SHADER:NONE a[0..64] transition",
         &["L5 WRITE_AFTER_READ a[0..64] after L4"], None),
        ("the transition writes its region only",
         "dispatch k write a[0..64]\nbarrier COPY:NONE -> COPY:NONE a[0..32] transition",
         &["L5 WRITE_AFTER_WRITE a[0..32] after L4"], None),
        ("an image is the memory it is bound to",
         "buffer img 64 alias a 0\nfill a[0..64] 1\nbarrier NONE:NONE -> COPY:TRANSFER_READ img[0..64] transition",
         &["L6 WRITE_AFTER_WRITE img[0..64] after L5"], None),
        ("a fence wait completes earlier writes before the transition",
         "fill a[0..64] 1\nsubmit\nwait\nbarrier NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]",
         &[], None),
        ("host writes before the submission are visible to it",
         "host-write a[0..64] 1\nbarrier NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]",
         &[], None),
        // After the transition: its barrier's second scopes.
        ("later read in the second scopes",
         "barrier NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]",
         &[], None),
        ("later read in the second synchronization scope, not its access scope",
         "barrier NONE:NONE -> COPY:NONE a[0..64] transition\ncopy a[0..64] -> b[0..64]",
         &["L5 READ_AFTER_WRITE a[0..64] after L4"], None),
        ("later read not in the second synchronization scope",
         "barrier NONE:NONE -> CLEAR:TRANSFER_WRITE a[0..64] transition\ncopy a[0..64] -> b[0..64]",
         &["L5 READ_AFTER_WRITE a[0..64] after L4"], None),
        ("later write not in the second synchronization scope",
         "barrier NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\nfill a[0..64] 1",
         &["L5 WRITE_AFTER_WRITE a[0..64] after L4"], None),
        ("later write in it without access: available, not visible",
         "barrier NONE:NONE -> CLEAR:NONE a[0..64] transition\nfill a[0..64] 1",
         &[], Some(&["L5 WRITE_AFTER_WRITE a[0..64] after L4"])),
        ("a later barrier whose first scope meets the second scope chains",
         "barrier NONE:NONE -> COPY:NONE a[0..64] transition\nbarrier COPY:NONE -> COMPUTE_SHADER:SHADER_READ\ndispatch k read a[0..64] write b[0..64]",
         &[], None),
        ("a later barrier whose first scope misses it does not",
         "barrier NONE:NONE -> COPY:NONE a[0..64] transition\nbarrier CLEAR:NONE -> COMPUTE_SHADER:SHADER_READ\ndispatch k read a[0..64] write b[0..64]",
         &["L6 READ_AFTER_WRITE a[0..64] after L4"], None),
        // `ALL_COMMANDS`, "all operations performed by all commands
        // supported on the queue", holds the transition (an operation of
        // its barrier command) whatever that barrier's second scope, and
        // its write is available at the transition ("writes performed by
        // a layout transition are automatically made available"), so any
        // such first scope, whatever its access mask, makes it visible to
        // the barrier's second access scope (D14: the 1.3.239 layer holds
        // it in none; D28: the 1.4 layers only with MEMORY_WRITE).
        ("with an empty second scope, ALL_COMMANDS:MEMORY_WRITE makes it visible",
         "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:MEMORY_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
         &[], None),
        ("...and to a later write",
         "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:MEMORY_WRITE -> CLEAR:TRANSFER_WRITE\nfill a[0..64] 1",
         &[], None),
        ("ALL_COMMANDS:NONE orders it, and its write is available already",
         "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
         &[], None),
        ("...for a shader read",
         "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:NONE -> COMPUTE_SHADER:SHADER_READ\ndispatch k read a[0..64] write b[0..64]",
         &[], None),
        ("...through a chain to the barrier that makes it visible",
         "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:NONE -> COMPUTE_SHADER:NONE\nbarrier COMPUTE_SHADER:NONE -> COMPUTE_SHADER:SHADER_READ\ndispatch k read a[0..64] write b[0..64]",
         &[], None),
        ("...and a later write needs only the order (memory model), the visibility too (D2)",
         "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:NONE -> CLEAR:NONE\nfill a[0..64] 1",
         &[], Some(&["L6 WRITE_AFTER_WRITE a[0..64] after L4"])),
        ("a narrower first scope orders no transition: not visible",
         "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier COMPUTE_SHADER:NONE -> COMPUTE_SHADER:SHADER_READ\ndispatch k read a[0..64] write b[0..64]",
         &["L6 READ_AFTER_WRITE a[0..64] after L4"], None),
        ("...nor available to a later write",
         "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier CLEAR:NONE -> CLEAR:TRANSFER_WRITE\nfill a[0..64] 1",
         &["L6 WRITE_AFTER_WRITE a[0..64] after L4"], None),
        ("BOTTOM_OF_PIPE:NONE (ALL_COMMANDS with no access) orders it likewise",
         "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier BOTTOM_OF_PIPE:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
         &[], None),
        ("ALL_COMMANDS with a write flag other than MEMORY_WRITE likewise",
         "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:TRANSFER_WRITE|SHADER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
         &[], None),
        ("a narrower first scope with MEMORY_WRITE holds no transition",
         "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier COMPUTE_SHADER:MEMORY_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
         &["L6 READ_AFTER_WRITE a[0..64] after L4"], None),
        ("an ALL_COMMANDS first scope after an unrelated barrier holds it",
         "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier COMPUTE_SHADER:NONE -> ALL_COMMANDS:NONE\nbarrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
         &[], None),
        ("an ALL_COMMANDS:MEMORY_WRITE barrier after ALL_COMMANDS:NONE makes it visible too",
         "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier ALL_COMMANDS:NONE -> COMPUTE_SHADER:NONE\nbarrier ALL_COMMANDS:MEMORY_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]",
         &[], None),
        // What the transition's barrier ordered before the transition is
        // before what such a first scope orders after it (a fresh
        // spec_differential seed: the fast checker missed the chain).
        ("...and so is a write the transition's barrier made available",
         "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:NONE a[0..64] transition\nbarrier ALL_COMMANDS:NONE -> CLEAR:TRANSFER_WRITE\nfill a[0..64] 2",
         &[], None),
        ("...through BOTTOM_OF_PIPE and a chain, as the seed had it",
         "fill a[0..64] 1\nbarrier ALL_COMMANDS:MEMORY_WRITE -> HOST:NONE a[0..64] transition\nbarrier BOTTOM_OF_PIPE:NONE -> COMPUTE_SHADER|COPY:NONE\nbarrier COMPUTE_SHADER|COPY:SHADER_READ -> ALL_COMMANDS:TRANSFER_WRITE\ncopy b[0..64] -> a[0..64]",
         &[], None),
        ("...but a narrower first scope holds neither",
         "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> HOST:NONE a[0..64] transition\nbarrier COMPUTE_SHADER:NONE -> CLEAR:TRANSFER_WRITE\nfill a[0..64] 2",
         &["L7 WRITE_AFTER_WRITE a[0..64] after L4", "L7 WRITE_AFTER_WRITE a[0..64] after L5"], None),
        // The second scope, symmetrically: an earlier barrier whose second
        // scope is ALL_COMMANDS holds a later transition, so what it
        // ordered (made available) is before it, whatever the transition
        // barrier's first scope (D27: no layer has it).
        ("an earlier ALL_COMMANDS second scope orders a made-available write before the transition",
         "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> ALL_COMMANDS:NONE\nbarrier NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition",
         &[], None),
        ("...and a read (execution only)",
         "copy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> ALL_COMMANDS:NONE\nbarrier NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition",
         &[], None),
        ("...TOP_OF_PIPE (ALL_COMMANDS with no access) likewise",
         "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> TOP_OF_PIPE:NONE\nbarrier NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition",
         &[], None),
        ("...but not a write it only ordered by execution",
         "fill a[0..64] 1\nbarrier CLEAR:NONE -> ALL_COMMANDS:NONE\nbarrier NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition",
         &["L6 WRITE_AFTER_WRITE a[0..64] after L4"], None),
        ("...and a narrower second scope reaches no transition",
         "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:NONE\nbarrier NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition",
         &["L6 WRITE_AFTER_WRITE a[0..64] after L4"], None),
        ("...nor does a union of narrower ones",
         "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> ALL_GRAPHICS|COMPUTE_SHADER:NONE; CLEAR:TRANSFER_WRITE -> ALL_TRANSFER:NONE\nbarrier NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition",
         &["L6 WRITE_AFTER_WRITE a[0..64] after L4"], None),
        ("host read: HOST:HOST_READ in the second scopes, submit, wait",
         "barrier NONE:NONE -> HOST:HOST_READ a[0..64] transition\nsubmit\nwait\nhost-read a[0..64]",
         &[], None),
        ("host read without it",
         "barrier NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\nsubmit\nwait\nhost-read a[0..64]",
         &["L7 READ_AFTER_WRITE a[0..64] after L4"], None),
        // The barriers of the same call.
        ("a sibling global barrier does not order the transition after a write",
         "dispatch k write a[0..64]\nbarrier COMPUTE_SHADER:SHADER_WRITE -> COPY:NONE; COPY:NONE -> COPY:TRANSFER_READ a[0..64] transition",
         &["L5 WRITE_AFTER_WRITE a[0..64] after L4"], None),
        ("...nor after a read",
         "copy a[0..64] -> b[0..64]\nbarrier COPY:NONE -> ALL_COMMANDS:NONE; CLEAR:NONE -> COPY:TRANSFER_READ a[0..64] transition",
         &["L5 WRITE_AFTER_READ a[0..64] after L4"], None),
        ("...nor makes it visible (D13)",
         "barrier NONE:NONE -> COPY:NONE a[0..64] transition; COPY:NONE -> COMPUTE_SHADER:SHADER_READ\ndispatch k read a[0..64] write b[0..64]",
         &["L5 READ_AFTER_WRITE a[0..64] after L4"], None),
        ("the barrier still orders earlier accesses outside its range",
         "copy c[0..64] -> b[0..64]\nbarrier COPY:NONE -> CLEAR:NONE a[0..64] transition\nfill c[0..64] 1",
         &[], None),
        ("and makes only its range available",
         "fill c[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64] transition\ncopy c[0..64] -> b[0..64]",
         &["L6 READ_AFTER_WRITE c[0..64] after L4"], None),
        ("its two halves are one barrier: prior write to later read through it",
         "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64] transition\ncopy a[0..64] -> b[0..64]",
         &[], None),
        ("each transition has its own pseudo stage: two of one call do not chain",
         "copy b[0..64] -> c[0..64]\nbarrier COPY:NONE -> COPY:NONE a[0..64] transition; NONE:NONE -> CLEAR:NONE b[0..64] transition\nfill b[0..64] 1",
         &["L5 WRITE_AFTER_READ b[0..64] after L4", "L6 WRITE_AFTER_READ b[0..64] after L4"],
         Some(&["L5 WRITE_AFTER_READ b[0..64] after L4", "L6 WRITE_AFTER_READ b[0..64] after L4", "L6 WRITE_AFTER_WRITE b[0..64] after L5"])),
        ("...nor two of different calls",
         "copy b[0..64] -> c[0..64]\nbarrier COPY:NONE -> COPY:NONE a[0..64] transition\nbarrier NONE:NONE -> CLEAR:NONE b[0..64] transition\nfill b[0..64] 1",
         &["L6 WRITE_AFTER_READ b[0..64] after L4", "L7 WRITE_AFTER_READ b[0..64] after L4"],
         Some(&["L6 WRITE_AFTER_READ b[0..64] after L4", "L7 WRITE_AFTER_READ b[0..64] after L4", "L7 WRITE_AFTER_WRITE b[0..64] after L6"])),
        // Transitions among themselves.
        ("transitions are ordered in submission order",
         "barrier NONE:NONE -> NONE:NONE a[0..64] transition\nbarrier NONE:NONE -> NONE:NONE a[0..64] transition",
         &[], None),
        ("...which orders nothing else: a write before the first is not before the second",
         "fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..64] transition\nbarrier NONE:NONE -> NONE:NONE a[0..64] transition",
         &["L6 WRITE_AFTER_WRITE a[0..64] after L4"], None),
        ("...nor the second before a later read",
         "barrier NONE:NONE -> COPY:TRANSFER_READ a[0..64] transition\nbarrier NONE:NONE -> NONE:NONE a[0..32] transition\ncopy a[0..64] -> b[0..64]",
         &["L6 READ_AFTER_WRITE a[0..32] after L5"], None),
    ];
    for (name, body, model, layer) in cases {
        check_both_readings(name, body, model, *layer);
    }
}

/// How hazards at and after a transition read, with the fix in the
/// transition's own barrier.
#[test]
fn transition_hazards_name_the_transition() {
    let t = trace::parse(
        "buffer img 4096\nbuffer out 4096\ndispatch k write img\n\
         barrier COPY:NONE -> COPY:NONE img transition\ncopy img -> out",
    )
    .unwrap();
    let got: Vec<String> = check(&t.program)
        .unwrap()
        .iter()
        .map(|h| h.describe(&t.program))
        .collect();
    assert_eq!(
        got,
        [
            "vkCmdPipelineBarrier2 layout transition writes img[0..4096] (IMAGE_LAYOUT_TRANSITION), previously written \
             by vkCmdDispatch (COMPUTE_SHADER:SHADER_STORAGE_WRITE); fix: add COMPUTE_SHADER:SHADER_STORAGE_WRITE to \
             the source scope of the layout transition of img[0..4096]",
            "vkCmdCopyBuffer reads img[0..4096] (COPY:TRANSFER_READ), previously written by vkCmdDispatch \
             (COMPUTE_SHADER:SHADER_STORAGE_WRITE); fix: barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> \
             COPY:TRANSFER_READ img[0..4096]",
            "vkCmdCopyBuffer reads img[0..4096] (COPY:TRANSFER_READ), previously written by vkCmdPipelineBarrier2 \
             layout transition (IMAGE_LAYOUT_TRANSITION); fix: add COPY:TRANSFER_READ to the destination scope of \
             the layout transition of img[0..4096]",
        ]
    );
}

/// Copies with an image on one side or both read their source and write
/// their destination in `COPY`, as `vkCmdCopyBuffer` does; an image side is
/// all of the image's memory, so the two sides may differ in size and, for
/// two subresources of one image, overlap (one command does not race
/// itself). Buffer `c` plays the image; `a` and `b` are buffers.
#[test]
fn image_copies_are_copies() {
    #[rustfmt::skip]
    let cases: &[ReadingsCase] = &[
        ("an upload reads its buffer range after the host-visible fill",
         "fill a[0..64] 1\ncopy-buffer-to-image a[0..64] -> c[0..256]",
         &["L5 READ_AFTER_WRITE a[0..64] after L4"], None),
        ("a download without a barrier after the upload",
         "copy-buffer-to-image a[0..64] -> c[0..256]\ncopy-image-to-buffer c[0..256] -> b[0..64]",
         &["L5 READ_AFTER_WRITE c[0..256] after L4"], None),
        ("ordered by a copy-to-copy barrier",
         "copy-buffer-to-image a[0..64] -> c[0..256]\nbarrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy-image-to-buffer c[0..256] -> b[0..64]",
         &[], None),
        ("a copy within one image does not race itself",
         "copy-image c[0..256] -> c[0..256]",
         &[], None),
        ("nor does the next read of it race the copy's read",
         "copy-image c[0..256] -> c[0..256]\nbarrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy-image-to-buffer c[0..256] -> b[0..64]",
         &[], None),
        ("a download, then a transition that forgets the copy's read",
         "copy-image-to-buffer c[0..256] -> b[0..64]\nbarrier COMPUTE_SHADER:NONE -> COPY:TRANSFER_WRITE c[0..256] transition",
         &["L5 WRITE_AFTER_READ c[0..256] after L4"], None),
    ];
    for (name, body, model, layer) in cases {
        check_both_readings(name, body, model, *layer);
    }
}

/// Order notes (`vksync::order_notes`): a host access between recording a
/// command and submitting it runs first ("Host Write Ordering
/// Guarantees"). Each case: trace body, notes as `L<host> before L<cmd>
/// at L<submit>|end REGION HOST_SA DEVICE_SA`.
#[test]
fn host_accesses_between_recording_and_submitting_are_order_notes() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "a host write before the copy that reads it is submitted",
            "copy a[0..64] -> b[0..64]\nhost-write a[0..64] 5\nsubmit\nwait",
            &["L5 before L4 at L6 a[0..64] HOST:HOST_WRITE COPY:TRANSFER_READ"],
        ),
        (
            "a host read before the fill it follows in the trace is submitted",
            "fill a[0..64] 1\nhost-read a[16..32]\nsubmit",
            &["L5 before L4 at L6 a[16..32] HOST:HOST_READ CLEAR:TRANSFER_WRITE"],
        ),
        (
            "a host write and a dispatch's write, still recorded at the end",
            "dispatch scale write a[0..64] read b[0..64]\nhost-write a[32..128] 1",
            &["L5 before L4 at end a[32..64] HOST:HOST_WRITE COMPUTE_SHADER:SHADER_STORAGE_WRITE"],
        ),
        (
            "reads on both sides: no note",
            "copy a[0..64] -> b[0..64]\nhost-read a[0..64]\nsubmit",
            &[],
        ),
        (
            "disjoint bytes: no note",
            "fill a[0..64] 1\nhost-write a[64..128] 2\nsubmit",
            &[],
        ),
        (
            "submitted before the host access: a race, not a note",
            "fill a[0..64] 1\nsubmit\nhost-write a[0..64] 2\nsubmit\nwait",
            &[],
        ),
        (
            "several recorded commands, one note each",
            "copy a[0..64] -> b[0..64]\nfill b[0..16] 3\nhost-write b[0..64] 1\nsubmit",
            &[
                "L6 before L4 at L7 b[0..64] HOST:HOST_WRITE COPY:TRANSFER_WRITE",
                "L6 before L5 at L7 b[0..16] HOST:HOST_WRITE CLEAR:TRANSFER_WRITE",
            ],
        ),
    ];
    for (name, body, want) in cases {
        let text = format!("buffer a 256\nbuffer b 256\nbuffer c 256\n{body}");
        let t = trace::parse(&text).unwrap_or_else(|e| panic!("case `{name}`: {e}"));
        let line = |i: usize| t.command_lines[i];
        let got: Vec<String> = vksync::order_notes(&t.program)
            .unwrap()
            .iter()
            .map(|n| {
                format!(
                    "L{} before L{} at {} {} {} {}",
                    line(n.host_command),
                    line(n.command),
                    n.submit.map_or("end".to_string(), |s| format!("L{}", line(s))),
                    t.program.show_region(n.region),
                    n.host,
                    n.device
                )
            })
            .collect();
        assert_eq!(&got, want, "case `{name}`:\n{body}");
        // The pairs noted are no races, for either checker.
        let notes = vksync::order_notes(&t.program).unwrap();
        let pair = |a: usize, b: usize| {
            notes
                .iter()
                .any(|n| (n.host_command, n.command) == (a, b) || (n.command, n.host_command) == (a, b))
        };
        for h in check(&t.program).unwrap() {
            assert!(!pair(h.command, h.prior_command), "case `{name}`: hazard {h:?}");
        }
        for r in races(&t.program, Reading::MemoryModel).unwrap() {
            assert!(!pair(r.command, r.prior_command), "case `{name}`: race {r:?}");
        }
    }
}

/// Writes whose states become equal only after they were recorded (each
/// submitted in its own batch, never waited for) are reported once each,
/// against the nearest: the report and the state stay linear (issue 27).
#[test]
fn a_flood_of_unordered_writes_stays_linear() {
    for n in [2usize, 3, 10, 400] {
        let mut text = String::from("buffer a 64\nbuffer b 64\n");
        for _ in 0..n {
            text.push_str("fill a[0..64] 1\nsubmit\n");
        }
        let t = trace::parse(&text).unwrap();
        let hazards = check(&t.program).unwrap();
        assert_eq!(hazards.len(), n - 1, "n = {n}");
        for h in &hazards {
            // Fill k races fill k-1 (two commands apart: fill, submit).
            assert_eq!(h.prior_command + 2, h.command, "n = {n}: {h:?}");
            assert_eq!(h.kind, vksync::HazardKind::WriteAfterWrite);
        }
        // The definitional semantics finds every pair; projected on the
        // later command, its kind and bytes it is the same set.
        if n <= 10 {
            let races = races(&t.program, Reading::MemoryModel).unwrap();
            assert_eq!(races.len(), n * (n - 1) / 2, "n = {n}");
            let later: BTreeSet<usize> = races.iter().map(|r| r.command).collect();
            let fast: BTreeSet<usize> = hazards.iter().map(|h| h.command).collect();
            assert_eq!(later, fast, "n = {n}");
        }
    }
}

/// A uniform buffer binding is read as `COMPUTE_SHADER:UNIFORM_READ`: a
/// barrier to `SHADER_STORAGE_READ` does not make a copy's write visible to
/// it, one to `UNIFORM_READ` does (issue 23: wgpu's correct barrier drew a
/// false read-after-write while uniforms were recorded as storage reads).
#[test]
fn uniform_bindings_are_read_as_uniform_reads() {
    check_case(
        "a barrier to UNIFORM_READ orders a uniform read",
        "copy a[0..64] -> b[0..64]\nbarrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:UNIFORM_READ\ndispatch scale_add uniform b[0..64] write c[0..64]",
        &[],
    );
    check_case(
        "a barrier to SHADER_STORAGE_READ does not",
        "copy a[0..64] -> b[0..64]\nbarrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\ndispatch scale_add uniform b[0..64] write c[0..64]",
        &["L6 READ_AFTER_WRITE b[0..64] after L4"],
    );
    check_case(
        "nor does one to UNIFORM_READ for a storage read",
        "copy a[0..64] -> b[0..64]\nbarrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:UNIFORM_READ\ndispatch scale_add read b[0..64] write c[0..64]",
        &["L6 READ_AFTER_WRITE b[0..64] after L4"],
    );
    check_case(
        "a write after a uniform read needs an execution dependency only",
        "dispatch scale_add uniform b[0..64] write c[0..64]\nbarrier COMPUTE_SHADER:NONE -> COPY:NONE\ncopy a[0..64] -> b[0..64]",
        &[],
    );
    // The keyword prints and parses back.
    let t = trace::parse("buffer b 64\nbuffer c 64\ndispatch scale_add uniform b write c\n").unwrap();
    let printed = trace::print(&t.program);
    assert!(printed.contains("uniform b[0..64]"), "{printed}");
    assert_eq!(trace::parse(&printed).unwrap().program, t.program);
}

/// A uniform texel buffer binding (`sampled`) is read as
/// `COMPUTE_SHADER:SHADER_SAMPLED_READ` ("Access Types": "read access to a
/// uniform texel buffer or sampled image in any shader pipeline stage"):
/// only a barrier to that access (or to `SHADER_READ`, which includes it)
/// makes a write visible to it.
#[test]
fn uniform_texel_buffer_bindings_are_sampled_reads() {
    check_case(
        "a barrier to SHADER_SAMPLED_READ orders a sampled read",
        "copy a[0..64] -> b[0..64]\nbarrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_SAMPLED_READ\ndispatch scale_add sampled b[0..64] write c[0..64]",
        &[],
    );
    check_case(
        "so does one to SHADER_READ",
        "copy a[0..64] -> b[0..64]\nbarrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_READ\ndispatch scale_add sampled b[0..64] write c[0..64]",
        &[],
    );
    check_case(
        "a barrier to SHADER_STORAGE_READ does not",
        "copy a[0..64] -> b[0..64]\nbarrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\ndispatch scale_add sampled b[0..64] write c[0..64]",
        &["L6 READ_AFTER_WRITE b[0..64] after L4"],
    );
    check_case(
        "nor does one to UNIFORM_READ",
        "copy a[0..64] -> b[0..64]\nbarrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:UNIFORM_READ\ndispatch scale_add sampled b[0..64] write c[0..64]",
        &["L6 READ_AFTER_WRITE b[0..64] after L4"],
    );
    check_case(
        "a write after a sampled read needs an execution dependency only",
        "dispatch scale_add sampled b[0..64] write c[0..64]\nbarrier COMPUTE_SHADER:NONE -> COPY:NONE\ncopy a[0..64] -> b[0..64]",
        &[],
    );
    let t = trace::parse("buffer b 64\nbuffer c 64\ndispatch scale_add sampled b write c\n").unwrap();
    let printed = trace::print(&t.program);
    assert!(printed.contains("sampled b[0..64]"), "{printed}");
    assert_eq!(trace::parse(&printed).unwrap().program, t.program);
}
