package dev.duro.client;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.annotation.Nullable;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A client's TLS 1.3 context (docs/security.md): it trusts a node when the cluster's CA issued the node's certificate
 * and that certificate names a node ({@code CN=node:<id>}); host names are not matched, since nodes are known by
 * the identity in their certificates. With a certificate and key the client proves its own name ({@code CN}).
 */
final class ClientTls {
    private static final String PROTOCOL = "TLSv1.3";
    private static final String NODE_PREFIX = "node:";

    private ClientTls() {}

    /** The context, from PEM files; a file that cannot be used is an {@link IllegalArgumentException} naming it. */
    static SslContext context(Path caFile, @Nullable Path certFile, @Nullable Path keyFile) {
        if ((certFile == null) != (keyFile == null)) {
            throw new IllegalArgumentException("a client certificate needs its key and a key its certificate (got "
                    + (certFile == null ? "a key file only" : "a certificate file only") + ")");
        }
        SslContextBuilder builder = SslContextBuilder.forClient()
                .sslProvider(SslProvider.JDK)
                .protocols(PROTOCOL)
                .trustManager(new NodeTrust(authority(caFile)));
        if (certFile != null) {
            requireReadable(certFile, "client certificate");
            requireReadable(keyFile, "client key");
            try {
                builder.keyManager(certFile.toFile(), keyFile.toFile());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "cannot use the client certificate " + certFile + " with key " + keyFile + ": "
                                + e.getMessage(),
                        e);
            }
        }
        try {
            return builder.build();
        } catch (SSLException e) {
            throw new IllegalArgumentException("cannot build the client's TLS context: " + e.getMessage(), e);
        }
    }

    private static void requireReadable(Path file, String what) {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("the " + what + " file " + file + " cannot be read");
        }
    }

    private static X509TrustManager authority(Path caFile) {
        try (InputStream in = Files.newInputStream(caFile)) {
            Collection<? extends Certificate> certificates =
                    CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException("the CA file " + caFile + " holds no PEM certificate");
            }
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int i = 0;
            for (Certificate certificate : certificates) {
                store.setCertificateEntry("ca-" + i++, certificate);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
            factory.init(store);
            for (TrustManager manager : factory.getTrustManagers()) {
                if (manager instanceof X509TrustManager x509) {
                    return x509;
                }
            }
            throw new IllegalStateException("the PKIX trust manager factory made no X509TrustManager");
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("the CA file " + caFile + " cannot be read: it does not exist", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("the CA file " + caFile + " cannot be read: " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "the CA file " + caFile + " is not a PEM certificate file: " + e.getMessage(), e);
        }
    }

    /** The CA's checks, then: the server's certificate must name a node. */
    private static final class NodeTrust extends X509ExtendedTrustManager {
        private final X509TrustManager authority;

        NodeTrust(X509TrustManager authority) {
            this.authority = authority;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            authority.checkServerTrusted(chain, authType);
            String name = commonName(chain[0]);
            if (!name.startsWith(NODE_PREFIX)) {
                throw new CertificateException(
                        "the server's certificate names '" + name + "', not a node (CN=" + NODE_PREFIX + "<id>)");
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            checkServerTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a client does not accept connections");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            checkClientTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            checkClientTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return authority.getAcceptedIssuers();
        }
    }

    private static String commonName(X509Certificate certificate) {
        String subject = certificate.getSubjectX500Principal().getName();
        try {
            for (Rdn rdn : new LdapName(subject).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return rdn.getValue().toString();
                }
            }
        } catch (InvalidNameException e) {
            // The JDK printed the subject itself: it parses. Fall through to the whole subject anyway.
        }
        return subject;
    }
}
