package dev.duro.consensus;

import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcFactory;
import org.apache.ratis.rpc.RpcFactory;
import org.apache.ratis.rpc.RpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.leader.FollowerInfo;
import org.apache.ratis.server.leader.LeaderState;
import org.apache.ratis.server.leader.LogAppender;

/**
 * The Raft transport of Duro's servers: Ratis's gRPC, whose leaders replicate through {@link DuroLogAppender}. Ratis
 * finds it by its class name in its properties ({@link RatisProperties}) and makes it with the public no-argument
 * constructor.
 */
public final class DuroRpcType implements RpcType {
    public DuroRpcType() {}

    @Override
    public String name() {
        return DuroRpcType.class.getName();
    }

    @Override
    public RpcFactory newFactory(Parameters parameters) {
        return new Factory(parameters);
    }

    /** Ratis's gRPC factory (TLS from the same parameters), but for the leaders' appenders. */
    private static final class Factory extends GrpcFactory {
        Factory(Parameters parameters) {
            super(parameters);
        }

        @Override
        public LogAppender newLogAppender(RaftServer.Division server, LeaderState state, FollowerInfo follower) {
            return new DuroLogAppender(server, state, follower);
        }
    }
}
