package dev.duro.server.auth;

import dev.duro.core.Bytes;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.codec.UnsupportedVersionException;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The auth record's bytes (docs/auth.md, "The record"). Versioned on its own: the record outlives releases like
 * the log does. Decoding accepts any bytes and yields a table or a {@link MalformedInputException} /
 * {@link UnsupportedVersionException}; counts are checked against the bytes left before anything is allocated.
 */
public final class AuthTableCodec {
    public static final int FORMAT = 1;
    private static final int SALT_BYTES_MAX = 1024;
    private static final int HASH_BYTES_MAX = 1024;
    private static final int PREFIX_BYTES_MAX = 1 << 20;

    private AuthTableCodec() {}

    public static byte[] encode(AuthTable table) {
        ByteWriter out = new ByteWriter();
        out.writeByte(FORMAT);
        out.writeBoolean(table.enabled());
        out.writeVarLong(table.users().size());
        for (AuthTable.User user : table.users().values()) {
            out.writeUtf8(user.name());
            PasswordHash password = user.password();
            out.writeBoolean(password != null);
            if (password != null) {
                out.writeBytes(password.salt());
                out.writeVarLong(password.iterations());
                out.writeBytes(password.hash());
            }
            out.writeVarLong(user.roles().size());
            for (String role : user.roles()) {
                out.writeUtf8(role);
            }
        }
        out.writeVarLong(table.roles().size());
        table.roles().forEach((role, grants) -> {
            out.writeUtf8(role);
            out.writeVarLong(grants.size());
            for (Grant grant : grants) {
                out.writeBytes(grant.prefix());
                out.writeByte(grant.permission().code());
            }
        });
        return out.toByteArray();
    }

    public static AuthTable decode(byte[] bytes) {
        ByteReader in = new ByteReader(bytes);
        if (!in.hasRemaining()) {
            throw new MalformedInputException("empty auth record");
        }
        int format = in.readByte();
        if (format != FORMAT) {
            throw new UnsupportedVersionException("auth record", format, FORMAT);
        }
        boolean enabled = in.readBoolean();
        SortedMap<String, AuthTable.User> users = new TreeMap<>();
        for (int i = in.readLength("user count"); i > 0; i--) {
            String name = name(in, "user name");
            PasswordHash password = null;
            if (in.readBoolean()) {
                Bytes salt = in.readBytes(SALT_BYTES_MAX, "salt");
                int iterations = in.readVarInt(Integer.MAX_VALUE, "iterations");
                Bytes hash = in.readBytes(HASH_BYTES_MAX, "hash");
                if (iterations == 0 || salt.size() == 0 || hash.size() == 0) {
                    throw new MalformedInputException("user " + name + " has an empty password hash");
                }
                password = new PasswordHash(salt, iterations, hash);
            }
            SortedSet<String> roles = new TreeSet<>();
            for (int r = in.readLength("role count"); r > 0; r--) {
                roles.add(name(in, "role name"));
            }
            if (users.put(name, new AuthTable.User(name, password, roles)) != null) {
                throw new MalformedInputException("user " + name + " appears twice");
            }
        }
        SortedMap<String, List<Grant>> roles = new TreeMap<>();
        for (int i = in.readLength("role count"); i > 0; i--) {
            String role = name(in, "role name");
            int count = in.readLength("grant count");
            List<Grant> grants = new ArrayList<>(count);
            for (int g = 0; g < count; g++) {
                Bytes prefix = in.readBytes(PREFIX_BYTES_MAX, "grant prefix");
                int code = in.readByte();
                Permission permission = Permission.fromCode(code);
                if (permission == null) {
                    throw new MalformedInputException("unknown permission code " + code);
                }
                grants.add(new Grant(prefix, permission));
            }
            if (roles.put(role, grants) != null) {
                throw new MalformedInputException("role " + role + " appears twice");
            }
        }
        in.expectEnd("auth record");
        return new AuthTable(enabled, users, roles);
    }

    private static String name(ByteReader in, String what) {
        return in.readUtf8(4 * AuthTable.NAME_MAX_CHARS, what);
    }
}
