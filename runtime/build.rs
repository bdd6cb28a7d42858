//! Compiles `shaders/*.comp` (GLSL 450) to SPIR-V with naga, in pure Rust, so
//! no system shader compiler is needed. Each kernel becomes
//! `$OUT_DIR/<name>.spv`, included by `src/kernels.rs`; the draw kernels
//! `shaders/rect.vert` and `shaders/flat.frag` become `rect.spv` and
//! `flat<N>.spv`, one fragment shader per color attachment count N (0..=4,
//! `COLORS` defined to N).

use std::path::PathBuf;

const KERNELS: [&str; 7] = [
    "scale_add",
    "add",
    "scale",
    "slow",
    "image_scale_add",
    "image_slow",
    "image_sampled_scale_add",
];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    // `runtime/shaders` is a link to the workspace's `shaders/`: `cargo
    // package` follows it, so the packaged crate carries its kernels.
    let shaders = manifest.join("shaders");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    for name in KERNELS {
        let path = shaders.join(format!("{name}.comp"));
        println!("cargo:rerun-if-changed={}", path.display());
        let src =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let words = compile(&src, naga::ShaderStage::Compute, &[])
            .unwrap_or_else(|e| panic!("compiling {}:\n{e}", path.display()));
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(out.join(format!("{name}.spv")), bytes).expect("writing SPIR-V to OUT_DIR");
    }
    let graphics = [
        ("rect.vert", naga::ShaderStage::Vertex, "rect".to_string(), None),
        (
            "flat.frag",
            naga::ShaderStage::Fragment,
            "flat0".to_string(),
            Some(0),
        ),
        (
            "flat.frag",
            naga::ShaderStage::Fragment,
            "flat1".to_string(),
            Some(1),
        ),
        (
            "flat.frag",
            naga::ShaderStage::Fragment,
            "flat2".to_string(),
            Some(2),
        ),
        (
            "flat.frag",
            naga::ShaderStage::Fragment,
            "flat3".to_string(),
            Some(3),
        ),
        (
            "flat.frag",
            naga::ShaderStage::Fragment,
            "flat4".to_string(),
            Some(4),
        ),
    ];
    for (file, stage, name, colors) in graphics {
        let path = shaders.join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        let src =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let defines: Vec<(String, String)> = colors
            .map(|n: u32| ("COLORS".to_string(), n.to_string()))
            .into_iter()
            .collect();
        let words =
            compile(&src, stage, &defines).unwrap_or_else(|e| panic!("compiling {}:\n{e}", path.display()));
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(out.join(format!("{name}.spv")), bytes).expect("writing SPIR-V to OUT_DIR");
    }
}

fn compile(src: &str, stage: naga::ShaderStage, defines: &[(String, String)]) -> Result<Vec<u32>, String> {
    let mut frontend = naga::front::glsl::Frontend::default();
    let mut options = naga::front::glsl::Options::from(stage);
    options.defines.extend(defines.iter().cloned());
    let module = frontend.parse(&options, src).map_err(|e| e.emit_to_string(src))?;
    // Push constants need IMMEDIATES in naga 30's validator.
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::IMMEDIATES,
    )
    .validate(&module)
    .map_err(|e| e.emit_to_string(src))?;
    let mut spv_options = naga::back::spv::Options::default();
    // Debug info only bloats the module; the kernels are a few lines each.
    spv_options.flags.remove(naga::back::spv::WriterFlags::DEBUG);
    let pipeline = naga::back::spv::PipelineOptions {
        shader_stage: stage,
        entry_point: "main".to_string(),
    };
    naga::back::spv::write_vec(&module, &info, &spv_options, Some(&pipeline)).map_err(|e| e.to_string())
}
