//! Vulkan's synchronization vocabulary: the stage and access flags with
//! their names and bit values ([`flags`]), and what a stage mask and an
//! access mask in a barrier cover ([`scope`]). Nothing here knows about
//! programs, memory or hazards; everything else builds on it.

pub(crate) mod flags;
pub(crate) mod scope;

pub use flags::{AccessFlags2, PipelineStageFlags2, UnknownFlag};
pub use scope::{validate, ScopeError, Side, Stage, StageAccess};
