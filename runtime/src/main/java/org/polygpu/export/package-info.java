/**
 * Exports of a schedule: the DAG as Graphviz DOT (clustered by device and stream, edges labelled with arrays) and
 * the timeline as Chrome trace-event JSON that Perfetto opens.
 */
package org.polygpu.export;
