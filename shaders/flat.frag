#version 450
// flat: the fragment kernel of draws. Writes the rect kernel's value to
// each of COLORS R32_UINT color attachments (COLORS is defined by
// runtime/build.rs: 0 to 4) at the pixels of the rectangle, and discards
// the rest of the rect kernel's covering triangle. Pixel centers are at
// half-integer framebuffer coordinates (gl_FragCoord).
layout(location = 0) flat in uvec4 bounds;
layout(location = 1) flat in uint value;
#if COLORS > 0
layout(location = 0) out uint out0;
#endif
#if COLORS > 1
layout(location = 1) out uint out1;
#endif
#if COLORS > 2
layout(location = 2) out uint out2;
#endif
#if COLORS > 3
layout(location = 3) out uint out3;
#endif

void main() {
    uint x = uint(gl_FragCoord.x);
    uint y = uint(gl_FragCoord.y);
    if (x < bounds.x || x >= bounds.z || y < bounds.y || y >= bounds.w) {
        discard;
    }
#if COLORS > 0
    out0 = value;
#endif
#if COLORS > 1
    out1 = value;
#endif
#if COLORS > 2
    out2 = value;
#endif
#if COLORS > 3
    out3 = value;
#endif
}
