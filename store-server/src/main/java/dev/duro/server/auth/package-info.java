/**
 * Users, roles and grants as data (docs/auth.md): the auth table kept in the cluster under a reserved key, its
 * versioned encoding, PBKDF2 password hashes, and the administration commands as pure functions from one table to
 * the next. Nothing here does I/O or knows the server: the server package reads and writes the record and calls
 * these.
 */
package dev.duro.server.auth;
