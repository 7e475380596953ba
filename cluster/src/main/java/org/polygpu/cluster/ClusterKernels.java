package org.polygpu.cluster;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.LibraryRoutine;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.ReadOnlyParameters;
import org.polygpu.backend.StreamHandle;
import org.polygpu.blas.BlasFunctions;

/**
 * {@link ClusterBackend}'s kernels: modules (each image shipped once per rank, then loaded and built there by name
 * of its key), functions, symbols, launches (batched) and the faults of remote launches, which their rank keeps until
 * rank 0 takes them. Used by rank 0's scheduler thread only.
 */
final class ClusterKernels {
    private final Session session;
    private final Backend local;
    private final RemoteRank[] ranks;
    private final HostOrdering ordering;
    /** The stream of each computation launched on another rank whose fault has not been taken yet. */
    private final Map<Long, Remote.Stream> remoteLaunches = new HashMap<>();
    /** The outcome of remote launches their rank reported with a completed event: a fault's text, or empty. */
    private final Map<Long, Optional<String>> reported = new HashMap<>();

    ClusterKernels(Session session, Backend local, RemoteRank[] ranks, HostOrdering ordering) {
        this.session = session;
        this.ordering = ordering;
        this.local = local;
        this.ranks = ranks;
    }

    ModuleHandle loadModule(RemoteRank r, int device, ModuleImage image) {
        long fresh = session.nextKey();
        long imageKey = r.imageKey(image, fresh);
        long key = session.nextKey();
        r.call(Op.LOAD_MODULE, w -> {
            w.putLong(key).putInt(device - r.first()).putLong(imageKey).putBoolean(imageKey == fresh);
            if (imageKey == fresh) {
                Codec.writeImage(w, image);
            }
        });
        return new Remote.Module(device, r.rank(), key);
    }

    FunctionHandle function(ModuleHandle module, String name) {
        if (!(module instanceof Remote.Module m)) {
            return local.function(module, name);
        }
        long key = session.nextKey();
        ranks[m.rank()].call(Op.FUNCTION, w -> w.putLong(key).putLong(m.key()).putString(name));
        return new Remote.Function(name, m.device(), m.rank(), key);
    }

    Optional<String> ptx(ModuleHandle module) {
        if (!(module instanceof Remote.Module m)) {
            return local.ptx(module);
        }
        WireReader reply = ranks[m.rank()].call(Op.PTX, w -> w.putLong(m.key()));
        return reply.getBoolean() ? Optional.of(reply.getString()) : Optional.empty();
    }

    void writeSymbol(ModuleHandle module, String symbol, long offset, MemorySegment src) {
        if (!(module instanceof Remote.Module m)) {
            local.writeSymbol(module, symbol, offset, src);
            return;
        }
        byte[] bytes = src.toArray(ValueLayout.JAVA_BYTE);
        ranks[m.rank()].call(Op.WRITE_SYMBOL, w -> w.putLong(m.key()).putString(symbol).putLong(offset)
                .putBytes(bytes));
    }

    void launch(FunctionHandle function, LaunchConfig config, Object[] arguments, StreamHandle stream,
                OperationLabel label, ReadOnlyParameters readOnly) {
        if (!(function instanceof Remote.Function f) || !(stream instanceof Remote.Stream s)) {
            Object[] held = arguments.clone();
            ordering.enqueue(stream, () -> local.launch(function, config, held, stream, label, readOnly));
            return;
        }
        ranks[s.rank()].command(Op.LAUNCH, w -> {
            w.putLong(f.key()).putLong(s.key());
            Codec.writeConfig(w, config);
            Codec.writeArguments(w, arguments);
            Codec.writeLabel(w, label);
            Codec.writeReadOnly(w, readOnly, arguments.length);
        });
        if (label.computationId() >= 0) {
            remoteLaunches.put(label.computationId(), s);
        }
    }

    /**
     * A library routine: on another rank's device, a command that rank runs on its own backend, which finds the
     * routine by name ({@link BlasFunctions}) and its arguments among that rank's buffers.
     */
    void launchLibrary(LibraryRoutine routine, Object[] arguments, StreamHandle stream, OperationLabel label) {
        if (!(stream instanceof Remote.Stream s)) {
            Object[] held = arguments.clone();
            ordering.enqueue(stream, () -> local.launchLibrary(routine, held, stream, label));
            return;
        }
        if (!BlasFunctions.named(routine.name()).map(routine::equals).orElse(false)) {
            throw new BackendException(routine.name() + " is not a library routine every rank knows by name: it runs "
                    + "on rank 0's devices only, not on device " + s.device() + " of rank " + s.rank());
        }
        ranks[s.rank()].command(Op.LAUNCH_LIBRARY, w -> {
            w.putString(routine.name()).putLong(s.key());
            Codec.writeArguments(w, arguments);
            Codec.writeLabel(w, label);
        });
        if (label.computationId() >= 0) {
            remoteLaunches.put(label.computationId(), s);
        }
    }

    Optional<BackendException> takeFault(long computationId) {
        Remote.Stream s = remoteLaunches.remove(computationId);
        if (s == null) {
            return local.takeFault(computationId);
        }
        Optional<String> fault = reported.remove(computationId);
        if (fault == null) {
            WireReader reply = ranks[s.rank()].call(Op.TAKE_FAULT, w -> w.putLong(computationId));
            fault = reply.getBoolean() ? Optional.of(reply.getString()) : Optional.empty();
        }
        // The rank names its devices from 0: the job's number comes first.
        return fault.map(text -> new BackendException("device " + s.device() + " (rank " + s.rank() + "'s device "
                + (s.device() - ranks[s.rank()].first()) + "): " + text));
    }

    /** Whether a fault waits for {@link #takeFault}: one a rank reported, or one the local backend holds. */
    boolean hasPendingFaults() {
        return local.hasPendingFaults() || reported.values().stream().anyMatch(Optional::isPresent);
    }

    /** Reads what a rank reported of the launches before a completed event (as the worker's reportFaults writes). */
    void readReported(WireReader reply) {
        for (int n = reply.getInt(); n > 0; n--) {
            long id = reply.getLong();
            reported.put(id, reply.getBoolean() ? Optional.of(reply.getString()) : Optional.empty());
        }
    }
}
