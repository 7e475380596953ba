package org.polygpu.lang.objects;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.lang.builtins.BuiltinSignature;

/**
 * The members that programs use on polygpu's guest objects (arrays, kernels, launched kernels, devices, streams and
 * events), each with
 * how it is written and what it does: the source of the generated reference ({@code docs/reference/}). A test
 * compares these lists with the members the objects expose, so a member cannot be added without its description.
 * Arity is not checked through these signatures for the members that are properties (read, not called).
 */
public final class GuestMembers {
    private GuestMembers() {
    }

    /** The members of a device array (and, for those marked in {@link #arrayViewMembers}, of a row view). */
    public static List<BuiltinSignature> arrayMembers() {
        return java.util.Arrays.stream(ArrayMember.values()).map(ArrayMember::signature).toList();
    }

    /** The names of the members a view of part of an array ({@code m[i]}) has. */
    public static List<String> arrayViewMembers() {
        return java.util.Arrays.stream(ArrayMember.values()).filter(ArrayMember::onViews)
                .map(ArrayMember::guestName).toList();
    }

    /** The members of a kernel from {@code buildkernel} or {@code bindkernel}. */
    public static List<BuiltinSignature> kernelMembers() {
        return List.of(
                property("name", "The kernel's name, as its signature gives it."),
                property("ptx", "The PTX the kernel was compiled to, or null where there is none (a CUBIN)."),
                property("launchCount", "How many times the kernel was launched."),
                KernelSymbols.SIGNATURE);
    }

    /** The members of a kernel configured with its grid and block, {@code k(grid, block)}, once launched. */
    public static List<BuiltinSignature> launchMembers() {
        return List.of(
                property("device", "The device the scheduler put the last launch on (-1 before any)."),
                property("stream", "The stream of that device it used (-1 before any)."));
    }

    /** The members of a stream from {@code cudaStreamCreate()} or an event from {@code cudaEventCreate()}. */
    public static List<BuiltinSignature> handleMembers() {
        return List.of(
                property("id", "Its handle: a number unique among the context's streams and events, which is also "
                        + "its value as a native pointer."),
                property("device", "The device it was created on (the current device at the time)."));
    }

    /** The members of a device from {@code getdevices()} or {@code getdevice(k)}. */
    public static List<BuiltinSignature> deviceMembers() {
        List<BuiltinSignature> members = new ArrayList<>(List.of(
                property("id", "The device number, from 0."),
                property("properties", "The properties below as an object of their own."),
                new BuiltinSignature("isCurrent", 0, 0, "isCurrent()", "Whether this is the current device."),
                new BuiltinSignature("setCurrent", 0, 0, "setCurrent()", "Makes it the current device, as "
                        + "cudaSetDevice(id).")));
        for (DeviceProperty p : DeviceProperty.values()) {
            members.add(property(p.name(), describe(p)));
        }
        return members;
    }

    private static String describe(DeviceProperty p) {
        return switch (p) {
            case deviceName -> "The device's name.";
            case totalDeviceMemory -> "Its memory in bytes.";
            case freeDeviceMemory -> "Its free memory in bytes, asked for at each read.";
            case computeCapabilityMajor -> "The major number of its compute capability.";
            case computeCapabilityMinor -> "The minor number of its compute capability.";
            case multiProcessorCount -> "Its number of streaming multiprocessors.";
            case clockRate -> "Its clock in kHz.";
            case maxThreadsPerBlock -> "The most threads a block may have.";
            case maxSharedMemoryPerBlock -> "The most shared memory a block may use, in bytes.";
            case warpSize -> "The threads per warp.";
        };
    }

    private static BuiltinSignature property(String name, String help) {
        return new BuiltinSignature(name, 0, 0, name, help);
    }
}
