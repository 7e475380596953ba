package org.polygpu.emulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.polygpu.emulator.timing.AtomicSpec;
import org.polygpu.emulator.timing.ComputeSpec;
import org.polygpu.emulator.timing.CopySpec;
import org.polygpu.emulator.timing.JsonFields;
import org.polygpu.emulator.timing.JsonReader;
import org.polygpu.emulator.timing.LaunchSpec;
import org.polygpu.emulator.timing.LinkSpec;
import org.polygpu.emulator.timing.MemorySpec;
import org.polygpu.emulator.timing.SmSpec;

/**
 * Reads and writes device-model files: one JSON object of physical parameters, {@value #FORMAT} (the format is
 * documented in {@code docs/emulator-model.md}). Reading is strict: a missing or unknown key, or a value of the wrong
 * kind or range, is an {@link IllegalArgumentException} naming the file and the key. Writing produces a file that
 * reads back to an equal model (but for {@link DeviceModel#origin}).
 */
public final class DeviceModelFile {
    /** The value of the {@code format} key of every device-model file. */
    public static final String FORMAT = "polygpu-device-model-1";

    private DeviceModelFile() {
    }

    /**
     * The model in {@code file}; its {@link DeviceModel#origin} names the file.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it, or why it cannot be read
     */
    public static DeviceModel read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read device-model file " + file + ": " + e.getMessage(), e);
        }
        return parse(text, file.toString(), "file " + file);
    }

    /**
     * The model {@code text} describes.
     *
     * @param source what the text is, for messages
     * @param origin what {@link DeviceModel#origin} says
     */
    public static DeviceModel parse(String text, String source, String origin) {
        JsonFields f = JsonFields.of(JsonReader.parse(text, source), source);
        String format = f.string("format");
        if (!format.equals(FORMAT)) {
            throw new IllegalArgumentException(source + ": 'format' must be \"" + FORMAT + "\", got \"" + format
                    + "\"");
        }
        String name = f.string("name");
        String provenance = f.string("source");
        String capability = f.string("computeCapability");
        if (!capability.matches("[1-9][0-9]*\\.[0-9]+")) {
            throw new IllegalArgumentException(source + ": 'computeCapability' must look like \"9.0\", got \""
                    + capability + "\"");
        }
        int dot = capability.indexOf('.');
        long totalMemory = f.count("totalMemoryBytes");
        DeviceModel model;
        try {
            model = new DeviceModel(name, provenance, origin, Integer.parseInt(capability.substring(0, dot)),
                    Integer.parseInt(capability.substring(dot + 1)), totalMemory, sm(f.object("sm")),
                    memory(f.object("memory")), compute(f.object("compute")), atomics(f.object("atomics")),
                    launch(f.object("launch")), copies(f.object("copies")));
        } catch (IllegalArgumentException e) {
            throw e.getMessage() != null && e.getMessage().startsWith(source) ? e
                    : new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
        f.done();
        return model;
    }

    /** A preset among the emulator's resources ({@code models/NAME.json}). */
    static DeviceModel resource(String name) {
        String path = "models/" + name + ".json";
        try (InputStream in = DeviceModelFile.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("device-model preset " + path + " is missing from the emulator");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), path, "preset " + name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read device-model preset " + path, e);
        }
    }

    /**
     * Writes {@code model} to {@code file} in this format, replacing it.
     *
     * @throws UncheckedIOException when the file cannot be written
     */
    public static void write(DeviceModel model, Path file) {
        try {
            Files.writeString(file, toJson(model), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write device-model file " + file, e);
        }
    }

    /** {@code model} as the text of a device-model file. */
    public static String toJson(DeviceModel model) {
        SmSpec s = model.sm();
        MemorySpec m = model.memory();
        ComputeSpec c = model.compute();
        CopySpec k = model.copies();
        return "{\n"
                + "  \"format\": " + quote(FORMAT) + ",\n"
                + "  \"name\": " + quote(model.name()) + ",\n"
                + "  \"source\": " + quote(model.source()) + ",\n"
                + "  \"computeCapability\": \"" + model.computeMajor() + "." + model.computeMinor() + "\",\n"
                + "  \"totalMemoryBytes\": " + model.totalMemory() + ",\n"
                + "  \"sm\": {\"count\": " + s.count() + ", \"clockMhz\": " + num(s.clockMhz())
                + ", \"warpSize\": " + s.warpSize() + ", \"maxThreadsPerBlock\": " + s.maxThreadsPerBlock()
                + ",\n         \"maxSharedMemoryPerBlock\": " + s.maxSharedMemoryPerBlock()
                + ", \"maxThreadsPerSm\": " + s.maxThreadsPerSm() + ", \"maxBlocksPerSm\": " + s.maxBlocksPerSm()
                + ",\n         \"registersPerSm\": " + s.registersPerSm() + ", \"sharedMemoryPerSm\": "
                + s.sharedMemoryPerSm() + "},\n"
                + "  \"memory\": {\"dramGBps\": " + num(m.dramGBps()) + ", \"dramLatencyNs\": "
                + num(m.dramLatencyNs()) + ", \"l2Bytes\": " + m.l2Bytes() + ", \"l2GBps\": " + num(m.l2GBps())
                + ",\n             \"l2LatencyNs\": " + num(m.l2LatencyNs()) + ", \"smGBps\": " + num(m.smGBps())
                + ", \"sectorBytes\": " + m.sectorBytes() + ", \"sharedBanks\": " + m.sharedBanks() + "},\n"
                + "  \"compute\": {\"issuePerClock\": " + num(c.issuePerClock()) + ", \"fp32PerClock\": "
                + num(c.fp32PerClock()) + ", \"fp64PerClock\": " + num(c.fp64PerClock())
                + ",\n              \"integerPerClock\": " + num(c.integerPerClock()) + ", \"sfuPerClock\": "
                + num(c.sfuPerClock()) + ", \"dependentIssueCycles\": " + num(c.dependentIssueCycles()) + "},\n"
                + "  \"atomics\": {\"sameAddressNs\": " + num(model.atomics().sameAddressNs()) + ", \"perNs\": "
                + num(model.atomics().perNs()) + "},\n"
                + "  \"launch\": {\"deviceNs\": " + num(model.launch().deviceNs()) + ", \"hostNs\": "
                + num(model.launch().hostNs()) + "},\n"
                + "  \"copies\": {\n"
                + "    \"hostToDevice\": {\"pinned\": " + link(k.hostToDevicePinned()) + ", \"pageable\": "
                + link(k.hostToDevicePageable()) + "},\n"
                + "    \"deviceToHost\": {\"pinned\": " + link(k.deviceToHostPinned()) + ", \"pageable\": "
                + link(k.deviceToHostPageable()) + "},\n"
                + "    \"deviceToDevice\": " + link(k.deviceToDevice()) + "\n"
                + "  }\n"
                + "}\n";
    }

    private static SmSpec sm(JsonFields f) {
        SmSpec s = new SmSpec(f.intCount("count"), f.positive("clockMhz"), f.intCount("warpSize"),
                f.intCount("maxThreadsPerBlock"), f.intCount("maxSharedMemoryPerBlock"),
                f.intCount("maxThreadsPerSm"), f.intCount("maxBlocksPerSm"), f.intCount("registersPerSm"),
                f.intCount("sharedMemoryPerSm"));
        f.done();
        return s;
    }

    private static MemorySpec memory(JsonFields f) {
        MemorySpec m = new MemorySpec(f.positive("dramGBps"), f.nonNegative("dramLatencyNs"), f.count("l2Bytes"),
                f.positive("l2GBps"), f.nonNegative("l2LatencyNs"), f.positive("smGBps"), f.intCount("sectorBytes"),
                f.intCount("sharedBanks"));
        f.done();
        return m;
    }

    private static ComputeSpec compute(JsonFields f) {
        ComputeSpec c = new ComputeSpec(f.positive("issuePerClock"), f.positive("fp32PerClock"),
                f.positive("fp64PerClock"), f.positive("integerPerClock"), f.positive("sfuPerClock"),
                f.positive("dependentIssueCycles"));
        f.done();
        return c;
    }

    private static AtomicSpec atomics(JsonFields f) {
        AtomicSpec a = new AtomicSpec(f.nonNegative("sameAddressNs"), f.positive("perNs"));
        f.done();
        return a;
    }

    private static LaunchSpec launch(JsonFields f) {
        LaunchSpec l = new LaunchSpec(f.nonNegative("deviceNs"), f.nonNegative("hostNs"));
        f.done();
        return l;
    }

    private static CopySpec copies(JsonFields f) {
        JsonFields in = f.object("hostToDevice");
        JsonFields out = f.object("deviceToHost");
        CopySpec c = new CopySpec(link(in.object("pinned")), link(in.object("pageable")), link(out.object("pinned")),
                link(out.object("pageable")), link(f.object("deviceToDevice")));
        in.done();
        out.done();
        f.done();
        return c;
    }

    private static LinkSpec link(JsonFields f) {
        LinkSpec l = new LinkSpec(f.positive("bandwidthGBps"), f.nonNegative("latencyNs"));
        if (f.has("beyondBytes") | f.has("beyondGBps")) {
            l = l.withBeyond(f.count("beyondBytes"), f.positive("beyondGBps"));
        }
        f.done();
        return l;
    }

    private static String link(LinkSpec l) {
        String beyond = l.hasBeyond() ? ", \"beyondBytes\": " + l.beyondBytes() + ", \"beyondGBps\": "
                + num(l.beyondGBps()) : "";
        return "{\"bandwidthGBps\": " + num(l.bandwidthGBps()) + ", \"latencyNs\": " + num(l.latencyNs()) + beyond
                + "}";
    }

    /** A number as JSON writes it: whole numbers without a fraction, others in the shortest form that reads back. */
    static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
