/**
 * Reliability tests: the soak ({@code dev.gpureactor.soak}) run under JUnit with its invariants as
 * assertions, and misuse of the public API (slots out of range, joins on closed lines,
 * submits after shutdown) answered with coded errors. Test code only; it may use any package of the project and the test libraries.
 */
package dev.gpureactor.reliability;
