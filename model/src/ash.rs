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
//! Image memory barriers of `image`-declared objects (an exact image
//! barrier, [`Barrier::image`]) become `VkImageMemoryBarrier2`s with their
//! [`ImageBarrier`]'s layouts and subresource range
//! ([`image_memory_barrier2`]); a coarse transition (a `buffer`-declared
//! image) has no Vulkan form here. [`dependency2`] gathers a set of model
//! barriers (a tracker's [`crate::Needs`], a planned
//! [`crate::Dependency`]) into one `VkDependencyInfo`; [`needs2`] gathers
//! a whole [`crate::Needs`], its image barriers
//! ([`tracked_image_barrier2`]) too. It does not decide
//! which `VkBuffer` or `VkImage` a region lives in: the caller says (the
//! model has no handles). Queue family indices are the model's; a runtime
//! whose device numbers its families otherwise maps them (the runtime
//! crate does).

use crate::ir::image::{ImageBarrier, SubresourceRange};
use crate::ir::program::{Barrier, ByteRange, Program, Region};
use crate::tracker::{Needs, TrackedId, TrackedImageBarrier};
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

/// A barrier as a `VkBufferMemoryBarrier2` over `range` of `buffer` (in
/// the buffer's own coordinates). A queue family ownership transfer
/// ([`Barrier::ownership`]) keeps its two family indices as the model
/// numbers them (a runtime whose device numbers its families otherwise
/// sets them again); without one both are `VK_QUEUE_FAMILY_IGNORED`.
/// `range` must not be empty (Vulkan has no barrier of size 0; the
/// planners never make one). A barrier with [`Barrier::transition`] set
/// stands for an image memory barrier, which has no buffer form: its
/// layout transition would be lost, so callers refuse it or use
/// [`image_memory_barrier2`].
///
/// ```
/// use vksync::{AccessFlags2 as A, Barrier, ByteRange, ObjectId, OwnershipTransfer, PipelineStageFlags2 as S, Region};
/// use ash::vk;
/// let region = Region { object: ObjectId(0), range: ByteRange::new(0, 256) };
/// let release = Barrier {
///     ownership: Some(OwnershipTransfer { src_queue_family: 1, dst_queue_family: 2 }),
///     ..Barrier::global(S::COPY, A::TRANSFER_WRITE, S::NONE, A::NONE).on(region)
/// };
/// let b = vksync::ash::buffer_memory_barrier2(&release, vk::Buffer::null(), region.range);
/// assert_eq!((b.src_queue_family_index, b.dst_queue_family_index), (1, 2));
/// ```
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
        .src_queue_family_index(families(b).0)
        .dst_queue_family_index(families(b).1)
        .buffer(buffer)
        .offset(range.start)
        .size(range.len())
}

/// A barrier's `srcQueueFamilyIndex` and `dstQueueFamilyIndex`: the
/// transfer's families, or `VK_QUEUE_FAMILY_IGNORED` twice.
pub fn families(b: &Barrier) -> (u32, u32) {
    match b.ownership {
        Some(o) => (o.src_queue_family, o.dst_queue_family),
        None => (vk::QUEUE_FAMILY_IGNORED, vk::QUEUE_FAMILY_IGNORED),
    }
}

/// The memory, buffer and image barriers of one `vkCmdPipelineBarrier2`,
/// owned, so that [`Dependency2::info`] can lend them to a
/// `VkDependencyInfo`. Made by [`dependency2`].
#[derive(Clone, Debug, Default)]
pub struct Dependency2 {
    /// Global barriers (`VkMemoryBarrier2`).
    pub memory: Vec<vk::MemoryBarrier2<'static>>,
    /// Buffer memory barriers.
    pub buffers: Vec<vk::BufferMemoryBarrier2<'static>>,
    /// Image memory barriers.
    pub images: Vec<vk::ImageMemoryBarrier2<'static>>,
}

impl Dependency2 {
    /// The `VkDependencyInfo` of these barriers, for
    /// `vkCmdPipelineBarrier2`.
    pub fn info(&self) -> vk::DependencyInfo<'_> {
        vk::DependencyInfo::default()
            .memory_barriers(&self.memory)
            .buffer_memory_barriers(&self.buffers)
            .image_memory_barriers(&self.images)
    }

    /// Whether there is no barrier at all.
    pub fn is_empty(&self) -> bool {
        self.memory.is_empty() && self.buffers.is_empty() && self.images.is_empty()
    }

    /// Renumbers the queue families of the ownership transfers, for a
    /// device that numbers its families otherwise than the program:
    /// `map(src, dst)` gets the model's pair of each buffer and image
    /// barrier that has one, and gives the device's pair, or `None` when
    /// there is no transfer on the device (both families are one device
    /// family, or the device has no family for one): then both indices
    /// become `VK_QUEUE_FAMILY_IGNORED`, and the barrier orders and
    /// transitions as before.
    ///
    /// ```
    /// use vksync::{AccessFlags2 as A, Barrier, ByteRange, ObjectId, OwnershipTransfer, PipelineStageFlags2 as S, Region};
    /// use ash::vk;
    /// let region = Region { object: ObjectId(0), range: ByteRange::new(0, 256) };
    /// let release = Barrier {
    ///     ownership: Some(OwnershipTransfer { src_queue_family: 1, dst_queue_family: 2 }),
    ///     ..Barrier::global(S::COPY, A::TRANSFER_WRITE, S::NONE, A::NONE).on(region)
    /// };
    /// let mut dep = vksync::ash::dependency2(&[release], None, |r| {
    ///     Some(vksync::ash::Target::Buffer(vk::Buffer::null(), r.range))
    /// })
    /// .unwrap();
    /// // The device's family 1 is the model's 2; model family 1 is device family 0.
    /// dep.remap_queue_families(|s, d| Some((s - 1, d - 1)));
    /// assert_eq!((dep.buffers[0].src_queue_family_index, dep.buffers[0].dst_queue_family_index), (0, 1));
    /// dep.remap_queue_families(|_, _| None);
    /// assert_eq!(dep.buffers[0].src_queue_family_index, vk::QUEUE_FAMILY_IGNORED);
    /// ```
    pub fn remap_queue_families(&mut self, mut map: impl FnMut(u32, u32) -> Option<(u32, u32)>) {
        let mut pair = |src: u32, dst: u32| {
            if src == vk::QUEUE_FAMILY_IGNORED && dst == vk::QUEUE_FAMILY_IGNORED {
                return (src, dst);
            }
            map(src, dst).unwrap_or((vk::QUEUE_FAMILY_IGNORED, vk::QUEUE_FAMILY_IGNORED))
        };
        for b in &mut self.buffers {
            (b.src_queue_family_index, b.dst_queue_family_index) =
                pair(b.src_queue_family_index, b.dst_queue_family_index);
        }
        for b in &mut self.images {
            (b.src_queue_family_index, b.dst_queue_family_index) =
                pair(b.src_queue_family_index, b.dst_queue_family_index);
        }
    }
}

impl Dependency2 {
    /// The same barriers in synchronization 1, for `vkCmdWaitEvents`, whose
    /// stage masks belong to the call: each barrier's access masks
    /// downgraded as [`to_sync1`] downgrades a barrier's, and its buffer
    /// range, or its image, layouts and subresource range, and its queue
    /// families kept. (A `vkCmdWaitEvents` image barrier whose layouts
    /// differ performs its transition as part of the wait's dependency.)
    ///
    /// ```
    /// let p = vksync::trace::parse(
    ///     "image tex R32_UINT 4x4\nevent e\nset-event1 e TRANSFER\n\
    ///      wait-events1 e TRANSFER:TRANSFER_WRITE -> TRANSFER:TRANSFER_READ tex COLOR:0:0 UNDEFINED->TRANSFER_SRC_OPTIMAL\n",
    /// )
    /// .unwrap()
    /// .program;
    /// let vksync::Command::WaitEvents1 { dependency, .. } = &p.commands()[1] else { unreachable!() };
    /// let image = |_| Some(vksync::ash::Target::Image(ash::vk::Image::null()));
    /// let d1 = vksync::ash::dependency2(&dependency.barriers, Some(&p), image).unwrap().to_sync1();
    /// assert_eq!(d1.images[0].new_layout, ash::vk::ImageLayout::TRANSFER_SRC_OPTIMAL);
    /// assert_eq!(d1.images[0].src_access_mask, ash::vk::AccessFlags::TRANSFER_WRITE);
    /// ```
    pub fn to_sync1(&self) -> Dependency1 {
        let access = |a: vk::AccessFlags2| sync1_access(AccessFlags2::from_bits_retain(a.as_raw()));
        Dependency1 {
            memory: self
                .memory
                .iter()
                .map(|b| {
                    vk::MemoryBarrier::default()
                        .src_access_mask(access(b.src_access_mask))
                        .dst_access_mask(access(b.dst_access_mask))
                })
                .collect(),
            buffers: self
                .buffers
                .iter()
                .map(|b| {
                    vk::BufferMemoryBarrier::default()
                        .src_access_mask(access(b.src_access_mask))
                        .dst_access_mask(access(b.dst_access_mask))
                        .src_queue_family_index(b.src_queue_family_index)
                        .dst_queue_family_index(b.dst_queue_family_index)
                        .buffer(b.buffer)
                        .offset(b.offset)
                        .size(b.size)
                })
                .collect(),
            images: self
                .images
                .iter()
                .map(|b| {
                    vk::ImageMemoryBarrier::default()
                        .src_access_mask(access(b.src_access_mask))
                        .dst_access_mask(access(b.dst_access_mask))
                        .old_layout(b.old_layout)
                        .new_layout(b.new_layout)
                        .src_queue_family_index(b.src_queue_family_index)
                        .dst_queue_family_index(b.dst_queue_family_index)
                        .image(b.image)
                        .subresource_range(b.subresource_range)
                })
                .collect(),
        }
    }
}

/// The barriers of a `vkCmdWaitEvents` (or `vkCmdPipelineBarrier`) in
/// synchronization 1, the call's stage masks apart
/// ([`Dependency2::to_sync1`]).
#[derive(Clone, Debug, Default)]
pub struct Dependency1 {
    /// Global barriers (`VkMemoryBarrier`).
    pub memory: Vec<vk::MemoryBarrier<'static>>,
    /// Buffer memory barriers.
    pub buffers: Vec<vk::BufferMemoryBarrier<'static>>,
    /// Image memory barriers.
    pub images: Vec<vk::ImageMemoryBarrier<'static>>,
}

/// Where a region of the model lives in Vulkan, for [`dependency2`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A `VkBuffer` and the bytes in the buffer's own coordinates.
    Buffer(vk::Buffer, ByteRange),
    /// A `VkImage` (the subresource range comes from the program).
    Image(vk::Image),
}

/// Why [`dependency2`] cannot make a barrier.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GlueError {
    /// A barrier over a region the caller gave no Vulkan object for
    /// performs a layout transition or an ownership transfer, which a
    /// global barrier would drop.
    #[error("barrier {index}: it {what}, and no VkBuffer or VkImage was given for its region")]
    NoTarget {
        /// The barrier's index in the slice.
        index: usize,
        /// `performs a layout transition` or `transfers queue family ownership`.
        what: &'static str,
    },
    /// A transition given a `VkBuffer`, or an image barrier without its
    /// program.
    #[error(
        "barrier {index}: an image memory barrier needs a VkImage and the program that declares the image"
    )]
    NotAnImage {
        /// The barrier's index in the slice.
        index: usize,
    },
}

/// A set of model barriers (a [`crate::Needs`]' or a
/// [`crate::Dependency`]'s) as one `vkCmdPipelineBarrier2`'s barriers.
/// `target` says where each region lives; a region it has no answer for
/// becomes a global memory barrier (wider, never narrower), unless that
/// would drop a layout transition or an ownership transfer (an error).
/// Image memory barriers need `program` (their layouts and subresource
/// range are there); one made of several byte ranges is recorded once.
///
/// ```
/// use vksync::{AccessFlags2 as A, PipelineStageFlags2 as S, TrackedAccess, Tracker};
/// use ash::vk;
/// let mut t = Tracker::new();
/// let buf = t.buffer(1024).unwrap();
/// t.command(&[TrackedAccess::whole(buf, S::CLEAR, A::TRANSFER_WRITE)]).unwrap();
/// let needs = t.command(&[TrackedAccess::whole(buf, S::COMPUTE_SHADER, A::SHADER_STORAGE_READ)]).unwrap();
/// let dep = vksync::ash::dependency2(&needs.barriers, None, |r| {
///     Some(vksync::ash::Target::Buffer(vk::Buffer::null(), r.range))
/// })
/// .unwrap();
/// assert_eq!(dep.buffers.len() + dep.memory.len(), 1);
/// let info = dep.info(); // for cmd_pipeline_barrier2
/// assert_eq!(info.buffer_memory_barrier_count as usize, dep.buffers.len());
/// ```
pub fn dependency2(
    barriers: &[Barrier],
    program: Option<&Program>,
    mut target: impl FnMut(Region) -> Option<Target>,
) -> Result<Dependency2, GlueError> {
    let mut out = Dependency2::default();
    // The image barriers recorded so far, and where in `out.images`.
    let mut image_parts: Vec<(crate::ir::image::ImageBarrierRef, usize)> = Vec::new();
    for (index, b) in barriers.iter().enumerate() {
        let Some(region) = b.region else {
            out.memory.push(memory_barrier2(b));
            continue;
        };
        let image_part = b.image.is_some();
        match target(region) {
            Some(Target::Buffer(buffer, range)) if !image_part && !b.transition => {
                out.buffers.push(buffer_memory_barrier2(b, buffer, range));
            }
            Some(Target::Image(image)) => {
                let program = program.ok_or(GlueError::NotAnImage { index })?;
                let (ib, _part) = program
                    .image_barrier_part(b)
                    .ok_or(GlueError::NotAnImage { index })?;
                // One VkImageMemoryBarrier2 over several byte ranges is
                // several model barriers (its parts): recorded once, where
                // the first part of it that comes appears, with the union
                // of the parts' masks (a planner may have grown the parts'
                // scopes apart; recording one part's masks would order
                // less than the model's barrier does).
                let key = b.image.ok_or(GlueError::NotAnImage { index })?;
                match image_parts.iter().find(|(k, _)| *k == key) {
                    Some(&(_, at)) => {
                        let v: &mut vk::ImageMemoryBarrier2<'static> = &mut out.images[at];
                        v.src_stage_mask |= stage_mask(b.src_stage_mask);
                        v.src_access_mask |= access_mask(b.src_access_mask);
                        v.dst_stage_mask |= stage_mask(b.dst_stage_mask);
                        v.dst_access_mask |= access_mask(b.dst_access_mask);
                    }
                    None => {
                        image_parts.push((key, out.images.len()));
                        out.images.push(image_memory_barrier2(b, ib, image));
                    }
                }
            }
            Some(Target::Buffer(..)) => return Err(GlueError::NotAnImage { index }),
            None if b.transition || image_part => {
                return Err(GlueError::NoTarget {
                    index,
                    what: "performs a layout transition",
                })
            }
            None if b.ownership.is_some() => {
                return Err(GlueError::NoTarget {
                    index,
                    what: "transfers queue family ownership",
                })
            }
            None => out.memory.push(memory_barrier2(b)),
        }
    }
    Ok(out)
}

/// `VkImageUsageFlags` of the model's image usage (the bits are Vulkan's).
///
/// ```
/// use vksync::{Format, ImageLayout, ImageUsage};
/// let r32 = Format::parse("R32_UINT").unwrap();
/// let u = ImageLayout::COLOR_ATTACHMENT_OPTIMAL.usage_for(r32, ImageUsage::empty());
/// assert_eq!(vksync::ash::image_usage(u), ash::vk::ImageUsageFlags::COLOR_ATTACHMENT);
/// ```
pub fn image_usage(u: crate::vk::image::ImageUsage) -> vk::ImageUsageFlags {
    vk::ImageUsageFlags::from_raw(u.bits())
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

/// A barrier as a `VkImageMemoryBarrier2` over `image`, with the layouts
/// and subresource range of its image barrier `ib`
/// ([`Program::image_barrier_part`] finds it) and its ownership transfer's
/// families as the model numbers them ([`families`]).
///
/// ```
/// let p = vksync::trace::parse(
///     "image tex R32_UINT 4x4\n\
///      barrier NONE:NONE -> COPY:TRANSFER_WRITE tex COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL\n",
/// )
/// .unwrap()
/// .program;
/// let vksync::Command::Barrier(dep) = &p.commands()[0] else { unreachable!() };
/// let (ib, _part) = p.image_barrier_part(&dep.barriers[0]).unwrap();
/// let b = vksync::ash::image_memory_barrier2(&dep.barriers[0], ib, ash::vk::Image::null());
/// assert_eq!(b.old_layout, ash::vk::ImageLayout::UNDEFINED);
/// assert_eq!(b.new_layout, ash::vk::ImageLayout::TRANSFER_DST_OPTIMAL);
/// assert_eq!(b.subresource_range.aspect_mask, ash::vk::ImageAspectFlags::COLOR);
/// assert_eq!((b.subresource_range.level_count, b.subresource_range.layer_count), (1, 1));
/// ```
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
        .src_queue_family_index(families(b).0)
        .dst_queue_family_index(families(b).1)
        .image(image)
        .subresource_range(subresource_range(ib.range))
}

/// A [`Tracker`](crate::Tracker)'s image barrier as a
/// `VkImageMemoryBarrier2` over `image` (no queue family ownership
/// transfer: both indices `VK_QUEUE_FAMILY_IGNORED`).
pub fn tracked_image_barrier2(b: &TrackedImageBarrier, image: vk::Image) -> vk::ImageMemoryBarrier2<'static> {
    // The one conversion of an image memory barrier: its masks as a
    // model barrier (no ownership transfer), its layouts and range as an
    // image barrier.
    let masks = Barrier::global(
        b.src_stage_mask,
        b.src_access_mask,
        b.dst_stage_mask,
        b.dst_access_mask,
    );
    let ib = ImageBarrier {
        image: b.image.object(),
        range: b.subresources,
        old_layout: b.old_layout,
        new_layout: b.new_layout,
    };
    image_memory_barrier2(&masks, &ib, image)
}

/// Everything a tracker's [`Needs`] asks to record before a command on
/// its queue, as one `vkCmdPipelineBarrier2`'s barriers: its
/// [`Needs::barriers`] as [`dependency2`] makes them (`target` says where
/// each region lives), then its [`Needs::image_barriers`], each over the
/// `VkImage` that `image` gives for the tracked image.
///
/// ```
/// use vksync::{AccessFlags2 as A, AspectMask, Format, ImageLayout, PipelineStageFlags2 as S};
/// use vksync::{SubresourceRange, TrackedAccess, TrackedImageInfo, Tracker};
/// use ash::vk;
/// let mut t = Tracker::new();
/// let img = t.image(TrackedImageInfo::new(Format::parse("R32_UINT").unwrap(), [16, 16, 1]))?;
/// let color = SubresourceRange { aspects: AspectMask(1), mip_count: Some(1), layer_count: Some(1), ..Default::default() };
/// let write = TrackedAccess::image(img, color, ImageLayout::GENERAL, S::COMPUTE_SHADER, A::SHADER_STORAGE_WRITE);
/// let needs = t.command(&[write])?;
/// let dep = vksync::ash::needs2(&needs, |_| None, |_| vk::Image::null()).unwrap();
/// assert_eq!(dep.images.len(), 1);
/// assert_eq!((dep.images[0].old_layout, dep.images[0].new_layout), (vk::ImageLayout::UNDEFINED, vk::ImageLayout::GENERAL));
/// assert_eq!(dep.images[0].dst_access_mask, vk::AccessFlags2::SHADER_STORAGE_WRITE);
/// # Ok::<(), vksync::TrackerError>(())
/// ```
pub fn needs2(
    needs: &Needs,
    target: impl FnMut(Region) -> Option<Target>,
    mut image: impl FnMut(TrackedId) -> vk::Image,
) -> Result<Dependency2, GlueError> {
    let mut out = dependency2(&needs.barriers, None, target)?;
    out.images.extend(
        needs
            .image_barriers
            .iter()
            .map(|b| tracked_image_barrier2(b, image(b.image))),
    );
    Ok(out)
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
/// `buffer`, its ownership transfer's families kept (as
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
        .src_queue_family_index(families(b).0)
        .dst_queue_family_index(families(b).1)
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

    /// Issue 26: `buffer_memory_barrier2` (and its synchronization-1 form)
    /// silently dropped an ownership transfer (1 -> 2 came out
    /// `IGNORED`/`IGNORED`). (ownership, sync2 families, sync1 families).
    #[test]
    fn ownership_transfers_keep_their_families() {
        use crate::ir::program::{ObjectId, OwnershipTransfer};
        let region = Region {
            object: ObjectId(0),
            range: ByteRange::new(0, 64),
        };
        let ignored = (vk::QUEUE_FAMILY_IGNORED, vk::QUEUE_FAMILY_IGNORED);
        let transfer = |s, d| {
            Some(OwnershipTransfer {
                src_queue_family: s,
                dst_queue_family: d,
            })
        };
        for (ownership, want) in [
            (None, ignored),
            (transfer(1, 2), (1, 2)),
            (transfer(0, 3), (0, 3)),
        ] {
            let b = Barrier {
                ownership,
                ..Barrier::global(S::COPY, A::TRANSFER_WRITE, S::NONE, A::NONE).on(region)
            };
            let b2 = buffer_memory_barrier2(&b, vk::Buffer::null(), region.range);
            let b1 = buffer_memory_barrier1(&b, vk::Buffer::null(), region.range);
            assert_eq!(
                (b2.src_queue_family_index, b2.dst_queue_family_index),
                want,
                "{ownership:?}"
            );
            assert_eq!(
                (b1.src_queue_family_index, b1.dst_queue_family_index),
                want,
                "{ownership:?}"
            );
        }
    }

    /// `dependency2` on one trace's barrier command: (the trace, where its
    /// regions live, what comes out: memory, buffer and image barrier
    /// counts, or the error).
    #[test]
    fn dependency2_keeps_what_a_global_barrier_would_drop() {
        let image_trace = "image tex R32_UINT 4x4 mips 3\n\
            barrier NONE:NONE -> COPY:TRANSFER_WRITE tex COLOR:0..3:0 UNDEFINED->TRANSFER_DST_OPTIMAL\n";
        let ownership_trace = "queue a family 1\nqueue b family 2\nbuffer x 256 exclusive\n\
            barrier COPY:TRANSFER_WRITE -> NONE:NONE x ownership 1->2\n";
        let buffer_trace =
            "buffer x 256\nbarrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ x[0..256]\n\
            barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\n";
        type Want = Result<(usize, usize, usize), GlueError>;
        let cases: [(&str, &str, Option<Target>, Want); 5] = [
            (
                "buffers",
                buffer_trace,
                Some(Target::Buffer(vk::Buffer::null(), ByteRange::new(0, 256))),
                Ok((1, 1, 0)),
            ),
            ("no target: global", buffer_trace, None, Ok((2, 0, 0))),
            (
                "image over 3 mips: one barrier",
                image_trace,
                Some(Target::Image(vk::Image::null())),
                Ok((0, 0, 1)),
            ),
            (
                "image without target",
                image_trace,
                None,
                Err(GlueError::NoTarget {
                    index: 0,
                    what: "performs a layout transition",
                }),
            ),
            (
                "ownership without target",
                ownership_trace,
                None,
                Err(GlueError::NoTarget {
                    index: 0,
                    what: "transfers queue family ownership",
                }),
            ),
        ];
        for (name, trace, target, want) in cases {
            let program = crate::trace::parse(trace)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
                .program;
            let barriers: Vec<Barrier> = program
                .commands()
                .iter()
                .filter_map(|c| match c {
                    crate::ir::program::Command::Barrier(d) => Some(d.barriers.clone()),
                    _ => None,
                })
                .flatten()
                .collect();
            let got = dependency2(&barriers, Some(&program), |_| target)
                .map(|d| (d.memory.len(), d.buffers.len(), d.images.len()));
            assert_eq!(got, want, "{name}");
        }
    }

    /// An image barrier over several byte ranges is several model barriers
    /// (its parts); a planner may grow their scopes apart and list them in
    /// any order. `dependency2` records it once, with the union of the
    /// parts' masks, wherever its first listed part is: (the parts' order,
    /// the extra access the last part carries).
    #[test]
    fn dependency2_records_an_image_barrier_once_with_the_union_of_its_parts() {
        // Layer 1's three mip levels: three byte ranges, the image's bytes
        // being mip level after mip level, each level's layers in a row.
        let trace = "image tex R32_UINT 4x4 mips 3 layers 2\n\
            barrier NONE:NONE -> COPY:TRANSFER_WRITE tex COLOR:0..3:1 UNDEFINED->TRANSFER_DST_OPTIMAL\n";
        let program = crate::trace::parse(trace).unwrap().program;
        let crate::ir::program::Command::Barrier(dep) = &program.commands()[0] else {
            panic!("a barrier")
        };
        assert_eq!(dep.barriers.len(), 3, "one part per mip level's bytes");
        let cases: [(&str, [usize; 3]); 2] = [("in order", [0, 1, 2]), ("reversed", [2, 1, 0])];
        for (name, order) in cases {
            let mut parts: Vec<Barrier> = order.iter().map(|&i| dep.barriers[i]).collect();
            parts[2].dst_access_mask |= AccessFlags2::TRANSFER_READ;
            parts[1].dst_stage_mask |= PipelineStageFlags2::CLEAR;
            let d = dependency2(&parts, Some(&program), |_| Some(Target::Image(vk::Image::null()))).unwrap();
            assert_eq!(d.images.len(), 1, "{name}");
            let b = d.images[0];
            assert_eq!(
                b.dst_access_mask,
                vk::AccessFlags2::TRANSFER_WRITE | vk::AccessFlags2::TRANSFER_READ,
                "{name}"
            );
            assert_eq!(
                b.dst_stage_mask,
                vk::PipelineStageFlags2::COPY | vk::PipelineStageFlags2::CLEAR,
                "{name}"
            );
            let r = b.subresource_range;
            assert_eq!(
                (r.base_mip_level, r.level_count, r.base_array_layer, r.layer_count),
                (0, 3, 1, 1),
                "{name}"
            );
            assert_eq!(b.new_layout, vk::ImageLayout::TRANSFER_DST_OPTIMAL, "{name}");
        }
    }
}
