package org.polygpu.it;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;

/** A mixed workload: partitioned pipelines, cross-partition joins and host reads, on any number of devices. */
final class Workload {
    private Workload() {
    }

    /** Runs the workload and returns the sum of the results read back on the host. */
    static float run(ExecutionContext ctx, int partitions, int rounds, int n) {
        Kernel inc = Fixtures.inc(ctx);
        Kernel scale = Fixtures.scale(ctx);
        Kernel add = Fixtures.add(ctx);
        List<DeviceArray> xs = new ArrayList<>();
        List<DeviceArray> ys = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            DeviceArray x = ctx.newArray(ElementType.FLOAT, n);
            ctx.write(x, 0, (float) p);
            xs.add(x);
            ys.add(ctx.newArray(ElementType.FLOAT, n));
        }
        for (int r = 0; r < rounds; r++) {
            for (int p = 0; p < partitions; p++) {
                ctx.launch(inc, Fixtures.launch(), xs.get(p), n);
                ctx.launch(scale, Fixtures.launch(), xs.get(p), ys.get(p), n, 0.5f);
            }
            for (int p = 0; p < partitions; p++) {
                ctx.launch(add, Fixtures.launch(), ys.get(p), ys.get((p + 1) % partitions), xs.get(p), n);
            }
        }
        float total = 0;
        for (DeviceArray x : xs) {
            total += (Float) ctx.read(x, 0);
        }
        return total;
    }
}
