//! `vksync check`'s `layer:` notes: every hazard the Khronos validation
//! layer reports for a trace and the checked reading does not, with the
//! layer's message name, the known difference that explains it and the
//! barrier that satisfies both.
//!
//! This module owns choosing the layer (`--layer VERSION`, `--layer none`,
//! or the installed one as `vksync run` detects it) and printing the
//! notes. It does not decide anything: the prediction is
//! `vksync::layer::predict` with the version's profile (the layer as
//! `vksync run` configures it: record-time validation, one command buffer
//! at a time, shader accesses validated), the explanation
//! `vksync::layer::explain`. Programs the emulation does not model (several
//! queues or semaphores, events) get no notes. Notes are not hazards: they
//! leave the exit status alone.

use crate::input::Source;
use crate::output::{say, to_stderr, Out};
use crate::report;
use vksync::layer::{predict, Explainer, Explanation, Layer};
use vksync::{HazardGroup, HazardKind};

/// Which layer `check` predicts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayerChoice {
    /// The installed layer, if any (`VKSYNC_VALIDATION=0`: none).
    Installed,
    /// No notes (`--layer none`).
    None,
    /// This version's profile (`--layer 1.4.309`).
    Version(String),
}

impl LayerChoice {
    /// From `--layer`'s value (`None`: not given).
    pub fn from_arg(arg: Option<&str>) -> LayerChoice {
        match arg {
            None => LayerChoice::Installed,
            Some("none") => LayerChoice::None,
            Some(v) => LayerChoice::Version(v.to_string()),
        }
    }

    /// The version to name in the notes and its profile; `Err` for a
    /// version that is not `MAJOR.MINOR.PATCH`.
    fn resolve(&self) -> Result<Option<(String, Layer)>, String> {
        // The version as the notes name it: with the profile that predicts
        // it where that is another version (review37: `--layer 0.0.0` was
        // named as if a profile of it existed; it is the oldest one's).
        let named = |v: String, l: Layer| {
            if v == l.version() {
                v
            } else {
                format!("{v} (as its profile {} predicts)", l.version())
            }
        };
        match self {
            LayerChoice::None => Ok(None),
            LayerChoice::Installed => Ok(vksync_runtime::installed_validation_layer().map(|(a, b, c)| {
                let l = Layer::for_version(a, b, c);
                (named(format!("{a}.{b}.{c}"), l), l)
            })),
            LayerChoice::Version(v) => match Layer::parse(v) {
                Some(l) => Ok(Some((named(v.trim().to_string(), l), l))),
                None => Err(format!(
                    "vksync: error: --layer takes a version MAJOR.MINOR.PATCH (such as 1.4.363) or `none`, not `{v}`"
                )),
            },
        }
    }
}

/// Checks `--layer`'s value before anything is printed: the message for a
/// malformed version.
pub fn validate(choice: &LayerChoice) -> Result<(), String> {
    choice.resolve().map(|_| ())
}

/// Prints a `layer:` note for each hazard the chosen layer reports in
/// `source` that `reported` (the hazards `check` printed) does not hold
/// (same command, same kind). Returns how many.
pub fn print_layer_notes(
    source: &Source,
    reported: &[HazardGroup],
    choice: &LayerChoice,
    out: &mut Out,
) -> usize {
    let Ok(Some((version, layer))) = choice.resolve() else {
        return 0;
    };
    let program = &source.trace.program;
    let emulation = layer.emulation();
    // Several queues, semaphores or events: not emulated (no notes).
    let Ok(predicted) = predict(program, &emulation) else {
        return 0;
    };
    let reported: std::collections::HashSet<(usize, HazardKind)> = reported
        .iter()
        .map(|g| (g.hazard.command, g.hazard.kind))
        .collect();
    let mut n = 0;
    let mut explainer = Explainer::new(program, &emulation);
    let at = report::Placement::new(program, &source.trace.command_lines).with_calls(&source.text);
    for g in &vksync::group_hazards(predicted) {
        let h = &g.hazard;
        if reported.contains(&(h.command, h.kind)) {
            continue;
        }
        if out.stopped() {
            break;
        }
        let why = match explainer.explain(h.command, h.kind) {
            Explanation::Difference(d) => {
                format!("known difference {} ({}, docs/semantics.md)", d.id, d.title)
            }
            Explanation::Spec => {
                "a hazard of the specification under the other reading of write-after-write".to_string()
            }
            // `Profile` (several differences together, or how much the layer
            // looks at); `Unexplained` cannot come from a prediction.
            _ => format!(
                "the layer {} profile's known differences together (docs/semantics.md)",
                layer.version()
            ),
        };
        let line = report::hazard_line(&source.name, program, &at, g);
        // `FILE:LINE: KIND: ...; fix: BARRIER` becomes
        // `FILE:LINE: layer: KIND: ...; fix for both: BARRIER; why`.
        let at = format!(
            "{}:{}: ",
            source.name,
            source
                .trace
                .command_lines
                .get(h.command)
                .map_or_else(|| "?".to_string(), |l| l.to_string())
        );
        let body = line
            .strip_prefix(&at)
            .unwrap_or(&line)
            .replacen("; fix: ", "; fix for both: ", 1);
        say!(
            out,
            "{at}layer: {body}; reported by validation layer {version}, not by vksync: {why}"
        );
        n += 1;
    }
    if n > 0 {
        to_stderr!(
            "{}: validation layer {version} also reports {n} hazard{} vksync does not (layer: notes; not counted in the exit status)",
            source.name,
            if n == 1 { "" } else { "s" }
        );
    }
    n
}
