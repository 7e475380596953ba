package org.polygpu.dag;

import java.util.List;

import org.polygpu.array.DeviceArray;

/** A dependency from {@code from} to {@code to}, caused by the arrays listed. */
public record DagEdge<C>(DagVertex<C> from, DagVertex<C> to, List<DeviceArray> arrays) {
}
