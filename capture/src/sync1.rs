//! The one conversion of Vulkan barrier masks into the model's terms:
//! synchronization-1 masks (`vkCmdPipelineBarrier`) to synchronization-2
//! masks, and synchronization-2 masks to the model's flags.
//!
//! This module owns the rule, and nothing else: it does not know commands
//! or buffers. The rule (Vulkan spec, "Synchronization and Cache Control":
//! the legacy `VkPipelineStageFlagBits` and `VkAccessFlagBits` are defined
//! as the same bits, with the same meaning, as the low 32 bits of
//! `VkPipelineStageFlagBits2`/`VkAccessFlagBits2`):
//!
//! - every synchronization-1 stage or access bit is the
//!   synchronization-2 bit of the same value: `TRANSFER` (0x1000) is
//!   `ALL_TRANSFER`, `SHADER_READ`/`SHADER_WRITE` keep their meaning as
//!   meta accesses (sync2 expands `SHADER_READ` to the sampled, storage and
//!   uniform reads the stage can make), `MEMORY_READ`/`MEMORY_WRITE` too;
//! - `TOP_OF_PIPE` and `BOTTOM_OF_PIPE` keep their bits. The spec defines
//!   the legacy meaning (`TOP_OF_PIPE` is no stage in a first scope and
//!   `ALL_COMMANDS` with no access in a second; `BOTTOM_OF_PIPE` the
//!   mirror image) exactly as synchronization 2 deprecates them, and the
//!   model implements that meaning (docs/semantics.md);
//! - a stage mask of 0 is `NONE` (valid in sync1 only with the
//!   `synchronization2` feature, where it means `NONE`).
//!
//! So the first step is the identity on bits, zero-extended to 64; it is
//! still written here, once, so that the rule has a home and a test.
//!
//! The second step keeps the bits the model knows (compute, transfer,
//! host, the core graphics stages and accesses, the meta stages) and
//! reports the others (ray tracing, acceleration structures, mesh shading,
//! fragment shading rate...) as dropped. Dropping a stage from either
//! scope, or an access from either access scope, only removes ordering,
//! so the model can then report a hazard the application does not have,
//! never miss one; the capture writes a comment when it happens.

use ash::vk;
use vksync::{AccessFlags2, PipelineStageFlags2};

/// A synchronization-1 stage mask in synchronization-2 terms.
pub fn stages_1_to_2(mask: vk::PipelineStageFlags) -> vk::PipelineStageFlags2 {
    vk::PipelineStageFlags2::from_raw(u64::from(mask.as_raw()))
}

/// A synchronization-1 access mask in synchronization-2 terms.
pub fn access_1_to_2(mask: vk::AccessFlags) -> vk::AccessFlags2 {
    vk::AccessFlags2::from_raw(u64::from(mask.as_raw()))
}

/// Masks in the model's terms, and the bits it does not know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelMasks {
    /// Source stages the model knows.
    pub src_stages: PipelineStageFlags2,
    /// Source accesses the model knows.
    pub src_access: AccessFlags2,
    /// Destination stages the model knows.
    pub dst_stages: PipelineStageFlags2,
    /// Destination accesses the model knows.
    pub dst_access: AccessFlags2,
    /// Stage bits dropped (either scope), as raw synchronization-2 bits.
    pub dropped_stages: u64,
    /// Access bits dropped (either scope).
    pub dropped_access: u64,
}

/// Synchronization-2 masks in the model's terms.
pub fn to_model(
    src_stages: vk::PipelineStageFlags2,
    src_access: vk::AccessFlags2,
    dst_stages: vk::PipelineStageFlags2,
    dst_access: vk::AccessFlags2,
) -> ModelMasks {
    let s = |m: vk::PipelineStageFlags2| PipelineStageFlags2::from_bits_truncate(m.as_raw());
    let a = |m: vk::AccessFlags2| AccessFlags2::from_bits_truncate(m.as_raw());
    let ds = |m: vk::PipelineStageFlags2| m.as_raw() & !PipelineStageFlags2::all().bits();
    let da = |m: vk::AccessFlags2| m.as_raw() & !AccessFlags2::all().bits();
    ModelMasks {
        src_stages: s(src_stages),
        src_access: a(src_access),
        dst_stages: s(dst_stages),
        dst_access: a(dst_access),
        dropped_stages: ds(src_stages) | ds(dst_stages),
        dropped_access: da(src_access) | da(dst_access),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vk::AccessFlags as A1;
    use vk::PipelineStageFlags as S1;

    /// One row per rule of the conversion: the sync1 mask and the model's
    /// flags, written by name.
    #[test]
    fn sync1_stages_become_sync2_stages_of_the_same_meaning() {
        let cases: &[(S1, &str)] = &[
            (S1::TOP_OF_PIPE, "TOP_OF_PIPE"),
            (S1::BOTTOM_OF_PIPE, "BOTTOM_OF_PIPE"),
            (S1::TRANSFER, "ALL_TRANSFER"),
            (S1::COMPUTE_SHADER, "COMPUTE_SHADER"),
            (S1::DRAW_INDIRECT, "DRAW_INDIRECT"),
            (S1::HOST, "HOST"),
            (S1::ALL_COMMANDS, "ALL_COMMANDS"),
            (S1::COMPUTE_SHADER | S1::TRANSFER, "COMPUTE_SHADER|ALL_TRANSFER"),
            (S1::empty(), "NONE"),
        ];
        for (sync1, model) in cases {
            let m = to_model(
                stages_1_to_2(*sync1),
                vk::AccessFlags2::empty(),
                vk::PipelineStageFlags2::empty(),
                vk::AccessFlags2::empty(),
            );
            assert_eq!(
                m.src_stages,
                PipelineStageFlags2::parse(model).unwrap(),
                "{sync1:?}"
            );
            assert_eq!(m.dropped_stages, 0, "{sync1:?}");
        }
    }

    #[test]
    fn sync1_accesses_become_sync2_accesses_of_the_same_meaning() {
        let cases: &[(A1, &str)] = &[
            (A1::SHADER_READ, "SHADER_READ"),
            (A1::SHADER_WRITE, "SHADER_WRITE"),
            (A1::TRANSFER_READ, "TRANSFER_READ"),
            (A1::TRANSFER_WRITE, "TRANSFER_WRITE"),
            (A1::INDIRECT_COMMAND_READ, "INDIRECT_COMMAND_READ"),
            (A1::UNIFORM_READ, "UNIFORM_READ"),
            (A1::HOST_READ | A1::HOST_WRITE, "HOST_READ|HOST_WRITE"),
            (A1::MEMORY_READ | A1::MEMORY_WRITE, "MEMORY_READ|MEMORY_WRITE"),
            (A1::empty(), "NONE"),
        ];
        for (sync1, model) in cases {
            let m = to_model(
                vk::PipelineStageFlags2::empty(),
                access_1_to_2(*sync1),
                vk::PipelineStageFlags2::empty(),
                vk::AccessFlags2::empty(),
            );
            assert_eq!(m.src_access, AccessFlags2::parse(model).unwrap(), "{sync1:?}");
            assert_eq!(m.dropped_access, 0, "{sync1:?}");
        }
    }

    #[test]
    fn bits_of_both_versions_agree_with_ash() {
        // The identity is the rule only because the bit values agree.
        assert_eq!(stages_1_to_2(S1::TRANSFER), vk::PipelineStageFlags2::ALL_TRANSFER);
        assert_eq!(
            stages_1_to_2(S1::TOP_OF_PIPE),
            vk::PipelineStageFlags2::TOP_OF_PIPE
        );
        assert_eq!(access_1_to_2(A1::SHADER_WRITE), vk::AccessFlags2::SHADER_WRITE);
        assert_eq!(access_1_to_2(A1::MEMORY_READ), vk::AccessFlags2::MEMORY_READ);
    }

    /// Graphics stages and accesses are kept: real applications name them
    /// in the barriers around render passes, and execution dependency
    /// chains run through them. Bits of pipelines the model does not have
    /// (ray tracing, fragment shading rate) are dropped and reported.
    #[test]
    fn graphics_bits_are_kept_and_other_pipelines_dropped() {
        let m = to_model(
            stages_1_to_2(S1::FRAGMENT_SHADER | S1::COMPUTE_SHADER | S1::RAY_TRACING_SHADER_KHR),
            access_1_to_2(A1::COLOR_ATTACHMENT_WRITE | A1::SHADER_WRITE),
            stages_1_to_2(S1::VERTEX_SHADER | S1::COLOR_ATTACHMENT_OUTPUT),
            access_1_to_2(A1::SHADER_READ | A1::FRAGMENT_SHADING_RATE_ATTACHMENT_READ_KHR),
        );
        assert_eq!(
            m.src_stages,
            PipelineStageFlags2::FRAGMENT_SHADER | PipelineStageFlags2::COMPUTE_SHADER
        );
        assert_eq!(
            m.src_access,
            AccessFlags2::COLOR_ATTACHMENT_WRITE | AccessFlags2::SHADER_WRITE
        );
        assert_eq!(
            m.dst_stages,
            PipelineStageFlags2::VERTEX_SHADER | PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT
        );
        assert_eq!(m.dst_access, AccessFlags2::SHADER_READ);
        assert_eq!(
            m.dropped_stages,
            vk::PipelineStageFlags2::RAY_TRACING_SHADER_KHR.as_raw()
        );
        assert_eq!(
            m.dropped_access,
            vk::AccessFlags2::FRAGMENT_SHADING_RATE_ATTACHMENT_READ_KHR.as_raw()
        );
    }
}
