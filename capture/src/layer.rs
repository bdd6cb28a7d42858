//! The Vulkan layer itself: the one exported entry point
//! (`vkNegotiateLoaderLayerInterfaceVersion`, which hands the loader the
//! layer's private `vkGet*ProcAddr`), the call chains, and the intercepts.
//! Which command is hooked, and how it is treated (recorded, written as
//! `not-modelled` with a reason, or passed through with the reason it needs
//! no hook), is data: the table in `layer/table.rs`, which the
//! `vkGet*ProcAddr` answer from. Most recorded commands are rows of
//! `layer/recorded.rs` (names, signature, what the row feeds, the
//! recording; one macro makes the functions); the ones with a shape of
//! their own are hand-written here; the not-modelled ones share one
//! generated forwarding function per signature (`layer/generated.rs`,
//! from `vk.xml`).
//!
//! This module owns the global state (instances, devices with their
//! next-layer function pointers, mapped-memory pointers and [`Capture`]s,
//! behind one `Mutex`) and all the `unsafe` of reading the application's
//! structures. It does not decide what goes in the trace: it reads each
//! call's arguments into plain values and hands them to [`Capture`].
//!
//! Invariants:
//!
//! - Every intercepted call goes down the chain with its arguments
//!   unchanged, exactly once, whatever happens in the recording (the one
//!   exception is fault injection, off unless `VKSYNC_CAPTURE_DROP` is
//!   set, which drops the one call it names; [`DROP_ENV`]); the
//!   recording of a call that fails is skipped (and before `vkQueueSubmit`
//!   the mapped memory is compared first, because once the work is
//!   submitted the device may write it).
//! - Nothing unwinds out of an intercept: recording runs inside
//!   [`record`], which catches panics, prints them once on stderr with the
//!   call's name, and carries on. A poisoned mutex is taken over as is.
//! - The lock is never held while calling down the chain (a wait on a
//!   fence does not block other threads' calls).
//! - Dispatchable handles (devices, queues, command buffers) are keyed by
//!   their loader dispatch pointer, the first pointer-sized word of the
//!   object, which the loader sets to the device's for all three.

use crate::abi::*;
use crate::guard::{self, Guarded};
use crate::record::{
    queue_families, BarrierTarget, Batch, BufferWrite, Capture, DrawCall, GraphicsInfo, ImageInfo,
    ImageWrite, RenderPassInfo, RenderingAttachment, RenderingInfo, ResourceBarrier, SlotKind, SubLayout,
    SubpassInfo, TemplateSlot, TexelWrite, WaitOn, WaitScope, Writes,
};
use crate::reflect::{reflect, reflect_resources};
use crate::sync1;
use ash::vk::{self, Handle};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{LazyLock, Mutex, MutexGuard};
use vksync::ImageCopy;

mod recorded;
mod table;

/// A next-layer function pointer of unknown type.
type VoidFn = unsafe extern "system" fn();

struct InstanceData {
    /// The next layer's `vkCreateDevice` and `vkDestroyInstance`, looked up
    /// once the instance exists.
    create_device: Option<VoidFn>,
    destroy: Option<VoidFn>,
    /// The next layer's `vkGetPhysicalDeviceMemoryProperties`.
    memory_properties: Option<VoidFn>,
    gipa: vk::PFN_vkGetInstanceProcAddr,
}

struct DeviceData {
    /// Next-layer functions by name, for every name this layer intercepts.
    next: HashMap<&'static str, VoidFn>,
    /// Mapped memory by memory handle.
    mapped: HashMap<u64, Mapped>,
    /// The property flags of each memory type of the physical device.
    memory_types: Vec<vk::MemoryPropertyFlags>,
    /// Memory objects not `HOST_COHERENT`: the host's writes there reach
    /// the device only through `vkFlushMappedMemoryRanges`.
    non_coherent: HashSet<u64>,
    /// Memory objects `HOST_CACHED`: the host reads them as cheaply as its
    /// own memory, so their guards leave hot pages open
    /// (`Guarded::leave_hot_pages_open`).
    cached: HashSet<u64>,
    capture: Capture,
    /// The pipeline barrier calls recorded so far and the semaphore waits
    /// submitted so far (fault injection counts them, [`Fault`]).
    barriers: u64,
    waits: u64,
    /// `VKSYNC_CAPTURE_PROFILE` set: per intercept, the time spent in the
    /// layer's own bookkeeping (under its lock) and the calls, printed
    /// when the device's trace is finished ([`report_profile`]).
    profile: Option<HashMap<String, (std::time::Duration, u64)>>,
}

/// Prints where the layer's time went (`VKSYNC_CAPTURE_PROFILE`): the
/// bookkeeping of each intercept (what it records, the mapped memory it
/// compares or copies), the busiest first. The time the application, the
/// driver and the page guard's faults take is not in it.
fn report_profile(d: &DeviceData) {
    let Some(p) = &d.profile else { return };
    let mut rows: Vec<_> = p.iter().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.1 .0));
    let total: std::time::Duration = rows.iter().map(|r| r.1 .0).sum();
    let mut text = format!(
        "[VK_LAYER_VKSYNC_capture] profile: {:.1} ms in the layer's bookkeeping",
        total.as_secs_f64() * 1e3
    );
    for (call, (t, n)) in rows.iter().take(8) {
        text += &format!("; {call} {:.1} ms ({n} calls)", t.as_secs_f64() * 1e3);
    }
    eprintln!("{text}");
}

/// A mapped range of a memory object.
struct Mapped {
    ptr: usize,
    len: u64,
    /// Its page guard, if it has one (else it is diffed whole).
    guard: Option<Guarded>,
    /// The guard was dropped because the host writes most of the range
    /// between submissions ([`diff_mapped`]); `Some(quiet)`: whether the
    /// last whole comparison found few pages changed (then the next one
    /// guards the range again).
    hot: Option<bool>,
}

/// A guarded range is diffed whole from the next comparison on when at
/// least `1 / HOT` of its pages were written since the last one.
const HOT: usize = 2;
/// A range diffed whole is guarded again when a comparison finds at most
/// `1 / QUIET` of its pages changed.
const QUIET: usize = 8;

#[derive(Default)]
struct Globals {
    instances: HashMap<usize, InstanceData>,
    devices: HashMap<usize, DeviceData>,
    devices_created: usize,
    reported_panic: bool,
}

static GLOBALS: LazyLock<Mutex<Globals>> = LazyLock::new(Default::default);

fn globals() -> MutexGuard<'static, Globals> {
    GLOBALS.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The loader dispatch key of a dispatchable handle.
fn dispatch_key(raw: u64) -> usize {
    if raw == 0 {
        return 0;
    }
    // SAFETY: `raw` is a dispatchable handle the loader gave the
    // application (a pointer to an object whose first word is the loader's
    // dispatch table pointer, per the loader–layer interface); it is live
    // for the duration of the call it was passed to.
    unsafe { *(raw as usize as *const usize) }
}

/// `n` elements at `p`, or none when `p` is null.
///
/// # Safety
/// `p` is null or points at `n` valid `T`s that outlive the result.
unsafe fn slice<'a, T>(p: *const T, n: u32) -> &'a [T] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        // SAFETY: per this function's contract.
        unsafe { std::slice::from_raw_parts(p, n as usize) }
    }
}

/// Runs `f` on the capture of device `key`, catching panics.
fn record(key: usize, call: &str, f: impl FnOnce(&mut DeviceData)) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        if guard::replaced() {
            step_aside(call);
        }
        let mut g = globals();
        if let Some(d) = g.devices.get_mut(&key) {
            let t0 = d.profile.is_some().then(std::time::Instant::now);
            f(d);
            if let (Some(t0), Some(p)) = (t0, d.profile.as_mut()) {
                let e = p.entry(call.to_string()).or_default();
                e.0 += t0.elapsed();
                e.1 += 1;
            }
        }
    }));
    if result.is_err() {
        let mut g = globals();
        if !g.reported_panic {
            g.reported_panic = true;
            eprintln!("[VK_LAYER_VKSYNC_capture] internal error while recording {call}; the call went through, the trace may miss it");
        }
    }
}

/// The application replaced the page guard's `SIGSEGV` handler (seen at
/// `call`): every guard is dropped (whole mapped ranges are compared from
/// now on; their shadow copies are exact, so nothing written is lost), and
/// each trace says so (issue 27: an application with its own handler
/// installed after mapping died on the guard's faults).
fn step_aside(call: &str) {
    guard::step_aside();
    let mut g = globals();
    for d in g.devices.values_mut() {
        let guarded = d.mapped.values_mut().filter_map(|m| m.guard.take()).count();
        d.capture.note(None, format!(
            "the application replaced the SIGSEGV handler (seen at {call}): the page guard steps aside \
             ({guarded} mapped range(s) unguarded); host writes are found by comparing all mapped memory from here on"
        ));
    }
    drop(g);
    eprintln!(
        "[VK_LAYER_VKSYNC_capture] the application installed its own SIGSEGV handler (seen at {call}): \
         the page guard steps aside; host writes are found by comparing mapped memory"
    );
}

/// The next layer's function `names[0]` (or an alias) on device `key`.
fn next_fn(key: usize, names: &[&str]) -> Option<VoidFn> {
    let g = globals();
    let d = g.devices.get(&key)?;
    names.iter().find_map(|n| d.next.get(n).copied())
}

macro_rules! next {
    ($key:expr, $pfn:ty, [$($name:literal),+]) => {
        next_fn($key, &[$($name),+]).map(|f| {
            // SAFETY: `f` was returned by the next layer's
            // vkGetDeviceProcAddr for this very name, so it has the
            // signature `$pfn` of that Vulkan command.
            unsafe { std::mem::transmute::<VoidFn, $pfn>(f) }
        })
    };
}

fn output_path(index: usize) -> PathBuf {
    let base = std::env::var_os("VKSYNC_CAPTURE_OUTPUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(format!("vksync-capture-{}.trace", std::process::id())));
    if index == 0 {
        return base;
    }
    let stem = base
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match base.extension() {
        Some(ext) => format!("{stem}.{index}.{}", ext.to_string_lossy()),
        None => format!("{stem}.{index}"),
    };
    base.with_file_name(name)
}

fn flush(d: &mut DeviceData) {
    if let Err(e) = d.capture.flush() {
        eprintln!("[VK_LAYER_VKSYNC_capture] {e}");
    }
}

// ---------------------------------------------------------------- exports

/// The loader–layer negotiation: interface version 2.
///
/// # Safety
/// Called by the loader with a valid `VkNegotiateLayerInterface`.
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "system" fn vkNegotiateLoaderLayerInterfaceVersion(
    p: *mut NegotiateLayerInterface,
) -> vk::Result {
    if p.is_null() {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    }
    // SAFETY: the loader passes a valid, writable struct; fields are
    // written through raw pointers so no reference to a struct holding
    // not-yet-initialized function pointers is made.
    unsafe {
        if (*p).s_type != LAYER_NEGOTIATE_INTERFACE_STRUCT {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        }
        let v = std::ptr::addr_of_mut!((*p).loader_layer_interface_version);
        if *v > INTERFACE_VERSION {
            *v = INTERFACE_VERSION;
        }
        std::ptr::addr_of_mut!((*p).get_instance_proc_addr).write(get_instance_proc_addr);
        std::ptr::addr_of_mut!((*p).get_device_proc_addr).write(get_device_proc_addr);
        std::ptr::addr_of_mut!((*p).get_physical_device_proc_addr).write(None);
    }
    vk::Result::SUCCESS
}

/// The layer's `vkGetInstanceProcAddr`, handed to the loader only through
/// [`vkNegotiateLoaderLayerInterfaceVersion`].
///
/// It is deliberately not exported under the loader's name: an
/// application linked with `-lvulkan` has `libvulkan.so.1` in the global
/// symbol scope, and an exported `vkGetInstanceProcAddr` referenced from
/// inside this library would bind to the loader's (ELF interposition), so
/// the negotiation would hand the loader its own trampoline as this
/// layer's, and `vkCreateInstance` would re-enter the loader and block on
/// its lock (issue 27). A private function is always bound here; the
/// link also uses `-Bsymbolic` (`build.rs`) for the one exported name.
///
/// # Safety
/// `name` is a NUL-terminated string; `instance` is null or live.
unsafe extern "system" fn get_instance_proc_addr(
    instance: vk::Instance,
    name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    if name.is_null() {
        return None;
    }
    // SAFETY: per this function's contract.
    let n = unsafe { CStr::from_ptr(name) }.to_str().unwrap_or("");
    if let Some(f) = table::instance_hook(n) {
        return Some(f);
    }
    let next = {
        let g = globals();
        g.instances.get(&dispatch_key(instance.as_raw())).map(|i| i.gipa)
    };
    let next = next?;
    // SAFETY: the next layer's vkGetInstanceProcAddr, with the caller's
    // arguments.
    let found = unsafe { next(instance, name) };
    if found.is_some() {
        if let Some(f) = table::device_hook(n) {
            return Some(f);
        }
    }
    found
}

/// The layer's `vkGetDeviceProcAddr`, not exported for the reason given
/// at [`get_instance_proc_addr`].
///
/// # Safety
/// `name` is a NUL-terminated string; `device` is live.
unsafe extern "system" fn get_device_proc_addr(
    device: vk::Device,
    name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    if name.is_null() {
        return None;
    }
    // SAFETY: per this function's contract.
    let n = unsafe { CStr::from_ptr(name) }.to_str().unwrap_or("");
    if n == "vkGetDeviceProcAddr" {
        return Some(void(get_device_proc_addr as *const ()));
    }
    let key = dispatch_key(device.as_raw());
    let gdpa = {
        let g = globals();
        g.devices
            .get(&key)
            .and_then(|d| d.next.get("vkGetDeviceProcAddr").copied())
    };
    let gdpa = gdpa.map(|f| {
        // SAFETY: stored from the device link's pfnNextGetDeviceProcAddr.
        unsafe { std::mem::transmute::<VoidFn, vk::PFN_vkGetDeviceProcAddr>(f) }
    })?;
    // SAFETY: the next layer's vkGetDeviceProcAddr with the caller's
    // arguments.
    let found = unsafe { gdpa(device, name) };
    if found.is_some() {
        if let Some(f) = table::device_hook(n) {
            return Some(f);
        }
    }
    found
}

fn void(f: *const ()) -> VoidFn {
    // SAFETY: `f` is one of this module's `extern "system"` functions; the
    // caller (the loader or the application) casts it back to the
    // signature of the command it asked for by name, which is that
    // function's signature.
    unsafe { std::mem::transmute::<*const (), VoidFn>(f) }
}

// ------------------------------------------------------- instance and device

unsafe extern "system" fn create_instance(
    ci: *const vk::InstanceCreateInfo,
    alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Instance,
) -> vk::Result {
    // SAFETY: the loader passes a valid create info whose pNext chain holds
    // its VkLayerInstanceCreateInfo; a layer advances the chain's link for
    // the next layer, as the loader–layer interface requires.
    unsafe {
        let mut p = (*ci).p_next as *mut LayerInstanceCreateInfo;
        while !(p.is_null() || (*p).s_type == LOADER_INSTANCE_CREATE_INFO && (*p).function == LAYER_LINK_INFO)
        {
            p = (*p).p_next as *mut LayerInstanceCreateInfo;
        }
        if p.is_null() || (*p).layer_info.is_null() {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        }
        let link = (*p).layer_info;
        let gipa = (*link).next_get_instance_proc_addr;
        (*p).layer_info = (*link).next;
        let Some(create) = gipa(vk::Instance::null(), c"vkCreateInstance".as_ptr()) else {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        let create = std::mem::transmute::<VoidFn, vk::PFN_vkCreateInstance>(create);
        let r = create(ci, alloc, out);
        if r == vk::Result::SUCCESS {
            let handle = *out;
            let create_device = gipa(handle, c"vkCreateDevice".as_ptr());
            let destroy = gipa(handle, c"vkDestroyInstance".as_ptr());
            let memory_properties = gipa(handle, c"vkGetPhysicalDeviceMemoryProperties".as_ptr());
            globals().instances.insert(
                dispatch_key(handle.as_raw()),
                InstanceData {
                    create_device,
                    destroy,
                    memory_properties,
                    gipa,
                },
            );
        }
        r
    }
}

unsafe extern "system" fn destroy_instance(
    instance: vk::Instance,
    alloc: *const vk::AllocationCallbacks<'_>,
) {
    let key = dispatch_key(instance.as_raw());
    let data = globals().instances.remove(&key);
    if let Some(d) = data {
        // SAFETY: the next layer's function for this name, with the
        // caller's arguments.
        unsafe {
            if let Some(f) = d.destroy {
                std::mem::transmute::<VoidFn, vk::PFN_vkDestroyInstance>(f)(instance, alloc);
            }
        }
    }
}

unsafe extern "system" fn create_device(
    physical: vk::PhysicalDevice,
    ci: *const vk::DeviceCreateInfo,
    alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Device,
) -> vk::Result {
    // The instance whose chain `vkCreateDevice` goes down: physical
    // devices are not mapped to instances (one instance per process is the
    // case this layer is tested on; with several, the first one's chain is
    // used, which reaches the same driver).
    let (create, memory_properties) = {
        let g = globals();
        let i = g.instances.values().next();
        (
            i.and_then(|i| i.create_device),
            i.and_then(|i| i.memory_properties),
        )
    };
    let Some(create) = create else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    let mut memory_types = Vec::new();
    if let Some(f) = memory_properties {
        let mut props = vk::PhysicalDeviceMemoryProperties::default();
        // SAFETY: the next layer's vkGetPhysicalDeviceMemoryProperties (it
        // has this signature) on the caller's physical device.
        unsafe {
            std::mem::transmute::<VoidFn, vk::PFN_vkGetPhysicalDeviceMemoryProperties>(f)(
                physical, &mut props,
            );
        }
        let n = (props.memory_type_count as usize).min(props.memory_types.len());
        memory_types = props.memory_types[..n].iter().map(|t| t.property_flags).collect();
    }
    // SAFETY: as in `create_instance`, for the device chain.
    let (gdpa, r) = unsafe {
        let mut p = (*ci).p_next as *mut LayerDeviceCreateInfo;
        while !(p.is_null() || (*p).s_type == LOADER_DEVICE_CREATE_INFO && (*p).function == LAYER_LINK_INFO) {
            p = (*p).p_next as *mut LayerDeviceCreateInfo;
        }
        if p.is_null() || (*p).layer_info.is_null() {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        }
        let link = (*p).layer_info;
        let gdpa = (*link).next_get_device_proc_addr;
        (*p).layer_info = (*link).next;
        let create = std::mem::transmute::<VoidFn, vk::PFN_vkCreateDevice>(create);
        (gdpa, create(physical, ci, alloc, out))
    };
    if r != vk::Result::SUCCESS {
        return r;
    }
    finish_at_exit_once();
    // SAFETY: vkCreateDevice succeeded, so `*out` is the new device.
    let device = unsafe { *out };
    let mut next = HashMap::default();
    next.insert("vkGetDeviceProcAddr", void(gdpa as *const ()));
    for (stored, name) in table::load_names() {
        let c = format!("{name}\0");
        // SAFETY: the next layer's vkGetDeviceProcAddr on the new device,
        // with a NUL-terminated name.
        if let Some(f) = unsafe { gdpa(device, c.as_ptr().cast()) } {
            // Under each name it answers to, and under the registry's name
            // (the first it answers to), which the generated intercepts use.
            next.insert(name, f);
            next.entry(stored).or_insert(f);
        }
    }
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let mut g = globals();
        let index = g.devices_created;
        g.devices_created += 1;
        let path = output_path(index);
        let args: Vec<String> = std::env::args().collect();
        let header = vec![
            format!(
                "captured by VK_LAYER_VKSYNC_capture {} from `{}` (pid {}), device {index}",
                env!("CARGO_PKG_VERSION"),
                args.join(" ").replace(['\n', '\r'], " "),
                std::process::id()
            ),
            "each command's comment names the Vulkan call and its sequence number on this device".to_string(),
        ];
        let mut header = header;
        if let Some(fault) = *FAULT {
            header.push(format!(
                "fault injection on ({DROP_ENV}={}): the application's stream minus what is dropped",
                fault.spec()
            ));
        }
        let mut d = DeviceData {
            next,
            mapped: HashMap::default(),
            memory_types,
            non_coherent: HashSet::default(),
            cached: HashSet::default(),
            capture: Capture::new(path, header),
            barriers: 0,
            waits: 0,
            profile: std::env::var_os("VKSYNC_CAPTURE_PROFILE").map(|_| HashMap::default()),
        };
        flush(&mut d);
        g.devices.insert(dispatch_key(device.as_raw()), d);
    }));
    r
}

unsafe extern "system" fn destroy_device(device: vk::Device, alloc: *const vk::AllocationCallbacks<'_>) {
    let key = dispatch_key(device.as_raw());
    let f = next!(key, vk::PFN_vkDestroyDevice, ["vkDestroyDevice"]);
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let d = globals().devices.remove(&key);
        if let Some(mut d) = d {
            if let Err(e) = d.capture.finish() {
                eprintln!("[VK_LAYER_VKSYNC_capture] {e}");
            }
            report_profile(&d);
        }
    }));
    if let Some(f) = f {
        // SAFETY: the next layer's vkDestroyDevice with the caller's
        // arguments.
        unsafe { f(device, alloc) }
    }
}

/// The process that registered [`finish_at_exit`]: a child made by
/// `fork` that calls `exit` runs the handler too, and must not finish its
/// parent's traces (they are the same files).
static EXIT_PID: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Registers [`finish_at_exit`] with `atexit` once, at the first device.
fn finish_at_exit_once() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        EXIT_PID.store(std::process::id(), std::sync::atomic::Ordering::Relaxed);
        // SAFETY: `finish_at_exit` is an `extern "C" fn()` that never
        // unwinds. glibc runs it at `exit` (return from `main`), or when
        // this library is unloaded first (it is registered with this
        // library's DSO handle).
        if unsafe { libc::atexit(finish_at_exit) } != 0 {
            eprintln!("[VK_LAYER_VKSYNC_capture] cannot register the exit handler: a device not destroyed leaves its trace unfinished");
        }
    });
}

/// At process exit: finishes the trace of every device the application
/// did not destroy (issue 27: an application that exits without
/// `vkDestroyDevice` lost its last fence wait and the host reads after
/// it). The devices stay registered, so a thread still calling Vulkan
/// while the process exits is still forwarded; their captures write
/// nothing more. Never blocks for long: another thread may hold the lock
/// while `exit` runs; after 2 s the traces are left unfinished and
/// `vksync capture` says so.
extern "C" fn finish_at_exit() {
    if EXIT_PID.load(std::sync::atomic::Ordering::Relaxed) != std::process::id() {
        return;
    }
    let _ = catch_unwind(|| {
        let t0 = std::time::Instant::now();
        let mut g = loop {
            match GLOBALS.try_lock() {
                Ok(g) => break g,
                Err(std::sync::TryLockError::Poisoned(p)) => break p.into_inner(),
                Err(std::sync::TryLockError::WouldBlock) if t0.elapsed().as_secs() < 2 => {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                Err(std::sync::TryLockError::WouldBlock) => {
                    eprintln!("[VK_LAYER_VKSYNC_capture] the layer is busy at process exit: traces of devices not destroyed are left unfinished");
                    return;
                }
            }
        };
        for d in g.devices.values_mut() {
            if let Err(e) = d.capture.finish_at_exit() {
                eprintln!("[VK_LAYER_VKSYNC_capture] {e}");
            }
            report_profile(d);
        }
    });
}

// ------------------------------------------------------------- intercepts

type Alloc<'a> = *const vk::AllocationCallbacks<'a>;

unsafe extern "system" fn map_memory(
    device: vk::Device,
    memory: vk::DeviceMemory,
    offset: u64,
    size: u64,
    flags: vk::MemoryMapFlags,
    out: *mut *mut c_void,
) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(key, vk::PFN_vkMapMemory, ["vkMapMemory"]) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: the next layer's function with the caller's arguments.
    let r = unsafe { f(device, memory, offset, size, flags, out) };
    if r == vk::Result::SUCCESS {
        // SAFETY: on success `*out` is the mapped pointer.
        let ptr = unsafe { *out } as usize;
        record_map(key, "vkMapMemory", memory, offset, size, ptr);
    }
    r
}

/// `vkMapMemory2KHR`: as `vkMapMemory`.
unsafe extern "system" fn map_memory2(
    device: vk::Device,
    info: *const vk::MemoryMapInfoKHR<'_>,
    out: *mut *mut c_void,
) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(key, vk::PFN_vkMapMemory2KHR, ["vkMapMemory2KHR", "vkMapMemory2"]) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: the next layer's function with the caller's arguments.
    let r = unsafe { f(device, info, out) };
    if r == vk::Result::SUCCESS {
        // SAFETY: a valid map info; on success `*out` is the mapped pointer.
        let (memory, offset, size, ptr) =
            unsafe { ((*info).memory, (*info).offset, (*info).size, *out as usize) };
        record_map(key, "vkMapMemory2KHR", memory, offset, size, ptr);
    }
    r
}

/// Records a successful map of `size` bytes (or `VK_WHOLE_SIZE`) of
/// `memory` from `offset`, mapped at `ptr`.
fn record_map(key: usize, call: &str, memory: vk::DeviceMemory, offset: u64, size: u64, ptr: usize) {
    record(key, call, |d| {
        d.capture.next_seq();
        let Some(len) = d.capture.map_len(memory.as_raw(), offset, size) else {
            return;
        };
        // SAFETY: vkMapMemory succeeded: `len` bytes at `ptr` are mapped
        // host memory until vkUnmapMemory or vkFreeMemory (the layer
        // forgets the pointer at both). The device may write them
        // concurrently; the copy is a snapshot, as a memcpy would be.
        let bytes = unsafe { snapshot(ptr as *const u8, len as usize) };
        d.capture.map_memory_owned(memory.as_raw(), offset, bytes);
        let guard = if guard::enabled() {
            // SAFETY: as above; the guard is removed at vkUnmapMemory
            // and vkFreeMemory, before the call goes down.
            unsafe { new_guard(&d.cached, memory.as_raw(), ptr, len as usize) }
        } else {
            None
        };
        d.mapped.insert(
            memory.as_raw(),
            Mapped {
                ptr,
                len,
                guard,
                hot: None,
            },
        );
    });
}

/// A copy of `len` mapped bytes at `ptr`. Mapped memory that is not
/// `HOST_CACHED` (a discrete GPU's, write-combined) reads slowly with
/// ordinary loads: an NVIDIA H100's took 2.5 s for wgpu's mappings, most
/// of a 100-frame loop's capture cost. SSE4.1's streaming loads
/// (`MOVNTDQA`) read write-combined memory a cache line at a time, and
/// cached memory as plain loads do, so the copy uses them where the CPU
/// has them.
///
/// # Safety
/// `len` bytes at `ptr` are readable (mapped) for the duration.
unsafe fn snapshot(ptr: *const u8, len: usize) -> Vec<u8> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("sse4.1") {
        // SAFETY: the CPU has SSE4.1; the range is readable (this
        // function's contract).
        return unsafe { snapshot_streaming(ptr, len) };
    }
    // SAFETY: per this function's contract.
    unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec()
}

/// [`snapshot`] with streaming loads for the 16-byte aligned middle.
///
/// # Safety
/// As [`snapshot`]'s, and the CPU has SSE4.1.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.1")]
unsafe fn snapshot_streaming(ptr: *const u8, len: usize) -> Vec<u8> {
    use std::arch::x86_64::{__m128i, _mm_mfence, _mm_storeu_si128, _mm_stream_load_si128};
    let mut out = vec![0u8; len];
    // Intel's guidance for streaming loads from write-combining memory: a
    // fence first, so that no earlier load's buffered line is reused.
    _mm_mfence();
    let head = ptr.align_offset(16).min(len);
    let body = (len - head) / 16;
    // SAFETY: `head` bytes from `ptr` are in the readable range.
    out[..head].copy_from_slice(unsafe { std::slice::from_raw_parts(ptr, head) });
    for i in 0..body {
        let at = head + i * 16;
        // SAFETY: `ptr + at` is 16-byte aligned (past `head`) and its 16
        // bytes are in the range; `out[at..at + 16]` is in `out`.
        unsafe {
            let v = _mm_stream_load_si128(ptr.add(at) as *const __m128i);
            _mm_storeu_si128(out.as_mut_ptr().add(at) as *mut __m128i, v);
        }
    }
    let tail = head + body * 16;
    // SAFETY: the last `len - tail` bytes are in the readable range.
    out[tail..].copy_from_slice(unsafe { std::slice::from_raw_parts(ptr.add(tail), len - tail) });
    // Streaming loads are weakly ordered: the copy is complete before
    // anything after it reads memory.
    _mm_mfence();
    out
}

/// A page guard on `len` bytes at `ptr` of `memory`, leaving hot pages
/// open where the memory is `HOST_CACHED` (reading it back costs less
/// than a fault per page per submission; uncached memory, a discrete
/// GPU's memory seen through the PCIe BAR, is read slowly and keeps a
/// fault per written page).
///
/// # Safety
/// As [`guard::guard`]'s.
unsafe fn new_guard(cached: &HashSet<u64>, memory: u64, ptr: usize, len: usize) -> Option<Guarded> {
    // SAFETY: per this function's contract.
    let mut g = unsafe { guard::guard(ptr, len) }?;
    if cached.contains(&memory) {
        g.leave_hot_pages_open();
    }
    Some(g)
}

/// Calls `down` (a host wait on `on` going down the chain) and records it
/// as `call` when it returns `VK_SUCCESS`, with what it covered when it
/// was called (`Capture::begin_wait`: submissions other threads record
/// while it waits are preceded by a marker, and the wait is written as
/// covering exactly the work before it). Returns `down`'s result.
fn host_wait(key: usize, call: &str, on: WaitOn<'_>, down: impl FnOnce() -> vk::Result) -> vk::Result {
    let mut token = None;
    record(key, call, |d| token = Some(d.capture.begin_wait(on)));
    let r = down();
    record(key, call, |d| {
        let seq = d.capture.next_seq();
        let scope = token.map(|t| d.capture.end_wait(t)).unwrap_or_default();
        if r == vk::Result::SUCCESS {
            wait_on(d, seq, call, &scope);
        }
    });
    r
}

/// The application's mapped ranges of device data `d`, as byte slices
/// (what a wait reads of the device's results).
fn mapped_now(mapped: &HashMap<u64, Mapped>) -> Vec<(u64, &[u8])> {
    mapped
        .iter()
        .map(|(&mem, m)| {
            // SAFETY: as in `map_memory`: the range is mapped while it is
            // in `mapped`. Only the ranges the device wrote are read.
            (mem, unsafe {
                std::slice::from_raw_parts(m.ptr as *const u8, m.len as usize)
            })
        })
        .collect()
}

/// Records a successful wait with the scope it had when it was called.
fn wait_on(d: &mut DeviceData, seq: u64, call: &str, scope: &WaitScope) {
    let DeviceData { mapped, capture, .. } = d;
    capture.wait_in_scope(seq, call, scope, &mapped_now(mapped));
}

/// Which mapped bytes a diff compares.
#[derive(Clone, Copy)]
enum Diff {
    /// Before a submission or an unmap: every coherent mapped range (of
    /// `only`, if given); non-coherent memory is left to the flushes.
    Coherent { only: Option<u64> },
    /// `vkFlushMappedMemoryRanges`: `[start, end)` of memory `memory`,
    /// offsets in the memory object, if it is not coherent.
    Flushed { memory: u64, start: u64, end: u64 },
}

/// Compares mapped bytes with their shadow copy: only the pages the guard
/// saw written where there is a guard, else all of them.
///
/// The guard's cost is a fault per page written per interval between
/// comparisons (a signal, an `mprotect`, and a TLB shootdown when the page
/// is protected again): cheap for a range the host writes a little of,
/// ruinous for one it writes all over while another thread submits (issue
/// 27: a thread storing every 256th byte of a 1 MiB buffer took 256
/// faults per submission, about 9 us each on this machine). So a range
/// whose comparison found at least `1 / HOT` of its pages written is
/// unguarded and diffed whole from then on (which reads at most `HOT`
/// times what the dirty pages alone would); once a whole comparison finds
/// at most `1 / QUIET` of its pages changed, the next comparison guards it
/// again before it reads it (a write before the new guard is still a
/// difference from the shadow, one after it faults and is marked). Either
/// way the shadow copy is exact, so the host writes found are the same;
/// only the cost moves. Flushes of non-coherent memory (a `within`) leave
/// the policy alone.
fn diff_mapped(d: &mut DeviceData, seq: u64, call: &str, which: Diff) {
    let DeviceData {
        mapped,
        non_coherent,
        cached,
        capture,
        ..
    } = d;
    // In allocation order, so that the host writes of one submission are
    // written in the same order in every run (the handles, and so the
    // map's order, differ from run to run).
    let mut order: Vec<(usize, u64)> = mapped
        .keys()
        .map(|&mem| (capture.memory_index(mem).unwrap_or(usize::MAX), mem))
        .collect();
    order.sort_unstable();
    for mem in order.into_iter().map(|(_, mem)| mem) {
        let Some(m) = mapped.get_mut(&mem) else {
            continue;
        };
        let within = match which {
            Diff::Coherent { only } => {
                if only.is_some_and(|o| o != mem) || non_coherent.contains(&mem) {
                    continue;
                }
                None
            }
            Diff::Flushed { memory, start, end } => {
                if memory != mem || !non_coherent.contains(&mem) {
                    continue;
                }
                let Some(offset) = capture.map_offset(mem) else {
                    continue;
                };
                let s = start.saturating_sub(offset).min(m.len) as usize;
                let e = end.saturating_sub(offset).min(m.len) as usize;
                Some((s, e))
            }
        };
        // Quiet again: guarded before this whole comparison reads it.
        let reguarded = within.is_none() && m.hot == Some(true) && guard::enabled();
        if reguarded {
            // SAFETY: as in `record_map`: the range stays mapped while it
            // is in `mapped`, and the guard is dropped before it leaves.
            m.guard = unsafe { new_guard(cached, mem, m.ptr, m.len as usize) };
            m.hot = None;
        }
        let windows = match &mut m.guard {
            Some(g) if !reguarded => g.take_dirty(within),
            _ => {
                let (s, e) = within.unwrap_or((0, m.len as usize));
                vec![(s, e - s)]
            }
        };
        let page = guard::page_size();
        let pages = (m.len as usize).div_ceil(page).max(1);
        if within.is_none() && !reguarded {
            if let Some(g) = m.guard.take_if(|g| {
                // The whole pages written (the windows always hold the
                // partial end pages too, written or not).
                let (guarded, partial) = g.extent();
                let taken: usize = windows.iter().map(|w| w.1).sum();
                taken.saturating_sub(partial) / page * HOT >= guarded
            }) {
                // Mostly written: diffed whole from the next comparison on.
                g.unguard();
                m.hot = Some(false);
            }
        }
        let views: Vec<(usize, &[u8])> = windows
            .iter()
            .filter(|w| w.1 > 0)
            .map(|&(at, len)| {
                // SAFETY: as in `map_memory`: the range is mapped while it
                // is in `mapped`, and each window lies inside it.
                (at, unsafe {
                    std::slice::from_raw_parts((m.ptr + at) as *const u8, len)
                })
            })
            .collect();
        if views.is_empty() {
            continue;
        }
        let changed = capture.host_writes(seq, call, mem, &views);
        if let Some(quiet) = m.hot.as_mut().filter(|_| within.is_none()) {
            *quiet = distinct_pages(&changed, page) * QUIET <= pages;
        }
    }
}

/// How many pages of `page` bytes the spans (sorted `[start, end)`
/// offsets) touch, each counted once.
fn distinct_pages(spans: &[(usize, usize)], page: usize) -> usize {
    let mut count = 0;
    let mut next = 0; // the first page not counted yet
    for &(s, e) in spans {
        if s >= e {
            continue;
        }
        let (first, last) = ((s / page).max(next), (e - 1) / page);
        if first <= last {
            count += last - first + 1;
            next = last + 1;
        }
    }
    count
}

unsafe extern "system" fn unmap_memory(device: vk::Device, memory: vk::DeviceMemory) {
    let key = dispatch_key(device.as_raw());
    record_unmap(key, "vkUnmapMemory", memory);
    if let Some(f) = next!(key, vk::PFN_vkUnmapMemory, ["vkUnmapMemory"]) {
        // SAFETY: the next layer's function with the caller's arguments.
        unsafe { f(device, memory) }
    }
}

/// `vkUnmapMemory2KHR`: as `vkUnmapMemory`.
unsafe extern "system" fn unmap_memory2(
    device: vk::Device,
    info: *const vk::MemoryUnmapInfoKHR<'_>,
) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(
        key,
        vk::PFN_vkUnmapMemory2KHR,
        ["vkUnmapMemory2KHR", "vkUnmapMemory2"]
    ) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: a valid unmap info.
    let memory = unsafe { (*info).memory };
    record_unmap(key, "vkUnmapMemory2KHR", memory);
    // SAFETY: the next layer's function with the caller's arguments.
    let r = unsafe { f(device, info) };
    if r != vk::Result::SUCCESS {
        // The mapping was forgotten before the call (its pages must be
        // writable before the driver can unmap them); it stays mapped.
        record(key, "vkUnmapMemory2KHR", |d| {
            let seq = d.capture.next_seq();
            d.capture.not_modelled(
                None,
                seq,
                "vkUnmapMemory2KHR",
                &format!("failed ({r}): later host writes to this mapping are not seen"),
            );
        });
    }
    r
}

/// Records an unmap of `memory`, before it goes down the chain: its last
/// host writes, then the mapping forgotten and unguarded.
fn record_unmap(key: usize, call: &str, memory: vk::DeviceMemory) {
    record(key, call, |d| {
        let seq = d.capture.next_seq();
        diff_mapped(
            d,
            seq,
            call,
            Diff::Coherent {
                only: Some(memory.as_raw()),
            },
        );
        if let Some(m) = d.mapped.remove(&memory.as_raw()) {
            if let Some(g) = m.guard {
                g.unguard();
            }
        }
        d.capture.unmap_memory(memory.as_raw());
    });
}

unsafe extern "system" fn flush_mapped(
    device: vk::Device,
    n: u32,
    ranges: *const vk::MappedMemoryRange<'_>,
) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(
        key,
        vk::PFN_vkFlushMappedMemoryRanges,
        ["vkFlushMappedMemoryRanges"]
    ) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: `n` valid ranges.
    let ranges_now: Vec<(u64, u64, u64)> = unsafe { slice(ranges, n) }
        .iter()
        .map(|r| (r.memory.as_raw(), r.offset, r.size))
        .collect();
    record(key, "vkFlushMappedMemoryRanges", |d| {
        let seq = d.capture.next_seq();
        // The host writes in each range are available to the device from
        // here: diffed now, written before the next submission.
        for &(memory, offset, size) in &ranges_now {
            let end = if size == vk::WHOLE_SIZE {
                u64::MAX
            } else {
                offset.saturating_add(size)
            };
            diff_mapped(
                d,
                seq,
                "vkFlushMappedMemoryRanges",
                Diff::Flushed {
                    memory,
                    start: offset,
                    end,
                },
            );
        }
    });
    // SAFETY: the next layer's function with the caller's arguments.
    unsafe { f(device, n, ranges) }
}

/// `vkInvalidateMappedMemoryRanges`: the host is about to read those
/// ranges; the device's results there are assumed read now
/// ([`Capture::invalidate`]).
unsafe extern "system" fn invalidate_mapped(
    device: vk::Device,
    n: u32,
    ranges: *const vk::MappedMemoryRange<'_>,
) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(
        key,
        vk::PFN_vkInvalidateMappedMemoryRanges,
        ["vkInvalidateMappedMemoryRanges"]
    ) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: `n` valid ranges.
    let ranges_now: Vec<(u64, u64, u64)> = unsafe { slice(ranges, n) }
        .iter()
        .map(|r| (r.memory.as_raw(), r.offset, r.size))
        .collect();
    // SAFETY: the next layer's function with the caller's arguments.
    let r = unsafe { f(device, n, ranges) };
    if r == vk::Result::SUCCESS {
        record(key, "vkInvalidateMappedMemoryRanges", |d| {
            let seq = d.capture.next_seq();
            for &(memory, offset, size) in &ranges_now {
                let end = if size == vk::WHOLE_SIZE {
                    u64::MAX
                } else {
                    offset.saturating_add(size)
                };
                d.capture
                    .invalidate(seq, "vkInvalidateMappedMemoryRanges", memory, offset, end);
            }
        });
    }
    r
}

unsafe extern "system" fn get_device_queue(device: vk::Device, family: u32, index: u32, out: *mut vk::Queue) {
    let key = dispatch_key(device.as_raw());
    if let Some(f) = next!(key, vk::PFN_vkGetDeviceQueue, ["vkGetDeviceQueue"]) {
        // SAFETY: the next layer's function with the caller's arguments.
        unsafe { f(device, family, index, out) };
        // SAFETY: `out` was written by the call.
        let queue = unsafe { *out };
        if queue != vk::Queue::null() {
            record(key, "vkGetDeviceQueue", |d| {
                d.capture.queue_family(queue.as_raw(), family)
            });
        }
    }
}

unsafe extern "system" fn get_device_queue2(
    device: vk::Device,
    info: *const vk::DeviceQueueInfo2<'_>,
    out: *mut vk::Queue,
) {
    let key = dispatch_key(device.as_raw());
    if let Some(f) = next!(key, vk::PFN_vkGetDeviceQueue2, ["vkGetDeviceQueue2"]) {
        // SAFETY: the next layer's function with the caller's arguments.
        unsafe { f(device, info, out) };
        // SAFETY: a valid queue info; `out` was written by the call.
        let (queue, family) = unsafe { (*out, (*info).queue_family_index) };
        if queue != vk::Queue::null() {
            record(key, "vkGetDeviceQueue2", |d| {
                d.capture.queue_family(queue.as_raw(), family)
            });
        }
    }
}

unsafe extern "system" fn signal_semaphore(
    device: vk::Device,
    info: *const vk::SemaphoreSignalInfo<'_>,
) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(
        key,
        vk::PFN_vkSignalSemaphore,
        ["vkSignalSemaphore", "vkSignalSemaphoreKHR"]
    ) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: a valid signal info.
    let (sem, value) = unsafe { ((*info).semaphore.as_raw(), (*info).value) };
    // SAFETY: the next layer's function with the caller's arguments.
    let r = unsafe { f(device, info) };
    if r == vk::Result::SUCCESS {
        record(key, "vkSignalSemaphore", |d| {
            let seq = d.capture.next_seq();
            d.capture.host_signal(seq, "vkSignalSemaphore", sem, value);
        });
    }
    r
}

unsafe extern "system" fn wait_semaphores(
    device: vk::Device,
    info: *const vk::SemaphoreWaitInfo<'_>,
    timeout: u64,
) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(
        key,
        vk::PFN_vkWaitSemaphores,
        ["vkWaitSemaphores", "vkWaitSemaphoresKHR"]
    ) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: the next layer's function with the caller's arguments.
    let r = unsafe { f(device, info, timeout) };
    if r != vk::Result::SUCCESS {
        // A time-out proves nothing reached.
        return r;
    }
    // SAFETY: a valid wait info with `semaphore_count` semaphores and
    // values.
    let (waits, any) = unsafe {
        let i = &*info;
        let waits: Vec<(u64, u64)> = slice(i.p_semaphores, i.semaphore_count)
            .iter()
            .zip(slice(i.p_values, i.semaphore_count))
            .map(|(s, v)| (s.as_raw(), *v))
            .collect();
        (waits, i.flags.contains(vk::SemaphoreWaitFlags::ANY))
    };
    // Waiting for all proves each value; waiting for any of several proves
    // only one, unknown: each semaphore's value is then read (a query,
    // after the wait, which proves what it reads).
    let reached: Option<Vec<(u64, u64)>> = if any && waits.len() > 1 {
        counter_values(device, key, waits.iter().map(|w| w.0))
    } else {
        Some(waits)
    };
    record(key, "vkWaitSemaphores", |d| {
        let seq = d.capture.next_seq();
        match &reached {
            Some(reached) => {
                let DeviceData { mapped, capture, .. } = d;
                capture.host_wait(seq, "vkWaitSemaphores", reached, &mapped_now(mapped));
            }
            None => d.capture.not_modelled(
                None,
                seq,
                "vkWaitSemaphores",
                "a wait for any of several semaphores (their values could not be read)",
            ),
        }
    });
    r
}

/// The current value of each timeline semaphore of `semaphores`, read with
/// the next layer's `vkGetSemaphoreCounterValue`; `None` if one cannot be
/// read.
fn counter_values(
    device: vk::Device,
    key: usize,
    semaphores: impl Iterator<Item = u64>,
) -> Option<Vec<(u64, u64)>> {
    let f = next!(
        key,
        vk::PFN_vkGetSemaphoreCounterValue,
        ["vkGetSemaphoreCounterValue", "vkGetSemaphoreCounterValueKHR"]
    )?;
    semaphores
        .map(|s| {
            let mut value = 0u64;
            // SAFETY: the next layer's function with a semaphore the
            // application just waited on and a valid output pointer.
            let r = unsafe { f(device, vk::Semaphore::from_raw(s), &mut value) };
            (r == vk::Result::SUCCESS).then_some((s, value))
        })
        .collect()
}

unsafe extern "system" fn get_semaphore_counter_value(
    device: vk::Device,
    semaphore: vk::Semaphore,
    value: *mut u64,
) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(
        key,
        vk::PFN_vkGetSemaphoreCounterValue,
        ["vkGetSemaphoreCounterValue", "vkGetSemaphoreCounterValueKHR"]
    ) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: the next layer's function with the caller's arguments.
    let r = unsafe { f(device, semaphore, value) };
    if r == vk::Result::SUCCESS && !value.is_null() {
        // SAFETY: written on success.
        let v = unsafe { *value };
        // A poll proves the value it reads: a `host-wait` only where that
        // is more than the trace knows (`Capture::host_wait`).
        record(key, "vkGetSemaphoreCounterValue", |d| {
            let seq = d.capture.next_seq();
            let DeviceData { mapped, capture, .. } = d;
            capture.host_wait(
                seq,
                "vkGetSemaphoreCounterValue",
                &[(semaphore.as_raw(), v)],
                &mapped_now(mapped),
            );
        });
    }
    r
}

/// The bytes of memory image `image` needs, by the next layer's
/// `vkGetImageMemoryRequirements` (a query: it changes nothing).
fn image_size(key: usize, device: vk::Device, image: vk::Image) -> Option<u64> {
    let f = next!(
        key,
        vk::PFN_vkGetImageMemoryRequirements,
        ["vkGetImageMemoryRequirements"]
    )?;
    let mut req = vk::MemoryRequirements::default();
    // SAFETY: the next layer's function on the caller's device and an image
    // it just bound (so it exists).
    unsafe { f(device, image, &mut req) };
    Some(req.size)
}

/// Tells the capture what the driver says of a linear image's first
/// subresource (`vkGetImageSubresourceLayout`, a query that changes
/// nothing; valid for linear tiling only, which the capture checks
/// first): where its texels start in its binding and how far apart its
/// rows are.
fn linear_layout(key: usize, device: vk::Device, image: vk::Image) {
    let mut subresources = Vec::new();
    record(key, "vkGetImageSubresourceLayout", |d| {
        subresources = d.capture.linear_subresources(image.as_raw());
    });
    if subresources.is_empty() {
        return;
    }
    let Some(f) = next!(
        key,
        vk::PFN_vkGetImageSubresourceLayout,
        ["vkGetImageSubresourceLayout"]
    ) else {
        return;
    };
    let layouts: Vec<SubLayout> = subresources
        .into_iter()
        .map(|(aspect, mip, layer)| {
            let sub = vk::ImageSubresource {
                aspect_mask: vk::ImageAspectFlags::from_raw(aspect),
                mip_level: mip,
                array_layer: layer,
            };
            let mut l = vk::SubresourceLayout::default();
            // SAFETY: the next layer's function on the caller's device, an
            // image of linear tiling it just bound, and a subresource it
            // has (the capture lists the format's aspects, and the mips
            // and layers it was created with).
            unsafe { f(device, image, &sub, &mut l) };
            SubLayout {
                subresource: (aspect, mip, layer),
                layout: vksync::SubresourceLayout {
                    offset: l.offset,
                    size: l.size,
                    row_pitch: l.row_pitch,
                    array_pitch: l.array_pitch,
                    depth_pitch: l.depth_pitch,
                },
            }
        })
        .collect();
    record(key, "vkGetImageSubresourceLayout", |d| {
        d.capture.linear_layout(image.as_raw(), layouts)
    });
}

unsafe extern "system" fn bind_image_memory(
    device: vk::Device,
    image: vk::Image,
    memory: vk::DeviceMemory,
    offset: u64,
) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(key, vk::PFN_vkBindImageMemory, ["vkBindImageMemory"]) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: the next layer's function with the caller's arguments.
    let r = unsafe { f(device, image, memory, offset) };
    if r == vk::Result::SUCCESS {
        let size = image_size(key, device, image);
        linear_layout(key, device, image);
        record(key, "vkBindImageMemory", |d| {
            let seq = d.capture.next_seq();
            match size {
                Some(size) => d.capture.bind_image(
                    seq,
                    "vkBindImageMemory",
                    image.as_raw(),
                    memory.as_raw(),
                    offset,
                    size,
                ),
                None => d
                    .capture
                    .not_modelled(None, seq, "vkBindImageMemory", "the image's size is unknown"),
            }
        });
    }
    r
}

unsafe extern "system" fn bind_image_memory2(
    device: vk::Device,
    n: u32,
    infos: *const vk::BindImageMemoryInfo<'_>,
) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(
        key,
        vk::PFN_vkBindImageMemory2,
        ["vkBindImageMemory2", "vkBindImageMemory2KHR"]
    ) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: the next layer's function with the caller's arguments.
    let r = unsafe { f(device, n, infos) };
    if r == vk::Result::SUCCESS {
        // SAFETY: `n` valid bind infos.
        let binds: Vec<(vk::Image, u64, u64)> = unsafe { slice(infos, n) }
            .iter()
            .map(|b| (b.image, b.memory.as_raw(), b.memory_offset))
            .collect();
        let sizes: Vec<Option<u64>> = binds.iter().map(|b| image_size(key, device, b.0)).collect();
        for b in &binds {
            linear_layout(key, device, b.0);
        }
        record(key, "vkBindImageMemory2", |d| {
            let seq = d.capture.next_seq();
            for ((image, m, o), size) in binds.into_iter().zip(sizes) {
                match size {
                    Some(size) => d
                        .capture
                        .bind_image(seq, "vkBindImageMemory2", image.as_raw(), m, o, size),
                    None => {
                        d.capture
                            .not_modelled(None, seq, "vkBindImageMemory2", "the image's size is unknown")
                    }
                }
            }
        });
    }
    r
}

/// The buffer descriptors of one `VkWriteDescriptorSet` (none for other
/// descriptor types).
///
/// # Safety
/// `w` is a valid write: for a buffer descriptor type, `p_buffer_info`
/// points at `descriptor_count` `VkDescriptorBufferInfo`s.
unsafe fn buffer_writes(w: &vk::WriteDescriptorSet<'_>) -> Vec<BufferWrite> {
    let buffer_type = matches!(
        w.descriptor_type,
        vk::DescriptorType::STORAGE_BUFFER
            | vk::DescriptorType::STORAGE_BUFFER_DYNAMIC
            | vk::DescriptorType::UNIFORM_BUFFER
            | vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC
    );
    if !buffer_type {
        return Vec::new();
    }
    // SAFETY: per this function's contract.
    let infos = unsafe { slice(w.p_buffer_info, w.descriptor_count) };
    infos
        .iter()
        .enumerate()
        .map(|(k, b)| {
            (
                w.dst_binding,
                w.dst_array_element.saturating_add(k as u32),
                b.buffer.as_raw(),
                b.offset,
                b.range,
            )
        })
        .collect()
}

/// The image descriptors (storage, sampled, combined image sampler) of one
/// `VkWriteDescriptorSet` (none for other descriptor types).
///
/// # Safety
/// `w` is a valid write: for an image descriptor type, `p_image_info`
/// points at `descriptor_count` `VkDescriptorImageInfo`s.
unsafe fn image_writes(w: &vk::WriteDescriptorSet<'_>) -> Vec<ImageWrite> {
    let image_type = matches!(
        w.descriptor_type,
        vk::DescriptorType::STORAGE_IMAGE
            | vk::DescriptorType::SAMPLED_IMAGE
            | vk::DescriptorType::COMBINED_IMAGE_SAMPLER
    );
    if !image_type {
        return Vec::new();
    }
    // SAFETY: per this function's contract.
    let infos = unsafe { slice(w.p_image_info, w.descriptor_count) };
    infos
        .iter()
        .enumerate()
        .map(|(k, i)| {
            (
                w.dst_binding,
                w.dst_array_element.saturating_add(k as u32),
                i.image_view.as_raw(),
                i.image_layout,
            )
        })
        .collect()
}

/// The texel buffer descriptors (uniform, storage) of one
/// `VkWriteDescriptorSet`: binding, array element, buffer view.
///
/// # Safety
/// `w` is a valid write: for a texel buffer descriptor type,
/// `p_texel_buffer_view` points at `descriptor_count` `VkBufferView`s.
unsafe fn texel_writes(w: &vk::WriteDescriptorSet<'_>) -> Vec<TexelWrite> {
    if !matches!(
        w.descriptor_type,
        vk::DescriptorType::UNIFORM_TEXEL_BUFFER | vk::DescriptorType::STORAGE_TEXEL_BUFFER
    ) {
        return Vec::new();
    }
    // SAFETY: per this function's contract.
    let views = unsafe { slice(w.p_texel_buffer_view, w.descriptor_count) };
    views
        .iter()
        .enumerate()
        .map(|(k, v)| {
            (
                w.dst_binding,
                w.dst_array_element.saturating_add(k as u32),
                v.as_raw(),
            )
        })
        .collect()
}

/// The descriptors a template writes from the application's data.
///
/// # Safety
/// `data` is the `pData` of a `vkUpdateDescriptorSetWithTemplate` or
/// `vkCmdPushDescriptorSetWithTemplate(2)(KHR)` call with the template
/// whose slots these are: the spec requires a `VkDescriptorBufferInfo`,
/// `VkDescriptorImageInfo` or `VkBufferView` (as the entry's descriptor
/// type says, and so the slot's kind) at each entry's `offset + k *
/// stride` for `k` below its count.
unsafe fn template_writes(slots: &[TemplateSlot], data: *const c_void) -> Writes {
    let mut out = Writes::default();
    if data.is_null() {
        return out;
    }
    for s in slots {
        // Per this function's contract, a value of the slot's kind lies at
        // `at`; the data need not be aligned for it, hence the unaligned
        // reads.
        let at = data.cast::<u8>().wrapping_add(s.offset);
        match s.kind {
            SlotKind::Buffer => {
                // SAFETY: a `VkDescriptorBufferInfo` at `at` (above).
                let b = unsafe { std::ptr::read_unaligned(at.cast::<vk::DescriptorBufferInfo>()) };
                out.buffers
                    .push((s.binding, s.element, b.buffer.as_raw(), b.offset, b.range));
            }
            SlotKind::Image => {
                // SAFETY: a `VkDescriptorImageInfo` at `at` (above).
                let i = unsafe { std::ptr::read_unaligned(at.cast::<vk::DescriptorImageInfo>()) };
                out.images
                    .push((s.binding, s.element, i.image_view.as_raw(), i.image_layout));
            }
            SlotKind::Texel => {
                // SAFETY: a `VkBufferView` at `at` (above).
                let v = unsafe { std::ptr::read_unaligned(at.cast::<vk::BufferView>()) };
                out.texels.push((s.binding, s.element, v.as_raw()));
            }
        }
    }
    out
}

/// Every descriptor of `n` writes, by kind (their `dst_set` is not read:
/// a push has none, and `vkUpdateDescriptorSets` passes one write at a
/// time with its own).
///
/// # Safety
/// `writes` points at `n` valid `VkWriteDescriptorSet`s.
unsafe fn push_writes(writes: *const vk::WriteDescriptorSet<'_>, n: u32) -> Writes {
    let mut out = Writes::default();
    // SAFETY: per this function's contract.
    for w in unsafe { slice(writes, n) } {
        // SAFETY: each is a valid write, per this function's contract.
        unsafe {
            out.buffers.extend(buffer_writes(w));
            out.images.extend(image_writes(w));
            out.texels.extend(texel_writes(w));
        }
    }
    out
}

/// A `VkBufferImageCopy2` as the `VkBufferImageCopy` it extends.
fn region1(r: &vk::BufferImageCopy2<'_>) -> vk::BufferImageCopy {
    vk::BufferImageCopy {
        buffer_offset: r.buffer_offset,
        buffer_row_length: r.buffer_row_length,
        buffer_image_height: r.buffer_image_height,
        image_subresource: r.image_subresource,
        image_offset: r.image_offset,
        image_extent: r.image_extent,
    }
}

/// A `VkImageSubresourceRange`, raw, as the recorder keeps one.
fn raw_range(r: &vk::ImageSubresourceRange) -> [u32; 5] {
    [
        r.aspect_mask.as_raw(),
        r.base_mip_level,
        r.level_count,
        r.base_array_layer,
        r.layer_count,
    ]
}

/// The barriers of a synchronization-1 call (`vkCmdPipelineBarrier`,
/// `vkCmdWaitEvents`) as synchronization-2 masks: each memory, buffer and
/// image barrier with the call's stage masks `s2`/`d2` (already
/// converted) and its own access masks converted (`crate::sync1`).
///
/// # Safety
/// `mems`, `bufs` and `imgs` point to `nm`, `nb` and `ni` valid barriers.
#[allow(clippy::too_many_arguments)]
unsafe fn read_sync1_barriers(
    s2: u64,
    d2: u64,
    nm: u32,
    mems: *const vk::MemoryBarrier<'_>,
    nb: u32,
    bufs: *const vk::BufferMemoryBarrier<'_>,
    ni: u32,
    imgs: *const vk::ImageMemoryBarrier<'_>,
) -> (Vec<[u64; 4]>, Vec<ResourceBarrier>) {
    let masks = |src: vk::AccessFlags, dst: vk::AccessFlags| {
        [
            s2,
            sync1::access_1_to_2(src).as_raw(),
            d2,
            sync1::access_1_to_2(dst).as_raw(),
        ]
    };
    // SAFETY: per this function's contract.
    unsafe {
        let g: Vec<[u64; 4]> = slice(mems, nm)
            .iter()
            .map(|m| masks(m.src_access_mask, m.dst_access_mask))
            .collect();
        let mut b: Vec<ResourceBarrier> = slice(bufs, nb)
            .iter()
            .map(|m| ResourceBarrier {
                masks: masks(m.src_access_mask, m.dst_access_mask),
                target: BarrierTarget::Buffer {
                    buffer: m.buffer.as_raw(),
                    offset: m.offset,
                    size: m.size,
                },
                queue_families: queue_families(m.src_queue_family_index, m.dst_queue_family_index),
            })
            .collect();
        b.extend(slice(imgs, ni).iter().map(|m| ResourceBarrier {
            masks: masks(m.src_access_mask, m.dst_access_mask),
            target: image_target(m.image, m.subresource_range, m.old_layout, m.new_layout),
            queue_families: queue_families(m.src_queue_family_index, m.dst_queue_family_index),
        }));
        (g, b)
    }
}

/// An image memory barrier's target, as the recorder takes it.
fn image_target(
    image: vk::Image,
    r: vk::ImageSubresourceRange,
    old_layout: vk::ImageLayout,
    new_layout: vk::ImageLayout,
) -> BarrierTarget {
    BarrierTarget::Image {
        image: image.as_raw(),
        range: [
            r.aspect_mask.as_raw(),
            r.base_mip_level,
            r.level_count,
            r.base_array_layer,
            r.layer_count,
        ],
        old_layout,
        new_layout,
    }
}

#[allow(clippy::too_many_arguments)]
unsafe extern "system" fn pipeline_barrier(
    cb: vk::CommandBuffer,
    src: vk::PipelineStageFlags,
    dst: vk::PipelineStageFlags,
    flags: vk::DependencyFlags,
    nm: u32,
    mems: *const vk::MemoryBarrier<'_>,
    nb: u32,
    bufs: *const vk::BufferMemoryBarrier<'_>,
    ni: u32,
    imgs: *const vk::ImageMemoryBarrier<'_>,
) {
    let key = dispatch_key(cb.as_raw());
    let (s2, d2) = (
        sync1::stages_1_to_2(src).as_raw(),
        sync1::stages_1_to_2(dst).as_raw(),
    );
    // SAFETY: `nm` memory, `nb` buffer and `ni` image barriers.
    let (globals_, buffers) = unsafe { read_sync1_barriers(s2, d2, nm, mems, nb, bufs, ni, imgs) };
    let mut dropped = false;
    record(key, "vkCmdPipelineBarrier", |d| {
        let seq = d.capture.next_seq();
        dropped = drop_barrier(d, cb, seq, "vkCmdPipelineBarrier");
        if dropped {
            return;
        }
        // A sync1 barrier with no memory barrier is an execution
        // dependency: a global barrier with no accesses.
        let g = if globals_.is_empty() && buffers.is_empty() {
            vec![[s2, 0, d2, 0]]
        } else {
            globals_
        };
        d.capture
            .barrier(cb.as_raw(), seq, "vkCmdPipelineBarrier", &g, &buffers);
    });
    if dropped {
        return;
    }
    if let Some(f) = next!(key, vk::PFN_vkCmdPipelineBarrier, ["vkCmdPipelineBarrier"]) {
        // SAFETY: the next layer's function with the caller's arguments.
        unsafe { f(cb, src, dst, flags, nm, mems, nb, bufs, ni, imgs) }
    }
}

// ------------------------------------------------------ names and labels

/// `vkSetDebugUtilsObjectNameEXT`: the name goes to the trace
/// ([`Capture::set_object_name`]).
unsafe extern "system" fn set_object_name(
    device: vk::Device,
    info: *const vk::DebugUtilsObjectNameInfoEXT<'_>,
) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(
        key,
        vk::PFN_vkSetDebugUtilsObjectNameEXT,
        ["vkSetDebugUtilsObjectNameEXT"]
    ) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: a valid name info; `pObjectName` is null or a NUL-terminated
    // string (a null name removes the name).
    let (ty, handle, name) = unsafe {
        let i = &*info;
        let name = (!i.p_object_name.is_null())
            .then(|| CStr::from_ptr(i.p_object_name).to_string_lossy().into_owned());
        (i.object_type, i.object_handle, name)
    };
    // SAFETY: the next layer's function with the caller's arguments.
    let r = unsafe { f(device, info) };
    if let (vk::Result::SUCCESS, Some(name)) = (r, name) {
        record(key, "vkSetDebugUtilsObjectNameEXT", |d| {
            let seq = d.capture.next_seq();
            d.capture
                .set_object_name(seq, "vkSetDebugUtilsObjectNameEXT", ty, handle, &name);
        });
    }
    r
}

/// `vkDebugMarkerSetObjectNameEXT`: as `vkSetDebugUtilsObjectNameEXT`, its
/// `VkDebugReportObjectTypeEXT` mapped to the object types that have names
/// in the trace.
unsafe extern "system" fn marker_object_name(
    device: vk::Device,
    info: *const vk::DebugMarkerObjectNameInfoEXT<'_>,
) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(
        key,
        vk::PFN_vkDebugMarkerSetObjectNameEXT,
        ["vkDebugMarkerSetObjectNameEXT"]
    ) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: a valid name info with a NUL-terminated `pObjectName`.
    let (ty, handle, name) = unsafe {
        let i = &*info;
        let name = (!i.p_object_name.is_null())
            .then(|| CStr::from_ptr(i.p_object_name).to_string_lossy().into_owned());
        (i.object_type, i.object, name)
    };
    // SAFETY: the next layer's function with the caller's arguments.
    let r = unsafe { f(device, info) };
    let ty = match ty {
        vk::DebugReportObjectTypeEXT::BUFFER => vk::ObjectType::BUFFER,
        vk::DebugReportObjectTypeEXT::IMAGE => vk::ObjectType::IMAGE,
        vk::DebugReportObjectTypeEXT::DEVICE_MEMORY => vk::ObjectType::DEVICE_MEMORY,
        vk::DebugReportObjectTypeEXT::COMMAND_BUFFER => vk::ObjectType::COMMAND_BUFFER,
        _ => vk::ObjectType::UNKNOWN,
    };
    if let (vk::Result::SUCCESS, Some(name)) = (r, name) {
        record(key, "vkDebugMarkerSetObjectNameEXT", |d| {
            let seq = d.capture.next_seq();
            d.capture
                .set_object_name(seq, "vkDebugMarkerSetObjectNameEXT", ty, handle, &name);
        });
    }
    r
}

/// The label text of a `VkDebugUtilsLabelEXT` or `VkDebugMarkerMarkerInfoEXT`
/// name pointer.
///
/// # Safety
/// `p` is null or a NUL-terminated string.
unsafe fn label_text(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        // SAFETY: per this function's contract.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
}

/// The label intercepts: `$begin` is `Some(true)` for a begin, `None` for
/// an end (no label argument), `Some(false)` for an insert.
macro_rules! label_intercept {
    ($fname:ident, $call:literal, $pfn:ty, $info:ty, $field:ident, $begin:expr) => {
        unsafe extern "system" fn $fname(cb: vk::CommandBuffer, info: *const $info) {
            let key = dispatch_key(cb.as_raw());
            // SAFETY: a valid label info whose name is a NUL-terminated
            // string.
            let text = unsafe { label_text((*info).$field) };
            record(key, $call, |d| {
                let seq = d.capture.next_seq();
                d.capture
                    .debug_label(cb.as_raw(), seq, $call, Some(&text), $begin);
            });
            if let Some(f) = next!(key, $pfn, [$call]) {
                // SAFETY: the next layer's function with the caller's
                // arguments.
                unsafe { f(cb, info) }
            }
        }
    };
    ($fname:ident, $call:literal, $pfn:ty) => {
        unsafe extern "system" fn $fname(cb: vk::CommandBuffer) {
            let key = dispatch_key(cb.as_raw());
            record(key, $call, |d| {
                let seq = d.capture.next_seq();
                d.capture.debug_label(cb.as_raw(), seq, $call, None, false);
            });
            if let Some(f) = next!(key, $pfn, [$call]) {
                // SAFETY: the next layer's function with the caller's
                // arguments.
                unsafe { f(cb) }
            }
        }
    };
}

label_intercept!(
    begin_label,
    "vkCmdBeginDebugUtilsLabelEXT",
    vk::PFN_vkCmdBeginDebugUtilsLabelEXT,
    vk::DebugUtilsLabelEXT<'_>,
    p_label_name,
    true
);
label_intercept!(
    insert_label,
    "vkCmdInsertDebugUtilsLabelEXT",
    vk::PFN_vkCmdInsertDebugUtilsLabelEXT,
    vk::DebugUtilsLabelEXT<'_>,
    p_label_name,
    false
);
label_intercept!(
    end_label,
    "vkCmdEndDebugUtilsLabelEXT",
    vk::PFN_vkCmdEndDebugUtilsLabelEXT
);
label_intercept!(
    begin_marker,
    "vkCmdDebugMarkerBeginEXT",
    vk::PFN_vkCmdDebugMarkerBeginEXT,
    vk::DebugMarkerMarkerInfoEXT<'_>,
    p_marker_name,
    true
);
label_intercept!(
    insert_marker,
    "vkCmdDebugMarkerInsertEXT",
    vk::PFN_vkCmdDebugMarkerInsertEXT,
    vk::DebugMarkerMarkerInfoEXT<'_>,
    p_marker_name,
    false
);
label_intercept!(
    end_marker,
    "vkCmdDebugMarkerEndEXT",
    vk::PFN_vkCmdDebugMarkerEndEXT
);

// ---------------------------------------------------------- fault injection

/// The environment variable of fault injection (positive controls; off
/// when unset): `barrier:N` drops the application's N-th pipeline barrier
/// call on this device (`vkCmdPipelineBarrier` and
/// `vkCmdPipelineBarrier2(KHR)` counted together, from 1, in recording
/// order) on its way down; `wait:N` drops the N-th semaphore wait
/// operation of the device's queue submissions (counted over batches and
/// their waits in order) from its submission. What is dropped does not
/// reach the device and is not in the trace, and a comment in its place
/// says what was dropped: the trace is the application's stream as the
/// device runs it.
pub(crate) const DROP_ENV: &str = "VKSYNC_CAPTURE_DROP";

/// What fault injection drops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    /// The N-th pipeline barrier call (from 1).
    Barrier(u64),
    /// The N-th semaphore wait operation of a queue submission (from 1).
    Wait(u64),
}

impl Fault {
    /// `barrier:N` or `wait:N`, N at least 1.
    fn parse(text: &str) -> Option<Fault> {
        let (kind, n) = text.split_once(':')?;
        let n: u64 = n.trim().parse().ok().filter(|&n| n >= 1)?;
        match kind.trim() {
            "barrier" => Some(Fault::Barrier(n)),
            "wait" => Some(Fault::Wait(n)),
            _ => None,
        }
    }

    fn spec(self) -> String {
        match self {
            Fault::Barrier(n) => format!("barrier:{n}"),
            Fault::Wait(n) => format!("wait:{n}"),
        }
    }
}

/// Counts the semaphore waits of a submission's `batches` on device
/// `key`; the one fault injection drops, if it is among them: (batch,
/// wait in the batch, N).
fn wait_to_drop(key: usize, batches: &[Batch]) -> Option<(usize, usize, u64)> {
    let Some(Fault::Wait(n)) = *FAULT else {
        return None;
    };
    let mut found = None;
    record(key, "vkQueueSubmit", |d| {
        let mut k = d.waits;
        for (b, batch) in batches.iter().enumerate() {
            for w in 0..batch.waits.len() {
                k += 1;
                if k == n {
                    found = Some((b, w, n));
                }
            }
        }
        d.waits = k;
    });
    found
}

/// Records that the wait `(batch, w, n)` of `batches` was dropped (or, with
/// `why`, could not be) and takes it out of what the trace records.
fn note_dropped_wait(
    key: usize,
    call: &str,
    batches: &mut [Batch],
    (b, w, n): (usize, usize, u64),
    why: Option<&str>,
) {
    record(key, call, |d| {
        let text = match why {
            None => {
                batches[b].waits.remove(w);
                format!("fault injection ({DROP_ENV}=wait:{n}): semaphore wait {w} of batch {b} of the next {call} dropped: not sent to the device, not in this trace")
            }
            Some(why) => format!("fault injection ({DROP_ENV}=wait:{n}): semaphore wait {w} of batch {b} of the next {call} NOT dropped: {why}"),
        };
        d.capture.note(None, text);
    });
    eprintln!(
        "[VK_LAYER_VKSYNC_capture] fault injection: semaphore wait {n} ({call}, batch {b}, wait {w}) {}",
        if why.is_none() { "dropped" } else { "not dropped" }
    );
}

/// The switch, read once. A value that does not parse turns nothing on
/// and says so on stderr (a positive control that silently drops nothing
/// would pass for a clean run).
static FAULT: LazyLock<Option<Fault>> = LazyLock::new(|| {
    let text = std::env::var(DROP_ENV).ok()?;
    let fault = Fault::parse(&text);
    if fault.is_none() {
        eprintln!(
            "[VK_LAYER_VKSYNC_capture] {DROP_ENV}={text}: not `barrier:N` with N >= 1; nothing is dropped"
        );
    }
    fault
});

/// Counts a pipeline barrier call of device `d`; whether fault injection
/// drops it (then its place in command buffer `cb` gets a comment, and
/// stderr a line).
fn drop_barrier(d: &mut DeviceData, cb: vk::CommandBuffer, seq: u64, call: &str) -> bool {
    d.barriers += 1;
    if *FAULT != Some(Fault::Barrier(d.barriers)) {
        return false;
    }
    let n = d.barriers;
    d.capture.note(
        Some(cb.as_raw()),
        format!("fault injection ({DROP_ENV}=barrier:{n}): {call} #{seq} dropped: not sent to the device, not in this trace"),
    );
    eprintln!("[VK_LAYER_VKSYNC_capture] fault injection: dropped pipeline barrier {n} ({call} #{seq})");
    true
}

/// A `VkDependencyInfo`'s global barriers (masks) and buffer and image
/// barriers, as plain values.
///
/// # Safety
/// `info` is a valid dependency info with its counted arrays.
unsafe fn read_dependency(info: *const vk::DependencyInfo<'_>) -> (Vec<[u64; 4]>, Vec<ResourceBarrier>) {
    // SAFETY: per this function's contract.
    unsafe {
        let i = &*info;
        let g: Vec<[u64; 4]> = slice(i.p_memory_barriers, i.memory_barrier_count)
            .iter()
            .map(|m| {
                [
                    m.src_stage_mask.as_raw(),
                    m.src_access_mask.as_raw(),
                    m.dst_stage_mask.as_raw(),
                    m.dst_access_mask.as_raw(),
                ]
            })
            .collect();
        let mut b: Vec<ResourceBarrier> = slice(i.p_buffer_memory_barriers, i.buffer_memory_barrier_count)
            .iter()
            .map(|m| ResourceBarrier {
                masks: [
                    m.src_stage_mask.as_raw(),
                    m.src_access_mask.as_raw(),
                    m.dst_stage_mask.as_raw(),
                    m.dst_access_mask.as_raw(),
                ],
                target: BarrierTarget::Buffer {
                    buffer: m.buffer.as_raw(),
                    offset: m.offset,
                    size: m.size,
                },
                queue_families: queue_families(m.src_queue_family_index, m.dst_queue_family_index),
            })
            .collect();
        b.extend(
            slice(i.p_image_memory_barriers, i.image_memory_barrier_count)
                .iter()
                .map(|m| ResourceBarrier {
                    masks: [
                        m.src_stage_mask.as_raw(),
                        m.src_access_mask.as_raw(),
                        m.dst_stage_mask.as_raw(),
                        m.dst_access_mask.as_raw(),
                    ],
                    target: image_target(m.image, m.subresource_range, m.old_layout, m.new_layout),
                    queue_families: queue_families(m.src_queue_family_index, m.dst_queue_family_index),
                }),
        );
        (g, b)
    }
}

unsafe extern "system" fn pipeline_barrier2(cb: vk::CommandBuffer, info: *const vk::DependencyInfo<'_>) {
    let key = dispatch_key(cb.as_raw());
    // SAFETY: a valid dependency info with its counted arrays.
    let (g, b) = unsafe { read_dependency(info) };
    let mut dropped = false;
    record(key, "vkCmdPipelineBarrier2", |d| {
        let seq = d.capture.next_seq();
        dropped = drop_barrier(d, cb, seq, "vkCmdPipelineBarrier2");
        if !dropped {
            d.capture
                .barrier(cb.as_raw(), seq, "vkCmdPipelineBarrier2", &g, &b);
        }
    });
    if dropped {
        return;
    }
    if let Some(f) = next!(
        key,
        vk::PFN_vkCmdPipelineBarrier2,
        ["vkCmdPipelineBarrier2", "vkCmdPipelineBarrier2KHR"]
    ) {
        // SAFETY: the next layer's function with the caller's arguments.
        unsafe { f(cb, info) }
    }
}

/// Before a submission: compares mapped memory and returns the sequence
/// number of the call.
fn before_submit(key: usize, call: &str) -> u64 {
    let mut seq = 0;
    record(key, call, |d| {
        seq = d.capture.next_seq();
        diff_mapped(d, seq, call, Diff::Coherent { only: None });
    });
    seq
}

fn after_submit(key: usize, seq: u64, call: &str, queue: vk::Queue, batches: Vec<Batch>, fence: u64) {
    record(key, call, |d| {
        d.capture.submit(seq, call, queue.as_raw(), &batches, fence);
        flush(d);
    });
}

/// The `VkTimelineSemaphoreSubmitInfo` in a `VkSubmitInfo`'s chain, if any.
///
/// # Safety
/// `next` is a valid `pNext` chain.
unsafe fn timeline_values<'a>(mut next: *const c_void) -> Option<&'a vk::TimelineSemaphoreSubmitInfo<'a>> {
    while !next.is_null() {
        // SAFETY: every structure in a valid chain starts with sType and
        // pNext.
        let base = unsafe { &*(next as *const vk::BaseInStructure<'_>) };
        if base.s_type == vk::StructureType::TIMELINE_SEMAPHORE_SUBMIT_INFO {
            // SAFETY: the structure type says what it is.
            return Some(unsafe { &*(next as *const vk::TimelineSemaphoreSubmitInfo<'a>) });
        }
        next = base.p_next.cast();
    }
    None
}

unsafe extern "system" fn queue_submit(
    queue: vk::Queue,
    n: u32,
    submits: *const vk::SubmitInfo<'_>,
    fence: vk::Fence,
) -> vk::Result {
    let key = dispatch_key(queue.as_raw());
    let Some(f) = next!(key, vk::PFN_vkQueueSubmit, ["vkQueueSubmit"]) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: `n` valid submit infos with their counted arrays (the wait
    // stage masks have one element per wait semaphore; timeline values,
    // when chained, one per semaphore).
    let batches: Vec<Batch> = unsafe {
        slice(submits, n)
            .iter()
            .map(|si| {
                let tl = timeline_values(si.p_next);
                let value = |vals: *const u64, count: u32, k: usize| {
                    tl.map(|_| slice(vals, count))
                        .and_then(|v| v.get(k).copied())
                        .unwrap_or(0)
                };
                let waits = slice(si.p_wait_semaphores, si.wait_semaphore_count)
                    .iter()
                    .zip(slice(si.p_wait_dst_stage_mask, si.wait_semaphore_count))
                    .enumerate()
                    .map(|(k, (sem, mask))| {
                        let v = tl.map_or(0, |t| {
                            value(t.p_wait_semaphore_values, t.wait_semaphore_value_count, k)
                        });
                        (sem.as_raw(), v, sync1::stages_1_to_2(*mask).as_raw())
                    })
                    .collect();
                let signals = slice(si.p_signal_semaphores, si.signal_semaphore_count)
                    .iter()
                    .enumerate()
                    .map(|(k, sem)| {
                        let v = tl.map_or(0, |t| {
                            value(t.p_signal_semaphore_values, t.signal_semaphore_value_count, k)
                        });
                        (sem.as_raw(), v, vk::PipelineStageFlags2::ALL_COMMANDS.as_raw())
                    })
                    .collect();
                Batch {
                    cbs: slice(si.p_command_buffers, si.command_buffer_count)
                        .iter()
                        .map(|c| c.as_raw())
                        .collect(),
                    waits,
                    signals,
                }
            })
            .collect()
    };
    let mut batches = batches;
    // Fault injection: copies of the submit infos and of the batch's wait
    // arrays without the dropped wait, alive until the call returns.
    let mut infos: Vec<vk::SubmitInfo<'_>> = Vec::new();
    let (mut sems, mut masks) = (Vec::new(), Vec::new());
    let mut down = submits;
    if let Some(which) = wait_to_drop(key, &batches) {
        let (b, w, _) = which;
        // SAFETY: as above; the copies are plain structures whose pointers
        // point at the application's arrays or at `sems`/`masks`, which
        // outlive the call down.
        let chained = unsafe {
            infos = slice(submits, n).to_vec();
            timeline_values(infos[b].p_next).is_some_and(|t| t.wait_semaphore_value_count > 0)
        };
        if chained {
            note_dropped_wait(
                key,
                "vkQueueSubmit",
                &mut batches,
                which,
                Some("its timeline values are chained (use vkQueueSubmit2)"),
            );
        } else {
            let si = &mut infos[b];
            // SAFETY: the batch's counted wait arrays.
            unsafe {
                sems = slice(si.p_wait_semaphores, si.wait_semaphore_count).to_vec();
                masks = slice(si.p_wait_dst_stage_mask, si.wait_semaphore_count).to_vec();
            }
            sems.remove(w);
            masks.remove(w);
            si.wait_semaphore_count -= 1;
            si.p_wait_semaphores = sems.as_ptr();
            si.p_wait_dst_stage_mask = masks.as_ptr();
            down = infos.as_ptr();
            note_dropped_wait(key, "vkQueueSubmit", &mut batches, which, None);
        }
    }
    let seq = before_submit(key, "vkQueueSubmit");
    // SAFETY: the next layer's function with the caller's arguments (the
    // copy without the dropped wait under fault injection).
    let r = unsafe { f(queue, n, down, fence) };
    drop((infos, sems, masks));
    if r == vk::Result::SUCCESS {
        after_submit(key, seq, "vkQueueSubmit", queue, batches, fence.as_raw());
    }
    r
}

unsafe extern "system" fn queue_submit2(
    queue: vk::Queue,
    n: u32,
    submits: *const vk::SubmitInfo2<'_>,
    fence: vk::Fence,
) -> vk::Result {
    let key = dispatch_key(queue.as_raw());
    let Some(f) = next!(
        key,
        vk::PFN_vkQueueSubmit2,
        ["vkQueueSubmit2", "vkQueueSubmit2KHR"]
    ) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: `n` valid submit infos with their counted arrays.
    let batches: Vec<Batch> = unsafe {
        slice(submits, n)
            .iter()
            .map(|si| {
                let op =
                    |s: &vk::SemaphoreSubmitInfo<'_>| (s.semaphore.as_raw(), s.value, s.stage_mask.as_raw());
                Batch {
                    cbs: slice(si.p_command_buffer_infos, si.command_buffer_info_count)
                        .iter()
                        .map(|c| c.command_buffer.as_raw())
                        .collect(),
                    waits: slice(si.p_wait_semaphore_infos, si.wait_semaphore_info_count)
                        .iter()
                        .map(op)
                        .collect(),
                    signals: slice(si.p_signal_semaphore_infos, si.signal_semaphore_info_count)
                        .iter()
                        .map(op)
                        .collect(),
                }
            })
            .collect()
    };
    let mut batches = batches;
    // Fault injection: as in `queue_submit`.
    let mut infos: Vec<vk::SubmitInfo2<'_>> = Vec::new();
    let mut waits = Vec::new();
    let mut down = submits;
    if let Some(which) = wait_to_drop(key, &batches) {
        let (b, w, _) = which;
        // SAFETY: `n` valid submit infos and the batch's counted wait
        // infos; the copies outlive the call down.
        unsafe {
            infos = slice(submits, n).to_vec();
            waits = slice(
                infos[b].p_wait_semaphore_infos,
                infos[b].wait_semaphore_info_count,
            )
            .to_vec();
        }
        let _ = waits.remove(w);
        infos[b].wait_semaphore_info_count -= 1;
        infos[b].p_wait_semaphore_infos = waits.as_ptr();
        down = infos.as_ptr();
        note_dropped_wait(key, "vkQueueSubmit2", &mut batches, which, None);
    }
    let seq = before_submit(key, "vkQueueSubmit2");
    // SAFETY: the next layer's function with the caller's arguments (the
    // copy without the dropped wait under fault injection).
    let r = unsafe { f(queue, n, down, fence) };
    drop((infos, waits));
    if r == vk::Result::SUCCESS {
        after_submit(key, seq, "vkQueueSubmit2", queue, batches, fence.as_raw());
    }
    r
}

unsafe extern "system" fn wait_for_fences(
    device: vk::Device,
    n: u32,
    fences: *const vk::Fence,
    all: vk::Bool32,
    timeout: u64,
) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(key, vk::PFN_vkWaitForFences, ["vkWaitForFences"]) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    // SAFETY: `n` fence handles.
    let list: Vec<u64> = unsafe { slice(fences, n) }.iter().map(|f| f.as_raw()).collect();
    if all == vk::TRUE || list.len() == 1 {
        return host_wait(key, "vkWaitForFences", WaitOn::Fences(&list), || {
            // SAFETY: the next layer's function with the caller's arguments.
            unsafe { f(device, n, fences, all, timeout) }
        });
    }
    // SAFETY: the next layer's function with the caller's arguments.
    let r = unsafe { f(device, n, fences, all, timeout) };
    if r == vk::Result::SUCCESS {
        record(key, "vkWaitForFences", |d| {
            let seq = d.capture.next_seq();
            d.capture
                .not_modelled(None, seq, "vkWaitForFences", "wait for any of several fences");
        });
    }
    r
}

unsafe extern "system" fn get_fence_status(device: vk::Device, fence: vk::Fence) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(key, vk::PFN_vkGetFenceStatus, ["vkGetFenceStatus"]) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    host_wait(key, "vkGetFenceStatus", WaitOn::Fences(&[fence.as_raw()]), || {
        // SAFETY: the next layer's function with the caller's arguments.
        unsafe { f(device, fence) }
    })
}

unsafe extern "system" fn queue_wait_idle(queue: vk::Queue) -> vk::Result {
    let key = dispatch_key(queue.as_raw());
    let Some(f) = next!(key, vk::PFN_vkQueueWaitIdle, ["vkQueueWaitIdle"]) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    host_wait(key, "vkQueueWaitIdle", WaitOn::Queue(queue.as_raw()), || {
        // SAFETY: the next layer's function with the caller's arguments.
        unsafe { f(queue) }
    })
}

unsafe extern "system" fn device_wait_idle(device: vk::Device) -> vk::Result {
    let key = dispatch_key(device.as_raw());
    let Some(f) = next!(key, vk::PFN_vkDeviceWaitIdle, ["vkDeviceWaitIdle"]) else {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    };
    host_wait(key, "vkDeviceWaitIdle", WaitOn::Device, || {
        // SAFETY: the next layer's function with the caller's arguments.
        unsafe { f(device) }
    })
}

#[cfg(test)]
mod tests {
    use super::distinct_pages;

    /// The mapped-memory snapshot (streaming loads for the aligned middle)
    /// copies exactly the bytes a plain copy does, at every alignment of
    /// start and length.
    #[test]
    fn snapshots_copy_every_byte_at_every_alignment() {
        let buf: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
        for start in 0..20 {
            for len in [0, 1, 15, 16, 17, 31, 32, 33, 100, 280 - start] {
                // SAFETY: `start + len` is within `buf`.
                let got = unsafe { super::snapshot(buf.as_ptr().add(start), len) };
                assert_eq!(got, &buf[start..start + len], "start {start}, len {len}");
            }
        }
    }

    /// The pages the changed spans touch decide when a range diffed whole
    /// is guarded again: each page counted once, however many spans lie in
    /// it, and a span across a page boundary counts both pages.
    #[test]
    fn changed_spans_count_distinct_pages() {
        type Case<'a> = (&'a str, &'a [(usize, usize)], usize);
        let cases: &[Case] = &[
            ("none", &[], 0),
            ("one byte", &[(5, 6)], 1),
            ("many spans in one page", &[(0, 1), (256, 257), (4000, 4001)], 1),
            (
                "every 256th byte of 4 pages",
                &[(0, 1), (256, 257), (4096, 4097), (8192, 8193), (12288, 12289)],
                4,
            ),
            ("across a boundary", &[(4095, 4097)], 2),
            (
                "a boundary span, then its second page again",
                &[(4095, 4097), (5000, 5001)],
                2,
            ),
            ("apart", &[(0, 1), (40960, 40961)], 2),
            ("empty span", &[(7, 7)], 0),
        ];
        for (name, spans, want) in cases {
            assert_eq!(distinct_pages(spans, 4096), *want, "{name}");
        }
    }
}
