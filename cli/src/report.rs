//! Rendering hazards as `FILE:LINE: SYNC-HAZARD-KIND: ...` lines.
//!
//! The model describes a hazard without source positions
//! (`Hazard::describe`); the CLI needs the prior command's line in the
//! middle of the sentence, so the sentence is built here from the hazard's
//! fields, with the same words the model uses.

use vksync::{Command, HazardGroup, HazardKind, OrderNote, Program, RaceGroup, StageAccess};

/// Who performs an access of a command, as the subject of a sentence. Host
/// accesses are not Vulkan commands, so they read "the host" rather than
/// "host read"; a layout transition is named after its barrier's call, as
/// `Hazard::describe` names it.
fn actor(c: &Command, sa: StageAccess) -> String {
    match c {
        Command::HostRead { .. } | Command::HostWrite { .. } => "the host".to_string(),
        other if sa.is_layout_transition() => format!("{} layout transition", other.vulkan_name()),
        other => other.vulkan_name().to_string(),
    }
}

/// One group of hazards (one later access, one kind) as one line.
/// `lines[i]` is the source line of command `i` of `program`.
pub fn hazard_line(file: &str, program: &Program, lines: &[usize], g: &HazardGroup) -> String {
    let h = &g.hazard;
    let parts = Parts {
        kind: h.kind,
        command: h.command,
        region: program.show_region(h.region),
        current: h.current,
        prior_command: h.prior_command,
        prior: h.prior,
        also: g.also.clone(),
        more: g.more,
        earliest_prior: g.earliest_prior,
    };
    let mut fix = h.fix_text(program);
    let device_barrier = h.fix.barrier.is_some_and(|b| !b.transition) && !h.fix.wait;
    if device_barrier && !is_host(h.current) && !is_host(h.prior) {
        fix.push_str(&across_batches(program, lines, h.prior_command, h.command));
    }
    line_of(file, program, lines, &parts, &fix)
}

/// Whether an access is the host's.
fn is_host(sa: StageAccess) -> bool {
    sa.stage().flag() == vksync::PipelineStageFlags2::HOST
}

/// Where a barrier between two commands of one queue goes when a submit
/// lies between them: anywhere between the two (submission order runs
/// across command buffers, so a barrier at the end of the first batch or
/// the start of the second orders them alike). Empty when they are in one
/// batch (the barrier goes between them, as the line numbers say).
fn across_batches(program: &Program, lines: &[usize], prior: usize, command: usize) -> String {
    let line = |i: usize| lines.get(i).map_or_else(|| "?".to_string(), |l| l.to_string());
    let submits = program
        .commands()
        .get(prior + 1..command)
        .is_some_and(|between| between.iter().any(|c| matches!(c, vksync::Command::Submit(_))));
    if submits {
        format!(
            " anywhere between line {} and line {} (in either batch: submission order runs across command buffers)",
            line(prior),
            line(command)
        )
    } else {
        String::new()
    }
}

/// What one line says about a pair of accesses, whoever found it (the
/// fast checker's [`Hazard`] or the definitional semantics' race).
pub struct Parts {
    /// The kind.
    pub kind: HazardKind,
    /// The later command.
    pub command: usize,
    /// The bytes, as `NAME[A..B]`.
    pub region: String,
    /// The later access.
    pub current: StageAccess,
    /// The earlier command.
    pub prior_command: usize,
    /// The earlier access.
    pub prior: StageAccess,
    /// The next nearest earlier accesses the line names, nearest first.
    pub also: Vec<vksync::Earlier>,
    /// How many further earlier accesses race the later one (the line
    /// names the nearest and counts these).
    pub more: usize,
    /// The earliest of those earlier accesses' commands.
    pub earliest_prior: usize,
}

/// One line in the format of [`hazard_line`], with `fix` as its fix.
pub fn line_of(file: &str, program: &Program, lines: &[usize], p: &Parts, fix: &str) -> String {
    let line = |i: usize| lines.get(i).map_or_else(|| "?".to_string(), |l| l.to_string());
    let cur = &program.commands()[p.command];
    let prior = &program.commands()[p.prior_command];
    let verb = if p.current.is_write() { "writes" } else { "reads" };
    let pverb = if p.prior.is_write() { "written" } else { "read" };
    // The nearest earlier accesses by name, the rest counted.
    let named: Vec<String> = p
        .also
        .iter()
        .map(|e| {
            let c = &program.commands()[e.command];
            format!(
                "at line {} by {} ({})",
                line(e.command),
                actor(c, e.access),
                e.access
            )
        })
        .collect();
    let mut others = String::new();
    for (i, n) in named.iter().enumerate() {
        let last = i + 1 == named.len() && p.more == 0;
        others.push_str(if last { " and " } else { ", " });
        others.push_str(n);
    }
    match p.more {
        0 => {}
        1 => others.push_str(&format!(
            ", and by 1 more earlier access (at line {})",
            line(p.earliest_prior)
        )),
        n => others.push_str(&format!(
            ", and by {n} more earlier accesses (the earliest at line {})",
            line(p.earliest_prior)
        )),
    }
    format!(
        "{file}:{}: {}: {} {} {} ({}), previously {} at line {} by {} ({}){others}; fix: {}",
        line(p.command),
        p.kind.message_id(),
        actor(cur, p.current),
        verb,
        p.region,
        p.current,
        pverb,
        line(p.prior_command),
        actor(prior, p.prior),
        p.prior,
        fix,
    )
}

/// One order note as one line: a host access made after `command` was
/// recorded and before its batch was submitted runs first. Not a hazard
/// (the submit orders the pair); the line says which value each side sees.
pub fn order_note_line(file: &str, program: &Program, lines: &[usize], n: &OrderNote) -> String {
    let line = |i: usize| lines.get(i).map_or_else(|| "?".to_string(), |l| l.to_string());
    let cmd = &program.commands()[n.command];
    let name = actor(cmd, n.device);
    let (hverb, dverb) = (
        if n.host.is_write() { "writes" } else { "reads" },
        if n.device.is_write() { "writes" } else { "reads" },
    );
    let when = match n.submit {
        Some(s) => format!("the submit at line {}", line(s)),
        None => "the end of the trace (still recorded there)".to_string(),
    };
    let meaning = match (n.host.is_write(), n.device.is_write()) {
        (true, false) => format!("{name} reads the host's new value"),
        (false, true) => format!("the host reads the value from before {name}"),
        _ => format!("{name}'s write replaces the host's"),
    };
    format!(
        "{file}:{}: note: ORDER: the host {hverb} {} ({}) before {name} recorded at line {} {dverb} it ({}): \
         the command runs at {when}, after the host access, so {meaning} (ordered, not a race)",
        line(n.host_command),
        program.show_region(n.region),
        n.host,
        line(n.command),
        n.device,
    )
}

/// [`summary_groups`] of hazards not grouped yet.
pub fn summary(hazards: &[vksync::Hazard]) -> String {
    summary_groups(&vksync::group_hazards(hazards.iter().copied()))
}

/// `2 hazards (1 write-after-read, 1 write-after-write)` or `no hazards`:
/// one hazard per line printed (a later access and a kind); when a line
/// stands for several earlier accesses, the number of racing pairs too.
pub fn summary_groups(groups: &[HazardGroup]) -> String {
    let kinds: Vec<HazardKind> = groups.iter().map(|g| g.hazard.kind).collect();
    summary_of(&kinds, groups.iter().map(|g| 1 + g.also.len() + g.more).sum())
}

/// [`summary`] from the kinds of the lines and the number of pairs they
/// stand for.
pub fn summary_of(hazards: &[HazardKind], pairs: usize) -> String {
    if hazards.is_empty() {
        return "no hazards".to_string();
    }
    let kinds = [
        (HazardKind::ReadAfterWrite, "read-after-write"),
        (HazardKind::WriteAfterRead, "write-after-read"),
        (HazardKind::WriteAfterWrite, "write-after-write"),
    ];
    let parts: Vec<String> = kinds
        .iter()
        .filter_map(|(k, name)| {
            let n = hazards.iter().filter(|h| **h == *k).count();
            (n > 0).then(|| format!("{n} {name}"))
        })
        .collect();
    let n = hazards.len();
    let pairs = if pairs > n {
        format!("; {pairs} racing pairs of accesses")
    } else {
        String::new()
    };
    format!(
        "{n} hazard{} ({}{pairs})",
        if n == 1 { "" } else { "s" },
        parts.join(", ")
    )
}

/// The queue a command runs on: that of the first submit at or after it
/// (the implicit submit at the end goes to the first queue).
fn queue_of(program: &Program, command: usize) -> vksync::QueueId {
    program.commands()[command..]
        .iter()
        .find_map(|c| match c {
            Command::Submit(s) => Some(s.queue),
            _ => None,
        })
        .unwrap_or_default()
}

/// When one side of race `r` is a render pass's automatic layout
/// transition: that command and the subpass dependency whose masks order
/// the transition ([`vksync::transition_dependency`]).
fn render_transition(
    program: &Program,
    layout: &vksync::Layout,
    r: &vksync::spec::Race,
) -> Option<(usize, (vksync::SubpassIndex, vksync::SubpassIndex))> {
    let at = if r.current.is_layout_transition() {
        r.command
    } else if r.prior.is_layout_transition() {
        r.prior_command
    } else {
        return None;
    };
    let Command::Render(rc) = &program.commands()[at] else {
        return None;
    };
    let image = rc.pre_barriers().iter().filter(|b| b.transition).find_map(|b| {
        let reg = b.region?;
        let m = layout.locate(reg)?;
        (m.mem == r.mem && m.range.start < r.range.end && r.range.start < m.range.end).then_some(reg.object)
    })?;
    Some((at, vksync::transition_dependency(program, at, image)?))
}

/// A group of races (one later access and kind, earlier accesses of one
/// queue or of the host) as one line in the format of [`hazard_line`].
/// The bytes are named through the object the later command accessed them
/// by; the fix says what orders every pair of the group: a barrier on one
/// queue, a semaphore between two, a wait before a host access.
pub fn race_line(
    file: &str,
    program: &Program,
    layout: &vksync::Layout,
    lines: &[usize],
    g: &RaceGroup,
    reading: vksync::Reading,
) -> String {
    let r = &g.race;
    let cur = &program.commands()[r.command];
    let region = vksync::accesses(cur, layout, vksync::Semantics::SPEC)
        .unwrap_or_default()
        .iter()
        .find(|a| {
            a.sa == r.current
                && a.mem == r.mem
                && a.range.start <= r.range.start
                && r.range.end <= a.range.end
        })
        .map(|a| {
            let base = a.range.start - a.region.range.start;
            program.show_region(vksync::Region {
                object: a.region.object,
                range: vksync::ByteRange::new(r.range.start - base, r.range.end - base),
            })
        })
        .or_else(|| {
            // A queue family ownership transfer's operation is no entry of
            // the access table, nor is a render pass's automatic layout
            // transition (a barrier its command makes first): their bytes
            // are their barrier's region.
            let barriers: &[vksync::Barrier] = match cur {
                vksync::Command::Barrier(dep) => &dep.barriers,
                vksync::Command::Render(rc) => rc.pre_barriers(),
                _ => return None,
            };
            barriers
                .iter()
                .filter(|b| {
                    b.ownership.is_some() || (b.transition && matches!(cur, vksync::Command::Render(_)))
                })
                .find_map(|b| {
                    let reg = b.region?;
                    let m = layout.locate(reg)?;
                    (m.mem == r.mem && m.range.start <= r.range.start && r.range.end <= m.range.end).then(
                        || {
                            let base = m.range.start - reg.range.start;
                            program.show_region(vksync::Region {
                                object: reg.object,
                                range: vksync::ByteRange::new(r.range.start - base, r.range.end - base),
                            })
                        },
                    )
                })
        })
        .unwrap_or_else(|| format!("memory {}[{}]", r.mem.0, r.range));
    let line = |i: usize| lines.get(i).map_or_else(|| "?".to_string(), |l| l.to_string());
    let prior_accesses = g
        .priors
        .iter()
        .fold(vksync::AccessFlags2::NONE, |m, sa| m | sa.access());
    let (src_access, dst_access) = match r.kind {
        HazardKind::ReadAfterWrite => (prior_accesses.to_string(), r.current.access().to_string()),
        // The memory model's reading asks the earlier write made available;
        // the synchronization chapter's (the layer's) also visible to the
        // later write.
        HazardKind::WriteAfterWrite => match reading {
            vksync::Reading::MemoryModel => (prior_accesses.to_string(), "NONE".to_string()),
            _ => (prior_accesses.to_string(), r.current.access().to_string()),
        },
        HazardKind::WriteAfterRead => ("NONE".to_string(), "NONE".to_string()),
    };
    // A queue family release or acquire operation is in no stage: only
    // ALL_COMMANDS orders it.
    let stage_of = |sa: StageAccess| {
        if sa.is_ownership_transfer() {
            vksync::PipelineStageFlags2::ALL_COMMANDS
        } else {
            sa.stage().flag()
        }
    };
    let ps = g
        .priors
        .iter()
        .fold(vksync::PipelineStageFlags2::NONE, |m, &sa| m | stage_of(sa));
    // ALL_COMMANDS holds every other stage: name it alone.
    let ps = if ps.contains(vksync::PipelineStageFlags2::ALL_COMMANDS) {
        vksync::PipelineStageFlags2::ALL_COMMANDS
    } else {
        ps
    };
    let cs = stage_of(r.current);
    let fix = if is_host(r.current) && !is_host(r.prior) {
        format!(
            "barrier {ps}:{src_access} -> HOST:{} after line {} on queue `{}`, then wait for it on the host \
             (`wait`, `wait QUEUE` or `host-wait` on a semaphore it signals)",
            r.current.access(),
            line(r.prior_command),
            program.queue_name(queue_of(program, r.prior_command)),
        )
    } else if is_host(r.prior) || is_host(r.current) {
        format!(
            "submit line {}'s batch after the host access, or have it wait (`wait SEM@{cs}`) for a host-signal after it",
            line(r.command)
        )
    } else if let Some((at, (src, dst))) = render_transition(program, layout, r) {
        // A render pass's automatic layout transition: only the masks of
        // the subpass dependency it lies in order it
        // (`vksync::Hazard::fix_text`).
        if at == r.command {
            format!(
                "add {ps}:{src_access} to the source of a subpass dependency {src}->{dst} of the render pass (the \
                 layout transition of {region} happens-after its availability operations)"
            )
        } else {
            format!(
                "add {cs}:{dst_access} to the destination of a subpass dependency {src}->{dst} of the render pass \
                 (the layout transition of {region} happens-before its visibility operations)"
            )
        }
    } else if let Some((s, k)) = vksync::subpasses_between(program, r.prior_command, r.command) {
        // Two subpasses of one render pass instance: no barrier can be
        // recorded between them (`vksync::Hazard::fix_text`).
        format!("add `dependency {s}->{k} {ps}:{src_access} -> {cs}:{dst_access}` (or these masks to one) to the render pass")
    } else if queue_of(program, r.command) == queue_of(program, r.prior_command) {
        format!(
            "barrier {ps}:{src_access} -> {cs}:{dst_access} {region}{}",
            across_batches(program, lines, r.prior_command, r.command)
        )
    } else {
        let (qp, qc) = (queue_of(program, r.prior_command), queue_of(program, r.command));
        // A layout transition is in no stage: a signal orders it through
        // the transition barrier's second scope, which the signal's
        // ALL_COMMANDS chains with, if that scope names a stage at all.
        let transition = g.priors.iter().any(|sa| sa.is_layout_transition());
        let ps = if transition {
            vksync::PipelineStageFlags2::ALL_COMMANDS
        } else {
            ps
        };
        let empty_second_scope = transition
            && matches!(
                program.commands().get(r.prior_command),
                Some(vksync::Command::Barrier(dep))
                    if dep.barriers.iter().filter(|b| b.transition).all(|b| b.dst_stage_mask.is_empty())
            );
        format!(
            "signal a semaphore in stage {ps} after line {} on queue `{}` and wait for it in stage {cs} on queue `{}`{}",
            line(r.prior_command),
            program.queue_name(qp),
            program.queue_name(qc),
            if empty_second_scope {
                format!(
                    ", and give the layout transition's barrier at line {} a destination stage (its second scope is \
                     empty, so nothing after it, the signal included, is ordered after the transition)",
                    line(r.prior_command)
                )
            } else {
                String::new()
            }
        )
    };
    let parts = Parts {
        kind: r.kind,
        command: r.command,
        region,
        current: r.current,
        prior_command: r.prior_command,
        prior: r.prior,
        also: g.also.clone(),
        more: g.more,
        earliest_prior: g.earliest_prior,
    };
    line_of(file, program, lines, &parts, &fix)
}
