//! The recorded intercepts as rows: one row per Vulkan command whose
//! intercept has one of the two shapes every simple one shares, each row
//! its names (the registry's first, then its aliases), what it feeds (the
//! text of its [`Treatment::Recorded`] entry), its C signature, and the
//! recording itself (a call of the [`Capture`] method that owns it, run
//! under the lock with the call's sequence number).
//!
//! [`recorded!`] makes the `extern "system"` function of each row and the
//! table [`RECORDED`] that `table.rs` answers `vkGet*ProcAddr` from (and
//! that its walk of `vk.xml` checks with the hand-written entries). The two
//! shapes:
//!
//! - `before`: record, then call down (commands recorded into a command
//!   buffer, destructions: what is recorded is what the call is about to
//!   do). `where (COND)` records only when COND holds (a compute bind
//!   point), and then takes no sequence number otherwise, as before.
//! - `after`: call down, then record when the call returned a success
//!   code (creations, allocations, binds: their outputs exist only then).
//!
//! Not here, and why (in `layer.rs`): the instance chain and
//! `vkCreateDevice`/`vkDestroyDevice`, memory mapping and the host-write
//! comparisons, queue submissions and host waits (they compare memory,
//! take wait scopes before calling down, or drop a wait under fault
//! injection), pipeline barriers (fault injection drops them),
//! `vkBindImageMemory(2)` (they query the next layer for the image's
//! size), `vkGetDeviceQueue(2)` (no sequence number), debug names (only a
//! non-null name is recorded) and labels (`label_intercept!`).
//!
//! Invariant: every row's call goes down exactly once with the caller's
//! arguments, whatever its recording does (panics are caught by
//! [`record`]); a pointer argument is read only while the call is in
//! progress, under the `// SAFETY:` line of the row that reads it.

use super::table::{Entry, Hook, Level, Missing, Treatment};
use super::*;

/// Declares the rows (see the module doc): `MODE fn_name [NAMES] "what it
/// feeds" fn(ARGS) [-> RET] [where (COND)] |d, seq, call| BODY;` where `d`
/// is the device's [`DeviceData`], `seq` the call's sequence number and
/// `call` its registry name.
macro_rules! recorded {
    (@cond) => { true };
    (@cond $cond:expr) => { $cond };
    (@fn before $(#[$m:meta])* $fname:ident [$($name:literal),+] ($first:ident : $fty:ty $(, $arg:ident : $ty:ty)*) ($($ret:ty)?) ($($cond:expr)?) |$d:ident, $seq:ident, $call:ident| $body:expr) => {
        $(#[$m])*
        #[allow(clippy::too_many_arguments)]
        unsafe extern "system" fn $fname($first: $fty $(, $arg: $ty)*) $(-> $ret)? {
            const NAMES: &[&str] = &[$($name),+];
            let key = dispatch_key($first.as_raw());
            if recorded!(@cond $($cond)?) {
                record(key, NAMES[0], |$d| {
                    let $seq = $d.capture.next_seq();
                    let $call = NAMES[0];
                    let _ = ($seq, $call);
                    $body;
                });
            }
            match next_fn(key, NAMES) {
                Some(f) => {
                    // SAFETY: `f` was returned by the next layer's
                    // vkGetDeviceProcAddr for one of this command's names,
                    // so it has this intercept's own C signature.
                    let f = unsafe {
                        std::mem::transmute::<VoidFn, unsafe extern "system" fn($fty $(, $ty)*) $(-> $ret)?>(f)
                    };
                    // SAFETY: the next layer's function with the caller's
                    // arguments.
                    unsafe { f($first $(, $arg)*) }
                }
                None => Missing::missing(),
            }
        }
    };
    (@fn after $(#[$m:meta])* $fname:ident [$($name:literal),+] ($first:ident : $fty:ty $(, $arg:ident : $ty:ty)*) ($($ret:ty)?) ($($cond:expr)?) |$d:ident, $seq:ident, $call:ident| $body:expr) => {
        $(#[$m])*
        #[allow(clippy::too_many_arguments)]
        unsafe extern "system" fn $fname($first: $fty $(, $arg: $ty)*) -> vk::Result {
            const NAMES: &[&str] = &[$($name),+];
            let key = dispatch_key($first.as_raw());
            let Some(f) = next_fn(key, NAMES) else {
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            };
            // SAFETY: `f` was returned by the next layer's
            // vkGetDeviceProcAddr for one of this command's names, so it
            // has this intercept's own C signature.
            let f = unsafe {
                std::mem::transmute::<VoidFn, unsafe extern "system" fn($fty $(, $ty)*) $(-> $ret)?>(f)
            };
            // SAFETY: the next layer's function with the caller's arguments.
            let r: vk::Result = unsafe { f($first $(, $arg)*) };
            // A success code: `VK_SUCCESS`, or for pipelines
            // `VK_PIPELINE_COMPILE_REQUIRED` with null handles where one
            // was not made (the row skips those).
            if r.as_raw() >= 0 && recorded!(@cond $($cond)?) {
                record(key, NAMES[0], |$d| {
                    let $seq = $d.capture.next_seq();
                    let $call = NAMES[0];
                    let _ = ($seq, $call);
                    $body;
                });
            }
            r
        }
    };
    ($(
        $(#[doc = $doc:literal])*
        $mode:ident $fname:ident [$($name:literal),+] $how:literal
        fn($first:ident : $fty:ty $(, $arg:ident : $ty:ty)* $(,)?) $(-> $ret:ty)?
        $(where ($cond:expr))?
        |$d:ident, $seq:ident, $call:ident| $body:expr;
    )*) => {
        $(
            recorded!(@fn $mode $(#[doc = $doc])* $fname [$($name),+] ($first: $fty $(, $arg: $ty)*) ($($ret)?) ($($cond)?) |$d, $seq, $call| $body);
        )*
        /// Each row's registry name and the size of each parameter, for
        /// the check against `generated.rs` (the registry's signature).
        #[cfg(test)]
        pub(crate) const RECORDED_SIZES: &[(&str, &[usize])] = &[
            $(([$($name),+][0], &[std::mem::size_of::<$fty>() $(, std::mem::size_of::<$ty>())*]),)*
        ];
        /// Every row, as entries of the intercept table.
        pub(crate) const RECORDED: &[Entry] = &[
            $(Entry {
                names: &[$($name),+],
                level: Level::Device,
                hook: Some(Hook($fname as *const ())),
                treatment: Treatment::Recorded($how),
            },)*
        ];
    };
}

recorded! {
    // ---- memory, buffers, images
    after allocate_memory ["vkAllocateMemory"] "Capture::allocate_memory (`buffer mN`)"
    fn(device: vk::Device, info: *const vk::MemoryAllocateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::DeviceMemory) -> vk::Result
    |d, seq, call| {
        // SAFETY: valid allocate info; `*out` written on success.
        let (mem, size, ty) = unsafe { ((*out).as_raw(), (*info).allocation_size, (*info).memory_type_index) };
        // An unknown type is taken as coherent (diffed at submissions)
        // and uncached (its hot pages keep faulting).
        let flags = d.memory_types.get(ty as usize).copied().unwrap_or(vk::MemoryPropertyFlags::HOST_COHERENT);
        if !flags.contains(vk::MemoryPropertyFlags::HOST_COHERENT) {
            d.non_coherent.insert(mem);
            d.capture.set_non_coherent(mem);
        }
        if flags.contains(vk::MemoryPropertyFlags::HOST_CACHED) {
            d.cached.insert(mem);
        }
        d.capture.allocate_memory(seq, mem, size)
    };
    before free_memory ["vkFreeMemory"] "Capture::free_memory"
    fn(device: vk::Device, memory: vk::DeviceMemory, alloc: Alloc<'_>)
    |d, seq, call| {
        if let Some(m) = d.mapped.remove(&memory.as_raw()) {
            if let Some(g) = m.guard {
                g.unguard();
            }
        }
        d.non_coherent.remove(&memory.as_raw());
        d.cached.remove(&memory.as_raw());
        d.capture.free_memory(memory.as_raw())
    };
    after create_buffer ["vkCreateBuffer"] "Capture::create_buffer"
    fn(device: vk::Device, info: *const vk::BufferCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::Buffer) -> vk::Result
    |d, seq, call| {
        // SAFETY: valid create info; `*out` written on success.
        let (b, size, sharing) = unsafe { ((*out).as_raw(), (*info).size, (*info).sharing_mode) };
        d.capture.create_buffer(b, size, sharing)
    };
    before destroy_buffer ["vkDestroyBuffer"] "Capture::destroy_buffer"
    fn(device: vk::Device, buffer: vk::Buffer, alloc: Alloc<'_>)
    |d, seq, call| d.capture.destroy_buffer(buffer.as_raw());
    after bind_buffer_memory ["vkBindBufferMemory"] "Capture::bind_buffer (`buffer bK SIZE alias mN OFFSET`)"
    fn(device: vk::Device, buffer: vk::Buffer, memory: vk::DeviceMemory, offset: u64) -> vk::Result
    |d, seq, call| d.capture.bind_buffer(seq, call, buffer.as_raw(), memory.as_raw(), offset);
    after bind_buffer_memory2 ["vkBindBufferMemory2", "vkBindBufferMemory2KHR"] "Capture::bind_buffer"
    fn(device: vk::Device, n: u32, infos: *const vk::BindBufferMemoryInfo<'_>) -> vk::Result
    |d, seq, call| {
        // SAFETY: `n` valid bind infos.
        for b in unsafe { slice(infos, n) } {
            d.capture.bind_buffer(seq, call, b.buffer.as_raw(), b.memory.as_raw(), b.memory_offset);
        }
    };
    after create_image ["vkCreateImage"] "Capture::create_image"
    fn(device: vk::Device, info: *const vk::ImageCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::Image) -> vk::Result
    |d, seq, call| {
        // SAFETY: valid create info; `*out` written on success.
        let (image, i) = unsafe { ((*out).as_raw(), &*info) };
        let info = ImageInfo {
            format: i.format,
            image_type: i.image_type,
            extent: [i.extent.width, i.extent.height, i.extent.depth],
            mips: i.mip_levels,
            layers: i.array_layers,
            tiling: i.tiling,
            exclusive: i.sharing_mode == vk::SharingMode::EXCLUSIVE,
            preinitialized: i.initial_layout == vk::ImageLayout::PREINITIALIZED,
        };
        d.capture.create_image(image, info)
    };
    before destroy_image ["vkDestroyImage"] "Capture::destroy_image"
    fn(device: vk::Device, image: vk::Image, alloc: Alloc<'_>)
    |d, seq, call| d.capture.destroy_image(image.as_raw());
    after create_image_view ["vkCreateImageView"] "Capture::create_image_view (a dispatch's image binding is its view's subresources)"
    fn(device: vk::Device, info: *const vk::ImageViewCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::ImageView) -> vk::Result
    |d, seq, call| {
        // SAFETY: valid create info; `*out` written on success.
        let (view, i) = unsafe { ((*out).as_raw(), &*info) };
        d.capture.create_image_view(view, i.image.as_raw(), raw_range(&i.subresource_range))
    };
    before destroy_image_view ["vkDestroyImageView"] "Capture::destroy_image_view"
    fn(device: vk::Device, view: vk::ImageView, alloc: Alloc<'_>)
    |d, seq, call| d.capture.destroy_image_view(view.as_raw());
    after create_buffer_view ["vkCreateBufferView"] "Capture::create_buffer_view (a dispatch's texel buffer binding is its view's range)"
    fn(device: vk::Device, info: *const vk::BufferViewCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::BufferView) -> vk::Result
    |d, seq, call| {
        // SAFETY: valid create info; `*out` written on success.
        let (view, i) = unsafe { ((*out).as_raw(), &*info) };
        d.capture.create_buffer_view(view, i.buffer.as_raw(), i.offset, i.range)
    };
    before destroy_buffer_view ["vkDestroyBufferView"] "Capture::destroy_buffer_view"
    fn(device: vk::Device, view: vk::BufferView, alloc: Alloc<'_>)
    |d, seq, call| d.capture.destroy_buffer_view(view.as_raw());

    // ---- semaphores, fences, events
    after create_semaphore ["vkCreateSemaphore"] "Capture::create_semaphore"
    fn(device: vk::Device, info: *const vk::SemaphoreCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::Semaphore) -> vk::Result
    |d, seq, call| {
        // SAFETY: a valid create info with a valid pNext chain; `*out`
        // written on success.
        let (sem, timeline) = unsafe {
            let mut timeline = None;
            let mut next = (*info).p_next;
            while !next.is_null() {
                let base = &*(next as *const vk::BaseInStructure<'_>);
                if base.s_type == vk::StructureType::SEMAPHORE_TYPE_CREATE_INFO {
                    let t = &*(next as *const vk::SemaphoreTypeCreateInfo<'_>);
                    if t.semaphore_type == vk::SemaphoreType::TIMELINE {
                        timeline = Some(t.initial_value);
                    }
                }
                next = base.p_next.cast();
            }
            ((*out).as_raw(), timeline)
        };
        d.capture.create_semaphore(sem, timeline)
    };
    before destroy_semaphore ["vkDestroySemaphore"] "Capture::destroy_semaphore"
    fn(device: vk::Device, semaphore: vk::Semaphore, alloc: Alloc<'_>)
    |d, seq, call| d.capture.destroy_semaphore(semaphore.as_raw());
    before destroy_fence ["vkDestroyFence"] "Capture::destroy_fence"
    fn(device: vk::Device, fence: vk::Fence, alloc: Alloc<'_>)
    |d, seq, call| d.capture.destroy_fence(fence.as_raw());
    after create_event ["vkCreateEvent"] "Capture::create_event"
    fn(device: vk::Device, info: *const vk::EventCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::Event) -> vk::Result
    // SAFETY: `*out` written on success.
    |d, seq, call| d.capture.create_event(unsafe { (*out).as_raw() });
    before destroy_event ["vkDestroyEvent"] "Capture::destroy_event"
    fn(device: vk::Device, event: vk::Event, alloc: Alloc<'_>)
    |d, seq, call| d.capture.destroy_event(event.as_raw());
    after host_set_event ["vkSetEvent"] "Capture::host_event (`host-set-event`)"
    fn(device: vk::Device, event: vk::Event) -> vk::Result
    |d, seq, call| d.capture.host_event(seq, call, event.as_raw(), true);
    after host_reset_event ["vkResetEvent"] "Capture::host_event (`host-reset-event`)"
    fn(device: vk::Device, event: vk::Event) -> vk::Result
    |d, seq, call| d.capture.host_event(seq, call, event.as_raw(), false);
    before set_event2 ["vkCmdSetEvent2", "vkCmdSetEvent2KHR"] "Capture::set_event (`set-event`)"
    fn(cb: vk::CommandBuffer, event: vk::Event, info: *const vk::DependencyInfo<'_>)
    |d, seq, call| {
        // SAFETY: a valid dependency info with its counted arrays.
        let (g, b) = unsafe { read_dependency(info) };
        d.capture.set_event(cb.as_raw(), seq, call, event.as_raw(), &g, &b)
    };
    before wait_events2 ["vkCmdWaitEvents2", "vkCmdWaitEvents2KHR"] "Capture::wait_events (`wait-events`)"
    fn(cb: vk::CommandBuffer, n: u32, events: *const vk::Event, infos: *const vk::DependencyInfo<'_>)
    |d, seq, call| {
        // SAFETY: `n` events and `n` dependency infos, each valid.
        #[allow(clippy::type_complexity)]
        let waits: Vec<(u64, Vec<[u64; 4]>, Vec<ResourceBarrier>)> = unsafe {
            slice(events, n)
                .iter()
                .zip(slice(infos, n))
                .map(|(e, i)| {
                    let (g, b) = read_dependency(i);
                    (e.as_raw(), g, b)
                })
                .collect()
        };
        d.capture.wait_events(cb.as_raw(), seq, call, &waits)
    };
    before reset_event2 ["vkCmdResetEvent2", "vkCmdResetEvent2KHR"] "Capture::reset_event (`reset-event`)"
    fn(cb: vk::CommandBuffer, event: vk::Event, stages: vk::PipelineStageFlags2)
    |d, seq, call| d.capture.reset_event(cb.as_raw(), seq, call, event.as_raw(), stages.as_raw());
    /// The model's `set-event1`, its stage mask converted as a
    /// `vkCmdPipelineBarrier`'s (`crate::sync1`).
    before set_event1 ["vkCmdSetEvent"] "Capture::set_event1 (`set-event1`)"
    fn(cb: vk::CommandBuffer, event: vk::Event, stages: vk::PipelineStageFlags)
    |d, seq, call| d.capture.set_event1(cb.as_raw(), seq, call, event.as_raw(), sync1::stages_1_to_2(stages).as_raw());
    /// The model's `reset-event`, as `vkCmdResetEvent2` ("behaves
    /// identically").
    before reset_event1 ["vkCmdResetEvent"] "Capture::reset_event (`reset-event`)"
    fn(cb: vk::CommandBuffer, event: vk::Event, stages: vk::PipelineStageFlags)
    |d, seq, call| d.capture.reset_event(cb.as_raw(), seq, call, event.as_raw(), sync1::stages_1_to_2(stages).as_raw());
    /// The model's `wait-events1`, its barriers converted as a
    /// `vkCmdPipelineBarrier`'s, each with the call's stage masks.
    before wait_events1 ["vkCmdWaitEvents"] "Capture::wait_events1 (`wait-events1`)"
    fn(
        cb: vk::CommandBuffer,
        n: u32,
        events: *const vk::Event,
        src: vk::PipelineStageFlags,
        dst: vk::PipelineStageFlags,
        nm: u32,
        mems: *const vk::MemoryBarrier<'_>,
        nb: u32,
        bufs: *const vk::BufferMemoryBarrier<'_>,
        ni: u32,
        imgs: *const vk::ImageMemoryBarrier<'_>,
    )
    |d, seq, call| {
        let (s2, d2) = (sync1::stages_1_to_2(src).as_raw(), sync1::stages_1_to_2(dst).as_raw());
        // SAFETY: `n` events; `nm` memory, `nb` buffer and `ni` image
        // barriers.
        let (waited, globals, resources) = unsafe {
            let waited: Vec<u64> = slice(events, n).iter().map(|e| e.as_raw()).collect();
            let (g, b) = read_sync1_barriers(s2, d2, nm, mems, nb, bufs, ni, imgs);
            (waited, g, b)
        };
        d.capture.wait_events1(cb.as_raw(), seq, call, &waited, [s2, d2], &globals, &resources)
    };

    // ---- pipelines and descriptors
    after create_shader_module ["vkCreateShaderModule"] "Capture::create_shader (SPIR-V reflection)"
    fn(device: vk::Device, info: *const vk::ShaderModuleCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::ShaderModule) -> vk::Result
    |d, seq, call| {
        // SAFETY: valid create info: `code_size` bytes of SPIR-V at
        // `p_code`; `*out` written on success.
        let (module, code) = unsafe {
            let i = &*info;
            let code = if i.p_code.is_null() {
                &[][..]
            } else {
                std::slice::from_raw_parts(i.p_code.cast::<u8>(), i.code_size)
            };
            ((*out).as_raw(), code)
        };
        d.capture.create_shader(module, reflect(code));
        // Every descriptor binding each entry point uses, by kind: images
        // become image bindings of its dispatches.
        if let Ok(res) = reflect_resources(code) {
            d.capture.shader_resources(module, res);
        }
    };
    after create_set_layout ["vkCreateDescriptorSetLayout"] "Capture::create_set_layout"
    fn(device: vk::Device, info: *const vk::DescriptorSetLayoutCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::DescriptorSetLayout) -> vk::Result
    |d, seq, call| {
        // SAFETY: valid create info; `*out` written on success; a
        // `VkDescriptorSetLayoutBindingFlagsCreateInfo` in its chain has
        // zero or `bindingCount` flags (VUID-VkDescriptorSetLayoutBindingFlagsCreateInfo-bindingCount-03002).
        let (layout, bindings, flags) = unsafe {
            let i = &*info;
            let bindings = slice(i.p_bindings, i.binding_count);
            let b: Vec<_> = bindings
                .iter()
                .map(|b| (b.binding, b.descriptor_type, b.descriptor_count))
                .collect();
            let flags: Vec<(u32, vk::DescriptorBindingFlags)> =
                match find_next(i.p_next, vk::StructureType::DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO) {
                    Some(p) => {
                        let f = &*(p as *const vk::DescriptorSetLayoutBindingFlagsCreateInfo<'_>);
                        bindings
                            .iter()
                            .zip(slice(f.p_binding_flags, f.binding_count))
                            .map(|(b, f)| (b.binding, *f))
                            .collect()
                    }
                    None => Vec::new(),
                };
            ((*out).as_raw(), b, flags)
        };
        d.capture.create_set_layout(layout, bindings);
        d.capture.set_binding_flags(layout, &flags)
    };
    after create_pipeline_layout ["vkCreatePipelineLayout"] "Capture::create_pipeline_layout"
    fn(device: vk::Device, info: *const vk::PipelineLayoutCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::PipelineLayout) -> vk::Result
    |d, seq, call| {
        // SAFETY: valid create info; `*out` written on success.
        let (layout, sets) = unsafe {
            let i = &*info;
            let s: Vec<u64> = slice(i.p_set_layouts, i.set_layout_count).iter().map(|l| l.as_raw()).collect();
            ((*out).as_raw(), s)
        };
        d.capture.create_pipeline_layout(layout, sets)
    };
    after create_compute_pipelines ["vkCreateComputePipelines"] "Capture::create_compute_pipeline"
    fn(device: vk::Device, cache: vk::PipelineCache, n: u32, infos: *const vk::ComputePipelineCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::Pipeline) -> vk::Result
    |d, seq, call| {
        // SAFETY: `n` valid create infos and `n` pipeline handles written
        // (null where one failed); `p_name` is NUL-terminated.
        let made: Vec<(u64, u64, String, u64)> = unsafe {
            slice(infos, n)
                .iter()
                .zip(slice(out, n))
                .filter(|(_, p)| !p.is_null())
                .map(|(i, p)| {
                    let name = if i.stage.p_name.is_null() {
                        String::new()
                    } else {
                        CStr::from_ptr(i.stage.p_name).to_string_lossy().into_owned()
                    };
                    (p.as_raw(), i.stage.module.as_raw(), name, i.layout.as_raw())
                })
                .collect()
        };
        for (p, m, name, l) in made {
            d.capture.create_compute_pipeline(p, m, &name, l);
        }
    };
    after create_query_pool ["vkCreateQueryPool"] "Capture::create_query_pool (its results object `qpN`)"
    fn(device: vk::Device, info: *const vk::QueryPoolCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::QueryPool) -> vk::Result
    |d, seq, call| {
        // SAFETY: valid create info; `*out` written on success.
        let (pool, i) = unsafe { ((*out).as_raw(), &*info) };
        d.capture.create_query_pool(seq, pool, i.query_type, i.query_count, i.pipeline_statistics)
    };
    before destroy_query_pool ["vkDestroyQueryPool"] "Capture::destroy_query_pool"
    fn(device: vk::Device, pool: vk::QueryPool, alloc: Alloc<'_>)
    |d, seq, call| d.capture.destroy_query_pool(pool.as_raw());
    after allocate_sets ["vkAllocateDescriptorSets"] "Capture::allocate_sets"
    fn(device: vk::Device, info: *const vk::DescriptorSetAllocateInfo<'_>, out: *mut vk::DescriptorSet) -> vk::Result
    |d, seq, call| {
        // SAFETY: valid allocate info; as many sets written as layouts.
        let sets: Vec<(u64, u64)> = unsafe {
            let i = &*info;
            slice(out, i.descriptor_set_count)
                .iter()
                .zip(slice(i.p_set_layouts, i.descriptor_set_count))
                .map(|(s, l)| (s.as_raw(), l.as_raw()))
                .collect()
        };
        d.capture.allocate_sets(&sets)
    };
    before update_sets ["vkUpdateDescriptorSets"] "Capture::write_descriptors per set, Capture::copy_descriptors"
    fn(device: vk::Device, nw: u32, writes: *const vk::WriteDescriptorSet<'_>, nc: u32, copies: *const vk::CopyDescriptorSet<'_>)
    |d, seq, call| {
        // SAFETY: `nw` valid writes (with the infos their descriptor type
        // reads).
        for w in unsafe { slice(writes, nw) } {
            // SAFETY: one valid write (above).
            let ws = unsafe { push_writes(w, 1) };
            d.capture.write_descriptors(w.dst_set.as_raw(), &ws);
        }
        // SAFETY: `nc` valid copies.
        for c in unsafe { slice(copies, nc) } {
            d.capture.copy_descriptors(
                c.src_set.as_raw(),
                c.src_binding,
                c.src_array_element,
                c.dst_set.as_raw(),
                c.dst_binding,
                c.dst_array_element,
                c.descriptor_count,
            );
        }
    };
    after create_update_template ["vkCreateDescriptorUpdateTemplate", "vkCreateDescriptorUpdateTemplateKHR"] "Capture::create_update_template"
    fn(device: vk::Device, info: *const vk::DescriptorUpdateTemplateCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::DescriptorUpdateTemplate) -> vk::Result
    |d, seq, call| {
        // SAFETY: valid create info with `descriptor_update_entry_count`
        // entries; `*out` written on success.
        let (template, entries) = unsafe {
            let i = &*info;
            ((*out).as_raw(), slice(i.p_descriptor_update_entries, i.descriptor_update_entry_count))
        };
        d.capture.create_update_template(template, entries)
    };
    before destroy_update_template ["vkDestroyDescriptorUpdateTemplate", "vkDestroyDescriptorUpdateTemplateKHR"] "Capture::destroy_update_template"
    fn(device: vk::Device, template: vk::DescriptorUpdateTemplate, alloc: Alloc<'_>)
    |d, seq, call| d.capture.destroy_update_template(template.as_raw());
    before update_with_template ["vkUpdateDescriptorSetWithTemplate", "vkUpdateDescriptorSetWithTemplateKHR"] "Capture::write_descriptors through the template (buffers, images, texel buffers)"
    fn(device: vk::Device, set: vk::DescriptorSet, template: vk::DescriptorUpdateTemplate, data: *const c_void)
    |d, seq, call| match d.capture.template_slots(template.as_raw()) {
        Some(slots) => {
            // SAFETY: `data` is this call's pData for this template, read
            // before the call returns.
            let writes = unsafe { template_writes(slots, data) };
            d.capture.write_descriptors(set.as_raw(), &writes);
        }
        None => d.capture.not_modelled(
            None,
            seq,
            call,
            "an unknown template: dispatches using this set will miss its buffers",
        ),
    };

    // ---- command buffers
    after allocate_cbs ["vkAllocateCommandBuffers"] "Capture::allocate_command_buffers"
    fn(device: vk::Device, info: *const vk::CommandBufferAllocateInfo<'_>, out: *mut vk::CommandBuffer) -> vk::Result
    |d, seq, call| {
        // SAFETY: valid allocate info; that many handles written.
        let (pool, cbs): (u64, Vec<u64>) = unsafe {
            let i = &*info;
            (
                i.command_pool.as_raw(),
                slice(out, i.command_buffer_count).iter().map(|c| c.as_raw()).collect(),
            )
        };
        d.capture.allocate_command_buffers(pool, &cbs)
    };
    before free_cbs ["vkFreeCommandBuffers"] "Capture::free_command_buffers"
    fn(device: vk::Device, pool: vk::CommandPool, n: u32, cbs: *const vk::CommandBuffer)
    |d, seq, call| {
        // SAFETY: `n` handles (some may be null).
        let list: Vec<u64> = unsafe { slice(cbs, n) }.iter().map(|c| c.as_raw()).collect();
        d.capture.free_command_buffers(&list)
    };
    after begin_cb ["vkBeginCommandBuffer"] "Capture::reset_command_buffer"
    fn(cb: vk::CommandBuffer, info: *const vk::CommandBufferBeginInfo<'_>) -> vk::Result
    |d, seq, call| d.capture.reset_command_buffer(cb.as_raw());
    after reset_cb ["vkResetCommandBuffer"] "Capture::reset_command_buffer"
    fn(cb: vk::CommandBuffer, flags: vk::CommandBufferResetFlags) -> vk::Result
    |d, seq, call| d.capture.reset_command_buffer(cb.as_raw());
    after reset_pool ["vkResetCommandPool"] "Capture::reset_command_pool"
    fn(device: vk::Device, pool: vk::CommandPool, flags: vk::CommandPoolResetFlags) -> vk::Result
    |d, seq, call| d.capture.reset_command_pool(pool.as_raw());
    before push_descriptor_set ["vkCmdPushDescriptorSet", "vkCmdPushDescriptorSetKHR"] "Capture::push_descriptors"
    fn(cb: vk::CommandBuffer, bp: vk::PipelineBindPoint, layout: vk::PipelineLayout, set: u32, n: u32, writes: *const vk::WriteDescriptorSet<'_>)
    where (bp == vk::PipelineBindPoint::COMPUTE || bp == vk::PipelineBindPoint::GRAPHICS)
    |d, seq, call| {
        // SAFETY: `n` valid writes (their dst_set is ignored for pushes).
        let ws = unsafe { push_writes(writes, n) };
        let graphics = bp == vk::PipelineBindPoint::GRAPHICS;
        d.capture.push_descriptors(cb.as_raw(), seq, "vkCmdPushDescriptorSetKHR", graphics, layout.as_raw(), set, &ws)
    };
    before push_descriptor_set_with_template ["vkCmdPushDescriptorSetWithTemplate", "vkCmdPushDescriptorSetWithTemplateKHR"] "Capture::push_descriptors through the template"
    fn(cb: vk::CommandBuffer, template: vk::DescriptorUpdateTemplate, layout: vk::PipelineLayout, set: u32, data: *const c_void)
    |d, seq, call| push_through_template(d, cb, seq, "vkCmdPushDescriptorSetWithTemplateKHR", template, layout, set, data);
    /// As `vkCmdPushDescriptorSetKHR`, for the compute bind point when
    /// `stageFlags` has the compute stage, and the graphics one when it has
    /// a graphics stage (the set is pushed for every stage named).
    before push_descriptor_set2 ["vkCmdPushDescriptorSet2", "vkCmdPushDescriptorSet2KHR"] "Capture::push_descriptors (compute or graphics stages in stageFlags)"
    fn(cb: vk::CommandBuffer, info: *const vk::PushDescriptorSetInfoKHR<'_>)
    // SAFETY: a valid VkPushDescriptorSetInfo.
    where (unsafe { (*info).stage_flags }.intersects(vk::ShaderStageFlags::COMPUTE | vk::ShaderStageFlags::ALL_GRAPHICS))
    |d, seq, call| {
        // SAFETY: a valid VkPushDescriptorSetInfo with
        // `descriptor_write_count` valid writes.
        let (i, ws) = unsafe { (&*info, push_writes((*info).p_descriptor_writes, (*info).descriptor_write_count)) };
        for graphics in bind_points(i.stage_flags) {
            d.capture.push_descriptors(cb.as_raw(), seq, call, graphics, i.layout.as_raw(), i.set, &ws);
        }
    };
    /// As `vkCmdPushDescriptorSetWithTemplateKHR` (a push template names
    /// its bind point; only a compute one reaches dispatches, as for the
    /// first form).
    before push_descriptor_set_with_template2 ["vkCmdPushDescriptorSetWithTemplate2", "vkCmdPushDescriptorSetWithTemplate2KHR"] "Capture::push_descriptors through the template"
    fn(cb: vk::CommandBuffer, info: *const vk::PushDescriptorSetWithTemplateInfoKHR<'_>)
    |d, seq, call| {
        // SAFETY: a valid VkPushDescriptorSetWithTemplateInfo.
        let i = unsafe { &*info };
        push_through_template(d, cb, seq, call, i.descriptor_update_template, i.layout, i.set, i.p_data)
    };
    before bind_pipeline ["vkCmdBindPipeline"] "Capture::bind_pipeline"
    fn(cb: vk::CommandBuffer, bp: vk::PipelineBindPoint, pipeline: vk::Pipeline)
    |d, seq, call| d.capture.bind_pipeline(cb.as_raw(), bp, pipeline.as_raw());
    before bind_sets ["vkCmdBindDescriptorSets"] "Capture::bind_sets"
    fn(cb: vk::CommandBuffer, bp: vk::PipelineBindPoint, layout: vk::PipelineLayout, first: u32, n: u32, sets: *const vk::DescriptorSet, nd: u32, dynamic: *const u32)
    where (bp == vk::PipelineBindPoint::COMPUTE || bp == vk::PipelineBindPoint::GRAPHICS)
    |d, seq, call| {
        // SAFETY: `n` set handles and `nd` offsets.
        let (s, o): (Vec<u64>, &[u32]) =
            unsafe { (slice(sets, n).iter().map(|s| s.as_raw()).collect(), slice(dynamic, nd)) };
        d.capture.bind_sets(cb.as_raw(), seq, bp == vk::PipelineBindPoint::GRAPHICS, first, &s, o)
    };
    /// As `vkCmdBindDescriptorSets`, through `VkBindDescriptorSetsInfo`
    /// (Vulkan 1.4, `VK_KHR_maintenance6`): to the compute bind point when
    /// `stageFlags` has the compute stage, and to the graphics one when it
    /// has a graphics stage (the sets are bound for every stage named).
    before bind_sets2 ["vkCmdBindDescriptorSets2", "vkCmdBindDescriptorSets2KHR"] "Capture::bind_sets (compute or graphics stages in stageFlags)"
    fn(cb: vk::CommandBuffer, info: *const vk::BindDescriptorSetsInfoKHR<'_>)
    // SAFETY: a valid VkBindDescriptorSetsInfo.
    where (unsafe { (*info).stage_flags }.intersects(vk::ShaderStageFlags::COMPUTE | vk::ShaderStageFlags::ALL_GRAPHICS))
    |d, seq, call| {
        // SAFETY: a valid VkBindDescriptorSetsInfo with
        // `descriptor_set_count` set handles and `dynamic_offset_count`
        // offsets.
        let (i, s, o): (_, Vec<u64>, &[u32]) = unsafe {
            let i = &*info;
            (
                i,
                slice(i.p_descriptor_sets, i.descriptor_set_count).iter().map(|s| s.as_raw()).collect(),
                slice(i.p_dynamic_offsets, i.dynamic_offset_count),
            )
        };
        for graphics in bind_points(i.stage_flags) {
            d.capture.bind_sets(cb.as_raw(), seq, graphics, i.first_set, &s, o);
        }
    };
    before execute_commands ["vkCmdExecuteCommands"] "Capture::execute_commands (the secondaries' commands inline)"
    fn(cb: vk::CommandBuffer, n: u32, cbs: *const vk::CommandBuffer)
    |d, seq, call| {
        // SAFETY: `n` command buffer handles.
        let secondaries: Vec<u64> = unsafe { slice(cbs, n) }.iter().map(|c| c.as_raw()).collect();
        d.capture.execute_commands(cb.as_raw(), seq, &secondaries)
    };

    // ---- dispatches, copies, fills, updates, blits, resolves, clears
    before dispatch ["vkCmdDispatch"] "Capture::dispatch (`dispatch`)"
    fn(cb: vk::CommandBuffer, x: u32, y: u32, z: u32)
    |d, seq, call| d.capture.dispatch(cb.as_raw(), seq, call, None);
    before dispatch_indirect ["vkCmdDispatchIndirect"] "Capture::dispatch (`dispatch ... indirect`)"
    fn(cb: vk::CommandBuffer, buffer: vk::Buffer, offset: u64)
    |d, seq, call| d.capture.dispatch(cb.as_raw(), seq, call, Some((buffer.as_raw(), offset)));
    before dispatch_base ["vkCmdDispatchBase", "vkCmdDispatchBaseKHR"] "Capture::dispatch (`dispatch`)"
    fn(cb: vk::CommandBuffer, bx: u32, by: u32, bz: u32, x: u32, y: u32, z: u32)
    |d, seq, call| d.capture.dispatch(cb.as_raw(), seq, call, None);
    before copy_buffer ["vkCmdCopyBuffer"] "Capture::copy_buffer (`copy`)"
    fn(cb: vk::CommandBuffer, src: vk::Buffer, dst: vk::Buffer, n: u32, regions: *const vk::BufferCopy)
    // SAFETY: `n` regions.
    |d, seq, call| d.capture.copy_buffer(cb.as_raw(), seq, call, src.as_raw(), dst.as_raw(), unsafe { slice(regions, n) });
    before copy_buffer2 ["vkCmdCopyBuffer2", "vkCmdCopyBuffer2KHR"] "Capture::copy_buffer (`copy`)"
    fn(cb: vk::CommandBuffer, info: *const vk::CopyBufferInfo2<'_>)
    |d, seq, call| {
        // SAFETY: a valid VkCopyBufferInfo2 with `region_count` regions.
        let (i, rs) = unsafe { (&*info, slice((*info).p_regions, (*info).region_count)) };
        let rs: Vec<vk::BufferCopy> = rs
            .iter()
            .map(|r| vk::BufferCopy { src_offset: r.src_offset, dst_offset: r.dst_offset, size: r.size })
            .collect();
        d.capture.copy_buffer(cb.as_raw(), seq, call, i.src_buffer.as_raw(), i.dst_buffer.as_raw(), &rs)
    };
    before copy_buffer_to_image ["vkCmdCopyBufferToImage"] "Capture::copy_buffer_image (`copy-buffer-to-image`)"
    fn(cb: vk::CommandBuffer, src: vk::Buffer, dst: vk::Image, layout: vk::ImageLayout, n: u32, regions: *const vk::BufferImageCopy)
    |d, seq, call| {
        // SAFETY: `n` regions.
        let rs = unsafe { slice(regions, n) };
        d.capture.copy_buffer_image(cb.as_raw(), seq, call, ImageCopy::BufferToImage, src.as_raw(), dst.as_raw(), layout, rs)
    };
    before copy_buffer_to_image2 ["vkCmdCopyBufferToImage2", "vkCmdCopyBufferToImage2KHR"] "Capture::copy_buffer_image (`copy-buffer-to-image`)"
    fn(cb: vk::CommandBuffer, info: *const vk::CopyBufferToImageInfo2<'_>)
    |d, seq, call| {
        // SAFETY: a valid VkCopyBufferToImageInfo2 with `region_count`
        // regions.
        let (i, rs) = unsafe { (&*info, slice((*info).p_regions, (*info).region_count)) };
        let rs: Vec<vk::BufferImageCopy> = rs.iter().map(region1).collect();
        d.capture.copy_buffer_image(cb.as_raw(), seq, call, ImageCopy::BufferToImage, i.src_buffer.as_raw(), i.dst_image.as_raw(), i.dst_image_layout, &rs)
    };
    before copy_image_to_buffer ["vkCmdCopyImageToBuffer"] "Capture::copy_buffer_image (`copy-image-to-buffer`)"
    fn(cb: vk::CommandBuffer, src: vk::Image, layout: vk::ImageLayout, dst: vk::Buffer, n: u32, regions: *const vk::BufferImageCopy)
    |d, seq, call| {
        // SAFETY: `n` regions.
        let rs = unsafe { slice(regions, n) };
        d.capture.copy_buffer_image(cb.as_raw(), seq, call, ImageCopy::ImageToBuffer, dst.as_raw(), src.as_raw(), layout, rs)
    };
    before copy_image_to_buffer2 ["vkCmdCopyImageToBuffer2", "vkCmdCopyImageToBuffer2KHR"] "Capture::copy_buffer_image (`copy-image-to-buffer`)"
    fn(cb: vk::CommandBuffer, info: *const vk::CopyImageToBufferInfo2<'_>)
    |d, seq, call| {
        // SAFETY: a valid VkCopyImageToBufferInfo2 with `region_count`
        // regions.
        let (i, rs) = unsafe { (&*info, slice((*info).p_regions, (*info).region_count)) };
        let rs: Vec<vk::BufferImageCopy> = rs.iter().map(region1).collect();
        d.capture.copy_buffer_image(cb.as_raw(), seq, call, ImageCopy::ImageToBuffer, i.dst_buffer.as_raw(), i.src_image.as_raw(), i.src_image_layout, &rs)
    };
    before copy_image ["vkCmdCopyImage"] "Capture::copy_image (`copy-image`)"
    fn(cb: vk::CommandBuffer, src: vk::Image, src_layout: vk::ImageLayout, dst: vk::Image, dst_layout: vk::ImageLayout, n: u32, regions: *const vk::ImageCopy)
    // SAFETY: `n` regions.
    |d, seq, call| d.capture.copy_image(cb.as_raw(), seq, call, (src.as_raw(), src_layout), (dst.as_raw(), dst_layout), unsafe { slice(regions, n) });
    before copy_image2 ["vkCmdCopyImage2", "vkCmdCopyImage2KHR"] "Capture::copy_image (`copy-image`)"
    fn(cb: vk::CommandBuffer, info: *const vk::CopyImageInfo2<'_>)
    |d, seq, call| {
        // SAFETY: a valid VkCopyImageInfo2 with `region_count` regions.
        let (i, rs) = unsafe { (&*info, slice((*info).p_regions, (*info).region_count)) };
        let rs: Vec<vk::ImageCopy> = rs
            .iter()
            .map(|r| vk::ImageCopy {
                src_subresource: r.src_subresource,
                src_offset: r.src_offset,
                dst_subresource: r.dst_subresource,
                dst_offset: r.dst_offset,
                extent: r.extent,
            })
            .collect();
        d.capture.copy_image(cb.as_raw(), seq, call, (i.src_image.as_raw(), i.src_image_layout), (i.dst_image.as_raw(), i.dst_image_layout), &rs)
    };
    before fill_buffer ["vkCmdFillBuffer"] "Capture::fill_buffer (`fill`)"
    fn(cb: vk::CommandBuffer, dst: vk::Buffer, offset: u64, size: u64, data: u32)
    |d, seq, call| d.capture.fill_buffer(cb.as_raw(), seq, dst.as_raw(), offset, size, data);
    before copy_query_results ["vkCmdCopyQueryPoolResults"] "Capture::copy_query_results (`copy` from the pool's results object `qpN`)"
    fn(cb: vk::CommandBuffer, pool: vk::QueryPool, first: u32, count: u32, dst: vk::Buffer, offset: u64, stride: u64, flags: vk::QueryResultFlags)
    |d, seq, call| d.capture.copy_query_results(cb.as_raw(), seq, call, pool.as_raw(), first, count, dst.as_raw(), offset, stride, flags);
    before update_buffer ["vkCmdUpdateBuffer"] "Capture::update_buffer (`update`)"
    fn(cb: vk::CommandBuffer, dst: vk::Buffer, offset: u64, size: u64, data: *const c_void)
    |d, seq, call| d.capture.update_buffer(cb.as_raw(), seq, dst.as_raw(), offset, size);
    before blit_image ["vkCmdBlitImage"] "Capture::blit_image (`blit-image`; an image declared coarsely: not-modelled)"
    fn(cb: vk::CommandBuffer, src: vk::Image, src_layout: vk::ImageLayout, dst: vk::Image, dst_layout: vk::ImageLayout, n: u32, regions: *const vk::ImageBlit, filter: vk::Filter)
    // SAFETY: `n` regions.
    |d, seq, call| d.capture.blit_image(cb.as_raw(), seq, call, (src.as_raw(), src_layout), (dst.as_raw(), dst_layout), unsafe { slice(regions, n) }, filter);
    before blit_image2 ["vkCmdBlitImage2", "vkCmdBlitImage2KHR"] "Capture::blit_image (`blit-image`)"
    fn(cb: vk::CommandBuffer, info: *const vk::BlitImageInfo2<'_>)
    |d, seq, call| {
        // SAFETY: a valid VkBlitImageInfo2 with `region_count` regions.
        let (i, rs) = unsafe { (&*info, slice((*info).p_regions, (*info).region_count)) };
        let rs: Vec<vk::ImageBlit> = rs
            .iter()
            .map(|r| vk::ImageBlit {
                src_subresource: r.src_subresource,
                src_offsets: r.src_offsets,
                dst_subresource: r.dst_subresource,
                dst_offsets: r.dst_offsets,
            })
            .collect();
        d.capture.blit_image(cb.as_raw(), seq, call, (i.src_image.as_raw(), i.src_image_layout), (i.dst_image.as_raw(), i.dst_image_layout), &rs, i.filter)
    };
    before resolve_image ["vkCmdResolveImage"] "Capture::resolve_image (`resolve-image`; an image declared coarsely: not-modelled)"
    fn(cb: vk::CommandBuffer, src: vk::Image, src_layout: vk::ImageLayout, dst: vk::Image, dst_layout: vk::ImageLayout, n: u32, regions: *const vk::ImageResolve)
    // SAFETY: `n` regions.
    |d, seq, call| d.capture.resolve_image(cb.as_raw(), seq, call, (src.as_raw(), src_layout), (dst.as_raw(), dst_layout), unsafe { slice(regions, n) });
    before resolve_image2 ["vkCmdResolveImage2", "vkCmdResolveImage2KHR"] "Capture::resolve_image (`resolve-image`)"
    fn(cb: vk::CommandBuffer, info: *const vk::ResolveImageInfo2<'_>)
    |d, seq, call| {
        // SAFETY: a valid VkResolveImageInfo2 with `region_count` regions.
        let (i, rs) = unsafe { (&*info, slice((*info).p_regions, (*info).region_count)) };
        let rs: Vec<vk::ImageResolve> = rs
            .iter()
            .map(|r| vk::ImageResolve {
                src_subresource: r.src_subresource,
                src_offset: r.src_offset,
                dst_subresource: r.dst_subresource,
                dst_offset: r.dst_offset,
                extent: r.extent,
            })
            .collect();
        d.capture.resolve_image(cb.as_raw(), seq, call, (i.src_image.as_raw(), i.src_image_layout), (i.dst_image.as_raw(), i.dst_image_layout), &rs)
    };
    before clear_color_image ["vkCmdClearColorImage"] "Capture::clear_image (`clear-color-image`; an image declared coarsely: not-modelled)"
    fn(cb: vk::CommandBuffer, image: vk::Image, layout: vk::ImageLayout, color: *const vk::ClearColorValue, n: u32, ranges: *const vk::ImageSubresourceRange)
    |d, seq, call| {
        // SAFETY: `n` ranges.
        let rs: Vec<[u32; 5]> = unsafe { slice(ranges, n) }.iter().map(raw_range).collect();
        d.capture.clear_image(cb.as_raw(), seq, call, false, (image.as_raw(), layout), &rs)
    };
    before clear_depth_stencil_image ["vkCmdClearDepthStencilImage"] "Capture::clear_image (`clear-depth-stencil-image`)"
    fn(cb: vk::CommandBuffer, image: vk::Image, layout: vk::ImageLayout, value: *const vk::ClearDepthStencilValue, n: u32, ranges: *const vk::ImageSubresourceRange)
    |d, seq, call| {
        // SAFETY: `n` ranges.
        let rs: Vec<[u32; 5]> = unsafe { slice(ranges, n) }.iter().map(raw_range).collect();
        d.capture.clear_image(cb.as_raw(), seq, call, true, (image.as_raw(), layout), &rs)
    };

    // ---- graphics: pipelines, render passes, framebuffers
    after create_graphics_pipelines ["vkCreateGraphicsPipelines"] "Capture::create_graphics_pipeline"
    fn(device: vk::Device, cache: vk::PipelineCache, n: u32, infos: *const vk::GraphicsPipelineCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::Pipeline) -> vk::Result
    |d, seq, call| {
        // SAFETY: `n` valid create infos and `n` pipeline handles written
        // (null where one failed).
        let made: Vec<(u64, GraphicsInfo)> = unsafe {
            slice(infos, n)
                .iter()
                .zip(slice(out, n))
                .filter(|(_, p)| !p.is_null())
                .map(|(i, p)| (p.as_raw(), graphics_info(i)))
                .collect()
        };
        for (p, info) in made {
            d.capture.create_graphics_pipeline(p, &info);
        }
    };
    before destroy_pipeline ["vkDestroyPipeline"] "Capture::destroy_pipeline"
    fn(device: vk::Device, pipeline: vk::Pipeline, alloc: Alloc<'_>)
    |d, seq, call| d.capture.destroy_pipeline(pipeline.as_raw());
    after create_render_pass ["vkCreateRenderPass"] "Capture::create_render_pass (`render-pass`, masks through sync1)"
    fn(device: vk::Device, info: *const vk::RenderPassCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::RenderPass) -> vk::Result
    |d, seq, call| {
        // SAFETY: a valid create info; `*out` written on success.
        let (rp, info) = unsafe { ((*out).as_raw(), render_pass_info(&*info)) };
        d.capture.create_render_pass(seq, call, rp, &info)
    };
    after create_render_pass2 ["vkCreateRenderPass2", "vkCreateRenderPass2KHR"] "Capture::create_render_pass (`render-pass`)"
    fn(device: vk::Device, info: *const vk::RenderPassCreateInfo2<'_>, alloc: Alloc<'_>, out: *mut vk::RenderPass) -> vk::Result
    |d, seq, call| {
        // SAFETY: a valid create info; `*out` written on success.
        let (rp, info) = unsafe { ((*out).as_raw(), render_pass_info2(&*info)) };
        d.capture.create_render_pass(seq, call, rp, &info)
    };
    before destroy_render_pass ["vkDestroyRenderPass"] "Capture::destroy_render_pass"
    fn(device: vk::Device, rp: vk::RenderPass, alloc: Alloc<'_>)
    |d, seq, call| d.capture.destroy_render_pass(rp.as_raw());
    after create_framebuffer ["vkCreateFramebuffer"] "Capture::create_framebuffer (its views, for `begin-render-pass`)"
    fn(device: vk::Device, info: *const vk::FramebufferCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::Framebuffer) -> vk::Result
    |d, seq, call| {
        // SAFETY: a valid create info with `attachment_count` views unless
        // imageless; `*out` written on success.
        let (fb, views) = unsafe {
            let i = &*info;
            let views = (!i.flags.contains(vk::FramebufferCreateFlags::IMAGELESS))
                .then(|| slice(i.p_attachments, i.attachment_count).iter().map(|v| v.as_raw()).collect());
            ((*out).as_raw(), views)
        };
        d.capture.create_framebuffer(fb, views)
    };
    before destroy_framebuffer ["vkDestroyFramebuffer"] "Capture::destroy_framebuffer"
    fn(device: vk::Device, fb: vk::Framebuffer, alloc: Alloc<'_>)
    |d, seq, call| d.capture.destroy_framebuffer(fb.as_raw());

    // ---- graphics: bound state
    before bind_vertex_buffers ["vkCmdBindVertexBuffers"] "Capture::bind_vertex_buffers (a draw's `vertex`/`instance` bindings)"
    fn(cb: vk::CommandBuffer, first: u32, n: u32, buffers: *const vk::Buffer, offsets: *const u64)
    |d, seq, call| {
        // SAFETY: `n` buffers and `n` offsets.
        let bs: Vec<(u64, u64, Option<u64>)> = unsafe {
            slice(buffers, n).iter().zip(slice(offsets, n)).map(|(b, o)| (b.as_raw(), *o, None)).collect()
        };
        d.capture.bind_vertex_buffers(cb.as_raw(), first, &bs)
    };
    before bind_vertex_buffers2 ["vkCmdBindVertexBuffers2", "vkCmdBindVertexBuffers2EXT"] "Capture::bind_vertex_buffers (with the strides, for VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE)"
    fn(cb: vk::CommandBuffer, first: u32, n: u32, buffers: *const vk::Buffer, offsets: *const u64, sizes: *const u64, strides: *const u64)
    |d, seq, call| {
        // SAFETY: `n` buffers and offsets; `n` strides unless null.
        let bs: Vec<(u64, u64, Option<u64>)> = unsafe {
            let st = slice(strides, n);
            slice(buffers, n)
                .iter()
                .zip(slice(offsets, n))
                .enumerate()
                .map(|(k, (b, o))| (b.as_raw(), *o, st.get(k).copied()))
                .collect()
        };
        d.capture.bind_vertex_buffers(cb.as_raw(), first, &bs)
    };
    before bind_index_buffer ["vkCmdBindIndexBuffer"] "Capture::bind_index_buffer (an indexed draw's `index`)"
    fn(cb: vk::CommandBuffer, buffer: vk::Buffer, offset: u64, ty: vk::IndexType)
    |d, seq, call| d.capture.bind_index_buffer(cb.as_raw(), buffer.as_raw(), offset, ty);
    before bind_index_buffer2 ["vkCmdBindIndexBuffer2", "vkCmdBindIndexBuffer2KHR"] "Capture::bind_index_buffer"
    fn(cb: vk::CommandBuffer, buffer: vk::Buffer, offset: u64, size: u64, ty: vk::IndexType)
    |d, seq, call| d.capture.bind_index_buffer(cb.as_raw(), buffer.as_raw(), offset, ty);
    before set_depth_test_enable ["vkCmdSetDepthTestEnable", "vkCmdSetDepthTestEnableEXT"] "Capture::set_depth_state (VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE)"
    fn(cb: vk::CommandBuffer, on: vk::Bool32)
    |d, seq, call| d.capture.set_depth_state(cb.as_raw(), 0, on != 0);
    before set_depth_write_enable ["vkCmdSetDepthWriteEnable", "vkCmdSetDepthWriteEnableEXT"] "Capture::set_depth_state (VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE)"
    fn(cb: vk::CommandBuffer, on: vk::Bool32)
    |d, seq, call| d.capture.set_depth_state(cb.as_raw(), 1, on != 0);
    before set_stencil_test_enable ["vkCmdSetStencilTestEnable", "vkCmdSetStencilTestEnableEXT"] "Capture::set_depth_state (VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE)"
    fn(cb: vk::CommandBuffer, on: vk::Bool32)
    |d, seq, call| d.capture.set_depth_state(cb.as_raw(), 2, on != 0);

    // ---- graphics: rendering, render passes, draws, clears
    before begin_rendering ["vkCmdBeginRendering", "vkCmdBeginRenderingKHR"] "Capture::begin_rendering (`begin-rendering`)"
    fn(cb: vk::CommandBuffer, info: *const vk::RenderingInfo<'_>)
    |d, seq, call| {
        // SAFETY: a valid VkRenderingInfo.
        let r = unsafe { rendering_info(&*info) };
        d.capture.begin_rendering(cb.as_raw(), seq, call, &r)
    };
    before end_rendering ["vkCmdEndRendering", "vkCmdEndRenderingKHR"] "Capture::end_rendering (`end-rendering`)"
    fn(cb: vk::CommandBuffer)
    |d, seq, call| d.capture.end_rendering(cb.as_raw(), seq, call);
    before begin_render_pass ["vkCmdBeginRenderPass"] "Capture::begin_render_pass (`begin-render-pass`)"
    fn(cb: vk::CommandBuffer, info: *const vk::RenderPassBeginInfo<'_>, contents: vk::SubpassContents)
    |d, seq, call| {
        // SAFETY: a valid VkRenderPassBeginInfo.
        let (rp, fb, views, area) = unsafe { render_pass_begin(&*info) };
        d.capture.begin_render_pass(cb.as_raw(), seq, call, (rp, fb), views, area)
    };
    before begin_render_pass2 ["vkCmdBeginRenderPass2", "vkCmdBeginRenderPass2KHR"] "Capture::begin_render_pass (`begin-render-pass`)"
    fn(cb: vk::CommandBuffer, info: *const vk::RenderPassBeginInfo<'_>, subpass: *const vk::SubpassBeginInfo<'_>)
    |d, seq, call| {
        // SAFETY: a valid VkRenderPassBeginInfo.
        let (rp, fb, views, area) = unsafe { render_pass_begin(&*info) };
        d.capture.begin_render_pass(cb.as_raw(), seq, call, (rp, fb), views, area)
    };
    before next_subpass ["vkCmdNextSubpass"] "Capture::render_pass_step (`next-subpass`)"
    fn(cb: vk::CommandBuffer, contents: vk::SubpassContents)
    |d, seq, call| d.capture.render_pass_step(cb.as_raw(), seq, call, false);
    before next_subpass2 ["vkCmdNextSubpass2", "vkCmdNextSubpass2KHR"] "Capture::render_pass_step (`next-subpass`)"
    fn(cb: vk::CommandBuffer, begin: *const vk::SubpassBeginInfo<'_>, end: *const vk::SubpassEndInfo<'_>)
    |d, seq, call| d.capture.render_pass_step(cb.as_raw(), seq, call, false);
    before end_render_pass ["vkCmdEndRenderPass"] "Capture::render_pass_step (`end-render-pass`)"
    fn(cb: vk::CommandBuffer)
    |d, seq, call| d.capture.render_pass_step(cb.as_raw(), seq, call, true);
    before end_render_pass2 ["vkCmdEndRenderPass2", "vkCmdEndRenderPass2KHR"] "Capture::render_pass_step (`end-render-pass`)"
    fn(cb: vk::CommandBuffer, end: *const vk::SubpassEndInfo<'_>)
    |d, seq, call| d.capture.render_pass_step(cb.as_raw(), seq, call, true);
    before clear_attachments ["vkCmdClearAttachments"] "Capture::clear_attachments (`clear-attachments`, rectangles left out)"
    fn(cb: vk::CommandBuffer, n: u32, attachments: *const vk::ClearAttachment, nr: u32, rects: *const vk::ClearRect)
    |d, seq, call| {
        // SAFETY: `n` clear attachments.
        let cs: Vec<(vk::ImageAspectFlags, u32)> =
            unsafe { slice(attachments, n) }.iter().map(|a| (a.aspect_mask, a.color_attachment)).collect();
        d.capture.clear_attachments(cb.as_raw(), seq, call, &cs)
    };
    before draw ["vkCmdDraw"] "Capture::draw (`draw`)"
    fn(cb: vk::CommandBuffer, vertex_count: u32, instance_count: u32, first_vertex: u32, first_instance: u32)
    |d, seq, call| d.capture.draw(cb.as_raw(), seq, call, DrawCall::Draw { vertex_count, instance_count, first_vertex, first_instance });
    before draw_indexed ["vkCmdDrawIndexed"] "Capture::draw (`draw-indexed`)"
    fn(cb: vk::CommandBuffer, index_count: u32, instance_count: u32, first_index: u32, vertex_offset: i32, first_instance: u32)
    |d, seq, call| d.capture.draw(cb.as_raw(), seq, call, DrawCall::Indexed { index_count, instance_count, first_index, first_instance });
    before draw_indirect ["vkCmdDrawIndirect"] "Capture::draw (`draw-indirect`)"
    fn(cb: vk::CommandBuffer, buffer: vk::Buffer, offset: u64, draw_count: u32, stride: u32)
    |d, seq, call| d.capture.draw(cb.as_raw(), seq, call, DrawCall::Indirect { indexed: false, buffer: buffer.as_raw(), offset, draw_count, stride });
    before draw_indexed_indirect ["vkCmdDrawIndexedIndirect"] "Capture::draw (`draw-indexed-indirect`)"
    fn(cb: vk::CommandBuffer, buffer: vk::Buffer, offset: u64, draw_count: u32, stride: u32)
    |d, seq, call| d.capture.draw(cb.as_raw(), seq, call, DrawCall::Indirect { indexed: true, buffer: buffer.as_raw(), offset, draw_count, stride });
    before draw_indirect_count ["vkCmdDrawIndirectCount", "vkCmdDrawIndirectCountKHR", "vkCmdDrawIndirectCountAMD"] "Capture::draw (`draw-indirect-count`)"
    fn(cb: vk::CommandBuffer, buffer: vk::Buffer, offset: u64, count_buffer: vk::Buffer, count_offset: u64, max_draw_count: u32, stride: u32)
    |d, seq, call| d.capture.draw(cb.as_raw(), seq, call, DrawCall::IndirectCount { indexed: false, buffer: buffer.as_raw(), offset, count_buffer: count_buffer.as_raw(), count_offset, max_draw_count, stride });
    before draw_indexed_indirect_count ["vkCmdDrawIndexedIndirectCount", "vkCmdDrawIndexedIndirectCountKHR", "vkCmdDrawIndexedIndirectCountAMD"] "Capture::draw (`draw-indirect-count ... indexed`)"
    fn(cb: vk::CommandBuffer, buffer: vk::Buffer, offset: u64, count_buffer: vk::Buffer, count_offset: u64, max_draw_count: u32, stride: u32)
    |d, seq, call| d.capture.draw(cb.as_raw(), seq, call, DrawCall::IndirectCount { indexed: true, buffer: buffer.as_raw(), offset, count_buffer: count_buffer.as_raw(), count_offset, max_draw_count, stride });
}

/// A push through a template (both forms): the template's descriptors
/// decoded from `data` become the command buffer's set; an unknown
/// template is a `not-modelled` line.
#[allow(clippy::too_many_arguments)]
fn push_through_template(
    d: &mut DeviceData,
    cb: vk::CommandBuffer,
    seq: u64,
    call: &str,
    template: vk::DescriptorUpdateTemplate,
    layout: vk::PipelineLayout,
    set: u32,
    data: *const c_void,
) {
    let Some(slots) = d.capture.template_slots(template.as_raw()) else {
        d.capture
            .not_modelled(Some(cb.as_raw()), seq, call, "an unknown template");
        return;
    };
    // SAFETY: `data` is the pData of the call being recorded, for this
    // template (its caller's contract), read before that call returns.
    let ws = unsafe { template_writes(slots, data) };
    d.capture
        .push_descriptors(cb.as_raw(), seq, call, false, layout.as_raw(), set, &ws);
}

/// The bind points a `stageFlags` of the `2` forms (`VkPushDescriptorSetInfo`,
/// `VkBindDescriptorSetsInfo`) names, as the capture tells them apart
/// (`false`: compute, `true`: graphics): each whose stages it has.
fn bind_points(stages: vk::ShaderStageFlags) -> impl Iterator<Item = bool> {
    [false, true].into_iter().filter(move |&graphics| {
        stages.intersects(if graphics {
            vk::ShaderStageFlags::ALL_GRAPHICS
        } else {
            vk::ShaderStageFlags::COMPUTE
        })
    })
}

/// The structure of type `ty` in a `pNext` chain, if any.
///
/// # Safety
/// `next` is a valid `pNext` chain.
unsafe fn find_next(mut next: *const c_void, ty: vk::StructureType) -> Option<*const c_void> {
    while !next.is_null() {
        // SAFETY: every structure in a valid chain starts with sType and
        // pNext.
        let base = unsafe { &*(next as *const vk::BaseInStructure<'_>) };
        if base.s_type == ty {
            return Some(next);
        }
        next = base.p_next.cast();
    }
    None
}

/// What a draw with pipeline `i` carries (`record::GraphicsInfo`).
///
/// # Safety
/// `i` is a valid `VkGraphicsPipelineCreateInfo` (its state pointers null
/// or valid, as the pipeline's state needs them).
unsafe fn graphics_info(i: &vk::GraphicsPipelineCreateInfo<'_>) -> GraphicsInfo {
    let mut g = GraphicsInfo {
        color_write: true,
        ..GraphicsInfo::default()
    };
    if i.flags.contains(vk::PipelineCreateFlags::LIBRARY_KHR) {
        g.refusal = Some("a graphics pipeline library".into());
    }
    // SAFETY: a valid chain.
    if let Some(p) = unsafe { find_next(i.p_next, vk::StructureType::PIPELINE_LIBRARY_CREATE_INFO_KHR) } {
        // SAFETY: the structure type says what it is.
        if unsafe { (*(p as *const vk::PipelineLibraryCreateInfoKHR<'_>)).library_count } > 0 {
            g.refusal = Some("a pipeline linked from graphics pipeline libraries".into());
        }
    }
    // SAFETY: `stage_count` valid stages.
    for s in unsafe { slice(i.p_stages, i.stage_count) } {
        if s.module.is_null() {
            g.refusal.get_or_insert(
                "a shader stage whose module is given inline (not through vkCreateShaderModule)".into(),
            );
            continue;
        }
        let name = if s.p_name.is_null() {
            String::new()
        } else {
            // SAFETY: a NUL-terminated entry point name.
            unsafe { CStr::from_ptr(s.p_name) }.to_string_lossy().into_owned()
        };
        g.stages.push((s.stage, s.module.as_raw(), name));
    }
    if g.stages.is_empty() {
        g.refusal
            .get_or_insert("a graphics pipeline with no shader stages".into());
    }
    // SAFETY: null or a valid vertex input state.
    if let Some(v) = unsafe { i.p_vertex_input_state.as_ref() } {
        // SAFETY: its counted arrays.
        let (bindings, attributes) = unsafe {
            (
                slice(
                    v.p_vertex_binding_descriptions,
                    v.vertex_binding_description_count,
                ),
                slice(
                    v.p_vertex_attribute_descriptions,
                    v.vertex_attribute_description_count,
                ),
            )
        };
        g.vertex_bindings = bindings
            .iter()
            .filter(|b| attributes.iter().any(|a| a.binding == b.binding))
            .map(|b| (b.binding, b.stride, b.input_rate))
            .collect();
    }
    // SAFETY: null or a valid depth/stencil state.
    if let Some(ds) = unsafe { i.p_depth_stencil_state.as_ref() } {
        g.depth_test = ds.depth_test_enable != 0;
        g.depth_write = ds.depth_write_enable != 0;
        g.stencil_test = ds.stencil_test_enable != 0;
    }
    // SAFETY: null or a valid color blend state with its attachments.
    if let Some(cb) = unsafe { i.p_color_blend_state.as_ref() } {
        // SAFETY: `attachment_count` valid attachment states.
        let atts = unsafe { slice(cb.p_attachments, cb.attachment_count) };
        g.blend = cb.logic_op_enable != 0 || atts.iter().any(|a| a.blend_enable != 0);
        g.color_write = atts.is_empty() || atts.iter().any(|a| !a.color_write_mask.is_empty());
    }
    // SAFETY: null or a valid dynamic state.
    if let Some(dy) = unsafe { i.p_dynamic_state.as_ref() } {
        // SAFETY: `dynamic_state_count` valid states.
        g.dynamic = unsafe { slice(dy.p_dynamic_states, dy.dynamic_state_count) }.to_vec();
    }
    g
}

/// A synchronization-1 subpass dependency's masks in synchronization-2
/// bits.
fn sync1_masks(
    src_stages: vk::PipelineStageFlags,
    src_access: vk::AccessFlags,
    dst_stages: vk::PipelineStageFlags,
    dst_access: vk::AccessFlags,
) -> [u64; 4] {
    [
        sync1::stages_1_to_2(src_stages).as_raw(),
        sync1::access_1_to_2(src_access).as_raw(),
        sync1::stages_1_to_2(dst_stages).as_raw(),
        sync1::access_1_to_2(dst_access).as_raw(),
    ]
}

/// `vkCreateRenderPass`'s create info as plain values.
///
/// # Safety
/// `i` is a valid `VkRenderPassCreateInfo`.
unsafe fn render_pass_info(i: &vk::RenderPassCreateInfo<'_>) -> RenderPassInfo {
    let mut r = RenderPassInfo::default();
    // Multiview: a view mask per subpass, a view offset per dependency
    // (a count of 0 means every mask or offset 0).
    let (mut view_masks, mut view_offsets): (Vec<u32>, Vec<i32>) = (Vec::new(), Vec::new());
    // SAFETY: a valid chain.
    if let Some(p) = unsafe { find_next(i.p_next, vk::StructureType::RENDER_PASS_MULTIVIEW_CREATE_INFO) } {
        // SAFETY: the structure type says what it is; its counted arrays
        // are valid.
        unsafe {
            let m = &*(p as *const vk::RenderPassMultiviewCreateInfo<'_>);
            view_masks = slice(m.p_view_masks, m.subpass_count).to_vec();
            view_offsets = slice(m.p_view_offsets, m.dependency_count).to_vec();
        }
    }
    if view_offsets.iter().any(|&o| o != 0) {
        r.refusal = Some("a view offset (VkRenderPassMultiviewCreateInfo::pViewOffsets)".into());
    }
    // SAFETY: a valid chain.
    if unsafe {
        find_next(
            i.p_next,
            vk::StructureType::RENDER_PASS_FRAGMENT_DENSITY_MAP_CREATE_INFO_EXT,
        )
    }
    .is_some()
    {
        r.refusal = Some("a fragment density map attachment".into());
    }
    // SAFETY: the counted arrays of a valid create info.
    unsafe {
        r.attachments = slice(i.p_attachments, i.attachment_count)
            .iter()
            .map(|a| {
                (
                    a.format,
                    a.load_op,
                    a.store_op,
                    a.stencil_load_op,
                    a.stencil_store_op,
                    a.initial_layout,
                    a.final_layout,
                )
            })
            .collect();
        for s in slice(i.p_subpasses, i.subpass_count) {
            if s.pipeline_bind_point != vk::PipelineBindPoint::GRAPHICS || !s.flags.is_empty() {
                r.refusal.get_or_insert(format!(
                    "a subpass with bind point {:?} and flags {:?}",
                    s.pipeline_bind_point, s.flags
                ));
            }
            let refs = |p: *const vk::AttachmentReference, n: u32| -> Vec<(u32, vk::ImageLayout)> {
                slice(p, n).iter().map(|a| (a.attachment, a.layout)).collect()
            };
            r.subpasses.push(SubpassInfo {
                inputs: refs(s.p_input_attachments, s.input_attachment_count),
                colors: refs(s.p_color_attachments, s.color_attachment_count),
                resolves: refs(s.p_resolve_attachments, s.color_attachment_count),
                depth: s
                    .p_depth_stencil_attachment
                    .as_ref()
                    .map(|a| (a.attachment, a.layout)),
                preserve: slice(s.p_preserve_attachments, s.preserve_attachment_count).to_vec(),
                view_mask: view_masks.get(r.subpasses.len()).copied().unwrap_or(0),
            });
        }
        r.dependencies = slice(i.p_dependencies, i.dependency_count)
            .iter()
            .map(|d| {
                (
                    d.src_subpass,
                    d.dst_subpass,
                    sync1_masks(
                        d.src_stage_mask,
                        d.src_access_mask,
                        d.dst_stage_mask,
                        d.dst_access_mask,
                    ),
                    d.dependency_flags,
                )
            })
            .collect();
    }
    r
}

/// `vkCreateRenderPass2`'s create info as plain values (a dependency's
/// `VkMemoryBarrier2` replaces its masks).
///
/// # Safety
/// `i` is a valid `VkRenderPassCreateInfo2`.
unsafe fn render_pass_info2(i: &vk::RenderPassCreateInfo2<'_>) -> RenderPassInfo {
    let mut r = RenderPassInfo::default();
    // SAFETY: a valid chain.
    if unsafe {
        find_next(
            i.p_next,
            vk::StructureType::RENDER_PASS_FRAGMENT_DENSITY_MAP_CREATE_INFO_EXT,
        )
    }
    .is_some()
    {
        r.refusal = Some("a fragment density map attachment".into());
    }
    // SAFETY: the counted arrays and chains of a valid create info.
    unsafe {
        for a in slice(i.p_attachments, i.attachment_count) {
            if find_next(a.p_next, vk::StructureType::ATTACHMENT_DESCRIPTION_STENCIL_LAYOUT).is_some() {
                r.refusal
                    .get_or_insert("separate stencil layouts (VkAttachmentDescriptionStencilLayout)".into());
            }
            r.attachments.push((
                a.format,
                a.load_op,
                a.store_op,
                a.stencil_load_op,
                a.stencil_store_op,
                a.initial_layout,
                a.final_layout,
            ));
        }
        for s in slice(i.p_subpasses, i.subpass_count) {
            if s.pipeline_bind_point != vk::PipelineBindPoint::GRAPHICS || !s.flags.is_empty() {
                r.refusal.get_or_insert(format!(
                    "a subpass with bind point {:?} and flags {:?}",
                    s.pipeline_bind_point, s.flags
                ));
            }
            if let Some(p) = find_next(
                s.p_next,
                vk::StructureType::SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE,
            ) {
                let res = &*(p as *const vk::SubpassDescriptionDepthStencilResolve<'_>);
                if res
                    .p_depth_stencil_resolve_attachment
                    .as_ref()
                    .is_some_and(|a| a.attachment != vk::ATTACHMENT_UNUSED)
                {
                    r.refusal
                        .get_or_insert("a depth/stencil resolve attachment".into());
                }
            }
            if find_next(
                s.p_next,
                vk::StructureType::FRAGMENT_SHADING_RATE_ATTACHMENT_INFO_KHR,
            )
            .is_some()
            {
                r.refusal
                    .get_or_insert("a fragment shading rate attachment".into());
            }
            let refs = |p: *const vk::AttachmentReference2<'_>, n: u32| -> Vec<(u32, vk::ImageLayout)> {
                slice(p, n).iter().map(|a| (a.attachment, a.layout)).collect()
            };
            r.subpasses.push(SubpassInfo {
                inputs: refs(s.p_input_attachments, s.input_attachment_count),
                colors: refs(s.p_color_attachments, s.color_attachment_count),
                resolves: refs(s.p_resolve_attachments, s.color_attachment_count),
                depth: s
                    .p_depth_stencil_attachment
                    .as_ref()
                    .map(|a| (a.attachment, a.layout)),
                preserve: slice(s.p_preserve_attachments, s.preserve_attachment_count).to_vec(),
                view_mask: s.view_mask,
            });
        }
        for d in slice(i.p_dependencies, i.dependency_count) {
            let masks = match find_next(d.p_next, vk::StructureType::MEMORY_BARRIER_2) {
                Some(p) => {
                    let b = &*(p as *const vk::MemoryBarrier2<'_>);
                    [
                        b.src_stage_mask.as_raw(),
                        b.src_access_mask.as_raw(),
                        b.dst_stage_mask.as_raw(),
                        b.dst_access_mask.as_raw(),
                    ]
                }
                None => sync1_masks(
                    d.src_stage_mask,
                    d.src_access_mask,
                    d.dst_stage_mask,
                    d.dst_access_mask,
                ),
            };
            if d.view_offset != 0 {
                r.refusal
                    .get_or_insert("a view offset (VkSubpassDependency2::viewOffset)".into());
            }
            r.dependencies
                .push((d.src_subpass, d.dst_subpass, masks, d.dependency_flags));
        }
    }
    r
}

/// A `VkRenderingAttachmentInfo` with a view, as plain values.
fn rendering_attachment(a: &vk::RenderingAttachmentInfo<'_>) -> Option<RenderingAttachment> {
    (!a.image_view.is_null()).then(|| RenderingAttachment {
        view: a.image_view.as_raw(),
        layout: a.image_layout,
        load: a.load_op,
        store: a.store_op,
        resolve: (a.resolve_mode != vk::ResolveModeFlags::NONE && !a.resolve_image_view.is_null())
            .then(|| (a.resolve_image_view.as_raw(), a.resolve_image_layout)),
    })
}

/// `vkCmdBeginRendering`'s info as plain values.
///
/// # Safety
/// `i` is a valid `VkRenderingInfo`.
unsafe fn rendering_info(i: &vk::RenderingInfo<'_>) -> RenderingInfo {
    // SAFETY: the counted color attachments and the optional depth and
    // stencil attachments of a valid VkRenderingInfo.
    unsafe {
        RenderingInfo {
            flags: i.flags,
            view_mask: i.view_mask,
            render_area: [
                i64::from(i.render_area.offset.x),
                i64::from(i.render_area.offset.y),
                i64::from(i.render_area.extent.width),
                i64::from(i.render_area.extent.height),
            ],
            layer_count: i.layer_count,
            colors: slice(i.p_color_attachments, i.color_attachment_count)
                .iter()
                .map(rendering_attachment)
                .collect(),
            depth: i.p_depth_attachment.as_ref().and_then(rendering_attachment),
            stencil: i.p_stencil_attachment.as_ref().and_then(rendering_attachment),
        }
    }
}

/// A `VkRenderPassBeginInfo`'s render pass, framebuffer and, for an
/// imageless framebuffer, the views of its `VkRenderPassAttachmentBeginInfo`.
///
/// # Safety
/// `i` is a valid `VkRenderPassBeginInfo`.
unsafe fn render_pass_begin(i: &vk::RenderPassBeginInfo<'_>) -> (u64, u64, Option<Vec<u64>>, [i64; 4]) {
    // SAFETY: a valid chain; the structure type says what it is, with its
    // counted views.
    let views = unsafe {
        find_next(i.p_next, vk::StructureType::RENDER_PASS_ATTACHMENT_BEGIN_INFO).map(|p| {
            let a = &*(p as *const vk::RenderPassAttachmentBeginInfo<'_>);
            slice(a.p_attachments, a.attachment_count)
                .iter()
                .map(|v| v.as_raw())
                .collect()
        })
    };
    let a = i.render_area;
    let area = [
        i64::from(a.offset.x),
        i64::from(a.offset.y),
        i64::from(a.extent.width),
        i64::from(a.extent.height),
    ];
    (i.render_pass.as_raw(), i.framebuffer.as_raw(), views, area)
}
