/*
 * A stand-in for cuBLAS (libcublas.so.12) for FakeCublasTest: it computes on the fake CUDA driver's device memory,
 * which is host memory, so the CUDA backend's cuBLAS bindings can be checked end to end without a GPU.
 *
 * It implements the handle functions and cublas{S,D}axpy, cublas{S,D}scal, cublasDdot, cublasSnrm2, cublasSgemv and
 * cublasDgemm (each _v2), column-major, operations N and T only. Every call checks what the real library requires of
 * polygpu: a handle it created, a stream set on it, and CUBLAS_POINTER_MODE_DEVICE (alpha, beta and results are
 * device pointers); a violation returns CUBLAS_STATUS_INVALID_VALUE (7), as does a negative size or a zero stride.
 * FAKECUBLAS_CALLS, when set, makes cublasDestroy_v2 print how many BLAS calls the handle served to stderr.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAGIC 0xB1A5u
#define OK 0
#define NOT_INITIALIZED 1
#define INVALID_VALUE 7

struct handle { unsigned magic; void *stream; int mode; int calls; };

static int usable(struct handle *h) {
    if (!h || h->magic != MAGIC) return NOT_INITIALIZED;
    if (!h->stream || h->mode != 1) return INVALID_VALUE;
    h->calls++;
    return OK;
}

#define CHECK(h) do { int s_ = usable(h); if (s_) return s_; } while (0)
#define AT(i, n, inc) ((inc) >= 0 ? (long) (i) * (inc) : (long) ((n) - 1 - (i)) * -(inc))

int cublasCreate_v2(struct handle **out) {
    struct handle *h = calloc(1, sizeof *h);
    if (!h) return 3;
    h->magic = MAGIC;
    *out = h;
    return OK;
}

int cublasDestroy_v2(struct handle *h) {
    if (!h || h->magic != MAGIC) return NOT_INITIALIZED;
    if (getenv("FAKECUBLAS_CALLS")) fprintf(stderr, "fakecublas: handle served %d calls\n", h->calls);
    h->magic = 0;
    free(h);
    return OK;
}

int cublasSetStream_v2(struct handle *h, void *stream) {
    if (!h || h->magic != MAGIC) return NOT_INITIALIZED;
    h->stream = stream;
    return OK;
}

int cublasSetPointerMode_v2(struct handle *h, int mode) {
    if (!h || h->magic != MAGIC) return NOT_INITIALIZED;
    h->mode = mode;
    return OK;
}

#define AXPY(name, T) \
int name(struct handle *h, int n, const T *alpha, const T *x, int incx, T *y, int incy) { \
    CHECK(h); \
    if (n < 0 || !incx || !incy) return INVALID_VALUE; \
    for (int i = 0; i < n; i++) y[AT(i, n, incy)] += *alpha * x[AT(i, n, incx)]; \
    return OK; \
}
AXPY(cublasSaxpy_v2, float)
AXPY(cublasDaxpy_v2, double)

#define SCAL(name, T) \
int name(struct handle *h, int n, const T *alpha, T *x, int incx) { \
    CHECK(h); \
    if (n < 0 || !incx) return INVALID_VALUE; \
    for (int i = 0; i < n; i++) x[AT(i, n, incx)] *= *alpha; \
    return OK; \
}
SCAL(cublasSscal_v2, float)
SCAL(cublasDscal_v2, double)

int cublasDdot_v2(struct handle *h, int n, const double *x, int incx, const double *y, int incy, double *result) {
    CHECK(h);
    if (n < 0 || !incx || !incy) return INVALID_VALUE;
    double s = 0;
    for (int i = 0; i < n; i++) s += x[AT(i, n, incx)] * y[AT(i, n, incy)];
    *result = s;
    return OK;
}

int cublasSnrm2_v2(struct handle *h, int n, const float *x, int incx, float *result) {
    CHECK(h);
    if (n < 0 || !incx) return INVALID_VALUE;
    double s = 0;
    for (int i = 0; i < n; i++) s += (double) x[AT(i, n, incx)] * x[AT(i, n, incx)];
    *result = (float) sqrt(s);
    return OK;
}

int cublasSgemv_v2(struct handle *h, int trans, int m, int n, const float *alpha, const float *a, int lda,
                   const float *x, int incx, const float *beta, float *y, int incy) {
    CHECK(h);
    if (trans < 0 || trans > 1 || m < 0 || n < 0 || lda < (m > 1 ? m : 1) || !incx || !incy) return INVALID_VALUE;
    int rows = trans ? n : m, inner = trans ? m : n;
    for (int i = 0; i < rows; i++) {
        double s = 0;
        for (int l = 0; l < inner; l++) s += a[trans ? l + (long) i * lda : i + (long) l * lda] * x[AT(l, inner, incx)];
        float *out = &y[AT(i, rows, incy)];
        *out = (float) (*alpha * s + (*beta == 0 ? 0 : *beta * *out));
    }
    return OK;
}

int cublasDgemm_v2(struct handle *h, int ta, int tb, int m, int n, int k, const double *alpha, const double *a,
                   int lda, const double *b, int ldb, const double *beta, double *c, int ldc) {
    CHECK(h);
    if (ta < 0 || ta > 1 || tb < 0 || tb > 1 || m < 0 || n < 0 || k < 0 || ldc < (m > 1 ? m : 1)) return INVALID_VALUE;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int l = 0; l < k; l++) {
                s += a[ta ? l + (long) i * lda : i + (long) l * lda] * b[tb ? j + (long) l * ldb : l + (long) j * ldb];
            }
            double *out = &c[i + (long) j * ldc];
            *out = *alpha * s + (*beta == 0 ? 0 : *beta * *out);
        }
    }
    return OK;
}
