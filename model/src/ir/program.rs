//! The program representation shared by the checker, the planners, the
//! runtime, the property suites and the trace format.
//!
//! A [`Program`] is a list of named objects (buffers with their own memory,
//! buffers aliasing another object's memory, pools, and blobs carved from
//! pools) and a sequence of [`Command`]s over byte regions of those objects.
//! This module owns the types and their construction helpers; it does not
//! decide where blobs live (that is [`crate::ir::layout`]) nor what a command's
//! accesses are (that is [`crate::ir::access`]).

use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use std::fmt;

/// Index of an object in [`Program::objects`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(pub u32);

/// A half-open byte range `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ByteRange {
    pub start: u64,
    pub end: u64,
}

impl ByteRange {
    pub fn new(start: u64, end: u64) -> Self {
        ByteRange { start, end }
    }
    pub fn len(self) -> u64 {
        self.end.saturating_sub(self.start)
    }
    pub fn is_empty(self) -> bool {
        self.end <= self.start
    }
    pub fn overlaps(self, other: ByteRange) -> bool {
        self.start < other.end && other.start < self.end
    }
    pub fn intersect(self, other: ByteRange) -> ByteRange {
        ByteRange::new(self.start.max(other.start), self.end.min(other.end))
    }
    pub fn shift(self, by: u64) -> ByteRange {
        ByteRange::new(self.start + by, self.end + by)
    }
}

impl fmt::Display for ByteRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// What kind of object a name denotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// A buffer. With `alias: None` it is bound to memory of its own; with
    /// `alias: Some((other, offset))` it is bound to `other`'s memory at
    /// `offset` bytes past `other`'s own start, so the two share state.
    Buffer { alias: Option<(ObjectId, u64)> },
    /// A memory block that blobs are allocated from, like ncnn's
    /// `VkBlobAllocator` block. Blob offsets are rounded up to `align`.
    Pool { align: u64 },
    /// A blob allocated from a pool by an [`Command::Alloc`].
    Blob { pool: ObjectId },
}

/// A named object: buffer, pool or blob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object {
    pub name: String,
    pub size: u64,
    pub kind: ObjectKind,
}

/// A byte range of an object, relative to the object's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    pub object: ObjectId,
    pub range: ByteRange,
}

/// How a dispatch uses a storage-buffer binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BindingAccess {
    /// `readonly` in the shader: `SHADER_STORAGE_READ`.
    Read,
    /// `writeonly`: `SHADER_STORAGE_WRITE`.
    Write,
    /// Read and written: both.
    ReadWrite,
}

impl BindingAccess {
    pub fn keyword(self) -> &'static str {
        match self {
            BindingAccess::Read => "read",
            BindingAccess::Write => "write",
            BindingAccess::ReadWrite => "rw",
        }
    }
}

/// One storage-buffer binding of a dispatch. The whole bound range counts
/// as accessed, whatever the shader does with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Binding {
    pub access: BindingAccess,
    pub region: Region,
}

/// One barrier of a `vkCmdPipelineBarrier2`: a `VkMemoryBarrier2` when
/// `region` is `None`, a `VkBufferMemoryBarrier2` over `region` otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Barrier {
    pub src_stage_mask: PipelineStageFlags2,
    pub src_access_mask: AccessFlags2,
    pub dst_stage_mask: PipelineStageFlags2,
    pub dst_access_mask: AccessFlags2,
    pub region: Option<Region>,
}

impl Barrier {
    /// A global memory barrier.
    pub fn global(
        src_stage_mask: PipelineStageFlags2,
        src_access_mask: AccessFlags2,
        dst_stage_mask: PipelineStageFlags2,
        dst_access_mask: AccessFlags2,
    ) -> Self {
        Barrier {
            src_stage_mask,
            src_access_mask,
            dst_stage_mask,
            dst_access_mask,
            region: None,
        }
    }

    /// The same barrier restricted to a buffer region.
    pub fn on(self, region: Region) -> Self {
        Barrier {
            region: Some(region),
            ..self
        }
    }

    /// `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION]`, the trace
    /// format's text of one barrier, naming `program`'s objects.
    pub fn describe(&self, program: &Program) -> String {
        let mut s = format!(
            "{}:{} -> {}:{}",
            self.src_stage_mask, self.src_access_mask, self.dst_stage_mask, self.dst_access_mask
        );
        if let Some(r) = self.region {
            s.push(' ');
            s.push_str(&program.show_region(r));
        }
        s
    }

    /// The number of stage and access bits the barrier sets: the measure of
    /// "how much" a barrier synchronizes, used by the planner tables.
    pub fn bit_count(&self) -> u32 {
        self.src_stage_mask.bits().count_ones()
            + self.src_access_mask.bits().count_ones()
            + self.dst_stage_mask.bits().count_ones()
            + self.dst_access_mask.bits().count_ones()
    }
}

/// One `vkCmdPipelineBarrier2`: its barriers apply together and do not
/// chain with each other.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Dependency {
    pub barriers: Vec<Barrier>,
}

/// A command of the program, in recording order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Allocates a blob from its pool (no device work).
    Alloc { blob: ObjectId },
    /// Returns a blob's memory to its pool (no device work). The memory may
    /// be handed out again by a later `Alloc` while earlier commands that
    /// used it have not executed yet: that is the ncnn report's bug.
    Free { blob: ObjectId },
    /// `vkCmdCopyBuffer` with one region; `src` and `dst` have equal sizes.
    Copy { src: Region, dst: Region },
    /// `vkCmdFillBuffer` with a 32-bit value.
    Fill { dst: Region, value: u32 },
    /// `vkCmdUpdateBuffer`: word `i` of the region becomes `value + i`.
    Update { dst: Region, value: u32 },
    /// `vkCmdDispatch` (or `vkCmdDispatchIndirect` when `indirect` is set,
    /// the region holding the 12-byte `VkDispatchIndirectCommand`).
    Dispatch {
        kernel: String,
        params: Vec<u32>,
        bindings: Vec<Binding>,
        indirect: Option<Region>,
    },
    /// The host writes a mapped region: word `i` becomes `value + i`.
    HostWrite { dst: Region, value: u32 },
    /// The host reads a mapped region.
    HostRead { src: Region },
    /// `vkCmdPipelineBarrier2`.
    Barrier(Dependency),
    /// `vkQueueSubmit` of everything recorded since the last submit, with a
    /// fence.
    Submit,
    /// `vkWaitForFences` on every submission so far.
    Wait,
}

impl Command {
    /// The short name used in messages and in the trace format.
    pub fn keyword(&self) -> &'static str {
        match self {
            Command::Alloc { .. } => "alloc",
            Command::Free { .. } => "free",
            Command::Copy { .. } => "copy",
            Command::Fill { .. } => "fill",
            Command::Update { .. } => "update",
            Command::Dispatch { .. } => "dispatch",
            Command::HostWrite { .. } => "host-write",
            Command::HostRead { .. } => "host-read",
            Command::Barrier(_) => "barrier",
            Command::Submit => "submit",
            Command::Wait => "wait",
        }
    }

    /// The Vulkan call the command stands for, for messages.
    pub fn vulkan_name(&self) -> &'static str {
        match self {
            Command::Alloc { .. } => "alloc",
            Command::Free { .. } => "free",
            Command::Copy { .. } => "vkCmdCopyBuffer",
            Command::Fill { .. } => "vkCmdFillBuffer",
            Command::Update { .. } => "vkCmdUpdateBuffer",
            Command::Dispatch {
                indirect: Some(_), ..
            } => "vkCmdDispatchIndirect",
            Command::Dispatch { .. } => "vkCmdDispatch",
            Command::HostWrite { .. } => "host write",
            Command::HostRead { .. } => "host read",
            Command::Barrier(_) => "vkCmdPipelineBarrier2",
            Command::Submit => "vkQueueSubmit",
            Command::Wait => "vkWaitForFences",
        }
    }
}

/// A program: objects and the commands over them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Program {
    pub objects: Vec<Object>,
    pub commands: Vec<Command>,
}

impl Program {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn object(&self, id: ObjectId) -> &Object {
        &self.objects[id.0 as usize]
    }

    /// Finds an object by name.
    pub fn find(&self, name: &str) -> Option<ObjectId> {
        self.objects
            .iter()
            .position(|o| o.name == name)
            .map(|i| ObjectId(i as u32))
    }

    fn add(&mut self, name: &str, size: u64, kind: ObjectKind) -> ObjectId {
        self.objects.push(Object {
            name: name.to_string(),
            size,
            kind,
        });
        ObjectId(self.objects.len() as u32 - 1)
    }

    /// Declares a buffer with memory of its own.
    pub fn buffer(&mut self, name: &str, size: u64) -> ObjectId {
        self.add(name, size, ObjectKind::Buffer { alias: None })
    }

    /// Declares a buffer bound to `other`'s memory at `offset`.
    pub fn alias(&mut self, name: &str, size: u64, other: ObjectId, offset: u64) -> ObjectId {
        self.add(
            name,
            size,
            ObjectKind::Buffer {
                alias: Some((other, offset)),
            },
        )
    }

    /// Declares a pool.
    pub fn pool(&mut self, name: &str, size: u64, align: u64) -> ObjectId {
        self.add(name, size, ObjectKind::Pool { align })
    }

    /// Declares a blob and appends the `Alloc` that creates it.
    pub fn alloc(&mut self, name: &str, size: u64, pool: ObjectId) -> ObjectId {
        let id = self.add(name, size, ObjectKind::Blob { pool });
        self.commands.push(Command::Alloc { blob: id });
        id
    }

    /// Appends a command.
    pub fn push(&mut self, command: Command) -> &mut Self {
        self.commands.push(command);
        self
    }

    /// A region of an object.
    pub fn region(&self, object: ObjectId, start: u64, end: u64) -> Region {
        Region {
            object,
            range: ByteRange::new(start, end),
        }
    }

    /// The whole of an object.
    pub fn whole(&self, object: ObjectId) -> Region {
        Region {
            object,
            range: ByteRange::new(0, self.object(object).size),
        }
    }

    /// Renders a region as `NAME[A..B]`.
    pub fn show_region(&self, region: Region) -> String {
        format!("{}[{}]", self.object(region.object).name, region.range)
    }

    /// The number of `Barrier` commands (barrier points).
    pub fn barrier_points(&self) -> usize {
        self.commands
            .iter()
            .filter(|c| matches!(c, Command::Barrier(d) if !d.barriers.is_empty()))
            .count()
    }

    /// The total number of stage and access bits over all barriers.
    pub fn barrier_bits(&self) -> u64 {
        self.commands
            .iter()
            .filter_map(|c| match c {
                Command::Barrier(d) => Some(d),
                _ => None,
            })
            .flat_map(|d| d.barriers.iter())
            .map(|b| u64::from(b.bit_count()))
            .sum()
    }

    /// The program with every barrier removed.
    pub fn without_barriers(&self) -> Program {
        Program {
            objects: self.objects.clone(),
            commands: self
                .commands
                .iter()
                .filter(|c| !matches!(c, Command::Barrier(_)))
                .cloned()
                .collect(),
        }
    }
}
