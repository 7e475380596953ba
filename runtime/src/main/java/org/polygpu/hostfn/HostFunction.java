package org.polygpu.hostfn;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;

import org.polygpu.array.ElementType;
import org.polygpu.array.Elements;
import org.polygpu.sched.Parameter;

/**
 * A function of a {@link NativeLibrary} with its declared signature, called through an FFM downcall. Pointer
 * parameters take a {@link MemorySegment} (the address passed to C), scalars a number converted to the parameter's
 * type as for a kernel; the result is boxed ({@code int} as {@code Integer}; {@code unsigned char}, {@code short} and
 * {@code int} widened so they stay non-negative, {@code unsigned long} as the bits of a {@code long}) or null for
 * {@code void}. Immutable and thread-safe; the library stays loaded while the function is reachable.
 */
public final class HostFunction {
    private final String name;
    private final String symbol;
    private final List<Parameter> parameters;
    private final ElementType returnType;
    private final MethodHandle handle;

    private HostFunction(String name, String symbol, List<Parameter> parameters, ElementType returnType,
                         MethodHandle handle) {
        this.name = name;
        this.symbol = symbol;
        this.parameters = parameters;
        this.returnType = returnType;
        this.handle = handle;
    }

    /**
     * Binds {@code symbol} of {@code library}.
     *
     * @param name       the name calls and errors show (the C++ name of a mangled symbol)
     * @param returnType the result type, or null for {@code void}
     * @throws IllegalArgumentException when the library has no such symbol
     */
    public static HostFunction bind(NativeLibrary library, String name, String symbol, List<Parameter> parameters,
                                    ElementType returnType) {
        MemorySegment address = library.find(symbol).orElseThrow(() -> new IllegalArgumentException(
                "the shared library '" + library.name() + "' has no function '" + symbol + "'"
                        + (symbol.equals(name) ? "" : " (" + name + ")")));
        MemoryLayout[] args = parameters.stream().map(p -> p.pointer() ? ValueLayout.ADDRESS : layout(p.type()))
                .toArray(MemoryLayout[]::new);
        FunctionDescriptor descriptor = returnType == null ? FunctionDescriptor.ofVoid(args)
                : FunctionDescriptor.of(layout(returnType), args);
        MethodHandle handle = Linker.nativeLinker().downcallHandle(address, descriptor)
                .asSpreader(Object[].class, parameters.size());
        return new HostFunction(name, symbol, List.copyOf(parameters), returnType, handle);
    }

    private static MemoryLayout layout(ElementType type) {
        return switch (type) {
            case BOOL -> ValueLayout.JAVA_BOOLEAN;
            case CHAR, UCHAR -> ValueLayout.JAVA_BYTE;
            case SHORT, USHORT -> ValueLayout.JAVA_SHORT;
            case INT, UINT -> ValueLayout.JAVA_INT;
            case LONG, ULONG -> ValueLayout.JAVA_LONG;
            case FLOAT -> ValueLayout.JAVA_FLOAT;
            case DOUBLE -> ValueLayout.JAVA_DOUBLE;
        };
    }

    public String name() {
        return name;
    }

    /** The symbol in the library (mangled for a C++ function). */
    public String symbol() {
        return symbol;
    }

    public List<Parameter> parameters() {
        return parameters;
    }

    /** The result type, or null for {@code void}. */
    public ElementType returnType() {
        return returnType;
    }

    /**
     * Calls the function on this thread.
     *
     * @param arguments a {@link MemorySegment} for each pointer parameter, a number (or {@code Boolean}) for each
     *                  scalar
     * @throws IllegalArgumentException naming the parameter whose argument does not fit
     */
    public Object invoke(Object[] arguments) {
        if (arguments.length != parameters.size()) {
            throw new IllegalArgumentException("function " + name + " expects " + parameters.size()
                    + " arguments, got " + arguments.length);
        }
        Object[] converted = new Object[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            converted[i] = convert(i, arguments[i]);
        }
        Object result;
        try {
            result = handle.invoke(converted);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("calling " + name + " failed: " + t, t);
        }
        return returnType == null ? null : widen(result);
    }

    private Object convert(int i, Object argument) {
        Parameter p = parameters.get(i);
        if (p.pointer()) {
            if (argument instanceof MemorySegment s) {
                return s;
            }
            throw new IllegalArgumentException("argument " + (i + 1) + " of " + name + " for parameter '" + p
                    + "' must be a pointer, got " + Elements.describe(argument));
        }
        try {
            Object scalar = Elements.toKernelScalar(argument, p.type());
            return p.type() == ElementType.BOOL ? (Byte) scalar != 0 : scalar;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("argument " + (i + 1) + " of " + name + " for parameter '" + p + "': "
                    + e.getMessage(), e);
        }
    }

    private Object widen(Object result) {
        return switch (returnType) {
            case UCHAR -> Byte.toUnsignedInt((Byte) result);
            case USHORT -> Short.toUnsignedInt((Short) result);
            case UINT -> Integer.toUnsignedLong((Integer) result);
            default -> result;
        };
    }

    @Override
    public String toString() {
        return name;
    }
}
