package org.polygpu.policies;

import org.polygpu.sched.spi.DeviceSelectionPolicies;
import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.BandwidthMatrixLoader;

/** Small builders for policy tests: settings, argument tables and location sets. */
final class Fixtures {
    /** The host, in the location lists given to {@link #arg}. */
    static final int HOST = -1;
    static final double THRESHOLD = 0.1;
    /** The golden 2-GPU matrix {@code {{30,45,10},{45,60,20},{10,20,0}}}. */
    static final BandwidthMatrix TWO_GPU = BandwidthMatrixLoader.preset("test-2gpu");

    private Fixtures() {
    }

    /** One array argument: its size and the locations holding a valid copy ({@link #HOST} for the host). */
    record Arg(long bytes, int... at) {
    }

    static Arg arg(long bytes, int... at) {
        return new Arg(bytes, at);
    }

    /** The settings of {@code devices} GPUs on the V100 matrix (the 2-GPU test matrix for 2), current device 0. */
    static PolicySettings settings(int devices) {
        BandwidthMatrix m = devices == 2 ? TWO_GPU : BandwidthMatrixLoader.preset("v100x8").restrictedTo(devices);
        return new PolicySettings(devices, m, THRESHOLD);
    }

    /** A policy found by its registry name, as the runtime finds it. */
    static DeviceSelectionPolicy policy(String name, int devices) {
        return DeviceSelectionPolicies.create(name, settings(devices));
    }

    /** A request for {@code devices} idle GPUs with the given arguments. */
    static SelectionRequest request(int devices, Arg... args) {
        return request(devices, new int[devices], args);
    }

    static SelectionRequest request(int devices, int[] busyStreams, Arg... args) {
        long[] bytes = new long[args.length];
        LocationSet[] valid = new LocationSet[args.length];
        for (int i = 0; i < args.length; i++) {
            bytes[i] = args[i].bytes();
            valid[i] = mask(devices, args[i].at());
        }
        return new SelectionRequest(bytes, valid, busyStreams);
    }

    /** The set of the given GPUs and {@link #HOST}. */
    static LocationSet mask(int devices, int... at) {
        LocationSet.Builder set = new LocationSet.Builder();
        for (int location : at) {
            set.add(location == HOST ? devices : location);
        }
        return set.build();
    }

    /** The devices a policy picks for the same request asked {@code times} times with all devices as candidates. */
    static int[] sequence(DeviceSelectionPolicy policy, SelectionRequest request, int devices, int times) {
        int[] picked = new int[times];
        for (int i = 0; i < times; i++) {
            picked[i] = policy.select(request, LocationSet.allDevices(devices));
        }
        return picked;
    }
}
