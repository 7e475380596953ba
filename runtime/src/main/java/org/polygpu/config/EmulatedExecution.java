package org.polygpu.config;

/**
 * The {@code EmulatedExecution} option of the emulated backend: how much of each PTX launch the interpreter runs.
 *
 * <ul>
 *   <li>{@code full} (default): every thread block; the kernels compute their results.</li>
 *   <li>{@code sampled}: a fixed number of thread blocks spread evenly over the grid (all of them when the grid is
 *       small), with the counters scaled to the whole grid for the timing model, so that a paper-scale workload
 *       costs its real virtual time in a fraction of the interpretation. The buffers such a launch receives hold
 *       data that was not computed: reading them back to the host is an error.</li>
 * </ul>
 */
public enum EmulatedExecution implements OptionValue {
    FULL("full"),
    SAMPLED("sampled");

    private final String value;

    EmulatedExecution(String value) {
        this.value = value;
    }

    @Override
    public String optionValue() {
        return value;
    }
}
