package dev.gpureactor.loom;

/**
 * A reactor as JMX sees it (jconsole, VisualVM, metrics agents): one bean per reactor, named
 * {@code dev.gpureactor:type=GpuReactor,name=<name>}, registered with the platform MBean server when
 * the reactor is built ({@link GpuReactor.Builder#jmx}) and unregistered when it closes. Every read is
 * a fresh snapshot ({@link GpuReactor#stats()}); counters are totals since the reactor was built.
 */
public interface GpuReactorMXBean {
    /** The reactor's name ({@link GpuReactor.Builder#name}), as in the bean's object name. */
    String getName();

    /** The executor kind running (gpu-reactor, io-uring, naive). */
    String getKind();

    /** The scheduler running (carrier-pool, jdk-default). */
    String getScheduler();

    /** The wait plan's text. */
    String getPlan();

    /** What the parkers park with. */
    String getPark();

    boolean isClosed();

    /** Lines with a parker now. */
    int getLines();

    /** Of those, lines whose parker is live. */
    int getParkers();

    long getParkersStarted();

    long getParkersDied();

    /** Carrier threads (0 on the JDK's default scheduler). */
    int getCarriers();

    /** Woken virtual threads and callbacks waiting for a carrier now, approximately. */
    long getQueueDepth();

    /** Virtual threads of the carrier pool that started and have not ended. */
    long getLiveThreads();

    /** Waits registered with a parker and not yet settled. */
    long getRegistrations();

    /** Tasks the carriers ran (summed over per-carrier counts, each a little behind: see {@link RunStats}). */
    long getPolls();

    long getWoke();

    long getSlept();

    long getParked();

    long getQueried();

    long getHosted();

    long getRelieved();

    /** Extra carriers started for carriers blocked by pinned virtual threads or in the OS (see {@link RunStats}). */
    long getCompensations();

    /** Carrier time not spent running tasks, summed over carriers (see {@link RunStats}). */
    long getIdleNanos();

    /** Carrier time spent running tasks, summed over carriers: estimated from one task in 8 (see {@link RunStats}). */
    long getBusyNanos();

    /** Share of carrier time spent running tasks, 0..1. */
    double getFilled();

    long getParkerCpuNanos();

    /** Warnings raised, kept or not. */
    long getWarningsRaised();

    /** The kept warnings' texts, in order. */
    String[] getWarnings();
}
