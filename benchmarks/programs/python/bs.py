"""B&S: Black-Scholes call prices of a vector of stock prices, one independent kernel per partition.

    bin/polygpu benchmarks/programs/python/bs.py [prices=100000] [partitions=16]
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import polybench as pb  # noqa: E402

STRIKE, RATE, VOLATILITY, YEARS = 60.0, 0.1, 0.2, 1.0
# The kernel evaluates about 30 float operations whose terms are at most 120 (price, strike), each within a few ulp
# (2^-24 relative; logf, expf, sqrtf within 2 ulp), and d1 (|d1| < 10) reaches the price through N' <= 0.4: the
# error is below 120 * 2^-24 * 30 + 120 * 0.4 * 1e-6, about 3e-4. 1e-3 leaves a margin and still catches any
# wrong term (the smallest, the discount on a 60 strike, changes prices by several units).
TOLERANCE = 1e-3


def cnd(d):
    """The kernel's Abramowitz-Stegun approximation, in double."""
    k = 1.0 / (1.0 + 0.2316419 * abs(d))
    poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
    c = 0.3989422804 * math.exp(-0.5 * d * d) * poly
    return 1.0 - c if d > 0 else c


def call_price(s):
    spread = VOLATILITY * math.sqrt(YEARS)
    d1 = (math.log(s / STRIKE) + (RATE + 0.5 * VOLATILITY * VOLATILITY) * YEARS) / spread
    return s * cnd(d1) - STRIKE * math.exp(-RATE * YEARS) * cnd(d1 - spread)


n, partitions = pb.arguments(100_000)
black_scholes = pb.kernel("bs", "black_scholes(price: in pointer float, call: out pointer float, n: sint32, "
                                "strike: float, rate: float, volatility: float, years: float)")
prices = pb.Random(42).floats(n, 20.0, 120.0)
calls = []
for offset, count in pb.split(n, partitions):
    price = pb.device_array("float", prices[offset:offset + count])
    call = pb.CU.DeviceArray("float", count)
    black_scholes(pb.blocks(count), pb.BLOCK)(price, call, count, STRIKE, RATE, VOLATILITY, YEARS)
    calls.append((offset, call))

error = 0.0
for offset, call in calls:
    values = pb.read(call)
    error = max(error, max(abs(v - call_price(prices[offset + i])) for i, v in enumerate(values)))
sys.exit(pb.report("bs", n, partitions, error <= TOLERANCE, f"largest error {error:.2e} (tolerance {TOLERANCE})"))
