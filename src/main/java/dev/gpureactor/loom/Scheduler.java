package dev.gpureactor.loom;

import dev.gpureactor.core.Declared;
import dev.gpureactor.core.HostCaps;

import java.util.Optional;

/**
 * Where this library's virtual threads run: on its own carrier pool ({@code carrier.CarrierPool}), or, when the JDK hook
 * is closed, on the JDK's default scheduler (declared fallback, coded
 * {@link dev.gpureactor.core.ErrorCode#ExecutorFallback} warning; refused when strict).
 */
public enum Scheduler implements Declared<Scheduler, HostCaps> {
    /** The reactor's own carrier pool (needs {@code --add-opens java.base/java.lang}); the default. */
    CARRIER_POOL("carrier-pool"),
    /** The JDK's default virtual-thread scheduler: the fallback where the carrier pool cannot run. */
    JDK_DEFAULT("jdk-default");

    private final String declaredName;

    Scheduler(String declaredName) { this.declaredName = declaredName; }

    @Override
    public String declaredName() { return declaredName; }

    @Override
    public Optional<String> lacks(HostCaps caps) {
        return this == CARRIER_POOL ? caps.carriers().missing() : Optional.empty();
    }

    @Override
    public Optional<Scheduler> fallback() {
        return this == CARRIER_POOL ? Optional.of(JDK_DEFAULT) : Optional.empty();
    }

    @Override
    public String toString() { return declaredName; }
}
