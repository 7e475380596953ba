package org.polygpu.lang.objects;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.polygpu.lang.PolygpuException;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A namespace of functions and nested namespaces; the root one is {@code CU}, which contains itself. Members are
 * readable and, for functions, invocable ({@code CU.buildkernel(...)}). Filled when the context starts, then
 * never changed.
 */
@ExportLibrary(InteropLibrary.class)
public final class NamespaceObject extends GuestObject {
    private final String qualifiedName;
    private final Map<String, Object> members = new LinkedHashMap<>();

    public NamespaceObject(String qualifiedName) {
        this.qualifiedName = qualifiedName;
    }

    /** Adds a member while the namespace is being built. */
    public void add(String name, Object value) {
        members.put(name, value);
    }

    /** The name as errors show it, {@code ::} for the root. */
    public String qualifiedName() {
        return qualifiedName;
    }

    /** The member called {@code name}, or null. */
    @TruffleBoundary
    public Object lookup(String name) {
        return members.get(name);
    }

    @TruffleBoundary
    public List<String> memberNames() {
        return List.copyOf(members.keySet());
    }

    @ExportMessage
    boolean hasMembers() {
        return true;
    }

    @ExportMessage
    Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return new ListObject(memberNames().toArray());
    }

    @ExportMessage
    @TruffleBoundary
    boolean isMemberReadable(String member) {
        return members.containsKey(member);
    }

    @ExportMessage
    @TruffleBoundary
    Object readMember(String member) throws UnknownIdentifierException {
        Object value = members.get(member);
        if (value == null) {
            throw UnknownIdentifierException.create(member);
        }
        return value;
    }

    @ExportMessage
    @TruffleBoundary
    boolean isMemberInvocable(String member) {
        return members.get(member) instanceof BuiltinObject;
    }

    @ExportMessage
    @TruffleBoundary
    Object invokeMember(String member, Object[] arguments)
            throws UnsupportedMessageException, ArityException, UnsupportedTypeException {
        Object value = members.get(member);
        if (value == null) {
            throw PolygpuException.unknownIdentifier(member, qualifiedName, memberNames());
        }
        return InteropLibrary.getUncached(value).execute(value, arguments);
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "namespace " + qualifiedName;
    }
}
