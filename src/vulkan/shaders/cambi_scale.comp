#version 460
// One scale's picture: the image (and mask) halved when `step` is 2
// (vqx_cambi_halve), then vqx_cambi_mode_filter. That filter is in place,
// row pass then column pass, each output row written after the next row's
// row pass: so the output is the column mode of row-filtered rows, except
// that the first and last rows keep their samples and the first and last
// columns skip the row pass. A thread per output sample.
#extension GL_GOOGLE_include_directive : require
#include "cambi.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Push {
    Words image;
    Words mask;
    Words out_image;
    Words out_mask;  // written when halving
    uint in_width;
    uint step_;
    uint width;      // of the output
    uint height;
} p;

uint at_in(uint y, uint x)
{
    return p.image.word[y * p.step_ * p.in_width + x * p.step_];
}

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_WorkGroupID.y;
    if (x >= p.width) return;
    const uint at = y * p.width + x;
    if (p.step_ == 2u) p.out_mask.word[at] = p.mask.word[y * 2u * p.in_width + x * 2u];
    uint v = at_in(y, x);
    if (y > 0u && y + 1u < p.height) {
        uint rows[3];
        for (uint i = 0u; i < 3u; i++) {
            const uint r = y + i - 1u;
            rows[i] = x > 0u && x + 1u < p.width
                      ? cambi_mode3(at_in(r, x - 1u), at_in(r, x), at_in(r, x + 1u)) : at_in(r, x);
        }
        v = cambi_mode3(rows[0], rows[1], rows[2]);
    }
    p.out_image.word[at] = v;
}
