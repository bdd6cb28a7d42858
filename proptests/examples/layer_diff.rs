//! Runs trace files as written on the current device under the validation
//! layer and prints, for each, the hazards the layer reported, those the
//! model predicts under the layer's profile (`vksync::layer::predict`) and
//! the difference: the tool for classifying the runs the device suites dump
//! with `VKSYNC_LAYER_DIFFS=DIR` and for minimizing them by hand
//! (`docs/testing.md`, "Layer reports on planned programs").
//!
//! ```text
//! XDG_RUNTIME_DIR=/tmp cargo run -p vksync-proptests --example layer_diff -- [-q] FILE...
//! ```
//!
//! `-q`: one line per file (`same` or `DIFFERS`, then the keys). Exit status
//! 1 when any file's report differs from the prediction, or a file has no
//! prediction (several queues or semaphores, which the layer's emulation
//! does not model: `FILE: no prediction: REASON`, and it is not run).

use vksync_proptests::layer::{layer_of, observed, recorded, show_keys, test_device, try_predict};
use vksync_runtime::ValidationMode;

fn main() {
    let mut quiet = false;
    let mut files = Vec::new();
    for a in std::env::args().skip(1) {
        if a == "-q" {
            quiet = true;
        } else {
            files.push(a);
        }
    }
    let Some(mut device) = test_device(ValidationMode::Required) else {
        return;
    };
    let emulation = layer_of(&device).emulation();
    let mut differs = false;
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{f}: {e}");
                differs = true;
                continue;
            }
        };
        let program = match vksync::trace::parse(&text) {
            Ok(t) => t.program,
            Err(e) => {
                eprintln!("{f}: {e}");
                differs = true;
                continue;
            }
        };
        // No prediction, no run: the emulation models one queue (a trace
        // with several queues or semaphores is refused with the reason).
        let rec = recorded(&device, &program).into_owned();
        let want = match try_predict(&rec, &emulation) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("{f}: no prediction: {e}");
                differs = true;
                continue;
            }
        };
        let result = match device.run(&program) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{f}: runtime error {e}");
                differs = true;
                continue;
            }
        };
        let (got, other) = observed(&result);
        let same = got == want;
        differs |= !same;
        if quiet {
            let extra: Vec<_> = got.difference(&want).collect();
            let missed: Vec<_> = want.difference(&got).collect();
            println!(
                "{f}: {} layer-only {extra:?} predicted-only {missed:?}",
                if same { "same" } else { "DIFFERS" }
            );
            continue;
        }
        println!("== {f}: {}", if same { "same" } else { "DIFFERS" });
        println!("layer:     {}", show_keys(&rec, &got));
        println!("predicted: {}", show_keys(&rec, &want));
        for m in result.messages.iter().filter(|m| m.is_sync_hazard()) {
            println!("message at {:?}: {}", m.command, m.text);
        }
        for m in &other {
            println!("other message: {} {}", m.id_name, m.text);
        }
    }
    std::process::exit(i32::from(differs));
}
