package org.polygpu.backend;

/**
 * Makes one kind of backend ({@code cuda}, {@code emulated}); registered under {@code META-INF/services} and found
 * by {@link Backends} from the {@code Backend} option.
 */
public interface BackendProvider {
    /** The option value that selects this backend. */
    String name();

    /**
     * Checks the options this kind of backend reads, whichever backend is chosen, so that a bad value fails when a
     * context starts and not only where that backend runs. The default checks nothing.
     *
     * @throws IllegalArgumentException naming the option and what is valid
     */
    default void check(BackendOptions options) {
    }

    /**
     * Whether this backend can run here, and why not; cheap and side-effect free (no device memory is touched).
     * {@code Backend=auto} takes the first usable provider by {@link #priority()}.
     */
    Availability probe(BackendOptions options);

    /** Lower runs first under {@code Backend=auto}: real GPUs before the emulator. */
    int priority();

    /**
     * Opens the backend with its options.
     *
     * @throws IllegalArgumentException for a bad option value, naming the valid values
     * @throws BackendException         when the backend cannot start, saying why
     */
    OpenedBackend open(BackendOptions options);

    /** Whether a backend is usable, with the reason in words either way. */
    record Availability(boolean usable, String reason) {
    }
}
