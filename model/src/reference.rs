//! The CPU reference: what a program computes, defined once over bytes.
//!
//! This module owns the kernels' effects (wrapping `u32` arithmetic, so a
//! device and the reference agree exactly) and a sequential interpreter of
//! programs at the level of logical objects: each buffer and each blob has
//! its own bytes, wherever the allocator placed it, and aliases see their
//! owner's bytes. A device run that shares memory wrongly (a missing
//! barrier, a recycled blob overwritten too early) shows up as a byte
//! mismatch against this reference. Bytes never written are *undefined*
//! (a recycled blob holds whatever was there), and comparisons skip them.
//! It does not model timing or synchronization: commands run one after
//! another, in program order. An image layout transition (a barrier with
//! [`crate::Barrier::transition`]) leaves the bytes as they are: images are
//! modelled coarsely, as memory, and layouts are not tracked (a transition
//! from `UNDEFINED` may discard the contents in Vulkan, which this
//! reference does not model).

use crate::ir::layout::{resolve, Layout, MemId, ProgramError};
use crate::ir::program::{BindingAccess, ByteRange, Command, ObjectId, Program, Region};

/// A kernel known to the reference and to the runtime's shaders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// `scale_add(a, b)`: `read X, write Y`; `Y[i] = X[i] * a + b`.
    ScaleAdd {
        /// The factor.
        a: u32,
        /// The addend.
        b: u32,
    },
    /// `add`: `read A, read B, write C`; `C[i] = A[i] + B[i]`.
    Add,
    /// `scale(a)`: `rw X`; `X[i] = X[i] * a` (an in-place update).
    Scale {
        /// The factor.
        a: u32,
    },
    /// `slow(iters)`: `read X, write Y`; `Y[i]` is `X[i]` put through
    /// `iters` rounds of `x = x * 1664525 + 1013904223`. Many iterations
    /// per element widen race windows on a real GPU.
    Slow {
        /// The rounds per element.
        iters: u32,
    },
}

/// Why a dispatch cannot run on the reference (or the device).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KernelError {
    /// Refused with "unknown kernel `{0}` (known: scale_add(a,b), add, scale(a), slow(iters))".
    #[error("unknown kernel `{0}` (known: scale_add(a,b), add, scale(a), slow(iters))")]
    Unknown(String),
    /// Refused with "kernel `{kernel}` takes at most {max} parameters, got {got}".
    #[error("kernel `{kernel}` takes at most {max} parameter{}, got {got}", if *max == 1 { "" } else { "s" })]
    TooManyParams {
        /// The kernel's name.
        kernel: String,
        /// The most it takes.
        max: usize,
        /// How many were given.
        got: usize,
    },
    /// Refused with "kernel `{kernel}` takes bindings `{expected}`, got `{got}`".
    #[error("kernel `{kernel}` takes bindings `{expected}`, got `{got}`")]
    Signature {
        /// The kernel's name.
        kernel: String,
        /// What is expected.
        expected: &'static str,
        /// What was given.
        got: String,
    },
    /// Refused with "kernel `{kernel}` binding {index} is {len} bytes, but every binding must be {expected} bytes (a multiple of 4, all equal)".
    #[error("kernel `{kernel}` binding {index} is {len} bytes, but every binding must be {expected} bytes (a multiple of 4, all equal)")]
    BindingSize {
        /// The kernel's name.
        kernel: String,
        /// The index.
        index: usize,
        /// The length in bytes.
        len: u64,
        /// What is expected.
        expected: u64,
    },
    /// Refused with "kernel `{kernel}` dispatched indirectly: the reference runs every dispatch over all elements, so indirect arguments must cover them".
    #[error("kernel `{kernel}` dispatched indirectly: the reference runs every dispatch over all elements, so indirect arguments must cover them")]
    Indirect {
        /// The kernel's name.
        kernel: String,
    },
}

impl Kernel {
    /// The names of every kernel, as traces write them.
    pub const NAMES: [&'static str; 4] = ["scale_add", "add", "scale", "slow"];

    /// Default parameters, used when a trace names a kernel without them.
    pub const DEFAULT_SCALE_ADD: (u32, u32) = (3, 1);
    /// `scale`'s factor when a trace gives none.
    pub const DEFAULT_SCALE: u32 = 3;
    /// `slow`'s rounds when a trace gives none.
    pub const DEFAULT_SLOW_ITERS: u32 = 1024;

    /// Looks a kernel up by name and parameters.
    pub fn from_name(name: &str, params: &[u32]) -> Result<Kernel, KernelError> {
        let max = |m: usize| {
            if params.len() > m {
                Err(KernelError::TooManyParams {
                    kernel: name.to_string(),
                    max: m,
                    got: params.len(),
                })
            } else {
                Ok(())
            }
        };
        let p = |i: usize, d: u32| params.get(i).copied().unwrap_or(d);
        match name {
            "scale_add" => {
                max(2)?;
                Ok(Kernel::ScaleAdd {
                    a: p(0, Self::DEFAULT_SCALE_ADD.0),
                    b: p(1, Self::DEFAULT_SCALE_ADD.1),
                })
            }
            "add" => {
                max(0)?;
                Ok(Kernel::Add)
            }
            "scale" => {
                max(1)?;
                Ok(Kernel::Scale {
                    a: p(0, Self::DEFAULT_SCALE),
                })
            }
            "slow" => {
                max(1)?;
                Ok(Kernel::Slow {
                    iters: p(0, Self::DEFAULT_SLOW_ITERS),
                })
            }
            other => Err(KernelError::Unknown(other.to_string())),
        }
    }

    /// The kernel's name in traces and shader file names.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::ScaleAdd { .. } => "scale_add",
            Kernel::Add => "add",
            Kernel::Scale { .. } => "scale",
            Kernel::Slow { .. } => "slow",
        }
    }

    /// The binding accesses the kernel expects, in order.
    pub fn signature(self) -> &'static [BindingAccess] {
        use BindingAccess::*;
        match self {
            Kernel::ScaleAdd { .. } | Kernel::Slow { .. } => &[Read, Write],
            Kernel::Add => &[Read, Read, Write],
            Kernel::Scale { .. } => &[ReadWrite],
        }
    }

    /// Push-constant parameters `(a, b)` as the shaders take them.
    pub fn params(self) -> (u32, u32) {
        match self {
            Kernel::ScaleAdd { a, b } => (a, b),
            Kernel::Add => (0, 0),
            Kernel::Scale { a } => (a, 0),
            Kernel::Slow { iters } => (iters, 0),
        }
    }

    /// Checks a dispatch's bindings against the kernel and returns the
    /// element count.
    pub fn check_bindings(self, bindings: &[crate::ir::program::Binding]) -> Result<u64, KernelError> {
        let sig = self.signature();
        let got: Vec<_> = bindings.iter().map(|b| b.access).collect();
        if got != sig {
            let show = |v: &[BindingAccess]| v.iter().map(|a| a.keyword()).collect::<Vec<_>>().join(", ");
            return Err(KernelError::Signature {
                kernel: self.name().to_string(),
                expected: match self {
                    Kernel::ScaleAdd { .. } | Kernel::Slow { .. } => "read, write",
                    Kernel::Add => "read, read, write",
                    Kernel::Scale { .. } => "rw",
                },
                got: show(&got),
            });
        }
        let len = bindings[0].region.range.len();
        for (index, b) in bindings.iter().enumerate() {
            let l = b.region.range.len();
            if l != len || l % 4 != 0 {
                return Err(KernelError::BindingSize {
                    kernel: self.name().to_string(),
                    index,
                    len: l,
                    expected: len - len % 4,
                });
            }
        }
        Ok(len / 4)
    }

    /// Computes one output word from the input words at the same index.
    pub fn apply(self, inputs: &[u32]) -> u32 {
        match self {
            Kernel::ScaleAdd { a, b } => inputs[0].wrapping_mul(a).wrapping_add(b),
            Kernel::Add => inputs[0].wrapping_add(inputs[1]),
            Kernel::Scale { a } => inputs[0].wrapping_mul(a),
            Kernel::Slow { iters } => {
                // `iters` rounds of the affine map x -> a x + c (mod 2^32),
                // composed by squaring: O(log iters), not O(iters), so the
                // reference keeps up with kernels made slow for the device.
                let (mut a, mut c) = (1_664_525u32, 1_013_904_223u32);
                let (mut ra, mut rc) = (1u32, 0u32);
                let mut n = iters;
                while n > 0 {
                    if n & 1 == 1 {
                        // result := step o result
                        rc = a.wrapping_mul(rc).wrapping_add(c);
                        ra = a.wrapping_mul(ra);
                    }
                    // step := step o step
                    c = a.wrapping_mul(c).wrapping_add(c);
                    a = a.wrapping_mul(a);
                    n >>= 1;
                }
                ra.wrapping_mul(inputs[0]).wrapping_add(rc)
            }
        }
    }
}

/// Why the reference cannot run a program.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReferenceError {
    /// Refused with "command {command}: {source}".
    #[error("command {command}: {source}")]
    Kernel {
        /// The command's index.
        command: usize,
        /// Why.
        source: KernelError,
    },
    /// The program is not well formed (see [`crate::resolve`]).
    #[error(transparent)]
    Program(#[from] ProgramError),
    /// Refused with "`{name}` needs {size} bytes of host memory for the CPU reference, more than can be allocated".
    #[error("`{name}` needs {size} bytes of host memory for the CPU reference, more than can be allocated")]
    TooLarge {
        /// The name concerned.
        name: String,
        /// The size in bytes.
        size: u64,
    },
}

/// Bytes with a definedness mask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bytes {
    /// The bytes.
    pub data: Vec<u8>,
    /// Whether each byte was written (recycled memory is undefined).
    pub defined: Vec<bool>,
}

impl Bytes {
    /// `len` undefined zero bytes, or `None` when the host cannot hold them
    /// (asked for up front, so a huge buffer is an error, not an abort).
    fn new(len: u64) -> Option<Self> {
        let len = usize::try_from(len).ok()?;
        let mut data: Vec<u8> = Vec::new();
        let mut defined: Vec<bool> = Vec::new();
        data.try_reserve_exact(len).ok()?;
        defined.try_reserve_exact(len).ok()?;
        data.resize(len, 0);
        defined.resize(len, false);
        Some(Bytes { data, defined })
    }
}

/// What a host read saw: its command index and the bytes (`None` where
/// undefined).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Readback {
    /// The host read's command index.
    pub command: usize,
    /// What it saw: `None` where undefined.
    pub bytes: Vec<Option<u8>>,
}

/// The words written by `fill`, `update` and `host-write`: `value` for a
/// fill, `value + i` for word `i` otherwise.
pub fn pattern_word(command: &Command, i: u64) -> u32 {
    match command {
        Command::Fill { value, .. } => *value,
        Command::Update { value, .. } | Command::HostWrite { value, .. } => value.wrapping_add(i as u32),
        _ => 0,
    }
}

/// The bytes a pattern command writes into a region of `len` bytes.
/// Host writes may have any length; the last word is cut short.
pub fn pattern_bytes(command: &Command, len: u64) -> Vec<u8> {
    (0..len)
        .map(|b| pattern_word(command, b / 4).to_le_bytes()[(b % 4) as usize])
        .collect()
}

/// The bytes of every memory object of the program's layout: aliases,
/// pools and the blobs carved from them share bytes exactly as on a device.
struct Store {
    layout: Layout,
    /// Storage of each memory object (`MemId` order).
    bytes: Vec<Bytes>,
}

impl Store {
    fn new(program: &Program) -> Result<Self, ReferenceError> {
        let layout = resolve(program)?;
        let mut bytes = Vec::with_capacity(layout.memory_sizes.len());
        for (m, &size) in layout.memory_sizes.iter().enumerate() {
            let b = Bytes::new(size).ok_or_else(|| {
                let owner = layout.owner_object(MemId(m as u32));
                ReferenceError::TooLarge {
                    name: owner
                        .and_then(|o| program.object(o))
                        .map_or_else(|| format!("memory {m}"), |o| o.name.clone()),
                    size,
                }
            })?;
            bytes.push(b);
        }
        Ok(Store { layout, bytes })
    }

    fn locate(&self, region: Region) -> (usize, usize, usize) {
        // Invariant: `resolve` validated every region of the program.
        let m = self.layout.at(region);
        (m.mem.0 as usize, m.range.start as usize, m.range.end as usize)
    }

    fn read(&self, region: Region) -> Vec<Option<u8>> {
        let (o, s, e) = self.locate(region);
        let b = &self.bytes[o];
        (s..e).map(|i| b.defined[i].then_some(b.data[i])).collect()
    }

    fn write(&mut self, region: Region, data: &[Option<u8>]) {
        let (o, s, _) = self.locate(region);
        let b = &mut self.bytes[o];
        for (k, v) in data.iter().enumerate() {
            match v {
                Some(x) => {
                    b.data[s + k] = *x;
                    b.defined[s + k] = true;
                }
                None => b.defined[s + k] = false,
            }
        }
    }

    /// A blob just allocated holds whatever the pool's memory held: its
    /// bytes are undefined.
    fn undefine(&mut self, program: &Program, blob: ObjectId) {
        let size = program.object(blob).map_or(0, |o| o.size);
        let (o, s, e) = self.locate(Region {
            object: blob,
            range: ByteRange::new(0, size),
        });
        self.bytes[o].defined[s..e].iter_mut().for_each(|d| *d = false);
    }
}

/// Runs a well-formed program (see [`crate::ir::layout::resolve`]) in program
/// order and returns what each host read saw.
pub fn run(program: &Program) -> Result<Vec<Readback>, ReferenceError> {
    let mut store = Store::new(program)?;
    let mut out = Vec::new();
    for (ci, c) in program.commands.iter().enumerate() {
        step(program, &mut store, ci, c, &mut out)?;
    }
    Ok(out)
}

/// One entry of a [`word_history`]: the command that left a word's value
/// (`None`: the value it starts with) and the value (`None`: undefined).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WordChange {
    /// The command index, or `None` for the starting value.
    pub command: Option<usize>,
    /// The word after it, little-endian; `None` where a byte is undefined.
    pub value: Option<u32>,
}

/// The history of the word that host read `read` (a command index) sees
/// at byte `offset` of its region: the value it starts with, then each
/// command before the read that changed it, in trace order. For telling
/// which write a wrong device value came from: a stale value is an
/// earlier entry. Empty when `read` is no host read or the word passes
/// its end.
pub fn word_history(program: &Program, read: usize, offset: u64) -> Result<Vec<WordChange>, ReferenceError> {
    let Some(Command::HostRead { src }) = program.commands.get(read) else {
        return Ok(Vec::new());
    };
    if offset.checked_add(4).is_none_or(|end| end > src.range.len()) {
        return Ok(Vec::new());
    }
    let mut word = *src;
    word.range.start += offset;
    word.range.end = word.range.start + 4;
    let mut store = Store::new(program)?;
    let value = |store: &Store| {
        let b = store.read(word);
        Some(u32::from_le_bytes([b[0]?, b[1]?, b[2]?, b[3]?]))
    };
    let mut history = vec![WordChange {
        command: None,
        value: value(&store),
    }];
    let mut out = Vec::new();
    for (ci, c) in program.commands[..read].iter().enumerate() {
        step(program, &mut store, ci, c, &mut out)?;
        let v = value(&store);
        if history.last().is_some_and(|last| last.value != v) {
            history.push(WordChange {
                command: Some(ci),
                value: v,
            });
        }
    }
    Ok(history)
}

/// Runs command `ci` (`c`) of `program` on `store`; a host read's bytes
/// go to `out`.
fn step(
    program: &Program,
    store: &mut Store,
    ci: usize,
    c: &Command,
    out: &mut Vec<Readback>,
) -> Result<(), ReferenceError> {
    match c {
        Command::Alloc { blob } => store.undefine(program, *blob),
        // A coarse layout transition keeps the bytes (module
        // documentation); an exact one from `UNDEFINED` discards them
        // ("Image Layouts": "the contents of the image are not guaranteed
        // to be preserved"), so its bytes become undefined.
        Command::Barrier(dep) => {
            for b in &dep.barriers {
                if let (Some(ib), Some(r)) = (b.image.and_then(|i| program.image_barrier(i)), b.region) {
                    if b.transition && ib.old_layout == crate::vk::image::ImageLayout::UNDEFINED {
                        store.write(r, &vec![None; r.range.len() as usize]);
                    }
                }
            }
        }
        Command::Free { .. }
        | Command::Submit(_)
        | Command::Wait(_)
        | Command::HostSignal { .. }
        | Command::HostWait { .. }
        | Command::SetEvent { .. }
        | Command::WaitEvents { .. }
        | Command::SetEvent1 { .. }
        | Command::WaitEvents1 { .. }
        | Command::ResetEvent { .. }
        | Command::HostSetEvent { .. }
        | Command::HostResetEvent { .. } => {}
        Command::Copy { src, dst } => {
            let data = store.read(*src);
            store.write(*dst, &data);
        }
        // Image layouts are not computed: what a copy to or from an
        // image leaves is unknown here.
        Command::CopyImage { dst, .. } => {
            store.write(*dst, &vec![None; dst.range.len() as usize]);
        }
        // Nor texel addressing: an exact image command's written bytes
        // become undefined too.
        Command::Image(ic) => {
            for (r, sa) in ic.accesses() {
                if sa.is_write() {
                    store.write(*r, &vec![None; r.range.len() as usize]);
                }
            }
        }
        // Nor rasterization: what a rendering command writes (attachments,
        // storage bindings) becomes undefined.
        Command::Render(rc) => {
            for (r, sa) in rc.accesses() {
                if sa.is_write() {
                    store.write(*r, &vec![None; r.range.len() as usize]);
                }
            }
        }
        Command::Fill { dst, .. } | Command::Update { dst, .. } | Command::HostWrite { dst, .. } => {
            let data: Vec<Option<u8>> = pattern_bytes(c, dst.range.len()).into_iter().map(Some).collect();
            store.write(*dst, &data);
        }
        Command::HostRead { src } => out.push(Readback {
            command: ci,
            bytes: store.read(*src),
        }),
        Command::Dispatch {
            kernel,
            params,
            bindings,
            indirect,
        } => {
            let err = |source| ReferenceError::Kernel { command: ci, source };
            let k = Kernel::from_name(kernel, params).map_err(err)?;
            if indirect.is_some() {
                return Err(err(KernelError::Indirect {
                    kernel: kernel.clone(),
                }));
            }
            let n = k.check_bindings(bindings).map_err(err)? as usize;
            let inputs: Vec<Vec<Option<u8>>> = bindings
                .iter()
                .filter(|b| b.access != BindingAccess::Write)
                .map(|b| store.read(b.region))
                .collect();
            let mut result = vec![None; n * 4];
            for i in 0..n {
                let words: Option<Vec<u32>> = inputs
                    .iter()
                    .map(|inp| {
                        let w = &inp[i * 4..i * 4 + 4];
                        Some(u32::from_le_bytes([w[0]?, w[1]?, w[2]?, w[3]?]))
                    })
                    .collect();
                if let Some(ws) = words {
                    let y = k.apply(&ws).to_le_bytes();
                    for (j, b) in y.iter().enumerate() {
                        result[i * 4 + j] = Some(*b);
                    }
                }
            }
            // Invariant: every kernel signature ends with its output.
            let out_binding = bindings.last().expect("kernel has an output binding");
            store.write(out_binding.region, &result);
        }
    }
    Ok(())
}

/// Compares device bytes with the reference's, skipping undefined bytes.
/// Returns the offsets (within the read) of mismatching bytes.
pub fn mismatches(reference: &[Option<u8>], device: &[u8]) -> Vec<usize> {
    reference
        .iter()
        .zip(device.iter())
        .enumerate()
        .filter_map(|(i, (r, d))| match r {
            Some(x) if x != d => Some(i),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::parse;

    #[test]
    fn slow_composes_its_rounds_exactly() {
        let naive = |x: u32, iters: u32| {
            let mut x = x;
            for _ in 0..iters {
                x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            }
            x
        };
        for iters in [0, 1, 2, 3, 7, 8, 255, 256, 1024, 65_535, 100_001] {
            for x in [0, 1, 0xdead_beef, u32::MAX] {
                assert_eq!(
                    Kernel::Slow { iters }.apply(&[x]),
                    naive(x, iters),
                    "{iters} rounds of {x}"
                );
            }
        }
    }

    /// The history of the word a host read sees: the H200's wrong bytes
    /// of `docs/testing.md` ("A driver bug") in small, and the edges.
    #[test]
    fn word_history_lists_each_change_of_a_word() {
        let text = "buffer a 16\nbuffer b 16\nhost-write a 5000\nhost-write b 3000\n\
                    dispatch scale_add(2,6) read a write b\nfill a 649\nfill a[4..8] 649\n\
                    host-read b\nhost-read a\n";
        let t = parse(text).unwrap();
        let w = |command, value| WordChange { command, value };
        // (read, offset, history)
        let cases: Vec<(usize, u64, Vec<WordChange>)> = vec![
            // b: undefined, the host write, the dispatch (2 * 5000 + 6).
            (
                5,
                0,
                vec![w(None, None), w(Some(1), Some(3000)), w(Some(2), Some(10_006))],
            ),
            // a's word 1: the second fill writes the same value, no change.
            (
                6,
                4,
                vec![w(None, None), w(Some(0), Some(5001)), w(Some(3), Some(649))],
            ),
            // Past the end, and a command that is no host read.
            (6, 13, vec![]),
            (2, 0, vec![]),
        ];
        for (read, offset, want) in cases {
            assert_eq!(
                word_history(&t.program, read, offset).unwrap(),
                want,
                "read {read} at {offset}"
            );
        }
    }

    #[test]
    fn memory_the_host_cannot_hold_is_an_error() {
        let t = parse("buffer b 1099511627776\nfill b[0..64] 1\nhost-read b[0..64]\n").unwrap();
        assert_eq!(
            run(&t.program).unwrap_err().to_string(),
            "`b` needs 1099511627776 bytes of host memory for the CPU reference, more than can be allocated"
        );
        let t = parse("buffer b 18446744073709551612\nfill b[0..64] 1\n").unwrap();
        assert!(matches!(run(&t.program), Err(ReferenceError::TooLarge { .. })));
    }

    fn reads(text: &str) -> Vec<Vec<Option<u8>>> {
        let t = parse(text).unwrap();
        run(&t.program).unwrap().into_iter().map(|r| r.bytes).collect()
    }

    fn words(bytes: &[Option<u8>]) -> Vec<Option<u32>> {
        bytes
            .chunks(4)
            .map(|w| Some(u32::from_le_bytes([w[0]?, w[1]?, w[2]?, w[3]?])))
            .collect()
    }

    #[test]
    fn kernels_compute_in_wrapping_u32() {
        let r = reads(
            "buffer a 8\nbuffer b 8\nbuffer c 8\nhost-write a 0xfffffffe\n\
             dispatch scale_add(2,5) read a write b\ndispatch add read a read b write c\n\
             dispatch scale(3) rw c\nhost-read b\nhost-read c\n",
        );
        // a = [0xfffffffe, 0xffffffff]; b = a*2+5 wrapping = [1, 3].
        assert_eq!(words(&r[0]), vec![Some(1), Some(3)]);
        // c = (a + b) * 3 = [0xffffffff, 2] * 3.
        assert_eq!(words(&r[1]), vec![Some(0xffff_ffffu32.wrapping_mul(3)), Some(6)]);
    }

    #[test]
    fn recycled_blobs_are_undefined_and_aliases_share_bytes() {
        let r = reads(
            "pool p 256\nbuffer a 64\nbuffer v 16 alias a 16\nalloc x 64 from p\nfill x 7\nfree x\n\
             alloc y 64 from p\nhost-read y[0..4]\nfill a 1\nfill v[0..4] 9\nhost-read a[16..24]\n",
        );
        assert_eq!(r[0], vec![None; 4]);
        assert_eq!(words(&r[1]), vec![Some(9), Some(1)]);
    }

    #[test]
    fn blobs_share_their_pools_bytes() {
        // A blob is bytes of its pool: a write through either is seen
        // through the other.
        let r = reads("pool p 256\nalloc x 64 from p\nfill x 7\nhost-read p[0..4]\nfill p[0..64] 5\nhost-read x[0..4]\n");
        assert_eq!(words(&r[0]), vec![Some(7)]);
        assert_eq!(words(&r[1]), vec![Some(5)]);
    }

    #[test]
    fn programs_that_do_not_resolve_are_errors() {
        let mut p = Program::new();
        let a = p.buffer("a", 16).unwrap();
        // The builder checks ids, names and order, not bounds; `resolve`
        // does, and `run` resolves first.
        p.push(Command::Fill {
            dst: Region {
                object: a,
                range: ByteRange::new(0, 32),
            },
            value: 1,
        })
        .expect("bounds are resolve's to check");
        assert!(matches!(run(&p), Err(ReferenceError::Program(_))));
    }

    #[test]
    fn slow_kernel_iterates_the_lcg() {
        assert_eq!(Kernel::Slow { iters: 0 }.apply(&[5]), 5);
        assert_eq!(Kernel::Slow { iters: 1 }.apply(&[1]), 1_664_525 + 1_013_904_223);
        assert_eq!(
            Kernel::from_name("nope", &[]).unwrap_err().to_string(),
            "unknown kernel `nope` (known: scale_add(a,b), add, scale(a), slow(iters))"
        );
    }
}
