// Integer motion's blur taps (sum 65536), from libvmaf integer_motion.h,
// Netflix, BSD+Patent.
const int motion_taps[5] = int[5](3571, 16004, 26386, 16004, 3571);
