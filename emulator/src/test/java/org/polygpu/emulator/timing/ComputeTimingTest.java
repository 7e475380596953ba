package org.polygpu.emulator.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.polygpu.emulator.ptx.InstructionMix;
import org.polygpu.emulator.ptx.KernelCounters;

class ComputeTimingTest {
    private final ComputeTiming compute = new ComputeTiming(Specs.SM, Specs.COMPUTE);

    @Test
    void fewWarpsAreBoundByDependentIssue() {
        // 100 instructions, 4 cycles apart, at 1 GHz; 8 warps issue 800 at 4 per cycle in only 200 cycles
        assertEquals(400, compute.waveNs(Specs.profile(1, 100, 0, 0, 0), 8), 1e-9);
    }

    @Test
    void manyWarpsAreBoundByIssueThroughput() {
        // 64 warps x 100 FP32 instructions at 4 per cycle
        assertEquals(1600, compute.waveNs(Specs.profile(1, 100, 0, 0, 0), 64), 1e-9);
    }

    @Test
    void eachClassHasItsOwnThroughput() {
        // per warp: 100 SFU instructions at 0.5 per cycle, 64 warps: 12 800 cycles
        InstructionMix mix = new InstructionMix(0, 0, 0, 100 * 8, 0, 0, 0, 0, 0);
        KernelCounters c = new KernelCounters(1, 8, 800, 800 * 32, 0, 0, 0, 0, 0, 0, mix, 0);
        assertEquals(12_800, compute.waveNs(new KernelProfile(1, 256, 0, 0, c), 64), 1e-9);
    }

    @Test
    void bankConflictsCostWavefronts() {
        // 10 shared instructions per warp, each 8-way conflicted: 80 wavefronts per warp, one per cycle
        InstructionMix mix = new InstructionMix(0, 0, 0, 0, 0, 0, 0, 80, 0);
        KernelCounters c = new KernelCounters(1, 8, 80, 80 * 32, 0, 80, 0, 0, 8 * 80, 0, mix, 0);
        assertEquals(64 * 80, compute.waveNs(new KernelProfile(1, 256, 0, 0, c), 64), 1e-9);
    }
}
