"""CG: conjugate gradient on a dense symmetric positive definite matrix, its rows split in partitions. Each
iteration runs, per partition: matvec, dot_slice + accumulate (p.Ap), update_xr, norm2 + accumulate (r.r),
update_p. The partitions share the search direction p, which all read whole and each updates in its own slice.

    bin/polygpu benchmarks/programs/python/cg.py [n=2000] [partitions=16] [iterations=10]
"""
import array
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import polybench as pb  # noqa: E402

# A = 2 I + symmetric off-diagonal entries in [0, 1/n): by Gershgorin its eigenvalues lie in (1, 3), so CG contracts
# the error by (sqrt(3) - 1) / (sqrt(3) + 1) < 0.27 per iteration and damps what float rounding adds: at most
# n 2^-24 relative per dot product or matrix row (1.2e-4 at n = 2000). x agrees with the double reference run of
# the same iterations to well within 1e-3 of its largest entry.
TOLERANCE = 1e-3

n, partitions = pb.arguments(2000)
iterations = int(sys.argv[3]) if len(sys.argv) > 3 else 10
CG = "cg"
matvec = pb.kernel(CG, "matvec(a: in pointer float, p: in pointer float, y: out pointer float, rows: sint32, "
                       "n: sint32)")
dot_slice = pb.kernel(CG, "dot_slice(p: in pointer float, offset: sint32, y: in pointer float, "
                          "out: out pointer float, rows: sint32)")
norm2 = pb.kernel(CG, "norm2(r: in pointer float, out: out pointer float, rows: sint32)")
accumulate = pb.kernel(CG, "accumulate(part: in pointer float, total: inout pointer float, first: sint32)")
update_xr = pb.kernel(CG, "update_xr(x: inout pointer float, r: inout pointer float, p: in pointer float, "
                          "offset: sint32, y: in pointer float, rr: in pointer float, pap: in pointer float, "
                          "rows: sint32)")
update_p = pb.kernel(CG, "update_p(p: inout pointer float, offset: sint32, r: in pointer float, "
                         "rr_new: in pointer float, rr: in pointer float, rows: sint32)")

rng = pb.Random(42)
a_host = [[0.0] * n for _ in range(n)]
for i in range(n):
    a_host[i][i] = 2.0
    for j in range(i + 1, n):
        a_host[i][j] = a_host[j][i] = rng.uniform() / n
b_host = rng.floats(n)

parts = pb.split(n, partitions)
p = pb.device_array("float", b_host)
a = [pb.device_array("float", array.array("f", [v for row in a_host[o:o + c] for v in row])) for o, c in parts]
x = [pb.device_array("float", array.array("f", bytes(4 * c))) for _, c in parts]
r = [pb.device_array("float", b_host[o:o + c]) for o, c in parts]
y = [pb.CU.DeviceArray("float", c) for _, c in parts]
part = [pb.CU.DeviceArray("float", 1) for _ in parts]
rr, rr_new, pap = (pb.CU.DeviceArray("float", 1) for _ in range(3))


def reduce_into(total, reduction):
    """total[0] = the sum over partitions of reduction(q) (each writes part[q]), one accumulation after another."""
    for q in range(len(parts)):
        reduction(q)
        accumulate(1, 1)(part[q], total, 1 if q == 0 else 0)


reduce_into(rr, lambda q: norm2(1, pb.BLOCK)(r[q], part[q], parts[q][1]))
for _ in range(iterations):
    for q, (offset, count) in enumerate(parts):
        matvec(pb.blocks(count), pb.BLOCK)(a[q], p, y[q], count, n)
    reduce_into(pap, lambda q: dot_slice(1, pb.BLOCK)(p, parts[q][0], y[q], part[q], parts[q][1]))
    for q, (offset, count) in enumerate(parts):
        update_xr(pb.blocks(count), pb.BLOCK)(x[q], r[q], p, offset, y[q], rr, pap, count)
    reduce_into(rr_new, lambda q: norm2(1, pb.BLOCK)(r[q], part[q], parts[q][1]))
    for q, (offset, count) in enumerate(parts):
        update_p(pb.blocks(count), pb.BLOCK)(p, offset, r[q], rr_new, rr, count)
    rr, rr_new = rr_new, rr

# The same iterations in double.
xs, rs, ps = [0.0] * n, list(b_host), list(b_host)
rr_ref = sum(v * v for v in rs)
for _ in range(iterations):
    ap = [sum(row[j] * ps[j] for j in range(n)) for row in a_host]
    alpha = rr_ref / sum(u * v for u, v in zip(ps, ap))
    xs = [u + alpha * v for u, v in zip(xs, ps)]
    rs = [u - alpha * v for u, v in zip(rs, ap)]
    rr_next = sum(v * v for v in rs)
    ps = [u + rr_next / rr_ref * v for u, v in zip(rs, ps)]
    rr_ref = rr_next

solution = [v for q in range(len(parts)) for v in pb.read(x[q])]
error = max(abs(u - v) for u, v in zip(solution, xs)) / max(abs(v) for v in xs)
sys.exit(pb.report("cg", n, partitions, error <= TOLERANCE,
                   f"{iterations} iterations, largest error {error:.2e} of max|x| (tolerance {TOLERANCE})"))
