package org.polygpu.lang.builtins;

import java.util.Arrays;

import org.polygpu.array.ElementType;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.ArrayObjects;
import org.polygpu.lang.objects.BuiltinObject;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.parser.TypeNames;

import com.oracle.truffle.api.interop.InteropLibrary;

/**
 * {@code DeviceArray(type, d1[, d2...][, 'C'|'F'])}: a new zero-filled array, multi-dimensional in row-major (C,
 * default) or column-major (F) order with more than one size. {@code DeviceArray(type)} returns a function of the
 * sizes.
 */
final class DeviceArrayBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE =
            new BuiltinSignature("DeviceArray", 1, BuiltinSignature.VARIADIC,
                    "DeviceArray(type, n...[, \"C\"|\"F\"])", "A new zero-filled array of n elements of "
                    + "type (float, double, sint32, ...), multi-dimensional with several sizes, row-major (C, the "
                    + "default) or column-major (F); DeviceArray(type) alone returns a function of the sizes.");

    private final PolygpuRuntime runtime;

    DeviceArrayBuiltin(PolygpuRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public BuiltinSignature signature() {
        return SIGNATURE;
    }

    @Override
    public Object call(Object[] arguments) {
        ElementType type = elementType(GuestValues.string(arguments[0], name(), "type"));
        if (arguments.length == 1) {
            BuiltinSignature ofSizes = new BuiltinSignature("DeviceArray(" + type.cName() + ")", 1,
                    BuiltinSignature.VARIADIC, "DeviceArray(" + type.cName() + ")(n...)", "A new array of the type.");
            return new BuiltinObject(new Builtin() {
                @Override
                public BuiltinSignature signature() {
                    return ofSizes;
                }

                @Override
                public Object call(Object[] sizes) {
                    return allocate(type, sizes);
                }
            });
        }
        return allocate(type, Arrays.copyOfRange(arguments, 1, arguments.length));
    }

    static ElementType elementType(String name) {
        try {
            return TypeNames.elementType(name);
        } catch (IllegalArgumentException e) {
            throw PolygpuException.badValue("DeviceArray: " + e.getMessage());
        }
    }

    private Object allocate(ElementType type, Object[] sizesAndOrder) {
        int n = sizesAndOrder.length;
        boolean columnMajor = false;
        Object last = sizesAndOrder[n - 1];
        if (last instanceof String || InteropLibrary.getUncached().isString(last)) {
            String order = GuestValues.string(last, name(), "order");
            if (!order.equals("C") && !order.equals("F")) {
                throw PolygpuException.wrongType(name(), "order", "'C' or 'F'", "'" + order + "'");
            }
            columnMajor = order.equals("F");
            n--;
        }
        if (n == 0) {
            throw PolygpuException.arity(name(), "a type and at least one size", sizesAndOrder.length + 1);
        }
        long[] sizes = new long[n];
        for (int i = 0; i < n; i++) {
            sizes[i] = GuestValues.integer(sizesAndOrder[i], name(), "size " + (i + 1));
            if (sizes[i] < 1) {
                throw PolygpuException.wrongType(name(), "size " + (i + 1), "at least 1", Long.toString(sizes[i]));
            }
        }
        return ArrayObjects.allocate(runtime, type, sizes, columnMajor);
    }
}
