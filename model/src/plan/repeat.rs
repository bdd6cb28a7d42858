//! A command buffer recorded once and submitted again and again: the
//! command stream the device then runs ([`repeated`]), and the one barrier
//! at its start that back-to-back submissions need for their loop-carried
//! dependencies ([`for_repeated_submission`]; `docs/planning.md`,
//! "Repeated submission").

use super::points::{mask_bits, set_mask_bits};
use crate::hazard::check_resolved;
use crate::ir::layout::{resolve, Layout, Location, ProgramError, ProgramErrorKind};
use crate::ir::program::{Barrier, Command, Dependency, ObjectId, ObjectKind, Program};
use crate::semantics::{Reading, Semantics};
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::scope::{self, Side};

/// The program with every blob turned into a buffer aliasing its pool at
/// the offset the allocator gave it, and `alloc`/`free` dropped: the same
/// memory accesses, now repeatable (a blob cannot be allocated twice).
fn flatten(p: &Program, layout: &Layout) -> Program {
    let mut q = p.clone();
    for (i, o) in q.objects.iter_mut().enumerate() {
        if let ObjectKind::Blob { pool } = o.kind {
            // Invariant: a valid program places every blob it allocates; a
            // blob never allocated is never accessed either.
            let offset = layout.place(ObjectId(i as u32)).map_or(0, |(_, off)| off);
            o.kind = ObjectKind::Buffer {
                alias: Some((pool, offset)),
            };
        }
    }
    q.commands
        .retain(|c| !matches!(c, Command::Alloc { .. } | Command::Free { .. }));
    q
}

/// The command stream a device runs when `program` is recorded into one
/// command buffer and submitted `times` times back to back, without a
/// fence wait between: its commands `times` times over, blobs turned into
/// buffers at the addresses of their one allocation (as recorded), `alloc`
/// and `free` dropped. Checking it shows the loop-carried hazards. Layout
/// transitions are kept: each repetition performs them again.
pub fn repeated(program: &Program, times: usize) -> Result<Program, ProgramError> {
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
    let flat = flatten(program, &layout);
    let mut out = flat.with_commands(Vec::with_capacity(flat.commands.len() * times));
    for _ in 0..times {
        out.commands.extend_from_slice(&flat.commands);
    }
    Ok(out)
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
/// only, and no image layout transition (refused as every planner refuses
/// it: [`crate::ProgramErrorKind::TransitionNotPlanned`]). Blobs keep the
/// addresses of their one allocation, as the recorded command buffer does.
pub fn for_repeated_submission(planned: &Program, reading: Reading) -> Result<Program, ProgramError> {
    super::refuse_transitions(planned)?;
    let sem = Semantics::for_reading(reading);
    let flat = repeated(planned, 1)?;
    let flat_layout = resolve(&flat)?;
    let n = flat.commands.len();
    // The hazards of the second repetition, with `start` at the front of each.
    let loop_hazards = |start: &[Command]| {
        let mut twice = flat.with_commands(Vec::with_capacity(2 * (n + 1)));
        for _ in 0..2 {
            twice.commands.extend_from_slice(start);
            twice.commands.extend_from_slice(&flat.commands);
        }
        let from = start.len() + n;
        check_resolved(&twice, &flat_layout, sem)
            .into_iter()
            .filter(|h| h.command >= from)
            .collect::<Vec<_>>()
    };
    let hazards = loop_hazards(&[]);
    if hazards.is_empty() {
        return Ok(planned.clone());
    }
    let mut b = Barrier::global(
        PipelineStageFlags2::NONE,
        AccessFlags2::NONE,
        PipelineStageFlags2::NONE,
        AccessFlags2::NONE,
    );
    for h in &hazards {
        // Invariant: device accesses only, so every fix is a barrier.
        if let Some(f) = h.fix.barrier {
            b.src_stage_mask |= f.src_stage_mask;
            b.src_access_mask |= f.src_access_mask;
            b.dst_stage_mask |= f.dst_stage_mask;
            b.dst_access_mask |= f.dst_access_mask;
        }
    }
    let as_command = |b: Barrier| Command::Barrier(Dependency { barriers: vec![b] });
    // Drop every bit the loop does not need, until none can go.
    loop {
        let before = b.bit_count();
        for field in 0..4 {
            let bits = mask_bits(&b, field);
            for bit in (0..64).map(|k| 1u64 << k).filter(|x| bits & x != 0) {
                let mut c = b;
                let m = mask_bits(&c, field);
                set_mask_bits(&mut c, field, m & !bit);
                let valid = scope::validate(c.src_stage_mask, c.src_access_mask, Side::Src).is_ok()
                    && scope::validate(c.dst_stage_mask, c.dst_access_mask, Side::Dst).is_ok();
                if valid && loop_hazards(&[as_command(c)]).is_empty() {
                    b = c;
                }
            }
        }
        if b.bit_count() == before {
            break;
        }
    }
    let mut out = planned.clone();
    out.commands.insert(0, as_command(b));
    Ok(out)
}
