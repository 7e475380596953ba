/**
 * Test fixtures for code above the backend SPI: {@link org.polygpu.backend.testing.NoWorkBackend}, a backend of N
 * devices that does no work and can hold events in flight. Published in runtime's test jar, which the scheduler's
 * tests and the benchmarks use; nothing here may depend on other test classes.
 */
package org.polygpu.backend.testing;
