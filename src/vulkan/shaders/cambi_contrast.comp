#version 460
// CAMBI's contrast values (vqx_cambi_contrast_values). A thread takes one
// column of a run of rows and keeps, in its own column of `counts` (no
// other thread touches it, so no barrier is needed), the count of masked
// pixels of each code value of the band in its pixel's window, the rows
// entering and leaving the window as it moves down. Columns and rows
// outside the picture are never counted: the clipped windows. The counts
// are integers; the float statement is the CPU's, and the largest value is
// the same in any order.
#extension GL_GOOGLE_include_directive : require
#include "cambi.glsl"

layout(local_size_x = 64) in;

layout(push_constant) uniform Push {
    Words image;
    Words mask;
    Floats contrast;
    Words counts;      // [run][band][width]
    Words steps;       // tvi[CAMBI_MAX_STEPS], then the weights
    Floats reciprocal;
    uint width;
    uint height;
    uint rows;         // of a run
    uint pad;
    uint n_steps;
    uint band_lo;
    uint band_size;
    uint vlt;
} p;

// Row y of the window of column x enters (delta 1) or leaves (~0u: -1).
void update(uint column, uint x, uint y, uint delta)
{
    const uint first = x > p.pad ? x - p.pad : 0u, last = min(x + p.pad, p.width - 1u);
    for (uint i = first; i <= last; i++) {
        const uint at = y * p.width + i, band = p.image.word[at] - p.band_lo;
        if (p.mask.word[at] != 0u && band < p.band_size)
            p.counts.word[column + band * p.width] += delta;
    }
}

void main()
{
    const uint x = gl_GlobalInvocationID.x;
    if (x >= p.width) return;
    const uint column = gl_WorkGroupID.y * p.band_size * p.width + x;
    for (uint band = 0u; band < p.band_size; band++) p.counts.word[column + band * p.width] = 0u;
    const uint y0 = gl_WorkGroupID.y * p.rows, y1 = min(y0 + p.rows, p.height);
    for (uint y = y0 > p.pad ? y0 - p.pad : 0u; y < y0 + p.pad && y < p.height; y++)
        update(column, x, y, 1u);
    for (uint y = y0; y < y1; y++) {
        if (y + p.pad < p.height) update(column, x, y + p.pad, 1u);
        if (y > y0 && y > p.pad) update(column, x, y - p.pad - 1u, ~0u);
        const uint at = y * p.width + x, value = p.image.word[at], band = value - p.band_lo;
        float best = 0.0;
        if (p.mask.word[at] != 0u && band < p.band_size) {
            const uint p0 = p.counts.word[column + band * p.width];
            for (uint d = 0u; d < p.n_steps; d++) {
                if (!cambi_step_counts(value, p.n_steps, d, p.steps.word[d], p.vlt)) continue;
                const uint up = p.counts.word[column + (band + d + 1u) * p.width];
                const uint down = band > d ? p.counts.word[column + (band - d - 1u) * p.width] : 0u;
                const float v = cambi_step_contrast(int(p.steps.word[CAMBI_MAX_STEPS + d]), p0,
                                                    max(up, down), p.reciprocal);
                best = v > best ? v : best;
            }
        }
        p.contrast.value[at] = best;
    }
}
