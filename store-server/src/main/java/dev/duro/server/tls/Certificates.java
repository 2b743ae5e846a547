package dev.duro.server.tls;

import java.io.IOException;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Issues the certificates of a Duro cluster with BouncyCastle: a certificate authority, node certificates
 * (subject {@code CN=node:<id>}, usable as TLS server and client) and client certificates ({@code CN=<name>}), all
 * with EC P-256 keys, written as PEM files (docs/security.md, "Certificates"). Validity is given, never read from a
 * clock here, so that tests can issue certificates that have expired or are not yet valid.
 */
public final class Certificates {
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Certificates() {}

    /** A certificate and its private key. */
    public record Issued(X509Certificate certificate, PrivateKey key) {}

    /** A self-signed certificate authority named {@code CN=<name>}, valid in {@code [notBefore, notAfter]}. */
    public static Issued newAuthority(String name, Instant notBefore, Instant notAfter) {
        KeyPair keys = newKeyPair();
        X500Principal subject = new X500Principal("CN=" + name);
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                            subject, serial(), Date.from(notBefore), Date.from(notAfter), subject, keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(
                            Extension.subjectKeyIdentifier,
                            false,
                            extensions.createSubjectKeyIdentifier(keys.getPublic()));
            return new Issued(sign(builder, keys.getPrivate()), keys.getPrivate());
        } catch (GeneralSecurityException | CertIOException e) {
            throw new IllegalStateException("cannot issue the certificate authority " + name, e);
        }
    }

    /**
     * A node's certificate: subject {@code CN=node:<id>}, for TLS servers and clients (a node is both), with the node
     * id, {@code localhost} and 127.0.0.1 as subject alternative names for tools that check host names.
     */
    public static Issued issueNode(Issued authority, String nodeId, Instant notBefore, Instant notAfter) {
        List<GeneralName> names = new ArrayList<>();
        names.add(new GeneralName(GeneralName.dNSName, nodeId));
        names.add(new GeneralName(GeneralName.dNSName, "localhost"));
        names.add(new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
        return issue(
                authority,
                PeerIdentity.NODE_PREFIX + nodeId,
                new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth},
                names,
                notBefore,
                notAfter);
    }

    /** A client's certificate: subject {@code CN=<principal>}, for TLS clients only. */
    public static Issued issueClient(Issued authority, String principal, Instant notBefore, Instant notAfter) {
        if (principal.startsWith(PeerIdentity.NODE_PREFIX)) {
            throw new IllegalArgumentException("a client name must not start with '" + PeerIdentity.NODE_PREFIX
                    + "' (node certificates do): " + principal);
        }
        return issue(
                authority,
                principal,
                new KeyPurposeId[] {KeyPurposeId.id_kp_clientAuth},
                List.of(),
                notBefore,
                notAfter);
    }

    private static Issued issue(
            Issued authority,
            String commonName,
            KeyPurposeId[] purposes,
            List<GeneralName> alternativeNames,
            Instant notBefore,
            Instant notAfter) {
        if (commonName.isEmpty() || commonName.matches(".*[,+=\"\\\\<>;#].*")) {
            throw new IllegalArgumentException(
                    "a certificate name must be non-empty without , + = \" \\ < > ; #: '" + commonName + "'");
        }
        KeyPair keys = newKeyPair();
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                            authority.certificate(),
                            serial(),
                            Date.from(notBefore),
                            Date.from(notAfter),
                            new X500Principal("CN=" + commonName),
                            keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(
                            Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purposes))
                    .addExtension(
                            Extension.authorityKeyIdentifier,
                            false,
                            extensions.createAuthorityKeyIdentifier(authority.certificate()))
                    .addExtension(
                            Extension.subjectKeyIdentifier,
                            false,
                            extensions.createSubjectKeyIdentifier(keys.getPublic()));
            if (!alternativeNames.isEmpty()) {
                builder.addExtension(
                        Extension.subjectAlternativeName,
                        false,
                        new GeneralNames(alternativeNames.toArray(GeneralName[]::new)));
            }
            return new Issued(sign(builder, authority.key()), keys.getPrivate());
        } catch (GeneralSecurityException | CertIOException e) {
            throw new IllegalStateException("cannot issue a certificate for " + commonName, e);
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey issuerKey)
            throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(issuerKey)));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("cannot sign with " + SIGNATURE, e);
        }
    }

    private static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java platform has EC P-256", e);
        }
    }

    private static BigInteger serial() {
        return new BigInteger(127, RANDOM).add(BigInteger.ONE); // positive, unpredictable, unique in practice
    }

    /** Writes the certificate as PEM, replacing {@code file} atomically. */
    public static void writeCertificate(Path file, X509Certificate certificate) throws IOException {
        writeAtomically(file, false, writer -> writer.writeObject(certificate));
    }

    /** Writes the key as unencrypted PKCS#8 PEM ({@code PRIVATE KEY}), readable by its owner only. */
    public static void writeKey(Path file, PrivateKey key) throws IOException {
        writeAtomically(file, true, writer -> writer.writeObject(new JcaPKCS8Generator(key, null)));
    }

    /** Writes {@code issued}'s certificate to {@code certificateFile} and its key to {@code keyFile}. */
    public static void write(Issued issued, Path certificateFile, Path keyFile) throws IOException {
        writeKey(keyFile, issued.key());
        writeCertificate(certificateFile, issued.certificate());
    }

    private interface PemContent {
        void writeTo(JcaPEMWriter writer) throws IOException;
    }

    // A node that restarts while its files are replaced (a rotation) reads the old file or the new one, never half.
    private static void writeAtomically(Path file, boolean secret, PemContent content) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        Path temporary = Files.createTempFile(directory, file.getFileName().toString(), ".tmp");
        try {
            // A temporary file starts readable by its owner only: right for a key, while a certificate is public.
            setPermissions(temporary, secret ? "rw-------" : "rw-r--r--");
            try (Writer out = Files.newBufferedWriter(temporary, StandardCharsets.US_ASCII);
                    JcaPEMWriter writer = new JcaPEMWriter(out)) {
                content.writeTo(writer);
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static void setPermissions(Path file, String permissions) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system: the directory's own permissions protect the key.
        }
    }
}
