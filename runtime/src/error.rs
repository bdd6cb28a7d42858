//! The runtime's error type. Every fallible step (loading Vulkan, choosing a
//! device, validating a program before recording, Vulkan calls, memory)
//! reports here with enough context to act on; nothing in the crate panics
//! on a Vulkan failure. It does not own validation-layer messages: those are
//! results ([`crate::ValidationMessage`]), not errors.

use crate::checks::CheckError;
use ash::vk;
use vksync::Location;

/// The crate's result type.
pub type Result<T, E = RuntimeError> = std::result::Result<T, E>;

/// Why the runtime could not create a device or run a program.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    #[error("cannot load the Vulkan loader (libvulkan.so.1; Debian: apt-get install libvulkan1 mesa-vulkan-drivers): {0}")]
    Loader(#[from] ash::LoadingError),
    #[error("{call} failed: {result}")]
    Vulkan { call: &'static str, result: vk::Result },
    #[error("no Vulkan physical device found (for lavapipe install Debian's mesa-vulkan-drivers)")]
    NoDevice,
    #[error("no Vulkan device name contains `{wanted}` (from VKSYNC_DEVICE); available: {available}")]
    DeviceNotFound { wanted: String, available: String },
    #[error("device `{device}` (Vulkan {api}) does not support synchronization2, a Vulkan 1.3 core feature the runtime requires")]
    NoSynchronization2 { device: String, api: String },
    #[error("device `{device}` has no queue family with compute support")]
    NoComputeQueue { device: String },
    #[error("validation was required (VKSYNC_VALIDATION=1) but VK_LAYER_KHRONOS_validation is not installed (Debian: vulkan-validationlayers)")]
    ValidationUnavailable,
    #[error("allocating {what}: {source}")]
    Allocation {
        what: String,
        #[source]
        source: gpu_allocator::AllocationError,
    },
    #[error("memory object {mem} ({what}) is not host visible; the runtime maps only memory the program accesses from the host")]
    NotMapped { mem: u32, what: String },
    #[error("invalid program at {}: {}", show_location(.at), .source.kind)]
    Program {
        at: Location,
        #[source]
        source: vksync::ProgramError,
    },
    #[error("{}: {source}", show_location(.at))]
    Check {
        /// The command (a dispatch, a host read) or the object (a memory
        /// object's owner) the check is about.
        at: Location,
        #[source]
        source: CheckError,
    },
    #[error("command {command} (`{keyword}`) cannot be recorded once and submitted repeatedly: {reason}")]
    NotRepeatable {
        command: usize,
        keyword: &'static str,
        /// What the path that refused it takes instead.
        reason: &'static str,
    },
    #[error("binary semaphore `{semaphore}` is still signalled at the end of the program (signalled at command {command} and never waited for): a prepared program must wait for every binary semaphore it signals, so that its next execution can signal it again")]
    SemaphoreLeftSignalled {
        /// The submit whose signal is never waited for.
        command: usize,
        semaphore: String,
    },
    #[error("semaphore `{name}` is a timeline semaphore: prepared programs take binary semaphores only (a timeline's values only grow, so the same values cannot be signalled again by the next execution)")]
    TimelineNotRepeatable {
        semaphore: vksync::SemaphoreId,
        name: String,
    },
    #[error("the prepared programs cannot be executed any more: an execution of prepared program {program} failed half way ({cause}), which may have left binary semaphores signalled")]
    PreparedUnusable {
        program: usize,
        /// What failed, e.g. `batch 3: vkQueueSubmit2: ERROR_OUT_OF_DEVICE_MEMORY`.
        cause: String,
    },
    #[error("prepared program {program} has other memory objects than program 0; programs prepared together must share them (the same program with other barriers, or scheduled)")]
    LayoutMismatch { program: usize },
    #[error("no prepared program {index} (there are {count})")]
    NoSuchProgram { index: usize, count: usize },
    #[error("comparing with the CPU reference: {0}")]
    Reference(#[from] vksync::reference::ReferenceError),
    #[error("the command buffer of commands {first}..={last} (submitted at {}) did not complete within {timeout:?}, the fence timeout (raise it with DeviceOptions::fence_timeout or VKSYNC_FENCE_TIMEOUT_MS){}", show_submitted_at(*.submitted_at), show_behind(.behind.as_deref()))]
    FenceTimeout {
        /// The `submit` command, or the host access before which the
        /// runtime submitted implicitly; `None`: at the program's end.
        submitted_at: Option<usize>,
        /// The first and last program command recorded into the command
        /// buffer.
        first: usize,
        last: usize,
        timeout: std::time::Duration,
        /// The earliest submission of the same model queue that has not
        /// completed either, when it is an earlier one: what the late
        /// command buffer may be stuck behind.
        behind: Option<Box<Behind>>,
    },
    #[error("prepared program {program} did not complete within {timeout:?}")]
    ExecutionTimeout {
        program: usize,
        timeout: std::time::Duration,
    },
    #[error("{what} is still executing after waiting another {waited:?}; Vulkan cannot cancel submitted work, so the device takes no new work until it completes")]
    StillRunning {
        /// The work still executing, e.g. `the command buffer of commands
        /// 2..=3 (submitted at command 4)`.
        what: String,
        waited: std::time::Duration,
    },
    #[error("command {command} (`host-wait {semaphore} {value}`): the semaphore did not reach {value} within {timeout:?}, the fence timeout")]
    SemaphoreTimeout {
        command: usize,
        /// The semaphore's name.
        semaphore: String,
        value: u64,
        timeout: std::time::Duration,
    },
    #[error("device `{device}` does not support timeline semaphores (Vulkan 1.2 `timelineSemaphore`), which semaphore `{semaphore}` is")]
    NoTimelineSemaphores { device: String, semaphore: String },
    #[error("the device lays linear image `{image}` out with its texels at offset {offset} and rows {row_pitch} bytes apart (vkGetImageSubresourceLayout), the program with them at 0 and {model} bytes apart: the host's bytes and the model's would differ (declare it `rowPitch={row_pitch}`, as `vksync capture` does, when the offset is 0)")]
    LinearLayout {
        image: String,
        offset: u64,
        row_pitch: u64,
        model: u64,
    },
    #[error("{var}={value:?}: expected {expected}")]
    BadEnvironment {
        var: &'static str,
        value: String,
        expected: &'static str,
    },
}

fn show_submitted_at(at: Option<usize>) -> String {
    at.map_or("the end of the program".to_string(), |c| format!("command {c}"))
}

/// An earlier submission of the late command buffer's queue that has not
/// completed either ([`RuntimeError::FenceTimeout`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Behind {
    /// As for the late command buffer.
    pub submitted_at: Option<usize>,
    pub first: usize,
    pub last: usize,
    /// The semaphores its batch waits for (a value for a timeline one).
    pub waits: Vec<(vksync::SemaphoreId, Option<u64>)>,
}

fn show_behind(behind: Option<&Behind>) -> String {
    let Some(b) = behind else { return String::new() };
    let waits = if b.waits.is_empty() {
        "waits for no semaphore".to_string()
    } else {
        let list: Vec<String> = b
            .waits
            .iter()
            .map(|(s, v)| match v {
                Some(v) => format!("semaphore {} value {v}", s.0),
                None => format!("semaphore {}", s.0),
            })
            .collect();
        format!("waits for {}", list.join(", "))
    };
    format!(
        "; before it on its queue, the command buffer of commands {}..={} (submitted at {}) has not completed either; its batch {waits}",
        b.first,
        b.last,
        show_submitted_at(b.submitted_at)
    )
}

impl RuntimeError {
    /// The command or object of the program an error is about, if any
    /// (for a fence timeout: the first command of the command buffer).
    pub fn location(&self) -> Option<Location> {
        match self {
            RuntimeError::Program { at, .. } | RuntimeError::Check { at, .. } => Some(*at),
            RuntimeError::NotRepeatable { command, .. }
            | RuntimeError::SemaphoreLeftSignalled { command, .. } => Some(Location::Command(*command)),
            RuntimeError::TimelineNotRepeatable { semaphore, .. } => Some(Location::Semaphore(*semaphore)),
            RuntimeError::FenceTimeout { first, .. } => Some(Location::Command(*first)),
            RuntimeError::SemaphoreTimeout { command, .. } => Some(Location::Command(*command)),
            _ => None,
        }
    }
}

fn show_location(at: &Location) -> String {
    match at {
        Location::Command(i) => format!("command {i}"),
        Location::Object(o) => format!("object {}", o.0),
        Location::Queue(q) => format!("queue {}", q.0),
        Location::Semaphore(s) => format!("semaphore {}", s.0),
        Location::Event(e) => format!("event {}", e.0),
    }
}

impl From<vksync::ProgramError> for RuntimeError {
    fn from(e: vksync::ProgramError) -> Self {
        RuntimeError::Program { at: e.at, source: e }
    }
}

/// Attaches the Vulkan call's name to a `vk::Result` error.
pub(crate) trait VkContext<T> {
    fn ctx(self, call: &'static str) -> Result<T>;
}

impl<T> VkContext<T> for std::result::Result<T, vk::Result> {
    fn ctx(self, call: &'static str) -> Result<T> {
        self.map_err(|result| RuntimeError::Vulkan { call, result })
    }
}
