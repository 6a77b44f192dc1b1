package dev.gpureactor.loom;

/**
 * A reactor as JMX sees it (jconsole, VisualVM, metrics agents): one bean per reactor, named
 * {@code dev.gpureactor:type=GpuReactor,name=<name>}, registered with the platform MBean server when
 * the reactor is built ({@link GpuReactor.Builder#jmx}) and unregistered when it closes. Every read is
 * a fresh snapshot ({@link GpuReactor#stats()}); counters are totals since the reactor was built.
 */
public interface GpuReactorMXBean {
    /**
     * The reactor's name ({@link GpuReactor.Builder#name}), as in the bean's object name.
     *
     * @return the name
     */
    String getName();

    /**
     * The executor kind running (gpu-reactor, io-uring, naive).
     *
     * @return {@code gpu-reactor}, {@code io-uring} or {@code naive}
     */
    String getKind();

    /**
     * The scheduler running (carrier-pool, jdk-default).
     *
     * @return {@code carrier-pool} or {@code jdk-default}
     */
    String getScheduler();

    /**
     * The wait plan's text.
     *
     * @return the plan in its text form
     */
    String getPlan();

    /**
     * What the parkers park with.
     *
     * @return the hardware word wait's description, or the pure-Java park's
     */
    String getPark();

    /**
     * Whether the reactor's close has begun.
     *
     * @return true once closing or closed
     */
    boolean isClosed();

    /**
     * Lines with a parker now.
     *
     * @return the count as read now
     */
    int getLines();

    /**
     * Of those, lines whose parker is live.
     *
     * @return the count as read now
     */
    int getParkers();

    /**
     * Parker threads whose loop started.
     *
     * @return the total since the reactor was built
     */
    long getParkersStarted();

    /**
     * Times a parker's waits failed {@code ParkerDied} (an exception in its loop).
     *
     * @return the total
     */
    long getParkersDied();

    /**
     * Carrier threads (0 on the JDK's default scheduler).
     *
     * @return the count as read now
     */
    int getCarriers();

    /**
     * Woken virtual threads and callbacks waiting for a carrier now, approximately.
     *
     * @return the depth as read now
     */
    long getQueueDepth();

    /**
     * Virtual threads of the carrier pool that started and have not ended.
     *
     * @return the count as read now
     */
    long getLiveThreads();

    /**
     * Waits registered with a parker and not yet settled.
     *
     * @return the count as read now
     */
    long getRegistrations();

    /**
     * Tasks the carriers ran (summed over per-carrier counts, each a little behind: see {@link RunStats}).
     *
     * @return the total
     */
    long getPolls();

    /**
     * Waits the parkers' scans woke (each completed wait once).
     *
     * @return the total
     */
    long getWoke();

    /**
     * OS sleeps of the parkers: to a deadline, or idle until a registration.
     *
     * @return the total
     */
    long getSlept();

    /**
     * Line parks of the parkers (hardware word wait or the pure-Java park).
     *
     * @return the total
     */
    long getParked();

    /**
     * Backstop queries of a port (the error authority).
     *
     * @return the total
     */
    long getQueried();

    /**
     * Woken virtual threads a parker ran itself (hosting) instead of handing them to a carrier.
     *
     * @return the total
     */
    long getHosted();

    /**
     * Times a registration or close took a line's loop from a parker thread that was running a guest.
     *
     * @return the total
     */
    long getRelieved();

    /**
     * Tasks waiting for a carrier that a relieved parker thread ran before it stood by again (see {@link RunStats}).
     *
     * @return the total
     */
    long getRanWaiting();

    /**
     * Extra carriers started for carriers blocked by pinned virtual threads or in the OS (see {@link RunStats}).
     *
     * @return the total
     */
    long getCompensations();

    /**
     * Carrier time not spent running tasks, summed over carriers (see {@link RunStats}).
     *
     * @return nanoseconds, the total
     */
    long getIdleNanos();

    /**
     * Carrier time spent running tasks, summed over carriers: estimated from one task in 8, so far off
     * over a few long tasks (see {@link RunStats}).
     *
     * @return nanoseconds, the total
     */
    long getBusyNanos();

    /**
     * Share of carrier time spent running tasks, 0..1.
     *
     * @return {@link RunStats#filled()}, 0..1
     */
    double getFilled();

    /**
     * CPU time the parker threads used ({@link RunStats#parkerCpuNanos()}); 0 where the JVM cannot measure thread CPU time.
     *
     * @return nanoseconds, the total
     */
    long getParkerCpuNanos();

    /**
     * Warnings raised, kept or not.
     *
     * @return the count
     */
    long getWarningsRaised();

    /**
     * The kept warnings' texts, in order.
     *
     * @return a new array, oldest first
     */
    String[] getWarnings();
}
