#version 450
// rect: the vertex kernel of draws (vksync::reference::Rect). One
// rectangle per instance, read from a per-instance vertex binding:
// word 0 = x0 | y0 << 8 | x1 << 16 | y1 << 24 (pixels x0..x1, y0..y1),
// word 1 = depth numerator (depth = (word1 & 0xffff) / 65536),
// word 2 = the value the flat fragment kernel writes, word 3 unused.
// Vertex index modulo 3 picks a corner of the triangle that covers the
// whole render area (NDC (-1,-1), (3,-1), (-1,3)), so any triangle of three
// distinct corners covers every pixel, far from its edges; the fragment
// kernel discards the pixels outside the rectangle. (A triangle fitted to
// the rectangle, with legs twice its sides, drew only part of it on
// lavapipe (llvmpipe, LLVM 15.0.6) when it lay inside the viewport.)
layout(location = 0) in uvec4 rect;
layout(location = 0) flat out uvec4 bounds;
layout(location = 1) flat out uint value;
// The render area's width and height (unused since the triangle covers
// the render area; kept so the pipeline layout stays the same).
layout(push_constant) uniform Params {
    vec2 size;
} pc;

void main() {
    uint x0 = rect.x & 255u;
    uint y0 = (rect.x >> 8u) & 255u;
    uint x1 = (rect.x >> 16u) & 255u;
    uint y1 = (rect.x >> 24u) & 255u;
    uint corner = uint(gl_VertexIndex) % 3u;
    vec2 p = vec2(-1.0, -1.0);
    if (corner == 1u) {
        p = vec2(3.0, -1.0);
    }
    if (corner == 2u) {
        p = vec2(-1.0, 3.0);
    }
    float z = float(rect.y & 65535u) / 65536.0;
    gl_Position = vec4(p, z, 1.0);
    bounds = uvec4(x0, y0, x1, y1);
    value = rect.z;
}
