//! Random inputs to the trace parser, for `cargo test` on stable (the
//! libFuzzer target in `fuzz/` needs nightly): strings of trace tokens and
//! troublesome characters, examples with random edits, and long lines.
//! Properties: `parse` never panics; an error names a line of the input
//! and a column within it (or just past its end); a trace that parses
//! prints to text that parses back to the same program, and prints the
//! same again.
//!
//! `QUICKCHECK_TESTS=100000 cargo test -p vksync --test trace_random` runs
//! longer.

use quickcheck::{Arbitrary, Gen, QuickCheck};
use std::sync::OnceLock;
use vksync::trace;

/// Pieces of traces, valid and not: keywords, names, regions, flags and
/// numbers (good and bad).
// Data, kept dense: rustfmt would put each string on its own line.
#[rustfmt::skip]
const VOCAB: &[&str] = &[
    "buffer", "pool", "alloc", "free", "copy", "fill", "update", "dispatch", "barrier", "host-write",
    "host-read", "submit", "wait", "alias", "align", "from", "read", "write", "rw", "indirect", "->", ";",
    "transition",
    "a", "b", "p", "x", "y", "k", "a[0..16]", "b[4..8]", "x[0..64]", "a[", "]", "..", "[0..", "k(1,2)",
    "scale_add(2,3)", "()", "(", ")", "(1,,2)", "COPY:NONE", "CLEAR:TRANSFER_WRITE",
    "COMPUTE_SHADER:SHADER_READ|SHADER_WRITE", "HOST:HOST_READ", "TRANSFER|COPY", ":", "|", "0", "4", "16",
    "64", "4096", "0x10", "0X1_0", "1_000", "_1", "1_", "1__0", "0x_", "0x", "0x+1", "-1",
    "18446744073709551615", "18446744073709551616", "4294967296", "#", "# comment", "\n", "\n", "\r\n",
    "\t", " ", "  ",
];

/// Characters the lexer must place or reject. Rarer than [`VOCAB`]: any one
/// of them (outside a comment) makes a line fail, and the round trip needs
/// traces that parse.
const ODD: &[&str] = &[
    "\r", "\u{feff}", "\u{a0}", "\u{b}", "\u{c}", "\u{0}", "\u{85}", "\u{2028}", "é", "ß",
];

/// The start of a trace that declares every name in [`VOCAB`].
const HEADER: &str = "buffer a 64\nbuffer b 64\npool p 4096\nalloc x 64 from p\nalloc y 64 from p\n";

/// Command lines, with `R` a region, `N` a number, `K` a kernel, `F` a
/// barrier side, `B` a binding keyword, `D` a new name and `;` a barrier
/// separator: mostly valid, so that many random traces parse and exercise
/// the round trip.
const TEMPLATES: &[&[&str]] = &[
    &["fill", "R", "N"],
    &["update", "R"],
    &["update", "R", "N"],
    &["host-write", "R", "N"],
    &["host-read", "R"],
    &["copy", "R", "->", "R"],
    &["dispatch", "K", "B", "R"],
    &["dispatch", "K", "indirect", "R", "B", "R", "B", "R"],
    &["barrier"],
    &["barrier", "F", "->", "F"],
    &["barrier", "F", "->", "F", "R", ";", "F", "->", "F"],
    &["barrier", "F", "->", "F", "R", "transition"],
    &["barrier", "F", "->", "F", ";", "F", "->", "F", "R", "transition"],
    &["submit"],
    &["wait"],
    &["free", "x"],
    &["buffer", "D", "N", "alias", "a", "N"],
    &["pool", "D", "N", "align", "N"],
    &["alloc", "D", "N", "from", "p"],
];
const REGIONS: &[&str] = &[
    "a",
    "b",
    "x",
    "a[0..16]",
    "b[4..8]",
    "x[0..64]",
    "a[0x0..0x1_0]",
    "y[0..4]",
];
const NUMBERS: &[&str] = &["0", "1", "4", "16", "64", "0x10", "1_000", "4294967295"];
const BAD_NUMBERS: &[&str] = &["1_", "_1", "0x", "4294967296", "18446744073709551616", "1__0"];
const KERNELS: &[&str] = &["k", "k()", "scale_add(2,3)", "slow(0x8)", "k(1_0)", "a.b-c_"];
const BAD_KERNELS: &[&str] = &["()", "rw", "k(1", "k)"];
const SIDES: &[&str] = &[
    "COPY:NONE",
    "CLEAR:TRANSFER_WRITE",
    "COMPUTE_SHADER:SHADER_READ|SHADER_WRITE",
    "HOST:HOST_READ",
    "ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE",
    "TRANSFER|COPY:TRANSFER_READ",
];

/// One line from [`TEMPLATES`]; `fresh` counts the names made up so far.
fn command(g: &mut Gen, fresh: &mut usize) -> String {
    let bad = below(g, 100) == 0;
    let parts: Vec<String> = pick(g, TEMPLATES)
        .iter()
        .map(|&part| match part {
            "R" => pick(g, REGIONS),
            "N" if bad => pick(g, BAD_NUMBERS),
            "N" => pick(g, NUMBERS),
            "K" if bad => pick(g, BAD_KERNELS),
            "K" => pick(g, KERNELS),
            "F" => pick(g, SIDES),
            "B" => pick(g, &["read", "write", "rw"]),
            ";" => pick(g, &[";", " ;", "; "]),
            literal => literal,
        })
        .map(|part| {
            if part == "D" {
                *fresh += 1;
                format!("n{fresh}")
            } else {
                part.to_string()
            }
        })
        .collect();
    parts.join(" ")
}

fn examples() -> &'static [String] {
    static EXAMPLES: OnceLock<Vec<String>> = OnceLock::new();
    EXAMPLES.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
        let mut texts: Vec<String> = std::fs::read_dir(dir)
            .expect("examples/ exists")
            .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
            .collect();
        texts.sort();
        assert!(!texts.is_empty());
        texts
    })
}

fn pick<T: Copy>(g: &mut Gen, items: &[T]) -> T {
    *g.choose(items).expect("non-empty")
}

fn word(g: &mut Gen) -> &'static str {
    if below(g, 40) == 0 {
        pick(g, ODD)
    } else {
        pick(g, VOCAB)
    }
}

fn below(g: &mut Gen, n: usize) -> usize {
    usize::arbitrary(g) % n.max(1)
}

/// Random tokens, separated by a space or by nothing.
fn tokens(g: &mut Gen, n: usize) -> String {
    let mut s = String::new();
    for _ in 0..n {
        s.push_str(word(g));
        if bool::arbitrary(g) {
            s.push(' ');
        }
    }
    s
}

/// `text` with a few random edits at character boundaries.
fn mutate(g: &mut Gen, text: &str) -> String {
    let mut s = text.to_string();
    for _ in 0..1 + below(g, 4) {
        let bounds: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
        let i = below(g, bounds.len());
        let at = bounds[i];
        match below(g, 3) {
            0 => s.insert_str(at, word(g)),
            1 => {
                // Up to eight characters, so most of the trace survives.
                let j = (i + 1 + below(g, 8)).min(bounds.len() - 1);
                s.replace_range(at..bounds[j], "");
            }
            _ => {
                let line_start = s[..at].rfind('\n').map_or(0, |i| i + 1);
                let line_end = s[at..].find('\n').map_or(s.len(), |i| at + i + 1);
                let line = s[line_start..line_end].to_string();
                s.insert_str(line_start, &line);
            }
        }
    }
    s
}

#[derive(Clone, Debug)]
struct Input(String);

impl Arbitrary for Input {
    fn arbitrary(g: &mut Gen) -> Self {
        let size = g.size();
        Input(match below(g, 7) {
            0 => {
                let n = below(g, size);
                tokens(g, n)
            }
            1 => {
                let n = below(g, size);
                format!("{HEADER}{}", tokens(g, n))
            }
            2 => {
                let example = g.choose(examples()).expect("non-empty").clone();
                mutate(g, &example)
            }
            3 => {
                // A long line: one fragment repeated, then a random tail.
                let fragment = pick(
                    g,
                    &[
                        " COPY:NONE -> CLEAR:NONE a[0..4];",
                        " read a",
                        "|CLEAR",
                        " x",
                        " a[0..1_6]",
                    ],
                );
                let head = pick(g, &["barrier", "dispatch k", "barrier COPY", "submit", "fill"]);
                let body = fragment.repeat(1000 + below(g, 20_000));
                let n = below(g, 3);
                let tail = tokens(g, n);
                format!("{HEADER}{head}{body}{tail}")
            }
            4 | 5 => {
                let mut text = HEADER.to_string();
                let mut fresh = 0;
                for _ in 0..below(g, size) {
                    text += &command(g, &mut fresh);
                    text.push('\n');
                }
                if bool::arbitrary(g) {
                    text = mutate(g, &text);
                }
                text
            }
            _ => String::arbitrary(g),
        })
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        // Drop one line at a time.
        let lines: Vec<String> = self.0.split_inclusive('\n').map(str::to_string).collect();
        Box::new((0..lines.len()).map(move |skip| {
            Input(
                lines
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != skip)
                    .map(|(_, l)| l.as_str())
                    .collect(),
            )
        }))
    }
}

/// Why `text` breaks a property, or `None`.
fn violation(text: &str) -> Option<String> {
    match trace::parse(text) {
        Ok(t) => {
            let printed = trace::print(&t.program);
            match trace::parse(&printed) {
                Err(e) => Some(format!("printed trace does not parse: {e}\n{printed}")),
                Ok(again) if again.program != t.program => {
                    Some(format!("round trip changed the program:\n{printed}"))
                }
                Ok(again) if trace::print(&again.program) != printed => Some("printing is not stable".into()),
                Ok(_) => None,
            }
        }
        Err(e) => {
            let body = text.strip_prefix('\u{feff}').unwrap_or(text);
            let line = body.split('\n').nth(e.line.wrapping_sub(1));
            match line {
                Some(l) if e.col >= 1 && e.col <= l.chars().count() + 1 => None,
                _ => Some(format!("error outside the input: {e}")),
            }
        }
    }
}

#[test]
fn random_inputs_never_panic_and_round_trip() {
    let tests = std::env::var("QUICKCHECK_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5000);
    // `max_tests` too: it defaults to 10,000 and would cap a longer run.
    QuickCheck::new()
        .tests(tests)
        .max_tests(tests)
        .rng(Gen::new(60))
        .quickcheck(
            (|input: Input| violation(&input.0).map_or(Ok(()), Err)) as fn(Input) -> Result<(), String>,
        );
}

#[test]
fn examples_round_trip() {
    for text in examples() {
        assert_eq!(violation(text), None);
        assert!(trace::parse(text).is_ok());
    }
}
