//! `vksync check --svg OUT` (one lane per queue and one for the host) and
//! what `--svg` keeps for `plan`: each case runs the built binary from the
//! workspace root, like `cli.rs`, and checks the picture it wrote.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The trace with two queues, a semaphore, an event and an ownership
/// transfer that the snapshot and docs/cli.md draw.
const QUEUES: &str = "cli/tests/traces/queues-event-ownership.trace";

/// Runs `vksync ARGS` with `stdin`: exit status, stdout, stderr.
fn vksync(args: &[&str], stdin: &str) -> (i32, String, String) {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_vksync"))
        .args(args)
        // No `layer:` notes (they follow the installed validation layer
        // and are not drawn): the hazards on stdout are vksync's.
        .env("VKSYNC_VALIDATION", "0")
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn vksync");
    // A command refused on its arguments may exit before reading stdin.
    match child.stdin.take().expect("stdin").write_all(stdin.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.expect("write stdin"),
    }
    let out = child.wait_with_output().expect("wait for vksync");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

/// A fresh path for a picture (not created).
fn out_path(tag: &str) -> PathBuf {
    // One file per call: the tests run in parallel threads of one
    // process, and two drawing the same trace shared a path (one removed
    // the picture the other was about to read: a flaky "no picture").
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("vksync-cli-svg-queues-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{tag}-{n}.svg"));
    let _ = std::fs::remove_file(&path);
    path
}

/// The picture is XML-ish: every tag closed in order, one `<svg>` root,
/// no bare `&`. Returns why not.
fn well_formed(svg: &str) -> Result<(), String> {
    if !svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") {
        return Err("does not start with the <svg> root".into());
    }
    let mut open: Vec<&str> = Vec::new();
    let mut roots = 0;
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let text = &rest[..start];
        for (i, _) in text.match_indices('&') {
            let entity = &text[i..];
            if !["&amp;", "&lt;", "&gt;", "&quot;"]
                .iter()
                .any(|e| entity.starts_with(e))
            {
                return Err(format!("bare `&` in {:?}", &text[i..text.len().min(i + 20)]));
            }
        }
        let Some(len) = rest[start..].find('>') else {
            return Err("a `<` never closed by `>`".into());
        };
        let tag = &rest[start + 1..start + len];
        rest = &rest[start + len + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            match open.pop() {
                Some(o) if o == name.trim() => {}
                o => return Err(format!("</{name}> closes {o:?}")),
            }
        } else if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().unwrap_or("");
            if name.is_empty() || name.contains('<') {
                return Err(format!("malformed tag <{tag}>"));
            }
            if open.is_empty() {
                roots += 1;
            }
            open.push(name);
        } else if open.is_empty() {
            roots += 1;
        }
    }
    match (open.as_slice(), roots, rest.trim()) {
        ([], 1, "") => Ok(()),
        ([], 1, tail) => Err(format!("text after the root: {tail:?}")),
        ([], n, _) => Err(format!("{n} roots")),
        (unclosed, _, _) => Err(format!("unclosed: {unclosed:?}")),
    }
}

/// The checker of well-formedness itself: it must catch what it is for.
#[test]
fn well_formed_catches_unbalanced_tags() {
    let head = "<svg xmlns=\"http://www.w3.org/2000/svg\">";
    let cases: &[(&str, bool)] = &[
        ("<g><rect/><text>a &amp; b &lt; c</text></g></svg>\n", true),
        ("<g><text>x</g></text></svg>", false),
        ("<g></svg>", false),
        ("<text>a & b</text></svg>", false),
        ("<text>x</text>", false),
        ("</svg><svg></svg>", false),
        ("<rect/></svg>trailing", false),
    ];
    for (body, ok) in cases {
        let svg = format!("{head}{body}");
        assert_eq!(well_formed(&svg).is_ok(), *ok, "{svg}: {:?}", well_formed(&svg));
    }
}

/// The queue names a trace declares (`queue NAME [family N]`), or the
/// implicit queue's.
fn queues_of(trace: &str) -> Vec<String> {
    let names: Vec<String> = trace
        .lines()
        .filter_map(|l| l.split('#').next()?.trim().strip_prefix("queue "))
        .filter_map(|rest| rest.split_whitespace().next().map(str::to_string))
        .collect();
    if names.is_empty() {
        vec!["queue".to_string()]
    } else {
        names
    }
}

/// `check --svg` on a trace (with more `check` arguments): the same
/// stdout, stderr and status as plain `check` (the picture adds nothing to
/// either), and a well-formed picture with the host's lane and one lane
/// per queue. Returns the picture.
fn check_drawn(trace: &str, extra: &[&str]) -> String {
    let text = std::fs::read_to_string(root().join(trace)).expect("read trace");
    let out = out_path(&format!("{}{}", trace.replace('/', "_"), extra.join("_")));
    let mut args = vec!["check", trace];
    args.extend_from_slice(extra);
    let plain = vksync(&args, "");
    args.extend(["--svg", out.to_str().expect("utf-8 path")]);
    let drawn = vksync(&args, "");
    assert_eq!(drawn, plain, "{trace}: --svg changed what check prints");
    assert!(matches!(plain.0, 0 | 1), "{trace}: {}", plain.2);
    let svg = std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("{trace}: no picture: {e}"));
    if let Err(why) = well_formed(&svg) {
        panic!("{trace}: {why}");
    }
    let queues = queues_of(&text);
    assert_eq!(
        svg.matches(r#"<g class="lane""#).count(),
        queues.len() + 1,
        "{trace}: lanes"
    );
    assert!(svg.contains(r#"id="lane-host""#), "{trace}: host lane");
    for q in &queues {
        assert_eq!(
            svg.matches(&format!(r#"id="lane-queue-{q}""#)).count(),
            1,
            "{trace}: lane of queue {q}"
        );
    }
    // One outlined hazard label per hazard check reported (its ownership
    // lines, which are no pair of accesses, are not drawn).
    let hazards = plain.1.lines().filter(|l| l.contains(": SYNC-HAZARD-")).count();
    for n in 1..=hazards {
        assert!(svg.contains(&format!(">H{n} ")), "{trace}: hazard H{n} not drawn");
    }
    assert!(
        !svg.contains(&format!(">H{} ", hazards + 1)),
        "{trace}: extra hazard"
    );
    // Every region is named by its buffer, never as `memory N[...]` (an
    // ownership transfer's hazard used to be).
    assert!(
        !svg.match_indices("memory ")
            .any(|(i, m)| svg[i + m.len()..].starts_with(|c: char| c.is_ascii_digit())),
        "{trace}: a region named by its memory's number"
    );
    let overlaps = arrow_label_overlaps(&svg);
    assert!(
        overlaps.is_empty(),
        "{trace}: arrow labels cover other text: {overlaps:?}"
    );
    svg
}

/// The labels of arrows (hazards, semaphores, events, ownership
/// transfers: the texts drawn with a white outline) that cover another
/// text of the picture, each as `label / other`. Boxes are estimated from
/// the font size (0.55 em a character, the label's font size tall); a
/// text turned by `rotate(90 X Y)` runs down from (X, Y).
fn arrow_label_overlaps(svg: &str) -> Vec<String> {
    let attr = |tag: &str, name: &str| -> Option<String> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(tag[at..].split('"').next()?.to_string())
    };
    let mut boxes = Vec::new();
    for piece in svg.split("<text").skip(1) {
        let Some((tag, rest)) = piece.split_once('>') else {
            continue;
        };
        let body: String = rest
            .split("</text>")
            .next()
            .unwrap_or("")
            .split('<')
            .next()
            .unwrap_or("")
            .to_string();
        let num = |n: &str| attr(tag, n).and_then(|v| v.parse::<f64>().ok());
        let (Some(x), Some(y)) = (num("x"), num("y")) else {
            continue;
        };
        let size = num("font-size").unwrap_or(12.0);
        let w = body.chars().count() as f64 * size * 0.55;
        let rect = if tag.contains("rotate(90") {
            [x, y, x + size, y + w]
        } else {
            let x0 = match attr(tag, "text-anchor").as_deref() {
                Some("middle") => x - w / 2.0,
                Some("end") => x - w,
                _ => x,
            };
            [x0, y - size * 0.8, x0 + w, y + size * 0.2]
        };
        boxes.push((rect, tag.contains("paint-order=\"stroke\""), body));
    }
    let mut out = Vec::new();
    for (i, (a, arrow, text)) in boxes.iter().enumerate() {
        if !arrow {
            continue;
        }
        for (j, (b, _, other)) in boxes.iter().enumerate() {
            if i != j && a[0] < b[2] - 1.0 && b[0] < a[2] - 1.0 && a[1] < b[3] - 1.0 && b[1] < a[3] - 1.0 {
                out.push(format!("{text} / {other}"));
            }
        }
    }
    out
}

/// Every example and the multi-queue test trace draw.
#[test]
fn check_svg_draws_every_trace() {
    let mut traces: Vec<String> = std::fs::read_dir(root().join("examples"))
        .expect("examples/")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.ends_with(".trace").then(|| format!("examples/{name}"))
        })
        .collect();
    traces.sort();
    traces.extend([QUEUES.to_string(), TIMELINE.to_string()]);
    assert!(traces.len() > 10, "{traces:?}");
    for t in &traces {
        check_drawn(t, &[]);
    }
}

/// Host-side synchronization: timeline semaphores (one wait satisfied by
/// the initial value, one before the host's signal), a binary semaphore
/// between queues, a host-set event, a host wait.
const TIMELINE: &str = "cli/tests/traces/timeline-host.trace";

/// A trace, more `check` arguments, and how many times each piece of SVG
/// occurs in its picture.
type Shows<'a> = (&'a str, &'a [&'a str], &'a [(&'a str, usize)]);

/// What each picture shows.
#[test]
fn check_svg_draws_the_synchronization() {
    let cases: &[Shows] = &[
        (
            QUEUES,
            &[],
            &[
                // One arrow per pairing: the semaphore, the event, the
                // ownership transfer; and the two hazards.
                ("marker-end=\"url(#arrow-semaphore)\"", 1),
                ("marker-end=\"url(#arrow-event)\"", 1),
                ("marker-end=\"url(#arrow-ownership)\"", 1),
                ("marker-end=\"url(#arrow-hazard)\"", 2),
                // Labels: the semaphore's name, the event's, the bytes
                // transferred, and the two ends of the transfer.
                (">uploaded</text>", 1),
                (">act-ready</text>", 1),
                (">weights[0..256] 1→0</text>", 1),
                (">release</text>", 1),
                (">acquire</text>", 1),
                // Batches: the transfer upload and the compute work.
                (">batch 1</text>", 1),
                (">batch 2</text>", 1),
                (">batch 3", 0),
                // The fill between the set and the wait takes part in both
                // hazards.
                (">H1 H2</text>", 1),
            ],
        ),
        (
            TIMELINE,
            &[],
            &[
                // t:3 from the host, s between the queues, done:1 to the
                // host; t:1 is the initial value's, so no arrow.
                ("marker-end=\"url(#arrow-semaphore)\"", 3),
                (">t:3</text>", 1),
                (">s</text>", 1),
                (">done:1</text>", 1),
                (">t:1</text>", 0),
                ("initial value → waited for at line 15 (on a, COPY)", 1),
                ("marker-end=\"url(#arrow-event)\"", 1),
                ("set at line 19 (the host) → waited for at line 20 (a)", 1),
                ("marker-end=\"url(#arrow-hazard)\"", 0),
                ("marker-end=\"url(#arrow-ownership)\"", 0),
                // Three submits, the first with no command.
                (">batch 3</text>", 1),
            ],
        ),
        // A render pass instance: its band, its second subpass, an arc
        // for each dependency between two subpasses or to EXTERNAL, and
        // the declaration's line in the legend.
        (
            "examples/render-pass-input-attachment.trace",
            &[],
            &[
                (r#"<g class="render-span"><title>render pass rp (lines 10 to 14)</title>"#, 1),
                (">render pass rp</text>", 1),
                (">subpass 1</text>", 1),
                (">subpass 2</text>", 0),
                ("marker-end=\"url(#arrow-subpass)\"", 2),
                (
                    "<title>rp: 0-&gt;1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -&gt; FRAGMENT_SHADER:SHADER_SAMPLED_READ by-region</title>",
                    1,
                ),
                ("<title>rp: 1-&gt;EXTERNAL COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -&gt; COPY:TRANSFER_READ</title>", 1),
                ("render pass, 2 subpasses: 0-&gt;1 ", 1),
                (">rendering instance, subpass dependency</text>", 1),
            ],
        ),
        // A dynamic rendering instance: a band, no arc.
        (
            "examples/draw-rects.trace",
            &[],
            &[
                (r#"<g class="render-span"><title>rendering (lines"#, 1),
                ("marker-end=\"url(#arrow-subpass)\"", 0),
            ],
        ),
        // No rendering: no band, no chip.
        (QUEUES, &[], &[(r#"class="render-span""#, 0), (">rendering instance, subpass dependency</text>", 0)]),
        // The reading `check` is given is the picture's: the ncnn report
        // has one hazard under the memory model, three when the earlier
        // write must be visible to later writes.
        (
            "examples/ncnn-batch-scale.trace",
            &[],
            &[("marker-end=\"url(#arrow-hazard)\"", 1)],
        ),
        (
            "examples/ncnn-batch-scale.trace",
            &["--reading", "visible-to-writes"],
            &[("marker-end=\"url(#arrow-hazard)\"", 3), (">H3 WAW</text>", 1)],
        ),
    ];
    for (trace, extra, expected) in cases {
        let svg = check_drawn(trace, extra);
        for (needle, count) in *expected {
            assert_eq!(svg.matches(needle).count(), *count, "{trace}: {needle}");
        }
    }
}

/// The multi-queue picture as a reviewed snapshot, and the copy that
/// docs/cli.md shows.
#[test]
fn check_svg_snapshot() {
    let svg = check_drawn(QUEUES, &[]);
    // docs/cli.md shows this picture: it must not fall behind.
    let docs = std::fs::read_to_string(root().join("docs/check-queues.svg")).expect("docs/check-queues.svg");
    assert!(
        docs == svg,
        "docs/check-queues.svg is stale: vksync check {QUEUES} --svg docs/check-queues.svg"
    );
    insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false, omit_expression => true}, {
        insta::assert_snapshot!("svg__queues-event-ownership", svg);
    });
}

/// Refusals: nothing printed, no picture written, exit status 2.
#[test]
fn svg_refusals() {
    let many = format!("buffer b 64\n{}", "fill b 1\n".repeat(2001));
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["check", "-"],
            &many,
            "<stdin>: error: the timeline would have 2001 columns (commands of the trace), over the limit of 2000 that `--svg` draws (docs/cli.md); draw an excerpt of the trace\n",
        ),
        // `plan --svg` draws single-queue plans only (`check --svg` draws
        // any trace).
        (
            &["plan", "examples/two-queues.trace"],
            "",
            "examples/two-queues.trace: error: --svg is not available with a plan across several queues\n",
        ),
    ];
    for (n, (args, stdin, err)) in cases.iter().enumerate() {
        let out = out_path(&format!("refused-{n}"));
        let mut args = args.to_vec();
        args.extend(["--svg", out.to_str().expect("utf-8 path")]);
        assert_eq!(
            vksync(&args, stdin),
            (2, String::new(), err.to_string()),
            "{args:?}"
        );
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}
