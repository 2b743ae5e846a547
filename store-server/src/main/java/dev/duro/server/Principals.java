package dev.duro.server;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import javax.annotation.Nullable;

/**
 * Who a connection acts for: channel attributes that every authentication source writes and {@link
 * AccessControl} reads (docs/auth.md, "Authentication"). The seam for more sources than passwords: a TLS layer that
 * verified a client certificate sets {@link #USER} to the certificate's subject CN, which is then a user name like
 * any other (its roles come from the auth record; a name the record does not know has no grants); one that verified
 * a cluster member's certificate sets {@link #PEER} to that node's id.
 */
final class Principals {
    /** The user this connection authenticated as, by password or by a verified client certificate. */
    static final AttributeKey<String> USER = AttributeKey.valueOf("duro.auth.user");
    /** The id of the cluster node at the other end, set only by a transport that verified it. */
    static final AttributeKey<String> PEER = AttributeKey.valueOf("duro.auth.peer");

    private Principals() {}

    static @Nullable String user(Channel channel) {
        return channel.attr(USER).get();
    }

    static @Nullable String peer(Channel channel) {
        return channel.attr(PEER).get();
    }
}
