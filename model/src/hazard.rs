//! Whole-program checking: hazards in terms of the program's objects, each
//! with the minimal barrier (and fence wait, for host accesses) that would
//! remove it.
//!
//! This module owns [`check`] and [`check_program`] (the one entry that
//! answers for every program: the fast checkers, or the definitional
//! semantics for the corners they refuse, its races lifted into the same
//! [`Hazard`]s), the [`Hazard`] type users see and the derivation of a
//! hazard's fix (a barrier, a fence wait, and between queues the
//! semaphore that carries the barrier's stages, [`SemaphoreFix`]). The per-address rules are in
//! [`crate::sync::checker`]; this module only walks the program, translates
//! memory ranges back to the object the current command named, and builds
//! the fix. A barrier's image layout transitions are accesses of the
//! barrier's command, decided and recorded around the barriers of the call
//! in the order their construction needs (`apply_dependency`); a hazard
//! at or after one is fixed in the transition's own barrier ([`Fix`]).

use crate::group::{group_hazards, HazardGroup, HazardGrouping, RaceGroup, RaceGrouping};
use crate::ir::access::{accesses, transitions, Access};
use crate::ir::layout::{resolve, Layout, MemRange, ProgramError};
use crate::ir::program::{Barrier, ByteRange, Command, Dependency, Program, Region};
use crate::ir::queue::QueueId;
use crate::semantics::Semantics;
use crate::sync::checker::{Checker, HazardKind, RawHazard, ResolvedBarrier};
use crate::sync::value::PreScopes;
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::scope::StageAccess;
use std::fmt;

/// What removes a hazard: a barrier between the two commands, and for a
/// host access after device work, a fence wait before the host access.
///
/// A hazard at or after an image layout transition is removed by the
/// transition's own barrier instead, which alone orders the transition
/// (its second scope can be continued by a later barrier, but when it is
/// empty nothing else can): then `barrier` has
/// [`Barrier::transition`] set and is not a barrier to record but what the
/// transition's barrier must add. For a hazard at the transition, its
/// source side: the prior access's stage (and access, for a write) in the
/// transition's first scopes. For a hazard after it, its destination side:
/// the current access's stage and access in the transition's second
/// scopes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    /// The minimal barrier: for a read-after-write or write-after-write the
    /// prior write's (stage, access) made visible to the current (stage,
    /// access); for a write-after-read an execution dependency only.
    /// `None` when a fence wait alone suffices. With
    /// [`Barrier::transition`] set, the scope the layout transition's own
    /// barrier needs (see above).
    pub barrier: Option<Barrier>,
    /// A `submit` and `wait` are needed before the (host) access.
    pub wait: bool,
    /// The two commands run on different queues, which no pipeline
    /// barrier orders: the dependency is a semaphore instead, signalled
    /// after the prior command on its queue with `barrier`'s source
    /// stages as its stage mask and waited for before the current command
    /// on its queue with `barrier`'s destination stages ("The first access
    /// scope includes all memory access performed by the device", and the
    /// wait's second access scope likewise, so `barrier`'s access masks
    /// need no counterpart). `None` when both run on one queue, or one is
    /// the host's.
    pub semaphore: Option<SemaphoreFix>,
}

/// The semaphore of a [`Fix`] between two queues: signalled on
/// `signal_queue`, waited for on `wait_queue`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SemaphoreFix {
    /// The queue of the prior command, which signals.
    pub signal_queue: QueueId,
    /// The queue of the current command, which waits.
    pub wait_queue: QueueId,
}

/// Where a program's submits are, so that a report asks "is there a
/// submit between these two commands" of each of its lines in O(log n)
/// ([`Hazard::fix_text_in`]) and not by looking at the commands between.
#[derive(Clone, Debug, Default)]
pub struct Submits {
    at: Vec<usize>,
}

impl Submits {
    /// The submits of `program`.
    pub fn of(program: &Program) -> Submits {
        Submits {
            at: (program.commands.iter().enumerate())
                .filter(|(_, c)| matches!(c, Command::Submit(_)))
                .map(|(i, _)| i)
                .collect(),
        }
    }

    /// Whether a submit lies strictly between commands `a` and `b`.
    pub fn between(&self, a: usize, b: usize) -> bool {
        let next = self.at.partition_point(|&i| i <= a);
        self.at.get(next).is_some_and(|&i| i < b)
    }
}

/// A hazard found in a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hazard {
    /// Read-after-write, write-after-read or write-after-write.
    pub kind: HazardKind,
    /// Index of the command at which the hazard is detected.
    pub command: usize,
    /// Index of the prior conflicting command.
    pub prior_command: usize,
    /// The conflicting bytes, in terms of the object the current command
    /// named.
    pub region: Region,
    /// The same bytes as a memory range.
    pub memory: MemRange,
    /// The current command's stage and access.
    pub current: StageAccess,
    /// The prior command's stage and access.
    pub prior: StageAccess,
    /// What removes the hazard.
    pub fix: Fix,
    /// The prior access was submitted but not waited for when this command
    /// was recorded. [`check`] reports such a hazard only if this command's
    /// batch is submitted without a fence wait in between; the incremental
    /// callers (the online planner, the tracker) see it at once (a
    /// streaming caller cannot know yet).
    pub provisional: bool,
    /// The hazard stands for every piece of a run its access touches
    /// (`crate::sync::checker::PieceHazards::Summary`): only between the
    /// checker and the report groups, never in a hazard a caller gets.
    pub(crate) pieces: Option<crate::sync::state::RunSummary>,
}

impl Hazard {
    /// Renders the hazard in one line, without source locations (`?` for
    /// what `program`, if it is not the checked one, does not have). A
    /// layout transition is named `vkCmdPipelineBarrier2 layout transition`.
    pub fn describe(&self, program: &Program) -> String {
        let call = |i: usize, sa: StageAccess| {
            let name = program.commands.get(i).map_or("?", Command::vulkan_name);
            if sa.is_layout_transition() {
                format!("{name} layout transition")
            } else {
                name.to_string()
            }
        };
        let verb = if self.current.is_write() {
            "writes"
        } else {
            "reads"
        };
        let pverb = if self.prior.is_write() { "written" } else { "read" };
        format!(
            "{} {} {} ({}), previously {} by {} ({}); fix: {}",
            call(self.command, self.current),
            verb,
            program.show_region(self.region),
            self.current,
            pverb,
            call(self.prior_command, self.prior),
            self.prior,
            self.fix_text(program),
        )
    }

    /// The fix as trace-format text: [`Fix::describe`], except for a
    /// render pass's automatic layout transition, which no barrier reaches
    /// (a barrier before the pass does not chain into the transition's
    /// first scope when its dependency's is `NONE`, one after it not out of
    /// its second when that is `NONE`): the subpass dependency it happens
    /// after or before, with the masks to add ("Automatic layout
    /// transitions away from the layout used in a subpass happen-after the
    /// availability operations for all dependencies with that subpass as
    /// the srcSubpass", "... into the layout used in a subpass
    /// happen-before the visibility operations for all dependencies with
    /// that subpass as the dstSubpass", and the same with
    /// `VK_SUBPASS_EXTERNAL` for `initialLayout` and `finalLayout`).
    ///
    /// Two more cases only the multi-queue walk and the definitional
    /// semantics find: a device access after a host access on another
    /// queue's side of a host signal (no barrier orders the host: the
    /// batch is submitted after the host access, or waits for a host
    /// signal made after it), and a host access after device work when the
    /// program has several queues (the `submit` and `wait` name the queue
    /// of the device work).
    pub fn fix_text(&self, program: &Program) -> String {
        self.fix_text_at(program, &[])
    }

    /// [`Hazard::fix_text`] placed by source line (`lines[i]` the line of
    /// command `i`, as [`crate::trace::Trace::command_lines`]; a command
    /// without one is not placed): a semaphore is signalled "after line N"
    /// (the prior command's), and a barrier between two commands of one
    /// queue with a submit between them goes "anywhere between line N and
    /// line M" (submission order runs across command buffers, so a barrier
    /// at the end of the first batch or the start of the second orders
    /// them alike). What a report prints for every checker.
    pub fn fix_text_at(&self, program: &Program, lines: &[usize]) -> String {
        self.fix_text_placed(program, lines, None)
    }

    /// This hazard with its fix naming the earlier layout transition's own
    /// region, where the fix is a side of that transition's pipeline
    /// barrier and names another (the later access's: an alias of the
    /// image's memory, review40's "the layout transition of `mem[0..4]`"
    /// for `a`'s): the transition of the prior command's barriers over the
    /// later access's object, else its only one. `None` when the fix
    /// names it already or it cannot be told without the layout.
    fn prior_transition_named(&self, program: &Program) -> Option<Hazard> {
        let fix = self.fix.barrier.filter(|b| b.transition)?;
        if !self.prior.is_layout_transition() || self.current.is_layout_transition() {
            return None;
        }
        let Some(Command::Barrier(d)) = program.commands.get(self.prior_command) else {
            return None;
        };
        let regions: Vec<Region> = d
            .barriers
            .iter()
            .filter(|b| b.transition)
            .filter_map(|b| b.region)
            .collect();
        // The one over the later access's object, else the one bound over
        // its bytes (an alias's), else the only one.
        let bytes = program.bound_range(self.region);
        let own = regions
            .iter()
            .find(|r| r.object == self.region.object)
            .or_else(|| {
                regions.iter().find(|r| {
                    matches!((program.bound_range(**r), bytes), (Some((m, x)), Some((n, y))) if m == n && x.overlaps(y))
                })
            })
            .or_else(|| (regions.len() == 1).then(|| &regions[0]))?;
        if fix.region == Some(*own) || own.object == self.region.object {
            return None;
        }
        let mut named = *self;
        named.fix.barrier = Some(Barrier {
            region: Some(*own),
            ..fix
        });
        Some(named)
    }

    /// [`Hazard::fix_text_at`], asking `submits` (of `program`) whether a
    /// submit lies between the two commands instead of looking at every
    /// command between them: what a report of many lines calls, so that
    /// it stays linear in the program.
    pub fn fix_text_in(&self, program: &Program, lines: &[usize], submits: &Submits) -> String {
        self.fix_text_placed(program, lines, Some(submits))
    }

    fn fix_text_placed(&self, program: &Program, lines: &[usize], submits: Option<&Submits>) -> String {
        if let Some(named) = self.prior_transition_named(program) {
            return named.fix_text_placed(program, lines, submits);
        }
        if let Some(text) = crate::ir::renderpass::per_view_unorderable_fix(
            program,
            (self.prior_command, self.prior),
            (self.command, self.current),
        ) {
            return text;
        }
        let host = |sa: StageAccess| sa.stage() == crate::vk::scope::Stage::Host;
        if host(self.prior) && !host(self.current) {
            // A queue submission makes host writes available to the
            // device ("Host Write Ordering Guarantees"); a host signal
            // orders execution only (enough after a host read), so after
            // one a barrier from HOST:HOST_WRITE does it, which a wait in
            // ALL_COMMANDS reaches (HOST is no device stage).
            if self.prior.is_write() {
                // A layout transition or an ownership operation is in no
                // stage: `ALL_COMMANDS` holds it, and it sees available
                // memory (review41: `-> NONE:NONE` ordered nothing).
                let (stage, access) =
                    if self.current.is_layout_transition() || self.current.is_ownership_transfer() {
                        (PipelineStageFlags2::ALL_COMMANDS, AccessFlags2::NONE)
                    } else {
                        (self.current.stage().flag(), self.current.access())
                    };
                return format!(
                    "submit the later command's batch after the host write, or have it wait \
                     (`wait SEM@ALL_COMMANDS`) for a host-signal made after it and record `barrier HOST:HOST_WRITE \
                     -> {stage}:{access}` before the command"
                );
            }
            return format!(
                "submit the later command's batch after the host access, or have it wait (`wait SEM@{}`) for a \
                 host-signal made after it",
                self.current.stage().flag()
            );
        }
        // Two subpasses of one render pass instance: no barrier can be
        // recorded between them; a dependency with the barrier's masks.
        if let (Some(b), Some((s, k))) = (
            self.fix.barrier.filter(|b| !b.transition),
            crate::ir::renderpass::subpasses_between(program, self.prior_command, self.command),
        ) {
            let dependency = format!(
                "`dependency {s}->{k} {}:{} -> {}:{}`",
                b.src_stage_mask, b.src_access_mask, b.dst_stage_mask, b.dst_access_mask
            );
            return match crate::ir::renderpass::local_dependencies_only(
                program,
                self.command,
                (s, k),
                self.region,
                [self.current.access(), self.prior.access()],
            ) {
                // Masks added to a by-region or view-local dependency
                // would not reach these bytes or accesses.
                Some((flags, what)) => format!(
                    "add {dependency} to the render pass (not these masks to its {flags} dependency {s}->{k}, \
                     which orders {what} only)"
                ),
                None => format!("add {dependency} (or these masks to one) to the render pass"),
            };
        }
        // One subpass: a barrier inside it, if a self-dependency allows
        // one that orders them (no region there).
        if let Some(text) = self.fix.barrier.and_then(|b| {
            crate::ir::renderpass::same_subpass_fix(program, self.prior_command, self.command, &b)
        }) {
            return text;
        }
        if let Some(text) = self.event_transition_fix(program, lines) {
            return text;
        }
        // Both in one dynamic rendering instance: no barrier may be
        // recorded inside it (review37: the text named a barrier that,
        // inserted, made the trace invalid, and before the instance
        // ordered nothing).
        let line = |i: usize| lines.get(i).map(|l| format!("line {l}"));
        // Only a rendering command is in an instance (a copy or a dispatch
        // may not be): others do not walk back (linear reports).
        let begin = matches!(program.commands.get(self.command), Some(Command::Render(_)))
            .then(|| crate::ir::render::instance_begin(&program.commands, self.command))
            .flatten();
        if let (Some(b), Some(barrier)) = (begin, self.fix.barrier.filter(|b| !b.transition)) {
            let dynamic = matches!(&program.commands[b], Command::Render(rc) if matches!(rc.op, crate::ir::render::RenderOp::Begin(_)));
            if dynamic && crate::ir::render::instance_begin(&program.commands, self.prior_command) == Some(b)
            {
                return format!(
                    "no barrier can order them: both are in the rendering instance begun at {}, inside which a \
                     pipeline barrier is invalid (VUID-vkCmdPipelineBarrier2-None-06191; \
                     VK_KHR_dynamic_rendering_local_read is not modelled): end the instance between them, record \
                     `barrier {}:{} -> {}:{}` there and begin another that loads the attachments (LOAD)",
                    line(b).unwrap_or_else(|| format!("command {b}")),
                    barrier.src_stage_mask,
                    barrier.src_access_mask,
                    barrier.dst_stage_mask,
                    barrier.dst_access_mask
                );
            }
        }
        // Host work after device work of one of several queues: the
        // submit and the wait are that queue's.
        let wait_queue = (program.queues.len() > 1 && host(self.current) && !host(self.prior))
            .then(|| queue_at(program, self.prior_command));
        // A transition on another queue than the other access is held by
        // the semaphore alone (its text, `Fix::describe`), not by a subpass
        // dependency.
        let Some(b) = self
            .fix
            .barrier
            .filter(|b| b.transition && self.fix.semaphore.is_none())
        else {
            let submit_between = || match submits {
                Some(s) => s.between(self.prior_command, self.command),
                None => program
                    .commands
                    .get(self.prior_command + 1..self.command)
                    .is_some_and(|between| between.iter().any(|c| matches!(c, Command::Submit(_)))),
            };
            // A device command followed by a submit is in that submit's
            // batch: where the fix is the wait alone, the host needs only
            // to wait for it (review46: `submit qa; wait qa` after `submit
            // qa`). With a barrier (into `HOST`) the barrier may be recorded
            // after that submit, and then needs a submit of its own.
            let submitted = self.fix.wait
                && self.fix.barrier.is_none()
                && self.fix.semaphore.is_none()
                && !host(self.prior)
                && submit_between();
            let mut text = self.fix.describe_waiting_on(
                program,
                wait_queue,
                submitted,
                line(self.prior_command).as_deref(),
                Some(self.command),
            );
            let device_barrier = self.fix.barrier.is_some_and(|b| !b.transition)
                && !self.fix.wait
                && self.fix.semaphore.is_none()
                && !host(self.current)
                && !host(self.prior);
            // The later command in a rendering instance the earlier one is
            // before: the barrier goes before the instance's begin (none
            // may be recorded inside a dynamic one, nor a buffer barrier
            // inside a render pass; review37: the text did not say where,
            // and before the later line it was invalid).
            let before_begin =
                begin.filter(|&b| device_barrier && self.prior_command < b && b < self.command);
            if let (Some(b), Some(at)) = (before_begin, before_begin.and_then(line)) {
                let keyword = match &program.commands[b] {
                    Command::Render(rc) => rc.op.keyword(),
                    _ => "begin",
                };
                text.push_str(&format!(
                    " before the {keyword} at {at} (no barrier may be recorded inside the instance)"
                ));
            } else if let (true, Some(a), Some(b)) =
                (device_barrier, line(self.prior_command), line(self.command))
            {
                if submit_between() {
                    text.push_str(&format!(
                        " anywhere between {a} and {b} (in either batch: submission order runs across \
                         command buffers)"
                    ));
                }
            }
            return text;
        };
        // A render pass's transition and a command outside the instance
        // that no subpass dependency's scope holds: the barrier outside
        // the instance the planners record (review23: the text asked for
        // a subpass dependency naming a compute stage, which is invalid
        // and orders nothing there).
        if crate::ir::renderpass::dependency_for(program, self, true).is_none() {
            if let Some(c) = crate::ir::renderpass::chained_fix(program, self) {
                let text = barrier_text(program, &c, Some(self.command));
                return match (line(self.prior_command), line(self.command)) {
                    (Some(a), Some(b)) => {
                        format!("{text} outside the render pass instance, between {a} and {b}")
                    }
                    _ => text,
                };
            }
        }
        let at = if self.current.is_layout_transition() {
            self.command
        } else {
            self.prior_command
        };
        let mut deps = b
            .region
            .map(|r| crate::ir::renderpass::transition_dependencies(program, at, r))
            .unwrap_or_default();
        // A transition at a next-subpass or the end after a command from
        // before the instance: the dependency into the instance from
        // `EXTERNAL` orders that command before it (and so before the
        // transition); the one the transition's own pair names holds the
        // instance's commands only (review40: the text asked for
        // `0->EXTERNAL COPY|...`, whose first scope is subpass 0's).
        if self.current.is_layout_transition() {
            let begin = crate::ir::renderpass::open_pass(&program.commands, at).map(|(begin, ..)| begin);
            if let (Some(begin), Some(r)) = (begin.filter(|&i| i != at && self.prior_command < i), b.region) {
                let into = crate::ir::renderpass::transition_dependencies(program, begin, r);
                if !into.is_empty() {
                    deps = into;
                }
            }
        }
        if deps.is_empty() {
            return self.fix.describe(program);
        }
        if self.current.is_layout_transition() {
            let pairs: Vec<_> = deps.iter().map(|(_, d, _)| *d).collect();
            if let Some(text) = crate::ir::renderpass::unorderable_transition_fix(
                program,
                self.prior_command,
                self.command,
                &pairs,
                (b.src_stage_mask, b.src_access_mask),
            ) {
                return text;
            }
        }
        let mut parts = Vec::new();
        // One clause per dependency: the region's bytes may lie in the
        // views of attachments with different first or last uses.
        for (regions, (src, dst), implicit) in &deps {
            let of = regions
                .iter()
                .map(|r| program.show_region(*r))
                .collect::<Vec<_>>()
                .join(" and ");
            if let Some(i) = implicit {
                // None of the pair is declared: declaring one replaces
                // the implicit dependency ("If there is no subpass
                // dependency from VK_SUBPASS_EXTERNAL to the first subpass
                // that uses an attachment, then an implicit subpass
                // dependency exists"), so it must keep that one's masks
                // (review36: following the text literally made new races
                // with the load operations and draws the implicit one had
                // ordered).
                parts.push(format!(
                    "declare a subpass dependency {src}->{dst} {}:{} -> {}:{} in the render pass (none is declared, \
                     so it replaces the implicit one, whose masks it keeps; the layout transition of {of} \
                     happens-after its availability operations and before its visibility operations)",
                    b.src_stage_mask | i.src_stage_mask,
                    b.src_access_mask | i.src_access_mask,
                    b.dst_stage_mask | i.dst_stage_mask,
                    b.dst_access_mask | i.dst_access_mask,
                ));
                continue;
            }
            if !b.src_stage_mask.is_empty() {
                parts.push(format!(
                    "add {}:{} to the source of a subpass dependency {src}->{dst} of the render pass (the layout \
                     transition of {of} happens-after its availability operations)",
                    b.src_stage_mask, b.src_access_mask
                ));
            }
            if !b.dst_stage_mask.is_empty() {
                parts.push(format!(
                    "add {}:{} to the destination of a subpass dependency {src}->{dst} of the render pass (the layout \
                     transition of {of} happens-before its visibility operations)",
                    b.dst_stage_mask, b.dst_access_mask
                ));
            }
        }
        if self.fix.wait {
            parts.push("submit; wait".to_string());
        }
        parts.join("; ")
    }
}

impl Hazard {
    /// The fix of a hazard between an event's layout transition and a
    /// command its own scopes cannot reach (`docs/semantics.md`,
    /// "Events"): after a `vkCmdSetEvent2`'s transition, a command
    /// recorded before the event's wait, which no destination scope of the
    /// event orders; before a `vkCmdWaitEvents`'s transition, a command
    /// recorded after every set it waits for, which its first scope (the
    /// signals and what precedes them) does not hold. An `ALL_COMMANDS`
    /// scope holds the transition ("Layout transitions and
    /// `ALL_COMMANDS`"): a barrier with one on the transition's side.
    /// `None` for any other hazard.
    fn event_transition_fix(&self, program: &Program, lines: &[usize]) -> Option<String> {
        let b = self
            .fix
            .barrier
            .filter(|b| b.transition && self.fix.semaphore.is_none())?;
        let commands = &program.commands;
        let after = |i: usize| lines.get(i).map_or(String::new(), |l| format!(" after line {l}"));
        if self.prior.is_layout_transition() {
            let Command::SetEvent { event, .. } = commands.get(self.prior_command)? else {
                return None;
            };
            let waited = commands.get(self.prior_command + 1..self.command)?.iter().any(
                |c| matches!(c, Command::WaitEvents { waits } if waits.iter().any(|w| w.event == *event)),
            );
            return (!waited).then(|| {
                format!(
                    "record `barrier ALL_COMMANDS:NONE -> {}:{}`{} (its first scope holds the layout transition \
                     of the set-event of `{}`, after which nothing recorded before the event's wait is ordered \
                     otherwise), or move the command after the wait",
                    b.dst_stage_mask,
                    b.dst_access_mask,
                    after(self.prior_command),
                    program.event_name(*event)
                )
            });
        }
        if !self.current.is_layout_transition() {
            return None;
        }
        let Command::WaitEvents1 { events, .. } = commands.get(self.command)? else {
            return None;
        };
        let set_before_prior = |e: &crate::ir::event::EventId| {
            commands[..self.command]
                .iter()
                .rposition(|c| {
                    matches!(c, Command::SetEvent1 { event, .. } | Command::HostSetEvent { event } if event == e)
                })
                .is_some_and(|s| s < self.prior_command)
        };
        events.iter().all(set_before_prior).then(|| {
            format!(
                "record `barrier {}:{} -> ALL_COMMANDS:NONE`{} (its second scope holds the layout transition of \
                 the wait-events1, whose own first scope holds only what precedes the sets it waits for), or move \
                 the command before the sets",
                b.src_stage_mask,
                b.src_access_mask,
                after(self.prior_command)
            )
        })
    }
}

impl Fix {
    /// Renders the fix as trace-format text: `barrier ...` and/or
    /// `submit; wait`, naming `program`'s objects. Between two queues, the
    /// semaphore; when one side is a layout transition, the semaphore alone,
    /// its stage on the transition's side `ALL_COMMANDS` (which holds the
    /// transition; its own barrier needs nothing more):
    ///
    /// ```
    /// use vksync::{check, trace};
    /// let t = trace::parse(
    ///     "queue a\nqueue b\nsemaphore s\nimage im R32_UINT 8x8\n\
    ///      barrier NONE:NONE -> NONE:NONE im COLOR:0:0 UNDEFINED->GENERAL\nsubmit a signal s\n\
    ///      clear-color-image im GENERAL COLOR:0:0\nsubmit b wait s@COPY\n",
    /// )
    /// .expect("a valid trace");
    /// let h = &check(&t.program)?[0];
    /// assert_eq!(
    ///     h.fix.describe(&t.program),
    ///     "signal a semaphore in stage ALL_COMMANDS on queue `a` and wait for it in stage CLEAR on queue `b`"
    /// );
    /// # Ok::<(), vksync::ProgramError>(())
    /// ```
    pub fn describe(&self, program: &Program) -> String {
        self.describe_waiting_on(program, None, false, None, None)
    }

    /// [`Fix::describe`], the `submit; wait` on `queue` (`submit Q; wait
    /// Q`) when it is given, only the `wait` when the earlier command is
    /// `submitted` already, a semaphore signalled `after` what it names
    /// when given, a barrier over an image as an image memory barrier in
    /// the layout command `before` uses when given.
    fn describe_waiting_on(
        &self,
        program: &Program,
        queue: Option<QueueId>,
        submitted: bool,
        after: Option<&str>,
        before: Option<usize>,
    ) -> String {
        let mut parts = Vec::new();
        if let (Some(b), Some(s)) = (self.barrier.filter(|b| b.transition), &self.semaphore) {
            // A transition on another queue than the prior (or current)
            // access: a semaphore whose signal (or wait) is in
            // `ALL_COMMANDS` holds the transition ("all operations
            // performed by all commands supported on the queue"), so the
            // transition's barrier needs nothing more (`docs/semantics.md`,
            // "Layout transitions and `ALL_COMMANDS`").
            parts.push(s.describe_after(program, &b, after));
        } else if let Some(b) = self.barrier.as_ref().filter(|b| b.transition) {
            let of = b.region.map(|r| program.show_region(r)).unwrap_or_default();
            let side = |stages: PipelineStageFlags2, access: AccessFlags2, which: &str| {
                format!("add {stages}:{access} to the {which} scope of the layout transition of {of}")
            };
            if !b.src_stage_mask.is_empty() {
                parts.push(side(b.src_stage_mask, b.src_access_mask, "source"));
            }
            if !b.dst_stage_mask.is_empty() {
                parts.push(side(b.dst_stage_mask, b.dst_access_mask, "destination"));
            }
        } else if let (Some(b), Some(s)) = (&self.barrier, &self.semaphore) {
            parts.push(s.describe_after(program, b, after));
        } else if let Some(b) = &self.barrier {
            let mut text = barrier_text(program, b, before);
            if !self.wait && b.dst_stage_mask.contains(PipelineStageFlags2::HOST) {
                // The prior write was already waited for: the barrier must go
                // before that submit (or be followed by a new submit and wait).
                text.push_str(" before the submit the host waits on");
            }
            parts.push(text);
        }
        if self.wait {
            let q = queue
                .map(|q| format!(" {}", program.queue_name(q)))
                .unwrap_or_default();
            parts.push(if submitted {
                format!("wait{q}")
            } else if q.is_empty() {
                "submit; wait".to_string()
            } else {
                format!("submit{q}; wait{q}")
            });
        }
        parts.join("; ")
    }
}

/// `barrier ...`, the trace line of barrier `b`; over an image, before
/// command `before` when it names the layout it uses, an image memory
/// barrier a user can record as it is (the bytes of a subresource are no
/// barrier operand, [`crate::ir::image::barrier_operand`]).
fn barrier_text(program: &Program, b: &Barrier, before: Option<usize>) -> String {
    let image = b
        .region
        .filter(|_| b.image.is_none() && b.ownership.is_none())
        .zip(before)
        .and_then(|(r, at)| crate::ir::image::barrier_operand(program, r, at));
    match image {
        Some(operand) => format!(
            "barrier {}:{} -> {}:{} {operand}",
            b.src_stage_mask, b.src_access_mask, b.dst_stage_mask, b.dst_access_mask
        ),
        None => format!("barrier {}", b.describe(program)),
    }
}

impl SemaphoreFix {
    /// `signal a semaphore in stage S on queue `a` and wait for it in
    /// stage D on queue `b``, the stages being `barrier`'s (the [`Fix`]'s
    /// barrier; for a layout transition's, the side it names, or
    /// `ALL_COMMANDS`).
    pub fn describe(&self, program: &Program, barrier: &Barrier) -> String {
        self.describe_after(program, barrier, None)
    }

    /// [`SemaphoreFix::describe`], signalled `after` what it names
    /// (`line 8`) when given.
    fn describe_after(&self, program: &Program, barrier: &Barrier, after: Option<&str>) -> String {
        let or_all = |m: PipelineStageFlags2| {
            if m.is_empty() {
                PipelineStageFlags2::ALL_COMMANDS
            } else {
                m
            }
        };
        format!(
            "signal a semaphore in stage {}{} on queue `{}` and wait for it in stage {} on queue `{}`",
            or_all(barrier.src_stage_mask),
            after.map(|a| format!(" after {a}")).unwrap_or_default(),
            program.queue_name(self.signal_queue),
            or_all(barrier.dst_stage_mask),
            program.queue_name(self.wait_queue),
        )
    }
}

impl fmt::Display for Hazard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at command {} (prior command {}) over mem{}[{}]",
            self.kind, self.command, self.prior_command, self.memory.mem.0, self.memory.range
        )
    }
}

/// The minimal fix for a memory-level hazard, on `region`.
pub(crate) fn fix_for(h: &RawHazard, region: Region) -> Fix {
    let host = h.current.stage() == crate::vk::scope::Stage::Host;
    // A queue family release or acquire operation is in no stage: only
    // `ALL_COMMANDS` orders it.
    let stage = |sa: StageAccess| {
        if sa.is_ownership_transfer() {
            PipelineStageFlags2::ALL_COMMANDS
        } else {
            sa.stage().flag()
        }
    };
    let (src_access, dst_access) = match h.kind {
        // An execution dependency.
        HazardKind::WriteAfterRead => (AccessFlags2::NONE, AccessFlags2::NONE),
        // The earlier write made available and visible to the later access
        // (a read; a write under the layer's reading, D2); for a host
        // access, its `HOST_*` access performs the domain operation.
        _ if h.needs_visibility || host => (h.prior.access(), h.current.access()),
        // The earlier write made available, in an execution dependency that
        // reaches the later write's stage (the memory model's reading).
        _ => (h.prior.access(), AccessFlags2::NONE),
    };
    let barrier = if !h.needs_barrier {
        None
    } else if h.current.is_layout_transition() {
        // The transition's barrier must hold the prior access in its first
        // scopes (a write: in its first access scope, which makes it
        // available, and so visible to the transition).
        Some(Barrier {
            src_stage_mask: stage(h.prior),
            src_access_mask: src_access,
            region: Some(region),
            transition: true,
            ..Barrier::default()
        })
    } else if h.prior.is_layout_transition() {
        // The transition's barrier must hold the current access in its
        // second scopes (its visibility operation).
        Some(Barrier {
            dst_stage_mask: stage(h.current),
            dst_access_mask: dst_access,
            region: Some(region),
            transition: true,
            ..Barrier::default()
        })
    } else {
        Some(Barrier {
            src_stage_mask: stage(h.prior),
            src_access_mask: src_access,
            dst_stage_mask: stage(h.current),
            dst_access_mask: dst_access,
            region: Some(region),
            ..Barrier::default()
        })
    };
    Fix {
        barrier,
        wait: h.needs_wait,
        semaphore: None,
    }
}

/// Converts a memory-level hazard to a program-level one, given the
/// current command's access it was found on.
pub(crate) fn lift(h: &RawHazard, access: &Access) -> Hazard {
    // The hazard's bytes lie inside the access's memory range; translate
    // them back to the access's object. Those of an image's footprint
    // (`crate::ir::layout::Footprint`: any of its bound range) say
    // nothing of which of its bytes: the access's own region.
    let inside =
        access.mem == h.mem && access.range.start <= h.range.start && h.range.end <= access.range.end;
    let region = if inside {
        let base = access.range.start - access.region.range.start;
        Region {
            object: access.region.object,
            range: ByteRange::new(h.range.start - base, h.range.end - base),
        }
    } else {
        access.region
    };
    Hazard {
        kind: h.kind,
        command: h.command,
        prior_command: h.prior_command,
        region,
        memory: MemRange {
            mem: h.mem,
            range: h.range,
        },
        current: h.current,
        prior: h.prior,
        fix: fix_for(h, region),
        provisional: h.prior_in_flight,
        pieces: h.pieces,
    }
}

/// The hazard a group of races stands for (a [`RaceGroup`] of the
/// definitional semantics' races or of the multi-queue walk's pairs): the
/// group's nearest pair, over the hull of its bytes in terms of the object
/// the later command named, with one [`Fix`] that removes every pair of
/// the group, derived pair by pair by the fast checker's rules (the
/// earlier accesses' stages and accesses together; a layout transition's
/// own barrier for a pair with one; a semaphore between two queues, in
/// `ALL_COMMANDS` on a transition's side). Its [`Hazard::fix_text_at`] is
/// what a report prints, whichever checker found the pairs.
///
/// A race does not say which half of a device-to-host dependency is
/// missing, a barrier into `HOST` or the host's wait: the program does.
/// The wait is there when a fence (`wait`, or `wait Q` of the earlier
/// access's queue) follows the submit of its batch before the host
/// access, or a `host-wait` for a value (or less) that batch signals, or a
/// later batch of its queue with an `ALL_COMMANDS` signal; the
/// barrier when one on that queue between the two has `HOST` (or
/// `ALL_COMMANDS`) and a host or memory access in its second scopes, the
/// earlier stage (or `ALL_COMMANDS`) in its first, and bytes of the race
/// in its range (review37: a barrier over another part of the buffer, and
/// a timeline host wait, made the fix `submit; wait`, which fixed
/// nothing).
///
/// ```
/// use vksync::{race_group_hazard, resolve, spec, trace, group_races, Reading};
/// let t = trace::parse("buffer b 64\nfill b 1\nsubmit\nwait\nhost-read b\n").expect("a valid trace");
/// let races = spec::races(&t.program, Reading::MemoryModel)?;
/// let groups = group_races(&t.program, &races);
/// let layout = resolve(&t.program)?;
/// let h = race_group_hazard(&t.program, &layout, &groups[0], Reading::MemoryModel);
/// // The wait is there; the barrier is not.
/// assert_eq!(
///     h.fix_text(&t.program),
///     "barrier CLEAR:TRANSFER_WRITE -> HOST:HOST_READ b[0..64] before the submit the host waits on"
/// );
/// # Ok::<(), vksync::ProgramError>(())
/// ```
pub fn race_group_hazard(
    program: &Program,
    layout: &Layout,
    group: &RaceGroup,
    reading: crate::Reading,
) -> Hazard {
    let r = &group.race;
    let (needs_barrier, needs_wait) = host_needs(program, layout, r);
    let raw = |prior: StageAccess| raw_of_race(r, prior, (needs_barrier, needs_wait), reading);
    let sem = Semantics::for_reading(reading);
    let queue = queue_at(program, r.command);
    let mut h = lift_race(&raw(r.prior), program, layout, queue, sem, r);
    for &prior in group.priors.iter().filter(|&&p| p != r.prior) {
        h.fix = crate::group::covering(h.fix, fix_for(&raw(prior), h.region));
    }
    if let Some(b) = h.fix.barrier.as_mut() {
        // `ALL_COMMANDS` holds every other stage: it is named alone.
        if b.src_stage_mask.contains(PipelineStageFlags2::ALL_COMMANDS) {
            b.src_stage_mask = PipelineStageFlags2::ALL_COMMANDS;
        }
    }
    across_queue_of(program, &mut h);
    h
}

/// Race `r` as the checker's hazard with earlier access `prior` (one of
/// its group's), `(needs_barrier, needs_wait)` given, visibility as
/// `reading` asks.
fn raw_of_race(
    r: &crate::spec::Race,
    prior: StageAccess,
    (needs_barrier, needs_wait): (bool, bool),
    reading: crate::Reading,
) -> RawHazard {
    RawHazard {
        kind: r.kind,
        command: r.command,
        prior_command: r.prior_command,
        mem: r.mem,
        range: r.range,
        current: r.current,
        prior,
        needs_barrier,
        needs_wait,
        needs_visibility: r
            .kind
            .needs_visibility(reading == crate::Reading::VisibleToWrites),
        prior_in_flight: false,
        pieces: None,
    }
}

/// The queue command `i` runs on: that of the first submit at or after
/// it (the implicit submit at the end goes to the first queue), as
/// [`Program::command_queues`] says for every command at once.
fn queue_at(program: &Program, i: usize) -> QueueId {
    program
        .commands
        .get(i..)
        .unwrap_or_default()
        .iter()
        .find_map(|c| match c {
            Command::Submit(s) => Some(s.queue),
            _ => None,
        })
        .unwrap_or_default()
}

/// `(needs_barrier, needs_wait)` for race `r` ([`race_group_hazard`]): for
/// a host access after a device access, which of the barrier into `HOST`
/// and the fence wait the program lacks, by the rule the single-queue
/// checker applies (`crate::sync::value::write_conflict`: a barrier already
/// recorded still needs its submit and wait; after a device read the wait
/// alone); otherwise a barrier.
fn host_needs(program: &Program, layout: &Layout, r: &crate::spec::Race) -> (bool, bool) {
    let host = |sa: StageAccess| sa.stage() == crate::vk::scope::Stage::Host;
    if !host(r.current) || host(r.prior) {
        return (true, false);
    }
    if !r.prior.is_write() {
        // A fence wait orders a device read before the host's write
        // (`crate::sync::value::read_satisfied`): no barrier.
        return (false, true);
    }
    let (p, c) = (r.prior_command, r.command);
    let queue = queue_at(program, p);
    let between = program.commands.get(p + 1..c).unwrap_or_default();
    // The submit of the earlier access's batch, then a fence of its queue
    // or a host wait for a value that batch, or a later one of its queue
    // with an `ALL_COMMANDS` signal (whose first scope holds every earlier
    // command of the queue), signals.
    let waited = between
        .iter()
        .position(|x| matches!(x, Command::Submit(s) if s.queue == queue))
        .is_some_and(|s| {
            let mut signalled: Vec<(crate::ir::queue::SemaphoreId, u64)> = Vec::new();
            for (k, x) in between[s..].iter().enumerate() {
                match x {
                    Command::Submit(sub) if sub.queue == queue => signalled.extend(
                        sub.signals
                            .iter()
                            .filter(|g| k == 0 || g.stages.contains(PipelineStageFlags2::ALL_COMMANDS))
                            .filter_map(|g| g.value.map(|u| (g.semaphore, u))),
                    ),
                    Command::Wait(crate::ir::queue::WaitFor::All) if k > 0 => return true,
                    Command::Wait(crate::ir::queue::WaitFor::Queue(q)) if k > 0 && *q == queue => {
                        return true
                    }
                    Command::HostWait { semaphore, value }
                        if signalled.iter().any(|&(sem, u)| sem == *semaphore && u >= *value) =>
                    {
                        return true
                    }
                    _ => {}
                }
            }
            false
        });
    let to_host = PipelineStageFlags2::HOST | PipelineStageFlags2::ALL_COMMANDS;
    let host_access = AccessFlags2::HOST_READ
        | AccessFlags2::HOST_WRITE
        | AccessFlags2::MEMORY_READ
        | AccessFlags2::MEMORY_WRITE;
    let from = r.prior.stage().flag() | PipelineStageFlags2::ALL_COMMANDS;
    let in_range = |b: &Barrier| {
        b.region.is_none_or(|region| {
            let m = layout.at(region);
            m.mem == r.mem && m.range.overlaps(r.range)
        })
    };
    // The barrier must make the write available too: its first access
    // scope holds the write (review39: `barrier CLEAR:NONE ->
    // HOST:HOST_READ` counted, and the fix said `submit; wait` only).
    let available = |b: &Barrier| {
        crate::vk::scope::access_scope(b.src_stage_mask, b.src_access_mask, crate::vk::scope::Side::Src)
            .contains(r.prior)
    };
    let granted = between.iter().enumerate().any(|(k, x)| {
        matches!(x, Command::Barrier(d) if d.barriers.iter().any(|b| {
            b.dst_stage_mask.intersects(to_host)
                && b.dst_access_mask.intersects(host_access)
                && b.src_stage_mask.intersects(from)
                && available(b)
                && in_range(b)
        })) && queue_at(program, p + 1 + k) == queue
    });
    (!granted, !waited || granted)
}

/// Like [`check`], but as a streaming caller sees the program: a hazard
/// against work submitted but not yet waited for is reported when the
/// command is recorded, even if the program waits before submitting that
/// command (which [`check`] takes into account). The online planner works
/// with this knowledge; its plans are minimal with respect to it.
pub fn check_streaming(program: &Program, sem: Semantics) -> Result<Vec<Hazard>, ProgramError> {
    let layout = resolve(program)?;
    if by_walk(program, &layout, sem)? {
        // Batches are decided at their submit (`crate::sync::queues`):
        // nothing is provisional.
        return walk_queues(program, &layout, sem);
    }
    let mut checker = Checker::with_semantics(layout.memory_sizes.len(), sem);
    let mut out = Vec::new();
    for (i, c) in program.commands.iter().enumerate() {
        step(&mut checker, &layout, i, c, &mut out);
    }
    Ok(out)
}

/// The hazards of a program with the spec's semantics, whichever checker
/// decides it: [`check_program`]'s hazards. Every program
/// [`crate::resolve`] accepts gets an answer.
pub fn check(program: &Program) -> Result<Vec<Hazard>, ProgramError> {
    check_program(program, Semantics::default()).map(|c| c.hazards)
}

/// Which checker decided a program ([`Checked::decided_by`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecidedBy {
    /// The single-queue checker (`crate::sync::checker`).
    SingleQueue,
    /// The multi-queue walk (`crate::sync::queues`): several queues,
    /// semaphores, host signals or waits, ownership transfers, or more
    /// event barriers at once than the single-queue checker has slots.
    MultiQueueWalk,
    /// The single-queue checker on the program's one-queue form
    /// (`crate::sync::one_queue`): a program that renders, on one queue
    /// whose semaphores only chain each batch to the one before and whose
    /// timeline host waits wait for the last batch submitted (each
    /// semaphore wait a barrier, each host wait a fence wait), which the
    /// multi-queue walk does not model.
    OneQueueForm,
    /// The definitional semantics ([`crate::spec::races`]), for a corner
    /// the fast checkers do not model. Quadratic to cubic in the program's
    /// size.
    Definition {
        /// The command where the fast checker stopped.
        command: usize,
        /// What it does not model there (a timeline wait that a signal
        /// submitted after it may satisfy besides an earlier one, events
        /// with several queues past its slots, ...).
        why: String,
    },
}

/// The answer of [`check_program`]: the hazards, and who found them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// Every racing pair of accesses, as [`Hazard`]s: both commands, kind,
    /// bytes (in terms of the object the later command named, and of
    /// memory) and the minimal [`Fix`]. From the fast checkers, in their
    /// order, with ranges merged per pair; from the definitional
    /// semantics, one per [`crate::spec::Race`] in its order.
    pub hazards: Vec<Hazard>,
    /// Which checker decided, and why the definitional one.
    pub decided_by: DecidedBy,
}

/// The one check that answers for every program the model accepts: the
/// fast checkers ([`check_with`]), and for the corners they refuse
/// ([`crate::ProgramErrorKind::MultiQueueNotSupported`],
/// [`crate::ProgramErrorKind::EventsNotSupported`],
/// [`crate::ProgramErrorKind::RenderPassNotSupported`],
/// [`crate::ProgramErrorKind::AliasedImageNotSupported`]) the definitional
/// semantics ([`crate::spec::races`]), its races turned into the same
/// [`Hazard`]s (the object the later command named, the fix the fast
/// checker derives; between queues a [`SemaphoreFix`]).
///
/// The definitional semantics knows the readings of write-after-write
/// ([`Semantics::for_reading`]) and nothing of the layer emulation's
/// switches: under those a refused corner stays refused.
///
/// A fix the definitional semantics' races give is derived from the pair
/// alone, as the multi-queue walk derives its own: a barrier (or a
/// semaphore) with the two accesses' scopes, and for a host access after
/// device work a fence wait too, even where the program already has one
/// of the two (the single-queue checker then names only the other).
///
/// ```
/// use vksync::{check_program, trace, DecidedBy, HazardKind, Semantics};
/// // Two signals of one timeline that may satisfy the wait, one submitted
/// // after it, in a stage the wait's does not chain to: the multi-queue
/// // walk refuses it, the definitional semantics decides.
/// let t = trace::parse(
///     "buffer a 64\nbuffer b 64\nqueue qa\nqueue qb\nsemaphore t timeline\n\
///      fill a[0..64] 1\nsubmit qa signal t:4@COPY\n\
///      copy a[0..64] -> b[0..64]\nsubmit qb wait t:3@COPY\nsubmit qa signal t:6@CLEAR\n",
/// )
/// .expect("a valid trace");
/// let checked = check_program(&t.program, Semantics::default())?;
/// assert!(matches!(checked.decided_by, DecidedBy::Definition { .. }));
/// let h = &checked.hazards[0];
/// assert_eq!((h.kind, h.prior_command, h.command), (HazardKind::ReadAfterWrite, 0, 2));
/// assert_eq!(
///     h.fix.describe(&t.program),
///     "signal a semaphore in stage CLEAR on queue `qa` and wait for it in stage COPY on queue `qb`"
/// );
/// # Ok::<(), vksync::ProgramError>(())
/// ```
pub fn check_program(program: &Program, sem: Semantics) -> Result<Checked, ProgramError> {
    match check_deciding(program, sem) {
        Ok((hazards, decided_by)) => Ok(Checked { hazards, decided_by }),
        Err(e) => by_definition(program, sem, e),
    }
}

/// The definitional semantics' answer for a program the fast checkers
/// refused with `refusal`; another error, or a refusal under a layer
/// emulation switch (which the definitional semantics does not model), is
/// returned as it is.
pub(crate) fn by_definition(
    program: &Program,
    sem: Semantics,
    refusal: ProgramError,
) -> Result<Checked, ProgramError> {
    let (races, decided_by) = definition_races(program, sem, refusal)?;
    let reading = sem.reading();
    let layout = resolve(program)?;
    let queues = program.command_queues();
    let mut hazards: Vec<Hazard> = races
        .iter()
        .map(|r| {
            // As the multi-queue walk derives them (`sync::queues`).
            let host = r.current.stage() == crate::vk::scope::Stage::Host;
            let raw = raw_of_race(r, r.prior, (true, host), reading);
            let queue = queues.get(r.command).copied().unwrap_or_default();
            lift_race(&raw, program, &layout, queue, sem, r)
        })
        .collect();
    across_queues(program, &mut hazards);
    Ok(Checked { hazards, decided_by })
}

/// The definitional semantics' races for a program the fast checkers
/// refused with `refusal`, and why it decides ([`by_definition`]).
fn definition_races(
    program: &Program,
    sem: Semantics,
    refusal: ProgramError,
) -> Result<(Vec<crate::spec::Race>, DecidedBy), ProgramError> {
    let why = match (&refusal.kind, refusal.at) {
        (
            crate::ProgramErrorKind::MultiQueueNotSupported { what }
            | crate::ProgramErrorKind::EventsNotSupported { what }
            | crate::ProgramErrorKind::RenderPassNotSupported { what }
            | crate::ProgramErrorKind::AliasedImageNotSupported { what },
            crate::ir::layout::Location::Command(command),
        ) if sem == Semantics::for_reading(sem.reading()) => (command, what.clone()),
        _ => return Err(refusal),
    };
    let races = crate::spec::races(program, sem.reading())?;
    Ok((
        races,
        DecidedBy::Definition {
            command: why.0,
            why: why.1,
        },
    ))
}

/// The answer of [`check_grouped`]: the races grouped as a report prints
/// them, and who found them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedGroups {
    /// One [`RaceGroup`] per later access, kind and queue of the earlier
    /// accesses ([`crate::group_races`]), ordered by later command.
    pub groups: Vec<RaceGroup>,
    /// Which checker decided, and why the definitional one.
    pub decided_by: DecidedBy,
}

/// [`check_program`]'s answer as the groups a report prints:
/// [`crate::group_races`] of its hazards taken as [`crate::spec::Race`]s
/// (the pair, its memory bytes, both accesses), group for group, with the
/// same [`DecidedBy`].
///
/// What it keeps differs by checker. The multi-queue walk hands each pair
/// to the grouping as it finds it, so memory stays linear in the program
/// and its report even where the pairs are quadratic (every fill on one
/// queue racing every earlier copy on another: [`check_program`] keeps
/// each of them as a [`Hazard`]); the walk's time still counts every pair.
/// The single-queue checker's pairs and the definitional semantics' races
/// are kept whole and then grouped ([`check_report`] is the single-queue
/// checker's linear path, in [`HazardGroup`]s).
///
/// ```
/// use vksync::{check_grouped, trace, DecidedBy, HazardKind, Semantics};
/// // Each copy on `qb` waits for its fill. Nothing orders the fills on
/// // `qa`, nor the copies on `qb`, and no fill waits for the copy before
/// // it: each fill races every earlier fill and that copy, each copy
/// // every earlier copy.
/// let mut text = String::from("queue qa\nqueue qb\nsemaphore t timeline\nbuffer a 64\nbuffer b 64\n");
/// for i in 1..=4 {
///     text += &format!("fill a[0..64] 1\nsubmit qa signal t:{i}\n");
///     text += &format!("copy a[0..64] -> b[0..64]\nsubmit qb wait t:{i}@COPY\n");
/// }
/// let t = trace::parse(&text).expect("a valid trace");
/// let checked = check_grouped(&t.program, Semantics::default())?;
/// assert_eq!(checked.decided_by, DecidedBy::MultiQueueWalk);
/// // One group per later access and kind, standing for its earlier
/// // accesses: per fill after the first, its write-after-write (the
/// // earlier fills), its write-after-read (the copy before it), and the
/// // copy's write-after-write (the earlier copies).
/// let sizes: Vec<(HazardKind, usize)> =
///     checked.groups.iter().map(|g| (g.race.kind, 1 + g.also.len() + g.more)).collect();
/// let (waw, war) = (HazardKind::WriteAfterWrite, HazardKind::WriteAfterRead);
/// assert_eq!(
///     sizes,
///     [(waw, 1), (war, 1), (waw, 1), (waw, 2), (war, 1), (waw, 2), (waw, 3), (war, 1), (waw, 3)]
/// );
/// # Ok::<(), vksync::ProgramError>(())
/// ```
pub fn check_grouped(program: &Program, sem: Semantics) -> Result<CheckedGroups, ProgramError> {
    if resolve(program).is_ok_and(|layout| by_walk(program, &layout, sem) == Ok(true)) {
        if let Some(form) = one_queue_form(program) {
            resolve(program)?;
            let (races, decided_by) = match on_one_queue_form(&form, sem) {
                Ok(hazards) => (
                    hazards.iter().map(crate::spec::Race::from).collect(),
                    DecidedBy::OneQueueForm,
                ),
                Err(refusal) => definition_races(program, sem, refusal)?,
            };
            return Ok(CheckedGroups {
                groups: crate::group::group_races(program, &races),
                decided_by,
            });
        }
    }
    let fast = || -> Result<CheckedGroups, ProgramError> {
        let layout = resolve(program)?;
        let mut grouping = RaceGrouping::new(program);
        let decided_by = if by_walk(program, &layout, sem)? {
            crate::sync::queues::check_multi_queue_into(program, &layout, sem, &mut |h| {
                grouping.add(crate::spec::Race::from(&h));
            })?;
            DecidedBy::MultiQueueWalk
        } else {
            for h in check_resolved(program, &layout, sem) {
                grouping.add(crate::spec::Race::from(&h));
            }
            DecidedBy::SingleQueue
        };
        let mut groups = grouping.finish();
        // The walk runs commands in execution order, each command's
        // pairs together: ordered by command as `check_program`'s hazards
        // are (stable, so each command's groups keep their order).
        groups.sort_by_key(|g| g.race.command);
        Ok(CheckedGroups { groups, decided_by })
    };
    match fast() {
        Ok(c) => Ok(c),
        Err(refusal) => {
            let (races, decided_by) = definition_races(program, sem, refusal)?;
            Ok(CheckedGroups {
                groups: crate::group::group_races(program, &races),
                decided_by,
            })
        }
    }
}

/// A hazard as the race of the definitional semantics it stands for: the
/// pair, its memory bytes, both accesses (what the race format and the
/// race grouping take).
impl From<&Hazard> for crate::spec::Race {
    fn from(h: &Hazard) -> crate::spec::Race {
        crate::spec::Race {
            command: h.command,
            kind: h.kind,
            prior_command: h.prior_command,
            mem: h.memory.mem,
            range: h.memory.range,
            current: h.current,
            prior: h.prior,
        }
    }
}

/// The hazard a race of the definitional semantics stands for, named by
/// the later command's access ([`race_access`]): the racing bytes in
/// terms of its object, or the access's whole region where that object
/// is an image with a footprint (`crate::ir::layout::Footprint`), whose
/// bytes in the shared memory say nothing of which subresource.
fn lift_race(
    raw: &RawHazard,
    program: &Program,
    layout: &Layout,
    queue: QueueId,
    sem: Semantics,
    r: &crate::spec::Race,
) -> Hazard {
    let access = race_access(program, layout, queue, sem, r);
    let mut h = lift(raw, &access);
    if layout.footprint_of(access.region.object).is_some() {
        h.region = access.region;
        h.fix = fix_for(raw, access.region);
    }
    h
}

/// The later command's access a race of the definitional semantics is
/// about, for [`lift`]: the entry of the access table with its stage and
/// access over the race's bytes; else (a layout transition or queue family
/// ownership operation, which a barrier's region names) the barrier of the
/// command whose region holds the bytes; else any object whose memory
/// holds them.
fn race_access(
    program: &Program,
    layout: &Layout,
    queue: QueueId,
    sem: Semantics,
    r: &crate::spec::Race,
) -> Access {
    let holds = |a: &Access, range: ByteRange| {
        a.mem == r.mem && range.start <= r.range.start && r.range.end <= range.end
    };
    let covers = |a: &Access| holds(a, a.range);
    // An image's footprint (`crate::ir::layout::Footprint`) covers its
    // whole bound range, for a race against another object's bytes.
    let footprint = |a: &Access| {
        layout
            .footprint_of(a.region.object)
            .is_some_and(|f| holds(a, f.bound))
    };
    let command = &program.commands[r.command];
    let own = accesses(command, layout, sem);
    if let Some(a) = own.iter().find(|a| a.sa == r.current && covers(a)) {
        return *a;
    }
    if let Some(a) = own.iter().find(|a| a.sa == r.current && footprint(a)) {
        return *a;
    }
    let barriers: Vec<Barrier> = match command {
        // The commands that perform layout transitions: a pipeline
        // barrier, an event set or a synchronization-1 wait (`docs/semantics.md`,
        // "Events"), a render pass command.
        Command::Barrier(d)
        | Command::SetEvent { dependency: d, .. }
        | Command::WaitEvents1 { dependency: d, .. } => d.barriers.clone(),
        Command::Render(rc) => rc.pre_barriers().to_vec(),
        _ => Vec::new(),
    };
    let family = program.queue_family(queue);
    let of = |region: Region| {
        layout.locate(region).map(|m| Access {
            region,
            mem: m.mem,
            range: m.range,
            sa: r.current,
        })
    };
    let named: Vec<Access> = barriers
        .iter()
        .filter(|b| b.transition || crate::ir::access::ownership_role(b, family).is_some())
        .filter_map(|b| b.region.and_then(of))
        .collect();
    let from_barrier = named
        .iter()
        .find(|a| covers(a))
        .or_else(|| named.iter().find(|a| footprint(a)))
        .copied();
    let from_object = || {
        (0..program.objects().len())
            .filter_map(|i| of(program.whole(crate::ObjectId(i as u32))))
            .find(|a| covers(a))
    };
    from_barrier.or_else(from_object).unwrap_or(Access {
        // Unreachable: every memory is an object's; the bytes as they are.
        region: Region {
            object: crate::ObjectId(0),
            range: r.range,
        },
        mem: r.mem,
        range: r.range,
        sa: r.current,
    })
}

/// Sets [`Fix::semaphore`] on each hazard whose two commands run on
/// different queues (neither of them the host's): a pipeline barrier
/// orders commands of one queue only.
fn across_queues(program: &Program, hazards: &mut [Hazard]) {
    let device = |sa: StageAccess| sa.stage() != crate::vk::scope::Stage::Host;
    if program.queues.len() < 2 || !hazards.iter().any(|h| device(h.current) && device(h.prior)) {
        return;
    }
    let queues = program.command_queues();
    for h in hazards.iter_mut() {
        across_queue(&queues, h);
    }
}

/// [`across_queue`] for one hazard of `program`, its two commands' queues
/// found from the submits after them.
fn across_queue_of(program: &Program, h: &mut Hazard) {
    if program.queues.len() < 2 {
        return;
    }
    let (signal_queue, wait_queue) = (queue_at(program, h.prior_command), queue_at(program, h.command));
    semaphore_between(signal_queue, wait_queue, h);
}

/// [`across_queues`] for one hazard, given each command's queue
/// ([`Program::command_queues`]; with one queue it sets nothing).
fn across_queue(queues: &[QueueId], h: &mut Hazard) {
    semaphore_between(queues[h.prior_command], queues[h.command], h);
}

/// Sets [`Fix::semaphore`] on `h` when its prior command runs on
/// `signal_queue`, its command on another `wait_queue`, and neither side
/// is the host's.
fn semaphore_between(signal_queue: QueueId, wait_queue: QueueId, h: &mut Hazard) {
    let device = |sa: StageAccess| sa.stage() != crate::vk::scope::Stage::Host;
    if !(device(h.current) && device(h.prior)) {
        return;
    }
    if signal_queue != wait_queue && h.fix.barrier.is_some() {
        h.fix.semaphore = Some(SemaphoreFix {
            signal_queue,
            wait_queue,
        });
    }
}

/// The multi-queue walk's hazards grouped as [`group_hazards`] groups
/// [`walk_queues`]' (each fix between two queues naming its semaphore),
/// without keeping them: each goes to the grouping as the walk finds it.
fn walk_queues_grouped(
    program: &Program,
    layout: &Layout,
    sem: Semantics,
) -> Result<Vec<HazardGroup>, ProgramError> {
    let queues = program.command_queues();
    let mut grouping = HazardGrouping::default();
    crate::sync::queues::check_multi_queue_into(program, layout, sem, &mut |mut h| {
        across_queue(&queues, &mut h);
        grouping.add(h);
    })?;
    let mut groups = grouping.finish();
    // The walk runs commands in execution order, each command's hazards
    // together: ordered by command as `walk_queues`' hazards are (stable,
    // so each command's groups keep their order).
    groups.sort_by_key(|g| g.hazard.command);
    Ok(groups)
}

/// Runs the fast checkers over a program, under any [`Semantics`] (the
/// layer emulation's switches included); [`check_program`] is the one
/// check that answers for every program, falling back to the definitional
/// semantics where these refuse. The differential suites compare this
/// function with [`crate::spec::races`].
///
/// A program that uses a second queue, a semaphore, `wait QUEUE` on
/// another queue, `host-signal` or `host-wait`
/// ([`Program::first_multi_queue_command`]) is decided by the multi-queue
/// walk (`crate::sync::queues`), which agrees with
/// [`crate::spec::races`]; the corners it does not model (a timeline wait
/// before the signal that satisfies it, a later signal that may change a
/// timeline wait's first scope, layer emulation switches, events) are
/// refused with [`crate::ProgramErrorKind::MultiQueueNotSupported`] at that
/// command. Events (split barriers) are checked by both: on one queue
/// here while the event sets need at most `EVENT_SLOTS` slots at once,
/// past that (and with several queues) by the multi-queue walk; a
/// single-queue program past that limit under layer emulation (which the
/// walk does not model) is refused with
/// [`crate::ProgramErrorKind::EventsNotSupported`].
pub fn check_with(program: &Program, sem: Semantics) -> Result<Vec<Hazard>, ProgramError> {
    check_deciding(program, sem).map(|(hazards, _)| hazards)
}

/// [`check_with`]'s hazards and which fast checker found them (what
/// [`check_program`] reports), each program's one-queue form built once.
fn check_deciding(program: &Program, sem: Semantics) -> Result<(Vec<Hazard>, DecidedBy), ProgramError> {
    let layout = resolve(program)?;
    if !by_walk(program, &layout, sem)? {
        return Ok((check_resolved(program, &layout, sem), DecidedBy::SingleQueue));
    }
    match one_queue_form(program) {
        Some(form) => Ok((on_one_queue_form(&form, sem)?, DecidedBy::OneQueueForm)),
        None => Ok((walk_queues(program, &layout, sem)?, DecidedBy::MultiQueueWalk)),
    }
}

/// The one-queue form ([`crate::sync::one_queue`]) of a program the
/// multi-queue walk would refuse for its rendering, where it has one: the
/// walk does not model rendering, the single-queue checker does.
fn one_queue_form(program: &Program) -> Option<crate::sync::one_queue::OneQueueForm> {
    // (A form has no semaphore: a program without one is its own, and the
    // walk decides it for its events, which the form would not change.)
    if program.first_multi_queue_command().is_none()
        || !program.commands.iter().any(|c| matches!(c, Command::Render(_)))
    {
        return None;
    }
    crate::sync::one_queue::one_queue_form(program)
}

/// The hazards of a program's one-queue form, in the program's command
/// indices.
fn on_one_queue_form(
    form: &crate::sync::one_queue::OneQueueForm,
    sem: Semantics,
) -> Result<Vec<Hazard>, ProgramError> {
    // A refusal of the form (its events past the single-queue checker's
    // slots send it to the walk, which does not model rendering) is at
    // the program's command, for the definitional semantics' fallback.
    let checked = check_with(&form.program, sem).map_err(|mut e| {
        if let crate::ir::layout::Location::Command(k) = e.at {
            e.at = crate::ir::layout::Location::Command(form.back(k));
        }
        e
    })?;
    Ok(checked
        .into_iter()
        .map(|h| Hazard {
            command: form.back(h.command),
            prior_command: form.back(h.prior_command),
            ..h
        })
        .collect())
}

/// The multi-queue walk's hazards, each fix between two queues naming
/// its semaphore ([`across_queues`]).
fn walk_queues(program: &Program, layout: &Layout, sem: Semantics) -> Result<Vec<Hazard>, ProgramError> {
    let mut hazards = crate::sync::queues::check_multi_queue(program, layout, sem)?;
    across_queues(program, &mut hazards);
    Ok(hazards)
}

/// Whether the multi-queue walk (`crate::sync::queues`) decides
/// `program`: it uses several queues or semaphores, or its event sets
/// need more slots at once than the single-queue checker has
/// ([`refuse_events`]); that last case is refused under layer emulation,
/// which only the single-queue checker models.
fn by_walk(program: &Program, layout: &Layout, sem: Semantics) -> Result<bool, ProgramError> {
    refuse_far_subpass_scopes(program)?;
    refuse_views_apart(program, layout)?;
    refuse_footprints(program, layout)?;
    if program.first_multi_queue_command().is_some() {
        return Ok(true);
    }
    match refuse_events(program) {
        Ok(()) => Ok(false),
        Err(_) if sem == Semantics::for_reading(sem.reading()) => Ok(true),
        Err(e) => Err(e),
    }
}

/// [`check_with`] on `jobs` threads (feature `parallel`): the
/// single-queue checker sharded by memory object, each shard's checker
/// taking the accesses of its objects and every barrier, submit, wait and
/// event (`crate::sync::parallel`). The result is [`check_with`]'s, item
/// for item. Programs the multi-queue walk decides are checked on one
/// thread; `jobs` 1 is [`check_with`].
#[cfg(feature = "parallel")]
pub fn check_parallel(program: &Program, sem: Semantics, jobs: usize) -> Result<Vec<Hazard>, ProgramError> {
    let layout = resolve(program)?;
    if by_walk(program, &layout, sem)? {
        return walk_queues(program, &layout, sem);
    }
    if jobs <= 1 || has_rendering(program) {
        return Ok(check_resolved(program, &layout, sem));
    }
    let found = crate::sync::parallel::detect_sharded(program, &layout, sem, jobs, false);
    Ok(settle(program, found.into_iter(), std::mem::take, |h| {
        (h.command, h.provisional)
    }))
}

/// [`check_report`] on `jobs` threads, as [`check_parallel`] is
/// [`check_with`] on them: the same groups, in the same order.
#[cfg(feature = "parallel")]
pub fn check_report_parallel(
    program: &Program,
    sem: Semantics,
    jobs: usize,
) -> Result<Vec<HazardGroup>, ProgramError> {
    if jobs <= 1 {
        return check_report(program, sem);
    }
    let layout = resolve(program)?;
    if by_walk(program, &layout, sem)? {
        return walk_queues_grouped(program, &layout, sem);
    }
    if has_rendering(program) {
        return check_report(program, sem);
    }
    let found = crate::sync::parallel::detect_sharded(program, &layout, sem, jobs, true);
    Ok(settle(
        program,
        found.into_iter(),
        |found| group_hazards(found.drain(..)),
        |g| (g.hazard.command, g.hazard.provisional),
    ))
}

/// Whether a program renders: its rendering instances' state (the open
/// instance, a render pass's transitions among a command's accesses) is
/// checked on one thread, as several queues are.
#[cfg(feature = "parallel")]
fn has_rendering(program: &Program) -> bool {
    program.commands.iter().any(|c| matches!(c, Command::Render(_)))
}

/// Runs the checker over a program already validated into `layout`.
pub(crate) fn check_resolved(program: &Program, layout: &Layout, sem: Semantics) -> Vec<Hazard> {
    check_with_checker(
        program,
        layout,
        Checker::with_semantics(layout.memory_sizes.len(), sem),
    )
}

/// Runs a given (fresh) checker over a program already validated into
/// `layout`, with the checker's semantics.
pub(crate) fn check_with_checker(program: &Program, layout: &Layout, checker: Checker) -> Vec<Hazard> {
    walk(program, layout, checker, std::mem::take, |h| {
        (h.command, h.provisional)
    })
}

/// Runs the checker over a program and groups what it finds per later
/// access and kind ([`crate::group_hazards`]): one entry per line a report
/// prints. Each command's hazards are grouped as it is checked (the
/// multi-queue walk's, which also decides a single-queue program past the
/// event slots, as the walk finds them), so memory stays linear in the
/// number of groups even when one access races thousands of earlier ones.
/// Programs [`check_with`] refuses are refused alike.
pub fn check_report(program: &Program, sem: Semantics) -> Result<Vec<HazardGroup>, ProgramError> {
    let layout = resolve(program)?;
    if by_walk(program, &layout, sem)? {
        return walk_queues_grouped(program, &layout, sem);
    }
    let mut checker = Checker::with_semantics(layout.memory_sizes.len(), sem);
    // A run of pieces is one hazard per access, not one per piece: the
    // groups are the pairs' (`PieceHazards::Summary`), at a cost linear
    // in the runs, not in the pairs (issue 27's `pieces`).
    checker.set_pieces(crate::sync::checker::PieceHazards::Summary);
    Ok(walk(
        program,
        &layout,
        checker,
        |found| group_hazards(found.drain(..)),
        |g| (g.hazard.command, g.hazard.provisional),
    ))
}

/// The checker's walk of a program: each batch at its submit, host
/// operations in place; `take` turns one command's hazards into what is
/// kept (the hazards themselves, their groups, or the planners' compact
/// requirements); `of` gives a kept item's command and whether it is
/// provisional.
pub(crate) fn walk<T>(
    program: &Program,
    layout: &Layout,
    mut checker: Checker,
    take: impl FnMut(&mut Vec<Hazard>) -> Vec<T>,
    of: impl Fn(&T) -> (usize, bool),
) -> Vec<T> {
    // Each batch at its submit, host operations in place (a host access
    // between recording a command and submitting it comes first: an
    // `OrderNote`, not a race).
    let found = crate::ir::execution::order(program).into_iter().map(|i| {
        let mut found = Vec::new();
        step(&mut checker, layout, i, &program.commands[i], &mut found);
        checker.settle_pieces(&mut found, None);
        (i, found)
    });
    settle(program, found, take, of)
}

/// The walk's bookkeeping after detection: `found` gives each command in
/// walk order with its hazards, in the order the checker found them
/// ([`walk`] steps one checker; a parallel check merges its shards'), and
/// the kept items come out as [`walk`] documents.
pub(crate) fn settle<T>(
    program: &Program,
    found: impl Iterator<Item = (usize, Vec<Hazard>)>,
    mut take: impl FnMut(&mut Vec<Hazard>) -> Vec<T>,
    of: impl Fn(&T) -> (usize, bool),
) -> Vec<T> {
    let mut out = Vec::new();
    // Hazards against work that was submitted but not waited for when the
    // current command was recorded: the command runs only when its own
    // batch is submitted, so a wait before that submit removes them
    // ("Fence Waiting"; "Host Write Ordering Guarantees": the submission's
    // first scope holds everything that happened before it on the host).
    let mut pending: Vec<T> = Vec::new();
    for (i, mut found) in found {
        for h in take(&mut found) {
            if of(&h).1 {
                pending.push(h);
            } else {
                out.push(h);
            }
        }
        match &program.commands[i] {
            Command::Wait(_) => pending.clear(),
            Command::Submit(_) => out.append(&mut pending),
            _ => {}
        }
    }
    // Work still recorded at the end is submitted without a wait.
    out.append(&mut pending);
    out.sort_by_key(|h| of(h).0);
    out
}

/// Whether [`check_resolved`] would find no hazard, stopping at the first
/// one: the planners' local searches ask this of many candidate programs,
/// most of which fail early.
pub(crate) fn is_clean(program: &Program, layout: &Layout, sem: Semantics) -> bool {
    let mut checker = Checker::with_semantics(layout.memory_sizes.len(), sem);
    let mut pending = false;
    let mut found = Vec::new();
    for i in crate::ir::execution::order(program) {
        let c = &program.commands[i];
        step(&mut checker, layout, i, c, &mut found);
        for h in found.drain(..) {
            if !h.provisional {
                return false;
            }
            pending = true;
        }
        match c {
            Command::Wait(_) => pending = false,
            Command::Submit(_) if pending => return false,
            _ => {}
        }
    }
    !pending
}

/// The hazards of accesses `acc`, all made by command `index`, against the
/// checker's current state, in program terms, without recording them.
pub(crate) fn detect_accesses(checker: &mut Checker, index: usize, acc: &[Access]) -> Vec<Hazard> {
    let mut out = Vec::new();
    for a in acc {
        for h in checker.detect(index, std::slice::from_ref(a)) {
            out.push(lift(&h, a));
        }
    }
    out
}

/// The hazards command `index` would have against the checker's current
/// state, in program terms, without recording its accesses.
pub(crate) fn detect_command(
    checker: &mut Checker,
    layout: &Layout,
    index: usize,
    command: &Command,
) -> Vec<Hazard> {
    let acc = accesses(command, layout, checker.semantics());
    detect_accesses(checker, index, &acc)
}

/// Applies one `vkCmdPipelineBarrier2` (command `index`) to a checker and
/// returns the hazards of its layout transitions, each with the
/// transition's write: the transitions are decided against the state
/// before the call (each is ordered by its own barrier's first half only),
/// the call's barriers applied together, then the transitions recorded as
/// their barriers' second halves leave them (see [`crate::sync::checker`]).
pub(crate) fn apply_dependency(
    checker: &mut Checker,
    layout: &Layout,
    index: usize,
    dep: &Dependency,
) -> Vec<(RawHazard, Access)> {
    apply_recorded_where(checker, layout, index, dep, &|_| true)
        .into_iter()
        .map(|(_, h, a)| (h, a))
        .collect()
}

/// [`apply_dependency_where`] for a `vkCmdPipelineBarrier2` the program
/// records: inside a subpass, with the subpass's scopes and the
/// framebuffer-local lowering ([`Checker::subpass_dependency`]).
fn apply_recorded_where(
    checker: &mut Checker,
    layout: &Layout,
    index: usize,
    dep: &Dependency,
    keep: &dyn Fn(crate::ir::layout::MemId) -> bool,
) -> Vec<(usize, RawHazard, Access)> {
    match checker.subpass_dependency(dep) {
        Some((lowered, scopes)) => apply_dependency_where(checker, layout, index, &lowered, &scopes, keep),
        None => apply_dependency_where(checker, layout, index, dep, &[], keep),
    }
}

/// Before a rendering command's barriers (a render pass's subpass
/// dependencies and layout transitions): a `vkCmdBeginRenderPass` ends the
/// dynamic instance before and begins subpass 0, a next-subpass ends the
/// current subpass and begins the next ([`Checker::end_subpass`],
/// [`Checker::begin_subpass`]), an end ends the last subpass. Then applies
/// those barriers, each with its scopes
/// ([`PreScopes::of`]; a program with scopes the
/// checker does not keep apart is refused by the check entry points,
/// [`refuse_far_subpass_scopes`], and taken narrower here), and after an end's
/// closes the render pass instance ([`Checker::close_pass`]).
pub(crate) fn apply_pre_barriers(
    checker: &mut Checker,
    layout: &Layout,
    index: usize,
    rc: &crate::ir::render::RenderCommand,
) -> Vec<(RawHazard, Access)> {
    apply_pre_barriers_where(checker, layout, index, rc, &|_| true)
        .into_iter()
        .map(|(_, h, a)| (h, a))
        .collect()
}

fn apply_pre_barriers_where(
    checker: &mut Checker,
    layout: &Layout,
    index: usize,
    rc: &crate::ir::render::RenderCommand,
    keep: &dyn Fn(crate::ir::layout::MemId) -> bool,
) -> Vec<(usize, RawHazard, Access)> {
    use crate::ir::render::RenderOp;
    let boundary = match rc.op {
        RenderOp::BeginPass(_) => {
            checker.close_instance();
            checker.begin_subpass(0);
            checker.open_pass(rc.pass_attachments().clone());
            0
        }
        RenderOp::NextSubpass => {
            checker.end_subpass();
            let k = checker.subpass_index() + 1;
            checker.begin_subpass(k);
            k
        }
        RenderOp::EndPass => {
            checker.end_subpass();
            checker.subpass_index() + 1
        }
        _ => return Vec::new(),
    };
    let mut found = Vec::new();
    if !rc.pre_barriers().is_empty() {
        let scopes: Vec<PreScopes> = rc
            .pre_scopes()
            .iter()
            .zip(rc.pre_sets())
            .map(|(s, sets)| PreScopes::of(*s, boundary as u32).with_sets(sets))
            .collect();
        let dep = Dependency {
            barriers: rc.pre_barriers().to_vec(),
        };
        found = apply_dependency_where(checker, layout, index, &dep, &scopes, keep);
    }
    if matches!(rc.op, RenderOp::EndPass) {
        checker.close_pass();
    }
    found
}

/// [`apply_dependency`] with the layout transitions of the memory objects
/// `keep` holds only (a shard's), each hazard with its transition's
/// position among the call's.
fn apply_dependency_where(
    checker: &mut Checker,
    layout: &Layout,
    index: usize,
    dep: &Dependency,
    scopes: &[PreScopes],
    keep: &dyn Fn(crate::ir::layout::MemId) -> bool,
) -> Vec<(usize, RawHazard, Access)> {
    let rb: Vec<_> = dep
        .barriers
        .iter()
        .enumerate()
        .map(|(i, b)| ResolvedBarrier::of_pass(b, layout, scopes.get(i).copied().unwrap_or_default()))
        .collect();
    apply_resolved_where(checker, layout, index, dep, &rb, keep)
}

/// Applies one call's barriers `dep`, resolved as `rb` (a pipeline
/// barrier's, a `vkCmdSetEvent2`'s first halves, a `vkCmdWaitEvents`'s),
/// in the three steps of a layout transition (module docs of
/// [`crate::sync::checker`]): each transition of the memory objects `keep`
/// holds decided against the state before the call with its own barrier
/// `rb[i]`, the barriers applied together, the transitions recorded as
/// `rb[i]` leaves them. Each hazard with its transition's position among
/// the call's.
fn apply_resolved_where(
    checker: &mut Checker,
    layout: &Layout,
    index: usize,
    dep: &Dependency,
    rb: &[ResolvedBarrier],
    keep: &dyn Fn(crate::ir::layout::MemId) -> bool,
) -> Vec<(usize, RawHazard, Access)> {
    let ts: Vec<(usize, usize, Access)> = transitions(dep, layout)
        .into_iter()
        .enumerate()
        .filter(|(_, (_, a))| keep(a.mem))
        .map(|(k, (i, a))| (k, i, a))
        .collect();
    let mut found = Vec::new();
    for (k, i, a) in &ts {
        for h in checker.detect_transition(index, a, &rb[*i]) {
            found.push((*k, h, *a));
        }
    }
    checker.apply(rb);
    for (_, i, a) in &ts {
        checker.record_transition(index, a, &rb[*i]);
    }
    found
}

/// How many event barriers the fast checker tells apart at once (one bit
/// of [`crate::sync::checker::SyncVal::events`] each).
pub(crate) const EVENT_SLOTS: usize = 64;

/// Refuses a single-queue program whose event sets need more than
/// [`EVENT_SLOTS`] slots at once (the barriers of every event's current
/// set, summed) with [`crate::ProgramErrorKind::EventsNotSupported`] at
/// that set: the single-queue checker keeps one bit per slot. The callers
/// send such a program to the multi-queue walk, whose frontiers name
/// slots without a limit ([`by_walk`]).
fn refuse_events(program: &Program) -> Result<(), ProgramError> {
    let mut live: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    for (i, c) in program.commands.iter().enumerate() {
        match c {
            Command::SetEvent { event, dependency } => {
                live.insert(event.0, dependency.barriers.len());
            }
            Command::HostSetEvent { event } => {
                live.remove(&event.0);
            }
            // One slot for the signal operation of a vkCmdSetEvent.
            Command::SetEvent1 { event, .. } => {
                live.insert(event.0, 1);
            }
            _ => continue,
        }
        if live.values().sum::<usize>() > EVENT_SLOTS {
            return Err(ProgramError {
                at: crate::ir::layout::Location::Command(i),
                kind: crate::ProgramErrorKind::EventsNotSupported {
                    what: format!("event sets with more than {EVENT_SLOTS} barriers at once"),
                },
            });
        }
    }
    Ok(())
}

/// Refuses a program with an optimal image whose subresources overlap
/// their whole memory for another object there and exactly among
/// themselves (`crate::ir::layout::Footprint`) with
/// [`crate::ProgramErrorKind::AliasedImageNotSupported`] at the first
/// command naming part of it: the fast checkers and the planners keep one
/// byte-range state per memory, which holds one of the two. The
/// definitional semantics decides such a program.
pub(crate) fn refuse_aliased_images(program: &Program) -> Result<(), ProgramError> {
    // Resolving costs a pass over the program; only a program with an
    // optimal image can have a footprint.
    if !program
        .images()
        .iter()
        .any(|d| d.tiling == crate::ir::image::Tiling::Optimal)
    {
        return Ok(());
    }
    refuse_footprints(program, &resolve(program)?)
}

/// [`refuse_aliased_images`] for a program already resolved into `layout`
/// (the fast checkers' callers resolve it once).
fn refuse_footprints(program: &Program, layout: &Layout) -> Result<(), ProgramError> {
    let Some(f) = layout.footprints().first() else {
        return Ok(());
    };
    let name = |o: crate::ObjectId| program.objects()[o.0 as usize].name.as_str();
    Err(ProgramError {
        at: crate::ir::layout::Location::Command(f.partial_at),
        kind: crate::ProgramErrorKind::AliasedImageNotSupported {
            what: format!(
                "{} names part of optimal image `{}`, and `{}` is bound to its memory too",
                program.commands[f.partial_at].vulkan_name(),
                name(f.image),
                name(f.other)
            ),
        },
    })
}

/// Refuses a program with a render pass instance of several views
/// (`crate::ir::renderpass::RenderPass::views_apart`) with a command
/// inside it that accesses an attachment's memory other than as an
/// attachment (a sampled read of an attachment's image), or, when the
/// instance has more than one subpass or a pipeline barrier inside a
/// subpass, writes memory other than as an attachment (a draw's storage
/// write), with [`crate::ProgramErrorKind::RenderPassNotSupported`] at its
/// begin. Such an access is every view's, while a view-local dependency,
/// a pipeline barrier inside a subpass of several views, a layout
/// transition and a load or store operation are one view's: the fast
/// checkers keep one subpass for every view and do not tell the views'
/// accesses of one instance apart (the twenty-ninth session's open
/// defects: missed races through a transition between subpasses and
/// through chains of view-local dependencies; review45: a sampled read of
/// an attachment's other layer before that view's final transition, in
/// a pass of one subpass). The definitional semantics decides such a
/// program per view (`crate::spec`, its module `views`). The rest the
/// fast checkers decide as the per-view reading does: an attachment
/// access is its own view's layer, and a read of other memory, or a write
/// of it in a pass of one subpass and no barrier inside, races only an
/// access made outside the instance or one of another view it is not
/// ordered against anyway, which are ordered before (or after) every view
/// alike; a view-local dependency orders an access made before the
/// instance whole (`crate::ir::renderpass::ViewPart::Before`) and one of
/// the instance before what follows its destination subpass (the chain
/// part).
pub(crate) fn refuse_views_apart(program: &Program, layout: &Layout) -> Result<(), ProgramError> {
    use crate::ir::render::RenderOp;
    // Every fast check asks: a program with no render pass of several
    // views is left at once.
    if !program
        .render_passes()
        .iter()
        .any(crate::ir::renderpass::RenderPass::views_apart)
    {
        return Ok(());
    }
    // The open instance of several views: its begin, whether it orders
    // views (a next-subpass or a barrier so far), the memory of its
    // attachments, the first command writing memory other than as an
    // attachment, the first accessing an attachment's memory other than as
    // one.
    struct Open {
        begin: usize,
        ordered: bool,
        attachments: Vec<MemRange>,
        writes: Option<usize>,
        on_attachments: Option<usize>,
    }
    let mut open: Option<Open> = None;
    for (i, c) in program.commands.iter().enumerate() {
        match c {
            Command::Render(rc) => match &rc.op {
                RenderOp::BeginPass(b) => {
                    let apart = program
                        .render_passes()
                        .get(b.pass.0 as usize)
                        .is_some_and(crate::ir::renderpass::RenderPass::views_apart);
                    open = apart.then(|| Open {
                        begin: i,
                        ordered: false,
                        attachments: rc
                            .pass_attachments()
                            .regions
                            .iter()
                            .filter_map(|r| layout.locate(*r))
                            .collect(),
                        writes: None,
                        on_attachments: None,
                    });
                }
                RenderOp::NextSubpass => {
                    if let Some(o) = open.as_mut() {
                        o.ordered = true;
                    }
                }
                RenderOp::EndPass => open = None,
                _ => {
                    if let Some(o) = open.as_mut() {
                        for (region, sa) in rc.accesses() {
                            if crate::ir::renderpass::is_attachment_access(sa.access()) {
                                continue;
                            }
                            if sa.is_write() {
                                o.writes.get_or_insert(i);
                            }
                            let on = layout.locate(*region).is_some_and(|m| {
                                o.attachments
                                    .iter()
                                    .any(|x| x.mem == m.mem && x.range.overlaps(m.range))
                            });
                            if on {
                                o.on_attachments.get_or_insert(i);
                            }
                        }
                    }
                }
            },
            Command::Barrier(_) | Command::WaitEvents { .. } | Command::WaitEvents1 { .. } => {
                if let Some(o) = open.as_mut() {
                    o.ordered = true;
                }
            }
            _ => {}
        }
        let Some(o) = &open else { continue };
        let found = match (o.on_attachments, o.writes) {
            (Some(c), _) => Some((c, "accessing an attachment's memory other than as an attachment")),
            (None, Some(c)) if o.ordered => Some((c, "writing memory other than as an attachment")),
            _ => None,
        };
        if let Some((c, how)) = found {
            let name = crate::ir::renderpass::begun_pass_name(program, o.begin);
            return Err(ProgramError {
                at: crate::ir::layout::Location::Command(o.begin),
                kind: crate::ProgramErrorKind::RenderPassNotSupported {
                    what: format!(
                        "a {} in an instance of render pass `{name}` of several views, {how}",
                        program.commands[c].vulkan_name()
                    ),
                },
            });
        }
    }
    Ok(())
}

/// Refuses a program with a render pass barrier whose scopes the fast
/// checker does not keep apart ([`PreScopes::of`]: a dependency from a
/// subpass [`crate::sync::value::SUBPASS_SLOTS`] or more subpasses before
/// its `dstSubpass`, or from `VK_SUBPASS_EXTERNAL` into a subpass past
/// the first that many) with
/// [`crate::ProgramErrorKind::RenderPassNotSupported`] at its command; the
/// definitional semantics decides such a program.
pub(crate) fn refuse_far_subpass_scopes(program: &Program) -> Result<(), ProgramError> {
    use crate::ir::render::RenderOp;
    let mut subpass = 0u32;
    for (i, c) in program.commands.iter().enumerate() {
        let Command::Render(rc) = c else { continue };
        let boundary = match rc.op {
            RenderOp::BeginPass(_) => {
                subpass = 0;
                0
            }
            RenderOp::NextSubpass => {
                subpass += 1;
                subpass
            }
            RenderOp::EndPass => subpass + 1,
            _ => continue,
        };
        if let Some(s) = rc
            .pre_scopes()
            .iter()
            .find(|s| PreScopes::of(**s, boundary).first_in == crate::sync::value::FirstIn::Unknown)
        {
            return Err(ProgramError {
                at: crate::ir::layout::Location::Command(i),
                kind: crate::ProgramErrorKind::RenderPassNotSupported {
                    what: format!(
                        "a subpass dependency (or layout transition) {}->{} placed {} subpass(es) later",
                        s.src,
                        s.dst,
                        match s.src {
                            crate::ir::renderpass::SubpassIndex::Subpass(k) => boundary - k,
                            crate::ir::renderpass::SubpassIndex::External => boundary,
                        }
                    ),
                },
            });
        }
    }
    Ok(())
}

/// Feeds one command to a checker, appending the hazards it has.
pub(crate) fn step(
    checker: &mut Checker,
    layout: &Layout,
    index: usize,
    command: &Command,
    out: &mut Vec<Hazard>,
) {
    step_shard(checker, layout, index, command, out, None);
}

/// A shard of a parallel check (`crate::sync::parallel`): the memory
/// objects whose accesses its checker takes, and for each hazard it finds,
/// the position of its access among the command's accesses (or of its
/// layout transition among the call's), which orders the shards' hazards
/// of one command as one checker finds them.
pub(crate) struct Shard<'a> {
    pub(crate) keep: &'a dyn Fn(crate::ir::layout::MemId) -> bool,
    pub(crate) tags: &'a mut Vec<u32>,
}

/// [`step`], for a shard (`Some`) or for the whole program (`None`):
/// barriers, submits, waits and events apply to every shard's checker;
/// accesses and layout transitions only to their memory's.
pub(crate) fn step_shard(
    checker: &mut Checker,
    layout: &Layout,
    index: usize,
    command: &Command,
    out: &mut Vec<Hazard>,
    mut shard: Option<Shard<'_>>,
) {
    let keep = |m| shard.as_ref().is_none_or(|s| (s.keep)(m));
    match command {
        Command::Barrier(dep) => {
            for (k, h, a) in apply_recorded_where(checker, layout, index, dep, &keep) {
                out.push(lift(&h, &a));
                if let Some(s) = shard.as_mut() {
                    s.tags.push(k as u32);
                }
            }
        }
        Command::Submit(_) => checker.submit(),
        Command::Wait(_) => checker.wait(),
        // Events (`docs/semantics.md`, "Events"): each barrier of the
        // dependency info is cut in two around the event's signal
        // operation, a pseudo stage of that barrier's own (a slot): the set
        // applies the barriers' first halves (first scopes -> its slot),
        // the wait their second halves (its slot -> second scopes), so the
        // wait reaches exactly what the set did, and nothing recorded
        // between them. Programs whose sets need more than 64 slots at
        // once go to the multi-queue walk instead ([`by_walk`]); a set past
        // that is ignored here (its wait then orders nothing).
        // A barrier's layout transition is performed at the set, between
        // its first half and the signal (`ResolvedBarrier::event_set`): a
        // write of the set, as a pipeline barrier's is of the barrier.
        Command::SetEvent { event, dependency } => {
            if let Some(slots) = checker.set_event(event.0, dependency.barriers.len()) {
                let rb: Vec<ResolvedBarrier> = dependency
                    .barriers
                    .iter()
                    .zip(slots)
                    .map(|(b, slot)| ResolvedBarrier::event_set(b, layout, slot))
                    .collect();
                for (k, h, a) in apply_resolved_where(checker, layout, index, dependency, &rb, &keep) {
                    out.push(lift(&h, &a));
                    if let Some(s) = shard.as_mut() {
                        s.tags.push(k as u32);
                    }
                }
            }
        }
        Command::WaitEvents { waits } => {
            let mut rb: Vec<ResolvedBarrier> = Vec::new();
            for w in waits {
                if let Some(slots) = checker.event_slots(w.event.0) {
                    rb.extend(
                        w.dependency
                            .barriers
                            .iter()
                            .zip(slots)
                            .map(|(b, &slot)| ResolvedBarrier::event_wait(b, layout, slot)),
                    );
                }
            }
            checker.apply(&rb);
        }
        // A vkCmdSetEvent is an execution dependency from its stage mask
        // to its signal operation (one slot); each barrier of its
        // vkCmdWaitEvents applies from the slots of all the wait's events,
        // with its own first access scope, which holds the writes that
        // happened before one of the signals (`ResolvedBarrier::event_wait1`).
        // A host set contributes no slot (see below).
        Command::SetEvent1 { event, stage_mask } => {
            if let Some(slots) = checker.set_event(event.0, 1) {
                checker.apply(&[ResolvedBarrier::event_set1(*stage_mask, slots[0])]);
            }
        }
        Command::WaitEvents1 { events, dependency } => {
            let slots = events
                .iter()
                .filter_map(|e| checker.event_slots(e.0))
                .flatten()
                .fold(0u64, |m, s| m | 1 << s);
            let rb: Vec<ResolvedBarrier> = dependency
                .barriers
                .iter()
                .map(|b| ResolvedBarrier::event_wait1(b, layout, slots))
                .collect();
            // A barrier's layout transition is part of the wait's memory
            // dependency, as a pipeline barrier's is of its own.
            for (k, h, a) in apply_resolved_where(checker, layout, index, dependency, &rb, &keep) {
                out.push(lift(&h, &a));
                if let Some(s) = shard.as_mut() {
                    s.tags.push(k as u32);
                }
            }
        }
        // A host set reaches no device access: only writes completed by a
        // fence wait are available before the wait, and every barrier
        // reaches those already. It ends the previous set.
        Command::HostSetEvent { event } => checker.clear_event(event.0),
        Command::ResetEvent { .. } | Command::HostResetEvent { .. } => {}
        // A rendering command: its instance's implicit dependencies first
        // (`crate::ir::render`), then its accesses.
        Command::Render(rc) => {
            // A render pass's subpass dependencies and layout transitions
            // (`crate::ir::renderpass`): a barrier recorded just before.
            for (k, h, a) in apply_pre_barriers_where(checker, layout, index, rc, &keep) {
                out.push(lift(&h, &a));
                if let Some(s) = shard.as_mut() {
                    s.tags.push(k as u32);
                }
            }
            apply_implicit(checker, layout, index, rc);
            access_step(checker, layout, index, command, out, shard);
        }
        _ => access_step(checker, layout, index, command, out, shard),
    }
}

/// The accesses of command `index` (those of the shard's memory objects):
/// their hazards against the state before the command, then recorded.
fn access_step(
    checker: &mut Checker,
    layout: &Layout,
    index: usize,
    command: &Command,
    out: &mut Vec<Hazard>,
    shard: Option<Shard<'_>>,
) {
    let mut acc = accesses(command, layout, checker.semantics());
    let Some(shard) = shard else {
        if !acc.is_empty() {
            out.extend(detect_accesses(checker, index, &acc));
            checker.record(index, &acc);
        }
        return;
    };
    for (k, a) in acc.iter().enumerate().filter(|(_, a)| (shard.keep)(a.mem)) {
        for h in checker.detect(index, std::slice::from_ref(a)) {
            out.push(lift(&h, a));
            shard.tags.push(k as u32);
        }
    }
    acc.retain(|a| (shard.keep)(a.mem));
    if !acc.is_empty() {
        checker.record(index, &acc);
    }
}

/// Enters rendering command `index` (its instance's accesses see what the
/// instance's implicit dependencies ordered, [`Checker::enter_render`])
/// and applies those dependencies, which come before its accesses.
pub(crate) fn apply_implicit(
    checker: &mut Checker,
    layout: &Layout,
    index: usize,
    rc: &crate::ir::render::RenderCommand,
) {
    use crate::ir::render::RenderOp;
    let begin = rc.op.begins_instance();
    // A render pass's commands closed the instance before their barriers
    // (`apply_pre_barriers`).
    // (A resuming begin continues the suspended instance.)
    if matches!(rc.op, RenderOp::Begin(_)) && begin {
        checker.close_instance();
    }
    let subpass = matches!(rc.op, RenderOp::BeginPass(_) | RenderOp::NextSubpass);
    let at = checker.enter_render(index, begin, subpass);
    let rb: Vec<ResolvedBarrier> = rc
        .implicit()
        .iter()
        .map(|d| ResolvedBarrier::implicit(d, layout, at))
        .collect();
    if !rb.is_empty() {
        checker.apply(&rb);
    }
}
