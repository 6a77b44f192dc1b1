package dev.gpureactor.bench;

/**
 * Many futures waiting at once.
 *
 * @param futures              futures (one virtual thread joining each)
 * @param lines                completion lines they were spread over (8 slots each)
 * @param bytesPerVirtualThread heap per plainly parked virtual thread (the baseline), after GC
 * @param bytesPerFuture       heap per waiting future beyond its virtual thread: (heap with virtual threads
 *                             joining futures − heap with as many virtual threads parked plainly) / futures
 * @param wakeAllMillis        from the device's stores (all slots at once) to the last joiner running again, the median of {@link ManyFutures#WAKES} wakes
 * @param completionsPerSecond futures / wakeAll
 * @param registrationsLeft    registrations the reactor still held afterwards (0 when nothing leaked)
 */
public record ManyResult(int futures, int lines, double bytesPerVirtualThread, double bytesPerFuture, double wakeAllMillis,
                         double completionsPerSecond, long registrationsLeft) {}
