//! A command buffer recorded once and submitted again and again: the
//! command stream the device then runs ([`repeated`]), and the one barrier
//! at its start that back-to-back submissions need for their loop-carried
//! dependencies ([`for_repeated_submission`]; `docs/planning.md`,
//! "Repeated submission").
//!
//! Image layout transitions repeat with the rest: each submission runs
//! them again, from the layouts the previous one left. Every image starts
//! in `UNDEFINED`, so in a program valid once each subresource's first
//! layout operation is a transition from `UNDEFINED`, which accepts any
//! layout (the model refuses a use in `UNDEFINED`): a second submission
//! accepts what the first left. [`repeated`] checks it all the same, on
//! two submissions, and reports a layout error of the second at the
//! input's command. A transition's
//! loop-carried dependencies go into its own barrier's scopes (a
//! transition is ordered after earlier accesses only through its own first
//! scopes, and reaches later ones only through its second, as within one
//! program: `super::transitions`); the loop barrier takes the others.
//! Invariant: every bit the loop adds, to the loop barrier or to a
//! transition beyond what the plan gave it, is needed by a loop-carried
//! hazard (two submissions, checked by the fast checker).

use super::points::{mask_bits, set_mask_bits};
use super::transitions::{is_transition, later_part, set_part, widen_hit};
use crate::hazard::{check_resolved, Hazard};
use crate::ir::layout::{resolve, Layout, Location, ProgramError, ProgramErrorKind};
use crate::ir::program::{Barrier, Command, Dependency, ObjectId, ObjectKind, Program};
use crate::semantics::{Reading, Semantics};
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::scope::{self, Side};

/// The program with every blob turned into a buffer aliasing its pool at
/// the offset the allocator gave it, and `alloc`/`free` dropped: the same
/// memory accesses, now repeatable (a blob cannot be allocated twice);
/// beside it, for each of its commands, its index in `p`.
fn flatten(p: &Program, layout: &Layout) -> (Program, Vec<usize>) {
    let mut q = p.clone();
    for (i, o) in std::sync::Arc::make_mut(&mut q.objects).iter_mut().enumerate() {
        if let ObjectKind::Blob { pool } = o.kind {
            // Invariant: a valid program places every blob it allocates; a
            // blob never allocated is never accessed either.
            let offset = layout.place(ObjectId(i as u32)).map_or(0, |(_, off)| off);
            o.kind = ObjectKind::Buffer {
                alias: Some((pool, offset)),
            };
        }
    }
    let kept = |c: &Command| !matches!(c, Command::Alloc { .. } | Command::Free { .. });
    let origin = (0..p.commands.len()).filter(|&i| kept(&p.commands[i])).collect();
    q.commands.retain(kept);
    (q, origin)
}

/// The command stream a device runs when `program` is recorded into one
/// command buffer and submitted `times` times back to back, without a
/// fence wait between: its commands `times` times over, blobs turned into
/// buffers at the addresses of their one allocation (as recorded), `alloc`
/// and `free` dropped. Checking it shows the loop-carried hazards. Layout
/// transitions are kept: each repetition performs them again, from the
/// layouts the previous one left (checked on two submissions whatever
/// `times` is; a layout error of the second is reported at the input's
/// command, see the module documentation).
pub fn repeated(program: &Program, times: usize) -> Result<Program, ProgramError> {
    let (flat, _) = flat_checked(program)?;
    let mut out = flat.with_commands(Vec::with_capacity(flat.commands.len() * times));
    for _ in 0..times {
        out.commands.extend_from_slice(&flat.commands);
    }
    Ok(out)
}

/// `program` flattened ([`flatten`]) with the origin of each command,
/// after the checks of [`repeated`]: device commands, barriers, `alloc`
/// and `free` only, and layouts that a second submission accepts.
fn flat_checked(program: &Program) -> Result<(Program, Vec<usize>), ProgramError> {
    for (i, c) in program.commands.iter().enumerate() {
        if matches!(
            c,
            Command::HostRead { .. }
                | Command::HostWrite { .. }
                | Command::Submit(_)
                | Command::Wait(_)
                | Command::HostSignal { .. }
                | Command::HostWait { .. }
        ) {
            return Err(ProgramError {
                at: Location::Command(i),
                kind: ProgramErrorKind::NotRepeatable { keyword: c.keyword() },
            });
        }
    }
    let layout = resolve(program)?;
    let (flat, origin) = flatten(program, &layout);
    if !flat.images.is_empty() {
        // Two submissions: the second starts from the layouts the first
        // left ("Image Layouts": a layout persists until a transition
        // changes it, across command buffers and submissions). The first
        // is `program`'s own check, which `resolve` did.
        let mut twice = flat.clone();
        twice.commands.extend_from_slice(&flat.commands);
        if let Err(e) = resolve(&twice) {
            let n = flat.commands.len();
            let (at, kind) = match e.at {
                Location::Command(k) if k >= n => (
                    Location::Command(origin[k - n]),
                    ProgramErrorKind::InSecondSubmission {
                        source: Box::new(e.kind),
                    },
                ),
                at => (at, e.kind),
            };
            return Err(ProgramError { at, kind });
        }
    }
    Ok((flat, origin))
}

/// A planned program made safe to submit again and again with no fence
/// wait between the submissions (a prepared command buffer re-submitted
/// back to back): it gets, at its start, the one barrier its loop-carried
/// dependencies need (each repetition's accesses against the previous
/// repetition's), or is returned unchanged when it has none. A fence wait
/// between submissions needs no such barrier: the fence signal makes every
/// device write available, and the next `vkQueueSubmit` makes it visible to
/// every device access (`docs/planning.md`, "Repeated submission").
///
/// The program may hold device commands, barriers, `alloc` and `free`
/// only (refused otherwise, as [`repeated`] refuses). Blobs keep the
/// addresses of their one allocation, as the recorded command buffer does.
/// Image layout transitions run again in each submission: one that must
/// follow the previous submission's accesses of its subresources (a
/// transition is a read-write of them), or precede its accesses there,
/// gets what it needs in its own barrier's scopes, which is the only
/// place that orders it (a barrier before it orders it only by chaining
/// into its first scope); those bits are added to the plan's transition,
/// each needed.
pub fn for_repeated_submission(planned: &Program, reading: Reading) -> Result<Program, ProgramError> {
    planned.require_single_queue()?;
    let sem = Semantics::for_reading(reading);
    let (flat, origin) = flat_checked(planned)?;
    let flat_layout = resolve(&flat)?;
    let n = flat.commands.len();
    let as_command = |b: Barrier| Command::Barrier(Dependency { barriers: vec![b] });
    // The hazards of the second repetition, `start` (the loop barrier, or
    // nothing) at the front of each repetition of `body`.
    // `body` twice, `start` at the front of each; and where the second
    // repetition starts.
    let doubled = |start: Option<Barrier>, body: &Program| {
        let start: Vec<Command> = start
            .filter(|b| b.bit_count() > 0)
            .map(as_command)
            .into_iter()
            .collect();
        let mut twice = body.with_commands(Vec::with_capacity(2 * (n + 1)));
        for _ in 0..2 {
            twice.commands.extend_from_slice(&start);
            twice.commands.extend_from_slice(&body.commands);
        }
        (twice, start.len())
    };
    let loop_hazards = |start: Option<Barrier>, body: &Program| {
        let (twice, start_len) = doubled(start, body);
        let from = start_len + n;
        let hazards: Vec<(Hazard, Option<usize>)> = check_resolved(&twice, &flat_layout, sem)
            .into_iter()
            .filter(|h| h.command >= from)
            .map(|h| {
                // The transition command whose scope is the fix, in `body`.
                let at = if h.current.is_layout_transition() {
                    h.command
                } else {
                    h.prior_command
                };
                let k = at % from;
                let t = (k >= start_len).then(|| k - start_len);
                (h, t)
            })
            .collect();
        hazards
    };
    let mut body = flat.clone();
    let mut b = Barrier::global(
        PipelineStageFlags2::NONE,
        AccessFlags2::NONE,
        PipelineStageFlags2::NONE,
        AccessFlags2::NONE,
    );
    // Every loop-carried hazard's fix: a transition's in its own barrier,
    // the others in the loop barrier; until none is left (a transition
    // whose scopes grow may stop standing for an earlier write of its
    // bytes, as in `transitions::with_transition_scopes`). Scopes only
    // grow, so this ends.
    loop {
        let hazards = loop_hazards(Some(b), &body);
        if hazards.is_empty() {
            break;
        }
        let mut grew = false;
        let (twice, _) = doubled(Some(b), &body);
        // A hazard only a subpass dependency orders (a render pass's
        // transition at its begin after the previous repetition's store, an
        // access of a later subpass): the declaration gets its masks, as
        // `super::with_needed_dependencies` amends it for one submission
        // (review39: such plans were returned unclean).
        if !body.render_passes().is_empty() {
            let mut passes = body.render_passes().to_vec();
            let mut amended = false;
            for across in [false, true] {
                for (h, _) in &hazards {
                    if let Some((rp, need)) = crate::ir::renderpass::dependency_for(&twice, h, across) {
                        amended |= crate::ir::renderpass::add_dependency(&mut passes[rp.0 as usize], need);
                    }
                }
                if amended {
                    break;
                }
            }
            if amended && passes.iter().all(|p| p.validate().is_ok()) {
                if let Ok(p) = crate::ir::renderpass::with_render_passes(&body, passes) {
                    body = p;
                    continue;
                }
            }
        }
        for (h, t) in &hazards {
            // Invariant: device accesses only, so every fix is a barrier.
            let Some(f) = h.fix.barrier else { continue };
            match t {
                Some(t) if f.transition && is_transition(&body.commands[*t]) => {
                    if let Command::Barrier(d) = &mut body.commands[*t] {
                        grew |= widen_hit(d, h, f, &flat_layout, sem);
                    }
                }
                _ => {
                    // A render pass's automatic layout transition: the
                    // loop barrier orders it chained into the dependency
                    // from or to `EXTERNAL` that holds it (its fix names
                    // the transition's side only, which a barrier
                    // outside the instance does not reach).
                    let f = if f.transition {
                        crate::ir::renderpass::chained_fix(&twice, h).unwrap_or(f)
                    } else {
                        f
                    };
                    let before = b;
                    b.src_stage_mask |= f.src_stage_mask;
                    b.src_access_mask |= f.src_access_mask;
                    b.dst_stage_mask |= f.dst_stage_mask;
                    b.dst_access_mask |= f.dst_access_mask;
                    grew |= b != before;
                }
            }
        }
        if !grew {
            // A hazard no scope of the loop can fix (one inside the second
            // repetition the plan leaves): the property suite checks that
            // planned programs have none; such a program keeps it.
            break;
        }
    }
    if b.bit_count() == 0 && body == flat {
        return Ok(planned.clone());
    }
    // Drop every bit the loop does not need, until none can go: the loop
    // barrier's, and those the loop added to a transition (the plan's own
    // bits of each transition stay: the plan needs them).
    let valid = |c: &Barrier| {
        scope::validate(c.src_stage_mask, c.src_access_mask, Side::Src).is_ok()
            && scope::validate(c.dst_stage_mask, c.dst_access_mask, Side::Dst).is_ok()
    };
    // Accesses before stages: a stage whose access is still there cannot
    // go alone (the barrier would name an access no stage of it makes).
    let thin = |x: &mut Barrier, floor: &Barrier, clean: &dyn Fn(&Barrier) -> bool| {
        for field in [1, 3, 0, 2] {
            let bits = mask_bits(x, field) & !mask_bits(floor, field);
            for bit in (0..64).map(|k| 1u64 << k).filter(|v| bits & v != 0) {
                let mut c = *x;
                let m = mask_bits(&c, field);
                set_mask_bits(&mut c, field, m & !bit);
                if valid(&c) && clean(&c) {
                    *x = c;
                }
            }
        }
    };
    let transitions: Vec<usize> = (0..n).filter(|&i| is_transition(&body.commands[i])).collect();
    let none = Barrier::default();
    let barrier_at = |p: &Program, i: usize, j: usize| match &p.commands[i] {
        Command::Barrier(d) => d.barriers[j],
        _ => none,
    };
    // The loop barrier first, or the transitions first: a dependency one
    // of them can carry alone (the previous submission's last read before
    // a transition: in the transition's first scope, or through the loop
    // barrier chained into it) ends where thinning does not look first.
    // Both are tried; the fewer bits are kept (the loop barrier first on
    // a tie).
    let thinned = |loop_first: bool| {
        let (mut b, mut body) = (b, body.clone());
        loop {
            let before = u64::from(b.bit_count()) + body.barrier_bits();
            for step in [loop_first, !loop_first] {
                if step {
                    let mut lb = b;
                    thin(&mut lb, &none, &|c| loop_hazards(Some(*c), &body).is_empty());
                    b = lb;
                    continue;
                }
                for &i in transitions.iter().rev() {
                    let count = match &body.commands[i] {
                        Command::Barrier(d) => d.barriers.len(),
                        _ => 0,
                    };
                    for j in 0..count {
                        let floor = barrier_at(&flat, i, j);
                        let mut x = barrier_at(&body, i, j);
                        let later = matches!(&body.commands[i], Command::Barrier(d) if later_part(d, j));
                        if !x.transition || x == floor || later {
                            continue;
                        }
                        let clean = |c: &Barrier| {
                            let mut q = body.clone();
                            if let Command::Barrier(d) = &mut q.commands[i] {
                                set_part(d, j, *c);
                            }
                            loop_hazards(Some(b), &q).is_empty()
                        };
                        thin(&mut x, &floor, &clean);
                        if let Command::Barrier(d) = &mut body.commands[i] {
                            set_part(d, j, x);
                        }
                    }
                }
            }
            if u64::from(b.bit_count()) + body.barrier_bits() == before {
                return (b, body);
            }
        }
    };
    let bits = |(b, body): &(Barrier, Program)| u64::from(b.bit_count()) + body.barrier_bits();
    let first = thinned(true);
    let (b, body) = if transitions.is_empty() {
        first
    } else {
        let other = thinned(false);
        if bits(&other) < bits(&first) {
            other
        } else {
            first
        }
    };
    let mut out = planned.clone();
    for &i in &transitions {
        out.commands[origin[i]] = body.commands[i].clone();
    }
    if b.bit_count() > 0 {
        out.commands.insert(0, as_command(b));
    }
    if body.render_passes() != planned.render_passes() {
        out =
            crate::ir::renderpass::with_render_passes(&out, body.render_passes().to_vec()).map_err(|e| {
                ProgramError {
                    at: Location::Command(0),
                    kind: ProgramErrorKind::Render(Box::new(e)),
                }
            })?;
    }
    Ok(out)
}
