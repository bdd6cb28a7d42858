//! Rendering hazards as `FILE:LINE: SYNC-HAZARD-KIND: ...` lines.
//!
//! The model describes a hazard without source positions
//! (`Hazard::describe`); the CLI needs the prior command's line in the
//! middle of the sentence, so the sentence is built here from the hazard's
//! fields, with the same words the model uses.

use vksync::{Command, Hazard, HazardKind, OrderNote, Program, StageAccess};

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

/// One hazard as one line. `lines[i]` is the source line of command `i`
/// of `program`.
pub fn hazard_line(file: &str, program: &Program, lines: &[usize], h: &Hazard) -> String {
    let parts = Parts {
        kind: h.kind,
        command: h.command,
        region: program.show_region(h.region),
        current: h.current,
        prior_command: h.prior_command,
        prior: h.prior,
    };
    line_of(file, program, lines, &parts, &h.fix.describe(program))
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
}

/// One line in the format of [`hazard_line`], with `fix` as its fix.
pub fn line_of(file: &str, program: &Program, lines: &[usize], p: &Parts, fix: &str) -> String {
    let line = |i: usize| lines.get(i).map_or_else(|| "?".to_string(), |l| l.to_string());
    let cur = &program.commands()[p.command];
    let prior = &program.commands()[p.prior_command];
    let verb = if p.current.is_write() { "writes" } else { "reads" };
    let pverb = if p.prior.is_write() { "written" } else { "read" };
    format!(
        "{file}:{}: {}: {} {} {} ({}), previously {} at line {} by {} ({}); fix: {}",
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

/// `2 hazards (1 write-after-read, 1 write-after-write)` or `no hazards`.
pub fn summary(hazards: &[Hazard]) -> String {
    summary_of(&hazards.iter().map(|h| h.kind).collect::<Vec<_>>())
}

/// [`summary`] from the kinds alone.
pub fn summary_of(hazards: &[HazardKind]) -> String {
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
    format!(
        "{n} hazard{} ({})",
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

/// A race of the definitional semantics as one line in the format of
/// [`hazard_line`]. The bytes are named through the object the later
/// command accessed them by; the fix says what orders the pair: a
/// barrier on one queue, a semaphore between two, a wait before a host
/// access.
pub fn race_line(
    file: &str,
    program: &Program,
    layout: &vksync::Layout,
    lines: &[usize],
    r: &vksync::spec::Race,
) -> String {
    let cur = &program.commands()[r.command];
    let region = vksync::accesses(cur, layout, vksync::Semantics::SPEC)
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
            // the access table: its bytes are its barrier's region.
            let vksync::Command::Barrier(dep) = cur else {
                return None;
            };
            dep.barriers
                .iter()
                .filter(|b| b.ownership.is_some())
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
    let is_host = |sa: StageAccess| sa.stage().flag() == vksync::PipelineStageFlags2::HOST;
    let line = |i: usize| lines.get(i).map_or_else(|| "?".to_string(), |l| l.to_string());
    let (src_access, dst_access) = match r.kind {
        HazardKind::ReadAfterWrite => (r.prior.access().to_string(), r.current.access().to_string()),
        HazardKind::WriteAfterWrite => (r.prior.access().to_string(), "NONE".to_string()),
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
    let (ps, cs) = (stage_of(r.prior), stage_of(r.current));
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
    } else if queue_of(program, r.command) == queue_of(program, r.prior_command) {
        format!("barrier {ps}:{src_access} -> {cs}:{dst_access} {region}")
    } else {
        let (qp, qc) = (queue_of(program, r.prior_command), queue_of(program, r.command));
        format!(
            "signal a semaphore in stage {ps} after line {} on queue `{}` and wait for it in stage {cs} on queue `{}`",
            line(r.prior_command),
            program.queue_name(qp),
            program.queue_name(qc),
        )
    };
    let parts = Parts {
        kind: r.kind,
        command: r.command,
        region,
        current: r.current,
        prior_command: r.prior_command,
        prior: r.prior,
    };
    line_of(file, program, lines, &parts, &fix)
}
