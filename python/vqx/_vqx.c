/*
 * vqx._vqx: the C side of the vqx Python package, over include/vqx/vqx.h
 * and the y4m/raw readers of src/io/. Built on the stable ABI
 * (Py_LIMITED_API 3.11, set by meson: the buffer protocol is in the limited
 * API from 3.11 on), so one wheel serves every CPython from 3.11.
 *
 * One type, Context, wraps a VqxContext. Configuration errors raise
 * vqx.Error; failures in the middle of a stream (a bad frame, a truncated
 * file, a feature that failed) are returned as messages instead, so that
 * the Python side can flush and still hand back the frames scored.
 * Scoring (vqx_send_pictures, vqx_flush, the plane copies and the file
 * loop) runs with the GIL released.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/input.h"
#include "io/reader.h"
#include "vqx/vqx.h"

#define MSG_LEN 512

static PyObject *error_type;       /* vqx.Error(ValueError) */
static PyObject *input_error_type; /* vqx.InputError(vqx.Error, OSError) */

/* Notices may come from the library's worker threads while the GIL is
 * released: they are kept in C, under a lock, and read by Python later. */
typedef struct NoticeList {
    pthread_mutex_t lock;
    char **lines;
    size_t n, cap;
} NoticeList;

static void notice_add(NoticeList *l, const char *msg)
{
    pthread_mutex_lock(&l->lock);
    if (l->n == l->cap) {
        const size_t cap = l->cap ? 2 * l->cap : 8;
        char **lines = realloc(l->lines, cap * sizeof(*lines));
        if (lines) {
            l->lines = lines;
            l->cap = cap;
        }
    }
    char *line = l->n < l->cap ? strdup(msg) : NULL;
    if (line) l->lines[l->n++] = line; /* out of memory: the notice is lost, nothing worse */
    pthread_mutex_unlock(&l->lock);
}

static void notice_callback(void *cookie, const char *msg)
{
    notice_add(cookie, msg);
}

typedef struct ContextObject {
    PyObject_HEAD
    VqxContext *ctx;
    NoticeList notices;
    /* set while the GIL is released on this context: a second Python
     * thread must not enter the library on it at the same time */
    bool busy;
} ContextObject;

static PyObject *raise_error(PyObject *type, const char *msg)
{
    PyErr_SetString(type, msg);
    return NULL;
}

/* The context is usable, not closed and not busy in another thread. */
static bool context_ready(ContextObject *self)
{
    if (!self->ctx) {
        raise_error(error_type, "the scorer is closed");
        return false;
    }
    if (self->busy) {
        raise_error(error_type, "the scorer is in use by another thread");
        return false;
    }
    return true;
}

static PyObject *Context_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = { "threads", "subsample", "backend", "strict_backend", "cpumask",
                              "gpu", NULL };
    unsigned threads = 0, subsample = 1, backend = 0, cpumask = 0, gpu = 0;
    int strict = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|IIIpII", kwlist, &threads, &subsample, &backend,
                                     &strict, &cpumask, &gpu))
        return NULL;
    if (backend > VQX_BACKEND_VULKAN) return raise_error(error_type, "unknown backend");
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    ContextObject *self = (ContextObject *)alloc(type, 0);
    if (!self) return NULL;
    pthread_mutex_init(&self->notices.lock, NULL);

    VqxSettings s;
    vqx_default_settings(&s);
    s.n_threads = threads;
    s.subsample = subsample;
    s.backend = (enum VqxBackend)backend;
    s.strict_backend = strict;
    s.cpumask = cpumask;
    s.gpu = gpu;
    s.notice = notice_callback;
    s.notice_cookie = &self->notices;
    if (vqx_open(&self->ctx, &s)) {
        raise_error(error_type, self->ctx ? vqx_last_error(self->ctx) : "out of memory");
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void close_context(ContextObject *self)
{
    if (!self->ctx) return;
    /* joins the worker threads: no Python code waits on them */
    Py_BEGIN_ALLOW_THREADS
    vqx_close(&self->ctx);
    Py_END_ALLOW_THREADS
}

static void Context_dealloc(PyObject *obj)
{
    ContextObject *self = (ContextObject *)obj;
    PyTypeObject *type = Py_TYPE(obj);
    close_context(self);
    for (size_t i = 0; i < self->notices.n; i++)
        free(self->notices.lines[i]);
    free(self->notices.lines);
    pthread_mutex_destroy(&self->notices.lock);
    freefunc free_obj = (freefunc)PyType_GetSlot(type, Py_tp_free);
    free_obj(obj);
    Py_DECREF(type);
}

static PyObject *Context_close(PyObject *obj, PyObject *unused)
{
    (void)unused;
    ContextObject *self = (ContextObject *)obj;
    if (self->busy) return raise_error(error_type, "the scorer is in use by another thread");
    close_context(self);
    Py_RETURN_NONE;
}

static PyObject *Context_use_feature(PyObject *obj, PyObject *args)
{
    ContextObject *self = (ContextObject *)obj;
    const char *name, *options = NULL;
    if (!PyArg_ParseTuple(args, "s|z", &name, &options) || !context_ready(self)) return NULL;
    if (vqx_use_feature(self->ctx, name, options)) return raise_error(error_type, vqx_last_error(self->ctx));
    Py_RETURN_NONE;
}

static PyObject *Context_use_model(PyObject *obj, PyObject *args)
{
    ContextObject *self = (ContextObject *)obj;
    const char *spec;
    if (!PyArg_ParseTuple(args, "s", &spec) || !context_ready(self)) return NULL;
    if (vqx_use_model(self->ctx, spec)) return raise_error(error_type, vqx_last_error(self->ctx));
    Py_RETURN_NONE;
}

/* ---- frames from buffers ---- */

static const char *const plane_names[3] = { "Y", "U", "V" };
static const char *const layout_names[4] = { "4:0:0", "4:2:0", "4:2:2", "4:4:4" };

/* Plane p's size for a luma of w x h, as vqx.h gives it. */
static void plane_size(enum VqxPixelLayout layout, unsigned p, unsigned w, unsigned h,
                       unsigned *pw, unsigned *ph)
{
    const bool half_w = p && (layout == VQX_PIX_420 || layout == VQX_PIX_422);
    const bool half_h = p && layout == VQX_PIX_420;
    *pw = half_w ? (w + 1) / 2 : w;
    *ph = half_h ? (h + 1) / 2 : h;
}

/* A buffer format of unsigned samples in host order: "B", "H", with an
 * optional byte order mark that means the host's. Returns the sample size,
 * 0 for anything else. */
static unsigned sample_bytes(const Py_buffer *b)
{
    const char *f = b->format ? b->format : "B";
    const bool little = *(const uint8_t *)&(uint16_t){ 1 };
    if (*f == '@' || *f == '=' || (*f == '<' && little) || (*f == '>' && !little)) f++;
    if (!strcmp(f, "B") && b->itemsize == 1) return 1;
    if (!strcmp(f, "H") && b->itemsize == 2) return 2;
    return 0;
}

typedef struct FrameView {
    Py_buffer planes[3];
    unsigned n;             /* planes acquired */
    enum VqxPixelLayout layout;
    unsigned bytes;         /* per sample */
    unsigned w, h;
} FrameView;

static void release_view(FrameView *v)
{
    for (unsigned p = 0; p < v->n; p++)
        PyBuffer_Release(&v->planes[p]);
    v->n = 0;
}

/* Acquire the planes of one frame (a tuple of 1 or 3 two-dimensional
 * buffers) and find its layout from their shapes (`layout` < 0) or check
 * them against the layout given. */
static int acquire_view(FrameView *v, PyObject *frame, const char *what, int layout)
{
    v->n = 0;
    if (!PyTuple_Check(frame)) {
        PyErr_Format(error_type, "%s frame: a tuple of planes (Y, U, V or Y alone) expected", what);
        return -1;
    }
    const Py_ssize_t n = PyTuple_Size(frame);
    if (n != 1 && n != 3) {
        PyErr_Format(error_type, "%s frame: %zd planes, 3 (Y, U, V) or 1 (Y, for 4:0:0) expected",
                     what, n);
        return -1;
    }
    for (Py_ssize_t p = 0; p < n; p++) {
        Py_buffer *b = &v->planes[p];
        if (PyObject_GetBuffer(PyTuple_GetItem(frame, p), b, PyBUF_RECORDS_RO)) {
            release_view(v);
            PyErr_Clear();
            PyErr_Format(error_type, "%s frame, plane %s: not an array or buffer", what, plane_names[p]);
            return -1;
        }
        v->n++;
        const unsigned bytes = sample_bytes(b);
        const char *why = b->ndim != 2 ? "not 2-D" :
                          !bytes ? "samples are neither uint8 nor uint16 (host order)" :
                          p && bytes != v->bytes ? "sample type differs from plane Y's" :
                          !b->shape[0] || !b->shape[1] ? "empty" :
                          b->shape[0] > 65536 || b->shape[1] > 65536 ? "larger than 65536" : NULL;
        if (why) {
            PyErr_Format(error_type, "%s frame, plane %s: %s", what, plane_names[p], why);
            release_view(v);
            return -1;
        }
        v->bytes = bytes;
    }
    v->h = (unsigned)v->planes[0].shape[0];
    v->w = (unsigned)v->planes[0].shape[1];
    if (n == 1) {
        if (layout >= 0 && layout != VQX_PIX_400) {
            PyErr_Format(error_type, "%s frame: one plane, but pixel format %s needs three",
                         what, layout_names[layout]);
            release_view(v);
            return -1;
        }
        v->layout = VQX_PIX_400;
        return 0;
    }
    const unsigned cw = (unsigned)v->planes[1].shape[1], ch = (unsigned)v->planes[1].shape[0];
    for (int l = VQX_PIX_420; l <= VQX_PIX_444; l++) {
        if (layout >= 0 && l != layout) continue;
        bool fits = true;
        for (unsigned p = 1; p < 3; p++) {
            unsigned pw, ph;
            plane_size((enum VqxPixelLayout)l, p, v->w, v->h, &pw, &ph);
            fits &= v->planes[p].shape[1] == pw && v->planes[p].shape[0] == ph;
        }
        if (fits) {
            v->layout = (enum VqxPixelLayout)l;
            return 0;
        }
    }
    PyErr_Format(error_type, "%s frame: chroma planes %ux%u and %zdx%zd (width x height) fit no %s "
                 "for a %ux%u luma (4:2:0: %ux%u, 4:2:2: %ux%u, 4:4:4: %ux%u)", what, cw, ch,
                 v->planes[2].shape[1], v->planes[2].shape[0],
                 layout >= 0 ? layout_names[layout] : "pixel format", v->w, v->h,
                 (v->w + 1) / 2, (v->h + 1) / 2, (v->w + 1) / 2, v->h, v->w, v->h);
    release_view(v);
    return -1;
}

/* Copy plane b into a packed plane of the pool (GIL released: the view
 * stays valid while it is held). Strides may be anything numpy makes. */
static void copy_plane(uint8_t *dst, ptrdiff_t dst_stride, const Py_buffer *b, unsigned bytes)
{
    const unsigned w = (unsigned)b->shape[1], h = (unsigned)b->shape[0];
    const ptrdiff_t row_stride = b->strides[0], col_stride = b->strides[1];
    const uint8_t *src = b->buf;
    for (unsigned y = 0; y < h; y++, src += row_stride, dst += dst_stride) {
        if (col_stride == (ptrdiff_t)bytes) {
            memcpy(dst, src, (size_t)w * bytes);
        } else if (bytes == 1) {
            for (unsigned x = 0; x < w; x++)
                dst[x] = src[x * col_stride];
        } else {
            for (unsigned x = 0; x < w; x++)
                memcpy(dst + 2 * x, src + x * col_stride, 2);
        }
    }
}

/* send(ref, dis, bitdepth, layout, width, height): one pair of frames,
 * each a tuple of planes. bitdepth 0: 8 for uint8 planes; layout -1: from
 * the shapes; width, height 0: any. Returns None, or the library's message
 * for a frame it refused. */
static PyObject *Context_send(PyObject *obj, PyObject *args)
{
    ContextObject *self = (ContextObject *)obj;
    PyObject *ref_frame, *dis_frame;
    unsigned bitdepth, width, height;
    int layout;
    if (!PyArg_ParseTuple(args, "OOIiII", &ref_frame, &dis_frame, &bitdepth, &layout, &width,
                          &height) || !context_ready(self))
        return NULL;
    FrameView ref, dis;
    if (acquire_view(&ref, ref_frame, "reference", layout)) return NULL;
    if (acquire_view(&dis, dis_frame, "distorted", layout)) {
        release_view(&ref);
        return NULL;
    }
    const char *why = NULL;
    if (dis.bytes != ref.bytes) why = "the reference and distorted frames have different sample types";
    else if (ref.bytes == 1 && bitdepth && bitdepth != 8) why = "uint8 planes hold 8-bit samples: "
                                                                "a larger bitdepth needs uint16 planes";
    else if (ref.bytes == 2 && (bitdepth < 9 || bitdepth > 16))
        why = "uint16 planes need bitdepth 9 to 16 (10, 12, 16)";
    if (!why && ((width && width != ref.w) || (height && height != ref.h))) {
        PyErr_Format(error_type, "the frames are %ux%u, width and height say %ux%u", ref.w, ref.h,
                     width ? width : ref.w, height ? height : ref.h);
        release_view(&ref);
        release_view(&dis);
        return NULL;
    }
    if (why || dis.w != ref.w || dis.h != ref.h || dis.layout != ref.layout) {
        if (why) PyErr_SetString(error_type, why);
        else PyErr_Format(error_type, "the reference frame is %ux%u %s, the distorted frame %ux%u %s",
                          ref.w, ref.h, layout_names[ref.layout], dis.w, dis.h, layout_names[dis.layout]);
        release_view(&ref);
        release_view(&dis);
        return NULL;
    }
    const unsigned bpc = ref.bytes == 1 ? 8 : bitdepth;

    VqxPicture pr = { 0 }, pd = { 0 };
    int ret = 0;
    self->busy = true;
    Py_BEGIN_ALLOW_THREADS
    /* planes no feature reads are not copied (vqx_planes_used) */
    const unsigned used = vqx_planes_used(self->ctx);
    ret = vqx_picture_alloc_from(self->ctx, &pr, ref.layout, bpc, ref.w, ref.h);
    if (!ret) ret = vqx_picture_alloc_from(self->ctx, &pd, dis.layout, bpc, dis.w, dis.h);
    for (unsigned p = 0; !ret && p < ref.n; p++) {
        if (!(used >> p & 1)) continue;
        copy_plane(pr.data[p], pr.stride[p], &ref.planes[p], ref.bytes);
        copy_plane(pd.data[p], pd.stride[p], &dis.planes[p], dis.bytes);
    }
    if (!ret) ret = vqx_send_pictures(self->ctx, &pr, &pd);
    /* a refused pair is still ours (cleared when taken over) */
    vqx_picture_free(&pr);
    vqx_picture_free(&pd);
    Py_END_ALLOW_THREADS
    self->busy = false;
    release_view(&ref);
    release_view(&dis);
    if (ret == -ENOMEM) return PyErr_NoMemory();
    if (ret) return PyUnicode_FromString(vqx_last_error(self->ctx));
    Py_RETURN_NONE;
}

/* ---- frames from files ---- */

static int open_input(VqxInput **in, PyObject *path, const VqxRawFormat *raw, char *msg)
{
    PyObject *bytes;
    if (!PyUnicode_FSConverter(path, &bytes)) return -1;
    const int ret = vqx_input_open(in, PyBytes_AsString(bytes), raw, msg, MSG_LEN);
    Py_DECREF(bytes);
    if (ret) PyErr_SetString(input_error_type, msg);
    return ret ? -1 : 0;
}

/* Both inputs must have one geometry, layout and bit depth (the CLI's rule). */
static int check_inputs(const VqxInput *ref, const VqxInput *dis)
{
    const VqxRawFormat *a = vqx_input_format(ref), *b = vqx_input_format(dis);
    if (a->w == b->w && a->h == b->h && a->layout == b->layout && a->bpc == b->bpc) return 0;
    PyErr_Format(input_error_type, "inputs differ: %s is %ux%u %s %u-bit, %s is %ux%u %s %u-bit",
                 vqx_input_name(ref), a->w, a->h, layout_names[a->layout], a->bpc,
                 vqx_input_name(dis), b->w, b->h, layout_names[b->layout], b->bpc);
    return -1;
}

/* Read pairs until either input ends and send them, as the CLI does.
 * Returns the frames sent; `msg` gets a reader's or the library's message
 * when a frame could not be read or was refused, else stays "". */
static unsigned score_inputs(ContextObject *self, VqxReader *ref_reader, VqxReader *dis_reader,
                             const VqxInput *ref, const VqxInput *dis, char *msg)
{
    unsigned n = 0;
    for (;; n++) {
        VqxPicture pr, pd;
        const int rr = vqx_reader_next(ref_reader, &pr, msg, MSG_LEN);
        const int rd = rr < 0 ? 0 : vqx_reader_next(dis_reader, &pd, msg, MSG_LEN);
        if (rr <= 0 || rd <= 0) {
            if (rr >= 0 && rd >= 0 && rr != rd) {
                char note[MSG_LEN];
                snprintf(note, sizeof(note), "%s ended before %s; scored %u frames",
                         vqx_input_name(rr ? dis : ref), vqx_input_name(rr ? ref : dis), n);
                notice_add(&self->notices, note);
            }
            vqx_picture_free(&pr);
            if (rr >= 0) vqx_picture_free(&pd);
            return n;
        }
        if (vqx_send_pictures(self->ctx, &pr, &pd)) {
            snprintf(msg, MSG_LEN, "%s", vqx_last_error(self->ctx));
            vqx_picture_free(&pr);
            vqx_picture_free(&pd);
            return n;
        }
    }
}

/* raw: None (y4m) or (w, h, layout, bitdepth); `*rawp` NULL for None. */
static int parse_raw(PyObject *raw_obj, VqxRawFormat *raw, const VqxRawFormat **rawp)
{
    unsigned layout = 0;
    *rawp = NULL;
    if (raw_obj == Py_None) return 0;
    if (!PyArg_ParseTuple(raw_obj, "IIII", &raw->w, &raw->h, &layout, &raw->bpc)) return -1;
    raw->layout = (enum VqxPixelLayout)layout;
    *rawp = raw;
    return 0;
}

/* Skip the first n frames of an input, as the CLI's --frame_skip_ref/dist. */
static int skip_input(VqxInput *in, unsigned n, char *msg)
{
    if (!n) return 0;
    const int ret = vqx_input_skip(in, n, msg, MSG_LEN);
    if (ret == 1) return 0;
    if (!ret) snprintf(msg, MSG_LEN, "%s has fewer than %u frames to skip", vqx_input_name(in), n);
    PyErr_SetString(input_error_type, msg);
    return -1;
}

/* score_files(ref, dis, raw, frame_cnt, skip_ref, skip_dis): raw is None or
 * (w, h, layout, bitdepth) for inputs that are not y4m; the first skip_ref
 * and skip_dis frames are skipped. Returns (frames sent, message or None);
 * inputs that cannot be opened, differ or are too short to skip raise
 * vqx.InputError. */
static PyObject *Context_score_files(PyObject *obj, PyObject *args)
{
    ContextObject *self = (ContextObject *)obj;
    PyObject *ref_path, *dis_path, *raw_obj;
    unsigned frame_cnt, skip_ref, skip_dis;
    if (!PyArg_ParseTuple(args, "OOOIII", &ref_path, &dis_path, &raw_obj, &frame_cnt, &skip_ref,
                          &skip_dis) || !context_ready(self))
        return NULL;
    VqxRawFormat raw = { 0 };
    const VqxRawFormat *rawp;
    if (parse_raw(raw_obj, &raw, &rawp)) return NULL;

    char msg[MSG_LEN] = "";
    VqxInput *ref = NULL, *dis = NULL;
    VqxReader *ref_reader = NULL, *dis_reader = NULL;
    PyObject *result = NULL;
    if (open_input(&ref, ref_path, rawp, msg) || open_input(&dis, dis_path, rawp, msg) ||
        check_inputs(ref, dis) || skip_input(ref, skip_ref, msg) || skip_input(dis, skip_dis, msg))
        goto out;
    if (vqx_set_color_range(self->ctx, vqx_input_pair_range(ref, dis))) {
        PyErr_SetString(error_type, vqx_last_error(self->ctx));
        goto out;
    }
    /* planes no feature reads are skipped in the files */
    vqx_input_set_planes(ref, vqx_planes_used(self->ctx));
    vqx_input_set_planes(dis, vqx_planes_used(self->ctx));
    const VqxReaderSettings rs = { .ctx = self->ctx, .limit = frame_cnt };
    if (vqx_reader_start(&ref_reader, ref, &rs, msg, MSG_LEN) ||
        vqx_reader_start(&dis_reader, dis, &rs, msg, MSG_LEN)) {
        PyErr_SetString(input_error_type, msg);
        goto out;
    }
    unsigned n;
    self->busy = true;
    Py_BEGIN_ALLOW_THREADS
    n = score_inputs(self, ref_reader, dis_reader, ref, dis, msg);
    /* frames read ahead are not needed */
    vqx_reader_stop(&ref_reader);
    vqx_reader_stop(&dis_reader);
    Py_END_ALLOW_THREADS
    self->busy = false;
    result = *msg ? Py_BuildValue("(Is)", n, msg) : Py_BuildValue("(IO)", n, Py_None);
out:
    vqx_reader_stop(&ref_reader);
    vqx_reader_stop(&dis_reader);
    vqx_input_close(&ref);
    vqx_input_close(&dis);
    return result;
}

/* frames_needed(): (before, after), the requested features' temporal window. */
static PyObject *Context_frames_needed(PyObject *obj, PyObject *unused)
{
    (void)unused;
    ContextObject *self = (ContextObject *)obj;
    unsigned before, after;
    if (!context_ready(self)) return NULL;
    if (vqx_frames_needed(self->ctx, &before, &after))
        return raise_error(error_type, vqx_last_error(self->ctx));
    return Py_BuildValue("(II)", before, after);
}

/* import_stream(layout, bitdepth, w, h, n_frames): frames scored elsewhere. */
static PyObject *Context_import_stream(PyObject *obj, PyObject *args)
{
    ContextObject *self = (ContextObject *)obj;
    unsigned layout, bpc, w, h, n;
    if (!PyArg_ParseTuple(args, "IIIII", &layout, &bpc, &w, &h, &n) || !context_ready(self))
        return NULL;
    if (vqx_import_stream(self->ctx, (enum VqxPixelLayout)layout, bpc, w, h, n))
        return raise_error(error_type, vqx_last_error(self->ctx));
    Py_RETURN_NONE;
}

/* import_scores(key, first, values, written): values (native doubles) as
 * frames first, first + 1, ..., those whose byte in `written` is 0 left out. */
static PyObject *Context_import_scores(PyObject *obj, PyObject *args)
{
    ContextObject *self = (ContextObject *)obj;
    const char *key;
    unsigned first;
    Py_buffer values, written;
    if (!PyArg_ParseTuple(args, "sIy*y*", &key, &first, &values, &written)) return NULL;
    bool ok = context_ready(self);
    const size_t n = (size_t)values.len / sizeof(double);
    if (ok && (size_t)written.len != n) {
        raise_error(error_type, "import_scores: one written flag per value expected");
        ok = false;
    }
    const double *v = values.buf;
    const uint8_t *w = written.buf;
    for (size_t i = 0; ok && i < n; i++) {
        if (w[i] && vqx_import_score(self->ctx, key, first + (unsigned)i, v[i])) {
            raise_error(error_type, vqx_last_error(self->ctx));
            ok = false;
        }
    }
    PyBuffer_Release(&values);
    PyBuffer_Release(&written);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* import_aggregate(name, value), import_backend(feature index, backend). */
static PyObject *Context_import_aggregate(PyObject *obj, PyObject *args)
{
    ContextObject *self = (ContextObject *)obj;
    const char *name;
    double value;
    if (!PyArg_ParseTuple(args, "sd", &name, &value) || !context_ready(self)) return NULL;
    if (vqx_import_aggregate(self->ctx, name, value))
        return raise_error(error_type, vqx_last_error(self->ctx));
    Py_RETURN_NONE;
}

static PyObject *Context_import_backend(PyObject *obj, PyObject *args)
{
    ContextObject *self = (ContextObject *)obj;
    unsigned feature, backend;
    if (!PyArg_ParseTuple(args, "II", &feature, &backend) || !context_ready(self)) return NULL;
    if (vqx_import_backend(self->ctx, feature, (enum VqxBackend)backend))
        return raise_error(error_type, vqx_last_error(self->ctx));
    Py_RETURN_NONE;
}

/* written(key): a bytes of frame_count() flags, 1 where the frame has a
 * value (values() gives NaN both for no value and for a NaN value). */
static PyObject *Context_written(PyObject *obj, PyObject *args)
{
    ContextObject *self = (ContextObject *)obj;
    const char *key;
    if (!PyArg_ParseTuple(args, "s", &key) || !context_ready(self)) return NULL;
    const unsigned n = vqx_frame_count(self->ctx);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
    if (!out) return NULL;
    char *w = PyBytes_AsString(out);
    for (unsigned i = 0; i < n; i++) {
        double v;
        const int ret = vqx_score_at(self->ctx, key, i, &v);
        if (ret == -ENOENT) {
            Py_DECREF(out);
            return raise_error(error_type, vqx_last_error(self->ctx));
        }
        w[i] = !ret;
    }
    return out;
}

/* flush(): None, or the first error a feature met (the other results stay). */
static PyObject *Context_flush(PyObject *obj, PyObject *unused)
{
    (void)unused;
    ContextObject *self = (ContextObject *)obj;
    if (!context_ready(self)) return NULL;
    int ret;
    self->busy = true;
    Py_BEGIN_ALLOW_THREADS
    ret = vqx_flush(self->ctx);
    Py_END_ALLOW_THREADS
    self->busy = false;
    if (ret) return PyUnicode_FromString(vqx_last_error(self->ctx));
    Py_RETURN_NONE;
}

/* ---- results ---- */

static PyObject *Context_planes_used(PyObject *obj, PyObject *unused)
{
    (void)unused;
    ContextObject *self = (ContextObject *)obj;
    if (!context_ready(self)) return NULL;
    return PyLong_FromUnsignedLong(vqx_planes_used(self->ctx));
}

static PyObject *Context_frame_count(PyObject *obj, PyObject *unused)
{
    (void)unused;
    ContextObject *self = (ContextObject *)obj;
    if (!context_ready(self)) return NULL;
    return PyLong_FromUnsignedLong(vqx_frame_count(self->ctx));
}

/* A list of count(ctx) strings name(ctx, i). */
static PyObject *name_list(const VqxContext *ctx, unsigned (*count)(const VqxContext *),
                           const char *(*name)(const VqxContext *, unsigned))
{
    const unsigned n = count(ctx);
    PyObject *list = PyList_New(n);
    for (unsigned i = 0; list && i < n; i++) {
        PyObject *s = PyUnicode_FromString(name(ctx, i));
        if (!s || PyList_SetItem(list, i, s)) {
            Py_CLEAR(list);
        }
    }
    return list;
}

static PyObject *Context_keys(PyObject *obj, PyObject *unused)
{
    (void)unused;
    ContextObject *self = (ContextObject *)obj;
    if (!context_ready(self)) return NULL;
    return name_list(self->ctx, vqx_key_count, vqx_key_name);
}

static PyObject *Context_model_keys(PyObject *obj, PyObject *unused)
{
    (void)unused;
    ContextObject *self = (ContextObject *)obj;
    if (!context_ready(self)) return NULL;
    return name_list(self->ctx, vqx_model_count, vqx_model_key);
}

/* values(key): a bytearray of frame_count() native doubles, NaN for the
 * frames without a value (not scored, subsampled). */
static PyObject *Context_values(PyObject *obj, PyObject *args)
{
    ContextObject *self = (ContextObject *)obj;
    const char *key;
    if (!PyArg_ParseTuple(args, "s", &key) || !context_ready(self)) return NULL;
    const unsigned n = vqx_frame_count(self->ctx);
    PyObject *out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)n * (Py_ssize_t)sizeof(double));
    if (!out) return NULL;
    double *v = (double *)PyByteArray_AsString(out);
    for (unsigned i = 0; i < n; i++) {
        const int ret = vqx_score_at(self->ctx, key, i, &v[i]);
        if (ret == -ENOENT) {
            Py_DECREF(out);
            return raise_error(error_type, vqx_last_error(self->ctx));
        }
        if (ret) v[i] = NAN;
    }
    return out;
}

/* pooled(key): (min, max, mean, harmonic mean) over every frame, each
 * None where the key cannot be pooled so. */
static PyObject *Context_pooled(PyObject *obj, PyObject *args)
{
    ContextObject *self = (ContextObject *)obj;
    const char *key;
    if (!PyArg_ParseTuple(args, "s", &key) || !context_ready(self)) return NULL;
    const unsigned n = vqx_frame_count(self->ctx);
    PyObject *out = PyTuple_New(4);
    for (int m = VQX_POOL_MIN; out && m <= VQX_POOL_HARMONIC_MEAN; m++) {
        double v;
        PyObject *item = n && !vqx_score_pooled(self->ctx, key, (enum VqxPool)m, 0, n - 1, &v)
                         ? PyFloat_FromDouble(v) : Py_NewRef(Py_None);
        if (!item || PyTuple_SetItem(out, m, item)) Py_CLEAR(out);
    }
    return out;
}

/* Write the outputs to `f`; 0 or a negative errno. */
static int write_to(ContextObject *self, FILE *f, int format, int precision, double fps)
{
    const VqxOutputSettings os = { .format = (enum VqxOutputFormat)format, .precision = precision,
                                   .fps = fps };
    return vqx_write_output(self->ctx, f, &os);
}

/* write(path, format, precision, fps): the CLI's output file. */
static PyObject *Context_write(PyObject *obj, PyObject *args)
{
    ContextObject *self = (ContextObject *)obj;
    PyObject *path, *bytes;
    int format, precision;
    double fps;
    if (!PyArg_ParseTuple(args, "Oiid", &path, &format, &precision, &fps) || !context_ready(self) ||
        !PyUnicode_FSConverter(path, &bytes))
        return NULL;
    const char *name = PyBytes_AsString(bytes);
    int ret;
    Py_BEGIN_ALLOW_THREADS
    FILE *f = fopen(name, "w");
    ret = f ? write_to(self, f, format, precision, fps) : -errno;
    if (f && fclose(f) && !ret) ret = -errno;
    Py_END_ALLOW_THREADS
    if (ret) {
        /* the settings are valid, so vqx_write_output refused a name */
        PyErr_Format(ret == -EINVAL ? error_type : input_error_type, "cannot write %s: %s", name,
                     ret == -EINVAL ? "a score's name cannot be written in this format" : strerror(-ret));
    }
    Py_DECREF(bytes);
    if (ret) return NULL;
    Py_RETURN_NONE;
}

/* aggregate(): {name: value} of the run's aggregate metrics. */
static PyObject *Context_aggregate(PyObject *obj, PyObject *unused)
{
    (void)unused;
    ContextObject *self = (ContextObject *)obj;
    if (!context_ready(self)) return NULL;
    PyObject *out = PyDict_New();
    for (unsigned i = 0; out && i < vqx_aggregate_count(self->ctx); i++) {
        PyObject *v = PyFloat_FromDouble(vqx_aggregate_value(self->ctx, i));
        if (!v || PyDict_SetItemString(out, vqx_aggregate_name(self->ctx, i), v)) Py_CLEAR(out);
        Py_XDECREF(v);
    }
    return out;
}

/* backends(): {feature instance: "cpu" | "cuda" | "vulkan"}. */
static PyObject *Context_backends(PyObject *obj, PyObject *unused)
{
    (void)unused;
    ContextObject *self = (ContextObject *)obj;
    if (!context_ready(self)) return NULL;
    PyObject *out = PyDict_New();
    for (unsigned i = 0; out && i < vqx_run_feature_count(self->ctx); i++) {
        PyObject *v = PyUnicode_FromString(vqx_run_feature_backend(self->ctx, i));
        if (!v || PyDict_SetItemString(out, vqx_run_feature_name(self->ctx, i), v)) Py_CLEAR(out);
        Py_XDECREF(v);
    }
    return out;
}

static PyObject *Context_notices(PyObject *obj, PyObject *unused)
{
    (void)unused;
    ContextObject *self = (ContextObject *)obj;
    NoticeList *l = &self->notices;
    pthread_mutex_lock(&l->lock);
    PyObject *list = PyList_New((Py_ssize_t)l->n);
    for (size_t i = 0; list && i < l->n; i++) {
        PyObject *s = PyUnicode_DecodeUTF8(l->lines[i], (Py_ssize_t)strlen(l->lines[i]), "replace");
        if (!s || PyList_SetItem(list, (Py_ssize_t)i, s)) Py_CLEAR(list);
    }
    pthread_mutex_unlock(&l->lock);
    return list;
}

/* add_notice(msg): a notice of the Python side, kept with the library's. */
static PyObject *Context_add_notice(PyObject *obj, PyObject *args)
{
    ContextObject *self = (ContextObject *)obj;
    const char *msg;
    if (!PyArg_ParseTuple(args, "s", &msg)) return NULL;
    notice_add(&self->notices, msg);
    Py_RETURN_NONE;
}

static PyMethodDef context_methods[] = {
    { "use_feature", Context_use_feature, METH_VARARGS, "use_feature(name, options=None)" },
    { "use_model", Context_use_model, METH_VARARGS, "use_model(spec)" },
    { "planes_used", Context_planes_used, METH_NOARGS, "planes_used() -> int" },
    { "send", Context_send, METH_VARARGS, "send(ref, dis, bitdepth, layout, width, height) -> str | None" },
    { "score_files", Context_score_files, METH_VARARGS,
      "score_files(ref, dis, raw, frame_cnt, skip_ref, skip_dis) -> (int, str | None)" },
    { "flush", Context_flush, METH_NOARGS, "flush() -> str | None" },
    { "frames_needed", Context_frames_needed, METH_NOARGS, "frames_needed() -> (before, after)" },
    { "import_stream", Context_import_stream, METH_VARARGS,
      "import_stream(layout, bitdepth, width, height, n_frames)" },
    { "import_scores", Context_import_scores, METH_VARARGS,
      "import_scores(key, first_frame, doubles, written)" },
    { "import_aggregate", Context_import_aggregate, METH_VARARGS, "import_aggregate(name, value)" },
    { "import_backend", Context_import_backend, METH_VARARGS, "import_backend(feature, backend)" },
    { "written", Context_written, METH_VARARGS, "written(key) -> bytes of 0/1" },
    { "frame_count", Context_frame_count, METH_NOARGS, "frame_count() -> int" },
    { "keys", Context_keys, METH_NOARGS, "keys() -> list[str]" },
    { "model_keys", Context_model_keys, METH_NOARGS, "model_keys() -> list[str]" },
    { "values", Context_values, METH_VARARGS, "values(key) -> bytearray of doubles" },
    { "pooled", Context_pooled, METH_VARARGS, "pooled(key) -> (min, max, mean, harmonic_mean)" },
    { "write", Context_write, METH_VARARGS, "write(path, format, precision, fps)" },
    { "aggregate", Context_aggregate, METH_NOARGS, "aggregate() -> dict" },
    { "backends", Context_backends, METH_NOARGS, "backends() -> dict" },
    { "notices", Context_notices, METH_NOARGS, "notices() -> list[str]" },
    { "add_notice", Context_add_notice, METH_VARARGS, "add_notice(msg)" },
    { "close", Context_close, METH_NOARGS, "close()" },
    { NULL, NULL, 0, NULL },
};

static PyType_Slot context_slots[] = {
    { Py_tp_new, Context_new },
    { Py_tp_dealloc, Context_dealloc },
    { Py_tp_methods, context_methods },
    { Py_tp_doc, "Context(threads=0, subsample=1, backend=0, strict_backend=False, cpumask=0, gpu=0): "
                 "a VqxContext (internal; see vqx.Scorer)" },
    { 0, NULL },
};

static PyType_Spec context_spec = {
    .name = "vqx._vqx.Context",
    .basicsize = sizeof(ContextObject),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = context_slots,
};

static PyObject *module_feature_names(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    PyObject *list = PyList_New(0);
    for (unsigned i = 0; list && vqx_feature_name(i); i++) {
        PyObject *s = PyUnicode_FromString(vqx_feature_name(i));
        if (!s || PyList_Append(list, s)) Py_CLEAR(list);
        Py_XDECREF(s);
    }
    return list;
}

/* probe(path, raw): (width, height, layout, bitdepth, frames) of an input,
 * frames None when its size does not tell (a pipe). */
static PyObject *module_probe(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *path, *raw_obj;
    if (!PyArg_ParseTuple(args, "OO", &path, &raw_obj)) return NULL;
    VqxRawFormat raw = { 0 };
    const VqxRawFormat *rawp;
    char msg[MSG_LEN];
    VqxInput *in = NULL;
    if (parse_raw(raw_obj, &raw, &rawp) || open_input(&in, path, rawp, msg)) return NULL;
    const VqxRawFormat *f = vqx_input_format(in);
    const uint64_t left = vqx_input_frames_left(in);
    PyObject *frames = left == UINT64_MAX ? Py_NewRef(Py_None) : PyLong_FromUnsignedLongLong(left);
    PyObject *out = frames ? Py_BuildValue("(IIIIN)", f->w, f->h, (unsigned)f->layout, f->bpc,
                                           frames) : NULL;
    vqx_input_close(&in);
    return out;
}

static PyMethodDef module_methods[] = {
    { "feature_names", module_feature_names, METH_NOARGS, "feature_names() -> list[str]" },
    { "probe", module_probe, METH_VARARGS,
      "probe(path, raw) -> (width, height, layout, bitdepth, frames | None)" },
    { NULL, NULL, 0, NULL },
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "vqx._vqx",
    .m_doc = "C side of the vqx package (internal: use vqx).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__vqx(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    error_type = PyErr_NewExceptionWithDoc("vqx.Error",
        "A bad option, input or frame; the message is the library's.", PyExc_ValueError, NULL);
    PyObject *bases = error_type ? PyTuple_Pack(2, error_type, PyExc_OSError) : NULL;
    input_error_type = bases ? PyErr_NewExceptionWithDoc("vqx.InputError",
        "An input file that cannot be opened, read or used.", bases, NULL) : NULL;
    Py_XDECREF(bases);
    PyObject *context_type = input_error_type ? PyType_FromSpec(&context_spec) : NULL;
    const bool added = context_type && !PyModule_AddObjectRef(m, "Error", error_type) &&
                       !PyModule_AddObjectRef(m, "InputError", input_error_type) &&
                       !PyModule_AddObjectRef(m, "Context", context_type) &&
                       !PyModule_AddStringConstant(m, "version", vqx_version());
    Py_XDECREF(context_type);
    if (!added) Py_CLEAR(m);
    return m;
}
