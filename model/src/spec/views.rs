//! Multiview render passes as the specification describes them: per view.
//!
//! "A multiview subpass ... acts like a set of per-view subpasses", and a
//! view-local dependency "acts like a set of one-to-one dependencies
//! between corresponding pairs of per-view subpasses" ("Multiview" in the
//! render pass chapter, and `VK_DEPENDENCY_VIEW_LOCAL_BIT`). This module
//! owns that reading for the definitional semantics: [`per_view`] writes a
//! program whose render pass instances of several views (every subpass of
//! one view mask, `crate::ir::renderpass::RenderPass::views_apart`) as
//! that set: subpass `k`, view `j` (the `j`-th bit of the mask) becomes
//! subpass `k·V + j` over single-layer views of the framebuffer's images
//! (layer `j`'s bit of each view), its commands copied into each; a
//! dependency that is view-local (or a self-dependency, which must be,
//! VUID-VkSubpassDependency2-viewMask-03060) goes between the per-view
//! subpasses of one view, any other between every pair, one from or to
//! `EXTERNAL` from or to each. The races of that program, with each of its
//! commands named by the command it stands for ([`PerView::back`]), are
//! the multiview program's: a draw's storage access is every view's, and
//! only the per-view subpasses say which of its views a dependency
//! orders (the twenty-ninth session: the lowering that keeps one subpass
//! for every view ordered one view's accesses before another's through
//! layout transitions and chains of view-local dependencies, and missed a
//! visibility a view-local dependency gives a write made before every
//! view).
//!
//! It does not own the lowering of the per-view program (the same as any
//! render pass's, `crate::ir::renderpass`), nor the fast checkers' reading
//! of multiview (they refuse the programs where it differs,
//! `crate::hazard::refuse_views_apart`). Invariants: the program it
//! writes declares the same objects and memory (so memory ids and bytes
//! are the multiview program's), and only the render passes of several
//! views that an instance begins are written per view; an instance it
//! cannot write (a command inside a subpass that is not a draw, a clear, a
//! barrier or an event wait; a per-view declaration of more than 64
//! dependencies, past the lowering's masks of a transition's
//! dependencies; a per-view program that is not valid, e.g. a draw
//! sampling another view's layer in a layout its own transition has not
//! reached yet) is refused with
//! [`crate::ProgramErrorKind::PerViewNotModelled`], never decided another
//! way (review45: a silent fallback to the one-subpass lowering brought
//! back the races it misses).

use super::Race;
use crate::ir::error::{Location, ProgramErrorKind};
use crate::ir::layout::ProgramError;
use crate::ir::program::{Command, Program};
use crate::ir::render::RenderOp;
use crate::ir::renderpass::{
    AttachmentReference, ColorReference, PassBegin, RenderPass, RenderPassId, SubpassDependency,
    SubpassDescription, SubpassIndex,
};

/// A program with its multiview render pass instances written per view,
/// and for each of its commands the multiview program's command it stands
/// for.
pub(crate) struct PerView {
    pub(crate) program: Program,
    /// Per command: (the multiview program's command, whether it is one of
    /// several copies of a command recorded inside a subpass: a draw, a
    /// clear or a barrier, copied into each view's subpass).
    origin: Vec<(usize, bool)>,
}

/// `program` with every instance of a render pass of several views
/// written per view; `None` when it has none.
pub(crate) fn per_view(program: &Program) -> Result<Option<PerView>, ProgramError> {
    let apart = |id: RenderPassId| {
        program
            .render_passes()
            .get(id.0 as usize)
            .is_some_and(RenderPass::views_apart)
    };
    let begun: Vec<(usize, RenderPassId)> = program
        .commands
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match c {
            Command::Render(rc) => match &rc.op {
                RenderOp::BeginPass(b) if apart(b.pass) => Some((i, b.pass)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let Some(&(first, _)) = begun.first() else {
        return Ok(None);
    };
    let refuse = |at: usize, why: String| {
        let name = crate::ir::renderpass::begun_pass_name(program, at);
        ProgramError {
            at: Location::Command(at),
            kind: ProgramErrorKind::PerViewNotModelled {
                what: format!("render pass `{name}` renders several views, and {why}"),
            },
        }
    };
    let mut out = program.clone();
    out.commands.clear();
    // The per-view declaration of each render pass of several views an
    // instance begins.
    let mut expanded: Vec<Option<RenderPassId>> = vec![None; program.render_passes().len()];
    for &(at, id) in &begun {
        let i = id.0 as usize;
        if expanded[i].is_some() {
            continue;
        }
        let rp = &program.render_passes()[i];
        let mut each = expand(rp);
        each.name = format!("{}#view{i}", rp.name);
        // A transition's dependencies are bits of a 64-bit mask in the
        // lowering (`crate::ir::render::PassScope::follows`): past that
        // the per-view declaration would lose some.
        if each.dependencies.len() > 64 {
            return Err(refuse(
                at,
                format!(
                    "its per-view declaration has {} dependencies, more than the 64 the model orders layout \
                     transitions by",
                    each.dependencies.len()
                ),
            ));
        }
        let id = out
            .render_pass(each)
            .map_err(|e| refuse(at, format!("its per-view declaration is not valid ({e})")))?;
        expanded[i] = Some(id);
    }
    let mut origin: Vec<(usize, bool)> = Vec::with_capacity(program.commands.len());
    let mut i = 0;
    while i < program.commands.len() {
        let c = &program.commands[i];
        let begin = match c {
            Command::Render(rc) => match &rc.op {
                RenderOp::BeginPass(b) => expanded
                    .get(b.pass.0 as usize)
                    .copied()
                    .flatten()
                    .map(|id| (b, id)),
                _ => None,
            },
            _ => None,
        };
        if let Some((b, id)) = begin {
            let rp = &program.render_passes()[b.pass.0 as usize];
            i = instance(program, i, b, rp, id, &mut out, &mut origin).map_err(|why| refuse(i, why))?;
            continue;
        }
        push(&mut out, &mut origin, c, (i, false)).map_err(|e| refuse(first, e))?;
        i += 1;
    }
    Ok(Some(PerView { program: out, origin }))
}

/// Command `c` of the multiview program pushed onto `out` (a render
/// command lowered again there: its lowering names command indices),
/// standing for `from`.
fn push(
    out: &mut Program,
    origin: &mut Vec<(usize, bool)>,
    c: &Command,
    from: (usize, bool),
) -> Result<(), String> {
    let c = match c {
        Command::Render(rc) => out.render_command(rc.op.clone()),
        c => Ok(c.clone()),
    };
    emit(out, origin, c, from)
}

/// Render operation `op` lowered and pushed onto `out`, standing for
/// command `from` of the multiview program (no copy).
fn push_op(
    out: &mut Program,
    origin: &mut Vec<(usize, bool)>,
    op: RenderOp,
    from: usize,
) -> Result<(), String> {
    let c = out.render_command(op);
    emit(out, origin, c, (from, false))
}

/// Command `c` (as built for `out`) pushed onto `out`, standing for
/// `from`; why not, when `out` refuses it.
fn emit(
    out: &mut Program,
    origin: &mut Vec<(usize, bool)>,
    c: Result<Command, ProgramError>,
    from: (usize, bool),
) -> Result<(), String> {
    c.and_then(|c| out.push(c).map(|_| ())).map_err(|e| {
        format!(
            "its per-view program is not valid at its command {}: {}",
            from.0, e.kind
        )
    })?;
    origin.push(from);
    Ok(())
}

/// Writes the render pass instance begun at command `at` of `program`
/// (begin `b` of `rp`, whose per-view declaration is `id` in `out`) per
/// view; the index of the command after its end, or why it cannot.
fn instance(
    program: &Program,
    at: usize,
    b: &PassBegin,
    rp: &RenderPass,
    id: RenderPassId,
    out: &mut Program,
    origin: &mut Vec<(usize, bool)>,
) -> Result<usize, String> {
    let views: Vec<u32> = (0..32).filter(|v| rp.view_mask() >> v & 1 == 1).collect();
    // Each subpass: the command that begins it, those inside it, the
    // end-subpass that ends it.
    let mut subpasses: Vec<(usize, Vec<usize>, usize)> = Vec::new();
    let (mut begun, mut inside) = (at, Vec::new());
    let mut i = at + 1;
    let unended = || "its instance has no end".to_string();
    let end_pass = loop {
        let Command::Render(rc) = program.commands.get(i).ok_or_else(unended)? else {
            inside.push(i);
            i += 1;
            continue;
        };
        match rc.op {
            RenderOp::EndSubpass { .. } => subpasses.push((begun, std::mem::take(&mut inside), i)),
            RenderOp::NextSubpass => begun = i,
            RenderOp::EndPass => break i,
            RenderOp::Draw(_) | RenderOp::Clear(_) => inside.push(i),
            RenderOp::Begin(_) | RenderOp::End | RenderOp::BeginPass(_) => return Err(unended()),
        }
        i += 1;
    };
    // Only commands recorded into a subpass are copied: a barrier, an
    // event wait, a draw or a clear (anything else there is not one
    // view's).
    for &j in subpasses.iter().flat_map(|(_, inside, _)| inside) {
        let copied = match &program.commands[j] {
            Command::Barrier(_) | Command::WaitEvents { .. } | Command::WaitEvents1 { .. } => true,
            Command::Render(rc) => matches!(rc.op, RenderOp::Draw(_) | RenderOp::Clear(_)),
            _ => false,
        };
        if !copied {
            return Err(format!(
                "its command {j} ({}) inside a subpass is not one the model copies into each view",
                program.commands[j].vulkan_name()
            ));
        }
    }
    // View `v`'s layer of each framebuffer view; one with no such layer is
    // used by no subpass (VUID-VkFramebufferCreateInfo-renderPass-04536
    // holds for the others), so its first layer stands in.
    let layers = |image, range: crate::ir::image::SubresourceRange| {
        range.layer_count.unwrap_or_else(|| {
            program
                .image(image)
                .map_or(1, |d| d.layers.saturating_sub(range.base_layer))
        })
    };
    let begin = PassBegin {
        pass: id,
        views: views
            .iter()
            .flat_map(|&v| {
                b.views.iter().map(move |&(image, range)| {
                    let v = if v < layers(image, range) { v } else { 0 };
                    (
                        image,
                        crate::ir::image::SubresourceRange {
                            base_layer: range.base_layer + v,
                            layer_count: Some(1),
                            ..range
                        },
                    )
                })
            })
            .collect(),
        render_area: b.render_area,
    };
    push_op(out, origin, RenderOp::BeginPass(begin), at)?;
    for (k, (begun, inside, ended)) in subpasses.iter().enumerate() {
        for j in 0..views.len() {
            if k > 0 || j > 0 {
                // The end of the per-view subpass before: its subpass's
                // end; the next: this subpass's begin.
                let before = if j > 0 { *ended } else { subpasses[k - 1].2 };
                push_op(out, origin, RenderOp::EndSubpass { last: false }, before)?;
                push_op(out, origin, RenderOp::NextSubpass, *begun)?;
            }
            for &c in inside {
                push(out, origin, &program.commands[c], (c, true))?;
            }
        }
    }
    let last = subpasses.last().ok_or_else(unended)?.2;
    push_op(out, origin, RenderOp::EndSubpass { last: true }, last)?;
    push_op(out, origin, RenderOp::EndPass, end_pass)?;
    Ok(end_pass + 1)
}

/// `rp` (every subpass of one view mask of `V` views) as `V` per-view
/// subpasses for each of its subpasses (subpass `k` of view `j` is
/// `k·V + j`) over `V` copies of its attachments (those of view `j`
/// numbered from `j` times its attachment count), no view masks.
fn expand(rp: &RenderPass) -> RenderPass {
    let n = rp.view_mask().count_ones();
    let count = rp.attachments.len() as u32;
    let att = |r: AttachmentReference, j: u32| AttachmentReference {
        attachment: j * count + r.attachment,
        ..r
    };
    let subpasses = rp
        .subpasses
        .iter()
        .flat_map(|sp| {
            (0..n).map(move |j| SubpassDescription {
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
            })
        })
        .collect();
    // Each side of a dependency per view: (subpass, view), `EXTERNAL` once.
    let each = |s: SubpassIndex| -> Vec<(SubpassIndex, Option<u32>)> {
        match s {
            SubpassIndex::External => vec![(SubpassIndex::External, None)],
            SubpassIndex::Subpass(k) => (0..n)
                .map(|j| (SubpassIndex::Subpass(k * n + j), Some(j)))
                .collect(),
        }
    };
    let mut dependencies = Vec::new();
    for d in &rp.dependencies {
        let one_to_one = d.view_local || d.src == d.dst;
        for (src, sj) in each(d.src) {
            for (dst, dj) in each(d.dst) {
                if one_to_one && sj.is_some() && dj.is_some() && sj != dj {
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
    RenderPass {
        name: rp.name.clone(),
        attachments: (0..n).flat_map(|_| rp.attachments.clone()).collect(),
        subpasses,
        dependencies,
    }
}

impl PerView {
    /// The refusal for a per-view program `crate::resolve` refused with
    /// `e`: at the multiview program's command it stands for.
    pub(crate) fn not_valid(&self, program: &Program, e: ProgramError) -> ProgramError {
        let at = match e.at {
            Location::Command(c) => self.origin.get(c).map_or(0, |&(c, _)| c),
            _ => 0,
        };
        let begin = program.commands[..=at.min(program.commands.len().saturating_sub(1))]
            .iter()
            .rposition(|c| matches!(c, Command::Render(rc) if matches!(rc.op, RenderOp::BeginPass(_))))
            .unwrap_or(at);
        let name = crate::ir::renderpass::begun_pass_name(program, begin);
        ProgramError {
            at: Location::Command(begin),
            kind: ProgramErrorKind::PerViewNotModelled {
                what: format!(
                    "render pass `{name}` renders several views, and its per-view program is not valid at its \
                     command {at}: {}",
                    e.kind
                ),
            },
        }
    }

    /// The races of the per-view program named by the multiview program's
    /// commands: a race between two copies of one command recorded inside
    /// a subpass is none (a multiview draw is one command over its views;
    /// one command's accesses do not race each other), and the rest are
    /// merged again (a draw's per-view races are of its layers).
    ///
    /// The per-view program records view `j`'s copies after view `j-1`'s,
    /// an order the multiview program does not have (a draw is broadcast
    /// to its views, which run in no order): a race it names against that
    /// order (view 1's copy of a write after view 0's copy of a later
    /// read, or view 1's load after view 0's draw) is the same pair in the
    /// multiview program's order, the later command and its access first,
    /// the kind turned with them.
    pub(crate) fn back(&self, races: Vec<Race>) -> Vec<Race> {
        use crate::sync::checker::HazardKind;
        let at = |c: usize| self.origin.get(c).copied().unwrap_or((c, false));
        let mut kept: Vec<Race> = races
            .into_iter()
            .filter_map(|r| {
                let ((command, copy), (prior, prior_copy)) = (at(r.command), at(r.prior_command));
                if copy && prior_copy && command == prior && r.command != r.prior_command {
                    return None;
                }
                let turned = command != prior && (command > prior) != (r.command > r.prior_command);
                Some(if turned {
                    Race {
                        command: prior,
                        prior_command: command,
                        kind: match r.kind {
                            HazardKind::ReadAfterWrite => HazardKind::WriteAfterRead,
                            HazardKind::WriteAfterRead => HazardKind::ReadAfterWrite,
                            k => k,
                        },
                        current: r.prior,
                        prior: r.current,
                        ..r
                    }
                } else {
                    Race {
                        command,
                        prior_command: prior,
                        ..r
                    }
                })
            })
            .collect();
        kept.sort();
        kept.dedup();
        super::merge(kept)
    }
}
