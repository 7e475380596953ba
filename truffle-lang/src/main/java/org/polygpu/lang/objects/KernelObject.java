package org.polygpu.lang.objects;

import org.polygpu.backend.Dim3;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.UserStream;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A kernel from {@code buildkernel} or {@code bindkernel}. Calling it with {@code (grid, block[, sharedMemBytes][,
 * stream])} (each of grid and block an integer or a list of 1 to 3 integers, the stream one from
 * {@code cudaStreamCreate()}) gives a {@link ConfiguredKernelObject} that
 * launches on its next call. Members: {@code name} (as declared), {@code ptx}, {@code launchCount}, and the method
 * {@code setSymbol} ({@link KernelSymbols}). The launch count lives in the runtime's kernel; the PTX is asked of the
 * runtime on first request.
 */
@ExportLibrary(InteropLibrary.class)
public final class KernelObject extends GuestObject {
    final PolygpuRuntime runtime;
    final Kernel kernel;
    private final String name;
    private Object ptx;

    public KernelObject(PolygpuRuntime runtime, Kernel kernel, String name) {
        this.runtime = runtime;
        this.kernel = kernel;
        this.name = name;
    }

    /** The PTX as the runtime gives it on first request (null when the module has none, such as a CUBIN). */
    @TruffleBoundary
    private Object ptx() {
        if (ptx == null) {
            ptx = runtime.ptx(kernel).map(Object.class::cast).orElse(NullObject.INSTANCE);
        }
        return ptx;
    }

    String name() {
        return name;
    }

    @ExportMessage
    boolean isExecutable() {
        return true;
    }

    @ExportMessage
    @TruffleBoundary
    Object execute(Object[] arguments) {
        if (arguments.length < 2 || arguments.length > 4) {
            throw PolygpuException.arity("kernel " + name + " configuration (grid, block[, sharedMemBytes][, stream])",
                    "2 to 4", arguments.length);
        }
        Dim3 grid = dim3(arguments[0], "grid");
        Dim3 block = dim3(arguments[1], "block");
        // As in GrCUDA: a third item is the shared memory when it is a number, else the stream; a fourth the stream.
        boolean sharedGiven = arguments.length == 4
                || arguments.length == 3 && InteropLibrary.getUncached().isNumber(arguments[2]);
        int shared = sharedGiven
                ? GuestValues.integer(arguments[2], "kernel " + name, "sharedMemBytes", 0, Integer.MAX_VALUE) : 0;
        boolean streamGiven = arguments.length == 4 || arguments.length == 3 && !sharedGiven;
        UserStream stream = streamGiven
                ? HandleObject.stream(arguments[arguments.length - 1], "kernel " + name, "stream") : null;
        return new ConfiguredKernelObject(this, new LaunchConfig(grid, block, shared), stream);
    }

    private Dim3 dim3(Object value, String parameter) {
        String function = "kernel " + name;
        InteropLibrary interop = InteropLibrary.getUncached(value);
        if (!interop.hasArrayElements(value)) {
            return Dim3.of(GuestValues.integer(value, function, parameter, 1, Integer.MAX_VALUE));
        }
        try {
            long size = interop.getArraySize(value);
            if (size < 1 || size > 3) {
                throw PolygpuException.wrongType(function, parameter, "an integer or 1 to 3 integers",
                        size + " values");
            }
            int[] d = {1, 1, 1};
            for (int i = 0; i < size; i++) {
                d[i] = GuestValues.integer(interop.readArrayElement(value, i), function, parameter, 1,
                        Integer.MAX_VALUE);
            }
            return new Dim3(d[0], d[1], d[2]);
        } catch (InteropException e) {
            throw PolygpuException.wrongType(function, parameter, "an integer or 1 to 3 integers",
                    GuestValues.describe(value));
        }
    }

    @ExportMessage
    boolean hasMembers() {
        return true;
    }

    @ExportMessage
    Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return new ListObject("name", "ptx", "launchCount", KernelSymbols.MEMBER);
    }

    @ExportMessage
    boolean isMemberReadable(String member) {
        return switch (member) {
            case "name", "ptx", "launchCount", KernelSymbols.MEMBER -> true;
            default -> false;
        };
    }

    @ExportMessage
    boolean isMemberInvocable(String member) {
        return member.equals(KernelSymbols.MEMBER);
    }

    @ExportMessage
    Object invokeMember(String member, Object[] arguments) throws UnknownIdentifierException {
        if (!member.equals(KernelSymbols.MEMBER)) {
            throw UnknownIdentifierException.create(member);
        }
        return KernelSymbols.set(this, arguments);
    }

    @ExportMessage
    Object readMember(String member) throws UnknownIdentifierException {
        return switch (member) {
            case "name" -> name;
            case "ptx" -> ptx();
            case "launchCount" -> kernel.launchCount();
            case KernelSymbols.MEMBER -> new BoundMethodObject(this, KernelSymbols.MEMBER);
            default -> throw UnknownIdentifierException.create(member);
        };
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "kernel " + name + kernel.parameters().toString().replace('[', '(').replace(']', ')');
    }
}
