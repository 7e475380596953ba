package org.polygpu.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RuntimeConfigTest {
    @Test
    void withersOverrideOneOptionAndKeepTheRest() {
        RuntimeConfig c = RuntimeConfig.defaults().withDependencyPolicy(DependencyPolicy.NO_CONST)
                .withParentStreamPolicy(RetrieveParentStreamPolicy.SAME_AS_PARENT).withNumberOfGpus(4)
                .withDataThreshold(0.25);
        assertEquals(DependencyPolicy.NO_CONST, c.dependencyPolicy());
        assertEquals(RetrieveParentStreamPolicy.SAME_AS_PARENT, c.parentStreamPolicy());
        assertEquals(4, c.numberOfGpus());
        assertEquals(0.25, c.dataThreshold());
        assertEquals(ExecutionPolicy.ASYNC, c.executionPolicy());
        assertEquals("minmax-transfer-time", c.deviceSelectionPolicy());
    }

    @Test
    void badOptionTextListsTheValidValues() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OptionValue.parse(RetrieveParentStreamPolicy.class, "RetrieveParentStreamPolicy", "nearest"));
        assertEquals("invalid value 'nearest' for option RetrieveParentStreamPolicy; valid values: same-as-parent, "
                + "disjoint, multigpu-disjoint, multigpu-early-disjoint", e.getMessage());
        assertEquals(MemoryModel.MANAGED, OptionValue.parse(MemoryModel.class, "MemoryModel", "managed"));
    }

    @Test
    void outOfRangeValuesAreRefusedByTheRecord() {
        RuntimeConfig d = RuntimeConfig.defaults();
        assertThrows(IllegalArgumentException.class, () -> d.withDataThreshold(2));
        assertThrows(IllegalArgumentException.class, () -> d.withDataThreshold(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> d.withNumberOfGpus(-1));
    }
}
