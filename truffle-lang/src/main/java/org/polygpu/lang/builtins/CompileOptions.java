package org.polygpu.lang.builtins;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.objects.GuestValues;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.interop.UnsupportedMessageException;

/**
 * The NVRTC options a guest gives {@code buildkernel} ({@code -DN=4}, {@code -I dir}, {@code --std=c++17},
 * {@code -lineinfo}, {@code --use_fast_math}, ...): an array of strings, one option each, or one string of options
 * separated by white space. They are handed to NVRTC unchanged, so a bad option is reported with NVRTC's log; only
 * the architecture is the backend's, which compiles for its devices.
 */
final class CompileOptions {
    private CompileOptions() {
    }

    @TruffleBoundary
    static List<String> of(Object value, String function) {
        InteropLibrary interop = InteropLibrary.getUncached(value);
        if (value instanceof String || interop.isString(value)) {
            String text = GuestValues.string(value, function, "options").strip();
            return text.isEmpty() ? List.of() : Arrays.asList(text.split("\\s+"));
        }
        if (!interop.hasArrayElements(value)) {
            throw PolygpuException.wrongType(function, "options", "an array of strings or a string of NVRTC options",
                    GuestValues.describe(value));
        }
        try {
            long size = interop.getArraySize(value);
            List<String> options = new ArrayList<>();
            for (long i = 0; i < size; i++) {
                options.add(GuestValues.string(interop.readArrayElement(value, i), function, "options[" + i + "]"));
            }
            return List.copyOf(options);
        } catch (UnsupportedMessageException | InvalidArrayIndexException e) {
            throw PolygpuException.wrongType(function, "options", "a readable array of strings",
                    GuestValues.describe(value));
        }
    }
}
