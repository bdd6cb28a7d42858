//! The trace parser is linear in the length of a line: lines of two million
//! tokens parse (or fail, with the right column) in well under a second,
//! and doubling a line about doubles the time. The parser used to recompute
//! each token's column from the start of its line, so a line of 300,000
//! tokens took about ten seconds.
//!
//! One test runs the cases one after another, so that their timings do not
//! compete with each other for cores.

use std::time::{Duration, Instant};
use vksync::trace::{self, ParseError, Trace};

/// A time no linear parse of these lines comes near (about 0.2 s for the
/// largest at the test profile's opt-level 1) and no quadratic one stays
/// under (minutes).
const BOUND: Duration = Duration::from_secs(1);

/// A check of a parse's outcome.
type Expect = Box<dyn Fn(Result<Trace, ParseError>)>;

/// The fastest of up to three parses of `text` (more only while over the
/// bound, so one slow run on a busy machine does not fail the test); checks
/// the outcome of each with `expect`.
fn fastest(text: &str, expect: &dyn Fn(Result<Trace, ParseError>)) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        let outcome = trace::parse(text);
        best = best.min(start.elapsed());
        expect(outcome);
        if best < BOUND {
            break;
        }
    }
    best
}

/// A `barrier` line of `n` barriers of five tokens each (`;` included).
fn barrier_line(n: usize) -> String {
    let mut s = String::from("buffer b 256\nbarrier");
    for _ in 0..n {
        s.push_str(" COPY:NONE -> CLEAR:NONE b[0..4] ;");
    }
    s.pop();
    s
}

fn expect_barriers(n: usize) -> impl Fn(Result<Trace, ParseError>) {
    move |outcome| match outcome.as_ref().map(|t| t.program.commands()) {
        Ok([vksync::Command::Barrier(dep)]) => assert_eq!(dep.barriers.len(), n),
        _ => panic!("expected one barrier command, got {:?}", outcome.map(|_| ())),
    }
}

fn expect_error(expected: String) -> impl Fn(Result<Trace, ParseError>) {
    move |outcome| {
        assert_eq!(
            outcome.map(|_| ()).map_err(|e| e.to_string()),
            Err(expected.clone())
        )
    }
}

#[test]
fn two_million_token_lines_parse_in_linear_time() {
    const TOKENS: usize = 2_000_000;
    // (what, the text, the expected outcome)
    let mut cases: Vec<(&str, String, Expect)> = Vec::new();

    cases.push((
        "barrier line of 400,000 barriers",
        barrier_line(TOKENS / 5),
        Box::new(expect_barriers(TOKENS / 5)),
    ));

    let mut flags = String::from("barrier COPY");
    for _ in 1..TOKENS {
        flags.push_str("|CLEAR");
    }
    flags.push_str(":NONE -> COPY:NONE");
    cases.push((
        "one token of 2,000,000 stage flags",
        flags,
        Box::new(expect_barriers(1)),
    ));

    let mut dispatch = String::from("buffer b 16\ndispatch k");
    for _ in 0..TOKENS / 2 {
        dispatch.push_str(" read b");
    }
    cases.push((
        "dispatch of 1,000,000 bindings",
        dispatch,
        Box::new(|outcome: Result<Trace, ParseError>| {
            assert!(outcome.is_ok(), "{:?}", outcome.map(|_| ()));
        }),
    ));

    // Failures: the error is found at the far end of the line, at the
    // right column.
    let mut bad_flag = barrier_line(TOKENS / 5);
    bad_flag.push_str("; COPY:NONE -> CLEAR:NOPE");
    let col = bad_flag.len() - bad_flag.rfind('\n').unwrap_or(0) - "NOPE".len();
    cases.push((
        "barrier line whose last flag is unknown",
        bad_flag,
        Box::new(expect_error(format!("2:{col}: unknown access flag `NOPE`"))),
    ));

    let mut bad_char = "x ".repeat(TOKENS);
    let col = bad_char.len() + 1;
    bad_char.push('\u{a0}');
    cases.push((
        "2,000,000 garbage tokens, then a no-break space",
        bad_char,
        Box::new(expect_error(format!(
            "1:{col}: non-ASCII space U+00A0 outside a comment: separate tokens with spaces or tabs"
        ))),
    ));

    let mut garbage = String::from("submit");
    for i in 0..TOKENS {
        garbage.push_str(if i % 2 == 0 { " @!" } else { " ?" });
    }
    cases.push((
        "submit and 2,000,000 garbage tokens",
        garbage,
        Box::new(expect_error(
            "1:8: unexpected `@!`: this trace declares no queue, so `submit` and `wait` name none (they mean its one implicit queue); to name it, declare it: `queue NAME`".to_string(),
        )),
    ));

    for (name, text, expect) in &cases {
        let took = fastest(text, expect.as_ref());
        println!("{name}: {} bytes in {:.3} s", text.len(), took.as_secs_f64());
        assert!(took < BOUND, "{name}: {took:?}");
    }

    // Scaling: an eighth of the line takes about an eighth of the time (a
    // quadratic parser: a sixty-fourth). The ratio allows three times
    // linear, for noise on a shared machine.
    let small = barrier_line(TOKENS / 5 / 8);
    let large = barrier_line(TOKENS / 5);
    let t_small = fastest(&small, &expect_barriers(TOKENS / 5 / 8));
    let t_large = fastest(&large, &expect_barriers(TOKENS / 5));
    let ratio = t_large.as_secs_f64() / t_small.as_secs_f64().max(1e-6);
    println!(
        "scaling: {} tokens in {:.4} s, {} tokens in {:.4} s: {ratio:.1}x for 8x the tokens",
        TOKENS / 8,
        t_small.as_secs_f64(),
        TOKENS,
        t_large.as_secs_f64()
    );
    assert!(ratio < 24.0, "8x the tokens took {ratio:.1}x the time");
}
