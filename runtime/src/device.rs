//! Vulkan instance and device creation, device choice, and the validation
//! layer setup.
//!
//! This module owns loading the Vulkan loader at run time, enabling
//! `VK_LAYER_KHRONOS_validation` with synchronization validation when it is
//! present, choosing the physical device (`VKSYNC_DEVICE`), checking for
//! synchronization2 (and enabling timeline semaphores and host query
//! reset when present), choosing the single-queue compute family, creating up to
//! [`crate::queues::MAX_QUEUES_PER_FAMILY`] queues of every compute or
//! transfer family (for multi-queue programs; [`crate::queues`] maps model
//! queues onto them), and creating the allocator and the kernels'
//! pipelines. Running programs is [`crate::recorder`]'s job; nothing here
//! assumes a particular driver.

use crate::checks::DeviceLimits;
use crate::error::{Result, RuntimeError, VkContext};
use crate::kernels::Kernels;
use crate::queues::{QueueFamily, MAX_QUEUES_PER_FAMILY};
use crate::resources::{self, InFlight};
use crate::validation::{self, Capture, ValidationMessage};
use ash::vk;
use gpu_allocator::vulkan::{Allocator, AllocatorCreateDesc};
use std::ffi::{c_void, CStr};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";

/// Serializes the loader calls that create, enumerate or destroy
/// instance-level and device-level state, across every [`Device`] of the
/// process.
///
/// The loader keeps one process-wide list of instances, each with its
/// drivers and their logical devices. `vkCreateDevice` walks that list
/// (resolving the new device's functions through `vkGetDeviceProcAddr`)
/// while another thread's `vkEnumeratePhysicalDevices` may free a driver
/// of *another* instance (loaders since 2024 unload drivers that report
/// no device: Vulkan-Loader pull request 1471) and `vkCreateDevice`/`vkDestroyDevice` add and free
/// list nodes without the loader's lock (KhronosGroup/Vulkan-Loader issues
/// 1410 and 2018). Devices created on several threads at once (`cargo
/// test` runs tests on threads) then crash inside libvulkan: seen as a
/// SIGSEGV in `vkGetDeviceProcAddr` under loader 1.4.309 with Mesa 25.
/// Holding this lock costs nothing once devices exist: running programs
/// takes no loader list walk. It is held for the whole of
/// [`Device::new`] and of a device's teardown, not only around those
/// calls: the same test binary crashed once more (in a clean-clone CI run
/// on Debian 12's loader 1.3.239, under twice the machine's load) with
/// the calls alone locked, so the layers' and the driver's own creation
/// and destruction are serialized too.
static LOADER: Mutex<()> = Mutex::new(());

thread_local! {
    /// Whether this thread holds [`LOADER`] (a teardown inside
    /// [`Device::new`]'s early return takes it again).
    static HOLDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` holding [`LOADER`], re-entrantly on one thread. A panic while
/// holding it leaves the loader's lists as consistent as the loader left
/// them, so poisoning is ignored.
fn with_loader<T>(f: impl FnOnce() -> T) -> T {
    if HOLDING.with(|h| h.get()) {
        return f();
    }
    let _guard = LOADER.lock().unwrap_or_else(PoisonError::into_inner);
    /// Clears [`HOLDING`] before the guard unlocks (declared after it),
    /// also on a panic.
    struct Holding;
    impl Drop for Holding {
        fn drop(&mut self) {
            HOLDING.with(|h| h.set(false));
        }
    }
    HOLDING.with(|h| h.set(true));
    let _holding = Holding;
    f()
}

/// Whether to enable the Khronos validation layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ValidationMode {
    /// Enable it when installed (the default).
    #[default]
    Auto,
    /// Fail device creation when it is not installed.
    Required,
    /// Never enable it.
    Off,
    /// Require the layer but leave synchronization validation off (core
    /// validation only): the baseline that isolates syncval's own cost.
    CoreOnly,
}

/// How long a fence wait may take unless told otherwise: long enough for
/// any program of the test suites on lavapipe, short enough that a runaway
/// kernel is reported instead of hanging the process.
pub const DEFAULT_FENCE_TIMEOUT: Duration = Duration::from_secs(10);

/// How to create a [`Device`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceOptions {
    /// Pick the first device whose name contains this (case-insensitive);
    /// `None`: the first device the loader lists.
    pub device: Option<String>,
    pub validation: ValidationMode,
    /// Print the chosen device on stderr.
    pub print_device: bool,
    /// The longest a run waits for one fence (a submission to complete)
    /// before it fails with [`RuntimeError::FenceTimeout`]; also the
    /// longest the device waits, before its next run and when dropped, for
    /// work that was still executing then.
    pub fence_timeout: Duration,
    /// How a validation layer that takes settings (`VK_EXT_layer_settings`,
    /// 1.4.x) is configured; see [`LayerSettings`].
    pub layer: LayerSettings,
    /// Which driver defects to record around: the chosen device's known
    /// ones ([`crate::quirks::KNOWN`]; the default), none
    /// (`VKSYNC_DRIVER_WORKAROUNDS=0`), or, as a test switch, a forced
    /// list (`VKSYNC_DRIVER_WORKAROUNDS=force:NAME,...`).
    pub workarounds: crate::quirks::Workarounds,
}

/// Settings of the Khronos validation layer, applied when the layer takes
/// settings (`VK_EXT_layer_settings`, layers of the 1.4 series; 1.3.239
/// takes none and behaves as the defaults here describe). The defaults make
/// the current layer check what the model checks and what 1.3.239 checked,
/// so the model's emulation of it is exact (`docs/testing.md`, "Layer
/// 1.4.309"); the duplicate-message limit (10 per message id per instance
/// by default since 1.4) is always switched off, since it silences every
/// run after the first few.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerSettings {
    /// `syncval_shader_accesses_heuristic`: validate and record the storage
    /// buffers a dispatch binds (the 1.4 layer's default skips them, D10).
    pub shader_accesses: bool,
    /// `syncval_submit_time_validation`: check hazards across command
    /// buffers when they are submitted (on by default in the 1.4 layer,
    /// with quirks K6-K9; off here, since the model checks across
    /// submissions itself and emulates the layer per command buffer).
    pub submit_time: bool,
}

/// The version of the Khronos validation layer the loader lists (its
/// `api_version`, which names layer releases: 1.3.239), without creating
/// an instance: what [`Device::validation_layer_version`] will be for a
/// device with validation on. `None` when the loader or the layer is
/// missing, or when `VKSYNC_VALIDATION=0` turns validation off (as for
/// [`DeviceOptions::from_env`]).
pub fn installed_validation_layer() -> Option<(u32, u32, u32)> {
    if std::env::var_os("VKSYNC_VALIDATION").is_some_and(|v| v == "0") {
        return None;
    }
    with_loader(|| {
        // SAFETY: loading the system loader library, as `Device::new` does.
        let entry = unsafe { ash::Entry::load() }.ok()?;
        // SAFETY: valid entry; the call takes no pointers from us.
        let layers = unsafe { entry.enumerate_instance_layer_properties() }.ok()?;
        let layer = layers
            .iter()
            .find(|l| l.layer_name_as_c_str().is_ok_and(|n| n == VALIDATION_LAYER))?;
        let v = layer.spec_version;
        Some((
            vk::api_version_major(v),
            vk::api_version_minor(v),
            vk::api_version_patch(v),
        ))
    })
}

/// The boolean settings the runtime gives a validation layer of `version`
/// (`None`: unknown) through `VK_EXT_layer_settings`, by name, in order.
/// The names changed over the 1.4 series (the layer's manifest at each
/// version, `docs/testing.md`): submit-time validation is
/// `syncval_submit_time_validation` up to 1.4.309 and
/// `syncval_full_validation` from 1.4.363 on (the old name still works
/// there but draws a `VALIDATION-SETTINGS` deprecation warning); from
/// 1.4.363 on, `syncval_record_time_validation` (on by default) keeps the
/// record-time reports the model's emulation predicts. The
/// `[Extra properties]` block (`syncval_message_extra_properties`, from
/// 1.4.304 on) is always asked for: it names the hazard's accesses and
/// commands in a form that does not change with the prose
/// ([`crate::validation::ValidationMessage::extra_properties`]).
pub fn layer_settings(
    version: Option<(u32, u32, u32)>,
    settings: LayerSettings,
) -> Vec<(&'static CStr, bool)> {
    let at_least = |v: (u32, u32, u32)| version.is_some_and(|have| have >= v);
    let mut out = vec![
        (c"enable_message_limit", false),
        (c"syncval_shader_accesses_heuristic", settings.shader_accesses),
    ];
    if at_least((1, 4, 363)) {
        out.push((c"syncval_full_validation", settings.submit_time));
        out.push((c"syncval_record_time_validation", true));
    } else {
        out.push((c"syncval_submit_time_validation", settings.submit_time));
    }
    if at_least((1, 4, 304)) {
        out.push((c"syncval_message_extra_properties", true));
    }
    out
}

impl Default for LayerSettings {
    fn default() -> Self {
        LayerSettings {
            shader_accesses: true,
            submit_time: false,
        }
    }
}

impl Default for DeviceOptions {
    fn default() -> Self {
        DeviceOptions {
            device: None,
            validation: ValidationMode::Auto,
            print_device: true,
            fence_timeout: DEFAULT_FENCE_TIMEOUT,
            layer: LayerSettings::default(),
            workarounds: crate::quirks::Workarounds::Known,
        }
    }
}

impl DeviceOptions {
    /// Turns on the validation layer's synchronization validation between
    /// submissions and queues: `syncval_submit_time_validation` for 1.4
    /// layers (through `VK_EXT_layer_settings`), and for the 1.3.239 layer,
    /// which reads its enables from the environment when the instance is
    /// created, `VK_LAYER_ENABLES=VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT`
    /// unless the variable is set already. It sets a process environment
    /// variable: call it before the process starts other threads.
    pub fn with_submit_validation(mut self) -> Self {
        self.layer.submit_time = true;
        if std::env::var_os("VK_LAYER_ENABLES").is_none() {
            std::env::set_var(
                "VK_LAYER_ENABLES",
                "VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT",
            );
        }
        self
    }

    /// Options from the environment: `VKSYNC_DEVICE` (device-name
    /// substring), `VKSYNC_VALIDATION` (`0`: off, `1`: required, unset or
    /// anything else: when available), `VKSYNC_FENCE_TIMEOUT_MS` (a
    /// positive number of milliseconds) and `VKSYNC_DRIVER_WORKAROUNDS`
    /// ([`crate::quirks::Workarounds::parse`]). An unusable
    /// `VKSYNC_FENCE_TIMEOUT_MS` or `VKSYNC_DRIVER_WORKAROUNDS` is
    /// reported on stderr and its default kept;
    /// [`DeviceOptions::try_from_env`] returns it as an error.
    pub fn from_env() -> Self {
        let (timeout, workarounds) = Self::env_values();
        DeviceOptions {
            fence_timeout: timeout.unwrap_or_else(|e| {
                eprintln!("vksync-runtime: {e}; using {DEFAULT_FENCE_TIMEOUT:?}");
                DEFAULT_FENCE_TIMEOUT
            }),
            workarounds: workarounds.unwrap_or_else(|e| {
                eprintln!("vksync-runtime: {e}; using the device's known workarounds");
                crate::quirks::Workarounds::Known
            }),
            ..Self::env_rest()
        }
    }

    /// [`DeviceOptions::from_env`], with an unusable variable as an error.
    pub fn try_from_env() -> Result<Self> {
        let (timeout, workarounds) = Self::env_values();
        Ok(DeviceOptions {
            fence_timeout: timeout?,
            workarounds: workarounds?,
            ..Self::env_rest()
        })
    }

    /// The variables that can be unusable: the fence timeout and the
    /// workarounds.
    fn env_values() -> (Result<Duration>, Result<crate::quirks::Workarounds>) {
        let timeout = match std::env::var("VKSYNC_FENCE_TIMEOUT_MS") {
            Ok(v) if !v.is_empty() => parse_timeout_ms(&v).ok_or(RuntimeError::BadEnvironment {
                var: "VKSYNC_FENCE_TIMEOUT_MS",
                value: v,
                expected: "a positive whole number of milliseconds",
            }),
            _ => Ok(DEFAULT_FENCE_TIMEOUT),
        };
        let value = std::env::var("VKSYNC_DRIVER_WORKAROUNDS").ok();
        let workarounds =
            crate::quirks::Workarounds::parse(value.as_deref()).ok_or_else(|| RuntimeError::BadEnvironment {
                var: "VKSYNC_DRIVER_WORKAROUNDS",
                value: value.clone().unwrap_or_default(),
                expected: "0, or force: and a comma-separated list of workaround names \
                           (vksync_runtime::quirks::KNOWN; a test switch), e.g. \
                           force:access-less-barrier-after-fill",
            });
        (timeout, workarounds)
    }

    /// The variables that are always usable.
    fn env_rest() -> Self {
        let device = std::env::var("VKSYNC_DEVICE").ok().filter(|s| !s.is_empty());
        let validation = match std::env::var("VKSYNC_VALIDATION").as_deref() {
            Ok("0") => ValidationMode::Off,
            Ok("1") => ValidationMode::Required,
            _ => ValidationMode::Auto,
        };
        DeviceOptions {
            device,
            validation,
            ..DeviceOptions::default()
        }
    }
}

/// A positive whole number of milliseconds.
fn parse_timeout_ms(text: &str) -> Option<Duration> {
    let ms: u64 = text.trim().parse().ok()?;
    (ms > 0).then(|| Duration::from_millis(ms))
}

/// What was chosen, for messages and reports.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceInfo {
    pub name: String,
    pub device_type: String,
    /// `major.minor.patch` of the device's Vulkan version.
    pub api_version: String,
    pub queue_family: u32,
    /// Whether the validation layer is on.
    pub validation: bool,
    /// Whether synchronization validation is on (implies `validation`).
    pub sync_validation: bool,
    /// `major.minor.patch` of the enabled `VK_LAYER_KHRONOS_validation`
    /// (its `VkLayerProperties::specVersion`, e.g. `(1, 3, 239)` on Debian
    /// 12, `(1, 4, 309)` on Debian 13); `None` when validation is off.
    pub validation_layer_version: Option<(u32, u32, u32)>,
    /// What programs are checked against before recording.
    pub limits: DeviceLimits,
    /// Nanoseconds per timestamp tick.
    pub timestamp_period: f32,
    /// 0 when the queue cannot write timestamps.
    pub timestamp_valid_bits: u32,
    /// The families the device created queues of, for multi-queue
    /// programs (`crate::queues`).
    pub queue_families: Vec<QueueFamily>,
    /// Whether timeline semaphores are enabled (Vulkan 1.2
    /// `timelineSemaphore`).
    pub timeline_semaphores: bool,
    /// Whether queries can be reset from the host (Vulkan 1.2
    /// `hostQueryReset`, `vkResetQueryPool`): prepared programs time
    /// batches on transfer-only queues with it, where
    /// `vkCmdResetQueryPool` is not allowed.
    pub host_query_reset: bool,
    /// The driver defects worked around in every run (empty when
    /// [`DeviceOptions::workarounds`] is off; [`crate::quirks`]).
    pub quirks: Vec<crate::quirks::Quirk>,
    /// `VkFormatProperties` of every format of the model's table
    /// (`vksync::vk::image::FORMATS`): `(VkFormat value, linear tiling
    /// features, optimal tiling features)`, for
    /// [`crate::check_image_formats`].
    pub format_features: Vec<(u32, vk::FormatFeatureFlags, vk::FormatFeatureFlags)>,
}

impl DeviceInfo {
    /// The features of a `VkFormat` value on a tiling (none for a format
    /// outside the model's table).
    pub fn format_features(&self, format: u32, tiling: vksync::Tiling) -> vk::FormatFeatureFlags {
        self.format_features.iter().find(|(f, _, _)| *f == format).map_or(
            vk::FormatFeatureFlags::empty(),
            |&(_, linear, optimal)| match tiling {
                vksync::Tiling::Linear => linear,
                vksync::Tiling::Optimal => optimal,
            },
        )
    }
}

impl std::fmt::Display for DeviceInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} [{}, Vulkan {}], queue family {}, validation {}",
            self.name,
            self.device_type,
            self.api_version,
            self.queue_family,
            match (self.validation, self.sync_validation) {
                (true, true) => "on (synchronization validation)",
                (true, false) => "on (core validation only, synchronization validation off)",
                (false, _) => "off",
            }
        )?;
        match self.validation_layer_version {
            Some((major, minor, patch)) => write!(f, ", layer {major}.{minor}.{patch}"),
            None => Ok(()),
        }
    }
}

/// The instance, its debug messenger and the capture they write to.
/// Dropped last: it destroys the messenger before the capture goes.
pub(crate) struct Instance {
    /// The loaded loader; `None` only after `drop` leaked it.
    entry: Option<ash::Entry>,
    instance: ash::Instance,
    debug: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
    pub(crate) capture: Box<Capture>,
    /// Set when work was still executing at teardown: the instance, the
    /// loader and the capture the messenger writes to then stay alive for
    /// the rest of the process.
    leaked: bool,
}

impl Drop for Instance {
    fn drop(&mut self) {
        if self.leaked {
            // The messenger may still call back into the capture.
            std::mem::forget(std::mem::take(&mut self.capture));
            std::mem::forget(self.entry.take());
            return;
        }
        // SAFETY: the logical device (the instance's only other child) was
        // destroyed before this field drops (`Device`'s field order, or
        // `Device::new`'s locals on an early return); the messenger goes
        // before the instance, and the capture it writes to after both.
        with_loader(|| unsafe {
            if let Some((du, m)) = self.debug.take() {
                du.destroy_debug_utils_messenger(m, None);
            }
            self.instance.destroy_instance(None);
        });
        // `Drop for Device` emptied the capture before tearing down, so
        // whatever is here now was said about the teardown itself (an
        // object destroyed while in use, a leak): no run can return it, so
        // it is reported rather than lost.
        report_teardown_messages(self.capture.take());
    }
}

#[cfg(test)]
thread_local! {
    /// Teardown messages of devices dropped on this thread (tests only).
    pub(crate) static TEARDOWN_MESSAGES: std::cell::RefCell<Vec<ValidationMessage>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

fn report_teardown_messages(messages: Vec<ValidationMessage>) {
    for m in &messages {
        eprintln!("vksync-runtime: validation message while destroying the device: {m}");
    }
    #[cfg(test)]
    TEARDOWN_MESSAGES.with(|t| t.borrow_mut().extend(messages));
}

/// The logical device; destroys itself on drop.
///
/// Dropped by [`Device`]'s field order after `Drop for Device` has waited
/// for the device to go idle and freed the allocator and the kernels, or,
/// when [`Device::new`] fails half way, before any work was submitted.
pub(crate) struct Logical {
    pub(crate) device: ash::Device,
    /// Set when work was still executing at teardown: the device is then
    /// left alive for the rest of the process.
    leaked: bool,
}

impl Drop for Logical {
    fn drop(&mut self) {
        if self.leaked {
            return;
        }
        // SAFETY: no work is pending on the device and every object made
        // from it is gone: each run's objects were destroyed by its
        // `Resources` or, if their work outlived the run, by `Drop for
        // Device` after it saw their fences signal (when they never signal
        // the device is leaked and this returns above); `Drop for Device`
        // then waited idle and freed the allocator's memory and the
        // kernels' pipelines before this field drops. `Device::new`
        // submits nothing, so its early returns drop only unused objects.
        with_loader(|| unsafe { self.device.destroy_device(None) });
    }
}

/// A Vulkan device ready to run [`vksync::Program`]s.
///
/// Teardown (`Drop for Device`) runs in reverse creation order: wait (at
/// most the fence timeout) for work that was still executing when its run
/// ended, wait for the device to go idle, free the allocator's memory,
/// destroy the kernels' pipelines, then (as the remaining fields drop, in
/// declaration order) the logical device, the debug messenger and the
/// instance. If work is still executing after that wait, nothing is
/// destroyed (the GPU may still use it): the device and everything it made
/// are left to the end of the process, and a line on stderr says so.
pub struct Device {
    /// Created last; taken and dropped first in `Drop for Device`.
    pub(crate) allocator: Option<Allocator>,
    /// Destroyed explicitly in `Drop for Device`, after the allocator.
    pub(crate) kernels: Kernels,
    pub(crate) logical: Logical,
    pub(crate) inst: Instance,
    /// Per entry of `info.queue_families`, its created queues.
    pub(crate) queues: Vec<Vec<vk::Queue>>,
    pub(crate) info: DeviceInfo,
    setup_messages: Vec<ValidationMessage>,
    fence_timeout: Duration,
    /// Objects of runs that ended while their work was executing (a fence
    /// wait timed out, or an error cut the run short).
    pub(crate) in_flight: Vec<InFlight>,
}

impl Drop for Device {
    fn drop(&mut self) {
        // The fields (logical device, instance) drop after this, each
        // taking the lock again.
        with_loader(|| self.tear_down());
    }
}

impl Device {
    /// `Drop for Device`'s work before the fields drop, holding [`LOADER`].
    fn tear_down(&mut self) {
        // Messages of earlier runs are not teardown messages (`Instance`'s
        // drop reports what arrives from here on).
        drop(self.inst.capture.take());
        self.inst.capture.set_command(None);
        if let Some(allocator) = self.allocator.as_mut() {
            if let Err(e) = resources::reclaim(
                &self.logical.device,
                allocator,
                &mut self.in_flight,
                self.fence_timeout,
            ) {
                let why = match e {
                    RuntimeError::StillRunning { what, waited } => {
                        format!("{what} was still executing {waited:?} after the device was dropped")
                    }
                    other => format!("waiting for work still executing failed: {other}"),
                };
                eprintln!(
                    "vksync-runtime: {why}; the device, its objects and its memory are left to the end \
                     of the process instead of being destroyed under running work"
                );
                self.leak();
                return;
            }
        }
        // SAFETY: the device is live. Nothing should be executing now (every
        // run waited for its work or left it in `in_flight`, reclaimed
        // above); waiting idle makes sure before anything is freed. A
        // failure (device lost) leaves nothing executing either.
        let _ = unsafe { self.logical.device.device_wait_idle() };
        // Memory (every run's buffers are already freed; this returns the
        // allocator's blocks), then pipelines; the device and the instance
        // follow as fields.
        drop(self.allocator.take());
        self.kernels.destroy_all();
    }
}

impl Device {
    /// Gives up on tearing down: every Vulkan object and allocation stays
    /// alive until the process ends.
    fn leak(&mut self) {
        std::mem::forget(self.allocator.take());
        self.kernels.forget_all();
        std::mem::forget(std::mem::take(&mut self.in_flight));
        self.logical.leaked = true;
        self.inst.leaked = true;
    }
}

/// The parts of a [`Device`] that recording a program borrows at the same
/// time, from [`Device::begin_run`].
pub(crate) struct RunParts<'a> {
    pub device: &'a ash::Device,
    pub capture: &'a Capture,
    pub allocator: &'a mut Allocator,
    pub kernels: &'a Kernels,
    pub queues: &'a [Vec<vk::Queue>],
    pub info: &'a DeviceInfo,
    pub in_flight: &'a mut Vec<InFlight>,
    pub fence_timeout: Duration,
}

impl Device {
    /// Splits the device into what a run borrows, after clearing the
    /// validation capture so that messages from an earlier (failed) run do
    /// not leak into this one. Work an earlier run left executing is waited
    /// for first (at most the fence timeout) and freed; if it is still
    /// executing, this is [`RuntimeError::StillRunning`] and nothing new is
    /// submitted behind it.
    pub(crate) fn begin_run(&mut self) -> Result<RunParts<'_>> {
        let Device {
            allocator,
            kernels,
            logical,
            inst,
            queues,
            info,
            in_flight,
            fence_timeout,
            ..
        } = self;
        // Invariant: the allocator is only taken out in `Drop`.
        let allocator = allocator.as_mut().expect("allocator lives as long as the device");
        resources::reclaim(&logical.device, allocator, in_flight, *fence_timeout)?;
        let capture = &*inst.capture;
        capture.take();
        capture.set_command(None);
        Ok(RunParts {
            device: &logical.device,
            capture,
            allocator,
            kernels,
            queues,
            info,
            in_flight,
            fence_timeout: *fence_timeout,
        })
    }

    /// How long a fence wait may take (see [`DeviceOptions::fence_timeout`]).
    pub fn fence_timeout(&self) -> Duration {
        self.fence_timeout
    }

    /// Changes the fence timeout for later runs and for the teardown.
    pub fn set_fence_timeout(&mut self, timeout: Duration) {
        self.fence_timeout = timeout;
    }
}

fn version(v: u32) -> String {
    format!(
        "{}.{}.{}",
        vk::api_version_major(v),
        vk::api_version_minor(v),
        vk::api_version_patch(v)
    )
}

/// The limits programs are checked against, from the device's properties
/// (Vulkan 1.1 and 1.3 ones too: the device supports 1.3, checked before)
/// and its memory heaps.
fn device_limits(
    instance: &ash::Instance,
    physical: vk::PhysicalDevice,
    props: &vk::PhysicalDeviceProperties,
) -> DeviceLimits {
    let mut p11 = vk::PhysicalDeviceVulkan11Properties::default();
    let mut p13 = vk::PhysicalDeviceVulkan13Properties::default();
    let mut p2 = vk::PhysicalDeviceProperties2::default()
        .push_next(&mut p11)
        .push_next(&mut p13);
    // SAFETY: a valid handle of this instance and a well-formed pNext chain
    // of structs the (Vulkan 1.3) device knows.
    unsafe { instance.get_physical_device_properties2(physical, &mut p2) };
    // SAFETY: a valid handle of this instance.
    let memory = unsafe { instance.get_physical_device_memory_properties(physical) };
    let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
    let types = &memory.memory_types[..memory.memory_type_count as usize];
    let heaps = &memory.memory_heaps[..memory.memory_heap_count as usize];
    let largest = |host_only: bool| {
        types
            .iter()
            .filter(|t| !host_only || t.property_flags.contains(host))
            .filter_map(|t| heaps.get(t.heap_index as usize))
            .map(|h| h.size)
            .max()
            .unwrap_or(0)
    };
    let l = &props.limits;
    DeviceLimits {
        min_storage_buffer_offset_alignment: l.min_storage_buffer_offset_alignment.max(1),
        max_storage_buffer_range: u64::from(l.max_storage_buffer_range),
        max_compute_work_group_count_x: l.max_compute_work_group_count[0],
        max_buffer_size: p13.max_buffer_size,
        max_memory_allocation_size: p11.max_memory_allocation_size,
        max_heap_size: largest(false),
        max_host_visible_heap_size: largest(true),
    }
}

fn type_name(t: vk::PhysicalDeviceType) -> &'static str {
    match t {
        vk::PhysicalDeviceType::DISCRETE_GPU => "discrete GPU",
        vk::PhysicalDeviceType::INTEGRATED_GPU => "integrated GPU",
        vk::PhysicalDeviceType::VIRTUAL_GPU => "virtual GPU",
        vk::PhysicalDeviceType::CPU => "CPU",
        _ => "other",
    }
}

/// Device tests skipped so far in this process.
static SKIPPED_DEVICE_TESTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Whether device tests are to be skipped (`VKSYNC_SKIP_DEVICE_TESTS=1`).
/// When they are, the calling test is counted as skipped and one line goes
/// to the process's stderr:
///
/// ```text
/// SKIPPED (no Vulkan device, VKSYNC_SKIP_DEVICE_TESTS=1): errors::bad_dispatches (1 device test skipped so far)
/// ```
///
/// The test's name is its thread's (the test harness names each test's
/// thread after it). The line is written to stderr directly rather than
/// with `eprintln!`, which the test harness captures and shows only for
/// failing tests: a skip must be seen, since the harness still counts the
/// test as passed. The last such line of a test binary gives its count
/// ([`skipped_device_tests`]).
pub fn skip_device_test() -> bool {
    use std::io::Write as _;
    if std::env::var("VKSYNC_SKIP_DEVICE_TESTS").as_deref() != Ok("1") {
        return false;
    }
    let n = SKIPPED_DEVICE_TESTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
    let thread = std::thread::current();
    let name = thread.name().unwrap_or("<unnamed test>");
    let line = format!(
        "SKIPPED (no Vulkan device, VKSYNC_SKIP_DEVICE_TESTS=1): {name} ({n} device test{} skipped so far)\n",
        if n == 1 { "" } else { "s" }
    );
    // One write, so lines of tests running in parallel do not interleave.
    let _ = std::io::stderr().write_all(line.as_bytes());
    true
}

/// How many device tests [`skip_device_test`] skipped in this process.
pub fn skipped_device_tests() -> usize {
    SKIPPED_DEVICE_TESTS.load(std::sync::atomic::Ordering::Relaxed)
}

/// The device a test suite runs on: `Ok(None)` when
/// `VKSYNC_SKIP_DEVICE_TESTS=1` asks to skip device tests (the skip is
/// announced and counted by [`skip_device_test`]), otherwise the device
/// `VKSYNC_DEVICE` picks with the given validation mode. Suites turn an
/// error into a loud failure with [`TEST_DEVICE_HELP`]: CI installs Vulkan,
/// so a missing one is a broken setup, not a reason to skip.
///
/// The process environment is not changed (setting variables while other
/// test threads run is undefined behaviour on Unix): if Mesa complains
/// about `XDG_RUNTIME_DIR`, set `XDG_RUNTIME_DIR=/tmp` before `cargo test`.
pub fn test_device(validation: ValidationMode) -> Result<Option<Device>> {
    if skip_device_test() {
        return Ok(None);
    }
    let options = DeviceOptions {
        validation,
        ..DeviceOptions::try_from_env()?
    };
    Device::new(options).map(Some)
}

/// What a device test prints when [`test_device`] fails.
pub const TEST_DEVICE_HELP: &str = "device tests need Vulkan (libvulkan1, mesa-vulkan-drivers, \
     vulkan-validationlayers); set VKSYNC_SKIP_DEVICE_TESTS=1 to skip them";

impl Device {
    /// Creates a device with [`DeviceOptions::from_env`].
    pub fn from_env() -> Result<Device> {
        Device::new(DeviceOptions::from_env())
    }

    /// Loads Vulkan, chooses a device and creates everything a run needs.
    pub fn new(options: DeviceOptions) -> Result<Device> {
        with_loader(|| Self::new_locked(options))
    }

    /// [`Device::new`], holding [`LOADER`].
    fn new_locked(options: DeviceOptions) -> Result<Device> {
        // SAFETY: loading the system loader library; its initialisation
        // code is trusted like any Vulkan application's.
        let entry = unsafe { ash::Entry::load() }?;
        // SAFETY: valid entry; enumerate calls take no pointers from us.
        let layers = with_loader(|| unsafe { entry.enumerate_instance_layer_properties() })
            .ctx("vkEnumerateInstanceLayerProperties")?;
        let layer = layers
            .iter()
            .find(|l| l.layer_name_as_c_str().is_ok_and(|n| n == VALIDATION_LAYER));
        let has_layer = layer.is_some();
        // The Vulkan version the layer implements (its `api_version` in the
        // manifest), which is how layer releases are named: 1.3.239.
        let layer_version = layer.map(|l| {
            let v = l.spec_version;
            (
                vk::api_version_major(v),
                vk::api_version_minor(v),
                vk::api_version_patch(v),
            )
        });
        let validation = match options.validation {
            ValidationMode::Off => false,
            ValidationMode::Auto => has_layer,
            ValidationMode::Required | ValidationMode::CoreOnly if has_layer => true,
            ValidationMode::Required | ValidationMode::CoreOnly => {
                return Err(RuntimeError::ValidationUnavailable)
            }
        };
        let sync_validation = validation && options.validation != ValidationMode::CoreOnly;
        let ext_names = |layer: Option<&CStr>| -> Result<Vec<String>> {
            // SAFETY: valid entry and layer name.
            let props = with_loader(|| unsafe { entry.enumerate_instance_extension_properties(layer) })
                .ctx("vkEnumerateInstanceExtensionProperties")?;
            Ok(props
                .iter()
                .filter_map(|p| p.extension_name_as_c_str().ok())
                .map(|n| n.to_string_lossy().into_owned())
                .collect())
        };
        let mut available = ext_names(None)?;
        if validation {
            available.extend(ext_names(Some(VALIDATION_LAYER))?);
        }
        let has_ext = |n: &CStr| available.iter().any(|a| a.as_bytes() == n.to_bytes());
        let debug_utils = validation && has_ext(ash::ext::debug_utils::NAME);
        let mut extensions = Vec::new();
        if debug_utils {
            extensions.push(ash::ext::debug_utils::NAME.as_ptr());
        }
        if validation && has_ext(ash::ext::validation_features::NAME) {
            extensions.push(ash::ext::validation_features::NAME.as_ptr());
        }
        let layer_settings = validation && has_ext(ash::ext::layer_settings::NAME);
        if layer_settings {
            extensions.push(ash::ext::layer_settings::NAME.as_ptr());
        }
        let layer_ptrs = if validation {
            vec![VALIDATION_LAYER.as_ptr()]
        } else {
            vec![]
        };

        let capture = Box::<Capture>::default();
        let capture_ptr = &*capture as *const Capture as *mut c_void;
        let app = vk::ApplicationInfo::default()
            .application_name(c"vksync")
            .engine_name(c"vksync-runtime")
            .api_version(vk::make_api_version(0, 1, 3, 0));
        let enables = [vk::ValidationFeatureEnableEXT::SYNCHRONIZATION_VALIDATION];
        let enables: &[vk::ValidationFeatureEnableEXT] = if sync_validation { &enables } else { &[] };
        let mut features = vk::ValidationFeaturesEXT::default().enabled_validation_features(enables);
        let mut messenger_info = vk::DebugUtilsMessengerCreateInfoEXT::default()
            .message_severity(validation::severities())
            .message_type(validation::types())
            .pfn_user_callback(Some(validation::callback))
            .user_data(capture_ptr);
        // Boolean layer settings: one VkBool32 each, read by the layer
        // during vkCreateInstance.
        let chosen = crate::device::layer_settings(layer_version, options.layer);
        let values: Vec<vk::Bool32> = chosen.iter().map(|&(_, on)| vk::Bool32::from(on)).collect();
        let setting = |name: &'static CStr, value: &vk::Bool32| vk::LayerSettingEXT {
            p_layer_name: VALIDATION_LAYER.as_ptr(),
            p_setting_name: name.as_ptr(),
            ty: vk::LayerSettingTypeEXT::BOOL32,
            value_count: 1,
            p_values: (value as *const vk::Bool32).cast(),
            ..Default::default()
        };
        let settings: Vec<vk::LayerSettingEXT> = chosen
            .iter()
            .zip(&values)
            .map(|(&(name, _), value)| setting(name, value))
            .collect();
        let mut settings_info = vk::LayerSettingsCreateInfoEXT::default().settings(&settings);
        let mut create = vk::InstanceCreateInfo::default()
            .application_info(&app)
            .enabled_layer_names(&layer_ptrs)
            .enabled_extension_names(&extensions);
        if layer_settings {
            create = create.push_next(&mut settings_info);
        }
        if validation {
            create = create.push_next(&mut features);
            if debug_utils {
                // Also covers vkCreateInstance/vkDestroyInstance themselves.
                create = create.push_next(&mut messenger_info);
            }
        }
        // SAFETY: every pointer in `create` (names, chained structs, the
        // layer settings and their values, the capture box) outlives the
        // call; the capture box outlives the instance.
        let instance =
            with_loader(|| unsafe { entry.create_instance(&create, None) }).ctx("vkCreateInstance")?;
        let mut inst = Instance {
            entry: Some(entry.clone()),
            instance,
            debug: None,
            capture,
            leaked: false,
        };
        if debug_utils {
            let du = ash::ext::debug_utils::Instance::new(&entry, &inst.instance);
            let info = vk::DebugUtilsMessengerCreateInfoEXT::default()
                .message_severity(validation::severities())
                .message_type(validation::types())
                .pfn_user_callback(Some(validation::callback))
                .user_data(capture_ptr);
            // SAFETY: the user data is the boxed capture owned by `inst`,
            // destroyed after the messenger in `Instance::drop`.
            let m = with_loader(|| unsafe { du.create_debug_utils_messenger(&info, None) })
                .ctx("vkCreateDebugUtilsMessengerEXT")?;
            inst.debug = Some((du, m));
        }
        let instance = &inst.instance;

        // SAFETY: valid instance.
        let physicals = with_loader(|| unsafe { instance.enumerate_physical_devices() })
            .ctx("vkEnumeratePhysicalDevices")?;
        if physicals.is_empty() {
            return Err(RuntimeError::NoDevice);
        }
        let named: Vec<(vk::PhysicalDevice, vk::PhysicalDeviceProperties)> = physicals
            .iter()
            // SAFETY: handles come from the instance.
            .map(|&p| (p, unsafe { instance.get_physical_device_properties(p) }))
            .collect();
        let name_of = |props: &vk::PhysicalDeviceProperties| {
            props
                .device_name_as_c_str()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|_| "<unnamed>".to_string())
        };
        let chosen = match &options.device {
            None => named.first(),
            Some(w) => named
                .iter()
                .find(|(_, props)| name_of(props).to_lowercase().contains(&w.to_lowercase())),
        };
        let Some(&(physical, props)) = chosen else {
            return Err(RuntimeError::DeviceNotFound {
                wanted: options.device.clone().unwrap_or_default(),
                available: named
                    .iter()
                    .map(|(_, p)| name_of(p))
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        let name = name_of(&props);

        // Synchronization2 is core in Vulkan 1.3 but still a feature bit.
        let mut f13 = vk::PhysicalDeviceVulkan13Features::default();
        if props.api_version >= vk::API_VERSION_1_3 {
            let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut f13);
            // SAFETY: valid handle and a well-formed pNext chain.
            unsafe { instance.get_physical_device_features2(physical, &mut f2) };
        }
        if f13.synchronization2 != vk::TRUE {
            return Err(RuntimeError::NoSynchronization2 {
                device: name,
                api: version(props.api_version),
            });
        }

        // SAFETY: valid handle.
        let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
        // Prefer a compute family without graphics (a dedicated compute
        // queue on discrete GPUs); compute families also do transfer work.
        let compute = |f: &vk::QueueFamilyProperties| {
            f.queue_flags.contains(vk::QueueFlags::COMPUTE) && f.queue_count > 0
        };
        let family = families
            .iter()
            .position(|f| compute(f) && !f.queue_flags.contains(vk::QueueFlags::GRAPHICS))
            .or_else(|| families.iter().position(compute));
        let Some(family) = family else {
            return Err(RuntimeError::NoComputeQueue { device: name });
        };
        // Queues of every compute or transfer family, up to
        // MAX_QUEUES_PER_FAMILY each, for multi-queue programs
        // (`crate::queues` maps model queues onto them).
        let queue_families: Vec<QueueFamily> = families
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                f.queue_count > 0
                    && f.queue_flags
                        .intersects(vk::QueueFlags::COMPUTE | vk::QueueFlags::TRANSFER)
            })
            .map(|(i, f)| QueueFamily {
                index: i as u32,
                graphics: f.queue_flags.contains(vk::QueueFlags::GRAPHICS),
                compute: f.queue_flags.contains(vk::QueueFlags::COMPUTE),
                // Graphics and compute queues do transfer work whether or
                // not they say so.
                transfer: f.queue_flags.intersects(
                    vk::QueueFlags::TRANSFER | vk::QueueFlags::COMPUTE | vk::QueueFlags::GRAPHICS,
                ),
                queues: f.queue_count.min(MAX_QUEUES_PER_FAMILY),
                timestamp_valid_bits: f.timestamp_valid_bits,
            })
            .collect();
        let priorities = [1.0f32; MAX_QUEUES_PER_FAMILY as usize];
        let queue_info: Vec<vk::DeviceQueueCreateInfo> = queue_families
            .iter()
            .map(|f| {
                vk::DeviceQueueCreateInfo::default()
                    .queue_family_index(f.index)
                    .queue_priorities(&priorities[..f.queues as usize])
            })
            .collect();
        let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
        let core = {
            let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut f12);
            // SAFETY: valid handle and a well-formed pNext chain (a
            // Vulkan 1.3 device, checked above, knows the 1.2 struct).
            unsafe { instance.get_physical_device_features2(physical, &mut f2) };
            f2.features
        };
        // A barrier may name the geometry and tessellation stages (the
        // model accepts every core graphics stage): valid only with those
        // features enabled (VUID-VkMemoryBarrier2-srcStageMask-03929,
        // -03930), so they are enabled where the device has them.
        // Draws with several indirect records need multiDrawIndirect
        // (VUID-vkCmdDrawIndirect-drawCount-02718): enabled where present.
        let enable_core = vk::PhysicalDeviceFeatures::default()
            .geometry_shader(core.geometry_shader == vk::TRUE)
            .tessellation_shader(core.tessellation_shader == vk::TRUE)
            .multi_draw_indirect(core.multi_draw_indirect == vk::TRUE);
        let timeline_semaphores = f12.timeline_semaphore == vk::TRUE;
        let host_query_reset = f12.host_query_reset == vk::TRUE;
        let mut enable12 = vk::PhysicalDeviceVulkan12Features::default()
            .timeline_semaphore(timeline_semaphores)
            .host_query_reset(host_query_reset);
        // Dynamic rendering (`vkCmdBeginRendering`, required of every
        // Vulkan 1.3 device) for rendering programs.
        let mut enable13 = vk::PhysicalDeviceVulkan13Features::default()
            .synchronization2(true)
            .dynamic_rendering(f13.dynamic_rendering == vk::TRUE);
        let device_info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queue_info)
            .enabled_features(&enable_core)
            .push_next(&mut enable12)
            .push_next(&mut enable13);
        // SAFETY: valid physical device; the create info outlives the call.
        let device = with_loader(|| unsafe { instance.create_device(physical, &device_info, None) })
            .ctx("vkCreateDevice")?;
        let logical = Logical {
            device,
            leaked: false,
        };
        let queues: Vec<Vec<vk::Queue>> = queue_families
            .iter()
            .map(|f| {
                (0..f.queues)
                    // SAFETY: `f.queues` queues of family `f.index` were
                    // requested at creation.
                    .map(|i| unsafe { logical.device.get_device_queue(f.index, i) })
                    .collect()
            })
            .collect();

        let kernels = Kernels::new(&logical.device)?;
        let allocator = Allocator::new(&AllocatorCreateDesc {
            instance: instance.clone(),
            device: logical.device.clone(),
            physical_device: physical,
            debug_settings: Default::default(),
            buffer_device_address: false,
            allocation_sizes: Default::default(),
        })
        .map_err(|source| RuntimeError::Allocation {
            what: "the gpu-allocator allocator".to_string(),
            source,
        })?;

        let limits = device_limits(instance, physical, &props);
        let format_features = vksync::vk::image::FORMATS
            .iter()
            .map(|f| {
                // SAFETY: a valid handle of this instance; any VkFormat
                // value may be asked about.
                let p = unsafe {
                    instance
                        .get_physical_device_format_properties(physical, vk::Format::from_raw(f.value as i32))
                };
                (f.value, p.linear_tiling_features, p.optimal_tiling_features)
            })
            .collect();
        let info = DeviceInfo {
            name,
            device_type: type_name(props.device_type).to_string(),
            api_version: version(props.api_version),
            queue_family: family as u32,
            validation,
            sync_validation,
            validation_layer_version: if validation { layer_version } else { None },
            limits,
            timestamp_period: props.limits.timestamp_period,
            timestamp_valid_bits: families[family].timestamp_valid_bits,
            queue_families,
            timeline_semaphores,
            host_query_reset,
            quirks: options.workarounds.quirks(props.vendor_id),
            format_features,
        };
        if options.print_device {
            eprintln!("vksync-runtime: device: {info}");
        }
        let setup_messages = inst.capture.take();
        Ok(Device {
            allocator: Some(allocator),
            kernels,
            logical,
            inst,
            queues,
            info,
            setup_messages,
            fence_timeout: options.fence_timeout,
            in_flight: Vec::new(),
        })
    }

    /// The program this device records for `program`: its barriers with
    /// the device's workarounds applied ([`crate::quirks::recorded_program`]
    /// with [`DeviceInfo::quirks`]), command indices unchanged. What the
    /// validation layer judges, so what a prediction of its report must be
    /// made on; `program` itself when no workaround is on or none changes
    /// a barrier of it.
    pub fn recorded<'a>(
        &self,
        program: &'a vksync::Program,
    ) -> Result<std::borrow::Cow<'a, vksync::Program>> {
        Ok(crate::quirks::recorded_program(program, &self.info.quirks)?)
    }

    /// The chosen device and its relevant limits.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// `(major, minor, patch)` of the enabled Khronos validation layer, read
    /// from `vkEnumerateInstanceLayerProperties` (`specVersion` of
    /// `VK_LAYER_KHRONOS_validation`); `None` when validation is off. The
    /// layer's behaviour differs between versions (`docs/semantics.md`), so
    /// this says which one judged a run.
    pub fn validation_layer_version(&self) -> Option<(u32, u32, u32)> {
        self.info.validation_layer_version
    }

    /// The device's name, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub fn name(&self) -> &str {
        &self.info.name
    }

    /// Validation messages that arrived while creating the device (not
    /// attributed to any program).
    pub fn setup_messages(&self) -> &[ValidationMessage] {
        &self.setup_messages
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> vksync::Program {
        vksync::trace::parse(text).expect("parses").program
    }

    fn device() -> Option<Device> {
        test_device(ValidationMode::Required).expect(TEST_DEVICE_HELP)
    }

    /// The settings' names per layer version: the names each version's
    /// manifest lists (`docs/testing.md`, "Layer 1.4.363").
    #[test]
    fn layer_settings_follow_the_layer_version() {
        let names = |v: Option<(u32, u32, u32)>| -> Vec<String> {
            layer_settings(v, LayerSettings::default())
                .iter()
                .map(|(n, on)| format!("{}={on}", n.to_string_lossy()))
                .collect()
        };
        let common = [
            "enable_message_limit=false",
            "syncval_shader_accesses_heuristic=true",
        ];
        // (version, the settings after the common two)
        type Case = (Option<(u32, u32, u32)>, &'static [&'static str]);
        let cases: &[Case] = &[
            (None, &["syncval_submit_time_validation=false"]),
            (Some((1, 3, 239)), &["syncval_submit_time_validation=false"]),
            (
                Some((1, 4, 309)),
                &[
                    "syncval_submit_time_validation=false",
                    "syncval_message_extra_properties=true",
                ],
            ),
            (
                Some((1, 4, 363)),
                &[
                    "syncval_full_validation=false",
                    "syncval_record_time_validation=true",
                    "syncval_message_extra_properties=true",
                ],
            ),
        ];
        for (v, rest) in cases {
            let want: Vec<String> = common.iter().chain(rest.iter()).map(|s| s.to_string()).collect();
            assert_eq!(names(*v), want, "{v:?}");
        }
        let submit = LayerSettings {
            submit_time: true,
            ..LayerSettings::default()
        };
        assert!(layer_settings(Some((1, 4, 363)), submit).contains(&(c"syncval_full_validation", true)));
    }

    /// Teardown messages of this thread so far, taken.
    fn teardown_messages() -> Vec<ValidationMessage> {
        TEARDOWN_MESSAGES.with(|t| std::mem::take(&mut *t.borrow_mut()))
    }

    const SMALL: &str = "buffer a 256\nbuffer b 256\nhost-write a 1\n\
        dispatch scale_add(2,1) read a write b\n\
        barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read b\n";

    /// A program whose dispatch runs far longer than 1 ms and well under a
    /// second: `slow(n)` over 8,192 elements. On a CPU device (lavapipe)
    /// the time grows with the elements and `n` = 65,535 gives about
    /// 0.14 s (Mesa 22's lavapipe stops every loop at 65,535 iterations
    /// anyway; Mesa 25's does not, so more would be a runaway there); on a
    /// GPU the elements run in parallel and the time grows with `n`:
    /// 10^8 gives a few tenths of a second. The command buffer holds
    /// commands 1..=2 and is submitted at 3.
    pub(crate) fn slow_program(device: &Device) -> vksync::Program {
        let iters = if device.info().device_type == "CPU" {
            65_535
        } else {
            100_000_000
        };
        program(&format!(
            "buffer a 32768\nbuffer b 32768\nhost-write a 1\n\
             dispatch slow({iters}) read a write b\n\
             barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read b\n"
        ))
    }

    /// Tearing a device down after a run destroys every object it made, in
    /// an order the validation layer accepts: nothing is reported while
    /// the device, the messenger and the instance go.
    #[test]
    fn teardown_after_a_run_draws_no_validation_message() {
        let Some(mut device) = device() else {
            return;
        };
        let result = device.run(&program(SMALL)).expect("runs");
        assert!(result.is_clean(), "{:?}", result.messages);
        teardown_messages();
        drop(device);
        assert_eq!(teardown_messages(), vec![]);
    }

    /// A fence wait that times out is an error naming the submission; the
    /// work it left running blocks the next run (typed error, nothing
    /// submitted behind it) until a run with a longer timeout waits for it
    /// and frees it; then the device runs and tears down cleanly.
    #[test]
    fn a_timed_out_submission_is_reported_waited_for_and_freed() {
        let Some(mut device) = device() else {
            return;
        };
        let short = Duration::from_millis(1);
        device.set_fence_timeout(short);
        let e = device.run(&slow_program(&device)).expect_err("times out");
        assert!(
            matches!(
                e,
                RuntimeError::FenceTimeout {
                    submitted_at: Some(3),
                    first: 1,
                    last: 2,
                    timeout,
                    behind: None,
                } if timeout == short
            ),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            "the command buffer of commands 1..=2 (submitted at command 3) did not complete within 1ms, \
             the fence timeout (raise it with DeviceOptions::fence_timeout or VKSYNC_FENCE_TIMEOUT_MS)"
        );
        let e = device
            .run(&program(SMALL))
            .expect_err("the slow dispatch still runs");
        assert!(
            matches!(&e, RuntimeError::StillRunning { what, .. } if what.contains("commands 1..=2")),
            "{e}"
        );
        device.set_fence_timeout(Duration::from_secs(60));
        let result = device
            .run(&program(SMALL))
            .expect("runs after the slow dispatch ends");
        assert!(result.is_clean(), "{:?}", result.messages);
        teardown_messages();
        drop(device);
        assert_eq!(teardown_messages(), vec![]);
    }

    /// Dropping the device while timed-out work still runs destroys
    /// nothing (the GPU may still use it): no validation message, no hang.
    #[test]
    fn a_device_dropped_under_running_work_is_left_alive() {
        let Some(mut device) = device() else {
            return;
        };
        device.set_fence_timeout(Duration::from_millis(1));
        let e = device.run(&slow_program(&device)).expect_err("times out");
        assert!(matches!(e, RuntimeError::FenceTimeout { .. }), "{e}");
        teardown_messages();
        let t = std::time::Instant::now();
        drop(device);
        assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
        assert_eq!(teardown_messages(), vec![]);
    }

    /// The layer's version is read when validation is on (this machine's
    /// layer is whatever is installed: only its shape is checked) and is
    /// `None` with validation off.
    #[test]
    fn the_validation_layers_version_is_exposed() {
        for (mode, on) in [(ValidationMode::Required, true), (ValidationMode::Off, false)] {
            let Some(device) = test_device(mode).expect(TEST_DEVICE_HELP) else {
                return;
            };
            let version = device.validation_layer_version();
            assert_eq!(version.is_some(), on, "{mode:?}");
            if let Some((major, minor, _)) = version {
                assert!((major, minor) >= (1, 3), "{version:?}");
                let shown = format!(", layer {major}.{minor}.");
                assert!(device.info().to_string().contains(&shown), "{}", device.info());
            }
        }
    }

    #[test]
    fn fence_timeouts_from_the_environment() {
        let cases = [
            ("10", Some(Duration::from_millis(10))),
            (" 2500 ", Some(Duration::from_millis(2500))),
            ("0", None),
            ("-5", None),
            ("1.5", None),
            ("ten", None),
            ("99999999999999999999999", None),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_timeout_ms(text), expected, "{text:?}");
        }
    }
}
