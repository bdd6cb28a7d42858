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
//! used, and [`Reflection::exact`] says so.

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

/// Reflects a SPIR-V module (little-endian words).
pub fn reflect(spirv: &[u8]) -> Result<Reflection, ReflectError> {
    let options = naga::front::spv::Options {
        adjust_coordinate_space: false,
        strict_capabilities: false,
        block_ctx_dump_prefix: None,
    };
    let module = naga::front::spv::parse_u8_slice(spirv, &options).map_err(|e| ReflectError::Parse {
        len: spirv.len(),
        message: e.to_string(),
    })?;
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
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

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(matches!(
            reflect(&[1, 2, 3, 4, 5, 6, 7, 8]),
            Err(ReflectError::Parse { .. })
        ));
        assert!(reflect(&[]).is_err());
    }
}
