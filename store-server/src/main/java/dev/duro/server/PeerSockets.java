package dev.duro.server;

import dev.duro.server.tls.NodeTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import javax.annotation.Nullable;
import javax.net.ssl.SSLSocket;

/**
 * Blocking connections from this node to another node's endpoint, for the exchanges that stream or wait on their
 * own socket (a snapshot fetch, the auth record read from a replica of its partition): over TLS when the node has
 * it, presenting this node's certificate and accepting only the node dialled (docs/security.md).
 */
final class PeerSockets {
    private PeerSockets() {}

    /** A socket connected to {@code node}'s endpoint at {@code address}, its TLS handshake (if any) done. */
    static Socket connect(@Nullable NodeTls tls, String node, ServerConfig.HostPort address, int connectTimeoutMillis)
            throws IOException {
        Socket socket = tls == null
                ? new Socket()
                : tls.peerSockets(node).getSocketFactory().createSocket();
        try {
            socket.connect(new InetSocketAddress(address.host(), address.port()), connectTimeoutMillis);
            if (socket instanceof SSLSocket secure) {
                secure.setEnabledProtocols(new String[] {NodeTls.PROTOCOL});
                secure.startHandshake(); // fails here, naming the reason, if the certificate is not the node's own
            }
            return socket;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }
}
