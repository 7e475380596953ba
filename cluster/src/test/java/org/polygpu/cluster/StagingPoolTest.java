package org.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.backend.Backend;

class StagingPoolTest {
    private final List<Long> allocated = new ArrayList<>();
    private final List<Long> freed = new ArrayList<>();
    /** A backend that only allocates and frees host memory, recording the sizes. */
    private final Backend backend = (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(),
            new Class<?>[] {Backend.class}, (proxy, method, args) -> switch (method.getName()) {
                case "allocateHost" -> {
                    allocated.add((Long) args[0]);
                    yield Arena.ofAuto().allocate((Long) args[0]);
                }
                case "freeHost" -> {
                    freed.add(((MemorySegment) args[0]).byteSize());
                    yield null;
                }
                default -> throw new UnsupportedOperationException(method.getName());
            });

    @Test
    void aBufferGivenBackIsTakenAgainForACopyOfASimilarSize() {
        StagingPool pool = new StagingPool(backend);
        MemorySegment first = pool.take(1 << 20);
        pool.give(first);
        assertSame(first, pool.take(600_000));
        pool.give(first);
        MemorySegment small = pool.take(1000); // far smaller: a buffer of its own, not the 1 MiB one
        assertEquals(List.of(1L << 20, 1000L), allocated);
        assertEquals(1000, small.byteSize());
        assertEquals(1 << 20, pool.keptBytes());
    }

    @Test
    void atMostTheKeptBytesAreKeptAndCloseFreesThem() {
        StagingPool pool = new StagingPool(backend);
        MemorySegment a = pool.take(StagingPool.KEPT_BYTES);
        MemorySegment b = pool.take(StagingPool.KEPT_BYTES);
        pool.give(a);
        pool.give(b);
        assertEquals(List.of(StagingPool.KEPT_BYTES), freed);
        pool.close();
        assertEquals(List.of(StagingPool.KEPT_BYTES, StagingPool.KEPT_BYTES), freed);
        assertEquals(0, pool.keptBytes());
        assertEquals(1, pool.take(0).byteSize());
    }

    /** The direct path's tests make every staged copy fail: a pool that refuses allocates nothing. */
    @Test
    void aPoolThatRefusesFailsEveryTakeNamingTheHook() {
        StagingPool pool = new StagingPool(backend, true);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.take(4096));
        assertTrue(e.getMessage().contains("4096 bytes of pinned host memory"), e.getMessage());
        assertTrue(e.getMessage().contains("polygpu.cluster.testRefuseStaging"), e.getMessage());
        assertEquals(List.of(), allocated);
    }
}
