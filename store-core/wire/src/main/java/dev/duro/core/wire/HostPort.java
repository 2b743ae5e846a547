package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Objects;

/**
 * A server address as clients connect to it. The host is a DNS name or an IP literal; internationalised names
 * travel in their ASCII (punycode) form, so only printable ASCII without spaces is accepted.
 */
public record HostPort(String host, int port) {
    public static final int HOST_MAX_CHARS = 255;

    public HostPort {
        Objects.requireNonNull(host, "host");
        checkArgument(isValidHost(host), "not a host name or address: %s", host);
        checkArgument(isValidPort(port), "port out of range: %s", port);
    }

    public static boolean isValidHost(String host) {
        if (host.isEmpty() || host.length() > HOST_MAX_CHARS) {
            return false;
        }
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c <= ' ' || c > '~') {
                return false;
            }
        }
        return true;
    }

    public static boolean isValidPort(long port) {
        return port >= 1 && port <= 65_535;
    }

    /** {@code host:port}, with an IPv6 literal in brackets. */
    @Override
    public String toString() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }
}
