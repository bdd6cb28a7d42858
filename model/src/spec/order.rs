//! The happens-before relation of a program, as an explicit graph.
//!
//! Nodes are every operation the definitional semantics reasons about:
//! each memory access of each command, each dependency of each
//! `vkCmdPipelineBarrier2` (one per memory or buffer barrier it carries),
//! each host-side event (host access, `vkQueueSubmit`, `vkWaitForFences`)
//! and each fence signal operation. Edges are the orderings the
//! specification defines directly; happens-before is reachability. Nothing
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
//! of them reaches a transition but its own.
//!
//! Invariant: the graph is acyclic (every edge goes forward in the
//! execution the program describes), and node ids are dense from 0.

use super::scopes::{self, Pairs, Side, Stages};
use crate::ir::layout::{Layout, MemRange};
use crate::ir::program::{Command, Program};

/// Where an operation is in submission order: its command, then its step
/// inside the command (0 for every access and dependency but the parts of
/// a barrier with a layout transition: B1 at 0, the transition at 1, B2 at
/// 2).
pub(crate) type Pos = (usize, usize);

/// The pseudo stage name of layout transitions (each transition's own X is
/// told apart by its `pseudo` id; the name is for reading only).
pub(crate) const TRANSITION: &str = "IMAGE_LAYOUT_TRANSITION";

/// One memory access of a command or of the host.
#[derive(Clone, Debug)]
pub(crate) struct AccessOp {
    pub node: usize,
    pub command: usize,
    pub pos: Pos,
    /// For a layout transition's write: the id of its pseudo stage X (and
    /// pseudo access T), which only its own barrier's B1 (second scopes)
    /// and B2 (first scopes) hold.
    pub pseudo: Option<usize>,
    pub mem: crate::ir::layout::MemId,
    pub range: crate::ir::program::ByteRange,
    pub stage: &'static str,
    pub access: &'static str,
    pub write: bool,
    pub host: bool,
    /// The access as the IR names it, for reporting.
    pub sa: crate::vk::scope::StageAccess,
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
    /// B2 of a transition: its first synchronization and access scopes
    /// also hold that transition's pseudo stage X and pair (X, T).
    pub first_pseudo: Option<usize>,
    /// B1 of a transition: its second scopes also hold X and (X, T).
    pub second_pseudo: Option<usize>,
}

impl AccessOp {
    /// Whether `d`'s first synchronization scope holds this access's stage
    /// (a transition: only its own B2's does).
    pub fn in_first(&self, d: &DepOp) -> bool {
        match self.pseudo {
            Some(t) => d.first_pseudo == Some(t),
            None => d.first.contains(self.stage),
        }
    }

    /// Whether `d`'s second synchronization scope holds this access's stage
    /// (a transition: only its own B1's does).
    pub fn in_second(&self, d: &DepOp) -> bool {
        match self.pseudo {
            Some(t) => d.second_pseudo == Some(t),
            None => d.second.contains(self.stage),
        }
    }

    /// Whether `d`'s first access scope holds this access (range aside).
    pub fn in_first_access(&self, d: &DepOp) -> bool {
        match self.pseudo {
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

/// The program's operations and its happens-before relation.
pub(crate) struct Order {
    pub accesses: Vec<AccessOp>,
    pub deps: Vec<DepOp>,
    /// Node of each `vkQueueSubmit` (including the implicit one that
    /// submits whatever is recorded at the end of the program).
    pub submits: Vec<usize>,
    /// Node of the fence signal operation of each submission.
    pub fences: Vec<usize>,
    /// `reach[a]` holds `b` when `a` happens-before `b` (or `a == b`).
    reach: Vec<Vec<u64>>,
}

impl Order {
    /// Whether `a` happens-before `b`; every node happens-before itself
    /// here, which is what the location-order conditions need (an
    /// availability and a visibility operation of one dependency are
    /// ordered "in the order listed").
    pub fn hb(&self, a: usize, b: usize) -> bool {
        self.reach[a][b / 64] & (1 << (b % 64)) != 0
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
        // Layout transitions so far: the next one's pseudo stage id.
        let mut transitions = 0usize;
        let mut waits: Vec<(usize, usize)> = Vec::new(); // (node, submits so far)
        for (ci, c) in program.commands.iter().enumerate() {
            match c {
                Command::Barrier(dep) => {
                    for b in &dep.barriers {
                        let whole = DepOp {
                            node: 0,
                            pos: (ci, 0),
                            first: scopes::sync_scope(b.src_stage_mask.bits(), Side::First),
                            second: scopes::sync_scope(b.dst_stage_mask.bits(), Side::Second),
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
                        };
                        let transition = b.region.filter(|_| b.transition);
                        let parts = match transition {
                            None => vec![whole],
                            // B1 = (S1/A1 -> X/T) at step 0 and B2 =
                            // (X/T -> S2/A2) at step 2, both over the
                            // region; the transition at (X, T) between.
                            Some(_) => vec![
                                DepOp {
                                    second: Stages::new(),
                                    second_access: Pairs::new(),
                                    second_pseudo: Some(transitions),
                                    ..whole.clone()
                                },
                                DepOp {
                                    pos: (ci, 2),
                                    first: Stages::new(),
                                    first_access: Pairs::new(),
                                    first_pseudo: Some(transitions),
                                    ..whole
                                },
                            ],
                        };
                        for mut d in parts {
                            d.node = new_node();
                            batch_of.resize(d.node + 1, None);
                            unsubmitted_ops.push(d.node);
                            deps.push(d);
                        }
                        let Some(region) = transition else {
                            continue;
                        };
                        let t = transitions;
                        transitions += 1;
                        let node = new_node();
                        batch_of.resize(node + 1, None);
                        unsubmitted_ops.push(node);
                        let m = layout.at(region);
                        accesses.push(AccessOp {
                            node,
                            command: ci,
                            pos: (ci, 1),
                            pseudo: Some(t),
                            mem: m.mem,
                            range: m.range,
                            stage: TRANSITION,
                            access: TRANSITION,
                            write: true,
                            host: false,
                            sa: crate::vk::scope::StageAccess::ImageLayoutTransition,
                        });
                    }
                }
                Command::Submit => {
                    let node = new_node();
                    batch_of.resize(node + 1, None);
                    for op in unsubmitted_ops.drain(..) {
                        batch_of[op] = Some(submits.len());
                    }
                    submits.push(node);
                    host_events.push((node, ci));
                }
                Command::Wait => {
                    let node = new_node();
                    batch_of.resize(node + 1, None);
                    waits.push((node, submits.len()));
                    host_events.push((node, ci));
                }
                _ => {
                    for a in crate::ir::access::accesses(c, layout, crate::semantics::Semantics::SPEC) {
                        let node = new_node();
                        batch_of.resize(node + 1, None);
                        let host = crate::ir::access::is_host(a.sa);
                        if host {
                            host_events.push((node, ci));
                        } else {
                            unsubmitted_ops.push(node);
                        }
                        accesses.push(AccessOp {
                            node,
                            command: ci,
                            pos: (ci, 0),
                            pseudo: None,
                            mem: a.mem,
                            range: a.range,
                            stage: scopes::stage_name(a.sa.stage().flag().bits()),
                            access: scopes::access_name(a.sa.access().bits()),
                            write: a.sa.is_write(),
                            host,
                            sa: a.sa,
                        });
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
            host_events.push((node, program.commands.len()));
        }
        let fences: Vec<usize> = submits.iter().map(|_| new_node()).collect();
        let n = nodes;
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
        // B2 (first) only, through its pseudo stage.
        for d in &deps {
            for a in accesses.iter().filter(|a| !a.host) {
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
        for a in &deps {
            for b in &deps {
                let pseudo = a.second_pseudo.is_some() && a.second_pseudo == b.first_pseudo;
                if a.pos < b.pos && (pseudo || a.second.intersection(&b.first).next().is_some()) {
                    edges[a.node].push(b.node);
                }
            }
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
        for (op, batch) in batch_of.iter().enumerate() {
            if let Some(k) = batch {
                for f in &fences[*k..] {
                    edges[op].push(*f);
                }
            }
        }
        // Fence wait: "The first synchronization scope includes only the
        // fence signal operation. The second synchronization scope includes
        // the host operations of vkWaitForFences". A wait here waits for
        // every submission made before it.
        for (node, submitted) in &waits {
            for f in &fences[..*submitted] {
                edges[*f].push(*node);
            }
        }

        // Reachability by a depth-first search from every node.
        let words = n.div_ceil(64).max(1);
        let mut reach = vec![vec![0u64; words]; n];
        for (start, row) in reach.iter_mut().enumerate() {
            let mut stack = vec![start];
            row[start / 64] |= 1 << (start % 64);
            while let Some(x) = stack.pop() {
                for &y in &edges[x] {
                    if row[y / 64] & (1 << (y % 64)) == 0 {
                        row[y / 64] |= 1 << (y % 64);
                        stack.push(y);
                    }
                }
            }
        }
        Order {
            accesses,
            deps,
            submits,
            fences,
            reach,
        }
    }
}
