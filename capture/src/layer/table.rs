//! The intercept table: one entry per Vulkan command this layer knows,
//! saying how the command is recorded (which [`Capture`](crate::record::Capture)
//! method it feeds) or why it is written as a `not-modelled` line, or why
//! it is passed through unintercepted, with the command's other names
//! (`KHR`/`EXT` aliases) in the same entry. `vkGetInstanceProcAddr` and
//! `vkGetDeviceProcAddr` answer from it ([`instance_hook`],
//! [`device_hook`]), and `vkCreateDevice` loads the next layer's function
//! for every name in it ([`load_names`]).
//!
//! Three kinds of entries, one home each:
//!
//! - `recorded.rs`: the recorded commands whose intercept has one of the
//!   two common shapes (record then call down, or call down then record
//!   on success), one row each: names, signature, what it feeds and the
//!   recording; its macro makes the functions and their entries;
//! - [`INTERCEPTS`]: the intercepts of `layer.rs` that have a shape of
//!   their own (the instance chain, mapping, submissions, host waits,
//!   barriers under fault injection, ...) and the commands passed through
//!   on purpose, with the reason;
//! - [`SHAPES`]: for every other `vkCmd*` of the registry (most of them
//!   extension commands), a treatment decided by the name's shape (a draw,
//!   a render pass, dynamic state...), first match wins;
//! - `generated.rs`: the ABI signature of every command the test
//!   `tests::walk_vk_xml` walks, generated from `vk.xml`, from which
//!   [`generic_intercepts!`] makes one forwarding function per command:
//!   it writes the `not-modelled` line with the reason this table gives
//!   and calls down unchanged.
//!
//! Invariants: every command the walk covers (every `vkCmd*` and every
//! queue or host synchronization command of `vk.xml` 1.4.309 and
//! 1.4.363) has a treatment here; a `Recorded` or `NotModelled` one has a
//! hook (nothing that touches memory is dropped in silence); a
//! `PassThrough` one has none and says why it needs none.

use super::*;

/// How the layer treats one Vulkan command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Treatment {
    /// Intercepted and recorded: the text names what it feeds (the
    /// `Capture` method, or the layer's own bookkeeping).
    Recorded(&'static str),
    /// Intercepted, forwarded unchanged, and written as a `not-modelled`
    /// line with this reason (in the command buffer for a `vkCmd*`, else
    /// before the next submitted command).
    NotModelled(&'static str),
    /// Not intercepted: the call goes straight to the next layer, because
    /// (the text) it has no effect on memory the model tracks.
    PassThrough(&'static str),
}

/// Where a command is looked up: by `vkGetInstanceProcAddr` only, or by
/// both (device-level commands, found through either).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    Instance,
    Device,
}

/// A pointer to one of this module's or `layer.rs`'s `extern "system"`
/// functions, erased (the loader casts it back by name).
#[derive(Clone, Copy)]
pub(crate) struct Hook(pub(crate) *const ());

// SAFETY: a `Hook` is the address of a function, immutable code shared by
// every thread; nothing is ever written through it.
unsafe impl Sync for Hook {}

/// One entry: the command's names (the registry's name first, then its
/// aliases), its level, its intercept, its treatment.
pub(crate) struct Entry {
    pub(crate) names: &'static [&'static str],
    pub(crate) level: Level,
    pub(crate) hook: Option<Hook>,
    pub(crate) treatment: Treatment,
}

macro_rules! rec {
    ($f:ident, [$($n:literal),+], $how:literal) => {
        Entry { names: &[$($n),+], level: Level::Device, hook: Some(Hook($f as *const ())), treatment: Treatment::Recorded($how) }
    };
}
macro_rules! pass {
    ([$($n:literal),+], $why:expr) => {
        Entry { names: &[$($n),+], level: Level::Device, hook: None, treatment: Treatment::PassThrough($why) }
    };
}
/// A not-modelled entry whose hook is the generated one of its name.
macro_rules! nm {
    ([$($n:literal),+], $why:literal) => {
        Entry { names: &[$($n),+], level: Level::Device, hook: None, treatment: Treatment::NotModelled($why) }
    };
}

/// The hand-written entries (see the module doc). A `NotModelled` entry
/// here only gives its command a specific reason; its hook is generated.
pub(crate) const INTERCEPTS: &[Entry] = &[
    // ---- instance level: the chain itself
    Entry { names: &["vkGetInstanceProcAddr"], level: Level::Instance, hook: Some(Hook(get_instance_proc_addr as *const ())), treatment: Treatment::Recorded("the layer's own lookup (this table)") },
    Entry { names: &["vkGetDeviceProcAddr"], level: Level::Instance, hook: Some(Hook(get_device_proc_addr as *const ())), treatment: Treatment::Recorded("the layer's own lookup (this table)") },
    Entry { names: &["vkCreateInstance"], level: Level::Instance, hook: Some(Hook(create_instance as *const ())), treatment: Treatment::Recorded("the instance chain") },
    Entry { names: &["vkDestroyInstance"], level: Level::Instance, hook: Some(Hook(destroy_instance as *const ())), treatment: Treatment::Recorded("the instance chain") },
    Entry { names: &["vkCreateDevice"], level: Level::Instance, hook: Some(Hook(create_device as *const ())), treatment: Treatment::Recorded("Capture::new (one trace per device)") },
    // ---- device, memory, buffers, images
    rec!(destroy_device, ["vkDestroyDevice"], "Capture::finish"),
    rec!(map_memory, ["vkMapMemory"], "Capture::map_memory (shadow copy, page guard)"),
    rec!(unmap_memory, ["vkUnmapMemory"], "Capture::host_writes, Capture::unmap_memory"),
    rec!(map_memory2, ["vkMapMemory2", "vkMapMemory2KHR"], "Capture::map_memory (shadow copy, page guard)"),
    rec!(unmap_memory2, ["vkUnmapMemory2", "vkUnmapMemory2KHR"], "Capture::host_writes, Capture::unmap_memory"),
    rec!(flush_mapped, ["vkFlushMappedMemoryRanges"], "Capture::host_writes of the flushed ranges"),
    rec!(invalidate_mapped, ["vkInvalidateMappedMemoryRanges"], "Capture::invalidate (host reads assumed of the device's results there)"),
    rec!(bind_image_memory, ["vkBindImageMemory"], "Capture::bind_image (`image iK FORMAT ... alias mN OFFSET`, or coarsely `buffer iK SIZE alias mN OFFSET`)"),
    rec!(bind_image_memory2, ["vkBindImageMemory2", "vkBindImageMemory2KHR"], "Capture::bind_image"),
    pass!(["vkGetImageMemoryRequirements"], "a query; the layer calls it itself for an image's size in memory"),
    pass!(["vkGetImageSubresourceLayout"], "a query; the layer calls it itself for a linear image's offset and row pitch"),
    // ---- queues, semaphores, fences, events
    rec!(get_device_queue, ["vkGetDeviceQueue"], "Capture::queue_family"),
    rec!(get_device_queue2, ["vkGetDeviceQueue2"], "Capture::queue_family"),
    rec!(signal_semaphore, ["vkSignalSemaphore", "vkSignalSemaphoreKHR"], "Capture::host_signal (`host-signal`)"),
    rec!(wait_semaphores, ["vkWaitSemaphores", "vkWaitSemaphoresKHR"], "Capture::host_wait (`host-wait`)"),
    rec!(get_semaphore_counter_value, ["vkGetSemaphoreCounterValue", "vkGetSemaphoreCounterValueKHR"], "Capture::host_wait for the value it reads"),
    rec!(queue_submit, ["vkQueueSubmit"], "Capture::submit"),
    rec!(queue_submit2, ["vkQueueSubmit2", "vkQueueSubmit2KHR"], "Capture::submit"),
    rec!(wait_for_fences, ["vkWaitForFences"], "Capture::wait_in_scope (`wait`)"),
    rec!(get_fence_status, ["vkGetFenceStatus"], "Capture::wait_in_scope when it returns VK_SUCCESS"),
    rec!(queue_wait_idle, ["vkQueueWaitIdle"], "Capture::wait_in_scope"),
    rec!(device_wait_idle, ["vkDeviceWaitIdle"], "Capture::wait_in_scope"),
    pass!(["vkResetFences"], "resetting a fence orders nothing; the next submission with it is what a wait covers"),
    pass!(["vkGetEventStatus"], "reads an event's state: the spec gives it no memory dependency with the host"),
    nm!(["vkQueueBindSparse"], "sparse binding: its semaphore waits and signals and the bindings are not modelled"),
    nm!(["vkQueuePresentKHR"], "presentation: its semaphore waits and the swapchain image read are not modelled"),
    nm!(["vkAcquireNextImageKHR"], "presentation: the semaphore and fence it signals are not modelled"),
    nm!(["vkAcquireNextImage2KHR"], "presentation: the semaphore and fence it signals are not modelled"),
    // ---- pipelines and descriptors
    // ---- command buffers
    rec!(pipeline_barrier, ["vkCmdPipelineBarrier"], "Capture::barrier (`barrier`, masks through sync1)"),
    rec!(pipeline_barrier2, ["vkCmdPipelineBarrier2", "vkCmdPipelineBarrier2KHR"], "Capture::barrier (`barrier`)"),
    // ---- vkCmd* not modelled, with their own reasons
    nm!(["vkCmdSetDescriptorBufferOffsetsEXT"], "descriptor buffers are not modelled: dispatches use the sets bound before"),
    nm!(["vkCmdSetDescriptorBufferOffsets2EXT"], "descriptor buffers are not modelled: dispatches use the sets bound before"),
    nm!(["vkCmdBindShadersEXT"], "shader objects are not modelled: dispatches use the pipeline bound before"),
    // ---- vkCmd* with no memory effect of their own
    pass!(["vkCmdPushConstants"], "sets push-constant values; accesses no memory"),
    pass!(["vkCmdPushConstants2", "vkCmdPushConstants2KHR"], "sets push-constant values; accesses no memory"),
    pass!(["vkCmdBeginQuery"], "queries: the model tracks no query pool, and a query accesses no buffer memory"),
    pass!(["vkCmdEndQuery"], "queries: the model tracks no query pool, and a query accesses no buffer memory"),
    pass!(["vkCmdBeginQueryIndexedEXT"], "queries: the model tracks no query pool, and a query accesses no buffer memory"),
    pass!(["vkCmdEndQueryIndexedEXT"], "queries: the model tracks no query pool, and a query accesses no buffer memory"),
    pass!(["vkCmdResetQueryPool"], "queries: the model tracks no query pool, and a query accesses no buffer memory"),
    pass!(["vkCmdWriteTimestamp"], "queries: the model tracks no query pool, and a query accesses no buffer memory"),
    pass!(["vkCmdWriteTimestamp2", "vkCmdWriteTimestamp2KHR"], "queries: the model tracks no query pool, and a query accesses no buffer memory"),
    rec!(begin_label, ["vkCmdBeginDebugUtilsLabelEXT"], "Capture::debug_label (later commands' comments name the label)"),
    rec!(end_label, ["vkCmdEndDebugUtilsLabelEXT"], "Capture::debug_label"),
    rec!(insert_label, ["vkCmdInsertDebugUtilsLabelEXT"], "Capture::debug_label (a comment)"),
    rec!(begin_marker, ["vkCmdDebugMarkerBeginEXT"], "Capture::debug_label (later commands' comments name the marker)"),
    rec!(end_marker, ["vkCmdDebugMarkerEndEXT"], "Capture::debug_label"),
    rec!(insert_marker, ["vkCmdDebugMarkerInsertEXT"], "Capture::debug_label (a comment)"),
    rec!(set_object_name, ["vkSetDebugUtilsObjectNameEXT"], "Capture::set_object_name (trace names from debug names)"),
    rec!(marker_object_name, ["vkDebugMarkerSetObjectNameEXT"], "Capture::set_object_name"),
];

/// Treatments by the shape of a command's name, for the commands
/// [`INTERCEPTS`] does not list (first match wins; every `vkCmd*` matches
/// the last rule). Reasons are generic on purpose: an application that
/// calls one gets a `not-modelled` line saying what kind of command it was.
pub(crate) const SHAPES: &[(&str, Treatment)] = &[
    ("vkCmdSet", Treatment::PassThrough("dynamic state: sets state for later commands, accesses no memory")),
    ("vkCmdDraw", Treatment::NotModelled("a draw: the graphics pipeline is not modelled")),
    ("vkCmdBeginRender", Treatment::NotModelled("a render pass: attachment loads, stores and resolves are not modelled")),
    ("vkCmdEndRender", Treatment::NotModelled("a render pass: attachment loads, stores and resolves are not modelled")),
    ("vkCmdNextSubpass", Treatment::NotModelled("a render pass: attachment loads, stores and resolves are not modelled")),
    ("vkCmdClear", Treatment::NotModelled("a clear the model does not express")),
    ("vkCmdTraceRays", Treatment::NotModelled("ray tracing is not modelled")),
    ("vkCmdBuildAccelerationStructure", Treatment::NotModelled("acceleration structures are not modelled")),
    ("vkCmdCopyAccelerationStructure", Treatment::NotModelled("acceleration structures are not modelled")),
    ("vkCmdWriteAccelerationStructure", Treatment::NotModelled("acceleration structures are not modelled")),
    ("vkCmdBuildMicromap", Treatment::NotModelled("micromaps are not modelled")),
    ("vkCmdCopyMicromap", Treatment::NotModelled("micromaps are not modelled")),
    ("vkCmdCopyMemoryToMicromap", Treatment::NotModelled("micromaps are not modelled")),
    ("vkCmdWriteMicromap", Treatment::NotModelled("micromaps are not modelled")),
    ("vkCmdDecode", Treatment::NotModelled("video coding is not modelled")),
    ("vkCmdEncode", Treatment::NotModelled("video coding is not modelled")),
    ("vkCmdBeginVideo", Treatment::NotModelled("video coding is not modelled")),
    ("vkCmdEndVideo", Treatment::NotModelled("video coding is not modelled")),
    ("vkCmdControlVideo", Treatment::NotModelled("video coding is not modelled")),
    ("vkCmdCopy", Treatment::NotModelled("a copy the model does not express")),
    ("vkCmdBind", Treatment::NotModelled("binds state the layer does not track: later commands may be recorded with the state bound before")),
    ("vkCmd", Treatment::NotModelled("an extension command the model does not express (it may access memory)")),
    ("vkCopy", Treatment::NotModelled("a host copy the model does not express (host image copy, acceleration structures)")),
    ("vkTransitionImageLayout", Treatment::NotModelled("a host image layout transition: host image copy is not modelled")),
];

/// The queue and host synchronization commands (and the host commands
/// that access device memory) the walk covers besides every `vkCmd*`:
/// each must have an entry in [`INTERCEPTS`] or a shape in [`SHAPES`].
#[cfg(test)]
pub(crate) const HOST_SYNC: &[&str] = &[
    "vkQueueSubmit",
    "vkQueueSubmit2",
    "vkQueueWaitIdle",
    "vkDeviceWaitIdle",
    "vkWaitForFences",
    "vkResetFences",
    "vkGetFenceStatus",
    "vkWaitSemaphores",
    "vkSignalSemaphore",
    "vkGetSemaphoreCounterValue",
    "vkSetEvent",
    "vkResetEvent",
    "vkGetEventStatus",
    "vkMapMemory",
    "vkMapMemory2",
    "vkUnmapMemory",
    "vkUnmapMemory2",
    "vkFlushMappedMemoryRanges",
    "vkInvalidateMappedMemoryRanges",
    "vkQueueBindSparse",
    "vkQueuePresentKHR",
    "vkAcquireNextImageKHR",
    "vkAcquireNextImage2KHR",
    "vkCopyMemoryToImage",
    "vkCopyImageToMemory",
    "vkCopyImageToImage",
    "vkTransitionImageLayout",
];

/// Whether the walk (and so `generated.rs`) covers the command `name` (a
/// registry name, not an alias).
#[cfg(test)]
pub(crate) fn walked(name: &str) -> bool {
    name.starts_with("vkCmd") || HOST_SYNC.contains(&name)
}

/// Every hand-written entry and every row of `recorded.rs`.
fn all_entries() -> impl Iterator<Item = &'static Entry> {
    INTERCEPTS.iter().chain(super::recorded::RECORDED)
}

/// The entry of [`INTERCEPTS`] or `recorded.rs` naming `name`, under any of
/// its names.
fn entry(name: &str) -> Option<&'static Entry> {
    static BY_NAME: LazyLock<HashMap<&'static str, &'static Entry>> = LazyLock::new(|| {
        all_entries()
            .flat_map(|e| e.names.iter().map(move |n| (*n, e)))
            .collect()
    });
    BY_NAME.get(name).copied()
}

/// The generated intercept of `name` (a registry name or an alias), with
/// the registry name.
fn generated(name: &str) -> Option<&'static Generated> {
    static BY_NAME: LazyLock<HashMap<&'static str, &'static Generated>> = LazyLock::new(|| {
        GENERATED
            .iter()
            .flat_map(|g| {
                std::iter::once(g.name)
                    .chain(g.aliases.iter().copied())
                    .map(move |n| (n, g))
            })
            .collect()
    });
    BY_NAME.get(name).copied()
}

/// The treatment of `name` (any of a command's names), if the layer knows
/// the command: its entry's, else its registry name's shape's.
pub(crate) fn treatment(name: &str) -> Option<Treatment> {
    if let Some(e) = entry(name) {
        return Some(e.treatment);
    }
    let canonical = generated(name).map_or(name, |g| g.name);
    SHAPES
        .iter()
        .find(|(prefix, _)| canonical.starts_with(prefix))
        .map(|&(_, t)| t)
}

/// What `vkGetInstanceProcAddr` answers for `name` before asking the next
/// layer: this layer's instance-level functions.
pub(crate) fn instance_hook(name: &str) -> Option<VoidFn> {
    entry(name)
        .filter(|e| e.level == Level::Instance)
        .and_then(|e| e.hook)
        .map(|h| void(h.0))
}

/// What `vkGet*ProcAddr` answers for a device-level `name` the next layer
/// has: the hand-written intercept, else, for a `NotModelled` command, the
/// generated one; `None` (pass the next layer's through) otherwise.
pub(crate) fn device_hook(name: &str) -> Option<VoidFn> {
    if let Some(e) = entry(name) {
        if e.level == Level::Instance {
            return None;
        }
        if let Some(h) = e.hook {
            return Some(void(h.0));
        }
    }
    match treatment(name)? {
        Treatment::NotModelled(_) => generated(name).map(|g| void(g.hook.0)),
        Treatment::Recorded(_) | Treatment::PassThrough(_) => None,
    }
}

/// Every device-level name whose next-layer function `vkCreateDevice`
/// loads, each with the name it is stored under (the registry's, the
/// first of its entry): the hooked commands' and those the layer calls
/// itself.
pub(crate) fn load_names() -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    for e in all_entries().filter(|e| e.level == Level::Device) {
        out.extend(e.names.iter().map(|n| (e.names[0], *n)));
    }
    for g in GENERATED {
        if entry(g.name).is_none() && matches!(treatment(g.name), Some(Treatment::NotModelled(_))) {
            out.push((g.name, g.name));
            out.extend(g.aliases.iter().map(|a| (g.name, *a)));
        }
    }
    out
}

/// One generated intercept: a command's registry name, its aliases and
/// its forwarding function.
pub(crate) struct Generated {
    pub(crate) name: &'static str,
    pub(crate) aliases: &'static [&'static str],
    pub(crate) hook: Hook,
}

/// A generated intercept's return value when the next layer lacks the
/// function (it cannot, since the hook is only handed out for names the
/// next layer has; but a device torn down meanwhile finds no table).
pub(crate) trait Missing {
    fn missing() -> Self;
}
impl Missing for () {
    fn missing() {}
}
impl Missing for vk::Result {
    fn missing() -> Self {
        vk::Result::ERROR_INITIALIZATION_FAILED
    }
}

/// Writes the `not-modelled` line of a generated intercept's call (in
/// command buffer `cb` when the first argument is one) and returns the
/// next layer's function of that name.
fn generic_call(handle: usize, name: &'static str, in_cb: bool) -> Option<VoidFn> {
    let key = dispatch_key(handle as u64);
    let why = match treatment(name) {
        Some(Treatment::NotModelled(why)) => why,
        _ => "",
    };
    record(key, name, |d| {
        let seq = d.capture.next_seq();
        d.capture
            .not_modelled(in_cb.then_some(handle as u64), seq, name, why);
    });
    next_fn(key, &[name])
}

/// One forwarding function per command of `generated.rs`: `cmd` commands
/// take a command buffer first, `dev` ones a device or queue. Parameters
/// are the registry's in ABI terms (the first, a dispatchable handle, as
/// `usize`; pointers as `P`; enums `i32`; handles `u64`).
macro_rules! generic_intercepts {
    (@cb cmd) => { true };
    (@cb dev) => { false };
    ($($kind:ident $name:ident [$($alias:ident),*] ($($arg:ident : $ty:ty),*) $(-> $ret:ty)?;)*) => {
        $(
            #[allow(non_snake_case)]
            unsafe extern "system" fn $name(h: usize $(, $arg: $ty)*) $(-> $ret)? {
                match generic_call(h, stringify!($name), generic_intercepts!(@cb $kind)) {
                    Some(f) => {
                        // SAFETY: `f` is the next layer's function for
                        // this command, whose C signature `generated.rs`
                        // spells in ABI-identical types (checked against
                        // vk.xml by `tests::generated_matches_vk_xml`); the
                        // caller's arguments go down unchanged.
                        unsafe {
                            std::mem::transmute::<VoidFn, unsafe extern "system" fn(usize $(, $ty)*) $(-> $ret)?>(f)(h $(, $arg)*)
                        }
                    }
                    None => Missing::missing(),
                }
            }
        )*
        /// Each generated intercept's name and the size of each
        /// parameter (the first, a dispatchable handle, a pointer).
        #[cfg(test)]
        pub(crate) const GENERATED_SIZES: &[(&str, &[usize])] = &[
            $((stringify!($name), &[std::mem::size_of::<usize>() $(, std::mem::size_of::<$ty>())*]),)*
        ];
        /// Every generated intercept.
        pub(crate) const GENERATED: &[Generated] = &[
            $(Generated { name: stringify!($name), aliases: &[$(stringify!($alias)),*], hook: Hook($name as *const ()) },)*
        ];
    };
}

/// A pointer parameter, whatever it points at.
type P = *const c_void;

include!("generated.rs");

#[cfg(test)]
mod tests {
    //! The walk of `vk.xml` (nothing dropped in silence) and the check that
    //! `generated.rs` is what the registries say.
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};
    use std::fmt::Write as _;
    use std::path::PathBuf;

    /// The registries walked: (version, environment variable naming the
    /// file, its default place under `.cache/registry/`, where
    /// `scripts/install-deps.sh` puts it; as `model/src/spec/registry.rs`).
    const REGISTRIES: &[(&str, &str, &str)] = &[
        ("1.4.309", "VKSYNC_VK_XML", "vk.xml"),
        ("1.4.363", "VKSYNC_VK_XML_1_4_363", "vk-1.4.363.xml"),
    ];

    fn registry_text(env: &str, file: &str) -> String {
        let path = std::env::var_os(env).map(PathBuf::from).unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../.cache/registry")
                .join(file)
        });
        std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "cannot read vk.xml at {} ({e}): run scripts/install-deps.sh, which fetches it, or set {env}",
                path.display()
            )
        })
    }

    /// One command of a registry: its aliases, its ABI signature line.
    struct Command {
        aliases: BTreeSet<String>,
        /// `cmd NAME [ALIASES] (ARGS) -> RET;` without the aliases filled in.
        kind: &'static str,
        args: String,
        ret: &'static str,
    }

    fn for_vulkan(n: roxmltree::Node) -> bool {
        n.attribute("api")
            .is_none_or(|a| a.split(',').any(|x| x == "vulkan"))
    }

    /// The ABI type of a non-pointer parameter of registry type `ty`.
    fn abi_type(types: &HashMap<&str, roxmltree::Node>, ty: &str) -> &'static str {
        match ty {
            "uint32_t" => return "u32",
            "int32_t" => return "i32",
            "uint64_t" => return "u64",
            "int64_t" => return "i64",
            "uint16_t" => return "u16",
            "int16_t" => return "i16",
            "uint8_t" => return "u8",
            "int8_t" => return "i8",
            "float" => return "f32",
            "double" => return "f64",
            "size_t" => return "usize",
            "VkFlags" => return "u32",
            "VkFlags64" => return "u64",
            _ => {}
        }
        let t = types
            .get(ty)
            .unwrap_or_else(|| panic!("type {ty} not in the registry"));
        if let Some(alias) = t.attribute("alias") {
            return abi_type(types, alias);
        }
        let inner = || {
            t.children()
                .find(|c| c.has_tag_name("type"))
                .and_then(|c| c.text())
                .unwrap_or_else(|| panic!("type {ty} has no underlying type"))
        };
        match t.attribute("category") {
            Some("handle") => {
                if inner() == "VK_DEFINE_HANDLE" {
                    "usize"
                } else {
                    "u64"
                }
            }
            Some("enum") => "i32",
            Some("bitmask") | Some("basetype") => abi_type(types, inner()),
            Some("funcpointer") => "P",
            other => panic!("a parameter of type {ty} ({other:?}) passed by value: not generated"),
        }
    }

    /// The text of `n`'s first child element `tag`.
    fn child<'a>(n: roxmltree::Node<'a, 'a>, tag: &str) -> Option<&'a str> {
        n.children().find(|x| x.has_tag_name(tag)).and_then(|x| x.text())
    }

    /// The walked commands of one registry by name.
    fn commands(text: &str) -> BTreeMap<String, Command> {
        let doc = roxmltree::Document::parse(text).expect("vk.xml parses");
        let root = doc.root_element();
        let mut types = HashMap::default();
        for t in root
            .descendants()
            .filter(|n| n.has_tag_name("types"))
            .flat_map(|n| n.children())
        {
            if !t.has_tag_name("type") || !for_vulkan(t) {
                continue;
            }
            let name = t.attribute("name").or_else(|| {
                t.children()
                    .find(|c| c.has_tag_name("name"))
                    .and_then(|c| c.text())
            });
            if let Some(name) = name {
                types.insert(name, t);
            }
        }
        let list = root
            .children()
            .find(|n| n.has_tag_name("commands"))
            .expect("<commands>");
        let mut out = BTreeMap::new();
        let mut aliases = Vec::new();
        for c in list
            .children()
            .filter(|c| c.has_tag_name("command") && for_vulkan(*c))
        {
            if let Some(target) = c.attribute("alias") {
                aliases.push((c.attribute("name").unwrap().to_string(), target.to_string()));
                continue;
            }
            let proto = c.children().find(|n| n.has_tag_name("proto")).unwrap();
            let name = child(proto, "name").unwrap().to_string();
            if !walked(&name) {
                continue;
            }
            let ret = match child(proto, "type").unwrap() {
                "void" => "",
                "VkResult" => " -> vk::Result",
                other => panic!("{name} returns {other}: not generated"),
            };
            let params: Vec<_> = c
                .children()
                .filter(|n| n.has_tag_name("param") && for_vulkan(*n))
                .collect();
            let first = child(params[0], "type").unwrap();
            assert_eq!(
                abi_type(&types, first),
                "usize",
                "{name}: the first parameter is not a dispatchable handle"
            );
            let mut args = String::new();
            for (i, p) in params.iter().enumerate().skip(1) {
                let all: String = p.descendants().filter_map(|n| n.text()).collect();
                let ty = child(*p, "type").unwrap();
                let abi = if all.contains('*') || all.contains('[') {
                    "P"
                } else {
                    abi_type(&types, ty)
                };
                if i > 1 {
                    args.push_str(", ");
                }
                write!(args, "a{i}: {abi}").unwrap();
            }
            let kind = if first == "VkCommandBuffer" { "cmd" } else { "dev" };
            out.insert(
                name,
                Command {
                    aliases: BTreeSet::new(),
                    kind,
                    args,
                    ret,
                },
            );
        }
        for (alias, target) in aliases {
            if let Some(c) = out.get_mut(&target) {
                c.aliases.insert(alias);
            }
        }
        out
    }

    /// Every registry's walked commands, the newer registry's signature
    /// for a command both have (they must agree).
    fn all_commands() -> Vec<(&'static str, BTreeMap<String, Command>)> {
        REGISTRIES
            .iter()
            .map(|&(version, env, file)| (version, commands(&registry_text(env, file))))
            .collect()
    }

    fn generated_text(registries: &[(&str, BTreeMap<String, Command>)]) -> String {
        let mut union: BTreeMap<&str, (&Command, BTreeSet<&str>)> = BTreeMap::new();
        for (version, cmds) in registries {
            for (name, c) in cmds {
                let e = union.entry(name).or_insert((c, BTreeSet::new()));
                assert_eq!(
                    (e.0.kind, &e.0.args, e.0.ret),
                    (c.kind, &c.args, c.ret),
                    "{name}: registry {version} gives another signature"
                );
                e.1.extend(c.aliases.iter().map(String::as_str));
            }
        }
        let mut s = String::from(
            "// @generated from vk.xml 1.4.309 and 1.4.363 by the test\n\
             // `layer::table::tests::generated_matches_vk_xml` (`VKSYNC_BLESS=1` rewrites\n\
             // it); do not edit. One line per command the walk covers: `cmd` (a command\n\
             // buffer first) or `dev` (a device or queue first), the registry name, its\n\
             // aliases, and the parameters after the first in ABI types (pointers and\n\
             // arrays `P`, enums `i32`, non-dispatchable handles `u64`, flags by width).\n\
             generic_intercepts! {\n",
        );
        for (name, (c, aliases)) in union {
            let aliases: Vec<&str> = aliases.into_iter().collect();
            writeln!(
                s,
                "    {} {name} [{}] ({}){};",
                c.kind,
                aliases.join(", "),
                c.args,
                c.ret
            )
            .unwrap();
        }
        s.push_str("}\n");
        s
    }

    #[test]
    fn generated_matches_vk_xml() {
        let text = generated_text(&all_commands());
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/layer/generated.rs");
        if std::env::var_os("VKSYNC_BLESS").is_some() {
            std::fs::write(&path, &text).unwrap();
        }
        let now = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            now == text,
            "{} is not what vk.xml gives: run with VKSYNC_BLESS=1 and review the diff",
            path.display()
        );
    }

    /// A row of `recorded.rs` spells its C signature by hand, and the
    /// layer calls the next layer's function through it: every row whose
    /// command the walk covers has the parameters `generated.rs` has from
    /// `vk.xml`, as many and each of the same size.
    #[test]
    fn recorded_rows_have_the_registry_signature() {
        let mut checked = 0;
        for (name, sizes) in super::super::recorded::RECORDED_SIZES {
            let Some((_, want)) = GENERATED_SIZES.iter().find(|(n, _)| n == name) else {
                // Only the walked commands are generated (no vkCreate*).
                assert!(!walked(name), "{name}: walked but not generated");
                continue;
            };
            assert_eq!(sizes, want, "{name}: parameter sizes differ from vk.xml's");
            checked += 1;
        }
        println!("{checked} rows checked against vk.xml's signatures");
        assert!(checked > 0, "no row checked");
    }

    /// Every `vkCmd*` and every queue or host synchronization command of
    /// both registries, under every one of its names, has a treatment; a
    /// recorded or not-modelled one is intercepted, a passed-through one is
    /// not; every name of the table is a registry command.
    #[test]
    fn walk_vk_xml() {
        let registries = all_commands();
        for (version, cmds) in &registries {
            let (mut recorded, mut not_modelled, mut passed) = (0, 0, 0);
            let mut failures = Vec::new();
            for (name, c) in cmds {
                let Some(t) = treatment(name) else {
                    failures.push(format!("{name}: no treatment (dropped in silence)"));
                    continue;
                };
                for alias in std::iter::once(name).chain(&c.aliases) {
                    if treatment(alias) != Some(t) {
                        failures.push(format!(
                            "{alias}: treated as {:?}, {name} as {t:?}",
                            treatment(alias)
                        ));
                    }
                    let hooked = device_hook(alias).is_some();
                    match t {
                        Treatment::Recorded(how) | Treatment::NotModelled(how)
                            if !hooked || how.is_empty() =>
                        {
                            failures.push(format!("{alias}: {t:?} but no intercept or no reason"))
                        }
                        Treatment::PassThrough(why) if hooked || why.is_empty() => {
                            failures.push(format!("{alias}: passed through but intercepted, or no reason"))
                        }
                        _ => {}
                    }
                }
                match t {
                    Treatment::Recorded(_) => recorded += 1,
                    Treatment::NotModelled(_) => not_modelled += 1,
                    Treatment::PassThrough(_) => passed += 1,
                }
            }
            assert!(failures.is_empty(), "vk.xml {version}:\n{}", failures.join("\n"));
            let vkcmd = cmds.keys().filter(|n| n.starts_with("vkCmd")).count();
            println!(
                "vk.xml {version}: {} commands walked ({vkcmd} vkCmd*, {} queue/host): {recorded} recorded, \
                 {not_modelled} not-modelled, {passed} passed through (no memory effect)",
                cmds.len(),
                cmds.len() - vkcmd
            );
            assert!(
                cmds.len() > 200,
                "vk.xml {version}: only {} commands walked",
                cmds.len()
            );
        }
        // Every name the table lists is a command of the newer registry
        // (a misspelt name would never be asked for).
        let text = registry_text(REGISTRIES[1].1, REGISTRIES[1].2);
        let doc = roxmltree::Document::parse(&text).unwrap();
        let known: BTreeSet<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("command"))
            .filter_map(|n| {
                n.attribute("name").or_else(|| {
                    n.descendants()
                        .find(|x| x.has_tag_name("name"))
                        .and_then(|x| x.text())
                })
            })
            .collect();
        let unknown: Vec<&str> = all_entries()
            .flat_map(|e| e.names.iter().copied())
            .filter(|n| !known.contains(n))
            .collect();
        assert!(unknown.is_empty(), "names not in vk.xml 1.4.363: {unknown:?}");
        // One entry per name: a command is a row of `recorded.rs` or a
        // hand-written entry, never both (the lookup would pick one).
        let mut seen = BTreeSet::new();
        let twice: Vec<&str> = all_entries()
            .flat_map(|e| e.names.iter().copied())
            .filter(|n| !seen.insert(*n))
            .collect();
        assert!(twice.is_empty(), "names with two entries: {twice:?}");
        println!(
            "intercept table: {} rows of recorded.rs, {} hand-written entries",
            super::recorded::RECORDED.len(),
            INTERCEPTS.len()
        );
    }
}
