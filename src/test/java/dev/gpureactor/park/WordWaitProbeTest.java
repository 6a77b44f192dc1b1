package dev.gpureactor.park;

import dev.gpureactor.loader.NativeLoader;
import dev.gpureactor.core.ErrorCode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The probe against what the kernel says about this CPU, and the coded warnings of a library that cannot load. */
class WordWaitProbeTest {

    /** The words of the "flags" (x86) or "Features" (arm64) lines of /proc/cpuinfo. */
    static Set<String> cpuFlags() throws IOException {
        Set<String> flags = new HashSet<>();
        for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
            if (line.startsWith("flags") || line.startsWith("Features")) {
                flags.addAll(Arrays.asList(line.substring(line.indexOf(':') + 1).trim().split("\\s+")));
            }
        }
        return flags;
    }

    @Test
    void probeAgreesWithProcCpuinfo() throws IOException {
        WordWait.Probe probe = WordWait.probe();
        Set<String> flags = cpuFlags();
        String platform = NativeLoader.platform();
        // The build ships the library for this platform, so it must load: a load failure is a bug here.
        assertTrue(probe.warnings().isEmpty(), () -> "warnings: " + probe.warnings());
        switch (platform) {
            case "linux-x86_64" -> {
                boolean waitpkg = flags.contains("waitpkg");
                boolean mwaitx = flags.contains("mwaitx") || flags.contains("monitorx");
                assertEquals(waitpkg || mwaitx, probe.available(), () -> probe + " vs cpuinfo waitpkg=" + waitpkg + " mwaitx=" + mwaitx);
                if (waitpkg) assertEquals(WordWait.Flavour.UMWAIT, probe.wordWait().orElseThrow().flavour());
                else if (mwaitx) assertEquals(WordWait.Flavour.MWAITX, probe.wordWait().orElseThrow().flavour());
                else assertTrue(probe.why().orElseThrow().startsWith("CPU lacks waitpkg and monitorx"), probe.note());
                assertTrue(probe.rateHz() > 0, "the TSC rate was found: " + probe);
            }
            case "linux-aarch64" -> {
                boolean wfxt = flags.contains("wfxt");
                boolean evtstrm = flags.contains("evtstrm");
                assertEquals(wfxt || evtstrm, probe.available(), () -> probe + " vs cpuinfo wfxt=" + wfxt + " evtstrm=" + evtstrm);
                if (wfxt) assertEquals(WordWait.Flavour.WFET, probe.wordWait().orElseThrow().flavour());
                else if (evtstrm) assertEquals(WordWait.Flavour.WFE, probe.wordWait().orElseThrow().flavour());
            }
            default -> assertFalse(probe.available(), probe.note());
        }
        assertEquals(probe.available(), probe.capability().isPresent());
        assertEquals(probe.why().isPresent(), !probe.available());
    }

    @Test
    void probeRunsOnceAndIsKept() {
        assertSame(WordWait.probe(), WordWait.probe());
        WordWait.Probe p = WordWait.probe();
        LinePark park = p.orElse(FallbackPark.DEFAULT);
        if (p.available()) assertSame(p.wordWait().orElseThrow(), park);
        else assertSame(FallbackPark.DEFAULT, park);
    }

    @Test
    void anUnsafeDirectoryIsACodedWarningNotAnError(@TempDir Path tmp) throws IOException {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        WordWait.Probe p = WordWait.probe(new NativeLoader(open));
        assertFalse(p.available());
        assertTrue(p.why().orElseThrow().startsWith("native library not loadable: "), p.note());
        assertEquals(1, p.warnings().size());
        assertEquals(ErrorCode.NativeDirUnsafe, p.warnings().get(0).code());
        assertSame(FallbackPark.DEFAULT, p.orElse(FallbackPark.DEFAULT));
    }

    /** {@code note} with the calibrated TSC frequency ("TSC 2.445 GHz") blanked. */
    static String withoutTscFrequency(String note) {
        return note.replaceAll("TSC [0-9.]+ GHz", "TSC ? GHz");
    }

    @Test
    void aFreshProbeThroughAPrivateDirectoryAgreesWithTheKeptOne(@TempDir Path tmp) {
        WordWait.Probe fresh = WordWait.probe(new NativeLoader(tmp.resolve("cache")));
        WordWait.Probe kept = WordWait.probe();
        assertEquals(kept.available(), fresh.available());
        // The note names the TSC's frequency as each probe calibrated it: a measurement, which a loaded machine moves
        // by a megahertz between two probes (2.445 against 2.446 GHz in a CI run). Everything else must agree.
        assertEquals(withoutTscFrequency(kept.note()), withoutTscFrequency(fresh.note()));
        assertTrue(fresh.warnings().isEmpty(), () -> fresh.warnings().toString());
    }
}
