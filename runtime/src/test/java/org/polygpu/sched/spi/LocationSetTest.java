package org.polygpu.sched.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Sets of locations below and past 64, checked against {@link BitSet} as the reference. */
class LocationSetTest {
    private static List<Integer> elements(LocationSet s) {
        List<Integer> out = new ArrayList<>();
        for (int d = s.first(); d >= 0; d = s.next(d + 1)) {
            out.add(d);
        }
        return out;
    }

    private static List<Integer> elements(BitSet s) {
        return s.stream().boxed().toList();
    }

    private static LocationSet set(BitSet bits) {
        return LocationSet.of(bits.stream().toArray());
    }

    @Test
    void smallSetsAreTheBitsOfOneWord() {
        LocationSet s = LocationSet.ofBits(0b1010_0101);
        assertEquals(List.of(0, 2, 5, 7), elements(s));
        assertEquals(4, s.size());
        assertTrue(s.contains(5));
        assertFalse(s.contains(6));
        assertFalse(s.contains(-1));
        assertFalse(s.contains(64));
        assertEquals("{0, 2, 5, 7}", s.toString());
        assertEquals(LocationSet.of(0, 2, 5, 7), s);
    }

    @Test
    void locationsPastSixtyThreeAreKept() {
        LocationSet s = LocationSet.of(3, 63, 64, 70, 100, 127, 128, 1023, 1024);
        assertEquals(List.of(3, 63, 64, 70, 100, 127, 128, 1023, 1024), elements(s));
        assertEquals(9, s.size());
        assertTrue(s.contains(1024));
        assertFalse(s.contains(1025));
        assertFalse(s.contains(65));
        assertEquals(100, s.next(71));
        assertEquals(-1, s.next(1025));
        assertEquals(-1, s.next(5000));
        assertEquals(70, LocationSet.of(70).first());
    }

    @Test
    void setsOfANodeSinglesAndAllDevicesAreShared() {
        assertSame(LocationSet.of(0, 3, 8), LocationSet.of(0, 3).with(8), "8 GPUs and the host: all shared");
        assertSame(LocationSet.of(2, 9), LocationSet.allDevices(8).with(9).intersection(LocationSet.of(2, 9, 20)));
        assertSame(LocationSet.of(40), LocationSet.of(40, 41).without(41));
        assertSame(LocationSet.of(5), LocationSet.of(5));
        assertSame(LocationSet.host(8), LocationSet.of(8));
        assertSame(LocationSet.allDevices(8), LocationSet.allDevices(8));
        assertSame(LocationSet.EMPTY, LocationSet.allDevices(0));
        assertEquals(LocationSet.ofBits(-1L), LocationSet.allDevices(64));
        assertEquals(65, LocationSet.allDevices(65).size());
        assertEquals(LocationSet.range(60, 70), LocationSet.of(60, 61, 62, 63, 64, 65, 66, 67, 68, 69));
    }

    @Test
    void operationsThatChangeNothingReturnTheSameSet() {
        LocationSet s = LocationSet.of(1, 3);
        LocationSet all = LocationSet.allDevices(8);
        assertSame(s, s.with(3));
        assertSame(s, s.without(2));
        assertSame(s, s.intersection(all));
        assertSame(all, s.union(all));
        assertSame(s, s.minus(LocationSet.of(4)));
        LocationSet big = LocationSet.of(1, 100);
        assertSame(big, big.with(100));
        assertSame(big, big.without(99));
    }

    @Test
    void emptiedHighWordsCompareEqualToTheSmallSet() {
        LocationSet s = LocationSet.of(2, 200).without(200);
        assertEquals(LocationSet.of(2), s);
        assertEquals(LocationSet.of(2).hashCode(), s.hashCode());
        assertEquals(LocationSet.EMPTY, LocationSet.of(70).minus(LocationSet.of(70)));
        assertTrue(LocationSet.of(70).intersection(LocationSet.of(71)).isEmpty());
        assertNotEquals(LocationSet.of(2), LocationSet.of(2, 66));
    }

    /** Union, intersection, difference and updates agree with {@link BitSet} on random sets up to 1100. */
    @ParameterizedTest
    @ValueSource(ints = {60, 64, 65, 130, 1100})
    void operationsAgreeWithBitSet(int bound) {
        SplittableRandom rng = new SplittableRandom(bound);
        for (int round = 0; round < 200; round++) {
            BitSet a = random(rng, bound);
            BitSet b = random(rng, bound);
            LocationSet sa = set(a);
            LocationSet sb = set(b);
            assertEquals(elements(a), elements(sa));
            assertEquals(a.cardinality(), sa.size());
            assertEquals(set(changed(a, r -> r.or(b))), sa.union(sb));
            assertEquals(set(changed(a, r -> r.and(b))), sa.intersection(sb));
            assertEquals(set(changed(a, r -> r.andNot(b))), sa.minus(sb));
            assertEquals(a.intersects(b), sa.intersects(sb));
            int x = rng.nextInt(bound);
            assertEquals(set(changed(a, r -> r.set(x))), sa.with(x));
            assertEquals(set(changed(a, r -> r.clear(x))), sa.without(x));
            assertEquals(a.get(x), sa.contains(x));
            assertEquals(a.nextSetBit(x), sa.next(x));
        }
    }

    /** A copy of {@code a} changed by {@code change}. */
    private static BitSet changed(BitSet a, Consumer<BitSet> change) {
        BitSet copy = (BitSet) a.clone();
        change.accept(copy);
        return copy;
    }

    private static BitSet random(SplittableRandom rng, int bound) {
        BitSet s = new BitSet();
        int n = rng.nextInt(6);
        for (int i = 0; i < n; i++) {
            s.set(rng.nextInt(bound));
        }
        return s;
    }

    @Test
    void builderMakesTheSameSetAsOf() {
        LocationSet.Builder b = new LocationSet.Builder();
        b.add(700).add(1).add(65);
        assertEquals(LocationSet.of(1, 65, 700), b.build());
        b.add(2);
        assertEquals(LocationSet.of(1, 2, 65, 700), b.build());
    }

    @Test
    void negativeLocationsAndBackwardRangesAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LocationSet.of(-3));
        assertEquals("a location is a device number or the host's, at least 0; got -3", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> LocationSet.range(5, 2));
        assertEquals("location range 5..2 ends before it starts", e.getMessage());
    }

    @Test
    void policySettingsAcceptUpToTheMostDevices() {
        assertEquals(1024, LocationSet.MAX_DEVICES);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PolicySettings(LocationSet.MAX_DEVICES + 1, null, 0.1));
        assertEquals("deviceCount must be in 1..1024, got 1025", e.getMessage());
    }
}
