package org.polygpu.emulator;

/**
 * What moves bytes on a {@link LinkModel.Link}: a copy, or one leg of a managed-memory migration. The link shares its
 * bandwidth equally among the transfers active on it and finishes them in order of {@link #serviceTarget()}.
 */
sealed interface LinkTransfer permits CopyOperation, MigrationOperation {
    /** The bytes this transfer moves on its current link. */
    long bytes();

    /**
     * The bytes of link service the transfer needs: its bytes, or more for a copy of pageable host memory, which
     * the driver stages through a pinned buffer and so moves slower than the link.
     */
    default double serviceBytes() {
        return bytes();
    }

    /** The link it moves them on. */
    LinkModel.Link link();

    /** The link's cumulative per-transfer service at which it is done; set when it joins. */
    double serviceTarget();

    void serviceTarget(double target);

    /** The enqueue order of its operation, which breaks ties between transfers done at once. */
    long sequence();
}
