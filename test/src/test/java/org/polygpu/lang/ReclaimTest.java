package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/** Arrays that become unreachable without {@code free()} are reclaimed, after their pending work, by a later call. */
class ReclaimTest {
    private static long freeDeviceMemory(Context c) {
        long free = 0;
        Value devices = Polyglot.eval(c, "getdevices()");
        for (int d = 0; d < devices.getArraySize(); d++) {
            free += devices.getArrayElement(d).getMember("freeDeviceMemory").asLong();
        }
        return free;
    }

    /** Leaves 200 pairs of arrays on the devices, each pair filled by a device copy, and drops them. */
    private static void leaveArraysOnTheDevices(Context c) {
        for (int i = 0; i < 200; i++) {
            Value a = Polyglot.eval(c, "float[65536]");
            a.setArrayElement(i, i);
            Value b = Polyglot.eval(c, "float[65536]");
            b.invokeMember("copyFrom", a);
        }
    }

    @Test
    void arraysNeverFreedAreReclaimedOnceUnreachable() throws InterruptedException {
        try (Context c = Polyglot.context()) {
            long before = freeDeviceMemory(c);
            Value kept = Polyglot.eval(c, "float[65536]");
            kept.setArrayElement(7, 7);
            leaveArraysOnTheDevices(c);
            long used = before - freeDeviceMemory(c);
            assertTrue(used >= 200 * 2 * 65536 * 4L, "the arrays were on the devices: " + used + " bytes");
            long remaining = used;
            for (int attempt = 0; attempt < 100 && remaining >= 2 * 65536 * 4L; attempt++) {
                System.gc();
                Thread.sleep(20);
                remaining = before - freeDeviceMemory(c);
            }
            assertTrue(remaining < 2 * 65536 * 4L, "reclaimed: " + remaining + " bytes still used");
            assertEquals(7, kept.getArrayElement(7).asInt(), "a reachable array is kept");
        }
    }
}
