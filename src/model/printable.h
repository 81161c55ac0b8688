/*
 * Quoting text from a model file in a one-line message.
 */
#ifndef VQX_MODEL_PRINTABLE_H
#define VQX_MODEL_PRINTABLE_H

#include <stddef.h>

#define VQX_PRINTABLE_LEN 48

/* The first bytes of s[0..len) with control and non-ASCII bytes as '?' and
 * "..." when cut, in buf (VQX_PRINTABLE_LEN bytes). */
static inline const char *vqx_printable(const char *s, size_t len, char *buf)
{
    const size_t keep = VQX_PRINTABLE_LEN - 4;
    size_t n = 0;
    for (; n < len && n < keep; n++)
        buf[n] = s[n] >= 0x20 && s[n] < 0x7f ? s[n] : '?';
    if (n < len) {
        buf[n++] = '.';
        buf[n++] = '.';
        buf[n++] = '.';
    }
    buf[n] = 0;
    return buf;
}

#endif
