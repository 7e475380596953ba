package org.polygpu.config;

/** How a stream is found on a chosen device when no parent's stream is reused. */
public enum RetrieveNewStreamPolicy implements OptionValue {
    /** Reuse a stream with no unfinished work if the device has one, else create one. */
    REUSE("reuse"),
    /** Always create a new stream. */
    ALWAYS_NEW("always-new");

    private final String value;

    RetrieveNewStreamPolicy(String value) {
        this.value = value;
    }

    @Override
    public String optionValue() {
        return value;
    }
}
