/* Reproducible random content of the kernel checks: xorshift32; set `rng`
 * to seed it. */
#ifndef VQX_TESTS_XORSHIFT_H
#define VQX_TESTS_XORSHIFT_H

#include <stdint.h>

static uint32_t rng = 1;

static inline uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

#endif
