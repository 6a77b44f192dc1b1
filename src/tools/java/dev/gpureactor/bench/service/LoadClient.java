package dev.gpureactor.bench.service;

import org.HdrHistogram.Recorder;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;

/**
 * One closed-loop client: one keep-alive connection, one request at a time, the next as soon as the
 * last is answered, until the cell stops it or its ids run out. It checks each answer (status 200,
 * its own id, the payload derived from the id; for a request with a {@link Fate}, the fate's word or,
 * when the store came first, the payload) and records the request's latency.
 */
final class LoadClient implements Runnable {
    static final String PATH = "/work";
    private static final int IO_TIMEOUT_MILLIS = 30_000;

    private final InetSocketAddress server;
    private final Ledger ledger;
    private final boolean fates;
    private final Recorder latency;
    private final CountDownLatch connected;
    private final CountDownLatch go;
    private final BooleanSupplier running;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    LoadClient(InetSocketAddress server, Ledger ledger, boolean fates, Recorder latency, CountDownLatch connected, CountDownLatch go,
               BooleanSupplier running) {
        this.server = server;
        this.ledger = ledger;
        this.fates = fates;
        this.latency = latency;
        this.connected = connected;
        this.go = go;
        this.running = running;
    }

    @Override
    public void run() {
        try {
            connect();
        } catch (IOException e) {
            ledger.failed.increment();
        } finally {
            connected.countDown();
        }
        try {
            go.await();
            long id;
            while (running.getAsBoolean() && (id = ledger.next()) >= 0) request(id);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            disconnect();
        }
    }

    /** One request: sent again once on a fresh connection if the server closed the old one before answering. */
    private void request(long id) {
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                if (socket == null) {
                    connect();
                    ledger.reconnects.increment();
                }
                long t0 = System.nanoTime();
                Http1.writeGet(out, "127.0.0.1", PATH + "?id=" + id);
                Http1.Response r = Http1.read(in);
                latency.recordValue(System.nanoTime() - t0);
                check(id, r);
                if (!r.keepAlive()) disconnect();
                return;
            } catch (Http1.ClosedBeforeResponse e) {
                disconnect(); // an idle connection the server closed: try once more on a new one
            } catch (IOException e) {
                disconnect();
                break;
            }
        }
        ledger.failed.increment();
    }

    private void check(long id, Http1.Response r) {
        if (r.status() != 200) {
            ledger.failed.increment();
            return;
        }
        if (right(id, Fate.of(id, fates), r.text())) {
            ledger.received(id);
            ledger.answered.increment();
        } else {
            ledger.wrong.increment();
        }
    }

    /** Whether {@code body} is request {@code id}'s answer: {@code "id payload"}, or {@code "id word"} for its fate's word. */
    static boolean right(long id, Fate fate, String body) {
        String[] parts = body.trim().split(" ");
        if (parts.length != 2 || !parts[0].equals(Long.toString(id))) return false;
        if (fate != Fate.NONE && parts[1].equals(fate.answer)) return true;
        return parts[1].equals(Long.toString(Job.expected(id)));
    }

    private void connect() throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.setSoTimeout(IO_TIMEOUT_MILLIS);
            s.connect(server, IO_TIMEOUT_MILLIS);
            in = new BufferedInputStream(s.getInputStream(), 1024);
            out = new BufferedOutputStream(s.getOutputStream(), 256);
            socket = s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    private void disconnect() {
        if (socket == null) return;
        try {
            socket.close();
        } catch (IOException e) {
            // closing: nothing to do
        }
        socket = null;
    }
}
