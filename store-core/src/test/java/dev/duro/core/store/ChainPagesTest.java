package dev.duro.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.SeededRuns;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The pages of keys hold exactly the keys added and not removed, each chain knows its place, and an image reads, for
 * as long as it is open, the places as they were at its freeze, through additions and removals that cross pages.
 * The collection queue's images likewise keep the entries queued at their freeze, while entries leave and blocks
 * are dropped.
 */
class ChainPagesTest {
    private record Held(Bytes key, VersionChain chain) {}

    private record OpenImage(ChainPages.Image image, List<Held> atFreeze) {}

    @Test
    void imagesKeepTheirPlacesWhileKeysComeAndGo() {
        SeededRuns.forSeeds(52_000, 60, random -> run(random, 3 * ChainPages.PAGE_SIZE + random.nextInt(4000)));
    }

    private static void run(Random random, int keySpace) {
        ChainPages pages = new ChainPages();
        Map<Bytes, VersionChain> live = new HashMap<>();
        List<Bytes> present = new ArrayList<>();
        List<OpenImage> open = new ArrayList<>();
        int steps = 20_000;
        for (int step = 0; step < steps; step++) {
            int roll = random.nextInt(1000);
            if (roll < 3) {
                open.add(new OpenImage(pages.freeze(), contents(pages)));
            } else if (roll < 6 && !open.isEmpty()) {
                OpenImage closing = open.remove(random.nextInt(open.size()));
                assertImageUnchanged(closing);
                pages.thaw();
            } else if (roll < 560 || present.isEmpty()) { // grows at first, then mostly holds its size
                Bytes key = Bytes.utf8("k" + random.nextInt(keySpace));
                if (!live.containsKey(key)) {
                    VersionChain chain = new VersionChain(key, step + 1, key);
                    live.put(key, chain);
                    present.add(key);
                    pages.add(key, chain);
                }
            } else {
                int at = random.nextInt(present.size());
                Bytes key = present.get(at);
                present.set(at, present.get(present.size() - 1));
                present.remove(present.size() - 1);
                pages.remove(live.remove(key));
            }
            if (step % 997 == 0) {
                assertMatches(pages, live);
                open.forEach(ChainPagesTest::assertImageUnchanged);
            }
        }
        assertMatches(pages, live);
        for (OpenImage image : open) {
            assertImageUnchanged(image);
            pages.thaw();
        }
        assertThrows(IllegalStateException.class, pages::thaw);
    }

    private static List<Held> contents(ChainPages pages) {
        ChainPages.Image now = pages.freeze();
        pages.thaw();
        List<Held> held = new ArrayList<>(now.size());
        for (int place = 0; place < now.size(); place++) {
            held.add(new Held(now.keyAt(place), now.chainAt(place)));
        }
        return held;
    }

    private static void assertMatches(ChainPages pages, Map<Bytes, VersionChain> live) {
        List<Held> held = contents(pages);
        assertEquals(live.size(), held.size());
        int needed = (live.size() + ChainPages.PAGE_SIZE - 1) / ChainPages.PAGE_SIZE;
        assertTrue(pages.allocatedPages() <= needed + 1, pages.allocatedPages() + " pages hold " + live.size());
        for (int place = 0; place < held.size(); place++) {
            Held entry = held.get(place);
            assertSame(live.get(entry.key()), entry.chain(), "the key's own chain");
            assertEquals(place, entry.chain().place, "a chain knows its place");
        }
    }

    private static void assertImageUnchanged(OpenImage open) {
        assertEquals(open.atFreeze().size(), open.image().size());
        for (int place = 0; place < open.atFreeze().size(); place++) {
            Held entry = open.atFreeze().get(place);
            assertSame(entry.key(), open.image().keyAt(place), "key at place " + place);
            assertSame(entry.chain(), open.image().chainAt(place), "chain at place " + place);
        }
    }

    @Test
    void pagesEmptiedByRemovalsAreGivenBackAndImagesKeepThem() {
        ChainPages pages = new ChainPages();
        List<VersionChain> chains = new ArrayList<>();
        for (int i = 0; i < 10 * ChainPages.PAGE_SIZE + 7; i++) {
            Bytes key = Bytes.utf8("k" + i);
            VersionChain chain = new VersionChain(key, 1, null);
            chains.add(chain);
            pages.add(key, chain);
        }
        assertEquals(11, pages.allocatedPages());
        OpenImage open = new OpenImage(pages.freeze(), contents(pages));
        for (int i = chains.size() - 1; i >= 0; i--) {
            pages.remove(chains.get(i));
            int needed = (pages.size() + ChainPages.PAGE_SIZE - 1) / ChainPages.PAGE_SIZE;
            assertTrue(pages.allocatedPages() <= needed + 1, pages.allocatedPages() + " pages for " + pages.size());
        }
        assertEquals(1, pages.allocatedPages(), "one empty page is kept for the next key");
        assertImageUnchanged(open);
        pages.thaw();
    }

    @Test
    void queueImagesKeepTheirEntriesWhileEntriesLeave() {
        SeededRuns.forSeeds(53_000, 40, ChainPagesTest::runQueue);
    }

    private record Queued(Bytes key, long version) {}

    private static void runQueue(Random random) {
        CollectionQueue queue = new CollectionQueue();
        ArrayDeque<Queued> naive = new ArrayDeque<>();
        List<CollectionQueue.Image> images = new ArrayList<>();
        List<List<Queued>> atFreeze = new ArrayList<>();
        long version = 0;
        Map<Bytes, VersionChain> chains = new HashMap<>();
        for (int step = 0; step < 5_000; step++) {
            int roll = random.nextInt(200);
            if (roll == 0) {
                images.add(queue.freeze());
                atFreeze.add(List.copyOf(naive));
            } else if (roll < 102) {
                // bursts that cross blocks, and drains that empty the queue now and then
                for (int n = random.nextInt(random.nextInt(20) == 0 ? 3000 : 4); n >= 0; n--) {
                    VersionChain chain = chains.computeIfAbsent(
                            Bytes.utf8("k" + random.nextInt(100)), k -> new VersionChain(k, 1, null));
                    queue.addLast(chain, ++version);
                    naive.add(new Queued(chain.key, version));
                }
            } else {
                for (int n = random.nextInt(random.nextInt(20) == 0 ? 3000 : 5); n >= 0 && !naive.isEmpty(); n--) {
                    Queued first = naive.removeFirst();
                    assertEquals(first.version(), queue.firstVersion());
                    assertSame(first.key(), queue.firstChain().key);
                    queue.removeFirst();
                }
            }
            assertEquals(naive.size(), queue.size());
        }
        assertThrows(IllegalStateException.class, () -> {
            while (true) {
                queue.removeFirst();
            }
        });
        for (int i = 0; i < images.size(); i++) {
            CollectionQueue.Image image = images.get(i);
            List<Queued> expected = atFreeze.get(i);
            assertEquals(expected.size(), image.size());
            for (int at = 0; at < expected.size(); at++) {
                assertSame(expected.get(at).key(), image.keyAt(at));
                assertEquals(expected.get(at).version(), image.versionAt(at));
            }
        }
    }
}
