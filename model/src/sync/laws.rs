//! quickcheck laws of the stage/access algebra and of the checker:
//! expansion is idempotent and monotone; merging adjacent equal ranges never
//! changes a verdict (on programs with layout transitions too); applying a
//! barrier that performs no layout transition never creates a hazard. Unit tests
//! (not integration tests) because they reach into the interior: the scope
//! functions and a checker with merging switched off.

use crate::hazard::check_with_checker;
use crate::sync::checker::{Checker, PieceHazards};
use crate::vk::scope::{access_scope, exec_scope, validate, Side};
use crate::*;
use quickcheck::{Arbitrary, Gen, QuickCheck};
use std::collections::BTreeSet;

const STAGES: &[PipelineStageFlags2] = &[
    PipelineStageFlags2::TOP_OF_PIPE,
    PipelineStageFlags2::DRAW_INDIRECT,
    PipelineStageFlags2::COMPUTE_SHADER,
    PipelineStageFlags2::ALL_TRANSFER,
    PipelineStageFlags2::COPY,
    PipelineStageFlags2::CLEAR,
    PipelineStageFlags2::BLIT,
    PipelineStageFlags2::RESOLVE,
    PipelineStageFlags2::HOST,
    PipelineStageFlags2::BOTTOM_OF_PIPE,
    PipelineStageFlags2::ALL_COMMANDS,
];

const ACCESSES: &[AccessFlags2] = &[
    AccessFlags2::INDIRECT_COMMAND_READ,
    AccessFlags2::UNIFORM_READ,
    AccessFlags2::SHADER_READ,
    AccessFlags2::SHADER_WRITE,
    AccessFlags2::SHADER_SAMPLED_READ,
    AccessFlags2::SHADER_STORAGE_READ,
    AccessFlags2::SHADER_STORAGE_WRITE,
    AccessFlags2::TRANSFER_READ,
    AccessFlags2::TRANSFER_WRITE,
    AccessFlags2::HOST_READ,
    AccessFlags2::HOST_WRITE,
    AccessFlags2::MEMORY_READ,
    AccessFlags2::MEMORY_WRITE,
];

#[derive(Clone, Debug)]
struct Masks(PipelineStageFlags2, AccessFlags2);

fn pick_stages(g: &mut Gen) -> PipelineStageFlags2 {
    let mut m = PipelineStageFlags2::empty();
    for s in STAGES {
        if u8::arbitrary(g) % 4 == 0 {
            m |= *s;
        }
    }
    m
}

fn pick_access(g: &mut Gen) -> AccessFlags2 {
    let mut m = AccessFlags2::empty();
    for a in ACCESSES {
        if u8::arbitrary(g) % 5 == 0 {
            m |= *a;
        }
    }
    m
}

impl Arbitrary for Masks {
    fn arbitrary(g: &mut Gen) -> Self {
        Masks(pick_stages(g), pick_access(g))
    }
}

fn side(b: bool) -> Side {
    if b {
        Side::Src
    } else {
        Side::Dst
    }
}

#[test]
fn expansion_is_idempotent() {
    fn prop(m: Masks, src: bool) -> bool {
        let s = side(src);
        let once = exec_scope(m.0, s);
        let twice = exec_scope(once.flags(), s);
        let acc = access_scope(m.0, m.1, s);
        // Re-expanding an access scope's own stages and accesses gives it back.
        let again = access_scope(acc.stages().flags(), acc.accesses(), s);
        once == twice && acc.iter().all(|sa| again.contains(sa)) && again.iter().all(|sa| acc.contains(sa))
    }
    QuickCheck::new()
        .tests(2000)
        .quickcheck(prop as fn(Masks, bool) -> bool);
}

#[test]
fn expansion_is_monotone() {
    fn prop(a: Masks, b: Masks, src: bool) -> bool {
        let s = side(src);
        let (small_s, small_a) = (a.0 & b.0, a.1 & b.1);
        let big = exec_scope(a.0, s);
        let small = exec_scope(small_s, s);
        let acc_big = access_scope(a.0, a.1, s);
        let acc_small = access_scope(small_s, small_a, s);
        (small.0 & !big.0) == 0 && (acc_small.0 & !acc_big.0) == 0
    }
    QuickCheck::new()
        .tests(2000)
        .quickcheck(prop as fn(Masks, Masks, bool) -> bool);
}

/// A random well-formed program over three buffers, an alias and a pool.
#[derive(Clone, Debug)]
struct Prog(Program);

fn region(g: &mut Gen, p: &Program, objs: &[ObjectId]) -> Region {
    let o = *g.choose(objs).expect("objects");
    let size = p.obj(o).size;
    let words = size / 4;
    let a = u64::arbitrary(g) % words;
    let b = a + 1 + u64::arbitrary(g) % (words - a);
    p.region(o, a * 4, b * 4)
}

/// A random valid barrier; with `transitions`, a buffer barrier sometimes
/// performs a layout transition (a write: it may create hazards).
fn random_barrier(g: &mut Gen, p: &Program, objs: &[ObjectId], transitions: bool) -> Barrier {
    let (ss, sa, ds, da) = (pick_stages(g), pick_access(g), pick_stages(g), pick_access(g));
    let sa = if validate(ss, sa, Side::Src).is_ok() {
        sa
    } else {
        AccessFlags2::NONE
    };
    let da = if validate(ds, da, Side::Dst).is_ok() {
        da
    } else {
        AccessFlags2::NONE
    };
    let b = Barrier::global(ss, sa, ds, da);
    if bool::arbitrary(g) {
        let b = b.on(region(g, p, objs));
        if transitions && u8::arbitrary(g) % 3 == 0 {
            b.with_transition()
        } else {
            b
        }
    } else {
        b
    }
}

impl Arbitrary for Prog {
    fn arbitrary(g: &mut Gen) -> Self {
        let mut p = Program::new();
        let a = p.buffer("a", 64).unwrap();
        let b = p.buffer("b", 64).unwrap();
        let c = p.buffer("c", 32).unwrap();
        let v = p.alias("v", 32, a, 16).unwrap();
        let pool = p.pool("pool", 256, 64).unwrap();
        let x = p.alloc("x", 64, pool).unwrap();
        let objs = vec![a, b, c, v, x];
        let n = 1 + usize::arbitrary(g) % 14;
        for _ in 0..n {
            let cmd = match u8::arbitrary(g) % 10 {
                0 => Command::Fill {
                    dst: region(g, &p, &objs),
                    value: 1,
                },
                1 => {
                    let src = region(g, &p, &objs);
                    let dst_obj = *g.choose(&objs).expect("objects");
                    let len = src.range.len().min(p.obj(dst_obj).size);
                    let src = p.region(src.object, src.range.start, src.range.start + len);
                    Command::Copy {
                        src,
                        dst: p.region(dst_obj, 0, len),
                    }
                }
                2 | 3 => Command::Dispatch {
                    kernel: "k".into(),
                    params: vec![],
                    bindings: vec![
                        Binding {
                            access: BindingAccess::Read,
                            region: region(g, &p, &objs),
                        },
                        Binding {
                            access: if bool::arbitrary(g) {
                                BindingAccess::Write
                            } else {
                                BindingAccess::ReadWrite
                            },
                            region: region(g, &p, &objs),
                        },
                    ],
                    indirect: None,
                },
                4 | 5 => Command::Barrier(Dependency {
                    barriers: (0..1 + usize::arbitrary(g) % 2)
                        .map(|_| random_barrier(g, &p, &objs, true))
                        .collect(),
                }),
                6 => Command::SUBMIT,
                7 => Command::WAIT,
                8 => Command::HostRead {
                    src: region(g, &p, &objs),
                },
                _ => Command::HostWrite {
                    dst: region(g, &p, &objs),
                    value: 2,
                },
            };
            p.commands.push(cmd);
            // Keep the program well formed: drop a command that breaks it
            // (an overlapping copy, say).
            if resolve(&p).is_err() {
                p.commands.pop();
            }
        }
        Prog(p)
    }
}

/// Hazards as a set of (command, prior, kind, memory, byte).
fn bytes(p: &Program, merging: bool, shift: Option<usize>) -> BTreeSet<(usize, usize, HazardKind, u32, u64)> {
    let layout = resolve(p).expect("generated programs are well formed");
    let mut checker = Checker::with_semantics(layout.memory_sizes.len(), Semantics::SPEC);
    checker.set_merging(merging);
    let unshift = |i: usize| match shift {
        Some(at) if i > at => i - 1,
        _ => i,
    };
    check_with_checker(p, &layout, checker)
        .iter()
        .flat_map(|h| {
            (h.memory.range.start..h.memory.range.end).map(move |byte| {
                (
                    unshift(h.command),
                    unshift(h.prior_command),
                    h.kind,
                    h.memory.mem.0,
                    byte,
                )
            })
        })
        .collect()
}

/// A report (`check_report`: a run of pieces named once per access,
/// `PieceHazards::Summary`) groups exactly the pairs `check_with` finds.
#[test]
fn a_report_groups_the_pairs() {
    fn prop(p: Prog) -> bool {
        match (
            crate::check_report(&p.0, Semantics::SPEC),
            crate::check_with(&p.0, Semantics::SPEC),
        ) {
            (Ok(report), Ok(pairs)) => report == group_hazards(pairs),
            (Err(a), Err(b)) => a == b,
            _ => false,
        }
    }
    QuickCheck::new().tests(1000).quickcheck(prop as fn(Prog) -> bool);
}

#[test]
fn merging_never_changes_a_verdict() {
    fn prop(p: Prog) -> bool {
        bytes(&p.0, true, None) == bytes(&p.0, false, None)
    }
    QuickCheck::new().tests(1000).quickcheck(prop as fn(Prog) -> bool);
}

#[test]
fn a_barrier_never_creates_a_hazard() {
    fn prop(p: Prog, at: usize, seed: u64) -> bool {
        let mut g = Gen::new(8 + (seed % 8) as usize);
        let objs: Vec<ObjectId> = (0..p.0.objects.len() as u32).map(ObjectId).collect();
        // Barriers may name any object alive at that point: use the
        // buffers and the pool, which are never freed.
        let objs: Vec<ObjectId> = objs.into_iter().filter(|o| p.0.obj(*o).name != "x").collect();
        // A barrier without a layout transition: one with a transition
        // also writes, which may well create a hazard.
        let b = random_barrier(&mut g, &p.0, &objs, false);
        let at = at % (p.0.commands.len() + 1);
        let mut with = p.0.clone();
        with.commands
            .insert(at, Command::Barrier(Dependency { barriers: vec![b] }));
        // Which earlier access a hazard line names can change (a barrier
        // can let the checker drop an access another one now stands for);
        // the racing (command, kind, byte) can only disappear.
        let key = |s: BTreeSet<(usize, usize, HazardKind, u32, u64)>| -> BTreeSet<_> {
            s.into_iter().map(|(c, _, k, m, b)| (c, k, m, b)).collect()
        };
        let before = key(bytes(&p.0, true, None));
        let after = key(bytes(&with, true, Some(at)));
        after.is_subset(&before)
    }
    QuickCheck::new()
        .tests(2000)
        .quickcheck(prop as fn(Prog, usize, u64) -> bool);
}

#[test]
fn generated_programs_exercise_the_checker() {
    // Guards the laws above against a generator that stopped producing
    // hazards (the laws would then pass vacuously).
    let mut g = Gen::new(20);
    let mut with_hazards = 0;
    let mut commands = 0;
    for _ in 0..200 {
        let p = Prog::arbitrary(&mut g);
        commands += p.0.commands.len();
        if !bytes(&p.0, true, None).is_empty() {
            with_hazards += 1;
        }
    }
    assert!(with_hazards > 60, "only {with_hazards}/200 programs had hazards");
    assert!(commands > 1000, "only {commands} commands in 200 programs");
}

/// Runs (pieces written alike by distinct commands, joined into one
/// entry: `super::state::Runs`) report what separate entries report: the
/// same racing bytes per pair, and the same report groups (the pair each
/// names first, its hull and fix, the three nearest, the count, the
/// earliest), with merging on and off.
#[test]
fn runs_report_what_separate_entries_report() {
    let pieces = |n: usize, order: &dyn Fn(usize) -> usize, tail: &str| {
        let mut t = format!("buffer a {}\nbuffer b {}\n", 16 * n, 16 * n);
        for i in (0..n).map(order) {
            t += &format!("fill a[{}..{}] 1\n", 16 * i, 16 * i + 16);
        }
        t + tail
    };
    let whole = "copy a[0..128] -> b[0..128]\ncopy a[0..128] -> b[0..128]\n";
    let cases: Vec<(&str, String)> = vec![
        ("left to right, then whole reads", pieces(8, &|i| i, whole)),
        ("right to left", pieces(8, &|i| 7 - i, whole)),
        ("interleaved", pieces(8, &|i| (i * 3) % 8, whole)),
        (
            "a piece overwritten, part read, then the whole",
            pieces(
                8,
                &|i| i,
                "fill a[40..56] 2\ncopy a[20..100] -> b[0..80]\nupdate a[0..8] 1\ncopy a[0..128] -> b[0..128]\n",
            ),
        ),
        (
            "a barrier between, a write over all, a read",
            pieces(
                8,
                &|i| i,
                "barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64]\ncopy a[0..128] -> b[0..128]\nfill a[0..128] 3\ncopy a[0..128] -> b[0..128]\n",
            ),
        ),
        (
            "reads of pieces, then pieces again",
            pieces(
                8,
                &|i| i,
                "copy a[0..64] -> b[0..64]\nfill a[64..80] 1\nfill a[80..96] 1\ncopy a[0..128] -> b[0..128]\nfill a[0..128] 1\n",
            ),
        ),
        (
            "submitted between, not waited for",
            pieces(8, &|i| i, "submit\ncopy a[0..128] -> b[0..128]\nsubmit\n"),
        ),
        // One command writes two pieces of one run: counted once.
        (
            "a dispatch's two pieces in one run",
            "buffer a 64\nbuffer b 64\ndispatch k write a[0..16] write a[32..48]\ndispatch k write a[16..32]\ndispatch k write a[48..64]\ncopy a[0..64] -> b[0..64]\ncopy a[8..40] -> b[8..40]\n".to_string(),
        ),
        // ... and a piece outside the run, in the same read's group, beside
        // a fill's bytes: the run is named piece by piece there.
        (
            "a run's command also outside it",
            "buffer a 128\nbuffer b 128\ndispatch k write a[0..16] write a[64..80]\ndispatch k write a[16..32]\nfill a[32..64] 1\ncopy a[0..80] -> b[0..80]\ncopy a[0..32] -> b[0..32]\n".to_string(),
        ),
        // Two runs in one read, apart: one group of the pieces of both.
        (
            "two runs in one read",
            pieces(8, &|i| i, "fill a[48..64] 2\ncopy a[0..128] -> b[0..128]\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..32]\ncopy a[0..128] -> b[0..128]\n"),
        ),
        // Writes after the pieces (write-after-write), a run's summary
        // alone in its group.
        (
            "a write over a run",
            pieces(8, &|i| i, "fill a[0..128] 2\nfill a[0..128] 3\n"),
        ),
    ];
    // Per case: the hazards left summarized, and whether a summary was
    // named piece by piece (`Checker::settle_pieces`).
    let mut shapes: Vec<(&str, usize, bool)> = Vec::new();
    for (name, text) in &cases {
        let p = crate::trace::parse(text).expect("a valid trace").program;
        let layout = resolve(&p).expect("well formed");
        let run = |merging: bool| {
            let mut checker = Checker::with_semantics(layout.memory_sizes.len(), Semantics::SPEC);
            checker.set_merging(merging);
            check_with_checker(&p, &layout, checker)
        };
        let (on, off) = (run(true), run(false));
        assert!(!off.is_empty(), "{name}: no hazards to compare");
        assert_eq!(bytes(&p, true, None), bytes(&p, false, None), "{name}");
        // A report names a run once per access, with a summary
        // (`PieceHazards::Summary`): the same groups as every pair's.
        let (summaries, expanded) = summaries_left(&p);
        shapes.push((*name, summaries, expanded));
        let report = crate::check_report(&p, Semantics::SPEC).expect("one queue");
        assert_eq!(report, group_hazards(off.clone()), "{name}: report");
        assert_eq!(group_hazards(on), group_hazards(off), "{name}");
        // A layer emulation names a run's first piece only
        // (`PieceHazards::First`): what it predicts is unchanged.
        for version in crate::layer::Layer::ALL {
            let emulation = version.emulation();
            let first = crate::layer::emulate::predict_with(&p, &emulation, PieceHazards::First);
            let each = crate::layer::emulate::predict_with(&p, &emulation, PieceHazards::Each);
            assert_eq!(first, each, "{name}: {version:?}");
        }
    }
    // The cases reach each path: a summary alone in its group, and one
    // named piece by piece beside another hazard of its group.
    let of = |name: &str| shapes.iter().find(|s| s.0 == name).map(|s| (s.1, s.2));
    assert_eq!(
        of("left to right, then whole reads"),
        Some((2, false)),
        "{shapes:?}"
    );
    assert_eq!(
        of("a dispatch's two pieces in one run"),
        Some((2, false)),
        "{shapes:?}"
    );
    assert_eq!(
        of("a run's command also outside it"),
        Some((1, true)),
        "{shapes:?}"
    );
}

/// How many of `p`'s hazards a summarizing checker leaves summarized
/// (`PieceHazards::Summary`) after `Checker::settle_pieces`, and whether
/// that named a summary piece by piece.
fn summaries_left(p: &Program) -> (usize, bool) {
    let layout = resolve(p).expect("well formed");
    let mut c = Checker::with_semantics(layout.memory_sizes.len(), Semantics::SPEC);
    c.set_pieces(PieceHazards::Summary);
    let (mut left, mut split) = (0, false);
    for i in crate::ir::execution::order(p) {
        let mut found = Vec::new();
        crate::hazard::step(&mut c, &layout, i, &p.commands[i], &mut found);
        let before = found.iter().filter(|h| h.pieces.is_some()).count();
        c.settle_pieces(&mut found, None);
        let after = found.iter().filter(|h| h.pieces.is_some()).count();
        left += after;
        split |= after < before;
    }
    (left, split)
}

/// A program over one buffer written in pieces (fills and dispatches of
/// 16-byte cells, mostly in address order, so that runs form), read by
/// whole and partial copies, with barriers over parts, submits and waits:
/// runs of pieces split, joined, read in part and beside other writes.
#[derive(Clone, Debug)]
struct PieceProg(String);

impl Arbitrary for PieceProg {
    fn arbitrary(g: &mut Gen) -> Self {
        let mut t = String::from("buffer a 256\nbuffer b 256\n");
        let cells = |g: &mut Gen| {
            let lo = u64::arbitrary(g) % 16;
            let hi = lo + 1 + u64::arbitrary(g) % (16 - lo);
            (16 * lo, 16 * hi)
        };
        let mut next = 0u64;
        for _ in 0..(4 + usize::arbitrary(g) % 28) {
            match u8::arbitrary(g) % 10 {
                0..=2 => {
                    let (lo, hi) = (16 * next, 16 * (next + 1));
                    t += &format!("fill a[{lo}..{hi}] {}\n", u8::arbitrary(g) % 2);
                    next = (next + 1) % 16;
                }
                3 => {
                    let (x, y) = (u64::arbitrary(g) % 16, u64::arbitrary(g) % 16);
                    if x != y {
                        t += &format!(
                            "dispatch k write a[{}..{}] write a[{}..{}]\n",
                            16 * x,
                            16 * x + 16,
                            16 * y,
                            16 * y + 16
                        );
                    } else {
                        t += &format!("dispatch k write a[{}..{}]\n", 16 * x, 16 * x + 16);
                    }
                }
                4 | 5 => {
                    let (lo, hi) = if bool::arbitrary(g) { (0, 256) } else { cells(g) };
                    t += &format!("copy a[{lo}..{hi}] -> b[{lo}..{hi}]\n");
                }
                6 => {
                    let (lo, hi) = cells(g);
                    let src = [
                        "CLEAR:TRANSFER_WRITE",
                        "COMPUTE_SHADER:SHADER_STORAGE_WRITE",
                        "COPY:TRANSFER_READ",
                    ];
                    let dst = [
                        "COPY:TRANSFER_READ",
                        "CLEAR:TRANSFER_WRITE",
                        "COMPUTE_SHADER:NONE",
                    ];
                    let (s, d) = (usize::arbitrary(g) % 3, usize::arbitrary(g) % 3);
                    t += &format!("barrier {} -> {} a[{lo}..{hi}]\n", src[s], dst[d]);
                }
                7 => t += "submit\n",
                8 => t += "submit\nwait\n",
                _ => {
                    let (lo, hi) = cells(g);
                    t += &format!("fill a[{lo}..{hi}] 2\n");
                }
            }
        }
        PieceProg(t)
    }
}

/// On programs written in pieces, a report groups exactly the pairs, and
/// each layer emulation predicts the same naming a run's first piece as
/// naming every piece.
#[test]
fn reports_and_predictions_of_runs_are_the_pairs() {
    fn prop(p: PieceProg) -> bool {
        let p = crate::trace::parse(&p.0).expect("a valid trace").program;
        for sem in [
            Semantics::SPEC,
            Semantics::for_reading(crate::Reading::VisibleToWrites),
        ] {
            let report = crate::check_report(&p, sem).expect("one queue");
            if report != group_hazards(crate::check_with(&p, sem).expect("one queue")) {
                return false;
            }
        }
        crate::layer::Layer::ALL.iter().all(|v| {
            let e = v.emulation();
            crate::layer::emulate::predict_with(&p, &e, PieceHazards::First)
                == crate::layer::emulate::predict_with(&p, &e, PieceHazards::Each)
        })
    }
    QuickCheck::new()
        .tests(2000)
        .quickcheck(prop as fn(PieceProg) -> bool);
}

#[test]
fn generated_piece_programs_reach_both_paths() {
    // Guards the law above against a generator that stopped making runs:
    // a summary left alone in its group, and one named piece by piece.
    let mut g = Gen::new(20);
    let (mut alone, mut expanded) = (0, 0);
    for _ in 0..500 {
        let p = crate::trace::parse(&PieceProg::arbitrary(&mut g).0)
            .expect("a valid trace")
            .program;
        let (left, split) = summaries_left(&p);
        alone += usize::from(left > 0);
        expanded += usize::from(split);
    }
    assert!(alone > 100 && expanded > 100, "{alone} and {expanded} of 500");
}
