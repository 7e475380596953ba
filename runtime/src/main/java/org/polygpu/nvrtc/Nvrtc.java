package org.polygpu.nvrtc;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Pattern;

/**
 * NVRTC, the run-time CUDA C++ compiler: compiles a kernel source string to PTX (and to a CUBIN when a real
 * architecture {@code sm_XX} is targeted).
 *
 * <p>Every NVRTC return code goes through {@link #check}, which throws {@link NvrtcException} naming the function
 * and the C error. Native memory of a compilation lives in a confined arena closed when {@code compile} returns, and
 * the NVRTC program is destroyed on every path. Instances are immutable and thread-safe; one is kept per library
 * path, since a loaded library is never unloaded.
 */
public final class Nvrtc {
    private static final ConcurrentMap<Path, Nvrtc> LOADED = new ConcurrentHashMap<>();
    /** NVRTC's line {@code nvrtc: warning: Architectures prior to '<compute/sm>_75' are deprecated ...}. */
    private static final Pattern ARCHITECTURE_NOTICE = Pattern.compile(
            "(?m)^nvrtc: warning: Architectures prior to \\S+ are deprecated[^\\n]*(\\R|$)");

    private final NvrtcApi api;
    private final Path libraryPath;
    private final String version;
    private static final List<String> HOST_CODE_ERRORS = List.of("host functions are not allowed in JIT mode",
            "host variables are not allowed in JIT mode");
    private static final String DEFAULT_DEVICE = "-default-device";
    private final List<Path> includeDirectories;

    Nvrtc(NvrtcApi api, Path libraryPath) {
        this.api = api;
        this.libraryPath = libraryPath;
        this.version = queryVersion();
        this.includeDirectories = NvrtcHeaders.beside(libraryPath);
    }

    /**
     * Finds and loads NVRTC: {@code explicitPathOrNull} (the {@code NvrtcLibrary} option) when given, else the
     * places {@link NvrtcLibrary} searches.
     *
     * @throws NvrtcException when no NVRTC is found (the message says where it looked and how to install it), or
     *     the library cannot be loaded
     */
    public static Nvrtc load(String explicitPathOrNull) {
        Path path = NvrtcLibrary.system(explicitPathOrNull).locate();
        return LOADED.computeIfAbsent(path, p -> new Nvrtc(FfmNvrtcApi.open(p), p));
    }

    /** NVRTC's version as {@code major.minor}, such as {@code 12.9}. */
    public String version() {
        return version;
    }

    /** The absolute path of the loaded library. */
    public Path libraryPath() {
        return libraryPath;
    }

    /**
     * The CUDA header directories found beside the library ({@link NvrtcHeaders}), passed to every compilation after
     * the caller's options, so that the caller's own {@code -I} directories are searched first.
     */
    public List<Path> includeDirectories() {
        return includeDirectories;
    }

    /**
     * Compiles {@code source}, with the {@link StandardHeaders} available to its includes and the math library's
     * declarations and macros included first, as nvcc's implicit {@code cuda_runtime.h} does. When NVRTC refuses host
     * functions or variables (declarations in a header written for nvcc), the source is compiled again with
     * {@code -default-device}, which makes unannotated functions and variables device ones.
     *
     * @param source CUDA C++ source
     * @param programName the name NVRTC uses for the source in diagnostics ({@code name(line): error: ...})
     * @param options NVRTC options, such as {@code --gpu-architecture=compute_70} or {@code --use_fast_math}; the
     *     {@link #includeDirectories()} follow them
     * @param nameExpressions expressions whose mangled names are wanted, such as {@code inc_kernel<int>}; naming a
     *     template instantiation also instantiates it
     * @throws NvrtcException when a call fails; a compilation error carries the program log
     */
    public NvrtcResult compile(String source, String programName, List<String> options, List<String> nameExpressions) {
        try {
            return compileOnce(source, programName, options, nameExpressions);
        } catch (NvrtcException e) {
            if (HOST_CODE_ERRORS.stream().noneMatch(e.log()::contains) || options.contains(DEFAULT_DEVICE)
                    || options.contains("--device-as-default-execution-space")) {
                throw e;
            }
            // Code written for nvcc declares host functions and variables too (a sample's *_common.h, its name in a
            // global); as device entities they are harmless, and a definition that needs the host still fails.
            List<String> retry = new ArrayList<>(options);
            retry.add(DEFAULT_DEVICE);
            return compileOnce(source, programName, retry, nameExpressions);
        }
    }

    private NvrtcResult compileOnce(String source, String programName, List<String> options,
            List<String> nameExpressions) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment programOut = arena.allocate(ADDRESS);
            int headers = StandardHeaders.ALL.size();
            MemorySegment texts = arena.allocate(ADDRESS, headers);
            MemorySegment names = arena.allocate(ADDRESS, headers);
            int i = 0;
            for (Map.Entry<String, String> h : StandardHeaders.ALL.entrySet()) {
                names.setAtIndex(ADDRESS, i, arena.allocateFrom(h.getKey()));
                texts.setAtIndex(ADDRESS, i++, arena.allocateFrom(h.getValue()));
            }
            check(api.createProgram(programOut, arena.allocateFrom(source), arena.allocateFrom(programName), headers,
                    texts, names), "nvrtcCreateProgram");
            MemorySegment program = programOut.get(ADDRESS, 0);
            NvrtcResult result;
            List<String> all = new ArrayList<>(options);
            includeDirectories.forEach(d -> all.add("-I" + d));
            all.add("--pre-include=" + StandardHeaders.IMPLICIT);
            try {
                result = compileProgram(arena, program, source, programName, all, nameExpressions);
            } catch (NvrtcException e) {
                destroy(programOut, e);
                throw e;
            }
            check(api.destroyProgram(programOut), "nvrtcDestroyProgram");
            return result;
        }
    }

    private NvrtcResult compileProgram(Arena arena, MemorySegment program, String source, String programName,
            List<String> options, List<String> nameExpressions) {
        for (String expression : nameExpressions) {
            check(api.addNameExpression(program, arena.allocateFrom(expression)), "nvrtcAddNameExpression");
        }
        MemorySegment optionArray = arena.allocate(ADDRESS, Math.max(1, options.size()));
        for (int i = 0; i < options.size(); i++) {
            optionArray.setAtIndex(ADDRESS, i, arena.allocateFrom(options.get(i)));
        }
        int compiled = api.compileProgram(program, options.size(), optionArray);
        String log = programLog(arena, program);
        if (compiled != NvrtcStatus.NVRTC_SUCCESS.code()) {
            String missing = KernelNames.missing(source, programName, nameExpressions, log);
            throw missing.isEmpty() ? failure("nvrtcCompileProgram", compiled, log)
                    : NvrtcException.compilationFailed(missing, "nvrtcCompileProgram", compiled, log);
        }
        String ptx = ptx(arena, program);
        byte[] cubin = cubin(arena, program);
        Map<String, String> lowered = new LinkedHashMap<>();
        for (String expression : nameExpressions) {
            MemorySegment nameOut = arena.allocate(ADDRESS);
            check(api.getLoweredName(program, arena.allocateFrom(expression), nameOut), "nvrtcGetLoweredName");
            // The lowered name belongs to the program, so it is copied out before the program is destroyed.
            lowered.put(expression, cString(nameOut.get(ADDRESS, 0)));
        }
        return new NvrtcResult(ptx, cubin, lowered, log);
    }

    private String programLog(Arena arena, MemorySegment program) {
        long size = size(arena, program, api::getProgramLogSize, "nvrtcGetProgramLogSize");
        MemorySegment log = arena.allocate(Math.max(1, size));
        check(api.getProgramLog(program, log), "nvrtcGetProgramLog");
        return withoutArchitectureNotice(log.getString(0));
    }

    /**
     * {@code log} without NVRTC's notice that architectures before compute_75 are deprecated. It is about the
     * architecture the backend targets (the emulated V100 is compute_70), not the user's program, so it is dropped
     * from every log, of a success or a failure alike; a log left blank becomes empty.
     */
    static String withoutArchitectureNotice(String log) {
        String kept = ARCHITECTURE_NOTICE.matcher(log).replaceAll("");
        return kept.isBlank() ? "" : kept;
    }

    private String ptx(Arena arena, MemorySegment program) {
        long size = size(arena, program, api::getPtxSize, "nvrtcGetPTXSize");
        MemorySegment ptx = arena.allocate(Math.max(1, size));
        check(api.getPtx(program, ptx), "nvrtcGetPTX");
        return ptx.getString(0);
    }

    /** The CUBIN, or {@code null} when the program targeted only a virtual architecture (NVRTC reports size 0). */
    private byte[] cubin(Arena arena, MemorySegment program) {
        long size = size(arena, program, api::getCubinSize, "nvrtcGetCUBINSize");
        if (size == 0) {
            return null;
        }
        MemorySegment cubin = arena.allocate(size);
        check(api.getCubin(program, cubin), "nvrtcGetCUBIN");
        return cubin.toArray(JAVA_BYTE);
    }

    private long size(Arena arena, MemorySegment program, SizeQuery query, String function) {
        MemorySegment sizeOut = arena.allocate(JAVA_LONG);
        check(query.size(program, sizeOut), function);
        return sizeOut.get(JAVA_LONG, 0);
    }

    private void destroy(MemorySegment programOut, NvrtcException pending) {
        int destroyed = api.destroyProgram(programOut);
        if (destroyed != NvrtcStatus.NVRTC_SUCCESS.code()) {
            pending.addSuppressed(failure("nvrtcDestroyProgram", destroyed, ""));
        }
    }

    private String queryVersion() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment major = arena.allocate(JAVA_INT);
            MemorySegment minor = arena.allocate(JAVA_INT);
            check(api.version(major, minor), "nvrtcVersion");
            return major.get(JAVA_INT, 0) + "." + minor.get(JAVA_INT, 0);
        }
    }

    /** The one check every NVRTC return code goes through. */
    private void check(int code, String function) {
        if (code != NvrtcStatus.NVRTC_SUCCESS.code()) {
            throw failure(function, code, "");
        }
    }

    private NvrtcException failure(String function, int code, String log) {
        String name = NvrtcStatus.of(code).map(Enum::name).orElseGet(() -> cString(api.getErrorString(code)));
        return NvrtcException.callFailed(function, code, name, log);
    }

    /** Reads a NUL-terminated string NVRTC owns; the segment comes back from native code with length zero. */
    private static String cString(MemorySegment pointer) {
        if (pointer.equals(MemorySegment.NULL)) {
            return "";
        }
        return pointer.reinterpret(Integer.MAX_VALUE).getString(0);
    }

    /** One of NVRTC's {@code nvrtcGet...Size(program, size_t *)} functions. */
    @FunctionalInterface
    private interface SizeQuery {
        int size(MemorySegment program, MemorySegment sizeOut);
    }
}
