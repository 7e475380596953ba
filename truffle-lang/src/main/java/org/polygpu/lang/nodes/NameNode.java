package org.polygpu.lang.nodes;

import java.util.List;

import org.polygpu.lang.PolygpuContext;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.objects.NamespaceObject;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.frame.VirtualFrame;

/**
 * A name ({@code buildkernel}, {@code ::buildkernel}, {@code CU::DeviceArray}) looked up from the root namespace;
 * every part but the last must name a namespace. An unknown name fails listing what the namespace has.
 */
public final class NameNode extends ExpressionNode {
    private final List<String> path;

    public NameNode(List<String> path) {
        this.path = List.copyOf(path);
    }

    @Override
    public Object execute(VirtualFrame frame) {
        return lookup(PolygpuContext.get(this).root());
    }

    @TruffleBoundary
    private Object lookup(NamespaceObject root) {
        Object value = root;
        for (String name : path) {
            if (!(value instanceof NamespaceObject ns)) {
                throw PolygpuException.badValue("'" + String.join("::", path) + "': " + value
                        + " is not a namespace");
            }
            value = ns.lookup(name);
            if (value == null) {
                throw PolygpuException.unknownIdentifier(name, ns.qualifiedName(), ns.memberNames());
            }
        }
        return value;
    }
}
