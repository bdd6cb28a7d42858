//! `vksync capture` on the runtime's own Vulkan stream: for every example
//! trace and the `none`, `per-object` and `offline` planners, capturing
//! `vksync run --planner P T` gives a trace whose hazards equal those of the
//! program `vksync run` executed (`vksync plan --planner P` of `T`, with
//! the read-back `run` appends when `T` reads nothing), compared by kind,
//! order and byte count (buffer names differ: the capture names memory and
//! `VkBuffer`s, the trace names buffers, pools and blobs).
//!
//! Device tests: they need lavapipe (or another Vulkan device); with
//! `VKSYNC_SKIP_DEVICE_TESTS=1` and no device they print `SKIPPED` and
//! return, as the runtime's device tests do.

use std::path::{Path, PathBuf};
use std::process::Command;
use vksync::{Command as Cmd, HazardKind, Program};

fn vksync() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_vksync"));
    c.env(
        "XDG_RUNTIME_DIR",
        std::env::var_os("XDG_RUNTIME_DIR").unwrap_or("/tmp".into()),
    );
    c
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Builds the layer library next to the `vksync` binary (`cargo test -p
/// vksync-cli` does not build other crates' cdylibs), also when one is
/// there: a layer left from an older build records the older way and fails
/// these tests for no fault of the code. Where cargo cannot run (a
/// debootstrap root), the one there is used.
fn ensure_layer() {
    let exe = Path::new(env!("CARGO_BIN_EXE_vksync"));
    let lib = exe.with_file_name("libvksync_capture.so");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    if lib.is_file() && Command::new(&cargo).arg("--version").output().is_err() {
        return;
    }
    let mut c = Command::new(cargo);
    c.args(["build", "-p", "vksync-capture", "--lib"])
        .current_dir(root());
    if exe
        .parent()
        .and_then(|d| d.file_name())
        .is_some_and(|n| n == "release")
    {
        c.arg("--release");
    }
    let st = c.status().expect("cargo runs");
    assert!(
        st.success() && lib.is_file(),
        "building the layer gave {}",
        lib.display()
    );
}

/// Whether device tests must be skipped: a `vksync run` that finds no
/// device (status 3) with `VKSYNC_SKIP_DEVICE_TESTS=1`.
fn skip(test: &str) -> bool {
    let out = vksync()
        .args(["run", "--planner", "none"])
        .arg(root().join("examples/three-layer.trace"))
        .env("VKSYNC_VALIDATION", "0")
        .output()
        .expect("vksync runs");
    if out.status.code() == Some(3) {
        if std::env::var("VKSYNC_SKIP_DEVICE_TESTS").as_deref() == Ok("1") {
            eprintln!("SKIPPED (no Vulkan device, VKSYNC_SKIP_DEVICE_TESTS=1): {test}");
            return true;
        }
        panic!(
            "no Vulkan device (set VKSYNC_SKIP_DEVICE_TESTS=1 to skip): {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    false
}

/// What `vksync run` adds to a trace without host reads (one home:
/// `vksync_runtime::with_readback`).
fn with_readback(p: &Program) -> Program {
    vksync_runtime::with_readback(p).unwrap_or_else(|| p.clone())
}

/// The program as the runtime executes it: before each host access, the
/// runtime submits what is recorded and waits for what is submitted, and
/// it does so at the end too (runtime/src/recorder.rs, "Submission
/// model"). Those submits and waits are Vulkan calls the layer sees.
fn settled(p: &Program) -> Program {
    let mut q: Vec<Cmd> = Vec::new();
    let (mut unsubmitted, mut unwaited) = (false, false);
    let settle = |q: &mut Vec<Cmd>, unsubmitted: &mut bool, unwaited: &mut bool| {
        if *unsubmitted {
            q.push(Cmd::SUBMIT);
            *unsubmitted = false;
            *unwaited = true;
        }
        if *unwaited {
            q.push(Cmd::WAIT);
            *unwaited = false;
        }
    };
    for c in p.commands() {
        match c {
            Cmd::HostRead { .. } | Cmd::HostWrite { .. } => settle(&mut q, &mut unsubmitted, &mut unwaited),
            Cmd::Submit(_) => {
                unsubmitted = false;
                unwaited = true;
            }
            Cmd::Wait(_) => unwaited = false,
            Cmd::Alloc { .. } | Cmd::Free { .. } => {}
            _ => unsubmitted = true,
        }
        q.push(c.clone());
    }
    settle(&mut q, &mut unsubmitted, &mut unwaited);
    Program::from_parts(p.objects().to_vec(), q).expect("the same program, settled")
}

/// Hazards as (kind, bytes), in the checker's order; without those at
/// host reads when `host_reads` is false.
fn hazards(text: &str, host_reads: bool) -> Vec<(HazardKind, u64)> {
    let t = vksync::trace::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    vksync::check(&t.program)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .iter()
        .filter(|h| host_reads || !matches!(t.program.commands()[h.command], Cmd::HostRead { .. }))
        .map(|h| (h.kind, h.region.range.len()))
        .collect()
}

/// Hazards between two device commands only, as (n-th device command,
/// kind) -> bytes: the capture sees host writes only by their effect on
/// mapped memory and host reads not at all (docs/capture.md), so hazards
/// with a host side are left out; device commands are the same, in the
/// same order, in both traces, while the byte ranges a hazard is reported
/// in can be cut differently (the capture's buffers alias one memory
/// object), so the bytes are summed per command and kind.
fn device_hazards(text: &str) -> std::collections::BTreeMap<(usize, HazardKind), u64> {
    let t = vksync::trace::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let commands = t.program.commands();
    let host = |i: usize| matches!(commands[i], Cmd::HostRead { .. } | Cmd::HostWrite { .. });
    let nth_device = |i: usize| {
        commands[..i]
            .iter()
            .filter(|c| vksync::is_device_command(c))
            .count()
    };
    let mut out = std::collections::BTreeMap::new();
    for h in vksync::check(&t.program).unwrap_or_else(|e| panic!("{e}\n{text}")) {
        if !host(h.command) && !host(h.prior_command) {
            *out.entry((nth_device(h.command), h.kind)).or_insert(0) += h.region.range.len();
        }
    }
    out
}

fn captured(example: &Path, planner: &str, dir: &Path) -> (String, String) {
    let out_file = dir.join(format!(
        "{}-{planner}.trace",
        example.file_stem().unwrap().to_string_lossy()
    ));
    let out = vksync()
        .arg("capture")
        .arg("-o")
        .arg(&out_file)
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_vksync"))
        .args(["run", "--planner", planner])
        .arg(example)
        .env("VKSYNC_VALIDATION", "0")
        .output()
        .expect("vksync capture runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out_file.is_file(),
        "no trace from {}:\n{stdout}\n{}",
        example.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    (
        std::fs::read_to_string(&out_file).expect("trace readable"),
        stdout,
    )
}

fn planned(example: &Path, planner: &str, dir: &Path) -> String {
    let text = std::fs::read_to_string(example).expect("example readable");
    let t = vksync::trace::parse(&text).expect("example parses");
    let input = dir.join(format!(
        "{}-input.trace",
        example.file_stem().unwrap().to_string_lossy()
    ));
    std::fs::write(&input, vksync::trace::print(&with_readback(&t.program))).expect("write input");
    let out = vksync()
        .args(["plan", "--planner", planner])
        .arg(&input)
        .output()
        .expect("vksync plan runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let t = vksync::trace::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    vksync::trace::print(&settled(&t.program))
}

/// Builds the example `name` of the capture crate (`capture/examples/`)
/// beside the `vksync` binary, in its profile, and gives its path.
fn example(name: &str) -> PathBuf {
    let exe = Path::new(env!("CARGO_BIN_EXE_vksync"));
    let app = exe.with_file_name("examples").join(name);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut build = Command::new(cargo);
    build
        .args(["build", "-p", "vksync-capture", "--example", name])
        .current_dir(root());
    if exe
        .parent()
        .and_then(|d| d.file_name())
        .is_some_and(|n| n == "release")
    {
        build.arg("--release");
    }
    // Under scripts/test-current-layer.sh the test binaries run in a
    // Debian 13 root without cargo: the example built by the earlier
    // `cargo test` is used there.
    match build.status() {
        Ok(st) => assert!(st.success() && app.is_file(), "building {} failed", app.display()),
        Err(e) if app.is_file() => eprintln!("cargo cannot be run ({e}): using the built {}", app.display()),
        Err(e) => panic!("cargo cannot be run ({e}) and {} is not built", app.display()),
    }
    app
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vksync-capture-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn captured_hazards_equal_the_planned_programs() {
    if skip("captured_hazards_equal_the_planned_programs") {
        return;
    }
    ensure_layer();
    let dir = scratch("examples");
    let mut examples: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .expect("examples/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "trace"))
        // `vksync run` refuses image layout transitions (the runtime has
        // no images), so there is no run of those examples to capture.
        .filter(|p| {
            let text = std::fs::read_to_string(p).expect("example readable");
            let t = vksync::trace::parse(&text).expect("example parses");
            // Nor several queues or semaphores (the runtime has one queue),
            // nor events (the runtime refuses them), nor render passes (the
            // runtime draws with dynamic rendering only).
            let render_pass = t.program.commands().iter().any(|c| {
                matches!(c, vksync::Command::Render(rc) if matches!(rc.op, vksync::RenderOp::BeginPass(_)))
            });
            t.program.first_layout_transition().is_none()
                && t.program.first_multi_queue_command().is_none()
                && t.program.first_event_command().is_none()
                && !render_pass
        })
        .collect();
    examples.sort();
    assert!(examples.len() >= 10);
    let mut failures = Vec::new();
    let mut compared = 0;
    for ex in &examples {
        for planner in ["none", "per-object", "offline"] {
            let (trace, _) = captured(ex, planner, &dir);
            // The layer cannot see host reads: it assumes one of each final
            // device result (docs/capture.md). `vksync run` reads back every
            // buffer, intermediates too, and without barriers (`none`) those
            // reads are hazards the capture cannot know of: there, hazards
            // at host reads are left out of the comparison.
            let host_reads = planner != "none";
            let got = hazards(&trace, host_reads);
            let want = hazards(&planned(ex, planner, &dir), host_reads);
            if got != want {
                failures.push(format!(
                    "{} --planner {planner}: captured {got:?}, planned {want:?}\n{trace}",
                    ex.display()
                ));
            }
            compared += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{} of {compared} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Random programs from the property suites' generator (fixed seed, so the
/// same programs on every machine; `VKSYNC_CAPTURE_PROGRAMS` sets how
/// many, default 24), for each planner: the hazards between device
/// commands are the same. Hazards with a host side are not compared: the
/// generator's host reads sit between device commands, where the capture
/// cannot see them, and a host write of bytes that already held the value
/// is invisible to it (docs/capture.md).
#[test]
fn captured_hazards_equal_the_planned_programs_on_random_programs() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    if skip("captured_hazards_equal_the_planned_programs_on_random_programs") {
        return;
    }
    ensure_layer();
    let count: usize = std::env::var("VKSYNC_CAPTURE_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    let dir = scratch("random");
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[11; 32]),
    );
    let strategy = vksync_proptests::programs(24);
    let (mut failures, mut compared, mut with_hazards) = (Vec::new(), 0, 0);
    for i in 0..count {
        let program = strategy
            .new_tree(&mut runner)
            .expect("the generator never rejects")
            .current()
            .program;
        let path = dir.join(format!("random{i}.trace"));
        std::fs::write(&path, vksync::trace::print(&program)).expect("write the program");
        for planner in ["none", "per-object", "offline"] {
            let (trace, _) = captured(&path, planner, &dir);
            let got = device_hazards(&trace);
            let want = device_hazards(&planned(&path, planner, &dir));
            with_hazards += usize::from(!want.is_empty());
            if got != want {
                failures.push(format!(
                    "program {i} --planner {planner}: captured {got:?}, planned {want:?}\n{}\ncaptured:\n{trace}",
                    vksync::trace::print(&program)
                ));
            }
            compared += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("capture round trip: {compared} runs of {count} random programs, {with_hazards} with hazards, {} differ", failures.len());
    assert!(with_hazards > 0, "the comparison must see hazards");
    assert!(
        failures.is_empty(),
        "{} of {compared} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The ncnn report's write-after-read (line 37 of the input), seen through
/// the runtime's own Vulkan calls with ncnn's per-object barriers.
#[test]
fn capturing_ncnn_per_object_reports_the_write_after_read() {
    if skip("capturing_ncnn_per_object_reports_the_write_after_read") {
        return;
    }
    ensure_layer();
    let dir = scratch("ncnn");
    let (trace, stdout) = captured(
        &root().join("examples/ncnn-batch-scale.trace"),
        "per-object",
        &dir,
    );
    let _ = std::fs::remove_dir_all(&dir);
    let war: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("SYNC-HAZARD-WRITE-AFTER-READ"))
        .collect();
    assert_eq!(war.len(), 1, "{stdout}");
    assert!(
        war[0].contains("vkCmdCopyBuffer writes b0[24768..24832]"),
        "{stdout}"
    );
    // The line it names is the copy's, with its Vulkan call in a comment.
    let line: usize = war[0].split(':').nth(1).unwrap().parse().unwrap();
    let text = trace.lines().nth(line - 1).unwrap();
    assert!(
        text.starts_with("copy ") && text.contains("# vkCmdCopyBuffer #"),
        "{text}"
    );
    assert!(trace.contains("0 calls not modelled"), "{trace}");
}

/// The calls the runtime never makes, from `capture/examples/calls.rs`:
/// `vkCmdCopyBuffer2`, an event (`vkCmdSetEvent2`, `vkCmdWaitEvents2`),
/// a synchronization-1 event to the host (`vkCmdSetEvent`,
/// `vkCmdWaitEvents`),
/// `vkCmdDispatchBase`, a secondary command buffer,
/// image layout transitions and copies between a buffer and an image. The
/// trace holds each as the model's command, in order, nothing is left
/// not modelled, and the one hazard the program has on purpose (the
/// secondary's fill after the dispatch, no barrier) is the one reported.
#[test]
fn capturing_secondaries_copy2_dispatch_base_and_images() {
    if skip("capturing_secondaries_copy2_dispatch_base_and_images") {
        return;
    }
    ensure_layer();
    let app = example("calls");
    let dir = scratch("calls");
    let trace_path = dir.join("calls.trace");
    let out = vksync()
        .arg("capture")
        .arg("-o")
        .arg(&trace_path)
        .arg("--")
        .arg(&app)
        .output()
        .expect("vksync capture runs");
    let trace = std::fs::read_to_string(&trace_path).expect("a trace");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The commands, in order, each with the call it came from.
    let commands: Vec<(String, String)> = trace
        .lines()
        .filter(|l| {
            !l.starts_with('#')
                && !["buffer ", "event ", "image ", "queue ", "semaphore "]
                    .iter()
                    .any(|d| l.starts_with(d))
        })
        .map(|l| {
            let (cmd, comment) = l.split_once("  # ").unwrap_or((l, ""));
            let keyword = cmd.split(' ').next().unwrap_or("").to_string();
            let call = comment.split(' ').next().unwrap_or("").to_string();
            (keyword, call)
        })
        .collect();
    let want = [
        ("host-write", "host"),
        ("copy", "vkCmdCopyBuffer2"),
        ("set-event", "vkCmdSetEvent2"),
        ("wait-events", "vkCmdWaitEvents2"),
        ("dispatch", "vkCmdDispatchBase"),
        ("fill", "vkCmdFillBuffer"),
        ("barrier", "vkCmdPipelineBarrier2"),
        ("copy-buffer-to-image", "vkCmdCopyBufferToImage"),
        ("barrier", "vkCmdPipelineBarrier2"),
        ("copy-image-to-buffer", "vkCmdCopyImageToBuffer"),
        ("set-event1", "vkCmdSetEvent"),
        ("wait-events1", "vkCmdWaitEvents"),
        ("submit", "vkQueueSubmit"),
        ("wait", "vkWaitForFences"),
        ("host-read", "host"),
        ("host-read", "host"),
    ];
    let got: Vec<(&str, &str)> = commands.iter().map(|(k, c)| (k.as_str(), c.as_str())).collect();
    assert_eq!(got, want, "{trace}");
    // The secondary's commands follow a comment naming it.
    assert!(trace.contains("# vkCmdExecuteCommands #"), "{trace}");
    assert!(trace.lines().any(|l| l == "event e0"), "{trace}");
    assert!(
        trace
            .lines()
            .any(|l| l.starts_with("set-event1 e1 COMPUTE_SHADER|ALL_TRANSFER  # vkCmdSetEvent")),
        "{trace}"
    );
    assert!(
        trace.lines().any(|l| l.starts_with(
            "wait-events1 e1 COMPUTE_SHADER|ALL_TRANSFER:SHADER_WRITE|TRANSFER_WRITE -> HOST:HOST_READ  # vkCmdWaitEvents"
        )),
        "{trace}"
    );
    // The image is declared exactly (R32_UINT is in the model's table):
    // its barriers name its subresources and layouts, its copies their
    // regions.
    assert!(
        trace
            .lines()
            .any(|l| l == "image i0 R32_UINT 8x8 exclusive alias m1 0"),
        "{trace}"
    );
    for transition in [
        "i0 COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL  # ",
        "i0 COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL  # ",
    ] {
        assert_eq!(
            trace
                .lines()
                .filter(|l| l.starts_with("barrier ") && l.contains(transition))
                .count(),
            1,
            "{transition}: {trace}"
        );
    }
    assert!(trace.contains("0 calls not modelled"), "{trace}");
    let hazards: Vec<&str> = stdout.lines().filter(|l| l.contains("SYNC-HAZARD")).collect();
    assert_eq!(hazards.len(), 1, "{stdout}");
    assert!(
        hazards[0].contains("SYNC-HAZARD-WRITE-AFTER-WRITE: vkCmdFillBuffer writes"),
        "{stdout}"
    );
}

/// An application whose `vkCmdWaitEvents2` waits for an event the host
/// set (`vkSetEvent`, after recording, before the submit) with an image
/// layout transition in its dependency info, from
/// `capture/examples/host_event.rs`. The model refuses that wait (no
/// command performs the transition): the capture writes a `not-modelled`
/// line with the model's reason in its place and keeps the transition
/// after nothing and before the wait's second scopes, so that `vksync
/// check` takes the rest of the trace instead of refusing it whole. The
/// synchronization-1 wait of a host-set event with a transition
/// (performed at the wait) stays the model's line. The application is
/// correct, and the copy that reads the image after the wait, in the
/// wait's second scope, is ordered after the kept transition: no hazard.
#[test]
fn capturing_a_host_set_events_wait_with_a_transition() {
    if skip("capturing_a_host_set_events_wait_with_a_transition") {
        return;
    }
    ensure_layer();
    let app = example("host_event");
    let dir = scratch("host-event");
    let trace_path = dir.join("host-event.trace");
    let out = vksync()
        .arg("capture")
        .arg("-o")
        .arg(&trace_path)
        .arg("--")
        .arg(&app)
        .output()
        .expect("vksync capture runs");
    let trace = std::fs::read_to_string(&trace_path).expect("a trace");
    let said = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("exited with status 0"), "{said}");
    let check = vksync()
        .arg("check")
        .arg(&trace_path)
        .output()
        .expect("vksync check runs");
    let _ = std::fs::remove_dir_all(&dir);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&check.stdout).into_owned(),
        String::from_utf8_lossy(&check.stderr).into_owned(),
    );
    // Checked, not refused (status 2 before: `error: barrier 0 of the wait
    // for event `e1`, which the host set: ...`).
    assert_eq!(check.status.code(), Some(0), "{stdout}\n{stderr}\n{trace}");
    assert_eq!(out.status.code(), Some(0), "{said}");
    let why = "the model rejects it: barrier 0 of the wait for event `e1`, which the host set: \
               its image layout transition is performed by no command (vkCmdSetEvent2 performs \
               an event's transitions, and vkSetEvent has no dependency info); the wait left out, \
               its layout transitions kept after nothing, before its second scopes";
    let lines: Vec<&str> = trace.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("not-modelled "))
        .unwrap_or_else(|| panic!("no not-modelled line in\n{trace}"));
    let (line, comment) = lines[at].split_once("  # ").expect("a comment");
    assert_eq!(line, format!("not-modelled vkCmdWaitEvents2 ({why})"), "{trace}");
    assert!(
        comment.starts_with("vkCmdWaitEvents2 #") && comment.ends_with(" in cb1"),
        "{trace}"
    );
    assert_eq!(
        lines[at + 1].split_once("  # "),
        Some((
            "barrier NONE:NONE -> COPY:TRANSFER_READ i0 COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL",
            comment
        )),
        "{trace}"
    );
    assert!(
        lines[at - 1].starts_with("host-set-event e1  # vkSetEvent #"),
        "{trace}"
    );
    assert!(
        lines[at + 2].starts_with("copy-image-to-buffer i0 TRANSFER_SRC_OPTIMAL -> "),
        "{trace}"
    );
    assert!(!trace.lines().any(|l| l.starts_with("wait-events ")), "{trace}");
    assert!(
        trace.lines().any(|l| l.starts_with(
            "wait-events1 e0 HOST:NONE -> ALL_TRANSFER:TRANSFER_WRITE i0 COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL  # vkCmdWaitEvents #"
        )),
        "{trace}"
    );
    assert_eq!(
        trace.lines().filter(|l| l.starts_with("not-modelled")).count(),
        1,
        "{trace}"
    );
    assert!(
        lines
            .last()
            .is_some_and(|l| l.ends_with(", 1 calls not modelled (see the `not-modelled` lines)")),
        "{trace}"
    );
    // `vksync check`: the note on stderr at the line, the summary's count,
    // and no hazard on stdout.
    assert!(
        stderr.contains(&format!(
            ":{}: note: not modelled: vkCmdWaitEvents2 ({why})",
            at + 1
        )),
        "{stderr}"
    );
    assert!(
        stderr
            .trim_end()
            .ends_with(": no hazards; 1 call not modelled, not checked"),
        "{stderr}"
    );
    assert!(!stdout.contains("SYNC-HAZARD"), "{stdout}");
}

/// The fault-injection options of `vksync capture` (docs/capture.md,
/// "Fault injection"): N counts from 1, and one kind at a time. No device
/// is needed: each case ends before a Vulkan call.
#[test]
fn fault_injection_options() {
    ensure_layer();
    let dir = scratch("fault-options");
    let out = dir.join("t.trace");
    let out = out.to_str().expect("a UTF-8 path");
    let cases: &[(&[&str], i32, &str)] = &[
        (&["--drop-barrier", "0"], 2, "0 is not in 1.."),
        (&["--drop-wait", "0"], 2, "0 is not in 1.."),
        (&["--drop-barrier", "x"], 2, "invalid value 'x'"),
        (
            &["--drop-barrier", "1", "--drop-wait", "1"],
            2,
            "cannot be used with",
        ),
        // Accepted; `true` creates no device, so there is no trace.
        (&["--drop-wait", "3"], 2, "no trace written"),
    ];
    for &(args, status, says) in cases {
        let o = vksync()
            .arg("capture")
            .args(args)
            .args(["-o", out, "--", "true"])
            .output()
            .expect("vksync runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(o.status.code(), Some(status), "{args:?}: {text}");
        assert!(text.contains(says), "{args:?}: no `{says}` in {text}");
    }
}
