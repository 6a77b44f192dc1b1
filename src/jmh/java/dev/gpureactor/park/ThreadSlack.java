package dev.gpureactor.park;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The benchmark thread's timer slack: "default" leaves the inherited slack (50 µs on Linux), "1" sets
 * 1 ns as a parker thread does. Thread-scoped, so JMH runs the setup on the benchmark thread itself.
 */
@State(Scope.Thread)
public class ThreadSlack {
    @Param({"default", "1"})
    public String slack;

    public long slackNanos = -1;

    @Setup(Level.Iteration)
    public void apply() {
        if (!slack.equals("default") && !TimerSlack.set(Long.parseLong(slack))) {
            throw new IllegalStateException("prctl(PR_SET_TIMERSLACK) refused");
        }
        slackNanos = TimerSlack.current().orElse(-1);
    }
}
