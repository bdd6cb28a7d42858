//! The definitional semantics: data races decided pair by pair, straight
//! from the specification's definitions. It is the fast checker's oracle.
//!
//! This module owns a second, independent answer to "which accesses race":
//! it keeps every access of every byte (bytes are grouped into cells that
//! no access or barrier range splits, so every byte of a cell has the same
//! history), builds the program's happens-before relation as an explicit
//! graph (module `order`), and decides for every pair of accesses to a cell, at
//! least one a write, whether the earlier one (in program order) is
//! *location-ordered* before the later one, with the definitions of the
//! memory model appendix and the operations the synchronization chapter
//! says generate availability, visibility and domain operations. Its
//! stage and access tables come from the registry (module `registry`), not from
//! the fast checker's scope tables (`crate::vk::scope`): scopes, the
//! queue's stages, which stage is the host's, which access writes, meta
//! stage and access expansion and the validity of a barrier's masks
//! ([`validate`], which [`races`] applies to every barrier before anything
//! else) are all computed in module `scopes` from the registry rows. It
//! shares with the rest of the crate the program representation and its
//! errors, the memory layout, the per-command access table
//! ([`crate::accesses`]: which command touches which bytes, as a
//! `StageAccess` that module `scopes` names in registry terms), the
//! `StageAccess` type for reporting and the `HazardKind` names, and no
//! state-tracking code.
//!
//! A barrier that performs an image layout transition is split as the
//! specification orders the transition: its first half, the transition's
//! write (a write of the barrier's whole region, in a pseudo stage only
//! that barrier's two halves name), its second half (module `order`).
//! Other commands' scopes hold it only through `ALL_COMMANDS` ("all
//! operations performed by all commands supported on the queue"): a
//! first synchronization scope (its write is available at once, so that
//! is enough to make it visible), a second synchronization scope (the
//! transition sees available memory automatically). The transition is then an access like
//! any other, decided by the same definitions; only two transitions are
//! ordered directly, in submission order.
//!
//! It is written to be obviously right, not fast: building the relation is
//! quadratic in the number of operations and the pair test cubic. Use it
//! on programs of tens to hundreds of commands.
//!
//! # Readings
//!
//! The memory model appendix defines a data race; the synchronization
//! chapter's informal note ("read-after-write and write-after-write hazards
//! need appropriate memory dependencies") and its sentence "Once written
//! values are made visible to a particular type of memory access, they can
//! be read or written by that type of memory access" are read by the
//! validation layer as asking that an earlier write be made *visible* to a
//! later write. The appendix asks only that it be made *available*
//! ("X is a write and Y is a write, and X->AV(A_X,R_X,D_X,L)->DOM(D_X,D_Y)->Y").
//! The two disagree (KhronosGroup/Vulkan-Docs#2792, open). [`Reading`]
//! selects one; vksync follows [`Reading::MemoryModel`], the formal one,
//! and `docs/semantics.md` explains the consequences.
//!
//! # Assumptions (each documented in `docs/semantics.md`)
//!
//! * Queues with graphics, compute and transfer capabilities (one implicit queue
//!   when none is declared); one host thread. Submission order is per
//!   queue; commands of different queues are ordered only through
//!   semaphores, fences and the host (module `order`).
//! * A timeline semaphore wait is ordered after what *every* signal
//!   operation that may satisfy it is ordered after ("If multiple semaphore
//!   signal operations meet these criteria, any of those operations may be
//!   included"), excluding those guaranteed to happen after the wait (a
//!   fixpoint over the pairings, module `order`; one that happens after it
//!   in a way no round shows stays a candidate: a conservative reading).
//! * Mapped memory is host-coherent ("Host Access Types"): host writes are
//!   available to the host domain at once, and writes available to the
//!   host domain are visible to the host, so a device write reaches a host
//!   access (read or write) through a barrier's device-to-host domain
//!   operation (`HOST_READ` or `HOST_WRITE` in its destination access
//!   mask) and a fence wait. Non-coherent memory, which needs
//!   `vkFlushMappedMemoryRanges`/`vkInvalidateMappedMemoryRanges`, is not
//!   modelled.
//! * Execution dependency chains are formed at the level of stages (see
//!   module `order`).

mod order;
pub(crate) mod registry;
pub(crate) mod scopes;
mod views;

use crate::ir::error::{Location, ProgramErrorKind};
use crate::ir::layout::{resolve, Layout, MemId, ProgramError};
use crate::ir::program::{ByteRange, Command, Dependency, Program};
pub use crate::semantics::Reading;
use crate::sync::checker::HazardKind;
use crate::vk::flags::AccessFlags2;
use crate::vk::scope::StageAccess;
use order::{AccessOp, Order};
pub use scopes::{validate, Side};
use std::collections::{BTreeMap, BTreeSet};

/// A data race between two accesses of one cell of memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Race {
    /// The later access's command in execution order: program order, but
    /// for a batch that waits for a signal submitted after it, which runs
    /// after that signal's batch (`steps_after_signals`).
    pub command: usize,
    /// The kind, named after the later access and the earlier one.
    pub kind: HazardKind,
    /// The earlier access's command.
    pub prior_command: usize,
    /// The memory object.
    pub mem: MemId,
    /// The bytes, maximal: adjacent cells with the same race are merged.
    pub range: ByteRange,
    /// The later access's stage and access.
    pub current: StageAccess,
    /// The earlier access's stage and access.
    pub prior: StageAccess,
}

/// Every pair of accesses that races, under `reading`.
///
/// Every barrier's masks are validated first by the registry's rules
/// ([`validate`]); the rest of the program (objects, ranges, semaphore and
/// event order) by [`crate::resolve`], which builds the layout.
pub fn races(program: &Program, reading: Reading) -> Result<Vec<Race>, ProgramError> {
    validate_masks(program)?;
    let layout = resolve(program)?;
    // A render pass of several views is its per-view subpasses (module
    // `views`).
    if let Some(each) = views::per_view(program)? {
        let layout = resolve(&each.program).map_err(|e| each.not_valid(program, e))?;
        return Ok(each.back(races_resolved(&each.program, &layout, reading)));
    }
    Ok(races_resolved(program, &layout, reading))
}

/// [`validate`] on both sides of every barrier of every command: pipeline
/// barriers, event set and wait dependencies, and a synchronization-1
/// `vkCmdSetEvent`'s stage mask (with no access).
fn validate_masks(program: &Program) -> Result<(), ProgramError> {
    let dep = |ci: usize, dependency: &Dependency| -> Result<(), ProgramError> {
        for (index, b) in dependency.barriers.iter().enumerate() {
            validate(b.src_stage_mask, b.src_access_mask, Side::First)
                .and_then(|()| validate(b.dst_stage_mask, b.dst_access_mask, Side::Second))
                .map_err(|source| ProgramError {
                    at: Location::Command(ci),
                    kind: ProgramErrorKind::BarrierScope { index, source },
                })?;
        }
        Ok(())
    };
    for (ci, command) in program.commands.iter().enumerate() {
        match command {
            Command::Barrier(d)
            | Command::SetEvent { dependency: d, .. }
            | Command::WaitEvents1 { dependency: d, .. } => dep(ci, d)?,
            Command::WaitEvents { waits } => {
                for w in waits {
                    dep(ci, &w.dependency)?;
                }
            }
            Command::SetEvent1 { stage_mask, .. } => validate(*stage_mask, AccessFlags2::NONE, Side::First)
                .map_err(|source| ProgramError {
                at: Location::Command(ci),
                kind: ProgramErrorKind::BarrierScope { index: 0, source },
            })?,
            _ => {}
        }
    }
    Ok(())
}

/// [`races`] for a program already validated into `layout`.
pub(crate) fn races_resolved(program: &Program, layout: &Layout, reading: Reading) -> Vec<Race> {
    // An optimal image aliased in part (`crate::ir::layout::Footprint`)
    // has two readings of overlap at once: exact among its own accesses,
    // in a memory of its own, and its whole bound range against every
    // other object's, through a footprint access in the shared memory.
    let (view, private) = layout.with_private_images();
    let mut full = Order::build(program, &view);
    full.add_footprints(&private);
    // Races in an image's own memory are its bytes in the shared one.
    let shared = |mem: MemId| {
        private
            .iter()
            .find(|(m, _)| *m == mem)
            .map_or(mem, |(_, f)| f.mem)
    };
    races_in(program, &full, reading, shared)
}

/// The races of the accesses of `full` (built from `program`), pair by
/// pair per cell, each named in memory `shared(mem)`.
fn races_in(program: &Program, full: &Order, reading: Reading, shared: impl Fn(MemId) -> MemId) -> Vec<Race> {
    let mut cells: BTreeMap<MemId, BTreeSet<u64>> = BTreeMap::new();
    for a in &full.accesses {
        let b = cells.entry(a.mem).or_default();
        b.insert(a.range.start);
        b.insert(a.range.end);
    }
    for r in full.deps.iter().flat_map(|d| d.ranges()) {
        let b = cells.entry(r.mem).or_default();
        b.insert(r.range.start);
        b.insert(r.range.end);
    }
    let mut found: Vec<Race> = Vec::new();
    let later_first = SignalledFirst::of(program);
    // The relation each cell's accesses see (`Order::for_cell`), one per
    // set of implicit dependencies of rendering instances left out.
    let mut views: BTreeMap<Vec<usize>, Option<Order>> = BTreeMap::new();
    for (mem, bounds) in cells {
        let bounds: Vec<u64> = bounds.into_iter().collect();
        for w in bounds.windows(2) {
            let cell = ByteRange::new(w[0], w[1]);
            let view = views
                .entry(full.left_out(mem, cell))
                .or_insert_with(|| full.for_cell(mem, cell));
            let order = view.as_ref().unwrap_or(full);
            let here: Vec<&AccessOp> = order
                .accesses
                .iter()
                .filter(|a| a.mem == mem && a.range.start <= cell.start && cell.end <= a.range.end)
                .collect();
            for (j, y) in here.iter().enumerate() {
                for x in &here[..j] {
                    // One command's accesses do not race each other, except
                    // a render pass command's layout transitions (its
                    // subpass dependencies, `crate::ir::renderpass`) and
                    // its load or store operations, which the transitions'
                    // barriers order or not.
                    let same = x.command == y.command && x.pseudo.is_some() == y.pseudo.is_some();
                    let one_image = x
                        .footprint
                        .is_some_and(|(i, _)| y.footprint.is_some_and(|(j, _)| i == j));
                    if same || one_image || (!x.write && !y.write) {
                        continue;
                    }
                    // "If there does not exist a location-ordered relation
                    // between X and Y ..., then there is a data race": in
                    // either direction. The trace's order is not the
                    // execution's: a command runs at its batch's submit, so
                    // a host access between recording it and submitting it
                    // comes first (an `OrderNote`, not a race), and with
                    // several queues a batch may wait for a later host
                    // signal; the later access in the trace may be the
                    // earlier one.
                    let reversed = location_ordered(order, y, x, mem, cell, reading);
                    if !reversed && !location_ordered(order, x, y, mem, cell, reading) {
                        // Named in execution order: a batch that waits for
                        // a signal submitted after it runs after that
                        // signal's batch, so its access is the later one
                        // (and a fix naming the pair in trace order would
                        // make the signaller wait for the waiter).
                        let (x, y) = if later_first.flips(x.command, y.command) {
                            (*y, *x)
                        } else {
                            (*x, *y)
                        };
                        found.push(Race {
                            command: y.command,
                            kind: match (x.write, y.write) {
                                (true, false) => HazardKind::ReadAfterWrite,
                                (false, true) => HazardKind::WriteAfterRead,
                                _ => HazardKind::WriteAfterWrite,
                            },
                            prior_command: x.command,
                            mem: shared(mem),
                            // A later footprint's race is at bytes no one
                            // knows of its image's: named by its access's
                            // own (the image's bytes in its own memory
                            // keep their numbers in the shared one).
                            range: y.footprint.map_or(cell, |(_, bytes)| bytes),
                            current: y.sa,
                            prior: x.sa,
                        });
                    }
                }
            }
        }
    }
    merge(found)
}

/// Which pairs of commands run in the other order than the trace's: those
/// the batches moved after the signals they wait for put the other way
/// round (`crate::ir::execution::steps_after_signals`). Empty, and free to
/// ask, for a program whose every wait follows its signal.
struct SignalledFirst {
    /// Per command, its place in the trace's execution order and in the
    /// order the waits guarantee; `None` when the two orders are one.
    places: Option<(Vec<usize>, Vec<usize>)>,
}

impl SignalledFirst {
    fn of(program: &Program) -> SignalledFirst {
        let as_written = crate::ir::execution::order(program);
        let waited = crate::ir::execution::order_after_signals(program);
        if as_written == waited {
            return SignalledFirst { places: None };
        }
        let place = |order: Vec<usize>| {
            let mut at = vec![usize::MAX; program.commands.len()];
            for (k, c) in order.into_iter().enumerate() {
                if let Some(slot) = at.get_mut(c) {
                    *slot = k;
                }
            }
            at
        };
        SignalledFirst {
            places: Some((place(as_written), place(waited))),
        }
    }

    /// Whether commands `x` and `y` run in the other order than the trace
    /// runs them.
    fn flips(&self, x: usize, y: usize) -> bool {
        let Some((written, waited)) = &self.places else {
            return false;
        };
        let before = |at: &Vec<usize>| at.get(x) < at.get(y);
        x != y && before(written) != before(waited)
    }
}

/// Merges races that differ only in adjacent ranges.
fn merge(mut races: Vec<Race>) -> Vec<Race> {
    races.sort_by_key(|r| {
        (
            r.command,
            r.kind,
            r.prior_command,
            r.current,
            r.prior,
            r.mem,
            r.range.start,
        )
    });
    let mut out: Vec<Race> = Vec::new();
    for r in races {
        if let Some(last) = out.last_mut() {
            let same = (
                last.command,
                last.kind,
                last.prior_command,
                last.current,
                last.prior,
                last.mem,
            ) == (r.command, r.kind, r.prior_command, r.current, r.prior, r.mem);
            if same && last.range.end == r.range.start {
                last.range.end = r.range.end;
                continue;
            }
            // A later footprint's race over several cells is one.
            if same && last.range == r.range {
                continue;
            }
        }
        out.push(r);
    }
    out
}

/// Whether `x` (earlier in program order) is location-ordered before `y`
/// for the bytes of `cell` ("Location-Ordered", memory model appendix).
///
/// The availability (AV), visibility (VIS) and domain (DOM) operations
/// come from the operations that generate them ("Availability, Visibility,
/// and Domain Operations"): a dependency of a pipeline barrier performs an
/// availability operation of the writes in its first access scope, a
/// visibility operation to its second access scope, and a domain operation
/// from device to host when its destination access mask includes
/// `HOST_READ` or `HOST_WRITE`; a fence signal operation makes "all memory
/// access performed by the device" available ("Fence Signaling": first
/// access scope); `vkQueueSubmit` "performs a memory domain operation from
/// host to device, and a visibility operation with source scope of the
/// device domain and destination scope of all agents and references on the
/// device".
fn location_ordered(
    order: &Order,
    x: &AccessOp,
    y: &AccessOp,
    mem: MemId,
    cell: ByteRange,
    reading: Reading,
) -> bool {
    // "A_X == A_Y and R_X == R_Y and X->Y": the host's accesses are made by
    // one thread through one mapping, in program order.
    if x.host && y.host {
        return true;
    }
    // Layout transitions "execute in their entirety in submission order,
    // relative to other image layout transitions submitted to the same
    // queue" ("Image Layout Transitions"), and each one's writes are
    // "automatically made available" and available memory "automatically
    // made visible to a layout transition": two transitions are
    // location-ordered. That order is between transitions only ("An
    // application must not rely on ordering of image layout transitions to
    // influence ordering of other commands"), so it is no edge of the
    // happens-before graph.
    // Submission order is per queue ("Submission Order"), so transitions
    // of different queues are ordered as any two writes are.
    if x.pseudo.is_some()
        && y.pseudo.is_some()
        && !x.qfot
        && !y.qfot
        && order.queue_of(x.node) == order.queue_of(y.node)
    {
        return true;
    }
    // "X is a read, and X (transitively) system-synchronizes with Y": a
    // write after a read needs an execution dependency only.
    if !x.write {
        return order.hb(x.node, y.node);
    }
    // A vkQueueSubmit's memory dependency ("Host Write Ordering
    // Guarantees"): "The second synchronization scope includes all commands
    // submitted in the same queue submission, and all commands that occur
    // later in submission order" -- Y's batch is the submit's or later on
    // the same queue, not merely after the submit in happens-before (a
    // submit to another queue, or of a later batch, makes nothing visible
    // to Y).
    let y_batch = order.batch_of[y.node];
    let submit_reaches_y =
        |k: usize| y_batch.is_some_and(|b| b >= k && order.batch_queue[b] == order.batch_queue[k]);
    let mut avs: Vec<usize> = Vec::new();
    if x.host {
        // A host write is available to the host domain at once (coherent
        // memory); a vkQueueSubmit after it moves it to the device domain
        // and makes it visible to every device access of its batch and
        // later ones on its queue: X -> DOM -> VIS -> Y.
        if order
            .submits
            .iter()
            .enumerate()
            .any(|(k, &s)| submit_reaches_y(k) && order.hb(x.node, s) && order.hb(s, y.node))
        {
            return true;
        }
        // "If the source access mask includes VK_ACCESS_HOST_WRITE_BIT,
        // then the dependency includes a memory domain operation from host
        // domain to device domain": a barrier with (HOST, HOST_WRITE) in
        // its first access scope makes X available in the device domain
        // when X happens before it: directly, or before an ALL_COMMANDS
        // semaphore wait of the barrier's batch or an earlier batch of its
        // queue (a host write after the submit, before the host signal the
        // wait pairs with). That second way is the mirror image of a
        // signal holding a barrier whose second scope is HOST (module
        // `order`); it is no edge of the graph, since HOST is no device
        // stage to chain through for anything else. From there on X is as
        // a device write made available by that barrier.
        // "vkQueueSubmit performs a memory domain operation from host to
        // device" for the host writes available to the host domain, which
        // happened before it ("Host Write Ordering Guarantees": its first
        // access scope): from there on X is available in the device domain,
        // and a later visibility operation on any queue (a semaphore wait
        // after that submit's batch signals) makes it visible; the submit's
        // own visibility operation reaches only its queue (above).
        avs.extend(order.submits.iter().copied().filter(|&s| order.hb(x.node, s)));
        let d_batch = |d: &order::DepOp| order.batch_of[d.node];
        avs.extend(
            order
                .deps
                .iter()
                .filter(|d| {
                    order.queue_of(d.node).is_some()
                        && d.first_access.contains(&("HOST", "HOST_WRITE"))
                        && d.holds(mem, cell, x, y)
                        && (order.hb(x.node, d.node)
                            || order.waits.iter().any(|w| {
                                w.all
                                    && w.batch.zip(d_batch(d)).is_some_and(|(k, b)| {
                                        k <= b && order.batch_queue[k] == order.batch_queue[b]
                                    })
                                    && order.hb(x.node, w.node)
                            }))
                })
                .map(|d| d.node),
        );
    }
    // X is a device write. The availability operations that include it
    // and happen after it: barriers with X in their first access scope
    // (ScopedMemOps1: X earlier in submission order, its stage in the
    // first synchronization scope, its (stage, access) in the first access
    // scope, its bytes in the barrier's range; for a vkCmdWaitEvents
    // barrier, whose first synchronization scope is its events' signal
    // operations and what happened before them, X happened before one of
    // them) and fence signals after it.
    // A layout transition's writes "are automatically made available": by
    // its own B2, whose first access scope holds it alone.
    // A semaphore signal operation's "first access scope includes all
    // memory access performed by the device" ("Semaphore Signaling"), and
    // a fence signal's likewise ("Fence Signaling"): the memory dependency
    // of the operation is between its first access scope and its second,
    // and "Let AccessScope1st be the first access scope of the first
    // command in the Sync chain"; "ScopedMemOps1 [is] the intersection of
    // sets Ops1 and AccessScope1st". So a signal makes X available only
    // when X is in its own first synchronization scope: X's batch is the
    // signal's or earlier on the same queue, and (semaphore) X's stage is
    // in its stage mask, expanded to logically earlier stages. An
    // execution-only chain from X into the signal (a barrier with an
    // empty first access scope, then the signal) orders X before it but
    // makes nothing available. A barrier's scopes hold only commands of
    // its own queue ("Submission Order" is per queue).
    let x_batch = order.batch_of[x.node];
    // A layout transition is in a fence signal's first scope and, with
    // ALL_COMMANDS, in a semaphore signal's (module `order`); its write
    // is a device access, so in their first access scopes too.
    let in_first_of =
        |k: usize| x_batch.is_some_and(|b| b <= k && order.batch_queue[b] == order.batch_queue[k]);
    avs.extend(
        order
            .deps
            .iter()
            .filter(|d| {
                // A `vkCmdWaitEvents` barrier's first scope is its event
                // signal operations "and the operations that happened-before"
                // them, on any queue (a write of another queue before a
                // semaphore the setting batch waits for; review18); every
                // other barrier's holds commands of its own queue.
                !x.host
                    && ((d.pos > x.pos
                        && order.queue_of(d.node) == order.queue_of(x.node)
                        && x.in_first_access(d))
                        || order.in_signal_access_scope(x, d))
                    && d.holds(mem, cell, x, y)
            })
            .map(|d| d.node)
            .chain(
                order
                    .fences
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| in_first_of(j))
                    .map(|(_, &f)| f),
            )
            .chain(
                order
                    .signals
                    .iter()
                    .filter(|s| {
                        s.batch.is_some_and(in_first_of)
                            && if x.pseudo.is_some() {
                                s.all
                            } else {
                                s.first.contains(x.stage)
                            }
                    })
                    .map(|s| s.node),
            ),
    );
    // A queue family release or acquire operation: "writes performed by
    // those operations are automatically made available", at the
    // operation itself; a layout transition likewise: "writes performed
    // by a layout transition are automatically made available". Any
    // dependency that happens after it then makes it visible.
    if x.pseudo.is_some() {
        avs.push(x.node);
    }
    if avs.is_empty() {
        return false;
    }
    // After some availability operation of X: `hb` from one of them, or,
    // through a timeline wait with several candidate signals, after a
    // (possibly different) one for each candidate.
    let after_av = order.has_multi_candidate_waits().then(|| order.after_all(&avs));
    let available_before =
        |node: usize| avs.iter().any(|&av| order.hb(av, node)) || after_av.as_ref().is_some_and(|a| a[node]);
    // "Available memory is automatically made visible to queue family
    // release and acquire operations": X made available before Y. And
    // "available memory is automatically made visible to a layout
    // transition", under either reading: by its own B1, or by an earlier
    // dependency whose second scope is `ALL_COMMANDS` (module `order`).
    if y.pseudo.is_some() {
        return available_before(y.node);
    }
    if y.host {
        // X->AV->DOM(device, host)->VIS->Y. "If the destination access mask
        // includes VK_ACCESS_HOST_READ_BIT or VK_ACCESS_HOST_WRITE_BIT, then
        // the dependency includes a memory domain operation from device
        // domain to host domain"; on host-coherent memory "writes made
        // available to the host domain are automatically made visible to
        // the host" ("Host Access Types"), so the visibility operation
        // comes with the domain operation, for a read as for a write. The
        // barrier must happen before the host access (a submit and a fence
        // wait after it).
        let dom = |pairs: &scopes::Pairs| {
            pairs.contains(&("HOST", "HOST_READ")) || pairs.contains(&("HOST", "HOST_WRITE"))
        };
        let doms: Vec<usize> = order
            .deps
            .iter()
            .filter(|d| dom(&d.second_access) && d.holds(mem, cell, x, y) && available_before(d.node))
            .map(|d| d.node)
            .collect();
        // One domain operation before Y, or, through a timeline wait with
        // several candidate signals, a (possibly different) one before
        // each candidate: whichever signal the wait pairs with, a chain
        // X->AV->DOM->Y runs through it, as for availability above.
        return doms.iter().any(|&d| order.hb(d, y.node))
            || (order.has_multi_candidate_waits() && !doms.is_empty() && order.after_all(&doms)[y.node]);
    }
    if y.write && reading == Reading::MemoryModel {
        // "X is a write and Y is a write, and X->AV(A_X,R_X,D_X,L)->DOM(D_X,D_Y)->Y",
        // both in the device domain.
        return available_before(y.node);
    }
    // "X is a write and Y is a read, and X->AV->DOM->VIS(A_Y,R_Y,D_Y,L)->Y":
    // a visibility operation that happens after an availability of X and
    // before Y, with Y in its destination scope: a barrier with Y in its
    // second access scope (ScopedMemOps2: Y later in submission order, its
    // stage in the second synchronization scope, its bytes in the range),
    // or a vkQueueSubmit of Y's batch or an earlier one of Y's queue (its
    // second synchronization scope, as for host writes). (Y a write under
    // the layer's reading: the same. Y a layout transition: "Available
    // memory is automatically made visible to a layout transition", which
    // is its B1, whose second access scope holds it alone.)
    let by_barrier = order.deps.iter().any(|d| {
        d.pos < y.pos
            && order.queue_of(d.node) == order.queue_of(y.node)
            && y.in_second_access(d)
            && d.holds(mem, cell, x, y)
            && available_before(d.node)
    });
    // A semaphore wait operation's "second access scope includes all memory
    // access performed by the device" ("Semaphore Waiting"): a visibility
    // operation to Y when Y is in its own second synchronization scope,
    // after an availability of X. "Let AccessScope2nd be the second access
    // scope of the last command in the Sync chain" and "Any type of access
    // that is in a memory dependency's second access scope and occurs in
    // ScopedOps2 has any available writes made visible to it": Y's batch
    // is the wait's or later on the same queue and Y's stage is in the
    // wait's stage mask (expanded to logically later stages). An access
    // reached from the wait only through a later execution-only barrier
    // chain is ordered after it but sees nothing; that barrier's own
    // second access scope has to hold it (`by_barrier`).
    // A layout transition is in it with ALL_COMMANDS (module `order`).
    let by_semaphore = order.waits.iter().any(|w| {
        w.batch
            .is_some_and(|k| y_batch.is_some_and(|b| b >= k && order.batch_queue[b] == order.batch_queue[k]))
            && if y.pseudo.is_some() {
                w.all
            } else {
                w.second.contains(y.stage)
            }
            && available_before(w.node)
    });
    by_barrier
        || by_semaphore
        || order
            .submits
            .iter()
            .enumerate()
            .any(|(k, &s)| submit_reaches_y(k) && available_before(s) && order.hb(s, y.node))
}

#[cfg(test)]
mod tests;
