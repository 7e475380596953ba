package org.polygpu.cluster;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.function.IntUnaryOperator;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.Backends;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.blas.BlasFunctions;
import org.polygpu.config.ClusterCudaAware;

/**
 * Every kind of copy between ranks, for {@link DirectCopyJobTest} under {@code mpirun -np 3} with one emulated GPU per
 * rank (device r on rank r), each copy right after a kernel that writes its source or touches its destination on the
 * same stream, in 3 chunks of the transport (the last one partial), at offsets: rank 1 to rank 2, rank 2 to rank 0,
 * rank 0 to rank 1 (devices), rank 1 to rank 0's host, rank 0's host into rank 1; then a library routine (cuBLAS's
 * saxpy) on rank 2's device, whose result rank 0's stream, held on rank 0's host for rank 2's event, pulls into rank 0's
 * device. Rank 0 prints the job's line on the copy paths, then one line per check ({@code OK} or the first wrong
 * element), then {@code DONE}.
 * {@code args[0]} is {@code ClusterCudaAware}'s value.
 */
public final class DirectCopyCheck {
    private static final int INTS = 2 * Transport.CHUNK_BYTES / 4 + 1000;
    private static final long BYTES = 4L * INTS;
    private static final OperationLabel L = OperationLabel.NONE;
    /**
     * {@code fill(p, n, k)}: {@code p[i] = i * k + 7}; {@code inc(p, n)}: {@code p[i] += 1}. {@link NetworkTimeCheck}
     * runs them too.
     */
    static final String PTX = """
            .version 8.0
            .target sm_70
            .address_size 64
            .visible .entry fill(.param .u64 p, .param .u32 n, .param .u32 k)
            {
                .reg .pred %p<2>;
                .reg .b32 %r<8>;
                .reg .b64 %rd<4>;
                ld.param.u64 %rd1, [p];
                ld.param.u32 %r1, [n];
                ld.param.u32 %r2, [k];
                mov.u32 %r3, %ctaid.x;
                mov.u32 %r4, %ntid.x;
                mov.u32 %r5, %tid.x;
                mad.lo.s32 %r6, %r3, %r4, %r5;
                setp.ge.u32 %p1, %r6, %r1;
                @%p1 bra DONE;
                mad.lo.s32 %r7, %r6, %r2, 7;
                cvta.to.global.u64 %rd2, %rd1;
                mul.wide.u32 %rd3, %r6, 4;
                add.s64 %rd3, %rd2, %rd3;
                st.global.u32 [%rd3], %r7;
            DONE:
                ret;
            }
            .visible .entry inc(.param .u64 p, .param .u32 n)
            {
                .reg .pred %p<2>;
                .reg .b32 %r<8>;
                .reg .b64 %rd<4>;
                ld.param.u64 %rd1, [p];
                ld.param.u32 %r1, [n];
                mov.u32 %r3, %ctaid.x;
                mov.u32 %r4, %ntid.x;
                mov.u32 %r5, %tid.x;
                mad.lo.s32 %r6, %r3, %r4, %r5;
                setp.ge.u32 %p1, %r6, %r1;
                @%p1 bra DONE;
                cvta.to.global.u64 %rd2, %rd1;
                mul.wide.u32 %rd3, %r6, 4;
                add.s64 %rd3, %rd2, %rd3;
                ld.global.u32 %r7, [%rd3];
                add.s32 %r7, %r7, 1;
                st.global.u32 [%rd3], %r7;
            DONE:
                ret;
            }
            """;

    private final Backend b;
    private final StreamHandle[] streams = new StreamHandle[3];
    private final FunctionHandle[] fill = new FunctionHandle[3];
    private final FunctionHandle[] inc = new FunctionHandle[3];
    private final MemorySegment host;
    private final MemorySegment back;

    private DirectCopyCheck(Backend b) {
        this.b = b;
        for (int d = 0; d < 3; d++) {
            streams[d] = b.createStream(d);
            var module = b.loadModule(d, new ModuleImage.Ptx(PTX));
            fill[d] = b.function(module, "fill");
            inc[d] = b.function(module, "inc");
        }
        host = b.allocateHost(BYTES);
        back = b.allocateHost(BYTES);
    }

    public static void main(String[] args) {
        ClusterCudaAware mode = ClusterCudaAware.valueOf(args[0].toUpperCase(java.util.Locale.ROOT));
        BackendOptions options = BackendOptions.defaults().withEmulatedDevices(1);
        Session session = Session.join(Duration.ofSeconds(60));
        if (session.rank() != 0) {
            new Worker(session, "emulated", options).serve();
        }
        OpenedBackend opened = ClusterOpening.open(session, Backends.open("emulated", options), mode);
        System.out.println(opened.notice().substring(opened.notice().indexOf("copies between ranks")));
        try (Backend b = opened.backend()) {
            new DirectCopyCheck(b).run();
        }
        System.out.println("DONE");
    }

    private void run() {
        DeviceBuffer a1 = b.allocate(1, BYTES);
        DeviceBuffer b2 = b.allocate(2, BYTES);
        DeviceBuffer c0 = b.allocate(0, BYTES);
        DeviceBuffer d1 = b.allocate(1, BYTES);
        // A kernel on rank 1 writes a1; rank 2's stream waits for it, then copies a1 to b2; then b2 to rank 0's c0.
        launch(fill[1], 1, a1, 3);
        wait(1, 2);
        b.copyDeviceToDevice(a1, b2, BYTES, streams[2], L);
        b.synchronizeEvent(record(2));
        b.copyDeviceToDevice(b2, c0, BYTES, streams[0], L);
        b.copyDeviceToHost(c0, back, BYTES, streams[0], L);
        b.synchronizeEvent(record(0));
        check("rank 1 -> rank 2 -> rank 0 device", 0, i -> i * 3 + 7);
        // A kernel on rank 0 writes c0, rank 1 copies it to d1; a kernel on rank 1 then reads and writes d1 and the
        // copy to rank 0's host (from byte 4 on) follows it on the same stream.
        launch(fill[0], 0, c0, 5);
        wait(0, 1);
        b.copyDeviceToDevice(c0, d1, BYTES, streams[1], L);
        launch(inc[1], 1, d1, -1);
        b.copyDeviceToHost(d1, 4, back, BYTES - 4, streams[1], L);
        b.synchronizeEvent(record(1));
        check("rank 0 -> rank 1 device (kernel after), rank 1 device -> rank 0 host (offset 4)", 1,
                i -> i < INTS - 1 ? (i + 1) * 5 + 8 : Integer.MIN_VALUE);
        // A kernel on rank 1 touches a1, then rank 0's host bytes land in a1 from byte 8 on, on the same stream.
        for (int i = 0; i < INTS; i++) {
            host.setAtIndex(JAVA_INT, i, i * 11 + 7);
        }
        launch(inc[1], 1, a1, -1);
        b.copyHostToDevice(host, a1, 8, BYTES - 8, streams[1], L);
        b.copyDeviceToHost(a1, back, BYTES, streams[1], L);
        b.synchronizeEvent(record(1));
        check("rank 0 host -> rank 1 device (offset 8, kernel before)", 2,
                i -> i < 2 ? i * 3 + 8 : (i - 2) * 11 + 7);
        saxpyOnRank2();
    }

    /** y = 3x + y on rank 2's device (x = i, y = 2i); rank 0's stream waits for it, pulls y and copies it back. */
    private void saxpyOnRank2() {
        MemorySegment x = b.allocateHost(BYTES);
        MemorySegment y = b.allocateHost(BYTES);
        MemorySegment alpha = b.allocateHost(4);
        for (int i = 0; i < INTS; i++) {
            x.setAtIndex(JAVA_FLOAT, i, i);
            y.setAtIndex(JAVA_FLOAT, i, 2f * i);
        }
        alpha.set(JAVA_FLOAT, 0, 3f);
        DeviceBuffer x2 = b.allocate(2, BYTES);
        DeviceBuffer y2 = b.allocate(2, BYTES);
        DeviceBuffer alpha2 = b.allocate(2, 4);
        DeviceBuffer y0 = b.allocate(0, BYTES);
        b.copyHostToDevice(x, x2, BYTES, streams[2], L);
        b.copyHostToDevice(y, y2, BYTES, streams[2], L);
        b.copyHostToDevice(alpha, alpha2, 4, streams[2], L);
        b.launchLibrary(BlasFunctions.named("cublasSaxpy").orElseThrow(), new Object[] {INTS, alpha2, x2, 1, y2, 1},
                streams[2], L);
        wait(2, 0);
        b.copyDeviceToDevice(y2, y0, BYTES, streams[0], L);
        b.copyDeviceToHost(y0, back, BYTES, streams[0], L);
        b.synchronizeEvent(record(0));
        check("saxpy on rank 2's device, pulled by rank 0's held stream", 3, i -> Float.floatToRawIntBits(5f * i));
    }

    /** {@code fill} with {@code k}, or {@code inc} for {@code k < 0}, over all of {@code p} on device {@code d}. */
    private void launch(FunctionHandle f, int d, DeviceBuffer p, int k) {
        Object[] arguments = k < 0 ? new Object[] {p, INTS} : new Object[] {p, INTS, k};
        b.launch(f, LaunchConfig.of((INTS + 255) / 256, 256), arguments, streams[d], L);
    }

    private EventHandle record(int d) {
        EventHandle e = b.createEvent(d);
        b.recordEvent(e, streams[d]);
        return e;
    }

    /** Makes device {@code to}'s stream wait for the work on device {@code from}'s stream so far. */
    private void wait(int from, int to) {
        b.streamWaitEvent(streams[to], record(from));
    }

    /** Prints whether the ints copied back are {@code expected} (element by element; MIN_VALUE: any). */
    private void check(String what, int step, IntUnaryOperator expected) {
        for (int i = 0; i < INTS; i++) {
            int want = expected.applyAsInt(i);
            int got = back.getAtIndex(JAVA_INT, i);
            if (want != Integer.MIN_VALUE && got != want) {
                System.out.println("check " + step + " " + what + ": element " + i + " is " + got + ", not " + want);
                return;
            }
        }
        System.out.println("check " + step + " " + what + ": OK");
    }
}
