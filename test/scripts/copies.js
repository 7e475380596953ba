// copyFrom/copyTo with JavaScript typed arrays and plain arrays.
const CU = Polyglot.eval('polygpu', 'CU');
const a = CU.DeviceArray('float', 4);
a.copyFrom(new Float32Array([1.5, 2.5, 3.5, 4.5]));
const b = CU.DeviceArray('float', 3);
b.copyFrom(new Float64Array([0.5, 0.25, 0.125]));
const c = CU.DeviceArray('int', 3);
c.copyFrom([1, 2, 3]);
const d = CU.DeviceArray('float', 4);
d.copyFrom(a);
const out = new Float32Array(4);
d.copyTo(out);
const plain = [0, 0, 0];
c.copyTo(plain);
console.log('typed:', Array.from(out).join(','), 'converted:', Array.from(b).join(','), 'plain:', plain.join(','));
try {
    a.copyFrom(new Float32Array(2));
} catch (e) {
    console.log('too short ->', e.message);
}
