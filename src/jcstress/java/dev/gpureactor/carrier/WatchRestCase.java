package dev.gpureactor.carrier;

import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The shared body of {@link WatchRestStress} and its negative control: the carrier watch announcing its rest on a
 * quiet pool against the admission that ends the quiet, on the real pool ({@link CarrierPool#withoutCarriers(PoolControls)}:
 * its admission and its {@link WatchRest}; the watch's park is left out, as an actor cannot park for ever).
 *
 * <p>Setup: a pool with nothing admitted, as the watch's last look found it. Actors: the watch announces its rest
 * and reads the pool again; an admitter's resume is admitted (one fetch-and-add), which, finding no task admitted
 * before it, claims the wake of a resting watch. The arbiter reads whether the watch still rests.
 */
final class WatchRestCase {
    private final CarrierPool pool;

    /** @param rereads whether the watch reads the pool again after announcing its rest: false only in the negative control */
    WatchRestCase(boolean rereads) { pool = CarrierPool.withoutCarriers(new PoolControls(true, true, rereads)); }

    /** Actor: the watch, its look having found the pool quiet; r1 = 1 when it would park with no timeout. */
    void rest(II_Result r) { r.r1 = pool.rest().announce(pool::quiet) ? 1 : 0; }

    /** Actor: a resume admitted, the first task after the quiet (queued: no carrier runs it here). */
    void admit() { pool.resumes().execute(() -> { }); }

    /** r2 = 1 when the watch still rests once both are done: nobody claimed its wake. */
    void arbiter(II_Result r) { r.r2 = pool.rest().isResting() ? 1 : 0; }
}
