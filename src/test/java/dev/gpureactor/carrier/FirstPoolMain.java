package dev.gpureactor.carrier;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** {@link FirstPoolTest}'s child: a carrier pool is the first thing of the library this JVM touches. */
public final class FirstPoolMain {
    private FirstPoolMain() {}

    public static void main(String[] args) throws InterruptedException {
        CarrierPool pool = new CarrierPool(1, w -> { });
        AtomicInteger ran = new AtomicInteger();
        CountDownLatch both = new CountDownLatch(2);
        pool.resumeAll(new Runnable[] {() -> { ran.incrementAndGet(); both.countDown(); }, () -> { ran.incrementAndGet(); both.countDown(); }});
        both.await(30, TimeUnit.SECONDS);
        System.out.println("ran=" + ran.get());
        pool.close();
    }
}
