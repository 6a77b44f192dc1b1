package dev.gpureactor.parker;

/**
 * The line of a {@link GpuReactor}'s handshakes that a jcstress negative control removes, given at
 * the reactor's build ({@link GpuReactor.Builder#controls}). {@link #NONE}, every reactor the library
 * makes, changes nothing.
 *
 * @param skipsClosedRecheck a registrar does not re-read {@code closed} after its parker is in the map,
 *                           the one line that pairs {@code await} with {@code close} ({@code AwaitCloseNegativeControl})
 */
public record ReactorControls(boolean skipsClosedRecheck) {
    /** Changes nothing. */
    public static final ReactorControls NONE = new ReactorControls(false);
}
