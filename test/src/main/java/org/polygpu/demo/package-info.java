/**
 * The demo run by {@code scripts/demo.sh}: the vector-squares workload scheduled over emulated GPUs, printing where
 * each computation ran and the simulated makespan.
 */
package org.polygpu.demo;
