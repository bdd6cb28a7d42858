//! Queue family ownership of `VK_SHARING_MODE_EXCLUSIVE` buffers: which
//! reads see contents the specification leaves undefined, and which
//! release and acquire operations are invalid.
//!
//! This module owns the one diagnostic the hazard checkers cannot give:
//! "If memory dependencies are correctly expressed between uses of such a
//! resource between two queues in different families, but no ownership
//! transfer is defined, the contents of that resource are undefined for any
//! read accesses performed by the second queue family" ("Queue Family
//! Ownership Transfer"). A program can be free of data races and still read
//! undefined bytes, so this is its own report, [`check_ownership`], beside
//! [`crate::check`]. Whether the release and acquire operations are
//! *ordered* (a semaphore with `ALL_COMMANDS` between them, the writes made
//! available before the release) is the checkers' business: they model the
//! two operations as accesses (`docs/semantics.md`).
//!
//! It does not decide happens-before. It follows each exclusive buffer's
//! bytes (a blob's are its pool's: blobs are ranges of their pool's
//! `VkBuffer`) in the order the checkers walk a program: host commands in
//! place, each batch's commands at its `submit`, on the family of the
//! submit's queue, a batch whose wait a later submit signals after that
//! signal. For a program the checkers call race-free that is the
//! order of every pair of accesses that conflict. Per byte it keeps who
//! owns it: nobody yet (a new buffer: "the first use ... acquires"), a
//! family, or a release in flight. Host accesses do not change ownership.
//! Concurrent buffers (the model's default) are not followed.

use crate::ir::access::{accesses, is_host, ownership_role, OwnershipRole};
use crate::ir::layout::{resolve, Layout, ProgramError};
use crate::ir::program::{ByteRange, Command, ObjectId, ObjectKind, Program, Region, SharingMode};
use crate::semantics::Semantics;
use std::collections::BTreeMap;

/// One ownership diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnershipIssue {
    /// The command (index into [`Program::commands`]).
    pub command: usize,
    /// The bytes concerned, of the object the command names.
    pub region: Region,
    /// The queue family of the queue that executes the command.
    pub family: u32,
    /// What is wrong.
    pub kind: OwnershipIssueKind,
}

/// What an [`OwnershipIssue`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnershipIssueKind {
    /// A read on a family other than the one that owns the bytes, with no
    /// ownership transfer between: the contents it reads are undefined.
    ReadWithoutTransfer {
        /// The family that owned the bytes.
        owner: u32,
    },
    /// A read of bytes released (to `to`) and not acquired since: "the
    /// contents ... of the released resource are undefined until a
    /// matching acquire operation is performed".
    ReadAfterRelease {
        /// The family released from.
        from: u32,
        /// The family released to.
        to: u32,
    },
    /// An acquire with no release of exactly its range from `from` to this
    /// family pending, or of bytes modified since ("The buffer range ...
    /// specified in an acquire operation must match exactly that of a
    /// previous release operation"; "must not execute an acquire operation
    /// on any resource where it has been modified in any way other than a
    /// matching release operation").
    AcquireWithoutRelease {
        /// The barrier's `srcQueueFamilyIndex`.
        from: u32,
    },
    /// A release by a family that does not own the bytes.
    ReleaseByNonOwner {
        /// The family that owned them.
        owner: u32,
    },
    /// A barrier transferring ownership between two families, neither of
    /// them the executing queue's (so it is neither a release nor an
    /// acquire; the checkers take it as a plain barrier).
    NotOnEitherFamily {
        /// `srcQueueFamilyIndex`.
        src: u32,
        /// `dstQueueFamilyIndex`.
        dst: u32,
    },
}

impl OwnershipIssue {
    /// One line, without source location, naming `program`'s objects.
    pub fn describe(&self, program: &Program) -> String {
        let call = program
            .commands
            .get(self.command)
            .map_or("?", Command::vulkan_name);
        let at = program.show_region(self.region);
        let f = self.family;
        match self.kind {
            OwnershipIssueKind::ReadWithoutTransfer { owner } => format!(
                "{call} reads {at} on queue family {f}, owned by family {owner} with no ownership transfer: \
                 its contents are undefined; fix: release it on family {owner} and acquire it on family {f} \
                 (`barrier ... {at} ownership {owner}->{f}` on each side, a semaphore with ALL_COMMANDS between)"
            ),
            OwnershipIssueKind::ReadAfterRelease { from, to } => format!(
                "{call} reads {at} on queue family {f} after its release from family {from} to family {to} \
                 and before an acquire: its contents are undefined; fix: acquire it first \
                 (`barrier ... {at} ownership {from}->{to}` on family {to})"
            ),
            OwnershipIssueKind::AcquireWithoutRelease { from } => format!(
                "{call} acquires {at} from family {from} on family {f}, but no release of exactly that range \
                 from family {from} to family {f} is pending (or the bytes changed since): the acquire is invalid"
            ),
            OwnershipIssueKind::ReleaseByNonOwner { owner } => format!(
                "{call} releases {at} on queue family {f}, but family {owner} owns it"
            ),
            OwnershipIssueKind::NotOnEitherFamily { src, dst } => format!(
                "{call} transfers {at} from family {src} to family {dst} on a queue of family {f}: \
                 it must run on one of the two (a release on {src}, an acquire on {dst})"
            ),
        }
    }
}

/// Who owns a byte of an exclusive buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    /// No queue family has used it.
    Nobody,
    /// A family.
    Family(u32),
    /// Released by release number `id`, from `from` to `to`.
    Released { id: usize, from: u32, to: u32 },
}

/// Per exclusive `VkBuffer` (a buffer, or a pool), its bytes' owners as
/// disjoint segments `start -> (end, owner)`; bytes not listed: nobody.
type Segments = BTreeMap<u64, (u64, Owner)>;

struct Walk<'a> {
    program: &'a Program,
    layout: &'a Layout,
    owners: BTreeMap<ObjectId, Segments>,
    /// Releases not yet acquired: (id, buffer, bytes, from, to).
    pending: Vec<(usize, ObjectId, ByteRange, u32, u32)>,
    releases: usize,
    out: Vec<OwnershipIssue>,
}

impl Walk<'_> {
    /// The exclusive `VkBuffer` behind a region and its bytes there, or
    /// `None` for a concurrent one.
    fn buffer_of(&self, region: Region) -> Option<(ObjectId, ByteRange)> {
        if self.program.sharing_of(region.object) != SharingMode::Exclusive {
            return None;
        }
        match self.program.obj(region.object).kind {
            // A blob's bytes are its pool's, at the blob's place there.
            ObjectKind::Blob { pool } => Some((pool, self.layout.locate(region)?.range)),
            _ => Some((region.object, region.range)),
        }
    }

    /// Sets the owner of `range` of `buffer`, returning the previous
    /// owners of its pieces.
    fn set(&mut self, buffer: ObjectId, range: ByteRange, owner: Owner) -> Vec<(ByteRange, Owner)> {
        let segs = self.owners.entry(buffer).or_default();
        let mut old = Vec::new();
        let mut at = range.start;
        let overlapping: Vec<(u64, u64, Owner)> = segs
            .range(..range.end)
            .filter(|(_, (e, _))| *e > range.start)
            .map(|(&s, &(e, o))| (s, e, o))
            .collect();
        for (s, e, o) in overlapping {
            segs.remove(&s);
            if s < range.start {
                segs.insert(s, (range.start, o));
            }
            if e > range.end {
                segs.insert(range.end, (e, o));
            }
            let (from, to) = (s.max(range.start), e.min(range.end));
            if at < from {
                old.push((ByteRange::new(at, from), Owner::Nobody));
            }
            old.push((ByteRange::new(from, to), o));
            at = to;
        }
        if at < range.end {
            old.push((ByteRange::new(at, range.end), Owner::Nobody));
        }
        segs.insert(range.start, (range.end, owner));
        old
    }

    fn issue(
        &mut self,
        command: usize,
        region: Region,
        base: u64,
        bytes: ByteRange,
        family: u32,
        kind: OwnershipIssueKind,
    ) {
        // Back from the buffer's bytes to the region's object.
        let range = ByteRange::new(bytes.start - base, bytes.end - base);
        let region = Region {
            object: region.object,
            range: ByteRange::new(region.range.start + range.start, region.range.start + range.end),
        };
        // One issue per command, kind and contiguous bytes.
        if let Some(last) = self.out.last_mut() {
            if last.command == command
                && last.kind == kind
                && last.region.object == region.object
                && last.region.range.end == region.range.start
            {
                last.region.range.end = region.range.end;
                return;
            }
        }
        self.out.push(OwnershipIssue {
            command,
            region,
            family,
            kind,
        });
    }

    /// A device access of `region` on `family`.
    fn access(&mut self, command: usize, region: Region, write: bool, family: u32) {
        let Some((buffer, bytes)) = self.buffer_of(region) else {
            return;
        };
        for (piece, old) in self.set(buffer, bytes, Owner::Family(family)) {
            let kind = match old {
                Owner::Family(owner) if owner != family => OwnershipIssueKind::ReadWithoutTransfer { owner },
                Owner::Released { from, to, .. } => OwnershipIssueKind::ReadAfterRelease { from, to },
                _ => continue,
            };
            if !write {
                self.issue(command, region, bytes.start, piece, family, kind);
            }
        }
    }

    fn barrier(&mut self, command: usize, b: &crate::ir::program::Barrier, family: u32) {
        let (Some(o), Some(region)) = (b.transfer(), b.region) else {
            return;
        };
        let Some((buffer, bytes)) = self.buffer_of(region) else {
            return;
        };
        let (src, dst) = (o.src_queue_family, o.dst_queue_family);
        match ownership_role(b, family) {
            None => self.issue(
                command,
                region,
                bytes.start,
                bytes,
                family,
                OwnershipIssueKind::NotOnEitherFamily { src, dst },
            ),
            Some(OwnershipRole::Release) => {
                let id = self.releases;
                self.releases += 1;
                let released = Owner::Released {
                    id,
                    from: src,
                    to: dst,
                };
                for (piece, old) in self.set(buffer, bytes, released) {
                    if let Owner::Family(owner) = old {
                        if owner != src {
                            let kind = OwnershipIssueKind::ReleaseByNonOwner { owner };
                            self.issue(command, region, bytes.start, piece, family, kind);
                        }
                    }
                }
                self.pending.push((id, buffer, bytes, src, dst));
            }
            Some(OwnershipRole::Acquire) => {
                let matching = self
                    .pending
                    .iter()
                    .position(|&(_, buf, r, f, t)| buf == buffer && r == bytes && f == src && t == dst);
                let old = self.set(buffer, bytes, Owner::Family(dst));
                let intact = matching.is_some_and(|i| {
                    let id = self.pending[i].0;
                    old.iter()
                        .all(|(_, o)| matches!(o, Owner::Released { id: j, .. } if *j == id))
                });
                if let Some(i) = matching {
                    self.pending.swap_remove(i);
                }
                if !intact {
                    let kind = OwnershipIssueKind::AcquireWithoutRelease { from: src };
                    self.issue(command, region, bytes.start, bytes, family, kind);
                }
            }
        }
    }

    /// Whether the layout transition over `region` that pipeline barrier
    /// command `c` performs keeps the contents (its `oldLayout` is not
    /// `UNDEFINED`, which discards them). A transition of another command
    /// (a render pass's) is taken as discarding them, as before.
    fn keeps_contents(&self, c: &Command, region: Region) -> bool {
        let Command::Barrier(dep) = c else {
            return false;
        };
        dep.barriers
            .iter()
            .filter(|b| b.transition && b.region == Some(region))
            .filter_map(|b| self.program.image_barrier_part(b))
            .any(|(ib, _)| ib.old_layout != crate::vk::image::ImageLayout::UNDEFINED)
    }

    fn command(&mut self, ci: usize, family: u32) {
        let c = &self.program.commands[ci];
        if let Command::Barrier(dep) = c {
            for b in &dep.barriers {
                self.barrier(ci, b, family);
            }
        }
        for a in accesses(c, self.layout, Semantics::SPEC) {
            // The host is no queue family.
            if is_host(a.sa) {
                continue;
            }
            // A layout transition writes; one from a layout other than
            // `UNDEFINED` keeps the contents, so it reads them first
            // (review41: a transition on a family that does not own the
            // image took it over silently, and the read after it was not
            // reported).
            if a.sa.is_layout_transition() && self.keeps_contents(c, a.region) {
                self.access(ci, a.region, false, family);
            }
            self.access(ci, a.region, a.sa.is_write(), family);
        }
    }
}

/// The ownership diagnostics of a program, in the order the checkers walk
/// it (module docs). A program without exclusive buffers has none.
///
/// ```
/// use vksync::{check_ownership, trace};
/// let t = trace::parse(
///     "queue transfer family 1\nqueue compute family 2\nsemaphore s\n\
///      buffer a 256 exclusive\nbuffer b 256\n\
///      fill a 7\nsubmit transfer signal s@ALL_COMMANDS\n\
///      copy a -> b\nsubmit compute wait s@ALL_COMMANDS\n",
/// )?;
/// let issues = check_ownership(&t.program)?;
/// assert_eq!(issues.len(), 1);
/// assert!(issues[0].describe(&t.program).starts_with(
///     "vkCmdCopyBuffer reads a[0..256] on queue family 2, owned by family 1 with no ownership transfer"
/// ));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_ownership(program: &Program) -> Result<Vec<OwnershipIssue>, ProgramError> {
    let layout = resolve(program)?;
    let exclusive = program
        .objects
        .iter()
        .any(|o| o.sharing == SharingMode::Exclusive);
    if !exclusive {
        return Ok(Vec::new());
    }
    let mut w = Walk {
        program,
        layout: &layout,
        owners: BTreeMap::new(),
        pending: Vec::new(),
        releases: 0,
        out: Vec::new(),
    };
    // Host commands in place, each batch at its submit, a batch that waits
    // for a signal submitted after it moved after that signal (the order
    // its waits guarantee, `crate::ir::execution::order_after_signals`: an
    // acquire submitted before its release but waiting for it follows it;
    // review18), on the family of the queue it is submitted to (queue 0
    // for commands never submitted).
    let queues = program.command_queues();
    for ci in crate::ir::execution::order_after_signals(program) {
        let c = &program.commands[ci];
        let device = matches!(c, Command::Barrier(_))
            || accesses(c, &layout, Semantics::SPEC)
                .iter()
                .any(|a| !is_host(a.sa));
        if device {
            w.command(ci, program.queue_family(queues[ci]));
        }
    }
    Ok(w.out)
}
