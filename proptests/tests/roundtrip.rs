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
        inputs: Vec::new(),
        area: None,
        // (Render areas, views, suspending and resuming round trip in
        // model/tests/render.rs.)
        render_area: None,
        layer_count: None,
        view_mask: 0,
        resuming: false,
        suspending: false,
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

/// A render pass program built with the API: a declaration of one or two
/// subpasses over a color attachment (its layout per subpass from
/// `layouts`), a depth/stencil attachment used by the first subpass and an
/// optional resolve target, dependencies chosen by `deps` (masks from a
/// small table, `by-region` by a bit), and an instance with draws and
/// `clear-attachments` in each subpass. `views` (0 to 3) is the view mask
/// of every subpass (0: no multiview; the images then have two layers,
/// the views both) and `local` marks the dependencies between subpasses
/// that are `view-local` (a self-dependency of a subpass with two views
/// must be); bits 4 and 5 of `local` give the first draw a storage write
/// of `sb` and the second a storage read of it (in the fragment shader;
/// with bit 6, a read and then a write); bit 7 copies `sb` to `out` after
/// the pass; `pick` varies the masks of each dependency apart (two bits
/// each).
///
/// With `expand`, a multiview program is built as the spec's "good
/// mental model" of it instead ("a multiview subpass as if it were a
/// collection of individual (per-view) subpasses ... a multiview
/// attachment ... like several individual attachments that happen to be
/// layers in a single image"; "A view-local dependency between two
/// multiview subpasses acts like a set of one-to-one dependencies between
/// corresponding pairs of per-view subpasses. A view-global dependency
/// ... like a set of N x M dependencies between all pairs"): no view
/// masks; subpass k of view v is subpass k·V + v, with attachment a of
/// view v its own attachment over layer v; each command of subpass k
/// recorded in each of its per-view subpasses. Also returned: for each
/// command of the program, the command of the multiview program it stands
/// for (its begin for a next-subpass into another view of one subpass,
/// the end of that subpass for an end of one).
fn render_pass_program_as(
    two: bool,
    ops: (u8, u8, u8, u8),
    layouts: u8,
    deps: u8,
    draws: u8,
    (views, local, pick): (u8, u8, u8),
    expand: bool,
) -> (vksync::Program, Vec<usize>) {
    use vksync::{AccessFlags2 as A, PipelineStageFlags2 as S};
    use vksync::{Aspect, AspectMask, Format, ImageLayout as L, Tiling};
    use vksync::{
        AttachmentDescription, AttachmentReference, ClearAttachments, ColorReference, Draw, DrawKind, LoadOp,
        PassBegin, RenderOp, RenderPass, StoreOp, SubpassDependency, SubpassDescription, SubpassIndex,
        SubresourceRange,
    };
    let mut p = vksync::Program::new();
    let sb = p.buffer("sb", 256).unwrap();
    let out = p.buffer("out", 256).unwrap();
    let rgba = Format::parse("R8G8B8A8_UNORM").unwrap();
    let d24s8 = Format::parse("D24_UNORM_S8_UINT").unwrap();
    let view_mask = u32::from(views % 4);
    // Bit 3: a fill of the storage buffer before the pass (a write before
    // every view, which a view-local dependency orders whole).
    let before = usize::from(views >> 3 & 1 == 1);
    // Bit 2: the storage buffer is accessed in the vertex shader (where a
    // layout transition between subpasses is each view's own, review44),
    // not the fragment shader.
    let storage_stage = if views >> 2 & 1 == 1 {
        (vksync::ShaderStage::Vertex, S::VERTEX_SHADER)
    } else {
        (vksync::ShaderStage::Fragment, S::FRAGMENT_SHADER)
    };
    let layers = if view_mask == 0 { 1 } else { 2 };
    let col = p
        .declare_image("col", rgba, [4, 4, 1], 1, layers, Tiling::Optimal, None)
        .unwrap();
    let dep = p
        .declare_image("dep", d24s8, [4, 4, 1], 1, layers, Tiling::Optimal, None)
        .unwrap();
    let res = p
        .declare_image("res", rgba, [4, 4, 1], 1, layers, Tiling::Optimal, None)
        .unwrap();
    let resolve = ops.0 % 2 == 1;
    let color_layout = |s: u8| {
        if layouts >> s & 1 == 1 {
            L::GENERAL
        } else {
            L::COLOR_ATTACHMENT_OPTIMAL
        }
    };
    let last_color = color_layout(u8::from(two));
    let mut attachments = vec![
        AttachmentDescription {
            format: rgba,
            load: LoadOp::ALL[ops.0 as usize % 4],
            store: StoreOp::ALL[ops.1 as usize % 3],
            stencil: None,
            initial: L::UNDEFINED,
            final_layout: if layouts & 4 == 4 {
                L::TRANSFER_SRC_OPTIMAL
            } else {
                last_color
            },
        },
        AttachmentDescription {
            format: d24s8,
            load: LoadOp::ALL[ops.2 as usize % 4],
            store: StoreOp::ALL[ops.3 as usize % 3],
            stencil: ops
                .2
                .is_multiple_of(2)
                .then_some((LoadOp::ALL[ops.3 as usize % 4], StoreOp::ALL[ops.2 as usize % 3])),
            initial: L::UNDEFINED,
            final_layout: L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
        },
    ];
    if resolve {
        attachments.push(AttachmentDescription {
            format: rgba,
            load: LoadOp::DontCare,
            store: StoreOp::Store,
            stencil: None,
            initial: L::UNDEFINED,
            final_layout: L::GENERAL,
        });
    }
    let reference = |attachment, layout| AttachmentReference { attachment, layout };
    let subpass = |s: u8| SubpassDescription {
        inputs: Vec::new(),
        colors: vec![
            ColorReference {
                color: Some(reference(0, color_layout(s))),
                resolve: (resolve && s == u8::from(two)).then_some(reference(2, L::GENERAL)),
            },
            ColorReference {
                color: None,
                resolve: None,
            },
        ],
        depth: (s == 0).then_some(reference(1, L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL)),
        preserve: if s == 1 { vec![1] } else { Vec::new() },
        view_mask,
    };
    let masks = [
        (
            S::COLOR_ATTACHMENT_OUTPUT,
            A::COLOR_ATTACHMENT_WRITE,
            S::COLOR_ATTACHMENT_OUTPUT,
            A::COLOR_ATTACHMENT_READ,
        ),
        (
            S::NONE,
            A::NONE,
            S::EARLY_FRAGMENT_TESTS | S::LATE_FRAGMENT_TESTS,
            A::DEPTH_STENCIL_ATTACHMENT_WRITE,
        ),
        (
            storage_stage.1,
            A::SHADER_STORAGE_WRITE,
            storage_stage.1,
            A::SHADER_STORAGE_READ,
        ),
        (S::ALL_COMMANDS, A::MEMORY_WRITE, S::COPY, A::TRANSFER_READ),
    ];
    let last = SubpassIndex::Subpass(u32::from(two));
    let mut dependencies = Vec::new();
    for (k, (src, dst)) in [
        (SubpassIndex::External, SubpassIndex::Subpass(0)),
        (SubpassIndex::Subpass(0), SubpassIndex::Subpass(1)),
        (last, SubpassIndex::External),
        (SubpassIndex::Subpass(0), SubpassIndex::Subpass(0)),
    ]
    .into_iter()
    .enumerate()
    {
        if deps >> k & 1 == 0 || (k == 1 && !two) {
            continue;
        }
        // `pick` varies each dependency's masks apart from the others'.
        let (ss, sa, ds, da) = masks[((deps as usize >> 4) % 4) ^ (k % 4) ^ ((pick as usize >> (2 * k)) & 3)];
        // A side that is a subpass names graphics stages or ALL_COMMANDS
        // (VUID-VkRenderPassCreateInfo2-pDependencies-03054, -03055).
        let graphics = |side: SubpassIndex, stages: S| {
            if matches!(side, SubpassIndex::Subpass(_)) && stages.intersects(S::COPY) {
                S::ALL_COMMANDS
            } else {
                stages
            }
        };
        let (ss, ds) = (graphics(src, ss), graphics(dst, ds));
        // Into a subpass, that pair's `ALL_COMMANDS` reads the storage
        // buffer too (so a fill before the pass, bit 3 of the view
        // argument, can be made visible to a draw through it).
        let da = if ds == S::ALL_COMMANDS && matches!(dst, SubpassIndex::Subpass(_)) {
            da | A::SHADER_STORAGE_READ
        } else {
            da
        };
        dependencies.push(SubpassDependency {
            src,
            dst,
            src_stage_mask: ss,
            src_access_mask: sa,
            dst_stage_mask: ds,
            dst_access_mask: da,
            by_region: deps >> (k + 4) & 1 == 1,
            // Between subpasses only (VUID-VkSubpassDependency2-
            // dependencyFlags-03090, -03091); a self-dependency with two
            // views must be (VUID-VkRenderPassCreateInfo2-pDependencies-03060).
            view_local: view_mask != 0
                && src != SubpassIndex::External
                && dst != SubpassIndex::External
                && (local >> k & 1 == 1 || (src == dst && view_mask == 3)),
        });
    }
    let pass = |dependencies: Vec<SubpassDependency>| RenderPass {
        name: "rp".into(),
        attachments: attachments.clone(),
        subpasses: if two {
            vec![subpass(0), subpass(1)]
        } else {
            vec![subpass(0)]
        },
        dependencies,
    };
    // A self-dependency the masks make invalid (VUID-VkSubpassDependency2-
    // srcSubpass-06810, -02245: a framebuffer-space source needs
    // framebuffer-space destinations, and by-region) is left out.
    let declared = if vksync::Program::new()
        .render_pass(pass(dependencies.clone()))
        .is_ok()
    {
        pass(dependencies)
    } else {
        pass(dependencies.into_iter().filter(|d| d.src != d.dst).collect())
    };
    // The views (each a layer) of the expanded program: one, the whole
    // mask's layers, without expansion.
    let per_view: Vec<u32> = if expand && view_mask != 0 {
        (0..32).filter(|v| view_mask >> v & 1 == 1).collect()
    } else {
        Vec::new()
    };
    let rp = p
        .render_pass(if per_view.is_empty() {
            declared
        } else {
            expand_views(&declared, per_view.len() as u32)
        })
        .unwrap();
    let view = |image, a: AspectMask| {
        (
            image,
            SubresourceRange {
                aspects: a,
                base_mip: 0,
                mip_count: Some(1),
                base_layer: 0,
                layer_count: Some(layers),
            },
        )
    };
    let mut views = vec![
        view(col, AspectMask::of(Aspect::Color)),
        view(dep, AspectMask::parse("DEPTH|STENCIL").unwrap()),
    ];
    if resolve {
        views.push(view(res, AspectMask::of(Aspect::Color)));
    }
    if !per_view.is_empty() {
        views = per_view
            .iter()
            .flat_map(|&v| {
                views.iter().map(move |&(image, range)| {
                    (
                        image,
                        SubresourceRange {
                            base_layer: v,
                            layer_count: Some(1),
                            ..range
                        },
                    )
                })
            })
            .collect();
    }
    let push = |p: &mut vksync::Program, op| {
        let c = p.render_command(op).unwrap();
        p.push(c).unwrap();
    };
    if before == 1 {
        p.push(vksync::Command::Fill {
            dst: vksync::Region {
                object: sb,
                range: vksync::ByteRange::new(0, 256),
            },
            value: 1,
        })
        .unwrap();
    }
    push(
        &mut p,
        RenderOp::BeginPass(PassBegin {
            pass: rp,
            views,
            render_area: None,
        }),
    );
    let storage = |access| {
        vec![vksync::ShaderBinding {
            stage: storage_stage.0,
            binding: vksync::Binding {
                access,
                region: vksync::Region {
                    object: sb,
                    range: vksync::ByteRange::new(0, 256),
                },
            },
        }]
    };
    let draw = |flags: u8, bindings: Vec<vksync::ShaderBinding>| {
        RenderOp::Draw(Draw {
            kind: DrawKind::Draw {
                vertex_count: 3,
                instance_count: 1,
                first_vertex: 0,
                first_instance: 0,
            },
            vertex: Vec::new(),
            index: None,
            bindings,
            color_write: flags & 1 == 1,
            blend: flags & 2 == 2,
            depth_test: flags & 4 == 4,
            depth_write: flags & 8 == 8,
        })
    };
    let clear = |flags: u8| {
        RenderOp::Clear(ClearAttachments {
            colors: (0..1 + u32::from(flags % 2)).collect(),
            depth: flags & 4 == 4,
            stencil: flags & 8 == 8,
        })
    };
    // Bit 6 turns the write-then-read into a read-then-write.
    let (first, second) = if local >> 6 & 1 == 1 {
        (vksync::BindingAccess::Read, vksync::BindingAccess::Write)
    } else {
        (vksync::BindingAccess::Write, vksync::BindingAccess::Read)
    };
    let write = if local >> 4 & 1 == 1 {
        storage(first)
    } else {
        Vec::new()
    };
    let read = if local >> 5 & 1 == 1 {
        storage(second)
    } else {
        Vec::new()
    };
    // Each subpass's commands, and the multiview program's command index
    // of each (the begin is 0; a subpass after the first starts with its
    // end-subpass and next-subpass).
    let mut subpasses = vec![vec![draw(draws, write), clear(draws >> 2)]];
    if two {
        subpasses.push(vec![draw(draws >> 4, read)]);
    }
    let (mut begins, mut ends, mut at) = (vec![0], Vec::new(), 1);
    for (s, cmds) in subpasses.iter().enumerate() {
        if s > 0 {
            begins.push(at - 1);
        }
        at += cmds.len();
        ends.push(at);
        at += 2;
    }
    let mut origin = vec![0];
    for (s, cmds) in subpasses.iter().enumerate() {
        for v in 0..per_view.len().max(1) {
            if s > 0 || v > 0 {
                push(&mut p, RenderOp::EndSubpass { last: false });
                push(&mut p, RenderOp::NextSubpass);
                // The end of the per-view subpass before: its subpass's end.
                origin.push(ends[if v > 0 { s } else { s - 1 }]);
                origin.push(begins[s]);
            }
            for (i, c) in cmds.iter().enumerate() {
                push(&mut p, c.clone());
                origin.push(begins[s] + 1 + i);
            }
        }
    }
    push(&mut p, RenderOp::EndSubpass { last: true });
    push(&mut p, RenderOp::EndPass);
    origin.push(*ends.last().unwrap());
    origin.push(*ends.last().unwrap() + 1);
    // Bit 7: a copy of the storage buffer after the pass (what the pass's
    // dependencies to EXTERNAL order, through the subpasses' chains).
    if local >> 7 & 1 == 1 {
        let whole = |object| vksync::Region {
            object,
            range: vksync::ByteRange::new(0, 256),
        };
        p.push(vksync::Command::Copy {
            src: whole(sb),
            dst: whole(out),
        })
        .unwrap();
        origin.push(*ends.last().unwrap() + 2);
    }
    // The commands counted from the begin, after the fill.
    let origin = (0..before)
        .chain(origin.into_iter().map(|c| c + before))
        .collect();
    (p, origin)
}

/// [`render_pass_program_as`], as it is.
fn render_pass_program(
    two: bool,
    ops: (u8, u8, u8, u8),
    layouts: u8,
    deps: u8,
    draws: u8,
    views: (u8, u8, u8),
) -> vksync::Program {
    render_pass_program_as(two, ops, layouts, deps, draws, views, false).0
}

/// Render pass `rp` (every subpass of one view mask with `n` views) as `n`
/// per-view subpasses for each of its subpasses (the k-th of view j is
/// k·n + j) over `n` copies of its attachments (those of view j numbered
/// from j times its attachment count), no view masks: a dependency
/// between two subpasses goes between the per-view subpasses of one view
/// when it is view-local, of every pair of views when it is not; one from
/// or to `EXTERNAL` to or from each per-view subpass.
fn expand_views(rp: &vksync::RenderPass, n: u32) -> vksync::RenderPass {
    use vksync::{AttachmentReference, ColorReference, SubpassDependency, SubpassDescription, SubpassIndex};
    let count = rp.attachments.len() as u32;
    let att = |r: AttachmentReference, j: u32| AttachmentReference {
        attachment: j * count + r.attachment,
        ..r
    };
    let mut subpasses = Vec::new();
    for sp in &rp.subpasses {
        for j in 0..n {
            subpasses.push(SubpassDescription {
                inputs: sp.inputs.iter().map(|r| att(*r, j)).collect(),
                colors: sp
                    .colors
                    .iter()
                    .map(|c| ColorReference {
                        color: c.color.map(|r| att(r, j)),
                        resolve: c.resolve.map(|r| att(r, j)),
                    })
                    .collect(),
                depth: sp.depth.map(|r| att(r, j)),
                preserve: sp.preserve.iter().map(|a| j * count + a).collect(),
                view_mask: 0,
            });
        }
    }
    let each = |s: SubpassIndex| -> Vec<(SubpassIndex, u32)> {
        match s {
            SubpassIndex::External => vec![(SubpassIndex::External, u32::MAX)],
            SubpassIndex::Subpass(k) => (0..n).map(|j| (SubpassIndex::Subpass(k * n + j), j)).collect(),
        }
    };
    let mut dependencies = Vec::new();
    for d in &rp.dependencies {
        for (src, sj) in each(d.src) {
            for (dst, dj) in each(d.dst) {
                let one_to_one = d.view_local || d.src == d.dst;
                if one_to_one && sj != dj {
                    continue;
                }
                dependencies.push(SubpassDependency {
                    src,
                    dst,
                    view_local: false,
                    ..*d
                });
            }
        }
    }
    vksync::RenderPass {
        name: rp.name.clone(),
        attachments: (0..n).flat_map(|_| rp.attachments.clone()).collect(),
        subpasses,
        dependencies,
    }
}

proptest! {
    #![proptest_config(vksync_proptests::config(256))]

    /// Render pass declarations and commands, built with the API, print
    /// and parse back.
    #[test]
    fn render_pass_programs_print_and_parse_back(
        two in any::<bool>(),
        ops in (0u8..12, 0u8..12, 0u8..12, 0u8..12),
        layouts in 0u8..8,
        deps in any::<u8>(),
        draws in any::<u8>(),
        views in (0u8..4, any::<u8>(), any::<u8>()),
    ) {
        assert_round_trip(&render_pass_program(two, ops, layouts, deps, draws, views))?;
    }
}

/// The (command, kind, memory, byte) of each hazard the fast checker
/// finds, and of each race the definitional semantics finds.
type Bytes = std::collections::BTreeSet<(usize, vksync::HazardKind, u32, u64)>;

fn fast_and_spec(p: &vksync::Program) -> (Bytes, Bytes) {
    let fast = vksync::check(p)
        .unwrap()
        .iter()
        .flat_map(|h| {
            (h.memory.range.start..h.memory.range.end).map(move |b| (h.command, h.kind, h.memory.mem.0, b))
        })
        .collect();
    let spec = vksync::spec::races(p, vksync::spec::Reading::MemoryModel)
        .unwrap()
        .iter()
        .flat_map(|r| (r.range.start..r.range.end).map(move |b| (r.command, r.kind, r.mem.0, b)))
        .collect();
    (fast, spec)
}

proptest! {
    #![proptest_config(vksync_proptests::config(256))]

    /// The same render pass programs: the fast checker and the
    /// definitional semantics find the same hazards (the differential
    /// property of `spec_differential.rs`, on the generator above).
    #[test]
    fn render_pass_programs_agree_with_the_definitional_semantics(
        two in any::<bool>(),
        ops in (0u8..12, 0u8..12, 0u8..12, 0u8..12),
        layouts in 0u8..8,
        deps in any::<u8>(),
        draws in any::<u8>(),
        views in (0u8..4, any::<u8>(), any::<u8>()),
    ) {
        let p = render_pass_program(two, ops, layouts, deps, draws, views);
        let (fast, spec) = fast_and_spec(&p);
        prop_assert!(fast == spec, "fast {fast:?}\nspec {spec:?}\n{}", vksync::trace::print(&p));
    }
}

/// Each race of `p` by the definitional semantics, per byte, with its
/// commands as `origin` maps them; not one between two commands that
/// stand for one (two per-view copies of a command).
fn races_through(p: &vksync::Program, origin: &[usize]) -> Bytes2 {
    vksync::spec::races(p, vksync::spec::Reading::MemoryModel)
        .unwrap()
        .iter()
        .filter(|r| r.command == r.prior_command || origin[r.command] != origin[r.prior_command])
        .flat_map(|r| {
            let (c, prior) = (origin[r.command], origin[r.prior_command]);
            (r.range.start..r.range.end).map(move |b| (c, prior, r.kind, r.mem.0, b))
        })
        .collect()
}

/// (command, earlier command, kind, memory, byte).
type Bytes2 = std::collections::BTreeSet<(usize, usize, vksync::HazardKind, u32, u64)>;

proptest! {
    #![proptest_config(vksync_proptests::config(256))]

    /// A multiview render pass races as the per-view expansion the spec
    /// describes (`render_pass_program_as`, built here from the API, apart
    /// from the model's own per-view writing in `vksync::spec`): the same
    /// (command, earlier command, kind, byte), two copies of one command
    /// (which the multiview program records once) taken as one; with the
    /// storage buffer in the vertex or the fragment shader, filled before
    /// the pass or not. Then the
    /// fast checkers: they decide a program whose pass orders views
    /// (two subpasses, or a barrier inside one) only when its draws make
    /// attachment accesses alone, and then find the same bytes; the rest
    /// they refuse (`RenderPassNotSupported`), which `check` decides by
    /// the definitional semantics.
    #[test]
    fn multiview_render_passes_race_as_their_per_view_subpasses(
        two in any::<bool>(),
        ops in (0u8..12, 0u8..12, 0u8..12, 0u8..12),
        layouts in 0u8..8,
        deps in any::<u8>(),
        draws in any::<u8>(),
        views in (1u8..16, any::<u8>(), any::<u8>()),
    ) {
        let (p, same) = render_pass_program_as(two, ops, layouts, deps, draws, views, false);
        let (e, origin) = render_pass_program_as(two, ops, layouts, deps, draws, views, true);
        prop_assert_eq!(e.commands().len(), origin.len());
        let model = races_through(&p, &same);
        let expanded = races_through(&e, &origin);
        let missed: Vec<_> = expanded.difference(&model).collect();
        let extra: Vec<_> = model.difference(&expanded).collect();
        prop_assert!(extra.is_empty() && missed.is_empty(),
            "the model's races beyond the expansion's: {extra:?}\nthe expansion's the model misses: {missed:?}\n{}\n{}",
            vksync::trace::print(&p), vksync::trace::print(&e));
        match vksync::check_with(&p, vksync::Semantics::default()) {
            Ok(hazards) => {
                let fast: std::collections::BTreeSet<_> = hazards
                    .iter()
                    .flat_map(|h| (h.memory.range.start..h.memory.range.end).map(move |b| (h.command, h.kind, h.memory.mem.0, b)))
                    .collect();
                let spec: std::collections::BTreeSet<_> = model.iter().map(|&(c, _, k, m, b)| (c, k, m, b)).collect();
                prop_assert!(fast == spec, "fast {fast:?}\nspec {spec:?}\n{}", vksync::trace::print(&p));
            }
            Err(e) => prop_assert!(
                matches!(e.kind, vksync::ProgramErrorKind::RenderPassNotSupported { .. }),
                "{e}\n{}", vksync::trace::print(&p)
            ),
        }
    }
}
