"""VEC: sum(x^2 - y^2) over two vectors, split in partitions; each partition runs square(x), square(y), diff_sum.

    bin/polygpu benchmarks/programs/python/vec.py [elements=100000] [partitions=16]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import polybench as pb  # noqa: E402

n, partitions = pb.arguments(100_000)
square = pb.kernel("vec", "square(x: inout pointer float, n: sint32)")
diff_sum = pb.kernel("vec", "diff_sum(x: in pointer float, y: in pointer float, acc: inout pointer double, n: sint32)")

# Multiples of 2^-6 in [0, 1): every square has at most 12 significant bits and every difference of squares is a
# multiple of 2^-12 below 1, so the kernels' float arithmetic and double sums are exact and so is the reference.
rng = pb.Random(42)
x_host = rng.floats(n, bits=6)
y_host = rng.floats(n, bits=6)
sums = []
for offset, count in pb.split(n, partitions):
    x = pb.device_array("float", x_host[offset:offset + count])
    y = pb.device_array("float", y_host[offset:offset + count])
    acc = pb.CU.DeviceArray("double", 1)
    acc[0] = 0.0
    grid = pb.blocks(count)
    square(grid, pb.BLOCK)(x, count)
    square(grid, pb.BLOCK)(y, count)
    diff_sum(grid, pb.BLOCK)(x, y, acc, count)
    sums.append(acc)

result = sum(acc[0] for acc in sums)
expected = sum(a * a - b * b for a, b in zip(x_host, y_host))
sys.exit(pb.report("vec", n, partitions, result == expected, f"sum {result!r} (reference {expected!r})"))
