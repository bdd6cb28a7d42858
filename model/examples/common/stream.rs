//! The generated command stream the throughput and tracker examples share.

use vksync::{Binding, BindingAccess, Command, ObjectId, Program};

/// `commands` commands over `buffers` buffers of 4 KiB: copies, fills and
/// dispatches over a sliding window of buffers, as a network's layers do
/// (a fixed xorshift seed, so every run builds the same program).
pub fn program(commands: usize, buffers: usize) -> Program {
    let mut p = Program::new();
    let ids: Vec<ObjectId> = (0..buffers)
        .map(|i| p.buffer(&format!("b{i}"), 4096).expect("distinct valid names"))
        .collect();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for _ in 0..commands {
        let a = ids[next(buffers)];
        let b = ids[next(buffers)];
        let off = (next(16) * 256) as u64;
        let len = 256 * (1 + next(4)) as u64;
        let (off, len) = (off.min(4096 - len), len);
        let c = match next(4) {
            0 if a != b => Command::Copy {
                src: p.region(a, off, off + len),
                dst: p.region(b, off, off + len),
            },
            1 => Command::Fill {
                dst: p.region(a, off, off + len),
                value: 1,
            },
            _ => Command::Dispatch {
                kernel: "k".into(),
                params: vec![],
                bindings: vec![
                    Binding {
                        access: BindingAccess::Read,
                        region: p.region(a, off, off + len),
                    },
                    Binding {
                        access: BindingAccess::Write,
                        region: p.region(b, 0, len),
                    },
                ],
                indirect: None,
            },
        };
        let c = match c {
            Command::Dispatch { ref bindings, .. }
                if bindings[0].region.object == bindings[1].region.object =>
            {
                Command::Fill {
                    dst: p.region(a, off, off + len),
                    value: 2,
                }
            }
            other => other,
        };
        p.push(c).expect("the commands name this program's buffers");
    }
    p
}

/// The stream's size, from the command line.
#[derive(clap::Parser)]
pub struct Size {
    /// Commands in the stream.
    #[arg(default_value_t = crate::DEFAULT_COMMANDS)]
    pub commands: usize,
    /// Buffers of 4 KiB the commands use.
    #[arg(default_value_t = 10_000)]
    pub buffers: usize,
}
