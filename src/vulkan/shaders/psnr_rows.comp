#version 460
// psnr: each row's sum of squared differences (psnr_tmpl.c's row_sse), a
// workgroup per row. Integers: the order of the additions is free.
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Push {
    Plane ref;
    Plane dis;
    Sums64 rows;
    uint pitch_words;
    uint width;
    uint wide;
} p;

shared uint64_t partial[256];

void main()
{
    const uint y = gl_WorkGroupID.x, t = gl_LocalInvocationID.x;
    uint64_t acc = 0;
    for (uint x = t; x < p.width; x += 256u) {
        const int d = int(plane_sample(p.ref, p.pitch_words, x, y, p.wide != 0u)) -
                      int(plane_sample(p.dis, p.pitch_words, x, y, p.wide != 0u));
        const uint m = uint(abs(d));
        acc += uint64_t(m * m); // below 2^32 for 16-bit samples
    }
    partial[t] = acc;
    barrier();
    for (uint half_n = 128u; half_n > 0u; half_n >>= 1) {
        if (t < half_n) partial[t] += partial[t + half_n];
        barrier();
    }
    if (t == 0u) p.rows.sum[y] = partial[0];
}
