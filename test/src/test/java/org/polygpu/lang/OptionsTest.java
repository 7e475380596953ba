package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.polygpu.config.ClusterCudaAware;
import org.polygpu.config.MemoryModel;

/** The polygpu options: defaults, values seen by getoptions(), effects, and bad values stopping the context. */
class OptionsTest {
    @Test
    void getoptionsShowsTheDefaults() {
        try (Context c = Polyglot.context()) {
            Value o = Polyglot.eval(c, "getoptions()");
            assertEquals("with-const", o.getMember("DependencyPolicy").asString());
            assertEquals("minmax-transfer-time", o.getMember("DeviceSelectionPolicy").asString());
            assertEquals("async", o.getMember("ExecutionPolicy").asString());
            assertEquals("4", o.getMember("NumberOfGPUs").asString(), "unset (0): the GPUs in use, all 4 emulated");
            assertEquals("0.1", o.getMember("DataThreshold").asString());
            assertEquals("false", o.getMember("InputPrefetch").asString());
            assertEquals("emulated", o.getHashValue("polygpu.Backend").asString(), "hash keys take the prefix too");
            assertTrue(o.getHashSize() >= 18);
        }
    }

    @Test
    void optionsAreReadOnceAndShapeTheRuntime() {
        try (Context c = Polyglot.context(Map.of("NumberOfGPUs", "2", "DeviceSelectionPolicy", "round-robin",
                "DataThreshold", "0.5", "EmulatedDevices", "8", "EmulatedDeviceModel", "A100",
                "ExecutionPolicy", "sync"))) {
            Value cu = Polyglot.eval(c, "CU");
            assertEquals(2, cu.invokeMember("cudaGetDeviceCount").asInt());
            assertEquals(2, cu.invokeMember("getdevices").getArraySize());
            Value o = cu.invokeMember("getoptions");
            assertEquals("round-robin", o.getMember("DeviceSelectionPolicy").asString());
            assertEquals("0.5", o.getMember("DataThreshold").asString());
            assertEquals("sync", o.getHashValue("ExecutionPolicy").asString());
            assertEquals("2", o.getMember("NumberOfGPUs").asString());
            assertTrue(cu.invokeMember("getdevice", 1).getMember("deviceName").asString().contains("A100"));
        }
    }

    /** GrCUDA's testGetOptionsFunction and testGetOptionsFunctionIterator: prefixed keys, values as strings. */
    @Test
    void getoptionsIteratesGrcudaStyleEntries() {
        try (Context c = Polyglot.context(Map.of("ExecutionPolicy", "async", "EnableComputationTimers", "true"))) {
            Value o = Polyglot.eval(c, "getoptions").execute();
            assertTrue(o.hasHashEntries());
            assertEquals("async", o.getHashValue("polygpu.ExecutionPolicy").asString());
            assertTrue(Boolean.parseBoolean(o.getHashValue("polygpu.EnableComputationTimers").asString()));
            assertFalse(Boolean.parseBoolean(o.getHashValue("polygpu.ForceStreamAttach").asString()));
            assertEquals(4, Integer.parseInt(o.getHashValue("polygpu.NumberOfGPUs").asString()));
            Value entries = o.getHashEntriesIterator();
            int count = 0;
            boolean found = false;
            while (entries.hasIteratorNextElement()) {
                Value entry = entries.getIteratorNextElement();
                assertEquals(2, entry.getArraySize());
                assertTrue(entry.getArrayElement(0).asString().startsWith("polygpu."), entry.toString());
                assertTrue(entry.getArrayElement(1).isString(), entry.toString());
                if (entry.getArrayElement(0).asString().equals("polygpu.ExecutionPolicy")) {
                    found = true;
                    assertEquals("async", entry.getArrayElement(1).asString());
                }
                count++;
            }
            assertTrue(found);
            assertEquals(o.getHashSize(), count);
        }
    }

    /** Every option GrCUDA defines is accepted with its value syntax; those without effect say so once. */
    @Test
    void grcudaOptionsWithoutEffectAreAcceptedAndSaySoOnce() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Context.Builder b = Context.newBuilder().engine(Polyglot.ENGINE).allowAllAccess(true).err(err)
                .option("polygpu.Backend", "emulated");
        Map.ofEntries(Map.entry("CuBLASEnabled", "false"), Map.entry("CuBLASLibrary", "/opt/libcublas.so"),
                Map.entry("CuMLEnabled", "false"), Map.entry("CuMLLibrary", "libcuml.so"),
                Map.entry("CuSPARSEEnabled", "true"), Map.entry("CuSPARSELibrary", "libcusparse.so"),
                Map.entry("TensorRTEnabled", "false"), Map.entry("TensorRTLibrary", "libtrt.so"),
                Map.entry("ForceStreamAttach", "true"), Map.entry("MemAdvisePolicy", "read-mostly"),
                Map.entry("ExportDAG", "false")).forEach((k, v) -> b.option("polygpu." + k, v));
        try (Context c = b.build()) {
            Value o = Polyglot.eval(c, "getoptions()");
            assertEquals("read-mostly", o.getMember("MemAdvisePolicy").asString());
            assertEquals("false", o.getMember("CuBLASEnabled").asString());
            Polyglot.eval(c, "cudaDeviceSynchronize()");
            Polyglot.eval(c, "getoptions()");
            // CuBLASEnabled=false has an effect: BLAS:: functions fail saying so.
            PolyglotException e = assertThrows(PolyglotException.class,
                    () -> Polyglot.eval(c, "BLAS::cublasSaxpy").execute(1, 0, 0, 1, 0, 1));
            assertTrue(e.getMessage().contains("BLAS::cublasSaxpy is disabled: the context was created with "
                    + "--polygpu.CuBLASEnabled=false"), e.getMessage());
        }
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(9, text.lines().filter(l -> l.contains("has no effect")).count(), text);
        assertEquals(1, text.lines().filter(l -> l.startsWith("polygpu: option polygpu.MemAdvisePolicy has no "
                + "effect: polygpu copies arrays between explicit replicas")).count(), text);
        assertFalse(text.contains("ExportDAG"), "ExportDAG=false is GrCUDA's unset: " + text);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "MemAdvisePolicy; always; none, read-mostly, preferred",
        "ForceStreamAttach; sometimes; true",
        "DependencyPolicy; sometimes; no-const, with-const",
        "ExecutionPolicy; later; async, sync",
        "DeviceSelectionPolicy; best; minmax-transfer-time",
        "RetrieveNewStreamPolicy; fifo; reuse, always-new",
        "NumberOfGPUs; many; expected an integer",
        "NumberOfGPUs; -1; at least 0",
        "DataThreshold; 1.5; in [0, 1]",
        "MemoryModel; bogus; valid values: explicit, managed",
        "RetrieveParentStreamPolicy; nearest; same-as-parent, disjoint, multigpu-disjoint, multigpu-early-disjoint",
        "EnableComputationTimers; maybe; true",
        "Backend; fpga; auto",
        "EmulatedDevices; 0; at least 1",
        "EmulatedExecution; partial; valid values: full, sampled",
        "ClusterCudaAware; yes; valid values: auto, on, off",
        "EmulatedDeviceMemory; 64 megabytes; for option EmulatedDeviceMemory",
        "EmulatedDeviceMemory; 0; for option EmulatedDeviceMemory"})
    void badValueStopsContextCreationWithTheValidValues(String option, String value, String listed) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Polyglot.context(Map.of(option, value)).close());
        assertTrue(e.getMessage().contains(listed), e.getMessage());
    }

    /** EmulatedDeviceMemory replaces the model's memory on every device, which reports it as its total. */
    @Test
    void emulatedDeviceMemoryIsEveryDevicesTotalMemory() {
        try (Context c = Polyglot.context(Map.of("EmulatedDeviceMemory", "64MiB", "EmulatedDevices", "2"))) {
            Value cu = Polyglot.eval(c, "CU");
            for (int d = 0; d < 2; d++) {
                assertEquals(64L << 20, cu.invokeMember("getdevice", d).getMember("properties")
                        .getMember("totalDeviceMemory").asLong());
            }
            assertEquals("64MiB", cu.invokeMember("getoptions").getMember("EmulatedDeviceMemory").asString());
        }
        assertEquals(1L << 30, ContextOptions.parse(Map.of("EmulatedDeviceMemory", "1GiB")).backendOptions()
                .emulatedDeviceMemory());
        assertEquals(0, ContextOptions.parse(Map.of()).backendOptions().emulatedDeviceMemory(), "unset: the model's");
    }

    @Test
    void badCombinationStopsTheContextWhenItStarts() {
        try (Context c = Polyglot.context(Map.of("EmulatedDevices", "16"))) {
            PolyglotException e = assertThrows(PolyglotException.class, () -> Polyglot.eval(c, "CU"));
            assertTrue(e.getMessage().contains("1..8"), e.getMessage());
        }
    }

    @Test
    void moreGpusThanTheBackendHasStopsTheContextSayingHowManyThereAre() {
        try (Context c = Polyglot.context(Map.of("NumberOfGPUs", "6", "EmulatedDevices", "4"))) {
            PolyglotException e = assertThrows(PolyglotException.class, () -> Polyglot.eval(c, "CU"));
            assertTrue(e.getMessage().contains("NumberOfGPUs=6 but the emulated backend has 4 devices"),
                    e.getMessage());
        }
    }

    /** An emulator option is checked even where another backend runs, so a typo never waits for another machine. */
    @Test
    void anUnknownEmulatedDeviceModelStopsTheContextWhateverTheBackend() {
        try (Context c = Polyglot.context(Map.of("Backend", "cuda", "EmulatedDeviceModel", "P100"))) {
            PolyglotException e = assertThrows(PolyglotException.class, () -> Polyglot.eval(c, "CU"));
            assertTrue(e.getMessage().contains("unknown device model 'P100'"), e.getMessage());
        }
    }

    /** A device-model file with a bad key stops the context with the file and the key named. */
    @Test
    void aBrokenDeviceModelFileStopsTheContextNamingTheKey(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Path file = dir.resolve("bad.json");
        java.nio.file.Files.writeString(file, org.polygpu.emulator.DeviceModelFile.toJson(
                org.polygpu.emulator.DeviceModel.H100).replace("\"smGBps\"", "\"smGbps\""));
        try (Context c = Polyglot.context(Map.of("Backend", "emulated", "EmulatedDeviceModel", file.toString()))) {
            PolyglotException e = assertThrows(PolyglotException.class, () -> Polyglot.eval(c, "CU"));
            assertTrue(e.getMessage().contains(file + ": missing key 'memory.smGBps'"), e.getMessage());
        }
    }

    @Test
    void commandLineOptionsAreParsedWithTheSameTypes() {
        ContextOptions o = ContextOptions.parse(Map.of("NumberOfGPUs", "2", "MemoryModel", "managed",
                "EmulatedDevices", "3", "ExportTrace", "t.json"));
        assertEquals(2, o.runtime().numberOfGpus());
        assertEquals(MemoryModel.MANAGED, o.backendOptions().memoryModel());
        assertEquals(3, o.backendOptions().emulatedDevices());
        assertTrue(o.runtime().recordTimeline(), "a trace export records the timeline");
        assertEquals("managed", o.shown().get("MemoryModel"));
        assertEquals(0, ContextOptions.parse(Map.of()).backendOptions().emulatedDevices(), "unset: the default");
        assertEquals(ClusterCudaAware.AUTO, ContextOptions.parse(Map.of()).cluster().cudaAware(), "unset: auto");
        assertEquals(ClusterCudaAware.ON, ContextOptions.parse(Map.of("ClusterCudaAware", "on")).cluster()
                .cudaAware());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> ContextOptions.parse(Map.of("Colour", "blue")));
        assertTrue(unknown.getMessage().contains("unknown option 'polygpu.Colour'"), unknown.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> ContextOptions.parse(Map.of("ExecutionPolicy", "later")));
        assertTrue(bad.getMessage().contains("valid values: async, sync"), bad.getMessage());
    }

    @Test
    void contextWithoutNativeAccessIsRefusedSayingWhy() {
        try (Context c = Context.newBuilder("polygpu").option("engine.WarnInterpreterOnly", "false")
                .option("polygpu.Backend", "emulated").build()) {
            PolyglotException e = assertThrows(PolyglotException.class, () -> Polyglot.eval(c, "CU"));
            assertTrue(e.getMessage().contains("needs native access"), e.getMessage());
        }
    }

    @Test
    void nvrtcLibraryOptionNamesTheLibraryUsed(@TempDir Path dir) throws Exception {
        try (Context c = Polyglot.context(Map.of("NvrtcLibrary", "/nonexistent/libnvrtc.so.12"))) {
            PolyglotException e = assertThrows(PolyglotException.class, () -> Polyglot.eval(c, "CU"));
            assertEquals("polygpu cannot start: NvrtcLibrary=/nonexistent/libnvrtc.so.12 does not exist",
                    e.getMessage());
        }
        Path elf = Files.write(dir.resolve("libnvrtc.so.12"), new byte[] {0x7f, 'E', 'L', 'F'});
        try (Context c = Polyglot.context(Map.of("NvrtcLibrary", elf.toString()))) {
            assertEquals(elf.toString(), Polyglot.eval(c, "getoptions()").getMember("NvrtcLibrary").asString());
        }
    }

    /**
     * An export path that cannot be written stops the context at its start; one that became unwritable by close
     * fails there, saying why as the operating system does.
     */
    @Test
    void anExportThatCannotBeWrittenSaysWhy(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("missing");
        try (Context c = Polyglot.context(Map.of("ExportDAG", missing.resolve("g").toString()))) {
            PolyglotException e = assertThrows(PolyglotException.class, () -> Polyglot.eval(c, "float[8]"));
            assertFalse(e.isInternalError(), e::toString);
            assertEquals("polygpu cannot start: ExportDAG=" + missing.resolve("g") + " (file " + missing.resolve(
                    "g.dot") + ") cannot be created: its directory " + missing + " does not exist", e.getMessage());
        }
        Path gone = Files.createDirectories(dir.resolve("gone"));
        Context t = Polyglot.context(Map.of("ExportTrace", gone.resolve("t.json").toString()));
        Polyglot.eval(t, "float[8]").setArrayElement(0, 1);
        Files.delete(gone);
        PolyglotException atClose = assertThrows(PolyglotException.class, t::close);
        assertFalse(atClose.isInternalError(), atClose::toString);
        assertEquals("cannot write the trace export to " + gone.resolve("t.json") + ": no such file or directory "
                + "(directory " + gone + " does not exist)", atClose.getMessage());
    }

    @Test
    void exportsAreWrittenWhenTheContextCloses(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("t.json");
        try (Context c = Polyglot.context(Map.of("ExportDAG", dir.resolve("g").toString(), "ExportTrace",
                trace.toString()))) {
            Value a = Polyglot.eval(c, "float[8]");
            a.invokeMember("copyFrom", new float[8]);
            Value b = Polyglot.eval(c, "float[8]");
            b.invokeMember("copyFrom", a);
            assertEquals(0.0, b.getArrayElement(7).asDouble());
        }
        assertTrue(Files.readString(dir.resolve("g.dot")).startsWith("digraph"));
        assertTrue(Files.readString(trace).contains("\"traceEvents\""));
    }
}
