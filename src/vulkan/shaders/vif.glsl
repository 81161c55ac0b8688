// Integer VIF's taps (feature/vif_taps.h, shared with the C), all four
// scales in one table.
#include "vif_taps.h"

const uint vif_taps[34] = uint[34](VIF_TAP_VALUES_SCALE0, VIF_TAP_VALUES_SCALE1,
                                   VIF_TAP_VALUES_SCALE2, VIF_TAP_VALUES_SCALE3);

// Half width of scale s's filter.
int vif_half(uint scale)
{
    return 8 >> scale;
}

// Tap k of scale s's filter: the scales' taps follow one another (17, 9, 5, 3).
uint vif_tap_at(uint scale, int k)
{
    const int first[4] = int[4](0, 17, 26, 31);
    return vif_taps[first[scale] + k];
}
