//! Incremental planning for a runtime that records commands as it goes
//! ([`Tracker`]), and its stateless special case ([`barrier_between`]).
//!
//! A runtime (ncnn, ggml-vulkan and Kompute record this way) declares its
//! buffers, pools and blobs as it creates them, and before recording each
//! command hands the tracker that command's accesses (resource, byte range,
//! stage, access). The tracker answers with the barrier to record before
//! the command (or none), with the fewest bits for what the command needs,
//! and whether a host access needs a submit and a fence wait first; it then
//! counts the command as recorded. It is the online planner
//! ([`crate::plan::PlannerKind::Online`]) run one command at a time, on the
//! same code: over a program, the two give the same barriers.
//!
//! Every call is validated and fails with a [`TrackerError`] naming the
//! call and the reason; nothing panics on bad input. Each access costs
//! O(log n + k): a lookup among the n distinct byte ranges the tracker
//! holds, then a step for each of the k ranges the access overlaps. Ranges
//! do not merge while they hold different writers (each remembers its
//! writing command), so a buffer written in many small pieces and then
//! accessed whole costs one step per piece, every time: 40,000 16-byte
//! writes followed by 40,000 whole reads take about 0.9 ms per read.
//! Resources are never forgotten: every `alloc` keeps a few dozen bytes
//! (about 84) until the tracker is dropped, so a runtime that allocates
//! millions of blobs should start a new tracker at a quiet point (after a
//! fence wait, when nothing is in flight).
//! The tracker assumes the runtime records exactly the barriers it returns
//! (no others) and submits and waits when told; [`Tracker::submit`] and
//! [`Tracker::wait`] tell it about the runtime's own submits and waits.
//!
//! Image layout transitions are refused by construction: a transition is a
//! write its own barrier performs, which a runtime could only tell the
//! tracker as an access, and `IMAGE_LAYOUT_TRANSITION` is no stage and
//! access a [`TrackedAccess`] can name ([`TrackerError::UnsupportedAccess`]
//! for `NONE:NONE`); the barriers the tracker returns never perform one.
//! A runtime that records its own image barriers should not track the
//! memory they cover (`docs/semantics.md`, "Image layout transitions").

use crate::ir::access::Access;
use crate::ir::layout::{BlobAllocator, Layout, MemId};
use crate::ir::program::{Barrier, ByteRange, ObjectId, Region};
use crate::plan::{online, BarrierForm};
use crate::semantics::{Reading, Semantics};
use crate::sync::checker::Checker;
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::scope::StageAccess;

/// One access of a command, as a runtime describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrackedAccess {
    /// The buffer, pool or blob (as the tracker returned it).
    pub resource: ObjectId,
    /// The bytes, relative to the resource's start; `None` for all of it.
    pub range: Option<ByteRange>,
    /// One stage flag: `COPY`, `CLEAR`, `BLIT`, `RESOLVE`,
    /// `COMPUTE_SHADER`, `DRAW_INDIRECT` or `HOST`.
    pub stage: PipelineStageFlags2,
    /// One access flag the stage makes (`TRANSFER_READ`,
    /// `SHADER_STORAGE_WRITE`, `INDIRECT_COMMAND_READ`, `HOST_WRITE`, ...).
    pub access: AccessFlags2,
}

impl TrackedAccess {
    /// `stage`/`access` over all of `resource`.
    pub fn whole(resource: ObjectId, stage: PipelineStageFlags2, access: AccessFlags2) -> Self {
        TrackedAccess {
            resource,
            range: None,
            stage,
            access,
        }
    }

    /// `stage`/`access` over `range` of `resource`.
    pub fn range(
        resource: ObjectId,
        range: ByteRange,
        stage: PipelineStageFlags2,
        access: AccessFlags2,
    ) -> Self {
        TrackedAccess {
            resource,
            range: Some(range),
            stage,
            access,
        }
    }
}

/// What to record before a command.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Needs {
    /// The barriers of one `vkCmdPipelineBarrier2`; empty: no barrier.
    pub barriers: Vec<Barrier>,
    /// Submit what was recorded and wait for it on a fence after the
    /// barriers, before the command (a host access after device work).
    pub submit_and_wait: bool,
}

impl Needs {
    /// Whether nothing is needed.
    pub fn is_empty(&self) -> bool {
        self.barriers.is_empty() && !self.submit_and_wait
    }
}

/// Why a tracker call was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TrackerError {
    /// A size of 0.
    #[error("{what}: size 0")]
    ZeroSize {
        /// The call.
        what: &'static str,
    },
    /// A pool alignment that is not a power of two.
    #[error("pool: alignment {align} is not a power of two")]
    BadAlign {
        /// The alignment given.
        align: u64,
    },
    /// A resource this tracker did not hand out.
    #[error("{what}: resource {id} is not one of this tracker's ({count} so far)")]
    UnknownResource {
        /// The call.
        what: &'static str,
        /// The id given.
        id: u32,
        /// How many resources the tracker has.
        count: usize,
    },
    /// `alloc` from something that is not a pool.
    #[error("alloc: resource {id} is not a pool")]
    NotAPool {
        /// The id given.
        id: u32,
    },
    /// `free` or `offset` of something that is not a blob.
    #[error("{what}: resource {id} is not a blob (only a blob allocated from a pool has an offset in it and is freed)")]
    NotABlob {
        /// The call.
        what: &'static str,
        /// The id given.
        id: u32,
    },
    /// An alias past the end of what it aliases.
    #[error("alias: {offset}..{offset}+{size} is past the end of resource {of} (size {of_size})")]
    AliasOutOfBounds {
        /// The resource aliased.
        of: u32,
        /// The alias's offset in it.
        offset: u64,
        /// The alias's size.
        size: u64,
        /// The aliased resource's size.
        of_size: u64,
    },
    /// An alias of a blob (alias the pool instead: a blob's memory changes
    /// hands).
    #[error("alias: resource {of} is a blob; alias its pool at the blob's offset instead")]
    AliasOfBlob {
        /// The blob given.
        of: u32,
    },
    /// The pool has no free range large enough.
    #[error("alloc: pool {pool} has no free range of {size} bytes")]
    PoolExhausted {
        /// The pool.
        pool: u32,
        /// The size asked for.
        size: u64,
    },
    /// A blob used or freed after it was freed.
    #[error("{what}: blob {id} was freed")]
    Freed {
        /// The call.
        what: &'static str,
        /// The blob.
        id: u32,
    },
    /// A range that is empty, reversed or past the resource's end.
    #[error("command: access {index}: range {start}..{end} of resource {id} (size {size}) is empty or out of bounds")]
    BadRange {
        /// The access's index in the command.
        index: usize,
        /// The resource.
        id: u32,
        /// The range given.
        start: u64,
        /// The range given.
        end: u64,
        /// The resource's size.
        size: u64,
    },
    /// A stage and access pair the model does not know (several flags, a
    /// meta flag, a graphics stage, or an access the stage cannot make).
    #[error("command: access {index}: {stage}:{access} is not one stage and one access the model knows (COPY, CLEAR, BLIT, RESOLVE, COMPUTE_SHADER, DRAW_INDIRECT or HOST with an access that stage makes){hint}")]
    UnsupportedAccess {
        /// The access's index in the command.
        index: usize,
        /// The stage given.
        stage: PipelineStageFlags2,
        /// The access given.
        access: AccessFlags2,
        /// What to write instead, after `; ` (empty when nothing better
        /// than the list can be said): the synchronization-2 names of a
        /// synchronization-1 flag, or one entry per access.
        hint: &'static str,
    },
}

/// What to name instead of a stage and access pair the tracker refuses
/// (for [`TrackerError::UnsupportedAccess`]): a `TrackedAccess` is the
/// access a command *makes*, so a synchronization-1 or meta flag (which a
/// barrier may name) gets the synchronization-2 flag for it.
fn access_hint(stage: PipelineStageFlags2, access: AccessFlags2) -> &'static str {
    type S = PipelineStageFlags2;
    type A = AccessFlags2;
    if stage.bits().count_ones() > 1 || access.bits().count_ones() > 1 {
        "; give each stage and access of a command as its own TrackedAccess"
    } else if access == A::SHADER_READ {
        "; SHADER_READ is the synchronization-1 access: name SHADER_STORAGE_READ (a storage buffer), UNIFORM_READ (a uniform buffer) or SHADER_SAMPLED_READ"
    } else if access == A::SHADER_WRITE {
        "; SHADER_WRITE is the synchronization-1 access: name SHADER_STORAGE_WRITE"
    } else if access == A::MEMORY_READ || access == A::MEMORY_WRITE {
        "; MEMORY_READ and MEMORY_WRITE stand for every access of their kind in a barrier: name the one the command makes (TRANSFER_READ, SHADER_STORAGE_WRITE, HOST_READ, ...)"
    } else if stage == S::ALL_TRANSFER {
        "; ALL_TRANSFER (TRANSFER in synchronization 1) stands for every transfer stage: name the one the command runs in, COPY (vkCmdCopyBuffer), CLEAR (vkCmdFillBuffer, vkCmdUpdateBuffer), BLIT or RESOLVE"
    } else if stage == S::ALL_COMMANDS
        || stage == S::ALL_GRAPHICS
        || stage == S::TOP_OF_PIPE
        || stage == S::BOTTOM_OF_PIPE
    {
        "; that stage orders others in a barrier but runs no access: name the stage the command runs in"
    } else {
        ""
    }
}

#[derive(Clone, Debug)]
enum Kind {
    Buffer,
    Pool(BlobAllocator),
    Blob { pool: ObjectId, offset: u64, live: bool },
}

#[derive(Clone, Debug)]
struct Resource {
    size: u64,
    kind: Kind,
}

/// The incremental planner; see the module documentation.
///
/// ```
/// use vksync::{AccessFlags2 as A, PipelineStageFlags2 as S, TrackedAccess, Tracker};
/// let mut t = Tracker::new();
/// let buf = t.buffer(256)?;
/// // A copy writes the buffer, then a dispatch reads it.
/// let fill = t.command(&[TrackedAccess::whole(buf, S::COPY, A::TRANSFER_WRITE)])?;
/// assert!(fill.is_empty());
/// let read = t.command(&[TrackedAccess::whole(buf, S::COMPUTE_SHADER, A::SHADER_STORAGE_READ)])?;
/// let b = &read.barriers[0];
/// assert_eq!((b.src_stage_mask, b.src_access_mask), (S::COPY, A::TRANSFER_WRITE));
/// assert_eq!((b.dst_stage_mask, b.dst_access_mask), (S::COMPUTE_SHADER, A::SHADER_STORAGE_READ));
/// # Ok::<(), vksync::TrackerError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Tracker {
    checker: Checker,
    layout: Layout,
    resources: Vec<Resource>,
    form: BarrierForm,
    commands: usize,
}

impl Default for Tracker {
    fn default() -> Self {
        Tracker::new()
    }
}

impl Tracker {
    /// A tracker giving global memory barriers, planned for both readings
    /// of write-after-write ([`Reading::VisibleToWrites`]).
    pub fn new() -> Tracker {
        Tracker::with_options(BarrierForm::Global, Reading::VisibleToWrites)
    }

    /// A tracker giving barriers of `form`, race-free under `reading`.
    pub fn with_options(form: BarrierForm, reading: Reading) -> Tracker {
        Tracker {
            checker: Checker::with_semantics(0, Semantics::for_reading(reading)),
            layout: Layout::empty(),
            resources: Vec::new(),
            form,
            commands: 0,
        }
    }

    fn add(&mut self, size: u64, kind: Kind) -> ObjectId {
        self.resources.push(Resource { size, kind });
        ObjectId(self.resources.len() as u32 - 1)
    }

    fn get(&self, what: &'static str, id: ObjectId) -> Result<&Resource, TrackerError> {
        self.resources
            .get(id.0 as usize)
            .ok_or(TrackerError::UnknownResource {
                what,
                id: id.0,
                count: self.resources.len(),
            })
    }

    /// Declares a buffer with memory of its own (a `VkBuffer` bound to its
    /// own allocation).
    pub fn buffer(&mut self, size: u64) -> Result<ObjectId, TrackerError> {
        if size == 0 {
            return Err(TrackerError::ZeroSize { what: "buffer" });
        }
        let id = self.add(size, Kind::Buffer);
        self.layout.add_memory(id, size);
        Ok(id)
    }

    /// Declares a buffer of `size` bytes over the memory of `of` (a buffer,
    /// an alias, or a pool) from `offset`: a second `VkBuffer` bound to the
    /// same `VkDeviceMemory`. Accesses through either are ordered against
    /// accesses through the other where their bytes overlap.
    pub fn alias(&mut self, of: ObjectId, offset: u64, size: u64) -> Result<ObjectId, TrackerError> {
        if size == 0 {
            return Err(TrackerError::ZeroSize { what: "alias" });
        }
        let target = self.get("alias", of)?;
        if matches!(target.kind, Kind::Blob { .. }) {
            return Err(TrackerError::AliasOfBlob { of: of.0 });
        }
        let of_size = target.size;
        match offset.checked_add(size) {
            Some(end) if end <= of_size => {}
            _ => {
                return Err(TrackerError::AliasOutOfBounds {
                    of: of.0,
                    offset,
                    size,
                    of_size,
                })
            }
        }
        // Invariant: buffers and pools are placed when declared.
        let (mem, base) = self.layout.place(of).expect("buffers and pools are placed");
        let id = self.add(size, Kind::Buffer);
        self.layout.set_place(id, Some((mem, base + offset)));
        Ok(id)
    }

    /// Declares a pool of `size` bytes that [`Tracker::alloc`] carves blobs
    /// from, at offsets aligned to `align` (a power of two), first fit, as
    /// ncnn's blob allocator does.
    pub fn pool(&mut self, size: u64, align: u64) -> Result<ObjectId, TrackerError> {
        if size == 0 {
            return Err(TrackerError::ZeroSize { what: "pool" });
        }
        if !align.is_power_of_two() {
            return Err(TrackerError::BadAlign { align });
        }
        let id = self.add(size, Kind::Pool(BlobAllocator::new(size, align)));
        self.layout.add_memory(id, size);
        Ok(id)
    }

    /// Allocates a blob of `size` bytes from `pool`. Its memory may have
    /// been another blob's: accesses to it are ordered against that blob's
    /// earlier accesses, which is the point.
    pub fn alloc(&mut self, pool: ObjectId, size: u64) -> Result<ObjectId, TrackerError> {
        if size == 0 {
            return Err(TrackerError::ZeroSize { what: "alloc" });
        }
        self.get("alloc", pool)?;
        let Kind::Pool(allocator) = &mut self.resources[pool.0 as usize].kind else {
            return Err(TrackerError::NotAPool { id: pool.0 });
        };
        let offset = allocator
            .alloc(size)
            .ok_or(TrackerError::PoolExhausted { pool: pool.0, size })?;
        let id = self.add(
            size,
            Kind::Blob {
                pool,
                offset,
                live: true,
            },
        );
        let (mem, base) = self.layout.place(pool).unwrap_or((MemId(0), 0));
        self.layout.set_place(id, Some((mem, base + offset)));
        Ok(id)
    }

    /// The offset of a blob in its pool.
    pub fn offset(&self, blob: ObjectId) -> Result<u64, TrackerError> {
        match self.get("offset", blob)?.kind {
            Kind::Blob { offset, .. } => Ok(offset),
            _ => Err(TrackerError::NotABlob {
                what: "offset",
                id: blob.0,
            }),
        }
    }

    /// Returns a blob's memory to its pool.
    pub fn free(&mut self, blob: ObjectId) -> Result<(), TrackerError> {
        let r = self.get("free", blob)?;
        let size = r.size;
        let Kind::Blob { pool, offset, live } = r.kind else {
            return Err(TrackerError::NotABlob {
                what: "free",
                id: blob.0,
            });
        };
        if !live {
            return Err(TrackerError::Freed {
                what: "free",
                id: blob.0,
            });
        }
        if let Kind::Pool(allocator) = &mut self.resources[pool.0 as usize].kind {
            // Invariant: the live blob's allocation came from this pool's
            // allocator, so it frees.
            let freed = allocator.free(offset, size);
            debug_assert!(freed, "a live blob frees");
        }
        self.resources[blob.0 as usize].kind = Kind::Blob {
            pool,
            offset,
            live: false,
        };
        Ok(())
    }

    /// The next command's accesses: returns what to record before it, and
    /// counts it as recorded. A command without accesses needs nothing.
    pub fn command(&mut self, accesses: &[TrackedAccess]) -> Result<Needs, TrackerError> {
        let acc = self.located(accesses)?;
        let index = self.commands;
        self.commands += 1;
        if acc.is_empty() {
            return Ok(Needs::default());
        }
        let b = online::before(&mut self.checker, &self.layout, self.form, index, &acc);
        self.checker.record(index, &acc);
        Ok(Needs {
            barriers: b.barriers,
            submit_and_wait: b.submit_wait,
        })
    }

    /// The runtime submitted everything recorded so far (`vkQueueSubmit`).
    pub fn submit(&mut self) {
        self.checker.submit();
    }

    /// The runtime waited for every submission so far on a fence.
    pub fn wait(&mut self) {
        self.checker.wait();
    }

    /// How many commands the tracker has seen.
    pub fn commands(&self) -> usize {
        self.commands
    }

    fn located(&self, accesses: &[TrackedAccess]) -> Result<Vec<Access>, TrackerError> {
        let mut out = Vec::with_capacity(accesses.len());
        for (index, t) in accesses.iter().enumerate() {
            let r = self.get("command", t.resource)?;
            if let Kind::Blob { live: false, .. } = r.kind {
                return Err(TrackerError::Freed {
                    what: "command",
                    id: t.resource.0,
                });
            }
            let range = t.range.unwrap_or(ByteRange::new(0, r.size));
            if range.is_empty() || range.end > r.size {
                return Err(TrackerError::BadRange {
                    index,
                    id: t.resource.0,
                    start: range.start,
                    end: range.end,
                    size: r.size,
                });
            }
            let sa = StageAccess::from_flags(t.stage, t.access).ok_or(TrackerError::UnsupportedAccess {
                index,
                stage: t.stage,
                access: t.access,
                hint: access_hint(t.stage, t.access),
            })?;
            let region = Region {
                object: t.resource,
                range,
            };
            let m = self.layout.at(region);
            out.push(Access {
                region,
                mem: m.mem,
                range: m.range,
                sa,
            });
        }
        Ok(out)
    }
}

/// What orders a resource's `next` accesses after its `previous` ones
/// (each a stage and an access, as in [`TrackedAccess`]): the barrier with
/// the fewest bits, none for reads after reads, and, for a host access
/// after device work, a submit and fence wait ([`Needs::submit_and_wait`];
/// after device writes with the barrier that makes them available to the
/// host). The stateless case of [`Tracker`], in the spirit of vk-sync's
/// `GlobalBarrier { previous_accesses, next_accesses }`.
///
/// ```
/// use vksync::{barrier_between, AccessFlags2 as A, PipelineStageFlags2 as S};
/// let needs = barrier_between(
///     &[(S::COMPUTE_SHADER, A::SHADER_STORAGE_WRITE)],
///     &[(S::COPY, A::TRANSFER_READ)],
/// )?;
/// assert_eq!(needs.barriers[0].src_access_mask, A::SHADER_STORAGE_WRITE);
/// assert_eq!(needs.barriers[0].dst_access_mask, A::TRANSFER_READ);
/// assert!(barrier_between(&[(S::COPY, A::TRANSFER_READ)], &[(S::COPY, A::TRANSFER_READ)])?.is_empty());
/// // The host writes what the device still reads: no barrier, a fence wait.
/// let host = barrier_between(&[(S::COPY, A::TRANSFER_READ)], &[(S::HOST, A::HOST_WRITE)])?;
/// assert!(host.barriers.is_empty() && host.submit_and_wait);
/// # Ok::<(), vksync::TrackerError>(())
/// ```
pub fn barrier_between(
    previous: &[(PipelineStageFlags2, AccessFlags2)],
    next: &[(PipelineStageFlags2, AccessFlags2)],
) -> Result<Needs, TrackerError> {
    let mut t = Tracker::new();
    let r = t.buffer(1)?;
    let whole =
        |&(stage, access): &(PipelineStageFlags2, AccessFlags2)| TrackedAccess::whole(r, stage, access);
    t.command(&previous.iter().map(whole).collect::<Vec<_>>())?;
    t.command(&next.iter().map(whole).collect::<Vec<_>>())
}
