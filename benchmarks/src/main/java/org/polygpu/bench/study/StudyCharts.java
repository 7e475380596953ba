package org.polygpu.bench.study;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;
import org.polygpu.topology.ClusterTopology;

/**
 * The study's three plots, drawn headless with JFreeChart from the rows of {@code study.csv}, one panel per
 * topology (the clusters of one node preset share a panel), the benchmarks along the axis and their geometric mean
 * last (as the paper's MEAN):
 * <ul>
 *   <li>{@code speedup.png} (the paper's Fig. 8): the default policy's speedup over itself on the fewest GPUs run (1
 *       GPU, or one node of a cluster study), a bar per GPU count;</li>
 *   <li>{@code vs-hand.png} (Fig. 9): the hand-optimized makespan over polygpu's best policy's, a bar per GPU count
 *       (1 means as fast as the hand-written schedule);</li>
 *   <li>{@code policies.png} (Fig. 11): at the largest GPU count, the default policy's makespan over each policy's
 *       (above 1: faster than the default).</li>
 * </ul>
 */
final class StudyCharts {
    /** The files {@link #writeAll} writes. */
    static final List<String> FILES = List.of("speedup.png", "vs-hand.png", "policies.png");
    private static final String MEAN = "geomean";
    private static final int WIDTH = 1000;
    private static final int PANEL_HEIGHT = 280;
    /** One colour per series, the same in every panel. */
    private static final Color[] PALETTE = {new Color(0x4E79A7), new Color(0xF28E2B), new Color(0x59A14F),
        new Color(0xE15759), new Color(0x76B7B2), new Color(0xEDC948), new Color(0xB07AA1), new Color(0x9C755F)};

    private StudyCharts() {
    }

    /** Writes the three plots of {@code rows} to {@code out}. */
    static void writeAll(List<StudyRow> studyRows, Path out) {
        System.setProperty("java.awt.headless", "true");
        List<StudyRow> rows = studyRows.stream().map(StudyCharts::clusterPanel).toList();
        List<String> topologies = rows.stream().map(StudyRow::topology).distinct().toList();
        save(speedup(rows, topologies), out.resolve(FILES.get(0)), topologies.size());
        save(versusHand(rows, topologies), out.resolve(FILES.get(1)), topologies.size());
        save(policies(rows, topologies), out.resolve(FILES.get(2)), topologies.size());
    }

    private static JFreeChart speedup(List<StudyRow> rows, List<String> topologies) {
        List<DefaultCategoryDataset> panels = new ArrayList<>();
        for (String t : topologies) {
            DefaultCategoryDataset data = new DefaultCategoryDataset();
            Map<String, Map<String, Double>> bySeries = new TreeMap<>();
            int fewest = fewestGpus(rows);
            for (StudyRow r : rows) {
                if (r.topology().equals(t) && r.policy().equals(Study.DEFAULT_POLICY)) {
                    find(rows, t, r.benchmark(), fewest, Study.DEFAULT_POLICY).ifPresent(one -> bySeries
                            .computeIfAbsent(gpuLabel(r.gpus()), k -> new TreeMap<>())
                            .put(r.benchmark(), one.makespanNanos() / (double) r.makespanNanos()));
                }
            }
            fill(data, bySeries, benchmarks(rows), gpuOrder(rows));
            panels.add(data);
        }
        return chart("Speedup over " + gpuLabel(fewestGpus(rows)) + ", " + Study.DEFAULT_POLICY + " (paper Fig. 8)",
                topologies, panels, "speedup");
    }

    private static int fewestGpus(List<StudyRow> rows) {
        return rows.stream().mapToInt(StudyRow::gpus).min().orElse(1);
    }

    /**
     * The row as the plots group it: the clusters of one node preset ({@code 1xh100x8}, {@code 2xh100x8}, ...) in
     * one panel, {@code h100x8 cluster}, with a bar per GPU count.
     */
    private static StudyRow clusterPanel(StudyRow r) {
        return ClusterTopology.ofName(r.topology()).map(c -> new StudyRow(r.benchmark(), c.nodePreset() + " cluster",
                r.gpus(), r.policy(), r.makespanNanos(), r.boundNanos(), r.handNanos(), r.bytesH2d(), r.bytesD2d(),
                r.bytesD2h())).orElse(r);
    }

    private static JFreeChart versusHand(List<StudyRow> rows, List<String> topologies) {
        List<DefaultCategoryDataset> panels = new ArrayList<>();
        for (String t : topologies) {
            DefaultCategoryDataset data = new DefaultCategoryDataset();
            Map<String, Map<String, Double>> bySeries = new TreeMap<>();
            for (StudyRow hand : rows) {
                if (hand.topology().equals(t) && hand.isHand()) {
                    long best = rows.stream().filter(r -> same(r, hand) && !r.isHand())
                            .mapToLong(StudyRow::makespanNanos).min().orElse(0);
                    if (best > 0) {
                        bySeries.computeIfAbsent(gpuLabel(hand.gpus()), k -> new TreeMap<>())
                                .put(hand.benchmark(), hand.makespanNanos() / (double) best);
                    }
                }
            }
            fill(data, bySeries, benchmarks(rows), gpuOrder(rows));
            panels.add(data);
        }
        return chart("Hand-optimized makespan / polygpu's best policy's (paper Fig. 9)", topologies, panels,
                "relative performance");
    }

    private static JFreeChart policies(List<StudyRow> rows, List<String> topologies) {
        int gpus = rows.stream().mapToInt(StudyRow::gpus).max().orElse(1);
        List<DefaultCategoryDataset> panels = new ArrayList<>();
        List<String> policyOrder = rows.stream().filter(r -> !r.isHand()).map(StudyRow::policy).distinct().toList();
        for (String t : topologies) {
            DefaultCategoryDataset data = new DefaultCategoryDataset();
            Map<String, Map<String, Double>> bySeries = new TreeMap<>();
            for (StudyRow r : rows) {
                if (r.topology().equals(t) && r.gpus() == gpus && !r.isHand()) {
                    find(rows, t, r.benchmark(), gpus, Study.DEFAULT_POLICY).ifPresent(d -> bySeries
                            .computeIfAbsent(r.policy(), k -> new TreeMap<>())
                            .put(r.benchmark(), d.makespanNanos() / (double) r.makespanNanos()));
                }
            }
            fill(data, bySeries, benchmarks(rows), policyOrder);
            panels.add(data);
        }
        return chart("Policies on " + gpuLabel(gpus) + ", speedup over " + Study.DEFAULT_POLICY
                + " (paper Fig. 11)", topologies, panels, "speedup");
    }

    /** Adds each series' values by benchmark, then the series' geometric mean over them. */
    private static void fill(DefaultCategoryDataset data, Map<String, Map<String, Double>> bySeries,
                             List<String> benchmarks, List<String> seriesOrder) {
        for (String series : seriesOrder) {
            Map<String, Double> values = bySeries.get(series);
            if (values == null) {
                continue;
            }
            double logSum = 0;
            for (String b : benchmarks) {
                Double v = values.get(b);
                if (v != null) {
                    data.addValue(v, series, b);
                    logSum += Math.log(v);
                }
            }
            if (!values.isEmpty()) {
                data.addValue(Math.exp(logSum / values.size()), series, MEAN);
            }
        }
    }

    private static JFreeChart chart(String title, List<String> topologies, List<DefaultCategoryDataset> panels,
                                    String valueLabel) {
        CategoryAxis benchmarks = new CategoryAxis("benchmark");
        benchmarks.setCategoryLabelPositions(CategoryLabelPositions.STANDARD);
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(benchmarks);
        plot.setGap(12);
        CategoryPlot first = null;
        for (int i = 0; i < panels.size(); i++) {
            BarRenderer renderer = new BarRenderer();
            renderer.setBarPainter(new StandardBarPainter());
            renderer.setShadowVisible(false);
            renderer.setItemMargin(0.02);
            for (int s = 0; s < panels.get(i).getRowCount(); s++) {
                renderer.setSeriesPaint(s, PALETTE[s % PALETTE.length]);
            }
            NumberAxis axis = new NumberAxis(valueLabel + ", " + topologies.get(i));
            axis.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            CategoryPlot panel = new CategoryPlot(panels.get(i), null, axis, renderer);
            panel.setBackgroundPaint(Color.WHITE);
            panel.setRangeGridlinePaint(Color.LIGHT_GRAY);
            panel.addRangeMarker(new ValueMarker(1.0, Color.DARK_GRAY, new BasicStroke(1f)));
            plot.add(panel, 1);
            first = first == null ? panel : first;
        }
        if (first != null) {
            plot.setFixedLegendItems(first.getLegendItems());
        }
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 14), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    private static void save(JFreeChart chart, Path file, int panels) {
        try {
            ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, 120 + PANEL_HEIGHT * panels);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static Optional<StudyRow> find(List<StudyRow> rows, String topology, String benchmark, int gpus,
                                           String policy) {
        return rows.stream().filter(r -> r.topology().equals(topology) && r.benchmark().equals(benchmark)
                && r.gpus() == gpus && r.policy().equals(policy)).findFirst();
    }

    private static boolean same(StudyRow a, StudyRow b) {
        return a.topology().equals(b.topology()) && a.benchmark().equals(b.benchmark()) && a.gpus() == b.gpus();
    }

    private static List<String> benchmarks(List<StudyRow> rows) {
        return new ArrayList<>(new LinkedHashSet<>(rows.stream().map(StudyRow::benchmark).toList()));
    }

    private static List<String> gpuOrder(List<StudyRow> rows) {
        return rows.stream().map(StudyRow::gpus).distinct().sorted().map(StudyCharts::gpuLabel).toList();
    }

    private static String gpuLabel(int gpus) {
        return gpus + (gpus == 1 ? " GPU" : " GPUs");
    }
}
