package dev.gpureactor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JvmFlagsTest {
    @Test
    void on_the_class_path_the_flags_name_all_unnamed() {
        Module unnamed = JvmFlags.class.getModule();
        assertFalse(unnamed.isNamed(), "the tests run on the class path");
        assertEquals("--add-opens java.base/java.lang=ALL-UNNAMED", JvmFlags.addOpens(unnamed));
        assertEquals("--enable-native-access=ALL-UNNAMED", JvmFlags.enableNativeAccess(unnamed));
    }

    @Test
    void in_a_named_module_the_flags_name_that_module() {
        Module named = Test.class.getModule().isNamed() ? Test.class.getModule() : String.class.getModule();
        assertTrue(named.isNamed());
        assertEquals("--add-opens java.base/java.lang=" + named.getName(), JvmFlags.addOpens(named));
        assertEquals("--enable-native-access=" + named.getName(), JvmFlags.enableNativeAccess(named));
    }
}
