//! Random programs with exact images, for the device suites: uploads
//! (`copy-buffer-to-image`, with padded rows), dispatches of the image
//! kernels (storage images, and sampled images in `GENERAL` or
//! `SHADER_READ_ONLY_OPTIMAL` for `image_sampled_scale_add`), image copies, equal-size blits, clears, and
//! downloads (`copy-image-to-buffer`) into a buffer the host reads at the
//! end, so that a device run is compared with the CPU reference texel for
//! texel.
//!
//! This module owns the image program generator only: the suites are in
//! `tests/device_images.rs`. Every program has three images of one shape
//! (`R32_UINT`, [`ImageShape`]), two staging buffers the host fills first
//! and one readback buffer of four slots; the images have memory of their
//! own (an image bound to a buffer's memory loses its texels to most
//! writes of that buffer in the reference, leaving little to compare).
//! Each image mip level's layout is tracked
//! as the operations are interpreted, and before a use that needs another
//! layout the generator inserts a layout transition with empty scopes
//! (`barrier NONE:NONE -> NONE:NONE IMG COLOR:M:0.. OLD->NEW`): the
//! program carries no synchronization, only what it does, and a planner
//! gives the transitions the scopes they need and plans everything else
//! (`vksync::plan::planning_input` is then the program itself, which is
//! what the suites run as "without barriers"). Copies use `GENERAL` or
//! the `TRANSFER_*_OPTIMAL` layout as each operation says, so programs mix
//! real layout changes with `GENERAL`.
//!
//! Programs are built as trace text and parsed, so a failing case prints
//! as a trace `vksync run` replays. An operation whose text the model
//! rejects (it should not happen: operations are clamped to the shape) is
//! dropped, so every subsequence of operations still builds a valid
//! program and shrinking stays valid.

use proptest::prelude::*;
use std::fmt;
use std::fmt::Write as _;
use vksync::{trace, Program};

/// The shape of every image of a generated program: `R32_UINT`, `width`
/// by `height` texels, `mips` levels of `layers` layers; and the `slow`
/// kernel's rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageShape {
    pub width: u32,
    pub height: u32,
    pub mips: u32,
    pub layers: u32,
    /// `image_slow`'s rounds per texel.
    pub slow_iters: u32,
    /// Whether programs may blit: `vkCmdBlitImage` needs a queue family
    /// with graphics (VUID-vkCmdBlitImage-commandBuffer-cmdpool), which a
    /// dedicated compute family (the H200's) lacks; without, a generated
    /// blit is left out.
    pub blits: bool,
}

impl ImageShape {
    /// Small images for lavapipe: 16x16, 2 mips, 2 layers.
    pub const SMALL: ImageShape = ImageShape {
        width: 16,
        height: 16,
        mips: 2,
        layers: 2,
        slow_iters: 64,
        blits: true,
    };

    /// [`ImageShape::SMALL`] unless `VKSYNC_IMAGE_SIZE=N` (square N x N
    /// images; a power of two keeps every mip even) or
    /// `VKSYNC_IMAGE_SLOW=ROUNDS` say otherwise.
    pub fn from_env() -> ImageShape {
        let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u32>().ok());
        let mut s = ImageShape::SMALL;
        if let Some(n) = var("VKSYNC_IMAGE_SIZE").filter(|n| *n >= 2) {
            s.width = n;
            s.height = n;
        }
        if let Some(k) = var("VKSYNC_IMAGE_SLOW") {
            s.slow_iters = k;
        }
        s
    }

    fn mip_extent(&self, mip: u32) -> (u32, u32) {
        ((self.width >> mip).max(1), (self.height >> mip).max(1))
    }

    /// Bytes of a staging buffer: mip 0, every layer, rows padded by up
    /// to [`MAX_PAD`] texels.
    fn staging_bytes(&self) -> u64 {
        u64::from(self.width + MAX_PAD) * u64::from(self.height) * u64::from(self.layers) * 4
    }

    /// Bytes of one readback slot: mip 0, every layer, tightly packed.
    fn slot_bytes(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height) * u64::from(self.layers) * 4
    }
}

/// The most texels an upload pads each buffer row with
/// (`bufferRowLength = width + pad`).
pub const MAX_PAD: u32 = 3;

/// Readback slots: a download goes to slot `out % SLOTS` of `down`.
pub const SLOTS: u64 = 4;

/// The images of every program.
const IMAGES: [&str; 3] = ["img0", "img1", "img2"];

/// One operation. Indices pick images, mips and layers modulo their
/// counts; `layer` 0 means every layer, `k > 0` layer `k - 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImageOp {
    HostWrite {
        buf: u8,
        value: u32,
    },
    Fill {
        buf: u8,
        value: u32,
    },
    Upload {
        buf: u8,
        img: u8,
        mip: u8,
        layer: u8,
        pad: u8,
        optimal: bool,
    },
    Download {
        img: u8,
        mip: u8,
        layer: u8,
        out: u8,
        optimal: bool,
    },
    Copy {
        src: u8,
        dst: u8,
        mip: u8,
        layer: u8,
        optimal: bool,
    },
    Blit {
        src: u8,
        dst: u8,
        mip: u8,
        mirror: bool,
        optimal: bool,
    },
    Clear {
        img: u8,
        mip: u8,
        optimal: bool,
    },
    /// An image kernel from `src` to `dst`: `kind % 4` is `image_scale_add`,
    /// `image_slow`, or `image_sampled_scale_add` reading `src` as a
    /// sampled image in `SHADER_READ_ONLY_OPTIMAL` (2) or in `GENERAL` (3).
    Kernel {
        kind: u8,
        src: u8,
        dst: u8,
        mip: u8,
        layer: u8,
        a: u32,
    },
    /// Moves mips `mip..` (every level from `mip` on) of an image to
    /// layout `to` (of `GENERAL` and the two transfer layouts), with one
    /// image memory barrier per layer in one barrier command: each barrier
    /// covers one layer of several mips, so several byte ranges (a review
    /// found plans that printed such a barrier with one range's masks).
    Relayout {
        img: u8,
        mip: u8,
        to: u8,
    },
    Submit,
    Wait,
}

fn image_op() -> impl Strategy<Value = ImageOp> {
    let b = any::<bool>;
    prop_oneof![
        2 => (0u8..2, 0u32..1000).prop_map(|(buf, value)| ImageOp::HostWrite { buf, value }),
        1 => (0u8..2, 0u32..1000).prop_map(|(buf, value)| ImageOp::Fill { buf, value }),
        4 => (0u8..2, 0u8..3, any::<u8>(), any::<u8>(), 0u8..=MAX_PAD as u8, b())
            .prop_map(|(buf, img, mip, layer, pad, optimal)| ImageOp::Upload { buf, img, mip, layer, pad, optimal }),
        3 => (0u8..3, any::<u8>(), any::<u8>(), any::<u8>(), b())
            .prop_map(|(img, mip, layer, out, optimal)| ImageOp::Download { img, mip, layer, out, optimal }),
        2 => (0u8..3, 0u8..3, any::<u8>(), any::<u8>(), b())
            .prop_map(|(src, dst, mip, layer, optimal)| ImageOp::Copy { src, dst, mip, layer, optimal }),
        1 => (0u8..3, 0u8..3, any::<u8>(), b(), b())
            .prop_map(|(src, dst, mip, mirror, optimal)| ImageOp::Blit { src, dst, mip, mirror, optimal }),
        1 => (0u8..3, any::<u8>(), b()).prop_map(|(img, mip, optimal)| ImageOp::Clear { img, mip, optimal }),
        4 => (0u8..4, 0u8..3, 0u8..3, any::<u8>(), any::<u8>(), 1u32..100)
            .prop_map(|(kind, src, dst, mip, layer, a)| ImageOp::Kernel { kind, src, dst, mip, layer, a }),
        1 => Just(ImageOp::Submit),
        1 => Just(ImageOp::Wait),
        2 => (0u8..3, any::<u8>(), 0u8..3).prop_map(|(img, mip, to)| ImageOp::Relayout { img, mip, to }),
    ]
}

/// A generated image program, with the operations it came from.
#[derive(Clone, PartialEq, Eq)]
pub struct ImageProgram {
    pub ops: Vec<ImageOp>,
    pub shape: ImageShape,
    pub program: Program,
}

impl fmt::Debug for ImageProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "program as a trace (replay with `vksync check` / `vksync run`):"
        )?;
        f.write_str(&trace::print(&self.program))
    }
}

/// Which layouts an operation accepts for a mip level, the one it moves
/// to otherwise.
#[derive(Clone, Copy)]
enum Use {
    /// Read by a transfer: `GENERAL` or `TRANSFER_SRC_OPTIMAL`.
    TransferSrc(bool),
    /// Written by a transfer: `GENERAL` or `TRANSFER_DST_OPTIMAL`.
    TransferDst(bool),
    /// A storage image: `GENERAL`.
    Storage,
    /// A sampled image: `GENERAL` or `SHADER_READ_ONLY_OPTIMAL`.
    Sampled(bool),
}

impl Use {
    fn accepts(self, layout: &str) -> bool {
        match self {
            Use::TransferSrc(_) => layout == "GENERAL" || layout == "TRANSFER_SRC_OPTIMAL",
            Use::TransferDst(_) => layout == "GENERAL" || layout == "TRANSFER_DST_OPTIMAL",
            Use::Storage => layout == "GENERAL",
            Use::Sampled(_) => layout == "GENERAL" || layout == "SHADER_READ_ONLY_OPTIMAL",
        }
    }
    fn target(self) -> &'static str {
        match self {
            Use::TransferSrc(true) => "TRANSFER_SRC_OPTIMAL",
            Use::TransferDst(true) => "TRANSFER_DST_OPTIMAL",
            Use::Sampled(true) => "SHADER_READ_ONLY_OPTIMAL",
            _ => "GENERAL",
        }
    }
}

/// Interprets operations into a valid program of images of `shape`.
pub fn build_images(ops: &[ImageOp], shape: ImageShape) -> Program {
    let mut text = String::new();
    let staging = shape.staging_bytes();
    let down = shape.slot_bytes() * SLOTS;
    let _ = writeln!(
        text,
        "buffer up0 {staging}\nbuffer up1 {staging}\nbuffer down {down}"
    );
    for name in IMAGES {
        let _ = writeln!(
            text,
            "image {name} R32_UINT {}x{} mips {} layers {}",
            shape.width, shape.height, shape.mips, shape.layers
        );
    }
    // Staging starts defined, so that uploads carry values to compare.
    text.push_str("host-write up0 1000000\nhost-write up1 5000000\n");
    // Per image and mip: its current layout.
    let mut layouts = vec![vec!["UNDEFINED"; shape.mips as usize]; IMAGES.len()];
    let parses = |t: &str| trace::parse(t).is_ok_and(|t| vksync::resolve(&t.program).is_ok());
    for op in ops {
        let before = text.clone();
        let layouts_before = layouts.clone();
        let mut lines = String::new();
        // Moves (img, mip) into a layout `u` accepts, returning the layout
        // the command names.
        let mut prepare = |lines: &mut String, img: usize, mip: u32, u: Use| -> &'static str {
            let current = layouts[img][mip as usize];
            if u.accepts(current) {
                return current;
            }
            let to = u.target();
            let _ = writeln!(
                lines,
                "barrier NONE:NONE -> NONE:NONE {} COLOR:{mip}:0.. {current}->{to}",
                IMAGES[img]
            );
            layouts[img][mip as usize] = to;
            to
        };
        let mip_of = |m: u8| u32::from(m) % shape.mips;
        // (base layer, count) of a layer pick.
        let layers_of = |l: u8| match u32::from(l) % (shape.layers + 1) {
            0 => (0, shape.layers),
            k => (k - 1, 1),
        };
        let span = |(base, count): (u32, u32)| {
            if count == 1 {
                format!("{base}")
            } else {
                format!("{base}..{}", base + count)
            }
        };
        match *op {
            ImageOp::HostWrite { buf, value } => {
                let _ = writeln!(lines, "host-write up{} {value}", buf % 2);
            }
            ImageOp::Fill { buf, value } => {
                let _ = writeln!(lines, "fill up{} {value}", buf % 2);
            }
            ImageOp::Upload {
                buf,
                img,
                mip,
                layer,
                pad,
                optimal,
            } => {
                let (img, mip, layers) = (usize::from(img % 3), mip_of(mip), layers_of(layer));
                let (w, h) = shape.mip_extent(mip);
                let l = prepare(&mut lines, img, mip, Use::TransferDst(optimal));
                let _ = writeln!(
                    lines,
                    "copy-buffer-to-image up{} -> {} {l} bufferRowLength={} imageSubresource=COLOR:{mip}:{} imageExtent={w},{h},1",
                    buf % 2,
                    IMAGES[img],
                    w + u32::from(pad) % (MAX_PAD + 1),
                    span(layers)
                );
            }
            ImageOp::Download {
                img,
                mip,
                layer,
                out,
                optimal,
            } => {
                let (img, mip, layers) = (usize::from(img % 3), mip_of(mip), layers_of(layer));
                let (w, h) = shape.mip_extent(mip);
                let l = prepare(&mut lines, img, mip, Use::TransferSrc(optimal));
                let _ = writeln!(
                    lines,
                    "copy-image-to-buffer {} {l} -> down bufferOffset={} imageSubresource=COLOR:{mip}:{} imageExtent={w},{h},1",
                    IMAGES[img],
                    u64::from(out) % SLOTS * shape.slot_bytes(),
                    span(layers)
                );
            }
            ImageOp::Copy {
                src,
                dst,
                mip,
                layer,
                optimal,
            } => {
                let (s, d) = (usize::from(src % 3), usize::from(dst % 3));
                if s == d {
                    continue;
                }
                let (mip, layers) = (mip_of(mip), layers_of(layer));
                let (w, h) = shape.mip_extent(mip);
                let ls = prepare(&mut lines, s, mip, Use::TransferSrc(optimal));
                let ld = prepare(&mut lines, d, mip, Use::TransferDst(optimal));
                let sub = format!("COLOR:{mip}:{}", span(layers));
                let _ = writeln!(
                    lines,
                    "copy-image {} {ls} -> {} {ld} srcSubresource={sub} dstSubresource={sub} extent={w},{h},1",
                    IMAGES[s], IMAGES[d]
                );
            }
            ImageOp::Blit {
                src,
                dst,
                mip,
                mirror,
                optimal,
            } => {
                let (s, d) = (usize::from(src % 3), usize::from(dst % 3));
                if s == d || !shape.blits {
                    continue;
                }
                let mip = mip_of(mip);
                let (w, h) = shape.mip_extent(mip);
                let ls = prepare(&mut lines, s, mip, Use::TransferSrc(optimal));
                let ld = prepare(&mut lines, d, mip, Use::TransferDst(optimal));
                let sub = format!("COLOR:{mip}:0..{}", shape.layers);
                let dst_box = if mirror {
                    format!("{w},0,0:0,{h},1")
                } else {
                    format!("0,0,0:{w},{h},1")
                };
                let _ = writeln!(
                    lines,
                    "blit-image {} {ls} -> {} {ld} srcSubresource={sub} srcOffsets=0,0,0:{w},{h},1 dstSubresource={sub} dstOffsets={dst_box}",
                    IMAGES[s], IMAGES[d]
                );
            }
            ImageOp::Clear { img, mip, optimal } => {
                let (img, mip) = (usize::from(img % 3), mip_of(mip));
                let l = prepare(&mut lines, img, mip, Use::TransferDst(optimal));
                let _ = writeln!(lines, "clear-color-image {} {l} COLOR:{mip}:0..", IMAGES[img]);
            }
            ImageOp::Kernel {
                kind,
                src,
                dst,
                mip,
                layer,
                a,
            } => {
                let (s, d) = (usize::from(src % 3), usize::from(dst % 3));
                if s == d {
                    continue;
                }
                let (mip, layers) = (mip_of(mip), layers_of(layer));
                let sub = format!("COLOR:{mip}:{}", span(layers));
                let input = match kind % 4 {
                    k @ (2 | 3) => {
                        let l = prepare(&mut lines, s, mip, Use::Sampled(k == 2));
                        format!("sampled-image {} {sub} {l}", IMAGES[s])
                    }
                    _ => {
                        prepare(&mut lines, s, mip, Use::Storage);
                        format!("image-read {} {sub}", IMAGES[s])
                    }
                };
                prepare(&mut lines, d, mip, Use::Storage);
                let kernel = match kind % 4 {
                    0 => format!("image_scale_add({a},{})", a + 1),
                    1 => format!("image_slow({})", shape.slow_iters),
                    _ => format!("image_sampled_scale_add({a},{})", a + 2),
                };
                let _ = writeln!(lines, "dispatch {kernel} {input} image-write {} {sub}", IMAGES[d]);
            }
            ImageOp::Relayout { img, mip, to } => {
                let img = usize::from(img % 3);
                // At least two levels where the image has them.
                let first = u32::from(mip) % shape.mips.saturating_sub(1).max(1);
                let from = layouts[img][first as usize];
                let to = ["GENERAL", "TRANSFER_SRC_OPTIMAL", "TRANSFER_DST_OPTIMAL"][usize::from(to % 3)];
                // One layout over the levels (or nothing to say in one barrier).
                if from == to || (first..shape.mips).any(|m| layouts[img][m as usize] != from) {
                    continue;
                }
                let barriers: Vec<String> = (0..shape.layers)
                    .map(|l| {
                        format!(
                            "NONE:NONE -> NONE:NONE {} COLOR:{first}..:{l} {from}->{to}",
                            IMAGES[img]
                        )
                    })
                    .collect();
                let _ = writeln!(lines, "barrier {}", barriers.join("; "));
                for m in first..shape.mips {
                    layouts[img][m as usize] = to;
                }
            }
            ImageOp::Submit => lines.push_str("submit\n"),
            ImageOp::Wait => lines.push_str("wait\n"),
        }
        text.push_str(&lines);
        if !parses(&text) {
            // Not expected (operations are clamped to the shape); dropped
            // so that the program stays valid.
            text = before;
            layouts = layouts_before;
        }
    }
    // Submitted and waited for before the host reads, as a real program
    // does: a host read recorded after unsubmitted work runs before it
    // (`vksync::order_notes`) and would see the staging values only.
    text.push_str("submit\nwait\nhost-read down\n");
    trace::parse(&text)
        .expect("the generated trace parses: every operation was checked")
        .program
}

/// Strategy for image programs of up to `max_ops` operations on images of
/// `shape`.
pub fn image_programs(max_ops: usize, shape: ImageShape) -> impl Strategy<Value = ImageProgram> {
    prop::collection::vec(image_op(), 1..=max_ops).prop_map(move |ops| {
        let program = build_images(&ops, shape);
        ImageProgram { ops, shape, program }
    })
}
