package dev.gpureactor.backend;

import dev.gpureactor.core.Slot;

/**
 * What a vendor binding ({@code CudaDriver}, {@code HipRuntime}) gives {@link MappedLine}: everything
 * else about a line (the page, its order of release, stores, ports' bodies) is written once here in
 * {@code backend}.
 *
 * @param <S> the vendor's stream handle
 * @param <P> the vendor's port, a named {@link DriverPort}
 */
public interface LineVendor<S extends DriverStream, P extends DriverPort<S>> {
    /**
     * The driver table of a new line, after checking that the library has every function a line needs
     * (and initializing the driver where it must be).
     *
     * @throws dev.gpureactor.core.ReactorException {@code NativeUnavailable} naming every missing
     *     function; {@code Backend} when initializing fails
     */
    LineDriver lineDriver();

    /** Whether {@code device} (the ordinal of a new line's domain) takes the store into a line. */
    StoreSupport storeSupport(int device);

    /** The vendor's port on {@code line}'s word {@code slot} reaching {@code target}. */
    P port(MappedLine<S, P> line, S stream, Slot slot, long target, WordPark park);
}
