package dev.duro.server;

import dev.duro.server.tls.PeerIdentity;
import dev.duro.server.tls.TlsMaterial;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * A node's {@code tls.*} settings as {@link ServerConfig} reads them: the CA, certificate and key files read and
 * checked against each other and against the node's id, every problem reported to the {@link ConfigParser} under
 * its key. What the files are used for is the {@code tls} package's.
 */
final class ConfiguredTls {
    private ConfiguredTls() {}

    /**
     * The TLS files, all three or none (null: TLS off, or a problem reported to {@code in}); read and checked now,
     * so that a missing or unusable file, or a certificate that is not this node's or not the CA's, stops the node
     * at start naming the setting.
     */
    static @Nullable TlsMaterial read(ConfigParser in, @Nullable String nodeId) {
        List<Settings.Text> settings = List.of(Settings.TLS_CA_FILE, Settings.TLS_CERT_FILE, Settings.TLS_KEY_FILE);
        List<String> missing = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        for (Settings.Text setting : settings) {
            String value = in.optional(setting);
            if (value == null) {
                missing.add(setting.key());
            } else {
                files.add(Path.of(value));
            }
        }
        if (missing.size() == settings.size()) {
            return null;
        }
        if (!missing.isEmpty()) {
            for (String key : missing) {
                in.problem(
                        key,
                        "is required when any tls.* setting is given (all of tls.ca-file, tls.cert-file and"
                                + " tls.key-file, or none)");
            }
            return null;
        }
        TlsMaterial material;
        try {
            material = TlsMaterial.read(files.get(0), files.get(1), files.get(2));
        } catch (TlsMaterial.BadFileException e) {
            in.problem(e.setting(), e.getMessage().substring(e.setting().length() + 1));
            return null;
        }
        X509Certificate certificate = material.certificate();
        String name = PeerIdentity.commonName(certificate);
        if (nodeId != null && !name.equals(PeerIdentity.NODE_PREFIX + nodeId)) {
            in.problem(
                    Settings.TLS_CERT_FILE.key(),
                    "names '" + name + "'; node " + nodeId + " needs a certificate with subject CN="
                            + PeerIdentity.NODE_PREFIX + nodeId + " (docs/security.md)");
        }
        if (!material.keyMatchesCertificate()) {
            in.problem(
                    Settings.TLS_KEY_FILE.key(),
                    "(" + files.get(2) + ") is not the private key of tls.cert-file (" + files.get(1) + ")");
        }
        if (!issuedByAny(certificate, material.authorities())) {
            in.problem(
                    Settings.TLS_CERT_FILE.key(),
                    "(" + files.get(1) + ") is not signed by a certificate of tls.ca-file (" + files.get(0) + ")");
        }
        return material;
    }

    private static boolean issuedByAny(X509Certificate certificate, List<X509Certificate> authorities) {
        for (X509Certificate authority : authorities) {
            try {
                certificate.verify(authority.getPublicKey());
                return true;
            } catch (GeneralSecurityException e) {
                // Not this one: try the next.
            }
        }
        return false;
    }
}
