package org.polygpu.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;

class RuntimeConfigTest {
    @Test
    void optionsOverrideTheDefaults() {
        RuntimeConfig c = RuntimeConfig.fromOptions(Map.of("DependencyPolicy", "no-const",
                "RetrieveParentStreamPolicy", "same-as-parent", "NumberOfGPUs", "4", "DataThreshold", "0.25"));
        assertEquals(DependencyPolicy.NO_CONST, c.dependencyPolicy());
        assertEquals(RetrieveParentStreamPolicy.SAME_AS_PARENT, c.parentStreamPolicy());
        assertEquals(4, c.numberOfGpus());
        assertEquals(0.25, c.dataThreshold());
        assertEquals(ExecutionPolicy.ASYNC, c.executionPolicy());
    }

    @Test
    void badValuesListTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RuntimeConfig.fromOptions(Map.of("RetrieveParentStreamPolicy", "nearest")));
        assertEquals("invalid value 'nearest' for option RetrieveParentStreamPolicy; valid values: same-as-parent, "
                + "disjoint, multigpu-disjoint, multigpu-early-disjoint", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RuntimeConfig.fromOptions(Map.of("DataThreshold", "2")));
        assertThrows(IllegalArgumentException.class, () -> RuntimeConfig.fromOptions(Map.of("NumberOfGPUs", "x")));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> RuntimeConfig.fromOptions(Map.of("Colour", "blue")));
        assertEquals(true, unknown.getMessage().contains("ExecutionPolicy"));
    }
}
