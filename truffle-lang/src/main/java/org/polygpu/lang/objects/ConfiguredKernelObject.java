package org.polygpu.lang.objects;

import org.polygpu.backend.Dim3;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.sched.Computation;
import org.polygpu.sched.UserStream;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A kernel with its grid, block, shared memory and, when the program gave one, stream: each call launches it with one argument per parameter (device
 * arrays for pointers, numbers or booleans for scalars) and returns this object at once; the runtime schedules the
 * launch. Members {@code device} and {@code stream} tell where the runtime put the last launch (-1 before any).
 * Not thread-safe.
 */
@ExportLibrary(InteropLibrary.class)
public final class ConfiguredKernelObject extends GuestObject {
    private final KernelObject kernel;
    private final LaunchConfig config;
    private final UserStream userStream;
    private int device = -1;
    private int stream = -1;

    /** @param userStream the program's stream to launch on, or null for the one the scheduler chooses */
    ConfiguredKernelObject(KernelObject kernel, LaunchConfig config, UserStream userStream) {
        this.kernel = kernel;
        this.config = config;
        this.userStream = userStream;
    }

    @ExportMessage
    boolean isExecutable() {
        return true;
    }

    @ExportMessage
    Object execute(Object[] arguments) {
        Computation c = userStream == null ? kernel.runtime.launch(kernel.kernel, config, bind(arguments))
                : kernel.runtime.streams().launch(kernel.kernel, config, userStream, bind(arguments));
        device = c.device();
        stream = c.streamId();
        return this;
    }

    @ExportMessage
    boolean hasMembers() {
        return true;
    }

    @ExportMessage
    Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return new ListObject("device", "stream");
    }

    @ExportMessage
    boolean isMemberReadable(String member) {
        return member.equals("device") || member.equals("stream");
    }

    @ExportMessage
    Object readMember(String member) throws UnknownIdentifierException {
        return switch (member) {
            case "device" -> device;
            case "stream" -> stream;
            default -> throw UnknownIdentifierException.create(member);
        };
    }

    /**
     * Whole arrays and offsets into them become their runtime values and every other value a host value; the
     * runtime alone checks them against the signature (arity, pointer or scalar, types and ranges), so users see one
     * wording for every host language.
     */
    @TruffleBoundary
    private static Object[] bind(Object[] arguments) {
        Object[] bound = new Object[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            Object pointer = ArrayObjects.unwrapPointer(arguments[i]);
            bound[i] = pointer != null ? pointer : GuestValues.toHost(arguments[i]);
        }
        return bound;
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "kernel " + kernel.name() + " with grid " + dims(config.grid()) + ", block " + dims(config.block())
                + ", shared memory " + config.sharedMemoryBytes() + " bytes";
    }

    private static String dims(Dim3 d) {
        return "(" + d.x() + ", " + d.y() + ", " + d.z() + ")";
    }
}
