package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.lang.MarkdownBlocks.Block;

/** The convention that makes a documentation block runnable, read from Markdown pages. */
class MarkdownBlocksTest {
    @TempDir
    Path dir;

    private List<Block> blocks(String markdown) throws IOException {
        Path page = dir.resolve("page.md");
        Files.writeString(page, markdown);
        return MarkdownBlocks.runnable(page);
    }

    @Test
    void programsTakeOptionsExitStatusAndTheOutputBlockAfterThem() throws IOException {
        List<Block> b = blocks("""
                # Title

                ```python --polygpu.EmulatedDevices=2 exit=1
                print(1)
                ```

                ```output
                1
                ```

                ```text
                not run
                ```

                ```js
                console.log(2)
                ```

                Text between a program and an output block detaches it.

                ```output
                2
                ```

                ```java
                public class A {}
                ```
                """);
        assertEquals(3, b.size(), "python, js and java blocks; text and output are not programs");
        assertEquals(List.of("--polygpu.EmulatedDevices=2"), b.get(0).options());
        assertEquals(1, b.get(0).exit());
        assertEquals(3, b.get(0).line());
        assertEquals("print(1)\n", b.get(0).code());
        assertEquals("1\n", b.get(0).output());
        assertEquals("js", b.get(1).language());
        assertNull(b.get(1).output(), "an output block after text belongs to no program");
        assertEquals("java", b.get(2).language());
        assertNull(b.get(2).output());
    }

    @Test
    void fencesThatWouldHideAProgramAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> blocks("```javascript\nconsole.log(1)\n```\n"));
        assertTrue(e.getMessage().contains("page.md:1") && e.getMessage().contains("python, js or java"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> blocks("```py\nprint(1)\n```\n"));
    }

    @Test
    void unclosedFencesAndUnknownFenceWordsAreRefused() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> blocks("text\n```python\nprint(1)\n"))
                .getMessage().contains("never closed"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> blocks("```python quickly\nprint(1)\n```\n"))
                .getMessage().contains("'quickly'"));
    }
}
