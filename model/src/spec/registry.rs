//! The synchronization tables of the Vulkan registry, as the definitional
//! semantics reads them.
//!
//! This module owns data, not rules: the rows of the `<sync>` section of
//! `vk.xml` restricted to the stages and accesses a buffer-only compute
//! program can meet, plus the bit values of those flags from the
//! registry's `VkPipelineStageFlagBits2` / `VkAccessFlagBits2` enums. The
//! rows are vendored below; the unit test `tables_match_vk_xml` re-extracts
//! them from two registries, 1.4.309 (Debian 13's `libvulkan-dev`) and
//! 1.4.363 (Debian forky's), and fails, printing the rows to paste here,
//! when either differs: the rows this model reads are the same in both.
//! `vk.xml` is Copyright 2015-2025 The Khronos Group Inc., licensed
//! Apache-2.0 OR MIT; these rows are derived from it under that licence.
//!
//! Queue capabilities are kept in the registry's first spelling
//! (`compute`, `transfer`, ...): from 1.4.327 on `<syncsupport queues>`
//! names `VkQueueFlagBits` members (`VK_QUEUE_COMPUTE_BIT`), which the
//! extraction maps back; a spelling it does not know fails the test rather
//! than leaving a stage without queues (which would silently empty
//! `ALL_COMMANDS`).
//!
//! The fast checker's hand-written tables (`crate::vk::scope`) are deliberately
//! not used by the definitional semantics: the two are compared by the
//! differential suites, so they must not share a source.
//!
//! Invariants: every name here is a registry name without its
//! `VK_PIPELINE_STAGE_2_` / `VK_ACCESS_2_` prefix and `_BIT` suffix; lists
//! hold only names of this module's universe ([`STAGE_UNIVERSE`],
//! [`ACCESS_UNIVERSE`]), in registry order.

/// The registries the vendored rows are re-extracted from, by the unit
/// test: (version, `VK_HEADER_VERSION`, the environment variable that
/// names the file, the file's default place under `.cache/registry/`,
/// where `scripts/install-deps.sh` puts it, checked by SHA-256).
#[cfg(test)]
pub(crate) const REGISTRIES: &[(&str, u32, &str, &str)] = &[
    ("1.4.309", 309, "VKSYNC_VK_XML", "vk.xml"),
    ("1.4.363", 363, "VKSYNC_VK_XML_1_4_363", "vk-1.4.363.xml"),
];

/// The stages the model can meet: the compute and transfer pipelines, the
/// host, and the meta and pseudo stages that name them.
#[cfg(test)]
pub(crate) const STAGE_UNIVERSE: &[&str] = &[
    "NONE",
    "TOP_OF_PIPE",
    "DRAW_INDIRECT",
    "COMPUTE_SHADER",
    "ALL_TRANSFER",
    "BOTTOM_OF_PIPE",
    "HOST",
    "ALL_COMMANDS",
    "COPY",
    "RESOLVE",
    "BLIT",
    "CLEAR",
    // The graphics pipeline's stages: no command of the model executes in
    // them yet, but barriers and semaphores of real applications name them,
    // and execution dependency chains run through them.
    "VERTEX_INPUT",
    "VERTEX_SHADER",
    "TESSELLATION_CONTROL_SHADER",
    "TESSELLATION_EVALUATION_SHADER",
    "GEOMETRY_SHADER",
    "FRAGMENT_SHADER",
    "EARLY_FRAGMENT_TESTS",
    "LATE_FRAGMENT_TESTS",
    "COLOR_ATTACHMENT_OUTPUT",
    "ALL_GRAPHICS",
    "INDEX_INPUT",
    "VERTEX_ATTRIBUTE_INPUT",
    "PRE_RASTERIZATION_SHADERS",
];

/// The accesses the model can meet.
#[cfg(test)]
pub(crate) const ACCESS_UNIVERSE: &[&str] = &[
    "NONE",
    "INDIRECT_COMMAND_READ",
    "UNIFORM_READ",
    "SHADER_READ",
    "SHADER_WRITE",
    "TRANSFER_READ",
    "TRANSFER_WRITE",
    "HOST_READ",
    "HOST_WRITE",
    "MEMORY_READ",
    "MEMORY_WRITE",
    "SHADER_SAMPLED_READ",
    "SHADER_STORAGE_READ",
    "SHADER_STORAGE_WRITE",
    // The graphics pipeline's accesses (see the stage universe).
    "INDEX_READ",
    "VERTEX_ATTRIBUTE_READ",
    "INPUT_ATTACHMENT_READ",
    "COLOR_ATTACHMENT_READ",
    "COLOR_ATTACHMENT_WRITE",
    "DEPTH_STENCIL_ATTACHMENT_READ",
    "DEPTH_STENCIL_ATTACHMENT_WRITE",
];

/// One `<syncstage>`: the queue capabilities that support it
/// (`<syncsupport queues>`) and the stages it is equivalent to
/// (`<syncequivalent stage>`, for meta stages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StageRow {
    pub name: &'static str,
    /// The bit of `VkPipelineStageFlagBits2` (0 for `NONE`).
    pub bit: u64,
    pub queues: &'static [&'static str],
    pub equivalent: &'static [&'static str],
}

/// One `<syncaccess>`: the stages that support it (`None` when the row
/// has no `<syncsupport>`: valid with any stage) and the accesses it is
/// equivalent to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AccessRow {
    pub name: &'static str,
    /// The bit of `VkAccessFlagBits2` (0 for `NONE`).
    pub bit: u64,
    pub support: Option<&'static [&'static str]>,
    pub equivalent: &'static [&'static str],
}

/// One `<syncpipeline>`: its stages in logical order (stages marked
/// `order="None"` have no place in the order and are left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PipelineRow {
    pub name: &'static str,
    pub stages: &'static [&'static str],
}

// BEGIN GENERATED ROWS (from vk.xml by `tables_match_vk_xml`)
#[rustfmt::skip]
pub(crate) const STAGES: &[StageRow] = &[
    StageRow { name: "NONE", bit: 0x0, queues: &[], equivalent: &[] },
    StageRow { name: "TOP_OF_PIPE", bit: 0x1, queues: &[], equivalent: &[] },
    StageRow { name: "DRAW_INDIRECT", bit: 0x2, queues: &["graphics", "compute"], equivalent: &[] },
    StageRow { name: "VERTEX_INPUT", bit: 0x4, queues: &["graphics"], equivalent: &["INDEX_INPUT", "VERTEX_ATTRIBUTE_INPUT"] },
    StageRow { name: "VERTEX_SHADER", bit: 0x8, queues: &["graphics"], equivalent: &[] },
    StageRow { name: "TESSELLATION_CONTROL_SHADER", bit: 0x10, queues: &["graphics"], equivalent: &[] },
    StageRow { name: "TESSELLATION_EVALUATION_SHADER", bit: 0x20, queues: &["graphics"], equivalent: &[] },
    StageRow { name: "GEOMETRY_SHADER", bit: 0x40, queues: &["graphics"], equivalent: &[] },
    StageRow { name: "FRAGMENT_SHADER", bit: 0x80, queues: &["graphics"], equivalent: &[] },
    StageRow { name: "EARLY_FRAGMENT_TESTS", bit: 0x100, queues: &["graphics"], equivalent: &[] },
    StageRow { name: "LATE_FRAGMENT_TESTS", bit: 0x200, queues: &["graphics"], equivalent: &[] },
    StageRow { name: "COLOR_ATTACHMENT_OUTPUT", bit: 0x400, queues: &["graphics"], equivalent: &[] },
    StageRow { name: "COMPUTE_SHADER", bit: 0x800, queues: &["compute"], equivalent: &[] },
    StageRow { name: "ALL_TRANSFER", bit: 0x1000, queues: &["graphics", "compute", "transfer"], equivalent: &["COPY", "BLIT", "RESOLVE", "CLEAR"] },
    StageRow { name: "BOTTOM_OF_PIPE", bit: 0x2000, queues: &[], equivalent: &[] },
    StageRow { name: "HOST", bit: 0x4000, queues: &[], equivalent: &[] },
    StageRow { name: "ALL_GRAPHICS", bit: 0x8000, queues: &["graphics"], equivalent: &["DRAW_INDIRECT", "VERTEX_INPUT", "VERTEX_SHADER", "TESSELLATION_CONTROL_SHADER", "TESSELLATION_EVALUATION_SHADER", "GEOMETRY_SHADER", "FRAGMENT_SHADER", "EARLY_FRAGMENT_TESTS", "LATE_FRAGMENT_TESTS", "COLOR_ATTACHMENT_OUTPUT"] },
    StageRow { name: "ALL_COMMANDS", bit: 0x10000, queues: &[], equivalent: &[] },
    StageRow { name: "COPY", bit: 0x100000000, queues: &["graphics", "compute", "transfer"], equivalent: &[] },
    StageRow { name: "RESOLVE", bit: 0x200000000, queues: &["graphics", "compute", "transfer"], equivalent: &[] },
    StageRow { name: "BLIT", bit: 0x400000000, queues: &["graphics", "compute", "transfer"], equivalent: &[] },
    StageRow { name: "CLEAR", bit: 0x800000000, queues: &["graphics", "compute", "transfer"], equivalent: &[] },
    StageRow { name: "INDEX_INPUT", bit: 0x1000000000, queues: &["graphics"], equivalent: &[] },
    StageRow { name: "VERTEX_ATTRIBUTE_INPUT", bit: 0x2000000000, queues: &["graphics"], equivalent: &[] },
    StageRow { name: "PRE_RASTERIZATION_SHADERS", bit: 0x4000000000, queues: &["graphics"], equivalent: &["VERTEX_SHADER", "TESSELLATION_CONTROL_SHADER", "TESSELLATION_EVALUATION_SHADER", "GEOMETRY_SHADER"] },
];
#[rustfmt::skip]
pub(crate) const ACCESSES: &[AccessRow] = &[
    AccessRow { name: "NONE", bit: 0x0, support: None, equivalent: &[] },
    AccessRow { name: "INDIRECT_COMMAND_READ", bit: 0x1, support: Some(&["DRAW_INDIRECT"]), equivalent: &[] },
    AccessRow { name: "INDEX_READ", bit: 0x2, support: Some(&["VERTEX_INPUT", "INDEX_INPUT"]), equivalent: &[] },
    AccessRow { name: "VERTEX_ATTRIBUTE_READ", bit: 0x4, support: Some(&["VERTEX_INPUT", "VERTEX_ATTRIBUTE_INPUT"]), equivalent: &[] },
    AccessRow { name: "UNIFORM_READ", bit: 0x8, support: Some(&["VERTEX_SHADER", "TESSELLATION_CONTROL_SHADER", "TESSELLATION_EVALUATION_SHADER", "GEOMETRY_SHADER", "FRAGMENT_SHADER", "COMPUTE_SHADER"]), equivalent: &[] },
    AccessRow { name: "INPUT_ATTACHMENT_READ", bit: 0x10, support: Some(&["FRAGMENT_SHADER"]), equivalent: &[] },
    AccessRow { name: "SHADER_READ", bit: 0x20, support: Some(&["VERTEX_SHADER", "TESSELLATION_CONTROL_SHADER", "TESSELLATION_EVALUATION_SHADER", "GEOMETRY_SHADER", "FRAGMENT_SHADER", "COMPUTE_SHADER"]), equivalent: &["SHADER_SAMPLED_READ", "SHADER_STORAGE_READ"] },
    AccessRow { name: "SHADER_WRITE", bit: 0x40, support: Some(&["VERTEX_SHADER", "TESSELLATION_CONTROL_SHADER", "TESSELLATION_EVALUATION_SHADER", "GEOMETRY_SHADER", "FRAGMENT_SHADER", "COMPUTE_SHADER"]), equivalent: &["SHADER_STORAGE_WRITE"] },
    AccessRow { name: "COLOR_ATTACHMENT_READ", bit: 0x80, support: Some(&["FRAGMENT_SHADER", "COLOR_ATTACHMENT_OUTPUT"]), equivalent: &[] },
    AccessRow { name: "COLOR_ATTACHMENT_WRITE", bit: 0x100, support: Some(&["COLOR_ATTACHMENT_OUTPUT"]), equivalent: &[] },
    AccessRow { name: "DEPTH_STENCIL_ATTACHMENT_READ", bit: 0x200, support: Some(&["FRAGMENT_SHADER", "EARLY_FRAGMENT_TESTS", "LATE_FRAGMENT_TESTS"]), equivalent: &[] },
    AccessRow { name: "DEPTH_STENCIL_ATTACHMENT_WRITE", bit: 0x400, support: Some(&["EARLY_FRAGMENT_TESTS", "LATE_FRAGMENT_TESTS"]), equivalent: &[] },
    AccessRow { name: "TRANSFER_READ", bit: 0x800, support: Some(&["ALL_TRANSFER", "COPY", "RESOLVE", "BLIT"]), equivalent: &[] },
    AccessRow { name: "TRANSFER_WRITE", bit: 0x1000, support: Some(&["ALL_TRANSFER", "COPY", "RESOLVE", "BLIT", "CLEAR"]), equivalent: &[] },
    AccessRow { name: "HOST_READ", bit: 0x2000, support: Some(&["HOST"]), equivalent: &[] },
    AccessRow { name: "HOST_WRITE", bit: 0x4000, support: Some(&["HOST"]), equivalent: &[] },
    AccessRow { name: "MEMORY_READ", bit: 0x8000, support: None, equivalent: &[] },
    AccessRow { name: "MEMORY_WRITE", bit: 0x10000, support: None, equivalent: &[] },
    AccessRow { name: "SHADER_SAMPLED_READ", bit: 0x100000000, support: Some(&["VERTEX_SHADER", "TESSELLATION_CONTROL_SHADER", "TESSELLATION_EVALUATION_SHADER", "GEOMETRY_SHADER", "FRAGMENT_SHADER", "COMPUTE_SHADER"]), equivalent: &[] },
    AccessRow { name: "SHADER_STORAGE_READ", bit: 0x200000000, support: Some(&["VERTEX_SHADER", "TESSELLATION_CONTROL_SHADER", "TESSELLATION_EVALUATION_SHADER", "GEOMETRY_SHADER", "FRAGMENT_SHADER", "COMPUTE_SHADER"]), equivalent: &[] },
    AccessRow { name: "SHADER_STORAGE_WRITE", bit: 0x400000000, support: Some(&["VERTEX_SHADER", "TESSELLATION_CONTROL_SHADER", "TESSELLATION_EVALUATION_SHADER", "GEOMETRY_SHADER", "FRAGMENT_SHADER", "COMPUTE_SHADER"]), equivalent: &[] },
];
#[rustfmt::skip]
pub(crate) const PIPELINES: &[PipelineRow] = &[
    PipelineRow { name: "graphics primitive", stages: &["DRAW_INDIRECT", "INDEX_INPUT", "VERTEX_ATTRIBUTE_INPUT", "VERTEX_SHADER", "TESSELLATION_CONTROL_SHADER", "TESSELLATION_EVALUATION_SHADER", "GEOMETRY_SHADER", "EARLY_FRAGMENT_TESTS", "FRAGMENT_SHADER", "LATE_FRAGMENT_TESTS", "COLOR_ATTACHMENT_OUTPUT"] },
    PipelineRow { name: "graphics mesh", stages: &["DRAW_INDIRECT", "EARLY_FRAGMENT_TESTS", "FRAGMENT_SHADER", "LATE_FRAGMENT_TESTS", "COLOR_ATTACHMENT_OUTPUT"] },
    PipelineRow { name: "compute", stages: &["DRAW_INDIRECT", "COMPUTE_SHADER"] },
    PipelineRow { name: "transfer", stages: &["ALL_TRANSFER"] },
    PipelineRow { name: "host", stages: &["HOST"] },
    PipelineRow { name: "ray tracing", stages: &["DRAW_INDIRECT"] },
];

// END GENERATED ROWS

/// Renders rows as the Rust source that lies between the markers above;
/// the test compares the vendored rows with the re-extracted ones through
/// this text, so a difference prints as rows ready to paste.
#[cfg(test)]
fn render(stages: &[StageRow], accesses: &[AccessRow], pipelines: &[PipelineRow]) -> String {
    use std::fmt::Write as _;
    let list = |xs: &[&str]| {
        let inner: Vec<String> = xs.iter().map(|x| format!("\"{x}\"")).collect();
        format!("&[{}]", inner.join(", "))
    };
    let mut s = String::from("pub(crate) const STAGES: &[StageRow] = &[\n");
    for r in stages {
        let _ = writeln!(
            s,
            "    StageRow {{ name: \"{}\", bit: {:#x}, queues: {}, equivalent: {} }},",
            r.name,
            r.bit,
            list(r.queues),
            list(r.equivalent)
        );
    }
    s.push_str("];\npub(crate) const ACCESSES: &[AccessRow] = &[\n");
    for r in accesses {
        let support = match r.support {
            None => "None".to_string(),
            Some(xs) => format!("Some({})", list(xs)),
        };
        let _ = writeln!(
            s,
            "    AccessRow {{ name: \"{}\", bit: {:#x}, support: {}, equivalent: {} }},",
            r.name,
            r.bit,
            support,
            list(r.equivalent)
        );
    }
    s.push_str("];\npub(crate) const PIPELINES: &[PipelineRow] = &[\n");
    for r in pipelines {
        let _ = writeln!(
            s,
            "    PipelineRow {{ name: \"{}\", stages: {} }},",
            r.name,
            list(r.stages)
        );
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    //! Re-extraction of the vendored rows from `vk.xml`.
    //!
    //! Each registry of [`REGISTRIES`] is found through its environment
    //! variable, else at `.cache/registry/` in the workspace, where
    //! `scripts/install-deps.sh` puts Debian's copies (1.4.309 from Debian
    //! 13, 1.4.363 from forky, checked by SHA-256). Without one the test
    //! fails and says so: a vendored table nobody can re-derive is not
    //! allowed to pass silently.

    use super::*;
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::PathBuf;

    fn vk_xml_path(env: &str, file: &str) -> PathBuf {
        if let Some(p) = std::env::var_os(env) {
            return PathBuf::from(p);
        }
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../.cache/registry")
            .join(file)
    }

    /// The `VK_HEADER_VERSION` of a registry file (its first definition,
    /// Vulkan's; Vulkan SC's follows).
    fn header_version(text: &str) -> Option<u32> {
        let key = "VK_HEADER_VERSION</name>";
        let rest = &text[text.find(key)? + key.len()..];
        let digits: String = rest
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    }

    /// The capabilities `<syncsupport queues>` may name, in the first
    /// spelling (kept in the rows) and in the `VkQueueFlagBits` spelling
    /// registries use from 1.4.327 on.
    const QUEUE_SPELLINGS: &[(&str, &str)] = &[
        ("graphics", "VK_QUEUE_GRAPHICS_BIT"),
        ("compute", "VK_QUEUE_COMPUTE_BIT"),
        ("transfer", "VK_QUEUE_TRANSFER_BIT"),
        ("decode", "VK_QUEUE_VIDEO_DECODE_BIT_KHR"),
        ("encode", "VK_QUEUE_VIDEO_ENCODE_BIT_KHR"),
        ("opticalflow", "VK_QUEUE_OPTICAL_FLOW_BIT_NV"),
    ];

    /// One capability of a `<syncsupport queues>` list, in the rows'
    /// spelling. A `VkQueueFlagBits` member of this registry that has no
    /// first spelling (`VK_QUEUE_DATA_GRAPH_BIT_ARM`) is kept as written: no
    /// queue of the model has it. Anything else is an error, not a
    /// capability dropped: a stage whose queues all vanished would leave
    /// `ALL_COMMANDS` without it.
    fn queue_capability(
        spelling: &str,
        stage: &str,
        queue_flags: &BTreeSet<String>,
    ) -> Result<&'static str, String> {
        if let Some((old, _)) = QUEUE_SPELLINGS
            .iter()
            .find(|(old, new)| spelling == *old || spelling == *new)
        {
            return Ok(old);
        }
        if queue_flags.contains(spelling) {
            return Ok(leak(spelling.to_string()));
        }
        Err(format!(
            "<syncstage {stage}>: <syncsupport queues> names `{spelling}`, which is neither a known \
             queue capability ({:?}) nor a VkQueueFlagBits member of this registry",
            QUEUE_SPELLINGS
        ))
    }

    /// Leaks a string so extracted rows have the vendored rows' types;
    /// fine in a test that runs once.
    fn leak(s: String) -> &'static str {
        Box::leak(s.into_boxed_str())
    }

    fn leak_list(xs: Vec<&'static str>) -> &'static [&'static str] {
        Box::leak(xs.into_boxed_slice())
    }

    fn short(name: &str, prefix: &str) -> String {
        name.trim_start_matches(prefix)
            .trim_end_matches("_BIT")
            .to_string()
    }

    /// The bit values of an enum's members (aliases resolved), by short name.
    fn bits(doc: &roxmltree::Document, enum_name: &str, prefix: &str) -> BTreeMap<String, u64> {
        let mut values = BTreeMap::new();
        let mut aliases = Vec::new();
        let members = doc.descendants().filter(|n| {
            n.has_tag_name("enum")
                && (n.parent().and_then(|p| p.attribute("name")) == Some(enum_name)
                    || n.attribute("extends") == Some(enum_name))
        });
        for e in members {
            let Some(name) = e.attribute("name") else { continue };
            let v = if let Some(b) = e.attribute("bitpos") {
                Some(1u64 << b.parse::<u32>().expect("bitpos"))
            } else {
                e.attribute("value").map(|v| {
                    let v = v.trim_end_matches("ULL");
                    match v.strip_prefix("0x") {
                        Some(h) => u64::from_str_radix(h, 16).expect("hex value"),
                        None => v.parse().expect("value"),
                    }
                })
            };
            match (v, e.attribute("alias")) {
                (Some(v), _) => {
                    values.insert(short(name, prefix), v);
                }
                (None, Some(a)) => aliases.push((short(name, prefix), short(a, prefix))),
                (None, None) => {}
            }
        }
        for (name, target) in aliases {
            if let Some(v) = values.get(&target).copied() {
                values.entry(name).or_insert(v);
            }
        }
        values
    }

    fn split_names(
        list: Option<&str>,
        prefix: &str,
        universe: &[&str],
        alias: &BTreeMap<String, String>,
    ) -> Vec<&'static str> {
        list.unwrap_or("")
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| short(s.trim(), prefix))
            .map(|s| alias.get(&s).cloned().unwrap_or(s))
            .filter(|s| universe.contains(&s.as_str()))
            .map(leak)
            .collect()
    }

    fn extract(text: &str) -> (Vec<StageRow>, Vec<AccessRow>, Vec<PipelineRow>) {
        let doc = roxmltree::Document::parse(text).expect("vk.xml parses");
        const SP: &str = "VK_PIPELINE_STAGE_2_";
        const AP: &str = "VK_ACCESS_2_";
        let stage_bits = bits(&doc, "VkPipelineStageFlagBits2", SP);
        let access_bits = bits(&doc, "VkAccessFlagBits2", AP);
        // Synchronization2 aliases used inside <sync> (the pipelines name
        // `TRANSFER`, an alias of `ALL_TRANSFER`).
        let mut stage_alias = BTreeMap::new();
        for e in doc.descendants().filter(|n| n.has_tag_name("enum")) {
            if let (Some(n), Some(a)) = (e.attribute("name"), e.attribute("alias")) {
                if n.starts_with(SP) && a.starts_with(SP) && !n.ends_with("_KHR") {
                    stage_alias.insert(short(n, SP), short(a, SP));
                }
            }
        }
        let none = BTreeMap::new();
        // The members of `VkQueueFlagBits`, as written (`VK_QUEUE_..._BIT`).
        let queue_flags: BTreeSet<String> = doc
            .descendants()
            .filter(|n| {
                n.has_tag_name("enum")
                    && (n.parent().and_then(|p| p.attribute("name")) == Some("VkQueueFlagBits")
                        || n.attribute("extends") == Some("VkQueueFlagBits"))
            })
            .filter_map(|n| n.attribute("name").map(str::to_string))
            .collect();
        let sync = doc
            .descendants()
            .find(|n| n.has_tag_name("sync"))
            .expect("vk.xml has a <sync> section (registry 1.3.240 or later)");
        let mut stages = Vec::new();
        for n in sync.children().filter(|n| n.has_tag_name("syncstage")) {
            let name = short(n.attribute("name").expect("name"), SP);
            let child = |tag: &str, attr: &str| {
                n.children()
                    .find(|c| c.has_tag_name(tag))
                    .and_then(|c| c.attribute(attr))
                    .map(str::to_string)
            };
            // Every stage's queues are read, in the universe or not, so an
            // unknown spelling fails wherever it appears.
            let queues: Vec<&'static str> = child("syncsupport", "queues")
                .unwrap_or_default()
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| queue_capability(s.trim(), &name, &queue_flags).unwrap_or_else(|e| panic!("{e}")))
                .collect();
            if !STAGE_UNIVERSE.contains(&name.as_str()) {
                continue;
            }
            let equivalent = split_names(
                child("syncequivalent", "stage").as_deref(),
                SP,
                STAGE_UNIVERSE,
                &stage_alias,
            );
            stages.push(StageRow {
                bit: stage_bits[&name],
                name: leak(name),
                queues: leak_list(queues),
                equivalent: leak_list(equivalent),
            });
        }
        let mut accesses = Vec::new();
        for n in sync.children().filter(|n| n.has_tag_name("syncaccess")) {
            let name = short(n.attribute("name").expect("name"), AP);
            if !ACCESS_UNIVERSE.contains(&name.as_str()) {
                continue;
            }
            let support = n.children().find(|c| c.has_tag_name("syncsupport")).map(|c| {
                leak_list(split_names(
                    c.attribute("stage"),
                    SP,
                    STAGE_UNIVERSE,
                    &stage_alias,
                ))
            });
            let equivalent = n
                .children()
                .find(|c| c.has_tag_name("syncequivalent"))
                .map(|c| split_names(c.attribute("access"), AP, ACCESS_UNIVERSE, &none))
                .unwrap_or_default();
            accesses.push(AccessRow {
                bit: access_bits[&name],
                name: leak(name),
                support,
                equivalent: leak_list(equivalent),
            });
        }
        let mut pipelines = Vec::new();
        for n in sync.children().filter(|n| n.has_tag_name("syncpipeline")) {
            let ordered: Vec<&'static str> = n
                .children()
                .filter(|c| c.has_tag_name("syncpipelinestage") && c.attribute("order") != Some("None"))
                .filter_map(|c| c.text())
                .map(|t| short(t.trim(), SP))
                .map(|s| stage_alias.get(&s).cloned().unwrap_or(s))
                .filter(|s| STAGE_UNIVERSE.contains(&s.as_str()))
                .map(leak)
                .collect();
            if ordered.is_empty() {
                continue;
            }
            pipelines.push(PipelineRow {
                name: leak(n.attribute("name").expect("name").to_string()),
                stages: leak_list(ordered),
            });
        }
        (stages, accesses, pipelines)
    }

    /// Every format of the model's table (`crate::vk::image::FORMATS`)
    /// has its `VkFormat` value in both registries.
    #[test]
    fn format_values_match_vk_xml() {
        for &(version, _, env, file) in REGISTRIES {
            let path = vk_xml_path(env, file);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read vk.xml {version} at {} ({e})", path.display()));
            for f in crate::vk::image::FORMATS {
                let name = format!("name=\"VK_FORMAT_{}\"", f.name);
                let line = text
                    .lines()
                    .find(|l| l.contains("<enum") && l.contains(&name))
                    .unwrap_or_else(|| panic!("{version}: no VK_FORMAT_{}", f.name));
                assert!(
                    line.contains(&format!("value=\"{}\"", f.value)),
                    "{version}: VK_FORMAT_{} is not {}: {line}",
                    f.name,
                    f.value
                );
            }
        }
    }

    #[test]
    fn tables_match_vk_xml() {
        for &(version, header, env, file) in REGISTRIES {
            let path = vk_xml_path(env, file);
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                panic!(
                    "cannot read vk.xml {version} at {} ({e}): run scripts/install-deps.sh, which \
                     puts Debian's registry {version} there, or set {env}",
                    path.display()
                )
            });
            assert_eq!(
                header_version(&text),
                Some(header),
                "{} is not registry {version}",
                path.display()
            );
            let (s, a, p) = extract(&text);
            let got = render(&s, &a, &p);
            let vendored = render(STAGES, ACCESSES, PIPELINES);
            assert!(
                got == vendored,
                "the vendored rows differ from {} (registry {version}); paste these between the \
                 markers in model/src/spec/registry.rs:\n{got}",
                path.display()
            );
            // Every name of the universe is in the registry.
            assert_eq!(s.len(), STAGE_UNIVERSE.len(), "{version}: stages found: {s:?}");
            assert_eq!(a.len(), ACCESS_UNIVERSE.len(), "{version}: accesses found: {a:?}");
        }
    }

    /// Both spellings of `<syncsupport queues>` give the rows' spelling;
    /// an unknown one is an error that names it.
    #[test]
    fn queue_spellings_map_to_one_capability_or_fail() {
        let flags: BTreeSet<String> = ["VK_QUEUE_COMPUTE_BIT", "VK_QUEUE_DATA_GRAPH_BIT_ARM"]
            .into_iter()
            .map(String::from)
            .collect();
        let cases: &[(&str, Result<&str, &str>)] = &[
            ("compute", Ok("compute")),
            ("VK_QUEUE_COMPUTE_BIT", Ok("compute")),
            ("transfer", Ok("transfer")),
            ("VK_QUEUE_TRANSFER_BIT", Ok("transfer")),
            ("VK_QUEUE_GRAPHICS_BIT", Ok("graphics")),
            ("VK_QUEUE_VIDEO_DECODE_BIT_KHR", Ok("decode")),
            ("VK_QUEUE_DATA_GRAPH_BIT_ARM", Ok("VK_QUEUE_DATA_GRAPH_BIT_ARM")),
            ("Compute", Err("names `Compute`")),
            ("VK_QUEUE_FUTURE_BIT", Err("names `VK_QUEUE_FUTURE_BIT`")),
        ];
        for (spelling, want) in cases {
            let got = queue_capability(spelling, "COPY", &flags);
            match (got, want) {
                (Ok(g), Ok(w)) => assert_eq!(g, *w, "{spelling}"),
                (Err(e), Err(w)) => assert!(e.contains(w), "{spelling}: {e}"),
                (g, w) => panic!("{spelling}: got {g:?}, want {w:?}"),
            }
        }
    }

    /// Which accesses write is read from the registry's names (it marks no
    /// direction): every access of the universe but `NONE` is a `_READ` or
    /// a `_WRITE`, and a meta access is equivalent only to accesses of its
    /// own direction, so the name is a total, consistent rule.
    #[test]
    fn every_access_has_a_direction_its_equivalents_share() {
        for row in ACCESSES.iter().filter(|r| r.name != "NONE") {
            let write = row.name.ends_with("_WRITE");
            assert!(write || row.name.ends_with("_READ"), "{}", row.name);
            for e in row.equivalent {
                assert_eq!(e.ends_with("_WRITE"), write, "{} is equivalent to {e}", row.name);
            }
        }
    }
}
