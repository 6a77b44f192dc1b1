/**
 * The parkers: one {@link dev.gpureactor.parker.LineParker} per completion line or group of lines, run by a
 * {@link dev.gpureactor.parker.ParkerThread}, sleeps to the predicted completion, parks on the lines and
 * unparks exactly the joiners whose words were reached (or runs one itself: hosting, {@link
 * dev.gpureactor.parker.ParkerHosting}). A wait reaches it as a {@link dev.gpureactor.parker.LineWait} (the
 * future's registration node: the settle calls are its whole view of the future) through the parker's
 * {@link dev.gpureactor.parker.ParkerInbox}; the reactor finds a line's parker in the {@link
 * dev.gpureactor.parker.ParkerRoster}. What a parker does next is decided by its single-threaded turn ({@link
 * dev.gpureactor.parker.LineGroup} over one {@link dev.gpureactor.parker.LineWatch} per line, answering a
 * {@link dev.gpureactor.parker.Turn}). While a parker sleeps out a polling park, a carrier between two tasks
 * may borrow its loop for one turn ({@link dev.gpureactor.parker.TurnLoan}, {@link
 * dev.gpureactor.parker.LineParker#lendTurn}). A parker thread's death finishes even when the heap has run out
 * ({@link dev.gpureactor.parker.ParkerDeath}). Also here: the counters behind {@code RunStats} ({@link
 * dev.gpureactor.parker.ReactorCounters}), the parkers' JFR events, and the {@link dev.gpureactor.parker.Reporter}
 * that delivers what the reactor's own threads report (warnings, those events) on a thread of its own.
 *
 * <p>Not exported: a user holds a {@code GpuReactor} and its futures. docs/DESIGN.md §2 has the threads,
 * §5 the handshakes.
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses {@code dev.gpureactor.core}, {@code dev.gpureactor.park}
 * (the line parks), {@code dev.gpureactor.carrier} (a woken thread goes to the pool) and the JDK; it never
 * names {@code loom}, which uses it.
 */
package dev.gpureactor.parker;
