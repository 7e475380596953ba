package org.polygpu.lang.objects;

import org.polygpu.lang.PolygpuException;
import org.polygpu.sched.UserEvent;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * An event the program created ({@code cudaEventCreate()}), passed to the CUDA functions that take one. Like
 * GrCUDA's, it is a native pointer;
 * its value is an opaque handle, unique among the context's streams and events, that only polygpu's functions
 * understand. Members: {@code id} and {@code device}. Immutable apart from the event's own state.
 */
@ExportLibrary(InteropLibrary.class)
public final class EventObject extends GuestObject {
    private final UserEvent event;

    public EventObject(UserEvent event) {
        this.event = event;
    }

    /**
     * The event {@code value} stands for.
     *
     * @throws PolygpuException naming {@code function} and {@code parameter} when it is not an event
     */
    public static UserEvent event(Object value, String function, String parameter) {
        if (value instanceof EventObject s) {
            return s.event;
        }
        throw PolygpuException.wrongType(function, parameter, "an event from cudaEventCreate()",
                GuestValues.describe(value));
    }

    @ExportMessage
    boolean isPointer() {
        return true;
    }

    @ExportMessage
    long asPointer() {
        return event.id();
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
            case "id" -> event.id();
            case "device" -> event.device();
            default -> throw UnknownIdentifierException.create(member);
        };
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return event.isDestroyed() ? event + " (destroyed)" : event.toString();
    }
}
