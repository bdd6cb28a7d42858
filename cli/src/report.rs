//! Rendering hazards as `FILE:LINE: SYNC-HAZARD-KIND: ...` lines.
//!
//! The model describes a hazard without source positions
//! (`Hazard::describe`); the CLI needs the prior command's line in the
//! middle of the sentence, so the sentence is built here from the hazard's
//! fields, with the same words the model uses. Fixes are the model's
//! (`Hazard::fix_text_at`, for the definitional semantics' races through
//! `vksync::race_group_hazard`): this module only formats.

use vksync::{Command, HazardGroup, HazardKind, OrderNote, Program, RaceGroup, StageAccess};

/// Who performs an access of a command, as the subject of a sentence. Host
/// accesses are not Vulkan commands, so they read "the host" rather than
/// "host read"; a layout transition is named after its barrier's call, as
/// `Hazard::describe` names it. `call` is the Vulkan call a capture
/// recorded the command from ([`Placement::with_calls`]), which names it
/// better than the model's command (`vkCmdCopyQueryPoolResults` for a
/// `copy` out of a query pool, `vkCmdDispatchBase`, `vkCmdCopyBuffer2`).
fn actor(c: &Command, sa: StageAccess, call: Option<&str>) -> String {
    let name = call.unwrap_or_else(|| c.vulkan_name());
    match c {
        Command::HostRead { .. } | Command::HostWrite { .. } => "the host".to_string(),
        _ if sa.is_layout_transition() => format!("{name} layout transition"),
        _ => name.to_string(),
    }
}

/// The Vulkan call a capture's comment names at the end of a command's
/// line (`copy qp0[0..8] -> b3[0..8]  # vkCmdCopyQueryPoolResults #12 in
/// cb0`): a word of letters and digits starting with `vk` right after the
/// comment's `#`, then ` #` and a sequence number. Any other comment (a
/// hand-written trace's) names none.
fn captured_call(line: &str) -> Option<&str> {
    let comment = line.split_once("  # ")?.1;
    let (call, rest) = comment.split_once(' ')?;
    let numbered = rest
        .strip_prefix('#')
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
    (call.starts_with("vk") && call.len() > 2 && call.chars().all(|c| c.is_ascii_alphanumeric()) && numbered)
        .then_some(call)
}

/// Where a report places its fixes: `lines[i]` is the source line of
/// command `i` of the program, `submits` its submits (one lookup per line,
/// not a scan of the commands between its two accesses).
pub struct Placement<'a> {
    pub lines: &'a [usize],
    pub submits: vksync::Submits,
    /// The trace's text, where its lines' capture comments name calls
    /// ([`Placement::with_calls`]).
    text: Option<&'a str>,
    /// Per command, the Vulkan call a capture recorded it from, read from
    /// `text` when a report line first asks (a clean trace reads none).
    calls: std::cell::OnceCell<Vec<Option<&'a str>>>,
}

impl<'a> Placement<'a> {
    /// The placement in `program` by `lines`.
    pub fn new(program: &Program, lines: &'a [usize]) -> Self {
        Placement {
            lines,
            submits: vksync::Submits::of(program),
            text: None,
            calls: std::cell::OnceCell::new(),
        }
    }

    /// With each command's call read from the comment its line in `text`
    /// ends with, where a capture wrote one (`captured_call`).
    pub fn with_calls(mut self, text: &'a str) -> Self {
        self.text = Some(text);
        self
    }

    /// The call command `i` was captured from, if known.
    fn call(&self, i: usize) -> Option<&'a str> {
        let text = self.text?;
        let calls = self.calls.get_or_init(|| {
            let source: Vec<&str> = text.lines().collect();
            self.lines
                .iter()
                .map(|&l| {
                    l.checked_sub(1)
                        .and_then(|i| source.get(i))
                        .and_then(|line| captured_call(line))
                })
                .collect()
        });
        calls.get(i).copied().flatten()
    }
}

/// One group of hazards (one later access, one kind) as one line.
pub fn hazard_line(file: &str, program: &Program, at: &Placement<'_>, g: &HazardGroup) -> String {
    let h = &g.hazard;
    group_line(file, program, at, h, (&g.also, g.more, g.earliest_prior))
}

/// The line of a group whose nearest pair is `h` and whose further
/// earlier accesses are `(also, more, earliest_prior)`, with the model's
/// fix.
fn group_line(
    file: &str,
    program: &Program,
    at: &Placement<'_>,
    h: &vksync::Hazard,
    (also, more, earliest_prior): (&[vksync::Earlier], usize, usize),
) -> String {
    let parts = Parts {
        kind: h.kind,
        command: h.command,
        region: program.show_region(h.region),
        current: h.current,
        prior_command: h.prior_command,
        prior: h.prior,
        also: also.to_vec(),
        more,
        earliest_prior,
    };
    let fix = h.fix_text_in(program, at.lines, &at.submits);
    line_of(file, program, at, &parts, &fix)
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
pub fn line_of(file: &str, program: &Program, at: &Placement<'_>, p: &Parts, fix: &str) -> String {
    let line = |i: usize| at.lines.get(i).map_or_else(|| "?".to_string(), |l| l.to_string());
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
                actor(c, e.access, at.call(e.command)),
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
        actor(cur, p.current, at.call(p.command)),
        verb,
        p.region,
        p.current,
        pverb,
        line(p.prior_command),
        actor(prior, p.prior, at.call(p.prior_command)),
        p.prior,
        fix,
    )
}

/// One order note as one line: a host access made after `command` was
/// recorded and before its batch was submitted runs first. Not a hazard
/// (the submit orders the pair); the line says which value each side sees.
pub fn order_note_line(file: &str, program: &Program, at: &Placement<'_>, n: &OrderNote) -> String {
    let line = |i: usize| at.lines.get(i).map_or_else(|| "?".to_string(), |l| l.to_string());
    let cmd = &program.commands()[n.command];
    let name = actor(cmd, n.device, at.call(n.command));
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

/// [`summary_of`] of hazards not grouped yet (a plan's remaining ones),
/// each named by the object its later command named.
pub fn summary(hazards: &[vksync::Hazard]) -> String {
    let groups = vksync::group_hazards(hazards.iter().copied());
    summary_of(
        groups.iter().map(|g| {
            (
                g.hazard.command,
                g.hazard.current,
                (g.hazard.memory.mem.0, Some(g.hazard.region.object.0)),
                g.hazard.kind,
            )
        }),
        groups.iter().map(|g| 1 + g.also.len() + g.more).sum(),
        false,
    )
}

/// The summary of the single-queue checker's lines ([`summary_of`]). Its
/// pair count is a lower bound: per range it keeps the nearest earlier
/// accesses and a count, and names the last write of a range, not the
/// earlier writes that one overwrote (each of them a race too, by the
/// definition, which the fix of the last write removes with it).
///
/// A hazard's object is [`vksync::hazard_object`]'s (`program`'s
/// layout), as in [`summary_race_groups`], so that every checker counts
/// alike (review39).
pub fn summary_groups(program: &Program, groups: &[HazardGroup]) -> String {
    // (Resolved again only where there is something to count.)
    let layout = (!groups.is_empty())
        .then(|| vksync::resolve(program).ok())
        .flatten();
    let hazards = groups.iter().map(|g| {
        let h = &g.hazard;
        let object = layout
            .as_ref()
            .and_then(|l| vksync::hazard_object(program, l, h.command, h.current, h.memory))
            .unwrap_or(h.region.object);
        (h.command, h.current, (h.memory.mem.0, Some(object.0)), h.kind)
    });
    summary_of(
        hazards,
        groups.iter().map(|g| 1 + g.also.len() + g.more).sum(),
        false,
    )
}

/// The summary of race lines ([`summary_of`]); `exact`: they are every
/// racing pair (the definitional semantics', the multi-queue walk's).
/// A hazard's object is [`vksync::hazard_object`]'s, as in
/// [`summary_groups`].
pub fn summary_race_groups(program: &Program, groups: &[RaceGroup], exact: bool) -> String {
    let layout = (!groups.is_empty())
        .then(|| vksync::resolve(program).ok())
        .flatten();
    let hazards = groups.iter().map(|g| {
        let r = &g.race;
        let memory = vksync::MemRange {
            mem: r.mem,
            range: r.range,
        };
        let object = layout
            .as_ref()
            .and_then(|l| vksync::hazard_object(program, l, r.command, r.current, memory));
        (r.command, r.current, (r.mem.0, object.map(|o| o.0)), r.kind)
    });
    summary_of(
        hazards,
        groups.iter().map(|g| 1 + g.also.len() + g.more).sum(),
        exact,
    )
}

/// `2 hazards (1 write-after-read, 1 write-after-write)` or `no hazards`,
/// from the lines printed (each a later command's access to some bytes of
/// memory, a kind) and the number of racing pairs they stand for.
///
/// A hazard is a later access (command, stage and access, the object it
/// named and its memory) that races earlier accesses with one kind, over whichever of its bytes they
/// race on: what every checker agrees on (`proptests`' `spec_differential`
/// compares the bytes too). A report may print one hazard on several
/// lines (the definitional semantics' earlier accesses of two queues, a
/// layout transition's apart from other writes, the single-queue
/// checker's earlier accesses of another submission apart from this
/// one's: their fixes differ, or name different bytes); the summary then
/// says on how many. The racing pairs are
/// counted when there are more than hazards: exactly (`exact`), or as a
/// lower bound ("at least").
pub fn summary_of(
    lines: impl IntoIterator<Item = (usize, StageAccess, (u32, Option<u32>), HazardKind)>,
    pairs: usize,
    exact: bool,
) -> String {
    let mut printed = 0;
    let mut hazards = std::collections::BTreeSet::new();
    for (command, current, m, kind) in lines {
        printed += 1;
        // The memory and the object the later command named, not the
        // bytes: checkers split or merge the bytes one later access races
        // on differently (the single-queue checker prints a write
        // submitted earlier apart, the definitional semantics' groups take
        // the hull; review39 counted 2 hazards against 1 for one dispatch).
        hazards.insert((command, current, m, kind as u8));
    }
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
            let n = hazards.iter().filter(|h| h.3 == *k as u8).count();
            (n > 0).then(|| format!("{n} {name}"))
        })
        .collect();
    let n = hazards.len();
    let mut more = String::new();
    if pairs > n {
        let bound = if exact { "" } else { "at least " };
        more.push_str(&format!("; {bound}{pairs} racing pairs of accesses"));
    }
    if printed > n {
        more.push_str(&format!("; on {printed} lines"));
    }
    format!(
        "{n} hazard{} ({}{more})",
        if n == 1 { "" } else { "s" },
        parts.join(", ")
    )
}

/// A group of races (one later access and kind, earlier accesses of one
/// queue or of the host) as one line in the format of [`hazard_line`]:
/// the hazard and fix [`vksync::race_group_hazard`] derives for it (the
/// fast checker's rules and words: one home), printed as the fast
/// checker's are.
pub fn race_line(
    file: &str,
    program: &Program,
    layout: &vksync::Layout,
    at: &Placement<'_>,
    g: &RaceGroup,
    reading: vksync::Reading,
) -> String {
    let h = &vksync::race_group_hazard(program, layout, g, reading);
    group_line(file, program, at, h, (&g.also, g.more, g.earliest_prior))
}
