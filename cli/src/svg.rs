//! Drawing a plan as an SVG timeline (`vksync plan --svg OUT`), and any
//! trace with one lane per queue (`vksync check --svg OUT`,
//! [`render_trace`], described where it starts below).
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
    #[error(transparent)]
    Unplaced(#[from] vksync::UnplacedRegion),
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
        let located = accesses(c, &layout, sem)?;
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
    // The dependencies of the program the planners start from: the
    // trace's layout transitions kept (with empty scopes), so that the
    // hazards of a transition's write are arrows too and the indices are
    // those of the plan's `origin` (without the transitions, an image
    // used after one was in the wrong layout and nothing was drawn).
    let deps = vksync::check(&vksync::plan::planning_input(&source.trace.program))?;
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

// ---------------------------------------------------------------------
// `vksync check --svg OUT`: any trace, one lane per queue.
//
// The plan picture above has one lane per memory object, which is the
// right axis for a single queue (every command runs in one stream, and
// what matters is which bytes a barrier orders). With several queues the
// question is which queue runs what, and what orders one queue after
// another: so this picture has one lane per queue plus one for the host.
// Columns follow host order, except that a command recorded into a batch
// is drawn where its batch is submitted (it cannot run earlier), so each
// batch is a contiguous band in its queue's lane ending at its `submit`.
// A command lists its accesses as rows in its box; hazards of `vksync
// check` outline the two accesses involved and join them with a dashed red
// arrow; semaphores, events and ownership transfers are arrows between the
// operations that pair up.
// ---------------------------------------------------------------------

/// The most access rows (over all commands) that `check --svg` draws.
pub const MAX_ACCESSES: usize = 10_000;

const Q_LEFT: f64 = 150.0; // room for lane names
const Q_TOP: f64 = 64.0; // title
const BOX_W: f64 = 170.0; // a command with accesses
const SLIM_W: f64 = 34.0; // a command drawn as a marker and a label
const SUBMIT_W: f64 = 40.0;
const BAR_W: f64 = 52.0; // a barrier
const COL_GAP: f64 = 8.0;
const STRIP: f64 = 28.0; // top of a lane: batch label, semaphore waits
const HEAD: f64 = 32.0; // a box's two header lines
const ACC_H: f64 = 16.0; // one access row
const LANE_PAD: f64 = 22.0; // below a lane's content (line numbers)
const LANE_SEP: f64 = 18.0;
const LANE_MIN: f64 = 110.0;
const MARK: f64 = 14.0; // step between stacked semaphore markers
/// Width of one character of the 10-px labels, for the room a rotated
/// label needs in its lane and a legend line in the picture.
const CHAR: f64 = 6.3;
/// Width of one character of the legend's 11-px monospace lines (DejaVu
/// Sans Mono's advance is 0.602 em).
const MONO: f64 = 6.7;

const SEM: &str = "#9333ea";
const EVENT: &str = "#0d9488";
const OWN: &str = "#d97706";
const HAZ: &str = "#dc2626";
const BAR_GREEN: &str = "#059669";
const BAND: &str = "#e0e7ff";
const RP: &str = "#b45309"; // rendering instances and subpass dependencies

/// Which lane a column is drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Track {
    Host,
    Queue(vksync::QueueId),
}

/// How a command is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// A box listing its accesses.
    Box,
    /// A barrier: a bar across its lane.
    Bar,
    /// A submit: the end of its batch, with the batch's semaphore signals.
    Submit,
    /// A marker and a rotated label.
    Slim,
}

/// How far below its lane's top a marker column's marker is: in a queue's
/// lane below the strip that holds the batch's label and semaphore waits.
fn marker_y(t: Track) -> f64 {
    match t {
        Track::Host => 12.0,
        Track::Queue(_) => STRIP + 2.0,
    }
}

/// Whether a command is recorded into a command buffer (and so runs in
/// the batch of the next `submit`), and how it is drawn. Exhaustive on
/// purpose: a new kind of command must be placed here before it draws.
fn placement(c: &Command) -> (bool, Shape) {
    match c {
        Command::Copy { .. }
        | Command::CopyImage { .. }
        | Command::Image(_)
        | Command::Render(_)
        | Command::Fill { .. }
        | Command::Update { .. }
        | Command::Dispatch { .. } => (true, Shape::Box),
        Command::Barrier(_) => (true, Shape::Bar),
        Command::SetEvent { .. }
        | Command::WaitEvents { .. }
        | Command::SetEvent1 { .. }
        | Command::WaitEvents1 { .. }
        | Command::ResetEvent { .. } => (true, Shape::Slim),
        Command::HostWrite { .. } | Command::HostRead { .. } => (false, Shape::Box),
        Command::Submit(_) => (false, Shape::Submit),
        Command::Alloc { .. }
        | Command::Free { .. }
        | Command::Wait(_)
        | Command::HostSignal { .. }
        | Command::HostWait { .. }
        | Command::HostSetEvent { .. }
        | Command::HostResetEvent { .. } => (false, Shape::Slim),
    }
}

fn shape_width(s: Shape) -> f64 {
    match s {
        Shape::Box => BOX_W,
        Shape::Bar => BAR_W,
        Shape::Submit => SUBMIT_W,
        Shape::Slim => SLIM_W,
    }
}

/// One column of the picture.
struct Col {
    cmd: usize,
    track: Track,
    shape: Shape,
    x: f64,
}

impl Col {
    fn cx(&self) -> f64 {
        self.x + shape_width(self.shape) / 2.0
    }
}

/// The commands of one `vkQueueSubmit` (or those recorded after the last
/// submit, which the model submits at the end to the first queue).
struct Batch {
    queue: vksync::QueueId,
    /// Its first and last columns (the last is its submit, if any).
    first: usize,
    last: usize,
    submit: Option<usize>,
}

/// A rendering instance of the trace: a render pass's (`pass`) from its
/// `begin-render-pass` to its `end-render-pass`, its next-subpasses
/// between, or a dynamic rendering instance's (`begin-rendering` to
/// `end-rendering`). An instance the trace leaves open ends at its last
/// command.
struct RenderSpan {
    begin: usize,
    end: usize,
    next: Vec<usize>,
    pass: Option<vksync::RenderPassId>,
}

/// The rendering instances of `cmds`, in order.
fn render_spans(cmds: &[Command]) -> Vec<RenderSpan> {
    use vksync::RenderOp;
    let mut spans = Vec::new();
    let mut open: Option<RenderSpan> = None;
    for (i, c) in cmds.iter().enumerate() {
        let Command::Render(rc) = c else { continue };
        match &rc.op {
            RenderOp::BeginPass(_) | RenderOp::Begin(_) => {
                spans.extend(open.take());
                let pass = match &rc.op {
                    RenderOp::BeginPass(pb) => Some(pb.pass),
                    _ => None,
                };
                open = Some(RenderSpan {
                    begin: i,
                    end: i,
                    next: Vec::new(),
                    pass,
                });
            }
            RenderOp::NextSubpass => {
                if let Some(o) = open.as_mut() {
                    o.next.push(i);
                    o.end = i;
                }
            }
            RenderOp::EndPass | RenderOp::End => {
                if let Some(mut o) = open.take() {
                    o.end = i;
                    spans.push(o);
                }
            }
            _ => {
                if let Some(o) = open.as_mut() {
                    o.end = i;
                }
            }
        }
    }
    spans.extend(open);
    spans
}

/// A subpass dependency as the trace writes it, without its keyword.
fn dependency_text(d: &vksync::SubpassDependency) -> String {
    format!(
        "{}->{} {}:{} -> {}:{}{}",
        d.src,
        d.dst,
        d.src_stage_mask,
        d.src_access_mask,
        d.dst_stage_mask,
        d.dst_access_mask,
        if d.by_region { " by-region" } else { "" }
    )
}

/// A hazard of `vksync check`, from either checker.
type Race = vksync::spec::Race;

/// The hazards `vksync check` reports for `program` (`vksync::check_program`),
/// and whether the definitional semantics decided them (`true`).
fn hazards_of(
    program: &vksync::Program,
    reading: vksync::Reading,
) -> Result<(Vec<Race>, bool), ProgramError> {
    let checked = vksync::check_program(program, Semantics::for_reading(reading))?;
    Ok((
        checked.hazards.iter().map(vksync::spec::Race::from).collect(),
        matches!(checked.decided_by, vksync::DecidedBy::Definition { .. }),
    ))
}

/// Which of a command's accesses a hazard is about: the one with its stage
/// and access on overlapping bytes, else one of the same direction.
fn access_of(
    acc: &[vksync::Access],
    sa: vksync::StageAccess,
    mem: MemId,
    range: vksync::ByteRange,
) -> Option<usize> {
    let on = |a: &vksync::Access| a.mem == mem && a.range.overlaps(range);
    acc.iter()
        .position(|a| on(a) && a.sa == sa)
        .or_else(|| acc.iter().position(|a| on(a) && a.sa.is_write() == sa.is_write()))
}

/// A cubic arrow from `a` to `b` bowing up by `lift`, and the point of its
/// middle (for the label).
fn curve(a: (f64, f64), b: (f64, f64), lift: f64) -> (String, (f64, f64)) {
    let k = ((b.0 - a.0).abs() / 3.0).max(24.0);
    let d = format!(
        "M{:.1},{:.1} C{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
        a.0,
        a.1,
        a.0 + k,
        a.1 - lift,
        b.0 - k,
        b.1 - lift,
        b.0,
        b.1
    );
    (d, ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0 - 0.75 * lift))
}

/// Where an arrow's label may go, best first: points of its curve
/// ([`curve`]; the middle, then further out each side), each the middle of
/// the label's baseline plus 3 px, as [`curve`] gives the middle.
fn label_spots(a: (f64, f64), b: (f64, f64), lift: f64) -> Vec<(f64, f64)> {
    let k = ((b.0 - a.0).abs() / 3.0).max(24.0);
    let p = [a, (a.0 + k, a.1 - lift), (b.0 - k, b.1 - lift), b];
    [0.5, 0.38, 0.62, 0.26, 0.74]
        .iter()
        .map(|&t: &f64| {
            let u = 1.0 - t;
            let w = [u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t];
            (
                (0..4).map(|i| w[i] * p[i].0).sum(),
                (0..4).map(|i| w[i] * p[i].1).sum(),
            )
        })
        .collect()
}

/// Rectangles (x0, y0, x1, y1) of what is drawn, so that an arrow's label
/// placed later can keep off them.
#[derive(Default)]
struct Labels(Vec<[f64; 4]>);

impl Labels {
    fn rect(&mut self, x0: f64, y0: f64, x1: f64, y1: f64) {
        self.0.push([x0, y0, x1, y1]);
    }

    /// A 10-px text with its baseline starting at (x, y); `rotated`:
    /// turned 90 degrees about that point, running down.
    fn text(&mut self, x: f64, y: f64, text: &str, rotated: bool) {
        let w = text.chars().count() as f64 * CHAR;
        if rotated {
            self.rect(x, y, x + 11.0, y + w);
        } else {
            self.rect(x, y - 10.0, x + w, y + 2.0);
        }
    }

    /// The box of an arrow's label centred at (x, y) ([`label_spots`]).
    fn centred_box(x: f64, y: f64, text: &str) -> [f64; 4] {
        let w = text.chars().count() as f64 * CHAR;
        [x - w / 2.0, y - 13.0, x + w / 2.0, y - 1.0]
    }

    fn centred(&mut self, x: f64, y: f64, text: &str) {
        self.0.push(Labels::centred_box(x, y, text));
    }

    /// Whether the label centred at (x, y) would cover something drawn.
    fn covers(&self, x: f64, y: f64, text: &str) -> bool {
        let b = Labels::centred_box(x, y, text);
        self.0
            .iter()
            .any(|r| b[0] < r[2] && r[0] < b[2] && b[1] < r[3] && r[1] < b[3])
    }
}

/// The label of a marker column.
fn slim_label(program: &vksync::Program, c: &Command) -> String {
    let ev = |e: vksync::EventId| program.event_name(e).to_string();
    match c {
        Command::Alloc { blob } => format!("alloc {}", name_of(program, *blob)),
        Command::Free { blob } => format!("free {}", name_of(program, *blob)),
        Command::Wait(vksync::WaitFor::All) => "wait (all queues)".to_string(),
        Command::Wait(vksync::WaitFor::Queue(q)) => format!("wait {}", program.queue_name(*q)),
        Command::HostSignal { semaphore, value } => {
            format!("host-signal {}:{value}", program.semaphore_name(*semaphore))
        }
        Command::HostWait { semaphore, value } => {
            format!("host-wait {}:{value}", program.semaphore_name(*semaphore))
        }
        Command::SetEvent { event, .. } => format!("set-event {}", ev(*event)),
        Command::WaitEvents { waits } => format!(
            "wait-events {}",
            waits.iter().map(|w| ev(w.event)).collect::<Vec<_>>().join(", ")
        ),
        Command::SetEvent1 { event, .. } => format!("set-event1 {}", ev(*event)),
        Command::WaitEvents1 { events, .. } => format!(
            "wait-events1 {}",
            events.iter().map(|e| ev(*e)).collect::<Vec<_>>().join(" ")
        ),
        Command::ResetEvent { event, .. } => format!("reset-event {}", ev(*event)),
        Command::HostSetEvent { event } => format!("host-set-event {}", ev(*event)),
        Command::HostResetEvent { event } => format!("host-reset-event {}", ev(*event)),
        other => other.keyword().to_string(),
    }
}

/// `sem` or `sem:VALUE`.
fn sem_label(program: &vksync::Program, s: vksync::SemaphoreId, value: Option<u64>) -> String {
    match value {
        Some(v) => format!("{}:{v}", program.semaphore_name(s)),
        None => program.semaphore_name(s).to_string(),
    }
}

/// A semaphore operation's place: where it is drawn, its command, and
/// what the legend says about it.
#[derive(Clone)]
struct SemOp {
    sem: vksync::SemaphoreId,
    value: Option<u64>,
    at: (f64, f64),
    cmd: usize,
    /// `on compute, COPY` or `on the host`.
    where_: String,
    /// A host operation (drawn as its command's marker).
    host: bool,
}

/// The picture of a trace as `vksync check` sees it, under `reading`.
pub fn render_trace(source: &Source, reading: vksync::Reading) -> Result<String, SvgError> {
    let program = &source.trace.program;
    let cmds = program.commands();
    let lines = &source.trace.command_lines;
    let at = crate::report::Placement::new(program, lines).with_calls(&source.text);
    let line = |i: usize| lines.get(i).copied().unwrap_or(0);
    within("columns (commands of the trace)", cmds.len(), MAX_COLUMNS)?;
    within("lanes (queues and the host)", program.queue_count() + 1, MAX_ROWS)?;
    let layout = vksync::resolve(program)?;
    let sem = Semantics::for_reading(reading);
    let acc: Vec<Vec<vksync::Access>> = cmds
        .iter()
        .map(|c| accesses(c, &layout, sem))
        .collect::<Result<_, _>>()?;
    within(
        "access rows (accesses of all commands)",
        acc.iter().map(Vec::len).sum(),
        MAX_ACCESSES,
    )?;
    // The fast checker first (the definitional semantics is cubic), and
    // only once the picture is known to be small enough.
    let (races, by_spec) = hazards_of(program, reading)?;
    within("arrows (hazards)", races.len(), MAX_ARROWS)?;
    // Pairing waits with signals is quadratic in their number: bound it
    // before, not after.
    let sem_ops: usize = cmds
        .iter()
        .map(|c| match c {
            Command::Submit(s) => s.waits.len() + s.signals.len(),
            Command::HostSignal { .. } | Command::HostWait { .. } => 1,
            _ => 0,
        })
        .sum();
    within("semaphore operations", sem_ops, MAX_ARROWS)?;

    // Columns, batch by batch.
    let mut cols: Vec<Col> = Vec::with_capacity(cmds.len());
    let mut batches: Vec<Batch> = Vec::new();
    let mut pending: Vec<usize> = Vec::new();
    let push = |cols: &mut Vec<Col>, cmd: usize, track: Track| {
        cols.push(Col {
            cmd,
            track,
            shape: placement(&cmds[cmd]).1,
            x: 0.0,
        });
    };
    for (i, c) in cmds.iter().enumerate() {
        if placement(c).0 {
            pending.push(i);
        } else if let Command::Submit(s) = c {
            let first = cols.len();
            for p in pending.drain(..) {
                push(&mut cols, p, Track::Queue(s.queue));
            }
            push(&mut cols, i, Track::Queue(s.queue));
            batches.push(Batch {
                queue: s.queue,
                first,
                last: cols.len() - 1,
                submit: Some(i),
            });
        } else {
            push(&mut cols, i, Track::Host);
        }
    }
    if !pending.is_empty() {
        let first = cols.len();
        let queue = vksync::QueueId(0);
        for p in pending.drain(..) {
            push(&mut cols, p, Track::Queue(queue));
        }
        batches.push(Batch {
            queue,
            first,
            last: cols.len() - 1,
            submit: None,
        });
    }
    let mut x = Q_LEFT + 10.0;
    let mut col_of = vec![0usize; cmds.len()];
    for (k, col) in cols.iter_mut().enumerate() {
        col.x = x;
        col_of[col.cmd] = k;
        x += shape_width(col.shape) + COL_GAP;
    }
    let cols_right = x + 20.0;
    let spans = render_spans(cmds);

    // Lanes: the host, then each queue; each as tall as its tallest column.
    let nlanes = program.queue_count() + 1;
    let lane_index = |t: Track| match t {
        Track::Host => 0,
        Track::Queue(q) => q.0 as usize + 1,
    };
    let family = |q: vksync::QueueId| program.queues().get(q.0 as usize).map_or(0, |x| x.family);
    let label_len = |s: &str| s.chars().count() as f64 * CHAR;
    let bar_label_of = |i: usize| match &cmds[i] {
        Command::Barrier(dep) => bar_label(dep),
        _ => String::new(),
    };
    let mut need = vec![LANE_MIN; nlanes];
    let mut grow = |lane: usize, h: f64| need[lane] = need[lane].max(h + LANE_PAD);
    for col in &cols {
        let lane = lane_index(col.track);
        let c = &cmds[col.cmd];
        match col.shape {
            Shape::Box => grow(lane, STRIP + HEAD + ACC_H * acc[col.cmd].len() as f64 + 6.0),
            Shape::Bar => grow(
                lane,
                (STRIP + 52.0 + label_len(&bar_label_of(col.cmd)))
                    .max(STRIP + 34.0 + 14.0 * acc[col.cmd].len() as f64),
            ),
            Shape::Slim => grow(
                lane,
                marker_y(col.track) + 22.0 + label_len(&slim_label(program, c)),
            ),
            Shape::Submit => {
                let Command::Submit(s) = c else { continue };
                grow(
                    lane,
                    13.0 + MARK * s.signals.len() as f64 + 8.0 + label_len("submit"),
                );
                grow(
                    0,
                    34.0 + label_len(&format!("submit → {}", program.queue_name(s.queue))),
                );
            }
        }
    }
    let mut tops = Vec::with_capacity(nlanes);
    let mut y = Q_TOP;
    for h in &need {
        tops.push(y);
        y += h + LANE_SEP;
    }
    let lanes_bottom = y - LANE_SEP;
    let top_of = |t: Track| tops[lane_index(t)];
    let height_of = |t: Track| need[lane_index(t)];

    // Where each access row is: (x, y, width, height).
    let mut rows: Vec<Vec<(f64, f64, f64, f64)>> = vec![Vec::new(); cmds.len()];
    for col in &cols {
        let top = top_of(col.track);
        for k in 0..acc[col.cmd].len() {
            rows[col.cmd].push(match col.shape {
                Shape::Bar => (col.cx() - 22.0, top + STRIP + 34.0 + 14.0 * k as f64, 11.0, 11.0),
                _ => (
                    col.x + 4.0,
                    top + STRIP + HEAD + ACC_H * k as f64,
                    BOX_W - 8.0,
                    ACC_H - 2.0,
                ),
            });
        }
    }
    // Where a command is when none of its accesses is meant.
    let centre = |i: usize| {
        let col = &cols[col_of[i]];
        (col.cx(), top_of(col.track) + marker_y(col.track) + 7.0)
    };

    // Hazards on the accesses involved: every pair is drawn, labelled with
    // its group's number, the line `vksync check` prints for it.
    let (race_groups, group_of) = vksync::group_races_indexed(program, &races);
    let mut marks: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
    let mut hazard_ends = Vec::with_capacity(races.len());
    for (n, r) in races.iter().enumerate() {
        let cur = access_of(&acc[r.command], r.current, r.mem, r.range);
        let prior = access_of(&acc[r.prior_command], r.prior, r.mem, r.range);
        for (cmd, a) in [(r.command, cur), (r.prior_command, prior)] {
            if let Some(a) = a {
                let labels = marks.entry((cmd, a)).or_default();
                if !labels.contains(&(group_of[n] + 1)) {
                    labels.push(group_of[n] + 1);
                }
            }
        }
        let from = prior.map_or_else(
            || centre(r.prior_command),
            |a| {
                let (x, y, w, h) = rows[r.prior_command][a];
                (x + w, y + h / 2.0)
            },
        );
        let to = cur.map_or_else(
            || centre(r.command),
            |a| {
                let (x, y, _, h) = rows[r.command][a];
                (x, y + h / 2.0)
            },
        );
        hazard_ends.push((from, to));
    }

    // Semaphores: each wait paired with the signal it waits for.
    let mut signals: Vec<SemOp> = Vec::new();
    let mut waits: Vec<SemOp> = Vec::new();
    let mut sem_pairs: Vec<(Option<usize>, SemOp)> = Vec::new();
    let mut pending_binary: HashMap<vksync::SemaphoreId, usize> = HashMap::new();
    for (i, c) in cmds.iter().enumerate() {
        match c {
            Command::Submit(s) => {
                let col = &cols[col_of[i]];
                let top = top_of(col.track);
                let first_x = batches
                    .iter()
                    .find(|b| b.submit == Some(i))
                    .map_or(col.x, |b| cols[b.first].x);
                let qn = program.queue_name(s.queue);
                for (k, w) in s.waits.iter().enumerate() {
                    let op = SemOp {
                        sem: w.semaphore,
                        value: w.value,
                        at: (first_x + 8.0 + 16.0 * k as f64, top + 13.0),
                        cmd: i,
                        where_: format!("on {qn}, {}", w.stages),
                        host: false,
                    };
                    waits.push(op.clone());
                    if w.value.is_none() {
                        sem_pairs.push((pending_binary.remove(&w.semaphore), op));
                    }
                }
                for (k, sg) in s.signals.iter().enumerate() {
                    if sg.value.is_none() {
                        pending_binary.insert(sg.semaphore, signals.len());
                    }
                    signals.push(SemOp {
                        sem: sg.semaphore,
                        value: sg.value,
                        at: (col.cx(), top + 13.0 + MARK * k as f64),
                        cmd: i,
                        where_: format!("on {qn}, {}", sg.stages),
                        host: false,
                    });
                }
            }
            Command::HostSignal { semaphore, value } => signals.push(SemOp {
                sem: *semaphore,
                value: Some(*value),
                at: centre(i),
                cmd: i,
                where_: "on the host".to_string(),
                host: true,
            }),
            Command::HostWait { semaphore, value } => waits.push(SemOp {
                sem: *semaphore,
                value: Some(*value),
                at: centre(i),
                cmd: i,
                where_: "on the host".to_string(),
                host: true,
            }),
            _ => {}
        }
    }
    // A timeline wait for V waits for nothing when the initial value
    // reaches V, else for the first signal that does (values increase in
    // trace order).
    for w in &waits {
        let Some(v) = w.value else { continue };
        let initial = match program.semaphores().get(w.sem.0 as usize).map(|x| x.kind) {
            Some(vksync::SemaphoreType::Timeline { initial }) => initial,
            _ => 0,
        };
        let by = if initial >= v {
            None
        } else {
            signals
                .iter()
                .position(|s| s.sem == w.sem && s.value.is_some_and(|sv| sv >= v))
        };
        sem_pairs.push((by, w.clone()));
    }
    sem_pairs.sort_by_key(|(_, w)| w.cmd);

    // Events: each wait paired with the set before it (no reset since).
    let mut current_set: HashMap<vksync::EventId, usize> = HashMap::new();
    let mut event_pairs: Vec<(usize, usize, vksync::EventId)> = Vec::new();
    for (i, c) in cmds.iter().enumerate() {
        match c {
            Command::SetEvent { event, .. }
            | Command::SetEvent1 { event, .. }
            | Command::HostSetEvent { event } => {
                current_set.insert(*event, i);
            }
            Command::ResetEvent { event, .. } | Command::HostResetEvent { event } => {
                current_set.remove(event);
            }
            Command::WaitEvents { waits } => {
                for w in waits {
                    if let Some(&set) = current_set.get(&w.event) {
                        event_pairs.push((set, i, w.event));
                    }
                }
            }
            Command::WaitEvents1 { events, .. } => {
                for e in events {
                    if let Some(&set) = current_set.get(e) {
                        event_pairs.push((set, i, *e));
                    }
                }
            }
            _ => {}
        }
    }

    // Ownership transfers: a barrier releases on a queue of the source
    // family and acquires on one of the destination family; each acquire
    // is paired with the first earlier release of the same bytes.
    let mut role: HashMap<usize, &'static str> = HashMap::new();
    let mut releases: Vec<(usize, vksync::Region, vksync::OwnershipTransfer, bool)> = Vec::new();
    let mut own_pairs: Vec<(usize, usize, vksync::Region, vksync::OwnershipTransfer)> = Vec::new();
    for (i, c) in cmds.iter().enumerate() {
        let Command::Barrier(dep) = c else { continue };
        let Track::Queue(q) = cols[col_of[i]].track else {
            continue;
        };
        for b in &dep.barriers {
            let (Some(o), Some(region)) = (b.ownership, b.region) else {
                continue;
            };
            if o.src_queue_family == o.dst_queue_family {
                continue;
            }
            if family(q) == o.src_queue_family {
                role.insert(i, "release");
                releases.push((i, region, o, false));
            } else if family(q) == o.dst_queue_family {
                role.insert(i, "acquire");
                if let Some(r) = releases
                    .iter_mut()
                    .find(|(_, rr, ro, used)| !used && *rr == region && *ro == o)
                {
                    r.3 = true;
                    own_pairs.push((r.0, i, region, o));
                }
            }
        }
    }
    within(
        "arrows (hazards, semaphores, events, ownership transfers)",
        races.len() + sem_pairs.len() + event_pairs.len() + own_pairs.len(),
        MAX_ARROWS,
    )?;

    // The legend's lines, so the width can hold the longest.
    let mut barrier_no = HashMap::new();
    for (i, c) in cmds.iter().enumerate() {
        if matches!(c, Command::Barrier(_)) {
            let n = barrier_no.len() + 1;
            barrier_no.insert(i, n);
        }
    }
    let track_name = |i: usize| match cols[col_of[i]].track {
        Track::Host => "the host".to_string(),
        Track::Queue(q) => program.queue_name(q).to_string(),
    };
    // (colour, bold prefix, text, tooltip)
    let mut legend: Vec<(&str, String, String, String)> = Vec::new();
    for (i, c) in cmds.iter().enumerate() {
        let Command::Barrier(dep) = c else { continue };
        let parts: Vec<String> = dep.barriers.iter().map(|b| b.describe(program)).collect();
        let what = role.get(&i).map_or(String::new(), |r| format!(", {r}"));
        legend.push((
            "#065f46",
            format!("B{}", barrier_no[&i]),
            format!(
                "line {} on {}{what}: barrier {}",
                line(i),
                track_name(i),
                parts.join("; ")
            ),
            String::new(),
        ));
    }
    for (n, g) in race_groups.iter().enumerate() {
        let r = &g.race;
        // An access the command list does not hold (a queue family
        // ownership transfer's) is named by the memory's owner.
        let by_owner = || {
            layout
                .owner_object(r.mem)
                .and_then(|o| Some((o, layout.place(o)?.1)))
                .map_or_else(
                    || format!("memory {}[{}]", r.mem.0, r.range),
                    |(object, base)| {
                        program.show_region(vksync::Region {
                            object,
                            range: vksync::ByteRange::new(r.range.start - base, r.range.end - base),
                        })
                    },
                )
        };
        let region = access_of(&acc[r.command], r.current, r.mem, r.range).map_or_else(by_owner, |a| {
            let a = &acc[r.command][a];
            let base = a.range.start - a.region.range.start;
            program.show_region(vksync::Region {
                object: a.region.object,
                range: vksync::ByteRange::new(
                    r.range.start.max(a.range.start) - base,
                    r.range.end.min(a.range.end) - base,
                ),
            })
        });
        legend.push((
            HAZ,
            format!("H{}", n + 1),
            format!(
                "{} on {region}: line {} ({}, {}) after line {} ({}, {})",
                r.kind.message_id(),
                line(r.command),
                track_name(r.command),
                r.current,
                line(r.prior_command),
                track_name(r.prior_command),
                r.prior
            ),
            crate::report::race_line(&source.name, program, &layout, &at, g, reading),
        ));
    }
    for (by, w) in &sem_pairs {
        let text = match by {
            Some(s) => {
                let s = &signals[*s];
                format!(
                    "signalled at line {} ({}) → waited for at line {} ({})",
                    line(s.cmd),
                    s.where_,
                    line(w.cmd),
                    w.where_
                )
            }
            None => format!(
                "initial value → waited for at line {} ({})",
                line(w.cmd),
                w.where_
            ),
        };
        legend.push((SEM, sem_label(program, w.sem, w.value), text, String::new()));
    }
    for (set, wait, e) in &event_pairs {
        legend.push((
            EVENT,
            program.event_name(*e).to_string(),
            format!(
                "set at line {} ({}) → waited for at line {} ({})",
                line(*set),
                track_name(*set),
                line(*wait),
                track_name(*wait)
            ),
            String::new(),
        ));
    }

    // Each render pass an instance uses: its subpasses and dependencies
    // (the arcs above its instances carry one each in their titles).
    let mut passes_shown: Vec<vksync::RenderPassId> = Vec::new();
    for span in &spans {
        let Some(id) = span.pass else { continue };
        if passes_shown.contains(&id) {
            continue;
        }
        passes_shown.push(id);
        let Some(rp) = program.render_passes().get(id.0 as usize) else {
            continue;
        };
        let deps: Vec<String> = rp.dependencies.iter().map(dependency_text).collect();
        legend.push((
            RP,
            rp.name.clone(),
            format!(
                "render pass, {} subpass{}: {}",
                rp.subpasses.len(),
                if rp.subpasses.len() == 1 { "" } else { "es" },
                if deps.is_empty() {
                    "no dependency declared (the implicit ones from and to EXTERNAL)".to_string()
                } else {
                    deps.join("; ")
                }
            ),
            String::new(),
        ));
    }

    let legend_top = lanes_bottom + 20.0;
    let right = legend
        .iter()
        .map(|(_, p, t, _)| 40.0 + (p.chars().count() + 2 + t.chars().count()) as f64 * MONO)
        .fold(cols_right.max(900.0), f64::max);
    let height = legend_top + 60.0 + legend.len() as f64 * 17.0 + 20.0;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{right:.0}" height="{height:.0}" viewBox="0 0 {right:.0} {height:.0}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">"#
    );
    s.push_str("<defs>\n");
    for (id, colour) in [
        ("hazard", HAZ),
        ("semaphore", SEM),
        ("event", EVENT),
        ("ownership", OWN),
        ("subpass", RP),
    ]
    .into_iter()
    .filter(|(id, _)| *id != "subpass" || !spans.is_empty())
    {
        let _ = writeln!(
            s,
            r#"<marker id="arrow-{id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>"#
        );
    }
    s.push_str("</defs>\n");
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let _ = writeln!(
        s,
        r##"<text x="16" y="26" font-size="17" font-weight="bold" fill="#111827">{} — vksync check</text>"##,
        esc(&source.name)
    );
    // The summary counts what `vksync check` prints: one hazard per later
    // access and kind.
    // (Every pair but the single-queue checker's: `report::summary_groups`.)
    let exact = by_spec || program.first_multi_queue_command().is_some();
    let _ = writeln!(
        s,
        r##"<text x="16" y="46" fill="#374151">{}, {}, {}; {}{}</text>"##,
        plural(program.queue_count(), "queue", "queues"),
        plural(program.semaphores().len(), "semaphore", "semaphores"),
        plural(program.events().len(), "event", "events"),
        esc(&crate::report::summary_race_groups(program, &race_groups, exact)),
        if by_spec {
            " (by the definitional semantics)"
        } else {
            ""
        }
    );

    // Lanes.
    for (n, top) in tops.iter().enumerate() {
        let (id, name, sub) = if n == 0 {
            ("lane-host".to_string(), "host".to_string(), String::new())
        } else {
            let q = vksync::QueueId(n as u32 - 1);
            (
                format!("lane-queue-{}", program.queue_name(q)),
                program.queue_name(q).to_string(),
                format!("queue, family {}", family(q)),
            )
        };
        let _ = writeln!(
            s,
            r##"<g class="lane" id="{}"><rect x="8" y="{top}" width="{}" height="{}" fill="{}" rx="6"/><text x="16" y="{}" font-weight="bold" fill="#111827">{}</text><text x="16" y="{}" font-size="10" fill="#6b7280">{}</text></g>"##,
            esc(&id),
            right - 16.0,
            need[n],
            if n == 0 { "#faf5ff" } else { "#f3f4f6" },
            top + 20.0,
            esc(&name),
            top + 34.0,
            esc(&sub)
        );
    }
    // What the arrows' labels must not cover: every label and box drawn
    // before them, as rectangles (`Labels`).
    let mut taken = Labels::default();
    // Batches: a band from the first command to the submit.
    for (n, b) in batches.iter().enumerate() {
        let t = Track::Queue(b.queue);
        let (x0, x1) = (cols[b.first].x, cols[b.last].x + shape_width(cols[b.last].shape));
        let top = top_of(t);
        // The label goes after the wait markers.
        let nwaits = match b.submit.map(|i| &cmds[i]) {
            Some(Command::Submit(sub)) => sub.waits.len(),
            _ => 0,
        };
        let note = if b.submit.is_none() {
            " (not submitted: the model submits it at the end)"
        } else {
            ""
        };
        let lx = x0 + 4.0 + 16.0 * nwaits as f64;
        let _ = writeln!(
            s,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="{BAND}" rx="6"/><text x="{lx}" y="{}" font-size="10" fill="#4338ca">batch {}{note}</text>"##,
            x0 - 4.0,
            top + 4.0,
            x1 - x0 + 8.0,
            height_of(t) - 8.0,
            top + 17.0,
            n + 1,
        );
        taken.text(lx, top + 17.0, &format!("batch {}{note}", n + 1), false);
    }
    // Rendering instances: a dashed band from the begin to the end, a
    // render pass's divided at each next-subpass; its name at the band's
    // right end and each subpass's number at its start, in the lane's
    // strip; each subpass dependency between two of its subpasses, or from
    // or to `EXTERNAL` (outside the band), an arc above it with its masks
    // as its title.
    for span in &spans {
        let first = &cols[col_of[span.begin]];
        let last = &cols[col_of[span.end]];
        let t = first.track;
        let top = top_of(t);
        let h = height_of(t);
        let (x0, x1) = (first.x - 2.0, last.x + shape_width(last.shape) + 2.0);
        let (y0, y1) = (top + STRIP - 2.0, top + h - 18.0);
        let rp = span
            .pass
            .and_then(|id| program.render_passes().get(id.0 as usize));
        // A suspended and resumed instance is drawn piece by piece, each
        // band saying which end it continues.
        let pieces = match program.commands().get(span.begin) {
            Some(Command::Render(rc)) => match &rc.op {
                vksync::RenderOp::Begin(r) => match (r.resuming, r.suspending) {
                    (true, true) => " (resumed, suspended)",
                    (true, false) => " (resumed)",
                    (false, true) => " (suspended)",
                    (false, false) => "",
                },
                _ => "",
            },
            _ => "",
        };
        let name = rp.map_or(format!("rendering{pieces}"), |rp| {
            format!("render pass {}", rp.name)
        });
        let _ = writeln!(
            s,
            r##"<g class="render-span"><title>{} (lines {} to {})</title><rect x="{x0}" y="{y0}" width="{}" height="{}" fill="none" stroke="{RP}" stroke-dasharray="5 3" rx="5"/></g>"##,
            esc(&name),
            line(span.begin),
            line(span.end),
            x1 - x0,
            (y1 - y0).max(4.0),
        );
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" font-size="9" fill="{RP}" text-anchor="end">{}</text>"##,
            x1 - 3.0,
            y0 - 3.0,
            esc(&name)
        );
        taken.rect(
            x1 - 3.0 - name.chars().count() as f64 * 5.0,
            y0 - 11.0,
            x1 - 3.0,
            y0 - 1.0,
        );
        // The subpasses' starts: the begin's column, then each
        // next-subpass's; each one's middle, where its arcs meet it.
        let starts: Vec<f64> = std::iter::once(x0)
            .chain(span.next.iter().map(|&i| cols[col_of[i]].x - 2.0))
            .collect();
        for (k, &sx) in starts.iter().enumerate().skip(1) {
            let _ = writeln!(
                s,
                r##"<path d="M{sx},{y0} L{sx},{y1}" stroke="{RP}" stroke-dasharray="2 3" fill="none"/><text x="{}" y="{}" font-size="9" fill="{RP}">subpass {k}</text>"##,
                sx + 3.0,
                y0 - 3.0,
            );
            taken.rect(sx + 3.0, y0 - 11.0, sx + 3.0 + 9.0 * 5.0, y0 - 1.0);
        }
        let Some(rp) = rp else { continue };
        let middle = |k: usize| {
            let a = starts.get(k).copied().unwrap_or(x1);
            let b = starts.get(k + 1).copied().unwrap_or(x1);
            (a + b) / 2.0
        };
        for (n, d) in rp.dependencies.iter().enumerate() {
            let (xa, xb) = match (d.src, d.dst) {
                (vksync::SubpassIndex::Subpass(a), vksync::SubpassIndex::Subpass(b)) if a != b => {
                    (middle(a as usize), middle(b as usize))
                }
                (vksync::SubpassIndex::External, vksync::SubpassIndex::Subpass(b)) => {
                    (x0 - 14.0, middle(b as usize))
                }
                (vksync::SubpassIndex::Subpass(a), vksync::SubpassIndex::External) => {
                    (middle(a as usize), x1 + 14.0)
                }
                // A self-dependency (and EXTERNAL to EXTERNAL, invalid):
                // the legend's line only.
                _ => continue,
            };
            let lift = 8.0 + 3.0 * (n % 3) as f64;
            let _ = writeln!(
                s,
                r##"<path d="M{xa},{y0} Q{},{} {xb},{y0}" stroke="{RP}" stroke-width="1.2" fill="none" marker-end="url(#arrow-subpass)"><title>{}: {}</title></path>"##,
                (xa + xb) / 2.0,
                y0 - 2.0 * lift,
                esc(&rp.name),
                esc(&dependency_text(d)),
            );
        }
    }

    // Columns.
    for col in &cols {
        let i = col.cmd;
        let c = &cmds[i];
        let top = top_of(col.track);
        let h = height_of(col.track);
        let cx = col.cx();
        // The line number a marker, bar or submit column writes at the
        // bottom of its lane.
        if col.shape != Shape::Box {
            taken.rect(cx - 12.0, top + h - 15.0, cx + 12.0, top + h - 3.0);
        }
        let line_no = |s: &mut String| {
            let _ = writeln!(
                s,
                r##"<text x="{cx}" y="{}" font-size="9" fill="#6b7280" text-anchor="middle">{}</text>"##,
                top + h - 6.0,
                line(i)
            );
        };
        match col.shape {
            Shape::Box => {
                let host = col.track == Track::Host;
                let (fill, stroke) = if host {
                    ("#f3e8ff", "#9333ea")
                } else {
                    ("#eef2ff", "#4f46e5")
                };
                let by = top + STRIP;
                let bh = HEAD + ACC_H * acc[i].len() as f64 + 6.0;
                let detail = match c {
                    Command::Dispatch { kernel, .. } => kernel.clone(),
                    _ => c.vulkan_name().trim_start_matches("vkCmd").to_string(),
                };
                let _ = writeln!(
                    s,
                    r##"<rect x="{}" y="{by}" width="{BOX_W}" height="{bh}" fill="{fill}" stroke="{stroke}" rx="6"/><text x="{cx}" y="{}" text-anchor="middle" font-weight="bold" fill="#1f2937">{}</text><text x="{cx}" y="{}" text-anchor="middle" font-size="10" fill="#4b5563">{} · line {}</text>"##,
                    col.x,
                    by + 14.0,
                    c.keyword(),
                    by + 27.0,
                    esc(&detail),
                    line(i)
                );
                taken.rect(col.x, by, col.x + BOX_W, by + bh);
            }
            Shape::Bar => {
                let transfer = role.get(&i);
                let colour = if transfer.is_some() { OWN } else { BAR_GREEN };
                let _ = writeln!(
                    s,
                    r##"<rect x="{}" y="{}" width="10" height="{}" fill="{colour}" rx="3"/><circle cx="{cx}" cy="{}" r="13" fill="{colour}"/><text x="{cx}" y="{}" fill="#ffffff" font-weight="bold" text-anchor="middle">B{}</text>"##,
                    cx - 5.0,
                    top + STRIP,
                    h - STRIP - 22.0,
                    top + STRIP + 14.0,
                    top + STRIP + 18.0,
                    barrier_no.get(&i).copied().unwrap_or(0)
                );
                if let Some(r) = transfer {
                    let _ = writeln!(
                        s,
                        r##"<text x="{cx}" y="{}" font-size="9" font-weight="bold" fill="{OWN}" text-anchor="middle" stroke="#ffffff" stroke-width="3" paint-order="stroke">{r}</text>"##,
                        top + STRIP + 40.0
                    );
                    let half = r.to_string().chars().count() as f64 * CHAR / 2.0;
                    taken.rect(cx - half, top + STRIP + 31.0, cx + half, top + STRIP + 42.0);
                }
                let ty = top + STRIP + 52.0;
                let _ = writeln!(
                    s,
                    r##"<text x="{}" y="{ty}" font-size="10" fill="#065f46" transform="rotate(90 {} {ty})">{}</text>"##,
                    cx + 8.0,
                    cx + 8.0,
                    esc(&bar_label_of(i))
                );
                taken.rect(cx - 13.0, top + STRIP, cx + 13.0, top + STRIP + 28.0);
                taken.text(cx + 8.0, ty, &bar_label_of(i), true);
                line_no(&mut s);
            }
            Shape::Slim => {
                let (fill, stroke, dash) = match c {
                    Command::SetEvent { .. } | Command::SetEvent1 { .. } | Command::HostSetEvent { .. } => {
                        (EVENT, EVENT, "none")
                    }
                    Command::WaitEvents { .. } | Command::WaitEvents1 { .. } => ("#ffffff", EVENT, "none"),
                    Command::ResetEvent { .. } | Command::HostResetEvent { .. } => ("#ffffff", EVENT, "3 2"),
                    Command::HostSignal { .. } => (SEM, SEM, "none"),
                    Command::HostWait { .. } => ("#ffffff", SEM, "none"),
                    Command::Wait(_) => ("#6b7280", "#6b7280", "none"),
                    Command::Free { .. } => ("#ffffff", "#6b7280", "3 2"),
                    _ => ("#ffffff", "#6b7280", "none"),
                };
                let _ = writeln!(
                    s,
                    r##"<rect x="{}" y="{}" width="14" height="14" fill="{fill}" stroke="{stroke}" stroke-width="2" stroke-dasharray="{dash}" rx="3"/>"##,
                    cx - 7.0,
                    top + marker_y(col.track)
                );
                let ty = top + marker_y(col.track) + 22.0;
                let _ = writeln!(
                    s,
                    r##"<text x="{}" y="{ty}" font-size="10" fill="#374151" transform="rotate(90 {} {ty})">{}</text>"##,
                    cx - 4.0,
                    cx - 4.0,
                    esc(&slim_label(program, c))
                );
                let my = top + marker_y(col.track);
                taken.rect(cx - 7.0, my, cx + 7.0, my + 14.0);
                taken.text(cx - 4.0, ty, &slim_label(program, c), true);
                line_no(&mut s);
            }
            Shape::Submit => {
                let Command::Submit(sub) = c else { continue };
                let host_top = tops[0];
                // From the host's call down to the end of the batch.
                let _ = writeln!(
                    s,
                    r##"<line x1="{cx}" y1="{}" x2="{cx}" y2="{}" stroke="{SEM}" stroke-width="2" stroke-dasharray="6 4"/>"##,
                    host_top + 26.0,
                    top + h - 18.0
                );
                let _ = writeln!(
                    s,
                    r##"<rect x="{}" y="{}" width="14" height="14" fill="{SEM}" rx="3"/>"##,
                    cx - 7.0,
                    host_top + 12.0
                );
                let ty = host_top + 34.0;
                let _ = writeln!(
                    s,
                    r##"<text x="{}" y="{ty}" font-size="10" fill="#7e22ce" transform="rotate(90 {} {ty})">submit → {}</text>"##,
                    cx + 6.0,
                    cx + 6.0,
                    esc(program.queue_name(sub.queue))
                );
                taken.rect(cx - 7.0, host_top + 12.0, cx + 7.0, host_top + 26.0);
                taken.text(
                    cx + 6.0,
                    ty,
                    &format!("submit → {}", program.queue_name(sub.queue)),
                    true,
                );
                let ty = top + 13.0 + MARK * sub.signals.len() as f64 + 8.0;
                let _ = writeln!(
                    s,
                    r##"<text x="{}" y="{ty}" font-size="10" fill="#7e22ce" transform="rotate(90 {} {ty})">submit</text>"##,
                    cx + 6.0,
                    cx + 6.0
                );
                taken.text(cx + 6.0, ty, "submit", true);
                let _ = writeln!(
                    s,
                    r##"<text x="{cx}" y="{}" font-size="9" fill="#6b7280" text-anchor="middle">{}</text>"##,
                    host_top + need[0] - 6.0,
                    line(i)
                );
                taken.rect(
                    cx - 12.0,
                    host_top + need[0] - 15.0,
                    cx + 12.0,
                    host_top + need[0] - 3.0,
                );
                line_no(&mut s);
            }
        }
        // Accesses, with the hazards they take part in.
        for (k, a) in acc[i].iter().enumerate() {
            let (rx, ry, rw, rh) = rows[i][k];
            let colour = if a.sa.is_write() { WRITE } else { READ };
            let hz = marks.get(&(i, k));
            let stroke = if hz.is_some() {
                format!(r#" stroke="{HAZ}" stroke-width="2.5""#)
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                r##"<rect x="{rx}" y="{ry}" width="{rw}" height="{rh}" fill="{colour}" rx="3"{stroke}><title>{} {} ({})</title></rect>"##,
                if a.sa.is_write() { "writes" } else { "reads" },
                esc(&program.show_region(a.region)),
                a.sa
            );
            let tags = hz.map_or(String::new(), |v| {
                v.iter().map(|n| format!("H{n}")).collect::<Vec<_>>().join(" ")
            });
            if col.shape == Shape::Box {
                let room = (((rw - 8.0) / 5.6) as usize).saturating_sub(tags.chars().count());
                let _ = writeln!(
                    s,
                    r##"<text x="{}" y="{}" font-size="9" fill="#ffffff">{} {}</text>"##,
                    rx + 4.0,
                    ry + 10.5,
                    if a.sa.is_write() { "W" } else { "R" },
                    esc(&truncate(&program.show_region(a.region), room.max(4)))
                );
            }
            if !tags.is_empty() {
                let (tx, anchor, fill) = if col.shape == Shape::Box {
                    (rx + rw - 4.0, "end", "#ffffff")
                } else {
                    (rx - 2.0, "end", HAZ)
                };
                let _ = writeln!(
                    s,
                    r##"<text x="{tx}" y="{}" font-size="9" font-weight="bold" fill="{fill}" text-anchor="{anchor}">{tags}</text>"##,
                    ry + 10.5
                );
            }
        }
    }

    // Semaphore waits and signals, then the arrows between the operations
    // that pair up, drawn last so they sit above the boxes.
    for op in waits.iter().filter(|w| !w.host) {
        let (x, y) = op.at;
        let _ = writeln!(
            s,
            r##"<path d="M{},{y} L{x},{} L{},{y} L{x},{} z" fill="#ffffff" stroke="{SEM}" stroke-width="2"><title>wait {}</title></path>"##,
            x - 6.0,
            y - 6.0,
            x + 6.0,
            y + 6.0,
            esc(&sem_label(program, op.sem, op.value))
        );
    }
    for op in signals.iter().filter(|w| !w.host) {
        let (x, y) = op.at;
        let _ = writeln!(
            s,
            r##"<circle cx="{x}" cy="{y}" r="5" fill="{SEM}"><title>signal {}</title></circle>"##,
            esc(&sem_label(program, op.sem, op.value))
        );
    }
    let arrow = |s: &mut String,
                 taken: &mut Labels,
                 from: (f64, f64),
                 to: (f64, f64),
                 lift: f64,
                 kind: &str,
                 colour: &str,
                 dash: &str,
                 label: &str,
                 title: &str| {
        // The label on the curve where it covers nothing drawn before (the
        // middle first), the curve raised in steps until there is such a
        // place; else the first curve, its label in the middle.
        let (lift, (lx, ly)) = (0..8)
            .map(|k| lift + 20.0 * f64::from(k))
            .find_map(|l| {
                label_spots(from, to, l)
                    .into_iter()
                    .find(|&(x, y)| !taken.covers(x, y, label))
                    .map(|p| (l, p))
            })
            .unwrap_or_else(|| (lift, curve(from, to, lift).1));
        let (d, _) = curve(from, to, lift);
        taken.centred(lx, ly, label);
        let _ = writeln!(
            s,
            r##"<path d="{d}" fill="none" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}" marker-end="url(#arrow-{kind})" opacity="0.9"><title>{}</title></path><text x="{lx:.1}" y="{:.1}" font-size="10" font-weight="bold" fill="{colour}" text-anchor="middle" stroke="#ffffff" stroke-width="3" paint-order="stroke">{}</text>"##,
            esc(title),
            ly - 3.0,
            esc(label)
        );
    };
    for (by, w) in &sem_pairs {
        let Some(by) = by else { continue };
        let sg = &signals[*by];
        let same_row = (sg.at.1 - w.at.1).abs() < 1.0;
        arrow(
            &mut s,
            &mut taken,
            sg.at,
            w.at,
            if same_row { 24.0 } else { 0.0 },
            "semaphore",
            SEM,
            "none",
            &sem_label(program, w.sem, w.value),
            &format!(
                "semaphore {}: line {} → line {}",
                sem_label(program, w.sem, w.value),
                line(sg.cmd),
                line(w.cmd)
            ),
        );
    }
    for (set, wait, e) in &event_pairs {
        arrow(
            &mut s,
            &mut taken,
            centre(*set),
            centre(*wait),
            22.0,
            "event",
            EVENT,
            "none",
            program.event_name(*e),
            &format!(
                "event {}: line {} → line {}",
                program.event_name(*e),
                line(*set),
                line(*wait)
            ),
        );
    }
    for (rel, acq, region, o) in &own_pairs {
        let at = |i: usize| {
            let col = &cols[col_of[i]];
            (col.cx(), top_of(col.track) + STRIP + 14.0)
        };
        let label = format!(
            "{} {}→{}",
            program.show_region(*region),
            o.src_queue_family,
            o.dst_queue_family
        );
        // From the release's circle to the acquire's, edge to edge, so
        // both barrier numbers stay legible.
        let ((x1, y1), (x2, y2)) = (at(*rel), at(*acq));
        let toward = if x2 >= x1 { 13.0 } else { -13.0 };
        arrow(
            &mut s,
            &mut taken,
            (x1 + toward, y1),
            (x2 - toward, y2),
            0.0,
            "ownership",
            OWN,
            "4 3",
            &label,
            &format!(
                "ownership of {label}: released at line {}, acquired at line {}",
                line(*rel),
                line(*acq)
            ),
        );
    }
    let mut between: HashMap<(usize, usize), u32> = HashMap::new();
    for (n, (r, (from, to))) in races.iter().zip(&hazard_ends).enumerate() {
        // Several hazards of one pair of commands bow apart so their
        // labels do not overprint each other.
        let k = between.entry((r.prior_command, r.command)).or_insert(0);
        let lift = 18.0 + 14.0 * f64::from(*k);
        *k += 1;
        arrow(
            &mut s,
            &mut taken,
            *from,
            *to,
            lift,
            "hazard",
            HAZ,
            "5 3",
            &format!("H{} {}", group_of[n] + 1, kind_short(r.kind)),
            &format!(
                "{} line {} → line {}",
                kind_short(r.kind),
                line(r.prior_command),
                line(r.command)
            ),
        );
    }

    // Legend.
    let mut ly = legend_top + 24.0;
    let mut lx = 16.0;
    let mut chips = vec![
        (READ, "read"),
        (WRITE, "write"),
        (HAZ, "hazard (Hn)"),
        (BAR_GREEN, "barrier (Bn)"),
        (OWN, "ownership transfer"),
        (SEM, "semaphore"),
        (EVENT, "event"),
        (BAND, "batch"),
    ];
    if !spans.is_empty() {
        chips.push((RP, "rendering instance, subpass dependency"));
    }
    for (colour, text) in chips {
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
    for (colour, prefix, text, title) in &legend {
        let title = if title.is_empty() {
            String::new()
        } else {
            format!("<title>{}</title>", esc(title))
        };
        let _ = writeln!(
            s,
            r##"<text x="16" y="{ly}" font-family="DejaVu Sans Mono, monospace" font-size="11" fill="{colour}">{title}<tspan font-weight="bold">{}</tspan>  {}</text>"##,
            esc(prefix),
            esc(text)
        );
        ly += 17.0;
    }
    s.push_str("</svg>\n");
    Ok(s)
}
