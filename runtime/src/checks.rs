//! Checks that decide, without Vulkan, whether a valid program can run on a
//! device with given limits, and what each dispatch binds.
//!
//! This module owns the pure checks the runtime makes before creating any
//! Vulkan object: every dispatch's arguments against the kernel table
//! (`vksync::reference::Kernel`: name, parameter count, binding signature
//! and sizes), against what the shaders can take (32-bit words, a 32-bit
//! element count, at most [`MAX_BINDINGS`] bindings) and against the
//! device's [`DeviceLimits`] (`minStorageBufferOffsetAlignment`,
//! `maxStorageBufferRange`, `maxComputeWorkGroupCount[0]`); every memory
//! object against the device's largest buffer, allocation and heap; every
//! `image`-declared object and image command against what the runtime
//! records (uncompressed color formats on memory of their own; no
//! resolves, no coarse `buffer`-declared images) and, given the device's
//! format features ([`check_image_formats`]), against what the device
//! supports; and the host memory the CPU reference will need. It does not validate the
//! program itself (`vksync::resolve` does, and [`check_program`] calls it
//! first) and does not record anything.
//!
//! Everything here is a function of the program and a [`DeviceLimits`]
//! value, so it runs (and is tested) with no device: a device's limits come
//! from [`crate::DeviceInfo::limits`], [`DeviceLimits::PORTABLE`] holds on
//! every Vulkan 1.3 device, and [`DeviceLimits::UNLIMITED`] checks only
//! what no device can relax. Invariant: a program that passes with a
//! device's limits is recorded without any further check.

use crate::error::{Result, RuntimeError};
use crate::kernels::{IMAGE_TILE, MAX_BINDINGS, WORKGROUP_SIZE};
use crate::recorder::RunNote;
use ash::vk;
use vksync::reference::{ImageView, Kernel, KernelError};
use vksync::{BindingAccess, Command, ImageOp, Layout, Location, MemId, ObjectId, Program, Tiling};

/// The device limits a program is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceLimits {
    /// `minStorageBufferOffsetAlignment`: a binding at an offset that is
    /// not a multiple is bound from the rounded-down offset and widened.
    pub min_storage_buffer_offset_alignment: u64,
    /// `maxStorageBufferRange`: the widest binding.
    pub max_storage_buffer_range: u64,
    /// `maxComputeWorkGroupCount[0]`: the most workgroups of one dispatch.
    pub max_compute_work_group_count_x: u32,
    /// `maxBufferSize` (Vulkan 1.3): the largest `VkBuffer`.
    pub max_buffer_size: u64,
    /// `maxMemoryAllocationSize` (Vulkan 1.1): the largest allocation.
    pub max_memory_allocation_size: u64,
    /// The largest memory heap (device-only memory may come from any).
    pub max_heap_size: u64,
    /// The largest heap with a host-visible, host-coherent memory type
    /// (where memory the program reads or writes from the host lives).
    pub max_host_visible_heap_size: u64,
}

impl DeviceLimits {
    /// No device limit: only what holds for every device is checked (kernel
    /// arguments, 4-byte binding offsets, a 32-bit element count).
    pub const UNLIMITED: DeviceLimits = DeviceLimits {
        min_storage_buffer_offset_alignment: 1,
        max_storage_buffer_range: u64::MAX,
        max_compute_work_group_count_x: u32::MAX,
        max_buffer_size: u64::MAX,
        max_memory_allocation_size: u64::MAX,
        max_heap_size: u64::MAX,
        max_host_visible_heap_size: u64::MAX,
    };

    /// The limits the Vulkan 1.3 specification requires of every device
    /// (table "Required Limits"; heaps are not specified, so they take the
    /// guaranteed `maxMemoryAllocationSize`, 2^30): a program that passes
    /// these runs on any Vulkan 1.3 device with enough memory.
    pub const PORTABLE: DeviceLimits = DeviceLimits {
        min_storage_buffer_offset_alignment: 256,
        max_storage_buffer_range: 1 << 27,
        max_compute_work_group_count_x: 65_535,
        max_buffer_size: 1 << 30,
        max_memory_allocation_size: 1 << 30,
        max_heap_size: 1 << 30,
        max_host_visible_heap_size: 1 << 30,
    };
}

/// Why a command or object of a valid program cannot run. Carried by
/// [`RuntimeError::Check`] with the command or object it is about.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Kernel(#[from] KernelError),
    #[error("binding {binding} starts at memory offset {offset}, which is not a multiple of 4 (storage buffers are indexed in 32-bit words)")]
    MisalignedBinding { binding: usize, offset: u64 },
    #[error("binding {binding} needs a {range}-byte descriptor range, over maxStorageBufferRange {max}")]
    BindingTooLarge { binding: usize, range: u64, max: u64 },
    #[error("{elements} elements need {groups} workgroups of 64, over maxComputeWorkGroupCount[0] {max}")]
    DispatchTooLarge { elements: u64, groups: u64, max: u32 },
    #[error("{elements} elements are more than the kernels' 32-bit element count can hold")]
    TooManyElements { elements: u64 },
    #[error("kernel `{kernel}` binds {bindings} buffers; the shaders' push constants have room for {MAX_BINDINGS}")]
    TooManyBindings { kernel: &'static str, bindings: usize },
    #[error("`{name}` needs {}, over the device's {limit_name} ({})", show_bytes(*.size), show_bytes(*.limit))]
    MemoryTooLarge {
        name: String,
        size: u64,
        limit: u64,
        /// `maxBufferSize`, `maxMemoryAllocationSize` or which heap.
        limit_name: &'static str,
    },
    #[error("the CPU reference needs {} of host memory for this program (`{name}` alone is {}), more than {}", show_bytes(*.needed), show_bytes(*.size), .available.map_or("the host can allocate".to_string(), |a| format!("the {} available", show_bytes(a))))]
    HostMemory {
        /// The largest object.
        name: String,
        size: u64,
        needed: u64,
        /// `MemAvailable` when known; `None`: an allocation of `needed`
        /// bytes failed.
        available: Option<u64>,
    },
    #[error("a host read of {} does not fit in host memory", show_bytes(*.len))]
    ReadbackTooLarge { len: u64 },
    #[error("barrier {barrier} performs a layout transition of a `buffer`-declared (coarse) image, which has no VkImage to transition, and a buffer barrier in its place would drop the transition's write (declare the image with `image`)")]
    LayoutTransition {
        /// The barrier's index in its `vkCmdPipelineBarrier2`.
        barrier: usize,
    },
    #[error("{call} copies to or from a `buffer`-declared (coarse) image, which has no VkImage (declare the image with `image`)")]
    ImageCopy {
        /// The Vulkan command (`vkCmdCopyBufferToImage`, ...).
        call: &'static str,
    },
    #[error("{call} needs a queue family with graphics (VUID-{call}-commandBuffer-cmdpool); the device's queue family {family} has none")]
    NeedsGraphics {
        /// The Vulkan command.
        call: &'static str,
        /// The device's queue family the runtime records on.
        family: u32,
    },
    #[error("image `{image}` is {format}: {reason}")]
    ImageFormat {
        /// The image's name.
        image: String,
        /// Its format.
        format: &'static str,
        /// Why the runtime cannot create it.
        reason: String,
    },
    #[error("image `{image}` is bound to the memory of image `{memory}`; the runtime binds images to memory of their own or a buffer's or pool's")]
    ImageAlias {
        /// The image's name.
        image: String,
        /// The object whose memory it is bound to.
        memory: String,
    },
    #[error("the image cannot be bound at byte {offset} of its memory on this device: {reason}")]
    ImageAliasRequirements {
        /// Its offset in the memory.
        offset: u64,
        /// Which of its memory requirements fails.
        reason: String,
    },
    #[error("prepared and record-only runs (`Device::prepare`, `Device::time_recording`) take buffers only; run a program with images with `Device::run`")]
    ImagesNotPrepared,
    #[error("{call}: {reason}")]
    ImageCommand {
        /// The Vulkan command.
        call: &'static str,
        /// Why it is not recorded.
        reason: String,
    },
    #[error("{call}: the runtime does not record render passes or attachment clears; it draws with dynamic rendering (begin-rendering ... end-rendering) only")]
    RenderPass {
        /// The Vulkan command (`vkCmdBeginRenderPass`, `vkCmdClearAttachments`, ...).
        call: &'static str,
    },
    #[error("{call}: {source}; the runtime draws with the rect and flat kernels only (docs/trace-format.md, \"Kernels\")")]
    Rendering {
        /// The Vulkan command (`vkCmdBeginRendering`, `vkCmdDraw`, ...).
        call: &'static str,
        /// What the kernels do not take.
        source: vksync::reference::DrawError,
    },
    #[error("the device has fewer queues than the trace ({sharing} device queue), and one device queue runs its batches in submission order: then {waits} can never be satisfied, so the run would wait until its time limit; no limit fixes it (the trace is valid with one device queue per model queue)")]
    SharedQueueNeverCompletes {
        /// Which model queues share which one's device queue.
        sharing: String,
        /// The waits that are never satisfied.
        waits: String,
    },
    #[error("queue `{queue}` needs a compute-capable queue family (a dispatch, an event command or a compute stage in a barrier or semaphore), but maps to device family {family}, which has no COMPUTE")]
    QueueFamilyWithoutCompute {
        /// The model queue's name.
        queue: String,
        /// The device `queueFamilyIndex` it maps to.
        family: u32,
    },
}

/// `1099511627776 bytes (1 TiB)`.
pub(crate) fn show_bytes(n: u64) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if n < 1024 {
        return format!("{n} bytes");
    }
    let mut value = n as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    let shown = format!("{value:.1}");
    let shown = shown.strip_suffix(".0").unwrap_or(&shown);
    format!("{n} bytes ({shown} {})", UNITS[unit])
}

/// One storage binding of a dispatch as it is bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundRange {
    pub mem: MemId,
    /// Descriptor offset: the binding's offset rounded down to
    /// `minStorageBufferOffsetAlignment`.
    pub offset: u64,
    /// Descriptor range: from `offset` to the binding's end.
    pub range: u64,
    /// The binding's first element within the range (push constant `off_k`).
    pub first_element: u32,
}

/// A dispatch whose arguments passed every check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedDispatch {
    pub kernel: Kernel,
    /// Elements per binding (push constant `n`; an image kernel's texels
    /// per view).
    pub elements: u64,
    /// Workgroups along x, y and z (unused for indirect dispatches): of
    /// [`WORKGROUP_SIZE`] along x for a buffer kernel; for an image
    /// kernel tiles of [`IMAGE_TILE`] x [`IMAGE_TILE`] texels, and one
    /// workgroup per layer along z.
    pub groups: [u32; 3],
    /// A buffer kernel's storage buffers (empty for an image kernel).
    pub bindings: Vec<BoundRange>,
    /// An image kernel's storage image views (empty for a buffer kernel).
    pub views: Vec<ImageView>,
}

/// A program that passed every check, with what recording needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedProgram {
    pub layout: Layout,
    /// Per command: its checked dispatch, `None` for other commands.
    pub dispatches: Vec<Option<CheckedDispatch>>,
    /// Per memory object: whether the host reads it, writes it.
    pub host_read: Vec<bool>,
    pub host_write: Vec<bool>,
    /// Bindings widened to the device's offset alignment.
    pub notes: Vec<RunNote>,
}

/// Checks one dispatch's arguments against the kernel table and `limits`
/// (`layout` places `program`'s regions); `Ok(None)` for other commands.
/// Widened bindings are reported as [`RunNote::WidenedBinding`] for
/// `command`.
pub fn check_dispatch(
    program: &Program,
    command: usize,
    c: &Command,
    layout: &Layout,
    limits: &DeviceLimits,
    notes: &mut Vec<RunNote>,
) -> Result<Option<CheckedDispatch>, CheckError> {
    let Command::Dispatch {
        kernel,
        params,
        bindings,
        indirect,
    } = c
    else {
        return Ok(None);
    };
    let k = Kernel::from_name(kernel, params)?;
    let elements = k.check_bindings(bindings)?;
    let views = k.image_views(program, bindings)?;
    if let Some(v) = views.first() {
        let groups = [
            v.extent[0].div_ceil(IMAGE_TILE),
            v.extent[1].div_ceil(IMAGE_TILE),
            v.layers,
        ];
        // Every Vulkan device takes 65,535 workgroups along y and z.
        if indirect.is_none()
            && (groups[0] > limits.max_compute_work_group_count_x || groups[1] > 65_535 || groups[2] > 65_535)
        {
            return Err(CheckError::DispatchTooLarge {
                elements,
                groups: groups.iter().map(|&g| u64::from(g)).product(),
                max: limits.max_compute_work_group_count_x,
            });
        }
        return Ok(Some(CheckedDispatch {
            kernel: k,
            elements,
            groups,
            bindings: Vec::new(),
            views,
        }));
    }
    if bindings.len() > MAX_BINDINGS {
        return Err(CheckError::TooManyBindings {
            kernel: k.name(),
            bindings: bindings.len(),
        });
    }
    if elements > u64::from(u32::MAX) {
        return Err(CheckError::TooManyElements { elements });
    }
    let groups = elements.div_ceil(WORKGROUP_SIZE);
    if indirect.is_none() && groups > u64::from(limits.max_compute_work_group_count_x) {
        return Err(CheckError::DispatchTooLarge {
            elements,
            groups,
            max: limits.max_compute_work_group_count_x,
        });
    }
    let align = limits.min_storage_buffer_offset_alignment.max(1);
    let mut bound = Vec::with_capacity(bindings.len());
    for (bi, b) in bindings.iter().enumerate() {
        let m = layout.locate(b.region).expect("region of the resolved program");
        if !m.range.start.is_multiple_of(4) {
            return Err(CheckError::MisalignedBinding {
                binding: bi,
                offset: m.range.start,
            });
        }
        let offset = m.range.start - m.range.start % align;
        let range = m.range.end - offset;
        if range > limits.max_storage_buffer_range {
            return Err(CheckError::BindingTooLarge {
                binding: bi,
                range,
                max: limits.max_storage_buffer_range,
            });
        }
        let gap_words = (m.range.start - offset) / 4;
        let Ok(first_element) = u32::try_from(gap_words) else {
            // Only an alignment over 16 GiB could get here.
            return Err(CheckError::BindingTooLarge {
                binding: bi,
                range,
                max: limits.max_storage_buffer_range,
            });
        };
        if offset != m.range.start {
            notes.push(RunNote::WidenedBinding {
                command,
                binding: bi,
                offset: m.range.start,
                bound_offset: offset,
            });
        }
        bound.push(BoundRange {
            mem: m.mem,
            offset,
            range,
            first_element,
        });
    }
    Ok(Some(CheckedDispatch {
        kernel: k,
        elements,
        // Fits: at most u32::MAX / 64 + 1 (elements fit in 32 bits).
        groups: [groups as u32, 1, 1],
        bindings: bound,
        views: Vec::new(),
    }))
}

/// Validates `program` (`vksync::resolve`), refuses what the runtime does
/// not record (transitions and copies of coarse, `buffer`-declared images:
/// [`CheckError::LayoutTransition`], [`CheckError::ImageCopy`]; images it
/// cannot create: [`CheckError::ImageFormat`], [`CheckError::ImageAlias`];
/// image commands it does not record: [`CheckError::ImageCommand`]),
/// then checks every dispatch and every memory object against `limits`.
/// Errors carry the command or object they are about; nothing here touches
/// a device.
pub fn check_program(program: &Program, limits: &DeviceLimits) -> Result<CheckedProgram> {
    let layout = vksync::resolve(program)?;
    // Several queues, semaphores, events and ownership transfers are
    // recorded (`crate::queues` maps the queues when the run starts).
    for (ci, c) in program.commands().iter().enumerate() {
        let coarse_transition = |dep: &vksync::Dependency| {
            dep.barriers
                .iter()
                .position(|b| b.transition && b.image.is_none())
                .map(|barrier| CheckError::LayoutTransition { barrier })
        };
        let refused = match c {
            // Synchronization-1 waits are recorded with image memory
            // barriers too (their transitions are the wait's).
            Command::Barrier(dep)
            | Command::SetEvent { dependency: dep, .. }
            | Command::WaitEvents1 { dependency: dep, .. } => coarse_transition(dep),
            Command::WaitEvents { waits } => waits.iter().find_map(|w| coarse_transition(&w.dependency)),
            Command::CopyImage { kind, .. } => Some(CheckError::ImageCopy {
                call: kind.vulkan_name(),
            }),
            Command::Image(ic) => check_image_command(program, &layout, &ic.op),
            Command::Render(rc) => check_render(program, &rc.op),
            _ => None,
        };
        if let Some(source) = refused {
            return Err(RuntimeError::Check {
                at: Location::Command(ci),
                source,
            });
        }
    }
    check_images(program, &layout)?;
    let mut notes = Vec::new();
    let mut dispatches = Vec::with_capacity(program.commands().len());
    for (ci, c) in program.commands().iter().enumerate() {
        let d = check_dispatch(program, ci, c, &layout, limits, &mut notes).map_err(|source| {
            RuntimeError::Check {
                at: Location::Command(ci),
                source,
            }
        })?;
        dispatches.push(d);
    }
    let n = layout.memory_sizes.len();
    let (mut host_read, mut host_write) = (vec![false; n], vec![false; n]);
    for c in program.commands() {
        match c {
            Command::HostRead { src } => {
                host_read[layout.locate(*src).expect("region of the resolved program").mem.0 as usize] = true
            }
            Command::HostWrite { dst, .. } => {
                host_write[layout.locate(*dst).expect("region of the resolved program").mem.0 as usize] = true
            }
            _ => {}
        }
    }
    for (i, &size) in layout.memory_sizes.iter().enumerate() {
        let host = host_read[i] || host_write[i];
        let owner = layout
            .owner_object(MemId(i as u32))
            .expect("memory of this layout");
        let (heap, heap_name) = if host {
            (
                limits.max_host_visible_heap_size,
                "largest host-visible memory heap",
            )
        } else {
            (limits.max_heap_size, "largest memory heap")
        };
        let over = [
            (limits.max_buffer_size, "maxBufferSize"),
            (limits.max_memory_allocation_size, "maxMemoryAllocationSize"),
            (heap, heap_name),
        ]
        .into_iter()
        .find(|&(limit, _)| size > limit);
        if let Some((limit, limit_name)) = over {
            return Err(RuntimeError::Check {
                at: Location::Object(owner),
                source: CheckError::MemoryTooLarge {
                    name: program
                        .object(owner)
                        .map_or_else(|| "?".to_string(), |o| o.name.clone()),
                    size,
                    limit,
                    limit_name,
                },
            });
        }
    }
    Ok(CheckedProgram {
        layout,
        dispatches,
        host_read,
        host_write,
        notes,
    })
}

/// The usage an image is created with (the one home of this choice;
/// creation and the format check read it): what its commands and views
/// need, then what every layout the program names for it needs (its
/// `initial` layout, both layouts of each of its image barriers, the
/// layouts of its rendering attachments and sampled-image bindings:
/// VUID-VkImageMemoryBarrier2-oldLayout-01208 and its siblings, through
/// the model's one table of them, `vksync::ImageLayout::usage_for`).
/// Transfers both ways always (every copy command and clear needs one,
/// and color formats support both wherever they support anything).
pub(crate) fn image_usage(program: &Program, image: ObjectId) -> vk::ImageUsageFlags {
    let mut usage = vksync::ImageUsage::TRANSFER_SRC | vksync::ImageUsage::TRANSFER_DST;
    let mut layouts = Vec::new();
    for c in program.commands() {
        if let Command::Render(rc) = c {
            if let vksync::RenderOp::Begin(r) = &rc.op {
                let colors = r.colors.iter().map(|a| (a, vksync::ImageUsage::COLOR_ATTACHMENT));
                let depth = r
                    .depth
                    .iter()
                    .map(|a| (a, vksync::ImageUsage::DEPTH_STENCIL_ATTACHMENT));
                for (a, role) in colors.chain(depth) {
                    if a.image == image {
                        usage |= role;
                        layouts.push(a.layout);
                    }
                    layouts.extend(a.resolve.filter(|x| x.0 == image).map(|x| x.2));
                }
            }
        }
        if let Command::Dispatch { bindings, .. } = c {
            for b in bindings.iter().filter(|b| b.region.object == image) {
                usage |= match b.access {
                    BindingAccess::SampledImage(l) => {
                        layouts.push(l);
                        vksync::ImageUsage::SAMPLED
                    }
                    _ => vksync::ImageUsage::STORAGE,
                };
            }
        }
    }
    if let Some(d) = program.image(image) {
        let barriers = program.image_barriers().iter().filter(|b| b.image == image);
        layouts.push(d.initial);
        layouts.extend(barriers.flat_map(|b| [b.old_layout, b.new_layout]));
        for l in layouts {
            usage |= l.usage_for(d.format, usage);
        }
    }
    vksync::ash::image_usage(usage)
}

/// The format features an image needs on its tiling: those of
/// [`image_usage`], and blits where it is blitted (with the filter's
/// sampling feature on a blit's source).
pub(crate) fn image_features(program: &Program, image: ObjectId) -> vk::FormatFeatureFlags {
    let usage = image_usage(program, image);
    let mut f = vk::FormatFeatureFlags::TRANSFER_SRC | vk::FormatFeatureFlags::TRANSFER_DST;
    if usage.contains(vk::ImageUsageFlags::STORAGE) {
        f |= vk::FormatFeatureFlags::STORAGE_IMAGE;
    }
    if usage.contains(vk::ImageUsageFlags::SAMPLED) {
        f |= vk::FormatFeatureFlags::SAMPLED_IMAGE;
    }
    if usage.contains(vk::ImageUsageFlags::COLOR_ATTACHMENT) {
        f |= vk::FormatFeatureFlags::COLOR_ATTACHMENT;
    }
    if usage.contains(vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT) {
        f |= vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT;
    }
    for c in program.commands() {
        if let Command::Image(ic) = c {
            if let ImageOp::BlitImage { src, dst, filter, .. } = &ic.op {
                if src.0 == image {
                    f |= vk::FormatFeatureFlags::BLIT_SRC;
                    // VUID-vkCmdBlitImage-filter-02001 and -02002.
                    f |= match filter {
                        vksync::Filter::Nearest => vk::FormatFeatureFlags::empty(),
                        vksync::Filter::Linear => vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR,
                        vksync::Filter::CubicExt => vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_CUBIC_EXT,
                    };
                }
                if dst.0 == image {
                    f |= vk::FormatFeatureFlags::BLIT_DST;
                }
            }
        }
    }
    f
}

fn image_name(program: &Program, image: ObjectId) -> String {
    program
        .object(image)
        .map_or_else(|| "?".to_string(), |o| o.name.clone())
}

/// The images the runtime creates: uncompressed color formats, each bound
/// to memory of its own or to a buffer's or pool's (whether the device's
/// memory requirements allow that offset is known when the image exists:
/// [`CheckError::ImageAliasRequirements`]).
fn check_images(program: &Program, layout: &Layout) -> Result<()> {
    for d in program.images() {
        let refuse = |source| {
            Err(RuntimeError::Check {
                at: Location::Object(d.object),
                source,
            })
        };
        let info = d.format.info();
        // `D32_SFLOAT`, the rect kernels' depth attachment, in optimal
        // tiling (the format every device supports as a depth attachment
        // there, or `X8_D24_UNORM_PACK32`: "Required Format Support").
        let depth = info.name == "D32_SFLOAT" && d.tiling == Tiling::Optimal;
        if !depth
            && (d.format.aspect_mask() != vksync::AspectMask::of(vksync::Aspect::Color)
                || info.block != (1, 1))
        {
            return refuse(CheckError::ImageFormat {
                image: image_name(program, d.object),
                format: info.name,
                reason: "the runtime creates images of uncompressed color formats and optimal D32_SFLOAT only (no other depth, stencil or block-compressed ones)".to_string(),
            });
        }
        if d.tiling == Tiling::Linear && (d.mips > 1 || d.layers > 1 || d.extent[2] > 1) {
            return refuse(CheckError::ImageFormat {
                image: image_name(program, d.object),
                format: info.name,
                reason: "a linear image is supported with one mip level, one layer and depth 1 only (the spec's guarantee for linear tiling, \"Image Creation Limits\")".to_string(),
            });
        }
        let owner = layout
            .place(d.object)
            .and_then(|(mem, _)| layout.owner_object(mem))
            .expect("an image of the resolved program");
        if owner != d.object && program.image(owner).is_some() {
            return refuse(CheckError::ImageAlias {
                image: image_name(program, d.object),
                memory: image_name(program, owner),
            });
        }
    }
    Ok(())
}

/// Why a rendering command is not recorded, if it is not: its instance's
/// attachments or its draw state are not what the rect and flat kernels
/// take (`vksync::reference::rect_target`, `rect_draw`).
fn check_render(program: &Program, op: &vksync::RenderOp) -> Option<CheckError> {
    let call = op.vulkan_name();
    let refuse = |source| Some(CheckError::Rendering { call, source });
    match op {
        vksync::RenderOp::Begin(r) => vksync::reference::rect_target(program, r).err().and_then(refuse),
        vksync::RenderOp::Draw(d) => vksync::reference::rect_draw(d).err().and_then(refuse),
        vksync::RenderOp::End => None,
        vksync::RenderOp::BeginPass(_)
        | vksync::RenderOp::NextSubpass
        | vksync::RenderOp::EndSubpass { .. }
        | vksync::RenderOp::EndPass
        | vksync::RenderOp::Clear(_) => Some(CheckError::RenderPass { call }),
    }
}

/// The `begin-rendering` of the instance open at command `ci` (a draw or
/// an end): the nearest one before it (`vksync::resolve` checked that
/// instances do not nest or span submissions).
pub(crate) fn open_rendering(program: &Program, ci: usize) -> Option<&vksync::Rendering> {
    program.commands()[..ci].iter().rev().find_map(|c| match c {
        Command::Render(rc) => match &rc.op {
            vksync::RenderOp::Begin(r) => Some(Some(r)),
            vksync::RenderOp::End
            | vksync::RenderOp::BeginPass(_)
            | vksync::RenderOp::NextSubpass
            | vksync::RenderOp::EndSubpass { .. }
            | vksync::RenderOp::EndPass => Some(None),
            vksync::RenderOp::Draw(_) | vksync::RenderOp::Clear(_) => None,
        },
        _ => None,
    })?
}

/// Why an exact image command is not recorded, if it is not.
fn check_image_command(program: &Program, layout: &Layout, op: &ImageOp) -> Option<CheckError> {
    let call = op.vulkan_name();
    match op {
        ImageOp::ResolveImage { .. } => Some(CheckError::ImageCommand {
            call,
            reason: "resolves are not recorded: the trace format carries no sample count and the runtime's images are single-sample, while a resolve needs a multisampled source (VUID-vkCmdResolveImage-srcImage-00257)".to_string(),
        }),
        ImageOp::CopyBufferToImage { buffer, image, regions, .. }
        | ImageOp::CopyImageToBuffer { buffer, image, regions, .. } => {
            let d = program.image(*image)?;
            let block = d.format.block_bytes(vksync::Aspect::Color).max(1);
            // A multiple of 4 and of the texel block size ("Copying Data
            // Between Buffers and Images": bufferOffset must be a multiple
            // of the texel block size, and of 4 before maintenance5).
            let align = if block.is_multiple_of(4) { block } else { block * 4 };
            let base = layout.place(*buffer).map_or(0, |(_, base)| base);
            regions.iter().enumerate().find_map(|(index, r)| {
                let offset = base + r.buffer_offset;
                (!offset.is_multiple_of(align)).then(|| CheckError::ImageCommand {
                    call,
                    reason: format!(
                        "region {index}'s bufferOffset is byte {offset} of its memory, which is not a multiple of {align} (4 and the {} texel block of {} bytes)",
                        d.format, block
                    ),
                })
            })
        }
        _ => None,
    }
}

/// Checks every image's format against the device: `features(format,
/// tiling)` is the device's `VkFormatProperties` (linear or optimal tiling
/// features) for a `VkFormat` value, and each image needs
/// [`image_features`] there.
pub fn check_image_formats(
    program: &Program,
    features: &dyn Fn(u32, Tiling) -> vk::FormatFeatureFlags,
) -> Result<()> {
    for d in program.images() {
        let needed = image_features(program, d.object);
        let have = features(d.format.info().value, d.tiling);
        let missing = needed & !have;
        if !missing.is_empty() {
            return Err(RuntimeError::Check {
                at: Location::Object(d.object),
                source: CheckError::ImageFormat {
                    image: image_name(program, d.object),
                    format: d.format.info().name,
                    reason: format!(
                        "the device's {} tiling lacks {missing:?}",
                        match d.tiling {
                            Tiling::Optimal => "optimal",
                            Tiling::Linear => "linear",
                        }
                    ),
                },
            });
        }
    }
    Ok(())
}

/// Refuses commands the device's queue family cannot run: a blit on a
/// family without graphics (a dedicated compute family, as the H200's).
/// Without this check the driver may lose the device instead of failing.
pub fn check_queue_capabilities(program: &Program, family: u32, graphics: bool) -> Result<()> {
    if graphics {
        return Ok(());
    }
    for (i, c) in program.commands().iter().enumerate() {
        let call = match c {
            Command::Image(ic) if matches!(ic.op, ImageOp::BlitImage { .. }) => "vkCmdBlitImage",
            Command::Render(rc) => rc.op.vulkan_name(),
            _ => continue,
        };
        return Err(RuntimeError::Check {
            at: Location::Command(i),
            source: CheckError::NeedsGraphics { call, family },
        });
    }
    Ok(())
}

/// About how many bytes of host memory the CPU reference
/// (`vksync::reference::run`) and a comparison with a device run need for
/// `program`: a byte and a definedness flag per byte of every object with
/// storage of its own (buffers, pools and blobs) and of every image's
/// texels, two bytes per byte read
/// by the host plus the device's copy of it, and the largest copy's
/// temporary. Saturates at `u64::MAX`.
pub fn reference_host_bytes(program: &Program) -> u64 {
    let mut total = 0u64;
    for o in program.objects() {
        if !matches!(o.kind, vksync::ObjectKind::Buffer { alias: Some(_) }) {
            total = total.saturating_add(o.size.saturating_mul(2));
        }
    }
    // An image's texels are a store of their own beside its memory's bytes.
    for d in program.images() {
        let size = program.object(d.object).map_or(0, |o| o.size);
        total = total.saturating_add(size.saturating_mul(2));
    }
    let mut largest_copy = 0u64;
    for c in program.commands() {
        match c {
            Command::HostRead { src } => total = total.saturating_add(src.range.len().saturating_mul(3)),
            Command::Copy { src, .. } => largest_copy = largest_copy.max(src.range.len().saturating_mul(2)),
            _ => {}
        }
    }
    total.saturating_add(largest_copy)
}

/// `MemAvailable` of `/proc/meminfo`, in bytes, where the host has one.
pub fn host_memory_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_available(&text)
}

fn mem_available(meminfo: &str) -> Option<u64> {
    meminfo_bytes(meminfo, "MemAvailable:")
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
pub(crate) fn mem_total(meminfo: &str) -> Option<u64> {
    meminfo_bytes(meminfo, "MemTotal:")
}

fn meminfo_bytes(meminfo: &str, key: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Checks that the CPU reference can run `program` in the host's memory
/// (see [`reference_host_bytes`]), before anything is allocated: against
/// `available` when given, and by asking the allocator for that much (and
/// giving it back) in any case. The error is about the largest object.
pub fn check_reference_memory(program: &Program, available: Option<u64>) -> Result<()> {
    let needed = reference_host_bytes(program);
    let fits_available = available.is_none_or(|a| needed <= a);
    // Within the process's heap limit (`limits`, the CLI's `--max-memory`)
    // first: the probe below must not be the allocation that reaches it.
    let within_limit = needed <= crate::limits::headroom();
    // Asks for address space only: the pages are never touched.
    let allocatable = within_limit
        && usize::try_from(needed)
            .ok()
            .is_some_and(|n| Vec::<u8>::new().try_reserve_exact(n).is_ok());
    if fits_available && allocatable {
        return Ok(());
    }
    let Some((id, object)) = program
        .objects()
        .iter()
        .enumerate()
        .max_by_key(|(_, o)| o.size)
        .map(|(i, o)| (ObjectId(i as u32), o))
    else {
        // Without objects the reference needs nothing (`needed` is 0).
        return Ok(());
    };
    Err(RuntimeError::Check {
        at: Location::Object(id),
        source: CheckError::HostMemory {
            name: object.name.clone(),
            size: object.size,
            needed,
            available: if fits_available { None } else { available },
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> Program {
        vksync::trace::parse(text).expect("parses").program
    }

    /// What `check_program` says about a trace, as text: `ok`, or the
    /// error with its location.
    fn verdict(text: &str, limits: &DeviceLimits) -> String {
        match check_program(&program(text), limits) {
            Ok(_) => "ok".to_string(),
            Err(e) => e.to_string(),
        }
    }

    const AB: &str = "buffer a 1024\nbuffer b 1024\nbuffer c 1024\n";

    /// Dispatch arguments, checked with no device: (trace after `AB`,
    /// limits, verdict).
    #[test]
    fn dispatch_arguments_are_checked_without_a_device() {
        let u = &DeviceLimits::UNLIMITED;
        let p = &DeviceLimits::PORTABLE;
        let tiny = &DeviceLimits {
            max_storage_buffer_range: 64,
            max_compute_work_group_count_x: 1,
            ..DeviceLimits::UNLIMITED
        };
        let cases: &[(&str, &DeviceLimits, &str)] = &[
            ("dispatch scale_add(2,1) read a write b\n", u, "ok"),
            ("dispatch add read a read b write c\n", p, "ok"),
            (
                "dispatch gelu read a write b\n",
                u,
                "command 0: unknown kernel `gelu` (known: scale_add(a,b), add, scale(a), slow(iters), image_scale_add(a,b), image_slow(iters), image_sampled_scale_add(a,b))",
            ),
            (
                "dispatch scale(1,2) rw a\n",
                u,
                "command 0: kernel `scale` takes at most 1 parameter, got 2",
            ),
            (
                "dispatch add read a write b\n",
                u,
                "command 0: kernel `add` takes bindings `read, read, write`, got `read, write`",
            ),
            (
                "dispatch scale_add read a[0..32] write b\n",
                u,
                "command 0: kernel `scale_add` binding 1 is 1024 bytes, but every binding must be 32 bytes (a multiple of 4, all equal)",
            ),
            (
                "dispatch scale_add read a[2..34] write b[0..32]\n",
                u,
                "command 0: binding 0 starts at memory offset 2, which is not a multiple of 4 (storage buffers are indexed in 32-bit words)",
            ),
            // Offset 16 is widened to 0 under PORTABLE's 256-byte
            // alignment: a note, not an error.
            ("dispatch scale_add read a[16..48] write b[0..32]\n", p, "ok"),
            (
                "dispatch scale_add read a[0..128] write b[0..128]\n",
                tiny,
                "command 0: binding 0 needs a 128-byte descriptor range, over maxStorageBufferRange 64",
            ),
            (
                "dispatch scale_add read a[0..64] write b[0..64]\n",
                &DeviceLimits {
                    max_compute_work_group_count_x: 0,
                    ..DeviceLimits::UNLIMITED
                },
                "command 0: 16 elements need 1 workgroups of 64, over maxComputeWorkGroupCount[0] 0",
            ),
            // A coarse image (a `buffer`) has no VkImage: its layout
            // transition is refused by the pure checks, before any Vulkan
            // object exists.
            ("barrier COPY:NONE -> COPY:NONE a[0..64]\n", u, "ok"),
            (
                "fill a 1\nbarrier CLEAR:NONE -> COPY:NONE; CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ b[0..64] transition\n",
                u,
                "command 1: barrier 1 performs a layout transition of a `buffer`-declared (coarse) image, which has no VkImage to transition, and a buffer barrier in its place would drop the transition's write (declare the image with `image`)",
            ),
        ];
        for (tail, limits, expected) in cases {
            assert_eq!(verdict(&format!("{AB}{tail}"), limits), *expected, "{tail}");
        }
    }

    /// Images, checked with no device: (declarations and commands, verdict).
    #[test]
    fn image_programs_are_checked_without_a_device() {
        let u = &DeviceLimits::UNLIMITED;
        let to_general =
            |img: &str| format!("barrier NONE:NONE -> NONE:NONE {img} COLOR:0:0.. UNDEFINED->GENERAL\n");
        let cases: Vec<(String, &str)> = vec![
            (
                format!(
                    "image t R32_UINT 32x32 layers 3\nimage v R32_UINT 32x32 layers 3\n{}{}\
                     dispatch image_slow(5) image-read t COLOR:0:0.. image-write v COLOR:0:0..\n",
                    to_general("t"),
                    to_general("v")
                ),
                "ok",
            ),
            (
                "image d D24_UNORM_S8_UINT 4x4\n".to_string(),
                "object 3: image `d` is D24_UNORM_S8_UINT: the runtime creates images of uncompressed color formats and optimal D32_SFLOAT only (no other depth, stencil or block-compressed ones)",
            ),
            (
                "image l R32_UINT 4x4 layers 2 linear\n".to_string(),
                "object 3: image `l` is R32_UINT: a linear image is supported with one mip level, one layer and depth 1 only (the spec's guarantee for linear tiling, \"Image Creation Limits\")",
            ),
            // Bound to a buffer's memory: whether the device's requirements
            // allow the offset is known once the image exists.
            ("image t R32_UINT 4x4 alias a 64\n".to_string(), "ok"),
            (
                format!(
                    "buffer odd 64 alias a 2\nimage t R32_UINT 4x4\n{}copy-buffer-to-image odd -> t GENERAL imageSubresource=COLOR:0:0 imageExtent=4,4,1\n",
                    to_general("t")
                ),
                // (A `bufferOffset` that is no multiple of the texel block
                // the model refuses itself, VUID-...-07975; here the
                // buffer's place in its memory makes it one.)
                "command 1: vkCmdCopyBufferToImage: region 0's bufferOffset is byte 2 of its memory, which is not a multiple of 4 (4 and the R32_UINT texel block of 4 bytes)",
            ),
            (
                format!(
                    "image t R32_UINT 4x4\nimage v R32_UINT 4x4\n{}{}\
                     resolve-image t GENERAL -> v GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 extent=4,4,1\n",
                    to_general("t"),
                    to_general("v")
                ),
                "command 2: vkCmdResolveImage: resolves are not recorded: the trace format carries no sample count and the runtime's images are single-sample, while a resolve needs a multisampled source (VUID-vkCmdResolveImage-srcImage-00257)",
            ),
        ];
        for (tail, expected) in cases {
            assert_eq!(verdict(&format!("{AB}{tail}"), u), expected, "{tail}");
        }
    }

    /// The format features each image needs, against a device's:
    /// (program, features the device has on optimal tiling, verdict).
    #[test]
    fn image_formats_are_checked_against_the_features() {
        use vk::FormatFeatureFlags as F;
        let copy = F::TRANSFER_SRC | F::TRANSFER_DST;
        let head = "buffer a 64\nimage t R32_UINT 4x4 mips 2\nimage v R32_UINT 4x4 mips 2\n\
                    barrier NONE:NONE -> NONE:NONE t COLOR:0..:0 UNDEFINED->GENERAL\n\
                    barrier NONE:NONE -> NONE:NONE v COLOR:0..:0 UNDEFINED->GENERAL\n";
        let store = "dispatch image_scale_add image-read t COLOR:0:0 image-write v COLOR:0:0\n";
        let blit = "blit-image t GENERAL -> v GENERAL srcSubresource=COLOR:0:0 srcOffsets=0,0,0:4,4,1 dstSubresource=COLOR:1:0 dstOffsets=0,0,0:2,2,1\n";
        let cases: &[(&str, F, &str)] = &[
            ("", copy, "ok"),
            (
                "",
                F::TRANSFER_SRC,
                "object 1: image `t` is R32_UINT: the device's optimal tiling lacks TRANSFER_DST",
            ),
            (store, copy | F::STORAGE_IMAGE, "ok"),
            (
                store,
                copy,
                "object 1: image `t` is R32_UINT: the device's optimal tiling lacks STORAGE_IMAGE",
            ),
            (blit, copy | F::BLIT_SRC | F::BLIT_DST, "ok"),
            (
                blit,
                copy | F::BLIT_SRC,
                "object 2: image `v` is R32_UINT: the device's optimal tiling lacks BLIT_DST",
            ),
        ];
        for (tail, have, expected) in cases {
            let p = program(&format!("{head}{tail}"));
            let got = match check_image_formats(&p, &|_, tiling| match tiling {
                Tiling::Optimal => *have,
                Tiling::Linear => F::empty(),
            }) {
                Ok(()) => "ok".to_string(),
                Err(e) => e.to_string(),
            };
            assert_eq!(got, *expected, "{tail}");
        }
    }

    #[test]
    fn widened_bindings_are_noted() {
        let t = format!("{AB}dispatch scale_add read a[16..48] write b[256..288]\n");
        let checked = check_program(&program(&t), &DeviceLimits::PORTABLE).expect("passes");
        assert_eq!(
            checked.notes,
            vec![RunNote::WidenedBinding {
                command: 0,
                binding: 0,
                offset: 16,
                bound_offset: 0
            }]
        );
        let d = checked.dispatches[0].as_ref().expect("a dispatch");
        assert_eq!((d.elements, d.groups), (8, [1, 1, 1]));
        assert_eq!(
            d.bindings
                .iter()
                .map(|b| (b.offset, b.range, b.first_element))
                .collect::<Vec<_>>(),
            vec![(0, 48, 4), (256, 32, 0)]
        );
    }

    /// Memory objects against the device's buffer, allocation and heap
    /// limits: (trace, limits, verdict).
    #[test]
    fn memory_objects_are_checked_against_the_limits() {
        let limits = DeviceLimits {
            max_buffer_size: 1 << 40,
            max_memory_allocation_size: 1 << 32,
            max_heap_size: 1 << 34,
            max_host_visible_heap_size: 1 << 31,
            ..DeviceLimits::UNLIMITED
        };
        let cases: &[(&str, &str)] = &[
            ("buffer a 4294967296\n", "ok"),
            (
                "buffer a 64\nbuffer big 4294967300\n",
                "object 1: `big` needs 4294967300 bytes (4 GiB), over the device's maxMemoryAllocationSize (4294967296 bytes (4 GiB))",
            ),
            (
                "buffer a 2147483652\nhost-read a[0..4]\n",
                "object 0: `a` needs 2147483652 bytes (2 GiB), over the device's largest host-visible memory heap (2147483648 bytes (2 GiB))",
            ),
            (
                "pool p 2199023255552\n",
                "object 0: `p` needs 2199023255552 bytes (2 TiB), over the device's maxBufferSize (1099511627776 bytes (1 TiB))",
            ),
            (
                "buffer huge 18446744073709551612\n",
                "object 0: `huge` needs 18446744073709551612 bytes (16 EiB), over the device's maxBufferSize (1099511627776 bytes (1 TiB))",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(verdict(text, &limits), *expected, "{text}");
        }
    }

    /// The reference's host memory: (trace, available, verdict).
    #[test]
    fn reference_memory_is_checked_before_allocating() {
        let cases: &[(&str, Option<u64>, &str)] = &[
            ("buffer a 1024\nhost-read a\n", Some(1 << 20), "ok"),
            ("buffer a 1024\nhost-read a\n", None, "ok"),
            (
                "buffer a 1024\nhost-read a\n",
                Some(4096),
                "object 0: the CPU reference needs 5120 bytes (5 KiB) of host memory for this program (`a` alone is 1024 bytes (1 KiB)), more than the 4096 bytes (4 KiB) available",
            ),
            (
                "buffer small 64\nbuffer big 1099511627776\nfill big[0..64] 1\n",
                Some(1 << 34),
                "object 1: the CPU reference needs 2199023255680 bytes (2 TiB) of host memory for this program (`big` alone is 1099511627776 bytes (1 TiB)), more than the 17179869184 bytes (16 GiB) available",
            ),
            (
                "buffer big 18446744073709551612\nhost-read big\n",
                None,
                "object 0: the CPU reference needs 18446744073709551615 bytes (16 EiB) of host memory for this program (`big` alone is 18446744073709551612 bytes (16 EiB)), more than the host can allocate",
            ),
        ];
        for (text, available, expected) in cases {
            let got = match check_reference_memory(&program(text), *available) {
                Ok(()) => "ok".to_string(),
                Err(e) => e.to_string(),
            };
            assert_eq!(got, *expected, "{text}");
        }
    }

    #[test]
    fn reference_bytes_count_storage_reads_and_the_largest_copy() {
        let cases: &[(&str, u64)] = &[
            ("", 0),
            ("buffer a 100\n", 200),
            ("buffer a 100\nbuffer v 50 alias a 0\n", 200),
            ("pool p 1024\nalloc x 256 from p\n", 2048 + 512),
            (
                "buffer a 100\nbuffer b 100\ncopy a[0..40] -> b[0..40]\nhost-read b[0..10]\n",
                400 + 80 + 30,
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(reference_host_bytes(&program(text)), *expected, "{text}");
        }
    }

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let cases: &[(&str, Option<u64>)] = &[
            ("MemTotal:  100 kB\nMemAvailable:   2048 kB\n", Some(2 << 20)),
            ("MemTotal:  100 kB\n", None),
            ("MemAvailable: lots kB\n", None),
        ];
        for (text, expected) in cases {
            assert_eq!(mem_available(text), *expected, "{text}");
        }
    }

    #[test]
    fn sizes_are_shown_exactly_and_roughly() {
        let cases: &[(u64, &str)] = &[
            (0, "0 bytes"),
            (1023, "1023 bytes"),
            (1536, "1536 bytes (1.5 KiB)"),
            (1 << 40, "1099511627776 bytes (1 TiB)"),
            (u64::MAX, "18446744073709551615 bytes (16 EiB)"),
        ];
        for (n, expected) in cases {
            assert_eq!(show_bytes(*n), *expected);
        }
    }

    /// (program, whether the queue family has graphics, the answer).
    #[test]
    fn blits_need_a_graphics_family() {
        let blit = "buffer x 64\nimage a R32_UINT 4x4\nimage b R32_UINT 4x4\n\
            barrier NONE:NONE -> BLIT:TRANSFER_READ a COLOR:0:0 UNDEFINED->GENERAL; NONE:NONE -> BLIT:TRANSFER_WRITE b COLOR:0:0 UNDEFINED->GENERAL\n\
            blit-image a GENERAL -> b GENERAL srcSubresource=COLOR:0:0 srcOffsets=0,0,0:4,4,1 dstSubresource=COLOR:0:0 dstOffsets=0,0,0:4,4,1\n";
        let copy = "buffer x 64\nbuffer y 64\ncopy x -> y\n";
        let cases = [
            (blit, false, "command 1: vkCmdBlitImage needs a queue family with graphics (VUID-vkCmdBlitImage-commandBuffer-cmdpool); the device's queue family 2 has none"),
            (blit, true, "ok"),
            (copy, false, "ok"),
        ];
        for (text, graphics, want) in cases {
            let p = vksync::trace::parse(text).expect("parses").program;
            let got = match check_queue_capabilities(&p, 2, graphics) {
                Ok(()) => "ok".to_string(),
                Err(e) => e.to_string(),
            };
            assert_eq!(got, want, "{text}");
        }
    }
}
