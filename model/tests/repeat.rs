//! A command buffer submitted again and again (the runtime's prepared
//! programs, the GPU benchmark): with a fence wait between submissions the
//! plan needs nothing more; back to back, the loop-carried dependencies need
//! one barrier at its start (`vksync::plan::for_repeated_submission`).

use vksync::plan::{for_repeated_submission, plan, repeated, PlanOptions, PlannerKind};
use vksync::spec::{races, Reading};
use vksync::{trace, Command};

// The runtime's repeat test program (runtime/tests/repeat.rs).
const PROGRAM: &str = "pool p 1024 align 256
buffer out 256
buffer src 256
alloc x 256 from p
copy src -> x
alloc y 256 from p
dispatch scale_add(3,1) read x write y
free x
alloc z 256 from p
copy y -> z
dispatch scale(5) rw z
copy z -> out
";

fn planned(reading: Reading) -> vksync::Program {
    let p = trace::parse(PROGRAM).unwrap().program;
    plan(&p, PlanOptions::new(PlannerKind::Offline).reading(reading))
        .unwrap()
        .program
}

/// The hazards of a program under `reading`.
fn check_under(p: &vksync::Program, reading: Reading) -> Vec<vksync::Hazard> {
    vksync::check_with(p, vksync::Semantics::for_reading(reading)).unwrap()
}

#[test]
fn a_fence_wait_between_submissions_orders_everything() {
    for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
        let once = repeated(&planned(reading), 1).unwrap();
        let mut waited = once.clone();
        waited.extend([Command::SUBMIT, Command::WAIT]).unwrap();
        waited.extend(once.commands().iter().cloned()).unwrap();
        assert!(check_under(&waited, reading).is_empty(), "{reading:?}");
        assert!(races(&waited, reading).unwrap().is_empty(), "{reading:?}");
    }
}

#[test]
fn back_to_back_submissions_need_the_loop_barrier() {
    // (reading, the loop barrier it needs)
    let cases = [
        // The last copy reads `z`; the next repetition's first copy writes
        // `x`, the same pool bytes: an execution dependency.
        (Reading::MemoryModel, "barrier COPY:NONE -> COPY:NONE"),
        // Also the dispatch's write of those bytes, made available by the
        // plan's last barrier (whose chain reaches `COPY`), must be made
        // visible to the copy's write.
        (
            Reading::VisibleToWrites,
            "barrier COPY:NONE -> COPY:TRANSFER_WRITE",
        ),
    ];
    for (reading, barrier) in cases {
        let p = planned(reading);
        let twice = check_under(&repeated(&p, 2).unwrap(), reading);
        let kinds: Vec<String> = twice.iter().map(|h| h.kind.to_string()).collect();
        assert!(!twice.is_empty(), "the second repetition races the first");
        let looped = for_repeated_submission(&p, reading).unwrap();
        assert_eq!(
            trace::print_command(&looped, &looped.commands()[0]),
            barrier,
            "{reading:?}: hazards without it: {kinds:?}"
        );
        assert!(races(&repeated(&looped, 3).unwrap(), reading).unwrap().is_empty());
    }
}

#[test]
fn host_and_queue_commands_cannot_repeat() {
    let p = trace::parse("buffer a 16\nfill a 1\nhost-read a\n")
        .unwrap()
        .program;
    let e = for_repeated_submission(&p, Reading::VisibleToWrites).unwrap_err();
    assert_eq!(e.at, vksync::Location::Command(1));
    assert_eq!(
        e.kind.to_string(),
        "`host-read` cannot be in a command buffer submitted again and again; it may hold device commands and barriers only"
    );
}

/// The transition lines of a printed program (`... transition`, or an
/// image barrier with `OLD->NEW`).
fn transition_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| {
            l.starts_with("barrier ")
                && (l.ends_with(" transition")
                    || l.split_whitespace().any(|w| {
                        w.split_once("->").is_some_and(|(old, new)| {
                            !old.is_empty() && !new.is_empty() && !old.contains(':')
                        })
                    }))
        })
        .collect()
}

/// Layout transitions run again in each submission. What a transition
/// needs of the previous submission (it is a read-write of its
/// subresources, ordered after earlier accesses only by its own first
/// scopes) goes into its own barrier; the loop barrier at the start takes
/// the rest. Each case: (name, trace, the loop barrier, the transitions of
/// the looped plan) under the default reading; every plan is race-free
/// over three submissions under the definitional semantics (both
/// readings), keeps the plan's own bits of each transition, and needs
/// every bit the loop added.
#[test]
fn transitions_run_again_in_each_submission() {
    let cases: &[(&str, &str, Option<&str>, &[&str])] = &[
        (
            "a coarse transition after the previous submission's copy read",
            "buffer img 256\nbuffer a 256\nbarrier NONE:NONE -> NONE:NONE img transition\ndispatch scale(2) rw img\ncopy img -> a\n",
            // The copies' writes of `a`; the transition follows the
            // previous copy's read of `img` in its own first scope (an
            // execution dependency; the dispatch's write before it was
            // made available by the plan's barrier, which `COPY` chains).
            Some("barrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_WRITE"),
            &["barrier COPY:NONE -> COMPUTE_SHADER:SHADER_STORAGE_READ|SHADER_STORAGE_WRITE img[0..256] transition"],
        ),
        (
            "examples/image-async.trace",
            include_str!("../../examples/image-async.trace"),
            // The writes of `out`, `b`, `c` and `a` again, the fill after
            // the dispatch that read `a`, and the transitions of `src` and
            // `dst` from UNDEFINED after the previous frame's dispatch and
            // copy read them: `COPY:NONE` in their first scopes, chained
            // to the dispatch through this barrier's `COMPUTE_SHADER ->
            // COPY`.
            Some(
                "barrier COMPUTE_SHADER|COPY:SHADER_STORAGE_WRITE|TRANSFER_WRITE -> \
                 COMPUTE_SHADER|COPY|CLEAR:SHADER_STORAGE_WRITE|TRANSFER_WRITE",
            ),
            &[
                "barrier COPY:NONE -> COPY:TRANSFER_WRITE src COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL",
                "barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ src COLOR:0:0 TRANSFER_DST_OPTIMAL->GENERAL; \
                 COPY:NONE -> COMPUTE_SHADER:SHADER_STORAGE_WRITE dst COLOR:0:0 UNDEFINED->GENERAL",
                "barrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ; \
                 COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COPY:TRANSFER_READ dst COLOR:0:0 GENERAL->TRANSFER_SRC_OPTIMAL",
            ],
        ),
        (
            "examples/image-mip-chain-fixed.trace",
            include_str!("../../examples/image-mip-chain-fixed.trace"),
            // The dispatch's writes of `out`; mip 0's transition from
            // UNDEFINED follows the previous dispatch's sampling of it,
            // mip 1's through the chain of transitions before it (`BLIT`).
            Some("barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_WRITE"),
            &[
                "barrier COMPUTE_SHADER:NONE -> COPY:TRANSFER_WRITE tex COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL",
                "barrier COPY:TRANSFER_WRITE -> BLIT:TRANSFER_READ tex COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL",
                "barrier BLIT:NONE -> BLIT:TRANSFER_WRITE tex COLOR:1:0 UNDEFINED->TRANSFER_DST_OPTIMAL",
                "barrier BLIT:NONE -> COMPUTE_SHADER:SHADER_SAMPLED_READ tex COLOR:0:0 TRANSFER_SRC_OPTIMAL->SHADER_READ_ONLY_OPTIMAL",
                "barrier BLIT:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_SAMPLED_READ tex COLOR:1:0 TRANSFER_DST_OPTIMAL->SHADER_READ_ONLY_OPTIMAL",
            ],
        ),
    ];
    let mut wrong = Vec::new();
    for &(name, text, loop_barrier, transitions) in cases {
        let p = trace::parse(text)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .program;
        for reading in [Reading::VisibleToWrites, Reading::MemoryModel] {
            let planned = plan(&p, PlanOptions::new(PlannerKind::Offline).reading(reading))
                .unwrap()
                .program;
            let looped = for_repeated_submission(&planned, reading).unwrap();
            let printed = trace::print(&looped);
            let races3 = races(&repeated(&looped, 3).unwrap(), reading).unwrap();
            assert!(races3.is_empty(), "{name} {reading:?}: {races3:?}\n{printed}");
            let shift = looped.commands().len() - planned.commands().len();
            // The plan's own transitions, scopes included, are within the
            // looped ones; each bit the loop added is needed.
            for (ci, c) in looped.commands().iter().enumerate().skip(shift) {
                let (Command::Barrier(w), Command::Barrier(o)) = (c, &planned.commands()[ci - shift]) else {
                    continue;
                };
                for (j, (w, o)) in w.barriers.iter().zip(&o.barriers).enumerate() {
                    assert!(
                        w.src_stage_mask.contains(o.src_stage_mask)
                            && w.src_access_mask.contains(o.src_access_mask)
                            && w.dst_stage_mask.contains(o.dst_stage_mask)
                            && w.dst_access_mask.contains(o.dst_access_mask),
                        "{name} {reading:?}: command {ci} lost a bit of the plan"
                    );
                    for (k, bits) in [
                        w.src_stage_mask.bits() & !o.src_stage_mask.bits(),
                        w.src_access_mask.bits() & !o.src_access_mask.bits(),
                        w.dst_stage_mask.bits() & !o.dst_stage_mask.bits(),
                        w.dst_access_mask.bits() & !o.dst_access_mask.bits(),
                    ]
                    .into_iter()
                    .enumerate()
                    {
                        for bit in (0..64).map(|i| 1u64 << i).filter(|b| bits & b != 0) {
                            let mut q = looped.clone();
                            let mut d = match c {
                                Command::Barrier(d) => d.clone(),
                                _ => unreachable!(),
                            };
                            let b = &mut d.barriers[j];
                            match k {
                                0 => {
                                    b.src_stage_mask = vksync::PipelineStageFlags2::from_bits_retain(bits_of(
                                        b.src_stage_mask.bits(),
                                        bit,
                                    ))
                                }
                                1 => {
                                    b.src_access_mask = vksync::AccessFlags2::from_bits_retain(bits_of(
                                        b.src_access_mask.bits(),
                                        bit,
                                    ))
                                }
                                2 => {
                                    b.dst_stage_mask = vksync::PipelineStageFlags2::from_bits_retain(bits_of(
                                        b.dst_stage_mask.bits(),
                                        bit,
                                    ))
                                }
                                _ => {
                                    b.dst_access_mask = vksync::AccessFlags2::from_bits_retain(bits_of(
                                        b.dst_access_mask.bits(),
                                        bit,
                                    ))
                                }
                            }
                            q.replace(ci, Command::Barrier(d)).unwrap();
                            if vksync::resolve(&q).is_ok() {
                                assert!(
                                    !check_under(&repeated(&q, 2).unwrap(), reading).is_empty(),
                                    "{name} {reading:?}: command {ci} bit {bit:#x} the loop added is not needed\n{printed}"
                                );
                            }
                        }
                    }
                }
            }
            if reading == Reading::VisibleToWrites {
                let first = (shift == 1).then(|| trace::print_command(&looped, &looped.commands()[0]));
                if first.as_deref() != loop_barrier || transition_lines(&printed) != transitions {
                    wrong.push(format!(
                        "{name}: loop barrier {first:?}, transitions {:?}\n{printed}",
                        transition_lines(&printed)
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn bits_of(bits: u64, without: u64) -> u64 {
    bits & !without
}

/// Every image starts in UNDEFINED, so in a program valid once each
/// subresource's first layout operation is a transition from UNDEFINED,
/// which accepts any layout: a second submission accepts the layouts the
/// first left. The one command that could find another layout there, a
/// use that names UNDEFINED itself, is refused where it is written.
#[test]
fn a_program_valid_once_repeats_with_valid_layouts() {
    let undefined_use = "image tex R32_UINT 4x4\nbuffer out 64\n\
                dispatch sample sampled-image tex COLOR:0:0 UNDEFINED write out\n\
                barrier NONE:NONE -> NONE:NONE tex COLOR:0:0 UNDEFINED->GENERAL\n";
    let e = trace::parse(undefined_use).unwrap_err();
    assert!(
        e.to_string()
            .contains("VUID-VkWriteDescriptorSet-descriptorType-04149"),
        "{e}"
    );
    // A frame that leaves its image in another layout than it starts with
    // (UNDEFINED -> GENERAL -> TRANSFER_SRC_OPTIMAL): each submission's
    // first transition discards the contents, whatever the layout.
    let frame = "image img R32_UINT 4x4\nbuffer out 64\n\
                barrier NONE:NONE -> NONE:NONE img COLOR:0:0 UNDEFINED->GENERAL\n\
                dispatch k image-write img COLOR:0:0\n\
                barrier NONE:NONE -> NONE:NONE img COLOR:0:0 GENERAL->TRANSFER_SRC_OPTIMAL\n\
                copy-image-to-buffer img TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1\n";
    let p = trace::parse(frame).unwrap().program;
    let thrice = repeated(&p, 3).unwrap();
    assert_eq!(thrice.commands().len(), 12);
    // An image the program finds in GENERAL (`initial GENERAL`: work
    // before it left it there) and leaves in TRANSFER_SRC_OPTIMAL: the
    // second submission's use is refused at the input's line, saying it is
    // the second's (review42: the message did not).
    let left = "buffer out 4096\nimage im R32_UINT 16x16 initial GENERAL\n\
                dispatch k image-rw im COLOR:0:0\n\
                barrier NONE:NONE -> NONE:NONE im COLOR:0:0 GENERAL->TRANSFER_SRC_OPTIMAL\n\
                copy-image-to-buffer im TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=16,16,1\n";
    let t = trace::parse(left).unwrap();
    let e = repeated(&t.program, 2).unwrap_err();
    assert_eq!(
        (t.line_of(e.at), e.kind.to_string()),
        (
            Some(3),
            "in the second submission of the command buffer (it starts from the layouts the first leaves): \
             vkCmdDispatch uses image `im` subresource COLOR mip 0 layer 0 in layout GENERAL, but its layout is \
             TRANSFER_SRC_OPTIMAL at that point (VUID-VkDescriptorImageInfo-imageLayout-00344)"
                .to_string()
        )
    );
}

/// A render pass submitted back to back (review39's third review: 27 of
/// 48 random render pass plans from `plan --repeat` raced when repeated):
/// the begin's transition from `UNDEFINED` follows the previous
/// submission's store only through a dependency from `EXTERNAL`, which no
/// barrier before the begin reaches (the implicit one's first scope is
/// empty), so the declaration gets it, as a single submission's plan
/// amends declarations.
#[test]
fn back_to_back_render_passes_get_the_dependency_from_external() {
    let text = "image col R8G8B8A8_UNORM 4x4\n\
                render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL\n\
                begin-render-pass rp col COLOR:0:0\ndraw vertexCount=3\nend-render-pass\n";
    for (reading, looped) in looped_plans(text) {
        let deps: Vec<String> = looped.render_passes()[0]
            .dependencies
            .iter()
            .map(|d| d.to_string())
            .collect();
        assert_eq!(
            deps,
            vec!["EXTERNAL->0 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> ALL_COMMANDS:INPUT_ATTACHMENT_READ|COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE|DEPTH_STENCIL_ATTACHMENT_READ|DEPTH_STENCIL_ATTACHMENT_WRITE"],
            "{reading:?}"
        );
        twice_race_free(&looped, reading);
    }
}

/// The offline plan of trace `text` made for repeated submission
/// (`for_repeated_submission`), under each reading.
fn looped_plans(text: &str) -> Vec<(Reading, vksync::Program)> {
    let p = trace::parse(text).unwrap().program;
    [Reading::MemoryModel, Reading::VisibleToWrites]
        .into_iter()
        .map(|reading| {
            let once = plan(&p, PlanOptions::new(PlannerKind::Offline).reading(reading))
                .unwrap()
                .program;
            (reading, for_repeated_submission(&once, reading).unwrap())
        })
        .collect()
}

/// A plan's commands twice, its declarations once: race-free under both
/// checkers.
fn twice_race_free(looped: &vksync::Program, reading: Reading) {
    let printed = trace::print(looped);
    let (decl, cmds): (Vec<&str>, Vec<&str>) = printed.lines().partition(|l| {
        ["render-pass", "image", "buffer"]
            .iter()
            .any(|d| l.starts_with(d))
    });
    let twice = format!("{}\n{}\n{}\n", decl.join("\n"), cmds.join("\n"), cmds.join("\n"));
    let t = trace::parse(&twice).unwrap_or_else(|e| panic!("{e}\n{twice}"));
    assert!(
        check_under(&t.program, reading).is_empty(),
        "{reading:?}\n{twice}"
    );
    assert!(
        races(&t.program, reading).unwrap().is_empty(),
        "{reading:?}\n{twice}"
    );
}

/// A begin's transition after the previous submission's store, where the
/// dependency from `EXTERNAL` has a first scope of its own (`ALL_TRANSFER|COPY`):
/// the loop barrier orders it chained into that scope (render-pass-random
/// seed 700057: the loop barrier took the transition fix's source side
/// alone, which reaches no transition of a render pass, and 3 of 121
/// `--repeat` plans of seeds 700000..700299 raced when repeated).
#[test]
fn the_loop_barrier_chains_into_a_begins_dependency_from_external() {
    let text = "buffer sb 256\nimage col0 R8G8B8A8_UNORM 4x4\nimage dep D32_SFLOAT 4x4\n\
                render-pass rp0 attachment R8G8B8A8_UNORM CLEAR DONT_CARE UNDEFINED->TRANSFER_SRC_OPTIMAL ; attachment D32_SFLOAT LOAD NONE UNDEFINED->GENERAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL depth 1 GENERAL ; dependency EXTERNAL->0 ALL_TRANSFER|COPY:TRANSFER_READ|TRANSFER_WRITE -> NONE:NONE\n\
                begin-render-pass rp0 col0 COLOR:0:0 ; dep DEPTH:0:0\ndraw vertexCount=3 fs read sb[0..256]\nend-render-pass\n";
    for (reading, looped) in looped_plans(text) {
        // The loop barrier reaches the dependency's first scope.
        let Some(vksync::Command::Barrier(d)) = looped.commands().first() else {
            panic!("{reading:?}: no loop barrier\n{}", trace::print(&looped))
        };
        assert!(
            d.barriers[0]
                .dst_stage_mask
                .intersects(vksync::PipelineStageFlags2::ALL_TRANSFER | vksync::PipelineStageFlags2::COPY),
            "{reading:?}\n{}",
            trace::print(&looped)
        );
        twice_race_free(&looped, reading);
    }
}
