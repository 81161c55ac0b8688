#version 460
// Integer ADM's DWT of one level (adm.c's dwt_row), both pictures: a thread
// per band position and picture (z). Level 0 reads the pictures' samples,
// centred, in 16-bit rows with 32-bit sums; levels 1 to 3 read the level
// before's approximation bands, in 32-bit rows with 64-bit sums. Writes the
// approximation band and the h, v, d bands (adm_work.h).
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"
#include "adm.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Push {
    Plane ref;       // level 0: the pictures, pitch words apart
    Plane dis;
    Ints work;
    int64_t v_add;   // the passes' rounding (adm_pixel.h's adm_dwt_rounding)
    int64_t h_add;
    uint v_shift;
    uint h_shift;
    uint pitch;      // level 0: the pictures' pitch in words; else the band stride
    uint in_w;
    uint in_h;
    uint w;
    uint stride;
    uint plane_words;
    uint level;
    uint bpc;
} p;

void main()
{
    const uint j = gl_GlobalInvocationID.x, i = gl_WorkGroupID.y, pic = gl_WorkGroupID.z;
    if (j >= p.w) return;
    int rows[4], cols[4];
    for (int k = 0; k < 4; k++) {
        rows[k] = mirror_hybrid(2 * int(i) - 1 + k, int(p.in_h));
        cols[k] = mirror_hybrid(2 * int(j) - 1 + k, int(p.in_w));
    }
    int approx, band[3]; // h, v, d
    if (p.level == 0u) {
        Plane src = pic == 0u ? p.ref : p.dis;
        const int centre = 1 << (p.bpc - 1u);
        int lo[4], hi[4]; // the vertical pass of the four columns, int16 as the C's rows
        for (int c = 0; c < 4; c++) {
            int v[4];
            for (int k = 0; k < 4; k++)
                v[k] = sext16(int(plane_sample(src, p.pitch, uint(cols[c]), uint(rows[k]),
                                               p.bpc > 8u)) - centre);
            lo[c] = sext16(adm_dwt_16(db2_lo, v, int(p.v_add), p.v_shift));
            hi[c] = sext16(adm_dwt_16(db2_hi, v, int(p.v_add), p.v_shift));
        }
        approx = adm_dwt_16(db2_lo, lo, int(p.h_add), p.h_shift);
        band[1] = adm_dwt_16(db2_hi, lo, int(p.h_add), p.h_shift);
        band[0] = adm_dwt_16(db2_lo, hi, int(p.h_add), p.h_shift);
        band[2] = adm_dwt_16(db2_hi, hi, int(p.h_add), p.h_shift);
    } else {
        const uint src = ADM_WORK_APPROX(pic, (p.level - 1u) & 1u) * p.plane_words;
        int64_t lo[4], hi[4]; // int32 as the C's rows
        for (int c = 0; c < 4; c++) {
            int64_t v[4];
            for (int k = 0; k < 4; k++)
                v[k] = p.work.v[src + uint(rows[k]) * p.pitch + uint(cols[c])];
            lo[c] = int(adm_dwt_32(db2_lo, v, p.v_add, p.v_shift));
            hi[c] = int(adm_dwt_32(db2_hi, v, p.v_add, p.v_shift));
        }
        approx = int(adm_dwt_32(db2_lo, lo, p.h_add, p.h_shift));
        band[1] = int(adm_dwt_32(db2_hi, lo, p.h_add, p.h_shift));
        band[0] = int(adm_dwt_32(db2_lo, hi, p.h_add, p.h_shift));
        band[2] = int(adm_dwt_32(db2_hi, hi, p.h_add, p.h_shift));
    }
    const uint o = i * p.stride + j;
    p.work.v[ADM_WORK_APPROX(pic, p.level & 1u) * p.plane_words + o] = approx;
    for (uint b = 0u; b < 3u; b++) p.work.v[ADM_WORK_BAND(pic, b) * p.plane_words + o] = band[b];
}
