/**
 * The library inside software a user already runs: a Jetty 12 server whose request threads are the
 * reactor's ({@code JettyServerTest}), and a CUDA stream made by JavaCPP's CUDA presets awaited through
 * the reactor ({@code JavaCppStreamTest}). Both libraries are test-scope dependencies: the library's
 * own artifact keeps none.
 */
package dev.gpureactor.interop;
