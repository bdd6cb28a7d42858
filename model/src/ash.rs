//! Conversions to `ash::vk` types (feature `ash`): the one place where a
//! model barrier becomes a Vulkan one, for runtimes that record with `ash`.
//!
//! The model's flag types carry Vulkan's synchronization2 bit values, so
//! stage and access masks convert bit for bit ([`stage_mask`],
//! [`access_mask`]) and a [`Barrier`] becomes a `VkMemoryBarrier2` or a
//! `VkBufferMemoryBarrier2` unchanged. For drivers without
//! synchronization2, [`to_sync1`] downgrades a barrier to
//! `vkCmdPipelineBarrier` masks, widening where synchronization 1 has no
//! exact equivalent (never narrowing, so the downgraded barrier orders at
//! least what the original orders):
//!
//! | synchronization2 | synchronization 1 |
//! | --- | --- |
//! | `COPY`, `CLEAR`, `BLIT`, `RESOLVE`, `ALL_TRANSFER` stages | `TRANSFER` |
//! | `NONE` as source stage mask | `TOP_OF_PIPE` |
//! | `NONE` as destination stage mask | `BOTTOM_OF_PIPE` |
//! | `SHADER_STORAGE_READ`, `SHADER_SAMPLED_READ` | `SHADER_READ` |
//! | `SHADER_STORAGE_WRITE` | `SHADER_WRITE` |
//! | every other stage and access flag the model uses | the same bit |
//! | any other synchronization2-only stage (bits 32 and up) | `ALL_COMMANDS` |
//! | any other synchronization2-only access (bits 32 and up) | `MEMORY_READ` and `MEMORY_WRITE` |
//!
//! It does not decide which `VkBuffer` a region lives in: the caller passes
//! the buffer and the byte range in it. An exact image barrier
//! ([`Barrier::image`]) becomes a `VkImageMemoryBarrier2` with its
//! [`ImageBarrier`]'s layouts and subresource range
//! ([`image_memory_barrier2`]); a coarse transition (a `buffer`-declared
//! image) has no Vulkan form here.

use crate::ir::image::{ImageBarrier, SubresourceRange};
use crate::ir::program::{Barrier, ByteRange};
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use ::ash::vk;

/// A model stage mask as a Vulkan one (the same bits).
pub fn stage_mask(flags: PipelineStageFlags2) -> vk::PipelineStageFlags2 {
    vk::PipelineStageFlags2::from_raw(flags.bits())
}

/// A model access mask as a Vulkan one (the same bits).
pub fn access_mask(flags: AccessFlags2) -> vk::AccessFlags2 {
    vk::AccessFlags2::from_raw(flags.bits())
}

/// A barrier's masks as a `VkMemoryBarrier2` (its region, if any, is
/// ignored: see [`buffer_memory_barrier2`]).
///
/// ```
/// use vksync::{AccessFlags2 as A, Barrier, PipelineStageFlags2 as S};
/// use ash::vk;
/// let b = Barrier::global(S::COPY, A::TRANSFER_WRITE, S::COMPUTE_SHADER, A::SHADER_STORAGE_READ);
/// let m = vksync::ash::memory_barrier2(&b);
/// assert_eq!(m.src_stage_mask, vk::PipelineStageFlags2::COPY);
/// assert_eq!(m.dst_access_mask, vk::AccessFlags2::SHADER_STORAGE_READ);
/// let s1 = vksync::ash::to_sync1(&b);
/// assert_eq!(s1.src_stage_mask, vk::PipelineStageFlags::TRANSFER);
/// assert_eq!(s1.dst_access_mask, vk::AccessFlags::SHADER_READ);
/// ```
pub fn memory_barrier2(b: &Barrier) -> vk::MemoryBarrier2<'static> {
    vk::MemoryBarrier2::default()
        .src_stage_mask(stage_mask(b.src_stage_mask))
        .src_access_mask(access_mask(b.src_access_mask))
        .dst_stage_mask(stage_mask(b.dst_stage_mask))
        .dst_access_mask(access_mask(b.dst_access_mask))
}

/// A barrier's masks as a `VkBufferMemoryBarrier2` over `range` of
/// `buffer` (in the buffer's own coordinates), with no queue family
/// ownership transfer. `range` must not be empty (Vulkan has no barrier
/// of size 0; the planners never make one). A barrier with
/// [`Barrier::transition`] set stands for an image memory barrier, which
/// has no buffer form: its layout transition would be lost, so callers
/// refuse it (the runtime does, before recording anything).
pub fn buffer_memory_barrier2(
    b: &Barrier,
    buffer: vk::Buffer,
    range: ByteRange,
) -> vk::BufferMemoryBarrier2<'static> {
    vk::BufferMemoryBarrier2::default()
        .src_stage_mask(stage_mask(b.src_stage_mask))
        .src_access_mask(access_mask(b.src_access_mask))
        .dst_stage_mask(stage_mask(b.dst_stage_mask))
        .dst_access_mask(access_mask(b.dst_access_mask))
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .buffer(buffer)
        .offset(range.start)
        .size(range.len())
}

/// A `VkImageSubresourceRange` (open counts are `VK_REMAINING_*`).
pub fn subresource_range(r: SubresourceRange) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange::default()
        .aspect_mask(vk::ImageAspectFlags::from_raw(r.aspects.0))
        .base_mip_level(r.base_mip)
        .level_count(r.mip_count.unwrap_or(vk::REMAINING_MIP_LEVELS))
        .base_array_layer(r.base_layer)
        .layer_count(r.layer_count.unwrap_or(vk::REMAINING_ARRAY_LAYERS))
}

/// A barrier's masks as a `VkImageMemoryBarrier2` over `image`, with the
/// layouts and subresource range of its image barrier `ib` (queue family
/// indices `VK_QUEUE_FAMILY_IGNORED`: the caller maps an ownership
/// transfer's families to the device's).
pub fn image_memory_barrier2(
    b: &Barrier,
    ib: &ImageBarrier,
    image: vk::Image,
) -> vk::ImageMemoryBarrier2<'static> {
    vk::ImageMemoryBarrier2::default()
        .src_stage_mask(stage_mask(b.src_stage_mask))
        .src_access_mask(access_mask(b.src_access_mask))
        .dst_stage_mask(stage_mask(b.dst_stage_mask))
        .dst_access_mask(access_mask(b.dst_access_mask))
        .old_layout(vk::ImageLayout::from_raw(ib.old_layout as i32))
        .new_layout(vk::ImageLayout::from_raw(ib.new_layout as i32))
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(image)
        .subresource_range(subresource_range(ib.range))
}

/// A barrier downgraded to synchronization 1 (see the module documentation
/// for what widens), for `vkCmdPipelineBarrier` with a `VkMemoryBarrier` or
/// `VkBufferMemoryBarrier`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sync1 {
    /// `srcStageMask` of `vkCmdPipelineBarrier`.
    pub src_stage_mask: vk::PipelineStageFlags,
    /// `srcAccessMask` of the memory barrier.
    pub src_access_mask: vk::AccessFlags,
    /// `dstStageMask` of `vkCmdPipelineBarrier`.
    pub dst_stage_mask: vk::PipelineStageFlags,
    /// `dstAccessMask` of the memory barrier.
    pub dst_access_mask: vk::AccessFlags,
}

/// Downgrades a barrier to synchronization 1 masks.
pub fn to_sync1(b: &Barrier) -> Sync1 {
    Sync1 {
        src_stage_mask: sync1_stages(b.src_stage_mask, vk::PipelineStageFlags::TOP_OF_PIPE),
        src_access_mask: sync1_access(b.src_access_mask),
        dst_stage_mask: sync1_stages(b.dst_stage_mask, vk::PipelineStageFlags::BOTTOM_OF_PIPE),
        dst_access_mask: sync1_access(b.dst_access_mask),
    }
}

/// A stage mask of a synchronization-1 command (`vkCmdSetEvent`'s
/// `stageMask`, `vkCmdWaitEvents`'s `srcStageMask` and `dstStageMask`),
/// widened as [`to_sync1`] widens a barrier's, but with `NONE` kept as 0
/// (valid with the `synchronization2` feature, VUID-vkCmdSetEvent-stageMask-03937):
/// a wait's `srcStageMask` must be exactly the OR of its sets' masks, which
/// replacing `NONE` in one of them would break. The masks of the model's
/// `set-event1`/`wait-events1` hold synchronization-1 bits only, so for
/// them this keeps every bit.
pub fn stage_mask1(s: PipelineStageFlags2) -> vk::PipelineStageFlags {
    sync1_stages(s, vk::PipelineStageFlags::empty())
}

/// A barrier's access masks as a `VkMemoryBarrier` (synchronization 1:
/// the stage masks belong to the command, see [`to_sync1`]).
pub fn memory_barrier1(b: &Barrier) -> vk::MemoryBarrier<'static> {
    let m = to_sync1(b);
    vk::MemoryBarrier::default()
        .src_access_mask(m.src_access_mask)
        .dst_access_mask(m.dst_access_mask)
}

/// A barrier's access masks as a `VkBufferMemoryBarrier` over `range` of
/// `buffer`, with no queue family ownership transfer (as
/// [`buffer_memory_barrier2`]).
pub fn buffer_memory_barrier1(
    b: &Barrier,
    buffer: vk::Buffer,
    range: ByteRange,
) -> vk::BufferMemoryBarrier<'static> {
    let m = to_sync1(b);
    vk::BufferMemoryBarrier::default()
        .src_access_mask(m.src_access_mask)
        .dst_access_mask(m.dst_access_mask)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .buffer(buffer)
        .offset(range.start)
        .size(range.len())
}

fn sync1_stages(s: PipelineStageFlags2, if_none: vk::PipelineStageFlags) -> vk::PipelineStageFlags {
    type S = PipelineStageFlags2;
    let transfer = S::COPY | S::CLEAR | S::BLIT | S::RESOLVE | S::ALL_TRANSFER;
    let mut out = vk::PipelineStageFlags::from_raw((s.bits() & 0xffff_ffff & !transfer.bits()) as u32);
    if s.intersects(transfer) {
        out |= vk::PipelineStageFlags::TRANSFER;
    }
    // Any other synchronization2-only stage has no synchronization 1 bit:
    // all commands covers it (wider, never narrower).
    if s.bits() >> 32 & !(transfer.bits() >> 32) != 0 {
        out |= vk::PipelineStageFlags::ALL_COMMANDS;
    }
    if out.is_empty() {
        if_none
    } else {
        out
    }
}

fn sync1_access(a: AccessFlags2) -> vk::AccessFlags {
    type A = AccessFlags2;
    let mut out = vk::AccessFlags::from_raw((a.bits() & 0xffff_ffff) as u32);
    if a.intersects(A::SHADER_STORAGE_READ | A::SHADER_SAMPLED_READ) {
        out |= vk::AccessFlags::SHADER_READ;
    }
    if a.intersects(A::SHADER_STORAGE_WRITE) {
        out |= vk::AccessFlags::SHADER_WRITE;
    }
    // Any other synchronization2-only access: every read and write.
    let mapped = A::SHADER_STORAGE_READ | A::SHADER_SAMPLED_READ | A::SHADER_STORAGE_WRITE;
    if a.bits() >> 32 & !(mapped.bits() >> 32) != 0 {
        out |= vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    type S = PipelineStageFlags2;
    type A = AccessFlags2;

    #[test]
    fn flags_keep_vulkans_bits() {
        assert_eq!(
            stage_mask(S::COMPUTE_SHADER | S::ALL_TRANSFER),
            vk::PipelineStageFlags2::COMPUTE_SHADER | vk::PipelineStageFlags2::ALL_TRANSFER
        );
        assert_eq!(
            access_mask(A::SHADER_STORAGE_WRITE | A::HOST_READ),
            vk::AccessFlags2::SHADER_STORAGE_WRITE | vk::AccessFlags2::HOST_READ
        );
    }

    /// (sync2 barrier masks, sync1 masks), one row per rule of the table.
    #[test]
    fn sync1_downgrade_widens_where_it_must() {
        use vk::{AccessFlags as A1, PipelineStageFlags as S1};
        let cases = [
            (
                (
                    S::COPY,
                    A::TRANSFER_WRITE,
                    S::COMPUTE_SHADER,
                    A::SHADER_STORAGE_READ,
                ),
                (
                    S1::TRANSFER,
                    A1::TRANSFER_WRITE,
                    S1::COMPUTE_SHADER,
                    A1::SHADER_READ,
                ),
            ),
            (
                (
                    S::COMPUTE_SHADER,
                    A::SHADER_STORAGE_WRITE,
                    S::CLEAR | S::HOST,
                    A::TRANSFER_WRITE | A::HOST_READ,
                ),
                (
                    S1::COMPUTE_SHADER,
                    A1::SHADER_WRITE,
                    S1::TRANSFER | S1::HOST,
                    A1::TRANSFER_WRITE | A1::HOST_READ,
                ),
            ),
            (
                (S::NONE, A::NONE, S::NONE, A::NONE),
                (S1::TOP_OF_PIPE, A1::empty(), S1::BOTTOM_OF_PIPE, A1::empty()),
            ),
            (
                (
                    S::ALL_COMMANDS,
                    A::MEMORY_WRITE,
                    S::DRAW_INDIRECT,
                    A::INDIRECT_COMMAND_READ,
                ),
                (
                    S1::ALL_COMMANDS,
                    A1::MEMORY_WRITE,
                    S1::DRAW_INDIRECT,
                    A1::INDIRECT_COMMAND_READ,
                ),
            ),
            // Synchronization2-only bits the model does not name (bit 38,
            // PRE_RASTERIZATION_SHADERS; bit 35 of accesses,
            // VIDEO_DECODE_READ): the widest synchronization 1 scope.
            (
                (
                    S::from_bits_retain(1 << 38),
                    A::from_bits_retain(1 << 35),
                    S::COPY,
                    A::NONE,
                ),
                (
                    S1::ALL_COMMANDS,
                    A1::MEMORY_READ | A1::MEMORY_WRITE,
                    S1::TRANSFER,
                    A1::empty(),
                ),
            ),
        ];
        for ((ss, sa, ds, da), want) in cases {
            let got = to_sync1(&Barrier::global(ss, sa, ds, da));
            assert_eq!(
                (
                    got.src_stage_mask,
                    got.src_access_mask,
                    got.dst_stage_mask,
                    got.dst_access_mask
                ),
                want,
                "{ss}:{sa} -> {ds}:{da}"
            );
        }
    }
}
