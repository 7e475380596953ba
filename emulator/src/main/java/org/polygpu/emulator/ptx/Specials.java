package org.polygpu.emulator.ptx;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The special registers ({@code %tid.x}, {@code %laneid}, ...) and the hidden carry flag, which occupy the first
 * registers of every warp's register file and are filled before the warp runs (per launch, per CTA or per warp);
 * and the layout of the generic address space.
 *
 * <p>Generic addresses: the shared window starts at {@link #SHARED_WINDOW} and the local window at
 * {@link #LOCAL_WINDOW} (each 4 GiB); device allocations (global and const) live at and above
 * {@link GlobalMemory#FIRST_ADDRESS}, so a generic address names its state space by range, and 0 is never valid.
 */
final class Specials {
    static final int TID_X = 0;
    static final int TID_Y = 1;
    static final int TID_Z = 2;
    static final int NTID_X = 3;
    static final int NTID_Y = 4;
    static final int NTID_Z = 5;
    static final int CTAID_X = 6;
    static final int CTAID_Y = 7;
    static final int CTAID_Z = 8;
    static final int NCTAID_X = 9;
    static final int NCTAID_Y = 10;
    static final int NCTAID_Z = 11;
    static final int LANEID = 12;
    static final int WARPID = 13;
    static final int NWARPID = 14;
    static final int LANEMASK_EQ = 15;
    static final int LANEMASK_LT = 16;
    static final int LANEMASK_LE = 17;
    static final int LANEMASK_GT = 18;
    static final int LANEMASK_GE = 19;
    static final int SMID = 20;
    static final int NSMID = 21;
    static final int GRIDID = 22;
    static final int DYNAMIC_SMEM_SIZE = 23;
    static final int TOTAL_SMEM_SIZE = 24;
    /**
     * {@code %envreg0..31}, which the driver fills for a launch: they hold the grid workspace of a cooperative launch
     * (the barrier of cooperative groups' {@code grid.sync()}), and are 0 here, as for a launch that is not
     * cooperative; {@code this_grid()} then works for ranks and sizes, and {@code grid.sync()} traps, as in CUDA.
     */
    static final int ENVREG = 25;
    /** The carry flag of {@code add.cc} and friends, one per lane. */
    static final int CARRY = 26;
    static final int COUNT = 27;

    static final long SHARED_WINDOW = 0x1_0000_0000L;
    static final long LOCAL_WINDOW = 0x2_0000_0000L;
    static final long WINDOW_SIZE = 0x1_0000_0000L;

    private static final Map<String, Integer> NAMES = names(Map.ofEntries(
            Map.entry("%tid.x", TID_X), Map.entry("%tid.y", TID_Y), Map.entry("%tid.z", TID_Z),
            Map.entry("%ntid.x", NTID_X), Map.entry("%ntid.y", NTID_Y), Map.entry("%ntid.z", NTID_Z),
            Map.entry("%ctaid.x", CTAID_X), Map.entry("%ctaid.y", CTAID_Y), Map.entry("%ctaid.z", CTAID_Z),
            Map.entry("%nctaid.x", NCTAID_X), Map.entry("%nctaid.y", NCTAID_Y), Map.entry("%nctaid.z", NCTAID_Z),
            Map.entry("%laneid", LANEID), Map.entry("%warpid", WARPID), Map.entry("%nwarpid", NWARPID),
            Map.entry("%lanemask_eq", LANEMASK_EQ), Map.entry("%lanemask_lt", LANEMASK_LT),
            Map.entry("%lanemask_le", LANEMASK_LE), Map.entry("%lanemask_gt", LANEMASK_GT),
            Map.entry("%lanemask_ge", LANEMASK_GE), Map.entry("%smid", SMID), Map.entry("%nsmid", NSMID),
            Map.entry("%gridid", GRIDID), Map.entry("%dynamic_smem_size", DYNAMIC_SMEM_SIZE),
            Map.entry("%total_smem_size", TOTAL_SMEM_SIZE)));

    private static Map<String, Integer> names(Map<String, Integer> fixed) {
        Map<String, Integer> all = new HashMap<>(fixed);
        for (int i = 0; i < 32; i++) {
            all.put("%envreg" + i, ENVREG);
        }
        return Map.copyOf(all);
    }

    private Specials() {
    }

    /** The register index of special register {@code name}, e.g. {@code %tid.x}. */
    static Optional<Integer> index(String name) {
        return Optional.ofNullable(NAMES.get(name));
    }

    /** Whether {@code name} is read by its own instruction ({@code %clock}, {@code %clock64}, ...). */
    static boolean isClock(String name) {
        return name.equals("%clock") || name.equals("%clock64") || name.startsWith("%globaltimer");
    }
}
