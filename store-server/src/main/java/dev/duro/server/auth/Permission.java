package dev.duro.server.auth;

import javax.annotation.Nullable;

/** What a grant allows on the keys under its prefix. Codes are part of the auth record's encoding. */
public enum Permission {
    /** Reads, in any kind of transaction; and being in a commit's read set. */
    READ(1, "read"),
    /** Reads and writes. */
    READWRITE(2, "readwrite");

    private final int code;
    private final String word;

    Permission(int code, String word) {
        this.code = code;
        this.word = word;
    }

    public int code() {
        return code;
    }

    /** As the admin commands spell it: {@code read} or {@code readwrite}. */
    public String word() {
        return word;
    }

    public boolean covers(Permission needed) {
        return code >= needed.code;
    }

    public static @Nullable Permission fromCode(int code) {
        for (Permission permission : values()) {
            if (permission.code == code) {
                return permission;
            }
        }
        return null;
    }

    public static @Nullable Permission fromWord(String word) {
        for (Permission permission : values()) {
            if (permission.word.equals(word)) {
                return permission;
            }
        }
        return null;
    }
}
