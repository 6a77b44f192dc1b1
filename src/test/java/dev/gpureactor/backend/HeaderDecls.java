package dev.gpureactor.backend;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The {@code GAR_API} declarations of a stand-in header, and their C types as ABI shapes ({@code
 * i32}, {@code i64}, {@code i8}, {@code ptr}, {@code void}), to compare with a Java
 * {@link FunctionDescriptor}.
 */
public final class HeaderDecls {
    /** One declaration: {@code shape} is "ret(arg,arg)"; {@code guarded}: inside an #ifndef block. */
    public record Decl(String name, String shape, String text, boolean guarded) {}

    private static final Pattern DECL = Pattern.compile("^GAR_API\\s+(.+?)\\b([A-Za-z_][A-Za-z0-9_]*)\\s*\\((.*)\\)\\s*;\\s*$");
    private static final Pattern PARAM = Pattern.compile("^(.*?)\\b([A-Za-z_][A-Za-z0-9_]*)$");

    private HeaderDecls() {}

    public static List<Decl> parse(Path header) throws IOException {
        List<Decl> out = new ArrayList<>();
        int depth = 0;
        for (String raw : Files.readAllLines(header)) {
            String line = raw.strip();
            if (line.startsWith("#if")) depth++;
            if (line.startsWith("#endif")) depth--;
            if (!line.startsWith("GAR_API")) continue;
            Matcher m = DECL.matcher(line);
            if (!m.matches()) throw new IllegalStateException("cannot parse: " + line);
            String ret = cType(m.group(1));
            List<String> params = new ArrayList<>();
            String args = m.group(3).strip();
            if (!args.equals("void") && !args.isEmpty()) {
                for (String p : args.split(",")) {
                    Matcher pm = PARAM.matcher(p.strip());
                    if (!pm.matches()) throw new IllegalStateException("cannot parse parameter " + p + " of " + line);
                    params.add(cType(pm.group(1)));
                }
            }
            // depth 1 is the include guard
            out.add(new Decl(m.group(2), ret + "(" + String.join(",", params) + ")", line, depth > 1));
        }
        return out;
    }

    /** The ABI shape of a C type as the stand-in headers spell them. */
    static String cType(String type) {
        String t = type.replace("const", " ").replaceAll("\\s+", " ").strip();
        if (t.contains("*")) return "ptr";
        return switch (t) {
            case "void" -> "void";
            case "CUresult", "int", "CUdevice", "CUdevice_attribute", "unsigned int", "hipError_t", "hipDevice_t" -> "i32";
            case "CUdeviceptr", "cuuint64_t", "unsigned long long", "long long", "uint64_t", "size_t" -> "i64";
            case "unsigned char" -> "i8";
            case "CUstream", "CUcontext", "CUhostFn", "CUmodule", "CUfunction", "hipStream_t", "hipCtx_t", "hipDeviceptr_t", "hipHostFn_t" -> "ptr";
            default -> throw new IllegalStateException("unknown C type: " + type);
        };
    }

    /** The same shape of a Java descriptor. */
    public static String shape(FunctionDescriptor fd) {
        String ret = fd.returnLayout().map(HeaderDecls::layout).orElse("void");
        return ret + "(" + fd.argumentLayouts().stream().map(HeaderDecls::layout).collect(Collectors.joining(",")) + ")";
    }

    private static String layout(MemoryLayout l) {
        if (!(l instanceof ValueLayout v)) throw new IllegalStateException("not a value layout: " + l);
        Class<?> c = v.carrier();
        if (c == int.class) return "i32";
        if (c == long.class) return "i64";
        if (c == byte.class) return "i8";
        if (c == MemorySegment.class) return "ptr";
        throw new IllegalStateException("unexpected carrier " + c);
    }
}
