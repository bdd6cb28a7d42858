//! Printing a plan as a trace: the planned program in the trace format, with
//! comments saying which hazards each inserted barrier answers.
//!
//! The output must parse back (so `vksync plan X | vksync check -` works),
//! so everything that is not the program is a `#` comment. Hazard lines are
//! given in the input file's numbering, since that is the file the user
//! has open; the planned program's own lines shift with every insertion.

use crate::input::{self, Source};
use crate::report;
use vksync::plan::{BarrierForm, Plan, PlanOptions, QueuePlanError, QueuePlanOptions};
use vksync::trace::{print, print_annotated, print_command, Annotations};
use vksync::{Command, Program};

/// Facts about a plan that the header and the summary report.
pub struct PlanStats {
    pub points: usize,
    pub bits: u64,
    pub bound: usize,
    /// Hazards `vksync check` finds in the planned program.
    pub remaining: Vec<vksync::Hazard>,
}

impl PlanStats {
    pub fn of(source: &Source, plan: &Plan, opts: PlanOptions) -> Result<PlanStats, vksync::ProgramError> {
        Ok(PlanStats {
            points: plan.program.barrier_points(),
            bits: plan.program.barrier_bits(),
            bound: vksync::plan::stabbing_bound(&source.trace.program, opts.reading)?,
            remaining: vksync::check(&plan.program)?,
        })
    }
}

/// The planned program as trace text.
/// The buffers, pools and images of a checked program, declared in its
/// order with no command (blobs are declared by their `alloc` commands):
/// an image keeps its description (`from_parts` takes buffers and pools
/// only, and would write an image as a plain buffer).
fn declarations_of(program: &Program) -> Program {
    let mut out = Program::new();
    let mut ids: Vec<Option<vksync::ObjectId>> = Vec::with_capacity(program.objects().len());
    for (i, o) in program.objects().iter().enumerate() {
        let id = vksync::ObjectId(i as u32);
        let remap = |a: Option<(vksync::ObjectId, u64)>| {
            a.and_then(|(m, off)| ids.get(m.0 as usize).copied().flatten().map(|m| (m, off)))
        };
        let declared = match (&o.kind, program.image(id)) {
            (vksync::ObjectKind::Blob { .. }, _) => None,
            (vksync::ObjectKind::Buffer { alias }, Some(d)) => out
                .declare_image(
                    &o.name,
                    d.format,
                    d.extent,
                    d.mips,
                    d.layers,
                    d.tiling,
                    remap(*alias),
                )
                .ok()
                .inspect(|&image| {
                    // The sharing mode and the initial layout are set, not
                    // declared: keep both.
                    let _ = out.set_sharing(image, o.sharing);
                    let _ = out.set_initial_layout(image, d.initial);
                    // A linear image's row pitch moves its rows: keep it
                    // (review31: the planned text lost it, and with it
                    // the program that was checked).
                    if let Some(p) = d.row_pitch {
                        let _ = out.set_row_pitch(image, p);
                    }
                }),
            (vksync::ObjectKind::Buffer { alias }, None) => out
                .declare(vksync::Object {
                    kind: vksync::ObjectKind::Buffer { alias: remap(*alias) },
                    ..o.clone()
                })
                .ok(),
            _ => out.declare(o.clone()).ok(),
        };
        ids.push(declared);
    }
    out
}

pub fn render(source: &Source, plan: &Plan, opts: PlanOptions, stats: &PlanStats, repeat: bool) -> String {
    let lines = source.barrier_free_lines();
    let line = |i: usize| lines.get(i).map_or_else(|| "?".to_string(), |l| l.to_string());
    let form = match opts.form {
        BarrierForm::Global => "global memory barriers",
        BarrierForm::Buffer => "buffer memory barriers",
    };
    let mut out = String::new();
    // The reading only steers the planners that follow the model's hazards.
    let reading = match (opts.planner, opts.reading) {
        (
            vksync::plan::PlannerKind::Online | vksync::plan::PlannerKind::Offline,
            vksync::Reading::MemoryModel,
        ) => "; the memory model's reading of write-after-write",
        (vksync::plan::PlannerKind::Online | vksync::plan::PlannerKind::Offline, _) => {
            "; write-after-write made visible, race-free under both readings"
        }
        _ => "",
    };
    out.push_str(&format!(
        "# {} planned by vksync plan --planner {} ({form}{reading})\n",
        in_comment(&source.name),
        opts.planner.name()
    ));
    out.push_str(&format!(
        "# {} barrier point{} (stabbing bound {}), {} stage/access bits; vksync check: {}\n",
        stats.points,
        if stats.points == 1 { "" } else { "s" },
        stats.bound,
        stats.bits,
        report::summary(&stats.remaining)
    ));
    if repeat {
        let looped = plan.origin.first() == Some(&None)
            && matches!(plan.program.commands().first(), Some(Command::Barrier(_)));
        out.push_str(if looped {
            "# --repeat: the first barrier orders each submission after the previous one (loop-carried dependencies)\n"
        } else {
            "# --repeat: no loop-carried dependency needs a barrier\n"
        });
    }
    for line in dependency_changes(&source.trace.program, &plan.program) {
        out.push_str(&format!("# {line}\n"));
    }
    // The declarations, exactly as the model's printer writes them (blobs
    // are declared by their `alloc` commands).
    // (The buffers and pools of a checked program, which `from_parts`
    // accepts; an empty program would print no declarations.)
    let mut declarations = declarations_of(&plan.program);
    // A single-queue trace may still declare queues (its submits then name
    // the first), semaphores it does not use, and events: declared again
    // so the output parses back. (The names were valid in the input.)
    for q in plan.program.queues() {
        let _ = declarations.queue(&q.name, q.family);
    }
    for sem in plan.program.semaphores() {
        let _ = declarations.semaphore(&sem.name, sem.kind);
    }
    for e in plan.program.events() {
        let _ = declarations.event(&e.name);
    }
    for rp in plan.program.render_passes() {
        let _ = declarations.render_pass(rp.clone());
    }
    out.push_str(&print(&declarations));
    for (i, c) in plan.program.commands().iter().enumerate() {
        if is_subpass_end(c) {
            continue;
        }
        let inserted = plan.origin.get(i).copied().flatten().is_none();
        // A layout transition of the input that a planned point joined
        // answers that point's hazards.
        let joined = matches!(c, Command::Barrier(_)) && !inserted;
        if inserted || joined {
            match c {
                Command::Barrier(_) => {
                    // `answers` is in command order, so a binary search finds a barrier's.
                    let answered = plan
                        .answers
                        .binary_search_by_key(&i, |(at, _)| *at)
                        .ok()
                        .map(|k| &plan.answers[k]);
                    for h in answered.map(|(_, hs)| hs.as_slice()).unwrap_or(&[]) {
                        out.push_str(&format!(
                            "# answers: {} on {}: line {} after line {}\n",
                            h.kind.message_id(),
                            plan.program.show_region(h.region),
                            line(h.command),
                            line(h.prior_command),
                        ));
                    }
                }
                Command::Submit(_) if inserted => {
                    out.push_str("# inserted: the host access below waits for the device\n")
                }
                _ => {}
            }
        }
        out.push_str(&print_command(&plan.program, c));
        out.push('\n');
    }
    out
}

/// What a plan added to the input's render pass declarations (the
/// subpass dependencies its instances need, `vksync::plan::plan`), one
/// line each: masks added to a declared dependency, or a new `dependency`
/// clause. The planners never remove a mask, so a difference is an
/// addition.
pub fn dependency_changes(input: &Program, planned: &Program) -> Vec<String> {
    let mut out = Vec::new();
    for (old, new) in input.render_passes().iter().zip(planned.render_passes()) {
        for (j, d) in new.dependencies.iter().enumerate() {
            let Some(o) = old.dependencies.get(j) else {
                out.push(format!(
                    "render pass `{}`: the plan adds `dependency {d}`",
                    new.name
                ));
                continue;
            };
            let sides = [
                (
                    "source",
                    d.src_stage_mask.difference(o.src_stage_mask),
                    d.src_access_mask.difference(o.src_access_mask),
                ),
                (
                    "destination",
                    d.dst_stage_mask.difference(o.dst_stage_mask),
                    d.dst_access_mask.difference(o.dst_access_mask),
                ),
            ];
            for (side, stages, accesses) in sides {
                let what = match (stages.is_empty(), accesses.is_empty()) {
                    (true, true) => continue,
                    (false, true) => format!("{stages} to the {side} stage mask"),
                    (true, false) => format!("{accesses} to the {side} access mask"),
                    (false, false) => format!("{stages}:{accesses} to the {side} masks"),
                };
                out.push(format!(
                    "render pass `{}`: the plan adds {what} of dependency {}->{}",
                    new.name, d.src, d.dst
                ));
            }
        }
    }
    out
}

/// Two plans of the same trace side by side, one row per input command and
/// per inserted command, so a reviewer sees where each planner puts its
/// barriers. Commands at which `vksync check` still finds a hazard in a
/// plan are marked with the hazard under that plan's column.
pub fn side_by_side(source: &Source, left: (&str, &Plan), right: (&str, &Plan)) -> String {
    side_by_side_marked(source, left, right, false)
}

/// The program as recorded (left) beside a plan (right), each recorded
/// barrier that removing alone brings no hazard back marked `# redundant`,
/// then a summary line: how many barriers were recorded, how many are
/// needed, the redundant ones' lines, and the plan's points.
pub fn recorded_side_by_side(
    source: &Source,
    recorded: &Plan,
    barriers: &[vksync::plan::RecordedBarrier],
    right: (&str, &Plan),
) -> String {
    let mut out = side_by_side_marked(source, ("recorded", recorded), right, true);
    let redundant: Vec<String> = barriers
        .iter()
        .filter(|b| b.redundant())
        .map(|b| source.trace.command_lines[b.command].to_string())
        .collect();
    // The first lines only: the marks in the columns show them all.
    const SHOWN: usize = 20;
    let mut lines = redundant
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if redundant.len() > SHOWN {
        lines.push_str(&format!(" and {} more", redundant.len() - SHOWN));
    }
    let points = right.1.program.barrier_points();
    let split = match barriers.iter().filter(|b| b.split).count() {
        0 => String::new(),
        1 => " (1 of them split: set-event/wait-events)".to_string(),
        n => format!(" ({n} of them split: set-event/wait-events)"),
    };
    out.push_str(&format!(
        "# {} barrier{} recorded{split}, {} needed ({} redundant{}{}), {} planned point{} ({})\n",
        barriers.len(),
        if barriers.len() == 1 { "" } else { "s" },
        barriers.len() - redundant.len(),
        redundant.len(),
        if redundant.is_empty() { "" } else { ": lines " },
        lines,
        points,
        if points == 1 { "" } else { "s" },
        right.0,
    ));
    // The recorded program's declarations are the input's: what the plan
    // needs beyond them.
    for line in dependency_changes(&source.trace.program, &right.1.program) {
        out.push_str(&format!("# {line}\n"));
    }
    out
}

/// The commands `--compare recorded` judges as the application's
/// barriers (`vksync::plan::recorded_barriers`): pipeline barriers and the
/// waits of split barriers.
fn is_judged(c: &Command) -> bool {
    matches!(
        c,
        Command::Barrier(_) | Command::WaitEvents { .. } | Command::WaitEvents1 { .. }
    )
}

/// The barrier points and bits of a program's split barriers, counted at
/// their waits (a `wait-events` is where a split barrier's dependency
/// takes effect; `Program::barrier_points` counts pipeline barriers only).
fn split_points(program: &vksync::Program) -> (usize, u64) {
    let mut points = 0;
    let mut bits = 0;
    for c in program.commands() {
        let deps: Vec<&vksync::Dependency> = match c {
            Command::WaitEvents { waits } => waits.iter().map(|w| &w.dependency).collect(),
            Command::WaitEvents1 { dependency, .. } => vec![dependency],
            _ => continue,
        };
        points += 1;
        bits += deps
            .iter()
            .flat_map(|d| d.barriers.iter())
            .map(|b| u64::from(b.bit_count()))
            .sum::<u64>();
    }
    (points, bits)
}

fn side_by_side_marked(
    source: &Source,
    left: (&str, &Plan),
    right: (&str, &Plan),
    mark_left: bool,
) -> String {
    let lines = source.barrier_free_lines();
    // Inserted commands before each input command (index = input command;
    // the extra last slot holds what comes after the last one).
    let inserted = |plan: &Plan, mark: bool| -> Vec<Vec<String>> {
        let mut out = vec![Vec::new(); lines.len() + 1];
        let mut pending = Vec::new();
        for (i, c) in plan.program.commands().iter().enumerate() {
            let unanswered = is_judged(c) && plan.answers.binary_search_by_key(&i, |(at, _)| *at).is_err();
            match plan.origin[i] {
                None if mark && unanswered => {
                    pending.push(format!("{}  # redundant", print_command(&plan.program, c)))
                }
                None => pending.push(print_command(&plan.program, c)),
                Some(o) => {
                    out[o] = std::mem::take(&mut pending);
                    // A layout transition stays on its input line (with
                    // empty scopes there): each side's own scopes, and the
                    // barriers that joined it, in its column just above.
                    let transition =
                        matches!(c, Command::Barrier(d) if d.barriers.iter().any(|b| b.transition));
                    if transition {
                        let text = print_command(&plan.program, c);
                        out[o].push(if mark && unanswered {
                            format!("{text}  # redundant")
                        } else {
                            text
                        });
                    }
                }
            }
        }
        out[lines.len()] = pending;
        out
    };
    // Hazards left in a plan, by input command.
    let left_over = |plan: &Plan| -> Vec<Vec<String>> {
        let mut out = vec![Vec::new(); lines.len() + 1];
        for h in vksync::check(&plan.program).unwrap_or_default() {
            if let Some(o) = plan.origin[h.command] {
                out[o].push(format!(
                    "^ {} after line {}",
                    h.kind.message_id(),
                    lines[plan.origin[h.prior_command].unwrap_or(0)]
                ));
            }
        }
        out
    };
    let (ln, lp) = left;
    let (rn, rp) = right;
    let (li, ri) = (inserted(lp, mark_left), inserted(rp, false));
    let (lh, rh) = (left_over(lp), left_over(rp));
    let width = li
        .iter()
        .chain(lh.iter())
        .flatten()
        .map(|s| s.chars().count())
        .chain([ln.len()])
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    let stats = |p: &Plan| {
        let left = vksync::check(&p.program).map(|h| h.len()).unwrap_or(0);
        let (points, bits) = split_points(&p.program);
        format!(
            "{} barrier points, {} bits, {} hazards left",
            p.program.barrier_points() + points,
            p.program.barrier_bits() + bits,
            left
        )
    };
    out.push_str(&format!(
        "# {}: {ln}: {}; {rn}: {}\n",
        in_comment(&source.name),
        stats(lp),
        stats(rp)
    ));
    out.push_str(&format!("      | {ln:<width$} | {rn}\n"));
    let pair_rows = |out: &mut String, a: &[String], b: &[String]| {
        for k in 0..a.len().max(b.len()) {
            let l = a.get(k).map_or("", String::as_str);
            let r = b.get(k).map_or("", String::as_str);
            out.push_str(format!("      | {l:<width$} | {r}\n").trim_end());
            out.push('\n');
        }
    };
    let program = vksync::plan::planning_input(&source.trace.program);
    for (i, c) in program.commands().iter().enumerate() {
        pair_rows(&mut out, &li[i], &ri[i]);
        if !is_subpass_end(c) {
            out.push_str(&format!("{:>5} {}\n", lines[i], print_command(&program, c)));
        }
        pair_rows(&mut out, &lh[i], &rh[i]);
    }
    pair_rows(&mut out, &li[lines.len()], &ri[lines.len()]);
    out
}

/// The flags of `vksync plan` that leave the single-queue barrier plan:
/// split barriers and async compute (a trace that already uses several
/// queues is planned across them without a flag).
#[derive(Clone, Copy, Debug, Default)]
pub struct Multi {
    pub split_barriers: bool,
    pub async_compute: bool,
}

/// `vksync plan` for a multi-queue trace, with `--async-compute`, or with
/// `--split-barriers`: the planned trace with every declaration (queues,
/// semaphores, events), a header of counts and the hazards each inserted
/// barrier answers. The error is the message to print.
/// A multi-queue planning error as the message to print, on its line.
pub(crate) fn queue_error_text(source: &Source, e: QueuePlanError) -> String {
    let lines = source.barrier_free_lines();
    match e {
        QueuePlanError::Program(e) => {
            input::program_error(&source.name, &source.text, &source.trace, e).to_string()
        }
        QueuePlanError::NotPlanned { at, .. } | QueuePlanError::HostNeedsSubmit { at, .. } => {
            // The message starts with `command N: `; say the line instead.
            let text = e.to_string();
            let rest = text.split_once(": ").map_or(text.as_str(), |(_, r)| r);
            match lines.get(at) {
                Some(l) => format!("{}:{l}: error: {rest}", source.name),
                // Past the trace: a host read `vksync run` appends.
                None => format!(
                    "{}: error: at a host read appended at the end of the trace: {rest}",
                    source.name
                ),
            }
        }
        e => format!("{}: error: {e}", source.name),
    }
}

/// `plan --compare recorded` of a trace that uses several queues: the
/// trace's own barriers judged ([`recorded_side_by_side`]) beside the
/// plan across its queues. The error is the message to print.
pub fn recorded_multi(source: &Source, opts: PlanOptions) -> Result<String, String> {
    let program = &source.trace.program;
    let planned = vksync::plan::plan_queues(program, QueuePlanOptions::new(opts))
        .map_err(|e| queue_error_text(source, e))?;
    let (recorded, barriers) = vksync::plan::recorded_plan(program, opts.reading)
        .map_err(|e| queue_error_text(source, QueuePlanError::Program(e)))?;
    Ok(recorded_side_by_side(
        source,
        &recorded,
        &barriers,
        (opts.planner.name(), &planned.plan),
    ))
}

pub fn plan_multi(source: &Source, opts: PlanOptions, multi: Multi) -> Result<String, String> {
    let program = &source.trace.program;
    let program_error = |e: vksync::ProgramError| {
        input::program_error(&source.name, &source.text, &source.trace, e).to_string()
    };
    let queue_error = |e: QueuePlanError| queue_error_text(source, e);
    let lines = source.barrier_free_lines();
    let at_line = |i: usize| lines.get(i).map_or_else(|| "?".to_string(), |l| l.to_string());
    let form = match opts.form {
        BarrierForm::Global => "global memory barriers",
        BarrierForm::Buffer => "buffer memory barriers",
    };
    let mut notes = Annotations::new();
    let (plan, lines_known) = if multi.split_barriers {
        let plan = vksync::plan::plan(program, opts).map_err(program_error)?;
        let split = vksync::plan::split_barriers(&plan, opts.reading).map_err(program_error)?;
        let p = &split.plan.program;
        let remaining = vksync::check(p).map_err(program_error)?;
        notes.header(&format!(
            "{} planned by vksync plan --planner {} --split-barriers ({form})",
            in_comment(&source.name),
            opts.planner.name()
        ));
        let k = split.kept;
        let why: Vec<String> = [
            (
                k.adjacent,
                "no independent device command between its producer and it",
            ),
            (k.across_batch, "a submit, wait or host access between"),
            (k.transition, "a layout transition or ownership transfer"),
            (k.would_race, "a later point needs it as a barrier"),
            (k.host, "HOST in a stage mask (an event may not name it)"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, why)| format!("{n}: {why}"))
        .collect();
        let why = if why.is_empty() {
            String::new()
        } else {
            format!("; kept as barriers: {}", why.join(", "))
        };
        notes.header(&format!(
            "{} barrier point{} ({} split into set-event/wait-events{why}), {} barrier{} left; vksync check: {}",
            plan.program.barrier_points(),
            if plan.program.barrier_points() == 1 {
                ""
            } else {
                "s"
            },
            split.split,
            p.barrier_points(),
            if p.barrier_points() == 1 { "" } else { "s" },
            report::summary(&remaining)
        ));
        (split.plan, true)
    } else {
        let qopts = QueuePlanOptions::new(opts);
        let planned = if multi.async_compute {
            vksync::plan::plan_async_compute(program, qopts)
        } else {
            vksync::plan::plan_queues(program, qopts)
        }
        .map_err(queue_error)?;
        let p = &planned.plan.program;
        // The fast checker refuses a few multi-queue corners; the plan
        // avoids them, but say so rather than fail if one appears.
        let verdict = match vksync::check(p) {
            // A plan that races is a defect of the planner, never a plan
            // to print with exit status 0 (review 10: `--async-compute`
            // on render pass instances chose a barrier that does not chain
            // with the pass's external dependency).
            // (The baselines, `none` and `per-object`, promise no
            // race-free plan: their hazards are the point.)
            Ok(h)
                if !h.is_empty()
                    && !matches!(
                        opts.planner,
                        vksync::plan::PlannerKind::None | vksync::plan::PlannerKind::PerObject
                    ) =>
            {
                return Err(format!(
                    "{}: error: the plan{} is not race-free (vksync check: {}; the first at command {} of the plan, {}): a defect of vksync's planner, not of the trace; {}",
                    source.name,
                    if multi.async_compute { " with --async-compute" } else { " across queues" },
                    report::summary(&h),
                    h[0].command,
                    h[0].kind.message_id(),
                    if multi.async_compute {
                        "plan it without --async-compute"
                    } else {
                        "please report it with this trace"
                    }
                ));
            }
            Ok(h) => report::summary(&h),
            Err(e) => format!("not decided ({e})"),
        };
        let queues = p.queues().len().max(1);
        notes.header(&format!(
            "{} planned by vksync plan{} across {queues} queue{} (--planner {} inside each queue, {form})",
            in_comment(&source.name),
            if multi.async_compute {
                " --async-compute"
            } else {
                ""
            },
            if queues == 1 { "" } else { "s" },
            opts.planner.name()
        ));
        notes.header(&format!(
            "{} semaphore{} (binary, ALL_COMMANDS), {} wait{}, {} signal{}, {} barrier point{}, {} ownership transfer{}, {} host wait{} inserted; vksync check: {verdict}",
            planned.semaphores,
            if planned.semaphores == 1 { "" } else { "s" },
            planned.waits,
            if planned.waits == 1 { "" } else { "s" },
            planned.signals,
            if planned.signals == 1 { "" } else { "s" },
            planned.barrier_points,
            if planned.barrier_points == 1 { "" } else { "s" },
            planned.ownership_transfers,
            if planned.ownership_transfers == 1 { "" } else { "s" },
            planned.host_waits,
            if planned.host_waits == 1 { "" } else { "s" },
        ));
        // The fence waits the planner inserted before host accesses.
        for (i, c) in p.commands().iter().enumerate() {
            if planned.plan.origin[i].is_none() && matches!(c, vksync::Command::Wait(_)) {
                notes.before(
                    i,
                    "inserted: the host access below waits for the device work it conflicts with",
                );
            }
        }
        // With --async-compute the plan's indices are the assigned
        // program's, not the input file's.
        (planned.plan, !multi.async_compute)
    };
    for (i, hs) in &plan.answers {
        for h in hs {
            let text = if lines_known {
                format!(
                    "answers: {} on {}: line {} after line {}",
                    h.kind.message_id(),
                    plan.program.show_region(h.region),
                    at_line(h.command),
                    at_line(h.prior_command)
                )
            } else {
                format!(
                    "answers: {} on {}",
                    h.kind.message_id(),
                    plan.program.show_region(h.region)
                )
            };
            notes.before(*i, &text);
        }
    }
    Ok(print_annotated(&plan.program, &notes))
}

/// A subpass's end: written as part of the `next-subpass` or
/// `end-render-pass` line after it, not as a line of its own.
fn is_subpass_end(c: &Command) -> bool {
    matches!(c, Command::Render(rc) if matches!(rc.op, vksync::RenderOp::EndSubpass { .. }))
}

/// `text` (a file name) as it may stand in a `#` comment of a printed
/// trace: control characters escaped, so that a name holding a line
/// break cannot end the comment and put its rest on a line of its own
/// (review37: `vksync plan` of a file named `nl\nbuffer x 7.trace`
/// printed a plan that did not parse back).
fn in_comment(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}
