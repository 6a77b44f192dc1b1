/**
 * Tests of the whole project's shape: {@code ArchitectureTest} reads the compiled classes and enforces
 * the layer rule of every package (each {@code package-info} states it) and the absence of package
 * cycles. Test code only; it may use anything on the test class path.
 */
package dev.gpureactor;
