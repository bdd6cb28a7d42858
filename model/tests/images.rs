//! Exact images: the notional address layout, the buffer bytes of
//! buffer-image copies, the layout rules (each case quotes the spec
//! section it checks), hazards between subresources, and the round trip
//! through the trace printer.
//!
//! Hazard cases are decided by both the fast checker and the definitional
//! semantics (`vksync::spec`), which must find the same (command, kind,
//! byte); the expectation lists `L<line> <KIND> <region> after L<line>`.

use std::collections::BTreeSet;
use vksync::spec::{races, Reading};
use vksync::{check, trace};

/// Declarations every case starts with (lines 1-4): a staging buffer, a
/// 16x16 RGBA8 image with 2 mips and 2 layers (own memory), a linear R32
/// 4x4 image aliasing bytes 0..64 of `mem`.
const HEAD: &str = "buffer staging 4096
buffer mem 256
image tex R8G8B8A8_UNORM 16x16 mips 2 layers 2
image lin R32_UINT 4x4 linear alias mem 0
";

fn parse(body: &str) -> Result<trace::Trace, String> {
    trace::parse(&format!("{HEAD}{body}")).map_err(|e| e.to_string())
}

/// The hazards of a case, after checking that both checkers agree and
/// that the program prints and parses back to itself.
fn hazards(name: &str, body: &str) -> Vec<String> {
    let t = parse(body).unwrap_or_else(|e| panic!("{name}: {e}"));
    let printed = trace::print(&t.program);
    let again = trace::parse(&printed).unwrap_or_else(|e| panic!("{name}: reparse: {e}\n{printed}"));
    assert_eq!(again.program, t.program, "case `{name}`: round trip\n{printed}");
    let hs = check(&t.program).unwrap_or_else(|e| panic!("{name}: {e}"));
    let bytes = |c: usize, k, m, r: vksync::ByteRange| (r.start..r.end).map(move |b| (c, k, m, b));
    let fast: BTreeSet<_> = hs
        .iter()
        .flat_map(|h| bytes(h.command, h.kind, h.memory.mem, h.memory.range))
        .collect();
    let spec: BTreeSet<_> = races(&t.program, Reading::MemoryModel)
        .unwrap()
        .iter()
        .flat_map(|r| bytes(r.command, r.kind, r.mem, r.range))
        .collect();
    assert_eq!(
        fast, spec,
        "case `{name}`: the checker and the definitional semantics differ"
    );
    hs.iter()
        .map(|h| {
            format!(
                "L{} {} {} after L{}",
                t.command_lines[h.command],
                h.kind,
                t.program.show_region(h.region),
                t.command_lines[h.prior_command]
            )
        })
        .collect()
}

fn error(body: &str) -> String {
    match parse(body) {
        Ok(t) => match vksync::resolve(&t.program) {
            Ok(_) => String::new(),
            Err(e) => format!("{}: {}", t.line_of(e.at).unwrap_or(0), e.kind),
        },
        Err(e) => e,
    }
}

const TO_DST: &str =
    "barrier NONE:NONE -> ALL_TRANSFER:TRANSFER_WRITE tex COLOR:0..:0.. UNDEFINED->TRANSFER_DST_OPTIMAL\n";

#[test]
fn notional_layout_is_per_aspect_mip_layer_row_major() {
    let t = parse("").unwrap();
    let p = &t.program;
    let tex = p.image(p.find("tex").unwrap()).unwrap();
    // mip 0: 16x16x4 = 1024 bytes per layer, 2 layers; mip 1: 8x8x4 = 256.
    let cases = [
        ("COLOR:0:0", vec![(0, 1024)]),
        ("COLOR:0:1", vec![(1024, 2048)]),
        ("COLOR:0:0..", vec![(0, 2048)]),
        ("COLOR:1:0", vec![(2048, 2304)]),
        ("COLOR:0..:0..", vec![(0, 2560)]),
        // Layer 1 of both mips: two ranges.
        ("COLOR:0..2:1", vec![(1024, 2048), (2304, 2560)]),
    ];
    for (text, want) in cases {
        let r = trace::parse(&format!(
            "{HEAD}barrier NONE:NONE -> NONE:NONE tex {text} GENERAL->GENERAL"
        ))
        .unwrap()
        .program
        .commands()
        .iter()
        .find_map(|c| match c {
            vksync::Command::Barrier(d) => Some(
                d.barriers
                    .iter()
                    .map(|b| b.region.unwrap().range)
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        })
        .unwrap();
        let got: Vec<(u64, u64)> = r.iter().map(|r| (r.start, r.end)).collect();
        assert_eq!(got, want, "{text}");
        let direct: Vec<(u64, u64)> = tex
            .range_bytes(subrange(text))
            .unwrap()
            .iter()
            .map(|r| (r.start, r.end))
            .collect();
        assert_eq!(direct, want, "{text}");
    }
    assert_eq!(tex.total_size(), Some(2560));
}

fn subrange(text: &str) -> vksync::SubresourceRange {
    let t = trace::parse(&format!(
        "{HEAD}barrier NONE:NONE -> NONE:NONE tex {text} GENERAL->GENERAL"
    ))
    .unwrap();
    match &t.program.commands()[0] {
        vksync::Command::Barrier(d) => {
            t.program
                .image_barrier(d.barriers[0].image.unwrap())
                .unwrap()
                .range
        }
        _ => unreachable!(),
    }
}

/// "Buffer and Image Addressing": rows of `bufferRowLength` texels,
/// slices of `bufferImageHeight` rows, texel block size and extent.
#[test]
fn buffer_image_copy_addresses_the_specs_bytes() {
    use vksync::{BufferImageCopy, ImageDesc, SubresourceLayers, Tiling};
    let color = vksync::AspectMask::of(vksync::Aspect::Color);
    let sub = |layers| SubresourceLayers {
        aspects: color,
        mip: 0,
        base_layer: 0,
        layer_count: Some(layers),
    };
    let desc = |format: &str, w, h, layers| ImageDesc {
        object: vksync::ObjectId(0),
        format: vksync::Format::parse(format).unwrap(),
        extent: [w, h, 1],
        mips: 1,
        layers,
        tiling: Tiling::Optimal,
        initial: vksync::ImageLayout::UNDEFINED,
    };
    let region = |off, row, height, layers, extent: [u32; 3]| BufferImageCopy {
        buffer_offset: off,
        row_length: row,
        image_height: height,
        subresource: sub(layers),
        offset: [0, 0, 0],
        extent,
    };
    type Case = (&'static str, ImageDesc, BufferImageCopy, Vec<(u64, u64)>);
    let cases: Vec<Case> = vec![
        // Tight rows: one range of 4x4x4 bytes.
        (
            "tight",
            desc("R8G8B8A8_UNORM", 4, 4, 1),
            region(16, 0, 0, 1, [4, 4, 1]),
            vec![(16, 80)],
        ),
        // bufferRowLength 8 texels: 4 rows of 16 bytes, 32 bytes apart.
        (
            "row length",
            desc("R8G8B8A8_UNORM", 4, 4, 1),
            region(0, 8, 0, 1, [4, 4, 1]),
            vec![(0, 16), (32, 48), (64, 80), (96, 112)],
        ),
        // Two layers, bufferImageHeight 6 rows: slices 6*16 bytes apart.
        (
            "image height",
            desc("R32_UINT", 4, 4, 2),
            region(0, 0, 6, 2, [4, 4, 1]),
            vec![(0, 64), (96, 160)],
        ),
        // BC1: 4x4 blocks of 8 bytes; a 16x8 region is 4x2 blocks; row
        // length 32 texels = 8 blocks = 64 bytes.
        (
            "compressed",
            desc("BC1_RGBA_UNORM_BLOCK", 16, 8, 1),
            region(0, 32, 0, 1, [16, 8, 1]),
            vec![(0, 32), (64, 96)],
        ),
    ];
    for (name, d, r, want) in cases {
        let got: Vec<(u64, u64)> = vksync::buffer_ranges(&d, &r)
            .unwrap()
            .iter()
            .map(|b| (b.start, b.end))
            .collect();
        assert_eq!(got, want, "{name}");
    }
}

/// Image rows a rectangle covers; disjoint rectangles share no byte.
#[test]
fn rectangles_touch_the_rows_they_cover() {
    let hs = hazards(
        "two copies into disjoint halves of one subresource",
        &format!(
            "{TO_DST}copy-buffer-to-image staging -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=8,16,1
copy-buffer-to-image staging -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageOffset=8,0,0 imageExtent=8,16,1"
        ),
    );
    // Both read staging (reads never conflict) and write disjoint
    // columns of every row of tex.
    assert_eq!(hs, Vec::<String>::new());
    let hs = hazards(
        "overlapping rectangles",
        &format!(
            "{TO_DST}copy-buffer-to-image staging -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=8,16,1
copy-buffer-to-image staging -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageOffset=4,0,0 imageExtent=8,16,1"
        ),
    );
    // One hazard per overlapping row: x 4..8 of each of the 16 rows
    // (16 bytes at 64-byte pitch), and nothing of the rows' other texels.
    let want: Vec<String> = (0..16)
        .map(|y| {
            format!(
                "L7 WRITE_AFTER_WRITE tex[COLOR:0:0 bytes {}..{}] after L6",
                y * 64 + 16,
                y * 64 + 32
            )
        })
        .collect();
    assert_eq!(hs, want);
}

#[test]
fn subresources_of_one_image_do_not_conflict() {
    let hs = hazards(
        "layer 0 and layer 1 written without a barrier",
        &format!(
            "{TO_DST}copy-buffer-to-image staging -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=16,16,1
copy-buffer-to-image staging -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:1 imageExtent=16,16,1
clear-color-image tex TRANSFER_DST_OPTIMAL COLOR:1:0.."
        ),
    );
    assert_eq!(hs, Vec::<String>::new());
}

#[test]
fn a_transition_is_a_write_of_exactly_its_subresources() {
    let hs = hazards(
        "transition of mip 1 while mip 0 is written",
        &format!(
            "{TO_DST}copy-buffer-to-image staging -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=16,16,1
barrier NONE:NONE -> NONE:NONE tex COLOR:1:0.. TRANSFER_DST_OPTIMAL->GENERAL"
        ),
    );
    assert_eq!(hs, Vec::<String>::new());
    let hs = hazards(
        "transition of mip 0 while mip 0 is written",
        &format!(
            "{TO_DST}copy-buffer-to-image staging -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=16,16,1
barrier NONE:NONE -> NONE:NONE tex COLOR:0:0 TRANSFER_DST_OPTIMAL->GENERAL"
        ),
    );
    assert_eq!(hs, vec!["L7 WRITE_AFTER_WRITE tex[COLOR:0:0] after L6"]);
}

#[test]
fn a_linear_image_aliases_its_memory_by_bytes() {
    let body = "barrier NONE:NONE -> CLEAR:TRANSFER_WRITE lin COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL
clear-color-image lin TRANSFER_DST_OPTIMAL COLOR:0:0
fill mem[60..68] 0
fill mem[64..128] 0";
    assert_eq!(
        hazards("clear then a fill through the aliased buffer", body),
        vec![
            "L7 WRITE_AFTER_WRITE mem[60..64] after L6",
            "L8 WRITE_AFTER_WRITE mem[64..68] after L7"
        ]
    );
}

#[test]
fn storage_and_sampled_image_bindings() {
    let body = "barrier NONE:NONE -> COMPUTE_SHADER:SHADER_STORAGE_WRITE tex COLOR:0:0.. UNDEFINED->GENERAL
dispatch k image-write tex COLOR:0:0.. read staging
dispatch k image-read tex COLOR:0:0 write staging[0..4]";
    assert_eq!(
        hazards("storage image written, then read with no barrier", body),
        vec![
            "L7 READ_AFTER_WRITE tex[COLOR:0:0] after L6",
            "L7 WRITE_AFTER_READ staging[0..4] after L6"
        ]
    );
    let body = "barrier NONE:NONE -> COMPUTE_SHADER:SHADER_STORAGE_WRITE tex COLOR:0:0.. UNDEFINED->GENERAL
dispatch k image-write tex COLOR:0:0..
barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ tex COLOR:0:0.. GENERAL->SHADER_READ_ONLY_OPTIMAL
dispatch k sampled-image tex COLOR:0:0.. SHADER_READ_ONLY_OPTIMAL";
    assert_eq!(
        hazards(
            "the transition's second scope names storage reads, not sampled ones",
            body
        ),
        vec![
            "L8 READ_AFTER_WRITE tex[COLOR:0:0..2] after L6",
            "L8 READ_AFTER_WRITE tex[COLOR:0:0..2] after L7"
        ]
    );
}

/// "Image Layouts" and each command's layout requirements, as
/// `ProgramError`s naming the line, the subresource and both layouts.
#[test]
fn layout_rules() {
    let cases: &[(&str, &str, &str)] = &[
        (
            // "Image Layouts": "oldLayout must be VK_IMAGE_LAYOUT_UNDEFINED
            // or the current layout of the image subresources affected by
            // the barrier" (VUID-VkImageMemoryBarrier2-oldLayout-01197).
            "old layout neither UNDEFINED nor current",
            "barrier NONE:NONE -> NONE:NONE tex COLOR:0:0 GENERAL->TRANSFER_DST_OPTIMAL",
            "5: barrier 0: oldLayout GENERAL of image `tex` subresource COLOR mip 0 layer 0 is neither UNDEFINED nor its current layout UNDEFINED (VUID-VkImageMemoryBarrier2-oldLayout-01197)",
        ),
        (
            // The VUID binds oldLayout only for a transition or an
            // ownership transfer: equal layouts are a memory barrier.
            "a barrier with equal layouts names no current layout",
            "barrier NONE:NONE -> NONE:NONE tex COLOR:0:0 GENERAL->GENERAL",
            "",
        ),
        (
            "UNDEFINED as old layout is always allowed",
            "barrier NONE:NONE -> NONE:NONE tex COLOR:0:0 UNDEFINED->GENERAL\nbarrier NONE:NONE -> NONE:NONE tex COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL",
            "",
        ),
        (
            // vkCmdCopyBufferToImage: "dstImageLayout must specify the
            // layout of the image subresources of dstImage specified in
            // pRegions at the time this command is executed".
            "copy into an image still in UNDEFINED",
            "copy-buffer-to-image staging -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=16,16,1",
            "5: vkCmdCopyBufferToImage uses image `tex` subresource COLOR mip 0 layer 0 in layout TRANSFER_DST_OPTIMAL, but its layout is UNDEFINED at that point (VUID-vkCmdCopyBufferToImage-dstImageLayout-00180)",
        ),
        (
            // "dstImageLayout must be VK_IMAGE_LAYOUT_SHARED_PRESENT_KHR,
            // VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL or VK_IMAGE_LAYOUT_GENERAL".
            "copy naming a layout a copy destination may not be in",
            "copy-buffer-to-image staging -> tex SHADER_READ_ONLY_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=16,16,1",
            "5:1: vkCmdCopyBufferToImage: dstImageLayout SHADER_READ_ONLY_OPTIMAL is not allowed: it must be TRANSFER_DST_OPTIMAL or GENERAL (VUID-vkCmdCopyBufferToImage-dstImageLayout-01396)",
        ),
        (
            // Storage images: "Storage Image" descriptors are accessed in
            // VK_IMAGE_LAYOUT_GENERAL.
            "storage image not in GENERAL",
            "barrier NONE:NONE -> NONE:NONE tex COLOR:0:0 UNDEFINED->SHADER_READ_ONLY_OPTIMAL\ndispatch k image-read tex COLOR:0:0",
            "6: vkCmdDispatch uses image `tex` subresource COLOR mip 0 layer 0 in layout GENERAL, but its layout is SHADER_READ_ONLY_OPTIMAL at that point (VUID-VkDescriptorImageInfo-imageLayout-00344)",
        ),
        (
            "sampled image descriptor naming a writable layout",
            "dispatch k sampled-image tex COLOR:0:0 TRANSFER_DST_OPTIMAL",
            "5:40: a sampled image descriptor's imageLayout TRANSFER_DST_OPTIMAL must be GENERAL or a read-only layout (VUID-VkWriteDescriptorSet-descriptorType-04149)",
        ),
        (
            // Recorded commands run at their batch's submit: the layout
            // at execution, not at recording, counts.
            "layouts follow execution order",
            "barrier NONE:NONE -> NONE:NONE tex COLOR:0:0 UNDEFINED->GENERAL\nsubmit\nclear-color-image tex GENERAL COLOR:0:0\nsubmit",
            "",
        ),
        (
            "a view of several mips and part of the layers is not one byte range",
            "dispatch k image-read tex COLOR:0..2:1",
            "5:27: dispatch binding 0: a view of `tex` COLOR:0..2:1 is not modelled: a view binding must be one aspect, and either one mip level or all array layers",
        ),
        (
            "subresource past the image",
            "barrier NONE:NONE -> NONE:NONE tex COLOR:2:0 UNDEFINED->GENERAL",
            "5:36: subresource range `COLOR:2:0` of image `tex`: mip levels 2..3 past its 2 mip levels",
        ),
        (
            "a byte range of an image",
            "fill tex[0..4] 0",
            "5:6: `tex` is an image: name its subresources (`ASPECTS:MIPS:LAYERS`) with an image command, an image barrier or a view binding, not bytes",
        ),
        (
            "buffer bytes past the buffer",
            "barrier NONE:NONE -> NONE:NONE tex COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL\ncopy-buffer-to-image mem -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=16,16,1",
            "6:1: vkCmdCopyBufferToImage: region 0 needs bytes 0..1024 of `mem`, past its size 256 (VUID-vkCmdCopyBufferToImage-pRegions-00171)",
        ),
    ];
    for (name, body, want) in cases {
        assert_eq!(error(body), *want, "case `{name}`");
    }
}

#[test]
fn image_declarations() {
    let cases: &[(&str, &str)] = &[
        ("image a R8_UNORM 4x4", ""),
        ("image a R8_UNORM 4x4x4 mips 3", ""),
        ("image a D32_SFLOAT_S8_UINT 4x4 layers 6 exclusive", ""),
        ("image a R8_UNORM 4x4 mips 4", "1:18: image `a`: mips 4 is not in 1..=3 (floor(log2(max extent)) + 1, VUID-VkImageCreateInfo-mipLevels-00958)"),
        ("image a R8_UNORM 4x4x2 layers 2", "1:18: image `a`: a 3D image has one array layer (VUID-VkImageCreateInfo-imageType-00961)"),
        ("image a R8_UNORM 0x4", "1:18: image `a`: every extent must be at least 1"),
        ("image a R9_UNORM 4x4", "1:9: unknown format `R9_UNORM` (the model knows R8_UNORM, R8G8B8A8_UNORM, R32_UINT, R32_SFLOAT, R16G16B16A16_SFLOAT, R32G32B32A32_SFLOAT, D32_SFLOAT, S8_UINT, D24_UNORM_S8_UINT, D32_SFLOAT_S8_UINT, BC1_RGBA_UNORM_BLOCK, R8_UINT, R8G8_UNORM, R8G8B8A8_SNORM, R8G8B8A8_UINT, R8G8B8A8_SINT, R8G8B8A8_SRGB, B8G8R8A8_UNORM, B8G8R8A8_SRGB, R16_SFLOAT, R16G16_SFLOAT, R16G16B16A16_UINT, R32_SINT, R32G32_UINT, R32G32_SFLOAT, R32G32B32A32_UINT, R32G32B32A32_SINT)"),
        ("image a R8_UNORM 4", "1:18: expected an extent `WIDTHxHEIGHT[xDEPTH]`, found `4`"),
        ("buffer m 8\nimage a R8_UNORM 4x4 alias m 0", "2: `a` aliases `m` at 0..16, past its size 8"),
        ("image a R8_UNORM 4x4 tiled", "1:22: expected `mips`, `layers`, `linear`, `optimal`, `exclusive`, `concurrent`, `initial` or `alias`, found `tiled`"),
        // VkImageCreateInfo::initialLayout PREINITIALIZED: "oldLayout must
        // be VK_IMAGE_LAYOUT_UNDEFINED or the current layout of the image
        // subresources affected by the barrier" (01197), and the current
        // layout is the initial one until the first transition.
        (
            "buffer m 1024\nimage a R8_UNORM 4x4 linear initial PREINITIALIZED\nbarrier HOST:HOST_WRITE -> COPY:TRANSFER_READ a COLOR:0:0 PREINITIALIZED->TRANSFER_SRC_OPTIMAL\ncopy-image-to-buffer a TRANSFER_SRC_OPTIMAL -> m imageSubresource=COLOR:0:0 imageExtent=4,4,1",
            "",
        ),
        (
            "image a R8_UNORM 4x4 linear\nbarrier HOST:HOST_WRITE -> COPY:TRANSFER_READ a COLOR:0:0 PREINITIALIZED->TRANSFER_SRC_OPTIMAL",
            "2: barrier 0: oldLayout PREINITIALIZED of image `a` subresource COLOR mip 0 layer 0 is neither UNDEFINED nor its current layout UNDEFINED (VUID-VkImageMemoryBarrier2-oldLayout-01197)",
        ),
        // A layout that work before the program left (a command buffer
        // submitted again): the first use finds it.
        (
            "image a R32_UINT 4x4 initial GENERAL\ndispatch k image-read a COLOR:0:0",
            "",
        ),
        (
            "image a R32_UINT 4x4 initial SHADER_READ_ONLY_OPTIMAL\ndispatch k image-read a COLOR:0:0",
            "2: vkCmdDispatch uses image `a` subresource COLOR mip 0 layer 0 in layout GENERAL, but its layout is SHADER_READ_ONLY_OPTIMAL at that point (VUID-VkDescriptorImageInfo-imageLayout-00344)",
        ),
        ("image a R8_UNORM 4x4 initial SIDEWAYS", "1:30: unknown image layout `SIDEWAYS` (Vulkan's names without `VK_IMAGE_LAYOUT_`)"),
        // "newLayout must not be VK_IMAGE_LAYOUT_UNDEFINED or
        // VK_IMAGE_LAYOUT_PREINITIALIZED" with a transition or a transfer
        // (VUID-VkImageMemoryBarrier2-newLayout-01198); equal layouts make
        // no transition.
        (
            "image a R8_UNORM 4x4\nbarrier NONE:NONE -> COPY:TRANSFER_READ a COLOR:0:0 UNDEFINED->PREINITIALIZED",
            "2: barrier 0: newLayout PREINITIALIZED of image `a` is not a layout an image can be transitioned to (VUID-VkImageMemoryBarrier2-newLayout-01198: with a layout transition or a queue family ownership transfer, newLayout must not be UNDEFINED or PREINITIALIZED)",
        ),
        (
            "image a R32_UINT 4x4 initial GENERAL\nbarrier NONE:NONE -> COPY:TRANSFER_READ a COLOR:0:0 GENERAL->UNDEFINED",
            "2: barrier 0: newLayout UNDEFINED of image `a` is not a layout an image can be transitioned to (VUID-VkImageMemoryBarrier2-newLayout-01198: with a layout transition or a queue family ownership transfer, newLayout must not be UNDEFINED or PREINITIALIZED)",
        ),
        ("image a R8_UNORM 4x4\nbarrier NONE:NONE -> COPY:TRANSFER_READ a COLOR:0:0 UNDEFINED->UNDEFINED", ""),
        // Each option once (a review found the last one silently winning).
        ("image a R32_UINT 4x4 initial GENERAL initial UNDEFINED", "1:38: `initial` is given twice in this image declaration"),
        ("image a R8_UNORM 4x4 mips 2 mips 3", "1:29: `mips` is given twice in this image declaration"),
        ("image a R8_UNORM 4x4 linear optimal", "1:29: a tiling (`linear` or `optimal`) is given twice in this image declaration"),
        ("image a R8_UNORM 4x4 exclusive concurrent", "1:32: a sharing mode (`exclusive` or `concurrent`) is given twice in this image declaration"),
    ];
    for (text, want) in cases {
        let got = match trace::parse(text) {
            Ok(t) => vksync::resolve(&t.program).err().map_or(String::new(), |e| {
                format!("{}: {}", t.line_of(e.at).unwrap_or(0), e.kind)
            }),
            Err(e) => e.to_string(),
        };
        assert_eq!(got, *want, "{text}");
    }
}

/// "Queue Family Ownership Transfer": a release and an acquire that name
/// the same layouts perform the transition once, between them; the
/// acquire finds the subresources already in the new layout.
#[test]
fn a_transition_inside_an_ownership_transfer_happens_once() {
    let head = "queue transfer family 1
queue compute family 2
semaphore s
buffer staging 1024
buffer out 1024
image tex R32_UINT 16x16 exclusive
barrier NONE:NONE -> COPY:TRANSFER_WRITE tex COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL
copy-buffer-to-image staging -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=16,16,1
barrier COPY:TRANSFER_WRITE -> NONE:NONE tex COLOR:0:0 TRANSFER_DST_OPTIMAL->GENERAL ownership 1->2
submit transfer signal s@ALL_COMMANDS
";
    let run = |acquire: &str| {
        let text = format!("{head}{acquire}\ndispatch k image-read tex COLOR:0:0 write out\nsubmit compute wait s@ALL_COMMANDS\nwait\n");
        let t = trace::parse(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            trace::parse(&trace::print(&t.program)).unwrap().program,
            t.program
        );
        let hs = check(&t.program).unwrap();
        let spec = races(&t.program, Reading::MemoryModel).unwrap();
        assert_eq!(hs.is_empty(), spec.is_empty(), "{acquire}");
        let own = vksync::check_ownership(&t.program).unwrap();
        (hs.len(), own.len())
    };
    let acquire = "barrier NONE:NONE -> COMPUTE_SHADER:SHADER_STORAGE_READ tex COLOR:0:0 TRANSFER_DST_OPTIMAL->GENERAL ownership 1->2";
    assert_eq!(run(acquire), (0, 0));
    // The acquire's second scope misses the dispatch: its read races with
    // the acquire (the transfer's write of the range).
    let narrow = "barrier NONE:NONE -> COPY:NONE tex COLOR:0:0 TRANSFER_DST_OPTIMAL->GENERAL ownership 1->2";
    assert_eq!(run(narrow), (1, 0));
    // No acquire: the contents are undefined on family 2.
    assert_eq!(run(""), (0, 1));
    // A concurrent image transfers no ownership.
    let err = trace::parse(&head.replace("16x16 exclusive", "16x16"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("VUID-VkImageMemoryBarrier2-image-04071"), "{err}");
}

/// "Image Layouts": from `UNDEFINED` "the contents of that range may be
/// discarded": the CPU reference makes the transitioned bytes undefined
/// (here the linear image's 64 bytes at the start of `mem`), keeps the
/// rest, and keeps the bytes of a transition from a defined layout.
#[test]
fn the_reference_discards_contents_on_a_transition_from_undefined() {
    let body = "host-write mem[0..128] 7
barrier NONE:NONE -> NONE:NONE lin COLOR:0:0 UNDEFINED->GENERAL
barrier NONE:NONE -> NONE:NONE lin COLOR:0:0 GENERAL->TRANSFER_DST_OPTIMAL
host-read mem[0..128]";
    let t = parse(body).unwrap();
    let reads = vksync::reference::run(&t.program).unwrap();
    let bytes = &reads[0].bytes;
    assert!(bytes[..64].iter().all(Option::is_none), "{bytes:?}");
    assert!(bytes[64..].iter().all(Option::is_some), "{bytes:?}");
    let body = "barrier NONE:NONE -> NONE:NONE lin COLOR:0:0 UNDEFINED->GENERAL
host-write mem[0..128] 7
barrier NONE:NONE -> NONE:NONE lin COLOR:0:0 GENERAL->TRANSFER_DST_OPTIMAL
host-read mem[0..128]";
    let reads = vksync::reference::run(&parse(body).unwrap().program).unwrap();
    assert!(reads[0].bytes.iter().all(Option::is_some));
}

/// The byte ranges of rectangles and of buffer-image copies against a
/// per-texel oracle: for every small image, subresource and rectangle,
/// the bytes `rect_ranges` and `buffer_ranges` give are exactly the
/// union of each covered texel block's bytes, computed one block at a
/// time from the definitions (the notional layout; "Buffer and Image
/// Addressing"), whenever no widening applies.
#[test]
fn addressing_matches_a_per_texel_oracle() {
    use std::collections::BTreeSet;
    use vksync::{AspectMask, BufferImageCopy, Format, ImageDesc, SubresourceLayers, Tiling};
    let set =
        |rs: &[vksync::ByteRange]| -> BTreeSet<u64> { rs.iter().flat_map(|r| r.start..r.end).collect() };
    let mut cases = 0;
    for (format, extent, mips, layers) in [
        ("R8G8B8A8_UNORM", [5, 3, 1], 2, 2),
        ("BC1_RGBA_UNORM_BLOCK", [9, 8, 1], 2, 1),
        ("D24_UNORM_S8_UINT", [3, 2, 1], 1, 2),
        ("R32_UINT", [3, 2, 3], 2, 1),
    ] {
        let format = Format::parse(format).unwrap();
        let d = ImageDesc {
            object: vksync::ObjectId(0),
            format,
            extent,
            mips,
            layers,
            tiling: Tiling::Optimal,
            initial: vksync::ImageLayout::UNDEFINED,
        };
        let (bw, bh) = format.info().block;
        for aspect in format.aspect_mask().aspects() {
            let bs = format.block_bytes(aspect);
            for mip in 0..mips {
                let e = d.mip_extent(mip);
                let blocks_x = u64::from(e[0].div_ceil(bw));
                let blocks_y = u64::from(e[1].div_ceil(bh));
                for l0 in 0..layers {
                    for l1 in l0 + 1..=layers {
                        let sub = SubresourceLayers {
                            aspects: AspectMask::of(aspect),
                            mip,
                            base_layer: l0,
                            layer_count: Some(l1 - l0),
                        };
                        // Offsets on block boundaries (the copy rules), any
                        // extent that ends on one or at the edge.
                        for x in (0..e[0]).step_by(bw as usize) {
                            for y in (0..e[1]).step_by(bh as usize) {
                                for z in 0..e[2] {
                                    for w in (1..=e[0] - x).filter(|w| (x + w) % bw == 0 || x + w == e[0]) {
                                        for h in (1..=e[1] - y).filter(|h| (y + h) % bh == 0 || y + h == e[1])
                                        {
                                            let dz = e[2] - z;
                                            let (off, ext) = ([x, y, z], [w, h, dz]);
                                            let (bx0, bx1) =
                                                (u64::from(x / bw), u64::from((x + w).div_ceil(bw)));
                                            let (by0, by1) =
                                                (u64::from(y / bh), u64::from((y + h).div_ceil(bh)));
                                            let mut want = BTreeSet::new();
                                            for l in l0..l1 {
                                                let base = d.subresource_offset(aspect, mip, l);
                                                for zz in u64::from(z)..u64::from(z + dz) {
                                                    for by in by0..by1 {
                                                        for bx in bx0..bx1 {
                                                            let at = base
                                                                + ((zz * blocks_y + by) * blocks_x + bx) * bs;
                                                            want.extend(at..at + bs);
                                                        }
                                                    }
                                                }
                                            }
                                            let got = d.rect_ranges(sub, off, ext).unwrap();
                                            assert_eq!(set(&got), want, "{format} {aspect:?} mip {mip} layers {l0}..{l1} {off:?} {ext:?}");
                                            // The buffer side, with a row
                                            // length and image height one block
                                            // larger than the extent.
                                            let region = BufferImageCopy {
                                                buffer_offset: 8,
                                                row_length: w + bw,
                                                image_height: h + bh,
                                                subresource: sub,
                                                offset: off,
                                                extent: ext,
                                            };
                                            let (rl, ih) = (
                                                u64::from((w + bw).div_ceil(bw)),
                                                u64::from((h + bh).div_ceil(bh)),
                                            );
                                            let mut want = BTreeSet::new();
                                            let slices = u64::from(dz) * u64::from(l1 - l0);
                                            for s in 0..slices {
                                                for by in 0..by1 - by0 {
                                                    for bx in 0..bx1 - bx0 {
                                                        let at = 8 + ((s * ih + by) * rl + bx) * bs;
                                                        want.extend(at..at + bs);
                                                    }
                                                }
                                            }
                                            let got = vksync::buffer_ranges(&d, &region).unwrap();
                                            assert_eq!(
                                                set(&got),
                                                want,
                                                "buffer side: {format} {aspect:?} {off:?} {ext:?}"
                                            );
                                            cases += 1;
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(cases > 400, "{cases}");
}

/// Past `MAX_RANGES` rows an access is widened to the hull of each
/// slice's rows (sound: only wider), so its size stays bounded.
#[test]
fn many_rows_widen_to_their_hull() {
    use vksync::{AspectMask, Format, ImageDesc, SubresourceLayers, Tiling};
    let d = ImageDesc {
        object: vksync::ObjectId(0),
        format: Format::parse("R8_UNORM").unwrap(),
        extent: [8, 100, 1],
        mips: 1,
        layers: 1,
        tiling: Tiling::Optimal,
        initial: vksync::ImageLayout::UNDEFINED,
    };
    let sub = SubresourceLayers {
        aspects: AspectMask::of(vksync::Aspect::Color),
        mip: 0,
        base_layer: 0,
        layer_count: Some(1),
    };
    let rows = |h| d.rect_ranges(sub, [0, 0, 0], [4, h, 1]).unwrap();
    assert_eq!(rows(64).len(), 64);
    let wide = rows(65);
    assert_eq!(wide.len(), 1);
    assert_eq!((wide[0].start, wide[0].end), (0, 64 * 8 + 4));
    assert_eq!(vksync::MAX_RANGES, 64);
}
