/**
 * The launcher's subcommands that need no guest language: {@code polygpu info} ({@link
 * org.polygpu.lang.launcher.commands.InfoCommand}: backend, devices, bandwidth matrix, which backends can run, NVRTC)
 * and {@code polygpu profile-interconnect} ({@link org.polygpu.lang.launcher.commands.ProfileInterconnectCommand}:
 * measures and saves the bandwidth matrix). Each is a static {@code run(args, options, out, err)} returning the
 * process exit code, so the launcher dispatches to it and tests capture its output. They see backends through the
 * runtime's SPI only, so that no backend module is needed to compile them.
 */
package org.polygpu.lang.launcher.commands;
