//! The documentation's transcripts are real: every ```` ```console ```` block
//! of `README.md` and `docs/*.md` whose command is `vksync check` or
//! `vksync plan` (possibly in a shell pipeline with `grep`, `printf` or a
//! second `vksync`) is run from the workspace root with the built binary
//! first on `PATH`, and its standard output, then standard error, then
//! `# exit status N` must equal the block's text after the `$` line.
//!
//! Deliberately not run here: `vksync run` blocks (they need a Vulkan device
//! and print the device's name; `cli.rs::run_reports_its_status` and the
//! runtime's tests cover them) and blocks that are not ```` ```console ````
//! (benchmark figures, excerpts). A console block with any other command
//! fails the test, so a new kind of transcript cannot slip in unchecked.
//!
//! `VKSYNC_BLESS_DOCS=1 cargo test -p vksync-cli --test docs` rewrites the
//! differing blocks with the binary's output instead of failing (review the
//! change with `git diff` and fix the prose around it).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A transcript: where it is, the shell command, the text the command must
/// print (stdout, stderr, `# exit status N`).
struct Block {
    at: String,
    /// The block's body lines (after the `$` line, up to the closing fence),
    /// as 0-based line indices of the file: `[start, end)`.
    lines: (usize, usize),
    command: String,
    expected: String,
}

fn console_blocks(file: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(file).expect("read a doc");
    let name = file.strip_prefix(root()).unwrap_or(file).display().to_string();
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        if line.trim_end() != "```console" {
            continue;
        }
        let mut body = Vec::new();
        let mut end = n + 1;
        for (m, l) in lines.by_ref() {
            end = m;
            if l.trim_end() == "```" {
                break;
            }
            body.push(l);
        }
        let at = format!("{name}:{}", n + 1);
        let first = body.first().copied().unwrap_or("");
        let command = first
            .strip_prefix("$ ")
            .unwrap_or_else(|| panic!("{at}: a console block starts with `$ COMMAND`"))
            .to_string();
        let mut expected = String::new();
        for l in &body[1..] {
            expected.push_str(l);
            expected.push('\n');
        }
        blocks.push(Block {
            at,
            lines: (n + 2, end),
            command,
            expected,
        });
    }
    blocks
}

fn docs() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut in_docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    in_docs.sort();
    files.extend(in_docs);
    files
}

/// Whether the test runs this block, and if not why not; a command it does
/// not know is an error.
fn runnable(command: &str) -> Result<bool, String> {
    let first = command.split_whitespace().collect::<Vec<_>>();
    match first.as_slice() {
        ["vksync", "run", ..] => Ok(false),
        ["vksync", "check" | "plan", ..] | ["printf", ..] => Ok(true),
        ["cd", "fuzz", ..] => Ok(false), // nightly cargo-fuzz, minutes long
        _ => Err(format!("unknown command in a console block: {command}")),
    }
}

fn run(command: &str) -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_vksync"));
    let dir = bin.parent().expect("the binary's folder");
    let path = format!("{}:{}", dir.display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(root())
        .env("PATH", path)
        // `check`'s `layer:` notes follow the installed validation layer
        // (1.3.239 on Debian 12, 1.4.309 and 1.4.363 in the current-layer
        // roots); the transcripts are taken without one, or name the
        // version with `--layer`, so they hold on every machine.
        .env("VKSYNC_VALIDATION", "0")
        .output()
        .expect("run sh");
    format!(
        "{}{}# exit status {}\n",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        out.status.code().unwrap_or(-1)
    )
}

#[test]
fn console_transcripts_match_the_binary() {
    let bless = std::env::var_os("VKSYNC_BLESS_DOCS").is_some();
    let mut checked = 0;
    let mut failures = Vec::new();
    for file in docs() {
        let mut rewrites = Vec::new();
        for b in console_blocks(&file) {
            match runnable(&b.command) {
                Err(e) => failures.push(format!("{}: {e}", b.at)),
                Ok(false) => {}
                Ok(true) => {
                    checked += 1;
                    let got = run(&b.command);
                    if got != b.expected && bless {
                        rewrites.push((b.lines, got));
                    } else if got != b.expected {
                        failures.push(format!(
                            "{}: `{}`\n--- documented\n{}--- actual\n{}",
                            b.at, b.command, b.expected, got
                        ));
                    }
                }
            }
        }
        if !rewrites.is_empty() {
            bless_file(&file, &rewrites);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} transcripts differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The docs hold at least the check and plan transcripts of cli.md and
    // README.md; fewer means the block detection broke.
    assert!(checked >= 12, "only {checked} transcripts found");
}

/// Replaces each block body `[start, end)` of `file` with its new text.
fn bless_file(file: &Path, rewrites: &[((usize, usize), String)]) {
    let text = std::fs::read_to_string(file).expect("read a doc");
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut at = 0;
    for ((start, end), got) in rewrites {
        for l in &lines[at..*start] {
            out.push_str(l);
            out.push('\n');
        }
        out.push_str(got);
        at = *end;
    }
    for l in &lines[at..] {
        out.push_str(l);
        out.push('\n');
    }
    std::fs::write(file, out).expect("write a doc");
}
