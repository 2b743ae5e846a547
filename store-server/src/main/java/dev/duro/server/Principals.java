package dev.duro.server;

import dev.duro.server.tls.ConnectionIdentity;
import dev.duro.server.tls.PeerIdentity;
import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import javax.annotation.Nullable;

/**
 * Who a connection acts for, as {@link AccessControl} asks (docs/auth.md, "Authentication"): the user it
 * authenticated as by password ({@link #USER}), else the one its verified client certificate names (its subject CN,
 * a user name like any other: its roles come from the auth record, and a name the record does not know has no
 * grants); and the cluster node at the other end, which only a verified node certificate proves ({@link
 * ConnectionIdentity}, docs/security.md).
 */
final class Principals {
    /** The user this connection authenticated as, by password or by a verified client certificate. */
    static final AttributeKey<String> USER = AttributeKey.valueOf("duro.auth.user");

    private Principals() {}

    static @Nullable String user(Channel channel) {
        String byPassword = channel.attr(USER).get();
        if (byPassword != null) {
            return byPassword;
        }
        return ConnectionIdentity.of(channel) instanceof PeerIdentity.Client client ? client.name() : null;
    }

    /** The id of the cluster node at the other end, if its certificate proved one; null otherwise. */
    static @Nullable String peer(Channel channel) {
        return ConnectionIdentity.of(channel) instanceof PeerIdentity.Node node ? node.id() : null;
    }
}
