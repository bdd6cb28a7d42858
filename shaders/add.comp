#version 450
// Element i of every binding is word (off_k + i) of the bound range: the
// runtime binds storage ranges at offsets rounded down to
// minStorageBufferOffsetAlignment and passes the remainder here (in words).
// Arithmetic is wrapping 32-bit unsigned, like vksync::reference.
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
layout(push_constant) uniform Params {
    uint a;
    uint b;
    uint n;
    uint off0;
    uint off1;
    uint off2;
} pc;
// add: read A, read B, write C; C[i] = A[i] + B[i].
layout(std430, set = 0, binding = 0) readonly buffer A { uint va[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uint vb[]; };
layout(std430, set = 0, binding = 2) buffer C { uint vc[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.n) {
        vc[pc.off2 + i] = va[pc.off0 + i] + vb[pc.off1 + i];
    }
}
