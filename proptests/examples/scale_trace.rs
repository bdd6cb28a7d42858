//! Writes one long trace of a class to stdout (`proptests/src/scale.rs`):
//! `cargo run --release -p vksync-proptests --example scale_trace -- CLASS LINES`.
//! The classes are those of issue 27's scaling table in `docs/testing.md`.

use vksync_proptests::scale::{trace, Class};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let names: Vec<&str> = Class::ALL.iter().map(|c| c.name()).collect();
    let (Some(class), Some(lines)) = (
        args.first().and_then(|n| Class::from_name(n)),
        args.get(1).and_then(|n| n.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: scale_trace CLASS LINES (CLASS: {})", names.join(", "));
        std::process::exit(2);
    };
    print!("{}", trace(class, lines));
}
