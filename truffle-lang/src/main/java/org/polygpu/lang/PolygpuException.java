package org.polygpu.lang;

import java.util.Collection;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.exception.AbstractTruffleException;
import com.oracle.truffle.api.interop.ExceptionType;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import com.oracle.truffle.api.source.Source;
import com.oracle.truffle.api.source.SourceSection;

/**
 * The one exception polygpu raises to guest code: every error a host program sees (bad syntax, unknown names, wrong
 * arguments, freed arrays, and whatever the runtime, the backend or NVRTC reported) is one of these, made by a named
 * factory. Hosts see the message unchanged (GraalPy as {@code polyglot.ForeignException}, Java as a
 * {@code PolyglotException}); a syntax error also carries its source location.
 */
@ExportLibrary(InteropLibrary.class)
public final class PolygpuException extends AbstractTruffleException {
    private static final long serialVersionUID = 1L;

    private final transient SourceSection syntaxLocation;

    private PolygpuException(String message, SourceSection syntaxLocation) {
        super(message);
        this.syntaxLocation = syntaxLocation;
    }

    /** A syntax error in an {@code eval} source, at {@code length} characters from {@code charIndex}. */
    @TruffleBoundary
    public static PolygpuException syntaxError(Source source, int charIndex, int length, String what) {
        int index = Math.min(charIndex, source.getLength());
        SourceSection section = source.createSection(index, Math.max(0, Math.min(length, source.getLength() - index)));
        String where = source.getLength() == 0 ? "1:1" : section.getStartLine() + ":" + section.getStartColumn();
        return new PolygpuException("syntax error at " + where + ": " + what, section);
    }

    /** A name that does not exist in {@code namespace}; the message lists the names that do. */
    @TruffleBoundary
    public static PolygpuException unknownIdentifier(String name, String namespace, Collection<String> known) {
        return new PolygpuException("unknown identifier '" + name + "' in namespace " + namespace + "; it has: "
                + String.join(", ", known), null);
    }

    /** A function called with the wrong number of arguments. */
    @TruffleBoundary
    public static PolygpuException arity(String function, String expected, int got) {
        return new PolygpuException(function + " expects " + expected + " arguments, got " + got, null);
    }

    /** An argument of the wrong type, naming the parameter and what it must be. */
    @TruffleBoundary
    public static PolygpuException wrongType(String function, String parameter, String expected, String got) {
        return new PolygpuException(function + ": argument '" + parameter + "' must be " + expected + ", got "
                + got, null);
    }

    /** A value that is well-typed but not acceptable (a bad size, an unknown signature type). */
    @TruffleBoundary
    public static PolygpuException badValue(String what) {
        return new PolygpuException(what, null);
    }

    /** Use of an array after {@code free()}. */
    @TruffleBoundary
    public static PolygpuException freed(String array) {
        return new PolygpuException(array + " was freed", null);
    }

    /** An operation the object does not support, such as writing a non-final dimension of a multi-dim array. */
    @TruffleBoundary
    public static PolygpuException unsupported(String what) {
        return new PolygpuException(what, null);
    }

    /** An option value rejected when the context starts. */
    @TruffleBoundary
    public static PolygpuException badOptions(String message) {
        return new PolygpuException("polygpu cannot start: " + message, null);
    }

    /**
     * A user error reported by the runtime, as the guest sees it: its messages already name the array, parameter,
     * CUDA error or compiler log. Only {@code PolygpuRuntime}'s gate calls this, and only for the runtime's documented
     * user errors; any other exception is a bug and stays an internal error.
     */
    @TruffleBoundary
    public static PolygpuException fromUserError(RuntimeException e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new PolygpuException(message, null);
    }

    @ExportMessage
    ExceptionType getExceptionType() {
        return syntaxLocation != null ? ExceptionType.PARSE_ERROR : ExceptionType.RUNTIME_ERROR;
    }

    @ExportMessage
    boolean hasSourceLocation() {
        return syntaxLocation != null || getLocation() != null && getLocation().getEncapsulatingSourceSection() != null;
    }

    @ExportMessage(name = "getSourceLocation")
    @TruffleBoundary
    SourceSection sourceLocation() throws UnsupportedMessageException {
        if (syntaxLocation != null) {
            return syntaxLocation;
        }
        SourceSection s = getLocation() == null ? null : getLocation().getEncapsulatingSourceSection();
        if (s == null) {
            throw UnsupportedMessageException.create();
        }
        return s;
    }
}
