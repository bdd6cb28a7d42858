//! The trace format: a line-oriented, human-writable text form of a
//! [`Program`], parsed and printed losslessly.
//!
//! This module owns the grammar (documented in `docs/trace-format.md`), the
//! parser with `LINE:COL` errors, and the printer. It is pure (strings in,
//! strings out): reading files is the CLI's job. Parsing resolves names and
//! checks the syntax, the flag names and the declarations; the program's
//! semantic validity (bounds, lifetimes, alignment) is checked by
//! [`crate::ir::layout::resolve`], whose errors the caller can place on a line
//! with [`Trace::line_of`].

use crate::ir::layout::Location;
use crate::ir::program::{
    Barrier, Binding, BindingAccess, ByteRange, Command, Dependency, ObjectId, ObjectKind, Program, Region,
};
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use std::fmt::Write as _;

/// A parsed trace: the program and where each piece came from.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Trace {
    pub program: Program,
    /// 1-based line of each command.
    pub command_lines: Vec<usize>,
    /// 1-based line of each object's declaration (a blob's `alloc`).
    pub object_lines: Vec<usize>,
}

impl Trace {
    /// The line of a location, if known.
    pub fn line_of(&self, at: Location) -> Option<usize> {
        match at {
            Location::Command(i) => self.command_lines.get(i).copied(),
            Location::Object(o) => self.object_lines.get(o.0 as usize).copied(),
        }
    }
}

/// A syntax error with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct ParseError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// The default alignment of blob offsets in a pool: a multiple of every
/// `minStorageBufferOffsetAlignment` seen on desktop and CPU drivers.
pub const DEFAULT_POOL_ALIGN: u64 = 64;

#[derive(Clone, Copy)]
struct Tok<'a> {
    text: &'a str,
    col: usize,
}

struct Line<'a> {
    no: usize,
    toks: Vec<Tok<'a>>,
    pos: usize,
    end_col: usize,
}

impl<'a> Line<'a> {
    fn err<T>(&self, col: usize, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            line: self.no,
            col,
            message: message.into(),
        })
    }
    fn next(&mut self, what: &str) -> Result<Tok<'a>, ParseError> {
        if self.pos < self.toks.len() {
            self.pos += 1;
            Ok(self.toks[self.pos - 1])
        } else {
            self.err(self.end_col, format!("expected {what}, found end of line"))
        }
    }
    fn peek(&self) -> Option<&Tok<'a>> {
        self.toks.get(self.pos)
    }
    fn expect(&mut self, word: &str) -> Result<(), ParseError> {
        let t = self.next(&format!("`{word}`"))?;
        if t.text == word {
            Ok(())
        } else {
            let (col, text) = (t.col, t.text.to_string());
            self.err(col, format!("expected `{word}`, found `{text}`"))
        }
    }
    fn done(&self) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(t) => self.err(t.col, format!("unexpected `{}`", t.text)),
        }
    }
}

fn tokenize(no: usize, raw: &str) -> Line<'_> {
    let text = match raw.find('#') {
        Some(i) => &raw[..i],
        None => raw,
    };
    let mut toks = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        if ch.is_whitespace() {
            if let Some(s) = start.take() {
                toks.push(Tok {
                    text: &text[s..i],
                    col: text[..s].chars().count() + 1,
                });
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        toks.push(Tok {
            text: &text[s..],
            col: text[..s].chars().count() + 1,
        });
    }
    Line {
        no,
        toks,
        pos: 0,
        end_col: text.trim_end().chars().count() + 1,
    }
}

fn parse_num(text: &str) -> Option<u64> {
    let t = text.replace('_', "");
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        t.parse().ok()
    } else {
        None
    }
}

struct Parser {
    trace: Trace,
    /// Object ids by name: traces of real workloads declare tens of
    /// thousands of blobs, and a linear search made parsing quadratic.
    names: std::collections::HashMap<String, ObjectId>,
}

impl Parser {
    fn num(&self, line: &Line, tok: Tok, what: &str) -> Result<u64, ParseError> {
        parse_num(tok.text).map_or_else(
            || {
                line.err(
                    tok.col,
                    format!("expected {what} (decimal or 0x hex), found `{}`", tok.text),
                )
            },
            Ok,
        )
    }

    fn u32_value(&self, line: &Line, tok: Tok) -> Result<u32, ParseError> {
        let v = self.num(line, tok, "a 32-bit value")?;
        u32::try_from(v).or_else(|_| line.err(tok.col, format!("value {v} does not fit in 32 bits")))
    }

    fn object(&self, line: &Line, name: &str, col: usize) -> Result<ObjectId, ParseError> {
        self.names.get(name).copied().map_or_else(
            || line.err(col, format!("unknown buffer, pool or blob `{name}`")),
            Ok,
        )
    }

    /// `NAME[A..B]` or `NAME` (the whole object).
    fn region(&self, line: &Line, tok: Tok) -> Result<Region, ParseError> {
        let text = tok.text;
        let Some(open) = text.find('[') else {
            let id = self.object(line, text, tok.col)?;
            return Ok(self.trace.program.whole(id));
        };
        let name = &text[..open];
        let id = self.object(line, name, tok.col)?;
        let inner_col = tok.col + name.chars().count() + 1;
        let Some(inner) = text[open + 1..].strip_suffix(']') else {
            return line.err(tok.col + text.chars().count(), "expected `]` to close the range");
        };
        let Some((a, b)) = inner.split_once("..") else {
            return line.err(
                inner_col,
                format!("expected a range `START..END`, found `{inner}`"),
            );
        };
        let start = parse_num(a).map_or_else(
            || line.err(inner_col, format!("expected a byte offset, found `{a}`")),
            Ok,
        )?;
        let end_col = inner_col + a.chars().count() + 2;
        let end = parse_num(b).map_or_else(
            || line.err(end_col, format!("expected a byte offset, found `{b}`")),
            Ok,
        )?;
        if end < start {
            return line.err(inner_col, format!("range {start}..{end} ends before it starts"));
        }
        Ok(Region {
            object: id,
            range: ByteRange::new(start, end),
        })
    }

    fn declare(&mut self, line: &Line, tok: Tok) -> Result<String, ParseError> {
        let name = tok.text;
        let valid = name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
            && name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        if !valid {
            return line.err(
                tok.col,
                format!(
                    "invalid name `{name}`: use letters, digits, `_`, `-` and `.`, starting with a letter"
                ),
            );
        }
        if self.names.contains_key(name) {
            return line.err(tok.col, format!("`{name}` is already declared"));
        }
        Ok(name.to_string())
    }

    fn add_object(&mut self, line_no: usize) {
        self.trace.object_lines.push(line_no);
        let id = ObjectId(self.trace.program.objects.len() as u32 - 1);
        let name = self.trace.program.objects[id.0 as usize].name.clone();
        self.names.insert(name, id);
    }

    fn push(&mut self, line_no: usize, c: Command) {
        self.trace.program.commands.push(c);
        self.trace.command_lines.push(line_no);
    }

    fn barrier_part(&self, line: &Line, toks: &[&Tok]) -> Result<Barrier, ParseError> {
        // SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION]
        let side = |tok: Tok| -> Result<(PipelineStageFlags2, AccessFlags2), ParseError> {
            let Some((st, ac)) = tok.text.split_once(':') else {
                return line.err(tok.col, format!("expected `STAGES:ACCESS`, found `{}`", tok.text));
            };
            let stages = PipelineStageFlags2::parse(st).or_else(|e| line.err(tok.col, e.to_string()))?;
            let access = AccessFlags2::parse(ac)
                .or_else(|e| line.err(tok.col + st.chars().count() + 1, e.to_string()))?;
            Ok((stages, access))
        };
        if toks.len() < 3 {
            let col = toks
                .last()
                .map_or(line.end_col, |t| t.col + t.text.chars().count());
            return line.err(
                col,
                "expected `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION]`",
            );
        }
        let (ss, sa) = side(*toks[0])?;
        if toks[1].text != "->" {
            return line.err(toks[1].col, format!("expected `->`, found `{}`", toks[1].text));
        }
        let (ds, da) = side(*toks[2])?;
        let region = match toks.get(3) {
            Some(t) => Some(self.region(line, **t)?),
            None => None,
        };
        if let Some(t) = toks.get(4) {
            return line.err(t.col, format!("unexpected `{}`", t.text));
        }
        Ok(Barrier {
            src_stage_mask: ss,
            src_access_mask: sa,
            dst_stage_mask: ds,
            dst_access_mask: da,
            region,
        })
    }

    fn line(&mut self, mut line: Line) -> Result<(), ParseError> {
        let Some(first) = line.peek() else {
            return Ok(());
        };
        let (kw, kw_col) = (first.text, first.col);
        line.pos += 1;
        let no = line.no;
        match kw {
            "buffer" | "pool" => {
                let name_tok = line.next("a name")?;
                let (name_text, name_col) = (name_tok.text, name_tok.col);
                let name = self.declare(
                    &line,
                    Tok {
                        text: name_text,
                        col: name_col,
                    },
                )?;
                let size_tok = line.next("a size in bytes")?;
                let size = self.num(&line, size_tok, "a size in bytes")?;
                let kind = if kw == "pool" {
                    let mut align = DEFAULT_POOL_ALIGN;
                    if line.peek().is_some() {
                        line.expect("align")?;
                        let t = line.next("an alignment")?;
                        align = self.num(&line, t, "an alignment")?;
                    }
                    ObjectKind::Pool { align }
                } else if line.peek().is_some() {
                    line.expect("alias")?;
                    let t = line.next("the aliased buffer or pool")?;
                    let other = self.object(&line, t.text, t.col)?;
                    let t = line.next("an offset")?;
                    let off = self.num(&line, t, "an offset")?;
                    ObjectKind::Buffer {
                        alias: Some((other, off)),
                    }
                } else {
                    ObjectKind::Buffer { alias: None }
                };
                line.done()?;
                self.trace
                    .program
                    .objects
                    .push(crate::ir::program::Object { name, size, kind });
                self.add_object(no);
            }
            "alloc" => {
                let name_tok = line.next("a blob name")?;
                let (name_text, name_col) = (name_tok.text, name_tok.col);
                let name = self.declare(
                    &line,
                    Tok {
                        text: name_text,
                        col: name_col,
                    },
                )?;
                let size_tok = line.next("a size in bytes")?;
                let size = self.num(&line, size_tok, "a size in bytes")?;
                line.expect("from")?;
                let t = line.next("a pool")?;
                let pool = self.object(&line, t.text, t.col)?;
                if !matches!(self.trace.program.object(pool).kind, ObjectKind::Pool { .. }) {
                    return line.err(t.col, format!("`{}` is not a pool", t.text));
                }
                line.done()?;
                self.trace.program.objects.push(crate::ir::program::Object {
                    name,
                    size,
                    kind: ObjectKind::Blob { pool },
                });
                self.add_object(no);
                let blob = ObjectId(self.trace.program.objects.len() as u32 - 1);
                self.push(no, Command::Alloc { blob });
            }
            "free" => {
                let t = line.next("a blob")?;
                let blob = self.object(&line, t.text, t.col)?;
                if !matches!(self.trace.program.object(blob).kind, ObjectKind::Blob { .. }) {
                    return line.err(t.col, format!("`{}` is not a blob; only blobs are freed", t.text));
                }
                line.done()?;
                self.push(no, Command::Free { blob });
            }
            "copy" => {
                let t = line.next("a source region")?;
                let src = self.region(&line, t)?;
                line.expect("->")?;
                let t = line.next("a destination region")?;
                let dst = self.region(&line, t)?;
                line.done()?;
                self.push(no, Command::Copy { src, dst });
            }
            "fill" | "update" | "host-write" => {
                let t = line.next("a region")?;
                let dst = self.region(&line, t)?;
                let value = match line.peek() {
                    Some(_) => {
                        let t = line.next("a value")?;
                        self.u32_value(&line, t)?
                    }
                    None if kw == "fill" => return line.err(line.end_col, "expected a fill value"),
                    None => 0,
                };
                line.done()?;
                let c = match kw {
                    "fill" => Command::Fill { dst, value },
                    "update" => Command::Update { dst, value },
                    _ => Command::HostWrite { dst, value },
                };
                self.push(no, c);
            }
            "host-read" => {
                let t = line.next("a region")?;
                let src = self.region(&line, t)?;
                line.done()?;
                self.push(no, Command::HostRead { src });
            }
            "dispatch" => {
                let t = line.next("a kernel name")?;
                let (kernel, params) = parse_kernel(&line, t)?;
                let mut bindings = Vec::new();
                let mut indirect = None;
                while let Some(t) = line.peek() {
                    let (word, col) = (t.text, t.col);
                    line.pos += 1;
                    let access = match word {
                        "read" => BindingAccess::Read,
                        "write" => BindingAccess::Write,
                        "rw" => BindingAccess::ReadWrite,
                        "indirect" => {
                            let t = line.next("the indirect arguments region")?;
                            if indirect.is_some() {
                                return line.err(col, "a dispatch has at most one `indirect` region");
                            }
                            indirect = Some(self.region(&line, t)?);
                            continue;
                        }
                        other => {
                            return line.err(
                                col,
                                format!("expected `read`, `write`, `rw` or `indirect`, found `{other}`"),
                            )
                        }
                    };
                    let t = line.next("a region")?;
                    let region = self.region(&line, t)?;
                    bindings.push(Binding { access, region });
                }
                if bindings.is_empty() {
                    return line.err(
                        line.end_col,
                        "a dispatch needs at least one `read`, `write` or `rw` binding",
                    );
                }
                self.push(
                    no,
                    Command::Dispatch {
                        kernel,
                        params,
                        bindings,
                        indirect,
                    },
                );
            }
            "barrier" => {
                let rest: Vec<Tok> = line.toks[line.pos..].to_vec();
                let mut barriers = Vec::new();
                // `barrier` alone is a vkCmdPipelineBarrier2 with no barrier
                // (what removing the last barrier of a call leaves; a no-op).
                if rest.is_empty() {
                    self.push(no, Command::Barrier(Dependency { barriers }));
                    return Ok(());
                }
                // Barriers of one vkCmdPipelineBarrier2 are separated by `;`
                // (standing alone or glued to the end of a token).
                let mut group: Vec<Tok> = Vec::new();
                let mut groups: Vec<Vec<Tok>> = Vec::new();
                for t in rest {
                    if t.text == ";" {
                        groups.push(std::mem::take(&mut group));
                    } else if let Some(stripped) = t.text.strip_suffix(';') {
                        group.push(Tok {
                            text: stripped,
                            col: t.col,
                        });
                        groups.push(std::mem::take(&mut group));
                    } else {
                        group.push(Tok {
                            text: t.text,
                            col: t.col,
                        });
                    }
                }
                groups.push(group);
                for g in &groups {
                    let refs: Vec<&Tok> = g.iter().collect();
                    barriers.push(self.barrier_part(&line, &refs)?);
                }
                self.push(no, Command::Barrier(Dependency { barriers }));
            }
            "submit" | "wait" => {
                line.done()?;
                self.push(
                    no,
                    if kw == "submit" {
                        Command::Submit
                    } else {
                        Command::Wait
                    },
                );
            }
            other => {
                return line.err(
                    kw_col,
                    format!(
                        "unknown command `{other}` (expected buffer, pool, alloc, free, copy, fill, update, \
                         dispatch, barrier, host-write, host-read, submit or wait)"
                    ),
                )
            }
        }
        Ok(())
    }
}

/// `NAME` or `NAME(P1,P2,...)`.
fn parse_kernel(line: &Line, t: Tok) -> Result<(String, Vec<u32>), ParseError> {
    let text = t.text;
    let Some(open) = text.find('(') else {
        return Ok((text.to_string(), vec![]));
    };
    let name = &text[..open];
    let Some(inner) = text[open + 1..].strip_suffix(')') else {
        return line.err(
            t.col + text.chars().count(),
            "expected `)` to close the kernel parameters",
        );
    };
    let mut params = Vec::new();
    let mut col = t.col + open + 1;
    if !inner.is_empty() {
        for p in inner.split(',') {
            let v = parse_num(p).and_then(|v| u32::try_from(v).ok());
            match v {
                Some(v) => params.push(v),
                None => return line.err(col, format!("expected a 32-bit kernel parameter, found `{p}`")),
            }
            col += p.chars().count() + 1;
        }
    }
    Ok((name.to_string(), params))
}

/// Parses a trace.
pub fn parse(text: &str) -> Result<Trace, ParseError> {
    let mut p = Parser {
        trace: Trace::default(),
        names: std::collections::HashMap::new(),
    };
    for (i, raw) in text.lines().enumerate() {
        p.line(tokenize(i + 1, raw))?;
    }
    Ok(p.trace)
}

/// Prints a program as a trace that [`parse`] reads back to an equal
/// program. Buffers and pools are declared in object order, each just
/// before the first blob declared after it is allocated, so object ids
/// survive the round trip; blob declarations are their `alloc` lines. A
/// blob the commands never allocate cannot be written in the trace format
/// and is left out.
pub fn print(program: &Program) -> String {
    let mut out = String::new();
    let mut next = 0usize;
    let declare_until = |out: &mut String, next: &mut usize, stop: usize| {
        while *next < stop.min(program.objects.len()) {
            let o = &program.objects[*next];
            match &o.kind {
                ObjectKind::Buffer { alias: None } => {
                    let _ = writeln!(out, "buffer {} {}", o.name, o.size);
                }
                ObjectKind::Buffer {
                    alias: Some((other, off)),
                } => {
                    let _ = writeln!(
                        out,
                        "buffer {} {} alias {} {}",
                        o.name,
                        o.size,
                        program.object(*other).name,
                        off
                    );
                }
                ObjectKind::Pool { align } => {
                    let _ = if *align == DEFAULT_POOL_ALIGN {
                        writeln!(out, "pool {} {}", o.name, o.size)
                    } else {
                        writeln!(out, "pool {} {} align {}", o.name, o.size, align)
                    };
                }
                ObjectKind::Blob { .. } => {}
            }
            *next += 1;
        }
    };
    // Declarations up to the first blob come first.
    let first_blob = program
        .objects
        .iter()
        .position(|o| matches!(o.kind, ObjectKind::Blob { .. }))
        .unwrap_or(program.objects.len());
    declare_until(&mut out, &mut next, first_blob);
    for c in &program.commands {
        out.push_str(&print_command(program, c));
        out.push('\n');
        if let Command::Alloc { blob } = c {
            if blob.0 as usize + 1 > next {
                next = blob.0 as usize + 1;
                // Declarations after this blob, up to the next blob.
                let stop = program.objects[next..]
                    .iter()
                    .position(|o| matches!(o.kind, ObjectKind::Blob { .. }))
                    .map_or(program.objects.len(), |i| next + i);
                declare_until(&mut out, &mut next, stop);
            }
        }
    }
    declare_until(&mut out, &mut next, program.objects.len());
    out
}

/// Prints one command as a trace line (without the newline).
pub fn print_command(program: &Program, c: &Command) -> String {
    let r = |reg: &Region| program.show_region(*reg);
    match c {
        Command::Alloc { blob } => {
            let o = program.object(*blob);
            let pool = match o.kind {
                ObjectKind::Blob { pool } => program.object(pool).name.as_str(),
                _ => "?",
            };
            format!("alloc {} {} from {}", o.name, o.size, pool)
        }
        Command::Free { blob } => format!("free {}", program.object(*blob).name),
        Command::Copy { src, dst } => format!("copy {} -> {}", r(src), r(dst)),
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
                let _ = write!(s, " {} {}", b.access.keyword(), r(&b.region));
            }
            s
        }
        Command::Barrier(dep) => {
            let parts: Vec<String> = dep.barriers.iter().map(|b| b.describe(program)).collect();
            if parts.is_empty() {
                "barrier".to_string()
            } else {
                format!("barrier {}", parts.join("; "))
            }
        }
        Command::Submit => "submit".to_string(),
        Command::Wait => "wait".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
# a comment
buffer a 256
buffer b 0x100
buffer c 64 alias a 128
pool p 4096 align 256
alloc x 100 from p
copy a[0..64] -> b[64..128]
fill b[0..16] 7
update a[0..8] 3
dispatch scale_add(2,3) indirect b[0..12] read a[0..64] write b[128..192] rw c[0..64]
barrier COPY|COMPUTE_SHADER:TRANSFER_WRITE|SHADER_WRITE -> COMPUTE_SHADER:SHADER_READ a[0..64]; COPY:NONE -> CLEAR:NONE
host-write x[0..100] 9
submit
wait
host-read b[0..256]
free x
";

    #[test]
    fn declarations_after_allocs_keep_their_ids() {
        // Found by the parser fuzz target (fuzz/regressions/).
        let text =
            "pool p 256\nalloc x 4 from p\nbuffer b 16\nfill b[0..4] 1\nalloc y 4 from p\nbuffer c 8\n";
        let t = parse(text).unwrap();
        let again = parse(&print(&t.program)).unwrap();
        assert_eq!(again.program, t.program);
    }

    #[test]
    fn round_trips() {
        let t = parse(SAMPLE).unwrap();
        assert_eq!(t.program.commands.len(), 11);
        assert_eq!(t.command_lines[0], 6);
        let printed = print(&t.program);
        let again = parse(&printed).unwrap();
        assert_eq!(again.program, t.program);
        assert_eq!(print(&again.program), printed);
    }

    fn check_err(text: &str, expected: &str) {
        let got = parse(text).map(|_| ()).map_err(|e| e.to_string());
        assert_eq!(got, Err(expected.to_string()), "for {text:?}");
    }

    #[test]
    fn errors_name_line_column_and_reason() {
        check_err("buffer a 16\nfrob a", "2:1: unknown command `frob` (expected buffer, pool, alloc, free, copy, fill, update, dispatch, barrier, host-write, host-read, submit or wait)");
        check_err(
            "buffer a 16\nfill z[0..4] 1",
            "2:6: unknown buffer, pool or blob `z`",
        );
        check_err(
            "buffer a 16\nfill a[0..x] 1",
            "2:11: expected a byte offset, found `x`",
        );
        check_err(
            "buffer a 16\nfill a[8..4] 1",
            "2:8: range 8..4 ends before it starts",
        );
        check_err(
            "buffer a 16\nfill a[0..4",
            "2:12: expected `]` to close the range",
        );
        check_err(
            "buffer a 16\nbarrier COPY:TRANSFER_WRITE -> COMPUTE:SHADER_READ",
            "2:32: unknown stage flag `COMPUTE`",
        );
        check_err(
            "buffer a 16\nbarrier COPY:TRANSFER_WRIT -> COPY:NONE",
            "2:14: unknown access flag `TRANSFER_WRIT`",
        );
        check_err(
            "buffer a 16\nbarrier COPY:NONE",
            "2:18: expected `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION]`",
        );
        check_err("buffer a 16\nbuffer a 32", "2:8: `a` is already declared");
        check_err(
            "buffer a 16\ndispatch k",
            "2:11: a dispatch needs at least one `read`, `write` or `rw` binding",
        );
        check_err(
            "buffer a 16\ndispatch k reed a",
            "2:12: expected `read`, `write`, `rw` or `indirect`, found `reed`",
        );
        check_err(
            "buffer a 16\nfill a 0x1_0000_0000",
            "2:8: value 4294967296 does not fit in 32 bits",
        );
        check_err(
            "buffer a 16\nfree a",
            "2:6: `a` is not a blob; only blobs are freed",
        );
        check_err("buffer a 16\nsubmit now", "2:8: unexpected `now`");
        check_err(
            "buffer 1a 16",
            "1:8: invalid name `1a`: use letters, digits, `_`, `-` and `.`, starting with a letter",
        );
    }
}
