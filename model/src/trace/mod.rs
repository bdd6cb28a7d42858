//! The trace format: a line-oriented, human-writable text form of a
//! [`crate::Program`], parsed and printed losslessly.
//!
//! This module owns the grammar (documented in `docs/trace-format.md`,
//! including `transition` after a barrier's region, an image layout
//! transition), the
//! lexer and parser with `LINE:COL` errors, and the printer. It is pure
//! (strings in, strings out): reading files is the CLI's job. Parsing
//! resolves names and checks the syntax, the flag names and the
//! declarations; the program's semantic validity (bounds, lifetimes,
//! alignment) is checked by [`crate::resolve`], whose errors the
//! caller can place on a line with [`Trace::line_of`].
//!
//! Invariants:
//!
//! - [`parse`] never panics and takes time linear in the size of its input:
//!   each line is split into tokens in one pass that also records their
//!   columns, each token is looked at a bounded number of times, names are
//!   looked up in a hash map, and error text is only built on the error
//!   path.
//! - Every rejection is a [`ParseError`] with a 1-based line and column.
//!   Outside comments a trace is ASCII (anything else is an error), so a
//!   column is also the byte offset in the line plus one; inside comments
//!   columns count characters.
//! - For every program that [`parse`] returns, `parse(&print(&program))`
//!   returns an equal program. The lexical rules keep this true: every name
//!   the parser accepts is one the printer writes back verbatim in a
//!   position where it reads as the same name (no empty names, no
//!   characters outside `[A-Za-z0-9_.-]`, no kernel named like a binding
//!   keyword), and numbers are printed in plain decimal.

mod parse;
mod print;

pub use parse::{parse, NotModelled, ParseError, Trace, DEFAULT_POOL_ALIGN};
pub use print::{print, print_annotated, print_command, print_render_op, Annotations, Writer};
