"""The host side as a GraalPy user meets it (issue 15's table; see benchmarks/README.md).

Rows, each after WARM_UP rounds, as the median (and the fastest) of ROUNDS timed rounds:
  element writes  x[i] = v over ELEMENTS floats, then element reads s += x[i] (elements/s), for a device array and,
  as references measured in the same run, a Python list and a Java float[];
  copyTo / copyFrom between a float device array of BULK elements and each host buffer kind: array.array,
  bytearray, memoryview (of an array.array), bytes (copyFrom only), a list (element conversion) (MB/s);
  import numpy (whether it is there).
Usage: bin/polygpu benchmarks/python/host_side.py [warm-up rounds] [timed rounds]
"""
import array
import sys
import time
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
WARM_UP = int(sys.argv[1]) if len(sys.argv) > 1 else 10
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
ELEMENTS = 200_000
BULK = 1_000_000


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


class Rounds:
    """The timed rounds of one row: the median, and the fastest (the compiled steady state, on a busy machine)."""
    def __init__(self, seconds):
        self.median = median(seconds)
        self.best = min(seconds)

    def rate(self, amount, unit, scale):
        return "%.2f %s (fastest round %.2f)" % (amount / self.median / scale, unit, amount / self.best / scale)


def timed(body, warm_up=None):
    for _ in range(WARM_UP if warm_up is None else warm_up):
        body()
    seconds = []
    for _ in range(ROUNDS):
        start = time.perf_counter_ns()
        body()
        seconds.append((time.perf_counter_ns() - start) / 1e9)
    return Rounds(seconds)


def loops(x):
    """A write loop and a read loop over x, each its own function so that each call site sees one receiver."""
    def write():
        for i in range(ELEMENTS):
            x[i] = 0.5

    def read():
        s = 0.0
        for i in range(ELEMENTS):
            s += x[i]
        if s != 0.5 * ELEMENTS:
            raise AssertionError("read back %r" % s)
    return write, read


def element_rows():
    rows = [("device array", CU.DeviceArray("float", ELEMENTS)), ("Python list", [0.0] * ELEMENTS)]
    try:
        import java
        rows.append(("Java float[]", java.type("float[]")(ELEMENTS)))
    except ImportError:
        pass
    rows = [(name, loops(x)) for name, x in rows]
    # Every loop is warmed up before any is timed, so that no row is timed while the compiler is still busy with
    # the others (on a 2-core machine it competes with the program for the cores).
    for _ in range(WARM_UP):
        for _, (write, read) in rows:
            write()
            read()
    for name, (write, read) in rows:
        print("element writes x[i] = v, %s of %d floats: %s"
              % (name, ELEMENTS, timed(write, 0).rate(ELEMENTS, "M elements/s", 1e6)))
        print("element reads s += x[i], %s of %d floats: %s"
              % (name, ELEMENTS, timed(read, 0).rate(ELEMENTS, "M elements/s", 1e6)))


def bulk_rows():
    x = CU.DeviceArray("float", BULK)
    mb = BULK * 4 / 1e6
    source = array.array("f", range(BULK))
    kinds = [
        ("array.array('f')", lambda: array.array("f", bytes(BULK * 4)), True),
        ("bytearray", lambda: bytearray(BULK * 4), True),
        ("memoryview(array.array)", lambda: memoryview(array.array("f", bytes(BULK * 4))), True),
        ("bytes", lambda: source.tobytes(), False),
    ]
    for name, make, writable in kinds:
        host = make() if writable else source.tobytes()
        if writable:
            x.copyFrom(source)
            rounds = timed(lambda: x.copyTo(host))
            check = array.array("f", bytes(host))
            if check[BULK - 1] != BULK - 1:
                raise AssertionError("copyTo %s: last element %r" % (name, check[BULK - 1]))
            print("copyTo %s, %d floats: %s" % (name, BULK, rounds.rate(mb, "MB/s", 1)))
        print("copyFrom %s, %d floats: %s" % (name, BULK, timed(lambda: x.copyFrom(host)).rate(mb, "MB/s", 1)))
    small = 100_000
    y = CU.DeviceArray("float", small)
    values = [float(i) for i in range(small)]
    print("copyFrom list of floats (element conversion), %d floats: %s"
          % (small, timed(lambda: y.copyFrom(values)).rate(small * 4 / 1e6, "MB/s", 1)))


def numpy_row():
    try:
        import numpy  # noqa: F401
        print("import numpy: available (%s)" % numpy.__version__)
    except ImportError as e:
        print("import numpy: %s: %s" % (type(e).__name__, e))


element_rows()
bulk_rows()
numpy_row()
