#version 460
// n 32-bit words from src to dst, a thread per word.
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer Words { uint word[]; };

layout(push_constant) uniform Push {
    Plane src;
    Words dst;
    uint n;
} p;

void main()
{
    const uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * 65535u * 256u;
    if (i < p.n) p.dst.word[i] = p.src.word[i];
}
