// ML: an ensemble of a Naive Bayes and a Ridge Regression classifier; each partition of the rows runs both
// models' chains (scores, softmax) and then their combination. Matrices are row-major.

// z[r][c] = prior[c] + sum_k x[r][k] * w[c][k]: the multinomial Naive Bayes log-likelihood of each class.
extern "C" __global__ void nb_scores(const float *x, const float *w, const float *prior, float *z, int rows,
                                     int features, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows * classes; i += gridDim.x * blockDim.x) {
        int r = i / classes, c = i % classes;
        float sum = prior[c];
        for (int k = 0; k < features; k++)
            sum += x[r * features + k] * w[c * features + k];
        z[i] = sum;
    }
}

// z[r][c] = bias[c] + sum_k (x[r][k] - mean[k]) / deviation[k] * w[c][k]: the ridge model on features
// standardised with the statistics of its training set (part of the model, so every partition reads them).
extern "C" __global__ void rr_scores(const float *x, const float *mean, const float *deviation, const float *w,
                                     const float *bias, float *z, int rows, int features, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows * classes; i += gridDim.x * blockDim.x) {
        int r = i / classes, c = i % classes;
        float sum = bias[c];
        for (int k = 0; k < features; k++)
            sum += (x[r * features + k] - mean[k]) / deviation[k] * w[c * features + k];
        z[i] = sum;
    }
}

// Each row of z becomes its softmax, shifted by the row's maximum so that expf cannot overflow.
extern "C" __global__ void softmax(float *z, int rows, int classes) {
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
        float top = z[r * classes];
        for (int c = 1; c < classes; c++)
            top = fmaxf(top, z[r * classes + c]);
        float total = 0;
        for (int c = 0; c < classes; c++) {
            z[r * classes + c] = expf(z[r * classes + c] - top);
            total += z[r * classes + c];
        }
        for (int c = 0; c < classes; c++)
            z[r * classes + c] /= total;
    }
}

// The ensemble's prediction: the class with the largest summed probability (the first one on a tie).
extern "C" __global__ void argmax_sum(const float *a, const float *b, int *prediction, int rows, int classes) {
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
        int best = 0;
        float top = a[r * classes] + b[r * classes];
        for (int c = 1; c < classes; c++) {
            float v = a[r * classes + c] + b[r * classes + c];
            if (v > top) {
                top = v;
                best = c;
            }
        }
        prediction[r] = best;
    }
}
