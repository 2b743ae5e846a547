/**
 * Small helpers the engine's parts share and that belong to none of them: copies of arrays in pieces that the
 * collector allocates as ordinary objects ({@link dev.duro.core.util.Chunked}).
 */
package dev.duro.core.util;
