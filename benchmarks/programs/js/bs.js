// B&S: Black-Scholes call prices of a vector of stock prices, one independent kernel per partition.
//     bin/polygpu benchmarks/programs/js/bs.js [prices=100000] [partitions=16]
// The helpers sit beside this script; GraalJS gives a script no __dirname, so its path comes from a stack frame.
load(new Error().stack.split('\n')[1].replace(/^\s*at\s+/, '').replace(/^.*\(/, '').replace(/[^/]*$/, '')
    + 'lib/polybench.js');

const STRIKE = 60, RATE = 0.1, VOLATILITY = 0.2, YEARS = 1;
// The kernel evaluates about 30 float operations whose terms are at most 120 (price, strike), each within a few ulp
// (2^-24 relative; logf, expf, sqrtf within 2 ulp), and d1 (|d1| < 10) reaches the price through N' <= 0.4: the
// error is below 120 * 2^-24 * 30 + 120 * 0.4 * 1e-6, about 3e-4. 1e-3 leaves a margin and still catches any
// wrong term (the smallest, the discount on a 60 strike, changes prices by several units).
const TOLERANCE = 1e-3;

// The kernel's Abramowitz-Stegun approximation, in double.
function cnd(d) {
    const k = 1 / (1 + 0.2316419 * Math.abs(d));
    const poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
    const c = 0.3989422804 * Math.exp(-0.5 * d * d) * poly;
    return d > 0 ? 1 - c : c;
}

function callPrice(s) {
    const spread = VOLATILITY * Math.sqrt(YEARS);
    const d1 = (Math.log(s / STRIKE) + (RATE + 0.5 * VOLATILITY * VOLATILITY) * YEARS) / spread;
    return s * cnd(d1) - STRIKE * Math.exp(-RATE * YEARS) * cnd(d1 - spread);
}

const [n, partitions] = pb.arguments(100000);
const blackScholes = pb.kernel('bs', 'black_scholes(price: in pointer float, call: out pointer float, n: sint32, '
    + 'strike: float, rate: float, volatility: float, years: float)');
const prices = new pb.Random(42).floats(n, 20, 120, 24);
const calls = [];
for (const [offset, count] of pb.split(n, partitions)) {
    const price = pb.deviceArray('float', prices.subarray(offset, offset + count));
    const call = pb.CU.DeviceArray('float', count);
    blackScholes(pb.blocks(count), pb.BLOCK)(price, call, count, STRIKE, RATE, VOLATILITY, YEARS);
    calls.push([offset, call]);
}

let error = 0;
for (const [offset, call] of calls) {
    const values = new Float32Array(call.length);
    call.copyTo(values);
    values.forEach((v, i) => { error = Math.max(error, Math.abs(v - callPrice(prices[offset + i]))); });
}
pb.report('bs', n, partitions, error <= TOLERANCE, `largest error ${error.toExponential(2)} (tolerance ${TOLERANCE})`);
