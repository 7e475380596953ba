/**
 * The policy study of the paper's §IV on the emulator: every benchmark at a paper-like size, on 1 to 8 GPUs of each
 * emulated topology, under every device-selection policy and as the hand-optimized baseline, in sampled execution;
 * the results as {@code study.csv} ({@link org.polygpu.bench.study.StudyCsv}) and three plots
 * ({@link org.polygpu.bench.study.StudyCharts}). Entry point: {@link org.polygpu.bench.study.Study}.
 */
package org.polygpu.bench.study;
