package org.polygpu.lang.objects;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.polygpu.lang.PolygpuLanguage;
import org.polygpu.lang.ContextOptions;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.interop.UnknownKeyException;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * The options of the context ({@code getoptions()}), as members and as a map, as GrCUDA's: keys are option names
 * with or without the {@code polygpu.} prefix ({@code opts.DeviceSelectionPolicy}, {@code opts["NumberOfGPUs"]}),
 * the map's entries iterate with the prefix ({@code ("polygpu.NumberOfGPUs", "2")}), and values are strings;
 * {@code NumberOfGPUs} is the number of GPUs in use. Immutable.
 */
@ExportLibrary(InteropLibrary.class)
public final class OptionsObject extends GuestObject {
    private static final String PREFIX = PolygpuLanguage.ID + ".";

    private final Map<String, String> shown;

    /**
     * @param options     the context's options, shown as they were given ({@link ContextOptions#shown()})
     * @param deviceCount the GPUs in use: {@code NumberOfGPUs} shows it when the option is 0 (all GPUs), since GrCUDA
     *                    programs read the option as the number of GPUs to spread their work over (GrCUDA's default,
     *                    1, is the GPUs it uses)
     */
    public OptionsObject(ContextOptions options, int deviceCount) {
        Map<String, String> values = new LinkedHashMap<>(options.shown());
        values.computeIfPresent("NumberOfGPUs", (name, v) -> v.equals("0") ? String.valueOf(deviceCount) : v);
        this.shown = Collections.unmodifiableMap(values);
    }

    @TruffleBoundary
    private String value(Object key) {
        String name;
        if (key instanceof String s) {
            name = s;
        } else {
            InteropLibrary interop = InteropLibrary.getUncached(key);
            if (!interop.isString(key)) {
                return null;
            }
            try {
                name = interop.asString(key);
            } catch (UnsupportedMessageException e) {
                return null;
            }
        }
        return shown.get(name.startsWith(PREFIX) ? name.substring(PREFIX.length()) : name);
    }

    @ExportMessage
    boolean hasMembers() {
        return true;
    }

    @ExportMessage
    @TruffleBoundary
    Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return new ListObject(shown.keySet().toArray());
    }

    @ExportMessage
    boolean isMemberReadable(String member) {
        return value(member) != null;
    }

    @ExportMessage
    Object readMember(String member) throws UnknownIdentifierException {
        Object v = value(member);
        if (v == null) {
            throw UnknownIdentifierException.create(member);
        }
        return v;
    }

    @ExportMessage
    boolean hasHashEntries() {
        return true;
    }

    @ExportMessage
    long getHashSize() {
        return shown.size();
    }

    @ExportMessage
    boolean isHashEntryReadable(Object key) {
        return value(key) != null;
    }

    @ExportMessage
    Object readHashValue(Object key) throws UnknownKeyException {
        Object v = value(key);
        if (v == null) {
            throw UnknownKeyException.create(key);
        }
        return v;
    }

    @ExportMessage
    @TruffleBoundary
    Object getHashEntriesIterator() {
        Object[] entries = new Object[shown.size()];
        int i = 0;
        for (Map.Entry<String, String> e : shown.entrySet()) {
            entries[i++] = new ListObject(PREFIX + e.getKey(), e.getValue());
        }
        return new IteratorObject(entries);
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "options " + shown;
    }
}
