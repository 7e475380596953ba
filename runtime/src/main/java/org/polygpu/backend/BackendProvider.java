package org.polygpu.backend;

import java.util.Map;
import java.util.Set;

/**
 * Makes one kind of backend ({@code cuda}, {@code emulated}); registered under {@code META-INF/services} and found
 * by {@link Backends} from the {@code Backend} option.
 */
public interface BackendProvider {
    /** The option value that selects this backend. */
    String name();

    /** The option names this backend reads (e.g. {@code EmulatedDevices}); others are not its business. */
    Set<String> optionNames();

    /**
     * Whether this backend can run here, and why not; cheap and side-effect free (no device memory is touched).
     * {@code Backend=auto} takes the first usable provider by {@link #priority()}.
     */
    Availability probe(Map<String, String> options);

    /** Lower runs first under {@code Backend=auto}: real GPUs before the emulator. */
    int priority();

    /**
     * Opens the backend with its options (option name → text value).
     *
     * @throws IllegalArgumentException for a bad option value, naming the valid values
     * @throws BackendException         when the backend cannot start, saying why
     */
    OpenedBackend open(Map<String, String> options);

    /** Whether a backend is usable, with the reason in words either way. */
    record Availability(boolean usable, String reason) {
    }
}
