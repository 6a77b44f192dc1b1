package dev.gpureactor.json;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class JsonReadTest {
    @Test
    void reads_back_what_the_writer_wrote() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "a \"quoted\" \\ back\nslash\t\u0001");
        m.put("n", 42L);
        m.put("ok", true);
        m.put("none", null);
        m.put("list", List.of("x", List.of(), Map.of()));
        Object back = Json.read(Json.write(m));
        Map<String, Object> expected = new LinkedHashMap<>(m);
        expected.put("n", new BigDecimal(42));
        assertEquals(expected, back);
        assertEquals(List.copyOf(m.keySet()), List.copyOf(((Map<?, ?>) back).keySet()), "document order");
    }

    @Test
    void writes_a_number_with_no_value_as_null_so_the_document_stays_json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("nan", Double.NaN);
        m.put("inf", Double.NEGATIVE_INFINITY);
        m.put("fnan", Float.NaN);
        m.put("sig", Json.significant(Double.POSITIVE_INFINITY));
        m.put("half", 0.5);
        String text = Json.write(m);
        assertEquals("{\"nan\":null,\"inf\":null,\"fnan\":null,\"sig\":null,\"half\":0.500}", text);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("nan", null);
        expected.put("inf", null);
        expected.put("fnan", null);
        expected.put("sig", null);
        expected.put("half", new BigDecimal("0.500"));
        assertEquals(expected, Json.read(text));
    }

    @Test
    void reads_the_escapes_and_numbers_the_jdk_writes() {
        assertEquals(Map.of("stack", List.of("java.base/java.lang.Thread.run(Thread.java:1474)"), "t", new BigDecimal("-1.5e3")),
                Json.read(" { \"stack\" : [ \"java.base\\/java.lang.Thread.run(Thread.java:1474)\" ] , \"t\": -1.5e3 } "));
        assertEquals("é", Json.read("\"\\u00e9\""));
    }

    @Test
    void refuses_what_is_not_one_value() {
        for (String bad : Arrays.asList("", "{", "[1,]", "{\"a\" 1}", "\"open", "tru", "1 2", "{\"a\":1,}", "\"\\x\"")) {
            assertThrows(IllegalArgumentException.class, () -> Json.read(bad), bad);
        }
    }
}
