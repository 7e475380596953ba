// exit: 1
// An uncaught JavaScript error ends the script with status 1 and its stack on stderr.
console.log('before the error');
const a = Polyglot.eval('polygpu', 'float[2]');
a.free();
a[0] = 1;
