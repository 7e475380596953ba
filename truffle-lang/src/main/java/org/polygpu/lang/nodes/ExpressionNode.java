package org.polygpu.lang.nodes;

import com.oracle.truffle.api.frame.VirtualFrame;
import com.oracle.truffle.api.nodes.Node;

/** A node of an {@code eval} expression; it evaluates to a guest object, a string or a number. */
public abstract class ExpressionNode extends Node {
    public abstract Object execute(VirtualFrame frame);
}
