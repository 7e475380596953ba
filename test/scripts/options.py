# options: --polygpu.NumberOfGPUs=2 --polygpu.DeviceSelectionPolicy=round-robin --polygpu.ExecutionPolicy=sync --polygpu.EmulatedDeviceModel=A100
# getoptions() and the device functions reflect the options given to the launcher.
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
opts = CU.getoptions()
for name in ["DeviceSelectionPolicy", "DependencyPolicy", "ExecutionPolicy", "NumberOfGPUs", "DataThreshold",
             "InputPrefetch"]:
    print(name, "=", opts[name])
print("via member:", opts.RetrieveParentStreamPolicy, "with prefix:", opts["polygpu.NumberOfGPUs"])
print("cudaGetDeviceCount():", CU.cudaGetDeviceCount())
for d in CU.getdevices():
    print("GPU", d.id, d.deviceName, d.properties.computeCapabilityMajor, d.properties.maxThreadsPerBlock,
          d.totalDeviceMemory // 2**30, "GiB", d.freeDeviceMemory <= d.totalDeviceMemory)
print("getdevice(1).id:", CU.getdevice(1).id)
CU.cudaDeviceSynchronize()
