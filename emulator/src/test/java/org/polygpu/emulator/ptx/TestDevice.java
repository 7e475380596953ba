package org.polygpu.emulator.ptx;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.polygpu.backend.Dim3;
import org.polygpu.backend.LaunchConfig;

/**
 * A device for interpreter tests without the backend: allocations at device addresses in one arena, module variables,
 * and launches through a {@link PtxExecutor}. Buffers are addressed by their device address (a {@code long}).
 */
final class TestDevice implements AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private final List<GlobalMemory.Region> regions = new ArrayList<>();
    private final Map<Long, MemorySegment> segments = new HashMap<>();
    private final PtxExecutor executor;
    private long next = GlobalMemory.FIRST_ADDRESS;
    long budget = 1_000_000_000L;
    /** The heap of kernels' malloc and free, once {@link #heap} made one. */
    DeviceHeap heap;
    /** What the kernels launched here printed ({@code printf}), in launch order. */
    final StringBuilder printed = new StringBuilder();

    TestDevice(int parallelism) {
        executor = new PtxExecutor(parallelism);
    }

    TestDevice() {
        this(2);
    }

    /** The text of a fixture under {@code org/polygpu/emulator/ptx/}. */
    static String fixture(String name) {
        try (InputStream in = TestDevice.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static PtxModule module(String name) {
        return PtxModule.parse(fixture(name));
    }

    long allocate(long bytes) {
        return allocate(bytes, false, "buffer of " + bytes + " bytes");
    }

    private long allocate(long bytes, boolean readOnly, String description) {
        long address = next;
        MemorySegment s = arena.allocate(Math.max(bytes, 1), 256).asSlice(0, bytes);
        regions.add(new GlobalMemory.Region(address, s, readOnly, description));
        segments.put(address, s);
        next += (bytes + 511) / 256 * 256;
        return address;
    }

    /** Gives kernels a heap of {@code bytes} for malloc and free, far above the buffers. */
    DeviceHeap heap(long bytes) {
        heap = new DeviceHeap(GlobalMemory.FIRST_ADDRESS + (1L << 39), arena.allocate(bytes, 256));
        return heap;
    }

    MemorySegment segment(long address) {
        return segments.get(address);
    }

    long floats(float... values) {
        long a = allocate(4L * values.length);
        MemorySegment.copy(values, 0, segment(a), JAVA_FLOAT, 0, values.length);
        return a;
    }

    long ints(int... values) {
        long a = allocate(4L * values.length);
        MemorySegment.copy(values, 0, segment(a), JAVA_INT, 0, values.length);
        return a;
    }

    long bytes(byte... values) {
        long a = allocate(values.length);
        MemorySegment.copy(values, 0, segment(a), JAVA_BYTE, 0, values.length);
        return a;
    }

    long longs(long... values) {
        long a = allocate(8L * values.length);
        MemorySegment.copy(values, 0, segment(a), JAVA_LONG, 0, values.length);
        return a;
    }

    long doubles(double... values) {
        long a = allocate(8L * values.length);
        MemorySegment.copy(values, 0, segment(a), JAVA_DOUBLE, 0, values.length);
        return a;
    }

    float[] floatsAt(long address, int n) {
        return segment(address).asSlice(0, 4L * n).toArray(JAVA_FLOAT);
    }

    byte[] bytesAt(long address, int n) {
        return segment(address).asSlice(0, n).toArray(JAVA_BYTE);
    }

    int[] intsAt(long address, int n) {
        return segment(address).asSlice(0, 4L * n).toArray(JAVA_INT);
    }

    long[] longsAt(long address, int n) {
        return segment(address).asSlice(0, 8L * n).toArray(JAVA_LONG);
    }

    double[] doublesAt(long address, int n) {
        return segment(address).asSlice(0, 8L * n).toArray(JAVA_DOUBLE);
    }

    KernelCounters launch(PtxModule m, String kernel, int grid, int block, Object... args) {
        return launch(m, kernel, LaunchConfig.of(grid, block), args);
    }

    KernelCounters launch(PtxModule m, String kernel, Dim3 grid, Dim3 block, int shared, Object... args) {
        return launch(m, kernel, new LaunchConfig(grid, block, shared), args);
    }

    KernelCounters launch(PtxModule m, String kernel, LaunchConfig config, Object... args) {
        Map<String, Long> variables = new HashMap<>();
        for (ModuleVariable v : m.variables()) {
            long a = allocate(v.size(), v.constant(), (v.constant() ? "const " : "global ") + v.name());
            MemorySegment.copy(MemorySegment.ofArray(v.init()), 0, segment(a), 0, v.init().length);
            variables.put(v.name(), a);
        }
        for (ModuleVariable v : m.variables()) {
            for (ModuleVariable.Relocation r : v.relocations()) {
                segment(variables.get(v.name())).set(JAVA_LONG, r.offset(), variables.get(r.symbol()) + r.addend());
            }
        }
        PtxKernel k = m.kernel(kernel).orElseThrow();
        byte[] params = PtxParameterBlock.pack(k, args, b -> {
            throw new IllegalArgumentException("tests pass addresses");
        });
        GlobalMemory memory = new GlobalMemory(regions, heap);
        return executor.run(new PtxLaunch(m, kernel, config, params, memory, variables, budget, 80,
                printed::append));
    }

    @Override
    public void close() {
        executor.close();
        arena.close();
    }
}
