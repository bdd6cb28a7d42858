//! The ncnn report's scenario on the device: syncval reports exactly the
//! report's two hazards for the trace as written, and nothing once every
//! device command is separated by a full barrier.

mod common;

use vksync::{AccessFlags2 as A, Barrier, Command, Dependency, PipelineStageFlags2 as S, Program};

const NCNN: &str = include_str!("../../examples/ncnn-batch-scale.trace");

#[test]
fn syncval_reports_exactly_the_reports_two_hazards() {
    let Some(mut device) = common::device() else {
        return;
    };
    let trace = common::parse(NCNN);
    let result = device.run(&trace.program).expect("runs");
    let got: Vec<(String, Option<usize>)> = result
        .messages
        .iter()
        .map(|m| (m.id_name.clone(), m.command.map(|c| trace.command_lines[c])))
        .collect();
    assert_eq!(
        got,
        vec![
            ("SYNC-HAZARD-WRITE-AFTER-READ".to_string(), Some(37)),
            ("SYNC-HAZARD-WRITE-AFTER-WRITE".to_string(), Some(39)),
        ],
        "{:#?}",
        result.messages
    );
    // Both blobs of batch 2 live on the pool's memory object at batch 1's
    // offsets: the recycling the report is about.
    let p = &trace.program;
    let place = |n: &str| result.layout.place(p.find(n).unwrap()).unwrap();
    assert_eq!(place("data2"), place("data1"));
    assert_eq!(place("scale2"), place("scale1"));
    assert_eq!(place("data2").1, 24768);
}

fn is_device(c: &Command) -> bool {
    matches!(
        c,
        Command::Copy { .. } | Command::Fill { .. } | Command::Update { .. } | Command::Dispatch { .. }
    )
}

/// A full barrier before every device command but the first.
fn conservative(p: &Program) -> Program {
    let full = Barrier::global(
        S::ALL_COMMANDS,
        A::MEMORY_READ | A::MEMORY_WRITE,
        S::ALL_COMMANDS,
        A::MEMORY_READ | A::MEMORY_WRITE,
    );
    let mut commands = Vec::new();
    let mut seen_device = false;
    for c in p.without_barriers().commands() {
        if is_device(c) {
            if seen_device {
                commands.push(Command::Barrier(Dependency { barriers: vec![full] }));
            }
            seen_device = true;
        }
        commands.push(c.clone());
    }
    Program::from_parts(p.objects().to_vec(), commands).expect("barriers added to a valid program")
}

#[test]
fn full_barriers_give_no_messages_and_the_references_bytes() {
    let Some(mut device) = common::device() else {
        return;
    };
    // The test copy: inputs written by the host first, batch 2 finished,
    // and the output read back after a host barrier, submit and wait.
    let text = NCNN.replace(
        "# batch 1\n",
        "host-write src_data1[0..64] 1\nhost-write src_data2[0..64] 1000\nhost-write src_scale[0..16] 7\n# batch 1\n",
    ) + "dispatch scale(5) rw data2[0..64]\ncopy data2[0..64] -> out[64..128]\nfree scale2\nfree data2\n";
    let mut program = conservative(&common::parse(&text).program);
    program
        .push(Command::Barrier(Dependency {
            barriers: vec![Barrier::global(
                S::COMPUTE_SHADER | S::ALL_TRANSFER,
                A::MEMORY_WRITE,
                S::HOST,
                A::HOST_READ,
            )],
        }))
        .unwrap();
    program.extend([Command::SUBMIT, Command::WAIT]).unwrap();
    let out = program.find("out").unwrap();
    let read = program.region(out, 0, 128);
    program.push(Command::HostRead { src: read }).unwrap();
    let result = device.run(&program).expect("runs");
    common::assert_matches_reference(&program, &result, &common::layer(&device));
    // batch 1: (1 + i) * 3; batch 2: (1000 + i) * 5.
    let bytes = &result.readbacks[0].bytes;
    let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
    assert_eq!((word(0), word(15), word(16), word(31)), (3, 48, 5000, 5075));
    assert!(result.notes.is_empty(), "{:?}", result.notes);
}
