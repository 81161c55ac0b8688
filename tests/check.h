/*
 * The tally of a unit test: CHECK(cond, fmt, ...) counts a pass, or counts a
 * failure and prints where and why; check_report() prints "N passed, N
 * failed" and gives main's exit status.
 */
#ifndef VQX_TESTS_CHECK_H
#define VQX_TESTS_CHECK_H

#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond, ...)                                  \
    do {                                                  \
        if (cond) {                                       \
            check_passed++;                               \
        } else {                                          \
            check_failed++;                               \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);   \
            printf(__VA_ARGS__);                          \
            printf("\n");                                 \
        }                                                 \
    } while (0)

static inline int check_report(void)
{
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
