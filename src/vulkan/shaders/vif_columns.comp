#version 460
// Integer VIF's vertical statistics pass (vif_tmpl.c's
// vqx_vif_columns_stats): per sample, the rounded 16-bit means of reference
// and distorted and their rounded second moments down the column, rows
// mirrored without repeating the edge, into five planes of w x h words; a
// thread per sample. The moments sum in 64 bits: the CPU's 32-bit sums of
// 8-bit samples are exact, so both give the same value.
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"
#include "vif.glsl"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint value[]; };

layout(push_constant) uniform Push {
    Plane ref;
    Plane dis;
    Words cols;
    uint pitch_words;
    uint width;
    uint height;
    uint wide;
    uint scale;
    uint mean_shift;
    uint sq_shift;
} p;

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_WorkGroupID.y;
    if (x >= p.width) return;
    const bool wide = p.wide != 0u;
    const int half_w = vif_half(p.scale);
    uint s1 = 0u, s2 = 0u;
    uint64_t rr = 0ul, dd = 0ul, rd = 0ul;
    for (int k = 0; k <= 2 * half_w; k++) {
        const uint row = uint(reflect101(int(y) - half_w + k, int(p.height)));
        const uint r = plane_sample(p.ref, p.pitch_words, x, row, wide);
        const uint d = plane_sample(p.dis, p.pitch_words, x, row, wide);
        const uint tap = vif_tap_at(p.scale, k);
        s1 += tap * r;
        s2 += tap * d;
        rr += uint64_t(tap) * uint64_t(r * r);
        dd += uint64_t(tap) * uint64_t(d * d);
        rd += uint64_t(tap) * uint64_t(r * d);
    }
    const uint mean_round = 1u << (p.mean_shift - 1u);
    const uint64_t sq_round = p.sq_shift != 0u ? uint64_t(1) << (p.sq_shift - 1u) : 0ul;
    const uint n = p.width * p.height, o = y * p.width + x;
    p.cols.value[o] = ((s1 + mean_round) >> p.mean_shift) & 0xffffu;
    p.cols.value[n + o] = ((s2 + mean_round) >> p.mean_shift) & 0xffffu;
    p.cols.value[2u * n + o] = uint((rr + sq_round) >> p.sq_shift);
    p.cols.value[3u * n + o] = uint((dd + sq_round) >> p.sq_shift);
    p.cols.value[4u * n + o] = uint((rd + sq_round) >> p.sq_shift);
}
