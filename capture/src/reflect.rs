//! SPIR-V reflection: how each compute entry point uses each storage or
//! uniform buffer binding.
//!
//! This module owns [`reflect`], which parses a module with naga's SPIR-V
//! front end and decides, per entry point and per `(set, binding)`, whether
//! the shader reads the buffer, writes it, or both. It does not know
//! descriptor sets or pipelines.
//!
//! The rule: a binding's use is what its declaration allows
//! (`NonWritable` removes writes, `NonReadable` removes reads; naga keeps
//! them as the variable's `StorageAccess`) intersected with what the entry
//! point actually does (naga's validator reports, per function and
//! including called functions, which globals are loaded, stored or used
//! atomically). An atomic counts as a read and a write. A binding the
//! entry point never touches is left out. When the validator rejects the
//! module (naga is stricter than drivers), the declared access alone is
//! used, and [`Reflection::exact`] says so. Write-only storage buffers
//! (which naga's validator rejects, WGSL having none) are validated as
//! read-write, their declared access still applying.
//!
//! Before parsing, two constructs naga's front end does not take are
//! rewritten without changing any load or store (`rewrite_for_naga`):
//! workgroup sizes from specialization constants (`LocalSizeId`) and
//! specialization-constant expressions (`OpSpecConstantOp`), both in every
//! shader ncnn compiles.

use std::collections::BTreeMap;

/// How an entry point uses one buffer binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Use {
    /// The shader reads it.
    pub read: bool,
    /// The shader writes it.
    pub write: bool,
}

/// One entry point's buffer bindings, by `(set, binding)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntryPoint {
    /// The uses, in `(set, binding)` order.
    pub bindings: BTreeMap<(u32, u32), Use>,
}

/// What a module's compute entry points do with buffers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reflection {
    /// Compute entry points by name.
    pub entry_points: BTreeMap<String, EntryPoint>,
    /// `true` when uses come from the shader's loads and stores; `false`
    /// when only the declarations were available (validation failed).
    pub exact: bool,
}

/// Why a module could not be reflected.
#[derive(Debug, thiserror::Error)]
pub enum ReflectError {
    /// The SPIR-V front end rejected the module.
    #[error("naga's SPIR-V front end rejected the module ({len} bytes): {message}")]
    Parse {
        /// Module size in bytes.
        len: usize,
        /// naga's message.
        message: String,
    },
}

/// `OpExecutionModeId`.
const OP_EXECUTION_MODE_ID: u32 = 331;
/// `OpExecutionMode`.
const OP_EXECUTION_MODE: u32 = 16;
/// `OpTypeBool`, `OpTypeInt`, `OpTypeFloat`.
const OP_TYPE_BOOL: u32 = 20;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_FLOAT: u32 = 22;
/// `OpSpecConstantTrue`, `OpSpecConstant`, `OpSpecConstantOp`.
const OP_SPEC_CONSTANT_TRUE: u32 = 48;
const OP_SPEC_CONSTANT: u32 = 50;
const OP_SPEC_CONSTANT_OP: u32 = 52;
/// The execution mode `LocalSizeId`.
const LOCAL_SIZE_ID: u32 = 38;
/// The execution mode `LocalSize`.
const LOCAL_SIZE: u32 = 17;

/// `spirv` rewritten so that naga's front end takes it, or `None` when it
/// needs no rewrite (or is malformed):
///
/// - `OpExecutionModeId %ep LocalSizeId %x %y %z` becomes
///   `OpExecutionMode %ep LocalSize 1 1 1`: glslang emits it for
///   `local_size_x_id` (workgroup sizes from specialization constants, as
///   ncnn's shaders declare them), and naga does not take it;
/// - `OpSpecConstantOp` (an expression over specialization constants,
///   e.g. a shared array's length) becomes a plain specialization
///   constant of the same type and id with value 1 (true for a bool;
///   a constant of another type, a vector say, is left and naga rejects
///   the module as before).
///
/// Neither changes which buffers a function loads or stores, which is all
/// reflection asks. Only instruction boundaries are walked (each
/// instruction's first word holds its word count and opcode); the module
/// is still parsed and validated by naga.
fn rewrite_for_naga(spirv: &[u8]) -> Option<Vec<u8>> {
    if !spirv.len().is_multiple_of(4) || spirv.len() < 20 {
        return None;
    }
    let words: Vec<u32> = spirv
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut out: Vec<u32> = words[..5].to_vec();
    // Scalar types by id: width, and whether a float.
    let mut widths: std::collections::HashMap<u32, (u32, bool)> = Default::default();
    let mut bools = std::collections::HashSet::new();
    let mut changed = false;
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        let opcode = words[i] & 0xffff;
        if count == 0 || i + count > words.len() {
            return None;
        }
        let ins = &words[i..i + count];
        match opcode {
            OP_TYPE_BOOL if count == 2 => {
                bools.insert(ins[1]);
            }
            OP_TYPE_INT if count >= 3 => {
                widths.insert(ins[1], (ins[2], false));
            }
            OP_TYPE_FLOAT if count >= 3 => {
                widths.insert(ins[1], (ins[2], true));
            }
            _ => {}
        }
        if opcode == OP_EXECUTION_MODE_ID && count == 6 && ins[2] == LOCAL_SIZE_ID {
            out.extend([(6 << 16) | OP_EXECUTION_MODE, ins[1], LOCAL_SIZE, 1, 1, 1]);
            changed = true;
        } else if opcode == OP_SPEC_CONSTANT_OP
            && count >= 4
            && (bools.contains(&ins[1]) || widths.contains_key(&ins[1]))
        {
            let (ty, id) = (ins[1], ins[2]);
            if bools.contains(&ty) {
                out.extend([(3 << 16) | OP_SPEC_CONSTANT_TRUE, ty, id]);
            } else {
                // 1 in the type's literal words (low word first).
                let one: &[u32] = match widths.get(&ty) {
                    Some((64, false)) => &[1, 0],
                    Some((64, true)) => &[0, 0x3ff0_0000],
                    Some((32, true)) => &[0x3f80_0000],
                    Some((16, true)) => &[0x3c00],
                    _ => &[1],
                };
                out.push(((3 + one.len() as u32) << 16) | OP_SPEC_CONSTANT);
                out.extend([ty, id]);
                out.extend(one);
            }
            changed = true;
        } else {
            out.extend(ins);
        }
        i += count;
    }
    changed.then(|| out.iter().flat_map(|w| w.to_le_bytes()).collect())
}

/// Reflects a SPIR-V module (little-endian words). A module whose
/// workgroup size comes from specialization constants (`LocalSizeId`) is
/// reflected with a fixed size instead (see `rewrite_for_naga`).
pub fn reflect(spirv: &[u8]) -> Result<Reflection, ReflectError> {
    let patched = rewrite_for_naga(spirv);
    let spirv = patched.as_deref().unwrap_or(spirv);
    let options = naga::front::spv::Options {
        adjust_coordinate_space: false,
        strict_capabilities: false,
        block_ctx_dump_prefix: None,
    };
    let module = naga::front::spv::parse_u8_slice(spirv, &options).map_err(|e| ReflectError::Parse {
        len: spirv.len(),
        message: e.to_string(),
    })?;
    // naga's validator rejects write-only storage buffers (WGSL has none);
    // the declared access is read from `module` below, so validate a copy
    // where every such buffer is read-write.
    let mut relaxed = module.clone();
    for (_, var) in relaxed.global_variables.iter_mut() {
        if let naga::AddressSpace::Storage { access } = &mut var.space {
            if !access.contains(naga::StorageAccess::LOAD) {
                *access |= naga::StorageAccess::LOAD;
            }
        }
    }
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&relaxed)
    .ok();
    let mut out = Reflection {
        entry_points: BTreeMap::new(),
        exact: info.is_some(),
    };
    for (i, ep) in module.entry_points.iter().enumerate() {
        if ep.stage != naga::ShaderStage::Compute {
            continue;
        }
        let mut bindings = BTreeMap::new();
        for (handle, var) in module.global_variables.iter() {
            let Some(rb) = &var.binding else { continue };
            let declared = match var.space {
                naga::AddressSpace::Storage { access } => Use {
                    read: access.contains(naga::StorageAccess::LOAD),
                    write: access.intersects(naga::StorageAccess::STORE | naga::StorageAccess::ATOMIC),
                },
                naga::AddressSpace::Uniform => Use {
                    read: true,
                    write: false,
                },
                _ => continue,
            };
            let used = match &info {
                Some(info) => {
                    let u = info.get_entry_point(i)[handle];
                    let atomic = u.contains(naga::valid::GlobalUse::ATOMIC);
                    Use {
                        read: u.contains(naga::valid::GlobalUse::READ) || atomic,
                        write: u.contains(naga::valid::GlobalUse::WRITE) || atomic,
                    }
                }
                None => declared,
            };
            let u = Use {
                read: declared.read && used.read,
                write: declared.write && used.write,
            };
            if u.read || u.write {
                bindings.insert((rb.group, rb.binding), u);
            }
        }
        out.entry_points.insert(ep.name.clone(), EntryPoint { bindings });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {

    use super::*;

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
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    fn uses(src: &str) -> Vec<((u32, u32), &'static str)> {
        let r = reflect(&spirv(src)).expect("reflects");
        assert!(r.exact, "the validator accepts naga's own output");
        r.entry_points["main"]
            .bindings
            .iter()
            .map(|(k, u)| {
                let s = match (u.read, u.write) {
                    (true, true) => "rw",
                    (true, false) => "read",
                    (false, true) => "write",
                    (false, false) => "none",
                };
                (*k, s)
            })
            .collect()
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
        assert_eq!(uses(&shader("scale_add")), [((0, 0), "read"), ((0, 1), "write")]);
        assert_eq!(
            uses(&shader("add")),
            [((0, 0), "read"), ((0, 1), "read"), ((0, 2), "write")]
        );
        assert_eq!(uses(&shader("scale")), [((0, 0), "rw")]);
        assert_eq!(uses(&shader("slow")), [((0, 0), "read"), ((0, 1), "write")]);
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
void main() {
    uint i = gl_GlobalInvocationID.x;
    b[i] = a[i];        // A read, B written
    c[i] = c[i] + 1u;   // C read and written
    d[i] = d[i + 1u];   // D read and written (naga's GLSL front end has no atomics)
    // E declared, never used
}";
        assert_eq!(
            uses(src),
            [
                ((0, 0), "read"),
                ((0, 1), "write"),
                ((0, 2), "rw"),
                ((1, 0), "rw")
            ]
        );
    }

    /// A module with `OpExecutionModeId LocalSizeId` and a scalar
    /// `OpSpecConstantOp`, as glslang emits for ncnn's shaders: naga's
    /// output with its `LocalSize` turned into `LocalSizeId` of three new
    /// constants and one new `OpSpecConstantOp` appended to the types.
    #[test]
    fn local_size_id_and_spec_constant_ops_are_rewritten_for_naga() {
        let src = "#version 450\nlayout(local_size_x = 1) in;\n\
            layout(set = 0, binding = 0) readonly buffer A { uint a[]; };\n\
            layout(set = 0, binding = 1) buffer B { uint b[]; };\n\
            void main() { b[gl_GlobalInvocationID.x] = a[gl_GlobalInvocationID.x]; }\n";
        let words: Vec<u32> = spirv(src)
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let mut bound = words[3];
        let mut out = words[..5].to_vec();
        let mut i = 5;
        let mut uint = None;
        let mut extra = Vec::new();
        while i < words.len() {
            let (count, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
            let ins = &words[i..i + count];
            if op == OP_TYPE_INT && ins[2] == 32 && ins[3] == 0 {
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
        // After the last type or constant (before the first variable,
        // opcode 59), the three sizes and `size * size` (IMul = 132).
        let ty = uint.expect("a uint type");
        for k in 0..3 {
            extra.extend([(4 << 16) | OP_SPEC_CONSTANT, ty, bound + k, 1]);
        }
        extra.extend([
            (6 << 16) | OP_SPEC_CONSTANT_OP,
            ty,
            bound + 3,
            132,
            bound,
            bound + 1,
        ]);
        bound += 4;
        out[3] = bound;
        let at = {
            let mut j = 5;
            while out[j] & 0xffff != 59 {
                j += (out[j] >> 16) as usize;
            }
            j
        };
        out.splice(at..at, extra);
        let bytes: Vec<u8> = out.iter().flat_map(|w| w.to_le_bytes()).collect();
        let opts = naga::front::spv::Options {
            adjust_coordinate_space: false,
            strict_capabilities: false,
            block_ctx_dump_prefix: None,
        };
        assert!(
            naga::front::spv::parse_u8_slice(&bytes, &opts).is_err(),
            "naga alone rejects the module"
        );
        let rewritten = rewrite_for_naga(&bytes).expect("rewritten");
        assert_ne!(rewritten, bytes);
        assert_eq!(
            rewrite_for_naga(&rewritten),
            None,
            "a rewritten module needs no more"
        );
        let r = reflect(&bytes).expect("reflects after the rewrite");
        assert!(r.exact);
        let b = &r.entry_points["main"].bindings;
        assert_eq!(
            b[&(0, 0)],
            Use {
                read: true,
                write: false
            }
        );
        assert_eq!(
            b[&(0, 1)],
            Use {
                read: false,
                write: true
            }
        );
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(matches!(
            reflect(&[1, 2, 3, 4, 5, 6, 7, 8]),
            Err(ReflectError::Parse { .. })
        ));
        assert!(reflect(&[]).is_err());
    }
}
