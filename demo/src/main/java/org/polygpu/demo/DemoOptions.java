package org.polygpu.demo;

import org.polygpu.backend.LaunchConfig;

/** The demo's command line. */
record DemoOptions(int devices, String topology, String model, String policy, int partitions, int elements,
                   String dotFile, String traceFile, boolean compare, boolean help) {
    static final String USAGE = """
            usage: scripts/demo.sh [--devices N] [--topology NAME|CSV] [--model V100|A100|H100]
                                   [--policy NAME] [--partitions P] [--elements N]
                                   [--dot FILE] [--trace FILE] [--compare]
              --devices     emulated GPUs (default 4)
              --topology    bandwidth matrix preset or CSV file (default v100x8)
              --model       device model (default V100)
              --policy      DeviceSelectionPolicy (default minmax-transfer-time)
              --partitions  vector partitions (default: the number of devices)
              --elements    floats per partition (default 1048576)
              --dot FILE    write the scheduled DAG as Graphviz DOT
              --trace FILE  write the timeline as Chrome trace JSON (open it in Perfetto)
              --compare     also print the makespan of every policy""";

    LaunchConfig launch() {
        return LaunchConfig.of((elements + 255) / 256, 256);
    }

    static DemoOptions parse(String[] args) {
        int devices = 4;
        String topology = "v100x8";
        String model = "V100";
        String policy = "minmax-transfer-time";
        int partitions = -1;
        int elements = 1 << 20;
        String dot = null;
        String trace = null;
        boolean compare = false;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--compare" -> compare = true;
                case "-h", "--help" -> help = true;
                case "--devices" -> devices = positive(a, value(args, ++i, a));
                case "--topology" -> topology = value(args, ++i, a);
                case "--model" -> model = value(args, ++i, a);
                case "--policy" -> policy = value(args, ++i, a);
                case "--partitions" -> partitions = positive(a, value(args, ++i, a));
                case "--elements" -> elements = positive(a, value(args, ++i, a));
                case "--dot" -> dot = value(args, ++i, a);
                case "--trace" -> trace = value(args, ++i, a);
                default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
        }
        return new DemoOptions(devices, topology, model, policy, partitions < 0 ? devices : partitions, elements,
                dot, trace, compare, help);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int positive(String option, String value) {
        int v;
        try {
            v = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a positive integer, got '" + value + "'", e);
        }
        if (v < 1) {
            throw new IllegalArgumentException(option + " needs a positive integer, got '" + value + "'");
        }
        return v;
    }
}
