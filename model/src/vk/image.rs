//! Vulkan's image vocabulary: formats (one table with each format's texel
//! block size, block extent and aspects), image aspects and image layouts,
//! with Vulkan's names (without the `VK_FORMAT_`, `VK_IMAGE_ASPECT_` and
//! `VK_IMAGE_LAYOUT_` prefixes) and values.
//!
//! It owns no program state: which layouts a command accepts, and the
//! layout of each subresource along a program, are `crate::ir::image`'s.
//! Invariant: [`FORMATS`] is the one home of per-format facts; every other
//! module asks [`Format::info`].

use std::fmt;

/// `VkImageAspectFlagBits` of a format's planes that the model knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Aspect {
    /// `VK_IMAGE_ASPECT_COLOR_BIT` (1).
    Color,
    /// `VK_IMAGE_ASPECT_DEPTH_BIT` (2).
    Depth,
    /// `VK_IMAGE_ASPECT_STENCIL_BIT` (4).
    Stencil,
}

impl Aspect {
    /// Every aspect, in bit order (the order of an image's notional planes).
    pub const ALL: [Aspect; 3] = [Aspect::Color, Aspect::Depth, Aspect::Stencil];

    /// Its Vulkan bit.
    pub fn bit(self) -> u32 {
        match self {
            Aspect::Color => 1,
            Aspect::Depth => 2,
            Aspect::Stencil => 4,
        }
    }

    /// Its name: `COLOR`, `DEPTH` or `STENCIL`.
    pub fn name(self) -> &'static str {
        match self {
            Aspect::Color => "COLOR",
            Aspect::Depth => "DEPTH",
            Aspect::Stencil => "STENCIL",
        }
    }

    /// The aspect of a name.
    pub fn parse(name: &str) -> Option<Aspect> {
        Aspect::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// A `VkImageAspectFlags` mask over [`Aspect`]s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct AspectMask(pub u32);

impl AspectMask {
    /// The mask of one aspect.
    pub fn of(a: Aspect) -> AspectMask {
        AspectMask(a.bit())
    }
    /// Whether it holds `a`.
    pub fn has(self, a: Aspect) -> bool {
        self.0 & a.bit() != 0
    }
    /// Its aspects, in bit order.
    pub fn aspects(self) -> impl Iterator<Item = Aspect> {
        Aspect::ALL.into_iter().filter(move |a| self.has(*a))
    }
    /// The number of aspects.
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// Parses `COLOR`, `DEPTH|STENCIL`, ...; `Err` with the unknown name.
    pub fn parse(text: &str) -> Result<AspectMask, String> {
        let mut m = 0;
        for part in text.split('|') {
            match Aspect::parse(part) {
                Some(a) => m |= a.bit(),
                None => return Err(part.to_string()),
            }
        }
        Ok(AspectMask(m))
    }
}

impl fmt::Display for AspectMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.aspects().map(Aspect::name).collect();
        if names.is_empty() {
            return write!(f, "NONE");
        }
        write!(f, "{}", names.join("|"))
    }
}

/// What the model knows of a format: texel block bytes per aspect (for a
/// depth/stencil format, the bytes a buffer-image copy of that aspect
/// takes per texel: "Depth/Stencil Formats" in the spec's copy chapter:
/// `D24_UNORM_S8_UINT`'s depth aspect is copied as 32 bits, its stencil
/// as 8), and the block extent (1x1 for uncompressed formats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatInfo {
    /// Its Vulkan name without `VK_FORMAT_`.
    pub name: &'static str,
    /// `VkFormat`'s value.
    pub value: u32,
    /// Bytes per texel block for each aspect it has, in bit order.
    pub aspects: &'static [(Aspect, u64)],
    /// Texel block width and height (in texels).
    pub block: (u32, u32),
}

/// A `VkFormat` the model knows (an index into [`FORMATS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Format(pub(crate) u16);

/// The one table of formats: name, value, aspects with their texel block
/// sizes, block extent ("Compatible Formats" and "Depth/Stencil Formats"
/// in the spec's formats chapter).
pub const FORMATS: &[FormatInfo] = &[
    FormatInfo {
        name: "R8_UNORM",
        value: 9,
        aspects: &[(Aspect::Color, 1)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R8G8B8A8_UNORM",
        value: 37,
        aspects: &[(Aspect::Color, 4)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R32_UINT",
        value: 98,
        aspects: &[(Aspect::Color, 4)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R32_SFLOAT",
        value: 100,
        aspects: &[(Aspect::Color, 4)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R16G16B16A16_SFLOAT",
        value: 97,
        aspects: &[(Aspect::Color, 8)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R32G32B32A32_SFLOAT",
        value: 109,
        aspects: &[(Aspect::Color, 16)],
        block: (1, 1),
    },
    FormatInfo {
        name: "D32_SFLOAT",
        value: 126,
        aspects: &[(Aspect::Depth, 4)],
        block: (1, 1),
    },
    FormatInfo {
        name: "S8_UINT",
        value: 127,
        aspects: &[(Aspect::Stencil, 1)],
        block: (1, 1),
    },
    FormatInfo {
        name: "D24_UNORM_S8_UINT",
        value: 129,
        aspects: &[(Aspect::Depth, 4), (Aspect::Stencil, 1)],
        block: (1, 1),
    },
    FormatInfo {
        name: "D32_SFLOAT_S8_UINT",
        value: 130,
        aspects: &[(Aspect::Depth, 4), (Aspect::Stencil, 1)],
        block: (1, 1),
    },
    FormatInfo {
        name: "BC1_RGBA_UNORM_BLOCK",
        value: 133,
        aspects: &[(Aspect::Color, 8)],
        block: (4, 4),
    },
    // Common color formats of real applications (wgpu's `rgba32uint`,
    // swapchain-like BGRA, ...), added after the first set so that the
    // indices of the first set do not move.
    FormatInfo {
        name: "R8_UINT",
        value: 13,
        aspects: &[(Aspect::Color, 1)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R8G8_UNORM",
        value: 16,
        aspects: &[(Aspect::Color, 2)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R8G8B8A8_SNORM",
        value: 38,
        aspects: &[(Aspect::Color, 4)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R8G8B8A8_UINT",
        value: 41,
        aspects: &[(Aspect::Color, 4)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R8G8B8A8_SINT",
        value: 42,
        aspects: &[(Aspect::Color, 4)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R8G8B8A8_SRGB",
        value: 43,
        aspects: &[(Aspect::Color, 4)],
        block: (1, 1),
    },
    FormatInfo {
        name: "B8G8R8A8_UNORM",
        value: 44,
        aspects: &[(Aspect::Color, 4)],
        block: (1, 1),
    },
    FormatInfo {
        name: "B8G8R8A8_SRGB",
        value: 50,
        aspects: &[(Aspect::Color, 4)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R16_SFLOAT",
        value: 76,
        aspects: &[(Aspect::Color, 2)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R16G16_SFLOAT",
        value: 83,
        aspects: &[(Aspect::Color, 4)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R16G16B16A16_UINT",
        value: 95,
        aspects: &[(Aspect::Color, 8)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R32_SINT",
        value: 99,
        aspects: &[(Aspect::Color, 4)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R32G32_UINT",
        value: 101,
        aspects: &[(Aspect::Color, 8)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R32G32_SFLOAT",
        value: 103,
        aspects: &[(Aspect::Color, 8)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R32G32B32A32_UINT",
        value: 107,
        aspects: &[(Aspect::Color, 16)],
        block: (1, 1),
    },
    FormatInfo {
        name: "R32G32B32A32_SINT",
        value: 108,
        aspects: &[(Aspect::Color, 16)],
        block: (1, 1),
    },
];

impl Format {
    /// The format of a name (without `VK_FORMAT_`).
    pub fn parse(name: &str) -> Option<Format> {
        FORMATS
            .iter()
            .position(|f| f.name == name)
            .map(|i| Format(i as u16))
    }
    /// Its row of [`FORMATS`].
    pub fn info(self) -> &'static FormatInfo {
        &FORMATS[self.0 as usize]
    }
    /// Its aspects as a mask.
    pub fn aspect_mask(self) -> AspectMask {
        AspectMask(self.info().aspects.iter().map(|(a, _)| a.bit()).sum())
    }
    /// The bytes of one texel block of aspect `a` (0 if it has none).
    pub fn block_bytes(self, a: Aspect) -> u64 {
        self.info()
            .aspects
            .iter()
            .find(|(x, _)| *x == a)
            .map_or(0, |(_, b)| *b)
    }
    /// Its name.
    pub fn name(self) -> &'static str {
        self.info().name
    }
    /// Whether a view of an image of this format may have format `view`:
    /// the same format, or, for an image created with
    /// `VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT` (which a trace does not
    /// record), another color format of its size compatibility class (one
    /// color aspect, the same texel block bytes and extent: "Compatible
    /// Formats"; `R8G8B8A8_SRGB` for `R8G8B8A8_UNORM`). Depth/stencil
    /// formats compare equal only. The view's format is what a render
    /// pass attachment and a resolve must match (review36: the model
    /// compared the image's, and refused the whole trace of a valid
    /// program rendering through an sRGB view of a UNORM image).
    pub(crate) fn view_compatible(self, view: Format) -> bool {
        if self == view {
            return true;
        }
        let (a, b) = (self.info(), view.info());
        self.is_color()
            && view.is_color()
            && a.aspects.len() == 1
            && b.aspects.len() == 1
            && a.aspects[0].1 == b.aspects[0].1
            && a.block == b.block
    }
    /// Whether it is a color format.
    pub(crate) fn is_color(self) -> bool {
        self.aspect_mask().has(Aspect::Color)
    }
    /// For a color format with integer components, whether they are
    /// signed (`SINT`) or unsigned (`UINT`); `None` for any other format.
    /// Read from the table's Vulkan name, whose last part is the numeric
    /// format by Vulkan's naming ("Format Definition": `UINT`, `SINT`,
    /// `UNORM`, `SFLOAT`, ...), so [`FORMATS`] stays its one home.
    pub(crate) fn integer(self) -> Option<Signedness> {
        if !self.is_color() {
            return None;
        }
        match self.name().rsplit('_').next() {
            Some("SINT") => Some(Signedness::Signed),
            Some("UINT") => Some(Signedness::Unsigned),
            _ => None,
        }
    }
}

/// The signedness of an integer format's components ([`Format::integer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Signedness {
    /// `SINT`.
    Signed,
    /// `UINT`.
    Unsigned,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

macro_rules! layouts {
    ($($v:ident = $n:literal),* $(,)?) => {
        /// `VkImageLayout`, by Vulkan's names without `VK_IMAGE_LAYOUT_`.
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
        pub enum ImageLayout {
            /// `VK_IMAGE_LAYOUT_UNDEFINED`: every image's initial layout here.
            #[default]
            UNDEFINED = 0,
            $(
                #[doc = concat!("`VK_IMAGE_LAYOUT_", stringify!($v), "`.")]
                $v = $n,
            )*
        }
        impl ImageLayout {
            /// Every layout the model names.
            pub const ALL: &'static [ImageLayout] = &[ImageLayout::UNDEFINED, $(ImageLayout::$v),*];
            /// Its name.
            pub fn name(self) -> &'static str {
                match self {
                    ImageLayout::UNDEFINED => "UNDEFINED",
                    $(ImageLayout::$v => stringify!($v),)*
                }
            }
        }
    };
}

layouts! {
    GENERAL = 1,
    COLOR_ATTACHMENT_OPTIMAL = 2,
    DEPTH_STENCIL_ATTACHMENT_OPTIMAL = 3,
    DEPTH_STENCIL_READ_ONLY_OPTIMAL = 4,
    SHADER_READ_ONLY_OPTIMAL = 5,
    TRANSFER_SRC_OPTIMAL = 6,
    TRANSFER_DST_OPTIMAL = 7,
    PREINITIALIZED = 8,
    PRESENT_SRC_KHR = 1000001002,
    DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL = 1000117000,
    DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL = 1000117001,
    DEPTH_ATTACHMENT_OPTIMAL = 1000241000,
    DEPTH_READ_ONLY_OPTIMAL = 1000241001,
    STENCIL_ATTACHMENT_OPTIMAL = 1000241002,
    STENCIL_READ_ONLY_OPTIMAL = 1000241003,
    READ_ONLY_OPTIMAL = 1000314000,
    ATTACHMENT_OPTIMAL = 1000314001,
}

impl ImageLayout {
    /// The layout of a name.
    pub fn parse(name: &str) -> Option<ImageLayout> {
        ImageLayout::ALL.iter().copied().find(|l| l.name() == name)
    }

    /// The layouts a sampled image or combined image sampler descriptor
    /// may name (`VkDescriptorImageInfo::imageLayout`,
    /// VUID-VkWriteDescriptorSet-descriptorType-04149): the read-only
    /// layouts and `GENERAL`.
    pub fn sampled_ok(self) -> bool {
        matches!(
            self,
            ImageLayout::GENERAL
                | ImageLayout::SHADER_READ_ONLY_OPTIMAL
                | ImageLayout::DEPTH_STENCIL_READ_ONLY_OPTIMAL
                | ImageLayout::DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL
                | ImageLayout::DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL
                | ImageLayout::DEPTH_READ_ONLY_OPTIMAL
                | ImageLayout::STENCIL_READ_ONLY_OPTIMAL
                | ImageLayout::READ_ONLY_OPTIMAL
        )
    }
}

bitflags::bitflags! {
    /// `VkImageUsageFlags` that an image layout's valid usage names; the
    /// bit values are Vulkan's, so converting to `ash::vk::ImageUsageFlags`
    /// is `from_raw(usage.bits())` (`vksync::ash::image_usage`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct ImageUsage: u32 {
        /// `VK_IMAGE_USAGE_TRANSFER_SRC_BIT`.
        const TRANSFER_SRC = 0x01;
        /// `VK_IMAGE_USAGE_TRANSFER_DST_BIT`.
        const TRANSFER_DST = 0x02;
        /// `VK_IMAGE_USAGE_SAMPLED_BIT`.
        const SAMPLED = 0x04;
        /// `VK_IMAGE_USAGE_STORAGE_BIT`.
        const STORAGE = 0x08;
        /// `VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT`: color formats only.
        const COLOR_ATTACHMENT = 0x10;
        /// `VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT`: depth/stencil
        /// formats only.
        const DEPTH_STENCIL_ATTACHMENT = 0x20;
        /// `VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT`.
        const INPUT_ATTACHMENT = 0x80;
    }
}

impl ImageUsage {
    /// The usages an image of `format` can have at all, as far as the
    /// format's kind decides ("Format Feature Properties": no color format
    /// supports depth/stencil attachment use, no depth/stencil format color
    /// attachment use); whether a device supports the rest is its format
    /// features' business.
    pub fn possible_for(format: Format) -> ImageUsage {
        if format.aspect_mask().has(Aspect::Color) {
            ImageUsage::all() - ImageUsage::DEPTH_STENCIL_ATTACHMENT
        } else {
            ImageUsage::all() - ImageUsage::COLOR_ATTACHMENT
        }
    }
}

/// What an image layout requires of the image in it: the usage an image
/// must have been created with to be transitioned into or out of it (or
/// ownership-transferred in it), and for the layouts only an image of one
/// kind of format may be in, the kind and the render pass attachment rules
/// on it. One row per layout with such a rule in [`LAYOUT_RULES`], the one
/// table of these facts; image barriers, `initial` layouts, render pass
/// attachment descriptions, rendering attachments and the runtime's image
/// creation (through [`ImageLayout::usage_for`]) read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LayoutRule {
    /// The layout.
    pub(crate) layout: ImageLayout,
    /// The `VkImageMemoryBarrier2` rule: the image must have been created
    /// with at least one of these usages.
    pub(crate) usage: ImageUsage,
    /// That rule's VUID.
    pub(crate) usage_vuid: &'static str,
    /// `Some` for a layout only one kind of format may be in.
    pub(crate) format: Option<FormatKindRule>,
}

/// The format half of a [`LayoutRule`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FormatKindRule {
    /// It needs a color format (`true`) or a depth/stencil one.
    pub(crate) color: bool,
    /// The `VkAttachmentDescription2` rules on `initialLayout` and on
    /// `finalLayout`: "if `format` is a color (depth/stencil) format,
    /// `initialLayout` (`finalLayout`) must not be L".
    pub(crate) attachment: (&'static str, &'static str),
    /// The `vkCmdBeginRenderPass2` rule on an attachment description or
    /// reference in L: the framebuffer's view must have been created with
    /// the usage only that kind of format can have.
    pub(crate) begin: &'static str,
}

/// A layout only an image of one kind of format may be in, read from
/// [`LAYOUT_RULES`]: its valid usage requires a usage flag
/// (`COLOR_ATTACHMENT`, `DEPTH_STENCIL_ATTACHMENT`) that only formats of
/// that kind can have ([`ImageUsage::possible_for`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LayoutFormatRule {
    /// The layout.
    pub(crate) layout: ImageLayout,
    /// It needs a color format (`true`) or a depth/stencil one.
    pub(crate) color: bool,
    /// The `VkImageMemoryBarrier2` rule (with a layout transition or an
    /// ownership transfer), or `None` where that rule also accepts a usage
    /// any format may have (`SAMPLED`, `INPUT_ATTACHMENT`: the read-only
    /// depth-only and stencil-only layouts). Derived from the row's usage.
    pub(crate) barrier: Option<&'static str>,
    /// The `VkAttachmentDescription2` rules on `initialLayout` and on
    /// `finalLayout`.
    pub(crate) attachment: (&'static str, &'static str),
    /// The `vkCmdBeginRenderPass2` rule on the view's usage
    /// ([`FormatKindRule::begin`]).
    pub(crate) begin: &'static str,
}

impl LayoutFormatRule {
    /// Whether an image of `format` may be in the layout.
    pub(crate) fn fits(&self, format: Format) -> bool {
        format.aspect_mask().has(Aspect::Color) == self.color
    }

    /// The usage flag only that kind of format can have, which the view
    /// of an attachment in the layout needs ([`LayoutFormatRule::begin`]).
    pub(crate) fn usage_name(&self) -> &'static str {
        if self.color {
            "COLOR_ATTACHMENT"
        } else {
            "DEPTH_STENCIL_ATTACHMENT"
        }
    }

    /// The kind of format the layout needs, for messages.
    pub(crate) fn needs(&self) -> &'static str {
        if self.color {
            "color"
        } else {
            "depth/stencil"
        }
    }
}

/// See [`LayoutRule`]. The usage VUIDs are
/// VUID-VkImageMemoryBarrier2-oldLayout-01208 and its siblings: "If
/// `srcQueueFamilyIndex` and `dstQueueFamilyIndex` define a queue family
/// ownership transfer or `oldLayout` and `newLayout` define an image layout
/// transition, and `oldLayout` or `newLayout` is L then `image` must have
/// been created with [at least one of] U". `UNDEFINED`, `GENERAL`,
/// `PREINITIALIZED` and `PRESENT_SRC_KHR` have no such rule.
pub(crate) const LAYOUT_RULES: &[LayoutRule] = {
    use ImageLayout as L;
    use ImageUsage as U;
    const fn rule(
        layout: ImageLayout,
        usage: ImageUsage,
        usage_vuid: &'static str,
        format: Option<FormatKindRule>,
    ) -> LayoutRule {
        LayoutRule {
            layout,
            usage,
            usage_vuid,
            format,
        }
    }
    const fn kind(
        color: bool,
        attachment: (&'static str, &'static str),
        begin: &'static str,
    ) -> Option<FormatKindRule> {
        Some(FormatKindRule {
            color,
            attachment,
            begin,
        })
    }
    // The begin rules: 03096 for the layouts with both aspects, 02844 for
    // the depth-only and stencil-only ones.
    const BEGIN_DS: &str = "VUID-vkCmdBeginRenderPass2-initialLayout-03096";
    const BEGIN_DS_SEPARATE: &str = "VUID-vkCmdBeginRenderPass2-initialLayout-02844";
    const DS_03280: (&str, &str) = (
        "VUID-VkAttachmentDescription2-format-03280",
        "VUID-VkAttachmentDescription2-format-03282",
    );
    const DS_06487: (&str, &str) = (
        "VUID-VkAttachmentDescription2-format-06487",
        "VUID-VkAttachmentDescription2-format-06488",
    );
    const DS_03286: (&str, &str) = (
        "VUID-VkAttachmentDescription2-format-03286",
        "VUID-VkAttachmentDescription2-format-03287",
    );
    const DS: ImageUsage = U::DEPTH_STENCIL_ATTACHMENT;
    // The read-only depth-only and stencil-only layouts and
    // READ_ONLY_OPTIMAL: "at least one of DEPTH_STENCIL_ATTACHMENT,
    // SAMPLED, or INPUT_ATTACHMENT".
    const DS_READ: ImageUsage = U::DEPTH_STENCIL_ATTACHMENT
        .union(U::SAMPLED)
        .union(U::INPUT_ATTACHMENT);
    &[
        rule(
            L::COLOR_ATTACHMENT_OPTIMAL,
            U::COLOR_ATTACHMENT,
            "VUID-VkImageMemoryBarrier2-oldLayout-01208",
            kind(
                true,
                (
                    "VUID-VkAttachmentDescription2-format-03281",
                    "VUID-VkAttachmentDescription2-format-03283",
                ),
                "VUID-vkCmdBeginRenderPass2-initialLayout-03094",
            ),
        ),
        rule(
            L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
            DS,
            "VUID-VkImageMemoryBarrier2-oldLayout-01209",
            kind(false, DS_03280, BEGIN_DS),
        ),
        rule(
            L::DEPTH_STENCIL_READ_ONLY_OPTIMAL,
            DS,
            "VUID-VkImageMemoryBarrier2-oldLayout-01210",
            kind(false, DS_03280, BEGIN_DS),
        ),
        rule(
            L::SHADER_READ_ONLY_OPTIMAL,
            U::SAMPLED.union(U::INPUT_ATTACHMENT),
            "VUID-VkImageMemoryBarrier2-oldLayout-01211",
            None,
        ),
        rule(
            L::TRANSFER_SRC_OPTIMAL,
            U::TRANSFER_SRC,
            "VUID-VkImageMemoryBarrier2-oldLayout-01212",
            None,
        ),
        rule(
            L::TRANSFER_DST_OPTIMAL,
            U::TRANSFER_DST,
            "VUID-VkImageMemoryBarrier2-oldLayout-01213",
            None,
        ),
        rule(
            L::DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL,
            DS,
            "VUID-VkImageMemoryBarrier2-oldLayout-01658",
            kind(false, DS_06487, BEGIN_DS),
        ),
        rule(
            L::DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL,
            DS,
            "VUID-VkImageMemoryBarrier2-oldLayout-01659",
            kind(false, DS_06487, BEGIN_DS),
        ),
        rule(
            L::DEPTH_ATTACHMENT_OPTIMAL,
            DS,
            "VUID-VkImageMemoryBarrier2-srcQueueFamilyIndex-04066",
            kind(false, DS_03286, BEGIN_DS_SEPARATE),
        ),
        rule(
            L::DEPTH_READ_ONLY_OPTIMAL,
            DS_READ,
            "VUID-VkImageMemoryBarrier2-srcQueueFamilyIndex-04065",
            kind(false, DS_03286, BEGIN_DS_SEPARATE),
        ),
        rule(
            L::STENCIL_ATTACHMENT_OPTIMAL,
            DS,
            "VUID-VkImageMemoryBarrier2-srcQueueFamilyIndex-04068",
            kind(false, DS_03286, BEGIN_DS_SEPARATE),
        ),
        rule(
            L::STENCIL_READ_ONLY_OPTIMAL,
            DS_READ,
            "VUID-VkImageMemoryBarrier2-srcQueueFamilyIndex-04067",
            kind(false, DS_03286, BEGIN_DS_SEPARATE),
        ),
        rule(
            L::ATTACHMENT_OPTIMAL,
            U::COLOR_ATTACHMENT.union(U::DEPTH_STENCIL_ATTACHMENT),
            "VUID-VkImageMemoryBarrier2-srcQueueFamilyIndex-03938",
            None,
        ),
        rule(
            L::READ_ONLY_OPTIMAL,
            DS_READ,
            "VUID-VkImageMemoryBarrier2-srcQueueFamilyIndex-03939",
            None,
        ),
    ]
};

impl ImageLayout {
    /// The row of [`LAYOUT_RULES`] on this layout, if any.
    pub(crate) fn rule(self) -> Option<&'static LayoutRule> {
        LAYOUT_RULES.iter().find(|r| r.layout == self)
    }

    /// The format rule of this layout, if only one kind of format may be
    /// in it. Its barrier VUID is the usage rule's where every usage that
    /// rule accepts is one only that kind of format can have.
    pub(crate) fn format_rule(self) -> Option<LayoutFormatRule> {
        let r = self.rule()?;
        let k = r.format?;
        let kind_only = if k.color {
            ImageUsage::COLOR_ATTACHMENT
        } else {
            ImageUsage::DEPTH_STENCIL_ATTACHMENT
        };
        Some(LayoutFormatRule {
            layout: self,
            color: k.color,
            barrier: kind_only.contains(r.usage).then_some(r.usage_vuid),
            attachment: k.attachment,
            begin: k.begin,
        })
    }

    /// What a barrier that names this layout for an image of `format`
    /// breaks, if anything: the kind of format the layout needs and the
    /// usage rule's VUID, where every usage that rule accepts is one only
    /// that kind of format can have ([`ImageLayout::format_rule`]'s
    /// `barrier`). The one check of a barrier's layouts, an image's
    /// initial layout and a tracked image's layouts against its format.
    pub(crate) fn barrier_format_mismatch(self, format: Format) -> Option<(&'static str, &'static str)> {
        let rule = self.format_rule().filter(|r| !r.fits(format))?;
        Some((rule.needs(), rule.barrier?))
    }

    /// The usages an image must have at least one of to be transitioned
    /// into or out of this layout (empty: no rule), with the rule's VUID
    /// (VUID-VkImageMemoryBarrier2-oldLayout-01208 and its siblings).
    pub fn required_usage(self) -> Option<(ImageUsage, &'static str)> {
        self.rule().map(|r| (r.usage, r.usage_vuid))
    }

    /// The usage to create an image of `format` with so that it may be in
    /// this layout, given the usage `have` it already needs: empty when
    /// `have` already meets the layout's rule, else the lowest usage bit
    /// of the rule that `format` can have ([`ImageUsage::possible_for`];
    /// for `ATTACHMENT_OPTIMAL` the attachment usage of the format's kind).
    /// Empty, too, where no usage of the rule fits the format: the model's
    /// layout rules refuse such a program before anything is created.
    pub fn usage_for(self, format: Format, have: ImageUsage) -> ImageUsage {
        let Some(r) = self.rule() else {
            return ImageUsage::empty();
        };
        if r.usage.intersects(have) {
            return ImageUsage::empty();
        }
        let fit = r.usage & ImageUsage::possible_for(format);
        ImageUsage::from_bits_truncate(fit.bits() & fit.bits().wrapping_neg())
    }
}

impl fmt::Display for ImageLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
