#version 460
// Integer motion's row pass (motion_dsp.c's vqx_motion_row_sad): each row
// of the column pass blurred along the row (columns mirrored), |.| rounded
// to 16 bits, summed modulo 2^32 as libvmaf sums a row (any order gives
// that sum), into rows.sum[y]; a workgroup per row.
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"
#include "motion.glsl"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Ints { int value[]; };

layout(push_constant) uniform Push {
    Ints mid;
    Sums64 rows;
    uint width;
} p;

shared uint partial[256];

void main()
{
    const uint y = gl_WorkGroupID.x, t = gl_LocalInvocationID.x;
    const uint row = y * p.width;
    uint sum = 0u;
    for (uint x = t; x < p.width; x += 256u) {
        int64_t acc = 0;
        for (int k = 0; k < VQX_MOTION_TAPS_N; k++)
            acc += int64_t(motion_taps[k]) *
                   int64_t(p.mid.value[row + uint(reflect101(int(x) - VQX_MOTION_RADIUS + k,
                                                             int(p.width)))]);
        sum += uint(abs(int((acc + 32768) >> 16)));
    }
    partial[t] = sum;
    barrier();
    for (uint half_n = 128u; half_n > 0u; half_n >>= 1) {
        if (t < half_n) partial[t] += partial[t + half_n];
        barrier();
    }
    if (t == 0u) p.rows.sum[y] = uint64_t(partial[0]);
}
