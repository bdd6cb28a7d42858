#version 450
// image_slow(iters): image-read X, image-write Y, views as for
// image_scale_add; each texel goes through `iters` rounds of
// x = x * 1664525 + 1013904223 (wrapping), like slow.comp per element.
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(push_constant) uniform Params {
    uint a;
    uint b;
    uint n;
    uint off0;
    uint off1;
    uint off2;
} pc;
layout(set = 0, binding = 0, r32ui) uniform readonly uimage2DArray X;
layout(set = 0, binding = 1, r32ui) uniform writeonly uimage2DArray Y;

void main() {
    ivec3 p = ivec3(gl_GlobalInvocationID);
    ivec3 size = imageSize(X);
    if (p.x < size.x && p.y < size.y && p.z < size.z) {
        uint v = imageLoad(X, p).x;
        for (uint k = 0u; k < pc.a; k++) {
            v = v * 1664525u + 1013904223u;
        }
        imageStore(Y, p, uvec4(v, 0u, 0u, 0u));
    }
}
