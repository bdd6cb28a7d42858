//! Render pass objects: `VkRenderPass` declarations (attachments with
//! their load, store and layout operations, subpasses, subpass
//! dependencies) and the commands of a render pass instance
//! (`vkCmdBeginRenderPass`, `vkCmdNextSubpass`, `vkCmdEndRenderPass`),
//! plus `vkCmdClearAttachments` (in a subpass or a dynamic rendering
//! instance).
//!
//! This module owns the declarations ([`RenderPass`], checked by
//! [`RenderPass::validate`]; the layouts an attachment reference may be in,
//! by the member it is in, are one table, `REFERENCE_LAYOUT_RULES`, with
//! the VUID of each refusal) and the *lowering* of a render pass instance
//! onto the rendering-instance machinery of [`crate::ir::render`]: each
//! subpass is a rendering instance (its color, resolve and depth/stencil
//! attachments as a [`Rendering`]), so draws in it make the same
//! attachment accesses and get the same implicit dependencies as in a
//! dynamic rendering instance. What a render pass adds is expressed with
//! the model's existing pieces, computed once when a command is built:
//!
//! - the load operations of the attachments whose *first* use is a
//!   subpass, at the start of that subpass; the resolves of a subpass and
//!   the store operations of the attachments whose *last* use it is, at
//!   its end (a hidden [`RenderOp::EndSubpass`] command that
//!   `next-subpass` and `end-render-pass` record before their own), whose
//!   implicit dependencies hold those attachments only (`end_rendering`:
//!   an attachment a later subpass uses again has nothing implicit at this
//!   end, so only a subpass dependency carries its writes on);
//! - the subpass dependencies and the automatic layout transitions as
//!   pipeline barriers ([`crate::Barrier`], in
//!   [`crate::ir::render::RenderCommand::pre_barriers`]) where their
//!   `dstSubpass` begins (the begin or a next-subpass; the end for
//!   `EXTERNAL`), whatever their `srcSubpass`. Both checkers and the
//!   definitional semantics apply them before the command's implicit
//!   dependencies and accesses, as a `barrier` line there but each with
//!   the scopes the spec gives a subpass dependency
//!   ([`crate::ir::render::PassScope`]; "Subpass Dependencies": the first
//!   scope holds the commands of `srcSubpass` with its load, store and
//!   resolve operations, or for `VK_SUBPASS_EXTERNAL` those before the
//!   begin; the second those of `dstSubpass`, or those after the end). A
//!   transition between the uses of an attachment in subpasses p and q
//!   (`EXTERNAL` for `initialLayout`/`finalLayout`) is placed where q
//!   begins with the scopes p -> q, the source masks of the dependencies
//!   from p and the destination masks of those into q
//!   (`boundary_barriers`). A command outside those subpasses is in them
//!   through an execution dependency chain only (an `EXTERNAL->0` then a
//!   `0->1` dependency order a write before the pass before subpass 1; a
//!   `0->1` alone does not).
//!
//! A subpass self-dependency orders nothing itself: it lets a pipeline
//! barrier be recorded inside the subpass. This module owns the valid
//! usage of such a barrier ([`check_subpass_barrier`]) and what it applies
//! as ([`subpass_barrier_parts`]: by-region ones framebuffer-local, through
//! the same lowering as a `by-region` dependency, `framebuffer_local`);
//! the checkers give it the subpass's commands as both scopes.
//!
//! Input attachments are uses like the others (their first use loads,
//! their last stores, their layouts take part in the transitions; their
//! load and store operations run in their format's stages), and each
//! subpass's inputs go to its [`Rendering`], whose draws read them
//! (render.rs). An attachment that is an input and a color or depth
//! attachment of one subpass (a feedback loop) is refused as not
//! modelled, so no image barrier inside a subpass is valid either
//! (VUID-vkCmdPipelineBarrier2-image-04073 allows one only for such an
//! attachment).
//!
//! The planners amend declarations here too: `dependency_for` names the
//! subpass dependency that orders a hazard no barrier can (between two
//! subpasses, or against an automatic layout transition), and
//! `add_dependency` adds its masks to a declaration without removing any
//! (`crate::plan`, `with_needed_dependencies`, decides when).
//!
//! It does not decide races and does not own the draw accesses
//! (render.rs).
//!
//! Invariants: a declaration in a [`crate::Program`] passed
//! [`RenderPass::validate`], so every dependency names subpasses that
//! exist, runs forward, and is not `EXTERNAL->EXTERNAL`, and every
//! attachment is used or keeps its layout; each barrier the lowering
//! places has its `dstSubpass` beginning there (or `EXTERNAL` at the end),
//! so a second scope is never a subpass that began earlier. The lowering is a pure function
//! of the program's declarations and images and of the render pass
//! instance open where a command is recorded.

use super::image::SubresourceRange;
use super::program::{Barrier, ByteRange, Command, Dependency, ObjectId, Program, Region};
use super::render::{
    after_an_access, implicit_of, Attachment, ImplicitDependency, InputAttachment, Kind, LoadOp, PassScope,
    RenderError, RenderOp, Rendering, StoreOp,
};
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2 as S};
use crate::vk::image::{Aspect, AspectMask, Format, ImageLayout};
use crate::vk::scope::{exec_scope, named_scope, Side, StageAccess};

/// A `VkAttachmentDescription`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttachmentDescription {
    /// `format`.
    pub format: Format,
    /// `loadOp` (the color or depth aspect).
    pub load: LoadOp,
    /// `storeOp`.
    pub store: StoreOp,
    /// `stencilLoadOp` / `stencilStoreOp`, for a format with a stencil
    /// aspect (`None` there: `DONT_CARE DONT_CARE`, the trace's default).
    pub stencil: Option<(LoadOp, StoreOp)>,
    /// `initialLayout`.
    pub initial: ImageLayout,
    /// `finalLayout`.
    pub final_layout: ImageLayout,
}

impl AttachmentDescription {
    /// The stencil operations in effect (`DONT_CARE DONT_CARE` when the
    /// trace gives none).
    pub fn stencil_ops(&self) -> (LoadOp, StoreOp) {
        self.stencil.unwrap_or((LoadOp::DontCare, StoreOp::DontCare))
    }
}

/// A `VkAttachmentReference`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttachmentReference {
    /// `attachment` (an index into the render pass's attachments).
    pub attachment: u32,
    /// `layout`.
    pub layout: ImageLayout,
}

/// One color slot of a subpass: `pColorAttachments[i]` (`None`:
/// `VK_ATTACHMENT_UNUSED`) and `pResolveAttachments[i]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColorReference {
    /// The color attachment.
    pub color: Option<AttachmentReference>,
    /// Its resolve attachment.
    pub resolve: Option<AttachmentReference>,
}

/// A `VkSubpassDescription`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SubpassDescription {
    /// `pInputAttachments`: read by every draw of the subpass in
    /// `FRAGMENT_SHADER` / `INPUT_ATTACHMENT_READ`. An attachment that is
    /// also a color or depth attachment of the same subpass (a feedback
    /// loop) is refused by [`RenderPass::validate`] as not modelled.
    pub inputs: Vec<AttachmentReference>,
    /// `pColorAttachments` with `pResolveAttachments`.
    pub colors: Vec<ColorReference>,
    /// `pDepthStencilAttachment`.
    pub depth: Option<AttachmentReference>,
    /// `pPreserveAttachments`.
    pub preserve: Vec<u32>,
    /// `viewMask` (`VkSubpassDescription2`, or `pViewMasks[i]` of a
    /// `VkRenderPassMultiviewCreateInfo`): when not 0, multiview, "all
    /// drawing and clear commands in the subpass ... broadcast to each
    /// view", view `v` being layer `v` of each attachment view. The model
    /// takes a render pass whose subpasses all have the same mask
    /// ([`RenderPass::validate`]).
    pub view_mask: u32,
}

impl SubpassDescription {
    /// Every color, resolve and depth/stencil reference of the subpass
    /// with the member it is in, preserve attachments excluded ("not used
    /// by this subpass"); the inputs are [`SubpassDescription::inputs`].
    fn uses(&self) -> Vec<(Role, AttachmentReference)> {
        let mut out = Vec::new();
        for c in &self.colors {
            out.extend(c.color.map(|r| (Role::Color, r)));
            out.extend(c.resolve.map(|r| (Role::Resolve, r)));
        }
        out.extend(self.depth.map(|r| (Role::DepthStencil, r)));
        out
    }
}

/// `srcSubpass` / `dstSubpass` of a dependency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubpassIndex {
    /// `VK_SUBPASS_EXTERNAL`.
    External,
    /// A subpass.
    Subpass(u32),
}

impl std::fmt::Display for SubpassIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SubpassIndex::External => f.write_str("EXTERNAL"),
            SubpassIndex::Subpass(i) => write!(f, "{i}"),
        }
    }
}

/// A `VkSubpassDependency2` (with a `VkMemoryBarrier2`'s masks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SubpassDependency {
    /// `srcSubpass`.
    pub src: SubpassIndex,
    /// `dstSubpass`.
    pub dst: SubpassIndex,
    /// `srcStageMask`.
    pub src_stage_mask: S,
    /// `srcAccessMask`.
    pub src_access_mask: AccessFlags2,
    /// `dstStageMask`.
    pub dst_stage_mask: S,
    /// `dstAccessMask`.
    pub dst_access_mask: AccessFlags2,
    /// `VK_DEPENDENCY_BY_REGION_BIT`.
    pub by_region: bool,
    /// `VK_DEPENDENCY_VIEW_LOCAL_BIT` (multiview only; its view offset is
    /// 0: the model has no `viewOffset`): "each view in the destination
    /// subpass depends on a single view in the source subpass", the same
    /// view.
    pub view_local: bool,
}

/// The clause as the trace format writes it after `dependency`:
/// `SRC->DST S:A -> S:A`, then ` by-region` when it is by region.
impl std::fmt::Display for SubpassDependency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}->{} {}:{} -> {}:{}",
            self.src,
            self.dst,
            self.src_stage_mask,
            self.src_access_mask,
            self.dst_stage_mask,
            self.dst_access_mask
        )?;
        if self.by_region {
            f.write_str(" by-region")?;
        }
        if self.view_local {
            f.write_str(" view-local")?;
        }
        Ok(())
    }
}

/// A `VkRenderPass` as declared by a `render-pass` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderPass {
    /// Its name in the trace.
    pub name: String,
    /// `pAttachments`.
    pub attachments: Vec<AttachmentDescription>,
    /// `pSubpasses`.
    pub subpasses: Vec<SubpassDescription>,
    /// `pDependencies`.
    pub dependencies: Vec<SubpassDependency>,
}

/// A render pass of a program: its index in [`crate::Program::render_passes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RenderPassId(pub u32);

/// A `vkCmdBeginRenderPass`: the render pass and the framebuffer's views
/// in attachment order (all layers of each view), and its render area
/// ([`PassBegin::render_area`]; without one, the rectangle from the origin
/// every view holds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassBegin {
    /// The render pass.
    pub pass: RenderPassId,
    /// `pAttachments` of the framebuffer (or `VkRenderPassAttachmentBeginInfo`).
    pub views: Vec<(ObjectId, SubresourceRange)>,
    /// `renderArea` as the trace gives it (`renderArea=X,Y,W,H`: offset and
    /// extent); `None`: the framebuffer's, the rectangle from the origin
    /// every view holds. Load, store and resolve operations, draws and
    /// clears touch only it; layout transitions the whole subresources.
    pub render_area: Option<[u32; 4]>,
}

/// A `vkCmdClearAttachments` over the whole render area and every layer
/// (`crate::ir::render::render_area`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ClearAttachments {
    /// The `colorAttachment` indices cleared (of the current subpass or
    /// rendering instance).
    pub colors: Vec<u32>,
    /// `VK_IMAGE_ASPECT_DEPTH_BIT` is cleared.
    pub depth: bool,
    /// `VK_IMAGE_ASPECT_STENCIL_BIT` is cleared.
    pub stencil: bool,
}

/// Why a render pass declaration is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenderPassError {
    /// Invalid usage, with the valid-usage id.
    #[error("render pass `{pass}`: {what} ({vuid})")]
    Invalid {
        /// The render pass.
        pass: String,
        /// What is wrong.
        what: String,
        /// The valid-usage id.
        vuid: &'static str,
    },
    /// Valid, but not modelled.
    #[error("render pass `{pass}`: {what} is not modelled")]
    NotModelled {
        /// The render pass.
        pass: String,
        /// What the model does not express.
        what: String,
    },
}

/// Framebuffer-space stages ("Framebuffer Region Dependencies").
const FRAMEBUFFER_SPACE: S = S::FRAGMENT_SHADER
    .union(S::EARLY_FRAGMENT_TESTS)
    .union(S::LATE_FRAGMENT_TESTS)
    .union(S::COLOR_ATTACHMENT_OUTPUT);

/// The stages a subpass dependency may name on a side that is a subpass
/// (VUID-VkRenderPassCreateInfo2-pDependencies-03054, -03055):
/// `ALL_COMMANDS`, and the stages the graphics pipeline supports (its
/// stages in `vk.xml`'s `<syncpipeline name="graphics primitive">`, with
/// the flags that name several of them and the two pseudo-stages).
fn subpass_stages() -> S {
    crate::vk::scope::StageSet::GRAPHICS.flags()
        | S::DRAW_INDIRECT
        | S::VERTEX_INPUT
        | S::PRE_RASTERIZATION_SHADERS
        | S::ALL_GRAPHICS
        | S::TOP_OF_PIPE
        | S::BOTTOM_OF_PIPE
        | S::ALL_COMMANDS
}

/// The accesses of the implicit dependency into the first subpass that
/// uses an attachment.
const IMPLICIT_ATTACHMENT_ACCESS: AccessFlags2 = AccessFlags2::INPUT_ATTACHMENT_READ
    .union(AccessFlags2::COLOR_ATTACHMENT_READ)
    .union(AccessFlags2::COLOR_ATTACHMENT_WRITE)
    .union(AccessFlags2::DEPTH_STENCIL_ATTACHMENT_READ)
    .union(AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE);

impl RenderPass {
    /// The implicit dependency that declaring `src->dst` would replace:
    /// `Some` for a pair from `EXTERNAL` into a subpass, or from a subpass
    /// to `EXTERNAL`, when the pass declares none of that pair ("If there
    /// is no subpass dependency from VK_SUBPASS_EXTERNAL to the first
    /// subpass that uses an attachment, then an implicit subpass dependency
    /// exists"). A declared one must keep its masks to order what it
    /// ordered (the planner's amendments, the fix texts).
    pub(crate) fn implicit_replaced(
        &self,
        src: SubpassIndex,
        dst: SubpassIndex,
    ) -> Option<SubpassDependency> {
        if self.dependencies.iter().any(|d| d.src == src && d.dst == dst) {
            return None;
        }
        match (src, dst) {
            (SubpassIndex::External, SubpassIndex::Subpass(_)) => Some(implicit_into(dst)),
            (SubpassIndex::Subpass(_), SubpassIndex::External) => Some(implicit_out_of(src)),
            _ => None,
        }
    }

    fn invalid(&self, what: String, vuid: &'static str) -> RenderPassError {
        RenderPassError::Invalid {
            pass: self.name.clone(),
            what,
            vuid,
        }
    }

    fn not_modelled(&self, what: String) -> RenderPassError {
        RenderPassError::NotModelled {
            pass: self.name.clone(),
            what,
        }
    }

    /// The view mask of the render pass: its subpasses' (one mask, which
    /// [`RenderPass::validate`] asks of a multiview pass); 0 without
    /// multiview.
    pub(crate) fn view_mask(&self) -> u32 {
        self.subpasses.first().map_or(0, |s| s.view_mask)
    }

    /// The layers of each attachment view the pass renders:
    /// [`crate::ir::render::Layers::Mask`] of its view mask, every layer
    /// without multiview.
    pub(crate) fn layers(&self) -> crate::ir::render::Layers {
        match self.view_mask() {
            0 => crate::ir::render::Layers::All,
            m => crate::ir::render::Layers::Mask(m),
        }
    }

    /// Whether a view-local dependency or barrier of this pass orders
    /// only what one view reads and writes: multiview with more than one
    /// view. With one view, "each view in the destination subpass depends
    /// on" that one view in the source subpass: all of it.
    pub(crate) fn views_apart(&self) -> bool {
        self.view_mask().count_ones() > 1
    }

    /// The layout each attachment subpass `s` uses is in during that
    /// subpass: (attachment, layout). "Automatic layout transitions into
    /// the layout used in a subpass happen-before" its commands; an
    /// attachment the subpass does not use keeps the layout of its last
    /// use (or its initial one).
    pub(crate) fn subpass_layouts(&self, s: usize) -> Vec<(u32, ImageLayout)> {
        (0..self.attachments.len() as u32)
            .filter_map(|a| {
                self.uses_of(a)
                    .into_iter()
                    .find(|&(at, _, _)| at == s)
                    .map(|(_, layout, _)| (a, layout))
            })
            .collect()
    }

    /// The subpasses using attachment `a`, ascending, with its layout and
    /// kind there (an input attachment's kind is its format's: its load
    /// and store operations run in that format's stages).
    fn uses_of(&self, a: u32) -> Vec<(usize, ImageLayout, Kind)> {
        let mut out = Vec::new();
        for (s, sp) in self.subpasses.iter().enumerate() {
            if let Some((role, r)) = sp.uses().into_iter().find(|(_, r)| r.attachment == a) {
                out.push((s, r.layout, role.kind()));
            } else if let Some(r) = sp.inputs.iter().find(|r| r.attachment == a) {
                let color = self
                    .attachments
                    .get(a as usize)
                    .is_none_or(|d| d.format.aspect_mask() == AspectMask::of(Aspect::Color));
                out.push((s, r.layout, if color { Kind::Color } else { Kind::Depth }));
            }
        }
        out
    }

    /// Checks the declaration: valid usage (with its VUID) and the shapes
    /// the lowering expresses exactly (module docs); refuses the rest.
    pub fn validate(&self) -> Result<(), RenderPassError> {
        let n = self.attachments.len() as u32;
        if self.subpasses.is_empty() {
            return Err(self.invalid(
                "a render pass has at least one subpass".into(),
                "VUID-VkRenderPassCreateInfo2-subpassCount-arraylength",
            ));
        }
        self.validate_views()?;
        for (i, a) in self.attachments.iter().enumerate() {
            let aspects = a.format.aspect_mask();
            if a.stencil.is_some() && !aspects.has(Aspect::Stencil) {
                return Err(self.invalid(
                    format!(
                        "attachment {i}: `stencil` ops for {}, a format without a stencil aspect",
                        a.format.name()
                    ),
                    "VkAttachmentDescription2: stencilLoadOp and stencilStoreOp apply to stencil formats only",
                ));
            }
            for (which, layout, vuid) in [
                ("initialLayout", a.initial, 0),
                ("finalLayout", a.final_layout, 1),
            ] {
                if let Some(rule) = layout.format_rule().filter(|r| !r.fits(a.format)) {
                    return Err(self.invalid(
                        format!(
                            "attachment {i}: {which} {layout} for {}, not a {} format",
                            a.format.name(),
                            rule.needs()
                        ),
                        if vuid == 0 {
                            rule.attachment.0
                        } else {
                            rule.attachment.1
                        },
                    ));
                }
            }
            if matches!(
                a.final_layout,
                ImageLayout::UNDEFINED | ImageLayout::PREINITIALIZED
            ) {
                return Err(self.invalid(
                    format!("attachment {i}: finalLayout {}", a.final_layout),
                    "VUID-VkAttachmentDescription2-finalLayout-00843",
                ));
            }
        }
        for (s, sp) in self.subpasses.iter().enumerate() {
            let mut seen: Vec<AttachmentReference> = Vec::new();
            for (role, r) in sp.uses() {
                if r.attachment >= n {
                    return Err(self.invalid(
                        format!("subpass {s}: attachment {} of {n}", r.attachment),
                        "VUID-VkRenderPassCreateInfo2-attachment-03051",
                    ));
                }
                let f = self.attachments[r.attachment as usize].format;
                let color = role.kind() == Kind::Color;
                let is_color = f.aspect_mask() == AspectMask::of(Aspect::Color);
                if color != is_color {
                    // Each member has its own rule (the format's features
                    // must hold COLOR_ATTACHMENT, or DEPTH_STENCIL_ATTACHMENT).
                    let vuid = match role {
                        Role::Resolve => "VUID-VkSubpassDescription2-pResolveAttachments-09343",
                        Role::DepthStencil => "VUID-VkSubpassDescription2-pDepthStencilAttachment-02900",
                        _ => "VUID-VkSubpassDescription2-pColorAttachments-02898",
                    };
                    return Err(self.invalid(
                        format!(
                            "subpass {s}: attachment {} ({}) used as a {} attachment",
                            r.attachment,
                            f.name(),
                            role.name()
                        ),
                        vuid,
                    ));
                }
                self.check_reference_layout(s, role, r)?;
                self.check_reference_format(s, role, r, f)?;
                if let Some(o) = seen.iter().find(|o| o.attachment == r.attachment) {
                    return Err(if o.layout != r.layout {
                        self.invalid(
                            format!(
                                "subpass {s}: attachment {} referenced in layouts {} and {}",
                                r.attachment, o.layout, r.layout
                            ),
                            "VUID-VkSubpassDescription2-layout-02528",
                        )
                    } else {
                        self.not_modelled(format!(
                            "subpass {s}: attachment {} referenced twice",
                            r.attachment
                        ))
                    });
                }
                seen.push(r);
            }
            let mut inputs: Vec<AttachmentReference> = Vec::new();
            for &r in &sp.inputs {
                self.validate_input(s, r, &seen, &inputs)?;
                inputs.push(r);
            }
            for c in &sp.colors {
                if c.resolve.is_some() && c.color.is_none() {
                    return Err(self.invalid(
                        format!("subpass {s}: a resolve attachment for an unused color slot"),
                        "VUID-VkSubpassDescription2-pResolveAttachments-03065",
                    ));
                }
            }
            for &p in &sp.preserve {
                if p >= n {
                    return Err(self.invalid(
                        format!("subpass {s}: preserve attachment {p} of {n}"),
                        "VUID-VkRenderPassCreateInfo2-attachment-03051",
                    ));
                }
                if seen.iter().chain(&inputs).any(|r| r.attachment == p) {
                    return Err(self.invalid(
                        format!("subpass {s}: attachment {p} is both used and preserved"),
                        "VUID-VkSubpassDescription2-pPreserveAttachments-03074",
                    ));
                }
            }
        }
        self.check_clear_first_use()?;
        let last = self.subpasses.len() as u32 - 1;
        for (i, d) in self.dependencies.iter().enumerate() {
            for (side, x) in [("srcSubpass", d.src), ("dstSubpass", d.dst)] {
                if let SubpassIndex::Subpass(k) = x {
                    if k > last {
                        return Err(self.invalid(
                            format!("dependency {i}: {side} {k} of {} subpasses", last + 1),
                            if side == "srcSubpass" {
                                "VUID-VkRenderPassCreateInfo2-srcSubpass-02526"
                            } else {
                                "VUID-VkRenderPassCreateInfo2-dstSubpass-02527"
                            },
                        ));
                    }
                }
            }
            for (side, st, ac) in [
                (Side::Src, d.src_stage_mask, d.src_access_mask),
                (Side::Dst, d.dst_stage_mask, d.dst_access_mask),
            ] {
                crate::vk::scope::validate(st, ac, side).map_err(|e| {
                    self.invalid(
                        format!("dependency {i}: {e}"),
                        "VUID-VkSubpassDependency2-srcAccessMask-03088",
                    )
                })?;
            }
            // "all stage flags included in the srcStageMask [dstStageMask]
            // ... must be VK_PIPELINE_STAGE_ALL_COMMANDS_BIT or a pipeline
            // stage supported by the pipeline identified by the
            // pipelineBindPoint member of the source [destination]
            // subpass": every subpass is a graphics one here (review23: a
            // compute stage between two subpasses was accepted, and a fix
            // text asked for one).
            for (side, x, stages, vuid) in [
                (
                    "srcStageMask",
                    d.src,
                    d.src_stage_mask,
                    "VUID-VkRenderPassCreateInfo2-pDependencies-03054",
                ),
                (
                    "dstStageMask",
                    d.dst,
                    d.dst_stage_mask,
                    "VUID-VkRenderPassCreateInfo2-pDependencies-03055",
                ),
            ] {
                let outside = stages.difference(subpass_stages());
                if let (SubpassIndex::Subpass(k), false) = (x, outside.is_empty()) {
                    return Err(self.invalid(
                        format!(
                            "dependency {i}: {side} {stages} names {outside}, which the graphics pipeline of subpass {k} does not run (ALL_COMMANDS or graphics stages only)"
                        ),
                        vuid,
                    ));
                }
            }
            match (d.src, d.dst) {
                (SubpassIndex::External, SubpassIndex::External) => {
                    return Err(self.invalid(
                        format!("dependency {i}: EXTERNAL->EXTERNAL"),
                        "VUID-VkSubpassDependency2-srcSubpass-03085",
                    ))
                }
                (SubpassIndex::Subpass(a), SubpassIndex::Subpass(b)) if a > b => {
                    return Err(self.invalid(
                        format!("dependency {i}: {a}->{b} runs backwards"),
                        "VUID-VkSubpassDependency2-srcSubpass-03084",
                    ))
                }
                // A self-dependency "does not directly define a
                // dependency. Instead, it enables pipeline barriers to be
                // used in a render pass instance within the identified
                // subpass" (`check_subpass_barrier`): it orders nothing
                // itself. Those that "include framebuffer-space stages in
                // the srcStageMask must only include framebuffer-space
                // stages in dstStageMask, and must include
                // VK_DEPENDENCY_BY_REGION_BIT".
                (SubpassIndex::Subpass(a), SubpassIndex::Subpass(b)) if a == b => {
                    let src_fb = d.src_stage_mask.intersects(FRAMEBUFFER_SPACE);
                    if src_fb && !d.dst_stage_mask.difference(FRAMEBUFFER_SPACE).is_empty() {
                        return Err(self.invalid(
                            format!(
                                "dependency {i}: self-dependency {a}->{a}: srcStageMask {} names a framebuffer-space stage, \
                                 dstStageMask {} one outside framebuffer space",
                                d.src_stage_mask, d.dst_stage_mask
                            ),
                            "VUID-VkSubpassDependency2-srcSubpass-06810",
                        ));
                    }
                    if src_fb && d.dst_stage_mask.intersects(FRAMEBUFFER_SPACE) && !d.by_region {
                        return Err(self.invalid(
                            format!(
                                "dependency {i}: self-dependency {a}->{a} between framebuffer-space stages without `by-region`"
                            ),
                            "VUID-VkSubpassDependency2-srcSubpass-02245",
                        ));
                    }
                }
                // Every other pair is placed where its dstSubpass begins
                // (the end for EXTERNAL), with the scopes of its own
                // srcSubpass and dstSubpass (`PassScope`).
                _ => {}
            }
        }
        // A layout change between two uses, consecutive or not, and one
        // into finalLayout after a use that is not the last subpass, are
        // placed where the later use begins (the end): `boundary_barriers`.
        // Only an attachment no subpass uses has no place for one.
        for a in 0..n {
            let desc = &self.attachments[a as usize];
            if self.uses_of(a).is_empty()
                && desc.initial != desc.final_layout
                && desc.initial != ImageLayout::UNDEFINED
            {
                return Err(self.not_modelled(format!(
                    "attachment {a}: used by no subpass, with a layout transition {}->{}",
                    desc.initial, desc.final_layout
                )));
            }
        }
        Ok(())
    }

    /// Multiview: every subpass's view mask 0, or none ("Multiview is
    /// all-or-nothing for a render pass", VUID-VkRenderPassCreateInfo2-viewMask-03058);
    /// a self-dependency of a subpass with more than one view view-local
    /// (-pDependencies-03060);
    /// `VK_DEPENDENCY_VIEW_LOCAL_BIT` only with multiview (-viewMask-03059)
    /// and not from or to `VK_SUBPASS_EXTERNAL`
    /// (VUID-VkSubpassDependency2-dependencyFlags-03090, -03091). Subpasses
    /// with different nonzero masks are valid but not modelled: the load,
    /// store and layout operations then apply per view at each view's first
    /// and last use ("as if each view was a separate attachment"), which
    /// the lowering does not express.
    fn validate_views(&self) -> Result<(), RenderPassError> {
        let mask = self.view_mask();
        for (s, sp) in self.subpasses.iter().enumerate() {
            if (sp.view_mask == 0) != (mask == 0) {
                return Err(self.invalid(
                    format!(
                        "subpass {s}: viewMask {:#b} where subpass 0 has {mask:#b} (multiview is all-or-nothing for a render pass)",
                        sp.view_mask
                    ),
                    "VUID-VkRenderPassCreateInfo2-viewMask-03058",
                ));
            }
            if sp.view_mask != mask {
                return Err(self.not_modelled(format!(
                    "subpass {s}: viewMask {:#b} where subpass 0 has {mask:#b} (subpasses rendering different views)",
                    sp.view_mask
                )));
            }
        }
        for (i, d) in self.dependencies.iter().enumerate() {
            if d.src == d.dst && !d.view_local && self.views_apart() {
                return Err(self.invalid(
                    format!(
                        "dependency {i}: self-dependency {}->{} of a subpass with viewMask {mask:#b} (more than one view) without `view-local`",
                        d.src, d.dst
                    ),
                    "VUID-VkRenderPassCreateInfo2-pDependencies-03060",
                ));
            }
            if !d.view_local {
                continue;
            }
            if mask == 0 {
                return Err(self.invalid(
                    format!(
                        "dependency {i}: view-local in a render pass without multiview (every viewMask 0)"
                    ),
                    "VUID-VkRenderPassCreateInfo2-viewMask-03059",
                ));
            }
            for (side, x, vuid) in [
                (
                    "srcSubpass",
                    d.src,
                    "VUID-VkSubpassDependency2-dependencyFlags-03090",
                ),
                (
                    "dstSubpass",
                    d.dst,
                    "VUID-VkSubpassDependency2-dependencyFlags-03091",
                ),
            ] {
                if x == SubpassIndex::External {
                    return Err(
                        self.invalid(format!("dependency {i}: view-local with {side} EXTERNAL"), vuid)
                    );
                }
            }
        }
        Ok(())
    }

    /// Checks input attachment `r` of subpass `s`, given the subpass's
    /// color, resolve and depth references (`others`) and its inputs
    /// before it.
    /// A load operation that clears writes the attachment, so its first
    /// use must not be in a layout that is read-only for the aspect
    /// cleared: "For any member of pAttachments with a loadOp equal to
    /// VK_ATTACHMENT_LOAD_OP_CLEAR, the first use of that attachment must
    /// not specify a layout equal to VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
    /// VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, or
    /// VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL" (02522),
    /// and for `stencilLoadOp` the same with
    /// `DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL` in place of the last
    /// (02523). The first use is the first subpass that references the
    /// attachment (its layout there, [`RenderPass::uses_of`]).
    fn check_clear_first_use(&self) -> Result<(), RenderPassError> {
        for (i, a) in self.attachments.iter().enumerate() {
            let Some(&(s, layout, _)) = self.uses_of(i as u32).first() else {
                continue;
            };
            let rules = [
                (
                    "loadOp",
                    a.load,
                    ImageLayout::DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL,
                    "VUID-VkRenderPassCreateInfo2-pAttachments-02522",
                ),
                (
                    "stencilLoadOp",
                    a.stencil_ops().0,
                    ImageLayout::DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL,
                    "VUID-VkRenderPassCreateInfo2-pAttachments-02523",
                ),
            ];
            for (which, op, third, vuid) in rules {
                let read_only = [
                    ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                    ImageLayout::DEPTH_STENCIL_READ_ONLY_OPTIMAL,
                    third,
                ];
                if op == LoadOp::Clear && read_only.contains(&layout) {
                    return Err(self.invalid(
                        format!(
                            "attachment {i}: {which} CLEAR, and its first use (subpass {s}) is in {layout}, \
                             a layout that does not allow the clear's write"
                        ),
                        vuid,
                    ));
                }
            }
        }
        Ok(())
    }

    fn validate_input(
        &self,
        s: usize,
        r: AttachmentReference,
        others: &[AttachmentReference],
        earlier: &[AttachmentReference],
    ) -> Result<(), RenderPassError> {
        let n = self.attachments.len() as u32;
        if r.attachment >= n {
            return Err(self.invalid(
                format!("subpass {s}: input attachment {} of {n}", r.attachment),
                "VUID-VkRenderPassCreateInfo2-attachment-03051",
            ));
        }
        self.check_reference_layout(s, Role::Input, r)?;
        self.check_reference_format(s, Role::Input, r, self.attachments[r.attachment as usize].format)?;
        for o in others.iter().chain(earlier) {
            if o.attachment != r.attachment {
                continue;
            }
            if o.layout != r.layout {
                return Err(self.invalid(
                    format!(
                        "subpass {s}: attachment {} referenced in layouts {} and {}",
                        r.attachment, o.layout, r.layout
                    ),
                    "VUID-VkSubpassDescription2-layout-02528",
                ));
            }
            if others.contains(o) {
                return Err(self.not_modelled(format!(
                    "subpass {s}: attachment {} both an input and a color or depth/stencil attachment (a feedback loop)",
                    r.attachment
                )));
            }
        }
        Ok(())
    }

    /// Refuses reference `r` of subpass `s`, in member `role`, where a row
    /// of [`REFERENCE_LAYOUT_RULES`] forbids its layout there, naming the
    /// subpass, the member, the attachment and the layout with the row's
    /// citation.
    fn check_reference_layout(
        &self,
        s: usize,
        role: Role,
        r: AttachmentReference,
    ) -> Result<(), RenderPassError> {
        match reference_layout_refusal(role, r.layout) {
            Some(rule) => Err(self.invalid(
                format!(
                    "subpass {s}: {} attachment {} in layout {}{}",
                    role.name(),
                    r.attachment,
                    r.layout,
                    rule.why
                ),
                rule.cite,
            )),
            None => Ok(()),
        }
    }

    /// Reference `r` of attachment format `f`, in member `role` of
    /// subpass `s`, in a layout its format allows
    /// ([`REFERENCE_LAYOUT_RULES`] decide by member alone): a layout for
    /// the other kind of format needs, when the pass begins, a view usage
    /// that format cannot have (an input attachment of a color format in
    /// a depth/stencil read-only layout: VUID-vkCmdBeginRenderPass2-
    /// initialLayout-03096/02844); a depth/stencil reference's depth-only
    /// layouts exclude formats with both aspects (the model has no
    /// `VkAttachmentReferenceStencilLayout`) and stencil-only ones, its
    /// stencil-only layouts every format with a depth aspect
    /// (VUID-VkRenderPassCreateInfo2-attachment-06244/06245/06246).
    fn check_reference_format(
        &self,
        s: usize,
        role: Role,
        r: AttachmentReference,
        f: crate::vk::image::Format,
    ) -> Result<(), RenderPassError> {
        use crate::vk::image::{Aspect, ImageLayout as L};
        let at = |why: String, vuid: &'static str| {
            Err(self.invalid(
                format!(
                    "subpass {s}: {} attachment {} ({}) in layout {}{why}",
                    role.name(),
                    r.attachment,
                    f.name(),
                    r.layout
                ),
                vuid,
            ))
        };
        if let Some(rule) = r.layout.format_rule().filter(|x| !x.fits(f)) {
            return at(
                format!(
                    ", a layout for {} formats: beginning the pass needs its view to have {} usage, which {} cannot have",
                    rule.needs(),
                    rule.usage_name(),
                    f.name()
                ),
                rule.begin,
            );
        }
        if role != Role::DepthStencil {
            return Ok(());
        }
        let (depth, stencil) = (
            f.aspect_mask().has(Aspect::Depth),
            f.aspect_mask().has(Aspect::Stencil),
        );
        match r.layout {
            L::DEPTH_ATTACHMENT_OPTIMAL | L::DEPTH_READ_ONLY_OPTIMAL if depth && stencil => at(
                ", a depth-only layout for a format with both aspects (a separate stencil layout is not modelled)".into(),
                "VUID-VkRenderPassCreateInfo2-attachment-06244",
            ),
            L::DEPTH_ATTACHMENT_OPTIMAL | L::DEPTH_READ_ONLY_OPTIMAL if !depth => at(
                ", a depth-only layout for a stencil-only format".into(),
                "VUID-VkRenderPassCreateInfo2-attachment-06246",
            ),
            L::STENCIL_ATTACHMENT_OPTIMAL | L::STENCIL_READ_ONLY_OPTIMAL if depth => at(
                ", a stencil-only layout for a format with a depth aspect".into(),
                "VUID-VkRenderPassCreateInfo2-attachment-06245",
            ),
            _ => Ok(()),
        }
    }

    /// The dependencies placed at boundary `b` (0: the begin, k: into
    /// subpass k, the subpass count: the end): those whose `dstSubpass`
    /// begins there (`EXTERNAL`: the end), self-dependencies excluded.
    /// The automatic layout transition of attachment `a` at boundary `b`
    /// (the subpass `b` begins, the end at the subpass count), if its
    /// layout changes there: the subpass of the use before it
    /// (`EXTERNAL` for `initialLayout`), the old and the new layout.
    fn transition_at(&self, a: u32, b: usize) -> Option<(SubpassIndex, ImageLayout, ImageLayout)> {
        let desc = &self.attachments[a as usize];
        let uses = self.uses_of(a);
        let (from, old, new) = if b < self.subpasses.len() {
            let pos = uses.iter().position(|u| u.0 == b)?;
            match pos.checked_sub(1).map(|p| uses[p]) {
                None => (SubpassIndex::External, desc.initial, uses[pos].1),
                Some(prev) => (SubpassIndex::Subpass(prev.0 as u32), prev.1, uses[pos].1),
            }
        } else {
            let &(l, ll, _) = uses.last()?;
            (SubpassIndex::Subpass(l as u32), ll, desc.final_layout)
        };
        (old != new).then_some((from, old, new))
    }

    /// The declared dependencies (with their indices) whose availability
    /// operations a transition of attachment `a` away from the layout of
    /// its use in `from` happens after: every dependency from `from`
    /// ("Automatic layout transitions away from the layout used in a
    /// subpass happen-after the availability operations for all
    /// dependencies with that subpass as the srcSubpass"); from
    /// `initialLayout`, every one from `EXTERNAL` into a subpass that uses
    /// `a`.
    fn transition_firsts(
        &self,
        a: u32,
        from: SubpassIndex,
    ) -> impl Iterator<Item = (usize, &SubpassDependency)> {
        self.dependencies.iter().enumerate().filter(move |(_, d)| {
            d.src != d.dst
                && d.src == from
                && (from != SubpassIndex::External || self.uses_attachment(d.dst, a))
        })
    }

    /// The transition of attachment `a` at boundary `b`
    /// ([`RenderPass::transition_at`]) happens after the availability
    /// operations of these dependencies, as bits of their indices: those
    /// of [`RenderPass::transition_firsts`] placed at `b` too (each is
    /// placed at its `dstSubpass`'s begin, the end for `EXTERNAL`), among
    /// the first 64. One placed earlier or later is left out (the model
    /// orders nothing through it: never more than the spec): the fast
    /// checker keeps what such a dependency ordered in the fields of its
    /// own subpass, where the transition's second half does not look.
    pub(crate) fn transition_follows(&self, a: u32, b: usize) -> u64 {
        let Some((from, _, _)) = self.transition_at(a, b) else {
            return 0;
        };
        let at = |s: SubpassIndex| match s {
            SubpassIndex::Subpass(k) => k as usize,
            SubpassIndex::External => self.subpasses.len(),
        };
        self.transition_firsts(a, from)
            .filter(|(i, d)| *i < 64 && at(d.dst) == b)
            .fold(0, |m, (i, _)| m | (1 << i))
    }

    /// The `dstSubpass` of the dependencies placed at boundary `b`.
    fn boundary_index(&self, b: usize) -> SubpassIndex {
        if b == self.subpasses.len() {
            SubpassIndex::External
        } else {
            SubpassIndex::Subpass(b as u32)
        }
    }

    /// Whether subpass `s` uses attachment `a`.
    fn uses_attachment(&self, s: SubpassIndex, a: u32) -> bool {
        matches!(s, SubpassIndex::Subpass(k) if self.uses_of(a).iter().any(|u| u.0 == k as usize))
    }
}

/// The member of `VkSubpassDescription2` an attachment reference is in:
/// the valid usage on its layout differs by member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// `pInputAttachments`.
    Input,
    /// `pColorAttachments`.
    Color,
    /// `pResolveAttachments`.
    Resolve,
    /// `pDepthStencilAttachment`.
    DepthStencil,
}

impl Role {
    const ALL: [Role; 4] = [Role::Input, Role::Color, Role::Resolve, Role::DepthStencil];

    /// For messages: "subpass 0: {name} attachment 1 in layout ...".
    fn name(self) -> &'static str {
        match self {
            Role::Input => "input",
            Role::Color => "color",
            Role::Resolve => "resolve",
            Role::DepthStencil => "depth/stencil",
        }
    }

    /// The kind of a color, resolve or depth/stencil use. An input's kind
    /// is its format's (`RenderPass::uses_of`), so inputs never ask.
    fn kind(self) -> Kind {
        match self {
            Role::DepthStencil => Kind::Depth,
            _ => Kind::Color,
        }
    }
}

/// One rule that forbids attachment references in some members to be in
/// some layouts: a row of [`REFERENCE_LAYOUT_RULES`].
#[derive(Debug)]
struct ReferenceLayoutRule {
    /// The members it binds.
    roles: &'static [Role],
    /// The layouts it forbids there.
    layouts: &'static [ImageLayout],
    /// Its VUID (or, where no VUID states it, the spec section).
    cite: &'static str,
    /// Why, for the message, where the citation does not say it alone
    /// (empty for the `VkSubpassDescription2` rows: the VUID names the
    /// member and the layouts).
    why: &'static str,
}

/// The layouts an attachment reference may not be in, by member: one row
/// per rule, the one home of these facts ([`RenderPass::validate`] asks it
/// for every reference). A layout no row forbids is one the model takes,
/// for every member: the unit tests pin those sets, so a layout the model
/// learns later has to be placed here by hand. No two rows forbid one
/// layout in one member (tested too), so the VUID a refusal names does not
/// depend on the order.
///
/// Most rows are `VkSubpassDescription2`'s ("If the attachment member of
/// an element of pColorAttachments is not VK_ATTACHMENT_UNUSED, its layout
/// member must not be ...") and `VkAttachmentReference2`'s -03077, which
/// binds every member. Two refusals have no such VUID: a color or resolve
/// attachment in `DEPTH_STENCIL_READ_ONLY_OPTIMAL` (its view would need
/// `DEPTH_STENCIL_ATTACHMENT` usage when the pass begins, which no color
/// format has: the begin's usage rule is the VUID a real application
/// meets), and any attachment in a transfer layout ("Image Layouts": those
/// "must only be used as" a source or destination "image of a transfer
/// command"; no VUID, and the begin's usage rules for them can be met).
const REFERENCE_LAYOUT_RULES: &[ReferenceLayoutRule] = {
    use ImageLayout as L;
    use Role::*;
    const fn rule(
        roles: &'static [Role],
        layouts: &'static [ImageLayout],
        cite: &'static str,
    ) -> ReferenceLayoutRule {
        ReferenceLayoutRule {
            roles,
            layouts,
            cite,
            why: "",
        }
    }
    const DS_ATT_RO: &[ImageLayout] = &[
        L::DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL,
        L::DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL,
    ];
    const SEPARATE: &[ImageLayout] = &[
        L::DEPTH_ATTACHMENT_OPTIMAL,
        L::DEPTH_READ_ONLY_OPTIMAL,
        L::STENCIL_ATTACHMENT_OPTIMAL,
        L::STENCIL_READ_ONLY_OPTIMAL,
    ];
    &[
        rule(
            &Role::ALL,
            &[L::UNDEFINED, L::PREINITIALIZED, L::PRESENT_SRC_KHR],
            "VUID-VkAttachmentReference2-layout-03077",
        ),
        rule(
            &[Input],
            &[L::COLOR_ATTACHMENT_OPTIMAL, L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL],
            "VUID-VkSubpassDescription2-attachment-06912",
        ),
        rule(
            &[Color],
            &[L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL, L::SHADER_READ_ONLY_OPTIMAL],
            "VUID-VkSubpassDescription2-attachment-06913",
        ),
        rule(
            &[Resolve],
            &[L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL, L::SHADER_READ_ONLY_OPTIMAL],
            "VUID-VkSubpassDescription2-attachment-06914",
        ),
        rule(
            &[DepthStencil],
            &[L::COLOR_ATTACHMENT_OPTIMAL, L::SHADER_READ_ONLY_OPTIMAL],
            "VUID-VkSubpassDescription2-attachment-06915",
        ),
        rule(&[Color], DS_ATT_RO, "VUID-VkSubpassDescription2-attachment-06916"),
        rule(
            &[Resolve],
            DS_ATT_RO,
            "VUID-VkSubpassDescription2-attachment-06917",
        ),
        rule(
            &[Input],
            &[L::DEPTH_ATTACHMENT_OPTIMAL, L::STENCIL_ATTACHMENT_OPTIMAL],
            "VUID-VkSubpassDescription2-attachment-06918",
        ),
        rule(&[Color], SEPARATE, "VUID-VkSubpassDescription2-attachment-06919"),
        rule(
            &[Resolve],
            SEPARATE,
            "VUID-VkSubpassDescription2-attachment-06920",
        ),
        rule(
            &[Input],
            &[L::ATTACHMENT_OPTIMAL],
            "VUID-VkSubpassDescription2-attachment-06921",
        ),
        rule(
            &[Color],
            &[L::READ_ONLY_OPTIMAL],
            "VUID-VkSubpassDescription2-attachment-06922",
        ),
        rule(
            &[Resolve],
            &[L::READ_ONLY_OPTIMAL],
            "VUID-VkSubpassDescription2-attachment-06923",
        ),
        ReferenceLayoutRule {
            roles: &[Color, Resolve],
            layouts: &[L::DEPTH_STENCIL_READ_ONLY_OPTIMAL],
            cite: "VUID-vkCmdBeginRenderPass2-initialLayout-03096",
            why: ", a depth/stencil layout: beginning the pass needs its view to have \
                  DEPTH_STENCIL_ATTACHMENT usage, which no color format has",
        },
        ReferenceLayoutRule {
            roles: &Role::ALL,
            layouts: &[L::TRANSFER_SRC_OPTIMAL, L::TRANSFER_DST_OPTIMAL],
            cite: "\"Image Layouts\"; no VUID states it",
            why: ", a layout for transfer commands only",
        },
    ]
};

/// The row of [`REFERENCE_LAYOUT_RULES`] that forbids `layout` to a
/// reference in `role`, if any.
fn reference_layout_refusal(role: Role, layout: ImageLayout) -> Option<&'static ReferenceLayoutRule> {
    REFERENCE_LAYOUT_RULES
        .iter()
        .find(|r| r.roles.contains(&role) && r.layouts.contains(&layout))
}

/// The byte ranges of `aspect` of a view within render area `area`
/// ([`crate::ir::render::area_bytes`]; empty if the view lacks it).
fn aspect_bytes(
    program: &Program,
    image: ObjectId,
    range: SubresourceRange,
    aspect: Aspect,
    area: impl Into<crate::ir::render::Area>,
) -> Vec<ByteRange> {
    if !range.aspects.has(aspect) {
        return Vec::new();
    }
    let range = SubresourceRange {
        aspects: AspectMask::of(aspect),
        ..range
    };
    crate::ir::render::area_bytes(program, image, range, area).unwrap_or_default()
}

/// The regions of a view within render area `area` (what an operation
/// "within the render area" touches; a layout transition takes
/// [`pass_view_regions`], the whole view).
fn area_regions(
    program: &Program,
    (image, range): (ObjectId, SubresourceRange),
    area: impl Into<crate::ir::render::Area>,
) -> Vec<Region> {
    crate::ir::render::area_bytes(program, image, range, area)
        .unwrap_or_default()
        .into_iter()
        .map(|r| Region {
            object: image,
            range: r,
        })
        .collect()
}

/// The regions of a whole view that render pass `rp` renders: every
/// layer, or with multiview the layers of its views ("the automatic
/// layout transitions apply to the layers corresponding to views which
/// are used by some subpass in the render pass"; loads, stores, draws and
/// clears touch no other layer either).
fn pass_view_regions(program: &Program, rp: &RenderPass, view: (ObjectId, SubresourceRange)) -> Vec<Region> {
    area_regions(
        program,
        view,
        crate::ir::render::Area {
            rect: None,
            layers: rp.layers(),
        },
    )
}

/// The render pass instance open just before command `index`: its begin
/// (index and operands) and the current subpass (the number of
/// `NextSubpass` commands since), and whether the current subpass was
/// already ended by an [`RenderOp::EndSubpass`].
pub(crate) fn open_pass(commands: &[Command], index: usize) -> Option<(usize, &PassBegin, usize, bool)> {
    open_pass_until(commands, index, |_| false)
}

/// [`open_pass`], taking none to be open when the walk back from `index`
/// meets a command `outside` says no instance holds before a begin.
fn open_pass_until(
    commands: &[Command],
    index: usize,
    outside: impl Fn(&Command) -> bool,
) -> Option<(usize, &PassBegin, usize, bool)> {
    let mut next = 0usize;
    let mut ended = None;
    for (i, c) in commands[..index.min(commands.len())].iter().enumerate().rev() {
        if outside(c) {
            return None;
        }
        match c {
            Command::Render(rc) => match &rc.op {
                RenderOp::BeginPass(b) => return Some((i, b, next, ended.unwrap_or(false))),
                RenderOp::NextSubpass => {
                    ended.get_or_insert(false);
                    next += 1;
                }
                RenderOp::EndSubpass { .. } => {
                    ended.get_or_insert(true);
                }
                RenderOp::EndPass | RenderOp::End | RenderOp::Begin(_) => return None,
                _ => {
                    ended.get_or_insert(false);
                }
            },
            Command::Submit(_) => return None,
            _ => {
                ended.get_or_insert(false);
            }
        }
    }
    None
}

/// What a render pass command does beyond its [`RenderOp`]: the barriers
/// before it, its implicit dependencies, its accesses and, for a command
/// that starts a subpass, that subpass as a rendering instance.
#[derive(Default)]
pub(crate) struct Lowered {
    pub pre: Vec<(Barrier, PassScope, DependencySets)>,
    pub implicit: Vec<ImplicitDependency>,
    pub accesses: Vec<(Region, StageAccess)>,
    pub subpass: Option<Rendering>,
    /// For a `begin-render-pass`: [`PassAttachments`].
    pub attachments: PassAttachments,
}

fn bad(call: &'static str, reason: String) -> RenderError {
    RenderError::Bad { call, reason }
}

fn pass_of(program: &Program, id: RenderPassId) -> Option<&RenderPass> {
    program.render_passes().get(id.0 as usize)
}

/// The name of the render pass that command `at` begins (`?` for another
/// command): what a refusal at an instance's begin names.
pub(crate) fn begun_pass_name(program: &Program, at: usize) -> &str {
    match program.commands.get(at) {
        Some(Command::Render(rc)) => match &rc.op {
            RenderOp::BeginPass(b) => pass_of(program, b.pass).map_or("?", |rp| rp.name.as_str()),
            _ => "?",
        },
        _ => "?",
    }
}

/// Subpass `s` of `rp` as a rendering instance over `views`.
fn subpass_rendering(
    program: &Program,
    rp: &RenderPass,
    views: &[(ObjectId, SubresourceRange)],
    render_area: Option<[u32; 4]>,
    s: usize,
) -> Rendering {
    let sp = &rp.subpasses[s];
    let uses = |a: u32| rp.uses_of(a);
    let first = |a: u32| uses(a).first().map(|u| u.0) == Some(s);
    let lastu = |a: u32| uses(a).last().map(|u| u.0) == Some(s);
    let att = |r: AttachmentReference, resolve: Option<AttachmentReference>| {
        let d = &rp.attachments[r.attachment as usize];
        let (image, range) = views[r.attachment as usize];
        Attachment {
            image,
            range,
            layout: r.layout,
            load: if first(r.attachment) { d.load } else { LoadOp::None },
            store: if lastu(r.attachment) {
                d.store
            } else {
                StoreOp::None
            },
            resolve: resolve.map(|x| {
                let (ri, rr) = views[x.attachment as usize];
                (ri, rr, x.layout)
            }),
        }
    };
    let mut inputs: Vec<InputAttachment> = Vec::new();
    for r in &sp.inputs {
        let (image, range) = views[r.attachment as usize];
        let d = &rp.attachments[r.attachment as usize];
        // Both aspects' load ops of a depth/stencil format count.
        let writes = |l: LoadOp| matches!(l, LoadOp::Clear | LoadOp::DontCare);
        let load_writes = first(r.attachment) && (writes(d.load) || writes(d.stencil_ops().0));
        if !inputs.iter().any(|i| i.image == image && i.range == range) {
            inputs.push(InputAttachment {
                image,
                range,
                load_writes,
            });
        }
    }
    Rendering {
        colors: sp
            .colors
            .iter()
            .filter_map(|c| c.color.map(|r| att(r, c.resolve)))
            .collect(),
        depth: sp.depth.map(|r| att(r, None)),
        inputs,
        // The framebuffer's: no larger than any of its attachments
        // (VUID-VkFramebufferCreateInfo-flags-04533), resolve and unused
        // ones included (review24: the subpass's own views made a draw
        // write past it).
        area: crate::ir::render::render_area(program, views.iter().copied()),
        render_area,
        layer_count: None,
        view_mask: rp.view_mask(),
        resuming: false,
        suspending: false,
    }
}

/// The attachments of subpass `s` whose operations at its end carry
/// implicit dependencies: a color attachment with a resolve ("a final
/// resolve operation ... happens-after any recorded command which writes
/// a pixel via the multisample attachment to be resolved ... in the
/// subpass that it is specified", both views), and every attachment whose
/// last use is `s` (its store operation "happens-after any recorded command
/// which accesses the sample in the last subpass where the attachment is
/// used"). An attachment used again later has no operation at this end, and
/// nothing implicit orders its accesses of this subpass before the next
/// subpass's: rasterization order holds "within a subpass", so only a
/// subpass dependency does, and an execution-only one makes no write
/// available (review16; before the sixteenth session every attachment of
/// the subpass got a dependency here, which made a write available that
/// nothing names).
fn end_rendering(
    program: &Program,
    rp: &RenderPass,
    views: &[(ObjectId, SubresourceRange)],
    render_area: Option<[u32; 4]>,
    s: usize,
) -> Rendering {
    let sp = &rp.subpasses[s];
    let last = |a: u32| rp.uses_of(a).last().map(|u| u.0) == Some(s);
    let all = subpass_rendering(program, rp, views, render_area, s);
    // `subpass_rendering` keeps the colors with an attachment, in order.
    let keep: Vec<bool> = sp
        .colors
        .iter()
        .filter_map(|c| c.color.map(|r| c.resolve.is_some() || last(r.attachment)))
        .collect();
    let input_last = |i: &InputAttachment| {
        sp.inputs
            .iter()
            .any(|r| views[r.attachment as usize] == (i.image, i.range) && last(r.attachment))
    };
    Rendering {
        colors: all
            .colors
            .into_iter()
            .zip(keep)
            .filter(|(_, k)| *k)
            .map(|(a, _)| a)
            .collect(),
        depth: all.depth.filter(|_| sp.depth.is_some_and(|d| last(d.attachment))),
        inputs: all.inputs.into_iter().filter(|i| input_last(i)).collect(),
        area: all.area,
        render_area: all.render_area,
        layer_count: None,
        view_mask: all.view_mask,
        resuming: false,
        suspending: false,
    }
}

/// The load (`load`) or store operations of the attachments whose first
/// (last) use is subpass `s`, per aspect.
///
/// `written`: for store operations, the instance's begin, the command
/// storing, and that command's own accesses before its stores (its
/// resolves): what may have written each attachment, for `NONE`
/// ([`crate::ir::render::Kind::store`]).
fn ops_at(
    program: &Program,
    rp: &RenderPass,
    views: &[(ObjectId, SubresourceRange)],
    render_area: Option<[u32; 4]>,
    s: usize,
    load: bool,
    written: (usize, usize, &[(Region, StageAccess)]),
) -> Vec<(Region, StageAccess)> {
    let mut out = Vec::new();
    // The render area the begin names, else the framebuffer's (its views
    // bound it).
    let extent = crate::ir::render::render_area(program, views.iter().copied());
    let area = crate::ir::render::Area {
        rect: render_area.or(extent.map(|[w, h]| [0, 0, w, h])),
        layers: rp.layers(),
    };
    for a in 0..rp.attachments.len() as u32 {
        let uses = rp.uses_of(a);
        let edge = if load { uses.first() } else { uses.last() };
        let Some(&(at, _, kind)) = edge else { continue };
        if at != s {
            continue;
        }
        let d = &rp.attachments[a as usize];
        let (image, range) = views[a as usize];
        let (sl, ss) = d.stencil_ops();
        // "as long as no values are written to the attachment": the
        // attachment, both aspects of a depth/stencil one (a depth write
        // makes a stencil NONE store write too, as dynamic rendering's
        // whole view does; review16). Asked once, and only for a NONE store.
        let wrote = !load && (d.store == StoreOp::None || ss == StoreOp::None) && {
            let (begin, index, own) = written;
            let regions = pass_view_regions(program, rp, (image, range));
            crate::ir::render::written_in_instance(program, (begin, index), own, &regions)
        };
        let aspects: &[(Aspect, LoadOp, StoreOp)] = &[
            (Aspect::Color, d.load, d.store),
            (Aspect::Depth, d.load, d.store),
            (Aspect::Stencil, sl, ss),
        ];
        for &(aspect, l, st) in aspects {
            let sa = if load { kind.load(l) } else { kind.store(st, wrote) };
            let Some(sa) = sa else { continue };
            for r in aspect_bytes(program, image, range, aspect, area) {
                out.push((
                    Region {
                        object: image,
                        range: r,
                    },
                    sa,
                ));
            }
        }
    }
    out
}

/// A layout transition's first and second sets of dependencies by their
/// masks (both empty for a dependency, whose barrier's masks are its own):
/// the transition happens after each of the first set's availability
/// operations and before each of the second set's visibility operations,
/// so a write is available to it when one of the first set has it in its
/// first access scope, and its own write visible to an access one of the
/// second set has in its second access scope; not when one's stage and
/// another's access together name it, as the union of the masks (which
/// its barrier carries for its execution dependency) would (review15's
/// missed races). Each checker builds the access scopes from these with
/// its own tables.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct DependencySets {
    /// The first set's source masks.
    pub(crate) first: Vec<(S, AccessFlags2)>,
    /// The second set's destination masks.
    pub(crate) second: Vec<(S, AccessFlags2)>,
}

/// The masks of a set of dependencies, unioned (a layout transition
/// happens after the availability operations of several and before the
/// visibility operations of several: its first half takes the source
/// masks of the first set, its second half the destination masks of the
/// second).
fn union_masks<'a>(ds: impl Iterator<Item = &'a SubpassDependency>) -> (S, AccessFlags2, S, AccessFlags2) {
    ds.fold(
        (S::NONE, AccessFlags2::NONE, S::NONE, AccessFlags2::NONE),
        |(ss, sa, ds, da), d| {
            (
                ss | d.src_stage_mask,
                sa | d.src_access_mask,
                ds | d.dst_stage_mask,
                da | d.dst_access_mask,
            )
        },
    )
}

/// The implicit dependency from `VK_SUBPASS_EXTERNAL` into the first
/// subpass that uses an attachment, when no dependency from `EXTERNAL`
/// into that subpass is declared ("Subpass Dependencies"):
/// `NONE -> ALL_COMMANDS` with the attachment accesses.
fn implicit_into(s: SubpassIndex) -> SubpassDependency {
    SubpassDependency {
        src: SubpassIndex::External,
        dst: s,
        src_stage_mask: S::NONE,
        src_access_mask: AccessFlags2::NONE,
        dst_stage_mask: S::ALL_COMMANDS,
        dst_access_mask: IMPLICIT_ATTACHMENT_ACCESS,
        by_region: false,
        view_local: false,
    }
}

/// The implicit dependency from the last subpass that uses an attachment
/// to `VK_SUBPASS_EXTERNAL`, when none is declared: `ALL_COMMANDS` with
/// the attachment writes `-> NONE`.
fn implicit_out_of(s: SubpassIndex) -> SubpassDependency {
    SubpassDependency {
        src: s,
        dst: SubpassIndex::External,
        src_stage_mask: S::ALL_COMMANDS,
        src_access_mask: AccessFlags2::COLOR_ATTACHMENT_WRITE | AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE,
        dst_stage_mask: S::NONE,
        dst_access_mask: AccessFlags2::NONE,
        by_region: false,
        view_local: false,
    }
}

/// A dependency as the model applies it, by-region or not ("Framebuffer
/// Region Dependencies"): one that is not by-region, or whose scopes do
/// not both name a framebuffer-space stage, as it is (framebuffer-global).
/// A by-region one is split by the stages each side names (meta stages
/// expanded): its part between framebuffer-space stages is
/// framebuffer-local, placed as its memory dependency over the
/// attachments' bytes only (an attachment access reads or writes the pixel
/// it is made for; a barrier that already has a region, an image barrier
/// of an attachment, keeps it) plus the execution dependency from the
/// logically earlier stages outside framebuffer space (vertex processing)
/// to its destination stages; the rest (from the other source stages to
/// every destination stage, and from the framebuffer-space source stages
/// to the other destination stages) is framebuffer-global, as it is. ("If
/// dependencyFlags includes VK_DEPENDENCY_BY_REGION_BIT, then any
/// dependency between framebuffer-space pipeline stages is
/// framebuffer-local": a by-region dependency that also names a vertex
/// stage is framebuffer-local between its fragment stages all the same.)
/// The one home of this lowering: subpass dependencies
/// ([`boundary_barriers`]) and pipeline barriers inside a subpass
/// ([`subpass_barrier_parts`]) both take it.
///
/// `TOP_OF_PIPE` in a second scope is "equivalent to
/// VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT with VkAccessFlags2 set to 0"
/// (`BOTTOM_OF_PIPE` in a first likewise): the split names stages, so such
/// a barrier is first cut into its execution dependency (no access) and
/// its memory dependency over the other stages it names; otherwise the
/// parts would give the access masks to every stage (review15: a
/// `-> TOP_OF_PIPE:MEMORY_READ by-region` dependency made a layout
/// transition visible to a depth load in the definitional semantics).
fn framebuffer_local(whole: Barrier, by_region: bool, attachments: &[Region]) -> Vec<Barrier> {
    if !by_region {
        return vec![whole];
    }
    let (top, bottom) = (S::TOP_OF_PIPE, S::BOTTOM_OF_PIPE);
    let accesses = !whole.src_access_mask.is_empty() || !whole.dst_access_mask.is_empty();
    if accesses && (whole.dst_stage_mask.intersects(top) || whole.src_stage_mask.intersects(bottom)) {
        let exec = execution_only(whole);
        let memory = Barrier {
            src_stage_mask: whole.src_stage_mask.difference(bottom),
            dst_stage_mask: whole.dst_stage_mask.difference(top),
            ..whole
        };
        let mut out = framebuffer_local(exec, by_region, attachments);
        out.extend(framebuffer_local(memory, by_region, attachments));
        return out;
    }
    let src = named_scope(whole.src_stage_mask, Side::Src).flags();
    let dst = named_scope(whole.dst_stage_mask, Side::Dst).flags();
    let (src_fb, dst_fb) = (src & FRAMEBUFFER_SPACE, dst & FRAMEBUFFER_SPACE);
    if src_fb.is_empty() || dst_fb.is_empty() {
        return vec![whole];
    }
    let (src_other, dst_other) = (
        src.difference(FRAMEBUFFER_SPACE),
        dst.difference(FRAMEBUFFER_SPACE),
    );
    let mut out = Vec::new();
    if !src_other.is_empty() {
        out.push(Barrier {
            src_stage_mask: src_other,
            dst_stage_mask: dst,
            ..whole
        });
    }
    if !dst_other.is_empty() {
        out.push(Barrier {
            src_stage_mask: src_fb,
            dst_stage_mask: dst_other,
            ..whole
        });
    }
    let local = Barrier {
        src_stage_mask: src_fb,
        dst_stage_mask: dst_fb,
        ..whole
    };
    match local.region {
        Some(_) => out.push(local),
        None => {
            // Its execution dependency stands also where no attachment
            // holds a byte (a pass whose attachments it does not render:
            // no part over bytes would be left, review of the
            // twenty-eighth session); elsewhere the parts over the
            // attachments' bytes carry it anyway (D5).
            out.push(execution_only(local));
            // Only attachment accesses are one pixel's: a shader's sampled
            // or storage access of an attachment's image (of an earlier
            // subpass; inside its own subpass it is a feedback loop, which
            // the model refuses) reads or writes any texel, and the
            // framebuffer-local dependency does not order it (the
            // twenty-eighth session: a sampled read after a by-region
            // dependency was ordered).
            let own = Barrier {
                src_access_mask: attachment_access(local.src_access_mask),
                dst_access_mask: attachment_access(local.dst_access_mask),
                ..local
            };
            out.extend(attachments.iter().map(|r| own.on(*r)));
        }
    }
    let earlier = exec_scope(src_fb, Side::Src)
        .flags()
        .difference(FRAMEBUFFER_SPACE);
    if !earlier.is_empty() {
        out.push(Barrier::global(
            earlier,
            AccessFlags2::NONE,
            dst_fb,
            AccessFlags2::NONE,
        ));
    }
    out
}

/// The barriers a `vkCmdPipelineBarrier2` recorded inside a subpass
/// applies as, given the framebuffer's attachment bytes
/// ([`pass_attachments`]): each of its barriers through
/// [`framebuffer_local`], by-region when its source stages name a
/// framebuffer-space stage. The trace's `barrier` line carries no
/// `dependencyFlags`; inside a render pass such a barrier must have
/// `VK_DEPENDENCY_BY_REGION_BIT` (VUID-vkCmdPipelineBarrier2-dependencyFlags-07891),
/// so a valid program has it there; with no framebuffer-space source
/// stage the flag changes nothing ("A dependency with
/// non-framebuffer-space pipeline stages is neither framebuffer-global nor
/// framebuffer-local"; the model then applies it whole). In a subpass of
/// more than one view it is view-local too ([`view_local`]), with its
/// chain part (marked `true`: `crate::ir::render::PassScope::chain_only`).
/// Its scopes (the subpass's commands only) are the checkers' to apply.
pub(crate) fn subpass_barrier_parts(dep: &Dependency, pass: &PassAttachments) -> Vec<(Barrier, ViewPart)> {
    // dependencyFlags belongs to the call: by-region when any barrier's
    // source names a framebuffer-space stage (07891), view-local when the
    // subpass has more than one view (07893).
    let by_region = dep
        .barriers
        .iter()
        .any(|b| b.src_stage_mask.intersects(FRAMEBUFFER_SPACE));
    let parts: Vec<Barrier> = dep
        .barriers
        .iter()
        .flat_map(|b| framebuffer_local(*b, by_region, &pass.regions))
        .collect();
    view_local(parts, pass.views_apart, &pass.regions)
}

/// Parts of a dependency (after [`framebuffer_local`]) as the model
/// applies them when the dependency is view-local in a pass with more
/// than one view (`apart`): "each view in the destination subpass depends
/// on" the same view in the source subpass ("Multiview", the view offset
/// being 0), and "each region covers a single (view)" ("Framebuffer
/// Region Dependencies"). A draw is one command over every view, so only
/// what is known to be one view's is ordered: an attachment's bytes (view
/// `v` reads and writes layer `v` of each attachment). Each part with an
/// access scope holds its memory dependency over the attachments' bytes
/// only (a part that already has a region keeps it); a part with none, an
/// execution dependency, stays as it is (and the execution dependency of
/// each part with an access scope stays whole, as an execution-only
/// part). As with `by-region`, the model's barrier over some bytes still
/// carries its execution dependency for all memory (D5), so a
/// write-after-read of a storage buffer between two views across such a
/// dependency counts as ordered where the spec orders only the same
/// view's. The dependency's whole parts come beside these, marked `true`,
/// as its chain part (`crate::ir::render::PassScope::chain_only`): each view's
/// part orders that view's accesses before the dependencies from the
/// destination subpass, so what the source subpass wrote and the
/// dependency made available reaches them (review of the twenty-eighth
/// session: a storage write made available by a view-local `0->1` was
/// reported against a copy after `1->EXTERNAL`). And each part with an
/// access scope whole once more, for the accesses made before the
/// instance only ([`ViewPart::Before`]): such an access is ordered before
/// every view of the source subpass alike (what orders it there, a
/// barrier before the begin or a dependency from `EXTERNAL`, orders every
/// view), so each view's dependency orders it, and makes it visible, to
/// that view of the destination, whatever it is (review44: a copy made
/// visible to subpass 0 by `EXTERNAL->0` was reported against subpass 1's
/// storage read after a view-local `0->1`). Not `apart`: the parts as
/// they are, all [`ViewPart::Own`].
fn view_local(parts: Vec<Barrier>, apart: bool, attachments: &[Region]) -> Vec<(Barrier, ViewPart)> {
    if !apart {
        return parts.into_iter().map(|b| (b, ViewPart::Own)).collect();
    }
    let mut out = Vec::new();
    for &b in &parts {
        let memory = !b.src_access_mask.is_empty() || !b.dst_access_mask.is_empty();
        if !memory {
            out.push((b, ViewPart::Own));
            continue;
        }
        // An access made before the instance is before every view alike:
        // each view's part orders it, and makes it visible, whole.
        out.push((b, ViewPart::Before));
        // Only attachment accesses are one view's: view v's load, store,
        // resolve, color, depth/stencil and input attachment accesses are
        // of layer v, but a shader's sampled or storage access of an
        // attachment's image reads any layer (review44: a sampled read of
        // another view's layer was ordered).
        let own = Barrier {
            src_access_mask: attachment_access(b.src_access_mask),
            dst_access_mask: attachment_access(b.dst_access_mask),
            ..b
        };
        if b.region.is_some() {
            out.push((own, ViewPart::Own));
        } else {
            // The execution dependency stays whole (also with no
            // attachment bytes to hold the memory dependency over).
            out.push((execution_only(b), ViewPart::Own));
            out.extend(attachments.iter().map(|r| (own.on(*r), ViewPart::Own)));
        }
    }
    // The chain part (`crate::ir::render::PassScope::chain_only`): the
    // parts whole.
    out.extend(parts.into_iter().map(|b| (b, ViewPart::Chain)));
    out
}

/// Which part of a view-local dependency (or pipeline barrier inside a
/// subpass of more than one view) a barrier of [`view_local`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ViewPart {
    /// Applied as it is: the execution dependency, and the memory
    /// dependency over the attachments' bytes and attachment accesses.
    Own,
    /// The chain part (`crate::ir::render::PassScope::chain_only`).
    Chain,
    /// The whole masks, for the accesses made before the render pass
    /// instance only (`crate::ir::render::PassScope::before_only`).
    Before,
}

/// Barrier `b`'s execution dependency alone (no access scope).
fn execution_only(b: Barrier) -> Barrier {
    Barrier {
        src_access_mask: AccessFlags2::NONE,
        dst_access_mask: AccessFlags2::NONE,
        ..b
    }
}

/// The attachment accesses of access mask `a` (`MEMORY_READ` and
/// `MEMORY_WRITE` as the attachment reads and writes they name): what a
/// render pass's attachment operations and a draw's attachment accesses
/// are, each of one view's layer.
pub(crate) fn attachment_access(a: AccessFlags2) -> AccessFlags2 {
    let reads = AccessFlags2::COLOR_ATTACHMENT_READ
        | AccessFlags2::DEPTH_STENCIL_ATTACHMENT_READ
        | AccessFlags2::INPUT_ATTACHMENT_READ;
    let writes = AccessFlags2::COLOR_ATTACHMENT_WRITE | AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE;
    let mut out = a & (reads | writes);
    if a.contains(AccessFlags2::MEMORY_READ) {
        out |= reads;
    }
    if a.contains(AccessFlags2::MEMORY_WRITE) {
        out |= writes;
    }
    out
}

/// Whether access mask `a` names attachment accesses only
/// ([`attachment_access`]): one view's layer, one pixel's bytes.
pub(crate) fn is_attachment_access(a: AccessFlags2) -> bool {
    attachment_access(a) == a
}

/// Every byte range of the framebuffer's views of a `begin-render-pass`
/// (all attachments, in attachment order; with multiview the layers of
/// its views): where a framebuffer-local or view-local dependency of the
/// instance holds its memory dependency.
pub(crate) fn pass_attachments(
    program: &Program,
    rp: &RenderPass,
    views: &[(ObjectId, SubresourceRange)],
) -> Vec<Region> {
    views
        .iter()
        .flat_map(|v| pass_view_regions(program, rp, *v))
        .collect()
}

/// What a pipeline barrier inside a subpass of a render pass instance
/// needs of its instance ([`subpass_barrier_parts`]): the framebuffer's
/// attachment bytes ([`pass_attachments`]) and whether its subpasses
/// render more than one view ([`RenderPass::views_apart`]: such a barrier
/// is view-local, VUID-vkCmdPipelineBarrier2-None-07893).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PassAttachments {
    pub(crate) regions: Vec<Region>,
    pub(crate) views_apart: bool,
}

/// The barriers at boundary `b` (module docs), each with its scopes: each
/// dependency whose `dstSubpass` begins there (the end for `EXTERNAL`),
/// then the automatic layout transitions there. A transition between the
/// uses of an attachment in subpasses `p` and `q` (`EXTERNAL` for
/// `initialLayout` and `finalLayout`) is placed where `q` begins, with
/// the scopes `p -> q` and as masks: first those of every dependency from
/// `p` ("Automatic layout transitions away from the layout used in a
/// subpass happen-after the availability operations for all dependencies
/// with that subpass as the srcSubpass"; from `initialLayout`: every
/// dependency from `EXTERNAL` into a subpass that uses the attachment),
/// second those of every dependency into `q` ("Automatic layout
/// transitions into the layout used in a subpass happen-before the
/// visibility operations for all dependencies with that subpass as the
/// dstSubpass"; into `finalLayout`: every dependency to `EXTERNAL` from a
/// subpass that uses the attachment), the implicit dependencies included.
/// A self-dependency is none of these (its availability operations are
/// those of a barrier inside the subpass, which the model refuses).
fn boundary_barriers(
    program: &Program,
    rp: &RenderPass,
    views: &[(ObjectId, SubresourceRange)],
    b: usize,
) -> Vec<(Barrier, PassScope, DependencySets)> {
    let all_attachments = pass_attachments(program, rp, views);
    let declared =
        |src: SubpassIndex, dst: SubpassIndex| rp.dependencies.iter().any(|d| d.src == src && d.dst == dst);
    let here = rp.boundary_index(b);
    // The transitions here first (placed after the dependencies), so that
    // each dependency knows the transitions that follow it.
    let mut transitions = Vec::new();
    for a in 0..rp.attachments.len() as u32 {
        let Some((from, _, _)) = rp.transition_at(a, b) else {
            continue;
        };
        let mut firsts: Vec<SubpassDependency> = rp.transition_firsts(a, from).map(|(_, d)| *d).collect();
        let mut seconds: Vec<SubpassDependency> = rp
            .dependencies
            .iter()
            .filter(|d| d.src != d.dst && d.dst == here)
            .filter(|d| here != SubpassIndex::External || rp.uses_attachment(d.src, a))
            .copied()
            .collect();
        if from == SubpassIndex::External && !declared(SubpassIndex::External, here) {
            firsts.push(implicit_into(here));
            seconds.push(implicit_into(here));
        }
        if here == SubpassIndex::External && !declared(from, SubpassIndex::External) {
            firsts.push(implicit_out_of(from));
            seconds.push(implicit_out_of(from));
        }
        let (ss, sa, _, _) = union_masks(firsts.iter());
        let (_, _, ds, da) = union_masks(seconds.iter());
        let masks = Barrier::global(ss, sa, ds, da);
        // The declared dependencies of the second set (all placed here):
        // the transition happens before their visibility operations.
        let precedes = rp
            .dependencies
            .iter()
            .enumerate()
            .filter(|(i, d)| {
                *i < 64
                    && d.src != d.dst
                    && d.dst == here
                    && (here != SubpassIndex::External || rp.uses_attachment(d.src, a))
            })
            .fold(0u64, |m, (i, _)| m | (1 << i));
        let scope = PassScope {
            src: from,
            dst: here,
            dependency: None,
            follows: rp.transition_follows(a, b),
            precedes,
            then_dst: None,
            chain_only: false,
            before_only: false,
        };
        let sets = DependencySets {
            first: firsts
                .iter()
                .map(|d| (d.src_stage_mask, d.src_access_mask))
                .collect(),
            second: seconds
                .iter()
                .map(|d| (d.dst_stage_mask, d.dst_access_mask))
                .collect(),
        };
        transitions.push((a, masks, scope, sets));
    }
    let mut out = Vec::new();
    for (i, d) in rp.dependencies.iter().enumerate() {
        if d.dst != here || d.src == d.dst {
            continue;
        }
        // What follows the transitions this dependency comes before: their
        // second halves' stages.
        let then_dst = transitions
            .iter()
            .filter(|(_, _, t, _)| i < 64 && t.follows & (1 << i) != 0)
            .map(|(_, masks, _, _)| masks.dst_stage_mask)
            .reduce(|m, d| m | d);
        let scope = PassScope {
            src: d.src,
            dst: d.dst,
            dependency: Some(i as u32),
            follows: 0,
            precedes: 0,
            then_dst,
            chain_only: false,
            before_only: false,
        };
        let whole = Barrier::global(
            d.src_stage_mask,
            d.src_access_mask,
            d.dst_stage_mask,
            d.dst_access_mask,
        );
        let parts = framebuffer_local(whole, d.by_region, &all_attachments);
        for (b, part) in view_local(parts, d.view_local && rp.views_apart(), &all_attachments) {
            let scope = PassScope {
                chain_only: part == ViewPart::Chain,
                before_only: part == ViewPart::Before,
                ..scope
            };
            out.push((b, scope, DependencySets::default()));
        }
    }
    for (a, masks, scope, sets) in transitions {
        for r in pass_view_regions(program, rp, views[a as usize]) {
            out.push((masks.on(r).with_transition(), scope, sets.clone()));
        }
    }
    out
}

/// The subpass dependency (`srcSubpass`, `dstSubpass`) whose masks order
/// the automatic layout transition of `image` that render pass command
/// `at` performs (its begin: from `initialLayout` into the first subpass;
/// a next-subpass into subpass k: from `initialLayout` if k is the
/// attachment's first use, else from the layout of its previous use; its
/// end: from its last use into `finalLayout`). `None` when `at` is no render pass command. A
/// hazard at or after such a transition is fixed by masks of that
/// dependency, not by a barrier. The attachment is the one whose view
/// holds bytes of `region` (two attachments may view different layers or
/// mips of one image, each with its own first and last use); a region
/// no attachment's view meets falls back to every attachment of its
/// object.
pub fn transition_dependency(
    program: &Program,
    at: usize,
    region: Region,
) -> Option<(SubpassIndex, SubpassIndex)> {
    transition_dependencies(program, at, region)
        .into_iter()
        .next()
        .map(|(_, d, _)| d)
}

/// [`transition_dependency`] per attachment: each dependency whose masks
/// order the transition of some bytes of `region` at `at`, with those
/// bytes (the parts of `region` its attachments' views hold, in address
/// order; the whole region where no view meets it). A region over the
/// views of two attachments with different first or last uses needs the
/// masks in both dependencies (review35: the fix text named one). With
/// each, the implicit dependency a declared one would replace: `Some`
/// when the render pass declares none of that pair and the pair is one
/// the specification gives an implicit dependency (from `EXTERNAL` into a
/// subpass, from a subpass to `EXTERNAL`), whose masks a declared one
/// must keep to order what it ordered (review36).
#[allow(clippy::type_complexity)]
pub(crate) fn transition_dependencies(
    program: &Program,
    at: usize,
    region: Region,
) -> Vec<(
    Vec<Region>,
    (SubpassIndex, SubpassIndex),
    Option<SubpassDependency>,
)> {
    let Some(Command::Render(rc)) = program.commands.get(at) else {
        return Vec::new();
    };
    let (b, s) = match rc.op {
        RenderOp::BeginPass(ref b) => (b, 0),
        RenderOp::NextSubpass | RenderOp::EndPass => {
            let Some((_, b, s, _)) = open_pass(&program.commands, at) else {
                return Vec::new();
            };
            (b, s + usize::from(matches!(rc.op, RenderOp::NextSubpass)))
        }
        _ => return Vec::new(),
    };
    let Some(rp) = pass_of(program, b.pass) else {
        return Vec::new();
    };
    // Each attachment of the image with the parts of `region` its view
    // holds.
    let of_image: Vec<(u32, Vec<Region>)> = (0..rp.attachments.len() as u32)
        .filter(|&a| b.views.get(a as usize).is_some_and(|v| v.0 == region.object))
        .map(|a| {
            let parts = pass_view_regions(program, rp, b.views[a as usize])
                .iter()
                .filter(|r| r.object == region.object && r.range.overlaps(region.range))
                .map(|r| Region {
                    object: region.object,
                    range: ByteRange::new(
                        r.range.start.max(region.range.start),
                        r.range.end.min(region.range.end),
                    ),
                })
                .collect();
            (a, parts)
        })
        .collect();
    let meeting: Vec<(u32, Vec<Region>)> = of_image.iter().filter(|(_, p)| !p.is_empty()).cloned().collect();
    let mine: Vec<(u32, Vec<Region>)> = if meeting.is_empty() {
        of_image.into_iter().map(|(a, _)| (a, vec![region])).collect()
    } else {
        meeting
    };
    let end = matches!(rc.op, RenderOp::EndPass);
    let mut out: Vec<(Vec<Region>, (SubpassIndex, SubpassIndex))> = Vec::new();
    for (a, parts) in mine {
        let uses = rp.uses_of(a);
        let dep = if end {
            let last = uses.last().map_or(s, |u| u.0);
            (SubpassIndex::Subpass(last as u32), SubpassIndex::External)
        } else {
            // The use before subpass s; an attachment not used in s has
            // no transition here.
            let Some(pos) = uses.iter().position(|u| u.0 == s) else {
                continue;
            };
            let src = pos.checked_sub(1).map_or(SubpassIndex::External, |p| {
                SubpassIndex::Subpass(uses[p].0 as u32)
            });
            (src, SubpassIndex::Subpass(s as u32))
        };
        match out.iter_mut().find(|(_, d)| *d == dep) {
            Some((held, _)) => held.extend(parts),
            None => out.push((parts, dep)),
        }
    }
    if out.is_empty() {
        // No attachment of the image is used here: the transition into
        // the subpass, from outside.
        let dst = if end {
            SubpassIndex::External
        } else {
            SubpassIndex::Subpass(s as u32)
        };
        let src = if end {
            SubpassIndex::Subpass(s as u32)
        } else {
            SubpassIndex::External
        };
        out.push((vec![region], (src, dst)));
    }
    for (parts, _) in &mut out {
        parts.sort_by_key(|r| r.range.start);
    }
    out.sort_by_key(|(parts, _)| parts.first().map(|r| r.range.start));
    out.into_iter()
        .map(|(parts, (src, dst))| (parts, (src, dst), rp.implicit_replaced(src, dst)))
        .collect()
}

/// The render pass instance command `index` is recorded in (its begin's
/// index) and its subpass (a `vkCmdBeginRenderPass` begins subpass 0, a
/// `vkCmdNextSubpass` the next one). `None` outside every render pass
/// instance.
pub(crate) fn subpass_at(commands: &[Command], index: usize) -> Option<(usize, usize)> {
    if let Some(Command::Render(rc)) = commands.get(index) {
        match rc.op {
            RenderOp::BeginPass(_) => return Some((index, 0)),
            RenderOp::NextSubpass => return open_pass(commands, index).map(|(b, _, s, _)| (b, s + 1)),
            _ => {}
        }
    }
    open_pass(commands, index).map(|(b, _, s, _)| (b, s))
}

/// The fix for a race between the automatic layout transition a render
/// pass command `at` makes (one of [`transition_dependencies`]' pairs
/// `deps`) and `prior`, an access of an earlier subpass `q` of the same
/// instance, when no subpass dependency can order the two: the
/// transition "happen[s]-after the availability operations for all
/// dependencies with [the attachment's previous] subpass as the
/// srcSubpass" (or, from `initialLayout`, those from `EXTERNAL`, whose
/// first scope holds only commands before the instance), and `q`, which
/// does not use the attachment, lies after that subpass; no chain runs
/// back into it (review36: the text asked to add masks to such a
/// dependency, and applying it changed nothing). `src` is the race's
/// barrier's source masks. `None` when a dependency of `deps` can order
/// it.
pub(crate) fn unorderable_transition_fix(
    program: &Program,
    prior: usize,
    at: usize,
    deps: &[(SubpassIndex, SubpassIndex)],
    src: (S, AccessFlags2),
) -> Option<String> {
    let (begin, s) = subpass_at(&program.commands, at)?;
    let (prior_begin, q) = subpass_at(&program.commands, prior)?;
    if prior_begin != begin {
        return None;
    }
    let after_previous = |d: &(SubpassIndex, SubpassIndex)| match d.0 {
        SubpassIndex::External => true,
        SubpassIndex::Subpass(p) => (p as usize) < q,
    };
    if deps.is_empty() || !deps.iter().all(after_previous) {
        return None;
    }
    let end =
        matches!(program.commands.get(at), Some(Command::Render(rc)) if matches!(rc.op, RenderOp::EndPass));
    let previous = |d: SubpassIndex| match d {
        SubpassIndex::External => "its initialLayout".to_string(),
        SubpassIndex::Subpass(p) => format!("its layout in subpass {p}"),
    };
    let (from, _) = deps[0];
    Some(if end {
        format!(
            "no subpass dependency orders the layout transition at the end of the render pass after an access of \
             subpass {q}, which does not use the attachment (the transition happens-after the availability \
             operations of the dependencies from subpass {from}, its last use, only): give the attachment a \
             finalLayout equal to {} (no transition at the end) and record the transition as an image barrier \
             after the render pass, with source {}:{}",
            previous(from),
            src.0,
            src.1
        )
    } else {
        format!(
            "no subpass dependency orders the layout transition into subpass {s} after an access of subpass {q}, \
             which does not use the attachment (the transition happens-after the availability operations of the \
             dependencies from {} only): use the attachment in subpass {s} in {} (no transition there), or use it \
             in subpass {q} too, so that a dependency {q}->{s} orders the transition",
            match from {
                SubpassIndex::External => "EXTERNAL, whose first scope holds commands before the render pass".to_string(),
                SubpassIndex::Subpass(p) => format!("subpass {p}, its previous use"),
            },
            previous(from)
        )
    })
}

/// The layout each attachment of the render pass instance command `at`
/// belongs to (its begin, a next-subpass, a draw or clear, its end) is in
/// just before that instance's `vkCmdBeginRenderPass`: its
/// `initialLayout` (which a valid program's image is in there). Where a
/// barrier for a command of the instance goes, since none may be recorded
/// inside it. Attachments whose `initialLayout` is `UNDEFINED` or
/// `PREINITIALIZED` are left out (no barrier keeps such a layout). Empty
/// outside every render pass instance.
pub(crate) fn layouts_before_pass(
    program: &Program,
    at: usize,
) -> Vec<(ObjectId, SubresourceRange, ImageLayout)> {
    let begin = match program.commands.get(at) {
        Some(Command::Render(rc)) => match &rc.op {
            RenderOp::BeginPass(b) => Some(b),
            _ => open_pass(&program.commands, at).map(|(_, b, _, _)| b),
        },
        _ => None,
    };
    let Some(b) = begin else {
        return Vec::new();
    };
    let Some(rp) = pass_of(program, b.pass) else {
        return Vec::new();
    };
    rp.attachments
        .iter()
        .zip(&b.views)
        .filter(|(a, _)| !matches!(a.initial, ImageLayout::UNDEFINED | ImageLayout::PREINITIALIZED))
        .map(|(a, &(image, range))| (image, range, a.initial))
        .collect()
}

/// The render pass instance (its begin) and subpass command `index` is
/// recorded in: a next-subpass is in the subpass it begins, an end in the
/// last; `None` outside every render pass instance.
fn pass_position(program: &Program, index: usize) -> Option<(usize, usize)> {
    // A device command other than a render pass command, or an event
    // command, is never inside a render pass instance in a valid program
    // (`crate::ir::render::check_instances`): none is open at one, nor
    // before `index` past one. Stopping there keeps this O(1) for the usual
    // command and a report's fix texts linear (issue 27's `pieces`: each
    // line asks of a command thousands of commands after the last submit).
    let outside = |c: &Command| {
        !matches!(c, Command::Render(_))
            && (crate::ir::access::is_device_command(c) || crate::ir::render::is_event_command(c))
    };
    let command = program.commands.get(index)?;
    if outside(command) {
        return None;
    }
    match command {
        Command::Render(rc) if matches!(rc.op, RenderOp::BeginPass(_)) => Some((index, 0)),
        Command::Render(rc) if matches!(rc.op, RenderOp::NextSubpass) => {
            open_pass_until(&program.commands, index, outside).map(|(b, _, s, _)| (b, s + 1))
        }
        _ => open_pass_until(&program.commands, index, outside).map(|(b, _, s, _)| (b, s)),
    }
}

/// The fix for a hazard between a draw's access of an attachment's image
/// other than as an attachment (a sampled read: every view's) and a
/// layout transition, load or store operation (one view's own) of the
/// same subpass of an instance of a render pass of several views,
/// accesses `current` of command `command` and `prior` of command
/// `prior_command`: no subpass dependency orders view 0's read before
/// view 1's transition (each
/// view's transition happens after that view's subpasses' dependencies
/// only, the per-view reading of `crate::spec`, module `views`), so the
/// text says what does (review45: a fix named a dependency `0->EXTERNAL`
/// that, declared, still raced). `None` for any other hazard.
pub(crate) fn per_view_unorderable_fix(
    program: &Program,
    (prior_command, prior): (usize, StageAccess),
    (command, current): (usize, StageAccess),
) -> Option<String> {
    // Both of one subpass (a pass operation at the end of the pass as
    // of its last): a dependency from an earlier subpass into the
    // operation's, not view-local, would order them.
    let (begin, subpass) = pass_position(program, command)?;
    if pass_position(program, prior_command)? != (begin, subpass) {
        return None;
    }
    let Command::Render(rc) = &program.commands[begin] else {
        return None;
    };
    let RenderOp::BeginPass(pb) = &rc.op else {
        return None;
    };
    if !pass_of(program, pb.pass).is_some_and(RenderPass::views_apart) {
        return None;
    }
    // One side a draw's non-attachment access, the other a render pass
    // operation (a command that begins or ends a subpass or the pass).
    let pass_op = |c: usize| {
        matches!(&program.commands[c], Command::Render(rc)
            if matches!(rc.op, RenderOp::BeginPass(_) | RenderOp::NextSubpass | RenderOp::EndSubpass { .. } | RenderOp::EndPass))
    };
    let shader = |sa: StageAccess| !sa.is_layout_transition() && !is_attachment_access(sa.access());
    let (op, access) = if pass_op(command) && shader(prior) {
        (current, prior)
    } else if pass_op(prior_command) && shader(current) {
        (prior, current)
    } else {
        return None;
    };
    let what = if op.is_layout_transition() {
        "a layout transition"
    } else {
        "a load or store operation"
    };
    Some(format!(
        "no subpass dependency orders them: in a render pass of several views {what} is one view's own, and a \
         draw's {} {} of the attachment's image is every view's (docs/semantics.md, \"VIEW_LOCAL\"); access the \
         image outside the render pass instance{}",
        access.stage().flag(),
        access.access(),
        if op.is_layout_transition() {
            ", or keep its layout through the pass so that no transition writes it"
        } else {
            ""
        }
    ))
}

/// When commands `prior` and `command` are recorded in two subpasses of
/// one render pass instance, those subpasses: no barrier can be recorded
/// between them, and only a subpass dependency `prior->command` orders
/// them.
pub fn subpasses_between(program: &Program, prior: usize, command: usize) -> Option<(u32, u32)> {
    let (bp, sp) = pass_position(program, prior)?;
    let (bc, sc) = pass_position(program, command)?;
    (bp == bc && sp < sc).then_some((sp as u32, sc as u32))
}

/// Whether every byte of `region` is a byte of `attachments`, the
/// attachments of a render pass instance as it renders them (its begin's
/// [`crate::ir::render::RenderCommand::pass_attachments`], computed once
/// there: the views' layers with multiview): what a by-region or
/// view-local dependency orders. By bytes, not by image: a storage image
/// binding of another mip or layer of an attachment's image is no
/// attachment access (review of the twenty-eighth session: the planners
/// amended a view-local dependency for one and found no plan).
pub(crate) fn within_attachments(attachments: &[Region], region: Region) -> bool {
    let mut parts: Vec<ByteRange> = attachments
        .iter()
        .filter(|r| r.object == region.object)
        .map(|r| r.range)
        .collect();
    parts.sort_by_key(|r| r.start);
    let mut at = region.range.start;
    for r in parts {
        if r.start > at {
            break;
        }
        at = at.max(r.end);
        if at >= region.range.end {
            return true;
        }
    }
    at >= region.range.end
}

/// For a hazard between subpasses `s` and `k` of the instance holding
/// `command` ([`subpasses_between`]) over `region` between accesses
/// `accesses`: when `region` is not all attachment bytes
/// ([`within_attachments`]) or an access is not an attachment access
/// ([`attachment_access`]: a sampled read of an attachment's image), and
/// every dependency `s->k` the render pass declares is by-region or (with
/// more than one view) view-local, the flags they have (`by-region`,
/// `view-local`) and what they order: such a dependency orders attachment
/// accesses of an attachment's bytes only (`framebuffer_local`,
/// `view_local`), so adding the hazard's masks to it fixes nothing, and
/// the fix text says so. `None` otherwise (no such dependency, or one
/// that takes the masks).
pub(crate) fn local_dependencies_only(
    program: &Program,
    command: usize,
    (s, k): (u32, u32),
    region: Region,
    accesses: [AccessFlags2; 2],
) -> Option<(&'static str, &'static str)> {
    let (begin, _) = pass_position(program, command)?;
    let Command::Render(rc) = &program.commands[begin] else {
        return None;
    };
    let RenderOp::BeginPass(pb) = &rc.op else {
        return None;
    };
    let what = if !within_attachments(&rc.pass_attachments().regions, region) {
        "the attachments' bytes"
    } else if !accesses.iter().all(|&a| is_attachment_access(a)) {
        "attachment accesses"
    } else {
        return None;
    };
    let rp = pass_of(program, pb.pass)?;
    let declared: Vec<&SubpassDependency> = rp
        .dependencies
        .iter()
        .filter(|d| d.src == SubpassIndex::Subpass(s) && d.dst == SubpassIndex::Subpass(k))
        .collect();
    let view_local = |d: &SubpassDependency| d.view_local && rp.views_apart();
    if declared.is_empty() || declared.iter().any(|d| !d.by_region && !view_local(d)) {
        return None;
    }
    let (br, vl) = (
        declared.iter().any(|d| d.by_region),
        declared.iter().any(|d| view_local(d)),
    );
    let flags = match (br, vl) {
        (true, true) => "by-region and view-local",
        (true, false) => "by-region",
        _ => "view-local",
    };
    Some((flags, what))
}

/// The fix for a hazard between commands `prior` and `command` of one
/// subpass of a render pass instance whose fix outside a pass would be
/// barrier `b` (not a transition): a self-dependency of the subpass and
/// that barrier without its region (a buffer memory barrier is invalid
/// inside a render pass, VUID-vkCmdPipelineBarrier2-bufferMemoryBarrierCount-01178)
/// when `b`'s source stages are outside framebuffer space (a barrier from a
/// framebuffer-space stage would be by-region, and order no other bytes
/// than the attachments', `subpass_barrier_parts`); else two subpasses.
/// `None` when they are not in one subpass. The one home of this fix: the
/// fast checker's hazards (`Hazard::fix_text`), the planners' refusal and
/// the definitional semantics' races (the CLI's race format) all ask it.
pub fn same_subpass_fix(program: &Program, prior: usize, command: usize, b: &Barrier) -> Option<String> {
    let (bp, sp) = pass_position(program, prior)?;
    let (bc, sc) = pass_position(program, command)?;
    if bp != bc || sp != sc || b.transition {
        return None;
    }
    // A subpass of more than one view: a barrier inside it is view-local
    // and orders the attachments' bytes only (`subpass_barrier_parts`);
    // a dependency between two subpasses that is not view-local orders
    // every view's.
    let begin = match &program.commands[bp] {
        Command::Render(rc) => match &rc.op {
            RenderOp::BeginPass(pb) => Some((pb, &rc.pass_attachments().regions)),
            _ => None,
        },
        _ => None,
    };
    let apart = begin
        .and_then(|(pb, _)| pass_of(program, pb.pass))
        .is_some_and(RenderPass::views_apart);
    let two = format!(
        "record them in two subpasses with a dependency {sp}->{} between them{}",
        sp + 1,
        if apart { " (not view-local)" } else { "" }
    );
    let fb_source = b.src_stage_mask.intersects(FRAMEBUFFER_SPACE);
    let on_attachments = b
        .region
        .zip(begin)
        .is_some_and(|(r, (_, attachments))| within_attachments(attachments, r));
    if fb_source || b.src_stage_mask.is_empty() || (apart && !on_attachments) {
        return Some(two);
    }
    let masks = format!(
        "{}:{} -> {}:{}",
        b.src_stage_mask, b.src_access_mask, b.dst_stage_mask, b.dst_access_mask
    );
    Some(format!(
        "add `dependency {sp}->{sp} {masks}` (or these masks to one) to the render pass and record `barrier {masks}` \
         between them, or {two}"
    ))
}

/// `program` with each pipeline barrier recorded inside a render pass
/// instance emptied (the same command indices): what the planners start
/// from there, since they plan without the trace's barriers and place none
/// inside a subpass, so a hazard only such a barrier orders is one they
/// must refuse (`crate::ir::render::refuse_hazard_inside`).
pub(crate) fn without_subpass_barriers(program: &Program) -> Program {
    let mut open = false;
    let commands = program
        .commands
        .iter()
        .map(|c| match c {
            Command::Render(rc) => {
                match rc.op {
                    RenderOp::BeginPass(_) => open = true,
                    RenderOp::EndPass => open = false,
                    _ => {}
                }
                c.clone()
            }
            Command::Barrier(_) if open => Command::Barrier(Dependency::default()),
            c => c.clone(),
        })
        .collect();
    program.with_commands(commands)
}

/// A `begin-render-pass`'s `renderArea` against its framebuffer (the
/// rectangle from the origin every view holds, the model's framebuffer):
/// a nonzero extent (VUID-VkRenderPassBeginInfo-None-08996, -08997),
/// inside the framebuffer (VUID-VkRenderPassBeginInfo-pNext-02852, -02853).
fn check_render_area(
    program: &Program,
    views: &[(ObjectId, SubresourceRange)],
    render_area: Option<[u32; 4]>,
) -> Result<(), RenderError> {
    let call = "vkCmdBeginRenderPass";
    let Some([x, y, w, h]) = render_area else {
        return Ok(());
    };
    if w == 0 || h == 0 {
        return Err(bad(
            call,
            format!("renderArea {x},{y},{w},{h}: its extent must not be 0 (VUID-VkRenderPassBeginInfo-None-08996, -08997)"),
        ));
    }
    // The framebuffer is no larger than any view, 3D ones included (their
    // width and height; review29: a 3D view skipped the check).
    let mut fw = u32::MAX;
    let mut fh = u32::MAX;
    for &(image, range) in views {
        if let Some(d) = program.image(image) {
            let [w, h, _] = d.mip_extent(range.base_mip);
            fw = fw.min(w);
            fh = fh.min(h);
        }
    }
    let vuids = [
        "VUID-VkRenderPassBeginInfo-pNext-02852",
        "VUID-VkRenderPassBeginInfo-pNext-02853",
    ];
    if let Some((axis, end, size, vuid)) = crate::ir::render::area_past([x, y, w, h], [fw, fh], vuids) {
        return Err(bad(
            call,
            format!(
                "renderArea {x},{y},{w},{h} ends at {end}, past the framebuffer's {axis} {size} (the \
                 smallest of its views') ({vuid})"
            ),
        ));
    }
    Ok(())
}

/// Checks the views of a `begin-render-pass` against the render pass.
fn check_views(
    program: &Program,
    rp: &RenderPass,
    views: &[(ObjectId, SubresourceRange)],
) -> Result<(), RenderError> {
    let call = "vkCmdBeginRenderPass";
    if views.len() != rp.attachments.len() {
        return Err(bad(
            call,
            format!(
                "{} views for render pass `{}` with {} attachments (VUID-VkFramebufferCreateInfo-attachmentCount-00876)",
                views.len(),
                rp.name,
                rp.attachments.len()
            ),
        ));
    }
    for (i, (&(image, range), desc)) in views.iter().zip(&rp.attachments).enumerate() {
        let name = program.object(image).map_or("?".to_string(), |o| o.name.clone());
        let d = program.image(image).ok_or_else(|| {
            bad(
                call,
                format!("view {i}: `{name}` is not an image (declare it with `image`)"),
            )
        })?;
        let (aspects, m0, m1, _, _) = d
            .resolve_range(range)
            .map_err(|e| bad(call, format!("view {i}: {e}")))?;
        if m1 - m0 != 1 {
            return Err(bad(
                call,
                format!(
                    "view {i}: an attachment view has one mip level; {range} has {}",
                    m1 - m0
                ),
            ));
        }
        if !d.format.view_compatible(desc.format) {
            return Err(bad(
                call,
                format!(
                    "view {i}: `{name}` is {}, attachment {i} is {}, of another size compatibility class: no view \
                     of the image has the attachment's format (VUID-VkFramebufferCreateInfo-pAttachments-00880)",
                    d.format.name(),
                    desc.format.name()
                ),
            ));
        }
        if aspects != d.format.aspect_mask() {
            return Err(bad(
                call,
                format!("view {i}: {range} names {aspects}; an attachment view covers every aspect of its format ({})", d.format.aspect_mask()),
            ));
        }
        let mask = rp.view_mask();
        if mask != 0 && d.extent[2] > 1 {
            return Err(bad(
                call,
                format!(
                    "view {i}: `{name}` is a 3D image: multiview over its depth slices (a 2D array view of them, \
                     view v its slice v) is not modelled"
                ),
            ));
        }
        if mask != 0 && !rp.uses_of(i as u32).is_empty() {
            let (_, _, _, l0, l1) = d
                .resolve_range(range)
                .map_err(|e| bad(call, format!("view {i}: {e}")))?;
            let top = 31 - mask.leading_zeros();
            if l1 - l0 <= top {
                return Err(bad(
                    call,
                    format!(
                        "view {i}: `{name}` {range} has {} layer(s), and the render pass's viewMask {mask:#b} renders view {top}, its layer {top} \
                         (VUID-VkFramebufferCreateInfo-renderPass-04536)",
                        l1 - l0
                    ),
                ));
            }
        }
    }
    // Multiview: view v is layer v of each view, so two views of one
    // image whose layers overlap from different first layers put one byte
    // in two views (view-local dependencies order each view's bytes,
    // `view_local`). Aliasing attachments (VK_ATTACHMENT_DESCRIPTION_MAY_ALIAS_BIT,
    // which the trace does not carry) are not modelled there.
    if rp.view_mask() != 0 {
        let layers = |image: ObjectId, range: SubresourceRange| {
            program.image(image).and_then(|d| d.resolve_range(range).ok())
        };
        for (i, &(a, ra)) in views.iter().enumerate() {
            for (j, &(b, rb)) in views.iter().enumerate().skip(i + 1) {
                let (Some(x), Some(y)) = (layers(a, ra), layers(b, rb)) else {
                    continue;
                };
                let meet = a == b
                    && x.0 .0 & y.0 .0 != 0
                    && x.1 < y.2
                    && y.1 < x.2
                    && x.3 < y.4
                    && y.3 < x.4
                    && x.3 != y.3;
                if meet {
                    let name = program.object(a).map_or("?".to_string(), |o| o.name.clone());
                    return Err(bad(
                        call,
                        format!(
                            "views {i} and {j} of `{name}` overlap from different first layers ({ra}, {rb}), so one \
                             layer is a different view of each: aliasing attachments with multiview are not modelled"
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The accesses of a `vkCmdClearAttachments` in the instance `r` (a
/// dynamic one) or subpass `sub` of a render pass: "Unlike other clear
/// commands, vkCmdClearAttachments is not a transfer command. It performs
/// its operations in rasterization order": color writes in
/// `COLOR_ATTACHMENT_OUTPUT`, depth/stencil writes in both fragment test
/// stages.
///
/// A depth or stencil aspect the depth/stencil attachment does not have:
/// in a render pass, an error when the attachment's format has no such
/// component (VUID-vkCmdClearAttachments-aspectMask-07884, -07885, which
/// hold "if the current render pass instance does not use dynamic
/// rendering"); otherwise, and always with dynamic rendering, "If any
/// attachment's aspectMask to be cleared is not backed by an image view,
/// the clear has no effect on that aspect" (review19: a dynamic instance
/// with a depth-only view refused a stencil clear, citing retired VUIDs).
fn clear_accesses(
    program: &Program,
    c: &ClearAttachments,
    colors: &[Option<(ObjectId, SubresourceRange)>],
    depth: Option<(ObjectId, SubresourceRange)>,
    dynamic: bool,
    area: impl Into<crate::ir::render::Area> + Copy,
) -> Result<Vec<(Region, StageAccess)>, RenderError> {
    let call = "vkCmdClearAttachments";
    let mut out = Vec::new();
    for &n in &c.colors {
        let Some(slot) = colors.get(n as usize) else {
            return Err(bad(
                call,
                format!(
                    "color attachment {n} of {} (VUID-vkCmdClearAttachments-aspectMask-07271)",
                    colors.len()
                ),
            ));
        };
        // An unused slot: "the clear has no effect".
        if let Some(v) = slot {
            for r in area_regions(program, *v, area) {
                out.push((r, StageAccess::ColorAttachmentOutputColorWrite));
            }
        }
    }
    for (on, aspect, vuid) in [
        (
            c.depth,
            Aspect::Depth,
            "VUID-vkCmdClearAttachments-aspectMask-07884",
        ),
        (
            c.stencil,
            Aspect::Stencil,
            "VUID-vkCmdClearAttachments-aspectMask-07885",
        ),
    ] {
        let Some((image, range)) = depth.filter(|_| on) else {
            continue;
        };
        let format = program.image(image).map(|d| d.format);
        if !dynamic && format.is_some_and(|f| !f.aspect_mask().has(aspect)) {
            return Err(bad(
                call,
                format!(
                    "the depth/stencil attachment's format {} has no {} component ({vuid})",
                    format.map_or_else(String::new, |f| f.to_string()),
                    aspect.name().to_lowercase()
                ),
            ));
        }
        if !range.aspects.has(aspect) {
            // Not backed by the view: no effect.
            continue;
        }
        for r in aspect_bytes(program, image, range, aspect, area) {
            let region = Region {
                object: image,
                range: r,
            };
            out.push((region, StageAccess::EarlyFragmentTestsDepthStencilWrite));
            out.push((region, StageAccess::LateFragmentTestsDepthStencilWrite));
        }
    }
    Ok(out)
}

/// Lowers a render pass command (or a `vkCmdClearAttachments`) recorded
/// at `index` of `program` (module docs).
pub(crate) fn lower(program: &Program, index: usize, op: &RenderOp) -> Result<Lowered, RenderError> {
    let call = op.vulkan_name();
    let outside = |vuid: &'static str| RenderError::OutsidePass {
        call,
        within: if matches!(op, RenderOp::Clear(_)) {
            "a rendering or render pass instance"
        } else {
            "a render pass instance: it must be recorded between begin-render-pass and end-render-pass"
        },
        vuid,
    };
    match op {
        RenderOp::BeginPass(b) => {
            let rp = pass_of(program, b.pass)
                .ok_or_else(|| bad(call, format!("render pass {} is not declared", b.pass.0)))?;
            check_views(program, rp, &b.views)?;
            check_render_area(program, &b.views, b.render_area)?;
            Ok(Lowered {
                pre: boundary_barriers(program, rp, &b.views, 0),
                accesses: ops_at(program, rp, &b.views, b.render_area, 0, true, (index, index, &[])),
                subpass: Some(subpass_rendering(program, rp, &b.views, b.render_area, 0)),
                attachments: PassAttachments {
                    regions: pass_attachments(program, rp, &b.views),
                    views_apart: rp.views_apart(),
                },
                ..Lowered::default()
            })
        }
        RenderOp::EndSubpass { last } => {
            let (begin, b, s, ended) = open_pass(&program.commands, index).ok_or_else(|| {
                outside(if *last {
                    "VUID-vkCmdEndRenderPass-renderpass"
                } else {
                    "VUID-vkCmdNextSubpass-renderpass"
                })
            })?;
            if ended {
                return Err(bad(call, "the subpass is already ended".into()));
            }
            let rp = pass_of(program, b.pass).ok_or_else(|| bad(call, "no render pass".into()))?;
            let n = rp.subpasses.len();
            if *last && s + 1 != n {
                return Err(RenderError::SubpassCount {
                    call,
                    subpasses: n,
                    current: s,
                    vuid: "VUID-vkCmdEndRenderPass-None-00910",
                });
            }
            if !*last && s + 1 >= n {
                return Err(RenderError::SubpassCount {
                    call,
                    subpasses: n,
                    current: s,
                    vuid: "VUID-vkCmdNextSubpass-None-00909",
                });
            }
            let r = subpass_rendering(program, rp, &b.views, b.render_area, s);
            let area = crate::ir::render::instance_area(program, &r);
            let mut accesses = Vec::new();
            // "Multisample resolve operations for attachments execute in
            // the VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT pipeline
            // stage" at the end of the subpass, before the store operations.
            for a in &r.colors {
                if let Some((ri, rr, _)) = a.resolve {
                    for reg in area_regions(program, (a.image, a.range), area) {
                        accesses.push((reg, StageAccess::ColorAttachmentOutputColorRead));
                    }
                    for reg in area_regions(program, (ri, rr), area) {
                        accesses.push((reg, StageAccess::ColorAttachmentOutputColorWrite));
                    }
                }
            }
            // The resolves above write before the store operations (a
            // resolve into an attachment is a value written to it).
            let stores = ops_at(
                program,
                rp,
                &b.views,
                b.render_area,
                s,
                false,
                (begin, index, &accesses),
            );
            accesses.extend(stores);
            Ok(Lowered {
                implicit: after_an_access(
                    program,
                    index,
                    implicit_of(program, &end_rendering(program, rp, &b.views, b.render_area, s)),
                ),
                accesses,
                ..Lowered::default()
            })
        }
        RenderOp::NextSubpass | RenderOp::EndPass => {
            let (_, b, s, ended) = open_pass(&program.commands, index).ok_or_else(|| {
                outside(if matches!(op, RenderOp::NextSubpass) {
                    "VUID-vkCmdNextSubpass-renderpass"
                } else {
                    "VUID-vkCmdEndRenderPass-renderpass"
                })
            })?;
            let rp = pass_of(program, b.pass).ok_or_else(|| bad(call, "no render pass".into()))?;
            if !ended {
                return Err(bad(
                    call,
                    "the subpass's end (its resolves and store operations, RenderOp::EndSubpass) must come first".into(),
                ));
            }
            let n = rp.subpasses.len();
            match op {
                RenderOp::NextSubpass if s + 1 >= n => Err(RenderError::SubpassCount {
                    call,
                    subpasses: n,
                    current: s,
                    vuid: "VUID-vkCmdNextSubpass-None-00909",
                }),
                RenderOp::NextSubpass => Ok(Lowered {
                    pre: boundary_barriers(program, rp, &b.views, s + 1),
                    accesses: ops_at(
                        program,
                        rp,
                        &b.views,
                        b.render_area,
                        s + 1,
                        true,
                        (index, index, &[]),
                    ),
                    subpass: Some(subpass_rendering(program, rp, &b.views, b.render_area, s + 1)),
                    ..Lowered::default()
                }),
                _ if s + 1 != n => Err(RenderError::SubpassCount {
                    call,
                    subpasses: n,
                    current: s,
                    vuid: "VUID-vkCmdEndRenderPass-None-00910",
                }),
                _ => Ok(Lowered {
                    pre: boundary_barriers(program, rp, &b.views, n),
                    ..Lowered::default()
                }),
            }
        }
        RenderOp::Clear(c) => {
            let Some((_, r)) = super::render::open_instance(&program.commands, index) else {
                return Err(outside("VUID-vkCmdClearAttachments-renderpass"));
            };
            // In a subpass the index is into its color slots, unused
            // slots included.
            let pass = open_pass(&program.commands, index);
            let colors: Vec<Option<(ObjectId, SubresourceRange)>> = match pass {
                Some((_, b, s, _)) => match pass_of(program, b.pass) {
                    Some(rp) => rp.subpasses[s]
                        .colors
                        .iter()
                        .map(|c| c.color.map(|x| b.views[x.attachment as usize]))
                        .collect(),
                    None => Vec::new(),
                },
                None => r.colors.iter().map(|a| Some((a.image, a.range))).collect(),
            };
            if c.colors.is_empty() && !c.depth && !c.stencil {
                return Err(bad(
                    call,
                    "clears nothing (VUID-vkCmdClearAttachments-attachmentCount-arraylength)".into(),
                ));
            }
            let depth = r.depth.map(|a| (a.image, a.range));
            let dynamic = pass.is_none();
            Ok(Lowered {
                implicit: after_an_access(program, index, implicit_of(program, r)),
                accesses: clear_accesses(
                    program,
                    c,
                    &colors,
                    depth,
                    dynamic,
                    crate::ir::render::instance_area(program, r),
                )?,
                ..Lowered::default()
            })
        }
        _ => Ok(Lowered::default()),
    }
}

/// The stages a pipeline barrier inside a render pass instance may name
/// ("the source and destination stage masks of any memory barriers must
/// only include graphics pipeline stages",
/// VUID-vkCmdPipelineBarrier2-None-07892): `ALL_GRAPHICS` and the stages
/// it is the logical OR of, with `TOP_OF_PIPE` and `BOTTOM_OF_PIPE`, which
/// start and end the graphics pipeline. `ALL_COMMANDS` names the compute
/// and transfer stages too, so it is not one.
const GRAPHICS_STAGES: S = S::ALL_GRAPHICS
    .union(S::TOP_OF_PIPE)
    .union(S::BOTTOM_OF_PIPE)
    .union(S::DRAW_INDIRECT)
    .union(S::VERTEX_INPUT)
    .union(S::INDEX_INPUT)
    .union(S::VERTEX_ATTRIBUTE_INPUT)
    .union(S::VERTEX_SHADER)
    .union(S::TESSELLATION_CONTROL_SHADER)
    .union(S::TESSELLATION_EVALUATION_SHADER)
    .union(S::GEOMETRY_SHADER)
    .union(S::PRE_RASTERIZATION_SHADERS)
    .union(FRAMEBUFFER_SPACE);

/// The first field of barrier `b` whose scope a self-dependency `d` does
/// not contain ("the scopes of one pipeline barrier must be a subset of
/// those described by one subpass dependency"): synchronization scopes
/// compared expanded, access scopes as the model's (stage, access) pairs.
fn outside_self_dependency(b: &Barrier, d: &SubpassDependency) -> Option<&'static str> {
    use crate::vk::scope::access_scope;
    let sub = |a: u32, c: u32| a & !c == 0;
    let sub_pairs = |a: u64, c: u64| a & !c == 0;
    if !sub(
        exec_scope(b.src_stage_mask, Side::Src).0,
        exec_scope(d.src_stage_mask, Side::Src).0,
    ) {
        return Some("srcStageMask");
    }
    if !sub(
        exec_scope(b.dst_stage_mask, Side::Dst).0,
        exec_scope(d.dst_stage_mask, Side::Dst).0,
    ) {
        return Some("dstStageMask");
    }
    if !sub_pairs(
        access_scope(b.src_stage_mask, b.src_access_mask, Side::Src).0,
        access_scope(d.src_stage_mask, d.src_access_mask, Side::Src).0,
    ) {
        return Some("srcAccessMask");
    }
    if !sub_pairs(
        access_scope(b.dst_stage_mask, b.dst_access_mask, Side::Dst).0,
        access_scope(d.dst_stage_mask, d.dst_access_mask, Side::Dst).0,
    ) {
        return Some("dstAccessMask");
    }
    None
}

/// Checks a `vkCmdPipelineBarrier2` recorded at `index`, inside a render
/// pass instance, against the valid usage of a pipeline barrier there
/// ("Pipeline Barriers", the `vkCmdPipelineBarrier2` VUIDs named in each
/// error): recorded in a subpass (not between a subpass's end and the
/// next), no buffer memory barrier (-bufferMemoryBarrierCount-01178), an
/// image memory barrier only of an attachment used in the subpass both as
/// an input attachment and as a color or depth/stencil one (-image-04073;
/// the model refuses such a feedback loop in the declaration, so none
/// is), only graphics
/// stages (-None-07892), a framebuffer-space source only with
/// framebuffer-space destinations (-None-07890), and each barrier within
/// a self-dependency of the subpass (-None-07889; "the scopes of one
/// pipeline barrier must be a subset of those described by one subpass
/// dependency"). `VK_DEPENDENCY_BY_REGION_BIT` is not in the trace: the
/// model takes it as set exactly when -dependencyFlags-07891 requires it
/// (a framebuffer-space source stage), so the part of 07889 about the flag
/// is not checked ([`subpass_barrier_parts`]).
pub(crate) fn check_subpass_barrier(
    program: &Program,
    index: usize,
    dep: &Dependency,
) -> Result<(), RenderError> {
    let call = "vkCmdPipelineBarrier2";
    let Some((_, begin, s, ended)) = open_pass(&program.commands, index) else {
        return Err(bad(call, "not inside a render pass instance".into()));
    };
    if ended {
        return Err(bad(
            call,
            "between a subpass's end and the next subpass's begin (they are one command, vkCmdNextSubpass)"
                .into(),
        ));
    }
    let rp = pass_of(program, begin.pass).ok_or_else(|| bad(call, "no render pass".into()))?;
    let err = |barrier: usize, what: String, vuid: &'static str| RenderError::SubpassBarrier {
        subpass: s,
        barrier,
        what,
        vuid,
    };
    let selfs: Vec<&SubpassDependency> = rp
        .dependencies
        .iter()
        .filter(|d| d.src == SubpassIndex::Subpass(s as u32) && d.dst == d.src)
        .collect();
    for (i, b) in dep.barriers.iter().enumerate() {
        match (b.region, b.image.and_then(|r| program.image_barrier(r))) {
            (Some(_), None) => {
                return Err(err(
                    i,
                    format!("a buffer memory barrier ({})", b.describe(program)),
                    "VUID-vkCmdPipelineBarrier2-bufferMemoryBarrierCount-01178",
                ))
            }
            (Some(_), Some(ib)) => {
                let name = program.object(ib.image).map_or("?", |o| o.name.as_str());
                return Err(err(
                    i,
                    format!(
                        "an image memory barrier of `{name}`, which subpass {s} does not use both as an input attachment \
                         and as a color or depth/stencil attachment (the model refuses such feedback loops)"
                    ),
                    "VUID-vkCmdPipelineBarrier2-image-04073",
                ));
            }
            _ => {}
        }
        for (field, mask) in [
            ("srcStageMask", b.src_stage_mask),
            ("dstStageMask", b.dst_stage_mask),
        ] {
            let other = mask.difference(GRAPHICS_STAGES);
            if !other.is_empty() {
                return Err(err(
                    i,
                    format!("{field} names {other}, not a graphics pipeline stage"),
                    "VUID-vkCmdPipelineBarrier2-None-07892",
                ));
            }
        }
        // "the source stage masks of any memory barriers include
        // framebuffer-space stages, destination stage masks of all memory
        // barriers must only include framebuffer-space stages": the call's
        // first barrier with such a source stands for all.
        if let Some(j) = dep
            .barriers
            .iter()
            .position(|o| o.src_stage_mask.intersects(FRAMEBUFFER_SPACE))
        {
            let other = b.dst_stage_mask.difference(FRAMEBUFFER_SPACE);
            if !other.is_empty() {
                let whose = if j == i {
                    "its srcStageMask".to_string()
                } else {
                    format!("barrier {j}'s srcStageMask")
                };
                return Err(err(
                    i,
                    format!(
                        "{whose} {} names a framebuffer-space stage, so every dstStageMask of the call must name only \
                         framebuffer-space stages, and this one names {other}",
                        dep.barriers[j].src_stage_mask
                    ),
                    "VUID-vkCmdPipelineBarrier2-None-07890",
                ));
            }
        }
        if selfs.is_empty() {
            return Err(err(
                i,
                format!(
                    "render pass `{}` declares no self-dependency of subpass {s} (`dependency {s}->{s} ...`), \
                     which a pipeline barrier inside the subpass needs",
                    rp.name
                ),
                "VUID-vkCmdPipelineBarrier2-None-07889",
            ));
        }
        if selfs.iter().all(|d| outside_self_dependency(b, d).is_some()) {
            let field = outside_self_dependency(b, selfs[0]).unwrap_or("srcStageMask");
            let d = selfs[0];
            return Err(err(
                i,
                format!(
                    "its {field} ({}) is not within the scopes of a self-dependency of subpass {s} \
                     (`dependency {s}->{s} {}:{} -> {}:{}`{})",
                    b.describe(program),
                    d.src_stage_mask,
                    d.src_access_mask,
                    d.dst_stage_mask,
                    d.dst_access_mask,
                    if selfs.len() > 1 { " and the others" } else { "" }
                ),
                "VUID-vkCmdPipelineBarrier2-None-07889",
            ));
        }
    }
    Ok(())
}

/// Refuses a plan of `input` that leaves a hazard inside a render pass
/// instance, at its begin, or after it against its final layout
/// transition (a barrier cannot be placed inside, one before the begin
/// does not reach its layout transitions, one after the end does not
/// reach the final one: only the render pass's subpass dependencies order
/// them) with
/// [`RenderError::PlanNeedsSubpassDependency`] at that instance's
/// `begin-render-pass` in `input` (the k-th of one is the k-th of the
/// other: planners insert barriers, waits and submits only).
pub(crate) fn refuse_hazard_inside(
    input: &Program,
    planned: &Program,
) -> Result<(), super::error::ProgramError> {
    use super::error::{Location, ProgramError, ProgramErrorKind};
    let begins = |p: &Program| -> Vec<usize> {
        p.commands
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(c, Command::Render(rc) if matches!(rc.op, RenderOp::BeginPass(_))))
            .map(|(i, _)| i)
            .collect()
    };
    let ours = begins(input);
    if ours.is_empty() {
        return Ok(());
    }
    let theirs = begins(planned);
    for h in crate::hazard::check(planned)? {
        // At the begin itself: its transitions, which the subpass
        // dependencies order, not a barrier before it (the implicit one has
        // an empty first scope).
        let at_begin = matches!(&planned.commands[h.command], Command::Render(rc) if matches!(rc.op, RenderOp::BeginPass(_)));
        // After the pass, against its final transition, still: a
        // dependency to EXTERNAL orders it, or a barrier after the end
        // whose first scope is `ALL_COMMANDS` ([`chained_fix`] gives the
        // planners that one where no dependency names a stage); a hazard
        // left here is one neither reached.
        let after_end = h.prior.is_layout_transition()
            && matches!(&planned.commands[h.prior_command], Command::Render(rc) if matches!(rc.op, RenderOp::EndPass));
        let b = if at_begin {
            h.command
        } else if after_end {
            let Some((b, ..)) = open_pass(&planned.commands, h.prior_command) else {
                continue;
            };
            b
        } else {
            let Some((b, ..)) = open_pass(&planned.commands, h.command) else {
                continue;
            };
            b
        };
        let k = theirs.iter().position(|&x| x == b).unwrap_or(0);
        return Err(ProgramError {
            at: Location::Command(ours.get(k).copied().unwrap_or(0)),
            kind: ProgramErrorKind::Render(Box::new(RenderError::PlanNeedsSubpassDependency)),
        });
    }
    Ok(())
}

/// The subpass dependency of a render pass instance that orders hazard
/// `h` of `program` where no pipeline barrier can (the planners amend the
/// declaration with it, `crate::plan`): between two subpasses of one
/// instance, the dependency `prior->command` with the masks of the
/// hazard's minimal barrier ("If srcSubpass is not VK_SUBPASS_EXTERNAL,
/// the first synchronization scope includes commands that occur earlier
/// in submission order than the vkCmdNextSubpass ... that ends srcSubpass";
/// a barrier there is invalid, VUID-vkCmdPipelineBarrier2-None-07889);
/// against an automatic layout transition of the instance (at its begin,
/// a next-subpass or its end), the dependency [`transition_dependency`]
/// names with the hazard's source masks on its source side (the
/// transition happens-after its availability operations) and its
/// destination masks on its destination side (it happens-before its
/// visibility operations), the other side empty. Its `by_region` says
/// whether a by-region dependency would order the hazard (an attachment's
/// bytes, both stage masks in framebuffer space). The render pass and the
/// dependency; `None` for every other hazard (a barrier outside the
/// instance, or inside one subpass, orders it). A hazard against a
/// transition whose other command is in another instance is the
/// barriers' business ([`chained_fix`]); with `across`, one that no
/// barrier reaches (the dependency from or to `EXTERNAL` has stages
/// `NONE` on that side) gets its dependency too.
pub(crate) fn dependency_for(
    program: &Program,
    h: &crate::Hazard,
    across: bool,
) -> Option<(RenderPassId, SubpassDependency)> {
    let b = h.fix.barrier?;
    let pass = |i: usize| {
        let (begin, _) = pass_position(program, i)?;
        match &program.commands[begin] {
            Command::Render(rc) => match &rc.op {
                RenderOp::BeginPass(pb) => Some(pb.pass),
                _ => None,
            },
            _ => None,
        }
    };
    if !b.transition {
        let (s, k) = subpasses_between(program, h.prior_command, h.command)?;
        // A by-region dependency orders these bytes if they are an
        // attachment's and both stage masks lie in framebuffer space
        // (`framebuffer_local`).
        let (begin, _) = pass_position(program, h.command)?;
        // Attachment accesses only: a sampled read of an attachment's
        // image reads any texel and any layer (`attachment_access`).
        let accesses = [h.current.access(), h.prior.access()];
        let attachment = matches!(&program.commands[begin], Command::Render(rc)
            if matches!(&rc.op, RenderOp::BeginPass(_)) && within_attachments(&rc.pass_attachments().regions, h.region))
            && accesses.iter().all(|&a| is_attachment_access(a));
        let dep = SubpassDependency {
            src: SubpassIndex::Subpass(s),
            dst: SubpassIndex::Subpass(k),
            src_stage_mask: b.src_stage_mask,
            src_access_mask: b.src_access_mask,
            dst_stage_mask: b.dst_stage_mask,
            dst_access_mask: b.dst_access_mask,
            by_region: attachment
                && FRAMEBUFFER_SPACE.contains(b.src_stage_mask)
                && FRAMEBUFFER_SPACE.contains(b.dst_stage_mask),
            // An attachment's bytes of one layer are one view's: a
            // view-local dependency orders them (`view_local`).
            view_local: attachment,
        };
        return Some((pass(h.command)?, dep));
    }
    let at = if h.current.is_layout_transition() {
        h.command
    } else {
        h.prior_command
    };
    let (src, dst) = transition_dependency(program, at, b.region?)?;
    // The instance of the transition's command: an end is past its last
    // subpass, so it is found through the pass open before it.
    let begin = match &program.commands[at] {
        Command::Render(rc) if matches!(rc.op, RenderOp::BeginPass(_)) => at,
        _ => open_pass(&program.commands, at)?.0,
    };
    // The other end must be in the scope the dependency gives that side
    // (the commands of its subpass, or those before the begin or after
    // the end for `EXTERNAL`); else masks there order nothing, and a
    // barrier outside the instance is the planners' business.
    // The transition is the later access: the other end is on the
    // dependency's source side. (Not `at == h.command`: a subpass's first
    // access at the begin itself, its load operation, is the same command
    // as the transition it follows.)
    let source_side = h.current.is_layout_transition();
    let (other, side) = if source_side {
        (h.prior_command, src)
    } else {
        (h.command, dst)
    };
    let in_scope = match (side, pass_position(program, other)) {
        (SubpassIndex::External, None) => (other < begin) == source_side,
        // A command of another instance is in `EXTERNAL`'s scope too (an
        // earlier instance's end, with its store operations, is before
        // this begin), but a barrier between the two instances orders it,
        // chained into the transition's dependency from or to `EXTERNAL`
        // ([`chained_fix`]); only where none chains (that dependency's
        // stages are `NONE` there, the implicit one's) do the masks go
        // into the declaration, else no plan would order it.
        (SubpassIndex::External, Some(p)) => {
            across && p.0 != begin && (other < begin) == source_side && chained(program, h, false).is_none()
        }
        (SubpassIndex::Subpass(k), Some(p)) => p == (begin, k as usize),
        _ => false,
    };
    if !in_scope {
        return None;
    }
    let rp = pass(begin)?;
    let dep = SubpassDependency {
        src,
        dst,
        src_stage_mask: b.src_stage_mask,
        src_access_mask: b.src_access_mask,
        dst_stage_mask: b.dst_stage_mask,
        dst_access_mask: b.dst_access_mask,
        by_region: false,
        view_local: false,
    };
    Some((rp, dep))
}

/// The pipeline barrier, recorded outside the instance, that orders
/// hazard `h` against a render pass's automatic layout transition from
/// `initialLayout` (at its begin, or at the next-subpass of the
/// attachment's first use) with a command before the begin, or into
/// `finalLayout` (at its end) with a command after the end, through an
/// execution dependency chain with the transition's own dependency from
/// or to `VK_SUBPASS_EXTERNAL` ("Automatic layout transitions away from
/// initialLayout happen-after the availability operations for all
/// dependencies with a srcSubpass equal to VK_SUBPASS_EXTERNAL", "...
/// into the finalLayout happen-before the visibility operations for all
/// dependencies with a dstSubpass equal to VK_SUBPASS_EXTERNAL"; a chain
/// forms where the barrier's second scope meets the dependency's first,
/// or the dependency's second meets the barrier's first, "Execution
/// Dependency Chains"). Before the begin: the earlier access's stage and
/// access to the dependencies' source stages, no access (the write made
/// available by the barrier; "Available memory is automatically made
/// visible to a layout transition"). After the end: the dependencies'
/// destination stages, no access, to the later access's stage and access
/// ("writes performed by a layout transition are automatically made
/// available"; the barrier makes them visible). `None` for every other
/// hazard, and when the dependencies' stages there are `NONE` (the
/// implicit ones: then only the declaration's masks order it,
/// [`dependency_for`]). The stages are the transition's own masks in the
/// lowering (`boundary_barriers`), the one home of which dependencies a
/// transition takes.
pub(crate) fn chained_fix(program: &Program, h: &crate::Hazard) -> Option<Barrier> {
    chained(program, h, true)
}

/// [`chained_fix`], with (`after_end`) or without the `ALL_COMMANDS`
/// barrier after the end for a final transition no dependency to
/// `EXTERNAL` chains out of ([`transition_before_end`]): without it,
/// whether a barrier chains through the dependencies' own stages, which
/// decides whether the planners give the declaration a dependency
/// ([`dependency_for`]: one with the hazard's masks, narrower than a
/// barrier that waits for every earlier command).
fn chained(program: &Program, h: &crate::Hazard, after_end: bool) -> Option<Barrier> {
    let fix = h.fix.barrier.filter(|b| b.transition)?;
    let mut chained = Barrier {
        transition: false,
        ..fix
    };
    // Both sides can be transitions (one pass's final, the next one's
    // initial): the barrier chains out of the one and into the other.
    if h.prior.is_layout_transition() {
        chained.src_stage_mask = match external_stages(program, h, false) {
            Some(stages) => stages,
            None => transition_before_end(program, h, after_end)?,
        };
        chained.src_access_mask = AccessFlags2::NONE;
    }
    if h.current.is_layout_transition() {
        chained.dst_stage_mask = external_stages(program, h, true)?;
        chained.dst_access_mask = AccessFlags2::NONE;
    }
    Some(chained)
}

/// For [`chained_fix`]: `ALL_COMMANDS` when hazard `h`'s prior access is
/// an automatic layout transition at a render pass instance's begin, at
/// one of its next-subpasses or at its end (the final one, when no
/// dependency to `EXTERNAL` has a second scope to chain out of) and its
/// command comes after that instance's end. No dependency to `EXTERNAL` holds such a transition (it
/// happens-before the visibility operations of the dependencies into its
/// own subpass only, and a subpass dependency cannot name the later
/// command's stage when that is not a graphics stage), but a barrier after
/// the end whose first scope is `ALL_COMMANDS` does: its first scope holds
/// every operation of the commands before it, the render pass's
/// transitions included (`docs/semantics.md`, "Layout transitions and
/// `ALL_COMMANDS`"), and "writes performed by a layout transition are
/// automatically made available". `None` for every other hazard (review23:
/// with `None` here no planner recorded anything and the plan kept the
/// race).
fn transition_before_end(program: &Program, h: &crate::Hazard, after_end: bool) -> Option<S> {
    let Some(Command::Render(rc)) = program.commands.get(h.prior_command) else {
        return None;
    };
    let begin = match rc.op {
        RenderOp::BeginPass(_) => h.prior_command,
        RenderOp::NextSubpass => open_pass(&program.commands, h.prior_command)?.0,
        // The final transition, where no dependency to `EXTERNAL` names a
        // stage to chain out of ([`external_stages`] is `None`: the
        // implicit one's second scope is empty): the same barrier after
        // the end holds it.
        RenderOp::EndPass => return (after_end && h.command > h.prior_command).then_some(S::ALL_COMMANDS),
        _ => return None,
    };
    let end = begin
        + program.commands[begin..]
            .iter()
            .position(|c| matches!(c, Command::Render(rc) if matches!(rc.op, RenderOp::EndPass)))?;
    (h.command > end).then_some(S::ALL_COMMANDS)
}

/// For [`chained_fix`]: the stages of the dependency from `EXTERNAL`
/// (`at_current`: the source stages) or to `EXTERNAL` (the destination
/// stages) that the transition [`external_transition`] names takes;
/// `None` when there is none or they are `NONE`.
fn external_stages(program: &Program, h: &crate::Hazard, at_current: bool) -> Option<S> {
    let t = external_transition(program, h, at_current)?;
    let stages = if at_current {
        t.src_stage_mask
    } else {
        t.dst_stage_mask
    };
    (!stages.is_empty()).then_some(stages)
}

/// The render pass's automatic layout transition over hazard `h`'s bytes
/// that is its current access (`at_current`: from `initialLayout`, at the
/// begin or the next-subpass of the attachment's first use, `h`'s prior
/// command before the begin) or its prior one (into `finalLayout`, at the
/// end, `h`'s command after it), as the lowering places it
/// (`boundary_barriers`: the masks of the dependencies from or to
/// `EXTERNAL` it takes); `None` for every other hazard.
pub(crate) fn external_transition(program: &Program, h: &crate::Hazard, at_current: bool) -> Option<Barrier> {
    let at = if at_current { h.command } else { h.prior_command };
    let Some(Command::Render(rc)) = program.commands.get(at) else {
        return None;
    };
    let outside = if at_current {
        let begin = match rc.op {
            RenderOp::BeginPass(_) => at,
            _ => open_pass(&program.commands, at)?.0,
        };
        h.prior_command < begin
    } else {
        matches!(rc.op, RenderOp::EndPass) && h.command > at
    };
    if !outside {
        return None;
    }
    rc.pre_barriers()
        .iter()
        .zip(rc.pre_scopes())
        .find(|(t, scope)| {
            let external = if at_current { scope.src } else { scope.dst } == SubpassIndex::External;
            t.transition
                && external
                && t.region
                    .is_some_and(|r| r.object == h.region.object && r.range.overlaps(h.region.range))
        })
        .map(|(t, _)| *t)
}

/// Adds the masks of `need` (a dependency [`dependency_for`] names) to
/// render pass `rp`, keeping every mask and flag it declares: to a
/// declared dependency of the same (`srcSubpass`, `dstSubpass`), one that
/// is not by-region unless `need` is marked by-region (a by-region
/// dependency orders only an attachment's bytes between framebuffer-space
/// stages framebuffer-locally, `framebuffer_local`; the mark says the
/// hazard is such) and not view-local unless `need` is marked view-local
/// (an attachment's bytes: a view-local dependency orders one view's
/// accesses only, `view_local`), else as a new `dependency` clause,
/// neither. A new clause between `EXTERNAL` and a subpass starts from the implicit dependency it replaces ("Subpass
/// Dependencies": the implicit ones apply only when no such dependency is
/// declared), so that it orders at least what the implicit one did.
/// Whether `rp` changed: `false` when a dependency that would take the
/// masks holds them already (the hazard is not one masks fix).
pub(crate) fn add_dependency(rp: &mut RenderPass, need: SubpassDependency) -> bool {
    let holds = |d: &SubpassDependency| {
        d.src_stage_mask.contains(need.src_stage_mask)
            && d.src_access_mask.contains(need.src_access_mask)
            && d.dst_stage_mask.contains(need.dst_stage_mask)
            && d.dst_access_mask.contains(need.dst_access_mask)
    };
    // A transition takes the masks of every dependency of its pair,
    // by-region or not (`boundary_barriers`).
    let half = need.src_stage_mask.is_empty() || need.dst_stage_mask.is_empty();
    let local_enough = half || need.by_region;
    // The destination half alone, into a subpass: "automatic layout
    // transitions into the layout used in a subpass happen-before the
    // visibility operations for all dependencies with that subpass as the
    // dstSubpass" (`boundary_barriers`' second set), so any such
    // dependency that holds the masks orders it (review33: a second
    // dependency into the subpass got the same bits).
    let dst_half = need.src_stage_mask.is_empty() && need.src_access_mask.is_empty();
    if dst_half
        && matches!(need.dst, SubpassIndex::Subpass(_))
        && rp
            .dependencies
            .iter()
            .any(|d| d.dst == need.dst && d.src != d.dst && holds(d))
    {
        return false;
    }
    // Likewise a view-local one orders only what one view reads and
    // writes (an attachment's bytes; `need.view_local` marks such a
    // hazard).
    let fits = |d: &SubpassDependency| {
        d.src == need.src
            && d.dst == need.dst
            && (local_enough || !d.by_region)
            && (half || need.view_local || !d.view_local)
    };
    if let Some(d) = rp.dependencies.iter_mut().find(|d| fits(d)) {
        if holds(d) {
            return false;
        }
        d.src_stage_mask |= need.src_stage_mask;
        d.src_access_mask |= need.src_access_mask;
        d.dst_stage_mask |= need.dst_stage_mask;
        d.dst_access_mask |= need.dst_access_mask;
        return true;
    }
    let mut new = SubpassDependency {
        by_region: false,
        view_local: false,
        ..need
    };
    if let Some(i) = rp.implicit_replaced(need.src, need.dst) {
        new.src_stage_mask |= i.src_stage_mask;
        new.src_access_mask |= i.src_access_mask;
        new.dst_stage_mask |= i.dst_stage_mask;
        new.dst_access_mask |= i.dst_access_mask;
    }
    rp.dependencies.push(new);
    true
}

/// `program` with render pass declarations `passes` (the same render
/// passes, amended): each render command is built again, since its
/// lowering (the barriers at a begin, next-subpass or end) is computed
/// from the declaration when it is built.
pub(crate) fn with_render_passes(program: &Program, passes: Vec<RenderPass>) -> Result<Program, RenderError> {
    let mut out = program.with_commands(program.commands.clone());
    out.render_passes = passes;
    for i in 0..out.commands.len() {
        if let Command::Render(rc) = &out.commands[i] {
            let rebuilt = super::render::RenderCommand::new(&out, i, rc.op.clone())?;
            out.commands[i] = Command::Render(Box::new(rebuilt));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the model takes in each member: every layout no row of
    /// [`REFERENCE_LAYOUT_RULES`] forbids there. Pinned so that a layout
    /// added to [`ImageLayout`] is refused or taken on purpose.
    #[test]
    fn reference_layouts_the_model_takes() {
        use ImageLayout as L;
        let taken = |role| -> Vec<ImageLayout> {
            ImageLayout::ALL
                .iter()
                .copied()
                .filter(|&l| reference_layout_refusal(role, l).is_none())
                .collect()
        };
        let color = vec![L::GENERAL, L::COLOR_ATTACHMENT_OPTIMAL, L::ATTACHMENT_OPTIMAL];
        assert_eq!(taken(Role::Color), color);
        assert_eq!(taken(Role::Resolve), color);
        assert_eq!(
            taken(Role::DepthStencil),
            vec![
                L::GENERAL,
                L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                L::DEPTH_STENCIL_READ_ONLY_OPTIMAL,
                L::DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL,
                L::DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL,
                L::DEPTH_ATTACHMENT_OPTIMAL,
                L::DEPTH_READ_ONLY_OPTIMAL,
                L::STENCIL_ATTACHMENT_OPTIMAL,
                L::STENCIL_READ_ONLY_OPTIMAL,
                L::READ_ONLY_OPTIMAL,
                L::ATTACHMENT_OPTIMAL,
            ]
        );
        // Those an input attachment descriptor may name
        // (VUID-VkWriteDescriptorSet-descriptorType-04151) among the
        // layouts the model knows.
        assert_eq!(
            taken(Role::Input),
            vec![
                L::GENERAL,
                L::DEPTH_STENCIL_READ_ONLY_OPTIMAL,
                L::SHADER_READ_ONLY_OPTIMAL,
                L::DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL,
                L::DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL,
                L::DEPTH_READ_ONLY_OPTIMAL,
                L::STENCIL_READ_ONLY_OPTIMAL,
                L::READ_ONLY_OPTIMAL,
            ]
        );
    }

    /// No two rows forbid one layout in one member, so each refusal has
    /// one citation whatever the rows' order.
    #[test]
    fn reference_layout_rules_do_not_overlap() {
        for role in Role::ALL {
            for &l in ImageLayout::ALL {
                let rows: Vec<&str> = REFERENCE_LAYOUT_RULES
                    .iter()
                    .filter(|r| r.roles.contains(&role) && r.layouts.contains(&l))
                    .map(|r| r.cite)
                    .collect();
                assert!(rows.len() <= 1, "{role:?} in {l}: {rows:?}");
            }
        }
    }
}
