//! Images, exactly: image objects (format, extent, mips, layers, tiling),
//! their subresources (aspect, mip level, array layer), the *notional*
//! address layout that turns every subresource region into byte ranges,
//! the image commands (buffer-image copies, image copies, blits, resolves,
//! clears) with the byte ranges they access, and the layout state of each
//! subresource along execution order with the spec's layout rules.
//!
//! An image declared with `image` is an [`crate::Object`] of kind
//! `Buffer` whose size is its notional size, bound to memory like a buffer
//! (its own, or `alias MEM OFFSET`); an [`ImageDesc`] beside it in
//! [`crate::Program`] says it is an image. Everything downstream (both
//! checkers, the definitional semantics, fixes) sees byte ranges of that
//! object, so nothing there knows about images; only naming (messages and
//! the printer) and the layout rules here do.
//!
//! **The notional layout** (`docs/trace-format.md`, "Images"): per aspect
//! plane (in aspect bit order), per mip level, per array layer, then the
//! texel blocks of each depth slice row-major with a tight pitch. Mip-major
//! before layer means that a barrier or a view over all layers of one mip,
//! or of consecutive mips with all layers, is one byte range. Two
//! different subresources never share a byte, and two disjoint rectangles
//! of one subresource share none either; a rectangle's bytes are exactly
//! the block rows it covers ([`ImageDesc::rect_ranges`], widened only
//! past [`MAX_RANGES`]).
//!
//! Invariants: a [`ImageCommand`]'s accesses are a pure function of its
//! [`ImageOp`] and the program's image descriptions
//! ([`ImageCommand::new`]); [`crate::Program::push`] rebuilds and compares
//! them, so a command cannot carry byte ranges other than its op's.

use super::error::{Location, ProgramError, ProgramErrorKind};
use super::program::{BindingAccess, ByteRange, Command, ObjectId, Program, Region};
use crate::vk::image::{Aspect, AspectMask, Format, ImageLayout};
use crate::vk::scope::StageAccess;
use std::fmt;

/// The most byte ranges one access of a rectangle becomes. Past it, the
/// ranges are widened (each layer's rows become their hull, then the
/// whole span): sound, since a wider access only finds more conflicts,
/// and it bounds the work per command whatever the image's size.
pub const MAX_RANGES: usize = 64;

/// The most block rows one side of one copy region is enumerated with
/// for the rule that a copy's source and destination do not overlap in
/// memory ([`ImageCommand::copy_region_bytes`]); a larger region is not
/// checked against that rule.
pub(crate) const OVERLAP_ROWS: usize = 1 << 14;

/// `VkImageTiling`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Tiling {
    /// `VK_IMAGE_TILING_OPTIMAL`: implementation-defined layout; the model
    /// uses the notional one (see the module doc).
    #[default]
    Optimal,
    /// `VK_IMAGE_TILING_LINEAR`: texels row-major in memory; the model
    /// takes the tight-pitch layout as the image's bytes in its memory.
    Linear,
}

/// An image object: what `VkImageCreateInfo` says about its texels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageDesc {
    /// The object that stands for its memory binding.
    pub object: ObjectId,
    /// `format`.
    pub format: Format,
    /// `extent` (width, height, depth); depth 1 for a 2D image.
    pub extent: [u32; 3],
    /// `mipLevels`.
    pub mips: u32,
    /// `arrayLayers`.
    pub layers: u32,
    /// `tiling`.
    pub tiling: Tiling,
    /// The layout of every subresource when the program begins:
    /// `VkImageCreateInfo::initialLayout` (`UNDEFINED`, the default, or
    /// `PREINITIALIZED`) for an image the program creates, or any other
    /// layout for one that work before the program left there (a command
    /// buffer submitted again, a trace that starts mid-application). Set
    /// with [`crate::Program::set_initial_layout`].
    pub initial: ImageLayout,
    /// `VkSubresourceLayout::rowPitch` of a linear image whose rows are
    /// further apart than its texels (what `vkGetImageSubresourceLayout`
    /// gives, often aligned to 64 or 256 bytes): the bytes of block row
    /// `y` start at `y * row_pitch`, and the image is `rows * row_pitch`
    /// bytes. `None`: rows packed tightly. Only for a linear image of one
    /// mip level, one array layer, depth 1 and one aspect (the layouts of
    /// others are not given here); set with
    /// [`crate::Program::set_row_pitch`].
    pub row_pitch: Option<u64>,
}

/// A `VkSubresourceLayout`: where one subresource's bytes are in an image
/// ([`ImageDesc::subresource_layout`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubresourceLayout {
    /// `offset`: from the image's start.
    pub offset: u64,
    /// `size`.
    pub size: u64,
    /// `rowPitch`: from one block row to the next.
    pub row_pitch: u64,
    /// `arrayPitch`: from one array layer to the next.
    pub array_pitch: u64,
    /// `depthPitch`: from one depth slice to the next.
    pub depth_pitch: u64,
}

/// A `VkImageSubresourceRange`: `None` counts are `VK_REMAINING_MIP_LEVELS`
/// / `VK_REMAINING_ARRAY_LAYERS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SubresourceRange {
    /// `aspectMask`.
    pub aspects: AspectMask,
    /// `baseMipLevel`.
    pub base_mip: u32,
    /// `levelCount` (`None`: the remaining levels).
    pub mip_count: Option<u32>,
    /// `baseArrayLayer`.
    pub base_layer: u32,
    /// `layerCount` (`None`: the remaining layers).
    pub layer_count: Option<u32>,
}

/// A `VkImageSubresourceLayers`: one mip level, a layer range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SubresourceLayers {
    /// `aspectMask`.
    pub aspects: AspectMask,
    /// `mipLevel`.
    pub mip: u32,
    /// `baseArrayLayer`.
    pub base_layer: u32,
    /// `layerCount` (`None`: `VK_REMAINING_ARRAY_LAYERS`).
    pub layer_count: Option<u32>,
}

impl SubresourceLayers {
    /// As a range of one mip level.
    pub fn range(self) -> SubresourceRange {
        SubresourceRange {
            aspects: self.aspects,
            base_mip: self.mip,
            mip_count: Some(1),
            base_layer: self.base_layer,
            layer_count: self.layer_count,
        }
    }
}

fn span(base: u32, count: Option<u32>) -> String {
    match count {
        Some(1) => format!("{base}"),
        Some(n) => format!("{base}..{}", u64::from(base) + u64::from(n)),
        None => format!("{base}.."),
    }
}

impl fmt::Display for SubresourceRange {
    /// `ASPECTS:MIPS:LAYERS`, the trace format's text (`COLOR:0:0..6`,
    /// `DEPTH|STENCIL:0..:0..`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}",
            self.aspects,
            span(self.base_mip, self.mip_count),
            span(self.base_layer, self.layer_count)
        )
    }
}

impl fmt::Display for SubresourceLayers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}",
            self.aspects,
            self.mip,
            span(self.base_layer, self.layer_count)
        )
    }
}

/// The layout information of an image memory barrier, kept in
/// [`crate::Program::image_barriers`] and named from each model barrier
/// by an [`ImageBarrierRef`] ([`crate::Barrier::image`]; a reference
/// rather than the value keeps every `Barrier` small: the planners hold
/// millions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageBarrier {
    /// The image.
    pub image: ObjectId,
    /// `subresourceRange`.
    pub range: SubresourceRange,
    /// `oldLayout`.
    pub old_layout: ImageLayout,
    /// `newLayout`.
    pub new_layout: ImageLayout,
}

/// A model barrier's image memory barrier: an index into
/// [`crate::Program::image_barriers`] (stored plus one, so that
/// `Option<ImageBarrierRef>` takes four bytes). One `VkImageMemoryBarrier2`
/// whose subresource range is several byte ranges is several model
/// barriers with identical masks and the same reference, one per range in
/// address order (barriers of one call apply independently, so that is the
/// same barrier); the one over the first range is its *first part*
/// ([`crate::Program::image_barrier_part`]): the printer writes that one
/// only, and the layout rules read that one only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageBarrierRef(std::num::NonZeroU32);

impl ImageBarrierRef {
    /// The reference to entry `index`; `None` past `u32::MAX - 1`.
    pub fn new(index: usize) -> Option<ImageBarrierRef> {
        let plus_one = u32::try_from(index).ok()?.checked_add(1)?;
        std::num::NonZeroU32::new(plus_one).map(ImageBarrierRef)
    }
    /// The index in [`crate::Program::image_barriers`].
    pub fn index(self) -> usize {
        self.0.get() as usize - 1
    }
}

/// A `VkBufferImageCopy2` region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferImageCopy {
    /// `bufferOffset`.
    pub buffer_offset: u64,
    /// `bufferRowLength` (0: the extent's width).
    pub row_length: u32,
    /// `bufferImageHeight` (0: the extent's height).
    pub image_height: u32,
    /// `imageSubresource` (one aspect).
    pub subresource: SubresourceLayers,
    /// `imageOffset`.
    pub offset: [u32; 3],
    /// `imageExtent`.
    pub extent: [u32; 3],
}

/// A `VkImageCopy2` or `VkImageResolve2` region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageCopyRegion {
    /// `srcSubresource`.
    pub src_subresource: SubresourceLayers,
    /// `srcOffset`.
    pub src_offset: [u32; 3],
    /// `dstSubresource`.
    pub dst_subresource: SubresourceLayers,
    /// `dstOffset`.
    pub dst_offset: [u32; 3],
    /// `extent`.
    pub extent: [u32; 3],
}

/// A `VkImageBlit2` region: two corners per side, in any order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageBlitRegion {
    /// `srcSubresource`.
    pub src_subresource: SubresourceLayers,
    /// `srcOffsets`.
    pub src_offsets: [[u32; 3]; 2],
    /// `dstSubresource`.
    pub dst_subresource: SubresourceLayers,
    /// `dstOffsets`.
    pub dst_offsets: [[u32; 3]; 2],
}

/// `VkFilter`: how a blit samples its source, and so which of its texels
/// it may read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Filter {
    /// `VK_FILTER_NEAREST`: one texel per sample, inside the source
    /// region.
    #[default]
    Nearest,
    /// `VK_FILTER_LINEAR`: 2 texels per axis per sample (weights may be 0).
    Linear,
    /// `VK_FILTER_CUBIC_EXT`: 4 texels per axis per sample.
    CubicExt,
}

impl Filter {
    /// Every filter, in declaration order.
    pub const ALL: [Filter; 3] = [Filter::Nearest, Filter::Linear, Filter::CubicExt];

    /// The trace keyword (Vulkan's name without the prefix).
    pub fn keyword(self) -> &'static str {
        match self {
            Filter::Nearest => "NEAREST",
            Filter::Linear => "LINEAR",
            Filter::CubicExt => "CUBIC_EXT",
        }
    }

    /// The filter of a keyword.
    pub fn parse(text: &str) -> Option<Filter> {
        Filter::ALL.into_iter().find(|f| f.keyword() == text)
    }

    /// The `VkFilter` value.
    pub fn raw(self) -> i32 {
        match self {
            Filter::Nearest => 0,
            Filter::Linear => 1,
            Filter::CubicExt => 1_000_015_000,
        }
    }

    /// The filter of a `VkFilter` value.
    pub fn from_raw(raw: i32) -> Option<Filter> {
        Filter::ALL.into_iter().find(|f| f.raw() == raw)
    }

    /// How many texels beyond each face of a region's source box a sample
    /// may read: "Implementations must clamp at the edge of the source
    /// image, and may additionally clamp to the edge of the source
    /// region" (`vkCmdBlitImage`), so a filter whose footprint reaches
    /// past the region may read the texels there: `LINEAR`'s two texels
    /// per axis (`i0 = floor(u - 1/2)`, `i1 = i0 + 1`, "Texel Filtering")
    /// reach one beyond each face (the low one when the region is scaled
    /// up, the high one even at equal size, with weight 0), `CUBIC`'s four
    /// reach two. `NEAREST`'s one texel per sample stays inside.
    pub(crate) fn reach(self) -> u32 {
        match self {
            Filter::Nearest => 0,
            Filter::Linear => 1,
            Filter::CubicExt => 2,
        }
    }
}

/// An image command, as the application recorded it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImageOp {
    /// `vkCmdCopyBufferToImage2`.
    CopyBufferToImage {
        /// `srcBuffer` (a buffer or blob).
        buffer: ObjectId,
        /// `dstImage`.
        image: ObjectId,
        /// `dstImageLayout`.
        layout: ImageLayout,
        /// `pRegions`.
        regions: Vec<BufferImageCopy>,
    },
    /// `vkCmdCopyImageToBuffer2`.
    CopyImageToBuffer {
        /// `srcImage`.
        image: ObjectId,
        /// `srcImageLayout`.
        layout: ImageLayout,
        /// `dstBuffer`.
        buffer: ObjectId,
        /// `pRegions`.
        regions: Vec<BufferImageCopy>,
    },
    /// `vkCmdCopyImage2`.
    CopyImage {
        /// `srcImage`, `srcImageLayout`.
        src: (ObjectId, ImageLayout),
        /// `dstImage`, `dstImageLayout`.
        dst: (ObjectId, ImageLayout),
        /// `pRegions`.
        regions: Vec<ImageCopyRegion>,
    },
    /// `vkCmdBlitImage2`.
    BlitImage {
        /// `srcImage`, `srcImageLayout`.
        src: (ObjectId, ImageLayout),
        /// `dstImage`, `dstImageLayout`.
        dst: (ObjectId, ImageLayout),
        /// `pRegions`.
        regions: Vec<ImageBlitRegion>,
        /// `filter`.
        filter: Filter,
    },
    /// `vkCmdResolveImage2`.
    ResolveImage {
        /// `srcImage`, `srcImageLayout`.
        src: (ObjectId, ImageLayout),
        /// `dstImage`, `dstImageLayout`.
        dst: (ObjectId, ImageLayout),
        /// `pRegions`.
        regions: Vec<ImageCopyRegion>,
    },
    /// `vkCmdClearColorImage`.
    ClearColorImage {
        /// `image`.
        image: ObjectId,
        /// `imageLayout`.
        layout: ImageLayout,
        /// `pRanges`.
        ranges: Vec<SubresourceRange>,
    },
    /// `vkCmdClearDepthStencilImage`.
    ClearDepthStencilImage {
        /// `image`.
        image: ObjectId,
        /// `imageLayout`.
        layout: ImageLayout,
        /// `pRanges`.
        ranges: Vec<SubresourceRange>,
    },
}

impl ImageOp {
    /// The trace keyword.
    pub fn keyword(&self) -> &'static str {
        match self {
            ImageOp::CopyBufferToImage { .. } => "copy-buffer-to-image",
            ImageOp::CopyImageToBuffer { .. } => "copy-image-to-buffer",
            ImageOp::CopyImage { .. } => "copy-image",
            ImageOp::BlitImage { .. } => "blit-image",
            ImageOp::ResolveImage { .. } => "resolve-image",
            ImageOp::ClearColorImage { .. } => "clear-color-image",
            ImageOp::ClearDepthStencilImage { .. } => "clear-depth-stencil-image",
        }
    }

    /// The Vulkan command.
    pub fn vulkan_name(&self) -> &'static str {
        match self {
            ImageOp::CopyBufferToImage { .. } => "vkCmdCopyBufferToImage",
            ImageOp::CopyImageToBuffer { .. } => "vkCmdCopyImageToBuffer",
            ImageOp::CopyImage { .. } => "vkCmdCopyImage",
            ImageOp::BlitImage { .. } => "vkCmdBlitImage",
            ImageOp::ResolveImage { .. } => "vkCmdResolveImage",
            ImageOp::ClearColorImage { .. } => "vkCmdClearColorImage",
            ImageOp::ClearDepthStencilImage { .. } => "vkCmdClearDepthStencilImage",
        }
    }

    /// The (stage, access) of its reads and of its writes, from `vk.xml`'s
    /// `<sync>` data for each command (`<syncsupport>` /
    /// `<syncequivalent>`: copies in `COPY`, blits in `BLIT`, resolves in
    /// `RESOLVE`, clears in `CLEAR`).
    pub fn stage_accesses(&self) -> (StageAccess, StageAccess) {
        match self {
            ImageOp::CopyBufferToImage { .. }
            | ImageOp::CopyImageToBuffer { .. }
            | ImageOp::CopyImage { .. } => (StageAccess::CopyTransferRead, StageAccess::CopyTransferWrite),
            ImageOp::BlitImage { .. } => (StageAccess::BlitTransferRead, StageAccess::BlitTransferWrite),
            ImageOp::ResolveImage { .. } => (
                StageAccess::ResolveTransferRead,
                StageAccess::ResolveTransferWrite,
            ),
            ImageOp::ClearColorImage { .. } | ImageOp::ClearDepthStencilImage { .. } => {
                (StageAccess::ClearTransferWrite, StageAccess::ClearTransferWrite)
            }
        }
    }

    /// Its layout VUIDs, the one table of them: which layouts its source
    /// and destination image operands may name, then that the named
    /// layout must be the subresources' current one ("must specify the
    /// layout of the image subresources ... at the time this command is
    /// executed"), for the source and the destination (a command with one
    /// image operand repeats it).
    pub fn layout_vuids(&self) -> [&'static str; 4] {
        match self {
            ImageOp::CopyBufferToImage { .. } => [
                "VUID-vkCmdCopyBufferToImage-dstImageLayout-01396",
                "VUID-vkCmdCopyBufferToImage-dstImageLayout-01396",
                "VUID-vkCmdCopyBufferToImage-dstImageLayout-00180",
                "VUID-vkCmdCopyBufferToImage-dstImageLayout-00180",
            ],
            ImageOp::CopyImageToBuffer { .. } => [
                "VUID-vkCmdCopyImageToBuffer-srcImageLayout-01397",
                "VUID-vkCmdCopyImageToBuffer-srcImageLayout-01397",
                "VUID-vkCmdCopyImageToBuffer-srcImageLayout-00189",
                "VUID-vkCmdCopyImageToBuffer-srcImageLayout-00189",
            ],
            ImageOp::CopyImage { .. } => [
                "VUID-vkCmdCopyImage-srcImageLayout-01917",
                "VUID-vkCmdCopyImage-dstImageLayout-01395",
                "VUID-vkCmdCopyImage-srcImageLayout-00128",
                "VUID-vkCmdCopyImage-dstImageLayout-00133",
            ],
            ImageOp::BlitImage { .. } => [
                "VUID-vkCmdBlitImage-srcImageLayout-01398",
                "VUID-vkCmdBlitImage-dstImageLayout-01399",
                "VUID-vkCmdBlitImage-srcImageLayout-00221",
                "VUID-vkCmdBlitImage-dstImageLayout-00226",
            ],
            ImageOp::ResolveImage { .. } => [
                "VUID-vkCmdResolveImage-srcImageLayout-01400",
                "VUID-vkCmdResolveImage-dstImageLayout-01401",
                "VUID-vkCmdResolveImage-srcImageLayout-00260",
                "VUID-vkCmdResolveImage-dstImageLayout-00262",
            ],
            ImageOp::ClearColorImage { .. } => [
                "VUID-vkCmdClearColorImage-imageLayout-01394",
                "VUID-vkCmdClearColorImage-imageLayout-01394",
                "VUID-vkCmdClearColorImage-imageLayout-00004",
                "VUID-vkCmdClearColorImage-imageLayout-00004",
            ],
            ImageOp::ClearDepthStencilImage { .. } => [
                "VUID-vkCmdClearDepthStencilImage-imageLayout-00012",
                "VUID-vkCmdClearDepthStencilImage-imageLayout-00012",
                "VUID-vkCmdClearDepthStencilImage-imageLayout-00011",
                "VUID-vkCmdClearDepthStencilImage-imageLayout-00011",
            ],
        }
    }

    /// Every object it names (images and buffers), source first.
    pub fn objects(&self) -> Vec<ObjectId> {
        match self {
            ImageOp::CopyBufferToImage { buffer, image, .. } => vec![*buffer, *image],
            ImageOp::CopyImageToBuffer { image, buffer, .. } => vec![*image, *buffer],
            ImageOp::CopyImage { src, dst, .. }
            | ImageOp::BlitImage { src, dst, .. }
            | ImageOp::ResolveImage { src, dst, .. } => vec![src.0, dst.0],
            ImageOp::ClearColorImage { image, .. } | ImageOp::ClearDepthStencilImage { image, .. } => {
                vec![*image]
            }
        }
    }
}

/// An image command with the byte ranges it accesses ([`Command::Image`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageCommand {
    /// What was recorded.
    pub op: ImageOp,
    /// Its accesses in terms of the objects it names, reads first: what
    /// [`crate::region_accesses`] returns for it.
    pub(crate) accesses: Vec<(Region, StageAccess)>,
}

/// Why an image, an image command or an image barrier is not well formed
/// (wrapped in [`ProgramErrorKind::Image`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    /// An `image` declaration's parameters.
    #[error("image `{name}`: {reason}")]
    BadImage {
        /// The image.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// A name that should be an image is not one.
    #[error("`{name}` is not an image (declare it with `image`)")]
    NotAnImage {
        /// The object.
        name: String,
    },
    /// A subresource or region past the image's mips, layers, extent or
    /// aspects.
    #[error("{call}: {what} of image `{image}`: {reason}")]
    BadSubresource {
        /// The Vulkan command or barrier.
        call: String,
        /// Which operand (`dstSubresource`, `pRanges[1]`, ...).
        what: String,
        /// The image.
        image: String,
        /// What is wrong.
        reason: String,
    },
    /// A command names a layout its rules do not allow.
    #[error("{call}: {what} {layout} is not allowed: it must be {allowed} ({vuid})")]
    LayoutNotAllowed {
        /// The Vulkan command.
        call: &'static str,
        /// Which operand (`dstImageLayout`, ...).
        what: &'static str,
        /// The layout named.
        layout: ImageLayout,
        /// The layouts allowed.
        allowed: &'static str,
        /// The valid-usage id.
        vuid: &'static str,
    },
    /// A command uses a subresource in another layout than its current one.
    #[error(
        "{call} uses image `{image}` subresource {aspect} mip {mip} layer {layer} in layout {named}, \
         but its layout is {current} at that point ({vuid})"
    )]
    WrongLayout {
        /// The Vulkan command.
        call: &'static str,
        /// The image.
        image: String,
        /// The subresource's aspect.
        aspect: &'static str,
        /// Its mip level.
        mip: u32,
        /// Its array layer.
        layer: u32,
        /// The layout the command names.
        named: ImageLayout,
        /// The subresource's current layout.
        current: ImageLayout,
        /// The valid-usage id.
        vuid: &'static str,
    },
    /// A use or transition of a subresource, between a `vkCmdSetEvent2`
    /// whose barrier transitions it and that event's wait, that names
    /// another layout than the transition's `newLayout`.
    #[error(
        "{call} uses image `{image}` subresource {aspect} mip {mip} layer {layer} in layout {named} \
         between the vkCmdSetEvent2 of event `{event}` and its wait: the set performs the layout transition \
         {old}->{new} of that subresource (its second synchronization scope includes \"image layout transitions \
         defined by pDependencyInfo\"), unordered with what is recorded between the set and the wait, so the \
         layout there is {new} where that transition has happened and undetermined where it may not have; \
         never {named} (\"Image Layout Transitions\")"
    )]
    LayoutInEventTransition {
        /// The Vulkan command that uses the subresource.
        call: &'static str,
        /// The image.
        image: String,
        /// The subresource's aspect.
        aspect: &'static str,
        /// Its mip level.
        mip: u32,
        /// Its array layer.
        layer: u32,
        /// The layout the command names.
        named: ImageLayout,
        /// The event whose set transitions the subresource.
        event: String,
        /// The transition's `oldLayout`.
        old: ImageLayout,
        /// The transition's `newLayout`.
        new: ImageLayout,
    },
    /// A use or transition of a subresource whose layout another queue's
    /// layout transition may change before or after it: no semaphore,
    /// fence or host wait orders the two batches, so the layout it finds
    /// when it executes is not determined.
    #[error(
        "{call} on queue `{queue}` uses image `{image}` subresource {aspect} mip {mip} layer {layer}, \
         whose layout the layout transition of {other} changes, \
         and no semaphore, fence or host wait orders the two batches either way: \
         its layout \"at the time this command is executed on a VkDevice\" is not determined \
         (\"Image Layout Transitions\": transitions execute in submission order only \
         \"relative to other image layout transitions submitted to the same queue\"; \
         order them with a semaphore)"
    )]
    LayoutUndetermined {
        /// The Vulkan command that uses the subresource.
        call: &'static str,
        /// Its queue.
        queue: String,
        /// The image.
        image: String,
        /// The subresource's aspect.
        aspect: &'static str,
        /// Its mip level.
        mip: u32,
        /// Its array layer.
        layer: u32,
        /// The command whose transition is unordered with it, and its
        /// queue (`vkCmdPipelineBarrier2 on queue `qa``).
        other: String,
        /// That command's index in the program (a trace reader names its
        /// line).
        other_command: usize,
    },
    /// An image barrier that makes a layout transition or an ownership
    /// transfer names `UNDEFINED` or `PREINITIALIZED` as `newLayout`.
    #[error(
        "barrier {index}: newLayout {new} of image `{image}` is not a layout an image can be transitioned to \
         (VUID-VkImageMemoryBarrier2-newLayout-01198: with a layout transition or a queue family ownership transfer, \
         newLayout must not be UNDEFINED or PREINITIALIZED)"
    )]
    BadNewLayout {
        /// The barrier's index in its call.
        index: usize,
        /// The image.
        image: String,
        /// `newLayout`.
        new: ImageLayout,
    },
    /// An image barrier whose subresource range includes the depth aspect
    /// names a stencil-only layout as `oldLayout` or `newLayout`, or one
    /// including the stencil aspect a depth-only layout
    /// (VUID-VkImageMemoryBarrier2-aspectMask-08702, -08703).
    #[error(
        "barrier {index}: {which} {layout} of image `{image}` is a layout of the {only} aspect alone, and the \
         subresource range includes {aspect} ({vuid}); transition each aspect in its own barrier, or name a layout \
         of both aspects"
    )]
    LayoutAspect {
        /// The barrier's index in its call.
        index: usize,
        /// `oldLayout` or `newLayout`.
        which: &'static str,
        /// The layout.
        layout: ImageLayout,
        /// The image.
        image: String,
        /// `depth` or `stencil`: the aspect the layout is for.
        only: &'static str,
        /// `DEPTH` or `STENCIL`: the aspect of the range it is not for.
        aspect: &'static str,
        /// The valid-usage id.
        vuid: &'static str,
    },
    /// A layout that requires a usage the image's format cannot have
    /// (`crate::vk::image::LAYOUT_RULES`): a depth/stencil layout of a
    /// color image, `COLOR_ATTACHMENT_OPTIMAL` of a depth/stencil one.
    #[error("{what} {layout} of image `{image}` needs a {needs} format, and {format} is not one ({vuid}: the layout requires a usage that format cannot have)")]
    LayoutFormat {
        /// Where the layout is named (`barrier 0: newLayout`, `initial`).
        what: String,
        /// The layout.
        layout: ImageLayout,
        /// The image.
        image: String,
        /// `color` or `depth/stencil`.
        needs: &'static str,
        /// The image's format.
        format: Format,
        /// The valid-usage id.
        vuid: &'static str,
    },
    /// An image barrier's `oldLayout` is neither `UNDEFINED` nor the
    /// current layout.
    #[error(
        "barrier {index}: oldLayout {old} of image `{image}` subresource {aspect} mip {mip} layer {layer} \
         is neither UNDEFINED nor its current layout {current} (VUID-VkImageMemoryBarrier2-oldLayout-01197)"
    )]
    WrongOldLayout {
        /// The barrier's index in its call.
        index: usize,
        /// The image.
        image: String,
        /// The subresource's aspect.
        aspect: &'static str,
        /// Its mip level.
        mip: u32,
        /// Its array layer.
        layer: u32,
        /// `oldLayout`.
        old: ImageLayout,
        /// The current layout.
        current: ImageLayout,
    },
    /// The acquire of a queue family ownership transfer names other
    /// layouts than its release.
    #[error(
        "barrier {index}: the acquire of image `{image}` subresource {aspect} mip {mip} layer {layer} names layouts \
         {}->{} but its release named {}->{} (\"Queue Family Ownership Transfer\": the release's and the acquire's \
         oldLayout and newLayout must be equal; a statement of the section, no VUID)",
        .acquire.0, .acquire.1, .release.0, .release.1
    )]
    OwnershipLayouts {
        /// The barrier's index in its call.
        index: usize,
        /// The image.
        image: String,
        /// The subresource's aspect.
        aspect: &'static str,
        /// Its mip level.
        mip: u32,
        /// Its array layer.
        layer: u32,
        /// The release's `(oldLayout, newLayout)`.
        release: (ImageLayout, ImageLayout),
        /// The acquire's.
        acquire: (ImageLayout, ImageLayout),
    },
    /// A use or a transition (other than from `UNDEFINED`) of a
    /// subresource released by a queue family ownership transfer and not
    /// acquired since.
    #[error(
        "{call}: image `{image}` subresource {aspect} mip {mip} layer {layer} was released to queue family {to} and \
         not acquired since: its layout and contents are undefined until the matching acquire (\"Queue Family \
         Ownership Transfer\"); acquire it on family {to} first, or transition it from UNDEFINED"
    )]
    UseAfterRelease {
        /// The command, or `barrier INDEX`.
        call: String,
        /// The image.
        image: String,
        /// The subresource's aspect.
        aspect: &'static str,
        /// Its mip level.
        mip: u32,
        /// Its array layer.
        layer: u32,
        /// The family it was released to.
        to: u32,
    },
    /// A storage or sampled image view whose subresources are not one byte
    /// range of the notional layout (several aspects, or several mips
    /// with part of the layers).
    #[error(
        "dispatch binding {index}: a view of `{image}` {range} is not modelled: a view binding must be one aspect, \
         and either one mip level or all array layers"
    )]
    ViewNotContiguous {
        /// The binding's index.
        index: usize,
        /// The image.
        image: String,
        /// The view's range.
        range: SubresourceRange,
    },
    /// A blit between images, or with regions, that its rules on formats,
    /// aspects and layer counts refuse (`blit_rules`).
    #[error("vkCmdBlitImage: {what} ({vuid})")]
    Blit {
        /// What does not match, with both sides.
        what: String,
        /// The valid-usage id.
        vuid: &'static str,
    },
    /// An image-to-image copy region that the rules on image types, layer
    /// counts and depth refuse (`copy_image_boxes`).
    #[error("{call}: {what} ({vuid})")]
    CopyImage {
        /// `vkCmdCopyImage` or `vkCmdResolveImage`.
        call: &'static str,
        /// What does not match, with both sides.
        what: String,
        /// The valid-usage id.
        vuid: &'static str,
    },
    /// A buffer-image copy's buffer bytes past the buffer.
    #[error("{call}: region {index} needs bytes {range} of `{buffer}`, past its size {size} ({vuid})")]
    BufferBytesOutOfBounds {
        /// The Vulkan command.
        call: &'static str,
        /// The region's index.
        index: usize,
        /// The buffer.
        buffer: String,
        /// The bytes the region addresses.
        range: ByteRange,
        /// The buffer's size.
        size: u64,
        /// The valid-usage id.
        vuid: &'static str,
    },
}

fn mip_dim(d: u32, mip: u32) -> u32 {
    (d >> mip.min(31)).max(1)
}

impl ImageDesc {
    /// Checks the parameters: a nonzero extent, mips within the extent's
    /// chain (`VUID-VkImageCreateInfo-mipLevels-00958`), nonzero layers,
    /// one layer for a 3D image (`VUID-VkImageCreateInfo-imageType-00961`).
    pub fn validate(&self, name: &str) -> Result<(), ImageError> {
        let bad = |reason: String| {
            Err(ImageError::BadImage {
                name: name.to_string(),
                reason,
            })
        };
        if self.extent.contains(&0) {
            return bad("every extent must be at least 1".into());
        }
        let max = self.extent.iter().copied().max().unwrap_or(1);
        let chain = 32 - max.leading_zeros();
        if self.mips == 0 || self.mips > chain {
            return bad(format!(
                "mips {} is not in 1..={chain} (floor(log2(max extent)) + 1, VUID-VkImageCreateInfo-mipLevels-00958)",
                self.mips
            ));
        }
        if self.layers == 0 {
            return bad("layers must be at least 1".into());
        }
        if self.extent[2] > 1 && self.layers > 1 {
            return bad("a 3D image has one array layer (VUID-VkImageCreateInfo-imageType-00961)".into());
        }
        if let Some(pitch) = self.row_pitch {
            if self.tiling != Tiling::Linear
                || self.mips != 1
                || self.layers != 1
                || self.extent[2] != 1
                || self.format.aspect_mask().count() != 1
            {
                return bad(
                    "a row pitch is given for a linear image of one mip level, one array layer, depth 1 and one aspect only".into(),
                );
            }
            let a = self
                .format
                .aspect_mask()
                .aspects()
                .next()
                .unwrap_or(Aspect::Color);
            let tight = self.mip_blocks(0)[0] * self.format.block_bytes(a);
            if pitch < tight {
                return bad(format!(
                    "row pitch {pitch} is less than a row's {tight} bytes of texels"
                ));
            }
        }
        if self.total_size().is_none() {
            return bad("its size does not fit in 64 bits".into());
        }
        Ok(())
    }

    /// The bytes from one block row of mip `mip` of aspect `a` to the
    /// next: the linear image's row pitch where one is given, else the
    /// row's blocks packed.
    pub(crate) fn row_stride(&self, a: Aspect, mip: u32) -> u64 {
        self.row_pitch
            .unwrap_or_else(|| self.mip_blocks(mip)[0] * self.format.block_bytes(a))
    }

    /// Subresource (`a`, `mip`, `layer`) in the model's layout, as
    /// `vkGetImageSubresourceLayout` describes a linear image's: what a
    /// driver's answer is compared with (the capture, the runtime).
    /// Invariant: called on validated descriptions with the subresource
    /// inside.
    pub fn subresource_layout(&self, a: Aspect, mip: u32, layer: u32) -> SubresourceLayout {
        let row_pitch = self.row_stride(a, mip);
        let depth_pitch = self.mip_blocks(mip)[1] * row_pitch;
        let size = self.subresource_size(a, mip).unwrap_or(0);
        SubresourceLayout {
            offset: self.subresource_offset(a, mip, layer),
            size,
            row_pitch,
            array_pitch: size,
            depth_pitch,
        }
    }

    /// The extent of mip `mip`.
    pub fn mip_extent(&self, mip: u32) -> [u32; 3] {
        [
            mip_dim(self.extent[0], mip),
            mip_dim(self.extent[1], mip),
            mip_dim(self.extent[2], mip),
        ]
    }

    /// The extent of mip `mip` in texel blocks.
    fn mip_blocks(&self, mip: u32) -> [u64; 3] {
        let e = self.mip_extent(mip);
        let (bw, bh) = self.format.info().block;
        [
            u64::from(e[0].div_ceil(bw)),
            u64::from(e[1].div_ceil(bh)),
            u64::from(e[2]),
        ]
    }

    /// The bytes of one subresource (one layer of one mip) of aspect `a`.
    fn subresource_size(&self, a: Aspect, mip: u32) -> Option<u64> {
        let [x, y, z] = self.mip_blocks(mip);
        match self.row_pitch {
            Some(pitch) => y.checked_mul(z)?.checked_mul(pitch),
            None => x
                .checked_mul(y)?
                .checked_mul(z)?
                .checked_mul(self.format.block_bytes(a)),
        }
    }

    fn plane_size(&self, a: Aspect) -> Option<u64> {
        (0..self.mips).try_fold(0u64, |acc, m| {
            acc.checked_add(self.subresource_size(a, m)?.checked_mul(u64::from(self.layers))?)
        })
    }

    /// The notional size: every plane, mip and layer.
    pub fn total_size(&self) -> Option<u64> {
        self.format
            .aspect_mask()
            .aspects()
            .try_fold(0u64, |acc, a| acc.checked_add(self.plane_size(a)?))
    }

    /// The notional offset of subresource (`a`, `mip`, `layer`).
    /// Invariant: called on validated descriptions with subresources inside.
    pub fn subresource_offset(&self, a: Aspect, mip: u32, layer: u32) -> u64 {
        let mut off = 0;
        for p in self.format.aspect_mask().aspects().take_while(|p| *p != a) {
            off += self.plane_size(p).unwrap_or(0);
        }
        for m in 0..mip {
            off += self.subresource_size(a, m).unwrap_or(0) * u64::from(self.layers);
        }
        off + self.subresource_size(a, mip).unwrap_or(0) * u64::from(layer)
    }

    /// The range's mips and layers with the open ends closed, after
    /// checking them and its aspects against the image.
    pub fn resolve_range(&self, r: SubresourceRange) -> Result<(AspectMask, u32, u32, u32, u32), String> {
        if r.aspects.0 == 0 {
            return Err("an empty aspect mask".into());
        }
        if r.aspects.0 & !self.format.aspect_mask().0 != 0 {
            return Err(format!(
                "aspects {} are not all aspects of {} ({})",
                if r.aspects.0 & !0b111 != 0 {
                    format!("{:#x}", r.aspects.0)
                } else {
                    r.aspects.to_string()
                },
                self.format,
                self.format.aspect_mask()
            ));
        }
        let end = |base: u32, count: Option<u32>, total: u32, what: &str| -> Result<u32, String> {
            let end = match count {
                None if base < total => return Ok(total),
                None => return Err(format!("base {what} {base} past its {total} {what}s")),
                Some(0) => return Err(format!("a {what} count of 0")),
                Some(n) => u64::from(base) + u64::from(n),
            };
            if end > u64::from(total) {
                return Err(format!("{what}s {base}..{end} past its {total} {what}s"));
            }
            Ok(end as u32)
        };
        let m1 = end(r.base_mip, r.mip_count, self.mips, "mip level")?;
        let l1 = end(r.base_layer, r.layer_count, self.layers, "array layer")?;
        Ok((r.aspects, r.base_mip, m1, r.base_layer, l1))
    }

    /// The byte ranges of every subresource of a range, merged where
    /// adjacent, in address order.
    pub fn range_bytes(&self, r: SubresourceRange) -> Result<Vec<ByteRange>, String> {
        let (aspects, m0, m1, l0, l1) = self.resolve_range(r)?;
        let mut out = Vec::new();
        for a in aspects.aspects() {
            for m in m0..m1 {
                let size = self.subresource_size(a, m).unwrap_or(0);
                let start = self.subresource_offset(a, m, l0);
                push_merged(&mut out, ByteRange::new(start, start + size * u64::from(l1 - l0)));
            }
        }
        Ok(out)
    }

    /// The bytes of the texels of a range: [`ImageDesc::range_bytes`],
    /// but for a linear image with a row pitch only its rows' texels, not
    /// the bytes between rows, which no texel holds (a clear writes texels;
    /// a layout transition may write all of the subresources' memory, and
    /// takes [`ImageDesc::range_bytes`]). Past [`MAX_RANGES`] rows, the
    /// hull.
    pub fn texel_bytes(&self, r: SubresourceRange) -> Result<Vec<ByteRange>, String> {
        if self.row_pitch.is_none() {
            return self.range_bytes(r);
        }
        let (aspects, ..) = self.resolve_range(r)?;
        let s = SubresourceLayers {
            aspects,
            mip: 0,
            base_layer: 0,
            layer_count: Some(1),
        };
        self.rect_ranges(s, [0, 0, 0], self.mip_extent(0))
    }

    /// The byte ranges of rectangle `offset`/`extent` (texels) of
    /// subresource layers `s`: the block rows it covers, merged where
    /// adjacent (full-width rows are one range), widened past
    /// [`MAX_RANGES`].
    pub fn rect_ranges(
        &self,
        s: SubresourceLayers,
        offset: [u32; 3],
        extent: [u32; 3],
    ) -> Result<Vec<ByteRange>, String> {
        self.rect_rows(s, offset, extent, MAX_RANGES)
            .map(|(v, _)| widen(v))
    }

    /// The block rows of rectangle `offset`/`extent` of `s`, merged where
    /// adjacent; past `max` rows each depth slice's rows become their
    /// hull. The flag says whether the ranges are exact (no hull taken).
    pub(crate) fn rect_rows(
        &self,
        s: SubresourceLayers,
        offset: [u32; 3],
        extent: [u32; 3],
        max: usize,
    ) -> Result<(Vec<ByteRange>, bool), String> {
        let (aspects, mip, _, l0, l1) = self.resolve_range(s.range())?;
        let e = self.mip_extent(mip);
        for i in 0..3 {
            if extent[i] == 0 {
                return Err("an empty extent".into());
            }
            if u64::from(offset[i]) + u64::from(extent[i]) > u64::from(e[i]) {
                return Err(format!(
                    "offset {} + extent {} past mip {mip}'s {} texels along {}",
                    offset[i],
                    extent[i],
                    e[i],
                    ["x", "y", "z"][i]
                ));
            }
        }
        let (bw, bh) = self.format.info().block;
        let by = self.mip_blocks(mip)[1];
        let x0 = u64::from(offset[0] / bw);
        let x1 = (u64::from(offset[0]) + u64::from(extent[0])).div_ceil(u64::from(bw));
        let y0 = u64::from(offset[1] / bh);
        let y1 = (u64::from(offset[1]) + u64::from(extent[1])).div_ceil(u64::from(bh));
        let (z0, z1) = (u64::from(offset[2]), u64::from(offset[2]) + u64::from(extent[2]));
        let mut out = Vec::new();
        let mut exact = true;
        for a in aspects.aspects() {
            let bs = self.format.block_bytes(a);
            let row = self.row_stride(a, mip);
            let slice = by * row;
            let rows = (y1 - y0) * (z1 - z0) * u64::from(l1 - l0);
            // Rows that fill their pitch join into one range (a padded
            // pitch leaves bytes between them that the rectangle does not
            // touch).
            let full_width = x0 == 0 && x1 * bs == row;
            exact &= full_width || rows as usize <= max;
            for l in l0..l1 {
                let base = self.subresource_offset(a, mip, l);
                for z in z0..z1 {
                    let s0 = base + z * slice;
                    if full_width || rows as usize > max {
                        // Whole rows, or (past the bound) the hull of the
                        // slice's rows: one range per slice.
                        push_merged(
                            &mut out,
                            ByteRange::new(s0 + y0 * row + x0 * bs, s0 + (y1 - 1) * row + x1 * bs),
                        );
                    } else {
                        for y in y0..y1 {
                            push_merged(
                                &mut out,
                                ByteRange::new(s0 + y * row + x0 * bs, s0 + y * row + x1 * bs),
                            );
                        }
                    }
                }
            }
        }
        Ok((out, exact))
    }

    /// The subresource (aspect, mip, layer) holding notional byte `at`.
    pub fn subresource_at(&self, at: u64) -> Option<(Aspect, u32, u32)> {
        let mut off = 0;
        for a in self.format.aspect_mask().aspects() {
            for m in 0..self.mips {
                let size = self.subresource_size(a, m)?;
                let all = size * u64::from(self.layers);
                if at < off + all {
                    return Some((a, m, ((at - off) / size) as u32));
                }
                off += all;
            }
        }
        None
    }

    /// Names notional bytes `range` in terms of subresources, for
    /// messages and fixes: `COLOR:1:0..2` when the range is exactly those
    /// whole subresources, `COLOR:0:0 bytes 64..128` (bytes inside the
    /// subresource) for part of one, the first and last subresource joined
    /// by `+` otherwise.
    pub fn describe(&self, range: ByteRange) -> String {
        let (Some(first), Some(last)) = (
            self.subresource_at(range.start),
            self.subresource_at(range.end.saturating_sub(1)),
        ) else {
            return format!("bytes {range}");
        };
        let (a, m, l) = first;
        let start_of = |(a, m, l): (Aspect, u32, u32)| self.subresource_offset(a, m, l);
        let end_of =
            |(a, m, l): (Aspect, u32, u32)| start_of((a, m, l)) + self.subresource_size(a, m).unwrap_or(0);
        if first.0 == last.0 && first.1 == last.1 {
            let text = SubresourceLayers {
                aspects: AspectMask::of(a),
                mip: m,
                base_layer: l,
                layer_count: Some(last.2 - l + 1),
            }
            .to_string();
            if start_of(first) == range.start && end_of(last) == range.end {
                return text;
            }
            if first == last {
                let base = start_of(first);
                return format!("{text} bytes {}..{}", range.start - base, range.end - base);
            }
            return format!("{text} (part)");
        }
        // Whole mips of one aspect, every layer (the notional layout is
        // mip-major): the subresource range's text (review41 found
        // `COLOR:0:0+..+COLOR:1:0` in reports).
        if first.0 == last.0
            && l == 0
            && last.2 + 1 == self.layers
            && start_of(first) == range.start
            && end_of(last) == range.end
        {
            return SubresourceRange {
                aspects: AspectMask::of(a),
                base_mip: m,
                mip_count: Some(last.1 - m + 1),
                base_layer: 0,
                layer_count: Some(self.layers),
            }
            .to_string();
        }
        let one = |(a, m, l): (Aspect, u32, u32)| format!("{}:{m}:{l}", a.name());
        format!("{}+..+{}", one(first), one(last))
    }
}

/// Appends `r`, merging it into the last range when they touch.
fn push_merged(out: &mut Vec<ByteRange>, r: ByteRange) {
    match out.last_mut() {
        Some(last) if last.end == r.start => last.end = r.end,
        _ => out.push(r),
    }
}

/// At most [`MAX_RANGES`] ranges: past it, the hull of all (sound: only
/// wider).
fn widen(mut v: Vec<ByteRange>) -> Vec<ByteRange> {
    if v.len() > MAX_RANGES {
        let start = v.iter().map(|r| r.start).min().unwrap_or(0);
        let end = v.iter().map(|r| r.end).max().unwrap_or(0);
        v = vec![ByteRange::new(start, end)];
    }
    v
}

/// The alignment a buffer-image copy region's numbers need for the
/// image's format (review39 found them unchecked): `bufferOffset` a
/// multiple of the texel block size, or of 4 for a depth/stencil format;
/// `bufferRowLength` and `bufferImageHeight` multiples of the block's
/// width and height; `imageOffset` multiples of the block extent, and
/// `imageExtent` too unless the region reaches the subresource's edge.
/// (`imageOffset` and `imageExtent` within the subresource are checked
/// with the image side's bytes.)
fn buffer_image_alignment(desc: &ImageDesc, c: &BufferImageCopy, to_image: bool) -> Result<(), String> {
    let (call, param) = if to_image {
        ("vkCmdCopyBufferToImage", "dstImage")
    } else {
        ("vkCmdCopyImageToBuffer", "srcImage")
    };
    let vuid = |n: &str| format!("VUID-{call}-{param}-{n}");
    let format = desc.format;
    let (bw, bh) = format.info().block;
    let depth_stencil = !format.is_color();
    let aspect = c.subresource.aspects.aspects().next().unwrap_or(Aspect::Color);
    if depth_stencil {
        if !c.buffer_offset.is_multiple_of(4) {
            return Err(format!(
                "bufferOffset {} is not a multiple of 4, as a copy of a depth/stencil format needs ({})",
                c.buffer_offset,
                vuid("07978")
            ));
        }
    } else {
        let size = format.block_bytes(aspect).max(1);
        if !c.buffer_offset.is_multiple_of(size) {
            return Err(format!(
                "bufferOffset {} is not a multiple of the texel block size of {}, {size} bytes ({})",
                c.buffer_offset,
                format.name(),
                vuid("07975")
            ));
        }
    }
    let block = [bw, bh, 1];
    let what = ["width", "height", "depth"];
    for (n, value, id) in [
        (0, c.row_length, "VUID-VkBufferImageCopy2-bufferRowLength-09106"),
        (
            1,
            c.image_height,
            "VUID-VkBufferImageCopy2-bufferImageHeight-09107",
        ),
    ] {
        if !value.is_multiple_of(block[n]) {
            return Err(format!(
                "{} {value} is not a multiple of the texel block {} of {}, {} ({id})",
                ["bufferRowLength", "bufferImageHeight"][n],
                what[n],
                format.name(),
                block[n]
            ));
        }
    }
    let edge = desc.mip_extent(c.subresource.mip);
    match block_misaligned(block, c.offset, Some(c.extent), edge) {
        Some((n, false)) => Err(format!(
            "imageOffset.{} {} is not a multiple of the texel block {} of {}, {} ({})",
            ["x", "y", "z"][n],
            c.offset[n],
            what[n],
            format.name(),
            block[n],
            vuid(["07274", "07275", "07276"][n])
        )),
        Some((n, true)) => Err(format!(
            "imageExtent.{} {} is not a multiple of the texel block {} of {}, {}, and the region does not \
             reach the subresource's edge ({})",
            what[n],
            c.extent[n],
            what[n],
            format.name(),
            block[n],
            vuid(["00207", "00208", "00209"][n])
        )),
        None => Ok(()),
    }
}

/// Where a copy region breaks "Copy regions for each image must be aligned
/// to a multiple of the texel block extent in each dimension, except at
/// the edges of the image, where region extents must match the edge of
/// the image": the first axis (x, y, z) whose `offset` is not a multiple
/// of `block` (`false`), or whose `extent`, where given, is not and does
/// not reach the subresource's `edge` (`true`). The one rule of
/// buffer-image and image-image copies.
fn block_misaligned(
    block: [u32; 3],
    offset: [u32; 3],
    extent: Option<[u32; 3]>,
    edge: [u32; 3],
) -> Option<(usize, bool)> {
    (0..3).find_map(|n| {
        if !offset[n].is_multiple_of(block[n]) {
            return Some((n, false));
        }
        let e = extent?[n];
        let reaches = u64::from(offset[n]) + u64::from(e) == u64::from(edge[n]);
        (!e.is_multiple_of(block[n]) && !reaches).then_some((n, true))
    })
}

/// The buffer bytes a buffer-image copy region addresses ("Buffer and
/// Image Addressing"): rows of `rowLength` texels and slices (depth, or
/// array layers) of `imageHeight` rows, in texel blocks for a compressed
/// format; each row's bytes from the region's first to its last block.
pub fn buffer_ranges(desc: &ImageDesc, c: &BufferImageCopy) -> Result<Vec<ByteRange>, String> {
    buffer_rows(desc, c, MAX_RANGES).map(|(v, _)| widen(v))
}

/// [`buffer_ranges`] before widening, past `max` rows the hull of each
/// slice's rows; the flag says whether the ranges are exact.
pub(crate) fn buffer_rows(
    desc: &ImageDesc,
    c: &BufferImageCopy,
    max: usize,
) -> Result<(Vec<ByteRange>, bool), String> {
    let (aspects, _, _, l0, l1) = desc.resolve_range(c.subresource.range())?;
    if aspects.count() != 1 {
        return Err(format!(
            "a buffer-image copy names one aspect (VUID-VkBufferImageCopy2-aspectMask-00212), not {aspects}"
        ));
    }
    let a = aspects.aspects().next().unwrap_or(Aspect::Color);
    let (bw, bh) = desc.format.info().block;
    let bs = desc.format.block_bytes(a);
    let row_texels = if c.row_length == 0 {
        c.extent[0]
    } else {
        c.row_length
    };
    let height_texels = if c.image_height == 0 {
        c.extent[1]
    } else {
        c.image_height
    };
    if row_texels < c.extent[0] || height_texels < c.extent[1] {
        return Err("bufferRowLength and bufferImageHeight must be 0 or at least the extent (VUID-VkBufferImageCopy2-bufferRowLength-00195, VUID-VkBufferImageCopy2-bufferImageHeight-00196)".into());
    }
    let row = u64::from(row_texels.div_ceil(bw)) * bs;
    let width = u64::from(c.extent[0].div_ceil(bw)) * bs;
    let rows = u64::from(c.extent[1].div_ceil(bh));
    let slices = u64::from(c.extent[2]) * u64::from(l1 - l0);
    // The last byte the region touches, checked: the addressing of a
    // large bufferRowLength and bufferImageHeight wrapped past 2^64 in a
    // release build and the region's bytes passed the bounds check
    // (review37). Every byte below is at most this.
    let past = || {
        "the region's buffer bytes run past 2^64 (bufferOffset, bufferRowLength, bufferImageHeight)"
            .to_string()
    };
    let slice = u64::from(height_texels.div_ceil(bh))
        .checked_mul(row)
        .ok_or_else(past)?;
    slices
        .saturating_sub(1)
        .checked_mul(slice)
        .and_then(|x| x.checked_add(rows.saturating_sub(1).checked_mul(row)?))
        .and_then(|x| x.checked_add(width))
        .and_then(|x| x.checked_add(c.buffer_offset))
        .ok_or_else(past)?;
    let mut out = Vec::new();
    let over = (rows * slices) as usize > max;
    for s in 0..slices {
        let base = c.buffer_offset + s * slice;
        if row == width || over {
            push_merged(&mut out, ByteRange::new(base, base + (rows - 1) * row + width));
        } else {
            for y in 0..rows {
                push_merged(&mut out, ByteRange::new(base + y * row, base + y * row + width));
            }
        }
    }
    Ok((out, row == width || !over))
}

fn blit_box(o: [[u32; 3]; 2]) -> ([u32; 3], [u32; 3]) {
    let mut off = [0; 3];
    let mut ext = [0; 3];
    for i in 0..3 {
        off[i] = o[0][i].min(o[1][i]);
        ext[i] = o[0][i].max(o[1][i]) - off[i];
    }
    (off, ext)
}

/// The source box of blit region `r` of image `s` that filter `f` may read
/// ([`Filter::reach`]): the region's box grown by the filter's reach on
/// each axis, within the source mip's extent.
fn blit_read_box(s: &ImageDesc, r: &ImageBlitRegion, f: Filter) -> ([u32; 3], [u32; 3]) {
    let (mut off, mut ext) = blit_box(r.src_offsets);
    let mip = s.mip_extent(r.src_subresource.mip);
    for i in 0..3 {
        let lo = off[i].saturating_sub(f.reach());
        let hi = off[i]
            .saturating_add(ext[i])
            .saturating_add(f.reach())
            .min(mip[i].max(off[i] + ext[i]));
        (off[i], ext[i]) = (lo, hi - lo);
    }
    (off, ext)
}

/// The rules of `vkCmdBlitImage` on its two images' formats and on each
/// region's subresources that the model can decide from what it knows
/// (the image declarations and the filter; not the sample counts, the
/// usage flags or the format features, so not
/// VUID-vkCmdBlitImage-filter-02001's `SAMPLED_IMAGE_FILTER_LINEAR`): a
/// depth/stencil source needs `NEAREST` (VUID-vkCmdBlitImage-srcImage-00232),
/// `CUBIC_EXT` a source that is not 3D (VUID-vkCmdBlitImage-filter-00237), a
/// depth/stencil format on either side
/// needs the same format on the other (VUID-vkCmdBlitImage-srcImage-00231),
/// a signed (unsigned) integer color format on either side needs one on
/// the other (-00229, -00230), and each region's `aspectMask`s match
/// (VUID-VkImageBlit-aspectMask-00238) and its `layerCount`s match
/// (VUID-VkImageBlit-layerCount-08800; one `VK_REMAINING_ARRAY_LAYERS`
/// must equal the other's count, -08801). Offsets past a subresource are
/// refused where the region's bytes are computed (`BadSubresource`).
fn blit_rules(
    s: &ImageDesc,
    t: &ImageDesc,
    regions: &[ImageBlitRegion],
    filter: Filter,
    src: &str,
    dst: &str,
) -> Result<(), ImageError> {
    if !s.format.is_color() && filter != Filter::Nearest {
        return Err(ImageError::Blit {
            what: format!(
                "srcImage `{src}` has the depth/stencil format {}: filter must be NEAREST, not {}",
                s.format,
                filter.keyword()
            ),
            vuid: "VUID-vkCmdBlitImage-srcImage-00232",
        });
    }
    if filter == Filter::CubicExt && s.extent[2] > 1 {
        return Err(ImageError::Blit {
            what: format!("srcImage `{src}` is a 3D image: filter CUBIC_EXT needs a 2D one"),
            vuid: "VUID-vkCmdBlitImage-filter-00237",
        });
    }
    let formats = |rule: &str, vuid| {
        Err(ImageError::Blit {
            what: format!(
                "srcImage `{src}` is {} and dstImage `{dst}` is {}: {rule}",
                s.format, t.format
            ),
            vuid,
        })
    };
    use crate::vk::image::Signedness;
    if (!s.format.is_color() || !t.format.is_color()) && s.format != t.format {
        return formats(
            "if either has a depth/stencil format, the other must have exactly the same format",
            "VUID-vkCmdBlitImage-srcImage-00231",
        );
    }
    let (a, b) = (s.format.integer(), t.format.integer());
    if a != b {
        if a == Some(Signedness::Signed) || b == Some(Signedness::Signed) {
            return formats(
                "if either has a signed integer format, the other must have one too",
                "VUID-vkCmdBlitImage-srcImage-00229",
            );
        }
        return formats(
            "if either has an unsigned integer color format, the other must have one too",
            "VUID-vkCmdBlitImage-srcImage-00230",
        );
    }
    for (index, r) in regions.iter().enumerate() {
        let (x, y) = (r.src_subresource, r.dst_subresource);
        if x.aspects != y.aspects {
            return Err(ImageError::Blit {
                what: format!(
                    "pRegions[{index}]: srcSubresource.aspectMask {} and dstSubresource.aspectMask {} must match",
                    x.aspects, y.aspects
                ),
                vuid: "VUID-VkImageBlit-aspectMask-00238",
            });
        }
        // VK_REMAINING_ARRAY_LAYERS: the layers from the base on.
        let count = |l: SubresourceLayers, d: &ImageDesc| {
            l.layer_count.unwrap_or(d.layers.saturating_sub(l.base_layer))
        };
        if count(x, s) != count(y, t) {
            let (shown, vuid) = match (x.layer_count, y.layer_count) {
                (Some(_), Some(_)) => ("", "VUID-VkImageBlit-layerCount-08800"),
                _ => (
                    " (VK_REMAINING_ARRAY_LAYERS counts the layers from baseArrayLayer on)",
                    "VUID-VkImageBlit-layerCount-08801",
                ),
            };
            return Err(ImageError::Blit {
                what: format!(
                    "pRegions[{index}]: srcSubresource's {} layers and dstSubresource's {} must match{shown}",
                    count(x, s),
                    count(y, t)
                ),
                vuid,
            });
        }
    }
    Ok(())
}

/// Which layouts a transfer command's image operand may be in ("Copy
/// Commands", "Image Copies with Scaling", "Resolving Multisample
/// Images", "Clear Commands": `..._OPTIMAL` for its role, or `GENERAL`).
fn allowed(layout: ImageLayout, src: bool) -> bool {
    let role = if src {
        ImageLayout::TRANSFER_SRC_OPTIMAL
    } else {
        ImageLayout::TRANSFER_DST_OPTIMAL
    };
    layout == role || layout == ImageLayout::GENERAL
}

/// A test of the layouts an access may be made in, and the words for them.
pub(crate) type AccessLayouts = (fn(ImageLayout) -> bool, &'static str);

/// The layouts an image access of `sa` outside rendering may find its
/// subresources in, as a test and the words for them: a transfer
/// command's source or destination ([`allowed`]), a storage image
/// (`GENERAL`: "Storage Image"), a sampled image in any shader stage
/// ([`ImageLayout::sampled_ok`]). `None` for an access no such command or
/// descriptor makes (attachments are the render pass's, host accesses
/// need no layout here). The one table of these for the
/// [`crate::Tracker`], built on the rules the trace's commands use.
pub(crate) fn access_layouts(sa: StageAccess) -> Option<AccessLayouts> {
    use crate::vk::flags::AccessFlags2 as A;
    use crate::vk::scope::Stage;
    let access = sa.access();
    match sa.stage() {
        Stage::Copy | Stage::Blit | Stage::Resolve | Stage::Clear => {
            if access == A::TRANSFER_READ {
                Some((|l| allowed(l, true), "TRANSFER_SRC_OPTIMAL or GENERAL"))
            } else if access == A::TRANSFER_WRITE {
                Some((|l| allowed(l, false), "TRANSFER_DST_OPTIMAL or GENERAL"))
            } else {
                None
            }
        }
        Stage::ComputeShader
        | Stage::VertexShader
        | Stage::TessellationControlShader
        | Stage::TessellationEvaluationShader
        | Stage::GeometryShader
        | Stage::FragmentShader => {
            if access == A::SHADER_STORAGE_READ || access == A::SHADER_STORAGE_WRITE {
                Some((|l| l == ImageLayout::GENERAL, "GENERAL (a storage image)"))
            } else if access == A::SHADER_SAMPLED_READ {
                Some((
                    ImageLayout::sampled_ok,
                    "GENERAL or a read-only layout (SHADER_READ_ONLY_OPTIMAL, READ_ONLY_OPTIMAL, a depth/stencil read-only layout)",
                ))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The rectangle each side of an image-to-image copy region touches
/// ("Copying Data Between Images"), as (offset, extent) of its
/// subresource layers, after the region's rules:
///
/// - the destination's extent is "size-adjusted if the format of the
///   destination image has a different block extent than the format of
///   the source image (e.g. one is a compressed format)": the same number
///   of texel blocks ("Size Compatibility", ⌈A/a⌉ = ⌈X/x⌉). Its offset is
///   in its own texels, as VUID-vkCmdCopyImage-dstOffset-00150 bounds it
///   (the chapter's sentence adjusts `dstOffset` too; every offset the
///   block-alignment rules allow reads the same either way only when the
///   blocks match, and the valid usage, which implementations follow, reads
///   it unadjusted);
/// - between a 3D image and a 2D one, "depth slices in the 3D image
///   correspond to layerCount layers in the 2D image, with an effective
///   depth of 1 used for the 2D image" (VUID-vkCmdCopyImage-srcImage-01791,
///   -dstImage-01792: `extent.depth` is that layer count);
/// - two 2D images copy a depth of 1 (-srcImage-01790) and the same number
///   of layers (-srcImage-08793, counted after `VK_REMAINING_ARRAY_LAYERS`).
///
/// The format rules of an image-to-image copy or a resolve between `s`
/// and `t` for region `r` (review39 found them unchecked), the model
/// having no multi-planar formats and `maintenance8` not assumed:
/// - `vkCmdCopyImage`: the two formats size-compatible ("Color formats
///   with the same texel block size are considered size-compatible"; a
///   depth/stencil format only with itself, the one it is compatible
///   with; VUID-vkCmdCopyImage-srcImage-01548), two compressed formats of
///   one block extent (-srcImage-09247), and the two aspect masks equal
///   (-srcImage-01551);
/// - `vkCmdResolveImage`: the same format (-srcImage-01386), and a source
///   that can be multisampled ("srcImage must have a sample count
///   greater than VK_SAMPLE_COUNT_1_BIT", -srcImage-00257, and an image of
///   more than one sample is 2D, of one mip level and optimal tiling,
///   VUID-VkImageCreateInfo-samples-02257: the trace has no sample count,
///   so a source that cannot have more than one is refused).
fn image_pair_formats(
    call: &'static str,
    s: &ImageDesc,
    t: &ImageDesc,
    r: &ImageCopyRegion,
) -> Result<(), (String, &'static str)> {
    let (sf, tf) = (s.format, t.format);
    if call == "vkCmdResolveImage" {
        if sf != tf {
            return Err((
                format!(
                    "srcImage's format {} and dstImage's {} differ",
                    sf.name(),
                    tf.name()
                ),
                "VUID-vkCmdResolveImage-srcImage-01386",
            ));
        }
        let single = if s.mips > 1 {
            Some(format!("{} mip levels", s.mips))
        } else if s.extent[2] > 1 {
            Some("a 3D image".to_string())
        } else if s.tiling == Tiling::Linear {
            Some("linear tiling".to_string())
        } else {
            None
        };
        if let Some(why) = single {
            return Err((
                format!(
                    "srcImage has {why}, so it has one sample (an image of more samples is 2D, of one mip level and \
                     optimal tiling: VUID-VkImageCreateInfo-samples-02257), and a resolve's source has more"
                ),
                "VUID-vkCmdResolveImage-srcImage-00257",
            ));
        }
        return Ok(());
    }
    let (si, ti) = (sf.info(), tf.info());
    let compatible = if sf.is_color() && tf.is_color() {
        si.aspects.len() == 1 && ti.aspects.len() == 1 && si.aspects[0].1 == ti.aspects[0].1
    } else {
        sf == tf
    };
    if !compatible {
        return Err((
            format!(
                "srcImage's format {} and dstImage's {} are not size-compatible (color formats of one texel block size; a \
                 depth/stencil format only with itself)",
                sf.name(),
                tf.name()
            ),
            "VUID-vkCmdCopyImage-srcImage-01548",
        ));
    }
    if si.block != (1, 1) && ti.block != (1, 1) && si.block != ti.block {
        return Err((
            format!(
                "srcImage's format {} and dstImage's {} are compressed with different texel block extents",
                sf.name(),
                tf.name()
            ),
            "VUID-vkCmdCopyImage-srcImage-09247",
        ));
    }
    if r.src_subresource.aspects != r.dst_subresource.aspects {
        return Err((
            format!(
                "srcSubresource's aspects {} and dstSubresource's {} differ",
                r.src_subresource.aspects, r.dst_subresource.aspects
            ),
            "VUID-vkCmdCopyImage-srcImage-01551",
        ));
    }
    Ok(())
}

/// A 3D image is one whose depth is more than 1 (a 3D image of depth 1
/// addresses as a 2D one).
#[allow(clippy::type_complexity)]
pub(crate) fn copy_image_boxes(
    call: &'static str,
    s: &ImageDesc,
    t: &ImageDesc,
    r: &ImageCopyRegion,
) -> Result<(([u32; 3], [u32; 3]), ([u32; 3], [u32; 3])), ImageError> {
    let (s3, t3) = (s.extent[2] > 1, t.extent[2] > 1);
    let layers = |d: &ImageDesc, sub: SubresourceLayers| {
        d.resolve_range(sub.range()).ok().map(|(_, _, _, l0, l1)| l1 - l0)
    };
    let bad = |what: String, vuid| ImageError::CopyImage { call, what, vuid };
    image_pair_formats(call, s, t, r).map_err(|(what, vuid)| bad(what, vuid))?;
    let e = r.extent;
    let (mut src_extent, mut dst_depth) = (e, e[2]);
    match (s3, t3) {
        (false, true) => {
            if let Some(n) = layers(s, r.src_subresource).filter(|&n| n != e[2]) {
                return Err(bad(
                    format!("srcImage is 2D and dstImage 3D: extent.depth {} must equal srcSubresource.layerCount {n}", e[2]),
                    "VUID-vkCmdCopyImage-srcImage-01791",
                ));
            }
            src_extent[2] = 1;
        }
        (true, false) => {
            if let Some(n) = layers(t, r.dst_subresource).filter(|&n| n != e[2]) {
                return Err(bad(
                    format!("srcImage is 3D and dstImage 2D: extent.depth {} must equal dstSubresource.layerCount {n}", e[2]),
                    "VUID-vkCmdCopyImage-dstImage-01792",
                ));
            }
            dst_depth = 1;
        }
        (false, false) => {
            if e[2] != 1 {
                return Err(bad(
                    format!("both images are 2D: extent.depth {} must be 1", e[2]),
                    "VUID-vkCmdCopyImage-srcImage-01790",
                ));
            }
            if let (Some(a), Some(b)) = (layers(s, r.src_subresource), layers(t, r.dst_subresource)) {
                if a != b {
                    return Err(bad(
                        format!("srcSubresource's {a} layers and dstSubresource's {b} must match"),
                        "VUID-vkCmdCopyImage-srcImage-08793",
                    ));
                }
            }
        }
        (true, true) => {}
    }
    let ((sw, sh), (dw, dh)) = (s.format.info().block, t.format.info().block);
    let (src_block, dst_block) = ([sw, sh, 1], [dw, dh, 1]);
    let (axis, dim) = (["x", "y", "z"], ["width", "height", "depth"]);
    // Offsets and the source's extent in whole texel blocks but at the
    // source's edge (the destination's extent is derived below).
    let src_edge = s.mip_extent(r.src_subresource.mip);
    match block_misaligned(src_block, r.src_offset, Some(src_extent), src_edge) {
        Some((n, false)) => {
            return Err(bad(
                format!(
                    "srcOffset.{} {} is not a multiple of the texel block {} of {}, {}",
                    axis[n],
                    r.src_offset[n],
                    dim[n],
                    s.format.name(),
                    src_block[n]
                ),
                [
                    "VUID-vkCmdCopyImage-pRegions-07278",
                    "VUID-vkCmdCopyImage-pRegions-07279",
                    "VUID-vkCmdCopyImage-pRegions-07280",
                ][n],
            ))
        }
        Some((n, true)) => {
            return Err(bad(
                format!(
                    "extent.{} {} is not a multiple of the texel block {} of {}, {}, and the region does not reach \
                     srcSubresource's edge",
                    dim[n],
                    src_extent[n],
                    dim[n],
                    s.format.name(),
                    src_block[n]
                ),
                [
                    "VUID-vkCmdCopyImage-srcImage-01728",
                    "VUID-vkCmdCopyImage-srcImage-01729",
                    "VUID-vkCmdCopyImage-srcImage-01730",
                ][n],
            ))
        }
        None => {}
    }
    let dst_edge = t.mip_extent(r.dst_subresource.mip);
    if let Some((n, _)) = block_misaligned(dst_block, r.dst_offset, None, dst_edge) {
        return Err(bad(
            format!(
                "dstOffset.{} {} is not a multiple of the texel block {} of {}, {}",
                axis[n],
                r.dst_offset[n],
                dim[n],
                t.format.name(),
                dst_block[n]
            ),
            [
                "VUID-vkCmdCopyImage-pRegions-07281",
                "VUID-vkCmdCopyImage-pRegions-07282",
                "VUID-vkCmdCopyImage-pRegions-07283",
            ][n],
        ));
    }
    // The destination's extent is the source's, "size-adjusted" only when
    // the two formats' block extents differ: then any extent of as many
    // destination blocks (`ceil(A/a) = ceil(X/x)`, "Size Compatibility"),
    // which is the whole blocks, or the part up to the destination's
    // edge where the last block crosses it (a compressed tail mip
    // smaller than a block, filled from uncompressed texels).
    let adjust = |n: usize| -> u32 {
        if src_block[n] == dst_block[n] {
            return e[n];
        }
        let count = e[n].div_ceil(src_block[n]);
        let whole = count.saturating_mul(dst_block[n]);
        let to_edge = dst_edge[n].saturating_sub(r.dst_offset[n]);
        if to_edge < whole && to_edge.div_ceil(dst_block[n]) == count {
            to_edge
        } else {
            whole
        }
    };
    let dst_extent = [adjust(0), adjust(1), dst_depth];
    Ok(((r.src_offset, src_extent), (r.dst_offset, dst_extent)))
}

impl ImageCommand {
    /// Checks `op` against `program`'s images and computes its accesses.
    pub fn new(program: &Program, op: ImageOp) -> Result<ImageCommand, ImageError> {
        let call = op.vulkan_name();
        let (read, write) = op.stage_accesses();
        let vuids = op.layout_vuids();
        let image = |id: ObjectId| -> Result<&ImageDesc, ImageError> {
            program.image(id).ok_or_else(|| ImageError::NotAnImage {
                name: program.object(id).map_or("?".into(), |o| o.name.clone()),
            })
        };
        let name = |id: ObjectId| program.object(id).map_or("?".to_string(), |o| o.name.clone());
        let sub_err = |what: String, id: ObjectId| {
            move |reason: String| ImageError::BadSubresource {
                call: call.to_string(),
                what,
                image: name(id),
                reason,
            }
        };
        let layout_ok = |layout: ImageLayout, src: bool, what: &'static str, vuid: &'static str| {
            if allowed(layout, src) {
                Ok(())
            } else {
                Err(ImageError::LayoutNotAllowed {
                    call,
                    what,
                    layout,
                    allowed: if src {
                        "TRANSFER_SRC_OPTIMAL or GENERAL"
                    } else {
                        "TRANSFER_DST_OPTIMAL or GENERAL"
                    },
                    vuid,
                })
            }
        };
        let mut reads = Vec::new();
        let mut writes = Vec::new();
        let add = |out: &mut Vec<(Region, StageAccess)>, object: ObjectId, ranges: Vec<ByteRange>, sa| {
            out.extend(ranges.into_iter().map(|range| (Region { object, range }, sa)));
        };
        match &op {
            ImageOp::CopyBufferToImage {
                buffer,
                image: img,
                layout,
                regions,
            }
            | ImageOp::CopyImageToBuffer {
                image: img,
                layout,
                buffer,
                regions,
            } => {
                let to_image = matches!(op, ImageOp::CopyBufferToImage { .. });
                let d = image(*img)?;
                if to_image {
                    layout_ok(*layout, false, "dstImageLayout", vuids[1])?;
                } else {
                    layout_ok(*layout, true, "srcImageLayout", vuids[0])?;
                }
                let size = program.object(*buffer).map_or(0, |o| o.size);
                for (index, r) in regions.iter().enumerate() {
                    buffer_image_alignment(d, r, to_image)
                        .map_err(sub_err(format!("pRegions[{index}]"), *img))?;
                    let img_bytes = d
                        .rect_ranges(r.subresource, r.offset, r.extent)
                        .map_err(sub_err(format!("pRegions[{index}].imageSubresource"), *img))?;
                    let buf_bytes =
                        buffer_ranges(d, r).map_err(sub_err(format!("pRegions[{index}]"), *img))?;
                    let end = buf_bytes.iter().map(|b| b.end).max().unwrap_or(0);
                    if end > size {
                        return Err(ImageError::BufferBytesOutOfBounds {
                            call,
                            index,
                            buffer: name(*buffer),
                            range: ByteRange::new(buf_bytes[0].start, end),
                            size,
                            vuid: if to_image {
                                "VUID-vkCmdCopyBufferToImage-pRegions-00171"
                            } else {
                                "VUID-vkCmdCopyImageToBuffer-pRegions-00183"
                            },
                        });
                    }
                    if to_image {
                        add(&mut reads, *buffer, buf_bytes, read);
                        add(&mut writes, *img, img_bytes, write);
                    } else {
                        add(&mut reads, *img, img_bytes, read);
                        add(&mut writes, *buffer, buf_bytes, write);
                    }
                }
            }
            ImageOp::CopyImage { src, dst, regions } | ImageOp::ResolveImage { src, dst, regions } => {
                let (s, t) = (image(src.0)?, image(dst.0)?);
                layout_ok(src.1, true, "srcImageLayout", vuids[0])?;
                layout_ok(dst.1, false, "dstImageLayout", vuids[1])?;
                for (index, r) in regions.iter().enumerate() {
                    let ((so, se), (to, te)) = copy_image_boxes(call, s, t, r)?;
                    let a = s
                        .rect_ranges(r.src_subresource, so, se)
                        .map_err(sub_err(format!("pRegions[{index}].srcSubresource"), src.0))?;
                    let b = t
                        .rect_ranges(r.dst_subresource, to, te)
                        .map_err(sub_err(format!("pRegions[{index}].dstSubresource"), dst.0))?;
                    add(&mut reads, src.0, a, read);
                    add(&mut writes, dst.0, b, write);
                }
            }
            ImageOp::BlitImage {
                src,
                dst,
                regions,
                filter,
            } => {
                let (s, t) = (image(src.0)?, image(dst.0)?);
                layout_ok(src.1, true, "srcImageLayout", vuids[0])?;
                layout_ok(dst.1, false, "dstImageLayout", vuids[1])?;
                blit_rules(s, t, regions, *filter, &name(src.0), &name(dst.0))?;
                for (index, r) in regions.iter().enumerate() {
                    // The region as written, checked against the source
                    // mip whatever the filter (review37: the checks ran on
                    // the box the filter grows, so an empty or out-of-range
                    // region passed with LINEAR and an error named offsets
                    // the user had not written).
                    let (ro, re) = blit_box(r.src_offsets);
                    s.rect_ranges(r.src_subresource, ro, re)
                        .map_err(sub_err(format!("pRegions[{index}].srcOffsets"), src.0))?;
                    // The texels the filter may read ([`Filter::reach`]).
                    let (so, se) = blit_read_box(s, r, *filter);
                    let (to, te) = blit_box(r.dst_offsets);
                    let a = s
                        .rect_ranges(r.src_subresource, so, se)
                        .map_err(sub_err(format!("pRegions[{index}].srcOffsets"), src.0))?;
                    let b = t
                        .rect_ranges(r.dst_subresource, to, te)
                        .map_err(sub_err(format!("pRegions[{index}].dstOffsets"), dst.0))?;
                    add(&mut reads, src.0, a, read);
                    add(&mut writes, dst.0, b, write);
                }
            }
            ImageOp::ClearColorImage {
                image: img,
                layout,
                ranges,
            }
            | ImageOp::ClearDepthStencilImage {
                image: img,
                layout,
                ranges,
            } => {
                let d = image(*img)?;
                layout_ok(*layout, false, "imageLayout", vuids[1])?;
                let color = matches!(op, ImageOp::ClearColorImage { .. });
                if color && d.format.info().block != (1, 1) {
                    return Err(sub_err("format".into(), *img)(format!(
                        "{} is a compressed format, which a color clear does not take \
                         (VUID-vkCmdClearColorImage-image-00007: image must not have a compressed or depth/stencil format)",
                        d.format.name()
                    )));
                }
                for (index, r) in ranges.iter().enumerate() {
                    let what = format!("pRanges[{index}]");
                    if color != (r.aspects == AspectMask::of(Aspect::Color)) {
                        let reason = if color {
                            "a color clear names the COLOR aspect only (VUID-vkCmdClearColorImage-aspectMask-02498)"
                        } else {
                            "a depth/stencil clear names DEPTH and/or STENCIL only (VUID-vkCmdClearDepthStencilImage-aspectMask-02824)"
                        };
                        return Err(sub_err(what, *img)(reason.into()));
                    }
                    let bytes = d.texel_bytes(*r).map_err(sub_err(what, *img))?;
                    add(&mut writes, *img, bytes, write);
                }
            }
        }
        reads.extend(writes);
        Ok(ImageCommand { op, accesses: reads })
    }

    /// Its accesses, reads first.
    pub fn accesses(&self) -> &[(Region, StageAccess)] {
        &self.accesses
    }

    /// For a copy or a resolve, each region's exact bytes, for the rule
    /// that its source and destination regions do not overlap in memory
    /// (`crate::ir::layout`'s `copy_overlap`): the source's (object,
    /// ranges) and the destination's. A region over more than
    /// [`OVERLAP_ROWS`] block rows on a side is `None` (not checked: a
    /// widened range could refuse a valid copy). For a blit the source
    /// side is the texels it certainly samples (below). `None` for a clear.
    #[allow(clippy::type_complexity)]
    pub(crate) fn copy_region_bytes(
        &self,
        program: &Program,
    ) -> Option<Vec<Option<[(ObjectId, Vec<ByteRange>); 2]>>> {
        let exact = |r: Result<(Vec<ByteRange>, bool), String>| r.ok().filter(|(_, e)| *e).map(|(v, _)| v);
        match &self.op {
            ImageOp::CopyBufferToImage {
                buffer,
                image,
                regions,
                ..
            }
            | ImageOp::CopyImageToBuffer {
                image,
                buffer,
                regions,
                ..
            } => {
                let to_image = matches!(self.op, ImageOp::CopyBufferToImage { .. });
                let d = program.image(*image)?;
                let per = regions
                    .iter()
                    .map(|r| {
                        let img = exact(d.rect_rows(r.subresource, r.offset, r.extent, OVERLAP_ROWS))?;
                        let buf = exact(buffer_rows(d, r, OVERLAP_ROWS))?;
                        Some(if to_image {
                            [(*buffer, buf), (*image, img)]
                        } else {
                            [(*image, img), (*buffer, buf)]
                        })
                    })
                    .collect();
                Some(per)
            }
            ImageOp::CopyImage { src, dst, regions } | ImageOp::ResolveImage { src, dst, regions } => {
                let (s, t) = (program.image(src.0)?, program.image(dst.0)?);
                let call = self.op.vulkan_name();
                let per = regions
                    .iter()
                    .map(|r| {
                        let ((so, se), (to, te)) = copy_image_boxes(call, s, t, r).ok()?;
                        let a = exact(s.rect_rows(r.src_subresource, so, se, OVERLAP_ROWS))?;
                        let b = exact(t.rect_rows(r.dst_subresource, to, te, OVERLAP_ROWS))?;
                        Some([(src.0, a), (dst.0, b)])
                    })
                    .collect();
                Some(per)
            }
            // VUID-vkCmdBlitImage-pRegions-00217: the destinations must not
            // overlap "any texel that may be sampled". Where no axis
            // shrinks (each destination extent at least the source's),
            // every texel of the source box is sampled whatever the
            // filter: NEAREST's sample points, one per destination texel,
            // are at most one source texel apart and start within half a
            // texel of each end. A shrinking region samples a subset
            // only, which the model does not compute: its source is not
            // checked (its destination still is, against the others').
            ImageOp::BlitImage {
                src, dst, regions, ..
            } => {
                let (s, t) = (program.image(src.0)?, program.image(dst.0)?);
                let per = regions
                    .iter()
                    .map(|r| {
                        let (so, se) = blit_box(r.src_offsets);
                        let (to, te) = blit_box(r.dst_offsets);
                        let b = exact(t.rect_rows(r.dst_subresource, to, te, OVERLAP_ROWS))?;
                        let a = if (0..3).all(|i| te[i] >= se[i]) {
                            exact(s.rect_rows(r.src_subresource, so, se, OVERLAP_ROWS))?
                        } else {
                            Vec::new()
                        };
                        Some([(src.0, a), (dst.0, b)])
                    })
                    .collect();
                Some(per)
            }
            ImageOp::ClearColorImage { .. } | ImageOp::ClearDepthStencilImage { .. } => None,
        }
    }

    /// The subresources it uses with the layout it names, for the layout
    /// rules: (image, range, layout, operand, VUID).
    fn uses(&self) -> Vec<(ObjectId, SubresourceRange, ImageLayout, &'static str)> {
        let vuids = self.op.layout_vuids();
        match &self.op {
            ImageOp::CopyBufferToImage {
                image,
                layout,
                regions,
                ..
            } => regions
                .iter()
                .map(|r| (*image, r.subresource.range(), *layout, vuids[3]))
                .collect(),
            ImageOp::CopyImageToBuffer {
                image,
                layout,
                regions,
                ..
            } => regions
                .iter()
                .map(|r| (*image, r.subresource.range(), *layout, vuids[2]))
                .collect(),
            ImageOp::CopyImage { src, dst, regions } | ImageOp::ResolveImage { src, dst, regions } => regions
                .iter()
                .flat_map(|r| {
                    [
                        (src.0, r.src_subresource.range(), src.1, vuids[2]),
                        (dst.0, r.dst_subresource.range(), dst.1, vuids[3]),
                    ]
                })
                .collect(),
            ImageOp::BlitImage {
                src, dst, regions, ..
            } => regions
                .iter()
                .flat_map(|r| {
                    [
                        (src.0, r.src_subresource.range(), src.1, vuids[2]),
                        (dst.0, r.dst_subresource.range(), dst.1, vuids[3]),
                    ]
                })
                .collect(),
            ImageOp::ClearColorImage {
                image,
                layout,
                ranges,
            }
            | ImageOp::ClearDepthStencilImage {
                image,
                layout,
                ranges,
            } => ranges.iter().map(|r| (*image, *r, *layout, vuids[3])).collect(),
        }
    }
}

/// The subresource range of a dispatch's image view binding over
/// `region` (one contiguous byte range of the notional layout, as
/// [`view_region`] made it): the inverse of [`view_region`].
pub fn view_range(desc: &ImageDesc, region: ByteRange) -> Option<SubresourceRange> {
    let (a, m0, l0) = desc.subresource_at(region.start)?;
    let (a1, m1, l1) = desc.subresource_at(region.end.checked_sub(1)?)?;
    if a != a1 {
        return None;
    }
    let all_layers = m0 != m1 || (l0 == 0 && l1 + 1 == desc.layers);
    let r = SubresourceRange {
        aspects: AspectMask::of(a),
        base_mip: m0,
        mip_count: Some(m1 - m0 + 1),
        base_layer: if all_layers && m0 != m1 { 0 } else { l0 },
        layer_count: Some(if all_layers && m0 != m1 {
            desc.layers
        } else {
            l1 - l0 + 1
        }),
    };
    Some(r)
}

/// The one byte range of a view binding's subresource range: one aspect,
/// and one mip or all layers ([`ImageError::ViewNotContiguous`]
/// otherwise).
pub fn view_region(
    desc: &ImageDesc,
    index: usize,
    image: &str,
    r: SubresourceRange,
) -> Result<ByteRange, ImageError> {
    let not = || ImageError::ViewNotContiguous {
        index,
        image: image.to_string(),
        range: r,
    };
    let bytes = desc.range_bytes(r).map_err(|reason| ImageError::BadSubresource {
        call: "vkCmdDispatch".into(),
        what: format!("binding {index}"),
        image: image.to_string(),
        reason,
    })?;
    if r.aspects.count() != 1 || bytes.len() != 1 {
        return Err(not());
    }
    Ok(bytes[0])
}

/// Per-subresource layout state: one layout per (plane, mip, layer) of
/// every image, its declared initial layout at first (`initialLayout`,
/// [`ImageDesc::initial`]).
struct LayoutState {
    layouts: Vec<Vec<ImageLayout>>,
    /// The command whose transition set each layout (`None`: the
    /// initial one), to name an unordered one on a mismatch.
    set_by: Vec<Vec<Option<usize>>>,
    /// The `(oldLayout, newLayout)` of the release of each subresource
    /// (image slot, index) whose acquire has not executed yet, and the
    /// family it was released to.
    released: std::collections::HashMap<(usize, usize), ((ImageLayout, ImageLayout), u32)>,
    /// Each subresource (image slot, index) a `vkCmdSetEvent2` transitioned
    /// and whose wait has not executed yet: the event, the transition's
    /// `(oldLayout, newLayout)`. Only to name the set in a mismatch there.
    in_event: std::collections::HashMap<(usize, usize), (super::event::EventId, ImageLayout, ImageLayout)>,
}

impl LayoutState {
    fn index(d: &ImageDesc, a: Aspect, m: u32, l: u32) -> usize {
        let plane = d.format.aspect_mask().aspects().position(|p| p == a).unwrap_or(0);
        (plane * d.mips as usize + m as usize) * d.layers as usize + l as usize
    }
}

/// Every subresource (aspect, mip, layer) of a range (validated).
fn subresources(d: &ImageDesc, r: SubresourceRange) -> Vec<(Aspect, u32, u32)> {
    let Ok((aspects, m0, m1, l0, l1)) = d.resolve_range(r) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for a in aspects.aspects() {
        for m in m0..m1 {
            for l in l0..l1 {
                out.push((a, m, l));
            }
        }
    }
    out
}

/// The layout rules along execution order ("Image Layouts"; recorded
/// commands run at their batch's submit): each image barrier's
/// `oldLayout` is `UNDEFINED` or the current layout of every subresource
/// of its range, and sets `newLayout`; each image command and view
/// binding uses its subresources in their current layout. An acquire of
/// a queue family ownership transfer whose release already made the
/// transition (its subresources are in `newLayout`) does not make it
/// again: the transition happens once.
///
/// Events: a `vkCmdSetEvent2`'s barriers transition at the set (its
/// second synchronization scope includes "image layout transitions
/// defined by pDependencyInfo"), so the layout is `newLayout` from the
/// set on, and its `vkCmdWaitEvents2` changes nothing; a `vkCmdWaitEvents`
/// barrier transitions at the wait, as a pipeline barrier. Between the set
/// and its wait the transition is unordered with the commands recorded
/// there (unless an `ALL_COMMANDS` first scope holds it): a use there in
/// `newLayout` is left to the hazard checkers (it races the transition's
/// write unless ordered after it), one in another layout is
/// [`ImageError::LayoutInEventTransition`] (it is wrong whether the
/// transition happened or not). Another transition of the subresource
/// there sees `newLayout`: transitions of one queue execute in
/// submission order.
pub(crate) fn check_layouts(program: &Program) -> Result<(), ProgramError> {
    if program.images.is_empty() || program.layouts_unchecked {
        return Ok(());
    }
    let mut state = LayoutState {
        layouts: program
            .images
            .iter()
            .map(|d| {
                let n = d.format.aspect_mask().count() as usize * d.mips as usize * d.layers as usize;
                vec![d.initial; n]
            })
            .collect(),
        set_by: program
            .images
            .iter()
            .map(|d| {
                vec![None; d.format.aspect_mask().count() as usize * d.mips as usize * d.layers as usize]
            })
            .collect(),
        released: std::collections::HashMap::new(),
        in_event: std::collections::HashMap::new(),
    };
    let queues = program.command_queues();
    let slot = |id: ObjectId| program.image_slot(id);
    for ci in super::execution::order_after_signals(program) {
        let err = |e: ImageError| ProgramError {
            at: Location::Command(ci),
            kind: ProgramErrorKind::Image(Box::new(e)),
        };
        // A mismatch where another queue's transition of the subresource
        // is unordered with this command: the layout is not determined,
        // which names the pair better than either order's mismatch.
        // Between a `vkCmdSetEvent2` that transitions the subresource and
        // its wait, the set's transition is named instead of the mismatch.
        let mismatch = |i: usize,
                        (a, m, l): (Aspect, u32, u32),
                        state: &LayoutState,
                        named: ImageLayout,
                        e: ImageError| {
            let d = &program.images[i];
            let set_by = state.set_by[i][LayoutState::index(d, a, m, l)];
            let in_event = state.in_event.get(&(i, LayoutState::index(d, a, m, l)));
            match unordered_transition(program, &queues, ci, i, (a, m, l), set_by) {
                Some(other) => err(ImageError::LayoutUndetermined {
                    call: program.commands[ci].vulkan_name(),
                    queue: program.queue_name(queues[ci]).to_string(),
                    image: program.obj(d.object).name.clone(),
                    aspect: a.name(),
                    mip: m,
                    layer: l,
                    other: format!(
                        "{} on queue `{}`",
                        program.commands[other].vulkan_name(),
                        program.queue_name(queues[other])
                    ),
                    other_command: other,
                }),
                None => match in_event {
                    Some(&(event, old, new)) => err(ImageError::LayoutInEventTransition {
                        call: program.commands[ci].vulkan_name(),
                        image: program.obj(d.object).name.clone(),
                        aspect: a.name(),
                        mip: m,
                        layer: l,
                        named,
                        event: program.event_name(event).to_string(),
                        old,
                        new,
                    }),
                    None => err(e),
                },
            }
        };
        let c = &program.commands[ci];
        let check_relaxed = |image: ObjectId,
                             r: SubresourceRange,
                             named: ImageLayout,
                             call: &'static str,
                             vuid,
                             state: &LayoutState,
                             descriptor: bool| {
            let Some(i) = slot(image) else { return Ok(()) };
            let d = &program.images[i];
            let single = descriptor && d.format.aspect_mask().count() == 2 && r.aspects.count() == 1;
            for (a, m, l) in subresources(d, r) {
                // Released and not acquired: its layout is undefined
                // ("Queue Family Ownership Transfer"), whatever it names.
                if let Some(&(_, to)) = state.released.get(&(i, LayoutState::index(d, a, m, l))) {
                    return Err(err(ImageError::UseAfterRelease {
                        call: call.to_string(),
                        image: program.obj(image).name.clone(),
                        aspect: a.name(),
                        mip: m,
                        layer: l,
                        to,
                    }));
                }
                let current = state.layouts[i][LayoutState::index(d, a, m, l)];
                if current != named && !(single && single_aspect_layouts_match(a, current, named)) {
                    return Err(mismatch(
                        i,
                        (a, m, l),
                        state,
                        named,
                        ImageError::WrongLayout {
                            call,
                            image: program.obj(image).name.clone(),
                            aspect: a.name(),
                            mip: m,
                            layer: l,
                            named,
                            current,
                            vuid,
                        },
                    ));
                }
            }
            Ok(())
        };
        let check = |image, r, named, call, vuid, state: &LayoutState| {
            check_relaxed(image, r, named, call, vuid, state, false)
        };
        match c {
            // Each barrier of a `vkCmdSetEvent2` transitions at the set, of a
            // `vkCmdWaitEvents` at the wait (function docs).
            Command::Barrier(dep)
            | Command::SetEvent { dependency: dep, .. }
            | Command::WaitEvents1 { dependency: dep, .. } => {
                let family = program.queue_family(queues[ci]);
                let mut sets = Vec::new();
                let (mut released, mut acquired) = (Vec::new(), Vec::new());
                for (index, b) in dep.barriers.iter().enumerate() {
                    let Some((ib, 0)) = program.image_barrier_part(b) else {
                        continue;
                    };
                    let Some(i) = slot(ib.image) else { continue };
                    let d = &program.images[i];
                    let subs = subresources(d, ib.range);
                    let at = |(a, m, l): (Aspect, u32, u32)| state.layouts[i][LayoutState::index(d, a, m, l)];
                    let role = super::access::ownership_role(b, family);
                    let acquire = matches!(role, Some(super::access::OwnershipRole::Acquire));
                    // "the values of oldLayout and newLayout in the release
                    // operation's memory barrier must be equal to values of
                    // oldLayout and newLayout in the acquire operation's
                    // memory barrier" ("Queue Family Ownership Transfer").
                    if acquire {
                        let pair = (ib.old_layout, ib.new_layout);
                        for s in &subs {
                            let k = (i, LayoutState::index(d, s.0, s.1, s.2));
                            if let Some((released, _)) = state.released.get(&k).copied() {
                                if released != pair {
                                    return Err(err(ImageError::OwnershipLayouts {
                                        index,
                                        image: program.obj(ib.image).name.clone(),
                                        aspect: s.0.name(),
                                        mip: s.1,
                                        layer: s.2,
                                        release: released,
                                        acquire: pair,
                                    }));
                                }
                            }
                        }
                        let paired = subs.iter().all(|s| {
                            state
                                .released
                                .contains_key(&(i, LayoutState::index(d, s.0, s.1, s.2)))
                        });
                        acquired.extend(subs.iter().map(|s| (i, LayoutState::index(d, s.0, s.1, s.2))));
                        if paired || subs.iter().all(|s| at(*s) == ib.new_layout) {
                            continue;
                        }
                    }
                    if let (Some(super::access::OwnershipRole::Release), Some(t)) = (role, b.transfer()) {
                        released.extend(subs.iter().map(|s| {
                            (
                                (i, LayoutState::index(d, s.0, s.1, s.2)),
                                ((ib.old_layout, ib.new_layout), t.dst_queue_family),
                            )
                        }));
                    }
                    // oldLayout binds only a transition or an ownership
                    // transfer (VUID-VkImageMemoryBarrier2-oldLayout-01197);
                    // a barrier with equal layouts and no transfer is a
                    // memory barrier of the range and changes no layout.
                    if ib.old_layout == ib.new_layout && b.transfer().is_none() {
                        continue;
                    }
                    // "After a release operation is performed, the contents
                    // and image layout (if applicable) of the released
                    // resource are undefined until a matching acquire
                    // operation is performed": another transition of it must
                    // start from UNDEFINED (which abandons the release).
                    for s in &subs {
                        let k = (i, LayoutState::index(d, s.0, s.1, s.2));
                        match state.released.get(&k) {
                            Some(&(_, to)) if ib.old_layout != ImageLayout::UNDEFINED => {
                                return Err(err(ImageError::UseAfterRelease {
                                    call: format!("barrier {index}"),
                                    image: program.obj(ib.image).name.clone(),
                                    aspect: s.0.name(),
                                    mip: s.1,
                                    layer: s.2,
                                    to,
                                }));
                            }
                            Some(_) => acquired.push(k),
                            None => {}
                        }
                    }
                    for s in &subs {
                        let current = at(*s);
                        if ib.old_layout != ImageLayout::UNDEFINED && ib.old_layout != current {
                            return Err(mismatch(
                                i,
                                *s,
                                &state,
                                ib.old_layout,
                                ImageError::WrongOldLayout {
                                    index,
                                    image: program.obj(ib.image).name.clone(),
                                    aspect: s.0.name(),
                                    mip: s.1,
                                    layer: s.2,
                                    old: ib.old_layout,
                                    current,
                                },
                            ));
                        }
                    }
                    sets.push((i, subs, ib.old_layout, ib.new_layout));
                }
                for k in acquired {
                    state.released.remove(&k);
                }
                state.released.extend(released);
                // Barriers of one call apply together: every check sees
                // the layouts from before the call.
                let set_event = match c {
                    Command::SetEvent { event, .. } => Some(*event),
                    _ => None,
                };
                for (i, subs, old, new) in sets {
                    let d = &program.images[i];
                    for (a, m, l) in subs {
                        let k = LayoutState::index(d, a, m, l);
                        state.layouts[i][k] = new;
                        state.set_by[i][k] = Some(ci);
                        match set_event {
                            Some(e) => state.in_event.insert((i, k), (e, old, new)),
                            None => state.in_event.remove(&(i, k)),
                        };
                    }
                }
            }
            // The wait ends what its sets' transitions left undetermined.
            Command::WaitEvents { waits } => {
                state
                    .in_event
                    .retain(|_, (e, _, _)| !waits.iter().any(|w| w.event == *e));
            }
            Command::Image(ic) => {
                for (image, r, layout, vuid) in ic.uses() {
                    check(image, r, layout, ic.op.vulkan_name(), vuid, &state)?;
                }
            }
            // "imageLayout is the layout that imageView will be in during
            // rendering" (VkRenderingAttachmentInfo): an attachment layout
            // and the subresources' current one.
            // A render pass instance: its views are in each attachment's
            // initialLayout when it begins (any layout for UNDEFINED, whose
            // contents are discarded) and in its finalLayout after it ends
            // (`crate::ir::renderpass`).
            Command::Render(rc)
                if matches!(
                    rc.op,
                    super::render::RenderOp::BeginPass(_)
                        | super::render::RenderOp::EndPass
                        | super::render::RenderOp::NextSubpass
                ) =>
            {
                let (pass, subpass) = match &rc.op {
                    super::render::RenderOp::BeginPass(b) => (Some(b), 0),
                    _ => match super::renderpass::open_pass(&program.commands, ci) {
                        Some((_, b, s, _)) => (Some(b), s + 1),
                        None => (None, 0),
                    },
                };
                let Some(b) = pass else { continue };
                let Some(rp) = program.render_passes().get(b.pass.0 as usize) else {
                    continue;
                };
                if matches!(rc.op, super::render::RenderOp::BeginPass(_)) {
                    for (&(image, range), a) in b.views.iter().zip(&rp.attachments) {
                        if a.initial != ImageLayout::UNDEFINED {
                            check(
                                image,
                                range,
                                a.initial,
                                "vkCmdBeginRenderPass",
                                "initialLayout is the layout the attachment's subresources are in when the render pass instance begins",
                                &state,
                            )?;
                        }
                    }
                }
                // The layouts from here on: into a subpass, those it uses its
                // attachments in (the automatic transitions happen before its
                // commands; a draw's image binding of one of them in a later
                // subpass that does not use it finds them too: review24, the
                // layout from before the instance was asked); at the end,
                // every view's finalLayout.
                let layouts: Vec<(usize, ImageLayout)> = match rc.op {
                    super::render::RenderOp::EndPass => rp
                        .attachments
                        .iter()
                        .enumerate()
                        .map(|(a, d)| (a, d.final_layout))
                        .collect(),
                    _ => rp
                        .subpass_layouts(subpass)
                        .into_iter()
                        .map(|(a, layout)| (a as usize, layout))
                        .collect(),
                };
                for (a, layout) in layouts {
                    let Some(&(image, range)) = b.views.get(a) else {
                        continue;
                    };
                    let Some(i) = slot(image) else { continue };
                    let d = &program.images[i];
                    // With multiview, the layers of the pass's views only
                    // ("the automatic layout transitions apply to the
                    // layers corresponding to views which are used by some
                    // subpass in the render pass").
                    let first = d.resolve_range(range).map_or(0, |r| r.3);
                    let rendered = |l: u32| rp.layers().has(l.saturating_sub(first));
                    for (asp, m, l) in subresources(d, range).into_iter().filter(|s| rendered(s.2)) {
                        state.layouts[i][LayoutState::index(d, asp, m, l)] = layout;
                        state.set_by[i][LayoutState::index(d, asp, m, l)] = Some(ci);
                    }
                }
            }
            Command::Render(rc) => {
                if let super::render::RenderOp::Begin(r) = &rc.op {
                    for (image, range, layout, resolve) in super::render::layout_uses(r) {
                        let color = range.aspects == AspectMask::of(Aspect::Color);
                        if let Some(vuid) =
                            super::render::rendering_layout_refusal(range.aspects, layout, resolve)
                        {
                            return Err(err(ImageError::LayoutNotAllowed {
                                call: "vkCmdBeginRendering",
                                what: match (color, resolve) {
                                    (true, false) => "a color attachment's imageLayout",
                                    (false, false) => "a depth/stencil attachment's imageLayout",
                                    (true, true) => "a color attachment's resolveImageLayout",
                                    (false, true) => "a depth/stencil attachment's resolveImageLayout",
                                },
                                layout,
                                allowed: match (color, resolve) {
                                    (true, _) => "COLOR_ATTACHMENT_OPTIMAL, ATTACHMENT_OPTIMAL or GENERAL",
                                    (false, false) => "a depth/stencil attachment or read-only layout of its aspects, or GENERAL",
                                    (false, true) => "a depth/stencil attachment layout of its aspects, or GENERAL",
                                },
                                vuid,
                            }));
                        }
                        check(
                            image,
                            range,
                            layout,
                            "vkCmdBeginRendering",
                            "the layout of each attachment during rendering: \"Image Layouts\"",
                            &state,
                        )?;
                    }
                }
            }
            _ => {}
        }
        // A dispatch's or a draw's image view bindings.
        let call = match c {
            Command::Render(rc) => rc.op.vulkan_name(),
            _ => "vkCmdDispatch",
        };
        for (image, r, named) in view_bindings(program, c) {
            check_relaxed(image, r, named, call, BINDING_LAYOUT_VUID, &state, true)?;
        }
    }
    Ok(())
}

/// Whether a descriptor of just aspect `aspect` of a depth/stencil image,
/// naming layout `named`, matches a subresource in layout `current` other
/// than `named` ("Image Layout Matching Rules": "Descriptors referring
/// just to the depth aspect of a depth/stencil image only need to match
/// in the image layout of the depth aspect, thus
/// VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL and
/// VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL are
/// considered to match", and for the stencil aspect
/// `DEPTH_STENCIL_READ_ONLY_OPTIMAL` and
/// `DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL`). The pairs the rule
/// names, no others (review39).
fn single_aspect_layouts_match(aspect: Aspect, current: ImageLayout, named: ImageLayout) -> bool {
    use ImageLayout as L;
    let other = match aspect {
        Aspect::Depth => L::DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL,
        Aspect::Stencil => L::DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL,
        _ => return false,
    };
    let pair = [L::DEPTH_STENCIL_READ_ONLY_OPTIMAL, other];
    pair.contains(&current) && pair.contains(&named)
}

/// "imageLayout is the layout that the image subresources accessible from
/// imageView will be in at the time this descriptor is accessed".
const BINDING_LAYOUT_VUID: &str = "VUID-VkDescriptorImageInfo-imageLayout-00344";

/// The image view bindings of a dispatch or a draw: each one's image,
/// subresource range and the layout it names (a storage image's is
/// `GENERAL`); buffer bindings and other commands have none.
fn view_bindings(program: &Program, c: &Command) -> Vec<(ObjectId, SubresourceRange, ImageLayout)> {
    let bindings: Vec<&super::program::Binding> = match c {
        Command::Dispatch { bindings, .. } => bindings.iter().collect(),
        Command::Render(rc) => match &rc.op {
            super::render::RenderOp::Draw(d) => d.bindings.iter().map(|b| &b.binding).collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    bindings
        .into_iter()
        .filter_map(|b| {
            let d = program.image(b.region.object)?;
            let r = view_range(d, b.region.range)?;
            let named = match b.access {
                BindingAccess::SampledImage(l) => l,
                _ => ImageLayout::GENERAL,
            };
            Some((b.region.object, r, named))
        })
        .collect()
}

/// The subresources command `c` uses with the layout it names: an image
/// command's regions, a dispatch's or a draw's image view bindings (what
/// [`check_layouts`] holds each to).
fn named_layouts(program: &Program, c: &Command) -> Vec<(ObjectId, SubresourceRange, ImageLayout)> {
    match c {
        Command::Image(ic) => ic.uses().into_iter().map(|(o, r, l, _)| (o, r, l)).collect(),
        _ => view_bindings(program, c),
    }
}

/// What command `at` names ([`named_layouts`]), and for a command of a
/// rendering instance, the layouts its attachments are in just before
/// the instance begins, where a barrier for it goes (review36: a fix
/// against a load operation or a draw named the attachment's bytes,
/// which the parser refuses for an image): a dynamic instance's
/// attachment layouts (the image is in them when rendering begins), a
/// render pass's `initialLayout`s.
fn layouts_for_barrier_before(
    program: &Program,
    at: usize,
) -> Vec<(ObjectId, SubresourceRange, ImageLayout)> {
    let Some(c) = program.commands.get(at) else {
        return Vec::new();
    };
    let mut out = named_layouts(program, c);
    // A pipeline barrier's image barriers: each subresource is in its
    // `oldLayout` just before (a release whose first scope misses an
    // earlier write, review41: the fix named bytes, which a trace cannot
    // take for an image).
    if let Command::Barrier(dep)
    | Command::SetEvent { dependency: dep, .. }
    | Command::WaitEvents1 { dependency: dep, .. } = c
    {
        out.extend(
            dep.barriers
                .iter()
                .filter_map(|b| program.image_barrier_part(b))
                .filter(|(ib, part)| *part == 0 && ib.old_layout != ImageLayout::UNDEFINED)
                .map(|(ib, _)| (ib.image, ib.range, ib.old_layout)),
        );
    }
    if let Command::Render(rc) = c {
        use super::render::RenderOp;
        let in_pass = matches!(rc.op, RenderOp::BeginPass(_))
            || super::renderpass::open_pass(&program.commands, at).is_some();
        if in_pass {
            out.extend(super::renderpass::layouts_before_pass(program, at));
        } else {
            let r = match &rc.op {
                RenderOp::Begin(r) => Some(r),
                _ => super::render::open_instance(&program.commands, at).map(|(_, r)| r),
            };
            if let Some(r) = r {
                out.extend(
                    super::render::layout_uses(r)
                        .into_iter()
                        .map(|(o, r, l, _)| (o, r, l)),
                );
            }
        }
    }
    out
}

/// The operand of an image memory barrier over `region` of an image, to
/// record just before command `at` in a fix: `NAME RANGE L->L`, the whole
/// subresources the bytes lie in, in the layout `at` uses them in (equal
/// layouts: a memory barrier, no transition), which the trace parser and
/// `vkCmdPipelineBarrier2` take as they are. `None` when the region spans
/// two aspects, or `at` does not name one layout for every subresource of
/// the range (a layout transition, an attachment access): the caller
/// names the bytes instead.
pub(crate) fn barrier_operand(
    program: &Program,
    region: super::program::Region,
    at: usize,
) -> Option<String> {
    let d = program.image(region.object)?;
    let (a, m0, l0) = d.subresource_at(region.range.start)?;
    let (a1, m1, l1) = d.subresource_at(region.range.end.checked_sub(1)?)?;
    if a != a1 {
        return None;
    }
    // Within one mip the layers are contiguous; across mips the bytes
    // cover every layer of the mips between.
    let (base_layer, layers) = if m0 == m1 {
        (l0, l1 - l0 + 1)
    } else {
        (0, d.layers)
    };
    let range = SubresourceRange {
        aspects: AspectMask::of(a),
        base_mip: m0,
        mip_count: Some(m1 - m0 + 1),
        base_layer,
        layer_count: Some(layers),
    };
    let uses = layouts_for_barrier_before(program, at);
    let mut layout = None;
    for (sa, sm, sl) in subresources(d, range) {
        let found = uses.iter().find_map(|(o, r, l)| {
            let (aspects, um0, um1, ul0, ul1) = d.resolve_range(*r).ok()?;
            (*o == region.object && aspects.has(sa) && (um0..um1).contains(&sm) && (ul0..ul1).contains(&sl))
                .then_some(*l)
        })?;
        if *layout.get_or_insert(found) != found {
            return None;
        }
    }
    let layout = layout?;
    let name = &program.object(region.object)?.name;
    Some(format!("{name} {range} {layout}->{layout}"))
}

/// The most commands [`unordered_transition`] asks about: it runs only
/// on a layout mismatch, but each question walks the program.
const UNORDERED_CANDIDATES: usize = 64;

/// A command on another queue than `at` whose layout transition covers
/// subresource `sub` of image slot `i` and that is ordered neither before
/// nor after `at` ([`super::execution::may_happen_before`], an
/// over-approximation: only a pair it cannot order is named): first the
/// one that set the layout `at` finds (`set_by`), then any barrier of the
/// program transitioning it.
fn unordered_transition(
    program: &Program,
    queues: &[super::queue::QueueId],
    at: usize,
    i: usize,
    sub: (Aspect, u32, u32),
    set_by: Option<usize>,
) -> Option<usize> {
    let d = &program.images[i];
    let transitions = |c: &Command| match c {
        Command::Barrier(dep)
        | Command::SetEvent { dependency: dep, .. }
        | Command::WaitEvents1 { dependency: dep, .. } => dep.barriers.iter().any(|b| {
            program.image_barrier_part(b).is_some_and(|(ib, part)| {
                part == 0
                    && ib.image == d.object
                    && (ib.old_layout != ib.new_layout || b.transfer().is_some())
                    && subresources(d, ib.range).contains(&sub)
            })
        }),
        _ => false,
    };
    set_by
        .into_iter()
        .chain(
            program
                .commands
                .iter()
                .enumerate()
                .filter(|&(c, cmd)| c != at && queues[c] != queues[at] && transitions(cmd))
                .map(|(c, _)| c),
        )
        .filter(|&c| queues[c] != queues[at])
        .take(UNORDERED_CANDIDATES)
        .find(|&c| {
            !super::execution::may_happen_before(program, c, at)
                && !super::execution::may_happen_before(program, at, c)
        })
}
