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
//! are the multiview program's); a program it cannot write (its per-view
//! form invalid, e.g. a draw sampling another view's layer in a layout its
//! transition has not reached yet) is left to the lowering of one subpass
//! for every view (`None`), which `docs/semantics.md` names.

use super::Race;
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
/// written per view; `None` when it has none, or when the per-view program
/// is not valid (the caller keeps the multiview lowering).
pub(crate) fn per_view(program: &Program) -> Option<PerView> {
    let apart = |id: RenderPassId| {
        program
            .render_passes()
            .get(id.0 as usize)
            .is_some_and(RenderPass::views_apart)
    };
    let has = program.commands.iter().any(|c| match c {
        Command::Render(rc) => matches!(&rc.op, RenderOp::BeginPass(b) if apart(b.pass)),
        _ => false,
    });
    if !has {
        return None;
    }
    let mut out = program.clone();
    out.commands.clear();
    // The per-view declaration of each render pass of several views.
    let mut expanded: Vec<Option<RenderPassId>> = Vec::new();
    for (i, rp) in program.render_passes().iter().enumerate() {
        if !rp.views_apart() {
            expanded.push(None);
            continue;
        }
        let mut each = expand(rp);
        each.name = format!("{}#view{i}", rp.name);
        // A transition's dependencies are bits of a 64-bit mask in the
        // lowering (`crate::ir::render::PassScope::follows`): past that
        // the per-view declaration would lose some.
        if each.dependencies.len() > 64 {
            return None;
        }
        expanded.push(Some(out.render_pass(each).ok()?));
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
            i = instance(program, i, b, rp, id, &mut out, &mut origin)?;
            continue;
        }
        push(&mut out, &mut origin, c, (i, false))?;
        i += 1;
    }
    Some(PerView { program: out, origin })
}

/// Command `c` of the multiview program pushed onto `out` (a render
/// command lowered again there: its lowering names command indices),
/// standing for `from`.
fn push(out: &mut Program, origin: &mut Vec<(usize, bool)>, c: &Command, from: (usize, bool)) -> Option<()> {
    let c = match c {
        Command::Render(rc) => out.render_command(rc.op.clone()).ok()?,
        c => c.clone(),
    };
    out.push(c).ok()?;
    origin.push(from);
    Some(())
}

/// Writes the render pass instance begun at command `at` of `program`
/// (begin `b` of `rp`, whose per-view declaration is `id` in `out`) per
/// view; the index of the command after its end.
fn instance(
    program: &Program,
    at: usize,
    b: &PassBegin,
    rp: &RenderPass,
    id: RenderPassId,
    out: &mut Program,
    origin: &mut Vec<(usize, bool)>,
) -> Option<usize> {
    let views: Vec<u32> = (0..32).filter(|v| rp.view_mask() >> v & 1 == 1).collect();
    // Each subpass: the command that begins it, those inside it, the
    // end-subpass that ends it.
    let mut subpasses: Vec<(usize, Vec<usize>, usize)> = Vec::new();
    let (mut begun, mut inside) = (at, Vec::new());
    let mut i = at + 1;
    let end_pass = loop {
        let Command::Render(rc) = program.commands.get(i)? else {
            inside.push(i);
            i += 1;
            continue;
        };
        match rc.op {
            RenderOp::EndSubpass { .. } => subpasses.push((begun, std::mem::take(&mut inside), i)),
            RenderOp::NextSubpass => begun = i,
            RenderOp::EndPass => break i,
            RenderOp::Draw(_) | RenderOp::Clear(_) => inside.push(i),
            RenderOp::Begin(_) | RenderOp::End | RenderOp::BeginPass(_) => return None,
        }
        i += 1;
    };
    // Only commands recorded into a subpass are copied: a barrier, a draw
    // or a clear (anything else there, a host access, is not one view's).
    let copied = |j: usize| match &program.commands[j] {
        Command::Barrier(_) => true,
        Command::Render(rc) => matches!(rc.op, RenderOp::Draw(_) | RenderOp::Clear(_)),
        _ => false,
    };
    if subpasses
        .iter()
        .any(|(_, inside, _)| !inside.iter().all(|&j| copied(j)))
    {
        return None;
    }
    let begin = PassBegin {
        pass: id,
        views: views
            .iter()
            .flat_map(|&v| {
                b.views.iter().map(move |&(image, range)| {
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
    let begin = out.render_command(RenderOp::BeginPass(begin)).ok()?;
    out.push(begin).ok()?;
    origin.push((at, false));
    for (k, (begun, inside, ended)) in subpasses.iter().enumerate() {
        for j in 0..views.len() {
            if k > 0 || j > 0 {
                // The end of the per-view subpass before: its subpass's
                // end; the next: this subpass's begin.
                let before = if j > 0 { *ended } else { subpasses[k - 1].2 };
                let end = out.render_command(RenderOp::EndSubpass { last: false }).ok()?;
                out.push(end).ok()?;
                origin.push((before, false));
                let next = out.render_command(RenderOp::NextSubpass).ok()?;
                out.push(next).ok()?;
                origin.push((*begun, false));
            }
            for &c in inside {
                push(out, origin, &program.commands[c], (c, true))?;
            }
        }
    }
    let last = subpasses.last()?.2;
    for (op, from) in [
        (RenderOp::EndSubpass { last: true }, last),
        (RenderOp::EndPass, end_pass),
    ] {
        let c = out.render_command(op).ok()?;
        out.push(c).ok()?;
        origin.push((from, false));
    }
    Some(end_pass + 1)
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
