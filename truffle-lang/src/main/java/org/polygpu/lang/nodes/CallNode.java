package org.polygpu.lang.nodes;

import org.polygpu.lang.PolygpuException;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.frame.VirtualFrame;
import com.oracle.truffle.api.interop.InteropException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.nodes.ExplodeLoop;

/** {@code f(a, b, ...)}: calls an executable value (a builtin, a kernel) with evaluated arguments. */
public final class CallNode extends ExpressionNode {
    @Child private ExpressionNode function;
    @Children private final ExpressionNode[] arguments;
    private final String text;

    public CallNode(ExpressionNode function, ExpressionNode[] arguments, String text) {
        this.function = function;
        this.arguments = arguments;
        this.text = text;
    }

    @Override
    @ExplodeLoop
    public Object execute(VirtualFrame frame) {
        Object f = function.execute(frame);
        Object[] values = new Object[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            values[i] = arguments[i].execute(frame);
        }
        return call(f, values);
    }

    @TruffleBoundary
    private Object call(Object f, Object[] values) {
        InteropLibrary interop = InteropLibrary.getUncached();
        if (!interop.isExecutable(f)) {
            throw PolygpuException.badValue("'" + text + "' calls " + interop.toDisplayString(f)
                    + ", which is not a function");
        }
        try {
            return interop.execute(f, values);
        } catch (InteropException e) {
            throw PolygpuException.badValue("'" + text + "': " + e.getMessage());
        }
    }
}
