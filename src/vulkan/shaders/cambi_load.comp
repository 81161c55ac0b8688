#version 460
// CAMBI's load (vqx_cambi_load_10bit through the geometry's row and column
// maps) and, with smooth, vqx_cambi_smooth_2x2: that smooth is in place but
// reads only samples it has not written yet, so it is a pure function of
// the loaded image. A thread per output sample.
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"
#include "cambi.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Push {
    Plane plane;
    Words rows;
    Words cols;
    Words image;
    uint pitch_words;
    uint bpc;
    uint width;
    uint height;
    uint smooth_;
} p;

uint loaded(uint y, uint x)
{
    return cambi_to_10bit(plane_sample(p.plane, p.pitch_words, p.cols.word[x], p.rows.word[y],
                                       p.bpc > 8u), p.bpc);
}

void main()
{
    const uint x = gl_GlobalInvocationID.x, y = gl_WorkGroupID.y;
    if (x >= p.width) return;
    const uint a = loaded(y, x);
    uint v = a;
    if (p.smooth_ != 0u) {
        const bool right = x + 1u < p.width, below = y + 1u < p.height;
        if (right && below)
            v = (a + loaded(y, x + 1u) + loaded(y + 1u, x) + loaded(y + 1u, x + 1u)) >> 2;
        else if (below)
            v = (a + loaded(y + 1u, x)) >> 1;
        else if (right)
            v = (a + loaded(y, x + 1u)) >> 1;
    }
    p.image.word[y * p.width + x] = v;
}
