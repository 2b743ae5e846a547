package dev.duro.server.tls;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.security.GeneralSecurityException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The TLS contexts of one node, all TLS 1.3 with the JDK's provider, all from one {@link TlsMaterial}
 * (docs/security.md):
 *
 * <ol>
 *   <li>its endpoint ({@link #server}): presents the node's certificate and asks for the other side's, which is
 *       optional (a client may have none) but, when sent, must chain to the cluster's CA and be valid;
 *   <li>its links to other nodes' endpoints ({@link #peer}, {@link #peerSockets}): present the node's certificate
 *       and accept only the certificate of the node dialled;
 *   <li>its Raft links, both ways ({@link #keyManager}, {@link #memberTrust}): accept only certificates of
 *       configured nodes.
 * </ol>
 */
public final class NodeTls {
    /** The one protocol version spoken: the oldest a client must support. */
    public static final String PROTOCOL = "TLSv1.3";

    private final TlsMaterial material;
    private final Set<String> clusterNodes;
    private final KeyManagerFactory keyManagers;
    private final X509TrustManager authority;
    private final SslContext server;
    private final Map<String, SslContext> peers = new ConcurrentHashMap<>();

    public NodeTls(TlsMaterial material, Set<String> clusterNodes) {
        this.material = material;
        this.clusterNodes = Set.copyOf(clusterNodes);
        this.keyManagers = material.keyManagers();
        this.authority = material.authorityTrust();
        try {
            this.server = SslContextBuilder.forServer(keyManagers)
                    .sslProvider(SslProvider.JDK)
                    .protocols(PROTOCOL)
                    .clientAuth(ClientAuth.OPTIONAL)
                    .trustManager(new AuthorityTrust(
                            authority, clusterNodes, identity -> true, identity -> false, "no server"))
                    .build();
        } catch (SSLException e) {
            throw new IllegalArgumentException("cannot build the node's TLS context: " + e.getMessage(), e);
        }
    }

    /** The identity of this node's own certificate. */
    public PeerIdentity identity() {
        return PeerIdentity.of(material.certificate(), clusterNodes);
    }

    public TlsMaterial material() {
        return material;
    }

    /** The node endpoint's context. */
    public SslContext server() {
        return server;
    }

    /** The context of links to node {@code nodeId}'s endpoint: only that node's certificate is accepted. */
    public SslContext peer(String nodeId) {
        return peers.computeIfAbsent(nodeId, id -> {
            try {
                return SslContextBuilder.forClient()
                        .sslProvider(SslProvider.JDK)
                        .protocols(PROTOCOL)
                        .keyManager(keyManagers)
                        .trustManager(expecting(id))
                        .build();
            } catch (SSLException e) {
                throw new IllegalStateException("cannot build the TLS context of the link to " + id, e);
            }
        });
    }

    /** A JDK context for blocking sockets to node {@code nodeId} (snapshot fetches). */
    public SSLContext peerSockets(String nodeId) {
        try {
            SSLContext context = SSLContext.getInstance(PROTOCOL);
            context.init(keyManagers.getKeyManagers(), new TrustManager[] {expecting(nodeId)}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build the TLS socket context of the link to " + nodeId, e);
        }
    }

    /** The node's key and certificate, for the Raft links. */
    public KeyManager keyManager() {
        return keyManagers.getKeyManagers()[0];
    }

    /** Accepts a certificate of the cluster's CA naming a configured node, as client or as server (Raft links). */
    public TrustManager memberTrust() {
        return new AuthorityTrust(
                authority,
                clusterNodes,
                PeerIdentity::isClusterNode,
                PeerIdentity::isClusterNode,
                "a cluster node " + clusterNodes);
    }

    private AuthorityTrust expecting(String nodeId) {
        PeerIdentity expected = new PeerIdentity.Node(nodeId);
        return new AuthorityTrust(
                authority, clusterNodes, identity -> false, expected::equals, PeerIdentity.NODE_PREFIX + nodeId);
    }

    /** The identity a finished handshake proved: the other side's certificate, if it sent one. */
    public PeerIdentity identify(SSLSession session) {
        try {
            Certificate[] chain = session.getPeerCertificates();
            if (chain.length > 0 && chain[0] instanceof X509Certificate leaf) {
                return PeerIdentity.of(leaf, clusterNodes);
            }
        } catch (SSLPeerUnverifiedException e) {
            // No certificate: an anonymous client.
        }
        return PeerIdentity.ANONYMOUS;
    }
}
