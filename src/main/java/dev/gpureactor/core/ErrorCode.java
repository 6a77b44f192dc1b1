package dev.gpureactor.core;

import java.util.List;

/**
 * The one append-only registry of coded errors and warnings.
 *
 * <p>The code is the identity: its {@link #number()} never changes and is never reused, and callers
 * branch on the code, never on the text. The {@link #form()} may be reworded between releases; each
 * {@code {}} in it takes one argument, in order. Codes 1–8 keep the numbers and meanings of the Rust
 * crate gpu-async-reactor 0.1.1; the rest are what a Java library needs. New codes go at the end.
 */
public enum ErrorCode {
    /** A wait-plan or band text that does not parse: (subject, text, fault). */
    InvalidPlan(1, Kind.ERROR, "invalid {}: \"{}\": {}"),
    /** A park the host cannot run, and the declared fallback that runs: (requested, missing capability, why, runs). */
    ParkFallback(2, Kind.WARNING, "park {} needs {}, which is missing ({}); running {}"),
    /** An executor or scheduler the host cannot run, and its fallback: (requested, why, runs). */
    ExecutorFallback(3, Kind.WARNING, "{} cannot run ({}); running {}"),
    /** A requested executor that cannot run while the setting is strict: (requested, why). */
    ExecutorRefused(4, Kind.ERROR, "{} cannot run ({}) and the setting is strict, so nothing runs in its place"),
    /** An executor name that is not a declared kind: (text, accepted). */
    InvalidExecutor(5, Kind.ERROR, "unknown executor \"{}\"; accepted: {}"),
    /** A wait that had to finish on its first step did not: (site). */
    PendedInline(6, Kind.ERROR, "{} pended on a host that must finish every wait inline"),
    /** Unfinished work with nothing that could ever wake it: (tasks left). */
    Stalled(7, Kind.ERROR, "stalled: {} task(s) left and no line or timer to wait on"),
    /** A backend (driver) call failed: (backend, call, status, name, description). */
    Backend(8, Kind.ERROR, "{} {} failed with status {} ({}): {}"),
    /** A slot index outside 0..7: (index). */
    SlotOutOfRange(9, Kind.ERROR, "slot {} is out of range; a line has slots 0..7"),
    /** An operation on a line that was closed: (line, operation). */
    LineClosed(10, Kind.ERROR, "line {} is closed; cannot {}"),
    /** A wait that ran past its time limit: (what, limit). */
    Timeout(11, Kind.ERROR, "{} timed out after {}"),
    /** A wait that was cancelled: (what). */
    Cancelled(12, Kind.ERROR, "{} was cancelled"),
    /** A native library that cannot be loaded or lacks a symbol: (library, why). */
    NativeUnavailable(13, Kind.ERROR, "native library {} is unavailable: {}"),
    /** A segment that cannot hold a completion line: (size, address alignment). */
    BadLineSegment(14, Kind.ERROR, "a completion line needs 64 bytes aligned to 64; got {} bytes at an address aligned to {}"),
    /** A wait interrupted through Thread.interrupt(): (what). */
    Interrupted(15, Kind.ERROR, "{} was interrupted"),
    /** A wait that a parker, line, reactor or watcher ended as it shut down: (what). New work refused is {@link #Rejected}. */
    ShutDown(16, Kind.ERROR, "{} shut down before the wait completed"),
    /** A parker thread that died: (line, cause). */
    ParkerDied(17, Kind.ERROR, "the parker of line {} died: {}"),
    /** A stream from another context or device than the line's: (stream, line domain). */
    ForeignStream(18, Kind.ERROR, "stream {} is not of the line's domain ({})"),
    /** A line whose memory something may still touch (a pending device store, a native park), leaked instead of freed: (line, why). */
    LineLeaked(19, Kind.WARNING, "line {} was leaked instead of freed, since something may still touch it: {}"),
    /** The port said done but the word never reached its target: (descriptor). */
    WordNeverWritten(20, Kind.WARNING, "{}: the port reported done but the word never reached its target"),
    /** A directory the native library would be loaded from that others can write: (path, why). */
    NativeDirUnsafe(21, Kind.ERROR, "refusing to load native code from {}: {}"),
    /** An argument outside its allowed range: (name, value, allowed). */
    InvalidArgument(22, Kind.ERROR, "{} = {} is invalid; expected {}"),
    /** The device does not support stream memory operations: (backend, device, attribute). */
    NoStreamMemOps(23, Kind.WARNING, "{} device {} lacks stream memory operations ({}); waits use the query plan"),
    /** A close that returned after its grace while virtual threads still ran on the carriers: (what, count, threads). */
    LiveAtClose(24, Kind.WARNING, "{} closed with {} virtual thread(s) still running ({}); its carriers stay until the last one ends"),
    /** New work refused by something closed or shut down (no wait was involved): (what refused, what it refused). */
    Rejected(25, Kind.ERROR, "{} is shut down: it accepts no new {}"),
    /** The platform MBean server refused the reactor's bean (a security policy, a custom server): (object name, why). */
    BeanUnavailable(26, Kind.WARNING, "the JMX bean {} cannot be registered ({}); the reactor runs without it"),
    /**
     * A port whose {@code query()} blocks: (the port's class, how long its last query took, the line, the slow queries in
     * a row, who asked). Every wait the asking thread watches waited as long.
     */
    SlowPort(27, Kind.WARNING, "the port {} answered query() after {} on line {}, {} times in a row; a query must answer "
            + "at once, since every wait its {} watches waits behind it: return the stream's status without waiting for "
            + "the work (cuStreamQuery, not cuStreamSynchronize), and leave blocking waits to the block plan");

    /** Whether a code is raised as an error or handed back as a {@link Warning}. */
    public enum Kind {
        /** Raised as a {@link ReactorException}. */
        ERROR,
        /** Handed back as a {@link Warning}; the library goes on. */
        WARNING
    }

    private final int number;
    private final Kind kind;
    private final String form;
    /**
     * {@code GAR-0001}, made once without {@code java.util.Formatter}: a formatted number follows the
     * default locale (other digits elsewhere) and loads its resource bundles under a monitor, on
     * whatever thread first renders an error (for example a carrier running a callback).
     */
    private final String tag;

    ErrorCode(int number, Kind kind, String form) {
        this.number = number;
        this.kind = kind;
        this.form = form;
        String digits = Integer.toString(number);
        this.tag = "GAR-" + "0".repeat(Math.max(0, 4 - digits.length())) + digits;
    }

    /** {@return the stable number: never changed, never reused} */
    public int number() { return number; }

    /**
     * Whether this code is raised or warned.
     *
     * @return the kind
     */
    public Kind kind() { return kind; }

    /** {@return the message template; each {@code {}} takes one argument in order} */
    public String form() { return form; }

    /**
     * {@code GAR-0001}: the form printed before every message.
     *
     * @return "GAR-" and the number in four digits
     */
    public String tag() { return tag; }

    /**
     * Renders the form with its arguments; missing arguments print as {@code ?}, extra ones are appended.
     *
     * @param args the arguments
     * @return the message
     */
    public String render(List<String> args) {
        StringBuilder out = new StringBuilder(tag()).append(' ').append(name()).append(": ");
        int next = 0;
        for (int i = 0; i < form.length(); i++) {
            if (form.charAt(i) == '{' && i + 1 < form.length() && form.charAt(i + 1) == '}') {
                if (next < args.size()) appendCut(out, args.get(next)); else out.append('?');
                next++;
                i++;
            } else {
                out.append(form.charAt(i));
            }
        }
        for (; next < args.size(); next++) appendCut(out.append(" ["), args.get(next)).append(']');
        return out.toString();
    }

    /** Most characters of one argument in a message; the rest is cut and counted (the argument itself is kept whole). */
    public static final int ARG_MAX = 1_000;

    /**
     * Appends {@code arg}, cut after {@link #ARG_MAX} characters (never inside a surrogate pair) with its
     * length: a stream failed with a megabyte of text must not make every exception and log line as long.
     */
    private static StringBuilder appendCut(StringBuilder out, String arg) {
        if (arg == null || arg.length() <= ARG_MAX) return out.append(arg);
        int end = Character.isHighSurrogate(arg.charAt(ARG_MAX - 1)) ? ARG_MAX - 1 : ARG_MAX;
        return out.append(arg, 0, end).append("… (").append(arg.length()).append(" chars)");
    }

    /** {@return the number of {@code {}} placeholders, which is the number of arguments the code takes} */
    public int arity() {
        int n = 0;
        for (int i = form.indexOf("{}"); i >= 0; i = form.indexOf("{}", i + 2)) n++;
        return n;
    }

    /**
     * {@return the code with this stable number}
     *
     * @param number the number
     */
    public static ErrorCode ofNumber(int number) {
        for (ErrorCode c : values()) if (c.number == number) return c;
        throw new ReactorException(InvalidArgument, "error number", Integer.toString(number), "1.." + values().length);
    }
}
