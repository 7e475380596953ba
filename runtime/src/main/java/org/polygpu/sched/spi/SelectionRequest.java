package org.polygpu.sched.spi;

/**
 * Snapshot of one computation's data and of the devices' load, built by the scheduler for a single decision.
 *
 * <p>Index {@code i} of {@code argumentBytes} and {@code validLocations} describes the computation's {@code i}-th
 * array argument (scalars are not listed). Location sets hold {@code d} for device {@code d} and
 * {@code deviceCount} for the host (see {@link LocationSet}). The arrays are owned by the request: the scheduler
 * builds a new one per decision and policies must not modify them.
 *
 * @param argumentBytes  size in bytes of each array argument
 * @param validLocations for each array argument, the locations holding an up-to-date copy
 * @param busyStreams    per device, the number of streams with unfinished work
 * @param currentDevice  the device the program made current ({@code cudaSetDevice}), which {@code single-gpu} uses
 * @param workKey        what is being placed, for policies that learn durations ({@link WorkObserver}): a key of the
 *                       kernel and its launch size, or {@link #UNKNOWN_WORK} for work that is not a kernel launch
 * @param pristine       bit {@code i} set when array argument {@code i} was never written: its zeros are valid on
 *                       every device and it is not copied, whatever {@code validLocations} says (arguments past the
 *                       64th are never flagged)
 * @param devicesWithRoom the devices whose free memory holds the replicas the computation lacks there,
 *                       so that running it there evicts nothing (every device while memory is plentiful)
 */
public record SelectionRequest(long[] argumentBytes, LocationSet[] validLocations, int[] busyStreams,
                               int currentDevice, long workKey, long pristine, LocationSet devicesWithRoom) {
    /** The {@link #workKey} of work that is not a kernel launch: nothing can be learned about it. */
    public static final long UNKNOWN_WORK = 0;

    public SelectionRequest {
        if (argumentBytes.length != validLocations.length) {
            throw new IllegalArgumentException("argumentBytes and validLocations differ in length: "
                    + argumentBytes.length + " vs " + validLocations.length);
        }
        if (currentDevice < 0 || currentDevice >= busyStreams.length) {
            throw new IllegalArgumentException("current device " + currentDevice + " is out of range 0.."
                    + (busyStreams.length - 1));
        }
    }

    /** A request with no pristine argument in which every device has room for the computation's arrays. */
    public SelectionRequest(long[] argumentBytes, LocationSet[] validLocations, int[] busyStreams,
                            int currentDevice, long workKey) {
        this(argumentBytes, validLocations, busyStreams, currentDevice, workKey, 0,
                LocationSet.allDevices(busyStreams.length));
    }

    /** Whether array argument {@code i} was never written ({@link #pristine}). */
    public boolean isPristine(int i) {
        return i < Long.SIZE && (pristine >>> i & 1) != 0;
    }

    /** A request for work that is not a kernel launch, or whose kernel is not told to the policy. */
    public SelectionRequest(long[] argumentBytes, LocationSet[] validLocations, int[] busyStreams,
                            int currentDevice) {
        this(argumentBytes, validLocations, busyStreams, currentDevice, UNKNOWN_WORK);
    }

    /** A request whose current device is device 0, the one current until the program chooses another. */
    public SelectionRequest(long[] argumentBytes, LocationSet[] validLocations, int[] busyStreams) {
        this(argumentBytes, validLocations, busyStreams, 0);
    }

    /**
     * The devices much busier than the mean: at least {@value #CROWDED_STREAMS} busy streams and more than twice the
     * mean number of busy streams per device. A policy may move work off them (the scheduler then gives up reusing
     * a parent's stream there); one chain of work per device never crowds one.
     */
    public LocationSet crowdedDevices() {
        long total = 0;
        for (int b : busyStreams) {
            total += b;
        }
        LocationSet.Builder crowded = new LocationSet.Builder();
        for (int d = 0; d < busyStreams.length; d++) {
            if (isCrowded(busyStreams[d], busyStreams.length, total)) {
                crowded.add(d);
            }
        }
        return crowded.build();
    }

    /** The least busy streams of a crowded device. */
    public static final int CROWDED_STREAMS = 4;

    /**
     * Whether a device with {@code busy} busy streams, among {@code devices} devices with {@code total} busy streams
     * in all, is crowded (see {@link #crowdedDevices}).
     */
    public static boolean isCrowded(int busy, int devices, long total) {
        return busy >= CROWDED_STREAMS && (long) busy * devices > 2 * total;
    }

    /**
     * Of {@code devices}, those where the computation fits without evicting anything ({@link #devicesWithRoom}), or
     * all of {@code devices} when none does: the memory-aware narrowing policies apply among devices they rate
     * equally good.
     */
    public LocationSet withRoom(LocationSet devices) {
        LocationSet roomy = devices.intersection(devicesWithRoom);
        return roomy.isEmpty() ? devices : roomy;
    }

    /** Whether the computation fits on {@code device} without evicting anything. */
    public boolean hasRoom(int device) {
        return devicesWithRoom.contains(device);
    }

    /** Number of devices described by {@link #busyStreams()}. */
    public int deviceCount() {
        return busyStreams.length;
    }
}
