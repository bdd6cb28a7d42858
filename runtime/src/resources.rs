//! The Vulkan objects of one run, and the rule for freeing them.
//!
//! This module owns [`Resources`] (one run's buffers and their memory,
//! images with their memory and views, command pool, descriptor pools,
//! query pool and fences, created on demand
//! by the recorder and the benchmarking paths) and [`InFlight`] (those of a
//! run that ended while its work was still executing). It does not record
//! or submit anything.
//!
//! The rule: an object may be destroyed only when no submitted work uses
//! it. Every fence handed to a successful `vkQueueSubmit2` is registered
//! ([`Resources::submitted`]) until it is seen signalled
//! ([`Resources::finished`]). On drop, if every registered fence has
//! signalled (or the device is lost, so nothing executes any more), the
//! objects are destroyed; otherwise (a fence wait timed out, or an error
//! cut a run short while its work ran) they move, still alive, to the
//! device's in-flight list, which the device empties by waiting for the
//! fences, with its fence timeout, before its next run and in its own drop.
//! Nothing here waits without a bound: `vkDeviceWaitIdle` would hang on a
//! runaway kernel.

use crate::descriptors::DescriptorPools;
use crate::error::{Result, VkContext};
use crate::recorder::MemoryObject;
use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme, Allocator};
use gpu_allocator::MemoryLocation;
use std::cell::RefCell;
use std::collections::HashMap;
use std::time::Duration;
use vksync::reference::ImageView;
use vksync::{Layout, ObjectId, Program, Tiling};

use crate::error::RuntimeError;

/// Vulkan objects of one run, released on drop (also on error paths) or
/// handed to the device's in-flight list while work using them runs.
pub(crate) struct Resources<'a> {
    pub(crate) device: &'a ash::Device,
    allocator: &'a mut Allocator,
    in_flight: &'a mut Vec<InFlight>,
    /// Per memory object; null for an image's own memory (the image has
    /// it, see `images`).
    pub(crate) buffers: Vec<vk::Buffer>,
    /// Per memory object; a `RefCell` so host accesses can write mapped
    /// memory while the recorder holds the resources.
    pub(crate) allocations: RefCell<Vec<Option<Allocation>>>,
    /// The program's images (`Program::images` order), with the object
    /// each stands for.
    pub(crate) images: Vec<(ObjectId, vk::Image)>,
    /// Their memory.
    image_allocations: Vec<Allocation>,
    /// Their formats.
    formats: Vec<(ObjectId, vk::Format)>,
    /// Images bound to a buffer's or pool's memory, not bound yet.
    aliases: Vec<Alias>,
    /// Image views made so far, one per distinct view and aspect mask
    /// (storage views of color, attachment views of color or depth).
    views: RefCell<HashMap<(ImageView, u32), vk::ImageView>>,
    pub(crate) command_pool: vk::CommandPool,
    /// Bounded pools, one set per distinct binding; a `RefCell` because
    /// recording allocates from them through a shared borrow.
    pub(crate) descriptors: RefCell<DescriptorPools>,
    pub(crate) query_pool: vk::QueryPool,
    /// Every fence of the run, for destruction.
    pub(crate) fences: RefCell<Vec<vk::Fence>>,
    /// Command pools of other queue families (multi-queue runs):
    /// `(queueFamilyIndex, pool)`.
    pub(crate) family_pools: Vec<(u32, vk::CommandPool)>,
    /// The program's semaphores and events, by id.
    pub(crate) semaphores: Vec<vk::Semaphore>,
    pub(crate) events: Vec<vk::Event>,
    /// Fences submitted and not yet seen signalled, with what they guard.
    unfinished: RefCell<Vec<(vk::Fence, String)>>,
}

/// Everything a run created, detached from the borrows of [`Resources`].
pub(crate) struct Objects {
    buffers: Vec<vk::Buffer>,
    allocations: Vec<Allocation>,
    images: Vec<vk::Image>,
    views: Vec<vk::ImageView>,
    command_pool: vk::CommandPool,
    descriptor_pools: Vec<vk::DescriptorPool>,
    query_pool: vk::QueryPool,
    fences: Vec<vk::Fence>,
    family_pools: Vec<vk::CommandPool>,
    semaphores: Vec<vk::Semaphore>,
    events: Vec<vk::Event>,
}

impl Objects {
    /// Destroys every object and frees every allocation.
    ///
    /// The caller has seen every fence that guarded work using these
    /// objects signalled (or the device lost), or the work was never
    /// submitted.
    fn destroy(self, device: &ash::Device, allocator: &mut Allocator) {
        // SAFETY: per the caller's guarantee no pending command buffer uses
        // any of these objects; each was created on `device`; vkDestroy*
        // ignores null handles. Command buffers go with their pool, and the
        // descriptor sets with theirs.
        unsafe {
            for &f in &self.fences {
                device.destroy_fence(f, None);
            }
            for &sem in &self.semaphores {
                device.destroy_semaphore(sem, None);
            }
            for &e in &self.events {
                device.destroy_event(e, None);
            }
            for &pool in &self.family_pools {
                device.destroy_command_pool(pool, None);
            }
            device.destroy_query_pool(self.query_pool, None);
            for &pool in &self.descriptor_pools {
                device.destroy_descriptor_pool(pool, None);
            }
            device.destroy_command_pool(self.command_pool, None);
            for &b in &self.buffers {
                device.destroy_buffer(b, None);
            }
            for &v in &self.views {
                device.destroy_image_view(v, None);
            }
            for &i in &self.images {
                device.destroy_image(i, None);
            }
        }
        for a in self.allocations {
            // Nothing useful to do with a failure while tearing down.
            let _ = allocator.free(a);
        }
    }
}

/// An image bound to a buffer's or pool's memory object `mem` at
/// `offset`, with its memory requirements.
#[derive(Clone, Copy)]
struct Alias {
    object: ObjectId,
    image: vk::Image,
    mem: usize,
    offset: u64,
    requirements: vk::MemoryRequirements,
}

/// `VkSharingMode` of a memory object's `VkBuffer`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Sharing {
    /// `VK_SHARING_MODE_EXCLUSIVE`.
    Exclusive,
    /// `VK_SHARING_MODE_CONCURRENT` over these (at least two distinct)
    /// queue family indices.
    Concurrent(Vec<u32>),
}

/// A run's objects whose work was still executing when the run ended.
pub(crate) struct InFlight {
    /// The fences still to signal, with what each guards.
    unfinished: Vec<(vk::Fence, String)>,
    objects: Objects,
}

/// Waits at most `timeout` for every fence: `Ok(true)` when all
/// signalled, or when the device is lost (nothing executes on a lost
/// device, so what the fences guarded may be freed); `Ok(false)` on
/// timeout.
pub(crate) fn wait_all(device: &ash::Device, fences: &[vk::Fence], timeout: Duration) -> Result<bool> {
    if fences.is_empty() {
        return Ok(true);
    }
    let ns = u64::try_from(timeout.as_nanos()).unwrap_or(u64::MAX);
    // SAFETY: the fences are live objects of `device`, each submitted.
    match unsafe { device.wait_for_fences(fences, true, ns) } {
        Ok(()) | Err(vk::Result::ERROR_DEVICE_LOST) => Ok(true),
        Err(vk::Result::TIMEOUT) => Ok(false),
        Err(result) => Err(RuntimeError::Vulkan {
            call: "vkWaitForFences",
            result,
        }),
    }
}

/// Whether one fence has signalled (a lost device counts as signalled).
pub(crate) fn signalled(device: &ash::Device, fence: vk::Fence) -> bool {
    // SAFETY: the fence is a live object of `device`.
    match unsafe { device.get_fence_status(fence) } {
        Ok(done) => done,
        Err(vk::Result::ERROR_DEVICE_LOST) => true,
        Err(_) => false,
    }
}

/// Waits at most `timeout` for the work in `in_flight` and frees it. On
/// timeout nothing is freed and the error names the work still running.
pub(crate) fn reclaim(
    device: &ash::Device,
    allocator: &mut Allocator,
    in_flight: &mut Vec<InFlight>,
    timeout: Duration,
) -> Result<()> {
    let fences: Vec<vk::Fence> = in_flight
        .iter()
        .flat_map(|f| f.unfinished.iter().map(|(fence, _)| *fence))
        .collect();
    if !wait_all(device, &fences, timeout)? {
        let what = in_flight
            .iter()
            .flat_map(|f| f.unfinished.iter())
            .find(|(fence, _)| !signalled(device, *fence))
            .or_else(|| in_flight.iter().flat_map(|f| f.unfinished.iter()).next())
            .map_or_else(String::new, |(_, what)| what.clone());
        return Err(RuntimeError::StillRunning {
            what,
            waited: timeout,
        });
    }
    for f in in_flight.drain(..) {
        f.objects.destroy(device, allocator);
    }
    Ok(())
}

impl Drop for Resources<'_> {
    fn drop(&mut self) {
        let unfinished = std::mem::take(self.unfinished.get_mut());
        let fences: Vec<vk::Fence> = unfinished.iter().map(|(f, _)| *f).collect();
        // Without waiting: work that is still running (a timed-out fence,
        // or an error that ended the run early) is parked, not waited for.
        let done = wait_all(self.device, &fences, Duration::ZERO).unwrap_or(false);
        let objects = Objects {
            buffers: std::mem::take(&mut self.buffers),
            allocations: self
                .allocations
                .get_mut()
                .drain(..)
                .flatten()
                .chain(self.image_allocations.drain(..))
                .collect(),
            images: self.images.drain(..).map(|(_, i)| i).collect(),
            views: self.views.get_mut().drain().map(|(_, v)| v).collect(),
            command_pool: std::mem::replace(&mut self.command_pool, vk::CommandPool::null()),
            descriptor_pools: self.descriptors.get_mut().take_pools(),
            query_pool: std::mem::replace(&mut self.query_pool, vk::QueryPool::null()),
            fences: std::mem::take(self.fences.get_mut()),
            family_pools: std::mem::take(&mut self.family_pools)
                .into_iter()
                .map(|(_, p)| p)
                .collect(),
            semaphores: std::mem::take(&mut self.semaphores),
            events: std::mem::take(&mut self.events),
        };
        if done {
            objects.destroy(self.device, self.allocator);
        } else {
            self.in_flight.push(InFlight { unfinished, objects });
        }
    }
}

impl<'a> Resources<'a> {
    /// Empty resources on a device; filled by the `create_*` methods.
    /// Work still running when they drop goes to `in_flight`.
    pub(crate) fn new(
        device: &'a ash::Device,
        allocator: &'a mut Allocator,
        in_flight: &'a mut Vec<InFlight>,
    ) -> Self {
        Resources {
            device,
            allocator,
            in_flight,
            buffers: Vec::new(),
            allocations: Default::default(),
            images: Vec::new(),
            image_allocations: Vec::new(),
            formats: Vec::new(),
            aliases: Vec::new(),
            views: Default::default(),
            command_pool: vk::CommandPool::null(),
            descriptors: Default::default(),
            query_pool: vk::QueryPool::null(),
            fences: Default::default(),
            family_pools: Vec::new(),
            semaphores: Vec::new(),
            events: Vec::new(),
            unfinished: Default::default(),
        }
    }

    /// Records that `fence` was handed to a successful `vkQueueSubmit2`
    /// for the work `what` describes: until [`Resources::finished`] is
    /// called for it, the resources may not be freed.
    pub(crate) fn submitted(&self, fence: vk::Fence, what: String) {
        self.unfinished.borrow_mut().push((fence, what));
    }

    /// Records that `fence` was seen signalled.
    pub(crate) fn finished(&self, fence: vk::Fence) {
        self.unfinished.borrow_mut().retain(|(f, _)| *f != fence);
    }

    /// Creates one `VkBuffer` (with its own allocation) per memory object of
    /// `layout`; memory the host reads or writes is host visible.
    pub(crate) fn create_memory(
        &mut self,
        layout: &Layout,
        host_read: &[bool],
        host_write: &[bool],
    ) -> Result<Vec<MemoryObject>> {
        self.create_shared_memory(layout, host_read, host_write, &[], &|_| Sharing::Exclusive)
    }

    /// [`Resources::create_memory`] with each memory object's sharing mode
    /// from `sharing` (by memory object index); memory objects marked in
    /// `image_memory` are images' own and get no buffer (`create_images`
    /// makes their memory).
    pub(crate) fn create_shared_memory(
        &mut self,
        layout: &Layout,
        host_read: &[bool],
        host_write: &[bool],
        image_memory: &[bool],
        sharing: &dyn Fn(usize) -> Sharing,
    ) -> Result<Vec<MemoryObject>> {
        let device = self.device;
        let mut memory = Vec::new();
        for (i, &size) in layout.memory_sizes.iter().enumerate() {
            let (reads, writes) = (host_read[i], host_write[i]);
            let host_visible = reads || writes;
            if image_memory.get(i).copied().unwrap_or(false) {
                // An image's own memory: the image is created with memory
                // of the size its requirements say (`create_images`).
                self.buffers.push(vk::Buffer::null());
                self.allocations.get_mut().push(None);
                memory.push(MemoryObject { size, host_visible });
                continue;
            }
            let usage = vk::BufferUsageFlags::STORAGE_BUFFER
                | vk::BufferUsageFlags::TRANSFER_SRC
                | vk::BufferUsageFlags::TRANSFER_DST
                | vk::BufferUsageFlags::INDIRECT_BUFFER
                | vk::BufferUsageFlags::VERTEX_BUFFER
                | vk::BufferUsageFlags::INDEX_BUFFER;
            let mode = sharing(i);
            let aliases: Vec<Alias> = self.aliases.iter().filter(|a| a.mem == i).cloned().collect();
            let info = vk::BufferCreateInfo::default().size(size).usage(usage);
            let info = match &mode {
                Sharing::Exclusive => info.sharing_mode(vk::SharingMode::EXCLUSIVE),
                Sharing::Concurrent(families) => info
                    .sharing_mode(vk::SharingMode::CONCURRENT)
                    .queue_family_indices(families),
            };
            // SAFETY: valid device and create info (a concurrent buffer
            // names at least two distinct families the device created
            // queues of: `Sharing::Concurrent`'s invariant).
            let buffer = unsafe { device.create_buffer(&info, None) }.ctx("vkCreateBuffer")?;
            self.buffers.push(buffer);
            // SAFETY: the buffer is live.
            let mut requirements = unsafe { device.get_buffer_memory_requirements(buffer) };
            // Images bound to this memory: one allocation that suits the
            // buffer and each of them at its offset, or a typed refusal.
            for a in &aliases {
                let r = a.requirements;
                let refuse = |reason: String| RuntimeError::Check {
                    at: vksync::Location::Object(a.object),
                    source: crate::checks::CheckError::ImageAliasRequirements {
                        offset: a.offset,
                        reason,
                    },
                };
                if !a.offset.is_multiple_of(r.alignment.max(1)) {
                    return Err(refuse(format!(
                        "the image needs an alignment of {} bytes",
                        r.alignment
                    )));
                }
                if a.offset + r.size > size {
                    return Err(refuse(format!(
                        "the image needs {} bytes there, past the memory's {size}",
                        r.size
                    )));
                }
                requirements.memory_type_bits &= r.memory_type_bits;
                if requirements.memory_type_bits == 0 {
                    return Err(refuse(
                        "no memory type suits both the image and the buffer (and the host accesses) of that memory"
                            .to_string(),
                    ));
                }
                requirements.alignment = requirements.alignment.max(r.alignment);
                requirements.size = requirements.size.max(a.offset + r.size);
            }
            // Host reads prefer cached memory; host-write-only memory the
            // device-local-if-possible upload kind; both are coherent.
            let location = if reads {
                MemoryLocation::GpuToCpu
            } else if writes {
                MemoryLocation::CpuToGpu
            } else {
                MemoryLocation::GpuOnly
            };
            let what = format!("memory object {i} ({size} bytes)");
            let allocation = self
                .allocator
                .allocate(&AllocationCreateDesc {
                    name: &what,
                    requirements,
                    location,
                    linear: aliases.is_empty(),
                    // Dedicated memory may be bound to its one resource
                    // only (VUID-vkBindImageMemory-memory-02628).
                    allocation_scheme: if aliases.is_empty() {
                        AllocationScheme::DedicatedBuffer(buffer)
                    } else {
                        AllocationScheme::GpuAllocatorManaged
                    },
                })
                .map_err(|source| RuntimeError::Allocation { what, source })?;
            // SAFETY: memory and offset come from an allocation made for this
            // buffer's requirements (merged with its images'); the buffer is
            // not bound yet.
            let bound =
                unsafe { device.bind_buffer_memory(buffer, allocation.memory(), allocation.offset()) };
            let mut bound_images = Ok(());
            for a in &aliases {
                if bound_images.is_ok() {
                    // SAFETY: the allocation covers `offset + size` of the
                    // image's requirements, its offset is a multiple of
                    // the image's alignment (and so is the offset sum: the
                    // allocation is aligned to the largest), one of its
                    // memory types; the image is not bound yet.
                    bound_images = unsafe {
                        device.bind_image_memory(a.image, allocation.memory(), allocation.offset() + a.offset)
                    };
                }
            }
            self.allocations.get_mut().push(Some(allocation));
            bound.ctx("vkBindBufferMemory")?;
            bound_images.ctx("vkBindImageMemory")?;
            memory.push(MemoryObject { size, host_visible });
        }
        Ok(memory)
    }

    /// Creates a `VkImage` for every image of `program` (with the usage its
    /// commands and views need, `crate::checks::image_usage`, and the
    /// sharing mode `sharing` gives its memory object). An image with
    /// memory of its own gets memory of the size and alignment its
    /// requirements say, bound at offset 0; one bound to a buffer's or
    /// pool's memory (`alias MEM OFFSET`) is bound by
    /// [`Resources::create_shared_memory`], called after this.
    /// `check_program` and `check_image_formats` passed.
    pub(crate) fn create_images(
        &mut self,
        program: &Program,
        layout: &Layout,
        sharing: &dyn Fn(usize) -> Sharing,
    ) -> Result<()> {
        let device = self.device;
        for d in program.images() {
            let mem = layout.place(d.object).map_or(0, |(m, _)| m.0 as usize);
            let mode = sharing(mem);
            let info = vk::ImageCreateInfo::default()
                .image_type(if d.extent[2] > 1 {
                    vk::ImageType::TYPE_3D
                } else {
                    vk::ImageType::TYPE_2D
                })
                .format(vk::Format::from_raw(d.format.info().value as i32))
                .extent(vk::Extent3D {
                    width: d.extent[0],
                    height: d.extent[1],
                    depth: d.extent[2],
                })
                .mip_levels(d.mips)
                .array_layers(d.layers)
                .samples(vk::SampleCountFlags::TYPE_1)
                .tiling(match d.tiling {
                    Tiling::Optimal => vk::ImageTiling::OPTIMAL,
                    Tiling::Linear => vk::ImageTiling::LINEAR,
                })
                .usage(crate::checks::image_usage(program, d.object))
                // `PREINITIALIZED` or `UNDEFINED`, as declared; any other
                // initial layout is entered before the program runs
                // (`Recorder::enter_initial_layouts`).
                .initial_layout(if d.initial == vksync::ImageLayout::PREINITIALIZED {
                    vk::ImageLayout::PREINITIALIZED
                } else {
                    vk::ImageLayout::UNDEFINED
                });
            let info = match &mode {
                Sharing::Exclusive => info.sharing_mode(vk::SharingMode::EXCLUSIVE),
                Sharing::Concurrent(families) => info
                    .sharing_mode(vk::SharingMode::CONCURRENT)
                    .queue_family_indices(families),
            };
            // SAFETY: valid device and create info (the format has the
            // features this usage needs: `check_image_formats`; a linear
            // image has one mip and one layer: `check_program`).
            let image = unsafe { device.create_image(&info, None) }.ctx("vkCreateImage")?;
            self.images.push((d.object, image));
            // SAFETY: the image is live.
            let requirements = unsafe { device.get_image_memory_requirements(image) };
            let (mem_id, offset) = layout.place(d.object).expect("an image of the resolved program");
            if d.tiling == Tiling::Linear && layout.owner_object(mem_id) != Some(d.object) {
                // A linear image bound to a buffer's or pool's memory: the
                // host and the buffer reach its texels at the driver's
                // offsets, so refuse a program whose model lays them out
                // otherwise (the reference would compare other bytes). An
                // image with memory of its own is reached by copies only.
                let aspect = d
                    .format
                    .aspect_mask()
                    .aspects()
                    .next()
                    .unwrap_or(vksync::Aspect::Color);
                let sub = vk::ImageSubresource::default()
                    .aspect_mask(vk::ImageAspectFlags::from_raw(aspect.bit()))
                    .mip_level(0)
                    .array_layer(0);
                // SAFETY: the image is live, of linear tiling, and has
                // mip 0, layer 0 and that aspect.
                let l = unsafe { device.get_image_subresource_layout(image, sub) };
                let model = d.subresource_layout(aspect, 0, 0).row_pitch;
                if l.offset != 0 || (d.extent[1] > 1 && l.row_pitch != model) {
                    return Err(RuntimeError::LinearLayout {
                        image: program
                            .object(d.object)
                            .map_or("?", |o| o.name.as_str())
                            .to_string(),
                        offset: l.offset,
                        row_pitch: l.row_pitch,
                        model,
                    });
                }
            }
            self.formats.push((d.object, info.format));
            if layout.owner_object(mem_id) != Some(d.object) {
                // Bound to a buffer's or pool's memory: bound when that
                // memory is made (`create_shared_memory`).
                self.aliases.push(Alias {
                    object: d.object,
                    image,
                    mem: mem_id.0 as usize,
                    offset,
                    requirements,
                });
                continue;
            }
            let what = format!(
                "image `{}`",
                program.object(d.object).map_or("?", |o| o.name.as_str())
            );
            let allocation = self
                .allocator
                .allocate(&AllocationCreateDesc {
                    name: &what,
                    requirements,
                    location: MemoryLocation::GpuOnly,
                    linear: d.tiling == Tiling::Linear,
                    allocation_scheme: AllocationScheme::DedicatedImage(image),
                })
                .map_err(|source| RuntimeError::Allocation { what, source })?;
            // SAFETY: memory and offset come from an allocation made for this
            // image's requirements; the image is not bound yet.
            let bound = unsafe { device.bind_image_memory(image, allocation.memory(), allocation.offset()) };
            self.image_allocations.push(allocation);
            bound.ctx("vkBindImageMemory")?;
        }
        Ok(())
    }

    /// The `VkImage` of an image object.
    pub(crate) fn image(&self, object: ObjectId) -> Option<vk::Image> {
        self.images.iter().find(|(o, _)| *o == object).map(|(_, i)| *i)
    }

    /// The storage image view `v` (a 2D array view of one mip level), made
    /// on first use and kept until the resources go.
    pub(crate) fn view(&self, v: &ImageView) -> Result<vk::ImageView> {
        self.view_of(v, vk::ImageAspectFlags::COLOR)
    }

    /// The view `v` of `aspect` (color, or depth for a depth attachment),
    /// made on first use and kept until the resources go.
    pub(crate) fn view_of(&self, v: &ImageView, aspect: vk::ImageAspectFlags) -> Result<vk::ImageView> {
        if let Some(&view) = self.views.borrow().get(&(*v, aspect.as_raw())) {
            return Ok(view);
        }
        // Invariant: views come from checked dispatches and rendering
        // instances of the program whose images `create_images` made.
        let image = self.image(v.image).expect("a view of an image of the run");
        // The image's own format (image kernels take `R32_UINT` images
        // only: `Kernel::image_views`; attachments are `R32_UINT` or
        // `D32_SFLOAT`: `vksync::reference::rect_target`).
        let format = self
            .formats
            .iter()
            .find(|(o, _)| *o == v.image)
            .map_or(vk::Format::UNDEFINED, |(_, f)| *f);
        let info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D_ARRAY)
            .format(format)
            .subresource_range(
                vk::ImageSubresourceRange::default()
                    .aspect_mask(aspect)
                    .base_mip_level(v.mip)
                    .level_count(1)
                    .base_array_layer(v.base_layer)
                    .layer_count(v.layers),
            );
        // SAFETY: a live 2D image of this device, of the view's format,
        // with the mip and layers inside it (`Kernel::image_views`,
        // `rect_target`), and an aspect of its format.
        let view = unsafe { self.device.create_image_view(&info, None) }.ctx("vkCreateImageView")?;
        self.views.borrow_mut().insert((*v, aspect.as_raw()), view);
        Ok(view)
    }

    /// The command pool for queue family `family`: the run's main pool
    /// when it is `main_family`, else one made on first use.
    pub(crate) fn pool_for(&mut self, family: u32, main_family: u32) -> Result<vk::CommandPool> {
        if family == main_family {
            return Ok(self.command_pool);
        }
        if let Some(&(_, p)) = self.family_pools.iter().find(|(f, _)| *f == family) {
            return Ok(p);
        }
        // SAFETY: valid device and create info; the family was created
        // with queues (the caller maps only to created families).
        let pool = unsafe {
            self.device.create_command_pool(
                &vk::CommandPoolCreateInfo::default()
                    .queue_family_index(family)
                    .flags(vk::CommandPoolCreateFlags::TRANSIENT),
                None,
            )
        }
        .ctx("vkCreateCommandPool")?;
        self.family_pools.push((family, pool));
        Ok(pool)
    }

    /// Creates a semaphore, owned (destroyed) by these resources: a timeline
    /// one with that initial value, or a binary one with `None`. Timeline
    /// semaphores only when the device enabled them (the caller checks).
    pub(crate) fn create_semaphore(&mut self, timeline: Option<u64>) -> Result<vk::Semaphore> {
        let mut type_info = match timeline {
            Some(initial) => vk::SemaphoreTypeCreateInfo::default()
                .semaphore_type(vk::SemaphoreType::TIMELINE)
                .initial_value(initial),
            None => vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::BINARY),
        };
        // SAFETY: valid device and create info (timeline semaphores only
        // when enabled: the caller checked).
        let sem = unsafe {
            self.device.create_semaphore(
                &vk::SemaphoreCreateInfo::default().push_next(&mut type_info),
                None,
            )
        }
        .ctx("vkCreateSemaphore")?;
        self.semaphores.push(sem);
        Ok(sem)
    }

    /// Creates the program's semaphores (binary or timeline; binary ones
    /// as timeline ones with `binary_as_timeline`) and events.
    pub(crate) fn create_sync_objects(
        &mut self,
        program: &vksync::Program,
        binary_as_timeline: bool,
    ) -> Result<()> {
        for s in program.semaphores() {
            let timeline = match s.kind {
                vksync::SemaphoreType::Binary if binary_as_timeline => Some(0),
                vksync::SemaphoreType::Binary => None,
                vksync::SemaphoreType::Timeline { initial } => Some(initial),
            };
            self.create_semaphore(timeline)?;
        }
        for _ in program.events() {
            // SAFETY: valid device and create info (host-settable: no
            // DEVICE_ONLY flag).
            let e = unsafe { self.device.create_event(&vk::EventCreateInfo::default(), None) }
                .ctx("vkCreateEvent")?;
            self.events.push(e);
        }
        Ok(())
    }

    /// Creates the command pool and (when `queries > 0`) a timestamp query
    /// pool. Descriptor pools are made as dispatches need them.
    pub(crate) fn create_pools(
        &mut self,
        queue_family: u32,
        command_pool_flags: vk::CommandPoolCreateFlags,
        queries: u32,
    ) -> Result<()> {
        let device = self.device;
        // SAFETY: valid device and create infos (for both pools).
        self.command_pool = unsafe {
            device.create_command_pool(
                &vk::CommandPoolCreateInfo::default()
                    .queue_family_index(queue_family)
                    .flags(command_pool_flags),
                None,
            )
        }
        .ctx("vkCreateCommandPool")?;
        if queries > 0 {
            // SAFETY: as above.
            self.query_pool = unsafe {
                device.create_query_pool(
                    &vk::QueryPoolCreateInfo::default()
                        .query_type(vk::QueryType::TIMESTAMP)
                        .query_count(queries),
                    None,
                )
            }
            .ctx("vkCreateQueryPool")?;
        }
        Ok(())
    }
}
