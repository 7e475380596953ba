// Multi-dimensional arrays from JavaScript: views, C and F order.
const CU = Polyglot.eval('polygpu', 'CU');
for (const order of ['C', 'F']) {
    const m = CU.DeviceArray('short', 3, 2, order);
    for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 2; j++) {
            m[i][j] = 10 * i + j;
        }
    }
    const flat = new Int16Array(6);
    m.copyTo(flat);
    console.log(`${order} order: rows ${Array.from(m, row => Array.from(row).join(' ')).join(' | ')}; memory ${Array.from(flat).join(',')}`);
}
const m = Polyglot.eval('polygpu', 'float[2][2]');
try {
    m[1] = 3;
} catch (e) {
    console.log('m[1] = 3 ->', e.message);
}
