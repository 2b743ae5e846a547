package dev.duro.cli;

import dev.duro.client.DuroClient;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.annotation.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./duro admin}: users, roles and grants, kept in the cluster (docs/auth.md). Each command is one admin
 * request to a node, which changes the cluster's auth record; it prints what the node did. Once auth is enabled,
 * only a user with the role {@code root} may run them ({@code --user root --password-file FILE}).
 */
final class Admin {
    private Admin() {}

    static CommandLine commandLine(InputStream in, PrintStream out) {
        CommandLine user = new CommandLine(new Group())
                .addSubcommand("add", new UserAdd(in, out))
                .addSubcommand("remove", leaf("user-remove", "NAME", "Removes a user.", out))
                .addSubcommand(
                        "grant-role", leaf("user-grant-role", "NAME ROLE", "Gives a user a role (root: all).", out))
                .addSubcommand("revoke-role", leaf("user-revoke-role", "NAME ROLE", "Takes a role from a user.", out));
        CommandLine role = new CommandLine(new Group())
                .addSubcommand("add", leaf("role-add", "ROLE", "Adds a role without grants.", out))
                .addSubcommand(
                        "remove", leaf("role-remove", "ROLE", "Removes a role and takes it from every user.", out))
                .addSubcommand(
                        "grant",
                        leaf(
                                "role-grant",
                                "ROLE read|readwrite PREFIX",
                                "Grants read or readwrite on every key starting with PREFIX (\"\": every key).",
                                out))
                .addSubcommand("revoke", leaf("role-revoke", "ROLE PREFIX", "Takes back the grant on PREFIX.", out));
        CommandLine auth = new CommandLine(new Group())
                .addSubcommand(
                        "enable", leaf("auth-enable", "", "Turns auth on; needs a user root with the role root.", out))
                .addSubcommand("disable", leaf("auth-disable", "", "Turns auth off: everyone may do everything.", out))
                .addSubcommand("status", leaf("auth-status", "", "Prints the switch, the users and the roles.", out));
        user.getCommandSpec().name("user").usageMessage().description("users: add, remove, grant-role, revoke-role");
        role.getCommandSpec().name("role").usageMessage().description("roles: add, remove, grant, revoke");
        auth.getCommandSpec().name("auth").usageMessage().description("the auth switch: enable, disable, status");
        CommandLine admin = new CommandLine(new Group())
                .addSubcommand("user", user)
                .addSubcommand("role", role)
                .addSubcommand("auth", auth);
        admin.getCommandSpec()
                .name("admin")
                .usageMessage()
                .description("Users, roles and grants of the cluster (docs/auth.md). Once auth is enabled, only a"
                        + " user with the role root may run these.");
        return admin;
    }

    private static CommandLine leaf(String command, String arguments, String description, PrintStream out) {
        CommandLine leaf = new CommandLine(new Leaf(command, out));
        leaf.getCommandSpec()
                .usageMessage()
                .description(
                        arguments.isEmpty()
                                ? description + " No arguments."
                                : description + " Arguments: " + arguments + ".");
        return leaf;
    }

    /** A command that only groups others: run alone, picocli names them ("Missing required subcommand"). */
    @Command(synopsisSubcommandLabel = "COMMAND")
    static final class Group {
        @Option(
                names = {"-h", "--help"},
                usageHelp = true,
                description = "show this help and exit")
        boolean help;
    }

    /** One admin request, its arguments as given; the node checks them and names a wrong one. */
    @Command
    static class Leaf extends ClientCommand {
        private final String command;
        private final PrintStream out;

        @Parameters(paramLabel = "ARG", description = "the command's arguments", arity = "0..*")
        List<String> arguments = List.of();

        Leaf(String command, PrintStream out) {
            this.command = command;
            this.out = out;
        }

        @Override
        int run(DuroClient client) {
            out.println(client.admin(command, arguments, secret()).strip());
            return 0;
        }

        @Nullable
        char[] secret() {
            return null;
        }
    }

    @Command(
            name = "add",
            description = "Adds a user. Its password comes from --new-password-file, else the terminal, else the first"
                    + " line of standard input; --no-password makes a user that authenticates by client certificate"
                    + " only.")
    static final class UserAdd extends Leaf {
        private final InputStream in;

        @Option(names = "--new-password-file", paramLabel = "FILE", description = "the new user's password")
        @Nullable
        Path newPasswordFile;

        @Option(names = "--no-password", description = "no password: the user authenticates by certificate only")
        boolean noPassword;

        UserAdd(InputStream in, PrintStream out) {
            super("user-add", out);
            this.in = in;
        }

        @Override
        @Nullable
        char[] secret() {
            if (noPassword) {
                return null;
            }
            String name = arguments.isEmpty() ? "the new user" : arguments.get(0);
            char[] password = Passwords.read(
                    spec.commandLine(), newPasswordFile, "--new-password-file", "new password for " + name, in);
            return Arrays.copyOf(password, password.length);
        }
    }
}
