package dev.gpureactor.backend;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * Negative control for {@link MappedPageCloseStress}, never run in CI: the host view has global scope
 * (one line of the fix removed, through the package-private {@code scopedView} switch), so a reader
 * that passed the closed flag reads the freed page. Expect BUILD FAILURE with a count of 57005.
 *
 * <p>It runs {@link MappedPageCloseCase} and takes {@link MappedPageCloseStress}'s outcomes ({@link JCStressMeta}).
 */
@JCStressTest
@JCStressMeta(MappedPageCloseStress.class)
@Description("Negative control: the host view has global scope, so a read races the free.")
@State
public class MappedPageCloseNegativeControl {
    final MappedPageCloseCase c = new MappedPageCloseCase(false); // the control: the host view has global scope

    @Actor public void reader(JJ_Result r) { c.reader(r); }
    @Actor public void closer() { c.closer(); }
}
