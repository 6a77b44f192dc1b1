package dev.gpureactor.loom;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * What a test waits for that another thread makes true (a parker's turn, a thread's exit): polled
 * within a hang guard, which bounds a hung run and is never a timing the test asserts.
 */
public final class Poll {
    /** The hang guard: far beyond any wait these tests make, even on a loaded machine. */
    public static final Duration GUARD = Duration.ofSeconds(60);

    private Poll() {}

    /** Returns once {@code cond} holds; fails with "gave up waiting until {@code what}" after {@link #GUARD}. */
    public static void until(String what, BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + GUARD.toNanos();
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() - end > 0) fail("gave up waiting until " + what);
            Thread.sleep(2);
        }
    }
}
