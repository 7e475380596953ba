// The ML ensemble (the paper's ML benchmark): two classifiers score every sample, each turns its scores into class
// probabilities with a row softmax, and the label is the argmax of the summed probabilities.
//   nb_scores:    multinomial naive Bayes, score[i][c] = log_prior[c] + sum_j counts[i][j] * log_prob[c][j]
//   ridge_scores: ridge regression on standardised features,
//                 score[i][c] = intercept[c] + sum_j (x[i][j] - mean[j]) * inv_std[j] * coef[c][j]
//   softmax_rows: in place, row i becomes exp(s - max_i) / sum(exp(s - max_i))
//   argmax_sum:   label[i] = the lowest c maximising a[i][c] + b[i][c]
// All matrices are row-major; one thread handles one sample (grid-stride).

extern "C" __global__ void nb_scores(const int *counts, const float *log_prob, const float *log_prior, float *scores,
                                     int samples, int features, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < samples; i += blockDim.x * gridDim.x) {
        for (int c = 0; c < classes; ++c) {
            float score = log_prior[c];
            for (int j = 0; j < features; ++j) {
                score += (float) counts[i * features + j] * log_prob[c * features + j];
            }
            scores[i * classes + c] = score;
        }
    }
}

extern "C" __global__ void ridge_scores(const float *x, const float *mean, const float *inv_std, const float *coef,
                                        const float *intercept, float *scores, int samples, int features,
                                        int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < samples; i += blockDim.x * gridDim.x) {
        for (int c = 0; c < classes; ++c) {
            float score = intercept[c];
            for (int j = 0; j < features; ++j) {
                float standardised = (x[i * features + j] - mean[j]) * inv_std[j];
                score += standardised * coef[c * features + j];
            }
            scores[i * classes + c] = score;
        }
    }
}

extern "C" __global__ void softmax_rows(float *scores, int samples, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < samples; i += blockDim.x * gridDim.x) {
        float *row = scores + i * classes;
        float largest = row[0];
        for (int c = 1; c < classes; ++c) {
            largest = fmaxf(largest, row[c]);
        }
        float total = 0.0f;
        for (int c = 0; c < classes; ++c) {
            row[c] = expf(row[c] - largest);
            total += row[c];
        }
        for (int c = 0; c < classes; ++c) {
            row[c] /= total;
        }
    }
}

extern "C" __global__ void argmax_sum(const float *a, const float *b, int *labels, int samples, int classes) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < samples; i += blockDim.x * gridDim.x) {
        int best = 0;
        float best_value = a[i * classes] + b[i * classes];
        for (int c = 1; c < classes; ++c) {
            float value = a[i * classes + c] + b[i * classes + c];
            if (value > best_value) {
                best = c;
                best_value = value;
            }
        }
        labels[i] = best;
    }
}
