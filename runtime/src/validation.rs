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

pub(crate) fn types() -> vk::DebugUtilsMessageTypeFlagsEXT {
    vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
        | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
        | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE
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
