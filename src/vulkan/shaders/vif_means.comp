#version 460
// Integer VIF's vertical low-pass before decimation (vif_tmpl.c's
// vqx_vif_columns_means at the even rows, vif.c's vqx_vif_downsample):
// per column of source row 2 y, the rounded 16-bit means of reference and
// distorted with the next scale's filter, rows mirrored, into two planes of
// width x out_height words; a thread per column.
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"
#include "vif.glsl"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint value[]; };

layout(push_constant) uniform Push {
    Plane ref;
    Plane dis;
    Words means;
    uint pitch_words;
    uint width;
    uint height;
    uint out_height;
    uint wide;
    uint scale; // the next scale's, whose filter this is
    uint shift;
} p;

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_WorkGroupID.y;
    if (x >= p.width) return;
    const bool wide = p.wide != 0u;
    const int half_w = vif_half(p.scale);
    uint r = 0u, d = 0u;
    for (int k = 0; k <= 2 * half_w; k++) {
        const uint row = uint(reflect101(int(2u * y) - half_w + k, int(p.height)));
        const uint tap = vif_tap_at(p.scale, k);
        r += tap * plane_sample(p.ref, p.pitch_words, x, row, wide);
        d += tap * plane_sample(p.dis, p.pitch_words, x, row, wide);
    }
    const uint round_half = 1u << (p.shift - 1u), o = y * p.width + x;
    p.means.value[o] = ((r + round_half) >> p.shift) & 0xffffu;
    p.means.value[p.width * p.out_height + o] = ((d + round_half) >> p.shift) & 0xffffu;
}
