package org.polygpu.emulator;

/**
 * The cost of kernels touching managed memory away from their device: each page a kernel touches that lives on
 * another device or the host faults and migrates to the kernel's device ({@link PageResidency#moveTo}).
 *
 * <p>A fault costs {@code pageFaultNanos} per page, the driver's round trip to service it, plus the page's bytes at
 * the bandwidth of the link from where it was; pages from several sources, and the faults themselves, are serviced one
 * after another. The cost is added to the kernel's launch latency, before it executes: a simplification, since on a
 * GPU faults stall the warps that take them while others run, and the migrated bytes do not share their link with
 * concurrent copies. Untouched pages are populated on the device for free.
 *
 * <p>Deterministic: which pages a kernel touches is known when it starts, and residency changes only at the
 * simulation's events. Not thread-safe: used at the simulation's events.
 */
final class PageFaults {
    private final LinkModel links;
    private final ManagedMemory managed;
    private final long pageFaultNanos;
    private final int deviceCount;

    PageFaults(LinkModel links, ManagedMemory managed, long pageFaultNanos, int deviceCount) {
        this.links = links;
        this.managed = managed;
        this.pageFaultNanos = pageFaultNanos;
        this.deviceCount = deviceCount;
    }

    /** Faults the pages of bytes {@code offset..offset+count} of managed {@code buffer} onto {@code device}. */
    long fault(EmulatedBuffer buffer, long offset, long count, int device) {
        PageResidency.Moves moves = buffer.residency().moveTo(offset, count, device, deviceCount);
        double nanos = 0;
        for (int l = 0; l < moves.locations(); l++) {
            if (moves.pages(l) > 0) {
                int from = l == moves.host() ? PageResidency.HOST : l;
                LinkModel.Link link = links.link(from, device);
                nanos += moves.pages(l) * (double) (pageFaultNanos + link.latencyNanos())
                        + moves.bytes(l) / link.bandwidthGbps();
            }
        }
        managed.faulted(moves.totalPages(), moves.totalBytes());
        return VirtualTime.ceilNanos(nanos);
    }

    /**
     * Faults every managed buffer among {@code arguments} onto {@code device} as a whole: for kernels whose accesses
     * are not observed (Java kernels, library routines), which are taken to touch all of each managed argument.
     */
    long faultWhole(Object[] arguments, int device) {
        long nanos = 0;
        for (Object a : arguments) {
            if (a instanceof EmulatedBuffer b && b.isManaged()) {
                nanos += fault(b, 0, b.bytes(), device);
            }
        }
        return nanos;
    }
}
