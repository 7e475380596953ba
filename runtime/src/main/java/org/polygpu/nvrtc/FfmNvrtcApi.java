package org.polygpu.nvrtc;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * {@link NvrtcApi} over a loaded {@code libnvrtc}, through downcall handles bound once per library.
 *
 * <p>The library stays loaded for the life of the JVM (it is opened in the global arena). Thread-safe: the handles
 * are immutable and NVRTC allows concurrent calls on distinct programs.
 */
final class FfmNvrtcApi implements NvrtcApi {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final FunctionDescriptor PROGRAM_AND_POINTER = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

    private final MethodHandle version;
    private final MethodHandle createProgram;
    private final MethodHandle addNameExpression;
    private final MethodHandle compileProgram;
    private final MethodHandle getPtxSize;
    private final MethodHandle getPtx;
    private final MethodHandle getCubinSize;
    private final MethodHandle getCubin;
    private final MethodHandle getProgramLogSize;
    private final MethodHandle getProgramLog;
    private final MethodHandle getLoweredName;
    private final MethodHandle destroyProgram;
    private final MethodHandle getErrorString;

    private FfmNvrtcApi(SymbolLookup lookup) {
        version = bind(lookup, "nvrtcVersion", PROGRAM_AND_POINTER);
        createProgram = bind(lookup, "nvrtcCreateProgram",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
        addNameExpression = bind(lookup, "nvrtcAddNameExpression", PROGRAM_AND_POINTER);
        compileProgram = bind(lookup, "nvrtcCompileProgram",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        getPtxSize = bind(lookup, "nvrtcGetPTXSize", PROGRAM_AND_POINTER);
        getPtx = bind(lookup, "nvrtcGetPTX", PROGRAM_AND_POINTER);
        getCubinSize = bind(lookup, "nvrtcGetCUBINSize", PROGRAM_AND_POINTER);
        getCubin = bind(lookup, "nvrtcGetCUBIN", PROGRAM_AND_POINTER);
        getProgramLogSize = bind(lookup, "nvrtcGetProgramLogSize", PROGRAM_AND_POINTER);
        getProgramLog = bind(lookup, "nvrtcGetProgramLog", PROGRAM_AND_POINTER);
        getLoweredName = bind(lookup, "nvrtcGetLoweredName",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        destroyProgram = bind(lookup, "nvrtcDestroyProgram", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        getErrorString = bind(lookup, "nvrtcGetErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    /**
     * Loads the library at {@code library} and binds every function; fails, saying what the file is, if it is not a
     * shared library, or is one without NVRTC's entry point {@code nvrtcVersion}, or lacks a function.
     */
    static FfmNvrtcApi open(Path library) {
        if (!isElf(library)) {
            throw NvrtcException.unavailable("Cannot load NVRTC from " + library + ": it is not a shared library"
                    + " (an ELF file)");
        }
        SymbolLookup lookup;
        try {
            lookup = SymbolLookup.libraryLookup(library, Arena.global());
        } catch (IllegalArgumentException e) {
            throw NvrtcException.unavailable("Cannot load NVRTC from " + library + ": " + e.getMessage(), e);
        }
        if (lookup.find("nvrtcVersion").isEmpty()) {
            throw NvrtcException.unavailable(library + " is not NVRTC: it is a shared library without the function"
                    + " nvrtcVersion");
        }
        return new FfmNvrtcApi(lookup);
    }

    /** Whether the file starts as an ELF object does; other platforms' libraries are not looked for. */
    private static boolean isElf(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(4), new byte[] {0x7f, 'E', 'L', 'F'});
        } catch (IOException e) {
            // Unreadable: the loader below says why.
            return true;
        }
    }

    private static MethodHandle bind(SymbolLookup lookup, String name, FunctionDescriptor descriptor) {
        MemorySegment symbol = lookup.find(name).orElseThrow(() -> NvrtcException.unavailable(
                "The NVRTC library has no function " + name + "; polygpu needs NVRTC 12 or newer."));
        return LINKER.downcallHandle(symbol, descriptor);
    }

    @Override
    public int version(MemorySegment major, MemorySegment minor) {
        return call(version, major, minor);
    }

    @Override
    public int createProgram(MemorySegment programOut, MemorySegment source, MemorySegment name, int headerCount,
            MemorySegment headers, MemorySegment includeNames) {
        try {
            return (int) createProgram.invokeExact(programOut, source, name, headerCount, headers, includeNames);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int addNameExpression(MemorySegment program, MemorySegment nameExpression) {
        return call(addNameExpression, program, nameExpression);
    }

    @Override
    public int compileProgram(MemorySegment program, int optionCount, MemorySegment options) {
        try {
            return (int) compileProgram.invokeExact(program, optionCount, options);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int getPtxSize(MemorySegment program, MemorySegment sizeOut) {
        return call(getPtxSize, program, sizeOut);
    }

    @Override
    public int getPtx(MemorySegment program, MemorySegment ptx) {
        return call(getPtx, program, ptx);
    }

    @Override
    public int getCubinSize(MemorySegment program, MemorySegment sizeOut) {
        return call(getCubinSize, program, sizeOut);
    }

    @Override
    public int getCubin(MemorySegment program, MemorySegment cubin) {
        return call(getCubin, program, cubin);
    }

    @Override
    public int getProgramLogSize(MemorySegment program, MemorySegment sizeOut) {
        return call(getProgramLogSize, program, sizeOut);
    }

    @Override
    public int getProgramLog(MemorySegment program, MemorySegment log) {
        return call(getProgramLog, program, log);
    }

    @Override
    public int getLoweredName(MemorySegment program, MemorySegment nameExpression, MemorySegment loweredNameOut) {
        try {
            return (int) getLoweredName.invokeExact(program, nameExpression, loweredNameOut);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int destroyProgram(MemorySegment programInOut) {
        try {
            return (int) destroyProgram.invokeExact(programInOut);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public MemorySegment getErrorString(int result) {
        try {
            return (MemorySegment) getErrorString.invokeExact(result);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    /** Invokes a function of shape {@code nvrtcResult f(void *, void *)}. */
    private static int call(MethodHandle handle, MemorySegment first, MemorySegment second) {
        try {
            return (int) handle.invokeExact(first, second);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    /** A downcall declares {@code Throwable} but only rethrows what the invocation machinery raises. */
    private static RuntimeException unexpected(Throwable t) {
        if (t instanceof RuntimeException runtime) {
            return runtime;
        }
        if (t instanceof Error error) {
            throw error;
        }
        return new IllegalStateException("Unexpected exception from an NVRTC downcall", t);
    }
}
