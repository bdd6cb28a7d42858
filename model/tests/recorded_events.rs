//! `vksync::plan::recorded_barriers` judges a split barrier as the barrier
//! the application wrote it as: each `wait-events` (where its dependency
//! takes effect) is judged like a pipeline barrier, by the hazards that
//! removing it alone brings back. One case per situation: the split
//! barrier needed, redundant beside a pipeline barrier, the pipeline
//! barrier redundant beside it, and the synchronization-1 form.

use vksync::plan::recorded_barriers;
use vksync::{trace, Reading};

const HEADER: &str = "buffer a 256\nbuffer b 256\nbuffer c 256\nevent e\n";

const SET: &str = "set-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..256]";
const WAIT: &str = "wait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a[0..256]";
const BARRIER: &str = "barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ";

/// A judged command as `(line, split, hazards removing it brings back)`.
type Judged = (usize, bool, usize);

/// (name, body after the header, each judged command).
fn cases() -> Vec<(&'static str, String, Vec<Judged>)> {
    vec![
        (
            "a split barrier that orders a fill before a copy",
            format!("fill a 1\n{SET}\nfill c 2\n{WAIT}\ncopy a -> b\n"),
            vec![(8, true, 1)],
        ),
        (
            "a split barrier after a pipeline barrier that already orders the pair",
            format!("fill a 1\n{BARRIER}\n{SET}\n{WAIT}\ncopy a -> b\n"),
            vec![(6, false, 0), (8, true, 0)],
        ),
        (
            "a pipeline barrier after a split barrier that already orders the pair",
            format!("fill a 1\n{SET}\n{WAIT}\n{BARRIER}\ncopy a -> b\n"),
            vec![(7, true, 0), (8, false, 0)],
        ),
        (
            "a synchronization-1 split barrier",
            "fill a 1\nset-event1 e TRANSFER\nwait-events1 e TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ\n\
             copy a -> b\n"
                .to_string(),
            vec![(7, true, 1)],
        ),
        (
            "a split barrier whose wait orders nothing the program needs",
            format!("fill a 1\n{SET}\n{WAIT}\nfill c 3\n"),
            vec![(7, true, 0)],
        ),
    ]
}

#[test]
fn split_barriers_are_judged_at_their_waits() {
    for (name, body, expected) in cases() {
        let t = trace::parse(&format!("{HEADER}{body}")).unwrap_or_else(|e| panic!("{name}: {e}"));
        for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
            let judged = recorded_barriers(&t.program, reading).unwrap_or_else(|e| panic!("{name}: {e}"));
            let got: Vec<Judged> = judged
                .iter()
                .map(|b| (t.command_lines[b.command], b.split, b.answers.len()))
                .collect();
            assert_eq!(got, expected, "case `{name}` ({reading:?})");
            for b in &judged {
                assert_eq!(b.redundant(), b.answers.is_empty(), "case `{name}`");
            }
        }
    }
}
