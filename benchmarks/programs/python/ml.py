"""ML: an ensemble of Naive Bayes and Ridge Regression classifiers over the rows of a matrix, split in partitions;
each partition runs nb_scores -> softmax and rr_scores -> softmax, then argmax_sum of the two.

    bin/polygpu benchmarks/programs/python/ml.py [rows=20000] [partitions=16]   (32 features, 5 classes)
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import polybench as pb  # noqa: E402

FEATURES, CLASSES = 32, 5
# Each score is a float sum of 32 terms of magnitude below 3, within 32 * 2^-24 * 96 < 2e-4 of its exact value;
# softmax keeps that error (relative to the probability) and adds a few ulp, so each summed probability is within
# 1e-3. Rows whose two best reference sums are closer than twice that are not judged: float may order them either way.
MARGIN = 2e-3

n, partitions = pb.arguments(20_000)
nb_scores = pb.kernel("ml", "nb_scores(x: in pointer float, w: in pointer float, prior: in pointer float, "
                            "z: out pointer float, rows: sint32, features: sint32, classes: sint32)")
rr_scores = pb.kernel("ml", "rr_scores(x: in pointer float, mean: in pointer float, deviation: in pointer float, "
                            "w: in pointer float, bias: in pointer float, z: out pointer float, rows: sint32, "
                            "features: sint32, classes: sint32)")
softmax = pb.kernel("ml", "softmax(z: inout pointer float, rows: sint32, classes: sint32)")
argmax_sum = pb.kernel("ml", "argmax_sum(a: in pointer float, b: in pointer float, prediction: out pointer sint32, "
                             "rows: sint32, classes: sint32)")

rng = pb.Random(42)
model = {"nb_w": rng.floats(CLASSES * FEATURES, -1.0, 0.0), "prior": rng.floats(CLASSES, -2.0, 0.0),
         "mean": rng.floats(FEATURES, 0.4, 0.6), "deviation": rng.floats(FEATURES, 0.2, 0.4),
         "rr_w": rng.floats(CLASSES * FEATURES, -1.0, 1.0), "bias": rng.floats(CLASSES, -0.5, 0.5)}
on_device = {name: pb.device_array("float", values) for name, values in model.items()}
x_host = rng.floats(n * FEATURES)
predictions = []
for offset, count in pb.split(n, partitions):
    x = pb.device_array("float", x_host[offset * FEATURES:(offset + count) * FEATURES])
    nb = pb.CU.DeviceArray("float", count * CLASSES)
    rr = pb.CU.DeviceArray("float", count * CLASSES)
    prediction = pb.CU.DeviceArray("int", count)
    grid = pb.blocks(count * CLASSES)
    nb_scores(grid, pb.BLOCK)(x, on_device["nb_w"], on_device["prior"], nb, count, FEATURES, CLASSES)
    softmax(pb.blocks(count), pb.BLOCK)(nb, count, CLASSES)
    rr_scores(grid, pb.BLOCK)(x, on_device["mean"], on_device["deviation"], on_device["rr_w"], on_device["bias"],
                              rr, count, FEATURES, CLASSES)
    softmax(pb.blocks(count), pb.BLOCK)(rr, count, CLASSES)
    argmax_sum(pb.blocks(count), pb.BLOCK)(nb, rr, prediction, count, CLASSES)
    predictions.append((offset, prediction))


def softmax_host(z):
    top = max(z)
    e = [math.exp(v - top) for v in z]
    return [v / sum(e) for v in e]


def reference(row):
    x = x_host[row * FEATURES:(row + 1) * FEATURES]
    nb = [model["prior"][c] + sum(x[k] * model["nb_w"][c * FEATURES + k] for k in range(FEATURES))
          for c in range(CLASSES)]
    rr = [model["bias"][c] + sum((x[k] - model["mean"][k]) / model["deviation"][k] * model["rr_w"][c * FEATURES + k]
                                 for k in range(FEATURES)) for c in range(CLASSES)]
    return [a + b for a, b in zip(softmax_host(nb), softmax_host(rr))]


judged = wrong = 0
for offset, prediction in predictions:
    for i, predicted in enumerate(pb.read(prediction, "i")):
        total = reference(offset + i)
        ranked = sorted(total, reverse=True)
        if ranked[0] - ranked[1] >= MARGIN:
            judged += 1
            wrong += predicted != total.index(ranked[0])
sys.exit(pb.report("ml", n, partitions, wrong == 0 and judged > 0,
                   f"{wrong} wrong of {judged} predictions judged ({n - judged} within the rounding margin)"))
