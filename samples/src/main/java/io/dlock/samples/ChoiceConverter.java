package io.dlock.samples;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Converts an option value that must be one of a few names (case-insensitive) to what the name stands for.
 * Any other value is refused with {@code 'x' is not <what>; allowed: a, b, c}, which picocli prints as a usage
 * error (see {@link Cli}). A subclass per option type gives picocli a converter it can instantiate.
 *
 * @param <T> what the names stand for
 */
public abstract class ChoiceConverter<T> implements ITypeConverter<T> {

    private final String what;
    private final Map<String, T> byName;
    private final String names;

    /**
     * @param what   what a value is, with its article, for the error ("a format")
     * @param byName the allowed names, lower case, in the order the error lists them
     */
    protected ChoiceConverter(String what, Map<String, T> byName) {
        this.what = what;
        this.byName = Map.copyOf(byName);
        this.names = String.join(", ", byName.keySet());
    }

    @Override
    public T convert(String value) {
        T t = byName.get(value.trim().toLowerCase(Locale.ROOT));
        if (t == null) {
            throw new TypeConversionException("'" + value + "' is not " + what + "; allowed: " + names);
        }
        return t;
    }

    /** The constants of {@code type} by their {@link #nameOf names}, in declaration order. */
    protected static <E extends Enum<E>> Map<String, E> byName(Class<E> type) {
        Map<String, E> m = new LinkedHashMap<>();
        for (E e : type.getEnumConstants()) {
            m.put(nameOf(e), e);
        }
        return m;
    }

    /** The name a user writes for {@code e}: lower case, {@code _} as {@code -}. */
    static String nameOf(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
