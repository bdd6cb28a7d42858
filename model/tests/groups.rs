//! Reports grouped per later access and kind (`vksync::check_report`,
//! `vksync::group_races`): one case per grouping rule, each a small trace
//! or a generated one, through one helper per checker. A group is written
//! `L<line> <KIND> <region> after L<nearest>[,L<next>...] +<more> from
//! L<earliest>; fix: <fix>`.

use vksync::spec::{races, Reading};
use vksync::{check, check_report, group_races, trace, Semantics};

/// The fast checker's groups of `text`, one string each, checked against
/// the pairs `vksync::check` finds: every pair lies in exactly one group.
fn groups(text: &str) -> Vec<String> {
    let t = trace::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let p = &t.program;
    let line = |i: usize| t.command_lines[i];
    let got = check_report(p, Semantics::default()).unwrap();
    let pairs = check(p).unwrap();
    let counted: usize = got.iter().map(|g| 1 + g.also.len() + g.more).sum();
    let distinct: std::collections::BTreeSet<_> = pairs
        .iter()
        .map(|h| {
            (
                h.command,
                h.kind,
                h.current,
                h.memory.mem,
                h.prior_command,
                h.prior,
            )
        })
        .collect();
    assert_eq!(
        counted,
        distinct.len(),
        "every earlier access counted once:\n{text}"
    );
    got.iter()
        .map(|g| {
            let h = &g.hazard;
            let also: String = g.also.iter().map(|e| format!(",L{}", line(e.command))).collect();
            format!(
                "L{} {} {} after L{}{also} +{} from L{}; fix: {}",
                line(h.command),
                h.kind,
                p.show_region(h.region),
                line(h.prior_command),
                g.more,
                line(g.earliest_prior),
                h.fix.describe(p)
            )
        })
        .collect()
}

/// The definitional semantics' races of `text`, grouped, one string each:
/// `L<line> <KIND> after L<nearest> +<more> from L<earliest> priors <stage:access,...>`.
fn race_groups(text: &str) -> Vec<String> {
    let t = trace::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let p = &t.program;
    let line = |i: usize| t.command_lines[i];
    let rs = races(p, Reading::MemoryModel).unwrap();
    group_races(p, &rs)
        .iter()
        .map(|g| {
            let priors: Vec<String> = g.priors.iter().map(|sa| sa.to_string()).collect();
            format!(
                "L{} {} after L{} +{} from L{} priors {}",
                line(g.race.command),
                g.race.kind,
                line(g.race.prior_command),
                g.also.len() + g.more,
                line(g.earliest_prior),
                priors.join(",")
            )
        })
        .collect()
}

#[test]
fn one_line_per_later_access_and_kind_naming_the_nearest() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "one earlier access: the pair itself",
            "buffer a 256\nbuffer b 256\nfill a[0..64] 1\ncopy a[0..64] -> b[0..64]",
            &["L4 READ_AFTER_WRITE a[0..64] after L3 +0 from L3; fix: barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64]"],
        ),
        (
            "two writers of different stages: both named, one fix with both",
            "buffer a 256\nbuffer b 256\nfill a[0..64] 1\ndispatch scale_add(2,1) read b[0..64] write a[64..128]\ncopy a[0..128] -> b[128..256]",
            &[
                "L5 READ_AFTER_WRITE a[0..128] after L4,L3 +0 from L3; fix: barrier COMPUTE_SHADER|CLEAR:SHADER_STORAGE_WRITE|TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..128]",
            ],
        ),
        (
            "kinds apart: a write after reads and after a write",
            "buffer a 256\nbuffer b 256\nfill a[0..64] 1\ncopy a[0..64] -> b[0..64]\ncopy a[0..64] -> b[64..128]\nfill a[0..64] 2",
            &[
                "L4 READ_AFTER_WRITE a[0..64] after L3 +0 from L3; fix: barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64]",
                "L5 READ_AFTER_WRITE a[0..64] after L3 +0 from L3; fix: barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64]",
                // The newer read of the same stage stands for the older.
                "L6 WRITE_AFTER_READ a[0..64] after L5 +0 from L5; fix: barrier COPY:NONE -> CLEAR:NONE a[0..64]",
                "L6 WRITE_AFTER_WRITE a[0..64] after L3 +0 from L3; fix: barrier CLEAR:TRANSFER_WRITE -> CLEAR:NONE a[0..64]",
            ],
        ),
        (
            "a write after reads of two stages: both named, one execution dependency",
            "buffer a 256\nbuffer b 256\ncopy a[0..64] -> b[0..64]\ndispatch scale_add(2,1) read a[0..64] write b[64..128]\nfill a[0..64] 2",
            &[
                "L5 WRITE_AFTER_READ a[0..64] after L4,L3 +0 from L3; fix: barrier COMPUTE_SHADER|COPY:NONE -> CLEAR:NONE a[0..64]",
            ],
        ),
    ];
    for (name, text, expected) in cases {
        assert_eq!(groups(text), *expected, "case `{name}`:\n{text}");
    }
}

#[test]
fn a_read_of_a_thousand_unordered_writes_is_one_line() {
    let n = 1000;
    let mut text = format!("buffer a {}\nbuffer b {}\n", 64 * n, 64 * n);
    for i in 0..n {
        text += &format!("fill a[{}..{}] 1\n", 64 * i, 64 * i + 64);
    }
    text += &format!("copy a[0..{}] -> b[0..{}]\n", 64 * n, 64 * n);
    assert_eq!(
        groups(&text),
        [
            "L1003 READ_AFTER_WRITE a[0..64000] after L1002,L1001,L1000 +997 from L3; \
             fix: barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..64000]"
        ]
    );
}

/// N writes of distinct pieces, then N reads of the whole: N² racing pairs,
/// N lines.
#[test]
fn a_quadratic_number_of_pairs_gives_a_linear_report() {
    let n = 300;
    let mut text = format!("buffer a {}\nbuffer b {}\n", 64 * n, 64 * n);
    for i in 0..n {
        text += &format!("fill a[{}..{}] 1\n", 64 * i, 64 * i + 64);
    }
    for _ in 0..n {
        text += &format!("copy a[0..{}] -> b[0..{}]\n", 64 * n, 64 * n);
    }
    let t = trace::parse(&text).unwrap();
    let got = check_report(&t.program, Semantics::default()).unwrap();
    let reads = got
        .iter()
        .filter(|g| g.hazard.kind == vksync::HazardKind::ReadAfterWrite);
    // Each copy: one read-after-write line standing for the n fills.
    assert_eq!(reads.clone().count(), n);
    assert!(reads.clone().all(|g| 1 + g.also.len() + g.more == n));
    // And each copy's write after the copies before it: one line per copy
    // after the first.
    assert_eq!(got.len(), n + (n - 1));
}

#[test]
fn races_are_grouped_per_queue_of_the_earlier_accesses() {
    let queues = "queue qa\nqueue qb\nbuffer a 256\nbuffer b 256\n";
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "two unordered writers on one other queue: one line",
            "fill a[0..64] 1\ndispatch scale_add(2,1) read b[0..64] write a[64..128]\nsubmit qa\ncopy a[0..128] -> b[128..256]\nsubmit qb",
            &[
                "L8 READ_AFTER_WRITE after L6 +1 from L5 priors CLEAR:TRANSFER_WRITE,COMPUTE_SHADER:SHADER_STORAGE_WRITE",
            ],
        ),
        (
            "writers on two queues: a line each (the fixes differ)",
            "fill a[0..64] 1\nsubmit qa\nfill a[64..128] 2\nsubmit qb\ncopy a[0..128] -> b[128..256]\nsubmit qb",
            &[
                "L9 READ_AFTER_WRITE after L5 +0 from L5 priors CLEAR:TRANSFER_WRITE",
                "L9 READ_AFTER_WRITE after L7 +0 from L7 priors CLEAR:TRANSFER_WRITE",
            ],
        ),
    ];
    for (name, body, expected) in cases {
        let text = format!("{queues}{body}");
        assert_eq!(race_groups(&text), *expected, "case `{name}`:\n{text}");
    }
}
