// CAMBI's per-sample statements, as feature/cambi.h's VQX_HOSTDEV inlines
// of the same names (GLSL cannot include those), and its buffers: images
// and masks hold one sample per 32-bit word (any device stores those).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "cambi_sizes.h"

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint word[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Floats { float value[]; };

uint cambi_to_10bit(uint v, uint bpc)
{
    const uint up = bpc < 10u ? 10u - bpc : 0u;
    const uint down = bpc > 10u ? bpc - 10u : 0u;
    const uint half_ = down != 0u ? 1u << (down - 1u) : 0u;
    return ((v << up) + half_) >> down;
}

uint cambi_mode3(uint a, uint b, uint c)
{
    const uint lo = min(a, b), hi = max(a, b);
    const uint median = hi < c ? hi : lo > c ? lo : c;
    return a != b && a != c && b != c ? min(lo, c) : median;
}

bool cambi_step_counts(uint value, uint n_steps, uint d, uint tvi, uint vlt)
{
    const uint level = value + n_steps;
    return !(level > tvi || level + d + 1u <= vlt);
}

// float(v) rounded to nearest even by integer steps, whatever the device's
// conversion does with the 8 bits past a float's 24.
float cambi_float(uint v)
{
    if (v < (1u << 24)) return float(v);
    const uint shift = uint(findMSB(v)) - 23u;
    uint m = v >> shift;
    const uint rest = v & ((1u << shift) - 1u), half_ = 1u << (shift - 1u);
    if (rest > half_ || (rest == half_ && (m & 1u) != 0u)) m++;
    precise float scaled = float(m) * uintBitsToFloat((127u + shift) << 23); // exact: 2^shift
    return scaled;
}

// The weighted p0 * p1 / (p0 + p1) of a step: one correctly rounded product.
float cambi_step_contrast(int weight, uint p0, uint p1, Floats reciprocal)
{
    precise float v = cambi_float(uint(weight * int(p0 * p1))) * reciprocal.value[p0 + p1];
    return v;
}
