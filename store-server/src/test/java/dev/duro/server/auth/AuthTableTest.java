package dev.duro.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import java.security.SecureRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Grants on prefixes, the built-in root role, reserved keys, and admin changes that refuse bad input. */
class AuthTableTest {
    private final AuthTable table = AuthTableCodecTest.sample();

    @Test
    void aGrantCoversExactlyTheKeysUnderItsPrefixAndTheStrongestGrantWins() {
        assertEquals(Permission.READWRITE, table.permission("alice", Bytes.utf8("app/x")));
        assertEquals(Permission.READWRITE, table.permission("alice", Bytes.utf8("app/")));
        assertEquals(Permission.READ, table.permission("alice", Bytes.utf8("ap")), "the empty prefix: read");
        assertNull(table.permission("cert-only", Bytes.utf8("app/x")), "no roles, no grants");
        assertNull(table.permission("stranger", Bytes.utf8("app/x")));
        assertEquals(Permission.READWRITE, table.permission("root", Bytes.utf8("anything")));
    }

    @Test
    void reservedKeysAreGrantedToNobodyNotEvenRoot() {
        assertNull(table.permission("root", AuthTable.KEY));
        assertNull(table.permission("alice", AuthTable.KEY));
        assertTrue(AuthTable.isReserved(AuthTable.KEY));
        AdminException grant = assertThrows(
                AdminException.class, () -> table.withGrant("app-writer", Permission.READ, AuthTable.RESERVED_PREFIX));
        assertTrue(grant.getMessage().contains("reserved"), grant.getMessage());
    }

    @Test
    void authCannotBeEnabledWithoutARootUserNorRootLoseItsRoleWhileEnabled() {
        AdminException enable = assertThrows(AdminException.class, () -> AuthTable.EMPTY.withEnabled(true));
        assertTrue(enable.getMessage().contains("root"), enable.getMessage());
        assertThrows(AdminException.class, () -> table.withUserRole("root", AuthTable.ROOT, false));
        assertThrows(AdminException.class, () -> table.withoutUser("root"));
    }

    @Test
    void removingARoleTakesItFromEveryUser() {
        AuthTable next = table.withoutRole("app-writer");
        assertTrue(next.rolesOf("alice").isEmpty());
        assertNull(next.permission("alice", Bytes.utf8("app/x")));
    }

    @Test
    void adminCommandsNameTheArgumentTheyRefuse() {
        Passwords passwords = new Passwords(10_000, new SecureRandom());
        AdminException unknown = assertThrows(
                AdminException.class, () -> AdminCommands.prepare("user-frobnicate", List.of(), null, passwords));
        assertTrue(unknown.getMessage().contains("user-frobnicate"), unknown.getMessage());
        AdminException permission = assertThrows(
                AdminException.class,
                () -> AdminCommands.prepare("role-grant", List.of("r", "write", "app/"), null, passwords));
        assertTrue(permission.getMessage().contains("'write'"), permission.getMessage());
        AdminException arity =
                assertThrows(AdminException.class, () -> AdminCommands.prepare("role-add", List.of(), null, passwords));
        assertTrue(arity.getMessage().contains("ROLE"), arity.getMessage());
        AdminCommands.Change duplicate = AdminCommands.prepare("role-add", List.of("app-writer"), null, passwords);
        AdminException exists =
                assertThrows(AdminException.class, () -> duplicate.apply().apply(table));
        assertTrue(exists.getMessage().contains("already exists"), exists.getMessage());
        AdminException name = assertThrows(AdminException.class, () -> table.withUser("has space", null));
        assertTrue(name.getMessage().contains("has space"), name.getMessage());
    }
}
