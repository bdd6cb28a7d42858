//! Random programs with image layout transitions, for the planner laws:
//! a program of [`crate::programs`] with a few transition barriers
//! inserted at random places, each over the whole memory of a declared
//! buffer standing for an image bound to it (the model treats an image's
//! memory as bytes; a transition is a write of them,
//! `docs/semantics.md`, "Image layout transitions"). Each inserted barrier
//! has empty scopes: the planners give it the scopes the program needs,
//! and the checker reports what an empty one leaves unordered.

use crate::{programs, Generated};
use proptest::prelude::*;
use proptest::sample::Index;
use vksync::{Barrier, Command, Dependency, ObjectKind, Program};

/// Strategy for programs of up to `max_ops` operations with one to three
/// layout transitions inserted.
pub fn programs_with_transitions(max_ops: usize) -> impl Strategy<Value = Generated> {
    (
        programs(max_ops),
        prop::collection::vec((any::<Index>(), any::<Index>()), 1..=3),
    )
        .prop_map(|(g, at)| with_transitions(g, &at))
}

/// `g` with a transition of buffer `object` inserted before command `pos`
/// for each `(pos, object)` (indices taken modulo the program's commands
/// and buffers); `g` itself when it has no buffer.
fn with_transitions(g: Generated, at: &[(Index, Index)]) -> Generated {
    let buffers: Vec<usize> = g
        .program
        .objects()
        .iter()
        .enumerate()
        .filter(|(_, o)| matches!(o.kind, ObjectKind::Buffer { .. }))
        .map(|(i, _)| i)
        .collect();
    if buffers.is_empty() {
        return g;
    }
    let mut commands = g.program.commands().to_vec();
    for (pos, object) in at {
        let object = vksync::ObjectId(buffers[object.index(buffers.len())] as u32);
        let b = Barrier::default().on(g.program.whole(object)).with_transition();
        commands.insert(
            pos.index(commands.len() + 1),
            Command::Barrier(Dependency { barriers: vec![b] }),
        );
    }
    match Program::from_parts(g.program.objects().to_vec(), commands) {
        Ok(program) => Generated { ops: g.ops, program },
        Err(_) => g,
    }
}
