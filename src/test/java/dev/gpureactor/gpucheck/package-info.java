/**
 * Probes of the GPU check's own safeguards (scripts/gpu-check.sh, docs/GPU.md): test classes that
 * hang or crash on purpose, so that its dry run can show that a hung test is stopped and reported, a
 * JVM that hangs is killed without losing the other classes' reports, and a crash's log comes back
 * in the summary. Their names end in {@code Probe}, so the Maven build never runs them; only the dry
 * run selects them, and it fails unless each is stopped, killed or crashed as expected.
 */
package dev.gpureactor.gpucheck;
