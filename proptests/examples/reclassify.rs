//! Judges again, with the current model, the failures a `device_suite` run
//! wrote with `--failures FILE`: each program with the keys the validation
//! layer reported. Prints, per failure, the verdict of the layer profile's
//! emulation (`Exact`, `K4` when the K4 emulation changed the prediction,
//! or `Mismatch`) and which known differences (D-ids of
//! `vksync::layer::DIFFERENCES`) the layer's report needs. The profile is
//! that of the layer version given second (default 1.3.239).
//!
//! ```text
//! cargo run --release -p vksync-proptests --example reclassify -- /tmp/fail99.txt [1.4.309]
//! ```
use std::collections::BTreeSet;
use vksync::layer::Layer;
use vksync::{HazardKind, Semantics};
use vksync_proptests::layer::{verdict, Verdict};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!(
            "usage: reclassify FAILURES_FILE [LAYER_VERSION] (the file written by device_suite --failures)"
        );
        std::process::exit(2);
    };
    let version: Vec<u32> = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "1.3.239".into())
        .split('.')
        .filter_map(|x| x.parse().ok())
        .collect();
    let [major, minor, patch] = version[..] else {
        eprintln!("reclassify: the layer version is MAJOR.MINOR.PATCH, e.g. 1.4.309");
        std::process::exit(2);
    };
    let layer = Layer::for_version(major, minor, patch);
    if let Err(e) = run(&path, layer) {
        eprintln!("{path}: error: {e}");
        std::process::exit(2);
    }
}

fn run(path: &str, layer: Layer) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    for block in text.split("== program ").skip(1) {
        let title = block.lines().next().unwrap_or_default();
        let reported = block
            .lines()
            .find_map(|l| l.strip_prefix("layer reported: "))
            .ok_or_else(|| format!("program {title}: no `layer reported:` line"))?;
        let source: String = block
            .lines()
            .skip_while(|l| !l.starts_with("pool "))
            .map(|l| format!("{l}\n"))
            .collect();
        let p = vksync::trace::parse(&source)
            .map_err(|e| format!("program {title}: {e}"))?
            .program;
        let mut got = BTreeSet::new();
        for part in reported.split("); ").filter(|p| *p != "none") {
            let (kind, rest) = part
                .split_once(" at command ")
                .ok_or_else(|| format!("program {title}: cannot read `{part}`"))?;
            let cmd: usize = rest
                .split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| format!("program {title}: no command index in `{part}`"))?;
            let kind = match kind {
                "READ_AFTER_WRITE" => HazardKind::ReadAfterWrite,
                "WRITE_AFTER_READ" => HazardKind::WriteAfterRead,
                "WRITE_AFTER_WRITE" => HazardKind::WriteAfterWrite,
                other => return Err(format!("program {title}: unknown hazard kind `{other}`")),
            };
            got.insert((cmd, kind));
        }
        let v = verdict(&p, &layer.emulation(), &got);
        // A difference is needed when the layer's report is not explained
        // with every other toggle on and this one off.
        let without = |t: vksync::layer::Toggle| {
            let mut s = Semantics::SPEC;
            for d in vksync::layer::DIFFERENCES {
                if let Some(x) = d.toggle.filter(|x| *x != t) {
                    s = s.with(x);
                }
            }
            verdict(&p, &layer.emulation().with_semantics(s), &got) != Verdict::Mismatch
        };
        let needed: Vec<&str> = vksync::layer::DIFFERENCES
            .iter()
            .filter(|d| d.toggle.is_some_and(|t| !without(t)))
            .map(|d| d.id)
            .collect();
        println!("{title} -> {v:?}; differences needed: {needed:?}");
    }
    Ok(())
}
