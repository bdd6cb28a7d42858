//! Synchronization and access scopes, computed from the registry rows
//! ([`super::registry`]) and the sentences of the specification that give
//! the pseudo stages their meaning.
//!
//! Stages and accesses are registry names (`"COPY"`, `"TRANSFER_READ"`).
//! A *concrete* stage or access is one without `<syncequivalent>` that is
//! not a pseudo flag (`NONE`, `TOP_OF_PIPE`, `BOTTOM_OF_PIPE`,
//! `ALL_COMMANDS`, `MEMORY_READ`, `MEMORY_WRITE`); scopes are sets of
//! concrete stages and of concrete (stage, access) pairs.
//!
//! Everything the definitional semantics knows about flags is here, from
//! the registry rows: the scopes, the queue's stages (`ALL_COMMANDS`),
//! which stage is the host's, which access writes, the registry names of
//! the IR's access pairs ([`pair_names`]) and the validity of a barrier's
//! masks ([`validate`]). None of it comes from the fast checker's tables
//! (`crate::vk::scope`); a test compares the two validators on every
//! mask pair. This module does not know about commands or memory.

use super::registry::{AccessRow, StageRow, ACCESSES, PIPELINES, STAGES};
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::scope::{ScopeError, StageAccess};
use std::collections::BTreeSet;

/// The capabilities of the queue every command of a program is submitted
/// to: graphics, compute and transfer work, the universal family most
/// devices expose first and real applications submit to. Draws and
/// rendering instances execute in the graphics stages, barriers and
/// semaphore waits of real applications name them, and execution dependency chains
/// run through them (a barrier whose second scope is
/// `COLOR_ATTACHMENT_OUTPUT` chains with a later one whose first scope is
/// `COLOR_ATTACHMENT_OUTPUT` or `ALL_COMMANDS`). On a compute-only family
/// a mask naming a graphics stage is invalid usage that this model does not
/// refuse; it orders nothing more there, as no command runs in those stages.
pub(crate) const QUEUE_CAPABILITIES: &[&str] = &["graphics", "compute", "transfer"];

/// A set of concrete stages.
pub(crate) type Stages = BTreeSet<&'static str>;

/// A set of concrete (stage, access) pairs.
pub(crate) type Pairs = BTreeSet<(&'static str, &'static str)>;

/// Which scope of a dependency a stage mask is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The first (source) scope.
    First,
    /// The second (destination) scope.
    Second,
}

fn stage_row(name: &str) -> &'static StageRow {
    STAGES
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("stage {name} is not in the registry rows"))
}

fn access_row(name: &str) -> &'static AccessRow {
    ACCESSES
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("access {name} is not in the registry rows"))
}

const PSEUDO_STAGES: &[&str] = &["NONE", "TOP_OF_PIPE", "BOTTOM_OF_PIPE", "ALL_COMMANDS"];
const PSEUDO_ACCESSES: &[&str] = &["NONE", "MEMORY_READ", "MEMORY_WRITE"];

/// Concrete stages: registry stages without equivalents, pseudo stages
/// excluded.
pub(crate) fn concrete_stages() -> Stages {
    STAGES
        .iter()
        .filter(|r| r.equivalent.is_empty() && !PSEUDO_STAGES.contains(&r.name))
        .map(|r| r.name)
        .collect()
}

/// The concrete stages a stage name stands for (`<syncequivalent>`
/// expanded; a concrete stage stands for itself).
fn expand_stage(name: &'static str) -> Stages {
    let row = stage_row(name);
    if row.equivalent.is_empty() {
        [name].into_iter().collect()
    } else {
        row.equivalent.iter().flat_map(|s| expand_stage(s)).collect()
    }
}

/// The concrete stages an operation of a rendering instance (a render
/// pass's subpass, a dynamic rendering instance) can be in: the graphics
/// pipeline's (`<syncpipeline name="graphics primitive">`): its draws,
/// clears, load, store and resolve operations. A scope limited to one
/// instance holds operations of those stages only, so a chain between it
/// and another scope needs a shared stage among them.
pub(crate) fn instance_stages() -> Stages {
    super::registry::PIPELINES
        .iter()
        .filter(|p| p.name == "graphics primitive")
        .flat_map(|p| p.stages.iter().copied())
        .collect()
}

/// `VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT`: "specifies all operations
/// performed by all commands supported on the queue it is used with" —
/// every concrete stage whose `<syncsupport queues>` names a capability of
/// the queue. `HOST` has no queue support: "This stage is not invoked by
/// any commands recorded in a command buffer."
pub(crate) fn all_commands() -> Stages {
    queue_stages(QUEUE_CAPABILITIES)
}

/// The concrete stages a queue with these capabilities executes: those
/// whose `<syncsupport queues>` names one of them.
fn queue_stages(capabilities: &[&str]) -> Stages {
    concrete_stages()
        .into_iter()
        .filter(|s| stage_row(s).queues.iter().any(|q| capabilities.contains(q)))
        .collect()
}

/// The stages named by a stage mask, for the access scope, and the stages
/// the mask adds to the synchronization scope only (the pseudo stages that
/// mean `ALL_COMMANDS` "with VkAccessFlags2 set to 0").
///
/// "VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT is equivalent to
/// VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT with VkAccessFlags2 set to 0 when
/// specified in the second synchronization scope, but equivalent to
/// VK_PIPELINE_STAGE_2_NONE in the first scope.
/// VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT is equivalent to
/// VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT with VkAccessFlags2 set to 0 when
/// specified in the first synchronization scope, but equivalent to
/// VK_PIPELINE_STAGE_2_NONE in the second scope."
fn named(mask: u64, side: Side) -> (Stages, Stages) {
    let mut named = Stages::new();
    let mut exec_only = Stages::new();
    for row in STAGES.iter().filter(|r| r.bit != 0 && mask & r.bit != 0) {
        match (row.name, side) {
            ("TOP_OF_PIPE", Side::First) | ("BOTTOM_OF_PIPE", Side::Second) => {}
            ("TOP_OF_PIPE", Side::Second) | ("BOTTOM_OF_PIPE", Side::First) => {
                exec_only.extend(all_commands())
            }
            ("ALL_COMMANDS", _) => named.extend(all_commands()),
            (name, _) => named.extend(expand_stage(name)),
        }
    }
    (named, exec_only)
}

/// The concrete stages a mask names (meta stages expanded), without the
/// logically earlier or later ones: the scope of an implicit dependency
/// of a rendering instance, which orders the stages it names only.
pub(crate) fn exact_scope(mask: u64) -> Stages {
    named(mask, Side::First).0
}

/// The position of each concrete stage in each pipeline (meta entries of
/// a pipeline, such as `TRANSFER`, put all their stages at one position).
fn pipeline_positions() -> Vec<Vec<(usize, &'static str)>> {
    PIPELINES
        .iter()
        .map(|p| {
            p.stages
                .iter()
                .enumerate()
                .flat_map(|(i, s)| expand_stage(s).into_iter().map(move |c| (i, c)))
                .collect()
        })
        .collect()
}

/// A synchronization scope.
///
/// "If a synchronization command includes a source stage mask, its first
/// synchronization scope only includes execution of the pipeline stages
/// specified in that mask and any logically earlier stages." "If a
/// synchronization command includes a destination stage mask, its second
/// synchronization scope only includes execution of the pipeline stages
/// specified in that mask and any logically later stages." Logical order is
/// the order of `<syncpipeline>`.
pub(crate) fn sync_scope(mask: u64, side: Side) -> Stages {
    let (named, exec_only) = named(mask, side);
    let mut scope: Stages = named.union(&exec_only).copied().collect();
    for pipeline in pipeline_positions() {
        for &(i, s) in &pipeline {
            if !scope.contains(s) {
                continue;
            }
            for &(j, t) in &pipeline {
                let earlier_or_later = match side {
                    Side::First => j < i,
                    Side::Second => j > i,
                };
                if earlier_or_later {
                    scope.insert(t);
                }
            }
        }
    }
    scope
}

/// Concrete accesses: registry accesses without equivalents, pseudo
/// accesses excluded.
fn concrete_accesses() -> impl Iterator<Item = &'static AccessRow> {
    ACCESSES
        .iter()
        .filter(|r| r.equivalent.is_empty() && !PSEUDO_ACCESSES.contains(&r.name))
}

/// Whether a registry access name is a write. The registry marks no
/// direction but names every access `..._READ` or `..._WRITE`, and its
/// meta accesses are equivalent only to accesses of their own direction
/// (the registry test `every_access_has_a_direction_its_equivalents_share`
/// checks both on every registry the rows come from): "MEMORY_WRITE_BIT
/// specifies all write accesses".
pub(crate) fn is_write(access: &str) -> bool {
    access.ends_with("_WRITE")
}

/// Whether a concrete stage is the host's: no queue supports it (its row
/// has no `<syncsupport queues>`); `HOST` "is not invoked by any commands
/// recorded in a command buffer".
pub(crate) fn is_host_stage(stage: &str) -> bool {
    concrete_stages().contains(stage) && stage_row(stage).queues.is_empty()
}

/// The registry names of an access pair of the IR: the stage and the
/// access its name says (`CopyTransferRead` is `COPY` / `TRANSFER_READ`).
/// `None` for the pseudo pairs (layout transition, ownership transfer),
/// which no registry row names. Read from the variant, not from
/// `StageAccess::stage`/`access` (the fast checker's table); the match has
/// no wildcard, so a new pair must be named here.
pub(crate) fn pair_names(sa: StageAccess) -> Option<(&'static str, &'static str)> {
    use StageAccess::*;
    Some(match sa {
        DrawIndirectIndirectCommandRead => ("DRAW_INDIRECT", "INDIRECT_COMMAND_READ"),
        ComputeShaderUniformRead => ("COMPUTE_SHADER", "UNIFORM_READ"),
        ComputeShaderSampledRead => ("COMPUTE_SHADER", "SHADER_SAMPLED_READ"),
        ComputeShaderStorageRead => ("COMPUTE_SHADER", "SHADER_STORAGE_READ"),
        ComputeShaderStorageWrite => ("COMPUTE_SHADER", "SHADER_STORAGE_WRITE"),
        CopyTransferRead => ("COPY", "TRANSFER_READ"),
        CopyTransferWrite => ("COPY", "TRANSFER_WRITE"),
        BlitTransferRead => ("BLIT", "TRANSFER_READ"),
        BlitTransferWrite => ("BLIT", "TRANSFER_WRITE"),
        ResolveTransferRead => ("RESOLVE", "TRANSFER_READ"),
        ResolveTransferWrite => ("RESOLVE", "TRANSFER_WRITE"),
        ClearTransferWrite => ("CLEAR", "TRANSFER_WRITE"),
        HostRead => ("HOST", "HOST_READ"),
        HostWrite => ("HOST", "HOST_WRITE"),
        IndexInputIndexRead => ("INDEX_INPUT", "INDEX_READ"),
        VertexAttributeInputVertexAttributeRead => ("VERTEX_ATTRIBUTE_INPUT", "VERTEX_ATTRIBUTE_READ"),
        VertexShaderUniformRead => ("VERTEX_SHADER", "UNIFORM_READ"),
        VertexShaderSampledRead => ("VERTEX_SHADER", "SHADER_SAMPLED_READ"),
        VertexShaderStorageRead => ("VERTEX_SHADER", "SHADER_STORAGE_READ"),
        VertexShaderStorageWrite => ("VERTEX_SHADER", "SHADER_STORAGE_WRITE"),
        FragmentShaderUniformRead => ("FRAGMENT_SHADER", "UNIFORM_READ"),
        FragmentShaderSampledRead => ("FRAGMENT_SHADER", "SHADER_SAMPLED_READ"),
        FragmentShaderStorageRead => ("FRAGMENT_SHADER", "SHADER_STORAGE_READ"),
        FragmentShaderStorageWrite => ("FRAGMENT_SHADER", "SHADER_STORAGE_WRITE"),
        FragmentShaderInputAttachmentRead => ("FRAGMENT_SHADER", "INPUT_ATTACHMENT_READ"),
        EarlyFragmentTestsDepthStencilRead => ("EARLY_FRAGMENT_TESTS", "DEPTH_STENCIL_ATTACHMENT_READ"),
        EarlyFragmentTestsDepthStencilWrite => ("EARLY_FRAGMENT_TESTS", "DEPTH_STENCIL_ATTACHMENT_WRITE"),
        LateFragmentTestsDepthStencilRead => ("LATE_FRAGMENT_TESTS", "DEPTH_STENCIL_ATTACHMENT_READ"),
        LateFragmentTestsDepthStencilWrite => ("LATE_FRAGMENT_TESTS", "DEPTH_STENCIL_ATTACHMENT_WRITE"),
        ColorAttachmentOutputColorRead => ("COLOR_ATTACHMENT_OUTPUT", "COLOR_ATTACHMENT_READ"),
        ColorAttachmentOutputColorWrite => ("COLOR_ATTACHMENT_OUTPUT", "COLOR_ATTACHMENT_WRITE"),
        ImageLayoutTransition | QueueFamilyOwnershipTransfer => return None,
    })
}

/// The stages a stage mask names for the validity of its access mask:
/// each named stage, the stages a meta stage is equivalent to, and for
/// `ALL_COMMANDS` the queue's stages ([`all_commands`]). `TOP_OF_PIPE` and
/// `BOTTOM_OF_PIPE` stand for themselves only: they are "equivalent to
/// `ALL_COMMANDS` with `VkAccessFlags2` set to 0" and support no access.
fn supporting_stages(mask: u64) -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    for row in STAGES.iter().filter(|r| r.bit != 0 && mask & r.bit != 0) {
        out.insert(row.name);
        match row.name {
            "ALL_COMMANDS" => out.extend(all_commands()),
            "TOP_OF_PIPE" | "BOTTOM_OF_PIPE" => {}
            name => out.extend(expand_stage(name)),
        }
    }
    out
}

/// Whether a barrier's stage mask and access mask on one side are valid
/// usage, from the registry rows alone.
///
/// Every access bit must be supported by a stage the mask names: "The
/// `srcAccessMask` member ... must only include access flags that are
/// supported by one or more of the pipeline stages in `srcStageMask`"
/// (likewise `dstAccessMask`), the support being the access's
/// `<syncsupport stage>` row (the "Supported access types" table); a meta
/// stage supports what a stage it is equivalent to supports, and
/// `ALL_COMMANDS` what a stage of the queue supports (so not `HOST_READ` or
/// `HOST_WRITE`: `HOST` is no stage of a queue). An access whose row has no
/// `<syncsupport>` (`MEMORY_READ`, `MEMORY_WRITE`) "is always valid in any
/// access mask", with any stage mask, `NONE` included. A bit no registry
/// row of this model names is refused.
pub fn validate(stages: PipelineStageFlags2, access: AccessFlags2, side: Side) -> Result<(), ScopeError> {
    let side_name = match side {
        Side::First => "source",
        Side::Second => "destination",
    };
    let known_stages = STAGES.iter().fold(0, |m, r| m | r.bit);
    let unknown = stages.bits() & !known_stages;
    if unknown != 0 {
        return Err(ScopeError::UnknownStageBits {
            side: side_name,
            bits: unknown,
        });
    }
    let known_accesses = ACCESSES.iter().fold(0, |m, r| m | r.bit);
    let unknown = access.bits() & !known_accesses;
    if unknown != 0 {
        return Err(ScopeError::UnknownAccessBits {
            side: side_name,
            bits: unknown,
        });
    }
    let named = supporting_stages(stages.bits());
    for row in ACCESSES
        .iter()
        .filter(|r| r.bit != 0 && access.bits() & r.bit != 0)
    {
        let Some(list) = row.support else {
            continue;
        };
        if list.iter().any(|s| named.contains(s)) {
            continue;
        }
        let queue = all_commands();
        let on_queue = list
            .iter()
            .any(|s| expand_stage(s).iter().any(|c| queue.contains(c)));
        let names: Vec<String> = list.iter().map(|s| format!("`{s}`")).collect();
        let needs = if on_queue {
            format!("{} or `ALL_COMMANDS`", names.join(", "))
        } else {
            names.join(", ")
        };
        return Err(ScopeError::UnsupportedAccess {
            side: side_name,
            access: AccessFlags2::from_bits_retain(row.bit),
            stages,
            needs,
        });
    }
    Ok(())
}

/// Whether `stage` can perform `access` (`<syncsupport stage>`; a row
/// without one is valid with every stage).
fn supports(access: &AccessRow, stage: &str) -> bool {
    match access.support {
        None => true,
        // A meta stage in the list (`ALL_TRANSFER`) says the access is valid
        // with that flag, not that every stage it stands for performs it:
        // `TRANSFER_READ` lists `ALL_TRANSFER` but not `CLEAR`.
        Some(list) => list.contains(&stage),
    }
}

/// An access scope.
///
/// "Its first access scope only includes memory accesses performed by
/// pipeline stages explicitly specified in the source stage mask." (and
/// likewise for the second). "VK_ACCESS_2_MEMORY_READ_BIT specifies all
/// read accesses. It is always valid in any access mask, and is treated as
/// equivalent to setting all READ access flags that are valid where it is
/// used." Meta accesses expand through `<syncequivalent>`.
pub(crate) fn access_scope(stage_mask: u64, access_mask: u64, side: Side) -> Pairs {
    let (stages, _) = named(stage_mask, side);
    let mut accesses: BTreeSet<&'static str> = BTreeSet::new();
    for row in ACCESSES.iter().filter(|r| r.bit != 0 && access_mask & r.bit != 0) {
        match row.name {
            "MEMORY_READ" => {
                accesses.extend(concrete_accesses().filter(|a| !is_write(a.name)).map(|a| a.name))
            }
            "MEMORY_WRITE" => {
                accesses.extend(concrete_accesses().filter(|a| is_write(a.name)).map(|a| a.name))
            }
            _ if !row.equivalent.is_empty() => accesses.extend(row.equivalent.iter().copied()),
            name => {
                accesses.insert(name);
            }
        }
    }
    let mut pairs = Pairs::new();
    for s in stages {
        for a in &accesses {
            if supports(access_row(a), s) {
                pairs.insert((s, *a));
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vk::flags::{AccessFlags2 as A, PipelineStageFlags2 as S};

    /// Which stages a queue executes follows its capabilities (the model's
    /// queues have compute and transfer; `ALL_COMMANDS` is theirs).
    #[test]
    fn queue_stages_follow_the_capabilities() {
        let transfer: &[&str] = &["BLIT", "CLEAR", "COPY", "RESOLVE"];
        let compute: &[&str] = &[
            "BLIT",
            "CLEAR",
            "COMPUTE_SHADER",
            "COPY",
            "DRAW_INDIRECT",
            "RESOLVE",
        ];
        let cases: &[(&[&str], &[&str])] = &[
            (&["transfer"], transfer),
            (&["compute"], compute),
            (&["compute", "transfer"], compute),
            (&["graphics"], &GRAPHICS_QUEUE),
            (&[], &[]),
        ];
        for (caps, want) in cases {
            assert_eq!(queue_stages(caps), set(want), "{caps:?}");
        }
        let mut universal = set(&GRAPHICS_QUEUE);
        universal.insert("COMPUTE_SHADER");
        assert_eq!(all_commands(), universal);
    }

    #[test]
    fn pairs_and_host_stage_follow_the_registry() {
        for sa in StageAccess::ALL {
            let (stage, access) = pair_names(sa).unwrap_or_else(|| panic!("{sa:?} has no names"));
            assert!(concrete_stages().contains(stage), "{sa:?}: {stage}");
            let row = access_row(access);
            assert!(row.equivalent.is_empty(), "{sa:?}: {access} is a meta access");
            assert!(supports(row, stage), "{sa:?}: {stage} does not support {access}");
            // The two tables that name the pairs agree: this one and the
            // fast checker's (`StageAccess`'s `Display`).
            assert_eq!(format!("{stage}:{access}"), sa.to_string(), "{sa:?}");
            assert_eq!(is_host_stage(stage), stage == "HOST", "{sa:?}");
        }
        for sa in [
            StageAccess::ImageLayoutTransition,
            StageAccess::QueueFamilyOwnershipTransfer,
        ] {
            assert_eq!(pair_names(sa), None);
        }
    }

    /// Stage masks to compare the two tables on: every subset of the
    /// compute, transfer, host and pseudo stage bits (`NONE` included), and
    /// every graphics stage bit alone, with one of those bits, or with one
    /// other graphics bit (every subset of all the bits would be 2^24).
    fn stage_masks() -> Vec<S> {
        let graphics = S::VERTEX_INPUT
            | S::VERTEX_SHADER
            | S::TESSELLATION_CONTROL_SHADER
            | S::TESSELLATION_EVALUATION_SHADER
            | S::GEOMETRY_SHADER
            | S::FRAGMENT_SHADER
            | S::EARLY_FRAGMENT_TESTS
            | S::LATE_FRAGMENT_TESTS
            | S::COLOR_ATTACHMENT_OUTPUT
            | S::ALL_GRAPHICS
            | S::INDEX_INPUT
            | S::VERTEX_ATTRIBUTE_INPUT
            | S::PRE_RASTERIZATION_SHADERS;
        let core: Vec<S> = (S::all() - graphics).iter().collect();
        let graphics: Vec<S> = graphics.iter().collect();
        let mut masks: Vec<S> = (0u32..(1 << core.len()))
            .map(|subset| {
                (0..core.len())
                    .filter(|i| subset & (1 << i) != 0)
                    .fold(S::NONE, |m, i| m | core[i])
            })
            .collect();
        for (i, g) in graphics.iter().enumerate() {
            masks.push(*g);
            masks.extend(core.iter().map(|c| *g | *c));
            masks.extend(graphics[i + 1..].iter().map(|h| *g | *h));
        }
        masks
    }

    /// The registry's validator and the fast checker's (`vk::scope`)
    /// agree on every stage mask of [`stage_masks`] with every access mask
    /// of at most two bits, on both sides: valid or not, and which access
    /// is refused. A wrong row in either table shows here.
    #[test]
    fn validators_agree_on_every_mask_pair() {
        use crate::vk::scope::{self as fast, Side as FastSide};
        let access_bits: Vec<A> = A::all().iter().collect();
        let mut access_masks = vec![A::NONE];
        for (i, a) in access_bits.iter().enumerate() {
            access_masks.push(*a);
            for b in &access_bits[i + 1..] {
                access_masks.push(*a | *b);
            }
        }
        let refused = |r: &Result<(), ScopeError>| match r {
            Ok(()) => None,
            Err(ScopeError::UnsupportedAccess { access, .. }) => Some(access.to_string()),
            Err(e) => Some(e.to_string()),
        };
        let mut checked = 0;
        let mut differ = Vec::new();
        let masks = stage_masks();
        for &stages in &masks {
            for &access in &access_masks {
                for (side, fast_side) in [(Side::First, FastSide::Src), (Side::Second, FastSide::Dst)] {
                    let spec = refused(&validate(stages, access, side));
                    let fast = refused(&fast::validate(stages, access, fast_side));
                    checked += 1;
                    if spec != fast && differ.len() < 20 {
                        differ.push(format!(
                            "{stages}:{access} {side:?}: registry {spec:?}, vk::scope {fast:?}"
                        ));
                    }
                }
            }
        }
        // 11 core bits, 13 graphics bits, 20 access bits.
        assert_eq!(masks.len(), 2048 + 13 + 13 * 11 + 13 * 12 / 2);
        assert_eq!(access_masks.len(), 1 + 20 + 20 * 19 / 2);
        assert_eq!(checked, masks.len() * access_masks.len() * 2);
        assert!(differ.is_empty(), "the validators differ:\n{}", differ.join("\n"));
    }

    #[test]
    fn masks_are_validated_by_the_registry_rows() {
        use Side::*;
        let cases: &[(S, A, Side, Result<(), &str>)] = &[
            (S::COMPUTE_SHADER, A::SHADER_WRITE, First, Ok(())),
            (S::ALL_TRANSFER, A::TRANSFER_READ, First, Ok(())),
            (S::ALL_COMMANDS, A::TRANSFER_READ.union(A::SHADER_WRITE), Second, Ok(())),
            (S::NONE, A::MEMORY_READ.union(A::MEMORY_WRITE), First, Ok(())),
            (S::TOP_OF_PIPE, A::MEMORY_READ, Second, Ok(())),
            (S::HOST, A::HOST_WRITE, First, Ok(())),
            (
                S::CLEAR,
                A::TRANSFER_READ,
                First,
                Err("source access `TRANSFER_READ` is not supported by any stage in `CLEAR`; it needs one of `ALL_TRANSFER`, `COPY`, `RESOLVE`, `BLIT` or `ALL_COMMANDS`"),
            ),
            (
                S::ALL_COMMANDS,
                A::HOST_READ,
                Second,
                Err("destination access `HOST_READ` is not supported by any stage in `ALL_COMMANDS`; it needs one of `HOST`"),
            ),
            (
                S::TOP_OF_PIPE,
                A::SHADER_READ,
                Second,
                Err("destination access `SHADER_READ` is not supported by any stage in `TOP_OF_PIPE`; it needs one of `VERTEX_SHADER`, `TESSELLATION_CONTROL_SHADER`, `TESSELLATION_EVALUATION_SHADER`, `GEOMETRY_SHADER`, `FRAGMENT_SHADER`, `COMPUTE_SHADER` or `ALL_COMMANDS`"),
            ),
            (
                S::NONE,
                A::UNIFORM_READ,
                First,
                Err("source access `UNIFORM_READ` is not supported by any stage in `NONE`; it needs one of `VERTEX_SHADER`, `TESSELLATION_CONTROL_SHADER`, `TESSELLATION_EVALUATION_SHADER`, `GEOMETRY_SHADER`, `FRAGMENT_SHADER`, `COMPUTE_SHADER` or `ALL_COMMANDS`"),
            ),
            (S::PRE_RASTERIZATION_SHADERS, A::UNIFORM_READ, First, Ok(())),
            (S::ALL_GRAPHICS, A::COLOR_ATTACHMENT_WRITE, Second, Ok(())),
            (S::VERTEX_INPUT, A::INDEX_READ, Second, Ok(())),
            (
                S::FRAGMENT_SHADER,
                A::COLOR_ATTACHMENT_WRITE,
                First,
                Err("source access `COLOR_ATTACHMENT_WRITE` is not supported by any stage in `FRAGMENT_SHADER`; it needs one of `COLOR_ATTACHMENT_OUTPUT` or `ALL_COMMANDS`"),
            ),
        ];
        for (stages, access, side, want) in cases {
            let got = validate(*stages, *access, *side).map_err(|e| e.to_string());
            assert_eq!(
                got.as_ref().map_err(String::as_str),
                want.as_ref().map_err(|e| *e),
                "{stages}:{access} {side:?}"
            );
        }
    }

    fn set(xs: &[&'static str]) -> Stages {
        xs.iter().copied().collect()
    }

    /// The stages of a graphics queue: the graphics pipeline's and the
    /// transfer stages.
    const GRAPHICS_QUEUE: [&str; 15] = [
        "BLIT",
        "CLEAR",
        "COLOR_ATTACHMENT_OUTPUT",
        "COPY",
        "DRAW_INDIRECT",
        "EARLY_FRAGMENT_TESTS",
        "FRAGMENT_SHADER",
        "GEOMETRY_SHADER",
        "INDEX_INPUT",
        "LATE_FRAGMENT_TESTS",
        "RESOLVE",
        "TESSELLATION_CONTROL_SHADER",
        "TESSELLATION_EVALUATION_SHADER",
        "VERTEX_ATTRIBUTE_INPUT",
        "VERTEX_SHADER",
    ];

    /// The registry's synchronization scopes and the fast checker's
    /// (`vk::scope::exec_scope`) agree on every mask of [`stage_masks`],
    /// on both sides: meta stages, the pseudo stages and the logical order
    /// of every pipeline (the graphics pipeline's included).
    #[test]
    fn sync_scopes_agree_with_the_fast_checker() {
        use crate::vk::scope::{exec_scope, Side as FastSide};
        let mut differ = Vec::new();
        for mask in stage_masks() {
            for (side, fast_side) in [(Side::First, FastSide::Src), (Side::Second, FastSide::Dst)] {
                let spec = sync_scope(mask.bits(), side);
                let fast: Stages = exec_scope(mask, fast_side)
                    .flags()
                    .iter_names()
                    .map(|(name, _)| {
                        *concrete_stages()
                            .iter()
                            .find(|s| **s == name)
                            .unwrap_or_else(|| panic!("{name} is no registry stage"))
                    })
                    .collect();
                if spec != fast && differ.len() < 20 {
                    differ.push(format!("{mask} {side:?}: registry {spec:?}, vk::scope {fast:?}"));
                }
            }
        }
        assert!(differ.is_empty(), "the scopes differ:\n{}", differ.join("\n"));
    }

    /// Every stage of the universal queue (graphics, compute, transfer).
    const UNIVERSAL: [&str; 16] = [
        "BLIT",
        "CLEAR",
        "COLOR_ATTACHMENT_OUTPUT",
        "COMPUTE_SHADER",
        "COPY",
        "DRAW_INDIRECT",
        "EARLY_FRAGMENT_TESTS",
        "FRAGMENT_SHADER",
        "GEOMETRY_SHADER",
        "INDEX_INPUT",
        "LATE_FRAGMENT_TESTS",
        "RESOLVE",
        "TESSELLATION_CONTROL_SHADER",
        "TESSELLATION_EVALUATION_SHADER",
        "VERTEX_ATTRIBUTE_INPUT",
        "VERTEX_SHADER",
    ];

    #[test]
    fn scopes_follow_the_registry_and_the_pseudo_stage_sentences() {
        use Side::*;
        let cases: &[(S, Side, &[&str])] = &[
            (S::NONE, First, &[]),
            (S::COMPUTE_SHADER, First, &["COMPUTE_SHADER", "DRAW_INDIRECT"]),
            (S::COMPUTE_SHADER, Second, &["COMPUTE_SHADER"]),
            (
                S::DRAW_INDIRECT,
                Second,
                &[
                    "COLOR_ATTACHMENT_OUTPUT",
                    "COMPUTE_SHADER",
                    "DRAW_INDIRECT",
                    "EARLY_FRAGMENT_TESTS",
                    "FRAGMENT_SHADER",
                    "GEOMETRY_SHADER",
                    "INDEX_INPUT",
                    "LATE_FRAGMENT_TESTS",
                    "TESSELLATION_CONTROL_SHADER",
                    "TESSELLATION_EVALUATION_SHADER",
                    "VERTEX_ATTRIBUTE_INPUT",
                    "VERTEX_SHADER",
                ],
            ),
            (S::ALL_TRANSFER, First, &["BLIT", "CLEAR", "COPY", "RESOLVE"]),
            (S::TOP_OF_PIPE, First, &[]),
            (S::BOTTOM_OF_PIPE, Second, &[]),
            (S::TOP_OF_PIPE, Second, &UNIVERSAL),
            (S::ALL_COMMANDS, First, &UNIVERSAL),
            // The early fragment tests come before the fragment shader.
            (
                S::FRAGMENT_SHADER,
                First,
                &[
                    "DRAW_INDIRECT",
                    "EARLY_FRAGMENT_TESTS",
                    "FRAGMENT_SHADER",
                    "GEOMETRY_SHADER",
                    "INDEX_INPUT",
                    "TESSELLATION_CONTROL_SHADER",
                    "TESSELLATION_EVALUATION_SHADER",
                    "VERTEX_ATTRIBUTE_INPUT",
                    "VERTEX_SHADER",
                ],
            ),
            (
                S::FRAGMENT_SHADER,
                Second,
                &[
                    "COLOR_ATTACHMENT_OUTPUT",
                    "FRAGMENT_SHADER",
                    "LATE_FRAGMENT_TESTS",
                ],
            ),
            (
                S::VERTEX_INPUT,
                Second,
                &[
                    "COLOR_ATTACHMENT_OUTPUT",
                    "EARLY_FRAGMENT_TESTS",
                    "FRAGMENT_SHADER",
                    "GEOMETRY_SHADER",
                    "INDEX_INPUT",
                    "LATE_FRAGMENT_TESTS",
                    "TESSELLATION_CONTROL_SHADER",
                    "TESSELLATION_EVALUATION_SHADER",
                    "VERTEX_ATTRIBUTE_INPUT",
                    "VERTEX_SHADER",
                ],
            ),
            (S::HOST, First, &["HOST"]),
        ];
        for (mask, side, want) in cases {
            assert_eq!(sync_scope(mask.bits(), *side), set(want), "{mask} on {side:?}");
        }
    }

    #[test]
    fn access_scopes_hold_only_supported_pairs_of_named_stages() {
        use Side::*;
        let pairs = |s: S, a: A, side| access_scope(s.bits(), a.bits(), side);
        assert_eq!(
            pairs(S::COMPUTE_SHADER, A::MEMORY_READ, First),
            [
                ("COMPUTE_SHADER", "SHADER_SAMPLED_READ"),
                ("COMPUTE_SHADER", "SHADER_STORAGE_READ"),
                ("COMPUTE_SHADER", "UNIFORM_READ")
            ]
            .into_iter()
            .collect()
        );
        assert_eq!(
            pairs(S::ALL_COMMANDS, A::HOST_READ | A::TRANSFER_READ, Second).len(),
            3,
            "COPY, BLIT, RESOLVE read; ALL_COMMANDS has no HOST"
        );
        assert!(pairs(S::TOP_OF_PIPE, A::MEMORY_READ, Second).is_empty());
        assert_eq!(
            pairs(S::CLEAR, A::MEMORY_WRITE, First),
            [("CLEAR", "TRANSFER_WRITE")].into_iter().collect()
        );
        assert_eq!(
            pairs(S::HOST, A::MEMORY_READ | A::MEMORY_WRITE, Second),
            [("HOST", "HOST_READ"), ("HOST", "HOST_WRITE")]
                .into_iter()
                .collect()
        );
    }
}
