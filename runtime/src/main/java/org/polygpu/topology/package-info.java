/**
 * The interconnect topology: the bandwidth matrix between GPUs and the host, its CSV loader
 * ({@code From,To,Bandwidth}, GB/s, {@code -1} for the host) and the presets shipped as resources.
 */
package org.polygpu.topology;
