#version 460
// Integer motion's column pass (motion_tmpl.c's vqx_motion_blur_columns):
// prev - cur blurred down the columns, rows mirrored without repeating the
// edge, rounded to col_shift bits, a thread per sample.
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"
#include "motion.glsl"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Ints { int value[]; };

layout(push_constant) uniform Push {
    Plane prev;
    Plane cur;
    Ints mid;
    uint pitch_words;
    uint width;
    uint height;
    uint wide;
    uint col_shift;
} p;


void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_WorkGroupID.y;
    if (x >= p.width) return;
    const bool wide = p.wide != 0u;
    int64_t acc = 0; // 8-bit sums fit 32 bits, so 64 gives the CPU's value at every depth
    for (int k = 0; k < VQX_MOTION_TAPS_N; k++) {
        const uint r = uint(reflect101(int(y) - VQX_MOTION_RADIUS + k, int(p.height)));
        const int d = int(plane_sample(p.prev, p.pitch_words, x, r, wide)) -
                      int(plane_sample(p.cur, p.pitch_words, x, r, wide));
        acc += int64_t(motion_taps[k]) * int64_t(d);
    }
    const int64_t round_half = int64_t(1) << (p.col_shift - 1u);
    p.mid.value[y * p.width + x] = int((acc + round_half) >> p.col_shift);
}
