package org.polygpu.lang.parser;

import org.polygpu.lang.PolygpuException;

import com.oracle.truffle.api.source.Source;

/**
 * Makes syntax errors for one text: as a {@link PolygpuException} with the source location for {@code eval}
 * sources, or as an {@link IllegalArgumentException} naming the column for kernel signatures given as strings.
 */
abstract class SyntaxErrors {
    abstract RuntimeException at(int index, int length, String what);

    /** Errors located in an {@code eval} source. */
    static SyntaxErrors of(Source source) {
        return new SyntaxErrors() {
            @Override
            RuntimeException at(int index, int length, String what) {
                return PolygpuException.syntaxError(source, index, length, what);
            }
        };
    }

    /** Errors in a signature string, quoting it. */
    static SyntaxErrors of(String what, String text) {
        return new SyntaxErrors() {
            @Override
            RuntimeException at(int index, int length, String message) {
                return new IllegalArgumentException("invalid " + what + " \"" + text + "\" at column " + (index + 1)
                        + ": " + message);
            }
        };
    }
}
