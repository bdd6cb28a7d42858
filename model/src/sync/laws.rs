//! quickcheck laws of the stage/access algebra and of the checker:
//! expansion is idempotent and monotone; merging adjacent equal ranges never
//! changes a verdict (on programs with layout transitions too); applying a
//! barrier that performs no layout transition never creates a hazard. Unit tests
//! (not integration tests) because they reach into the interior: the scope
//! functions and a checker with merging switched off.

use crate::hazard::check_with_checker;
use crate::sync::checker::Checker;
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
    ];
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
        assert_eq!(group_hazards(on), group_hazards(off), "{name}");
    }
}
