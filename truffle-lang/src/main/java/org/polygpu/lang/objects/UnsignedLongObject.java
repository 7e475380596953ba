package org.polygpu.lang.objects;

import java.math.BigDecimal;
import java.math.BigInteger;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * An {@code unsigned long} element past {@code Long.MAX_VALUE} (2^63 to 2^64-1), as an exact interop number: it fits
 * in a big integer (Python sees an {@code int}, Java a {@code BigInteger}), and in a double only when the double
 * holds it exactly. Smaller values stay boxed {@code Long}s. Immutable.
 */
@ExportLibrary(InteropLibrary.class)
final class UnsignedLongObject extends GuestObject {
    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

    /** The element's 64 bits, negative as a signed long. */
    private final long bits;

    UnsignedLongObject(long bits) {
        assert bits < 0;
        this.bits = bits;
    }

    @TruffleBoundary
    private BigInteger value() {
        return BigInteger.valueOf(bits).add(TWO_TO_64);
    }

    @ExportMessage
    boolean isNumber() {
        return true;
    }

    @ExportMessage
    boolean fitsInByte() {
        return false;
    }

    @ExportMessage
    boolean fitsInShort() {
        return false;
    }

    @ExportMessage
    boolean fitsInInt() {
        return false;
    }

    @ExportMessage
    boolean fitsInLong() {
        return false;
    }

    @ExportMessage
    boolean fitsInBigInteger() {
        return true;
    }

    @ExportMessage
    @TruffleBoundary
    boolean fitsInFloat() {
        return new BigDecimal((float) doubleValue()).toBigInteger().equals(value());
    }

    @ExportMessage
    @TruffleBoundary
    boolean fitsInDouble() {
        return new BigDecimal(doubleValue()).toBigInteger().equals(value());
    }

    @ExportMessage
    byte asByte() throws UnsupportedMessageException {
        throw UnsupportedMessageException.create();
    }

    @ExportMessage
    short asShort() throws UnsupportedMessageException {
        throw UnsupportedMessageException.create();
    }

    @ExportMessage
    int asInt() throws UnsupportedMessageException {
        throw UnsupportedMessageException.create();
    }

    @ExportMessage
    long asLong() throws UnsupportedMessageException {
        throw UnsupportedMessageException.create();
    }

    @ExportMessage
    BigInteger asBigInteger() {
        return value();
    }

    @ExportMessage
    float asFloat() throws UnsupportedMessageException {
        if (!fitsInFloat()) {
            throw UnsupportedMessageException.create();
        }
        return (float) doubleValue();
    }

    @ExportMessage
    double asDouble() throws UnsupportedMessageException {
        if (!fitsInDouble()) {
            throw UnsupportedMessageException.create();
        }
        return doubleValue();
    }

    /** The nearest double (2^64 - 1 rounds to 2^64). */
    private double doubleValue() {
        return (double) (bits >>> 1) * 2.0 + (bits & 1);
    }

    @Override
    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return value().toString();
    }
}
