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
// slow(iters): read X, write Y; Y[i] is X[i] put through `iters` (= a)
// rounds of the LCG x = x * 1664525 + 1013904223. Long per-element work
// widens race windows on real GPUs.
layout(std430, set = 0, binding = 0) readonly buffer X { uint x[]; };
// naga has no writeonly storage; the output binding is read-write.
layout(std430, set = 0, binding = 1) buffer Y { uint y[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.n) {
        uint v = x[pc.off0 + i];
        for (uint k = 0u; k < pc.a; k++) {
            v = v * 1664525u + 1013904223u;
        }
        y[pc.off1 + i] = v;
    }
}
