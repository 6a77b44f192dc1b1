package dev.gpureactor.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpureactor.core.CompletionLine;
import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.MemoryDescriptor;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The default word park: it returns on the word, at the bound, or throws on an interrupt; timing bounds are lower bounds only. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WordParkTest {
    private static final long MINUTE = TimeUnit.MINUTES.toNanos(1);

    @Test
    void aStoreFromAnotherThreadEndsThePark() throws Exception {
        try (CompletionLine line = CompletionLine.allocate()) {
            MemoryDescriptor word = new MemoryDescriptor(line, Slot.of(0), 1);
            Thread device = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
                line.store(Slot.of(0), 1);
            });
            assertTrue(WordPark.spinThenPark(1_000, 1_000_000).park(word, MINUTE), "the store must end the park");
            device.join();
        }
    }

    @Test
    void withNoStoreItReturnsFalseAtTheBound() throws Exception {
        try (CompletionLine line = CompletionLine.allocate()) {
            MemoryDescriptor word = new MemoryDescriptor(line, Slot.of(1), 1);
            long bound = TimeUnit.MILLISECONDS.toNanos(30), t0 = System.nanoTime();
            assertFalse(WordPark.spinThenPark().park(word, bound));
            long took = System.nanoTime() - t0;
            assertTrue(took >= bound, "returned after " + took + " ns, before the " + bound + " ns bound");
            assertFalse(WordPark.spinThenPark().park(word, 0), "a bound of 0 waits for nothing");
        }
    }

    @Test
    void aReachedWordReturnsAtOnce() throws Exception {
        try (CompletionLine line = CompletionLine.allocate()) {
            line.store(Slot.of(2), 5);
            assertTrue(WordPark.spinThenPark().park(new MemoryDescriptor(line, Slot.of(2), 5), MINUTE));
        }
    }

    @Test
    void anInterruptThrows() throws Exception {
        try (CompletionLine line = CompletionLine.allocate()) {
            MemoryDescriptor word = new MemoryDescriptor(line, Slot.of(3), 1);
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, () -> WordPark.spinThenPark(0, MINUTE).park(word, MINUTE));
            assertFalse(Thread.interrupted(), "the exception takes the interrupt, as a throwing wait does");
        }
    }

    @Test
    void badStepsAreCoded() {
        assertEquals(ErrorCode.InvalidArgument, assertThrows(ReactorException.class, () -> WordPark.spinThenPark(-1, 1)).code());
        assertEquals(ErrorCode.InvalidArgument, assertThrows(ReactorException.class, () -> WordPark.spinThenPark(0, 0)).code());
    }
}
