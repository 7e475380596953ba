/**
 * Scheduling: the execution context that turns launches and host accesses into computations, the stream pool and
 * the assignment of devices and streams (paper Fig. 5), coherence transfers at schedule time, and retirement of
 * finished work by polling events.
 */
package org.polygpu.sched;
