//! Scheduling: choosing the command order and where blobs live, so that the
//! barriers a program needs follow its data dependencies rather than the
//! reuse of its memory.
//!
//! This module owns [`schedule`] and [`dependency_bound`]. It does not
//! decide hazards (the fast checker does, through the offline planner) and
//! does not place barriers (the offline planner does, on the order chosen
//! here). A blob's place in its pool stays the first-fit allocator's
//! ([`crate::BlobAllocator`]); the scheduler decides *when* each `alloc`
//! and `free` happens, and so which memory a blob can take.
//!
//! # The bound
//!
//! Two device commands of one batch that access a byte of one logical
//! object, at least one writing it, need a barrier point between them in
//! any order that keeps their relative order (a write-after-read needs an
//! execution dependency, the others a memory dependency), whatever memory
//! the blobs get: reuse only adds hazards. Such a pair is a *data
//! dependency*, and no valid reordering swaps it. Along a chain of `k`
//! dependencies `c0 -> c1 -> ... -> ck` the `k` intervals `(c(i-1), ci]`
//! are disjoint in every order, so every schedule needs `k` points: the
//! longest chain of each segment (commands between host operations,
//! submits, waits and layout transitions, which stay in place) is a lower
//! bound, and their sum, plus one point per transition (a barrier command
//! of every plan), is the program's ([`dependency_bound`]).
//!
//! # Rendering instances
//!
//! A dynamic rendering instance (`begin-rendering` .. `end-rendering`)
//! and a render pass instance (`begin-render-pass` .. `end-render-pass`,
//! every subpass) is one *unit*: it moves whole, its accesses are those
//! of all its commands, and nothing moves into it (a draw is valid only
//! inside its instance, and no barrier goes between two subpasses or, as
//! the planners place them, inside one). The dependencies inside a unit
//! are its own business (implicit and subpass dependencies; what they do
//! not order the planners refuse, and so does the scheduler, with the same
//! error at the same command), so the bound counts none there. A render
//! pass that declares a dependency from `VK_SUBPASS_EXTERNAL` (to it) may
//! order a command before it (after it) without a barrier, so the bound
//! counts no dependency into (out of) such a pass either. A pass with both
//! kinds that the scheduler moves between two commands of a dependency may
//! chain them through its external dependencies, saving a point: the bound
//! takes one point off its segment per such instance (it stands at one
//! place in the order, so it replaces at most one point), which keeps it
//! a lower bound (the exhaustive suite's graphics programs found the case:
//! `clear-color-image`, a pass with both kinds, a dispatch reading the
//! image).
//!
//! # The schedule
//!
//! Commands are ordered by *level*, the length of the longest dependency
//! chain ending at them (as soon as possible), ties kept in program order;
//! commands of one level are independent, so one barrier point between
//! consecutive levels serves every data dependency. Memory reuse adds
//! hazards inside a level when a blob freed there is allocated again in the
//! same level; delaying each `free` to the next level boundary makes every
//! such hazard cross a boundary the plan has anyway, at the cost of a
//! higher pool peak. The candidates (program order; level order with frees
//! after the last use; level order with frees delayed to the next level)
//! are planned by the offline planner, and the one with the fewest barrier
//! points, then the lowest pool peak, then the fewest bits, among those
//! within the memory budget, is kept. Program order is always within the
//! budget (the budget is at least its peak), so a schedule never needs
//! more points than the offline plan of the program as given.
//!
//! Invariants: the scheduled program has the same objects (pools possibly
//! larger), the same commands (allocs and frees moved, device commands
//! reordered inside their segment, each rendering or render pass instance
//! whole, host commands, submits and waits in place), and computes the same bytes as the original: no data dependency
//! is reversed, and a blob is freed only after its last use.

use super::deps::{Earlier, Touch};
use super::{plan, Plan, PlanOptions, PlannerKind};
use crate::ir::access::accesses;
use crate::ir::layout::{resolve, BlobAllocator, Layout, Location, ProgramError};
use crate::ir::program::{Command, Object, ObjectId, ObjectKind, Program};
use crate::semantics::{Reading, Semantics};
use std::collections::{BTreeMap, HashMap};

/// How the scheduler may spend memory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScheduleOptions {
    /// Each pool's peak may be at most its peak under the first-fit
    /// allocator in program order times this factor (at least 1).
    pub budget_factor: f64,
    /// The reading of write-after-write the plans follow.
    pub reading: Reading,
    /// Global or buffer memory barriers.
    pub form: super::BarrierForm,
}

impl Default for ScheduleOptions {
    /// A 25% margin over the program-order peak; global barriers; plans
    /// for [`Reading::VisibleToWrites`], as [`super::PlanOptions::new`]
    /// and [`crate::Tracker::new`] do (and `vksync plan`): a plan race-free
    /// under both readings, which no validation layer reports
    /// (`model/tests/defaults.rs` holds the three together).
    fn default() -> Self {
        ScheduleOptions {
            budget_factor: 1.25,
            reading: Reading::VisibleToWrites,
            form: super::BarrierForm::Global,
        }
    }
}

/// Which order a [`Schedule`] kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScheduleKind {
    /// The program's own order.
    ProgramOrder,
    /// Level order, each blob freed right after its last use.
    Levels,
    /// Level order, each blob freed at the next level boundary.
    LevelsDelayedReuse,
}

impl ScheduleKind {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            ScheduleKind::ProgramOrder => "program order",
            ScheduleKind::Levels => "level order",
            ScheduleKind::LevelsDelayedReuse => "level order, reuse delayed to the next level",
        }
    }
}

/// A scheduled and planned program.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// The offline plan of the scheduled program; its `origin`, and the
    /// commands of the hazards in its `answers`, refer to the barrier-free
    /// input as given (not to the scheduled order).
    pub plan: Plan,
    /// Which candidate was kept.
    pub kind: ScheduleKind,
    /// Barrier points of the plan.
    pub points: usize,
    /// [`dependency_bound`] of the program.
    pub bound: usize,
    /// The sum of the pools' peaks (highest byte handed out) in the
    /// scheduled order.
    pub pool_peak: u64,
    /// The same in program order (the ncnn-style allocator's peak).
    pub program_order_peak: u64,
    /// Barrier points of the offline plan of the program as given.
    pub program_order_points: usize,
    /// Where each blob lives: (blob, its pool, offset in the pool).
    pub placements: Vec<(ObjectId, ObjectId, u64)>,
}

/// Whether command `c` of the input stays in place and bounds a segment: a
/// layout transition (kept where the program has it, as every planner
/// keeps it: its write pins the accesses of its bytes on either side; the
/// input has no other barrier). Host accesses, submits and waits stay too.
fn stays(c: &Command) -> bool {
    super::transitions::is_transition(c)
}

/// The device commands of each segment (maximal runs of commands without a
/// host access, submit, wait or layout transition), as indices of `input`.
fn segments(input: &Program) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for (i, c) in input.commands.iter().enumerate() {
        match c {
            // A layout transition stays in place too (`stays`).
            c if stays(c) => out.push(Vec::new()),
            Command::Alloc { .. } | Command::Free { .. } | Command::Barrier(_) => {}
            _ if crate::ir::access::is_device_command(c) => {
                out.last_mut().expect("one segment at least").push(i);
            }
            _ => {
                // A host access, submit or wait stays in place.
                out.push(Vec::new());
            }
        }
    }
    out
}

/// The program with every blob in memory of its own (no `free`, pools as
/// large as all their blobs): its accesses are the logical ones, which
/// memory reuse cannot change.
fn logical_layout(input: &Program) -> Result<Layout, ProgramError> {
    let mut objects: Vec<Object> = input.objects.to_vec();
    let mut need: BTreeMap<ObjectId, u64> = BTreeMap::new();
    for o in input.objects.iter() {
        if let ObjectKind::Blob { pool } = o.kind {
            let align = match input.obj(pool).kind {
                ObjectKind::Pool { align } => align.max(1),
                _ => 1,
            };
            *need.entry(pool).or_default() += o.size.div_ceil(align) * align;
        }
    }
    for (pool, bytes) in need {
        let o = &mut objects[pool.0 as usize];
        o.size = o.size.max(bytes);
    }
    let commands: Vec<Command> = input
        .commands
        .iter()
        .filter(|c| !matches!(c, Command::Free { .. }))
        .cloned()
        .collect();
    // Without blobs the layout is the program's own.
    if need_none(input) {
        return resolve(input);
    }
    if input.images.is_empty() {
        return resolve(&Program::from_parts(objects, commands)?);
    }
    // Images are declared by the parser and the image builders only, so
    // `from_parts` would lose them (and their barriers' references): keep
    // the program's declarations with the pools grown.
    let mut p = input.with_commands(commands);
    p.objects = std::sync::Arc::new(objects);
    resolve(&p)
}

/// Whether `input` has no blob.
fn need_none(input: &Program) -> bool {
    !input
        .objects
        .iter()
        .any(|o| matches!(o.kind, ObjectKind::Blob { .. }))
}

/// A command's logical accesses: memory, bytes, write.
type Logical = Vec<Touch>;

/// Per command of `input`, its logical accesses.
fn logical_accesses(input: &Program) -> Result<Vec<Logical>, ProgramError> {
    let layout = logical_layout(input)?;
    Ok(input
        .commands
        .iter()
        .map(|c| {
            if crate::ir::access::is_device_command(c) {
                accesses(c, &layout, Semantics::SPEC)
                    .iter()
                    .map(|a| (a.mem, a.range, a.sa.is_write()))
                    .collect()
            } else {
                Vec::new()
            }
        })
        .collect())
}

/// The fewest barrier points any order and any placement of `program`'s
/// blobs needs: per segment, the longest chain of data dependencies (module
/// docs), summed. Computed from the dependency graph alone, by longest
/// path over the commands in program order (every dependency points
/// forward in it): the highest level of each segment (`levels`).
pub fn dependency_bound(program: &Program) -> Result<usize, ProgramError> {
    super::refuse_unplanned(program)?;
    // Of the program as `plan` plans it: with the subpass dependencies it
    // needs, which order some commands around a render pass instance with
    // no barrier (the reading whose hazards ask for the most).
    let program = &super::with_needed_dependencies(program, PlanOptions::new(PlannerKind::Offline))?;
    let input = super::planning_input(program);
    let layout = resolve(&input)?;
    // The program as it runs, as `plan` takes it: a host access recorded
    // after a command it runs before (an order note) goes ahead of it
    // (`ir::execution::host_accesses_first`), so its note is no dependency.
    let input = match crate::ir::execution::with_host_accesses_first(&input, &layout) {
        None => input,
        Some((moved, _)) => moved,
    };
    let acc = logical_accesses(&input)?;
    let level = levels(&input, &acc, true);
    // Each layout transition is a barrier command of every plan, apart
    // from the points inside the segments it bounds.
    let transitions = input.commands.iter().filter(|c| stays(c)).count();
    // A render pass instance whose pass declares external dependencies on
    // both sides can stand in for one barrier point wherever the scheduler
    // puts it: a dependency between two commands around it may be ordered
    // by the chain through its `EXTERNAL->k` and `k->EXTERNAL`
    // dependencies. It saves at most that one point (it lies at one place
    // in the order), so taking one off per such instance keeps the bound a
    // lower bound.
    let both_sided = |seg: &[usize]| {
        seg.iter()
            .filter(|&&c| external_sides(&input, c) == (true, true))
            .count()
    };
    Ok(segments(&input)
        .iter()
        .map(|seg| {
            seg.iter()
                .map(|c| level[c])
                .max()
                .unwrap_or(0)
                .saturating_sub(both_sided(seg))
        })
        .sum::<usize>()
        + transitions)
}

/// `input`'s program with `objects` and `commands`: built anew
/// ([`Program::from_parts`]), or, for a program with images (which only
/// the parser and the image builders declare), `input` with the commands
/// replaced, which needs the objects unchanged (no blob renumbered, no
/// pool grown); `None` otherwise.
fn rebuilt(
    input: &Program,
    objects: Vec<Object>,
    commands: Vec<Command>,
) -> Option<Result<Program, ProgramError>> {
    if input.images.is_empty() {
        return Some(Program::from_parts(objects, commands));
    }
    (objects == *input.objects).then(|| Ok(input.with_commands(commands)))
}

/// The level of each device command (the longest dependency chain ending
/// at it), by command index. The level is one more than the highest level
/// among the earlier commands of its segment it depends on, which
/// [`Earlier`] keeps per byte (no pairwise pass over a segment: a long
/// one would make it quadratic).
///
/// With `for_bound`, a dependency into a render pass instance that
/// declares a dependency from `VK_SUBPASS_EXTERNAL` (one out of it that
/// declares one to `EXTERNAL`) counts for nothing: the pass's own
/// dependency may order it wherever the pass goes, so no barrier point is
/// certainly needed for it (`external_sides`). The order itself
/// (`for_bound` false) counts every dependency: it only has to keep them.
fn levels(input: &Program, acc: &[Logical], for_bound: bool) -> BTreeMap<usize, usize> {
    let mut level = BTreeMap::new();
    let unit_of = crate::ir::render::barrier_points(&input.commands);
    for seg in segments(input) {
        let mut earlier: Earlier<Option<usize>> = Earlier::new();
        for unit in units(&seg, &unit_of) {
            // A unit's accesses are those of all its commands: it depends
            // on what any of them depends on, and moves as one.
            let touches: Logical = unit.iter().flat_map(|&c| acc[c].iter().copied()).collect();
            let (free_in, free_out) = if for_bound {
                external_sides(input, unit[0])
            } else {
                (false, false)
            };
            let before = earlier.before(&touches);
            let l = match before {
                None => 0,
                Some(p) if free_in => p,
                Some(p) => p + 1,
            };
            // Recorded one lower, a later command depending on it gets
            // its level, not one more.
            let recorded = if free_out { l.checked_sub(1) } else { Some(l) };
            earlier.record(&touches, recorded);
            for &c in unit {
                level.insert(c, l);
            }
        }
    }
    level
}

/// For the unit that `begin` starts: whether it is a render pass instance
/// whose render pass declares a dependency from `VK_SUBPASS_EXTERNAL`
/// with a source stage (the first scope of one whose source is
/// `TOP_OF_PIPE` or `NONE` holds no command), and one to `EXTERNAL` with
/// a destination stage. The implicit external dependencies order nothing
/// outside the pass (`NONE` on the outer side), so they do not count.
fn external_sides(input: &Program, begin: usize) -> (bool, bool) {
    use crate::ir::renderpass::SubpassIndex;
    use crate::vk::flags::PipelineStageFlags2 as S;
    let Some(Command::Render(rc)) = input.commands.get(begin) else {
        return (false, false);
    };
    let crate::ir::render::RenderOp::BeginPass(b) = &rc.op else {
        return (false, false);
    };
    let Some(rp) = input.render_passes().get(b.pass.0 as usize) else {
        return (false, false);
    };
    let free_in = rp
        .dependencies
        .iter()
        .any(|d| d.src == SubpassIndex::External && !(d.src_stage_mask - S::TOP_OF_PIPE).is_empty());
    let free_out = rp
        .dependencies
        .iter()
        .any(|d| d.dst == SubpassIndex::External && !(d.dst_stage_mask - S::BOTTOM_OF_PIPE).is_empty());
    (free_in, free_out)
}

/// `seg` (command indices in program order) cut into *units*, the pieces
/// the scheduler moves: a rendering instance (`vkCmdBeginRendering` ..
/// `vkCmdEndRendering`) or a whole render pass instance
/// (`vkCmdBeginRenderPass` .. `vkCmdEndRenderPass`, its subpasses
/// included) is one unit, every other command one of its own. A draw, a
/// subpass's end or a next-subpass is valid only inside its instance, and
/// no barrier can be recorded between two subpasses (only the render
/// pass's own dependencies order them), so an instance is never split,
/// and a command outside it never moved into it. `unit_of` is
/// [`crate::ir::render::barrier_points`] of the program: for each command
/// of an instance, the instance's begin (or the render pass's), else
/// `None`. An instance's commands are consecutive in `seg`: nothing that
/// bounds a segment can be recorded inside one.
fn units<'a>(seg: &'a [usize], unit_of: &'a [Option<usize>]) -> impl Iterator<Item = &'a [usize]> + 'a {
    let mut rest = seg;
    std::iter::from_fn(move || {
        let (&first, _) = rest.split_first()?;
        let len = match unit_of[first] {
            Some(begin) => rest.iter().take_while(|&&c| unit_of[c] == Some(begin)).count(),
            None => 1,
        };
        let (unit, tail) = rest.split_at(len);
        rest = tail;
        Some(unit)
    })
}

/// The commands of `input` in level order (module docs), as indices:
/// device commands sorted by level inside their segment, each blob's
/// `alloc` right before its first use in the segment it was allocated in
/// (at the segment's start if it is not used there), its `free` right after
/// its last use in the segment it was freed in (`delay`: before the first
/// command of the next level instead; at the segment's end when there is
/// none), host commands, submits and waits in place.
fn level_order(input: &Program, level: &BTreeMap<usize, usize>, delay: bool) -> Vec<usize> {
    let n = input.commands.len();
    // The segment of every command: a host command (host access, submit,
    // wait) opens the next one, and stays first in it.
    let mut seg_of = vec![0usize; n];
    let mut host_at: Vec<Option<usize>> = vec![None];
    for (i, c) in input.commands.iter().enumerate() {
        let device = !stays(c)
            && (matches!(
                c,
                Command::Alloc { .. } | Command::Free { .. } | Command::Barrier(_)
            ) || crate::ir::access::is_device_command(c));
        if !device {
            host_at.push(Some(i));
        }
        seg_of[i] = host_at.len() - 1;
    }
    // Per segment: device commands by level, then allocs and frees. Each
    // segment's commands are gathered in one pass (a scan of the whole
    // program per segment is quadratic in a program that submits often).
    let mut out = Vec::with_capacity(n);
    let mut dev_of: Vec<Vec<usize>> = vec![Vec::new(); host_at.len()];
    let mut allocs_of: Vec<Vec<usize>> = vec![Vec::new(); host_at.len()];
    let mut frees_of: Vec<Vec<usize>> = vec![Vec::new(); host_at.len()];
    for (i, c) in input.commands.iter().enumerate() {
        match c {
            Command::Alloc { .. } => allocs_of[seg_of[i]].push(i),
            Command::Free { .. } => frees_of[seg_of[i]].push(i),
            c if crate::ir::access::is_device_command(c) => dev_of[seg_of[i]].push(i),
            _ => {}
        }
    }
    let unit_of = crate::ir::render::barrier_points(&input.commands);
    for (seg, host) in host_at.iter().enumerate() {
        if let Some(h) = *host {
            out.push(h);
        }
        let dev_cmds = std::mem::take(&mut dev_of[seg]);
        // Units (`units`: a rendering or render pass instance moves whole),
        // by level (one level for all of a unit's commands), ties in
        // program order.
        let mut dev: Vec<&[usize]> = units(&dev_cmds, &unit_of).collect();
        dev.sort_by_key(|u| (level[&u[0]], u[0]));
        let allocs = std::mem::take(&mut allocs_of[seg]);
        let frees = std::mem::take(&mut frees_of[seg]);
        // The first and last position in `dev` of a unit naming each
        // object (one pass, instead of a search of `dev` per blob).
        let mut first_use: HashMap<ObjectId, usize> = HashMap::new();
        let mut last_use: HashMap<ObjectId, usize> = HashMap::new();
        for (k, unit) in dev.iter().enumerate() {
            for &d in unit.iter() {
                for o in input.commands[d].objects() {
                    first_use.entry(o).or_insert(k);
                    last_use.insert(o, k);
                }
            }
        }
        let blob_of = |i: usize| match input.commands[i] {
            Command::Alloc { blob } | Command::Free { blob } => blob,
            _ => unreachable!("allocs and frees only"),
        };
        // Where each alloc and free goes: before position `k` of `dev`
        // (k = dev.len(): at the end), then by original index; never
        // inside a unit.
        // (k, rank, index): at one place, first the frees of blobs not
        // allocated there (their memory is the allocs' to take), then the
        // allocs, then the frees of blobs allocated there (never used in
        // the segment).
        let mut before: Vec<(usize, usize, usize)> = Vec::new();
        let mut alloc_at: BTreeMap<ObjectId, usize> = BTreeMap::new();
        for &a in &allocs {
            let b = blob_of(a);
            let k = first_use.get(&b).copied().unwrap_or(0);
            alloc_at.insert(b, k);
            before.push((k, 1, a));
        }
        for &f in &frees {
            let b = blob_of(f);
            let k = match last_use.get(&b).copied() {
                None => 0,
                Some(last) if delay => {
                    // `dev` is sorted by level: the first of a higher one.
                    let l = level[&dev[last][0]];
                    dev.partition_point(|u| level[&u[0]] <= l)
                }
                Some(last) => last + 1,
            };
            let rank = if alloc_at.get(&b) == Some(&k) { 2 } else { 0 };
            before.push((k, rank, f));
        }
        before.sort_unstable();
        let mut bi = 0;
        for (k, unit) in dev.iter().enumerate() {
            while bi < before.len() && before[bi].0 <= k {
                out.push(before[bi].2);
                bi += 1;
            }
            out.extend_from_slice(unit);
        }
        while bi < before.len() {
            out.push(before[bi].2);
            bi += 1;
        }
    }
    out
}

/// The objects of `input` with its blobs in the order `commands` allocates
/// them, after every other object (kept in order), and the new id of each
/// old one; `None` when an object other than a blob names a blob (an alias
/// of a blob), which this order could not declare.
fn renumbered(input: &Program, commands: &[Command]) -> Option<(Vec<Object>, Vec<ObjectId>)> {
    let is_blob = |o: &Object| matches!(o.kind, ObjectKind::Blob { .. });
    let mut old: Vec<usize> = (0..input.objects.len())
        .filter(|&i| !is_blob(&input.objects[i]))
        .collect();
    for c in commands {
        if let Command::Alloc { blob } = c {
            old.push(blob.0 as usize);
        }
    }
    if old.len() != input.objects.len() {
        return None;
    }
    let mut new_id = vec![ObjectId(0); old.len()];
    for (n, &o) in old.iter().enumerate() {
        new_id[o] = ObjectId(n as u32);
    }
    let mut objects = Vec::with_capacity(old.len());
    for &o in &old {
        let mut obj = input.objects[o].clone();
        match &mut obj.kind {
            ObjectKind::Blob { pool } => *pool = new_id[pool.0 as usize],
            ObjectKind::Buffer {
                alias: Some((other, _)),
            } => {
                if is_blob(&input.objects[other.0 as usize]) {
                    return None;
                }
                *other = new_id[other.0 as usize];
            }
            _ => {}
        }
        objects.push(obj);
    }
    Some((objects, new_id))
}

/// `c` with its objects renamed through `new_id`.
fn remap(c: &Command, new_id: &[ObjectId]) -> Command {
    let mut c = c.clone();
    if let Command::Alloc { blob } | Command::Free { blob } = &mut c {
        *blob = new_id[blob.0 as usize];
    }
    c.for_each_region_mut(|r| r.object = new_id[r.object.0 as usize]);
    c
}

/// Each pool's peak (highest byte handed out) when the first-fit allocator
/// serves `commands` with unbounded pools.
fn peaks(program: &Program, commands: &[Command]) -> BTreeMap<ObjectId, u64> {
    let mut alloc: BTreeMap<ObjectId, BlobAllocator> = BTreeMap::new();
    let mut placed: BTreeMap<ObjectId, u64> = BTreeMap::new();
    let mut peak: BTreeMap<ObjectId, u64> = BTreeMap::new();
    for c in commands {
        match c {
            Command::Alloc { blob } => {
                let o = program.obj(*blob);
                let ObjectKind::Blob { pool } = o.kind else {
                    continue;
                };
                let align = match program.obj(pool).kind {
                    ObjectKind::Pool { align } => align,
                    _ => 1,
                };
                let a = alloc
                    .entry(pool)
                    .or_insert_with(|| BlobAllocator::new(u64::MAX / 2, align));
                if let Some(off) = a.alloc(o.size) {
                    placed.insert(*blob, off);
                    let end = off + a.rounded(o.size).unwrap_or(o.size);
                    let p = peak.entry(pool).or_default();
                    *p = (*p).max(end);
                }
            }
            Command::Free { blob } => {
                let o = program.obj(*blob);
                let ObjectKind::Blob { pool } = o.kind else {
                    continue;
                };
                if let (Some(a), Some(off)) = (alloc.get_mut(&pool), placed.remove(blob)) {
                    let _ = a.free(off, o.size);
                }
            }
            _ => {}
        }
    }
    peak
}

/// `e`, found on a program whose command `i` is command `order[i]` of the
/// planning input (`order` `None`: the planning input itself), whose
/// command `j` is command `kept[j]` of the program as given: at that
/// command of the program as given.
fn at_command_of(mut e: ProgramError, order: Option<&[usize]>, kept: &[usize]) -> ProgramError {
    if let Location::Command(i) = e.at {
        let i = order.map_or(Some(i), |o| o.get(i).copied());
        if let Some(&k) = i.and_then(|i| kept.get(i)) {
            e.at = Location::Command(k);
        }
    }
    e
}

/// Schedules and plans `program` (its own barriers are dropped first): see
/// the module docs. Refuses what the planners refuse (several queues,
/// events, layout transitions).
///
/// ```
/// use vksync::plan::{schedule, ScheduleOptions};
/// use vksync::trace::parse;
/// // Two independent chains, written one after the other: program order
/// // needs a barrier inside each chain; level order runs the chains side
/// // by side and needs one for both.
/// let t = parse("buffer a 64\nbuffer b 64\nbuffer c 64\nbuffer d 64\n\
///                fill a 1\ncopy a -> b\nfill c 2\ncopy c -> d\n")?;
/// let s = schedule(&t.program, ScheduleOptions::default())?;
/// assert_eq!((s.program_order_points, s.points, s.bound), (2, 1, 1));
/// assert!(vksync::check(&s.plan.program)?.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn schedule(program: &Program, opts: ScheduleOptions) -> Result<Schedule, ProgramError> {
    super::refuse_unplanned(program)?;
    let planning = PlanOptions::new(PlannerKind::Offline)
        .reading(opts.reading)
        .form(opts.form);
    // The plan of the program as given first: what it refuses (a hazard
    // inside a rendering instance, an ordering only a subpass dependency
    // gives) is refused here with its error, at `program`'s commands.
    let program_order_points = plan(program, planning)?.program.barrier_points();
    let input = super::planning_input(program);
    // The index in `program` of each command of `input`, so that an error
    // found on `input` or on a reordering of it names `program`'s command
    // (and `vksync plan --schedule` its line).
    let kept: Vec<usize> = (0..program.commands.len())
        .filter(|&i| !super::is_planned_away(&program.commands[i]))
        .collect();
    let at_program = |order: Option<&[usize]>| {
        let kept = kept.clone();
        let order = order.map(<[usize]>::to_vec);
        move |e: ProgramError| at_command_of(e, order.as_deref(), &kept)
    };
    resolve(&input).map_err(at_program(None))?;
    let acc = logical_accesses(&input).map_err(at_program(None))?;
    let level = levels(&input, &acc, false);
    let bound = dependency_bound(&input).map_err(at_program(None))?;
    let base_peaks = peaks(&input, &input.commands);
    let program_order_peak: u64 = base_peaks.values().sum();
    let budget = |pool: ObjectId| {
        let base = base_peaks.get(&pool).copied().unwrap_or(0);
        (base as f64 * opts.budget_factor.max(1.0)).floor() as u64
    };
    let mut best: Option<(Schedule, (usize, u64, u64))> = None;
    for kind in [
        ScheduleKind::ProgramOrder,
        ScheduleKind::Levels,
        ScheduleKind::LevelsDelayedReuse,
    ] {
        let order: Vec<usize> = match kind {
            ScheduleKind::ProgramOrder => (0..input.commands.len()).collect(),
            ScheduleKind::Levels => level_order(&input, &level, false),
            ScheduleKind::LevelsDelayedReuse => level_order(&input, &level, true),
        };
        let commands: Vec<Command> = order.iter().map(|&i| input.commands[i].clone()).collect();
        let pk = peaks(&input, &commands);
        // Blobs are declared by their `alloc`, in id order: renumber them
        // in the new order of their allocs (other objects first, as they
        // were; names move with the objects).
        let Some((objects, new_id)) = renumbered(&input, &commands) else {
            continue;
        };
        let commands: Vec<Command> = commands.iter().map(|c| remap(c, &new_id)).collect();
        // Program order is within the budget by definition (its own peak).
        if kind != ScheduleKind::ProgramOrder && pk.iter().any(|(&pool, &p)| p > budget(pool)) {
            continue;
        }
        // Pools grow to the schedule's peak where it is above their size.
        let mut objects = objects;
        for (&pool, &p) in &pk {
            let o = &mut objects[new_id[pool.0 as usize].0 as usize];
            o.size = o.size.max(p);
        }
        let Some(scheduled) = rebuilt(&input, objects, commands) else {
            continue;
        };
        let scheduled = scheduled.map_err(at_program(Some(&order)))?;
        let mut planned = plan(&scheduled, planning).map_err(at_program(Some(&order)))?;
        // Origins back to the input's indices.
        for o in planned.origin.iter_mut() {
            *o = o.map(|i| order[i]);
        }
        // And the commands of the hazards each barrier answers (indices
        // of the scheduled order until now: `vksync plan --schedule`'s
        // `# answers` comments named the wrong lines).
        for (_, hs) in planned.answers.iter_mut() {
            for h in hs.iter_mut() {
                h.command = order[h.command];
                h.prior_command = order[h.prior_command];
            }
        }
        let points = planned.program.barrier_points();
        let key = (points, pk.values().sum::<u64>(), planned.program.barrier_bits());
        let layout = resolve(&planned.program)?;
        // Placements by the input's ids.
        let placements = input
            .objects
            .iter()
            .enumerate()
            .filter_map(|(i, o)| match o.kind {
                ObjectKind::Blob { pool } => {
                    let id = ObjectId(i as u32);
                    layout.place(new_id[i]).map(|(_, off)| (id, pool, off))
                }
                _ => None,
            })
            .collect();
        let s = Schedule {
            plan: planned,
            kind,
            points,
            bound,
            pool_peak: key.1,
            program_order_peak,
            program_order_points: 0,
            placements,
        };
        if best.as_ref().is_none_or(|(_, k)| key < *k) {
            best = Some((s, key));
        }
    }
    let (mut s, _) = best.expect("program order is always within the budget");
    s.program_order_points = program_order_points;
    Ok(s)
}
