//! Why a program is not well formed, and where: one error type for every
//! way of building or validating a program (the builder methods of
//! [`super::program::Program`], `from_parts`, and [`super::layout::resolve`]).
//! The trace parser reports the same rules with the same wording, placed on
//! a line and column.

use super::program::{ByteRange, ObjectId};
use crate::vk::scope::ScopeError;
use std::fmt;

/// Where an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// At the command with this index in [`Program::commands`].
    Command(usize),
    /// At the declaration of this object.
    Object(ObjectId),
}

/// Why a program is not well formed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProgramErrorKind {
    #[error("`{name}` has size 0")]
    ZeroSizeObject { name: String },
    #[error("pool `{name}` alignment {align} is not a power of two")]
    BadAlign { name: String, align: u64 },
    #[error("`{name}` aliases `{other}` at {offset}..{end}, past its size {size}")]
    AliasOutOfBounds {
        name: String,
        other: String,
        offset: u64,
        end: u64,
        size: u64,
    },
    #[error("`{name}` must alias a buffer or a pool, not the blob `{other}`")]
    AliasOfBlob { name: String, other: String },
    #[error("range {range} of `{name}` is empty")]
    EmptyRange { name: String, range: ByteRange },
    #[error("range {range} is out of bounds of `{name}` (size {size})")]
    OutOfBounds {
        name: String,
        range: ByteRange,
        size: u64,
    },
    #[error("`{name}` is used before it is allocated")]
    UseBeforeAlloc { name: String },
    #[error("`{name}` is used after it was freed")]
    UseAfterFree { name: String },
    #[error("`{name}` is freed twice")]
    DoubleFree { name: String },
    #[error("`{name}` is allocated twice; give each allocation its own name")]
    AllocTwice { name: String },
    #[error("`{name}` is not a blob, so it cannot be allocated or freed")]
    NotABlob { name: String },
    #[error("pool `{pool}` has no free range of {size} bytes for `{name}`")]
    PoolExhausted { pool: String, name: String, size: u64 },
    #[error("copy sizes differ: source {src} bytes, destination {dst} bytes")]
    CopySizeMismatch { src: u64, dst: u64 },
    #[error("copy source {src} and destination {dst} overlap in memory")]
    CopyOverlap { src: String, dst: String },
    #[error("{what} {value} must be a multiple of 4")]
    Misaligned { what: &'static str, value: u64 },
    #[error("update of {size} bytes exceeds vkCmdUpdateBuffer's 65536-byte limit")]
    UpdateTooLarge { size: u64 },
    #[error("indirect dispatch arguments must be exactly 12 bytes, got {size}")]
    IndirectSize { size: u64 },
    #[error("dispatch has no storage binding")]
    NoBindings,
    #[error("`{keyword}` cannot be in a command buffer submitted again and again; it may hold device commands and barriers only")]
    NotRepeatable { keyword: &'static str },
    #[error("barrier {index}: {source}")]
    BarrierScope { index: usize, source: ScopeError },
    #[error("invalid name `{name}`: use letters, digits, `_`, `-` and `.`, starting with a letter or `_`")]
    BadName { name: String },
    #[error("`{name}` is already declared")]
    DuplicateName { name: String },
    #[error("invalid kernel name `{name}`: use letters, digits, `_`, `-` and `.`, starting with a letter or `_`, and not `read`, `write`, `rw` or `indirect`")]
    BadKernelName { name: String },
    #[error("object id {id} is not one of this program's ({count} objects)")]
    UnknownObject { id: u32, count: usize },
    #[error("range {range} ends before it starts")]
    ReversedRange { range: ByteRange },
    #[error("`{name}` is a blob: declare it with `alloc`, which also allocates it")]
    BlobWithoutAlloc { name: String },
    #[error("blob `{name}` is never allocated (a blob is declared by its `alloc`)")]
    NeverAllocated { name: String },
    #[error("`alloc` of object {id}, but objects are declared in id order and the next is {next} (a blob is declared by its `alloc`)")]
    AllocOutOfOrder { id: u32, next: u32 },
    #[error("`{name}` is used before it is declared: objects are declared in id order, and a blob before it is allocated only later")]
    UsedBeforeDeclared { name: String },
    #[error("too many objects (at most 4294967296)")]
    TooManyObjects,
    #[error("there is no command {index} (the program has {count})")]
    NoSuchCommand { index: usize, count: usize },
    #[error("`{name}` is not a pool, so blobs cannot be allocated from it")]
    NotAPool { name: String },
}

/// A program error with its location.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct ProgramError {
    pub at: Location,
    pub kind: ProgramErrorKind,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Command(i) => write!(f, "command {i}"),
            Location::Object(id) => write!(f, "object {}", id.0),
        }
    }
}
