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
    hazards_of(name, &format!("{HEAD}{body}"))
}

/// [`hazards`] of a whole trace (its own declarations).
fn hazards_of(name: &str, text: &str) -> Vec<String> {
    let t = trace::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
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
        row_pitch: None,
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

/// `vkCmdCopyImage` touches the texels "Copying Data Between Images"
/// names on each side: the destination's extent size-adjusted to the same
/// texel blocks when the block extents differ (and only then: review46),
/// offsets and extents aligned to the texel blocks except at an edge
/// (VUID-vkCmdCopyImage-pRegions-07278 to -07283, -srcImage-01728 to
/// -01730), and between a 3D and a 2D
/// image depth slices paired with layers (an effective depth of 1 on the
/// 2D side). Lines 5-6 declare `bc` (BC1, 16x16: 4x4 blocks of 8 bytes)
/// and `vol` (R32G32_UINT 4x4x4) after `HEAD`; `arr` is R32G32_UINT 4x4
/// with 4 layers. (name, body, expected hazards, or the error.)
#[test]
fn image_to_image_copies_touch_the_specs_texels() {
    const DECL: &str = "image bc BC1_RGBA_UNORM_BLOCK 16x16 initial GENERAL
image vol R32G32_UINT 4x4x4 initial GENERAL
image arr R32G32_UINT 4x4 layers 4 initial GENERAL
image small R32G32_UINT 4x4 initial GENERAL
";
    type Case<'a> = (&'a str, String, Result<&'a [&'a str], &'a str>);
    let cases: &[Case] = &[
        (
            "uncompressed to compressed: 4x4 source texels write all 4x4 blocks of the destination",
            format!(
                "{DECL}copy-image small GENERAL -> bc GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 extent=4,4,1
copy-image-to-buffer bc GENERAL -> staging imageSubresource=COLOR:0:0 imageOffset=12,12,0 imageExtent=4,4,1
"
            ),
            // Block (3, 3): row 3 of 32 bytes, its last 8.
            Ok(&["L10 READ_AFTER_WRITE bc[COLOR:0:0 bytes 120..128] after L9"]),
        ),
        (
            "compressed to uncompressed: 16x16 source texels are 4x4 destination texels",
            format!(
                "{DECL}copy-image bc GENERAL -> small GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 extent=16,16,1
copy-image-to-buffer small GENERAL -> staging imageSubresource=COLOR:0:0 imageOffset=3,3,0 imageExtent=1,1,1
"
            ),
            Ok(&["L10 READ_AFTER_WRITE small[COLOR:0:0 bytes 120..128] after L9"]),
        ),
        (
            "3D to a 2D array: slice 2 is layer 2",
            format!(
                "{DECL}copy-image vol GENERAL -> arr GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0..4 extent=4,4,4
copy-image-to-buffer arr GENERAL -> staging imageSubresource=COLOR:0:2 imageExtent=4,4,1
copy-buffer-to-image staging -> vol GENERAL imageSubresource=COLOR:0:0 imageOffset=0,0,3 imageExtent=4,4,1
"
            ),
            // Layer 2 of arr (128 bytes a layer) after the copy wrote it;
            // slice 3 of vol (128 bytes a slice) after the copy read it.
            Ok(&[
                "L10 READ_AFTER_WRITE arr[COLOR:0:2] after L9",
                "L11 READ_AFTER_WRITE staging[0..128] after L10",
                "L11 WRITE_AFTER_READ vol[COLOR:0:0 bytes 384..512] after L9",
            ]),
        ),
        (
            "a 2D array to 3D: layer 1 is slice 1",
            format!(
                "{DECL}copy-image arr GENERAL -> vol GENERAL srcSubresource=COLOR:0:0..2 dstSubresource=COLOR:0:0 dstOffset=0,0,2 extent=4,4,2
copy-image-to-buffer vol GENERAL -> staging imageSubresource=COLOR:0:0 imageOffset=0,0,1 imageExtent=4,4,1
"
            ),
            // Slices 2 and 3 written; slice 1 read: no common byte.
            Ok(&[]),
        ),
        (
            "review46: a whole mip of a compressed image that is no whole number of blocks, to the same format (no size adjustment)",
            format!(
                "{DECL}image e6 BC1_RGBA_UNORM_BLOCK 6x6 initial GENERAL
image f6 BC1_RGBA_UNORM_BLOCK 6x6 initial GENERAL
copy-image e6 GENERAL -> f6 GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 extent=6,6,1
copy-image-to-buffer f6 GENERAL -> staging imageSubresource=COLOR:0:0 imageOffset=4,4,0 imageExtent=2,2,1
"
            ),
            // 2x2 blocks of 8 bytes; block (1, 1) is bytes 24..32.
            Ok(&["L12 READ_AFTER_WRITE f6[COLOR:0:0 bytes 24..32] after L11"]),
        ),
        (
            "review46: one uncompressed texel fills a compressed tail mip smaller than a block (ceil(1/1) = ceil(2/4))",
            format!(
                "{DECL}image m8 BC1_RGBA_UNORM_BLOCK 8x8 mips 3 initial GENERAL
copy-image small GENERAL -> m8 GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:2:0 extent=1,1,1
copy-image-to-buffer m8 GENERAL -> staging imageSubresource=COLOR:2:0 imageExtent=2,2,1
"
            ),
            Ok(&["L11 READ_AFTER_WRITE m8[COLOR:2:0] after L10"]),
        ),
        (
            "review46: a source offset inside a texel block",
            format!("{DECL}copy-image bc GENERAL -> bc GENERAL srcSubresource=COLOR:0:0 srcOffset=2,0,0 dstSubresource=COLOR:0:0 dstOffset=8,8,0 extent=4,4,1\n"),
            Err("9:1: vkCmdCopyImage: srcOffset.x 2 is not a multiple of the texel block width of BC1_RGBA_UNORM_BLOCK, 4 (VUID-vkCmdCopyImage-pRegions-07278)"),
        ),
        (
            "review46: a destination offset inside a texel block",
            format!("{DECL}copy-image small GENERAL -> bc GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 dstOffset=0,2,0 extent=1,1,1\n"),
            Err("9:1: vkCmdCopyImage: dstOffset.y 2 is not a multiple of the texel block height of BC1_RGBA_UNORM_BLOCK, 4 (VUID-vkCmdCopyImage-pRegions-07282)"),
        ),
        (
            "review46: an extent of part of a block that does not reach the source's edge",
            format!("{DECL}copy-image bc GENERAL -> bc GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 dstOffset=8,8,0 extent=2,4,1\n"),
            Err("9:1: vkCmdCopyImage: extent.width 2 is not a multiple of the texel block width of BC1_RGBA_UNORM_BLOCK, 4, and the region does not reach srcSubresource's edge (VUID-vkCmdCopyImage-srcImage-01728)"),
        ),
        (
            "2D to 3D with extent.depth not the layer count",
            format!("{DECL}copy-image arr GENERAL -> vol GENERAL srcSubresource=COLOR:0:0..2 dstSubresource=COLOR:0:0 extent=4,4,1\n"),
            Err("9:1: vkCmdCopyImage: srcImage is 2D and dstImage 3D: extent.depth 1 must equal srcSubresource.layerCount 2 (VUID-vkCmdCopyImage-srcImage-01791)"),
        ),
        (
            "3D to 2D with extent.depth not the layer count",
            format!("{DECL}copy-image vol GENERAL -> arr GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 extent=4,4,4\n"),
            Err("9:1: vkCmdCopyImage: srcImage is 3D and dstImage 2D: extent.depth 4 must equal dstSubresource.layerCount 1 (VUID-vkCmdCopyImage-dstImage-01792)"),
        ),
        (
            "two 2D images with different layer counts",
            format!("{DECL}copy-image arr GENERAL -> small GENERAL srcSubresource=COLOR:0:0..2 dstSubresource=COLOR:0:0 extent=4,4,1\n"),
            Err("9:1: vkCmdCopyImage: srcSubresource's 2 layers and dstSubresource's 1 must match (VUID-vkCmdCopyImage-srcImage-08793)"),
        ),
        (
            "two 2D images with a depth of 2",
            format!("{DECL}copy-image arr GENERAL -> arr GENERAL srcSubresource=COLOR:0:0..2 dstSubresource=COLOR:0:2..4 extent=4,4,2\n"),
            Err("9:1: vkCmdCopyImage: both images are 2D: extent.depth 2 must be 1 (VUID-vkCmdCopyImage-srcImage-01790)"),
        ),
    ];
    for (name, body, want) in cases {
        match want {
            Ok(want) => assert_eq!(&hazards(name, body), want, "case `{name}`"),
            Err(want) => assert_eq!(&error(body), want, "case `{name}`"),
        }
    }
}

/// review37: a buffer-image copy whose buffer addressing runs past 2^64
/// (a large bufferRowLength and bufferImageHeight, a bufferOffset near
/// 2^64) is refused; the addressing wrapped in a release build, and the
/// region's bytes passed the bounds check. Cases: the region's operands,
/// the error.
#[test]
fn buffer_image_copies_addressing_past_2_64_are_refused() {
    let past = "vkCmdCopyBufferToImage: pRegions[0] of image `big`: the region's buffer bytes run past 2^64 \
                (bufferOffset, bufferRowLength, bufferImageHeight)";
    let cases: &[(&str, bool)] = &[
        ("bufferRowLength=1073741824 bufferImageHeight=1073741824 imageSubresource=COLOR:0:0..2 imageExtent=4,1,1", true),
        ("bufferOffset=18446744073709551600 imageSubresource=COLOR:0:0 imageExtent=4,1,1", true),
        ("bufferRowLength=4 bufferImageHeight=1 imageSubresource=COLOR:0:0..2 imageExtent=4,1,1", false),
    ];
    for (operands, refused) in cases {
        let body = format!(
            "buffer small 128\nimage big R32G32B32A32_SFLOAT 4x1 layers 2\n\
             barrier NONE:NONE -> NONE:NONE big COLOR:0:0..2 UNDEFINED->GENERAL\n\
             copy-buffer-to-image small -> big GENERAL {operands}\n"
        );
        let got = error(&body);
        if *refused {
            assert!(got.ends_with(past), "{operands}: {got}");
        } else {
            assert_eq!(got, "", "{operands}");
        }
    }
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

/// A linear image with a row pitch wider than its texels
/// (`VkSubresourceLayout::rowPitch`, here 256 bytes for rows of 16 R32
/// texels, 64 bytes): row `y` is at `y * 256` in its memory, and the
/// bytes between rows are no texel's. A host write into row 1 races the
/// copy that read it; one into the padding after row 0 races nothing.
#[test]
fn a_linear_image_with_a_row_pitch_is_its_rows_in_memory() {
    let head = "buffer m 1024\nbuffer out 256\nimage p R32_UINT 16x4 linear rowPitch=256 initial GENERAL alias m 0\n";
    let t = trace::parse(head).unwrap();
    let d = t.program.image(vksync::ObjectId(2)).expect("an image");
    assert_eq!(d.total_size(), Some(1024));
    // As `vkGetImageSubresourceLayout` describes it (what the capture and
    // the runtime compare a driver's answer with).
    assert_eq!(
        d.subresource_layout(vksync::Aspect::Color, 0, 0),
        vksync::SubresourceLayout {
            offset: 0,
            size: 1024,
            row_pitch: 256,
            array_pitch: 1024,
            depth_pitch: 1024
        }
    );
    // Packed: HEAD's `tex` (RGBA8 16x16, 2 mips, 2 layers): mip 1 layer 1
    // starts past mip 0's two layers and mip 1's first.
    let tex = parse("")
        .unwrap()
        .program
        .image(vksync::ObjectId(2))
        .cloned()
        .expect("tex");
    assert_eq!(
        tex.subresource_layout(vksync::Aspect::Color, 1, 1),
        vksync::SubresourceLayout {
            offset: 2048 + 256,
            size: 256,
            row_pitch: 32,
            array_pitch: 256,
            depth_pitch: 256
        }
    );
    assert_eq!(
        d.rect_ranges(
            vksync::SubresourceLayers {
                aspects: vksync::AspectMask(1),
                mip: 0,
                base_layer: 0,
                layer_count: Some(1)
            },
            [2, 1, 0],
            [3, 2, 1]
        )
        .unwrap(),
        vec![vksync::ByteRange::new(264, 276), vksync::ByteRange::new(520, 532)]
    );
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "a host write into row 1 after a copy read it",
            "copy-image-to-buffer p GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=16,4,1\nsubmit\nhost-write m[256..320] 1\n",
            &["L6 WRITE_AFTER_READ m[256..320] after L4"],
        ),
        (
            "a host write into the padding after a clear (a clear writes texels, not the bytes between rows)",
            "clear-color-image p GENERAL COLOR:0:0\nsubmit\nhost-write m[100..256] 1\n",
            &[],
        ),
        (
            "a host write into row 3 after a clear",
            "clear-color-image p GENERAL COLOR:0:0\nsubmit\nhost-write m[768..800] 1\n",
            &["L6 WRITE_AFTER_WRITE m[768..800] after L4"],
        ),
        (
            "a host write into the padding after row 0",
            "copy-image-to-buffer p GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=16,4,1\nsubmit\nhost-write m[64..256] 1\n",
            &[],
        ),
    ];
    for (name, body, want) in cases {
        let text = format!("{head}{body}");
        let printed = trace::print(&trace::parse(&text).unwrap().program);
        assert!(printed.contains("linear rowPitch=256"), "{printed}");
        assert_eq!(hazards_of(name, &text), *want, "{name}");
    }
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

/// review39's image rules, each a row: the relaxed layout matching of
/// single-aspect descriptors of a depth/stencil image ("Image Layout
/// Matching Rules": the two pairs it names, no others), aspect-specific
/// layouts in image barriers, a color clear of a compressed image, the
/// alignment of buffer-image copy regions for the format's texel block,
/// the format and aspect rules of image copies, and the sources a resolve
/// can have (an image that cannot have more than one sample cannot be
/// resolved). Cases: name, the commands after the header, the error
/// (empty: valid).
#[test]
fn format_and_aspect_rules_of_image_commands() {
    const IMAGES: &str = "buffer o 4096\n\
        image d D24_UNORM_S8_UINT 4x4\n\
        image bc BC1_RGBA_UNORM_BLOCK 8x8 initial TRANSFER_DST_OPTIMAL\n\
        image bc6 BC1_RGBA_UNORM_BLOCK 6x6 initial TRANSFER_DST_OPTIMAL\n\
        image c8 R8_UNORM 8x8 initial TRANSFER_DST_OPTIMAL\n\
        image c32 R32_UINT 8x8 initial TRANSFER_SRC_OPTIMAL\n\
        image rgba R8G8B8A8_UNORM 8x8 initial TRANSFER_DST_OPTIMAL\n\
        image rg R32G32_UINT 2x2 initial TRANSFER_SRC_OPTIMAL\n\
        image s8 S8_UINT 8x8 initial TRANSFER_SRC_OPTIMAL\n\
        image ds D24_UNORM_S8_UINT 8x8 initial TRANSFER_DST_OPTIMAL\n\
        image ds2 D24_UNORM_S8_UINT 8x8 initial TRANSFER_SRC_OPTIMAL\n\
        image ms R8G8B8A8_UNORM 8x8 initial TRANSFER_SRC_OPTIMAL\n\
        image mips R8G8B8A8_UNORM 8x8 mips 2 initial TRANSFER_SRC_OPTIMAL\n\
        image linear R8G8B8A8_UNORM 8x8 linear initial TRANSFER_SRC_OPTIMAL\n\
        image ss R8G8B8A8_UNORM 8x8 initial TRANSFER_DST_OPTIMAL\n\
        image ss32 R32_UINT 8x8 initial TRANSFER_DST_OPTIMAL\n";
    let cases: &[(&str, &str, &str)] = &[
        (
            "a depth-only descriptor in DEPTH_STENCIL_READ_ONLY_OPTIMAL of depth in DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL (the relaxed matching rule's first pair)",
            "barrier NONE:NONE -> COMPUTE_SHADER:SHADER_SAMPLED_READ d DEPTH|STENCIL:0:0 UNDEFINED->DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL\ndispatch k sampled-image d DEPTH:0:0 DEPTH_STENCIL_READ_ONLY_OPTIMAL write o",
            "",
        ),
        (
            "a stencil-only descriptor in DEPTH_STENCIL_READ_ONLY_OPTIMAL of stencil in DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL (its second pair)",
            "barrier NONE:NONE -> COMPUTE_SHADER:SHADER_SAMPLED_READ d DEPTH|STENCIL:0:0 UNDEFINED->DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL\ndispatch k sampled-image d STENCIL:0:0 DEPTH_STENCIL_READ_ONLY_OPTIMAL write o",
            "",
        ),
        (
            "the depth aspect with the stencil aspect's pair: no match",
            "barrier NONE:NONE -> COMPUTE_SHADER:SHADER_SAMPLED_READ d DEPTH|STENCIL:0:0 UNDEFINED->DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL\ndispatch k sampled-image d DEPTH:0:0 DEPTH_STENCIL_READ_ONLY_OPTIMAL write o",
            "22: vkCmdDispatch uses image `d` subresource DEPTH mip 0 layer 0 in layout DEPTH_STENCIL_READ_ONLY_OPTIMAL, but its layout is DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL at that point (VUID-VkDescriptorImageInfo-imageLayout-00344)",
        ),
        (
            "a depth range with a stencil-only layout (VUID-VkImageMemoryBarrier2-aspectMask-08702)",
            "barrier NONE:NONE -> NONE:NONE d DEPTH:0:0 UNDEFINED->STENCIL_ATTACHMENT_OPTIMAL",
            "21: barrier 0: newLayout STENCIL_ATTACHMENT_OPTIMAL of image `d` is a layout of the stencil aspect alone, and the subresource range includes DEPTH (VUID-VkImageMemoryBarrier2-aspectMask-08702); transition each aspect in its own barrier, or name a layout of both aspects",
        ),
        (
            "a range of both aspects with a depth-only layout (-08703)",
            "barrier NONE:NONE -> NONE:NONE d DEPTH|STENCIL:0:0 UNDEFINED->DEPTH_ATTACHMENT_OPTIMAL",
            "21: barrier 0: newLayout DEPTH_ATTACHMENT_OPTIMAL of image `d` is a layout of the depth aspect alone, and the subresource range includes STENCIL (VUID-VkImageMemoryBarrier2-aspectMask-08703); transition each aspect in its own barrier, or name a layout of both aspects",
        ),
        (
            "a depth range with a depth-only layout",
            "barrier NONE:NONE -> NONE:NONE d DEPTH:0:0 UNDEFINED->DEPTH_ATTACHMENT_OPTIMAL",
            "",
        ),
        (
            "a color clear of a compressed image (VUID-vkCmdClearColorImage-image-00007)",
            "clear-color-image bc TRANSFER_DST_OPTIMAL COLOR:0:0",
            "21:1: vkCmdClearColorImage: format of image `bc`: BC1_RGBA_UNORM_BLOCK is a compressed format, which a color clear does not take (VUID-vkCmdClearColorImage-image-00007: image must not have a compressed or depth/stencil format)",
        ),
        (
            "bufferOffset not a multiple of the texel block size (-07975)",
            "copy-buffer-to-image o -> rgba TRANSFER_DST_OPTIMAL bufferOffset=2 imageSubresource=COLOR:0:0 imageExtent=8,8,1",
            "21:1: vkCmdCopyBufferToImage: pRegions[0] of image `rgba`: bufferOffset 2 is not a multiple of the texel block size of R8G8B8A8_UNORM, 4 bytes (VUID-vkCmdCopyBufferToImage-dstImage-07975)",
        ),
        (
            "bufferOffset of a stencil copy not a multiple of 4 (-07978)",
            "copy-image-to-buffer s8 TRANSFER_SRC_OPTIMAL -> o bufferOffset=2 imageSubresource=STENCIL:0:0 imageExtent=8,8,1",
            "21:1: vkCmdCopyImageToBuffer: pRegions[0] of image `s8`: bufferOffset 2 is not a multiple of 4, as a copy of a depth/stencil format needs (VUID-vkCmdCopyImageToBuffer-srcImage-07978)",
        ),
        (
            "bufferImageHeight not a multiple of the block height (VUID-VkBufferImageCopy2-bufferImageHeight-09107)",
            "copy-buffer-to-image o -> bc TRANSFER_DST_OPTIMAL bufferImageHeight=6 imageSubresource=COLOR:0:0 imageExtent=8,4,1",
            "21:1: vkCmdCopyBufferToImage: pRegions[0] of image `bc`: bufferImageHeight 6 is not a multiple of the texel block height of BC1_RGBA_UNORM_BLOCK, 4 (VUID-VkBufferImageCopy2-bufferImageHeight-09107)",
        ),
        (
            "imageOffset.y not a multiple of the block height (-07275)",
            "copy-buffer-to-image o -> bc TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageOffset=0,2,0 imageExtent=4,4,1",
            "21:1: vkCmdCopyBufferToImage: pRegions[0] of image `bc`: imageOffset.y 2 is not a multiple of the texel block height of BC1_RGBA_UNORM_BLOCK, 4 (VUID-vkCmdCopyBufferToImage-dstImage-07275)",
        ),
        (
            "imageExtent.width not a multiple of the block width short of the edge (-00207)",
            "copy-buffer-to-image o -> bc TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageOffset=4,0,0 imageExtent=2,4,1",
            "21:1: vkCmdCopyBufferToImage: pRegions[0] of image `bc`: imageExtent.width 2 is not a multiple of the texel block width of BC1_RGBA_UNORM_BLOCK, 4, and the region does not reach the subresource's edge (VUID-vkCmdCopyBufferToImage-dstImage-00207)",
        ),
        (
            "imageExtent a part of a block where the region reaches the edge",
            "copy-buffer-to-image o -> bc6 TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageOffset=4,4,0 imageExtent=2,2,1",
            "",
        ),
        (
            "copy-image between color formats of different block sizes (VUID-vkCmdCopyImage-srcImage-01548)",
            "copy-image c32 TRANSFER_SRC_OPTIMAL -> c8 TRANSFER_DST_OPTIMAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 extent=8,8,1",
            "21:1: vkCmdCopyImage: srcImage's format R32_UINT and dstImage's R8_UNORM are not size-compatible (color formats of one texel block size; a depth/stencil format only with itself) (VUID-vkCmdCopyImage-srcImage-01548)",
        ),
        (
            "copy-image between color formats of one block size",
            "copy-image c32 TRANSFER_SRC_OPTIMAL -> rgba TRANSFER_DST_OPTIMAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 extent=8,8,1",
            "",
        ),
        (
            "copy-image from an uncompressed format into a compressed one of its block size",
            "copy-image rg TRANSFER_SRC_OPTIMAL -> bc TRANSFER_DST_OPTIMAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 extent=2,2,1",
            "",
        ),
        (
            "copy-image between two depth/stencil formats",
            "copy-image s8 TRANSFER_SRC_OPTIMAL -> ds TRANSFER_DST_OPTIMAL srcSubresource=STENCIL:0:0 dstSubresource=STENCIL:0:0 extent=8,8,1",
            "21:1: vkCmdCopyImage: srcImage's format S8_UINT and dstImage's D24_UNORM_S8_UINT are not size-compatible (color formats of one texel block size; a depth/stencil format only with itself) (VUID-vkCmdCopyImage-srcImage-01548)",
        ),
        (
            "copy-image from the depth aspect to the stencil aspect (-01551)",
            "copy-image ds2 TRANSFER_SRC_OPTIMAL -> ds TRANSFER_DST_OPTIMAL srcSubresource=DEPTH:0:0 dstSubresource=STENCIL:0:0 extent=8,8,1",
            "21:1: vkCmdCopyImage: srcSubresource's aspects DEPTH and dstSubresource's STENCIL differ (VUID-vkCmdCopyImage-srcImage-01551)",
        ),
        (
            "copy-image between the depth aspects of one format",
            "copy-image ds2 TRANSFER_SRC_OPTIMAL -> ds TRANSFER_DST_OPTIMAL srcSubresource=DEPTH:0:0 dstSubresource=DEPTH:0:0 extent=8,8,1",
            "",
        ),
        (
            "resolve-image from an image that can be multisampled",
            "resolve-image ms TRANSFER_SRC_OPTIMAL -> ss TRANSFER_DST_OPTIMAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 extent=8,8,1",
            "",
        ),
        (
            "resolve-image from an image of two mip levels (VUID-vkCmdResolveImage-srcImage-00257)",
            "resolve-image mips TRANSFER_SRC_OPTIMAL -> ss TRANSFER_DST_OPTIMAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 extent=8,8,1",
            "21:1: vkCmdResolveImage: srcImage has 2 mip levels, so it has one sample (an image of more samples is 2D, of one mip level and optimal tiling: VUID-VkImageCreateInfo-samples-02257), and a resolve's source has more (VUID-vkCmdResolveImage-srcImage-00257)",
        ),
        (
            "resolve-image from a linear image",
            "resolve-image linear TRANSFER_SRC_OPTIMAL -> ss TRANSFER_DST_OPTIMAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 extent=8,8,1",
            "21:1: vkCmdResolveImage: srcImage has linear tiling, so it has one sample (an image of more samples is 2D, of one mip level and optimal tiling: VUID-VkImageCreateInfo-samples-02257), and a resolve's source has more (VUID-vkCmdResolveImage-srcImage-00257)",
        ),
        (
            "resolve-image into another format (-01386)",
            "resolve-image ms TRANSFER_SRC_OPTIMAL -> ss32 TRANSFER_DST_OPTIMAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 extent=8,8,1",
            "21:1: vkCmdResolveImage: srcImage's format R8G8B8A8_UNORM and dstImage's R32_UINT differ (VUID-vkCmdResolveImage-srcImage-01386)",
        ),
    ];
    let mut failures = Vec::new();
    for (name, body, want) in cases {
        let got = error(&format!("{IMAGES}{body}"));
        if got != *want {
            failures.push(format!("{name}: {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// "The union of all source regions, and the union of all destination
/// regions, specified by the elements of pRegions, must not overlap in
/// memory" (VUID-vkCmdCopyImageToBuffer-pRegions-00184,
/// VUID-vkCmdCopyBufferToImage-pRegions-00173,
/// VUID-vkCmdCopyImage-pRegions-00124): decided on the exact bytes of each
/// region (its block rows) where they lie in memory, as for
/// `vkCmdCopyBuffer`. `lin` (R32 4x4, 64 bytes) aliases `mem[0..64]`.
#[test]
fn copies_whose_source_and_destination_overlap_in_memory_are_refused() {
    const LIN_SRC: &str =
        "barrier NONE:NONE -> COPY:TRANSFER_READ lin COLOR:0:0 UNDEFINED->TRANSFER_SRC_OPTIMAL\n";
    const TEX_GENERAL: &str =
        "barrier NONE:NONE -> COPY:TRANSFER_READ|TRANSFER_WRITE tex COLOR:0..:0.. UNDEFINED->GENERAL\n";
    let cases: &[(&str, String, &str)] = &[
        (
            "image to a buffer aliasing it",
            format!("{LIN_SRC}copy-image-to-buffer lin TRANSFER_SRC_OPTIMAL -> mem imageSubresource=COLOR:0:0 imageExtent=4,4,1"),
            "6: vkCmdCopyImageToBuffer: the source of region 0 (lin[COLOR:0:0]) and the destination of region 0 (mem[0..64]) overlap in memory (VUID-vkCmdCopyImageToBuffer-pRegions-00184)",
        ),
        (
            "image to the bytes of the buffer past it",
            format!("{LIN_SRC}copy-image-to-buffer lin TRANSFER_SRC_OPTIMAL -> mem bufferOffset=64 imageSubresource=COLOR:0:0 imageExtent=4,4,1"),
            "",
        ),
        (
            "one region's destination over another's source, in an aliasing buffer",
            format!("{LIN_SRC}copy-image-to-buffer lin TRANSFER_SRC_OPTIMAL -> mem bufferOffset=64 imageSubresource=COLOR:0:0 imageExtent=4,1,1 ; bufferOffset=128 imageSubresource=COLOR:0:0 imageOffset=0,3,0 imageExtent=4,1,1 ; bufferOffset=48 imageSubresource=COLOR:0:0 imageOffset=0,1,0 imageExtent=1,1,1"),
            "6: vkCmdCopyImageToBuffer: the source of region 1 (lin[COLOR:0:0 bytes 48..64]) and the destination of region 2 (mem[48..52]) overlap in memory (VUID-vkCmdCopyImageToBuffer-pRegions-00184)",
        ),
        (
            "a buffer into the image it aliases",
            "barrier NONE:NONE -> COPY:TRANSFER_WRITE lin COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL\ncopy-buffer-to-image mem -> lin TRANSFER_DST_OPTIMAL bufferOffset=60 imageSubresource=COLOR:0:0 imageOffset=3,3,0 imageExtent=1,1,1".into(),
            "6: vkCmdCopyBufferToImage: the source of region 0 (mem[60..64]) and the destination of region 0 (lin[COLOR:0:0 bytes 60..64]) overlap in memory (VUID-vkCmdCopyBufferToImage-pRegions-00173)",
        ),
        (
            "a buffer into the image it aliases, disjoint bytes",
            "barrier NONE:NONE -> COPY:TRANSFER_WRITE lin COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL\ncopy-buffer-to-image mem -> lin TRANSFER_DST_OPTIMAL bufferOffset=60 imageSubresource=COLOR:0:0 imageOffset=0,2,0 imageExtent=1,1,1".into(),
            "",
        ),
        (
            "overlapping rectangles of one subresource",
            format!("{TEX_GENERAL}copy-image tex GENERAL -> tex GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 dstOffset=2,0,0 extent=4,4,1"),
            "6: vkCmdCopyImage: the source of region 0 (tex[COLOR:0:0 bytes 0..16]) and the destination of region 0 (tex[COLOR:0:0 bytes 8..24]) overlap in memory (VUID-vkCmdCopyImage-pRegions-00124)",
        ),
        (
            "disjoint rectangles of one subresource on the same rows",
            format!("{TEX_GENERAL}copy-image tex GENERAL -> tex GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 dstOffset=4,0,0 extent=4,4,1"),
            "",
        ),
        (
            "another layer of the image",
            format!("{TEX_GENERAL}copy-image tex GENERAL -> tex GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:1 extent=16,16,1"),
            "",
        ),
        (
            "one region's destination over another's source",
            format!("{TEX_GENERAL}copy-image tex GENERAL -> tex GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:1 extent=4,4,1 ; srcSubresource=COLOR:1:0 dstSubresource=COLOR:0:0 dstOffset=0,3,0 extent=4,4,1"),
            "6: vkCmdCopyImage: the source of region 0 (tex[COLOR:0:0 bytes 192..208]) and the destination of region 1 (tex[COLOR:0:0 bytes 192..208]) overlap in memory (VUID-vkCmdCopyImage-pRegions-00124)",
        ),
        (
            // Past MAX_RANGES rows an access widens to its hull; the overlap
            // rule uses the exact rows, so two disjoint column bands of a
            // tall image are no overlap.
            "disjoint column bands of many rows",
            "image big R8_UNORM 128x128\nbarrier NONE:NONE -> COPY:TRANSFER_READ|TRANSFER_WRITE big COLOR:0:0 UNDEFINED->GENERAL\ncopy-image big GENERAL -> big GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:0 dstOffset=64,0,0 extent=64,128,1".into(),
            "",
        ),
    ];
    for (name, body, want) in cases {
        assert_eq!(error(body), *want, "case `{name}`");
    }
}

/// "Each memory location accessed by this command must not be accessed by
/// more than one destination region" (Vulkan 1.4.358:
/// VUID-vkCmdCopyImage-pRegions-12484, VUID-vkCmdCopyBufferToImage-pRegions-12483,
/// VUID-vkCmdCopyImageToBuffer-pRegions-12485), decided on the same exact
/// bytes as the source/destination rule; `vkCmdResolveImage` has no such
/// rule (its VUID-vkCmdResolveImage-pRegions-00255 is on sources against
/// destinations only).
#[test]
fn copies_whose_destinations_overlap_each_other_are_refused() {
    const TEX_GENERAL: &str =
        "barrier NONE:NONE -> COPY:TRANSFER_READ|TRANSFER_WRITE tex COLOR:0..:0.. UNDEFINED->GENERAL\n";
    const LIN_SRC: &str =
        "barrier NONE:NONE -> COPY:TRANSFER_READ lin COLOR:0:0 UNDEFINED->TRANSFER_SRC_OPTIMAL\n";
    let cases: &[(&str, String, &str)] = &[
        (
            "two image regions writing one rectangle's rows",
            format!("{TEX_GENERAL}copy-image tex GENERAL -> tex GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:1 extent=4,4,1 ; srcSubresource=COLOR:1:0 dstSubresource=COLOR:0:1 dstOffset=2,2,0 extent=4,4,1"),
            "6: vkCmdCopyImage: the destinations of region 0 (tex[COLOR:0:1 bytes 128..144]) and region 1 (tex[COLOR:0:1 bytes 136..152]) overlap in memory (VUID-vkCmdCopyImage-pRegions-12484)",
        ),
        (
            "two image regions side by side",
            format!("{TEX_GENERAL}copy-image tex GENERAL -> tex GENERAL srcSubresource=COLOR:0:0 dstSubresource=COLOR:0:1 extent=4,4,1 ; srcSubresource=COLOR:1:0 dstSubresource=COLOR:0:1 dstOffset=4,0,0 extent=4,4,1"),
            "",
        ),
        (
            "two buffer regions into one texel",
            "barrier NONE:NONE -> COPY:TRANSFER_WRITE tex COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL\ncopy-buffer-to-image staging -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=2,1,1 ; bufferOffset=64 imageSubresource=COLOR:0:0 imageOffset=1,0,0 imageExtent=1,1,1".into(),
            "6: vkCmdCopyBufferToImage: the destinations of region 0 (tex[COLOR:0:0 bytes 0..8]) and region 1 (tex[COLOR:0:0 bytes 4..8]) overlap in memory (VUID-vkCmdCopyBufferToImage-pRegions-12483)",
        ),
        (
            "two rows into overlapping buffer bytes",
            format!("{LIN_SRC}copy-image-to-buffer lin TRANSFER_SRC_OPTIMAL -> staging imageSubresource=COLOR:0:0 imageExtent=4,1,1 ; bufferOffset=8 imageSubresource=COLOR:0:0 imageOffset=0,1,0 imageExtent=4,1,1"),
            "6: vkCmdCopyImageToBuffer: the destinations of region 0 (staging[0..16]) and region 1 (staging[8..24]) overlap in memory (VUID-vkCmdCopyImageToBuffer-pRegions-12485)",
        ),
        (
            "the same rows read twice into disjoint bytes",
            format!("{LIN_SRC}copy-image-to-buffer lin TRANSFER_SRC_OPTIMAL -> staging imageSubresource=COLOR:0:0 imageExtent=4,1,1 ; bufferOffset=16 imageSubresource=COLOR:0:0 imageExtent=4,1,1"),
            "",
        ),
    ];
    for (name, body, want) in cases {
        assert_eq!(error(body), *want, "case `{name}`");
    }
}

/// `vkCmdBlitImage`'s rules the model decides from the image
/// declarations: formats (VUID-vkCmdBlitImage-srcImage-00229, -00230,
/// -00231), each region's aspects and layer counts
/// (VUID-VkImageBlit-aspectMask-00238, -layerCount-08800), and "The union
/// of all destination regions ... must not overlap in memory with any
/// texel that may be sampled" (VUID-vkCmdBlitImage-pRegions-00217) where
/// no axis shrinks, so every source texel is sampled whatever the filter.
#[test]
fn blits_the_model_refuses() {
    const DECL: &str = "image u R32_UINT 8x8 layers 2\nimage f R32_SFLOAT 8x8\nimage s R32_SINT 8x8\nimage d D32_SFLOAT 8x8\nimage ds D24_UNORM_S8_UINT 8x8\n";
    // Lines 5-9 declare; one barrier (`general`, line 10) or two
    // (`pair`, lines 10-11), then the blit (one line later with a sixth
    // declaration).
    let to = |img: &str, asp: &str, layout: &str| {
        format!(
            "barrier NONE:NONE -> BLIT:TRANSFER_READ|TRANSFER_WRITE {img} {asp}:0:0.. UNDEFINED->{layout}\n"
        )
    };
    let general = format!("{DECL}{}", to("tex", "COLOR", "GENERAL"));
    let pair = |a: &str, aa: &str, b: &str, ba: &str| {
        format!(
            "{DECL}{}{}",
            to(a, aa, "TRANSFER_SRC_OPTIMAL"),
            to(b, ba, "TRANSFER_DST_OPTIMAL")
        )
    };
    let blit = |a: &str, aa: &str, b: &str, ba: &str| {
        format!("blit-image {a} TRANSFER_SRC_OPTIMAL -> {b} TRANSFER_DST_OPTIMAL srcSubresource={aa}:0:0 srcOffsets=0,0,0:8,8,1 dstSubresource={ba}:0:0 dstOffsets=0,0,0:8,8,1")
    };
    let cases: &[(&str, String, &str)] = &[
        ("a float to a float", format!("{}{}", pair("f", "COLOR", "tex", "COLOR"), blit("f", "COLOR", "tex", "COLOR")), ""),
        (
            "an unsigned integer to a float",
            format!("{}{}", pair("u", "COLOR", "f", "COLOR"), blit("u", "COLOR", "f", "COLOR")),
            "12:1: vkCmdBlitImage: srcImage `u` is R32_UINT and dstImage `f` is R32_SFLOAT: if either has an unsigned integer color format, the other must have one too (VUID-vkCmdBlitImage-srcImage-00230)",
        ),
        (
            "a signed integer to an unsigned one",
            format!("{}{}", pair("s", "COLOR", "u", "COLOR"), blit("s", "COLOR", "u", "COLOR")),
            "12:1: vkCmdBlitImage: srcImage `s` is R32_SINT and dstImage `u` is R32_UINT: if either has a signed integer format, the other must have one too (VUID-vkCmdBlitImage-srcImage-00229)",
        ),
        (
            "depth to another depth/stencil format",
            format!("{}{}", pair("d", "DEPTH", "ds", "DEPTH"), blit("d", "DEPTH", "ds", "DEPTH")),
            "12:1: vkCmdBlitImage: srcImage `d` is D32_SFLOAT and dstImage `ds` is D24_UNORM_S8_UINT: if either has a depth/stencil format, the other must have exactly the same format (VUID-vkCmdBlitImage-srcImage-00231)",
        ),
        (
            "depth to the same format, one aspect, another stencil",
            format!("{}{}", pair("ds", "DEPTH", "ds2", "DEPTH"), blit("ds", "DEPTH", "ds2", "STENCIL")).replace(DECL, &format!("{DECL}image ds2 D24_UNORM_S8_UINT 8x8\n")).replace("ds2 DEPTH:0:0..", "ds2 STENCIL:0:0.."),
            "13:1: vkCmdBlitImage: pRegions[0]: srcSubresource.aspectMask DEPTH and dstSubresource.aspectMask STENCIL must match (VUID-VkImageBlit-aspectMask-00238)",
        ),
        (
            "two layers into one",
            format!("{}{}", pair("u", "COLOR", "u2", "COLOR"), blit("u", "COLOR", "u2", "COLOR").replace("srcSubresource=COLOR:0:0", "srcSubresource=COLOR:0:0..2")).replace(DECL, &format!("{DECL}image u2 R32_UINT 8x8\n")),
            "13:1: vkCmdBlitImage: pRegions[0]: srcSubresource's 2 layers and dstSubresource's 1 must match (VUID-VkImageBlit-layerCount-08800)",
        ),
        (
            "a 1:1 blit within one subresource onto its own texels",
            format!("{general}blit-image tex GENERAL -> tex GENERAL srcSubresource=COLOR:0:0 srcOffsets=0,0,0:4,4,1 dstSubresource=COLOR:0:0 dstOffsets=6,3,0:2,7,1"),
            "11: vkCmdBlitImage: the source of region 0 (tex[COLOR:0:0 bytes 192..208]) and the destination of region 0 (tex[COLOR:0:0 bytes 200..216]) overlap in memory (VUID-vkCmdBlitImage-pRegions-00217)",
        ),
        (
            "a magnifying blit onto a sampled texel",
            format!("{general}blit-image tex GENERAL -> tex GENERAL srcSubresource=COLOR:0:0 srcOffsets=0,0,0:2,2,1 dstSubresource=COLOR:0:0 dstOffsets=1,1,0:9,9,1"),
            "11: vkCmdBlitImage: the source of region 0 (tex[COLOR:0:0 bytes 64..72]) and the destination of region 0 (tex[COLOR:0:0 bytes 68..100]) overlap in memory (VUID-vkCmdBlitImage-pRegions-00217)",
        ),
        (
            "a minifying blit within one subresource is not decided",
            format!("{general}blit-image tex GENERAL -> tex GENERAL srcSubresource=COLOR:0:0 srcOffsets=0,0,0:8,8,1 dstSubresource=COLOR:0:0 dstOffsets=1,1,0:5,5,1"),
            "",
        ),
        (
            "a LINEAR blit of a depth image",
            format!("{}{}", pair("d", "DEPTH", "d2", "DEPTH"), blit("d", "DEPTH", "d2", "DEPTH").replace(" srcSubresource", " filter=LINEAR srcSubresource")).replace(DECL, &format!("{DECL}image d2 D32_SFLOAT 8x8\n")),
            "13:1: vkCmdBlitImage: srcImage `d` has the depth/stencil format D32_SFLOAT: filter must be NEAREST, not LINEAR (VUID-vkCmdBlitImage-srcImage-00232)",
        ),
        (
            "a CUBIC_EXT blit of a 3D image",
            format!("{}{}", pair("v", "COLOR", "f", "COLOR"), blit("v", "COLOR", "f", "COLOR").replace(" srcSubresource", " filter=CUBIC_EXT srcSubresource")).replace(DECL, &format!("{DECL}image v R32_SFLOAT 8x8x2\n")),
            "13:1: vkCmdBlitImage: srcImage `v` is a 3D image: filter CUBIC_EXT needs a 2D one (VUID-vkCmdBlitImage-filter-00237)",
        ),
        // review37: the region as written is checked whatever the
        // filter (LINEAR grows the box it reads, and the checks ran on
        // that box: an empty region passed, an error named offsets the
        // user had not written).
        (
            "an empty LINEAR region",
            format!("{general}blit-image tex GENERAL -> tex GENERAL filter=LINEAR srcSubresource=COLOR:0:0 srcOffsets=16,16,0:16,16,1 dstSubresource=COLOR:0:0 dstOffsets=0,0,0:4,4,1"),
            "11:1: vkCmdBlitImage: pRegions[0].srcOffsets of image `tex`: an empty extent",
        ),
        (
            "a LINEAR region past the mip",
            format!("{general}blit-image tex GENERAL -> tex GENERAL filter=LINEAR srcSubresource=COLOR:0:0 srcOffsets=0,0,0:17,4,1 dstSubresource=COLOR:0:0 dstOffsets=0,8,0:4,12,1"),
            "11:1: vkCmdBlitImage: pRegions[0].srcOffsets of image `tex`: offset 0 + extent 17 past mip 0's 16 texels along x",
        ),
        (
            "an unknown filter",
            format!("{}{}", pair("f", "COLOR", "tex", "COLOR"), blit("f", "COLOR", "tex", "COLOR").replace(" srcSubresource", " filter=BILINEAR srcSubresource")),
            "12:63: unknown filter `BILINEAR` (NEAREST, LINEAR or CUBIC_EXT)",
        ),
        (
            "a LINEAR 1:1 blit to the texels beside it: the destination may be sampled, not certainly (not decided)",
            format!("{general}blit-image tex GENERAL -> tex GENERAL filter=LINEAR srcSubresource=COLOR:0:0 srcOffsets=0,0,0:4,4,1 dstSubresource=COLOR:0:0 dstOffsets=4,0,0:8,4,1"),
            "",
        ),
        (
            "a 1:1 blit to the texels beside it",
            format!("{general}blit-image tex GENERAL -> tex GENERAL srcSubresource=COLOR:0:0 srcOffsets=0,0,0:4,4,1 dstSubresource=COLOR:0:0 dstOffsets=4,0,0:8,4,1"),
            "",
        ),
    ];
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(name, body, want)| {
            let got = error(body);
            (got != *want).then(|| format!("{name}:\n  got  {got}\n  want {want}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What a blit reads: the texels its filter may sample. "Implementations
/// must clamp at the edge of the source image, and may additionally clamp
/// to the edge of the source region" (`vkCmdBlitImage`), so `LINEAR`'s two
/// texels per axis may read one texel beyond each face of the source box,
/// `CUBIC_EXT`'s four two, within the source mip; `NEAREST` stays inside.
/// A copy (line 8) writes one texel of `tex` at `x`, then a blit (line 9)
/// reads `tex`'s box 0..4 x 0..4 (or 12..16 x 0..4) with no barrier between.
#[test]
fn a_blit_reads_the_texels_its_filter_may_sample() {
    let case = |x: u32, filter: &str, src: &str| {
        format!(
            "image out R8G8B8A8_UNORM 8x8\n\
             barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE tex COLOR:0..:0.. UNDEFINED->GENERAL\n\
             barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE out COLOR:0:0 UNDEFINED->GENERAL\n\
             copy-buffer-to-image staging -> tex GENERAL imageSubresource=COLOR:0:0 imageOffset={x},0,0 imageExtent=1,1,1\n\
             blit-image tex GENERAL -> out GENERAL {filter}srcSubresource=COLOR:0:0 srcOffsets={src} \
             dstSubresource=COLOR:0:0 dstOffsets=0,0,0:8,8,1\n"
        )
    };
    let box0 = "0,0,0:4,4,1";
    let cases: &[(&str, String, &[&str])] = &[
        ("NEAREST, the texel beside the box", case(4, "", box0), &[]),
        (
            "LINEAR, the texel beside the box",
            case(4, "filter=LINEAR ", box0),
            &["L9 READ_AFTER_WRITE tex[COLOR:0:0 bytes 16..20] after L8"],
        ),
        (
            "LINEAR, two texels beside the box",
            case(5, "filter=LINEAR ", box0),
            &[],
        ),
        (
            "CUBIC_EXT, two texels beside the box",
            case(5, "filter=CUBIC_EXT ", box0),
            &["L9 READ_AFTER_WRITE tex[COLOR:0:0 bytes 20..24] after L8"],
        ),
        (
            "LINEAR at the image's edge, the texel before the box",
            case(11, "filter=LINEAR ", "12,0,0:16,4,1"),
            &["L9 READ_AFTER_WRITE tex[COLOR:0:0 bytes 44..48] after L8"],
        ),
        (
            "LINEAR, the corners in reverse order",
            case(4, "filter=LINEAR ", "4,4,0:0,0,1"),
            &["L9 READ_AFTER_WRITE tex[COLOR:0:0 bytes 16..20] after L8"],
        ),
    ];
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(name, body, want)| {
            let got = hazards(name, body);
            (got != *want).then(|| format!("{name}:\n  got  {got:?}\n  want {want:?}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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
        ("image a R8_UNORM 4x4 tiled", "1:22: expected `mips`, `layers`, `linear`, `optimal`, `rowPitch=`, `exclusive`, `concurrent`, `initial` or `alias`, found `tiled`"),
        // `VkSubresourceLayout::rowPitch` of a linear image.
        ("image a R32_UINT 16x4 linear rowPitch=256", ""),
        ("image a R32_UINT 16x4 rowPitch=256", "1:23: image `a`: a row pitch is given for a linear image of one mip level, one array layer, depth 1 and one aspect only"),
        ("image a R32_UINT 16x4 linear layers 2 rowPitch=256", "1:39: image `a`: a row pitch is given for a linear image of one mip level, one array layer, depth 1 and one aspect only"),
        ("image a R32_UINT 16x4 linear rowPitch=32", "1:30: image `a`: row pitch 32 is less than a row's 64 bytes of texels"),
        ("image a R32_UINT 16x4 linear rowPitch=x", "1:30: expected a row pitch in bytes after `rowPitch=`, found `x`"),
        ("image a R32_UINT 16x4 linear rowPitch=0x100", ""),
        ("image a R32_UINT 16x4 linear rowPitch=256 rowPitch=512", "1:43: `rowPitch=` is given twice in this image declaration"),
        ("buffer m 768\nimage a R32_UINT 16x4 linear rowPitch=256 alias m 0", "2: `a` aliases `m` at 0..1024, past its size 768"),
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
        // A layout whose valid usage requires a usage the format cannot
        // have: VUID-VkImageMemoryBarrier2-oldLayout-01208 (COLOR_ATTACHMENT
        // usage), -01209/-01210/-01658/-01659, -srcQueueFamilyIndex-04066/
        // -04068 (DEPTH_STENCIL_ATTACHMENT usage), for a transition or an
        // ownership transfer. No color format supports depth/stencil
        // attachment use and no depth/stencil format color attachment use.
        (
            "image im R32_UINT 8x8\nbarrier NONE:NONE -> NONE:NONE im COLOR:0:0 UNDEFINED->DEPTH_STENCIL_ATTACHMENT_OPTIMAL",
            "2: barrier 0: newLayout DEPTH_STENCIL_ATTACHMENT_OPTIMAL of image `im` needs a depth/stencil format, and R32_UINT is not one (VUID-VkImageMemoryBarrier2-oldLayout-01209: the layout requires a usage that format cannot have)",
        ),
        (
            "image d D32_SFLOAT 4x4\nbarrier NONE:NONE -> NONE:NONE d DEPTH:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL",
            "2: barrier 0: newLayout COLOR_ATTACHMENT_OPTIMAL of image `d` needs a color format, and D32_SFLOAT is not one (VUID-VkImageMemoryBarrier2-oldLayout-01208: the layout requires a usage that format cannot have)",
        ),
        (
            "image im R32_UINT 8x8 initial GENERAL\nbarrier NONE:NONE -> NONE:NONE im COLOR:0:0 STENCIL_ATTACHMENT_OPTIMAL->GENERAL",
            "2: barrier 0: oldLayout STENCIL_ATTACHMENT_OPTIMAL of image `im` needs a depth/stencil format, and R32_UINT is not one (VUID-VkImageMemoryBarrier2-srcQueueFamilyIndex-04068: the layout requires a usage that format cannot have)",
        ),
        ("image d D32_SFLOAT 4x4\nbarrier NONE:NONE -> NONE:NONE d DEPTH:0:0 UNDEFINED->DEPTH_ATTACHMENT_OPTIMAL", ""),
        ("image d D24_UNORM_S8_UINT 4x4\nbarrier NONE:NONE -> NONE:NONE d DEPTH|STENCIL:0:0 UNDEFINED->DEPTH_STENCIL_READ_ONLY_OPTIMAL", ""),
        // One aspect of a depth/stencil format alone: valid with the
        // separateDepthStencilLayouts feature (VUID-VkImageMemoryBarrier2-
        // image-03319), which the model assumes (docs/semantics.md).
        ("image d D24_UNORM_S8_UINT 4x4\nbarrier NONE:NONE -> NONE:NONE d DEPTH:0:0 UNDEFINED->DEPTH_ATTACHMENT_OPTIMAL", ""),
        // DEPTH_READ_ONLY_OPTIMAL and STENCIL_READ_ONLY_OPTIMAL also accept
        // SAMPLED or INPUT_ATTACHMENT usage (-04065, -04067), which a color
        // image may have: not refused.
        ("image im R32_UINT 8x8\nbarrier NONE:NONE -> NONE:NONE im COLOR:0:0 UNDEFINED->DEPTH_READ_ONLY_OPTIMAL", ""),
        // The same rules for a layout that work before the program left:
        // only a barrier naming it could have.
        (
            "image im R32_UINT 8x8 initial DEPTH_STENCIL_ATTACHMENT_OPTIMAL",
            "1:31: initial layout DEPTH_STENCIL_ATTACHMENT_OPTIMAL of image `im` needs a depth/stencil format, and R32_UINT is not one (VUID-VkImageMemoryBarrier2-oldLayout-01209: the layout requires a usage that format cannot have)",
        ),
        ("image d D32_SFLOAT 4x4 initial DEPTH_STENCIL_ATTACHMENT_OPTIMAL", ""),
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
    // No acquire: "the contents and image layout (if applicable) of the
    // released resource are undefined until a matching acquire operation
    // is performed", so the dispatch's use in GENERAL is refused (before
    // review41 only its contents were reported, by `check_ownership`).
    let text = format!(
        "{head}dispatch k image-read tex COLOR:0:0 write out\nsubmit compute wait s@ALL_COMMANDS\nwait\n"
    );
    let t = trace::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    let err = vksync::resolve(&t.program).unwrap_err().kind.to_string();
    assert!(
        err.starts_with("vkCmdDispatch: image `tex` subresource COLOR mip 0 layer 0 was released to queue family 2 and not acquired since"),
        "{err}"
    );
    // "the values of oldLayout and newLayout in the release operation's
    // memory barrier must be equal to values of oldLayout and newLayout in
    // the acquire operation's memory barrier": named as that rule, not as
    // the acquire's oldLayout (VUID-VkImageMemoryBarrier2-oldLayout-01197).
    for other in [
        "TRANSFER_DST_OPTIMAL->SHADER_READ_ONLY_OPTIMAL",
        "GENERAL->GENERAL",
    ] {
        let text = format!("{head}barrier NONE:NONE -> COMPUTE_SHADER:SHADER_STORAGE_READ tex COLOR:0:0 {other} ownership 1->2\nsubmit compute wait s@ALL_COMMANDS\n");
        let t = trace::parse(&text).unwrap_or_else(|e| panic!("{e}"));
        let err = vksync::resolve(&t.program).unwrap_err().kind.to_string();
        assert!(
            err.contains(&format!("barrier 0: the acquire of image `tex` subresource COLOR mip 0 layer 0 names layouts {other} but its release named TRANSFER_DST_OPTIMAL->GENERAL")),
            "{err}"
        );
    }
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
submit
wait
host-read mem[0..128]";
    let t = parse(body).unwrap();
    let reads = vksync::reference::run(&t.program).unwrap();
    let bytes = &reads[0].bytes;
    assert!(bytes[..64].iter().all(Option::is_none), "{bytes:?}");
    assert!(bytes[64..].iter().all(Option::is_some), "{bytes:?}");
    // Submitted before the host write and the read (a host access
    // recorded after unsubmitted work runs before it).
    let body = "barrier NONE:NONE -> NONE:NONE lin COLOR:0:0 UNDEFINED->GENERAL
submit
wait
host-write mem[0..128] 7
barrier NONE:NONE -> NONE:NONE lin COLOR:0:0 GENERAL->TRANSFER_DST_OPTIMAL
submit
wait
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
            row_pitch: None,
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
        row_pitch: None,
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

/// Queues and semaphores every case of
/// [`layouts_follow_the_order_the_waits_guarantee`] declares after `HEAD`
/// (lines 5-10), so its own lines start at 11.
const QUEUES: &str =
    "queue qa\nqueue qb\nqueue qc\nsemaphore s\nsemaphore t timeline\nsemaphore u timeline\n";

/// A case with several queues: `Err` with the resolve error (`line: message`),
/// or `Ok` with the definitional semantics' races (both readings agree),
/// which the fast checker matches wherever it decides the program.
fn queue_case(name: &str, body: &str) -> Result<Vec<String>, String> {
    let t = parse(&format!("{QUEUES}{body}"))?;
    if let Err(e) = vksync::resolve(&t.program) {
        return Err(format!("{}: {}", t.line_of(e.at).unwrap_or(0), e.kind));
    }
    let show = |c: usize, k, r: &vksync::spec::Race| {
        format!(
            "L{} {k} bytes {}..{} after L{}",
            t.command_lines[c], r.range.start, r.range.end, t.command_lines[r.prior_command]
        )
    };
    let spec = |reading| -> Vec<String> {
        races(&t.program, reading)
            .unwrap()
            .iter()
            .map(|r| show(r.command, r.kind, r))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    };
    let by_def = spec(Reading::MemoryModel);
    assert_eq!(
        by_def,
        spec(Reading::VisibleToWrites),
        "case `{name}`: the two readings"
    );
    match check(&t.program) {
        Ok(hs) => {
            let fast: BTreeSet<_> = hs.iter().map(|h| (h.command, h.kind, h.prior_command)).collect();
            let spec: BTreeSet<_> = races(&t.program, Reading::MemoryModel)
                .unwrap()
                .iter()
                .map(|r| (r.command, r.kind, r.prior_command))
                .collect();
            assert_eq!(fast, spec, "case `{name}`: the checkers differ");
        }
        Err(e) => assert!(
            matches!(e.kind, vksync::ProgramErrorKind::MultiQueueNotSupported { .. }),
            "case `{name}`: the fast checker: {e}"
        ),
    }
    Ok(by_def)
}

/// "srcImageLayout must specify the layout of the image subresources of
/// srcImage specified in pRegions at the time this command is executed on
/// a VkDevice" (VUID-vkCmdCopyImageToBuffer-srcImageLayout-00189): the
/// layout rules follow an order of execution the program guarantees, in
/// which a batch that waits for a timeline value signalled later in the
/// trace runs after the signalling batch (`docs/semantics.md`, "Image
/// layouts in execution order"). A use whose layout a transition on an
/// unordered queue changes has no determined layout: refused, naming both.
#[test]
fn layouts_follow_the_order_the_waits_guarantee() {
    let copy = "copy-image-to-buffer tex TRANSFER_SRC_OPTIMAL -> staging imageSubresource=COLOR:0:0 imageExtent=16,16,1";
    let to_src = "barrier NONE:NONE -> NONE:NONE tex COLOR:0:0 UNDEFINED->TRANSFER_SRC_OPTIMAL";
    // The layout rule's refusal, after the use and the other queue's
    // transition are named.
    let undetermined = |line: u32, queue: &str, other: &str| {
        format!(
            "{line}: vkCmdCopyImageToBuffer on queue `{queue}` uses image `tex` subresource COLOR mip 0 layer 0, \
             whose layout the layout transition of vkCmdPipelineBarrier2 on queue `{other}` changes, \
             and no semaphore, fence or host wait orders the two batches either way: \
             its layout \"at the time this command is executed on a VkDevice\" is not determined \
             (\"Image Layout Transitions\": transitions execute in submission order only \
             \"relative to other image layout transitions submitted to the same queue\"; order them with a semaphore)"
        )
    };
    // (name, body, the races by both checkers or the resolve error).
    type Case<'a> = (&'a str, String, Result<&'a [&'a str], String>);
    let cases: Vec<Case> = vec![
        (
            // The review's trace (tests/open-defects/layout-submit-order.trace
            // before this fix): refused as "UNDEFINED at that point".
            "the copy's batch waits for the later batch that transitions",
            format!("{copy}\nsubmit qb wait t:1@ALL_COMMANDS\n{to_src}\nsubmit qa signal t:1\nwait"),
            Ok(&[]),
        ),
        (
            "the same without the wait: no order, no determined layout",
            format!("{copy}\nsubmit qb\n{to_src}\nsubmit qa signal t:1\nwait"),
            Err(undetermined(11, "qb", "qa")),
        ),
        (
            // The batch order holds, the layout too; the transition is in
            // no stage COPY names, so the signal does not order it. The
            // race is named in execution order: the copy, whose batch
            // waits, runs after the transition.
            "the signal in COPY only: the layout holds, the transition races the copy",
            format!("{copy}\nsubmit qb wait t:1@ALL_COMMANDS\n{to_src}\nsubmit qa signal t:1@COPY\nwait"),
            Ok(&["L11 READ_AFTER_WRITE bytes 0..1024 after L13"]),
        ),
        (
            // "Semaphore Waiting": a binary wait needs a signal submitted
            // before it.
            "a binary wait before its signal",
            format!("{copy}\nsubmit qb wait s@ALL_COMMANDS\n{to_src}\nsubmit qa signal s\nwait"),
            Err("12:16: binary semaphore `s` is waited on with no signal pending (VUID-vkQueueSubmit-pWaitSemaphores-03238)".into()),
        ),
        (
            "the binary signal first",
            format!("{to_src}\nsubmit qa signal s\n{copy}\nsubmit qb wait s@ALL_COMMANDS\nwait"),
            Ok(&[]),
        ),
        (
            "two queues transition with nothing between them, then a use",
            format!("{to_src}\nsubmit qa\nbarrier NONE:NONE -> NONE:NONE tex COLOR:0:0 UNDEFINED->GENERAL\nsubmit qb\n{copy}\nsubmit qa\nwait"),
            Err(undetermined(15, "qa", "qb")),
        ),
        (
            "two queues transition with nothing between them",
            format!("{to_src}\nsubmit qa\nbarrier NONE:NONE -> NONE:NONE tex COLOR:0:0 UNDEFINED->GENERAL\nsubmit qb\nwait"),
            Ok(&["L13 WRITE_AFTER_WRITE bytes 0..1024 after L11"]),
        ),
        (
            "a fence wait orders the two queues",
            format!("{to_src}\nsubmit qa\nwait qa\n{copy}\nsubmit qb\nwait"),
            Ok(&[]),
        ),
        (
            "a chain through two timelines, both waits before their signals",
            format!("{copy}\nsubmit qc wait u:1@ALL_COMMANDS\nsubmit qb wait t:1@ALL_COMMANDS signal u:1\n{to_src}\nsubmit qa signal t:1\nwait"),
            Ok(&[]),
        ),
        (
            "the chain broken in the middle",
            format!("{copy}\nsubmit qc wait u:1@ALL_COMMANDS\nsubmit qb signal u:1\n{to_src}\nsubmit qa signal t:1\nwait"),
            Err(undetermined(11, "qc", "qa")),
        ),
        (
            // Later batches of the waiting queue run after it too.
            "a later batch of the waiting queue",
            format!("submit qb wait t:1@ALL_COMMANDS\n{copy}\nsubmit qb\n{to_src}\nsubmit qa signal t:1\nwait"),
            Ok(&[]),
        ),
    ];
    let mut failed = Vec::new();
    for (name, body, want) in &cases {
        let got = queue_case(name, body);
        let want = want
            .clone()
            .map(|w| w.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        if got != want {
            failed.push(format!("case `{name}`:\n  got  {got:?}\n  want {want:?}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The usage each layout's barrier rule requires
/// (VUID-VkImageMemoryBarrier2-oldLayout-01208 and its siblings, "Image
/// Layouts"), and the usage a runtime adds to create an image of a format
/// that is to be in it, given the usage it already has:
/// (layout, format, usage it has, the rule's usages, the usage added).
#[test]
fn layouts_need_the_usage_their_barrier_rules_name() {
    use vksync::{Format, ImageLayout as L, ImageUsage as U};
    let color = Format::parse("R32_UINT").unwrap();
    let depth = Format::parse("D32_SFLOAT").unwrap();
    let none = U::empty();
    let ds_read = U::DEPTH_STENCIL_ATTACHMENT | U::SAMPLED | U::INPUT_ATTACHMENT;
    let cases: &[(L, Format, U, U, U)] = &[
        (
            L::COLOR_ATTACHMENT_OPTIMAL,
            color,
            none,
            U::COLOR_ATTACHMENT,
            U::COLOR_ATTACHMENT,
        ),
        (
            L::COLOR_ATTACHMENT_OPTIMAL,
            color,
            U::COLOR_ATTACHMENT,
            U::COLOR_ATTACHMENT,
            none,
        ),
        // No usage of the rule fits: the model's layout rules refuse it.
        (
            L::COLOR_ATTACHMENT_OPTIMAL,
            depth,
            none,
            U::COLOR_ATTACHMENT,
            none,
        ),
        (
            L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
            depth,
            none,
            U::DEPTH_STENCIL_ATTACHMENT,
            U::DEPTH_STENCIL_ATTACHMENT,
        ),
        (
            L::DEPTH_STENCIL_READ_ONLY_OPTIMAL,
            depth,
            none,
            U::DEPTH_STENCIL_ATTACHMENT,
            U::DEPTH_STENCIL_ATTACHMENT,
        ),
        (
            L::SHADER_READ_ONLY_OPTIMAL,
            color,
            none,
            U::SAMPLED | U::INPUT_ATTACHMENT,
            U::SAMPLED,
        ),
        (
            L::SHADER_READ_ONLY_OPTIMAL,
            color,
            U::INPUT_ATTACHMENT,
            U::SAMPLED | U::INPUT_ATTACHMENT,
            none,
        ),
        (
            L::TRANSFER_SRC_OPTIMAL,
            color,
            none,
            U::TRANSFER_SRC,
            U::TRANSFER_SRC,
        ),
        (
            L::TRANSFER_DST_OPTIMAL,
            depth,
            U::TRANSFER_SRC,
            U::TRANSFER_DST,
            U::TRANSFER_DST,
        ),
        (
            L::DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL,
            depth,
            none,
            U::DEPTH_STENCIL_ATTACHMENT,
            U::DEPTH_STENCIL_ATTACHMENT,
        ),
        (
            L::DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL,
            depth,
            none,
            U::DEPTH_STENCIL_ATTACHMENT,
            U::DEPTH_STENCIL_ATTACHMENT,
        ),
        (
            L::DEPTH_ATTACHMENT_OPTIMAL,
            depth,
            none,
            U::DEPTH_STENCIL_ATTACHMENT,
            U::DEPTH_STENCIL_ATTACHMENT,
        ),
        (
            L::STENCIL_ATTACHMENT_OPTIMAL,
            depth,
            none,
            U::DEPTH_STENCIL_ATTACHMENT,
            U::DEPTH_STENCIL_ATTACHMENT,
        ),
        // "at least one of DEPTH_STENCIL_ATTACHMENT, SAMPLED, or
        // INPUT_ATTACHMENT": a color image may be in it through SAMPLED.
        (L::DEPTH_READ_ONLY_OPTIMAL, color, none, ds_read, U::SAMPLED),
        (
            L::DEPTH_READ_ONLY_OPTIMAL,
            depth,
            U::DEPTH_STENCIL_ATTACHMENT,
            ds_read,
            none,
        ),
        (L::STENCIL_READ_ONLY_OPTIMAL, depth, none, ds_read, U::SAMPLED),
        (L::READ_ONLY_OPTIMAL, color, U::STORAGE, ds_read, U::SAMPLED),
        (
            L::ATTACHMENT_OPTIMAL,
            color,
            none,
            U::COLOR_ATTACHMENT | U::DEPTH_STENCIL_ATTACHMENT,
            U::COLOR_ATTACHMENT,
        ),
        (
            L::ATTACHMENT_OPTIMAL,
            depth,
            none,
            U::COLOR_ATTACHMENT | U::DEPTH_STENCIL_ATTACHMENT,
            U::DEPTH_STENCIL_ATTACHMENT,
        ),
    ];
    for &(layout, format, have, rule, added) in cases {
        assert_eq!(layout.required_usage().map(|r| r.0), Some(rule), "{layout}");
        assert_eq!(
            layout.usage_for(format, have),
            added,
            "{layout} {format} {have:?}"
        );
    }
    // The layouts with no usage rule.
    for layout in [L::UNDEFINED, L::GENERAL, L::PREINITIALIZED, L::PRESENT_SRC_KHR] {
        assert_eq!(layout.required_usage(), None, "{layout}");
        assert_eq!(layout.usage_for(color, none), none, "{layout}");
    }
    // Every layout the model names is in the table or in that list.
    assert_eq!(
        L::ALL.iter().filter(|l| l.required_usage().is_some()).count() + 4,
        L::ALL.len()
    );
}

/// A fix over an image's bytes is an image memory barrier a user can record
/// as printed: the whole subresources the bytes lie in, in the layout the
/// later command uses them in (`L->L`, no transition), which the parser
/// takes; recorded just before that command it removes the hazard in both
/// checkers. Before, the fix named the bytes (`tex[COLOR:0:0 bytes
/// 0..512]`), which no barrier can take. Cases: (name, body whose last line
/// is the later command of its one hazard, the fix text).
#[test]
fn an_image_hazards_fix_is_an_image_barrier_to_record_as_printed() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "part of a subresource, written twice",
            "{TO_DST}copy-buffer-to-image staging -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=8,4,1
copy-buffer-to-image staging -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageOffset=4,2,0 imageExtent=2,1,1",
            "barrier COPY:TRANSFER_WRITE -> COPY:NONE tex COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_DST_OPTIMAL",
        ),
        (
            "two layers of one mip, then a storage image read",
            "barrier NONE:NONE -> COPY:TRANSFER_WRITE tex COLOR:1:0..2 UNDEFINED->GENERAL
copy-buffer-to-image staging -> tex GENERAL imageSubresource=COLOR:1:0..2 imageExtent=8,8,1
dispatch k image-read tex COLOR:1:0..2",
            "barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ tex COLOR:1:0..2 GENERAL->GENERAL",
        ),
    ];
    for (name, body, want) in cases {
        let body = body.replace("{TO_DST}", TO_DST);
        let t = parse(&body).unwrap_or_else(|e| panic!("{name}: {e}"));
        let hs = check(&t.program).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(hs.len(), 1, "{name}: {:?}", hazards(name, &body));
        let fix = hs[0].fix_text_at(&t.program, &t.command_lines);
        assert_eq!(fix, *want, "{name}");
        let (head, last) = body.rsplit_once('\n').unwrap();
        let fixed = format!("{head}\n{fix}\n{last}");
        assert_eq!(
            hazards(name, &fixed),
            Vec::<String>::new(),
            "{name}: fixed\n{fixed}"
        );
    }
}

/// Declarations of the aliasing cases (lines 1-5): `a` (R32 4x4, 2 mips:
/// 80 notional bytes) and `b` (R32 4x4, 64 bytes) are optimal images bound
/// to `mem` at 0.
const ALIASED: &str = "buffer mem 256
buffer out 64
buffer src 64
image a R32_UINT 4x4 mips 2 alias mem 0
image b R32_UINT 4x4 alias mem 0
";

/// `a` made GENERAL whole, its transition visible to everything after.
const A_GENERAL: &str =
    "barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE a COLOR:0..:0 UNDEFINED->GENERAL\n";

/// The hazards of an aliasing case, and whether the fast checkers refused
/// it for the definitional semantics (checking that `check_with` refuses
/// exactly then, at the command the refusal names).
fn aliased(name: &str, body: &str) -> (bool, Vec<String>) {
    let text = format!("{ALIASED}{body}");
    let t = trace::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let checked = vksync::check_program(&t.program, vksync::Semantics::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let by_definition = matches!(checked.decided_by, vksync::DecidedBy::Definition { .. });
    match vksync::check_with(&t.program, vksync::Semantics::default()) {
        Err(e) => {
            assert!(
                by_definition,
                "{name}: refused but decided by {:?}",
                checked.decided_by
            );
            assert!(
                matches!(e.kind, vksync::ProgramErrorKind::AliasedImageNotSupported { .. }),
                "{name}: {e}"
            );
        }
        Ok(_) => assert!(!by_definition, "{name}: decided by {:?}", checked.decided_by),
    }
    // The same races as `hazards_of` states them (the two agree by
    // construction here: both are the definitional semantics).
    (by_definition, hazards_of(name, &text))
}

/// "When a non-linear ... image is bound to an aliased range, all image
/// subresources of the image overlap the range" ("Memory Aliasing"): for
/// another object bound to its memory, an access of any subresource of
/// an optimal image covers its whole bound range, whatever bytes the
/// model's notional layout gives the subresource; among the image's own
/// subresources the notional layout stays exact. Such a program (an
/// optimal image aliased and named in part) is decided by the
/// definitional semantics; one naming the image only whole is the fast
/// checker's, whose bytes are then exact.
#[test]
fn every_subresource_of_an_aliased_optimal_image_overlaps_its_memory() {
    let read_mip1 = "copy-image-to-buffer a GENERAL -> out imageSubresource=COLOR:1:0 imageExtent=2,2,1\n";
    let cases: [(&str, String, bool, &[&str]); 12] = [
        (
            // review39's example: mip 1 of `a` is at notional bytes
            // 64..80, `b` at 0..64.
            "a read of a's mip 1, then b's transition from UNDEFINED",
            "barrier NONE:NONE -> COPY:TRANSFER_READ a COLOR:1:0 UNDEFINED->TRANSFER_SRC_OPTIMAL
copy-image-to-buffer a TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:1:0 imageExtent=2,2,1
barrier NONE:NONE -> NONE:NONE b COLOR:0:0 UNDEFINED->GENERAL\n"
                .to_string(),
            true,
            &["L8 WRITE_AFTER_READ b[COLOR:0:0] after L7"],
        ),
        (
            "a fill of mem's first bytes, then a read of a's mip 1",
            format!("{A_GENERAL}fill mem[0..16] 1\n{read_mip1}"),
            true,
            &["L8 READ_AFTER_WRITE a[COLOR:1:0] after L7"],
        ),
        (
            "the same with a buffer barrier over the fill",
            format!("{A_GENERAL}fill mem[0..16] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ mem[0..16]\n{read_mip1}"),
            true,
            &[],
        ),
        (
            // By address, as a buffer barrier holds an alias's accesses.
            "the same with an image barrier over mip 1",
            format!("{A_GENERAL}fill mem[0..16] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a COLOR:1:0 GENERAL->GENERAL\n{read_mip1}"),
            true,
            &[],
        ),
        (
            "the same with an image barrier over mip 0 of b, which covers the fill's bytes",
            format!("{A_GENERAL}fill mem[0..16] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ b COLOR:0:0 UNDEFINED->GENERAL\n{read_mip1}"),
            true,
            &[],
        ),
        (
            // Exact among a's subresources: the write of mip 0 and the
            // read of mip 1 do not race; both race the fill over mem.
            "a write of mip 0, a read of mip 1, then a fill of mem",
            format!("{A_GENERAL}copy-buffer-to-image src -> a GENERAL imageSubresource=COLOR:0:0 imageExtent=4,4,1\n{read_mip1}fill mem[0..4] 1\n"),
            true,
            &["L9 WRITE_AFTER_READ mem[0..4] after L8", "L9 WRITE_AFTER_WRITE mem[0..4] after L7"],
        ),
        (
            // The read is of mip 1, whose bytes are not mip 0's: not in
            // the barrier's second access scope (review40).
            "an image barrier over mip 0 leaves the fill and a read of mip 1 unordered",
            format!("{A_GENERAL}fill mem[0..4] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a COLOR:0:0 GENERAL->GENERAL\n{read_mip1}"),
            true,
            &["L9 READ_AFTER_WRITE a[COLOR:1:0] after L7"],
        ),
        (
            // Nothing says mem[64..80] is mip 0's memory (review40).
            "an image barrier over mip 0 leaves two accesses of mem unordered",
            format!("{A_GENERAL}fill mem[64..80] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ a COLOR:0:0 GENERAL->GENERAL\ncopy mem[64..80] -> out[0..16]\n"),
            true,
            &["L9 READ_AFTER_WRITE mem[64..80] after L7"],
        ),
        (
            // Every byte of a is in mem[0..256] (review40).
            "a buffer barrier over a's whole bound range orders a's own accesses",
            format!("{A_GENERAL}copy-buffer-to-image src -> a GENERAL imageSubresource=COLOR:0:0 imageExtent=4,4,1\nbarrier COPY:TRANSFER_WRITE -> COPY:TRANSFER_READ mem[0..256]\ncopy-image-to-buffer a GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1\n"),
            true,
            &[],
        ),
        (
            // Named by the mip whose footprint races, with a fix over it.
            "a fill, then a clear of mip 1 and mip 0",
            format!("{A_GENERAL}fill mem[0..4] 1\nclear-color-image a GENERAL COLOR:1:0 ; COLOR:0:0\n"),
            true,
            &["L8 WRITE_AFTER_WRITE a[COLOR:1:0] after L7"],
        ),
        (
            // mem is named only outside a's bound range (review40).
            "a named in part, mem named outside it: the fast checker",
            "barrier NONE:NONE -> COPY:TRANSFER_WRITE a COLOR:1:0 UNDEFINED->GENERAL
copy-buffer-to-image src -> a GENERAL imageSubresource=COLOR:1:0 imageExtent=2,2,1
fill mem[128..132] 1\n"
                .to_string(),
            false,
            &[],
        ),
        (
            "a named only whole: the fast checker, exact",
            "fill mem[0..4] 1\nbarrier NONE:NONE -> NONE:NONE a COLOR:0..:0 UNDEFINED->GENERAL\n".to_string(),
            false,
            &["L7 WRITE_AFTER_WRITE a[COLOR:0:0 bytes 0..4] after L6"],
        ),
    ];
    for (name, body, by_definition, expected) in cases {
        assert_eq!(
            aliased(name, &body),
            (by_definition, expected.iter().map(|s| s.to_string()).collect()),
            "case `{name}`"
        );
    }
}

/// The copy rules read overlap as the hazards do ("Memory Aliasing"):
/// against another object's region, a region of an optimal image is its
/// whole bound range; among its own regions, its notional bytes.
#[test]
fn copies_read_an_aliased_optimal_image_as_its_whole_memory() {
    let cases: [(&str, String, &str); 3] = [
        (
            "mip 1 of a into mem's first bytes (mip 0's notional bytes)",
            format!("{A_GENERAL}copy-image-to-buffer a GENERAL -> mem imageSubresource=COLOR:1:0 imageExtent=2,2,1\n"),
            "7: vkCmdCopyImageToBuffer: the source of region 0 (a[COLOR:1:0]) and the destination of region 0 (mem[0..16]) overlap in memory (VUID-vkCmdCopyImageToBuffer-pRegions-00184)",
        ),
        (
            "mip 1 of a into mem past its bound range",
            format!("{A_GENERAL}copy-image-to-buffer a GENERAL -> mem bufferOffset=128 imageSubresource=COLOR:1:0 imageExtent=2,2,1\n"),
            "",
        ),
        (
            "two regions of one copy into mip 0 and mip 1 of a",
            format!("{A_GENERAL}copy-buffer-to-image src -> a GENERAL imageSubresource=COLOR:0:0 imageExtent=1,1,1 ; imageSubresource=COLOR:1:0 imageExtent=1,1,1\n"),
            "",
        ),
    ];
    for (name, body, expected) in cases {
        let t = trace::parse(&format!("{ALIASED}{body}")).unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = match vksync::resolve(&t.program) {
            Ok(_) => String::new(),
            Err(e) => format!("{}: {}", t.line_of(e.at).unwrap_or(0), e.kind),
        };
        assert_eq!(got, expected, "case `{name}`");
    }
}

/// A fix against an earlier layout transition names the transition's own
/// image, not the later access's object (review40: "the layout transition
/// of `mem[0..4]`" for `a`'s, when a fill of the memory `a` is bound to
/// followed it).
#[test]
fn a_fix_against_a_transition_names_its_image() {
    const A: &str = "barrier NONE:NONE -> NONE:NONE a COLOR:0..:0 UNDEFINED->GENERAL\n";
    let cases: [(&str, String, &str); 3] = [
        (
            "a fill of the memory after the image's transition",
            format!("{A}fill mem[0..4] 1\n"),
            "add CLEAR:NONE to the destination scope of the layout transition of a[COLOR:0..2:0]",
        ),
        (
            "a copy of the image after its transition (its own region)",
            format!("{A}copy-image-to-buffer a GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1\n"),
            "add COPY:TRANSFER_READ to the destination scope of the layout transition of a[COLOR:0:0]",
        ),
        (
            // review42: with two transitions in the call, the one bound
            // over the fill's bytes (the text named `mem[0..4]`).
            "a fill of the memory after a call transitioning a and another image",
            "image c R32_UINT 4x4\n\
             barrier NONE:NONE -> NONE:NONE c COLOR:0:0 UNDEFINED->GENERAL ; NONE:NONE -> NONE:NONE a COLOR:0..:0 UNDEFINED->GENERAL\n\
             fill mem[0..4] 1\n"
                .to_string(),
            "add CLEAR:NONE to the destination scope of the layout transition of a[COLOR:0..2:0]",
        ),
    ];
    for (name, body, expected) in cases {
        let text = format!("{ALIASED}{body}");
        let t = trace::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let hs = check(&t.program).unwrap_or_else(|e| panic!("{name}: {e}"));
        let texts: Vec<String> = hs
            .iter()
            .map(|h| h.fix_text_at(&t.program, &t.command_lines))
            .collect();
        assert_eq!(texts, [expected], "case `{name}`");
    }
}

/// Fixes a trace can take (review41): against an image's ownership
/// release, an image barrier in the layout the release leaves from (not
/// the image's bytes, which the parser refuses); against a host write
/// before a layout transition, a barrier into `ALL_COMMANDS` (a barrier
/// into `NONE` ordered nothing). Each fix, recorded where it says, leaves
/// no hazard.
#[test]
fn fixes_at_releases_and_transitions_after_host_writes_can_be_recorded() {
    const RELEASE: &str = "queue transfer family 1
queue compute family 2
semaphore s
buffer staging 1024
buffer out 1024
image im R32_UINT 16x16 exclusive
barrier NONE:NONE -> COPY:TRANSFER_WRITE im COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL
copy-buffer-to-image staging -> im TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=16,16,1
@
barrier COPY:NONE -> NONE:NONE im COLOR:0:0 TRANSFER_DST_OPTIMAL->GENERAL ownership 1->2
submit transfer signal s@ALL_COMMANDS
barrier NONE:NONE -> COMPUTE_SHADER:SHADER_STORAGE_READ im COLOR:0:0 TRANSFER_DST_OPTIMAL->GENERAL ownership 1->2
dispatch k image-read im COLOR:0:0 write out
submit compute wait s@ALL_COMMANDS
wait
";
    const HOST: &str = "queue qa
semaphore t timeline
buffer mem 64
buffer out 64
image lin R32_UINT 4x4 linear initial PREINITIALIZED alias mem 0
@
barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ lin COLOR:0:0 PREINITIALIZED->TRANSFER_SRC_OPTIMAL
copy-image-to-buffer lin TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1
submit qa wait t:1@ALL_COMMANDS
host-write mem[0..64] 1
host-signal t 1
wait
";
    let cases: [(&str, &str, &str, &str); 2] = [
        (
            "a release whose first scope misses the upload",
            RELEASE,
            "barrier COPY:TRANSFER_WRITE -> ALL_COMMANDS:NONE im COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_DST_OPTIMAL",
            "barrier COPY:TRANSFER_WRITE -> ALL_COMMANDS:NONE im COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_DST_OPTIMAL",
        ),
        (
            "a host write before the transition of a linear image",
            HOST,
            "submit the later command's batch after the host write, or have it wait (`wait SEM@ALL_COMMANDS`) for a host-signal made after it and record `barrier HOST:HOST_WRITE -> ALL_COMMANDS:NONE` before the command",
            "barrier HOST:HOST_WRITE -> ALL_COMMANDS:NONE",
        ),
    ];
    let hazards = |text: &str| {
        let t = trace::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let checked = vksync::check_program(&t.program, vksync::Semantics::default())
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        checked
            .hazards
            .iter()
            .map(|h| h.fix_text_at(&t.program, &t.command_lines))
            .collect::<Vec<_>>()
    };
    for (name, with_slot, fix, recorded) in cases {
        let texts = hazards(&with_slot.replace("@\n", ""));
        assert_eq!(
            texts.first().map(String::as_str),
            Some(fix),
            "case `{name}`: {texts:?}"
        );
        let fixed = with_slot.replace("@\n", &format!("{recorded}\n"));
        assert_eq!(
            hazards(&fixed),
            Vec::<String>::new(),
            "case `{name}`, fixed:\n{fixed}"
        );
    }
}
