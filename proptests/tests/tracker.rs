//! The incremental tracker (`vksync::Tracker`) against the online planner:
//! fed a program command by command, as a runtime would (its buffers and
//! pools declared up front, blobs allocated and freed as the program does,
//! each command's accesses from `vksync::accesses`), it must give exactly
//! the online planner's barriers, submits and waits, for both barrier forms
//! and both readings. Case count: `PROPTEST_CASES` (default 256).

use proptest::prelude::*;
use vksync::plan::{plan, BarrierForm, PlanOptions, PlannerKind};
use vksync::{
    accesses, resolve, Barrier, Command, Dependency, ObjectId, ObjectKind, Program, Reading, Region,
    Semantics, TrackedAccess, TrackedId, Tracker,
};
use vksync_proptests::programs;

/// The program the tracker's answers build: the input's commands with what
/// the tracker asked for before each.
fn tracked(input: &Program, form: BarrierForm, reading: Reading) -> Program {
    let layout = resolve(input).expect("generated programs are valid");
    let mut t = Tracker::with_options(form, reading);
    // Tracker id -> program id, and back.
    let mut to_program: Vec<ObjectId> = Vec::new();
    let mut to_tracker: Vec<Option<TrackedId>> = vec![None; input.objects().len()];
    for (i, o) in input.objects().iter().enumerate() {
        let id = match o.kind {
            ObjectKind::Buffer { alias: None } => t.buffer(o.size).unwrap(),
            ObjectKind::Pool { align } => t.pool(o.size, align).unwrap(),
            ObjectKind::Buffer {
                alias: Some((other, offset)),
            } => t
                .alias(
                    to_tracker[other.0 as usize].expect("aliased object declared"),
                    offset,
                    o.size,
                )
                .unwrap(),
            ObjectKind::Blob { .. } => continue,
        };
        assert_eq!(id.object().0 as usize, to_program.len());
        to_program.push(ObjectId(i as u32));
        to_tracker[i] = Some(id);
    }
    let mut commands = Vec::new();
    for c in input.commands() {
        match c {
            Command::Alloc { blob } => {
                let o = input.object(*blob).expect("the program's blob");
                let ObjectKind::Blob { pool } = o.kind else {
                    unreachable!("alloc names a blob")
                };
                let pool = to_tracker[pool.0 as usize].expect("pool declared");
                let id = t.alloc(pool, o.size).unwrap();
                assert_eq!(id.object().0 as usize, to_program.len());
                to_program.push(*blob);
                to_tracker[blob.0 as usize] = Some(id);
            }
            Command::Free { blob } => t.free(to_tracker[blob.0 as usize].expect("allocated")).unwrap(),
            Command::Submit(_) => {
                t.submit().unwrap();
            }
            Command::Wait(_) => t.wait(),
            _ => {
                let acc: Vec<TrackedAccess> = accesses(c, &layout, Semantics::SPEC)
                    .expect("its own layout")
                    .iter()
                    .map(|a| {
                        let r = to_tracker[a.region.object.0 as usize].expect("accessed objects exist");
                        TrackedAccess::range(r, a.region.range, a.sa.stage().flag(), a.sa.access())
                    })
                    .collect();
                let needs = t.command(&acc).unwrap();
                if !needs.barriers.is_empty() {
                    let barriers = needs
                        .barriers
                        .iter()
                        .map(|b| Barrier {
                            region: b.region.map(|r| Region {
                                object: to_program[r.object.0 as usize],
                                range: r.range,
                            }),
                            ..*b
                        })
                        .collect();
                    commands.push(Command::Barrier(Dependency { barriers }));
                }
                if needs.submit_and_wait {
                    commands.extend([Command::SUBMIT, Command::WAIT]);
                }
            }
        }
        commands.push(c.clone());
    }
    Program::from_parts(input.objects().to_vec(), commands)
        .expect("the tracker's barriers name the program's objects")
}

/// Whether a host access comes after recorded work not yet submitted (an
/// order note). The two differ there by contract: the planners follow the
/// trace's semantics (the access runs first, before that work: since the
/// ninth session `plan` moves it ahead), while the tracker sees a host
/// access as the host's call at that moment and asks the runtime to
/// submit and wait for what is recorded first (`Needs::submit_and_wait`,
/// as a runtime does before mapping memory the GPU may still write).
fn has_order_notes(p: &Program) -> bool {
    !vksync::order_notes(p)
        .expect("generated programs are valid")
        .is_empty()
}

proptest! {
    #![proptest_config(vksync_proptests::config(256))]

    #[test]
    fn tracker_gives_the_online_planners_barriers(g in programs(40)) {
        if has_order_notes(&g.program) {
            return Ok(());
        }
        for form in [BarrierForm::Global, BarrierForm::Buffer] {
            for reading in [Reading::VisibleToWrites, Reading::MemoryModel] {
                let opts = PlanOptions::new(PlannerKind::Online).form(form).reading(reading);
                let online = plan(&g.program, opts).unwrap().program;
                let tracked = tracked(&g.program, form, reading);
                prop_assert!(
                    tracked == online,
                    "{form:?}/{reading:?}\ntracker:\n{}\nonline planner:\n{}",
                    vksync::trace::print(&tracked),
                    vksync::trace::print(&online)
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(vksync_proptests::config(128))]

    /// The synchronization-rich generator's programs (aliases of buffers
    /// and of pools, recycled blobs), their own barriers dropped.
    #[test]
    fn tracker_orders_aliases_as_the_online_planner_does(ops in vksync_proptests::sync::sync_ops(24)) {
        let built = vksync_proptests::sync::build_sync(&ops);
        let kept: Vec<Command> =
            built.commands().iter().filter(|c| !matches!(c, Command::Barrier(_))).cloned().collect();
        let input = Program::from_parts(built.objects().to_vec(), kept).unwrap();
        if has_order_notes(&input) {
            return Ok(());
        }
        for form in [BarrierForm::Global, BarrierForm::Buffer] {
            for reading in [Reading::VisibleToWrites, Reading::MemoryModel] {
                let opts = PlanOptions::new(PlannerKind::Online).form(form).reading(reading);
                let online = plan(&input, opts).unwrap().program;
                let tracked = tracked(&input, form, reading);
                prop_assert!(
                    tracked == online,
                    "{form:?}/{reading:?}\ntracker:\n{}\nonline planner:\n{}",
                    vksync::trace::print(&tracked),
                    vksync::trace::print(&online)
                );
            }
        }
    }
}

/// One bad call per row, through a fresh tracker with a buffer (`ids[0]`)
/// of 64 bytes and a pool (`ids[1]`) of 256 bytes holding one freed blob
/// (`ids[2]`); `ids[3]` is resource 9 of another tracker with the same tag
/// (refused as another tracker's: each tracker has an identity of its own).
#[test]
fn bad_calls_are_typed_errors() {
    use vksync::{AccessFlags2 as A, ByteRange, PipelineStageFlags2 as S, TrackerError};
    type Call = fn(&mut Tracker, &[TrackedId]) -> Result<(), TrackerError>;
    let cases: &[(&str, Call, &str)] = &[
        ("zero-size buffer", |t, _| t.buffer(0).map(drop), "buffer: size 0"),
        ("bad alignment", |t, _| t.pool(256, 3).map(drop), "pool: alignment 3 is not a power of two"),
        ("alloc from a buffer", |t, ids| t.alloc(ids[0], 16).map(drop), "alloc: resource 0 (tracker 0, generation 0) is not a pool"),
        (
            "foreign resource",
            |t, ids| t.command(&[TrackedAccess::whole(ids[3], S::COPY, A::TRANSFER_READ)]).map(drop),
            "command: resource 9 (tracker 0, generation 0) belongs to another tracker (this one is tracker 0)",
        ),
        (
            "use after free",
            |t, ids| t.command(&[TrackedAccess::whole(ids[2], S::COPY, A::TRANSFER_READ)]).map(drop),
            "command: resource 2 (tracker 0, generation 0) was freed (its generation is now 1)",
        ),
        ("double free", |t, ids| t.free(ids[2]), "free: resource 2 (tracker 0, generation 0) was freed (its generation is now 1)"),
        ("free a pool", |t, ids| t.free(ids[1]), "free: resource 1 (tracker 0, generation 0) is not a blob (only a blob allocated from a pool has an offset in it and is freed)"),
        (
            "pool exhausted",
            |t, ids| t.alloc(ids[1], 512).map(drop),
            "alloc: pool resource 1 (tracker 0, generation 0) has no free range of 512 bytes",
        ),
        (
            "out of bounds",
            |t, ids| {
                let a = TrackedAccess::range(ids[0], ByteRange::new(32, 80), S::COPY, A::TRANSFER_READ);
                t.command(&[a]).map(drop)
            },
            "command: access 0: range 32..80 of resource 0 (tracker 0, generation 0) (size 64) is empty or out of bounds",
        ),
        (
            "meta access",
            |t, ids| t.command(&[TrackedAccess::whole(ids[0], S::COMPUTE_SHADER, A::SHADER_READ)]).map(drop),
            "command: access 0: COMPUTE_SHADER:SHADER_READ is not one stage and one access the model knows \
             (COPY, CLEAR, BLIT, RESOLVE, COMPUTE_SHADER, DRAW_INDIRECT or HOST with an access that stage makes); \
             SHADER_READ is the synchronization-1 access: name SHADER_STORAGE_READ (a storage buffer), \
             UNIFORM_READ (a uniform buffer) or SHADER_SAMPLED_READ",
        ),
        (
            "access the stage cannot make",
            |t, ids| t.command(&[TrackedAccess::whole(ids[0], S::COPY, A::SHADER_STORAGE_READ)]).map(drop),
            "command: access 0: COPY:SHADER_STORAGE_READ is not one stage and one access the model knows \
             (COPY, CLEAR, BLIT, RESOLVE, COMPUTE_SHADER, DRAW_INDIRECT or HOST with an access that stage makes)",
        ),
    ];
    for (what, call, message) in cases {
        let mut t = Tracker::new();
        let buf = t.buffer(64).unwrap();
        let pool = t.pool(256, 16).unwrap();
        let blob = t.alloc(pool, 16).unwrap();
        t.free(blob).unwrap();
        let mut other = Tracker::new();
        let far = (0..10).map(|_| other.buffer(8).unwrap()).last().unwrap();
        let before = t.commands();
        let e = call(&mut t, &[buf, pool, blob, far]).expect_err(what);
        assert_eq!(e.to_string(), *message, "{what}");
        // A refused command is not counted.
        assert_eq!(t.commands(), before, "{what}");
    }
}
