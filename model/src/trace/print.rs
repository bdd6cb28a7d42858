//! The trace printer: writes a [`Program`] as text that [`super::parse`]
//! reads back to an equal program, optionally with comments
//! ([`Annotations`]: header lines, comment lines before a command, a
//! trailing comment on a command's line) that the parser skips.

use super::parse::DEFAULT_POOL_ALIGN;
use crate::ir::image::{
    view_range, BufferImageCopy, ImageCopyRegion, ImageDesc, ImageOp, SubresourceRange, Tiling,
};
use crate::ir::program::{BindingAccess, Command, ObjectId, ObjectKind, Program, Region, SharingMode};
use crate::ir::queue::{QueueId, SemaphoreType, WaitFor};
use crate::ir::render::{Attachment, DrawKind, RenderOp, VertexRate};
use crate::ir::renderpass::RenderPass;
use crate::vk::flags::PipelineStageFlags2;
use crate::vk::image::ImageLayout;
use std::collections::HashMap;
use std::fmt::Write as _;

/// Comments to print with a program by [`print_annotated`]: lines at the
/// top, lines before a command, and a trailing comment on a command's
/// line. Comments never change the program: parsing the annotated text
/// gives the same program as parsing [`print()`]'s. Any line break in a
/// comment's text (LF, CR, vertical tab, form feed, U+0085, U+2028,
/// U+2029: what the parser treats as one) is printed as a space, so a
/// comment stays on its line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    header: Vec<String>,
    /// Whole lines before a command: `# comment` or `not-modelled ...`.
    before: HashMap<usize, Vec<String>>,
    trailing: HashMap<usize, String>,
}

impl Annotations {
    /// No comments.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a comment line at the top of the trace, before the
    /// declarations.
    pub fn header(&mut self, text: &str) -> &mut Self {
        self.header.push(one_line(text));
        self
    }

    /// Adds a comment line just before command `command` (an index into
    /// [`Program::commands`]); an index past the last command puts the
    /// line at the end of the trace.
    pub fn before(&mut self, command: usize, text: &str) -> &mut Self {
        self.before
            .entry(command)
            .or_default()
            .push(format!("# {}", one_line(text)));
        self
    }

    /// Adds a `not-modelled CALL DETAIL` line just before command `command`
    /// (placed as [`Annotations::before`] places comments): a call the
    /// model cannot express, which [`super::parse`] keeps in
    /// [`super::Trace::not_modelled`]. `DETAIL` is written as words (a `#`
    /// in it would start a comment, so it becomes `no.`); `comment`, if not
    /// empty, follows as a trailing comment.
    pub fn not_modelled(&mut self, command: usize, call: &str, detail: &str, comment: &str) -> &mut Self {
        let words = |t: &str| {
            one_line(t)
                .replace('#', "no.")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        let call = match words(call) {
            c if c.is_empty() => "?".to_string(),
            c => c.split(' ').collect::<Vec<_>>().join("_"),
        };
        let mut line = format!("not-modelled {call}");
        let detail = words(detail);
        if !detail.is_empty() {
            line.push(' ');
            line.push_str(&detail);
        }
        if !comment.is_empty() {
            line.push_str("  # ");
            line.push_str(&one_line(comment));
        }
        self.before.entry(command).or_default().push(line);
        self
    }

    /// Sets the comment at the end of command `command`'s line (replacing
    /// an earlier one).
    pub fn trailing(&mut self, command: usize, text: &str) -> &mut Self {
        self.trailing.insert(command, one_line(text));
        self
    }
}

/// `text` with every character the parser reads as a line break replaced
/// by a space.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\r' | '\u{0b}' | '\u{0c}' | '\u{85}' | '\u{2028}' | '\u{2029}' => ' ',
            c => c,
        })
        .collect()
}

/// Prints a program as a trace that [`super::parse`] reads back to an equal
/// program. Buffers and pools are declared in object order, each just
/// before the first blob declared after it is allocated, so object ids
/// survive the round trip; blob declarations are their `alloc` lines. A
/// blob the commands never allocate cannot be written in the trace format
/// and is left out.
pub fn print(program: &Program) -> String {
    print_annotated(program, &Annotations::default())
}

/// Prints a program as [`print()`] does, with the comments of `notes`: its
/// header lines first, then each command preceded by its comment lines and
/// followed, on the same line, by `  # ` and its trailing comment. Lines
/// noted before an index past the last command come last.
pub fn print_annotated(program: &Program, notes: &Annotations) -> String {
    let mut w = Writer::new();
    let mut out = w.append(program, notes);
    out.push_str(&w.finish(program, notes));
    out
}

/// Prints a growing program in pieces, for a tool that appends to a trace
/// file as it records (a capture layer must not rewrite a long trace at
/// every flush). Each [`Writer::append`] returns the text of what was
/// added since the previous call: declarations of new buffers and pools,
/// then the new commands with their comments; [`Writer::finish`] returns
/// the comment lines noted past the last command. The pieces concatenated
/// parse to the same program as [`print_annotated`]'s text (declarations
/// can come later in the file than there, never after their first use).
///
/// The program and its notes may only grow between calls: commands and
/// objects are never removed, and comments for commands already written
/// are not printed again (header lines are printed by the first call only).
#[derive(Clone, Debug, Default)]
pub struct Writer {
    /// Objects declared (or skipped, for blobs) so far.
    objects: usize,
    /// Commands written so far.
    commands: usize,
    /// Queues and semaphores declared so far.
    queues: usize,
    semaphores: usize,
    events: usize,
    render_passes: usize,
    started: bool,
}

impl Writer {
    /// A writer that has written nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// The text for everything added to `program` since the last call.
    pub fn append(&mut self, program: &Program, notes: &Annotations) -> String {
        let mut out = String::new();
        if !self.started {
            self.started = true;
            for h in &notes.header {
                let _ = writeln!(out, "# {h}");
            }
        }
        // Queues and semaphores first: commands use them, never the other
        // way round, so declaring them before anything else keeps ids.
        for q in &program.queues[self.queues.min(program.queues.len())..] {
            let _ = match q.family {
                0 => writeln!(out, "queue {}", q.name),
                f => writeln!(out, "queue {} family {f}", q.name),
            };
        }
        self.queues = program.queues.len();
        for s in &program.semaphores[self.semaphores.min(program.semaphores.len())..] {
            let _ = match s.kind {
                SemaphoreType::Binary => writeln!(out, "semaphore {}", s.name),
                SemaphoreType::Timeline { initial: 0 } => writeln!(out, "semaphore {} timeline", s.name),
                SemaphoreType::Timeline { initial } => {
                    writeln!(out, "semaphore {} timeline {initial}", s.name)
                }
            };
        }
        self.semaphores = program.semaphores.len();
        for e in &program.events[self.events.min(program.events.len())..] {
            let _ = writeln!(out, "event {}", e.name);
        }
        self.events = program.events.len();
        for rp in &program.render_passes()[self.render_passes.min(program.render_passes().len())..] {
            let _ = writeln!(out, "{}", render_pass_text(rp));
        }
        self.render_passes = program.render_passes().len();
        // Declarations up to the next blob come first (a blob is declared
        // by its `alloc`, which also lets the objects after it through).
        self.declare_until_blob(&mut out, program);
        for i in self.commands..program.commands.len() {
            let c = &program.commands[i];
            for line in notes.before.get(&i).into_iter().flatten() {
                let _ = writeln!(out, "{line}");
            }
            // A subpass's end is part of the next line (its comments come
            // before that line).
            if matches!(c, Command::Render(rc) if matches!(rc.op, RenderOp::EndSubpass { .. })) {
                continue;
            }
            out.push_str(&print_command(program, c));
            if let Some(t) = notes.trailing.get(&i) {
                let _ = write!(out, "  # {t}");
            }
            out.push('\n');
            if let Command::Alloc { blob } = c {
                if blob.0 as usize + 1 > self.objects {
                    self.objects = blob.0 as usize + 1;
                    self.declare_until_blob(&mut out, program);
                }
            }
        }
        self.commands = program.commands.len();
        out
    }

    /// What [`Writer::append`] would return, then the declarations still
    /// missing (objects after a blob that no command allocates) and the
    /// comment lines noted before an index past the last command. Call it
    /// once, last.
    pub fn finish(&mut self, program: &Program, notes: &Annotations) -> String {
        let mut out = self.append(program, notes);
        self.declare(&mut out, program, program.objects.len());
        let mut rest: Vec<_> = notes
            .before
            .iter()
            .filter(|(i, _)| **i >= program.commands.len())
            .collect();
        rest.sort_by_key(|(i, _)| **i);
        for line in rest.into_iter().flat_map(|(_, lines)| lines) {
            let _ = writeln!(out, "{line}");
        }
        out
    }

    /// Declares the objects from the next undeclared one up to the next
    /// blob.
    fn declare_until_blob(&mut self, out: &mut String, program: &Program) {
        let stop = program.objects[self.objects.min(program.objects.len())..]
            .iter()
            .position(|o| matches!(o.kind, ObjectKind::Blob { .. }))
            .map_or(program.objects.len(), |i| self.objects + i);
        self.declare(out, program, stop);
    }

    /// Declares the buffers and pools before object `stop`.
    fn declare(&mut self, out: &mut String, program: &Program, stop: usize) {
        while self.objects < stop.min(program.objects.len()) {
            let o = &program.objects[self.objects];
            if let Some(d) = program.image(ObjectId(self.objects as u32)) {
                out.push_str(&image_declaration(program, o, d));
                out.push('\n');
                self.objects += 1;
                continue;
            } else {
                match &o.kind {
                    ObjectKind::Buffer { alias: None } => {
                        let _ = write!(out, "buffer {} {}", o.name, o.size);
                    }
                    ObjectKind::Buffer {
                        alias: Some((other, off)),
                    } => {
                        let _ = write!(
                            out,
                            "buffer {} {} alias {} {}",
                            o.name,
                            o.size,
                            program.obj(*other).name,
                            off
                        );
                    }
                    ObjectKind::Pool { align } => {
                        let _ = if *align == DEFAULT_POOL_ALIGN {
                            write!(out, "pool {} {}", o.name, o.size)
                        } else {
                            write!(out, "pool {} {} align {}", o.name, o.size, align)
                        };
                    }
                    ObjectKind::Blob { .. } => {
                        self.objects += 1;
                        continue;
                    }
                }
            }
            if o.sharing == SharingMode::Exclusive {
                out.push_str(" exclusive");
            }
            out.push('\n');
            self.objects += 1;
        }
    }
}

/// A dependency info's barriers as in a `barrier` line, `; `-separated.
/// An image barrier split into several byte ranges is written once, by
/// its part 0, with the union of its parts' masks: the parser gives every
/// part the written masks, and a program whose parts differ (the planners
/// keep them equal, `plan::transitions::unify_parts`) is printed with
/// enough synchronization for each part, never with one part's alone.
fn dependency_text(program: &Program, dep: &crate::ir::program::Dependency) -> String {
    let parts: Vec<String> = dep
        .barriers
        .iter()
        .filter(|b| b.image.is_none() || matches!(program.image_barrier_part(b), Some((_, 0))))
        .map(|b| {
            let mut u = *b;
            if let Some(r) = b.image {
                for x in dep.barriers.iter().filter(|x| x.image == Some(r)) {
                    u.src_stage_mask |= x.src_stage_mask;
                    u.src_access_mask |= x.src_access_mask;
                    u.dst_stage_mask |= x.dst_stage_mask;
                    u.dst_access_mask |= x.dst_access_mask;
                }
            }
            u.describe(program)
        })
        .collect();
    parts.join("; ")
}

/// `image NAME FORMAT WxH[xD] [mips N] [layers N] [linear] [rowPitch=N]
/// [exclusive] [initial LAYOUT] [alias MEM OFFSET]`: the options in the order
/// `docs/trace-format.md` lists them (the parser takes any order).
fn image_declaration(program: &Program, o: &crate::ir::program::Object, d: &ImageDesc) -> String {
    let [w, h, z] = d.extent;
    let mut s = format!("image {} {} {w}x{h}", o.name, d.format);
    if z != 1 {
        let _ = write!(s, "x{z}");
    }
    if d.mips != 1 {
        let _ = write!(s, " mips {}", d.mips);
    }
    if d.layers != 1 {
        let _ = write!(s, " layers {}", d.layers);
    }
    if d.tiling == Tiling::Linear {
        s.push_str(" linear");
    }
    if let Some(p) = d.row_pitch {
        let _ = write!(s, " rowPitch={p}");
    }
    if o.sharing == SharingMode::Exclusive {
        s.push_str(" exclusive");
    }
    if d.initial != ImageLayout::UNDEFINED {
        let _ = write!(s, " initial {}", d.initial);
    }
    if let ObjectKind::Buffer {
        alias: Some((other, off)),
    } = o.kind
    {
        let _ = write!(s, " alias {} {off}", program.obj(other).name);
    }
    s
}

fn xyz(v: [u32; 3]) -> String {
    format!("{},{},{}", v[0], v[1], v[2])
}

/// An image command's operands and regions, as the parser reads them.
fn image_command_text(program: &Program, op: &ImageOp) -> String {
    let n = |id: &ObjectId| program.object(*id).map_or("?", |o| o.name.as_str());
    let buffer_regions = |regions: &[BufferImageCopy]| {
        let parts: Vec<String> = regions
            .iter()
            .map(|r| {
                format!(
                    "bufferOffset={} bufferRowLength={} bufferImageHeight={} imageSubresource={} imageOffset={} imageExtent={}",
                    r.buffer_offset,
                    r.row_length,
                    r.image_height,
                    r.subresource,
                    xyz(r.offset),
                    xyz(r.extent)
                )
            })
            .collect();
        parts.join(" ; ")
    };
    let copy_regions = |regions: &[ImageCopyRegion]| {
        let parts: Vec<String> = regions
            .iter()
            .map(|r| {
                format!(
                    "srcSubresource={} srcOffset={} dstSubresource={} dstOffset={} extent={}",
                    r.src_subresource,
                    xyz(r.src_offset),
                    r.dst_subresource,
                    xyz(r.dst_offset),
                    xyz(r.extent)
                )
            })
            .collect();
        parts.join(" ; ")
    };
    let ranges = |rs: &[SubresourceRange]| rs.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(" ; ");
    let k = op.keyword();
    match op {
        ImageOp::CopyBufferToImage {
            buffer,
            image,
            layout,
            regions,
        } => format!(
            "{k} {} -> {} {layout} {}",
            n(buffer),
            n(image),
            buffer_regions(regions)
        ),
        ImageOp::CopyImageToBuffer {
            image,
            layout,
            buffer,
            regions,
        } => format!(
            "{k} {} {layout} -> {} {}",
            n(image),
            n(buffer),
            buffer_regions(regions)
        ),
        ImageOp::CopyImage { src, dst, regions } | ImageOp::ResolveImage { src, dst, regions } => format!(
            "{k} {} {} -> {} {} {}",
            n(&src.0),
            src.1,
            n(&dst.0),
            dst.1,
            copy_regions(regions)
        ),
        ImageOp::BlitImage {
            src,
            dst,
            regions,
            filter,
        } => {
            let parts: Vec<String> = regions
                .iter()
                .map(|r| {
                    format!(
                        "srcSubresource={} srcOffsets={}:{} dstSubresource={} dstOffsets={}:{}",
                        r.src_subresource,
                        xyz(r.src_offsets[0]),
                        xyz(r.src_offsets[1]),
                        r.dst_subresource,
                        xyz(r.dst_offsets[0]),
                        xyz(r.dst_offsets[1])
                    )
                })
                .collect();
            // `NEAREST`, the default, is not written.
            let filter = if *filter == crate::ir::image::Filter::Nearest {
                String::new()
            } else {
                format!("filter={} ", filter.keyword())
            };
            format!(
                "{k} {} {} -> {} {} {filter}{}",
                n(&src.0),
                src.1,
                n(&dst.0),
                dst.1,
                parts.join(" ; ")
            )
        }
        ImageOp::ClearColorImage {
            image,
            layout,
            ranges: rs,
        }
        | ImageOp::ClearDepthStencilImage {
            image,
            layout,
            ranges: rs,
        } => format!("{k} {} {layout} {}", n(image), ranges(rs)),
    }
}

/// The text of a rendering command: the inverse of the parser's forms,
/// every parameter written.
fn render_command_text(program: &Program, op: &RenderOp) -> String {
    let n = |id: ObjectId| program.object(id).map_or("?", |o| o.name.as_str());
    let k = op.keyword();
    match op {
        RenderOp::End | RenderOp::NextSubpass | RenderOp::EndPass => k.to_string(),
        // Written by the `next-subpass` or `end-render-pass` after it.
        RenderOp::EndSubpass { .. } => String::new(),
        RenderOp::BeginPass(b) => {
            let pass = program
                .render_passes()
                .get(b.pass.0 as usize)
                .map_or("?", |r| r.name.as_str());
            let views: Vec<String> = b.views.iter().map(|(i, r)| format!("{} {r}", n(*i))).collect();
            let area = b.render_area.map_or(String::new(), |[x, y, w, h]| {
                format!(" renderArea={x},{y},{w},{h}")
            });
            format!("{k} {pass}{area} {}", views.join(" ; "))
        }
        RenderOp::Clear(c) => {
            let mut parts: Vec<String> = c.colors.iter().map(|i| format!("color {i}")).collect();
            if c.depth {
                parts.push("depth".into());
            }
            if c.stencil {
                parts.push("stencil".into());
            }
            format!("{k} {}", parts.join(" ; "))
        }
        RenderOp::Begin(r) => {
            let att = |kind: &str, a: &Attachment| {
                let mut t = format!(
                    "{kind} {} {} {} {} {}",
                    n(a.image),
                    a.range,
                    a.layout,
                    a.load.keyword(),
                    a.store.keyword()
                );
                if let Some((ri, rr, rl)) = a.resolve {
                    t.push_str(&format!(" resolve {} {rr} {rl}", n(ri)));
                }
                t
            };
            let parts: Vec<String> = r
                .colors
                .iter()
                .map(|a| att("color", a))
                .chain(r.depth.iter().map(|a| att("depth", a)))
                .collect();
            let flags = match (r.resuming, r.suspending) {
                (false, false) => "",
                (true, false) => " resuming",
                (false, true) => " suspending",
                (true, true) => " resuming suspending",
            };
            let mut flags = flags.to_string();
            if let Some([x, y, w, h]) = r.render_area {
                flags.push_str(&format!(" renderArea={x},{y},{w},{h}"));
            }
            if let Some(n) = r.layer_count {
                flags.push_str(&format!(" layerCount={n}"));
            }
            if r.view_mask != 0 {
                flags.push_str(&format!(" viewMask={}", r.view_mask));
            }
            format!("{k}{flags} {}", parts.join(" ; "))
        }
        RenderOp::Draw(d) => {
            let mut t = k.to_string();
            match d.kind {
                DrawKind::Draw {
                    vertex_count,
                    instance_count,
                    first_vertex,
                    first_instance,
                } => t.push_str(&format!(
                    " vertexCount={vertex_count} instanceCount={instance_count} firstVertex={first_vertex} firstInstance={first_instance}"
                )),
                DrawKind::DrawIndexed {
                    index_count,
                    instance_count,
                    first_index,
                    first_instance,
                } => t.push_str(&format!(
                    " indexCount={index_count} instanceCount={instance_count} firstIndex={first_index} firstInstance={first_instance}"
                )),
                DrawKind::Indirect {
                    buffer,
                    offset,
                    draw_count,
                    stride,
                    ..
                } => t.push_str(&format!(" {} offset={offset} drawCount={draw_count} stride={stride}", n(buffer))),
                DrawKind::IndirectCount {
                    indexed,
                    buffer,
                    offset,
                    count_buffer,
                    count_offset,
                    max_draw_count,
                    stride,
                } => {
                    t.push_str(&format!(
                        " {} {} offset={offset} countOffset={count_offset} maxDrawCount={max_draw_count} stride={stride}",
                        n(buffer),
                        n(count_buffer)
                    ));
                    if indexed {
                        t.push_str(" indexed");
                    }
                }
            }
            for v in &d.vertex {
                let rate = match v.rate {
                    VertexRate::Vertex => "vertex",
                    VertexRate::Instance => "instance",
                };
                t.push_str(&format!(" {rate} {} {} {}", n(v.buffer), v.offset, v.stride));
            }
            if let Some(i) = d.index {
                t.push_str(&format!(
                    " index {} {} {}",
                    n(i.buffer),
                    i.offset,
                    i.index_type.keyword()
                ));
            }
            for b in &d.bindings {
                t.push_str(&format!(
                    " {} {}",
                    b.stage.keyword(),
                    binding_text(program, &b.binding)
                ));
            }
            for (on, word) in [
                (d.blend, "blend"),
                (!d.color_write, "no-color-write"),
                (d.depth_test, "depth-test"),
                (d.depth_write, "depth-write"),
            ] {
                if on {
                    t.push(' ');
                    t.push_str(word);
                }
            }
            t
        }
    }
}

/// The `render-pass` declaration line of a render pass (without the
/// newline): every parameter written.
pub fn render_pass_text(rp: &RenderPass) -> String {
    let mut parts = Vec::new();
    for a in &rp.attachments {
        let mut t = format!(
            "attachment {} {} {}",
            a.format.name(),
            a.load.keyword(),
            a.store.keyword()
        );
        if let Some((l, s)) = a.stencil {
            let _ = write!(t, " stencil {} {}", l.keyword(), s.keyword());
        }
        let _ = write!(t, " {}->{}", a.initial, a.final_layout);
        parts.push(t);
    }
    for sp in &rp.subpasses {
        let mut t = "subpass".to_string();
        if sp.view_mask != 0 {
            let _ = write!(t, " viewMask={}", sp.view_mask);
        }
        for r in &sp.inputs {
            let _ = write!(t, " input {} {}", r.attachment, r.layout);
        }
        for c in &sp.colors {
            match c.color {
                Some(r) => {
                    let _ = write!(t, " color {} {}", r.attachment, r.layout);
                }
                None => t.push_str(" color unused"),
            }
            if let Some(r) = c.resolve {
                let _ = write!(t, " resolve {} {}", r.attachment, r.layout);
            }
        }
        if let Some(r) = sp.depth {
            let _ = write!(t, " depth {} {}", r.attachment, r.layout);
        }
        for p in &sp.preserve {
            let _ = write!(t, " preserve {p}");
        }
        parts.push(t);
    }
    for d in &rp.dependencies {
        parts.push(format!("dependency {d}"));
    }
    format!("render-pass {} {}", rp.name, parts.join(" ; "))
}

/// Prints one rendering command as a trace line (without the newline), as
/// [`print_command`] does for the command the program makes of it: for a
/// writer that holds a draw the program cannot hold yet (the capture's
/// draws inside a render pass it writes as text).
pub fn print_render_op(program: &Program, op: &RenderOp) -> String {
    render_command_text(program, op)
}

/// Prints one command as a trace line (without the newline).
pub fn print_command(program: &Program, c: &Command) -> String {
    let r = |reg: &Region| program.show_region(*reg);
    match c {
        // `?` for an id that is not this program's, as in `show_region`.
        Command::Alloc { blob } => match program.object(*blob) {
            Some(o) => {
                let pool = match o.kind {
                    ObjectKind::Blob { pool } => program.object(pool).map_or("?", |p| p.name.as_str()),
                    _ => "?",
                };
                format!("alloc {} {} from {}", o.name, o.size, pool)
            }
            None => "alloc ?".to_string(),
        },
        Command::Free { blob } => format!("free {}", program.object(*blob).map_or("?", |o| o.name.as_str())),
        Command::Copy { src, dst } => format!("copy {} -> {}", r(src), r(dst)),
        Command::CopyImage { kind, src, dst } => format!("{} {} -> {}", kind.keyword(), r(src), r(dst)),
        Command::Image(ic) => image_command_text(program, &ic.op),
        Command::Render(rc) => render_command_text(program, &rc.op),
        Command::Fill { dst, value } => format!("fill {} {}", r(dst), value),
        Command::Update { dst, value } => format!("update {} {}", r(dst), value),
        Command::HostWrite { dst, value } => format!("host-write {} {}", r(dst), value),
        Command::HostRead { src } => format!("host-read {}", r(src)),
        Command::Dispatch {
            kernel,
            params,
            bindings,
            indirect,
        } => {
            let mut s = format!("dispatch {kernel}");
            if !params.is_empty() {
                let ps: Vec<String> = params.iter().map(|p| p.to_string()).collect();
                let _ = write!(s, "({})", ps.join(","));
            }
            if let Some(ind) = indirect {
                let _ = write!(s, " indirect {}", r(ind));
            }
            for b in bindings {
                let _ = write!(s, " {}", binding_text(program, b));
            }
            s
        }
        Command::Barrier(dep) => {
            if dep.barriers.is_empty() {
                "barrier".to_string()
            } else {
                format!("barrier {}", dependency_text(program, dep))
            }
        }
        Command::Submit(sub) => {
            let mut s = "submit".to_string();
            // The queue is named whenever queues are declared, so that the
            // line says where it goes; `submit` alone is the implicit queue.
            if !program.queues.is_empty() || sub.queue != QueueId(0) {
                let _ = write!(s, " {}", program.queue_name(sub.queue));
            }
            let value = |v: Option<u64>| v.map(|v| format!(":{v}")).unwrap_or_default();
            for w in &sub.waits {
                let _ = write!(
                    s,
                    " wait {}{}@{}",
                    program.semaphore_name(w.semaphore),
                    value(w.value),
                    w.stages
                );
            }
            for sig in &sub.signals {
                let _ = write!(
                    s,
                    " signal {}{}",
                    program.semaphore_name(sig.semaphore),
                    value(sig.value)
                );
                if sig.stages != PipelineStageFlags2::ALL_COMMANDS {
                    let _ = write!(s, "@{}", sig.stages);
                }
            }
            s
        }
        Command::Wait(WaitFor::All) => "wait".to_string(),
        Command::Wait(WaitFor::Queue(q)) => format!("wait {}", program.queue_name(*q)),
        Command::HostSignal { semaphore, value } => {
            format!("host-signal {} {value}", program.semaphore_name(*semaphore))
        }
        Command::HostWait { semaphore, value } => {
            format!("host-wait {} {value}", program.semaphore_name(*semaphore))
        }
        Command::SetEvent { event, dependency } => {
            format!(
                "set-event {} {}",
                program.event_name(*event),
                dependency_text(program, dependency)
            )
        }
        // `, ` between events: no barrier's text contains a comma.
        Command::WaitEvents { waits } => {
            let parts: Vec<String> = waits
                .iter()
                .map(|w| {
                    format!(
                        "{} {}",
                        program.event_name(w.event),
                        dependency_text(program, &w.dependency)
                    )
                })
                .collect();
            format!("wait-events {}", parts.join(", "))
        }
        Command::SetEvent1 { event, stage_mask } => {
            format!("set-event1 {} {stage_mask}", program.event_name(*event))
        }
        // The events, then the barriers: an event name has no `:`, a
        // barrier's first token always has one.
        Command::WaitEvents1 { events, dependency } => {
            let names: Vec<&str> = events.iter().map(|e| program.event_name(*e)).collect();
            format!(
                "wait-events1 {} {}",
                names.join(" "),
                dependency_text(program, dependency)
            )
        }
        Command::ResetEvent { event, stages } => {
            format!("reset-event {} {stages}", program.event_name(*event))
        }
        Command::HostSetEvent { event } => format!("host-set-event {}", program.event_name(*event)),
        Command::HostResetEvent { event } => format!("host-reset-event {}", program.event_name(*event)),
    }
}

/// A descriptor binding as the trace writes it, in a dispatch or after a
/// draw's `vs`/`fs`: `ACCESS REGION`, or for a view binding `ACCESS IMAGE
/// RANGE [LAYOUT]` (its subresource range, the inverse of the one byte
/// range the parser made of it).
fn binding_text(program: &Program, b: &crate::ir::program::Binding) -> String {
    match (b.access, program.image(b.region.object)) {
        (access, Some(d)) if access.is_image() => {
            let range = view_range(d, b.region.range).unwrap_or_default();
            let name = program.object(b.region.object).map_or("?", |o| o.name.as_str());
            let mut s = format!("{} {name} {range}", access.keyword());
            if let BindingAccess::SampledImage(layout) = access {
                let _ = write!(s, " {layout}");
            }
            s
        }
        _ => format!("{} {}", b.access.keyword(), program.show_region(b.region)),
    }
}
