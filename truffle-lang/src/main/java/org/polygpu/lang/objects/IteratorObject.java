package org.polygpu.lang.objects;

import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.StopIterationException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/** An iterator over a fixed list of values (hash entries of {@code getoptions()}). Not thread-safe. */
@ExportLibrary(InteropLibrary.class)
public final class IteratorObject extends GuestObject {
    private final Object[] items;
    private int next;

    IteratorObject(Object[] items) {
        this.items = items;
    }

    @ExportMessage
    boolean isIterator() {
        return true;
    }

    @ExportMessage
    boolean hasIteratorNextElement() {
        return next < items.length;
    }

    @ExportMessage
    Object getIteratorNextElement() throws StopIterationException {
        if (next >= items.length) {
            throw StopIterationException.create();
        }
        return items[next++];
    }

    @ExportMessage
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "iterator";
    }
}
