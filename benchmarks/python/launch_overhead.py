"""Per-launch overhead of polygpu seen by a GraalPy host (see benchmarks/README.md).

A small kernel touch(x: inout pointer float, n: sint32) is launched again and again on one 256-float array after a
warm-up; each round times LAUNCHES launches with time.perf_counter_ns. With --polygpu.Backend=no-work (this
module's classes on the class path) nothing is executed, so the figure is the launch overhead alone:

    POLYGPU_CLASSPATH=benchmarks/target/classes bin/polygpu --polygpu.Backend=no-work \
        benchmarks/python/launch_overhead.py [warm-up seconds] [rounds]
"""
import sys
import time
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
TOUCH = """
extern "C" __global__ void touch(float *x, int n) {
    if (n < 0) x[0] = 1.0f;
}
"""
LAUNCHES = 100_000
warm_up = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10

touch = CU.buildkernel(TOUCH, "touch(x: inout pointer float, n: sint32)")
x = CU.DeviceArray("float", 256)
configured = touch(1, 32)


def launch_configured(count):
    for _ in range(count):
        configured(x, 256)


def configure_and_launch(count):
    for _ in range(count):
        touch(1, 32)(x, 256)


def empty_loop(count):
    for _ in range(count):
        pass


def measure(body):
    end = time.perf_counter() + warm_up
    while time.perf_counter() < end:
        body(LAUNCHES)
    per_launch = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        body(LAUNCHES)
        per_launch.append((time.perf_counter_ns() - start) / LAUNCHES)
    per_launch.sort()
    return per_launch


backend = CU.getoptions().Backend
print(f"backend {backend}, {LAUNCHES} launches per round, {rounds} rounds after {warm_up:.0f} s warm-up")
for name, body in [("GraalPy host: configured(x, n)", launch_configured),
                   ("GraalPy host: kernel(1, 32)(x, n)", configure_and_launch),
                   ("GraalPy host: empty loop", empty_loop)]:
    t = measure(body)
    print(f"{name:<42} median {t[len(t) // 2]:7.0f} ns  min {t[0]:7.0f} ns  max {t[-1]:7.0f} ns per launch")
CU.cudaDeviceSynchronize()
print("launches:", touch.launchCount)
