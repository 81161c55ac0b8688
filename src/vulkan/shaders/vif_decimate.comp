#version 460
// Integer VIF's horizontal low-pass at the even columns (vif_dsp.c's
// vqx_vif_decimate_c, vif_pixel.h's vif_decimated): the next scale's
// 16-bit planes, two samples to a word (samples.glsl's layout), from the
// vertical means (columns mirrored); a thread per word.
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"
#include "vif.glsl"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint value[]; };

layout(push_constant) uniform Push {
    Words means;
    Words ref;
    Words dis;
    uint width; // of the means
    uint out_width;
    uint out_height;
    uint pitch_words; // of the output
    uint scale;
} p;

uint decimated(uint plane, uint y, uint x)
{
    const int half_w = vif_half(p.scale);
    const uint row = (plane * p.out_height + y) * p.width;
    uint sum = 0u;
    for (int k = 0; k <= 2 * half_w; k++)
        sum += vif_tap_at(p.scale, k) *
               p.means.value[row + uint(reflect101(int(2u * x) - half_w + k, int(p.width)))];
    return ((sum + 32768u) >> 16) & 0xffffu;
}

void main()
{
    const uint j = gl_GlobalInvocationID.x, y = gl_WorkGroupID.y;
    if (j >= p.pitch_words) return;
    const uint x = 2u * j, o = y * p.pitch_words + j;
    const bool pair = x + 1u < p.out_width;
    p.ref.value[o] = decimated(0u, y, x) | (pair ? decimated(0u, y, x + 1u) << 16 : 0u);
    p.dis.value[o] = decimated(1u, y, x) | (pair ? decimated(1u, y, x + 1u) << 16 : 0u);
}
