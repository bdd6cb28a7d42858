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
//! object against the device's largest buffer, allocation and heap; and the
//! host memory the CPU reference will need. It does not validate the
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
use crate::kernels::{MAX_BINDINGS, WORKGROUP_SIZE};
use crate::recorder::RunNote;
use vksync::reference::{Kernel, KernelError};
use vksync::{Command, Layout, Location, MemId, ObjectId, Program};

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
    #[error("barrier {barrier} performs an image layout transition; the runtime records buffers only, and a buffer barrier in its place would drop the transition's write")]
    LayoutTransition {
        /// The barrier's index in its `vkCmdPipelineBarrier2`.
        barrier: usize,
    },
    #[error("{call} copies to or from an image; the runtime records buffers only")]
    ImageCopy {
        /// The Vulkan command (`vkCmdCopyBufferToImage`, ...).
        call: &'static str,
    },
    #[error("{call} is a rendering command; the runtime records compute and transfer work only")]
    Rendering {
        /// The Vulkan command (`vkCmdBeginRendering`, `vkCmdDraw`, ...).
        call: &'static str,
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
    /// Elements per binding (push constant `n`).
    pub elements: u64,
    /// Workgroups of [`WORKGROUP_SIZE`] (unused for indirect dispatches).
    pub groups: u32,
    pub bindings: Vec<BoundRange>,
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
/// (`layout` places its regions); `Ok(None)` for other commands. Widened
/// bindings are reported as [`RunNote::WidenedBinding`] for `command`.
pub fn check_dispatch(
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
        groups: groups as u32,
        bindings: bound,
    }))
}

/// Validates `program` (`vksync::resolve`), refuses image layout
/// transitions and image copies (the runtime has no images:
/// [`CheckError::LayoutTransition`], [`CheckError::ImageCopy`]),
/// then checks every dispatch and every memory object against `limits`.
/// Errors carry the command or object they are about; nothing here touches
/// a device.
pub fn check_program(program: &Program, limits: &DeviceLimits) -> Result<CheckedProgram> {
    let layout = vksync::resolve(program)?;
    // Several queues, semaphores, events and ownership transfers are
    // recorded (`crate::queues` maps the queues when the run starts).
    for (ci, c) in program.commands().iter().enumerate() {
        let refused = match c {
            Command::Barrier(dep) => dep
                .barriers
                .iter()
                .position(|b| b.transition)
                .map(|barrier| CheckError::LayoutTransition { barrier }),
            Command::CopyImage { kind, .. } => Some(CheckError::ImageCopy {
                call: kind.vulkan_name(),
            }),
            Command::Image(ic) => Some(CheckError::ImageCopy {
                call: ic.op.vulkan_name(),
            }),
            Command::Render(rc) => Some(CheckError::Rendering {
                call: rc.op.vulkan_name(),
            }),
            _ => None,
        };
        if let Some(source) = refused {
            return Err(RuntimeError::Check {
                at: Location::Command(ci),
                source,
            });
        }
    }
    let mut notes = Vec::new();
    let mut dispatches = Vec::with_capacity(program.commands().len());
    for (ci, c) in program.commands().iter().enumerate() {
        let d = check_dispatch(ci, c, &layout, limits, &mut notes).map_err(|source| RuntimeError::Check {
            at: Location::Command(ci),
            source,
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

/// About how many bytes of host memory the CPU reference
/// (`vksync::reference::run`) and a comparison with a device run need for
/// `program`: a byte and a definedness flag per byte of every object with
/// storage of its own (buffers, pools and blobs), two bytes per byte read
/// by the host plus the device's copy of it, and the largest copy's
/// temporary. Saturates at `u64::MAX`.
pub fn reference_host_bytes(program: &Program) -> u64 {
    let mut total = 0u64;
    for o in program.objects() {
        if !matches!(o.kind, vksync::ObjectKind::Buffer { alias: Some(_) }) {
            total = total.saturating_add(o.size.saturating_mul(2));
        }
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
                "command 0: unknown kernel `gelu` (known: scale_add(a,b), add, scale(a), slow(iters))",
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
            // The runtime has no images: a layout transition is refused by
            // the pure checks, before any Vulkan object exists.
            ("barrier COPY:NONE -> COPY:NONE a[0..64]\n", u, "ok"),
            (
                "fill a 1\nbarrier CLEAR:NONE -> COPY:NONE; CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ b[0..64] transition\n",
                u,
                "command 1: barrier 1 performs an image layout transition; the runtime records buffers only, and a buffer barrier in its place would drop the transition's write",
            ),
        ];
        for (tail, limits, expected) in cases {
            assert_eq!(verdict(&format!("{AB}{tail}"), limits), *expected, "{tail}");
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
        assert_eq!((d.elements, d.groups), (8, 1));
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
}
