# Bad input from Python: every error names what is wrong, and the context stays usable.
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
inc = CU.buildkernel("""
extern "C" __global__ void inc(int *out, const int *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + 1;
}""", "inc(out: out pointer sint32, in: in pointer sint32, n: sint32)")
ints = CU.DeviceArray("int", 4)
floats = CU.DeviceArray("float", 4)
attempts = [
    ("wrong arity", lambda: inc(1, 4)(ints, ints)),
    ("float array for sint32 pointer", lambda: inc(1, 4)(ints, floats, 4)),
    ("number for a pointer", lambda: inc(1, 4)(ints, 3, 4)),
    ("scalar out of range", lambda: inc(1, 4)(ints, ints, 2**40)),
    ("bad configuration", lambda: inc(1)),
    ("block too large", lambda: inc(1, 4096)(ints, ints, 4)),
    ("unknown identifier", lambda: polyglot.eval(language="polygpu", string="buildKernel")),
    ("syntax error", lambda: polyglot.eval(language="polygpu", string="float[4")),
    ("unknown type", lambda: CU.DeviceArray("float3", 4)),
    ("bad signature", lambda: CU.buildkernel("", "k(x: in pointer)")),
    ("compile error", lambda: CU.buildkernel("__global__ void k(int *x) { x[0] = y; }", "k(x: out pointer sint32)")),
    ("getdevice range", lambda: CU.getdevice(4)),
]
for what, attempt in attempts:
    try:
        attempt()
        print(what, "-> no error")
    except polyglot.ForeignException as e:
        print(what, "->", str(e).splitlines()[0])
inc(1, 4)(ints, ints, 4)
print("still usable:", list(ints))
