/**
 * The command-line launcher behind {@code bin/polygpu}: Python and JavaScript scripts with the {@code polygpu}
 * language, its options, exit codes and guest errors, and the {@code info}, {@code profile-interconnect} and
 * {@code calibrate} subcommands.
 */
package org.polygpu.lang.launcher;
