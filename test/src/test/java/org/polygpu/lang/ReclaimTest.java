package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/** Arrays that become unreachable without {@code free()} are reclaimed by a later call once no work uses them. */
class ReclaimTest {
    private static long freeDeviceMemory(Context c) {
        long free = 0;
        Value devices = Polyglot.eval(c, "getdevices()");
        for (int d = 0; d < devices.getArraySize(); d++) {
            free += devices.getArrayElement(d).getMember("freeDeviceMemory").asLong();
        }
        return free;
    }

    /**
     * Leaves 200 pairs of arrays on the devices, each pair filled by a device copy, and drops them; returns the
     * device bytes in use while all of them were still held, so that a collection during the loop cannot hide them.
     */
    private static long leaveArraysOnTheDevices(Context c, long before) {
        List<Value> held = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Value a = Polyglot.eval(c, "float[65536]");
            a.setArrayElement(i, i);
            Value b = Polyglot.eval(c, "float[65536]");
            b.invokeMember("copyFrom", a);
            held.add(a);
            held.add(b);
        }
        return before - freeDeviceMemory(c);
    }

    @Test
    void arraysNeverFreedAreReclaimedOnceUnreachable() throws InterruptedException {
        try (Context c = Polyglot.context()) {
            long before = freeDeviceMemory(c);
            Value kept = Polyglot.eval(c, "float[65536]");
            kept.setArrayElement(7, 7);
            long used = leaveArraysOnTheDevices(c, before);
            assertTrue(used >= 200 * 2 * 65536 * 4L, "the arrays were on the devices: " + used + " bytes");
            long remaining = used;
            for (int attempt = 0; attempt < 100 && remaining >= 2 * 65536 * 4L; attempt++) {
                System.gc();
                Thread.sleep(20);
                // Arrays still used by unfinished copies wait: reclaiming never makes the host wait by itself.
                Polyglot.eval(c, "cudaDeviceSynchronize()");
                remaining = before - freeDeviceMemory(c);
            }
            assertTrue(remaining < 2 * 65536 * 4L, "reclaimed: " + remaining + " bytes still used");
            assertEquals(7, kept.getArrayElement(7).asInt(), "a reachable array is kept");
        }
    }
}
