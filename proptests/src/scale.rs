//! Long traces by class, for the scaling tests and tables of issue 27
//! ("never hang, never abort, never flood"): each [`Class`] is one shape of
//! program the hostile-input battery found slow or memory-hungry, written
//! at any length. `cli/tests/scale.rs` runs `vksync check` and `vksync
//! plan` on them with time and memory limits; `proptests/examples/
//! scale_trace.rs` writes one to stdout for measuring by hand
//! (`docs/testing.md`, "Scaling by class").
//!
//! Every generated trace is valid; which ones have hazards is part of each
//! class's description. Lengths are approximate: a class writes whole
//! repetitions of its pattern until it has at least the lines asked for.

/// A shape of long program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// One buffer filled in every batch, never waited for: every fill
    /// races the one before (write-after-write).
    Flood,
    /// Blobs of a pool recycled, each dispatch reading two earlier blobs
    /// behind a barrier, a submit every 50 blobs (ncnn-like): no hazards.
    Pool,
    /// Batches of a fill, a copy and two barriers, never waited for: the
    /// barrier ending each batch orders it before the next (submission
    /// order spans batches of one queue), so no hazards.
    Batches,
    /// `N` fills of distinct pieces, then `N` copies of the whole buffer:
    /// every copy races every fill (`N²` racing pairs, `2N - 1` lines).
    Pieces,
    /// One event set, waited and reset around each copy: no hazards.
    Event,
    /// A quarter of the lines are events, all set, then waited in reverse
    /// order: no hazards.
    EventsReverse,
    /// Two queues chained by one timeline semaphore, each batch waiting
    /// for the other queue's last signal in the stage of its command: no
    /// hazards.
    Timeline,
    /// A frame loop on one queue: host write, copy, dispatch, copy back,
    /// a timeline signal per frame, a host wait for it, a host read: no
    /// hazards.
    Frames,
    /// An exclusive buffer passed between two queue families and back with
    /// release and acquire barriers, timeline waits with `ALL_COMMANDS`:
    /// each acquire's transfer races the release's (the timeline orders the
    /// batches, not the two operations of a transfer: 2 write-after-write
    /// lines at the end).
    Ownership,
    /// `N` buffers, each written by one dispatch and read by the next, in
    /// one batch without barriers (for `plan --buffer-barriers`).
    Buffers,
}

impl Class {
    /// Every class, in the order of the tables.
    pub const ALL: [Class; 10] = [
        Class::Flood,
        Class::Pool,
        Class::Batches,
        Class::Pieces,
        Class::Event,
        Class::EventsReverse,
        Class::Timeline,
        Class::Frames,
        Class::Ownership,
        Class::Buffers,
    ];

    /// The class's name on the command line and in the tables.
    pub fn name(self) -> &'static str {
        match self {
            Class::Flood => "flood",
            Class::Pool => "pool",
            Class::Batches => "batches",
            Class::Pieces => "pieces",
            Class::Event => "event",
            Class::EventsReverse => "events-reverse",
            Class::Timeline => "timeline",
            Class::Frames => "frames",
            Class::Ownership => "ownership",
            Class::Buffers => "buffers",
        }
    }

    /// The class named `name`.
    pub fn from_name(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Whether the program has several queues (or semaphores).
    pub fn multi_queue(self) -> bool {
        matches!(self, Class::Timeline | Class::Frames | Class::Ownership)
    }
}

/// A trace of class `class` with about `lines` lines.
pub fn trace(class: Class, lines: usize) -> String {
    let mut out: Vec<String> = Vec::with_capacity(lines + 16);
    let mut p = |s: String| out.push(s);
    match class {
        Class::Flood => {
            p("buffer a 64".into());
            for _ in 0..lines.div_ceil(2) {
                p("fill a[0..64] 1".into());
                p("submit".into());
            }
        }
        Class::Pool => return pool(lines),
        Class::Batches => {
            p("buffer a 64".into());
            p("buffer b 64".into());
            for _ in 0..lines.div_ceil(5) {
                p("fill a[0..64] 1".into());
                p("barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ".into());
                p("copy a[0..64] -> b[0..64]".into());
                p("barrier ALL_TRANSFER:TRANSFER_READ|TRANSFER_WRITE -> ALL_TRANSFER:TRANSFER_WRITE".into());
                p("submit".into());
            }
        }
        Class::Pieces => {
            let n = lines.div_ceil(2).max(1);
            p(format!("buffer a {}", 64 * n));
            p(format!("buffer b {}", 64 * n));
            for i in 0..n {
                p(format!("fill a[{}..{}] 1", 64 * i, 64 * i + 64));
            }
            for _ in 0..n {
                p(format!("copy a[0..{}] -> b[0..{}]", 64 * n, 64 * n));
            }
        }
        Class::Event => {
            p("event e".into());
            p("buffer a 64".into());
            p("buffer b 64".into());
            for _ in 0..lines.div_ceil(6) {
                p("fill a[0..64] 1".into());
                p("set-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ".into());
                p("wait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ".into());
                p("copy a[0..64] -> b[0..64]".into());
                p("reset-event e COPY".into());
                p("barrier COPY:TRANSFER_READ|TRANSFER_WRITE -> ALL_TRANSFER:TRANSFER_WRITE".into());
            }
            p("submit".into());
        }
        Class::EventsReverse => {
            let k = lines.div_ceil(4).max(1);
            for j in 0..k {
                p(format!("event e{j}"));
            }
            p("buffer a 64".into());
            for j in 0..k {
                p(format!(
                    "set-event e{j} CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ"
                ));
            }
            for j in (0..k).rev() {
                p(format!(
                    "wait-events e{j} CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ"
                ));
            }
            p("submit".into());
        }
        Class::Timeline => {
            for s in [
                "queue qa",
                "queue qb",
                "semaphore t timeline",
                "buffer a 64",
                "buffer b 64",
            ] {
                p(s.into());
            }
            let mut v = 0;
            for _ in 0..lines.div_ceil(4) {
                p("fill a[0..64] 1".into());
                v += 1;
                p(if v > 1 {
                    format!("submit qa wait t:{}@CLEAR signal t:{v}", v - 1)
                } else {
                    format!("submit qa signal t:{v}")
                });
                p("copy a[0..64] -> b[0..64]".into());
                v += 1;
                p(format!("submit qb wait t:{}@COPY signal t:{v}", v - 1));
            }
            p(format!("host-wait t {v}"));
        }
        Class::Frames => {
            for s in [
                "queue qa",
                "semaphore t timeline",
                "buffer st 256",
                "buffer w 256",
                "buffer o 256",
                "buffer rb 256",
            ] {
                p(s.into());
            }
            for v in 1..=lines.div_ceil(10) {
                p("host-write st[0..256] 3".into());
                p("copy st[0..256] -> w[0..256]".into());
                p("barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ".into());
                p("dispatch scale_add(2,1) read w[0..256] write o[0..256]".into());
                p("barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COPY:TRANSFER_READ".into());
                p("copy o[0..256] -> rb[0..256]".into());
                p("barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ".into());
                p(format!("submit qa signal t:{v}"));
                p(format!("host-wait t {v}"));
                p("host-read rb[0..256]".into());
            }
        }
        Class::Ownership => {
            for s in [
                "queue qa",
                "queue qb family 1",
                "semaphore t timeline",
                "buffer a 256 exclusive",
            ] {
                p(s.into());
            }
            let mut v = 0;
            for _ in 0..lines.div_ceil(8) {
                p("fill a[0..256] 1".into());
                p("barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..256] ownership 0->1".into());
                v += 1;
                p(if v > 1 {
                    format!("submit qa wait t:{}@ALL_COMMANDS signal t:{v}", v - 1)
                } else {
                    format!("submit qa signal t:{v}")
                });
                p("barrier NONE:NONE -> CLEAR:TRANSFER_WRITE a[0..256] ownership 0->1".into());
                p("fill a[0..256] 2".into());
                p("barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..256] ownership 1->0".into());
                v += 1;
                p(format!("submit qb wait t:{}@ALL_COMMANDS signal t:{v}", v - 1));
                p("barrier NONE:NONE -> CLEAR:TRANSFER_WRITE a[0..256] ownership 1->0".into());
            }
            p("submit qa".into());
            p("wait".into());
        }
        Class::Buffers => {
            let k = lines.div_ceil(3).max(2);
            for j in 0..k {
                p(format!("buffer x{j} 256"));
            }
            for j in 0..k {
                p(format!(
                    "dispatch scale_add(2,1) read x{j}[0..256] write x{}[0..256]",
                    (j + 1) % k
                ));
            }
            for j in 0..k {
                p(format!(
                    "dispatch scale_add(2,1) read x{}[0..256] write x{j}[0..256]",
                    (j + 1) % k
                ));
            }
            p("submit".into());
        }
    }
    out.join("\n") + "\n"
}

/// [`Class::Pool`]: blob sizes and which two earlier blobs each dispatch
/// reads come from a fixed linear congruential sequence, so the trace is
/// the same on every machine.
fn pool(lines: usize) -> String {
    let mut out: Vec<String> = vec![
        "pool P 8388608".into(),
        "buffer in 65536".into(),
        "update in[0..65536] 1".into(),
        "barrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ".into(),
    ];
    let mut seed: u64 = 20261202;
    let mut next = move |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n
    };
    let mut live: Vec<String> = vec!["in".into()];
    let mut i = 0;
    while out.len() < lines {
        let b = format!("b{i}");
        let size = [1024, 4096, 16384, 65536][next(4)];
        out.push(format!("alloc {b} {size} from P"));
        let first = next(live.len());
        let second = (first + 1 + next(live.len().max(2) - 1)) % live.len();
        let mut reads = format!("read {}[0..1024]", live[first]);
        if second != first {
            reads += &format!(" read {}[0..1024]", live[second]);
        }
        out.push(format!("dispatch scale_add(2,1) {reads} write {b}[0..{size}]"));
        out.push("barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ".into());
        live.push(b);
        if live.len() > 6 {
            let gone = live.remove(1 + next(live.len() - 2));
            out.push(format!("free {gone}"));
        }
        i += 1;
        if i % 50 == 0 {
            out.push("submit".into());
        }
    }
    out.push("submit".into());
    out.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_parses_at_every_length() {
        for class in Class::ALL {
            for lines in [1, 10, 1000] {
                let text = trace(class, lines);
                let n = text.lines().count();
                assert!(n >= lines.min(10), "{}: {n} lines for {lines}", class.name());
                if let Err(e) = vksync::trace::parse(&text) {
                    panic!("{} at {lines} lines: {e}\n{text}", class.name());
                }
            }
            assert_eq!(Class::from_name(class.name()), Some(class));
        }
    }
}
