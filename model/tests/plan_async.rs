//! Async compute (`vksync::plan::assign_async_compute`, `plan_async_compute`):
//! which queue each command of a single-queue program moves to, and the
//! semaphores the plan then needs. Each case is a barrier-free trace after
//! buffers `a`..`d` (and `x`, exclusive); the expectation is the assigned
//! program's command lines. Every plan must check hazard-free with the
//! fast checker and the definitional semantics.

use vksync::plan::{assign_async_compute, plan_async_compute, PlanOptions, PlannerKind, QueuePlanOptions};
use vksync::spec::{races, Reading};
use vksync::{check, trace};

/// (name, body, assigned command lines, semaphores, waits, ownership transfers)
type Case = (
    &'static str,
    &'static str,
    &'static [&'static str],
    usize,
    usize,
    usize,
);

const HEADER: &str = "buffer a 256\nbuffer b 256\nbuffer c 256\nbuffer d 256\nbuffer x 256 exclusive\n";

/// A plan checks clean and the definitional semantics finds no race in it
/// under either reading.
fn assert_race_free(planned: &vksync::Program, name: &str) {
    let text = trace::print(planned);
    assert!(check(planned).unwrap().is_empty(), "case `{name}`:\n{text}");
    for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
        assert!(
            races(planned, reading).unwrap().is_empty(),
            "case `{name}` {reading:?}:\n{text}"
        );
    }
}

#[test]
fn independent_chains_move_to_a_compute_queue_and_uploads_to_a_transfer_queue() {
    let cases: &[Case] = &[
        (
            "two independent dispatch chains",
            "dispatch scale(2) rw a\ndispatch scale(3) rw a\ndispatch scale(4) rw b\n",
            &[
                "dispatch scale(2) rw a[0..256]",
                "dispatch scale(3) rw a[0..256]",
                "submit main",
                "dispatch scale(4) rw b[0..256]",
                "submit compute",
            ],
            0,
            0,
            0,
        ),
        (
            "an upload feeding a chain",
            "update a 1\ndispatch scale_add(2,1) read a write b\ndispatch scale(3) rw b\n",
            &[
                "update a[0..256] 1",
                "submit transfer",
                "dispatch scale_add(2,1) read a[0..256] write b[0..256]",
                "dispatch scale(3) rw b[0..256]",
                "submit main",
            ],
            1,
            1,
            0,
        ),
        (
            "a branch that joins the critical path later runs on the compute queue",
            "update a 1\ndispatch scale_add(2,1) read a write b\ndispatch scale_add(3,0) read a write c\ndispatch scale(5) rw b\ndispatch add read b read c write d\n",
            &[
                "update a[0..256] 1",
                "submit transfer",
                "dispatch scale_add(2,1) read a[0..256] write b[0..256]",
                "submit main",
                "dispatch scale_add(3,0) read a[0..256] write c[0..256]",
                "submit compute",
                "dispatch scale(5) rw b[0..256]",
                "dispatch add read b[0..256] read c[0..256] write d[0..256]",
                "submit main",
            ],
            // Three, not two: `compute` may signal before `main` has
            // taken `transfer`'s signal of a shared one (module
            // `completion`).
            3,
            3,
            0,
        ),
        (
            "a copy of a compute result stays with its chain",
            "dispatch scale(2) rw a\ncopy a -> b\n",
            &[
                "dispatch scale(2) rw a[0..256]",
                "copy a[0..256] -> b[0..256]",
                "submit main",
            ],
            0,
            0,
            0,
        ),
        (
            "an exclusive upload gets an ownership transfer",
            "fill x 1\ndispatch scale_add(2,1) read x write b\n",
            &[
                "fill x[0..256] 1",
                "submit transfer",
                "dispatch scale_add(2,1) read x[0..256] write b[0..256]",
                "submit main",
            ],
            1,
            1,
            1,
        ),
        (
            "transfer work only stays on the main queue",
            "fill a 1\ncopy a -> b\n",
            &["fill a[0..256] 1", "copy a[0..256] -> b[0..256]", "submit main"],
            0,
            0,
            0,
        ),
    ];
    let opts = QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline));
    for &(name, body, expected, s, w, t) in cases {
        let tr = trace::parse(&format!("{HEADER}{body}")).unwrap_or_else(|e| panic!("{name}: {e}"));
        let assigned = assign_async_compute(&tr.program).unwrap();
        let text = trace::print(&assigned);
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with("buffer ") && !l.starts_with("queue "))
            .collect();
        assert_eq!(lines, expected, "case `{name}`:\n{text}");
        let p = plan_async_compute(&tr.program, opts).unwrap();
        let planned = trace::print(&p.plan.program);
        assert_eq!(
            (p.semaphores, p.waits, p.ownership_transfers),
            (s, w, t),
            "case `{name}`:\n{planned}"
        );
        assert_race_free(&p.plan.program, name);
    }
}

/// Layout transitions stay where they are, on the main queue, with every
/// command that touches their memory (images, and a coarse transition's
/// buffer-declared memory); other work moves as without them. Each case:
/// (name, trace, the assigned program's command lines); every plan
/// checks hazard-free with both checkers, and keeps every transition.
#[test]
fn transitions_and_their_memory_stay_on_the_main_queue() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "examples/image-async.trace",
            include_str!("../../examples/image-async.trace"),
            &[
                "fill a[0..1024] 1",
                "submit transfer",
                "barrier NONE:NONE -> NONE:NONE src COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL",
                "copy-buffer-to-image staging -> src TRANSFER_DST_OPTIMAL bufferOffset=0 bufferRowLength=0 bufferImageHeight=0 imageSubresource=COLOR:0:0 imageOffset=0,0,0 imageExtent=16,16,1",
                "barrier NONE:NONE -> NONE:NONE src COLOR:0:0 TRANSFER_DST_OPTIMAL->GENERAL; NONE:NONE -> NONE:NONE dst COLOR:0:0 UNDEFINED->GENERAL",
                // Not on the critical path (the chain of `b` has two
                // dispatches), but it touches the images.
                "dispatch image_scale_add(3,1) image-read src COLOR:0:0 image-write dst COLOR:0:0",
                "barrier NONE:NONE -> NONE:NONE dst COLOR:0:0 GENERAL->TRANSFER_SRC_OPTIMAL",
                "copy-image-to-buffer dst TRANSFER_SRC_OPTIMAL -> out bufferOffset=0 bufferRowLength=0 bufferImageHeight=0 imageSubresource=COLOR:0:0 imageOffset=0,0,0 imageExtent=16,16,1",
                "dispatch scale_add(2,1) read a[0..1024] write b[0..1024]",
                "dispatch scale(3) rw b[0..1024]",
                "submit main",
                "dispatch scale(5) rw c[0..1024]",
                "submit compute",
            ],
        ),
        (
            "a coarse transition: the dispatch that writes its memory stays",
            "buffer img 256\nbuffer a 256\nbuffer b 256\nbuffer c 256\nbuffer d 256\n\
             dispatch scale(2) rw a\ndispatch scale(3) rw a\n\
             barrier NONE:NONE -> NONE:NONE img transition\ndispatch scale_add(2,1) read b write img\ncopy img -> c\n\
             dispatch scale(5) rw d\n",
            &[
                "dispatch scale(2) rw a[0..256]",
                "dispatch scale(3) rw a[0..256]",
                "barrier NONE:NONE -> NONE:NONE img[0..256] transition",
                "dispatch scale_add(2,1) read b[0..256] write img[0..256]",
                "copy img[0..256] -> c[0..256]",
                "submit main",
                "dispatch scale(5) rw d[0..256]",
                "submit compute",
            ],
        ),
    ];
    let opts = QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline));
    let transitions = |p: &vksync::Program| {
        p.commands()
            .iter()
            .filter(|c| matches!(c, vksync::Command::Barrier(d) if d.barriers.iter().any(|b| b.transition)))
            .count()
    };
    let mut wrong = Vec::new();
    for &(name, text, expected) in cases {
        let tr = trace::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let assigned = assign_async_compute(&tr.program).unwrap();
        let printed = trace::print(&assigned);
        let lines: Vec<&str> = printed
            .lines()
            .filter(|l| !["buffer ", "queue ", "image "].iter().any(|k| l.starts_with(k)))
            .collect();
        if lines != expected {
            wrong.push(format!("case `{name}`: {lines:#?}"));
        }
        let p = plan_async_compute(&tr.program, opts).unwrap();
        let planned = trace::print(&p.plan.program);
        assert_eq!(
            transitions(&p.plan.program),
            transitions(&tr.program),
            "case `{name}`:\n{planned}"
        );
        assert_race_free(&p.plan.program, name);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
