"""What the Python benchmark programs share: their arguments, the kernel sources, the seeded inputs, the report.

The kernels live in benchmarks/src/main/resources/org/polygpu/bench/kernels, shared with the Java and JavaScript
versions; the inputs come from the same 31-bit linear congruential generator in every host language, so that the
three versions of a benchmark compute the same numbers.
"""
import array
import os
import sys

import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "src", "main", "resources",
                       "org", "polygpu", "bench", "kernels")
BLOCK = 256


def arguments(default_size):
    """(size, partitions) from the command line: [size] [partitions], 16 partitions by default."""
    size = int(sys.argv[1]) if len(sys.argv) > 1 else default_size
    partitions = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    if size < partitions or partitions < 1:
        sys.exit(f"usage: {os.path.basename(sys.argv[0])} [size >= partitions] [partitions >= 1]")
    return size, partitions


def kernel(source, signature):
    """Builds one kernel of benchmarks' kernels/<source>.cu."""
    with open(os.path.join(KERNELS, source + ".cu")) as f:
        return CU.buildkernel(f.read(), signature)


def split(n, partitions):
    """(offset, count) of each partition: equal parts, the last one shorter."""
    size = (n + partitions - 1) // partitions
    return [(p * size, min(size, n - p * size)) for p in range(partitions) if p * size < n]


def blocks(n):
    """Enough blocks of BLOCK threads for n items, at most 64 (the kernels loop over the rest)."""
    return max(1, min(64, (n + BLOCK - 1) // BLOCK))


class Random:
    """The benchmarks' generator: s = (1103515245 s + 12345) mod 2^31, the same in Java and JavaScript."""

    def __init__(self, seed=42):
        self.state = seed

    def next_int(self):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return self.state

    def uniform(self, bits=24):
        """A multiple of 2^-bits in [0, 1), exact in float for bits <= 24."""
        return (self.next_int() >> (31 - bits)) / float(1 << bits)

    def floats(self, n, low=0.0, high=1.0, bits=24):
        return array.array("f", [low + (high - low) * self.uniform(bits) for _ in range(n)])


def device_array(kind, values):
    """A device array holding values (an array.array of the same element type)."""
    a = CU.DeviceArray(kind, len(values))
    a.copyFrom(values)
    return a


def read(device, kind="f"):
    """A device array's contents on the host (waits only for the computations that write it)."""
    out = array.array(kind, bytes(len(device) * array.array(kind).itemsize))
    device.copyTo(out)
    return out


def report(name, size, partitions, ok, detail):
    """Prints the verdict line and returns the exit status."""
    gpus = CU.cudaGetDeviceCount()
    print(f"{name} size={size} partitions={partitions} gpus={gpus}: {detail} {'OK' if ok else 'FAIL'}")
    return 0 if ok else 1
