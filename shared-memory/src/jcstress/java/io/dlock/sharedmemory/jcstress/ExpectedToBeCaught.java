package io.dlock.sharedmemory.jcstress;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a jcstress test of a deliberately broken variant: {@link JcstressGate} fails the build unless jcstress
 * observed one of the test's FORBIDDEN outcomes.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ExpectedToBeCaught {
    /** Why the variant is broken. */
    String value();
}
