package org.polygpu.cluster;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.Dim3;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.ReadOnlyParameters;
import org.polygpu.backend.TimedOperation;

/**
 * How the backend's values travel in messages: module images, launch configurations and arguments, labels, read-only
 * parameters, device properties and timeline entries. Each {@code write} has its {@code read}, in the same order.
 */
final class Codec {
    private static final int BUFFER = 0;
    private static final int OFFSET = 1;
    private static final int BYTE = 2;
    private static final int SHORT = 3;
    private static final int INT = 4;
    private static final int LONG = 5;
    private static final int FLOAT = 6;
    private static final int DOUBLE = 7;

    private Codec() {
    }

    /** @throws BackendException for an image only this process can load (such as a Java kernel module) */
    static void writeImage(WireWriter w, ModuleImage image) {
        switch (image) {
            case ModuleImage.Ptx p -> w.putInt(0).putString(p.text());
            case ModuleImage.Cubin c -> w.putInt(1).putBytes(c.image()).putString(c.architecture());
            case ModuleImage.CudaSource s -> {
                w.putInt(2).putString(s.source()).putString(s.programName()).putInt(s.options().size());
                s.options().forEach(w::putString);
                w.putInt(s.nameExpressions().size());
                s.nameExpressions().forEach(w::putString);
            }
            default -> throw new BackendException("a module of " + image.description() + " cannot be sent to "
                    + "another rank: only PTX, CUBIN and CUDA source travel under Cluster=mpi");
        }
    }

    static ModuleImage readImage(WireReader r) {
        return switch (r.getInt()) {
            case 0 -> new ModuleImage.Ptx(r.getString());
            case 1 -> new ModuleImage.Cubin(r.getBytes(), r.getString());
            default -> new ModuleImage.CudaSource(r.getString(), r.getString(), strings(r), strings(r));
        };
    }

    private static List<String> strings(WireReader r) {
        int n = r.getInt();
        List<String> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(r.getString());
        }
        return list;
    }

    static void writeConfig(WireWriter w, LaunchConfig c) {
        w.putLong(c.grid().x()).putLong(c.grid().y()).putLong(c.grid().z()).putLong(c.block().x())
                .putLong(c.block().y()).putLong(c.block().z()).putInt(c.sharedMemoryBytes());
    }

    static LaunchConfig readConfig(WireReader r) {
        Dim3 grid = new Dim3((int) r.getLong(), (int) r.getLong(), (int) r.getLong());
        Dim3 block = new Dim3((int) r.getLong(), (int) r.getLong(), (int) r.getLong());
        return new LaunchConfig(grid, block, r.getInt());
    }

    static void writeLabel(WireWriter w, OperationLabel label) {
        w.putLong(label.computationId()).putString(label.name());
    }

    static OperationLabel readLabel(WireReader r) {
        return new OperationLabel(r.getLong(), r.getString());
    }

    /** Writes launch arguments: buffers of the launch's rank by key, scalars by type. */
    static void writeArguments(WireWriter w, Object[] arguments) {
        w.putInt(arguments.length);
        for (Object a : arguments) {
            switch (a) {
                case Remote.Buffer b -> w.putInt(BUFFER).putLong(b.key());
                case BufferOffset(Remote.Buffer b, long bytes) -> w.putInt(OFFSET).putLong(b.key()).putLong(bytes);
                case Byte v -> w.putInt(BYTE).putLong(v);
                case Short v -> w.putInt(SHORT).putLong(v);
                case Integer v -> w.putInt(INT).putLong(v);
                case Long v -> w.putInt(LONG).putLong(v);
                case Float v -> w.putInt(FLOAT).putDouble(v);
                case Double v -> w.putInt(DOUBLE).putDouble(v);
                default -> throw new BackendException("a launch on another rank cannot take " + a + ": its pointer "
                        + "arguments must be buffers of that rank's devices");
            }
        }
    }

    static Object[] readArguments(WireReader r, ObjectTable objects) {
        Object[] arguments = new Object[r.getInt()];
        for (int i = 0; i < arguments.length; i++) {
            int type = r.getInt();
            arguments[i] = switch (type) {
                case BUFFER -> objects.get(r.getLong(), DeviceBuffer.class);
                case OFFSET -> new BufferOffset(objects.get(r.getLong(), DeviceBuffer.class), r.getLong());
                case BYTE -> (byte) r.getLong();
                case SHORT -> (short) r.getLong();
                case INT -> (int) r.getLong();
                case LONG -> r.getLong();
                case FLOAT -> (float) r.getDouble();
                default -> r.getDouble();
            };
        }
        return arguments;
    }

    static void writeReadOnly(WireWriter w, ReadOnlyParameters p, int count) {
        w.putInt(p.isEmpty() ? 0 : count);
        for (int i = 0; !p.isEmpty() && i < count; i++) {
            w.putBoolean(p.isReadOnly(i));
            w.putString(p.isReadOnly(i) ? p.name(i) : "").putInt(p.isReadOnly(i) ? p.elementBytes(i) : 0);
        }
    }

    static ReadOnlyParameters readReadOnly(WireReader r) {
        int n = r.getInt();
        List<String> names = new ArrayList<>();
        List<Boolean> flags = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            flags.add(r.getBoolean());
            names.add(r.getString());
            sizes.add(r.getInt());
        }
        return n == 0 ? ReadOnlyParameters.NONE : ReadOnlyParameters.of(names, flags, sizes);
    }

    static void writeProperties(WireWriter w, DeviceProperties p) {
        w.putString(p.name()).putInt(p.computeMajor()).putInt(p.computeMinor()).putLong(p.totalMemory())
                .putInt(p.multiprocessors()).putInt(p.clockKhz()).putInt(p.maxThreadsPerBlock())
                .putInt(p.maxSharedMemoryPerBlock()).putInt(p.warpSize());
    }

    static DeviceProperties readProperties(WireReader r) {
        return new DeviceProperties(r.getString(), r.getInt(), r.getInt(), r.getLong(), r.getInt(), r.getInt(),
                r.getInt(), r.getInt(), r.getInt());
    }

    static void writeOperation(WireWriter w, TimedOperation o) {
        w.putInt(o.device()).putInt(o.stream()).putInt(o.kind().ordinal());
        writeLabel(w, o.label());
        w.putLong(o.startNanos()).putLong(o.endNanos()).putLong(o.bytes()).putInt(o.source())
                .putLong(o.aloneNanos()).putLong(o.workNanos());
    }

    /** An operation of a rank whose devices start at global index {@code first}. */
    static TimedOperation readOperation(WireReader r, int first) {
        int device = r.getInt() + first;
        int stream = r.getInt();
        TimedOperation.Kind kind = TimedOperation.Kind.values()[r.getInt()];
        OperationLabel label = readLabel(r);
        long start = r.getLong();
        long end = r.getLong();
        long bytes = r.getLong();
        int source = r.getInt();
        return new TimedOperation(device, stream, kind, label, start, end, bytes, source < 0 ? source
                : source + first, r.getLong(), r.getLong());
    }
}
