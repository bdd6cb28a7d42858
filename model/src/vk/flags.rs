//! Pipeline stage and access flags with the names and bit values of
//! `VkPipelineStageFlagBits2` and `VkAccessFlagBits2` (synchronization2).
//!
//! This module owns the raw flag types, their textual names (Vulkan's names
//! without the `VK_PIPELINE_STAGE_2_` / `VK_ACCESS_2_` prefix and `_BIT`
//! suffix) and parsing of `|`-joined name lists. It deliberately does not
//! interpret the flags: meta-flag expansion, logically earlier/later stages
//! and the stage/access support table live in [`crate::vk::scope`]. The
//! flags defined are those of the compute, transfer, host and (core)
//! graphics pipelines; any other bit (ray tracing, mesh shading, video, ...)
//! is rejected by the parser and by [`crate::vk::scope`] validation.

use bitflags::bitflags;
use std::fmt;

bitflags! {
    /// `VkPipelineStageFlags2`: the bit values are Vulkan's, so converting
    /// to `ash::vk::PipelineStageFlags2` is `from_raw(flags.bits())`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
    pub struct PipelineStageFlags2: u64 {
        /// `VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT`.
        const TOP_OF_PIPE = 0x0000_0001;
        /// `VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT`.
        const DRAW_INDIRECT = 0x0000_0002;
        /// `VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT`: `INDEX_INPUT |
        /// VERTEX_ATTRIBUTE_INPUT`.
        const VERTEX_INPUT = 0x0000_0004;
        /// `VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT`.
        const VERTEX_SHADER = 0x0000_0008;
        /// `VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT`.
        const TESSELLATION_CONTROL_SHADER = 0x0000_0010;
        /// `VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT`.
        const TESSELLATION_EVALUATION_SHADER = 0x0000_0020;
        /// `VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT`.
        const GEOMETRY_SHADER = 0x0000_0040;
        /// `VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT`.
        const FRAGMENT_SHADER = 0x0000_0080;
        /// `VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT`.
        const EARLY_FRAGMENT_TESTS = 0x0000_0100;
        /// `VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT`.
        const LATE_FRAGMENT_TESTS = 0x0000_0200;
        /// `VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT`.
        const COLOR_ATTACHMENT_OUTPUT = 0x0000_0400;
        /// `VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT`.
        const COMPUTE_SHADER = 0x0000_0800;
        /// `VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT`.
        const ALL_TRANSFER = 0x0000_1000;
        /// `VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT`.
        const BOTTOM_OF_PIPE = 0x0000_2000;
        /// `VK_PIPELINE_STAGE_2_HOST_BIT`.
        const HOST = 0x0000_4000;
        /// `VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT`: every stage of the
        /// graphics pipelines (`DRAW_INDIRECT` included).
        const ALL_GRAPHICS = 0x0000_8000;
        /// `VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT`.
        const ALL_COMMANDS = 0x0001_0000;
        /// `VK_PIPELINE_STAGE_2_COPY_BIT`.
        const COPY = 0x1_0000_0000;
        /// `VK_PIPELINE_STAGE_2_RESOLVE_BIT`.
        const RESOLVE = 0x2_0000_0000;
        /// `VK_PIPELINE_STAGE_2_BLIT_BIT`.
        const BLIT = 0x4_0000_0000;
        /// `VK_PIPELINE_STAGE_2_CLEAR_BIT`.
        const CLEAR = 0x8_0000_0000;
        /// `VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT`.
        const INDEX_INPUT = 0x10_0000_0000;
        /// `VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT`.
        const VERTEX_ATTRIBUTE_INPUT = 0x20_0000_0000;
        /// `VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT`: the vertex,
        /// tessellation and geometry shader stages.
        const PRE_RASTERIZATION_SHADERS = 0x40_0000_0000;
    }
}

impl PipelineStageFlags2 {
    /// `VK_PIPELINE_STAGE_2_NONE`.
    pub const NONE: Self = Self::empty();
    /// `VK_PIPELINE_STAGE_2_TRANSFER_BIT`, an alias of `ALL_TRANSFER`.
    pub const TRANSFER: Self = Self::ALL_TRANSFER;
}

bitflags! {
    /// `VkAccessFlags2`: the bit values are Vulkan's.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
    pub struct AccessFlags2: u64 {
        /// `VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT`.
        const INDIRECT_COMMAND_READ = 0x0000_0001;
        /// `VK_ACCESS_2_INDEX_READ_BIT`.
        const INDEX_READ = 0x0000_0002;
        /// `VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT`.
        const VERTEX_ATTRIBUTE_READ = 0x0000_0004;
        /// `VK_ACCESS_2_UNIFORM_READ_BIT`.
        const UNIFORM_READ = 0x0000_0008;
        /// `VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT`.
        const INPUT_ATTACHMENT_READ = 0x0000_0010;
        /// `VK_ACCESS_2_SHADER_READ_BIT`.
        const SHADER_READ = 0x0000_0020;
        /// `VK_ACCESS_2_SHADER_WRITE_BIT`.
        const SHADER_WRITE = 0x0000_0040;
        /// `VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT`.
        const COLOR_ATTACHMENT_READ = 0x0000_0080;
        /// `VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT`.
        const COLOR_ATTACHMENT_WRITE = 0x0000_0100;
        /// `VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT`.
        const DEPTH_STENCIL_ATTACHMENT_READ = 0x0000_0200;
        /// `VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT`.
        const DEPTH_STENCIL_ATTACHMENT_WRITE = 0x0000_0400;
        /// `VK_ACCESS_2_TRANSFER_READ_BIT`.
        const TRANSFER_READ = 0x0000_0800;
        /// `VK_ACCESS_2_TRANSFER_WRITE_BIT`.
        const TRANSFER_WRITE = 0x0000_1000;
        /// `VK_ACCESS_2_HOST_READ_BIT`.
        const HOST_READ = 0x0000_2000;
        /// `VK_ACCESS_2_HOST_WRITE_BIT`.
        const HOST_WRITE = 0x0000_4000;
        /// `VK_ACCESS_2_MEMORY_READ_BIT`.
        const MEMORY_READ = 0x0000_8000;
        /// `VK_ACCESS_2_MEMORY_WRITE_BIT`.
        const MEMORY_WRITE = 0x0001_0000;
        /// `VK_ACCESS_2_SHADER_SAMPLED_READ_BIT`.
        const SHADER_SAMPLED_READ = 0x1_0000_0000;
        /// `VK_ACCESS_2_SHADER_STORAGE_READ_BIT`.
        const SHADER_STORAGE_READ = 0x2_0000_0000;
        /// `VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT`.
        const SHADER_STORAGE_WRITE = 0x4_0000_0000;
    }
}

impl AccessFlags2 {
    /// `VK_ACCESS_2_NONE`.
    pub const NONE: Self = Self::empty();
}

/// Stage names in the order they are printed. `TRANSFER` is accepted by the
/// parser as an alias but printed as `ALL_TRANSFER`.
const STAGE_NAMES: &[(&str, PipelineStageFlags2)] = &[
    ("TOP_OF_PIPE", PipelineStageFlags2::TOP_OF_PIPE),
    ("DRAW_INDIRECT", PipelineStageFlags2::DRAW_INDIRECT),
    ("VERTEX_INPUT", PipelineStageFlags2::VERTEX_INPUT),
    ("INDEX_INPUT", PipelineStageFlags2::INDEX_INPUT),
    (
        "VERTEX_ATTRIBUTE_INPUT",
        PipelineStageFlags2::VERTEX_ATTRIBUTE_INPUT,
    ),
    ("VERTEX_SHADER", PipelineStageFlags2::VERTEX_SHADER),
    (
        "TESSELLATION_CONTROL_SHADER",
        PipelineStageFlags2::TESSELLATION_CONTROL_SHADER,
    ),
    (
        "TESSELLATION_EVALUATION_SHADER",
        PipelineStageFlags2::TESSELLATION_EVALUATION_SHADER,
    ),
    ("GEOMETRY_SHADER", PipelineStageFlags2::GEOMETRY_SHADER),
    (
        "PRE_RASTERIZATION_SHADERS",
        PipelineStageFlags2::PRE_RASTERIZATION_SHADERS,
    ),
    ("EARLY_FRAGMENT_TESTS", PipelineStageFlags2::EARLY_FRAGMENT_TESTS),
    ("FRAGMENT_SHADER", PipelineStageFlags2::FRAGMENT_SHADER),
    ("LATE_FRAGMENT_TESTS", PipelineStageFlags2::LATE_FRAGMENT_TESTS),
    (
        "COLOR_ATTACHMENT_OUTPUT",
        PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT,
    ),
    ("ALL_GRAPHICS", PipelineStageFlags2::ALL_GRAPHICS),
    ("COMPUTE_SHADER", PipelineStageFlags2::COMPUTE_SHADER),
    ("ALL_TRANSFER", PipelineStageFlags2::ALL_TRANSFER),
    ("COPY", PipelineStageFlags2::COPY),
    ("CLEAR", PipelineStageFlags2::CLEAR),
    ("BLIT", PipelineStageFlags2::BLIT),
    ("RESOLVE", PipelineStageFlags2::RESOLVE),
    ("HOST", PipelineStageFlags2::HOST),
    ("BOTTOM_OF_PIPE", PipelineStageFlags2::BOTTOM_OF_PIPE),
    ("ALL_COMMANDS", PipelineStageFlags2::ALL_COMMANDS),
];

const ACCESS_NAMES: &[(&str, AccessFlags2)] = &[
    ("INDIRECT_COMMAND_READ", AccessFlags2::INDIRECT_COMMAND_READ),
    ("INDEX_READ", AccessFlags2::INDEX_READ),
    ("VERTEX_ATTRIBUTE_READ", AccessFlags2::VERTEX_ATTRIBUTE_READ),
    ("UNIFORM_READ", AccessFlags2::UNIFORM_READ),
    ("INPUT_ATTACHMENT_READ", AccessFlags2::INPUT_ATTACHMENT_READ),
    ("SHADER_READ", AccessFlags2::SHADER_READ),
    ("SHADER_SAMPLED_READ", AccessFlags2::SHADER_SAMPLED_READ),
    ("SHADER_STORAGE_READ", AccessFlags2::SHADER_STORAGE_READ),
    ("SHADER_WRITE", AccessFlags2::SHADER_WRITE),
    ("SHADER_STORAGE_WRITE", AccessFlags2::SHADER_STORAGE_WRITE),
    ("COLOR_ATTACHMENT_READ", AccessFlags2::COLOR_ATTACHMENT_READ),
    ("COLOR_ATTACHMENT_WRITE", AccessFlags2::COLOR_ATTACHMENT_WRITE),
    (
        "DEPTH_STENCIL_ATTACHMENT_READ",
        AccessFlags2::DEPTH_STENCIL_ATTACHMENT_READ,
    ),
    (
        "DEPTH_STENCIL_ATTACHMENT_WRITE",
        AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE,
    ),
    ("TRANSFER_READ", AccessFlags2::TRANSFER_READ),
    ("TRANSFER_WRITE", AccessFlags2::TRANSFER_WRITE),
    ("HOST_READ", AccessFlags2::HOST_READ),
    ("HOST_WRITE", AccessFlags2::HOST_WRITE),
    ("MEMORY_READ", AccessFlags2::MEMORY_READ),
    ("MEMORY_WRITE", AccessFlags2::MEMORY_WRITE),
];

/// A flag name that is not one of the Vulkan names this model knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} flag `{name}`{hint}")]
pub struct UnknownFlag {
    /// `"stage"` or `"access"`.
    pub kind: &'static str,
    /// The name as written.
    pub name: String,
    /// A suggestion (already formatted), or empty.
    pub hint: String,
}

fn parse_names<F: Copy + std::ops::BitOr<Output = F>>(
    text: &str,
    empty: F,
    table: &[(&str, F)],
    aliases: &[(&str, F)],
    kind: &'static str,
) -> Result<F, UnknownFlag> {
    let mut acc = empty;
    for raw in text.split('|') {
        let name = raw.trim();
        if name == "NONE" {
            continue;
        }
        let found = table
            .iter()
            .chain(aliases.iter())
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f);
        match found {
            Some(f) => acc = acc | f,
            None => {
                let hint = suggestion(name, kind, table);
                return Err(UnknownFlag {
                    kind,
                    name: name.to_string(),
                    hint,
                });
            }
        }
    }
    Ok(acc)
}

/// Suggests the correct spelling for the two most common slips: writing the
/// full `VK_..._BIT` name, and naming an access where a stage is expected (or
/// the reverse).
fn suggestion<F>(name: &str, kind: &str, table: &[(&str, F)]) -> String {
    // An empty name (`A|`, `A||B`, `|A`, or nothing at all) would print
    // as two backquotes: say where it comes from.
    if name.is_empty() {
        return " (an empty name: a `|` with no flag beside it, or no flag at all; write `NONE` for none)"
            .to_string();
    }
    let stripped = name
        .trim_start_matches("VK_PIPELINE_STAGE_2_")
        .trim_start_matches("VK_ACCESS_2_")
        .trim_end_matches("_BIT");
    if stripped != name && table.iter().any(|(n, _)| *n == stripped) {
        return format!(" (write `{stripped}` without the prefix and suffix)");
    }
    let other_is_access = kind == "stage" && ACCESS_NAMES.iter().any(|(n, _)| *n == name);
    let other_is_stage = kind == "access" && STAGE_NAMES.iter().any(|(n, _)| *n == name);
    if other_is_access {
        " (that is an access flag; stages come before the `:`)".to_string()
    } else if other_is_stage {
        " (that is a stage flag; accesses come after the `:`)".to_string()
    } else {
        String::new()
    }
}

impl PipelineStageFlags2 {
    /// Parses `COPY|COMPUTE_SHADER`; `NONE` is the empty mask.
    pub fn parse(text: &str) -> Result<Self, UnknownFlag> {
        parse_names(
            text,
            Self::empty(),
            STAGE_NAMES,
            &[("TRANSFER", Self::ALL_TRANSFER)],
            "stage",
        )
    }
}

impl AccessFlags2 {
    /// Parses `SHADER_WRITE|TRANSFER_WRITE`; `NONE` is the empty mask.
    pub fn parse(text: &str) -> Result<Self, UnknownFlag> {
        parse_names(text, Self::empty(), ACCESS_NAMES, &[], "access")
    }
}

/// Writes `value` as `NAME|NAME...`; bits no name covers (a mask built
/// with `from_bits_retain`) as one hexadecimal term, so that no mask
/// prints as an empty string (such a term does not parse back: those bits
/// are not the model's).
fn write_names<F: Copy + PartialEq>(
    f: &mut fmt::Formatter<'_>,
    value: F,
    empty: F,
    table: &[(&str, F)],
    contains: impl Fn(F, F) -> bool,
    unnamed: u64,
) -> fmt::Result {
    if value == empty {
        return f.write_str("NONE");
    }
    let mut first = true;
    for (name, flag) in table {
        if contains(value, *flag) {
            if !first {
                f.write_str("|")?;
            }
            f.write_str(name)?;
            first = false;
        }
    }
    if unnamed != 0 {
        if !first {
            f.write_str("|")?;
        }
        write!(f, "{unnamed:#x}")?;
    }
    Ok(())
}

impl PipelineStageFlags2 {
    /// The bits of this mask that no stage name covers (a mask built with
    /// `from_bits_retain`): they cannot be printed or parsed.
    pub(crate) fn unnamed_bits(self) -> u64 {
        let named = STAGE_NAMES.iter().fold(0, |acc, (_, f)| acc | f.bits());
        self.bits() & !named
    }
}

impl AccessFlags2 {
    /// The bits of this mask that no access name covers.
    pub(crate) fn unnamed_bits(self) -> u64 {
        let named = ACCESS_NAMES.iter().fold(0, |acc, (_, f)| acc | f.bits());
        self.bits() & !named
    }
}

/// The first flag of `bits` that synchronization 1 cannot express, with
/// the synchronization-1 flag to write instead. `VkPipelineStageFlags` and
/// `VkAccessFlags` are 32 bits wide; the synchronization-2 bits above
/// them (`COPY`, `CLEAR`, `BLIT`, `RESOLVE`, the storage and sampled
/// shader accesses) have no synchronization-1 name, only the wider flags
/// that hold them (`TRANSFER`, `SHADER_READ`, `SHADER_WRITE`).
fn first_wide_flag<F: Copy>(
    bits: u64,
    table: &[(&'static str, F)],
    flag_bits: impl Fn(F) -> u64,
    instead: impl Fn(&str) -> &'static str,
) -> Option<(&'static str, &'static str)> {
    table
        .iter()
        .find(|(_, f)| flag_bits(*f) > u64::from(u32::MAX) && bits & flag_bits(*f) != 0)
        .map(|(name, _)| (*name, instead(name)))
}

impl PipelineStageFlags2 {
    /// The first stage of this mask that is not a `VkPipelineStageFlags`
    /// (synchronization-1) bit, and the synchronization-1 stages that cover
    /// it: `COPY` and the other transfer stages are `TRANSFER` there, the
    /// index and vertex attribute stages `VERTEX_INPUT`, and the
    /// pre-rasterization shaders the four shader stages it stands for.
    pub fn first_sync2_only(self) -> Option<(&'static str, &'static str)> {
        first_wide_flag(
            self.bits(),
            STAGE_NAMES,
            |f| f.bits(),
            |name| match name {
                "INDEX_INPUT" | "VERTEX_ATTRIBUTE_INPUT" => "VERTEX_INPUT",
                "PRE_RASTERIZATION_SHADERS" => {
                    "VERTEX_SHADER|TESSELLATION_CONTROL_SHADER|TESSELLATION_EVALUATION_SHADER|GEOMETRY_SHADER"
                }
                _ => "TRANSFER",
            },
        )
    }
}

impl AccessFlags2 {
    /// The first access of this mask that is not a `VkAccessFlags`
    /// (synchronization-1) bit, and the synchronization-1 access that
    /// covers it: `SHADER_READ` for the sampled and storage reads,
    /// `SHADER_WRITE` for the storage write.
    pub fn first_sync2_only(self) -> Option<(&'static str, &'static str)> {
        first_wide_flag(
            self.bits(),
            ACCESS_NAMES,
            |f| f.bits(),
            |name| {
                if name.ends_with("_WRITE") {
                    "SHADER_WRITE"
                } else {
                    "SHADER_READ"
                }
            },
        )
    }
}

impl PipelineStageFlags2 {
    /// The mask as a `VkPipelineStageFlags` reads in synchronization-1
    /// commands and messages about them: every name as [`fmt::Display`]
    /// writes it, but `ALL_TRANSFER` (synchronization 2's name of the bit)
    /// as `TRANSFER` (`VK_PIPELINE_STAGE_TRANSFER_BIT`, the only name
    /// synchronization 1 has for it).
    pub fn sync1_names(self) -> String {
        self.to_string()
            .split('|')
            .map(|n| if n == "ALL_TRANSFER" { "TRANSFER" } else { n })
            .collect::<Vec<_>>()
            .join("|")
    }
}

impl fmt::Display for PipelineStageFlags2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_names(
            f,
            *self,
            Self::empty(),
            STAGE_NAMES,
            |v, x| v.contains(x),
            self.unnamed_bits(),
        )
    }
}

impl fmt::Display for AccessFlags2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let named = ACCESS_NAMES.iter().fold(0, |acc, (_, f)| acc | f.bits());
        write_names(
            f,
            *self,
            Self::empty(),
            ACCESS_NAMES,
            |v, x| v.contains(x),
            self.bits() & !named,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_stage(text: &str, expected: &str) {
        let parsed = PipelineStageFlags2::parse(text).map(|s| s.to_string());
        assert_eq!(parsed.as_deref().map_err(|e| e.to_string()), Ok(expected));
    }

    /// An empty name between or beside `|`, or an empty mask, is refused
    /// with a message that says so (not "unknown ... flag ``" alone).
    #[test]
    fn empty_names_are_explained() {
        for text in ["COPY|", "|COPY", "COPY||CLEAR", "", " "] {
            let e = PipelineStageFlags2::parse(text).unwrap_err();
            assert_eq!(e.name, "", "{text:?}");
            assert!(e.to_string().contains("an empty name"), "{text:?}: {e}");
        }
        let e = AccessFlags2::parse("TRANSFER_WRITE|").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown access flag `` (an empty name: a `|` with no flag beside it, or no flag at all; write `NONE` for \
             none)"
        );
    }

    #[test]
    fn stage_names_round_trip() {
        check_stage("NONE", "NONE");
        check_stage("COPY", "COPY");
        check_stage("TRANSFER", "ALL_TRANSFER");
        check_stage("COMPUTE_SHADER|COPY", "COMPUTE_SHADER|COPY");
        check_stage("COPY|COMPUTE_SHADER", "COMPUTE_SHADER|COPY");
        check_stage("NONE|HOST", "HOST");
        check_stage(" HOST | CLEAR ", "CLEAR|HOST");
    }

    #[test]
    fn bit_values_are_vulkans() {
        // Values from vulkan_core.h (VkPipelineStageFlagBits2 / VkAccessFlagBits2).
        assert_eq!(PipelineStageFlags2::COMPUTE_SHADER.bits(), 0x800);
        assert_eq!(PipelineStageFlags2::COPY.bits(), 0x1_0000_0000);
        assert_eq!(PipelineStageFlags2::CLEAR.bits(), 0x8_0000_0000);
        assert_eq!(PipelineStageFlags2::ALL_COMMANDS.bits(), 0x10000);
        assert_eq!(AccessFlags2::SHADER_STORAGE_WRITE.bits(), 0x4_0000_0000);
        assert_eq!(AccessFlags2::MEMORY_WRITE.bits(), 0x10000);
    }

    #[test]
    fn synchronization_2_only_flags_are_named_with_their_sync1_cover() {
        type S = PipelineStageFlags2;
        type A = AccessFlags2;
        // (the flag found, the synchronization-1 flag to write instead)
        type Found = Option<(&'static str, &'static str)>;
        let cases: &[(Found, Found)] = &[
            (S::COMPUTE_SHADER.first_sync2_only(), None),
            (S::ALL_TRANSFER.first_sync2_only(), None),
            ((S::HOST | S::ALL_COMMANDS).first_sync2_only(), None),
            (
                (S::COMPUTE_SHADER | S::COPY).first_sync2_only(),
                Some(("COPY", "TRANSFER")),
            ),
            (S::CLEAR.first_sync2_only(), Some(("CLEAR", "TRANSFER"))),
            (
                S::INDEX_INPUT.first_sync2_only(),
                Some(("INDEX_INPUT", "VERTEX_INPUT")),
            ),
            (
                (S::COLOR_ATTACHMENT_OUTPUT | S::FRAGMENT_SHADER).first_sync2_only(),
                None,
            ),
            ((A::SHADER_READ | A::MEMORY_WRITE).first_sync2_only(), None),
            (
                A::SHADER_STORAGE_WRITE.first_sync2_only(),
                Some(("SHADER_STORAGE_WRITE", "SHADER_WRITE")),
            ),
            (
                A::SHADER_SAMPLED_READ.first_sync2_only(),
                Some(("SHADER_SAMPLED_READ", "SHADER_READ")),
            ),
            (
                A::SHADER_STORAGE_READ.first_sync2_only(),
                Some(("SHADER_STORAGE_READ", "SHADER_READ")),
            ),
        ];
        for (i, (got, want)) in cases.iter().enumerate() {
            assert_eq!(got, want, "case {i}");
        }
    }

    #[test]
    fn unknown_names_are_explained() {
        let err = |t: &str| PipelineStageFlags2::parse(t).unwrap_err().to_string();
        assert_eq!(
            err("VK_PIPELINE_STAGE_2_COPY_BIT"),
            "unknown stage flag `VK_PIPELINE_STAGE_2_COPY_BIT` (write `COPY` without the prefix and suffix)"
        );
        assert_eq!(
            err("SHADER_WRITE"),
            "unknown stage flag `SHADER_WRITE` (that is an access flag; stages come before the `:`)"
        );
        assert_eq!(err("FRAGMENT"), "unknown stage flag `FRAGMENT`");
        let aerr = AccessFlags2::parse("COPY").unwrap_err().to_string();
        assert_eq!(
            aerr,
            "unknown access flag `COPY` (that is a stage flag; accesses come after the `:`)"
        );
    }
}
