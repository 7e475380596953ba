package org.polygpu.emulator.ptx;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.ToLongFunction;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.DeviceBuffer;

/**
 * The parameter block of a PTX kernel's launch, packed from the launch arguments and checked against the kernel's
 * parameters: a device buffer (its device address), an offset into one (the address plus the offset) or a
 * {@code Long} for a 64-bit integer parameter, an {@code Integer} for a 32-bit integer, a {@code Short} or
 * {@code Byte} for narrower integers, a {@code Float} for {@code .f32} and a {@code Double} for {@code .f64}. A
 * mismatch names the argument, the parameter and its PTX type.
 */
public final class PtxParameterBlock {
    private PtxParameterBlock() {
    }

    /**
     * @param addressOf the device address of a buffer argument
     * @throws BackendException on a count or type mismatch
     */
    public static byte[] pack(PtxKernel kernel, Object[] arguments, ToLongFunction<DeviceBuffer> addressOf) {
        if (arguments.length != kernel.params().size()) {
            throw new BackendException("kernel '" + kernel.name() + "' takes " + kernel.params().size()
                    + " arguments " + signature(kernel) + " but was launched with " + arguments.length);
        }
        ByteBuffer buffer = ByteBuffer.allocate(kernel.paramBytes()).order(ByteOrder.LITTLE_ENDIAN);
        for (PtxParam p : kernel.params()) {
            Object a = arguments[p.index()];
            long bits = switch (a) {
                case DeviceBuffer b when p.acceptsPointer() -> addressOf.applyAsLong(b);
                case BufferOffset o when p.acceptsPointer() -> addressOf.applyAsLong(o.buffer()) + o.bytes();
                case Long v when p.type().isInteger() && p.size() == 8 -> v;
                case Integer v when p.type().isInteger() && p.size() == 4 -> v;
                case Short v when p.type().isInteger() && p.size() == 2 -> v;
                case Byte v when p.type().isInteger() && p.size() == 1 -> v;
                case Float v when p.type() == PtxType.F32 || (p.type() == PtxType.B32 && p.size() == 4) ->
                        Float.floatToRawIntBits(v);
                case Double v when p.type() == PtxType.F64 || (p.type() == PtxType.B64 && p.size() == 8) ->
                        Double.doubleToRawLongBits(v);
                case null, default -> throw mismatch(kernel, p, a);
            };
            for (int i = 0; i < p.size(); i++) {
                buffer.put(p.offset() + i, (byte) (bits >>> (8 * i)));
            }
        }
        return buffer.array();
    }

    private static BackendException mismatch(PtxKernel kernel, PtxParam p, Object a) {
        String given = a == null ? "null" : a instanceof DeviceBuffer ? "a device buffer"
                : "a " + a.getClass().getSimpleName() + " (" + a + ")";
        return new BackendException("argument " + p.index() + " of kernel '" + kernel.name() + "' is " + given
                + " but parameter " + p.index() + " (" + p.name() + ") is " + p.spelling() + "; expected "
                + expected(p));
    }

    private static String expected(PtxParam p) {
        if (p.size() != p.type().size()) {
            return "nothing: aggregate parameters cannot be passed by the backend";
        }
        return switch (p.type().kind()) {
            case FLOAT -> p.type() == PtxType.F32 ? "a Float" : "a Double";
            default -> switch (p.size()) {
                case 8 -> "a device buffer or a Long";
                case 4 -> p.type() == PtxType.B32 ? "an Integer or a Float" : "an Integer";
                case 2 -> "a Short";
                default -> "a Byte";
            };
        };
    }

    private static String signature(PtxKernel kernel) {
        StringBuilder sb = new StringBuilder("(");
        for (PtxParam p : kernel.params()) {
            sb.append(p.index() == 0 ? "" : ", ").append(p.spelling());
        }
        return sb.append(')').toString();
    }
}
