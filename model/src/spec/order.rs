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
//! Invariant: the graph is acyclic (every edge goes forward in the
//! execution the program describes), and node ids are dense from 0.

use super::scopes::{self, Pairs, Side, Stages};
use crate::ir::layout::{Layout, MemRange};
use crate::ir::program::{Command, Program};

/// One memory access of a command or of the host.
#[derive(Clone, Debug)]
pub(crate) struct AccessOp {
    pub node: usize,
    pub command: usize,
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
    pub command: usize,
    pub first: Stages,
    pub second: Stages,
    pub first_access: Pairs,
    pub second_access: Pairs,
    pub range: Option<MemRange>,
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
        let mut waits: Vec<(usize, usize)> = Vec::new(); // (node, submits so far)
        for (ci, c) in program.commands.iter().enumerate() {
            match c {
                Command::Barrier(dep) => {
                    for b in &dep.barriers {
                        let node = new_node();
                        batch_of.resize(node + 1, None);
                        unsubmitted_ops.push(node);
                        deps.push(DepOp {
                            node,
                            command: ci,
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
        for d in &deps {
            for a in accesses.iter().filter(|a| !a.host) {
                if a.command < d.command && d.first.contains(a.stage) {
                    edges[a.node].push(d.node);
                }
                if a.command > d.command && d.second.contains(a.stage) {
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
        // so they do not chain.
        for a in &deps {
            for b in &deps {
                if a.command < b.command && a.second.intersection(&b.first).next().is_some() {
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
