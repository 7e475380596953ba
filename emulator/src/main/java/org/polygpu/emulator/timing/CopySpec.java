package org.polygpu.emulator.timing;

import java.util.Objects;

/**
 * The copies of a device model: over its host link, from and to pinned (page-locked) host memory and from and to
 * pageable host memory (which the driver stages through a pinned buffer), and within the device.
 */
public record CopySpec(LinkSpec hostToDevicePinned, LinkSpec hostToDevicePageable, LinkSpec deviceToHostPinned,
                       LinkSpec deviceToHostPageable, LinkSpec deviceToDevice) {
    public CopySpec {
        Objects.requireNonNull(hostToDevicePinned, "hostToDevicePinned");
        Objects.requireNonNull(hostToDevicePageable, "hostToDevicePageable");
        Objects.requireNonNull(deviceToHostPinned, "deviceToHostPinned");
        Objects.requireNonNull(deviceToHostPageable, "deviceToHostPageable");
        Objects.requireNonNull(deviceToDevice, "deviceToDevice");
    }

    /** The link spec of a copy to ({@code toDevice}) or from the device, of pinned host memory or not. */
    public LinkSpec host(boolean toDevice, boolean pinned) {
        if (toDevice) {
            return pinned ? hostToDevicePinned : hostToDevicePageable;
        }
        return pinned ? deviceToHostPinned : deviceToHostPageable;
    }
}
