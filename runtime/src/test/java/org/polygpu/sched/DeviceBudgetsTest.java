package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.testing.NoWorkBackend;
import org.polygpu.sched.spi.LocationSet;

class DeviceBudgetsTest {
    private static DeviceArray array(long id, long elements) {
        return new DeviceArray(id, ElementType.FLOAT, new long[] {elements}, 2);
    }

    @Test
    void chargesAndReleasesCountAgainstEachDevicesBudget() {
        DeviceBudgets b = new DeviceBudgets(1000, 2000);
        DeviceArray x = array(0, 100);
        DeviceArray y = array(1, 50);
        b.charge(0, x);
        b.charge(1, x);
        b.charge(0, y);
        assertEquals(List.of(400L, 1600L), List.of(b.free(0), b.free(1)));
        b.release(0, x);
        b.release(0, x);
        assertEquals(800, b.free(0));
        assertEquals(List.of(LocationSet.of(0, 1), LocationSet.of(1), LocationSet.EMPTY),
                List.of(b.devicesWithFree(800), b.devicesWithFree(801), b.devicesWithFree(1601)));
        assertThrows(IllegalStateException.class, () -> b.charge(1, x));
    }

    /** Allocation counts as a use; a later use moves an array to the most recent end. */
    @Test
    void arraysAreListedLeastRecentlyUsedFirst() {
        DeviceBudgets b = new DeviceBudgets(10_000);
        DeviceArray x = array(0, 1);
        DeviceArray y = array(1, 1);
        DeviceArray z = array(2, 1);
        b.charge(0, x);
        b.charge(0, y);
        b.charge(0, z);
        b.touch(0, x);
        assertEquals(List.of(y, z, x), b.leastRecentlyUsed(0));
        b.release(0, z);
        b.touch(0, z);
        assertEquals(List.of(y, x), b.leastRecentlyUsed(0));
    }

    @Test
    void theBudgetIsWhatTheBackendLetsReplicasUseAndUnlimitedNeverEvicts() {
        try (NoWorkBackend backend = new NoWorkBackend(2)) {
            DeviceBudgets b = DeviceBudgets.of(backend, 2);
            assertEquals(backend.freeMemory(1), b.capacity(1));
            assertTrue(b.isLimited(0));
        }
        assertFalse(new DeviceBudgets(Long.MAX_VALUE).isLimited(0));
    }
}
