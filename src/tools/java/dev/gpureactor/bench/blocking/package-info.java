/**
 * The blocking benchmark ({@code gar blocking}): virtual threads blocked in a pipe read on the
 * reactor's carriers and on the JDK's scheduler, side by side in one run: how long a task queued
 * behind them waits to start, and how many carriers run during the blocking and after it.
 */
package dev.gpureactor.bench.blocking;
