package org.polygpu.backend;

/**
 * Names an enqueued operation for the timeline: the computation it serves ({@code -1} for none) and a short text
 * such as the kernel name or {@code copy x}.
 */
public record OperationLabel(long computationId, String name) {
    public static final OperationLabel NONE = new OperationLabel(-1, "");
}
