package io.dlock.samples.virtualthreads;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.ThreadFactory;

/**
 * The two pieces of the Java 21 virtual-thread API the child JVM needs, reached by reflection because the
 * test sources compile with {@code --release 17}: a factory of named virtual threads
 * ({@code Thread.ofVirtual().name(prefix, 0).factory()}) and {@code Thread.isVirtual()}. Everything else is
 * Java 17 API ({@link ThreadFactory}, {@link Thread}).
 */
final class VirtualThreads {

    private VirtualThreads() {
    }

    /**
     * A factory of unstarted virtual threads named {@code prefix0}, {@code prefix1}, ...
     *
     * @throws IllegalStateException on a JVM without virtual threads (before Java 21)
     */
    static ThreadFactory factory(String prefix) {
        try {
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            Object ofVirtual = Thread.class.getMethod("ofVirtual").invoke(null);
            Object named = builder.getMethod("name", String.class, long.class).invoke(ofVirtual, prefix, 0L);
            return (ThreadFactory) builder.getMethod("factory").invoke(named);
        } catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException
                 | InvocationTargetException e) {
            throw new IllegalStateException("virtual threads need Java 21 or later; this JVM is " + Runtime.version(), e);
        }
    }

    /** Whether {@code thread} is a virtual thread. */
    static boolean isVirtual(Thread thread) {
        try {
            Method isVirtual = Thread.class.getMethod("isVirtual");
            return (Boolean) isVirtual.invoke(thread);
        } catch (NoSuchMethodException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("Thread.isVirtual() needs Java 21 or later; this JVM is "
                    + Runtime.version(), e);
        }
    }
}
