package dev.duro.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RaftMetricsTest {
    @Test
    void ratisNamesBecomeSnakeCasePrometheusWords() {
        assertEquals("append_entry_latency", RaftMetrics.snake("appendEntryLatency"));
        assertEquals(
                "num_watch_all_committed_request_timeout", RaftMetrics.snake("numWatch-ALL_COMMITTEDRequestTimeout"));
        assertEquals("follower_match_index", RaftMetrics.snake("follower_match_index"));
        assertEquals("closed_segments_size_in_bytes", RaftMetrics.snake("closedSegmentsSizeInBytes"));
        assertEquals("grpc_calls_started", RaftMetrics.snake("grpc_calls_started"));
        assertEquals("a1_b", RaftMetrics.snake("-a1B-"));
    }
}
