//! Prints the brute force's fewest-bits plan for a trace (debug aid).
fn main() {
    let path = std::env::args().nth(1).expect("trace");
    let p = vksync::trace::parse(&std::fs::read_to_string(path).unwrap())
        .unwrap()
        .program;
    let (bits, q) =
        vksync_proptests::exhaustive::min_bits_plan(&p, 20, vksync::Reading::MemoryModel).expect("plan");
    println!("{bits} bits\n{}", vksync::trace::print(&q));
}
