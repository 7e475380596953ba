package org.polygpu.emulator;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.polygpu.backend.BackendException;

/**
 * The checks a copy passes before it is enqueued: sizes within both sides, live host memory, the stream on the
 * right device, and a link with a non-zero bandwidth. Each failure is a {@link BackendException} naming the problem.
 */
final class CopyChecks {
    private CopyChecks() {
    }

    /** A copy of {@code bytes} from byte {@code offset} of a buffer of {@code available} bytes. */
    static void offset(long offset, long bytes, long available, String what) {
        if (offset < 0 || offset > available) {
            throw new BackendException("copy offset " + offset + " is outside the " + available + " bytes of the "
                    + what);
        }
        bytes(bytes, available - offset, what + " from byte " + offset);
    }

    static void bytes(long bytes, long available, String what) {
        if (bytes < 0) {
            throw new BackendException("cannot copy a negative number of bytes (" + bytes + ")");
        }
        if (bytes > available) {
            throw new BackendException("copy of " + bytes + " bytes exceeds the " + available + " bytes of the "
                    + what);
        }
    }

    static void host(MemorySegment host, long bytes, String role, boolean written) {
        Objects.requireNonNull(host, role);
        if (!host.scope().isAlive()) {
            throw new BackendException("the host " + role + " of the copy was freed");
        }
        if (written && host.isReadOnly()) {
            throw new BackendException("the host destination of the copy is read-only");
        }
        bytes(bytes, host.byteSize(), "host " + role + " segment");
    }

    static void streamDevice(EmulatedStream s, int device, String role) {
        if (s.device() != device) {
            throw new BackendException("the copy's " + role + " is on device " + device + " but it was enqueued on "
                    + s + "; copies run on a stream of the " + role + "'s device");
        }
    }

    /** The link from {@code source} to {@code destination} ({@code -1} for the host), if it can carry data. */
    static LinkModel.Link link(LinkModel links, int source, int destination) {
        LinkModel.Link link = links.link(source, destination);
        if (link.bandwidthGbps() <= 0) {
            throw new BackendException("no copy is possible from " + location(source) + " to "
                    + location(destination) + ": the topology gives that link a bandwidth of 0");
        }
        return link;
    }

    private static String location(int l) {
        return l < 0 ? "the host" : "device " + l;
    }
}
