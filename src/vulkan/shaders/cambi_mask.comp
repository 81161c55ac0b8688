#version 460
// CAMBI's spatial mask (vqx_cambi_spatial_mask): more than `threshold` flat
// pixels in the 7x7 block around, clipped to the picture. A thread per
// sample counts its block directly: integers, so any order.
#extension GL_GOOGLE_include_directive : require
#include "cambi.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Push {
    Words image;
    Words mask;
    uint width;
    uint height;
    uint threshold;
} p;

// Equal to the right and lower neighbours, a missing one counting as equal
// (vqx_cambi_flat_row_c); 0 outside the picture.
uint flat_(int y, int x)
{
    if (y < 0 || x < 0 || y >= int(p.height) || x >= int(p.width)) return 0u;
    const uint at = uint(y) * p.width + uint(x), v = p.image.word[at];
    const bool right = x + 1 < int(p.width) ? p.image.word[at + 1u] == v : true;
    const bool below = y + 1 < int(p.height) ? p.image.word[at + p.width] == v : true;
    return right && below ? 1u : 0u;
}

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_WorkGroupID.y;
    if (x >= p.width) return;
    const int r = CAMBI_MASK_SIZE / 2;
    uint sum = 0u;
    for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++) sum += flat_(int(y) + dy, int(x) + dx);
    p.mask.word[y * p.width + x] = sum > p.threshold ? 1u : 0u;
}
