// Device arrays from JavaScript: eval expressions, element types, indexing, errors and free.
const CU = Polyglot.eval('polygpu', 'CU');

const a = Polyglot.eval('polygpu', 'float[2 * 3]');
console.log(a.length, Array.from(a).join(','));
a[0] = 1.5;
a[5] = -2.25;
console.log(a[0], a[5]);

for (const [t, v] of [['char', -128], ['unsigned short', 65535], ['int', -7], ['unsigned int', 4294967295],
                      ['double', 0.125], ['bool', true]]) {
    const arr = CU.DeviceArray(t, 3);
    arr[1] = v;
    console.log(`${t}: fresh ${arr[0]}, stored ${arr[1]}, round trip ${arr[1] === v}`);
}

console.log('a[6] is', a[6]);
const i = CU.DeviceArray('int', 1);
for (const bad of [2 ** 40, 1.5, 'x']) {
    try {
        i[0] = bad;
    } catch (e) {
        console.log('int element =', JSON.stringify(bad), '->', e.message);
    }
}
const b = CU.DeviceArray('double', 4);
b.free();
console.log('freed:', b.isMemoryFreed());
try {
    b[0];
} catch (e) {
    console.log('after free:', e.message);
}
