package org.polygpu.bench.programs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;

/**
 * A benchmark program in Java on a polyglot context: builds its kernels from the shared sources, splits its data
 * in partitions, launches one chain of kernels per partition and checks the result against a CPU reference.
 */
public abstract class PolygpuProgram {
    /** Threads per block of every launch (the reductions of CG assume it). */
    static final int BLOCK = 256;

    /** One partition: its first element (or row) and how many it holds. */
    record Part(int offset, int count) {
    }

    final Value cu;
    /**
     * Every array the program made, kept reachable while the program is: an array whose guest object became
     * unreachable is freed at the runtime's next call, which waits for the kernels still using it, so arrays left to
     * the garbage collector would make the host wait at points that vary from run to run, and the makespan with them.
     */
    private final List<Value> arrays = new ArrayList<>();
    private long arrayBytes;
    private boolean validating = true;
    private boolean firstElementsOnly;

    PolygpuProgram(Context context) {
        cu = context.eval("polygpu", "CU");
    }

    /**
     * Makes {@link #run} launch everything but read nothing back and skip the CPU reference, as on the emulator's
     * sampled execution (whose outputs cannot be read) and at sizes where the reference would take too long.
     */
    public final PolygpuProgram withoutValidation() {
        validating = false;
        return this;
    }

    /**
     * Makes {@link #run} read back and check only the first element of each partition's result, one element read
     * per partition, as GrCUDA's benchmarks end ({@code res[i] = y[i][0]}).
     *
     * @throws IllegalArgumentException when the program has no such ending
     */
    public final PolygpuProgram withFirstElementsOnly() {
        if (!hasFirstElementsEnding()) {
            throw new IllegalArgumentException("--first-elements: " + name() + " does not support it (bs does)");
        }
        firstElementsOnly = true;
        return this;
    }

    /** Whether the program can end as {@link #withFirstElementsOnly()} asks. */
    boolean hasFirstElementsEnding() {
        return false;
    }

    /** Whether {@link #run} checks only the first element of each partition. */
    final boolean firstElementsOnly() {
        return firstElementsOnly;
    }

    /** Whether {@link #run} reads the results back and checks them. */
    final boolean validating() {
        return validating;
    }

    /** The benchmark's short name, also the name of its Python and JavaScript programs. */
    public abstract String name();

    /** The size used when the command line gives none. */
    public abstract int defaultSize();

    /** Runs the benchmark on {@code size} elements (rows) in {@code partitions} partitions and validates it. */
    public abstract Verdict run(int size, int partitions);

    /** Builds one kernel of {@code kernels/<source>.cu}. */
    final Value kernel(String source, String signature) {
        String resource = "/org/polygpu/bench/kernels/" + source + ".cu";
        try (InputStream in = PolygpuProgram.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("kernel source " + resource + " is missing from the class path");
            }
            return cu.getMember("buildkernel").execute(new String(in.readAllBytes(), StandardCharsets.UTF_8),
                    signature);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Equal partitions of {@code n}, the last one shorter. */
    static List<Part> split(int n, int partitions) {
        int size = (n + partitions - 1) / partitions;
        List<Part> parts = new ArrayList<>();
        for (int offset = 0; offset < n; offset += size) {
            parts.add(new Part(offset, Math.min(size, n - offset)));
        }
        return parts;
    }

    /** Enough blocks of {@link #BLOCK} threads for {@code n} items, at most 64 (the kernels loop over the rest). */
    static int blocks(long n) {
        return (int) Math.max(1, Math.min(64, (n + BLOCK - 1) / BLOCK));
    }

    /** {@code kernel(grid, block)(args...)}. */
    static Value launch(Value kernel, int grid, int block, Object... args) {
        return kernel.execute(grid, block).execute(args);
    }

    final Value newArray(String type, long n) {
        Value a = cu.invokeMember("DeviceArray", type, n);
        arrays.add(a);
        arrayBytes += n * elementBytes(type);
        return a;
    }

    /** The bytes of every array the program made so far: its working set, once {@link #run} returned. */
    public final long arrayBytes() {
        return arrayBytes;
    }

    private static int elementBytes(String type) {
        return switch (type) {
            case "double", "long" -> 8;
            case "float", "int" -> 4;
            default -> throw new IllegalArgumentException("no element size known for type " + type);
        };
    }

    final Value deviceArray(float[] values) {
        Value a = newArray("float", values.length);
        a.invokeMember("copyFrom", (Object) values);
        return a;
    }

    static float[] readFloats(Value array) {
        float[] out = new float[(int) array.getArraySize()];
        array.invokeMember("copyTo", (Object) out);
        return out;
    }

    static int[] readInts(Value array) {
        int[] out = new int[(int) array.getArraySize()];
        array.invokeMember("copyTo", (Object) out);
        return out;
    }

    /** The verdict of a run {@link #withoutValidation()}: OK, saying that nothing was checked. */
    final Verdict unchecked(int size, int partitions) {
        return verdict(size, partitions, true, "not validated, results left on the GPUs");
    }

    final Verdict verdict(int size, int partitions, boolean ok, String detail) {
        return new Verdict(name(), size, partitions, cu.invokeMember("cudaGetDeviceCount").asInt(), ok, detail);
    }
}
