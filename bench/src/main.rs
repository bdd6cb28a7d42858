//! Benchmarks (placeholder until the benchmark work lands).
fn main() {
    eprintln!("vksync-bench: not implemented yet");
    std::process::exit(2);
}
