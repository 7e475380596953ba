package org.polygpu.lang.nodes;

import org.polygpu.lang.PolygpuLanguage;

import com.oracle.truffle.api.frame.VirtualFrame;
import com.oracle.truffle.api.nodes.RootNode;
import com.oracle.truffle.api.source.SourceSection;

/** The root of one {@code eval}: a single expression whose value is the result. */
public final class PolygpuRootNode extends RootNode {
    @Child private ExpressionNode body;
    private final SourceSection section;

    public PolygpuRootNode(PolygpuLanguage language, ExpressionNode body, SourceSection section) {
        super(language);
        this.body = body;
        this.section = section;
    }

    @Override
    public Object execute(VirtualFrame frame) {
        return body.execute(frame);
    }

    @Override
    public SourceSection getSourceSection() {
        return section;
    }

    @Override
    public String getName() {
        return "polygpu eval";
    }
}
