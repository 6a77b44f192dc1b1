/**
 * A user of the library, built by scripts/consumer.sh against the installed jar: the README's example
 * ({@code Example}, generated from README.md) and {@link dev.gpureactor.consumer.Flags}. Uses the
 * library's exported packages only.
 */
package dev.gpureactor.consumer;
