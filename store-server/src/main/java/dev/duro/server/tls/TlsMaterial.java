package dev.duro.server.tls;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * A node's TLS files, read and checked once at start: the cluster's CA certificates ({@code tls.ca-file}), the
 * node's certificate chain ({@code tls.cert-file}, leaf first) and its private key ({@code tls.key-file}; PKCS#8,
 * or the traditional EC or RSA PEM forms). A file that cannot be read or holds nothing usable is a
 * {@link BadFileException} naming the setting and the file.
 */
public final class TlsMaterial {
    private final List<X509Certificate> authorities;
    private final List<X509Certificate> chain;
    private final PrivateKey key;

    private TlsMaterial(List<X509Certificate> authorities, List<X509Certificate> chain, PrivateKey key) {
        this.authorities = List.copyOf(authorities);
        this.chain = List.copyOf(chain);
        this.key = key;
    }

    /** A TLS file that cannot be used; the message names the setting and the file. */
    public static final class BadFileException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        private final String setting;

        BadFileException(String setting, Path file, String problem) {
            super(setting + " (" + file + ") " + problem);
            this.setting = setting;
        }

        /** The setting whose file it is. */
        public String setting() {
            return setting;
        }

        /** Never null: the message says what went wrong. */
        @Override
        public String getMessage() {
            return Objects.requireNonNull(super.getMessage());
        }
    }

    /** Reads the three files; {@code *Setting} name them in errors. */
    public static TlsMaterial read(Path caFile, Path certFile, Path keyFile) {
        List<X509Certificate> authorities = certificates("tls.ca-file", caFile);
        List<X509Certificate> chain = certificates("tls.cert-file", certFile);
        PrivateKey key = privateKey("tls.key-file", keyFile);
        return new TlsMaterial(authorities, chain, key);
    }

    static List<X509Certificate> certificates(String setting, Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            List<X509Certificate> certificates = new ArrayList<>();
            for (Certificate certificate :
                    CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                certificates.add((X509Certificate) certificate);
            }
            if (certificates.isEmpty()) {
                throw new BadFileException(setting, file, "holds no PEM certificate");
            }
            return certificates;
        } catch (IOException e) {
            throw new BadFileException(setting, file, "cannot be read: " + e);
        } catch (CertificateException e) {
            throw new BadFileException(setting, file, "is not a PEM certificate file: " + e.getMessage());
        }
    }

    static PrivateKey privateKey(String setting, Path file) {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
                PEMParser parser = new PEMParser(reader)) {
            Object object = parser.readObject();
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            if (object instanceof PrivateKeyInfo info) {
                return converter.getPrivateKey(info);
            }
            if (object instanceof PEMKeyPair pair) {
                return converter.getKeyPair(pair).getPrivate();
            }
            throw new BadFileException(
                    setting,
                    file,
                    object == null
                            ? "holds no PEM private key"
                            : "holds a " + object.getClass().getSimpleName()
                                    + ", not an unencrypted private key (PKCS#8 PRIVATE KEY, EC or RSA)");
        } catch (PEMException e) {
            throw new BadFileException(setting, file, "is not a usable PEM private key: " + e.getMessage());
        } catch (IOException e) {
            throw new BadFileException(setting, file, "cannot be read: " + e);
        }
    }

    /** The CA certificates every certificate of the cluster must chain to. */
    public List<X509Certificate> authorities() {
        return authorities;
    }

    /** This node's certificate (the chain's leaf). */
    public X509Certificate certificate() {
        return chain.get(0);
    }

    /**
     * Whether the private key is the certificate's: a signature made with it verifies with the certificate's public
     * key. A mismatch would otherwise only show as failed handshakes.
     */
    public boolean keyMatchesCertificate() {
        String algorithm = key.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256with" + key.getAlgorithm();
        byte[] probe = "duro key check".getBytes(StandardCharsets.US_ASCII);
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate().getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false; // another key type than the certificate's, or one this platform cannot sign with
        }
    }

    /** This node's private key. */
    public PrivateKey key() {
        return key;
    }

    /** This node's certificate chain, leaf first. */
    public List<X509Certificate> chain() {
        return chain;
    }

    KeyManagerFactory keyManagers() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] password = new char[0];
            store.setKeyEntry("node", key, password, chain.toArray(X509Certificate[]::new));
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, password);
            return factory;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException(
                    "tls.key-file does not fit tls.cert-file (or the key type is unsupported): " + e, e);
        }
    }

    /** The JDK's PKIX trust manager over the CA certificates (chain, signatures, validity period). */
    X509TrustManager authorityTrust() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < authorities.size(); i++) {
                store.setCertificateEntry("ca-" + i, authorities.get(i));
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
            factory.init(store);
            for (TrustManager manager : factory.getTrustManagers()) {
                if (manager instanceof X509TrustManager x509) {
                    return x509;
                }
            }
            throw new IllegalStateException("the PKIX trust manager factory made no X509TrustManager");
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("tls.ca-file cannot be used as trust anchors: " + e, e);
        }
    }
}
