//! The trace printer: writes a [`Program`] as text that [`super::parse`]
//! reads back to an equal program.

use super::parse::DEFAULT_POOL_ALIGN;
use crate::ir::program::{Command, ObjectKind, Program, Region};
use std::fmt::Write as _;

/// Prints a program as a trace that [`super::parse`] reads back to an equal
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
                        program.obj(*other).name,
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
