/** Duro store-server. */
package dev.duro.server;
