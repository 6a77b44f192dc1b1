package dev.gpureactor.bench.service;

import dev.gpureactor.loom.GpuReactor;
import dev.gpureactor.loom.Scheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Modes from their text, and reactor settings reaching the builder. */
class ModeTest {
    @Test
    void a_list_splits_between_modes_not_between_settings() {
        List<Mode> ms = Mode.parseList("reactor,reactor:carriers=2,hosting=false,parkSpin=0,watcher,sleep1,reactor-jdk");
        assertEquals(List.of("reactor", "reactor:carriers=2,hosting=false,parkSpin=0", "watcher", "sleep1", "reactor-jdk"),
                ms.stream().map(Mode::label).toList());
        Mode.Reactor r = assertInstanceOf(Mode.Reactor.class, ms.get(1));
        assertEquals(Map.of("carriers", "2", "hosting", "false", "parkSpin", "0"), r.settings());
        assertEquals(Map.of("scheduler", "jdk-default"), ((Mode.Reactor) ms.get(4)).settings());
        assertEquals(Duration.ofNanos(100_000), assertInstanceOf(Mode.Watcher.class, ms.get(2)).interval());
        assertInstanceOf(Mode.SleepPoll.class, ms.get(3));
    }

    @Test
    void bad_modes_are_refused_with_a_reason() {
        assertThrows(IllegalArgumentException.class, () -> Mode.parse("spin"));
        assertThrows(IllegalArgumentException.class, () -> Mode.parse("watcher:speed=1ms"));
        assertThrows(IllegalArgumentException.class, () -> Mode.parse("watcher:interval=0"));
        assertThrows(IllegalArgumentException.class, () -> Mode.parse("watcher:interval=fast"));
        assertThrows(IllegalArgumentException.class, () -> Mode.parse("watcher:interval=11ms"));
        assertThrows(IllegalArgumentException.class, () -> Mode.parseList("watcher:interval=25us,parkSpin=0"));
        assertThrows(IllegalArgumentException.class, () -> Mode.parse("sleep1:interval=1ms"));
        assertThrows(IllegalArgumentException.class, () -> Mode.parse("reactor:carriers"));
        assertThrows(IllegalArgumentException.class, () -> Mode.parseList("watcher,watcher"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ((Mode.Reactor) Mode.parse("reactor:turbo=on")).builder(Mode.BuilderHook.NONE));
        assertTrue(e.getMessage().contains("turbo") && e.getMessage().contains("carriers"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ((Mode.Reactor) Mode.parse("reactor:hosting=maybe")).builder(Mode.BuilderHook.NONE));
    }

    @Test
    void a_watcher_takes_an_interval_and_the_100us_watcher_is_the_baseline() {
        List<Mode> ms = Mode.parseList("watcher:interval=25us,watcher:interval=50us,reactor,watcher,watcher:interval=0.1ms");
        assertEquals(List.of("watcher:interval=25us", "watcher:interval=50us", "reactor", "watcher", "watcher:interval=0.1ms"),
                ms.stream().map(Mode::label).toList());
        assertEquals(Duration.ofNanos(25_000), assertInstanceOf(Mode.Watcher.class, ms.get(0)).interval());
        assertEquals(Duration.ofNanos(50_000), assertInstanceOf(Mode.Watcher.class, ms.get(1)).interval());
        assertEquals(Mode.WATCHER, ms.get(3), "the plain watcher is the 100 us one");
        assertEquals(List.of(false, false, false, true, true), ms.stream().map(Mode::isBaseline).toList(),
                "a watcher at 100 us is a baseline however it is written");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Mode.parse("watcher:interval=20ms"));
        assertTrue(e.getMessage().contains("interval") && e.getMessage().contains("10 ms"), e.getMessage());
    }

    @Test
    void settings_reach_the_builder_and_unknown_keys_the_hook() {
        List<String> seen = new ArrayList<>();
        Mode.BuilderHook hook = (b, k, v) -> seen.add(k + "=" + v);
        Mode.Reactor r = (Mode.Reactor) Mode.parse("reactor:carriers=3,parkSpin=50us,newOption=x");
        try (GpuReactor reactor = r.builder(hook).build()) {
            assertEquals(3, reactor.carriers().orElseThrow().size());
        }
        assertEquals(List.of("newOption=x"), seen);
        try (GpuReactor reactor = ((Mode.Reactor) Mode.parse("reactor:linesPerParker=4")).builder(Mode.BuilderHook.NONE).build()) {
            assertEquals(4, reactor.linesPerParker());
        }
        assertThrows(IllegalArgumentException.class, () -> ((Mode.Reactor) Mode.parse("reactor:linesPerParker=many")).builder(Mode.BuilderHook.NONE));
        // hardwarePark is a builder setting, not a hook's key: the GPU check compares the parks with it.
        try (GpuReactor reactor = ((Mode.Reactor) Mode.parse("reactor:hardwarePark=false")).builder(hook).build()) {
            assertEquals(GpuReactor.FALLBACK_PARK, reactor.park());
        }
        assertEquals(List.of("newOption=x"), seen);
        assertThrows(IllegalArgumentException.class, () -> ((Mode.Reactor) Mode.parse("reactor:hardwarePark=maybe")).builder(Mode.BuilderHook.NONE));
        try (GpuReactor reactor = ((Mode.Reactor) Mode.parse("reactor-jdk")).builder(Mode.BuilderHook.NONE).build()) {
            assertEquals(Scheduler.JDK_DEFAULT, reactor.schedulerResolution().running());
        }
    }
}
