# options: --polygpu.EmulatedDevices=4 --polygpu.DeviceSelectionPolicy=round-robin
# variant managed: --polygpu.MemoryModel=managed
# variant explicit: --polygpu.MemoryModel=explicit
# A GrCUDA-style ML ensemble (Naive Bayes and Ridge Regression, then softmax and argmax of the sum): each of four
# partitions' kernels writes its own rows of the score arrays, which their signatures declare `const`, as GrCUDA's
# multi-GPU ML benchmark does. Under MemoryModel=managed every array is one allocation all devices share, so the
# partitions' writes land and the predictions are the CPU reference's; under explicit such a write is a fault.
import array
import math
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
code = """
extern "C" __global__ void nb_part(const float *x, const float *w, const float *prior, float *scores, int offset,
                                   int rows, int features, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += gridDim.x * blockDim.x) {
        for (int c = 0; c < classes; c++) {
            float s = prior[c];
            for (int k = 0; k < features; k++) s += x[i * features + k] * w[c * features + k];
            scores[(offset + i) * classes + c] = s;
        }
    }
}
extern "C" __global__ void rr_part(const float *x, const float *mean, const float *dev, const float *w,
                                   const float *bias, float *scores, int offset, int rows, int features, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += gridDim.x * blockDim.x) {
        for (int c = 0; c < classes; c++) {
            float s = bias[c];
            for (int k = 0; k < features; k++) s += (x[i * features + k] - mean[k]) / dev[k] * w[c * features + k];
            scores[(offset + i) * classes + c] = s;
        }
    }
}
extern "C" __global__ void softmax(float *z, int rows, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += gridDim.x * blockDim.x) {
        float top = z[i * classes];
        for (int c = 1; c < classes; c++) top = fmaxf(top, z[i * classes + c]);
        float total = 0;
        for (int c = 0; c < classes; c++) total += expf(z[i * classes + c] - top);
        for (int c = 0; c < classes; c++) z[i * classes + c] = expf(z[i * classes + c] - top) / total;
    }
}
extern "C" __global__ void argmax_sum(const float *a, const float *b, int *out, int rows, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += gridDim.x * blockDim.x) {
        int best = 0;
        for (int c = 1; c < classes; c++) {
            if (a[i * classes + c] + b[i * classes + c] > a[i * classes + best] + b[i * classes + best]) best = c;
        }
        out[i] = best;
    }
}"""
nb_part = CU.buildkernel(code, "nb_part", "const pointer, const pointer, const pointer, const pointer, sint32, "
                         "sint32, sint32, sint32")
rr_part = CU.buildkernel(code, "rr_part", "const pointer, const pointer, const pointer, const pointer, const pointer, "
                         "const pointer, sint32, sint32, sint32, sint32")
softmax = CU.buildkernel(code, "softmax", "pointer, sint32, sint32")
argmax_sum = CU.buildkernel(code, "argmax_sum", "const pointer, const pointer, pointer, sint32, sint32")

ROWS, FEATURES, CLASSES, PARTS = 256, 16, 5, 4
state = [12345]


def uniform(lo, hi):
    state[0] = (state[0] * 1103515245 + 12345) % 2147483648
    return lo + (hi - lo) * state[0] / 2147483648.0


def device_array(values):
    a = CU.DeviceArray("float", len(values))
    a.copyFrom(array.array("f", values))
    return a


def f32(values):
    return list(array.array("f", values))


model = {
    "nb_w": f32([uniform(-1, 0) for _ in range(CLASSES * FEATURES)]),
    "prior": f32([uniform(-2, 0) for _ in range(CLASSES)]),
    "mean": f32([uniform(0.4, 0.6) for _ in range(FEATURES)]),
    "dev": f32([uniform(0.2, 0.4) for _ in range(FEATURES)]),
    "rr_w": f32([uniform(-1, 1) for _ in range(CLASSES * FEATURES)]),
    "bias": f32([uniform(-0.5, 0.5) for _ in range(CLASSES)]),
}
x = f32([uniform(0, 1) for _ in range(ROWS * FEATURES)])
on_device = {name: device_array(values) for name, values in model.items()}
r1 = CU.DeviceArray("float", ROWS * CLASSES)
r2 = CU.DeviceArray("float", ROWS * CLASSES)
prediction = CU.DeviceArray("int", ROWS)
part = ROWS // PARTS
try:
    for p in range(PARTS):
        xs = device_array(x[p * part * FEATURES:(p + 1) * part * FEATURES])
        nb_part(8, 32)(xs, on_device["nb_w"], on_device["prior"], r1, p * part, part, FEATURES, CLASSES)
        rr_part(8, 32)(xs, on_device["mean"], on_device["dev"], on_device["rr_w"], on_device["bias"], r2, p * part,
                       part, FEATURES, CLASSES)
    softmax(8, 32)(r1, ROWS, CLASSES)
    softmax(8, 32)(r2, ROWS, CLASSES)
    argmax_sum(8, 32)(r1, r2, prediction, ROWS, CLASSES)
    CU.cudaDeviceSynchronize()
    predicted = array.array("i", [0] * ROWS)
    prediction.copyTo(predicted)
except polyglot.ForeignException as e:
    print("failed:", str(e).splitlines()[0])
else:
    def soft(z):
        top = max(z)
        e = [math.exp(v - top) for v in z]
        return [v / sum(e) for v in e]

    judged = wrong = 0
    for i in range(ROWS):
        row = x[i * FEATURES:(i + 1) * FEATURES]
        nb = soft([model["prior"][c] + sum(row[k] * model["nb_w"][c * FEATURES + k] for k in range(FEATURES))
                   for c in range(CLASSES)])
        rr = soft([model["bias"][c] + sum((row[k] - model["mean"][k]) / model["dev"][k]
                                          * model["rr_w"][c * FEATURES + k] for k in range(FEATURES))
                   for c in range(CLASSES)])
        total = sorted(((nb[c] + rr[c], c) for c in range(CLASSES)), reverse=True)
        if total[0][0] - total[1][0] >= 2e-3:
            judged += 1
            wrong += predicted[i] != total[0][1]
    print("rows judged:", judged > ROWS * 9 // 10, "wrong predictions:", wrong)
