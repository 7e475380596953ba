package org.polygpu.cluster;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * The ordered command queue of one stream on a worker: a thread takes the stream's commands in the order rank 0 sent
 * them and enqueues them on the local stream. A command that must wait (for another rank's event, for bytes still
 * in flight) blocks the queue, and so the stream, without blocking anything else. A command's failure goes to the
 * worker's failure record and the queue goes on.
 *
 * <p>Lifecycle: RUNNING (from construction) → FINISHING ({@link #finish()}: the commands already queued still run)
 * → ENDED. Thread-safe.
 */
final class StreamQueue {
    private static final Runnable END = () -> { };

    private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final Consumer<RuntimeException> failures;
    /** Commands submitted and not yet run; guarded by this. */
    private int pending;

    StreamQueue(String name, Consumer<RuntimeException> failures) {
        this.failures = failures;
        Thread.ofPlatform().daemon().name(name).start(this::run);
    }

    synchronized void submit(Runnable command) {
        pending++;
        tasks.add(command);
    }

    /** Ends the queue's thread after the commands already submitted. */
    void finish() {
        tasks.add(END);
    }

    /** Blocks until every command submitted so far has run. */
    synchronized void awaitIdle() {
        while (pending > 0) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void run() {
        while (true) {
            Runnable task;
            try {
                task = tasks.take();
            } catch (InterruptedException e) {
                return;
            }
            if (task == END) {
                return;
            }
            try {
                task.run();
            } catch (RuntimeException e) {
                failures.accept(e);
            } finally {
                synchronized (this) {
                    pending--;
                    notifyAll();
                }
            }
        }
    }
}
