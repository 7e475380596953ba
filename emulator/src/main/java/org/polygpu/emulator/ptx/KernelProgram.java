package org.polygpu.emulator.ptx;

import java.util.List;

/**
 * One kernel decoded for execution: the code of the entry and every function it calls, the register file layout
 * and the memory layouts. Immutable and shared by every launch of the kernel on every device.
 *
 * @param kernel        the signature and sizes a launch checks
 * @param code          {@link Op#WIDTH} ints per instruction; pc 0 is the entry
 * @param lines         the PTX line of each instruction
 * @param table         side table of vector register lists, call copies and atomic descriptors
 * @param template      initial register file of a warp, {@code registers * 32} values: constants and lane ids
 * @param globalSymbols registers to fill at launch with the device address of a module variable plus an offset
 * @param dynamicSharedOffset where {@code extern .shared} arrays start
 * @param maxCallDepth  the deepest chain of calls (no recursion)
 * @param orderedCtas   whether the kernel uses global {@code atom.cas} or {@code atom.exch}, whose retry loops make
 *                      instruction counts depend on CTA interleaving; such kernels run their CTAs one at a time
 * @param source        the module's source lines, for messages
 */
record KernelProgram(PtxKernel kernel, int[] code, int[] lines, int[] table, long[] template,
                     List<GlobalSymbol> globalSymbols, int dynamicSharedOffset, int maxCallDepth,
                     boolean orderedCtas, List<String> source) {

    /** A register holding the address of module variable {@code variable} plus {@code offset}. */
    record GlobalSymbol(int register, String variable, long offset) {
    }

    int registers() {
        return template.length / 32;
    }

    /** The source text of the instruction at {@code pc}, e.g. {@code PTX line 12: ld.global.f32 %f1, [%rd4]}. */
    String where(int pc) {
        int line = lines[pc];
        String text = line >= 1 && line <= source.size() ? ": " + source.get(line - 1).strip() : "";
        return "PTX line " + line + text;
    }
}
