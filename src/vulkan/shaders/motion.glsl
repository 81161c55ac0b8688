// Integer motion's blur taps (feature/motion_taps.h, shared with the C).
#include "motion_taps.h"

const int motion_taps[VQX_MOTION_TAPS_N] = int[VQX_MOTION_TAPS_N](VQX_MOTION_TAP_VALUES);
