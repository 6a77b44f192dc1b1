package dev.gpureactor.backend;

import java.lang.foreign.FunctionDescriptor;

/**
 * A function a {@link DriverBinding} binds, as a constant of the vendor's enum ({@code CudaCall},
 * {@code HipCall}): the constant's name is the library's symbol, its ordinal the slot of the address the
 * binding resolved once, so a raw call finds its address by an array load, never by name.
 */
public interface DriverCall {
    /** {@return the symbol in the library: the enum constant's name} */
    String name();

    /** {@return the slot of this function's address in its binding: the enum constant's ordinal} */
    int ordinal();

    /** {@return the function's exact descriptor (from the jextract-generated {@code *_fn} type)} */
    FunctionDescriptor descriptor();
}
