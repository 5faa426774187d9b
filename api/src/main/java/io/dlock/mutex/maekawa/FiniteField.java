package io.dlock.mutex.maekawa;

/**
 * The finite field GF(q) for a prime power {@code q = p^m}, with addition and multiplication
 * tables: the coordinates of the projective plane of order q that {@link Quorums} builds.
 *
 * <p>Element {@code e} in {@code 0..q-1} is the polynomial over GF(p) whose coefficients are the
 * base-p digits of {@code e} (least significant first); products are reduced modulo the first monic
 * irreducible polynomial of degree m in the order of those digits, so the field, and every plane
 * built on it, is the same on every node. For {@code m = 1} this is arithmetic modulo p.
 */
final class FiniteField {

    private final int q;
    private final int[][] add;
    private final int[][] mul;
    private final int[] neg;
    private final int[] inv;

    private FiniteField(int q, int[][] add, int[][] mul) {
        this.q = q;
        this.add = add;
        this.mul = mul;
        this.neg = new int[q];
        this.inv = new int[q];
        for (int a = 0; a < q; a++) {
            for (int b = 0; b < q; b++) {
                if (add[a][b] == 0) {
                    neg[a] = b;
                }
                if (mul[a][b] == 1) {
                    inv[a] = b;
                }
            }
        }
    }

    /**
     * GF(q).
     *
     * @throws IllegalArgumentException if q is not a prime power
     */
    static FiniteField of(int q) {
        int p = smallestPrimeFactor(q);
        int m = 0;
        for (int r = q; r > 1; r /= p) {
            if (r % p != 0) {
                throw new IllegalArgumentException(q + " is not a prime power");
            }
            m++;
        }
        int[][] add = new int[q][q];
        for (int a = 0; a < q; a++) {
            for (int b = 0; b < q; b++) {
                add[a][b] = digitwise(a, b, p, m);
            }
        }
        // monic modulus x^m + c(x): try c = 0, 1, ... until every non-zero element has an inverse
        for (int c = 0; c < q; c++) {
            int[][] mul = multiplicationTable(q, p, m, c);
            if (isField(mul, q)) {
                return new FiniteField(q, add, mul);
            }
        }
        throw new AssertionError("no irreducible polynomial of degree " + m + " over GF(" + p + ")");
    }

    /** Whether q is a power of a prime (q ≥ 2). */
    static boolean isPrimePower(int q) {
        if (q < 2) {
            return false;
        }
        int p = smallestPrimeFactor(q);
        int r = q;
        while (r % p == 0) {
            r /= p;
        }
        return r == 1;
    }

    int order() {
        return q;
    }

    int add(int a, int b) {
        return add[a][b];
    }

    int mul(int a, int b) {
        return mul[a][b];
    }

    int neg(int a) {
        return neg[a];
    }

    /** The inverse of a non-zero {@code a}. */
    int inv(int a) {
        if (a == 0) {
            throw new ArithmeticException("0 has no inverse");
        }
        return inv[a];
    }

    private static int smallestPrimeFactor(int q) {
        if (q < 2) {
            throw new IllegalArgumentException(q + " is not a prime power");
        }
        for (int d = 2; (long) d * d <= q; d++) {
            if (q % d == 0) {
                return d;
            }
        }
        return q;
    }

    private static int digitwise(int a, int b, int p, int m) {
        int r = 0;
        int place = 1;
        for (int i = 0; i < m; i++) {
            r += ((a % p + b % p) % p) * place;
            a /= p;
            b /= p;
            place *= p;
        }
        return r;
    }

    /** Products of polynomials over GF(p) of degree below m, reduced by x^m = -c(x). */
    private static int[][] multiplicationTable(int q, int p, int m, int c) {
        int[] cDigits = digits(c, p, m);
        int[][] mul = new int[q][q];
        for (int a = 0; a < q; a++) {
            int[] ad = digits(a, p, m);
            for (int b = 0; b < q; b++) {
                int[] bd = digits(b, p, m);
                int[] prod = new int[2 * m];
                for (int i = 0; i < m; i++) {
                    for (int j = 0; j < m; j++) {
                        prod[i + j] = (prod[i + j] + ad[i] * bd[j]) % p;
                    }
                }
                for (int k = 2 * m - 1; k >= m; k--) { // x^k = x^(k-m) * x^m = -x^(k-m) c(x)
                    int coef = prod[k];
                    prod[k] = 0;
                    for (int i = 0; i < m; i++) {
                        prod[k - m + i] = ((prod[k - m + i] - coef * cDigits[i]) % p + p) % p;
                    }
                }
                int r = 0;
                for (int i = m - 1; i >= 0; i--) {
                    r = r * p + prod[i];
                }
                mul[a][b] = r;
            }
        }
        return mul;
    }

    private static boolean isField(int[][] mul, int q) {
        for (int a = 1; a < q; a++) {
            boolean hasInverse = false;
            for (int b = 1; b < q && !hasInverse; b++) {
                hasInverse = mul[a][b] == 1;
            }
            if (!hasInverse) {
                return false;
            }
        }
        return true;
    }

    private static int[] digits(int v, int p, int m) {
        int[] d = new int[m];
        for (int i = 0; i < m; i++) {
            d[i] = v % p;
            v /= p;
        }
        return d;
    }
}
