package org.polygpu.lang;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the complete events ({@code "ph":"X"}) of a Chrome trace written by {@code ExportTrace}. */
final class TraceEvents {
    private static final Pattern EVENT = Pattern.compile("\\{\"name\":\"([^\"]*)\",\"cat\":\"(kernel|copy)\","
            + "\"ph\":\"X\",\"ts\":([0-9.]+),\"dur\":([0-9.]+),\"pid\":(\\d+),\"tid\":(\\d+)");

    private TraceEvents() {
    }

    /** One kernel or copy: where it ran and when, in µs. */
    record Event(String name, String category, double start, double end, int pid, int tid) {
    }

    static List<Event> read(Path trace) throws IOException {
        List<Event> events = new ArrayList<>();
        Matcher m = EVENT.matcher(Files.readString(trace));
        while (m.find()) {
            double ts = Double.parseDouble(m.group(3));
            events.add(new Event(m.group(1), m.group(2), ts, ts + Double.parseDouble(m.group(4)),
                    Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6))));
        }
        return events;
    }
}
