//! Rendering on the device: dynamic-rendering programs drawn with the
//! `rect` and `flat` kernels (`vksync::reference::Rect`) give the CPU
//! reference's bytes, every byte defined, with no validation message the
//! model's layer profile does not explain; what the kernels do not draw is
//! a typed error naming the command.

mod common;

/// Transitions of `color` (16x16 `R32_UINT`) and `depth` (16x16
/// `D32_SFLOAT`) to attachment layouts.
const TO_ATTACHMENTS: &str = "barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE|COLOR_ATTACHMENT_READ color COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL ; NONE:NONE -> EARLY_FRAGMENT_TESTS|LATE_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_READ|DEPTH_STENCIL_ATTACHMENT_WRITE depth DEPTH:0:0 UNDEFINED->DEPTH_ATTACHMENT_OPTIMAL\n";

/// Reads both attachments back to the host.
const READ_BACK: &str = "barrier COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COPY:TRANSFER_READ color COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL->TRANSFER_SRC_OPTIMAL ; LATE_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE -> COPY:TRANSFER_READ depth DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL->TRANSFER_SRC_OPTIMAL\n\
copy-image-to-buffer color TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=16,16,1\n\
copy-image-to-buffer depth TRANSFER_SRC_OPTIMAL -> out2 imageSubresource=DEPTH:0:0 imageExtent=16,16,1\n\
barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read out\nhost-read out2\n";

const DECLS: &str = "buffer vb 256\nbuffer ib 64\nbuffer ind 64\nbuffer out 1024\nbuffer out2 1024\nimage color R32_UINT 16x16\nimage depth D32_SFLOAT 16x16\n";

/// (name, the commands between the declarations and the read-back).
/// `update vb V` makes record `k` the words `V + 4k .. V + 4k + 3`: with
/// `V = 0x0c0a0402` rectangles from (2 + 4k, 4) to (10 + 4k, 12) at rising
/// depths. `update ind 3` is the record `vertexCount=3 instanceCount=4
/// firstVertex=5 firstInstance=6`.
const CLEAN: &[(&str, &str)] = &[
    (
        "four instances, depth test and write",
        "update vb[0..64] 201982978\n\
         barrier CLEAR:TRANSFER_WRITE -> VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ\n\
         @TO@\
         begin-rendering color color COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE ; depth depth DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL CLEAR STORE\n\
         draw vertexCount=3 instanceCount=4 instance vb 0 16 depth-test depth-write\n\
         end-rendering\n",
    ),
    (
        "a compute kernel writes the records, two draws, the second without depth write",
        "update vb[0..64] 201982978\n\
         barrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ\n\
         dispatch scale_add(1,65536) read vb[0..64] write vb[64..128]\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ\n\
         @TO@\
         begin-rendering color color COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE ; depth depth DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL CLEAR STORE\n\
         draw vertexCount=3 instanceCount=2 firstInstance=1 instance vb 64 16 depth-test depth-write\n\
         draw vertexCount=6 instanceCount=4 instance vb 0 16 depth-test\n\
         end-rendering\n",
    ),
    (
        "indexed and indirect draws, no depth test",
        "update vb[0..64] 201982978\nupdate vb[96..160] 201982978\nupdate ib[0..24] 0\nupdate ind[0..16] 3\n\
         barrier CLEAR:TRANSFER_WRITE -> VERTEX_ATTRIBUTE_INPUT|INDEX_INPUT|DRAW_INDIRECT:VERTEX_ATTRIBUTE_READ|INDEX_READ|INDIRECT_COMMAND_READ\n\
         @TO@\
         begin-rendering color color COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE ; depth depth DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL CLEAR STORE\n\
         draw-indexed indexCount=6 instanceCount=1 firstInstance=3 index ib 0 u32 instance vb 0 16\n\
         draw-indirect ind drawCount=1 stride=16 instance vb 0 16 depth-test depth-write\n\
         end-rendering\n",
    ),
    (
        "a second instance loads what the first stored",
        "update vb[0..64] 201982978\n\
         barrier CLEAR:TRANSFER_WRITE -> VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ\n\
         @TO@\
         begin-rendering color color COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE ; depth depth DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL CLEAR STORE\n\
         draw vertexCount=3 instanceCount=1 firstInstance=2 instance vb 0 16 depth-test depth-write\n\
         end-rendering\n\
         barrier COLOR_ATTACHMENT_OUTPUT|LATE_FRAGMENT_TESTS:COLOR_ATTACHMENT_WRITE|DEPTH_STENCIL_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT|EARLY_FRAGMENT_TESTS:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE|DEPTH_STENCIL_ATTACHMENT_READ|DEPTH_STENCIL_ATTACHMENT_WRITE\n\
         begin-rendering color color COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL LOAD STORE ; depth depth DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL LOAD STORE\n\
         draw vertexCount=3 instanceCount=2 instance vb 0 16 depth-test depth-write\n\
         end-rendering\n",
    ),
];

fn program(body: &str) -> String {
    format!("{DECLS}{}{READ_BACK}", body.replace("@TO@", TO_ATTACHMENTS))
}

#[test]
fn rendering_programs_give_the_references_bytes() {
    let Some(mut device) = common::device() else {
        return;
    };
    for (name, body) in CLEAN {
        let trace = common::parse(&program(body));
        assert_eq!(
            vksync::check(&trace.program).expect("well formed"),
            vec![],
            "{name}"
        );
        let result = device
            .run(&trace.program)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        common::assert_matches_reference(&trace.program, &result, &common::layer(&device));
        // Not vacuous: some pixel was drawn (a nonzero color word).
        let color = result.readbacks[0]
            .bytes
            .chunks(4)
            .filter(|w| w != &[0, 0, 0, 0])
            .count();
        assert!(color > 0, "{name}: nothing drawn");
    }
}

/// What the rect and flat kernels do not draw is refused before any
/// Vulkan work, naming the command.
#[test]
fn what_the_kernels_do_not_draw_is_a_typed_error() {
    let Some(mut device) = common::device() else {
        return;
    };
    let begin = "begin-rendering color color COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE ; depth depth DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL CLEAR STORE\n";
    let cases: &[(&str, &str)] = &[
        (
            "draw vertexCount=3 vertex vb 0 16\nend-rendering\n",
            "command 2: vkCmdDraw: the draw's state is not what the `rect` vertex kernel takes: its vertex binding is per instance (`instance`, not `vertex`); the runtime draws with the rect and flat kernels only (docs/trace-format.md, \"Kernels\")",
        ),
        (
            "draw vertexCount=3 instance vb 0 16 blend\nend-rendering\n",
            "command 2: vkCmdDraw: the draw's state is not what the `rect` vertex kernel takes: blending: the R32_UINT attachments are integer, and integer formats do not blend; the runtime draws with the rect and flat kernels only (docs/trace-format.md, \"Kernels\")",
        ),
        (
            "draw-indexed indexCount=3 index ib 0 u8 instance vb 0 16\nend-rendering\n",
            "command 2: vkCmdDrawIndexed: the draw's state is not what the `rect` vertex kernel takes: u8 indices need VK_KHR_index_type_uint8; the runtime draws with the rect and flat kernels only (docs/trace-format.md, \"Kernels\")",
        ),
        (
            "draw-indirect-count ind ib maxDrawCount=1 stride=16 instance vb 0 16\nend-rendering\n",
            "command 2: vkCmdDrawIndirectCount: the draw's state is not what the `rect` vertex kernel takes: draw-indirect-count needs the drawIndirectCount feature, which the runtime does not enable; the runtime draws with the rect and flat kernels only (docs/trace-format.md, \"Kernels\")",
        ),
        (
            "draw vertexCount=3 instance vb 0 16 fs read ib[0..64]\nend-rendering\n",
            "command 2: vkCmdDraw: the draw's state is not what the `rect` vertex kernel takes: the kernels bind no descriptors (`vs`, `fs`); the runtime draws with the rect and flat kernels only (docs/trace-format.md, \"Kernels\")",
        ),
    ];
    for (body, expected) in cases {
        let text = format!("{DECLS}{TO_ATTACHMENTS}{begin}{body}");
        let trace = common::parse(&text);
        let got = device.run(&trace.program).map(|_| ()).map_err(|e| e.to_string());
        assert_eq!(got, Err(expected.to_string()), "{body}");
    }
    // A render area the kernels do not clip to (the model's accesses know it).
    let cases: &[(&str, &str)] = &[(
        "begin-rendering renderArea=0,0,2,2 ",
        "command 1: vkCmdBeginRendering: a renderArea, layerCount or viewMask: the rect kernels draw into whole single-layer views only; the runtime draws with the rect and flat kernels only (docs/trace-format.md, \"Kernels\")",
    )];
    for (prefix, expected) in cases {
        let text = format!(
            "{DECLS}{TO_ATTACHMENTS}{}end-rendering\n",
            begin.replacen("begin-rendering ", prefix, 1)
        );
        let trace = common::parse(&text);
        let got = device.run(&trace.program).map(|_| ()).map_err(|e| e.to_string());
        assert_eq!(got, Err(expected.to_string()), "{prefix}");
    }
    // An attachment the flat kernel does not write.
    let text = "buffer vb 64\nimage c R8G8B8A8_UNORM 4x4\n\
                barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE c COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
                begin-rendering color c COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n";
    let got = device
        .run(&common::parse(text).program)
        .map(|_| ())
        .map_err(|e| e.to_string());
    assert_eq!(
        got,
        Err("command 1: vkCmdBeginRendering: color attachment 0 is R8G8B8A8_UNORM: the `flat` fragment kernel writes R32_UINT attachments only; the runtime draws with the rect and flat kernels only (docs/trace-format.md, \"Kernels\")".to_string())
    );
}
