//! Times `vksync::check` on a trace file: parse once, then check it
//! `REPS` times and print the median (for profiling the checker on a real
//! stream): `cargo run --release -p vksync --example check_file -- FILE [REPS]`.

use std::time::Instant;

/// Times `vksync::check` on a trace file.
#[derive(clap::Parser)]
struct Args {
    /// The trace file.
    path: String,
    /// Timed checks (the median is printed).
    #[arg(default_value_t = 5)]
    reps: usize,
}

fn main() {
    let Args { path, reps } = clap::Parser::parse();
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let trace = match vksync::trace::parse(&text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}:{e}");
            std::process::exit(2);
        }
    };
    let mut times = Vec::new();
    let mut hazards = 0;
    for _ in 0..reps {
        let t = Instant::now();
        hazards = match vksync::check(&trace.program) {
            Ok(h) => h.len(),
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
        };
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let n = trace.program.commands().len();
    println!(
        "{path}: {n} commands, {hazards} hazards, median {:.1} ms ({:.0} ns/command) over {reps} runs",
        median * 1e3,
        median * 1e9 / n as f64
    );
}
