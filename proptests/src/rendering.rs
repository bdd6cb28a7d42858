//! Random rendering programs, for the device suite
//! `tests/device_rendering.rs`: rectangle records written by `update` and
//! by a compute kernel (`scale_add`), rendering instances of draws with
//! the runtime's draw kernels (`rect`, `flat`: `docs/trace-format.md`,
//! "Kernels"; `draw`, `draw-indexed`, `draw-indirect`, with and without
//! the depth test and write), and copies of the color and depth
//! attachments into a buffer the host reads at the end, so that a device
//! run is compared with the CPU reference's rasterization texel for texel.
//!
//! This module owns the generator only. Every program has one `R32_UINT`
//! color image and one `D32_SFLOAT` depth image of `size` x `size`, a
//! record buffer of four quarters of 16 records, an index buffer, an
//! indirect buffer and a readback buffer of [`SLOTS`] slots (color, then
//! depth). Indices and indirect records are written by the host only
//! (`host-write`, first when the program starts and then as operations
//! say; the runtime submits and waits for the work before each): a device
//! write of an indirect record that a draw without barriers read early
//! could leave it with whatever the memory held before, a draw of
//! billions of instances that hangs the device. As in `vksync_proptests::images`, the attachments' layouts
//! are tracked and each change is a transition with empty scopes, so the
//! program carries no synchronization and is its own planning input; an
//! instance after a transition from `UNDEFINED` clears its attachments,
//! any other loads or clears at random. After each instance the
//! attachments move to `TRANSFER_SRC_OPTIMAL`: the offline planner refuses
//! two instances with nothing between them (the second's load needs a
//! barrier after the first's store, and the planner takes it for one
//! inside the instance), while it gives a transition between them the
//! scopes both need. So `vksync::plan` (offline) plans every program; the
//! online planner refuses them (`tests/device_rendering.rs`).
//!
//! Programs are built as trace text and parsed, so a failing case prints
//! as a trace `vksync run` replays.

use proptest::prelude::*;
use std::fmt;
use std::fmt::Write as _;
use vksync::{trace, Program};

/// Readback slots (each the color then the depth attachment).
pub const SLOTS: u64 = 4;

/// Records in a quarter of the record buffer.
const QUARTER_RECORDS: u32 = 16;

/// A draw of a rendering instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawSpec {
    /// `draw vertexCount=3|6 instanceCount firstInstance`.
    Draw { six: bool, instances: u32, first: u32 },
    /// `draw-indexed indexCount firstInstance`, `u32` indices.
    Indexed {
        indices: u32,
        instances: u32,
        first: u32,
    },
    /// `draw-indirect ind drawCount=1` (the record `update ind` wrote).
    Indirect,
}

/// One operation of a generated program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderingOp {
    /// `update rec[quarter]` with rectangles from `(x0, y0)` to `(x1, y1)`
    /// (record `k` is the words `V + 4k ..`: x0 moves right by 4).
    Records {
        quarter: u32,
        x0: u32,
        y0: u32,
        x1: u32,
        y1: u32,
    },
    /// `dispatch scale_add(1, b) read rec[src] write rec[dst]`.
    Kernel {
        src: u32,
        dst: u32,
        b: u32,
    },
    /// `host-write ib v`: indices `v, v + 1, ..`.
    Indices {
        v: u32,
    },
    /// `host-write ind[0..16] v`: `vertexCount=v instanceCount=v+1
    /// firstVertex=v+2 firstInstance=v+3`.
    IndirectRecord {
        v: u32,
    },
    /// A rendering instance of the records in `quarter`.
    Pass {
        quarter: u32,
        load: bool,
        depth_test: bool,
        depth_write: bool,
        draws: [Option<DrawSpec>; 3],
    },
    /// Copies both attachments into readback slot `slot`.
    Readback {
        slot: u32,
    },
    Submit,
}

fn draw_spec() -> impl Strategy<Value = DrawSpec> {
    prop_oneof![
        3 => (any::<bool>(), 1..=4u32, 0..4u32).prop_map(|(six, instances, first)| DrawSpec::Draw { six, instances, first }),
        2 => (3..=12u32, 1..=4u32, 0..4u32).prop_map(|(indices, instances, first)| DrawSpec::Indexed { indices, instances, first }),
        1 => Just(DrawSpec::Indirect),
    ]
}

fn op(size: u32) -> impl Strategy<Value = RenderingOp> {
    prop_oneof![
        4 => (0..4u32, 0..size, 0..size, 0..=size.min(255), 0..=size.min(255))
            .prop_map(|(quarter, x0, y0, x1, y1)| RenderingOp::Records { quarter, x0, y0, x1, y1 }),
        2 => (0..4u32, 1..4u32, 0..4u32, 0..3u32)
            .prop_map(|(src, d, dy, dx)| RenderingOp::Kernel { src, dst: (src + d) % 4, b: 1 + dx + (dy << 24) }),
        1 => (0..8u32).prop_map(|v| RenderingOp::Indices { v }),
        1 => (3..=6u32).prop_map(|v| RenderingOp::IndirectRecord { v }),
        4 => (0..4u32, any::<bool>(), any::<bool>(), any::<bool>(), prop::array::uniform3(prop::option::of(draw_spec())))
            .prop_map(|(quarter, load, depth_test, depth_write, draws)| RenderingOp::Pass { quarter, load, depth_test, depth_write, draws }),
        2 => (0..SLOTS as u32).prop_map(|slot| RenderingOp::Readback { slot }),
        1 => Just(RenderingOp::Submit),
    ]
}

/// A generated rendering program, with the operations it came from.
#[derive(Clone, PartialEq, Eq)]
pub struct RenderingProgram {
    pub ops: Vec<RenderingOp>,
    pub size: u32,
    pub program: Program,
}

impl fmt::Debug for RenderingProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "program as a trace (replay with `vksync check` / `vksync run`):"
        )?;
        f.write_str(&trace::print(&self.program))
    }
}

/// Interprets operations into a valid program of `size` x `size`
/// attachments; a final readback into slot 0 and the host read end it.
pub fn build_rendering(ops: &[RenderingOp], size: u32) -> Program {
    let texels = u64::from(size) * u64::from(size) * 4;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "buffer rec {}\nbuffer ib 64\nbuffer ind 64\nbuffer down {}\n\
         image color R32_UINT {size}x{size}\nimage depth D32_SFLOAT {size}x{size}",
        4 * QUARTER_RECORDS * 16,
        SLOTS * 2 * texels
    );
    // Indices and the indirect record start defined (module docs).
    let _ = writeln!(text, "host-write ib[0..64] 0\nhost-write ind[0..16] 3");
    // Every quarter of records starts defined: rectangles from (2q, 2q)
    // to (12, 12), then x0 4 further right per record.
    for q in 0..4u32 {
        let b = q * QUARTER_RECORDS * 16;
        let v = 0x0c0c_0000 | (2 * q) | (2 * q) << 8;
        let _ = writeln!(text, "update rec[{b}..{}] {v}", b + QUARTER_RECORDS * 16);
    }
    let quarter = |q: u32| {
        let b = q * QUARTER_RECORDS * 16;
        format!("rec[{b}..{}]", b + QUARTER_RECORDS * 16)
    };
    // The attachments' layout: `UNDEFINED`, attachment or transfer source.
    let mut layout = "UNDEFINED";
    let move_to = |text: &mut String, layout: &mut &'static str, color: &'static str, depth: &'static str| {
        if *layout != color {
            let (oc, od) = match *layout {
                "UNDEFINED" => ("UNDEFINED", "UNDEFINED"),
                "COLOR_ATTACHMENT_OPTIMAL" => ("COLOR_ATTACHMENT_OPTIMAL", "DEPTH_ATTACHMENT_OPTIMAL"),
                _ => ("TRANSFER_SRC_OPTIMAL", "TRANSFER_SRC_OPTIMAL"),
            };
            let _ = writeln!(
                text,
                "barrier NONE:NONE -> NONE:NONE color COLOR:0:0 {oc}->{color} ; NONE:NONE -> NONE:NONE depth DEPTH:0:0 {od}->{depth}"
            );
            *layout = color;
        }
    };
    let readback = |text: &mut String, layout: &mut &'static str, slot: u32| {
        move_to(text, layout, "TRANSFER_SRC_OPTIMAL", "TRANSFER_SRC_OPTIMAL");
        let at = u64::from(slot) * 2 * texels;
        let _ = writeln!(
            text,
            "copy-image-to-buffer color TRANSFER_SRC_OPTIMAL -> down bufferOffset={at} imageSubresource=COLOR:0:0 imageExtent={size},{size},1\n\
             copy-image-to-buffer depth TRANSFER_SRC_OPTIMAL -> down bufferOffset={} imageSubresource=DEPTH:0:0 imageExtent={size},{size},1",
            at + texels
        );
    };
    for op in ops {
        match *op {
            RenderingOp::Records {
                quarter: q,
                x0,
                y0,
                x1,
                y1,
            } => {
                let v = x0 | y0 << 8 | x1 << 16 | y1 << 24;
                let _ = writeln!(text, "update {} {v}", quarter(q));
            }
            RenderingOp::Kernel { src, dst, b } => {
                let _ = writeln!(
                    text,
                    "dispatch scale_add(1,{b}) read {} write {}",
                    quarter(src),
                    quarter(dst)
                );
            }
            RenderingOp::Indices { v } => {
                let _ = writeln!(text, "host-write ib[0..64] {v}");
            }
            RenderingOp::IndirectRecord { v } => {
                let _ = writeln!(text, "host-write ind[0..16] {v}");
            }
            RenderingOp::Pass {
                quarter: q,
                load,
                depth_test,
                depth_write,
                draws,
            } => {
                let fresh = layout == "UNDEFINED";
                move_to(
                    &mut text,
                    &mut layout,
                    "COLOR_ATTACHMENT_OPTIMAL",
                    "DEPTH_ATTACHMENT_OPTIMAL",
                );
                let l = if load && !fresh { "LOAD" } else { "CLEAR" };
                let _ = writeln!(
                    text,
                    "begin-rendering color color COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL {l} STORE ; depth depth DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL {l} STORE"
                );
                let off = q * QUARTER_RECORDS * 16;
                let state = format!(
                    "instance rec {off} 16{}{}",
                    if depth_test { " depth-test" } else { "" },
                    if depth_write { " depth-write" } else { "" }
                );
                for d in draws.iter().flatten() {
                    let _ = match *d {
                        DrawSpec::Draw { six, instances, first } => writeln!(
                            text,
                            "draw vertexCount={} instanceCount={instances} firstInstance={first} {state}",
                            if six { 6 } else { 3 }
                        ),
                        DrawSpec::Indexed { indices, instances, first } => writeln!(
                            text,
                            "draw-indexed indexCount={indices} instanceCount={instances} firstInstance={first} index ib 0 u32 {state}"
                        ),
                        DrawSpec::Indirect => writeln!(text, "draw-indirect ind drawCount=1 stride=16 {state}"),
                    };
                }
                let _ = writeln!(text, "end-rendering");
                // Out of the attachment layouts after every instance: the
                // planner plans no barrier between two instances (it
                // refuses the second, "a barrier inside this rendering
                // instance"), while a transition between them is kept in
                // place and given the scopes both need.
                move_to(
                    &mut text,
                    &mut layout,
                    "TRANSFER_SRC_OPTIMAL",
                    "TRANSFER_SRC_OPTIMAL",
                );
            }
            RenderingOp::Readback { slot } => readback(&mut text, &mut layout, slot),
            RenderingOp::Submit => {
                let _ = writeln!(text, "submit");
            }
        }
    }
    readback(&mut text, &mut layout, 0);
    let _ = writeln!(text, "submit\nwait\nhost-read down");
    trace::parse(&text)
        .unwrap_or_else(|e| panic!("the generated trace parses: {e}\n{text}"))
        .program
}

/// Strategy for rendering programs of up to `max_ops` operations on
/// `size` x `size` attachments (`size` at most 256: a rectangle's
/// coordinates are bytes).
pub fn rendering_programs(max_ops: usize, size: u32) -> impl Strategy<Value = RenderingProgram> {
    prop::collection::vec(op(size.min(256)), 1..=max_ops).prop_map(move |ops| {
        let program = build_rendering(&ops, size);
        RenderingProgram { ops, size, program }
    })
}
