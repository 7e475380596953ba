package org.polygpu.config;

/** An enum constant that is selected by an option value (kebab-case), such as {@code with-const}. */
public interface OptionValue {
    /** The value as written in an option, e.g. {@code multigpu-disjoint}. */
    String optionValue();

    /**
     * The constant of {@code type} whose {@link #optionValue()} is {@code value}.
     *
     * @throws IllegalArgumentException naming the option and listing the valid values
     */
    static <E extends Enum<E> & OptionValue> E parse(Class<E> type, String option, String value) {
        StringBuilder valid = new StringBuilder();
        for (E e : type.getEnumConstants()) {
            if (e.optionValue().equals(value)) {
                return e;
            }
            valid.append(valid.isEmpty() ? "" : ", ").append(e.optionValue());
        }
        throw new IllegalArgumentException("invalid value '" + value + "' for option " + option + "; valid values: "
                + valid);
    }
}
