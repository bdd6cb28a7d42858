#version 450
// image_sampled_scale_add(a, b): sampled-image X (a SAMPLED_IMAGE descriptor,
// read with texelFetch: SHADER_SAMPLED_READ, in the layout its descriptor
// names), image-write Y, two R32_UINT 2D array views of one mip level and
// equal size; Y(x, y, layer) = X(x, y, layer) * a + b. One invocation per
// texel, as image_scale_add. texelFetch needs no sampler state; the
// sampler binding (2) is the GLSL form's, and naga drops it.
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(push_constant) uniform Params {
    uint a;
    uint b;
    uint n;
    uint off0;
    uint off1;
    uint off2;
} pc;
layout(set = 0, binding = 0) uniform utexture2DArray X;
layout(set = 0, binding = 2) uniform sampler S;
layout(set = 0, binding = 1, r32ui) uniform writeonly uimage2DArray Y;

void main() {
    ivec3 p = ivec3(gl_GlobalInvocationID);
    ivec3 size = imageSize(Y);
    if (p.x < size.x && p.y < size.y && p.z < size.z) {
        uint v = texelFetch(usampler2DArray(X, S), p, 0).x;
        imageStore(Y, p, uvec4(v * pc.a + pc.b, 0u, 0u, 0u));
    }
}
