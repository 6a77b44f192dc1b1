package dev.gpureactor.backend;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;
import dev.gpureactor.core.Slot;
import dev.gpureactor.core.Warning;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one {@link MappedLine} over a vendor written in Java (no native library): what the line adds to
 * its {@link MappedPage} for every vendor, the store support and the port, seen without a driver.
 */
class MappedLineTest {
    record FakeStream(long handle) implements DriverStream {}

    static final class FakePort extends DriverPort<FakeStream> {
        FakePort(MappedLine<FakeStream, FakePort> line, FakeStream stream, Slot slot, long target, WordPark park) {
            super(line, stream, slot, target, park);
        }
    }

    /** A vendor whose page is Java memory; it counts the domain's retains and releases, the frees and the stores. */
    static final class FakeVendor implements LineVendor<FakeStream, FakePort>, LineDriver {
        final Arena arena = Arena.ofAuto();
        final AtomicInteger domainRefs = new AtomicInteger();
        final AtomicInteger frees = new AtomicInteger();
        final AtomicInteger stores = new AtomicInteger();
        StoreSupport support = new StoreSupport(true, "fake stores");
        RuntimeException supportFailure;

        @Override public LineDriver lineDriver() { return this; }

        @Override
        public StoreSupport storeSupport(int device) {
            if (supportFailure != null) throw supportFailure;
            return support;
        }

        @Override
        public FakePort port(MappedLine<FakeStream, FakePort> line, FakeStream stream, Slot slot, long target, WordPark park) {
            return new FakePort(line, stream, slot, target, park);
        }

        @Override public String backend() { return "fake"; }
        @Override public String library() { return "none"; }

        @Override
        public Domain retainDomain() {
            domainRefs.incrementAndGet();
            return new Domain(3, 0x30, "fake domain");
        }

        @Override public void releaseDomain(Domain domain) { domainRefs.decrementAndGet(); }
        @Override public long enter(Domain domain) { return 0; }
        @Override public void exit(Domain domain, long token) {}
        @Override public long allocPage(long bytes) { return arena.allocate(bytes, bytes).address(); }
        @Override public long devicePointer(long host) { return host + 1; }
        @Override public void freePage(long host) { frees.incrementAndGet(); }
        @Override public void checkStream(Domain domain, long stream) {}
        @Override public boolean implicitStream(long stream) { return false; }
        @Override public void writeValue64(long stream, long deviceAddress, long value) { stores.incrementAndGet(); }
        @Override public int queryStatus(long stream) { return 0; }
        @Override public int notReady() { return 600; }
        @Override public int synchronizeStatus(long stream) { return 0; }
        @Override public String statusName(int status) { return "status " + status; }

        @Override
        public ReactorException failure(String call, int status) {
            return new ReactorException(ErrorCode.Backend, "fake", call, status, statusName(status), "fake");
        }

        @Override public String queryCall() { return "fakeQuery"; }
        @Override public String synchronizeCall() { return "fakeSynchronize"; }
    }

    @Test
    void aLineStoresThroughItsVendorAndItsPortsAreTheVendors() throws Exception {
        FakeVendor vendor = new FakeVendor();
        try (MappedLine<FakeStream, FakePort> line = MappedLine.create(vendor)) {
            assertTrue(line.line().name().startsWith("fake-line-"), line.line().name());
            assertEquals(3, line.device());
            assertEquals(0x30, line.context());
            assertSame(vendor.support, line.stores());
            assertTrue(line.warnings().isEmpty(), line.warnings().toString());
            FakePort port = line.port(new FakeStream(0x77), Slot.of(2), 5);
            assertTrue(port.storesIntoLine());
            assertEquals(new FakeStream(0x77), port.stream());
            port.arm();
            assertEquals(1, vendor.stores.get(), "arm queued the store through the vendor's table");
            assertTrue(line.page().streams().contains(0x77L), "the stream is tracked for close to settle");
        }
        assertEquals(1, vendor.frees.get());
        assertEquals(0, vendor.domainRefs.get(), "close released the domain");
    }

    @Test
    void aDeviceWithoutStoresWarnsRefusesStoresAndItsPortsQuery() throws Exception {
        FakeVendor vendor = new FakeVendor();
        vendor.support = new StoreSupport(false, "attribute says no");
        List<Warning> sink = new ArrayList<>();
        try (var line = MappedLine.create(vendor, LineOptions.defaults().withWarnings(sink::add))) {
            assertEquals(1, sink.size(), sink.toString());
            Warning w = sink.getFirst();
            assertEquals(ErrorCode.NoStreamMemOps, w.code());
            assertTrue(w.message().contains("fake") && w.message().contains("attribute says no"), w.message());
            ReactorException refused = assertThrows(ReactorException.class,
                    () -> line.enqueueStore(new FakeStream(0x77), Slot.of(0), 1));
            assertEquals(ErrorCode.NoStreamMemOps, refused.code());
            FakePort port = line.port(new FakeStream(0x77), Slot.of(0), 1);
            assertFalse(port.storesIntoLine());
            port.arm();
            assertEquals(0, vendor.stores.get(), "a query-mode port queues no store");
            assertTrue(port.query(), "the stream's status answers instead");
        }
        assertEquals(0, vendor.domainRefs.get());
    }

    @Test
    void aFailingStoreSupportGivesBackThePageAndTheDomain() {
        FakeVendor vendor = new FakeVendor();
        vendor.supportFailure = new ReactorException(ErrorCode.Backend, "fake", "attribute", 1, "status 1", "fake");
        ReactorException e = assertThrows(ReactorException.class, () -> MappedLine.create(vendor));
        assertSame(vendor.supportFailure, e);
        assertEquals(1, vendor.frees.get(), "the page nothing was stored into is freed");
        assertEquals(0, vendor.domainRefs.get(), "and the domain released");
    }
}
