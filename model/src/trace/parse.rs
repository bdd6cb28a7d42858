//! The trace parser: a lexer that splits each line into tokens with their
//! columns in one pass, and a parser that builds the [`Program`] through
//! the model's own declaration rules, with a [`ParseError`] at a line and
//! column for every rejection (see the module documentation of
//! [`super`] for the invariants).

use crate::ir::completion::Completion;
use crate::ir::error::ProgramErrorKind;
use crate::ir::event::{EventId, EventStates, EventWait, DEFAULT_RESET_STAGES};
use crate::ir::image::{
    view_region, BufferImageCopy, Filter, ImageBarrier, ImageBlitRegion, ImageCopyRegion, ImageDesc, ImageOp,
    SubresourceLayers, SubresourceRange, Tiling,
};
use crate::ir::layout::Location;
use crate::ir::program::{is_name, is_reserved_sync_name, BINDING_KEYWORDS};
use crate::ir::program::{
    Barrier, Binding, BindingAccess, ByteRange, Command, Dependency, ImageCopy, Object, ObjectId, ObjectKind,
    OwnershipTransfer, Program, Region, SharingMode,
};
use crate::ir::queue::{
    QueueId, SemOperand, SemaphoreId, SemaphoreSignal, SemaphoreStates, SemaphoreType, SemaphoreWait,
    Submission, WaitFor,
};
use crate::ir::render::{
    Attachment, Draw, DrawKind, IndexBuffer, IndexType, LoadOp, RenderOp, Rendering, ShaderBinding,
    ShaderStage, StoreOp, VertexBuffer, VertexRate,
};
use crate::ir::renderpass::{
    AttachmentDescription, AttachmentReference, ClearAttachments, ColorReference, PassBegin, RenderPass,
    RenderPassId, SubpassDependency, SubpassDescription, SubpassIndex,
};
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2, UnknownFlag};
use crate::vk::image::{AspectMask, Format, ImageLayout};
use std::collections::HashMap;

/// A parsed trace: the program and where each piece came from.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Trace {
    /// The program.
    pub program: Program,
    /// 1-based line of each command.
    pub command_lines: Vec<usize>,
    /// 1-based line of each object's declaration (a blob's `alloc`).
    pub object_lines: Vec<usize>,
    /// 1-based line of each queue's declaration.
    pub queue_lines: Vec<usize>,
    /// 1-based line of each semaphore's declaration.
    pub semaphore_lines: Vec<usize>,
    /// 1-based line of each event's declaration.
    pub event_lines: Vec<usize>,
    /// The `not-modelled` lines: what a capture saw and the model cannot
    /// express (an image copy, an event), in order. They are not part of
    /// the program; `vksync check` reports each, so nothing a capture saw
    /// is dropped silently.
    pub not_modelled: Vec<NotModelled>,
}

/// A `not-modelled CALL [DETAIL...]` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotModelled {
    /// Its 1-based line.
    pub line: usize,
    /// The Vulkan call (`vkCmdCopyImage`).
    pub call: String,
    /// The rest of the line, words separated by one space.
    pub detail: String,
}

impl Trace {
    /// The line of a location, if known.
    pub fn line_of(&self, at: Location) -> Option<usize> {
        match at {
            Location::Command(i) => self.command_lines.get(i).copied(),
            Location::Object(o) => self.object_lines.get(o.0 as usize).copied(),
            Location::Queue(q) => self.queue_lines.get(q.0 as usize).copied(),
            Location::Semaphore(s) => self.semaphore_lines.get(s.0 as usize).copied(),
            Location::Event(e) => self.event_lines.get(e.0 as usize).copied(),
        }
    }
}

/// A syntax error with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

/// The keyword after a barrier's region that makes it perform an image
/// layout transition.
const TRANSITION: &str = "transition";

/// The keyword after a barrier's region (and `transition`) that makes it a
/// queue family ownership transfer: `ownership SRC->DST`.
const OWNERSHIP: &str = "ownership";
/// A linear image's `VkSubresourceLayout::rowPitch`: `rowPitch=BYTES`.
const ROW_PITCH: &str = "rowPitch=";

/// The keyword that ends a `buffer` or `pool` line of a
/// `VK_SHARING_MODE_EXCLUSIVE` object.
const EXCLUSIVE: &str = "exclusive";

/// The default alignment of blob offsets in a pool: a multiple of every
/// `minStorageBufferOffsetAlignment` seen on desktop and CPU drivers.
pub const DEFAULT_POOL_ALIGN: u64 = 64;

/// At most this many characters of a token are quoted in a message, so an
/// error on a megabyte-long token is still one readable line.
const QUOTE_MAX: usize = 40;

/// A token as quoted in messages: in backticks, cut at [`QUOTE_MAX`]
/// characters.
fn quote(text: &str) -> String {
    // Tokens are ASCII, so the cut is a character boundary; `get` keeps this
    // panic-free for any text.
    match text.get(..QUOTE_MAX) {
        Some(head) if text.len() > QUOTE_MAX => format!("`{head}…`"),
        _ => format!("`{text}`"),
    }
}

/// A token: a maximal run of printable ASCII characters other than `#` (or
/// a piece of one), and its 1-based column.
#[derive(Clone, Copy)]
struct Tok<'a> {
    text: &'a str,
    col: usize,
}

impl<'a> Tok<'a> {
    /// The piece `text[start..end]` of this token, with its own column.
    /// Callers pass byte offsets found by searching for ASCII characters in
    /// `text`, so they are character boundaries.
    fn piece(self, start: usize, end: usize) -> Tok<'a> {
        Tok {
            text: self.text.get(start..end).unwrap_or(""),
            col: self.col + start,
        }
    }

    /// The column just past the token.
    fn end_col(self) -> usize {
        self.col + self.text.len()
    }
}

/// One line's tokens and a cursor over them.
struct Line<'a> {
    no: usize,
    toks: Vec<Tok<'a>>,
    pos: usize,
    /// The column just past the last token (where "found end of line"
    /// errors point).
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

    /// The next token; `what` names what was expected, for the message when
    /// the line has ended.
    fn next(&mut self, what: &str) -> Result<Tok<'a>, ParseError> {
        match self.toks.get(self.pos) {
            Some(t) => {
                self.pos += 1;
                Ok(*t)
            }
            None => self.err(self.end_col, format!("expected {what}, found end of line")),
        }
    }

    fn peek(&self) -> Option<Tok<'a>> {
        self.toks.get(self.pos).copied()
    }

    fn expect(&mut self, word: &str) -> Result<(), ParseError> {
        match self.toks.get(self.pos) {
            Some(t) if t.text == word => {
                self.pos += 1;
                Ok(())
            }
            Some(t) => self.err(t.col, format!("expected `{word}`, found {}", quote(t.text))),
            None => self.err(self.end_col, format!("expected `{word}`, found end of line")),
        }
    }

    fn done(&self) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(t) => self.err(t.col, format!("unexpected {}", quote(t.text))),
        }
    }
}

/// Characters that some editor shows as the end of a line. The parser ends
/// lines only at LF (or CRLF), so these are rejected everywhere, comments
/// included: otherwise what looks like a command after, say, a lone CR
/// would silently be part of the comment before it.
fn breaks_lines(c: char) -> bool {
    matches!(c, '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// The error for the character at byte `at` of a line, which the lexical
/// rules do not allow there.
fn bad_char(no: usize, raw: &str, at: usize) -> ParseError {
    let c = raw.get(at..).and_then(|s| s.chars().next()).unwrap_or('\0');
    let code = format!("U+{:04X}", u32::from(c));
    let message = match c {
        '\r' => "carriage return (CR) without a line feed: lines must end with LF or CRLF \
                 (classic Mac OS line endings are not supported)"
            .to_string(),
        c if breaks_lines(c) => {
            let name = match c {
                '\u{b}' => "vertical tab",
                '\u{c}' => "form feed",
                '\u{85}' => "next line",
                '\u{2028}' => "line separator",
                _ => "paragraph separator",
            };
            format!("{name} ({code}): lines must end with LF or CRLF")
        }
        '\u{feff}' => "byte-order mark (U+FEFF) after the start of the file: \
                       only the file's first character may be one"
            .to_string(),
        c if c.is_ascii_control() => format!("control character {code} outside a comment"),
        c if c.is_whitespace() => {
            format!("non-ASCII space {code} outside a comment: separate tokens with spaces or tabs")
        }
        c => format!("non-ASCII character `{c}` ({code}) outside a comment: commands are ASCII"),
    };
    ParseError {
        line: no,
        col: raw.get(..at).map_or(1, |s| s.chars().count() + 1),
        message,
    }
}

/// Splits one line (without its line ending) into tokens, finding each
/// token's column as it goes; checks the lexical rules.
/// The commands recorded since the last submit: the batch the next submit
/// (or the end of the trace) makes.
fn batch_commands(commands: &[Command]) -> &[Command] {
    let start = commands
        .iter()
        .rposition(|c| matches!(c, Command::Submit(_)))
        .map_or(0, |i| i + 1);
    &commands[start..]
}

fn lex(no: usize, raw: &str) -> Result<Line<'_>, ParseError> {
    let mut toks = Vec::new();
    let mut start = None;
    let mut code_end = raw.len();
    for (i, b) in raw.bytes().enumerate() {
        match b {
            b' ' | b'\t' => {
                if let Some(s) = start.take() {
                    toks.push(Tok {
                        text: &raw[s..i],
                        col: s + 1,
                    });
                }
            }
            b'#' => {
                code_end = i;
                break;
            }
            b'!'..=b'~' => {
                if start.is_none() {
                    start = Some(i);
                }
            }
            // Everything before `i` is ASCII, so `i` starts a character.
            _ => return Err(bad_char(no, raw, i)),
        }
    }
    if let Some(s) = start {
        toks.push(Tok {
            text: &raw[s..code_end],
            col: s + 1,
        });
    }
    let comment = &raw[code_end..];
    if let Some((i, _)) = comment.char_indices().find(|&(_, c)| breaks_lines(c)) {
        return Err(bad_char(no, raw, code_end + i));
    }
    let end_col = toks.last().map_or(1, |t| t.end_col());
    Ok(Line {
        no,
        toks,
        pos: 0,
        end_col,
    })
}

/// Why a token is not a number.
#[derive(Debug, PartialEq, Eq)]
enum NumError {
    /// It does not start with a digit (or `_`): not meant as a number.
    NotANumber,
    /// A `_` at this byte offset is not between two digits.
    Underscore(usize),
    /// The character at this byte offset is not a digit of the radix.
    Digit(usize, u32),
    /// `0x` with nothing after it.
    NoHexDigits,
    /// The value needs more than 64 bits.
    Overflow,
}

/// A number: decimal digits, or `0x`/`0X` and hexadecimal digits, with `_`
/// allowed only between two digits (`1_000`, `0x1_0000`; not `_1`, `1_`,
/// `1__0` or `0x_1`). Stricter than Rust's literals on purpose: a stray
/// `_` is more likely a typo than a separator.
fn parse_num(text: &str) -> Result<u64, NumError> {
    let bytes = text.as_bytes();
    match bytes.first() {
        Some(b'_') => return Err(NumError::Underscore(0)),
        Some(b) if b.is_ascii_digit() => {}
        _ => return Err(NumError::NotANumber),
    }
    let hex = bytes.len() >= 2 && bytes[0] == b'0' && matches!(bytes[1], b'x' | b'X');
    let (radix, skip) = if hex { (16, 2) } else { (10, 0) };
    if hex && bytes.len() == 2 {
        return Err(NumError::NoHexDigits);
    }
    // Overflow is remembered, not returned at once, so that a bad
    // character later in the token is reported first (it is the likelier
    // mistake).
    let mut value = Some(0u64);
    let mut after_digit = false;
    for (i, &b) in bytes.iter().enumerate().skip(skip) {
        if b == b'_' {
            if !after_digit || i + 1 == bytes.len() {
                return Err(NumError::Underscore(i));
            }
            after_digit = false;
            continue;
        }
        let Some(d) = char::from(b).to_digit(radix) else {
            return Err(NumError::Digit(i, radix));
        };
        value = value
            .and_then(|v| v.checked_mul(u64::from(radix)))
            .and_then(|v| v.checked_add(u64::from(d)));
        after_digit = true;
    }
    value.ok_or(NumError::Overflow)
}

/// A number of at most `bits` bits (32 or 64); `what` names it for the
/// message when `tok` is not a number at all (with a hint at the syntax
/// where the message has always had one).
fn number(line: &Line, tok: Tok, what: &str, bits: u32) -> Result<u64, ParseError> {
    let max = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let q = || quote(tok.text);
    match parse_num(tok.text) {
        Ok(v) if v <= max => Ok(v),
        Ok(_) | Err(NumError::Overflow) => line.err(
            tok.col,
            format!("{} does not fit in {bits} bits (at most {max})", q()),
        ),
        Err(NumError::NotANumber) if tok.text.is_empty() => line.err(tok.col, format!("expected {what}")),
        Err(NumError::NotANumber) => line.err(tok.col, format!("expected {what}, found {}", q())),
        Err(NumError::Underscore(i)) => line.err(
            tok.col + i,
            format!("invalid number {}: `_` may only separate two digits", q()),
        ),
        Err(NumError::Digit(i, radix)) => {
            let c = char::from(tok.text.as_bytes().get(i).copied().unwrap_or(b'?'));
            let kind = if radix == 16 { "hexadecimal" } else { "decimal" };
            line.err(
                tok.col + i,
                format!("invalid number {}: `{c}` is not a {kind} digit", q()),
            )
        }
        Err(NumError::NoHexDigits) => line.err(
            tok.col,
            format!("invalid number {}: no digits after `{}`", q(), tok.text),
        ),
    }
}

/// A number that fits in 32 bits.
fn number32(line: &Line, tok: Tok, what: &str) -> Result<u32, ParseError> {
    let v = number(line, tok, what, 32)?;
    // `number` checked the range; the fallback is never taken.
    Ok(u32::try_from(v).unwrap_or(u32::MAX))
}

/// The name rule's wording (the rule itself is
/// [`crate::ir::program::is_name`], shared with the program builder).
const NAME_RULE: &str = "use letters, digits, `_`, `-` and `.`, starting with a letter or `_`";

/// `STAGE|STAGE|...` or `ACCESS|...`, each name parsed on its own so that an
/// unknown one is reported at its own column.
fn flag_list<F: Copy + std::ops::BitOr<Output = F>>(
    line: &Line,
    tok: Tok,
    empty: F,
    parse_one: fn(&str) -> Result<F, UnknownFlag>,
) -> Result<F, ParseError> {
    let mut acc = empty;
    let mut col = tok.col;
    for name in tok.text.split('|') {
        acc = acc | parse_one(name).or_else(|e| line.err(col, e.to_string()))?;
        col += name.len() + 1;
    }
    Ok(acc)
}

/// The column of flag `name` in a `|`-separated flag token (the token's
/// own column if it is not there: the caller found it in the mask).
fn flag_col(tok: Tok, name: &str) -> usize {
    let mut col = tok.col;
    for piece in tok.text.split('|') {
        if piece.trim() == name {
            return col + (piece.len() - piece.trim_start().len());
        }
        col += piece.len() + 1;
    }
    tok.col
}

/// The tokens of barrier `index` of `rest` (barriers separated by `;`,
/// as [`Parser::barriers`] splits them), to place an error found after
/// parsing on its token.
fn barrier_tokens<'a>(rest: &[Tok<'a>], index: usize) -> Vec<Tok<'a>> {
    let mut group: Vec<Tok<'a>> = Vec::new();
    let mut at = 0;
    for t in rest {
        let mut from = 0;
        for (i, _) in t.text.match_indices(';') {
            if at == index {
                if i > from {
                    group.push(t.piece(from, i));
                }
                return group;
            }
            at += 1;
            from = i + 1;
        }
        if at == index && from < t.text.len() {
            group.push(t.piece(from, t.text.len()));
        }
    }
    group
}

struct Parser {
    trace: Trace,
    /// Object ids by name: traces of real workloads declare tens of
    /// thousands of blobs, and a linear search made parsing quadratic.
    names: HashMap<String, ObjectId>,
    /// The order of semaphore operations so far (the rules `resolve`
    /// checks, here placed on a line and column).
    sems: SemaphoreStates,
    /// Line and column of each timeline wait, in order (for the error of
    /// one that no signal ever satisfies, found at the end).
    timeline_waits: Vec<(usize, usize)>,
    /// The order of event operations (the rules `resolve` checks).
    events: EventStates,
    /// What is known complete when (the binary semaphore order and the
    /// host's event rules, as `resolve` checks them).
    done: Completion,
    /// Line and column of each event of each `wait-events`, by (command,
    /// index among its events), for the queue rule found at a submit.
    event_wait_toks: Vec<((usize, usize), (usize, usize))>,
}

impl Default for Parser {
    fn default() -> Self {
        Parser {
            trace: Trace::default(),
            names: HashMap::new(),
            sems: SemaphoreStates::new(&[]),
            timeline_waits: Vec::new(),
            events: EventStates::new(0),
            done: Completion::default(),
            event_wait_toks: Vec::new(),
        }
    }
}

impl Parser {
    fn object(&self, line: &Line, tok: Tok) -> Result<ObjectId, ParseError> {
        match self.names.get(tok.text) {
            Some(id) => Ok(*id),
            None if tok.text.is_empty() => line.err(tok.col, "expected a buffer, pool or blob name"),
            // A range where the command takes a name (an exact image
            // copy's buffer: `bufferOffset=` places its bytes; review42).
            None if tok.text.ends_with(']') && tok.text.contains('[') => {
                let name = &tok.text[..tok.text.find('[').unwrap_or(0)];
                let known = self.names.contains_key(name);
                line.err(
                    tok.col,
                    format!(
                        "expected a name, found the range {}{}",
                        quote(tok.text),
                        if known {
                            format!(
                                ": name `{name}` alone (an image copy places its bytes with `bufferOffset=`)"
                            )
                        } else {
                            String::new()
                        }
                    ),
                )
            }
            None => line.err(
                tok.col,
                format!("unknown buffer, pool or blob {}", quote(tok.text)),
            ),
        }
    }

    /// `NAME[A..B]` or `NAME` (the whole object); not of an `image`,
    /// whose bytes are notional (its subresources are named instead).
    fn region(&self, line: &Line, tok: Tok) -> Result<Region, ParseError> {
        let text = tok.text;
        let name = tok.piece(0, text.find('[').unwrap_or(text.len()));
        if let Some(id) = self.names.get(name.text) {
            if self.trace.program.image(*id).is_some() {
                return line.err(
                    name.col,
                    format!(
                        "{} is an image: name its subresources (`ASPECTS:MIPS:LAYERS`) with an image command, \
                         an image barrier or a view binding, not bytes",
                        quote(name.text)
                    ),
                );
            }
        }
        let Some(open) = text.find('[') else {
            let id = self.object(line, tok)?;
            return Ok(self.trace.program.whole(id));
        };
        let id = self.object(line, tok.piece(0, open))?;
        let Some(close) = text[open..].find(']').map(|i| open + i) else {
            return line.err(tok.end_col(), "expected `]` to close the range");
        };
        if close + 1 < text.len() {
            let after = tok.piece(close + 1, text.len());
            return line.err(
                after.col,
                format!("unexpected {} after the range", quote(after.text)),
            );
        }
        let inner = tok.piece(open + 1, close);
        let Some(dots) = inner.text.find("..") else {
            return line.err(
                inner.col,
                format!("expected a range `START..END`, found {}", quote(inner.text)),
            );
        };
        let a = inner.piece(0, dots);
        let b = inner.piece(dots + 2, inner.text.len());
        let start = number(line, a, "a byte offset", 64)?;
        let end = number(line, b, "a byte offset", 64)?;
        if end < start {
            return line.err(a.col, format!("range {start}..{end} ends before it starts"));
        }
        Ok(Region {
            object: id,
            range: ByteRange::new(start, end),
        })
    }

    /// A new object's name: valid and not yet declared.
    fn declare(&self, line: &Line, tok: Tok) -> Result<String, ParseError> {
        let name = tok.text;
        if !is_name(name) {
            return line.err(tok.col, format!("invalid name {}: {NAME_RULE}", quote(name)));
        }
        if self.names.contains_key(name) {
            return line.err(tok.col, format!("{} is already declared", quote(name)));
        }
        Ok(name.to_string())
    }

    fn add_object(&mut self, line: &Line, object: Object) -> Result<ObjectId, ParseError> {
        // Object ids are 32-bit. Running out takes four billion
        // declarations (tens of gigabytes of trace), but no input may make
        // the parser wrap an id or panic.
        let Ok(index) = u32::try_from(self.trace.program.objects.len()) else {
            return line.err(1, "too many objects (at most 4294967296)");
        };
        let id = ObjectId(index);
        self.names.insert(object.name.clone(), id);
        // The parser checked the name, its novelty and what it refers to,
        // as `declare` does; a refusal here would be a parser bug, reported
        // as an error rather than a panic.
        if let Err(e) = self.trace.program.declare_any(object) {
            return line.err(1, e.to_string());
        }
        self.trace.object_lines.push(line.no);
        Ok(id)
    }

    fn queue(&self, line: &Line, tok: Tok) -> Result<QueueId, ParseError> {
        match self.trace.program.find_queue(tok.text) {
            Some(q) => Ok(q),
            // Without declared queues, `submit` and `wait` take no queue:
            // the message traces had before queues existed.
            None if self.trace.program.queues.is_empty() => line.err(
                tok.col,
                format!(
                    "unexpected {}: this trace declares no queue, so `submit` and `wait` name none (they mean its one implicit queue); to name it, declare it: `queue NAME`",
                    quote(tok.text)
                ),
            ),
            None => {
                let declared: Vec<&str> = self.trace.program.queues.iter().map(|q| q.name.as_str()).collect();
                line.err(
                    tok.col,
                    format!("unknown queue {} (declared: {})", quote(tok.text), declared.join(", ")),
                )
            }
        }
    }

    fn semaphore(&self, line: &Line, tok: Tok) -> Result<SemaphoreId, ParseError> {
        match self.trace.program.find_semaphore(tok.text) {
            Some(s) => Ok(s),
            None if tok.text.is_empty() => line.err(tok.col, "expected a semaphore name"),
            None => line.err(tok.col, format!("unknown semaphore {}", quote(tok.text))),
        }
    }

    /// A new queue's or semaphore's name: valid, not a keyword of
    /// `submit`, not yet declared among its kind.
    fn declare_sync(&self, line: &Line, tok: Tok, taken: bool) -> Result<String, ParseError> {
        let name = tok.text;
        if !is_name(name) {
            return line.err(tok.col, format!("invalid name {}: {NAME_RULE}", quote(name)));
        }
        if is_reserved_sync_name(name) {
            return line.err(
                tok.col,
                format!(
                    "{} is a keyword of `submit` and `wait` and cannot name a queue or semaphore",
                    quote(name)
                ),
            );
        }
        if taken {
            return line.err(tok.col, format!("{} is already declared", quote(name)));
        }
        Ok(name.to_string())
    }

    /// `SEM[:VALUE]` then, after `@`, stages (required for a wait, default
    /// `ALL_COMMANDS` for a signal): one operand of `submit`.
    fn sem_operand(
        &self,
        line: &Line,
        tok: Tok,
        wait: bool,
    ) -> Result<(SemaphoreId, Option<u64>, PipelineStageFlags2), ParseError> {
        let at = tok.text.find('@');
        let head = tok.piece(0, at.unwrap_or(tok.text.len()));
        let colon = head.text.find(':');
        let name = head.piece(0, colon.unwrap_or(head.text.len()));
        let sem = self.semaphore(line, name)?;
        let value = match colon {
            Some(c) => Some(number(
                line,
                head.piece(c + 1, head.text.len()),
                "a semaphore value",
                64,
            )?),
            None => None,
        };
        let stages =
            match at {
                Some(a) => {
                    let st = tok.piece(a + 1, tok.text.len());
                    if st.text.is_empty() {
                        return line.err(st.col, "expected stages after `@`");
                    }
                    flag_list(line, st, PipelineStageFlags2::empty(), PipelineStageFlags2::parse)?
                }
                None if wait => return line.err(
                    tok.end_col(),
                    "a semaphore wait needs its stages: `wait SEMAPHORE[:VALUE]@STAGES` (pWaitDstStageMask)",
                ),
                None => PipelineStageFlags2::ALL_COMMANDS,
            };
        let s = &self.trace.program.semaphores[sem.0 as usize];
        let name_err = |m: String| line.err(name.col, m);
        match (s.kind, value) {
            (SemaphoreType::Binary, Some(_)) => {
                return name_err(format!(
                    "{} is a binary semaphore: it takes no value",
                    quote(name.text)
                ))
            }
            (SemaphoreType::Timeline { .. }, None) => {
                return name_err(format!(
                    "{} is a timeline semaphore: give a value (`{}:VALUE`)",
                    quote(name.text),
                    name.text
                ))
            }
            _ => {}
        }
        if stages.contains(PipelineStageFlags2::HOST) {
            let col = at.map_or(tok.col, |a| tok.col + a + 1);
            return line.err(
                col,
                "a semaphore's stage mask may not include HOST (VUID-VkSubmitInfo-pWaitDstStageMask-00078)",
            );
        }
        Ok((sem, value, stages))
    }

    fn event(&self, line: &Line, tok: Tok) -> Result<EventId, ParseError> {
        match self.trace.program.find_event(tok.text) {
            Some(e) => Ok(e),
            None if tok.text.is_empty() => line.err(tok.col, "expected an event name"),
            None => line.err(tok.col, format!("unknown event {}", quote(tok.text))),
        }
    }

    /// The barriers of one call or dependency info: `;`-separated, the
    /// separator alone or touching the tokens around it (no name, flag or
    /// number contains one). One buffer, reused, holds the current
    /// barrier's tokens: a line of a million barriers allocates nothing per
    /// barrier. No tokens: no barrier.
    fn barriers(&mut self, line: &Line, rest: &[Tok], end_col: usize) -> Result<Vec<Barrier>, ParseError> {
        let mut barriers = Vec::new();
        if !rest.is_empty() {
            let mut group: Vec<Tok> = Vec::with_capacity(4);
            for t in rest {
                let mut from = 0;
                for (i, _) in t.text.match_indices(';') {
                    if i > from {
                        group.push(t.piece(from, i));
                    }
                    self.barrier_part(line, &group, t.col + i, &mut barriers)?;
                    group.clear();
                    from = i + 1;
                }
                if from < t.text.len() {
                    group.push(t.piece(from, t.text.len()));
                }
            }
            self.barrier_part(line, &group, end_col, &mut barriers)?;
        }
        Ok(barriers)
    }

    /// An event's dependency info: at least one barrier.
    fn event_dependency(
        &mut self,
        line: &Line,
        rest: &[Tok],
        end_col: usize,
    ) -> Result<Dependency, ParseError> {
        if rest.is_empty() {
            return line.err(
                end_col,
                "expected the event's barriers: `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION] [; ...]`",
            );
        }
        let barriers = self.barriers(line, rest, end_col)?;
        Ok(Dependency { barriers })
    }

    /// The events' queue rule at a submit to `queue` (or the end) of
    /// ordinal `at`: a wait whose set ran on another queue is reported at
    /// the wait's event.
    fn submit_events(&mut self, queue: QueueId, at: usize, line_no: usize) -> Result<(), ParseError> {
        let program = &self.trace.program;
        // Reported after `submit`'s own errors (a wait on another queue's
        // set is the more precise one).
        let crossed = self.events.cross_queue(queue, &self.done, program);
        let r = self.events.submit(queue, at, |set, set_q| {
            let name = match &program.commands[set] {
                Command::SetEvent { event, .. } | Command::SetEvent1 { event, .. } => {
                    program.event_name(*event).to_string()
                }
                _ => String::new(),
            };
            ProgramErrorKind::EventOtherQueue {
                name,
                set_queue: program.queue_name(set_q).to_string(),
                wait_queue: program.queue_name(queue).to_string(),
            }
        });
        match r {
            Ok(()) => crossed.map_err(|kind| ParseError {
                line: line_no,
                col: 1,
                message: kind.to_string(),
            }),
            Err((ci, k, kind)) => {
                let (line, col) = self
                    .event_wait_toks
                    .iter()
                    .find(|(key, _)| *key == (ci, k))
                    .map_or((0, 1), |(_, at)| *at);
                Err(ParseError {
                    line,
                    col,
                    message: kind.to_string(),
                })
            }
        }
    }

    fn push(&mut self, line_no: usize, c: Command) {
        // The reset rule follows waits and barriers (`EventStates`), as
        // `resolve` does.
        self.events.note_command(&c);
        self.trace.program.commands.push(c);
        self.trace.command_lines.push(line_no);
    }

    /// `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION [transition] [ownership SRC->DST]]`: the tokens
    /// of one barrier, `end_col` the column of the `;` or line end after
    /// them.
    fn barrier_part(
        &mut self,
        line: &Line,
        toks: &[Tok],
        end_col: usize,
        out: &mut Vec<Barrier>,
    ) -> Result<(), ParseError> {
        let side = |tok: Tok| -> Result<(PipelineStageFlags2, AccessFlags2), ParseError> {
            let Some(colon) = tok.text.find(':') else {
                return line.err(
                    tok.col,
                    format!("expected `STAGES:ACCESS`, found {}", quote(tok.text)),
                );
            };
            let stages = flag_list(
                line,
                tok.piece(0, colon),
                PipelineStageFlags2::empty(),
                PipelineStageFlags2::parse,
            )?;
            let access = flag_list(
                line,
                tok.piece(colon + 1, tok.text.len()),
                AccessFlags2::empty(),
                AccessFlags2::parse,
            )?;
            Ok((stages, access))
        };
        let [src, arrow, dst, rest @ ..] = toks else {
            let col = toks.last().map_or(end_col, |t| t.end_col());
            return line.err(
                col,
                "expected `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION [transition] [ownership SRC->DST]]`",
            );
        };
        let (ss, sa) = side(*src)?;
        if arrow.text != "->" {
            return line.err(arrow.col, format!("expected `->`, found {}", quote(arrow.text)));
        }
        let (ds, da) = side(*dst)?;
        // `IMAGE ASPECTS:MIPS:LAYERS OLD->NEW [ownership S->D]`: an image
        // memory barrier of an `image`, one model barrier per byte range
        // of its subresource range.
        if let Some(&t) = rest.first() {
            if let Some((image, desc)) = self
                .names
                .get(t.text)
                .and_then(|&id| Some((id, self.trace.program.image(id)?.clone())))
            {
                let Some(&rt) = rest.get(1) else {
                    return line.err(
                        t.end_col(),
                        "expected the subresource range `ASPECTS:MIPS:LAYERS` after the image",
                    );
                };
                let range = subrange(line, rt)?;
                let Some(&lt) = rest.get(2) else {
                    return line.err(
                        rt.end_col(),
                        "expected `OLD_LAYOUT->NEW_LAYOUT` after the subresource range",
                    );
                };
                let (old_layout, new_layout) = layouts_pair(line, lt)?;
                let mut next = 3;
                let mut ownership = None;
                if let Some(o) = rest.get(3).filter(|o| o.text == OWNERSHIP) {
                    let Some(f) = rest.get(4) else {
                        return line.err(o.end_col(), "expected `SRC_FAMILY->DST_FAMILY` after `ownership`");
                    };
                    ownership = Some(families(line, *f)?);
                    next = 5;
                }
                if let Some(t) = rest.get(next) {
                    return line.err(t.col, format!("unexpected {}", quote(t.text)));
                }
                let transfers = ownership.is_some_and(|o| o.src_queue_family != o.dst_queue_family);
                if transfers && self.trace.program.obj(image).sharing != SharingMode::Exclusive {
                    return line.err(
                        rest[3].col,
                        format!(
                            "`{}` is VK_SHARING_MODE_CONCURRENT: its barriers transfer no ownership \
                             (VUID-VkImageMemoryBarrier2-image-04071); declare it `exclusive`",
                            t.text
                        ),
                    );
                }
                let bytes = desc.range_bytes(range).or_else(|reason| {
                    line.err(
                        rt.col,
                        format!(
                            "subresource range {} of image {}: {reason}",
                            quote(rt.text),
                            quote(t.text)
                        ),
                    )
                })?;
                let Some(r) = self.trace.program.add_image_barrier(ImageBarrier {
                    image,
                    range,
                    old_layout,
                    new_layout,
                }) else {
                    return line.err(t.col, "too many image barriers (at most 4294967295)");
                };
                for range_bytes in bytes {
                    out.push(Barrier {
                        src_stage_mask: ss,
                        src_access_mask: sa,
                        dst_stage_mask: ds,
                        dst_access_mask: da,
                        region: Some(Region {
                            object: image,
                            range: range_bytes,
                        }),
                        // Inside an ownership transfer the transition
                        // happens once, between the release and the
                        // acquire: the transfer's own operations (writes
                        // of the range on both queues) stand for it.
                        transition: old_layout != new_layout && !transfers,
                        ownership,
                        image: Some(r),
                    });
                }
                return Ok(());
            }
        }
        // `transition` after the region: an image memory barrier that
        // changes the layout. The keyword wins over an object of that name
        // (write such an object's region with its range, as the printer
        // does), so a forgotten region is an error, not a whole-object one.
        let region = match rest.first() {
            Some(t) if t.text == TRANSITION => {
                return line.err(
                    t.col,
                    "a layout transition needs a region (the image's memory): \
                     `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS REGION transition`",
                )
            }
            Some(t) if t.text == OWNERSHIP => {
                return line.err(
                    t.col,
                    "an ownership transfer needs a region (a buffer memory barrier): \
                     `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS REGION ownership SRC->DST`",
                )
            }
            Some(t) => Some(self.region(line, *t)?),
            None => None,
        };
        let transition = rest.get(1).is_some_and(|t| t.text == TRANSITION);
        let mut next = if transition { 2 } else { 1 };
        // `ownership S->D` last: a queue family ownership transfer (only
        // after a region: a buffer memory barrier).
        let mut ownership = None;
        if let Some(t) = rest.get(next).filter(|t| t.text == OWNERSHIP) {
            if region.is_none() {
                return line.err(
                    t.col,
                    "an ownership transfer needs a region (a buffer memory barrier)",
                );
            }
            if let Some(r) = region {
                let buffer = match self.trace.program.obj(r.object).kind {
                    ObjectKind::Blob { pool } => pool,
                    _ => r.object,
                };
                if self.trace.program.obj(buffer).sharing != SharingMode::Exclusive {
                    return line.err(
                        t.col,
                        format!(
                            "`{}` is VK_SHARING_MODE_CONCURRENT: its barriers transfer no ownership \
                             (VUID-VkBufferMemoryBarrier2-buffer-04088); declare it `exclusive`",
                            self.trace.program.obj(buffer).name
                        ),
                    );
                }
            }
            let Some(f) = rest.get(next + 1) else {
                return line.err(t.end_col(), "expected `SRC_FAMILY->DST_FAMILY` after `ownership`");
            };
            ownership = Some(families(line, *f)?);
            next += 2;
        }
        if let Some(t) = rest.get(next) {
            return line.err(t.col, format!("unexpected {}", quote(t.text)));
        }
        // Every field spelled out (no `..Default::default()`): a field added
        // to `Barrier` later needs syntax here too.
        out.push(Barrier {
            src_stage_mask: ss,
            src_access_mask: sa,
            dst_stage_mask: ds,
            dst_access_mask: da,
            region,
            transition,
            ownership,
            image: None,
        });
        Ok(())
    }

    /// The rest of a view binding after its keyword `kw` (`image-read`,
    /// `image-write`, `image-rw`, `sampled-image`), binding `index` of its
    /// command: `IMAGE ASPECTS:MIPS:LAYERS`, and for a sampled image the
    /// descriptor's layout. A dispatch's and a draw's (after `vs`/`fs`).
    fn image_binding(&self, line: &mut Line, kw: &str, index: usize) -> Result<Binding, ParseError> {
        let it = line.next("an image")?;
        let (image, desc) = self.image_desc(line, it)?;
        let rt = line.next("the view's subresource range `ASPECTS:MIPS:LAYERS`")?;
        let range = subrange(line, rt)?;
        let access = match kw {
            "image-read" => BindingAccess::ImageRead,
            "image-write" => BindingAccess::ImageWrite,
            "image-rw" => BindingAccess::ImageReadWrite,
            _ => {
                let lt = line.next("the descriptor's image layout")?;
                let l = layout(line, lt)?;
                if !l.sampled_ok() {
                    return line.err(
                        lt.col,
                        format!(
                            "a sampled image descriptor's imageLayout {l} must be GENERAL or a read-only layout \
                             (VUID-VkWriteDescriptorSet-descriptorType-04149)"
                        ),
                    );
                }
                BindingAccess::SampledImage(l)
            }
        };
        let range_bytes =
            view_region(desc, index, it.text, range).or_else(|e| line.err(rt.col, e.to_string()))?;
        Ok(Binding {
            access,
            region: Region {
                object: image,
                range: range_bytes,
            },
        })
    }

    /// An `image`-declared object.
    fn image(&self, line: &Line, tok: Tok) -> Result<ObjectId, ParseError> {
        self.image_desc(line, tok).map(|(id, _)| id)
    }

    /// An `image`-declared object and its description.
    fn image_desc(&self, line: &Line, tok: Tok) -> Result<(ObjectId, &ImageDesc), ParseError> {
        let id = self.object(line, tok)?;
        match self.trace.program.image(id) {
            Some(desc) => Ok((id, desc)),
            None => line.err(
                tok.col,
                format!("{} is not an image (declare it with `image`)", quote(tok.text)),
            ),
        }
    }

    /// The exact image commands: `KEYWORD OPERANDS REGION [; REGION]...`.
    fn image_command(&mut self, line: &mut Line, kw: &str) -> Result<ImageOp, ParseError> {
        let layout_tok = |line: &mut Line| -> Result<ImageLayout, ParseError> {
            let t = line.next("an image layout")?;
            layout(line, t)
        };
        let op = match kw {
            "copy-buffer-to-image" => {
                let t = line.next("a source buffer")?;
                let buffer = self.object(line, t)?;
                line.expect("->")?;
                let t = line.next("a destination image")?;
                let image = self.image(line, t)?;
                let layout = layout_tok(line)?;
                let regions = groups(line)?
                    .iter()
                    .map(|g| buffer_copy(line, g))
                    .collect::<Result<_, _>>()?;
                ImageOp::CopyBufferToImage {
                    buffer,
                    image,
                    layout,
                    regions,
                }
            }
            "copy-image-to-buffer" => {
                let t = line.next("a source image")?;
                let image = self.image(line, t)?;
                let layout = layout_tok(line)?;
                line.expect("->")?;
                let t = line.next("a destination buffer")?;
                let buffer = self.object(line, t)?;
                let regions = groups(line)?
                    .iter()
                    .map(|g| buffer_copy(line, g))
                    .collect::<Result<_, _>>()?;
                ImageOp::CopyImageToBuffer {
                    image,
                    layout,
                    buffer,
                    regions,
                }
            }
            "clear-color-image" | "clear-depth-stencil-image" => {
                let t = line.next("an image")?;
                let image = self.image(line, t)?;
                let layout = layout_tok(line)?;
                let mut ranges = Vec::new();
                for g in groups(line)? {
                    let [t] = g.as_slice() else {
                        return line.err(
                            g.get(1).map_or(line.end_col, |t| t.col),
                            "expected one `ASPECTS:MIPS:LAYERS` per range",
                        );
                    };
                    ranges.push(subrange(line, *t)?);
                }
                if kw == "clear-color-image" {
                    ImageOp::ClearColorImage {
                        image,
                        layout,
                        ranges,
                    }
                } else {
                    ImageOp::ClearDepthStencilImage {
                        image,
                        layout,
                        ranges,
                    }
                }
            }
            _ => {
                let t = line.next("a source image")?;
                let src = self.image(line, t)?;
                let src_layout = layout_tok(line)?;
                line.expect("->")?;
                let t = line.next("a destination image")?;
                let dst = self.image(line, t)?;
                let dst_layout = layout_tok(line)?;
                // A blit's `filter=F` before its regions (default NEAREST).
                let filter = match line.peek() {
                    Some(t) if kw == "blit-image" && t.text.starts_with("filter=") => {
                        line.pos += 1;
                        let name = &t.text["filter=".len()..];
                        match Filter::parse(name) {
                            Some(f) => f,
                            None => {
                                return line.err(
                                    t.col,
                                    format!("unknown filter `{name}` (NEAREST, LINEAR or CUBIC_EXT)"),
                                )
                            }
                        }
                    }
                    _ => Filter::Nearest,
                };
                let gs = groups(line)?;
                let (src, dst) = ((src, src_layout), (dst, dst_layout));
                if kw == "blit-image" {
                    let regions = gs
                        .iter()
                        .map(|g| blit_region(line, g))
                        .collect::<Result<_, _>>()?;
                    ImageOp::BlitImage {
                        src,
                        dst,
                        regions,
                        filter,
                    }
                } else {
                    let regions = gs
                        .iter()
                        .map(|g| copy_region(line, g))
                        .collect::<Result<_, _>>()?;
                    if kw == "copy-image" {
                        ImageOp::CopyImage { src, dst, regions }
                    } else {
                        ImageOp::ResolveImage { src, dst, regions }
                    }
                }
            }
        };
        Ok(op)
    }

    /// An attachment of `begin-rendering`: `color IMG A:M:L LAYOUT LOAD
    /// STORE [resolve IMG A:M:L LAYOUT]` or `depth IMG A:M:L LAYOUT LOAD
    /// STORE`.
    fn attachment(&self, line: &Line, g: &[Tok]) -> Result<(bool, Attachment), ParseError> {
        let at = |i: usize| g.get(i).copied();
        let need = |i: usize, what: &str| match at(i) {
            Some(t) => Ok(t),
            None => line.err(
                g.last().map_or(line.end_col, |t| t.end_col()),
                format!("expected {what}"),
            ),
        };
        let kind = need(0, "`color` or `depth`")?;
        let color = match kind.text {
            "color" => true,
            "depth" => false,
            other => {
                return line.err(
                    kind.col,
                    format!("expected `color` or `depth`, found {}", quote(other)),
                )
            }
        };
        let image = self.image(line, need(1, "an image")?)?;
        let range = subrange(line, need(2, "the view's subresources `ASPECTS:MIP:LAYERS`")?)?;
        let layout_t = need(3, "the attachment's image layout")?;
        let view_layout = layout(line, layout_t)?;
        let lt = need(4, "a load op (`LOAD`, `CLEAR`, `DONT_CARE` or `NONE`)")?;
        let load = LoadOp::parse(lt.text).map_or_else(
            || {
                line.err(
                    lt.col,
                    format!(
                        "expected a load op (`LOAD`, `CLEAR`, `DONT_CARE` or `NONE`), found {}",
                        quote(lt.text)
                    ),
                )
            },
            Ok,
        )?;
        let st = need(5, "a store op (`STORE`, `DONT_CARE` or `NONE`)")?;
        let store = StoreOp::parse(st.text).map_or_else(
            || {
                line.err(
                    st.col,
                    format!(
                        "expected a store op (`STORE`, `DONT_CARE` or `NONE`), found {}",
                        quote(st.text)
                    ),
                )
            },
            Ok,
        )?;
        let mut resolve = None;
        if let Some(t) = at(6) {
            if t.text != "resolve" || !color {
                return line.err(t.col, format!("unexpected {}", quote(t.text)));
            }
            let ri = self.image(line, need(7, "the resolve target image")?)?;
            let rr = subrange(line, need(8, "the resolve target's subresources")?)?;
            let rl = layout(line, need(9, "the resolve target's image layout")?)?;
            resolve = Some((ri, rr, rl));
            if let Some(t) = at(10) {
                return line.err(t.col, format!("unexpected {}", quote(t.text)));
            }
        }
        Ok((
            color,
            Attachment {
                image,
                range,
                layout: view_layout,
                load,
                store,
                resolve,
            },
        ))
    }

    /// `render-pass NAME CLAUSE ; CLAUSE ...` after the name (module
    /// `crate::ir::renderpass`; `docs/trace-format.md`, "Render passes").
    fn render_pass_decl(&mut self, line: &mut Line, name: Tok) -> Result<RenderPass, ParseError> {
        let mut rp = RenderPass {
            name: name.text.to_string(),
            attachments: Vec::new(),
            subpasses: Vec::new(),
            dependencies: Vec::new(),
        };
        for g in groups(line)? {
            let need = |i: usize, what: &str| -> Result<Tok, ParseError> {
                match g.get(i) {
                    Some(t) => Ok(*t),
                    None => line.err(
                        g.last().map_or(line.end_col, |t| t.col + t.text.len()),
                        format!("expected {what}"),
                    ),
                }
            };
            match g[0].text {
                "attachment" => {
                    let ft = need(1, "a format")?;
                    let format = Format::parse(ft.text).map_or_else(
                        || line.err(ft.col, format!("unknown format {}", quote(ft.text))),
                        Ok,
                    )?;
                    let (load, store) = load_store(line, need(2, "a load op")?, need(3, "a store op")?)?;
                    let mut i = 4;
                    let mut stencil = None;
                    if need(4, "`INITIAL->FINAL` layouts")?.text == "stencil" {
                        stencil = Some(load_store(
                            line,
                            need(5, "a stencil load op")?,
                            need(6, "a stencil store op")?,
                        )?);
                        i = 7;
                    }
                    let (initial, final_layout) = layouts_pair(line, need(i, "`INITIAL->FINAL` layouts")?)?;
                    if let Some(t) = g.get(i + 1) {
                        return line.err(t.col, format!("unexpected {}", quote(t.text)));
                    }
                    rp.attachments.push(AttachmentDescription {
                        format,
                        load,
                        store,
                        stencil,
                        initial,
                        final_layout,
                    });
                }
                "subpass" => {
                    let mut sp = SubpassDescription::default();
                    let mut i = 1;
                    let reference = |i: usize| -> Result<AttachmentReference, ParseError> {
                        let n = need(i, "an attachment number")?;
                        Ok(AttachmentReference {
                            attachment: number32(line, n, "an attachment number")?,
                            layout: layout(line, need(i + 1, "the attachment's layout")?)?,
                        })
                    };
                    while let Some(t) = g.get(i) {
                        match t.text {
                            // `viewMask=M` (multiview), first.
                            v if i == 1 && v.starts_with("viewMask=") => {
                                let n = &v["viewMask=".len()..];
                                let Some(m) = n.parse::<u32>().ok().filter(|&m| m != 0) else {
                                    return line.err(
                                        t.col,
                                        format!("expected `viewMask=M` with M a nonzero 32-bit number, found {}", quote(v)),
                                    );
                                };
                                sp.view_mask = m;
                                i += 1;
                            }
                            "input" => {
                                sp.inputs.push(reference(i + 1)?);
                                i += 3;
                            }
                            "color" if need(i + 1, "an attachment number or `unused`")?.text == "unused" => {
                                sp.colors.push(ColorReference {
                                    color: None,
                                    resolve: None,
                                });
                                i += 2;
                            }
                            "color" => {
                                sp.colors.push(ColorReference {
                                    color: Some(reference(i + 1)?),
                                    resolve: None,
                                });
                                i += 3;
                            }
                            "resolve" => {
                                let r = reference(i + 1)?;
                                match sp.colors.last_mut() {
                                    Some(c) if c.resolve.is_none() => c.resolve = Some(r),
                                    _ => return line.err(t.col, "`resolve` follows its `color` reference"),
                                }
                                i += 3;
                            }
                            "depth" => {
                                if sp.depth.replace(reference(i + 1)?).is_some() {
                                    return line.err(t.col, "a subpass has at most one `depth` attachment");
                                }
                                i += 3;
                            }
                            "preserve" => {
                                sp.preserve.push(number32(
                                    line,
                                    need(i + 1, "an attachment number")?,
                                    "an attachment number",
                                )?);
                                i += 2;
                            }
                            other => {
                                return line.err(
                                    t.col,
                                    format!(
                                    "expected `viewMask=M` (first), `input`, `color`, `resolve`, `depth` or `preserve`, found {}",
                                    quote(other)
                                ),
                                )
                            }
                        }
                    }
                    rp.subpasses.push(sp);
                }
                "dependency" => {
                    let st = need(1, "`SRC->DST` subpasses")?;
                    let sub = |text: &str| -> Option<SubpassIndex> {
                        match text {
                            "EXTERNAL" => Some(SubpassIndex::External),
                            n => n.parse::<u32>().ok().map(SubpassIndex::Subpass),
                        }
                    };
                    let Some((src, dst)) = st
                        .text
                        .split_once("->")
                        .and_then(|(a, b)| Some((sub(a)?, sub(b)?)))
                    else {
                        return line.err(
                            st.col,
                            format!(
                                "expected `SRC->DST` (subpass numbers or EXTERNAL), found {}",
                                quote(st.text)
                            ),
                        );
                    };
                    let (src_stage_mask, src_access_mask) =
                        scope_side(line, need(2, "`SRC_STAGES:SRC_ACCESS`")?)?;
                    let arrow = need(3, "`->`")?;
                    if arrow.text != "->" {
                        return line.err(arrow.col, format!("expected `->`, found {}", quote(arrow.text)));
                    }
                    let (dst_stage_mask, dst_access_mask) =
                        scope_side(line, need(4, "`DST_STAGES:DST_ACCESS`")?)?;
                    // `dependencyFlags`: `by-region`, `view-local`, each at
                    // most once, in any order.
                    let (mut by_region, mut view_local) = (false, false);
                    for t in g.iter().skip(5) {
                        let flag = match t.text {
                            "by-region" => &mut by_region,
                            "view-local" => &mut view_local,
                            other => {
                                return line.err(
                                    t.col,
                                    format!("expected `by-region` or `view-local`, found {}", quote(other)),
                                )
                            }
                        };
                        if std::mem::replace(flag, true) {
                            return line.err(t.col, format!("{} given twice", quote(t.text)));
                        }
                    }
                    rp.dependencies.push(SubpassDependency {
                        src,
                        dst,
                        src_stage_mask,
                        src_access_mask,
                        dst_stage_mask,
                        dst_access_mask,
                        by_region,
                        view_local,
                    });
                }
                other => {
                    return line.err(
                        g[0].col,
                        format!(
                            "expected `attachment`, `subpass` or `dependency`, found {}",
                            quote(other)
                        ),
                    )
                }
            }
        }
        Ok(rp)
    }

    /// `begin-render-pass`, `next-subpass`, `end-render-pass`,
    /// `clear-attachments`.
    fn pass_op(&mut self, line: &mut Line, kw: &str) -> Result<RenderOp, ParseError> {
        match kw {
            "next-subpass" => {
                line.done()?;
                Ok(RenderOp::NextSubpass)
            }
            "end-render-pass" => {
                line.done()?;
                Ok(RenderOp::EndPass)
            }
            "begin-render-pass" => {
                let t = line.next("a render pass name")?;
                let Some(pass) = self
                    .trace
                    .program
                    .render_passes()
                    .iter()
                    .position(|r| r.name == t.text)
                else {
                    return line.err(
                        t.col,
                        format!(
                            "unknown render pass {} (declare it with `render-pass`)",
                            quote(t.text)
                        ),
                    );
                };
                let mut render_area = None;
                if let Some(t) = line.peek().filter(|t| t.text.starts_with("renderArea=")) {
                    line.pos += 1;
                    render_area = Some(render_area_value(line, t, &t.text["renderArea=".len()..])?);
                    if let Some(t) = line.peek().filter(|t| t.text.starts_with("renderArea=")) {
                        return line.err(t.col, "`renderArea` given twice");
                    }
                }
                let mut views = Vec::new();
                for g in groups(line)? {
                    let image = self.image(line, g[0])?;
                    let Some(rt) = g.get(1) else {
                        return line.err(
                            g[0].col + g[0].text.len(),
                            "expected the view's subresources `ASPECTS:MIP:LAYERS`",
                        );
                    };
                    let range = subrange(line, *rt)?;
                    if let Some(t) = g.get(2) {
                        return line.err(t.col, format!("unexpected {}", quote(t.text)));
                    }
                    views.push((image, range));
                }
                Ok(RenderOp::BeginPass(PassBegin {
                    pass: RenderPassId(pass as u32),
                    views,
                    render_area,
                }))
            }
            _ => {
                let mut c = ClearAttachments::default();
                for g in groups(line)? {
                    match (g[0].text, g.get(1), g.len()) {
                        ("color", Some(n), 2) => {
                            c.colors.push(number32(line, *n, "a color attachment index")?)
                        }
                        ("depth", None, 1) if !c.depth => c.depth = true,
                        ("stencil", None, 1) if !c.stencil => c.stencil = true,
                        _ => return line.err(
                            g[0].col,
                            "expected `color N`, `depth` or `stencil` (each aspect once), separated by ` ; `",
                        ),
                    }
                }
                Ok(RenderOp::Clear(c))
            }
        }
    }

    /// `begin-rendering`, `end-rendering` and the draws.
    fn render_op(&mut self, line: &mut Line, kw: &str) -> Result<RenderOp, ParseError> {
        match kw {
            "end-rendering" => {
                line.done()?;
                return Ok(RenderOp::End);
            }
            "begin-rendering" => {
                let mut r = Rendering::default();
                // The flags and `renderArea=X,Y,W,H`, `layerCount=N`,
                // `viewMask=M` first, in any order, each at most once.
                let mut seen: Vec<&str> = Vec::new();
                while let Some(t) = line.peek() {
                    let key = t.text.split_once('=').map_or(t.text, |(k, _)| k);
                    if !["resuming", "suspending", "renderArea", "layerCount", "viewMask"].contains(&key) {
                        break;
                    }
                    line.pos += 1;
                    if seen.contains(&key) {
                        return line.err(t.col, format!("`{key}` given twice"));
                    }
                    seen.push(key);
                    let value = t.text.split_once('=').map(|(_, v)| v);
                    match (key, value) {
                        ("resuming", None) => r.resuming = true,
                        ("suspending", None) => r.suspending = true,
                        ("renderArea", Some(v)) => r.render_area = Some(render_area_value(line, t, v)?),
                        ("layerCount" | "viewMask", Some(v)) => {
                            let Ok(n) = v.parse::<u32>() else {
                                return line.err(t.col, format!("expected `{key}=N` with N a number"));
                            };
                            if key == "layerCount" {
                                r.layer_count = Some(n);
                            } else {
                                r.view_mask = n;
                            }
                        }
                        _ => {
                            return line.err(
                                t.col,
                                format!(
                                    "`{}`: `resuming` and `suspending` take no value, `{key}` takes one",
                                    t.text
                                ),
                            )
                        }
                    }
                }
                for g in groups(line)? {
                    let (color, a) = self.attachment(line, &g)?;
                    if color {
                        r.colors.push(a);
                    } else if r.depth.replace(a).is_some() {
                        return line.err(
                            g[0].col,
                            "a rendering instance has at most one `depth` attachment",
                        );
                    }
                }
                return Ok(RenderOp::Begin(r));
            }
            _ => {}
        }
        let mut params: HashMap<&str, u64> = HashMap::new();
        let mut objects: Vec<ObjectId> = Vec::new();
        let mut d = Draw {
            kind: DrawKind::Draw {
                vertex_count: 0,
                instance_count: 1,
                first_vertex: 0,
                first_instance: 0,
            },
            vertex: Vec::new(),
            index: None,
            bindings: Vec::new(),
            color_write: true,
            blend: false,
            depth_test: false,
            depth_write: false,
        };
        let keys: &[&str] = match kw {
            "draw" => &["vertexCount", "instanceCount", "firstVertex", "firstInstance"],
            "draw-indexed" => &["indexCount", "instanceCount", "firstIndex", "firstInstance"],
            "draw-indirect" | "draw-indexed-indirect" => &["offset", "drawCount", "stride"],
            _ => &["offset", "countOffset", "maxDrawCount", "stride"],
        };
        let mut indexed_count = false;
        // The buffers come first: the indirect buffer, then the count
        // buffer.
        if kw.contains("indirect") {
            let t = line.next("the indirect buffer")?;
            objects.push(self.object(line, t)?);
        }
        if kw == "draw-indirect-count" {
            let t = line.next("the count buffer")?;
            objects.push(self.object(line, t)?);
        }
        while let Some(t) = line.peek() {
            line.pos += 1;
            if let Some((key, value)) = t.text.split_once('=') {
                if !keys.contains(&key) {
                    return line.err(
                        t.col,
                        format!("unknown key {} (expected one of {})", quote(key), keys.join(", ")),
                    );
                }
                let v = t.piece(t.text.len() - value.len(), t.text.len());
                let bits = if key == "offset" || key == "countOffset" {
                    64
                } else {
                    32
                };
                if params.insert(key, number(line, v, "a number", bits)?).is_some() {
                    return line.err(t.col, format!("{} given twice", quote(key)));
                }
                continue;
            }
            match t.text {
                "vertex" | "instance" => {
                    let b = line.next("a vertex buffer")?;
                    let buffer = self.object(line, b)?;
                    let o = line.next("the binding's offset")?;
                    let offset = number(line, o, "the binding's offset", 64)?;
                    let s = line.next("the binding's stride")?;
                    let stride = number(line, s, "the binding's stride", 32)?;
                    let rate = if t.text == "vertex" { VertexRate::Vertex } else { VertexRate::Instance };
                    d.vertex.push(VertexBuffer {
                        buffer,
                        offset,
                        stride,
                        rate,
                    });
                }
                "index" => {
                    let b = line.next("an index buffer")?;
                    let buffer = self.object(line, b)?;
                    let o = line.next("the index buffer's offset")?;
                    let offset = number(line, o, "the index buffer's offset", 64)?;
                    let ty = line.next("an index type (`u8`, `u16` or `u32`)")?;
                    let index_type = IndexType::parse(ty.text).map_or_else(
                        || line.err(ty.col, format!("expected `u8`, `u16` or `u32`, found {}", quote(ty.text))),
                        Ok,
                    )?;
                    if d.index.is_some() {
                        return line.err(t.col, "a draw has one `index` buffer");
                    }
                    d.index = Some(IndexBuffer {
                        buffer,
                        offset,
                        index_type,
                    });
                }
                "vs" | "fs" => {
                    let stage = if t.text == "vs" { ShaderStage::Vertex } else { ShaderStage::Fragment };
                    let a = line.next(
                        "`read`, `write`, `rw`, `uniform`, `sampled`, `image-read`, `image-write`, `image-rw` or `sampled-image`",
                    )?;
                    let access = match a.text {
                        "read" => BindingAccess::Read,
                        "write" => BindingAccess::Write,
                        "rw" => BindingAccess::ReadWrite,
                        "uniform" => BindingAccess::Uniform,
                        "sampled" => BindingAccess::Sampled,
                        "image-read" | "image-write" | "image-rw" | "sampled-image" => {
                            let binding = self.image_binding(line, a.text, d.bindings.len())?;
                            d.bindings.push(ShaderBinding { stage, binding });
                            continue;
                        }
                        other => {
                            return line.err(
                                a.col,
                                format!(
                                    "expected `read`, `write`, `rw`, `uniform`, `sampled`, `image-read`, `image-write`, \
                                     `image-rw` or `sampled-image`, found {}",
                                    quote(other)
                                ),
                            )
                        }
                    };
                    let r = line.next("a region")?;
                    let region = self.region(line, r)?;
                    d.bindings.push(ShaderBinding {
                        stage,
                        binding: Binding { access, region },
                    });
                }
                "blend" => d.blend = true,
                "no-color-write" => d.color_write = false,
                "depth-test" => d.depth_test = true,
                "depth-write" => d.depth_write = true,
                "indexed" if kw == "draw-indirect-count" => indexed_count = true,
                other => {
                    return line.err(
                        t.col,
                        format!(
                            "expected `KEY=VALUE` ({}), `vertex`, `instance`, `index`, `vs`, `fs`, `blend`, `no-color-write`, \
                             `depth-test` or `depth-write`, found {}",
                            keys.join(", "),
                            quote(other)
                        ),
                    )
                }
            }
        }
        let get = |k: &str, default: u64| params.get(k).copied().unwrap_or(default);
        let need = |k: &str| match params.get(k) {
            Some(v) => Ok(*v),
            None => line.err(line.end_col, format!("expected `{k}=...`")),
        };
        let u = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        d.kind = match kw {
            "draw" => DrawKind::Draw {
                vertex_count: u(need("vertexCount")?),
                instance_count: u(get("instanceCount", 1)),
                first_vertex: u(get("firstVertex", 0)),
                first_instance: u(get("firstInstance", 0)),
            },
            "draw-indexed" => DrawKind::DrawIndexed {
                index_count: u(need("indexCount")?),
                instance_count: u(get("instanceCount", 1)),
                first_index: u(get("firstIndex", 0)),
                first_instance: u(get("firstInstance", 0)),
            },
            "draw-indirect" | "draw-indexed-indirect" => DrawKind::Indirect {
                indexed: kw == "draw-indexed-indirect",
                buffer: objects[0],
                offset: get("offset", 0),
                draw_count: u(need("drawCount")?),
                stride: u(need("stride")?),
            },
            _ => DrawKind::IndirectCount {
                indexed: indexed_count,
                buffer: objects[0],
                offset: get("offset", 0),
                count_buffer: objects[1],
                count_offset: get("countOffset", 0),
                max_draw_count: u(need("maxDrawCount")?),
                stride: u(need("stride")?),
            },
        };
        Ok(RenderOp::Draw(d))
    }

    fn line(&mut self, mut line: Line) -> Result<(), ParseError> {
        let Some(first) = line.peek() else {
            return Ok(());
        };
        line.pos += 1;
        let (kw, no) = (first.text, line.no);
        match kw {
            "buffer" | "pool" => {
                let t = line.next("a name")?;
                let name = self.declare(&line, t)?;
                let t = line.next("a size in bytes")?;
                let size = number(&line, t, "a size in bytes (decimal or 0x hex)", 64)?;
                let kind = if kw == "pool" {
                    let mut align = DEFAULT_POOL_ALIGN;
                    if line.peek().is_some_and(|t| t.text != EXCLUSIVE) {
                        line.expect("align")?;
                        let t = line.next("an alignment")?;
                        align = number(&line, t, "an alignment (decimal or 0x hex)", 64)?;
                    }
                    ObjectKind::Pool { align }
                } else if line.peek().is_some_and(|t| t.text != EXCLUSIVE) {
                    if line.peek().is_some_and(|t| t.text != "alias") {
                        let t = line.next("`alias` or `exclusive`")?;
                        return line.err(
                            t.col,
                            format!("expected `alias` or `exclusive`, found {}", quote(t.text)),
                        );
                    }
                    line.expect("alias")?;
                    let t = line.next("the aliased buffer or pool")?;
                    let other = self.object(&line, t)?;
                    let t = line.next("an offset")?;
                    let off = number(&line, t, "an offset (decimal or 0x hex)", 64)?;
                    ObjectKind::Buffer {
                        alias: Some((other, off)),
                    }
                } else {
                    ObjectKind::Buffer { alias: None }
                };
                let sharing = if line.peek().is_some() {
                    line.expect(EXCLUSIVE)?;
                    SharingMode::Exclusive
                } else {
                    SharingMode::Concurrent
                };
                line.done()?;
                self.add_object(
                    &line,
                    Object {
                        name,
                        size,
                        kind,
                        sharing,
                    },
                )?;
            }
            "image" => {
                let t = line.next("a name")?;
                let name = self.declare(&line, t)?;
                let ft = line.next("a format")?;
                let Some(format) = Format::parse(ft.text) else {
                    let known: Vec<&str> = crate::vk::image::FORMATS.iter().map(|f| f.name).collect();
                    return line.err(
                        ft.col,
                        format!(
                            "unknown format {} (the model knows {})",
                            quote(ft.text),
                            known.join(", ")
                        ),
                    );
                };
                let et = line.next("an extent `WIDTHxHEIGHT[xDEPTH]`")?;
                let dims: Vec<&str> = et.text.split('x').collect();
                if !(2..=3).contains(&dims.len()) {
                    return line.err(
                        et.col,
                        format!(
                            "expected an extent `WIDTHxHEIGHT[xDEPTH]`, found {}",
                            quote(et.text)
                        ),
                    );
                }
                let mut extent = [1u32; 3];
                let mut col = et.col;
                for (i, d) in dims.iter().enumerate() {
                    let piece = Tok { text: d, col };
                    extent[i] = number32(&line, piece, "an extent in texels")?;
                    col += d.len() + 1;
                }
                let (mut mips, mut layers, mut tiling, mut alias, mut sharing, mut initial) =
                    (1, 1, Tiling::Optimal, None, SharingMode::Concurrent, None);
                let mut row_pitch: Option<(u64, usize)> = None;
                // Each option once: a second one would silently win.
                let mut given: Vec<&str> = Vec::new();
                while let Some(t) = line.peek() {
                    line.pos += 1;
                    let option = match t.text {
                        "linear" | "optimal" => "a tiling (`linear` or `optimal`)",
                        EXCLUSIVE | "concurrent" => "a sharing mode (`exclusive` or `concurrent`)",
                        other if other.starts_with(ROW_PITCH) => ROW_PITCH,
                        other => other,
                    };
                    if given.contains(&option) {
                        let what = if option.contains(' ') {
                            option.to_string()
                        } else {
                            quote(option)
                        };
                        return line.err(t.col, format!("{what} is given twice in this image declaration"));
                    }
                    given.push(option);
                    match t.text {
                        "mips" | "layers" => {
                            let v = line.next("a count")?;
                            let v = number32(&line, v, "a count")?;
                            if t.text == "mips" {
                                mips = v;
                            } else {
                                layers = v;
                            }
                        }
                        "linear" => tiling = Tiling::Linear,
                        "optimal" => tiling = Tiling::Optimal,
                        EXCLUSIVE => sharing = SharingMode::Exclusive,
                        "concurrent" => sharing = SharingMode::Concurrent,
                        "initial" => {
                            let l = line.next("an image layout")?;
                            initial = Some((layout(&line, l)?, l.col));
                        }
                        other if other.starts_with(ROW_PITCH) => {
                            let v = &other[ROW_PITCH.len()..];
                            let parsed = match v.strip_prefix("0x") {
                                Some(hex) => u64::from_str_radix(hex, 16),
                                None => v.parse::<u64>(),
                            };
                            match parsed {
                                Ok(p) => row_pitch = Some((p, t.col)),
                                Err(_) => {
                                    return line.err(
                                        t.col,
                                        format!("expected a row pitch in bytes after `rowPitch=`, found {}", quote(v)),
                                    )
                                }
                            }
                        }
                        "alias" => {
                            let o = line.next("the aliased buffer or pool")?;
                            let other = self.object(&line, o)?;
                            let off = line.next("an offset")?;
                            alias = Some((other, number(&line, off, "an offset (decimal or 0x hex)", 64)?));
                        }
                        other => {
                            return line.err(
                                t.col,
                                format!(
                                    "expected `mips`, `layers`, `linear`, `optimal`, `rowPitch=`, `exclusive`, `concurrent`, `initial` or `alias`, found {}",
                                    quote(other)
                                ),
                            )
                        }
                    }
                }
                let id = match self
                    .trace
                    .program
                    .declare_image(&name, format, extent, mips, layers, tiling, alias)
                {
                    Ok(id) => id,
                    Err(e) => return line.err(et.col, e.kind.to_string()),
                };
                if sharing == SharingMode::Exclusive {
                    let _ = self.trace.program.set_sharing(id, sharing);
                }
                if let Some((l, col)) = initial {
                    if let Err(e) = self.trace.program.set_initial_layout(id, l) {
                        return line.err(col, e.kind.to_string());
                    }
                }
                if let Some((p, col)) = row_pitch {
                    if let Err(e) = self.trace.program.set_row_pitch(id, p) {
                        return line.err(col, e.kind.to_string());
                    }
                }
                self.names.insert(name, id);
                self.trace.object_lines.push(no);
            }
            "alloc" => {
                let t = line.next("a blob name")?;
                let name = self.declare(&line, t)?;
                let t = line.next("a size in bytes")?;
                let size = number(&line, t, "a size in bytes (decimal or 0x hex)", 64)?;
                line.expect("from")?;
                let t = line.next("a pool")?;
                let pool = self.object(&line, t)?;
                if !matches!(self.trace.program.obj(pool).kind, ObjectKind::Pool { .. }) {
                    return line.err(t.col, format!("{} is not a pool", quote(t.text)));
                }
                line.done()?;
                let kind = ObjectKind::Blob { pool };
                let sharing = SharingMode::Concurrent;
                let blob = self.add_object(
                    &line,
                    Object {
                        name,
                        size,
                        kind,
                        sharing,
                    },
                )?;
                self.push(no, Command::Alloc { blob });
            }
            "free" => {
                let t = line.next("a blob")?;
                let blob = self.object(&line, t)?;
                if !matches!(self.trace.program.obj(blob).kind, ObjectKind::Blob { .. }) {
                    return line.err(
                        t.col,
                        format!("{} is not a blob; only blobs are freed", quote(t.text)),
                    );
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
            // The exact forms: an `image`-declared object as the image
            // operand (the coarse forms name bytes of a buffer).
            "copy-buffer-to-image"
            | "copy-image-to-buffer"
            | "copy-image"
            | "blit-image"
            | "resolve-image"
            | "clear-color-image"
            | "clear-depth-stencil-image"
                if !matches!(kw, "copy-buffer-to-image" | "copy-image-to-buffer" | "copy-image")
                    || line.toks[line.pos..].iter().any(|t| {
                        self.names
                            .get(t.text)
                            .is_some_and(|id| self.trace.program.image(*id).is_some())
                    }) =>
            {
                let op = self.image_command(&mut line, kw)?;
                let c = self
                    .trace
                    .program
                    .image_command(op)
                    .or_else(|e| line.err(first.col, e.kind.to_string()))?;
                self.push(no, c);
            }
            "render-pass" => {
                let t = line.next("a render pass name")?;
                let rp = self.render_pass_decl(&mut line, t)?;
                if let Err(e) = self.trace.program.render_pass(rp) {
                    return line.err(t.col, e.to_string());
                }
            }
            "begin-render-pass" | "next-subpass" | "end-render-pass" | "clear-attachments" => {
                let op = self.pass_op(&mut line, kw)?;
                if matches!(op, RenderOp::NextSubpass | RenderOp::EndPass) {
                    // The subpass's end (resolves, store operations) is a
                    // command of its own, on the same line.
                    let c = self
                        .trace
                        .program
                        .render_command(RenderOp::EndSubpass {
                            last: op == RenderOp::EndPass,
                        })
                        .or_else(|e| line.err(first.col, e.kind.to_string()))?;
                    self.push(no, c);
                }
                let c = self
                    .trace
                    .program
                    .render_command(op)
                    .or_else(|e| line.err(first.col, e.kind.to_string()))?;
                self.push(no, c);
            }
            "begin-rendering"
            | "end-rendering"
            | "draw"
            | "draw-indexed"
            | "draw-indirect"
            | "draw-indexed-indirect"
            | "draw-indirect-count" => {
                let op = self.render_op(&mut line, kw)?;
                let c = self
                    .trace
                    .program
                    .render_command(op)
                    .or_else(|e| line.err(first.col, e.kind.to_string()))?;
                self.push(no, c);
            }
            "copy-buffer-to-image" | "copy-image-to-buffer" | "copy-image" => {
                let kind = match kw {
                    "copy-buffer-to-image" => ImageCopy::BufferToImage,
                    "copy-image-to-buffer" => ImageCopy::ImageToBuffer,
                    _ => ImageCopy::ImageToImage,
                };
                let t = line.next("a source region")?;
                let src = self.region(&line, t)?;
                line.expect("->")?;
                let t = line.next("a destination region")?;
                let dst = self.region(&line, t)?;
                line.done()?;
                self.push(no, Command::CopyImage { kind, src, dst });
            }
            "fill" | "update" | "host-write" => {
                let t = line.next("a region")?;
                let dst = self.region(&line, t)?;
                let value = match line.peek() {
                    Some(t) => {
                        line.pos += 1;
                        number32(&line, t, "a 32-bit value (decimal or 0x hex)")?
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
                    line.pos += 1;
                    let access = match t.text {
                        "read" => BindingAccess::Read,
                        "write" => BindingAccess::Write,
                        "rw" => BindingAccess::ReadWrite,
                        "uniform" => BindingAccess::Uniform,
                        "sampled" => BindingAccess::Sampled,
                        // VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: read by the
                        // fragment stage (INPUT_ATTACHMENT_READ), which a
                        // dispatch does not run.
                        "input-attachment" => {
                            return line.err(
                                t.col,
                                "input attachments are not modelled: INPUT_ATTACHMENT_READ needs the fragment stage, \
                                 and a dispatch has none",
                            )
                        }
                        "image-read" | "image-write" | "image-rw" | "sampled-image" => {
                            let b = self.image_binding(&mut line, t.text, bindings.len())?;
                            bindings.push(b);
                            continue;
                        }
                        "indirect" => {
                            let r = line.next("the indirect arguments region")?;
                            if indirect.is_some() {
                                return line.err(t.col, "a dispatch has at most one `indirect` region");
                            }
                            indirect = Some(self.region(&line, r)?);
                            continue;
                        }
                        other => {
                            return line.err(
                                t.col,
                                format!(
                                    "expected `read`, `write`, `rw`, `uniform`, `sampled`, `image-read`, `image-write`, \
                                     `image-rw`, `sampled-image` or `indirect`, found {}",
                                    quote(other)
                                ),
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
                // `barrier` alone is a call with no barrier (what removing
                // the last barrier of a call leaves; a no-op).
                let barriers = self.barriers(&line, &line.toks[line.pos..], line.end_col)?;
                self.push(no, Command::Barrier(Dependency { barriers }));
            }
            "event" => {
                let t = line.next("an event name")?;
                let taken = self.trace.program.find_event(t.text).is_some();
                let name = self.declare_sync(&line, t, taken)?;
                line.done()?;
                if let Err(e) = self.trace.program.event(&name) {
                    return line.err(t.col, e.kind.to_string());
                }
                self.events.declare();
                self.trace.event_lines.push(no);
            }
            "set-event" => {
                let t = line.next("an event name")?;
                let event = self.event(&line, t)?;
                let dependency = self.event_dependency(&line, &line.toks[line.pos..], line.end_col)?;
                let name = t.text;
                for (index, b) in dependency.barriers.iter().enumerate() {
                    if (b.src_stage_mask | b.dst_stage_mask).contains(PipelineStageFlags2::HOST) {
                        let kind = ProgramErrorKind::EventSetHostStage {
                            name: name.to_string(),
                            index,
                        };
                        return line.err(t.col, kind.to_string());
                    }
                }
                let ci = self.trace.program.commands.len();
                if let Err(kind) = self.events.set(ci, event, &dependency, name) {
                    return line.err(t.col, kind.to_string());
                }
                self.push(no, Command::SetEvent { event, dependency });
            }
            "wait-events" => {
                // `EVENT BARRIERS` per event, separated by `,` (which no
                // barrier's text contains), alone or touching a token.
                let rest = &line.toks[line.pos..];
                if rest.is_empty() {
                    return line.err(line.end_col, "expected an event name");
                }
                let mut groups: Vec<(Vec<Tok>, usize)> = vec![(Vec::new(), 0)];
                for t in rest {
                    let mut from = 0;
                    for (i, _) in t.text.match_indices(',') {
                        if i > from {
                            groups.last_mut().expect("one group").0.push(t.piece(from, i));
                        }
                        groups.last_mut().expect("one group").1 = t.col + i;
                        groups.push((Vec::new(), 0));
                        from = i + 1;
                    }
                    if from < t.text.len() {
                        groups
                            .last_mut()
                            .expect("one group")
                            .0
                            .push(t.piece(from, t.text.len()));
                    }
                }
                groups.last_mut().expect("one group").1 = line.end_col;
                let ci = self.trace.program.commands.len();
                let mut waits = Vec::new();
                for (k, (toks, end)) in groups.iter().enumerate() {
                    let Some((t, barrier_toks)) = toks.split_first() else {
                        return line.err(*end, "expected an event name");
                    };
                    let event = self.event(&line, *t)?;
                    let dependency = self.event_dependency(&line, barrier_toks, *end)?;
                    let w = EventWait { event, dependency };
                    let program = &self.trace.program;
                    if let Err(kind) = self
                        .events
                        .wait(ci, k, &w, t.text, |r| program.image_barrier(r).copied())
                    {
                        return line.err(t.col, kind.to_string());
                    }
                    self.event_wait_toks.push(((ci, k), (no, t.col)));
                    waits.push(w);
                }
                self.push(no, Command::WaitEvents { waits });
            }
            "set-event1" => {
                let t = line.next("an event name")?;
                let event = self.event(&line, t)?;
                let st = line.next("the stage mask")?;
                let stage_mask = flag_list(
                    &line,
                    st,
                    PipelineStageFlags2::empty(),
                    PipelineStageFlags2::parse,
                )?;
                line.done()?;
                if let Some((flag, instead)) = stage_mask.first_sync2_only() {
                    let kind = ProgramErrorKind::Sync2OnlyFlag {
                        call: "vkCmdSetEvent",
                        flag,
                        instead,
                    };
                    return line.err(flag_col(st, flag), kind.to_string());
                }
                if stage_mask.contains(PipelineStageFlags2::HOST) {
                    let kind = ProgramErrorKind::EventSet1Stages {
                        name: t.text.to_string(),
                        bits: PipelineStageFlags2::HOST.bits(),
                    };
                    return line.err(flag_col(st, "HOST"), kind.to_string());
                }
                let ci = self.trace.program.commands.len();
                if let Err(kind) = self.events.set1(ci, event, stage_mask, t.text) {
                    return line.err(t.col, kind.to_string());
                }
                self.push(no, Command::SetEvent1 { event, stage_mask });
            }
            "wait-events1" => {
                // The events, then the barriers: the first token with a
                // `:` starts the barriers (no event name has one).
                let rest = &line.toks[line.pos..];
                let split = rest
                    .iter()
                    .position(|t| t.text.contains(':'))
                    .unwrap_or(rest.len());
                let (event_toks, barrier_toks) = rest.split_at(split);
                if event_toks.is_empty() {
                    let col = barrier_toks.first().map_or(line.end_col, |t| t.col);
                    return line.err(col, "expected an event name");
                }
                let mut events = Vec::with_capacity(event_toks.len());
                for t in event_toks {
                    events.push(self.event(&line, *t)?);
                }
                if barrier_toks.is_empty() {
                    return line.err(
                        line.end_col,
                        "expected the wait's barriers: `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION] [; ...]`, \
                         each with the call's srcStageMask and dstStageMask",
                    );
                }
                let dependency = Dependency {
                    barriers: self.barriers(&line, barrier_toks, line.end_col)?,
                };
                // The builder's rules (`Program::push`), each on its token.
                let first = dependency.barriers[0];
                for (index, b) in dependency.barriers.iter().enumerate() {
                    let toks = barrier_tokens(barrier_toks, index);
                    let tok = |i: usize| toks.get(i).copied().unwrap_or(barrier_toks[0]);
                    if b.src_stage_mask != first.src_stage_mask || b.dst_stage_mask != first.dst_stage_mask {
                        let at = if b.src_stage_mask != first.src_stage_mask {
                            0
                        } else {
                            2
                        };
                        let kind = ProgramErrorKind::WaitEvents1StageMasks { index };
                        return line.err(tok(at).col, kind.to_string());
                    }
                    let sides = [
                        (0, b.src_stage_mask.first_sync2_only()),
                        (2, b.dst_stage_mask.first_sync2_only()),
                        (0, b.src_access_mask.first_sync2_only()),
                        (2, b.dst_access_mask.first_sync2_only()),
                    ];
                    if let Some((at, Some((flag, instead)))) = sides.into_iter().find(|(_, f)| f.is_some()) {
                        let kind = ProgramErrorKind::Sync2OnlyFlag {
                            call: "vkCmdWaitEvents",
                            flag,
                            instead,
                        };
                        let side = tok(at);
                        let colon = side.text.find(':').unwrap_or(0);
                        // The stage part before the `:`, the access part after.
                        let part = if side.text[..colon].split('|').any(|n| n == flag) {
                            side.piece(0, colon)
                        } else {
                            side.piece(colon + 1, side.text.len())
                        };
                        return line.err(flag_col(part, flag), kind.to_string());
                    }
                    if b.ownership.is_some() {
                        let kind = ProgramErrorKind::OwnershipInEvent { index };
                        let col = toks
                            .iter()
                            .find(|t| t.text == OWNERSHIP)
                            .map_or(tok(0).col, |t| t.col);
                        return line.err(col, kind.to_string());
                    }
                }
                let ci = self.trace.program.commands.len();
                let program = &self.trace.program;
                let src = first.src_stage_mask;
                if let Err((at, kind)) = self.events.wait1(ci, &events, src, |e| program.event_name(e)) {
                    let col = match at {
                        Some(k) => event_toks[k].col,
                        None => barrier_toks[0].col,
                    };
                    return line.err(col, kind.to_string());
                }
                for (k, t) in event_toks.iter().enumerate() {
                    self.event_wait_toks.push(((ci, k), (no, t.col)));
                }
                self.push(no, Command::WaitEvents1 { events, dependency });
            }
            "reset-event" => {
                let t = line.next("an event name")?;
                let event = self.event(&line, t)?;
                let stages = match line.peek() {
                    Some(st) => {
                        line.pos += 1;
                        let stages = flag_list(
                            &line,
                            st,
                            PipelineStageFlags2::empty(),
                            PipelineStageFlags2::parse,
                        )?;
                        if stages.contains(PipelineStageFlags2::HOST) {
                            let kind = ProgramErrorKind::BadResetStages {
                                name: t.text.to_string(),
                                bits: PipelineStageFlags2::HOST.bits(),
                            };
                            return line.err(st.col, kind.to_string());
                        }
                        stages
                    }
                    None => DEFAULT_RESET_STAGES,
                };
                line.done()?;
                if let Err(kind) = self.events.device_reset(event, stages, t.text) {
                    return line.err(t.col, kind.to_string());
                }
                self.push(no, Command::ResetEvent { event, stages });
            }
            "host-set-event" | "host-reset-event" => {
                let t = line.next("an event name")?;
                let event = self.event(&line, t)?;
                line.done()?;
                let program = &self.trace.program;
                let queue_name = |q| program.queue_name(q).to_string();
                let r = if kw == "host-set-event" {
                    self.events.host_set(event, t.text, queue_name, &self.done)
                } else {
                    self.events.host_reset(event, t.text, queue_name, &self.done)
                };
                if let Err(kind) = r {
                    return line.err(t.col, kind.to_string());
                }
                self.push(
                    no,
                    if kw == "host-set-event" {
                        Command::HostSetEvent { event }
                    } else {
                        Command::HostResetEvent { event }
                    },
                );
            }
            "not-modelled" => {
                let call = line
                    .next("the Vulkan call that is not modelled")?
                    .text
                    .to_string();
                let mut words = Vec::new();
                while let Some(t) = line.toks.get(line.pos) {
                    words.push(t.text);
                    line.pos += 1;
                }
                self.trace.not_modelled.push(NotModelled {
                    line: no,
                    call,
                    detail: words.join(" "),
                });
            }
            "queue" => {
                let t = line.next("a queue name")?;
                let taken = self.trace.program.find_queue(t.text).is_some();
                let name = self.declare_sync(&line, t, taken)?;
                let mut family = 0;
                if line.peek().is_some() {
                    line.expect("family")?;
                    let f = line.next("a queue family index")?;
                    family = number32(&line, f, "a queue family index")?;
                }
                line.done()?;
                if let Err(e) = self.trace.program.queue(&name, family) {
                    return line.err(t.col, e.kind.to_string());
                }
                self.trace.queue_lines.push(no);
            }
            "semaphore" => {
                let t = line.next("a semaphore name")?;
                let taken = self.trace.program.find_semaphore(t.text).is_some();
                let name = self.declare_sync(&line, t, taken)?;
                let kind = match line.peek() {
                    None => SemaphoreType::Binary,
                    Some(_) => {
                        line.expect("timeline")?;
                        let initial = match line.peek() {
                            Some(v) => {
                                line.pos += 1;
                                number(&line, v, "an initial value", 64)?
                            }
                            None => 0,
                        };
                        SemaphoreType::Timeline { initial }
                    }
                };
                line.done()?;
                match self.trace.program.semaphore(&name, kind) {
                    Ok(id) => self.sems.declare(&self.trace.program.semaphores[id.0 as usize]),
                    Err(e) => return line.err(t.col, e.kind.to_string()),
                }
                self.trace.semaphore_lines.push(no);
            }
            "submit" => {
                let mut sub = Submission::default();
                let mut operands: Vec<Tok> = Vec::new();
                let mut signal_toks: Vec<Tok> = Vec::new();
                if let Some(t) = line.peek().filter(|t| !matches!(t.text, "wait" | "signal")) {
                    line.pos += 1;
                    sub.queue = self.queue(&line, t)?;
                }
                while let Some(t) = line.peek() {
                    line.pos += 1;
                    match t.text {
                        "wait" => {
                            let o = line.next("`SEMAPHORE[:VALUE]@STAGES`")?;
                            let (semaphore, value, stages) = self.sem_operand(&line, o, true)?;
                            sub.waits.push(SemaphoreWait {
                                semaphore,
                                value,
                                stages,
                            });
                            operands.push(o);
                        }
                        "signal" => {
                            let o = line.next("`SEMAPHORE[:VALUE][@STAGES]`")?;
                            let (semaphore, value, stages) = self.sem_operand(&line, o, false)?;
                            sub.signals.push(SemaphoreSignal {
                                semaphore,
                                value,
                                stages,
                            });
                            signal_toks.push(o);
                        }
                        other => {
                            return line.err(
                                t.col,
                                format!("expected `wait` or `signal`, found {}", quote(other)),
                            )
                        }
                    }
                }
                let program = &self.trace.program;
                let stages = crate::ir::completion::batch_stages(batch_commands(&program.commands));
                let sems = &mut self.sems;
                let r = sems
                    .submit(&program.semaphores, &sub, self.done.next_ordinal())
                    .and_then(|()| {
                        self.done.submit(
                            sub.queue,
                            (&sub.waits, &sub.signals),
                            stages,
                            |s| program.semaphores[s.0 as usize].name.clone(),
                            |q| program.queue_name(q).to_string(),
                            &|x, v| sems.first_reaching(x, v),
                        )
                    });
                let at = match r {
                    Ok(at) => at,
                    Err((op, kind)) => {
                        let tok = match op {
                            SemOperand::Wait(i) => operands[i],
                            SemOperand::Signal(i) => signal_toks[i],
                        };
                        return line.err(tok.col, kind.to_string());
                    }
                };
                for (w, t) in sub.waits.iter().zip(&operands) {
                    if w.value.is_some() {
                        self.timeline_waits.push((no, t.col));
                    }
                }
                self.submit_events(sub.queue, at, no)?;
                self.push(no, Command::Submit(sub));
            }
            "wait" => {
                let target = match line.peek() {
                    Some(t) => {
                        line.pos += 1;
                        WaitFor::Queue(self.queue(&line, t)?)
                    }
                    None => WaitFor::All,
                };
                line.done()?;
                self.done.host_waited(target);
                self.push(no, Command::Wait(target));
            }
            "host-signal" | "host-wait" => {
                let t = line.next("a timeline semaphore")?;
                let semaphore = self.semaphore(&line, t)?;
                let v = line.next("a value")?;
                let value = number(&line, v, "a value (decimal or 0x hex)", 64)?;
                line.done()?;
                let s = &self.trace.program.semaphores[semaphore.0 as usize];
                if s.kind == SemaphoreType::Binary {
                    return line.err(
                        t.col,
                        format!("`{kw}` needs a timeline semaphore; {} is binary", quote(t.text)),
                    );
                }
                let semaphores = &self.trace.program.semaphores;
                let r = if kw == "host-signal" {
                    {
                        let done = &self.done;
                        self.sems.host_signal(semaphores, semaphore, value, done)
                    }
                } else {
                    self.sems.wait(semaphores, semaphore, Some(value))
                };
                if let Err(kind) = r {
                    return line.err(v.col, kind.to_string());
                }
                if kw == "host-wait" {
                    self.timeline_waits.push((no, t.col));
                    let initial = self.trace.program.semaphores[semaphore.0 as usize]
                        .kind
                        .initial_value();
                    self.done.host_waited_value(semaphore, value, initial);
                } else {
                    self.done.host_signal(semaphore, value);
                }
                self.push(
                    no,
                    if kw == "host-signal" {
                        Command::HostSignal { semaphore, value }
                    } else {
                        Command::HostWait { semaphore, value }
                    },
                );
            }
            other => {
                return line.err(
                    first.col,
                    format!(
                        "unknown command {} (expected buffer, pool, queue, semaphore, alloc, free, copy, \
                         copy-buffer-to-image, copy-image-to-buffer, copy-image, fill, update, dispatch, \
                         barrier, host-write, host-read, submit, wait, host-signal, host-wait, event, set-event, \
                         wait-events, set-event1, wait-events1, reset-event, host-set-event, host-reset-event or not-modelled)",
                        quote(other)
                    ),
                );
            }
        }
        Ok(())
    }
}

/// `NAME` or `NAME(P1,P2,...)`.
fn parse_kernel(line: &Line, t: Tok) -> Result<(String, Vec<u32>), ParseError> {
    let open = t.text.find('(');
    let name = t.piece(0, open.unwrap_or(t.text.len())).text;
    if name.is_empty() {
        return line.err(t.col, "expected a kernel name before `(`");
    }
    if BINDING_KEYWORDS.contains(&name) {
        return line.err(
            t.col,
            format!(
                "expected a kernel name, found the binding keyword `{name}` \
                 (a dispatch is `dispatch KERNEL[(P,...)] BINDING...`)"
            ),
        );
    }
    if !is_name(name) {
        return line.err(t.col, format!("invalid kernel name {}: {NAME_RULE}", quote(name)));
    }
    let Some(open) = open else {
        return Ok((name.to_string(), vec![]));
    };
    let Some(close) = t.text[open..].find(')').map(|i| open + i) else {
        return line.err(t.end_col(), "expected `)` to close the kernel parameters");
    };
    if close + 1 < t.text.len() {
        let after = t.piece(close + 1, t.text.len());
        return line.err(
            after.col,
            format!("unexpected {} after the kernel parameters", quote(after.text)),
        );
    }
    let inner = t.piece(open + 1, close);
    let mut params = Vec::new();
    // `k()` is `k` with no parameters (and prints back as `k`).
    if !inner.text.is_empty() {
        let mut from = 0;
        for p in inner.text.split(',') {
            params.push(number32(
                line,
                inner.piece(from, from + p.len()),
                "a 32-bit kernel parameter (decimal or 0x hex)",
            )?);
            from += p.len() + 1;
        }
    }
    Ok((name.to_string(), params))
}

/// Parses a trace.
///
/// Lines end at LF or CRLF. A leading UTF-8 byte-order mark is skipped (as
/// rustc and most editors do): it is invisible, carries no meaning, and
/// Windows tools add it unasked; columns on line 1 do not count it. Lines
/// are split here rather than with `str::lines` so that a CR not followed
/// by LF, even at the very end of the text, is seen and rejected.
pub fn parse(text: &str) -> Result<Trace, ParseError> {
    let mut p = Parser::default();
    let mut rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut no = 0;
    while !rest.is_empty() {
        no += 1;
        let (raw, next) = match rest.split_once('\n') {
            Some((line, next)) => (line.strip_suffix('\r').unwrap_or(line), next),
            None => (rest, ""),
        };
        rest = next;
        p.line(lex(no, raw)?)?;
    }
    // Whatever is recorded at the end is submitted to the first queue.
    let stages = crate::ir::completion::batch_stages(batch_commands(&p.trace.program.commands));
    let at = p.done.submit_plain(QueueId(0), stages);
    p.submit_events(QueueId(0), at, no.max(1))?;
    if let Some((ordinal, kind)) = p.sems.finish(&p.trace.program.semaphores) {
        let (line, col) = p.timeline_waits.get(ordinal).copied().unwrap_or((no.max(1), 1));
        return Err(ParseError {
            line,
            col,
            message: kind.to_string(),
        });
    }
    if let Some((at, ordinal, kind)) = crate::ir::progress::first_stuck(&p.trace.program) {
        let (line, col) = ordinal
            .and_then(|o| p.timeline_waits.get(o).copied())
            .or_else(|| p.trace.command_lines.get(at).map(|&l| (l, 1)))
            .unwrap_or((no.max(1), 1));
        return Err(ParseError {
            line,
            col,
            message: kind.to_string(),
        });
    }
    Ok(p.trace)
}

/// `SRC_FAMILY->DST_FAMILY` of an ownership transfer.
fn families(line: &Line, f: Tok) -> Result<OwnershipTransfer, ParseError> {
    let bad = || {
        line.err(
            f.col,
            format!(
                "expected `SRC_FAMILY->DST_FAMILY` (queue family indices), found {}",
                quote(f.text)
            ),
        )
    };
    let Some(arrow) = f.text.find("->") else {
        return bad();
    };
    let (a, b) = (&f.text[..arrow], &f.text[arrow + 2..]);
    let (Ok(src), Ok(dst)) = (a.parse::<u32>(), b.parse::<u32>()) else {
        return bad();
    };
    Ok(OwnershipTransfer {
        src_queue_family: src,
        dst_queue_family: dst,
    })
}

/// `LOAD STORE` of an attachment.
fn load_store(line: &Line, lt: Tok, st: Tok) -> Result<(LoadOp, StoreOp), ParseError> {
    let load = LoadOp::parse(lt.text).map_or_else(
        || {
            line.err(
                lt.col,
                format!(
                    "expected a load op (`LOAD`, `CLEAR`, `DONT_CARE` or `NONE`), found {}",
                    quote(lt.text)
                ),
            )
        },
        Ok,
    )?;
    let store = StoreOp::parse(st.text).map_or_else(
        || {
            line.err(
                st.col,
                format!(
                    "expected a store op (`STORE`, `DONT_CARE` or `NONE`), found {}",
                    quote(st.text)
                ),
            )
        },
        Ok,
    )?;
    Ok((load, store))
}

/// `STAGES:ACCESS` or `STAGES` (no access) of a subpass dependency.
fn scope_side(line: &Line, t: Tok) -> Result<(PipelineStageFlags2, AccessFlags2), ParseError> {
    let (st, ac) = t.text.split_once(':').unwrap_or((t.text, "NONE"));
    let stages = PipelineStageFlags2::parse(st).or_else(|e| line.err(t.col, e.to_string()))?;
    let access = AccessFlags2::parse(ac).or_else(|e| line.err(t.col, e.to_string()))?;
    Ok((stages, access))
}

/// An image layout's name (Vulkan's, without `VK_IMAGE_LAYOUT_`).
fn layout(line: &Line, t: Tok) -> Result<ImageLayout, ParseError> {
    ImageLayout::parse(t.text).map_or_else(
        || {
            line.err(
                t.col,
                format!(
                    "unknown image layout {} (Vulkan's names without `VK_IMAGE_LAYOUT_`)",
                    quote(t.text)
                ),
            )
        },
        Ok,
    )
}

/// `OLD_LAYOUT->NEW_LAYOUT`.
fn layouts_pair(line: &Line, t: Tok) -> Result<(ImageLayout, ImageLayout), ParseError> {
    let Some(arrow) = t.text.find("->") else {
        return line.err(
            t.col,
            format!("expected `OLD_LAYOUT->NEW_LAYOUT`, found {}", quote(t.text)),
        );
    };
    Ok((
        layout(line, t.piece(0, arrow))?,
        layout(line, t.piece(arrow + 2, t.text.len()))?,
    ))
}

/// `N` (one), `A..B` or `A..` (to the end: `VK_REMAINING_*`): a base and a
/// count.
fn count_span(line: &Line, t: Tok, what: &str) -> Result<(u32, Option<u32>), ParseError> {
    match t.text.find("..") {
        None => Ok((number32(line, t, what)?, Some(1))),
        Some(d) => {
            let a = number32(line, t.piece(0, d), what)?;
            let rest = t.piece(d + 2, t.text.len());
            if rest.text.is_empty() || rest.text == "REMAINING" {
                return Ok((a, None));
            }
            let b = number32(line, rest, what)?;
            if b <= a {
                return line.err(t.col, format!("{} is empty or reversed", quote(t.text)));
            }
            Ok((a, Some(b - a)))
        }
    }
}

/// `ASPECTS:MIPS:LAYERS`, a `VkImageSubresourceRange` (`COLOR:0:0`,
/// `DEPTH|STENCIL:0..:0..`, `COLOR:1..3:2..REMAINING`).
fn subrange(line: &Line, t: Tok) -> Result<SubresourceRange, ParseError> {
    let parts: Vec<&str> = t.text.split(':').collect();
    if parts.len() != 3 {
        return line.err(
            t.col,
            format!(
                "expected a subresource range `ASPECTS:MIPS:LAYERS`, found {}",
                quote(t.text)
            ),
        );
    }
    let aspects = AspectMask::parse(parts[0]).or_else(|bad| {
        line.err(
            t.col,
            format!("unknown aspect {} (COLOR, DEPTH, STENCIL)", quote(&bad)),
        )
    })?;
    let m = t.piece(parts[0].len() + 1, parts[0].len() + 1 + parts[1].len());
    let l = t.piece(m.end_col() - t.col + 1, t.text.len());
    let (base_mip, mip_count) = count_span(line, m, "a mip level")?;
    let (base_layer, layer_count) = count_span(line, l, "an array layer")?;
    Ok(SubresourceRange {
        aspects,
        base_mip,
        mip_count,
        base_layer,
        layer_count,
    })
}

/// `ASPECTS:MIP:LAYERS`, a `VkImageSubresourceLayers` (one mip level).
fn sublayers(line: &Line, t: Tok) -> Result<SubresourceLayers, ParseError> {
    let r = subrange(line, t)?;
    if r.mip_count != Some(1) {
        return line.err(
            t.col,
            format!(
                "{} names several mip levels: a copy region names one",
                quote(t.text)
            ),
        );
    }
    Ok(SubresourceLayers {
        aspects: r.aspects,
        mip: r.base_mip,
        base_layer: r.base_layer,
        layer_count: r.layer_count,
    })
}

/// `X,Y,Z`.
fn xyz(line: &Line, t: Tok) -> Result<[u32; 3], ParseError> {
    let parts: Vec<&str> = t.text.split(',').collect();
    if parts.len() != 3 {
        return line.err(t.col, format!("expected `X,Y,Z`, found {}", quote(t.text)));
    }
    let mut out = [0; 3];
    let mut at = 0;
    for (i, p) in parts.iter().enumerate() {
        out[i] = number32(line, t.piece(at, at + p.len()), "a texel coordinate")?;
        at += p.len() + 1;
    }
    Ok(out)
}

/// The rest of a line's tokens, in groups separated by `;` tokens (a
/// region or range each), at least one.
fn groups<'a>(line: &mut Line<'a>) -> Result<Vec<Vec<Tok<'a>>>, ParseError> {
    let mut out = vec![Vec::new()];
    while let Some(t) = line.peek() {
        line.pos += 1;
        if t.text == ";" {
            out.push(Vec::new());
        } else if let Some(g) = out.last_mut() {
            g.push(t);
        }
    }
    if out.iter().any(|g| g.is_empty()) {
        return line.err(line.end_col, "expected a region (regions are separated by ` ; `)");
    }
    Ok(out)
}

/// The value of token `t`'s `renderArea=X,Y,W,H` (`v`, after the `=`).
fn render_area_value(line: &Line, t: Tok, v: &str) -> Result<[u32; 4], ParseError> {
    let v: Vec<Option<u32>> = v.split(',').map(|x| x.parse().ok()).collect();
    match v[..] {
        [Some(x), Some(y), Some(w), Some(h)] => Ok([x, y, w, h]),
        _ => line.err(t.col, "expected `renderArea=X,Y,WIDTH,HEIGHT` (four numbers)"),
    }
}

/// The `key=value` tokens of a region, each key once, from `keys`.
fn fields<'a>(line: &Line, g: &[Tok<'a>], keys: &[&str]) -> Result<HashMap<&'a str, Tok<'a>>, ParseError> {
    let mut out = HashMap::new();
    for t in g {
        let Some(eq) = t.text.find('=') else {
            return line.err(
                t.col,
                format!(
                    "expected `KEY=VALUE` ({}), found {}",
                    keys.join(", "),
                    quote(t.text)
                ),
            );
        };
        let key = &t.text[..eq];
        if !keys.contains(&key) {
            return line.err(
                t.col,
                format!("unknown key {} (expected one of {})", quote(key), keys.join(", ")),
            );
        }
        if out.insert(key, t.piece(eq + 1, t.text.len())).is_some() {
            return line.err(t.col, format!("{} given twice", quote(key)));
        }
    }
    Ok(out)
}

fn required<'a>(
    line: &Line,
    f: &HashMap<&str, Tok<'a>>,
    key: &str,
    g: &[Tok],
) -> Result<Tok<'a>, ParseError> {
    match f.get(key) {
        Some(t) => Ok(*t),
        None => line.err(
            g.last().map_or(line.end_col, |t| t.end_col()),
            format!("expected `{key}=...`"),
        ),
    }
}

/// A `VkBufferImageCopy2` region: `bufferOffset=N bufferRowLength=N
/// bufferImageHeight=N imageSubresource=A:M:L imageOffset=X,Y,Z
/// imageExtent=W,H,D` (the first three and the offset default to 0).
fn buffer_copy(line: &Line, g: &[Tok]) -> Result<BufferImageCopy, ParseError> {
    let keys = [
        "bufferOffset",
        "bufferRowLength",
        "bufferImageHeight",
        "imageSubresource",
        "imageOffset",
        "imageExtent",
    ];
    let f = fields(line, g, &keys)?;
    let num = |k: &str| f.get(k).map_or(Ok(0), |t| number(line, *t, "a number", 64));
    Ok(BufferImageCopy {
        buffer_offset: num("bufferOffset")?,
        row_length: f
            .get("bufferRowLength")
            .map_or(Ok(0), |t| number32(line, *t, "a row length"))?,
        image_height: f
            .get("bufferImageHeight")
            .map_or(Ok(0), |t| number32(line, *t, "an image height"))?,
        subresource: sublayers(line, required(line, &f, "imageSubresource", g)?)?,
        offset: f.get("imageOffset").map_or(Ok([0; 3]), |t| xyz(line, *t))?,
        extent: xyz(line, required(line, &f, "imageExtent", g)?)?,
    })
}

/// A `VkImageCopy2`/`VkImageResolve2` region: `srcSubresource=A:M:L
/// srcOffset=X,Y,Z dstSubresource=A:M:L dstOffset=X,Y,Z extent=W,H,D`.
fn copy_region(line: &Line, g: &[Tok]) -> Result<ImageCopyRegion, ParseError> {
    let keys = [
        "srcSubresource",
        "srcOffset",
        "dstSubresource",
        "dstOffset",
        "extent",
    ];
    let f = fields(line, g, &keys)?;
    Ok(ImageCopyRegion {
        src_subresource: sublayers(line, required(line, &f, "srcSubresource", g)?)?,
        src_offset: f.get("srcOffset").map_or(Ok([0; 3]), |t| xyz(line, *t))?,
        dst_subresource: sublayers(line, required(line, &f, "dstSubresource", g)?)?,
        dst_offset: f.get("dstOffset").map_or(Ok([0; 3]), |t| xyz(line, *t))?,
        extent: xyz(line, required(line, &f, "extent", g)?)?,
    })
}

/// `X,Y,Z:X,Y,Z`, a blit region's two corners.
fn corners(line: &Line, t: Tok) -> Result<[[u32; 3]; 2], ParseError> {
    let Some(c) = t.text.find(':') else {
        return line.err(
            t.col,
            format!("expected `X0,Y0,Z0:X1,Y1,Z1`, found {}", quote(t.text)),
        );
    };
    Ok([
        xyz(line, t.piece(0, c))?,
        xyz(line, t.piece(c + 1, t.text.len()))?,
    ])
}

/// A `VkImageBlit2` region: `srcSubresource=A:M:L srcOffsets=X,Y,Z:X,Y,Z
/// dstSubresource=A:M:L dstOffsets=X,Y,Z:X,Y,Z`.
fn blit_region(line: &Line, g: &[Tok]) -> Result<ImageBlitRegion, ParseError> {
    let keys = ["srcSubresource", "srcOffsets", "dstSubresource", "dstOffsets"];
    let f = fields(line, g, &keys)?;
    Ok(ImageBlitRegion {
        src_subresource: sublayers(line, required(line, &f, "srcSubresource", g)?)?,
        src_offsets: corners(line, required(line, &f, "srcOffsets", g)?)?,
        dst_subresource: sublayers(line, required(line, &f, "dstSubresource", g)?)?,
        dst_offsets: corners(line, required(line, &f, "dstOffsets", g)?)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::print;

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

    #[test]
    fn errors_name_line_column_and_reason() {
        // More cases, one per lexical rule, are in tests/trace_edges.rs.
        let cases: &[(&str, &str)] = &[
            ("buffer a 16\nfrob a", "2:1: unknown command `frob` (expected buffer, pool, queue, semaphore, alloc, free, copy, copy-buffer-to-image, copy-image-to-buffer, copy-image, fill, update, dispatch, barrier, host-write, host-read, submit, wait, host-signal, host-wait, event, set-event, \
                         wait-events, set-event1, wait-events1, reset-event, host-set-event, host-reset-event or not-modelled)"),
            ("buffer a 16\nfill z[0..4] 1", "2:6: unknown buffer, pool or blob `z`"),
            (
                "buffer a 16\nimage i R32_UINT 2x2\ncopy-buffer-to-image a[0..16] -> i GENERAL imageSubresource=COLOR:0:0 imageExtent=2,2,1",
                "3:22: expected a name, found the range `a[0..16]`: name `a` alone (an image copy places its bytes with `bufferOffset=`)",
            ),
            ("buffer a 16\nfill a[0..x] 1", "2:11: expected a byte offset, found `x`"),
            ("buffer a 16\nfill a[8..4] 1", "2:8: range 8..4 ends before it starts"),
            ("buffer a 16\nfill a[0..4", "2:12: expected `]` to close the range"),
            ("buffer a 16\nbarrier COPY:TRANSFER_WRITE -> COMPUTE:SHADER_READ", "2:32: unknown stage flag `COMPUTE`"),
            ("buffer a 16\nbarrier COPY:TRANSFER_WRIT -> COPY:NONE", "2:14: unknown access flag `TRANSFER_WRIT`"),
            ("buffer a 16\nbarrier COPY:NONE", "2:18: expected `SRC_STAGES:SRC_ACCESS -> DST_STAGES:DST_ACCESS [REGION [transition] [ownership SRC->DST]]`"),
            ("buffer a 16\nbuffer a 32", "2:8: `a` is already declared"),
            ("buffer a 16\ndispatch k", "2:11: a dispatch needs at least one `read`, `write` or `rw` binding"),
            ("buffer a 16\ndispatch k reed a", "2:12: expected `read`, `write`, `rw`, `uniform`, `sampled`, `image-read`, `image-write`, `image-rw`, `sampled-image` or `indirect`, found `reed`"),
            ("buffer a 16\nfill a 0x1_0000_0000", "2:8: `0x1_0000_0000` does not fit in 32 bits (at most 4294967295)"),
            ("buffer a 16\nfree a", "2:6: `a` is not a blob; only blobs are freed"),
            ("buffer a 16\nsubmit now", "2:8: unexpected `now`: this trace declares no queue, so `submit` and `wait` name none (they mean its one implicit queue); to name it, declare it: `queue NAME`"),
            ("buffer 1a 16", "1:8: invalid name `1a`: use letters, digits, `_`, `-` and `.`, starting with a letter or `_`"),
        ];
        for (text, expected) in cases {
            let got = parse(text).map(|_| ()).map_err(|e| e.to_string());
            assert_eq!(got, Err(expected.to_string()), "for {text:?}");
        }
    }

    #[test]
    fn numbers() {
        // parse_num alone: the value, or why not (byte offsets).
        let cases: &[(&str, Result<u64, NumError>)] = &[
            ("0", Ok(0)),
            ("007", Ok(7)),
            ("1_000", Ok(1000)),
            ("0x1_0000", Ok(0x1_0000)),
            ("0XfF", Ok(255)),
            ("18446744073709551615", Ok(u64::MAX)),
            ("0xffff_ffff_ffff_ffff", Ok(u64::MAX)),
            ("18446744073709551616", Err(NumError::Overflow)),
            ("0x1_0000_0000_0000_0000", Err(NumError::Overflow)),
            ("", Err(NumError::NotANumber)),
            ("x", Err(NumError::NotANumber)),
            ("-1", Err(NumError::NotANumber)),
            ("+1", Err(NumError::NotANumber)),
            ("_1", Err(NumError::Underscore(0))),
            ("1_", Err(NumError::Underscore(1))),
            ("1__0", Err(NumError::Underscore(2))),
            ("0x_1", Err(NumError::Underscore(2))),
            ("0x1_", Err(NumError::Underscore(3))),
            ("0x", Err(NumError::NoHexDigits)),
            ("0x+1", Err(NumError::Digit(2, 16))),
            ("0_x1", Err(NumError::Digit(2, 10))),
            ("12a", Err(NumError::Digit(2, 10))),
            // A bad digit after an overflow is reported, not the overflow.
            ("99999999999999999999z", Err(NumError::Digit(20, 10))),
        ];
        for (text, expected) in cases {
            assert_eq!(&parse_num(text), expected, "for {text:?}");
        }
    }
}
