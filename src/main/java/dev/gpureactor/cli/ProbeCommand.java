package dev.gpureactor.cli;

import dev.gpureactor.backend.BackendProbe;
import dev.gpureactor.core.ExecutorKind;
import dev.gpureactor.core.HostCaps;
import dev.gpureactor.core.Strictness;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** What this host can do, and why not where it cannot. */
@Command(name = "probe", mixinStandardHelpOptions = true, description = "Print what this host can do, and why not where it cannot.")
final class ProbeCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        Runtime rt = Runtime.getRuntime();
        System.out.printf("jdk         %s (%s)%n", Runtime.version(), System.getProperty("java.vm.name"));
        System.out.printf("cores       %d%n", rt.availableProcessors());
        HostCaps caps = Hosts.caps();
        System.out.printf("parkers     %s%n", caps.parkers());
        System.out.printf("carriers    %s%n", caps.carriers());
        System.out.printf("word wait   %s%n", caps.wordWait());
        System.out.printf("io_uring    %s%n", caps.ioUring());
        for (ExecutorKind k : ExecutorKind.values()) {
            var r = ExecutorKind.resolve(k, Strictness.FALLBACK, caps);
            System.out.printf("kind %-12s -> %s%s%n", k.declaredName(), r.label(), r.warning().map(w -> "  [" + w.message() + "]").orElse(""));
        }
        for (BackendProbe.BackendReport b : BackendProbe.report()) System.out.println(b.render());
        return 0;
    }
}
