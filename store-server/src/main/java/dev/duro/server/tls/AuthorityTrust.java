package dev.duro.server.tls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Set;
import java.util.function.Predicate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Trusts a certificate chain when the cluster's CA issued it (the JDK's PKIX checks: signature, validity period,
 * key usage) and its leaf's identity is one this link accepts: on a peer link, the node it dialled; on a Raft link,
 * any configured node; on the client endpoint, any holder of a certificate from the CA.
 *
 * <p>It replaces host-name verification: a node is recognised by the identity in its certificate, not by the
 * address it was reached at, so the engine-aware methods do not ask the JDK to match host names (extending
 * {@link X509ExtendedTrustManager} is what keeps the JDK from adding that check around it).
 */
final class AuthorityTrust extends X509ExtendedTrustManager {
    private final X509TrustManager authority;
    private final Predicate<PeerIdentity> clients;
    private final Predicate<PeerIdentity> servers;
    private final Set<String> clusterNodes;
    private final String describeServers;

    AuthorityTrust(
            X509TrustManager authority,
            Set<String> clusterNodes,
            Predicate<PeerIdentity> clients,
            Predicate<PeerIdentity> servers,
            String describeServers) {
        this.authority = authority;
        this.clusterNodes = Set.copyOf(clusterNodes);
        this.clients = clients;
        this.servers = servers;
        this.describeServers = describeServers;
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        authority.checkClientTrusted(chain, authType);
        PeerIdentity identity = PeerIdentity.of(chain[0], clusterNodes);
        if (!clients.test(identity)) {
            throw new CertificateException(
                    "the certificate of " + identity + " is not accepted here: only cluster nodes " + clusterNodes);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        authority.checkServerTrusted(chain, authType);
        PeerIdentity identity = PeerIdentity.of(chain[0], clusterNodes);
        if (!servers.test(identity)) {
            throw new CertificateException(
                    "the server's certificate names " + identity + "; expected " + describeServers);
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        checkServerTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        checkServerTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return authority.getAcceptedIssuers();
    }
}
