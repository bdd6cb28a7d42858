//! `vksync::trace::print` of a program built with the API (the suites'
//! generators build every program through `Program`'s checked builder
//! methods, blobs by `alloc`) parses back to the same program, object ids
//! included. The fuzz target and `model/tests/trace_roundtrip.rs` check the
//! same for parsed programs. Case count: `PROPTEST_CASES` (default 256).

use proptest::prelude::*;
use vksync_proptests::programs;
use vksync_proptests::sync::{build_sync, sync_ops};

fn assert_round_trip(p: &vksync::Program) -> Result<(), TestCaseError> {
    let text = vksync::trace::print(p);
    let back = vksync::trace::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert!(back.program == *p, "printed:\n{text}");
    Ok(())
}

proptest! {
    #![proptest_config(vksync_proptests::config(256))]

    #[test]
    fn planner_generator_programs_print_and_parse_back(g in programs(40)) {
        assert_round_trip(&g.program)?;
    }

    #[test]
    fn synchronization_generator_programs_print_and_parse_back(ops in sync_ops(24)) {
        assert_round_trip(&build_sync(&ops))?;
    }
}

/// A rendering program built with `Program::render_command`: one instance
/// (a color attachment with a resolve target, a depth attachment; load and
/// store ops from `ops`) and one draw per element of `draws` (its kind,
/// counts, offsets, bindings and attachment operations from the numbers).
fn rendering_program(ops: (u8, u8, u8, u8), draws: &[(u8, u32, u32, u32, u8)]) -> vksync::Program {
    use vksync::{Aspect, AspectMask, Format, ImageLayout as L, Tiling};
    use vksync::{
        Attachment, BindingAccess, Draw, DrawKind, IndexBuffer, IndexType, LoadOp, RenderOp, Rendering,
        ShaderBinding, ShaderStage, StoreOp, SubresourceRange, VertexBuffer, VertexRate,
    };
    let mut p = vksync::Program::new();
    let b = p.buffer("b", 4096).unwrap();
    let ind = p.buffer("ind", 256).unwrap();
    let rgba = Format::parse("R8G8B8A8_UNORM").unwrap();
    let d32 = Format::parse("D32_SFLOAT").unwrap();
    let col = p
        .declare_image("col", rgba, [4, 4, 1], 1, 1, Tiling::Optimal, None)
        .unwrap();
    let res = p
        .declare_image("res", rgba, [4, 4, 1], 1, 1, Tiling::Optimal, None)
        .unwrap();
    let dep = p
        .declare_image("dep", d32, [4, 4, 1], 1, 1, Tiling::Optimal, None)
        .unwrap();
    let range = |a| SubresourceRange {
        aspects: AspectMask::of(a),
        base_mip: 0,
        mip_count: Some(1),
        base_layer: 0,
        layer_count: Some(1),
    };
    let color = Attachment {
        image: col,
        range: range(Aspect::Color),
        layout: L::COLOR_ATTACHMENT_OPTIMAL,
        load: LoadOp::ALL[ops.0 as usize % 4],
        store: StoreOp::ALL[ops.1 as usize % 3],
        resolve: ops
            .0
            .is_multiple_of(2)
            .then_some((res, range(Aspect::Color), L::GENERAL)),
    };
    let depth = Attachment {
        image: dep,
        range: range(Aspect::Depth),
        layout: L::DEPTH_ATTACHMENT_OPTIMAL,
        load: LoadOp::ALL[ops.2 as usize % 4],
        store: StoreOp::ALL[ops.3 as usize % 3],
        resolve: None,
    };
    let begin = RenderOp::Begin(Rendering {
        colors: vec![color],
        depth: (!ops.2.is_multiple_of(3)).then_some(depth),
    });
    let c = p.render_command(begin).unwrap();
    p.push(c).unwrap();
    for &(kind, count, first, offset, flags) in draws {
        let (count, first, offset) = (count % 16, first % 16, offset % 16 * 4);
        let indexed = flags % 2 == 1;
        let kind = match kind % 4 {
            0 => DrawKind::Draw {
                vertex_count: count,
                instance_count: first,
                first_vertex: first,
                first_instance: count,
            },
            1 => DrawKind::DrawIndexed {
                index_count: count,
                instance_count: 1,
                first_index: first,
                first_instance: 0,
            },
            2 => DrawKind::Indirect {
                indexed,
                buffer: ind,
                offset: u64::from(offset),
                draw_count: count % 4,
                stride: 20,
            },
            _ => DrawKind::IndirectCount {
                indexed,
                buffer: ind,
                offset: u64::from(offset),
                count_buffer: ind,
                count_offset: 0,
                max_draw_count: count % 4,
                stride: 20,
            },
        };
        let uses_index = match kind {
            DrawKind::DrawIndexed { .. } => true,
            DrawKind::Indirect { indexed, .. } | DrawKind::IndirectCount { indexed, .. } => indexed,
            DrawKind::Draw { .. } => false,
        };
        let accesses = [
            BindingAccess::Read,
            BindingAccess::Write,
            BindingAccess::ReadWrite,
            BindingAccess::Uniform,
            BindingAccess::Sampled,
        ];
        let draw = Draw {
            kind,
            vertex: vec![VertexBuffer {
                buffer: b,
                offset: u64::from(offset),
                stride: 16,
                rate: if flags % 4 < 2 {
                    VertexRate::Vertex
                } else {
                    VertexRate::Instance
                },
            }],
            index: uses_index.then_some(IndexBuffer {
                buffer: b,
                offset: u64::from(offset),
                index_type: [IndexType::U8, IndexType::U16, IndexType::U32][flags as usize % 3],
            }),
            bindings: vec![ShaderBinding {
                stage: if flags % 8 < 4 {
                    ShaderStage::Vertex
                } else {
                    ShaderStage::Fragment
                },
                binding: vksync::Binding {
                    access: accesses[flags as usize % 5],
                    region: p.region(b, 2048, 2048 + u64::from(offset)),
                },
            }],
            color_write: flags % 16 < 8,
            blend: flags % 32 >= 16,
            depth_test: flags % 64 >= 32,
            depth_write: flags >= 128,
        };
        let c = p.render_command(RenderOp::Draw(draw)).unwrap();
        p.push(c).unwrap();
    }
    let c = p.render_command(RenderOp::End).unwrap();
    p.push(c).unwrap();
    p
}

proptest! {
    #![proptest_config(vksync_proptests::config(256))]

    /// Rendering commands of every kind, built with the API, print and
    /// parse back.
    #[test]
    fn rendering_programs_print_and_parse_back(
        ops in (0u8..12, 0u8..12, 0u8..12, 0u8..12),
        draws in proptest::collection::vec((0u8..4, 0u32..64, 0u32..64, 0u32..64, 0u8..=255), 0..6),
    ) {
        assert_round_trip(&rendering_program(ops, &draws))?;
    }
}
