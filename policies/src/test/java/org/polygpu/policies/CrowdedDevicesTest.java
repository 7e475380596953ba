package org.polygpu.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.polygpu.policies.Fixtures.arg;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * The data-aware policies pass over a crowded device (at least 4 busy streams, more than twice the mean) while
 * another candidate is not crowded, even when the crowded one holds all the data.
 */
class CrowdedDevicesTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"min-transfer-size", "minmax-transfer-time", "minmin-transfer-time"})
    void aCrowdedDeviceHoldingTheDataIsPassedOver(String name) {
        int devices = 4;
        var policy = Fixtures.policy(name, devices);
        LocationSet all = LocationSet.allDevices(devices);
        // Device 2 holds both arguments. 3 busy streams of 3 in all: busy, but under the 4 that crowd a device.
        SelectionRequest busy = Fixtures.request(devices, new int[] {0, 0, 3, 0}, arg(1000, 2), arg(1000, 2));
        assertEquals(2, policy.select(busy, all));
        // 4 busy streams, 4 in all (mean 1): crowded; device 3 also holds one argument, the others nothing.
        SelectionRequest crowded = Fixtures.request(devices, new int[] {0, 0, 4, 0}, arg(1000, 2), arg(1000, 2, 3));
        assertEquals(3, policy.select(crowded, all));
        // 4 busy streams of 10 in all (mean 2.5): not more than twice the mean, so not crowded.
        SelectionRequest shared = Fixtures.request(devices, new int[] {2, 2, 4, 2}, arg(1000, 2), arg(1000, 2, 3));
        assertEquals(2, policy.select(shared, all));
        // When every candidate is crowded, the data decides as before.
        assertEquals(2, policy.select(crowded, LocationSet.of(2)));
    }
}
