/**
 * The deterministic core: time, completion lines and descriptors, wait plans and bands, the
 * deadline estimator, the completion port and wait driver, declared settings and the coded error
 * registry. Pure Java: no threads, no native code, no library but the JDK; every decision reads time
 * through an injected {@link dev.gpureactor.core.Clock}, so it replays on a
 * {@link dev.gpureactor.core.ManualClock}.
 */
package dev.gpureactor.core;
