"""MUL: a dense matrix times a dense vector; each partition multiplies its block of rows by the whole vector.

    bin/polygpu benchmarks/programs/python/mul.py [rows=2000] [partitions=16]   (the matrix is rows x rows)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import polybench as pb  # noqa: E402

n, partitions = pb.arguments(2000)
matvec = pb.kernel("mul", "matvec(a: in pointer float, x: in pointer float, z: out pointer float, rows: sint32, "
                          "cols: sint32)")
rng = pb.Random(42)
x_host = rng.floats(n, -1.0, 1.0)
x = pb.device_array("float", x_host)
parts = []
for offset, count in pb.split(n, partitions):
    block = rng.floats(count * n, -1.0, 1.0)
    z = pb.CU.DeviceArray("float", count)
    matvec(pb.blocks(count), pb.BLOCK)(pb.device_array("float", block), x, z, count, n)
    parts.append((block, z))

# A float sum of n products, each rounded, is within n * 2^-24 * sum|a_ij x_j| of the exact value (the classic
# bound gamma_n); twice that allows for the product roundings.
ok = True
worst = 0.0
for block, z in parts:
    values = pb.read(z)
    for r, v in enumerate(values):
        row = block[r * n:(r + 1) * n]
        exact = sum(a * b for a, b in zip(row, x_host))
        bound = 2 * n * 2.0 ** -24 * sum(abs(a * b) for a, b in zip(row, x_host))
        worst = max(worst, abs(v - exact) / bound if bound > 0 else 0.0)
        ok = ok and abs(v - exact) <= bound
sys.exit(pb.report("mul", n, partitions, ok, f"largest error {worst:.3f} of its rounding bound"))
