package org.polygpu.lang.nodes;

import org.polygpu.array.ElementType;
import org.polygpu.lang.PolygpuContext;
import org.polygpu.lang.objects.ArrayObjects;

import com.oracle.truffle.api.CompilerDirectives.CompilationFinal;
import com.oracle.truffle.api.frame.VirtualFrame;

/** {@code T[d1][d2]...}: a new zero-filled device array, multi-dimensional (row-major) with more than one size. */
public final class ArrayExpressionNode extends ExpressionNode {
    private final ElementType type;
    @CompilationFinal(dimensions = 1) private final long[] dimensions;

    public ArrayExpressionNode(ElementType type, long[] dimensions) {
        this.type = type;
        this.dimensions = dimensions;
    }

    @Override
    public Object execute(VirtualFrame frame) {
        return ArrayObjects.allocate(PolygpuContext.get(this).runtime(), type, dimensions, false);
    }
}
