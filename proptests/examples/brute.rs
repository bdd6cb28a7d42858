//! Prints the brute force's fewest-bits plan for a trace (debug aid):
//! `brute TRACE [memory-model|visible-to-writes]`.
fn main() {
    let path = std::env::args().nth(1).expect("trace");
    let reading = match std::env::args().nth(2).as_deref() {
        Some("visible-to-writes") => vksync::Reading::VisibleToWrites,
        _ => vksync::Reading::MemoryModel,
    };
    let p = vksync::trace::parse(&std::fs::read_to_string(path).unwrap())
        .unwrap()
        .program;
    let (bits, q) = vksync_proptests::exhaustive::min_bits_plan(&p, 20, reading).expect("plan");
    println!("{bits} bits\n{}", vksync::trace::print(&q));
}
