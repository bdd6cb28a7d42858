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
// scale(a): rw X; X[i] = X[i] * a (in place).
layout(std430, set = 0, binding = 0) buffer X { uint x[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.n) {
        x[pc.off0 + i] = x[pc.off0 + i] * pc.a;
    }
}
