package io.dlock.samples;

import picocli.CommandLine.Option;

/** The {@code --format} option of the commands that print results: text (the default) or json. */
public final class FormatOption {

    @Option(names = "--format", defaultValue = "text", converter = OutputFormat.Converter.class, paramLabel = "FORMAT",
            description = "text (alias: table) or json (default ${DEFAULT-VALUE})")
    OutputFormat format;

    /** Whether the output is JSON. */
    public boolean json() {
        return format == OutputFormat.JSON;
    }
}
