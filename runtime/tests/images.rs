//! Images on the device: hand-written programs with exact images and
//! correct barriers give the CPU reference's bytes (every byte defined) and
//! draw no validation message the model's layer profile does not explain;
//! what the runtime does not record is a typed error before any Vulkan work.

mod common;

/// Runs a program whose barriers the model finds sufficient and compares it
/// with the reference.
fn run_clean(name: &str, text: &str) {
    let Some(mut device) = common::device() else {
        return;
    };
    let trace = common::parse(text);
    assert_eq!(
        vksync::check(&trace.program).expect("well formed"),
        vec![],
        "{name}"
    );
    let graphics = device
        .info()
        .queue_families
        .iter()
        .any(|f| f.index == device.info().queue_family && f.graphics);
    let result = device.run(&trace.program);
    if !graphics && text.contains("blit-image") {
        // A blit needs a queue family with graphics: refused before any
        // Vulkan work on a compute-only family (the H200's).
        let e = result.expect_err("a blit on a family without graphics is refused");
        assert!(
            e.to_string()
                .contains("vkCmdBlitImage needs a queue family with graphics"),
            "{name}: {e}"
        );
        return;
    }
    let result = result.unwrap_or_else(|e| panic!("{name}: {e}"));
    common::assert_matches_reference(&trace.program, &result, &common::layer(&device));
}

/// (name, program): uploads with padded rows and slices, sub-rectangle
/// downloads, image copies at an offset into a cleared image, a mirrored
/// blit, an image kernel on mip 1 layer 1, an image bound to a buffer's
/// memory, a linear image.
const CLEAN: &[(&str, &str)] = &[
    (
        // Declared in GENERAL (work before the program left it there):
        // the runtime enters that layout before the first command.
        "an image whose initial layout is GENERAL",
        "buffer up 512\nbuffer out 512\nimage a R32_UINT 16x8 initial GENERAL\nhost-write up 5\n\
         copy-buffer-to-image up -> a GENERAL imageSubresource=COLOR:0:0 imageExtent=16,8,1\n\
         barrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ\n\
         copy-image-to-buffer a GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=16,8,1\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read out\n",
    ),
    (
        // VkImageCreateInfo::initialLayout PREINITIALIZED: the first
        // barrier transitions from it.
        "a linear image created PREINITIALIZED",
        "buffer up 512\nbuffer out 512\nimage a R32_UINT 16x8 linear initial PREINITIALIZED\nhost-write up 9\n\
         barrier NONE:NONE -> COPY:TRANSFER_WRITE a COLOR:0:0 PREINITIALIZED->TRANSFER_DST_OPTIMAL\n\
         copy-buffer-to-image up -> a TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=16,8,1\n\
         barrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ a COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL\n\
         copy-image-to-buffer a TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=16,8,1\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read out\n",
    ),
    (
        "padded rows and slices, a sub-rectangle of layer 1",
        "buffer up 2048\nbuffer out 512\nimage t R32_UINT 16x8 layers 2\nhost-write up 7\n\
         barrier NONE:NONE -> COPY:TRANSFER_WRITE t COLOR:0:0.. UNDEFINED->TRANSFER_DST_OPTIMAL\n\
         copy-buffer-to-image up -> t TRANSFER_DST_OPTIMAL bufferRowLength=18 bufferImageHeight=9 imageSubresource=COLOR:0:0..2 imageExtent=16,8,1\n\
         barrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ t COLOR:0:0.. TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL\n\
         copy-image-to-buffer t TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:1 imageOffset=4,2,0 imageExtent=8,4,1\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read out[0..128]\n",
    ),
    (
        "a copy at an offset into a cleared image, in GENERAL",
        "buffer up 2048\nbuffer out 512\nimage a R32_UINT 16x8\nimage b R32_UINT 16x8\nhost-write up 100\n\
         barrier NONE:NONE -> COPY:TRANSFER_WRITE a COLOR:0:0 UNDEFINED->GENERAL; NONE:NONE -> CLEAR:TRANSFER_WRITE b COLOR:0:0 UNDEFINED->GENERAL\n\
         copy-buffer-to-image up -> a GENERAL imageSubresource=COLOR:0:0 imageExtent=16,8,1\n\
         clear-color-image b GENERAL COLOR:0:0\n\
         barrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ; CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_WRITE|TRANSFER_READ\n\
         copy-image a GENERAL -> b GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 dstOffset=8,4,0 extent=8,4,1\n\
         barrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ\n\
         copy-image-to-buffer b GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=16,8,1\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read out\n",
    ),
    (
        "an equal-size blit mirrored along x and y",
        "buffer up 512\nbuffer out 512\nimage a R32_UINT 16x8\nimage b R32_UINT 16x8\nhost-write up 100\n\
         barrier NONE:NONE -> COPY:TRANSFER_WRITE a COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL\n\
         copy-buffer-to-image up -> a TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=16,8,1\n\
         barrier COPY:TRANSFER_WRITE -> BLIT:TRANSFER_READ a COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL; NONE:NONE -> BLIT:TRANSFER_WRITE b COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL\n\
         blit-image a TRANSFER_SRC_OPTIMAL -> b TRANSFER_DST_OPTIMAL srcSubresource=COLOR:0:0 srcOffsets=0,0,0:16,8,1 dstSubresource=COLOR:0:0 dstOffsets=16,8,0:0,0,1\n\
         barrier BLIT:TRANSFER_WRITE -> COPY:TRANSFER_READ b COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL\n\
         copy-image-to-buffer b TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=16,8,1\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read out\n",
    ),
    (
        "image_slow on mip 1, layer 1",
        "buffer up 2048\nbuffer out 512\nimage a R32_UINT 16x8 mips 2 layers 2\nimage b R32_UINT 16x8 mips 2 layers 2\nhost-write up 3\n\
         barrier NONE:NONE -> COPY:TRANSFER_WRITE a COLOR:1:1 UNDEFINED->TRANSFER_DST_OPTIMAL\n\
         copy-buffer-to-image up -> a TRANSFER_DST_OPTIMAL imageSubresource=COLOR:1:1 imageExtent=8,4,1\n\
         barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ a COLOR:1:1 TRANSFER_DST_OPTIMAL->GENERAL; NONE:NONE -> COMPUTE_SHADER:SHADER_STORAGE_WRITE b COLOR:1:1 UNDEFINED->GENERAL\n\
         dispatch image_slow(100) image-read a COLOR:1:1 image-write b COLOR:1:1\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COPY:TRANSFER_READ b COLOR:1:1 GENERAL->TRANSFER_SRC_OPTIMAL\n\
         copy-image-to-buffer b TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:1:1 imageExtent=8,4,1\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read out[0..128]\n",
    ),
    (
        // A SAMPLED_IMAGE descriptor in SHADER_READ_ONLY_OPTIMAL, read by
        // texelFetch (SHADER_SAMPLED_READ), on layer 1 of a two-layer
        // image; the barrier into the dispatch names that access.
        "image_sampled_scale_add: a sampled image in SHADER_READ_ONLY_OPTIMAL",
        "buffer up 1024\nbuffer out 512\nimage a R32_UINT 16x8 layers 2\nimage b R32_UINT 16x8\nhost-write up 3\n\
         barrier NONE:NONE -> COPY:TRANSFER_WRITE a COLOR:0:1 UNDEFINED->TRANSFER_DST_OPTIMAL\n\
         copy-buffer-to-image up -> a TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:1 imageExtent=16,8,1\n\
         barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_SAMPLED_READ a COLOR:0:1 TRANSFER_DST_OPTIMAL->SHADER_READ_ONLY_OPTIMAL; NONE:NONE -> COMPUTE_SHADER:SHADER_STORAGE_WRITE b COLOR:0:0 UNDEFINED->GENERAL\n\
         dispatch image_sampled_scale_add(5,2) sampled-image a COLOR:0:1 SHADER_READ_ONLY_OPTIMAL image-write b COLOR:0:0\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COPY:TRANSFER_READ b COLOR:0:0 GENERAL->TRANSFER_SRC_OPTIMAL\n\
         copy-image-to-buffer b TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=16,8,1\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read out\n",
    ),
    (
        "image_sampled_scale_add: a sampled image in GENERAL, written by image_scale_add before",
        "buffer up 512\nbuffer out 512\nimage a R32_UINT 16x8\nimage m R32_UINT 16x8\nimage b R32_UINT 16x8\nhost-write up 4\n\
         barrier NONE:NONE -> COPY:TRANSFER_WRITE a COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL\n\
         copy-buffer-to-image up -> a TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=16,8,1\n\
         barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ a COLOR:0:0 TRANSFER_DST_OPTIMAL->GENERAL; NONE:NONE -> COMPUTE_SHADER:SHADER_STORAGE_WRITE m COLOR:0:0 UNDEFINED->GENERAL; NONE:NONE -> COMPUTE_SHADER:SHADER_STORAGE_WRITE b COLOR:0:0 UNDEFINED->GENERAL\n\
         dispatch image_scale_add(3,1) image-read a COLOR:0:0 image-write m COLOR:0:0\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_SAMPLED_READ m COLOR:0:0 GENERAL->GENERAL\n\
         dispatch image_sampled_scale_add(7,0) sampled-image m COLOR:0:0 GENERAL image-write b COLOR:0:0\n\
         barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COPY:TRANSFER_READ b COLOR:0:0 GENERAL->TRANSFER_SRC_OPTIMAL\n\
         copy-image-to-buffer b TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=16,8,1\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read out\n",
    ),
    (
        "an image bound to a buffer's memory beside bytes the buffer uses",
        "buffer m 8192\nbuffer up 512\nbuffer out 1024\nimage t R32_UINT 16x8 alias m 4096\nhost-write up 11\nfill m[0..4096] 5\n\
         barrier NONE:NONE -> COPY:TRANSFER_WRITE t COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL\n\
         copy-buffer-to-image up -> t TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=16,8,1\n\
         barrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ t COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL; CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\n\
         copy-image-to-buffer t TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=16,8,1\n\
         copy m[0..512] -> out[512..1024]\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read out\n",
    ),
    (
        "a linear image",
        "buffer up 256\nbuffer out 256\nimage l R32_UINT 8x8 linear\nhost-write up 9\n\
         barrier NONE:NONE -> COPY:TRANSFER_WRITE l COLOR:0:0 UNDEFINED->GENERAL\n\
         copy-buffer-to-image up -> l GENERAL imageSubresource=COLOR:0:0 imageExtent=8,8,1\n\
         barrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ l COLOR:0:0 GENERAL->TRANSFER_SRC_OPTIMAL\n\
         copy-image-to-buffer l TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=8,8,1\n\
         barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read out\n",
    ),
];

#[test]
fn image_programs_give_the_references_bytes() {
    for (name, text) in CLEAN {
        run_clean(name, text);
    }
}

#[test]
fn the_image_example_runs_clean() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/image-storage.trace"
    ))
    .expect("the example");
    run_clean("examples/image-storage.trace", &text);
}

/// What the runtime does not record: (program, error), before any Vulkan
/// work, with the object or command it is about.
/// A linear image bound to a buffer's memory, which the host fills whole
/// and a copy reads: its texels are where the device puts them
/// (`vkGetImageSubresourceLayout`). Declared with rows packed, it runs
/// where the device packs them too, and is refused otherwise
/// (`RuntimeError::LinearLayout`, naming the device's row pitch; lavapipe
/// puts the 5-byte rows of R8_UNORM 5x4 64 bytes apart); declared with the
/// device's `rowPitch=`, it runs with the validation layer silent. (The
/// reference keeps an image's texels apart from the memory it shares, so
/// a host write through the buffer leaves them undefined there: the bytes
/// read back are not compared.)
#[test]
fn a_linear_image_in_a_buffers_memory_is_laid_out_as_the_device_says() {
    let Some(mut device) = common::device() else {
        return;
    };
    let text = |pitch: Option<u64>| {
        format!(
            "buffer m 4096\nbuffer out 64\nimage l R8_UNORM 5x4 linear{} initial PREINITIALIZED alias m 0\n\
             host-write m 3\n\
             barrier HOST:HOST_WRITE -> COPY:TRANSFER_READ l COLOR:0:0 PREINITIALIZED->GENERAL\n\
             copy-image-to-buffer l GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=5,4,1\n\
             barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ\nsubmit\nwait\nhost-read out[0..20]\n",
            pitch.map(|p| format!(" rowPitch={p}")).unwrap_or_default()
        )
    };
    let packed = common::parse(&text(None));
    let judge = common::layer(&device);
    let pitch = match device.run(&packed.program) {
        Ok(result) => {
            assert!(result.validation, "validation must be on");
            common::assert_only_known_differences(&packed.program, &result.messages, &judge);
            None
        }
        Err(vksync_runtime::RuntimeError::LinearLayout {
            image,
            offset: 0,
            row_pitch,
            model: 5,
        }) => {
            assert_eq!(image, "l");
            assert!(row_pitch > 5, "{row_pitch}");
            Some(row_pitch)
        }
        Err(e) => panic!("the packed declaration: {e}"),
    };
    if let Some(p) = pitch {
        let t = common::parse(&text(Some(p)));
        let result = device
            .run(&t.program)
            .unwrap_or_else(|e| panic!("rowPitch={p}: {e}"));
        assert!(result.validation, "validation must be on");
        common::assert_only_known_differences(&t.program, &result.messages, &judge);
        eprintln!("the device's row pitch for R8_UNORM 5x4: {p}");
    }
}

#[test]
fn what_is_not_recorded_is_a_typed_error() {
    let Some(mut device) = common::device() else {
        return;
    };
    let cases: &[(&str, &str)] = &[
        (
            "image d D24_UNORM_S8_UINT 4x4\n",
            "object 0: image `d` is D24_UNORM_S8_UINT: the runtime creates images of uncompressed color formats and optimal D32_SFLOAT only (no other depth, stencil or block-compressed ones)",
        ),
        (
            "buffer m 4096\nimage t R32_UINT 4x4 alias m 4\n",
            "object 1: the image cannot be bound at byte 4 of its memory on this device: the image needs an alignment of ALIGN bytes",
        ),
        (
            "image t R8G8B8A8_UNORM 4x4\nimage v R32_UINT 4x4\n\
             barrier NONE:NONE -> NONE:NONE t COLOR:0:0 UNDEFINED->GENERAL; NONE:NONE -> NONE:NONE v COLOR:0:0 UNDEFINED->GENERAL\n\
             dispatch image_scale_add image-read t COLOR:0:0 image-write v COLOR:0:0\n",
            "command 1: kernel `image_scale_add` binding 0: image `t` is R8G8B8A8_UNORM, but the shader's storage images are R32_UINT",
        ),
    ];
    for (text, expected) in cases {
        let trace = common::parse(text);
        let got = device.run(&trace.program).map(|_| ()).map_err(|e| e.to_string());
        // The image's alignment is the device's: read it from the message.
        let align = got
            .as_ref()
            .err()
            .and_then(|e| e.strip_prefix(&expected.replace("ALIGN bytes", "")))
            .map_or("?", |rest| rest.trim_end_matches(" bytes"));
        assert_eq!(got, Err(expected.replace("ALIGN", align)), "{text}");
    }
}
