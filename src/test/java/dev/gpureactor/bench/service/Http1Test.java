package dev.gpureactor.bench.service;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The load generator's hand-written HTTP/1.1 parsing: framing by Content-Length, keep-alive, and what it refuses. */
class Http1Test {
    static InputStream in(String text) { return new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1)); }

    /** A stream that hands out one byte per read, as a socket may. */
    static InputStream trickle(String text) {
        return new FilterInputStream(in(text)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException { return super.read(b, off, Math.min(len, 1)); }
        };
    }

    @Test
    void reads_a_response_by_its_content_length_and_keeps_the_connection() throws IOException {
        Http1.Response r = Http1.read(in("HTTP/1.1 200 OK\r\nDate: x\r\nContent-length: 11\r\n\r\n7 123456789"));
        assertEquals(200, r.status());
        assertTrue(r.keepAlive());
        assertEquals("7 123456789", r.text());
    }

    @Test
    void two_responses_back_to_back_on_one_connection_are_framed_apart() throws IOException {
        InputStream s = trickle("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcHTTP/1.1 500 Internal\r\nCONTENT-LENGTH: 2\r\n\r\nde"
                + "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        assertEquals("abc", Http1.read(s).text());
        Http1.Response second = Http1.read(s);
        assertEquals(500, second.status());
        assertEquals("de", second.text());
        assertArrayEquals(new byte[0], Http1.read(s).body());
        assertThrows(Http1.ClosedBeforeResponse.class, () -> Http1.read(s), "the next read finds the connection closed");
    }

    @Test
    void the_connection_header_and_the_version_decide_keep_alive() throws IOException {
        assertFalse(Http1.read(in("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")).keepAlive());
        assertFalse(Http1.read(in("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")).keepAlive());
        assertTrue(Http1.read(in("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n")).keepAlive());
        assertFalse(Http1.read(in("HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")).keepAlive());
    }

    @Test
    void interim_responses_are_skipped_and_bare_line_feeds_accepted() throws IOException {
        Http1.Response r = Http1.read(in("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\nContent-Length: 2\n\nok"));
        assertEquals(201, r.status());
        assertEquals("ok", r.text());
        assertEquals(200, Http1.read(in("HTTP/1.1 200\r\nContent-Length: 1\r\n\r\nx")).status(), "a status line may have no reason");
        assertEquals(204, Http1.read(in("HTTP/1.1 204 No Content\r\n\r\n")).status(), "a 204 has no body and needs no length");
    }

    @Test
    void refuses_what_it_cannot_frame() {
        assertThrows(ProtocolException.class, () -> Http1.read(in("HTTP/1.1 200 OK\r\n\r\nabc")), "no Content-Length");
        assertThrows(ProtocolException.class, () -> Http1.read(in("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")));
        assertThrows(ProtocolException.class, () -> Http1.read(in("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd")));
        assertThrows(ProtocolException.class, () -> Http1.read(in("HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n")));
        assertThrows(ProtocolException.class, () -> Http1.read(in("HTTP/1.1 200 OK\r\nContent-Length: 3x\r\n\r\nabc")));
        assertThrows(ProtocolException.class, () -> Http1.read(in("HTTP/1.1 200 OK\r\nContent-Length 3\r\n\r\nabc")), "a header with no colon");
        assertThrows(ProtocolException.class, () -> Http1.read(in("HTTP/2 200 OK\r\nContent-Length: 0\r\n\r\n")));
        assertThrows(ProtocolException.class, () -> Http1.read(in("HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n")));
        assertThrows(ProtocolException.class, () -> Http1.read(in("HTTP/1.1 200 OK\r\nX: " + "a".repeat(Http1.MAX_HEAD) + "\r\n\r\n")));
        assertThrows(ProtocolException.class, () -> Http1.read(in("HTTP/1.1 200 OK\r\nContent-Length: " + (Http1.MAX_BODY + 1) + "\r\n\r\n")));
    }

    @Test
    void a_connection_closed_early_is_told_apart_from_one_closed_mid_response() {
        assertThrows(Http1.ClosedBeforeResponse.class, () -> Http1.read(in("")));
        EOFException head = assertThrows(EOFException.class, () -> Http1.read(in("HTTP/1.1 200 OK\r\nContent-Le")));
        assertFalse(head instanceof Http1.ClosedBeforeResponse, "bytes of a response were read: not safe to send again");
        EOFException body = assertThrows(EOFException.class, () -> Http1.read(trickle("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab")));
        assertFalse(body instanceof Http1.ClosedBeforeResponse);
    }

    @Test
    void a_get_is_one_well_formed_request() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Http1.writeGet(out, "127.0.0.1", "/work?id=42");
        assertEquals("GET /work?id=42 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", out.toString(StandardCharsets.US_ASCII));
    }
}
