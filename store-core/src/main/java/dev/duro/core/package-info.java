/** Duro store-core. */
package dev.duro.core;
