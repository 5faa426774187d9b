package io.dlock.sharedmemory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The access modes of the locks' shared arrays, as {@link VarHandle}s on plain {@code int[]}, {@code long[]} and
 * {@code Thread[]} arrays. Same semantics as {@code AtomicIntegerArray}, {@code AtomicLongArray} and
 * {@code AtomicReferenceArray} (which are built on the same handles), one pointer less on every access: the
 * uncontended acquisition is a chain of dependent loads after a full fence, so each indirection shows (issue 19).
 * Which mode each access uses, and why that is enough, is argued where the access is made.
 */
final class Cells {

    /** Elements of an {@code int[]}: {@code getVolatile}, {@code setVolatile}, {@code setRelease}, ... */
    static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    /** Elements of a {@code long[]}. */
    static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    /** Elements of a {@code Thread[]}. */
    static final VarHandle THREADS = MethodHandles.arrayElementVarHandle(Thread[].class);

    private Cells() {
    }
}
