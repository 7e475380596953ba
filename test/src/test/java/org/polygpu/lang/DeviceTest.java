package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/** GrCUDA's device functions (its DeviceTest and manual GPU choice), on 4 emulated GPUs. */
class DeviceTest {
    private static final int THREADS = 32;

    @Test
    void setCurrentAndIsCurrentFollowOneAnother() {
        try (Context c = Polyglot.context()) {
            Value devices = Polyglot.eval(c, "getdevices()");
            Value first = devices.getArrayElement(0);
            Value second = devices.getArrayElement(1);
            assertTrue(first.invokeMember("isCurrent").asBoolean(), "device 0 is current at first");
            second.invokeMember("setCurrent");
            assertFalse(first.invokeMember("isCurrent").asBoolean());
            assertTrue(second.invokeMember("isCurrent").asBoolean());
            assertEquals(1, Polyglot.eval(c, "cudaGetDevice()").asInt());
            first.invokeMember("setCurrent");
            assertTrue(first.invokeMember("isCurrent").asBoolean());
            assertFalse(second.invokeMember("isCurrent").asBoolean());
            assertTrue(first.getMemberKeys().containsAll(java.util.List.of("isCurrent", "setCurrent")));
        }
    }

    @Test
    void cudaSetDeviceOutsideTheDevicesInUseFailsNamingTheRange() {
        try (Context c = Polyglot.context(Map.of("NumberOfGPUs", "2"))) {
            Value setDevice = Polyglot.eval(c, "cudaSetDevice");
            setDevice.execute(1);
            assertEquals(1, Polyglot.eval(c, "cudaGetDevice()").asInt());
            PolyglotException e = assertThrows(PolyglotException.class, () -> setDevice.execute(2));
            assertEquals("cudaSetDevice: argument 'device' must be an integer in 0..1, got 2", e.getMessage());
        }
    }

    /** GrCUDA's dependency2KernelsManualGPUChoiceTest: each array's kernels run on the device made current. */
    @Test
    void computationsAfterCudaSetDeviceRunOnThatDeviceUnderSingleGpu() {
        Polyglot.assumeNvrtc();
        try (Context c = Polyglot.context(Map.of("NumberOfGPUs", "2", "DeviceSelectionPolicy", "single-gpu"))) {
            Value setDevice = Polyglot.eval(c, "cudaSetDevice");
            int n = 10000;
            Value x = Polyglot.eval(c, "DeviceArray").execute("float", n);
            Value y = Polyglot.eval(c, "DeviceArray").execute("float", n);
            Value[] inputs = {x, y};
            Value square = Polyglot.eval(c, "buildkernel").execute(Kernels.SQUARE, "square", "pointer, sint32");
            for (int i = 0; i < n; i++) {
                x.setArrayElement(i, 2.0);
                y.setArrayElement(i, 4.0);
            }
            Value configured = square.execute((n + THREADS - 1) / THREADS, THREADS);
            for (int d = 0; d < 2; d++) {
                setDevice.execute(d);
                configured.execute(inputs[d], n);
                assertEquals(d, configured.getMember("device").asInt());
                configured.execute(inputs[d], n);
                assertEquals(d, configured.getMember("device").asInt());
            }
            assertEquals(16.0, x.getArrayElement(0).asFloat(), 0.1);
            assertEquals(256.0, y.getArrayElement(n - 1).asFloat(), 0.1);
        }
    }

    @Test
    void cudaDeviceGetAttributeAnswersWhatTheDevicePropertiesSay() {
        try (Context c = Polyglot.context()) {
            Value get = Polyglot.eval(c, "cudaDeviceGetAttribute");
            Value props = Polyglot.eval(c, "getdevice(1)").getMember("properties");
            assertEquals(props.getMember("computeCapabilityMajor").asInt(), get.execute(75, 1).asInt());
            assertEquals(props.getMember("multiProcessorCount").asInt(), get.execute(16, 1).asInt());
            assertEquals(32, get.execute(10, 0).asInt());
            PolyglotException e = assertThrows(PolyglotException.class, () -> get.execute(42, 0));
            assertTrue(e.getMessage().startsWith("cudaDeviceGetAttribute: attribute 42 is not one polygpu describes"),
                    e.getMessage());
            assertTrue(Polyglot.eval(c, "cudaProfilerStart()").isNull());
            assertTrue(Polyglot.eval(c, "cudaDeviceEnablePeerAccess").execute(1, 0).isNull());
            PolyglotException unsupported = assertThrows(PolyglotException.class,
                    () -> Polyglot.eval(c, "cudaGetErrorString").execute(2));
            assertTrue(unsupported.getMessage().startsWith("cudaGetErrorString is not supported"),
                    unsupported.getMessage());
        }
    }

    @Test
    void cudaDeviceResetDestroysTheCurrentDevicesStreams() {
        try (Context c = Polyglot.context()) {
            Value stream = Polyglot.eval(c, "cudaStreamCreate()");
            Polyglot.eval(c, "cudaDeviceReset()");
            PolyglotException e = assertThrows(PolyglotException.class,
                    () -> Polyglot.eval(c, "cudaStreamSynchronize").execute(stream));
            assertEquals("stream 1 of device 0 was destroyed", e.getMessage());
        }
    }
}
