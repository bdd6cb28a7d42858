//! The [`super::Tracker`]'s images: each image's description and the
//! layout of each of its subresources, what a command's use of an image
//! needs (the layout transitions, grouped into image memory barriers),
//! and the public types a runtime names them with.
//!
//! It does not decide scopes (the tracker's per-queue checker does,
//! `super::queues`), and it does not lay images out in memory: an image is
//! an object of its notional size ([`crate::ir::image`]), so a transition
//! is a write of the byte ranges of its subresources there and the
//! checkers see nothing but bytes.
//!
//! Invariants: every transition covers every aspect of the image's format
//! (a depth/stencil image's aspects change layout together, as
//! VUID-VkImageMemoryBarrier2-image-03320 requires without
//! `separateDepthStencilLayouts`), so the aspects of one mip and layer
//! always share a layout and the state is one layout per (mip, layer);
//! the layouts change only through the barriers the tracker hands out.

use crate::ir::image::{ImageDesc, SubresourceRange, Tiling};
use crate::ir::program::ObjectId;
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::image::{Format, ImageLayout};
use std::fmt;

use super::TrackedId;

/// An image for [`super::Tracker::image`]: what `VkImageCreateInfo` says
/// of its texels. Optimal tiling, with memory of its own.
///
/// ```
/// use vksync::{Format, ImageLayout, TrackedImageInfo};
/// let info = TrackedImageInfo::new(Format::parse("R32_SFLOAT").unwrap(), [64, 64, 1]).mips(3).layers(2);
/// assert_eq!((info.mips, info.layers, info.initial), (3, 2, ImageLayout::UNDEFINED));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TrackedImageInfo {
    /// `format`.
    pub format: Format,
    /// `extent` (width, height, depth); depth 1 for a 2D image.
    pub extent: [u32; 3],
    /// `mipLevels`.
    pub mips: u32,
    /// `arrayLayers`.
    pub layers: u32,
    /// The layout of every subresource when tracking begins:
    /// `UNDEFINED` for an image just created, or the layout earlier work
    /// left it in.
    pub initial: ImageLayout,
}

impl TrackedImageInfo {
    /// One mip level, one array layer, `UNDEFINED`.
    pub fn new(format: Format, extent: [u32; 3]) -> TrackedImageInfo {
        TrackedImageInfo {
            format,
            extent,
            mips: 1,
            layers: 1,
            initial: ImageLayout::UNDEFINED,
        }
    }

    /// With `mips` mip levels.
    pub fn mips(mut self, mips: u32) -> TrackedImageInfo {
        self.mips = mips;
        self
    }

    /// With `layers` array layers.
    pub fn layers(mut self, layers: u32) -> TrackedImageInfo {
        self.layers = layers;
        self
    }

    /// With every subresource in `layout` when tracking begins.
    pub fn initial(mut self, layout: ImageLayout) -> TrackedImageInfo {
        self.initial = layout;
        self
    }

    /// The model's description of it, for `object`.
    pub(super) fn desc(self, object: ObjectId) -> ImageDesc {
        ImageDesc {
            object,
            format: self.format,
            extent: self.extent,
            mips: self.mips,
            layers: self.layers,
            tiling: Tiling::Optimal,
            initial: self.initial,
            row_pitch: None,
        }
    }
}

/// How a command uses an image: which subresources, and the layout it
/// needs them in (the `imageLayout` of its descriptor, the
/// `srcImageLayout`/`dstImageLayout` of a transfer command).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageUse {
    /// The subresources it accesses (whole subresources: a copy of part
    /// of one is tracked as an access of all of it).
    pub subresources: SubresourceRange,
    /// The layout they must be in when the command executes.
    pub layout: ImageLayout,
}

/// An image memory barrier the tracker asks for: a layout transition of
/// `subresources` from `old_layout` to `new_layout`, with the scopes it
/// needs (`vksync::ash::tracked_image_barrier2` makes the
/// `VkImageMemoryBarrier2`). It goes into the same
/// `vkCmdPipelineBarrier2` as [`super::Needs::barriers`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct TrackedImageBarrier {
    /// The image.
    pub image: TrackedId,
    /// `subresourceRange` (every aspect of the format; closed counts).
    pub subresources: SubresourceRange,
    /// `oldLayout`: the subresources' layout before.
    pub old_layout: ImageLayout,
    /// `newLayout`: the layout the command needs.
    pub new_layout: ImageLayout,
    /// `srcStageMask`: what the transition must wait for.
    pub src_stage_mask: PipelineStageFlags2,
    /// `srcAccessMask`: the writes it must make available first.
    pub src_access_mask: AccessFlags2,
    /// `dstStageMask`: the command's stages on the image.
    pub dst_stage_mask: PipelineStageFlags2,
    /// `dstAccessMask`: the command's accesses of the image.
    pub dst_access_mask: AccessFlags2,
}

impl TrackedImageBarrier {
    /// The trace format's image barrier (`SRC:ACC -> DST:ACC IMAGE
    /// ASPECTS:MIPS:LAYERS OLD->NEW`), the image named `image`.
    pub fn describe(&self, image: &str) -> String {
        format!(
            "{}:{} -> {}:{} {image} {} {}->{}",
            self.src_stage_mask,
            self.src_access_mask,
            self.dst_stage_mask,
            self.dst_access_mask,
            self.subresources,
            self.old_layout,
            self.new_layout
        )
    }
}

impl fmt::Display for TrackedImageBarrier {
    /// [`TrackedImageBarrier::describe`] with the image named by its
    /// index (`image 3`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(&format!("image {}", self.image.object().0)))
    }
}

/// A batch: a queue and the number of its batch among its own.
pub(super) type BatchOf = (crate::ir::queue::QueueId, usize);

/// An image's description, the layout of each (mip, layer), and which
/// batches set and used each one's layout since (for the order rule of
/// several queues, `Tracker::check_queue_order`).
#[derive(Clone, Debug)]
pub(super) struct ImageState {
    pub(super) desc: ImageDesc,
    layouts: Vec<ImageLayout>,
    /// Per (mip, layer): the batch that made its last transition.
    set_by: Vec<Option<BatchOf>>,
    /// Per (mip, layer): the batches that used it in its current layout
    /// and were not seen submitted (kept only with several queues).
    users: Vec<Vec<BatchOf>>,
}

/// One transition to make: a rectangle of mips and layers, its old layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Change {
    pub(super) mips: (u32, u32),
    pub(super) layers: (u32, u32),
    pub(super) old: ImageLayout,
}

impl Change {
    /// The subresource range it covers: every aspect of `desc`'s format.
    pub(super) fn range(self, desc: &ImageDesc) -> SubresourceRange {
        SubresourceRange {
            aspects: desc.format.aspect_mask(),
            base_mip: self.mips.0,
            mip_count: Some(self.mips.1 - self.mips.0),
            base_layer: self.layers.0,
            layer_count: Some(self.layers.1 - self.layers.0),
        }
    }
}

impl ImageState {
    pub(super) fn new(desc: ImageDesc) -> ImageState {
        let n = desc.mips as usize * desc.layers as usize;
        ImageState {
            layouts: vec![desc.initial; n],
            set_by: vec![None; n],
            users: vec![Vec::new(); n],
            desc,
        }
    }

    fn at(&self, mip: u32, layer: u32) -> usize {
        mip as usize * self.desc.layers as usize + layer as usize
    }

    /// The layout of (mip, layer).
    pub(super) fn layout(&self, mip: u32, layer: u32) -> ImageLayout {
        self.layouts[self.at(mip, layer)]
    }

    /// The transitions that bring mips `m0..m1`, layers `l0..l1` into
    /// `new`: per mip, each run of consecutive layers with one old layout
    /// other than `new`; then runs equal in consecutive mips merged, so a
    /// range that is all in one layout is one barrier.
    pub(super) fn changes(
        &self,
        (m0, m1): (u32, u32),
        (l0, l1): (u32, u32),
        new: ImageLayout,
    ) -> Vec<Change> {
        let mut per_mip: Vec<Change> = Vec::new();
        for m in m0..m1 {
            let mut l = l0;
            while l < l1 {
                let old = self.layout(m, l);
                let mut end = l + 1;
                while end < l1 && self.layout(m, end) == old {
                    end += 1;
                }
                if old != new {
                    per_mip.push(Change {
                        mips: (m, m + 1),
                        layers: (l, end),
                        old,
                    });
                }
                l = end;
            }
        }
        let mut out: Vec<Change> = Vec::new();
        for c in per_mip {
            // A run of the previous mip with the same layers and old layout
            // grows by this mip (runs of one mip are in layer order, so the
            // candidate is among the last mip's runs).
            match out
                .iter_mut()
                .find(|p| p.mips.1 == c.mips.0 && p.layers == c.layers && p.old == c.old)
            {
                Some(p) => p.mips.1 = c.mips.1,
                None => out.push(c),
            }
        }
        out
    }

    /// The batch that last transitioned (mip, layer), and the batches
    /// that used it since.
    pub(super) fn history(&self, mip: u32, layer: u32) -> (Option<BatchOf>, &[BatchOf]) {
        let i = self.at(mip, layer);
        (self.set_by[i], &self.users[i])
    }

    /// Batch `by` used mips `m0..m1`, layers `l0..l1` (after any
    /// transition it made of them, [`ImageState::set`]); batches `done`
    /// says are submitted are forgotten.
    pub(super) fn used(
        &mut self,
        (m0, m1): (u32, u32),
        (l0, l1): (u32, u32),
        by: BatchOf,
        done: impl Fn(BatchOf) -> bool,
    ) {
        for m in m0..m1 {
            for l in l0..l1 {
                let i = self.at(m, l);
                let users = &mut self.users[i];
                users.retain(|&b| !done(b));
                if !users.contains(&by) {
                    users.push(by);
                }
            }
        }
    }

    /// Batch `by` transitioned mips `m0..m1`, layers `l0..l1`.
    pub(super) fn transitioned(&mut self, (m0, m1): (u32, u32), (l0, l1): (u32, u32), by: BatchOf) {
        for m in m0..m1 {
            for l in l0..l1 {
                let i = self.at(m, l);
                self.set_by[i] = Some(by);
                self.users[i].clear();
            }
        }
    }

    /// Sets mips `m0..m1`, layers `l0..l1` to `layout`.
    pub(super) fn set(&mut self, (m0, m1): (u32, u32), (l0, l1): (u32, u32), layout: ImageLayout) {
        for m in m0..m1 {
            for l in l0..l1 {
                let i = self.at(m, l);
                self.layouts[i] = layout;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(mips: u32, layers: u32) -> ImageState {
        let info = TrackedImageInfo::new(Format::parse("R32_UINT").unwrap(), [8, 8, 1])
            .mips(mips)
            .layers(layers);
        ImageState::new(info.desc(ObjectId(0)))
    }

    #[test]
    fn changes_group_runs_of_one_old_layout() {
        use ImageLayout as L;
        let mut s = state(3, 4);
        // All UNDEFINED: one change over the whole range.
        assert_eq!(
            s.changes((0, 3), (0, 4), L::GENERAL),
            vec![Change {
                mips: (0, 3),
                layers: (0, 4),
                old: L::UNDEFINED
            }]
        );
        // Layers 1..3 of mips 0 and 1 in GENERAL: to GENERAL, the rest.
        s.set((0, 2), (1, 3), L::GENERAL);
        let c = s.changes((0, 3), (0, 4), L::GENERAL);
        assert_eq!(
            c,
            vec![
                Change {
                    mips: (0, 2),
                    layers: (0, 1),
                    old: L::UNDEFINED
                },
                Change {
                    mips: (0, 2),
                    layers: (3, 4),
                    old: L::UNDEFINED
                },
                Change {
                    mips: (2, 3),
                    layers: (0, 4),
                    old: L::UNDEFINED
                },
            ]
        );
        // Nothing to do inside the GENERAL block.
        assert!(s.changes((0, 2), (1, 3), L::GENERAL).is_empty());
        // To another layout: two old layouts, two runs per mip.
        let c = s.changes((0, 1), (0, 4), L::TRANSFER_SRC_OPTIMAL);
        assert_eq!(c.len(), 3);
        assert_eq!(c[1].old, L::GENERAL);
    }
}
