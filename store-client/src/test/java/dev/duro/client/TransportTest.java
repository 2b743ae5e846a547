package dev.duro.client;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The client's I/O threads run on epoll wherever the project ships its native library. */
class TransportTest {
    @Test
    void usesEpollOnLinuxForTheProcessorsItsNativeLibraryIsShippedFor() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        assumeTrue(os.contains("linux") && Set.of("amd64", "aarch64").contains(arch), "not " + os + "/" + arch);
        assertTrue(Epoll.isAvailable(), () -> "epoll does not load: " + Epoll.unavailabilityCause());
        Transport transport = new Transport(1, Duration.ofSeconds(1), 1 << 20, null, null);
        try {
            assertTrue(transport.onEpoll(), "the client's I/O threads run on epoll");
        } finally {
            transport.close();
        }
    }
}
