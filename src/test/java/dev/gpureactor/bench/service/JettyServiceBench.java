package dev.gpureactor.bench.service;

import dev.gpureactor.bench.WakeBench;
import dev.gpureactor.json.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The service benchmark on Jetty 12 ({@link JettyFront}): {@code gar service}'s engine, cells, clients
 * and report, with Jetty as the server. A main on the test class path, because Jetty is a test-scope
 * dependency (the library and {@code gar.jar} stay without it); {@code scripts/jetty-bench.sh} builds
 * the class path and runs it. Options (each {@code --name value}): {@code --modes} (default
 * {@code reactor,watcher}), {@code --clients} (16,64,256), {@code --rounds} (2), {@code --prewarm} (2s),
 * {@code --warmup} (2s), {@code --window} (5s), {@code --max-requests} (1000000), {@code --load-carriers}
 * (the cores), {@code --fates} (true: 1 request in 40 timed out, cancelled or interrupted), {@code --profile}
 * (0: none; else the seconds of a warm-up profile per mode from a fresh server, whose per-second wake p50 and
 * served rate say when it is steady), {@code --profile-clients} (512), {@code --json} (a file for the JSON
 * report). The table goes to standard output.
 */
public final class JettyServiceBench {
    private JettyServiceBench() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new TreeMap<>(Map.of("--modes", "reactor,watcher", "--clients", "16,64,256", "--rounds", "2",
                "--prewarm", "2s", "--warmup", "2s", "--window", "5s", "--max-requests", "1000000",
                "--load-carriers", String.valueOf(Runtime.getRuntime().availableProcessors()), "--fates", "true"));
        o.put("--profile", "0");
        o.put("--profile-clients", "512");
        String json = null;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) throw new IllegalArgumentException(args[i] + " takes a value");
            if (args[i].equals("--json")) json = args[i + 1];
            else if (o.containsKey(args[i])) o.put(args[i], args[i + 1]);
            else throw new IllegalArgumentException("unknown option " + args[i] + " (known: " + o.keySet() + ", --json)");
        }
        List<Integer> clients = new ArrayList<>();
        for (String c : o.get("--clients").split(",")) clients.add(Integer.parseInt(c.trim()));
        ServiceBench.Settings s = new ServiceBench.Settings(Mode.parseList(o.get("--modes")), clients, Integer.parseInt(o.get("--rounds")),
                Durations.parse(o.get("--prewarm"), "--prewarm"), Durations.parse(o.get("--warmup"), "--warmup"),
                Durations.parse(o.get("--window"), "--window"), Integer.parseInt(o.get("--max-requests")),
                Integer.parseInt(o.get("--load-carriers")), Integer.parseInt(o.get("--profile")), Integer.parseInt(o.get("--profile-clients")),
                Boolean.parseBoolean(o.get("--fates")), Mode.BuilderHook.NONE);
        System.err.printf("jetty service bench: about %.0f s plus set-up%n", s.estimatedSeconds());
        ServiceRun run = ServiceBench.run(s, (index, total, line, done) -> {
            if (done) System.err.println("[" + index + "/" + total + "] " + line);
        }, new ServiceBench.Host(WakeBench.machine(), WakeBench.jdk(), WakeBench::loadAverage), new JettyFront());
        System.out.print(run.table());
        if (json != null) Files.writeString(Path.of(json), Json.write(run.json()));
        System.exit(run.correct() ? 0 : 1);
    }
}
