/**
 * GPU backends: the ways a device stores into a {@link dev.gpureactor.core.CompletionLine}, each a
 * {@link dev.gpureactor.core.CompletionPort}. {@code cuda} and {@code hip} share one line type, its
 * page and ownership rules and one port body ({@link dev.gpureactor.backend.MappedLine} over a
 * {@link dev.gpureactor.backend.MappedPage} over a {@link dev.gpureactor.backend.LineDriver} table,
 * {@link dev.gpureactor.backend.DriverPort}); each binding ({@link dev.gpureactor.backend.DriverBinding}:
 * load-once, its {@link dev.gpureactor.backend.DriverCall} symbols resolved once into a table, coded
 * errors, the {@code gar probe} entry) supplies only its calls, as a {@link dev.gpureactor.backend.LineVendor},
 * {@link dev.gpureactor.backend.PrimaryContexts} and {@link dev.gpureactor.backend.StreamCalls}; a line's
 * table ({@link dev.gpureactor.backend.BoundLineDriver}) keeps only the vendor's own calls.
 * {@code metal} is an {@code MTLSharedEvent} port.
 * Every vendor entry point is resolved at run time through FFM (the non-exported {@code
 * dev.gpureactor.loader.NativeLoader}, with its directory checks); nothing links against a vendor library
 * at build time. The raw calls live in the vendors' non-exported {@code raw} packages.
 * Depends on {@code core}, {@code loader} (the one native-library loader) and the JDK only.
 */
package dev.gpureactor.backend;
