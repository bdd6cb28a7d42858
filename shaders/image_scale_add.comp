#version 450
// image_scale_add(a, b): image-read X, image-write Y, two R32_UINT 2D array
// views of one mip level and equal size; Y(x, y, layer) = X(x, y, layer) * a + b.
// One invocation per texel: 8x8 texels of one layer per workgroup, layers
// along z. Arithmetic is wrapping 32-bit unsigned, like vksync::reference.
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
// The block all kernels share (only a and b are read here).
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
        imageStore(Y, p, uvec4(v * pc.a + pc.b, 0u, 0u, 0u));
    }
}
