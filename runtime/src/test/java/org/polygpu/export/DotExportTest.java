package org.polygpu.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DotExportTest {
    private static final Pattern NODE = Pattern.compile("^\\s*(c\\d+) \\[label=");
    private static final Pattern SUBGRAPH = Pattern.compile("^\\s*subgraph (\\w+) \\{$");

    private static final String A = "array #0 float[4]";
    private static final String B = "array #1 float[4]";

    /** Two kernels on device 0 (streams 0 and 1), one on device 1, a host read, and their dependencies. */
    private static ScheduleLog sampleLog() {
        ScheduleLog log = new ScheduleLog();
        log.add(new ScheduleLog.Node(0, "KERNEL", "init", 0, 0, List.of(A + " write")));
        log.add(new ScheduleLog.Node(1, "KERNEL", "init", 0, 1, List.of(B + " write")));
        log.add(new ScheduleLog.Node(2, "KERNEL", "add", 1, 0, List.of(A + " read", B + " read_write")));
        log.add(new ScheduleLog.Edge(0, 2, List.of(A)));
        log.add(new ScheduleLog.Edge(1, 2, List.of(B)));
        log.add(new ScheduleLog.Node(3, "HOST_READ", "read " + B + "[0]", -1, -1, List.of(B + " read")));
        log.add(new ScheduleLog.Edge(2, 3, List.of(B)));
        return log;
    }

    @Test
    void nodesAreClusteredByDeviceThenStreamAndHostWorkByItself() {
        Map<String, List<String>> clusters = clustersOfNodes(DotExport.toDot(sampleLog()));
        assertEquals(List.of("cluster_dev0", "cluster_dev0_s0"), clusters.get("c0"));
        assertEquals(List.of("cluster_dev0", "cluster_dev0_s1"), clusters.get("c1"));
        assertEquals(List.of("cluster_dev1", "cluster_dev1_s0"), clusters.get("c2"));
        assertEquals(List.of("cluster_host"), clusters.get("c3"));
        assertEquals(4, clusters.size());
    }

    @Test
    void clustersAreLabelledWithTheirDeviceAndStream() {
        String dot = DotExport.toDot(sampleLog());
        assertTrue(dot.contains("subgraph cluster_dev0 {\n        label=\"device 0\";"), dot);
        assertTrue(dot.contains("subgraph cluster_dev0_s1 {\n            label=\"stream 1\";"), dot);
        assertTrue(dot.contains("subgraph cluster_dev1 {\n        label=\"device 1\";"), dot);
        assertTrue(dot.contains("subgraph cluster_host {\n        label=\"host\";"), dot);
    }

    @Test
    void edgesAreLabelledWithTheArraysThatCausedThem() {
        ScheduleLog log = sampleLog();
        log.add(new ScheduleLog.Edge(0, 3, List.of(A, B)));
        String dot = DotExport.toDot(log);
        assertTrue(dot.contains("c0 -> c2 [label=\"array #0 float[4]\"];"), dot);
        assertTrue(dot.contains("c1 -> c2 [label=\"array #1 float[4]\"];"), dot);
        assertTrue(dot.contains("c2 -> c3 [label=\"array #1 float[4]\"];"), dot);
        // Several arrays: one per line of the label.
        assertTrue(dot.contains("c0 -> c3 [label=\"array #0 float[4]\\narray #1 float[4]\"];"), dot);
    }

    @Test
    void nodeLabelHoldsIdNameAndArgumentsWithAccessModes() {
        String dot = DotExport.toDot(sampleLog());
        assertTrue(dot.contains("c2 [label=\"2: add\\narray #0 float[4] read\\narray #1 float[4] read_write\", "
                + "shape=box];"), dot);
        assertTrue(dot.contains("c3 [label=\"3: read array #1 float[4][0]\\narray #1 float[4] read\", "
                + "shape=ellipse];"), dot);
    }

    @Test
    void quotesBackslashesNewlinesAndAmpersandsAreEscaped() {
        ScheduleLog log = new ScheduleLog();
        log.add(new ScheduleLog.Node(7, "KERNEL", "say \"hi\" \\ & bye\r\nnext\tend", 0, 0, List.of()));
        String dot = DotExport.toDot(log);
        assertTrue(dot.contains("c7 [label=\"7: say \\\"hi\\\" \\\\ &amp; bye\\nnext end\", shape=box];"), dot);
        assertEquals("\"\uFFFD ok \uD83D\uDE00\"", DotExport.quote("\uD800 ok \uD83D\uDE00"));
    }

    @Test
    void sameLogGivesSameTextAndClustersAreOrderedByNumberNotByAppearance() {
        ScheduleLog log = new ScheduleLog();
        log.add(new ScheduleLog.Node(0, "KERNEL", "k", 2, 3, List.of()));
        log.add(new ScheduleLog.Node(1, "KERNEL", "k", 1, 5, List.of()));
        log.add(new ScheduleLog.Node(2, "KERNEL", "k", 1, 0, List.of()));
        log.add(new ScheduleLog.Node(3, "HOST_WRITE", "w", -1, -1, List.of()));
        String dot = DotExport.toDot(log);
        assertEquals(dot, DotExport.toDot(log));
        List<String> order = new ArrayList<>();
        Matcher m = Pattern.compile("subgraph (\\w+) \\{").matcher(dot);
        while (m.find()) {
            order.add(m.group(1));
        }
        assertEquals(List.of("cluster_host", "cluster_dev1", "cluster_dev1_s0", "cluster_dev1_s5", "cluster_dev2",
                "cluster_dev2_s3"), order);
    }

    @Test
    void emptyLogIsAnEmptyGraph() {
        String dot = DotExport.toDot(new ScheduleLog());
        assertTrue(dot.startsWith("digraph schedule {\n"), dot);
        assertTrue(dot.endsWith("}\n"), dot);
        assertTrue(!dot.contains("subgraph") && !dot.contains("->"), dot);
    }

    @Test
    void writeStoresTheTextInUtf8(@TempDir Path dir) throws IOException {
        ScheduleLog log = sampleLog();
        log.add(new ScheduleLog.Node(9, "KERNEL", "größe", 0, 0, List.of()));
        Path file = dir.resolve("dag.dot");
        DotExport.write(log, file);
        assertEquals(DotExport.toDot(log), Files.readString(file, StandardCharsets.UTF_8));
    }

    /** For each node statement, the subgraphs it lies in, outermost first. */
    private static Map<String, List<String>> clustersOfNodes(String dot) {
        Map<String, List<String>> result = new LinkedHashMap<>();
        Deque<String> open = new ArrayDeque<>();
        for (String line : dot.split("\n")) {
            Matcher sub = SUBGRAPH.matcher(line);
            Matcher node = NODE.matcher(line);
            if (sub.matches()) {
                open.addLast(sub.group(1));
            } else if (line.trim().equals("}")) {
                open.pollLast();
            } else if (node.find()) {
                result.put(node.group(1), List.copyOf(open));
            }
        }
        return result;
    }
}
