/**
 * The backend SPI the scheduler drives: devices, memory, streams, events, copies, modules and launches, with the
 * CUDA driver's semantics. Implemented by the CUDA backend and by the emulator, which also offers the optional
 * {@link org.polygpu.backend.VirtualTimeline} of its virtual clock.
 */
package org.polygpu.backend;
