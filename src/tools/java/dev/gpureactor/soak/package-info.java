/**
 * The fault-injecting soak behind {@code gar soak} and the reliability tests: futures across several
 * lines and all eight slots, each with a {@link dev.gpureactor.soak.Fate} decided up front, run on
 * the simulated device by {@link dev.gpureactor.soak.Soak}, judged by
 * {@link dev.gpureactor.soak.SoakReport}'s invariants (outcomes, off-heap bytes freed, pinned
 * virtual threads through JFR). After the rounds, {@link dev.gpureactor.soak.ClosePhase} closes a reactor
 * under load and checks that every joiner is answered and no thread is stranded. See {@code docs/RELIABILITY.md}.
 *
 * <p>Layer rule ({@code ArchitectureTest}): uses the library's packages, {@code dev.gpureactor.json} and
 * the JDK (JFR included); never {@code dev.gpureactor.cli}, which drives it.
 */
package dev.gpureactor.soak;
