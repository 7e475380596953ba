package org.polygpu.lang.objects;

import java.nio.ByteOrder;

import org.polygpu.lang.PolygpuException;

import com.oracle.truffle.api.CallTarget;
import com.oracle.truffle.api.CompilerDirectives;
import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.frame.VirtualFrame;
import com.oracle.truffle.api.interop.InteropException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.memory.ByteArraySupport;
import com.oracle.truffle.api.nodes.LoopNode;
import com.oracle.truffle.api.nodes.RootNode;

/**
 * Writes bytes into another language's buffer (a Python {@code array}, {@code bytearray} or {@code memoryview}, a
 * JavaScript typed array or {@code ArrayBuffer}). Interop has a bulk read ({@code readBuffer} into a {@code byte[]})
 * but no bulk write, so this is a loop of 8-byte {@code writeBufferLong} messages, as a root node of its own: called
 * once per {@link #CALL_BYTES} (so that it is compiled during the first large copy), with the destination's
 * library specialised on its class, the loop compiles to the destination's own stores.
 *
 * <p>Arguments: the destination, the source {@code byte[]}, the first source byte (int), the number of bytes (int)
 * and the destination's first byte (long). A destination that refuses a write fails with a guest error naming
 * {@code copyTo}.
 */
public final class BufferWriter extends RootNode {
    /** Bytes written per call; a multiple of 8. */
    static final int CALL_BYTES = 1 << 16;
    private static final ByteArraySupport LITTLE_ENDIAN = ByteArraySupport.littleEndian();

    @Child private InteropLibrary buffers = InteropLibrary.getFactory().createDispatched(2);

    private BufferWriter(TruffleLanguage<?> language) {
        super(language);
    }

    /** A call target of a new writer for {@code language} (the language keeps one per class of destination). */
    public static CallTarget create(TruffleLanguage<?> language) {
        return new BufferWriter(language).getCallTarget();
    }

    /** Writes {@code length} bytes of {@code source} from {@code from} into {@code destination} at {@code at}. */
    static void write(CallTarget writer, Object destination, byte[] source, int from, int length, long at) {
        for (int done = 0; done < length; done += CALL_BYTES) {
            writer.call(destination, source, from + done, Math.min(CALL_BYTES, length - done), at + done);
        }
    }

    @Override
    public Object execute(VirtualFrame frame) {
        Object[] args = frame.getArguments();
        Object destination = args[0];
        byte[] source = (byte[]) args[1];
        int from = (int) args[2];
        int length = (int) args[3];
        long at = (long) args[4];
        try {
            int i = 0;
            for (; i + 8 <= length; i += 8) {
                buffers.writeBufferLong(destination, ByteOrder.LITTLE_ENDIAN, at + i,
                        LITTLE_ENDIAN.getLong(source, from + i));
            }
            for (; i < length; i++) {
                buffers.writeBufferByte(destination, at + i, source[from + i]);
            }
        } catch (InteropException e) {
            CompilerDirectives.transferToInterpreter();
            throw refused(e);
        }
        LoopNode.reportLoopCount(this, length / 8);
        return null;
    }

    @TruffleBoundary
    private static PolygpuException refused(InteropException e) {
        return PolygpuException.badValue("copyTo: cannot write the destination: " + e.getMessage());
    }

    @Override
    public String getName() {
        return "copyTo buffer writer";
    }
}
