"""Per-launch cost through the language on one device of an MPI job under Cluster=mpi (see benchmarks/README.md).

2000 launches of an empty kernel on one array, each depending on the previous one, then a read of one element that
waits for them; the median of 5 rounds after 3 warm-up rounds, in microseconds per launch. The device is the job's
(global) device number; DeviceSelectionPolicy=single-gpu keeps every launch on it:

    mpirun -np 2 bin/polygpu --polygpu.Cluster=mpi --polygpu.EmulatedDevices=2 \
        --polygpu.DeviceSelectionPolicy=single-gpu benchmarks/python/cluster_launches.py DEVICE
"""
import sys
import time
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
touch = CU.buildkernel('extern "C" __global__ void touch(float *x, int n) { if (n < 0) x[0] = 1.0f; }',
                       "touch(x: inout pointer float, n: sint32)")
device = int(sys.argv[1])
polyglot.eval(language="polygpu", string="cudaSetDevice")(device)
x = CU.DeviceArray("float", 256)
configured = touch(1, 32)
LAUNCHES = 2000


def round_micros():
    start = time.perf_counter()
    for _ in range(LAUNCHES):
        configured(x, 256)
    x[0]
    return (time.perf_counter() - start) / LAUNCHES * 1e6


for _ in range(3):
    round_micros()
print("device %d: %.1f us per launch" % (device, sorted(round_micros() for _ in range(5))[2]))
