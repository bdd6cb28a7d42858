//! `vksync capture -- COMMAND ARGS...`: run a program with the capture
//! layer (`VK_LAYER_VKSYNC_capture`, crate `vksync-capture`) enabled, then
//! check each trace it wrote.
//!
//! This module owns finding the layer library (next to the `vksync`
//! binary), writing its manifest into a fresh temporary directory, the
//! environment the child gets (`VK_ADD_LAYER_PATH`, and `VK_LAYER_PATH`
//! when it is set; `VK_INSTANCE_LAYERS`, `VKSYNC_CAPTURE_OUTPUT`), running
//! the child, and listing the traces it
//! left. It records nothing itself (the layer does, in the child) and
//! judges nothing itself (`vksync check` does, through [`crate::check`]).
//! Errors are typed ([`CaptureError`]) and each names what it is about.

use crate::output::{say, to_stderr, Out};
use crate::Status;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The layer's fault-injection switch (as in `capture/src/layer.rs`,
/// `DROP_ENV`).
const DROP_ENV: &str = "VKSYNC_CAPTURE_DROP";
/// The layer's name (as in `vksync_capture::LAYER_NAME`).
const LAYER_NAME: &str = "VK_LAYER_VKSYNC_capture";
/// The layer library's file name.
const LIBRARY: &str = "libvksync_capture.so";

/// Why `vksync capture` could not run the command.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// The layer library is not next to the binary.
    #[error(
        "the capture layer library is not at {}: build it with `cargo build -p vksync-capture` \
         (with `--release` for a release `vksync`), which puts it next to the `vksync` binary",
        .0.display()
    )]
    NoLibrary(PathBuf),
    /// The binary's own path is unknown.
    #[error("cannot find the vksync binary's directory: {0}")]
    NoExe(std::io::Error),
    /// Writing the manifest failed.
    #[error("cannot write the layer manifest {}: {source}", path.display())]
    Manifest {
        /// The manifest path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The command could not be started.
    #[error("cannot run `{command}`: {source}")]
    Spawn {
        /// The program.
        command: String,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// The layer manifest for the library at `library`.
pub fn manifest(library: &Path) -> String {
    let path: String = library
        .display()
        .to_string()
        .chars()
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect();
    format!(
        r#"{{
    "file_format_version": "1.2.0",
    "layer": {{
        "name": "{LAYER_NAME}",
        "type": "GLOBAL",
        "library_path": "{path}",
        "api_version": "1.3.239",
        "implementation_version": "1",
        "description": "vksync capture: records buffer commands as a vksync trace"
    }}
}}
"#
    )
}

/// `base`, and `base` with `.N` before its extension for N = 1, 2, ...:
/// the traces of the first, second, ... device.
fn numbered(base: &Path, n: usize) -> PathBuf {
    if n == 0 {
        return base.to_path_buf();
    }
    let stem = base
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match base.extension() {
        Some(ext) => format!("{stem}.{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}.{n}"),
    };
    base.with_file_name(name)
}

/// `list` (colon-separated) with `item` added at the end unless present.
fn with_item(list: Option<OsString>, item: &str, first: bool) -> OsString {
    let old = list.map(|l| l.to_string_lossy().into_owned()).unwrap_or_default();
    let parts: Vec<&str> = old.split(':').filter(|p| !p.is_empty()).collect();
    if parts.contains(&item) {
        return old.into();
    }
    let mut all: Vec<&str> = Vec::new();
    if first {
        all.push(item);
        all.extend(parts);
    } else {
        all.extend(parts);
        all.push(item);
    }
    all.join(":").into()
}

fn prepare(output: &Path) -> Result<(PathBuf, PathBuf), CaptureError> {
    let exe = std::env::current_exe().map_err(CaptureError::NoExe)?;
    let dir = exe
        .parent()
        .ok_or_else(|| CaptureError::NoExe(std::io::Error::other("no parent directory")))?;
    let library = dir.join(LIBRARY);
    if !library.is_file() {
        return Err(CaptureError::NoLibrary(library));
    }
    let layer_dir = std::env::temp_dir().join(format!("vksync-capture-layer-{}", std::process::id()));
    let path = layer_dir.join("VkLayer_vksync_capture.json");
    std::fs::create_dir_all(&layer_dir)
        .and_then(|()| std::fs::write(&path, manifest(&library)))
        .map_err(|source| CaptureError::Manifest { path, source })?;
    // Stale traces of an earlier run would be taken for this run's.
    for n in 0..64 {
        let _ = std::fs::remove_file(numbered(output, n));
    }
    Ok((layer_dir, library))
}

/// Runs `command` under the layer, writing traces to `output` (and
/// numbered siblings), then checks each.
///
/// `fault`: fault injection (a positive control; off when `None`): the
/// layer drops the application's N-th pipeline barrier call
/// (`("barrier", N)`) or semaphore wait (`("wait", N)`) on its way down
/// (`VKSYNC_CAPTURE_DROP=KIND:N`, docs/capture.md, "Fault injection").
pub fn capture(
    output: &Path,
    command: &[OsString],
    reading: vksync::Reading,
    fault: Option<(&str, u64)>,
    out: &mut Out,
) -> Status {
    let Some((program, args)) = command.split_first() else {
        to_stderr!(
            "vksync capture: error: no command given (usage: vksync capture [-o FILE] -- COMMAND ARGS...)"
        );
        return Status::BadInput;
    };
    let output = std::path::absolute(output).unwrap_or_else(|_| output.to_path_buf());
    let (layer_dir, _) = match prepare(&output) {
        Ok(x) => x,
        Err(e @ CaptureError::NoLibrary(_)) => {
            to_stderr!("vksync capture: error: {e}");
            return Status::NoDevice;
        }
        Err(e) => {
            to_stderr!("vksync capture: error: {e}");
            return Status::BadInput;
        }
    };
    let mut child = Command::new(program);
    child
        .args(args)
        .env(
            "VK_ADD_LAYER_PATH",
            with_item(
                std::env::var_os("VK_ADD_LAYER_PATH"),
                &layer_dir.to_string_lossy(),
                true,
            ),
        )
        .env(
            "VK_INSTANCE_LAYERS",
            with_item(std::env::var_os("VK_INSTANCE_LAYERS"), LAYER_NAME, false),
        )
        .env("VKSYNC_CAPTURE_OUTPUT", &output);
    if let Some((kind, n)) = fault {
        child.env(DROP_ENV, format!("{kind}:{n}"));
    }
    // `VK_LAYER_PATH`, when set, replaces the loader's layer search (and,
    // in some loaders, `VK_ADD_LAYER_PATH` with it): the layer goes there
    // too, so that it is found whatever the environment says.
    if let Some(paths) = std::env::var_os("VK_LAYER_PATH") {
        child.env(
            "VK_LAYER_PATH",
            with_item(Some(paths), &layer_dir.to_string_lossy(), true),
        );
    }
    let status = child.status();
    let _ = std::fs::remove_dir_all(&layer_dir);
    let name = program.to_string_lossy().into_owned();
    let status = match status {
        Ok(s) => s,
        Err(source) => {
            to_stderr!(
                "vksync capture: error: {}",
                CaptureError::Spawn {
                    command: name,
                    source
                }
            );
            return Status::BadInput;
        }
    };
    let ended = Ended::of(status);
    say!(out, "vksync capture: `{name}` {}", ended.describe());
    let traces: Vec<PathBuf> = (0..64)
        .map(|n| numbered(&output, n))
        .filter(|p| p.is_file())
        .collect();
    if traces.is_empty() {
        say!(
            out,
            "vksync capture: no trace written to {} (the command created no Vulkan device with the layer enabled)",
            output.display()
        );
        return ended.status_or(Status::BadInput, out);
    }
    if let Some((kind, n)) = fault {
        // The layer's comment where it dropped something (`layer.rs`,
        // `drop_barrier` and `note_dropped_wait`).
        let dropped = traces.iter().any(|t| {
            std::fs::read_to_string(t).is_ok_and(|text| {
                text.lines().any(|l| {
                    l.starts_with(&format!("# fault injection ({DROP_ENV}={kind}:{n}): "))
                        && l.contains(" dropped: not sent to the device")
                })
            })
        });
        if !dropped {
            let what = if kind == "wait" {
                "semaphore wait"
            } else {
                "barrier"
            };
            say!(
                out,
                "vksync capture: --drop-{kind} {n}: no trace says a {what} was dropped (the command made fewer than {n} on a device, or it could not be dropped: see the trace's comments)"
            );
        }
    }
    let mut worst = Status::Clean;
    for t in &traces {
        if let Some(line) = mark_unfinished(t, &ended) {
            say!(out, "vksync capture: trace {} is unfinished: {line}", t.display());
        }
        if let Err(e) = rename_in_file(t) {
            say!(
                out,
                "vksync capture: trace {}: the application's late debug names were not applied: {e}",
                t.display()
            );
        }
        say!(out, "vksync capture: trace {}; vksync check says:", t.display());
        // Hazards are printed as they are found: flush what came before so
        // the summary on stderr follows it.
        let st = crate::check(t, reading, out);
        if st != Status::Clean && worst == Status::Clean || st == Status::BadInput {
            worst = st;
        }
    }
    ended.status_or(worst, out)
}

/// How the captured command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ended {
    /// `exit(N)` (or a return from `main`).
    Exited(i32),
    /// Killed by signal N.
    Signal(i32),
    /// Neither (not a Unix status).
    Unknown,
}

impl Ended {
    fn of(status: std::process::ExitStatus) -> Ended {
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt as _;
            if let Some(sig) = status.signal() {
                return Ended::Signal(sig);
            }
        }
        status.code().map_or(Ended::Unknown, Ended::Exited)
    }

    fn describe(self) -> String {
        match self {
            Ended::Exited(c) => format!("exited with status {c}"),
            Ended::Signal(s) => format!("was killed by signal {s}"),
            Ended::Unknown => "ended with an unknown status".to_string(),
        }
    }

    /// The exit status of `vksync capture`: `checked` (what the checks
    /// say) when the command succeeded; the command's own status when it
    /// failed (a signal N as 128 + N, as a shell reports it), so that a
    /// script running an application under capture sees its failure
    /// (issue 27: an application that died with status 77 left `vksync
    /// capture` exiting 0). That status is not one of [`Status`]'s, so the
    /// process ends here, its output flushed.
    fn status_or(self, checked: Status, out: &mut Out) -> Status {
        let code = match self {
            Ended::Exited(0) => return checked,
            Ended::Exited(c) => c,
            Ended::Signal(s) => 128 + s,
            Ended::Unknown => 1,
        };
        // An exit status is one byte; 256 would read as success.
        let code = if code & 0xff == 0 { 1 } else { code & 0xff };
        say!(
            out,
            "vksync capture: exit status {code}, the application's (the checks above do not set it when the application fails)"
        );
        use std::io::Write as _;
        let _ = std::io::stdout().flush();
        std::process::exit(code)
    }
}

/// Whether `line` is the summary that ends a finished trace
/// (`# N commands, M submissions, K calls not modelled ...`, written by
/// `Capture::summary` in `capture/src/record.rs`, at `vkDestroyDevice` or
/// at process exit).
fn is_summary(line: &str) -> bool {
    line.strip_prefix("# ")
        .and_then(|rest| rest.split_once(" commands, "))
        .is_some_and(|(n, rest)| {
            n.parse::<u64>().is_ok()
                && rest.contains(" submissions, ")
                && rest.contains(" calls not modelled")
        })
}

/// If the trace at `path` does not end with its summary line (the command
/// was killed, called `_exit`, or crashed before the layer could finish
/// it), appends a comment saying so and returns its text.
fn mark_unfinished(path: &Path, ended: &Ended) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    if text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .is_some_and(is_summary)
    {
        return None;
    }
    let why = format!(
        "the command {} before the layer could finish it (no vkDestroyDevice, and no normal exit): \
         what it did after its last vkQueueSubmit (waits, host reads) is missing",
        ended.describe()
    );
    let sep = if text.is_empty() || text.ends_with('\n') {
        ""
    } else {
        "\n"
    };
    let mut t = std::fs::OpenOptions::new().append(true).open(path).ok()?;
    use std::io::Write as _;
    let _ = writeln!(t, "{sep}# unfinished: {why}");
    Some(why)
}

/// How the layer's rename comment begins (`vksync_capture::record::RENAME`
/// after `# `): `# rename OLD -> NEW (why)`, written when the application
/// gave a buffer, image or memory object a debug name after the object was
/// declared in the trace.
const RENAME: &str = "# rename ";

/// The renames a trace asks for, `OLD -> NEW`, the last one for each `OLD`
/// winning (an object's name is the last the application gave it). The
/// layer wrote `NEW` in the trace's name syntax and unique.
fn renames(text: &str) -> std::collections::HashMap<&str, &str> {
    text.lines()
        .filter_map(|l| l.strip_prefix(RENAME))
        .filter_map(|rest| {
            let mut w = rest.split_whitespace();
            match (w.next(), w.next(), w.next()) {
                (Some(old), Some("->"), Some(new)) => Some((old, new)),
                _ => None,
            }
        })
        .collect()
}

/// A character of a trace name (as `name_ok` in `capture/src/record.rs`).
fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// `text` with the renames it asks for applied on every line but the
/// rename comments themselves (which keep saying what was renamed), or
/// `None` when it asks for none. A name is a whole run of name characters
/// (`b1` is not renamed inside `b12` or `0xb1`); a run ending in dots (the
/// end of a sentence in a comment) is looked up without them too.
fn apply_renames(text: &str) -> Option<String> {
    let map = renames(text);
    if map.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.split_inclusive('\n') {
        if line.starts_with(RENAME) {
            out.push_str(line);
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find(name_char) {
            out.push_str(&rest[..start]);
            let run_len = rest[start..]
                .find(|c: char| !name_char(c))
                .unwrap_or(rest.len() - start);
            let run = &rest[start..start + run_len];
            let bare = run.trim_end_matches('.');
            match (map.get(run), map.get(bare)) {
                (Some(new), _) => out.push_str(new),
                (None, Some(new)) if !bare.is_empty() => {
                    out.push_str(new);
                    out.push_str(&run[bare.len()..]);
                }
                _ => out.push_str(run),
            }
            rest = &rest[start + run_len..];
        }
        out.push_str(rest);
    }
    Some(out)
}

/// Applies the trace's renames to the file at `path` (issue 23: wgpu names
/// its buffers after binding them, and a report should say `staging`, not
/// `b7`).
fn rename_in_file(path: &Path) -> std::io::Result<()> {
    let text = std::fs::read_to_string(path)?;
    match apply_renames(&text) {
        Some(renamed) => std::fs::write(path, renamed),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Late debug names: (trace, the trace after the renames).
    #[test]
    fn late_names_rename_throughout() {
        let cases = [
            ("buffer b0 64 alias m0 0\nfill b0[0..64] 1\n", "buffer b0 64 alias m0 0\nfill b0[0..64] 1\n"),
            (
                "buffer b1 64 alias m0 0\nbuffer b12 64 alias m0 64\n# rename b1 -> staging (why)\nfill b1[0..64] 1  # b1 at 0xb1, b12.\ncopy b12[0..4] -> b1[0..4]\n",
                "buffer staging 64 alias m0 0\nbuffer b12 64 alias m0 64\n# rename b1 -> staging (why)\nfill staging[0..64] 1  # staging at 0xb1, b12.\ncopy b12[0..4] -> staging[0..4]\n",
            ),
            // The last name wins; memory objects and images too; a sentence's
            // full stop stays.
            (
                "buffer m0 128\nimage i0 R32_UINT 4x4 alias m0 0\n# rename i0 -> a\n# rename i0 -> tex.2\n# rename m0 -> heap\n# i0 is an image.\n",
                "buffer heap 128\nimage tex.2 R32_UINT 4x4 alias heap 0\n# rename i0 -> a\n# rename i0 -> tex.2\n# rename m0 -> heap\n# tex.2 is an image.\n",
            ),
        ];
        for (text, want) in cases {
            let got = apply_renames(text).unwrap_or_else(|| text.to_string());
            assert_eq!(got, want, "{text}");
            // Applying them again changes nothing.
            assert_eq!(apply_renames(&got).unwrap_or_else(|| got.clone()), want);
        }
    }

    #[test]
    fn numbered_traces_keep_the_extension() {
        let base = Path::new("/tmp/x/run.trace");
        assert_eq!(numbered(base, 0), Path::new("/tmp/x/run.trace"));
        assert_eq!(numbered(base, 2), Path::new("/tmp/x/run.2.trace"));
        assert_eq!(numbered(Path::new("out"), 1), Path::new("out.1"));
    }

    #[test]
    fn summary_lines_are_told_from_others() {
        let cases = [
            (
                "# 5 commands, 1 submissions, 0 calls not modelled (see the `not-modelled` lines)",
                true,
            ),
            ("# 0 commands, 0 submissions, 3 calls not modelled", true),
            ("# captured by VK_LAYER_VKSYNC_capture 0.1.0", false),
            ("# x commands, 1 submissions, 0 calls not modelled", false),
            ("submit  # vkQueueSubmit #9", false),
            ("# unfinished: the command was killed", false),
        ];
        for (line, want) in cases {
            assert_eq!(is_summary(line), want, "{line}");
        }
    }

    #[test]
    fn layer_lists_keep_what_was_there() {
        assert_eq!(with_item(None, "L", false), "L");
        assert_eq!(with_item(Some("A:B".into()), "L", false), "A:B:L");
        assert_eq!(with_item(Some("A:L".into()), "L", false), "A:L");
        assert_eq!(with_item(Some("/x".into()), "/y", true), "/y:/x");
    }

    #[test]
    fn the_manifest_names_the_layer_and_escapes_the_path() {
        let m = manifest(Path::new("/a \"b\"/libvksync_capture.so"));
        assert!(m.contains(r#""name": "VK_LAYER_VKSYNC_capture""#));
        assert!(m.contains(r#""library_path": "/a \"b\"/libvksync_capture.so""#));
    }
}
