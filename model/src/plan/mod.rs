//! Barrier planners: turn a program without barriers into the same program
//! with the barriers (and, before host accesses, the submits and fence
//! waits) it needs.
//!
//! This module owns the planners: `online` (streaming, one
//! `vkCmdPipelineBarrier2` before each command that has hazards), `offline`
//! (whole program, the fewest barrier points by greedy interval stabbing)
//! and the baselines `conservative`, `per-object` (ncnn's model) and
//! `none`. Planners drop the input's own barriers and events and plan
//! from scratch, but for image layout transitions (`transitions`): a
//! transition is a write its barrier performs, so each stays at its place
//! as a fixed point with the scopes the program needs of it, and a point
//! planned there is merged into its `vkCmdPipelineBarrier2`. [`plan`],
//! [`stabbing_bound`], the scheduler (a transition bounds the segments it
//! reorders) and the multi-queue planner (scopes planned per queue, then
//! widened and thinned on the whole plan) plan around them; repeated
//! submission runs them again in each submission (their loop-carried
//! dependencies go into their own scopes, `repeat`), and the async
//! compute assignment keeps them, and every command that touches their
//! memory, on the program's own queue (`assign`).
//! Render pass declarations are the one thing of the program the
//! planners change: a hazard that only a subpass dependency orders
//! (between two subpasses of one instance, or against an automatic
//! layout transition) gets the masks it needs added to the declaration
//! before barriers are planned (`with_needed_dependencies`; never a mask
//! removed).
//! What counts as a hazard is the checker's business ([`crate::check`]); this module
//! only decides where barriers go and what bits they carry.
//!
//! Beside them: [`plan_queues`] (`queues`) plans a program already
//! assigned to several queues (semaphore waits between queues, these
//! planners inside each queue, ownership transfers of exclusive objects);
//! [`assign_async_compute`] (`assign`) assigns a single-queue program's
//! independent work to a compute and a transfer queue first; and
//! [`split_barriers`] (`split`) turns a single-queue plan's points into
//! events; [`recorded_barriers`] (`recorded`) judges a program's own
//! barriers (which are needed, which are redundant alone). `deps` summarizes, per byte, the earlier commands each command
//! depends on, for the scheduler, the async compute assignment and the
//! multi-queue planner, so that none of them builds the pairwise
//! dependency graph.
//!
//! # Cost
//!
//! Planning is linear in the program (issue 27; `docs/testing.md`,
//! "Planner scaling" and "Planner memory": the offline planner streams the
//! checker's hazards to their points instead of holding them all), but for
//! the work of one barrier point and for layout transitions (each bit of a
//! transition's scopes costs a check of the whole plan): thinning a
//! buffer-barrier point of B barriers for L requirements costs about B·L
//! checks (`points`).
//!
//! # Minimality
//!
//! Every dependency a command needs is an interval `(producer, consumer]`
//! of barrier positions ("before command q"). The dependencies are those of
//! the barrier-free program: which prior access a new access must be
//! ordered after depends only on the order of accesses, never on barriers.
//! A barrier for a dependency carries exactly the producer's (stage,
//! access) as its source and the consumer's as its destination (a
//! write-after-read carries no access: an execution dependency suffices).
//! At each point the planner leaves out dependencies that earlier barriers
//! already satisfy through chaining, and then drops every barrier the
//! point's other barriers make redundant, so removing any barrier or any bit
//! brings a hazard back.

mod assign;
mod baselines;
mod deps;
mod emit;
mod offline;
pub(crate) mod online;
mod points;
mod queues;
mod recorded;
mod repeat;
mod schedule;
mod split;
mod transitions;

pub use assign::{assign_async_compute, plan_async_compute};
pub use baselines::full_barrier;
pub use offline::stabbing_bound;
pub use queues::{plan_queues, QueuePlan, QueuePlanError, QueuePlanOptions};
pub use recorded::{recorded_barriers, recorded_plan, RecordedBarrier};
pub use repeat::{for_repeated_submission, repeated};
pub use schedule::{dependency_bound, schedule, Schedule, ScheduleKind, ScheduleOptions};
pub use split::{split_barriers, SplitKept, SplitPlan};
pub use transitions::{is_planned_away, planning_input};

use crate::hazard::Hazard;
use crate::ir::layout::{resolve, Location, ProgramError, ProgramErrorKind};
use crate::ir::program::{ByteRange, Command, Program, Region};
use crate::semantics::{Reading, Semantics};
use emit::Emitter;

/// Which planner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlannerKind {
    /// No barriers at all: the unsafe speed limit.
    None,
    /// A full `ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE` barrier between every
    /// two device commands.
    Conservative,
    /// ncnn's model: one last (stage, access) per object, reset when the
    /// allocator hands memory out again; barriers on copy sources and
    /// dispatch bindings only.
    PerObject,
    /// Streaming: before each command, the barriers its hazards need.
    Online,
    /// Whole program: the fewest barrier points.
    Offline,
}

impl PlannerKind {
    /// Every planner, baselines first.
    pub const ALL: [PlannerKind; 5] = [
        PlannerKind::None,
        PlannerKind::PerObject,
        PlannerKind::Conservative,
        PlannerKind::Online,
        PlannerKind::Offline,
    ];

    /// The planner's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PlannerKind::None => "none",
            PlannerKind::Conservative => "conservative",
            PlannerKind::PerObject => "per-object",
            PlannerKind::Online => "online",
            PlannerKind::Offline => "offline",
        }
    }

    /// Looks a planner up by its name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// Global memory barriers or buffer-range barriers.
///
/// Global barriers are fewer and cheaper to record and are what drivers
/// implement anyway on most desktop GPUs (a buffer barrier's range is
/// rarely used to narrow cache maintenance). Buffer barriers say exactly
/// which bytes a dependency protects, which documents intent, lets
/// unrelated ranges keep their caches on hardware that honours ranges, and
/// is what a validation layer can check most precisely.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BarrierForm {
    /// `VkMemoryBarrier2`s.
    #[default]
    Global,
    /// `VkBufferMemoryBarrier2`s over the byte ranges concerned.
    Buffer,
}

/// How to plan: which planner, which barrier form, and which reading of
/// write-after-write the plan must satisfy. Built with [`PlanOptions::new`]
/// and the setters:
///
/// ```
/// use vksync::plan::{BarrierForm, PlanOptions, PlannerKind};
/// use vksync::Reading;
/// let opts = PlanOptions::new(PlannerKind::Online)
///     .form(BarrierForm::Buffer)
///     .reading(Reading::MemoryModel);
/// assert_eq!(opts.planner, PlannerKind::Online);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct PlanOptions {
    /// The planner.
    pub planner: PlannerKind,
    /// Global memory barriers or buffer memory barriers.
    pub form: BarrierForm,
    /// The reading the plan is race-free and minimal under. The default,
    /// [`Reading::VisibleToWrites`], gives plans race-free under both
    /// readings of the specification, which no validation layer reports;
    /// [`Reading::MemoryModel`] gives the memory model's minimum (a
    /// write-after-write then carries no destination access, which the
    /// layers report as D2).
    pub reading: Reading,
}

impl PlanOptions {
    /// `planner` with global barriers, planned for [`Reading::VisibleToWrites`].
    pub fn new(planner: PlannerKind) -> Self {
        PlanOptions {
            planner,
            form: BarrierForm::Global,
            reading: Reading::VisibleToWrites,
        }
    }

    /// The same options with barrier form `form`.
    pub fn form(self, form: BarrierForm) -> Self {
        PlanOptions { form, ..self }
    }

    /// The same options planning for `reading`.
    pub fn reading(self, reading: Reading) -> Self {
        PlanOptions { reading, ..self }
    }
}

/// A planned program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The program with the planned barriers (and submits and waits).
    pub program: Program,
    /// For each command of `program`: its index in the barrier-free input,
    /// or `None` for commands the planner inserted.
    pub origin: Vec<Option<usize>>,
    /// For each inserted barrier (index into `program.commands`), the
    /// hazards of the barrier-free input it answers (indices in those
    /// hazards refer to the barrier-free input).
    pub answers: Vec<(usize, Vec<Hazard>)>,
}

impl Plan {
    /// Drops each barrier command the planner inserted whose every barrier
    /// is left with no stage or access bit (thinned down to nothing, with
    /// no transition, image barrier or ownership transfer): it orders
    /// nothing (review42: the online planner with buffer barriers printed
    /// `barrier NONE:NONE -> NONE:NONE out[5120..5632]` and counted it as a
    /// barrier point).
    fn drop_empty_barriers(&mut self) {
        let empty = |c: &Command| match c {
            Command::Barrier(d) => d
                .barriers
                .iter()
                .all(|b| b.bit_count() == 0 && !b.transition && b.image.is_none() && b.ownership.is_none()),
            _ => false,
        };
        let drop: Vec<usize> = (0..self.program.commands.len())
            .filter(|&i| self.origin.get(i) == Some(&None) && empty(&self.program.commands[i]))
            .collect();
        for &i in drop.iter().rev() {
            self.program.commands.remove(i);
            self.origin.remove(i);
            self.answers.retain(|(at, _)| *at != i);
            for (at, _) in self.answers.iter_mut() {
                if *at > i {
                    *at -= 1;
                }
            }
        }
    }

    /// Makes a plan of a permutation of the barrier-free input (`perm[k]`:
    /// the input's index of the permuted program's command `k`) one of the
    /// input: its origins and its answers' commands become the input's.
    fn renumber(&mut self, perm: &[usize]) {
        for o in self.origin.iter_mut().flatten() {
            *o = perm[*o];
        }
        for h in self.answers.iter_mut().flat_map(|(_, hs)| hs.iter_mut()) {
            h.command = perm[h.command];
            h.prior_command = perm[h.prior_command];
        }
    }
}

/// A host signal of a semaphore (`host-signal`) that a batch submitted
/// before it waits for: the host's accesses before the signal are ordered
/// before that batch by the signal alone, which a plan that drops the
/// program's synchronization would lose (the batch would read what the
/// host writes later). The command's index and what it is. A signal
/// waited for only by batches submitted after it orders nothing their
/// submit does not (the submission's first scope holds every earlier host
/// operation), so the planners drop it with the other synchronization.
/// A host set of an event (`host-set-event`) is never waited for by a
/// batch submitted before it: a valid program sets an event on the host
/// only while no submitted wait of it is pending (`crate::ir::event`), so
/// such a set is dropped as well (until 2026-12-07 one after an earlier
/// batch's wait of the same event was refused: a host-set event in a
/// frame loop could not be planned).
pub(crate) fn host_signal_waited_early(program: &Program) -> Option<(usize, String)> {
    use crate::ir::queue::SemaphoreId;
    // The semaphores (and values) the submitted batches wait for.
    let mut sem_waits: Vec<(SemaphoreId, Option<u64>)> = Vec::new();
    for (i, c) in program.commands.iter().enumerate() {
        match c {
            Command::Submit(s) => sem_waits.extend(s.waits.iter().map(|w| (w.semaphore, w.value))),
            Command::HostSignal { semaphore, value }
                if sem_waits
                    .iter()
                    .any(|(s, v)| s == semaphore && v.is_none_or(|v| v <= *value)) =>
            {
                return Some((
                    i,
                    format!(
                        "`{}` ({}) that a batch submitted before it waits for",
                        c.keyword(),
                        c.vulkan_name()
                    ),
                ));
            }
            _ => {}
        }
    }
    None
}

/// Plans barriers for `program`, whose own barriers and events are
/// dropped first, but its image layout transitions ([`planning_input`]):
/// each stays at its place with the scopes the plan needs of it, and
/// barriers planned there join its `vkCmdPipelineBarrier2`.
/// The render pass declarations get the subpass dependencies (or masks
/// of declared ones) that hazards no barrier can order need
/// (`with_needed_dependencies`): [`Plan::program`] carries them.
/// [`Plan::origin`] indexes [`planning_input`]`(program)`. Refused: several
/// queues or semaphores ([`plan_queues`] plans them).
///
/// ```
/// use vksync::plan::{plan, PlanOptions, PlannerKind};
/// use vksync::trace::{parse, print_command};
/// let t = parse("buffer a 256\nbuffer b 256\nfill a 1\ncopy a -> b\n")?;
/// let p = plan(&t.program, PlanOptions::new(PlannerKind::Offline))?;
/// let barrier = &p.program.commands()[1];
/// assert_eq!(print_command(&p.program, barrier), "barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ");
/// assert!(vksync::check(&p.program)?.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn plan(program: &Program, opts: PlanOptions) -> Result<Plan, ProgramError> {
    refuse_unplanned(program)?;
    let original = program;
    // The subpass dependencies the program's render passes need first: the
    // planners below place no barrier where only a dependency orders.
    let amended = with_needed_dependencies(program, opts)?;
    let program = amended.as_ref();
    // A hazard between two commands of one rendering instance has no
    // place for its barrier (one can only go before the instance's
    // begin-rendering, `Deadlines`): refused, naming both commands.
    if opts.planner != PlannerKind::None {
        // (By the definitional semantics where no fast checker takes the
        // program: a render pass of several views whose commands access
        // more than its attachments.)
        refuse_hazards_inside(program, opts.reading, |p, sem| {
            crate::hazard::check_program(p, sem).map(|c| c.hazards)
        })?;
    }
    let stripped = planning_input(program);
    // A host access recorded after a command it runs before (an order
    // note) goes ahead of it first, so that no planner submits the command
    // before the access (`ir::execution::host_accesses_first`).
    let mut plan = match crate::ir::execution::with_host_accesses_first(&stripped, &resolve(&stripped)?) {
        None => plan_stripped(&stripped, opts, None)?,
        Some((moved, perm)) => {
            let mut plan = plan_stripped(&moved, opts, None)?;
            plan.renumber(&perm);
            plan
        }
    };
    if image_regions_global(&mut plan.program) && opts.planner != PlannerKind::PerObject {
        thin_after_widening(&mut plan.program, Semantics::for_reading(opts.reading));
    }
    if let std::borrow::Cow::Owned(_) = &amended {
        thin_added_dependency_bits(original, &mut plan.program, Semantics::for_reading(opts.reading));
    }
    plan.drop_empty_barriers();
    // The planners place every barrier a rendering instance needs before
    // its begin-rendering; a plan with one inside an instance all the same
    // (the per-object baseline's) is refused at that begin (the line of
    // `program`, whose commands `planning_input` renumbered).
    crate::ir::render::refuse_barrier_inside(program, &plan.program)?;
    // Nor inside a render pass instance, where a hazard the plan leaves
    // needs a subpass dependency.
    crate::ir::renderpass::refuse_hazard_inside(program, &plan.program)?;
    Ok(plan)
}

/// Refuses a program that renders and has a hazard between two commands
/// of one rendering instance, or two subpasses of one render pass
/// instance ([`crate::ir::render::refuse_hazard_inside`]), as `check`
/// finds them in the program without the barriers recorded inside render
/// pass instances, which the planners drop and do not place again.
pub(crate) fn refuse_hazards_inside(
    program: &Program,
    reading: crate::semantics::Reading,
    check: impl FnOnce(&Program, Semantics) -> Result<Vec<crate::Hazard>, ProgramError>,
) -> Result<(), ProgramError> {
    if !program.commands.iter().any(|c| matches!(c, Command::Render(_))) {
        return Ok(());
    }
    let hazards = check(
        &crate::ir::renderpass::without_subpass_barriers(program),
        Semantics::for_reading(reading),
    )?;
    crate::ir::render::refuse_hazard_inside(program, &hazards)
}

/// The most rounds of [`with_needed_dependencies`]: each adds masks that
/// the previous round's dependencies needed (a new explicit dependency
/// from `EXTERNAL` replaces an implicit one whose scopes the transitions
/// then need again); a program still short after these is refused as
/// before.
const DEPENDENCY_ROUNDS: usize = 8;

/// `program` with the subpass dependencies its render pass instances need
/// added to its declarations ([`crate::ir::renderpass::dependency_for`],
/// [`crate::ir::renderpass::add_dependency`]): the hazards of the
/// barrier-free program ([`planning_input`]) between two subpasses of one
/// instance, or against an automatic layout transition from or to a
/// command in the dependency's scope, which no barrier can order (and,
/// once those ask for nothing more, against a transition from or to
/// another instance's command where no barrier chains into the
/// transition's dependency from or to `EXTERNAL`). A
/// render pass used by several instances gets the union (one
/// declaration). What no masks fix, or masks that would make a
/// declaration invalid, is left as it is: the refusals in [`plan`] name
/// it. The `none` planner changes nothing.
fn with_needed_dependencies(
    program: &Program,
    opts: PlanOptions,
) -> Result<std::borrow::Cow<'_, Program>, ProgramError> {
    use std::borrow::Cow;
    let mut current = Cow::Borrowed(program);
    if opts.planner == PlannerKind::None || program.render_passes().is_empty() {
        return Ok(current);
    }
    let sem = Semantics::for_reading(opts.reading);
    for _ in 0..DEPENDENCY_ROUNDS {
        let stripped = planning_input(&current);
        // (The definitional semantics where no fast checker takes the
        // program: rendering on several queues.)
        let hazards = crate::hazard::check_program(&stripped, sem)?.hazards;
        let mut passes = current.render_passes().to_vec();
        let mut changed = false;
        // Hazards against a transition from another instance's command
        // only once the others ask for nothing more: a dependency those
        // add may give the stages that a barrier chains into, and where
        // one chains the barrier orders them (`dependency_for`).
        for across in [false, true] {
            // A destination half alone (a later access after a transition
            // into its subpass) last: any dependency into the subpass the
            // others amend may hold it already (`add_dependency`).
            let mut needs: Vec<_> = hazards
                .iter()
                .filter_map(|h| crate::ir::renderpass::dependency_for(&stripped, h, across))
                .collect();
            needs.sort_by_key(|(_, need)| need.src_stage_mask.is_empty() && need.src_access_mask.is_empty());
            for (rp, need) in needs {
                changed |= crate::ir::renderpass::add_dependency(&mut passes[rp.0 as usize], need);
            }
            if changed {
                break;
            }
        }
        if !changed || passes.iter().any(|p| p.validate().is_err()) {
            break;
        }
        match crate::ir::renderpass::with_render_passes(&current, passes) {
            Ok(p) => current = Cow::Owned(p),
            Err(_) => break,
        }
    }
    Ok(current)
}

/// At most this many commands checked, summed over the tries, when
/// [`thin_added_dependency_bits`] thins a plan (each try checks the whole
/// program): larger plans keep the bits the rounds added.
const THIN_DEPENDENCY_BUDGET: usize = 4_000_000;

/// Drops every mask bit that [`with_needed_dependencies`] added to the
/// render pass declarations of `original` (a bit of a declared dependency
/// it did not have, or of a dependency the rounds added) that the planned
/// `program` does not need under `sem`: each removed alone, the program
/// still valid and clean, until none can go. The rounds add a hazard's
/// masks to a dependency of its pair, and a later round's masks can hold
/// an earlier one's, or a new dependency the bits of the implicit one it
/// replaces (review33: `EXTERNAL->0 ... -> FRAGMENT_SHADER|
/// COLOR_ATTACHMENT_OUTPUT:INPUT_ATTACHMENT_READ|COLOR_ATTACHMENT_READ|
/// COLOR_ATTACHMENT_WRITE` for a load an input attachment reads, where
/// `COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ` alone is clean). The
/// user's own bits stay: the declaration is theirs. Access bits are tried
/// before stage bits (an access needs a stage that supports it), each
/// field from its lowest bit. A plan the fast checker refuses, or larger
/// than [`THIN_DEPENDENCY_BUDGET`] allows, is left as planned (safe,
/// possibly not minimal).
fn thin_added_dependency_bits(original: &Program, program: &mut Program, sem: Semantics) {
    use crate::ir::renderpass::{with_render_passes, SubpassDependency};
    use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
    use crate::vk::scope::{self, Side};
    let clean = |p: &Program| crate::hazard::check_with(p, sem).is_ok_and(|h| h.is_empty());
    if !clean(program) {
        return;
    }
    // The bits each dependency of each declaration may lose: what the
    // original declaration did not have (`add_dependency` ORs into a
    // dependency or appends one).
    let added = |r: usize, j: usize, field: usize| -> u64 {
        let now = field_bits(&program.render_passes()[r].dependencies[j], field);
        match original
            .render_passes()
            .get(r)
            .and_then(|rp| rp.dependencies.get(j))
        {
            Some(d) => now & !field_bits(d, field),
            None => now,
        }
    };
    let mut tries: Vec<(usize, usize, usize, u64)> = Vec::new();
    for (r, rp) in program.render_passes().iter().enumerate() {
        for j in 0..rp.dependencies.len() {
            // Accesses first, then stages.
            for field in [1, 3, 0, 2] {
                let bits = added(r, j, field);
                tries.extend(
                    (0..64)
                        .map(|n| 1u64 << n)
                        .filter(|b| bits & b != 0)
                        .map(|b| (r, j, field, b)),
                );
            }
        }
    }
    if tries.is_empty() || tries.len().saturating_mul(program.commands.len()) > THIN_DEPENDENCY_BUDGET {
        return;
    }
    loop {
        let mut removed = false;
        for &(r, j, field, bit) in &tries {
            let d = program.render_passes()[r].dependencies[j];
            let bits = field_bits(&d, field);
            if bits & bit == 0 {
                continue;
            }
            let thinner = with_field_bits(d, field, bits & !bit);
            if scope::validate(thinner.src_stage_mask, thinner.src_access_mask, Side::Src).is_err()
                || scope::validate(thinner.dst_stage_mask, thinner.dst_access_mask, Side::Dst).is_err()
            {
                continue;
            }
            let mut passes = program.render_passes().to_vec();
            passes[r].dependencies[j] = thinner;
            if passes[r].validate().is_err() {
                continue;
            }
            if let Ok(p) = with_render_passes(program, passes) {
                if clean(&p) {
                    *program = p;
                    removed = true;
                }
            }
        }
        if !removed {
            break;
        }
    }

    fn field_bits(d: &SubpassDependency, field: usize) -> u64 {
        match field {
            0 => d.src_stage_mask.bits(),
            1 => d.src_access_mask.bits(),
            2 => d.dst_stage_mask.bits(),
            _ => d.dst_access_mask.bits(),
        }
    }
    fn with_field_bits(mut d: SubpassDependency, field: usize, bits: u64) -> SubpassDependency {
        match field {
            0 => d.src_stage_mask = PipelineStageFlags2::from_bits_retain(bits),
            1 => d.src_access_mask = AccessFlags2::from_bits_retain(bits),
            2 => d.dst_stage_mask = PipelineStageFlags2::from_bits_retain(bits),
            _ => d.dst_access_mask = AccessFlags2::from_bits_retain(bits),
        }
        d
    }
}

/// A planned barrier over bytes of an `image`-declared object that is not
/// one of the program's image barriers becomes a global barrier: Vulkan
/// has no buffer memory barrier over an image (the trace format refuses
/// one), and a global barrier orders at least what it ordered. (The
/// buffer-barrier form and the per-object baseline plan regions of
/// objects, images included.)
/// So does one over bytes of another object that meet an optimal image's
/// bound range without holding all of it (review46: `--buffer-barriers`
/// over an image aliasing a buffer named the buffer's bytes under one
/// texel): every subresource of such an image overlaps its whole bound
/// range ("Memory Aliasing"), so only a barrier over all of it orders the
/// image's accesses (`docs/semantics.md`, the aliasing row).
/// Whether it widened one.
pub(crate) fn image_regions_global(program: &mut Program) -> bool {
    // Optimal images sharing their memory with another object, with
    // their bound ranges: asked only of a plan with buffer barriers and
    // optimal images (resolving is a walk of the whole program).
    let buffer_regions = program.commands.iter().any(|c| {
        matches!(c, Command::Barrier(d) if d.barriers.iter().any(|b| {
            b.image.is_none() && b.region.is_some_and(|r| program.image(r.object).is_none())
        }))
    });
    let optimal: Vec<crate::ObjectId> = program
        .images()
        .iter()
        .filter(|d| d.tiling == crate::ir::image::Tiling::Optimal)
        .map(|d| d.object)
        .collect();
    let layout = if buffer_regions && !optimal.is_empty() {
        resolve(program).ok()
    } else {
        None
    };
    let shared: Vec<(crate::ir::layout::MemId, ByteRange)> = layout.as_ref().map_or(Vec::new(), |layout| {
        optimal
            .iter()
            .filter_map(|&o| {
                let m = layout.locate(program.whole(o))?;
                (layout.owner_object(m.mem) != Some(o)).then_some((m.mem, m.range))
            })
            .collect()
    });
    let cuts_an_image = |r: Region| {
        if shared.is_empty() {
            return false;
        }
        let Some(m) = layout.as_ref().and_then(|l| l.locate(r)) else {
            return false;
        };
        shared.iter().any(|&(mem, bound)| {
            mem == m.mem
                && bound.overlaps(m.range)
                && !(m.range.start <= bound.start && bound.end <= m.range.end)
        })
    };
    // (An image's ownership transfer is refused before planning.)
    let is_image = |b: &crate::Barrier| {
        b.image.is_none()
            && b.ownership.is_none()
            && b.region
                .is_some_and(|r| program.image(r.object).is_some() || cuts_an_image(r))
    };
    if !program
        .commands
        .iter()
        .any(|c| matches!(c, Command::Barrier(d) if d.barriers.iter().any(is_image)))
    {
        return false;
    }
    let commands = program
        .commands
        .iter()
        .map(|c| match c {
            Command::Barrier(d) if d.barriers.iter().any(is_image) => {
                let mut d = d.clone();
                for b in &mut d.barriers {
                    if is_image(b) {
                        b.region = None;
                    }
                }
                Command::Barrier(d)
            }
            c => c.clone(),
        })
        .collect();
    *program = program.with_commands(commands);
    true
}

/// Plans up to this many commands are thinned after a widening
/// ([`thin_after_widening`]): each try checks the whole program.
const THIN_MAX_COMMANDS: usize = 256;

/// Drops, after [`image_regions_global`] widened a barrier to a global
/// one, every part and then every mask bit of the plan's memory and
/// buffer barriers that the program no longer needs under `sem`, in
/// program order, until none can go. The widened barrier orders more than
/// the image's bytes, so parts and bits planned at later points for other
/// bytes can become redundant (review20: `--buffer-barriers` plans with
/// images kept them, against the planners' minimality). Image barriers
/// (layouts) and ownership transfers stay as they are. Larger plans than
/// [`THIN_MAX_COMMANDS`] are left as planned (safe, possibly not minimal).
fn thin_after_widening(program: &mut Program, sem: Semantics) {
    use crate::vk::scope::{self, Side};
    if program.commands.len() > THIN_MAX_COMMANDS {
        return;
    }
    let Ok(layout) = resolve(program) else {
        return;
    };
    let clean = |p: &Program| crate::hazard::is_clean(p, &layout, sem);
    if !clean(program) {
        return;
    }
    let thinnable = |b: &crate::Barrier| b.image.is_none() && b.ownership.is_none();
    let barriers = |p: &Program, i: usize| match &p.commands[i] {
        Command::Barrier(d) => d.barriers.clone(),
        _ => Vec::new(),
    };
    let set = |p: &mut Program, i: usize, bs: Vec<crate::Barrier>| {
        if let Command::Barrier(d) = &mut p.commands[i] {
            d.barriers = bs;
        }
    };
    loop {
        let before = program.barrier_bits();
        for i in 0..program.commands.len() {
            if !matches!(program.commands[i], Command::Barrier(_)) {
                continue;
            }
            // Whole parts first (a command keeps at least one part).
            let mut k = 0;
            while k < barriers(program, i).len() {
                let old = barriers(program, i);
                if old.len() > 1 && thinnable(&old[k]) {
                    let mut new = old.clone();
                    new.remove(k);
                    set(program, i, new);
                    if clean(program) {
                        continue;
                    }
                    set(program, i, old);
                }
                k += 1;
            }
            // Then bits.
            for k in 0..barriers(program, i).len() {
                for field in 0..4 {
                    let b0 = barriers(program, i)[k];
                    if !thinnable(&b0) {
                        continue;
                    }
                    let bits = points::mask_bits(&b0, field);
                    for bit in (0..64).map(|n| 1u64 << n).filter(|b| bits & b != 0) {
                        let old = barriers(program, i);
                        let mut b = old[k];
                        let m = points::mask_bits(&b, field);
                        points::set_mask_bits(&mut b, field, m & !bit);
                        if scope::validate(b.src_stage_mask, b.src_access_mask, Side::Src).is_err()
                            || scope::validate(b.dst_stage_mask, b.dst_access_mask, Side::Dst).is_err()
                        {
                            continue;
                        }
                        let mut new = old.clone();
                        new[k] = b;
                        set(program, i, new);
                        if !clean(program) {
                            set(program, i, old);
                        }
                    }
                }
            }
        }
        if program.barrier_bits() == before {
            break;
        }
    }
}

/// What [`plan`] and [`stabbing_bound`] refuse: several queues and
/// semaphores (planned by `plan_queues`: the planners here run the fast
/// checker, which models one queue), and an optimal image aliased in part
/// ([`crate::hazard::refuse_aliased_images`]).
pub(crate) fn refuse_unplanned(program: &Program) -> Result<(), ProgramError> {
    if let Some((i, what)) = program.first_multi_queue_command() {
        return Err(ProgramError {
            at: Location::Command(i),
            kind: ProgramErrorKind::MultiQueueNotSupported { what },
        });
    }
    crate::hazard::refuse_aliased_images(program)
}

/// [`plan`] of a program stripped already ([`planning_input`], or a part of
/// the multi-queue planner, whose transitions may carry the scopes other
/// queues need of them: those are kept, `floor` of
/// [`transitions::fewest_transition_bits`]); `horizon` as for
/// [`plan_queue_part`].
fn plan_stripped(
    stripped: &Program,
    opts: PlanOptions,
    horizon: Option<&[Option<usize>]>,
) -> Result<Plan, ProgramError> {
    let sem = Semantics::for_reading(opts.reading);
    let layout = resolve(stripped)?;
    let mut input = transitions::with_transition_scopes(stripped.clone(), &layout, sem);
    loop {
        let mut plan = match horizon {
            Some(h) => plan_part_offline(&input, opts, sem, h),
            None => plan_prepared(&input, &layout, opts, sem),
        };
        // The baselines keep the transitions' scopes as prepared: they are
        // not minimal anyway, and none of them need be race-free.
        if !matches!(opts.planner, PlannerKind::Online | PlannerKind::Offline) {
            return Ok(plan);
        }
        transitions::fewest_transition_bits(&mut plan, sem, stripped);
        // Whether one transition stands for an earlier one of the same
        // bytes depends on the scopes both end up with, and on the submits
        // and waits the plan inserted: a hazard of a transition the
        // prepared scopes missed widens them, and the program is planned
        // again (scopes only grow, so this ends; almost always at once).
        if !transitions::widen_from_plan(&mut input, &plan, sem) {
            return Ok(plan);
        }
    }
}

/// [`plan`] of a prepared input (transitions with their scopes).
fn plan_prepared(
    input: &Program,
    layout: &crate::ir::layout::Layout,
    opts: PlanOptions,
    sem: Semantics,
) -> Plan {
    let mut out = Emitter::new(input);
    match opts.planner {
        PlannerKind::None => {
            for (i, c) in input.commands.iter().enumerate() {
                out.command(i, c);
            }
        }
        PlannerKind::Conservative => baselines::conservative(input, &mut out),
        PlannerKind::PerObject => baselines::per_object(input, &mut out),
        PlannerKind::Online => online::online(input, layout, opts.form, sem, &mut out),
        PlannerKind::Offline => {
            // Each wait placement; the plan with fewer points, then fewer
            // fence waits, then fewer bits (the eager one on a tie).
            let key = |p: &Plan| {
                let waits = p
                    .program
                    .commands
                    .iter()
                    .filter(|c| matches!(c, Command::Wait(_)))
                    .count();
                (p.program.barrier_points(), waits, p.program.barrier_bits())
            };
            let mut plan = offline::wait_placements(input, layout, sem)
                .map(|placement| {
                    let mut o = Emitter::new(input);
                    offline::offline(&placement, opts.form, sem, &mut o, None);
                    o.finish()
                })
                .min_by_key(key)
                .expect("at least one wait placement");
            if opts.form == BarrierForm::Global {
                offline::improve_bits(&mut plan, sem);
            }
            return plan;
        }
    }
    out.finish()
}

/// The barriers of one queue of a multi-queue plan ([`plan_queues`]):
/// `program` is the queue's part, barrier-free but for its layout
/// transitions (whose scopes hold what other queues need of them, kept),
/// whose fence waits the multi-queue planner has placed (a `wait` where
/// the host has waited for every batch of the queue submitted so far);
/// `horizon`, per command, for a host access the last submit of `program`
/// ordered before it (through a fence wait of this queue or, through
/// semaphores, of another), before which its barriers to `HOST` must go.
/// With the offline planner, only the given waits (the lazy placement:
/// the eager one inserts submits) and the horizons; the other planners
/// plan `program` as [`plan`] does, and may insert submits and waits
/// before host accesses, which the multi-queue planner refuses.
pub(crate) fn plan_queue_part(
    program: &Program,
    opts: PlanOptions,
    horizon: &[Option<usize>],
) -> Result<Plan, ProgramError> {
    program.require_single_queue()?;
    let horizon = (opts.planner == PlannerKind::Offline).then_some(horizon);
    plan_stripped(program, opts, horizon)
}

/// The offline plan of a queue's part with its transitions' scopes
/// prepared: its own waits and the horizons ([`plan_queue_part`]).
fn plan_part_offline(input: &Program, opts: PlanOptions, sem: Semantics, horizon: &[Option<usize>]) -> Plan {
    // Barrier-free already: the horizons index its commands as they are.
    let origin = (0..input.commands.len()).map(Some).collect();
    let mut out = Emitter::new(input);
    offline::offline(
        &(std::borrow::Cow::Borrowed(input), origin),
        opts.form,
        sem,
        &mut out,
        Some(horizon),
    );
    let mut plan = out.finish();
    if opts.form == BarrierForm::Global {
        offline::improve_bits(&mut plan, sem);
    }
    plan
}
