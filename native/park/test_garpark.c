/*
 * C test of garpark, run by native/park/build.sh on every native build (and under qemu-aarch64 for the
 * cross-built aarch64 park). It includes the implementation so that it can drive the park loop itself
 * where the probe (rightly) refuses, e.g. under qemu, which advertises neither FEAT_WFxT nor the event
 * stream but treats wfe as a no-op, so the loop's logic can run there.
 *
 * Checks: the ABI version; the probe against /proc/cpuinfo (x86: waitpkg/mwaitx flags; aarch64: the
 * Features line's wfxt/evtstrm); the probe is kept; bad arguments; garpark_differs; the refusing path when
 * the probe finds nothing; and wherever a park runs (the probed flavour, or the forced wfe loop), that a
 * store from another thread to any word ends it, that a store of the same value does not make it report a
 * change, and that the bound ends it otherwise. No timing figure is asserted: a park must end, with the
 * right result. A hang is caught by the alarm below.
 */
#include "garpark.c"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

static int failures;

#define CHECK(cond, ...)                                                                                             \
    do {                                                                                                             \
        if (!(cond)) {                                                                                               \
            failures++;                                                                                              \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                          \
            fprintf(stderr, __VA_ARGS__);                                                                            \
            fputc('\n', stderr);                                                                                     \
        }                                                                                                            \
    } while (0)

static _Alignas(64) uint64_t line[LINE_WORDS];

static void store_word(int i, uint64_t v) {
    atomic_store_explicit((_Atomic uint64_t *)&line[i], v, memory_order_release);
}

static void snapshot_of(uint64_t *snap) {
    for (int i = 0; i < LINE_WORDS; i++) snap[i] = load_word(line, i);
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

/* /proc/cpuinfo has the flag (a whole word of a "flags" or "Features" line)? -1 when unreadable. */
__attribute__((unused)) static int cpuinfo_has(const char *flag) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL) return -1;
    char buf[8192];
    int found = 0;
    size_t n = strlen(flag);
    while (!found && fgets(buf, sizeof buf, f) != NULL) {
        if (strncmp(buf, "flags", 5) != 0 && strncmp(buf, "Features", 8) != 0) continue;
        for (char *p = strstr(buf, flag); p != NULL; p = strstr(p + 1, flag)) {
            if ((p[-1] == ' ' || p[-1] == '\t' || p[-1] == ':') && (p[n] == ' ' || p[n] == '\n' || p[n] == '\0')) {
                found = 1;
                break;
            }
        }
    }
    fclose(f);
    return found;
}

/* ---- the park runner: the public garpark_park, or the internal loop of a forced flavour ---- */

typedef int32_t (*park_fn)(const uint64_t *, const uint64_t *, int64_t);
static int32_t forced_flavour;

static int32_t park_public(const uint64_t *l, const uint64_t *s, int64_t bound) { return garpark_park(l, s, bound); }

static int32_t park_forced(const uint64_t *l, const uint64_t *s, int64_t bound) {
    return park_flavour(forced_flavour, l, s, now_ns() + bound, g_probe.rate_hz);
}

struct storer {
    int word;
    uint64_t value;
    long delay_ms;
};

static void *store_later(void *arg) {
    struct storer *st = arg;
    sleep_ms(st->delay_ms);
    store_word(st->word, st->value);
    return NULL;
}

static void test_parks(const char *what, park_fn park) {
    uint64_t snap[LINE_WORDS];
    printf("  park via %s\n", what);

    /* A store from another thread to any word ends the park with CHANGED, long before its 10 s bound. */
    for (int w = 0; w < LINE_WORDS; w++) {
        snapshot_of(snap);
        struct storer st = {w, snap[w] + 1 + (uint64_t)w, 20};
        pthread_t t;
        CHECK(pthread_create(&t, NULL, store_later, &st) == 0, "pthread_create");
        int32_t r = park(line, snap, 10LL * 1000000000LL);
        pthread_join(t, NULL);
        CHECK(r == GARPARK_CHANGED, "word %d: park returned %d, expected CHANGED", w, r);
        CHECK(load_word(line, w) == st.value, "word %d holds the stored value", w);
    }

    /* The bound ends a park nobody stores into, with BOUND, and the line is unchanged. */
    snapshot_of(snap);
    int32_t r = park(line, snap, 20LL * 1000000LL);
    CHECK(r == GARPARK_BOUND, "idle park returned %d, expected BOUND", r);
    CHECK(!line_differs(line, snap), "line unchanged");

    /* A store of the value already there may wake the core, but the park reports no change. */
    snapshot_of(snap);
    struct storer same = {3, snap[3], 5};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, store_later, &same) == 0, "pthread_create");
    r = park(line, snap, 50LL * 1000000LL);
    pthread_join(t, NULL);
    CHECK(r == GARPARK_BOUND, "same-value store: park returned %d, expected BOUND", r);

    /* A line that already differs returns at once; a zero or negative bound still checks once. */
    snapshot_of(snap);
    snap[5] ^= 1;
    CHECK(park(line, snap, 10LL * 1000000000LL) == GARPARK_CHANGED, "differing snapshot");
    snapshot_of(snap);
    CHECK(park(line, snap, 0) == GARPARK_BOUND, "zero bound");
    CHECK(park(line, snap, -5) == GARPARK_BOUND, "negative bound");
}

static void on_alarm(int sig) {
    (void)sig;
    static const char msg[] = "FAIL: test_garpark hung (60 s alarm)\n";
    ssize_t ignored = write(2, msg, sizeof msg - 1);
    (void)ignored;
    _exit(2);
}

int main(void) {
    signal(SIGALRM, on_alarm);
    alarm(60);

    CHECK(garpark_abi_version() == GARPARK_ABI_VERSION, "abi %d", garpark_abi_version());

    uint64_t rate = 0;
    char note[NOTE_CAP];
    int32_t flavour = garpark_probe(&rate, note, sizeof note);
    printf("  probe: flavour %d, rate %llu Hz, %s\n", flavour, (unsigned long long)rate, note);
    CHECK(flavour >= GARPARK_NONE && flavour <= GARPARK_WFET, "flavour %d", flavour);

    /* The probe is kept: a second call answers the same; a short buffer gets a truncated, terminated note. */
    uint64_t rate2 = 1;
    char small[8];
    CHECK(garpark_probe(&rate2, small, sizeof small) == flavour, "probe kept");
    CHECK(rate2 == rate, "rate kept");
    CHECK(strlen(small) == 7 && strncmp(small, note, 7) == 0, "truncated note '%s'", small);
    CHECK(garpark_probe(NULL, NULL, 0) == flavour, "null outputs");

#if defined(__x86_64__)
    int waitpkg = cpuinfo_has("waitpkg"), mwaitx = cpuinfo_has("mwaitx") == 1 || cpuinfo_has("monitorx") == 1;
    printf("  /proc/cpuinfo: waitpkg %d, mwaitx %d\n", waitpkg, mwaitx);
    CHECK(waitpkg >= 0, "/proc/cpuinfo readable");
    int expect = waitpkg == 1 ? GARPARK_UMWAIT : mwaitx ? GARPARK_MWAITX : GARPARK_NONE;
    CHECK(flavour == expect, "probe %d disagrees with /proc/cpuinfo (expected %d)", flavour, expect);
    if (expect == GARPARK_NONE) CHECK(strncmp(note, "CPU lacks waitpkg and monitorx", 30) == 0, "note '%s'", note);
    CHECK(rate > 0, "TSC rate measured");
#elif defined(__aarch64__)
    /* Under qemu-user /proc/cpuinfo is the host's: compare with the auxv the probe read instead. */
    unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
    int expect = (hw2 & HWCAP2_WFXT) ? GARPARK_WFET : (hw & HWCAP_EVTSTRM) ? GARPARK_WFE : GARPARK_NONE;
    CHECK(flavour == expect, "probe %d disagrees with auxv (expected %d)", flavour, expect);
    CHECK(rate > 0, "CNTFRQ read");
#endif

    int64_t t0 = garpark_ticks(), t1 = garpark_ticks();
    CHECK((uint64_t)t1 >= (uint64_t)t0, "ticks move forward");

    /* Bad arguments are refused before anything runs. */
    uint64_t snap[LINE_WORDS];
    snapshot_of(snap);
    CHECK(garpark_park(NULL, snap, 1000) == GARPARK_BAD_ARG, "null line");
    CHECK(garpark_park(line, NULL, 1000) == GARPARK_BAD_ARG, "null snapshot");
    CHECK(garpark_park((const uint64_t *)((const char *)line + 8), snap, 1000) == GARPARK_BAD_ARG, "misaligned");
    CHECK(garpark_differs(NULL, snap) == GARPARK_BAD_ARG, "differs null");

    /* differs sees a change in each word, and nothing when equal. */
    CHECK(garpark_differs(line, snap) == 0, "equal");
    for (int w = 0; w < LINE_WORDS; w++) {
        snap[w] ^= 0x8000000000000000ULL;
        CHECK(garpark_differs(line, snap) == 1, "word %d differs", w);
        snap[w] ^= 0x8000000000000000ULL;
    }

    if (flavour == GARPARK_NONE) {
        /* The refusing path: nothing runs, the answer is immediate. */
        CHECK(garpark_park(line, snap, 10LL * 1000000000LL) == GARPARK_REFUSED, "refuses without a flavour");
        printf("  park refused: no wait instruction on this CPU (as probed)\n");
    } else {
        test_parks("garpark_park (probed flavour)", park_public);
    }

#if defined(__aarch64__)
    /* The wfe loop itself, where the probe refused only for want of a bound. GARPARK_TEST_FORCE_WFE is
     * set by build.sh for qemu (wfe is a no-op there); on hardware without the event stream an idle wfe
     * would rely on interrupts to end, so it is not forced there. */
    const char *force = getenv("GARPARK_TEST_FORCE_WFE");
    if (force != NULL && strcmp(force, "1") == 0) {
        forced_flavour = GARPARK_WFE;
        test_parks("forced ldxr + wfe loop", park_forced);
    } else if (flavour == GARPARK_NONE) {
        printf("  SKIPPED: forced wfe loop (GARPARK_TEST_FORCE_WFE not set, no event stream)\n");
    }
#endif
    (void)park_forced;

    if (failures) {
        fprintf(stderr, "test_garpark: %d failure(s)\n", failures);
        return 1;
    }
    printf("  test_garpark: ok\n");
    return 0;
}
