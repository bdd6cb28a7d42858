//! The graphics half of the recording: graphics pipelines (what their
//! draws carry: each stage's descriptor bindings by reflection, vertex
//! input bindings, depth/stencil and color blend state, which of those are
//! dynamic), the graphics bind point's state of a command buffer (pipeline,
//! descriptor sets, vertex and index buffers, tracked dynamic state),
//! dynamic rendering (`begin-rendering`, `end-rendering`), the draws, and
//! render passes (`render-pass`, `begin-render-pass`, `next-subpass`,
//! `end-render-pass`, `clear-attachments`).
//!
//! Dynamic rendering and draws are the model's commands
//! ([`vksync::RenderOp`]): they are made [`Command`]s when they are
//! appended at their submission (`Capture::render_entry`), since whether one
//! is well placed depends on what was submitted before. Render passes are
//! not in this model yet (a parallel change adds them, with exactly the
//! syntax written here): their lines, and the draws between
//! `begin-render-pass` and `end-render-pass`, are written as text, in
//! place, through [`Annotations`](vksync::trace::Annotations) comments
//! marked with [`RAW`] that [`unraw`] turns into lines when the trace is
//! written. They are not in the capture's `Program`: they take no part in
//! the host-read approximation and are not counted as commands.
//!
//! What these lines cannot express becomes a `not-modelled` line with the
//! reason: dynamic state the layer does not track (vertex input, color
//! blend enables and write masks set by command), descriptors of stages
//! other than vertex and fragment, view offsets of multiview render passes
//! (their view masks and view-local dependencies are written), depth/stencil
//! resolves, fragment density and shading rate attachments. Suspended
//! and resumed rendering is recorded with its flags (`begin-rendering
//! resuming suspending`): a batch's command buffers are written one after
//! the other, so the pieces meet as the model wants them.

use super::*;
use vksync::{
    Draw, DrawKind, IndexBuffer, IndexType, LoadOp, Rendering, ShaderBinding, ShaderStage, StoreOp,
};
use vksync::{VertexBuffer, VertexRate};

/// What marks a comment as a render pass line (see the module doc).
pub(super) const RAW: char = '\u{1}';

/// The trace text with every line marked [`RAW`] made a line of its own
/// (the `# ` of its comment and the mark removed).
pub(super) fn unraw(text: &str) -> String {
    let marked = format!("# {RAW}");
    if !text.contains(&marked) {
        return text.to_string();
    }
    text.split_inclusive('\n')
        .map(|l| l.strip_prefix(&marked).unwrap_or(l))
        .collect()
}

/// The graphics bind point's state of a command buffer.
#[derive(Clone, Default)]
pub(super) struct CbGraphics {
    pub(super) pipeline: Option<u64>,
    /// Bound sets by set number, as `CommandBuffer::sets` for compute.
    pub(super) sets: HashMap<u32, BoundSet>,
    /// Push descriptor sets by set number.
    pub(super) push: HashMap<u32, Set>,
    /// `vkCmdBindVertexBuffers(2)`: per binding, the buffer, the offset and
    /// the stride the `2` form gave.
    vertex: HashMap<u32, (u64, u64, Option<u64>)>,
    /// `vkCmdBindIndexBuffer(2)`: buffer, offset, index type.
    index: Option<(u64, u64, vk::IndexType)>,
    /// `vkCmdSetDepthTestEnable`, `vkCmdSetDepthWriteEnable`,
    /// `vkCmdSetStencilTestEnable`.
    depth_test: Option<bool>,
    depth_write: Option<bool>,
    stencil_test: Option<bool>,
    /// Inside a render pass begun in this command buffer: whether its
    /// `begin-render-pass` was written (`false`: it is `not-modelled`, and
    /// so is everything up to its end).
    render_pass: Option<bool>,
}

/// A draw made from the graphics bind state ([`Capture::draw_with`]).
pub(super) struct MadeDraw {
    pub(super) draw: Draw,
    /// The pipeline's note for the trace, if any.
    pub(super) note: Option<String>,
    /// Some shader stage reads an input attachment descriptor (its read is
    /// the subpass's, not a binding of the draw).
    pub(super) input_attachments: bool,
}

impl MadeDraw {
    /// The entry the draw is in a command buffer, with `comment`.
    pub(super) fn entry(self, comment: String) -> Entry {
        if self.input_attachments {
            Entry::InputDraw(self.draw, comment)
        } else {
            Entry::Render(RenderOp::Draw(self.draw), comment)
        }
    }
}

/// What `vkCreateGraphicsPipelines` says about one pipeline, as plain
/// values (`layer.rs` reads the structures).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GraphicsInfo {
    /// Each stage: its `VkShaderStageFlagBits`, module, entry point name.
    pub stages: Vec<(vk::ShaderStageFlags, u64, String)>,
    /// The vertex input bindings some attribute reads: binding, stride,
    /// input rate.
    pub vertex_bindings: Vec<(u32, u32, vk::VertexInputRate)>,
    /// `depthTestEnable`, `depthWriteEnable`, `stencilTestEnable` (false
    /// without a depth/stencil state).
    pub depth_test: bool,
    /// `depthWriteEnable`.
    pub depth_write: bool,
    /// `stencilTestEnable`.
    pub stencil_test: bool,
    /// Some attachment has `blendEnable`, or `logicOpEnable` (both read
    /// the color attachments).
    pub blend: bool,
    /// Some attachment has a nonzero `colorWriteMask` (true without a
    /// color blend state: the wider reading).
    pub color_write: bool,
    /// `pDynamicStates`.
    pub dynamic: Vec<vk::DynamicState>,
    /// What the layer could not read (a pipeline library, a module given
    /// inline), making every draw with it `not-modelled`.
    pub refusal: Option<String>,
}

/// A graphics pipeline as its draws need it.
pub(super) struct GfxPipeline {
    /// Vertex and fragment stages: buffer, image and texel buffer uses.
    #[allow(clippy::type_complexity)]
    stages: Vec<(
        ShaderStage,
        BTreeMap<(u32, u32), Use>,
        BTreeMap<(u32, u32), Use>,
        BTreeMap<(u32, u32), Use>,
        // Descriptor arrays indexed with constants only: those elements.
        BTreeMap<(u32, u32), u64>,
    )>,
    vertex: Vec<(u32, u32, VertexRate)>,
    depth_test: bool,
    depth_write: bool,
    stencil_test: bool,
    blend: bool,
    color_write: bool,
    dyn_depth_test: bool,
    dyn_depth_write: bool,
    dyn_stencil_test: bool,
    dyn_stride: bool,
    refusal: Option<String>,
    note: Option<String>,
}

/// A draw command's parameters, buffers as `VkBuffer` handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawCall {
    /// `vkCmdDraw`.
    Draw {
        vertex_count: u32,
        instance_count: u32,
        first_vertex: u32,
        first_instance: u32,
    },
    /// `vkCmdDrawIndexed`.
    Indexed {
        index_count: u32,
        instance_count: u32,
        first_index: u32,
        first_instance: u32,
    },
    /// `vkCmdDrawIndirect`, `vkCmdDrawIndexedIndirect`.
    Indirect {
        indexed: bool,
        buffer: u64,
        offset: u64,
        draw_count: u32,
        stride: u32,
    },
    /// `vkCmdDraw(Indexed)IndirectCount`.
    IndirectCount {
        indexed: bool,
        buffer: u64,
        offset: u64,
        count_buffer: u64,
        count_offset: u64,
        max_draw_count: u32,
        stride: u32,
    },
}

/// One attachment of `vkCmdBeginRendering` (`VkRenderingAttachmentInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderingAttachment {
    /// `imageView`.
    pub view: u64,
    /// `imageLayout`.
    pub layout: vk::ImageLayout,
    /// `loadOp`.
    pub load: vk::AttachmentLoadOp,
    /// `storeOp`.
    pub store: vk::AttachmentStoreOp,
    /// `resolveImageView` and `resolveImageLayout` when `resolveMode` is
    /// not `NONE`.
    pub resolve: Option<(u64, vk::ImageLayout)>,
}

/// A `renderArea` (offset x, y, extent width, height) as the trace's
/// unsigned numbers, or why not: a negative offset, which `vuids` forbid.
fn area_u32(area: [i64; 4], vuids: &str) -> Result<[u32; 4], String> {
    let [x, y, w, h] = area;
    match (
        u32::try_from(x),
        u32::try_from(y),
        u32::try_from(w),
        u32::try_from(h),
    ) {
        (Ok(x), Ok(y), Ok(w), Ok(h)) => Ok([x, y, w, h]),
        _ => Err(format!("renderArea {x},{y},{w},{h} out of range ({vuids})")),
    }
}

/// `VkRenderingInfo`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenderingInfo {
    /// `flags`.
    pub flags: vk::RenderingFlags,
    /// `viewMask`.
    pub view_mask: u32,
    /// `renderArea`: offset x, y, extent width, height.
    pub render_area: [i64; 4],
    /// `layerCount`.
    pub layer_count: u32,
    /// `pColorAttachments` (`None` for a null `imageView`).
    pub colors: Vec<Option<RenderingAttachment>>,
    /// `pDepthAttachment` with a view.
    pub depth: Option<RenderingAttachment>,
    /// `pStencilAttachment` with a view.
    pub stencil: Option<RenderingAttachment>,
}

/// One attachment of a render pass: format, load and store ops, stencil
/// load and store ops, initial and final layouts.
pub type Attachments = (
    vk::Format,
    vk::AttachmentLoadOp,
    vk::AttachmentStoreOp,
    vk::AttachmentLoadOp,
    vk::AttachmentStoreOp,
    vk::ImageLayout,
    vk::ImageLayout,
);

/// One subpass (`VkSubpassDescription(2)`); attachment numbers are
/// `VK_ATTACHMENT_UNUSED` where unused.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubpassInfo {
    /// `pInputAttachments`.
    pub inputs: Vec<(u32, vk::ImageLayout)>,
    /// `pColorAttachments`.
    pub colors: Vec<(u32, vk::ImageLayout)>,
    /// `pResolveAttachments` (empty, or one per color attachment).
    pub resolves: Vec<(u32, vk::ImageLayout)>,
    /// `pDepthStencilAttachment`.
    pub depth: Option<(u32, vk::ImageLayout)>,
    /// `pPreserveAttachments`.
    pub preserve: Vec<u32>,
    /// `viewMask` (`VkSubpassDescription2`, or `pViewMasks[i]` of a
    /// `VkRenderPassMultiviewCreateInfo`); 0 without multiview.
    pub view_mask: u32,
}

/// `vkCreateRenderPass(2)` as plain values; dependency masks already in
/// synchronization-2 bits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenderPassInfo {
    /// `pAttachments`.
    pub attachments: Vec<Attachments>,
    /// `pSubpasses`.
    pub subpasses: Vec<SubpassInfo>,
    /// `pDependencies`: source and destination subpass
    /// (`VK_SUBPASS_EXTERNAL` as is), source stages, source access,
    /// destination stages, destination access, `dependencyFlags`
    /// (`BY_REGION`, `VIEW_LOCAL`; a nonzero view offset is a refusal).
    pub dependencies: Vec<(u32, u32, [u64; 4], vk::DependencyFlags)>,
    /// What the line cannot express (a view offset, a depth/stencil
    /// resolve, fragment density or shading rate attachments, subpass
    /// flags).
    pub refusal: Option<String>,
}

/// A render pass: its trace name, or why it is not modelled.
pub(super) struct RenderPass {
    name: Result<String, String>,
}

const UNUSED: u32 = vk::ATTACHMENT_UNUSED;

fn load_op(op: vk::AttachmentLoadOp) -> Result<LoadOp, String> {
    Ok(match op {
        vk::AttachmentLoadOp::LOAD => LoadOp::Load,
        vk::AttachmentLoadOp::CLEAR => LoadOp::Clear,
        vk::AttachmentLoadOp::DONT_CARE => LoadOp::DontCare,
        vk::AttachmentLoadOp::NONE_KHR => LoadOp::None,
        other => return Err(format!("load op {other:?} is not in the model")),
    })
}

fn store_op(op: vk::AttachmentStoreOp) -> Result<StoreOp, String> {
    Ok(match op {
        vk::AttachmentStoreOp::STORE => StoreOp::Store,
        vk::AttachmentStoreOp::DONT_CARE => StoreOp::DontCare,
        vk::AttachmentStoreOp::NONE => StoreOp::None,
        other => return Err(format!("store op {other:?} is not in the model")),
    })
}

fn layout(l: vk::ImageLayout) -> Result<vksync::ImageLayout, String> {
    model_layout(l).ok_or_else(|| format!("layout {l:?} is not in the model"))
}

/// The dynamic states whose commands the layer does not track: a pipeline
/// with one of them makes its draws `not-modelled`.
const UNTRACKED: &[(vk::DynamicState, &str)] = &[
    (
        vk::DynamicState::VERTEX_INPUT_EXT,
        "VK_DYNAMIC_STATE_VERTEX_INPUT_EXT",
    ),
    (
        vk::DynamicState::COLOR_BLEND_ENABLE_EXT,
        "VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT",
    ),
    (
        vk::DynamicState::COLOR_WRITE_MASK_EXT,
        "VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT",
    ),
    (
        vk::DynamicState::COLOR_WRITE_ENABLE_EXT,
        "VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT",
    ),
    (
        vk::DynamicState::LOGIC_OP_ENABLE_EXT,
        "VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT",
    ),
];

impl Capture {
    /// One pipeline of `vkCreateGraphicsPipelines`.
    pub fn create_graphics_pipeline(&mut self, pipeline: u64, info: &GraphicsInfo) {
        let mut refusal = info.refusal.clone();
        let mut note = None;
        let has = |s: vk::DynamicState| info.dynamic.contains(&s);
        if let Some((_, name)) = UNTRACKED.iter().find(|(s, _)| has(*s)) {
            refusal.get_or_insert(format!("the pipeline's dynamic state {name} is not tracked"));
        }
        let mut stages = Vec::new();
        for (flags, module, entry) in &info.stages {
            let (stage, model) = match *flags {
                vk::ShaderStageFlags::VERTEX => (Some(ShaderStage::Vertex), GraphicsStage::Vertex),
                vk::ShaderStageFlags::FRAGMENT => (Some(ShaderStage::Fragment), GraphicsStage::Fragment),
                vk::ShaderStageFlags::GEOMETRY => (None, GraphicsStage::Geometry),
                vk::ShaderStageFlags::TESSELLATION_CONTROL => (None, GraphicsStage::TessellationControl),
                vk::ShaderStageFlags::TESSELLATION_EVALUATION => {
                    (None, GraphicsStage::TessellationEvaluation)
                }
                other => {
                    refusal.get_or_insert(format!("shader stage {other:?} is not modelled"));
                    continue;
                }
            };
            let Some(res) = self
                .shaders
                .get(module)
                .and_then(|s| s.graphics.get(&(model, entry.clone())))
            else {
                refusal.get_or_insert(format!(
                    "no {model:?} entry point `{entry}` found by reflection in its module"
                ));
                continue;
            };
            if res.values().any(|r| !r.exact) {
                note = Some("a descriptor use reflection did not understand: counted read-write".to_string());
            }
            let Some(stage) = stage else {
                if !res.is_empty() {
                    refusal.get_or_insert(format!(
                        "the {model:?} stage uses descriptors (the trace's draws bind vertex and fragment shader descriptors only)"
                    ));
                }
                continue;
            };
            let pick = |kinds: &[Kind]| -> BTreeMap<(u32, u32), Use> {
                res.iter()
                    .filter(|(_, r)| kinds.contains(&r.kind))
                    .map(|(k, r)| (*k, r.used))
                    .collect()
            };
            if res.values().any(|r| r.kind == Kind::Other) {
                refusal.get_or_insert(format!(
                    "the {model:?} stage uses a descriptor that is neither a buffer, an image nor a texel buffer"
                ));
            }
            stages.push((
                stage,
                pick(&[Kind::Buffer, Kind::Unknown]),
                pick(&[Kind::Image]),
                pick(&[Kind::TexelBuffer]),
                res.iter().filter_map(|(k, r)| Some((*k, r.elements?))).collect(),
            ));
        }
        let vertex = info
            .vertex_bindings
            .iter()
            .map(|&(b, stride, rate)| {
                let rate = if rate == vk::VertexInputRate::INSTANCE {
                    VertexRate::Instance
                } else {
                    VertexRate::Vertex
                };
                (b, stride, rate)
            })
            .collect();
        self.gfx_pipelines.insert(
            pipeline,
            GfxPipeline {
                stages,
                vertex,
                depth_test: info.depth_test,
                depth_write: info.depth_write,
                stencil_test: info.stencil_test,
                blend: info.blend,
                color_write: info.color_write,
                dyn_depth_test: has(vk::DynamicState::DEPTH_TEST_ENABLE),
                dyn_depth_write: has(vk::DynamicState::DEPTH_WRITE_ENABLE),
                dyn_stencil_test: has(vk::DynamicState::STENCIL_TEST_ENABLE),
                dyn_stride: has(vk::DynamicState::VERTEX_INPUT_BINDING_STRIDE),
                refusal,
                note,
            },
        );
    }

    /// `vkDestroyPipeline`.
    pub fn destroy_pipeline(&mut self, pipeline: u64) {
        self.gfx_pipelines.remove(&pipeline);
        self.pipelines.remove(&pipeline);
    }

    /// `vkCmdBindVertexBuffers(2)`: `(buffer, offset, stride)` from binding
    /// `first` on (the stride given by the `2` form only).
    pub fn bind_vertex_buffers(&mut self, cb: u64, first: u32, buffers: &[(u64, u64, Option<u64>)]) {
        let g = &mut self.cbs.entry(cb).or_default().gfx;
        for (k, b) in buffers.iter().enumerate() {
            g.vertex.insert(first + k as u32, *b);
        }
    }

    /// `vkCmdBindIndexBuffer(2)`.
    pub fn bind_index_buffer(&mut self, cb: u64, buffer: u64, offset: u64, ty: vk::IndexType) {
        self.cbs.entry(cb).or_default().gfx.index = Some((buffer, offset, ty));
    }

    /// `vkCmdSetDepthTestEnable`, `vkCmdSetDepthWriteEnable`,
    /// `vkCmdSetStencilTestEnable` (`which`: 0, 1, 2).
    pub fn set_depth_state(&mut self, cb: u64, which: u8, on: bool) {
        let g = &mut self.cbs.entry(cb).or_default().gfx;
        match which {
            0 => g.depth_test = Some(on),
            1 => g.depth_write = Some(on),
            _ => g.stencil_test = Some(on),
        }
    }

    /// A draw command: `draw ...` with the state it is recorded with.
    pub fn draw(&mut self, cb: u64, seq: u64, call: &str, d: DrawCall) {
        if self.in_refused_render_pass(cb, seq, call) {
            return;
        }
        if let Some(gfx) = self.cbs.get(&cb).map(|c| &c.gfx) {
            let gp = gfx.pipeline.and_then(|p| self.gfx_pipelines.get(&p));
            if let Some(gp) = gp.filter(|gp| {
                gp.refusal.is_none()
                    && self.after_bind(
                        &gfx.sets,
                        gp.stages
                            .iter()
                            .flat_map(|(_, u, i, t, _)| u.keys().chain(i.keys()).chain(t.keys())),
                    )
            }) {
                let note = gp.note.clone();
                let deferred = Deferred::Draw {
                    gfx: Box::new(gfx.clone()),
                    call: d,
                };
                if let Some(n) = note {
                    self.note(Some(cb), format!("{call} #{seq}: {n}"));
                }
                self.push(cb, Entry::Deferred(Box::new(deferred), format!("{call} #{seq}")));
                return;
            }
        }
        match self.draw_op(cb, d) {
            Ok(made) => {
                if let Some(n) = &made.note {
                    self.note(Some(cb), format!("{call} #{seq}: {n}"));
                }
                self.push(cb, made.entry(format!("{call} #{seq}")));
            }
            Err(e) => self.not_modelled(Some(cb), seq, call, &e),
        }
    }

    /// Inside a render pass whose `begin-render-pass` is `not-modelled`:
    /// then the call is too (its line would have no render pass to be in).
    fn in_refused_render_pass(&mut self, cb: u64, seq: u64, call: &str) -> bool {
        let refused = self.cbs.get(&cb).and_then(|c| c.gfx.render_pass) == Some(false);
        if refused {
            self.not_modelled(Some(cb), seq, call, "inside a render pass that is not modelled");
        }
        refused
    }

    fn buffer_obj(&self, buffer: u64) -> Result<ObjectId, String> {
        self.buffers
            .get(&buffer)
            .and_then(|b| b.obj)
            .ok_or_else(|| "an unknown buffer, or one without memory".to_string())
    }

    fn draw_op(&self, cb: u64, call: DrawCall) -> Result<MadeDraw, String> {
        let state = self.cbs.get(&cb).ok_or("an unknown command buffer")?;
        self.draw_with(&state.gfx, call)
    }

    /// A draw with the graphics bind state `g`.
    pub(super) fn draw_with(&self, g: &CbGraphics, call: DrawCall) -> Result<MadeDraw, String> {
        let p = g.pipeline.ok_or("no graphics pipeline bound")?;
        let gp = self.gfx_pipelines.get(&p).ok_or("an unknown graphics pipeline")?;
        if let Some(r) = &gp.refusal {
            return Err(r.clone());
        }
        let kind = match call {
            DrawCall::Draw {
                vertex_count,
                instance_count,
                first_vertex,
                first_instance,
            } => DrawKind::Draw {
                vertex_count,
                instance_count,
                first_vertex,
                first_instance,
            },
            DrawCall::Indexed {
                index_count,
                instance_count,
                first_index,
                first_instance,
            } => DrawKind::DrawIndexed {
                index_count,
                instance_count,
                first_index,
                first_instance,
            },
            DrawCall::Indirect {
                indexed,
                buffer,
                offset,
                draw_count,
                stride,
            } => DrawKind::Indirect {
                indexed,
                buffer: self
                    .buffer_obj(buffer)
                    .map_err(|e| format!("the indirect buffer: {e}"))?,
                offset,
                draw_count,
                stride,
            },
            DrawCall::IndirectCount {
                indexed,
                buffer,
                offset,
                count_buffer,
                count_offset,
                max_draw_count,
                stride,
            } => DrawKind::IndirectCount {
                indexed,
                buffer: self
                    .buffer_obj(buffer)
                    .map_err(|e| format!("the indirect buffer: {e}"))?,
                offset,
                count_buffer: self
                    .buffer_obj(count_buffer)
                    .map_err(|e| format!("the count buffer: {e}"))?,
                count_offset,
                max_draw_count,
                stride,
            },
        };
        let mut vertex = Vec::new();
        for &(binding, stride, rate) in &gp.vertex {
            let &(buffer, offset, given) = g
                .vertex
                .get(&binding)
                .ok_or_else(|| format!("vertex buffer binding {binding} not bound"))?;
            let stride = match (gp.dyn_stride, given) {
                (true, Some(s)) => s,
                (true, None) => {
                    return Err(format!(
                        "binding {binding}'s stride is dynamic (VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE) and no vkCmdBindVertexBuffers2 gave it"
                    ))
                }
                (false, _) => u64::from(stride),
            };
            vertex.push(VertexBuffer {
                buffer: self
                    .buffer_obj(buffer)
                    .map_err(|e| format!("vertex buffer binding {binding}: {e}"))?,
                offset,
                stride,
                rate,
            });
        }
        let index = if kind.indexed() {
            let (buffer, offset, ty) = g.index.ok_or("an indexed draw with no index buffer bound")?;
            let index_type = match ty {
                vk::IndexType::UINT16 => IndexType::U16,
                vk::IndexType::UINT32 => IndexType::U32,
                vk::IndexType::UINT8_EXT => IndexType::U8,
                other => return Err(format!("index type {other:?} is not modelled")),
            };
            Some(IndexBuffer {
                buffer: self
                    .buffer_obj(buffer)
                    .map_err(|e| format!("the index buffer: {e}"))?,
                offset,
                index_type,
            })
        } else {
            None
        };
        let mut bindings = Vec::new();
        let mut input_attachments = false;
        for (stage, uses, image_uses, texel_uses, elements) in &gp.stages {
            let (bs, inputs) = self
                .descriptor_bindings(&g.sets, &g.push, uses, image_uses, texel_uses, elements)
                .map_err(|e| format!("the {} stage: {e}", stage.keyword()))?;
            input_attachments |= inputs;
            for b in bs {
                bindings.push(ShaderBinding {
                    stage: *stage,
                    binding: b,
                });
            }
        }
        let depth_test = if gp.dyn_depth_test {
            g.depth_test.unwrap_or(true)
        } else {
            gp.depth_test
        };
        let depth_write = if gp.dyn_depth_write {
            g.depth_write.unwrap_or(true)
        } else {
            gp.depth_write
        };
        let stencil_test = if gp.dyn_stencil_test {
            g.stencil_test.unwrap_or(true)
        } else {
            gp.stencil_test
        };
        Ok(MadeDraw {
            draw: Draw {
                kind,
                vertex,
                index,
                bindings,
                color_write: gp.color_write,
                blend: gp.blend,
                // "depth writes are always disabled when depthTestEnable
                // is VK_FALSE"; the stencil test reads and may write the
                // stencil aspect (the model's one depth/stencil access).
                depth_test: depth_test || stencil_test,
                depth_write: (depth_test && depth_write) || stencil_test,
            },
            note: gp.note.clone(),
            input_attachments,
        })
    }

    /// An attachment view's image (declared exactly) and subresource range
    /// (raw).
    fn attachment_view(&self, view: u64) -> Result<(ObjectId, [u32; 5]), String> {
        let v = self.views.get(&view).ok_or("an unknown image view")?;
        let i = self.images.get(&v.image).ok_or("a view of an unknown image")?;
        let obj = i.obj.ok_or("a view of an image without memory")?;
        if !i.exact {
            return Err(format!(
                "an attachment of an image declared coarsely (format {:?}): the model's attachments are images",
                i.info.format
            ));
        }
        Ok((obj, v.range))
    }

    fn rendering_attachment(
        &self,
        a: &RenderingAttachment,
        aspects: Option<vk::ImageAspectFlags>,
    ) -> Result<vksync::Attachment, String> {
        let (image, mut raw) = self.attachment_view(a.view)?;
        if let Some(aspects) = aspects {
            raw[0] &= aspects.as_raw();
        }
        let resolve = match a.resolve {
            Some((view, l)) => {
                let (ri, rr) = self.attachment_view(view).map_err(|e| format!("resolve: {e}"))?;
                Some((ri, model_range(rr), layout(l)?))
            }
            None => None,
        };
        Ok(vksync::Attachment {
            image,
            range: model_range(raw),
            layout: layout(a.layout)?,
            load: load_op(a.load)?,
            store: store_op(a.store)?,
            resolve,
        })
    }

    /// `vkCmdBeginRendering(KHR)`.
    pub fn begin_rendering(&mut self, cb: u64, seq: u64, call: &str, info: &RenderingInfo) {
        match self.rendering(info) {
            Ok(r) => self.push(cb, Entry::Render(RenderOp::Begin(r), format!("{call} #{seq}"))),
            Err(e) => self.not_modelled(Some(cb), seq, call, &e),
        }
    }

    fn rendering(&self, info: &RenderingInfo) -> Result<Rendering, String> {
        let mut r = Rendering::default();
        for (k, a) in info.colors.iter().enumerate() {
            match a {
                Some(a) => r.colors.push(
                    self.rendering_attachment(a, None)
                        .map_err(|e| format!("pColorAttachments[{k}]: {e}"))?,
                ),
                None if k + 1 < info.colors.len() => {
                    return Err(format!(
                        "pColorAttachments[{k}] has no view and a later one has: the trace numbers color attachments without gaps"
                    ))
                }
                None => {}
            }
        }
        let ds = vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL;
        r.depth = match (&info.depth, &info.stencil) {
            (Some(d), Some(s)) if d.view == s.view => {
                if (d.layout, d.load, d.store) != (s.layout, s.load, s.store) {
                    return Err(
                        "depth and stencil attachments of one view with different layouts or ops (the model has one depth/stencil attachment)"
                            .into(),
                    );
                }
                Some(self.rendering_attachment(d, Some(ds))?)
            }
            (Some(_), Some(_)) => {
                return Err("depth and stencil attachments of different views are not modelled".into())
            }
            (Some(d), None) => Some(
                self.rendering_attachment(d, Some(vk::ImageAspectFlags::DEPTH))
                    .map_err(|e| format!("pDepthAttachment: {e}"))?,
            ),
            (None, Some(s)) => Some(
                self.rendering_attachment(s, Some(vk::ImageAspectFlags::STENCIL))
                    .map_err(|e| format!("pStencilAttachment: {e}"))?,
            ),
            (None, None) => None,
        };
        // A suspended instance resumed in the next command buffer of the
        // same batch: the program writes the batch's command buffers one
        // after the other, so the two meet as the model wants them.
        r.resuming = info.flags.contains(vk::RenderingFlags::RESUMING);
        r.suspending = info.flags.contains(vk::RenderingFlags::SUSPENDING);
        self.area_and_views(info, &mut r)?;
        Ok(r)
    }

    /// `renderArea`, `layerCount` and `viewMask` into `r`, each only where
    /// it differs from what the model takes without it (the rectangle from
    /// the origin every view holds, every layer of each view), so that
    /// the usual instance keeps its short line.
    fn area_and_views(&self, info: &RenderingInfo, r: &mut Rendering) -> Result<(), String> {
        let [x, y, w, h] = area_u32(info.render_area, "VUID-VkRenderingInfo-pNext-06077, -06078")?;
        let mut extent = [u32::MAX, u32::MAX];
        let mut layers = u32::MAX;
        for a in r.colors.iter().chain(r.depth.iter()) {
            let Some(d) = self.program.image(a.image) else {
                continue;
            };
            let [vw, vh, _] = d.mip_extent(a.range.base_mip);
            extent = [extent[0].min(vw), extent[1].min(vh)];
            if let Ok((_, _, _, l0, l1)) = d.resolve_range(a.range) {
                layers = layers.min(l1 - l0);
            }
        }
        if [x, y, w, h] != [0, 0, extent[0], extent[1]] {
            r.render_area = Some([x, y, w, h]);
        }
        if info.view_mask != 0 {
            r.view_mask = info.view_mask;
        } else if info.layer_count != layers {
            r.layer_count = Some(info.layer_count);
        }
        Ok(())
    }

    /// `vkCmdEndRendering(KHR)`.
    pub fn end_rendering(&mut self, cb: u64, seq: u64, call: &str) {
        self.push(cb, Entry::Render(RenderOp::End, format!("{call} #{seq}")));
    }

    /// A rendering command reaching the program at its submission: inside a
    /// render pass a draw is a render pass line; otherwise the model makes
    /// it a command, or says why it rejects it (a `not-modelled` line). A
    /// draw that reads input attachment descriptors (`input_attachments`)
    /// outside a render pass reads attachments of a dynamic rendering
    /// instance (`VK_KHR_dynamic_rendering_local_read`), which the model
    /// does not express: `not-modelled`.
    pub(super) fn render_entry(
        &mut self,
        op: RenderOp,
        comment: String,
        input_attachments: bool,
    ) -> Option<Entry> {
        if input_attachments && !self.in_render_pass {
            self.not_modelled += 1;
            let (call, here) = comment
                .find(" in ")
                .map_or((comment.as_str(), ""), |i| comment.split_at(i));
            let at = self.program.commands().len();
            self.not_modelled_line(
                at,
                &format!(
                    "{call} (it reads an input attachment outside a render pass: dynamic rendering local read, \
                     VK_KHR_dynamic_rendering_local_read, is not modelled)"
                ),
                here,
            );
            return None;
        }
        if self.in_render_pass {
            if let RenderOp::Draw(d) = &op {
                self.raw_draw_accesses(d);
                return Some(Entry::Raw(
                    vksync::trace::print_render_op(&self.program, &RenderOp::Draw(d.clone())),
                    comment,
                ));
            }
        }
        match self.program.render_command(op) {
            Ok(c) => Some(Entry::Cmd(c, comment)),
            Err(e) => {
                self.not_modelled += 1;
                let (call, here) = comment
                    .find(" in ")
                    .map_or((comment.as_str(), ""), |i| comment.split_at(i));
                let at = self.program.commands().len();
                self.not_modelled_line(at, &format!("{call} (the model rejects it: {e})"), here);
                None
            }
        }
    }

    /// What a draw reads and writes, for the host-read approximation:
    /// buffer bytes only, and wider than the model's (a vertex, index or
    /// indirect buffer from its offset to its end), so a result it
    /// consumes is not taken for one the host reads.
    pub(super) fn draw_regions(&self, d: &Draw) -> (Vec<Region>, Vec<Region>) {
        let to_end = |program: &Program, object: ObjectId, offset: u64| {
            let size = program.object(object).map_or(offset, |o| o.size);
            Region {
                object,
                range: ByteRange::new(offset.min(size), size),
            }
        };
        let mut reads: Vec<Region> = d
            .vertex
            .iter()
            .map(|v| to_end(&self.program, v.buffer, v.offset))
            .chain(d.index.map(|i| to_end(&self.program, i.buffer, i.offset)))
            .collect();
        match d.kind {
            DrawKind::Indirect { buffer, offset, .. } => reads.push(to_end(&self.program, buffer, offset)),
            DrawKind::IndirectCount {
                buffer,
                offset,
                count_buffer,
                count_offset,
                ..
            } => {
                reads.push(to_end(&self.program, buffer, offset));
                reads.push(to_end(&self.program, count_buffer, count_offset));
            }
            _ => {}
        }
        let mut writes = Vec::new();
        for b in &d.bindings {
            match b.binding.access {
                BindingAccess::Write => writes.push(b.binding.region),
                BindingAccess::ReadWrite => {
                    reads.push(b.binding.region);
                    writes.push(b.binding.region);
                }
                _ => reads.push(b.binding.region),
            }
        }
        (reads, writes)
    }

    /// What a draw written as text reads and writes ([`Capture::draw_regions`]),
    /// kept for the host-read approximation (`Capture::append` does this
    /// for commands).
    fn raw_draw_accesses(&mut self, d: &Draw) {
        let (reads, writes) = self.draw_regions(d);
        let sub = self.submissions + 1;
        let dirty: Vec<_> = writes
            .iter()
            .filter_map(|r| self.mem_range(*r))
            .map(|(m, s, e)| (m, s, e, sub))
            .collect();
        self.dirty.extend(dirty);
        let ord = self.device_ord;
        self.device_ord += 1;
        self.device_reads.extend(reads.into_iter().map(|r| (ord, r)));
        self.device_writes
            .extend(writes.into_iter().map(|r| (ord, sub, r)));
    }

    /// A render pass line at the end of the program so far.
    pub(super) fn raw_line(&mut self, text: &str, comment: &str) {
        if text.starts_with("begin-render-pass") {
            self.in_render_pass = true;
        } else if text == "end-render-pass" {
            self.in_render_pass = false;
        }
        let at = self.program.commands().len();
        self.notes.before(at, &format!("{RAW}{text}  # {comment}"));
    }

    /// `vkCreateRenderPass(2)`: the `render-pass` declaration, written
    /// before the next submitted command.
    pub fn create_render_pass(&mut self, seq: u64, call: &str, rp: u64, info: &RenderPassInfo) {
        let name = format!("rp{}", self.render_pass_count);
        self.render_pass_count += 1;
        // What the model refuses in a declaration (an input attachment
        // that is also a color one of its subpass, an input layout it
        // does not take, ...) is a `not-modelled` line here, with the
        // model's reason, not a trace that fails to parse at the
        // declaration and so drops the whole program: the model's parser
        // is the one home of those rules.
        let text = render_pass_text(info).and_then(|text| {
            vksync::trace::parse(&format!("render-pass {name} {text}\n"))
                .map(|_| text)
                .map_err(|e| format!("the model refuses it: {}", e.message))
        });
        match text {
            Ok(text) => {
                self.pending.push(Entry::Raw(
                    format!("render-pass {name} {text}"),
                    format!("{call} #{seq}"),
                ));
                self.render_passes.insert(rp, RenderPass { name: Ok(name) });
            }
            Err(e) => {
                self.not_modelled(None, seq, call, &e);
                self.render_passes.insert(
                    rp,
                    RenderPass {
                        name: Err(format!("its render pass is not modelled: {e}")),
                    },
                );
            }
        }
    }

    /// `vkDestroyRenderPass`.
    pub fn destroy_render_pass(&mut self, rp: u64) {
        self.render_passes.remove(&rp);
    }

    /// `vkCreateFramebuffer`: its views (`None` for an imageless one).
    pub fn create_framebuffer(&mut self, fb: u64, views: Option<Vec<u64>>) {
        self.framebuffers.insert(fb, views);
    }

    /// `vkDestroyFramebuffer`.
    pub fn destroy_framebuffer(&mut self, fb: u64) {
        self.framebuffers.remove(&fb);
    }

    /// `vkCmdBeginRenderPass(2)(KHR)`: `begin-render-pass RP` with the
    /// framebuffer's views (or those of `VkRenderPassAttachmentBeginInfo`).
    pub fn begin_render_pass(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        (rp, fb): (u64, u64),
        begin_views: Option<Vec<u64>>,
        render_area: [i64; 4],
    ) {
        let text = self.begin_render_pass_text(rp, fb, begin_views, render_area);
        self.cbs.entry(cb).or_default().gfx.render_pass = Some(text.is_ok());
        match text {
            Ok(t) => self.push(cb, Entry::Raw(t, format!("{call} #{seq}"))),
            Err(e) => self.not_modelled(Some(cb), seq, call, &e),
        }
    }

    fn begin_render_pass_text(
        &self,
        rp: u64,
        fb: u64,
        begin_views: Option<Vec<u64>>,
        render_area: [i64; 4],
    ) -> Result<String, String> {
        let name = self
            .render_passes
            .get(&rp)
            .ok_or("an unknown render pass")?
            .name
            .clone()?;
        let views = match begin_views {
            Some(v) => v,
            None => self
                .framebuffers
                .get(&fb)
                .ok_or("an unknown framebuffer")?
                .clone()
                .ok_or("an imageless framebuffer begun without VkRenderPassAttachmentBeginInfo")?,
        };
        let mut parts = Vec::new();
        // The framebuffer as the model takes it: the rectangle from the
        // origin every view holds; `renderArea` is written where it differs.
        let mut extent = [u32::MAX, u32::MAX];
        for (k, v) in views.iter().enumerate() {
            let (obj, range) = self
                .attachment_view(*v)
                .map_err(|e| format!("attachment {k}: {e}"))?;
            let n = self.program.object(obj).map_or("?", |o| o.name.as_str());
            let range = model_range(range);
            if let Some(d) = self.program.image(obj) {
                let [w, h, _] = d.mip_extent(range.base_mip);
                extent = [extent[0].min(w), extent[1].min(h)];
            }
            parts.push(format!("{n} {range}"));
        }
        let [x, y, w, h] = area_u32(render_area, "VUID-VkRenderPassBeginInfo-pNext-02850, -02851")?;
        let area = if [x, y, w, h] == [0, 0, extent[0], extent[1]] {
            String::new()
        } else {
            format!(" renderArea={x},{y},{w},{h}")
        };
        Ok(format!("begin-render-pass {name}{area} {}", parts.join(" ; ")))
    }

    /// `vkCmdNextSubpass(2)(KHR)`, `vkCmdEndRenderPass(2)(KHR)`.
    pub fn render_pass_step(&mut self, cb: u64, seq: u64, call: &str, end: bool) {
        let refused = self.in_refused_render_pass(cb, seq, call);
        if end {
            self.cbs.entry(cb).or_default().gfx.render_pass = None;
        }
        if refused {
            return;
        }
        let text = if end { "end-render-pass" } else { "next-subpass" };
        self.push(cb, Entry::Raw(text.to_string(), format!("{call} #{seq}")));
    }

    /// `vkCmdClearAttachments`: each `VkClearAttachment`'s aspects and
    /// `colorAttachment` (the rectangles are left out: the whole render
    /// area, wider).
    pub fn clear_attachments(
        &mut self,
        cb: u64,
        seq: u64,
        call: &str,
        clears: &[(vk::ImageAspectFlags, u32)],
    ) {
        if self.in_refused_render_pass(cb, seq, call) {
            return;
        }
        let mut parts = Vec::new();
        for &(aspects, color) in clears {
            if aspects.contains(vk::ImageAspectFlags::COLOR) {
                parts.push(format!("color {color}"));
            }
            if aspects.contains(vk::ImageAspectFlags::DEPTH) {
                parts.push("depth".to_string());
            }
            if aspects.contains(vk::ImageAspectFlags::STENCIL) {
                parts.push("stencil".to_string());
            }
        }
        if parts.is_empty() {
            self.not_modelled(Some(cb), seq, call, "no color, depth or stencil aspect to clear");
            return;
        }
        self.push(
            cb,
            Entry::Raw(
                format!("clear-attachments {}", parts.join(" ; ")),
                format!("{call} #{seq}"),
            ),
        );
    }
}

/// The `render-pass` declaration after its name.
fn render_pass_text(info: &RenderPassInfo) -> Result<String, String> {
    if let Some(r) = &info.refusal {
        return Err(r.clone());
    }
    let mut parts = Vec::new();
    for (k, &(format, load, store, sload, sstore, initial, fin)) in info.attachments.iter().enumerate() {
        let f = model_format(format)
            .ok_or_else(|| format!("attachment {k}'s format {format:?} is not in the model's table"))?;
        let mut t = format!(
            "attachment {f} {} {}",
            load_op(load)?.keyword(),
            store_op(store)?.keyword()
        );
        if f.aspect_mask().has(vksync::Aspect::Stencil) {
            t.push_str(&format!(
                " stencil {} {}",
                load_op(sload)?.keyword(),
                store_op(sstore)?.keyword()
            ));
        }
        t.push_str(&format!(" {}->{}", layout(initial)?, layout(fin)?));
        parts.push(t);
    }
    let n = info.attachments.len() as u32;
    let check = |a: u32| -> Result<u32, String> {
        if a < n {
            Ok(a)
        } else {
            Err(format!("attachment reference {a} past the {n} attachments"))
        }
    };
    for s in &info.subpasses {
        let mut t = "subpass".to_string();
        if s.view_mask != 0 {
            t.push_str(&format!(" viewMask={}", s.view_mask));
        }
        for &(a, l) in &s.inputs {
            if a != UNUSED {
                t.push_str(&format!(" input {} {}", check(a)?, layout(l)?));
            }
        }
        for (k, &(a, l)) in s.colors.iter().enumerate() {
            if a == UNUSED {
                t.push_str(" color unused");
            } else {
                t.push_str(&format!(" color {} {}", check(a)?, layout(l)?));
            }
            if let Some(&(r, rl)) = s.resolves.get(k) {
                if r != UNUSED {
                    t.push_str(&format!(" resolve {} {}", check(r)?, layout(rl)?));
                }
            }
        }
        if let Some((a, l)) = s.depth {
            if a != UNUSED {
                t.push_str(&format!(" depth {} {}", check(a)?, layout(l)?));
            }
        }
        for &a in &s.preserve {
            t.push_str(&format!(" preserve {}", check(a)?));
        }
        parts.push(t);
    }
    let subpass = |s: u32| {
        if s == vk::SUBPASS_EXTERNAL {
            "EXTERNAL".to_string()
        } else {
            s.to_string()
        }
    };
    for &(src, dst, [ss, sa, ds, da], flags) in &info.dependencies {
        let m = to_model(
            vk::PipelineStageFlags2::from_raw(ss),
            vk::AccessFlags2::from_raw(sa),
            vk::PipelineStageFlags2::from_raw(ds),
            vk::AccessFlags2::from_raw(da),
        );
        let mut t = format!(
            "dependency {}->{} {}:{} -> {}:{}",
            subpass(src),
            subpass(dst),
            m.src_stages,
            m.src_access,
            m.dst_stages,
            m.dst_access
        );
        if flags.contains(vk::DependencyFlags::BY_REGION) {
            t.push_str(" by-region");
        }
        if flags.contains(vk::DependencyFlags::VIEW_LOCAL) {
            t.push_str(" view-local");
        }
        parts.push(t);
    }
    Ok(parts.join(" ; "))
}

#[cfg(test)]
mod tests {
    //! Graphics recording through `Capture` directly (no device): each
    //! case records into command buffer 70 after [`scene`] and checks the
    //! trace lines the submission writes.
    use super::*;
    use crate::record::tests::{batch, fill_to_host, host_reads};
    use crate::reflect::Resource;

    const COLOR: vk::ImageLayout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
    const DEPTH: vk::ImageLayout = vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL;
    const RW: Use = Use {
        read: true,
        write: true,
    };
    const R: Use = Use {
        read: true,
        write: false,
    };
    /// A draw of one triangle (three vertices, one instance).
    const TRIANGLE: DrawCall = DrawCall::Draw {
        vertex_count: 3,
        instance_count: 1,
        first_vertex: 0,
        first_instance: 0,
    };

    fn image(format: vk::Format) -> ImageInfo {
        ImageInfo {
            format,
            image_type: vk::ImageType::TYPE_2D,
            extent: [4, 4, 1],
            mips: 1,
            layers: 1,
            tiling: vk::ImageTiling::OPTIMAL,
            exclusive: false,
            preinitialized: false,
        }
    }

    /// Memory 1 (64 KiB); buffers 10 (`b0`, vertices and storage), 11
    /// (`b1`, indices), 12 (`b2`, indirect records); a color image 80
    /// (`i0`) and a depth image 81 (`i1`) with views 90 and 91; a module 40
    /// whose vertex entry point `main` reads storage buffer (0, 0) and whose
    /// fragment `main` uses nothing; set 100 with `b0[0..256]` at (0, 0);
    /// graphics pipeline 55 (vertex binding 0 of stride 16, depth test and
    /// write), bound with set 100 and vertex buffer `b0`, index buffer `b1`
    /// at 64 (u16); both images transitioned to attachment layouts.
    fn scene(info: GraphicsInfo) -> Capture {
        let mut c = Capture::new(PathBuf::from("unused.trace"), Vec::new());
        c.allocate_memory(1, 1, 65536);
        for (k, b) in [10u64, 11, 12].into_iter().enumerate() {
            c.create_buffer(b, 4096, vk::SharingMode::CONCURRENT);
            c.bind_buffer(2, "vkBindBufferMemory", b, 1, 4096 * k as u64);
        }
        c.create_image(80, image(vk::Format::R8G8B8A8_UNORM));
        c.bind_image(3, "vkBindImageMemory", 80, 1, 16384, 1024);
        c.create_image(81, image(vk::Format::D32_SFLOAT));
        c.bind_image(3, "vkBindImageMemory", 81, 1, 20480, 1024);
        c.create_image_view(90, 80, [vk::ImageAspectFlags::COLOR.as_raw(), 0, 1, 0, 1]);
        c.create_image_view(91, 81, [vk::ImageAspectFlags::DEPTH.as_raw(), 0, 1, 0, 1]);
        let mut vs = BTreeMap::new();
        vs.insert(
            (0, 0),
            Resource {
                kind: Kind::Buffer,
                used: R,
                exact: true,
                elements: None,
            },
        );
        let mut graphics = BTreeMap::new();
        graphics.insert((GraphicsStage::Vertex, "main".to_string()), vs);
        graphics.insert((GraphicsStage::Fragment, "main".to_string()), BTreeMap::new());
        c.create_shader(40, Ok(Reflection::default()));
        c.shader_resources(
            40,
            Resources {
                graphics,
                ..Resources::default()
            },
        );
        c.create_set_layout(20, vec![(0, vk::DescriptorType::STORAGE_BUFFER, 1)]);
        c.create_pipeline_layout(30, vec![20]);
        c.allocate_sets(&[(100, 20)]);
        c.write_descriptor(100, 0, 0, 10, 0, 256);
        c.create_graphics_pipeline(55, &info);
        c.allocate_command_buffers(60, &[70]);
        c.bind_pipeline(70, vk::PipelineBindPoint::GRAPHICS, 55);
        c.bind_sets(70, 4, true, 0, &[100], &[]);
        c.bind_vertex_buffers(70, 0, &[(10, 0, None)]);
        c.bind_index_buffer(70, 11, 64, vk::IndexType::UINT16);
        let to = |image, aspect: vk::ImageAspectFlags, layout| ResourceBarrier {
            masks: [0, 0, vk::PipelineStageFlags2::ALL_COMMANDS.as_raw(), 0],
            target: BarrierTarget::Image {
                image,
                range: [aspect.as_raw(), 0, 1, 0, 1],
                old_layout: vk::ImageLayout::UNDEFINED,
                new_layout: layout,
            },
            queue_families: None,
        };
        c.barrier(
            70,
            5,
            "vkCmdPipelineBarrier2",
            &[],
            &[
                to(80, vk::ImageAspectFlags::COLOR, COLOR),
                to(81, vk::ImageAspectFlags::DEPTH, DEPTH),
            ],
        );
        c
    }

    fn pipeline() -> GraphicsInfo {
        GraphicsInfo {
            stages: vec![
                (vk::ShaderStageFlags::VERTEX, 40, "main".into()),
                (vk::ShaderStageFlags::FRAGMENT, 40, "main".into()),
            ],
            vertex_bindings: vec![(0, 16, vk::VertexInputRate::VERTEX)],
            depth_test: true,
            depth_write: true,
            color_write: true,
            ..GraphicsInfo::default()
        }
    }

    fn attachment(view: u64, layout: vk::ImageLayout) -> RenderingAttachment {
        RenderingAttachment {
            view,
            layout,
            load: vk::AttachmentLoadOp::CLEAR,
            store: vk::AttachmentStoreOp::STORE,
            resolve: None,
        }
    }

    /// The 4x4 views whole, one layer (the model's default area: the
    /// trace line names neither).
    fn rendering() -> RenderingInfo {
        RenderingInfo {
            colors: vec![Some(attachment(90, COLOR))],
            depth: Some(attachment(91, DEPTH)),
            render_area: [0, 0, 4, 4],
            layer_count: 1,
            ..RenderingInfo::default()
        }
    }

    /// `renderArea`, `layerCount`, `viewMask` and the suspending and
    /// resuming flags reach the `begin-rendering` line where they differ
    /// from the model's defaults (the whole 4x4 one-layer views), and the
    /// trace parses.
    #[test]
    fn render_area_views_and_suspension_reach_the_line() {
        type Case = (&'static str, fn(&mut RenderingInfo), &'static str);
        let cases: &[Case] = &[
            ("the whole views, one layer", |_| {}, "begin-rendering color"),
            (
                "a render area",
                |r| r.render_area = [1, 0, 3, 2],
                "begin-rendering renderArea=1,0,3,2 color",
            ),
            (
                "multiview",
                |r| r.view_mask = 1,
                "begin-rendering viewMask=1 color",
            ),
            (
                "suspending",
                |r| r.flags = vk::RenderingFlags::SUSPENDING,
                "begin-rendering suspending color",
            ),
        ];
        for (what, edit, want) in cases {
            let mut c = scene(pipeline());
            let mut info = rendering();
            edit(&mut info);
            c.begin_rendering(70, 10, "vkCmdBeginRendering", &info);
            c.end_rendering(70, 12, "vkCmdEndRendering");
            if info.flags.contains(vk::RenderingFlags::SUSPENDING) {
                let mut resume = rendering();
                resume.flags = vk::RenderingFlags::RESUMING;
                c.begin_rendering(70, 13, "vkCmdBeginRendering", &resume);
                c.end_rendering(70, 14, "vkCmdEndRendering");
            }
            let text = submitted(c);
            let line = text
                .lines()
                .find(|l| l.starts_with("begin-rendering"))
                .unwrap_or_else(|| panic!("{what}: no begin-rendering line\n{text}"));
            assert!(
                line.starts_with(&format!("{want} i0 COLOR:0:0")),
                "{what}: {line}"
            );
            assert!(text.contains("0 calls not modelled"), "{what}:\n{text}");
            vksync::trace::parse(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        }
    }

    /// The trace once command buffer 70 is submitted.
    fn submitted(mut c: Capture) -> String {
        c.submit(
            200,
            "vkQueueSubmit",
            1,
            &[Batch {
                cbs: vec![70],
                ..Batch::default()
            }],
            0,
        );
        c.text()
    }

    /// The submitted trace's command lines (comments and declarations
    /// left out).
    fn lines(c: Capture) -> Vec<String> {
        submitted(c)
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("buffer ") && !l.starts_with("image "))
            .map(str::to_string)
            .collect()
    }

    /// Dynamic rendering and each draw, written in the model's syntax with
    /// the state the draw is recorded with; the trace parses and checks
    /// clean (the model accepts every line).
    #[test]
    fn dynamic_rendering_and_draws() {
        type Case = (&'static str, fn(&mut GraphicsInfo), DrawCall, &'static str);
        let cases: &[Case] = &[
            (
                "a draw: vertices, the vertex shader's storage read, depth test and write",
                |_| {},
                TRIANGLE,
                "draw vertexCount=3 instanceCount=1 firstVertex=0 firstInstance=0 vertex b0 0 16 vs read b0[0..256] depth-test depth-write",
            ),
            (
                "an indexed draw names the bound index buffer",
                |_| {},
                DrawCall::Indexed {
                    index_count: 6,
                    instance_count: 2,
                    first_index: 1,
                    first_instance: 0,
                },
                "draw-indexed indexCount=6 instanceCount=2 firstIndex=1 firstInstance=0 vertex b0 0 16 index b1 64 u16 vs read b0[0..256] depth-test depth-write",
            ),
            (
                "per-instance rate, blending, no depth write: 'depth writes are always disabled when depthTestEnable is VK_FALSE'",
                |g| {
                    g.vertex_bindings[0].2 = vk::VertexInputRate::INSTANCE;
                    g.blend = true;
                    g.depth_test = false;
                },
                DrawCall::Indirect {
                    indexed: false,
                    buffer: 12,
                    offset: 16,
                    draw_count: 2,
                    stride: 16,
                },
                "draw-indirect b2 offset=16 drawCount=2 stride=16 instance b0 0 16 vs read b0[0..256] blend",
            ),
            (
                "a zero colorWriteMask, indirect count, indexed",
                |g| g.color_write = false,
                DrawCall::IndirectCount {
                    indexed: true,
                    buffer: 12,
                    offset: 0,
                    count_buffer: 12,
                    count_offset: 256,
                    max_draw_count: 4,
                    stride: 20,
                },
                "draw-indirect-count b2 b2 offset=0 countOffset=256 maxDrawCount=4 stride=20 indexed vertex b0 0 16 index b1 64 u16 vs read b0[0..256] no-color-write depth-test depth-write",
            ),
        ];
        for (what, edit, call, want) in cases {
            let mut info = pipeline();
            edit(&mut info);
            let mut c = scene(info);
            c.begin_rendering(70, 10, "vkCmdBeginRendering", &rendering());
            c.draw(70, 11, "vkCmdDraw", *call);
            c.end_rendering(70, 12, "vkCmdEndRendering");
            let text = submitted(c);
            let body: Vec<&str> = text
                .lines()
                .filter(|l| !l.starts_with('#') && !l.starts_with("buffer ") && !l.starts_with("image "))
                .map(|l| l.split("  #").next().unwrap_or(l))
                .collect();
            assert_eq!(
                body[1..4],
                [
                    "begin-rendering color i0 COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE ; depth i1 DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL CLEAR STORE",
                    want,
                    "end-rendering"
                ],
                "{what}:\n{text}"
            );
            assert!(text.contains("0 calls not modelled"), "{what}:\n{text}");
            vksync::trace::parse(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        }
    }

    /// State set by commands after the pipeline: dynamic depth test and
    /// write enables, a dynamic stride, and descriptors pushed to the
    /// graphics bind point (a fragment shader's uniform buffer).
    #[test]
    fn state_set_by_commands_reaches_the_draw() {
        type Case = (
            &'static str,
            fn(&mut GraphicsInfo),
            fn(&mut Capture),
            &'static str,
        );
        let cases: &[Case] = &[
            (
                "VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE set false: no depth access",
                |g| g.dynamic = vec![vk::DynamicState::DEPTH_TEST_ENABLE],
                |c| c.set_depth_state(70, 0, false),
                "draw vertexCount=3 instanceCount=1 firstVertex=0 firstInstance=0 vertex b0 0 16 vs read b0[0..256]  #",
            ),
            (
                "VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE set false: the test only",
                |g| g.dynamic = vec![vk::DynamicState::DEPTH_WRITE_ENABLE],
                |c| c.set_depth_state(70, 1, false),
                "draw vertexCount=3 instanceCount=1 firstVertex=0 firstInstance=0 vertex b0 0 16 vs read b0[0..256] depth-test  #",
            ),
            (
                "VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE from vkCmdBindVertexBuffers2",
                |g| g.dynamic = vec![vk::DynamicState::VERTEX_INPUT_BINDING_STRIDE],
                |c| c.bind_vertex_buffers(70, 0, &[(10, 32, Some(48))]),
                "draw vertexCount=3 instanceCount=1 firstVertex=0 firstInstance=0 vertex b0 32 48 vs read b0[0..256] depth-test depth-write  #",
            ),
            (
                "a uniform buffer pushed to the graphics bind point, read by the fragment shader",
                |g| g.stages[1].1 = 42,
                |c| {
                    let mut fs = BTreeMap::new();
                    fs.insert(
                        (0, 1),
                        Resource {
                            kind: Kind::Buffer,
                            used: R,
                            exact: true,
                            elements: None,
                        },
                    );
                    let mut graphics = BTreeMap::new();
                    graphics.insert((GraphicsStage::Fragment, "main".to_string()), fs);
                    c.create_shader(42, Ok(Reflection::default()));
                    c.shader_resources(
                        42,
                        Resources {
                            graphics,
                            ..Resources::default()
                        },
                    );
                    c.create_set_layout(
                        21,
                        vec![
                            (0, vk::DescriptorType::STORAGE_BUFFER, 1),
                            (1, vk::DescriptorType::UNIFORM_BUFFER, 1),
                        ],
                    );
                    c.create_pipeline_layout(31, vec![21]);
                    let writes = Writes::buffers(&[(0, 0, 10, 0, 256), (1, 0, 12, 64, 64)]);
                    c.push_descriptors(70, 9, "vkCmdPushDescriptorSetKHR", true, 31, 0, &writes);
                },
                "draw vertexCount=3 instanceCount=1 firstVertex=0 firstInstance=0 vertex b0 0 16 vs read b0[0..256] fs uniform b2[64..128] depth-test depth-write  #",
            ),
        ];
        for (what, edit_info, edit, want) in cases {
            let mut info = pipeline();
            edit_info(&mut info);
            let mut c = scene(info.clone());
            // After the state the edit makes (a module it creates).
            edit(&mut c);
            c.create_graphics_pipeline(55, &info);
            c.begin_rendering(70, 10, "vkCmdBeginRendering", &rendering());
            c.draw(70, 11, "vkCmdDraw", TRIANGLE);
            c.end_rendering(70, 12, "vkCmdEndRendering");
            let l = lines(c);
            assert!(l.iter().any(|l| l.starts_with(want)), "{what}: {l:#?}");
            assert!(!l.iter().any(|l| l.starts_with("not-modelled")), "{what}: {l:#?}");
        }
    }

    /// What the draw lines cannot express is a `not-modelled` line with the
    /// reason.
    #[test]
    fn draws_not_modelled_say_why() {
        type Case = (&'static str, fn(&mut Capture), &'static str);
        let cases: &[Case] = &[
            (
                "an untracked dynamic state",
                |c| {
                    let mut g = pipeline();
                    g.dynamic = vec![vk::DynamicState::COLOR_WRITE_MASK_EXT];
                    c.create_graphics_pipeline(56, &g);
                    c.bind_pipeline(70, vk::PipelineBindPoint::GRAPHICS, 56);
                },
                "VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT is not tracked",
            ),
            (
                "a dynamic stride never given",
                |c| {
                    let mut g = pipeline();
                    g.dynamic = vec![vk::DynamicState::VERTEX_INPUT_BINDING_STRIDE];
                    c.create_graphics_pipeline(56, &g);
                    c.bind_pipeline(70, vk::PipelineBindPoint::GRAPHICS, 56);
                },
                "stride is dynamic",
            ),
            (
                "a geometry stage with descriptors",
                |c| {
                    let mut g = pipeline();
                    g.stages.push((vk::ShaderStageFlags::GEOMETRY, 41, "main".into()));
                    let mut gs = BTreeMap::new();
                    gs.insert(
                        (GraphicsStage::Geometry, "main".to_string()),
                        std::iter::once((
                            (0, 0),
                            Resource {
                                kind: Kind::Buffer,
                                used: RW,
                                exact: true,
                                elements: None,
                            },
                        ))
                        .collect(),
                    );
                    c.create_shader(41, Ok(Reflection::default()));
                    c.shader_resources(
                        41,
                        Resources {
                            graphics: gs,
                            ..Resources::default()
                        },
                    );
                    c.create_graphics_pipeline(56, &g);
                    c.bind_pipeline(70, vk::PipelineBindPoint::GRAPHICS, 56);
                },
                "the Geometry stage uses descriptors",
            ),
            (
                "no vertex buffer",
                |c| c.cbs.get_mut(&70).unwrap().gfx.vertex.clear(),
                "vertex buffer binding 0 not bound",
            ),
        ];
        for (what, edit, want) in cases {
            let mut c = scene(pipeline());
            edit(&mut c);
            c.begin_rendering(70, 10, "vkCmdBeginRendering", &rendering());
            c.draw(70, 11, "vkCmdDraw", TRIANGLE);
            c.end_rendering(70, 12, "vkCmdEndRendering");
            let l = lines(c);
            let nm: Vec<&String> = l
                .iter()
                .filter(|l| l.starts_with("not-modelled vkCmdDraw"))
                .collect();
            assert!(nm.len() == 1 && nm[0].contains(want), "{what}: {l:#?}");
        }
    }

    /// A draw whose vertex stage reads an `UPDATE_AFTER_BIND` binding is
    /// made at the submission (issue 23, descriptor indexing): the storage
    /// buffer written after the draw was recorded is the one its line
    /// names; never written by the submission, the draw is `not-modelled`
    /// saying so. Without the flag the draw is made when it is recorded.
    #[test]
    fn a_draw_reads_update_after_bind_descriptors_at_the_submission() {
        use vk::DescriptorBindingFlags as F;
        // (name, binding 0's flags, write b1[0..256] after recording, the
        // draw's line or not-modelled line must start with).
        type Case = (&'static str, F, bool, &'static str);
        let cases: &[Case] = &[
            (
                "no flag, written before: the recorded one",
                F::empty(),
                false,
                "draw vertexCount=3 instanceCount=1 firstVertex=0 firstInstance=0 vertex b0 0 16 vs read b0[0..256] ",
            ),
            (
                "UPDATE_AFTER_BIND, rewritten after recording: the submitted one",
                F::UPDATE_AFTER_BIND,
                true,
                "draw vertexCount=3 instanceCount=1 firstVertex=0 firstInstance=0 vertex b0 0 16 vs read b1[0..256] ",
            ),
            (
                "UPDATE_AFTER_BIND, not rewritten: the one written before",
                F::UPDATE_AFTER_BIND,
                false,
                "draw vertexCount=3 instanceCount=1 firstVertex=0 firstInstance=0 vertex b0 0 16 vs read b0[0..256] ",
            ),
        ];
        for &(name, flags, rewrite, want) in cases {
            let mut c = scene(pipeline());
            c.create_set_layout(21, vec![(0, vk::DescriptorType::STORAGE_BUFFER, 1)]);
            c.set_binding_flags(21, &[(0, flags)]);
            c.allocate_sets(&[(101, 21)]);
            c.write_descriptor(101, 0, 0, 10, 0, 256);
            c.bind_sets(70, 9, true, 0, &[101], &[]);
            c.begin_rendering(70, 10, "vkCmdBeginRendering", &rendering());
            c.draw(70, 11, "vkCmdDraw", TRIANGLE);
            c.end_rendering(70, 12, "vkCmdEndRendering");
            if rewrite {
                c.write_descriptor(101, 0, 0, 11, 0, 256);
            }
            let lines = lines(c);
            let line = lines
                .iter()
                .find(|l| l.starts_with("draw") || l.starts_with("not-modelled"))
                .unwrap_or_else(|| panic!("{name}: no draw line in {lines:?}"));
            assert!(line.starts_with(want), "{name}: `{line}`, not `{want}...`");
        }
    }

    /// review36: a fragment shader reading an input attachment
    /// (`subpassLoad`) through an `INPUT_ATTACHMENT` descriptor. In a
    /// render pass the draw is recorded (the subpass's `input` reference
    /// charges it the read), not `not-modelled` for a binding "never
    /// written" (the capture keeps no input attachment descriptors). In a
    /// dynamic rendering instance (`VK_KHR_dynamic_rendering_local_read`,
    /// not modelled) it is `not-modelled`: skipping the descriptor there
    /// would leave a read of the attachment unchecked. Cases: where the
    /// draw is; what the trace must hold.
    #[test]
    fn a_draw_reading_an_input_attachment() {
        for in_pass in [true, false] {
            input_attachment_case(in_pass);
        }
    }

    fn input_attachment_case(in_pass: bool) {
        let mut c = scene(pipeline());
        let mut fs = BTreeMap::new();
        fs.insert(
            (0, 1),
            Resource {
                kind: Kind::Image,
                used: R,
                exact: true,
                elements: None,
            },
        );
        let mut vs = BTreeMap::new();
        vs.insert(
            (0, 0),
            Resource {
                kind: Kind::Buffer,
                used: R,
                exact: true,
                elements: None,
            },
        );
        let mut graphics = BTreeMap::new();
        graphics.insert((GraphicsStage::Vertex, "main".to_string()), vs);
        graphics.insert((GraphicsStage::Fragment, "main".to_string()), fs);
        c.create_shader(41, Ok(Reflection::default()));
        c.shader_resources(
            41,
            Resources {
                graphics,
                ..Resources::default()
            },
        );
        c.create_set_layout(
            21,
            vec![
                (0, vk::DescriptorType::STORAGE_BUFFER, 1),
                (1, vk::DescriptorType::INPUT_ATTACHMENT, 1),
            ],
        );
        c.create_pipeline_layout(31, vec![21]);
        c.allocate_sets(&[(101, 21)]);
        c.write_descriptor(101, 0, 0, 10, 0, 256);
        let mut info = pipeline();
        info.stages = vec![
            (vk::ShaderStageFlags::VERTEX, 41, "main".into()),
            (vk::ShaderStageFlags::FRAGMENT, 41, "main".into()),
        ];
        info.depth_test = false;
        info.depth_write = false;
        c.create_graphics_pipeline(56, &info);
        let rp = RenderPassInfo {
            attachments: vec![(
                vk::Format::R8G8B8A8_UNORM,
                vk::AttachmentLoadOp::CLEAR,
                vk::AttachmentStoreOp::STORE,
                vk::AttachmentLoadOp::DONT_CARE,
                vk::AttachmentStoreOp::DONT_CARE,
                vk::ImageLayout::UNDEFINED,
                vk::ImageLayout::GENERAL,
            )],
            subpasses: vec![
                SubpassInfo {
                    colors: vec![(0, COLOR)],
                    ..SubpassInfo::default()
                },
                SubpassInfo {
                    inputs: vec![(0, vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)],
                    ..SubpassInfo::default()
                },
            ],
            dependencies: vec![(
                0,
                1,
                [
                    vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT.as_raw(),
                    vk::AccessFlags2::COLOR_ATTACHMENT_WRITE.as_raw(),
                    vk::PipelineStageFlags2::FRAGMENT_SHADER.as_raw(),
                    vk::AccessFlags2::INPUT_ATTACHMENT_READ.as_raw(),
                ],
                vk::DependencyFlags::BY_REGION,
            )],
            refusal: None,
        };
        if in_pass {
            c.create_render_pass(6, "vkCreateRenderPass", 300, &rp);
            c.create_framebuffer(310, Some(vec![90]));
            c.begin_render_pass(70, 10, "vkCmdBeginRenderPass", (300, 310), None, [0, 0, 4, 4]);
            c.render_pass_step(70, 11, "vkCmdNextSubpass", false);
        } else {
            c.begin_rendering(70, 10, "vkCmdBeginRendering", &rendering());
        }
        c.bind_pipeline(70, vk::PipelineBindPoint::GRAPHICS, 56);
        c.bind_sets(70, 12, true, 0, &[101], &[]);
        c.draw(70, 13, "vkCmdDraw", TRIANGLE);
        if in_pass {
            c.render_pass_step(70, 14, "vkCmdEndRenderPass", true);
        } else {
            c.end_rendering(70, 14, "vkCmdEndRendering");
        }
        let l = lines(c);
        let draw = l
            .iter()
            .any(|line| line.starts_with("draw vertexCount=3") && line.contains("vs read b0[0..256]"));
        let refused = l.iter().any(|line| {
            line.starts_with("not-modelled vkCmdDraw (")
                && line.ends_with("# vkCmdDraw #13 in cb0")
                && line.contains("input attachment outside a render pass")
                && line.contains("VK_KHR_dynamic_rendering_local_read")
        });
        assert_eq!(
            (draw, refused),
            (in_pass, !in_pass),
            "in a render pass: {in_pass}: {l:#?}"
        );
        assert_eq!(
            l.iter().filter(|line| line.starts_with("not-modelled")).count(),
            usize::from(!in_pass),
            "{l:#?}"
        );
    }

    /// Render passes: the declaration and the commands in the syntax the
    /// model's render passes take (checked by pattern: this model version
    /// does not parse them).
    #[test]
    fn render_pass_lines() {
        let mut c = scene(pipeline());
        let info = RenderPassInfo {
            attachments: vec![
                (
                    vk::Format::R8G8B8A8_UNORM,
                    vk::AttachmentLoadOp::CLEAR,
                    vk::AttachmentStoreOp::STORE,
                    vk::AttachmentLoadOp::DONT_CARE,
                    vk::AttachmentStoreOp::DONT_CARE,
                    vk::ImageLayout::UNDEFINED,
                    vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                ),
                (
                    vk::Format::D32_SFLOAT,
                    vk::AttachmentLoadOp::CLEAR,
                    vk::AttachmentStoreOp::DONT_CARE,
                    vk::AttachmentLoadOp::DONT_CARE,
                    vk::AttachmentStoreOp::DONT_CARE,
                    vk::ImageLayout::UNDEFINED,
                    DEPTH,
                ),
            ],
            subpasses: vec![
                SubpassInfo {
                    colors: vec![(0, COLOR), (UNUSED, COLOR)],
                    depth: Some((1, DEPTH)),
                    ..SubpassInfo::default()
                },
                SubpassInfo {
                    preserve: vec![1],
                    ..SubpassInfo::default()
                },
            ],
            dependencies: vec![
                (
                    0,
                    1,
                    [
                        vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT.as_raw(),
                        vk::AccessFlags2::COLOR_ATTACHMENT_WRITE.as_raw(),
                        vk::PipelineStageFlags2::FRAGMENT_SHADER.as_raw(),
                        vk::AccessFlags2::INPUT_ATTACHMENT_READ.as_raw(),
                    ],
                    vk::DependencyFlags::BY_REGION,
                ),
                (
                    vk::SUBPASS_EXTERNAL,
                    0,
                    [
                        vk::PipelineStageFlags2::COMPUTE_SHADER.as_raw(),
                        vk::AccessFlags2::SHADER_WRITE.as_raw(),
                        vk::PipelineStageFlags2::VERTEX_ATTRIBUTE_INPUT.as_raw(),
                        0,
                    ],
                    vk::DependencyFlags::empty(),
                ),
            ],
            refusal: None,
        };
        c.create_render_pass(6, "vkCreateRenderPass", 300, &info);
        c.create_framebuffer(310, Some(vec![90, 91]));
        c.begin_render_pass(70, 10, "vkCmdBeginRenderPass", (300, 310), None, [0, 0, 4, 4]);
        c.clear_attachments(
            70,
            11,
            "vkCmdClearAttachments",
            &[(vk::ImageAspectFlags::COLOR, 0), (vk::ImageAspectFlags::DEPTH, 0)],
        );
        c.draw(70, 12, "vkCmdDraw", TRIANGLE);
        c.render_pass_step(70, 13, "vkCmdNextSubpass", false);
        c.render_pass_step(70, 14, "vkCmdEndRenderPass", true);
        let l = lines(c);
        let want = [
            "render-pass rp0 attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->TRANSFER_SRC_OPTIMAL ; attachment D32_SFLOAT CLEAR DONT_CARE UNDEFINED->DEPTH_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL color unused depth 1 DEPTH_ATTACHMENT_OPTIMAL ; subpass preserve 1 ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:INPUT_ATTACHMENT_READ by-region ; dependency EXTERNAL->0 COMPUTE_SHADER:SHADER_WRITE -> VERTEX_ATTRIBUTE_INPUT:NONE  # vkCreateRenderPass #6",
            "barrier",
            "begin-render-pass rp0 i0 COLOR:0:0 ; i1 DEPTH:0:0  # vkCmdBeginRenderPass #10 in cb0",
            "clear-attachments color 0 ; depth  # vkCmdClearAttachments #11 in cb0",
            "draw vertexCount=3 instanceCount=1 firstVertex=0 firstInstance=0 vertex b0 0 16 vs read b0[0..256] depth-test depth-write  # vkCmdDraw #12 in cb0",
            "next-subpass  # vkCmdNextSubpass #13 in cb0",
            "end-render-pass  # vkCmdEndRenderPass #14 in cb0",
            "submit",
        ];
        assert_eq!(l.len(), want.len(), "{l:#?}");
        for (got, want) in l.iter().zip(want) {
            assert!(got.starts_with(want), "{got}\n  is not\n{want}");
        }
        // A render area smaller than the framebuffer is written (the whole
        // one above is not).
        let mut c = scene(pipeline());
        c.create_render_pass(6, "vkCreateRenderPass", 300, &info);
        c.create_framebuffer(310, Some(vec![90, 91]));
        c.begin_render_pass(70, 10, "vkCmdBeginRenderPass", (300, 310), None, [1, 1, 2, 3]);
        c.render_pass_step(70, 13, "vkCmdNextSubpass", false);
        c.render_pass_step(70, 14, "vkCmdEndRenderPass", true);
        let l = lines(c);
        assert!(
            l.iter()
                .any(|x| x
                    .starts_with("begin-render-pass rp0 renderArea=1,1,2,3 i0 COLOR:0:0 ; i1 DEPTH:0:0  #")),
            "{l:#?}"
        );
        // Input attachments (`pInputAttachments`): recorded as `input`
        // references; one the model refuses (here an input attachment that
        // is also a color attachment of its subpass, a feedback loop) makes
        // the pass a `not-modelled` line with the model's reason (a trace
        // that fails to parse at the declaration would drop the whole
        // program). Cases: (subpass 1's inputs, subpass 1's colors, the
        // line).
        type InputCase = (
            Vec<(u32, vk::ImageLayout)>,
            Vec<(u32, vk::ImageLayout)>,
            &'static str,
        );
        let read_only = vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL;
        let cases: Vec<InputCase> = vec![
            (
                vec![(0, read_only), (UNUSED, read_only)],
                vec![],
                "render-pass rp0 attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->TRANSFER_SRC_OPTIMAL ; attachment D32_SFLOAT CLEAR DONT_CARE UNDEFINED->DEPTH_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL color unused depth 1 DEPTH_ATTACHMENT_OPTIMAL ; subpass input 0 SHADER_READ_ONLY_OPTIMAL preserve 1 ; dependency",
            ),
            (
                vec![(1, vk::ImageLayout::DEPTH_STENCIL_READ_ONLY_OPTIMAL)],
                vec![],
                "render-pass rp0 attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->TRANSFER_SRC_OPTIMAL ; attachment D32_SFLOAT CLEAR DONT_CARE UNDEFINED->DEPTH_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL color unused depth 1 DEPTH_ATTACHMENT_OPTIMAL ; subpass input 1 DEPTH_STENCIL_READ_ONLY_OPTIMAL ; dependency",
            ),
            (
                vec![(0, vk::ImageLayout::GENERAL)],
                vec![(0, vk::ImageLayout::GENERAL)],
                "not-modelled vkCreateRenderPass (the model refuses it: render pass `rp0`: subpass 1: ",
            ),
        ];
        for (inputs, colors, want) in cases {
            let mut c = scene(pipeline());
            let mut with_input = info.clone();
            with_input.subpasses[1].inputs = inputs;
            with_input.subpasses[1].colors = colors;
            // (An attachment both used and preserved is invalid.)
            let sp = &mut with_input.subpasses[1];
            sp.preserve.retain(|p| !sp.inputs.iter().any(|i| i.0 == *p));
            c.create_render_pass(6, "vkCreateRenderPass", 300, &with_input);
            let l = lines(c);
            assert!(l[0].starts_with(want), "{l:#?}");
        }
        // Multiview: each subpass's view mask, a view-local dependency.
        let mut multiview = info.clone();
        for s in &mut multiview.subpasses {
            s.view_mask = 0b11;
        }
        multiview.dependencies[0].3 |= vk::DependencyFlags::VIEW_LOCAL;
        let mut c = scene(pipeline());
        c.create_render_pass(6, "vkCreateRenderPass", 300, &multiview);
        let l = lines(c);
        assert!(
            l[0].starts_with("render-pass rp0 attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->TRANSFER_SRC_OPTIMAL ; attachment D32_SFLOAT CLEAR DONT_CARE UNDEFINED->DEPTH_ATTACHMENT_OPTIMAL ; subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL color unused depth 1 DEPTH_ATTACHMENT_OPTIMAL ; subpass viewMask=3 preserve 1 ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:INPUT_ATTACHMENT_READ by-region view-local ; dependency EXTERNAL->0"),
            "{l:#?}"
        );
        // Subpasses of different views: the model's reason.
        multiview.subpasses[1].view_mask = 0b01;
        let mut c = scene(pipeline());
        c.create_render_pass(6, "vkCreateRenderPass", 300, &multiview);
        let l = lines(c);
        assert!(
            l[0].starts_with("not-modelled vkCreateRenderPass (the model refuses it: render pass `rp0`: subpass 1: viewMask 0b1 where subpass 0 has 0b11 (subpasses rendering different views) is not modelled)"),
            "{l:#?}"
        );
        // A render pass the line cannot express, and its begin.
        let mut c = scene(pipeline());
        let refused = RenderPassInfo {
            refusal: Some("a view offset (VkRenderPassMultiviewCreateInfo::pViewOffsets)".into()),
            ..info
        };
        c.create_render_pass(6, "vkCreateRenderPass", 300, &refused);
        c.begin_render_pass(70, 10, "vkCmdBeginRenderPass", (300, 310), None, [0, 0, 4, 4]);
        c.clear_attachments(
            70,
            11,
            "vkCmdClearAttachments",
            &[(vk::ImageAspectFlags::COLOR, 0)],
        );
        c.render_pass_step(70, 14, "vkCmdEndRenderPass", true);
        let l = lines(c);
        assert!(
            l[0].starts_with("not-modelled vkCreateRenderPass (a view offset (VkRenderPassMultiviewCreateInfo::pViewOffsets))")
                && l[2].starts_with(
                    "not-modelled vkCmdBeginRenderPass (its render pass is not modelled: a view offset (VkRenderPassMultiviewCreateInfo::pViewOffsets))"
                )
                && l[3].starts_with("not-modelled vkCmdClearAttachments (inside a render pass that is not modelled)")
                && l[4].starts_with("not-modelled vkCmdEndRenderPass (inside a render pass that is not modelled)")
                && l.len() == 6,
            "{l:#?}"
        );
    }

    /// review32: a device result the host may read (mapped, a barrier to
    /// `HOST`, a wait) that a draw of the next submission reads as its
    /// vertex buffer is an intermediate: no host read of it is assumed,
    /// as for a command that reads it. Before, a submission's draws were
    /// left out of that bookkeeping (they are still rendering entries
    /// there), and the assumed read stayed: a false alarm.
    #[test]
    fn a_result_a_later_draw_reads_is_no_assumed_host_read() {
        for (draw, want) in [(false, &["host-read b0[0..64]"][..]), (true, &[][..])] {
            let mut c = scene(pipeline());
            c.map_memory(1, 0, &[0u8; 65536]);
            c.allocate_command_buffers(60, &[71]);
            c.fill_buffer(71, 20, 10, 0, 64, 7);
            fill_to_host(&mut c, 71, 21, 0, 64);
            c.submit(22, "vkQueueSubmit", 1, &[batch(71)], 0);
            let mut mem = vec![0u8; 65536];
            mem[..64].fill(7);
            c.wait(
                23,
                "vkDeviceWaitIdle",
                crate::record::WaitOn::Device,
                &[(1, &mem)],
            );
            c.begin_rendering(70, 24, "vkCmdBeginRendering", &rendering());
            if draw {
                c.draw(70, 25, "vkCmdDraw", TRIANGLE);
            }
            c.end_rendering(70, 26, "vkCmdEndRendering");
            c.submit(200, "vkQueueSubmit", 1, &[batch(70)], 0);
            let reads = host_reads(&c, &format!("draw {draw}"));
            assert_eq!(reads, want, "draw {draw}:\n{}", c.text());
        }
    }

    #[test]
    fn unraw_makes_marked_comments_lines() {
        let t = format!("a\n# {RAW}render-pass x  # c\n# plain\n");
        assert_eq!(unraw(&t), "a\nrender-pass x  # c\n# plain\n");
    }
}
