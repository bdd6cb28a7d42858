//! The baselines the planners are measured against: `conservative` (a full
//! barrier after every device command outside a rendering instance) and `per-object` (ncnn's
//! last-access tracking per object, reset when the allocator hands memory
//! out again, which reproduces the ncnn report's bug). `none` needs no
//! code. They decide nothing from the model's hazards; that is the point.

use super::emit::{is_device, is_host, Emitter, Queue};
use crate::ir::program::{Barrier, BindingAccess, Command, ObjectId, Program, Region};
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::scope::{self, Side};

/// The full barrier of the conservative baseline: every access of every
/// command made visible to every later access, the host's included
/// (`ALL_COMMANDS` does not include `HOST`).
pub fn full_barrier() -> Barrier {
    let rw = AccessFlags2::MEMORY_READ | AccessFlags2::MEMORY_WRITE;
    Barrier::global(
        PipelineStageFlags2::ALL_COMMANDS,
        rw,
        PipelineStageFlags2::ALL_COMMANDS | PipelineStageFlags2::HOST,
        rw,
    )
}

pub(crate) fn conservative(input: &Program, out: &mut Emitter) {
    let mut q = Queue::default();
    // No barrier inside a rendering instance: after its end only (not
    // after a suspending end: the instance goes on at the next command).
    let instances = crate::ir::render::instance_begins(&input.commands);
    for (i, c) in input.commands.iter().enumerate() {
        if is_host(c) && q.outstanding() {
            out.submit_wait();
            q.waited();
        }
        q.observe(c);
        out.command(i, c);
        let suspends = instances.get(i + 1).copied().flatten() == instances[i];
        let inside = instances[i].is_some()
            && (suspends
                || !matches!(c, Command::Render(rc) if matches!(rc.op, crate::ir::render::RenderOp::End)));
        if is_device(c) && !inside {
            q.device();
            out.barrier(vec![full_barrier()], vec![]);
        }
    }
}

/// ncnn's per-object tracking (`VkMat::data->access_flags/stage_flags`),
/// reproduced to measure against and to show the report's bug.
pub(crate) fn per_object(input: &Program, out: &mut Emitter) {
    let top = (PipelineStageFlags2::TOP_OF_PIPE, AccessFlags2::NONE);
    let mut last: Vec<(PipelineStageFlags2, AccessFlags2)> = vec![top; input.objects.len()];
    let mut q = Queue::default();
    let transfer = PipelineStageFlags2::TRANSFER;
    let compute = PipelineStageFlags2::COMPUTE_SHADER;
    let writes = AccessFlags2::SHADER_WRITE | AccessFlags2::TRANSFER_WRITE | AccessFlags2::HOST_WRITE;
    for (i, c) in input.commands.iter().enumerate() {
        let mut barriers = Vec::new();
        // A barrier from the object's last access to (stage, access), unless
        // the last access was a read in the same stage.
        let barrier_to = |last: &mut [(PipelineStageFlags2, AccessFlags2)],
                          region: Region,
                          stage,
                          access,
                          barriers: &mut Vec<Barrier>| {
            let obj: ObjectId = region.object;
            let (ls, la) = last[obj.0 as usize];
            if la.intersects(writes) || ls != stage {
                barriers.push(Barrier::global(ls, la, stage, access).on(region));
            }
            last[obj.0 as usize] = (stage, access);
        };
        match c {
            // The allocator hands memory out as if it were new: the state
            // resets, whatever commands still use that memory.
            Command::Alloc { blob } => last[blob.0 as usize] = top,
            Command::Copy { src, dst } => {
                // record_clone: barrier on the source only; the destination
                // gets "barrier device any @ null".
                barrier_to(
                    &mut last,
                    *src,
                    transfer,
                    AccessFlags2::TRANSFER_READ,
                    &mut barriers,
                );
                last[dst.object.0 as usize] = (transfer, AccessFlags2::TRANSFER_WRITE);
            }
            Command::Fill { dst, .. } | Command::Update { dst, .. } => {
                last[dst.object.0 as usize] = (transfer, AccessFlags2::TRANSFER_WRITE);
            }
            Command::Dispatch { bindings, .. } => {
                // record_pipeline: every binding is barriered to compute
                // read|write unless its last access was a compute read.
                for b in bindings {
                    let access = AccessFlags2::SHADER_READ | AccessFlags2::SHADER_WRITE;
                    barrier_to(&mut last, b.region, compute, access, &mut barriers);
                    let new = match b.access {
                        BindingAccess::Read => AccessFlags2::SHADER_READ,
                        BindingAccess::Uniform => AccessFlags2::UNIFORM_READ,
                        BindingAccess::Sampled => AccessFlags2::SHADER_SAMPLED_READ,
                        _ => AccessFlags2::SHADER_WRITE,
                    };
                    last[b.region.object.0 as usize] = (compute, new);
                }
            }
            Command::HostRead { src } => {
                barrier_to(
                    &mut last,
                    *src,
                    PipelineStageFlags2::HOST,
                    AccessFlags2::HOST_READ,
                    &mut barriers,
                );
            }
            Command::HostWrite { dst, .. } => {
                last[dst.object.0 as usize] = (PipelineStageFlags2::HOST, AccessFlags2::HOST_WRITE);
            }
            _ => {}
        }
        // A barrier with a NONE source stage and access is no dependency;
        // TOP_OF_PIPE in the first scope is NONE under synchronization2.
        barriers.retain(|b| b.src_stage_mask != PipelineStageFlags2::TOP_OF_PIPE);
        for b in barriers.iter_mut() {
            // An access the source stage cannot make is invalid usage.
            if scope::validate(b.src_stage_mask, b.src_access_mask, Side::Src).is_err() {
                b.src_access_mask = AccessFlags2::NONE;
            }
        }
        if is_device(c) {
            q.device();
        }
        out.barrier(barriers, vec![]);
        if is_host(c) && q.outstanding() {
            out.submit_wait();
            q.waited();
        }
        q.observe(c);
        out.command(i, c);
    }
}
