package org.polygpu.lang.objects;

import java.util.Arrays;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.builtins.BuiltinSignature;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * One device in use ({@code getdevice(k)}, {@code getdevices()[k]}). Members: {@code id}, {@code properties} (a
 * {@link DevicePropertiesObject}), the methods {@code isCurrent()} and {@code setCurrent()} (GrCUDA's, for
 * {@code cudaGetDevice} and {@code cudaSetDevice}) and, as shortcuts, every property by its camelCase name
 * ({@code deviceName}, {@code totalDeviceMemory}, {@code freeDeviceMemory}, ...). Immutable.
 */
@ExportLibrary(InteropLibrary.class)
public final class DeviceObject extends GuestObject {
    private static final String IS_CURRENT = "isCurrent";
    private static final String SET_CURRENT = "setCurrent";

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
        Object[] names = Arrays.copyOf(new Object[] {"id", "properties", IS_CURRENT, SET_CURRENT},
                4 + properties.length);
        System.arraycopy(properties, 0, names, 4, properties.length);
        return new ListObject(names);
    }

    @ExportMessage
    @TruffleBoundary
    boolean isMemberReadable(String member) {
        return member.equals("id") || member.equals("properties") || isMemberInvocable(member)
                || DeviceProperty.of(member) != null;
    }

    @ExportMessage
    boolean isMemberInvocable(String member) {
        return member.equals(IS_CURRENT) || member.equals(SET_CURRENT);
    }

    /** {@code isCurrent()}: whether this is the current device; {@code setCurrent()}: {@code cudaSetDevice(id)}. */
    @ExportMessage
    @TruffleBoundary
    Object invokeMember(String member, Object[] arguments) throws UnknownIdentifierException {
        if (!isMemberInvocable(member)) {
            throw UnknownIdentifierException.create(member);
        }
        new BuiltinSignature(member, 0, 0).checkArity(arguments);
        if (member.equals(IS_CURRENT)) {
            return runtime.streams().currentDevice() == id;
        }
        runtime.streams().setCurrentDevice(id);
        return NullObject.INSTANCE;
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
        if (isMemberInvocable(member)) {
            return new BoundMethodObject(this, member);
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
