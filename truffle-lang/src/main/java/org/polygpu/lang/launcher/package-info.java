/**
 * The command-line launcher behind {@code bin/polygpu}: Python and JavaScript scripts with the {@code polygpu}
 * language, its options, exit codes and guest errors, and the {@code info} and {@code profile-interconnect}
 * subcommands.
 */
package org.polygpu.lang.launcher;
