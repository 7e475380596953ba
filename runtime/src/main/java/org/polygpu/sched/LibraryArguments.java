package org.polygpu.sched;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.polygpu.array.Access;
import org.polygpu.array.ArrayAccess;
import org.polygpu.array.ArrayOffset;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.Elements;

/**
 * Checks the arguments of a host function or library routine against its declared parameters, and lists the arrays
 * they use: a {@link DeviceArray} (or an {@link ArrayOffset} into one) for each pointer parameter, or for a host
 * function also a {@link MemorySegment} of host memory, which the scheduler does not track; a scalar for each other
 * parameter. Stateless.
 */
final class LibraryArguments {
    private LibraryArguments() {
    }

    /**
     * The arguments, scalars converted to their parameter types when {@code convertScalars}.
     *
     * @throws IllegalArgumentException naming the function and parameter of an argument that does not fit
     */
    static Object[] bind(String function, List<Parameter> params, Object[] args, boolean hostMemoryAllowed,
                         boolean convertScalars) {
        if (args.length != params.size()) {
            throw new IllegalArgumentException(function + " expects " + params.size() + " arguments, got "
                    + args.length);
        }
        Object[] bound = args.clone();
        for (int i = 0; i < args.length; i++) {
            Parameter p = params.get(i);
            Object arg = args[i];
            String which = "argument " + (i + 1) + " of " + function + " for parameter '" + p + "'";
            if (p.pointer()) {
                if (hostMemoryAllowed && arg instanceof MemorySegment) {
                    continue;
                }
                DeviceArray a = arg instanceof ArrayOffset o ? o.array() : arg instanceof DeviceArray d ? d : null;
                if (a == null) {
                    throw new IllegalArgumentException(which + " must be a device array, got "
                            + Elements.describe(arg));
                }
                if (a.isFreed()) {
                    throw new IllegalArgumentException(which + ": " + a + " was freed");
                }
                if (p.type() != null && p.type() != a.elementType()) {
                    throw new IllegalArgumentException(which + " expects pointer " + p.type().cName() + ", got " + a);
                }
            } else if (convertScalars) {
                try {
                    bound[i] = Elements.toKernelScalar(arg, p.type());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(which + ": " + e.getMessage(), e);
                }
            }
        }
        return bound;
    }

    /** Each array of {@code args} once, with the access modes of its parameters merged. */
    static ArrayAccess[] accesses(List<Parameter> params, Object[] args) {
        Map<DeviceArray, Access> modes = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            DeviceArray a = array(args[i]);
            if (a != null && params.get(i).pointer()) {
                modes.merge(a, params.get(i).access(), Access::merge);
            }
        }
        List<ArrayAccess> out = new ArrayList<>(modes.size());
        modes.forEach((a, m) -> out.add(new ArrayAccess(a, m)));
        return out.toArray(ArrayAccess[]::new);
    }

    /** The array an argument points into, or null. */
    static DeviceArray array(Object arg) {
        return arg instanceof ArrayOffset o ? o.array() : arg instanceof DeviceArray d ? d : null;
    }
}
