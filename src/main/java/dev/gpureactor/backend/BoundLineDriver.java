package dev.gpureactor.backend;

import dev.gpureactor.core.ReactorException;

import java.util.Objects;

/**
 * A {@link LineDriver} over a vendor's {@link DriverBinding}: the names, the error naming and the coded
 * errors come from the binding, so a vendor's table holds only its own calls (the domain, the page, the
 * stream checks, the store, the query and the wait).
 *
 * @param <B> the vendor binding
 */
public abstract class BoundLineDriver<B extends DriverBinding<?>> implements LineDriver {
    /** The binding every call goes to; immutable, shared by every line of the library. */
    protected final B binding;

    protected BoundLineDriver(B binding) {
        this.binding = Objects.requireNonNull(binding, "binding");
    }

    @Override
    public final String backend() { return binding.backend(); }

    @Override
    public final String library() { return binding.library(); }

    @Override
    public final String statusName(int status) { return binding.errorName(status); }

    @Override
    public final ReactorException failure(String call, int status) { return binding.failure(call, status); }
}
