import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;

/**
 * Embedding polygpu in a Java program through the polyglot API, as GrCUDA programs do with "grcuda":
 * {@code bin/polygpu --java examples/java/VectorAdd.java} runs it with polygpu's class path.
 */
public class VectorAdd {
    private static final String KERNEL = """
            extern "C" __global__ void add(const int *a, const int *b, int *c, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) c[i] = a[i] + b[i];
            }
            """;

    public static void main(String[] args) {
        int n = 1000;
        try (Context context = Context.newBuilder("polygpu").allowAllAccess(true)
                .option("polygpu.NumberOfGPUs", "2").build()) {
            Value cu = context.eval("polygpu", "CU");
            Value add = cu.getMember("buildkernel").execute(KERNEL,
                    "add(a: in pointer sint32, b: in pointer sint32, c: out pointer sint32, n: sint32)");
            int[] values = new int[n];
            for (int i = 0; i < n; i++) {
                values[i] = i;
            }
            Value a = context.eval("polygpu", "int[" + n + "]").invokeMember("copyFrom", values);
            Value b = cu.invokeMember("DeviceArray", "int", n).invokeMember("copyFrom", values);
            Value c = cu.invokeMember("DeviceArray", "int", n);
            Value launch = add.execute((n + 127) / 128, 128).execute(a, b, c, n);
            int[] sums = new int[n];
            c.invokeMember("copyTo", sums);
            boolean ok = true;
            for (int i = 0; i < n; i++) {
                ok &= sums[i] == 2 * i;
            }
            System.out.println("c[" + (n - 1) + "] = " + sums[n - 1] + " on GPU " + launch.getMember("device")
                    + " of " + cu.invokeMember("cudaGetDeviceCount") + (ok ? " OK" : " MISMATCH"));
            System.exit(ok ? 0 : 1);
        }
    }
}
