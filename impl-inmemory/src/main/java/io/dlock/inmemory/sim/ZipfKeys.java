package io.dlock.inmemory.sim;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Draws lock names {@code key-0 .. key-(M-1)} with Zipf weights: name k (k from 0) has weight
 * {@code 1/(k+1)^s}, so with s = 1 the hottest key is drawn about {@code ln M} times as often as a uniform
 * draw would give it, and most names are used rarely (the long tail that reclamation is for). Inverse
 * transform over the cumulative weights: O(log M) per draw.
 */
final class ZipfKeys {

    private final double[] cumulative;

    ZipfKeys(int names, double exponent) {
        cumulative = new double[names];
        double sum = 0;
        for (int k = 0; k < names; k++) {
            sum += 1 / Math.pow(k + 1, exponent);
            cumulative[k] = sum;
        }
    }

    /** The index of the next name. */
    int next(SplittableRandom random) {
        double u = random.nextDouble() * cumulative[cumulative.length - 1];
        int i = Arrays.binarySearch(cumulative, u);
        int k = i >= 0 ? i : -i - 1;
        return Math.min(k, cumulative.length - 1);
    }

    static String name(int index) {
        return "key-" + index;
    }
}
