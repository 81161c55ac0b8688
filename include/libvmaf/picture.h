/*
 * libvmaf 3.2's picture API (libvmaf/picture.h), as vqx implements it: the
 * declarations and layouts are libvmaf's, so that programs built against
 * libvmaf run unchanged with vqx's libvmaf.so.3.
 */
#ifndef VQX_LIBVMAF_PICTURE_H
#define VQX_LIBVMAF_PICTURE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum VmafPixelFormat {
    VMAF_PIX_FMT_UNKNOWN,
    VMAF_PIX_FMT_YUV420P,
    VMAF_PIX_FMT_YUV422P,
    VMAF_PIX_FMT_YUV444P,
    VMAF_PIX_FMT_YUV400P,
};

typedef struct VmafRef VmafRef;

/* Samples: uint8_t for bpc 8, uint16_t in host order for 9 to 16. Chroma
 * planes are w >> 1 wide for 4:2:0 and 4:2:2 and h >> 1 high for 4:2:0
 * (vqx keeps one more column or row for odd sizes; see docs/libvmaf.md).
 * `ref` and `priv` belong to the library. */
typedef struct VmafPicture {
    enum VmafPixelFormat pix_fmt;
    unsigned bpc;
    unsigned w[3], h[3];
    ptrdiff_t stride[3];
    void *data[3];
    VmafRef *ref;
    void *priv;
} VmafPicture;

/* A picture with its own memory, to be filled by the caller and then passed
 * to vmaf_read_pictures (which takes it over) or released with
 * vmaf_picture_unref. */
int vmaf_picture_alloc(VmafPicture *pic, enum VmafPixelFormat pix_fmt,
                       unsigned bpc, unsigned w, unsigned h);
int vmaf_picture_unref(VmafPicture *pic);

#ifdef __cplusplus
}
#endif

#endif
