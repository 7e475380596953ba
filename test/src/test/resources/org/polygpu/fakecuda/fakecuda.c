/*
 * A stand-in for the NVIDIA driver library libcuda.so.1, for testing polygpu's FFM bindings of the CUDA driver API
 * (org.polygpu.cuda) end to end on a machine without a GPU. Build: gcc -shared -fPIC -O1 -o libcuda.so.1 fakecuda.c
 *
 * It exports every driver function polygpu binds, with the C signatures of cuda.h, and behaves as a small, strict
 * driver:
 *
 * - Devices: FAKECUDA_DEVICES of them (default 2, at most 8), named "Fake GPU <ordinal>", compute capability 9.0,
 *   132 SMs, FAKECUDA_MEMORY bytes each (default 4 GiB); every pair may access each other as peers. The deprecated
 *   clock-rate attribute is refused with CUDA_ERROR_INVALID_VALUE. cuInit returns FAKECUDA_INIT when it is set, to
 *   test start-up failures; calls before a successful cuInit return CUDA_ERROR_NOT_INITIALIZED.
 * - Memory: device, managed and pinned host memory are malloc'ed host RAM, filled with 0xAB (device) or 0xCD (host)
 *   so that a missing initialisation shows. An allocation beyond the device's free memory returns
 *   CUDA_ERROR_OUT_OF_MEMORY. The device range of every copy, memset and prefetch must lie inside one live
 *   allocation (of the context's device, for a peer copy), else CUDA_ERROR_INVALID_VALUE; unlike a real driver, a
 *   cuMemcpyDtoDAsync between two devices is refused too. A kernel's pointers must lie in memory its device may use
 *   (its own, managed, or a peer's with peer access enabled), else the launch returns CUDA_ERROR_ILLEGAL_ADDRESS
 *   where a GPU would fault later. So a wrong pointer or size in a binding shows at once.
 * - Work runs when it is enqueued: copies are memcpy and kernels run on the CPU, so streams and events are always
 *   complete. A virtual clock, read by cuEventRecord, advances by 4 us per launch and by 5 us + bytes / bandwidth
 *   per copy: host to device 10 GB/s, device to host 20, within a device 300, between devices 50. The profiler's
 *   measurements come out as exactly these figures.
 * - Modules are PTX text: a .version newer than 8.4 gives CUDA_ERROR_UNSUPPORTED_PTX_VERSION with a JIT log, an ELF
 *   image (a CUBIN) CUDA_ERROR_NO_BINARY_FOR_GPU. cuModuleGetFunction finds a kernel when the PTX has an .entry of
 *   that name and this file implements it, else CUDA_ERROR_NOT_FOUND. The kernels, run once per thread of the grid
 *   with i = blockIdx.x * blockDim.x + threadIdx.x:
 *     add_one(int *x, int n)                            if (i < n) x[i] += 1
 *     scale(const float *x, float *y, int n, float k)   if (i < n) y[i] = k * x[i]
 *     record_args(double *out, double d, short s, signed char c, long long l, float f, int n)
 *                                                       out[0..5] = d, s, c, l, f, n; out[6..11] = the grid's and
 *                                                       the block's x, y, z; out[12] = dynamic shared memory bytes
 * - Handles carry a tag that is checked: a handle that is not a live stream, event, module or function gives
 *   CUDA_ERROR_INVALID_HANDLE, as does work enqueued with a stream or function of another context than the current
 *   one; no current context gives CUDA_ERROR_INVALID_CONTEXT. cuGetErrorName names every code this file returns.
 * - With FAKECUDA_REPORT set, the library prints each peer access it enables, each prefetch and advice of managed
 *   memory (with the device of the stream a prefetch was enqueued on), and at process exit how many
 *   allocations, streams, events and modules are still live and how many primary-context retains are unreleased, so
 *   that a test can check for leaks.
 *
 * Not thread-safe: polygpu's CUDA backend makes one call at a time. The current context is per thread, as in CUDA.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct context *CUcontext;
typedef struct stream *CUstream;
typedef struct event *CUevent;
typedef struct module *CUmodule;
typedef struct function *CUfunction;

enum {
    CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_OUT_OF_MEMORY = 2, CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_STUB_LIBRARY = 34, CUDA_ERROR_NO_DEVICE = 100, CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_IMAGE = 200, CUDA_ERROR_INVALID_CONTEXT = 201, CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
    CUDA_ERROR_INVALID_PTX = 218, CUDA_ERROR_NVLINK_UNCORRECTABLE = 220, CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
    CUDA_ERROR_INVALID_HANDLE = 400, CUDA_ERROR_NOT_FOUND = 500, CUDA_ERROR_ILLEGAL_ADDRESS = 700,
    CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704, CUDA_ERROR_CONTEXT_IS_DESTROYED = 709, CUDA_ERROR_UNKNOWN = 999
};

static const struct { CUresult code; const char *name; } ERROR_NAMES[] = {
    {0, "CUDA_SUCCESS"}, {1, "CUDA_ERROR_INVALID_VALUE"}, {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"}, {34, "CUDA_ERROR_STUB_LIBRARY"}, {100, "CUDA_ERROR_NO_DEVICE"},
    {101, "CUDA_ERROR_INVALID_DEVICE"}, {200, "CUDA_ERROR_INVALID_IMAGE"}, {201, "CUDA_ERROR_INVALID_CONTEXT"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"}, {218, "CUDA_ERROR_INVALID_PTX"}, {220, "CUDA_ERROR_NVLINK_UNCORRECTABLE"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"}, {400, "CUDA_ERROR_INVALID_HANDLE"}, {500, "CUDA_ERROR_NOT_FOUND"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS"}, {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"},
    {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED"}, {999, "CUDA_ERROR_UNKNOWN"},
};

#define MAX_DEVICES 8
#define HOST (-1)
#define STREAM_MAGIC 0x5354524dU
#define EVENT_MAGIC 0x45564e54U
#define MODULE_MAGIC 0x4d4f444cU
#define FUNCTION_MAGIC 0x46554e43U
#define CHECK(call) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) return r_; } while (0)

enum kind { DEVICE_MEMORY, MANAGED_MEMORY, PINNED_HOST_MEMORY };
struct allocation { char *base; size_t bytes; int device; enum kind kind; };
struct context { int device; int retains; int peer[MAX_DEVICES]; };
struct stream { unsigned magic; struct context *context; };
struct event { unsigned magic; struct context *context; unsigned flags; int recorded; double nanos; };
typedef struct { unsigned x, y, z; } dim3;
struct launch { dim3 grid, block; unsigned shared; void **params; };
struct kernel { const char *name; CUresult (*run)(const struct launch *); };
struct function { unsigned magic; struct module *module; const struct kernel *kernel; };

static int initialized, device_count;
static size_t capacity, used[MAX_DEVICES];
static struct context contexts[MAX_DEVICES];
static __thread struct context *current;
static struct allocation *allocations;
static size_t allocation_count, allocation_capacity;
static double clock_nanos;
static long live_streams, live_events, live_modules;

/* ---- memory ---- */

static struct allocation *allocation_of(const void *p, size_t bytes) {
    for (size_t i = 0; i < allocation_count; i++) {
        struct allocation *a = &allocations[i];
        const char *c = p;
        if (c >= a->base && bytes <= a->bytes && (size_t) (c - a->base) <= a->bytes - bytes) return a;
    }
    return NULL;
}

/* The device or managed allocation holding [p, p + bytes), or NULL. */
static struct allocation *device_span(CUdeviceptr p, size_t bytes) {
    struct allocation *a = allocation_of((const void *) (uintptr_t) p, bytes);
    return a && a->kind != PINNED_HOST_MEMORY ? a : NULL;
}

static CUresult need_context(void) {
    if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
    if (!current) return CUDA_ERROR_INVALID_CONTEXT;
    return current->retains > 0 ? CUDA_SUCCESS : CUDA_ERROR_CONTEXT_IS_DESTROYED;
}

static CUresult record(void *base, size_t bytes, int device, enum kind kind) {
    if (allocation_count == allocation_capacity) {
        size_t grown = allocation_capacity ? 2 * allocation_capacity : 64;
        struct allocation *more = realloc(allocations, grown * sizeof *more);
        if (!more) return CUDA_ERROR_OUT_OF_MEMORY;
        allocations = more;
        allocation_capacity = grown;
    }
    allocations[allocation_count++] = (struct allocation) {base, bytes, device, kind};
    return CUDA_SUCCESS;
}

static CUresult allocate(void **out, size_t bytes, enum kind kind) {
    CHECK(need_context());
    if (!out || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
    int device = kind == PINNED_HOST_MEMORY ? HOST : current->device;
    if (device != HOST && bytes > capacity - used[device]) return CUDA_ERROR_OUT_OF_MEMORY;
    void *m = malloc(bytes);
    if (!m) return CUDA_ERROR_OUT_OF_MEMORY;
    if (record(m, bytes, device, kind) != CUDA_SUCCESS) { free(m); return CUDA_ERROR_OUT_OF_MEMORY; }
    memset(m, kind == PINNED_HOST_MEMORY ? 0xCD : 0xAB, bytes);
    if (device != HOST) used[device] += bytes;
    *out = m;
    return CUDA_SUCCESS;
}

static CUresult release(void *base, int host) {
    for (size_t i = 0; i < allocation_count; i++) {
        struct allocation a = allocations[i];
        if (a.base == base && (a.kind == PINNED_HOST_MEMORY) == host) {
            if (a.device != HOST) used[a.device] -= a.bytes;
            free(a.base);
            allocations[i] = allocations[--allocation_count];
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_INVALID_VALUE;
}

/* ---- handles ---- */

static struct context *context_of(CUcontext c) {
    for (int d = 0; d < device_count; d++) if (c == &contexts[d] && contexts[d].retains > 0) return c;
    return NULL;
}

/* The stream's context; the NULL stream is the current context's default stream. */
static CUresult stream_context(CUstream s, struct context **out) {
    if (!s) { CHECK(need_context()); *out = current; return CUDA_SUCCESS; }
    if (s->magic != STREAM_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    *out = s->context;
    return CUDA_SUCCESS;
}

/* Work is enqueued on a stream of the current context. */
static CUresult current_stream(CUstream s) {
    struct context *c;
    CHECK(need_context());
    CHECK(stream_context(s, &c));
    return c == current ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static int valid_device(CUdevice d) { return d >= 0 && d < device_count; }

/* ---- initialisation, devices, contexts ---- */

CUresult cuInit(unsigned flags) {
    if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
    const char *failure = getenv("FAKECUDA_INIT"), *devices = getenv("FAKECUDA_DEVICES");
    const char *memory = getenv("FAKECUDA_MEMORY");
    if (failure && atoi(failure) != 0) return atoi(failure);
    device_count = devices ? atoi(devices) : 2;
    if (device_count < 0 || device_count > MAX_DEVICES) return CUDA_ERROR_INVALID_VALUE;
    capacity = memory ? strtoull(memory, NULL, 10) : 4ULL << 30;
    for (int d = 0; d < device_count; d++) contexts[d].device = d;
    initialized = 1;
    return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *version) {
    if (!version) return CUDA_ERROR_INVALID_VALUE;
    *version = 12040;
    return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult code, const char **name) {
    if (!name) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof ERROR_NAMES / sizeof ERROR_NAMES[0]; i++)
        if (ERROR_NAMES[i].code == code) { *name = ERROR_NAMES[i].name; return CUDA_SUCCESS; }
    *name = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuDeviceGetCount(int *count) {
    if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    *count = device_count;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
    if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    if (!valid_device(ordinal)) return CUDA_ERROR_INVALID_DEVICE;
    *device = ordinal;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int length, CUdevice d) {
    if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
    if (!name || length <= 0) return CUDA_ERROR_INVALID_VALUE;
    if (!valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
    snprintf(name, (size_t) length, "Fake GPU %d", d);
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice d) {
    if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
    if (!value) return CUDA_ERROR_INVALID_VALUE;
    if (!valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
    switch (attribute) {
    case 1: *value = 1024; break;       /* MAX_THREADS_PER_BLOCK */
    case 8: *value = 49152; break;      /* MAX_SHARED_MEMORY_PER_BLOCK */
    case 10: *value = 32; break;        /* WARP_SIZE */
    case 13: return CUDA_ERROR_INVALID_VALUE; /* CLOCK_RATE, deprecated */
    case 16: *value = 132; break;       /* MULTIPROCESSOR_COUNT */
    case 33: *value = d + 1; break;     /* PCI_BUS_ID */
    case 75: *value = 9; break;         /* COMPUTE_CAPABILITY_MAJOR */
    case 76: *value = 0; break;         /* COMPUTE_CAPABILITY_MINOR */
    case 31: case 41: case 83: case 89: *value = 1; break; /* concurrency, unified addressing, managed memory */
    default: if (attribute <= 0 || attribute > 150) return CUDA_ERROR_INVALID_VALUE; *value = 0;
    }
    return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d) {
    if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
    if (!bytes) return CUDA_ERROR_INVALID_VALUE;
    if (!valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
    *bytes = capacity;
    return CUDA_SUCCESS;
}

CUresult cuDeviceCanAccessPeer(int *can, CUdevice d, CUdevice peer) {
    if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
    if (!can) return CUDA_ERROR_INVALID_VALUE;
    if (!valid_device(d) || !valid_device(peer)) return CUDA_ERROR_INVALID_DEVICE;
    *can = d != peer;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice d) {
    if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
    if (!context) return CUDA_ERROR_INVALID_VALUE;
    if (!valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
    contexts[d].retains++;
    *context = &contexts[d];
    return CUDA_SUCCESS;
}

/* The last release destroys the primary context, and with it the peer access it had enabled. */
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) {
    if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
    if (!valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
    if (contexts[d].retains == 0) return CUDA_ERROR_INVALID_CONTEXT;
    if (--contexts[d].retains == 0) memset(contexts[d].peer, 0, sizeof contexts[d].peer);
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext context) {
    if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
    if (context && !context_of(context)) return CUDA_ERROR_INVALID_CONTEXT;
    current = context;
    return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void) { return need_context(); }

CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned flags) {
    CHECK(need_context());
    if (!context_of(peer)) return CUDA_ERROR_INVALID_CONTEXT;
    if (flags != 0 || peer == current) return CUDA_ERROR_INVALID_VALUE;
    if (current->peer[peer->device]) return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    current->peer[peer->device] = 1;
    if (getenv("FAKECUDA_REPORT"))
        fprintf(stderr, "fakecuda: device %d enabled peer access to device %d\n", current->device, peer->device);
    return CUDA_SUCCESS;
}

/* ---- memory API ---- */

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
    CHECK(need_context());
    if (!free_bytes || !total) return CUDA_ERROR_INVALID_VALUE;
    *free_bytes = capacity - used[current->device];
    *total = capacity;
    return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes) { return allocate((void **) p, bytes, DEVICE_MEMORY); }

CUresult cuMemAllocManaged(CUdeviceptr *p, size_t bytes, unsigned flags) {
    return flags == 1 || flags == 2 ? allocate((void **) p, bytes, MANAGED_MEMORY) : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemFree_v2(CUdeviceptr p) {
    CHECK(need_context());
    return release((void *) (uintptr_t) p, 0);
}

CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned flags) {
    return flags & ~7U ? CUDA_ERROR_INVALID_VALUE : allocate(p, bytes, PINNED_HOST_MEMORY);
}

CUresult cuMemFreeHost(void *p) {
    CHECK(need_context());
    return release(p, 1);
}

static void advance(size_t bytes, double gigabytes_per_second) { clock_nanos += 5000 + bytes / gigabytes_per_second; }

CUresult cuMemsetD8Async(CUdeviceptr p, unsigned char value, size_t bytes, CUstream s) {
    CHECK(current_stream(s));
    if (!device_span(p, bytes)) return CUDA_ERROR_INVALID_VALUE;
    memset((void *) (uintptr_t) p, value, bytes);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes, CUstream s) {
    CHECK(current_stream(s));
    if (!device_span(dst, bytes) || (!src && bytes)) return CUDA_ERROR_INVALID_VALUE;
    memcpy((void *) (uintptr_t) dst, src, bytes);
    advance(bytes, 10);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, CUstream s) {
    CHECK(current_stream(s));
    if (!device_span(src, bytes) || (!dst && bytes)) return CUDA_ERROR_INVALID_VALUE;
    memcpy(dst, (const void *) (uintptr_t) src, bytes);
    advance(bytes, 20);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream s) {
    CHECK(current_stream(s));
    struct allocation *to = device_span(dst, bytes), *from = device_span(src, bytes);
    if (!to || !from || to->device != from->device) return CUDA_ERROR_INVALID_VALUE;
    memmove((void *) (uintptr_t) dst, (const void *) (uintptr_t) src, bytes);
    advance(bytes, 300);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dst_context, CUdeviceptr src, CUcontext src_context,
                           size_t bytes, CUstream s) {
    CHECK(current_stream(s));
    struct allocation *to = device_span(dst, bytes), *from = device_span(src, bytes);
    if (!context_of(dst_context) || !context_of(src_context)) return CUDA_ERROR_INVALID_CONTEXT;
    if (!to || !from || to->device != dst_context->device || from->device != src_context->device)
        return CUDA_ERROR_INVALID_VALUE;
    memmove((void *) (uintptr_t) dst, (const void *) (uintptr_t) src, bytes);
    advance(bytes, to->device == from->device ? 300 : 50);
    return CUDA_SUCCESS;
}

CUresult cuMemPrefetchAsync(CUdeviceptr p, size_t bytes, CUdevice d, CUstream s) {
    CHECK(current_stream(s));
    struct allocation *a = device_span(p, bytes);
    if (!a || a->kind != MANAGED_MEMORY) return CUDA_ERROR_INVALID_VALUE;
    if (d != HOST && !valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
    if (getenv("FAKECUDA_REPORT"))
        fprintf(stderr, "fakecuda: prefetch %zu bytes to %s %d on a stream of device %d\n", bytes,
                d == HOST ? "host" : "device", d, current->device);
    return CUDA_SUCCESS;
}

CUresult cuMemAdvise(CUdeviceptr p, size_t bytes, int advice, CUdevice d) {
    CHECK(need_context());
    struct allocation *a = device_span(p, bytes);
    if (!a || a->kind != MANAGED_MEMORY || advice < 1 || advice > 6) return CUDA_ERROR_INVALID_VALUE;
    if (d != HOST && !valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
    if (getenv("FAKECUDA_REPORT")) fprintf(stderr, "fakecuda: advise %d for device %d\n", advice, d);
    return CUDA_SUCCESS;
}

/* ---- streams and events ---- */

CUresult cuStreamCreate(CUstream *s, unsigned flags) {
    CHECK(need_context());
    if (!s || flags > 1) return CUDA_ERROR_INVALID_VALUE;
    struct stream *created = malloc(sizeof *created);
    if (!created) return CUDA_ERROR_OUT_OF_MEMORY;
    *created = (struct stream) {STREAM_MAGIC, current};
    live_streams++;
    *s = created;
    return CUDA_SUCCESS;
}

CUresult cuStreamDestroy_v2(CUstream s) {
    if (!s || s->magic != STREAM_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    s->magic = 0;
    free(s);
    live_streams--;
    return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream s) {
    struct context *c;
    return stream_context(s, &c);
}

CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags) {
    struct context *c;
    CHECK(stream_context(s, &c));
    if (!e || e->magic != EVENT_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    return flags == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuEventCreate(CUevent *e, unsigned flags) {
    CHECK(need_context());
    if (!e || flags > 7) return CUDA_ERROR_INVALID_VALUE;
    struct event *created = malloc(sizeof *created);
    if (!created) return CUDA_ERROR_OUT_OF_MEMORY;
    *created = (struct event) {EVENT_MAGIC, current, flags, 0, 0};
    live_events++;
    *e = created;
    return CUDA_SUCCESS;
}

CUresult cuEventDestroy_v2(CUevent e) {
    if (!e || e->magic != EVENT_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    e->magic = 0;
    free(e);
    live_events--;
    return CUDA_SUCCESS;
}

/* An event and the stream it is recorded on belong to one context. */
CUresult cuEventRecord(CUevent e, CUstream s) {
    struct context *c;
    if (!e || e->magic != EVENT_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    CHECK(stream_context(s, &c));
    if (c != e->context) return CUDA_ERROR_INVALID_HANDLE;
    e->recorded = 1;
    e->nanos = clock_nanos;
    return CUDA_SUCCESS;
}

CUresult cuEventQuery(CUevent e) { return e && e->magic == EVENT_MAGIC ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE; }

CUresult cuEventSynchronize(CUevent e) { return cuEventQuery(e); }

CUresult cuEventElapsedTime(float *millis, CUevent start, CUevent end) {
    if (!millis) return CUDA_ERROR_INVALID_VALUE;
    if (!start || start->magic != EVENT_MAGIC || !end || end->magic != EVENT_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    if (!start->recorded || !end->recorded || (start->flags | end->flags) & 2) return CUDA_ERROR_INVALID_HANDLE;
    *millis = (float) ((end->nanos - start->nanos) / 1e6);
    return CUDA_SUCCESS;
}

/* ---- kernels ---- */

/* Whether a kernel on the current device may use [p, p + bytes): its own, managed or peer-enabled memory. */
static int accessible(const void *p, size_t bytes) {
    struct allocation *a = device_span((CUdeviceptr) (uintptr_t) p, bytes);
    return a && (a->kind == MANAGED_MEMORY || a->device == current->device || current->peer[a->device]);
}

#define PARAM(l, i, type) (*(type *) (l)->params[i])

/* Calls body once per thread of the grid with the thread's i = blockIdx.x * blockDim.x + threadIdx.x. */
static void for_each_thread(const struct launch *l, void (*body)(const struct launch *, long long i)) {
    for (unsigned bz = 0; bz < l->grid.z; bz++) for (unsigned by = 0; by < l->grid.y; by++)
        for (unsigned bx = 0; bx < l->grid.x; bx++) for (unsigned tz = 0; tz < l->block.z; tz++)
            for (unsigned ty = 0; ty < l->block.y; ty++) for (unsigned tx = 0; tx < l->block.x; tx++)
                body(l, (long long) bx * l->block.x + tx);
}

static void add_one_thread(const struct launch *l, long long i) {
    if (i < PARAM(l, 1, int)) PARAM(l, 0, int *)[i] += 1;
}

static CUresult add_one(const struct launch *l) {
    int n = PARAM(l, 1, int);
    if (n < 0 || !accessible(PARAM(l, 0, int *), (size_t) n * sizeof(int))) return CUDA_ERROR_ILLEGAL_ADDRESS;
    for_each_thread(l, add_one_thread);
    return CUDA_SUCCESS;
}

static void scale_thread(const struct launch *l, long long i) {
    if (i < PARAM(l, 2, int)) PARAM(l, 1, float *)[i] = PARAM(l, 3, float) * PARAM(l, 0, const float *)[i];
}

static CUresult scale(const struct launch *l) {
    int n = PARAM(l, 2, int);
    if (n < 0 || !accessible(PARAM(l, 0, const float *), (size_t) n * sizeof(float))
            || !accessible(PARAM(l, 1, float *), (size_t) n * sizeof(float)))
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    for_each_thread(l, scale_thread);
    return CUDA_SUCCESS;
}

static CUresult record_args(const struct launch *l) {
    double *out = PARAM(l, 0, double *);
    if (!accessible(out, 13 * sizeof(double))) return CUDA_ERROR_ILLEGAL_ADDRESS;
    double values[13] = {PARAM(l, 1, double), PARAM(l, 2, short), PARAM(l, 3, signed char),
        (double) PARAM(l, 4, long long), PARAM(l, 5, float), PARAM(l, 6, int), l->grid.x, l->grid.y, l->grid.z,
        l->block.x, l->block.y, l->block.z, l->shared};
    memcpy(out, values, sizeof values);
    return CUDA_SUCCESS;
}

static const struct kernel KERNELS[] = {{"add_one", add_one}, {"scale", scale}, {"record_args", record_args}};
#define KERNEL_COUNT (sizeof KERNELS / sizeof KERNELS[0])

struct module { unsigned magic; struct context *context; char *ptx; struct function functions[KERNEL_COUNT]; };

/* Whether the PTX declares ".entry name" followed by a character that cannot continue the name. */
static int has_entry(const char *ptx, const char *name) {
    size_t n = strlen(name);
    for (const char *p = strstr(ptx, ".entry"); p; p = strstr(p + 1, ".entry")) {
        const char *q = p + strlen(".entry");
        while (*q == ' ' || *q == '\t') q++;
        if (strncmp(q, name, n) == 0 && !(q[n] == '_' || q[n] == '$' || (q[n] >= '0' && q[n] <= '9')
                || ((q[n] | 0x20) >= 'a' && (q[n] | 0x20) <= 'z')))
            return 1;
    }
    return 0;
}

/* The JIT options CU_JIT_ERROR_LOG_BUFFER (5) and its size (6) are honoured; others are ignored. */
CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned count, int *options, void **values) {
    char *log = NULL;
    size_t log_bytes = 0;
    int major = 0, minor = 0;
    CHECK(need_context());
    if (!m || !image || (count && (!options || !values))) return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < count; i++) {
        if (options[i] == 5) log = values[i];
        if (options[i] == 6) log_bytes = (size_t) (uintptr_t) values[i];
    }
    if (log && log_bytes) log[0] = '\0';
    if (strncmp(image, "\177ELF", 4) == 0) return CUDA_ERROR_NO_BINARY_FOR_GPU;
    const char *version = strstr(image, ".version");
    if (!version || sscanf(version, ".version %d.%d", &major, &minor) != 2) return CUDA_ERROR_INVALID_PTX;
    if (major > 8 || (major == 8 && minor > 4)) {
        if (log && log_bytes)
            snprintf(log, log_bytes, "ptxas fatal   : Unsupported .version %d.%d; current version is '8.4'",
                     major, minor);
        return CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
    }
    struct module *loaded = calloc(1, sizeof *loaded);
    if (!loaded || !(loaded->ptx = strdup(image))) { free(loaded); return CUDA_ERROR_OUT_OF_MEMORY; }
    loaded->magic = MODULE_MAGIC;
    loaded->context = current;
    live_modules++;
    *m = loaded;
    return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule m) {
    if (!m || m->magic != MODULE_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    for (size_t k = 0; k < KERNEL_COUNT; k++) m->functions[k].magic = 0;
    m->magic = 0;
    free(m->ptx);
    free(m);
    live_modules--;
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
    if (!f || !name) return CUDA_ERROR_INVALID_VALUE;
    if (!m || m->magic != MODULE_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
    for (size_t k = 0; k < KERNEL_COUNT; k++) {
        if (strcmp(KERNELS[k].name, name) == 0 && has_entry(m->ptx, name)) {
            m->functions[k] = (struct function) {FUNCTION_MAGIC, m, &KERNELS[k]};
            *f = &m->functions[k];
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_NOT_FOUND;
}

CUresult cuLaunchKernel(CUfunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                        unsigned block_y, unsigned block_z, unsigned shared, CUstream s, void **params, void **extra) {
    CHECK(current_stream(s));
    if (!f || f->magic != FUNCTION_MAGIC || f->module->context != current) return CUDA_ERROR_INVALID_HANDLE;
    if (!grid_x || !grid_y || !grid_z || !block_x || !block_y || !block_z || !params || extra
            || (unsigned long long) block_x * block_y * block_z > 1024 || shared > 49152)
        return CUDA_ERROR_INVALID_VALUE;
    struct launch l = {{grid_x, grid_y, grid_z}, {block_x, block_y, block_z}, shared, params};
    clock_nanos += 4000;
    return f->kernel->run(&l);
}

/* With FAKECUDA_REPORT set, says at exit what the process left allocated, created, loaded or retained. */
__attribute__((destructor)) static void report(void) {
    int retained = 0;
    if (!getenv("FAKECUDA_REPORT")) return;
    for (int d = 0; d < device_count; d++) retained += contexts[d].retains;
    fprintf(stderr, "fakecuda at exit: %zu allocations, %ld streams, %ld events, %ld modules, %d context retains\n",
            allocation_count, live_streams, live_events, live_modules, retained);
}
