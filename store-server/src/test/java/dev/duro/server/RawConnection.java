package dev.duro.server;

import dev.duro.core.Limits;
import dev.duro.core.node.PeerMessageCodec;
import dev.duro.core.wire.ClientRequest;
import dev.duro.core.wire.Message;
import dev.duro.core.wire.ServerReply;
import dev.duro.core.wire.WireCodec;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import javax.annotation.Nullable;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A plain blocking socket speaking Duro's framing by hand (4-byte big-endian length, then one {@link WireCodec}
 * frame), so tests can send exactly the bytes they want — well-formed or not — and read what comes back.
 * One request at a time.
 */
final class RawConnection implements AutoCloseable {
    private static final int READ_TIMEOUT_MILLIS = 30_000;

    private final WireCodec codec = PeerMessageCodec.wireCodec(Limits.DEFAULT);
    private final Socket socket;
    private final DataOutputStream out;
    private final DataInputStream in;

    RawConnection(ServerConfig.HostPort address) throws IOException {
        this(address, null);
    }

    /** A connection over TLS 1.3 with {@code tls}'s certificate and trust, or plaintext if it is null. */
    RawConnection(ServerConfig.HostPort address, @Nullable SSLContext tls) throws IOException {
        socket = tls == null ? new Socket() : tls.getSocketFactory().createSocket();
        socket.connect(new InetSocketAddress(address.host(), address.port()), READ_TIMEOUT_MILLIS);
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        if (socket instanceof SSLSocket secure) {
            secure.startHandshake();
        }
        socket.setTcpNoDelay(true);
        out = new DataOutputStream(socket.getOutputStream());
        in = new DataInputStream(socket.getInputStream());
    }

    /** Encodes {@code message} without applying any limit (as an encoder does) and sends it as one frame. */
    void send(Message message) throws IOException {
        sendFrame(codec.encode(message));
    }

    /** Sends {@code body} behind a correct length prefix. */
    void sendFrame(byte[] body) throws IOException {
        sendBytes(ByteBuffer.allocate(4 + body.length)
                .putInt(body.length)
                .put(body)
                .array());
    }

    /** Sends bytes as they are: the caller writes the length prefix, or a wrong one. */
    void sendBytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads the next frame and decodes it, whatever it is (a server reply, or a peer's answer to a peer message). */
    Message receiveMessage() throws IOException {
        int length = in.readInt();
        byte[] frame = new byte[length];
        in.readFully(frame);
        return codec.decode(frame);
    }

    /** Reads the next frame and decodes it as a server reply. */
    ServerReply receive() throws IOException {
        Message message = receiveMessage();
        if (message instanceof ServerReply reply) {
            return reply;
        }
        throw new AssertionError("expected a server reply, got " + message.type());
    }

    /** Sends a request and returns the reply, which must answer it. */
    ServerReply call(ClientRequest request) throws IOException {
        send(request);
        ServerReply reply = receive();
        if (reply.requestId() != request.requestId()) {
            throw new AssertionError("reply " + reply + " does not answer request " + request.requestId());
        }
        return reply;
    }

    /** Whether the server closed the connection: the next read finds the end of the stream. */
    boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (EOFException | SocketTimeoutException e) {
            return e instanceof EOFException;
        } catch (IOException e) {
            return true; // reset by the peer
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
