package dev.duro.server.tls;

import java.security.cert.X509Certificate;
import java.util.Set;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * Who is at the other end of a connection, as its verified certificate says (docs/security.md, "Identities"): a
 * configured cluster node ({@code CN=node:<id>} with {@code <id>} in {@code cluster.nodes}), a client named by its
 * certificate's common name, or anonymous (no certificate, or TLS off). The identity is proven by the TLS handshake
 * against the cluster's CA; it is never taken from anything the peer sends in a frame.
 */
public sealed interface PeerIdentity {
    /** The common-name prefix of node certificates. */
    String NODE_PREFIX = "node:";

    /** Peer messages (votes, frontiers, snapshot fetches) are accepted from this identity. */
    boolean isClusterNode();

    /** A configured cluster node. */
    record Node(String id) implements PeerIdentity {
        @Override
        public boolean isClusterNode() {
            return true;
        }

        @Override
        public String toString() {
            return NODE_PREFIX + id;
        }
    }

    /**
     * A client with a certificate of the cluster's CA, named by its common name; also a certificate that names a
     * node outside {@code cluster.nodes}, which is a client like any other.
     */
    record Client(String name) implements PeerIdentity {
        @Override
        public boolean isClusterNode() {
            return false;
        }

        @Override
        public String toString() {
            return "client " + name;
        }
    }

    /** A connection without a verified certificate: a client without one over TLS, or anyone with TLS off. */
    record Anonymous() implements PeerIdentity {
        @Override
        public boolean isClusterNode() {
            return false;
        }

        @Override
        public String toString() {
            return "anonymous";
        }
    }

    PeerIdentity ANONYMOUS = new Anonymous();

    /** The identity {@code certificate} proves, given the cluster's node ids. */
    static PeerIdentity of(X509Certificate certificate, Set<String> clusterNodes) {
        String name = commonName(certificate);
        if (name.startsWith(NODE_PREFIX) && clusterNodes.contains(name.substring(NODE_PREFIX.length()))) {
            return new Node(name.substring(NODE_PREFIX.length()));
        }
        return new Client(name);
    }

    /** The subject's common name, or the whole subject if it has none. */
    static String commonName(X509Certificate certificate) {
        String subject = certificate.getSubjectX500Principal().getName();
        try {
            for (Rdn rdn : new LdapName(subject).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return rdn.getValue().toString();
                }
            }
        } catch (InvalidNameException e) {
            // A subject the JDK printed itself always parses; fall through to the whole subject anyway.
        }
        return subject;
    }
}
