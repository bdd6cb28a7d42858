//! Drawing a plan as an SVG timeline (`vksync plan --svg OUT`).
//!
//! Time runs left to right, one column per command of the planned program.
//! Each memory object (a buffer or a pool; aliases and blobs share their
//! owner's lane) is a horizontal lane whose rows are the distinct byte
//! ranges the program touches in it, so a 64-byte blob in a 32 KiB pool is
//! as visible as a whole buffer: an equal-height row per range is more
//! legible than a linear byte axis. A command draws its reads (blue, left
//! half of its column) and writes (orange, right half) as blocks in those
//! rows; a dependency of the barrier-free program is an arrow from the
//! producer's block to the consumer's; a barrier is a vertical bar across
//! every lane, numbered and spelled out in the legend below. Dependencies
//! the plan leaves unsynchronized (baseline planners) are drawn dashed red.
//!
//! The SVG is written by hand: it is a few rectangles, paths and texts, and
//! a drawing crate would not make it shorter.
//!
//! Size: a timeline is for reading, and its size grows with the commands
//! (columns), the distinct byte ranges (rows) and the dependencies
//! (arrows); a trace with a million hazards once made a 2.1 GB file in
//! 406 s. Beyond [`MAX_COLUMNS`], [`MAX_ROWS`] or [`MAX_ARROWS`] the
//! drawing is refused with [`SvgError::TooLarge`] before anything is
//! written: a few megabytes at most, and an excerpt of the trace draws.

use crate::input::Source;
use crate::planout::PlanStats;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use vksync::accesses;
use vksync::plan::{Plan, PlanOptions};
use vksync::{Command, HazardKind, MemId, ProgramError, Semantics};

const LEFT: f64 = 190.0; // room for lane names and byte offsets
const TOP: f64 = 150.0; // title and command boxes
const ROW: f64 = 24.0; // one byte range
const LANE_GAP: f64 = 26.0;
const WIDE: f64 = 84.0; // a device or host command
const NARROW: f64 = 30.0; // alloc, free, submit, wait
const BAR: f64 = 40.0; // a barrier

/// The most commands (columns) a timeline draws (about 180,000 pixels wide).
pub const MAX_COLUMNS: usize = 2_000;
/// The most byte-range rows, over all lanes (about 48,000 pixels tall).
pub const MAX_ROWS: usize = 2_000;
/// The most dependency arrows (and so legend lines of hazards answered).
pub const MAX_ARROWS: usize = 5_000;

/// Why no picture was drawn.
#[derive(Debug, thiserror::Error)]
pub enum SvgError {
    #[error(transparent)]
    Program(#[from] ProgramError),
    #[error("the timeline would have {count} {what}, over the limit of {limit} that `--svg` draws (docs/cli.md); draw an excerpt of the trace")]
    TooLarge {
        what: &'static str,
        count: usize,
        limit: usize,
    },
}

/// `Err(TooLarge)` when `count` is over `limit`.
fn within(what: &'static str, count: usize, limit: usize) -> Result<(), SvgError> {
    if count > limit {
        return Err(SvgError::TooLarge { what, count, limit });
    }
    Ok(())
}

const READ: &str = "#3b82f6";
const WRITE: &str = "#f97316";

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn kind_colour(k: HazardKind) -> &'static str {
    match k {
        HazardKind::ReadAfterWrite => "#be123c",
        HazardKind::WriteAfterRead => "#0f766e",
        HazardKind::WriteAfterWrite => "#7c3aed",
    }
}

fn kind_short(k: HazardKind) -> &'static str {
    match k {
        HazardKind::ReadAfterWrite => "RAW",
        HazardKind::WriteAfterRead => "WAR",
        HazardKind::WriteAfterWrite => "WAW",
    }
}

/// One access of one command: a block in a lane.
struct Block {
    mem: MemId,
    start: u64,
    end: u64,
    write: bool,
    /// The object the command named (a blob, alias or buffer).
    name: String,
}

/// One memory object's lane: its rows are the intervals between every
/// offset at which some access starts or ends.
struct Lane {
    name: String,
    cuts: Vec<u64>,
    top: f64,
}

impl Lane {
    fn rows(&self) -> usize {
        self.cuts.len().saturating_sub(1).max(1)
    }
    fn height(&self) -> f64 {
        self.rows() as f64 * ROW
    }
    /// Vertical extent of a byte range: from the row where it starts to the
    /// row where it ends.
    fn span(&self, start: u64, end: u64) -> (f64, f64) {
        let row_of = |x: u64| self.cuts.partition_point(|&c| c <= x).saturating_sub(1);
        let first = row_of(start);
        let last = row_of(end.saturating_sub(1).max(start));
        (
            self.top + first as f64 * ROW + 2.0,
            self.top + (last + 1) as f64 * ROW - 2.0,
        )
    }
}

/// The picture of a plan.
pub fn render(
    source: &Source,
    plan: &Plan,
    opts: PlanOptions,
    stats: &PlanStats,
) -> Result<String, SvgError> {
    let program = &plan.program;
    within(
        "columns (commands of the planned program)",
        program.commands().len(),
        MAX_COLUMNS,
    )?;
    let layout = vksync::resolve(program)?;
    let sem = Semantics::default();
    let input_lines = source.barrier_free_lines();

    // Per command: its accesses as blocks to draw.
    let mut acc: Vec<Vec<Block>> = Vec::new();
    let mut cuts: HashMap<MemId, BTreeSet<u64>> = HashMap::new();
    for (m, &size) in layout.memory_sizes.iter().enumerate() {
        cuts.entry(MemId(m as u32)).or_default().extend([0, size]);
    }
    for c in program.commands() {
        let mut v = Vec::new();
        let located = accesses(c, &layout, sem);
        for a in &located {
            let name = name_of(program, a.region.object);
            cuts.entry(a.mem)
                .or_default()
                .extend([a.range.start, a.range.end]);
            v.push(Block {
                mem: a.mem,
                start: a.range.start,
                end: a.range.end,
                write: a.sa.is_write(),
                name,
            });
        }
        // Blob extents, so alloc/free columns can outline them.
        if let Command::Alloc { blob } | Command::Free { blob } = c {
            if let Some((mem, base)) = layout.place(*blob) {
                let size = size_of(program, *blob);
                cuts.entry(mem).or_default().extend([base, base + size]);
            }
        }
        acc.push(v);
    }

    // Lanes, in memory order, skipping memory no command touches.
    let used: HashSet<MemId> = acc.iter().flatten().map(|a| a.mem).collect();
    let mut lanes: HashMap<MemId, Lane> = HashMap::new();
    let mut order: Vec<MemId> = Vec::new();
    let mut y = TOP;
    for m in 0..layout.memory_sizes.len() {
        let mem = MemId(m as u32);
        if !used.contains(&mem) {
            continue;
        }
        let lane = Lane {
            name: name_of(program, layout.owner_object(mem).expect("memory of this layout")),
            cuts: cuts.remove(&mem).unwrap_or_default().into_iter().collect(),
            top: y,
        };
        y += lane.height() + LANE_GAP;
        order.push(mem);
        lanes.insert(mem, lane);
    }
    within(
        "rows (distinct byte ranges)",
        lanes.values().map(Lane::rows).sum(),
        MAX_ROWS,
    )?;
    let lanes_bottom = y - LANE_GAP;
    // Barrier labels run down their bars; with few lanes a long label would
    // run into the legend, so the legend starts below the longest one.
    let longest_label = program
        .commands()
        .iter()
        .filter_map(|c| match c {
            Command::Barrier(dep) => Some(bar_label(dep).chars().count()),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let legend_top = lanes_bottom.max(TOP + 6.0 + longest_label as f64 * 6.3);

    // Columns.
    let width_of = |c: &Command| match c {
        Command::Barrier(_) => BAR,
        Command::Alloc { .. } | Command::Free { .. } | Command::Submit(_) | Command::Wait(_) => NARROW,
        _ => WIDE,
    };
    let mut xs = Vec::with_capacity(program.commands().len());
    let mut x = LEFT + 10.0;
    for c in program.commands() {
        xs.push(x);
        x += width_of(c) + 6.0;
    }
    let right = x + 20.0;

    // Dependencies of the barrier-free input, placed on planned commands.
    let mut planned_of = vec![None; input_lines.len()];
    for (i, o) in plan.origin.iter().enumerate() {
        if let Some(o) = o {
            if let Some(slot) = planned_of.get_mut(*o) {
                *slot = Some(i);
            }
        }
    }
    let deps = vksync::check(&source.trace.program.without_barriers())?;
    within(
        "arrows (dependencies of the barrier-free trace)",
        deps.len(),
        MAX_ARROWS,
    )?;
    let unsynced: HashSet<(usize, usize)> = stats
        .remaining
        .iter()
        .map(|h| (h.prior_command, h.command))
        .collect();

    let mut barrier_no = HashMap::new();
    for (i, c) in program.commands().iter().enumerate() {
        if matches!(c, Command::Barrier(_)) {
            let n = barrier_no.len() + 1;
            barrier_no.insert(i, n);
        }
    }
    let legend_rows = barrier_no.len() + plan.answers.iter().map(|(_, h)| h.len()).sum::<usize>();
    let height = legend_top + 90.0 + legend_rows as f64 * 17.0 + 40.0;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{right:.0}" height="{height:.0}" viewBox="0 0 {right:.0} {height:.0}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">"#
    );
    s.push_str("<defs>\n");
    for k in [
        HazardKind::ReadAfterWrite,
        HazardKind::WriteAfterRead,
        HazardKind::WriteAfterWrite,
    ] {
        let _ = writeln!(
            s,
            r#"<marker id="arrow-{}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{}"/></marker>"#,
            kind_short(k),
            kind_colour(k)
        );
    }
    s.push_str("</defs>\n");
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);

    // Title.
    let _ = writeln!(
        s,
        r##"<text x="16" y="26" font-size="17" font-weight="bold" fill="#111827">{} — {} planner</text>"##,
        esc(&source.name),
        opts.planner.name()
    );
    let _ = writeln!(
        s,
        r##"<text x="16" y="46" fill="#374151">{} barrier point{} (stabbing bound {}), {} stage/access bits; after planning: {}</text>"##,
        stats.points,
        if stats.points == 1 { "" } else { "s" },
        stats.bound,
        stats.bits,
        esc(&crate::report::summary(&stats.remaining))
    );

    // Lanes: background band, name, byte offsets.
    for mem in &order {
        let lane = &lanes[mem];
        let _ = writeln!(
            s,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#f3f4f6" rx="4"/>"##,
            LEFT - 4.0,
            lane.top,
            right - LEFT - 10.0,
            lane.height()
        );
        for r in 1..lane.rows() {
            let yy = lane.top + r as f64 * ROW;
            let _ = writeln!(
                s,
                r##"<line x1="{}" y1="{yy}" x2="{}" y2="{yy}" stroke="#e5e7eb"/>"##,
                LEFT - 4.0,
                right - 14.0
            );
        }
        let _ = writeln!(
            s,
            r##"<text x="14" y="{}" font-weight="bold" fill="#111827">{}</text>"##,
            lane.top + 15.0,
            esc(&lane.name)
        );
        for (r, w) in lane.cuts.windows(2).enumerate() {
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{}" font-size="10" fill="#6b7280" text-anchor="end">{}..{}</text>"##,
                LEFT - 10.0,
                lane.top + r as f64 * ROW + 15.0,
                w[0],
                w[1]
            );
        }
    }

    // Columns: header box, accesses, barrier bars.
    for (i, c) in program.commands().iter().enumerate() {
        let x0 = xs[i];
        let w = width_of(c);
        let line = plan.origin[i]
            .and_then(|o| input_lines.get(o))
            .map_or_else(|| "planned".to_string(), |l| format!("line {l}"));
        match c {
            Command::Barrier(dep) => {
                let n = barrier_no.get(&i).copied().unwrap_or(0);
                let cx = x0 + w / 2.0;
                let _ = writeln!(
                    s,
                    r##"<rect x="{}" y="{}" width="10" height="{}" fill="#059669" rx="3"/>"##,
                    cx - 5.0,
                    TOP - 10.0,
                    lanes_bottom - TOP + 20.0
                );
                let _ = writeln!(
                    s,
                    r##"<circle cx="{cx}" cy="{}" r="13" fill="#059669"/><text x="{cx}" y="{}" fill="#ffffff" font-weight="bold" text-anchor="middle">B{n}</text>"##,
                    TOP - 30.0,
                    TOP - 26.0
                );
                // The stages along the bar, the accesses in the legend.
                let ty = TOP + 6.0;
                let _ = writeln!(
                    s,
                    r##"<text x="{}" y="{ty}" font-size="10" fill="#065f46" transform="rotate(90 {} {ty})">{}</text>"##,
                    cx + 9.0,
                    cx + 9.0,
                    esc(&bar_label(dep))
                );
            }
            Command::Alloc { blob } | Command::Free { blob } => {
                let is_alloc = matches!(c, Command::Alloc { .. });
                if let Some((mem, base)) = layout.place(*blob) {
                    if let Some(lane) = lanes.get(&mem) {
                        let (y0, y1) = lane.span(base, base + size_of(program, *blob));
                        let _ = writeln!(
                            s,
                            r##"<rect x="{}" y="{y0}" width="{}" height="{}" fill="none" stroke="#6b7280" stroke-dasharray="{}" rx="2"/>"##,
                            x0 + 3.0,
                            w - 6.0,
                            y1 - y0,
                            if is_alloc { "none" } else { "3 3" }
                        );
                    }
                }
                let label = format!(
                    "{} {}",
                    if is_alloc { "alloc" } else { "free" },
                    name_of(program, *blob)
                );
                let (tx, ty) = (x0 + w / 2.0 + 4.0, TOP - 8.0);
                let _ = writeln!(
                    s,
                    r##"<text x="{tx}" y="{ty}" font-size="10" fill="#4b5563" transform="rotate(-90 {tx} {ty})">{}</text>"##,
                    esc(&label)
                );
            }
            Command::Submit(_) | Command::Wait(_) => {
                let cx = x0 + w / 2.0;
                let _ = writeln!(
                    s,
                    r##"<line x1="{cx}" y1="{}" x2="{cx}" y2="{}" stroke="#9333ea" stroke-width="2" stroke-dasharray="6 4"/>"##,
                    TOP - 10.0,
                    lanes_bottom + 10.0
                );
                let (tx, ty) = (cx + 4.0, TOP - 14.0);
                let _ = writeln!(
                    s,
                    r##"<text x="{tx}" y="{ty}" font-size="11" fill="#7e22ce" transform="rotate(-90 {tx} {ty})">{}</text>"##,
                    if matches!(c, Command::Submit(_)) {
                        "submit"
                    } else {
                        "wait (fence)"
                    }
                );
            }
            _ => {
                let host = matches!(c, Command::HostRead { .. } | Command::HostWrite { .. });
                let (fill, stroke) = if host {
                    ("#f3e8ff", "#9333ea")
                } else {
                    ("#eef2ff", "#4f46e5")
                };
                let detail = match c {
                    Command::Dispatch { kernel, .. } => kernel.clone(),
                    _ => c.vulkan_name().trim_start_matches("vkCmd").to_string(),
                };
                let by = TOP - 66.0;
                let _ = writeln!(
                    s,
                    r##"<rect x="{x0}" y="{by}" width="{w}" height="50" fill="{fill}" stroke="{stroke}" rx="6"/>"##
                );
                let cx = x0 + w / 2.0;
                let _ = writeln!(
                    s,
                    r##"<text x="{cx}" y="{}" text-anchor="middle" font-weight="bold" fill="#1f2937">{}</text><text x="{cx}" y="{}" text-anchor="middle" font-size="10" fill="#4b5563">{}</text><text x="{cx}" y="{}" text-anchor="middle" font-size="10" fill="#6b7280">{}</text>"##,
                    by + 16.0,
                    c.keyword(),
                    by + 30.0,
                    esc(&detail),
                    by + 43.0,
                    line
                );
                let _ = writeln!(
                    s,
                    r##"<line x1="{cx}" y1="{}" x2="{cx}" y2="{}" stroke="#d1d5db" stroke-dasharray="2 3"/>"##,
                    TOP - 16.0,
                    lanes_bottom
                );
                for Block {
                    mem,
                    start: a,
                    end: b,
                    write,
                    name,
                } in &acc[i]
                {
                    let Some(lane) = lanes.get(mem) else { continue };
                    let (y0, y1) = lane.span(*a, *b);
                    let (bx, colour) = if *write {
                        (x0 + w / 2.0 + 1.0, WRITE)
                    } else {
                        (x0 + 3.0, READ)
                    };
                    let bw = w / 2.0 - 4.0;
                    let _ = writeln!(
                        s,
                        r##"<rect x="{bx}" y="{y0}" width="{bw}" height="{}" fill="{colour}" rx="3"><title>{} {name}[{a}..{b}]</title></rect>"##,
                        y1 - y0,
                        if *write { "writes" } else { "reads" }
                    );
                    let _ = writeln!(
                        s,
                        r##"<text x="{}" y="{}" font-size="9" fill="#ffffff" text-anchor="middle">{}</text>"##,
                        bx + bw / 2.0,
                        y0 + 13.0,
                        esc(&truncate(name, 7))
                    );
                }
            }
        }
    }

    // Dependency arrows, drawn last so they sit above the blocks.
    let mut drawn = HashSet::new();
    let mut bad_per_lane: HashMap<MemId, u32> = HashMap::new();
    for h in &deps {
        let (Some(Some(p)), Some(Some(q))) = (planned_of.get(h.prior_command), planned_of.get(h.command))
        else {
            continue;
        };
        let (p, q) = (*p, *q);
        let Some(lane) = lanes.get(&h.memory.mem) else {
            continue;
        };
        if !drawn.insert((p, q, h.kind, h.memory.mem)) {
            continue;
        }
        let (y0, y1) = lane.span(h.memory.range.start, h.memory.range.end);
        let yy = (y0 + y1) / 2.0;
        let wp = width_of(&program.commands()[p]);
        // Leave from the producer's access half, arrive at the consumer's.
        let x1 = xs[p]
            + if h.prior.is_write() {
                wp - 3.0
            } else {
                wp / 2.0 - 1.0
            };
        let x2 = xs[q]
            + if h.current.is_write() {
                wq_half(&program.commands()[q])
            } else {
                3.0
            };
        let bad = unsynced.contains(&(p, q));
        // Unsynchronized arrows on one lane climb in steps so their labels
        // do not overprint each other.
        let mut lift = 16.0 + ((x2 - x1) / 10.0).min(30.0);
        if bad {
            let k = bad_per_lane.entry(h.memory.mem).or_insert(0);
            lift += 16.0 * f64::from(*k);
            *k += 1;
        }
        let colour = if bad { "#dc2626" } else { kind_colour(h.kind) };
        let _ = writeln!(
            s,
            r##"<path d="M{x1},{yy} C{},{} {},{} {x2},{yy}" fill="none" stroke="{colour}" stroke-width="{}" {} marker-end="url(#arrow-{})" opacity="0.9"><title>{} line {} → line {}</title></path>"##,
            x1 + 20.0,
            yy - lift,
            x2 - 20.0,
            yy - lift,
            if bad { 2.5 } else { 1.6 },
            if bad { r#"stroke-dasharray="5 3""# } else { "" },
            kind_short(h.kind),
            kind_short(h.kind),
            input_lines.get(h.prior_command).copied().unwrap_or(0),
            input_lines.get(h.command).copied().unwrap_or(0),
        );
        if bad {
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{}" font-size="10" font-weight="bold" fill="#dc2626" text-anchor="middle">unsynchronized {}</text>"##,
                (x1 + x2) / 2.0,
                yy - lift * 0.75 - 3.0,
                kind_short(h.kind)
            );
        }
    }

    // Legend: colours, then each barrier in full with what it answers.
    let mut ly = legend_top + 34.0;
    let mut lx = 16.0;
    for (colour, text) in [
        (READ, "read"),
        (WRITE, "write"),
        (kind_colour(HazardKind::ReadAfterWrite), "read-after-write"),
        (kind_colour(HazardKind::WriteAfterRead), "write-after-read"),
        (kind_colour(HazardKind::WriteAfterWrite), "write-after-write"),
        ("#dc2626", "unsynchronized (dashed)"),
        ("#059669", "barrier"),
    ] {
        let _ = writeln!(
            s,
            r##"<rect x="{lx}" y="{}" width="14" height="14" fill="{colour}" rx="3"/><text x="{}" y="{}" fill="#374151">{text}</text>"##,
            ly - 11.0,
            lx + 19.0,
            ly
        );
        lx += 40.0 + text.len() as f64 * 7.0;
    }
    ly += 26.0;
    for (i, c) in program.commands().iter().enumerate() {
        let Command::Barrier(dep) = c else { continue };
        let n = barrier_no.get(&i).copied().unwrap_or(0);
        let parts: Vec<String> = dep.barriers.iter().map(|b| b.describe(program)).collect();
        let _ = writeln!(
            s,
            r##"<text x="16" y="{ly}" font-family="DejaVu Sans Mono, monospace" font-size="11" fill="#065f46"><tspan font-weight="bold">B{n}</tspan>  barrier {}</text>"##,
            esc(&parts.join("; "))
        );
        ly += 17.0;
        if let Some((_, hs)) = plan.answers.iter().find(|(at, _)| *at == i) {
            for h in hs {
                let _ = writeln!(
                    s,
                    r##"<text x="48" y="{ly}" font-size="11" fill="{}">answers {} on {}: line {} after line {}</text>"##,
                    kind_colour(h.kind),
                    h.kind.message_id(),
                    esc(&program.show_region(h.region)),
                    input_lines.get(h.command).copied().unwrap_or(0),
                    input_lines.get(h.prior_command).copied().unwrap_or(0),
                );
                ly += 17.0;
            }
        }
    }
    s.push_str("</svg>\n");
    Ok(s)
}

/// The stages of a barrier command, written along its bar (the accesses
/// are in the legend).
fn bar_label(dep: &vksync::Dependency) -> String {
    let stages: Vec<String> = dep
        .barriers
        .iter()
        .map(|b| format!("{} → {}", b.src_stage_mask, b.dst_stage_mask))
        .collect();
    stages.join("; ")
}

/// Where a write block starts inside a command's column.
fn wq_half(c: &Command) -> f64 {
    let w = match c {
        Command::Barrier(_) => BAR,
        Command::Alloc { .. } | Command::Free { .. } | Command::Submit(_) | Command::Wait(_) => NARROW,
        _ => WIDE,
    };
    w / 2.0 + 1.0
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}

/// The name of an object of the (validated) program being drawn.
fn name_of(program: &vksync::Program, id: vksync::ObjectId) -> String {
    program
        .object(id)
        .map_or_else(|| "?".to_string(), |o| o.name.clone())
}

/// The size of an object of the (validated) program being drawn.
fn size_of(program: &vksync::Program, id: vksync::ObjectId) -> u64 {
    program.object(id).map_or(0, |o| o.size)
}
