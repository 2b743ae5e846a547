package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.server.tls.CertsCommand;
import dev.duro.server.tls.PeerIdentity;
import dev.duro.server.tls.TlsMaterial;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code tls.*} settings, the certificates {@code ./duro certs} writes, and the identities they prove. */
class TlsConfigTest {
    @TempDir
    Path root;

    private Path certificates() throws IOException {
        Instant now = Instant.now();
        Path directory = root.resolve("tls");
        CertsCommand.write(
                directory,
                List.of("n1", "n2"),
                List.of("alice"),
                now.minusSeconds(60),
                now.plusSeconds(3600),
                TlsClusterTest.quiet());
        return directory;
    }

    private static Properties node(String id, Path tls) {
        Properties p = new Properties();
        p.setProperty("cluster.nodes", "n1,n2");
        p.setProperty("node.n1.address", "127.0.0.1:7101");
        p.setProperty("node.n1.raft", "127.0.0.1:7201");
        p.setProperty("node.n2.address", "127.0.0.1:7102");
        p.setProperty("node.n2.raft", "127.0.0.1:7202");
        p.setProperty("node.id", id);
        if (tls != null) {
            p.setProperty("tls.ca-file", tls.resolve("ca.pem").toString());
            p.setProperty("tls.cert-file", tls.resolve(id + ".pem").toString());
            p.setProperty("tls.key-file", tls.resolve(id + "-key.pem").toString());
        }
        return p;
    }

    private static String problems(Properties properties) {
        return assertThrows(ServerConfig.InvalidConfigException.class, () -> ServerConfig.of(properties))
                .getMessage();
    }

    @Test
    void withoutTlsSettingsTlsIsOff() {
        assertNull(ServerConfig.of(node("n1", null)).tls());
    }

    @Test
    void aNodeReadsItsOwnCertificateAndKey() throws IOException {
        ServerConfig config = ServerConfig.of(node("n2", certificates()));
        assertEquals(
                new PeerIdentity.Node("n2"),
                PeerIdentity.of(config.tls().certificate(), config.nodes().keySet()));
    }

    @Test
    void oneTlsSettingWithoutTheOthersNamesEachMissingKey() throws IOException {
        Properties properties = node("n1", certificates());
        properties.remove("tls.key-file");
        properties.remove("tls.ca-file");
        String message = problems(properties);
        assertTrue(message.contains("tls.key-file is required when any tls.* setting is given"), message);
        assertTrue(message.contains("tls.ca-file is required"), message);
    }

    @Test
    void aMissingOrUnreadableFileIsNamedWithItsSetting() throws IOException {
        Path tls = certificates();
        Properties missing = node("n1", tls);
        missing.setProperty("tls.cert-file", tls.resolve("nowhere.pem").toString());
        assertTrue(problems(missing).contains("tls.cert-file (" + tls.resolve("nowhere.pem") + ") cannot be read"));
        Properties notAKey = node("n1", tls);
        notAKey.setProperty("tls.key-file", tls.resolve("n1.pem").toString());
        String message = problems(notAKey);
        assertTrue(message.contains("tls.key-file"), message);
        assertTrue(message.contains("not an unencrypted private key"), message);
    }

    @Test
    void aCertificateOfAnotherNodeIsRefused() throws IOException {
        Properties properties = node("n1", certificates());
        properties.setProperty(
                "tls.cert-file", properties.getProperty("tls.cert-file").replace("n1", "n2"));
        String message = problems(properties);
        assertTrue(
                message.contains(
                        "tls.cert-file names 'node:n2'; node n1 needs a certificate with subject" + " CN=node:n1"),
                message);
    }

    @Test
    void aKeyThatIsNotTheCertificatesIsRefused() throws IOException {
        Properties properties = node("n1", certificates());
        properties.setProperty(
                "tls.key-file", properties.getProperty("tls.key-file").replace("n1", "n2"));
        String message = problems(properties);
        assertTrue(message.contains("tls.key-file"), message);
        assertTrue(message.contains("is not the private key of tls.cert-file"), message);
    }

    @Test
    void aCertificateNotIssuedByTheCaIsRefused() throws IOException {
        Path tls = certificates();
        Instant now = Instant.now();
        Path other = root.resolve("other");
        CertsCommand.write(other, List.of("n1"), List.of(), now, now.plusSeconds(60), TlsClusterTest.quiet());
        Properties properties = node("n1", tls);
        properties.setProperty("tls.cert-file", other.resolve("n1.pem").toString());
        properties.setProperty("tls.key-file", other.resolve("n1-key.pem").toString());
        assertTrue(problems(properties).contains("is not signed by a certificate of tls.ca-file"));
    }

    @Test
    void certsKeepsTheCaOfItsFolderSoThatNewCertificatesRotateUnderIt() throws IOException {
        Path tls = certificates();
        byte[] ca = Files.readAllBytes(tls.resolve(CertsCommand.CA_FILE));
        byte[] n1 = Files.readAllBytes(tls.resolve("n1.pem"));
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        int status = CertsCommand.commandLine(
                        new PrintStream(report, true, StandardCharsets.UTF_8), TlsClusterTest.quiet())
                .execute("--dir", tls.toString(), "--nodes", "n1", "--days", "2");
        assertEquals(0, status);
        assertTrue(report.toString(StandardCharsets.UTF_8).contains("issuing with the existing CA"));
        assertEquals(new String(ca, StandardCharsets.US_ASCII), Files.readString(tls.resolve(CertsCommand.CA_FILE)));
        assertNotEquals(new String(n1, StandardCharsets.US_ASCII), Files.readString(tls.resolve("n1.pem")));
        ServerConfig.of(node("n1", tls)); // the new certificate is the CA's and n1's
    }

    @Test
    void keysAreReadableByTheirOwnerOnlyAndCertificatesByAnyone() throws IOException {
        Path tls = certificates();
        assertEquals(
                "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tls.resolve("n1-key.pem"))));
        assertEquals(
                "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tls.resolve("ca-key.pem"))));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(tls.resolve("n1.pem"))));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(tls.resolve("ca.pem"))));
    }

    @Test
    void certsRefusesABadNameOrValidityNamingTheOption() {
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(errors, true, StandardCharsets.UTF_8);
        assertEquals(
                2,
                CertsCommand.commandLine(TlsClusterTest.quiet(), err)
                        .execute("--dir", root.toString(), "--nodes", "n1", "--clients", "node:x"));
        assertTrue(errors.toString(StandardCharsets.UTF_8).contains("--clients: invalid client name 'node:x'"));
        assertEquals(
                2,
                CertsCommand.commandLine(TlsClusterTest.quiet(), err)
                        .execute("--dir", root.toString(), "--nodes", "n1", "--days", "0"));
        assertTrue(errors.toString(StandardCharsets.UTF_8).contains("--days must be in [1, 36500], was 0"));
    }

    @Test
    void aCertificateNamesANodeOnlyIfTheNodeIsConfigured() throws IOException {
        Path tls = certificates();
        TlsMaterial alice =
                TlsMaterial.read(tls.resolve("ca.pem"), tls.resolve("alice.pem"), tls.resolve("alice-key.pem"));
        TlsMaterial n2 = TlsMaterial.read(tls.resolve("ca.pem"), tls.resolve("n2.pem"), tls.resolve("n2-key.pem"));
        assertEquals(new PeerIdentity.Client("alice"), PeerIdentity.of(alice.certificate(), Set.of("n1", "n2")));
        assertEquals(new PeerIdentity.Node("n2"), PeerIdentity.of(n2.certificate(), Set.of("n1", "n2")));
        assertEquals(new PeerIdentity.Client("node:n2"), PeerIdentity.of(n2.certificate(), Set.of("n1")));
    }
}
