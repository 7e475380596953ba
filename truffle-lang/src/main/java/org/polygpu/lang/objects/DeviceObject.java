package org.polygpu.lang.objects;

import java.util.Arrays;

import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * One device in use ({@code getdevice(k)}, {@code getdevices()[k]}). Members: {@code id}, {@code properties} (a
 * {@link DevicePropertiesObject}) and, as shortcuts, every property by its camelCase name ({@code deviceName},
 * {@code totalDeviceMemory}, {@code freeDeviceMemory}, ...). Immutable.
 */
@ExportLibrary(InteropLibrary.class)
public final class DeviceObject extends GuestObject {
    private final PolygpuRuntime runtime;
    private final int id;

    public DeviceObject(PolygpuRuntime runtime, int id) {
        this.runtime = runtime;
        this.id = id;
    }

    @ExportMessage
    boolean hasMembers() {
        return true;
    }

    @ExportMessage
    @TruffleBoundary
    Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        Object[] properties = DeviceProperty.names();
        Object[] names = Arrays.copyOf(new Object[] {"id", "properties"}, 2 + properties.length);
        System.arraycopy(properties, 0, names, 2, properties.length);
        return new ListObject(names);
    }

    @ExportMessage
    @TruffleBoundary
    boolean isMemberReadable(String member) {
        return member.equals("id") || member.equals("properties") || DeviceProperty.of(member) != null;
    }

    @ExportMessage
    @TruffleBoundary
    Object readMember(String member) throws UnknownIdentifierException {
        if (member.equals("id")) {
            return id;
        }
        if (member.equals("properties")) {
            return new DevicePropertiesObject(runtime, id);
        }
        DeviceProperty p = DeviceProperty.of(member);
        if (p == null) {
            throw UnknownIdentifierException.create(member);
        }
        return p.read(runtime, id);
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "Device(id=" + id + ", " + DeviceProperty.deviceName.read(runtime, id) + ")";
    }
}
