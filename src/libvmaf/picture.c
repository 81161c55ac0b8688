/*
 * libvmaf's pictures over vqx's pool pictures. vmaf_picture_alloc has no
 * context, so its pictures come from one pool the process shares (a vqx
 * context that scores nothing): a stream of frames allocated, read and
 * released reuses a few buffers, and no frame allocates in steady state.
 * A VmafPicture keeps the pool buffer in `priv` and the pool's context in
 * `ref`; the rest is libvmaf's geometry (chroma floor-sized).
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "libvmaf/shim.h"
#include "picture.h"

static VqxContext *process_pool;
static int process_pool_error;
static pthread_once_t process_pool_once = PTHREAD_ONCE_INIT;

static void process_pool_open(void)
{
    process_pool_error = vqx_open(&process_pool, NULL);
}

bool vmaf_shim_layout(enum VmafPixelFormat f, enum VqxPixelLayout *layout)
{
    switch (f) {
    case VMAF_PIX_FMT_YUV420P: *layout = VQX_PIX_420; return true;
    case VMAF_PIX_FMT_YUV422P: *layout = VQX_PIX_422; return true;
    case VMAF_PIX_FMT_YUV444P: *layout = VQX_PIX_444; return true;
    case VMAF_PIX_FMT_YUV400P: *layout = VQX_PIX_400; return true;
    default: return false;
    }
}

void vmaf_shim_picture_from_vqx(VmafPicture *pic, const VqxPicture *vp)
{
    static const enum VmafPixelFormat formats[] = {
        [VQX_PIX_400] = VMAF_PIX_FMT_YUV400P, [VQX_PIX_420] = VMAF_PIX_FMT_YUV420P,
        [VQX_PIX_422] = VMAF_PIX_FMT_YUV422P, [VQX_PIX_444] = VMAF_PIX_FMT_YUV444P,
    };
    memset(pic, 0, sizeof(*pic));
    pic->pix_fmt = formats[vp->layout];
    pic->bpc = vp->bpc;
    const unsigned ss_x = vp->layout == VQX_PIX_420 || vp->layout == VQX_PIX_422;
    const unsigned ss_y = vp->layout == VQX_PIX_420;
    for (unsigned p = 0; p < 3; p++) {
        if (p && vp->layout == VQX_PIX_400) break;
        pic->w[p] = p ? vp->w[0] >> ss_x : vp->w[0];
        pic->h[p] = p ? vp->h[0] >> ss_y : vp->h[0];
        pic->stride[p] = vp->stride[p];
        pic->data[p] = vp->data[p];
    }
    pic->priv = vp->buf;
    pic->ref = (VmafRef *)vp->pool;
}

int vmaf_shim_picture_to_vqx(const VmafPicture *pic, VqxPicture *out)
{
    enum VqxPixelLayout layout;
    if (!pic->ref || !pic->priv || !vmaf_shim_layout(pic->pix_fmt, &layout)) return -EINVAL;
    memset(out, 0, sizeof(*out));
    if (!vqx_picture_layout(out, layout, pic->bpc, pic->w[0], pic->h[0], VQX_ALL_PLANES))
        return -EINVAL;
    vqx_picture_place(out, pic->priv, VQX_ALL_PLANES);
    out->pool = (VqxContext *)pic->ref;
    return 0;
}

VMAF_EXPORT int vmaf_picture_alloc(VmafPicture *pic, enum VmafPixelFormat pix_fmt, unsigned bpc,
                                   unsigned w, unsigned h)
{
    enum VqxPixelLayout layout;
    if (!pic || !vmaf_shim_layout(pix_fmt, &layout) || bpc < 8 || bpc > 16) return -EINVAL;
    pthread_once(&process_pool_once, process_pool_open);
    if (process_pool_error) return process_pool_error;
    VqxPicture vp;
    const int ret = vqx_picture_alloc_from(process_pool, &vp, layout, bpc, w, h);
    if (ret) return ret;
    /* libvmaf's pictures start zeroed: planes a caller leaves unfilled read
     * the same on every frame */
    for (unsigned p = 0; p < vqx_picture_planes(&vp); p++)
        memset(vp.data[p], 0, (size_t)vp.stride[p] * vp.h[p]);
    vmaf_shim_picture_from_vqx(pic, &vp);
    return 0;
}

VMAF_EXPORT int vmaf_picture_unref(VmafPicture *pic)
{
    if (!pic) return -EINVAL;
    VqxPicture vp;
    const int ret = vmaf_shim_picture_to_vqx(pic, &vp);
    if (ret) return ret;
    vqx_picture_free(&vp);
    memset(pic, 0, sizeof(*pic));
    return 0;
}
