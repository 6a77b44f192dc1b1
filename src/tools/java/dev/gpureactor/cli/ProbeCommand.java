package dev.gpureactor.cli;

import dev.gpureactor.backend.BackendReport;
import dev.gpureactor.core.Capability;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.HostCaps;
import dev.gpureactor.core.Strictness;
import dev.gpureactor.host.uring.UringHost;
import dev.gpureactor.json.Json;
import dev.gpureactor.park.TimerSlack;
import dev.gpureactor.park.WordWait;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** What this host can do, and why not where it cannot. */
@Command(name = "probe", mixinStandardHelpOptions = true,
        description = "Print what this host can do (park, scheduler, io_uring, GPU backends), and why not where it cannot.")
final class ProbeCommand implements Callable<Integer> {
    @Mixin
    OutputOptions.JsonFlag json;

    @Override
    public Integer call() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("jdk", Runtime.version() + " (" + System.getProperty("java.vm.name") + ")");
        out.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        out.put("cores", Runtime.getRuntime().availableProcessors());
        WordWait.Probe park = WordWait.probe();
        out.put("hardware park", park.available() ? park.wordWait().get().describe() : "none: " + park.note());
        out.put("timer slack", TimerSlack.current().isPresent() ? TimerSlack.current().getAsLong() + " ns (this thread; parkers set 1 ns)"
                : "unknown (" + TimerSlack.why() + ")");
        HostCaps caps = UringHost.hostCaps();
        out.put("custom scheduler", show(caps.carriers()));
        out.put("io_uring", show(caps.ioUring()));
        Map<String, String> kinds = new LinkedHashMap<>();
        for (ExecutorKind k : ExecutorKind.values()) {
            var r = ExecutorKind.resolve(k, Strictness.FALLBACK, caps);
            kinds.put(k.declaredName(), r.label() + r.warning().map(w -> " [" + w.message() + "]").orElse(""));
        }
        out.put("executor kinds", kinds);
        List<BackendReport> backends = BackendProbe.report();
        out.put("backends", backends.stream().map(BackendReport::render).toList());
        if (json.json) {
            System.out.println(Json.write(out));
        } else {
            out.forEach((k, v) -> {
                if (v instanceof Map<?, ?> m) {
                    System.out.println(k + ":");
                    m.forEach((kk, vv) -> System.out.println("  " + kk + ": " + vv));
                } else if (v instanceof List<?> l) {
                    System.out.println(k + ":");
                    l.forEach(e -> System.out.println("  " + String.valueOf(e).replace("\n", "\n  ")));
                } else {
                    System.out.printf("%-17s %s%n", k, v);
                }
            });
        }
        return 0;
    }

    private static String show(Capability c) {
        return c.isPresent() ? "present" : "missing: " + c.missing().get();
    }
}
