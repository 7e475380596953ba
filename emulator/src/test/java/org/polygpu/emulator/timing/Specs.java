package org.polygpu.emulator.timing;

import org.polygpu.emulator.ptx.InstructionMix;
import org.polygpu.emulator.ptx.KernelCounters;

/** Round-number specifications and synthetic counters for the timing tests. */
final class Specs {
    /** 100 SMs at 1 GHz (1 cycle per ns), 64 warps and 32 blocks per SM at most, 64 KiB shared per SM. */
    static final SmSpec SM = new SmSpec(100, 1000, 32, 1024, 48 << 10, 2048, 32, 65536, 64 << 10);
    /** 1000 GB/s DRAM at 400 ns, 1 MiB of L2 at 4000 GB/s and 100 ns, 50 GB/s per SM. */
    static final MemorySpec MEMORY = new MemorySpec(1000, 400, 1 << 20, 4000, 100, 50, 32, 32);
    /** 4 issues per cycle; FP32 4, FP64 2, integer 2, SFU 0.5 per cycle; 4 cycles between dependent instructions. */
    static final ComputeSpec COMPUTE = new ComputeSpec(4, 4, 2, 2, 0.5, 4);
    static final AtomicSpec ATOMICS = new AtomicSpec(2, 100);

    private Specs() {
    }

    /**
     * A launch of {@code blocks} blocks of 256 threads (8 warps) whose every warp issues {@code fp32} FP32
     * instructions and {@code loads} global loads, each exposed, moving {@code sectorsPerWarp} sectors in all, each
     * in a line of its own.
     */
    static KernelProfile profile(long blocks, long fp32, long loads, long sectorsPerWarp, long footprint) {
        long warps = blocks * 8;
        InstructionMix mix = new InstructionMix(fp32 * warps, 0, 0, 0, loads * warps, loads * warps, 0, 0, 0);
        KernelCounters c = new KernelCounters(blocks, warps, (fp32 + loads) * warps, (fp32 + loads) * warps * 32,
                sectorsPerWarp * warps, 0, 0, 0, 0, 0, mix, sectorsPerWarp * warps);
        return new KernelProfile(blocks, 256, 0, footprint, c);
    }

    /** {@code base} with {@code atomics} global atomics, {@code hot} of them on one address. */
    static KernelProfile withAtomics(KernelProfile base, long atomics, long hot) {
        KernelCounters c = base.counters();
        return new KernelProfile(base.blocks(), base.threadsPerBlock(), base.sharedBytes(), base.footprintBytes(),
                new KernelCounters(c.ctas(), c.warps(), c.warpInstructions(), c.threadInstructions(),
                        c.globalSectors(), 0, atomics, 0, 0, hot, c.mix(), c.globalLines()));
    }
}
