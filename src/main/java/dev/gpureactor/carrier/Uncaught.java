package dev.gpureactor.carrier;

/**
 * What a thread that runs other threads' work does with what that work throws: a carrier running a
 * task, a parker running a hosted guest. Both go on whatever the user's handler does.
 */
public final class Uncaught {
    private Uncaught() {}

    /**
     * Gives {@code t}, thrown by a task {@code on} ran (a virtual thread's run throws only when its own
     * handler threw), to {@code on}'s uncaught-exception handler, and drops what that handler throws,
     * as the JVM drops it at a thread's end.
     *
     * @param on the thread that ran the task
     * @param t  what the task threw
     */
    public static void report(Thread on, Throwable t) {
        try {
            on.getUncaughtExceptionHandler().uncaughtException(on, t);
        } catch (Throwable dropped) {
            // the handler's own failure: there is nobody left to report it to
        }
    }
}
