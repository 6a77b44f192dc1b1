package dev.gpureactor.park;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import org.junit.jupiter.api.Test;

import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** prctl(PR_SET/GET_TIMERSLACK) through FFM, on a thread of its own (the slack is per thread). */
class TimerSlackTest {

    @Test
    void setAndReadTheCallingThreadsSlack() throws Exception {
        boolean linux = System.getProperty("os.name").startsWith("Linux");
        assertEquals(linux, TimerSlack.supported());
        CompletableFuture<long[]> f = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> {
            try {
                long before = TimerSlack.current().orElse(-1);
                boolean set1 = TimerSlack.set(1);
                long after1 = TimerSlack.current().orElse(-1);
                boolean set2 = TimerSlack.set(50_000);
                long after2 = TimerSlack.current().orElse(-1);
                f.complete(new long[] {before, set1 ? 1 : 0, after1, set2 ? 1 : 0, after2});
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        });
        long[] r = f.get();
        if (linux) {
            assertTrue(r[0] > 0, "a thread starts with some slack: " + r[0]);
            assertEquals(1, r[1]);
            assertEquals(1, r[2]);
            assertEquals(1, r[3]);
            assertEquals(50_000, r[4]);
        } else {
            assertEquals(OptionalLong.empty(), TimerSlack.current());
        }
    }

    @Test
    void theSlackIsPerThread() throws Exception {
        CompletableFuture<Long> other = new CompletableFuture<>();
        long mine = TimerSlack.current().orElse(-1);
        Thread.ofPlatform().start(() -> {
            TimerSlack.set(7);
            other.complete(TimerSlack.current().orElse(-1));
        }).join();
        if (TimerSlack.supported()) {
            assertEquals(7, other.get());
            assertEquals(mine, TimerSlack.current().orElse(-1));
        }
    }

    @Test
    void aNegativeSlackIsRefused() {
        assertEquals(ErrorCode.InvalidArgument, assertThrows(ReactorException.class, () -> TimerSlack.set(-1)).code());
    }
}
