/** The device-selection policies, one class each, found by the runtime through {@code ServiceLoader}. */
module org.polygpu.policies {
    requires org.polygpu.runtime;

    provides org.polygpu.sched.spi.DeviceSelectionPolicyProvider with
            org.polygpu.policies.SingleGpuPolicy.Provider,
            org.polygpu.policies.RoundRobinPolicy.Provider,
            org.polygpu.policies.StreamAwarePolicy.Provider,
            org.polygpu.policies.MinTransferSizePolicy.Provider,
            org.polygpu.policies.MinMinTransferTimePolicy.Provider,
            org.polygpu.policies.MinMaxTransferTimePolicy.Provider,
            org.polygpu.policies.EarliestFinishTimePolicy.Provider;
}
