package org.polygpu.backend;

import java.util.Arrays;
import java.util.List;

/**
 * The pointer parameters of a kernel that its signature declares read-only ({@code in}, {@code const}), by
 * position and name. A backend that can check a kernel's stores refuses a store or atomic through such a pointer;
 * one that cannot ignores it. Built once per kernel; immutable.
 */
public final class ReadOnlyParameters {
    /**
     * What a program that stores through a read-only pointer can do, for the messages that refuse or warn of such a
     * store: GrCUDA's programs store through {@code const} pointers because GrCUDA's memory is unified.
     */
    public static final String REMEDY = "declare the parameter out or inout, or run GrCUDA programs written for "
            + "unified memory with --polygpu.MemoryModel=managed";

    /** No parameter is declared read-only: nothing is checked. */
    public static final ReadOnlyParameters NONE = new ReadOnlyParameters(new String[0], new int[0]);

    /** The name of each read-only parameter by position; {@code null} for the others. */
    private final String[] names;
    /** The size of each read-only parameter's elements in bytes, 0 when unknown. */
    private final int[] elementBytes;

    private ReadOnlyParameters(String[] names, int[] elementBytes) {
        this.names = names;
        this.elementBytes = elementBytes;
    }

    /**
     * @param names    every parameter's name, in order
     * @param readOnly whether each parameter is a pointer declared read-only
     */
    public static ReadOnlyParameters of(List<String> names, List<Boolean> readOnly) {
        return of(names, readOnly, java.util.Collections.nCopies(names.size(), 0));
    }

    /**
     * @param names        every parameter's name, in order
     * @param readOnly     whether each parameter is a pointer declared read-only
     * @param elementBytes the size of each parameter's elements in bytes, 0 when the signature does not say
     */
    public static ReadOnlyParameters of(List<String> names, List<Boolean> readOnly, List<Integer> elementBytes) {
        if (names.size() != readOnly.size() || names.size() != elementBytes.size()) {
            throw new IllegalArgumentException(names.size() + " names but " + readOnly.size() + " flags and "
                    + elementBytes.size() + " element sizes");
        }
        int[] sizes = new int[names.size()];
        String[] kept = new String[names.size()];
        boolean any = false;
        for (int i = 0; i < kept.length; i++) {
            if (readOnly.get(i)) {
                kept[i] = names.get(i);
                sizes[i] = elementBytes.get(i);
                any = true;
            }
        }
        return any ? new ReadOnlyParameters(kept, sizes) : NONE;
    }

    /** Whether no parameter is read-only. */
    public boolean isEmpty() {
        return names.length == 0;
    }

    /** Whether parameter {@code index} is a pointer declared read-only. */
    public boolean isReadOnly(int index) {
        return index < names.length && names[index] != null;
    }

    /** The name of parameter {@code index}, which is read-only. */
    public String name(int index) {
        if (!isReadOnly(index)) {
            throw new IllegalArgumentException("parameter " + index + " is not read-only");
        }
        return names[index];
    }

    /** The size in bytes of the elements of read-only parameter {@code index}, or 0 when the signature does not say. */
    public int elementBytes(int index) {
        name(index);
        return elementBytes[index];
    }

    @Override
    public String toString() {
        return "read-only " + Arrays.stream(names).filter(n -> n != null).toList();
    }
}
