//! Rendering hazards as `FILE:LINE: SYNC-HAZARD-KIND: ...` lines.
//!
//! The model describes a hazard without source positions
//! (`Hazard::describe`); the CLI needs the prior command's line in the
//! middle of the sentence, so the sentence is built here from the hazard's
//! fields, with the same words the model uses.

use vksync::{Command, Hazard, HazardKind, Program, StageAccess};

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
    let line = |i: usize| lines.get(i).map_or_else(|| "?".to_string(), |l| l.to_string());
    let cur = &program.commands()[h.command];
    let prior = &program.commands()[h.prior_command];
    let verb = if h.current.is_write() { "writes" } else { "reads" };
    let pverb = if h.prior.is_write() { "written" } else { "read" };
    format!(
        "{file}:{}: {}: {} {} {} ({}), previously {} at line {} by {} ({}); fix: {}",
        line(h.command),
        h.kind.message_id(),
        actor(cur, h.current),
        verb,
        program.show_region(h.region),
        h.current,
        pverb,
        line(h.prior_command),
        actor(prior, h.prior),
        h.prior,
        h.fix.describe(program),
    )
}

/// `2 hazards (1 write-after-read, 1 write-after-write)` or `no hazards`.
pub fn summary(hazards: &[Hazard]) -> String {
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
            let n = hazards.iter().filter(|h| h.kind == *k).count();
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
