package org.polygpu.backend;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Opens the backend named by the {@code Backend} option: {@code auto} (default) takes the first usable provider,
 * real GPUs first, and says which and why; a named backend that cannot run is an error saying why.
 */
public final class Backends {
    /** The {@code Backend} value that takes the first usable provider. */
    public static final String AUTO = "auto";

    private Backends() {
    }

    /** Every backend provider on the class path, by priority. */
    public static List<BackendProvider> providers() {
        List<BackendProvider> list = new ArrayList<>();
        ServiceLoader.load(BackendProvider.class).forEach(list::add);
        list.sort(Comparator.comparingInt(BackendProvider::priority).thenComparing(BackendProvider::name));
        return list;
    }

    /**
     * Checks {@code choice} and {@code options} as {@link #open} does before opening anything, so that a context can
     * reject bad options when it starts and open its backend only when first used. Touches no device and loads no
     * native library.
     *
     * @throws IllegalArgumentException for an unknown choice, listing the valid ones, or a bad option value
     */
    public static void check(String choice, BackendOptions options) {
        List<BackendProvider> providers = providers();
        providers.forEach(p -> p.check(options));
        if (!choice.equals(AUTO) && providers.stream().noneMatch(p -> p.name().equals(choice))) {
            throw unknown(choice, providers);
        }
    }

    /**
     * Opens {@code choice} ({@code auto} or a provider name) with {@code options}, after every provider checked the
     * options it reads.
     *
     * @throws IllegalArgumentException for an unknown choice, listing the valid ones, or a bad option value
     * @throws BackendException         when the chosen backend cannot run here, saying why
     */
    public static OpenedBackend open(String choice, BackendOptions options) {
        List<BackendProvider> providers = providers();
        providers.forEach(p -> p.check(options));
        if (choice.equals(AUTO)) {
            StringBuilder why = new StringBuilder();
            for (BackendProvider p : providers) {
                BackendProvider.Availability a = p.probe(options);
                if (a.usable()) {
                    OpenedBackend opened = p.open(options);
                    String reasons = why.isEmpty() ? "" : why + "; ";
                    return opened.withNotice("polygpu: " + reasons + opened.notice());
                }
                why.append(why.isEmpty() ? "" : "; ").append(p.name()).append(": ").append(a.reason());
            }
            throw new BackendException("no backend can run here (" + why + ")");
        }
        for (BackendProvider p : providers) {
            if (p.name().equals(choice)) {
                BackendProvider.Availability a = p.probe(options);
                if (!a.usable()) {
                    throw new BackendException("Backend=" + choice + " cannot run here: " + a.reason());
                }
                OpenedBackend opened = p.open(options);
                return opened.withNotice("polygpu: " + opened.notice());
            }
        }
        throw unknown(choice, providers);
    }

    private static IllegalArgumentException unknown(String choice, List<BackendProvider> providers) {
        StringBuilder valid = new StringBuilder(AUTO);
        providers.forEach(p -> valid.append(", ").append(p.name()));
        return new IllegalArgumentException("invalid value '" + choice + "' for option Backend; valid values: "
                + valid);
    }
}
