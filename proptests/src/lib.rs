//! Program strategies shared by the property suites in `tests/`.
//!
//! This module owns the random program generator: abstract operations over
//! a few pools (with alloc/free recycling, so memory is reused inside a
//! command buffer as in the ncnn report) and plain buffers, interpreted into
//! a [`Program`] that is valid by construction. Every operation re-checks its
//! preconditions when interpreted (a free with nothing live, a copy whose
//! ranges overlap, a dispatch whose bindings alias are skipped), so any
//! subsequence of operations is still a valid program: shrinking removes
//! operations and stays valid. A generated program prints as a trace
//! (`Debug` shows the trace text), so a failing case can be replayed with
//! `vksync check` or `vksync run`. The suites themselves live in `tests/`.

use proptest::prelude::*;
use std::fmt;
use vksync::reference::Kernel;
use vksync::{
    resolve, trace, AccessFlags2, Binding, BlobAllocator, Command, ObjectId, PipelineStageFlags2, Program,
    Region,
};

/// One abstract operation. Indices pick among the objects live at that
/// point, modulo their count; sizes are in 4-byte words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    Alloc { pool: u8, words: u8 },
    Free { which: u8 },
    Copy { src: u8, dst: u8, start: u8, words: u8 },
    Fill { dst: u8, value: u32 },
    Update { dst: u8, value: u32 },
    Dispatch { kernel: u8, objs: [u8; 3], words: u8 },
    HostWrite { dst: u8, value: u32 },
    HostRead { src: u8 },
    Submit,
    Wait,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u8..2, 1u8..=24).prop_map(|(pool, words)| Op::Alloc { pool, words }),
        2 => any::<u8>().prop_map(|which| Op::Free { which }),
        3 => (any::<u8>(), any::<u8>(), any::<u8>(), 1u8..=16)
            .prop_map(|(src, dst, start, words)| Op::Copy { src, dst, start, words }),
        1 => (any::<u8>(), 0u32..1000).prop_map(|(dst, value)| Op::Fill { dst, value }),
        1 => (any::<u8>(), 0u32..1000).prop_map(|(dst, value)| Op::Update { dst, value }),
        4 => (0u8..4, any::<[u8; 3]>(), 1u8..=16).prop_map(|(kernel, objs, words)| Op::Dispatch { kernel, objs, words }),
        1 => (any::<u8>(), 0u32..1000).prop_map(|(dst, value)| Op::HostWrite { dst, value }),
        1 => any::<u8>().prop_map(|src| Op::HostRead { src }),
        1 => Just(Op::Submit),
        1 => Just(Op::Wait),
    ]
}

/// A generated program, with the operations it came from.
#[derive(Clone, PartialEq, Eq)]
pub struct Generated {
    pub ops: Vec<Op>,
    pub program: Program,
}

impl fmt::Debug for Generated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "program as a trace (replay with `vksync check` / `vksync run`):"
        )?;
        f.write_str(&trace::print(&self.program))
    }
}

/// The planners and barrier forms whose plans must be safe: the device
/// suites run each of them on every program.
pub const SAFE_PLANS: [(vksync::plan::PlannerKind, vksync::plan::BarrierForm); 5] = {
    use vksync::plan::{BarrierForm, PlannerKind};
    [
        (PlannerKind::Online, BarrierForm::Global),
        (PlannerKind::Online, BarrierForm::Buffer),
        (PlannerKind::Offline, BarrierForm::Global),
        (PlannerKind::Offline, BarrierForm::Buffer),
        (PlannerKind::Conservative, BarrierForm::Global),
    ]
};

/// The slow kernel's iteration count in generated programs: enough work
/// per element to widen race windows on a GPU, little enough for lavapipe.
pub const SLOW_ITERS: u32 = 256;

/// Interprets operations into a valid program (see [`build_with`]), with
/// the slow kernel at [`SLOW_ITERS`] iterations.
pub fn build(ops: &[Op]) -> Program {
    build_with(ops, SLOW_ITERS)
}

/// Interprets operations into a valid program. Every program gets two
/// pools of 1 KiB and two buffers of 256 bytes, and ends with a `submit`,
/// a `wait` and its host reads of every live object, so the device's
/// results can be compared.
/// `slow_iters` is the `slow` kernel's iteration count.
pub fn build_with(ops: &[Op], slow_iters: u32) -> Program {
    let mut p = Program::new();
    // Fixed names and ids of this program: the builder cannot refuse them.
    let ok = "the generator names and ids are valid";
    let pools = [
        p.pool("pool0", 1024, 64).expect(ok),
        p.pool("pool1", 1024, 64).expect(ok),
    ];
    let bufs = [p.buffer("buf0", 256).expect(ok), p.buffer("buf1", 256).expect(ok)];
    // The pools' allocators, mirrored, so an allocation that does not fit
    // is skipped before it is declared; and each live blob's (pool, offset).
    let mut allocators = [BlobAllocator::new(1024, 64), BlobAllocator::new(1024, 64)];
    let mut placed: std::collections::HashMap<ObjectId, (usize, u64)> = Default::default();
    let mut live: Vec<ObjectId> = bufs.to_vec();
    let mut blobs = 0;
    let pick = |live: &[ObjectId], i: u8| live[i as usize % live.len()];
    for op in ops {
        let before = p.commands().len();
        match op {
            Op::Alloc { pool, words } => {
                let k = *pool as usize % 2;
                let size = u64::from(*words) * 4;
                // A zero-size blob is invalid; a declared one would make
                // every later `resolve` fail.
                if size == 0 {
                    continue;
                }
                let Some(offset) = allocators[k].alloc(size) else {
                    // The pool is full.
                    continue;
                };
                let name = format!("blob{blobs}");
                let id = p.alloc(&name, size, pools[k]).expect(ok);
                placed.insert(id, (k, offset));
                blobs += 1;
                live.push(id);
            }
            Op::Free { which } => {
                let blob_ix: Vec<usize> = (0..live.len()).filter(|&i| !bufs.contains(&live[i])).collect();
                if blob_ix.is_empty() {
                    continue;
                }
                let i = blob_ix[*which as usize % blob_ix.len()];
                let blob = live.remove(i);
                if let (Some((k, offset)), Some(o)) = (placed.remove(&blob), p.object(blob)) {
                    assert!(allocators[k].free(offset, o.size), "a live blob frees");
                }
                p.push(Command::Free { blob }).expect(ok);
            }
            Op::Copy {
                src,
                dst,
                start,
                words,
            } => {
                let (s, d) = (pick(&live, *src), pick(&live, *dst));
                let size = |o: ObjectId| p.object(o).map_or(0, |o| o.size);
                let (ss, ds) = (size(s) / 4, size(d) / 4);
                let n = u64::from(*words).min(ss).min(ds);
                let so = u64::from(*start) % (ss - n + 1);
                let src = p.region(s, so * 4, (so + n) * 4);
                let dst = p.region(d, 0, n * 4);
                p.push(Command::Copy { src, dst }).expect(ok);
            }
            Op::Fill { dst, value } => {
                let dst = p.whole(pick(&live, *dst));
                p.push(Command::Fill { dst, value: *value }).expect(ok);
            }
            Op::Update { dst, value } => {
                let dst = p.whole(pick(&live, *dst));
                p.push(Command::Update { dst, value: *value }).expect(ok);
            }
            Op::HostWrite { dst, value } => {
                let dst = p.whole(pick(&live, *dst));
                p.push(Command::HostWrite { dst, value: *value }).expect(ok);
            }
            Op::HostRead { src } => {
                let src = p.whole(pick(&live, *src));
                p.push(Command::HostRead { src }).expect(ok);
            }
            Op::Submit => {
                p.push(Command::SUBMIT).expect(ok);
            }
            Op::Wait => {
                p.push(Command::WAIT).expect(ok);
            }
            Op::Dispatch { kernel, objs, words } => {
                // The buffer kernels, with their names and parameters as
                // a trace writes them.
                let (k, name, params) = match kernel % 4 {
                    0 => (Kernel::ScaleAdd { a: 3, b: 1 }, "scale_add", vec![3, 1]),
                    1 => (Kernel::Add, "add", vec![]),
                    2 => (Kernel::Scale { a: 5 }, "scale", vec![5]),
                    _ => (Kernel::Slow { iters: slow_iters }, "slow", vec![slow_iters]),
                };
                let sig = k.signature();
                let chosen: Vec<ObjectId> = objs.iter().take(sig.len()).map(|i| pick(&live, *i)).collect();
                let n = chosen
                    .iter()
                    .map(|o| p.object(*o).map_or(0, |o| o.size) / 4)
                    .min()
                    .unwrap_or(0)
                    .min(u64::from(*words));
                let bindings: Vec<Binding> = sig
                    .iter()
                    .zip(&chosen)
                    .map(|(access, o)| Binding {
                        access: *access,
                        region: p.region(*o, 0, n * 4),
                    })
                    .collect();
                p.push(Command::Dispatch {
                    kernel: name.into(),
                    params,
                    bindings,
                    indirect: None,
                })
                .expect(ok);
                // Bindings of one dispatch must not share memory: invocations
                // would race inside the dispatch, which no barrier can fix.
                if let Ok(layout) = resolve(&p) {
                    let regs: Vec<Region> = match p.commands().last() {
                        Some(Command::Dispatch { bindings, .. }) => {
                            bindings.iter().map(|b| b.region).collect()
                        }
                        _ => vec![],
                    };
                    let mems: Vec<_> = regs
                        .iter()
                        .map(|r| layout.locate(*r).expect("region of the resolved program"))
                        .collect();
                    let alias = mems.iter().enumerate().any(|(i, a)| {
                        mems[i + 1..]
                            .iter()
                            .any(|b| a.mem == b.mem && a.range.overlaps(b.range))
                    });
                    if alias {
                        p.truncate(before).expect("a step that adds no alloc");
                    }
                }
            }
        }
        if p.commands().len() > before && resolve(&p).is_err() {
            // A generated command the model rejects (an overlapping copy,
            // say) is dropped, keeping the program valid.
            p.truncate(before).expect("a step that adds no alloc");
        }
    }
    // Submitted and waited for before the host reads, as a real program
    // does: a host read recorded after unsubmitted work runs before it
    // (`vksync::order_notes`) and would see the values from before it.
    p.extend([Command::SUBMIT, Command::WAIT]).expect(ok);
    for o in live {
        p.push(Command::HostRead { src: p.whole(o) }).expect(ok);
    }
    p
}

/// Strategy for programs of up to `max_ops` operations.
pub fn programs(max_ops: usize) -> impl Strategy<Value = Generated> {
    prop::collection::vec(op(), 1..=max_ops).prop_map(|ops| {
        let program = build(&ops);
        Generated { ops, program }
    })
}

/// Strategy for the operations of a program of up to `max_ops`
/// operations (what [`programs`] interprets with [`build`]); for drivers
/// that build with other options ([`build_with`]).
pub fn ops_strategy(max_ops: usize) -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(op(), 1..=max_ops)
}

/// Whether an operation is a queue operation or a host access.
pub fn is_queue_or_host(op: &Op) -> bool {
    matches!(
        op,
        Op::Submit | Op::Wait | Op::HostWrite { .. } | Op::HostRead { .. }
    )
}

/// Strategy for programs of up to `max_ops` operations without submits,
/// waits or host accesses (except the host reads [`build`] appends at the
/// end): every device command lands in one command buffer, which is all
/// that the 1.3.239 layer validates at a time (D8) and where no host access
/// hides from it (D9). The differential suite uses these.
pub fn device_only_programs(max_ops: usize) -> impl Strategy<Value = Generated> {
    prop::collection::vec(
        op().prop_filter("no queue or host ops", |o| !is_queue_or_host(o)),
        1..=max_ops,
    )
    .prop_map(|ops| {
        let program = build(&ops);
        Generated { ops, program }
    })
}

/// Every program obtained by removing one barrier, or one stage or access
/// bit of one barrier, from `p`, that is still valid (`resolve` accepts it),
/// with a description of what was removed.
pub fn weakenings(p: &Program) -> Vec<(String, Program)> {
    weakenings_at(p)
        .into_iter()
        .map(|(_, what, q)| (what, q))
        .collect()
}

/// [`weakenings`], each with the index of the barrier command it weakens.
pub fn weakenings_at(p: &Program) -> Vec<(usize, String, Program)> {
    let mut out = Vec::new();
    for (ci, c) in p.commands().iter().enumerate() {
        let Command::Barrier(dep) = c else { continue };
        for bi in 0..dep.barriers.len() {
            let mut q = p.clone();
            let mut d = dep.clone();
            d.barriers.remove(bi);
            q.replace(ci, Command::Barrier(d))
                .expect("a barrier of the program");
            if resolve(&q).is_ok() {
                out.push((ci, format!("command {ci}: without barrier {bi}"), q));
            }
            let b = dep.barriers[bi];
            let masks: [(&str, u64); 4] = [
                ("src stage", b.src_stage_mask.bits()),
                ("src access", b.src_access_mask.bits()),
                ("dst stage", b.dst_stage_mask.bits()),
                ("dst access", b.dst_access_mask.bits()),
            ];
            for (which, bits) in masks {
                for bit in (0..64).map(|i| 1u64 << i).filter(|m| bits & m != 0) {
                    let mut nb = b;
                    match which {
                        "src stage" => nb.src_stage_mask = PipelineStageFlags2::from_bits_retain(bits & !bit),
                        "src access" => nb.src_access_mask = AccessFlags2::from_bits_retain(bits & !bit),
                        "dst stage" => nb.dst_stage_mask = PipelineStageFlags2::from_bits_retain(bits & !bit),
                        _ => nb.dst_access_mask = AccessFlags2::from_bits_retain(bits & !bit),
                    }
                    let mut q = p.clone();
                    let mut d = dep.clone();
                    d.barriers[bi] = nb;
                    q.replace(ci, Command::Barrier(d))
                        .expect("a barrier of the program");
                    // Removing a stage can leave an access no stage supports:
                    // that is invalid usage, not a weaker valid plan.
                    if resolve(&q).is_ok() {
                        out.push((
                            ci,
                            format!("command {ci}: barrier {bi} without {which} bit {bit:#x}"),
                            q,
                        ));
                    }
                }
            }
        }
    }
    out
}

/// The number of cases a suite runs: `PROPTEST_CASES` when set, else
/// `default` (kept small so the whole workspace's `cargo test` stays short).
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The `proptest!` configuration of the suites: `cases(default)` cases and
/// failures persisted next to the test file
/// (`tests/<suite>.proptest-regressions`). proptest's default persistence
/// looks for the crate's `lib.rs` above the source file, which a file in
/// `tests/` does not have, so without this failures would not be saved.
pub fn config(default_cases: u32) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, FileFailurePersistence};
    Config {
        cases: cases(default_cases),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..Config::default()
    }
}

/// A proptest runner for a suite that drives the runner itself (so that
/// one Vulkan device serves every case): `cases` cases, failures persisted
/// next to `source_file` (pass `file!()`) in a `.proptest-regressions`
/// file, like the `proptest!` macro does.
pub fn runner(cases: u32, source_file: &'static str) -> proptest::test_runner::TestRunner {
    use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};
    TestRunner::new(Config {
        cases,
        source_file: Some(source_file),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        // Shrinking re-runs the device; bound it.
        max_shrink_time: 300_000,
        max_shrink_iters: 4096,
        ..Config::default()
    })
}

/// Runs `test` on `cases` programs of `strategy`; on failure, panics with
/// the reason and the shrunk program printed as a trace.
pub fn run_suite<S>(
    cases: u32,
    source_file: &'static str,
    strategy: S,
    test: impl Fn(Generated) -> Result<(), TestCaseError>,
) where
    S: Strategy<Value = Generated>,
{
    let mut runner = runner(cases, source_file);
    match runner.run(&strategy, test) {
        Ok(()) => {}
        Err(proptest::test_runner::TestError::Fail(reason, g)) => {
            panic!("{reason}\nminimal failing case, {g:?}")
        }
        Err(e) => panic!("{e}"),
    }
}

pub mod exhaustive;
pub mod images;
pub mod layer;
pub mod queues;
pub mod rendering;
pub mod scale;
pub mod sync;
pub mod transitions;
