/**
 * The launcher's subcommands that need no guest language: {@code polygpu info} ({@link
 * org.polygpu.lang.launcher.commands.InfoCommand}: backend, devices, bandwidth matrix, which backends can run,
 * NVRTC), {@code polygpu profile-interconnect} ({@link org.polygpu.lang.launcher.commands.ProfileInterconnectCommand}:
 * measures and saves the bandwidth matrix) and {@code polygpu calibrate} ({@link
 * org.polygpu.lang.launcher.commands.CalibrateCommand}: measures a GPU and fits a device model). Each is a static
 * {@code run(args, options, out, err)} returning the process exit code, so the launcher dispatches to it and tests
 * capture its output. They see backends through the runtime's SPI only, so that no backend module is needed to
 * compile them: {@code calibrate} runs the runtime's suite and reaches the emulator's fit, which owns the device
 * model, through the runtime's {@code CalibrationFit} service.
 */
package org.polygpu.lang.launcher.commands;
