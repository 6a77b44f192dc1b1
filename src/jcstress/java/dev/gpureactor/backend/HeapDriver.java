package dev.gpureactor.backend;

import dev.gpureactor.core.ErrorCode;
import dev.gpureactor.core.ReactorException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A {@link LineDriver} in Java for the jcstress tests of {@link MappedPage}: its one "page" lives in
 * an arena that outlives the test, and {@link #freePage} writes {@link #FREED} over the line instead
 * of freeing it, so a read after the free shows as that value instead of as a crash.
 */
@SuppressWarnings("restricted")
final class HeapDriver implements LineDriver {
    /** What a read of the line after its page was freed returns. */
    static final long FREED = 0xDEADL;

    private static final Domain DOMAIN = new Domain(0, 1, "heap domain");

    private final MemorySegment page = Arena.ofAuto().allocate(MappedPage.PAGE_BYTES, MappedPage.PAGE_BYTES);

    @Override public String backend() { return "heap"; }
    @Override public String library() { return "none"; }
    @Override public Domain retainDomain() { return DOMAIN; }
    @Override public void releaseDomain(Domain domain) { }
    @Override public long enter(Domain domain) { return 0; }
    @Override public void exit(Domain domain, long token) { }
    @Override public long allocPage(long bytes) { return page.address(); }
    @Override public long devicePointer(long host) { return host; }

    @Override
    public void freePage(long host) {
        for (int i = 0; i < 8; i++) page.setAtIndex(ValueLayout.JAVA_LONG, i, FREED);
    }

    @Override public void checkStream(Domain domain, long stream) { }
    @Override public boolean implicitStream(long stream) { return false; }
    @Override public void writeValue64(long stream, long deviceAddress, long value) { }
    @Override public int queryStatus(long stream) { return 0; }
    @Override public int notReady() { return 600; }
    @Override public int synchronizeStatus(long stream) { return 0; }
    @Override public String statusName(int status) { return "status " + status; }

    @Override
    public ReactorException failure(String call, int status) {
        return new ReactorException(ErrorCode.Backend, "heap", call, status, statusName(status), "fake");
    }

    @Override public String queryCall() { return "query"; }
    @Override public String synchronizeCall() { return "synchronize"; }
}
