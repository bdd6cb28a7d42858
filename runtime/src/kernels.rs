//! Compute pipelines for the kernels of [`vksync::reference::Kernel`].
//!
//! This module owns the SPIR-V (compiled from `shaders/*.comp` by
//! `build.rs`), one descriptor-set layout, pipeline layout and pipeline per
//! kernel (storage buffers, or storage images for an image kernel:
//! [`vksync::reference::Kernel::is_image`]), and the push-constant block
//! the shaders share. It does not
//! decide what a dispatch binds (that is the recorder's), and the kernels'
//! meaning is defined once in `vksync::reference`.

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

const SPIRV: [(&str, &[u8]); 6] = [
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
];

/// One kernel's pipeline objects.
pub(crate) struct Pipeline {
    pub set_layout: vk::DescriptorSetLayout,
    pub layout: vk::PipelineLayout,
    pub pipeline: vk::Pipeline,
    pub bindings: usize,
    /// Its bindings are storage images (else storage buffers).
    pub images: bool,
}

/// Every kernel's pipeline, destroyed on drop.
pub(crate) struct Kernels {
    device: ash::Device,
    pipelines: Vec<(&'static str, Pipeline)>,
}

impl Kernels {
    pub(crate) fn new(device: &ash::Device) -> Result<Kernels> {
        let mut k = Kernels {
            device: device.clone(),
            pipelines: Vec::new(),
        };
        for (name, spv) in SPIRV {
            // The kernel table says how many buffers each kernel binds.
            // Invariant: every shader is named after a kernel of the table
            // (a unit test checks it).
            let kernel = Kernel::from_name(name, &[]).expect("a shader for a known kernel");
            let bindings = kernel.signature().len();
            // Pushed one at a time so `Drop` cleans up on a later failure.
            let p = k.create(spv, bindings, kernel.is_image())?;
            k.pipelines.push((name, p));
        }
        Ok(k)
    }

    fn create(&self, spv: &[u8], bindings: usize, images: bool) -> Result<Pipeline> {
        let d = &self.device;
        let words: Vec<u32> = spv
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let layout_bindings: Vec<_> = (0..bindings as u32)
            .map(|b| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b)
                    .descriptor_type(if images {
                        vk::DescriptorType::STORAGE_IMAGE
                    } else {
                        vk::DescriptorType::STORAGE_BUFFER
                    })
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
    /// Destroys every pipeline (idempotent: the list is emptied). Called by
    /// `Drop for Device` after waiting idle, so before the device goes.
    pub(crate) fn destroy_all(&mut self) {
        for (_, p) in std::mem::take(&mut self.pipelines) {
            self.destroy(&p);
        }
    }
}

impl Kernels {
    /// Forgets every pipeline without destroying it (the device is being
    /// leaked because work that may use them is still executing).
    pub(crate) fn forget_all(&mut self) {
        self.pipelines.clear();
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
