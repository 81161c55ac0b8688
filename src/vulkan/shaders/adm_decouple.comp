#version 460
// Integer ADM's decoupling of one level (adm.c's decouple_row) and the
// masking terms of its parts (adm.c's mask_terms), a thread per position
// of the grown region.
#extension GL_GOOGLE_include_directive : require
#include "adm.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Push {
    Ints work;
    uint64_t gain_limit;  // a double's bits
    uint cos_1deg_sq;     // a float's bits
    uint q_weight[3];
    uint top;             // the grown region
    uint left;
    uint width;
    uint stride;
    uint plane_words;
    uint level;
    uint skip_aim;
} p;

void store_mask_terms(uint m, const int x[3], uint o)
{
    uint sum, centre;
    if (p.level == 0u) adm_mask_terms_16(p.q_weight, x, sum, centre);
    else adm_mask_terms_32(p.q_weight, x, sum, centre);
    p.work.v[ADM_WORK_MASK_SUM(m) * p.plane_words + o] = int(sum);
    p.work.v[ADM_WORK_MASK_CENTRE(m) * p.plane_words + o] = int(centre);
}

void main()
{
    if (gl_GlobalInvocationID.x >= p.width) return;
    const uint o = (p.top + gl_WorkGroupID.y) * p.stride + p.left + gl_GlobalInvocationID.x;
    int ref[3], dis[3], restored[3], additive[3];
    for (uint b = 0u; b < 3u; b++) {
        ref[b] = p.work.v[ADM_WORK_BAND(0u, b) * p.plane_words + o];
        dis[b] = p.work.v[ADM_WORK_BAND(1u, b) * p.plane_words + o];
    }
    adm_decouple(ref, dis, p.cos_1deg_sq, p.gain_limit, restored, additive);
    for (uint b = 0u; b < 3u; b++) {
        p.work.v[ADM_WORK_RESTORED(b) * p.plane_words + o] = restored[b];
        p.work.v[ADM_WORK_ADDITIVE(b) * p.plane_words + o] = additive[b];
    }
    store_mask_terms(0u, additive, o);
    if (p.skip_aim == 0u) store_mask_terms(1u, restored, o);
}
