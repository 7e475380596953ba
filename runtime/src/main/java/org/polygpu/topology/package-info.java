/**
 * The interconnect topology: the bandwidth matrix between GPUs and the host, its CSV loader and writer
 * ({@code From,To,Bandwidth}, GB/s, {@code -1} for the host), the presets shipped as resources, the profiler that
 * measures a backend's matrix, and where a real machine's matrix is found ({@link
 * org.polygpu.topology.BandwidthMatrixFiles}).
 */
package org.polygpu.topology;
