//! The trace format's lexical edges: byte-order marks, line endings,
//! characters outside ASCII, numbers, and names. Each rule is a row: the
//! input and either the exact `LINE:COL: message` it is rejected with, or
//! the program (as printed) it is accepted as. Every accepted input must
//! also survive the printer round trip, which is what the strict rules are
//! for.

use vksync::trace;

/// Parses `text` and checks it against `expected`: `Err("LINE:COL: ...")`
/// for a rejection, `Ok(printed)` for an accepted trace whose printed form
/// is `printed` and parses back to the same program.
fn check(text: &str, expected: Result<&str, &str>) {
    match (trace::parse(text), expected) {
        (Ok(t), Ok(printed)) => {
            let got = trace::print(&t.program);
            assert_eq!(got, printed, "printed form of {text:?}");
            let again = trace::parse(&got).unwrap_or_else(|e| panic!("{got:?} does not parse back: {e}"));
            assert_eq!(again.program, t.program, "round trip of {text:?}");
        }
        (Err(e), Err(message)) => assert_eq!(e.to_string(), message, "for {text:?}"),
        (got, want) => panic!(
            "for {text:?}: expected {want:?}, got {:?}",
            got.map(|t| trace::print(&t.program)).map_err(|e| e.to_string())
        ),
    }
}

fn check_all(cases: &[(&str, Result<&str, &str>)]) {
    for (text, expected) in cases {
        check(text, *expected);
    }
}

const CR: &str = "carriage return (CR) without a line feed: lines must end with LF or CRLF \
                  (classic Mac OS line endings are not supported)";

#[test]
fn byte_order_marks_and_line_endings() {
    let cr_at = |at: &str| format!("{at}: {CR}");
    let (cr_1_12, cr_1_9, cr_2_7) = (cr_at("1:12"), cr_at("1:9"), cr_at("2:7"));
    check_all(&[
        // A leading BOM is skipped; columns on line 1 do not count it.
        ("\u{feff}buffer a 16\n", Ok("buffer a 16\n")),
        ("\u{feff}", Ok("")),
        ("\u{feff}submit x", Err("1:8: unexpected `x`: this trace declares no queue, so `submit` and `wait` name none (they mean its one implicit queue); to name it, declare it: `queue NAME`")),
        // Anywhere else it is an error, even right after the first one.
        (
            "\u{feff}\u{feff}buffer a 16",
            Err("1:1: byte-order mark (U+FEFF) after the start of the file: only the file's first character may be one"),
        ),
        (
            "buffer a 16\n\u{feff}submit",
            Err("2:1: byte-order mark (U+FEFF) after the start of the file: only the file's first character may be one"),
        ),
        // ... except in a comment, where any character but a line break goes.
        ("# \u{feff}\nbuffer a 16", Ok("buffer a 16\n")),
        // LF and CRLF end lines, mixed too; a last line needs no ending.
        ("buffer a 16\r\nfill a 1\r\n", Ok("buffer a 16\nfill a[0..16] 1\n")),
        ("buffer a 16\nfill a 1\r\nsubmit", Ok("buffer a 16\nfill a[0..16] 1\nsubmit\n")),
        ("\r\n\r\nbuffer a 16 # c\r\n", Ok("buffer a 16\n")),
        // A CR alone is an error where it stands: classic Mac OS files,
        // which would otherwise read as one line (and, after a `#`, as one
        // comment: an empty program), and stray CRs.
        ("buffer a 16\rbuffer b 16\r", Err(&cr_1_12)),
        ("# header\rbuffer a 16\rsubmit", Err(&cr_1_9)),
        ("buffer a 16\r", Err(&cr_1_12)),
        ("buffer a 16\r\r\nsubmit", Err(&cr_1_12)),
        ("buffer a 16\nsubmit\r wait", Err(&cr_2_7)),
        // Other characters an editor may show as a line break.
        ("buffer a 16\u{b}", Err("1:12: vertical tab (U+000B): lines must end with LF or CRLF")),
        ("buffer a 16 # x\u{c}y", Err("1:16: form feed (U+000C): lines must end with LF or CRLF")),
        ("submit\u{85}wait", Err("1:7: next line (U+0085): lines must end with LF or CRLF")),
        // In a comment, columns count characters (`é` is two bytes).
        ("# é\u{2028}buffer a 16", Err("1:4: line separator (U+2028): lines must end with LF or CRLF")),
        ("submit # \u{2029}", Err("1:10: paragraph separator (U+2029): lines must end with LF or CRLF")),
    ]);
}

#[test]
fn characters_outside_comments() {
    check_all(&[
        // Spaces and tabs separate tokens.
        ("buffer\ta \t 16\t", Ok("buffer a 16\n")),
        // Comments may hold any other character.
        (
            "buffer a 16 # größe: 16 bytes\u{a0}\u{0}\u{7}",
            Ok("buffer a 16\n"),
        ),
        // Outside them, nothing but printable ASCII, spaces and tabs.
        (
            "buffer a\u{a0}16",
            Err("1:9: non-ASCII space U+00A0 outside a comment: separate tokens with spaces or tabs"),
        ),
        (
            "buffer a 16\u{3000}",
            Err("1:12: non-ASCII space U+3000 outside a comment: separate tokens with spaces or tabs"),
        ),
        (
            "buffer a\u{0}16",
            Err("1:9: control character U+0000 outside a comment"),
        ),
        (
            "submit\u{7f}",
            Err("1:7: control character U+007F outside a comment"),
        ),
        (
            "buffer é 16",
            Err("1:8: non-ASCII character `é` (U+00E9) outside a comment: commands are ASCII"),
        ),
        (
            "buffer a 16\ndispatch k\u{200b} rw a",
            Err("2:11: non-ASCII character `\u{200b}` (U+200B) outside a comment: commands are ASCII"),
        ),
        // The line is checked before it is parsed, so a bad character is
        // reported even after an earlier mistake on the same line.
        (
            "frob é",
            Err("1:6: non-ASCII character `é` (U+00E9) outside a comment: commands are ASCII"),
        ),
    ]);
}

#[test]
fn numbers() {
    let long = format!("buffer a {}", "9".repeat(50));
    let long_err = format!(
        "1:10: `{}…` does not fit in 64 bits (at most 18446744073709551615)",
        "9".repeat(40)
    );
    check_all(&[
        // Decimal and hex (`0x` or `0X`), `_` between two digits.
        (
            "buffer a 1_000\nbuffer b 0x1_0\nbuffer c 0X1f\nbuffer d 007",
            Ok("buffer a 1000\nbuffer b 16\nbuffer c 31\nbuffer d 7\n"),
        ),
        (
            "buffer a 18446744073709551615\nbuffer b 0xffff_ffff_ffff_ffff",
            Ok("buffer a 18446744073709551615\nbuffer b 18446744073709551615\n"),
        ),
        (
            "buffer a 16\nfill a[0x0..1_6] 4294967295",
            Ok("buffer a 16\nfill a[0..16] 4294967295\n"),
        ),
        // `_` anywhere else, reported at the `_`.
        (
            "buffer a _1",
            Err("1:10: invalid number `_1`: `_` may only separate two digits"),
        ),
        (
            "buffer a 1_",
            Err("1:11: invalid number `1_`: `_` may only separate two digits"),
        ),
        (
            "buffer a 1__0",
            Err("1:12: invalid number `1__0`: `_` may only separate two digits"),
        ),
        (
            "buffer a 0x_10",
            Err("1:12: invalid number `0x_10`: `_` may only separate two digits"),
        ),
        (
            "buffer a 0x10_",
            Err("1:14: invalid number `0x10_`: `_` may only separate two digits"),
        ),
        (
            "buffer a 0x_",
            Err("1:12: invalid number `0x_`: `_` may only separate two digits"),
        ),
        (
            "buffer a _",
            Err("1:10: invalid number `_`: `_` may only separate two digits"),
        ),
        // Characters that are not digits, reported where they are.
        (
            "buffer a 0x",
            Err("1:10: invalid number `0x`: no digits after `0x`"),
        ),
        (
            "buffer a 0X",
            Err("1:10: invalid number `0X`: no digits after `0X`"),
        ),
        (
            "buffer a 0_x1",
            Err("1:12: invalid number `0_x1`: `x` is not a decimal digit"),
        ),
        (
            "buffer a 0x1g",
            Err("1:13: invalid number `0x1g`: `g` is not a hexadecimal digit"),
        ),
        (
            "buffer a 16k",
            Err("1:12: invalid number `16k`: `k` is not a decimal digit"),
        ),
        (
            "buffer a 1.5",
            Err("1:11: invalid number `1.5`: `.` is not a decimal digit"),
        ),
        (
            "buffer a 0x+1",
            Err("1:12: invalid number `0x+1`: `+` is not a hexadecimal digit"),
        ),
        // Not numbers at all.
        (
            "buffer a -1",
            Err("1:10: expected a size in bytes (decimal or 0x hex), found `-1`"),
        ),
        (
            "buffer a +1",
            Err("1:10: expected a size in bytes (decimal or 0x hex), found `+1`"),
        ),
        (
            "buffer a sixteen",
            Err("1:10: expected a size in bytes (decimal or 0x hex), found `sixteen`"),
        ),
        // Too large for 64 bits: an error, never a wrap.
        (
            "buffer a 18446744073709551616",
            Err("1:10: `18446744073709551616` does not fit in 64 bits (at most 18446744073709551615)"),
        ),
        (
            "buffer a 0x1_0000_0000_0000_0000",
            Err("1:10: `0x1_0000_0000_0000_0000` does not fit in 64 bits (at most 18446744073709551615)"),
        ),
        (&long, Err(&long_err)),
        // 32-bit values and kernel parameters.
        (
            "buffer a 16\nfill a 4294967296",
            Err("2:8: `4294967296` does not fit in 32 bits (at most 4294967295)"),
        ),
        (
            "buffer a 16\nupdate a 99999999999999999999",
            Err("2:10: `99999999999999999999` does not fit in 32 bits (at most 4294967295)"),
        ),
        (
            "buffer a 16\ndispatch k(1,0x1_0000_0000) rw a",
            Err("2:14: `0x1_0000_0000` does not fit in 32 bits (at most 4294967295)"),
        ),
        (
            "buffer a 16\ndispatch k(1,,2) rw a",
            Err("2:14: expected a 32-bit kernel parameter (decimal or 0x hex)"),
        ),
        (
            "buffer a 16\ndispatch k(1,2_) rw a",
            Err("2:15: invalid number `2_`: `_` may only separate two digits"),
        ),
        // Numbers inside ranges and declarations.
        (
            "buffer a 16\nfill a[0..1__6] 1",
            Err("2:13: invalid number `1__6`: `_` may only separate two digits"),
        ),
        ("buffer a 16\nfill a[..4] 1", Err("2:8: expected a byte offset")),
        (
            "buffer a 16\nfill a[0..18446744073709551616] 1",
            Err("2:11: `18446744073709551616` does not fit in 64 bits (at most 18446744073709551615)"),
        ),
        (
            "buffer a 16\nbuffer b 8 alias a 0x1_",
            Err("2:23: invalid number `0x1_`: `_` may only separate two digits"),
        ),
        (
            "pool p 4096 align 6_4_",
            Err("1:22: invalid number `6_4_`: `_` may only separate two digits"),
        ),
    ]);
}

#[test]
fn names() {
    let long = format!("buffer a 16\nfill {}[0..4] 1", "b".repeat(100));
    let long_err = format!("2:6: unknown buffer, pool or blob `{}…`", "b".repeat(40));
    let rule = "use letters, digits, `_`, `-` and `.`, starting with a letter or `_`";
    let invalid = |at: &str, what: &str, name: &str| format!("{at}: invalid {what}`{name}`: {rule}");
    let (k_semi, k_digit, k_paren, b_bracket, b_dash) = (
        invalid("2:10", "kernel name ", "k;x"),
        invalid("2:10", "kernel name ", "1k"),
        invalid("2:10", "kernel name ", "a)b"),
        invalid("1:8", "name ", "a[0]"),
        invalid("1:8", "name ", "-a"),
    );
    let keyword = |at: &str, word: &str| {
        format!(
            "{at}: expected a kernel name, found the binding keyword `{word}` \
             (a dispatch is `dispatch KERNEL[(P,...)] BINDING...`)"
        )
    };
    let (kw_rw, kw_read, kw_indirect) = (
        keyword("2:11", "rw"),
        keyword("2:10", "read"),
        keyword("2:10", "indirect"),
    );
    check_all(&[
        // Valid names, kernels with and without parameters; `k()` is `k`.
        (
            "buffer _x.y-z 16\ndispatch k() rw _x.y-z\ndispatch scale_add(0x2,3) read _x.y-z",
            Ok("buffer _x.y-z 16\ndispatch k rw _x.y-z[0..16]\ndispatch scale_add(2,3) read _x.y-z[0..16]\n"),
        ),
        // A kernel name is required: `dispatch () rw a` printed back as
        // `dispatch  rw a`, which read as a kernel called `rw`.
        (
            "buffer a 16\ndispatch (1,2) rw a",
            Err("2:10: expected a kernel name before `(`"),
        ),
        (
            "buffer a 16\ndispatch () rw a",
            Err("2:10: expected a kernel name before `(`"),
        ),
        ("buffer a 16\ndispatch  rw a", Err(&kw_rw)),
        ("buffer a 16\ndispatch read a", Err(&kw_read)),
        ("buffer a 16\ndispatch indirect(1) read a", Err(&kw_indirect)),
        (
            "buffer a 16\ndispatch",
            Err("2:9: expected a kernel name, found end of line"),
        ),
        // Kernel names follow the rule for object names.
        ("buffer a 16\ndispatch k;x rw a", Err(&k_semi)),
        ("buffer a 16\ndispatch 1k rw a", Err(&k_digit)),
        ("buffer a 16\ndispatch a)b rw a", Err(&k_paren)),
        // The parameter list is the end of the kernel token.
        (
            "buffer a 16\ndispatch k(1)x rw a",
            Err("2:14: unexpected `x` after the kernel parameters"),
        ),
        (
            "buffer a 16\ndispatch k(1)(2) rw a",
            Err("2:14: unexpected `(2)` after the kernel parameters"),
        ),
        (
            "buffer a 16\ndispatch k(1 rw a",
            Err("2:13: expected `)` to close the kernel parameters"),
        ),
        // Object names.
        ("buffer a[0] 16", Err(&b_bracket)),
        ("buffer -a 16", Err(&b_dash)),
        (
            "buffer a 16\nfill [0..4] 1",
            Err("2:6: expected a buffer, pool or blob name"),
        ),
        (
            "buffer a 16\nfill a[0..4]x 1",
            Err("2:13: unexpected `x` after the range"),
        ),
        (
            "buffer a 16\nfill a[0..4]] 1",
            Err("2:13: unexpected `]` after the range"),
        ),
        // Long tokens are quoted cut short.
        (&long, Err(&long_err)),
    ]);
}

#[test]
fn barrier_lists() {
    let shape = "expected `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION [transition] [ownership SRC->DST]]`";
    let at = |pos: &str| format!("{pos}: {shape}");
    let (lead, trail, double) = (at("1:9"), at("1:33"), at("1:34"));
    check_all(&[
        (
            "barrier COPY:NONE -> CLEAR:NONE;CLEAR:NONE -> COPY:NONE ; HOST:NONE -> HOST:NONE",
            Ok("barrier COPY:NONE -> CLEAR:NONE; CLEAR:NONE -> COPY:NONE; HOST:NONE -> HOST:NONE\n"),
        ),
        // `;` splits tokens it touches.
        (
            "buffer b 4\nbarrier COPY:NONE -> CLEAR:NONE b[0..4];HOST:NONE -> HOST:NONE;COPY:NONE -> COPY:NONE",
            Ok("buffer b 4\nbarrier COPY:NONE -> CLEAR:NONE b[0..4]; HOST:NONE -> HOST:NONE; COPY:NONE -> COPY:NONE\n"),
        ),
        // An empty barrier is reported at the `;` that ends it.
        ("barrier ; COPY:NONE -> CLEAR:NONE", Err(&lead)),
        ("barrier ;COPY:NONE -> CLEAR:NONE", Err(&lead)),
        ("barrier COPY:NONE -> CLEAR:NONE;", Err(&trail)),
        ("barrier COPY:NONE -> CLEAR:NONE; ;", Err(&double)),
        // An unknown flag is reported at its own column.
        (
            "barrier COPY|CLEAR|BLT:NONE -> COPY:NONE",
            Err("1:20: unknown stage flag `BLT`"),
        ),
        (
            "barrier COPY:NONE -> COPY:TRANSFER_READ|TRANSFER_WRIT",
            Err("1:41: unknown access flag `TRANSFER_WRIT`"),
        ),
    ]);
}

/// `transition` after a barrier's region: an image memory barrier that
/// changes the layout. It needs the region (the image's memory), comes
/// last, and wins over an object of that name, which a barrier then names
/// with its range (as the printer always does).
#[test]
fn layout_transitions() {
    let needs = "a layout transition needs a region (the image's memory): \
                 `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS REGION transition`";
    let bare = format!("2:32: {needs}");
    check_all(&[
        (
            "buffer a 16\nbarrier COPY:NONE -> COPY:TRANSFER_READ a transition",
            Ok("buffer a 16\nbarrier COPY:NONE -> COPY:TRANSFER_READ a[0..16] transition\n"),
        ),
        (
            "buffer a 16\nbarrier COPY:NONE -> COPY:NONE a[0..4] transition;HOST:NONE -> HOST:NONE a[4..8] transition",
            Ok("buffer a 16\nbarrier COPY:NONE -> COPY:NONE a[0..4] transition; HOST:NONE -> HOST:NONE a[4..8] transition\n"),
        ),
        ("buffer a 16\nbarrier COPY:NONE -> COPY:NONE transition", Err(&bare)),
        ("buffer a 16\nbarrier COPY:NONE -> COPY:NONE transition a", Err(&bare)),
        (
            "buffer a 16\nbarrier COPY:NONE -> COPY:NONE a transition a",
            Err("2:45: unexpected `a`"),
        ),
        (
            "buffer a 16\nbarrier COPY:NONE -> COPY:NONE a transitions",
            Err("2:34: unexpected `transitions`"),
        ),
        (
            "buffer transition 16\nbarrier COPY:NONE -> COPY:NONE transition[0..16] transition",
            Ok("buffer transition 16\nbarrier COPY:NONE -> COPY:NONE transition[0..16] transition\n"),
        ),
        (
            "buffer transition 16\nbarrier COPY:NONE -> COPY:NONE transition[0..16]",
            Ok("buffer transition 16\nbarrier COPY:NONE -> COPY:NONE transition[0..16]\n"),
        ),
        ("buffer transition 16\nbarrier COPY:NONE -> COPY:NONE transition", Err(&bare)),
    ]);
}

/// The error tables of `docs/trace-format.md` are real: each row's input
/// (after `buffer a 16` when the error is on line 2, after the queue or
/// event table's declarations on line 4 or 5) fails with the row's
/// message.
/// The declarations before each row of the images error table.
const IMAGE_HEAD: &str = "buffer staging 4096
buffer mem 256
image tex R8G8B8A8_UNORM 16x16 mips 2 layers 2
image lin R32_UINT 4x4 linear alias mem 0
";

#[test]
fn documented_errors() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/trace-format.md");
    let doc = std::fs::read_to_string(path).expect("docs/trace-format.md");
    let mut rows = 0;
    for row in doc.lines().map(str::trim).filter(|l| l.starts_with("| `")) {
        // | `INPUT` | ``MESSAGE`` (a remark) |
        let Some((input, rest)) = row.strip_prefix("| `").and_then(|r| r.split_once("` | ``")) else {
            continue;
        };
        let Some((message, _)) = rest.split_once("``") else {
            continue;
        };
        let message = message.trim();
        // Several lines are written `LINE` / `LINE` (the queue table's
        // two-line rows end on line 5).
        let two_lines = input.contains("` / `");
        let input = input.replace("` / `", "\n");
        // The images table's declarations (`docs/trace-format.md`,
        // "Images"): its rows name `tex`; some of its errors are found when
        // the program is resolved, and show the line only.
        if input.contains("tex") {
            let text = format!("{IMAGE_HEAD}{input}");
            let got = match trace::parse(&text) {
                Err(e) => e.to_string(),
                Ok(t) => match vksync::resolve(&t.program) {
                    Err(e) => format!("{}: {}", t.line_of(e.at).unwrap_or(0), e.kind),
                    Ok(_) => String::new(),
                },
            };
            assert_eq!(got, message, "for {text:?}");
            rows += 1;
            continue;
        }
        let text = if message.starts_with("2:") {
            format!("buffer a 16\n{input}")
        } else if message.starts_with("4:") || (two_lines && message.starts_with("5:")) {
            // The queue and semaphore table's declarations.
            format!("queue qa\nsemaphore s\nsemaphore t timeline\n{input}")
        } else if message.starts_with("5:") {
            // The events table's declarations and synchronization-1 set.
            format!("buffer a 256\nevent e\nevent f\nset-event1 e TRANSFER\n{input}")
        } else {
            input
        };
        check(&text, Err(message));
        rows += 1;
    }
    assert!(rows >= 15, "only {rows} documented errors found");
}

/// `not-modelled` lines: kept beside the program, with their line, call and
/// words (whitespace normalized); the program does not see them.
#[test]
fn not_modelled_lines() {
    let t = trace::parse(
        "buffer a 16\nnot-modelled vkCmdSetEvent2  event 0x5 # seq 3\nfill a 1\nnot-modelled vkCmdWaitEvents2\n",
    )
    .unwrap();
    let got: Vec<(usize, &str, &str)> = t
        .not_modelled
        .iter()
        .map(|n| (n.line, n.call.as_str(), n.detail.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![(2, "vkCmdSetEvent2", "event 0x5"), (4, "vkCmdWaitEvents2", "")]
    );
    assert_eq!(t.program.commands().len(), 1);
    assert_eq!(t.command_lines, vec![3]);
    check_all(&[(
        "buffer a 16\nnot-modelled\n",
        Err("2:13: expected the Vulkan call that is not modelled, found end of line"),
    )]);
}
