/**
 * The dependency DAG (paper §III-A): computations appended in program order get edges from the live computations
 * whose array accesses conflict with theirs; finished computations are pruned.
 */
package org.polygpu.dag;
