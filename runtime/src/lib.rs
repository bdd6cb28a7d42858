//! Placeholder: the Vulkan runtime lands with its own issue.
