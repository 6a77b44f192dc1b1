package dev.gpureactor.core;

/**
 * The two JVM flags the library needs, in the form that fits where it was loaded from: on the class
 * path (the unnamed module) they name {@code ALL-UNNAMED}, on the module path the library's module,
 * {@code dev.gpureactor}. Every message that tells a user to add a flag builds it here, so the advice
 * is right on both paths.
 */
public final class JvmFlags {
    private JvmFlags() {}

    /**
     * {@return the flag that opens the JDK's virtual-thread scheduler hook to {@code library}'s module}
     *
     * @param library the library's path or name
     */
    public static String addOpens(Module library) {
        return "--add-opens java.base/java.lang=" + target(library);
    }

    /**
     * {@return the flag that lets {@code library}'s module link native code}
     *
     * @param library the library's path or name
     */
    public static String enableNativeAccess(Module library) {
        return "--enable-native-access=" + target(library);
    }

    /** A named module by its name; the class path's unnamed module as {@code ALL-UNNAMED}. */
    static String target(Module library) {
        return library.isNamed() ? library.getName() : "ALL-UNNAMED";
    }
}
