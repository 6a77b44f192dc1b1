package dev.gpureactor.loom;

import org.jetbrains.kotlinx.lincheck.transformation.LincheckJavaAgent;

/**
 * Has Lincheck's agent instrument the library classes a Lincheck test drives. Its lazy mode
 * instruments a class loaded before the check only when it reaches the class through the test
 * instance's fields, and that walk cannot pass a record (Unsafe.objectFieldOffset refuses a
 * record's fields), so the tests hide their objects and name the classes here. Without it a
 * class another test loaded first would run uninstrumented: no switch points, nothing explored.
 */
final class Instrumented {
    private Instrumented() { }

    /** Called from a Lincheck test instance's constructor, while the agent is installed. */
    static void classes(Class<?>... classes) {
        for (Class<?> c : classes) LincheckJavaAgent.INSTANCE.ensureClassHierarchyIsTransformed(c.getName());
    }
}
