//! The online (streaming) planner: before each command, the barriers its
//! hazards need, from the state so far. It never looks ahead, so it can need
//! more barrier points than the offline planner; what it places is minimal
//! for what it knows (`docs/planning.md`).

use super::emit::{is_host, Emitter};
use super::points::{emit_point, feed, live_requirements, Req};
use super::BarrierForm;
use crate::hazard::detect_command;
use crate::ir::access::accesses;
use crate::ir::layout::Layout;
use crate::ir::program::Program;
use crate::semantics::Semantics;
use crate::sync::checker::Checker;

pub(crate) fn online(input: &Program, layout: &Layout, form: BarrierForm, sem: Semantics, out: &mut Emitter) {
    let mut checker = Checker::with_semantics(layout.memory_sizes.len(), sem);
    for (i, c) in input.commands.iter().enumerate() {
        let acc = accesses(c, layout, sem);
        if !acc.is_empty() {
            let hazards = detect_command(&mut checker, layout, i, c);
            let needs_wait = hazards.iter().any(|h| h.fix.wait);
            let with_barrier = hazards.into_iter().filter(|h| h.fix.barrier.is_some());
            let reqs = with_barrier.map(|h| Req {
                lo: h.prior_command,
                hi: i,
                hazard: h,
            });
            let live = live_requirements(&mut checker, reqs, false);
            let host_barrier = !live.is_empty() && is_host(c);
            emit_point(out, &mut checker, layout, live, form, |i| i);
            if needs_wait || host_barrier {
                out.submit_wait();
                checker.submit();
                checker.wait();
            }
        }
        feed(out, &mut checker, layout, i, c);
    }
}
