package dev.duro.server;

import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.LogContext;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.consensus.SnapshotFetcher;
import dev.duro.consensus.SnapshotFile;
import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.Message;
import dev.duro.core.wire.SnapshotFetchRequest;
import dev.duro.core.wire.SnapshotOffer;
import dev.duro.core.wire.WireCodec;
import dev.duro.server.tls.NodeTls;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.DefaultFileRegion;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.stream.ChunkedNioFile;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies partition snapshots between nodes over the nodes' client port (docs/replication.md, "Catching up from a
 * snapshot"). A replica behind its leader's purged log opens a connection of its own to the leader's node, sends
 * one {@link SnapshotFetchRequest} and reads a {@link SnapshotOffer} followed by the snapshot's bytes; the leader's
 * node sends the file straight from disk ({@link DefaultFileRegion}) and closes the connection. Neither side holds
 * more than a buffer of the snapshot in memory, whatever its size and the network's speed. With TLS the fetch
 * presents this node's certificate and accepts only the leader node's; the serving node answers only cluster nodes
 * ({@code MessageHandler}), and sends the file through the TLS handler instead of straight from disk.
 */
final class SnapshotTransfer implements SnapshotFetcher {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotTransfer.class);
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    /** A fetch fails when nothing arrives for this long; Ratis then asks for another. */
    private static final int SILENCE_MAX_MILLIS = 30_000;

    private static final int BUFFER_BYTES = 1 << 20;
    private static final int TLS_CHUNK_BYTES = 64 << 10;
    private static final long PROGRESS_EVERY_BYTES = 256L << 20;

    private final String nodeId;
    private final WireCodec codec;
    private final Map<String, ServerConfig.Node> nodes;
    private final int frameBytesMax;
    private final Supplier<ConsensusNode> consensus;
    private final @Nullable NodeTls tls;

    SnapshotTransfer(
            String nodeId,
            WireCodec codec,
            Map<String, ServerConfig.Node> nodes,
            int frameBytesMax,
            Supplier<ConsensusNode> consensus,
            @Nullable NodeTls tls) {
        this.nodeId = nodeId;
        this.codec = codec;
        this.nodes = Map.copyOf(nodes);
        this.frameBytesMax = frameBytesMax;
        this.consensus = consensus;
        this.tls = tls;
    }

    // ---- the node that has the snapshot ----

    /** Answers a fetch on its connection: the offer and the file, then the connection closes; or an error. */
    void serve(ChannelHandlerContext context, SnapshotFetchRequest request) {
        // An event loop of the node's, shared by every partition: the partition's context for this answer only.
        LogContext.Scope logContext = LogContext.partition(nodeId, request.partition());
        try {
            answer(context, request);
        } finally {
            logContext.close();
        }
    }

    private void answer(ChannelHandlerContext context, SnapshotFetchRequest request) {
        long requestId = request.requestId();
        int partition = request.partition();
        ConsensusNode node = consensus.get();
        PartitionStateMachine replica = node == null ? null : node.replica(partition);
        if (replica == null) {
            refuse(
                    context,
                    requestId,
                    ErrorCode.UNKNOWN_PARTITION,
                    "node " + nodeId + " has no replica of partition " + partition);
            return;
        }
        Optional<SnapshotFile> newest = replica.latestSnapshot();
        if (newest.isEmpty() || newest.get().index() < request.indexMin()) {
            refuse(
                    context,
                    requestId,
                    ErrorCode.SNAPSHOT_NOT_READY,
                    "node " + nodeId + "'s newest snapshot of partition " + partition + " ends at index "
                            + newest.map(SnapshotFile::index).orElse(-1L) + "; the fetch needs "
                            + request.indexMin() + " or later");
            return;
        }
        SnapshotFile snapshot = newest.get();
        FileChannel file;
        long bytes;
        try {
            file = FileChannel.open(snapshot.file(), StandardOpenOption.READ);
            bytes = file.size();
        } catch (IOException e) {
            // A newer snapshot replaced it since: the fetcher asks again.
            refuse(
                    context,
                    requestId,
                    ErrorCode.NOT_READY,
                    "snapshot " + snapshot.file().getFileName() + " of partition " + partition + " is gone: " + e);
            return;
        }
        LOG.info(
                "partition {}: sending the snapshot at (t:{}, i:{}), {} bytes, to {}",
                partition,
                snapshot.term(),
                snapshot.index(),
                bytes,
                context.channel().remoteAddress());
        SnapshotOffer offer = new SnapshotOffer(
                requestId, partition, snapshot.term(), snapshot.index(), bytes, Bytes.wrap(snapshot.md5()));
        context.write(WireFrames.encode(codec, offer));
        // The frame encoder passes a file region or chunked file through untouched; each closes the file once sent.
        // TLS must encrypt the bytes, so they go through the pipeline in chunks instead of straight from disk.
        Object body;
        try {
            body = context.pipeline().get(SslHandler.class) == null
                    ? new DefaultFileRegion(file, 0, bytes)
                    : new ChunkedNioFile(file, 0, bytes, TLS_CHUNK_BYTES);
        } catch (IOException e) {
            refuse(context, requestId, ErrorCode.INTERNAL, "cannot read the snapshot of partition " + partition);
            return;
        }
        context.writeAndFlush(body).addListener(ChannelFutureListener.CLOSE);
    }

    private void refuse(ChannelHandlerContext context, long requestId, ErrorCode code, String message) {
        context.writeAndFlush(WireFrames.encode(codec, new ErrorReply(requestId, code, message)))
                .addListener(ChannelFutureListener.CLOSE);
    }

    // ---- the node that needs it ----

    @Override
    public SnapshotFile fetch(String node, int partition, long indexMin, Path into) throws IOException {
        ServerConfig.Node source = nodes.get(node);
        if (source == null) {
            throw new IOException("no node " + node + " in this cluster's configuration");
        }
        try (Socket socket = PeerSockets.connect(tls, node, source.address(), CONNECT_TIMEOUT_MILLIS)) {
            socket.setSoTimeout(SILENCE_MAX_MILLIS);
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            byte[] request = codec.encode(new SnapshotFetchRequest(1, partition, indexMin));
            out.writeInt(request.length);
            out.write(request);
            out.flush();
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), BUFFER_BYTES));
            SnapshotOffer offer = readOffer(in, node, partition);
            byte[] md5 = copy(in, offer, into, node);
            if (!Arrays.equals(md5, offer.md5().toByteArray())) {
                throw new IOException("the snapshot from " + node + " does not match its digest");
            }
            return new SnapshotFile(into, offer.term(), offer.index(), offer.bytes(), md5);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(into);
            throw e;
        }
    }

    private SnapshotOffer readOffer(DataInputStream in, String node, int partition) throws IOException {
        int length = in.readInt();
        if (length <= 0 || length > frameBytesMax) {
            throw new IOException(node + " answered with a frame of " + length + " bytes");
        }
        Message answer;
        try {
            answer = codec.decode(in.readNBytes(length));
        } catch (DuroException e) {
            throw new IOException(node + "'s answer cannot be read: " + e.getMessage(), e);
        }
        if (answer instanceof ErrorReply error) {
            throw new IOException(node + " refused: " + error.code() + ": " + error.message());
        }
        if (!(answer instanceof SnapshotOffer offer) || offer.partition() != partition) {
            throw new IOException(node + " answered a snapshot fetch with " + answer.type());
        }
        return offer;
    }

    /** Copies the offered bytes to {@code into} and forces them to disk; returns their digest. */
    private static byte[] copy(DataInputStream in, SnapshotOffer offer, Path into, String node) throws IOException {
        MessageDigest md5 = newMd5();
        byte[] buffer = new byte[BUFFER_BYTES];
        long copied = 0;
        long nextProgress = PROGRESS_EVERY_BYTES;
        try (FileChannel file = FileChannel.open(
                into, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            while (copied < offer.bytes()) {
                int read = in.read(buffer, 0, (int) Math.min(buffer.length, offer.bytes() - copied));
                if (read < 0) {
                    throw new EOFException(node + " closed the connection after " + copied + " of " + offer.bytes()
                            + " snapshot bytes");
                }
                md5.update(buffer, 0, read);
                ByteBuffer chunk = ByteBuffer.wrap(buffer, 0, read);
                while (chunk.hasRemaining()) {
                    file.write(chunk);
                }
                copied += read;
                if (copied >= nextProgress) {
                    LOG.info(
                            "partition {}: {} of {} MB of {}'s snapshot copied",
                            offer.partition(),
                            copied >> 20,
                            offer.bytes() >> 20,
                            node);
                    nextProgress += PROGRESS_EVERY_BYTES;
                }
            }
            file.force(true);
        }
        return md5.digest();
    }

    private static MessageDigest newMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has MD5", e);
        }
    }
}
