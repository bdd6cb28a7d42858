//! Render passes (`vksync::ir::renderpass`): one table of hazard cases and
//! one of errors, each hazard case with the spec sentence it checks
//! (renderpass.adoc, synchronization.adoc; paraphrased where long). Every
//! hazard case is decided by the fast checker and by the definitional
//! semantics (`vksync::spec`), which must find the same (command, kind,
//! byte), and prints and parses back to itself. The expectation lists
//! `L<line> <KIND> <region> after L<line>`.

use std::collections::BTreeSet;
use vksync::spec::{races, Reading};
use vksync::{check, trace};

/// Declarations every case starts with (lines 1-5): a storage buffer
/// `sb`, a readback buffer `out`, a 4x4 color image, a 4x4 depth/stencil
/// image and a 4x4 color image to resolve into.
const HEAD: &str = "buffer sb 256
buffer out 256
image col R8G8B8A8_UNORM 4x4
image dep D24_UNORM_S8_UINT 4x4
image res R8G8B8A8_UNORM 4x4
";

/// A color attachment kept in COLOR_ATTACHMENT_OPTIMAL.
const COLOR_KEPT: &str =
    "attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL";

/// `col` into COLOR_ATTACHMENT_OPTIMAL, its second scope the load op's.
const TO_ATT: &str =
    "barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n";

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
        .unwrap_or_else(|e| panic!("{name}: {e}"))
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

/// (name, the spec sentence, body after the head, expected hazards).
type Case = (&'static str, &'static str, String, &'static [&'static str]);

/// Two subpasses, each drawing into `col` (attachment 0) in `layouts`,
/// the first writing `sb` in its fragment shader, the second reading it;
/// `deps` the dependency clauses (lines 6-11, the draws on 8 and 10).
fn two_subpasses(layouts: (&str, &str), final_layout: &str, deps: &str) -> String {
    format!(
        "render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->{final_layout} ; \
         subpass color 0 {} ; subpass color 0 {}{deps}\n\
         {TO_ATT}\
         begin-render-pass rp col COLOR:0:0\n\
         draw vertexCount=3 fs write sb[0..256]\n\
         next-subpass\n\
         draw vertexCount=3 fs read sb[0..256]\n\
         end-render-pass\n",
        layouts.0, layouts.1
    )
}

/// Multiview: `arr` (line 6, `layers` layers) is the color attachment
/// of two subpasses of view mask `mask`, the first writing `sb` in its
/// fragment shader and `arr` as color, the second reading `sb` and
/// writing `arr`; `deps` the dependency clauses (lines 6-13: the image,
/// the declaration, the barrier into the attachment layout, the begin,
/// the draw, the next-subpass, the draw, the end).
fn multiview(mask: u32, layers: u32, deps: &str) -> String {
    format!(
        "image arr R8G8B8A8_UNORM 4x4 layers {layers}\n\
         render-pass mv attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; \
         subpass viewMask={mask} color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass viewMask={mask} color 0 COLOR_ATTACHMENT_OPTIMAL{deps}\n\
         barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE arr COLOR:0:0..{layers} UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
         begin-render-pass mv arr COLOR:0:0..{layers}\n\
         draw vertexCount=3 fs write sb[0..256]\n\
         next-subpass\n\
         draw vertexCount=3 fs read sb[0..256]\n\
         end-render-pass\n"
    )
}

/// Multiview: subpasses of view mask 0b11 over `arr` (2 layers), the
/// first writing `sb` in its fragment shader, a view-local dependency
/// `0->1` with that write in its first access scope, then `deps`; the
/// second subpass draws, `more` follows it in the pass, `after` the pass
/// (lines 6-14: the image, the transition, the declaration, the begin, the
/// draw, the next-subpass, the draw, `more`'s lines, the end, `after`).
fn multiview_chain(deps: &str, more: &str, after: &str) -> String {
    let third = if more.is_empty() {
        ""
    } else {
        " ; subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL"
    };
    format!(
        "image arr R8G8B8A8_UNORM 4x4 layers 2\n\
         barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE arr COLOR:0:0..2 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
         render-pass mv {COLOR_KEPT} ; subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL ; \
         subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL{third} ; \
         dependency 0->1 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_WRITE|COLOR_ATTACHMENT_WRITE -> \
         COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE view-local{deps}\n\
         begin-render-pass mv arr COLOR:0:0..2\n\
         draw vertexCount=3 fs write sb[0..256]\n\
         next-subpass\n\
         draw vertexCount=3\n\
         {more}end-render-pass\n\
         {after}\n"
    )
}

/// Multiview: three subpasses of view mask 0b11 over `arr` (2 layers)
/// with view-local dependencies `0->1` and `1->2`, a vertex shader's
/// storage write of `sb` in subpasses 0 and 2; `head` before the image,
/// `before` after the declaration, `inside` at the start of subpass 1
/// (lines 6-15 with all three empty: the image, the transition, the
/// declaration, the begin, the write, the next-subpass, the draw, the
/// next-subpass, the write, the end).
fn view_local_chain(head: &str, before: &str, inside: &str) -> String {
    format!(
        "{head}image arr R8G8B8A8_UNORM 4x4 layers 2\n\
         barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE arr COLOR:0:0..2 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
         render-pass mv attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; \
         subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL ; \
         subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency 0->1 \
         VERTEX_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_WRITE|COLOR_ATTACHMENT_WRITE -> \
         COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE view-local ; dependency 1->2 \
         COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> VERTEX_SHADER|COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE view-local\n\
         {before}begin-render-pass mv arr COLOR:0:0..2\n\
         draw vertexCount=3 vs write sb[0..256]\n\
         next-subpass\n\
         {inside}draw vertexCount=3\n\
         next-subpass\n\
         draw vertexCount=3 vs write sb[0..256]\n\
         end-render-pass\n"
    )
}

/// A render pass of eight views no instance begins, whose per-view
/// declaration would have 128 dependencies (each dependency `0->1` that
/// is not view-local is 64).
const BIG_MULTIVIEW: &str =
    "render-pass big attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; subpass viewMask=255 \
     color 0 GENERAL ; subpass viewMask=255 color 0 GENERAL ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT -> \
     COLOR_ATTACHMENT_OUTPUT ; dependency 0->1 FRAGMENT_SHADER -> FRAGMENT_SHADER";

/// Multiview, one subpass of view mask `mask` over `arr` (2 layers) with
/// a view-local self-dependency from the vertex shader's storage writes
/// to the fragment shader's storage reads, and such a barrier between a
/// draw writing `sb` and one reading it (lines 6-13: the image, the
/// declaration, the transition, the begin, the draw, the barrier, the
/// draw, the end).
fn multiview_barrier(mask: u32) -> String {
    format!(
        "image arr R8G8B8A8_UNORM 4x4 layers 2\n\
         render-pass mv {COLOR_KEPT} ; subpass viewMask={mask} color 0 COLOR_ATTACHMENT_OPTIMAL ; \
         dependency 0->0 VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ view-local\n\
         barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE arr COLOR:0:0..2 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
         begin-render-pass mv arr COLOR:0:0..2\n\
         draw vertexCount=3 vs write sb[0..256]\n\
         {VS_TO_FS_BARRIER}\
         draw vertexCount=3 fs read sb[0..256]\n\
         end-render-pass\n"
    )
}

/// Multiview, one subpass of view mask 0b11 over `arr` (3 layers, in
/// `GENERAL`), loading it; before the pass a copy writes layer `layer`
/// (lines 6-11: the image, the barrier, the copy, the declaration, the
/// begin, the end).
fn multiview_load_after_copy(layer: u32) -> String {
    format!(
        "image arr R8G8B8A8_UNORM 4x4 layers 3\n\
         barrier NONE:NONE -> COPY|COLOR_ATTACHMENT_OUTPUT:TRANSFER_WRITE|COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE \
         arr COLOR:0:0..3 UNDEFINED->GENERAL\n\
         copy-buffer-to-image out -> arr GENERAL imageSubresource=COLOR:0:{layer} imageExtent=4,4,1\n\
         render-pass mv attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; subpass viewMask=3 color 0 GENERAL\n\
         begin-render-pass mv arr COLOR:0:0..3\n\
         end-render-pass\n"
    )
}

/// review16's shape: subpass 0 draws into `col`, subpass 1 blends into it,
/// with one dependency `0->1 {dep}` (lines 6-12: the declaration, the
/// barrier into `GENERAL`, the begin, the draw, the next-subpass, the
/// blend, the end).
fn blend_after_subpass_0(dep: &str) -> String {
    format!(
        "render-pass rp attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; subpass color 0 GENERAL ; \
         subpass color 0 GENERAL ; dependency 0->1 {dep}\n\
         barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ col COLOR:0:0 UNDEFINED->GENERAL\n\
         begin-render-pass rp col COLOR:0:0\n\
         draw vertexCount=3\n\
         next-subpass\n\
         draw vertexCount=3 blend\n\
         end-render-pass\n"
    )
}

/// `col` written by a copy before a render pass whose subpass 0 clears
/// `res` and subpass 1 loads `col` (lines 6-11: the barrier, the copy, the
/// declaration with `deps`, the begin, the next-subpass, the end).
fn load_in_subpass_1(deps: &str, before_begin: &str) -> String {
    format!(
        "barrier NONE:NONE -> COPY:TRANSFER_WRITE col COLOR:0:0 UNDEFINED->GENERAL ; \
         NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE res COLOR:0:0 UNDEFINED->GENERAL\n\
         copy-buffer-to-image out -> col GENERAL imageSubresource=COLOR:0:0 imageExtent=4,4,1\n\
         render-pass rp attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; \
         attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; subpass color 1 GENERAL ; subpass color 0 GENERAL{deps}\n\
         {before_begin}\
         begin-render-pass rp col COLOR:0:0 ; res COLOR:0:0\n\
         next-subpass\n\
         end-render-pass\n"
    )
}

/// The mirror: subpass 0 loads and stores `col`, subpass 1 clears `res`,
/// and a copy reads `col` after the pass (lines 6-10: the barrier, the
/// declaration with `deps`, the begin, the next-subpass, the end; then
/// `after_end`, then the copy).
fn store_in_subpass_0(deps: &str, after_end: &str) -> String {
    format!(
        "barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ col COLOR:0:0 UNDEFINED->GENERAL ; \
         NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE res COLOR:0:0 UNDEFINED->GENERAL\n\
         render-pass rp attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; \
         attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; subpass color 0 GENERAL ; subpass color 1 GENERAL{deps}\n\
         begin-render-pass rp col COLOR:0:0 ; res COLOR:0:0\n\
         next-subpass\n\
         end-render-pass\n\
         {after_end}\
         copy-image-to-buffer col GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1\n"
    )
}

/// Three subpasses: `col` (attachment 0) in subpass 0 (layout
/// `layouts.0`, a draw writing `sb` in its fragment shader) and subpass 2
/// (`layouts.1`, a draw reading `sb`), `res` (attachment 1) cleared in
/// subpass 1 between them; `deps` the dependency clauses (lines 6-14: the
/// declaration, two barriers, the begin, the draw on 10, two
/// next-subpasses, the draw on 13, the end).
fn three_subpasses(layouts: (&str, &str), final_layout: &str, deps: &str) -> String {
    format!(
        "render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->{final_layout} ; \
         attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; \
         subpass color 0 {} ; subpass color 1 GENERAL ; subpass color 0 {}{deps}\n\
         {TO_ATT}\
         barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE res COLOR:0:0 UNDEFINED->GENERAL\n\
         begin-render-pass rp col COLOR:0:0 ; res COLOR:0:0\n\
         draw vertexCount=3 fs write sb[0..256]\n\
         next-subpass\n\
         next-subpass\n\
         draw vertexCount=3 fs read sb[0..256]\n\
         end-render-pass\n",
        layouts.0, layouts.1
    )
}

/// Five subpasses: `col` in subpasses 1 and 4, draws writing `sb` in
/// subpasses 0 (its first half) and 1 (its second half) and reading it in
/// subpass 4, then a copy reading `sb`; `deps` the dependency clauses
/// (lines 6-17: the declaration, the barrier, the begin, the draw on 9,
/// the next-subpass on 10, the draw on 11, three next-subpasses, the draw
/// on 15, the end, the copy on 17). Subpass 4 is the first whose slot in
/// the fast checker was another's (subpass 0's).
fn five_subpasses(deps: &str) -> String {
    format!(
        "render-pass rp {COLOR_KEPT} ; subpass ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass ; subpass ; \
         subpass color 0 COLOR_ATTACHMENT_OPTIMAL{deps}\n\
         {TO_ATT}\
         begin-render-pass rp col COLOR:0:0\n\
         draw vertexCount=3 fs write sb[0..128]\n\
         next-subpass\n\
         draw vertexCount=3 fs write sb[128..256]\n\
         next-subpass\n\
         next-subpass\n\
         next-subpass\n\
         draw vertexCount=3 fs read sb[0..256]\n\
         end-render-pass\n\
         copy sb -> out\n"
    )
}

/// One subpass drawing into `col`, its first draw `first` (e.g. `vs write
/// sb[0..256]`), then `between` (a barrier line, or nothing), then a draw
/// `second`; `deps` the dependency clauses (lines 6-12: the declaration,
/// the transition, the begin, the draws on 9 and 11 with `between` on 10,
/// the end; without `between` the second draw is on 10).
fn self_dependency(deps: &str, first: &str, between: &str, second: &str) -> String {
    format!(
        "render-pass rp {COLOR_KEPT} ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL{deps}\n\
         {TO_ATT}\
         begin-render-pass rp col COLOR:0:0\n\
         draw vertexCount=3 {first}\n\
         {between}\
         draw vertexCount=3 {second}\n\
         end-render-pass\n"
    )
}

/// The self-dependency of subpass 0 from the vertex shader's storage
/// writes to the fragment shader's storage reads (no framebuffer-space
/// source stage: framebuffer-global).
const VS_TO_FS: &str =
    " ; dependency 0->0 VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ";

/// The barrier that self-dependency allows.
const VS_TO_FS_BARRIER: &str =
    "barrier VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ\n";

/// Deferred shading: subpass 0 draws into `col` (attachment 0, stored
/// with `store`), subpass 1 reads it as an input attachment and draws into
/// `res` (attachment 1); `deps` the dependency clauses (lines 6-11: the
/// declaration, the begin, the draws on 8 and 10, the end on 11).
fn deferred(store: &str, deps: &str) -> String {
    format!(
        "render-pass rp attachment R8G8B8A8_UNORM CLEAR {store} UNDEFINED->GENERAL ; \
         attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; \
         subpass color 0 GENERAL ; subpass input 0 GENERAL color 1 GENERAL{deps}\n\
         begin-render-pass rp col COLOR:0:0 ; res COLOR:0:0\n\
         draw vertexCount=3\n\
         next-subpass\n\
         draw vertexCount=3\n\
         end-render-pass\n"
    )
}

/// Lines 6-9: a depth image `dz` (`D32_SFLOAT`, from `UNDEFINED` to
/// `final_layout`) in a render pass of one subpass that loads and stores
/// it, with the subpass dependencies `deps`; line 8 begins the pass, line
/// 9 ends it.
fn depth_pass(final_layout: &str, deps: &[&str]) -> String {
    format!(
        "image dz D32_SFLOAT 4x4\n\
         render-pass rpz attachment D32_SFLOAT LOAD STORE UNDEFINED->{final_layout} ; \
         subpass depth 0 DEPTH_ATTACHMENT_OPTIMAL ; {}\n\
         begin-render-pass rpz dz DEPTH:0:0\nend-render-pass\n",
        deps.join(" ; ")
    )
}

/// The dependency of deferred shading: subpass 0's color writes made
/// visible to subpass 1's input reads, by region.
const GBUFFER_DEP: &str =
    " ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:INPUT_ATTACHMENT_READ by-region";

/// Review10's `fold-false-alarm`: seven instances read `sb` (L15-L33)
/// in five stages, and each one's `0->EXTERNAL` dependency orders its
/// reads into another stage (`COPY`, `BLIT`, `RESOLVE`, `CLEAR`,
/// `COMPUTE_SHADER`, `VERTEX_SHADER`, `COPY`): incomparable chains, which
/// fill an entry's inline room. `{SRC}` is the final barrier's first
/// synchronization scope, before the fill (L36).
const SEVEN_INSTANCES: &str = "\
    barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE col COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
    render-pass rp0 attachment R8G8B8A8_UNORM LOAD STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency 0->EXTERNAL VERTEX_SHADER|FRAGMENT_SHADER -> COPY ; dependency EXTERNAL->0 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\n\
    render-pass rp1 attachment R8G8B8A8_UNORM LOAD STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency 0->EXTERNAL INDEX_INPUT|VERTEX_ATTRIBUTE_INPUT|VERTEX_SHADER|FRAGMENT_SHADER -> BLIT ; dependency EXTERNAL->0 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\n\
    render-pass rp2 attachment R8G8B8A8_UNORM LOAD STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency 0->EXTERNAL INDEX_INPUT|VERTEX_ATTRIBUTE_INPUT|VERTEX_SHADER|FRAGMENT_SHADER -> RESOLVE ; dependency EXTERNAL->0 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\n\
    render-pass rp3 attachment R8G8B8A8_UNORM LOAD STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency 0->EXTERNAL INDEX_INPUT|VERTEX_ATTRIBUTE_INPUT|VERTEX_SHADER|FRAGMENT_SHADER -> CLEAR ; dependency EXTERNAL->0 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\n\
    render-pass rp4 attachment R8G8B8A8_UNORM LOAD STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency 0->EXTERNAL INDEX_INPUT|VERTEX_ATTRIBUTE_INPUT|VERTEX_SHADER|FRAGMENT_SHADER -> COMPUTE_SHADER ; dependency EXTERNAL->0 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\n\
    render-pass rp5 attachment R8G8B8A8_UNORM LOAD STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency 0->EXTERNAL DRAW_INDIRECT|INDEX_INPUT|VERTEX_ATTRIBUTE_INPUT|VERTEX_SHADER|FRAGMENT_SHADER -> VERTEX_SHADER ; dependency EXTERNAL->0 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\n\
    render-pass rp6 attachment R8G8B8A8_UNORM LOAD STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency 0->EXTERNAL DRAW_INDIRECT|INDEX_INPUT|VERTEX_ATTRIBUTE_INPUT|VERTEX_SHADER|FRAGMENT_SHADER -> COPY ; dependency EXTERNAL->0 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\n\
    begin-render-pass rp0 col COLOR:0:0\n\
    draw vertexCount=3 vs read sb[0..256] fs read sb[0..256]\n\
    end-render-pass\n\
    begin-render-pass rp1 col COLOR:0:0\n\
    draw-indexed indexCount=3 index sb 0 u32 vertex sb 0 16 vs read sb[0..256] fs read sb[0..256]\n\
    end-render-pass\n\
    begin-render-pass rp2 col COLOR:0:0\n\
    draw-indexed indexCount=3 index sb 0 u32 vertex sb 0 16 vs read sb[0..256] fs read sb[0..256]\n\
    end-render-pass\n\
    begin-render-pass rp3 col COLOR:0:0\n\
    draw-indexed indexCount=3 index sb 0 u32 vertex sb 0 16 vs read sb[0..256] fs read sb[0..256]\n\
    end-render-pass\n\
    begin-render-pass rp4 col COLOR:0:0\n\
    draw-indexed indexCount=3 index sb 0 u32 vertex sb 0 16 vs read sb[0..256] fs read sb[0..256]\n\
    end-render-pass\n\
    begin-render-pass rp5 col COLOR:0:0\n\
    draw-indexed-indirect sb drawCount=1 stride=20 index sb 0 u32 vertex sb 0 16 vs read sb[0..256] fs read sb[0..256]\n\
    end-render-pass\n\
    begin-render-pass rp6 col COLOR:0:0\n\
    draw-indexed-indirect sb drawCount=1 stride=20 index sb 0 u32 vertex sb 0 16 vs read sb[0..256] fs read sb[0..256]\n\
    end-render-pass\n\
    barrier {SRC}:NONE -> CLEAR:NONE\n\
    fill sb 0\n";

fn cases() -> Vec<Case> {
    let att = ("COLOR_ATTACHMENT_OPTIMAL", "COLOR_ATTACHMENT_OPTIMAL");
    let storage_dep =
        " ; dependency 0->1 FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ";
    // Two instances: `rp` clears and stores `col`, `rp2` loads it.
    let reload = |deps: &str| {
        format!(
            "render-pass rp {COLOR_KEPT} ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL\n\
             render-pass rp2 attachment R8G8B8A8_UNORM LOAD NONE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; \
             subpass color 0 COLOR_ATTACHMENT_OPTIMAL{deps}\n\
             {TO_ATT}\
             begin-render-pass rp col COLOR:0:0\n\
             end-render-pass\n\
             begin-render-pass rp2 col COLOR:0:0\n\
             end-render-pass\n"
        )
    };
    // A copy reads `sb`, then a barrier transitions it (the copy in its
    // first scope); subpass 1 of `rp` writes it. `{ORDER}` goes before
    // the begin.
    let past_transition = |order: &str| {
        format!(
            "barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE col COLOR:0:0 UNDEFINED->GENERAL\n\
             copy sb[0..64] -> out[0..64]\n\
             barrier COPY:NONE -> HOST:NONE sb[0..64] transition\n\
             render-pass rp attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; subpass ; subpass ; \
             dependency 0->1 ALL_COMMANDS:NONE -> FRAGMENT_SHADER:SHADER_WRITE\n\
             {order}begin-render-pass rp col COLOR:0:0\n\
             next-subpass\n\
             draw vertexCount=1 fs write sb[0..64]\n\
             end-render-pass\n"
        )
    };
    // A fill of `sb`, made available by a dependency EXTERNAL->0 whose
    // second scope is `NONE`; `rp` takes `col` through `layouts`
    // (`initialLayout->finalLayout`; `col` put into the first when it is
    // not UNDEFINED); `rest` follows the end.
    let fill_before_transition = |layouts: &str, rest: &str| {
        let pre = if layouts.starts_with("UNDEFINED") {
            ""
        } else {
            TO_ATT
        };
        format!(
            "{pre}fill sb[0..256] 1\n\
             render-pass rp attachment R8G8B8A8_UNORM DONT_CARE STORE {layouts} ; \
             subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency EXTERNAL->0 CLEAR:TRANSFER_WRITE -> NONE:NONE\n\
             begin-render-pass rp col COLOR:0:0\n\
             end-render-pass\n\
             {rest}"
        )
    };
    // Subpass 0 of `rp` writes `sb`; a dependency 0->EXTERNAL makes it
    // available, second scope `NONE`; the end transitions `col` into
    // `final_layout` (line 10); a barrier with ALL_COMMANDS as first
    // scope and a copy of `sb` follow.
    let store_before_transition = |final_layout: &str| {
        format!(
            "render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->{final_layout} ; \
             subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; \
             dependency 0->EXTERNAL FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> NONE:NONE\n\
             {TO_ATT}\
             begin-render-pass rp col COLOR:0:0\n\
             draw vertexCount=3 fs write sb[0..256]\n\
             end-render-pass\n\
             barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\n\
             copy sb[0..256] -> out[0..256]\n"
        )
    };
    // Three subpasses: `col` drawn in 0 and 1, `res` in 1 and 2, both
    // with a final layout transition; subpass 2 reads `sb` in its vertex
    // shader and a fill follows the end (line 14). `0->EXTERNAL` ends in
    // CLEAR, `1->EXTERNAL` in `one_dst`. `res`'s final transition comes
    // after the implicit `2->EXTERNAL` (ALL_COMMANDS: the read) and before
    // `1->EXTERNAL`'s visibility operations; `col`'s comes after
    // `1->EXTERNAL`'s availability operations and before `0->EXTERNAL`'s
    // visibility operations.
    let transitions_of_two_ends = |one_dst: &str| {
        format!(
            "render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->GENERAL ; \
             attachment R8G8B8A8_UNORM LOAD STORE GENERAL->TRANSFER_SRC_OPTIMAL ; \
             subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; \
             subpass color 0 COLOR_ATTACHMENT_OPTIMAL color 1 GENERAL ; subpass color 1 GENERAL ; \
             dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE ; \
             dependency 1->2 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> \
             COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE ; \
             dependency 0->EXTERNAL COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> CLEAR:NONE ; \
             dependency 1->EXTERNAL COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> {one_dst}:NONE\n\
             {TO_ATT}\
             barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE res COLOR:0:0 UNDEFINED->GENERAL\n\
             begin-render-pass rp col COLOR:0:0 ; res COLOR:0:0\n\
             next-subpass\n\
             next-subpass\n\
             draw vertexCount=3 vs read sb[0..256]\n\
             end-render-pass\n\
             fill sb[0..256] 4\n"
        )
    };
    vec![
        (
            "two render pass instances on disjoint render areas",
            "VkRenderPassBeginInfo: renderArea is the render area that is affected by the render pass instance: \
             each instance's load and store operations and draw touch its own columns of `col` only",
            format!(
                "render-pass rp {COLOR_KEPT} ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL\n{TO_ATT}\
                 begin-render-pass rp renderArea=0,0,2,4 col COLOR:0:0\ndraw vertexCount=3\nend-render-pass\n\
                 begin-render-pass rp renderArea=2,0,2,4 col COLOR:0:0\ndraw vertexCount=3\nend-render-pass\n"
            ),
            &[],
        ),
        (
            "two render pass instances on overlapping render areas",
            "the same with the first area three columns wide: column 2 of rows 1 to 3 is both instances'",
            format!(
                "render-pass rp {COLOR_KEPT} ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL\n{TO_ATT}\
                 begin-render-pass rp renderArea=0,0,3,4 col COLOR:0:0\ndraw vertexCount=3\nend-render-pass\n\
                 begin-render-pass rp renderArea=2,1,2,3 col COLOR:0:0\ndraw vertexCount=3\nend-render-pass\n"
            ),
            &[
                "L11 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 24..28] after L10",
                "L11 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 40..44] after L10",
                "L11 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 56..60] after L10",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 24..28] after L10",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 40..44] after L10",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 56..60] after L10",
                "L13 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 24..28] after L10",
                "L13 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 40..44] after L10",
                "L13 WRITE_AFTER_WRITE col[COLOR:0:0 bytes 56..60] after L10",
            ],
        ),
        (
            "a render area on a view of a 3D image covers every depth slice",
            "the render area extends to every layer of the framebuffer, and a 3D image's view renders its \
             slices: the end's store of texel (0,0) of slice 2 races a copy of it (review29: slice 0 only)",
            "image v3 R8G8B8A8_UNORM 4x4x4 initial GENERAL\n\
             render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; subpass color 0 GENERAL\n\
             begin-render-pass rp renderArea=0,0,3,4 v3 COLOR:0:0\nend-render-pass\n\
             copy-image-to-buffer v3 GENERAL -> out imageSubresource=COLOR:0:0 imageOffset=0,0,2 imageExtent=1,1,1\n"
                .to_string(),
            &["L10 READ_AFTER_WRITE v3[COLOR:0:0 bytes 128..132] after L9"],
        ),
        (
            "a read before one final transition is not before another's through the dependency between",
            "Automatic layout transitions into finalLayout happen-before the visibility operations for all \
             dependencies with a dstSubpass equal to VK_SUBPASS_EXTERNAL, where srcSubpass uses the attachment; \
             the read of subpass 2 is before `res`'s transition (the implicit 2->EXTERNAL), so before \
             1->EXTERNAL's second scope, but not before 1->EXTERNAL's availability operations, which `col`'s \
             transition follows: 0->EXTERNAL's CLEAR does not hold the fill (the missed write-after-read of \
             render-pass-random seed 526128)",
            transitions_of_two_ends("FRAGMENT_SHADER"),
            &["L14 WRITE_AFTER_READ sb[0..256] after L12"],
        ),
        (
            "a read before a final transition is before the second scope of a dependency that transition precedes",
            "the same, with 1->EXTERNAL ending in CLEAR: the read, `res`'s transition, 1->EXTERNAL's \
             visibility operations, the fill",
            transitions_of_two_ends("CLEAR"),
            &[],
        ),
        (
            "a write a dependency from EXTERNAL made available, then the begin's transition, then ALL_COMMANDS",
            "Automatic layout transitions away from initialLayout happen-after the availability operations for \
             all dependencies with a srcSubpass equal to VK_SUBPASS_EXTERNAL (whose dstSubpass uses the \
             attachment); ALL_COMMANDS after the end holds the transition: the fill is available before the \
             barrier, which makes it visible to the copy (the thirteenth session's open defect; the color \
             writes race the transition, the dependency's second scope being NONE)",
            fill_before_transition("UNDEFINED->GENERAL", "barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\ncopy sb[0..256] -> out[0..256]\n"),
            &["L8 WRITE_AFTER_WRITE col[COLOR:0:0] after L8", "L9 WRITE_AFTER_WRITE col[COLOR:0:0] after L8"],
        ),
        (
            "...and with no transition (the attachment kept in COLOR_ATTACHMENT_OPTIMAL)",
            "no transition: the dependency's second scope NONE chains into nothing, so nothing makes the fill \
             visible to the copy",
            fill_before_transition("COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL", "barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\ncopy sb[0..256] -> out[0..256]\n"),
            &["L12 READ_AFTER_WRITE sb[0..256] after L7"],
        ),
        (
            "...and with a barrier whose first scope names stages",
            "a layout transition is in no stage: only a first scope holding every stage holds it",
            fill_before_transition("UNDEFINED->GENERAL", "barrier COLOR_ATTACHMENT_OUTPUT:NONE -> COPY:TRANSFER_READ\ncopy sb[0..256] -> out[0..256]\n"),
            &["L8 WRITE_AFTER_WRITE col[COLOR:0:0] after L8", "L9 WRITE_AFTER_WRITE col[COLOR:0:0] after L8", "L11 READ_AFTER_WRITE sb[0..256] after L6"],
        ),
        (
            "...and a later instance's dependency from EXTERNAL with ALL_COMMANDS",
            "that dependency's first scope holds every command before its begin, the first instance's \
             transition too: the fill is visible to the draw",
            fill_before_transition(
                "UNDEFINED->GENERAL",
                "render-pass rp2 attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; subpass color 0 GENERAL ; \
                 dependency EXTERNAL->0 ALL_COMMANDS:NONE -> FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\n\
                 begin-render-pass rp2 col COLOR:0:0\n\
                 draw vertexCount=1 fs read sb[0..256]\n\
                 end-render-pass\n",
            ),
            &["L8 WRITE_AFTER_WRITE col[COLOR:0:0] after L8", "L9 WRITE_AFTER_WRITE col[COLOR:0:0] after L8"],
        ),
        (
            "a write made available by EXTERNAL->0, then a dependency EXTERNAL->1 of the same instance",
            "EXTERNAL->1's first scope holds only what came before the begin, not the begin's transition: \
             nothing makes the fill visible to subpass 1's draw",
            "fill sb[0..256] 1\n\
             render-pass rp attachment R8G8B8A8_UNORM DONT_CARE STORE UNDEFINED->GENERAL ; \
             subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass ; \
             dependency EXTERNAL->0 CLEAR:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:NONE ; \
             dependency EXTERNAL->1 ALL_COMMANDS:NONE -> FRAGMENT_SHADER:SHADER_STORAGE_READ\n\
             begin-render-pass rp col COLOR:0:0\n\
             next-subpass\n\
             draw vertexCount=1 fs read sb[0..256]\n\
             end-render-pass\n"
                .to_string(),
            &["L10 READ_AFTER_WRITE sb[0..256] after L6"],
        ),
        (
            "a subpass's write made available by 0->EXTERNAL, then the end's transition, then ALL_COMMANDS",
            "Automatic layout transitions away from the layout used in a subpass happen-after the availability \
             operations for all dependencies with that subpass as the srcSubpass: the write is available \
             before the barrier after the end",
            store_before_transition("GENERAL"),
            &["L10 WRITE_AFTER_WRITE col[COLOR:0:0] after L10"],
        ),
        (
            "...and with no transition at the end",
            "no transition: nothing makes the write visible to the copy",
            store_before_transition("COLOR_ATTACHMENT_OPTIMAL"),
            &["L12 READ_AFTER_WRITE sb[0..256] after L9"],
        ),
        (
            "a write made available by EXTERNAL->0, then the begin's transition, then another EXTERNAL->0's second scope",
            "the transition happens after the first dependency's availability operations and before the \
             second's visibility operations (\"Automatic layout transitions into the layout used in a subpass \
             happen-before the visibility operations for all dependencies with that subpass as the \
             dstSubpass\"), and its own second half orders the draw after it: the fill is available and \
             ordered before the draw's write (review of the fourteenth session: the fast checker reported \
             a write-after-write the definitional semantics did not)",
            "fill sb[0..256] 1\n\
             render-pass rp attachment R8G8B8A8_UNORM DONT_CARE STORE UNDEFINED->GENERAL ; \
             subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency EXTERNAL->0 CLEAR:TRANSFER_WRITE -> NONE:NONE ; \
             dependency EXTERNAL->0 NONE:NONE -> FRAGMENT_SHADER:NONE\n\
             begin-render-pass rp col COLOR:0:0\n\
             draw vertexCount=1 fs write sb[0..256]\n\
             end-render-pass\n"
                .to_string(),
            &[],
        ),
        (
            "...and the read version: another EXTERNAL->0's visibility operation follows the transition",
            "the transition happens before the visibility operations of every dependency into the subpass \
             (\"Automatic layout transitions into the layout used in a subpass happen-before the visibility \
             operations for all dependencies with that subpass as the dstSubpass\"), and after the first \
             dependency's availability operation: the fill is visible to the draw's read (both checkers \
             reported a READ_AFTER_WRITE before; review of the fourteenth session)",
            "fill sb[0..256] 1\n\
             render-pass rp attachment R8G8B8A8_UNORM DONT_CARE STORE UNDEFINED->GENERAL ; \
             subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency EXTERNAL->0 CLEAR:TRANSFER_WRITE -> NONE:NONE ; \
             dependency EXTERNAL->0 NONE:NONE -> FRAGMENT_SHADER:SHADER_STORAGE_READ\n\
             begin-render-pass rp col COLOR:0:0\n\
             draw vertexCount=1 fs read sb[0..256]\n\
             end-render-pass\n"
                .to_string(),
            &[],
        ),
        (
            "...a barrier's ALL_COMMANDS second scope before the begin, then the transition, then EXTERNAL->0",
            "the barrier's second scope holds the later transition (\"Layout transitions and \
             ALL_COMMANDS\"), which happens before EXTERNAL->0's visibility operation: the fill is visible \
             to the draw although the dependency's first scope is NONE",
            "fill sb[0..256] 1\n\
             barrier CLEAR:TRANSFER_WRITE -> ALL_COMMANDS:NONE\n\
             render-pass rp attachment R8G8B8A8_UNORM DONT_CARE STORE UNDEFINED->GENERAL ; \
             subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; \
             dependency EXTERNAL->0 NONE:NONE -> FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE\n\
             begin-render-pass rp col COLOR:0:0\n\
             draw vertexCount=1 fs read sb[0..256]\n\
             end-render-pass\n"
                .to_string(),
            &[],
        ),
        (
            "...and with no transition (the attachment kept in its layout): nothing orders the fill before the read",
            "no transition: the dependency's first scope NONE holds nothing, so its visibility operation \
             follows nothing",
            format!(
                "{TO_ATT}\
                 fill sb[0..256] 1\n\
                 barrier CLEAR:TRANSFER_WRITE -> ALL_COMMANDS:NONE\n\
                 render-pass rp attachment R8G8B8A8_UNORM LOAD STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; \
                 subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; \
                 dependency EXTERNAL->0 NONE:NONE -> FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\n\
                 begin-render-pass rp col COLOR:0:0\n\
                 draw vertexCount=1 fs read sb[0..256]\n\
                 end-render-pass\n"
            ),
            &[
                "L10 READ_AFTER_WRITE col[COLOR:0:0] after L6",
                "L11 READ_AFTER_WRITE sb[0..256] after L7",
            ],
        ),
        (
            "...and between subpasses: a write made available by 0->1, then the transition at subpass 1",
            "as above, with the layout change between the uses in subpasses 0 and 1",
            format!(
                "{TO_ATT}\
                 render-pass rp attachment R8G8B8A8_UNORM LOAD STORE COLOR_ATTACHMENT_OPTIMAL->GENERAL ; \
                 subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 GENERAL ; \
                 dependency EXTERNAL->0 COLOR_ATTACHMENT_OUTPUT:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE ; \
                 dependency 0->1 FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> NONE:NONE ; \
                 dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\n\
                 begin-render-pass rp col COLOR:0:0\n\
                 draw vertexCount=1 fs write sb[0..256]\n\
                 next-subpass\n\
                 draw vertexCount=1 fs write sb[0..256]\n\
                 end-render-pass\n"
            ),
            &[],
        ),
        (
            "a dependency placed before the transition's boundary orders nothing through it",
            "0->1 is one whose availability operations the transition at subpass 2 happens after, but the \
             model places it at subpass 1's begin and leaves it out of that transition (a false alarm, never \
             a missed race; tests/open-defects/README.md)",
            format!(
                "{TO_ATT}\
                 render-pass rp attachment R8G8B8A8_UNORM LOAD STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; \
                 subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass ; subpass color 0 GENERAL ; \
                 dependency EXTERNAL->0 COLOR_ATTACHMENT_OUTPUT:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE ; \
                 dependency 0->1 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_WRITE|COLOR_ATTACHMENT_WRITE -> NONE:NONE ; \
                 dependency 2->EXTERNAL COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> NONE:NONE\n\
                 begin-render-pass rp col COLOR:0:0\n\
                 draw vertexCount=3 fs write sb[0..256]\n\
                 next-subpass\n\
                 next-subpass\n\
                 end-render-pass\n\
                 barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\n\
                 copy sb[0..256] -> out[0..256]\n"
            ),
            &[
                "L12 WRITE_AFTER_READ col[COLOR:0:0] after L8",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L9",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L11",
                "L12 WRITE_AFTER_READ col[COLOR:0:0] after L8",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L9",
                "L14 READ_AFTER_WRITE sb[0..256] after L9",
            ],
        ),
        (
            "65 dependencies: the 65th, from EXTERNAL, is none the end's transition follows",
            "the end's transition happens after the availability operations of the dependencies from subpass \
             0 only; EXTERNAL->0 (index 64) is not one, and its second scope NONE orders the fill before \
             nothing: the copy races it (review of the fourteenth session: the definitional semantics \
             shifted a 64-bit mask by 64, panicking in debug builds and missing this race in release ones)",
            format!(
                "{TO_ATT}\
                 fill sb[0..256] 1\n\
                 render-pass rp attachment R8G8B8A8_UNORM LOAD STORE COLOR_ATTACHMENT_OPTIMAL->GENERAL ; \
                 subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency 0->EXTERNAL FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> NONE:NONE ; \
                 DEPS63 ; dependency EXTERNAL->0 CLEAR:TRANSFER_WRITE -> NONE:NONE\n\
                 begin-render-pass rp col COLOR:0:0\n\
                 end-render-pass\n\
                 barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\n\
                 copy sb[0..256] -> out[0..256]\n"
            )
            .replace("DEPS63", &["dependency 0->EXTERNAL COLOR_ATTACHMENT_OUTPUT:NONE -> NONE:NONE"; 63].join(" ; ")),
            &[
                "L9 READ_AFTER_WRITE col[COLOR:0:0] after L6",
                "L10 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
                "L12 READ_AFTER_WRITE sb[0..256] after L7",
            ],
        ),
        (
            "a read a transition's barrier ordered before it, then ALL_COMMANDS in a dependency between subpasses",
            "a subpass dependency's first scope is the commands of its srcSubpass: it holds no layout transition \
             made before the instance, so nothing orders the copy, nor the transition, before subpass 1's draw \
             (a review of the chain through a performed transition: the fast checker missed the write-after-read)",
            past_transition(""),
            &[
                "L12 WRITE_AFTER_READ sb[0..64] after L7",
                "L12 WRITE_AFTER_WRITE sb[0..64] after L8",
            ],
        ),
        (
            "...and with an ALL_COMMANDS barrier before the begin",
            "ALL_COMMANDS holds the earlier transition, which happens after its barrier's first scope (the \
             copy): both are ordered before the draw, the transition's write made visible to it",
            past_transition("barrier ALL_COMMANDS:NONE -> FRAGMENT_SHADER:SHADER_WRITE\n"),
            &[],
        ),
        (
            "reads of seven instances ordered into incomparable stages, all chained before a fill",
            "Execution Dependency Chains: each instance's 0->EXTERNAL dependency orders its reads before the \
             later work of its destination stage, and a barrier whose first scope names that stage extends \
             the chain to the fill (VK_SUBPASS_EXTERNAL as dstSubpass: the commands after the end); the fast \
             checker keeps every such read apart rather than folding two (review10's fold-false-alarm)",
            SEVEN_INSTANCES.replace("{SRC}", "BLIT|COPY|RESOLVE|COMPUTE_SHADER"),
            &[],
        ),
        (
            "reads of seven instances ordered into incomparable stages, one chain left out",
            "Execution Dependency Chains: without RESOLVE in the final barrier's first scope, nothing orders \
             rp2's reads (ordered into RESOLVE only) before the fill",
            SEVEN_INSTANCES.replace("{SRC}", "BLIT|COPY|COMPUTE_SHADER"),
            // rp2's reads per stage (index, vertex attributes, shaders)
            // and the bytes each covers.
            &[
                "L36 WRITE_AFTER_READ sb[0..12] after L21",
                "L36 WRITE_AFTER_READ sb[0..12] after L21",
                "L36 WRITE_AFTER_READ sb[0..12] after L21",
                "L36 WRITE_AFTER_READ sb[0..12] after L21",
                "L36 WRITE_AFTER_READ sb[12..20] after L21",
                "L36 WRITE_AFTER_READ sb[12..20] after L21",
                "L36 WRITE_AFTER_READ sb[12..20] after L21",
                "L36 WRITE_AFTER_READ sb[20..256] after L21",
                "L36 WRITE_AFTER_READ sb[20..256] after L21",
                "L36 WRITE_AFTER_READ sb[20..256] after L21",
            ],
        ),
        (
            "a NONE store after a draw wrote the attachment is a write (review15's missed race)",
            "VK_ATTACHMENT_STORE_OP_NONE: \"If values are written during the render pass, this behaves \
             identically to VK_ATTACHMENT_STORE_OP_DONT_CARE and with matching access semantics\": a \
             COLOR_ATTACHMENT_WRITE at the end no dependency makes available, so the copy after an \
             ALL_COMMANDS:NONE barrier reads it unsynchronized",
            "image lone R8G8B8A8_UNORM 4x4 initial GENERAL\n\
             render-pass rp1 attachment R8G8B8A8_UNORM NONE NONE GENERAL->GENERAL ; subpass color 0 GENERAL\n\
             begin-render-pass rp1 lone COLOR:0:0\ndraw vertexCount=3\nend-render-pass\n\
             barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\n\
             copy-image-to-buffer lone GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1\n"
                .to_string(),
            &["L12 READ_AFTER_WRITE lone[COLOR:0:0] after L10"],
        ),
        (
            "a NONE store of an attachment no command wrote makes no access: clean",
            "VK_ATTACHMENT_STORE_OP_NONE: the contents \"are not accessed by the store operation as long as \
             no values are written to the attachment during the render pass\"",
            "image lone R8G8B8A8_UNORM 4x4 initial GENERAL\n\
             render-pass rp1 attachment R8G8B8A8_UNORM NONE NONE GENERAL->GENERAL ; subpass color 0 GENERAL\n\
             begin-render-pass rp1 lone COLOR:0:0\ndraw vertexCount=3 no-color-write\nend-render-pass\n\
             barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ\n\
             copy-image-to-buffer lone GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1\n"
                .to_string(),
            &[],
        ),
        (
            "a transition's first set: one dependency's stage and another's access do not make a write available (review15)",
            "Automatic layout transitions into finalLayout \"happen-after the availability operations for all \
             dependencies with that subpass as the srcSubpass\"; an availability operation covers the writes \
             in its own dependency's first access scope: LATE_FRAGMENT_TESTS:NONE and \
             EARLY_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE leave the store's LATE_FRAGMENT_TESTS write \
             unavailable (the unioned masks held it)",
            depth_pass(
                "DEPTH_READ_ONLY_OPTIMAL",
                &[
                    "dependency 0->EXTERNAL LATE_FRAGMENT_TESTS:NONE -> NONE:NONE",
                    "dependency 0->EXTERNAL EARLY_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE -> NONE:NONE",
                ],
            ),
            &["L9 WRITE_AFTER_WRITE dz[DEPTH:0:0] after L9"],
        ),
        (
            "a transition's first set: one dependency with the store's stage and access makes it available",
            "the same with LATE_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE in one dependency: clean",
            depth_pass(
                "DEPTH_READ_ONLY_OPTIMAL",
                &[
                    "dependency 0->EXTERNAL LATE_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE -> NONE:NONE",
                    "dependency 0->EXTERNAL EARLY_FRAGMENT_TESTS:NONE -> NONE:NONE",
                ],
            ),
            &[],
        ),
        (
            "a transition's second set: one dependency's stage and another's access do not make its write visible (review15)",
            "Automatic layout transitions into the layout used in a subpass \"happen-before the visibility \
             operations for all dependencies with that subpass as the dstSubpass\"; a visibility operation \
             covers its own dependency's second access scope: EARLY_FRAGMENT_TESTS:NONE and \
             LATE_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_READ leave the load's EARLY_FRAGMENT_TESTS read \
             unsynchronized with the transition (the unioned masks held it)",
            depth_pass(
                "DEPTH_ATTACHMENT_OPTIMAL",
                &[
                    "dependency EXTERNAL->0 NONE:NONE -> EARLY_FRAGMENT_TESTS:NONE",
                    "dependency EXTERNAL->0 NONE:NONE -> LATE_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_READ",
                    "dependency 0->EXTERNAL LATE_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE -> NONE:NONE",
                ],
            ),
            &["L8 READ_AFTER_WRITE dz[DEPTH:0:0] after L8"],
        ),
        (
            "a transition's second set: one dependency with the load's stage and access makes its write visible",
            "the same with EARLY_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_READ in one dependency: clean",
            depth_pass(
                "DEPTH_ATTACHMENT_OPTIMAL",
                &[
                    "dependency EXTERNAL->0 NONE:NONE -> LATE_FRAGMENT_TESTS:NONE",
                    "dependency EXTERNAL->0 NONE:NONE -> EARLY_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_READ",
                    "dependency 0->EXTERNAL LATE_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE -> NONE:NONE",
                ],
            ),
            &[],
        ),
        (
            "a recorded barrier's transition after a pass chains through EXTERNAL->0 into subpass 0 (review15)",
            "Execution Dependencies: a chain exists \"if the intersection of Scope2nd in the first dependency \
             and Scope1st in the second dependency is not an empty set\": EXTERNAL->0 orders the copy before \
             subpass 0's fragment shading, which the barrier's FRAGMENT_SHADER first scope holds, so the \
             copy's read is ordered before the barrier's transition (the fast checker looked at what the \
             value's own chain held, not what the ended subpass's dependency ordered, for a transition only: \
             a false WRITE_AFTER_READ); the pass's own transitions stay unordered with the copy",
            "image cz R8G8B8A8_UNORM 4x4 initial TRANSFER_SRC_OPTIMAL\n\
             render-pass rpc attachment R8G8B8A8_UNORM NONE NONE TRANSFER_SRC_OPTIMAL->TRANSFER_DST_OPTIMAL ; subpass ; \
             subpass color 0 GENERAL ; dependency EXTERNAL->0 COPY:NONE -> FRAGMENT_SHADER:NONE\n\
             copy-image-to-buffer cz TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1\n\
             begin-render-pass rpc cz COLOR:0:0\ndraw vertexCount=3 fs read sb[0..4]\nnext-subpass\nend-render-pass\n\
             barrier FRAGMENT_SHADER:NONE -> NONE:NONE cz COLOR:0:0 TRANSFER_DST_OPTIMAL->TRANSFER_SRC_OPTIMAL\n"
                .to_string(),
            &["L11 WRITE_AFTER_READ cz[COLOR:0:0] after L8", "L12 WRITE_AFTER_READ cz[COLOR:0:0] after L8"],
        ),
        (
            "a by-region dependency's TOP_OF_PIPE second scope grants no access (review15)",
            "VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT \"is equivalent to VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT with \
             VkAccessFlags2 set to 0 when specified in the second synchronization scope\": \
             -> TOP_OF_PIPE:MEMORY_READ makes the begin's transition visible to nothing, so the depth \
             load reads it unsynchronized (the by-region split had named every stage and given them \
             MEMORY_READ, a missed race in the definitional semantics)",
            depth_pass(
                "TRANSFER_SRC_OPTIMAL",
                &[
                    "dependency EXTERNAL->0 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ -> TOP_OF_PIPE:MEMORY_READ by-region",
                ],
            ),
            &["L8 READ_AFTER_WRITE dz[DEPTH:0:0] after L8"],
        ),
        (
            "a by-region dependency's BOTTOM_OF_PIPE first scope makes nothing available (review15)",
            "BOTTOM_OF_PIPE in a first scope is ALL_COMMANDS with no access: BOTTOM_OF_PIPE|CLEAR:TRANSFER_WRITE \
             orders the copy but makes only CLEAR's writes available, so the copy's write races the begin's \
             transition, its load and its store (the definitional semantics said clean)",
            "image cb R8G8B8A8_UNORM 4x4 initial TRANSFER_DST_OPTIMAL\n\
             render-pass rpb attachment R8G8B8A8_UNORM LOAD STORE TRANSFER_DST_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; \
             subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency EXTERNAL->0 BOTTOM_OF_PIPE|CLEAR:TRANSFER_WRITE -> \
             COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE by-region\n\
             copy-buffer-to-image out -> cb TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=4,4,1\n\
             begin-render-pass rpb cb COLOR:0:0\nend-render-pass\n"
                .to_string(),
            &[
                "L9 WRITE_AFTER_WRITE cb[COLOR:0:0] after L8",
                "L9 READ_AFTER_WRITE cb[COLOR:0:0] after L8",
                "L10 WRITE_AFTER_WRITE cb[COLOR:0:0] after L8",
            ],
        ),
        (
            "a stencil NONE store writes when the depth aspect was written (review16)",
            "VK_ATTACHMENT_STORE_OP_NONE: the contents are not accessed \"as long as no values are written to \
             the attachment during the render pass\": the attachment is both aspects, so the depth CLEAR \
             makes the stencil NONE store a write, as DONT_CARE's, which the copy of the stencil reads \
             unsynchronized (LATE_FRAGMENT_TESTS:NONE makes nothing available)",
            "image ds D24_UNORM_S8_UINT 4x4 initial GENERAL\n\
             render-pass rps attachment D24_UNORM_S8_UINT CLEAR STORE stencil LOAD NONE GENERAL->GENERAL ; \
             subpass depth 0 GENERAL ; dependency 0->EXTERNAL LATE_FRAGMENT_TESTS:NONE -> COPY:NONE\n\
             begin-render-pass rps ds DEPTH|STENCIL:0:0\nend-render-pass\n\
             copy-image-to-buffer ds GENERAL -> out imageSubresource=STENCIL:0:0 imageExtent=4,4,1\n"
                .to_string(),
            &["L10 READ_AFTER_WRITE ds[STENCIL:0:0] after L9"],
        ),
        (
            "an execution-only dependency between subpasses makes no color write available (review16)",
            "Rasterization Order holds \"within a subpass of a render pass instance\", and the store operation \
             happens-after the accesses \"in the last subpass where the attachment is used\": nothing implicit \
             ends subpass 0 for an attachment subpass 1 uses again, so only the subpass dependency orders \
             subpass 0's write, and COLOR_ATTACHMENT_OUTPUT:NONE makes nothing available (\"read-after-write and \
             write-after-write hazards need appropriate memory dependencies\"): the blend reads and writes, and \
             the store writes, unsynchronized",
            blend_after_subpass_0("COLOR_ATTACHMENT_OUTPUT:NONE -> COLOR_ATTACHMENT_OUTPUT:NONE"),
            &[
                "L11 READ_AFTER_WRITE col[COLOR:0:0] after L9",
                "L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L9",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L9",
            ],
        ),
        (
            "the color write in the dependency's first access scope, the blend in its second: clean (review16)",
            "Subpass Dependencies: the first access scope holds subpass 0's color write, the second subpass \
             1's blend read and write; the store operation is then ordered by subpass 1's own guarantees",
            blend_after_subpass_0(
                "COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> \
                 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE",
            ),
            &[],
        ),
        (
            "an execution-only dependency orders a read of subpass 0 before a write of subpass 1: clean",
            "\"Write-after-read hazards can be solved with just an execution dependency\": subpass 0 reads \
             the attachment as an input (after its LOAD), subpass 1 writes it as a color attachment",
            "render-pass rp attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; subpass input 0 GENERAL ; \
             subpass color 0 GENERAL ; dependency 0->1 FRAGMENT_SHADER:NONE -> COLOR_ATTACHMENT_OUTPUT:NONE\n\
             barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ col COLOR:0:0 UNDEFINED->GENERAL\n\
             begin-render-pass rp col COLOR:0:0\ndraw vertexCount=3\nnext-subpass\ndraw vertexCount=3\n\
             end-render-pass\n"
                .to_string(),
            &[],
        ),
        (
            "deferred shading without a dependency",
            "Input attachments are read by the fragment shader in FRAGMENT_SHADER with INPUT_ATTACHMENT_READ \
             (vk.xml <syncsupport> of INPUT_ATTACHMENT_READ); without a subpass dependency nothing orders \
             subpass 0's color write before subpass 1's read, nor before the NONE store at the end of \
             subpass 1, which writes since the attachment was written (VkAttachmentStoreOp)",
            deferred("NONE", ""),
            &[
                "L10 READ_AFTER_WRITE col[COLOR:0:0] after L8",
                "L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L8",
            ],
        ),
        (
            "deferred shading with a color-write to input-read dependency",
            "Subpass Dependencies: the dependency's first access scope holds subpass 0's color writes, its \
             second subpass 1's input attachment reads",
            deferred("NONE", GBUFFER_DEP),
            &[],
        ),
        (
            "deferred shading storing the input attachment after its read",
            "The store operation happens-after every command of the last subpass that uses the attachment \
             (here as an input), and the dependency chains into it",
            deferred("STORE", GBUFFER_DEP),
            &[],
        ),
        (
            "deferred shading with a dependency into the wrong access",
            "A dependency whose second access scope holds the fragment shader's sampled reads does not make \
             the color write visible to an input attachment read",
            deferred(
                "NONE",
                " ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:SHADER_SAMPLED_READ by-region",
            ),
            &["L10 READ_AFTER_WRITE col[COLOR:0:0] after L8"],
        ),
        (
            "a by-region dependency does not order a sampled read of an earlier subpass's attachment",
            "A framebuffer-local dependency orders each fragment after the same pixel's fragments only; a \
             sampled read may read any texel of the image (the twenty-eighth session's open defect)",
            "barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col COLOR:0:0 UNDEFINED->GENERAL ; \
             NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE res COLOR:0:0 UNDEFINED->GENERAL\n\
             render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; \
             attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; subpass color 0 GENERAL ; subpass color 1 GENERAL ; \
             dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:SHADER_SAMPLED_READ by-region\n\
             begin-render-pass rp col COLOR:0:0 ; res COLOR:0:0\n\
             draw vertexCount=3\n\
             next-subpass\n\
             draw vertexCount=3 fs sampled-image col COLOR:0:0 GENERAL\n\
             end-render-pass"
                .to_string(),
            &["L11 READ_AFTER_WRITE col[COLOR:0:0] after L10"],
        ),
        (
            "deferred shading storing the input attachment, with a dependency into the wrong access",
            "The store operation after the read orders nothing into the read: the write stays invisible to it",
            deferred(
                "STORE",
                " ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:SHADER_SAMPLED_READ by-region",
            ),
            &["L10 READ_AFTER_WRITE col[COLOR:0:0] after L8"],
        ),
        (
            "an input attachment cleared by its load operation in the subpass that reads it",
            "The load operation for each sample in an attachment happens-before any recorded command which \
             accesses the sample in the first subpass where the attachment is used (as an input here; the \
             clear writes in COLOR_ATTACHMENT_OUTPUT, its format's stage)",
            "render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; \
             attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass input 0 GENERAL color 1 GENERAL\n\
             begin-render-pass rp col COLOR:0:0 ; res COLOR:0:0\n\
             draw vertexCount=3\n\
             draw vertexCount=3\n\
             end-render-pass\n\
             copy-image-to-buffer col GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1\n"
                .to_string(),
            // The copy after the pass is ordered by nothing (the implicit
            // dependency to EXTERNAL has an empty second scope).
            &["L11 READ_AFTER_WRITE col[COLOR:0:0] after L10"],
        ),
        (
            "no dependency between subpasses",
            "Subpass Dependencies: without a dependency, commands of two subpasses are not ordered (a subpass \
             dependency's first synchronization scope holds the commands of srcSubpass, its second those of dstSubpass)",
            two_subpasses(att, "COLOR_ATTACHMENT_OPTIMAL", ""),
            // Subpass 1's draw and store also race subpass 0's color
            // write: no dependency here holds the color accesses (an
            // instance's implicit dependencies order its own accesses
            // only, and each subpass is one).
            &["L11 READ_AFTER_WRITE sb[0..256] after L9", "L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L9", "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L9"],
        ),
        (
            "a dependency 0->1 orders the storage write before the read",
            "If srcSubpass and dstSubpass are subpasses, the dependency orders the commands of srcSubpass before \
             those of dstSubpass (synchronization and access scopes as in a pipeline barrier)",
            two_subpasses(att, "COLOR_ATTACHMENT_OPTIMAL", storage_dep),
            // Subpass 1's draw and store also race subpass 0's color
            // write: no dependency here holds the color accesses (an
            // instance's implicit dependencies order its own accesses
            // only, and each subpass is one).
            &["L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L9", "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L9"],
        ),
        (
            "a BY_REGION dependency does not order bytes outside the attachments",
            "If dependencyFlags includes VK_DEPENDENCY_BY_REGION_BIT, then any dependency between framebuffer-space \
             pipeline stages is framebuffer-local: the model orders the attachments' bytes only",
            two_subpasses(att, "COLOR_ATTACHMENT_OPTIMAL", &format!("{storage_dep} by-region")),
            // Subpass 1's draw and store also race subpass 0's color
            // write: no dependency here holds the color accesses (an
            // instance's implicit dependencies order its own accesses
            // only, and each subpass is one).
            &["L11 READ_AFTER_WRITE sb[0..256] after L9", "L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L9", "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L9"],
        ),
        (
            // A review's minimal trace: naming a vertex stage beside the
            // fragment shader used to make the whole dependency global.
            "a BY_REGION dependency that also names a vertex stage is framebuffer-local between its fragment stages",
            "If dependencyFlags includes VK_DEPENDENCY_BY_REGION_BIT, then any dependency between framebuffer-space \
             pipeline stages is framebuffer-local (the vertex-stage part is framebuffer-global)",
            two_subpasses(
                att,
                "COLOR_ATTACHMENT_OPTIMAL",
                " ; dependency 0->1 VERTEX_SHADER|FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ by-region",
            ),
            &["L11 READ_AFTER_WRITE sb[0..256] after L9", "L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L9", "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L9"],
        ),
        (
            "ALL_GRAPHICS in a BY_REGION dependency names framebuffer-space stages too",
            "Meta stages expanded: ALL_GRAPHICS holds the fragment stages, whose dependency is framebuffer-local",
            two_subpasses(
                att,
                "COLOR_ATTACHMENT_OPTIMAL",
                " ; dependency 0->1 ALL_GRAPHICS:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ by-region",
            ),
            // (The color writes are ordered by execution here: ALL_GRAPHICS
            // holds COLOR_ATTACHMENT_OUTPUT, as `FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT`
            // would; but its access mask names no color write, and nothing
            // at subpass 0's end makes one available (rasterization order is
            // "within a subpass"; review16), so subpass 1's draw and the store
            // race it. Before the split this program had no hazard at all.)
            &[
                "L11 READ_AFTER_WRITE sb[0..256] after L9",
                "L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L9",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L9",
            ],
        ),
        (
            "a layout change between subpasses whose dependency misses the color writes",
            "Automatic layout transitions away from the layout used in a subpass happen-after the availability \
             operations for all dependencies with that subpass as the srcSubpass (here one for the storage writes only)",
            two_subpasses(("COLOR_ATTACHMENT_OPTIMAL", "GENERAL"), "GENERAL", storage_dep),
            // The dependency's first scope (FRAGMENT_SHADER and earlier)
            // misses the color writes; its second scope reaches the next
            // subpass's color writes, and the transition is made available.
            // Subpass 1's draw and store also race subpass 0's color
            // write: no dependency here holds the color accesses (an
            // instance's implicit dependencies order its own accesses
            // only, and each subpass is one).
            &["L10 WRITE_AFTER_WRITE col[COLOR:0:0] after L9", "L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L9", "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L9"],
        ),
        (
            "a BY_REGION dependency orders the layout change between subpasses",
            "The transition is part of the dependency; a framebuffer-local dependency orders the attachment's own \
             pixels, which are all the transition touches",
            two_subpasses(
                ("COLOR_ATTACHMENT_OPTIMAL", "GENERAL"),
                "GENERAL",
                " ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT|FRAGMENT_SHADER:COLOR_ATTACHMENT_WRITE|SHADER_STORAGE_WRITE -> \
                 COLOR_ATTACHMENT_OUTPUT|FRAGMENT_SHADER:COLOR_ATTACHMENT_WRITE|SHADER_STORAGE_READ",
            ),
            &[],
        ),
        (
            "the transition to finalLayout with the implicit dependency, then a copy",
            "If there is no subpass dependency from the last subpass that uses an attachment to VK_SUBPASS_EXTERNAL, \
             an implicit one exists (ALL_COMMANDS:COLOR_ATTACHMENT_WRITE|DEPTH_STENCIL_ATTACHMENT_WRITE -> NONE): \
             nothing after the render pass is ordered after the transition",
            format!(
                "{}copy-image-to-buffer col TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1\n",
                two_subpasses(att, "TRANSFER_SRC_OPTIMAL", storage_dep)
            ),
            // Subpass 1's draw and store also race subpass 0's color
            // write: no dependency here holds the color accesses (an
            // instance's implicit dependencies order its own accesses
            // only, and each subpass is one).
            // The implicit dependency's first scope is subpass 1: the
            // transition (the second L12) races subpass 0's color write too.
            &["L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L9", "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L9", "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L9", "L13 READ_AFTER_WRITE col[COLOR:0:0] after L9", "L13 READ_AFTER_WRITE col[COLOR:0:0] after L12", "L13 READ_AFTER_WRITE col[COLOR:0:0] after L12"],
        ),
        (
            "the transition to finalLayout with a dependency 1->EXTERNAL to the copy",
            "Automatic layout transitions into finalLayout happen-before the visibility operations for all \
             dependencies with a dstSubpass equal to VK_SUBPASS_EXTERNAL",
            format!(
                "{}copy-image-to-buffer col TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1\n",
                two_subpasses(
                    att,
                    "TRANSFER_SRC_OPTIMAL",
                    &format!("{storage_dep} ; dependency 1->EXTERNAL COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COPY:TRANSFER_READ")
                )
            ),
            // Subpass 1's draw and store also race subpass 0's color
            // write: no dependency here holds the color accesses (an
            // instance's implicit dependencies order its own accesses
            // only, and each subpass is one).
            // The copy is ordered after the transition and subpass 1; the
            // dependency's first scope is subpass 1 only, and the storage
            // dependency 0->1 does not hold subpass 0's color write
            // (COLOR_ATTACHMENT_OUTPUT is not logically earlier than
            // FRAGMENT_SHADER), so the transition and the copy race it.
            &["L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L9", "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L9", "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L9", "L13 READ_AFTER_WRITE col[COLOR:0:0] after L9"],
        ),
        (
            "a load after an earlier instance's store, no external dependency",
            "If srcSubpass is VK_SUBPASS_EXTERNAL, the first synchronization scope includes commands earlier in \
             submission order than vkCmdBeginRenderPass; without one nothing orders them before the load operation",
            reload(""),
            &["L11 READ_AFTER_WRITE col[COLOR:0:0] after L10"],
        ),
        (
            "a load after an earlier instance's store, with EXTERNAL->0",
            "The load operation is in the second scope of a dependency from VK_SUBPASS_EXTERNAL to the first subpass \
             that uses the attachment (any load operations on attachments used in dstSubpass)",
            reload(" ; dependency EXTERNAL->0 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ"),
            &[],
        ),
        (
            "the transition from initialLayout with the implicit dependency",
            "If there is no subpass dependency from VK_SUBPASS_EXTERNAL to the first subpass that uses an attachment, \
             an implicit one exists with srcStageMask NONE: the transition is ordered after nothing earlier",
            format!(
                "render-pass rp {COLOR_KEPT} ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL\n\
                 render-pass rp2 attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->COLOR_ATTACHMENT_OPTIMAL ; \
                 subpass color 0 GENERAL\n\
                 {TO_ATT}\
                 begin-render-pass rp col COLOR:0:0\n\
                 end-render-pass\n\
                 begin-render-pass rp2 col COLOR:0:0\n\
                 end-render-pass\n"
            ),
            // The transition and the clear load op, both after the store;
            // `rp2`'s store (its own instance's implicit dependencies do not
            // order `rp`'s store before it) and its transition to
            // finalLayout (the implicit dependency's first scope is `rp2`'s
            // subpass).
            &[
                "L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
                "L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
                "L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L10",
            ],
        ),
        (
            "a resolve at the end of the subpass, read by a copy",
            "Multisample resolve operations execute in COLOR_ATTACHMENT_OUTPUT at the end of the subpass: a later \
             copy needs a dependency from them",
            format!(
                "render-pass rp {COLOR_KEPT} ; attachment R8G8B8A8_UNORM DONT_CARE STORE \
                 GENERAL->GENERAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL resolve 1 GENERAL\n\
                 {TO_ATT}\
                 barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE res COLOR:0:0 UNDEFINED->GENERAL\n\
                 begin-render-pass rp col COLOR:0:0 ; res COLOR:0:0\n\
                 draw vertexCount=3\n\
                 end-render-pass\n\
                 copy-image-to-buffer res GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1\n"
            ),
            &["L12 READ_AFTER_WRITE res[COLOR:0:0] after L11"],
        ),
        (
            "EXTERNAL->0 does not order subpass 1's load operation",
            "If dstSubpass is a subpass, the second set of commands includes all commands submitted as part of the \
             subpass instance identified by dstSubpass and any load, store, and multisample resolve operations on \
             attachments used in dstSubpass: `col` is loaded in subpass 1, which EXTERNAL->0 does not name",
            load_in_subpass_1(
                " ; dependency EXTERNAL->0 COPY:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE",
                "",
            ),
            // The load (a read) and the store (a write) of `col` in
            // subpass 1, after the copy.
            &["L10 READ_AFTER_WRITE col[COLOR:0:0] after L7", "L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L7"],
        ),
        (
            "EXTERNAL->0 then 0->1 orders the copy before subpass 1's load (a chain)",
            "An execution dependency chain: the second scope of EXTERNAL->0 (subpass 0's color stage) meets the first \
             scope of 0->1, and the copy's write, made available by the first, is made visible by the second",
            load_in_subpass_1(
                " ; dependency EXTERNAL->0 COPY:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE \
                 ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE",
                "",
            ),
            &[],
        ),
        (
            "a barrier before the pass orders the copy before subpass 1's load",
            "A pipeline barrier's second scope includes all commands that occur later in submission order",
            load_in_subpass_1(
                "",
                "barrier COPY:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE\n",
            ),
            &[],
        ),
        (
            "0->1 does not order a write before the pass",
            "If srcSubpass is a subpass, the first set of commands includes all commands submitted as part of that \
             subpass instance: the copy before the pass is in it only through a chain, and nothing orders it before \
             subpass 0",
            load_in_subpass_1(
                " ; dependency 0->1 ALL_COMMANDS:MEMORY_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE",
                "",
            ),
            &["L10 READ_AFTER_WRITE col[COLOR:0:0] after L7", "L11 WRITE_AFTER_WRITE col[COLOR:0:0] after L7"],
        ),
        (
            "1->EXTERNAL does not order subpass 0's store operation",
            "If srcSubpass is a subpass, the first set of commands includes all commands submitted as part of the \
             subpass instance identified by srcSubpass and any load, store, or multisample resolve operations on \
             attachments used in srcSubpass: `col` is stored at the end of subpass 0, which 1->EXTERNAL does not name",
            store_in_subpass_0(
                " ; dependency 1->EXTERNAL COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COPY:TRANSFER_READ",
                "",
            ),
            // The store runs at the end of subpass 0 (line 9).
            &["L11 READ_AFTER_WRITE col[COLOR:0:0] after L9"],
        ),
        (
            "0->1 then 1->EXTERNAL orders subpass 0's store before the copy (a chain)",
            "An execution dependency chain through subpass 1's color stage: the store's write, made available by \
             0->1, is made visible to the copy by 1->EXTERNAL",
            store_in_subpass_0(
                " ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:NONE \
                 ; dependency 1->EXTERNAL COLOR_ATTACHMENT_OUTPUT:NONE -> COPY:TRANSFER_READ",
                "",
            ),
            &[],
        ),
        (
            "EXTERNAL->1 orders the copy before subpass 1's load",
            "If srcSubpass is equal to VK_SUBPASS_EXTERNAL, the first synchronization scope includes commands that \
             occur earlier in submission order than the vkCmdBeginRenderPass; the second holds the commands of \
             dstSubpass and its load operations: `col` is loaded in subpass 1",
            load_in_subpass_1(
                " ; dependency EXTERNAL->1 COPY:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE",
                "",
            ),
            &[],
        ),
        (
            "EXTERNAL->1 does not hold subpass 0's commands",
            "The first synchronization scope of a dependency from VK_SUBPASS_EXTERNAL holds only commands before \
             the vkCmdBeginRenderPass: subpass 0's clear of `res` is not ordered before subpass 1's",
            load_in_subpass_1(
                " ; dependency EXTERNAL->1 ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE \
                 ; dependency EXTERNAL->0 COPY:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE",
                "",
            )
            .replace("subpass color 0 GENERAL ; dependency", "subpass color 0 GENERAL color 1 GENERAL ; dependency"),
            // Subpass 1 uses `res` too now: its draws make none, but its
            // store of `res` (its last use) races subpass 0's clear.
            &["L11 WRITE_AFTER_WRITE res[COLOR:0:0] after L9"],
        ),
        (
            "0->EXTERNAL orders subpass 0's store before the copy",
            "If dstSubpass is equal to VK_SUBPASS_EXTERNAL, the second synchronization scope includes commands that \
             occur later in submission order than the vkCmdEndRenderPass; the first holds srcSubpass's store \
             operations",
            store_in_subpass_0(
                " ; dependency 0->EXTERNAL COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COPY:TRANSFER_READ",
                "",
            ),
            &[],
        ),
        (
            "three subpasses, no dependency: subpass 2 races subpass 0",
            "Without a dependency, commands of two subpasses are not ordered, whatever lies between them",
            three_subpasses(att, "COLOR_ATTACHMENT_OPTIMAL", ""),
            &["L13 READ_AFTER_WRITE sb[0..256] after L10", "L13 WRITE_AFTER_WRITE col[COLOR:0:0] after L10", "L14 WRITE_AFTER_WRITE col[COLOR:0:0] after L10"],
        ),
        (
            "a dependency 0->2 orders subpass 0 before subpass 2",
            "If srcSubpass and dstSubpass are subpasses, the dependency orders the commands of srcSubpass before \
             those of dstSubpass, adjacent or not",
            three_subpasses(
                att,
                "COLOR_ATTACHMENT_OPTIMAL",
                " ; dependency 0->2 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_WRITE|COLOR_ATTACHMENT_WRITE -> \
                 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE",
            ),
            &[],
        ),
        (
            "a dependency 0->1 alone does not order subpass 2",
            "The second synchronization scope of 0->1 holds subpass 1's commands only",
            three_subpasses(
                att,
                "COLOR_ATTACHMENT_OPTIMAL",
                " ; dependency 0->1 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_WRITE|COLOR_ATTACHMENT_WRITE -> \
                 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE",
            ),
            &["L13 READ_AFTER_WRITE sb[0..256] after L10", "L13 WRITE_AFTER_WRITE col[COLOR:0:0] after L10", "L14 WRITE_AFTER_WRITE col[COLOR:0:0] after L10"],
        ),
        (
            "0->1 then 1->2 orders subpass 0 before subpass 2 (a chain)",
            "An execution dependency chain through subpass 1's stages: the writes, made available by 0->1, are made \
             visible by 1->2",
            three_subpasses(
                att,
                "COLOR_ATTACHMENT_OPTIMAL",
                " ; dependency 0->1 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_WRITE|COLOR_ATTACHMENT_WRITE -> \
                 COLOR_ATTACHMENT_OUTPUT:NONE ; dependency 1->2 COLOR_ATTACHMENT_OUTPUT:NONE -> \
                 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE",
            ),
            &[],
        ),
        (
            "a layout change between subpasses 0 and 2 ordered by 0->2",
            "Automatic layout transitions away from the layout used in a subpass happen-after the availability \
             operations for all dependencies with that subpass as the srcSubpass, and into the layout used in a \
             subpass happen-before the visibility operations for all dependencies with that subpass as the dstSubpass",
            three_subpasses(
                ("COLOR_ATTACHMENT_OPTIMAL", "GENERAL"),
                "GENERAL",
                " ; dependency 0->2 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_WRITE|COLOR_ATTACHMENT_WRITE -> \
                 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE",
            ),
            &[],
        ),
        (
            "a layout change between subpasses 0 and 2 with no dependency from 0",
            "With no dependency from subpass 0, the transition away from its layout happens after no availability \
             operation: it races subpass 0's color write, and subpass 2 its storage write",
            three_subpasses(
                ("COLOR_ATTACHMENT_OPTIMAL", "GENERAL"),
                "GENERAL",
                " ; dependency 1->2 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE",
            ),
            // And subpass 2's color write and store race subpass 0's draw.
            &["L12 WRITE_AFTER_WRITE col[COLOR:0:0] after L10", "L13 READ_AFTER_WRITE sb[0..256] after L10", "L13 WRITE_AFTER_WRITE col[COLOR:0:0] after L10", "L14 WRITE_AFTER_WRITE col[COLOR:0:0] after L10"],
        ),
        (
            "the transition to finalLayout after a subpass that is not the last, with 0->EXTERNAL",
            "Automatic layout transitions into finalLayout happen-before the visibility operations for all \
             dependencies with a dstSubpass equal to VK_SUBPASS_EXTERNAL, where srcSubpass uses the attachment",
            store_in_subpass_0(
                " ; dependency 0->EXTERNAL COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COPY:TRANSFER_READ",
                "",
            )
            .replace("LOAD STORE GENERAL->GENERAL", "LOAD STORE GENERAL->TRANSFER_SRC_OPTIMAL")
            .replace("col GENERAL -> out", "col TRANSFER_SRC_OPTIMAL -> out"),
            &[],
        ),
        (
            "the transition to finalLayout after a subpass that is not the last, implicit dependency",
            "If there is no subpass dependency from the last subpass that uses an attachment to VK_SUBPASS_EXTERNAL, \
             an implicit one exists with dstStageMask NONE: the copy is ordered after neither the store nor the \
             transition",
            store_in_subpass_0("", "")
                .replace("LOAD STORE GENERAL->GENERAL", "LOAD STORE GENERAL->TRANSFER_SRC_OPTIMAL")
                .replace("col GENERAL -> out", "col TRANSFER_SRC_OPTIMAL -> out"),
            &["L11 READ_AFTER_WRITE col[COLOR:0:0] after L9", "L11 READ_AFTER_WRITE col[COLOR:0:0] after L10"],
        ),
        (
            "five subpasses: 1->4 and 4->EXTERNAL order subpass 1's write, not subpass 0's",
            "The first synchronization scope of 1->4 holds subpass 1's commands only, and 4->EXTERNAL's subpass \
             4's: subpass 0's write is ordered before neither subpass 4's read nor the copy; subpass 1's is, through \
             the chain 1->4 then 4->EXTERNAL",
            five_subpasses(
                " ; dependency 1->4 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_WRITE|COLOR_ATTACHMENT_WRITE -> \
                 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE \
                 ; dependency 4->EXTERNAL FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> COPY:TRANSFER_READ",
            ),
            &["L15 READ_AFTER_WRITE sb[0..128] after L9", "L17 READ_AFTER_WRITE sb[0..128] after L9"],
        ),
        (
            "a barrier after the pass orders subpass 0's store before the copy",
            "A pipeline barrier's first scope includes all commands that occur earlier in submission order",
            store_in_subpass_0(
                "",
                "barrier COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COPY:TRANSFER_READ\n",
            ),
            &[],
        ),
        (
            "clear-attachments between draws of a subpass",
            "Unlike other clear commands, vkCmdClearAttachments is not a transfer command. It performs its \
             operations in rasterization order",
            format!(
                "render-pass rp {COLOR_KEPT} ; attachment D24_UNORM_S8_UINT CLEAR STORE stencil CLEAR STORE \
                 DEPTH_STENCIL_ATTACHMENT_OPTIMAL->DEPTH_STENCIL_ATTACHMENT_OPTIMAL ; subpass color 0 \
                 COLOR_ATTACHMENT_OPTIMAL depth 1 DEPTH_STENCIL_ATTACHMENT_OPTIMAL\n\
                 {TO_ATT}\
                 barrier NONE:NONE -> EARLY_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE dep DEPTH|STENCIL:0:0 UNDEFINED->DEPTH_STENCIL_ATTACHMENT_OPTIMAL\n\
                 begin-render-pass rp col COLOR:0:0 ; dep DEPTH|STENCIL:0:0\n\
                 draw vertexCount=3 depth-test depth-write\n\
                 clear-attachments color 0 ; depth ; stencil\n\
                 draw vertexCount=3 depth-test depth-write blend\n\
                 end-render-pass\n"
            ),
            &[],
        ),
        (
            "a pipeline barrier inside a subpass with a self-dependency",
            "If srcSubpass is equal to dstSubpass then the VkSubpassDependency2 does not directly define a dependency. \
             Instead, it enables pipeline barriers to be used in a render pass instance within the identified subpass",
            self_dependency(VS_TO_FS, "vs write sb[0..256]", VS_TO_FS_BARRIER, "fs read sb[0..256]"),
            &[],
        ),
        (
            "the same subpass without the barrier",
            "A self-dependency does not directly define a dependency",
            self_dependency(VS_TO_FS, "vs write sb[0..256]", "", "fs read sb[0..256]"),
            &["L10 READ_AFTER_WRITE sb[0..256] after L9"],
        ),
        (
            "a by-region barrier inside a subpass does not order storage bytes",
            "If dependencyFlags includes VK_DEPENDENCY_BY_REGION_BIT (required inside a render pass with a \
             framebuffer-space source stage, VUID-vkCmdPipelineBarrier2-dependencyFlags-07891), then any dependency \
             between framebuffer-space pipeline stages is framebuffer-local: the model orders the attachments' bytes only",
            self_dependency(
                " ; dependency 0->0 FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ by-region",
                "fs write sb[0..256]",
                "barrier FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ\n",
                "fs read sb[0..256]",
            ),
            &["L11 READ_AFTER_WRITE sb[0..256] after L9"],
        ),
        (
            "a by-region barrier inside a subpass naming a vertex stage too does not order storage bytes written by fragments",
            "Any dependency between framebuffer-space pipeline stages is framebuffer-local, whatever else the masks name",
            self_dependency(
                " ; dependency 0->0 VERTEX_SHADER|FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ by-region",
                "fs write sb[0..256]",
                "barrier VERTEX_SHADER|FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ\n",
                "fs read sb[0..256]",
            ),
            &["L11 READ_AFTER_WRITE sb[0..256] after L9"],
        ),
        (
            "a barrier inside a subpass does not reach a command before the render pass",
            "If vkCmdPipelineBarrier2 is recorded within a render pass instance, the synchronization scopes are limited \
             to a subset of operations within the same subpass",
            format!(
                "barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE res COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
                 begin-rendering color res COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE\n\
                 draw vertexCount=3 vs write sb[0..256]\n\
                 end-rendering\n\
                 {}",
                self_dependency(VS_TO_FS, "vs read out[0..4]", VS_TO_FS_BARRIER, "fs read sb[0..256]")
            )
            .replace("draw vertexCount=3 vs read out[0..4]\n", "draw vertexCount=3 vs read out[0..4]\n"),
            &["L15 READ_AFTER_WRITE sb[0..256] after L8"],
        ),
        (
            "a barrier inside subpass 0 does not reach subpass 1",
            "The synchronization scopes are limited to a subset of operations within the same subpass",
            format!(
                "render-pass rp {COLOR_KEPT} ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 \
                 COLOR_ATTACHMENT_OPTIMAL{VS_TO_FS} ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> \
                 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE\n\
                 {TO_ATT}\
                 begin-render-pass rp col COLOR:0:0\n\
                 draw vertexCount=3 vs write sb[0..256]\n\
                 {VS_TO_FS_BARRIER}\
                 next-subpass\n\
                 draw vertexCount=3 fs read sb[0..256]\n\
                 end-render-pass\n"
            ),
            &["L12 READ_AFTER_WRITE sb[0..256] after L9"],
        ),
        (
            "a barrier inside a subpass chains with the dependency into it",
            "A dependency from VK_SUBPASS_EXTERNAL made the copy's write available (its second scope: subpass 0's \
             vertex shader and later); the barrier's first scope meets it, and makes the write visible to the fragment \
             shader's reads",
            format!(
                "copy out[0..256] -> sb[0..256]\n{}",
                self_dependency(
                    &format!(
                        " ; dependency EXTERNAL->0 COPY:TRANSFER_WRITE -> VERTEX_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE{VS_TO_FS}"
                    ),
                    "vs read sb[0..256]",
                    "barrier VERTEX_SHADER:NONE -> FRAGMENT_SHADER:SHADER_STORAGE_READ\n",
                    "fs read sb[0..256]",
                )
            ),
            &[],
        ),
        (
            "the dependency into the subpass alone does not make the write visible to the fragment shader",
            "The second access scope of the dependency holds the vertex shader's storage reads only",
            format!(
                "copy out[0..256] -> sb[0..256]\n{}",
                self_dependency(
                    &format!(
                        " ; dependency EXTERNAL->0 COPY:TRANSFER_WRITE -> VERTEX_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE{VS_TO_FS}"
                    ),
                    "vs read sb[0..256]",
                    "",
                    "fs read sb[0..256]",
                )
            ),
            &["L11 READ_AFTER_WRITE sb[0..256] after L6"],
        ),
        (
            "a barrier inside a subpass does not chain through the depth store into a barrier after the pass",
            "\"If vkCmdPipelineBarrier2 is recorded within a render pass instance, the synchronization scopes are \
             limited to a subset of operations within the same subpass\": the barrier made the vertex shader's write \
             available, and its second scope ends with the subpass. The depth attachment's store operation \
             (\"happen-after any recorded command which accesses the sample\", in LATE_FRAGMENT_TESTS) and the \
             clear's depth writes are ordered after the subpass's depth accesses \"for each sample\" of the depth \
             attachment only: they carry nothing of other memory, so the barrier after the pass (first scope \
             EARLY_FRAGMENT_TESTS and earlier, no access) does not chain with the one inside, and the later vertex \
             shader read races the write (found by spec_differential, 2026-12-03; the two instances on `col` have no \
             barrier between them: the other three)",
            "image d D32_SFLOAT 4x4\n\
             render-pass rp attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; \
             attachment D32_SFLOAT CLEAR STORE GENERAL->GENERAL ; subpass color 0 GENERAL depth 1 GENERAL ; \
             dependency 0->0 VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ\n\
             barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE col COLOR:0:0 UNDEFINED->GENERAL\n\
             barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE d DEPTH:0:0 UNDEFINED->GENERAL\n\
             begin-render-pass rp col COLOR:0:0 ; d DEPTH:0:0\n\
             draw vertexCount=3 vs write sb[0..256] no-color-write\n\
             barrier VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ\n\
             draw vertexCount=3 depth-test depth-write fs read sb[0..256]\n\
             clear-attachments depth\n\
             end-render-pass\n\
             barrier EARLY_FRAGMENT_TESTS:NONE -> VERTEX_SHADER:SHADER_STORAGE_READ\n\
             begin-rendering color col COLOR:0:0 GENERAL LOAD STORE\n\
             draw vertexCount=3 vs read sb[0..256] no-color-write\n\
             end-rendering\n"
                .to_string(),
            &[
                "L17 READ_AFTER_WRITE col[COLOR:0:0] after L15",
                "L18 READ_AFTER_WRITE sb[0..256] after L11",
                "L19 WRITE_AFTER_READ col[COLOR:0:0] after L10",
                "L19 WRITE_AFTER_WRITE col[COLOR:0:0] after L15",
            ],
        ),
        (
            "an older read ordered into another stage than the latest still chains with a later barrier",
            "\"If the synchronization scopes of two execution dependencies intersect, they chain\": rp4's load of `c` \
             (line 18) is ordered by its `0->1` dependency before subpass 1's FRAGMENT_SHADER work, rp3's second load \
             (line 23) by its `2->EXTERNAL` dependency before COPY work after the pass; the barrier on line 27 \
             (FRAGMENT_SHADER|COPY first scope) chains with both, so the last draw's write (line 29) is ordered after \
             both reads. The fast checker kept one older read per stage with the meet of the others, whose chains \
             ({COPY..} and {FRAGMENT_SHADER..}) have an empty intersection, and reported a write-after-read against \
             line 23 (spec_differential, 2026-12-03, minimized; was tests/open-defects/rendering-war-disagreement.trace)",
            "image c R8_UNORM 2x2\n\
             image d D32_SFLOAT 2x2\n\
             image r R8_UNORM 2x2\n\
             barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE c COLOR:0:0 UNDEFINED->GENERAL\n\
             barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE d DEPTH:0:0 UNDEFINED->GENERAL\n\
             barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE r COLOR:0:0 UNDEFINED->GENERAL\n\
             render-pass rp3 attachment R8_UNORM LOAD STORE GENERAL->GENERAL ; subpass ; subpass ; subpass color 0 GENERAL ; dependency EXTERNAL->0 COPY|CLEAR|COMPUTE_SHADER:TRANSFER_WRITE|SHADER_WRITE -> ALL_GRAPHICS:MEMORY_READ|MEMORY_WRITE ; dependency EXTERNAL->2 COPY|CLEAR:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE ; dependency 0->1 FRAGMENT_SHADER:SHADER_WRITE -> FRAGMENT_SHADER:NONE ; dependency 1->EXTERNAL FRAGMENT_SHADER:NONE -> COMPUTE_SHADER:SHADER_READ|SHADER_WRITE ; dependency 2->EXTERNAL ALL_GRAPHICS:MEMORY_WRITE -> COPY|CLEAR|COMPUTE_SHADER:TRANSFER_READ|TRANSFER_WRITE|SHADER_READ|SHADER_WRITE\n\
             render-pass rp4 attachment R8_UNORM LOAD STORE GENERAL->GENERAL ; subpass color 0 GENERAL ; subpass input 0 SHADER_READ_ONLY_OPTIMAL ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:INPUT_ATTACHMENT_READ by-region\n\
             begin-render-pass rp3 c COLOR:0:0\n\
             next-subpass\n\
             next-subpass\n\
             end-render-pass\n\
             begin-render-pass rp4 c COLOR:0:0\n\
             next-subpass\n\
             end-render-pass\n\
             begin-render-pass rp3 c COLOR:0:0\n\
             next-subpass\n\
             next-subpass\n\
             end-render-pass\n\
             begin-rendering color c COLOR:0:0 GENERAL DONT_CARE STORE ; depth d DEPTH:0:0 GENERAL LOAD DONT_CARE\n\
             end-rendering\n\
             barrier FRAGMENT_SHADER|COPY:NONE -> VERTEX_ATTRIBUTE_INPUT:NONE\n\
             begin-rendering color c COLOR:0:0 GENERAL LOAD NONE resolve r COLOR:0:0 GENERAL\n\
             draw vertexCount=1 blend\n\
             end-rendering\n"
                .to_string(),
            // Layout and attachment hazards of the minimized random
            // program (with `d` as large as `c`: at 1x1, as found, the
            // render area of line 24's instance is one texel and the
            // hazards of its commands split by bytes); no write-after-read
            // on line 29. Line 20 (rp4's
            // end) writes `c` twice, by its store and by its transition
            // into finalLayout, which happens after the store: the two
            // values differ (the store is ordered before a transition,
            // `PERFORMED_TRANSITION`), so each is named.
            &[
                "L18 READ_AFTER_WRITE c[COLOR:0:0] after L17",
                "L19 WRITE_AFTER_READ c[COLOR:0:0] after L16",
                "L19 WRITE_AFTER_WRITE c[COLOR:0:0] after L17",
                // Line 20's store and its transition (review36: the
                // transition was taken as ordered after rp3's subpass 2
                // through its `2->EXTERNAL` into COPY, CLEAR and
                // COMPUTE_SHADER work, then rp4's implicit `1->EXTERNAL`
                // from ALL_COMMANDS; but subpass 1 of rp4 holds no such
                // work, so the two do not chain).
                "L20 WRITE_AFTER_READ c[COLOR:0:0] after L16",
                "L20 WRITE_AFTER_WRITE c[COLOR:0:0] after L17",
                "L20 WRITE_AFTER_READ c[COLOR:0:0] after L16",
                "L20 WRITE_AFTER_WRITE c[COLOR:0:0] after L17",
                "L23 READ_AFTER_WRITE c[COLOR:0:0] after L20",
                "L23 READ_AFTER_WRITE c[COLOR:0:0] after L20",
                "L24 WRITE_AFTER_READ c[COLOR:0:0] after L18",
                "L24 WRITE_AFTER_WRITE c[COLOR:0:0] after L20",
                "L24 WRITE_AFTER_WRITE c[COLOR:0:0] after L20",
                "L25 WRITE_AFTER_READ c[COLOR:0:0] after L16",
                "L25 WRITE_AFTER_READ c[COLOR:0:0] after L18",
                "L25 WRITE_AFTER_READ c[COLOR:0:0] after L23",
                "L25 WRITE_AFTER_WRITE c[COLOR:0:0] after L20",
                "L25 WRITE_AFTER_WRITE c[COLOR:0:0] after L20",
                "L25 WRITE_AFTER_WRITE c[COLOR:0:0] after L24",
                "L26 WRITE_AFTER_READ c[COLOR:0:0] after L16",
                "L26 WRITE_AFTER_READ c[COLOR:0:0] after L18",
                "L26 WRITE_AFTER_READ c[COLOR:0:0] after L23",
                "L26 WRITE_AFTER_WRITE c[COLOR:0:0] after L20",
                "L26 WRITE_AFTER_WRITE c[COLOR:0:0] after L20",
                "L26 WRITE_AFTER_WRITE c[COLOR:0:0] after L24",
                "L28 READ_AFTER_WRITE c[COLOR:0:0] after L20",
                "L28 READ_AFTER_WRITE c[COLOR:0:0] after L20",
                "L28 READ_AFTER_WRITE c[COLOR:0:0] after L24",
                "L28 READ_AFTER_WRITE c[COLOR:0:0] after L26",
                "L29 READ_AFTER_WRITE c[COLOR:0:0] after L20",
                "L29 READ_AFTER_WRITE c[COLOR:0:0] after L20",
                "L29 READ_AFTER_WRITE c[COLOR:0:0] after L26",
                "L29 WRITE_AFTER_WRITE c[COLOR:0:0] after L20",
                "L29 WRITE_AFTER_WRITE c[COLOR:0:0] after L20",
                "L29 WRITE_AFTER_WRITE c[COLOR:0:0] after L26",
                "L30 READ_AFTER_WRITE c[COLOR:0:0] after L20",
                "L30 READ_AFTER_WRITE c[COLOR:0:0] after L20",
                "L30 READ_AFTER_WRITE c[COLOR:0:0] after L26",
                // The last instance's NONE store after its draw wrote
                // (line 29) is a write, as DONT_CARE's (VkAttachmentStoreOp).
                "L30 WRITE_AFTER_WRITE c[COLOR:0:0] after L20",
                "L30 WRITE_AFTER_WRITE c[COLOR:0:0] after L20",
                "L30 WRITE_AFTER_WRITE c[COLOR:0:0] after L26",
            ],
        ),
        (
            "multiview: a view-local dependency orders an attachment's bytes, not a storage buffer's",
            "If the dependency is view-local, then each view (dstView) in the destination subpass depends on the view \
             dstView + pViewOffsets[dependency] in the source subpass; color, depth/stencil, and input attachments all \
             read/write the layer of the framebuffer corresponding to the view index (a draw's storage bytes are no \
             one view's)",
            multiview(
                3,
                2,
                " ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT|FRAGMENT_SHADER:COLOR_ATTACHMENT_WRITE|SHADER_STORAGE_WRITE -> \
                 COLOR_ATTACHMENT_OUTPUT|FRAGMENT_SHADER:COLOR_ATTACHMENT_WRITE|SHADER_STORAGE_READ view-local",
            ),
            &["L12 READ_AFTER_WRITE sb[0..256] after L10"],
        ),
        (
            "multiview: the same dependency not view-local orders both",
            "If the dependency is not view-local, then all views in the destination subpass depend on all views in the \
             source subpass",
            multiview(
                3,
                2,
                " ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT|FRAGMENT_SHADER:COLOR_ATTACHMENT_WRITE|SHADER_STORAGE_WRITE -> \
                 COLOR_ATTACHMENT_OUTPUT|FRAGMENT_SHADER:COLOR_ATTACHMENT_WRITE|SHADER_STORAGE_READ",
            ),
            &[],
        ),
        (
            "multiview: a view-local dependency between subpasses of one view orders both",
            "each view in the destination subpass depends on a single view in the source subpass: with one view, all \
             of it",
            multiview(
                2,
                2,
                " ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT|FRAGMENT_SHADER:COLOR_ATTACHMENT_WRITE|SHADER_STORAGE_WRITE -> \
                 COLOR_ATTACHMENT_OUTPUT|FRAGMENT_SHADER:COLOR_ATTACHMENT_WRITE|SHADER_STORAGE_READ view-local",
            ),
            &[],
        ),
        (
            "multiview: no dependency, the views' layers race",
            "Multiview causes all drawing and clear commands in the subpass to behave as if they were broadcast to \
             each view: subpass 1 writes layers 0 and 1 as subpass 0 did (and the load operation: the definitional \
             semantics, which decides a pass of several views whose draws access a storage buffer, names every \
             racing write)",
            multiview(3, 3, ""),
            &[
                "L12 READ_AFTER_WRITE sb[0..256] after L10",
                "L12 WRITE_AFTER_WRITE arr[COLOR:0:0..2] after L9",
                "L12 WRITE_AFTER_WRITE arr[COLOR:0:0..2] after L10",
                "L13 WRITE_AFTER_WRITE arr[COLOR:0:0..2] after L9",
                "L13 WRITE_AFTER_WRITE arr[COLOR:0:0..2] after L10",
            ],
        ),
        (
            // Found by the per-view expansion of multiview render passes:
            // over two layers the depth aspect's bytes end where the
            // stencil's begin, and one range over both kept the draw's
            // implicit dependency for the stencil after the depth-only
            // load, which chained the transition into the stencil read
            // (a view of one layer reported it).
            "a depth-only load does not order a stencil read after the transition, over two layers too",
            "This does not apply when using VK_ATTACHMENT_LOAD_OP_NONE (a stencil loaded with NONE: a dependency \
             before the instance must hold the draw's stencil read itself)",
            "image d2 D24_UNORM_S8_UINT 4x4 layers 2\n\
             render-pass rp attachment D24_UNORM_S8_UINT DONT_CARE NONE stencil NONE NONE UNDEFINED->DEPTH_STENCIL_ATTACHMENT_OPTIMAL ; \
             subpass depth 0 DEPTH_STENCIL_ATTACHMENT_OPTIMAL ; \
             dependency EXTERNAL->0 FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ\n\
             begin-render-pass rp d2 DEPTH|STENCIL:0:0..2\n\
             draw vertexCount=3 depth-test\n\
             end-render-pass\n"
                .to_string(),
            &[
                "L8 WRITE_AFTER_WRITE d2[DEPTH:0:0..2] after L8",
                "L9 READ_AFTER_WRITE d2[STENCIL:0:0..2] after L8",
            ],
        ),
        (
            // Review of the twenty-eighth session: each view's part of the
            // view-local dependency made that view's write available and
            // reaches 1->EXTERNAL through that view's operations of
            // subpass 1 (the chain part, `PassScope::chain_only`).
            "multiview: a write made available by a view-local dependency reaches a copy after 1->EXTERNAL",
            "A view-local dependency between two multiview subpasses acts like a set of one-to-one dependencies \
             between corresponding pairs of per-view subpasses; execution dependency chains",
            multiview_chain(" ; dependency 1->EXTERNAL COLOR_ATTACHMENT_OUTPUT -> COPY:TRANSFER_READ", "", "copy sb[0..256] -> out[0..256]"),
            &[],
        ),
        (
            "multiview: the same without 1->EXTERNAL",
            "nothing orders subpass 1 before the copy",
            multiview_chain("", "", "copy sb[0..256] -> out[0..256]"),
            &["L14 READ_AFTER_WRITE sb[0..256] after L10"],
        ),
        (
            "multiview: a view-local 0->1, then 1->2 not view-local, orders subpass 0's write before subpass 2's read",
            "all views in the destination subpass [of 1->2] depend on all views in the source subpass",
            multiview_chain(
                " ; dependency 1->2 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> \
                 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE",
                "next-subpass\ndraw vertexCount=3 fs read sb[0..256]\n",
                "",
            ),
            &[],
        ),
        (
            "multiview: both view-local, subpass 2's read of view 1 is not after view 0's write",
            "each view in the destination subpass depends on the same view in the source subpass, along the chain too",
            multiview_chain(
                " ; dependency 1->2 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> \
                 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE view-local",
                "next-subpass\ndraw vertexCount=3 fs read sb[0..256]\n",
                "",
            ),
            &["L14 READ_AFTER_WRITE sb[0..256] after L10"],
        ),
        (
            // Review of the twenty-eighth session: with no attachment
            // bytes rendered, the parts over them were none and the
            // dependency's execution dependency was lost.
            "multiview: a view-local dependency of a pass whose subpasses render no attachment keeps its execution dependency",
            "the dependency orders each view's vertex shader read before the same view's subpass 1, and 1->EXTERNAL \
             all of subpass 1 before the fill",
            "image one R8G8B8A8_UNORM 4x4\n\
             render-pass mv attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; subpass viewMask=6 ; subpass viewMask=6 ; \
             dependency 0->1 VERTEX_SHADER:SHADER_STORAGE_READ -> VERTEX_SHADER view-local ; dependency 1->EXTERNAL VERTEX_SHADER -> CLEAR\n\
             barrier NONE:NONE -> NONE:NONE one COLOR:0:0 UNDEFINED->GENERAL\n\
             begin-render-pass mv one COLOR:0:0\n\
             draw vertexCount=3 vs read sb[0..256]\n\
             next-subpass\n\
             draw vertexCount=3\n\
             end-render-pass\n\
             fill sb[0..256] 0\n"
                .to_string(),
            &[],
        ),
        (
            // review44: a sampled read of an attachment's image reads
            // every layer, not its view's.
            "multiview: a view-local dependency does not order a sampled read of another view's attachment layer",
            "color, depth/stencil, and input attachments all read/write the layer of the framebuffer corresponding \
             to the view index (a sampled image read is none of these): the other view's load, draw and store all \
             race it (the definitional semantics decides, and names each)",
            "image arr R8G8B8A8_UNORM 4x4 layers 2\n\
             image tex R8G8B8A8_UNORM 4x4 layers 2\n\
             barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE arr COLOR:0:0..2 UNDEFINED->GENERAL ; \
             NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE tex COLOR:0:0..2 UNDEFINED->GENERAL\n\
             render-pass mv attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; attachment R8G8B8A8_UNORM CLEAR STORE \
             GENERAL->GENERAL ; subpass viewMask=3 color 0 GENERAL color 1 GENERAL ; subpass viewMask=3 color 0 GENERAL ; \
             dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> \
             FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_SAMPLED_READ|COLOR_ATTACHMENT_WRITE view-local\n\
             begin-render-pass mv arr COLOR:0:0..2 ; tex COLOR:0:0..2\n\
             draw vertexCount=3\n\
             next-subpass\n\
             draw vertexCount=3 fs sampled-image tex COLOR:0:0..2 GENERAL\n\
             end-render-pass\n"
                .to_string(),
            &[
                "L13 READ_AFTER_WRITE tex[COLOR:0:0..2] after L10",
                "L13 READ_AFTER_WRITE tex[COLOR:0:0..2] after L11",
                "L13 READ_AFTER_WRITE tex[COLOR:0:0..2] after L12",
            ],
        ),
        (
            "multiview: a layout transition between two subpasses is each view's own",
            "An automatic layout transition between subpasses of several views is per view (each view's subpasses are per-view subpasses): one over every view's layers ordered view 0's storage write before view 1's (review44, open until the twenty-ninth session)",
            "image arr R8G8B8A8_UNORM 4x4 layers 2\n\
             barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE arr COLOR:0:0..2 UNDEFINED->GENERAL\n\
             render-pass mv attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->COLOR_ATTACHMENT_OPTIMAL ; subpass viewMask=3 color 0 GENERAL ; subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency 0->1 VERTEX_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_WRITE|COLOR_ATTACHMENT_WRITE -> VERTEX_SHADER|COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE view-local\n\
             begin-render-pass mv arr COLOR:0:0..2\n\
             draw vertexCount=3 vs write sb[0..256]\n\
             next-subpass\n\
             draw vertexCount=3 vs write sb[0..256]\n\
             end-render-pass\n"
                .to_string(),
            &["L12 WRITE_AFTER_WRITE sb[0..256] after L10"],
        ),
        (
            "multiview: a layout transition between two subpasses orders no read of another view",
            "The same with dependencies that are not view-local but whose scopes hold neither access: view 1's write after view 0's read (review44)",
            "image arr R8G8B8A8_UNORM 4x4 layers 2\n\
             barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE arr COLOR:0:0..2 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
             render-pass mv attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->GENERAL ; subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass viewMask=3 color 0 GENERAL ; dependency 0->EXTERNAL FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COPY ; dependency 0->1 VERTEX_SHADER -> FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE\n\
             begin-render-pass mv arr COLOR:0:0..2\n\
             draw vertexCount=3 fs read sb[0..256]\n\
             next-subpass\n\
             draw vertexCount=3 fs write sb[0..256]\n\
             end-render-pass\n"
                .to_string(),
            &["L12 WRITE_AFTER_READ sb[0..256] after L10"],
        ),
        (
            "multiview: two view-local dependencies in a chain order each view after its own only",
            "A view-local dependency acts like a set of one-to-one dependencies between corresponding per-view subpasses, so a chain of two orders view 1's write of subpass 2 after view 1's of subpass 0 only (review44)",
            view_local_chain("", "", ""),
            &["L14 WRITE_AFTER_WRITE sb[0..256] after L10"],
        ),
        (
            "multiview: a view-local dependency makes a write before every view visible to each view",
            "A copy made visible to subpass 0 by EXTERNAL->0 is before every view's subpass 0; each view's dependency 0->1 then makes it visible to that view's storage read (review44: a false read-after-write)",
            "buffer up 256\n\
             image arr R8G8B8A8_UNORM 4x4 layers 2\n\
             barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE arr COLOR:0:0..2 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
             copy up -> sb\n\
             render-pass mv attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency EXTERNAL->0 COPY:TRANSFER_WRITE -> FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE ; dependency 0->1 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE view-local\n\
             begin-render-pass mv arr COLOR:0:0..2\n\
             draw vertexCount=3\n\
             next-subpass\n\
             draw vertexCount=3 fs read sb[0..256]\n\
             end-render-pass\n"
                .to_string(),
            &[],
        ),
        (
            "multiview: a view-local dependency does not order a sampled read before another view's attachment write",
            "A sampled read of subpass 0 reads every view's layer of `tex`; view v's write of layer v in subpass 1 \
             and its store are ordered after view v's read only (the fast checkers refuse the program: their \
             one-subpass reading holds the read in the dependency's execution dependency)",
            "image arr R8G8B8A8_UNORM 4x4 layers 2\n\
             image tex R8G8B8A8_UNORM 4x4 layers 2\n\
             barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE arr COLOR:0:0..2 UNDEFINED->GENERAL ; \
             NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE tex COLOR:0:0..2 UNDEFINED->GENERAL\n\
             render-pass mv attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; attachment R8G8B8A8_UNORM LOAD \
             STORE GENERAL->GENERAL ; subpass viewMask=3 color 0 GENERAL ; subpass viewMask=3 color 0 GENERAL color 1 \
             GENERAL ; dependency 0->1 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> \
             COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE view-local\n\
             begin-render-pass mv arr COLOR:0:0..2 ; tex COLOR:0:0..2\n\
             draw vertexCount=3 fs sampled-image tex COLOR:0:0..2 GENERAL\n\
             next-subpass\n\
             draw vertexCount=3\n\
             end-render-pass\n"
                .to_string(),
            &[
                "L13 WRITE_AFTER_READ tex[COLOR:0:0..2] after L11",
                "L14 WRITE_AFTER_READ tex[COLOR:0:0..2] after L11",
            ],
        ),
        (
            "multiview: a render pass of several views that no instance begins changes nothing",
            "Only begun render passes are written per view (review45: an unused declaration of 128 per-view dependencies made the definitional semantics fall back to one subpass for every view, which missed the chain's write-after-write)",
            view_local_chain("", &format!("{BIG_MULTIVIEW}\n"), ""),
            &["L15 WRITE_AFTER_WRITE sb[0..256] after L11"],
        ),
        (
            "multiview: an event wait inside a subpass of several views is copied into each view",
            "vkCmdWaitEvents2 is valid inside a render pass; each view's subpass waits (review45: a wait there made the definitional semantics fall back and miss the chain's write-after-write)",
            view_local_chain("event ev\n", "set-event ev COPY:NONE -> COPY:NONE\n", "wait-events ev COPY:NONE -> COPY:NONE\n"),
            &["L17 WRITE_AFTER_WRITE sb[0..256] after L12"],
        ),
        (
            "multiview: a sampled read of an attachment's other layer races that view's final transition",
            "The automatic layout transitions apply per view (each view's transition happens after that view's subpass only), and a draw's sampled read is every view's: view 0's read of layer 1 is not before view 1's transition, in a pass of one subpass too (review45: the fast checkers decided it, unlike the definitional semantics)",
            "image arr R8G8B8A8_UNORM 4x4 layers 2\n\
             barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE arr COLOR:0:0..2 UNDEFINED->GENERAL\n\
             render-pass mv attachment R8G8B8A8_UNORM LOAD NONE GENERAL->TRANSFER_SRC_OPTIMAL ; subpass viewMask=3 color 0 GENERAL\n\
             begin-render-pass mv arr COLOR:0:0..2\n\
             draw vertexCount=3 no-color-write fs sampled-image arr COLOR:0:0..2 GENERAL\n\
             end-render-pass\n"
                .to_string(),
            &["L11 WRITE_AFTER_READ arr[COLOR:0:0..2] after L10"],
        ),
        (
            "multiview: a pipeline barrier inside a subpass of two views is view-local",
            "If vkCmdPipelineBarrier2 is called inside a render pass instance, and there is more than one view in the \
             current subpass, dependency flags must include VK_DEPENDENCY_VIEW_LOCAL_BIT \
             (VUID-vkCmdPipelineBarrier2-None-07893): one view's storage write is not ordered before another's read",
            multiview_barrier(3),
            &["L12 READ_AFTER_WRITE sb[0..256] after L10"],
        ),
        (
            "multiview: the same barrier in a subpass of one view",
            "each view depends on the same view: with one, all of it",
            multiview_barrier(2),
            &[],
        ),
        (
            "multiview: the load operation reads the views' layers only",
            "The load operation for each sample in an attachment happens-before any recorded command which accesses \
             the sample in the first subpass where the attachment is used; the layers not rendered are not loaded",
            multiview_load_after_copy(2),
            &[],
        ),
        (
            "multiview: the load operation reads a view's layer a copy wrote",
            "the load of view 1 reads layer 1 of the attachment",
            multiview_load_after_copy(1),
            &[
                "L10 READ_AFTER_WRITE arr[COLOR:0:1] after L8",
                "L11 WRITE_AFTER_WRITE arr[COLOR:0:1] after L8",
            ],
        ),
    ]
}

#[test]
fn render_pass_hazards() {
    let mut failures = Vec::new();
    for (name, rule, body, want) in cases() {
        let got = hazards(name, &body);
        if got != want {
            failures.push(format!("{name} ({rule}):\n  got  {got:?}\n  want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A dependency from a subpass whose slot the fast checker gave to a
/// later one before the dependency's place (0->4, `SUBPASS_SLOTS` 4) is
/// refused by the fast checker with a typed error naming it; the
/// definitional semantics decides the program.
#[test]
fn the_fast_checker_refuses_a_dependency_past_its_subpass_slots() {
    let t = parse(&five_subpasses(
        " ; dependency 0->4 FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ",
    ))
    .unwrap();
    // The fast checkers alone refuse it; `check` then decides it by the
    // definitional semantics (`check_program`).
    let e = vksync::check_with(&t.program, vksync::Semantics::default()).unwrap_err();
    assert_eq!(t.line_of(e.at), Some(14), "{e}");
    assert!(
        matches!(&e.kind, vksync::ProgramErrorKind::RenderPassNotSupported { what } if what.contains("0->4")),
        "{e}"
    );
    // Subpass 1's write (no dependency from subpass 1) races the read,
    // its color writes subpass 4's draw and store; subpass 0's write is
    // ordered before the read; the copy races both writes.
    let got: BTreeSet<(usize, String)> = races(&t.program, Reading::MemoryModel)
        .unwrap()
        .iter()
        .map(|r| (t.command_lines[r.command], r.kind.to_string()))
        .collect();
    let want: BTreeSet<(usize, String)> = [
        (15, "READ_AFTER_WRITE"),
        (15, "WRITE_AFTER_WRITE"),
        (16, "WRITE_AFTER_WRITE"),
        (17, "READ_AFTER_WRITE"),
    ]
    .map(|(l, k)| (l, k.to_string()))
    .into();
    assert_eq!(got, want);
    let checked = vksync::check_program(&t.program, vksync::Semantics::default()).unwrap();
    assert!(matches!(checked.decided_by, vksync::DecidedBy::Definition { .. }));
    let by_check: BTreeSet<(usize, String)> = checked
        .hazards
        .iter()
        .map(|h| (t.command_lines[h.command], h.kind.to_string()))
        .collect();
    assert_eq!(by_check, want);
}

/// The fixes a hazard of storage bytes across a view-local dependency or
/// barrier names (review of the twenty-eighth session): a dependency that
/// is not view-local, never these masks added to the view-local one or a
/// barrier inside a subpass of two views, which order the attachments'
/// bytes only; likewise for a sampled read of an attachment across a
/// by-region dependency, which orders attachment accesses only. (case,
/// the fix text.)
#[test]
fn fixes_across_local_dependencies_are_not_local() {
    let war = "image arr R8G8B8A8_UNORM 4x4 layers 2\n\
               render-pass mv attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; \
               subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL ; \
               dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE view-local\n\
               barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE arr COLOR:0:0..2 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
               begin-render-pass mv arr COLOR:0:0..2\n\
               draw vertexCount=3 vs read sb[0..256]\n\
               next-subpass\n\
               draw vertexCount=3 vs write sb[0..256]\n\
               end-render-pass\n";
    let cases = [
        (
            "a barrier inside a subpass of two views",
            multiview_barrier(3),
            "record them in two subpasses with a dependency 0->1 between them (not view-local)",
        ),
        (
            "a write-after-read across a view-local dependency without its stages",
            war.to_string(),
            "add `dependency 0->1 VERTEX_SHADER:NONE -> VERTEX_SHADER:NONE` to the render pass (not these masks to its \
             view-local dependency 0->1, which orders the attachments' bytes only)",
        ),
        (
            "a sampled read of an earlier subpass's attachment across a by-region dependency naming it",
            "barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col COLOR:0:0 UNDEFINED->GENERAL ; \
             NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE res COLOR:0:0 UNDEFINED->GENERAL\n\
             render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; \
             attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; subpass color 0 GENERAL ; subpass color 1 GENERAL ; \
             dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:SHADER_SAMPLED_READ by-region\n\
             begin-render-pass rp col COLOR:0:0 ; res COLOR:0:0\n\
             draw vertexCount=3\n\
             next-subpass\n\
             draw vertexCount=3 fs sampled-image col COLOR:0:0 GENERAL\n\
             end-render-pass\n"
                .to_string(),
            "add `dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:SHADER_SAMPLED_READ` \
             to the render pass (not these masks to its by-region dependency 0->1, which orders attachment accesses only)",
        ),
        (
            "a sampled read of an attachment's other layer before that view's final transition, in one subpass \
             (review45: the fix named a dependency 0->EXTERNAL that, declared, still raced)",
            "image arr R8G8B8A8_UNORM 4x4 layers 2\n\
             barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE arr COLOR:0:0..2 UNDEFINED->GENERAL\n\
             render-pass mv attachment R8G8B8A8_UNORM LOAD NONE GENERAL->TRANSFER_SRC_OPTIMAL ; subpass viewMask=3 color 0 GENERAL\n\
             begin-render-pass mv arr COLOR:0:0..2\n\
             draw vertexCount=3 no-color-write fs sampled-image arr COLOR:0:0..2 GENERAL\n\
             end-render-pass\n"
                .to_string(),
            "no subpass dependency orders them: in a render pass of several views a layout transition is one view's \
             own, and a draw's FRAGMENT_SHADER SHADER_SAMPLED_READ of the attachment's image is every view's \
             (docs/semantics.md, \"VIEW_LOCAL\"); access the image outside the render pass instance, or keep its \
             layout through the pass so that no transition writes it",
        ),
    ];
    for (name, body, want) in cases {
        let t = parse(&body).unwrap_or_else(|e| panic!("{name}: {e}"));
        let hs = check(&t.program).unwrap();
        assert_eq!(hs.len(), 1, "{name}");
        assert_eq!(hs[0].fix_text_at(&t.program, &t.command_lines), want, "{name}");
    }
}

/// `arr` (3 layers) through a render pass of view mask 0b11 from
/// `COLOR_ATTACHMENT_OPTIMAL` to `GENERAL`, then a copy of its `layers`
/// in `GENERAL` (lines 6-12; the copy on 12).
fn multiview_then_copy(layers: &str) -> String {
    format!(
        "image arr R8G8B8A8_UNORM 4x4 layers 3\n\
         barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE arr COLOR:0:0..3 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
         render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->GENERAL ; subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL\n\
         begin-render-pass rp arr COLOR:0:0..3\n\
         end-render-pass\n\
         barrier ALL_COMMANDS:MEMORY_WRITE -> COPY:TRANSFER_READ\n\
         copy-image-to-buffer arr GENERAL -> out imageSubresource=COLOR:0:{layers} imageExtent=4,4,1\n"
    )
}

/// The rendered layers of a multiview pass's views are in `finalLayout`
/// after it (the layer outside its views keeps its layout: a row of
/// `render_pass_errors`).
#[test]
fn multiview_transitions_cover_the_views_layers() {
    let body = multiview_then_copy("0..2");
    assert_eq!(error(&body), "");
    assert_eq!(
        hazards("multiview layers after the pass", &body),
        Vec::<String>::new()
    );
}

#[test]
fn render_pass_errors() {
    let one = "render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL\n";
    let two = "render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL\n";
    // Lines 6-8: a render pass, `col` into its layout, the begin.
    let inside = |rp: &str, body: &str| format!("{rp}{TO_ATT}begin-render-pass rp col COLOR:0:0\n{body}");
    let decl = |clauses: &str| format!("render-pass rp {clauses}\n");
    // Two color attachments: a color one and its resolve target.
    const TWO_COLOR: &str = "attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL";
    let cases: Vec<(&str, String, &str)> = vec![
        ("next-subpass past the last subpass", inside(one, "next-subpass\n"), "9:1: vkCmdNextSubpass in subpass 0 of a render pass with 1 subpass(es): next-subpass must be recorded subpass count - 1 times before end-render-pass (VUID-vkCmdNextSubpass-None-00909)"),
        ("end-render-pass before the last subpass", inside(two, "end-render-pass\n"), "9:1: vkCmdEndRenderPass in subpass 0 of a render pass with 2 subpass(es): next-subpass must be recorded subpass count - 1 times before end-render-pass (VUID-vkCmdEndRenderPass-None-00910)"),
        ("a draw after end-render-pass", inside(one, "end-render-pass\ndraw vertexCount=3\n"), "10:1: vkCmdDraw outside a rendering instance: it must be recorded between begin-rendering and end-rendering (VUID-vkCmdDraw-renderpass)"),
        (
            "a stencil clear of a render pass's D32_SFLOAT depth attachment",
            "image d32 D32_SFLOAT 4x4 initial GENERAL\nrender-pass rpd attachment D32_SFLOAT LOAD STORE GENERAL->GENERAL ; subpass depth 0 GENERAL\nbegin-render-pass rpd d32 DEPTH:0:0\nclear-attachments stencil\n".into(),
            "9:1: vkCmdClearAttachments: the depth/stencil attachment's format D32_SFLOAT has no stencil component (VUID-vkCmdClearAttachments-aspectMask-07885)",
        ),
        ("a render area past the framebuffer", format!("{one}{TO_ATT}begin-render-pass rp renderArea=0,1,4,4 col COLOR:0:0\nend-render-pass\n"), "8:1: vkCmdBeginRenderPass: renderArea 0,1,4,4 ends at 5, past the framebuffer's height 4 (the smallest of its views') (VUID-VkRenderPassBeginInfo-pNext-02853)"),
        ("a render area of no columns", format!("{one}{TO_ATT}begin-render-pass rp renderArea=0,0,0,4 col COLOR:0:0\nend-render-pass\n"), "8:1: vkCmdBeginRenderPass: renderArea 0,0,0,4: its extent must not be 0 (VUID-VkRenderPassBeginInfo-None-08996, -08997)"),
        ("a render area past a 2D view beside a 3D one", "image v3 R8G8B8A8_UNORM 4x4x4 initial GENERAL\nimage c2 R8G8B8A8_UNORM 4x4 initial GENERAL\nrender-pass r3 attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; subpass color 0 GENERAL color 1 GENERAL\nbegin-render-pass r3 renderArea=6,6,2,2 c2 COLOR:0:0 ; v3 COLOR:0:0\nend-render-pass\n".into(), "9:1: vkCmdBeginRenderPass: renderArea 6,6,2,2 ends at 8, past the framebuffer's width 4 (the smallest of its views') (VUID-VkRenderPassBeginInfo-pNext-02852)"),
        ("renderArea given twice in a begin-render-pass", format!("{one}{TO_ATT}begin-render-pass rp renderArea=0,0,1,1 renderArea=0,0,2,2 col COLOR:0:0\nend-render-pass\n"), "8:41: `renderArea` given twice"),
        ("next-subpass outside", "next-subpass\n".into(), "6:1: vkCmdNextSubpass outside a render pass instance: it must be recorded between begin-render-pass and end-render-pass (VUID-vkCmdNextSubpass-renderpass)"),
        ("a barrier inside", inside(one, "barrier ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ\nend-render-pass\n"), "9: a pipeline barrier inside subpass 0: barrier 0: srcStageMask names ALL_COMMANDS, not a graphics pipeline stage (VUID-vkCmdPipelineBarrier2-None-07892)"),
        ("a barrier inside a subpass with no self-dependency", inside(one, "barrier VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ\nend-render-pass\n"), "9: a pipeline barrier inside subpass 0: barrier 0: render pass `rp` declares no self-dependency of subpass 0 (`dependency 0->0 ...`), which a pipeline barrier inside the subpass needs (VUID-vkCmdPipelineBarrier2-None-07889)"),
        ("a barrier outside its self-dependency's scopes", inside(&one.replace('\n', &format!("{VS_TO_FS}\n")), "barrier VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ|UNIFORM_READ\nend-render-pass\n"), "9: a pipeline barrier inside subpass 0: barrier 0: its dstAccessMask (VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:UNIFORM_READ|SHADER_STORAGE_READ) is not within the scopes of a self-dependency of subpass 0 (`dependency 0->0 VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ`) (VUID-vkCmdPipelineBarrier2-None-07889)"),
        ("a buffer barrier inside a subpass", inside(&one.replace('\n', &format!("{VS_TO_FS}\n")), "barrier VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ sb[0..64]\nend-render-pass\n"), "9: a pipeline barrier inside subpass 0: barrier 0: a buffer memory barrier (VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ sb[0..64]) (VUID-vkCmdPipelineBarrier2-bufferMemoryBarrierCount-01178)"),
        ("an image barrier inside a subpass", inside(&one.replace('\n', &format!("{VS_TO_FS}\n")), "barrier VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ col COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL\nend-render-pass\n"), "9: a pipeline barrier inside subpass 0: barrier 0: an image memory barrier of `col`, which subpass 0 does not use both as an input attachment and as a color or depth/stencil attachment (the model refuses such feedback loops) (VUID-vkCmdPipelineBarrier2-image-04073)"),
        ("a framebuffer-space source with a vertex destination", inside(one, "barrier FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> VERTEX_SHADER:SHADER_STORAGE_READ\nend-render-pass\n"), "9: a pipeline barrier inside subpass 0: barrier 0: its srcStageMask FRAGMENT_SHADER names a framebuffer-space stage, so every dstStageMask of the call must name only framebuffer-space stages, and this one names VERTEX_SHADER (VUID-vkCmdPipelineBarrier2-None-07890)"),
        // 07890 binds the call: "the source stage masks of any memory
        // barriers include framebuffer-space stages, destination stage
        // masks of all memory barriers must only include framebuffer-space
        // stages" (a review's minimal trace).
        ("a framebuffer-space source in one barrier, a vertex destination in another", inside(one, "barrier VERTEX_SHADER:SHADER_STORAGE_WRITE -> VERTEX_SHADER:SHADER_STORAGE_READ ; FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ\nend-render-pass\n"), "9: a pipeline barrier inside subpass 0: barrier 0: barrier 1's srcStageMask FRAGMENT_SHADER names a framebuffer-space stage, so every dstStageMask of the call must name only framebuffer-space stages, and this one names VERTEX_SHADER (VUID-vkCmdPipelineBarrier2-None-07890)"),
        ("a framebuffer-space self-dependency without by-region", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL ; dependency 0->0 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ"), "6:13: render pass `rp`: dependency 0: self-dependency 0->0 between framebuffer-space stages without `by-region` (VUID-VkSubpassDependency2-srcSubpass-02245)"),
        ("a framebuffer-space self-dependency into the vertex shader", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL ; dependency 0->0 FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> VERTEX_SHADER:SHADER_STORAGE_READ by-region"), "6:13: render pass `rp`: dependency 0: self-dependency 0->0: srcStageMask FRAGMENT_SHADER names a framebuffer-space stage, dstStageMask VERTEX_SHADER one outside framebuffer space (VUID-VkSubpassDependency2-srcSubpass-06810)"),
        ("a dispatch inside", inside(one, "dispatch k write sb[0..4]\nend-render-pass\n"), "9: vkCmdDispatch inside the rendering instance begun at command 1: it must be recorded outside one (VUID-vkCmdDispatch-renderpass)"),
        ("end-rendering inside", inside(one, "end-rendering\n"), "9:1: vkCmdEndRendering: inside a render pass instance: end it with end-render-pass (VUID-vkCmdEndRendering-None-06161)"),
        ("a submit inside", inside(one, "submit\n"), "8: the command buffer is submitted (command 2) while this render pass instance is open: end-render-pass must come first (VUID-vkEndCommandBuffer-commandBuffer-00060)"),
        ("the trace ends inside", inside(one, ""), "8: the trace ends while this render pass instance is open: end-render-pass must come first (VUID-vkEndCommandBuffer-commandBuffer-00060)"),
        ("a view count mismatch", format!("{one}{TO_ATT}begin-render-pass rp col COLOR:0:0 ; res COLOR:0:0\n"), "8:1: vkCmdBeginRenderPass: 2 views for render pass `rp` with 1 attachments (VUID-VkFramebufferCreateInfo-attachmentCount-00876)"),
        ("a view format mismatch", format!("{one}begin-render-pass rp dep DEPTH|STENCIL:0:0\n"), "7:1: vkCmdBeginRenderPass: view 0: `dep` is D24_UNORM_S8_UINT, attachment 0 is R8G8B8A8_UNORM, of another size compatibility class: no view of the image has the attachment's format (VUID-VkFramebufferCreateInfo-pAttachments-00880)"),
        ("an attachment in the wrong layout at the begin", format!("{one}begin-render-pass rp col COLOR:0:0\nend-render-pass\n"), "7: vkCmdBeginRenderPass uses image `col` subresource COLOR mip 0 layer 0 in layout COLOR_ATTACHMENT_OPTIMAL, but its layout is UNDEFINED at that point (initialLayout is the layout the attachment's subresources are in when the render pass instance begins)"),
        ("an unknown render pass", "begin-render-pass nope col COLOR:0:0\n".into(), "6:19: unknown render pass `nope` (declare it with `render-pass`)"),
        ("multiview in one subpass only", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass viewMask=3 color 0 GENERAL ; subpass color 0 GENERAL"), "6:13: render pass `rp`: subpass 1: viewMask 0b0 where subpass 0 has 0b11 (multiview is all-or-nothing for a render pass) (VUID-VkRenderPassCreateInfo2-viewMask-03058)"),
        ("subpasses of different views", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass viewMask=3 color 0 GENERAL ; subpass viewMask=1 color 0 GENERAL"), "6:13: render pass `rp`: subpass 1: viewMask 0b1 where subpass 0 has 0b11 (subpasses rendering different views) is not modelled"),
        ("a view-local dependency without multiview", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL ; subpass color 0 GENERAL ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ view-local"), "6:13: render pass `rp`: dependency 0: view-local in a render pass without multiview (every viewMask 0) (VUID-VkRenderPassCreateInfo2-viewMask-03059)"),
        ("a view-local dependency from EXTERNAL", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass viewMask=3 color 0 GENERAL ; dependency EXTERNAL->0 COPY:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ view-local"), "6:13: render pass `rp`: dependency 0: view-local with srcSubpass EXTERNAL (VUID-VkSubpassDependency2-dependencyFlags-03090)"),
        ("a view-local dependency to EXTERNAL", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass viewMask=3 color 0 GENERAL ; dependency 0->EXTERNAL COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COPY:TRANSFER_READ view-local"), "6:13: render pass `rp`: dependency 0: view-local with dstSubpass EXTERNAL (VUID-VkSubpassDependency2-dependencyFlags-03091)"),
        ("a self-dependency of two views not view-local", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass viewMask=3 color 0 GENERAL ; dependency 0->0 VERTEX_SHADER:SHADER_STORAGE_WRITE -> VERTEX_SHADER:SHADER_STORAGE_READ"), "6:13: render pass `rp`: dependency 0: self-dependency 0->0 of a subpass with viewMask 0b11 (more than one view) without `view-local` (VUID-VkRenderPassCreateInfo2-pDependencies-03060)"),
        ("a framebuffer view without the layer of a view", "image arr R8G8B8A8_UNORM 4x4 layers 4\nrender-pass rp attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass viewMask=5 color 0 GENERAL\nbegin-render-pass rp arr COLOR:0:1..3\nend-render-pass\n".into(), "8:1: vkCmdBeginRenderPass: view 0: `arr` COLOR:0:1..3 has 2 layer(s), and the render pass's viewMask 0b101 renders view 2, its layer 2 (VUID-VkFramebufferCreateInfo-renderPass-04536)"),
        // "If multiview is enabled and the attachment is a view of a 1D or
        // 2D image, the automatic layout transitions apply to the layers
        // corresponding to views which are used by some subpass in the
        // render pass": layer 2 keeps its layout (layer 1, rendered, is in
        // GENERAL after the end: `multiview_transitions_cover_the_views_layers`).
        ("a layer outside the views keeps its layout", multiview_then_copy("2"), "12: vkCmdCopyImageToBuffer uses image `arr` subresource COLOR mip 0 layer 2 in layout GENERAL, but its layout is COLOR_ATTACHMENT_OPTIMAL at that point (VUID-vkCmdCopyImageToBuffer-srcImageLayout-00189)"),
        ("aliasing attachments in multiview", "image arr R8G8B8A8_UNORM 4x4 layers 3 initial GENERAL\nrender-pass rp attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; subpass viewMask=3 color 0 GENERAL color 1 GENERAL\nbegin-render-pass rp arr COLOR:0:0..2 ; arr COLOR:0:1..3\nend-render-pass\n".into(), "8:1: vkCmdBeginRenderPass: views 0 and 1 of `arr` overlap from different first layers (COLOR:0:0..2, COLOR:0:1..3), so one layer is a different view of each: aliasing attachments with multiview are not modelled"),
        ("multiview over a 3D image's slices", "image vol R8G8B8A8_UNORM 4x4x4 initial GENERAL\nrender-pass rp attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; subpass viewMask=1 color 0 GENERAL\nbegin-render-pass rp vol COLOR:0:0\nend-render-pass\n".into(), "8:1: vkCmdBeginRenderPass: view 0: `vol` is a 3D image: multiview over its depth slices (a 2D array view of them, view v its slice v) is not modelled"),
        ("dynamic multiview over a 3D image's slices", "image vol R8G8B8A8_UNORM 4x4x4 initial GENERAL\nbegin-rendering viewMask=1 color vol COLOR:0:0 GENERAL LOAD STORE\nend-rendering\n".into(), "7:1: vkCmdBeginRendering: pColorAttachments[0] `vol` is a 3D image: multiview over its depth slices (a 2D array view of them, view v its slice v) is not modelled"),
        ("a zero view mask", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass viewMask=0 color 0 GENERAL"), "6:83: expected `viewMask=M` with M a nonzero 32-bit number, found `viewMask=0`"),
        ("view-local given twice", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass viewMask=3 color 0 GENERAL ; subpass viewMask=3 color 0 GENERAL ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ view-local view-local"), "6:272: `view-local` given twice"),
        // A clear writes the attachment: its first use must allow that
        // (02522 for loadOp, 02523 for stencilLoadOp, each with its own
        // third layout; a later read-only use is fine).
        ("a clear before a first use as a read-only input attachment", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass input 0 SHADER_READ_ONLY_OPTIMAL"), "6:13: render pass `rp`: attachment 0: loadOp CLEAR, and its first use (subpass 0) is in SHADER_READ_ONLY_OPTIMAL, a layout that does not allow the clear's write (VUID-VkRenderPassCreateInfo2-pAttachments-02522)"),
        ("a depth clear before a first use with read-only depth", decl("attachment D24_UNORM_S8_UINT CLEAR STORE UNDEFINED->GENERAL ; attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 1 GENERAL ; subpass depth 0 DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL"), "6:13: render pass `rp`: attachment 0: loadOp CLEAR, and its first use (subpass 1) is in DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL, a layout that does not allow the clear's write (VUID-VkRenderPassCreateInfo2-pAttachments-02522)"),
        ("a stencil clear before a first use with read-only stencil", decl("attachment D24_UNORM_S8_UINT LOAD STORE stencil CLEAR STORE UNDEFINED->GENERAL ; subpass depth 0 DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL"), "6:13: render pass `rp`: attachment 0: stencilLoadOp CLEAR, and its first use (subpass 0) is in DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL, a layout that does not allow the clear's write (VUID-VkRenderPassCreateInfo2-pAttachments-02523)"),
        ("a depth/stencil clear before a first use in DEPTH_STENCIL_READ_ONLY_OPTIMAL", decl("attachment D24_UNORM_S8_UINT CLEAR STORE UNDEFINED->GENERAL ; subpass depth 0 DEPTH_STENCIL_READ_ONLY_OPTIMAL"), "6:13: render pass `rp`: attachment 0: loadOp CLEAR, and its first use (subpass 0) is in DEPTH_STENCIL_READ_ONLY_OPTIMAL, a layout that does not allow the clear's write (VUID-VkRenderPassCreateInfo2-pAttachments-02522)"),
        ("a clear before a write, then a read-only use: valid", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL ; subpass input 0 SHADER_READ_ONLY_OPTIMAL ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:INPUT_ATTACHMENT_READ"), ""),
        ("an attachment index out of range", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 1 GENERAL"), "6:13: render pass `rp`: subpass 0: attachment 1 of 1 (VUID-VkRenderPassCreateInfo2-attachment-03051)"),
        // Reference layouts, one row per rule of REFERENCE_LAYOUT_RULES
        // and member it binds (renderpass.rs): VUID-VkAttachmentReference2-
        // layout-03077 in every member, VkSubpassDescription2's per member,
        // and the two refusals no VkSubpassDescription2 VUID states.
        ("a color attachment in PRESENT_SRC_KHR", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 PRESENT_SRC_KHR"), "6:13: render pass `rp`: subpass 0: color attachment 0 in layout PRESENT_SRC_KHR (VUID-VkAttachmentReference2-layout-03077)"),
        ("a resolve attachment in UNDEFINED", decl(&format!("{TWO_COLOR} ; subpass color 0 GENERAL resolve 1 UNDEFINED")), "6:13: render pass `rp`: subpass 0: resolve attachment 1 in layout UNDEFINED (VUID-VkAttachmentReference2-layout-03077)"),
        ("a depth/stencil attachment in PREINITIALIZED", decl("attachment D24_UNORM_S8_UINT CLEAR STORE UNDEFINED->GENERAL ; subpass depth 0 PREINITIALIZED"), "6:13: render pass `rp`: subpass 0: depth/stencil attachment 0 in layout PREINITIALIZED (VUID-VkAttachmentReference2-layout-03077)"),
        ("a color attachment in SHADER_READ_ONLY_OPTIMAL", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 SHADER_READ_ONLY_OPTIMAL"), "6:13: render pass `rp`: subpass 0: color attachment 0 in layout SHADER_READ_ONLY_OPTIMAL (VUID-VkSubpassDescription2-attachment-06913)"),
        ("a resolve attachment in DEPTH_STENCIL_ATTACHMENT_OPTIMAL", decl(&format!("{TWO_COLOR} ; subpass color 0 GENERAL resolve 1 DEPTH_STENCIL_ATTACHMENT_OPTIMAL")), "6:13: render pass `rp`: subpass 0: resolve attachment 1 in layout DEPTH_STENCIL_ATTACHMENT_OPTIMAL (VUID-VkSubpassDescription2-attachment-06914)"),
        ("a depth/stencil attachment in COLOR_ATTACHMENT_OPTIMAL", decl("attachment D24_UNORM_S8_UINT CLEAR STORE UNDEFINED->GENERAL ; subpass depth 0 COLOR_ATTACHMENT_OPTIMAL"), "6:13: render pass `rp`: subpass 0: depth/stencil attachment 0 in layout COLOR_ATTACHMENT_OPTIMAL (VUID-VkSubpassDescription2-attachment-06915)"),
        ("a depth/stencil attachment in SHADER_READ_ONLY_OPTIMAL", decl("attachment D24_UNORM_S8_UINT CLEAR STORE UNDEFINED->GENERAL ; subpass depth 0 SHADER_READ_ONLY_OPTIMAL"), "6:13: render pass `rp`: subpass 0: depth/stencil attachment 0 in layout SHADER_READ_ONLY_OPTIMAL (VUID-VkSubpassDescription2-attachment-06915)"),
        ("a color attachment in DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL"), "6:13: render pass `rp`: subpass 0: color attachment 0 in layout DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL (VUID-VkSubpassDescription2-attachment-06916)"),
        ("a resolve attachment in DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL", decl(&format!("{TWO_COLOR} ; subpass color 0 GENERAL resolve 1 DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL")), "6:13: render pass `rp`: subpass 0: resolve attachment 1 in layout DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL (VUID-VkSubpassDescription2-attachment-06917)"),
        ("a color attachment in DEPTH_ATTACHMENT_OPTIMAL", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 DEPTH_ATTACHMENT_OPTIMAL"), "6:13: render pass `rp`: subpass 0: color attachment 0 in layout DEPTH_ATTACHMENT_OPTIMAL (VUID-VkSubpassDescription2-attachment-06919)"),
        ("a resolve attachment in STENCIL_READ_ONLY_OPTIMAL", decl(&format!("{TWO_COLOR} ; subpass color 0 GENERAL resolve 1 STENCIL_READ_ONLY_OPTIMAL")), "6:13: render pass `rp`: subpass 0: resolve attachment 1 in layout STENCIL_READ_ONLY_OPTIMAL (VUID-VkSubpassDescription2-attachment-06920)"),
        ("a color attachment in READ_ONLY_OPTIMAL", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 READ_ONLY_OPTIMAL"), "6:13: render pass `rp`: subpass 0: color attachment 0 in layout READ_ONLY_OPTIMAL (VUID-VkSubpassDescription2-attachment-06922)"),
        ("a resolve attachment in READ_ONLY_OPTIMAL", decl(&format!("{TWO_COLOR} ; subpass color 0 GENERAL resolve 1 READ_ONLY_OPTIMAL")), "6:13: render pass `rp`: subpass 0: resolve attachment 1 in layout READ_ONLY_OPTIMAL (VUID-VkSubpassDescription2-attachment-06923)"),
        ("a color attachment in DEPTH_STENCIL_READ_ONLY_OPTIMAL", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 DEPTH_STENCIL_READ_ONLY_OPTIMAL"), "6:13: render pass `rp`: subpass 0: color attachment 0 in layout DEPTH_STENCIL_READ_ONLY_OPTIMAL, a depth/stencil layout: beginning the pass needs its view to have DEPTH_STENCIL_ATTACHMENT usage, which no color format has (VUID-vkCmdBeginRenderPass2-initialLayout-03096)"),
        ("a resolve attachment in DEPTH_STENCIL_READ_ONLY_OPTIMAL", decl(&format!("{TWO_COLOR} ; subpass color 0 GENERAL resolve 1 DEPTH_STENCIL_READ_ONLY_OPTIMAL")), "6:13: render pass `rp`: subpass 0: resolve attachment 1 in layout DEPTH_STENCIL_READ_ONLY_OPTIMAL, a depth/stencil layout: beginning the pass needs its view to have DEPTH_STENCIL_ATTACHMENT usage, which no color format has (VUID-vkCmdBeginRenderPass2-initialLayout-03096)"),
        ("a color attachment in TRANSFER_DST_OPTIMAL", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 TRANSFER_DST_OPTIMAL"), "6:13: render pass `rp`: subpass 0: color attachment 0 in layout TRANSFER_DST_OPTIMAL, a layout for transfer commands only (\"Image Layouts\"; no VUID states it)"),
        ("a depth/stencil attachment in TRANSFER_SRC_OPTIMAL", decl("attachment D24_UNORM_S8_UINT CLEAR STORE UNDEFINED->GENERAL ; subpass depth 0 TRANSFER_SRC_OPTIMAL"), "6:13: render pass `rp`: subpass 0: depth/stencil attachment 0 in layout TRANSFER_SRC_OPTIMAL, a layout for transfer commands only (\"Image Layouts\"; no VUID states it)"),
        ("a depth format as a color attachment", decl("attachment D24_UNORM_S8_UINT CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL"), "6:13: render pass `rp`: subpass 0: attachment 0 (D24_UNORM_S8_UINT) used as a color attachment (VUID-VkSubpassDescription2-pColorAttachments-02898)"),
        // The format decides where the member does not: an input of a color
        // format in a depth/stencil layout cannot begin (its view would need
        // DEPTH_STENCIL_ATTACHMENT usage), and a depth/stencil reference's
        // depth-only or stencil-only layout must match the format's aspects.
        ("a color input in DEPTH_STENCIL_READ_ONLY_OPTIMAL", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass input 0 DEPTH_STENCIL_READ_ONLY_OPTIMAL"), "6:13: render pass `rp`: subpass 0: input attachment 0 (R8G8B8A8_UNORM) in layout DEPTH_STENCIL_READ_ONLY_OPTIMAL, a layout for depth/stencil formats: beginning the pass needs its view to have DEPTH_STENCIL_ATTACHMENT usage, which R8G8B8A8_UNORM cannot have (VUID-vkCmdBeginRenderPass2-initialLayout-03096)"),
        ("a color input in DEPTH_READ_ONLY_OPTIMAL", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass input 0 DEPTH_READ_ONLY_OPTIMAL"), "6:13: render pass `rp`: subpass 0: input attachment 0 (R8G8B8A8_UNORM) in layout DEPTH_READ_ONLY_OPTIMAL, a layout for depth/stencil formats: beginning the pass needs its view to have DEPTH_STENCIL_ATTACHMENT usage, which R8G8B8A8_UNORM cannot have (VUID-vkCmdBeginRenderPass2-initialLayout-02844)"),
        ("a depth-only layout for a depth/stencil format", decl("attachment D24_UNORM_S8_UINT CLEAR STORE UNDEFINED->GENERAL ; subpass depth 0 DEPTH_ATTACHMENT_OPTIMAL"), "6:13: render pass `rp`: subpass 0: depth/stencil attachment 0 (D24_UNORM_S8_UINT) in layout DEPTH_ATTACHMENT_OPTIMAL, a depth-only layout for a format with both aspects (a separate stencil layout is not modelled) (VUID-VkRenderPassCreateInfo2-attachment-06244)"),
        ("a stencil-only layout for a depth/stencil format", decl("attachment D24_UNORM_S8_UINT CLEAR STORE UNDEFINED->GENERAL ; subpass depth 0 STENCIL_READ_ONLY_OPTIMAL"), "6:13: render pass `rp`: subpass 0: depth/stencil attachment 0 (D24_UNORM_S8_UINT) in layout STENCIL_READ_ONLY_OPTIMAL, a stencil-only layout for a format with a depth aspect (VUID-VkRenderPassCreateInfo2-attachment-06245)"),
        ("a depth-only layout for a stencil-only format", decl("attachment S8_UINT CLEAR STORE UNDEFINED->GENERAL ; subpass depth 0 DEPTH_READ_ONLY_OPTIMAL"), "6:13: render pass `rp`: subpass 0: depth/stencil attachment 0 (S8_UINT) in layout DEPTH_READ_ONLY_OPTIMAL, a depth-only layout for a stencil-only format (VUID-VkRenderPassCreateInfo2-attachment-06246)"),
        ("a depth format as a resolve attachment", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; attachment D24_UNORM_S8_UINT DONT_CARE STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL resolve 1 GENERAL"), "6:13: render pass `rp`: subpass 0: attachment 1 (D24_UNORM_S8_UINT) used as a resolve attachment (VUID-VkSubpassDescription2-pResolveAttachments-09343)"),
        // VkAttachmentDescription2: a color format's initialLayout and
        // finalLayout are no depth/stencil layout (format-03280/03282,
        // -06487/06488, -03286/03287), a depth/stencil format's no
        // COLOR_ATTACHMENT_OPTIMAL (format-03281/03283).
        ("a color format with a depth/stencil initialLayout", decl("attachment R8G8B8A8_UNORM CLEAR STORE DEPTH_STENCIL_ATTACHMENT_OPTIMAL->GENERAL ; subpass color 0 GENERAL"), "6:13: render pass `rp`: attachment 0: initialLayout DEPTH_STENCIL_ATTACHMENT_OPTIMAL for R8G8B8A8_UNORM, not a depth/stencil format (VUID-VkAttachmentDescription2-format-03280)"),
        ("a color format with a depth-only finalLayout", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->DEPTH_READ_ONLY_OPTIMAL ; subpass color 0 GENERAL"), "6:13: render pass `rp`: attachment 0: finalLayout DEPTH_READ_ONLY_OPTIMAL for R8G8B8A8_UNORM, not a depth/stencil format (VUID-VkAttachmentDescription2-format-03287)"),
        ("a depth format with a color finalLayout", decl("attachment D24_UNORM_S8_UINT CLEAR STORE UNDEFINED->COLOR_ATTACHMENT_OPTIMAL ; subpass depth 0 GENERAL"), "6:13: render pass `rp`: attachment 0: finalLayout COLOR_ATTACHMENT_OPTIMAL for D24_UNORM_S8_UINT, not a color format (VUID-VkAttachmentDescription2-format-03283)"),
        ("stencil ops for a color format", decl("attachment R8G8B8A8_UNORM CLEAR STORE stencil CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL"), "6:13: render pass `rp`: attachment 0: `stencil` ops for R8G8B8A8_UNORM, a format without a stencil aspect (VkAttachmentDescription2: stencilLoadOp and stencilStoreOp apply to stencil formats only)"),
        ("an input attachment", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass input 0 GENERAL"), ""),
        ("an input attachment in COLOR_ATTACHMENT_OPTIMAL", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass input 0 COLOR_ATTACHMENT_OPTIMAL"), "6:13: render pass `rp`: subpass 0: input attachment 0 in layout COLOR_ATTACHMENT_OPTIMAL (VUID-VkSubpassDescription2-attachment-06912)"),
        ("an input attachment in DEPTH_STENCIL_ATTACHMENT_OPTIMAL", decl("attachment D24_UNORM_S8_UINT CLEAR STORE UNDEFINED->GENERAL ; subpass input 0 DEPTH_STENCIL_ATTACHMENT_OPTIMAL"), "6:13: render pass `rp`: subpass 0: input attachment 0 in layout DEPTH_STENCIL_ATTACHMENT_OPTIMAL (VUID-VkSubpassDescription2-attachment-06912)"),
        ("an input attachment in UNDEFINED", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass input 0 UNDEFINED"), "6:13: render pass `rp`: subpass 0: input attachment 0 in layout UNDEFINED (VUID-VkAttachmentReference2-layout-03077)"),
        ("an input attachment in STENCIL_ATTACHMENT_OPTIMAL", decl("attachment D24_UNORM_S8_UINT CLEAR STORE UNDEFINED->GENERAL ; subpass input 0 STENCIL_ATTACHMENT_OPTIMAL"), "6:13: render pass `rp`: subpass 0: input attachment 0 in layout STENCIL_ATTACHMENT_OPTIMAL (VUID-VkSubpassDescription2-attachment-06918)"),
        ("an input attachment in ATTACHMENT_OPTIMAL", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass input 0 ATTACHMENT_OPTIMAL"), "6:13: render pass `rp`: subpass 0: input attachment 0 in layout ATTACHMENT_OPTIMAL (VUID-VkSubpassDescription2-attachment-06921)"),
        ("an input attachment in TRANSFER_SRC_OPTIMAL", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass input 0 TRANSFER_SRC_OPTIMAL"), "6:13: render pass `rp`: subpass 0: input attachment 0 in layout TRANSFER_SRC_OPTIMAL, a layout for transfer commands only (\"Image Layouts\"; no VUID states it)"),
        ("an input attachment index out of range", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass input 1 GENERAL"), "6:13: render pass `rp`: subpass 0: input attachment 1 of 1 (VUID-VkRenderPassCreateInfo2-attachment-03051)"),
        ("an input and color attachment in two layouts", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass input 0 SHADER_READ_ONLY_OPTIMAL color 0 GENERAL"), "6:13: render pass `rp`: subpass 0: attachment 0 referenced in layouts GENERAL and SHADER_READ_ONLY_OPTIMAL (VUID-VkSubpassDescription2-layout-02528)"),
        ("a feedback loop", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass input 0 GENERAL color 0 GENERAL"), "6:13: render pass `rp`: subpass 0: attachment 0 both an input and a color or depth/stencil attachment (a feedback loop) is not modelled"),
        ("preserving an input attachment", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass input 0 GENERAL preserve 0"), "6:13: render pass `rp`: subpass 0: attachment 0 is both used and preserved (VUID-VkSubpassDescription2-pPreserveAttachments-03074)"),
        ("a dependency running backwards", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL ; subpass ; dependency 1->0 COLOR_ATTACHMENT_OUTPUT -> FRAGMENT_SHADER"), "6:13: render pass `rp`: dependency 0: 1->0 runs backwards (VUID-VkSubpassDependency2-srcSubpass-03084)"),
        // review23: a subpass side names ALL_COMMANDS or graphics stages only.
        ("a compute stage into a subpass", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL ; subpass color 0 GENERAL ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COMPUTE_SHADER|FRAGMENT_SHADER:SHADER_SAMPLED_READ"), "6:13: render pass `rp`: dependency 0: dstStageMask FRAGMENT_SHADER|COMPUTE_SHADER names COMPUTE_SHADER, which the graphics pipeline of subpass 1 does not run (ALL_COMMANDS or graphics stages only) (VUID-VkRenderPassCreateInfo2-pDependencies-03055)"),
        ("a transfer stage out of a subpass", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL ; subpass color 0 GENERAL ; dependency 0->1 COPY:TRANSFER_WRITE -> FRAGMENT_SHADER:SHADER_SAMPLED_READ"), "6:13: render pass `rp`: dependency 0: srcStageMask COPY names COPY, which the graphics pipeline of subpass 0 does not run (ALL_COMMANDS or graphics stages only) (VUID-VkRenderPassCreateInfo2-pDependencies-03054)"),
        ("an unsupported access in a dependency", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL ; dependency EXTERNAL->0 COPY:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT"), "6:13: render pass `rp`: dependency 0: source access `COLOR_ATTACHMENT_WRITE` is not supported by any stage in `COPY`; it needs one of `COLOR_ATTACHMENT_OUTPUT` or `ALL_COMMANDS` (VUID-VkSubpassDependency2-srcAccessMask-03088)"),
        ("preserving a used attachment", decl("attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL preserve 0"), "6:13: render pass `rp`: subpass 0: attachment 0 is both used and preserved (VUID-VkSubpassDescription2-pPreserveAttachments-03074)"),
        ("clear-attachments outside", "clear-attachments color 0\n".into(), "6:1: vkCmdClearAttachments outside a rendering or render pass instance (VUID-vkCmdClearAttachments-renderpass)"),
        ("clear-attachments of a color slot past the subpass's", inside(one, "clear-attachments color 1\n"), "9:1: vkCmdClearAttachments: color attachment 1 of 1 (VUID-vkCmdClearAttachments-aspectMask-07271)"),
    ];
    let mut failures = Vec::new();
    for (name, body, want) in cases {
        let got = error(&body);
        if got != want {
            failures.push(format!("(\"{name}\", {body:?}, {got:?}),"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The dependency clauses of a planned program's first render pass, as the
/// trace writes them, after checking that the plan of every planner that
/// must be race-free is (the offline, online and conservative planners,
/// `--schedule`, and `--async-compute` with the offline and the online
/// planner inside each queue), under the fast checker and the definitional
/// semantics, and that none amends the declaration with a bit the offline
/// plan's declaration lacks (the amendment comes before the planner,
/// `vksync::plan::plan`, and each plan then drops the added bits its own
/// barriers make redundant: the offline planner, with the fewest barriers,
/// keeps the most; the conservative one's barrier after the end can hold
/// what a dependency to `EXTERNAL` held). The offline plan's clauses.
fn planned_dependencies(text: &str) -> Vec<String> {
    use vksync::plan::{
        plan, plan_async_compute, schedule, PlanOptions, PlannerKind, QueuePlanOptions, ScheduleOptions,
    };
    let t = trace::parse(text).unwrap();
    let mut plans = Vec::new();
    for planner in [
        PlannerKind::Offline,
        PlannerKind::Online,
        PlannerKind::Conservative,
    ] {
        let q = plan(&t.program, PlanOptions::new(planner)).map_err(|e| e.to_string());
        plans.push((format!("{planner:?}"), q.map(|q| q.program)));
    }
    plans.push((
        "schedule".to_string(),
        schedule(&t.program, ScheduleOptions::default())
            .map(|s| s.plan.program)
            .map_err(|e| e.to_string()),
    ));
    for planner in [PlannerKind::Offline, PlannerKind::Online] {
        let q = plan_async_compute(&t.program, QueuePlanOptions::new(PlanOptions::new(planner)))
            .map_err(|e| e.to_string());
        plans.push((format!("async {planner:?}"), q.map(|q| q.plan.program)));
    }
    let mut seen: Option<Vec<vksync::SubpassDependency>> = None;
    for (label, q) in plans {
        let q = q.unwrap_or_else(|e| panic!("{label}: {e}\n{text}"));
        let printed = trace::print(&q);
        assert_eq!(check(&q).unwrap(), vec![], "{label}:\n{printed}");
        assert!(
            races(&q, Reading::MemoryModel).unwrap().is_empty(),
            "{label}:\n{printed}"
        );
        // The printed plan parses back with the amended declaration.
        let again = trace::parse(&printed).unwrap_or_else(|e| panic!("{label}: {e}\n{printed}"));
        assert_eq!(again.program.render_passes(), q.render_passes());
        let deps = q.render_passes()[0].dependencies.clone();
        match &seen {
            None => seen = Some(deps),
            Some(offline) => {
                let within = |d: &vksync::SubpassDependency, o: &vksync::SubpassDependency| {
                    (d.src, d.dst, d.by_region, d.view_local) == (o.src, o.dst, o.by_region, o.view_local)
                        && o.src_stage_mask.contains(d.src_stage_mask)
                        && o.src_access_mask.contains(d.src_access_mask)
                        && o.dst_stage_mask.contains(d.dst_stage_mask)
                        && o.dst_access_mask.contains(d.dst_access_mask)
                };
                assert!(
                    deps.len() == offline.len() && deps.iter().zip(offline).all(|(d, o)| within(d, o)),
                    "{label}: {deps:?} is not within the offline plan's {offline:?}"
                );
            }
        }
    }
    seen.unwrap().iter().map(|d| d.to_string()).collect()
}

/// Hazards only a subpass dependency orders: between two subpasses of one
/// instance, and against an automatic layout transition (at a begin, a
/// next-subpass or the end) from a command in the dependency's scope (one
/// of another instance too, where no barrier chains into the dependency
/// from or to `EXTERNAL`: its stages `NONE` there). Every
/// planner amends the declaration with the masks the hazard's fix names
/// (to a declared dependency of the pair, by-region kept where both stage
/// masks lie in framebuffer space; else a new clause, from `EXTERNAL`
/// starting from the implicit dependency it replaces), and the plan is
/// race-free. A render pass of two instances gets one amended declaration.
/// Then the bits added that the plan does not need go (a new dependency
/// from or to `EXTERNAL` keeps of the implicit one's masks only what the
/// pass's attachments use: no depth/stencil access bits without a
/// depth/stencil attachment).
#[test]
fn plans_add_the_subpass_dependencies_a_render_pass_needs() {
    const BOTH: &str = "0->1 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_WRITE|COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE";
    const REVIEW_0_1: &str = "dependency 0->1 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_WRITE|COLOR_ATTACHMENT_WRITE -> VERTEX_ATTRIBUTE_INPUT|COLOR_ATTACHMENT_OUTPUT:VERTEX_ATTRIBUTE_READ|COLOR_ATTACHMENT_WRITE by-region";
    let copy_after =
        "copy-image-to-buffer col TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1\n";
    let final_transition = format!(
        "barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col COLOR:0:0 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
         render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->TRANSFER_SRC_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL\n\
         begin-render-pass rp col COLOR:0:0\ndraw vertexCount=3\nend-render-pass\n{copy_after}"
    );
    let storage = |deps: &str, first: &str, instances: usize| {
        let one = format!(
            "begin-render-pass rp col COLOR:0:0\ndraw vertexCount=3 {first}\nnext-subpass\ndraw vertexCount=3 fs read sb[0..256]\nend-render-pass\n"
        );
        format!(
            "render-pass rp {COLOR_KEPT} ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL{deps}\n{TO_ATT}{}",
            one.repeat(instances)
        )
    };
    let fb_writes = " ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE by-region";
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        (
            "a copy after the pass against its final transition: a new dependency to EXTERNAL (the implicit one's masks and the copy's)",
            final_transition,
            vec!["0->EXTERNAL ALL_COMMANDS:COLOR_ATTACHMENT_WRITE -> COPY:TRANSFER_READ"],
        ),
        (
            "a layout change between two subpasses (both draw into `col`, the first writes `sb` the second reads): \
             the transition's destination, the color writes' and the storage write's masks in a new 0->1",
            two_subpasses(("COLOR_ATTACHMENT_OPTIMAL", "GENERAL"), "GENERAL", ""),
            vec![BOTH],
        ),
        (
            "a storage write in subpass 0 read in subpass 1, both drawing into `col`: a new dependency 0->1",
            storage("", "fs write sb[0..256]", 1),
            vec![BOTH],
        ),
        (
            "the same with a by-region dependency 0->1 of the color writes declared: kept as it is (the storage bytes \
             are no attachment's, which a by-region dependency would not order), a new clause",
            storage(fb_writes, "fs write sb[0..256]", 1),
            vec![
                "0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE by-region",
                "0->1 FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ",
            ],
        ),
        (
            "from the vertex shader, outside framebuffer space: the same",
            storage(fb_writes, "vs write sb[0..256]", 1),
            vec![
                "0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE by-region",
                "0->1 VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ",
            ],
        ),
        (
            "an input attachment read whose by-region dependency names sampled reads only: the input read added to it, \
             by-region kept (an attachment's bytes between framebuffer-space stages)",
            deferred(
                "STORE",
                " ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:SHADER_SAMPLED_READ by-region",
            ),
            vec!["0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:INPUT_ATTACHMENT_READ|SHADER_SAMPLED_READ by-region"],
        ),
        (
            "a sampled read of an earlier subpass's attachment after a by-region dependency naming it: a new clause \
             that is not by-region (the by-region one orders attachment accesses only)",
            "barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col COLOR:0:0 UNDEFINED->GENERAL ; \
             NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE res COLOR:0:0 UNDEFINED->GENERAL\n\
             render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; \
             attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; subpass color 0 GENERAL ; subpass color 1 GENERAL ; \
             dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:SHADER_SAMPLED_READ by-region\n\
             begin-render-pass rp col COLOR:0:0 ; res COLOR:0:0\n\
             draw vertexCount=3\n\
             next-subpass\n\
             draw vertexCount=3 fs sampled-image col COLOR:0:0 GENERAL\n\
             end-render-pass\n"
                .to_string(),
            vec![
                "0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:SHADER_SAMPLED_READ by-region",
                "0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:SHADER_SAMPLED_READ",
            ],
        ),
        (
            "two instances of one render pass: one declaration",
            storage("", "fs write sb[0..256]", 2),
            vec![BOTH],
        ),
        (
            "two instances of a pass that moves `col` out of GENERAL and back: the begin's transition against the \
             first instance's store, the end's against the second's, a new dependency from and one to EXTERNAL \
             (another instance's commands are in EXTERNAL's scope too)",
            format!(
                "barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col COLOR:0:0 UNDEFINED->GENERAL\n\
                 render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL\n{}",
                "begin-render-pass rp col COLOR:0:0\ndraw vertexCount=3\nend-render-pass\n".repeat(2)
            ),
            vec![
                "EXTERNAL->0 COLOR_ATTACHMENT_OUTPUT:NONE -> ALL_COMMANDS:COLOR_ATTACHMENT_WRITE",
                "0->EXTERNAL ALL_COMMANDS:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:NONE",
            ],
        ),
        (
            "the same at a begin, with aliased buffers and a layout change at the next-subpass (the exhaustive \
             graphics suite's planners-refuse-where-conservative-plans.trace, its unused declarations left out: the \
             offline and online planners refused it while the conservative baseline planned it)",
            format!(
                "buffer m 32\nbuffer s 16 alias m 0\nbuffer v 16 alias m 8\nimage c R8_UNORM 2x2\n\
                 barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE c COLOR:0:0 UNDEFINED->GENERAL\n\
                 render-pass rp2 attachment R8_UNORM CLEAR STORE GENERAL->GENERAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL \
                 ; subpass color 0 GENERAL ; {REVIEW_0_1}\n{}",
                "begin-render-pass rp2 c COLOR:0:0\ndraw vertexCount=1 fs write s[8..16]\nnext-subpass\n\
                 draw vertexCount=2 vertex v 0 8\nend-render-pass\n"
                    .repeat(2)
            ),
            vec![
                &REVIEW_0_1["dependency ".len()..],
                "EXTERNAL->0 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> ALL_COMMANDS:COLOR_ATTACHMENT_WRITE",
            ],
        ),
        (
            "two attachments on two layers of one image, the second first used in subpass 1 (a clear of its layer \
             before the pass): its transition at the next-subpass is EXTERNAL->1's, found by the attachment whose \
             view holds the bytes (before, by the image alone: the first attachment's 0->1, and every planner \
             refused); subpass 1's draw into layer 0 after subpass 0's needs 0->1",
            "image lay R8G8B8A8_UNORM 4x4 layers 2 initial GENERAL\n\
             render-pass rpl attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; attachment R8G8B8A8_UNORM LOAD \
             STORE GENERAL->GENERAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 \
             COLOR_ATTACHMENT_OPTIMAL color 1 COLOR_ATTACHMENT_OPTIMAL\n\
             clear-color-image lay GENERAL COLOR:0:1\nbegin-render-pass rpl lay COLOR:0:0 ; lay COLOR:0:1\n\
             draw vertexCount=3\nnext-subpass\ndraw vertexCount=3\nend-render-pass\n"
                .to_string(),
            vec![
                "EXTERNAL->1 CLEAR:TRANSFER_WRITE -> ALL_COMMANDS:COLOR_ATTACHMENT_READ",
                "0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE",
            ],
        ),
        (
            "multiview: a view-local dependency of the color writes declared: kept as it is (the storage bytes are \
             no one view's, which a view-local dependency would not order), a new clause",
            multiview(
                3,
                2,
                " ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE view-local",
            ),
            vec![
                "0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE view-local",
                "0->1 FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ",
            ],
        ),
        (
            // Review of the twenty-eighth session: another mip of an
            // attachment's image is no attachment byte (the planners took
            // it for one by its image, amended the view-local dependency
            // and found no plan).
            "multiview: a storage image binding of another mip of the attachment's image: a new clause, not the \
             view-local one",
            "image arr R8G8B8A8_UNORM 4x4 mips 2 layers 2\n\
             barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE arr COLOR:0..2:0..2 UNDEFINED->GENERAL\n\
             render-pass mv attachment R8G8B8A8_UNORM LOAD STORE GENERAL->GENERAL ; subpass viewMask=3 color 0 GENERAL ; \
             subpass viewMask=3 color 0 GENERAL ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> \
             COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE view-local\n\
             begin-render-pass mv arr COLOR:0:0..2\n\
             draw vertexCount=3 fs image-write arr COLOR:1:0..2\n\
             next-subpass\n\
             draw vertexCount=3 fs image-read arr COLOR:1:0..2\n\
             end-render-pass\n"
                .to_string(),
            vec![
                "0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE view-local",
                "0->1 FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ",
            ],
        ),
        (
            "multiview: the color writes' masks go to a view-local dependency declared (an attachment's bytes, one \
             view's), the storage write's to a new clause",
            multiview(
                3,
                2,
                " ; dependency 0->1 FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ view-local",
            ),
            vec![
                "0->1 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_WRITE|COLOR_ATTACHMENT_WRITE -> \
                 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE view-local",
                "0->1 FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ",
            ],
        ),
    ];
    let mut failures = Vec::new();
    for (name, body, want) in cases {
        let text = format!("{HEAD}{body}");
        let t = trace::parse(&text).unwrap();
        assert!(!check(&t.program).unwrap().is_empty(), "{name}: the input races");
        let got = planned_dependencies(&text);
        if got != want {
            failures.push(format!("{name}: {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each bit the planner adds to a render pass declaration is needed: the
/// plan checks clean, and with any one added bit removed (the masks still
/// valid) it does not (`thin_added_dependency_bits` in `vksync::plan`).
/// The declared bits stay as written. Random render pass programs of
/// `tests/render-pass-random` whose plans had redundant added bits before
/// (the rounds add a hazard's masks to the dependency of its pair, and a
/// later round's, or the implicit dependency a new one replaces, can hold
/// them).
#[test]
fn planned_dependency_bits_are_each_needed() {
    use vksync::plan::{plan, PlanOptions, PlannerKind};
    use vksync::{AccessFlags2, PipelineStageFlags2, SubpassDependency};
    let cases = [
        (
            "an ALL_GRAPHICS source: COLOR_ATTACHMENT_OUTPUT is not added beside it (seed 700047)",
            "buffer sb2 256\nbuffer vb 256\nimage col0 R8G8B8A8_UNORM 4x4 initial TRANSFER_SRC_OPTIMAL\n\
             render-pass rp0 attachment R8G8B8A8_UNORM DONT_CARE NONE UNDEFINED->COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 \
             ATTACHMENT_OPTIMAL ; dependency EXTERNAL->0 ALL_COMMANDS:NONE -> ALL_GRAPHICS:MEMORY_READ|MEMORY_WRITE ; \
             dependency 0->EXTERNAL ALL_GRAPHICS:NONE -> COPY:TRANSFER_READ\n\
             fill sb2[0..256] 4\nbegin-render-pass rp0 col0 COLOR:0:0\n\
             draw vertexCount=3 vs write sb2[0..256] fs write vb[0..256]\nend-render-pass\ncopy vb[0..256] -> sb2[0..256]\n",
            vec![
                "EXTERNAL->0 ALL_COMMANDS:NONE -> ALL_GRAPHICS:MEMORY_READ|MEMORY_WRITE",
                "0->EXTERNAL ALL_GRAPHICS:COLOR_ATTACHMENT_WRITE -> COPY:TRANSFER_READ",
            ],
        ),
        (
            "a storage write read as vertices in the next subpass: the stages of the two accesses only",
            "buffer sb 256\nimage col R8G8B8A8_UNORM 4x4\n\
             render-pass rp attachment R8G8B8A8_UNORM CLEAR DONT_CARE UNDEFINED->GENERAL ; subpass ; subpass color 0 GENERAL\n\
             begin-render-pass rp col COLOR:0:0\ndraw vertexCount=3 fs write sb[0..256]\nnext-subpass\n\
             draw vertexCount=3 vertex sb 0 16\nend-render-pass\n",
            vec!["0->1 FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ"],
        ),
    ];
    let clean = |p: &vksync::Program| {
        check(p).unwrap().is_empty() && races(p, Reading::VisibleToWrites).unwrap().is_empty()
    };
    let mut failures = Vec::new();
    for (name, text, want) in cases {
        let t = trace::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let planned = plan(&t.program, PlanOptions::new(PlannerKind::Offline))
            .unwrap()
            .program;
        assert!(
            clean(&planned),
            "{name}: the plan races\n{}",
            trace::print(&planned)
        );
        let deps = &planned.render_passes()[0].dependencies;
        let got: Vec<String> = deps.iter().map(|d| d.to_string()).collect();
        if got != want {
            failures.push(format!("{name}: {got:?}"));
        }
        let declared = &t.program.render_passes()[0].dependencies;
        let fields = |d: &SubpassDependency| {
            [
                d.src_stage_mask.bits(),
                d.src_access_mask.bits(),
                d.dst_stage_mask.bits(),
                d.dst_access_mask.bits(),
            ]
        };
        for (j, d) in deps.iter().enumerate() {
            let mine = declared.get(j).map_or([0; 4], fields);
            for (f, bits) in fields(d).into_iter().enumerate() {
                for bit in (0..64)
                    .map(|n| 1u64 << n)
                    .filter(|b| bits & b != 0 && mine[f] & b == 0)
                {
                    let mut m = fields(d);
                    m[f] &= !bit;
                    let thinner = SubpassDependency {
                        src_stage_mask: PipelineStageFlags2::from_bits_retain(m[0]),
                        src_access_mask: AccessFlags2::from_bits_retain(m[1]),
                        dst_stage_mask: PipelineStageFlags2::from_bits_retain(m[2]),
                        dst_access_mask: AccessFlags2::from_bits_retain(m[3]),
                        ..*d
                    };
                    // Through the trace text, so the declaration is
                    // validated as a user's would be.
                    let printed = trace::print(&planned).replace(&d.to_string(), &thinner.to_string());
                    if let Ok(p) = trace::parse(&printed) {
                        if clean(&p.program) {
                            failures.push(format!(
                                "{name}: {d} keeps a bit it does not need ({thinner} is clean)"
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A dispatch writes a vertex buffer that subpass 1 of a render pass draws
/// from, with no dependency into subpass 1: every planner places the
/// barrier before `begin-render-pass` (a barrier's second scope holds every
/// later command, subpass 1's included), where the render pass's subpass
/// dependencies are not needed; the plan checks clean.
#[test]
fn plans_order_a_dispatch_before_a_later_subpass_from_before_the_pass() {
    use vksync::plan::{plan, PlanOptions, PlannerKind};
    let text = format!(
        "{HEAD}render-pass rp {COLOR_KEPT} ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL \
         ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE\n\
         {TO_ATT}\
         dispatch k write sb[0..256]\n\
         begin-render-pass rp col COLOR:0:0\n\
         draw vertexCount=3\n\
         next-subpass\n\
         draw vertexCount=3 vertex sb 0 16\n\
         end-render-pass\n"
    );
    let t = trace::parse(&text).unwrap();
    let hs = check(&t.program).unwrap();
    assert_eq!(
        hs.len(),
        1,
        "the draw in subpass 1 reads the dispatch's write: {hs:?}"
    );
    for planner in [
        PlannerKind::Offline,
        PlannerKind::Online,
        PlannerKind::Conservative,
    ] {
        let q = plan(&t.program, PlanOptions::new(planner)).unwrap_or_else(|e| panic!("{planner:?}: {e}"));
        assert!(
            check(&q.program).unwrap().is_empty(),
            "{planner:?}:\n{}",
            trace::print(&q.program)
        );
        assert!(
            races(&q.program, Reading::MemoryModel).unwrap().is_empty(),
            "{planner:?}:\n{}",
            trace::print(&q.program)
        );
    }
}

/// The planners plan without the trace's barriers and place none inside a
/// subpass: a pair of draws of one subpass that only a barrier there
/// orders is refused, and the error names the self-dependency and the
/// barrier (from the vertex shader, a stage outside framebuffer space, so
/// framebuffer-global) as well as the two-subpass fix; from a
/// framebuffer-space stage (a by-region barrier, which orders no storage
/// bytes) only the latter.
#[test]
fn plans_refuse_a_hazard_inside_a_subpass_naming_a_self_dependency() {
    use vksync::plan::{plan, PlanOptions, PlannerKind};
    let refusal = |first: &str| {
        let text = format!("{HEAD}{}", self_dependency("", first, "", "fs read sb[0..256]"));
        let t = trace::parse(&text).unwrap();
        let e = plan(&t.program, PlanOptions::new(PlannerKind::Offline)).expect_err("refused");
        assert!(
            matches!(&e.kind, vksync::ProgramErrorKind::Render(r)
                if matches!(**r, vksync::RenderError::HazardInsideSubpass { .. })),
            "{e}"
        );
        e.to_string()
    };
    let msg = refusal("vs write sb[0..256]");
    assert!(
        msg.ends_with(
            "add `dependency 0->0 VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ` (or these \
             masks to one) to the render pass and record `barrier VERTEX_SHADER:SHADER_STORAGE_WRITE -> \
             FRAGMENT_SHADER:SHADER_STORAGE_READ` between them, or record them in two subpasses with a dependency 0->1 \
             between them"
        ),
        "{msg}"
    );
    // What the error suggests checks clean.
    let fixed = format!(
        "{HEAD}{}",
        self_dependency(
            VS_TO_FS,
            "vs write sb[0..256]",
            VS_TO_FS_BARRIER,
            "fs read sb[0..256]"
        )
    );
    let fixed = trace::parse(&fixed).unwrap().program;
    assert_eq!(check(&fixed).unwrap(), vec![]);
    // Planned, the barrier inside the subpass is dropped with the others
    // and not placed again: refused the same way, for every planner.
    for planner in [
        PlannerKind::Offline,
        PlannerKind::Online,
        PlannerKind::Conservative,
    ] {
        let e = plan(&fixed, PlanOptions::new(planner)).expect_err("refused");
        assert!(
            matches!(&e.kind, vksync::ProgramErrorKind::Render(r)
                if matches!(**r, vksync::RenderError::HazardInsideSubpass { .. })),
            "{planner:?}: {e}"
        );
    }
    let msg = refusal("fs write sb[0..256]");
    assert!(
        msg.ends_with("record them in two subpasses with a dependency 0->1 between them"),
        "{msg}"
    );
}

/// review23: a hazard between a render pass's transition into a later
/// subpass's layout (at its next-subpass) and a command after the instance
/// is fixed by a barrier after the end whose first scope is `ALL_COMMANDS`
/// (no subpass dependency holds the later command; the text asked for one
/// naming a compute stage, which is invalid there and orders nothing). The
/// printed barrier, recorded just before the later command, removes the
/// hazard in both checkers. Cases: (name, body ending with the later
/// command, the fix text).
#[test]
fn a_later_subpass_transition_before_a_command_after_the_pass_is_fixed_by_a_barrier() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "a sampled read in a dispatch",
            "render-pass rp attachment R8G8B8A8_UNORM NONE NONE UNDEFINED->SHADER_READ_ONLY_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass input 0 SHADER_READ_ONLY_OPTIMAL
begin-render-pass rp col COLOR:0:0
next-subpass
end-render-pass
dispatch k sampled-image col COLOR:0:0 SHADER_READ_ONLY_OPTIMAL write sb[0..64]",
            "barrier ALL_COMMANDS:NONE -> COMPUTE_SHADER:SHADER_SAMPLED_READ col COLOR:0:0 SHADER_READ_ONLY_OPTIMAL->SHADER_READ_ONLY_OPTIMAL outside the render pass instance, between line 8 and line 10",
        ),
        (
            "a copy out",
            "render-pass rp attachment R8G8B8A8_UNORM NONE NONE UNDEFINED->GENERAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass input 0 GENERAL
begin-render-pass rp col COLOR:0:0
next-subpass
end-render-pass
copy-image-to-buffer col GENERAL -> out imageSubresource=COLOR:0:0 imageExtent=4,4,1",
            "barrier ALL_COMMANDS:NONE -> COPY:TRANSFER_READ col COLOR:0:0 GENERAL->GENERAL outside the render pass instance, between line 8 and line 10",
        ),
    ];
    for (name, body, want) in cases {
        let t = parse(body).unwrap_or_else(|e| panic!("{name}: {e}"));
        let hs = check(&t.program).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(hs.len(), 1, "{name}: {:?}", hazards(name, body));
        let fix = hs[0].fix_text_at(&t.program, &t.command_lines);
        assert_eq!(fix, *want, "{name}");
        let barrier = fix.split(" outside").next().unwrap();
        let (head, last) = body.rsplit_once('\n').unwrap();
        let fixed = format!("{head}\n{barrier}\n{last}");
        assert_eq!(
            hazards(name, &fixed),
            Vec::<String>::new(),
            "{name}: fixed\n{fixed}"
        );
    }
}

/// review36: a scope limited to a subpass holds that subpass's operations
/// only, which are in graphics stages, so a chain between it and another
/// scope needs a shared graphics stage: a barrier to `COPY` (or
/// `COMPUTE_SHADER`) before the pass does not chain into a dependency
/// `0->1` from `ALL_COMMANDS` ("the intersection of ScopedOps2 in ExeDepA
/// and ScopedOps1 in ExeDepB" is empty: subpass 0 holds no copy), and
/// subpass 1's read races the fill; both checkers called it ordered. A
/// barrier to `COLOR_ATTACHMENT_OUTPUT`, the stage of subpass 0's load
/// operation, chains. Cases: the barrier's second scope, the hazards.
#[test]
fn a_chain_into_a_subpass_dependency_needs_a_stage_of_the_subpass() {
    let cases: &[(&str, &[&str])] = &[
        ("COPY:NONE", &["L11 READ_AFTER_WRITE sb[0..256] after L7"]),
        (
            "COMPUTE_SHADER:NONE",
            &["L11 READ_AFTER_WRITE sb[0..256] after L7"],
        ),
        ("COLOR_ATTACHMENT_OUTPUT:NONE", &[]),
        ("ALL_COMMANDS:NONE", &[]),
    ];
    for (second, want) in cases {
        let body = format!(
            "render-pass rp attachment R8G8B8A8_UNORM DONT_CARE DONT_CARE UNDEFINED->GENERAL ; subpass color 0 GENERAL ; \
             subpass color 0 GENERAL ; dependency 0->1 ALL_COMMANDS:COLOR_ATTACHMENT_WRITE -> \
             FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE\n\
             fill sb 3\nbarrier CLEAR:TRANSFER_WRITE -> {second}\nbegin-render-pass rp col COLOR:0:0\nnext-subpass\n\
             draw vertexCount=3 fs read sb\nend-render-pass\n"
        );
        assert_eq!(hazards(second, &body), want.to_vec(), "{second}");
    }
}

/// The same rule across a semaphore: a wait's second scope chains into a
/// dependency from a subpass, and a dependency into a subpass into a
/// signal's first scope, only through a stage an operation of the subpass
/// can be in. Both checkers' semaphore chains needed it (the definitional
/// semantics chained through `COMPUTE_SHADER` into an implicit
/// `1->EXTERNAL` from `ALL_COMMANDS`; spec_differential's rendering on
/// semaphores found it). Cases: the wait's stage (into `0->1`), the
/// signal's stage (from `EXTERNAL->0` to `ALL_COMMANDS`), the hazards. (A
/// signal to `COMPUTE_SHADER` would chain: its first scope holds the
/// logically earlier `DRAW_INDIRECT`, a stage of the graphics pipeline.)
#[test]
fn a_semaphore_chains_with_a_subpass_dependency_through_a_stage_of_the_subpass() {
    let wait = |stage: &str| {
        format!(
            "semaphore b\n\
             render-pass rp attachment R8G8B8A8_UNORM DONT_CARE DONT_CARE UNDEFINED->GENERAL ; subpass color 0 GENERAL ; \
             subpass color 0 GENERAL ; dependency 0->1 ALL_COMMANDS:COLOR_ATTACHMENT_WRITE -> \
             FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE\n\
             fill sb 3\nsubmit signal b\nbegin-render-pass rp col COLOR:0:0\nnext-subpass\n\
             draw vertexCount=3 fs read sb\nend-render-pass\nsubmit wait b@{stage}\n"
        )
    };
    let signal = |stage: &str| {
        format!(
            "semaphore b\n\
             render-pass rp attachment R8G8B8A8_UNORM DONT_CARE DONT_CARE UNDEFINED->GENERAL ; subpass color 0 GENERAL ; \
             dependency EXTERNAL->0 CLEAR:TRANSFER_WRITE -> ALL_COMMANDS:NONE ; \
             dependency 0->EXTERNAL COLOR_ATTACHMENT_OUTPUT:NONE -> FRAGMENT_SHADER:NONE\n\
             fill sb 3\nbegin-render-pass rp col COLOR:0:0\nend-render-pass\nsubmit signal b@{stage}\n\
             dispatch k read sb\nsubmit wait b@COMPUTE_SHADER\n"
        )
    };
    let race = &["L12 READ_AFTER_WRITE sb[0..256] after L8"];
    let cases: Vec<(String, String, &[&str])> = vec![
        ("wait COPY".into(), wait("COPY"), race),
        ("wait COMPUTE_SHADER".into(), wait("COMPUTE_SHADER"), race),
        (
            "wait COLOR_ATTACHMENT_OUTPUT".into(),
            wait("COLOR_ATTACHMENT_OUTPUT"),
            &[],
        ),
        ("signal COPY".into(), signal("COPY"), race),
        (
            "signal COLOR_ATTACHMENT_OUTPUT".into(),
            signal("COLOR_ATTACHMENT_OUTPUT"),
            &[],
        ),
    ];
    for (name, body, want) in cases {
        assert_eq!(hazards(&name, &body), want.to_vec(), "{name}");
    }
}

/// review36: the trace records no view formats, and a view of an image
/// created with `VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT` may take another
/// format of its size compatibility class, so an attachment (and a
/// resolve target) of such a format is accepted: an `R8G8B8A8_UNORM`
/// image rendered through an `R8G8B8A8_SRGB` attachment, and resolved
/// into from an sRGB image (both were refused, the whole trace with
/// them). A format of another class is still refused.
#[test]
fn attachments_may_view_an_image_in_a_compatible_format() {
    let cases: &[(&str, &str, bool)] = &[
        (
            "a render pass attachment in sRGB on a UNORM image",
            "render-pass rp attachment R8G8B8A8_SRGB CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL
begin-render-pass rp col COLOR:0:0
draw vertexCount=3
end-render-pass",
            true,
        ),
        (
            "an sRGB image resolved into a UNORM one",
            "image ms R8G8B8A8_SRGB 4x4 initial GENERAL
barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE col COLOR:0:0 UNDEFINED->GENERAL
begin-rendering color ms COLOR:0:0 GENERAL CLEAR DONT_CARE resolve col COLOR:0:0 GENERAL
draw vertexCount=3
end-rendering",
            true,
        ),
        (
            "a one-byte attachment on a four-byte image",
            "render-pass rp attachment R8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL
begin-render-pass rp col COLOR:0:0
draw vertexCount=3
end-render-pass",
            false,
        ),
    ];
    for &(name, body, ok) in cases {
        let got = parse(body).and_then(|t| check(&t.program).map(|_| ()).map_err(|e| e.to_string()));
        assert_eq!(got.is_ok(), ok, "{name}: {got:?}");
    }
}

/// Fix texts for a render pass's own layout transitions, applied as
/// printed: the program checks clean. review35: a hazard over the views of
/// two attachments of one image (layers 0 and 1), whose end-of-pass
/// transitions follow their last uses in subpasses 0 and 1, needs
/// dependencies 0->EXTERNAL and 1->EXTERNAL, each named with its layer
/// (the text named 1->EXTERNAL for both). review36: where the pass
/// declares no dependency of the pair, declaring one replaces the implicit
/// dependency, so the text gives the whole dependency with the implicit
/// one's masks (adding only the missing masks, as the text said, made new
/// races with the load operation, the draws and the store). Cases: name,
/// the render pass's attachments and subpasses, the commands (lines 8
/// on), the fix of the report naming a transition, the dependencies that
/// fix (appended to the render pass as printed).
#[test]
fn transition_fixes_name_every_dependency_and_keep_the_implicit_masks() {
    const IMPLICIT_INTO: &str =
        "ALL_COMMANDS:INPUT_ATTACHMENT_READ|COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE|\
                                 DEPTH_STENCIL_ATTACHMENT_READ|DEPTH_STENCIL_ATTACHMENT_WRITE";
    const IMPLICIT_OUT: &str = "ALL_COMMANDS:COLOR_ATTACHMENT_WRITE|DEPTH_STENCIL_ATTACHMENT_WRITE";
    let why = |of: &str| {
        format!(
            "in the render pass (none is declared, so it replaces the implicit one, whose masks it keeps; the layout \
             transition of {of} happens-after its availability operations and before its visibility operations)"
        )
    };
    let mut cases: Vec<(&str, String, &str, String, String)> = vec![
        (
            "two attachments on two layers, a copy of both after the pass",
            "attachment R8G8B8A8_UNORM NONE NONE GENERAL->TRANSFER_SRC_OPTIMAL ; attachment R8G8B8A8_UNORM NONE \
             NONE GENERAL->TRANSFER_SRC_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass color 1 \
             COLOR_ATTACHMENT_OPTIMAL"
                .to_string(),
            "begin-render-pass rpl lay COLOR:0:0 ; lay COLOR:0:1\nnext-subpass\nend-render-pass\n\
             copy-image-to-buffer lay TRANSFER_SRC_OPTIMAL -> out imageSubresource=COLOR:0:0..2 imageExtent=4,4,1",
            format!(
                "declare a subpass dependency 0->EXTERNAL {IMPLICIT_OUT} -> COPY:TRANSFER_READ {}; declare a subpass \
                 dependency 1->EXTERNAL {IMPLICIT_OUT} -> COPY:TRANSFER_READ {}",
                why("lay[COLOR:0:0]"),
                why("lay[COLOR:0:1]")
            ),
            format!(
                " ; dependency 0->EXTERNAL {IMPLICIT_OUT} -> COPY:TRANSFER_READ ; dependency 1->EXTERNAL \
                 {IMPLICIT_OUT} -> COPY:TRANSFER_READ"
            ),
        ),
    ];
    // A copy into the attachment before the pass, with no transition at
    // the end and with one (review40: the end's transition after the copy
    // got `0->EXTERNAL COPY|...`, whose first scope is subpass 0's; the
    // dependency into the pass orders the copy before it as well).
    for (name, final_layout) in [
        (
            "a copy into the attachment before the pass",
            "COLOR_ATTACHMENT_OPTIMAL",
        ),
        (
            "a copy into the attachment before a pass that transitions it at its begin and its end",
            "TRANSFER_SRC_OPTIMAL",
        ),
    ] {
        cases.push((
            name,
            format!(
                "attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->{final_layout} ; subpass color 0 \
                 COLOR_ATTACHMENT_OPTIMAL"
            ),
            "barrier NONE:NONE -> COPY:TRANSFER_WRITE lay COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL\n\
             copy-buffer-to-image sb -> lay TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=4,4,1\n\
             begin-render-pass rpl lay COLOR:0:0\ndraw vertexCount=3\nend-render-pass",
            format!(
                "declare a subpass dependency EXTERNAL->0 COPY:TRANSFER_WRITE -> {IMPLICIT_INTO} {}",
                why("lay[COLOR:0:0]")
            ),
            format!(" ; dependency EXTERNAL->0 COPY:TRANSFER_WRITE -> {IMPLICIT_INTO}"),
        ));
    }
    for (name, pass, commands, want, deps) in &cases {
        let body = |deps: &str| {
            format!(
                "image lay R8G8B8A8_UNORM 4x4 layers 2 initial GENERAL\nrender-pass rpl {pass}{deps}\n{commands}"
            )
        };
        let t = parse(&body("")).unwrap_or_else(|e| panic!("{name}: {e}"));
        let hs = check(&t.program).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut fixes: Vec<String> = hs
            .iter()
            .filter(|h| h.prior.is_layout_transition() || h.current.is_layout_transition())
            .map(|h| h.fix_text_at(&t.program, &t.command_lines))
            .collect();
        // The begin's transition and the end's give one fix.
        fixes.dedup();
        assert_eq!(fixes, vec![want.clone()], "{name}");
        assert_eq!(hazards(name, &body(deps)), Vec::<String>::new(), "{name}: fixed");
    }
}

/// review36: a render pass's layout transition racing an access of an
/// earlier subpass that does not use the attachment, which no subpass
/// dependency can order (the transition happens-after the availability
/// operations of the dependencies from the attachment's previous use, or
/// from EXTERNAL, only): the fix says so and what to change, instead of
/// masks to add to such a dependency (applying those changed nothing).
/// Cases: name, the program (lines 6 on), the fix's start, the program as
/// the fix says, which checks clean.
#[test]
fn a_transition_no_dependency_can_order_gets_a_fix_that_changes_the_pass() {
    let storage_read = "draw vertexCount=3 fs image-read col COLOR:0:0";
    let cases: Vec<(&str, String, &str, String)> = vec![
        (
            "the end of the pass after a later subpass's read",
            format!(
                "render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->TRANSFER_SRC_OPTIMAL ; subpass color 0 \
                 GENERAL ; subpass ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> \
                 FRAGMENT_SHADER:SHADER_STORAGE_READ\nbegin-render-pass rp col COLOR:0:0\ndraw vertexCount=3\n\
                 next-subpass\n{storage_read}\nend-render-pass\n"
            ),
            "no subpass dependency orders the layout transition at the end of the render pass after an access of \
             subpass 1, which does not use the attachment (the transition happens-after the availability operations \
             of the dependencies from subpass 0, its last use, only): give the attachment a finalLayout equal to its \
             layout in subpass 0 (no transition at the end) and record the transition as an image barrier after the \
             render pass, with source FRAGMENT_SHADER:NONE",
            format!(
                "render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 \
                 GENERAL ; subpass ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> \
                 FRAGMENT_SHADER:SHADER_STORAGE_READ\nbegin-render-pass rp col COLOR:0:0\ndraw vertexCount=3\n\
                 next-subpass\n{storage_read}\nend-render-pass\n\
                 barrier FRAGMENT_SHADER:NONE -> NONE:NONE col COLOR:0:0 GENERAL->TRANSFER_SRC_OPTIMAL\n"
            ),
        ),
        (
            "into subpass 2 after subpass 1's read",
            format!(
                "render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; subpass color 0 GENERAL ; \
                 subpass ; subpass color 0 {{L}} ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> \
                 FRAGMENT_SHADER:SHADER_STORAGE_READ ; dependency 0->2 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE \
                 -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE ; dependency 1->2 FRAGMENT_SHADER:NONE -> \
                 COLOR_ATTACHMENT_OUTPUT:NONE\nbegin-render-pass rp col COLOR:0:0\ndraw vertexCount=3\nnext-subpass\n\
                 {storage_read}\nnext-subpass\ndraw vertexCount=3\nend-render-pass\n"
            ),
            "no subpass dependency orders the layout transition into subpass 2 after an access of subpass 1, which \
             does not use the attachment (the transition happens-after the availability operations of the \
             dependencies from subpass 0, its previous use only): use the attachment in subpass 2 in its layout in \
             subpass 0 (no transition there), or use it in subpass 1 too, so that a dependency 1->2 orders the \
             transition",
            String::new(),
        ),
    ];
    for (name, body, want, fixed) in &cases {
        let (body, fixed) = if body.contains("{L}") {
            (
                body.replace("{L}", "COLOR_ATTACHMENT_OPTIMAL"),
                body.replace("{L}", "GENERAL"),
            )
        } else {
            (body.clone(), fixed.clone())
        };
        let t = parse(&body).unwrap_or_else(|e| panic!("{name}: {e}"));
        let hs = check(&t.program).unwrap_or_else(|e| panic!("{name}: {e}"));
        let fixes: Vec<String> = hs
            .iter()
            .filter(|h| h.current.is_layout_transition())
            .map(|h| h.fix_text_at(&t.program, &t.command_lines))
            .collect();
        assert_eq!(fixes, vec![want.to_string()], "{name}");
        assert_eq!(hazards(name, &fixed), Vec::<String>::new(), "{name}: fixed");
    }
}

/// review36: a barrier fix against an instance's attachment access (a
/// load operation, a draw, a store) names the image barrier to record
/// before the instance, in the layout the attachment is in there (a
/// render pass's `initialLayout`, a dynamic instance's attachment layout),
/// which the parser takes; it named the bytes (`col[COLOR:0:0]`), which
/// the parser refuses for an image. Recorded before the begin, it orders
/// every pair with the copy. Cases: name, the commands (from line 6),
/// the begin's line, the fix of the first report whose prior is the copy.
#[test]
fn attachment_fixes_name_an_image_barrier_before_the_instance() {
    let cases: &[(&str, &str, usize, &str)] = &[
        (
            "a render pass",
            "render-pass rp attachment R8G8B8A8_UNORM LOAD STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; \
             subpass color 0 COLOR_ATTACHMENT_OPTIMAL
barrier NONE:NONE -> COPY:TRANSFER_WRITE col COLOR:0:0 UNDEFINED->TRANSFER_DST_OPTIMAL
copy-buffer-to-image sb -> col TRANSFER_DST_OPTIMAL imageSubresource=COLOR:0:0 imageExtent=4,4,1
barrier COPY:TRANSFER_WRITE -> NONE:NONE col COLOR:0:0 TRANSFER_DST_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL
begin-render-pass rp col COLOR:0:0
draw vertexCount=3
end-render-pass",
            10,
            "barrier COPY:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ col COLOR:0:0 \
             COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL",
        ),
        (
            "dynamic rendering",
            "barrier NONE:NONE -> COPY:TRANSFER_WRITE col COLOR:0:0 UNDEFINED->GENERAL
copy-buffer-to-image sb -> col GENERAL imageSubresource=COLOR:0:0 imageExtent=4,4,1
begin-rendering color col COLOR:0:0 GENERAL LOAD STORE
draw vertexCount=3
end-rendering",
            8,
            "barrier COPY:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ col COLOR:0:0 GENERAL->GENERAL",
        ),
    ];
    for &(name, body, begin, want) in cases {
        let t = parse(body).unwrap_or_else(|e| panic!("{name}: {e}"));
        let hs = check(&t.program).unwrap_or_else(|e| panic!("{name}: {e}"));
        let copy =
            |h: &vksync::Hazard| t.program.commands()[h.prior_command].keyword() == "copy-buffer-to-image";
        let first = hs
            .iter()
            .find(|h| copy(h))
            .unwrap_or_else(|| panic!("{name}: no pair with the copy"));
        assert_eq!(first.fix_text_at(&t.program, &t.command_lines), want, "{name}");
        // Recorded just before the begin (body line `begin - 5`).
        let mut lines: Vec<&str> = body.lines().collect();
        lines.insert(begin - 6, want);
        let fixed =
            parse(&lines.join("\n")).unwrap_or_else(|e| panic!("{name}: the fix does not parse: {e}"));
        let left = check(&fixed.program).unwrap();
        assert!(
            !left
                .iter()
                .any(|h| fixed.program.commands()[h.prior_command].keyword() == "copy-buffer-to-image"),
            "{name}: a pair with the copy is left: {left:?}"
        );
    }
}

/// review24, in a render pass: (1) the attachments a subpass uses are in
/// its layouts from its begin or next-subpass on, so a later subpass's draw
/// that samples one it does not use finds that layout ("Automatic layout
/// transitions into the layout used in a subpass happen-before" it); before,
/// the layout from before the instance was asked (a wrong refusal, and a
/// wrong layout accepted); (2) a subpass's draws and clears stay within the
/// framebuffer's render area, which every view bounds, resolve and unused
/// ones included; before, the subpass's own views made a draw write past it
/// (a false alarm). Cases: (name, body, hazards or the error).
#[test]
fn subpass_layouts_and_the_framebuffer_area_reach_draws() {
    const TWO: &str = "image a R8G8B8A8_UNORM 8x8
image b R8G8B8A8_UNORM 8x8
render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->GENERAL ; attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 GENERAL ; subpass color 1 COLOR_ATTACHMENT_OPTIMAL ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:SHADER_SAMPLED_READ
begin-render-pass rp a COLOR:0:0 ; b COLOR:0:0
draw vertexCount=3
next-subpass
";
    let sampled = format!("{TWO}draw vertexCount=3 fs sampled-image a COLOR:0:0 GENERAL\nend-render-pass\n");
    assert_eq!(
        hazards("sampled in the layout subpass 0 left", &sampled),
        Vec::<String>::new()
    );
    let wrong = format!(
        "{TWO}draw vertexCount=3 fs sampled-image a COLOR:0:0 SHADER_READ_ONLY_OPTIMAL\nend-render-pass\n"
    );
    assert_eq!(
        error(&wrong),
        "12: vkCmdDraw uses image `a` subresource COLOR mip 0 layer 0 in layout SHADER_READ_ONLY_OPTIMAL, but its layout is GENERAL at that point (VUID-VkDescriptorImageInfo-imageLayout-00344)"
    );
    // `big` is 16x16 beside the 4x4 `col`: the framebuffer is 4x4.
    let area = "image big R8G8B8A8_UNORM 16x16
barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE big COLOR:0:0 UNDEFINED->GENERAL ; NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE col COLOR:0:0 UNDEFINED->GENERAL
render-pass rp attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; attachment R8G8B8A8_UNORM CLEAR STORE GENERAL->GENERAL ; subpass color 0 GENERAL ; subpass color 1 GENERAL ; dependency EXTERNAL->0 ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE ; dependency EXTERNAL->1 ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE
begin-render-pass rp big COLOR:0:0 ; col COLOR:0:0
draw vertexCount=3
clear-attachments color 0
next-subpass
draw vertexCount=3
end-render-pass
";
    let outside = format!(
        "{area}copy-buffer-to-image sb -> big GENERAL imageSubresource=COLOR:0:0 imageOffset=4,0,0 imageExtent=12,4,1\n"
    );
    assert_eq!(
        hazards("outside the framebuffer's area", &outside),
        Vec::<String>::new()
    );
    let inside = format!(
        "{area}copy-buffer-to-image sb -> big GENERAL imageSubresource=COLOR:0:0 imageOffset=0,3,0 imageExtent=4,1,1\n"
    );
    let mut got = hazards("inside the framebuffer's area", &inside);
    got.sort();
    assert_eq!(
        got,
        // The store operation at the end of subpass 0 (line 12) wrote row
        // 3's first four texels last.
        ["L15 WRITE_AFTER_WRITE big[COLOR:0:0 bytes 192..208] after L12"]
    );
}

/// The definitional semantics refuses an instance of a render pass of
/// several views that it cannot write per view (here a per-view
/// declaration of 80 dependencies: eight views, a dependency between two
/// subpasses that is not view-local) rather than decide it another way
/// (review45: its fallback to one subpass for every view gave a false
/// read-after-write); the fast checkers decide the same program when it
/// is theirs (its draws only read a storage buffer written before the
/// pass), and refuse it, so `check` reports the refusal, when a draw
/// writes one.
#[test]
fn a_render_pass_the_model_cannot_write_per_view_is_refused() {
    let reads = "buffer up 256\n\
         image arr R8G8B8A8_UNORM 4x4 layers 8\n\
         barrier NONE:NONE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE arr COLOR:0:0..8 UNDEFINED->COLOR_ATTACHMENT_OPTIMAL\n\
         copy up -> sb\n\
         render-pass mv attachment R8G8B8A8_UNORM CLEAR STORE COLOR_ATTACHMENT_OPTIMAL->COLOR_ATTACHMENT_OPTIMAL ; subpass viewMask=255 color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass viewMask=255 color 0 COLOR_ATTACHMENT_OPTIMAL ; dependency EXTERNAL->0 COPY:TRANSFER_WRITE -> FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE ; dependency 0->1 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_STORAGE_READ|COLOR_ATTACHMENT_WRITE view-local ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT -> COLOR_ATTACHMENT_OUTPUT\n\
         begin-render-pass mv arr COLOR:0:0..8\n\
         draw vertexCount=3\n\
         next-subpass\n\
         draw vertexCount=3 fs read sb[0..256]\n\
         end-render-pass\n";
    let t = parse(reads).unwrap();
    let e = races(&t.program, Reading::MemoryModel).unwrap_err();
    assert!(
        matches!(&e.kind, vksync::ProgramErrorKind::PerViewNotModelled { what } if what.contains("80 dependencies")),
        "{e}"
    );
    assert_eq!(t.line_of(e.at), Some(11), "{e}");
    assert_eq!(check(&t.program).unwrap(), vec![]);
    let writes = parse(&reads.replace("fs read sb[0..256]", "fs write sb[0..256]")).unwrap();
    let e = check(&writes.program).unwrap_err();
    assert!(
        matches!(e.kind, vksync::ProgramErrorKind::PerViewNotModelled { .. }),
        "{e}"
    );
}

/// Every planner refuses a hazard no subpass dependency orders (a draw's
/// sampled read of an attachment's image, every view's, before another
/// view's final layout transition of its layer, in one subpass) with the
/// error that says so and what does (review45: the refusal asked for a
/// dependency to be declared, which no dependency satisfies).
#[test]
fn planners_refuse_a_hazard_across_views_no_dependency_orders() {
    use vksync::plan::{plan, PlanOptions, PlannerKind};
    let t = parse(
        "image arr R8G8B8A8_UNORM 4x4 layers 2\n\
         barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE arr COLOR:0:0..2 UNDEFINED->GENERAL\n\
         render-pass mv attachment R8G8B8A8_UNORM LOAD NONE GENERAL->TRANSFER_SRC_OPTIMAL ; subpass viewMask=3 color 0 GENERAL\n\
         begin-render-pass mv arr COLOR:0:0..2\n\
         draw vertexCount=3 no-color-write fs sampled-image arr COLOR:0:0..2 GENERAL\n\
         end-render-pass\n",
    )
    .unwrap();
    for planner in [
        PlannerKind::Offline,
        PlannerKind::Online,
        PlannerKind::Conservative,
    ] {
        let e = plan(&t.program, PlanOptions::new(planner)).unwrap_err();
        assert_eq!(t.line_of(e.at), Some(11), "{planner:?}: {e}");
        let vksync::ProgramErrorKind::Render(r) = &e.kind else {
            panic!("{planner:?}: {e}");
        };
        assert!(
            matches!(&**r, vksync::RenderError::HazardAcrossViews { prior: 2, fix } if fix.starts_with("no subpass dependency orders them")),
            "{planner:?}: {e}"
        );
    }
}
