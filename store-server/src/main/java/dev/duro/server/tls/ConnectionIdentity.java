package dev.duro.server.tls;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.AttributeKey;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The verified identity of each connection to a node's endpoint, kept in the channel's {@link #KEY} attribute for
 * whatever decides what the connection may do (peer messages here; authorization of clients later). With TLS it is
 * set when the handshake finishes, from the certificate the other side presented; without TLS every connection is
 * {@link PeerIdentity#ANONYMOUS}.
 */
public final class ConnectionIdentity {
    /** The connection's {@link PeerIdentity}. */
    public static final AttributeKey<PeerIdentity> KEY = AttributeKey.valueOf("duro.peer-identity");

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionIdentity.class);

    private ConnectionIdentity() {}

    /**
     * Installs TLS at the head of a new connection's pipeline when {@code tls} is given, and what records the
     * connection's identity; with TLS off the identity is anonymous at once.
     */
    public static void install(ChannelPipeline pipeline, @Nullable NodeTls tls) {
        Channel channel = pipeline.channel();
        if (tls == null) {
            channel.attr(KEY).set(PeerIdentity.ANONYMOUS);
            return;
        }
        pipeline.addLast("tls", tls.server().newHandler(channel.alloc()));
        pipeline.addLast("identity", new Recorder(tls));
    }

    /**
     * The identity of {@code channel}: the one recorded at the handshake; for a frame that overtook the handshake's
     * event, the one its finished session proves; anonymous when it has no TLS.
     */
    public static PeerIdentity of(Channel channel) {
        PeerIdentity identity = channel.attr(KEY).get();
        if (identity != null) {
            return identity;
        }
        Recorder recorder = channel.pipeline().get(Recorder.class);
        SslHandler ssl = channel.pipeline().get(SslHandler.class);
        if (recorder == null || ssl == null || !ssl.handshakeFuture().isSuccess()) {
            return PeerIdentity.ANONYMOUS;
        }
        identity = recorder.tls.identify(ssl.engine().getSession());
        channel.attr(KEY).setIfAbsent(identity);
        return channel.attr(KEY).get();
    }

    private static final class Recorder extends ChannelInboundHandlerAdapter {
        final NodeTls tls;

        Recorder(NodeTls tls) {
            this.tls = tls;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext context, Object event) throws Exception {
            if (event instanceof SslHandshakeCompletionEvent completion) {
                if (completion.isSuccess()) {
                    SslHandler ssl = context.pipeline().get(SslHandler.class);
                    context.channel()
                            .attr(KEY)
                            .setIfAbsent(tls.identify(ssl.engine().getSession()));
                } else {
                    // A plaintext client, a certificate of another CA, an expired one: the handshake said why.
                    LOG.info(
                            "TLS handshake with {} failed: {}",
                            context.channel().remoteAddress(),
                            completion.cause().toString());
                }
            }
            super.userEventTriggered(context, event);
        }
    }
}
