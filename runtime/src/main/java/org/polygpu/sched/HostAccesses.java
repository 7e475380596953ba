package org.polygpu.sched;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

import org.polygpu.array.Access;
import org.polygpu.array.Coherence;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.Elements;

/**
 * Host-side accesses to arrays (element reads and writes, bulk copies): the host waits only for the computations
 * the array depends on, the host replica is brought up to date, and the host's coherence transition is applied.
 * Under managed memory nothing is copied: the bytes an access touches are migrated to the host, whatever the
 * coherence state says, since kernels may have moved them.
 *
 * <p>Chunks. Of an array of up to {@link #WHOLE_ARRAY_BYTES} whose host copy is not valid as a whole, element reads
 * and partial bulk reads bring to the host only the chunks of {@link #CHUNK_BYTES} they touch, element writes and
 * partial bulk writes write only theirs (bringing first what they do not overwrite): the host's copy is valid, and
 * written, per chunk, the devices' per array ({@link Coherence}: a written chunk is Modified on the host, the rest is
 * kept by one backing device). Each chunk brought alone counts; the host miss after
 * {@link #CHUNK_READS_BEFORE_WHOLE} of them brings the whole array, as managed memory's prefetcher moves a region
 * once enough of it was touched. Whole reads, kernels and copies get the chunks that differ ({@link ReplicaTransfers}).
 * Not thread-safe: used by the execution context's thread.
 */
final class HostAccesses {
    /** The largest array an element read brings to the host whole. */
    static final long WHOLE_ARRAY_BYTES = 16L << 20;
    /**
     * The unit in which element reads bring an array to the host: 4 KiB, the host's page. A copy costs a fixed set-up (the emulator's model: 2 µs, measured on PCIe and
     * NVLink systems) plus its bytes over the link (4 KiB at PCIe's 12 GB/s: 0.34 µs), so a chunk costs about as much
     * as the element alone (2.34 against 2.0 µs) while a loop over its 1024 floats needs one copy; larger chunks make
     * the one-element read dearer (64 KiB: 7.5 µs) for loops that {@link #CHUNK_READS_BEFORE_WHOLE} already bounds.
     */
    static final long CHUNK_BYTES = 4L << 10;
    /**
     * How many chunks the host reads alone, since its copy was last invalidated, before the next missing chunk brings
     * the whole array instead: like managed memory's prefetcher, which moves a whole region once enough of it was
     * touched. A loop over the elements then costs at most this many chunk copies and one copy of the array.
     */
    static final int CHUNK_READS_BEFORE_WHOLE = 4;

    private final Schedule schedule;
    private final ReplicaTransfers transfers;
    private final ScheduleRecording recording;
    private final int host;

    HostAccesses(Schedule schedule, ReplicaTransfers transfers, ScheduleRecording recording) {
        this.schedule = schedule;
        this.transfers = transfers;
        this.recording = recording;
        this.host = schedule.deviceCount();
    }

    /**
     * A host-side access: waits for the computations it depends on, brings the host replica up to date unless the
     * access overwrites it all, and applies the host's coherence transition: a read or a write of the whole host copy
     * (writes of parts go through {@link #writeElement} and {@link #writeRange} first). It joins the DAG only when it
     * has live parents or the DAG is recorded: otherwise it finishes at once and no later work could depend on it.
     */
    void access(HostAccess work) {
        DeviceArray array = work.array();
        Access access = work.access();
        if (access.isReadOnly()) {
            schedule.races().beforeRead(array);
        }
        long id = schedule.nextId();
        Computation c = begin(work, id);
        if (transfers.managed()) {
            if (access == Access.WRITE) {
                schedule.faults().defined(array);
            } else {
                checkDefined(array, c);
            }
            transfers.migrateToHost(array, work.byteOffset(), work.bytes(), id);
        } else if (access == Access.WRITE) {
            schedule.faults().defined(array);
            transfers.hostReplica(array);
        } else {
            checkDefined(array, c);
            transfers.fetchToHost(array, id);
        }
        if (access.isReadOnly()) {
            array.coherence().read(host);
        } else {
            array.coherence().write(host);
            array.setReady(host, null, null);
        }
        end(c);
        grantDirectAccess(array, work.bytes());
    }

    /**
     * An element read, ordered like {@link #access}. An array of up to {@link #WHOLE_ARRAY_BYTES} is brought to the
     * host by chunks ({@link #readChunked}); of a larger one, when the host replica is not valid, the element alone is
     * copied from a valid device, so one read never materialises it on the host.
     */
    Object readElement(DeviceArray array, long index) {
        schedule.races().beforeReadElement(array, index);
        long id = schedule.nextId();
        Computation c = begin(HostAccess.readElement(array, index), id);
        checkDefined(array, c);
        Object value;
        if (transfers.managed()) {
            value = transfers.readElement(array, index, id);
        } else if (array.byteSize() <= WHOLE_ARRAY_BYTES) {
            readChunked(array, index, id);
            value = Elements.get(array.hostReplica(), array.elementType(), index);
        } else {
            value = transfers.readElement(array, index, id);
        }
        end(c);
        grantDirectAccess(array, array.elementType().bytes());
        return value;
    }

    /**
     * A bulk read of bytes {@code byteOffset..byteOffset+bytes}, ordered like {@link #access}: the whole array when it
     * covers it all, else only the chunks it overlaps that are not valid on the host yet, one copy per run of them.
     */
    void readRange(DeviceArray array, long byteOffset, long bytes) {
        Coherence coherence = array.coherence();
        if (bytes == array.byteSize()) {
            access(HostAccess.copyToHost(array));
            return;
        }
        schedule.races().beforeReadRange(array, byteOffset, bytes);
        long id = schedule.nextId();
        Computation c = begin(HostAccess.copyToHost(array), id);
        checkDefined(array, c);
        transfers.hostReplica(array);
        if (transfers.managed()) {
            transfers.migrateToHost(array, byteOffset, bytes, id);
        } else if (coherence.isValid(host) || coherence.isPristine()) {
            transfers.fetchToHost(array, id);
        } else if (bytes > 0) {
            ChunkRuns.forEach(byteOffset / CHUNK_BYTES, (byteOffset + bytes - 1) / CHUNK_BYTES + 1,
                    k -> !coherence.isHostChunkValid(k), CHUNK_BYTES, array.byteSize(), (offset, length) -> {
                        transfers.fetchRangeToHost(array, offset, length, id);
                        coherence.copiedHostChunks(offset / CHUNK_BYTES, ChunkRuns.count(offset + length, CHUNK_BYTES));
                    });
        }
        end(c);
        grantDirectAccess(array, bytes);
    }

    /**
     * Makes the host chunk of {@link #CHUNK_BYTES} that holds element {@code index} valid, and with it, from the
     * {@link #CHUNK_READS_BEFORE_WHOLE}+1st chunk the host misses on since its copy was last invalidated, the whole
     * array: a final read of one element per array costs one chunk, a loop over the elements a few chunks and then
     * one copy of the array, rather than a copy each. Reads of valid chunks copy nothing.
     */
    private void readChunked(DeviceArray array, long index, long id) {
        Coherence coherence = array.coherence();
        long chunk = index * array.elementType().bytes() / CHUNK_BYTES;
        if (coherence.isHostChunkValid(chunk) && array.hostReplica() != null) {
            return;
        }
        if (coherence.isValid(host) || coherence.isPristine()
                || coherence.hostChunkReads() >= CHUNK_READS_BEFORE_WHOLE || array.byteSize() <= CHUNK_BYTES) {
            transfers.fetchToHost(array, id);
            return;
        }
        long offset = chunk * CHUNK_BYTES;
        transfers.fetchRangeToHost(array, offset, Math.min(CHUNK_BYTES, array.byteSize() - offset), id);
        coherence.readHostChunk(chunk);
    }

    /**
     * Writes element {@code index} (already converted: it fits), ordered like {@link #access}. While the host does not
     * hold an array of up to {@link #WHOLE_ARRAY_BYTES} whole, only the chunk of {@link #CHUNK_BYTES} that holds the
     * element is brought to the host (when it is not there yet) and written: the chunk becomes dirty on the host and
     * every device but one, the backing device, Invalid ({@link Coherence}); a miss past
     * {@link #CHUNK_READS_BEFORE_WHOLE} chunks brings the whole array instead, as for reads. Otherwise (the host holds
     * it whole, an array of one chunk, managed memory) the host copy is made whole first and written, the only valid
     * copy. An array larger than {@link #WHOLE_ARRAY_BYTES} that some device holds is never brought to the host for
     * an element write: the element is copied into the device replica nearest the host, which becomes the only valid
     * copy, as an element read copies it alone from there.
     */
    void writeElement(DeviceArray array, long index, Object value) {
        int size = array.elementType().bytes();
        Coherence coherence = array.coherence();
        if (!transfers.managed() && array.byteSize() > WHOLE_ARRAY_BYTES && !coherence.isValid(host)
                && !coherence.isPristine()) {
            long id = schedule.nextId();
            Computation c = begin(HostAccess.writeElement(array, index), id);
            checkDefined(array, c);
            MemorySegment element = MemorySegment.ofArray(new long[1]).asSlice(0, size);
            Elements.set(element, array.elementType(), 0, value);
            transfers.writeElementOnDevice(array, index * size, element, id);
            end(c);
            return;
        }
        writePart(HostAccess.writeElement(array, index), index * size, size,
                host -> Elements.set(host, array.elementType(), index, value));
    }

    /**
     * Copies {@code src} into the array from byte {@code byteOffset} on, ordered like {@link #access}: all of it as a
     * write of the whole array; a part of an array of up to {@link #WHOLE_ARRAY_BYTES} the host does not hold whole as
     * a write of the chunks it overlaps, only the two at its ends being brought to the host first for the bytes it
     * does not cover, when they are not there yet (they count as misses, as in {@link #writeElement}).
     */
    void writeRange(DeviceArray array, long byteOffset, MemorySegment src) {
        writePart(HostAccess.copyFromHost(array, byteOffset, src.byteSize()), byteOffset, src.byteSize(),
                host -> MemorySegment.copy(src, 0, host, byteOffset, src.byteSize()));
    }

    private void writePart(HostAccess work, long byteOffset, long bytes, Consumer<MemorySegment> write) {
        DeviceArray array = work.array();
        Coherence coherence = array.coherence();
        if (work.access() == Access.WRITE || transfers.managed() || array.byteSize() > WHOLE_ARRAY_BYTES
                || array.byteSize() <= CHUNK_BYTES || coherence.isValid(host) || coherence.isPristine()
                || bytes == 0) {
            access(work);
            write.accept(array.hostReplica());
            return;
        }
        long id = schedule.nextId();
        Computation c = begin(work, id);
        checkDefined(array, c);
        transfers.hostReplica(array);
        long first = byteOffset / CHUNK_BYTES;
        long last = (byteOffset + bytes - 1) / CHUNK_BYTES;
        for (long k : first == last ? new long[] {first} : new long[] {first, last}) {
            long start = k * CHUNK_BYTES;
            long end = Math.min(start + CHUNK_BYTES, array.byteSize());
            boolean covered = byteOffset <= start && byteOffset + bytes >= end;
            if (!covered && !coherence.isValid(host) && !coherence.isHostChunkValid(k)) {
                if (coherence.hostChunkReads() >= CHUNK_READS_BEFORE_WHOLE) {
                    transfers.fetchToHost(array, id);
                } else {
                    transfers.fetchRangeToHost(array, start, end - start, id);
                    coherence.readHostChunk(k);
                }
            }
        }
        if (coherence.isValid(host)) {
            coherence.write(host);
        } else {
            int backing = coherence.hasHostDirty() ? coherence.backing()
                    : transfers.fastestSource(coherence.validLocations(), host);
            coherence.writeHostChunks(first, last + 1, backing);
        }
        array.setReady(host, null, null);
        write.accept(array.hostReplica());
        end(c);
        grantDirectAccess(array, bytes);
    }

    /**
     * After an access, lets later element accesses skip the scheduler while nothing can change their outcome: reads
     * while the host copy is valid and no unfinished work writes the array, writes too while the host holds the only
     * copy, written (a pristine array's zeros are valid everywhere) and no unfinished work uses the array. Never when
     * the DAG is recorded, where every access must appear. Device work revokes the grant when it is scheduled. Under
     * managed memory only after an access of the whole array ({@code bytes}), which brought all its pages to the host:
     * direct accesses migrate nothing. Nor while an unfinished kernel may write the array through a read-only pointer
     * ({@link HostReadRaces}): reads must wait for it. Nor while a fault waits to be raised ({@link FaultBarrier}).
     */
    private void grantDirectAccess(DeviceArray array, long bytes) {
        Coherence coherence = array.coherence();
        if (transfers.managed() && bytes < array.byteSize() || recording.recordsDag() || array.hostReplica() == null
                || !coherence.isValid(host) || schedule.dag().hasLiveDependencies(array, Access.READ)
                || schedule.races().mayRace(array) || schedule.barrier().holdsDirectAccess()) {
            return;
        }
        boolean write = coherence.isOnlyValid(host) && !coherence.isPristine()
                && array.readyProducer(host) == null && !schedule.dag().hasLiveDependencies(array, Access.WRITE);
        array.grantDirectHostAccess(write);
    }

    /**
     * Joins the DAG and waits for the parents, when the access has live parents or the DAG is recorded. It is logged
     * before the wait, which retires the parents and with them the edges it honoured.
     */
    private Computation begin(HostAccess work, long id) {
        if (!recording.recordsDag() && !schedule.dag().hasLiveDependencies(work.array(), work.access())) {
            return null;
        }
        Computation c = new Computation(id, work);
        schedule.append(c);
        recording.scheduled(c);
        schedule.awaitParents(c);
        return c;
    }

    /** Refuses an access to an array a faulted kernel left undefined, retiring the access first. */
    private void checkDefined(DeviceArray array, Computation c) {
        try {
            schedule.faults().checkDefined(array);
        } catch (RuntimeException e) {
            end(c);
            throw e;
        }
    }

    private void end(Computation c) {
        if (c != null) {
            schedule.retire(c);
        }
    }

    /** @throws IndexOutOfBoundsException unless {@code bytes} from {@code byteOffset} on lie within the array */
    static void checkRange(DeviceArray array, long byteOffset, long bytes) {
        if (byteOffset < 0 || bytes < 0 || byteOffset > array.byteSize() - bytes) {
            throw new IndexOutOfBoundsException("bytes " + byteOffset + ".." + (byteOffset + bytes) + " are out of "
                    + "range for " + array + " (" + array.byteSize() + " bytes)");
        }
    }

    /** @throws IllegalArgumentException when {@code host} is smaller than the array */
    static void checkSize(DeviceArray array, MemorySegment host) {
        if (host.byteSize() < array.byteSize()) {
            throw new IllegalArgumentException("host memory of " + host.byteSize() + " bytes is smaller than "
                    + array + " (" + array.byteSize() + " bytes)");
        }
    }
}
