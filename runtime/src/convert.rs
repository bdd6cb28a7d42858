//! The one place where model types become `ash::vk` types.
//!
//! The model's flag types carry Vulkan's own bit values (synchronization2),
//! so stage and access masks convert bit for bit. This module owns those
//! conversions and the translation of a model [`Barrier`] into a
//! `VkMemoryBarrier2` or `VkBufferMemoryBarrier2`; it does not decide which
//! `VkBuffer` a region lives in (the recorder passes it in).

use ash::vk;
use vksync::{AccessFlags2, Barrier, ByteRange, PipelineStageFlags2};

/// A model stage mask as a Vulkan one (same bits).
pub fn stage_mask(flags: PipelineStageFlags2) -> vk::PipelineStageFlags2 {
    vk::PipelineStageFlags2::from_raw(flags.bits())
}

/// A model access mask as a Vulkan one (same bits).
pub fn access_mask(flags: AccessFlags2) -> vk::AccessFlags2 {
    vk::AccessFlags2::from_raw(flags.bits())
}

/// A global barrier (`region == None`) as a `VkMemoryBarrier2`.
pub fn memory_barrier(b: &Barrier) -> vk::MemoryBarrier2<'static> {
    vk::MemoryBarrier2::default()
        .src_stage_mask(stage_mask(b.src_stage_mask))
        .src_access_mask(access_mask(b.src_access_mask))
        .dst_stage_mask(stage_mask(b.dst_stage_mask))
        .dst_access_mask(access_mask(b.dst_access_mask))
}

/// A ranged barrier as a `VkBufferMemoryBarrier2` over `range` of the memory
/// object's `buffer` (the range is already in memory-object coordinates).
/// One queue is used, so there is no ownership transfer.
pub fn buffer_barrier(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_keep_vulkans_bits() {
        let s = PipelineStageFlags2::parse("COMPUTE_SHADER|ALL_TRANSFER").unwrap();
        assert_eq!(
            stage_mask(s),
            vk::PipelineStageFlags2::COMPUTE_SHADER | vk::PipelineStageFlags2::ALL_TRANSFER
        );
        let a = AccessFlags2::parse("SHADER_STORAGE_WRITE|HOST_READ").unwrap();
        assert_eq!(
            access_mask(a),
            vk::AccessFlags2::SHADER_STORAGE_WRITE | vk::AccessFlags2::HOST_READ
        );
    }
}
