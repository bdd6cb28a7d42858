//! Capture of validation-layer messages (core validation and
//! synchronization validation) as structured records.
//!
//! This module owns the `VK_EXT_debug_utils` callback, the shared capture
//! state it writes to, and the "current command" cell that the recorder sets
//! before recording each program command, so every message carries the
//! index of the command whose recording (or submission) produced it. It does
//! not decide whether validation is enabled (that is [`crate::device`]) nor
//! interpret messages against the model (that is the property suites').

use ash::vk;
use std::ffi::{c_void, CStr};
use std::sync::Mutex;

/// How serious a message is (`VkDebugUtilsMessageSeverityFlagBitsEXT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Verbose,
    Info,
    Warning,
    Error,
}

/// One validation-layer message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationMessage {
    /// `pMessageIdName`, e.g. `SYNC-HAZARD-WRITE-AFTER-READ` or a VUID.
    pub id_name: String,
    /// `messageIdNumber`.
    pub id_number: i32,
    pub severity: Severity,
    /// `pMessage`, the full text.
    pub text: String,
    /// Index of the program command being recorded or submitted when the
    /// message arrived; `None` outside any command (device setup, the
    /// implicit submission at the end of a program).
    pub command: Option<usize>,
}

impl ValidationMessage {
    /// Whether this is a synchronization-validation hazard report.
    pub fn is_sync_hazard(&self) -> bool {
        self.id_name.starts_with("SYNC-HAZARD")
    }

    /// The key-value lines of the message's `[Extra properties]` block, in
    /// order: synchronization validation appends it from 1.4.304 on when
    /// `syncval_message_extra_properties` is on (the runtime turns it on,
    /// [`crate::device::layer_settings`]). Empty when the message has none
    /// (1.3.239, core validation). Use these rather than the prose, whose
    /// wording changes between versions (1.4.363 says "Shader stage
    /// VK_SHADER_STAGE_COMPUTE_BIT in vkCmdDispatch" where 1.4.309 said
    /// "vkCmdDispatch").
    pub fn extra_properties(&self) -> Vec<(&str, &str)> {
        let mut lines = self.text.lines().skip_while(|l| l.trim() != "[Extra properties]");
        if lines.next().is_none() {
            return Vec::new();
        }
        lines
            .map_while(|l| l.split_once(" = "))
            .map(|(k, v)| (k.trim(), v.trim()))
            .collect()
    }

    /// The message in one line: from its `[Extra properties]` when it has
    /// them (`READ_AFTER_WRITE: vkCmdDispatch
    /// VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT(...) after vkCmdFillBuffer
    /// VK_PIPELINE_STAGE_2_CLEAR_BIT(...)`, the same words in every
    /// version that has them), else the text's first line.
    pub fn summary(&self) -> String {
        let p = |k: &str| self.extra_property(k);
        match (p("hazard_type"), p("command")) {
            (Some(kind), Some(command)) => {
                let mut s = format!("{kind}: {command}");
                if let Some(a) = p("access") {
                    s += &format!(" {a}");
                }
                if let Some(c) = p("prior_command") {
                    s += &format!(" after {c}");
                }
                if let Some(a) = p("prior_access") {
                    s += &format!(" {a}");
                }
                if let Some(t) = p("message_type") {
                    s += &format!(" ({t})");
                }
                s
            }
            _ => self.text.lines().next().unwrap_or("").to_string(),
        }
    }

    /// One property of [`ValidationMessage::extra_properties`], e.g.
    /// `hazard_type`, `command`, `prior_command`, `access` (1.4.363 on
    /// submit-time messages, record-time ones since 1.4.304),
    /// `prior_access`, `message_type` (`SubmitTimeError` for a hazard
    /// found at `vkQueueSubmit2`).
    pub fn extra_property(&self, key: &str) -> Option<&str> {
        self.extra_properties()
            .into_iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }
}

impl std::fmt::Display for ValidationMessage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.command {
            Some(c) => write!(
                f,
                "[{:?}] {} at command {c}: {}",
                self.severity, self.id_name, self.text
            ),
            None => write!(f, "[{:?}] {}: {}", self.severity, self.id_name, self.text),
        }
    }
}

#[derive(Default)]
struct State {
    current: Option<usize>,
    messages: Vec<ValidationMessage>,
}

/// Shared between the device and the debug callback; the callback gets a
/// pointer to it as user data, so it lives in a `Box` that outlives the
/// messenger (see [`crate::device`]).
#[derive(Default)]
pub(crate) struct Capture {
    state: Mutex<State>,
}

impl Capture {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A poisoned lock only means a panic elsewhere; the records are
        // still consistent (each push is one operation).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets the command that later messages are attributed to.
    pub(crate) fn set_command(&self, command: Option<usize>) {
        self.lock().current = command;
    }

    /// Takes every message captured so far.
    pub(crate) fn take(&self) -> Vec<ValidationMessage> {
        std::mem::take(&mut self.lock().messages)
    }

    fn push(&self, mut m: ValidationMessage) {
        let mut s = self.lock();
        m.command = s.current;
        s.messages.push(m);
    }
}

/// Severities captured: info and verbose carry layer chatter (loader and
/// layer version notes), never findings.
pub(crate) fn severities() -> vk::DebugUtilsMessageSeverityFlagsEXT {
    vk::DebugUtilsMessageSeverityFlagsEXT::WARNING | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR
}

/// Types captured: general and validation messages. Performance warnings
/// are advice, not findings: the layer sends one for every copy of an
/// image in `GENERAL` (valid for every transfer command; "For optimal
/// performance ... layout should be VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL
/// instead of GENERAL"), which would make a valid program's run unclean.
pub(crate) fn types() -> vk::DebugUtilsMessageTypeFlagsEXT {
    vk::DebugUtilsMessageTypeFlagsEXT::GENERAL | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
}

/// # Safety
/// Called by the Vulkan loader/layer with valid callback data for the
/// duration of the call; `user` is the `*const Capture` given at messenger
/// creation, alive for the messenger's lifetime.
pub(crate) unsafe extern "system" fn callback(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    if data.is_null() || user.is_null() {
        return vk::FALSE;
    }
    // SAFETY: non-null, and valid for this call per the debug_utils spec.
    let d = unsafe { &*data };
    let text = |p: *const std::ffi::c_char| {
        if p.is_null() {
            String::new()
        } else {
            // SAFETY: the layer passes NUL-terminated strings valid for this call.
            unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
        }
    };
    let severity = if severity.contains(vk::DebugUtilsMessageSeverityFlagsEXT::ERROR) {
        Severity::Error
    } else if severity.contains(vk::DebugUtilsMessageSeverityFlagsEXT::WARNING) {
        Severity::Warning
    } else if severity.contains(vk::DebugUtilsMessageSeverityFlagsEXT::INFO) {
        Severity::Info
    } else {
        Severity::Verbose
    };
    let m = ValidationMessage {
        id_name: text(d.p_message_id_name),
        id_number: d.message_id_number,
        severity,
        text: text(d.p_message),
        command: None,
    };
    // SAFETY: `user` is the boxed Capture registered with the messenger,
    // which the device keeps alive until after the messenger is destroyed.
    let capture = unsafe { &*(user as *const Capture) };
    // Unwinding across the FFI boundary would abort; swallow any panic.
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| capture.push(m)));
    // VK_FALSE: never abort the Vulkan call that triggered the message.
    vk::FALSE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(text: &str) -> ValidationMessage {
        ValidationMessage {
            id_name: "SYNC-HAZARD-READ-AFTER-WRITE".into(),
            id_number: 0,
            severity: Severity::Error,
            text: text.into(),
            command: None,
        }
    }

    /// Messages as the layers sent them for
    /// `tests/layer-versions/submit-dispatch.trace` (`docs/testing.md`,
    /// "Layer 1.4.363"), cut to the lines that matter.
    #[test]
    fn extra_properties_are_read_where_they_exist() {
        // (text, key, value)
        let l309 = "vkQueueSubmit2(): READ_AFTER_WRITE hazard detected. vkCmdDispatch (from VkCommandBuffer 0x1 submitted on the current VkQueue 0x2) reads VkBuffer 0x3, which was previously written by vkCmdFillBuffer.\n\
                    No sufficient synchronization is present.\n\
                    [Extra properties]\n\
                    message_type = SubmitTimeError\n\
                    hazard_type = READ_AFTER_WRITE\n\
                    prior_access = VK_PIPELINE_STAGE_2_CLEAR_BIT(VK_ACCESS_2_TRANSFER_WRITE_BIT)\n\
                    command = vkCmdDispatch\n\
                    prior_command = vkCmdFillBuffer\n\
                    batch_tag = 1";
        let l363 = "vkQueueSubmit2(): pSubmits[0].pCommandBufferInfos[0] READ_AFTER_WRITE hazard detected. Shader stage VK_SHADER_STAGE_COMPUTE_BIT in vkCmdDispatch (from VkCommandBuffer 0x1) reads VkBuffer 0x3.\n\
                    [Extra properties]\n\
                    message_type = SubmitTimeError\n\
                    hazard_type = READ_AFTER_WRITE\n\
                    access = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT(VK_ACCESS_2_SHADER_STORAGE_READ_BIT)\n\
                    command = vkCmdDispatch\n\
                    seq_no = 1";
        let l239 = "Validation Error: [ SYNC-HAZARD-READ-AFTER-WRITE ] | vkCmdCopyBuffer: Hazard READ_AFTER_WRITE. Access info (usage: SYNC_COPY_TRANSFER_READ, command: vkCmdCopyBuffer, seq_no: 1).";
        let cases: &[(&str, &str, Option<&str>)] = &[
            (l309, "hazard_type", Some("READ_AFTER_WRITE")),
            (l309, "command", Some("vkCmdDispatch")),
            (
                l309,
                "prior_access",
                Some("VK_PIPELINE_STAGE_2_CLEAR_BIT(VK_ACCESS_2_TRANSFER_WRITE_BIT)"),
            ),
            (l309, "access", None),
            (l309, "batch_tag", Some("1")),
            (l363, "command", Some("vkCmdDispatch")),
            (
                l363,
                "access",
                Some("VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT(VK_ACCESS_2_SHADER_STORAGE_READ_BIT)"),
            ),
            (l363, "seq_no", Some("1")),
            (l363, "message_type", Some("SubmitTimeError")),
            // No block: the prose's "command: vkCmdCopyBuffer" is not a property.
            (l239, "command", None),
        ];
        for &(text, key, want) in cases {
            assert_eq!(message(text).extra_property(key), want, "{key} in {text}");
        }
        assert!(message(l239).extra_properties().is_empty());
        // (text, one-line summary)
        let summaries = [
            (
                l309,
                "READ_AFTER_WRITE: vkCmdDispatch after vkCmdFillBuffer \
                 VK_PIPELINE_STAGE_2_CLEAR_BIT(VK_ACCESS_2_TRANSFER_WRITE_BIT) (SubmitTimeError)",
            ),
            (
                l363,
                "READ_AFTER_WRITE: vkCmdDispatch \
                 VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT(VK_ACCESS_2_SHADER_STORAGE_READ_BIT) (SubmitTimeError)",
            ),
            (l239, l239),
        ];
        for (text, want) in summaries {
            assert_eq!(message(text).summary(), want);
        }
        assert_eq!(message(l363).extra_properties().len(), 5);
    }
}
