//! Traces that once broke the printer/parser round trip stay fixed.

use vksync::trace;

#[test]
fn fuzz_regressions_round_trip() {
    // Inputs the parser fuzz target once failed on (fuzz/regressions/).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).expect("fuzz/regressions exists") {
        let text = std::fs::read_to_string(entry.expect("readable entry").path()).expect("utf-8 trace");
        let t = trace::parse(&text).expect("regression parses");
        let again = trace::parse(&trace::print(&t.program)).expect("printed trace parses");
        assert_eq!(again.program, t.program);
        seen += 1;
    }
    assert!(seen > 0);
}

/// `print_annotated` puts each comment where it was asked for, keeps every
/// comment on one line, and the text parses back to the same program as
/// `print`'s.
#[test]
fn annotated_print_parses_back_to_the_same_program() {
    use vksync::trace::{parse, print, print_annotated, Annotations};
    let t = parse("buffer a 64\nbuffer b 64\nfill a 1\ncopy a -> b\nsubmit\n").unwrap();
    let mut notes = Annotations::new();
    notes
        .header("captured by a test")
        .before(1, "not modelled: vkCmdCopyImage #3")
        .trailing(0, "vkCmdFillBuffer #1")
        .trailing(1, "vkCmdCopyBuffer #2\nbuffer c 16")
        .not_modelled(
            1,
            "vkCmdCopyBufferToImage",
            "a[0..64] to image 0x5 (#7)",
            "vkCmdCopyBufferToImage #4",
        )
        .before(3, "at the end");
    let text = print_annotated(&t.program, &notes);
    assert_eq!(
        text,
        "# captured by a test\nbuffer a 64\nbuffer b 64\n\
         fill a[0..64] 1  # vkCmdFillBuffer #1\n\
         # not modelled: vkCmdCopyImage #3\n\
         not-modelled vkCmdCopyBufferToImage a[0..64] to image 0x5 (no.7)  # vkCmdCopyBufferToImage #4\n\
         copy a[0..64] -> b[0..64]  # vkCmdCopyBuffer #2 buffer c 16\n\
         submit\n# at the end\n"
    );
    let back = parse(&text).unwrap();
    assert_eq!(back.program, t.program);
    assert_eq!(back.not_modelled.len(), 1);
    assert_eq!(
        (
            back.not_modelled[0].line,
            back.not_modelled[0].call.as_str(),
            back.not_modelled[0].detail.as_str()
        ),
        (6, "vkCmdCopyBufferToImage", "a[0..64] to image 0x5 (no.7)")
    );
    assert_eq!(
        print_annotated(&t.program, &Annotations::new()),
        print(&t.program)
    );
}

/// A program printed in pieces by `trace::Writer` as it grows (each piece
/// after more of its lines were parsed) reads back as the whole program,
/// for every example trace and fuzz regression, at every split.
#[test]
fn a_program_written_in_pieces_parses_back_whole() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut seen = 0;
    for dir in ["examples", "fuzz/regressions"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("directory exists") {
            let path = entry.expect("readable entry").path();
            if dir == "examples" && path.extension().is_none_or(|e| e != "trace") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("utf-8 trace");
            let whole = trace::parse(&text).expect("trace parses").program;
            let lines: Vec<String> = trace::print(&whole).lines().map(|l| format!("{l}\n")).collect();
            // Pieces of 1, 2 and 5 lines: every prefix is itself a trace
            // (a line never needs a later one), so each parses to the
            // program grown so far.
            for step in [1usize, 2, 5] {
                let mut w = trace::Writer::new();
                let mut out = String::new();
                let notes = trace::Annotations::new();
                let mut k = 0;
                while k < lines.len() {
                    k = (k + step).min(lines.len());
                    let grown = trace::parse(&lines[..k].concat()).expect("prefix parses").program;
                    out.push_str(&w.append(&grown, &notes));
                }
                out.push_str(&w.finish(&whole, &notes));
                let back = trace::parse(&out).unwrap_or_else(|e| panic!("{}: {e}\n{out}", path.display()));
                assert_eq!(back.program, whole, "{} in pieces of {step}", path.display());
            }
            seen += 1;
        }
    }
    assert!(seen > 10, "{seen} traces");
}

/// The image copies print as they parse, name their Vulkan command, and
/// are refused, with the line and column, when a side is missing.
#[test]
fn image_copies_round_trip() {
    use vksync::{Command, ImageCopy};
    let text = "buffer m 1024\nbuffer img 512 alias m 0\nbuffer b 256\n\
                copy-buffer-to-image b[0..256] -> img[0..512]\n\
                copy-image img[0..512] -> img[0..512]\n\
                copy-image-to-buffer img[0..512] -> b[0..64]\n";
    let t = trace::parse(text).expect("parses");
    let kinds: Vec<(ImageCopy, &str)> = t
        .program
        .commands()
        .iter()
        .filter_map(|c| match c {
            Command::CopyImage { kind, .. } => Some((*kind, c.vulkan_name())),
            _ => None,
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (ImageCopy::BufferToImage, "vkCmdCopyBufferToImage"),
            (ImageCopy::ImageToImage, "vkCmdCopyImage"),
            (ImageCopy::ImageToBuffer, "vkCmdCopyImageToBuffer"),
        ]
    );
    let printed = trace::print(&t.program);
    assert!(printed.ends_with(
        "copy-buffer-to-image b[0..256] -> img[0..512]\ncopy-image img[0..512] -> img[0..512]\ncopy-image-to-buffer img[0..512] -> b[0..64]\n"
    ), "{printed}");
    assert_eq!(trace::parse(&printed).expect("printed parses").program, t.program);
    let e = trace::parse("buffer b 64\ncopy-image b[0..64]")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("2:"), "{e}");
}

/// The printer writes an image's options in the order
/// `docs/trace-format.md` gives (`[mips N] [layers N] [optimal|linear]
/// [exclusive|concurrent] [initial LAYOUT] [alias MEM OFFSET]`); the
/// parser takes them in any order.
#[test]
fn image_options_print_in_the_documented_order() {
    let text = "buffer mem 4096\nimage a R32_UINT 4x4 alias mem 0 initial GENERAL exclusive linear layers 2 mips 2\n";
    let t = trace::parse(text).expect("parses");
    let printed = trace::print(&t.program);
    assert!(
        printed
            .contains("image a R32_UINT 4x4 mips 2 layers 2 linear exclusive initial GENERAL alias mem 0\n"),
        "{printed}"
    );
    assert_eq!(trace::parse(&printed).expect("printed parses").program, t.program);
}
