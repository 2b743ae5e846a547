package dev.duro.server;

import dev.duro.server.tls.TlsMaterial;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** TLS contexts for tests' raw sockets, from the PEM files a test cluster or a test wrote. */
final class TestTls {
    private TestTls() {}

    /** TLS 1.3 trusting {@code caFile}'s CA, without a certificate of its own. */
    static SSLContext trustOnly(Path caFile) {
        try {
            KeyStore anchors = KeyStore.getInstance("PKCS12");
            anchors.load(null, null);
            int i = 0;
            for (java.security.cert.Certificate certificate : java.security.cert.CertificateFactory.getInstance("X.509")
                    .generateCertificates(java.nio.file.Files.newInputStream(caFile))) {
                anchors.setCertificateEntry("ca-" + i++, certificate);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance("PKIX");
            trust.init(anchors);
            SSLContext context = SSLContext.getInstance("TLSv1.3");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build a test TLS context trusting " + caFile, e);
        }
    }

    /** TLS 1.3 trusting {@code caFile}'s CA (no host-name check) and presenting {@code certFile}'s certificate. */
    static SSLContext socketContext(Path caFile, Path certFile, Path keyFile) {
        TlsMaterial material = TlsMaterial.read(caFile, certFile, keyFile);
        try {
            char[] password = new char[0];
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("me", material.key(), password, material.chain().toArray(X509Certificate[]::new));
            KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(keys, password);
            KeyStore anchors = KeyStore.getInstance("PKCS12");
            anchors.load(null, null);
            for (int i = 0; i < material.authorities().size(); i++) {
                anchors.setCertificateEntry("ca-" + i, material.authorities().get(i));
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance("PKIX");
            trust.init(anchors);
            SSLContext context = SSLContext.getInstance("TLSv1.3");
            context.init(keyManagers.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build a test TLS context from " + certFile, e);
        }
    }
}
