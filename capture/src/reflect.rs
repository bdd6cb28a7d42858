//! SPIR-V reflection: how each compute and graphics entry point uses each
//! descriptor binding.
//!
//! This module owns [`reflect`] (the storage and uniform buffers, which is
//! what the capture records) and [`reflect_resources`] (every descriptor
//! binding, with its [`Kind`]). It parses a module with rspirv and, per
//! `GLCompute` entry point and per `(set, binding)`, decides whether the
//! shader reads the resource, writes it, or both. It does not know
//! descriptor set layouts, pipelines or which buffer a descriptor names
//! (`record` does). Compute entry points are reported by name
//! ([`Reflection::entry_points`], [`Resources::entry_points`]); the
//! classic graphics stages (vertex, tessellation, geometry, fragment) by
//! stage and name ([`Resources::graphics`]), for graphics pipelines; other
//! execution models (ray tracing, mesh shading) are ignored. Memory reached without a decorated
//! variable is not a binding and is not reported: `PhysicalStorageBuffer`
//! pointers (buffer device addresses), workgroup and private memory.
//!
//! Resources are the module-scope variables decorated with `DescriptorSet`
//! and `Binding`: `StorageBuffer` (storage buffers), `Uniform` (a `Block`
//! struct is a uniform buffer; a `BufferBlock` struct is an old-style
//! storage buffer) and `UniformConstant` (images, texel buffers, combined
//! image samplers; plain samplers hold no memory and are skipped).
//!
//! The rule: a binding's use is what its declaration allows intersected
//! with what the entry point actually does. The declaration allows
//! everything, less writes for `NonWritable` and reads for `NonReadable`
//! (on the variable, or on every member of its block, where glslang puts
//! `readonly`); a uniform buffer is read-only. The actual use comes from
//! following every pointer derived from the variable (access chains,
//! copies, bitcasts, selects, phis, and function parameters through calls,
//! in every function the entry point reaches) to the instructions that use
//! it: loads, cooperative-matrix loads and image reads read; stores,
//! cooperative-matrix stores and image writes write; copies write their
//! target and read their source; an atomic reads and writes (an atomic
//! load only reads, an atomic store only writes). `OpArrayLength` and
//! image queries read the descriptor, not memory, so a binding used only
//! by them is left out, like a binding the entry point never touches. Any
//! other use of a tracked pointer or image (a pointer stored to memory, an
//! instruction this module does not know) counts as a read and a write,
//! within the declaration, and makes the result not exact
//! ([`Resource::exact`], [`Reflection::exact`]).
//!
//! Parsing never panics on any input. Before rspirv sees the module, a
//! word-level pass (`prepare`) drops what the analysis does not read and
//! what rspirv's grammar may not know: debug information, capabilities,
//! extensions, execution modes, decorations other than `DescriptorSet`,
//! `Binding`, `NonWritable`, `NonReadable` and `BufferBlock`, entry points
//! of the ignored execution models, and instructions whose opcode the grammar
//! lacks (newer than rspirv). A dropped unknown instruction is kept aside:
//! if any of its words names a tracked pointer or image, that binding
//! counts as read and written, not exact; if it names a function, the
//! function counts as reached; an id decorated as a binding that no known
//! variable declares counts as a buffer, read and written, in every entry
//! point. Module-scope instructions rspirv's loader has no place for (the
//! `OpExtInst`s of glslang's `-gV` debug information) are kept aside too
//! (`Collector`) and read like the other module-scope ones. A module
//! rspirv still rejects is a [`ReflectError`], and the capture then counts
//! every binding read-write.

use std::collections::{BTreeMap, HashMap, HashSet};

use rspirv::binary::{Consumer, ParseAction};
use rspirv::dr::{self, Instruction, Operand};
use rspirv::grammar::{self, OperandKind};
use rspirv::spirv::{Decoration, Dim, ExecutionModel, Op, StorageClass, Word};

/// How an entry point uses one binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Use {
    /// The shader reads it.
    pub read: bool,
    /// The shader writes it.
    pub write: bool,
}

impl Use {
    const NONE: Use = Use {
        read: false,
        write: false,
    };
    const READ: Use = Use {
        read: true,
        write: false,
    };
    const WRITE: Use = Use {
        read: false,
        write: true,
    };
    const RW: Use = Use {
        read: true,
        write: true,
    };

    fn or(self, other: Use) -> Use {
        Use {
            read: self.read || other.read,
            write: self.write || other.write,
        }
    }

    fn and(self, other: Use) -> Use {
        Use {
            read: self.read && other.read,
            write: self.write && other.write,
        }
    }

    fn any(self) -> bool {
        self.read || self.write
    }
}

/// One entry point's buffer bindings, by `(set, binding)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntryPoint {
    /// The uses, in `(set, binding)` order.
    pub bindings: BTreeMap<(u32, u32), Use>,
    /// The descriptor arrays among them that the entry point indexes
    /// with constants only, with those elements (see
    /// [`Resource::elements`]).
    pub elements: BTreeMap<(u32, u32), u64>,
}

/// What a module's compute entry points do with storage and uniform
/// buffers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reflection {
    /// Compute entry points by name.
    pub entry_points: BTreeMap<String, EntryPoint>,
    /// `true` when every use of every reported buffer was understood;
    /// `false` when some buffer was counted read and written because a use
    /// was not (see the module's rule).
    pub exact: bool,
}

/// What a binding's descriptor is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A storage or uniform buffer.
    Buffer,
    /// A uniform or storage texel buffer (an image of dimension `Buffer`).
    TexelBuffer,
    /// A sampled or storage image, or a combined image sampler.
    Image,
    /// Another descriptor reached through a handle (an acceleration
    /// structure, say); any use of it counts as a read and a write.
    Other,
    /// A binding no known variable declares (an instruction newer than
    /// the grammar, say), or declarations of different kinds at one
    /// binding: counted as a buffer, read and written.
    Unknown,
}

/// How an entry point uses one descriptor binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resource {
    /// What the descriptor is.
    pub kind: Kind,
    /// How it is used (never neither: such bindings are left out).
    pub used: Use,
    /// `false` when some use was not understood and counted as a read
    /// and a write.
    pub exact: bool,
    /// For a descriptor array (a binding whose variable is an array) that
    /// every access reaches through an access chain whose first index is
    /// an integer constant below 64: those elements, one bit each. `None`
    /// for any other binding, and for an array indexed at run time (a
    /// dynamically uniform or non-uniform index, a specialization
    /// constant, an index of 64 or more, a use of the whole array or one
    /// this module does not understand): then any element may be
    /// accessed.
    pub elements: Option<u64>,
}

/// The union of two element sets (`None`: every element).
fn union(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    Some(a? | b?)
}

/// A graphics shader stage an entry point is for (its execution model).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GraphicsStage {
    /// `Vertex`.
    Vertex,
    /// `TessellationControl`.
    TessellationControl,
    /// `TessellationEvaluation`.
    TessellationEvaluation,
    /// `Geometry`.
    Geometry,
    /// `Fragment`.
    Fragment,
}

impl GraphicsStage {
    /// The stage of a SPIR-V execution model, `None` for compute and the
    /// ignored ones.
    fn of(model: ExecutionModel) -> Option<GraphicsStage> {
        Some(match model {
            ExecutionModel::Vertex => GraphicsStage::Vertex,
            ExecutionModel::TessellationControl => GraphicsStage::TessellationControl,
            ExecutionModel::TessellationEvaluation => GraphicsStage::TessellationEvaluation,
            ExecutionModel::Geometry => GraphicsStage::Geometry,
            ExecutionModel::Fragment => GraphicsStage::Fragment,
            _ => return None,
        })
    }
}

/// The bindings one entry point uses, by `(set, binding)`.
pub type Bindings = BTreeMap<(u32, u32), Resource>;

/// What a module's entry points do with every descriptor binding.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// Compute entry points by name, each with its bindings by
    /// `(set, binding)`.
    pub entry_points: BTreeMap<String, Bindings>,
    /// Graphics entry points by stage and name (a vertex and a fragment
    /// entry point may share a name).
    pub graphics: BTreeMap<(GraphicsStage, String), Bindings>,
}

/// Why a module could not be reflected.
#[derive(Debug, thiserror::Error)]
pub enum ReflectError {
    /// The module is not SPIR-V rspirv's parser takes.
    #[error("the SPIR-V module ({len} bytes) could not be parsed: {message}")]
    Parse {
        /// Module size in bytes.
        len: usize,
        /// rspirv's message, or what the word-level pass found.
        message: String,
    },
}

/// Reflects a SPIR-V module (little- or big-endian words): the storage and
/// uniform buffers each compute entry point touches.
pub fn reflect(spirv: &[u8]) -> Result<Reflection, ReflectError> {
    let mut out = Reflection {
        entry_points: BTreeMap::new(),
        exact: true,
    };
    for (stage, name, touched) in analyse(spirv)? {
        if stage.is_some() {
            continue;
        }
        let ep = out.entry_points.entry(name).or_default();
        // `Unknown` may be a buffer: counting it keeps the capture from
        // missing one (a binding that is not a buffer makes the capture
        // report the dispatch as not modelled instead).
        let mut elements: BTreeMap<(u32, u32), Option<u64>> = BTreeMap::new();
        for t in touched
            .iter()
            .filter(|t| matches!(t.kind, Kind::Buffer | Kind::Unknown))
        {
            let u = ep.bindings.entry(t.key).or_insert(Use::NONE);
            *u = u.or(t.used);
            out.exact &= t.exact;
            let e = elements.entry(t.key).or_insert(Some(0));
            *e = union(*e, t.elements);
        }
        // Compute entry points have distinct names: one pass each.
        ep.elements
            .extend(elements.into_iter().filter_map(|(k, e)| Some((k, e?))));
    }
    Ok(out)
}

/// Reflects a SPIR-V module: every descriptor binding each compute or
/// graphics entry point touches, with its kind.
pub fn reflect_resources(spirv: &[u8]) -> Result<Resources, ReflectError> {
    let mut out = Resources::default();
    for (stage, name, touched) in analyse(spirv)? {
        let ep = match stage {
            None => out.entry_points.entry(name).or_default(),
            Some(st) => out.graphics.entry((st, name)).or_default(),
        };
        for t in touched {
            let r = ep.entry(t.key).or_insert(Resource {
                kind: t.kind,
                used: Use::NONE,
                exact: true,
                elements: Some(0),
            });
            if r.kind != t.kind {
                r.kind = Kind::Unknown;
            }
            r.used = r.used.or(t.used);
            r.exact &= t.exact;
            r.elements = union(r.elements, t.elements);
        }
    }
    Ok(out)
}

/// One variable's use by one entry point (several variables may alias one
/// binding).
struct Touched {
    key: (u32, u32),
    kind: Kind,
    used: Use,
    exact: bool,
    /// [`Resource::elements`].
    elements: Option<u64>,
}

/// Every compute (`None`) and graphics entry point with the variables it
/// touches (only those whose use is not neither).
#[allow(clippy::type_complexity)]
fn analyse(spirv: &[u8]) -> Result<Vec<(Option<GraphicsStage>, String, Vec<Touched>)>, ReflectError> {
    let err = |message: String| ReflectError::Parse {
        len: spirv.len(),
        message,
    };
    let prepared = prepare(spirv).map_err(err)?;
    // `prepare` rules out the inputs known to make rspirv's parser panic;
    // a panic there that it missed must still not unwind into the
    // application that loaded the layer. (Unwind safety: after a panic
    // the half-filled collector is dropped unread.)
    let mut collector = Collector::default();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        rspirv::binary::parse_bytes(&prepared.bytes, &mut collector)
    }))
    .map_err(|_| err("rspirv's parser panicked".to_string()))?
    .map_err(|e| err(e.to_string()))?;
    let Collector { loader, extra, .. } = collector;
    let module = loader.module();
    let analysis = Analysis::new(&module, &extra, &prepared.dropped);
    let mut out = Vec::new();
    for ep in &module.entry_points {
        let (
            Some(Operand::ExecutionModel(model)),
            Some(Operand::IdRef(f)),
            Some(Operand::LiteralString(name)),
        ) = (ep.operands.first(), ep.operands.get(1), ep.operands.get(2))
        else {
            continue;
        };
        let stage = GraphicsStage::of(*model);
        if *model != ExecutionModel::GLCompute && stage.is_none() {
            continue;
        }
        if !analysis.functions.contains_key(f) {
            return Err(err(format!("entry point `{name}` names no function (%{f})")));
        }
        out.push((stage, name.clone(), analysis.entry_point(*f)));
    }
    Ok(out)
}

// --- The word-level pass ----------------------------------------------------

/// The SPIR-V magic number.
const MAGIC: Word = 0x0723_0203;

/// Execution models whose entry points the analysis reads; `prepare` drops
/// the others (newer ones may be unknown to rspirv's grammar).
const KEPT_MODELS: [ExecutionModel; 6] = [
    ExecutionModel::GLCompute,
    ExecutionModel::Vertex,
    ExecutionModel::TessellationControl,
    ExecutionModel::TessellationEvaluation,
    ExecutionModel::Geometry,
    ExecutionModel::Fragment,
];

/// Decorations the analysis reads; `prepare` drops the others.
const KEPT_DECORATIONS: [Decoration; 5] = [
    Decoration::BufferBlock,
    Decoration::NonWritable,
    Decoration::NonReadable,
    Decoration::Binding,
    Decoration::DescriptorSet,
];

/// Instructions the analysis never reads. Dropping them keeps operands
/// newer than rspirv's grammar (a new capability, execution mode or
/// decoration) from failing the whole module.
const IRRELEVANT: [Op; 17] = [
    Op::SourceContinued,
    Op::Source,
    Op::SourceExtension,
    Op::Name,
    Op::MemberName,
    Op::String,
    Op::Line,
    Op::NoLine,
    Op::ModuleProcessed,
    Op::Extension,
    Op::Capability,
    Op::ExecutionMode,
    Op::ExecutionModeId,
    Op::DecorateId,
    Op::DecorateString,
    Op::MemberDecorateString,
    Op::MemberDecorateIdEXT,
];

/// An instruction whose opcode rspirv's grammar lacks, taken out of the
/// module before parsing.
struct Dropped {
    /// The function it was in, if any.
    function: Option<Word>,
    /// Its words after the first (opcode and count): which are ids is
    /// unknown, so each is treated as one.
    words: Vec<Word>,
}

/// A module ready for rspirv: little-endian bytes, and what was dropped.
struct Prepared {
    bytes: Vec<u8>,
    dropped: Vec<Dropped>,
}

/// Walks the module's instructions by their word counts and keeps those
/// the analysis reads and rspirv knows (see the module's doc). Checking
/// every instruction's bounds here also keeps rspirv's string decoding,
/// which slices by the word count, inside the module.
fn prepare(spirv: &[u8]) -> Result<Prepared, String> {
    if !spirv.len().is_multiple_of(4) {
        return Err("not a whole number of 32-bit words".to_string());
    }
    let mut words: Vec<Word> = spirv
        .chunks_exact(4)
        .map(|c| Word::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if words.len() < 5 {
        return Err("shorter than the 5-word header".to_string());
    }
    // Vulkan hands the code over as host-order words; read either order.
    if words[0] == MAGIC.swap_bytes() {
        for w in &mut words {
            *w = w.swap_bytes();
        }
    } else if words[0] != MAGIC {
        return Err(format!("no SPIR-V magic number (found {:#010x})", words[0]));
    }
    let mut grammar_of: HashMap<Word, Option<&'static grammar::Instruction<'static>>> = HashMap::new();
    let mut lookup = |opcode: Word| {
        *grammar_of
            .entry(opcode)
            .or_insert_with(|| grammar::INSTRUCTION_TABLE.lookup_opcode(opcode))
    };
    let mut out = words[..5].to_vec();
    let mut dropped = Vec::new();
    let mut function = None;
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        let opcode = words[i] & 0xffff;
        if count == 0 {
            return Err(format!("the instruction at word {i} has a zero word count"));
        }
        let Some(ins) = words.get(i..i + count) else {
            return Err(format!("the instruction at word {i} runs past the end"));
        };
        let Some(g) = lookup(opcode) else {
            dropped.push(Dropped {
                function,
                words: ins[1..].to_vec(),
            });
            i += count;
            continue;
        };
        match g.opcode {
            Op::Function => function = ins.get(2).copied(),
            Op::FunctionEnd => function = None,
            // rspirv's parser panics on an `OpSpecConstantOp` wrapping an
            // instruction with a literal of context-dependent width, a
            // nested `OpSpecConstantOp` or `OpSwitch`: none is valid there.
            Op::SpecConstantOp => {
                if let Some(inner) = ins.get(3).and_then(|&op| lookup(op)) {
                    let unparsable = inner.operands.iter().any(|o| {
                        !matches!(o.kind, OperandKind::IdResultType | OperandKind::IdResult)
                            && panics_in_spec_constant_op(o.kind)
                    });
                    if unparsable {
                        return Err(format!(
                            "the OpSpecConstantOp at word {i} wraps Op{}, which it cannot",
                            inner.opname
                        ));
                    }
                }
            }
            _ => {}
        }
        let decoration_kept = |at: usize| {
            ins.get(at)
                .is_none_or(|&d| KEPT_DECORATIONS.iter().any(|k| *k as Word == d))
        };
        let keep = !IRRELEVANT.contains(&g.opcode)
            && match g.opcode {
                Op::EntryPoint => ins
                    .get(1)
                    .is_none_or(|&m| KEPT_MODELS.iter().any(|k| *k as Word == m)),
                Op::Decorate => decoration_kept(2),
                Op::MemberDecorate => decoration_kept(3),
                _ => true,
            };
        if keep {
            out.extend_from_slice(ins);
        }
        i += count;
    }
    Ok(Prepared {
        bytes: out.iter().flat_map(|w| w.to_le_bytes()).collect(),
        dropped,
    })
}

/// Operand kinds rspirv's parser cannot take inside `OpSpecConstantOp`.
fn panics_in_spec_constant_op(kind: OperandKind) -> bool {
    matches!(
        kind,
        OperandKind::IdResultType
            | OperandKind::IdResult
            | OperandKind::LiteralContextDependentNumber
            | OperandKind::LiteralSpecConstantOpInteger
            | OperandKind::PairLiteralIntegerIdRef
            | OperandKind::Debuginfo(_)
            | OperandKind::NonsemanticClspvreflection(_)
            | OperandKind::NonsemanticShaderDebuginfo100(_)
            | OperandKind::OpenclDebuginfo100(_)
    )
}

/// rspirv's loader, less its refusal of instructions outside any block
/// that it has no section for: `OpExtInst` (glslang's
/// `NonSemantic.Shader.DebugInfo` declarations, with `-gV`) and
/// `OpUntypedVariableKHR`, say. Those are kept in `extra`, in order, and
/// read as module-scope instructions.
#[derive(Default)]
struct Collector {
    loader: dr::Loader,
    in_block: bool,
    extra: Vec<Instruction>,
}

impl Consumer for Collector {
    fn initialize(&mut self) -> ParseAction {
        self.loader.initialize()
    }

    fn finalize(&mut self) -> ParseAction {
        self.loader.finalize()
    }

    fn consume_header(&mut self, header: dr::ModuleHeader) -> ParseAction {
        self.loader.consume_header(header)
    }

    fn consume_instruction(&mut self, inst: Instruction) -> ParseAction {
        let op = inst.class.opcode;
        let in_block = self.in_block;
        if op == Op::Label {
            self.in_block = true;
        } else if op == Op::FunctionEnd || grammar::reflect::is_block_terminator(op) {
            self.in_block = false;
        }
        // What the loader places outside blocks, or must see to report a
        // misplaced function part; anything else there is ours.
        let placed = op.is_type()
            || op.is_constant()
            || op.is_annotation()
            || grammar::reflect::is_block_terminator(op)
            || matches!(
                op,
                Op::Capability
                    | Op::Extension
                    | Op::ExtInstImport
                    | Op::MemoryModel
                    | Op::EntryPoint
                    | Op::ExecutionMode
                    | Op::String
                    | Op::SourceExtension
                    | Op::Source
                    | Op::SourceContinued
                    | Op::Name
                    | Op::MemberName
                    | Op::ModuleProcessed
                    | Op::Line
                    | Op::NoLine
                    | Op::Variable
                    | Op::Undef
                    | Op::Function
                    | Op::FunctionEnd
                    | Op::FunctionParameter
                    | Op::Label
            );
        if in_block || placed {
            self.loader.consume_instruction(inst)
        } else {
            self.extra.push(inst);
            ParseAction::Continue
        }
    }
}

// --- Declarations -------------------------------------------------------------

/// The decorations the analysis reads, of one id or one struct member.
#[derive(Clone, Copy, Default)]
struct Decorations {
    set: Option<u32>,
    binding: Option<u32>,
    non_writable: bool,
    non_readable: bool,
    buffer_block: bool,
}

impl Decorations {
    fn add(&mut self, d: Decoration, arg: Option<&Operand>) {
        let literal = match arg {
            Some(Operand::LiteralBit32(n)) => Some(*n),
            _ => None,
        };
        match d {
            Decoration::DescriptorSet => self.set = literal,
            Decoration::Binding => self.binding = literal,
            Decoration::NonWritable => self.non_writable = true,
            Decoration::NonReadable => self.non_readable = true,
            Decoration::BufferBlock => self.buffer_block = true,
            _ => {}
        }
    }

    fn merge(&mut self, other: Decorations) {
        self.set = self.set.or(other.set);
        self.binding = self.binding.or(other.binding);
        self.non_writable |= other.non_writable;
        self.non_readable |= other.non_readable;
        self.buffer_block |= other.buffer_block;
    }
}

/// What a value derived from a resource variable is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Val {
    /// A pointer to the resource's memory (a buffer's contents, or an
    /// image texel from `OpImageTexelPointer`).
    Mem,
    /// A pointer to a descriptor (an image variable, or an element of its
    /// array): loading it gives the handle, not memory.
    Desc,
    /// A loaded image, sampled image or other descriptor handle.
    Handle,
}

/// Which element of a descriptor array a tracked value stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Elem {
    /// The array variable itself, not indexed yet.
    Whole,
    /// Element `k` (the first index of an access chain was constant `k`).
    At(u64),
    /// Any element: indexed at run time, or not an array.
    Any,
}

/// A resource variable.
struct Var {
    id: Word,
    key: (u32, u32),
    kind: Kind,
    /// What the declaration allows.
    declared: Use,
    /// What the variable's id is, or `None` for an id decorated as a
    /// binding that no known variable declares: it is not followed and
    /// counts as read and written everywhere.
    base: Option<Val>,
    /// Its type is an array (a descriptor array): the first index of an
    /// access chain on it picks the element.
    arrayed: bool,
}

fn id_of(op: Option<&Operand>) -> Option<Word> {
    match op {
        Some(Operand::IdRef(id)) => Some(*id),
        _ => None,
    }
}

/// The resource variables among `globals` (the module-scope instructions)
/// of `module` (see the module's doc).
fn variables(module: &dr::Module, globals: &[&Instruction], dropped: &[Dropped]) -> Vec<Var> {
    let mut decorations: HashMap<Word, Decorations> = HashMap::new();
    let mut members: HashMap<(Word, u32), Decorations> = HashMap::new();
    let mut groups = HashSet::new();
    for inst in &module.annotations {
        let ops = &inst.operands;
        match (inst.class.opcode, ops.first(), ops.get(1), ops.get(2)) {
            (Op::Decorate, Some(Operand::IdRef(t)), Some(Operand::Decoration(d)), arg) => {
                decorations.entry(*t).or_default().add(*d, arg);
            }
            (
                Op::MemberDecorate,
                Some(Operand::IdRef(t)),
                Some(Operand::LiteralBit32(m)),
                Some(Operand::Decoration(d)),
            ) => members.entry((*t, *m)).or_default().add(*d, ops.get(3)),
            (Op::DecorationGroup, ..) => groups.extend(inst.result_id),
            _ => {}
        }
    }
    // Decoration groups (deprecated, still valid): a group's decorations
    // apply to each target, or to each target member.
    for inst in &module.annotations {
        let ops = &inst.operands;
        let Some(group) = id_of(ops.first()).and_then(|g| decorations.get(&g).copied()) else {
            continue;
        };
        match inst.class.opcode {
            Op::GroupDecorate => {
                for t in ops[1..].iter().filter_map(|o| id_of(Some(o))) {
                    decorations.entry(t).or_default().merge(group);
                }
            }
            Op::GroupMemberDecorate => {
                for pair in ops[1..].chunks_exact(2) {
                    if let (Operand::IdRef(t), Operand::LiteralBit32(m)) = (&pair[0], &pair[1]) {
                        members.entry((*t, *m)).or_default().merge(group);
                    }
                }
            }
            _ => {}
        }
    }
    let types: HashMap<Word, &Instruction> = globals
        .iter()
        .copied()
        .filter(|i| i.class.opcode.is_type())
        .filter_map(|i| Some((i.result_id?, i)))
        .collect();
    // Descriptor arrays: the element type. Malformed modules may have
    // cyclic array types, so the walk is bounded.
    let element = |mut t: Word| {
        for _ in 0..=types.len() {
            match types.get(&t) {
                Some(i) if matches!(i.class.opcode, Op::TypeArray | Op::TypeRuntimeArray) => {
                    match id_of(i.operands.first()) {
                        Some(e) => t = e,
                        None => break,
                    }
                }
                _ => break,
            }
        }
        t
    };
    // Whether every member of struct `t` has a decoration.
    let all_members = |t: Word, flag: fn(&Decorations) -> bool| match types.get(&t) {
        Some(i) if i.class.opcode == Op::TypeStruct && !i.operands.is_empty() => {
            (0..i.operands.len() as u32).all(|m| members.get(&(t, m)).is_some_and(flag))
        }
        _ => false,
    };
    let mut vars = Vec::new();
    let mut declared_ids = HashSet::new();
    for inst in globals {
        let Some(id) = inst.result_id else { continue };
        let data = match inst.class.opcode {
            Op::Variable => inst
                .result_type
                .and_then(|t| types.get(&t))
                .filter(|p| p.class.opcode == Op::TypePointer)
                .and_then(|p| id_of(p.operands.get(1))),
            Op::UntypedVariableKHR => id_of(inst.operands.get(1)),
            _ => continue,
        };
        let Some(d) = decorations.get(&id) else { continue };
        let (Some(set), Some(binding)) = (d.set, d.binding) else {
            continue;
        };
        declared_ids.insert(id);
        let Some(Operand::StorageClass(class)) = inst.operands.first() else {
            continue;
        };
        let inner = data.map(element);
        let inner_type = inner.and_then(|t| types.get(&t));
        let (kind, base, allowed) = match class {
            StorageClass::StorageBuffer => (Kind::Buffer, Val::Mem, Use::RW),
            StorageClass::Uniform => {
                let storage = inner
                    .and_then(|t| decorations.get(&t))
                    .is_some_and(|d| d.buffer_block);
                (Kind::Buffer, Val::Mem, if storage { Use::RW } else { Use::READ })
            }
            StorageClass::UniformConstant => {
                // A combined image sampler's kind is its image's
                // (`samplerBuffer` is a uniform texel buffer).
                let image = match inner_type {
                    Some(i) if i.class.opcode == Op::TypeSampledImage => {
                        id_of(i.operands.first()).and_then(|t| types.get(&t))
                    }
                    other => other,
                };
                let kind = match (inner_type.map(|i| i.class.opcode), image) {
                    (Some(Op::TypeSampler), _) => continue,
                    (_, Some(i)) if i.class.opcode == Op::TypeImage => {
                        if i.operands.get(1) == Some(&Operand::Dim(Dim::DimBuffer)) {
                            Kind::TexelBuffer
                        } else {
                            Kind::Image
                        }
                    }
                    _ => Kind::Other,
                };
                (kind, Val::Desc, Use::RW)
            }
            // Push constants, workgroup memory and the like are not
            // descriptors, whatever their decorations.
            _ => continue,
        };
        let non_writable = d.non_writable || inner.is_some_and(|t| all_members(t, |m| m.non_writable));
        let non_readable = d.non_readable || inner.is_some_and(|t| all_members(t, |m| m.non_readable));
        let declared = Use {
            read: allowed.read && !non_readable,
            write: allowed.write && !non_writable,
        };
        let arrayed = data
            .and_then(|t| types.get(&t))
            .is_some_and(|t| matches!(t.class.opcode, Op::TypeArray | Op::TypeRuntimeArray));
        vars.push(Var {
            id,
            key: (set, binding),
            kind,
            declared,
            base: Some(base),
            arrayed,
        });
    }
    // Ids decorated as bindings that no known variable declares: declared
    // by a dropped instruction (newer than the grammar) or by a known one
    // that is not a variable yet has a storage class.
    let defined: HashMap<Word, &Instruction> = globals
        .iter()
        .filter(|i| !i.class.opcode.is_type())
        .filter_map(|i| Some((i.result_id?, *i)))
        .collect();
    let mut opaque: Vec<(Word, Decorations)> = decorations
        .iter()
        .filter(|(id, _)| !declared_ids.contains(*id) && !groups.contains(*id))
        .map(|(id, d)| (*id, *d))
        .collect();
    opaque.sort_by_key(|(id, _)| *id);
    for (id, d) in opaque {
        let (Some(set), Some(binding)) = (d.set, d.binding) else {
            continue;
        };
        let kind = match defined.get(&id) {
            Some(i) => match i.operands.iter().find_map(|o| match o {
                Operand::StorageClass(c) => Some(*c),
                _ => None,
            }) {
                Some(StorageClass::StorageBuffer | StorageClass::Uniform) => Kind::Buffer,
                Some(StorageClass::UniformConstant) => Kind::Other,
                _ => continue,
            },
            None if dropped.iter().any(|x| x.words.contains(&id)) => Kind::Unknown,
            None => continue,
        };
        vars.push(Var {
            id,
            key: (set, binding),
            kind,
            declared: Use {
                read: !d.non_readable,
                write: !d.non_writable,
            },
            base: None,
            arrayed: false,
        });
    }
    vars
}

// --- Uses -------------------------------------------------------------------

/// What one operand of one instruction does with a tracked value.
enum Role {
    /// The result (or a parameter, or the callers' results) is derived
    /// from it: tracked too, as the given value.
    Flow(Flow, Val),
    /// A memory access.
    Access(Use),
    /// No access to the resource's memory.
    Nothing,
    /// Not understood: counts as a read and a write.
    Unknown,
}

/// Where a derived value goes.
enum Flow {
    /// The instruction's result.
    Result(Word),
    /// A function parameter (from a call's argument).
    Param(Word),
    /// The results of every call to a function (from its `OpReturnValue`).
    Returned(Word),
}

/// Where a tracked id occurs.
enum At<'a> {
    /// Operand `index` of an instruction in function `function` (`None`:
    /// at module scope).
    Inst {
        inst: &'a Instruction,
        index: usize,
        function: Option<Word>,
    },
    /// Among the words of a dropped instruction.
    Dropped,
}

/// Which extended instruction set an `OpExtInstImport` id is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ExtSet {
    /// `NonSemantic.*` (debug information, printf): removable without
    /// changing the module's meaning, so never an access.
    NonSemantic,
    /// `GLSL.std.450`, whose `Modf` and `Frexp` write through a pointer.
    Glsl,
    Other,
}

/// `GLSL.std.450`'s `Modf` and `Frexp`: their last operand is a pointer
/// they write.
const GLSL_MODF: u32 = 35;
const GLSL_FREXP: u32 = 51;

/// The parsed module, indexed for the per-entry-point walk.
struct Analysis<'a> {
    functions: HashMap<Word, &'a dr::Function>,
    /// Each function's parameters, in order.
    params: HashMap<Word, Vec<Word>>,
    /// The results of the calls to each function.
    calls: HashMap<Word, Vec<Word>>,
    ext_sets: HashMap<Word, ExtSet>,
    /// The module-scope instructions (types, constants, variables and
    /// the loader's leftovers).
    globals: Vec<&'a Instruction>,
    dropped: &'a [Dropped],
    vars: Vec<Var>,
    /// The module's integer `OpConstant`s (not specialization constants,
    /// which the pipeline may change), by id.
    constants: HashMap<Word, u64>,
}

/// The ids among an instruction's operands, with their positions.
fn ids(inst: &Instruction) -> impl Iterator<Item = (usize, Word)> + '_ {
    inst.operands.iter().enumerate().filter_map(|(i, o)| match o {
        Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id) => Some((i, *id)),
        _ => None,
    })
}

/// A function's instructions (its blocks' bodies and terminators).
fn body(f: &dr::Function) -> impl Iterator<Item = &Instruction> {
    f.blocks.iter().flat_map(|b| b.instructions.iter())
}

impl<'a> Analysis<'a> {
    fn new(module: &'a dr::Module, extra: &'a [Instruction], dropped: &'a [Dropped]) -> Self {
        let globals: Vec<&Instruction> = module.types_global_values.iter().chain(extra).collect();
        let mut functions = HashMap::new();
        let mut params = HashMap::new();
        for f in &module.functions {
            if let Some(id) = f.def.as_ref().and_then(|d| d.result_id) {
                // A duplicate id (malformed) keeps the first function.
                if let std::collections::hash_map::Entry::Vacant(e) = functions.entry(id) {
                    e.insert(f);
                    params.insert(id, f.parameters.iter().filter_map(|p| p.result_id).collect());
                }
            }
        }
        let mut calls: HashMap<Word, Vec<Word>> = HashMap::new();
        for inst in module.functions.iter().flat_map(body) {
            if let (Op::FunctionCall, Some(r), Some(callee)) =
                (inst.class.opcode, inst.result_id, id_of(inst.operands.first()))
            {
                calls.entry(callee).or_default().push(r);
            }
        }
        let ext_sets = module
            .ext_inst_imports
            .iter()
            .filter_map(|i| {
                let Some(Operand::LiteralString(name)) = i.operands.first() else {
                    return None;
                };
                let set = if name.starts_with("NonSemantic.") {
                    ExtSet::NonSemantic
                } else if name == "GLSL.std.450" {
                    ExtSet::Glsl
                } else {
                    ExtSet::Other
                };
                Some((i.result_id?, set))
            })
            .collect();
        let int_types: HashSet<Word> = globals
            .iter()
            .filter(|i| i.class.opcode == Op::TypeInt)
            .filter_map(|i| i.result_id)
            .collect();
        let constants = globals
            .iter()
            .filter(|i| {
                i.class.opcode == Op::Constant && i.result_type.is_some_and(|t| int_types.contains(&t))
            })
            .filter_map(|i| {
                let value = match i.operands.first()? {
                    Operand::LiteralBit32(v) => u64::from(*v),
                    Operand::LiteralBit64(v) => *v,
                    _ => return None,
                };
                Some((i.result_id?, value))
            })
            .collect();
        Analysis {
            functions,
            params,
            calls,
            ext_sets,
            vars: variables(module, &globals, dropped),
            globals,
            dropped,
            constants,
        }
    }

    /// Whether `inst` is non-semantic (debug information, printf), which
    /// cannot change what the module does.
    fn non_semantic(&self, inst: &Instruction) -> bool {
        matches!(inst.class.opcode, Op::ExtInst | Op::ExtInstWithForwardRefsKHR)
            && id_of(inst.operands.first()).and_then(|s| self.ext_sets.get(&s)) == Some(&ExtSet::NonSemantic)
    }

    /// The functions entry point function `root` reaches: through calls,
    /// or any other operand naming a function, or a dropped instruction
    /// whose words name one. Each is visited once, so recursion (invalid)
    /// terminates.
    fn reachable(&self, root: Word) -> HashSet<Word> {
        let mut seen = HashSet::from([root]);
        let mut stack = vec![root];
        while let Some(f) = stack.pop() {
            let named = self
                .functions
                .get(&f)
                .into_iter()
                .flat_map(|func| body(func).filter(|i| !self.non_semantic(i)))
                .flat_map(|i| ids(i).map(|(_, id)| id))
                .chain(
                    self.dropped
                        .iter()
                        .filter(|d| d.function == Some(f))
                        .flat_map(|d| d.words.iter().copied()),
                );
            for id in named.collect::<Vec<_>>() {
                if self.functions.contains_key(&id) && seen.insert(id) {
                    stack.push(id);
                }
            }
        }
        seen
    }

    /// Every resource variable's use by the entry point whose function is
    /// `root`, for those it touches.
    fn entry_point(&self, root: Word) -> Vec<Touched> {
        let reachable = self.reachable(root);
        let mut users: HashMap<Word, Vec<At>> = HashMap::new();
        for &f in &reachable {
            for inst in self.functions.get(&f).into_iter().flat_map(|func| body(func)) {
                for (index, id) in ids(inst) {
                    users.entry(id).or_default().push(At::Inst {
                        inst,
                        index,
                        function: Some(f),
                    });
                }
            }
        }
        // Module-scope instructions naming a variable (other than
        // non-semantic debug information) are not understood.
        for &inst in &self.globals {
            for (index, id) in ids(inst) {
                users.entry(id).or_default().push(At::Inst {
                    inst,
                    index,
                    function: None,
                });
            }
        }
        for d in self.dropped {
            if d.function.is_none_or(|f| reachable.contains(&f)) {
                for &w in &d.words {
                    users.entry(w).or_default().push(At::Dropped);
                }
            }
        }

        let n = self.vars.len();
        let mut used = vec![Use::NONE; n];
        let mut exact = vec![true; n];
        // Per variable, the elements its accesses reach (bits), `None`
        // once any element may be.
        let mut elements: Vec<Option<u64>> = vec![Some(0); n];
        let mut facts: HashSet<(Word, usize, Val, Elem)> = HashSet::new();
        let mut work = Vec::new();
        for (b, v) in self.vars.iter().enumerate() {
            match v.base {
                Some(val) => {
                    let el = if v.arrayed { Elem::Whole } else { Elem::Any };
                    facts.insert((v.id, b, val, el));
                    work.push((v.id, b, val, el));
                }
                None => {
                    used[b] = Use::RW;
                    exact[b] = false;
                    elements[b] = None;
                }
            }
        }
        // Facts only grow and are finitely many, so this ends.
        while let Some((id, b, val, el)) = work.pop() {
            for at in users.get(&id).into_iter().flatten() {
                let (role, next) = match at {
                    At::Inst {
                        inst,
                        index,
                        function,
                    } => (
                        self.role(inst, *index, val, *function),
                        self.element(inst, *index, el),
                    ),
                    At::Dropped => (Role::Unknown, Elem::Any),
                };
                match role {
                    Role::Flow(to, v) => {
                        let targets: &[Word] = match &to {
                            Flow::Result(r) | Flow::Param(r) => std::slice::from_ref(r),
                            Flow::Returned(f) => self.calls.get(f).map_or(&[], |c| c.as_slice()),
                        };
                        for &t in targets {
                            if facts.insert((t, b, v, next)) {
                                work.push((t, b, v, next));
                            }
                        }
                    }
                    Role::Access(u) => {
                        used[b] = used[b].or(u);
                        elements[b] = match el {
                            Elem::At(k) if k < 64 => elements[b].map(|m| m | 1 << k),
                            _ => None,
                        };
                    }
                    Role::Nothing => {}
                    Role::Unknown => {
                        used[b] = Use::RW;
                        exact[b] = false;
                        elements[b] = None;
                    }
                }
            }
        }
        self.vars
            .iter()
            .enumerate()
            .map(|(b, v)| Touched {
                key: v.key,
                kind: v.kind,
                used: v.declared.and(used[b]),
                exact: exact[b],
                elements: if v.arrayed { elements[b] } else { None },
            })
            .filter(|t| t.used.any())
            .collect()
    }

    /// Which element a value derived from a tracked value of element `el`
    /// (operand `index` of `inst`) stands for: the first index of an
    /// access chain on the array picks one (a constant: that one; else
    /// any); copies, selects, phis and calls keep it; anything else that
    /// takes the whole array (a load of it, say) may reach any element.
    fn element(&self, inst: &Instruction, index: usize, el: Elem) -> Elem {
        if el != Elem::Whole {
            return el;
        }
        match inst.class.opcode {
            Op::AccessChain | Op::InBoundsAccessChain if index == 0 => match inst.operands.get(1) {
                None => Elem::Whole,
                Some(Operand::IdRef(i)) => self.constants.get(i).map_or(Elem::Any, |&k| Elem::At(k)),
                Some(_) => Elem::Any,
            },
            Op::CopyObject | Op::Bitcast | Op::Select | Op::Phi | Op::FunctionCall | Op::ReturnValue => {
                Elem::Whole
            }
            _ => Elem::Any,
        }
    }

    /// What operand `index` of `inst` (in `function`) does with a tracked
    /// `val`.
    fn role(&self, inst: &Instruction, index: usize, val: Val, function: Option<Word>) -> Role {
        let result = |v| {
            inst.result_id
                .map_or(Role::Unknown, |r| Role::Flow(Flow::Result(r), v))
        };
        let pointer = matches!(val, Val::Mem | Val::Desc);
        let mem = val == Val::Mem;
        let handle = val == Val::Handle;
        let op = inst.class.opcode;
        match op {
            // Pointers derived from a tracked pointer address the same
            // resource; a select or phi may yield a tracked value.
            Op::AccessChain | Op::InBoundsAccessChain | Op::PtrAccessChain | Op::InBoundsPtrAccessChain
                if index == 0 && pointer =>
            {
                result(val)
            }
            Op::UntypedAccessChainKHR
            | Op::UntypedInBoundsAccessChainKHR
            | Op::UntypedPtrAccessChainKHR
            | Op::UntypedInBoundsPtrAccessChainKHR
                if index == 1 && pointer =>
            {
                result(val)
            }
            Op::CopyObject if index == 0 => result(val),
            Op::Bitcast if index == 0 && pointer => result(val),
            Op::Select if index == 1 || index == 2 => result(val),
            Op::Phi if index.is_multiple_of(2) => result(val),
            Op::Load if index == 0 => match val {
                Val::Mem => Role::Access(Use::READ),
                Val::Desc => result(Val::Handle),
                Val::Handle => Role::Unknown,
            },
            Op::Store if index == 0 && mem => Role::Access(Use::WRITE),
            Op::CopyMemory | Op::CopyMemorySized if index == 0 && mem => Role::Access(Use::WRITE),
            Op::CopyMemory | Op::CopyMemorySized if index == 1 && mem => Role::Access(Use::READ),
            _ if inst.class.opname.starts_with("Atomic") && index == 0 && mem => Role::Access(match op {
                Op::AtomicLoad => Use::READ,
                Op::AtomicStore => Use::WRITE,
                _ => Use::RW,
            }),
            Op::CooperativeMatrixLoadKHR
            | Op::CooperativeMatrixLoadNV
            | Op::CooperativeMatrixLoadTensorNV
            | Op::CooperativeVectorLoadNV
                if index == 0 && mem =>
            {
                Role::Access(Use::READ)
            }
            Op::CooperativeMatrixStoreKHR
            | Op::CooperativeMatrixStoreNV
            | Op::CooperativeMatrixStoreTensorNV
            | Op::CooperativeVectorStoreNV
                if index == 0 && mem =>
            {
                Role::Access(Use::WRITE)
            }
            // The length comes from the descriptor's range, not memory.
            Op::ArrayLength if index == 0 && mem => Role::Nothing,
            Op::UntypedArrayLengthKHR if index == 1 && mem => Role::Nothing,
            Op::PtrEqual | Op::PtrNotEqual | Op::PtrDiff if pointer => Role::Nothing,
            // Images: a texel pointer addresses image memory; sampled
            // images and their images are the same descriptor.
            Op::ImageTexelPointer if index == 0 && val == Val::Desc => result(Val::Mem),
            Op::SampledImage | Op::Image if index == 0 && handle => result(Val::Handle),
            Op::ImageWrite if index == 0 && handle => Role::Access(Use::WRITE),
            Op::ImageRead
            | Op::ImageFetch
            | Op::ImageGather
            | Op::ImageDrefGather
            | Op::ImageSampleImplicitLod
            | Op::ImageSampleExplicitLod
            | Op::ImageSampleDrefImplicitLod
            | Op::ImageSampleDrefExplicitLod
            | Op::ImageSampleProjImplicitLod
            | Op::ImageSampleProjExplicitLod
            | Op::ImageSampleProjDrefImplicitLod
            | Op::ImageSampleProjDrefExplicitLod
            | Op::ImageSparseRead
            | Op::ImageSparseFetch
            | Op::ImageSparseGather
            | Op::ImageSparseDrefGather
            | Op::ImageSparseSampleImplicitLod
            | Op::ImageSparseSampleExplicitLod
            | Op::ImageSparseSampleDrefImplicitLod
            | Op::ImageSparseSampleDrefExplicitLod
            | Op::ImageSparseSampleProjImplicitLod
            | Op::ImageSparseSampleProjExplicitLod
            | Op::ImageSparseSampleProjDrefImplicitLod
            | Op::ImageSparseSampleProjDrefExplicitLod
                if index == 0 && handle =>
            {
                Role::Access(Use::READ)
            }
            Op::ImageQueryFormat
            | Op::ImageQueryOrder
            | Op::ImageQuerySizeLod
            | Op::ImageQuerySize
            | Op::ImageQueryLod
            | Op::ImageQueryLevels
            | Op::ImageQuerySamples
                if index == 0 && handle =>
            {
                Role::Nothing
            }
            // A call binds its arguments to the callee's parameters (no
            // such callee or parameter: not understood).
            Op::FunctionCall if index >= 1 => id_of(inst.operands.first())
                .and_then(|callee| self.params.get(&callee))
                .and_then(|p| p.get(index - 1))
                .map_or(Role::Unknown, |&p| Role::Flow(Flow::Param(p), val)),
            Op::ReturnValue if index == 0 => {
                function.map_or(Role::Unknown, |f| Role::Flow(Flow::Returned(f), val))
            }
            Op::ExtInst | Op::ExtInstWithForwardRefsKHR if index >= 2 => {
                let set = id_of(inst.operands.first()).and_then(|s| self.ext_sets.get(&s));
                let number = match inst.operands.get(1) {
                    Some(Operand::LiteralExtInstInteger(n)) => Some(*n),
                    _ => None,
                };
                match (set, number) {
                    (Some(ExtSet::NonSemantic), _) => Role::Nothing,
                    (Some(ExtSet::Glsl), Some(GLSL_MODF | GLSL_FREXP)) if index == 3 && mem => {
                        Role::Access(Use::WRITE)
                    }
                    _ => Role::Unknown,
                }
            }
            _ => Role::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use rspirv::binary::Assemble;
    use rspirv::dr::Builder;
    use rspirv::spirv::{
        AddressingModel, Capability, ExecutionMode, FunctionControl, ImageFormat, ImageOperands, MemoryModel,
    };

    /// GLSL to SPIR-V with naga, as the runtime's build script does.
    fn spirv(src: &str) -> Vec<u8> {
        let mut frontend = naga::front::glsl::Frontend::default();
        let options = naga::front::glsl::Options::from(naga::ShaderStage::Compute);
        let module = frontend.parse(&options, src).expect("GLSL parses");
        let info = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::IMMEDIATES,
        )
        .validate(&module)
        .expect("valid module");
        let mut spv_options = naga::back::spv::Options::default();
        spv_options.flags.remove(naga::back::spv::WriterFlags::DEBUG);
        let pipeline = naga::back::spv::PipelineOptions {
            shader_stage: naga::ShaderStage::Compute,
            entry_point: "main".to_string(),
        };
        let words =
            naga::back::spv::write_vec(&module, &info, &spv_options, Some(&pipeline)).expect("SPIR-V");
        bytes(&words)
    }

    fn bytes(words: &[Word]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    fn words(bytes: &[u8]) -> Vec<Word> {
        bytes
            .chunks_exact(4)
            .map(|c| Word::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    fn shape(u: Use) -> &'static str {
        match (u.read, u.write) {
            (true, true) => "rw",
            (true, false) => "read",
            (false, true) => "write",
            (false, false) => "none",
        }
    }

    /// The bindings an entry point should touch, as `check` compares them.
    type Want = &'static [((u32, u32), &'static str)];

    /// The one helper every case goes through: `spirv`'s entry point
    /// `entry` uses exactly the buffers `want`, and `exact` says whether
    /// every use was understood.
    fn check(case: &str, spirv: &[u8], entry: &str, want: &[((u32, u32), &str)], exact: bool) {
        let r = reflect(spirv).unwrap_or_else(|e| panic!("{case}: {e}"));
        let got: Vec<((u32, u32), &str)> = r
            .entry_points
            .get(entry)
            .unwrap_or_else(|| panic!("{case}: no entry point `{entry}` in {:?}", r.entry_points.keys()))
            .bindings
            .iter()
            .map(|(k, u)| (*k, shape(*u)))
            .collect();
        assert_eq!(got, want, "{case}: bindings");
        assert_eq!(r.exact, exact, "{case}: exact");
    }

    fn shader(name: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shaders")
            .join(format!("{name}.comp"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// The runtime's kernels: what the trace format says each binding is
    /// (`docs/trace-format.md`, Kernels). Their output bindings are declared
    /// read-write (naga has no `writeonly`) but only stored to: reflection
    /// finds `write` from the stores.
    #[test]
    fn the_runtime_kernels_use_their_bindings_as_the_trace_format_says() {
        let cases: [(&str, Want); 4] = [
            ("scale_add", &[((0, 0), "read"), ((0, 1), "write")]),
            ("add", &[((0, 0), "read"), ((0, 1), "read"), ((0, 2), "write")]),
            ("scale", &[((0, 0), "rw")]),
            ("slow", &[((0, 0), "read"), ((0, 1), "write")]),
        ];
        for (name, want) in cases {
            check(name, &spirv(&shader(name)), "main", want, true);
        }
    }

    #[test]
    fn declarations_and_actual_use_both_count() {
        let src = "#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) buffer B { uint b[]; };
layout(std430, set = 0, binding = 2) buffer C { uint c[]; };
layout(std430, set = 1, binding = 0) buffer D { uint d[]; };
layout(std430, set = 1, binding = 3) buffer E { uint e[]; };
layout(std140, set = 2, binding = 0) uniform U { uint u; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    b[i] = a[i];        // A read, B written
    c[i] = c[i] + 1u;   // C read and written
    d[i] = d[i + u];    // D read and written, U read
    // E declared, never used
}";
        check(
            "GLSL through naga",
            &spirv(src),
            "main",
            &[
                ((0, 0), "read"),
                ((0, 1), "write"),
                ((0, 2), "rw"),
                ((1, 0), "rw"),
                ((2, 0), "read"),
            ],
            true,
        );
    }

    /// `OpExecutionMode` (opcode 16) with `LocalSize` (17), and the
    /// opcodes of `OpExecutionModeId` (331), `LocalSizeId` (38),
    /// `OpSpecConstant` (50) and `OpSpecConstantOp` (52).
    const OP_EXECUTION_MODE: u32 = 16;
    const LOCAL_SIZE: u32 = 17;
    const OP_EXECUTION_MODE_ID: u32 = 331;
    const LOCAL_SIZE_ID: u32 = 38;
    const OP_SPEC_CONSTANT: u32 = 50;
    const OP_SPEC_CONSTANT_OP: u32 = 52;

    /// A module with `OpExecutionModeId LocalSizeId` and a scalar
    /// `OpSpecConstantOp`, as glslang emits for ncnn's shaders: naga's
    /// output with its `LocalSize` turned into `LocalSizeId` of three new
    /// constants and one new `OpSpecConstantOp` appended to the types.
    /// naga's front end rejects it; it reflects as it is.
    #[test]
    fn local_size_id_and_spec_constant_ops_reflect_without_rewriting() {
        let src = "#version 450\nlayout(local_size_x = 1) in;\n\
            layout(set = 0, binding = 0) readonly buffer A { uint a[]; };\n\
            layout(set = 0, binding = 1) buffer B { uint b[]; };\n\
            void main() { b[gl_GlobalInvocationID.x] = a[gl_GlobalInvocationID.x]; }\n";
        let words = words(&spirv(src));
        let mut bound = words[3];
        let mut out = words[..5].to_vec();
        let mut i = 5;
        let mut uint = None;
        let mut extra = Vec::new();
        while i < words.len() {
            let (count, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
            let ins = &words[i..i + count];
            if op == Op::TypeInt as u32 && ins[2] == 32 && ins[3] == 0 {
                uint = Some(ins[1]);
            }
            if op == OP_EXECUTION_MODE && ins[2] == LOCAL_SIZE {
                out.extend([
                    (6 << 16) | OP_EXECUTION_MODE_ID,
                    ins[1],
                    LOCAL_SIZE_ID,
                    bound,
                    bound + 1,
                    bound + 2,
                ]);
            } else {
                out.extend(ins);
            }
            i += count;
        }
        // After the last type or constant (before the first variable),
        // the three sizes and `size * size` (IMul = 132).
        let ty = uint.expect("a uint type");
        for k in 0..3 {
            extra.extend([(4 << 16) | OP_SPEC_CONSTANT, ty, bound + k, 1]);
        }
        extra.extend([
            (6 << 16) | OP_SPEC_CONSTANT_OP,
            ty,
            bound + 3,
            Op::IMul as u32,
            bound,
            bound + 1,
        ]);
        bound += 4;
        out[3] = bound;
        let at = {
            let mut j = 5;
            while out[j] & 0xffff != Op::Variable as u32 {
                j += (out[j] >> 16) as usize;
            }
            j
        };
        out.splice(at..at, extra);
        let module = bytes(&out);
        let opts = naga::front::spv::Options {
            adjust_coordinate_space: false,
            strict_capabilities: false,
            block_ctx_dump_prefix: None,
        };
        assert!(
            naga::front::spv::parse_u8_slice(&module, &opts).is_err(),
            "naga alone rejects the module"
        );
        check(
            "LocalSizeId and OpSpecConstantOp",
            &module,
            "main",
            &[((0, 0), "read"), ((0, 1), "write")],
            true,
        );
    }

    // --- Modules built with rspirv's builder ------------------------------

    /// How a fixture buffer is declared.
    #[derive(Clone, Copy)]
    enum Decl {
        /// `StorageBuffer` class, `Block`, no access decoration.
        Storage,
        /// `StorageBuffer`, `NonWritable` on the variable.
        ReadonlyVar,
        /// `StorageBuffer`, a two-member block whose members are both
        /// `NonWritable` (as glslang writes `readonly`).
        ReadonlyMembers,
        /// `Uniform` class, `Block`: a uniform buffer.
        Uniform,
        /// `Uniform` class, `BufferBlock`: an old-style storage buffer.
        BufferBlock,
    }

    /// A compute module with `uint` storage buffers, under construction
    /// with rspirv's builder; `main` is the entry point's function, its
    /// first block open.
    struct Fixture {
        b: Builder,
        void: Word,
        uint: Word,
        /// `uint*` in `StorageBuffer`.
        ptr: Word,
        zero: Word,
        one: Word,
        main: Word,
        /// Buffer variables, with their element pointer type and the index
        /// of their array member.
        buffers: Vec<(Word, Word, Word)>,
    }

    impl Fixture {
        /// Declares `buffers` (`(set, binding, declaration)`) and opens
        /// `main`.
        fn new(buffers: &[(u32, u32, Decl)]) -> Self {
            let mut b = Builder::new();
            b.set_version(1, 3);
            b.capability(Capability::Shader);
            b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
            let void = b.type_void();
            let uint = b.type_int(32, 0);
            let ptr = b.type_pointer(None, StorageClass::StorageBuffer, uint);
            let uniform_ptr = b.type_pointer(None, StorageClass::Uniform, uint);
            let zero = b.constant_bit32(uint, 0);
            let one = b.constant_bit32(uint, 1);
            let mut vars = Vec::new();
            for &(set, binding, decl) in buffers {
                // A struct of its own, so that member decorations do not
                // leak into another buffer's type.
                let rta = b.id();
                let rta = b.type_runtime_array_id(Some(rta), uint);
                b.decorate(rta, Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
                let members = match decl {
                    Decl::ReadonlyMembers => vec![uint, rta],
                    _ => vec![rta],
                };
                let st = b.id();
                let st = b.type_struct_id(Some(st), members.clone());
                let class = match decl {
                    Decl::Uniform | Decl::BufferBlock => StorageClass::Uniform,
                    _ => StorageClass::StorageBuffer,
                };
                let block = match decl {
                    Decl::BufferBlock => Decoration::BufferBlock,
                    _ => Decoration::Block,
                };
                b.decorate(st, block, []);
                for (m, _) in members.iter().enumerate() {
                    b.member_decorate(
                        st,
                        m as u32,
                        Decoration::Offset,
                        [Operand::LiteralBit32(4 * m as u32)],
                    );
                    if matches!(decl, Decl::ReadonlyMembers) {
                        b.member_decorate(st, m as u32, Decoration::NonWritable, []);
                    }
                }
                let pst = b.type_pointer(None, class, st);
                let var = b.variable(pst, None, class, None);
                b.decorate(var, Decoration::DescriptorSet, [Operand::LiteralBit32(set)]);
                b.decorate(var, Decoration::Binding, [Operand::LiteralBit32(binding)]);
                if matches!(decl, Decl::ReadonlyVar) {
                    b.decorate(var, Decoration::NonWritable, []);
                }
                let (element, array) = (
                    if class == StorageClass::Uniform {
                        uniform_ptr
                    } else {
                        ptr
                    },
                    if members.len() == 2 { one } else { zero },
                );
                vars.push((var, element, array));
            }
            let main = b.id();
            b.entry_point(ExecutionModel::GLCompute, main, "main", []);
            b.execution_mode(main, ExecutionMode::LocalSize, [1, 1, 1]);
            let fn_void = b.type_function(void, []);
            b.begin_function(void, Some(main), FunctionControl::NONE, fn_void)
                .unwrap();
            b.begin_block(None).unwrap();
            Fixture {
                b,
                void,
                uint,
                ptr,
                zero,
                one,
                main,
                buffers: vars,
            }
        }

        /// A pointer to element 0 of buffer `i`'s array.
        fn element(&mut self, i: usize) -> Word {
            let (var, ty, array) = self.buffers[i];
            self.b.access_chain(ty, None, var, [array, self.zero]).unwrap()
        }

        fn load(&mut self, i: usize) -> Word {
            let p = self.element(i);
            self.b.load(self.uint, None, p, None, []).unwrap()
        }

        fn store(&mut self, i: usize, value: Word) {
            let p = self.element(i);
            self.b.store(p, value, None, []).unwrap();
        }

        /// Closes `main` and assembles the module.
        fn finish(mut self) -> Vec<u8> {
            self.b.ret().unwrap();
            self.b.end_function().unwrap();
            bytes(&self.b.module().assemble())
        }
    }

    /// `(opcode, operands)` as words, for instructions the builder cannot
    /// write (opcodes the grammar lacks).
    fn raw(opcode: u32, operands: &[Word]) -> Vec<Word> {
        let mut w = vec![((operands.len() as u32 + 1) << 16) | opcode];
        w.extend_from_slice(operands);
        w
    }

    /// `module` with `extra` inserted before `main`'s `OpReturn`.
    fn before_return(module: &[u8], extra: &[Word]) -> Vec<u8> {
        let mut w = words(module);
        let mut i = 5;
        while w[i] & 0xffff != Op::Return as u32 {
            i += (w[i] >> 16) as usize;
        }
        w.splice(i..i, extra.iter().copied());
        bytes(&w)
    }

    /// An opcode no grammar has (yet).
    const UNKNOWN_OPCODE: u32 = 0xfff0;

    /// Cooperative matrices (`SPV_KHR_cooperative_matrix`, which naga
    /// rejects): buffer 0 is loaded, buffer 1 stored; with
    /// `SPV_NV_cooperative_matrix`, buffer 2 loaded and buffer 3 stored.
    /// All are declared read-write.
    fn cooperative_matrix() -> Vec<u8> {
        let mut f = Fixture::new(&[
            (0, 0, Decl::Storage),
            (0, 1, Decl::Storage),
            (0, 2, Decl::Storage),
            (0, 3, Decl::Storage),
        ]);
        f.b.capability(Capability::CooperativeMatrixKHR);
        f.b.capability(Capability::CooperativeMatrixNV);
        f.b.extension("SPV_KHR_cooperative_matrix");
        f.b.extension("SPV_NV_cooperative_matrix");
        let subgroup = f.b.constant_bit32(f.uint, 3);
        let sixteen = f.b.constant_bit32(f.uint, 16);
        let accumulator = f.b.constant_bit32(f.uint, 2);
        let boolean = f.b.type_bool();
        let no = f.b.constant_false(boolean);
        let row_major = f.zero;
        let mat =
            f.b.type_cooperative_matrix_khr(f.uint, subgroup, sixteen, sixteen, accumulator);
        let src = f.element(0);
        let m =
            f.b.cooperative_matrix_load_khr(mat, None, src, row_major, Some(sixteen), None, [])
                .unwrap();
        let dst = f.element(1);
        f.b.cooperative_matrix_store_khr(dst, m, row_major, Some(sixteen), None, [])
            .unwrap();
        let mat = f.b.type_cooperative_matrix_nv(f.uint, subgroup, sixteen, sixteen);
        let src = f.element(2);
        let m =
            f.b.cooperative_matrix_load_nv(mat, None, src, sixteen, no, None, [])
                .unwrap();
        let dst = f.element(3);
        f.b.cooperative_matrix_store_nv(dst, m, sixteen, no, None, [])
            .unwrap();
        f.finish()
    }

    /// Buffer 0's element pointer goes to `store_through(p)`, which stores
    /// through `p`; buffer 1's to `load_through(p)` through an
    /// `OpCopyObject`.
    fn through_a_function() -> Vec<u8> {
        let mut f = Fixture::new(&[(0, 0, Decl::Storage), (0, 1, Decl::Storage)]);
        let fn_ptr = f.b.type_function(f.void, [f.ptr]);
        let fn_load = f.b.type_function(f.uint, [f.ptr]);
        let store_through = f.b.id();
        let load_through = f.b.id();
        let p0 = f.element(0);
        f.b.function_call(f.void, None, store_through, [p0]).unwrap();
        let p1 = f.element(1);
        let p1 = f.b.copy_object(f.ptr, None, p1).unwrap();
        f.b.function_call(f.uint, None, load_through, [p1]).unwrap();
        f.b.ret().unwrap();
        f.b.end_function().unwrap();

        f.b.begin_function(f.void, Some(store_through), FunctionControl::NONE, fn_ptr)
            .unwrap();
        let p = f.b.function_parameter(f.ptr).unwrap();
        f.b.begin_block(None).unwrap();
        f.b.store(p, f.one, None, []).unwrap();
        f.b.ret().unwrap();
        f.b.end_function().unwrap();

        f.b.begin_function(f.uint, Some(load_through), FunctionControl::NONE, fn_load)
            .unwrap();
        let p = f.b.function_parameter(f.ptr).unwrap();
        f.b.begin_block(None).unwrap();
        let v = f.b.load(f.uint, None, p, None, []).unwrap();
        f.b.ret_value(v).unwrap();
        f.b.end_function().unwrap();
        bytes(&f.b.module().assemble())
    }

    /// `OpSelect` between elements of buffers 0 and 1, stored through;
    /// buffer 2 read through a `Phi` and an `OpBitcast`.
    fn select_and_phi() -> Vec<u8> {
        let mut f = Fixture::new(&[
            (0, 0, Decl::Storage),
            (0, 1, Decl::Storage),
            (0, 2, Decl::Storage),
        ]);
        let boolean = f.b.type_bool();
        let yes = f.b.constant_true(boolean);
        let a = f.element(0);
        let b = f.element(1);
        let either = f.b.select(f.ptr, None, yes, a, b).unwrap();
        f.b.store(either, f.one, None, []).unwrap();
        let c = f.element(2);
        let entry = f.b.selected_block().and_then(|i| {
            f.b.module_ref().functions[0].blocks[i]
                .label
                .as_ref()
                .and_then(|l| l.result_id)
        });
        let next = f.b.id();
        f.b.branch(next).unwrap();
        f.b.begin_block(Some(next)).unwrap();
        let c = f.b.phi(f.ptr, None, [(c, entry.unwrap())]).unwrap();
        let c = f.b.bitcast(f.ptr, None, c).unwrap();
        f.b.load(f.uint, None, c, None, []).unwrap();
        f.finish()
    }

    /// Buffer 0 atomically added to, buffer 1 atomically loaded, buffer 2
    /// atomically stored.
    fn atomics() -> Vec<u8> {
        let mut f = Fixture::new(&[
            (0, 0, Decl::Storage),
            (0, 1, Decl::Storage),
            (0, 2, Decl::Storage),
        ]);
        let device = f.b.constant_bit32(f.uint, 1);
        let relaxed = f.zero;
        let p = f.element(0);
        f.b.atomic_i_add(f.uint, None, p, device, relaxed, f.one).unwrap();
        let p = f.element(1);
        let v = f.b.atomic_load(f.uint, None, p, device, relaxed).unwrap();
        let p = f.element(2);
        f.b.atomic_store(p, device, relaxed, v).unwrap();
        f.finish()
    }

    /// `OpCopyMemory` from buffer 1's element into buffer 0's.
    fn copy_memory() -> Vec<u8> {
        let mut f = Fixture::new(&[(0, 0, Decl::Storage), (0, 1, Decl::Storage)]);
        let target = f.element(0);
        let source = f.element(1);
        f.b.copy_memory(target, source, None, None, []).unwrap();
        f.finish()
    }

    /// Buffer 0 only measured with `OpArrayLength`; buffer 1 loaded.
    fn array_length_only() -> Vec<u8> {
        let mut f = Fixture::new(&[(0, 0, Decl::Storage), (0, 1, Decl::Storage)]);
        let var = f.buffers[0].0;
        f.b.array_length(f.uint, None, var, 0).unwrap();
        f.load(1);
        f.finish()
    }

    /// Buffer 0 a uniform buffer (loaded), buffer 1 an old-style
    /// `BufferBlock` storage buffer (stored), buffer 2 a storage buffer
    /// with `NonWritable` on the variable (loaded), buffer 3 one with
    /// every member `NonWritable` (loaded).
    fn declarations() -> Vec<u8> {
        let mut f = Fixture::new(&[
            (0, 0, Decl::Uniform),
            (0, 1, Decl::BufferBlock),
            (0, 2, Decl::ReadonlyVar),
            (0, 3, Decl::ReadonlyMembers),
        ]);
        let v = f.load(0);
        f.store(1, v);
        f.load(2);
        f.load(3);
        f.finish()
    }

    /// A known instruction the rule does not cover (`OpConvertPtrToU`)
    /// taking buffer 0's pointer; buffer 1 (every member `NonWritable`)
    /// likewise, where the declaration still removes the write.
    fn unknown_use() -> Vec<u8> {
        let mut f = Fixture::new(&[(0, 0, Decl::Storage), (0, 1, Decl::ReadonlyMembers)]);
        let p = f.element(0);
        f.b.convert_ptr_to_u(f.uint, None, p).unwrap();
        let p = f.element(1);
        f.b.convert_ptr_to_u(f.uint, None, p).unwrap();
        f.finish()
    }

    /// The element pointers of buffers 0 (loaded) and 1 (stored), and
    /// the id of buffer 2's variable, for instructions spliced in.
    fn for_splicing() -> (Vec<u8>, Word, Word, Word) {
        let mut f = Fixture::new(&[
            (0, 0, Decl::Storage),
            (0, 1, Decl::Storage),
            (0, 2, Decl::Storage),
        ]);
        let a = f.element(0);
        f.b.load(f.uint, None, a, None, []).unwrap();
        let b = f.element(1);
        f.b.store(b, f.one, None, []).unwrap();
        let c = f.buffers[2].0;
        (f.finish(), a, b, c)
    }

    /// An instruction whose opcode the grammar lacks, taking buffer 1's
    /// element pointer (stored to only): dropped before parsing, it makes
    /// buffer 1 read and written, not exact.
    fn unknown_opcode_on_a_tracked_pointer() -> Vec<u8> {
        let (m, _, b, _) = for_splicing();
        before_return(&m, &raw(UNKNOWN_OPCODE, &[b]))
    }

    /// An unknown instruction naming buffer 2's variable directly.
    fn unknown_opcode_on_a_variable() -> Vec<u8> {
        let (m, _, _, c) = for_splicing();
        before_return(&m, &raw(UNKNOWN_OPCODE, &[c]))
    }

    /// An unknown instruction naming no tracked id changes nothing.
    fn unknown_opcode_elsewhere() -> Vec<u8> {
        let (m, ..) = for_splicing();
        before_return(&m, &raw(UNKNOWN_OPCODE, &[0x7fff_0000]))
    }

    /// An unknown capability and an unknown decoration on buffer 0's
    /// variable, both dropped before parsing (rspirv's parser rejects
    /// enumerants newer than its grammar).
    fn unknown_enumerants() -> Vec<u8> {
        let (m, ..) = for_splicing();
        let mut w = words(&m);
        let var = dr::load_words(&w)
            .unwrap()
            .types_global_values
            .iter()
            .find(|i| i.class.opcode == Op::Variable)
            .and_then(|i| i.result_id)
            .unwrap();
        let mut i = 5;
        while w[i] & 0xffff != Op::Decorate as u32 {
            i += (w[i] >> 16) as usize;
        }
        w.splice(i..i, raw(Op::Decorate as u32, &[var, 0xfff0]));
        w.splice(5..5, raw(Op::Capability as u32, &[0xfff0]));
        bytes(&w)
    }

    /// Debug information (`NonSemantic.Shader.DebugInfo.100`, at module
    /// scope, where rspirv's loader alone refuses it, and in `main`) naming
    /// buffer 0's variable and element pointer, which `main` only loads;
    /// `GLSL.std.450`'s `Modf` writing buffer 1's element.
    fn debug_information_and_modf() -> Vec<u8> {
        let mut f = Fixture::new(&[(0, 0, Decl::Storage), (0, 1, Decl::Storage)]);
        let debug = f.b.ext_inst_import("NonSemantic.Shader.DebugInfo.100");
        let glsl = f.b.ext_inst_import("GLSL.std.450");
        let a = f.element(0);
        f.b.load(f.uint, None, a, None, []).unwrap();
        // DebugDeclare (28) and DebugGlobalVariable (18), operands short
        // of the real ones: only their naming tracked ids matters here.
        f.b.ext_inst(f.void, None, debug, 28, [Operand::IdRef(a)])
            .unwrap();
        let b = f.element(1);
        f.b.ext_inst(
            f.uint,
            None,
            glsl,
            GLSL_MODF,
            [Operand::IdRef(f.one), Operand::IdRef(b)],
        )
        .unwrap();
        let (var, global) = (f.buffers[0].0, f.b.id());
        let (void, set) = (f.void, debug);
        let mut w = words(&f.finish());
        let mut i = 5;
        while w[i] & 0xffff != Op::Function as u32 {
            i += (w[i] >> 16) as usize;
        }
        w.splice(i..i, raw(Op::ExtInst as u32, &[void, global, set, 18, var]));
        w[3] = w[3].max(global + 1);
        bytes(&w)
    }

    /// Two entry points sharing `store_through(p)`: `one` passes buffer
    /// 0, `two` buffer 1; each is charged only with its own.
    fn two_entry_points() -> Vec<u8> {
        let mut f = Fixture::new(&[(0, 0, Decl::Storage), (0, 1, Decl::Storage)]);
        let fn_ptr = f.b.type_function(f.void, [f.ptr]);
        let fn_void = f.b.type_function(f.void, []);
        let store_through = f.b.id();
        let p = f.element(0);
        f.b.function_call(f.void, None, store_through, [p]).unwrap();
        f.b.ret().unwrap();
        f.b.end_function().unwrap();
        let two = f.b.id();
        f.b.entry_point(ExecutionModel::GLCompute, two, "two", []);
        f.b.execution_mode(two, ExecutionMode::LocalSize, [1, 1, 1]);
        f.b.begin_function(f.void, Some(two), FunctionControl::NONE, fn_void)
            .unwrap();
        f.b.begin_block(None).unwrap();
        let p = f.element(1);
        f.b.function_call(f.void, None, store_through, [p]).unwrap();
        f.b.ret().unwrap();
        f.b.end_function().unwrap();
        f.b.begin_function(f.void, Some(store_through), FunctionControl::NONE, fn_ptr)
            .unwrap();
        let q = f.b.function_parameter(f.ptr).unwrap();
        f.b.begin_block(None).unwrap();
        f.b.store(q, f.one, None, []).unwrap();
        // Recursion is invalid SPIR-V; the walk must still end.
        f.b.function_call(f.void, None, store_through, [q]).unwrap();
        f.b.ret().unwrap();
        f.b.end_function().unwrap();
        // A vertex entry point on the same function: left out of the
        // compute entry points, reported among the graphics ones.
        let main = f.main;
        f.b.entry_point(ExecutionModel::Vertex, main, "vertex", []);
        bytes(&f.b.module().assemble())
    }

    /// A module with one descriptor array at set 0 binding 0: three
    /// storage buffers (`uint d[]` each), and one compute entry point per
    /// way of indexing it: `consts` loads element 0 and stores element 2
    /// (constant first indices), `dynamic` stores an element picked by an
    /// `OpUndef` (no constant), `far` loads element 70 (past the mask),
    /// `whole` copies the whole array through a local variable, `spec`
    /// loads an element picked by a specialization constant.
    fn descriptor_array() -> Vec<u8> {
        let mut b = Builder::new();
        b.set_version(1, 3);
        b.capability(Capability::Shader);
        b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
        let void = b.type_void();
        let uint = b.type_int(32, 0);
        let ptr = b.type_pointer(None, StorageClass::StorageBuffer, uint);
        let zero = b.constant_bit32(uint, 0);
        let two = b.constant_bit32(uint, 2);
        let three = b.constant_bit32(uint, 3);
        let seventy = b.constant_bit32(uint, 70);
        let spec = b.spec_constant_bit32(uint, 1);
        let rta = b.id();
        let rta = b.type_runtime_array_id(Some(rta), uint);
        b.decorate(rta, Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
        let st = b.type_struct([rta]);
        b.decorate(st, Decoration::Block, []);
        b.member_decorate(st, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
        let arr = b.type_array(st, three);
        let parr = b.type_pointer(None, StorageClass::StorageBuffer, arr);
        let var = b.variable(parr, None, StorageClass::StorageBuffer, None);
        b.decorate(var, Decoration::DescriptorSet, [Operand::LiteralBit32(0)]);
        b.decorate(var, Decoration::Binding, [Operand::LiteralBit32(0)]);
        let pfarr = b.type_pointer(None, StorageClass::Function, arr);
        let fn_void = b.type_function(void, []);
        let entry = |b: &mut Builder, name: &str, body: &dyn Fn(&mut Builder)| {
            let f = b.id();
            b.entry_point(ExecutionModel::GLCompute, f, name, []);
            b.execution_mode(f, ExecutionMode::LocalSize, [1, 1, 1]);
            b.begin_function(void, Some(f), FunctionControl::NONE, fn_void)
                .unwrap();
            b.begin_block(None).unwrap();
            body(b);
            b.ret().unwrap();
            b.end_function().unwrap();
        };
        entry(&mut b, "consts", &|b| {
            let p0 = b.access_chain(ptr, None, var, [zero, zero, zero]).unwrap();
            let v = b.load(uint, None, p0, None, []).unwrap();
            let p2 = b.access_chain(ptr, None, var, [two, zero, zero]).unwrap();
            b.store(p2, v, None, []).unwrap();
        });
        entry(&mut b, "dynamic", &|b| {
            let i = b.undef(uint, None);
            let p = b.access_chain(ptr, None, var, [i, zero, zero]).unwrap();
            b.store(p, zero, None, []).unwrap();
        });
        entry(&mut b, "far", &|b| {
            let p = b.access_chain(ptr, None, var, [seventy, zero, zero]).unwrap();
            b.load(uint, None, p, None, []).unwrap();
        });
        entry(&mut b, "whole", &|b| {
            let local = b.variable(pfarr, None, StorageClass::Function, None);
            b.copy_memory(local, var, None, None, []).unwrap();
        });
        entry(&mut b, "spec", &|b| {
            let p = b.access_chain(ptr, None, var, [spec, zero, zero]).unwrap();
            b.load(uint, None, p, None, []).unwrap();
        });
        bytes(&b.module().assemble())
    }

    /// Descriptor arrays indexed with constants name their elements; any
    /// other indexing names none (every element may be accessed). Cases:
    /// entry point, its use of (0, 0), its elements.
    #[test]
    fn constant_indices_name_the_elements_of_a_descriptor_array() {
        let module = descriptor_array();
        let r = reflect(&module).unwrap();
        let res = reflect_resources(&module).unwrap();
        let cases: &[(&str, &str, Option<u64>)] = &[
            ("consts", "rw", Some(0b101)),
            ("dynamic", "write", None),
            ("far", "read", None),
            ("whole", "read", None),
            ("spec", "read", None),
        ];
        for &(entry, used, elements) in cases {
            let ep = &r.entry_points[entry];
            assert_eq!(shape(ep.bindings[&(0, 0)]), used, "{entry}: use");
            assert_eq!(
                ep.elements.get(&(0, 0)).copied(),
                elements,
                "{entry}: reflect's elements"
            );
            assert_eq!(
                res.entry_points[entry][&(0, 0)].elements,
                elements,
                "{entry}: the resources' elements"
            );
        }
    }

    #[test]
    fn builder_modules_reflect_as_the_rule_says() {
        /// Name, module, entry point, bindings, exact.
        type Case = (&'static str, fn() -> Vec<u8>, &'static str, Want, bool);
        let cases: &[Case] = &[
            (
                "cooperative matrix load and store",
                cooperative_matrix,
                "main",
                &[
                    ((0, 0), "read"),
                    ((0, 1), "write"),
                    ((0, 2), "read"),
                    ((0, 3), "write"),
                ],
                true,
            ),
            (
                "a pointer passed to functions",
                through_a_function,
                "main",
                &[((0, 0), "write"), ((0, 1), "read")],
                true,
            ),
            (
                "select, phi and bitcast of pointers",
                select_and_phi,
                "main",
                &[((0, 0), "write"), ((0, 1), "write"), ((0, 2), "read")],
                true,
            ),
            (
                "atomics",
                atomics,
                "main",
                &[((0, 0), "rw"), ((0, 1), "read"), ((0, 2), "write")],
                true,
            ),
            (
                "copy memory",
                copy_memory,
                "main",
                &[((0, 0), "write"), ((0, 1), "read")],
                true,
            ),
            (
                "OpArrayLength is no access",
                array_length_only,
                "main",
                &[((0, 1), "read")],
                true,
            ),
            (
                "uniform, BufferBlock and readonly declarations",
                declarations,
                "main",
                &[
                    ((0, 0), "read"),
                    ((0, 1), "write"),
                    ((0, 2), "read"),
                    ((0, 3), "read"),
                ],
                true,
            ),
            (
                "an unknown use is a read and a write, within the declaration",
                unknown_use,
                "main",
                &[((0, 0), "rw"), ((0, 1), "read")],
                false,
            ),
            (
                "an unknown opcode on a tracked pointer",
                unknown_opcode_on_a_tracked_pointer,
                "main",
                &[((0, 0), "read"), ((0, 1), "rw")],
                false,
            ),
            (
                "an unknown opcode on a variable",
                unknown_opcode_on_a_variable,
                "main",
                &[((0, 0), "read"), ((0, 1), "write"), ((0, 2), "rw")],
                false,
            ),
            (
                "an unknown opcode on nothing tracked",
                unknown_opcode_elsewhere,
                "main",
                &[((0, 0), "read"), ((0, 1), "write")],
                true,
            ),
            (
                "unknown capability and decoration",
                unknown_enumerants,
                "main",
                &[((0, 0), "read"), ((0, 1), "write")],
                true,
            ),
            (
                "debug information is no use; Modf writes",
                debug_information_and_modf,
                "main",
                &[((0, 0), "read"), ((0, 1), "write")],
                true,
            ),
            (
                "entry point one",
                two_entry_points,
                "main",
                &[((0, 0), "write")],
                true,
            ),
            (
                "entry point two",
                two_entry_points,
                "two",
                &[((0, 1), "write")],
                true,
            ),
        ];
        for (name, build, entry, want, exact) in cases {
            check(name, &build(), entry, want, *exact);
        }
        let r = reflect(&two_entry_points()).unwrap();
        assert_eq!(
            r.entry_points.keys().collect::<Vec<_>>(),
            ["main", "two"],
            "the vertex entry point is not a compute one"
        );
        let res = reflect_resources(&two_entry_points()).unwrap();
        let vertex = &res.graphics[&(GraphicsStage::Vertex, "vertex".to_string())];
        assert_eq!(
            vertex.get(&(0, 0)).map(|r| (r.kind, r.used.read, r.used.write)),
            Some((Kind::Buffer, false, true)),
            "the vertex entry point (main's body) writes binding (0, 0)"
        );
        assert_eq!(res.graphics.len(), 1);
    }

    /// Images, which `reflect_resources` reports and `reflect` leaves out:
    /// a storage image read (0, 0), one written (0, 1), a texel buffer
    /// used atomically through a texel pointer (0, 2), a combined image
    /// sampler sampled (0, 3), a sampler (0, 4: no memory, left out), an
    /// image only queried (0, 5: left out), a sampled image paired with
    /// the sampler and sampled (0, 6), a combined sampler of a texel
    /// buffer (`samplerBuffer`) fetched from through `OpImage` (0, 7); and
    /// a storage buffer loaded (1, 0).
    fn images() -> Vec<u8> {
        let mut f = Fixture::new(&[(1, 0, Decl::Storage)]);
        let v2 = f.b.type_vector(f.uint, 2);
        let v4 = f.b.type_vector(f.uint, 4);
        let storage =
            f.b.type_image(f.uint, Dim::Dim2D, 0, 0, 0, 2, ImageFormat::R32ui, None);
        let texel =
            f.b.type_image(f.uint, Dim::DimBuffer, 0, 0, 0, 2, ImageFormat::R32ui, None);
        let sampled =
            f.b.type_image(f.uint, Dim::Dim2D, 0, 0, 0, 1, ImageFormat::Unknown, None);
        let combined = f.b.type_sampled_image(sampled);
        let texel_sampled =
            f.b.type_image(f.uint, Dim::DimBuffer, 0, 0, 0, 1, ImageFormat::Unknown, None);
        let texel_combined = f.b.type_sampled_image(texel_sampled);
        let sampler = f.b.type_sampler();
        // Module-scope variables: no block selected while declaring.
        let block = f.b.selected_block();
        f.b.select_block(None).unwrap();
        let mut var = |ty: Word, binding: u32| {
            let p = f.b.type_pointer(None, StorageClass::UniformConstant, ty);
            let v = f.b.variable(p, None, StorageClass::UniformConstant, None);
            f.b.decorate(v, Decoration::DescriptorSet, [Operand::LiteralBit32(0)]);
            f.b.decorate(v, Decoration::Binding, [Operand::LiteralBit32(binding)]);
            v
        };
        let read = var(storage, 0);
        let written = var(storage, 1);
        let texels = var(texel, 2);
        let both = var(combined, 3);
        let plain_sampler = var(sampler, 4);
        let queried = var(storage, 5);
        let paired = var(sampled, 6);
        let texel_fetched = var(texel_combined, 7);
        f.b.select_block(block).unwrap();
        let coord = f.b.constant_composite(v2, [f.zero, f.zero]);
        let lod = [Operand::IdRef(f.zero)];

        let img = f.b.load(storage, None, read, None, []).unwrap();
        let t = f.b.image_read(v4, None, img, coord, None, []).unwrap();
        let img = f.b.load(storage, None, written, None, []).unwrap();
        f.b.image_write(img, coord, t, None, []).unwrap();
        let image_ptr = f.b.type_pointer(None, StorageClass::Image, f.uint);
        let tp =
            f.b.image_texel_pointer(image_ptr, None, texels, f.zero, f.zero)
                .unwrap();
        f.b.atomic_i_add(f.uint, None, tp, f.one, f.zero, f.one).unwrap();
        let si = f.b.load(combined, None, both, None, []).unwrap();
        f.b.image_sample_explicit_lod(v4, None, si, coord, ImageOperands::LOD, lod.clone())
            .unwrap();
        let q = f.b.load(storage, None, queried, None, []).unwrap();
        f.b.image_query_size(v2, None, q).unwrap();
        let s = f.b.load(sampler, None, plain_sampler, None, []).unwrap();
        let img = f.b.load(sampled, None, paired, None, []).unwrap();
        let si = f.b.sampled_image(combined, None, img, s).unwrap();
        f.b.image_sample_explicit_lod(v4, None, si, coord, ImageOperands::LOD, lod)
            .unwrap();
        let si = f.b.load(texel_combined, None, texel_fetched, None, []).unwrap();
        let img = f.b.image(texel_sampled, None, si).unwrap();
        f.b.image_fetch(v4, None, img, f.zero, None, []).unwrap();
        f.load(0);
        f.finish()
    }

    #[test]
    fn images_are_resources_but_not_buffers() {
        let module = images();
        check("images", &module, "main", &[((1, 0), "read")], true);
        let r = reflect_resources(&module).unwrap();
        let got: Vec<((u32, u32), Kind, &str, bool)> = r.entry_points["main"]
            .iter()
            .map(|(k, r)| (*k, r.kind, shape(r.used), r.exact))
            .collect();
        assert_eq!(
            got,
            [
                ((0, 0), Kind::Image, "read", true),
                ((0, 1), Kind::Image, "write", true),
                ((0, 2), Kind::TexelBuffer, "rw", true),
                ((0, 3), Kind::Image, "read", true),
                ((0, 6), Kind::Image, "read", true),
                ((0, 7), Kind::TexelBuffer, "read", true),
                ((1, 0), Kind::Buffer, "read", true),
            ]
        );
    }

    /// Reflects `spirv` both ways; whatever the outcome, it is not a
    /// panic, not even one caught inside `analyse`.
    fn survives(spirv: &[u8]) {
        for r in [reflect(spirv).map(|_| ()), reflect_resources(spirv).map(|_| ())] {
            if let Err(e) = r {
                assert!(!e.to_string().contains("panicked"), "{e}");
            }
        }
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(matches!(
            reflect(&[1, 2, 3, 4, 5, 6, 7, 8]),
            Err(ReflectError::Parse { .. })
        ));
        assert!(reflect(&[]).is_err());
        // A header alone is an empty module.
        let header = bytes(&[MAGIC, 0x0001_0300, 0, 1, 0]);
        assert_eq!(
            reflect(&header).unwrap(),
            Reflection {
                entry_points: BTreeMap::new(),
                exact: true
            }
        );
        // Big-endian words read the same.
        let module = cooperative_matrix();
        let swapped: Vec<u8> = module
            .chunks_exact(4)
            .flat_map(|c| [c[3], c[2], c[1], c[0]])
            .collect();
        assert_eq!(reflect(&swapped).unwrap(), reflect(&module).unwrap());
        // What made rspirv's parser panic: an OpSpecConstantOp wrapping
        // OpConstant (a literal of context-dependent width).
        let mut w = words(&header);
        w.extend(raw(Op::TypeInt as u32, &[1, 32, 0]));
        w.extend(raw(Op::SpecConstantOp as u32, &[1, 2, Op::Constant as u32, 7]));
        assert!(matches!(reflect(&bytes(&w)), Err(ReflectError::Parse { .. })));
        survives(&bytes(&w));
    }

    /// Every truncation of some valid modules, and random mutations of
    /// their words (values, single bits, word counts, opcodes, small ids),
    /// reflect or fail without panicking.
    #[test]
    fn truncated_and_mutated_modules_never_panic() {
        let seeds = [
            spirv(&shader("add")),
            cooperative_matrix(),
            through_a_function(),
            select_and_phi(),
            images(),
            two_entry_points(),
            debug_information_and_modf(),
        ];
        // xorshift64*: deterministic, no dependency.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_f491_4f6c_dd1d)
        };
        for seed in &seeds {
            for len in 0..seed.len() {
                survives(&seed[..len]);
            }
            let original = words(seed);
            let bound = original[3].max(1) as u64;
            for _ in 0..1500 {
                let mut w = original.clone();
                for _ in 0..1 + next() % 4 {
                    let i = (next() % w.len() as u64) as usize;
                    let r = next();
                    w[i] = match r % 5 {
                        0 => r as u32 >> 3,
                        1 => w[i] ^ (1 << ((r >> 8) % 32)),
                        2 => (w[i] & 0xffff) | ((((r >> 8) % 9) as u32) << 16),
                        3 => (w[i] & 0xffff_0000) | ((r >> 8) as u32 & 0xffff),
                        _ => ((r >> 8) % bound) as u32,
                    };
                }
                survives(&bytes(&w));
            }
        }
    }
}
