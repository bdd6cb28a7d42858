//! Descriptor sets for dispatches, from descriptor pools of bounded size.
//!
//! This module owns the descriptor pools of one run (or one prepared set of
//! programs) and the sets in them: [`DescriptorPools::set_for`] returns a
//! set that binds given buffer ranges for a kernel's set layout, and
//! [`DescriptorPools::set_for_images`] one that binds given storage image
//! views (in `GENERAL`, the layout a storage image is used in), writing
//! a new set only for a combination not seen since the last reset. It does
//! not decide what a dispatch binds (the recorder's checked dispatch says)
//! and does not own the set layouts (one per kernel, in
//! [`crate::kernels`]). Destroying the pools is the owner's job, because
//! only the owner knows when no pending work uses them.
//!
//! Why bounded pools: one pool sized for every dispatch of a program is a
//! single allocation that grows with the program. Pools here hold at most
//! [`SETS_PER_POOL`] sets of up to [`crate::kernels::MAX_BINDINGS`]
//! descriptors each (storage buffers or storage images; each type has room
//! for all of them, so the one count `descriptors_left` bounds both); a new
//! pool is made when the current one is full.
//!
//! Why sets are shared: Mesa 25's lavapipe gives every live descriptor set
//! a memory mapping of its own, and a process has at most
//! `vm.max_map_count` (65,530 by default) of them: a 100,000-dispatch
//! stream crashed inside `vkAllocateDescriptorSets` at about 65,300 sets,
//! pool sizes notwithstanding. A set is never updated after it is first
//! written, so dispatches that bind the same ranges with the same layout
//! can bind one set: a run then holds as many sets as it has distinct
//! bindings, not dispatches.
//!
//! Invariants: `pools[..=current]` have handed out sets since the last
//! reset; `sets_left` and `descriptors_left` count what `pools[current]`
//! can still give; pools after `current` (kept from before a reset) are
//! empty and are reused before any new pool is made; every set in `cache`
//! was allocated since the last reset and written exactly once.

use crate::error::{Result, VkContext};
use ash::vk;
use std::collections::HashMap;

/// Sets per pool. Large enough that pools are rare (a 100,000-dispatch
/// program needs 98), small enough that no driver balks at one.
pub(crate) const SETS_PER_POOL: u32 = 1024;

/// Storage-buffer descriptors per set at most (the push-constant block
/// has an offset word for each).
const MAX_BINDINGS: u32 = crate::kernels::MAX_BINDINGS as u32;

/// One storage-buffer binding of a set: buffer, offset, range.
pub(crate) type BufferRange = (vk::Buffer, u64, u64);

/// The descriptor pools of one run, and the sets written so far.
#[derive(Default)]
pub(crate) struct DescriptorPools {
    pools: Vec<vk::DescriptorPool>,
    current: usize,
    sets_left: u32,
    descriptors_left: u32,
    cache: HashMap<(vk::DescriptorSetLayout, Bound), vk::DescriptorSet>,
}

/// What a set binds: storage buffer ranges, or storage image views.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Bound {
    Buffers(Vec<BufferRange>),
    Images(Vec<(vk::ImageView, vk::DescriptorType, vk::ImageLayout)>),
}

impl DescriptorPools {
    /// How many pools exist.
    #[cfg(test)]
    pub(crate) fn pool_count(&self) -> usize {
        self.pools.len()
    }

    /// How many distinct sets were written since the last reset.
    #[cfg(test)]
    pub(crate) fn set_count(&self) -> usize {
        self.cache.len()
    }

    /// A set of `layout` whose binding `i` is `ranges[i]`: the one written
    /// earlier for the same layout and ranges, or a new one.
    pub(crate) fn set_for(
        &mut self,
        device: &ash::Device,
        layout: vk::DescriptorSetLayout,
        ranges: &[BufferRange],
    ) -> Result<vk::DescriptorSet> {
        let key = (layout, Bound::Buffers(ranges.to_vec()));
        if let Some(&set) = self.cache.get(&key) {
            return Ok(set);
        }
        let set = self.allocate(device, layout, ranges.len() as u32)?;
        let infos: Vec<[vk::DescriptorBufferInfo; 1]> = ranges
            .iter()
            .map(|&(buffer, offset, range)| {
                [vk::DescriptorBufferInfo::default()
                    .buffer(buffer)
                    .offset(offset)
                    .range(range)]
            })
            .collect();
        let writes: Vec<vk::WriteDescriptorSet> = infos
            .iter()
            .enumerate()
            .map(|(i, info)| {
                vk::WriteDescriptorSet::default()
                    .dst_set(set)
                    .dst_binding(i as u32)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .buffer_info(info)
            })
            .collect();
        // SAFETY: the set was just allocated, so no command buffer uses it
        // yet; the caller passes live buffers with offsets aligned to
        // minStorageBufferOffsetAlignment and ranges within
        // maxStorageBufferRange (checked before recording), one per binding
        // of `layout`.
        unsafe { device.update_descriptor_sets(&writes, &[]) };
        self.cache.insert(key, set);
        Ok(set)
    }

    /// A set of `layout` whose binding `i` is image view `views[i]`, a
    /// descriptor of its type (a storage image, or a sampled image) in its
    /// layout: the one written earlier for the same views, or a new one.
    pub(crate) fn set_for_images(
        &mut self,
        device: &ash::Device,
        layout: vk::DescriptorSetLayout,
        views: &[(vk::ImageView, vk::DescriptorType, vk::ImageLayout)],
    ) -> Result<vk::DescriptorSet> {
        let key = (layout, Bound::Images(views.to_vec()));
        if let Some(&set) = self.cache.get(&key) {
            return Ok(set);
        }
        let set = self.allocate(device, layout, views.len() as u32)?;
        let infos: Vec<[vk::DescriptorImageInfo; 1]> = views
            .iter()
            .map(|&(view, _, layout)| {
                [vk::DescriptorImageInfo::default()
                    .image_view(view)
                    .image_layout(layout)]
            })
            .collect();
        let writes: Vec<vk::WriteDescriptorSet> = infos
            .iter()
            .zip(views)
            .enumerate()
            .map(|(i, (info, &(_, ty, _)))| {
                vk::WriteDescriptorSet::default()
                    .dst_set(set)
                    .dst_binding(i as u32)
                    .descriptor_type(ty)
                    .image_info(info)
            })
            .collect();
        // SAFETY: the set was just allocated, so no command buffer uses it
        // yet; the caller passes live views of images created with the
        // usage each descriptor type needs (STORAGE, SAMPLED:
        // `vksync::ash::image_usage`), one per binding of `layout` (an
        // image kernel's, whose types they are), each in a layout its type
        // allows (checked by the model).
        unsafe { device.update_descriptor_sets(&writes, &[]) };
        self.cache.insert(key, set);
        Ok(set)
    }

    /// A set of `layout` with `bindings` descriptors, from
    /// the current pool or, when it cannot hold one more, the next one.
    fn allocate(
        &mut self,
        device: &ash::Device,
        layout: vk::DescriptorSetLayout,
        bindings: u32,
    ) -> Result<vk::DescriptorSet> {
        debug_assert!(bindings <= MAX_BINDINGS);
        if self.pools.is_empty() || self.sets_left == 0 || self.descriptors_left < bindings {
            self.next_pool(device)?;
        }
        let layouts = [layout];
        let info = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(self.pools[self.current])
            .set_layouts(&layouts);
        // SAFETY: the pool and the layout are live objects of `device`; the
        // pool is used from this thread only (the run owns it), and the
        // counts above say it has room for one more set of this size.
        let mut sets = unsafe { device.allocate_descriptor_sets(&info) };
        if let Err(vk::Result::ERROR_OUT_OF_POOL_MEMORY | vk::Result::ERROR_FRAGMENTED_POOL) = sets {
            // Drivers may refuse before the counts run out (the spec allows
            // it); a fresh pool always has room for one set.
            self.next_pool(device)?;
            let info = vk::DescriptorSetAllocateInfo::default()
                .descriptor_pool(self.pools[self.current])
                .set_layouts(&layouts);
            // SAFETY: as above, with the pool just made.
            sets = unsafe { device.allocate_descriptor_sets(&info) };
        }
        let sets = sets.ctx("vkAllocateDescriptorSets")?;
        self.sets_left -= 1;
        self.descriptors_left -= bindings;
        Ok(sets[0])
    }

    /// Moves to the next pool, making it if there is none.
    fn next_pool(&mut self, device: &ash::Device) -> Result<()> {
        let next = if self.pools.is_empty() {
            0
        } else {
            self.current + 1
        };
        if next == self.pools.len() {
            let sizes = [
                vk::DescriptorPoolSize::default()
                    .ty(vk::DescriptorType::STORAGE_BUFFER)
                    .descriptor_count(SETS_PER_POOL * MAX_BINDINGS),
                vk::DescriptorPoolSize::default()
                    .ty(vk::DescriptorType::STORAGE_IMAGE)
                    .descriptor_count(SETS_PER_POOL * MAX_BINDINGS),
                vk::DescriptorPoolSize::default()
                    .ty(vk::DescriptorType::SAMPLED_IMAGE)
                    .descriptor_count(SETS_PER_POOL),
            ];
            // SAFETY: a valid device and create info that outlives the call.
            let pool = unsafe {
                device.create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default()
                        .max_sets(SETS_PER_POOL)
                        .pool_sizes(&sizes),
                    None,
                )
            }
            .ctx("vkCreateDescriptorPool")?;
            self.pools.push(pool);
        }
        self.current = next;
        self.sets_left = SETS_PER_POOL;
        self.descriptors_left = SETS_PER_POOL * MAX_BINDINGS;
        Ok(())
    }

    /// Returns every set to its pool; the pools are kept for reuse.
    ///
    /// The caller guarantees that no command buffer using a set of these
    /// pools is pending (or will be submitted again).
    pub(crate) fn reset(&mut self, device: &ash::Device) -> Result<()> {
        for &pool in &self.pools {
            // SAFETY: the pool is live; the caller guarantees no pending
            // command buffer uses its sets.
            unsafe { device.reset_descriptor_pool(pool, vk::DescriptorPoolResetFlags::empty()) }
                .ctx("vkResetDescriptorPool")?;
        }
        // `allocate` starts again at pool 0, reusing the kept pools in order.
        self.cache.clear();
        self.current = 0;
        self.sets_left = if self.pools.is_empty() { 0 } else { SETS_PER_POOL };
        self.descriptors_left = if self.pools.is_empty() {
            0
        } else {
            SETS_PER_POOL * MAX_BINDINGS
        };
        Ok(())
    }

    /// The pools, for destruction by their owner (which knows when no
    /// pending work uses them); leaves this empty.
    pub(crate) fn take_pools(&mut self) -> Vec<vk::DescriptorPool> {
        self.cache.clear();
        self.current = 0;
        self.sets_left = 0;
        self.descriptors_left = 0;
        std::mem::take(&mut self.pools)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{test_device, ValidationMode, TEST_DEVICE_HELP};
    use crate::resources::Resources;
    use vksync::reference::Kernel;

    /// Sets asked for, then sets and pools expected: one set per distinct
    /// binding, a new pool exactly when the current one is full, and a
    /// reset reuses the pools it has.
    #[test]
    fn sets_are_shared_and_pools_bounded_and_reused() {
        let Some(mut device) = test_device(ValidationMode::Required).expect(TEST_DEVICE_HELP) else {
            return;
        };
        let n = SETS_PER_POOL as usize;
        let align = device.info().limits.min_storage_buffer_offset_alignment.max(4);
        let parts = device.begin_run().expect("no work in flight");
        let pipelines = parts.kernels;
        let mut res = Resources::new(parts.device, parts.allocator, parts.in_flight);
        let size = (3 * n as u64 + 1) * align;
        let program = vksync::trace::parse(&format!("buffer a {size}\n"))
            .expect("parses")
            .program;
        let layout = vksync::resolve(&program).expect("resolves");
        res.create_memory(&layout, &[false], &[false]).expect("memory");
        let buffer = res.buffers[0];
        // (kernel, distinct bindings, times each is asked for, sets, pools)
        let cases = [
            ("scale", 1, 10, 1, 1),
            ("scale_add", n, 2, n, 1),
            ("add", n + 1, 1, n + 1, 2),
            ("scale_add", 2 * n + 500, 1, 2 * n + 500, 3),
            ("scale", 10, 3, 10, 3),
        ];
        for (kernel, distinct, times, sets, pools) in cases {
            let pipeline = pipelines.get(Kernel::from_name(kernel, &[]).expect("a kernel"));
            let mut d = res.descriptors.borrow_mut();
            for _ in 0..times {
                for i in 0..distinct as u64 {
                    let ranges = vec![(buffer, i * align, align); pipeline.bindings];
                    d.set_for(parts.device, pipeline.set_layout, &ranges)
                        .expect("a set");
                }
            }
            assert_eq!((d.set_count(), d.pool_count()), (sets, pools), "{kernel}");
            d.reset(parts.device).expect("reset");
        }
        drop(res);
        assert_eq!(parts.capture.take(), vec![]);
    }
}
