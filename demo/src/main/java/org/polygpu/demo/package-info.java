/**
 * The scheduler demo, run as {@code bin/polygpu --java org.polygpu.demo.MultiGpuDemo [--compare]}: the vector-squares
 * workload scheduled over emulated GPUs through the runtime's Java API, printing where each computation ran and the
 * simulated makespan, for one device-selection policy or for each.
 */
package org.polygpu.demo;
