// The trace generator of the `multi_queue` target (included by it, and
// by anything that wants to see what the corpus describes).

use std::fmt::Write;

/// Reads the input a byte at a time; zeros once it is spent.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn pick<'s>(&mut self, from: &[&'s str]) -> &'s str {
        from[self.next() as usize % from.len()]
    }
    fn done(&self) -> bool {
        self.0.is_empty()
    }
}

const QUEUES: [&str; 3] = ["qa", "qb", "qc"];
const BUFS: [&str; 3] = ["a", "b", "d"];
const STAGES: [&str; 6] = ["COPY", "CLEAR", "COMPUTE_SHADER", "ALL_COMMANDS", "ALL_TRANSFER", "NONE"];

/// A region of a 64-byte buffer, in 16-byte steps.
fn region(b: &mut Bytes, buf: &str) -> String {
    let x = (b.next() % 4) as u64;
    let len = 1 + (b.next() % (4 - x as u8)) as u64;
    format!("{buf}[{}..{}]", x * 16, (x + len) * 16)
}

fn barrier_side(b: &mut Bytes, dst: bool) -> String {
    let stage = b.pick(&STAGES);
    let access = match (stage, dst, b.next() % 3) {
        (_, _, 0) | ("NONE", _, _) => "NONE",
        ("COPY" | "ALL_TRANSFER", false, _) => "TRANSFER_WRITE",
        ("COPY" | "ALL_TRANSFER", true, _) => "TRANSFER_READ",
        ("CLEAR", _, _) => "TRANSFER_WRITE",
        ("COMPUTE_SHADER", false, _) => "SHADER_STORAGE_WRITE",
        ("COMPUTE_SHADER", true, _) => "SHADER_STORAGE_READ",
        (_, false, _) => "MEMORY_WRITE",
        (_, true, _) => "MEMORY_READ",
    };
    format!("{stage}:{access}")
}

/// The trace the bytes describe.
fn generate(b: &mut Bytes) -> String {
    let mut t = String::from("queue qa family 0\nqueue qb family 0\nqueue qc family 1\n");
    t.push_str("buffer a 64\nbuffer b 64\nbuffer d 64 exclusive\n");
    t.push_str("semaphore s\nsemaphore t timeline\nsemaphore u timeline\n");
    // Timeline values signalled so far (device and host), the binary
    // semaphore's pending signal.
    let (mut t_last, mut u_last, mut s_pending) = (0u64, 0u64, false);
    let mut commands = 0;
    while !b.done() && commands < 40 {
        commands += 1;
        match b.next() % 12 {
            0 | 1 => {
                let (x, y) = (b.pick(&BUFS), b.pick(&BUFS));
                let y = if x == y { if x == "a" { "b" } else { "a" } } else { y };
                let rx = region(b, x);
                let len: u64 = {
                    let r = rx.split('[').nth(1).unwrap_or("0..16]").trim_end_matches(']');
                    let (s, e) = r.split_once("..").unwrap_or(("0", "16"));
                    e.parse::<u64>().unwrap_or(16) - s.parse::<u64>().unwrap_or(0)
                };
                let off = (b.next() as u64 % (64 / 16)) * 16;
                let off = off.min(64 - len);
                let _ = writeln!(t, "copy {rx} -> {y}[{off}..{}]", off + len);
            }
            2 => {
                let x = b.pick(&BUFS);
                let _ = writeln!(t, "fill {} {}", region(b, x), b.next());
            }
            3 => {
                let (r, w) = (b.pick(&BUFS), b.pick(&BUFS));
                let w = if r == w { if r == "a" { "b" } else { "a" } } else { w };
                let _ = writeln!(t, "dispatch scale(2) read {} write {}", region(b, r), region(b, w));
            }
            4 => {
                let (src, dst) = (barrier_side(b, false), barrier_side(b, true));
                if b.next() % 2 == 0 {
                    let _ = writeln!(t, "barrier {src} -> {dst}");
                } else {
                    let x = b.pick(&BUFS);
                    let _ = writeln!(t, "barrier {src} -> {dst} {}", region(b, x));
                }
            }
            5 => {
                let x = b.pick(&BUFS);
                let _ = writeln!(t, "host-write {} {}", region(b, x), b.next());
            }
            6 => {
                let x = b.pick(&BUFS);
                let _ = writeln!(t, "host-read {}", region(b, x));
            }
            7 | 8 => {
                let q = b.pick(&QUEUES);
                let mut line = format!("submit {q}");
                let flags = b.next();
                let rules = b.next() % 8 != 0;
                if flags & 1 != 0 && (s_pending || !rules) {
                    let _ = write!(line, " wait s@{}", b.pick(&STAGES[..5]));
                    s_pending = false;
                }
                if flags & 2 != 0 {
                    let v = 1 + b.next() as u64 % (t_last + 2);
                    let _ = write!(line, " wait t:{v}@{}", b.pick(&STAGES[..5]));
                }
                if flags & 4 != 0 && (!s_pending || !rules) {
                    line.push_str(" signal s");
                    s_pending = true;
                }
                if flags & 8 != 0 {
                    t_last += 1 + b.next() as u64 % 2;
                    let _ = write!(line, " signal t:{t_last}@{}", b.pick(&STAGES[..5]));
                }
                if flags & 16 != 0 {
                    u_last += 1;
                    let _ = write!(line, " signal u:{u_last}");
                }
                let _ = writeln!(t, "{line}");
            }
            9 => {
                if b.next() % 2 == 0 {
                    t.push_str("wait\n");
                } else {
                    let _ = writeln!(t, "wait {}", b.pick(&QUEUES));
                }
            }
            10 => {
                let v = t_last + 1;
                t_last = v;
                let _ = writeln!(t, "host-signal t {v}");
            }
            _ => {
                let (sem, last) = if b.next() % 2 == 0 { ("t", t_last) } else { ("u", u_last) };
                let v = 1 + b.next() as u64 % (last + 1);
                let _ = writeln!(t, "host-wait {sem} {v}");
            }
        }
    }
    t
}

