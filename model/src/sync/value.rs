//! The synchronization algebra: the value of one recorded access
//! ([`SyncVal`]), a barrier with its scopes computed ([`ResolvedBarrier`]),
//! the effect of the barriers of one `vkCmdPipelineBarrier2` on a value,
//! the two questions every hazard rule asks of a value (is a later
//! write ordered after this read? does a later access conflict with this
//! write?), and the same question for an image layout transition, which is
//! ordered by its own barrier only ([`ordered_before_transition`]), with
//! the value a transition starts with ([`SyncVal::transition`]), and
//! the one way other commands' scopes hold a transition: through
//! `ALL_COMMANDS` ([`all_commands`], [`ResolvedBarrier::of`]).
//!
//! Values are plain `Copy` data with no identity: the checker interns them
//! ([`super::intern`]) and stores node ids. The laws the checker relies on
//! (applying a barrier never creates a hazard; barriers of one call do not
//! chain; merging equal values never changes a verdict) are tested in
//! `model/tests/laws.rs`. This module does not know about memory layout,
//! commands or programs, except [`ResolvedBarrier::of`], which locates a
//! program barrier's range.

use crate::ir::layout::{Layout, MemRange};
use crate::ir::program::Barrier;
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::scope::{
    access_scope, exact_scope, exec_scope, Side, Stage, StageAccess, StageAccessSet, StageSet,
};

/// How many subpasses of one render pass instance the checker keeps
/// apart ([`SyncVal::tag`], [`SyncVal::ended_order`]): subpass k uses slot
/// k mod this; a dependency from a subpass this many subpasses or more
/// before its `dstSubpass` begins, or one from `VK_SUBPASS_EXTERNAL` into
/// a subpass past the first this many, is refused
/// (`crate::hazard::refuse_far_subpass_scopes`).
pub(crate) const SUBPASS_SLOTS: usize = 4;

/// [`SyncVal::tag`] of an access in no subpass scope: a layout
/// transition (no scope holds it by stage) or an access of an earlier
/// subpass whose slot was reused.
pub(crate) const TAG_NONE: u8 = u8::MAX;

/// Which accesses a barrier's first scopes hold by their stage
/// ([`ResolvedBarrier::first_in`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FirstIn {
    /// Every earlier access (a recorded barrier).
    #[default]
    All,
    /// Those made before the open render pass instance (tag 0).
    Before,
    /// Those of the subpass with this slot.
    Slot(u8),
    /// Those of the subpass with this slot that is open: a pipeline
    /// barrier recorded inside it ("If vkCmdPipelineBarrier2 is recorded
    /// within a render pass instance, the synchronization scopes are
    /// limited to a subset of operations within the same subpass");
    /// through chains, what the dependencies into that subpass ordered
    /// (the `local_` fields: their second scopes are its commands) and
    /// recorded barriers before the instance did.
    Open(u8),
    /// None by their stage, and through chains only what recorded
    /// barriers and dependencies to `VK_SUBPASS_EXTERNAL` ordered: a
    /// scope the checker no longer keeps apart ([`PreScopes::of`]), taken
    /// narrower than it is, so that it never orders more than the spec
    /// (the check entry points refuse such a program first).
    Unknown,
}

/// The scopes of a barrier before a render pass command as the checker
/// keeps them; the default: a recorded barrier's (every earlier command,
/// every later one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PreScopes {
    /// The accesses the first scopes hold by their stage (a subpass's:
    /// its draws and clears, its load operations, its resolve and store
    /// operations); another access is in them only through an execution
    /// dependency chain.
    pub first_in: FirstIn,
    /// The second scopes hold only the accesses of the subpass the command
    /// begins (its load operations and what it records until its end).
    pub second_begun: bool,
    /// A subpass dependency that layout transitions at its boundary happen
    /// after: their second halves' stages ([`ResolvedBarrier::then`]).
    pub then: Option<StageSet>,
    /// [`ResolvedBarrier::pass_dep`], [`ResolvedBarrier::follows`],
    /// [`ResolvedBarrier::precedes`].
    pub pass_dep: Option<u32>,
    pub follows: u64,
    pub precedes: u64,
    /// A render pass's layout transition: its first and second access
    /// scopes, the unions of its first and second sets of dependencies' own
    /// ([`PreScopes::with_sets`]), not the scopes of their unioned masks.
    pub src_access: Option<StageAccessSet>,
    pub dst_access: Option<StageAccessSet>,
    /// The chain part of a view-local dependency or barrier
    /// (`crate::ir::render::PassScope::chain_only`), with the slot of its
    /// destination subpass: what it orders goes to that slot's `ended_`
    /// fields of [`SyncVal`], which no access reads and the dependencies
    /// from that subpass chain through.
    pub chain_only: Option<u8>,
    /// The part of a view-local dependency or barrier that holds the
    /// accesses made before the render pass instance only
    /// (`crate::ir::render::PassScope::before_only`).
    pub before_only: bool,
}

impl PreScopes {
    /// These scopes, for a layout transition whose sets of dependencies
    /// have the masks `sets` (`crate::ir::renderpass::DependencySets`;
    /// empty: not a transition, nothing changes): a write is available to
    /// the transition when one dependency of its first set has it in its
    /// first access scope, and the transition's write is visible to what
    /// one of its second set has in its second access scope.
    pub(crate) fn with_sets(mut self, sets: &crate::ir::renderpass::DependencySets) -> PreScopes {
        let union = |masks: &[(PipelineStageFlags2, AccessFlags2)], side| {
            (!masks.is_empty()).then(|| {
                masks.iter().fold(StageAccessSet::EMPTY, |set, &(s, a)| {
                    set.union(access_scope(s, a, side))
                })
            })
        };
        self.src_access = union(&sets.first, Side::Src);
        self.dst_access = union(&sets.second, Side::Dst);
        self
    }

    /// The scopes of a pipeline barrier recorded inside the open subpass
    /// with slot `slot`: the subpass's commands before it, and those after
    /// it ([`FirstIn::Open`]; what it orders goes to the `local_` fields,
    /// which only the subpass's later accesses read).
    pub(crate) fn in_subpass(slot: u8) -> PreScopes {
        PreScopes {
            first_in: FirstIn::Open(slot),
            second_begun: true,
            then: None,
            pass_dep: None,
            follows: 0,
            precedes: 0,
            src_access: None,
            dst_access: None,
            chain_only: None,
            before_only: false,
        }
    }

    /// The scopes of `scope` ([`crate::ir::render::PassScope`]) at
    /// boundary `boundary` (the subpass a command begins, or the subpass
    /// count at the end): a `srcSubpass` by its slot, `EXTERNAL` as the
    /// accesses before the instance; [`FirstIn::Unknown`] where the
    /// checker no longer tells them apart ([`SUBPASS_SLOTS`]: a
    /// `srcSubpass` whose slot a later subpass took before `boundary`,
    /// `EXTERNAL` past the first slot reuse).
    pub(crate) fn of(scope: crate::ir::render::PassScope, boundary: u32) -> PreScopes {
        use crate::ir::renderpass::SubpassIndex;
        let slots = SUBPASS_SLOTS as u32;
        let at_end = scope.dst == SubpassIndex::External;
        let first_in = match scope.src {
            SubpassIndex::External if boundary < slots => FirstIn::Before,
            // At a subpass's begin its slot was taken already; at the end
            // no slot was taken.
            SubpassIndex::Subpass(k)
                if k < boundary && (boundary - k < slots || (at_end && boundary - k == slots)) =>
            {
                FirstIn::Slot((k % slots) as u8)
            }
            _ => FirstIn::Unknown,
        };
        PreScopes {
            first_in,
            second_begun: !at_end,
            then: scope.then_dst.map(|d| exec_scope(d, Side::Dst)),
            pass_dep: scope.dependency,
            follows: scope.follows,
            precedes: scope.precedes,
            src_access: None,
            dst_access: None,
            chain_only: match scope.dst {
                SubpassIndex::Subpass(k) if scope.chain_only => Some((k % slots) as u8),
                _ => None,
            },
            before_only: scope.before_only,
        }
    }
}

/// A barrier with its scopes computed by [`crate::vk::scope`]; `range` restricts
/// the access scopes (not the execution dependency, unless `local`) to a
/// buffer range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResolvedBarrier {
    pub src_exec: StageSet,
    pub dst_exec: StageSet,
    pub src_access: StageAccessSet,
    pub dst_access: StageAccessSet,
    pub range: Option<MemRange>,
    /// Event slots in the first synchronization scope: the second half of
    /// a `vkCmdWaitEvents2` barrier, whose first scope is the event's
    /// signal operation ([`ResolvedBarrier::event_wait`]). 0 otherwise.
    pub src_events: u64,
    /// Event slots in the second synchronization scope: the first half of
    /// a `vkCmdSetEvent2` barrier, whose second scope is the signal
    /// operation ([`ResolvedBarrier::event_set`]), or a `vkCmdSetEvent`
    /// ([`ResolvedBarrier::event_set1`]). 0 otherwise.
    pub dst_events: u64,
    /// An implicit dependency of a rendering instance, with the command
    /// index of the instance's `vkCmdBeginRendering`
    /// ([`ResolvedBarrier::implicit`]): its execution dependency too is
    /// limited to `range`, its first scopes hold only accesses recorded at
    /// or after that index (an earlier access reaches it only through a
    /// chain, [`Reach::Chain`]), and what it orders goes to the `local_`
    /// fields of [`SyncVal`], which only later accesses of the same
    /// instance read. `None` for every barrier a program records.
    pub local: Option<u32>,
    /// A render pass's subpass dependency or layout transition
    /// ([`crate::ir::render::PassScope`]): whose first scopes hold only
    /// the accesses of its `srcSubpass` ([`FirstIn::Slot`]) or those before
    /// the render pass instance (`VK_SUBPASS_EXTERNAL`,
    /// [`FirstIn::Before`]); another access is in them through a chain
    /// only, and only through what can order it before an access of that
    /// scope ([`SyncVal::chain_view`]). [`FirstIn::All`] for every other
    /// barrier.
    pub first_in: FirstIn,
    /// Its `dstSubpass` is the subpass the command begins: its second
    /// scopes hold only that subpass's accesses, so what it orders goes to
    /// the `local_` fields of [`SyncVal`], as an implicit dependency's.
    pub second_begun: bool,
    /// A render pass's subpass dependency whose availability operations
    /// automatic layout transitions at its boundary happen after
    /// ([`crate::ir::render::PassScope::then_dst`]): what it orders is
    /// ordered before those transitions ([`PERFORMED_TRANSITION`]) and so
    /// before their second halves' second synchronization scopes, these
    /// stages. `None` for every other barrier.
    pub then: Option<StageSet>,
    /// A render pass's subpass dependency: its index in `pDependencies`,
    /// which a transition of the same call names in its `follows` or
    /// `precedes` ([`SyncVal::apply_each`]). `None` for every other
    /// barrier.
    pub pass_dep: Option<u32>,
    /// A render pass's layout transition: the dependencies of its call it
    /// happens after (bits of their indices,
    /// [`crate::ir::render::PassScope::follows`]); 0 for every other
    /// barrier.
    pub follows: u64,
    /// A render pass's layout transition: the dependencies of its call it
    /// happens before ([`crate::ir::render::PassScope::precedes`]); 0 for
    /// every other barrier.
    pub precedes: u64,
    /// A layout transition's write is available at the transition itself
    /// ("writes performed by a layout transition are automatically made
    /// available"), so this barrier makes it visible when its first
    /// synchronization scope holds the transition ([`available_at_once`]).
    /// `false`: only when its first access scope holds the write too
    /// (`ALL_COMMANDS` with `MEMORY_WRITE`, [`first_access_scope`]): the
    /// layers' reading (D28,
    /// [`crate::Semantics::transition_write_needs_memory_write`]).
    pub transition_at_once: bool,
    /// [`PreScopes::chain_only`]: the slot whose `ended_` fields take what
    /// it orders. `None` for every other barrier.
    pub chain_only: Option<u8>,
    /// [`PreScopes::before_only`]: it holds only values made before the
    /// open render pass instance ([`SyncVal::tag`] 0). `false` for every
    /// other barrier.
    pub before_only: bool,
}

/// Whether a synchronization scope holds every stage of the queue
/// (`ALL_COMMANDS`; `BOTTOM_OF_PIPE` first, `TOP_OF_PIPE` second; or
/// every stage named): then it holds the operations in no stage too, "all
/// operations performed by all commands supported on the queue" (layout
/// transitions, queue family release and acquire operations). A union of
/// narrower scopes of several barriers is not one (`docs/semantics.md`,
/// "Layout transitions and `ALL_COMMANDS`").
pub(crate) fn all_commands(s: StageSet) -> bool {
    s.0 & StageSet::ALL_DEVICE.0 == StageSet::ALL_DEVICE.0
}

/// The pseudo stage [`Stage::ImageLayoutTransition`] as a set. In a
/// value's chain (`order`, `exec`): an `ALL_COMMANDS` second scope
/// reached it, so every later layout transition is ordered after it
/// ([`chain_scope`]). In a barrier's first synchronization scope: the
/// barrier performs a transition, so its second half follows the
/// transition and continues such a chain ([`ResolvedBarrier::of`]).
const TRANSITION_STAGE: StageSet = StageSet(1 << Stage::ImageLayoutTransition as u32);

/// The stages an operation of a rendering instance (a subpass, a dynamic
/// rendering instance) can be in: `DRAW_INDIRECT` and the graphics stages.
/// A chain between a scope limited to one instance and any other runs
/// through a stage shared by both *and* an operation of the instance, so
/// only through these (review36: a barrier to `COPY` before a render
/// pass chained into a dependency `0->1` from `ALL_COMMANDS`, which holds
/// no copy of subpass 0). The two marks of no stage are kept:
/// [`TRANSITION_STAGE`] and [`PERFORMED_TRANSITION`] follow their own
/// rules.
const INSTANCE_CHAIN: StageSet = StageSet(
    StageSet::GRAPHICS.0 | 1 << Stage::DrawIndirect as u32 | TRANSITION_STAGE.0 | PERFORMED_TRANSITION.0,
);

/// `s` as far as a chain through a scope limited to one rendering instance
/// goes ([`INSTANCE_CHAIN`]).
fn through_instance(s: StageSet) -> StageSet {
    StageSet(s.0 & INSTANCE_CHAIN.0)
}

/// A second synchronization scope as a value's chain keeps it: with
/// [`TRANSITION_STAGE`] when the scope holds every stage
/// ([`all_commands`]), so that a later layout transition, which no stage
/// names, is ordered after what it ordered ([`ordered_before_transition`]),
/// and its barrier's second half continues the chain. One barrier's scope
/// alone sets it.
fn chain_scope(second: StageSet) -> StageSet {
    if all_commands(second) {
        second.union(TRANSITION_STAGE)
    } else {
        second
    }
}

/// In a value's chain (`order`, `exec`): the value is ordered before a
/// layout transition performed after the value (the first scope of the
/// barrier that performed it held the value, or of a subpass dependency
/// the transition happens after: "happens-after the availability
/// operations"), so a later first synchronization scope that holds every
/// stage, which holds that transition ([`all_commands`]), holds the value
/// too. Not [`TRANSITION_STAGE`]: a later transition is not ordered after
/// the value by the first one (transitions keep submission order among
/// themselves, which orders nothing else). Only first scopes not limited
/// to a subpass or a rendering instance hold it (one limited so holds no
/// transition made outside), and a render pass's own transitions only
/// once its instance has ended ([`SyncVal::close_pass`] moves what its
/// dependencies ordered to `past_order`). A bit of no stage.
const PERFORMED_TRANSITION: StageSet = StageSet(1 << 31);

/// Whether barrier `b` performs a layout transition: its first
/// synchronization scope has [`TRANSITION_STAGE`] ([`ResolvedBarrier::of`]):
/// a pipeline barrier's, the first half of a `vkCmdSetEvent2` barrier's
/// ([`ResolvedBarrier::event_set`]) or a `vkCmdWaitEvents` barrier's
/// ([`ResolvedBarrier::event_wait1`]).
pub(crate) fn performs_transition(b: &ResolvedBarrier) -> bool {
    b.src_exec.intersects(TRANSITION_STAGE)
}

/// What a value's chain keeps when barrier `b`'s first scope holds it.
///
/// Its second scope, with a later layout transition when that holds every
/// stage, unless it holds only the accesses of one subpass or instance;
/// and, when a layout transition happens after `b`'s first scope, that
/// transition ([`PERFORMED_TRANSITION`]): `b` performs one (a pipeline
/// barrier, an event's, a render pass's automatic one), or it is a subpass
/// dependency whose availability operations a render pass's automatic
/// transition happens after, and then the second scopes of those
/// transitions' second halves too ([`ResolvedBarrier::then`]). A render
/// pass's land in the `local_` fields (`second_begun`) until the instance's
/// end, where a dependency from `EXTERNAL` of the same instance does not
/// look: only a recorded barrier after the end or a later instance's
/// dependency from `EXTERNAL` meets the mark, as the transition is in
/// their first scopes only.
fn second_after(b: &ResolvedBarrier) -> StageSet {
    let second = second_scope(b, b.dst_exec);
    if (performs_transition(b) || b.then.is_some()) && b.local.is_none() {
        second
            .union(b.then.map_or(StageSet::EMPTY, |t| second_scope(b, t)))
            .union(PERFORMED_TRANSITION)
    } else {
        second
    }
}

/// Stages `s` of barrier `b`'s second side as a chain keeps them: as they
/// are where its second scopes hold one subpass's or instance's accesses
/// only (they land in the `local_` fields), else with every logically
/// later stage ([`chain_scope`]).
fn second_scope(b: &ResolvedBarrier, s: StageSet) -> StageSet {
    if b.local.is_some() || b.second_begun {
        s
    } else {
        chain_scope(s)
    }
}

/// Whether a write is available at the operation that performs it, so
/// that a dependency whose first synchronization scope holds it makes it
/// visible without its first access scope holding it: a queue family
/// release or acquire operation's and a layout transition's ("writes
/// performed by a layout transition are automatically made available";
/// "writes performed by those operations are automatically made
/// available"). For a transition, unless the barrier asks for its first
/// access scope ([`ResolvedBarrier::transition_at_once`]).
pub(crate) fn available_at_once(sa: StageAccess) -> bool {
    sa.is_ownership_transfer() || sa.is_layout_transition()
}

/// The first access scope of a source (stage, access) mask pair, with a
/// layout transition's write ([`StageAccess::ImageLayoutTransition`]) when
/// the stage mask names every stage (`ALL_COMMANDS`: "all operations
/// performed by all commands supported on the queue") and the access mask
/// has `MEMORY_WRITE` ("all write accesses"; no other flag names a
/// transition's write). The specification needs no access flag for it
/// (the write is available at once, [`available_at_once`]); the layers
/// since 1.4 hold it only so (D28,
/// [`ResolvedBarrier::without_transition_at_once`]).
fn first_access_scope(stages: PipelineStageFlags2, access: AccessFlags2) -> StageAccessSet {
    let scope = access_scope(stages, access, Side::Src);
    if access.contains(AccessFlags2::MEMORY_WRITE) && all_commands(exact_scope(stages)) {
        scope.union(StageAccessSet::single(StageAccess::ImageLayoutTransition))
    } else {
        scope
    }
}

impl ResolvedBarrier {
    /// Computes a barrier's scopes and locates its range. One that performs
    /// a layout transition has [`TRANSITION_STAGE`] in its first
    /// synchronization scope: its second half happens after the
    /// transition, so a chain that reached every later transition
    /// continues into its second scopes.
    pub fn of(b: &Barrier, layout: &Layout) -> ResolvedBarrier {
        let own = if b.transition {
            TRANSITION_STAGE
        } else {
            StageSet::EMPTY
        };
        ResolvedBarrier {
            src_exec: exec_scope(b.src_stage_mask, Side::Src).union(own),
            dst_exec: exec_scope(b.dst_stage_mask, Side::Dst),
            src_access: first_access_scope(b.src_stage_mask, b.src_access_mask),
            dst_access: access_scope(b.dst_stage_mask, b.dst_access_mask, Side::Dst),
            range: b.region.map(|r| layout.at(r)),
            src_events: 0,
            dst_events: 0,
            local: None,
            first_in: FirstIn::All,
            second_begun: false,
            then: None,
            pass_dep: None,
            follows: 0,
            precedes: 0,
            transition_at_once: true,
            chain_only: None,
            before_only: false,
        }
    }

    /// Whether the first synchronization scope holds an access in `stage`
    /// by its stage: a stage it names (expanded), or a layout transition
    /// when it holds every stage ([`all_commands`]).
    fn first_holds(&self, stage: Stage) -> bool {
        if stage == Stage::ImageLayoutTransition {
            all_commands(self.src_exec)
        } else {
            self.src_exec.contains(stage)
        }
    }

    /// The barrier whose second half no chain through a layout
    /// transition reaches: the layers' reading (D27,
    /// [`crate::Semantics::transition_outside_all_commands_second`]).
    pub(crate) fn without_transition_chain(self) -> Self {
        ResolvedBarrier {
            src_exec: StageSet(self.src_exec.0 & !TRANSITION_STAGE.0),
            ..self
        }
    }

    /// The barrier with no layout transition's write in its first access
    /// scope, whatever its masks: the 1.3.239 layer's reading (D14,
    /// [`crate::Semantics::transition_outside_all_commands_first`]).
    pub(crate) fn without_transition_access(self) -> Self {
        let t = StageAccessSet::single(StageAccess::ImageLayoutTransition);
        ResolvedBarrier {
            src_access: StageAccessSet(self.src_access.0 & !t.0),
            ..self.without_transition_at_once()
        }
    }

    /// The barrier that makes a layout transition's write available (and
    /// visible) only when its first access scope holds it: the 1.4
    /// layers' reading (D28,
    /// [`crate::Semantics::transition_write_needs_memory_write`]).
    pub(crate) fn without_transition_at_once(self) -> Self {
        ResolvedBarrier {
            transition_at_once: false,
            ..self
        }
    }

    /// [`ResolvedBarrier::of`] for a barrier a render pass command makes
    /// before its accesses, with the scopes `scopes` says.
    pub(crate) fn of_pass(b: &Barrier, layout: &Layout, scopes: PreScopes) -> ResolvedBarrier {
        let of = ResolvedBarrier::of(b, layout);
        ResolvedBarrier {
            src_access: scopes.src_access.unwrap_or(of.src_access),
            dst_access: scopes.dst_access.unwrap_or(of.dst_access),
            first_in: scopes.first_in,
            second_begun: scopes.second_begun,
            then: scopes.then,
            pass_dep: scopes.pass_dep,
            follows: scopes.follows,
            precedes: scopes.precedes,
            chain_only: scopes.chain_only,
            before_only: scopes.before_only,
            ..of
        }
    }

    /// An implicit dependency of a rendering instance
    /// ([`crate::ir::render::ImplicitDependency`]) whose
    /// `vkCmdBeginRendering` is command `begin`: its stages and accesses
    /// on both sides, with exact execution scopes (the stages named, not
    /// the logically earlier or later ones), over its region.
    pub fn implicit(
        d: &crate::ir::render::ImplicitDependency,
        layout: &Layout,
        begin: u32,
    ) -> ResolvedBarrier {
        let exec = crate::vk::scope::exact_scope(d.stages);
        ResolvedBarrier {
            src_exec: exec,
            dst_exec: exec,
            src_access: access_scope(d.stages, d.access, Side::Src),
            dst_access: access_scope(d.stages, d.access, Side::Dst),
            range: Some(layout.at(d.region)),
            src_events: 0,
            dst_events: 0,
            local: Some(begin),
            first_in: FirstIn::All,
            second_begun: false,
            then: None,
            pass_dep: None,
            follows: 0,
            precedes: 0,
            transition_at_once: true,
            chain_only: None,
            before_only: false,
        }
    }

    /// The first half of barrier `b` of a `vkCmdSetEvent2` whose event has
    /// slot `slot` (< 64): `b`'s first scopes, and as second scope only the
    /// event signal operation, which no stage names: the slot.
    ///
    /// A barrier with a layout transition performs it at the set: the
    /// set's second synchronization scope "includes only the event signal
    /// operation, and any ... image layout transitions defined by
    /// pDependencyInfo", and its first scopes include those transitions
    /// too, so the transition comes after the first half and before the
    /// signal. As for a pipeline barrier ([`ResolvedBarrier::of`]), the
    /// first synchronization scope keeps [`TRANSITION_STAGE`]: a chain that
    /// an `ALL_COMMANDS` second scope started reaches the transition, and
    /// through it the signal; what the half orders is before the
    /// transition ([`PERFORMED_TRANSITION`]). The transition's write gets
    /// the slot ([`SyncVal::transition`]), so the wait orders it and makes
    /// it visible to its second access scope; a command between the set
    /// and the wait is not after it.
    pub fn event_set(b: &Barrier, layout: &Layout, slot: u32) -> ResolvedBarrier {
        ResolvedBarrier {
            dst_exec: StageSet::EMPTY,
            dst_access: StageAccessSet::EMPTY,
            dst_events: 1u64 << slot,
            ..ResolvedBarrier::of(b, layout)
        }
    }

    /// A `vkCmdSetEvent` with stage mask `stage_mask`, whose event has
    /// slot `slot` (< 64): an execution dependency from `stage_mask` to the
    /// signal operation (the slot), with no access scope ("it does not
    /// define an access scope"). It makes nothing available: a write it
    /// reaches only gets the slot in [`SyncVal::exec_events`], for the
    /// wait's first access scope.
    pub fn event_set1(stage_mask: crate::vk::flags::PipelineStageFlags2, slot: u32) -> ResolvedBarrier {
        ResolvedBarrier {
            src_exec: exec_scope(stage_mask, Side::Src),
            dst_exec: StageSet::EMPTY,
            src_access: StageAccessSet::EMPTY,
            dst_access: StageAccessSet::EMPTY,
            range: None,
            src_events: 0,
            dst_events: 1u64 << slot,
            local: None,
            first_in: FirstIn::All,
            second_begun: false,
            then: None,
            pass_dep: None,
            follows: 0,
            precedes: 0,
            transition_at_once: true,
            chain_only: None,
            before_only: false,
        }
    }

    /// Barrier `b` of a `vkCmdWaitEvents` waiting for the events whose
    /// slots are `slots`: as first synchronization scope only the signal
    /// operations (the slots), and as first access scope `b`'s source
    /// (stage, access) pairs, which hold only accesses that happened
    /// before one of the signals ("the first access scope is limited to
    /// accesses in the pipeline stages determined by the source stage
    /// mask"; `barrier_effect` asks [`SyncVal::exec_events`]); `b`'s
    /// second scopes.
    ///
    /// A barrier with a layout transition performs it as part of this
    /// memory dependency, as a pipeline barrier does: after the
    /// availability operation at the wait, before the visibility
    /// operation ("Image Layout Transitions"). So the first
    /// synchronization scope keeps [`TRANSITION_STAGE`]
    /// ([`ResolvedBarrier::of`]), and [`ordered_before_transition`] asks the
    /// slots.
    pub fn event_wait1(b: &Barrier, layout: &Layout, slots: u64) -> ResolvedBarrier {
        let of = ResolvedBarrier::of(b, layout);
        ResolvedBarrier {
            src_exec: StageSet(of.src_exec.0 & TRANSITION_STAGE.0),
            src_events: slots,
            ..of
        }
    }

    /// The second half of barrier `b` of a `vkCmdWaitEvents2` for the event
    /// with slot `slot` (< 64): as first scope only the signal operation
    /// (the slot), and `b`'s second scopes. It performs no layout
    /// transition (the set did, before the signal: its write has the slot).
    pub fn event_wait(b: &Barrier, layout: &Layout, slot: u32) -> ResolvedBarrier {
        ResolvedBarrier {
            src_exec: StageSet::EMPTY,
            src_access: StageAccessSet::EMPTY,
            src_events: 1u64 << slot,
            ..ResolvedBarrier::of(b, layout)
        }
    }
}

/// The synchronization value of one recorded access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SyncVal {
    /// The access itself.
    pub sa: StageAccess,
    /// For a read: the stages ordered after it (its execution-dependency
    /// chain). For a write: the stages ordered after an availability
    /// operation that included it; empty until some barrier's first access
    /// scope held the write.
    pub order: StageSet,
    /// For a write: the (stage, access) pairs it has been made visible to.
    /// Host pairs arrive here only once the barrier that made the write
    /// visible to the host has been submitted and waited for: the
    /// device-to-host domain operation happens when the barrier executes,
    /// and the host sees it only through a fence.
    pub visible: StageAccessSet,
    /// For a write: host pairs a barrier recorded since the last submit
    /// makes it visible to (not executed yet).
    pub host_pending: StageAccessSet,
    /// For a write: host pairs made visible by a submitted barrier not yet
    /// waited for.
    pub host_submitted: StageAccessSet,
    /// Submitted with `vkQueueSubmit`.
    pub submitted: bool,
    /// Submitted and then waited for with a fence.
    pub fenced: bool,
    /// The event slots whose signal operation this access is ordered
    /// before: for a read, its chain reached the first half of a set's
    /// barrier; for a write, an availability operation that included it
    /// did (the first half of a set made it available, or its chain
    /// reached one). A wait's barrier for that event applies to it as a
    /// pipeline barrier whose first scope it is in. The slot's bit is
    /// cleared from every value when the event is set again (after a
    /// reset), so it always means the event's current set.
    pub events: u64,
    /// For a write: the stages ordered after it by an execution
    /// dependency (chain), whether or not one made it available (a
    /// superset of `order`). Only a `vkCmdSetEvent` asks for it: a write
    /// that happened before its signal is in the first access scope of
    /// its wait, which makes it available there. Empty for a read, whose
    /// `order` is its execution chain.
    pub exec: StageSet,
    /// For a write: the event slots whose signal operation it happened
    /// before, made available or not (a superset of `events`): a
    /// `vkCmdWaitEvents` of that event makes it available when its first
    /// access scope holds it. 0 for a read, whose `events` say it.
    pub exec_events: u64,
    /// What the implicit dependencies of the current (or last) rendering
    /// instance added, kept apart from `order`, `visible` and `exec` (same
    /// meanings): their second scopes hold only accesses of that instance,
    /// so only its accesses read these ([`SyncVal::within`]); a later
    /// recorded barrier chains through them, as through any dependency.
    /// Moved to `past_order` and `past_exec` when the next instance begins
    /// ([`SyncVal::close_instance`]).
    pub local_order: StageSet,
    pub local_visible: StageAccessSet,
    pub local_exec: StageSet,
    /// What the `local_` fields held when each subpass of the open render
    /// pass instance ended, by slot ([`SyncVal::end_subpass`],
    /// [`SUBPASS_SLOTS`]): no access reads these; a recorded barrier
    /// chains through them, and so does a subpass dependency whose
    /// `srcSubpass` is that subpass ([`FirstIn::Slot`]).
    pub ended_order: [StageSet; SUBPASS_SLOTS],
    pub ended_exec: [StageSet; SUBPASS_SLOTS],
    /// What implicit and subpass dependencies of instances before that
    /// ordered: no access reads these; a recorded barrier chains through
    /// them, and so does a subpass dependency from `VK_SUBPASS_EXTERNAL`
    /// (their second scopes held commands before the render pass
    /// instance), not an implicit dependency, nor one from a subpass.
    pub past_order: StageSet,
    pub past_exec: StageSet,
    /// Where the access was made: 0 outside the open render pass
    /// instance (before it), 1 + slot in a subpass of it, [`TAG_NONE`]
    /// in no scope a subpass dependency names.
    pub tag: u8,
}

/// The host's (stage, access) pairs.
pub(crate) const HOST_PAIRS: StageAccessSet =
    StageAccessSet((1 << StageAccess::HostRead as u64) | (1 << StageAccess::HostWrite as u64));

impl SyncVal {
    pub(crate) fn fresh(sa: StageAccess) -> Self {
        SyncVal {
            sa,
            order: StageSet::EMPTY,
            visible: StageAccessSet::EMPTY,
            host_pending: StageAccessSet::EMPTY,
            host_submitted: StageAccessSet::EMPTY,
            submitted: false,
            fenced: false,
            events: 0,
            exec: StageSet::EMPTY,
            exec_events: 0,
            local_order: StageSet::EMPTY,
            local_visible: StageAccessSet::EMPTY,
            local_exec: StageSet::EMPTY,
            ended_order: [StageSet::EMPTY; SUBPASS_SLOTS],
            ended_exec: [StageSet::EMPTY; SUBPASS_SLOTS],
            past_order: StageSet::EMPTY,
            past_exec: StageSet::EMPTY,
            tag: 0,
        }
    }

    /// The value of an access made in the subpass with slot `slot` of a
    /// render pass instance ([`SyncVal::tag`]).
    pub(crate) fn fresh_in_subpass(sa: StageAccess, slot: u8) -> Self {
        SyncVal {
            tag: slot + 1,
            ..SyncVal::fresh(sa)
        }
    }

    /// A rendering instance begins (or a render pass does): what the
    /// last dynamic one's implicit dependencies ordered is no longer seen
    /// by any access, and chains only into recorded barriers and
    /// dependencies from `VK_SUBPASS_EXTERNAL` (`past_`).
    pub(crate) fn close_instance(self) -> Self {
        SyncVal {
            past_order: self.past_order.union(self.local_order),
            past_exec: self.past_exec.union(self.local_exec),
            local_order: StageSet::EMPTY,
            local_visible: StageAccessSet::EMPTY,
            local_exec: StageSet::EMPTY,
            ..self
        }
    }

    /// The subpass with slot `slot` ended: what its implicit and subpass
    /// dependencies ordered is no longer seen by any access, and chains
    /// into recorded barriers and dependencies from that subpass
    /// (`ended_`).
    pub(crate) fn end_subpass(self, slot: u8) -> Self {
        let mut out = SyncVal {
            local_order: StageSet::EMPTY,
            local_visible: StageAccessSet::EMPTY,
            local_exec: StageSet::EMPTY,
            ..self
        };
        let k = slot as usize;
        out.ended_order[k] = out.ended_order[k].union(self.local_order);
        out.ended_exec[k] = out.ended_exec[k].union(self.local_exec);
        out
    }

    /// A subpass with slot `slot` begins: the subpass that had the slot
    /// before is no dependency's `srcSubpass` any more
    /// ([`SUBPASS_SLOTS`]); its accesses leave every subpass scope
    /// ([`TAG_NONE`]) and what ordered them chains into recorded barriers
    /// only (`past_`; no dependency from `VK_SUBPASS_EXTERNAL` is placed
    /// after a slot was reused).
    pub(crate) fn reuse_slot(self, slot: u8) -> Self {
        let k = slot as usize;
        let mut out = SyncVal {
            past_order: self.past_order.union(self.ended_order[k]),
            past_exec: self.past_exec.union(self.ended_exec[k]),
            tag: if self.tag == slot + 1 { TAG_NONE } else { self.tag },
            ..self
        };
        out.ended_order[k] = StageSet::EMPTY;
        out.ended_exec[k] = StageSet::EMPTY;
        out
    }

    /// The render pass instance ended (after the barriers of its end):
    /// every access is before the next one, and what its subpasses'
    /// dependencies ordered chains into recorded barriers and dependencies
    /// from `VK_SUBPASS_EXTERNAL` only.
    pub(crate) fn close_pass(self) -> Self {
        let mut out = self.close_instance();
        for k in 0..SUBPASS_SLOTS {
            out.past_order = out.past_order.union(out.ended_order[k]);
            out.past_exec = out.past_exec.union(out.ended_exec[k]);
        }
        SyncVal {
            ended_order: [StageSet::EMPTY; SUBPASS_SLOTS],
            ended_exec: [StageSet::EMPTY; SUBPASS_SLOTS],
            tag: 0,
            ..out
        }
    }

    /// Every `ended_` chain, unioned.
    fn all_ended(self) -> (StageSet, StageSet) {
        (0..SUBPASS_SLOTS).fold((StageSet::EMPTY, StageSet::EMPTY), |(o, e), k| {
            (o.union(self.ended_order[k]), e.union(self.ended_exec[k]))
        })
    }

    /// The value as barrier `b`'s first scopes see it through chains
    /// (module docs of `crate::ir::render`; [`ResolvedBarrier::local`],
    /// [`ResolvedBarrier::first_in`]): an implicit dependency through
    /// what its own instance's dependencies ordered, a subpass dependency
    /// from a subpass through what that subpass's did, one from
    /// `VK_SUBPASS_EXTERNAL` through what dependencies into commands
    /// before the instance did, a recorded barrier through all of it.
    fn chain_view(self, b: &ResolvedBarrier) -> Self {
        // A first scope limited to one instance's operations continues the
        // value's chains from unlimited second scopes (`order`, `exec`)
        // through the stages those operations can be in only; an
        // unlimited one continues the chains from second scopes limited to
        // an instance (`local_`, `ended_`, `past_`) the same way.
        let limited = |v: Self| SyncVal {
            order: through_instance(v.order),
            exec: through_instance(v.exec),
            ..v
        };
        match b.first_in {
            FirstIn::Slot(k) => SyncVal {
                order: through_instance(self.order).union(self.ended_order[k as usize]),
                exec: through_instance(self.exec).union(self.ended_exec[k as usize]),
                ..self
            },
            FirstIn::Before => SyncVal {
                order: self.order.union(through_instance(self.past_order)),
                exec: self.exec.union(through_instance(self.past_exec)),
                ..self
            },
            FirstIn::Unknown => self,
            FirstIn::All if b.local.is_some() => limited(self).within(),
            FirstIn::Open(_) => limited(self).within(),
            FirstIn::All => {
                let (eo, ee) = self.all_ended();
                SyncVal {
                    order: self.order.union(through_instance(
                        self.local_order.union(eo).union(self.past_order),
                    )),
                    exec: self
                        .exec
                        .union(through_instance(self.local_exec.union(ee).union(self.past_exec))),
                    ..self.within()
                }
            }
        }
    }

    /// Whether barrier `b`'s first scopes may hold this access by its own
    /// stage (not only through a chain): a subpass dependency's from the
    /// subpass that just ended only if the access was made there.
    fn directly_in(self, b: &ResolvedBarrier) -> bool {
        match b.first_in {
            FirstIn::All => true,
            FirstIn::Before => self.tag == 0,
            FirstIn::Slot(k) | FirstIn::Open(k) => self.tag == k + 1,
            FirstIn::Unknown => false,
        }
    }

    /// Whether this read is at least as ordered as `other` in every way a
    /// later barrier or dependency can ask (its chains, its events, its
    /// subpass), so that `other`, of the same stage, stands for it.
    pub(crate) fn read_covers(self, other: SyncVal) -> bool {
        let sup = |a: StageSet, b: StageSet| b.0 & !a.0 == 0;
        (self.fenced || !other.fenced)
            && sup(self.order, other.order)
            && sup(self.local_order, other.local_order)
            && (0..SUBPASS_SLOTS).all(|k| sup(self.ended_order[k], other.ended_order[k]))
            && sup(self.past_order, other.past_order)
            && other.events & !self.events == 0
            && (other.tag == TAG_NONE || other.tag == self.tag)
    }

    /// The value as an access of the same rendering instance sees it: what
    /// the instance's implicit dependencies ordered counts with the rest.
    pub(crate) fn within(self) -> Self {
        SyncVal {
            order: self.order.union(self.local_order),
            visible: self.visible.union(self.local_visible),
            exec: self.exec.union(self.local_exec),
            ..self
        }
    }

    /// The value of an image layout transition's write performed by barrier
    /// `b`, once `b` has executed. The transition happens after `b`'s
    /// availability operations and before its visibility operations, and
    /// "writes performed by a layout transition are automatically made
    /// available": as the second half of `b` (`IMAGE_LAYOUT_TRANSITION` to
    /// `b`'s second scopes, over `b`'s region, which holds the whole
    /// transition) makes it, it is available with `b`'s second
    /// synchronization scope ordered after it, and visible to `b`'s second
    /// access scope (host pairs pending until `b` is submitted and waited
    /// for, as for any write a barrier makes visible to the host).
    /// A render pass's transition into the layout of the subpass its
    /// command begins is ordered before that subpass's accesses only
    /// ([`ResolvedBarrier::second_begun`]: the `local_` fields).
    /// A `vkCmdSetEvent2`'s transition is before the set's signal
    /// operation only (`b` is the set's first half,
    /// [`ResolvedBarrier::event_set`]): its write gets the slot, available
    /// (in `events`) as it is at once, and nothing else.
    pub(crate) fn transition(b: &ResolvedBarrier) -> Self {
        if b.second_begun {
            return SyncVal {
                local_order: b.dst_exec,
                local_exec: b.dst_exec,
                local_visible: StageAccessSet(b.dst_access.0 & !HOST_PAIRS.0),
                tag: TAG_NONE,
                ..SyncVal::fresh(StageAccess::ImageLayoutTransition)
            };
        }
        SyncVal {
            order: chain_scope(b.dst_exec),
            exec: chain_scope(b.dst_exec),
            visible: StageAccessSet(b.dst_access.0 & !HOST_PAIRS.0),
            host_pending: StageAccessSet(b.dst_access.0 & HOST_PAIRS.0),
            events: b.dst_events,
            exec_events: b.dst_events,
            tag: if b.first_in == FirstIn::All { 0 } else { TAG_NONE },
            ..SyncVal::fresh(StageAccess::ImageLayoutTransition)
        }
    }

    /// Whether every access that races this write races `later`, a layout
    /// transition's write, too, now and after anything that can happen to
    /// both (barriers, submits, waits): `later` is ordered before no more
    /// than this write is, so it stands for this write, which the checker
    /// may drop. Every field only grows, and a barrier reaches a transition
    /// through its chain, which meets this write's larger chain too, or
    /// directly through a first scope that holds every stage, which holds
    /// this write too (its tag is `later`'s or `later` has none), so the
    /// relation, once true, stays true.
    /// A write that is neither a transition nor fenced is never covered: a
    /// later transition is ordered after `later` by submission order alone,
    /// but after such a write only by its own barrier.
    pub(crate) fn covers(self, later: SyncVal) -> bool {
        let sub = |a: StageAccessSet, b: StageAccessSet| a.0 & !b.0 == 0;
        // A host write races nothing later.
        if self.sa.stage() == Stage::Host {
            return true;
        }
        // A later transition is ordered after `later` whatever its barrier
        // (transitions are ordered among themselves), but after this write
        // only through its barrier's first scopes, unless this write is a
        // transition too or was completed by a fence wait.
        if !(self.sa.is_layout_transition() || self.fenced) {
            return false;
        }
        // How far each host pair has come: visible, submitted, pending.
        let host_at_least = |v: SyncVal, w: SyncVal| {
            let done = |x: SyncVal| StageAccessSet(x.visible.0 & HOST_PAIRS.0);
            sub(done(w), done(v))
                && sub(done(w).union(w.host_submitted), done(v).union(v.host_submitted))
                && sub(w.granted(), v.granted())
        };
        (self.fenced || !later.fenced)
            && (self.submitted || !later.submitted)
            && (self.fenced || later.order.0 & !self.order.0 == 0)
            && (self.fenced || sub(StageAccessSet(later.visible.0 & !HOST_PAIRS.0), self.visible))
            && (self.fenced || later.events & !self.events == 0)
            && (self.fenced || later.exec.0 & !self.exec.0 == 0)
            && (self.fenced || later.exec_events & !self.exec_events == 0)
            && (self.fenced || later.local_order.0 & !self.local_order.0 == 0)
            && (self.fenced || sub(later.local_visible, self.local_visible))
            && (self.fenced || later.local_exec.0 & !self.local_exec.0 == 0)
            && (self.fenced
                || (0..SUBPASS_SLOTS).all(|k| {
                    later.ended_order[k].0 & !self.ended_order[k].0 == 0
                        && later.ended_exec[k].0 & !self.ended_exec[k].0 == 0
                }))
            && (self.fenced || later.past_order.0 & !self.past_order.0 == 0)
            && (self.fenced || later.past_exec.0 & !self.past_exec.0 == 0)
            && (self.fenced || later.tag == TAG_NONE || later.tag == self.tag)
            && host_at_least(self, later)
    }

    /// The pairs a write is or will be visible to once the barriers already
    /// recorded have been submitted and waited for.
    pub fn granted(self) -> StageAccessSet {
        self.visible.union(self.host_pending).union(self.host_submitted)
    }

    /// The effect of one barrier on this value, `reach` telling whether the
    /// value's bytes lie in the barrier's (buffer) range.
    fn barrier_effect(self, b: &ResolvedBarrier, reach: Reach) -> Effect {
        let Some(in_range) = reach.in_range() else {
            return Effect::NONE;
        };
        // A view-local part for what came before the instance only.
        if b.before_only && self.tag != 0 {
            return Effect::NONE;
        }
        // A recorded barrier chains through what implicit and subpass
        // dependencies ordered (their second scopes meet its first); an
        // implicit dependency through what its own instance's did; a
        // subpass dependency from the subpass that ended through what that
        // subpass's did ([`SyncVal::chain_view`]). An access before an
        // implicit dependency's instance ([`Reach::Chain`]), or not of a
        // subpass dependency's `srcSubpass`, is in none of its scopes by
        // itself: through a chain only.
        let chain_only = reach == Reach::Chain;
        let this = self.chain_view(b);
        let direct_ok = !chain_only && self.directly_in(b);
        // An event's signal operation, reached by this value, is in the
        // first scope of its wait's barriers.
        let by_event = this.events & b.src_events != 0;
        // A first scope not limited to a subpass or a rendering instance
        // (a pipeline barrier outside one, or a dependency from
        // `EXTERNAL`, which holds what came before the begin).
        let unlimited = b.local.is_none() && matches!(b.first_in, FirstIn::All | FirstIn::Before);
        let second_after = second_after(b);
        // A chain meets the barrier's first scope: by a stage, or through
        // a layout transition performed since, when the first scope holds
        // every stage and is not limited to a subpass or an instance (then
        // it holds that transition, made outside any).
        let holds_past_transition = unlimited && all_commands(b.src_exec);
        let meets = |chain: StageSet| {
            chain.intersects(b.src_exec) || (holds_past_transition && chain.intersects(PERFORMED_TRANSITION))
        };
        if self.sa.is_write() {
            // Executed before the barrier: the write's stage is in its first
            // synchronization scope, or a chain from it (an availability
            // chain is one too) meets it, or it precedes a signal operation
            // the barrier waits for.
            let stage = this.sa.stage();
            let exec_in = (direct_ok && b.first_holds(stage))
                || meets(this.exec)
                || meets(this.order)
                || this.fenced
                || (this.exec_events | this.events) & b.src_events != 0;
            // Chained: an earlier barrier already made the write available
            // and its second scope meets this barrier's first scope. Direct:
            // the write is in this barrier's first access scope, and so in
            // its first synchronization scope: by its stage, or, for a
            // `vkCmdWaitEvents`, whose first synchronization scope is the
            // signals, by happening before one of them.
            // A write completed by a fence wait is available in the device
            // domain before every barrier recorded after the wait (the wait,
            // then the barrier's submit), whatever its first scope.
            // A write available at once (a layout transition's) needs only
            // to be in the first synchronization scope, whatever the range.
            let chained = meets(this.order) || this.fenced || by_event;
            let in_first = direct_ok && (b.first_holds(stage) || this.exec_events & b.src_events != 0);
            let direct = in_first
                && ((available_at_once(this.sa) && b.transition_at_once)
                    || (in_range && b.src_access.contains(this.sa)));
            let exec = if exec_in {
                Effect {
                    exec: second_after,
                    exec_events: b.dst_events,
                    ..Effect::NONE
                }
            } else {
                Effect::NONE
            };
            if chained || direct {
                // (Then it executed before the barrier too: `exec_in`.)
                return self.held_effect(b, in_range);
            }
            return exec;
        }
        let in_scope = (direct_ok && b.src_exec.contains(this.sa.stage())) || meets(this.order) || by_event;
        if in_scope {
            return self.held_effect(b, in_range);
        }
        Effect::NONE
    }

    /// What barrier `b` adds to this value when its first scopes hold it
    /// (for a write: it is made available, and executed, before `b`): its
    /// chain takes [`second_after`] and `b`'s event slots, and a write in
    /// `b`'s range (`in_range`) is made visible to `b`'s second access
    /// scope.
    fn held_effect(self, b: &ResolvedBarrier, in_range: bool) -> Effect {
        let second_after = second_after(b);
        if self.sa.is_write() {
            Effect {
                order: second_after,
                visible: if in_range {
                    b.dst_access
                } else {
                    StageAccessSet::EMPTY
                },
                events: b.dst_events,
                exec: second_after,
                exec_events: b.dst_events,
            }
        } else {
            Effect {
                order: second_after,
                events: b.dst_events,
                ..Effect::NONE
            }
        }
    }

    /// Applies the barriers of one dependency, each evaluated on the value
    /// before the dependency (barriers of one call do not chain).
    /// Applies barriers with their reach already decided.
    pub(crate) fn apply_each(self, effects: &[(ResolvedBarrier, Reach)]) -> Self {
        let mut out = self;
        let after = self.after_transitions(effects);
        for (b, reach) in effects {
            let mut e = self.barrier_effect(b, *reach);
            if b.pass_dep.is_some_and(|i| i < 64 && after & (1 << i) != 0) {
                e = e.union(self.through_transition(b, *reach));
            }
            if let Some(k) = b.chain_only {
                // The chain part of a view-local dependency or barrier: no
                // access of its subpass sees it; the dependencies from
                // that subpass chain through it (`ended_`).
                let k = k as usize;
                out.ended_order[k] = out.ended_order[k].union(e.order);
                out.ended_exec[k] = out.ended_exec[k].union(e.exec);
                continue;
            }
            if b.local.is_some() || b.second_begun {
                // An implicit dependency, or a subpass dependency into the
                // subpass begun: no events, no host pairs.
                out.local_order = out.local_order.union(e.order);
                out.local_visible = out.local_visible.union(e.visible);
                out.local_exec = out.local_exec.union(e.exec);
                continue;
            }
            out.events |= e.events;
            out.order = out.order.union(e.order);
            out.visible = out.visible.union(StageAccessSet(e.visible.0 & !HOST_PAIRS.0));
            out.host_pending = out.host_pending.union(StageAccessSet(e.visible.0 & HOST_PAIRS.0));
            out.exec = out.exec.union(e.exec);
            out.exec_events |= e.exec_events;
        }
        out
    }

    /// The subpass dependencies of one render pass call (bits of their
    /// indices) whose visibility operations a layout transition of the
    /// call ordered this value before: the transition happens before the
    /// visibility operations of each dependency of its second set
    /// ([`ResolvedBarrier::precedes`]). The value is before the transition
    /// when the transition's own barrier holds it (its first scopes, the
    /// union of its first set's: by stage, through a chain, or, for a
    /// write, made available and chained or in its range), or a dependency
    /// of its first set in the same call does (one that
    /// [`ResolvedBarrier::follows`] names: for a write, it made it
    /// available). Barriers of one call do not chain otherwise.
    fn after_transitions(self, effects: &[(ResolvedBarrier, Reach)]) -> u64 {
        let mut after = 0;
        for (t, reach) in effects.iter().filter(|(t, _)| t.precedes != 0) {
            let held = |b: &ResolvedBarrier, r: Reach| self.barrier_effect(b, r).order != StageSet::EMPTY;
            let before = held(t, *reach)
                || effects.iter().any(|(f, r)| {
                    f.pass_dep.is_some_and(|i| i < 64 && t.follows & (1 << i) != 0) && held(f, *r)
                });
            if before {
                after |= t.precedes;
            }
        }
        after
    }

    /// What barrier `b`, a dependency whose visibility operations a
    /// transition ordered this value before ([`SyncVal::after_transitions`]),
    /// adds to it: as if its first scopes held it (for a write, made
    /// available before the transition).
    ///
    /// Only its second scope, not what [`second_after`] adds: the value is
    /// ordered before the dependency's visibility operations, not before
    /// its availability operations, so not before the transitions that
    /// happen after those ([`ResolvedBarrier::then`]; tests/open-defects,
    /// "a missed write-after-read": a read of the last subpass, before
    /// its attachment's final transition, reached `1->EXTERNAL`'s second
    /// scope, and through the transition of another attachment after
    /// `1->EXTERNAL`'s availability operations `0->EXTERNAL`'s too).
    fn through_transition(self, b: &ResolvedBarrier, reach: Reach) -> Effect {
        reach.in_range().map_or(Effect::NONE, |in_range| {
            let second = second_scope(b, b.dst_exec);
            let held = self.held_effect(b, in_range);
            Effect {
                order: second,
                exec: if self.sa.is_write() {
                    second
                } else {
                    StageSet::EMPTY
                },
                ..held
            }
        })
    }

    pub fn apply(self, barriers: &[ResolvedBarrier], in_range: impl Fn(&ResolvedBarrier) -> Reach) -> Self {
        let effects: Vec<(ResolvedBarrier, Reach)> = barriers.iter().map(|b| (*b, in_range(b))).collect();
        self.apply_each(&effects)
    }
}

/// What one barrier adds to a value (see [`SyncVal`]'s fields): its
/// second synchronization scope to `order` (and, for a write, the pairs
/// of its second access scope to `visible`) when it orders the access
/// (for a write: makes it available, or continues its availability
/// chain), the event slots of its second scope to `events`; for a write
/// it executed before, its second scope to `exec` and `exec_events`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Effect {
    order: StageSet,
    visible: StageAccessSet,
    events: u64,
    exec: StageSet,
    exec_events: u64,
}

impl Effect {
    fn union(self, o: Effect) -> Effect {
        Effect {
            order: self.order.union(o.order),
            visible: self.visible.union(o.visible),
            events: self.events | o.events,
            exec: self.exec.union(o.exec),
            exec_events: self.exec_events | o.exec_events,
        }
    }

    const NONE: Effect = Effect {
        order: StageSet::EMPTY,
        visible: StageAccessSet::EMPTY,
        events: 0,
        exec: StageSet::EMPTY,
        exec_events: 0,
    };
}

/// How much of a barrier applies to some bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// The bytes are in the barrier's range (or it is global): execution
    /// and memory dependency.
    Full,
    /// Outside a buffer barrier's range: its execution dependency only.
    ExecOnly,
    /// Nothing (the 1.3.239 layer's range-limited buffer barriers; an
    /// implicit dependency outside its range).
    Nothing,
    /// An implicit dependency of a rendering instance and an access
    /// recorded before the instance (in its range): the access is not in
    /// its first scopes, but a dependency whose second scope meets them
    /// continues into it (an execution dependency chain, through what the
    /// instance's own dependencies ordered, [`SyncVal::within`]).
    Chain,
}

impl Reach {
    /// Whether the barrier's memory dependency applies to the bytes
    /// (`false`: its execution dependency only); `None` when nothing of
    /// it does.
    fn in_range(self) -> Option<bool> {
        match self {
            Reach::Full | Reach::Chain => Some(true),
            Reach::ExecOnly => Some(false),
            Reach::Nothing => None,
        }
    }
}

/// Whether a write `cur` is ordered after a prior read of value `r`: the
/// read is a host read (device work recorded after it is submitted after
/// it; host accesses follow program order), or it was waited for, or (for a
/// device write) an execution dependency orders the write's stage after it.
pub fn read_satisfied(r: SyncVal, cur: StageAccess) -> bool {
    let prior_host = r.sa.stage() == Stage::Host;
    let cur_host = cur.stage() == Stage::Host;
    prior_host || r.fenced || (!cur_host && r.order.contains(cur.stage()))
}

/// Whether access `cur` (read or write) conflicts with a prior write of
/// value `w`; if so, `(needs_barrier, needs_wait)`. `waw_visibility` is
/// D2: whether a later write needs the earlier one *visible* to it (the
/// layer) or only *available* before it (the memory model: "X is a write
/// and Y is a write, and X->AV(A_X,R_X,D_X,L)->DOM(D_X,D_Y)->Y").
pub fn write_conflict(w: SyncVal, cur: StageAccess, waw_visibility: bool) -> Option<(bool, bool)> {
    if w.sa.stage() == Stage::Host {
        // Host writes before a submission are visible to every device
        // access of it ("Host Write Ordering Guarantees"); host accesses are
        // ordered among themselves by program order.
        return None;
    }
    let by_availability = cur.is_write() && !waw_visibility;
    if cur.stage() == Stage::Host {
        // The host sees a device write only after a barrier whose second
        // scope holds the host access (the device-to-host domain operation
        // and the visibility operation) and a fence wait ("Fence Waiting").
        let host_pairs = host_needs();
        let done = StageAccessSet(w.visible.0 & host_pairs.0);
        if w.fenced && !done.is_empty() {
            None
        } else {
            // A barrier already recorded (or submitted) for the host still
            // needs its submit and wait; without one, a barrier is needed,
            // placed before a submit that is waited for.
            let granted = w.granted().0 & host_pairs.0 != 0;
            Some((!granted, !w.fenced || granted))
        }
    } else if w.fenced {
        // A fence signal makes every device write available and the next
        // submission makes it visible to every device access.
        None
    } else if by_availability {
        // Available, and the availability operation's chain reaches the
        // write's stage.
        (!w.order.contains(cur.stage())).then_some((true, false))
    } else {
        (!w.visible.contains(cur)).then_some((true, false))
    }
}

/// Whether a prior access is ordered before the image layout transition
/// that barrier `b` performs (over `b`'s range, which holds the prior
/// access's bytes): "When a layout transition is specified in a memory
/// dependency, it happens-after the availability operations in the memory
/// dependency", and "available memory is automatically made visible to a
/// layout transition" ("Image Layout Transitions"). So a prior device
/// write must be made available by `b` (in `b`'s first access scope) or
/// before it (an availability chain that `b`'s first synchronization scope
/// continues), under either reading of write-after-write: visibility comes
/// with availability. A prior device read needs an execution dependency
/// through `b`'s first synchronization scope. Host accesses come before
/// the transition's submission; a fence wait completed everything
/// submitted before it. A dependency of another command whose second
/// synchronization scope holds every stage ([`all_commands`]) orders a
/// prior access before the transition as well, the transition being one
/// of "all operations performed by all commands supported on the queue"
/// ([`chain_scope`]), unless `own_scopes_only` (D27: the layers' reading,
/// [`crate::Semantics::transition_outside_all_commands_second`]); a
/// first scope of a later one holds the transition's own write
/// ([`ResolvedBarrier::of`]). Transitions are
/// ordered among themselves: they
/// "execute in their entirety in submission order, relative to other
/// image layout transitions submitted to the same queue" (and are
/// available, so visible, to each other); nothing else about that order
/// carries over to other commands, so it is no chain.
/// A render pass's transition at a subpass boundary is ordered by the
/// dependencies from the subpass that ended only
/// ([`ResolvedBarrier::first_in`]): a prior access of another is
/// ordered before it through a chain only.
/// A `vkCmdWaitEvents` barrier's transition ([`ResolvedBarrier::event_wait1`])
/// has the events' signal operations as first synchronization scope: a
/// prior read whose chain reached one of them, a prior write made
/// available before one of them, or one that happened before one of them
/// and is in the barrier's first access scope (made available at the
/// wait).
pub fn ordered_before_transition(prior: SyncVal, b: &ResolvedBarrier, own_scopes_only: bool) -> bool {
    if prior.sa.stage() == Stage::Host || prior.sa.is_layout_transition() || prior.fenced {
        return true;
    }
    let direct = prior.directly_in(b);
    // What the first scopes reach through a chain: for a recorded barrier
    // (`FirstIn::All`) also what subpass dependencies of ended render pass
    // instances ordered into their subpasses, whose commands its first
    // scope holds by stage (review15: `EXTERNAL->0` into subpass 0's
    // fragment shading, then `barrier FRAGMENT_SHADER:NONE -> ...` with a
    // transition after the pass; as `barrier_effect` chains for its
    // memory dependency).
    let order = prior.chain_view(b).order;
    // An earlier `ALL_COMMANDS` second scope holds the transition: "all
    // operations performed by all commands supported on the queue".
    let after_all = !own_scopes_only && order.contains(Stage::ImageLayoutTransition);
    let first = b.without_transition_chain().src_exec;
    // A chain into `b`'s first scope: by a stage, or through a transition
    // performed since that a first scope holding every stage (not limited
    // to a subpass or an instance) holds, as in `barrier_effect`.
    let holds_past_transition =
        b.local.is_none() && matches!(b.first_in, FirstIn::All | FirstIn::Before) && all_commands(b.src_exec);
    let chained =
        order.intersects(first) || (holds_past_transition && order.intersects(PERFORMED_TRANSITION));
    // Before one of the signal operations a `vkCmdWaitEvents` waits for
    // (0 for every other barrier): ordered (a read), made available (a
    // write), or executed (a write, for the wait's first access scope).
    let by_event = prior.events & b.src_events != 0;
    if prior.sa.is_write() {
        let executed = b.first_holds(prior.sa.stage()) || prior.exec_events & b.src_events != 0;
        after_all || by_event || chained || (direct && executed && b.src_access.contains(prior.sa))
    } else {
        after_all || by_event || (direct && first.contains(prior.sa.stage())) || chained
    }
}

/// The host (stage, access) pairs of which one must have been granted to
/// a device write (by a barrier that has been submitted and waited for)
/// before a host access is ordered after it: the device-to-host domain
/// operation, which either host access in a barrier's destination access
/// mask performs; on host-coherent memory, writes available to the host
/// domain are visible to the host ("Host Access Types"), for a read as for
/// a write.
pub(crate) const fn host_needs() -> StageAccessSet {
    HOST_PAIRS
}
