//! Multi-queue programs on the device: several queues, binary and
//! timeline semaphores, host signals and waits, `wait QUEUE`, events
//! (split barriers, in both synchronization generations) and queue family
//! ownership transfers. Each case is
//! correctly synchronized (the model finds no hazard); the device must
//! give the CPU reference's bytes with no validation message.

mod common;

/// Checks `text` with the model, runs it, and compares every host read
/// with the reference. Returns the run's queue mapping as text.
fn run_clean(name: &str, text: &str) -> Option<String> {
    let mut device = common::device()?;
    let trace = common::parse(text);
    assert_eq!(hazards(&trace.program), 0, "{name}: the model finds a hazard");
    let result = device
        .run(&trace.program)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(result.validation, "validation must be on");
    let messages: Vec<String> = result.messages.iter().map(|m| m.to_string()).collect();
    assert!(
        messages.is_empty(),
        "{name}: validation messages:\n{}",
        messages.join("\n")
    );
    let cmp = vksync_runtime::compare_with_reference(&trace.program, &result).expect("reference runs");
    assert!(!cmp.is_empty(), "{name}: the program has host reads");
    for c in cmp {
        assert_eq!(
            c.undefined, 0,
            "{name}: read at command {} has undefined bytes",
            c.command
        );
        assert!(
            c.mismatches.is_empty(),
            "{name}: read at command {} mismatches at {} bytes",
            c.command,
            c.mismatches.len()
        );
    }
    assert!(result.notes.is_empty(), "{name}: {:?}", result.notes);
    Some(result.queue_mapping.to_string())
}

/// The model's hazards: the fast checker's, or where it refuses a corner
/// (a timeline wait a later signal may satisfy too) the definitional
/// semantics' races under both readings.
fn hazards(program: &vksync::Program) -> usize {
    // The fast checkers alone (`vksync::check` would fall back to one
    // reading of the definitional semantics itself): a refusal counts the
    // races of both readings.
    match vksync::check_with(program, vksync::Semantics::default()) {
        Ok(h) => h.len(),
        Err(e) if matches!(e.kind, vksync::ProgramErrorKind::MultiQueueNotSupported { .. }) => {
            [vksync::Reading::MemoryModel, vksync::Reading::VisibleToWrites]
                .iter()
                .map(|&r| vksync::spec::races(program, r).expect("resolves").len())
                .sum()
        }
        Err(e) => panic!("{e}"),
    }
}

const CASES: &[(&str, &str)] = &[
    (
        "binary semaphore chain across queues of two families",
        "queue compute\nqueue transfer family 1\nsemaphore uploaded\nsemaphore done\n\
         buffer staging 4096\nbuffer weights 4096\nbuffer input 4096\nbuffer mid 4096\nbuffer output 4096\n\
         host-write staging 7\n\
         copy staging -> weights\n\
         submit transfer signal uploaded\n\
         fill input 1\n\
         barrier CLEAR|COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\n\
         dispatch add read input read weights write mid\n\
         submit compute wait uploaded@COMPUTE_SHADER signal done\n\
         copy mid -> output\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\n\
         submit transfer wait done@COPY\n\
         wait\n\
         host-read output\n",
    ),
    (
        "timeline semaphores through three queues, read back after host-wait",
        "queue a\nqueue b\nqueue c family 1\nsemaphore t1 timeline\nsemaphore t2 timeline 5\nsemaphore t3 timeline\n\
         buffer x 4096\nbuffer y 4096\nbuffer z 4096\nbuffer out 4096\n\
         host-write x 3\n\
         dispatch scale_add(2,1) read x write y\n\
         submit a signal t1:1\n\
         dispatch slow(64) read y write z\n\
         submit b wait t1:1@COMPUTE_SHADER signal t2:6\n\
         copy z -> out\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\n\
         submit c wait t2:6@COPY signal t3:1\n\
         host-wait t3 1\n\
         host-read out\n\
         wait\n",
    ),
    (
        "a submission waits for a host signal that comes after it",
        "queue a\nqueue b\nsemaphore go timeline\n\
         buffer x 1024\nbuffer y 1024\n\
         host-write x 5\n\
         dispatch scale_add(3,2) read x write y\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\n\
         submit b wait go:1@COMPUTE_SHADER\n\
         host-signal go 1\n\
         wait b\n\
         host-read y\n",
    ),
    (
        "wait QUEUE waits for one queue while the other runs",
        "queue a\nqueue b\n\
         buffer x 1024\nbuffer y 1024\nbuffer z 1024\n\
         host-write x 2\n\
         dispatch scale_add(2,0) read x write y\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\n\
         submit a\n\
         dispatch slow(32) read x write z\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\n\
         submit b\n\
         wait a\n\
         host-read y\n\
         wait b\n\
         host-read z\n",
    ),
    (
        "split barrier with independent work between set and wait",
        "event ready\n\
         buffer input 1024\nbuffer act 1024\nbuffer other 1024\nbuffer out 1024\n\
         host-write input 4\n\
         dispatch scale_add(2,1) read input write act\n\
         set-event ready COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ act\n\
         copy input -> other\n\
         wait-events ready COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ act\n\
         dispatch scale_add(3,0) read act write out\n\
         reset-event ready\n\
         barrier COMPUTE_SHADER|COPY:SHADER_STORAGE_WRITE|TRANSFER_WRITE -> HOST:HOST_READ\n\
         submit\n\
         wait\n\
         host-read out\n\
         host-read other\n",
    ),
    (
        "an event set by the host",
        "event go\n\
         buffer x 1024\nbuffer y 1024\n\
         host-write x 9\n\
         host-set-event go\n\
         wait-events go HOST:HOST_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\n\
         dispatch scale_add(1,1) read x write y\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\n\
         submit\n\
         wait\n\
         host-reset-event go\n\
         host-read y\n",
    ),
    (
        "a synchronization-1 split barrier: the set has a stage mask only, the wait the barrier",
        "event ready\n\
         buffer input 1024\nbuffer act 1024\nbuffer other 1024\nbuffer out 1024\n\
         host-write input 4\n\
         dispatch scale_add(2,1) read input write act\n\
         set-event1 ready COMPUTE_SHADER\n\
         copy input -> other\n\
         wait-events1 ready COMPUTE_SHADER:SHADER_WRITE -> COMPUTE_SHADER:SHADER_READ act\n\
         dispatch scale_add(3,0) read act write out\n\
         reset-event ready\n\
         barrier COMPUTE_SHADER|COPY:SHADER_STORAGE_WRITE|TRANSFER_WRITE -> HOST:HOST_READ\n\
         submit\n\
         wait\n\
         host-read out\n\
         host-read other\n",
    ),
    (
        "one synchronization-1 set waited twice with different barriers, and a wait for a device and a host set",
        "event ready\nevent go\n\
         buffer input 1024\nbuffer act 1024\nbuffer out 1024\nbuffer copied 1024\n\
         host-write input 6\n\
         dispatch scale_add(5,2) read input write act\n\
         set-event1 ready COMPUTE_SHADER\n\
         wait-events1 ready COMPUTE_SHADER:SHADER_WRITE -> COMPUTE_SHADER:SHADER_READ act\n\
         dispatch scale_add(1,1) read act write out\n\
         host-set-event go\n\
         wait-events1 ready go COMPUTE_SHADER|HOST:SHADER_WRITE|HOST_WRITE -> TRANSFER:TRANSFER_READ\n\
         copy act -> copied\n\
         barrier COMPUTE_SHADER|COPY:SHADER_STORAGE_WRITE|TRANSFER_WRITE -> HOST:HOST_READ\n\
         submit\n\
         wait\n\
         host-read out\n\
         host-read copied\n",
    ),
    (
        "ownership of an exclusive buffer released by a transfer queue, acquired by a compute queue",
        "queue compute\nqueue transfer family 1\nsemaphore s\n\
         buffer w 4096 exclusive\nbuffer x 4096\nbuffer y 4096\n\
         host-write x 1\n\
         fill w 7\n\
         barrier CLEAR|COPY:TRANSFER_WRITE -> NONE:NONE w ownership 1->0\n\
         submit transfer signal s\n\
         barrier NONE:NONE -> COMPUTE_SHADER:SHADER_STORAGE_READ w ownership 1->0\n\
         dispatch add read w read x write y\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\n\
         submit compute wait s@ALL_COMMANDS\n\
         wait\n\
         host-read y\n",
    ),
];

#[test]
fn multi_queue_programs_match_the_reference() {
    for (name, text) in CASES {
        match run_clean(name, text) {
            Some(mapping) => eprintln!("{name}: {mapping}"),
            None => return,
        }
    }
}

/// Event traces run as written, each with vksync's hazards and the
/// validation layer's messages (command and kind) on lavapipe's 1.3.239
/// layer: the synchronization-1 examples and the split barriers with
/// layout transitions, where the two agree, and the traces of the layer's
/// event differences D18, D19 and D29 (`docs/semantics.md`), where they
/// do not. The device gives the
/// reference's bytes for every trace vksync finds correct (a racy one is
/// compared too; lavapipe runs a command buffer in order, but the test
/// does not count on it).
#[test]
fn event_traces_run_as_written_match_the_layer_up_to_its_differences() {
    use vksync::HazardKind::ReadAfterWrite as Raw;
    let Some(mut device) = common::device() else {
        return;
    };
    type Found = &'static [(usize, vksync::HazardKind)];
    // The layer's messages: (command index, kind; `None` for a message
    // that is no hazard, a valid-usage id).
    type Messages = &'static [(usize, Option<vksync::HazardKind>)];
    use vksync::HazardKind::WriteAfterRead as War;
    // (name, trace, vksync's hazards, the layer's messages), as (command
    // index, kind).
    let cases: &[(&str, &str, Found, Messages)] = &[
        (
            "split-barrier1",
            include_str!("../../examples/split-barrier1.trace"),
            &[],
            &[],
        ),
        (
            "split-barrier1-hazard",
            include_str!("../../examples/split-barrier1-hazard.trace"),
            &[(5, Raw)],
            &[(5, Some(Raw))],
        ),
        (
            "D18, synchronization 1",
            include_str!("../../tests/layer-events/set-barrier-wait.trace"),
            &[(4, Raw)],
            &[],
        ),
        (
            "D18, synchronization 2",
            include_str!("../../tests/layer-events/set-barrier-wait2.trace"),
            &[(4, Raw)],
            &[],
        ),
        (
            "D19",
            include_str!("../../tests/layer-events/two-events.trace"),
            &[],
            &[(6, Some(Raw))],
        ),
        // Layout transitions in events: at the set (synchronization 2), at
        // the wait (synchronization 1), each with independent work between.
        (
            "a set-event's transition",
            include_str!("../../tests/layer-events/split-transition.trace"),
            &[],
            &[],
        ),
        (
            "a wait-events1's transition",
            include_str!("../../tests/layer-events/split-transition1.trace"),
            &[],
            &[],
        ),
        // The layer performs a set's transition at the wait: the layout
        // there, and a write-after-read against the copy between.
        (
            "D29",
            include_str!("../../tests/layer-events/set-transition.trace"),
            &[(4, Raw)],
            &[(4, None), (4, Some(Raw)), (5, Some(War))],
        ),
    ];
    for &(name, text, model, layer) in cases {
        let trace = common::parse(text);
        let hazards = vksync::check(&trace.program).unwrap_or_else(|e| panic!("{name}: {e}"));
        // One per pair of commands and kind (a copy of an image's rows is
        // a hazard per row range).
        let mut found: Vec<(usize, vksync::HazardKind)> =
            hazards.iter().map(|h| (h.command, h.kind)).collect();
        found.dedup();
        assert_eq!(found, model, "{name}: vksync's hazards");
        let result = device
            .run(&trace.program)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(result.validation, "validation must be on");
        let messages: Vec<(Option<usize>, Option<vksync::HazardKind>)> = result
            .messages
            .iter()
            .map(|m| (m.command, vksync::layer::kind_of_message(&m.id_name)))
            .collect();
        let want: Vec<(Option<usize>, Option<vksync::HazardKind>)> =
            layer.iter().map(|&(c, k)| (Some(c), k)).collect();
        assert_eq!(messages, want, "{name}: the layer's messages");
        let cmp = vksync_runtime::compare_with_reference(&trace.program, &result).expect("reference runs");
        assert!(!cmp.is_empty(), "{name}: the program has host reads");
        let mismatches: usize = cmp.iter().map(|c| c.mismatches.len()).sum();
        if model.is_empty() {
            assert_eq!(mismatches, 0, "{name}: mismatching bytes");
            assert!(cmp.iter().all(|c| c.undefined == 0), "{name}: undefined bytes");
        } else {
            eprintln!("{name}: {mismatches} bytes differ from the reference (a race may show or not)");
        }
    }
}

/// A program that can never complete (the host waits for a value only it
/// signals later, or for a batch blocked on a later host signal) is
/// refused by the model before anything is recorded: the parser refuses
/// its text, and a program built without the parser is a typed error of
/// `Device::run`, after which the device runs the next program (issue 27:
/// such programs used to run into the fence timeout).
#[test]
fn programs_that_can_never_complete_are_typed_errors_and_the_device_goes_on() {
    let blocked = [
        "semaphore t timeline\nhost-wait t 1\nhost-signal t 1\n",
        "queue a\nsemaphore t timeline\nbuffer x 64\nfill x 1\nsubmit a wait t:1@ALL_COMMANDS\nwait\nhost-signal t 1\n",
    ];
    for text in blocked {
        let e = vksync::trace::parse(text).expect_err(text);
        assert!(
            e.to_string().contains("the program can never complete"),
            "{text}: {e}"
        );
    }
    let Some(mut device) = common::device() else {
        return;
    };
    // The first one, built with the builder, which checks each command
    // alone: `resolve` (in `Device::run`) refuses the whole.
    let mut p = vksync::Program::new();
    let t = p
        .semaphore("t", vksync::SemaphoreType::Timeline { initial: 0 })
        .expect("declared");
    p.push(vksync::Command::HostWait {
        semaphore: t,
        value: 1,
    })
    .expect("pushed");
    p.push(vksync::Command::HostSignal {
        semaphore: t,
        value: 1,
    })
    .expect("pushed");
    let e = device.run(&p).expect_err("a blocked program");
    assert!(
        e.to_string()
            .contains("the program can never complete: the host's `host-wait t 1`"),
        "{e}"
    );
    // The next program runs.
    let ok = common::parse("buffer y 64\nfill y 2\nbarrier CLEAR|COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read y\n");
    let r = device.run(&ok.program).expect("the next run");
    assert_eq!(r.readbacks[0].bytes[..4], 2u32.to_le_bytes());
}

/// A valid program the runtime itself blocks: before a host access it
/// waits for the work submitted so far (`Recorder::settle`), here a batch
/// behind one that waits for a host signal the trace makes only after the
/// access. The fence timeout is a typed error naming both command
/// buffers, and the device recovers.
#[test]
fn a_program_the_runtime_blocks_is_a_typed_error_and_the_device_recovers() {
    let Some(mut device) = common::device() else {
        return;
    };
    device.set_fence_timeout(std::time::Duration::from_millis(300));
    let text = "queue a\nsemaphore t timeline\nbuffer x 64\nbuffer y 64\nfill x 1\nsubmit a wait t:1@ALL_COMMANDS\nfill y 2\nsubmit a\nhost-read y\nhost-signal t 1\n";
    let want = "the command buffer of commands 2..=2 (submitted at command 3) did not complete within 300ms, the fence timeout \
                (raise it with DeviceOptions::fence_timeout or VKSYNC_FENCE_TIMEOUT_MS); before it on its queue, the command \
                buffer of commands 0..=0 (submitted at command 1) has not completed either; its batch waits for semaphore 0 value 1";
    let trace = common::parse(text);
    let e = device.run(&trace.program).expect_err(text);
    assert!(e.to_string().contains(want), "{e}");
    let ok = common::parse("buffer y 64\nfill y 2\nbarrier CLEAR|COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read y\n");
    let r = device.run(&ok.program).expect("the next run");
    assert_eq!(r.readbacks[0].bytes[..4], 2u32.to_le_bytes());
}

/// Record-only timing holds device commands of one queue only: a program
/// with events or an ownership transfer is refused there with the model's
/// typed error, before any Vulkan work. `Device::prepare` takes events
/// (and queues and semaphores), but refuses an ownership transfer, which
/// would leave the buffer with the other family for the next execution.
#[test]
fn record_once_paths_refuse_what_they_cannot_repeat() {
    let Some(mut device) = common::device() else {
        return;
    };
    // (program, what record-only timing's error says, what prepare's says:
    // `None` when it prepares it).
    let cases: &[(&str, &str, Option<&str>)] = &[
        (
            "buffer a 64\nbuffer b 64\nevent e\ncopy a -> b\nset-event e COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ\n",
            "set-event",
            None,
        ),
        (
            "buffer a 64 exclusive\nqueue c\nbarrier COPY:TRANSFER_WRITE -> NONE:NONE a ownership 0->1\n",
            "ownership transfer",
            Some("ownership transfer"),
        ),
    ];
    for (text, timing, prepare) in cases {
        let p = common::parse(text).program;
        let e = device.time_recording(&p, 1).expect_err(text);
        assert!(e.to_string().contains(timing), "{text}: {e}");
        match (device.prepare(std::slice::from_ref(&p)), prepare) {
            (Ok(_), None) => {}
            (Err(e), Some(want)) => assert!(e.to_string().contains(want), "{text}: {e}"),
            (Ok(_), Some(want)) => panic!("{text}: prepared, expected `{want}`"),
            (Err(e), None) => panic!("{text}: {e}"),
        }
    }
}
