//! Vulkan's synchronization vocabulary: the stage and access flags with
//! their names and bit values ([`PipelineStageFlags2`], [`AccessFlags2`]),
//! and what a stage mask and an access mask in a barrier cover
//! ([`validate`]; the scopes themselves are the model's interior), and
//! the image vocabulary: formats, aspects, layouts ([`image`]). Nothing here knows about
//! programs, memory or hazards; everything else builds on it.

pub(crate) mod flags;
pub mod image;
pub(crate) mod scope;

pub use flags::{AccessFlags2, PipelineStageFlags2, UnknownFlag};
pub use scope::{validate, ScopeError, Side, Stage, StageAccess};
