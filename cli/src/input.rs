//! Reading a trace file into a checked program, with every failure turned
//! into one `FILE:LINE:COL: error: reason` message.
//!
//! This module owns the CLI's input errors. Syntax errors come from the
//! model's parser with their line and column; semantic errors (bounds,
//! lifetimes, alignment, barrier scopes) come from `vksync::resolve` with a
//! command or object location, which is mapped back to a source line here.
//! The model does not know columns for semantic errors, so the column is
//! that of the first token naming the object the error is about, or 1.

use std::fmt;
use std::io::Read as _;
use std::path::Path;
use vksync::trace::{self, Trace};
use vksync::{Location, ProgramError, ProgramErrorKind};

/// Why a trace could not be used. Every variant renders as one line that
/// starts with the file name, so editors and CI logs can jump to it.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{file}: error: cannot read: {source}")]
    Read {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}:{line}:{col}: error: {message}")]
    Syntax {
        file: String,
        line: usize,
        col: usize,
        message: String,
    },
    #[error("{}: error: {message}", at(file, *line, *col))]
    Program {
        file: String,
        line: Option<usize>,
        col: usize,
        /// The error's message, any other command it names by its line.
        message: String,
        // Boxed: the model's error carries names and ranges, and the Ok
        // side of every `Result` here is small.
        #[source]
        source: Box<ProgramError>,
    },
}

fn at(file: &str, line: Option<usize>, col: usize) -> String {
    match line {
        Some(l) => format!("{file}:{l}:{col}"),
        None => file.to_string(),
    }
}

/// A trace file that parsed and resolved: what every subcommand starts from.
pub struct Source {
    /// The name used in messages (`<stdin>` for `-`).
    pub name: String,
    pub text: String,
    pub trace: Trace,
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Source")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Source {
    /// Reads `path` (`-` for standard input), parses and resolves it.
    /// One `FILE:LINE: note: not modelled: ...` line per `not-modelled`
    /// line of the trace (what a capture saw and the model cannot
    /// express), for stderr: every subcommand shows them.
    pub fn not_modelled_notes(&self) -> Vec<String> {
        self.trace
            .not_modelled
            .iter()
            .map(|n| {
                let sep = if n.detail.is_empty() { "" } else { " " };
                format!(
                    "{}:{}: note: not modelled: {}{sep}{}",
                    self.name, n.line, n.call, n.detail
                )
            })
            .collect()
    }

    pub fn load(path: &Path) -> Result<Source, InputError> {
        let (name, bytes) = if path.as_os_str() == "-" {
            let mut buf = Vec::new();
            let r = std::io::stdin().read_to_end(&mut buf);
            ("<stdin>".to_string(), r.map(|_| buf))
        } else {
            (path.display().to_string(), std::fs::read(path))
        };
        let bytes = bytes.map_err(|source| InputError::Read {
            file: name.clone(),
            source,
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            // Report where the bad byte is, like any other syntax error.
            let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
            let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let col = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
            InputError::Syntax {
                file: name.clone(),
                line,
                col,
                message: "the file is not UTF-8 text".to_string(),
            }
        })?;
        Self::from_text(name, text)
    }

    /// Parses and resolves a trace held in memory.
    pub fn from_text(name: String, text: String) -> Result<Source, InputError> {
        let trace = trace::parse(&text).map_err(|e| InputError::Syntax {
            file: name.clone(),
            line: e.line,
            col: e.col,
            message: e.message,
        })?;
        // Resolve once here so every subcommand rejects an invalid program
        // the same way, before doing any work.
        vksync::resolve(&trace.program).map_err(|e| program_error(&name, &text, &trace, e))?;
        Ok(Source { name, text, trace })
    }

    /// The source line of each command of
    /// `vksync::plan::planning_input(program)`: planners drop the input's
    /// barriers but its layout transitions, and their hazards and origins
    /// index that program.
    pub fn barrier_free_lines(&self) -> Vec<usize> {
        self.trace
            .program
            .commands()
            .iter()
            .zip(&self.trace.command_lines)
            .filter(|(c, _)| !vksync::plan::is_planned_away(c))
            .map(|(_, &l)| l)
            .collect()
    }
}

/// Places a semantic error on its line and, where the error names an
/// object, on the column of the token naming it.
pub fn program_error(file: &str, text: &str, trace: &Trace, err: ProgramError) -> InputError {
    let line = trace.line_of(err.at);
    let col = line
        .and_then(|l| text.lines().nth(l - 1))
        .and_then(|src| match named_object(&err.kind)? {
            Named::Object(name) => column_of_name(src, name, matches!(err.at, Location::Object(_))),
            Named::Destination(name) => destination_column(src, name),
        })
        .unwrap_or(1);
    // A refusal naming an earlier command (a hazard inside a rendering
    // instance) names its line.
    let message = match &err.kind {
        ProgramErrorKind::Render(r) => r.describe(&|i| trace.command_lines.get(i).copied()),
        // The other queue's transition, by its line too.
        ProgramErrorKind::Image(e) => match (e.as_ref(), err.kind.to_string()) {
            (
                vksync::ImageError::LayoutUndetermined {
                    other, other_command, ..
                },
                text,
            ) => match trace.command_lines.get(*other_command) {
                Some(l) => text.replacen(other.as_str(), &format!("{other} at line {l}"), 1),
                None => text,
            },
            (_, text) => text,
        },
        kind => kind.to_string(),
    };
    InputError::Program {
        file: file.to_string(),
        line,
        col,
        message,
        source: Box::new(err),
    }
}

/// The object an error is about, and where on its line it is named.
enum Named<'a> {
    /// The first token (after the keyword) naming it.
    Object(&'a str),
    /// A copy's destination: the first token after `->` naming it (the
    /// source may be the same object).
    Destination(&'a str),
}

/// The object an error is about, when it is about one object.
fn named_object(kind: &ProgramErrorKind) -> Option<Named<'_>> {
    use ProgramErrorKind as K;
    // A shown region is `NAME[...]`: the object's name is before `[`.
    fn object(shown: &str) -> &str {
        shown.split('[').next().unwrap_or(shown)
    }
    Some(match kind {
        K::ZeroSizeObject { name }
        | K::BadAlign { name, .. }
        | K::AliasOutOfBounds { name, .. }
        | K::AliasOfBlob { name, .. }
        | K::EmptyRange { name, .. }
        | K::OutOfBounds { name, .. }
        | K::UseBeforeAlloc { name }
        | K::UseAfterFree { name }
        | K::DoubleFree { name }
        | K::AllocTwice { name }
        | K::NotABlob { name }
        | K::PoolExhausted { name, .. } => Named::Object(name),
        K::CopyOverlap { dst, .. } => Named::Destination(object(dst)),
        K::CopyDestinationOverlap { second, .. } => Named::Destination(object(second)),
        _ => return None,
    })
}

/// The 1-based column of the first token after `->` that is `name` or
/// `name[...]`.
fn destination_column(src: &str, name: &str) -> Option<usize> {
    let code = src.split('#').next().unwrap_or("");
    let arrow = code.find("->")?;
    let before = code[..arrow].chars().count();
    // `column_of_name` skips its first token (a command's keyword): here
    // that is the `->` itself.
    column_of_name(&code[arrow..], name, false).map(|c| before + c)
}

/// The 1-based column of the first token that is `name` or `name[...]`,
/// skipping the keyword (and, for declarations, pointing at the declared
/// name itself).
fn column_of_name(src: &str, name: &str, declaration: bool) -> Option<usize> {
    let code = src.split('#').next().unwrap_or("");
    let mut col = None;
    let mut idx = 0;
    for (i, ch) in code.char_indices() {
        let starts = !ch.is_whitespace() && (i == 0 || code[..i].ends_with(char::is_whitespace));
        if !starts {
            continue;
        }
        idx += 1;
        let tok = code[i..].split(char::is_whitespace).next().unwrap_or("");
        let tok = tok.trim_end_matches(';');
        let hit = tok == name || tok.strip_prefix(name).is_some_and(|r| r.starts_with('['));
        if idx > 1 && hit {
            col = Some(code[..i].chars().count() + 1);
            break;
        }
    }
    if declaration {
        // Objects are declared as the second token.
        return col.or(Some(1));
    }
    col
}
