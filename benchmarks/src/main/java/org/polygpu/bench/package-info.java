/**
 * Benchmarks of the scheduler's own cost: a backend that does no work, the launch workload, the JMH benchmark and
 * the launch-scaling program. Figures and commands are in {@code benchmarks/README.md}.
 */
package org.polygpu.bench;
