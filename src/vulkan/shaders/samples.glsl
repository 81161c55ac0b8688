// Planes as 32-bit words (any device reads those): 8-bit samples four to a
// word, wider ones two, little-endian, rows pitch_words apart; and the
// border rule.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Plane { uint word[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Sums64 { uint64_t sum[]; };

uint plane_sample(Plane p, uint pitch_words, uint x, uint y, bool wide)
{
    const uint row = y * pitch_words;
    if (wide) return (p.word[row + (x >> 1)] >> ((x & 1u) * 16u)) & 0xffffu;
    return (p.word[row + (x >> 2)] >> ((x & 3u) * 8u)) & 0xffu;
}

// Index i of [0, n) mirrored without repeating the edge (hostdev.h's
// vqx_reflect101).
int reflect101(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}
