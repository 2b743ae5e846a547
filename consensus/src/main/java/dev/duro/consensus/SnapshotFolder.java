package dev.duro.consensus;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.util.MD5FileUtil;

/**
 * The files of one replica's snapshots, in the folder Ratis gives its state machine: the newest one described for
 * a peer that fetches it, one read back only if it still matches the MD5 digest written beside it, and one fetched
 * from the leader installed as if this replica had written it. What a snapshot holds, and when one is taken, is the
 * {@link PartitionStateMachine}'s business; the {@link SnapshotWriter} writes them.
 */
final class SnapshotFolder {
    /** The file, in the folder, that a snapshot fetched from the leader is copied into before it is installed. */
    static final String FETCHING_FILE = "snapshot.fetching";

    private final int partition;
    private final SimpleStateMachineStorage storage;

    SnapshotFolder(int partition, SimpleStateMachineStorage storage) {
        this.partition = partition;
        this.storage = storage;
    }

    /** The newest complete snapshot, with its digest; empty if there is none (or its digest is missing). */
    Optional<SnapshotFile> newest() {
        SingleFileSnapshotInfo latest = storage.getLatestSnapshot();
        if (latest == null) {
            return Optional.empty();
        }
        FileInfo file = latest.getFile();
        MD5Hash digest = file.getFileDigest();
        if (digest == null) {
            return Optional.empty();
        }
        ByteBuffer md5 = digest.getDigest();
        byte[] md5Bytes = new byte[md5.remaining()];
        md5.get(md5Bytes);
        return Optional.of(
                new SnapshotFile(file.getPath(), latest.getTerm(), latest.getIndex(), file.getFileSize(), md5Bytes));
    }

    /**
     * The whole content of {@code snapshot}, read into memory, refused if its bytes no longer match the MD5 digest
     * written beside it: a damaged file can still decode into a valid state, and a replica restored from it would
     * hold values no peer has. Restoring nothing is safe; the operator removes the replica's data and it catches up
     * from its peers (docs/replication.md).
     */
    byte[] readVerified(SingleFileSnapshotInfo snapshot) throws IOException {
        Path file = snapshot.getFile().getPath();
        byte[] state = Files.readAllBytes(file);
        @Nullable MD5Hash expected = snapshot.getFile().getFileDigest();
        if (expected == null) {
            throw new IOException("partition " + partition + " snapshot " + file + " has no MD5 digest beside it");
        }
        MD5Hash actual;
        try {
            actual = MD5Hash.newInstance(MessageDigest.getInstance("MD5").digest(state));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has MD5", e);
        }
        if (!actual.equals(expected)) {
            throw new IOException("partition " + partition + " snapshot " + file + " is damaged: its MD5 is " + actual
                    + ", the digest written with it " + expected);
        }
        return state;
    }

    /** Where a fetch copies the leader's snapshot; {@link #install} then gives it its name. */
    Path fetchingFile() {
        return folder().resolve(FETCHING_FILE);
    }

    /** Deletes what a fetch copied into {@link #fetchingFile()}, if anything. */
    void discardFetched() throws IOException {
        Files.deleteIfExists(fetchingFile());
    }

    /**
     * Installs the file a fetch copied into {@link #fetchingFile()} as the snapshot {@code fetched} describes, as a
     * written snapshot is: durable with its digest before its name appears ({@link SnapshotWriter}).
     *
     * @throws IOException if it ends before {@code indexMin} (it is then deleted) or cannot be moved into place
     */
    TermIndex install(SnapshotFile fetched, long indexMin) throws IOException {
        Path temporary = fetchingFile();
        if (fetched.index() < indexMin) {
            discardFetched();
            throw new IOException("the snapshot fetched ends at index " + fetched.index() + ", before " + indexMin);
        }
        Path target = storage.getSnapshotFile(fetched.term(), fetched.index()).toPath();
        MD5FileUtil.saveMD5File(target.toFile(), MD5Hash.newInstance(fetched.md5()));
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel folder = FileChannel.open(folder(), StandardOpenOption.READ)) {
            folder.force(true);
        }
        return TermIndex.valueOf(fetched.term(), fetched.index());
    }

    private Path folder() {
        return Objects.requireNonNull(
                storage.getSnapshotFile(0, 0).toPath().getParent(), "a snapshot file lies in a folder");
    }
}
