//! A small Vulkan program whose events the host sets (`vkSetEvent`) and
//! whose waits transition an image, for the capture layer's end-to-end
//! test (`cli/tests/capture.rs`,
//! `capturing_a_host_set_events_wait_with_a_transition`).
//!
//! Run it under the layer: `vksync capture -- target/debug/examples/host_event`.
//! Two submissions, each waited with a fence:
//!
//! 1. `vkCmdWaitEvents` (synchronization 1) of an event the host sets,
//!    with an image barrier `UNDEFINED -> TRANSFER_DST_OPTIMAL`
//!    (`HOST` -> `TRANSFER`), then a copy of buffer `a` (written by the
//!    host) into the image. The model performs a synchronization-1 wait's
//!    transition at the wait: a `wait-events1` line.
//! 2. `vkCmdWaitEvents2` of another event the host sets, with an image
//!    barrier `TRANSFER_DST_OPTIMAL -> TRANSFER_SRC_OPTIMAL`
//!    (`HOST:NONE -> COPY:TRANSFER_READ`), a copy of the image into buffer
//!    `d`, and a barrier to `HOST:HOST_READ`. The model refuses this wait
//!    (no command performs a host-set event's transition): the capture
//!    writes a `not-modelled` line.
//!
//! Each `vkSetEvent` comes after its command buffer is recorded and before
//! it is submitted. The program checks that `d` holds `a`'s words; it
//! prints nothing on success and exits with status 3 when there is no
//! device.

use ash::vk;

/// Bytes per buffer, and of the 8x8 `R32_UINT` image.
const SIZE: u64 = 256;

fn main() {
    if let Err(e) = run() {
        eprintln!("host_event: {e}");
        std::process::exit(if e.starts_with("no device") { 3 } else { 1 });
    }
}

fn run() -> Result<(), String> {
    let err = |what: &'static str| move |e: vk::Result| format!("{what}: {e}");
    // SAFETY: every call below is a plain use of the Vulkan API on objects
    // this function creates, in the order the API requires (each command
    // buffer recorded before it is submitted, each submission waited
    // before what it uses is read or destroyed); pointers given to Vulkan
    // point at locals that outlive the calls, and the mapped pointer is
    // read and written only within the mapped allocation (two buffers of
    // SIZE bytes, as u32 words).
    unsafe {
        let entry = ash::Entry::load().map_err(|e| format!("no device: {e}"))?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
        let instance = entry
            .create_instance(&vk::InstanceCreateInfo::default().application_info(&app), None)
            .map_err(|e| format!("no device: {e}"))?;
        let physical = *instance
            .enumerate_physical_devices()
            .map_err(err("vkEnumeratePhysicalDevices"))?
            .first()
            .ok_or("no device: none enumerated")?;
        let family = instance
            .get_physical_device_queue_family_properties(physical)
            .iter()
            .position(|f| {
                f.queue_flags
                    .contains(vk::QueueFlags::TRANSFER | vk::QueueFlags::COMPUTE)
            })
            .ok_or("no device: no transfer queue")? as u32;
        let priorities = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let mut sync2 = vk::PhysicalDeviceVulkan13Features::default().synchronization2(true);
        let device = instance
            .create_device(
                physical,
                &vk::DeviceCreateInfo::default()
                    .queue_create_infos(&queues)
                    .push_next(&mut sync2),
                None,
            )
            .map_err(err("vkCreateDevice"))?;
        let queue = device.get_device_queue(family, 0);

        // Buffers a and d in one host-visible coherent allocation, the
        // image in its own.
        let usage = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
        let a = device
            .create_buffer(&vk::BufferCreateInfo::default().size(SIZE).usage(usage), None)
            .map_err(err("vkCreateBuffer"))?;
        let d = device
            .create_buffer(&vk::BufferCreateInfo::default().size(SIZE).usage(usage), None)
            .map_err(err("vkCreateBuffer"))?;
        let image = device
            .create_image(
                &vk::ImageCreateInfo::default()
                    .image_type(vk::ImageType::TYPE_2D)
                    .format(vk::Format::R32_UINT)
                    .extent(vk::Extent3D {
                        width: 8,
                        height: 8,
                        depth: 1,
                    })
                    .mip_levels(1)
                    .array_layers(1)
                    .samples(vk::SampleCountFlags::TYPE_1)
                    .tiling(vk::ImageTiling::OPTIMAL)
                    .usage(vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST),
                None,
            )
            .map_err(err("vkCreateImage"))?;
        let props = instance.get_physical_device_memory_properties(physical);
        let find = |bits: u32, wanted: vk::MemoryPropertyFlags| {
            (0..props.memory_type_count).find(|&i| {
                bits & (1 << i) != 0 && props.memory_types[i as usize].property_flags.contains(wanted)
            })
        };
        let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let buffer_type = find(device.get_buffer_memory_requirements(a).memory_type_bits, host)
            .ok_or("no host-visible coherent memory type for the buffers")?;
        let image_req = device.get_image_memory_requirements(image);
        let image_type = find(image_req.memory_type_bits, vk::MemoryPropertyFlags::DEVICE_LOCAL)
            .or_else(|| find(image_req.memory_type_bits, vk::MemoryPropertyFlags::empty()))
            .ok_or("no memory type for the image")?;
        let memory = device
            .allocate_memory(
                &vk::MemoryAllocateInfo::default()
                    .allocation_size(2 * SIZE)
                    .memory_type_index(buffer_type),
                None,
            )
            .map_err(err("vkAllocateMemory"))?;
        let image_memory = device
            .allocate_memory(
                &vk::MemoryAllocateInfo::default()
                    .allocation_size(image_req.size)
                    .memory_type_index(image_type),
                None,
            )
            .map_err(err("vkAllocateMemory"))?;
        device
            .bind_buffer_memory(a, memory, 0)
            .map_err(err("vkBindBufferMemory"))?;
        device
            .bind_buffer_memory(d, memory, SIZE)
            .map_err(err("vkBindBufferMemory"))?;
        device
            .bind_image_memory(image, image_memory, 0)
            .map_err(err("vkBindImageMemory"))?;
        let mapped = device
            .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
            .map_err(err("vkMapMemory"))?
            .cast::<u32>();
        for i in 0..(SIZE / 4) as usize {
            *mapped.add(i) = 1000 + i as u32;
        }

        let cb_pool = device
            .create_command_pool(
                &vk::CommandPoolCreateInfo::default().queue_family_index(family),
                None,
            )
            .map_err(err("vkCreateCommandPool"))?;
        let cbs = device
            .allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(cb_pool)
                    .level(vk::CommandBufferLevel::PRIMARY)
                    .command_buffer_count(2),
            )
            .map_err(err("vkAllocateCommandBuffers"))?;
        let events = [0, 1]
            .map(|_| device.create_event(&vk::EventCreateInfo::default(), None))
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .map_err(err("vkCreateEvent"))?;
        let fence = device
            .create_fence(&vk::FenceCreateInfo::default(), None)
            .map_err(err("vkCreateFence"))?;
        let subresource = vk::ImageSubresourceRange::default()
            .aspect_mask(vk::ImageAspectFlags::COLOR)
            .level_count(1)
            .layer_count(1);
        let copy = [vk::BufferImageCopy::default()
            .image_subresource(
                vk::ImageSubresourceLayers::default()
                    .aspect_mask(vk::ImageAspectFlags::COLOR)
                    .layer_count(1),
            )
            .image_extent(vk::Extent3D {
                width: 8,
                height: 8,
                depth: 1,
            })];
        // Sets `event` on the host after `cb` is recorded, submits it and
        // waits for it.
        let run = |cb: vk::CommandBuffer, event: vk::Event| -> Result<(), String> {
            device.set_event(event).map_err(err("vkSetEvent"))?;
            let cbs = [cb];
            device
                .queue_submit(queue, &[vk::SubmitInfo::default().command_buffers(&cbs)], fence)
                .map_err(err("vkQueueSubmit"))?;
            device
                .wait_for_fences(&[fence], true, u64::MAX)
                .map_err(err("vkWaitForFences"))?;
            device.reset_fences(&[fence]).map_err(err("vkResetFences"))
        };

        // 1. Synchronization 1: the wait transitions the image for the copy.
        let cb = cbs[0];
        device
            .begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default())
            .map_err(err("vkBeginCommandBuffer"))?;
        let to_dst = [vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::empty())
            .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(image)
            .subresource_range(subresource)];
        device.cmd_wait_events(
            cb,
            &events[..1],
            vk::PipelineStageFlags::HOST,
            vk::PipelineStageFlags::TRANSFER,
            &[],
            &[],
            &to_dst,
        );
        device.cmd_copy_buffer_to_image(cb, a, image, vk::ImageLayout::TRANSFER_DST_OPTIMAL, &copy);
        device.end_command_buffer(cb).map_err(err("vkEndCommandBuffer"))?;
        run(cb, events[0])?;

        // 2. Synchronization 2: the wait transitions the image for the copy
        // back; the copy's write made visible to the host.
        let cb = cbs[1];
        device
            .begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default())
            .map_err(err("vkBeginCommandBuffer"))?;
        let to_src = [vk::ImageMemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::HOST)
            .src_access_mask(vk::AccessFlags2::NONE)
            .dst_stage_mask(vk::PipelineStageFlags2::COPY)
            .dst_access_mask(vk::AccessFlags2::TRANSFER_READ)
            .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .new_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(image)
            .subresource_range(subresource)];
        let dependency = vk::DependencyInfo::default().image_memory_barriers(&to_src);
        device.cmd_wait_events2(cb, &events[1..], std::slice::from_ref(&dependency));
        device.cmd_copy_image_to_buffer(cb, image, vk::ImageLayout::TRANSFER_SRC_OPTIMAL, d, &copy);
        let to_host = [vk::BufferMemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::COPY)
            .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags2::HOST)
            .dst_access_mask(vk::AccessFlags2::HOST_READ)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .buffer(d)
            .size(vk::WHOLE_SIZE)];
        device.cmd_pipeline_barrier2(
            cb,
            &vk::DependencyInfo::default().buffer_memory_barriers(&to_host),
        );
        device.end_command_buffer(cb).map_err(err("vkEndCommandBuffer"))?;
        run(cb, events[1])?;

        // d holds a's words.
        let words = std::slice::from_raw_parts(mapped.add((SIZE / 4) as usize), (SIZE / 4) as usize);
        if words.iter().enumerate().any(|(i, &w)| w != 1000 + i as u32) {
            return Err(format!("the image round trip gave {:?}", &words[..4]));
        }

        device.destroy_fence(fence, None);
        for e in events {
            device.destroy_event(e, None);
        }
        device.destroy_command_pool(cb_pool, None);
        device.unmap_memory(memory);
        device.destroy_image(image, None);
        device.destroy_buffer(a, None);
        device.destroy_buffer(d, None);
        device.free_memory(memory, None);
        device.free_memory(image_memory, None);
        device.destroy_device(None);
        instance.destroy_instance(None);
    }
    Ok(())
}
