/**
 * The deterministic core: time, completion lines and descriptors, wait plans, the
 * deadline estimator, the completion port and wait driver, declared settings, the coded error
 * registry, and the JVM flags the library needs in the form that fits its class or module path
 * ({@link dev.gpureactor.core.JvmFlags}). Pure Java: no threads, no native code, no library but the
 * JDK; every decision reads time through an injected {@link dev.gpureactor.core.Clock}, so it replays
 * on a
 * {@link dev.gpureactor.core.ManualClock}.
 */
package dev.gpureactor.core;
