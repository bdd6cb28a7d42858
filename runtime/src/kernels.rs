//! Compute pipelines for the kernels of [`vksync::reference::Kernel`], and
//! the graphics pipelines of draws (the `rect` vertex kernel and the
//! `flat` fragment kernel of `vksync::reference::Rect`).
//!
//! This module owns the SPIR-V (compiled from `shaders/*.comp` by
//! `build.rs`), one descriptor-set layout, pipeline layout and pipeline per
//! kernel (storage buffers, or storage images for an image kernel:
//! [`vksync::reference::Kernel::is_image`]), and the push-constant block
//! the shaders share. It does not
//! decide what a dispatch binds (that is the recorder's), and the kernels'
//! meaning is defined once in `vksync::reference`. Graphics pipelines are
//! made on first use, one per [`GraphicsKey`] (attachment counts, the
//! depth and color write state and the vertex stride), and live as long as
//! the compute pipelines.

use crate::error::{Result, VkContext};
use ash::vk;
use vksync::reference::Kernel;

/// Invocations per workgroup (`local_size_x` in every buffer kernel's
/// shader).
pub const WORKGROUP_SIZE: u64 = 64;

/// An image kernel's workgroup is `IMAGE_TILE` x `IMAGE_TILE` texels of
/// one layer (`local_size_x`, `local_size_y`; 64 invocations too).
pub const IMAGE_TILE: u32 = 8;

/// The shaders' push-constant block: `a, b, n, off0, off1, off2` (all
/// `uint`); `off_k` is binding k's first element within its descriptor
/// range, which starts at an offset rounded down to the device's
/// `minStorageBufferOffsetAlignment`.
pub const PUSH_CONSTANT_WORDS: usize = 6;

/// The most storage buffers a kernel binds: one offset word each in the
/// push-constant block, after `a, b, n`.
pub const MAX_BINDINGS: usize = PUSH_CONSTANT_WORDS - 3;

const SPIRV: [(&str, &[u8]); 7] = [
    (
        "scale_add",
        include_bytes!(concat!(env!("OUT_DIR"), "/scale_add.spv")),
    ),
    ("add", include_bytes!(concat!(env!("OUT_DIR"), "/add.spv"))),
    ("scale", include_bytes!(concat!(env!("OUT_DIR"), "/scale.spv"))),
    ("slow", include_bytes!(concat!(env!("OUT_DIR"), "/slow.spv"))),
    (
        "image_scale_add",
        include_bytes!(concat!(env!("OUT_DIR"), "/image_scale_add.spv")),
    ),
    (
        "image_slow",
        include_bytes!(concat!(env!("OUT_DIR"), "/image_slow.spv")),
    ),
    (
        "image_sampled_scale_add",
        include_bytes!(concat!(env!("OUT_DIR"), "/image_sampled_scale_add.spv")),
    ),
];

/// The descriptor type of a kernel binding of access `a`: the one home of
/// this mapping for the set layouts, the pools and the writes.
pub(crate) fn descriptor_type(a: vksync::BindingAccess) -> vk::DescriptorType {
    use vksync::BindingAccess as B;
    match a {
        B::Read | B::Write | B::ReadWrite => vk::DescriptorType::STORAGE_BUFFER,
        B::Uniform => vk::DescriptorType::UNIFORM_BUFFER,
        B::Sampled => vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
        B::ImageRead | B::ImageWrite | B::ImageReadWrite => vk::DescriptorType::STORAGE_IMAGE,
        B::SampledImage(_) => vk::DescriptorType::SAMPLED_IMAGE,
    }
}

/// The `rect` vertex kernel.
const RECT_SPIRV: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/rect.spv"));

/// The `flat` fragment kernel for 0 to 4 color attachments.
const FLAT_SPIRV: [&[u8]; vksync::reference::MAX_RECT_COLORS + 1] = [
    include_bytes!(concat!(env!("OUT_DIR"), "/flat0.spv")),
    include_bytes!(concat!(env!("OUT_DIR"), "/flat1.spv")),
    include_bytes!(concat!(env!("OUT_DIR"), "/flat2.spv")),
    include_bytes!(concat!(env!("OUT_DIR"), "/flat3.spv")),
    include_bytes!(concat!(env!("OUT_DIR"), "/flat4.spv")),
];

/// What a draw's graphics pipeline depends on: the rendering instance's
/// `R32_UINT` color attachments and `D32_SFLOAT` depth attachment, the
/// draw's depth test and write, color writes, and its per-instance vertex
/// stride.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct GraphicsKey {
    pub colors: usize,
    pub depth: bool,
    pub depth_test: bool,
    pub depth_write: bool,
    pub color_write: bool,
    pub stride: u32,
}

/// One kernel's pipeline objects.
pub(crate) struct Pipeline {
    pub set_layout: vk::DescriptorSetLayout,
    pub layout: vk::PipelineLayout,
    pub pipeline: vk::Pipeline,
    pub bindings: usize,
    /// Its bindings are image views (else storage buffers).
    pub images: bool,
    /// Each binding's descriptor type ([`descriptor_type`] of the kernel's
    /// signature).
    pub types: Vec<vk::DescriptorType>,
}

/// Every kernel's pipeline, destroyed on drop.
pub(crate) struct Kernels {
    device: ash::Device,
    pipelines: Vec<(&'static str, Pipeline)>,
    /// The layout of every graphics pipeline: no descriptors, the render
    /// area's size as two floats of push constants for the vertex stage.
    graphics_layout: vk::PipelineLayout,
    /// Graphics pipelines made so far.
    graphics: std::cell::RefCell<Vec<(GraphicsKey, vk::Pipeline)>>,
}

impl Kernels {
    pub(crate) fn new(device: &ash::Device) -> Result<Kernels> {
        let mut k = Kernels {
            device: device.clone(),
            pipelines: Vec::new(),
            graphics_layout: vk::PipelineLayout::null(),
            graphics: Default::default(),
        };
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::VERTEX)
            .offset(0)
            .size(8)];
        // SAFETY: valid device and create info that outlives the call.
        k.graphics_layout = unsafe {
            device.create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges),
                None,
            )
        }
        .ctx("vkCreatePipelineLayout")?;
        for (name, spv) in SPIRV {
            // The kernel table says how many buffers each kernel binds.
            // Invariant: every shader is named after a kernel of the table
            // (a unit test checks it).
            let kernel = Kernel::from_name(name, &[]).expect("a shader for a known kernel");
            let types: Vec<vk::DescriptorType> =
                kernel.signature().iter().map(|&a| descriptor_type(a)).collect();
            // Pushed one at a time so `Drop` cleans up on a later failure.
            let p = k.create(spv, types, kernel.is_image())?;
            k.pipelines.push((name, p));
        }
        Ok(k)
    }

    fn create(&self, spv: &[u8], types: Vec<vk::DescriptorType>, images: bool) -> Result<Pipeline> {
        let bindings = types.len();
        let d = &self.device;
        let words: Vec<u32> = spv
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let layout_bindings: Vec<_> = types
            .iter()
            .enumerate()
            .map(|(b, &ty)| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b as u32)
                    .descriptor_type(ty)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        let mut p = Pipeline {
            set_layout: vk::DescriptorSetLayout::null(),
            layout: vk::PipelineLayout::null(),
            pipeline: vk::Pipeline::null(),
            bindings,
            images,
            types,
        };
        // Each step destroys what the earlier ones made if it fails.
        let cleanup = |p: &Pipeline| self.destroy(p);
        // SAFETY: valid device and create info that outlives the call.
        p.set_layout = unsafe {
            d.create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&layout_bindings),
                None,
            )
        }
        .ctx("vkCreateDescriptorSetLayout")?;
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .offset(0)
            .size((PUSH_CONSTANT_WORDS * 4) as u32)];
        let set_layouts = [p.set_layout];
        // SAFETY: as above; the set layout is live.
        p.layout = match unsafe {
            d.create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default()
                    .set_layouts(&set_layouts)
                    .push_constant_ranges(&ranges),
                None,
            )
        } {
            Ok(l) => l,
            Err(e) => {
                cleanup(&p);
                return Err(e).ctx("vkCreatePipelineLayout");
            }
        };
        // SAFETY: `words` is SPIR-V produced and validated by naga at build time.
        let module = match unsafe {
            d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None)
        } {
            Ok(m) => m,
            Err(e) => {
                cleanup(&p);
                return Err(e).ctx("vkCreateShaderModule");
            }
        };
        let info = vk::ComputePipelineCreateInfo::default()
            .stage(
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::COMPUTE)
                    .module(module)
                    .name(c"main"),
            )
            .layout(p.layout);
        // SAFETY: module and layout are live; the info outlives the call.
        let created = unsafe { d.create_compute_pipelines(vk::PipelineCache::null(), &[info], None) };
        // SAFETY: a shader module may be destroyed once pipelines are created.
        unsafe { d.destroy_shader_module(module, None) };
        match created {
            Ok(v) => p.pipeline = v[0],
            Err((_, e)) => {
                cleanup(&p);
                return Err(e).ctx("vkCreateComputePipelines");
            }
        }
        Ok(p)
    }

    fn destroy(&self, p: &Pipeline) {
        // SAFETY: the handles were created on this device and no pending
        // work uses them: `Drop for Device` waits idle before calling
        // `destroy_all`, and `create` destroys only objects it just made.
        // vkDestroy* ignores null handles.
        unsafe {
            self.device.destroy_pipeline(p.pipeline, None);
            self.device.destroy_pipeline_layout(p.layout, None);
            self.device.destroy_descriptor_set_layout(p.set_layout, None);
        }
    }

    /// The pipeline of a kernel.
    pub(crate) fn get(&self, kernel: Kernel) -> &Pipeline {
        let name = kernel.name();
        // Invariant: `new` created a pipeline for every `Kernel` variant.
        &self
            .pipelines
            .iter()
            .find(|(n, _)| *n == name)
            .expect("a pipeline for every kernel")
            .1
    }
}

impl Kernels {
    /// Destroys every pipeline (idempotent: the lists are emptied). Called by
    /// `Drop for Device` after waiting idle, so before the device goes.
    pub(crate) fn destroy_all(&mut self) {
        for (_, p) in std::mem::take(&mut self.pipelines) {
            self.destroy(&p);
        }
        // SAFETY: as in `destroy`: no pending work uses them; null handles
        // are ignored.
        unsafe {
            for (_, p) in std::mem::take(self.graphics.get_mut()) {
                self.device.destroy_pipeline(p, None);
            }
            self.device.destroy_pipeline_layout(self.graphics_layout, None);
        }
        self.graphics_layout = vk::PipelineLayout::null();
    }

    /// The graphics pipeline of `key` and its layout, made on first use.
    pub(crate) fn graphics(&self, key: GraphicsKey) -> Result<(vk::Pipeline, vk::PipelineLayout)> {
        if let Some((_, p)) = self.graphics.borrow().iter().find(|(k, _)| *k == key) {
            return Ok((*p, self.graphics_layout));
        }
        let d = &self.device;
        let module = |spv: &[u8]| {
            let words: Vec<u32> = spv
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            // SAFETY: `words` is SPIR-V produced and validated by naga at
            // build time.
            unsafe { d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None) }
                .ctx("vkCreateShaderModule")
        };
        let vertex = module(RECT_SPIRV)?;
        let fragment = match module(FLAT_SPIRV[key.colors]) {
            Ok(m) => m,
            Err(e) => {
                // SAFETY: just made, used by nothing.
                unsafe { d.destroy_shader_module(vertex, None) };
                return Err(e);
            }
        };
        let stages = [
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::VERTEX)
                .module(vertex)
                .name(c"main"),
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(fragment)
                .name(c"main"),
        ];
        let bindings = [vk::VertexInputBindingDescription::default()
            .binding(0)
            .stride(key.stride)
            .input_rate(vk::VertexInputRate::INSTANCE)];
        let attributes = [vk::VertexInputAttributeDescription::default()
            .location(0)
            .binding(0)
            .format(vk::Format::R32G32B32A32_UINT)
            .offset(0)];
        let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&bindings)
            .vertex_attribute_descriptions(&attributes);
        let assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
        let viewport = vk::PipelineViewportStateCreateInfo::default()
            .viewport_count(1)
            .scissor_count(1);
        let raster = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(vk::CullModeFlags::NONE)
            .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
            .line_width(1.0);
        let multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let depth_test = key.depth && key.depth_test;
        let depth = vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(depth_test)
            .depth_write_enable(depth_test && key.depth_write)
            .depth_compare_op(vk::CompareOp::GREATER);
        let blend_attachments =
            vec![
                vk::PipelineColorBlendAttachmentState::default().color_write_mask(if key.color_write {
                    vk::ColorComponentFlags::RGBA
                } else {
                    vk::ColorComponentFlags::empty()
                });
                key.colors
            ];
        let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachments);
        let dynamic_states = [vk::DynamicState::VIEWPORT, vk::DynamicState::SCISSOR];
        let dynamic = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic_states);
        let color_formats = vec![vk::Format::R32_UINT; key.colors];
        let mut rendering = vk::PipelineRenderingCreateInfo::default()
            .color_attachment_formats(&color_formats)
            .depth_attachment_format(if key.depth {
                vk::Format::D32_SFLOAT
            } else {
                vk::Format::UNDEFINED
            });
        let info = vk::GraphicsPipelineCreateInfo::default()
            .stages(&stages)
            .vertex_input_state(&vertex_input)
            .input_assembly_state(&assembly)
            .viewport_state(&viewport)
            .rasterization_state(&raster)
            .multisample_state(&multisample)
            .depth_stencil_state(&depth)
            .color_blend_state(&blend)
            .dynamic_state(&dynamic)
            .layout(self.graphics_layout)
            .push_next(&mut rendering);
        // SAFETY: modules and layout are live; every state the pipeline
        // reads is given and outlives the call (dynamic rendering: no
        // render pass, formats in `rendering`).
        let created = unsafe { d.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None) };
        // SAFETY: a shader module may be destroyed once pipelines are created.
        unsafe {
            d.destroy_shader_module(vertex, None);
            d.destroy_shader_module(fragment, None);
        }
        let pipeline = match created {
            Ok(v) => v[0],
            Err((_, e)) => return Err(e).ctx("vkCreateGraphicsPipelines"),
        };
        self.graphics.borrow_mut().push((key, pipeline));
        Ok((pipeline, self.graphics_layout))
    }
}

impl Kernels {
    /// Forgets every pipeline without destroying it (the device is being
    /// leaked because work that may use them is still executing).
    pub(crate) fn forget_all(&mut self) {
        self.pipelines.clear();
        self.graphics.get_mut().clear();
        self.graphics_layout = vk::PipelineLayout::null();
    }
}

impl Drop for Kernels {
    /// Only does work when `Device::new` fails after creating the kernels
    /// (nothing was submitted then); a complete `Device` empties the list in
    /// its own `Drop` first.
    fn drop(&mut self) {
        self.destroy_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shader belongs to a kernel of the table, binds no more than
    /// the push constants have offsets for, and every kernel has a shader.
    #[test]
    fn every_kernel_has_a_shader_that_fits_the_push_constants() {
        for name in Kernel::NAMES {
            let kernel = Kernel::from_name(name, &[]).expect("a kernel");
            assert!(kernel.signature().len() <= MAX_BINDINGS, "{name}");
            assert!(SPIRV.iter().any(|(n, _)| *n == name), "no shader for {name}");
        }
        assert_eq!(
            SPIRV.len(),
            Kernel::NAMES.len(),
            "a shader for a kernel the model does not know"
        );
    }
}
