//! Synchronization and access scopes, computed from the registry rows
//! ([`super::registry`]) and the sentences of the specification that give
//! the pseudo stages their meaning.
//!
//! Stages and accesses are registry names (`"COPY"`, `"TRANSFER_READ"`).
//! A *concrete* stage or access is one without `<syncequivalent>` that is
//! not a pseudo flag (`NONE`, `TOP_OF_PIPE`, `BOTTOM_OF_PIPE`,
//! `ALL_COMMANDS`, `MEMORY_READ`, `MEMORY_WRITE`); scopes are sets of
//! concrete stages and of concrete (stage, access) pairs. This module does
//! not know about commands or memory.

use super::registry::{AccessRow, StageRow, ACCESSES, PIPELINES, STAGES};
use std::collections::BTreeSet;

/// The capabilities of the queue every command of a program is submitted
/// to: the model's queue supports compute and transfer work (the compute
/// family of the devices it runs on; a graphics family adds stages that no
/// command of the model executes).
pub(crate) const QUEUE_CAPABILITIES: &[&str] = &["compute", "transfer"];

/// A set of concrete stages.
pub(crate) type Stages = BTreeSet<&'static str>;

/// A set of concrete (stage, access) pairs.
pub(crate) type Pairs = BTreeSet<(&'static str, &'static str)>;

/// Which scope of a dependency a stage mask is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    First,
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

/// `VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT`: "specifies all operations
/// performed by all commands supported on the queue it is used with" —
/// every concrete stage whose `<syncsupport queues>` names a capability of
/// the queue. `HOST` has no queue support: "This stage is not invoked by
/// any commands recorded in a command buffer."
pub(crate) fn all_commands() -> Stages {
    concrete_stages()
        .into_iter()
        .filter(|s| stage_row(s).queues.iter().any(|q| QUEUE_CAPABILITIES.contains(q)))
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
/// direction; every access flag of the model is named `..._READ` or
/// `..._WRITE`.
pub(crate) fn is_write(access: &str) -> bool {
    access.ends_with("_WRITE")
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

/// The registry name of a single stage bit.
pub(crate) fn stage_name(bit: u64) -> &'static str {
    STAGES
        .iter()
        .find(|r| r.bit == bit)
        .map(|r| r.name)
        .unwrap_or_else(|| panic!("stage bit {bit:#x} is not in the registry rows"))
}

/// The registry name of a single access bit.
pub(crate) fn access_name(bit: u64) -> &'static str {
    ACCESSES
        .iter()
        .find(|r| r.bit == bit)
        .map(|r| r.name)
        .unwrap_or_else(|| panic!("access bit {bit:#x} is not in the registry rows"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vk::flags::{AccessFlags2 as A, PipelineStageFlags2 as S};

    fn set(xs: &[&'static str]) -> Stages {
        xs.iter().copied().collect()
    }

    #[test]
    fn scopes_follow_the_registry_and_the_pseudo_stage_sentences() {
        use Side::*;
        let cases: &[(S, Side, &[&str])] = &[
            (S::NONE, First, &[]),
            (S::COMPUTE_SHADER, First, &["COMPUTE_SHADER", "DRAW_INDIRECT"]),
            (S::COMPUTE_SHADER, Second, &["COMPUTE_SHADER"]),
            (S::DRAW_INDIRECT, Second, &["COMPUTE_SHADER", "DRAW_INDIRECT"]),
            (S::ALL_TRANSFER, First, &["BLIT", "CLEAR", "COPY", "RESOLVE"]),
            (S::TOP_OF_PIPE, First, &[]),
            (S::BOTTOM_OF_PIPE, Second, &[]),
            (
                S::TOP_OF_PIPE,
                Second,
                &[
                    "BLIT",
                    "CLEAR",
                    "COMPUTE_SHADER",
                    "COPY",
                    "DRAW_INDIRECT",
                    "RESOLVE",
                ],
            ),
            (
                S::ALL_COMMANDS,
                First,
                &[
                    "BLIT",
                    "CLEAR",
                    "COMPUTE_SHADER",
                    "COPY",
                    "DRAW_INDIRECT",
                    "RESOLVE",
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
