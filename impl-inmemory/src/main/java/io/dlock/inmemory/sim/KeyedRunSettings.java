package io.dlock.inmemory.sim;

/**
 * The settings of one {@link KeyedSimulation} run, checked by the builder.
 *
 * @param nodes           cluster size
 * @param names           distinct lock names
 * @param zipf            Zipf exponent of the key distribution
 * @param requestsPerNode requests each node's client makes, one at a time
 * @param thinkMax        longest think time before a request (drawn uniformly from 0)
 * @param holdMax         longest hold (drawn uniformly from 0)
 * @param delay           message delays
 * @param idleExpiry      time a name must be unused on a node before the node nominates it
 * @param sweepEvery      how often a node looks for idle names
 * @param seed            the run's seed
 * @param maxTime         virtual time after which an unfinished run stops and fails
 */
record KeyedRunSettings(int nodes, int names, double zipf, int requestsPerNode, long thinkMax, long holdMax,
                        DelayModel delay, long idleExpiry, long sweepEvery, long seed, long maxTime) {
}
