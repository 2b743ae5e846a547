/** Duro consensus. */
package dev.duro.consensus;
