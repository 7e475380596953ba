/**
 * Parsers of polygpu text: {@code eval} sources ({@link org.polygpu.lang.parser.Parser}), kernel signatures in NIDL
 * and legacy NFI form ({@link org.polygpu.lang.parser.SignatureParser}) and element type names.
 */
package org.polygpu.lang.parser;
