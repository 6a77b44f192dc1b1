package dev.gpureactor.bench.service;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The load generator's HTTP/1.1 client, by hand on a plain socket's streams: one {@code GET} at a
 * time on a keep-alive connection, and a response read by its {@code Content-Length}.
 *
 * <p>What it accepts: a status line {@code HTTP/1.x NNN reason}, header lines up to a blank line
 * (CRLF, or a bare LF), header names in any case, one {@code Content-Length} (repeats must agree);
 * {@code 1xx} interim responses are skipped. What it refuses, with a {@link ProtocolException}: no
 * {@code Content-Length}, a {@code Transfer-Encoding} (the server under test answers with a fixed
 * length), a malformed line, a header block over {@value #MAX_HEAD} bytes, a body over
 * {@value #MAX_BODY} bytes. The connection stays open unless the response says
 * {@code Connection: close}, or is HTTP/1.0 without {@code Connection: keep-alive}.
 */
public final class Http1 {
    static final int MAX_HEAD = 8192;
    static final int MAX_BODY = 1 << 20;

    private Http1() {}

    /** A response: its status, whether the connection may carry the next request, and its body. */
    public record Response(int status, boolean keepAlive, byte[] body) {
        public String text() { return new String(body, StandardCharsets.US_ASCII); }
    }

    /** The server closed the connection before the first byte of a response: the request may be sent again elsewhere. */
    public static final class ClosedBeforeResponse extends EOFException {
        ClosedBeforeResponse() { super("connection closed before the response"); }
    }

    /** Writes {@code GET target} with a {@code Host} header in one write (the request is small). */
    public static void writeGet(OutputStream out, String host, String target) throws IOException {
        out.write(("GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Reads one final response from {@code in} (buffered by the caller), skipping interim 1xx ones. */
    public static Response read(InputStream in) throws IOException {
        boolean first = true;
        while (true) {
            Response r = readOne(in, first);
            first = false;
            if (r.status() >= 200) return r;
        }
    }

    private static Response readOne(InputStream in, boolean first) throws IOException {
        int[] budget = {MAX_HEAD};
        String status = line(in, budget, first);
        if (!status.startsWith("HTTP/1.") || status.length() < 12 || status.charAt(8) != ' '
                || (status.length() > 12 && status.charAt(12) != ' ')) {
            throw new ProtocolException("bad status line: " + status);
        }
        boolean http10 = status.charAt(7) == '0';
        int code;
        try {
            code = Integer.parseInt(status.substring(9, 12));
        } catch (NumberFormatException e) {
            throw new ProtocolException("bad status code: " + status);
        }
        if (code < 100 || code > 999) throw new ProtocolException("bad status code: " + status);
        long length = -1;
        Boolean connection = null; // from a Connection header: true keep-alive, false close
        String h;
        while (!(h = line(in, budget, false)).isEmpty()) {
            int colon = h.indexOf(':');
            if (colon <= 0) throw new ProtocolException("bad header line: " + h);
            String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = h.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> {
                    long v = contentLength(value);
                    if (length >= 0 && v != length) throw new ProtocolException("conflicting Content-Length: " + length + ", " + v);
                    length = v;
                }
                case "transfer-encoding" -> throw new ProtocolException("Transfer-Encoding is not supported: " + value);
                case "connection" -> {
                    String v = value.toLowerCase(Locale.ROOT);
                    if (v.contains("close")) connection = false;
                    else if (v.contains("keep-alive") && connection == null) connection = true;
                }
                default -> {}
            }
        }
        boolean keepAlive = connection != null ? connection : !http10;
        if (code < 200 || code == 204 || code == 304) {
            if (length > 0 && code >= 200) throw new ProtocolException(code + " with a body of " + length);
            return new Response(code, keepAlive, new byte[0]);
        }
        if (length < 0) throw new ProtocolException("no Content-Length (status " + code + ")");
        if (length > MAX_BODY) throw new ProtocolException("body of " + length + " bytes is over " + MAX_BODY);
        byte[] body = in.readNBytes((int) length);
        if (body.length != length) throw new EOFException("body cut at " + body.length + " of " + length + " bytes");
        return new Response(code, keepAlive, body);
    }

    private static long contentLength(String value) throws ProtocolException {
        if (value.isEmpty() || value.length() > 18) throw new ProtocolException("bad Content-Length: " + value);
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) < '0' || value.charAt(i) > '9') throw new ProtocolException("bad Content-Length: " + value);
        }
        return Long.parseLong(value);
    }

    /** One line without its CRLF (or LF); {@code first}: EOF before any byte is {@link ClosedBeforeResponse}. */
    private static String line(InputStream in, int[] budget, boolean first) throws IOException {
        StringBuilder b = new StringBuilder(64);
        while (true) {
            int c = in.read();
            if (c < 0) {
                if (first && b.isEmpty()) throw new ClosedBeforeResponse();
                throw new EOFException("connection closed inside the response head");
            }
            if (--budget[0] < 0) throw new ProtocolException("response head over " + MAX_HEAD + " bytes");
            if (c == '\n') {
                int n = b.length();
                if (n > 0 && b.charAt(n - 1) == '\r') b.setLength(n - 1);
                return b.toString();
            }
            b.append((char) c);
            first = false;
        }
    }
}
