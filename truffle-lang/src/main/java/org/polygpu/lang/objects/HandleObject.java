package org.polygpu.lang.objects;

import org.polygpu.array.DeviceArray;
import org.polygpu.lang.PolygpuException;
import org.polygpu.sched.ProgramObject;
import org.polygpu.sched.UserEvent;
import org.polygpu.sched.UserStream;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A stream ({@code cudaStreamCreate()}) or an event ({@code cudaEventCreate()}) the program created, passed to the
 * CUDA functions that take one, a stream also as the last item of a kernel's configuration
 * ({@code k(grid, block, stream)}). Like GrCUDA's, it is a native pointer; its value is an opaque handle, unique among
 * the context's streams and events, that only polygpu's functions understand. Members: {@code id} and
 * {@code device}. Immutable apart from the stream's or event's own state.
 */
@ExportLibrary(InteropLibrary.class)
public final class HandleObject extends GuestObject {
    private final ProgramObject object;

    public HandleObject(ProgramObject object) {
        this.object = object;
    }

    /**
     * The stream {@code value} stands for.
     *
     * @throws PolygpuException naming {@code function} and {@code parameter} when it is not a stream
     */
    public static UserStream stream(Object value, String function, String parameter) {
        if (value instanceof HandleObject h && h.object instanceof UserStream s) {
            return s;
        }
        throw PolygpuException.wrongType(function, parameter, "a stream from cudaStreamCreate()",
                GuestValues.describe(value));
    }

    /**
     * The event {@code value} stands for.
     *
     * @throws PolygpuException naming {@code function} and {@code parameter} when it is not an event
     */
    public static UserEvent event(Object value, String function, String parameter) {
        if (value instanceof HandleObject h && h.object instanceof UserEvent e) {
            return e;
        }
        throw PolygpuException.wrongType(function, parameter, "an event from cudaEventCreate()",
                GuestValues.describe(value));
    }

    /**
     * Checks that {@code value} is a whole array, not freed, for the functions that attach memory to a stream.
     *
     * @throws PolygpuException naming {@code function} otherwise
     */
    public static void checkAttachable(Object value, String function) {
        DeviceArray array = ArrayObjects.unwrap(value);
        if (array == null) {
            throw PolygpuException.wrongType(function, "array", "a device array", GuestValues.describe(value));
        }
        ArrayObjects.checkLive(array);
    }

    @ExportMessage
    boolean isPointer() {
        return true;
    }

    @ExportMessage
    long asPointer() {
        return object.id();
    }

    @ExportMessage
    boolean hasMembers() {
        return true;
    }

    @ExportMessage
    Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return new ListObject("id", "device");
    }

    @ExportMessage
    boolean isMemberReadable(String member) {
        return member.equals("id") || member.equals("device");
    }

    @ExportMessage
    Object readMember(String member) throws UnknownIdentifierException {
        return switch (member) {
            case "id" -> object.id();
            case "device" -> object.device();
            default -> throw UnknownIdentifierException.create(member);
        };
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return object.isDestroyed() ? object + " (destroyed)" : object.toString();
    }
}
