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
        // An unknown type is taken as coherent (diffed at submissions).
        if d.memory_types
            .get(ty as usize)
            .is_some_and(|f| !f.contains(vk::MemoryPropertyFlags::HOST_COHERENT))
        {
            d.non_coherent.insert(mem);
            d.capture.set_non_coherent(mem);
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
            d.capture.shader_resources(module, res.entry_points);
        }
    };
    after create_set_layout ["vkCreateDescriptorSetLayout"] "Capture::create_set_layout"
    fn(device: vk::Device, info: *const vk::DescriptorSetLayoutCreateInfo<'_>, alloc: Alloc<'_>, out: *mut vk::DescriptorSetLayout) -> vk::Result
    |d, seq, call| {
        // SAFETY: valid create info; `*out` written on success.
        let (layout, bindings) = unsafe {
            let i = &*info;
            let b: Vec<_> = slice(i.p_bindings, i.binding_count)
                .iter()
                .map(|b| (b.binding, b.descriptor_type, b.descriptor_count))
                .collect();
            ((*out).as_raw(), b)
        };
        d.capture.create_set_layout(layout, bindings)
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
    where (bp == vk::PipelineBindPoint::COMPUTE)
    |d, seq, call| {
        // SAFETY: `n` valid writes (their dst_set is ignored for pushes).
        let ws = unsafe { push_writes(writes, n) };
        d.capture.push_descriptors(cb.as_raw(), seq, "vkCmdPushDescriptorSetKHR", layout.as_raw(), set, &ws)
    };
    before push_descriptor_set_with_template ["vkCmdPushDescriptorSetWithTemplate", "vkCmdPushDescriptorSetWithTemplateKHR"] "Capture::push_descriptors through the template"
    fn(cb: vk::CommandBuffer, template: vk::DescriptorUpdateTemplate, layout: vk::PipelineLayout, set: u32, data: *const c_void)
    |d, seq, call| push_through_template(d, cb, seq, "vkCmdPushDescriptorSetWithTemplateKHR", template, layout, set, data);
    /// As `vkCmdPushDescriptorSetKHR`, for the compute stage when
    /// `stageFlags` has it (the set is pushed for every stage named; the
    /// model sees only dispatches).
    before push_descriptor_set2 ["vkCmdPushDescriptorSet2", "vkCmdPushDescriptorSet2KHR"] "Capture::push_descriptors (compute in stageFlags)"
    fn(cb: vk::CommandBuffer, info: *const vk::PushDescriptorSetInfoKHR<'_>)
    // SAFETY: a valid VkPushDescriptorSetInfo.
    where (unsafe { (*info).stage_flags }.contains(vk::ShaderStageFlags::COMPUTE))
    |d, seq, call| {
        // SAFETY: a valid VkPushDescriptorSetInfo with
        // `descriptor_write_count` valid writes.
        let (i, ws) = unsafe { (&*info, push_writes((*info).p_descriptor_writes, (*info).descriptor_write_count)) };
        d.capture.push_descriptors(cb.as_raw(), seq, call, i.layout.as_raw(), i.set, &ws)
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
    where (bp == vk::PipelineBindPoint::COMPUTE)
    |d, seq, call| {
        // SAFETY: `n` set handles and `nd` offsets.
        let (s, o): (Vec<u64>, &[u32]) =
            unsafe { (slice(sets, n).iter().map(|s| s.as_raw()).collect(), slice(dynamic, nd)) };
        d.capture.bind_sets(cb.as_raw(), seq, first, &s, o)
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
    before update_buffer ["vkCmdUpdateBuffer"] "Capture::update_buffer (`update`)"
    fn(cb: vk::CommandBuffer, dst: vk::Buffer, offset: u64, size: u64, data: *const c_void)
    |d, seq, call| d.capture.update_buffer(cb.as_raw(), seq, dst.as_raw(), offset, size);
    before blit_image ["vkCmdBlitImage"] "Capture::blit_image (`blit-image`; an image declared coarsely: not-modelled)"
    fn(cb: vk::CommandBuffer, src: vk::Image, src_layout: vk::ImageLayout, dst: vk::Image, dst_layout: vk::ImageLayout, n: u32, regions: *const vk::ImageBlit, filter: vk::Filter)
    // SAFETY: `n` regions.
    |d, seq, call| d.capture.blit_image(cb.as_raw(), seq, call, (src.as_raw(), src_layout), (dst.as_raw(), dst_layout), unsafe { slice(regions, n) });
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
        d.capture.blit_image(cb.as_raw(), seq, call, (i.src_image.as_raw(), i.src_image_layout), (i.dst_image.as_raw(), i.dst_image_layout), &rs)
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
        .push_descriptors(cb.as_raw(), seq, call, layout.as_raw(), set, &ws);
}
