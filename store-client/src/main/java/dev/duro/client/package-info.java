/** Duro store-client. */
package dev.duro.client;
