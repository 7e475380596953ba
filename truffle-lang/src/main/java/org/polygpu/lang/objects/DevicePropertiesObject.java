package org.polygpu.lang.objects;

import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/** The properties of one device by camelCase name ({@code maxThreadsPerBlock}, ...), read when asked. Immutable. */
@ExportLibrary(InteropLibrary.class)
public final class DevicePropertiesObject extends GuestObject {
    private final PolygpuRuntime runtime;
    private final int id;

    DevicePropertiesObject(PolygpuRuntime runtime, int id) {
        this.runtime = runtime;
        this.id = id;
    }

    @ExportMessage
    boolean hasMembers() {
        return true;
    }

    @ExportMessage
    Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return new ListObject(DeviceProperty.names());
    }

    @ExportMessage
    @TruffleBoundary
    boolean isMemberReadable(String member) {
        return DeviceProperty.of(member) != null;
    }

    @ExportMessage
    @TruffleBoundary
    Object readMember(String member) throws UnknownIdentifierException {
        DeviceProperty p = DeviceProperty.of(member);
        if (p == null) {
            throw UnknownIdentifierException.create(member);
        }
        return p.read(runtime, id);
    }

    @ExportMessage
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "DeviceProperties(id=" + id + ")";
    }
}
