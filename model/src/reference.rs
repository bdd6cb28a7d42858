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
//! another, in the order they execute, which is the trace's except that a
//! host access recorded after a command not yet submitted runs before it
//! (the order notes of `crate::ir::execution`; the order itself is that
//! module's `host_accesses_first`, which the planners apply too).
//!
//! **Images.** An `image`-declared object has texels of its own: its
//! notional bytes (`docs/trace-format.md`, "Images": per aspect plane, mip,
//! layer, then texel blocks row-major with a tight pitch) are a store
//! beside the memory's, whatever its tiling, since an optimal-tiling
//! image's texels are not bytes of its memory in any layout the
//! application may rely on. Buffer-image copies address the buffer as
//! "Buffer and Image Addressing" says (`bufferRowLength`,
//! `bufferImageHeight`, layers as further slices); image copies and
//! equal-size blits of one format move texels (a blit with scaling or a
//! format conversion, and a resolve, leave their destination undefined:
//! the filter's rounding is the implementation's); clears write zeros (the
//! trace format carries no clear value; the runtime clears with zero); a
//! layout transition from `UNDEFINED` makes the subresources' texels
//! undefined ("Image Layouts": "the contents of the image are not
//! guaranteed to be preserved"), any other transition keeps them. Where
//! an image shares memory with another object, a write through either
//! makes the other's overlapping contents undefined: through the other
//! object, the whole image (any texel may live in any byte); through the
//! image, the whole memory range it is bound to. A coarse, `buffer`-declared
//! image is bytes like any buffer, and its transitions keep them.
//!
//! Invariant: every region read or written belongs to a program that
//! [`crate::ir::layout::resolve`] accepted, so ranges are in bounds and
//! image commands' subresources exist.

use crate::ir::execution::host_accesses_first;
use crate::ir::image::{view_range, BufferImageCopy, ImageDesc, ImageOp, SubresourceLayers};
use crate::ir::layout::{resolve, Layout, MemId, MemRange, ProgramError};
use crate::ir::program::{Binding, BindingAccess, ByteRange, Command, ObjectId, Program, Region};
use crate::ir::render::{
    Attachment, Draw, DrawKind, IndexType, LoadOp, RenderOp, Rendering, StoreOp, VertexBuffer, VertexRate,
};
use crate::vk::image::{Aspect, ImageLayout};

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
    /// `image_scale_add(a, b)`: `image-read X, image-write Y`, two storage
    /// image views of `R32_UINT` 2D images, one mip level each, of equal
    /// width, height and layer count; texel `(x, y, layer)` of `Y` becomes
    /// `X(x, y, layer) * a + b`. Texels of equal views in the notional
    /// layout are in the same order, so this is `scale_add` word for word
    /// over the views' bytes.
    ImageScaleAdd {
        /// The factor.
        a: u32,
        /// The addend.
        b: u32,
    },
    /// `image_slow(iters)`: `image-read X, image-write Y`, views as for
    /// `image_scale_add`; each texel put through `slow(iters)`'s rounds.
    ImageSlow {
        /// The rounds per texel.
        iters: u32,
    },
    /// `image_sampled_scale_add(a, b)`: `sampled-image X LAYOUT,
    /// image-write Y`, views as for `image_scale_add`, `X` a sampled image
    /// (`VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE`, read with `texelFetch`:
    /// `SHADER_SAMPLED_READ`, in the layout its descriptor names, which the
    /// trace gives: `SHADER_READ_ONLY_OPTIMAL`, `GENERAL`, ...); texel
    /// `(x, y, layer)` of `Y` becomes `X(x, y, layer) * a + b`.
    ImageSampledScaleAdd {
        /// The factor.
        a: u32,
        /// The addend.
        b: u32,
    },
}

/// Why a dispatch cannot run on the reference (or the device).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KernelError {
    /// Refused with "unknown kernel `{0}` (known: scale_add(a,b), add, scale(a), slow(iters), image_scale_add(a,b), image_slow(iters), image_sampled_scale_add(a,b))".
    #[error("unknown kernel `{0}` (known: scale_add(a,b), add, scale(a), slow(iters), image_scale_add(a,b), image_slow(iters), image_sampled_scale_add(a,b))")]
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
    /// Refused with "kernel `{kernel}` binding {index}: {reason}": an image
    /// kernel's view that is not what its shader takes.
    #[error("kernel `{kernel}` binding {index}: {reason}")]
    ImageView {
        /// The kernel's name.
        kernel: String,
        /// The binding's index.
        index: usize,
        /// What is wrong.
        reason: String,
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
    pub const NAMES: [&'static str; 7] = [
        "scale_add",
        "add",
        "scale",
        "slow",
        "image_scale_add",
        "image_slow",
        "image_sampled_scale_add",
    ];

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
            "image_scale_add" => {
                max(2)?;
                Ok(Kernel::ImageScaleAdd {
                    a: p(0, Self::DEFAULT_SCALE_ADD.0),
                    b: p(1, Self::DEFAULT_SCALE_ADD.1),
                })
            }
            "image_slow" => {
                max(1)?;
                Ok(Kernel::ImageSlow {
                    iters: p(0, Self::DEFAULT_SLOW_ITERS),
                })
            }
            "image_sampled_scale_add" => {
                max(2)?;
                Ok(Kernel::ImageSampledScaleAdd {
                    a: p(0, Self::DEFAULT_SCALE_ADD.0),
                    b: p(1, Self::DEFAULT_SCALE_ADD.1),
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
            Kernel::ImageScaleAdd { .. } => "image_scale_add",
            Kernel::ImageSlow { .. } => "image_slow",
            Kernel::ImageSampledScaleAdd { .. } => "image_sampled_scale_add",
        }
    }

    /// Whether its bindings are image views (storage images, and a
    /// sampled image's for `image_sampled_scale_add`; else storage
    /// buffers).
    pub fn is_image(self) -> bool {
        matches!(
            self,
            Kernel::ImageScaleAdd { .. } | Kernel::ImageSlow { .. } | Kernel::ImageSampledScaleAdd { .. }
        )
    }

    /// The format of every view an image kernel binds: its shaders declare
    /// `r32ui`.
    pub const IMAGE_FORMAT: &'static str = "R32_UINT";

    /// The binding accesses the kernel expects, in order. A sampled
    /// image's layout here is only an example: a dispatch may name any
    /// layout its descriptor allows ([`Kernel::check_bindings`] compares
    /// the kinds).
    pub fn signature(self) -> &'static [BindingAccess] {
        use BindingAccess::*;
        match self {
            Kernel::ScaleAdd { .. } | Kernel::Slow { .. } => &[Read, Write],
            Kernel::Add => &[Read, Read, Write],
            Kernel::Scale { .. } => &[ReadWrite],
            Kernel::ImageScaleAdd { .. } | Kernel::ImageSlow { .. } => &[ImageRead, ImageWrite],
            Kernel::ImageSampledScaleAdd { .. } => &[
                SampledImage(crate::vk::image::ImageLayout::SHADER_READ_ONLY_OPTIMAL),
                ImageWrite,
            ],
        }
    }

    /// Push-constant parameters `(a, b)` as the shaders take them.
    pub fn params(self) -> (u32, u32) {
        match self {
            Kernel::ScaleAdd { a, b } => (a, b),
            Kernel::Add => (0, 0),
            Kernel::Scale { a } => (a, 0),
            Kernel::Slow { iters } | Kernel::ImageSlow { iters } => (iters, 0),
            Kernel::ImageScaleAdd { a, b } | Kernel::ImageSampledScaleAdd { a, b } => (a, b),
        }
    }

    /// Checks a dispatch's bindings against the kernel and returns the
    /// element count.
    pub fn check_bindings(self, bindings: &[crate::ir::program::Binding]) -> Result<u64, KernelError> {
        let sig = self.signature();
        let got: Vec<_> = bindings.iter().map(|b| b.access).collect();
        let kind = std::mem::discriminant::<BindingAccess>;
        if got.len() != sig.len() || got.iter().zip(sig).any(|(g, s)| kind(g) != kind(s)) {
            let show = |v: &[BindingAccess]| v.iter().map(|a| a.keyword()).collect::<Vec<_>>().join(", ");
            return Err(KernelError::Signature {
                kernel: self.name().to_string(),
                expected: match self {
                    Kernel::ScaleAdd { .. } | Kernel::Slow { .. } => "read, write",
                    Kernel::Add => "read, read, write",
                    Kernel::Scale { .. } => "rw",
                    Kernel::ImageScaleAdd { .. } | Kernel::ImageSlow { .. } => "image-read, image-write",
                    Kernel::ImageSampledScaleAdd { .. } => "sampled-image, image-write",
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

    /// An image kernel's storage image views, checked against what its
    /// shaders take: each binding an [`Kernel::IMAGE_FORMAT`] 2D image,
    /// one mip level, every view of the same width, height and layer count
    /// (so texel `i` of each view is the same `(x, y, layer)`). Empty for
    /// a buffer kernel.
    pub fn image_views(self, program: &Program, bindings: &[Binding]) -> Result<Vec<ImageView>, KernelError> {
        if !self.is_image() {
            return Ok(Vec::new());
        }
        let bad = |index: usize, reason: String| KernelError::ImageView {
            kernel: self.name().to_string(),
            index,
            reason,
        };
        let mut views: Vec<ImageView> = Vec::with_capacity(bindings.len());
        for (index, b) in bindings.iter().enumerate() {
            let name = program.object(b.region.object).map_or("?", |o| o.name.as_str());
            let desc = program
                .image(b.region.object)
                .ok_or_else(|| bad(index, format!("`{name}` is not an image")))?;
            if desc.format.name() != Self::IMAGE_FORMAT {
                return Err(bad(
                    index,
                    format!(
                        "image `{name}` is {}, but the shader's storage images are {}",
                        desc.format,
                        Self::IMAGE_FORMAT
                    ),
                ));
            }
            if desc.extent[2] != 1 {
                return Err(bad(
                    index,
                    format!("image `{name}` is 3D; the shader takes 2D (array) images"),
                ));
            }
            let r = view_range(desc, b.region.range).ok_or_else(|| {
                bad(
                    index,
                    format!("a view of `{name}` that is not one subresource range"),
                )
            })?;
            if r.mip_count != Some(1) {
                return Err(bad(
                    index,
                    if matches!(b.access, BindingAccess::SampledImage(_)) {
                        format!(
                            "a sampled image view of `{name}` {r} has several mip levels; the kernel fetches from \
                             one (its texel i is word i of the view's bytes)"
                        )
                    } else {
                        format!(
                            "a storage image view of `{name}` {r} has several mip levels; a storage image view has one (VUID-VkWriteDescriptorSet-descriptorType-00336)"
                        )
                    },
                ));
            }
            let e = desc.mip_extent(r.base_mip);
            let v = ImageView {
                image: b.region.object,
                mip: r.base_mip,
                base_layer: r.base_layer,
                layers: r.layer_count.unwrap_or(desc.layers - r.base_layer),
                extent: [e[0], e[1]],
            };
            if let Some(first) = views.first() {
                if (first.extent, first.layers) != (v.extent, v.layers) {
                    return Err(bad(
                        index,
                        format!(
                            "its view is {}x{} with {} layers, binding 0's {}x{} with {}: every view must be the same size",
                            v.extent[0], v.extent[1], v.layers, first.extent[0], first.extent[1], first.layers
                        ),
                    ));
                }
            }
            views.push(v);
        }
        Ok(views)
    }

    /// Computes one output word from the input words at the same index.
    pub fn apply(self, inputs: &[u32]) -> u32 {
        match self {
            Kernel::ScaleAdd { a, b }
            | Kernel::ImageScaleAdd { a, b }
            | Kernel::ImageSampledScaleAdd { a, b } => inputs[0].wrapping_mul(a).wrapping_add(b),
            Kernel::Add => inputs[0].wrapping_add(inputs[1]),
            Kernel::Scale { a } => inputs[0].wrapping_mul(a),
            Kernel::Slow { iters } | Kernel::ImageSlow { iters } => {
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

/// One storage image view an image kernel binds
/// ([`Kernel::image_views`]): a 2D array view of one mip level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageView {
    /// The image.
    pub image: ObjectId,
    /// Its mip level.
    pub mip: u32,
    /// Its first array layer.
    pub base_layer: u32,
    /// Its layer count.
    pub layers: u32,
    /// The mip level's width and height.
    pub extent: [u32; 2],
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

/// The bytes of every memory object of the program's layout (aliases,
/// pools and the blobs carved from them share bytes exactly as on a
/// device), and the texels of every `image`-declared object (module
/// documentation).
struct Store {
    layout: Layout,
    /// Storage of each memory object (`MemId` order).
    bytes: Vec<Bytes>,
    /// Each image of [`Program::images`] (same order): its object, the
    /// memory it is bound to, and its notional bytes.
    images: Vec<(ObjectId, MemRange, Bytes)>,
    /// Per image: whether another object is placed on its memory (only
    /// then do writes on either side undefine the other's contents).
    shared: Vec<bool>,
    /// The rendering instance open at the current command.
    open: Option<Open>,
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
        let mut images = Vec::with_capacity(program.images().len());
        for d in program.images() {
            let (name, size) = program
                .object(d.object)
                .map_or(("?".to_string(), 0), |o| (o.name.clone(), o.size));
            let texels = Bytes::new(size).ok_or(ReferenceError::TooLarge { name, size })?;
            let place = layout.at(Region {
                object: d.object,
                range: ByteRange::new(0, size),
            });
            images.push((d.object, place, texels));
        }
        let shared = images
            .iter()
            .map(|(image, place, _)| {
                (0..program.objects().len() as u32)
                    .map(ObjectId)
                    .any(|o| o != *image && layout.place(o).is_some_and(|(mem, _)| mem == place.mem))
            })
            .collect();
        Ok(Store {
            layout,
            bytes,
            images,
            shared,
            open: None,
        })
    }

    fn image_slot(&self, object: ObjectId) -> Option<usize> {
        self.images.iter().position(|(o, _, _)| *o == object)
    }

    fn locate(&self, region: Region) -> (usize, usize, usize) {
        // Invariant: `resolve` validated every region of the program.
        let m = self.layout.at(region);
        (m.mem.0 as usize, m.range.start as usize, m.range.end as usize)
    }

    fn read(&self, region: Region) -> Vec<Option<u8>> {
        let (b, s, e) = match self.image_slot(region.object) {
            Some(i) => (
                &self.images[i].2,
                region.range.start as usize,
                region.range.end as usize,
            ),
            None => {
                let (o, s, e) = self.locate(region);
                (&self.bytes[o], s, e)
            }
        };
        (s..e).map(|i| b.defined[i].then_some(b.data[i])).collect()
    }

    fn write(&mut self, region: Region, data: &[Option<u8>]) {
        let put = |b: &mut Bytes, s: usize| {
            for (k, v) in data.iter().enumerate() {
                match v {
                    Some(x) => {
                        b.data[s + k] = *x;
                        b.defined[s + k] = true;
                    }
                    None => b.defined[s + k] = false,
                }
            }
        };
        if let Some(i) = self.image_slot(region.object) {
            put(&mut self.images[i].2, region.range.start as usize);
            if !self.shared[i] {
                return;
            }
            // The memory the image is bound to holds its texels somewhere:
            // what another object sees there is undefined.
            let place = self.images[i].1;
            self.bytes[place.mem.0 as usize].defined[place.range.start as usize..place.range.end as usize]
                .iter_mut()
                .for_each(|d| *d = false);
            self.undefine_images_over(Some(region.object), place);
            return;
        }
        let (o, s, e) = self.locate(region);
        put(&mut self.bytes[o], s);
        let written = MemRange {
            mem: MemId(o as u32),
            range: ByteRange::new(s as u64, e as u64),
        };
        self.undefine_images_over(None, written);
    }

    /// Every image but `except` bound to memory that overlaps `written`
    /// loses its contents: any of its texels may live in those bytes.
    fn undefine_images_over(&mut self, except: Option<ObjectId>, written: MemRange) {
        for ((o, place, texels), _) in self.images.iter_mut().zip(&self.shared).filter(|(_, s)| **s) {
            if Some(*o) != except && place.mem == written.mem && place.range.overlaps(written.range) {
                texels.defined.iter_mut().for_each(|d| *d = false);
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

    /// Copies `len` bytes from `src` to `dst` (offsets in their objects).
    fn copy(&mut self, src: (ObjectId, u64), dst: (ObjectId, u64), len: u64) {
        let data = self.read(Region {
            object: src.0,
            range: ByteRange::new(src.1, src.1 + len),
        });
        self.write(
            Region {
                object: dst.0,
                range: ByteRange::new(dst.1, dst.1 + len),
            },
            &data,
        );
    }
}

/// The rows of texel blocks of a region of subresource layers `s` at
/// `offset` of `extent` texels (`extent` in texels of `desc`'s format):
/// per array layer, depth slice and block row, the notional offset of
/// its first block, in order (layer, then slice, then row). Each row is
/// `ceil(extent.width / block width)` blocks of aspect `a`.
/// Invariant: `resolve` checked the region against the image.
fn image_rows(
    desc: &ImageDesc,
    a: Aspect,
    s: SubresourceLayers,
    offset: [u32; 3],
    extent: [u32; 3],
) -> Vec<u64> {
    let (bw, bh) = desc.format.info().block;
    let bs = desc.format.block_bytes(a);
    let e = desc.mip_extent(s.mip);
    let row = desc.row_stride(a, s.mip);
    let slice = u64::from(e[1].div_ceil(bh)) * row;
    let layers = s.layer_count.unwrap_or(desc.layers - s.base_layer);
    let (x0, y0) = (u64::from(offset[0] / bw), u64::from(offset[1] / bh));
    let rows = u64::from(extent[1].div_ceil(bh));
    let mut out = Vec::new();
    for l in s.base_layer..s.base_layer + layers {
        let base = desc.subresource_offset(a, s.mip, l);
        for z in 0..u64::from(extent[2]) {
            for y in 0..rows {
                out.push(base + (u64::from(offset[2]) + z) * slice + (y0 + y) * row + x0 * bs);
            }
        }
    }
    out
}

/// The buffer offset of each row [`image_rows`] lists for buffer-image
/// copy region `c` ("Buffer and Image Addressing": rows of
/// `bufferRowLength` texels, or the extent's width when 0; slices of
/// `bufferImageHeight` rows, or its height; array layers after depth
/// slices, as further slices), and the row's bytes.
fn buffer_rows(desc: &ImageDesc, a: Aspect, c: &BufferImageCopy) -> (Vec<u64>, u64) {
    let (bw, bh) = desc.format.info().block;
    let bs = desc.format.block_bytes(a);
    let row_texels = if c.row_length == 0 {
        c.extent[0]
    } else {
        c.row_length
    };
    let height = if c.image_height == 0 {
        c.extent[1]
    } else {
        c.image_height
    };
    let row = u64::from(row_texels.div_ceil(bw)) * bs;
    let slice = u64::from(height.div_ceil(bh)) * row;
    let rows = u64::from(c.extent[1].div_ceil(bh));
    let layers = c
        .subresource
        .layer_count
        .unwrap_or(desc.layers - c.subresource.base_layer);
    let slices = u64::from(c.extent[2]) * u64::from(layers);
    let mut out = Vec::new();
    for sl in 0..slices {
        for y in 0..rows {
            out.push(c.buffer_offset + sl * slice + y * row);
        }
    }
    (out, u64::from(c.extent[0].div_ceil(bw)) * bs)
}

/// The one aspect a copy region names (`resolve` checked there is one).
fn one_aspect(s: SubresourceLayers) -> Aspect {
    s.aspects.aspects().next().unwrap_or(Aspect::Color)
}

/// Runs one exact image command on `store`.
fn image_step(program: &Program, store: &mut Store, op: &ImageOp, written: &[Region]) {
    // Invariant: `resolve` checked every operand is an image of the program.
    let desc = |id: ObjectId| program.image(id).expect("an image operand of a resolved program");
    let undefine = |store: &mut Store| {
        for r in written {
            store.write(*r, &vec![None; r.range.len() as usize]);
        }
    };
    match op {
        ImageOp::CopyBufferToImage {
            buffer,
            image,
            regions,
            ..
        } => {
            let d = desc(*image);
            for c in regions {
                let a = one_aspect(c.subresource);
                let (brows, len) = buffer_rows(d, a, c);
                let irows = image_rows(d, a, c.subresource, c.offset, c.extent);
                for (b, i) in brows.into_iter().zip(irows) {
                    store.copy((*buffer, b), (*image, i), len);
                }
            }
        }
        ImageOp::CopyImageToBuffer {
            image,
            buffer,
            regions,
            ..
        } => {
            let d = desc(*image);
            // `D24_UNORM_S8_UINT`'s depth is copied as 32 bits with the 24
            // bits of depth in the low ones; the high 8 are undefined on
            // the way to a buffer ("Depth/Stencil Formats" under copies).
            let d24 = d.format.name() == "D24_UNORM_S8_UINT";
            for c in regions {
                let a = one_aspect(c.subresource);
                let (brows, len) = buffer_rows(d, a, c);
                let irows = image_rows(d, a, c.subresource, c.offset, c.extent);
                for (b, i) in brows.into_iter().zip(irows) {
                    store.copy((*image, i), (*buffer, b), len);
                    if d24 && a == Aspect::Depth {
                        for t in (b..b + len).step_by(4) {
                            store.write(
                                Region {
                                    object: *buffer,
                                    range: ByteRange::new(t + 3, t + 4),
                                },
                                &[None],
                            );
                        }
                    }
                }
            }
        }
        ImageOp::CopyImage { src, dst, regions } => {
            let (s, t) = (desc(src.0), desc(dst.0));
            // A copy between a compressed and an uncompressed format of
            // one block size (size-compatible; others the model refuses,
            // VUID-vkCmdCopyImage-srcImage-01548): not computed here.
            let compatible = s.format.info().block == t.format.info().block
                && regions.iter().all(|r| {
                    s.format.block_bytes(one_aspect(r.src_subresource))
                        == t.format.block_bytes(one_aspect(r.dst_subresource))
                });
            if !compatible {
                return undefine(store);
            }
            for r in regions {
                let (sa, ta) = (one_aspect(r.src_subresource), one_aspect(r.dst_subresource));
                let len = u64::from(r.extent[0].div_ceil(s.format.info().block.0)) * s.format.block_bytes(sa);
                // Between a 3D and a 2D image, depth slices pair with layers
                // (`copy_image_boxes`; the program was checked, so it holds).
                let Ok(((so, se), (to, te))) = crate::ir::image::copy_image_boxes("vkCmdCopyImage", s, t, r)
                else {
                    return undefine(store);
                };
                let srows = image_rows(s, sa, r.src_subresource, so, se);
                let trows = image_rows(t, ta, r.dst_subresource, to, te);
                for (i, j) in srows.into_iter().zip(trows) {
                    store.copy((src.0, i), (dst.0, j), len);
                }
            }
        }
        ImageOp::BlitImage {
            src,
            dst,
            regions,
            filter,
        } => {
            let (s, t) = (desc(src.0), desc(dst.0));
            // Only an equal-size NEAREST blit of one format is exact (each
            // destination texel's center falls on one source texel's
            // center, mirrored or not); scaling rounds in ways the
            // implementation chooses, and so may a LINEAR or CUBIC
            // filter's weights ("allowable rounding errors in the
            // generation of the source texture coordinates").
            let exact = *filter == crate::ir::image::Filter::Nearest
                && s.format == t.format
                && s.format.info().block == (1, 1)
                && regions.iter().all(|r| {
                    (0..3).all(|i| {
                        r.src_offsets[0][i].abs_diff(r.src_offsets[1][i])
                            == r.dst_offsets[0][i].abs_diff(r.dst_offsets[1][i])
                    })
                });
            if !exact {
                return undefine(store);
            }
            // Every region is read before any is written: regions of one
            // blit may not overlap their own destination anyway
            // (VUID-vkCmdBlitImage-pRegions-00217).
            for r in regions {
                blit_equal(store, s, t, src.0, dst.0, r);
            }
        }
        ImageOp::ResolveImage { .. } => undefine(store),
        ImageOp::ClearColorImage { .. } | ImageOp::ClearDepthStencilImage { .. } => {
            for r in written {
                store.write(*r, &vec![Some(0); r.range.len() as usize]);
            }
        }
    }
}

/// An equal-size, one-format blit region, texel by texel: along each axis
/// the source is walked backwards when exactly one of the two boxes has
/// its corners in decreasing order (a mirror).
fn blit_equal(
    store: &mut Store,
    s: &ImageDesc,
    t: &ImageDesc,
    src: ObjectId,
    dst: ObjectId,
    r: &crate::ir::image::ImageBlitRegion,
) {
    let a = one_aspect(r.src_subresource);
    let bs = s.format.block_bytes(a);
    let lo = |o: [[u32; 3]; 2], i: usize| o[0][i].min(o[1][i]);
    let n: Vec<u32> = (0..3)
        .map(|i| r.src_offsets[0][i].abs_diff(r.src_offsets[1][i]))
        .collect();
    let flip: Vec<bool> = (0..3)
        .map(|i| (r.src_offsets[0][i] > r.src_offsets[1][i]) != (r.dst_offsets[0][i] > r.dst_offsets[1][i]))
        .collect();
    let layers = r
        .src_subresource
        .layer_count
        .unwrap_or(s.layers - r.src_subresource.base_layer);
    let at = |d: &ImageDesc, mip: u32, layer: u32, x: u32, y: u32, z: u32| {
        let e = d.mip_extent(mip);
        d.subresource_offset(a, mip, layer)
            + (u64::from(z) * u64::from(e[1]) + u64::from(y)) * d.row_stride(a, mip)
            + u64::from(x) * bs
    };
    let src_of = |i: usize, k: u32| {
        if flip[i] {
            lo(r.src_offsets, i) + n[i] - 1 - k
        } else {
            lo(r.src_offsets, i) + k
        }
    };
    for l in 0..layers {
        for z in 0..n[2] {
            for y in 0..n[1] {
                for x in 0..n[0] {
                    let from = at(
                        s,
                        r.src_subresource.mip,
                        r.src_subresource.base_layer + l,
                        src_of(0, x),
                        src_of(1, y),
                        src_of(2, z),
                    );
                    let to = at(
                        t,
                        r.dst_subresource.mip,
                        r.dst_subresource.base_layer + l,
                        lo(r.dst_offsets, 0) + x,
                        lo(r.dst_offsets, 1) + y,
                        lo(r.dst_offsets, 2) + z,
                    );
                    store.copy((src, from), (dst, to), bs);
                }
            }
        }
    }
}

/// The order in which the reference runs `program`'s commands (indices of
/// `program`): the trace's, except that a host access recorded after a
/// command it runs before (an [`crate::ir::execution::OrderNote`]) runs
/// ahead of it, as `vkQueueSubmit`'s first scope has it. The order is
/// `host_accesses_first`'s, the one the planners apply, so a plan and its
/// input run the same way here.
fn execution_order(program: &Program, layout: &Layout) -> Vec<usize> {
    host_accesses_first(program, layout).unwrap_or_else(|| (0..program.commands.len()).collect())
}

/// Runs a well-formed program (see [`crate::ir::layout::resolve`]) in the
/// order it executes (`execution_order`: trace order, with each host
/// access that has an order note ahead of the unsubmitted commands it runs
/// before) and returns what each host read saw, in that order (host
/// operations keep their trace order, so it is the reads' trace order).
pub fn run(program: &Program) -> Result<Vec<Readback>, ReferenceError> {
    let mut store = Store::new(program)?;
    let mut out = Vec::new();
    for ci in execution_order(program, &store.layout) {
        step(program, &mut store, ci, &program.commands[ci], &mut out)?;
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
/// command that ran before the read and changed it, in the order
/// [`run`] runs them (`execution_order`). For telling
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
    let order = execution_order(program, &store.layout);
    for ci in order.into_iter().take_while(|&ci| ci != read) {
        step(program, &mut store, ci, &program.commands[ci], &mut out)?;
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
        // to be preserved"), so its texels become undefined. An event's
        // transitions are performed at its `vkCmdSetEvent2`, or at its
        // `vkCmdWaitEvents` (`docs/semantics.md`, "Events").
        Command::Barrier(dep)
        | Command::SetEvent { dependency: dep, .. }
        | Command::WaitEvents1 { dependency: dep, .. } => {
            for b in &dep.barriers {
                if let (Some(ib), Some(r)) = (b.image.and_then(|i| program.image_barrier(i)), b.region) {
                    if b.transition && ib.old_layout == ImageLayout::UNDEFINED {
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
        | Command::WaitEvents { .. }
        | Command::SetEvent1 { .. }
        | Command::ResetEvent { .. }
        | Command::HostSetEvent { .. }
        | Command::HostResetEvent { .. } => {}
        Command::Copy { src, dst } => {
            let data = store.read(*src);
            store.write(*dst, &data);
        }
        // A coarse copy names bytes of a `buffer`-declared image, not
        // texels: what it leaves is unknown here.
        Command::CopyImage { dst, .. } => {
            store.write(*dst, &vec![None; dst.range.len() as usize]);
        }
        Command::Image(ic) => {
            let written: Vec<Region> = ic
                .accesses()
                .iter()
                .filter(|(_, sa)| sa.is_write())
                .map(|(r, _)| *r)
                .collect();
            image_step(program, store, &ic.op, &written);
        }
        Command::Render(rc) => {
            let mut open = store.open.take();
            render_step(program, store, &mut open, rc);
            store.open = open;
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
            // Equal views: texel `i` of each is word `i` of its bytes.
            k.image_views(program, bindings).map_err(err)?;
            let inputs: Vec<Vec<Option<u8>>> = bindings
                .iter()
                .filter(|b| !matches!(b.access, BindingAccess::Write | BindingAccess::ImageWrite))
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

// ---------------------------------------------------------------------------
// Rendering: the `rect` vertex kernel and the `flat` fragment kernel.
// ---------------------------------------------------------------------------

/// Bytes of one `rect` record, the per-instance vertex data of a draw:
/// four little-endian words `x0 | y0 << 8 | x1 << 16 | y1 << 24`, the depth
/// numerator, the value, and one unused word.
pub const RECT_RECORD_BYTES: u64 = 16;

/// One rectangle as the `rect` vertex kernel reads it from its record
/// ([`RECT_RECORD_BYTES`]): pixels `x0..x1` by `y0..y1` (each coordinate a
/// byte, so attachments up to 256 pixels wide and high are covered; an
/// empty range draws nothing), at depth `depth / 65536` (the low 16 bits
/// of word 1: exact in `f32` and in `D32_SFLOAT`), of value `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// First column.
    pub x0: u32,
    /// First row.
    pub y0: u32,
    /// Column past the last.
    pub x1: u32,
    /// Row past the last.
    pub y1: u32,
    /// The depth numerator (of 65536).
    pub depth: u32,
    /// What the `flat` fragment kernel writes.
    pub value: u32,
}

impl Rect {
    /// The rectangle of a record's words.
    pub fn decode(words: [u32; 4]) -> Rect {
        let c = words[0];
        Rect {
            x0: c & 0xff,
            y0: (c >> 8) & 0xff,
            x1: (c >> 16) & 0xff,
            y1: c >> 24,
            depth: words[1] & 0xffff,
            value: words[2],
        }
    }

    /// The record of a rectangle (the unused word zero); coordinates are
    /// cut to a byte and the depth to 16 bits, as [`Rect::decode`] reads
    /// them.
    pub fn encode(self) -> [u32; 4] {
        [
            (self.x0 & 0xff) | (self.y0 & 0xff) << 8 | (self.x1 & 0xff) << 16 | (self.y1 & 0xff) << 24,
            self.depth & 0xffff,
            self.value,
            0,
        ]
    }

    /// Its depth as the attachment stores it.
    pub fn depth_f32(self) -> f32 {
        self.depth as f32 / 65536.0
    }
}

/// Why a rendering instance or a draw is not one the `rect` and `flat`
/// kernels run (the CPU reference then leaves what it writes undefined;
/// the runtime refuses it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// Refused with "color attachment {index} is {format}: the `flat` fragment kernel writes R32_UINT attachments only".
    #[error(
        "color attachment {index} is {format}: the `flat` fragment kernel writes R32_UINT attachments only"
    )]
    ColorFormat {
        /// The attachment's index.
        index: usize,
        /// Its image's format.
        format: &'static str,
    },
    /// Refused with "the depth attachment is {format}: the rect kernels test D32_SFLOAT depth only".
    #[error("the depth attachment is {format}: the rect kernels test D32_SFLOAT depth only")]
    DepthFormat {
        /// Its image's format.
        format: &'static str,
    },
    /// Refused with "a renderArea, layerCount or viewMask: ...".
    #[error(
        "a renderArea, layerCount or viewMask: the rect kernels draw into whole single-layer views only"
    )]
    Area,
    /// Refused with "more than {max} color attachments".
    #[error("{count} color attachments: the `flat` fragment kernel writes at most {max}")]
    TooManyColors {
        /// How many.
        count: usize,
        /// The most.
        max: usize,
    },
    /// Refused with "attachment {index}: {reason}".
    #[error("attachment {index}: {reason}")]
    Attachment {
        /// The attachment's index (the depth attachment after the colors).
        index: usize,
        /// What is wrong.
        reason: &'static str,
    },
    /// Refused with "the draw's state is not what the `rect` vertex kernel takes: {reason}".
    #[error("the draw's state is not what the `rect` vertex kernel takes: {reason}")]
    State {
        /// What is wrong.
        reason: &'static str,
    },
}

/// The most color attachments the `flat` fragment kernel writes (one
/// output location each).
pub const MAX_RECT_COLORS: usize = 4;

/// One attachment of a rendering instance the rect kernels draw to: the
/// view (one mip level, one layer) and its notional bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RectAttachment {
    /// The view (its extent is the render area's).
    pub view: ImageView,
    /// Where its texels are in the image's notional bytes (4 a texel,
    /// row-major).
    pub region: Region,
}

/// A rendering instance the rect kernels draw to: its render area (every
/// attachment's extent) and attachments in [`Rendering`] order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RectTarget {
    /// Width and height.
    pub extent: [u32; 2],
    /// The color attachments (`R32_UINT`).
    pub colors: Vec<RectAttachment>,
    /// The depth attachment (`D32_SFLOAT`).
    pub depth: Option<RectAttachment>,
}

/// The render target of a `begin-rendering` that the rect kernels can
/// draw to: at most [`MAX_RECT_COLORS`] `R32_UINT` color attachments and
/// an optional `D32_SFLOAT` depth attachment, each one layer, all of one
/// extent, no resolve, no `loadOp` `NONE` (it needs
/// `VK_KHR_load_store_op_none`). Invariant: `program` resolved.
pub fn rect_target(program: &Program, rendering: &Rendering) -> Result<RectTarget, DrawError> {
    if rendering.render_area.is_some() || rendering.layer_count.is_some() || rendering.view_mask != 0 {
        return Err(DrawError::Area);
    }
    if rendering.colors.len() > MAX_RECT_COLORS {
        return Err(DrawError::TooManyColors {
            count: rendering.colors.len(),
            max: MAX_RECT_COLORS,
        });
    }
    let mut extent = None;
    let mut view = |index: usize, a: &Attachment, aspect: Aspect| -> Result<RectAttachment, DrawError> {
        let bad = |reason| Err(DrawError::Attachment { index, reason });
        let Some(desc) = program.image(a.image) else {
            return bad("not an image");
        };
        if a.resolve.is_some() {
            return bad("a resolve needs a multisampled attachment; the runtime's images are single-sample");
        }
        if a.load == LoadOp::None {
            return bad("loadOp NONE needs VK_KHR_load_store_op_none, which the runtime does not enable");
        }
        let Ok((_, mip, mips, layer, layers)) = desc.resolve_range(a.range) else {
            return bad("its subresource range is not in the image");
        };
        if mips != 1 || layers != 1 || desc.extent[2] != 1 {
            return bad("the rect kernels draw to one layer of one mip level of a 2D image");
        }
        let e = desc.mip_extent(mip);
        if *extent.get_or_insert([e[0], e[1]]) != [e[0], e[1]] {
            return bad(
                "the attachments differ in extent (the render area is every attachment's whole view)",
            );
        }
        let start = desc.subresource_offset(aspect, mip, layer);
        Ok(RectAttachment {
            view: ImageView {
                image: a.image,
                mip,
                base_layer: layer,
                layers: 1,
                extent: [e[0], e[1]],
            },
            region: Region {
                object: a.image,
                range: ByteRange::new(start, start + u64::from(e[0]) * u64::from(e[1]) * 4),
            },
        })
    };
    let mut colors = Vec::with_capacity(rendering.colors.len());
    for (index, a) in rendering.colors.iter().enumerate() {
        let format = program.image(a.image).map_or("?", |d| d.format.name());
        if format != "R32_UINT" {
            return Err(DrawError::ColorFormat { index, format });
        }
        colors.push(view(index, a, Aspect::Color)?);
    }
    let depth = match &rendering.depth {
        Some(a) => {
            let format = program.image(a.image).map_or("?", |d| d.format.name());
            if format != "D32_SFLOAT" {
                return Err(DrawError::DepthFormat { format });
            }
            Some(view(rendering.colors.len(), a, Aspect::Depth)?)
        }
        None => None,
    };
    Ok(RectTarget {
        extent: extent.unwrap_or([0, 0]),
        colors,
        depth,
    })
}

/// The state a draw must have for the rect kernels: one per-instance
/// vertex binding (`instance BUF OFFSET STRIDE`, offset a multiple of 4,
/// stride a multiple of 4 of at least [`RECT_RECORD_BYTES`]), no
/// descriptor bindings, no blending (the `R32_UINT` attachments are
/// integer: integer formats do not blend), `u16` or `u32` indices (`u8`
/// needs `VK_KHR_index_type_uint8`) and no count buffer (it needs the
/// `drawIndirectCount` feature, which the runtime does not enable).
/// Returns the vertex binding.
pub fn rect_draw(draw: &Draw) -> Result<VertexBuffer, DrawError> {
    let bad = |reason| Err(DrawError::State { reason });
    let [vb] = draw.vertex.as_slice() else {
        return bad("it reads one vertex binding, `instance BUF OFFSET STRIDE`");
    };
    if vb.rate != VertexRate::Instance {
        return bad("its vertex binding is per instance (`instance`, not `vertex`)");
    }
    if vb.stride < RECT_RECORD_BYTES || vb.stride % 4 != 0 || vb.offset % 4 != 0 {
        return bad("its binding's offset is a multiple of 4 and its stride a multiple of 4 of at least 16");
    }
    if !draw.bindings.is_empty() {
        return bad("the kernels bind no descriptors (`vs`, `fs`)");
    }
    if draw.blend {
        return bad("blending: the R32_UINT attachments are integer, and integer formats do not blend");
    }
    if draw.index.is_some_and(|i| i.index_type == IndexType::U8) {
        return bad("u8 indices need VK_KHR_index_type_uint8");
    }
    if matches!(draw.kind, DrawKind::IndirectCount { .. }) {
        return bad(
            "draw-indirect-count needs the drawIndirectCount feature, which the runtime does not enable",
        );
    }
    Ok(*vb)
}

/// The open rendering instance of a run of the reference.
struct Open {
    /// Its target, or `None` when the rect kernels do not draw to it.
    target: Option<RectTarget>,
    /// The begin's store operations (colors, then depth).
    stores: Vec<StoreOp>,
    /// Whether each attachment (same order) may have been written.
    written: Vec<bool>,
    /// The open segment was begun `suspending`: its end keeps the
    /// instance open for the resuming begin after it.
    suspends: bool,
}

/// A little-endian word of `bytes` at `at`, `None` where undefined or out
/// of bounds.
fn word_at(bytes: &[Option<u8>], at: u64) -> Option<u32> {
    let at = usize::try_from(at).ok()?;
    let w = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([w[0]?, w[1]?, w[2]?, w[3]?]))
}

/// The parameters of one direct draw (`vkCmdDraw`, `vkCmdDrawIndexed`
/// with `vertexOffset`, or one indirect record).
#[derive(Clone, Copy)]
struct Direct {
    /// `vertexCount` or `indexCount`.
    count: u32,
    /// `firstVertex` or `firstIndex`.
    first: u32,
    /// `vertexOffset` (0 for a non-indexed draw).
    vertex_offset: i32,
    first_instance: u32,
    instance_count: u32,
}

/// One direct draw: the rectangles it draws, in primitive order, or
/// `None` when that is not defined (undefined vertex data, indices or
/// records past their buffer: robust buffer access is not enabled).
/// Each instance draws its record's rectangle once if any of its
/// triangles has three distinct corners (vertex indices distinct modulo
/// 3): the `rect` kernel's triangle covers the rectangle whole, and
/// drawing it again changes nothing.
fn rects_of(program: &Program, store: &Store, draw: &Draw, vb: VertexBuffer, p: Direct) -> Option<Vec<Rect>> {
    let Direct {
        count,
        first,
        vertex_offset,
        first_instance,
        instance_count,
    } = p;
    let drawn = match draw.index {
        Some(ib) if draw.kind.indexed() => {
            let size = ib.index_type.size();
            let len = object_size(program, ib.buffer);
            let start = ib.offset + u64::from(first) * size;
            let end = start + u64::from(count) * size;
            if end > len {
                return None;
            }
            let bytes = store.read(Region {
                object: ib.buffer,
                range: ByteRange::new(start, end),
            });
            let mut any = false;
            for t in 0..(count / 3) as usize {
                let mut corners = [0u32; 3];
                for (k, c) in corners.iter_mut().enumerate() {
                    let at = (t * 3 + k) * size as usize;
                    let i = match ib.index_type {
                        IndexType::U16 => u32::from(u16::from_le_bytes([bytes[at]?, bytes[at + 1]?])),
                        _ => word_at(&bytes, at as u64)?,
                    };
                    *c = i.wrapping_add(vertex_offset as u32) % 3;
                }
                any |= corners[0] != corners[1] && corners[1] != corners[2] && corners[0] != corners[2];
            }
            any
        }
        _ => count >= 3,
    };
    if !drawn || instance_count == 0 {
        return Some(Vec::new());
    }
    let len = object_size(program, vb.buffer);
    let start = vb.offset + u64::from(first_instance) * vb.stride;
    let end = start + u64::from(instance_count - 1) * vb.stride + RECT_RECORD_BYTES;
    if end > len {
        return None;
    }
    let bytes = store.read(Region {
        object: vb.buffer,
        range: ByteRange::new(start, end),
    });
    (0..u64::from(instance_count))
        .map(|i| {
            let at = i * vb.stride;
            let w = [
                word_at(&bytes, at)?,
                word_at(&bytes, at + 4)?,
                word_at(&bytes, at + 8)?,
                word_at(&bytes, at + 12).unwrap_or(0),
            ];
            Some(Rect::decode(w))
        })
        .collect()
}

/// The size of an object.
fn object_size(program: &Program, object: ObjectId) -> u64 {
    program.object(object).map_or(0, |o| o.size)
}

/// The rectangles of a draw in primitive order (indirect records read from
/// the store), or `None` when not defined.
fn draw_rects(program: &Program, store: &Store, draw: &Draw, vb: VertexBuffer) -> Option<Vec<Rect>> {
    match draw.kind {
        DrawKind::Draw {
            vertex_count,
            instance_count,
            first_vertex,
            first_instance,
        } => rects_of(
            program,
            store,
            draw,
            vb,
            Direct {
                count: vertex_count,
                first: first_vertex,
                vertex_offset: 0,
                first_instance,
                instance_count,
            },
        ),
        DrawKind::DrawIndexed {
            index_count,
            instance_count,
            first_index,
            first_instance,
        } => rects_of(
            program,
            store,
            draw,
            vb,
            Direct {
                count: index_count,
                first: first_index,
                vertex_offset: 0,
                first_instance,
                instance_count,
            },
        ),
        DrawKind::Indirect {
            indexed,
            buffer,
            offset,
            draw_count,
            stride,
        } => {
            let words = if indexed { 5 } else { 4 };
            let len = object_size(program, buffer);
            let mut out = Vec::new();
            for d in 0..u64::from(draw_count) {
                let at = offset + d * u64::from(stride);
                if at + words * 4 > len {
                    return None;
                }
                let b = store.read(Region {
                    object: buffer,
                    range: ByteRange::new(at, at + words * 4),
                });
                let w: Vec<u32> = (0..words).map(|k| word_at(&b, k * 4)).collect::<Option<_>>()?;
                let rects = if indexed {
                    rects_of(
                        program,
                        store,
                        draw,
                        vb,
                        Direct {
                            count: w[0],
                            first: w[2],
                            vertex_offset: w[3] as i32,
                            first_instance: w[4],
                            instance_count: w[1],
                        },
                    )?
                } else {
                    rects_of(
                        program,
                        store,
                        draw,
                        vb,
                        Direct {
                            count: w[0],
                            first: w[2],
                            vertex_offset: 0,
                            first_instance: w[3],
                            instance_count: w[1],
                        },
                    )?
                };
                out.extend(rects);
            }
            Some(out)
        }
        DrawKind::IndirectCount { .. } => None,
    }
}

/// Rasterizes a draw's rectangles into `target` ("Rasterization": a
/// fragment for each pixel whose center, at half-integer coordinates, is
/// inside the primitive; the `flat` kernel discards those outside the
/// rectangle, so a rectangle covers exactly the pixels `x0..x1` by
/// `y0..y1`, whatever rule breaks ties on the triangle's edges). Depth
/// test `GREATER` against the stored depth (`depthTestEnable`; written
/// with `depthWriteEnable`; without a depth attachment the test passes),
/// then the value to every color attachment (with a nonzero
/// `colorWriteMask`); primitives in order ("Rasterization Order").
/// `rects` `None`: every attachment the draw may write becomes undefined.
fn raster(store: &mut Store, target: &RectTarget, draw: &Draw, rects: Option<Vec<Rect>>) {
    let color_write = draw.color_write && !target.colors.is_empty();
    let depth_test = draw.depth_test && target.depth.is_some();
    let depth_write = depth_test && draw.depth_write;
    let mut colors: Vec<Vec<Option<u8>>> = if color_write {
        target.colors.iter().map(|a| store.read(a.region)).collect()
    } else {
        Vec::new()
    };
    let mut depth: Option<Vec<Option<u8>>> =
        target.depth.filter(|_| depth_test).map(|a| store.read(a.region));
    let [w, h] = target.extent;
    match rects {
        None => {
            colors
                .iter_mut()
                .for_each(|c| c.iter_mut().for_each(|b| *b = None));
            if depth_write {
                if let Some(d) = depth.as_mut() {
                    d.iter_mut().for_each(|b| *b = None);
                }
            }
        }
        Some(rects) => {
            for r in rects {
                let z = r.depth_f32();
                for y in r.y0..r.y1.min(h) {
                    for x in r.x0..r.x1.min(w) {
                        let at = ((y * w + x) * 4) as usize;
                        // `None`: the test's outcome is not known.
                        let pass = match depth.as_ref() {
                            Some(d) => word_at(d, at as u64)
                                .map(f32::from_bits)
                                .filter(|s| (0.0..=1.0).contains(s))
                                .map(|s| z > s),
                            None => Some(true),
                        };
                        let put = |bytes: &mut Vec<Option<u8>>, v: Option<u32>, pass: Option<bool>| match pass
                        {
                            Some(true) => {
                                let v = v.map(u32::to_le_bytes);
                                for k in 0..4 {
                                    bytes[at + k] = v.map(|v| v[k]);
                                }
                            }
                            Some(false) => {}
                            None => bytes[at..at + 4].iter_mut().for_each(|b| *b = None),
                        };
                        for c in colors.iter_mut() {
                            put(c, Some(r.value), pass);
                        }
                        if depth_write {
                            if let Some(d) = depth.as_mut() {
                                put(d, Some(z.to_bits()), pass);
                            }
                        }
                    }
                }
            }
        }
    }
    for (a, c) in target.colors.iter().zip(&colors) {
        store.write(a.region, c);
    }
    if let (Some(a), Some(d), true) = (target.depth, &depth, depth_write) {
        store.write(a.region, d);
    }
}

/// Runs a rendering command on `store` (`open` is the instance open at
/// it). A `begin-rendering` the rect kernels draw to applies its load
/// operations ("Load Operations": `CLEAR` to zero, the runtime's clear
/// value for color and depth alike; `DONT_CARE` leaves the render area
/// undefined; `LOAD` keeps it), its draws rasterize ([`raster`]), and its
/// end applies the store operations (`STORE` keeps, `DONT_CARE`
/// undefines; `NONE` keeps an attachment nothing of the instance wrote). Anything else leaves what
/// it writes undefined, as it says in its accesses.
fn render_step(
    program: &Program,
    store: &mut Store,
    open: &mut Option<Open>,
    rc: &crate::ir::render::RenderCommand,
) {
    let undefine_writes = |store: &mut Store| {
        for (r, sa) in rc.accesses() {
            if sa.is_write() {
                store.write(*r, &vec![None; r.range.len() as usize]);
            }
        }
    };
    match &rc.op {
        // Resuming: the suspended instance goes on (no load operations).
        RenderOp::Begin(rendering) if rendering.resuming && open.is_some() => {
            if let Some(o) = open.as_mut() {
                o.suspends = rendering.suspending;
            }
        }
        RenderOp::Begin(rendering) => {
            let attachments: Vec<&Attachment> =
                rendering.colors.iter().chain(rendering.depth.iter()).collect();
            let target = rect_target(program, rendering).ok();
            match &target {
                Some(t) => {
                    for (a, ra) in attachments.iter().zip(t.colors.iter().chain(t.depth.iter())) {
                        match a.load {
                            LoadOp::Clear => {
                                store.write(ra.region, &vec![Some(0); ra.region.range.len() as usize])
                            }
                            LoadOp::DontCare => {
                                store.write(ra.region, &vec![None; ra.region.range.len() as usize])
                            }
                            LoadOp::Load | LoadOp::None => {}
                        }
                    }
                }
                None => undefine_writes(store),
            }
            *open = Some(Open {
                target,
                stores: attachments.iter().map(|a| a.store).collect(),
                // A load operation that writes writes values during the
                // instance: a `NONE` store then undefines as `DONT_CARE`
                // (`crate::ir::render::Kind::store`).
                written: attachments
                    .iter()
                    .map(|a| matches!(a.load, LoadOp::Clear | LoadOp::DontCare))
                    .collect(),
                suspends: rendering.suspending,
            });
        }
        RenderOp::Draw(draw) => {
            let target = open.as_ref().and_then(|o| o.target.clone());
            match (target, rect_draw(draw)) {
                (Some(t), Ok(vb)) => {
                    let rects = draw_rects(program, store, draw, vb);
                    raster(store, &t, draw, rects);
                    if let Some(o) = open.as_mut() {
                        let n = t.colors.len();
                        for (i, w) in o.written.iter_mut().enumerate() {
                            *w |= if i < n {
                                draw.color_write
                            } else {
                                draw.depth_test && draw.depth_write
                            };
                        }
                    }
                }
                _ => {
                    undefine_writes(store);
                    if let Some(o) = open.as_mut() {
                        o.written.iter_mut().for_each(|w| *w = true);
                    }
                }
            }
        }
        // Suspending: no resolve or store operations until it ends for good.
        RenderOp::End if open.as_ref().is_some_and(|o| o.suspends) => {}
        RenderOp::End => match open.take() {
            Some(Open {
                target: Some(t),
                stores,
                written,
                ..
            }) => {
                for ((ra, s), w) in t.colors.iter().chain(t.depth.iter()).zip(stores).zip(written) {
                    if s == StoreOp::DontCare || (s == StoreOp::None && w) {
                        store.write(ra.region, &vec![None; ra.region.range.len() as usize]);
                    }
                }
            }
            _ => undefine_writes(store),
        },
        // Render passes and clears: not computed (the runtime refuses
        // them); what they write becomes undefined.
        RenderOp::BeginPass(_)
        | RenderOp::NextSubpass
        | RenderOp::EndSubpass { .. }
        | RenderOp::EndPass
        | RenderOp::Clear(_) => undefine_writes(store),
    }
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
                    submit\nwait\nhost-read b\nhost-read a\n";
        let t = parse(text).unwrap();
        let w = |command, value| WordChange { command, value };
        // (read, offset, history)
        let cases: Vec<(usize, u64, Vec<WordChange>)> = vec![
            // b: undefined, the host write, the dispatch (2 * 5000 + 6).
            (
                7,
                0,
                vec![w(None, None), w(Some(1), Some(3000)), w(Some(2), Some(10_006))],
            ),
            // a's word 1: the second fill writes the same value, no change.
            (
                8,
                4,
                vec![w(None, None), w(Some(0), Some(5001)), w(Some(3), Some(649))],
            ),
            // Past the end, and a command that is no host read.
            (8, 13, vec![]),
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

    /// A host access recorded after a command not yet submitted runs
    /// before it ("the first synchronization scope [of `vkQueueSubmit`]
    /// includes execution of vkQueueSubmit on the host and anything that
    /// happened-before it"): the reference runs it there, as the planners
    /// order it. Each case: the trace, the words each host read sees.
    #[test]
    fn host_accesses_run_before_unsubmitted_commands() {
        // The words of each host read, in order.
        type Reads = Vec<Vec<Option<u32>>>;
        let cases: &[(&str, &str, Reads)] = &[
            (
                "a host write after an unsubmitted copy of its bytes: the copy sees the new value",
                "buffer a 8\nbuffer b 8\nhost-write a 1\ncopy a -> b\nhost-write a 7\nsubmit\nwait\nhost-read b\n",
                vec![vec![Some(7), Some(8)]],
            ),
            (
                "a host read after an unsubmitted fill: the old value",
                "buffer a 8\nhost-write a 1\nsubmit\nwait\nfill a 5\nhost-read a\nsubmit\nwait\nhost-read a\n",
                vec![vec![Some(1), Some(2)], vec![Some(5), Some(5)]],
            ),
            (
                "a host read after an unsubmitted fill, never submitted: the old value",
                "buffer a 8\nhost-write a 1\nsubmit\nwait\nfill a 5\nhost-read a\n",
                vec![vec![Some(1), Some(2)]],
            ),
            (
                "host accesses keep their own order; only the noted ones' segment moves",
                "buffer a 8\nbuffer b 8\nhost-write a 1\nsubmit\nwait\ndispatch scale(2) rw a\n\
                 host-read a\nhost-write a 10\nhost-read a\nsubmit\nwait\nhost-read a\n",
                vec![
                    vec![Some(1), Some(2)],
                    vec![Some(10), Some(11)],
                    vec![Some(20), Some(22)],
                ],
            ),
            (
                "a host read after a submit and wait sees the device's work",
                "buffer a 8\nfill a 3\nsubmit\nwait\nhost-read a\n",
                vec![vec![Some(3), Some(3)]],
            ),
        ];
        for (what, text, want) in cases {
            let got: Vec<Vec<Option<u32>>> = reads(text).iter().map(|r| words(r)).collect();
            assert_eq!(&got, want, "{what}");
        }
    }

    #[test]
    fn kernels_compute_in_wrapping_u32() {
        let r = reads(
            "buffer a 8\nbuffer b 8\nbuffer c 8\nhost-write a 0xfffffffe\n\
             dispatch scale_add(2,5) read a write b\ndispatch add read a read b write c\n\
             dispatch scale(3) rw c\nsubmit\nwait\nhost-read b\nhost-read c\n",
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
             alloc y 64 from p\nhost-read y[0..4]\nfill a 1\nfill v[0..4] 9\nsubmit\nwait\nhost-read a[16..24]\n",
        );
        assert_eq!(r[0], vec![None; 4]);
        assert_eq!(words(&r[1]), vec![Some(9), Some(1)]);
    }

    #[test]
    fn blobs_share_their_pools_bytes() {
        // A blob is bytes of its pool: a write through either is seen
        // through the other.
        let r = reads("pool p 256\nalloc x 64 from p\nfill x 7\nsubmit\nwait\nhost-read p[0..4]\nfill p[0..64] 5\nsubmit\nwait\nhost-read x[0..4]\n");
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

    /// An image `t` (R32_UINT 4x2, 2 layers, its own memory) moved to
    /// `GENERAL`, staging `s` holding words 100, 101, ..., and `d` for
    /// reading back.
    const IMG: &str =
        "buffer s 128\nbuffer d 128\nimage t R32_UINT 4x2 layers 2\nimage u R32_UINT 4x2 layers 2\nimage b R8G8B8A8_UINT 4x2\n\
        barrier NONE:NONE -> NONE:NONE b COLOR:0:0 UNDEFINED->GENERAL\n\
        barrier NONE:NONE -> NONE:NONE t COLOR:0:0.. UNDEFINED->GENERAL\n\
        barrier NONE:NONE -> NONE:NONE u COLOR:0:0.. UNDEFINED->GENERAL\nhost-write s 100\n";

    /// Image commands, texel by texel: (commands after `IMG`, the words
    /// the last host read sees; `None` where undefined).
    #[test]
    fn image_commands_move_texels() {
        let up = "copy-buffer-to-image s -> t GENERAL imageSubresource=COLOR:0:0..2 imageExtent=4,2,1\n";
        let n = None;
        let cases: Vec<(String, Vec<Option<u32>>)> = vec![
            // Up and down again, tightly packed: the same words.
            (
                format!("{up}copy-image-to-buffer t GENERAL -> d imageSubresource=COLOR:0:0 imageExtent=4,2,1\nsubmit\nwait\nhost-read d[0..32]\n"),
                (100..108).map(Some).collect(),
            ),
            // bufferRowLength 5: the buffer's rows are 5 texels apart, and
            // layer 1 follows at 5 * 2 texels (bufferImageHeight 0 = the height).
            (
                "copy-buffer-to-image s -> t GENERAL bufferRowLength=5 imageSubresource=COLOR:0:0..2 imageExtent=4,2,1\n\
                 copy-image-to-buffer t GENERAL -> d imageSubresource=COLOR:0:1 imageExtent=4,2,1\nsubmit\nwait\nhost-read d[0..32]\n"
                    .to_string(),
                vec![110, 111, 112, 113, 115, 116, 117, 118].into_iter().map(Some).collect(),
            ),
            // A 2x1 rectangle at (1, 1) read back with bufferImageHeight 3 and
            // bufferOffset 8 into a zero-filled buffer.
            (
                format!("{up}fill d 0\ncopy-image-to-buffer t GENERAL -> d bufferOffset=8 imageSubresource=COLOR:0:0 imageOffset=1,1,0 imageExtent=2,1,1\nsubmit\nwait\nhost-read d[0..20]\n"),
                vec![Some(0), Some(0), Some(105), Some(106), Some(0)],
            ),
            // copy-image from layer 1 of t to layer 0 of u, offset by one texel.
            (
                format!("{up}copy-image t GENERAL -> u GENERAL srcSubresource=COLOR:0:1 dstSubresource=COLOR:0:0 dstOffset=1,0,0 extent=3,2,1\n\
                         copy-image-to-buffer u GENERAL -> d imageSubresource=COLOR:0:0 imageExtent=4,2,1\nsubmit\nwait\nhost-read d[0..32]\n"),
                vec![n, Some(108), Some(109), Some(110), n, Some(112), Some(113), Some(114)],
            ),
            // An equal-size blit mirrored along x; a scaled one is undefined.
            (
                format!("{up}blit-image t GENERAL -> u GENERAL srcSubresource=COLOR:0:0 srcOffsets=0,0,0:4,2,1 dstSubresource=COLOR:0:0 dstOffsets=4,0,0:0,2,1\n\
                         copy-image-to-buffer u GENERAL -> d imageSubresource=COLOR:0:0 imageExtent=4,2,1\nsubmit\nwait\nhost-read d[0..32]\n"),
                vec![103, 102, 101, 100, 107, 106, 105, 104].into_iter().map(Some).collect(),
            ),
            (
                format!("{up}copy-image t GENERAL -> u GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 extent=4,2,1\n\
                         blit-image t GENERAL -> u GENERAL srcSubresource=COLOR:0:0 srcOffsets=0,0,0:2,2,1 dstSubresource=COLOR:0:0 dstOffsets=0,0,0:1,1,1\n\
                         copy-image-to-buffer u GENERAL -> d imageSubresource=COLOR:0:0 imageExtent=4,1,1\nsubmit\nwait\nhost-read d[0..16]\n"),
                vec![n, Some(101), Some(102), Some(103)],
            ),
            // Two size-compatible formats (texel blocks of 4 bytes): the
            // bytes move as they are.
            (
                format!("{up}fill d 0\ncopy-image t GENERAL -> b GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 extent=2,2,1\n\
                         copy-image-to-buffer b GENERAL -> d imageSubresource=COLOR:0:0 imageExtent=4,1,1\nsubmit\nwait\nhost-read d[0..8]\n"),
                vec![Some(100), Some(101)],
            ),
            // A clear writes zeros; a transition from UNDEFINED discards.
            (
                format!("{up}clear-color-image t GENERAL COLOR:0:1\n\
                         copy-image-to-buffer t GENERAL -> d imageSubresource=COLOR:0:0..2 imageExtent=4,1,1\nsubmit\nwait\nhost-read d[0..32]\n"),
                vec![100, 101, 102, 103, 0, 0, 0, 0].into_iter().map(Some).collect(),
            ),
            (
                format!("{up}barrier NONE:NONE -> NONE:NONE t COLOR:0:1 UNDEFINED->GENERAL\n\
                         copy-image-to-buffer t GENERAL -> d imageSubresource=COLOR:0:0..2 imageExtent=4,1,1\nsubmit\nwait\nhost-read d[0..32]\n"),
                vec![Some(100), Some(101), Some(102), Some(103), n, n, n, n],
            ),
            // The image kernels, texel by texel over equal views.
            (
                format!("{up}dispatch image_scale_add(2,1) image-read t COLOR:0:0.. image-write u COLOR:0:0..\n\
                         copy-image-to-buffer u GENERAL -> d imageSubresource=COLOR:0:1 imageExtent=4,2,1\nsubmit\nwait\nhost-read d[0..32]\n"),
                (108..116).map(|x| Some(x * 2 + 1)).collect(),
            ),
            (
                format!("{up}dispatch image_slow(3) image-read t COLOR:0:1 image-write u COLOR:0:0\n\
                         copy-image-to-buffer u GENERAL -> d imageSubresource=COLOR:0:0 imageExtent=1,1,1\nsubmit\nwait\nhost-read d[0..4]\n"),
                vec![Some(Kernel::Slow { iters: 3 }.apply(&[108]))],
            ),
        ];
        for (tail, want) in cases {
            let r = reads(&format!("{IMG}{tail}"));
            assert_eq!(words(r.last().expect("a host read")), want, "{tail}");
        }
    }

    /// An optimal image's texels are its own: a write through an object
    /// that shares its memory leaves all of them undefined, and a write
    /// through the image leaves that memory undefined.
    #[test]
    fn images_sharing_memory_lose_their_contents() {
        let head = "buffer m 64\nbuffer s 64\nbuffer d 64\nimage t R32_UINT 2x2 alias m 16\n\
                    barrier NONE:NONE -> NONE:NONE t COLOR:0:0 UNDEFINED->GENERAL\nhost-write s 7\nfill m 5\n\
                    copy-buffer-to-image s -> t GENERAL imageSubresource=COLOR:0:0 imageExtent=2,2,1\n";
        let down = "copy-image-to-buffer t GENERAL -> d imageSubresource=COLOR:0:0 imageExtent=2,2,1\nsubmit\nwait\nhost-read d[0..16]\n";
        let cases: Vec<(String, Vec<Option<u32>>)> = vec![
            (down.to_string(), (7..11).map(Some).collect()),
            // Bytes of m outside the image's binding: the image keeps its texels.
            (format!("fill m[0..16] 9\n{down}"), (7..11).map(Some).collect()),
            (format!("fill m[28..32] 9\n{down}"), vec![None; 4]),
            // The image's memory seen through m after the upload.
            (
                "submit\nwait\nhost-read m[12..24]\n".to_string(),
                vec![Some(5), None, None],
            ),
        ];
        for (tail, want) in cases {
            let r = reads(&format!("{head}{tail}"));
            assert_eq!(words(r.last().expect("a host read")), want, "{tail}");
        }
    }

    /// An image kernel's views: (dispatch, error).
    #[test]
    fn image_kernels_take_equal_r32_uint_views() {
        let head = "buffer s 64\nimage t R32_UINT 4x4 mips 2 layers 2\nimage r R8G8B8A8_UNORM 4x4\nimage v R32_UINT 4x4 layers 2\n\
                    barrier NONE:NONE -> NONE:NONE t COLOR:0..:0.. UNDEFINED->GENERAL\n\
                    barrier NONE:NONE -> NONE:NONE r COLOR:0:0 UNDEFINED->GENERAL\n\
                    barrier NONE:NONE -> NONE:NONE v COLOR:0:0.. UNDEFINED->GENERAL\n";
        let cases: &[(&str, &str)] = &[
            (
                "dispatch image_scale_add image-read r COLOR:0:0 image-write t COLOR:0:0\n",
                "command 3: kernel `image_scale_add` binding 0: image `r` is R8G8B8A8_UNORM, but the shader's storage images are R32_UINT",
            ),
            (
                "dispatch image_scale_add image-read t COLOR:0:1 image-write t COLOR:1:0\n",
                "command 3: kernel `image_scale_add` binding 1 is 16 bytes, but every binding must be 64 bytes (a multiple of 4, all equal)",
            ),
            (
                "dispatch image_slow image-read t COLOR:0:0..2 image-write v COLOR:0..1:0..\n",
                "ok",
            ),
            (
                "dispatch image_slow image-read t COLOR:0..2:0.. image-write t COLOR:0..2:0..\n",
                "command 3: kernel `image_slow` binding 0: a storage image view of `t` COLOR:0..2:0..2 has several mip levels; a storage image view has one (VUID-VkWriteDescriptorSet-descriptorType-00336)",
            ),
            (
                "dispatch image_slow image-read t COLOR:0..2:0.. write s\n",
                "command 3: kernel `image_slow` takes bindings `image-read, image-write`, got `image-read, write`",
            ),
            // A sampled image in any layout its descriptor allows; a
            // storage view where the kernel samples, or several mips, is
            // refused.
            (
                "dispatch image_sampled_scale_add sampled-image t COLOR:1:0..2 GENERAL image-write v COLOR:0:0..2\n",
                "command 3: kernel `image_sampled_scale_add` binding 1 is 128 bytes, but every binding must be 32 bytes (a multiple of 4, all equal)",
            ),
            (
                "dispatch image_sampled_scale_add sampled-image t COLOR:0:0..2 GENERAL image-write v COLOR:0:0..2\n",
                "ok",
            ),
            (
                "dispatch image_sampled_scale_add image-read t COLOR:0:0..2 image-write v COLOR:0:0..2\n",
                "command 3: kernel `image_sampled_scale_add` takes bindings `sampled-image, image-write`, got `image-read, image-write`",
            ),
            (
                "dispatch image_sampled_scale_add sampled-image t COLOR:0..2:0.. GENERAL image-write t COLOR:0..2:0..\n",
                "command 3: kernel `image_sampled_scale_add` binding 0: a sampled image view of `t` COLOR:0..2:0..2 has several mip levels; the kernel fetches from one (its texel i is word i of the view's bytes)",
            ),
        ];
        for (tail, want) in cases {
            let t = parse(&format!("{head}{tail}")).unwrap();
            let got = run(&t.program).map_or_else(|e| e.to_string(), |_| "ok".to_string());
            assert_eq!(got, *want, "{tail}");
        }
    }

    /// The rect and flat kernels on the reference: which pixels a draw
    /// writes, the depth test and the order of draws. `fill r[A..B] V`
    /// makes a record of four words `V`: `x0 = V & 0xff`, `y0`, `x1`,
    /// `y1` the next bytes, depth `(V & 0xffff) / 65536`, value `V`.
    #[test]
    fn draws_rasterize_rectangles() {
        let decls =
            "buffer r 64\nbuffer ib 16\nbuffer out 32\nimage c R32_UINT 4x2\nimage d D32_SFLOAT 4x2\n";
        let head = "barrier NONE:NONE -> ALL_COMMANDS:MEMORY_WRITE c COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL ; NONE:NONE -> ALL_COMMANDS:MEMORY_WRITE d DEPTH:0:0 UNDEFINED->DEPTH_ATTACHMENT_OPTIMAL\n\
                    begin-rendering color c COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE ; depth d DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL CLEAR STORE\n";
        let tail = "end-rendering\n\
                    barrier ALL_COMMANDS:MEMORY_WRITE -> COPY:TRANSFER_READ c COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL->TRANSFER_SRC_OPTIMAL\n\
                    copy-image-to-buffer c TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=4,2,1\nsubmit\nwait\nhost-read out\n";
        let (v, w) = (0x0204_0002u32, 0x0203_0001u32);
        // (the spec's rule, records written before the instance, draws,
        // the color words row by row; `None` where undefined).
        let cases: &[(&str, &str, &str, [Option<u32>; 8])] = &[
            (
                "\"a fragment is produced for each pixel whose sample point (its center) is inside the primitive\": x 0..3, y 1..2",
                "fill r[0..16] 33751296\n",
                "draw vertexCount=3 instance r 0 16\n",
                [Some(0), Some(0), Some(0), Some(0), Some(0x0203_0100), Some(0x0203_0100), Some(0x0203_0100), Some(0)],
            ),
            (
                "GREATER against the depth cleared to 0: depth 0 passes nowhere",
                "fill r[0..16] 33816576\n",
                "draw vertexCount=3 instance r 0 16 depth-test depth-write\n",
                [Some(0); 8],
            ),
            (
                "\"Rasterization Order\": the later draw's nearer fragments over the earlier's; a farther one fails the test",
                "fill r[0..16] 33816578\nfill r[16..32] 33751041\n",
                "draw vertexCount=3 instance r 0 16 depth-test depth-write\ndraw vertexCount=3 instance r 16 16 depth-test depth-write\n",
                [Some(0), Some(w), Some(v), Some(v), Some(0), Some(w), Some(v), Some(v)],
            ),
            (
                "without the depth test the later draw wins",
                "fill r[0..16] 33816578\nfill r[16..32] 33751041\n",
                "draw vertexCount=3 instanceCount=2 instance r 0 16\n",
                [Some(0), Some(w), Some(w), Some(v), Some(0), Some(w), Some(w), Some(v)],
            ),
            (
                "a zero colorWriteMask writes nothing",
                "fill r[0..16] 33816578\n",
                "draw vertexCount=3 instance r 0 16 no-color-write\n",
                [Some(0); 8],
            ),
            (
                "indices 0, 0, 0 make a triangle of one corner: no area, nothing drawn",
                "fill r[0..16] 33816578\nfill ib[0..12] 0\n",
                "draw-indexed indexCount=3 index ib 0 u32 instance r 0 16\n",
                [Some(0); 8],
            ),
            (
                "indices 0, 1, 2: the whole rectangle",
                "fill r[0..16] 33816578\nupdate ib[0..12] 0\n",
                "draw-indexed indexCount=3 index ib 0 u32 instance r 0 16\n",
                [Some(0), Some(0), Some(v), Some(v), Some(0), Some(0), Some(v), Some(v)],
            ),
            (
                "a record the draw reads undefined: what it may write is undefined",
                "",
                "draw vertexCount=3 instance r 48 16\n",
                [None; 8],
            ),
        ];
        for (rule, records, draws, want) in cases {
            let text = format!("{decls}{records}{head}{draws}{tail}");
            let got = words(&reads(&text)[0]);
            assert_eq!(got, want.to_vec(), "{rule}");
        }
        // The state the kernels do not take draws undefined bytes on the
        // reference (and is refused by the runtime).
        let got = words(
            &reads(&format!(
                "{decls}fill r[0..16] 33816578\n{head}draw vertexCount=3 vertex r 0 16\n{tail}"
            ))[0],
        );
        assert_eq!(got, vec![None; 8]);
        assert_eq!(
            Rect::decode([0x0203_0100, 0x0001_0100, 7, 9]),
            Rect {
                x0: 0,
                y0: 1,
                x1: 3,
                y1: 2,
                depth: 0x0100,
                value: 7
            }
        );
        assert_eq!(
            Rect::decode(Rect::decode([v, v, v, 0]).encode()).encode(),
            [v, v & 0xffff, v, 0]
        );
    }

    #[test]
    fn slow_kernel_iterates_the_lcg() {
        assert_eq!(Kernel::Slow { iters: 0 }.apply(&[5]), 5);
        assert_eq!(Kernel::Slow { iters: 1 }.apply(&[1]), 1_664_525 + 1_013_904_223);
        assert_eq!(
            Kernel::from_name("nope", &[]).unwrap_err().to_string(),
            "unknown kernel `nope` (known: scale_add(a,b), add, scale(a), slow(iters), image_scale_add(a,b), image_slow(iters), image_sampled_scale_add(a,b))"
        );
    }
}
