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
     * {@return the driver table of a new line, after checking that the library has every function a line needs
     * (and initializing the driver where it must be)}
     *
     * @throws dev.gpureactor.core.ReactorException {@code NativeUnavailable} naming every missing
     *     function; {@code Backend} when initializing fails
     */
    LineDriver lineDriver();

    /**
     * {@return whether {@code device} (the ordinal of a new line's domain) takes the store into a line}
     *
     * @param device the device
     */
    StoreSupport storeSupport(int device);

    /**
     * {@return the vendor's port on {@code line}'s word {@code slot} reaching {@code target}}
     *
     * @param line the line
     * @param stream the stream
     * @param slot the slot
     * @param target the value that means done
     * @param park the park on the word
     */
    P port(MappedLine<S, P> line, S stream, Slot slot, long target, WordPark park);
}
