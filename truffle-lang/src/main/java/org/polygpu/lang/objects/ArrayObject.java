package org.polygpu.lang.objects;

import org.polygpu.array.DeviceArray;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A device array as guest code sees it: the whole array in one or more dimensions, or a view of part of a
 * multi-dimensional one. This class exports what the three kinds share: array elements that cannot be inserted,
 * the members of {@link ArrayMember} and the display string; each subclass exports its size and its element reads
 * and writes (the 1-D array also its bytes as a buffer), and says how it displays in {@link #describe()}.
 *
 * <p>The members act on the whole array, so only the objects that stand for it ({@link #isWhole()}) have them; a
 * view has none, so guest code cannot free or bulk-copy a whole array through a part of it. Immutable apart from the
 * runtime array's own state; every message reaches that state with one runtime call.
 */
@ExportLibrary(InteropLibrary.class)
abstract sealed class ArrayObject extends GuestObject
        permits DeviceArrayObject, MultiDimArrayObject, MultiDimViewObject {
    final PolygpuRuntime runtime;
    final DeviceArray array;

    ArrayObject(PolygpuRuntime runtime, DeviceArray array) {
        this.runtime = runtime;
        this.array = array;
    }

    /** Whether this object stands for the whole array rather than a view of part of it. */
    abstract boolean isWhole();

    /** The display string ({@code toDisplayString}), computed when asked. */
    abstract String describe();

    /** @throws PolygpuException when the array was freed */
    final void checkLive() {
        ArrayObjects.checkLive(array);
    }

    @ExportMessage
    final boolean hasArrayElements() {
        return true;
    }

    @ExportMessage
    final boolean isArrayElementInsertable(@SuppressWarnings("unused") long index) {
        return false;
    }

    // The element messages each kind answers for itself; declared here so that the processor refuses a kind that
    // does not export them.

    @ExportMessage
    abstract long getArraySize();

    @ExportMessage
    abstract boolean isArrayElementReadable(long index);

    @ExportMessage
    abstract boolean isArrayElementModifiable(long index);

    @ExportMessage
    abstract Object readArrayElement(long index) throws InvalidArrayIndexException;

    @ExportMessage
    abstract void writeArrayElement(long index, Object value) throws InvalidArrayIndexException;

    @ExportMessage
    final boolean hasMembers() {
        return isWhole();
    }

    @ExportMessage
    final Object getMembers(@SuppressWarnings("unused") boolean includeInternal) throws UnsupportedMessageException {
        if (!isWhole()) {
            throw UnsupportedMessageException.create();
        }
        return ArrayMember.names();
    }

    @ExportMessage(name = "isMemberReadable")
    @ExportMessage(name = "isMemberInvocable")
    final boolean isMember(String member) {
        return isWhole() && ArrayMember.of(member) != null;
    }

    @ExportMessage
    final Object readMember(String member) throws UnsupportedMessageException, UnknownIdentifierException {
        ArrayMember m = lookUp(member);
        return m == ArrayMember.IS_MEMORY_FREED ? new FreedFlagObject(array)
                : new BoundMethodObject(this, m.guestName());
    }

    @ExportMessage
    final Object invokeMember(String member, Object[] arguments)
            throws UnsupportedMessageException, UnknownIdentifierException {
        return lookUp(member).invoke(this, arguments);
    }

    private ArrayMember lookUp(String member) throws UnsupportedMessageException, UnknownIdentifierException {
        if (!isWhole()) {
            throw UnsupportedMessageException.create();
        }
        ArrayMember m = ArrayMember.of(member);
        if (m == null) {
            throw UnknownIdentifierException.create(member);
        }
        return m;
    }

    @ExportMessage
    @TruffleBoundary
    final Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return describe();
    }
}
