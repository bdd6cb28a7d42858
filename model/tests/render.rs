//! Dynamic rendering and draws: one table of hazard cases and one of
//! errors, each case with the spec sentence (paraphrased where long) it
//! checks. Every hazard case is decided by the fast checker and by the
//! definitional semantics (`vksync::spec`), which must find the same
//! (command, kind, byte), and prints and parses back to itself. The
//! expectation lists `L<line> <KIND> <region> after L<line>`.

use std::collections::BTreeSet;
use vksync::spec::{races, Reading};
use vksync::{check, trace};

/// Declarations every case starts with (lines 1-6): a storage buffer
/// `sb`, a buffer `vb` aliasing its memory (a vertex buffer over the
/// storage buffer's bytes), an index buffer `ib`, an indirect buffer
/// `ind`, a 4x4 color image and a 4x4 depth image.
const HEAD: &str = "buffer sb 256
buffer vb 256 alias sb 0
buffer ib 64
buffer ind 64
image col R8G8B8A8_UNORM 4x4
image dep D32_SFLOAT 4x4
";

/// Lines 7-8: both images into attachment layouts (the barriers' second
/// scopes are the load operations' stages and accesses).
const TO_ATT: &str = "barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL
barrier NONE:NONE -> EARLY_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE dep DEPTH:0:0 UNDEFINED->DEPTH_ATTACHMENT_OPTIMAL
";

/// Line 9: an instance with both attachments cleared and stored.
const BEGIN: &str = "begin-rendering color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE ; depth dep DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL CLEAR STORE\n";

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
    // The difference, one line per (command, kind, memory) with a count
    // of bytes, so a failure reads.
    let only = |a: &BTreeSet<_>, b: &BTreeSet<_>| {
        let mut out: std::collections::BTreeMap<(usize, vksync::HazardKind, vksync::MemId), usize> =
            std::collections::BTreeMap::new();
        for &(c, k, m, _) in a.difference(b) {
            *out.entry((c, k, m)).or_default() += 1;
        }
        out
    };
    assert!(
        fast == spec,
        "case `{name}`: the checker and the definitional semantics differ: checker only {:?}, semantics only {:?}",
        only(&fast, &spec),
        only(&spec, &fast)
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

/// The error a case ends with (parse or resolve), `line: message`.
fn error(body: &str) -> String {
    match parse(body) {
        Ok(t) => match vksync::resolve(&t.program) {
            Ok(_) => String::new(),
            Err(e) => format!("{}: {}", t.line_of(e.at).unwrap_or(0), e.kind),
        },
        Err(e) => e,
    }
}

/// The spec sentence of the cases with two rendering instances and no
/// barrier between them: the implicit dependencies hold within one.
const INSTANCE_ONLY: &str = "Render Pass Load/Store Operations: the load operation for each sample \
    \"happens-before any recorded command which accesses the sample in that subpass\", the store \
    operation happens-after them; Rasterization Order is within a subpass: nothing orders the accesses \
    of one render pass instance before those of the next";

/// A barrier between two instances on `col` (and `res`): the attachment
/// accesses of the first before those of the second.
const BETWEEN: &str = "barrier COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> \
    COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\n";

/// Lines 7-13 (14 with `between`): `col` into its attachment layout, then
/// two instances on it with the load and store ops given, each with one
/// draw writing it.
fn two_instances(first: &str, second: &str, between: &str) -> String {
    format!(
        "barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE col COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
         begin-rendering color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL {first}\ndraw vertexCount=3\nend-rendering\n\
         {between}begin-rendering color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL {second}\ndraw vertexCount=3\nend-rendering\n"
    )
}

/// Lines 7-15 (16 with `between`): two instances, each with its own
/// attachment (`col`, `ms`), resolving into one target `res`.
fn two_resolves(between: &str) -> String {
    format!(
        "image res R8G8B8A8_UNORM 4x4\nimage ms R8G8B8A8_UNORM 4x4\n\
         barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col COLOR:0:0 UNDEFINED->GENERAL\n\
         barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE ms COLOR:0:0 UNDEFINED->GENERAL\n\
         barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE res COLOR:0:0 UNDEFINED->GENERAL\n\
         begin-rendering color col COLOR:0:0 GENERAL CLEAR DONT_CARE resolve res COLOR:0:0 GENERAL\nend-rendering\n\
         {between}begin-rendering color ms COLOR:0:0 GENERAL CLEAR DONT_CARE resolve res COLOR:0:0 GENERAL\nend-rendering\n"
    )
}

/// `VkAttachmentStoreOp`'s `NONE`.
const STORE_NONE_WRITTEN: &str = "VK_ATTACHMENT_STORE_OP_NONE: the contents \"are not accessed by the store \
     operation as long as no values are written to the attachment during the render pass. If values are \
     written during the render pass, this behaves identically to VK_ATTACHMENT_STORE_OP_DONT_CARE and with \
     matching access semantics\" (a draw's write, a load operation that writes, a clear, a resolve)";

/// Lines 7-13: an image `lone` drawn in one instance with load and store
/// operations `ops` and draw flags `draw`, then an `ALL_COMMANDS:NONE ->
/// COPY:TRANSFER_READ` barrier and a copy of it (line 13).
fn lone_then_copy(ops: &str, draw: &str) -> String {
    format!(
        "image lone R8G8B8A8_UNORM 4x4 initial GENERAL\nbuffer out 256\n\
         begin-rendering color lone COLOR:0:0 GENERAL {ops}\ndraw vertexCount=3 {draw}\nend-rendering\n\
         barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\n\
         copy-image-to-buffer lone GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1\n"
    )
}

/// Lines 7-13: `col` into `GENERAL` and written by a copy, `set-event ev`
/// from the copy's write to `COLOR_ATTACHMENT_OUTPUT`, an instance with
/// load operation `load` (and `STORE`) whose `wait-events ev` comes right
/// after its begin, then a draw that writes no color.
fn wait_inside_after_copy(load: &str) -> String {
    format!(
        "event ev\nbarrier NONE:NONE -> COPY:TRANSFER_WRITE col COLOR:0:0 UNDEFINED->GENERAL\n\
         copy-buffer-to-image ib -> col GENERAL imageSubresource=COLOR:0:0 imageExtent=4,4,1\n\
         set-event ev COPY:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE\n\
         begin-rendering color col COLOR:0:0 GENERAL {load} STORE\n\
         wait-events ev COPY:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE\n\
         draw vertexCount=1 no-color-write\nend-rendering\n"
    )
}

/// (name, the spec sentence, body after the head, expected hazards).
type Case = (&'static str, &'static str, String, &'static [&'static str]);

fn cases() -> Vec<Case> {
    let with = |body: &str| format!("{TO_ATT}{BEGIN}{body}");
    vec![
        (
            "a layer count past 32 renders every one of its layers",
            "layerCount is the number of layers rendered to in each attachment: the store of layer 39 of a \
             40-layer view races a fill of its bytes (review28: a 32-bit mask dropped layers 32 and up)",
            "buffer m 160\nimage arr R8G8B8A8_UNORM 1x1 layers 40 alias m 0\n\
             barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE arr COLOR:0:0..40 UNDEFINED->GENERAL\n\
             begin-rendering layerCount=40 color arr COLOR:0:0..40 GENERAL CLEAR STORE\nend-rendering\nfill m[156..160] 0\n"
                .to_string(),
            &["L12 WRITE_AFTER_WRITE m[156..160] after L11"],
        ),
        (
            "two instances on disjoint render areas of one image",
            "renderArea is the render area that is affected by the render pass instance: load and store \
             operations and draws of each touch only its own columns of `col`, so the second needs no barrier \
             after the first",
            format!(
                "{TO_ATT}begin-rendering renderArea=0,0,2,4 color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\n\
                 draw vertexCount=3\nend-rendering\n\
                 begin-rendering renderArea=2,0,2,4 color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\n\
                 draw vertexCount=3\nend-rendering\n"
            ),
            &[],
        ),
        (
            "two instances on overlapping render areas",
            "the same with the first area three columns wide: column 2 is the second's load's, draw's and store's \
             and the first's store's",
            format!(
                "{TO_ATT}begin-rendering renderArea=0,0,3,4 color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\n\
                 draw vertexCount=3\nend-rendering\n\
                 begin-rendering renderArea=2,1,2,3 color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\n\
                 draw vertexCount=3\nend-rendering\n"
            ),
            &[
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 24..28] after L11",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 40..44] after L11",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 56..60] after L11",
                "L13 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 24..28] after L11",
                "L13 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 40..44] after L11",
                "L13 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 56..60] after L11",
                "L14 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 24..28] after L11",
                "L14 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 40..44] after L11",
                "L14 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 56..60] after L11",
            ],
        ),
        (
            "multiview instances on different layers of one image",
            "viewMask is the view mask indicating the indices of attachment layers that will be rendered: an \
             instance with viewMask 1 and one with viewMask 2 touch different layers of `arr`",
            "image arr R8G8B8A8_UNORM 4x4 layers 2\n\
             barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE arr COLOR:0:0..2 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
             begin-rendering viewMask=1 color arr COLOR:0:0..2 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\n\
             draw vertexCount=3\nend-rendering\n\
             begin-rendering viewMask=2 color arr COLOR:0:0..2 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\n\
             draw vertexCount=3\nend-rendering\n"
                .to_string(),
            &[],
        ),
        (
            "multiview instances sharing a view",
            "the same with viewMask 3 (both layers) first: layer 1 is both instances'",
            "image arr R8G8B8A8_UNORM 4x4 layers 2\n\
             barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE arr COLOR:0:0..2 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
             begin-rendering viewMask=3 color arr COLOR:0:0..2 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\n\
             draw vertexCount=3\nend-rendering\n\
             begin-rendering viewMask=2 color arr COLOR:0:0..2 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\n\
             draw vertexCount=3\nend-rendering\n"
                .to_string(),
            &[
                "L12 WRITE_AFTER_WRITE arr[COLOR:0:1] after L11",
                "L13 WRITE_AFTER_WRITE arr[COLOR:0:1] after L11",
                "L14 WRITE_AFTER_WRITE arr[COLOR:0:1] after L11",
            ],
        ),
        (
            "an instance suspended and resumed is one instance",
            "vkCmdEndRendering: if the flags used to begin the instance included VK_RENDERING_SUSPENDING_BIT, \
             \"this render pass is suspended and will be resumed later\"; vkCmdBeginRendering with \
             VK_RENDERING_RESUMING_BIT: \"this render pass is resumed\": no store at the suspension, no load at the \
             resumption, the draws of both pieces in rasterization order",
            format!(
                "{TO_ATT}{}draw vertexCount=3 depth-test depth-write blend\nend-rendering\n{}\
                 draw vertexCount=3 depth-test depth-write blend\nend-rendering\n",
                BEGIN.replace("begin-rendering ", "begin-rendering suspending "),
                BEGIN.replace("begin-rendering ", "begin-rendering resuming ")
            ),
            &[],
        ),
        (
            "the same two pieces without the flags are two instances",
            "Load Operations: the implicit dependencies hold within one render pass instance: the second \
             instance's clears, draws and stores race the first's draws and stores",
            format!(
                "{TO_ATT}{BEGIN}draw vertexCount=3 depth-test depth-write blend\nend-rendering\n{BEGIN}\
                 draw vertexCount=3 depth-test depth-write blend\nend-rendering\n"
            ),
            &[
                "L12 WRITE_AFTER_READ col[COLOR:0:0] after L10",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L11",
                "L12 WRITE_AFTER_READ dep[DEPTH:0:0] after L10",
                "L12 WRITE_AFTER_WRITE dep[DEPTH:0:0] after L11",
                "L13 READ_AFTER_WRITE col[COLOR:0:0] after L11",
                "L13 WRITE_AFTER_READ col[COLOR:0:0] after L10",
                "L13 WRITE_AFTER_WRITE col[COLOR:0:0] after L11",
                "L13 READ_AFTER_WRITE dep[DEPTH:0:0] after L11",
                "L13 WRITE_AFTER_READ dep[DEPTH:0:0] after L10",
                "L13 WRITE_AFTER_WRITE dep[DEPTH:0:0] after L11",
                "L14 WRITE_AFTER_READ col[COLOR:0:0] after L10",
                "L14 WRITE_AFTER_WRITE col[COLOR:0:0] after L11",
                "L14 WRITE_AFTER_READ dep[DEPTH:0:0] after L10",
                "L14 WRITE_AFTER_WRITE dep[DEPTH:0:0] after L11",
            ],
        ),
        (
            "a suspended instance stores at its last end: a fill after it races the draw",
            "the store operation happens-after every recorded command of the instance, at its end for good; \
             a fragment shader write of the first piece still races a fill after the resumed end",
            format!(
                "{TO_ATT}{}draw vertexCount=3 fs write sb[0..64]\nend-rendering\n{}end-rendering\nfill sb[0..64] 1\n",
                BEGIN.replace("begin-rendering ", "begin-rendering suspending "),
                BEGIN.replace("begin-rendering ", "begin-rendering resuming ")
            ),
            &["L14 WRITE_AFTER_WRITE sb[0..64] after L10"],
        ),
        (
            "two draws writing one color and one depth attachment",
            "Rasterization Order: within a subpass, for a given sample, depth/stencil tests, blending and color \
             writes of successive primitives execute in rasterization order: no hazard between draws",
            with("draw vertexCount=3 depth-test depth-write blend\ndraw vertexCount=3 depth-test depth-write blend\nend-rendering\n"),
            &[],
        ),
        (
            "load op clear before the first draw, store op after the last",
            "Load Operations: the load operation for each sample happens-before any recorded command which \
             accesses the sample; the store operation happens-after them",
            with("draw vertexCount=3 depth-test depth-write\nend-rendering\n"),
            &[],
        ),
        (
            "the load op's write needs the transition's barrier to reach its stage",
            "Load Operations: color load operations execute in COLOR_ATTACHMENT_OUTPUT; CLEAR uses \
             COLOR_ATTACHMENT_WRITE: a barrier whose second scope is a transfer stage does not order it, nor \
             the store operation",
            "barrier NONE:NONE -> COPY:TRANSFER_WRITE col COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
             begin-rendering color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n"
                .to_string(),
            &["L8 WRITE_AFTER_WRITE col[COLOR:0:0] after L7", "L9 WRITE_AFTER_WRITE col[COLOR:0:0] after L7"],
        ),
        (
            "load op NONE and store op NONE make no access",
            "VK_ATTACHMENT_LOAD_OP_NONE / VK_ATTACHMENT_STORE_OP_NONE: the contents are not accessed",
            "barrier NONE:NONE -> FRAGMENT_SHADER:SHADER_READ col COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
             begin-rendering color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL NONE NONE\nend-rendering\n"
                .to_string(),
            &[],
        ),
        (
            "a depth LOAD reads in EARLY_FRAGMENT_TESTS",
            "Load Operations: depth/stencil load operations execute in EARLY_FRAGMENT_TESTS; LOAD uses \
             DEPTH_STENCIL_ATTACHMENT_READ",
            "barrier NONE:NONE -> EARLY_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE dep DEPTH:0:0 UNDEFINED->DEPTH_ATTACHMENT_OPTIMAL\n\
             begin-rendering depth dep DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL LOAD STORE\nend-rendering\n"
                .to_string(),
            &["L8 READ_AFTER_WRITE dep[DEPTH:0:0] after L7"],
        ),
        (
            "a depth store op writes in LATE_FRAGMENT_TESTS, which a later copy must wait for",
            "Store Operations: depth/stencil store operations execute in LATE_FRAGMENT_TESTS with \
             DEPTH_STENCIL_ATTACHMENT_WRITE",
            with("end-rendering\nbarrier EARLY_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE -> COPY:TRANSFER_READ dep DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL->TRANSFER_SRC_OPTIMAL\n\
                  copy-image-to-buffer dep TRANSFER_SRC_OPTIMAL -> sb imageSubresource=DEPTH:0:0 imageExtent=4,4,1\n"),
            &[
                "L11 WRITE_AFTER_WRITE dep[DEPTH:0:0] after L10",
                "L12 READ_AFTER_WRITE dep[DEPTH:0:0] after L10",
            ],
        ),
        (
            "a vertex buffer aliasing a storage buffer a dispatch wrote",
            "Access Types: VERTEX_ATTRIBUTE_READ in VERTEX_ATTRIBUTE_INPUT: the dispatch's write must be made \
             visible to it",
            format!("dispatch k write sb[0..256]\n{TO_ATT}{BEGIN}draw vertexCount=4 vertex vb 0 16\nend-rendering\n"),
            &["L11 READ_AFTER_WRITE vb[0..64] after L7"],
        ),
        (
            "the same, with the barrier",
            "a barrier from the dispatch's write to VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ orders it",
            format!(
                "dispatch k write sb[0..256]\nbarrier COMPUTE_SHADER:SHADER_WRITE -> VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ\n\
                 {TO_ATT}{BEGIN}draw vertexCount=4 vertex vb 0 16\nend-rendering\n"
            ),
            &[],
        ),
        (
            "vertex and instance ranges from the counts and strides",
            "vkCmdDraw reads vertices firstVertex..firstVertex+vertexCount and instances \
             firstInstance..firstInstance+instanceCount of their bindings",
            format!(
                "dispatch k write sb[0..256]\n{TO_ATT}{BEGIN}draw vertexCount=2 firstVertex=1 instanceCount=2 firstInstance=3 vertex vb 0 16 instance vb 128 8\nend-rendering\n"
            ),
            &["L11 READ_AFTER_WRITE vb[16..48] after L7", "L11 READ_AFTER_WRITE vb[152..168] after L7"],
        ),
        (
            "the index range from the count, type and offset; indexed vertices to the buffer's end",
            "vkCmdDrawIndexed reads indexCount indices of the index type's size from offset + firstIndex * size \
             (INDEX_INPUT:INDEX_READ); which vertices depends on the indices, so all from the binding's offset",
            format!(
                "fill ib[0..64] 0\ndispatch k write sb[0..256]\n{TO_ATT}{BEGIN}draw-indexed indexCount=3 firstIndex=2 index ib 4 u16 vertex vb 192 16\nend-rendering\n"
            ),
            &["L12 READ_AFTER_WRITE ib[8..14] after L7", "L12 READ_AFTER_WRITE vb[192..256] after L8"],
        ),
        (
            "indirect records and the count buffer",
            "vkCmdDrawIndirectCount reads the count (4 bytes) and, the count unknown, maxDrawCount records of \
             16 bytes stride apart (DRAW_INDIRECT:INDIRECT_COMMAND_READ): each record's bytes, not the gaps",
            format!(
                "fill ind[0..64] 0\n{TO_ATT}{BEGIN}draw-indirect-count ind ind offset=16 countOffset=0 maxDrawCount=2 stride=20\nend-rendering\n"
            ),
            &[
                "L11 READ_AFTER_WRITE ind[0..4] after L7",
                "L11 READ_AFTER_WRITE ind[16..32] after L7",
                "L11 READ_AFTER_WRITE ind[36..52] after L7",
            ],
        ),
        (
            "a write between indirect records is not read",
            "\"parameters taken from buffer starting at offset and increasing by stride bytes for each \
             successive draw\" (vkCmdDrawIndirect): the bytes between two records are not read",
            format!(
                "fill ind[16..32] 0\n{TO_ATT}{BEGIN}draw-indirect ind drawCount=2 stride=32\nend-rendering\n"
            ),
            &[],
        ),
        (
            "fragment shader storage writes of two draws race",
            "Rasterization order covers attachment operations only: shader storage writes of two draws are \
             not ordered",
            with("draw vertexCount=3 fs write sb[0..64]\ndraw vertexCount=3 fs write sb[0..64]\nend-rendering\n"),
            &["L11 WRITE_AFTER_WRITE sb[0..64] after L10"],
        ),
        (
            "a vertex shader read after a fragment shader write",
            "the same: a read in VERTEX_SHADER of what a fragment shader wrote in an earlier draw",
            with("draw vertexCount=3 fs write sb[0..64]\ndraw vertexCount=3 vs read sb[0..64]\nend-rendering\n"),
            &["L11 READ_AFTER_WRITE sb[0..64] after L10"],
        ),
        (
            "an earlier vertex read of an attachment's bytes is not ordered by the implicit dependencies",
            "the load operation happens-before the instance's accesses of the sample, draws are in \
             rasterization order: attachment stages only. A vertex buffer read (another instance) over the \
             bytes of an image later used as an attachment still races the draw's color write and the store",
            "image ali R8G8B8A8_UNORM 4x4 alias sb 0\n\
             barrier NONE:NONE -> VERTEX_ATTRIBUTE_INPUT|COLOR_ATTACHMENT_OUTPUT:VERTEX_ATTRIBUTE_READ|COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE ali COLOR:0:0 UNDEFINED->GENERAL\n\
             barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
             begin-rendering color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\n\
             draw vertexCount=4 vertex vb 0 16\nend-rendering\n\
             begin-rendering color ali COLOR:0:0 GENERAL LOAD STORE\ndraw vertexCount=3\nend-rendering\n"
                .to_string(),
            &[
                "L14 WRITE_AFTER_READ ali[COLOR:0:0] after L11",
                "L15 WRITE_AFTER_READ ali[COLOR:0:0] after L11",
            ],
        ),
        (
            "a second instance on one attachment without a barrier races at its load operation and after",
            "the store operation happens-after the commands of its own instance only: the next instance's \
             LOAD reads what it wrote unordered, and its draw and store write after it unordered",
            with("draw vertexCount=3 depth-test depth-write\nend-rendering\n\
                  begin-rendering color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL LOAD STORE\ndraw vertexCount=3\nend-rendering\n"),
            &[
                "L12 READ_AFTER_WRITE col[COLOR:0:0] after L11",
                "L13 WRITE_AFTER_WRITE col[COLOR:0:0] after L11",
                "L14 WRITE_AFTER_WRITE col[COLOR:0:0] after L11",
            ],
        ),
        (
            "two instances clearing one image, no barrier: CLEAR/STORE then CLEAR/STORE",
            INSTANCE_ONLY,
            two_instances("CLEAR STORE", "CLEAR STORE", ""),
            &[
                "L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
                "L13 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
            ],
        ),
        (
            "two instances drawing one image, no barrier: LOAD/STORE then LOAD/STORE",
            INSTANCE_ONLY,
            two_instances("LOAD STORE", "LOAD STORE", ""),
            &[
                "L11 READ_AFTER_WRITE col[COLOR:0:0] after L10",
                "L12 WRITE_AFTER_READ col[COLOR:0:0] after L8",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
                "L13 WRITE_AFTER_READ col[COLOR:0:0] after L8",
                "L13 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
            ],
        ),
        (
            "two instances drawing one image, no barrier: NONE/NONE then NONE/NONE",
            STORE_NONE_WRITTEN,
            two_instances("NONE NONE", "NONE NONE", ""),
            &[
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
                "L13 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
            ],
        ),
        (
            "two instances drawing one image, no barrier: CLEAR/NONE then NONE/STORE",
            STORE_NONE_WRITTEN,
            two_instances("CLEAR NONE", "NONE STORE", ""),
            &[
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
                "L13 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
            ],
        ),
        (
            "a NONE store after a draw wrote is a write, as DONT_CARE's (review15's missed race)",
            STORE_NONE_WRITTEN,
            lone_then_copy("LOAD NONE", ""),
            &["L13 READ_AFTER_WRITE lone[COLOR:0:0] after L11"],
        ),
        (
            "a NONE store after a load operation that writes is a write too",
            STORE_NONE_WRITTEN,
            lone_then_copy("CLEAR NONE", "no-color-write"),
            &["L13 READ_AFTER_WRITE lone[COLOR:0:0] after L11"],
        ),
        (
            "LOAD_OP_NONE: the barrier before the instance must hold the first draw's accesses (review19)",
            "Load Operations: \"external synchronization with attachment access only needs to synchronize the \
             load operations with previous commands; not the operations within the render pass instance. This \
             does not apply when using VK_ATTACHMENT_LOAD_OP_NONE\": with no load operation nothing of the \
             instance precedes the draw, so no implicit dependency carries the barrier on, and the blend's \
             COLOR_ATTACHMENT_READ is in no second access scope",
            none_load_after_copy("NONE", "COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE"),
            &["L11 READ_AFTER_WRITE col[COLOR:0:0] after L8"],
        ),
        (
            "LOAD_OP_NONE: a barrier whose second access scope holds the blend's read and write: clean",
            "Load Operations, as above: the barrier synchronizes the draw itself",
            none_load_after_copy("NONE", "COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE"),
            &[],
        ),
        (
            "LOAD: the barrier synchronizes the load operation, which passes it on to the blend: clean",
            "Load Operations: \"external synchronization with attachment access only needs to synchronize the \
             load operations with previous commands\"; the load operation happens-before the draw",
            none_load_after_copy("LOAD", "COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ"),
            &[],
        ),
        (
            "a stencil clear of a depth-only view has no effect (review19)",
            "vkCmdClearAttachments: \"If any attachment's aspectMask to be cleared is not backed by an image view, \
             the clear has no effect on that aspect\" (VUID-vkCmdClearAttachments-aspectMask-07885 holds only \
             without dynamic rendering); the depth clear after it writes in both fragment test stages, in \
             rasterization order with the store",
            with("clear-attachments stencil\nclear-attachments depth\nend-rendering\n"),
            &[],
        ),
        (
            "draws of no vertices or no instances access nothing (review19)",
            "Drawing Commands: a draw of vertexCount (or instanceCount) 0 assembles no primitive, so no shader \
             runs and no fragment operation writes; a NONE store after nothing written makes no access",
            format!("{EMPTY_DRAWS}draw vertexCount=0 fs write sb[0..64]\ndraw vertexCount=3 instanceCount=0 vertex vb 0 16\nend-rendering\n"),
            &[],
        ),
        (
            "...a draw of three vertices writes the attachment the copy wrote, and so does the NONE store after it",
            "Rasterization: the draw writes color; VkAttachmentStoreOp NONE writes when values were written",
            format!("{EMPTY_DRAWS}draw vertexCount=3\nend-rendering\n"),
            &[
                "L10 WRITE_AFTER_WRITE col[COLOR:0:0] after L8",
                "L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L8",
            ],
        ),
        (
            "a NONE store of an attachment nothing wrote makes no access: clean",
            STORE_NONE_WRITTEN,
            lone_then_copy("LOAD NONE", "no-color-write"),
            &[],
        ),
        (
            "two instances, the barrier between them: clean",
            "a barrier from COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE to \
             COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE orders the first instance's \
             accesses before the second's",
            two_instances("LOAD STORE", "LOAD STORE", BETWEEN),
            &[],
        ),
        (
            "two instances, NONE load and store ops, the barrier between them: clean",
            "the same barrier orders the first instance's draw before the second's",
            two_instances("NONE NONE", "NONE NONE", BETWEEN),
            &[],
        ),
        (
            "an execution-only barrier between two instances continues their implicit dependencies",
            "Execution dependency chains: a barrier whose first scope meets the first instance's implicit \
             dependencies' second scope, and whose second scope meets the next instance's first, chains them \
             (the model reads the implicit guarantees as memory dependencies: the first draw's write is made \
             available by the first instance's, visible by the second's); the first instance's NONE store \
             after its draw wrote is a write no dependency makes available (VkAttachmentStoreOp), so only it \
             races",
            two_instances(
                "CLEAR NONE",
                "NONE STORE",
                "barrier COLOR_ATTACHMENT_OUTPUT:NONE -> VERTEX_ATTRIBUTE_INPUT:NONE\n",
            ),
            &[
                "L13 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
                "L14 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
            ],
        ),
        (
            "an event wait inside an instance orders a dispatch before a draw",
            "vkCmdWaitEvents2 may be recorded inside a render pass instance (renderpass=\"both\"); its second \
             scope is the commands later in submission order, so the draw after it reads the vertices the \
             dispatch before the set wrote",
            format!(
                "event ev\ndispatch k write vb[0..64]\n\
                 set-event ev COMPUTE_SHADER:SHADER_STORAGE_WRITE -> VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ\n\
                 {TO_ATT}{BEGIN}draw vertexCount=1 vertex vb 0 16\n\
                 wait-events ev COMPUTE_SHADER:SHADER_STORAGE_WRITE -> VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ\n\
                 draw vertexCount=3 vertex vb 0 16\nend-rendering\n"
            ),
            // The draw before the wait is not in its second scope.
            &["L13 READ_AFTER_WRITE vb[0..16] after L8"],
        ),
        (
            "an event wait inside an instance orders the store at its end",
            "the instance's store operation is later in submission order than the wait: a copy of `col` \
             before the set is ordered before it (COPY to COLOR_ATTACHMENT_OUTPUT), while the load at the \
             begin, earlier than the wait, is not",
            wait_inside_after_copy("NONE"),
            &[],
        ),
        (
            "the same with a load that writes: the load races the copy",
            "a CLEAR load operation writes at the begin, before the wait in submission order",
            wait_inside_after_copy("CLEAR"),
            &["L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L9"],
        ),
        (
            "an event wait in the second subpass of a render pass",
            "the same rule inside a render pass object's subpass: no self-dependency is needed (that is a \
             pipeline barrier's rule, VUID-vkCmdPipelineBarrier2-None-07889)",
            "event ev\nrender-pass rp attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->COLOR_ATTACHMENT_OPTIMAL ; \
             subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; \
             dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE\n\
             dispatch k write vb[0..64]\n\
             set-event ev COMPUTE_SHADER:SHADER_STORAGE_WRITE -> VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ\n\
             begin-render-pass rp col COLOR:0:0\nnext-subpass\n\
             wait-events ev COMPUTE_SHADER:SHADER_STORAGE_WRITE -> VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ\n\
             draw vertexCount=3 vertex vb 0 16\nend-render-pass\n"
                .to_string(),
            &[],
        ),
        (
            "a resolve target written by two instances, no barrier",
            INSTANCE_ONLY,
            two_resolves(""),
            &["L15 WRITE_AFTER_WRITE res[COLOR:0:0] after L13"],
        ),
        (
            "a resolve target written by two instances, the barrier between them: clean",
            "a barrier from COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE to the same orders the first \
             instance's resolve before the second's",
            two_resolves(BETWEEN),
            &[],
        ),
        (
            "a resolve reads the attachment and writes the target in COLOR_ATTACHMENT_OUTPUT",
            "Multisample resolve operations execute in COLOR_ATTACHMENT_OUTPUT: COLOR_ATTACHMENT_READ of the \
             attachment, COLOR_ATTACHMENT_WRITE of the resolve target",
            "image res R8G8B8A8_UNORM 4x4\n\
             barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
             barrier NONE:NONE -> COPY:TRANSFER_WRITE res COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
             begin-rendering color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR DONT_CARE resolve res COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL\n\
             draw vertexCount=3\nend-rendering\n"
                .to_string(),
            &["L12 WRITE_AFTER_WRITE res[COLOR:0:0] after L9"],
        ),
    ]
}

#[test]
fn rendering_hazards() {
    let mut failures = Vec::new();
    for (name, rule, body, want) in cases() {
        let got = hazards(name, &body);
        if got != want {
            failures.push(format!("{name} ({rule}):\n  got  {got:?}\n  want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Lines 7-9: `col` into `GENERAL` and written by a copy, then an instance
/// with `NONE` load and store operations and no barrier.
const EMPTY_DRAWS: &str = "barrier NONE:NONE -> COPY:TRANSFER_WRITE col COLOR:0:0 UNDEFINED->GENERAL
copy-buffer-to-image ib -> col GENERAL imageSubresource=COLOR:0:0 imageExtent=4,4,1
begin-rendering color col COLOR:0:0 GENERAL NONE NONE
";

/// Lines 7-12: `col` into `GENERAL` and written by a copy, a barrier from
/// the copy's write to `dst`, an instance with load operation `load` (and
/// `STORE`), one draw that blends.
fn none_load_after_copy(load: &str, dst: &str) -> String {
    format!(
        "barrier NONE:NONE -> COPY:TRANSFER_WRITE col COLOR:0:0 UNDEFINED->GENERAL
copy-buffer-to-image sb -> col GENERAL imageSubresource=COLOR:0:0 imageExtent=4,4,1
barrier COPY:TRANSFER_WRITE -> {dst}
begin-rendering color col COLOR:0:0 GENERAL {load} STORE
draw vertexCount=3 blend
end-rendering
"
    )
}

/// Lines 7-11: `ali` (an image over `sb[0..64]`) into `GENERAL`, an
/// instance rendering to it with `ops`, one draw with `draw_args`.
fn feedback(ops: &str, draw_args: &str) -> String {
    format!(
        "image ali R8G8B8A8_UNORM 4x4 alias sb 0\n\
         barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE ali COLOR:0:0 UNDEFINED->GENERAL\n\
         begin-rendering color ali COLOR:0:0 GENERAL {ops}\ndraw vertexCount=3 {draw_args}\nend-rendering\n"
    )
}

#[test]
fn rendering_errors() {
    let end_at = |body: &str| format!("{TO_ATT}{BEGIN}{body}");
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "a write to an attachment's memory outside the render area",
            "buffer cm 64\nimage c2 R8G8B8A8_UNORM 4x4 alias cm 0\n\
             barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE c2 COLOR:0:0 UNDEFINED->GENERAL\n\
             begin-rendering renderArea=0,0,1,1 color c2 COLOR:0:0 GENERAL LOAD STORE\n\
             draw vertexCount=3 no-color-write fs write cm[60..64]\nend-rendering\n"
                .into(),
            "11: vkCmdDraw: binding 0 writes cm[60..64], memory of attachment c2[COLOR:0:0] of this instance; without a feedback loop (VK_EXT_attachment_feedback_loop_layout, not modelled) that is invalid (VUID-vkCmdDraw-None-06537)",
        ),
        (
            "a view mask past a resolve view's layers",
            "buffer cm 128\nbuffer rm 64\nimage c2 R8G8B8A8_UNORM 4x4 layers 2 alias cm 0\nimage r2 R8G8B8A8_UNORM 4x4 alias rm 0\n\
             barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE c2 COLOR:0:0..2 UNDEFINED->GENERAL\n\
             barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE r2 COLOR:0:0 UNDEFINED->GENERAL\n\
             begin-rendering viewMask=2 color c2 COLOR:0:0..2 GENERAL CLEAR STORE resolve r2 COLOR:0:0 GENERAL\nend-rendering\n"
                .into(),
            "13:1: vkCmdBeginRendering: viewMask 0b10 renders layer 1 of each view, and pColorAttachments[0]'s resolve target `r2` has 1 layer(s) (the layers rendered must be in every attachment view)",
        ),
        (
            "renderArea given twice",
            format!("{TO_ATT}begin-rendering renderArea=0,0,1,1 suspending renderArea=0,0,2,2 color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n"),
            "9:47: `renderArea` given twice",
        ),
        (
            "a render area past a view",
            format!("{TO_ATT}begin-rendering renderArea=1,0,4,4 color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n"),
            "9:1: vkCmdBeginRendering: renderArea 1,0,4,4 ends at 5, past the width 4 of pColorAttachments[0] `col` (VUID-VkRenderingInfo-pNext-06079)",
        ),
        (
            "a render area of no rows",
            format!("{TO_ATT}begin-rendering renderArea=0,0,4,0 color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n"),
            "9:1: vkCmdBeginRendering: renderArea 0,0,4,0: its extent must not be 0 (VUID-VkRenderingInfo-None-08994, -08995)",
        ),
        (
            "a view mask past the view's layers",
            format!("{TO_ATT}begin-rendering viewMask=2 color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n"),
            "9:1: vkCmdBeginRendering: viewMask 0b10 renders layer 1 of each view, and pColorAttachments[0] `col` has 1 layer(s) (the layers rendered must be in every attachment view)",
        ),
        (
            "a layer count of zero",
            format!("{TO_ATT}begin-rendering layerCount=0 color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n"),
            "9:1: vkCmdBeginRendering: layerCount 0 with viewMask 0 (VUID-VkRenderingInfo-viewMask-06069)",
        ),
        (
            "a resuming begin with nothing suspended",
            format!("{TO_ATT}{}end-rendering\n", BEGIN.replace("begin-rendering ", "begin-rendering resuming ")),
            "9: vkCmdBeginRendering resumes a rendering instance (`resuming`), but the command before it is no end-rendering of an instance begun `suspending` (VUID-VkSubmitInfo2-commandBuffer-06192)",
        ),
        (
            "a command between the suspension and the resumption",
            format!("{TO_ATT}{}end-rendering\nfill sb[0..4] 1\n{}end-rendering\n", BEGIN.replace("begin-rendering ", "begin-rendering suspending "), BEGIN.replace("begin-rendering ", "begin-rendering resuming ")),
            "11: vkCmdFillBuffer comes between the suspending end of the instance begun at command 2 and the begin-rendering that resumes it (VUID-VkSubmitInfo2-commandBuffer-06011)",
        ),
        (
            "a submit between the suspension and the resumption",
            format!("{TO_ATT}{}end-rendering\nsubmit\n{}end-rendering\n", BEGIN.replace("begin-rendering ", "begin-rendering suspending "), BEGIN.replace("begin-rendering ", "begin-rendering resuming ")),
            "11: the command buffer is submitted while the instance begun at command 2 is suspended: it must be resumed in the same submission (VUID-VkSubmitInfo2-commandBuffer-06010)",
        ),
        (
            "another instance between the suspension and the resumption",
            format!("{TO_ATT}{}end-rendering\n{BEGIN}end-rendering\n", BEGIN.replace("begin-rendering ", "begin-rendering suspending ")),
            "11: vkCmdBeginRendering begins another render pass instance while the one begun at command 2 is suspended (VUID-VkSubmitInfo2-commandBuffer-06012)",
        ),
        (
            "a resumption with other attachments",
            format!("{TO_ATT}{}end-rendering\nbegin-rendering resuming color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n", BEGIN.replace("begin-rendering ", "begin-rendering suspending ")),
            "11: vkCmdBeginRendering resumes the instance suspended after command 2 with other attachments, layouts or operations: the contents of pRenderingInfo must match but for the flags (VkRenderingFlagBits)",
        ),
        (
            "the trace ends with an instance suspended",
            format!("{TO_ATT}{}end-rendering\n", BEGIN.replace("begin-rendering ", "begin-rendering suspending ")),
            "9: this rendering instance is begun `suspending`, and the trace ends after its end-rendering: a resuming begin-rendering must follow in the same submission (VUID-VkSubmitInfo2-commandBuffer-06010)",
        ),
        (
            "a draw of no vertices is still checked (it accesses nothing, but its valid usage holds)",
            end_at("draw vertexCount=0 index ib 0 u16\n"),
            "10:1: vkCmdDraw: a non-indexed draw reads no index buffer: drop `index`",
        ),
        (
            "a draw outside an instance",
            "draw vertexCount=3\n".into(),
            "7:1: vkCmdDraw outside a rendering instance: it must be recorded between begin-rendering and end-rendering (VUID-vkCmdDraw-renderpass)",
        ),
        (
            "end-rendering without a begin",
            "end-rendering\n".into(),
            "7:1: vkCmdEndRendering outside a rendering instance: it must be recorded between begin-rendering and end-rendering (VUID-vkCmdEndRendering-renderpass)",
        ),
        (
            "a dispatch inside",
            end_at("dispatch k write sb[0..4]\nend-rendering\n"),
            "10: vkCmdDispatch inside the rendering instance begun at command 2: it must be recorded outside one (VUID-vkCmdDispatch-renderpass)",
        ),
        (
            "a copy inside",
            end_at("copy sb[0..4] -> ib[0..4]\nend-rendering\n"),
            "10: vkCmdCopyBuffer inside the rendering instance begun at command 2: it must be recorded outside one (VUID-vkCmdCopyBuffer-renderpass)",
        ),
        (
            "a barrier inside",
            end_at("barrier ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ\nend-rendering\n"),
            "10: a pipeline barrier inside the rendering instance begun at command 2 is not modelled (without VK_KHR_dynamic_rendering_local_read it is invalid: VUID-vkCmdPipelineBarrier2-None-06191)",
        ),
        (
            "an event wait inside with HOST source stages",
            format!("event ev\nhost-set-event ev\n{TO_ATT}{BEGIN}wait-events ev HOST:HOST_WRITE -> VERTEX_SHADER:SHADER_STORAGE_READ\nend-rendering\n"),
            "12: vkCmdWaitEvents2 inside the rendering instance begun at command 3: barrier 0: srcStageMask includes HOST (wait for an event the host sets outside a render pass instance) (VUID-vkCmdWaitEvents2-dependencyFlags-03844)",
        ),
        (
            "a synchronization-1 event wait inside with HOST source stages",
            format!("event ev\nhost-set-event ev\n{TO_ATT}{BEGIN}wait-events1 ev HOST:HOST_WRITE -> VERTEX_SHADER:SHADER_READ\nend-rendering\n"),
            "12: vkCmdWaitEvents inside the rendering instance begun at command 3: barrier 0: srcStageMask includes HOST (wait for an event the host sets outside a render pass instance) (VUID-vkCmdWaitEvents-srcStageMask-07308)",
        ),
        (
            "an event wait inside with a layout transition",
            format!(
                "event ev\n{TO_ATT}set-event ev COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL->GENERAL\n\
                 {BEGIN}wait-events ev COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL->GENERAL\nend-rendering\n"
            ),
            "12: vkCmdWaitEvents2 inside the rendering instance begun at command 3: barrier 0: a layout transition (oldLayout COLOR_ATTACHMENT_OPTIMAL != newLayout GENERAL) (VUID-vkCmdWaitEvents2-oldLayout-01181)",
        ),
        (
            "an event set inside",
            format!("event ev\n{TO_ATT}{BEGIN}set-event ev COPY:NONE -> COPY:NONE\nend-rendering\n"),
            "11: vkCmdSetEvent2 inside the rendering instance begun at command 2: it must be recorded outside one (VUID-vkCmdSetEvent2-renderpass)",
        ),
        (
            "a begin inside",
            end_at(&BEGIN.replace('\n', "\nend-rendering\n")),
            "10: vkCmdBeginRendering inside the rendering instance begun at command 2: it must be recorded outside one (VUID-vkCmdBeginRendering-renderpass)",
        ),
        (
            "a submit inside",
            end_at("submit\n"),
            "9: the command buffer is submitted (command 3) while this rendering instance is open: end-rendering must come first (VUID-vkEndCommandBuffer-commandBuffer-00060)",
        ),
        (
            "the trace ends inside",
            end_at(""),
            "9: the trace ends while this rendering instance is open: end-rendering must come first (VUID-vkEndCommandBuffer-commandBuffer-00060)",
        ),
        (
            "an attachment in the wrong layout",
            "begin-rendering color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n".into(),
            "7: vkCmdBeginRendering uses image `col` subresource COLOR mip 0 layer 0 in layout COLOR_ATTACHMENT_OPTIMAL, but its layout is UNDEFINED at that point (the layout of each attachment during rendering: \"Image Layouts\")",
        ),
        (
            "an attachment layout not allowed: a transfer layout",
            "begin-rendering color col COLOR:0:0 TRANSFER_DST_OPTIMAL CLEAR STORE\nend-rendering\n".into(),
            "7: vkCmdBeginRendering: a color attachment's imageLayout TRANSFER_DST_OPTIMAL is not allowed: it must be COLOR_ATTACHMENT_OPTIMAL, ATTACHMENT_OPTIMAL or GENERAL (VUID-VkRenderingAttachmentInfo-imageView-06135)",
        ),
        (
            "a present layout",
            "begin-rendering color col COLOR:0:0 PRESENT_SRC_KHR CLEAR STORE\nend-rendering\n".into(),
            "7: vkCmdBeginRendering: a color attachment's imageLayout PRESENT_SRC_KHR is not allowed: it must be COLOR_ATTACHMENT_OPTIMAL, ATTACHMENT_OPTIMAL or GENERAL (VUID-VkRenderingAttachmentInfo-imageView-06145)",
        ),
        (
            "a color attachment in a depth/stencil layout",
            "begin-rendering color col COLOR:0:0 DEPTH_STENCIL_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n".into(),
            "7: vkCmdBeginRendering: a color attachment's imageLayout DEPTH_STENCIL_ATTACHMENT_OPTIMAL is not allowed: it must be COLOR_ATTACHMENT_OPTIMAL, ATTACHMENT_OPTIMAL or GENERAL (VUID-VkRenderingInfo-colorAttachmentCount-06090)",
        ),
        (
            "a color attachment in a mixed depth/stencil layout",
            "begin-rendering color col COLOR:0:0 DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n".into(),
            "7: vkCmdBeginRendering: a color attachment's imageLayout DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL is not allowed: it must be COLOR_ATTACHMENT_OPTIMAL, ATTACHMENT_OPTIMAL or GENERAL (VUID-VkRenderingInfo-colorAttachmentCount-06096)",
        ),
        (
            "a color attachment in a depth-only layout",
            "begin-rendering color col COLOR:0:0 DEPTH_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n".into(),
            "7: vkCmdBeginRendering: a color attachment's imageLayout DEPTH_ATTACHMENT_OPTIMAL is not allowed: it must be COLOR_ATTACHMENT_OPTIMAL, ATTACHMENT_OPTIMAL or GENERAL (VUID-VkRenderingInfo-colorAttachmentCount-06100)",
        ),
        (
            "a color attachment in READ_ONLY_OPTIMAL: no VUID, not modelled",
            "begin-rendering color col COLOR:0:0 READ_ONLY_OPTIMAL CLEAR STORE\nend-rendering\n".into(),
            "7: vkCmdBeginRendering: a color attachment's imageLayout READ_ONLY_OPTIMAL is not allowed: it must be COLOR_ATTACHMENT_OPTIMAL, ATTACHMENT_OPTIMAL or GENERAL (no valid usage forbids it, but the model does not take a color attachment in a read-only layout)",
        ),
        (
            "a depth attachment in COLOR_ATTACHMENT_OPTIMAL",
            "begin-rendering depth dep DEPTH:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n".into(),
            "7: vkCmdBeginRendering: a depth/stencil attachment's imageLayout COLOR_ATTACHMENT_OPTIMAL is not allowed: it must be a depth/stencil attachment or read-only layout of its aspects, or GENERAL (VUID-VkRenderingInfo-pDepthAttachment-06092)",
        ),
        (
            "a depth attachment in a stencil-only layout",
            "begin-rendering depth dep DEPTH:0:0 STENCIL_ATTACHMENT_OPTIMAL CLEAR STORE\nend-rendering\n".into(),
            "7: vkCmdBeginRendering: a depth/stencil attachment's imageLayout STENCIL_ATTACHMENT_OPTIMAL is not allowed: it must be a depth/stencil attachment or read-only layout of its aspects, or GENERAL (VUID-VkRenderingInfo-pDepthAttachment-07732)",
        ),
        (
            "a depth attachment in UNDEFINED",
            "begin-rendering depth dep DEPTH:0:0 UNDEFINED CLEAR STORE\nend-rendering\n".into(),
            "7: vkCmdBeginRendering: a depth/stencil attachment's imageLayout UNDEFINED is not allowed: it must be a depth/stencil attachment or read-only layout of its aspects, or GENERAL (VUID-VkRenderingAttachmentInfo-imageView-06135)",
        ),
        (
            "a depth image as a color attachment",
            "begin-rendering color dep DEPTH:0:0 GENERAL CLEAR STORE\n".into(),
            "7:1: vkCmdBeginRendering: pColorAttachments[0]: image `dep` is D32_SFLOAT, not a color format, so it cannot have the COLOR_ATTACHMENT usage the attachment needs (VUID-VkRenderingInfo-colorAttachmentCount-06087)",
        ),
        (
            "a color image as the depth attachment",
            "begin-rendering depth col COLOR:0:0 GENERAL CLEAR STORE\n".into(),
            "7:1: vkCmdBeginRendering: pDepthAttachment: image `col` is R8G8B8A8_UNORM, not a depth/stencil format, so it cannot have the DEPTH_STENCIL_ATTACHMENT usage the attachment needs (VUID-VkRenderingInfo-pStencilAttachment-06089)",
        ),
        (
            "a color image as the depth attachment, naming DEPTH",
            "begin-rendering depth col DEPTH:0:0 GENERAL CLEAR STORE\n".into(),
            "7:1: vkCmdBeginRendering: pDepthAttachment: image `col` is R8G8B8A8_UNORM, not a depth/stencil format, so it cannot have the DEPTH_STENCIL_ATTACHMENT usage the attachment needs (VUID-VkRenderingInfo-pDepthAttachment-06088)",
        ),
        (
            "a stencil-only image as a depth attachment",
            "image st S8_UINT 4x4\nbegin-rendering depth st DEPTH:0:0 GENERAL CLEAR STORE\n".into(),
            "8:1: vkCmdBeginRendering: pDepthAttachment: as pDepthAttachment, image `st` needs a format with a DEPTH aspect, and S8_UINT has none (VUID-VkRenderingInfo-pDepthAttachment-06547)",
        ),
        (
            "a depth-only image as a stencil attachment",
            "begin-rendering depth dep STENCIL:0:0 GENERAL CLEAR STORE\n".into(),
            "7:1: vkCmdBeginRendering: pDepthAttachment: as pStencilAttachment, image `dep` needs a format with a STENCIL aspect, and D32_SFLOAT has none (VUID-VkRenderingInfo-pStencilAttachment-06548)",
        ),
        (
            "a resolve target of another size compatibility class (R32_SFLOAT would do: a mutable-format image's view may be R8G8B8A8_UNORM)",
            "image fl R8_UNORM 4x4\nbegin-rendering color col COLOR:0:0 GENERAL CLEAR DONT_CARE resolve fl COLOR:0:0 GENERAL\n".into(),
            "8:1: vkCmdBeginRendering: pColorAttachments[0]: resolve target `fl` is R8_UNORM and the attachment `col` is R8G8B8A8_UNORM, of another size compatibility class: no views of them have the same format (VUID-VkRenderingAttachmentInfo-imageView-06865)",
        ),
        (
            "a storage write over an attachment's memory",
            feedback("CLEAR STORE", "fs write sb[0..64]"),
            "10: vkCmdDraw: binding 0 writes sb[0..64], memory of attachment ali[COLOR:0:0] of this instance; without a feedback loop (VK_EXT_attachment_feedback_loop_layout, not modelled) that is invalid (VUID-vkCmdDraw-None-06537)",
        ),
        (
            // "Memory Aliasing": every subresource of an optimal image
            // overlaps its aliased range, so mip 1's attachment is read
            // wherever sb meets the image (mip 0's notional bytes here).
            "a storage read of an aliased optimal image's memory, the attachment a mip it does not reach notionally",
            "image am R8G8B8A8_UNORM 4x4 mips 2 alias sb 0\n\
             barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE am COLOR:1:0 UNDEFINED->GENERAL\n\
             begin-rendering color am COLOR:1:0 GENERAL LOAD STORE\ndraw vertexCount=3 fs read sb[0..16]\nend-rendering\n"
                .to_string(),
            "10: vkCmdDraw: binding 0 reads sb[0..16], memory of attachment am[COLOR:1:0] of this instance, which its store operation writes; without a feedback loop (VK_EXT_attachment_feedback_loop_layout, not modelled) that is invalid (VUID-vkCmdDraw-None-10795)",
        ),
        (
            "a storage read of an attachment its store writes",
            feedback("LOAD STORE", "fs read sb[0..16]"),
            "10: vkCmdDraw: binding 0 reads sb[0..16], memory of attachment ali[COLOR:0:0] of this instance, which its store operation writes; without a feedback loop (VK_EXT_attachment_feedback_loop_layout, not modelled) that is invalid (VUID-vkCmdDraw-None-10795)",
        ),
        (
            "a uniform read of an attachment this draw writes",
            feedback("LOAD NONE", "vs uniform sb[0..16]"),
            "10: vkCmdDraw: binding 0 reads sb[0..16], memory of attachment ali[COLOR:0:0] of this instance, which this draw writes as an attachment; without a feedback loop (VK_EXT_attachment_feedback_loop_layout, not modelled) that is invalid (VUID-vkCmdDraw-None-12338)",
        ),
        (
            "a read of a read-only attachment (LOAD, STORE_OP_NONE, no color writes)",
            feedback("LOAD NONE", "no-color-write fs read sb[0..16]"),
            "",
        ),
        (
            "a read of bytes past the attachment",
            feedback("LOAD STORE", "fs read sb[64..128]"),
            "",
        ),
        (
            "a sampled read of a depth attachment its load clears",
            "image dal D32_SFLOAT 4x4 alias sb 0\n\
             barrier NONE:NONE -> EARLY_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE dal DEPTH:0:0 UNDEFINED->DEPTH_ATTACHMENT_OPTIMAL\n\
             begin-rendering depth dal DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL CLEAR NONE\n\
             draw vertexCount=3 fs sampled sb[0..16]\nend-rendering\n"
                .into(),
            "10: vkCmdDraw: binding 0 reads sb[0..16], memory of attachment dal[DEPTH:0:0] of this instance, which its load operation writes; without a feedback loop (VK_EXT_attachment_feedback_loop_layout, not modelled) that is invalid (VUID-vkCmdDraw-None-10796)",
        ),
        (
            "an indexed draw reading an attachment written by an earlier draw",
            "image ali R8G8B8A8_UNORM 4x4 alias sb 0\n\
             barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE ali COLOR:0:0 UNDEFINED->GENERAL\n\
             begin-rendering color ali COLOR:0:0 GENERAL LOAD NONE\n\
             draw vertexCount=3\ndraw-indexed indexCount=3 index ib 0 u16 no-color-write fs read sb[0..16]\nend-rendering\n"
                .into(),
            "11: vkCmdDrawIndexed: binding 0 reads sb[0..16], memory of attachment ali[COLOR:0:0] of this instance, which an earlier draw of the instance writes; without a feedback loop (VK_EXT_attachment_feedback_loop_layout, not modelled) that is invalid (VUID-vkCmdDrawIndexed-None-10795)",
        ),
        (
            "indices past the buffer",
            end_at("draw-indexed indexCount=40 index ib 0 u16\nend-rendering\n"),
            "10:1: vkCmdDrawIndexed: the indices: bytes 0..80 of `ib`, past its size 64",
        ),
        (
            "an indexed draw without an index buffer",
            end_at("draw-indexed indexCount=3\nend-rendering\n"),
            "10:1: vkCmdDrawIndexed: an indexed draw needs an `index` buffer",
        ),
        (
            "an indirect draw's stride below the record's size",
            end_at("draw-indirect ind drawCount=2 stride=12\nend-rendering\n"),
            "10:1: vkCmdDrawIndirect: stride 12 must be a multiple of 4 and at least 16, the size of one VkDrawIndirectCommand (VUID-vkCmdDrawIndirect-drawCount-00476)",
        ),
        (
            "an indexed indirect draw's stride not a multiple of 4",
            end_at("draw-indexed-indirect ind drawCount=2 stride=22 index ib 0 u16\nend-rendering\n"),
            "10:1: vkCmdDrawIndexedIndirect: stride 22 must be a multiple of 4 and at least 20, the size of one VkDrawIndexedIndirectCommand (VUID-vkCmdDrawIndexedIndirect-drawCount-00528)",
        ),
        (
            "one indirect draw: the stride is ignored",
            end_at("draw-indirect ind drawCount=1 stride=0\nend-rendering\n"),
            "",
        ),
        (
            "an indirect count draw's stride, whatever the count",
            end_at("draw-indirect-count ind ind offset=16 maxDrawCount=1 stride=16 indexed index ib 0 u16\nend-rendering\n"),
            "10:1: vkCmdDrawIndexedIndirectCount: stride 16 must be a multiple of 4 and at least 20, the size of one VkDrawIndexedIndirectCommand (VUID-vkCmdDrawIndexedIndirectCount-stride-03142)",
        ),
        (
            "an index buffer offset not a multiple of the index size",
            end_at("draw-indexed indexCount=3 index ib 3 u16\nend-rendering\n"),
            "10:1: vkCmdDrawIndexed: the index buffer's offset 3 is not a multiple of 2, the size of its index type (VUID-vkCmdBindIndexBuffer-offset-08783)",
        ),
        // review37: a bound offset past the buffer's end, where the draw
        // reads no element there (indexed, indirect, empty), was accepted.
        (
            "an index buffer offset at the buffer's end",
            end_at("draw-indexed-indirect ind drawCount=1 stride=20 index ib 64 u32\nend-rendering\n"),
            "10:1: vkCmdDrawIndexedIndirect: the index buffer's offset 64 is not less than the size 64 of `ib` (VUID-vkCmdBindIndexBuffer-offset-08782)",
        ),
        (
            "a vertex buffer offset past the buffer's end, no vertex drawn",
            end_at("draw vertexCount=0 vertex vb 300 16\nend-rendering\n"),
            "10:1: vkCmdDraw: vertex binding 0: the offset 300 is not less than the size 256 of `vb` (VUID-vkCmdBindVertexBuffers-pOffsets-00626)",
        ),
        (
            "an unknown load op",
            "begin-rendering color col COLOR:0:0 GENERAL KEEP STORE\n".into(),
            "7:45: expected a load op (`LOAD`, `CLEAR`, `DONT_CARE` or `NONE`), found `KEEP`",
        ),
        (
            "an image binding of the instance's own attachment (a feedback loop)",
            end_at("draw vertexCount=3 fs image-read col COLOR:0:0\nend-rendering\n"),
            "10: vkCmdDraw: binding 0 reads col[COLOR:0:0], memory of attachment col[COLOR:0:0] of this instance, which its load operation writes; without a feedback loop (VK_EXT_attachment_feedback_loop_layout, not modelled) that is invalid (VUID-vkCmdDraw-None-10795)",
        ),
        (
            "an unknown binding access in a draw",
            end_at("draw vertexCount=3 fs input-attachment col COLOR:0:0\nend-rendering\n"),
            "10:23: expected `read`, `write`, `rw`, `uniform`, `sampled`, `image-read`, `image-write`, `image-rw` or `sampled-image`, found `input-attachment`",
        ),
    ];
    let mut failures = Vec::new();
    for (name, body, want) in cases {
        let got = error(&body);
        if got != want {
            failures.push(format!("{name}:\n  got  {got}\n  want {want}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Plans `body` with `planner`: the planned program checks clean, every
/// barrier the planner inserted is before a begin-rendering or outside
/// every instance, and (offline and online) each inserted barrier is
/// needed: without it the program has hazards. Returns the planned
/// program's command lines (declarations left out).
fn planned(name: &str, body: &str, planner: vksync::plan::PlannerKind) -> Result<Vec<String>, String> {
    use vksync::plan::{plan, PlanOptions};
    let t = parse(body).unwrap_or_else(|e| panic!("{name}: {e}"));
    let p = plan(&t.program, PlanOptions::new(planner)).map_err(|e| {
        let line = t.line_of(e.at).unwrap_or(0);
        // As `vksync plan` prints it: an earlier command named by its line.
        let message = match &e.kind {
            vksync::ProgramErrorKind::Render(r) => r.describe(&|i| t.command_lines.get(i).copied()),
            kind => kind.to_string(),
        };
        format!("{line}: {message}")
    })?;
    let printed = trace::print(&p.program);
    let lines: Vec<&str> = printed.lines().collect();
    let n = p.program.commands().len();
    let head = lines.len() - n;
    let hs = check(&p.program).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        hs.is_empty(),
        "{name} ({planner:?}): the plan has hazards\n{printed}"
    );
    if matches!(
        planner,
        vksync::plan::PlannerKind::Online | vksync::plan::PlannerKind::Offline
    ) {
        for (i, c) in p.program.commands().iter().enumerate() {
            if p.origin[i].is_some() || !matches!(c, vksync::Command::Barrier(_)) {
                continue;
            }
            let without: String = lines
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != head + i)
                .map(|(_, l)| format!("{l}\n"))
                .collect();
            let q = trace::parse(&without).unwrap_or_else(|e| panic!("{name}: {e}\n{without}"));
            assert!(
                !check(&q.program).unwrap().is_empty(),
                "{name} ({planner:?}): the barrier at command {i} is not needed\n{printed}"
            );
        }
    }
    Ok(lines[head..].iter().map(|l| l.to_string()).collect())
}

/// (name, body, planner, the planned commands or the refusal; an empty
/// list: only the laws `planned` checks).
type PlanCase = (
    &'static str,
    String,
    vksync::plan::PlannerKind,
    Result<Vec<&'static str>, &'static str>,
);

#[test]
fn rendering_plans() {
    use vksync::plan::PlannerKind::{Conservative, Offline, Online};
    // (name, body, planner, the planned commands or the refusal).
    let no_barrier = |first: &str, second: &str| {
        two_instances(first, second, "")
            .lines()
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    };
    let cases: Vec<PlanCase> = vec![
        (
            "two instances on one image: the barrier before the second begin (offline)",
            no_barrier("NONE NONE", "NONE NONE"),
            Offline,
            // The first instance's NONE store after its draw wrote is a
            // write (as DONT_CARE's) that nothing makes available: the
            // barrier does. With NONE load operations nothing of an
            // instance precedes its first draw, so no implicit dependency
            // carries a barrier before the begin on to it ("This does not
            // apply when using VK_ATTACHMENT_LOAD_OP_NONE", review19): each
            // barrier's second access scope holds the draw's write itself
            // (the planners' reading makes a write visible to a write).
            Ok(vec![
                "barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL",
                "begin-rendering color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL NONE NONE",
                "draw vertexCount=3 instanceCount=1 firstVertex=0 firstInstance=0",
                "end-rendering",
                "barrier COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE",
                "begin-rendering color col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL NONE NONE",
                "draw vertexCount=3 instanceCount=1 firstVertex=0 firstInstance=0",
                "end-rendering",
            ]),
        ),
        (
            "two instances on one image: the barrier before the second begin (online)",
            no_barrier("LOAD STORE", "LOAD STORE"),
            Online,
            Ok(vec![]),
        ),
        (
            "two instances on one image (conservative: a full barrier after the end)",
            no_barrier("CLEAR STORE", "LOAD NONE"),
            Conservative,
            Ok(vec![]),
        ),
        (
            "a resolve target written by two instances (offline)",
            two_resolves(""),
            Offline,
            Ok(vec![]),
        ),
        (
            "a dispatch's write read by a draw's vertex input: before the begin (offline)",
            format!("dispatch k write sb[0..256]\n{TO_ATT}{BEGIN}draw vertexCount=4 vertex vb 0 16\nend-rendering\n"),
            Offline,
            Ok(vec![]),
        ),
        (
            "two draws' fragment shader writes race inside one instance: refused, both named",
            format!("{TO_ATT}{BEGIN}draw vertexCount=3 fs write sb[0..64]\ndraw vertexCount=3 fs write sb[0..64]\nend-rendering\n"),
            Offline,
            Err("11: this command races the earlier draw of the same rendering instance on line 10, and no barrier can order them (a pipeline barrier inside an instance is invalid without VK_KHR_dynamic_rendering_local_read: VUID-vkCmdPipelineBarrier2-None-06191): end the instance between them"),
        ),
        (
            "the same with the online planner",
            format!("{TO_ATT}{BEGIN}draw vertexCount=3 fs write sb[0..64]\ndraw vertexCount=3 fs write sb[0..64]\nend-rendering\n"),
            Online,
            Err("11: this command races the earlier draw of the same rendering instance on line 10, and no barrier can order them (a pipeline barrier inside an instance is invalid without VK_KHR_dynamic_rendering_local_read: VUID-vkCmdPipelineBarrier2-None-06191): end the instance between them"),
        ),
    ];
    let mut failures = Vec::new();
    for (name, body, planner, want) in cases {
        let got = planned(name, &body, planner);
        let ok = match (&got, &want) {
            // An empty expectation: only the laws in `planned` (clean,
            // barriers needed), printed for reading.
            (Ok(_), Ok(w)) if w.is_empty() => true,
            (Ok(g), Ok(w)) => g == w,
            (Err(g), Err(w)) => g == w,
            _ => false,
        };
        if !ok {
            failures.push(format!("{name}:\n  got  {got:#?}\n  want {want:#?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The render area the model takes when the trace names none: from the
/// origin, the extent every attachment view holds (VUID-VkRenderingInfo-
/// pNext-06079/06080: the render area lies within each view; a framebuffer
/// is no larger than its attachments). Load, store and resolve operations,
/// draws and clears act "within the render area"; before, they covered
/// every byte of each view, and a copy into the part of a larger view
/// outside the area was a false write-after-read and write-after-write
/// (review23). A layout transition still covers the whole subresource.
/// `big` is 8x8 beside `col`'s 4x4 (and a 4x4 mip 1 of an 8x8 image). Cases:
/// (name, body, hazards).
#[test]
fn the_render_area_is_what_every_view_holds() {
    const BIG: &str = "image big D32_SFLOAT 8x8
image col8 R8G8B8A8_UNORM 8x8 mips 2
barrier NONE:NONE -> COPY|EARLY_FRAGMENT_TESTS|LATE_FRAGMENT_TESTS:TRANSFER_WRITE|DEPTH_STENCIL_ATTACHMENT_READ|DEPTH_STENCIL_ATTACHMENT_WRITE big DEPTH:0:0 UNDEFINED->GENERAL
barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col8 COLOR:1:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL
begin-rendering color col8 COLOR:1:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE ; depth big DEPTH:0:0 GENERAL CLEAR STORE
draw vertexCount=3 depth-test depth-write
end-rendering
";
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        (
            "a copy into rows 4..8 of the larger view: outside the area, clean",
            format!("{BIG}copy-buffer-to-image sb -> big GENERAL imageSubresource=DEPTH:0:0 imageOffset=0,4,0 imageExtent=8,4,1\n"),
            vec![],
        ),
        (
            "a copy into columns 4..8 of rows 0..4: outside the area, clean",
            format!("{BIG}copy-buffer-to-image sb -> big GENERAL imageSubresource=DEPTH:0:0 imageOffset=4,0,0 imageExtent=4,4,1\n"),
            vec![],
        ),
        (
            "a copy into row 3: inside, the draw's test and the store race it",
            format!("{BIG}copy-buffer-to-image sb -> big GENERAL imageSubresource=DEPTH:0:0 imageOffset=0,3,0 imageExtent=8,1,1\n"),
            vec![
                "L14 WRITE_AFTER_READ big[DEPTH:0:0 bytes 96..112] after L12",
                "L14 WRITE_AFTER_WRITE big[DEPTH:0:0 bytes 96..112] after L13",
            ],
        ),
    ];
    for (name, body, want) in cases {
        let mut got = hazards(name, &body);
        got.sort();
        assert_eq!(got, want, "{name}");
    }
}

/// Image view bindings of a draw's shaders (`vs`/`fs` `sampled-image`,
/// `image-read`, `image-write`, `image-rw`), as a dispatch's: a sampled
/// image is `SHADER_SAMPLED_READ` in that shader's stage, a storage image
/// `SHADER_STORAGE_READ`/`WRITE`, over the view's subresources, which must
/// be in the layout the descriptor names (`GENERAL` for a storage image).
/// Before, the parser refused them ("not modelled in draws yet") and the
/// capture refused such a draw (review23). Cases: (name, body, hazards);
/// `tex` is line 7, its upload line 9.
#[test]
fn draws_read_and_write_image_bindings_in_their_shader_stage() {
    const UPLOAD: &str = "image tex R8G8B8A8_UNORM 4x4
barrier NONE:NONE -> COPY:TRANSFER_WRITE tex COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL
copy-buffer-to-image sb -> tex TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=4,4,1
";
    let case = |to: &str, draw: &str| format!("{UPLOAD}{to}{TO_ATT}{BEGIN}{draw}\nend-rendering\n");
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        (
            "a fragment shader samples the upload after a barrier to its stage: clean",
            case(
                "barrier COPY:TRANSFER_WRITE -> FRAGMENT_SHADER:SHADER_SAMPLED_READ tex COLOR:0:0 TRANSFER_DST_OPTIMAL->SHADER_READ_ONLY_OPTIMAL\n",
                "draw vertexCount=3 fs sampled-image tex COLOR:0:0 SHADER_READ_ONLY_OPTIMAL",
            ),
            vec![],
        ),
        (
            "the barrier names the vertex shader: the fragment shader's read races the upload and the transition",
            case(
                "barrier COPY:TRANSFER_WRITE -> VERTEX_SHADER:SHADER_SAMPLED_READ tex COLOR:0:0 TRANSFER_DST_OPTIMAL->SHADER_READ_ONLY_OPTIMAL\n",
                "draw vertexCount=3 fs sampled-image tex COLOR:0:0 SHADER_READ_ONLY_OPTIMAL",
            ),
            vec![
                "L14 READ_AFTER_WRITE tex[COLOR:0:0] after L10",
                "L14 READ_AFTER_WRITE tex[COLOR:0:0] after L9",
            ],
        ),
        (
            "a vertex shader samples it after that barrier: clean",
            case(
                "barrier COPY:TRANSFER_WRITE -> VERTEX_SHADER:SHADER_SAMPLED_READ tex COLOR:0:0 TRANSFER_DST_OPTIMAL->SHADER_READ_ONLY_OPTIMAL\n",
                "draw vertexCount=3 vs sampled-image tex COLOR:0:0 SHADER_READ_ONLY_OPTIMAL",
            ),
            vec![],
        ),
        (
            "a storage image read is SHADER_STORAGE_READ, which a barrier to SHADER_SAMPLED_READ does not make visible",
            case(
                "barrier COPY:TRANSFER_WRITE -> FRAGMENT_SHADER:SHADER_SAMPLED_READ tex COLOR:0:0 TRANSFER_DST_OPTIMAL->GENERAL\n",
                "draw vertexCount=3 fs image-read tex COLOR:0:0",
            ),
            vec![
                "L14 READ_AFTER_WRITE tex[COLOR:0:0] after L10",
                "L14 READ_AFTER_WRITE tex[COLOR:0:0] after L9",
            ],
        ),
        (
            "a fragment shader's storage image write, then a copy out with no barrier",
            format!(
                "{}copy-image-to-buffer tex GENERAL -> ib imageSubresource=COLOR:0:0 imageExtent=4,4,1\n",
                case(
                    "barrier COPY:TRANSFER_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_WRITE tex COLOR:0:0 TRANSFER_DST_OPTIMAL->GENERAL\n",
                    "draw vertexCount=3 fs image-write tex COLOR:0:0",
                )
            ),
            vec!["L16 READ_AFTER_WRITE tex[COLOR:0:0] after L14"],
        ),
    ];
    for (name, body, want) in cases {
        let mut got = hazards(name, &body);
        got.sort();
        assert_eq!(got, want, "{name}\n{body}");
    }
    // The descriptor's layout is the subresource's at the draw.
    let wrong = case(
        "barrier COPY:TRANSFER_WRITE -> FRAGMENT_SHADER:SHADER_SAMPLED_READ tex COLOR:0:0 TRANSFER_DST_OPTIMAL->SHADER_READ_ONLY_OPTIMAL\n",
        "draw vertexCount=3 fs sampled-image tex COLOR:0:0 GENERAL",
    );
    assert_eq!(
        error(&wrong),
        "14: vkCmdDraw uses image `tex` subresource COLOR mip 0 layer 0 in layout GENERAL, but its layout is SHADER_READ_ONLY_OPTIMAL at that point (VUID-VkDescriptorImageInfo-imageLayout-00344)"
    );
}

/// review24: in dynamic rendering the color and depth/stencil views bound
/// the render area (VUID-VkRenderingInfo-pNext-06079, -06080), a resolve
/// view does not: a 16x16 attachment resolved into an 8x8 view keeps a
/// 16x16 area for its load, clear and store (before, the resolve view cut
/// the operations to 8x8 but not the clear), and the resolve writes the
/// target as far as it goes.
#[test]
fn a_resolve_view_does_not_bound_the_render_area() {
    let body = "image a R8G8B8A8_UNORM 16x16
image r R8G8B8A8_UNORM 8x8
barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE a COLOR:0:0 UNDEFINED->GENERAL ; NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE r COLOR:0:0 UNDEFINED->GENERAL
begin-rendering color a COLOR:0:0 GENERAL CLEAR STORE resolve r COLOR:0:0 GENERAL
clear-attachments color 0
end-rendering
copy-buffer-to-image sb -> a GENERAL imageSubresource=COLOR:0:0 imageOffset=8,0,0 imageExtent=8,8,1
copy-buffer-to-image sb -> r GENERAL imageSubresource=COLOR:0:0 imageOffset=4,4,0 imageExtent=4,4,1
";
    let mut got = hazards("a resolve view smaller than the attachment", body);
    got.sort();
    // The copy into `a` (rows 0..8, columns 8..16 of 64-byte rows) races
    // the end's store (a write) and resolve read; the one into `r` (rows
    // 4..8, columns 4..8 of 32-byte rows) the resolve's write.
    let mut want: Vec<String> = Vec::new();
    for y in 0..8 {
        for kind in ["WRITE_AFTER_READ", "WRITE_AFTER_WRITE"] {
            want.push(format!(
                "L13 {kind} a[COLOR:0:0 bytes {}..{}] after L12",
                64 * y + 32,
                64 * y + 64
            ));
        }
    }
    for y in 4..8 {
        want.push(format!(
            "L14 WRITE_AFTER_WRITE r[COLOR:0:0 bytes {}..{}] after L12",
            32 * y + 16,
            32 * y + 32
        ));
    }
    want.sort();
    assert_eq!(got, want);
}

/// review37: fix texts a user can record. A barrier against a draw of a
/// rendering instance goes before the instance's begin, which the text
/// now says; two draws of one dynamic instance have no barrier that
/// orders them, and the text says to end the instance between them.
/// Cases: the trace, the fix of its one hazard, the trace as the fix
/// says, which checks clean.
#[test]
fn fixes_against_draws_say_where_a_barrier_can_go() {
    let to_att = "barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE c COLOR:0:0 \
                  UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n";
    let head = format!("buffer v 64\nimage c R8G8B8A8_UNORM 4x4\n{to_att}");
    let cases: Vec<(String, &str, String)> = vec![
        (
            format!(
                "{head}fill v 0\nbegin-rendering color c COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\n\
                 draw vertexCount=3 vertex v 0 16\nend-rendering\n"
            ),
            "barrier CLEAR:TRANSFER_WRITE -> VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ v[0..48] before the \
             begin-rendering at line 5 (no barrier may be recorded inside the instance)",
            format!(
                "{head}fill v 0\nbarrier CLEAR:TRANSFER_WRITE -> VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ \
                 v[0..48]\nbegin-rendering color c COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\n\
                 draw vertexCount=3 vertex v 0 16\nend-rendering\n"
            ),
        ),
        (
            format!(
                "{head}begin-rendering color c COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\n\
                 draw vertexCount=3 fs write v\ndraw vertexCount=3 fs read v\nend-rendering\n"
            ),
            "no barrier can order them: both are in the rendering instance begun at line 4, inside which a \
             pipeline barrier is invalid (VUID-vkCmdPipelineBarrier2-None-06191; \
             VK_KHR_dynamic_rendering_local_read is not modelled): end the instance between them, record \
             `barrier FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ` there and \
             begin another that loads the attachments (LOAD)",
            format!(
                "{head}begin-rendering color c COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\n\
                 draw vertexCount=3 fs write v\nend-rendering\n\
                 barrier FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_WRITE|COLOR_ATTACHMENT_WRITE -> \
                 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\n\
                 begin-rendering color c COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL LOAD STORE\n\
                 draw vertexCount=3 fs read v\nend-rendering\n"
            ),
        ),
        // A draw in a render pass's second subpass: the barrier goes before
        // the pass's begin, not before the next-subpass (review38: a place
        // inside the pass, where it cannot order the fill).
        (
            "buffer v 64\nrender-pass rp attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass ; \
             subpass color 0 GENERAL\nimage c R8G8B8A8_UNORM 4x4\nfill v 0\nbegin-render-pass rp c COLOR:0:0\n\
             next-subpass\ndraw vertexCount=3 vertex v 0 16\nend-render-pass\n"
                .to_string(),
            "barrier CLEAR:TRANSFER_WRITE -> VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ v[0..48] before the \
             begin-render-pass at line 5 (no barrier may be recorded inside the instance)",
            "buffer v 64\nrender-pass rp attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass ; \
             subpass color 0 GENERAL\nimage c R8G8B8A8_UNORM 4x4\nfill v 0\n\
             barrier CLEAR:TRANSFER_WRITE -> VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ v[0..48]\n\
             begin-render-pass rp c COLOR:0:0\nnext-subpass\ndraw vertexCount=3 vertex v 0 16\nend-render-pass\n"
                .to_string(),
        ),
    ];
    for (body, want, fixed) in &cases {
        let t = trace::parse(body).unwrap_or_else(|e| panic!("{e}\n{body}"));
        let fixes: Vec<String> = check(&t.program)
            .unwrap()
            .iter()
            .map(|h| h.fix_text_at(&t.program, &t.command_lines))
            .collect();
        assert_eq!(fixes, vec![want.to_string()], "{body}");
        let t = trace::parse(fixed).unwrap_or_else(|e| panic!("{e}\n{fixed}"));
        assert_eq!(check(&t.program).unwrap(), Vec::new(), "{fixed}");
    }
}
