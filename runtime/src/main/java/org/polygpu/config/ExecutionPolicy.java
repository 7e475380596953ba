package org.polygpu.config;

/** Whether the host waits for each computation ({@code sync}) or continues at once ({@code async}). */
public enum ExecutionPolicy implements OptionValue {
    ASYNC("async"),
    SYNC("sync");

    private final String value;

    ExecutionPolicy(String value) {
        this.value = value;
    }

    @Override
    public String optionValue() {
        return value;
    }
}
