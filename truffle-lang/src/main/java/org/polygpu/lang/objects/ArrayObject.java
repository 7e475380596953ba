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
 * <p>The members act on the whole array, so only the objects that stand for it ({@link #isWhole()}) have them all; a
 * view that covers one region of the array ({@link #region()}, such as a row {@code m[i]}) has {@code copyFrom} and
 * {@code copyTo} for its own elements, so guest code cannot free a whole array through a part of it. Immutable apart from the
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

    /** The elements a copy through this object covers, or null when they are not one region (see views). */
    abstract ArrayRegion region();

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

    /** Element {@code index}: a value, or a view one dimension deeper. */
    abstract Object readElement(long index) throws InvalidArrayIndexException;

    abstract void writeElement(long index, Object value) throws InvalidArrayIndexException;

    // The 1-D array overrides these two with specialised exports (its direct host access).

    @ExportMessage
    Object readArrayElement(long index) throws InvalidArrayIndexException {
        return readElement(index);
    }

    @ExportMessage
    void writeArrayElement(long index, Object value) throws InvalidArrayIndexException {
        writeElement(index, value);
    }

    /** Whether guest code can call {@code m}: a whole array has every member, a view that a copy covers two. */
    private boolean has(ArrayMember m) {
        return m != null && (isWhole() || m.onViews() && region() != null);
    }

    @ExportMessage
    final boolean hasMembers() {
        return isWhole() || region() != null;
    }

    @ExportMessage
    final Object getMembers(@SuppressWarnings("unused") boolean includeInternal) throws UnsupportedMessageException {
        if (!hasMembers()) {
            throw UnsupportedMessageException.create();
        }
        return ArrayMember.names(!isWhole());
    }

    @ExportMessage(name = "isMemberReadable")
    @ExportMessage(name = "isMemberInvocable")
    final boolean isMember(String member) {
        return has(ArrayMember.of(member));
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
        if (!hasMembers()) {
            throw UnsupportedMessageException.create();
        }
        ArrayMember m = ArrayMember.of(member);
        if (!has(m)) {
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
