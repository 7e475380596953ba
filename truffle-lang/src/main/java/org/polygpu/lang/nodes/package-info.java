/**
 * The nodes an {@code eval} source becomes: array expressions, names, calls and constants under one root. Sizes
 * are folded to constants by the parser; names resolve in the context's root namespace when executed.
 */
package org.polygpu.lang.nodes;
