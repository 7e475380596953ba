package org.polygpu.lang;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.graalvm.options.OptionCategory;
import org.graalvm.options.OptionDescriptors;
import org.graalvm.options.OptionKey;
import org.graalvm.options.OptionStability;
import org.graalvm.options.OptionType;
import org.graalvm.options.OptionValues;

import com.oracle.truffle.api.Option;

/**
 * The options GrCUDA defines that have no effect in polygpu (except {@code CuBLASEnabled}, which
 * {@link ContextOptions} reads), accepted under {@code --polygpu.} with GrCUDA's value syntax so that GrCUDA's
 * command lines start polygpu unchanged. A context whose options set one of them says so
 * once on its standard error ({@link #notices}), with the reason. GrCUDA's other options are
 * {@link PolygpuOptions}, with their effect.
 */
@Option.Group(PolygpuLanguage.ID)
public final class GrcudaOptions {
    private static final String NO_LIBRARY = "polygpu does not provide ";
    private static final Set<String> MEM_ADVISE = Set.of("none", "read-mostly", "preferred");

    @Option(help = "GrCUDA's switch for its BLAS namespace: false makes every BLAS:: function fail saying so.",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<Boolean> CuBLASEnabled = new OptionKey<>(true);

    @Option(help = "GrCUDA's cuBLAS library path; no effect in polygpu.", usageSyntax = "<file>",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> CuBLASLibrary = new OptionKey<>("");

    @Option(help = "GrCUDA's switch for cuML; no effect: polygpu does not provide cuML.",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<Boolean> CuMLEnabled = new OptionKey<>(true);

    @Option(help = "GrCUDA's cuML library path; no effect: polygpu does not provide cuML.", usageSyntax = "<file>",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> CuMLLibrary = new OptionKey<>("");

    @Option(help = "GrCUDA's switch for cuSPARSE; no effect: polygpu does not provide cuSPARSE.",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<Boolean> CuSPARSEEnabled = new OptionKey<>(true);

    @Option(help = "GrCUDA's cuSPARSE library path; no effect: polygpu does not provide cuSPARSE.",
            usageSyntax = "<file>", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> CuSPARSELibrary = new OptionKey<>("");

    @Option(help = "GrCUDA's switch for TensorRT; no effect: polygpu does not provide TensorRT.",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<Boolean> TensorRTEnabled = new OptionKey<>(false);

    @Option(help = "GrCUDA's TensorRT library path; no effect: polygpu does not provide TensorRT.",
            usageSyntax = "<file>", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> TensorRTLibrary = new OptionKey<>("");

    @Option(help = "GrCUDA's stream attachment of managed arrays (pre-Pascal GPUs); no effect: polygpu keeps "
            + "explicit replicas coherent itself.", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<Boolean> ForceStreamAttach = new OptionKey<>(false);

    @Option(help = "GrCUDA's cudaMemAdvise flag for managed arrays; no effect: polygpu keeps explicit replicas "
            + "coherent itself.", usageSyntax = "none|read-mostly|preferred", category = OptionCategory.USER,
            stability = OptionStability.STABLE)
    static final OptionKey<String> MemAdvisePolicy = new OptionKey<>("none",
            new OptionType<>("MemAdvisePolicy", GrcudaOptions::memAdvise));

    private GrcudaOptions() {
    }

    static OptionDescriptors descriptors() {
        return new GrcudaOptionsOptionDescriptors();
    }

    /** One line per option of this class that {@code values} set, saying that it has no effect and why. */
    static List<String> notices(OptionValues values) {
        List<String> lines = new ArrayList<>();
        String blas = "the cuBLAS library is found as NVRTC is (POLYGPU_CUBLAS names it)";
        notice(values, CuBLASLibrary, "CuBLASLibrary", blas, lines);
        notice(values, CuMLEnabled, "CuMLEnabled", NO_LIBRARY + "cuML", lines);
        notice(values, CuMLLibrary, "CuMLLibrary", NO_LIBRARY + "cuML", lines);
        notice(values, CuSPARSEEnabled, "CuSPARSEEnabled", NO_LIBRARY + "cuSPARSE", lines);
        notice(values, CuSPARSELibrary, "CuSPARSELibrary", NO_LIBRARY + "cuSPARSE", lines);
        notice(values, TensorRTEnabled, "TensorRTEnabled", NO_LIBRARY + "TensorRT", lines);
        notice(values, TensorRTLibrary, "TensorRTLibrary", NO_LIBRARY + "TensorRT", lines);
        String explicit = "polygpu copies arrays between explicit replicas and keeps them coherent itself";
        notice(values, ForceStreamAttach, "ForceStreamAttach", explicit, lines);
        notice(values, MemAdvisePolicy, "MemAdvisePolicy", explicit, lines);
        return lines;
    }

    private static void notice(OptionValues values, OptionKey<?> key, String name, String reason,
                               List<String> lines) {
        if (values.hasBeenSet(key)) {
            lines.add("polygpu: option polygpu." + name + " has no effect: " + reason);
        }
    }

    private static String memAdvise(String v) {
        if (!MEM_ADVISE.contains(v)) {
            throw new IllegalArgumentException("invalid value '" + v + "' for option MemAdvisePolicy; valid "
                    + "values: none, read-mostly, preferred");
        }
        return v;
    }
}
