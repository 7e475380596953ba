/**
 * The paper's five benchmarks (VEC, B&S, ML, CG, MUL) as Java host programs of the {@code polygpu} language, on
 * the kernels of {@code org/polygpu/bench/kernels}, which the Python and JavaScript versions share. Each validates
 * its result against a CPU reference; {@link org.polygpu.bench.programs.ProgramLauncher} runs one from the command
 * line and reports the simulated makespan.
 */
package org.polygpu.bench.programs;
