package io.dlock.samples;

import java.util.LinkedHashMap;
import java.util.Map;

/** Output format of the commands that print results ({@link FormatOption}). */
enum OutputFormat {
    /** Aligned columns for people ({@code table} is accepted as an alias). */
    TEXT,
    /** Machine-readable JSON. */
    JSON;

    /** Converts {@code text}, {@code table} (alias of text) or {@code json}, in any case. */
    static final class Converter extends ChoiceConverter<OutputFormat> {
        private static final Map<String, OutputFormat> NAMES = new LinkedHashMap<>();

        static {
            NAMES.put("text", TEXT);
            NAMES.put("table", TEXT);
            NAMES.put("json", JSON);
        }

        /** The converter picocli instantiates. */
        Converter() {
            super("a format", NAMES);
        }
    }
}
