//! Where every object of a program lives in memory, and whether the program
//! is well formed.
//!
//! This module owns the deterministic blob allocator (first fit over a
//! free list sorted by offset, freed ranges merged with their neighbours,
//! like ncnn's `VkBlobAllocator`), the placement of buffers, aliases and
//! blobs on memory objects, and every validity rule that does not need
//! synchronization state: bounds, lifetimes, sizes, alignment, copy overlap,
//! barrier flag validity and a layout transition's region. The runtime places blobs with the same
//! allocator, so the model sees the addresses the device uses. It does not
//! know about hazards.

pub use super::error::{Location, ProgramError, ProgramErrorKind};
use crate::ir::program::{ByteRange, Command, ObjectId, ObjectKind, Program, Region, SharingMode};
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::scope::{self, Side};

/// Index of a memory object: every buffer with memory of its own and every
/// pool has one. Aliases and blobs resolve onto their owner's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemId(pub u32);

/// A byte range of a memory object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemRange {
    /// The memory object.
    pub mem: MemId,
    /// The bytes, in the memory object's coordinates.
    pub range: ByteRange,
}

/// The deterministic first-fit blob allocator over one pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlobAllocator {
    align: u64,
    /// The bytes it hands out: `[0, usable)`.
    usable: u64,
    /// Free chunks `(offset, len)`, sorted by offset, never adjacent.
    free: Vec<(u64, u64)>,
}

impl BlobAllocator {
    /// An allocator over `size` bytes handing out offsets aligned to
    /// `align` (a power of two).
    pub fn new(size: u64, align: u64) -> Self {
        let usable = size - size % align.max(1);
        BlobAllocator {
            align: align.max(1),
            usable,
            free: if usable > 0 { vec![(0, usable)] } else { vec![] },
        }
    }

    /// The size a request takes once rounded up to the alignment, or
    /// `None` when that does not fit in 64 bits.
    pub fn rounded(&self, size: u64) -> Option<u64> {
        size.div_ceil(self.align).checked_mul(self.align)
    }

    /// Takes the front of the first free chunk that fits, or `None`.
    pub fn alloc(&mut self, size: u64) -> Option<u64> {
        let need = self.rounded(size)?;
        let i = self.free.iter().position(|&(_, len)| len >= need)?;
        let (off, len) = self.free[i];
        if len == need {
            self.free.remove(i);
        } else {
            self.free[i] = (off + need, len - need);
        }
        Some(off)
    }

    /// Returns `[offset, offset + rounded(size))` to the free list, merging
    /// it with adjacent free chunks. Returns `false`, and changes nothing,
    /// when that range cannot be an allocation of this allocator: not
    /// aligned, past the end, or overlapping a free chunk (a double free).
    #[must_use = "false means the range was not freed"]
    pub fn free(&mut self, offset: u64, size: u64) -> bool {
        let Some(len) = self.rounded(size) else {
            return false;
        };
        let end = match offset.checked_add(len) {
            Some(end) if offset.is_multiple_of(self.align) && end <= self.usable && len > 0 => end,
            _ => return false,
        };
        let i = self.free.partition_point(|&(o, _)| o < offset);
        let overlaps_next = i < self.free.len() && self.free[i].0 < end;
        let overlaps_prev = i > 0 && self.free[i - 1].0 + self.free[i - 1].1 > offset;
        if overlaps_next || overlaps_prev {
            return false;
        }
        self.free.insert(i, (offset, len));
        if i + 1 < self.free.len() && offset + len == self.free[i + 1].0 {
            self.free[i].1 += self.free[i + 1].1;
            self.free.remove(i + 1);
        }
        if i > 0 && self.free[i - 1].0 + self.free[i - 1].1 == offset {
            self.free[i - 1].1 += self.free[i].1;
            self.free.remove(i);
        }
        true
    }
}

/// Placement of every object, valid for a well-formed program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Memory and base offset of each object (blobs: of their one
    /// allocation).
    places: Vec<Option<(MemId, u64)>>,
    /// Size of each memory object.
    pub memory_sizes: Vec<u64>,
    /// Memory id of each object that owns memory.
    pub owners: Vec<Option<MemId>>,
    /// The object owning each memory object (the inverse of `owners`).
    mem_owners: Vec<ObjectId>,
    /// The optimal images whose accesses the fast checkers cannot place
    /// exactly ([`Footprint`]), in object order.
    footprints: Vec<Footprint>,
}

/// An optimal-tiling image whose bound range a region of another object
/// the program names meets, and that the program names only in part (a
/// subresource range or region short of the whole image) somewhere.
///
/// For such an image the specification has two readings of overlap at
/// once ("Memory Aliasing"): within the image its subresources are apart
/// (the model's notional layout places them), but "when a non-linear ...
/// image is bound to an aliased range, all image subresources of the image
/// overlap the range", so against the other objects every access of any
/// subresource covers the image's whole bound range. A byte-range state
/// holds one of the two; the fast checkers refuse such a program
/// ([`crate::ProgramErrorKind::AliasedImageNotSupported`]) and the
/// definitional semantics decides it with both (`crate::spec`). An image
/// named only whole needs neither: its notional bytes are its bound range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Footprint {
    /// The image.
    pub image: ObjectId,
    /// Its memory.
    pub mem: MemId,
    /// Its bound range in that memory.
    pub bound: ByteRange,
    /// The first command that names part of it.
    pub partial_at: usize,
    /// The first other object a command names a region of that meets
    /// its bound range.
    pub other: ObjectId,
}

impl Layout {
    /// The memory range behind a region of an object; `None` for an object
    /// this layout did not place (another program's, or a blob never
    /// allocated) or a range that does not fit in 64 bits once placed.
    pub fn locate(&self, region: Region) -> Option<MemRange> {
        let (mem, base) = self.place(region.object)?;
        Some(MemRange {
            mem,
            range: ByteRange::new(
                region.range.start.checked_add(base)?,
                region.range.end.checked_add(base)?,
            ),
        })
    }

    /// The memory range behind a region of a program this layout was
    /// resolved from (the crate's own callers, after validation).
    pub(crate) fn at(&self, region: Region) -> MemRange {
        // Invariant: `resolve` placed every object a well-formed program's
        // commands refer to, and checked every region against its object.
        self.locate(region).expect("region of the resolved program")
    }

    /// The object that owns a memory object (a buffer with memory of its own
    /// or a pool); `None` for a memory id this layout did not hand out.
    pub fn owner_object(&self, mem: MemId) -> Option<ObjectId> {
        self.mem_owners.get(mem.0 as usize).copied()
    }

    /// The memory and base offset of an object, if it was placed.
    pub fn place(&self, object: ObjectId) -> Option<(MemId, u64)> {
        self.places.get(object.0 as usize).copied().flatten()
    }

    /// The images whose subresources overlap their whole memory for the
    /// other objects there ([`Footprint`]).
    pub(crate) fn footprints(&self) -> &[Footprint] {
        &self.footprints
    }

    /// The [`Footprint`] of `object`, if it is such an image.
    pub(crate) fn footprint_of(&self, object: ObjectId) -> Option<&Footprint> {
        self.footprints.iter().find(|f| f.image == object)
    }

    /// This layout without its [`Footprint`]s: every image at its
    /// notional bytes against every object (the reading before footprints,
    /// which the definitional semantics' tests compare against).
    #[cfg(test)]
    pub(crate) fn without_footprints(&self) -> Layout {
        Layout {
            footprints: Vec::new(),
            ..self.clone()
        }
    }

    /// This layout with each [`Footprint`] image moved to a memory of its
    /// own, at the same offset in a memory of the same size (so its bytes
    /// keep their numbers), and each such memory with its footprint: the
    /// definitional semantics' view, where an image's accesses are exact
    /// among themselves in its own memory and its footprint stands for
    /// them in the shared one.
    pub(crate) fn with_private_images(&self) -> (Layout, Vec<(MemId, Footprint)>) {
        let mut view = self.clone();
        let mut private = Vec::new();
        for f in &self.footprints {
            let mem = MemId(view.memory_sizes.len() as u32);
            view.memory_sizes.push(self.memory_sizes[f.mem.0 as usize]);
            view.mem_owners.push(f.image);
            view.places[f.image.0 as usize] = Some((mem, f.bound.start));
            private.push((mem, *f));
        }
        view.footprints.clear();
        (view, private)
    }

    /// An empty layout, grown one object at a time by [`crate::Tracker`].
    pub(crate) fn empty() -> Layout {
        Layout {
            places: Vec::new(),
            memory_sizes: Vec::new(),
            owners: Vec::new(),
            mem_owners: Vec::new(),
            footprints: Vec::new(),
        }
    }

    /// Gives object `object` (the next id) memory of its own of `size` bytes.
    pub(crate) fn add_memory(&mut self, object: ObjectId, size: u64) -> MemId {
        let mem = MemId(self.memory_sizes.len() as u32);
        self.memory_sizes.push(size);
        self.mem_owners.push(object);
        self.set_place(object, Some((mem, 0)));
        self.owners.resize(self.places.len(), None);
        self.owners[object.0 as usize] = Some(mem);
        mem
    }

    /// Places (or unplaces) object `object`.
    pub(crate) fn set_place(&mut self, object: ObjectId, place: Option<(MemId, u64)>) {
        let i = object.0 as usize;
        if i >= self.places.len() {
            self.places.resize(i + 1, None);
            self.owners.resize(i + 1, None);
        }
        self.places[i] = place;
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Life {
    NotYet,
    Live,
    Freed,
}

/// Validates a program and places its objects.
pub fn resolve(program: &Program) -> Result<Layout, ProgramError> {
    let n = program.objects.len();
    let mut places: Vec<Option<(MemId, u64)>> = vec![None; n];
    let mut owners = vec![None; n];
    let mut memory_sizes = Vec::new();
    let mut allocators: Vec<Option<BlobAllocator>> = vec![None; n];
    let obj_err = |i: usize, kind| ProgramError {
        at: Location::Object(ObjectId(i as u32)),
        kind,
    };
    for (i, o) in program.objects.iter().enumerate() {
        if o.size == 0 {
            return Err(obj_err(
                i,
                ProgramErrorKind::ZeroSizeObject { name: o.name.clone() },
            ));
        }
        match &o.kind {
            ObjectKind::Buffer { alias: None } => {
                let mem = MemId(memory_sizes.len() as u32);
                memory_sizes.push(o.size);
                owners[i] = Some(mem);
                places[i] = Some((mem, 0));
            }
            ObjectKind::Pool { align } => {
                if !align.is_power_of_two() {
                    return Err(obj_err(
                        i,
                        ProgramErrorKind::BadAlign {
                            name: o.name.clone(),
                            align: *align,
                        },
                    ));
                }
                let mem = MemId(memory_sizes.len() as u32);
                memory_sizes.push(o.size);
                owners[i] = Some(mem);
                places[i] = Some((mem, 0));
                allocators[i] = Some(BlobAllocator::new(o.size, *align));
            }
            ObjectKind::Buffer {
                alias: Some((other, offset)),
            } => {
                let other_obj = program.obj(*other);
                if matches!(other_obj.kind, ObjectKind::Blob { .. }) {
                    return Err(obj_err(
                        i,
                        ProgramErrorKind::AliasOfBlob {
                            name: o.name.clone(),
                            other: other_obj.name.clone(),
                        },
                    ));
                }
                // An end past 2^64 is out of bounds whatever the target's size.
                let end = offset.checked_add(o.size);
                let base = places.get(other.0 as usize).copied().flatten();
                match (base, end) {
                    (Some((mem, b)), Some(end)) if end <= other_obj.size => {
                        places[i] = Some((mem, b + offset))
                    }
                    _ => {
                        return Err(obj_err(
                            i,
                            ProgramErrorKind::AliasOutOfBounds {
                                name: o.name.clone(),
                                other: other_obj.name.clone(),
                                offset: *offset,
                                end: end.unwrap_or(u64::MAX),
                                size: other_obj.size,
                            },
                        ))
                    }
                }
            }
            ObjectKind::Blob { .. } => {}
        }
    }

    let mut life = vec![Life::NotYet; n];
    for (i, o) in program.objects.iter().enumerate() {
        if !matches!(o.kind, ObjectKind::Blob { .. }) {
            life[i] = Life::Live;
        }
    }
    let mut sems = super::queue::SemaphoreStates::new(&program.semaphores);
    let mut events = super::event::EventStates::new(program.events.len());
    let mut done = super::completion::Completion::default();
    let sem_name = |s: super::queue::SemaphoreId| program.semaphores[s.0 as usize].name.clone();
    // A wait whose set ran on another queue, found at a submit, is
    // reported at the wait.
    let other_queue = |queue: super::queue::QueueId| {
        move |set: usize, set_q: super::queue::QueueId| {
            let event = match &program.commands[set] {
                Command::SetEvent { event, .. } | Command::SetEvent1 { event, .. } => {
                    program.event_name(*event).to_string()
                }
                _ => String::new(),
            };
            ProgramErrorKind::EventOtherQueue {
                name: event,
                set_queue: program.queue_name(set_q).to_string(),
                wait_queue: program.queue_name(queue).to_string(),
            }
        }
    };
    let queue_name = |q| program.queue_name(q).to_string();
    // The first command of the batch the next submit makes.
    let mut batch_start = 0;
    for (ci, command) in program.commands.iter().enumerate() {
        let err = |kind| ProgramError {
            at: Location::Command(ci),
            kind,
        };
        let name = |id: ObjectId| program.obj(id).name.clone();
        let check_region = |region: Region, life: &[Life]| -> Result<(), ProgramError> {
            let o = program.obj(region.object);
            match life[region.object.0 as usize] {
                Life::NotYet => return Err(err(ProgramErrorKind::UseBeforeAlloc { name: o.name.clone() })),
                Life::Freed => return Err(err(ProgramErrorKind::UseAfterFree { name: o.name.clone() })),
                Life::Live => {}
            }
            if region.range.is_empty() {
                return Err(err(ProgramErrorKind::EmptyRange {
                    name: o.name.clone(),
                    range: region.range,
                }));
            }
            if region.range.end > o.size {
                return Err(err(ProgramErrorKind::OutOfBounds {
                    name: o.name.clone(),
                    range: region.range,
                    size: o.size,
                }));
            }
            Ok(())
        };
        // An event's barriers: scopes and ranges as for a pipeline barrier.
        let check_dep = |dep: &crate::ir::program::Dependency, life: &[Life]| -> Result<(), ProgramError> {
            for (index, b) in dep.barriers.iter().enumerate() {
                let scope_err = |source| err(ProgramErrorKind::BarrierScope { index, source });
                scope::validate(b.src_stage_mask, b.src_access_mask, Side::Src).map_err(scope_err)?;
                scope::validate(b.dst_stage_mask, b.dst_access_mask, Side::Dst).map_err(scope_err)?;
                if let Some(r) = b.region {
                    check_region(r, life)?;
                }
                if b.ownership.is_some() {
                    return Err(err(ProgramErrorKind::OwnershipInEvent { index }));
                }
            }
            Ok(())
        };
        let aligned4 = |what: &'static str, value: u64| {
            if value.is_multiple_of(4) {
                Ok(())
            } else {
                Err(err(ProgramErrorKind::Misaligned { what, value }))
            }
        };
        // The reset rule follows waits and barriers (`EventStates`), as
        // the parser does.
        events.note_command(command);
        match command {
            Command::Alloc { blob } | Command::Free { blob } => {
                let b = blob.0 as usize;
                let ObjectKind::Blob { pool } = program.obj(*blob).kind else {
                    return Err(err(ProgramErrorKind::NotABlob { name: name(*blob) }));
                };
                let p = pool.0 as usize;
                // Invariant: every pool got an allocator in the first loop,
                // and the parser and builders only let blobs name pools.
                let alloc = allocators[p].as_mut().expect("blob's pool has an allocator");
                let size = program.obj(*blob).size;
                if matches!(command, Command::Alloc { .. }) {
                    if life[b] != Life::NotYet {
                        return Err(err(ProgramErrorKind::AllocTwice { name: name(*blob) }));
                    }
                    let Some(off) = alloc.alloc(size) else {
                        return Err(err(ProgramErrorKind::PoolExhausted {
                            pool: name(pool),
                            name: name(*blob),
                            size,
                        }));
                    };
                    // Invariant: the pool was placed in the first loop.
                    let (mem, base) = places[p].expect("pool placed");
                    places[b] = Some((mem, base + off));
                    life[b] = Life::Live;
                } else {
                    match life[b] {
                        Life::NotYet => {
                            return Err(err(ProgramErrorKind::UseBeforeAlloc { name: name(*blob) }))
                        }
                        Life::Freed => return Err(err(ProgramErrorKind::DoubleFree { name: name(*blob) })),
                        Life::Live => {}
                    }
                    // Invariant: a live blob has been placed.
                    let (_, at) = places[b].expect("live blob placed");
                    let (_, base) = places[p].expect("pool placed");
                    // Invariant: the blob's live allocation came from this
                    // allocator, so it frees.
                    let freed = alloc.free(at - base, size);
                    debug_assert!(freed, "a live blob frees");
                    life[b] = Life::Freed;
                }
            }
            Command::Copy { src, dst } => {
                check_region(*src, &life)?;
                check_region(*dst, &life)?;
                if src.range.len() != dst.range.len() {
                    return Err(err(ProgramErrorKind::CopySizeMismatch {
                        src: src.range.len(),
                        dst: dst.range.len(),
                    }));
                }
                // VUID-vkCmdCopyBuffer-pRegions-00117: regions must not
                // overlap in memory.
                let one = |r: &Region| vec![(*r, 0)];
                copy_overlap(program, &places, "vkCmdCopyBuffer", one(src), one(dst)).map_err(err)?;
            }
            // Sizes differ (an image side is all of the image) and the
            // sides may overlap (two subresources of one image).
            Command::CopyImage { src, dst, .. } => {
                check_region(*src, &life)?;
                check_region(*dst, &life)?;
            }
            // Built against the program's images (bounds of every region
            // checked there); here: the buffer side is a live object.
            Command::Image(ic) => {
                for (r, _) in ic.accesses() {
                    check_region(*r, &life)?;
                }
                if let Some(regions) = ic.copy_region_bytes(program) {
                    let side = |k: usize| {
                        let mut out = Vec::new();
                        for (i, sides) in regions.iter().enumerate() {
                            if let Some(sides) = sides {
                                let (object, ranges) = &sides[k];
                                out.extend(ranges.iter().map(|&range| {
                                    (
                                        Region {
                                            object: *object,
                                            range,
                                        },
                                        i,
                                    )
                                }));
                            }
                        }
                        out
                    };
                    copy_overlap(program, &places, ic.op.vulkan_name(), side(0), side(1)).map_err(err)?;
                }
            }
            // Built against the program's objects (bounds checked there);
            // here: every object is live, and indirect offsets are
            // multiples of 4 (VUID-vkCmdDrawIndirect-offset-02710 and its
            // siblings).
            Command::Render(rc) => {
                for (r, sa) in rc.accesses() {
                    check_region(*r, &life)?;
                    if *sa == crate::vk::scope::StageAccess::DrawIndirectIndirectCommandRead {
                        aligned4("indirect offset", r.range.start)?;
                    }
                }
                if let crate::ir::render::RenderOp::Draw(d) = &rc.op {
                    crate::ir::render::check_feedback_loops(program, &places, ci, d)
                        .map_err(|e| err(ProgramErrorKind::Render(Box::new(e))))?;
                }
            }
            Command::Fill { dst, .. } | Command::Update { dst, .. } => {
                check_region(*dst, &life)?;
                aligned4("offset", dst.range.start)?;
                aligned4("size", dst.range.len())?;
                if matches!(command, Command::Update { .. }) && dst.range.len() > 65536 {
                    return Err(err(ProgramErrorKind::UpdateTooLarge {
                        size: dst.range.len(),
                    }));
                }
            }
            Command::Dispatch {
                bindings, indirect, ..
            } => {
                if bindings.is_empty() {
                    return Err(err(ProgramErrorKind::NoBindings));
                }
                for b in bindings {
                    check_region(b.region, &life)?;
                }
                if let Some(ind) = indirect {
                    check_region(*ind, &life)?;
                    aligned4("indirect offset", ind.range.start)?;
                    if ind.range.len() != 12 {
                        return Err(err(ProgramErrorKind::IndirectSize {
                            size: ind.range.len(),
                        }));
                    }
                }
            }
            Command::HostWrite { dst: r, .. } | Command::HostRead { src: r } => {
                check_region(*r, &life)?;
            }
            Command::Barrier(dep) => {
                for (index, b) in dep.barriers.iter().enumerate() {
                    let scope_err = |source| err(ProgramErrorKind::BarrierScope { index, source });
                    scope::validate(b.src_stage_mask, b.src_access_mask, Side::Src).map_err(scope_err)?;
                    scope::validate(b.dst_stage_mask, b.dst_access_mask, Side::Dst).map_err(scope_err)?;
                    if let Some(r) = b.region {
                        check_region(r, &life)?;
                    }
                    program
                        .check_image_barrier(index, b)
                        .map_err(|e| err(ProgramErrorKind::Image(Box::new(e))))?;
                    // The builders refuse this already; checked again here
                    // because every reader of a layout relies on it.
                    if b.transition && b.region.is_none() {
                        return Err(err(ProgramErrorKind::TransitionWithoutRegion { index }));
                    }
                    if b.ownership.is_some() {
                        let Some(r) = b.region else {
                            return Err(err(ProgramErrorKind::OwnershipWithoutRegion { index }));
                        };
                        // Equal indices transfer nothing ("no ownership
                        // transfer is performed"): a plain barrier.
                        if b.transition && b.transfer().is_some() {
                            return Err(err(ProgramErrorKind::OwnershipWithTransition { index }));
                        }
                        if b.transfer().is_some() && program.sharing_of(r.object) != SharingMode::Exclusive {
                            let o = program.obj(r.object);
                            let name = match o.kind {
                                ObjectKind::Blob { pool } => program.obj(pool).name.clone(),
                                _ => o.name.clone(),
                            };
                            return Err(err(ProgramErrorKind::OwnershipOfConcurrent { index, name }));
                        }
                    }
                }
            }
            // The order of semaphore operations: one state machine for
            // built and parsed programs (module `queue`).
            Command::Submit(s) => {
                sems.submit(&program.semaphores, s, done.next_ordinal())
                    .map_err(|(_, k)| err(k))?;
                let stages = super::completion::batch_stages(&program.commands[batch_start..ci]);
                batch_start = ci + 1;
                let at = done
                    .submit(
                        s.queue,
                        (&s.waits, &s.signals),
                        stages,
                        sem_name,
                        queue_name,
                        &|x, v| sems.first_reaching(x, v),
                    )
                    .map_err(|(_, k)| err(k))?;
                // A wait on another queue's set is the more precise error.
                let crossed = events.cross_queue(s.queue, &done, program);
                events
                    .submit(s.queue, at, other_queue(s.queue))
                    .map_err(|(at, _, kind)| ProgramError {
                        at: Location::Command(at),
                        kind,
                    })?;
                crossed.map_err(err)?;
            }
            // The order of event operations (module `event`); their
            // barriers' scopes and ranges as for a pipeline barrier.
            Command::SetEvent { event, dependency } => {
                check_dep(dependency, &life)?;
                events
                    .set(ci, *event, dependency, program.event_name(*event))
                    .map_err(err)?;
            }
            Command::WaitEvents { waits } => {
                for (k, w) in waits.iter().enumerate() {
                    check_dep(&w.dependency, &life)?;
                    events
                        .wait(ci, k, w, program.event_name(w.event), |r| {
                            program.image_barrier(r).copied()
                        })
                        .map_err(err)?;
                }
            }
            Command::SetEvent1 { event, stage_mask } => {
                scope::validate(*stage_mask, AccessFlags2::NONE, Side::Src)
                    .map_err(|source| err(ProgramErrorKind::BarrierScope { index: 0, source }))?;
                events
                    .set1(ci, *event, *stage_mask, program.event_name(*event))
                    .map_err(err)?;
            }
            Command::WaitEvents1 {
                events: waited,
                dependency,
            } => {
                check_dep(dependency, &life)?;
                let src = command
                    .wait_stage_masks()
                    .map_or(PipelineStageFlags2::NONE, |(s, _)| s);
                events
                    .wait1(ci, waited, src, |e| program.event_name(e))
                    .map_err(|(_, kind)| err(kind))?;
            }
            Command::ResetEvent { event, stages } => events
                .device_reset(*event, *stages, program.event_name(*event))
                .map_err(err)?,
            Command::HostResetEvent { event } => events
                .host_reset(*event, program.event_name(*event), queue_name, &done)
                .map_err(err)?,
            Command::HostSetEvent { event } => events
                .host_set(*event, program.event_name(*event), queue_name, &done)
                .map_err(err)?,
            Command::HostSignal { semaphore, value } => {
                sems.host_signal(&program.semaphores, *semaphore, *value, &done)
                    .map_err(err)?;
                done.host_signal(*semaphore, *value);
            }
            Command::HostWait { semaphore, value } => {
                sems.wait(&program.semaphores, *semaphore, Some(*value))
                    .map_err(err)?;
                let initial = program.semaphores[semaphore.0 as usize].kind.initial_value();
                done.host_waited_value(*semaphore, *value, initial);
            }
            Command::Wait(w) => done.host_waited(*w),
        }
    }
    // Whatever is recorded at the end is submitted to the first queue.
    let at = done.submit_plain(
        super::queue::QueueId(0),
        super::completion::batch_stages(&program.commands[batch_start.min(program.commands.len())..]),
    );
    let crossed = events.cross_queue(super::queue::QueueId(0), &done, program);
    events
        .submit(
            super::queue::QueueId(0),
            at,
            other_queue(super::queue::QueueId(0)),
        )
        .map_err(|(at, _, kind)| ProgramError {
            at: Location::Command(at),
            kind,
        })?;
    crossed.map_err(|kind| ProgramError {
        at: Location::Command(program.commands.len().saturating_sub(1)),
        kind,
    })?;
    if let Some((ordinal, kind)) = sems.finish(&program.semaphores) {
        // The command holding the `ordinal`-th timeline wait.
        let at = timeline_wait_command(program, ordinal);
        return Err(ProgramError {
            at: Location::Command(at),
            kind,
        });
    }
    if let Some((at, _, kind)) = super::progress::first_stuck(program) {
        return Err(ProgramError {
            at: Location::Command(at),
            kind,
        });
    }
    // Rendering commands only where they may be recorded, then the layout
    // of every image subresource along execution order.
    super::render::check_instances(program)?;
    super::image::check_layouts(program)?;
    let mut mem_owners = vec![ObjectId(0); memory_sizes.len()];
    for (i, o) in owners.iter().enumerate() {
        if let Some(m) = o {
            mem_owners[m.0 as usize] = ObjectId(i as u32);
        }
    }
    let mut layout = Layout {
        places,
        memory_sizes,
        owners,
        mem_owners,
        footprints: Vec::new(),
    };
    layout.footprints = footprints(program, &layout);
    Ok(layout)
}

/// The [`Footprint`]s of a placed program: each optimal image that some
/// command names in part, and whose bound range a region of another
/// object that some command names meets (an access or a barrier's
/// region; of another optimal image, its bound range). Linear in the
/// program's named regions times the log of its images: a capture
/// declares every image over its memory's object, so most images are
/// candidates.
fn footprints(program: &Program, layout: &Layout) -> Vec<Footprint> {
    let n = program.objects.len();
    let range_of = |o: usize| {
        let (mem, base) = layout.places.get(o).copied().flatten()?;
        Some((
            mem,
            ByteRange::new(base, base.checked_add(program.objects[o].size)?),
        ))
    };
    // Optimal images that share their memory with another placed object:
    // per memory, the other objects' ranges sorted, then each image's
    // bound range looked up there.
    let mut by_mem: std::collections::HashMap<MemId, Vec<(u64, u64, usize)>> =
        std::collections::HashMap::new();
    for o in 0..n {
        if let Some((mem, r)) = range_of(o) {
            by_mem.entry(mem).or_default().push((r.start, r.end, o));
        }
    }
    for v in by_mem.values_mut() {
        v.sort_unstable();
    }
    let longest = |v: &[(u64, u64, usize)]| v.iter().map(|&(s, e, _)| e - s).max().unwrap_or(0);
    let longest_in: std::collections::HashMap<MemId, u64> =
        by_mem.iter().map(|(m, v)| (*m, longest(v))).collect();
    // The entries of `v` (sorted by start, none longer than `long`) that
    // meet `r`: those starting before its end, back to the first that
    // could reach its start.
    fn meeting(v: &[(u64, u64, usize)], long: u64, r: ByteRange) -> impl Iterator<Item = &(u64, u64, usize)> {
        let hi = v.partition_point(|&(s, _, _)| s < r.end);
        let lo = v.partition_point(|&(s, _, _)| s.saturating_add(long) <= r.start);
        v[lo.min(hi)..hi].iter().filter(move |&&(_, e, _)| e > r.start)
    }
    let shares = |image: usize, mem: MemId, bound: ByteRange| {
        meeting(&by_mem[&mem], longest_in[&mem], bound).any(|&(_, _, o)| o != image)
    };
    let mut candidates: Vec<(ObjectId, MemId, ByteRange)> = Vec::new();
    for d in program.images() {
        if d.tiling != super::image::Tiling::Optimal {
            continue;
        }
        let Some((mem, bound)) = range_of(d.object.0 as usize) else {
            continue;
        };
        if shares(d.object.0 as usize, mem, bound) {
            candidates.push((d.object, mem, bound));
        }
    }
    if candidates.is_empty() {
        return Vec::new();
    }
    // The first command naming each object in part: only such images can
    // have a footprint.
    let mut partial: Vec<Option<usize>> = vec![None; n];
    let regions: Vec<Vec<Region>> = program.commands.iter().map(named_regions).collect();
    for (i, rs) in regions.iter().enumerate() {
        for r in rs {
            let o = r.object.0 as usize;
            if o < n && r.range != program.whole(r.object).range {
                partial[o].get_or_insert(i);
            }
        }
    }
    candidates.retain(|(image, ..)| partial[image.0 as usize].is_some());
    if candidates.is_empty() {
        return Vec::new();
    }
    // Per memory, the candidates by bound start.
    let mut in_mem: std::collections::HashMap<MemId, Vec<(u64, u64, usize)>> =
        std::collections::HashMap::new();
    for (k, (_, mem, bound)) in candidates.iter().enumerate() {
        in_mem.entry(*mem).or_default().push((bound.start, bound.end, k));
    }
    for v in in_mem.values_mut() {
        v.sort_unstable();
    }
    let long_in: std::collections::HashMap<MemId, u64> =
        in_mem.iter().map(|(m, v)| (*m, longest(v))).collect();
    let mut met: Vec<Option<ObjectId>> = vec![None; candidates.len()];
    for r in regions.iter().flatten() {
        let o = r.object.0 as usize;
        if o >= n {
            continue;
        }
        // Another optimal image meets a candidate over its bound range.
        let bytes = if program.is_optimal_image(r.object) {
            range_of(o)
        } else {
            layout.locate(*r).map(|m| (m.mem, m.range))
        };
        let Some((mem, bytes)) = bytes else { continue };
        let Some(v) = in_mem.get(&mem) else { continue };
        for &(_, _, k) in meeting(v, long_in[&mem], bytes) {
            if candidates[k].0 != r.object {
                met[k].get_or_insert(r.object);
            }
        }
    }
    candidates
        .into_iter()
        .zip(met)
        .filter_map(|((image, mem, bound), other)| {
            Some(Footprint {
                image,
                mem,
                bound,
                partial_at: partial[image.0 as usize]?,
                other: other?,
            })
        })
        .collect()
}

/// Every region a command names: its accesses' and its barriers'
/// (a barrier's range restricts its scopes, so a part of an image in a
/// barrier is a part named).
fn named_regions(command: &Command) -> Vec<Region> {
    let mut regions: Vec<Region> =
        crate::ir::access::region_accesses(command, crate::semantics::Semantics::SPEC)
            .into_iter()
            .map(|(r, _)| r)
            .collect();
    let mut barriers =
        |d: &crate::ir::program::Dependency| regions.extend(d.barriers.iter().filter_map(|b| b.region));
    match command {
        Command::Barrier(d)
        | Command::SetEvent { dependency: d, .. }
        | Command::WaitEvents1 { dependency: d, .. } => barriers(d),
        Command::WaitEvents { waits } => waits.iter().for_each(|w| barriers(&w.dependency)),
        Command::Render(rc) => regions.extend(rc.pre_barriers().iter().filter_map(|b| b.region)),
        _ => {}
    }
    regions
}

/// The index of the command that makes the `ordinal`-th timeline semaphore
/// wait (device or host) of `program`, counting as
/// [`super::queue::SemaphoreStates`] does.
fn timeline_wait_command(program: &Program, ordinal: usize) -> usize {
    let mut seen = 0;
    for (i, c) in program.commands.iter().enumerate() {
        let n = match c {
            Command::Submit(s) => s.waits.iter().filter(|w| w.value.is_some()).count(),
            Command::HostWait { .. } => 1,
            _ => 0,
        };
        if ordinal < seen + n {
            return i;
        }
        seen += n;
    }
    program.commands.len().saturating_sub(1)
}

/// The one table of a copy command's overlap rules: (command, the VUID of
/// "Each memory location accessed by this command must not be accessed by
/// both a source region and a destination region" (older specs: "The union
/// of all source regions, and the union of all destination regions ...
/// must not overlap in memory"), the VUID of "Each memory location
/// accessed by this command must not be accessed by more than one
/// destination region" where the command has that rule (Vulkan 1.4.358
/// and later; `vkCmdResolveImage` has none)). `vkCmdCopyBuffer`'s
/// destination rule cannot fire: a `copy` line is one region.
const COPY_OVERLAP_VUIDS: &[(&str, &str, Option<&str>)] = &[
    (
        "vkCmdCopyBuffer",
        "VUID-vkCmdCopyBuffer-pRegions-00117",
        Some("VUID-vkCmdCopyBuffer-pRegions-12482"),
    ),
    (
        "vkCmdCopyBufferToImage",
        "VUID-vkCmdCopyBufferToImage-pRegions-00173",
        Some("VUID-vkCmdCopyBufferToImage-pRegions-12483"),
    ),
    (
        "vkCmdCopyImage",
        "VUID-vkCmdCopyImage-pRegions-00124",
        Some("VUID-vkCmdCopyImage-pRegions-12484"),
    ),
    (
        "vkCmdCopyImageToBuffer",
        "VUID-vkCmdCopyImageToBuffer-pRegions-00184",
        Some("VUID-vkCmdCopyImageToBuffer-pRegions-12485"),
    ),
    ("vkCmdResolveImage", "VUID-vkCmdResolveImage-pRegions-00255", None),
    ("vkCmdBlitImage", "VUID-vkCmdBlitImage-pRegions-00217", None),
];

/// The VUID of `call`'s rule that its source and destination regions do
/// not overlap in memory ([`COPY_OVERLAP_VUIDS`]), for
/// [`ProgramErrorKind::CopyOverlap`].
pub(crate) fn copy_overlap_vuid(call: &str) -> &'static str {
    COPY_OVERLAP_VUIDS
        .iter()
        .find(|(c, _, _)| *c == call)
        .map_or("the command's pRegions overlap rule", |(_, v, _)| v)
}

/// The VUID of `call`'s rule that no memory location is written by two of
/// its destination regions ([`COPY_OVERLAP_VUIDS`]), `None` where it has
/// none.
pub(crate) fn copy_destination_overlap_vuid(call: &str) -> Option<&'static str> {
    COPY_OVERLAP_VUIDS
        .iter()
        .find(|(c, _, _)| *c == call)
        .and_then(|(_, _, v)| *v)
}

/// The one test of a copy's overlap rules ([`COPY_OVERLAP_VUIDS`]): no
/// byte of memory is in a source region and in a destination region and,
/// where `call` has that rule, no byte is in the destinations of two
/// regions. `src` and `dst` are every region's byte ranges with the index
/// of their region in `pRegions` (the ranges of one region never overlap
/// each other); the first overlap found (in address order) is the error.
/// Objects are placed by `places` (live objects only: the caller checked
/// them). A blit passes as `src` the texels it certainly samples.
fn copy_overlap(
    program: &Program,
    places: &[Option<(MemId, u64)>],
    call: &'static str,
    src: Vec<(Region, usize)>,
    dst: Vec<(Region, usize)>,
) -> Result<(), ProgramErrorKind> {
    // Against a region of another object, a region of an optimal image is
    // its whole bound range (`Program::against`); among the image's own
    // regions, its notional bytes.
    let widened = |v: &[(Region, usize)], other: &[(Region, usize)]| -> Vec<(Region, Region, usize)> {
        v.iter()
            .map(|&(r, i)| match other.iter().find(|(o, _)| o.object != r.object) {
                Some((o, _)) => (program.against(r, o.object), r, i),
                None => (r, r, i),
            })
            .collect()
    };
    let placed = |v: Vec<(Region, Region, usize)>| {
        let mut out: Vec<(MemId, ByteRange, Region, usize)> = v
            .into_iter()
            .filter(|(_, r, _)| !r.range.is_empty())
            .filter_map(|(bytes, r, i)| {
                let (mem, base) = places.get(r.object.0 as usize).copied().flatten()?;
                Some((mem, bytes.range.shift(base), r, i))
            })
            .collect();
        out.sort_by_key(|&(m, b, _, _)| (m, b.start, b.end));
        out
    };
    let exact = |v: &[(Region, usize)]| v.iter().map(|&(r, i)| (r, r, i)).collect::<Vec<_>>();
    let own_dst = placed(exact(&dst));
    let (src, dst) = (placed(widened(&src, &dst)), placed(widened(&dst, &src)));
    // Sweep the destinations in address order, keeping the one reaching
    // furthest so far; a range meets a destination iff the
    // furthest-reaching destination starting before the range's end (in
    // its memory) ends past the range's start.
    let reach = |dst: &[(MemId, ByteRange, Region, usize)]| {
        let mut furthest: Vec<usize> = Vec::with_capacity(dst.len());
        for (k, d) in dst.iter().enumerate() {
            let best = match furthest.last() {
                Some(&j) if dst[j].0 == d.0 && dst[j].1.end >= d.1.end => j,
                _ => k,
            };
            furthest.push(best);
        }
        furthest
    };
    let furthest = reach(&dst);
    let index = |i: usize| u32::try_from(i).unwrap_or(u32::MAX);
    for &(mem, bytes, region, i) in &src {
        let before = dst.partition_point(|&(m, b, _, _)| (m, b.start) < (mem, bytes.end));
        let Some(&j) = before.checked_sub(1).and_then(|k| furthest.get(k)) else {
            continue;
        };
        let (m, b, d, dj) = dst[j];
        if m == mem && b.end > bytes.start {
            return Err(ProgramErrorKind::CopyOverlap {
                call,
                src_region: index(i),
                src: program.show_region(region),
                dst_region: index(dj),
                dst: program.show_region(d),
            });
        }
    }
    // Two destinations: the furthest-reaching one before each overlaps it
    // iff any earlier one does, and it is of another region whenever it
    // overlaps (one region's ranges are disjoint).
    if copy_destination_overlap_vuid(call).is_some() {
        let dst = own_dst;
        let furthest = reach(&dst);
        for k in 1..dst.len() {
            let (m, b, d, dk) = dst[k];
            let (pm, pb, p, pk) = dst[furthest[k - 1]];
            if pm == m && pb.end > b.start && pk != dk {
                return Err(ProgramErrorKind::CopyDestinationOverlap {
                    call,
                    first_region: index(pk.min(dk)),
                    first: program.show_region(if pk < dk { p } else { d }),
                    second_region: index(pk.max(dk)),
                    second: program.show_region(if pk < dk { d } else { p }),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frees that cannot be allocations change nothing and say so: (what,
    /// offset, size).
    #[test]
    fn allocator_refuses_frees_that_are_not_allocations() {
        let cases: &[(&str, u64, u64)] = &[
            ("double free", 0, 64),
            ("overlaps a free chunk", 32, 64),
            ("misaligned", 8, 64),
            ("past the end", 1024, 64),
            ("size rounds past 2^64", 0, u64::MAX),
            ("end past 2^64", u64::MAX - 63, 64),
            ("empty", 64, 0),
        ];
        for &(what, offset, size) in cases {
            let mut a = BlobAllocator::new(1024, 64);
            assert_eq!(a.alloc(64), Some(0));
            assert!(a.free(0, 64), "{what}: the first free");
            let before = a.clone();
            assert!(!a.free(offset, size), "{what}: accepted");
            assert_eq!(a, before, "{what}: changed the allocator");
        }
    }

    #[test]
    fn allocator_recycles_first_fit_and_merges() {
        let mut a = BlobAllocator::new(1024, 64);
        assert_eq!(a.alloc(64), Some(0));
        assert_eq!(a.alloc(10), Some(64));
        assert_eq!(a.alloc(100), Some(128));
        assert!(a.free(64, 10));
        assert!(a.free(0, 64));
        // [0, 128) merged: a 128-byte request fits at 0.
        assert_eq!(a.alloc(128), Some(0));
        assert!(a.free(128, 100));
        assert_eq!(a.alloc(1024 - 128), Some(128));
        assert_eq!(a.alloc(1), None);
        // A request whose rounded size overflows is refused, not wrapped.
        assert_eq!(a.alloc(u64::MAX), None);
    }

    fn check(build: impl FnOnce(&mut Program), expected: Result<(), &str>) {
        let mut p = Program::new();
        build(&mut p);
        let got = resolve(&p).map(|_| ()).map_err(|e| e.kind.to_string());
        assert_eq!(got.as_ref().map(|_| ()).map_err(|s| s.as_str()), expected);
    }

    #[test]
    fn malformed_programs_are_rejected_with_reasons() {
        check(
            |p| {
                let b = p.buffer("b", 16).unwrap();
                let r = p.region(b, 8, 32);
                p.push(Command::Fill { dst: r, value: 0 }).unwrap();
            },
            Err("range 8..32 is out of bounds of `b` (size 16)"),
        );
        check(
            |p| {
                let pool = p.pool("pool", 256, 64).unwrap();
                let x = p.alloc("x", 64, pool).unwrap();
                p.push(Command::Free { blob: x }).unwrap();
                let r = p.whole(x);
                p.push(Command::Fill { dst: r, value: 0 }).unwrap();
            },
            Err("`x` is used after it was freed"),
        );
        check(
            |p| {
                let pool = p.pool("pool", 256, 64).unwrap();
                let x = p.alloc("x", 64, pool).unwrap();
                p.push(Command::Free { blob: x }).unwrap();
                p.push(Command::Free { blob: x }).unwrap();
            },
            Err("`x` is freed twice"),
        );
        check(
            |p| {
                let pool = p.pool("pool", 128, 64).unwrap();
                p.alloc("x", 64, pool).unwrap();
                p.alloc("y", 65, pool).unwrap();
            },
            Err("pool `pool` has no free range of 65 bytes for `y`"),
        );
        check(
            |p| {
                let b = p.buffer("b", 64).unwrap();
                let src = p.region(b, 0, 16);
                let dst = p.region(b, 8, 24);
                p.push(Command::Copy { src, dst }).unwrap();
            },
            Err("vkCmdCopyBuffer: the source of region 0 (b[0..16]) and the destination of region 0 (b[8..24]) overlap in memory (VUID-vkCmdCopyBuffer-pRegions-00117)"),
        );
        check(
            |p| {
                let b = p.buffer("b", 64).unwrap();
                let dst = p.region(b, 2, 6);
                p.push(Command::Fill { dst, value: 0 }).unwrap();
            },
            Err("offset 2 must be a multiple of 4"),
        );
        check(
            |p| {
                let b = p.buffer("b", 64).unwrap();
                let dst = p.region(b, 4, 4);
                p.push(Command::Fill { dst, value: 0 }).unwrap();
            },
            Err("range 4..4 of `b` is empty"),
        );
        check(
            |p| {
                let b = p.buffer("b", 64).unwrap();
                p.alias("c", 32, b, 40).unwrap();
            },
            Err("`c` aliases `b` at 40..72, past its size 64"),
        );
    }

    #[test]
    fn aliases_and_blobs_share_memory() {
        let mut p = Program::new();
        let b = p.buffer("b", 256).unwrap();
        let c = p.alias("c", 64, b, 128).unwrap();
        let pool = p.pool("pool", 256, 64).unwrap();
        let x = p.alloc("x", 10, pool).unwrap();
        p.push(Command::Free { blob: x }).unwrap();
        let y = p.alloc("y", 64, pool).unwrap();
        let layout = resolve(&p).unwrap();
        let at = |o, s, e| {
            layout.at(Region {
                object: o,
                range: ByteRange::new(s, e),
            })
        };
        assert_eq!(at(c, 0, 4), at(b, 128, 132));
        assert_eq!(at(x, 0, 10).range, at(y, 0, 10).range);
        assert_eq!(at(x, 0, 10).mem, at(pool, 0, 10).mem);
        assert_ne!(at(x, 0, 10).mem, at(b, 0, 10).mem);
    }
}
