//! A small Vulkan program that makes the calls the runtime never makes,
//! for the capture layer's end-to-end test (`cli/tests/capture.rs`):
//! `vkCmdCopyBuffer2`, `vkCmdDispatchBase`, a secondary command buffer run
//! by `vkCmdExecuteCommands`, and images (a layout transition, copies
//! between a buffer and an image).
//!
//! Run it under the layer: `vksync capture -- target/debug/examples/calls`.
//! What it records (one submission), and the one hazard it contains on
//! purpose:
//!
//! 1. the host writes `a` (mapped, coherent);
//! 2. `vkCmdCopyBuffer2` copies `a` to `b`; an event set after it and
//!    waited (`vkCmdSetEvent2`, `vkCmdWaitEvents2`) orders it before
//! 3. `vkCmdDispatchBase`, which reads `b` and writes `c`;
//! 4. a secondary command buffer fills `c` with no barrier after the
//!    dispatch: a write-after-write, which `vksync check` must report at
//!    the fill;
//! 5. an image bound after the buffers: a barrier with a layout transition
//!    (UNDEFINED to TRANSFER_DST_OPTIMAL) after the fill, a copy of `a`
//!    into it, a transition to TRANSFER_SRC_OPTIMAL, a copy back into `d`;
//! 6. a synchronization-1 split barrier to the host: `vkCmdSetEvent` with
//!    the transfer and compute stages, `vkCmdWaitEvents` making their
//!    writes available and visible to `HOST_READ`; submit, wait.
//!
//! It uses the first device and a queue family with compute; it prints
//! nothing on success and exits with status 3 when there is no device.

use ash::vk;

const SHADER: &str = r#"#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint x[]; } src;
layout(set = 0, binding = 1) buffer Out { uint y[]; } dst;
void main() {
    uint i = gl_GlobalInvocationID.x;
    dst.y[i] = src.x[i] + 1u;
}
"#;

/// Bytes per buffer; the buffers lie back to back in one allocation.
const SIZE: u64 = 256;

fn spirv() -> Vec<u32> {
    let mut frontend = naga::front::glsl::Frontend::default();
    let options = naga::front::glsl::Options::from(naga::ShaderStage::Compute);
    let module = frontend.parse(&options, SHADER).expect("the shader parses");
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .expect("the shader validates");
    let pipeline = naga::back::spv::PipelineOptions {
        shader_stage: naga::ShaderStage::Compute,
        entry_point: "main".to_string(),
    };
    naga::back::spv::write_vec(&module, &info, &Default::default(), Some(&pipeline)).expect("SPIR-V out")
}

fn main() {
    if let Err(e) = run() {
        eprintln!("calls: {e}");
        std::process::exit(if e.starts_with("no device") { 3 } else { 1 });
    }
}

fn run() -> Result<(), String> {
    let err = |what: &'static str| move |e: vk::Result| format!("{what}: {e}");
    // SAFETY: every call below is a plain use of the Vulkan API on objects
    // this function creates, in the order the API requires; pointers given
    // to Vulkan point at locals that outlive the calls.
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
            .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
            .ok_or("no device: no compute queue")? as u32;
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

        // Four buffers and one image.
        let usage = vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::TRANSFER_SRC
            | vk::BufferUsageFlags::TRANSFER_DST;
        let buffers: Vec<vk::Buffer> = (0..4)
            .map(|_| device.create_buffer(&vk::BufferCreateInfo::default().size(SIZE).usage(usage), None))
            .collect::<Result<_, _>>()
            .map_err(err("vkCreateBuffer"))?;
        let (a, b, c, d) = (buffers[0], buffers[1], buffers[2], buffers[3]);
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
        // The buffers in one host-visible coherent allocation, the image in
        // its own (drivers rarely let an optimally tiled image be mapped).
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
                    .allocation_size(4 * SIZE)
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
        for (k, buf) in buffers.iter().enumerate() {
            device
                .bind_buffer_memory(*buf, memory, k as u64 * SIZE)
                .map_err(err("vkBindBufferMemory"))?;
        }
        device
            .bind_image_memory(image, image_memory, 0)
            .map_err(err("vkBindImageMemory"))?;
        let mapped = device
            .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
            .map_err(err("vkMapMemory"))?
            .cast::<u32>();

        // The pipeline: set 0 = (b read, c written).
        let code = spirv();
        let module = device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&code), None)
            .map_err(err("vkCreateShaderModule"))?;
        let bindings: Vec<_> = (0..2)
            .map(|i| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(i)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        let set_layout = device
            .create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            )
            .map_err(err("vkCreateDescriptorSetLayout"))?;
        let set_layouts = [set_layout];
        let layout = device
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts),
                None,
            )
            .map_err(err("vkCreatePipelineLayout"))?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let pipeline = device
            .create_compute_pipelines(
                vk::PipelineCache::null(),
                &[vk::ComputePipelineCreateInfo::default()
                    .stage(stage)
                    .layout(layout)
                    .flags(vk::PipelineCreateFlags::DISPATCH_BASE)],
                None,
            )
            .map_err(|(_, e)| format!("vkCreateComputePipelines: {e}"))?[0];
        let sizes = [vk::DescriptorPoolSize {
            ty: vk::DescriptorType::STORAGE_BUFFER,
            descriptor_count: 2,
        }];
        let pool = device
            .create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(1)
                    .pool_sizes(&sizes),
                None,
            )
            .map_err(err("vkCreateDescriptorPool"))?;
        let set = device
            .allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(pool)
                    .set_layouts(&set_layouts),
            )
            .map_err(err("vkAllocateDescriptorSets"))?[0];
        let infos = [b, c].map(|buf| {
            [vk::DescriptorBufferInfo::default()
                .buffer(buf)
                .range(vk::WHOLE_SIZE)]
        });
        let writes: Vec<_> = infos
            .iter()
            .enumerate()
            .map(|(i, info)| {
                vk::WriteDescriptorSet::default()
                    .dst_set(set)
                    .dst_binding(i as u32)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .buffer_info(info)
            })
            .collect();
        device.update_descriptor_sets(&writes, &[]);

        let cb_pool = device
            .create_command_pool(
                &vk::CommandPoolCreateInfo::default().queue_family_index(family),
                None,
            )
            .map_err(err("vkCreateCommandPool"))?;
        let allocate = |level, n| {
            device.allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(cb_pool)
                    .level(level)
                    .command_buffer_count(n),
            )
        };
        let primary =
            allocate(vk::CommandBufferLevel::PRIMARY, 1).map_err(err("vkAllocateCommandBuffers"))?[0];
        let secondary =
            allocate(vk::CommandBufferLevel::SECONDARY, 1).map_err(err("vkAllocateCommandBuffers"))?[0];

        // The secondary: fill c.
        let inheritance = vk::CommandBufferInheritanceInfo::default();
        device
            .begin_command_buffer(
                secondary,
                &vk::CommandBufferBeginInfo::default().inheritance_info(&inheritance),
            )
            .map_err(err("vkBeginCommandBuffer"))?;
        device.cmd_fill_buffer(secondary, c, 0, SIZE, 7);
        device
            .end_command_buffer(secondary)
            .map_err(err("vkEndCommandBuffer"))?;

        // 1. The host writes a.
        for i in 0..(SIZE / 4) as usize {
            *mapped.add(i) = i as u32;
        }
        device
            .begin_command_buffer(primary, &vk::CommandBufferBeginInfo::default())
            .map_err(err("vkBeginCommandBuffer"))?;
        // 2. Copy a to b with vkCmdCopyBuffer2.
        let region = [vk::BufferCopy2::default().size(SIZE)];
        device.cmd_copy_buffer2(
            primary,
            &vk::CopyBufferInfo2::default()
                .src_buffer(a)
                .dst_buffer(b)
                .regions(&region),
        );
        // A split barrier: set right after the copy, waited right before
        // the dispatch.
        let copied = [vk::MemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::COPY)
            .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)
            .dst_access_mask(vk::AccessFlags2::SHADER_STORAGE_READ)];
        let copied = vk::DependencyInfo::default().memory_barriers(&copied);
        let event = device
            .create_event(&vk::EventCreateInfo::default(), None)
            .map_err(err("vkCreateEvent"))?;
        device.cmd_set_event2(primary, event, &copied);
        device.cmd_wait_events2(primary, &[event], std::slice::from_ref(&copied));
        // 3. vkCmdDispatchBase: reads b, writes c.
        device.cmd_bind_pipeline(primary, vk::PipelineBindPoint::COMPUTE, pipeline);
        device.cmd_bind_descriptor_sets(primary, vk::PipelineBindPoint::COMPUTE, layout, 0, &[set], &[]);
        device.cmd_dispatch_base(primary, 0, 0, 0, 1, 1, 1);
        // 4. The secondary fills c: no barrier after the dispatch.
        device.cmd_execute_commands(primary, &[secondary]);
        // 5. The image: transitions and copies, ordered after the fill.
        let subresource = vk::ImageSubresourceRange::default()
            .aspect_mask(vk::ImageAspectFlags::COLOR)
            .level_count(1)
            .layer_count(1);
        let transition = |src_stage, src_access, dst_stage, dst_access, old, new| {
            let b = [vk::ImageMemoryBarrier2::default()
                .src_stage_mask(src_stage)
                .src_access_mask(src_access)
                .dst_stage_mask(dst_stage)
                .dst_access_mask(dst_access)
                .old_layout(old)
                .new_layout(new)
                .image(image)
                .subresource_range(subresource)];
            device.cmd_pipeline_barrier2(primary, &vk::DependencyInfo::default().image_memory_barriers(&b));
        };
        transition(
            vk::PipelineStageFlags2::CLEAR,
            vk::AccessFlags2::TRANSFER_WRITE,
            vk::PipelineStageFlags2::COPY,
            vk::AccessFlags2::TRANSFER_WRITE,
            vk::ImageLayout::UNDEFINED,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
        );
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
        device.cmd_copy_buffer_to_image(primary, a, image, vk::ImageLayout::TRANSFER_DST_OPTIMAL, &copy);
        transition(
            vk::PipelineStageFlags2::COPY,
            vk::AccessFlags2::TRANSFER_WRITE,
            vk::PipelineStageFlags2::COPY,
            vk::AccessFlags2::TRANSFER_READ,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
        );
        device.cmd_copy_image_to_buffer(primary, image, vk::ImageLayout::TRANSFER_SRC_OPTIMAL, d, &copy);
        // 6. To the host, through a synchronization-1 event: the set
        // names the stages only, the wait gives the access masks.
        let written = vk::PipelineStageFlags::TRANSFER | vk::PipelineStageFlags::COMPUTE_SHADER;
        let to_host = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE | vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        let done = device
            .create_event(&vk::EventCreateInfo::default(), None)
            .map_err(err("vkCreateEvent"))?;
        device.cmd_set_event(primary, done, written);
        device.cmd_wait_events(
            primary,
            &[done],
            written,
            vk::PipelineStageFlags::HOST,
            &to_host,
            &[],
            &[],
        );
        device
            .end_command_buffer(primary)
            .map_err(err("vkEndCommandBuffer"))?;
        let cbs = [primary];
        let fence = device
            .create_fence(&vk::FenceCreateInfo::default(), None)
            .map_err(err("vkCreateFence"))?;
        device
            .queue_submit(queue, &[vk::SubmitInfo::default().command_buffers(&cbs)], fence)
            .map_err(err("vkQueueSubmit"))?;
        device
            .wait_for_fences(&[fence], true, u64::MAX)
            .map_err(err("vkWaitForFences"))?;
        // The image round trip: d holds a's words.
        let d_words = std::slice::from_raw_parts(mapped.add((3 * SIZE / 4) as usize), (SIZE / 4) as usize);
        if d_words.iter().enumerate().any(|(i, &w)| w != i as u32) {
            return Err(format!("the image round trip gave {:?}", &d_words[..4]));
        }

        device.destroy_fence(fence, None);
        device.destroy_event(event, None);
        device.destroy_event(done, None);
        device.destroy_command_pool(cb_pool, None);
        device.destroy_descriptor_pool(pool, None);
        device.destroy_pipeline(pipeline, None);
        device.destroy_pipeline_layout(layout, None);
        device.destroy_descriptor_set_layout(set_layout, None);
        device.destroy_shader_module(module, None);
        device.unmap_memory(memory);
        device.destroy_image(image, None);
        for buf in buffers {
            device.destroy_buffer(buf, None);
        }
        device.free_memory(memory, None);
        device.free_memory(image_memory, None);
        device.destroy_device(None);
        instance.destroy_instance(None);
    }
    Ok(())
}
