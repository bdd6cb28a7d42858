#[test]
fn dbg() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/image-mip-chain.trace"
    ))
    .unwrap();
    let p = vksync::trace::parse(&text).unwrap().program;
    let plan = vksync::plan::plan(
        &p,
        vksync::plan::PlanOptions::new(vksync::plan::PlannerKind::Offline),
    )
    .unwrap();
    eprintln!("{:?}", plan.program.images());
    eprintln!("{}", vksync::trace::print(&plan.program));
    eprintln!("{}", vksync::trace::print(&p));
}
