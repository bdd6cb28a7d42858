//! Split barriers (`vksync::plan::split_barriers`): which offline barrier
//! points become a `set-event`/`wait-events` pair. Each case is a
//! barrier-free trace after buffers `a`..`d`; the expectation is the plan's
//! command lines after splitting. Every result must check hazard-free with
//! the fast checker and the definitional semantics.

use vksync::plan::{plan, split_barriers, PlanOptions, PlannerKind, SplitKept};
use vksync::spec::{races, Reading};
use vksync::{check, trace};

const HEADER: &str = "buffer a 256\nbuffer b 256\nbuffer c 256\nbuffer d 256\n";

#[test]
fn points_split_where_independent_work_lies_between() {
    // (name, body, points split, points kept as (adjacent, across a batch,
    // transition, would race, HOST in a stage mask), the plan's lines)
    type Kept = (usize, usize, usize, usize, usize);
    let cases: &[(&str, &str, usize, Kept, &[&str])] = &[
        (
            "an independent fill between producer and consumer",
            "fill a 1\nfill c 2\ncopy a -> b\n",
            1,
            (0, 0, 0, 0, 0),
            &[
                "fill a[0..256] 1",
                "set-event split0 CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ",
                "fill c[0..256] 2",
                "wait-events split0 CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ",
                "copy a[0..256] -> b[0..256]",
            ],
        ),
        (
            "producer right before the consumer: nothing to overlap",
            "fill a 1\ncopy a -> b\n",
            0,
            (1, 0, 0, 0, 0),
            &[
                "fill a[0..256] 1",
                "barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ",
                "copy a[0..256] -> b[0..256]",
            ],
        ),
        (
            "a submit between: the pair would span batches",
            "fill a 1\nsubmit\nfill c 2\ncopy a -> b\n",
            0,
            (0, 1, 0, 0, 0),
            &[
                "fill a[0..256] 1",
                "submit",
                "fill c[0..256] 2",
                "barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ",
                "copy a[0..256] -> b[0..256]",
            ],
        ),
        (
            "no hazard: nothing to split",
            "fill a 1\nfill b 2\n",
            0,
            (0, 0, 0, 0, 0),
            &["fill a[0..256] 1", "fill b[0..256] 2"],
        ),
        (
            // An event's stage masks may not hold HOST
            // (VUID-vkCmdSetEvent2-srcStageMask-09391, -dstStageMask-09392).
            "a point with a HOST destination stays a barrier",
            "dispatch k write a\ndispatch k write c\ndispatch k write d\ndispatch k read c write b\nsubmit\nwait\nhost-read a\n",
            0,
            (0, 0, 0, 0, 1),
            &[
                "dispatch k write a[0..256]",
                "dispatch k write c[0..256]",
                "dispatch k write d[0..256]",
                "barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER|HOST:SHADER_STORAGE_READ|HOST_READ",
                "dispatch k read c[0..256] write b[0..256]",
                "submit",
                "wait",
                "host-read a[0..256]",
            ],
        ),
        (
            // review36: the set went right after the draw, inside the
            // instance (VUID-vkCmdSetEvent2-renderpass), and the whole plan
            // was refused; it goes after the instance's end.
            "a producer inside a rendering instance: the set after its end",
            "image color R8G8B8A8_UNORM 4x4 initial GENERAL\nbegin-rendering color color COLOR:0:0 GENERAL DONT_CARE \
             DONT_CARE\ndraw vertexCount=3 fs write a\nend-rendering\nfill c 1\ndispatch k read a write b\n",
            1,
            (0, 0, 0, 0, 0),
            &[
                "image color R8G8B8A8_UNORM 4x4 initial GENERAL",
                "begin-rendering color color COLOR:0:0 GENERAL DONT_CARE DONT_CARE",
                "draw vertexCount=3 instanceCount=1 firstVertex=0 firstInstance=0 fs write a[0..256]",
                "end-rendering",
                "set-event split0 FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ",
                "fill c[0..256] 1",
                "wait-events split0 FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ",
                "dispatch k read a[0..256] write b[0..256]",
            ],
        ),
        (
            "a producer in a render pass ended right before the consumer: nothing to overlap",
            "image color R8G8B8A8_UNORM 4x4\nrender-pass rp attachment R8G8B8A8_UNORM DONT_CARE DONT_CARE \
             UNDEFINED->GENERAL ; subpass color 0 GENERAL\nbegin-render-pass rp color COLOR:0:0\ndraw vertexCount=3 \
             fs write a\nend-render-pass\ndispatch k read a write b\n",
            0,
            (1, 0, 0, 0, 0),
            &[
                "render-pass rp attachment R8G8B8A8_UNORM DONT_CARE DONT_CARE UNDEFINED->GENERAL ; subpass color 0 GENERAL",
                "image color R8G8B8A8_UNORM 4x4",
                "begin-render-pass rp color COLOR:0:0",
                "draw vertexCount=3 instanceCount=1 firstVertex=0 firstInstance=0 fs write a[0..256]",
                "end-render-pass",
                "barrier FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ",
                "dispatch k read a[0..256] write b[0..256]",
            ],
        ),
    ];
    for &(name, body, splits, kept, expected) in cases {
        let t = trace::parse(&format!("{HEADER}{body}")).unwrap_or_else(|e| panic!("{name}: {e}"));
        let p = plan(&t.program, PlanOptions::new(PlannerKind::Offline)).unwrap();
        let s = split_barriers(&p, Reading::VisibleToWrites).unwrap();
        let text = trace::print(&s.plan.program);
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with("buffer ") && !l.starts_with("event "))
            .collect();
        assert_eq!(lines, expected, "case `{name}`:\n{text}");
        assert_eq!(s.split, splits, "case `{name}`");
        let (adjacent, across_batch, transition, would_race, host) = kept;
        let want = SplitKept {
            adjacent,
            across_batch,
            transition,
            would_race,
            host,
        };
        assert_eq!(s.kept, want, "case `{name}`");
        assert_eq!(
            s.split + s.kept.total(),
            p.program.barrier_points(),
            "case `{name}`: every point split or kept for a reason"
        );
        assert!(
            check(&s.plan.program).unwrap().is_empty(),
            "case `{name}`:\n{text}"
        );
        for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
            assert!(
                races(&s.plan.program, reading).unwrap().is_empty(),
                "case `{name}`:\n{text}"
            );
        }
        assert_eq!(
            s.plan.origin.len(),
            s.plan.program.commands().len(),
            "case `{name}`"
        );
    }
}
