package dev.gpureactor.core;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Wait plans banded by the row count of the current decode step:
 * {@code bands := plan (";rows>=" N ":" plan)*}, at most {@value #MAX} bands.
 *
 * <p>The first band starts at 0 rows, each later band names its first row count, and the edges
 * strictly increase, so {@link #select} always finds exactly one band. A plan never contains
 * {@code ;}, so the text splits unambiguously.
 *
 * @param bands the bands
 */
public record WaitBands(List<Band> bands) {
    public static final int MAX = 4;

    /**
     * Plans for row counts from {@code fromRows} up to the next band's edge.
     *
     * @param fromRows the from rows
     * @param plan the wait plan
     */
    public record Band(int fromRows, WaitPlan plan) {
        public Band {
            Objects.requireNonNull(plan, "plan");
            if (fromRows < 0) throw new ReactorException(ErrorCode.InvalidArgument, "fromRows", fromRows, ">= 0");
        }
    }

    public WaitBands {
        bands = List.copyOf(bands);
        if (bands.isEmpty() || bands.size() > MAX) {
            throw new ReactorException(ErrorCode.InvalidArgument, "bands", bands.size(), "1.." + MAX);
        }
        if (bands.getFirst().fromRows() != 0) {
            throw new ReactorException(ErrorCode.InvalidArgument, "first band edge", bands.getFirst().fromRows(), "0");
        }
        for (int i = 1; i < bands.size(); i++) {
            if (bands.get(i).fromRows() <= bands.get(i - 1).fromRows()) {
                throw new ReactorException(ErrorCode.InvalidArgument, "band edge " + i, bands.get(i).fromRows(),
                        "> " + bands.get(i - 1).fromRows() + " (edges strictly increase)");
            }
        }
    }

    /**
     * {@return the plan of the band whose range holds {@code rows}}
     *
     * @param rows the rows
     */
    public WaitPlan select(int rows) {
        WaitPlan chosen = bands.getFirst().plan();
        for (Band b : bands) {
            if (Integer.compareUnsigned(rows, b.fromRows()) >= 0) chosen = b.plan(); else break;
        }
        return chosen;
    }

    /** {@return the canonical text, which {@link #parse} reads back to equal bands} */
    public String label() {
        return bands.stream()
                .map(b -> b.fromRows() == 0 ? b.plan().label() : "rows>=" + b.fromRows() + ":" + b.plan().label())
                .collect(Collectors.joining(";"));
    }

    /**
     * Reads bands from their text.
     *
     * @param text the text
     * @throws ReactorException {@link ErrorCode#InvalidPlan} naming the text, the position and the first fault
     */
    public static WaitBands parse(String text) {
        Objects.requireNonNull(text, "text");
        List<Band> out = new java.util.ArrayList<>();
        int start = 0;
        int previous = -1;
        while (true) {
            int end = text.indexOf(';', start);
            if (end < 0) end = text.length();
            int from = 0;
            int planAt = start;
            if (!out.isEmpty()) {
                String head = "rows>=";
                if (!text.startsWith(head, start)) throw fault(text, start, "expected \"rows>=\"");
                int n = start + head.length();
                int digits = n;
                while (digits < end && Character.isDigit(text.charAt(digits)) && text.charAt(digits) < 128) digits++;
                if (digits == n) throw fault(text, n, "expected a decimal row count");
                if (text.charAt(n) == '0' && digits - n > 1) throw fault(text, n, "row count has a leading zero");
                long count = digits - n > 10 ? Long.MAX_VALUE : Long.parseLong(text.substring(n, digits));
                if (count > Integer.MAX_VALUE) throw fault(text, n, "row count is out of range 1.." + Integer.MAX_VALUE);
                from = (int) count;
                if (from <= previous) {
                    throw fault(text, n, "band edge " + from + " must be greater than the previous edge " + previous);
                }
                if (digits >= end || text.charAt(digits) != ':') throw fault(text, digits, "expected \":\"");
                planAt = digits + 1;
            }
            if (out.size() == MAX) throw fault(text, start, "more than " + MAX + " bands");
            out.add(new Band(from, WaitPlanText.parse(text, planAt, end, "wait bands")));
            previous = from;
            if (end == text.length()) break;
            start = end + 1;
        }
        return new WaitBands(out);
    }

    private static ReactorException fault(String text, int at, String what) {
        return new ReactorException(ErrorCode.InvalidPlan, "wait bands", text, "at " + at + ": " + what);
    }
}
