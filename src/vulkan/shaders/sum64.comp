#version 460
// The sum of n 64-bit integers into total.sum[index] (one workgroup).
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Push {
    Sums64 terms;
    Sums64 total;
    uint n;
    uint index;
} p;

shared uint64_t partial[256];

void main()
{
    const uint t = gl_LocalInvocationID.x;
    uint64_t acc = 0;
    for (uint i = t; i < p.n; i += 256u) acc += p.terms.sum[i];
    partial[t] = acc;
    barrier();
    for (uint half_n = 128u; half_n > 0u; half_n >>= 1) {
        if (t < half_n) partial[t] += partial[t + half_n];
        barrier();
    }
    if (t == 0u) p.total.sum[p.index] = partial[0];
}
