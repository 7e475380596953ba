package org.polygpu.emulator;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.TimedOperation;

/**
 * A migration of managed memory in stream order ({@code cuMemPrefetchAsync}): bytes {@code offset..offset+count} of
 * a managed buffer move to a device or the host, but only the pages that are elsewhere ({@link PageResidency}).
 *
 * <p>When it starts it takes the pages over at once (a later fault or migration finds them at the destination) and
 * then moves their bytes: for each source location in index order, devices first and the host last, one leg that
 * pays the copy latency and joins the link from that source like a copy ({@link LinkModel}), sharing it with the
 * copies active on it. A migration that finds every page in place completes at once. The data never moves in the
 * emulator's memory, which every device reads in place: only time and residency change.
 *
 * <p>Its timeline entry is a copy of all the bytes it moved, its kind and source those of the leg that moved the most
 * (the first such leg on a tie); one that moved nothing is a device-to-device entry of 0 bytes at the destination.
 */
final class MigrationOperation extends Operation implements LinkTransfer {
    private final EmulatedBuffer buffer;
    private final long offset;
    private final long count;
    /** A device, or {@link PageResidency#HOST}. */
    private final int destination;
    private final LinkModel links;
    private final ManagedMemory managed;
    private final int deviceCount;
    private PageResidency.Moves moves;
    private int leg = -1;
    private LinkModel.Link link;
    private double serviceTarget;

    MigrationOperation(EmulatedStream stream, OperationLabel label, EmulatedBuffer buffer, long offset, long count,
                       int destination, LinkModel links, ManagedMemory managed, int deviceCount) {
        super(stream, label);
        this.buffer = buffer;
        this.offset = offset;
        this.count = count;
        this.destination = destination;
        this.links = links;
        this.managed = managed;
        this.deviceCount = deviceCount;
        buffer.retain();
    }

    @Override
    void start(Simulation simulation) {
        moves = buffer.residency().moveTo(offset, count, destination, deviceCount);
        if (!nextLeg(simulation)) {
            simulation.completeAt(this, simulation.now());
        }
    }

    /** Joins the link of the next source with pages to move, after the copy latency; false when none is left. */
    boolean nextLeg(Simulation simulation) {
        for (leg++; leg < moves.locations(); leg++) {
            if (moves.bytes(leg) > 0) {
                link = links.link(source(leg), destination);
                simulation.joinLinkAt(this, simulation.now() + simulation.copyLatencyNanos() + link.latencyNanos());
                return true;
            }
        }
        return false;
    }

    private int source(int location) {
        return location == moves.host() ? PageResidency.HOST : location;
    }

    @Override
    public long bytes() {
        return moves.bytes(leg);
    }

    @Override
    public LinkModel.Link link() {
        return link;
    }

    @Override
    public double serviceTarget() {
        return serviceTarget;
    }

    @Override
    public void serviceTarget(double target) {
        serviceTarget = target;
    }

    /**
     * Counts what moved; refuses to bring data of a sampled launch to the host, as a copy does, since those bytes were
     * not computed ({@code EmulatedExecution=sampled}).
     */
    @Override
    void finish() {
        managed.prefetched(moves.totalBytes());
        buffer.release();
        if (destination == PageResidency.HOST && buffer.notComputed()) {
            throw new BackendException("migration of " + buffer + " to the host refused: it was written by a kernel "
                    + "run with EmulatedExecution=sampled, which interprets only a sample of each grid, so its "
                    + "contents were not computed; run with EmulatedExecution=full to read results");
        }
    }

    @Override
    TimedOperation timed() {
        int main = -1;
        for (int l = 0; l < moves.locations(); l++) {
            if (moves.bytes(l) > 0 && (main < 0 || moves.bytes(l) > moves.bytes(main))) {
                main = l;
            }
        }
        int from = main < 0 ? destination : source(main);
        TimedOperation.Kind kind = destination == PageResidency.HOST ? TimedOperation.Kind.COPY_DEVICE_TO_HOST
                : from == PageResidency.HOST ? TimedOperation.Kind.COPY_HOST_TO_DEVICE
                : TimedOperation.Kind.COPY_DEVICE_TO_DEVICE;
        return new TimedOperation(stream().device(), stream().id(), kind, label(), startNanos(), endNanos(),
                moves.totalBytes(), from);
    }
}
