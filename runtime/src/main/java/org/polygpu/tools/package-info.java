/**
 * The launcher's subcommands that need no guest language: {@code polygpu info} ({@link InfoCommand}: backend,
 * devices, NVRTC, bandwidth matrix) and {@code polygpu profile-interconnect} ({@link ProfileInterconnectCommand}:
 * measures and saves the bandwidth matrix). Each is a static {@code run(args, options, out, err)} returning the
 * process exit code, so the launcher dispatches to it and tests capture its output.
 */
package org.polygpu.tools;
