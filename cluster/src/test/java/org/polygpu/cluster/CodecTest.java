package org.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.Dim3;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.ReadOnlyParameters;
import org.polygpu.backend.TimedOperation;

class CodecTest {
    /** A message written by one rank and read by another: what WireWriter wrote, in its bytes. */
    private static WireReader sent(WireWriter w) {
        try (var arena = java.lang.foreign.Arena.ofConfined()) {
            return new WireReader(w.toSegment(arena).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void primitivesStringsAndBytesComeBackInOrder() {
        WireWriter w = WireWriter.of(Op.LAUNCH).putInt(-7).putLong(1L << 40).putDouble(0.25).putBoolean(true)
                .putString("ünïcode").putBytes(new byte[] {1, 2, 3});
        WireReader r = sent(w);
        assertEquals(Op.LAUNCH, r.getOp());
        assertEquals(-7, r.getInt());
        assertEquals(1L << 40, r.getLong());
        assertEquals(0.25, r.getDouble());
        assertTrue(r.getBoolean());
        assertEquals("ünïcode", r.getString());
        assertArrayEquals(new byte[] {1, 2, 3}, r.getBytes());
        assertFalse(r.hasMore());
    }

    @Test
    void aMessageOfUnknownKindIsNamed() {
        WireReader r = sent(new WireWriter().putInt(999));
        assertTrue(assertThrows(IllegalStateException.class, r::getOp).getMessage().contains("unknown kind 999"));
    }

    @Test
    void imagesTravelAndJavaModulesAreRefused() {
        List<ModuleImage> images = List.of(new ModuleImage.Ptx(".version 8.0"), new ModuleImage.CudaSource(
                "__global__ void k() {}", "k.cu", List.of("-lineinfo"), List.of("k")));
        for (ModuleImage image : images) {
            WireWriter w = new WireWriter();
            Codec.writeImage(w, image);
            assertEquals(image, Codec.readImage(sent(w)));
        }
        ModuleImage cubin = new ModuleImage.Cubin(new byte[] {9, 8}, "sm_80");
        WireWriter w = new WireWriter();
        Codec.writeImage(w, cubin);
        ModuleImage.Cubin back = (ModuleImage.Cubin) Codec.readImage(sent(w));
        assertArrayEquals(new byte[] {9, 8}, back.image());
        assertEquals("sm_80", back.architecture());
        ModuleImage own = () -> "Java kernels";
        assertThrows(BackendException.class, () -> Codec.writeImage(new WireWriter(), own));
    }

    @Test
    void launchesTravelWithBuffersByKeyAndTypedScalars() {
        Remote.Buffer a = new Remote.Buffer(3, 64, 1, 11);
        DeviceBuffer local = new DeviceBuffer() {
            public int device() {
                return 1;
            }

            public long bytes() {
                return 64;
            }
        };
        ObjectTable objects = new ObjectTable();
        objects.put(11, local);
        WireWriter w = new WireWriter();
        LaunchConfig config = new LaunchConfig(new Dim3(4, 2, 1), new Dim3(128, 1, 1), 256);
        Codec.writeConfig(w, config);
        Codec.writeArguments(w, new Object[] {a, new BufferOffset(a, 8), (byte) 1, (short) 2, 3, 4L, 5.5f, 6.5});
        Codec.writeLabel(w, new OperationLabel(42, "square"));
        Codec.writeReadOnly(w, ReadOnlyParameters.of(List.of("x", "n"), List.of(true, false), List.of(4, 0)), 2);
        WireReader r = sent(w);
        assertEquals(config, Codec.readConfig(r));
        Object[] args = Codec.readArguments(r, objects);
        assertEquals(local, args[0]);
        assertEquals(new BufferOffset(local, 8), args[1]);
        assertEquals(List.of((byte) 1, (short) 2, 3, 4L, 5.5f, 6.5), List.of(args).subList(2, 8));
        assertEquals(new OperationLabel(42, "square"), Codec.readLabel(r));
        ReadOnlyParameters ro = Codec.readReadOnly(r);
        assertTrue(ro.isReadOnly(0));
        assertFalse(ro.isReadOnly(1));
        assertEquals("x", ro.name(0));
        assertEquals(4, ro.elementBytes(0));
    }

    @Test
    void aLaunchArgumentOfAnotherRankIsRefused() {
        Object[] args = {new Object()};
        assertThrows(BackendException.class, () -> Codec.writeArguments(new WireWriter(), args));
    }

    @Test
    void propertiesAndTimelineEntriesTravelWithDevicesMadeGlobal() {
        DeviceProperties p = new DeviceProperties("V100", 7, 0, 16L << 30, 80, 1_530_000, 1024, 49152, 32);
        TimedOperation copy = new TimedOperation(1, 2, TimedOperation.Kind.COPY_DEVICE_TO_DEVICE,
                new OperationLabel(5, "copy x"), 100, 250, 4096, 0, 150, 0);
        TimedOperation fromHost = new TimedOperation(0, 0, TimedOperation.Kind.COPY_HOST_TO_DEVICE,
                OperationLabel.NONE, 1, 2, 8, -1);
        WireWriter w = new WireWriter();
        Codec.writeProperties(w, p);
        Codec.writeOperation(w, copy);
        Codec.writeOperation(w, fromHost);
        WireReader r = sent(w);
        assertEquals(p, Codec.readProperties(r));
        assertEquals(new TimedOperation(5, 2, TimedOperation.Kind.COPY_DEVICE_TO_DEVICE,
                new OperationLabel(5, "copy x"), 100, 250, 4096, 4, 150, 0), Codec.readOperation(r, 4));
        assertEquals(-1, Codec.readOperation(r, 4).source());
    }
}
