package org.polygpu.config;

/**
 * How a computation with parents gets its stream (paper Fig. 5, steps 4 and 5). A parent's stream is
 * <em>available</em> when no other child of that parent has taken it yet. Parents are taken oldest first (launch
 * order), as in GrCUDA.
 */
public enum RetrieveParentStreamPolicy implements OptionValue {
    /** The oldest parent's stream, always, even if another child took it. */
    SAME_AS_PARENT("same-as-parent"),
    /** The oldest available parent's stream; else the device-selection policy over all devices, new stream. */
    DISJOINT("disjoint"),
    /**
     * The device-selection policy picks among the devices of the available parents and that parent's stream is
     * reused; with no available parent, the policy picks among all devices and a new stream is taken there.
     */
    MULTIGPU_DISJOINT("multigpu-disjoint"),
    /**
     * The device-selection policy picks among all devices first; the oldest available parent's stream on that device
     * is reused, else a new stream is taken there.
     */
    MULTIGPU_EARLY_DISJOINT("multigpu-early-disjoint");

    private final String value;

    RetrieveParentStreamPolicy(String value) {
        this.value = value;
    }

    @Override
    public String optionValue() {
        return value;
    }
}
