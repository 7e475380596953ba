/**
 * The backend SPI the scheduler drives: devices, memory, streams, events, copies, modules and launches, with the
 * CUDA driver's semantics. Implemented by the CUDA backend and by the emulator.
 */
package org.polygpu.backend;
