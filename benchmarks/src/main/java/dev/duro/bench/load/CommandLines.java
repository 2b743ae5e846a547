package dev.duro.bench.load;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** How every benchmark command line is parsed, whichever command it starts from. */
public final class CommandLines {
    private static final int USAGE_WIDTH = 110;
    private static final int LONG_OPTIONS_WIDTH = 34;

    private CommandLines() {}

    /**
     * Applies the benchmark commands' parser settings to {@code commandLine} and the subcommands it has so far:
     *
     * <ul>
     *   <li>an option given twice takes its last value, as scripts that append a flag to a default list expect;
     *   <li>no {@code @file} expansion, so that an argument passed through to JMH (a regex) is never read as a file;
     *   <li>enum values in any case ({@code --system etcd}).
     * </ul>
     */
    public static CommandLine configure(CommandLine commandLine) {
        return commandLine
                .setOverwrittenOptionsAllowed(true)
                .setExpandAtFiles(false)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setUsageHelpWidth(USAGE_WIDTH)
                .setUsageHelpLongOptionsMaxWidth(LONG_OPTIONS_WIDTH);
    }

    /**
     * Refuses options given to the parent command before {@code spec}'s subcommand name ({@code ./duro bench
     * --clients 8 compare}): the parent does not run, so they would be dropped without a word.
     */
    public static void refuseParentOptions(CommandSpec spec) {
        CommandSpec parent = spec.parent();
        if (parent != null
                && !parent.commandLine().getParseResult().matchedOptions().isEmpty()) {
            throw new ParameterException(
                    spec.commandLine(),
                    "options before '" + spec.name() + "' belong to " + parent.qualifiedName() + " alone; give "
                            + spec.qualifiedName() + "'s options after it");
        }
    }
}
