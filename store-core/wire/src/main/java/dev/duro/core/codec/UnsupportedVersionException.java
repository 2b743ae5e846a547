package dev.duro.core.codec;

import dev.duro.core.DuroException;

/**
 * Input in a format version this build does not speak: a frame from a newer peer, or a log entry written by a
 * newer release. Kept apart from {@link MalformedInputException} because the remedy differs — upgrade, not
 * "fix the sender" — and a server answers it with its own error code.
 */
public final class UnsupportedVersionException extends DuroException {
    private static final long serialVersionUID = 1L;

    private final String format;
    private final int version;
    private final int supported;

    /**
     * @param format what was being read, e.g. "wire protocol"
     * @param version the version the input declares
     * @param supported the version this build reads
     */
    public UnsupportedVersionException(String format, int version, int supported) {
        super("unsupported " + format + " version " + version + "; this build supports version " + supported);
        this.format = format;
        this.version = version;
        this.supported = supported;
    }

    public String format() {
        return format;
    }

    public int version() {
        return version;
    }

    public int supported() {
        return supported;
    }
}
