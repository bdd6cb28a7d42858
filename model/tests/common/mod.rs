//! Shared by the rule suites (`queues.rs`, `events.rs`, `ownership.rs`):
//! one way to run a case through both checkers and to print races, so the
//! suites differ only in their headers and tables.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use vksync::spec::{races, Reading};
use vksync::{check_with, trace, ByteRange, HazardKind, ProgramErrorKind, Semantics};

/// Runs `header` + `body` through the definitional semantics (memory
/// model reading) and compares its races, written
/// `L<line> <KIND> <object>[<bytes>] after L<prior line>` (`names` are the
/// memory objects in declaration order), with `expected`; then checks
/// that the fast checker agrees with the definitional semantics under
/// both readings, or refuses with the typed error when `refused`.
pub fn race_case(header: &str, names: &[&str], name: &str, body: &str, expected: &[&str], refused: bool) {
    let text = format!("{header}{body}");
    let t = trace::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let found = races(&t.program, Reading::MemoryModel).unwrap_or_else(|e| panic!("{name}: {e}"));
    let got: Vec<String> = found
        .iter()
        .map(|r| {
            format!(
                "L{} {} {}[{}] after L{}",
                t.command_lines[r.command],
                r.kind,
                names[r.mem.0 as usize],
                r.range,
                t.command_lines[r.prior_command]
            )
        })
        .collect();
    assert_eq!(got, expected, "case `{name}`:\n{body}");
    for reading in [Reading::MemoryModel, Reading::VisibleToWrites] {
        let spec = races(&t.program, reading).unwrap_or_else(|e| panic!("{name}: {e}"));
        match check_with(&t.program, Semantics::for_reading(reading)) {
            Ok(h) => {
                assert!(
                    !refused,
                    "case `{name}`: listed as refused, but the fast checker decides it"
                );
                let fast = keys(
                    h.iter()
                        .map(|h| (h.command, h.kind, h.memory.mem.0, h.memory.range)),
                );
                let want = keys(spec.iter().map(|r| (r.command, r.kind, r.mem.0, r.range)));
                assert_eq!(
                    fast, want,
                    "case `{name}` ({reading:?}): the checker and the definitional semantics differ"
                );
            }
            Err(e) => assert!(
                refused && matches!(e.kind, ProgramErrorKind::MultiQueueNotSupported { .. }),
                "case `{name}`: {e}"
            ),
        }
    }
}

/// Per (command, kind, memory), the bytes as maximal ranges.
pub fn keys(
    items: impl Iterator<Item = (usize, HazardKind, u32, ByteRange)>,
) -> BTreeMap<(usize, HazardKind, u32), Vec<(u64, u64)>> {
    let mut sets: BTreeMap<_, BTreeSet<(u64, u64)>> = Default::default();
    for (c, k, m, r) in items {
        sets.entry((c, k, m)).or_default().insert((r.start, r.end));
    }
    sets.into_iter()
        .map(|(key, rs)| {
            let mut merged: Vec<(u64, u64)> = Vec::new();
            for (s, e) in rs {
                match merged.last_mut() {
                    Some(last) if s <= last.1 => last.1 = last.1.max(e),
                    _ => merged.push((s, e)),
                }
            }
            (key, merged)
        })
        .collect()
}

/// A timeline chain through `n` queues (`queues-N` of
/// `scripts/issue27-audit.sh` and `scripts/queue-traces.py`): queue `i`
/// fills its buffer, copies it into a shared one, and waits for value `i`
/// and signals `i + 1`; the host waits for the last. The scaling and
/// memory suites' one generator of it.
pub fn queue_chain(n: usize) -> String {
    use std::fmt::Write as _;
    let mut t = String::from("semaphore t timeline\nbuffer shared 256\n");
    for i in 0..n {
        let _ = writeln!(t, "queue q{i}\nbuffer b{i} 256");
    }
    for i in 0..n {
        let _ = writeln!(
            t,
            "fill b{i}[0..256] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy b{i}[0..256] -> shared[0..256]"
        );
        if i > 0 {
            let _ = writeln!(t, "submit q{i} wait t:{i}@ALL_COMMANDS signal t:{}", i + 1);
        } else {
            let _ = writeln!(t, "submit q{i} signal t:1");
        }
    }
    let _ = writeln!(t, "host-wait t {n}");
    t
}

/// Fills of 64-byte pieces of `buffers` buffers of 4 KiB, each made
/// visible to a copy of it into another buffer by a buffer barrier, a
/// global barrier every fourth step (the shape of `vksync-bench scale`):
/// many range entries with different histories. With one queue, a submit
/// every 160 steps and a fence wait every eighth; with two, the batches
/// alternate between the queues, each waiting for the one before with a
/// binary semaphore. Some copies land on bytes a fill of the same batch
/// wrote and no global barrier has ordered yet: real hazards, more of
/// them over fewer buffers.
pub fn fill_copy_stream(lines: usize, buffers: u64, queues: usize) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    if queues > 1 {
        t.push_str("queue qa\nqueue qb\nsemaphore s0\nsemaphore s1\n");
    }
    for b in 0..buffers {
        let _ = writeln!(t, "buffer b{b} 4096");
    }
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let (mut n, mut step, mut batch) = (t.lines().count(), 0, 0);
    while n < lines {
        let b = next(buffers);
        let c = (b + 1 + next(buffers - 1)) % buffers;
        let k = 64 * next(64);
        let r = format!("[{k}..{}]", k + 64);
        let _ = writeln!(
            t,
            "fill b{b}{r} 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ b{b}{r}\ncopy b{b}{r} -> b{c}{r}"
        );
        n += 3;
        step += 1;
        if step % 4 == 0 {
            t.push_str("barrier ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE\n");
            n += 1;
        }
        if step % 160 == 0 {
            if queues > 1 {
                let q = ["qa", "qb"][batch % 2];
                let wait = if batch > 0 {
                    format!(" wait s{}@ALL_COMMANDS", (batch - 1) % 2)
                } else {
                    String::new()
                };
                let _ = writeln!(t, "submit {q}{wait} signal s{}@ALL_COMMANDS", batch % 2);
            } else {
                t.push_str("submit\n");
                if step % 1280 == 0 {
                    t.push_str("wait\n");
                    n += 1;
                }
            }
            batch += 1;
            n += 1;
        }
    }
    t
}
