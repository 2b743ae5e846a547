package dev.duro.consensus;

import javax.annotation.Nullable;
import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslProvider;

/**
 * Mutual TLS 1.3 on every Raft (gRPC) link of a node: its server, admin and client services, and the clients it
 * opens to propose and read. Both sides present {@code keyManager}'s certificate and check the other's with
 * {@code trustManager}, which the node builds to accept only certificates of its cluster's CA that name a
 * configured node (docs/security.md). The JDK's TLS provider, like the node's other links.
 */
public record RaftTls(KeyManager keyManager, TrustManager trustManager) {
    private static final String PROTOCOL = "TLSv1.3";

    /** Ratis's parameters carrying the TLS configuration; empty (plaintext) for {@code tls == null}. */
    static Parameters parameters(@Nullable RaftTls tls) {
        Parameters parameters = new Parameters();
        if (tls == null) {
            return parameters;
        }
        GrpcTlsConfig config = GrpcTlsConfig.newBuilder()
                .setKeyManager(tls.keyManager())
                .setTrustManager(tls.trustManager())
                .setMutualTls(true)
                .setSslProvider(SslProvider.JDK)
                .setProtocols(PROTOCOL)
                .build();
        GrpcConfigKeys.TLS.setConf(parameters, config);
        GrpcConfigKeys.Server.setTlsConf(parameters, config);
        GrpcConfigKeys.Admin.setTlsConf(parameters, config);
        GrpcConfigKeys.Client.setTlsConf(parameters, config);
        return parameters;
    }
}
