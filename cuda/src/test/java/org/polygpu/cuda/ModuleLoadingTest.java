package org.polygpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** polygpu asks the CUDA driver for eager module loading, keeping a value the user set. */
class ModuleLoadingTest {
    @Test
    void eagerLoadingIsAskedForUnlessTheUserChose() {
        Optional<String> before = Optional.ofNullable(System.getenv(ModuleLoading.VARIABLE));
        assertEquals(Optional.of(before.orElse(ModuleLoading.EAGER)), ModuleLoading.preferEager());
        assertEquals(ModuleLoading.preferEager(), ModuleLoading.current());
    }
}
