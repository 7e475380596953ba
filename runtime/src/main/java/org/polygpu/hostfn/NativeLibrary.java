package org.polygpu.hostfn;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.util.Optional;

/**
 * A shared library opened with {@code dlopen}. A name without a slash is searched the way {@code dlopen} does
 * ({@code LD_LIBRARY_PATH}, the system's directories); a path is taken as is. The library stays loaded while this
 * object or a symbol found in it (a bound {@link HostFunction}) is reachable, and is unloaded by the garbage collector
 * after that. Thread-safe: lookups do not change it.
 */
public final class NativeLibrary {
    private final String name;
    private final Arena arena;
    private final SymbolLookup symbols;

    private NativeLibrary(String name, Arena arena, SymbolLookup symbols) {
        this.name = name;
        this.arena = arena;
        this.symbols = symbols;
    }

    /**
     * Opens {@code name}, a path or a library name.
     *
     * @throws IllegalArgumentException naming the library when it cannot be loaded
     */
    public static NativeLibrary open(String name) {
        Arena arena = Arena.ofAuto();
        try {
            return new NativeLibrary(name, arena, SymbolLookup.libraryLookup(name, arena));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot load the shared library '" + name + "': " + e.getMessage(), e);
        }
    }

    /** The name or path it was opened with. */
    public String name() {
        return name;
    }

    /** The address of {@code symbol}, or empty when the library does not export it. */
    public Optional<MemorySegment> find(String symbol) {
        return symbols.find(symbol);
    }

    @Override
    public String toString() {
        return name;
    }
}
