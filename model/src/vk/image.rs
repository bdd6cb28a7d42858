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

impl fmt::Display for ImageLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
