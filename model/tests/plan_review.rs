//! Plans a review broke with minimal traces (2026-12-02), one table per
//! boundary: each plan either parses back and checks clean, or is refused
//! with the reason named.

use vksync::plan::{
    assign_async_compute, plan, plan_async_compute, plan_queues, recorded_barriers, BarrierForm, PlanOptions,
    PlannerKind, QueuePlanOptions,
};
use vksync::spec::races;
use vksync::{trace, Reading};

fn program(text: &str) -> vksync::Program {
    trace::parse(text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .program
}

/// A plan's printed program parses back and has no hazard.
fn checks_clean(planned: &vksync::Program) -> Result<(), String> {
    let printed = trace::print(planned);
    let back = trace::parse(&printed)
        .map_err(|e| format!("{e}\n{printed}"))?
        .program;
    // `check_program`: the fast checkers, or the definitional semantics
    // where they refuse (a render pass with several queues).
    let hazards = vksync::check_program(&back, vksync::Semantics::for_reading(Reading::MemoryModel))
        .map_err(|e| e.to_string())?
        .hazards;
    if hazards.is_empty() {
        Ok(())
    } else {
        Err(format!("{} hazards in\n{printed}", hazards.len()))
    }
}

/// A wait submitted before the signal that satisfies it: the planner
/// orders batches by submission, so it refuses (it planned the copy before
/// the fill the semaphore orders before it: other bytes, checked clean).
#[test]
fn waits_before_their_signal_are_refused() {
    let cases = [
        (
            "queue qa\nqueue qb\nsemaphore t timeline\nbuffer a 64\nbuffer b 64\nhost-write a 7\ncopy a -> b\n\
             submit qb wait t:1@ALL_COMMANDS\nfill a 1\nsubmit qa signal t:1\nwait\nhost-read b\n",
            Some("command 2: a wait for `t` 1 submitted before any signal that satisfies it"),
        ),
        // review46: numbered in the barrier-free input, as every refusal of
        // this planner (the barrier made it command 3, which the CLI took
        // for a host read past the trace's end).
        (
            "queue qa\nqueue qb\nsemaphore t timeline\nbuffer a 64\nbuffer b 64\nhost-write a 7\ncopy a -> b\n\
             barrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ\nsubmit qb wait t:1@ALL_COMMANDS\nfill a 1\n\
             submit qa signal t:1\nwait\nhost-read b\n",
            Some("command 2: a wait for `t` 1 submitted before any signal that satisfies it"),
        ),
        (
            "queue qa\nqueue qb\nsemaphore t timeline\nbuffer a 64\nbuffer b 64\nhost-write a 7\nfill a 1\n\
             submit qa signal t:1\ncopy a -> b\nsubmit qb wait t:1@ALL_COMMANDS\nwait\nhost-read b\n",
            None,
        ),
    ];
    for (text, want) in cases {
        let got = plan_queues(
            &program(text),
            QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline)),
        );
        match (got, want) {
            (Err(e), Some(w)) => assert!(e.to_string().starts_with(w), "{e}"),
            (Ok(p), None) => checks_clean(&p.plan.program).unwrap(),
            (got, want) => panic!("{text}: got {:?}, want {want:?}", got.map(|_| "a plan")),
        }
    }
}

/// review26: render passes planned across queues. The planner amends the
/// render pass declarations with the subpass dependencies they need, as
/// the single-queue planner does (it planned each queue's part as
/// declared, and the whole plan failed its own check: "a defect of
/// vksync's planner"), the dependency into a subpass too when its load
/// operation races the transition into it at the same command. Each plan
/// is race-free under both checkers, both readings.
#[test]
fn plans_across_queues_amend_render_passes() {
    let cases: [(&str, &str, Option<&str>); 4] = [
        (
            "one queue with a semaphore signal: a dependency 0->1",
            concat!(
        "queue q0\n",
        "semaphore s\n",
        "image c R8G8B8A8_UNORM 8x8 concurrent\n",
        "image c2 R8G8B8A8_UNORM 8x8 concurrent\n",
        "render-pass rp0 attachment R8G8B8A8_UNORM LOAD NONE UNDEFINED->ATTACHMENT_OPTIMAL ; attachment R8G8B8A8_UNORM LOAD STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL color 1 COLOR_ATTACHMENT_OPTIMAL ; subpass color 1 GENERAL\n",
        "begin-render-pass rp0 c COLOR:0:0 ; c2 COLOR:0:0\n",
        "next-subpass\n",
        "end-render-pass\n",
        "submit q0 signal s\n",
    ),
            None,
        ),
        (
            "two queues: rp1's end against its own store",
            concat!(
        "queue q0\n",
        "queue q1\n",
        "semaphore s\n",
        "buffer b 4096\n",
        "buffer out 4096\n",
        "image c R8G8B8A8_UNORM 8x8 concurrent\n",
        "image c2 R8G8B8A8_UNORM 8x8 concurrent\n",
        "render-pass rp0 attachment R8G8B8A8_UNORM NONE STORE UNDEFINED->TRANSFER_DST_OPTIMAL ; attachment R8G8B8A8_UNORM DONT_CARE STORE UNDEFINED->SHADER_READ_ONLY_OPTIMAL ; subpass color 0 GENERAL color 1 GENERAL ; dependency 0->EXTERNAL ALL_COMMANDS:MEMORY_WRITE -> NONE:NONE ; dependency 0->EXTERNAL NONE:NONE -> ALL_COMMANDS:MEMORY_READ\n",
        "render-pass rp1 attachment R8G8B8A8_UNORM CLEAR DONT_CARE SHADER_READ_ONLY_OPTIMAL->TRANSFER_SRC_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency 0->EXTERNAL FRAGMENT_SHADER:NONE -> COMPUTE_SHADER:SHADER_SAMPLED_READ\n",
        "begin-render-pass rp0 c COLOR:0:0 ; c2 COLOR:0:0\n",
        "draw vertexCount=3\n",
        "end-render-pass\n",
        "fill b[0..256] 3\n",
        "begin-render-pass rp1 c2 COLOR:0:0\n",
        "end-render-pass\n",
        "fill out[0..256] 5\n",
        "submit q0 signal s\n",
        "submit q1 wait s@FRAGMENT_SHADER\n",
    ),
            None,
        ),
        (
            "the load operation against the transition into its subpass, at the same next-subpass: the dependency into it amended (refused until the planner told the two ends of one command apart)",
            concat!(
        "queue q0\n",
        "semaphore s\n",
        "image c R8G8B8A8_UNORM 8x8 concurrent\n",
        "image d D32_SFLOAT 8x8 concurrent\n",
        "render-pass rp0 attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass  ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL\n",
        "render-pass rp1 attachment R8G8B8A8_UNORM LOAD NONE GENERAL->COLOR_ATTACHMENT_OPTIMAL ; attachment D32_SFLOAT LOAD NONE UNDEFINED->DEPTH_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass depth 1 DEPTH_READ_ONLY_OPTIMAL ; dependency EXTERNAL->0 NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE ; dependency 0->1 ALL_GRAPHICS:MEMORY_WRITE -> ALL_GRAPHICS:MEMORY_READ|MEMORY_WRITE ; dependency 0->EXTERNAL COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> TOP_OF_PIPE:NONE\n",
        "begin-render-pass rp0 c COLOR:0:0\n",
        "next-subpass\n",
        "end-render-pass\n",
        "submit q0 signal s\n",
        "begin-render-pass rp1 c COLOR:0:0 ; d DEPTH:0:0\n",
        "next-subpass\n",
        "end-render-pass\n",
    ),
            None,
        ),
        (
            "the clear at the begin against the transition from UNDEFINED (tests/capture-apps/draw.c's render pass): EXTERNAL->0 amended",
            concat!(
        "queue q0\n",
        "semaphore s\n",
        "buffer out 256\n",
        "image color R8G8B8A8_UNORM 8x8\n",
        "render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->TRANSFER_SRC_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency EXTERNAL->0 COMPUTE_SHADER:SHADER_WRITE -> VERTEX_INPUT:VERTEX_ATTRIBUTE_READ\n",
        "begin-render-pass rp color COLOR:0:0\n",
        "end-render-pass\n",
        "copy-image-to-buffer color TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=8,8,1\n",
        "submit q0 signal s\n",
    ),
            None,
        ),
    ];
    for (name, text, want) in cases {
        let got = plan_queues(
            &program(text),
            QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline)),
        );
        match (got, want) {
            (Err(e), Some(w)) => assert!(e.to_string().contains(w), "{name}: {e}"),
            (Ok(p), None) => {
                let planned = &p.plan.program;
                for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
                    let hazards = vksync::check_program(planned, vksync::Semantics::for_reading(reading))
                        .map(|c| c.hazards.len());
                    let spec = races(planned, reading).map(|r| r.len());
                    assert!(
                        hazards == Ok(0) && spec == Ok(0),
                        "{name} {reading:?}: {hazards:?} hazards, {spec:?} races\n{}",
                        trace::print(planned)
                    );
                }
            }
            (got, want) => panic!("{name}: got {:?}, want {want:?}", got.map(|_| "a plan")),
        }
    }
}

/// The async-compute assignment drops every barrier but the layout
/// transitions (it once dropped them silently, then refused them): each
/// stays, on the main queue, coarse and exact, and the plan across queues
/// checks clean.
#[test]
fn async_compute_keeps_transitions() {
    for text in [
        "buffer img 64\nbuffer d 64\nfill img 0\nbarrier NONE:NONE -> NONE:NONE img transition\ncopy img -> d\n",
        "buffer s 64\nimage img R32_UINT 4x4\nbarrier NONE:NONE -> NONE:NONE img COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL\n\
         copy-buffer-to-image s -> img TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=4,4,1\n",
    ] {
        let assigned = assign_async_compute(&program(text)).expect("assigned");
        let transitions = |p: &vksync::Program| {
            p.commands()
                .iter()
                .filter(|c| matches!(c, vksync::Command::Barrier(d) if d.barriers.iter().any(|b| b.transition)))
                .count()
        };
        assert_eq!(transitions(&assigned), 1, "{}", trace::print(&assigned));
        let planned = plan_async_compute(&program(text), QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline)))
            .expect("planned");
        assert_eq!(transitions(&planned.plan.program), 1);
        checks_clean(&planned.plan.program).unwrap();
    }
}

/// A planned barrier over an image's bytes (buffer form, per-object
/// baseline) is global: a buffer barrier over an image does not parse.
#[test]
fn planned_barriers_on_images_parse_back() {
    let text = "image img R32_UINT 4x4\nbuffer a 64\n\
        barrier NONE:NONE -> NONE:NONE img COLOR:0:0 UNDEFINED->GENERAL\n\
        dispatch k image-write img COLOR:0:0\n\
        copy-image-to-buffer img GENERAL -> a imageSubresource=COLOR:0:0 imageExtent=4,4,1\n";
    for (planner, form, clean) in [
        (PlannerKind::Offline, BarrierForm::Buffer, true),
        (PlannerKind::Online, BarrierForm::Buffer, true),
        (PlannerKind::PerObject, BarrierForm::Global, false),
    ] {
        let p = plan(&program(text), PlanOptions::new(planner).form(form)).expect("planned");
        let printed = trace::print(&p.program);
        trace::parse(&printed).unwrap_or_else(|e| panic!("{planner:?}: {e}\n{printed}"));
        if clean {
            checks_clean(&p.program).unwrap();
        }
    }
}

/// review46: a buffer barrier over the bytes of a buffer under part of an
/// optimal image aliasing it does not order the image's accesses (every
/// subresource overlaps the whole bound range); the buffer-barrier plans
/// widen it (global), and check clean. Cases: the later access.
#[test]
fn buffer_barrier_plans_over_an_aliased_optimal_image_order_it() {
    let head = "buffer mem 64\nbuffer src 64\nimage O R32_UINT 4x4 alias mem 0\n\
        barrier NONE:NONE -> COPY:TRANSFER_WRITE O COLOR:0:0 UNDEFINED->GENERAL\n\
        copy-buffer-to-image src -> O GENERAL imageSubresource=COLOR:0:0 imageOffset=3,3,0 imageExtent=1,1,1\n";
    for later in [
        "dispatch k image-write O COLOR:0:0",
        "copy-buffer-to-image src -> O GENERAL imageSubresource=COLOR:0:0 imageOffset=3,3,0 imageExtent=1,1,1",
    ] {
        let text = format!("{head}{later}\n");
        for planner in [PlannerKind::Offline, PlannerKind::Online] {
            let p = plan(&program(&text), PlanOptions::new(planner).form(BarrierForm::Buffer))
                .unwrap_or_else(|e| panic!("{planner:?} `{later}`: {e}"));
            checks_clean(&p.program).unwrap_or_else(|e| panic!("{planner:?} `{later}`: {e}"));
        }
    }
}

/// `--compare recorded`: a barrier that transfers ownership is needed even
/// when removing it brings no hazard back (the program would be invalid).
#[test]
fn ownership_transfers_are_never_redundant() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/ownership-fixed.trace"
    ))
    .expect("example");
    let recorded = recorded_barriers(&program(&text), Reading::VisibleToWrites).expect("judged");
    assert_eq!(recorded.len(), 2);
    for b in &recorded {
        assert!(b.transfers_ownership && !b.redundant(), "command {}", b.command);
    }
}

/// A barrier before a render pass must chain into the dependency from
/// `EXTERNAL` that its automatic layout transition from `initialLayout`
/// happens after (its second scope meeting the dependency's first), and
/// one after a pass out of the dependency to `EXTERNAL` that the
/// transition into `finalLayout` happens before (its first scope meeting
/// the dependency's second). Two traces of review 10, once in
/// tests/open-defects/: the streaming planners refused the first
/// (`PlanNeedsSubpassDependency`: their barrier after rp4's end did not
/// chain out of its `1->EXTERNAL`, `COMPUTE_SHADER` there), and
/// `--async-compute` planned the second racy (a barrier into
/// `COLOR_ATTACHMENT_OUTPUT` before rp1, whose `EXTERNAL->0` first scope is
/// `ALL_TRANSFER`). Each planner, and `--async-compute` with the offline
/// and the online planner, plans both race-free under the fast checker and
/// the definitional semantics (both readings), with the chaining barrier
/// the table names just before the render pass it orders (or, for
/// review23's cases, just before the command after the instance).
#[test]
fn plans_chain_into_a_render_pass_external_dependency() {
    const SUBPASS: &str = concat!(
            "buffer m 32\n",
            "buffer s 16 alias m 0\n",
            "buffer v 16 alias m 8\n",
            "image c R8_UNORM 2x2\n",
            "image d D32_SFLOAT 1x1\n",
            "image r R8_UNORM 2x2\n",
            "barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE c COLOR:0:0 UNDEFINED->GENERAL\n",
            "barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE d DEPTH:0:0 UNDEFINED->GENERAL\n",
            "barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE r COLOR:0:0 UNDEFINED->GENERAL\n",
            "render-pass rp1 attachment R8_UNORM LOAD STORE GENERAL->GENERAL ; attachment D32_SFLOAT CLEAR STORE GENERAL->GENERAL ; subpass color 0 GENERAL depth 1 GENERAL ; dependency EXTERNAL->0 COPY|CLEAR:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ ; dependency 0->0 VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ\n",
            "render-pass rp2 attachment R8_UNORM CLEAR STORE GENERAL->GENERAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 GENERAL ; dependency 0->1 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_WRITE|COLOR_ATTACHMENT_WRITE -> VERTEX_ATTRIBUTE_INPUT|COLOR_ATTACHMENT_OUTPUT:VERTEX_ATTRIBUTE_READ|COLOR_ATTACHMENT_WRITE by-region\n",
            "render-pass rp3 attachment R8_UNORM LOAD STORE GENERAL->GENERAL ; subpass ; subpass ; subpass color 0 GENERAL ; dependency EXTERNAL->0 COPY|CLEAR|COMPUTE_SHADER:TRANSFER_WRITE|SHADER_WRITE -> ALL_GRAPHICS:MEMORY_READ|MEMORY_WRITE ; dependency EXTERNAL->2 COPY|CLEAR:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE ; dependency 0->1 FRAGMENT_SHADER:SHADER_WRITE -> FRAGMENT_SHADER:NONE ; dependency 1->EXTERNAL FRAGMENT_SHADER:NONE -> COMPUTE_SHADER:SHADER_READ|SHADER_WRITE ; dependency 2->EXTERNAL ALL_GRAPHICS:MEMORY_WRITE -> COPY|CLEAR|COMPUTE_SHADER:TRANSFER_READ|TRANSFER_WRITE|SHADER_READ|SHADER_WRITE\n",
            "render-pass rp4 attachment R8_UNORM LOAD STORE GENERAL->GENERAL ; subpass color 0 GENERAL ; subpass input 0 SHADER_READ_ONLY_OPTIMAL ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:INPUT_ATTACHMENT_READ by-region\n",
            "begin-render-pass rp4 c COLOR:0:0\n",
            "draw vertexCount=1\n",
            "next-subpass\n",
            "draw vertexCount=1\n",
            "end-render-pass\n",
            "begin-render-pass rp3 c COLOR:0:0\n",
            "draw vertexCount=1 vs read s[0..4] fs write s[8..12] no-color-write\n",
            "next-subpass\n",
            "next-subpass\n",
            "draw vertexCount=1 blend\n",
            "end-render-pass\n",
            "dispatch k sampled-image c COLOR:0:0 GENERAL write s[0..4]\n",
        );
    const ASYNC: &str = concat!(
            "buffer a 256\n",
            "buffer b 256\n",
            "buffer c 256\n",
            "image col R8G8B8A8_UNORM 4x4\n",
            "image col2 R8G8B8A8_UNORM 4x4\n",
            "render-pass rp0 attachment R8G8B8A8_UNORM DONT_CARE STORE UNDEFINED->TRANSFER_SRC_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency 0->EXTERNAL COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:NONE\n",
            "render-pass rp1 attachment R8G8B8A8_UNORM LOAD STORE TRANSFER_SRC_OPTIMAL->GENERAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT|FRAGMENT_SHADER:COLOR_ATTACHMENT_WRITE|SHADER_STORAGE_WRITE -> COLOR_ATTACHMENT_OUTPUT|VERTEX_SHADER|FRAGMENT_SHADER:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE|SHADER_STORAGE_READ ; dependency EXTERNAL->0 ALL_TRANSFER:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE|COLOR_ATTACHMENT_READ\n",
            "begin-render-pass rp0 col2 COLOR:0:0\n",
            "end-render-pass\n",
            "update a 5\n",
            "begin-render-pass rp1 col2 COLOR:0:0\n",
            "next-subpass\n",
            "end-render-pass\n",
            "dispatch scale_add(4,2) read b write c\n",
        );
    // review23: a render pass's transition into a later subpass's layout
    // (at its next-subpass) before a command after the instance, which no
    // subpass dependency holds: every planner recorded nothing and kept
    // the race; a barrier after the end whose first scope is ALL_COMMANDS
    // orders it.
    const NEXT_SUBPASS: &str = concat!(
        "buffer sb 256\n",
        "image col R8G8B8A8_UNORM 8x8\n",
        "render-pass rp attachment R8G8B8A8_UNORM NONE NONE UNDEFINED->SHADER_READ_ONLY_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass input 0 SHADER_READ_ONLY_OPTIMAL\n",
        "begin-render-pass rp col COLOR:0:0\n",
        "next-subpass\n",
        "end-render-pass\n",
        "dispatch k sampled-image col COLOR:0:0 SHADER_READ_ONLY_OPTIMAL write sb[0..64]\n",
    );
    const NEXT_SUBPASS_COPY: &str = concat!(
        "buffer sb 256\n",
        "image col R8G8B8A8_UNORM 8x8\n",
        "render-pass rp attachment R8G8B8A8_UNORM NONE NONE UNDEFINED->GENERAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass input 0 GENERAL\n",
        "begin-render-pass rp col COLOR:0:0\n",
        "next-subpass\n",
        "end-render-pass\n",
        "copy-image-to-buffer col GENERAL -> sb imageSubresource=COLOR:0:0 imageExtent=8,8,1\n",
    );
    // review24: a render pass's final transition before a recorded
    // barrier transition and a dynamic rendering instance; no dependency to
    // EXTERNAL names a stage, and every planner refused the hazard-free
    // program ("planning needs an ordering inside this render pass
    // instance"). A barrier after the end with an ALL_COMMANDS first scope
    // orders it.
    const FINAL_THEN_RENDERING: &str = concat!(
        "image c R8G8B8A8_UNORM 16x16\n",
        "render-pass rp attachment R8G8B8A8_UNORM DONT_CARE STORE UNDEFINED->TRANSFER_SRC_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL\n",
        "begin-render-pass rp c COLOR:0:0\n",
        "end-render-pass\n",
        "barrier ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE c COLOR:0:0 TRANSFER_SRC_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL\n",
        "begin-rendering color c COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR DONT_CARE\n",
        "end-rendering\n",
    );
    let cases: [(&str, &str, [&str; 5]); 5] = [
        (
            "review24-final-transition-then-rendering",
            FINAL_THEN_RENDERING,
            [
                "barrier ALL_COMMANDS:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE; COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE c COLOR:0:0 TRANSFER_SRC_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL\nbegin-rendering",
                "barrier ALL_COMMANDS:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE\nbegin-rendering",
                "barrier ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE -> HOST|ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE\nbarrier COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE c COLOR:0:0 TRANSFER_SRC_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL",
                "barrier ALL_COMMANDS:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE; COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE c COLOR:0:0 TRANSFER_SRC_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL\nbegin-rendering",
                "barrier ALL_COMMANDS:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE\nbegin-rendering",
            ],
        ),
        (
            "review23-next-subpass-transition-then-dispatch",
            NEXT_SUBPASS,
            [
                "barrier ALL_COMMANDS:NONE -> COMPUTE_SHADER:SHADER_SAMPLED_READ\ndispatch",
                "barrier ALL_COMMANDS:NONE -> COMPUTE_SHADER:SHADER_SAMPLED_READ\ndispatch",
                "barrier ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE -> HOST|ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE\ndispatch",
                "barrier ALL_COMMANDS:NONE -> COMPUTE_SHADER:SHADER_SAMPLED_READ\ndispatch",
                "barrier ALL_COMMANDS:NONE -> COMPUTE_SHADER:SHADER_SAMPLED_READ\ndispatch",
            ],
        ),
        (
            "review23-next-subpass-transition-then-copy",
            NEXT_SUBPASS_COPY,
            [
                "barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\ncopy-image-to-buffer",
                "barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\ncopy-image-to-buffer",
                "barrier ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE -> HOST|ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE\ncopy-image-to-buffer",
                "barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\ncopy-image-to-buffer",
                "barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\ncopy-image-to-buffer",
            ],
        ),
        (
            "online-subpass-dependency",
            SUBPASS,
            [
                "barrier COMPUTE_SHADER:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ\nbegin-render-pass rp3",
                "barrier COMPUTE_SHADER:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\nbegin-render-pass rp3",
                "barrier ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE -> HOST|ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE\nbegin-render-pass rp3",
                "barrier COMPUTE_SHADER:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ\nbegin-render-pass rp3",
                "barrier COMPUTE_SHADER:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\nbegin-render-pass rp3",
            ],
        ),
        (
            "async-compute-racy-plan",
            ASYNC,
            [
                "barrier COLOR_ATTACHMENT_OUTPUT:NONE -> ALL_TRANSFER:NONE\nbegin-render-pass rp1",
                "barrier COLOR_ATTACHMENT_OUTPUT:NONE -> COLOR_ATTACHMENT_OUTPUT|ALL_TRANSFER:COLOR_ATTACHMENT_READ\nbegin-render-pass rp1",
                "barrier ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE -> HOST|ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE\nbegin-render-pass rp1",
                "barrier COLOR_ATTACHMENT_OUTPUT:NONE -> ALL_TRANSFER:NONE\nbegin-render-pass rp1",
                "barrier COLOR_ATTACHMENT_OUTPUT:NONE -> COLOR_ATTACHMENT_OUTPUT|ALL_TRANSFER:COLOR_ATTACHMENT_READ\nbegin-render-pass rp1",
            ],
        ),
    ];
    let mut failures = Vec::new();
    for (name, text, want) in cases {
        let p = program(text);
        let mut plans: Vec<(String, Result<vksync::Program, String>)> = Vec::new();
        for k in [
            PlannerKind::Offline,
            PlannerKind::Online,
            PlannerKind::Conservative,
        ] {
            let q = plan(&p, PlanOptions::new(k)).map_err(|e| e.to_string());
            plans.push((format!("{k:?}"), q.map(|q| q.program)));
        }
        for k in [PlannerKind::Offline, PlannerKind::Online] {
            let q =
                plan_async_compute(&p, QueuePlanOptions::new(PlanOptions::new(k))).map_err(|e| e.to_string());
            plans.push((format!("async {k:?}"), q.map(|q| q.plan.program)));
        }
        for ((label, planned), want) in plans.into_iter().zip(want) {
            let planned = match planned {
                Ok(q) => q,
                Err(e) => {
                    failures.push(format!("{name} {label}: refused: {e}"));
                    continue;
                }
            };
            let printed = trace::print(&planned);
            if !printed.contains(&format!("\n{want}")) {
                failures.push(format!("{name} {label}: no `{want}` in\n{printed}"));
            }
            if let Err(e) = checks_clean(&planned) {
                failures.push(format!("{name} {label}: {e}"));
            }
            for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
                let hazards = vksync::check_program(&planned, vksync::Semantics::for_reading(reading))
                    .map(|c| c.hazards.len());
                let spec = races(&planned, reading).map(|r| r.len());
                if hazards != Ok(0) || spec != Ok(0) {
                    failures.push(format!(
                        "{name} {label} {reading:?}: {hazards:?} hazards, {spec:?} races\n{printed}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// review20 (2026-12-05): with buffer barriers, a barrier planned over an
/// image's bytes becomes a global one after planning; the parts and bits
/// it makes redundant at later points are dropped (each plan: the planned
/// barrier lines the review found minimal, race-free under both
/// checkers).
#[test]
fn buffer_barrier_plans_with_images_are_thinned_after_widening() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "a part for a buffer the global barrier already orders",
            "buffer b 256\nbuffer c 256\nimage jm R32_UINT 4x4 initial GENERAL\npool p 1024 align 256\n\
             dispatch k write c image-write jm COLOR:0:0\nalloc x3 256 from p\n\
             dispatch k write x3 image-rw jm COLOR:0:0\ndispatch k read c[128..256] write x3[0..128]\n",
            &[
                "barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ|SHADER_STORAGE_WRITE",
                "barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_WRITE p[0..128]",
            ],
        ),
        (
            "a source access the global barrier already made available",
            "buffer b 256\nbuffer c 256\nimage jm R32_UINT 4x4 initial GENERAL\ncopy c[0..64] -> c[64..128]\n\
             copy-buffer-to-image b -> jm GENERAL imageSubresource=COLOR:0:0 imageExtent=4,4,1\n\
             copy-buffer-to-image c -> jm GENERAL imageSubresource=COLOR:0:0 imageExtent=4,4,1\ndispatch k write c\n",
            &[
                "barrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_WRITE",
                "barrier COPY:NONE -> COMPUTE_SHADER:SHADER_STORAGE_WRITE c[64..128]",
            ],
        ),
    ];
    for (name, text, want) in cases {
        let p = program(text);
        let opts = PlanOptions::new(PlannerKind::Offline).form(BarrierForm::Buffer);
        let planned = plan(&p, opts).unwrap_or_else(|e| panic!("{name}: {e}")).program;
        let printed = trace::print(&planned);
        let got: Vec<&str> = printed.lines().filter(|l| l.starts_with("barrier")).collect();
        assert_eq!(&got, want, "{name}:\n{printed}");
        checks_clean(&planned).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            races(&planned, Reading::MemoryModel).expect("valid").is_empty(),
            "{name}: races under the definitional semantics"
        );
    }
}

/// No planner inserts a barrier thinned down to no bit (review42: the
/// online planner with buffer barriers printed `barrier NONE:NONE ->
/// NONE:NONE out[5120..5632]` after widening image regions and thinning,
/// and counted it as a barrier point); every plan checks clean.
#[test]
fn no_plan_keeps_an_empty_barrier() {
    let text = "buffer stg 8192
buffer out 8192
image im0 R32_UINT 16x16
barrier NONE:NONE -> NONE:NONE im0 COLOR:0..:0.. UNDEFINED->SHADER_READ_ONLY_OPTIMAL
dispatch s sampled-image im0 COLOR:0:0.. SHADER_READ_ONLY_OPTIMAL write out[5120..5632]
barrier NONE:NONE -> NONE:NONE im0 COLOR:0:0 SHADER_READ_ONLY_OPTIMAL->GENERAL
dispatch k image-rw im0 COLOR:0:0.. read stg[0..256]
dispatch k image-write im0 COLOR:0:0..
barrier NONE:NONE -> NONE:NONE im0 COLOR:0..:0.. UNDEFINED->GENERAL
dispatch s sampled-image im0 COLOR:0:0.. GENERAL write out[5120..5632]
";
    let p = program(text);
    for planner in [
        PlannerKind::Offline,
        PlannerKind::Online,
        PlannerKind::Conservative,
    ] {
        for form in [BarrierForm::Global, BarrierForm::Buffer] {
            let planned = plan(&p, PlanOptions::new(planner).form(form)).unwrap().program;
            let empty = planned.commands().iter().any(|c| {
                matches!(c, vksync::Command::Barrier(d) if d.barriers.iter().all(|b| b.bit_count() == 0 && !b.transition))
            });
            assert!(!empty, "{planner:?} {form:?}\n{}", trace::print(&planned));
            checks_clean(&planned).unwrap_or_else(|e| panic!("{planner:?} {form:?}: {e}"));
        }
    }
}
