package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.junit.jupiter.api.Test;

/** How the etcd baseline reads a member's {@code /health} answer. */
class EtcdClusterTest {
    @Test
    void aMemberIsHealthyOnlyWhenItsAnswerSaysSo() throws JsonProcessingException {
        assertTrue(EtcdCluster.reportsHealthy("{\"health\":\"true\",\"reason\":\"\"}"));
        assertTrue(EtcdCluster.reportsHealthy("{ \"health\" : \"true\" }"));
        assertFalse(EtcdCluster.reportsHealthy("{\"health\":\"false\",\"reason\":\"RAFT NO LEADER\"}"));
        assertFalse(EtcdCluster.reportsHealthy("{}"));
    }

    @Test
    void anAnswerThatIsNotJsonIsAnError() {
        assertThrows(JsonProcessingException.class, () -> EtcdCluster.reportsHealthy("<html>proxy error</html>"));
    }
}
