/* The loop of a kernel that computes LANES outputs a step. */
#ifndef VQX_X86_STEPS_H
#define VQX_X86_STEPS_H

/* The body (the macro's last arguments) with x = start, start + LANES, ...
 * while a whole vector fits before end, then once with x = end - LANES, a
 * step that overlaps the one before and writes its outputs again, unchanged
 * (end - start >= LANES). The index of the loop depends on itself alone: a
 * clamp inside it would chain the iterations. */
#define FOR_EACH_STEP(x, start, end, ...)                            \
    do {                                                             \
        unsigned x = (start);                                        \
        for (; x + LANES <= (end); x += LANES) { __VA_ARGS__ }       \
        if (x < (end)) {                                             \
            x = (end) - LANES;                                       \
            __VA_ARGS__                                              \
        }                                                            \
    } while (0)

#endif
