package dev.gpureactor.loom;

import dev.gpureactor.core.ReactorException;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import static dev.gpureactor.loom.GpuFuture.CANCELLED;
import static dev.gpureactor.loom.GpuFuture.COMPLETED;

/**
 * How a {@link GpuFuture}'s terminal state is reported to each kind of caller, as the JDK reports
 * one: {@code join} as {@code CompletableFuture.join} does, {@code get} as {@code FutureTask.get}
 * does, {@code state()} as {@link Future.State}, and the JFR event's outcome and code. The state and
 * the outcome are read by the caller (after the acquire load that saw the state).
 */
final class FutureReports {
    private FutureReports() { }

    /**
     * What {@code join} reports for terminal state {@code s}: each exception is new, with this
     * caller's stack; {@code ofReadback}: the readback threw {@code failure}, which carries no code
     * whatever its type (a {@code ReactorException} of its own included).
     */
    static <T> T joined(int s, T value, Throwable failure, boolean ofReadback) {
        if (s == COMPLETED) return value;
        if (!ofReadback && failure instanceof ReactorException re) throw new ReactorException(re.code(), re, re.args().toArray());
        throw new CompletionException(failure);
    }

    /** What {@code get} reports for terminal state {@code s}: cancellation is not a failure. */
    static <T> T got(int s, T value, Throwable failure) throws ExecutionException {
        if (s == COMPLETED) return value;
        if (s == CANCELLED) throw FutureStage.cancellation(failure);
        throw new ExecutionException(failure);
    }

    /** {@link Future#state()} of state {@code s}: everything before a terminal state is running. */
    static Future.State stateOf(int s) {
        return switch (s) {
            case GpuFuture.PENDING, GpuFuture.READY, GpuFuture.RESOLVING, GpuFuture.SETTLING -> Future.State.RUNNING;
            case COMPLETED -> Future.State.SUCCESS;
            case CANCELLED -> Future.State.CANCELLED;
            default -> Future.State.FAILED;
        };
    }

    /** The JFR outcome name of terminal state {@code s}. */
    static String outcome(int s) {
        return switch (s) {
            case COMPLETED -> "COMPLETED";
            case CANCELLED -> "CANCELLED";
            default -> "FAILED";
        };
    }

    /** The JFR code of a failure: the coded one's name, else empty. */
    static String code(Throwable t) {
        return t instanceof ReactorException re ? re.code().name() : "";
    }
}
