// VEC: sum(x^2 - y^2) over two vectors, split in partitions; each partition runs square(x), square(y), diff_sum.
//     bin/polygpu benchmarks/programs/js/vec.js [elements=100000] [partitions=16]
// The helpers sit beside this script; GraalJS gives a script no __dirname, so its path comes from a stack frame.
load(new Error().stack.split('\n')[1].replace(/^\s*at\s+/, '').replace(/^.*\(/, '').replace(/[^/]*$/, '')
    + 'lib/polybench.js');

const [n, partitions] = pb.arguments(100000);
const square = pb.kernel('vec', 'square(x: inout pointer float, n: sint32)');
const diffSum = pb.kernel('vec', 'diff_sum(x: in pointer float, y: in pointer float, acc: inout pointer double, '
    + 'n: sint32)');

// Multiples of 2^-6 in [0, 1): every square has at most 12 significant bits and every difference of squares is a
// multiple of 2^-12 below 1, so the kernels' float arithmetic and double sums are exact and so is the reference.
const random = new pb.Random(42);
const xHost = random.floats(n, 0, 1, 6);
const yHost = random.floats(n, 0, 1, 6);
const sums = [];
for (const [offset, count] of pb.split(n, partitions)) {
    const x = pb.deviceArray('float', xHost.subarray(offset, offset + count));
    const y = pb.deviceArray('float', yHost.subarray(offset, offset + count));
    const acc = pb.CU.DeviceArray('double', 1);
    acc[0] = 0;
    const grid = pb.blocks(count);
    square(grid, pb.BLOCK)(x, count);
    square(grid, pb.BLOCK)(y, count);
    diffSum(grid, pb.BLOCK)(x, y, acc, count);
    sums.push(acc);
}

let result = 0;
for (const acc of sums) result += acc[0];
let expected = 0;
for (let i = 0; i < n; i++) expected += xHost[i] * xHost[i] - yHost[i] * yHost[i];
pb.report('vec', n, partitions, result === expected, `sum ${result} (reference ${expected})`);
