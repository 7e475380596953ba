package org.polygpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * A scripted {@link CudaDriverApi}: every function returns {@code CUDA_SUCCESS} unless a behaviour was given for it
 * by method name; {@code getErrorName} answers like a real driver (the C name of the codes {@link CuResult} lists,
 * {@code CUDA_ERROR_INVALID_VALUE} for others) unless scripted too.
 */
final class FakeCudaDriverApi implements InvocationHandler {
    private static final Arena NAMES = Arena.ofAuto();

    private final Map<String, ToIntFunction<Object[]>> behaviours = new HashMap<>();
    /** How often each function was called, by method name. */
    private final Map<String, Integer> calls = new HashMap<>();

    /** Makes {@code method} return {@code code}. */
    FakeCudaDriverApi returning(String method, int code) {
        behaviours.put(method, args -> code);
        return this;
    }

    /** Makes {@code method} run {@code behaviour} on its arguments and return what it returns. */
    FakeCudaDriverApi on(String method, ToIntFunction<Object[]> behaviour) {
        behaviours.put(method, behaviour);
        return this;
    }

    /** Makes {@code method} store {@code value} as an int in its first (output) argument and succeed. */
    FakeCudaDriverApi writingInt(String method, int value) {
        return on(method, args -> {
            ((MemorySegment) args[0]).reinterpret(4).set(JAVA_INT, 0, value);
            return 0;
        });
    }

    CudaDriverApi api() {
        return (CudaDriverApi) Proxy.newProxyInstance(CudaDriverApi.class.getClassLoader(),
                new Class<?>[] {CudaDriverApi.class}, this);
    }

    /** How often each function was called since the last {@link #resetCalls}, by method name. */
    Map<String, Integer> calls() {
        return Map.copyOf(calls);
    }

    void resetCalls() {
        calls.clear();
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
        calls.merge(method.getName(), 1, Integer::sum);
        ToIntFunction<Object[]> behaviour = behaviours.get(method.getName());
        if (behaviour != null) {
            return behaviour.applyAsInt(args);
        }
        if (method.getName().equals("getErrorName")) {
            return errorName((int) args[0], (MemorySegment) args[1]);
        }
        return 0;
    }

    /** What a real driver does: the static name of a known code, CUDA_ERROR_INVALID_VALUE for others. */
    static int errorName(int code, MemorySegment nameOut) {
        return CuResult.of(code).map(r -> {
            nameOut.reinterpret(8).set(ADDRESS, 0, NAMES.allocateFrom(r.name()));
            return 0;
        }).orElse(CuResult.CUDA_ERROR_INVALID_VALUE.code());
    }
}
