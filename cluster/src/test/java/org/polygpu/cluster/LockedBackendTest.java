package org.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.polygpu.backend.Backend;
import org.polygpu.backend.EventHandle;

class LockedBackendTest {
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final AtomicInteger queriesUntilDone = new AtomicInteger(3);
    private final EventHandle event = () -> 0;
    private final MemorySegment pointer = Arena.ofAuto().allocate(8);

    private Backend backend(Backend.Clock clock) {
        return (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(), new Class<?>[] {Backend.class},
                (proxy, method, args) -> {
                    calls.add(method.getName());
                    return switch (method.getName()) {
                        case "clock" -> clock;
                        case "queryEvent" -> queriesUntilDone.decrementAndGet() <= 0;
                        case "deviceCount" -> 1;
                        case "deviceAddressing" -> Backend.DeviceAddressing.HOST_MEMORY;
                        case "devicePointer" -> pointer;
                        default -> null;
                    };
                });
    }

    /** On a real clock a wait polls the event, and other threads' calls go through meanwhile. */
    @Test
    void onARealClockAWaitPollsWithoutHoldingTheLock() throws Exception {
        queriesUntilDone.set(Integer.MAX_VALUE);
        LockedBackend locked = new LockedBackend(backend(Backend.Clock.REAL));
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> locked.synchronizeEvent(event));
        while (calls.stream().noneMatch("queryEvent"::equals)) {
            Thread.onSpinWait();
        }
        assertEquals(1, locked.deviceCount()); // not held back by the wait
        queriesUntilDone.set(0);
        waiting.get(5, TimeUnit.SECONDS);
        assertTrue(calls.stream().noneMatch("synchronizeEvent"::equals), calls.toString());
    }

    /** On a virtual clock the wait is the backend's own, which runs the simulation. */
    @Test
    void onAVirtualClockTheBackendSynchronises() {
        LockedBackend locked = new LockedBackend(backend(Backend.Clock.VIRTUAL));
        locked.synchronizeEvent(event);
        assertEquals(List.of("clock", "synchronizeEvent"), calls);
    }

    /** The direct path asks the wrapped backend what its device pointers address, and for them. */
    @Test
    void devicePointersAreTheWrappedBackends() {
        LockedBackend locked = new LockedBackend(backend(Backend.Clock.VIRTUAL));
        assertEquals(Backend.DeviceAddressing.HOST_MEMORY, locked.deviceAddressing());
        assertSame(pointer, locked.devicePointer(null));
        assertEquals(List.of("deviceAddressing", "devicePointer"), calls);
    }

    /**
     * Every method the Backend interface gives a default for is forwarded: a default left in place would answer for
     * the wrapped backend (no pending faults, one event per computation, cancel as close) whatever it says.
     */
    @Test
    void everyDefaultMethodIsForwarded() {
        List<String> missing = java.util.Arrays.stream(Backend.class.getMethods()).filter(Method::isDefault)
                .filter(m -> {
                    try {
                        LockedBackend.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
                        return false;
                    } catch (NoSuchMethodException e) {
                        return true;
                    }
                }).map(Method::toString).toList();
        assertEquals(List.of(), missing);
    }

    @Test
    void faultsEventsAndCancelAreTheWrappedBackends() {
        LockedBackend locked = new LockedBackend(backend(Backend.Clock.VIRTUAL));
        locked.cancel();
        assertEquals(List.of("cancel"), calls);
    }
}
