//! The program representation: objects and commands ([`program`]), where
//! every object lives in memory and whether a program is well formed
//! ([`layout`]), and which memory each command accesses in which stage
//! ([`access`]), and the queues and semaphores that order commands across
//! queues ([`queue`]), what is known complete when (`completion`), when each command executes (`execution`), and
//! events, the split barriers ([`event`]), and exact images with subresources and layouts ([`image`]), and dynamic rendering with draws ([`render`]). It depends only on [`crate::vk`] and the model's options
//! ([`crate::semantics`]); the checker, the planners, the trace format and
//! the definitional semantics all read programs through it.

pub mod access;
pub(crate) mod completion;
pub mod error;
pub mod event;
pub(crate) mod execution;
pub mod image;
pub mod layout;
pub mod program;
pub(crate) mod progress;
pub mod queue;
pub mod render;
pub mod renderpass;
