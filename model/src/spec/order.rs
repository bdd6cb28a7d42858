//! The happens-before relation of a program, as an explicit graph.
//!
//! Nodes are every operation the definitional semantics reasons about:
//! each memory access of each command, each dependency of each
//! `vkCmdPipelineBarrier2` (one per memory or buffer barrier it carries),
//! each host-side event (host access, `vkQueueSubmit`, `vkWaitForFences`,
//! `vkQueueWaitIdle`, `vkSignalSemaphore`, `vkWaitSemaphores`), each fence
//! signal operation and each semaphore signal and wait operation of a
//! submission. Every device operation belongs to a batch, and so to the
//! queue of that batch; barriers and submission order relate operations of
//! one queue only. Edges are the orderings the
//! specification defines directly; happens-before is reachability (with
//! one twist: a timeline semaphore wait that several signal operations may
//! satisfy happens after what precedes every one of them). Nothing
//! is summarized: the relation is built for the whole program and queried
//! pairwise, so it is slow (cubic) and meant for small programs.
//!
//! # Image layout transitions
//!
//! A barrier B = (S1/A1 -> S2/A2 over R) that performs a layout transition
//! is three operations, in this order inside its command: the dependency
//! B1 = (S1/A1 -> X/T over R), the transition's write at (X, T) over R, and
//! the dependency B2 = (X/T -> S2/A2 over R), where X is a pseudo stage and
//! T a pseudo access of this transition alone ("When a layout transition is
//! specified in a memory dependency, it happens-after the availability
//! operations in the memory dependency, and happens-before the visibility
//! operations"; `docs/semantics.md` says why the split is exact). Every X
//! is distinct: it is the `pseudo` id of the transition, which no stage or
//! access mask names, so only B1 and B2 of that barrier have it in a scope.
//! Operations are ordered inside a command by their [`Pos`]: the call's
//! other barriers and every B1 at step 0, the transitions at 1, every B2 at
//! 2, so the call's barriers still do not chain with each other, and none
//! of them reaches a transition but its own. A dependency of a *later*
//! command whose first (second) synchronization scope holds every stage of
//! the queue (`ALL_COMMANDS`: "all operations performed by all commands
//! supported on the queue") holds an earlier (later) transition too, as a
//! fence or an `ALL_COMMANDS` semaphore operation does; no first access
//! scope needs to hold the transition's write, which is available at the
//! transition itself ("writes performed by a layout transition are
//! automatically made available"), as a queue family release's or
//! acquire's (`location_ordered` in `spec`). One reading of `ALL_COMMANDS` for barriers, event
//! waits, queue operations and queue family ownership transfers
//! (`docs/semantics.md`, "Layout transitions and `ALL_COMMANDS`").
//!
//! An event's transition is split the same way at the command that
//! performs it: a `vkCmdSetEvent2` barrier into B1, the transition, and
//! its signal operation (X/T -> nothing), which the wait's half follows; a
//! `vkCmdWaitEvents` barrier into W1 (its signals to X/T), the
//! transition, W2 (X/T to its second scopes).
//!
//! Invariant: the graph is acyclic (every edge goes forward in the
//! execution the program describes), and node ids are dense from 0.

use super::scopes::{self, Pairs, Side, Stages};
use crate::ir::access::{ownership_role, OwnershipRole};
use crate::ir::layout::{Layout, MemRange};
use crate::ir::program::{Command, Program};
use crate::ir::queue::{QueueId, WaitFor};

/// Where an operation is in submission order: its command, then its step
/// inside the command (0 for every access and dependency but the parts of
/// a barrier with a layout transition: B1 at 0, the transition at 1, B2 at
/// 2).
pub(crate) type Pos = (usize, usize);

/// The pseudo stage name of layout transitions (each transition's own X is
/// told apart by its `pseudo` id; the name is for reading only).
pub(crate) const TRANSITION: &str = "IMAGE_LAYOUT_TRANSITION";

/// The pseudo stage name of queue family release and acquire operations
/// (each one's own X is told apart by its `pseudo` id, as a transition's).
pub(crate) const OWNERSHIP: &str = "QUEUE_FAMILY_OWNERSHIP_TRANSFER";

/// One memory access of a command or of the host.
#[derive(Clone, Debug)]
pub(crate) struct AccessOp {
    pub node: usize,
    pub command: usize,
    pub pos: Pos,
    /// For a layout transition's write: the id of its pseudo stage X (and
    /// pseudo access T), which its own barrier's B1 (second scopes) and B2
    /// (first scopes) hold, and otherwise only `ALL_COMMANDS` scopes of
    /// other commands (see `in_first`).
    pub pseudo: Option<usize>,
    /// A queue family release or acquire operation (with `pseudo` set):
    /// besides its own barrier's half, `ALL_COMMANDS` scopes of other
    /// commands of its queue hold it (see `in_first`).
    pub qfot: bool,
    pub mem: crate::ir::layout::MemId,
    pub range: crate::ir::program::ByteRange,
    pub stage: &'static str,
    pub access: &'static str,
    pub write: bool,
    pub host: bool,
    /// The access as the IR names it, for reporting.
    pub sa: crate::vk::scope::StageAccess,
    /// The rendering instance (the command index of its begin: a
    /// `vkCmdBeginRendering`, or a subpass's `vkCmdBeginRenderPass` or
    /// `vkCmdNextSubpass`) whose commands made this access; `None` outside
    /// one.
    pub instance: Option<usize>,
    /// The image whose footprint this is (`crate::ir::layout::Footprint`),
    /// and the bytes of its access in the image's own memory: the access
    /// of the same node there, over the image's whole bound range in the
    /// memory it shares. Two footprints of one image are no pair: their
    /// exact accesses are.
    pub footprint: Option<(crate::ir::program::ObjectId, crate::ir::program::ByteRange)>,
}

/// What a dependency's range holds besides its own bytes where an image
/// has a footprint (`crate::ir::layout::Footprint`: exact among its own
/// accesses, in a memory of its own; its whole bound range against other
/// objects'). A conflict is held where the byte it is at is certainly one
/// the range names; an optimal image's subresources are apart, at bytes
/// no one knows inside its bound range.
#[derive(Clone, Debug)]
pub(crate) enum DepFootprint {
    /// A barrier over part of such an image (its range in the image's own
    /// memory): in the shared memory, over the image's bound range, the
    /// conflicts of a pair one of whose accesses is the image's within the
    /// barrier's range (the byte where they meet is that access's).
    Part {
        /// The image.
        image: crate::ir::program::ObjectId,
        /// Its bound range in the shared memory.
        bound: MemRange,
    },
    /// A barrier over the shared memory whose range holds such images'
    /// whole bound ranges: every byte of each, in its own memory.
    Images(Vec<MemRange>),
}

/// One dependency of a pipeline barrier: its scopes and, for a buffer
/// memory barrier, the memory its access scopes are limited to.
#[derive(Clone, Debug)]
pub(crate) struct DepOp {
    pub node: usize,
    pub pos: Pos,
    pub first: Stages,
    pub second: Stages,
    pub first_access: Pairs,
    pub second_access: Pairs,
    pub range: Option<MemRange>,
    /// What its range holds besides its own bytes, where an image has a
    /// footprint (`crate::ir::layout::Footprint`, [`DepFootprint`]).
    pub footprint: Option<DepFootprint>,
    /// B2 of a transition: its first synchronization and access scopes
    /// also hold that transition's pseudo stage X and pair (X, T).
    pub first_pseudo: Option<usize>,
    /// B1 of a transition: its second scopes also hold X and (X, T).
    pub second_pseudo: Option<usize>,
    /// Its first (second) synchronization scope holds every stage of the
    /// queue (`ALL_COMMANDS`, or `BOTTOM_OF_PIPE` first, `TOP_OF_PIPE`
    /// second): the only scopes that hold a queue family release or
    /// acquire operation of another command.
    pub first_all: bool,
    pub second_all: bool,
    /// A `vkCmdWaitEvents` barrier: its first synchronization scope is
    /// these event signal operations (nodes) "and the operations that
    /// happened-before" them, and its first access scope holds an access
    /// of `first_access` in that scope ([`Order::in_signal_access_scope`]).
    /// Empty for every other dependency.
    pub first_signals: Vec<usize>,
    /// An implicit dependency of a rendering instance, with the command
    /// index of that instance's begin: its synchronization scopes hold only
    /// accesses of that instance (the guarantees of "Render Pass Load/Store
    /// Operations" and "Rasterization Order" are among the accesses of one
    /// instance) and of bytes in `range` (the load operation "for each
    /// sample" happens-before the commands "which access the sample");
    /// only dependencies recorded outside every instance, or its own
    /// instance's, chain into it. `None` for every recorded barrier (a
    /// render pass's subpass dependencies included).
    pub local: Option<usize>,
    /// A render pass's subpass dependency (or layout transition) whose
    /// first synchronization scope holds only the accesses of the subpass
    /// begun at this command index, its `srcSubpass` (module
    /// `crate::ir::renderpass`); `second_in`: whose second scope holds only
    /// those of its `dstSubpass`. `None`: every earlier (later) command, as
    /// a recorded barrier's. A dependency chains into another only if the
    /// first's second scope and the second's first scope can hold one
    /// access (`DepOp::chains_into`).
    pub first_in: Option<usize>,
    pub second_in: Option<usize>,
    /// A subpass dependency (or layout transition) from
    /// `VK_SUBPASS_EXTERNAL`: its first synchronization scope holds only
    /// the commands before this command index, its render pass
    /// instance's begin ("all commands that occur earlier in submission
    /// order than the vkCmdBeginRenderPass"), wherever it is placed.
    pub first_before: Option<usize>,
}

impl DepOp {
    /// Whether its access scopes hold the conflict of accesses `x` and
    /// `y` at bytes `cell` of `mem`: it names no range, or its range holds
    /// them, or (an image with a footprint) the byte is certainly one its
    /// range names ([`DepFootprint`]).
    pub fn holds(
        &self,
        mem: crate::ir::layout::MemId,
        cell: crate::ir::program::ByteRange,
        x: &AccessOp,
        y: &AccessOp,
    ) -> bool {
        let within = |r: MemRange| r.mem == mem && r.range.start <= cell.start && cell.end <= r.range.end;
        let Some(range) = self.range else {
            return true;
        };
        within(range)
            || match &self.footprint {
                None => false,
                Some(DepFootprint::Images(own)) => own.iter().any(|r| within(*r)),
                // Over the whole image: its bound range, by address, as
                // for an image no part of which is named.
                Some(DepFootprint::Part { bound, .. }) if range.range == bound.range => within(*bound),
                Some(DepFootprint::Part { image, bound }) => {
                    within(*bound)
                        && [x, y].iter().any(|a| {
                            a.footprint.is_some_and(|(i, bytes)| {
                                i == *image
                                    && range.range.start <= bytes.start
                                    && bytes.end <= range.range.end
                            })
                        })
                }
            }
    }

    /// The ranges it names: its range and its [`DepFootprint`]'s.
    pub fn ranges(&self) -> Vec<MemRange> {
        let mut out: Vec<MemRange> = self.range.into_iter().collect();
        match &self.footprint {
            None => {}
            Some(DepFootprint::Part { bound, .. }) => out.push(*bound),
            Some(DepFootprint::Images(own)) => out.extend(own.iter().copied()),
        }
        out
    }

    /// Whether a range it names meets bytes `range` of `mem` (false when
    /// it names none).
    pub fn meets(&self, mem: crate::ir::layout::MemId, range: crate::ir::program::ByteRange) -> bool {
        self.ranges()
            .iter()
            .any(|r| r.mem == mem && r.range.overlaps(range))
    }

    /// The two halves of this dependency when it performs the layout
    /// transition with pseudo stage `t` (module docs, "Image layout
    /// transitions"): B1, its first scopes to (X, T), and B2, from (X, T)
    /// to its second scopes, at step 2 of its command. B1 keeps this
    /// node's id; B2's is the caller's to give.
    fn split_at_transition(&self, t: usize) -> (DepOp, DepOp) {
        let (b1, b2) = self.halves();
        (
            DepOp {
                second_pseudo: Some(t),
                ..b1
            },
            DepOp {
                first_pseudo: Some(t),
                ..b2
            },
        )
    }

    /// Its first half (its first scopes, to nothing, where it is) and its
    /// second half (from nothing to its second scopes, at step 2 of its
    /// command): [`DepOp::split_at_transition`] without a transition
    /// between, for a subpass dependency whose visibility operations a
    /// transition of its call happens before (the caller orders the halves
    /// and the transitions).
    fn halves(&self) -> (DepOp, DepOp) {
        let b1 = DepOp {
            second_in: None,
            second: Stages::new(),
            second_access: Pairs::new(),
            second_all: false,
            ..self.clone()
        };
        let b2 = DepOp {
            pos: (self.pos.0, 2),
            first_in: None,
            first_before: None,
            first: Stages::new(),
            first_access: Pairs::new(),
            first_all: false,
            first_signals: Vec::new(),
            ..self.clone()
        };
        (b1, b2)
    }

    /// The rendering instance, if any, that alone may be in the first
    /// (second) scopes: an implicit dependency's own, or a subpass
    /// dependency's `srcSubpass` (`dstSubpass`).
    fn first_instance(&self) -> Option<usize> {
        self.first_in.or(self.local)
    }

    fn second_instance(&self) -> Option<usize> {
        self.second_in.or(self.local)
    }

    /// Whether an execution dependency chain may run from `self` into `b`
    /// as far as instances go: "the intersection of ScopedOps2 in ExeDepA
    /// and ScopedOps1 in ExeDepB" can be non-empty only if both scopes can
    /// hold accesses of one instance (or of no instance). The stages are
    /// asked separately.
    pub fn chains_into(&self, b: &DepOp) -> bool {
        // Into a dependency from EXTERNAL: the second scope must hold
        // commands before the render pass instance.
        let before = match (self.second_instance(), b.first_before) {
            (Some(x), Some(p)) => x < p,
            _ => true,
        };
        before
            && match (self.second_instance(), b.first_instance()) {
                (Some(x), Some(y)) => x == y,
                _ => true,
            }
    }
}

impl AccessOp {
    /// Whether `d`'s first synchronization scope holds this access's stage
    /// (a transition or ownership transfer: its own B2's, and an
    /// `ALL_COMMANDS` one of another command, limited as for any access to
    /// the commands a subpass dependency names).
    pub fn in_first(&self, d: &DepOp) -> bool {
        match self.pseudo {
            Some(t) => {
                d.first_pseudo == Some(t)
                    || (d.first_all
                        && d.pos.0 != self.command
                        && (self.qfot
                            || (self.in_instance(d.first_instance())
                                && d.first_before.is_none_or(|p| self.command < p))))
            }
            None => {
                d.first.contains(self.stage)
                    && self.in_instance(d.first_instance())
                    && d.first_before.is_none_or(|p| self.command < p)
            }
        }
    }

    /// Whether a scope limited to the accesses of `instance` (`None`: not
    /// limited) may hold this access: an implicit dependency of a rendering
    /// instance (`DepOp::local`) or a subpass dependency
    /// (`DepOp::first_in`, `DepOp::second_in`) only if this access is of
    /// that instance.
    fn in_instance(&self, instance: Option<usize>) -> bool {
        instance.is_none() || instance == self.instance
    }

    /// Whether `d`'s second synchronization scope holds this access's stage
    /// (a transition or ownership transfer: its own B1's, and an
    /// `ALL_COMMANDS` one of another command).
    pub fn in_second(&self, d: &DepOp) -> bool {
        match self.pseudo {
            Some(t) => {
                d.second_pseudo == Some(t)
                    || (d.second_all
                        && d.pos.0 != self.command
                        && (self.qfot || self.in_instance(d.second_instance())))
            }
            None => d.second.contains(self.stage) && self.in_instance(d.second_instance()),
        }
    }

    /// Whether `d`'s first access scope holds this access (range aside).
    pub fn in_first_access(&self, d: &DepOp) -> bool {
        match self.pseudo {
            // No access flag names (X, T): its own B2 holds it; any other
            // dependency needs none, X being available at once.
            Some(t) => d.first_pseudo == Some(t),
            None => self.in_first(d) && d.first_access.contains(&(self.stage, self.access)),
        }
    }

    /// Whether `d`'s second access scope holds this access (range aside).
    pub fn in_second_access(&self, d: &DepOp) -> bool {
        match self.pseudo {
            Some(t) => d.second_pseudo == Some(t),
            None => self.in_second(d) && d.second_access.contains(&(self.stage, self.access)),
        }
    }
}

/// A semaphore signal operation: of a submission (`queue` and `batch`
/// set) or of `vkSignalSemaphore` on the host (both `None`).
#[derive(Clone, Debug)]
pub(crate) struct SignalOp {
    pub node: usize,
    pub batch: Option<usize>,
    /// Its first synchronization scope's stages (the stage mask, expanded
    /// to logically earlier stages).
    pub first: Stages,
    /// The stage mask covers every command of the queue (`ALL_COMMANDS`):
    /// a barrier of the batch or earlier whose second scope holds `HOST`
    /// is in its first scope (see `Order::build`).
    pub all: bool,
    pub semaphore: usize,
    /// The value set (timeline) or `None` (binary).
    pub value: Option<u64>,
}

/// A semaphore wait operation: of a submission (`batch` set) or of
/// `vkWaitSemaphores` on the host (`None`).
#[derive(Clone, Debug)]
pub(crate) struct WaitOp {
    pub node: usize,
    pub batch: Option<usize>,
    /// Its second synchronization scope's stages (expanded to logically
    /// later stages).
    pub second: Stages,
    /// The stage mask covers every command of the queue (`ALL_COMMANDS`):
    /// queue family acquire operations of its batch and later are in its
    /// second scope.
    pub all: bool,
    /// The signal operations its first synchronization scope may include
    /// (indices into [`Order::signals`]): it happens-after their
    /// intersection. Empty when the wait orders nothing (a timeline
    /// semaphore whose initial value already satisfies it).
    pub candidates: Vec<usize>,
}

/// The program's operations and its happens-before relation.
pub(crate) struct Order {
    pub accesses: Vec<AccessOp>,
    pub deps: Vec<DepOp>,
    /// Semaphore signal operations, device and host.
    pub signals: Vec<SignalOp>,
    /// Semaphore wait operations, device and host.
    pub waits: Vec<WaitOp>,
    /// The queue of each batch (index as in `submits`).
    pub batch_queue: Vec<QueueId>,
    /// The batch of each node, for device operations.
    pub batch_of: Vec<Option<usize>>,
    /// Node of each `vkQueueSubmit` (including the implicit one that
    /// submits whatever is recorded at the end of the program).
    pub submits: Vec<usize>,
    /// Node of the fence signal operation of each submission.
    pub fences: Vec<usize>,
    /// `reach[a]` holds `b` when `a` happens-before `b` (or `a == b`).
    reach: Vec<Vec<u64>>,
    /// The edges the relation is built from, and each semaphore wait with
    /// the candidate signals it pairs with (for [`Order::after_all`]).
    edges: Vec<Vec<usize>>,
    meets: Vec<(usize, Vec<usize>)>,
}

impl Order {
    /// Adds, for each image of `private` (its own memory and its
    /// [`crate::ir::layout::Footprint`]; the order was built on
    /// [`crate::ir::layout::Layout::with_private_images`]), a footprint
    /// access beside each access of its own memory (same node: the same
    /// operation, over the image's bound range in the shared memory) and
    /// the footprint of each barrier over part of it.
    pub fn add_footprints(&mut self, private: &[(crate::ir::layout::MemId, crate::ir::layout::Footprint)]) {
        if private.is_empty() {
            return;
        }
        let of = |mem: crate::ir::layout::MemId| private.iter().find(|(m, _)| *m == mem).map(|(_, f)| f);
        // Each right after its access: the pair test takes the accesses
        // in the order they are listed.
        let mut with: Vec<AccessOp> = Vec::with_capacity(self.accesses.len());
        for a in self.accesses.drain(..) {
            let footprint = of(a.mem).map(|f| AccessOp {
                mem: f.mem,
                range: f.bound,
                footprint: Some((f.image, a.range)),
                ..a.clone()
            });
            with.push(a);
            with.extend(footprint);
        }
        self.accesses = with;
        for d in &mut self.deps {
            let Some(r) = d.range else { continue };
            if let Some(f) = of(r.mem) {
                d.footprint = Some(DepFootprint::Part {
                    image: f.image,
                    bound: MemRange {
                        mem: f.mem,
                        range: f.bound,
                    },
                });
                continue;
            }
            // A range over the shared memory holding an image's whole
            // bound range holds every byte of it.
            let own: Vec<MemRange> = private
                .iter()
                .filter(|(_, f)| {
                    f.mem == r.mem && r.range.start <= f.bound.start && f.bound.end <= r.range.end
                })
                .map(|(m, f)| MemRange {
                    mem: *m,
                    range: f.bound,
                })
                .collect();
            if !own.is_empty() {
                d.footprint = Some(DepFootprint::Images(own));
            }
        }
    }

    /// Whether `x` is in the first access scope of `d`, a `vkCmdWaitEvents`
    /// barrier: "The first synchronization scope only includes event
    /// signal operations that operate on members of pEvents, and the
    /// operations that happened-before the event signal operations", and
    /// "The first access scope is limited to accesses in the pipeline
    /// stages determined by the source stage mask specified by
    /// srcStageMask. Within that, the first access scope only includes the
    /// first access scopes defined by elements of the pMemoryBarriers,
    /// pBufferMemoryBarriers and pImageMemoryBarriers arrays": `x`
    /// happened before one of `d`'s signals and its (stage, access) is in
    /// `d`'s first access scope (range aside). False for every other
    /// dependency.
    pub fn in_signal_access_scope(&self, x: &AccessOp, d: &DepOp) -> bool {
        !x.qfot
            && d.first_access.contains(&(x.stage, x.access))
            && d.first_signals.iter().any(|&s| self.hb(x.node, s))
    }

    /// Whether `a` happens-before `b`; every node happens-before itself
    /// here, which is what the location-order conditions need (an
    /// availability and a visibility operation of one dependency are
    /// ordered "in the order listed").
    pub fn hb(&self, a: usize, b: usize) -> bool {
        self.reach[a][b / 64] & (1 << (b % 64)) != 0
    }

    /// The operations that happen after *some* operation of `from`, where
    /// a semaphore wait with several candidate signals counts once each
    /// candidate is one of them or after one (not necessarily the same):
    /// whichever signal the wait pairs with, it is after one. `reach` only
    /// knows what happens after a single operation; this is what "a write
    /// made available by each candidate's own availability operation"
    /// needs.
    pub fn after_all(&self, from: &[usize]) -> Vec<bool> {
        let n = self.edges.len();
        let mut seen = vec![false; n];
        let mut stack: Vec<usize> = Vec::new();
        for &f in from {
            if !seen[f] {
                seen[f] = true;
                stack.push(f);
            }
        }
        loop {
            while let Some(u) = stack.pop() {
                for &v in &self.edges[u] {
                    if !seen[v] {
                        seen[v] = true;
                        stack.push(v);
                    }
                }
            }
            let ready: Vec<usize> = self
                .meets
                .iter()
                .filter(|(m, ps)| !seen[*m] && !ps.is_empty() && ps.iter().all(|&p| seen[p]))
                .map(|(m, _)| *m)
                .collect();
            if ready.is_empty() {
                return seen;
            }
            for m in ready {
                seen[m] = true;
                stack.push(m);
            }
        }
    }

    /// Whether some wait pairs with several candidate signals (only then
    /// can [`Order::after_all`] know more than `hb`).
    pub fn has_multi_candidate_waits(&self) -> bool {
        self.meets.iter().any(|(_, ps)| ps.len() > 1)
    }

    /// The queue a device operation runs on (`None` for host operations).
    pub fn queue_of(&self, node: usize) -> Option<QueueId> {
        self.batch_of
            .get(node)
            .copied()
            .flatten()
            .map(|b| self.batch_queue[b])
    }

    pub fn build(program: &Program, layout: &Layout) -> Order {
        let mut nodes = 0usize;
        let mut new_node = || {
            nodes += 1;
            nodes - 1
        };
        let mut accesses: Vec<AccessOp> = Vec::new();
        let mut deps: Vec<DepOp> = Vec::new();
        let mut submits = Vec::new();
        // Host-side events in program order: (node, command index).
        let mut host_events: Vec<(usize, usize)> = Vec::new();
        // The batch (index into `submits`) of each device access and
        // dependency, filled in when its submit is reached.
        let mut unsubmitted_ops: Vec<usize> = Vec::new();
        let mut batch_of: Vec<Option<usize>> = Vec::new();
        // A device-side operation's node: in no batch until its submit.
        macro_rules! device_op {
            () => {{
                let n = new_node();
                batch_of.resize(n + 1, None);
                unsubmitted_ops.push(n);
                n
            }};
        }
        // Layout transitions so far: the next one's pseudo stage id.
        let mut transitions = 0usize;
        // Host fence waits: (node, submits so far, the queue waited for or
        // `None` for all).
        let mut waits: Vec<(usize, usize, Option<QueueId>)> = Vec::new();
        let mut batch_queue: Vec<QueueId> = Vec::new();
        let mut signals: Vec<SignalOp> = Vec::new();
        let mut sem_waits: Vec<WaitOp> = Vec::new();
        // Per semaphore, the pending signal of a binary one. Timeline
        // waits find their candidates once every signal is known (a wait
        // may come before the signal that satisfies it).
        let mut pending: Vec<Option<usize>> = vec![None; program.semaphores.len()];
        // (wait index, semaphore, value) of timeline waits.
        let mut timeline_waits: Vec<(usize, usize, u64)> = Vec::new();
        // Events: the nodes of each device set's dependencies (by command),
        // the host set node of each event, the latest set of each event
        // (`Some(command)` on the device, `None` on the host), and the
        // edges from a set to its wait's dependencies.
        let mut set_nodes: std::collections::HashMap<usize, Vec<usize>> = std::collections::HashMap::new();
        let mut host_set_node: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
        let mut last_set: std::collections::HashMap<u32, Option<usize>> = std::collections::HashMap::new();
        let mut event_edges: Vec<(usize, usize)> = Vec::new();
        let command_queues = program.command_queues();
        let timeline_initial = |sem: usize| program.semaphores[sem].kind.initial_value();
        let instances = crate::ir::render::instance_begins(&program.commands);
        // The open render pass instance: its begin and the command index
        // beginning each of its subpasses so far (the instance of each).
        let mut pass_begins: Vec<usize> = Vec::new();
        // The `vkCmdBeginRenderPass` of the open render pass instance.
        let mut pass_open: Option<usize> = None;
        // The subpass dependencies of the open render pass instance so far
        // (index in `pDependencies`, node), and the edges from them to the
        // automatic layout transitions that happen after their
        // availability operations ("Automatic layout transitions away from
        // the layout used in a subpass happen-after the availability
        // operations for all dependencies with that subpass as the
        // srcSubpass"; `crate::ir::render::PassScope::follows`).
        let mut pass_deps: Vec<(u32, usize)> = Vec::new();
        let mut transition_edges: Vec<(usize, usize)> = Vec::new();
        // The second halves of the subpass dependencies of the call being
        // built whose visibility operations its transitions happen before
        // ("Automatic layout transitions into the layout used in a subpass
        // happen-before the visibility operations for all dependencies with
        // that subpass as the dstSubpass"; `PassScope::precedes`): such a
        // dependency is split into its first half at step 0 (its first
        // scopes, to nothing) and its second half at step 2 (from nothing to
        // its second scopes), the first half before the second (an edge),
        // the transitions between them. A dependency can be in both sets
        // (`EXTERNAL->0` around the begin's transition).
        let mut pass_after: Vec<(u32, usize)> = Vec::new();
        for (ci, c0) in program.commands.iter().enumerate() {
            let instance = instances[ci];
            // A render pass's subpass dependencies and layout transitions
            // (`crate::ir::renderpass`) are a barrier just before the
            // command, at steps 0-2 of its position; the command's
            // implicit dependencies and accesses come at steps 3 and 4.
            let pre = match c0 {
                Command::Render(rc) if !rc.pre_barriers().is_empty() => {
                    Some(Command::Barrier(crate::ir::program::Dependency {
                        barriers: rc.pre_barriers().to_vec(),
                    }))
                }
                _ => None,
            };
            // A pipeline barrier recorded inside a subpass: "If
            // vkCmdPipelineBarrier2 is recorded within a render pass
            // instance, the synchronization scopes are limited to a subset
            // of operations within the same subpass" (both scopes: the
            // subpass begun at the last of `pass_begins`), and by-region
            // ones framebuffer-local (`crate::ir::renderpass::subpass_barrier_parts`).
            let in_subpass = match (c0, pass_open) {
                (Command::Barrier(dep), Some(begin)) => {
                    let empty = crate::ir::renderpass::PassAttachments::default();
                    let attachments = match &program.commands[begin] {
                        Command::Render(rc) => rc.pass_attachments(),
                        _ => &empty,
                    };
                    // A render pass of several views is written per view
                    // before it gets here (module `views`), so every part
                    // is one applied as it is (`ViewPart::Own`).
                    let parts = crate::ir::renderpass::subpass_barrier_parts(dep, attachments);
                    debug_assert!(parts
                        .iter()
                        .all(|&(_, p)| p == crate::ir::renderpass::ViewPart::Own));
                    let barriers = parts.into_iter().map(|(b, _)| b).collect();
                    Some((
                        Command::Barrier(crate::ir::program::Dependency { barriers }),
                        pass_begins.last().copied(),
                    ))
                }
                _ => None,
            };
            let own = in_subpass.as_ref().map_or(c0, |(c, _)| c);
            let subpass_scope = in_subpass.as_ref().and_then(|(_, s)| *s);
            // The scopes of each of those barriers hold only the accesses
            // of the subpasses it names (`PassScope`): a subpass by the
            // command that begins it, EXTERNAL as first scope by the
            // commands before the instance's begin, as second by every
            // later command.
            let pre_scopes: Vec<(Option<usize>, Option<usize>, Option<usize>)> = match c0 {
                Command::Render(rc) => {
                    use crate::ir::render::RenderOp;
                    use crate::ir::renderpass::SubpassIndex;
                    match rc.op {
                        RenderOp::BeginPass(_) => {
                            pass_begins = vec![ci];
                            pass_open = Some(ci);
                            pass_deps.clear();
                            pass_after.clear();
                        }
                        RenderOp::NextSubpass => pass_begins.push(ci),
                        RenderOp::EndPass => pass_open = None,
                        _ => {}
                    }
                    let at = |s: SubpassIndex| match s {
                        SubpassIndex::Subpass(k) => pass_begins.get(k as usize).copied(),
                        SubpassIndex::External => None,
                    };
                    rc.pre_scopes()
                        .iter()
                        .map(|s| {
                            let before = match s.src {
                                SubpassIndex::External => pass_begins.first().copied(),
                                SubpassIndex::Subpass(_) => None,
                            };
                            (at(s.src), at(s.dst), before)
                        })
                        .collect()
                }
                _ => Vec::new(),
            };
            for (step, c) in pre.iter().chain(std::iter::once(own)).enumerate() {
                let is_pre = pre.is_some() && step == 0;
                match c {
                    Command::Barrier(dep) => {
                        let family = program.queue_family(command_queues[ci]);
                        // The dependencies of a render pass call whose
                        // visibility operations its transitions happen
                        // before (`pass_after`).
                        let call_precedes = match c0 {
                            Command::Render(rc) if is_pre => {
                                rc.pre_scopes().iter().fold(0, |m, s| m | s.precedes)
                            }
                            _ => 0,
                        };
                        for (bi, b) in dep.barriers.iter().enumerate() {
                            let pass_scope = match c0 {
                                Command::Render(rc) if is_pre => rc.pre_scopes().get(bi).copied(),
                                _ => None,
                            };
                            let no_sets = crate::ir::renderpass::DependencySets::default();
                            let sets = match c0 {
                                Command::Render(rc) if is_pre => rc.pre_sets().get(bi).unwrap_or(&no_sets),
                                _ => &no_sets,
                            };
                            let (pre_first, pre_second, pre_before) = if is_pre {
                                pre_scopes.get(bi).copied().unwrap_or_default()
                            } else {
                                (subpass_scope, subpass_scope, None)
                            };
                            // (No part of a view-local dependency: a render
                            // pass of several views is written per view
                            // before it gets here, module `views`.)
                            debug_assert!(pass_scope.is_none_or(|s| !s.chain_only && !s.before_only));
                            let first = scopes::sync_scope(b.src_stage_mask.bits(), Side::First);
                            let second = scopes::sync_scope(b.dst_stage_mask.bits(), Side::Second);
                            let whole = DepOp {
                                footprint: None,
                                node: 0,
                                pos: (ci, 0),
                                first_all: first.is_superset(&scopes::all_commands()),
                                second_all: second.is_superset(&scopes::all_commands()),
                                first_signals: Vec::new(),
                                local: None,
                                first_in: pre_first,
                                second_in: pre_second,
                                first_before: pre_before,
                                first,
                                second,
                                // A render pass's layout transition: a
                                // write is available to it when one
                                // dependency of its first set has it in
                                // its first access scope, and its write
                                // visible to what one of its second set
                                // has in its second (not one's stage with
                                // another's access, as the barrier's
                                // unioned masks would say).
                                first_access: set_scope(&sets.first, Side::First).unwrap_or_else(|| {
                                    scopes::access_scope(
                                        b.src_stage_mask.bits(),
                                        b.src_access_mask.bits(),
                                        Side::First,
                                    )
                                }),
                                second_access: set_scope(&sets.second, Side::Second).unwrap_or_else(|| {
                                    scopes::access_scope(
                                        b.dst_stage_mask.bits(),
                                        b.dst_access_mask.bits(),
                                        Side::Second,
                                    )
                                }),
                                range: b.region.map(|r| layout.at(r)),
                                first_pseudo: None,
                                second_pseudo: None,
                            };
                            let role = ownership_role(b, family);
                            let op = b.region.filter(|_| b.transition || role.is_some());
                            // B1 = (S1/A1 -> X/T) at step 0, the operation at
                            // (X, T) at step 1, B2 = (X/T -> S2/A2) at step 2,
                            // all over the region. A release has no B2 ("the
                            // second synchronization scope of the calling
                            // command does not apply to this operation";
                            // "dstStageMask is also ignored" and the
                            // destination access mask too, "such that no
                            // visibility operation is executed"); an acquire
                            // no B1 (the mirror image: "no availability
                            // operation is executed").
                            // (The pseudo side of each half holds no access
                            // of any instance.)
                            let dependency = pass_scope.and_then(|s| s.dependency);
                            let after = dependency.is_some_and(|i| i < 64 && call_precedes & (1 << i) != 0);
                            if let (Some(i), true) = (dependency, after) {
                                let (mut d1, mut d2) = whole.halves();
                                d1.node = device_op!();
                                d2.node = device_op!();
                                pass_deps.push((i, d1.node));
                                pass_after.push((i, d2.node));
                                transition_edges.push((d1.node, d2.node));
                                deps.push(d1);
                                deps.push(d2);
                                continue;
                            }
                            let (b1, b2) = whole.split_at_transition(transitions);
                            let parts = match (op, role) {
                                (None, _) => vec![whole],
                                (Some(_), None) => vec![b1, b2],
                                (Some(_), Some(OwnershipRole::Release)) => vec![b1],
                                (Some(_), Some(OwnershipRole::Acquire)) => vec![b2],
                            };
                            for mut d in parts {
                                d.node = device_op!();
                                if let Some(i) = dependency {
                                    pass_deps.push((i, d.node));
                                }
                                deps.push(d);
                            }
                            let Some(region) = op else {
                                continue;
                            };
                            let t = transitions;
                            transitions += 1;
                            let node = device_op!();
                            let follows = pass_scope.map_or(0, |s| s.follows);
                            transition_edges.extend(
                                pass_deps
                                    .iter()
                                    .filter(|&&(i, _)| i < 64 && follows & (1 << i) != 0)
                                    .map(|&(_, from)| (from, node)),
                            );
                            let precedes = pass_scope.map_or(0, |s| s.precedes);
                            transition_edges.extend(
                                pass_after
                                    .iter()
                                    .filter(|&&(i, _)| i < 64 && precedes & (1 << i) != 0)
                                    .map(|&(_, to)| (node, to)),
                            );
                            let m = layout.at(region);
                            let (stage, sa) = match role {
                                None => (TRANSITION, crate::vk::scope::StageAccess::ImageLayoutTransition),
                                Some(_) => (
                                    OWNERSHIP,
                                    crate::vk::scope::StageAccess::QueueFamilyOwnershipTransfer,
                                ),
                            };
                            accesses.push(AccessOp {
                                footprint: None,
                                node,
                                command: ci,
                                pos: (ci, 1),
                                pseudo: Some(t),
                                qfot: role.is_some(),
                                mem: m.mem,
                                range: m.range,
                                stage,
                                access: stage,
                                write: true,
                                host: false,
                                sa,
                                instance: None,
                            });
                        }
                    }
                    // "When vkCmdSetEvent2 is submitted to a queue, it defines
                    // the first half of memory dependencies defined by
                    // pDependencyInfo, as well as an event signal operation";
                    // "The first synchronization scope and access scope of each
                    // memory dependency defined by any element i of
                    // pDependencyInfos are applied to operations that occurred
                    // earlier in submission order than the last event signal
                    // operation on element i of pEvents", and "The second
                    // synchronization scope and access scope of each memory
                    // dependency ... are applied to operations that occurred
                    // later in submission order than vkCmdWaitEvents2". So each
                    // barrier b = (S1/A1 -> S2/A2 over R) of the dependency info
                    // is one memory dependency cut in two: its first half
                    // (S1/A1 -> nothing) at the set, its second half
                    // (nothing -> S2/A2) at the wait, and an edge between them:
                    // the set's "second synchronization scope includes only the
                    // event signal operation", and the wait happens after the
                    // signal. The halves have no stage on their inner side, so
                    // no barrier between the set and the wait chains into or
                    // out of them, and accesses between the two are in neither
                    // scope. A memory dependency per barrier, as in
                    // vkCmdPipelineBarrier2; the set's "union of all the memory
                    // dependencies" names its signal operation's first scope,
                    // and reading it as one dependency from the union to every
                    // barrier's second scopes would only add orderings (module
                    // docs of `crate::ir::event`).
                    //
                    // A barrier with a layout transition performs it at the
                    // set: "Queue family ownership transfers and image layout
                    // transitions defined by pDependencyInfo are also included
                    // in the first scopes", and "The second synchronization
                    // scope includes only the event signal operation, and any
                    // ... image layout transitions defined by pDependencyInfo"
                    // (the second access scope "includes only" them). So
                    // the first half B1 = (S1/A1 -> X/T) at step 0, the
                    // transition at (X, T) at step 1, and the signal
                    // operation (X/T -> nothing) at step 2, which the wait's
                    // half follows: the transition happens after the first
                    // half's availability operations, before the signal, and
                    // after nothing between the set and the wait.
                    Command::SetEvent { event, dependency } => {
                        let mut nodes_here = Vec::new();
                        for b in &dependency.barriers {
                            let first = scopes::sync_scope(b.src_stage_mask.bits(), Side::First);
                            let t = b.region.filter(|_| b.transition).map(|r| (transitions, r));
                            let node = device_op!();
                            let whole = DepOp {
                                footprint: None,
                                node,
                                pos: (ci, 0),
                                first_all: first.is_superset(&scopes::all_commands()),
                                first,
                                second: Stages::new(),
                                first_access: scopes::access_scope(
                                    b.src_stage_mask.bits(),
                                    b.src_access_mask.bits(),
                                    Side::First,
                                ),
                                second_access: Pairs::new(),
                                range: b.region.map(|r| layout.at(r)),
                                first_pseudo: None,
                                second_pseudo: None,
                                second_all: false,
                                first_signals: Vec::new(),
                                local: None,
                                first_in: None,
                                second_in: None,
                                first_before: None,
                            };
                            let Some((t, region)) = t else {
                                deps.push(whole);
                                nodes_here.push(node);
                                continue;
                            };
                            // The signal operation is the second half, with
                            // no second scope of its own.
                            let (b1, mut signal_op) = whole.split_at_transition(t);
                            deps.push(b1);
                            transitions += 1;
                            let node = device_op!();
                            accesses.push(transition_op(node, ci, t, layout.at(region)));
                            let signal = device_op!();
                            signal_op.node = signal;
                            deps.push(signal_op);
                            nodes_here.push(signal);
                        }
                        set_nodes.insert(ci, nodes_here);
                        last_set.insert(event.0, Some(ci));
                    }
                    Command::WaitEvents { waits } => {
                        for w in waits {
                            let set = last_set.get(&w.event.0).copied();
                            for (j, b) in w.dependency.barriers.iter().enumerate() {
                                let node = device_op!();
                                deps.push(DepOp {
                                    footprint: None,
                                    node,
                                    pos: (ci, 0),
                                    first: Stages::new(),
                                    second: scopes::sync_scope(b.dst_stage_mask.bits(), Side::Second),
                                    first_access: Pairs::new(),
                                    second_access: scopes::access_scope(
                                        b.dst_stage_mask.bits(),
                                        b.dst_access_mask.bits(),
                                        Side::Second,
                                    ),
                                    range: b.region.map(|r| layout.at(r)),
                                    first_pseudo: None,
                                    second_pseudo: None,
                                    first_all: false,
                                    second_all: scopes::sync_scope(b.dst_stage_mask.bits(), Side::Second)
                                        .is_superset(&scopes::all_commands()),
                                    first_signals: Vec::new(),
                                    local: None,
                                    first_in: None,
                                    second_in: None,
                                    first_before: None,
                                });
                                // A device set's barrier j is the first half of
                                // this barrier (the dependency infos are equal);
                                // a host set ("vkSetEvent ... defines an event
                                // signal operation") precedes every barrier of
                                // the wait, whose first scope "only includes
                                // host operations": those before the set, in
                                // host program order.
                                match set {
                                    Some(Some(s)) => {
                                        if let Some(&from) = set_nodes.get(&s).and_then(|n| n.get(j)) {
                                            event_edges.push((from, node));
                                        }
                                    }
                                    Some(None) => {
                                        if let Some(&from) = host_set_node.get(&w.event.0) {
                                            event_edges.push((from, node));
                                        }
                                    }
                                    // Refused by validation (the wait would
                                    // never end); nothing orders it.
                                    None => {}
                                }
                            }
                        }
                    }
                    // "When vkCmdSetEvent is submitted to a queue, it defines an
                    // execution dependency on commands that were submitted
                    // before it, and defines an event signal operation"; "The
                    // first synchronization scope includes all commands that
                    // occur earlier in submission order. The synchronization
                    // scope is limited to operations on the pipeline stages
                    // determined by the source stage mask specified by
                    // stageMask", and "The second synchronization scope
                    // includes only the event signal operation". It "does not
                    // define an access scope". So one dependency with that
                    // first synchronization scope and nothing else: its node is
                    // the signal operation. Chains into it from earlier
                    // barriers work as into any first scope; none leaves it
                    // but through its wait.
                    Command::SetEvent1 { event, stage_mask } => {
                        let node = device_op!();
                        let first = scopes::sync_scope(stage_mask.bits(), Side::First);
                        deps.push(DepOp {
                            footprint: None,
                            node,
                            pos: (ci, 0),
                            first_all: first.is_superset(&scopes::all_commands()),
                            second_all: false,
                            first,
                            second: Stages::new(),
                            first_access: Pairs::new(),
                            second_access: Pairs::new(),
                            range: None,
                            first_pseudo: None,
                            second_pseudo: None,
                            first_signals: Vec::new(),
                            local: None,
                            first_in: None,
                            second_in: None,
                            first_before: None,
                        });
                        set_nodes.insert(ci, vec![node]);
                        last_set.insert(event.0, Some(ci));
                    }
                    // vkCmdWaitEvents: "The first synchronization scope only
                    // includes event signal operations that operate on members
                    // of pEvents, and the operations that happened-before the
                    // event signal operations"; "The second synchronization
                    // scope includes all commands that occur later in
                    // submission order ... limited to operations on the
                    // pipeline stages determined by the destination stage
                    // mask"; the first access scope is srcStageMask's within
                    // each barrier's ("vkCmdWaitEvents defines the first
                    // access scope for each event signal operation in addition
                    // to its own access scopes"), the second dstStageMask's
                    // within each barrier's. One memory dependency per barrier
                    // (as in vkCmdPipelineBarrier), every one after every
                    // signal of the call: each has an edge from each signal,
                    // and its first access scope holds an access that happened
                    // before one of them (`Order::in_signal_access_scope`), so
                    // the availability operation is the wait's. A signal is
                    // included "if the logically latest pipeline stage in their
                    // stageMask parameter is logically earlier than or equal to
                    // the logically latest pipeline stage in srcStageMask";
                    // validation asks srcStageMask to be the OR of the sets'
                    // masks (VUID-vkCmdWaitEvents-srcStageMask-01158), which
                    // includes every set. A host set "only included in the
                    // first synchronization scope if VK_PIPELINE_STAGE_HOST_BIT
                    // is included in srcStageMask", which the same rule asks.
                    Command::WaitEvents1 { events, dependency } => {
                        let signals: Vec<usize> = events
                            .iter()
                            .filter_map(|e| match last_set.get(&e.0).copied() {
                                Some(Some(s)) => set_nodes.get(&s).and_then(|n| n.first().copied()),
                                Some(None) => host_set_node.get(&e.0).copied(),
                                // Refused by validation (the wait would never
                                // end); nothing orders it.
                                None => None,
                            })
                            .collect();
                        // A barrier with a layout transition performs it as
                        // part of this memory dependency, as a pipeline
                        // barrier does: W1 = (signals, A1 -> X/T) at step 0,
                        // the transition at step 1, W2 = (X/T -> S2/A2) at
                        // step 2 ("it happens-after the availability
                        // operations in the memory dependency, and
                        // happens-before the visibility operations").
                        for b in &dependency.barriers {
                            let node = device_op!();
                            let second = scopes::sync_scope(b.dst_stage_mask.bits(), Side::Second);
                            let whole = DepOp {
                                footprint: None,
                                node,
                                pos: (ci, 0),
                                first_all: false,
                                second_all: second.is_superset(&scopes::all_commands()),
                                first: Stages::new(),
                                second,
                                first_access: scopes::access_scope(
                                    b.src_stage_mask.bits(),
                                    b.src_access_mask.bits(),
                                    Side::First,
                                ),
                                second_access: scopes::access_scope(
                                    b.dst_stage_mask.bits(),
                                    b.dst_access_mask.bits(),
                                    Side::Second,
                                ),
                                range: b.region.map(|r| layout.at(r)),
                                first_pseudo: None,
                                second_pseudo: None,
                                first_signals: signals.clone(),
                                local: None,
                                first_in: None,
                                second_in: None,
                                first_before: None,
                            };
                            for &from in &signals {
                                event_edges.push((from, node));
                            }
                            let Some(region) = b.region.filter(|_| b.transition) else {
                                deps.push(whole);
                                continue;
                            };
                            let t = transitions;
                            transitions += 1;
                            let (w1, mut w2) = whole.split_at_transition(t);
                            deps.push(w1);
                            let node = device_op!();
                            accesses.push(transition_op(node, ci, t, layout.at(region)));
                            w2.node = device_op!();
                            deps.push(w2);
                        }
                    }
                    Command::HostSetEvent { event } => {
                        let node = new_node();
                        batch_of.resize(node + 1, None);
                        host_events.push((node, ci));
                        host_set_node.insert(event.0, node);
                        last_set.insert(event.0, None);
                    }
                    // A reset only decides which set a later wait pairs with
                    // (validation refuses a wait with no set since); it orders
                    // no memory access.
                    Command::ResetEvent { .. } | Command::HostResetEvent { .. } => {}
                    Command::Submit(sub) => {
                        let node = new_node();
                        batch_of.resize(node + 1, None);
                        let k = submits.len();
                        for op in unsubmitted_ops.drain(..) {
                            batch_of[op] = Some(k);
                        }
                        submits.push(node);
                        batch_queue.push(sub.queue);
                        host_events.push((node, ci));
                        // The batch's semaphore waits, then its signals: both
                        // are operations of the batch, on its queue.
                        for w in &sub.waits {
                            let node = new_node();
                            batch_of.resize(node + 1, None);
                            batch_of[node] = Some(k);
                            let sem = w.semaphore.0 as usize;
                            let mut candidates = Vec::new();
                            match w.value {
                                None => candidates.extend(pending[sem].take()),
                                Some(v) => timeline_waits.push((sem_waits.len(), sem, v)),
                            }
                            let second = scopes::sync_scope(w.stages.bits(), Side::Second);
                            sem_waits.push(WaitOp {
                                node,
                                batch: Some(k),
                                all: second.is_superset(&scopes::all_commands()),
                                second,
                                candidates,
                            });
                        }
                        for sig in &sub.signals {
                            let node = new_node();
                            batch_of.resize(node + 1, None);
                            batch_of[node] = Some(k);
                            let sem = sig.semaphore.0 as usize;
                            if sig.value.is_none() {
                                pending[sem] = Some(signals.len());
                            }
                            let first = scopes::sync_scope(sig.stages.bits(), Side::First);
                            signals.push(SignalOp {
                                node,
                                batch: Some(k),
                                all: first.is_superset(&scopes::all_commands()),
                                first,
                                semaphore: sem,
                                value: sig.value,
                            });
                        }
                    }
                    Command::Wait(target) => {
                        let node = new_node();
                        batch_of.resize(node + 1, None);
                        let queue = match target {
                            WaitFor::All => None,
                            WaitFor::Queue(q) => Some(*q),
                        };
                        waits.push((node, submits.len(), queue));
                        host_events.push((node, ci));
                    }
                    Command::HostSignal { semaphore, value } => {
                        let node = new_node();
                        batch_of.resize(node + 1, None);
                        host_events.push((node, ci));
                        signals.push(SignalOp {
                            node,
                            batch: None,
                            first: Stages::new(),
                            all: false,
                            semaphore: semaphore.0 as usize,
                            value: Some(*value),
                        });
                    }
                    Command::HostWait { semaphore, value } => {
                        let node = new_node();
                        batch_of.resize(node + 1, None);
                        host_events.push((node, ci));
                        timeline_waits.push((sem_waits.len(), semaphore.0 as usize, *value));
                        sem_waits.push(WaitOp {
                            node,
                            batch: None,
                            second: Stages::new(),
                            all: false,
                            candidates: Vec::new(),
                        });
                    }
                    _ => {
                        // A rendering command's implicit dependencies (module
                        // `crate::ir::render`: the load operation happens-before
                        // the instance's accesses of the sample, the store
                        // operation after them, draws in rasterization order):
                        // each a dependency at step 0 whose scopes are exactly
                        // the stages it names, over its attachment's bytes; the
                        // command's accesses at step 1, after them.
                        let step = match c {
                            Command::Render(rc) => {
                                for d in rc.implicit() {
                                    let stages = scopes::exact_scope(d.stages.bits());
                                    let pairs =
                                        scopes::access_scope(d.stages.bits(), d.access.bits(), Side::First);
                                    let node = device_op!();
                                    deps.push(DepOp {
                                        footprint: None,
                                        node,
                                        pos: (ci, 3),
                                        first: stages.clone(),
                                        second: stages,
                                        first_access: pairs.clone(),
                                        second_access: pairs,
                                        range: Some(layout.at(d.region)),
                                        first_pseudo: None,
                                        second_pseudo: None,
                                        first_all: false,
                                        second_all: false,
                                        first_signals: Vec::new(),
                                        local: instance,
                                        first_in: None,
                                        second_in: None,
                                        first_before: None,
                                    });
                                }
                                4
                            }
                            _ => 0,
                        };
                        for a in crate::ir::access::accesses(c, layout, crate::semantics::Semantics::SPEC) {
                            // The pair's registry names, and from the registry
                            // whether it writes and whether the host makes it
                            // (not `StageAccess`'s own methods: the fast
                            // checker's table). A command's accesses are never
                            // the pseudo pairs, which barriers make (above).
                            let Some((stage, access)) = scopes::pair_names(a.sa) else {
                                continue;
                            };
                            let node = new_node();
                            batch_of.resize(node + 1, None);
                            let host = scopes::is_host_stage(stage);
                            if host {
                                host_events.push((node, ci));
                            } else {
                                unsubmitted_ops.push(node);
                            }
                            accesses.push(AccessOp {
                                footprint: None,
                                node,
                                command: ci,
                                pos: (ci, step),
                                pseudo: None,
                                qfot: false,
                                mem: a.mem,
                                range: a.range,
                                stage,
                                access,
                                write: scopes::is_write(access),
                                host,
                                sa: a.sa,
                                instance,
                            });
                        }
                    }
                }
            }
        }
        // Whatever is recorded at the end is submitted then.
        if !unsubmitted_ops.is_empty() {
            let node = new_node();
            batch_of.resize(node + 1, None);
            for op in unsubmitted_ops.drain(..) {
                batch_of[op] = Some(submits.len());
            }
            submits.push(node);
            batch_queue.push(QueueId(0));
            host_events.push((node, program.commands.len()));
        }
        let fences: Vec<usize> = submits.iter().map(|_| new_node()).collect();
        let n = nodes;
        batch_of.resize(n, None);
        // The queue of a device operation.
        let queue = |node: usize| batch_of[node].map(|b| batch_queue[b]);
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];

        // Execution dependencies of pipeline barriers. "Let ScopedOps1 be
        // the intersection of sets Ops1 and Scope1st ... Submitting Ops1,
        // Sync and Ops2 for execution, in that order, will result in
        // execution dependency ExeDep between ScopedOps1 and ScopedOps2."
        // The first synchronization scope "includes all commands that occur
        // earlier in submission order", the second those later; submission
        // order on one queue is the order commands are recorded here.
        // Host accesses are not queue operations and are in neither scope.
        // A layout transition is in the scopes of its own B1 (second) and
        // B2 (first), through its pseudo stage, and in the `ALL_COMMANDS`
        // scopes of other commands ("all operations performed by all
        // commands supported on the queue", `AccessOp::in_first`).
        //
        // Submission order is per queue: "the order in which vkQueueSubmit
        // ... commands are executed on the host, for a single queue"
        // ("Submission Order"), so a barrier's scopes hold only commands
        // of its own queue.
        for d in &deps {
            // An implicit dependency of a rendering instance orders the
            // accesses of its own bytes only (`DepOp::local`).
            let touches = |a: &AccessOp| d.local.is_none() || d.meets(a.mem, a.range);
            for a in accesses
                .iter()
                .filter(|a| !a.host && queue(a.node) == queue(d.node) && touches(a))
            {
                if a.pos < d.pos && a.in_first(d) {
                    edges[a.node].push(d.node);
                }
                if a.pos > d.pos && a.in_second(d) {
                    edges[d.node].push(a.node);
                }
            }
        }
        // Execution dependency chains: "an execution dependency chain exists
        // if the intersection of ScopedOps2 in ExeDepA and ScopedOps1 in
        // ExeDepB is not an empty set." Read, as every implementation and
        // the validation layer read it, at the level of stages: a later
        // dependency whose first scope shares a stage with an earlier one's
        // second scope continues it. Dependencies of one
        // vkCmdPipelineBarrier2 are not earlier or later than each other,
        // so they do not chain. A transition's B1 and B2 share its pseudo
        // stage (and chain through it, as through the transition itself);
        // no other dependency has it in a scope.
        // A scope limited to one rendering instance (a subpass
        // dependency's side that is a subpass, an implicit dependency)
        // holds operations of that instance only, which are in graphics
        // stages: "the intersection of ScopedOps2 in ExeDepA and ScopedOps1
        // in ExeDepB" is empty where the shared stages are none of them (a
        // barrier to COPY before a render pass does not chain into a
        // dependency from its subpass 0, whatever that names; review36).
        let in_instance = scopes::instance_stages();
        for a in &deps {
            for b in &deps {
                let pseudo = a.second_pseudo.is_some() && a.second_pseudo == b.first_pseudo;
                let limited = a.second_instance().is_some() || b.first_instance().is_some();
                // Into an implicit dependency of a rendering instance only
                // from a recorded barrier or its own instance's (another
                // instance's implicit dependencies order that instance's
                // accesses only); into a subpass dependency only from one
                // whose second scope can hold accesses of its `srcSubpass`
                // (`DepOp::chains_into`).
                let into_local = a.chains_into(b);
                if a.pos < b.pos
                    && into_local
                    && queue(a.node) == queue(b.node)
                    && (pseudo || chain_stages(&a.second, &b.first, limited, &in_instance))
                {
                    edges[a.node].push(b.node);
                }
            }
        }
        // Event signal operations before their waits (see `SetEvent`).
        for &(a, b) in &event_edges {
            edges[a].push(b);
        }
        // Subpass dependencies before the automatic layout transitions that
        // happen after their availability operations, those transitions
        // before the second halves of the dependencies whose visibility
        // operations they happen before, and each split dependency's first
        // half before its second (`transition_edges`).
        for &(a, b) in &transition_edges {
            edges[a].push(b);
        }
        // Host program order: host accesses, submits and waits of the one
        // host thread, in the order the program lists them.
        for w in host_events.windows(2) {
            edges[w[0].0].push(w[1].0);
        }
        // "The second synchronization scope includes all commands submitted
        // in the same queue submission, and all commands that occur later in
        // submission order" ("Host Write Ordering Guarantees").
        for (op, batch) in batch_of.iter().enumerate() {
            if let Some(k) = batch {
                edges[submits[*k]].push(op);
            }
        }
        // Fence signal: "The first synchronization scope includes every
        // batch submitted in the same queue submission command ... all
        // commands that occur earlier in submission order."
        // Earlier in submission order is on the same queue.
        for (op, batch) in batch_of.iter().enumerate() {
            if let Some(k) = batch {
                for (j, f) in fences.iter().enumerate().skip(*k) {
                    if batch_queue[j] == batch_queue[*k] {
                        edges[op].push(*f);
                    }
                }
            }
        }
        // Fence wait: "The first synchronization scope includes only the
        // fence signal operation. The second synchronization scope includes
        // the host operations of vkWaitForFences". A wait here waits for
        // every submission made before it.
        // `wait QUEUE` is vkQueueWaitIdle, "equivalent to having submitted
        // a valid fence to every previously executed queue submission
        // command that accepts a fence, then waiting for all of those
        // fences": the fences of that queue's submissions so far.
        for (node, submitted, q) in &waits {
            for (j, f) in fences[..*submitted].iter().enumerate() {
                if q.is_none_or(|q| batch_queue[j] == q) {
                    edges[*f].push(*node);
                }
            }
        }

        // Semaphore signal operations of a submission. "The first
        // synchronization scope of each semaphore signal operation defined
        // by this command includes every command in the same batch that the
        // signal operation is defined in, and all commands that occur
        // earlier in submission order. The scope is limited by the
        // stageMask" (vkQueueSubmit2; vkQueueSubmit's is ALL_COMMANDS).
        // The signal is an operation of its batch: its submit happens
        // before it. Chains into it are at the level of stages, as between
        // barriers ("an execution dependency chain exists if the
        // intersection of ScopedOps2 in ExeDepA and ScopedOps1 in ExeDepB
        // is not an empty set"): ALL_COMMANDS is the set of the queue's
        // stages, so a barrier whose second scope is NONE is not in it, as
        // it is in no later barrier's first scope with ALL_COMMANDS (the
        // barrier's own operations, availability and visibility, are not
        // held by stage); its layout transition is, below, as it is in
        // such a barrier's first scope (`AccessOp::in_first`;
        // `docs/semantics.md`, "Layout transitions and `ALL_COMMANDS`").
        // One reading kept: with ALL_COMMANDS, a barrier whose second scope
        // holds HOST is in the signal's first scope (its device-to-host
        // domain operation has no device stage to chain through; a host
        // wait for the signal consumes it, as a fence wait does).
        let earlier_on = |node: usize, k: usize| {
            batch_of[node].is_some_and(|b| b <= k && batch_queue[b] == batch_queue[k])
        };
        let later_on = |node: usize, k: usize| {
            batch_of[node].is_some_and(|b| b >= k && batch_queue[b] == batch_queue[k])
        };
        for s in &signals {
            let Some(k) = s.batch else { continue };
            edges[submits[k]].push(s.node);
            // A queue family release or acquire operation is in no stage:
            // "VK_PIPELINE_STAGE_ALL_COMMANDS_BIT is the only valid stage
            // to wait on or wait for these operations".
            // A layout transition is in it too with ALL_COMMANDS, which
            // "specifies all operations performed by all commands supported
            // on the queue": the transition is an operation of its barrier
            // command (as it is in a fence signal's first scope, which
            // holds "all commands that occur earlier in submission order").
            // A narrower mask names stages, and a transition is in none.
            for a in accesses.iter().filter(|a| !a.host && earlier_on(a.node, k)) {
                if if a.pseudo.is_some() {
                    s.all
                } else {
                    s.first.contains(a.stage)
                } {
                    edges[a.node].push(s.node);
                }
            }
            // From a dependency whose second scope is limited to a
            // rendering instance only through a stage an operation of the
            // instance can be in (as between barriers, above).
            for d in deps.iter().filter(|d| earlier_on(d.node, k)) {
                if chain_stages(&d.second, &s.first, d.second_instance().is_some(), &in_instance)
                    || (s.all && d.second.contains("HOST"))
                {
                    edges[d.node].push(s.node);
                }
            }
            for w in sem_waits
                .iter()
                .filter(|w| w.batch.is_some() && earlier_on(w.node, k))
            {
                if w.second.intersection(&s.first).next().is_some() {
                    edges[w.node].push(s.node);
                }
            }
            // "The first synchronization scope [of a fence signal] includes
            // every batch submitted in the same queue submission command":
            // the batch's semaphore operations too.
            for (j, f) in fences.iter().enumerate().skip(k) {
                if batch_queue[j] == batch_queue[k] {
                    edges[s.node].push(*f);
                }
            }
        }
        // Semaphore wait operations of a submission: "The second
        // synchronization scope of each semaphore wait operation defined by
        // this command includes every command in the same batch that the
        // wait operation is defined in, and all commands that occur later
        // in submission order. The scope is limited by the stageMask";
        // "The semaphore wait operation happens-after the first set of
        // operations in the execution dependency, and happens-before the
        // second set". Later barriers chain from it at the level of
        // stages only: with ALL_COMMANDS, a barrier whose first scope is
        // NONE (or HOST) is not ordered after it, nor are its
        // availability, visibility and domain operations (a host write's
        // domain operation through such a barrier is read in
        // `location_ordered`); its layout transition is, below.
        for w in &sem_waits {
            let Some(k) = w.batch else { continue };
            edges[submits[k]].push(w.node);
            // A layout transition of its batch or later is in it with
            // ALL_COMMANDS, as in a signal's first scope (above).
            for a in accesses.iter().filter(|a| !a.host && later_on(a.node, k)) {
                if if a.pseudo.is_some() {
                    w.all
                } else {
                    w.second.contains(a.stage)
                } {
                    edges[w.node].push(a.node);
                }
            }
            for d in deps.iter().filter(|d| later_on(d.node, k)) {
                if chain_stages(&w.second, &d.first, d.first_instance().is_some(), &in_instance) {
                    edges[w.node].push(d.node);
                }
            }
            for (j, f) in fences.iter().enumerate().skip(k) {
                if batch_queue[j] == batch_queue[k] {
                    edges[w.node].push(*f);
                }
            }
        }

        // "for timeline semaphores, the signal value is greater than or
        // equal to the wait value" and "the signal operation is not
        // guaranteed to happen-after the semaphore wait operation"; "If
        // multiple semaphore signal operations meet these criteria, any of
        // those operations may be included": the wait is ordered after what
        // every candidate is ordered after (their intersection). A value
        // the initial value already reaches needs no signal: the wait
        // orders nothing.
        //
        // Which signals are guaranteed to happen after a wait depends on
        // the pairings, which depend on the candidates: a fixpoint. Start
        // from the relation without any pairing (what it orders is
        // guaranteed), drop from each wait's candidates the signals that
        // relation puts after the wait, pair, and repeat with the larger
        // relation until no candidate is dropped. Every relation on the way
        // orders only what every execution orders (a wait paired with a
        // superset of its true candidates is ordered after less), so every
        // dropped signal does happen after its wait; candidates only shrink,
        // so it ends. A signal that happens after the wait in a way no
        // relation here shows stays a candidate (conservative: more races,
        // never fewer).
        // Candidates only shrink and the sets only grow, so at most one
        // round per candidate.
        let rounds = 2 + signals.len() * timeline_waits.len();
        for _ in 0..rounds {
            let meets: Vec<(usize, Vec<usize>)> = sem_waits
                .iter()
                .filter(|w| !w.candidates.is_empty())
                .map(|w| (w.node, w.candidates.iter().map(|&c| signals[c].node).collect()))
                .collect();
            let mut changed = false;
            for &(w, sem, v) in &timeline_waits {
                if timeline_initial(sem) >= v {
                    continue;
                }
                let wn = sem_waits[w].node;
                let after = guaranteed_after(&edges, &meets, wn);
                let candidates: Vec<usize> = signals
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.semaphore == sem && s.value.is_some_and(|sv| sv >= v))
                    .filter(|(_, s)| !after[s.node])
                    .map(|(i, _)| i)
                    .collect();
                // The first round starts from every signal of the value
                // (no candidate is known yet): take its answer.
                if candidates != sem_waits[w].candidates {
                    sem_waits[w].candidates = candidates;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let meets: Vec<(usize, Vec<usize>)> = sem_waits
            .iter()
            .filter(|w| !w.candidates.is_empty())
            .map(|w| (w.node, w.candidates.iter().map(|&c| signals[c].node).collect()))
            .collect();
        let reach = reachability(&edges, &meets);
        let edges_kept = edges.clone();
        Order {
            accesses,
            deps,
            signals,
            waits: sem_waits,
            batch_queue,
            batch_of,
            submits,
            fences,
            reach,
            edges: edges_kept,
            meets,
        }
    }
}

/// Whether an execution dependency chain runs from a second scope of
/// stages `second` into a first scope of stages `first`: "the intersection
/// of ScopedOps2 in ExeDepA and ScopedOps1 in ExeDepB is not an empty
/// set", read at the level of stages. Where either scope is `limited` to
/// one rendering instance it holds that instance's operations only, so
/// the shared stage must be one of `in_instance`
/// ([`scopes::instance_stages`]).
fn chain_stages(second: &Stages, first: &Stages, limited: bool, in_instance: &Stages) -> bool {
    second
        .intersection(first)
        .any(|s| !limited || in_instance.contains(s))
}

/// The write of the layout transition with pseudo stage `t` that command
/// `ci` performs over `m`, at step 1 of its position.
fn transition_op(node: usize, ci: usize, t: usize, m: MemRange) -> AccessOp {
    AccessOp {
        footprint: None,
        node,
        command: ci,
        pos: (ci, 1),
        pseudo: Some(t),
        qfot: false,
        mem: m.mem,
        range: m.range,
        stage: TRANSITION,
        access: TRANSITION,
        write: true,
        host: false,
        sa: crate::vk::scope::StageAccess::ImageLayoutTransition,
        instance: None,
    }
}

impl Order {
    /// The nodes of the implicit dependencies of rendering instances
    /// whose bytes are not `cell` of `mem`: those [`Order::for_cell`]
    /// leaves out (cells never straddle a dependency's range).
    pub fn left_out(&self, mem: crate::ir::layout::MemId, cell: crate::ir::program::ByteRange) -> Vec<usize> {
        self.deps
            .iter()
            .filter(|d| d.local.is_some() && !d.meets(mem, cell))
            .map(|d| d.node)
            .collect()
    }

    /// The relation as the accesses of bytes `cell` of `mem` see it: with
    /// every implicit dependency of a rendering instance whose bytes are
    /// not these ([`DepOp::local`]) taken out, edges and chains alike.
    /// Those dependencies stand for the guarantees of "Render Pass
    /// Load/Store Operations" and "Rasterization Order", which are "for
    /// each sample": they order the accesses of their own bytes and carry
    /// nothing else, neither directly nor along a chain through them (a
    /// buffer write made available by a barrier inside a subpass does not
    /// reach a barrier after the pass through the depth attachment's
    /// store dependency, `model/tests/renderpass.rs`). `None` when no such
    /// dependency exists (the relation is `self`'s). The pairing of
    /// timeline semaphore waits is kept as the whole program's (rendering
    /// commands on several queues are rare, and the fast checker refuses
    /// them).
    pub fn for_cell(
        &self,
        mem: crate::ir::layout::MemId,
        cell: crate::ir::program::ByteRange,
    ) -> Option<Order> {
        let left_out = self.left_out(mem, cell);
        if left_out.is_empty() {
            return None;
        }
        let mut off = vec![false; self.edges.len()];
        for n in left_out {
            off[n] = true;
        }
        let edges: Vec<Vec<usize>> = self
            .edges
            .iter()
            .enumerate()
            .map(|(a, out)| {
                if off[a] {
                    Vec::new()
                } else {
                    out.iter().copied().filter(|&b| !off[b]).collect()
                }
            })
            .collect();
        Some(Order {
            accesses: self.accesses.clone(),
            deps: self.deps.clone(),
            signals: self.signals.clone(),
            waits: self.waits.clone(),
            batch_queue: self.batch_queue.clone(),
            batch_of: self.batch_of.clone(),
            submits: self.submits.clone(),
            fences: self.fences.clone(),
            reach: reachability(&edges, &self.meets),
            edges,
            meets: self.meets.clone(),
        })
    }
}

/// The operations guaranteed to happen after `from`: reached over `edges`,
/// and each node of `meets` once *every* one of its predecessors is (a
/// semaphore wait after all of its candidate signals). A forward closure,
/// so cycles (a deadlocked program) cannot hide what it reaches.
fn guaranteed_after(edges: &[Vec<usize>], meets: &[(usize, Vec<usize>)], from: usize) -> Vec<bool> {
    let n = edges.len();
    let mut seen = vec![false; n];
    let mut stack = vec![from];
    seen[from] = true;
    loop {
        while let Some(u) = stack.pop() {
            for &v in &edges[u] {
                if !seen[v] {
                    seen[v] = true;
                    stack.push(v);
                }
            }
        }
        let ready: Vec<usize> = meets
            .iter()
            .filter(|(m, ps)| !seen[*m] && ps.iter().all(|&p| seen[p]))
            .map(|(m, _)| *m)
            .collect();
        if ready.is_empty() {
            return seen;
        }
        for m in ready {
            seen[m] = true;
            stack.push(m);
        }
    }
}

/// `reach[a]` holds `b` when `a` happens-before `b` or `a == b`: over
/// `edges`, and for each `(node, preds)` of `meets`, `node` happens-after
/// whatever happens-before *every* one of `preds` (and after each of them
/// only when there is one). Computed as ancestor sets in a topological
/// order, the nodes no topological order reaches (a cycle through a
/// conservative pairing, and everything after it) as a least fixpoint,
/// then transposed.
fn reachability(edges: &[Vec<usize>], meets: &[(usize, Vec<usize>)]) -> Vec<Vec<u64>> {
    let n = edges.len();
    let words = n.div_ceil(64).max(1);
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (a, out) in edges.iter().enumerate() {
        for &b in out {
            preds[b].push(a);
        }
    }
    let mut meet_of: Vec<Option<&[usize]>> = vec![None; n];
    let mut indegree: Vec<usize> = preds.iter().map(Vec::len).collect();
    let mut succ: Vec<Vec<usize>> = edges.to_vec();
    for (node, ps) in meets {
        meet_of[*node] = Some(ps);
        for &p in ps {
            succ[p].push(*node);
            indegree[*node] += 1;
        }
    }
    // Kahn's algorithm. The graph is acyclic for every program that
    // completes (module `crate::ir::progress` refuses the others) but for
    // one thing: a timeline wait whose conservative candidate signal
    // happens after the wait only through another wait's pairing (the
    // candidate fixpoint of `Order::build` cannot show it) closes a cycle
    // through `meets`. Kahn's order then stops at the cycle, and every
    // node downstream of it, not only those on it, is left over.
    let mut order: Vec<usize> = (0..n).filter(|&v| indegree[v] == 0).collect();
    let mut i = 0;
    while i < order.len() {
        let v = order[i];
        i += 1;
        for &w in &succ[v] {
            indegree[w] -= 1;
            if indegree[w] == 0 {
                order.push(w);
            }
        }
    }
    let rest: Vec<usize> = (0..n).filter(|&v| indegree[v] > 0).collect();
    let mut anc = vec![vec![0u64; words]; n];
    for &v in &order {
        anc[v] = ancestors_of(v, &preds, meet_of[v], &anc);
    }
    // The nodes left over get the least fixpoint of the same equations:
    // each starts as its own only ancestor, and rows only grow, so it
    // ends. That is every ordering a finite chain of edges and pairings
    // derives, and no other: a wait is ordered after what precedes *every*
    // candidate, and a candidate on the cycle precedes it only by
    // derivations that close, so the wait is ordered after no more than
    // the execution's true pairing would order it (fewer orderings, so more
    // races, never fewer), while a node after the cycle gets everything
    // its predecessors have. (Before, the left-over nodes were processed
    // once in index order, so a node after the cycle missed what its
    // unprocessed predecessors had: `docs/semantics.md`, "Queues and semaphores".)
    for &v in &rest {
        anc[v][v / 64] |= 1 << (v % 64);
    }
    let mut changed = !rest.is_empty();
    while changed {
        changed = false;
        for &v in &rest {
            let row = ancestors_of(v, &preds, meet_of[v], &anc);
            if row != anc[v] {
                anc[v] = row;
                changed = true;
            }
        }
    }
    // A cycle of plain edges (a program that cannot complete, refused
    // before it gets here) would make its nodes each other's ancestors and
    // hide their races: drop every ordering that runs both ways, so even
    // then no pair is ordered that some derivation does not order one way
    // only. User input must not panic, so no assertion.
    for &v in &rest {
        for &u in &rest {
            if u != v && anc[v][u / 64] & (1 << (u % 64)) != 0 && anc[u][v / 64] & (1 << (v % 64)) != 0 {
                anc[v][u / 64] &= !(1 << (u % 64));
                anc[u][v / 64] &= !(1 << (v % 64));
            }
        }
    }
    let mut reach = vec![vec![0u64; words]; n];
    for (b, row) in anc.iter().enumerate() {
        for a in 0..n {
            if row[a / 64] & (1 << (a % 64)) != 0 {
                reach[a][b / 64] |= 1 << (b % 64);
            }
        }
    }
    reach
}

/// One node's ancestor row from its predecessors' rows: itself, every
/// ancestor of a predecessor over `edges`, and, for a semaphore wait with
/// candidate signals `meet`, what happens-before every one of them (each
/// candidate itself included when it is the only one).
fn ancestors_of(v: usize, preds: &[Vec<usize>], meet: Option<&[usize]>, anc: &[Vec<u64>]) -> Vec<u64> {
    let mut row = vec![0u64; anc[v].len()];
    row[v / 64] |= 1 << (v % 64);
    for &p in &preds[v] {
        for (r, a) in row.iter_mut().zip(&anc[p]) {
            *r |= *a;
        }
    }
    if let Some(ps) = meet {
        let mut common = anc[ps[0]].clone();
        for &p in &ps[1..] {
            for (c, a) in common.iter_mut().zip(&anc[p]) {
                *c &= *a;
            }
        }
        for (r, c) in row.iter_mut().zip(&common) {
            *r |= *c;
        }
    }
    row
}

/// The access scope of a set of dependencies (`masks`: each one's stage
/// and access masks on `side`), the union of each one's; `None` for no
/// set (not a render pass's layout transition).
fn set_scope(
    masks: &[(
        crate::vk::flags::PipelineStageFlags2,
        crate::vk::flags::AccessFlags2,
    )],
    side: Side,
) -> Option<scopes::Pairs> {
    (!masks.is_empty()).then(|| {
        masks
            .iter()
            .flat_map(|(s, a)| scopes::access_scope(s.bits(), a.bits(), side))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::reachability;

    /// A graph (edges, meets) and every ordered pair `(a, b)` with `a`
    /// happening before `b`, `a != b`: the relation must be exactly these.
    struct Case {
        name: &'static str,
        edges: &'static [&'static [usize]],
        meets: &'static [(usize, &'static [usize])],
        ordered: &'static [(usize, usize)],
    }

    #[test]
    fn reachability_gives_nodes_after_a_cycle_their_ancestors() {
        let cases = [
            Case {
                name: "a chain",
                edges: &[&[1], &[2], &[]],
                meets: &[],
                ordered: &[(0, 1), (0, 2), (1, 2)],
            },
            Case {
                // Wait 2 may pair with signal 0 or signal 4, which follows
                // it through 3: the cycle 2 -> 3 -> 4 => 2, on which 2 is
                // not after 0. Node 1 is after 4, with a lower index (it
                // used to be processed first, with 4's row still empty);
                // node 5 is before 3.
                name: "a cycle through a pairing, and a node after it",
                edges: &[&[], &[], &[3], &[4], &[1], &[3]],
                meets: &[(2, &[0, 4])],
                ordered: &[
                    (2, 1),
                    (2, 3),
                    (2, 4),
                    (3, 1),
                    (3, 4),
                    (4, 1),
                    (5, 1),
                    (5, 3),
                    (5, 4),
                ],
            },
            Case {
                // Both candidates share an ancestor (node 0): the wait is
                // after it, on the cycle too.
                name: "a cycle through a pairing whose candidates share an ancestor",
                edges: &[&[1, 4], &[], &[3], &[4], &[5], &[]],
                meets: &[(2, &[1, 4])],
                ordered: &[
                    (0, 1),
                    (0, 2),
                    (0, 3),
                    (0, 4),
                    (0, 5),
                    (2, 3),
                    (2, 4),
                    (2, 5),
                    (3, 4),
                    (3, 5),
                    (4, 5),
                ],
            },
            Case {
                // A cycle of plain edges (a program that never completes,
                // refused before the semantics): no pair on it is ordered
                // either way; what is before or after it still is.
                name: "a cycle of plain edges",
                edges: &[&[1], &[2], &[1, 3], &[]],
                meets: &[],
                ordered: &[(0, 1), (0, 2), (0, 3), (1, 3), (2, 3)],
            },
        ];
        for c in cases {
            let edges: Vec<Vec<usize>> = c.edges.iter().map(|e| e.to_vec()).collect();
            let meets: Vec<(usize, Vec<usize>)> = c.meets.iter().map(|(m, ps)| (*m, ps.to_vec())).collect();
            let reach = reachability(&edges, &meets);
            let n = edges.len();
            let got: Vec<(usize, usize)> = (0..n)
                .flat_map(|a| (0..n).map(move |b| (a, b)))
                .filter(|&(a, b)| a != b && reach[a][b / 64] & (1 << (b % 64)) != 0)
                .collect();
            assert_eq!(got, c.ordered, "case `{}`", c.name);
            for v in 0..n {
                assert!(
                    reach[v][v / 64] & (1 << (v % 64)) != 0,
                    "case `{}`: {v} before itself",
                    c.name
                );
            }
        }
    }
}
