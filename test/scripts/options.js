// options: --polygpu.EmulatedDevices=3 --polygpu.DeviceSelectionPolicy=stream-aware --polygpu.DependencyPolicy=no-const
// getoptions() from JavaScript, as members.
const CU = Polyglot.eval('polygpu', 'CU');
const opts = CU.getoptions();
console.log('DeviceSelectionPolicy', opts.DeviceSelectionPolicy, 'DependencyPolicy', opts.DependencyPolicy);
console.log('devices', CU.cudaGetDeviceCount(), CU.getdevices().length, 'device 2:', CU.getdevice(2).deviceName);
