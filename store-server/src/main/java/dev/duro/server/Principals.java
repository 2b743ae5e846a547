package dev.duro.server;

import dev.duro.server.auth.AuthTable;
import dev.duro.server.auth.PasswordHash;
import dev.duro.server.tls.ConnectionIdentity;
import dev.duro.server.tls.PeerIdentity;
import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.util.Objects;
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
    /** The stored password hash {@link #USER} logged in against; the login holds only while the record keeps it. */
    static final AttributeKey<PasswordHash> PASSWORD = AttributeKey.valueOf("duro.auth.password");

    private Principals() {}

    /**
     * The connection's user under {@code table}. A password login counts only while the record still gives the user
     * the password hash it logged in against: a user removed, or given a new password, must log in again (a user
     * removed and added again under the same name is someone new).
     */
    static @Nullable String user(Channel channel, AuthTable table) {
        String byPassword = channel.attr(USER).get();
        if (byPassword != null) {
            AuthTable.User now = table.users().get(byPassword);
            return now != null
                            && Objects.equals(
                                    now.password(), channel.attr(PASSWORD).get())
                    ? byPassword
                    : null;
        }
        return ConnectionIdentity.of(channel) instanceof PeerIdentity.Client client ? client.name() : null;
    }

    /** The id of the cluster node at the other end, if its certificate proved one; null otherwise. */
    static @Nullable String peer(Channel channel) {
        return ConnectionIdentity.of(channel) instanceof PeerIdentity.Node node ? node.id() : null;
    }
}
