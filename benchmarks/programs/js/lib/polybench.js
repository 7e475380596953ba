// What the JavaScript benchmark programs share (loaded with load() by each): arguments, kernel sources, the seeded
// inputs (the same generator as the Python and Java versions) and the report. Defines the global `pb`.
var pb = (function (scriptArguments) {
    const CU = Polyglot.eval('polygpu', 'CU');
    // GraalJS gives a script no __dirname; this file's path is the top frame of a stack trace.
    const here = new Error().stack.split('\n')[1].replace(/^\s*at\s+/, '').replace(/^.*\(/, '');
    const kernels = here.replace(/[^/]*$/, '') + '../../../src/main/resources/org/polygpu/bench/kernels/';
    const BLOCK = 256;

    function parseArguments(defaultSize) {
        const size = scriptArguments.length > 0 ? parseInt(scriptArguments[0]) : defaultSize;
        const partitions = scriptArguments.length > 1 ? parseInt(scriptArguments[1]) : 16;
        if (!(size >= partitions && partitions >= 1)) {
            throw new Error('usage: [size >= partitions] [partitions >= 1]');
        }
        return [size, partitions];
    }

    function split(n, partitions) {
        const size = Math.ceil(n / partitions);
        const parts = [];
        for (let p = 0; p * size < n; p++) parts.push([p * size, Math.min(size, n - p * size)]);
        return parts;
    }

    // s = (1103515245 s + 12345) mod 2^31: Math.imul keeps the low 32 bits of the product exactly.
    function Random(seed) {
        let state = seed;
        this.nextInt = () => (state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff);
        this.uniform = (bits) => (this.nextInt() >>> (31 - bits)) / 2 ** bits;
        this.floats = (n, low, high, bits) => {
            const out = new Float32Array(n);
            for (let i = 0; i < n; i++) out[i] = low + (high - low) * this.uniform(bits);
            return out;
        };
    }

    function deviceArray(type, values) {
        const a = CU.DeviceArray(type, values.length);
        a.copyFrom(values);
        return a;
    }

    function report(name, size, partitions, ok, detail) {
        console.log(`${name} size=${size} partitions=${partitions} gpus=${CU.cudaGetDeviceCount()}: ${detail} `
            + (ok ? 'OK' : 'FAIL'));
        if (!ok) quit(1);
    }

    return {
        CU, BLOCK, split, Random, deviceArray, report, arguments: parseArguments,
        kernel: (source, signature) => CU.buildkernel(read(kernels + source + '.cu'), signature),
        blocks: (n) => Math.max(1, Math.min(64, Math.ceil(n / BLOCK))),
    };
})(arguments);
