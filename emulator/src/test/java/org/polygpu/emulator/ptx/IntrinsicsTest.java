package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * CUDA's integer, bit, warp and block intrinsics as NVRTC compiles them ({@code WARP_SZ}, {@code bar.red},
 * {@code bfind}, {@code fns}, {@code match}, {@code dp4a}/{@code dp2a}, {@code redux.sync}), run on the interpreter
 * and compared with Java references. Skipped without NVRTC.
 */
class IntrinsicsTest {
    private static final int THREADS = 256;

    /** One word per thread and intrinsic; inputs mix zero, sign bits and random values. */
    private static int[] inputs() {
        Random random = new Random(14);
        int[] in = new int[THREADS];
        for (int i = 0; i < THREADS; i++) {
            in[i] = switch (i % 8) {
                case 0 -> 0;
                case 1 -> -1;
                case 2 -> 1 << (i % 32);
                case 3 -> Integer.MIN_VALUE;
                default -> random.nextInt() >>> (i % 13);
            };
        }
        return in;
    }

    private static final String BIT_KERNEL = """
            extern "C" __global__ void bits(int *out, const int *in) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                int v = in[i];
                int *o = out + i * 12;
                o[0] = warpSize;
                o[1] = __ffs(v);
                o[2] = __ffsll((long long) v << 20);
                o[3] = __clz(v);
                o[4] = __fns(v, i & 31, (i % 5) - 2);
                o[5] = __dp4a(v, v * 7, 5);
                o[6] = __dp4a((unsigned) v, (unsigned) v * 3u, 1u);
                o[7] = __dp2a_lo(v, v * 7, 5);
                o[8] = __dp2a_hi((unsigned) v, (unsigned) v * 7u, 5u);
                o[9] = __clzll((long long) v);
                o[10] = 31 - __clz(v ^ (v >> 31));
                o[11] = __ffs(v & (i << 3));
            }
            """;

    @Test
    void bitIntrinsicsMatchTheirDefinitions() {
        PtxModule m = CudaCompiler.compile(BIT_KERNEL, "compute_70");
        int[] in = inputs();
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * 12 * THREADS);
            d.launch(m, "bits", 2, THREADS / 2, out, d.ints(in));
            int[] got = d.intsAt(out, 12 * THREADS);
            for (int i = 0; i < THREADS; i++) {
                int v = in[i];
                int[] expected = {32, Integer.numberOfTrailingZeros(v) % 32 + (v == 0 ? 0 : 1),
                    ffs((long) v << 20), Integer.numberOfLeadingZeros(v), fns(v, i & 31, i % 5 - 2),
                    dp4a(v, v * 7, 5, true, true), dp4a(v, v * 3, 1, false, false), dp2a(v, v * 7, 5, true, 0),
                    dp2a(v, v * 7, 5, false, 16), Long.numberOfLeadingZeros(v), 31 - Integer.numberOfLeadingZeros(
                    v ^ (v >> 31)), ffs(v & (i << 3))};
                int[] actual = new int[12];
                System.arraycopy(got, i * 12, actual, 0, 12);
                assertArrayEquals(expected, actual, "thread " + i + " input " + Integer.toHexString(v));
            }
        }
    }

    private static int ffs(long v) {
        return v == 0 ? 0 : Long.numberOfTrailingZeros(v) + 1;
    }

    private static int fns(int mask, int base, int offset) {
        if (offset == 0) {
            return (mask >>> base & 1) != 0 ? base : -1;
        }
        int seen = 0;
        for (int pos = base; pos >= 0 && pos < 32; pos += Integer.signum(offset)) {
            if ((mask >>> pos & 1) != 0 && ++seen == Math.abs(offset)) {
                return pos;
            }
        }
        return -1;
    }

    private static int dp4a(int a, int b, int c, boolean signedA, boolean signedB) {
        for (int k = 0; k < 4; k++) {
            int x = signedA ? (byte) (a >> 8 * k) : a >> 8 * k & 0xFF;
            int y = signedB ? (byte) (b >> 8 * k) : b >> 8 * k & 0xFF;
            c += x * y;
        }
        return c;
    }

    private static int dp2a(int a, int b, int c, boolean signed, int firstByte) {
        for (int k = 0; k < 2; k++) {
            int x = signed ? (short) (a >> 16 * k) : a >> 16 * k & 0xFFFF;
            int y = signed ? (byte) (b >> firstByte + 8 * k) : b >> firstByte + 8 * k & 0xFF;
            c += x * y;
        }
        return c;
    }

    private static final String BLOCK_KERNEL = """
            extern "C" __global__ void block(int *out, const int *in, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i >= n) return;
                int v = in[i];
                int *o = out + i * 6;
                o[0] = __syncthreads_count(v & 1);
                o[1] = __syncthreads_and(v & 1);
                o[2] = __syncthreads_or(v == 1);
                o[3] = __match_any_sync(__activemask(), v & 3);
                int all;
                o[4] = __match_all_sync(__activemask(), v & 1 | 2, &all);
                o[5] = all;
            }
            """;

    /** Block reductions count over the block's threads still running; matches group a warp's lanes by value. */
    @Test
    void blockReductionsAndWarpMatchesMatchTheirDefinitions() {
        PtxModule m = CudaCompiler.compile(BLOCK_KERNEL, "compute_70");
        int[] in = inputs();
        in[1] = 1;
        int n = THREADS - 40; // the last block's final warps exit before its barriers: they take no part
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * 6 * THREADS);
            d.launch(m, "block", 2, THREADS / 2, out, d.ints(in), n);
            int[] got = d.intsAt(out, 6 * THREADS);
            for (int block = 0; block < 2; block++) {
                int first = block * THREADS / 2;
                int last = Math.min(n, first + THREADS / 2);
                int count = 0;
                boolean any = false;
                for (int i = first; i < last; i++) {
                    count += in[i] & 1;
                    any |= in[i] == 1;
                }
                for (int i = first; i < last; i++) {
                    int warp = i / 32 * 32;
                    int lanes = Math.min(32, n - warp);
                    int active = lanes == 32 ? -1 : (1 << lanes) - 1;
                    int peers = 0;
                    boolean same = true;
                    for (int l = 0; l < lanes; l++) {
                        peers |= (in[warp + l] & 3) == (in[i] & 3) ? 1 << l : 0;
                        same &= (in[warp + l] & 1) == (in[warp] & 1);
                    }
                    int[] expected = {count, count == last - first ? 1 : 0, any ? 1 : 0, peers, same ? active : 0,
                        same ? 1 : 0};
                    int[] actual = new int[6];
                    System.arraycopy(got, i * 6, actual, 0, 6);
                    assertArrayEquals(expected, actual, "thread " + i);
                }
            }
        }
    }

    private static final String REDUX_KERNEL = """
            extern "C" __global__ void redux(unsigned *out, const unsigned *in) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                unsigned v = in[i];
                unsigned *o = out + i * 8;
                o[0] = __reduce_add_sync(0xffffffff, v);
                o[1] = __reduce_min_sync(0xffffffff, v);
                o[2] = __reduce_max_sync(0xffffffff, v);
                o[3] = __reduce_min_sync(0xffffffff, (int) v);
                o[4] = __reduce_max_sync(0xffffffff, (int) v);
                o[5] = __reduce_and_sync(0xffffffff, v | 0x10);
                o[6] = __reduce_or_sync(0xffffffff, v);
                o[7] = __reduce_xor_sync(0xffffffff, v);
            }
            """;

    @Test
    void warpReductionsOfComputeCapability80MatchTheirDefinitions() {
        PtxModule m = CudaCompiler.compile(REDUX_KERNEL, "compute_80");
        int[] in = inputs();
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * 8 * THREADS);
            d.launch(m, "redux", 2, THREADS / 2, out, d.ints(in));
            int[] got = d.intsAt(out, 8 * THREADS);
            for (int warp = 0; warp < THREADS; warp += 32) {
                int[] e = {0, -1, 0, Integer.MAX_VALUE, Integer.MIN_VALUE, -1, 0, 0};
                for (int l = warp; l < warp + 32; l++) {
                    int v = in[l];
                    e[0] += v;
                    e[1] = Integer.compareUnsigned(e[1], v) <= 0 ? e[1] : v;
                    e[2] = Integer.compareUnsigned(e[2], v) >= 0 ? e[2] : v;
                    e[3] = Math.min(e[3], v);
                    e[4] = Math.max(e[4], v);
                    e[5] &= v | 0x10;
                    e[6] |= v;
                    e[7] ^= v;
                }
                for (int l = warp; l < warp + 32; l++) {
                    int[] actual = new int[8];
                    System.arraycopy(got, l * 8, actual, 0, 8);
                    assertArrayEquals(e, actual, "lane " + l);
                }
            }
        }
    }

    /** Forms NVRTC does not write for the kernels above, from a hand-written fixture: no NVRTC needed. */
    @ParameterizedTest(name = "fns base {0} offset {1}")
    @CsvSource({"3, 1", "3, -1", "2, 1", "2, -1", "0, 0", "31, 2", "5, -3"})
    void signedAnd64BitBfindFnsReduxMatchB64AndNegatedBarrierPredicates(int base, int offset) {
        int[] in = inputs();
        int n = 64;
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(40L * n);
            d.launch(FIXTURE, "scan", 1, n, d.ints(in), out, base, offset);
            int[] got = d.intsAt(out, 10 * n);
            int odd = 0;
            for (int i = 0; i < n; i++) {
                odd += in[i] & 1;
            }
            for (int i = 0; i < n; i++) {
                int v = in[i];
                long wide = (v & 0xFFFF_FFFFL) << 20;
                int s = v < 0 ? ~v : v;
                int warp = i / 32 * 32;
                int sum = 0;
                int peers = 0;
                for (int l = 0; l < 32; l++) {
                    sum += in[warp + l];
                    peers |= ((in[warp + l] ^ v) & 1) == 0 ? 1 << l : 0;
                }
                int[] expected = {v == 0 ? -1 : 31 - Integer.numberOfLeadingZeros(v),
                    s == 0 ? -1 : 31 - Integer.numberOfLeadingZeros(s), s == 0 ? -1 : Integer.numberOfLeadingZeros(s),
                    wide == 0 ? -1 : 63 - Long.numberOfLeadingZeros(wide),
                    wide == 0 ? -1 : Long.numberOfLeadingZeros(wide), fns(v, base, offset), sum, peers, n - odd,
                    odd > 0 ? 1 : 0};
                assertArrayEquals(expected, java.util.Arrays.copyOfRange(got, 10 * i, 10 * i + 10), "thread " + i);
            }
        }
        assertEquals(3, fns(0xaaaaaaaa, 2, 1), "the ISA's example");
        assertEquals(1, fns(0xaaaaaaaa, 2, -1), "the ISA's example");
    }

    private static final PtxModule FIXTURE = TestDevice.module("intrinsics.ptx");

    @Test
    void nvrtcWritesFfsAsBfindShiftAmountAndWarpSizeAsWarpSz() {
        String ptx = CudaCompiler.ptx(BIT_KERNEL, "compute_70");
        assertTrue(ptx.contains("bfind.shiftamt.u32"), ptx);
        assertTrue(ptx.contains("WARP_SZ"), ptx);
        assertTrue(CudaCompiler.ptx(BLOCK_KERNEL, "compute_70").contains("bar.red.popc.u32"));
    }
}
