package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceModelFileTest {
    @TempDir
    Path dir;

    @Test
    void everyPresetWritesAndReadsBackEqual() throws Exception {
        for (String name : DeviceModel.presetNames()) {
            DeviceModel preset = DeviceModel.preset(name);
            Path file = dir.resolve(name + ".json");
            DeviceModelFile.write(preset, file);
            DeviceModel back = DeviceModelFile.read(file);
            assertEquals(preset.withOrigin("file " + file), back);
            assertEquals("file " + file, back.origin());
        }
    }

    @Test
    void presetsCarryTheirSpecifications() {
        assertEquals(132, DeviceModel.H100.multiprocessors());
        assertEquals(1_980_000, DeviceModel.H100.clockKhz());
        assertEquals(80, DeviceModel.V100.multiprocessors());
        assertEquals(108, DeviceModel.A100.sm().count());
        assertEquals(52_428_800, DeviceModel.H100.memory().l2Bytes());
        // 80 SMs x 1.53 GHz x 2 FP32 warp instructions per clock x 32 lanes x 2 (FMA): the datasheet's 15.7 TFLOP/s.
        assertEquals(15_667, DeviceModel.V100.peakGflops(), 1);
        assertEquals("preset h100", DeviceModel.H100.origin());
        assertTrue(DeviceModel.H100.describe().startsWith("preset h100, fitted to one NVIDIA H100 80GB HBM3"),
                DeviceModel.H100.describe());
    }

    @Test
    void resolveTakesPresetNamesAndFiles() throws Exception {
        assertEquals(DeviceModel.A100, DeviceModel.resolve(" a100 "));
        Path file = dir.resolve("mine.json");
        DeviceModelFile.write(DeviceModel.H100.withTotalMemory(1L << 30), file);
        assertEquals(1L << 30, DeviceModel.resolve(file.toString()).totalMemory());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeviceModel.resolve("p100"));
        assertEquals("unknown device model 'p100': valid models are V100, A100, H100 or the path of a device-model "
                + "file (.json)", e.getMessage());
    }

    @Test
    void aValueNamingSomethingOtherThanATextFileSaysWhatItIsNamingTheOption() throws Exception {
        Path binary = dir.resolve("binary.json");
        Files.write(binary, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2});
        Path fifo = dir.resolve("fifo");
        new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor();
        String[][] cases = {
            {dir.toString(), "is a directory, not a file"},
            {binary.toString(), "is not a text file (it is not UTF-8)"},
            {dir.resolve("missing.json").toString(), "does not exist"},
            {"/dev/null", "is a character device, not a regular file"},
            {fifo.toString(), "is a FIFO (named pipe), not a regular file"},
        };
        for (String[] c : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeviceModel.resolve(c[0]));
            assertEquals("EmulatedDeviceModel=" + c[0] + " " + c[1], e.getMessage());
        }
    }

    @Test
    void aMissingKeyIsNamedWithItsFile() throws Exception {
        String text = DeviceModelFile.toJson(DeviceModel.H100).replace("\"dramLatencyNs\": ", "\"dramLatency\": ");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeviceModelFile.parse(text, "x.json", "test"));
        assertEquals("x.json: missing key 'memory.dramLatencyNs'", e.getMessage());
    }

    @Test
    void anUnknownKeyIsAnError() throws Exception {
        String text = DeviceModelFile.toJson(DeviceModel.H100).replace("\"perNs\":", "\"extra\": 1, \"perNs\":");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeviceModelFile.parse(text, "x.json", "test"));
        assertEquals("x.json: unknown key 'atomics.extra' (known keys here: sameAddressNs, perNs)", e.getMessage());
    }

    @Test
    void badValuesAreNamed() {
        for (List<String> c : List.of(
                List.of("\"count\": 132", "\"count\": -1", "x.json: 'sm.count' must be greater than zero, got -1.0"),
                List.of("\"count\": 132", "\"count\": 1.5", "x.json: 'sm.count' must be a whole number, got 1.5"),
                List.of("\"dramGBps\": ", "\"dramGBps\": \"fast\", \"x\": ",
                        "x.json: 'memory.dramGBps' must be a number, got \"fast\""),
                List.of("\"9.0\"", "\"nine\"", "x.json: 'computeCapability' must look like \"9.0\", got \"nine\""),
                List.of("\"polygpu-device-model-1\"", "\"other\"",
                        "x.json: 'format' must be \"polygpu-device-model-1\", got \"other\""),
                List.of("\"maxThreadsPerSm\": 2048", "\"maxThreadsPerSm\": 512",
                        "x.json: sm.maxThreadsPerBlock (1024) exceeds sm.maxThreadsPerSm (512)"))) {
            String text = DeviceModelFile.toJson(DeviceModel.H100).replaceFirst(
                    java.util.regex.Pattern.quote(c.get(0)), java.util.regex.Matcher.quoteReplacement(c.get(1)));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> DeviceModelFile.parse(text, "x.json", "test"), c.get(1));
            assertEquals(c.get(2), e.getMessage());
        }
    }

    @Test
    void brokenJsonSaysWhere() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeviceModelFile.parse("{\n  \"format\": }", "x.json", "test"));
        assertEquals("x.json: not valid JSON at line 2, column 13: expected a value", e.getMessage());
    }

    @Test
    void anUnreadableFileIsNamed() {
        Path missing = dir.resolve("none.json");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeviceModelFile.read(missing));
        assertTrue(e.getMessage().startsWith("cannot read device-model file " + missing), e.getMessage());
        assertTrue(Files.notExists(missing));
    }
}
