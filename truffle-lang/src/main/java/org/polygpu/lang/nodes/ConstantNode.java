package org.polygpu.lang.nodes;

import com.oracle.truffle.api.frame.VirtualFrame;

/** A literal: a string, or a number folded from a constant expression. */
public final class ConstantNode extends ExpressionNode {
    private final Object value;

    public ConstantNode(Object value) {
        this.value = value;
    }

    @Override
    public Object execute(VirtualFrame frame) {
        return value;
    }
}
